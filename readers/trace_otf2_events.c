/* trace_otf2_events.c: the events of one MPI rank of an OTF2 archive into
 * struct tr_trace (tr_otf2_read, trace_otf2.h), through the OTF2 library.
 *
 * OTF2 records a rank as a location: Enter and Leave events of regions (an
 * MPI call is a region of the MPI paradigm), and inside them the MPI events
 * of the call: MpiSend, MpiRecv (with the sender the receive matched),
 * MpiIsend, MpiIrecvRequest (an Irecv started), MpiIsendComplete and
 * MpiIrecv (with the sender) where the request completes,
 * MpiCollectiveBegin and End (the operation, communicator, root, and the
 * bytes sent and received in all), NonBlockingCollectiveRequest and
 * NonBlockingCollectiveComplete, MpiRequestTest and MpiRequestCancelled.
 * Each MPI region left becomes the call its events say it is (by its name
 * when it has none); a receive or a nonblocking collective learns its peer
 * or communicator only where it completes, and its call is filled in then. */
#include "trace_otf2.h"
#include "trace_build.h"
#include "kmap.h"
#include "util.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef HAVE_OTF2

int tr_otf2_read(struct tr_otf2 *o, size_t r, struct tr_trace *t, char *err, size_t errlen)
{
	(void)o;
	(void)r;
	memset(t, 0, sizeof *t);
	snprintf(err, errlen, "error: OTF2 archives are not supported");
	return -1;
}

#else

#include "trace_otf2_int.h"

/* A point-to-point event: peer (communicator rank), communicator, tag,
 * bytes. */
struct p2p {
	uint32_t peer, comm, tag;
	uint64_t bytes;
};

/* The MPI call being read: the events inside the outermost MPI region. */
struct acc {
	long region;                /* index in the regions */
	double start;
	uint32_t line;              /* event number of its Enter */
	int send, recv, isend, irecv, coll, nbc, cancel;
	struct p2p s, r, is;
	uint64_t irecv_req, isend_req, nbc_req, cancel_req;
	OTF2_CollectiveOp op;
	uint32_t ccomm, root;
	uint64_t sent, recvd;
	uint64_t *done;             /* requests completed */
	size_t ndone, capdone;
};

struct frame {
	long region;
	int mpi;
};

/* Communicators as this rank sees them: its position and the size. */
struct cview {
	int32_t me, size;
	int64_t *members;           /* world ranks (NULL: this rank is not one) */
};

struct lread {
	struct tr_otf2 *o;
	size_t rank;
	uint64_t loc;
	struct tr_build *b;
	struct cview *cv;           /* by communicator index */
	struct acc a;
	int open;                   /* a is in use */
	struct frame *stk;
	size_t nstk, capstk;
	int depth;                  /* MPI regions open */
	util_kmap pend;             /* request id -> call index (Irecv, nonblocking collective) */
	uint64_t events, nonmpi_regions, leave_alone, left_open, measurement, flushes;
	uint64_t event;             /* number of the current event */
	double last, paused;
	int failed;
	char msg[300];
};

/* Records the first problem of the read; returns OTF2_CALLBACK_INTERRUPT. */
static OTF2_CallbackCode lfail(struct lread *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static OTF2_CallbackCode lfail(struct lread *l, const char *fmt, ...)
{
	va_list ap;
	if (!l->failed) {
		l->failed = 1;
		va_start(ap, fmt);
		vsnprintf(l->msg, sizeof l->msg, fmt, ap);
		va_end(ap);
	}
	return OTF2_CALLBACK_INTERRUPT;
}

static double us(const struct lread *l, OTF2_TimeStamp t)
{
	return ((double)t - (double)l->o->offset) * 1e6 / (double)l->o->resolution;
}

/* Sets the communicator fields of call c for OTF2 communicator id. */
static void set_comm(const struct lread *l, struct tr_call *c, uint32_t id)
{
	long i = index_of(l->o->comm_at, l->o->ncomm_at, &l->o->comms_ix, id);
	c->comm = id;
	if (i >= 0 && l->cv[i].members) {
		c->comm_rank = l->cv[i].me;
		c->comm_size = l->cv[i].size;
	} else {
		c->comm_rank = -1;
		c->comm_size = 0;
	}
}

/* Kinds whose calls communicate: without their MPI events the trace does
 * not say with whom. */
static int needs_data(enum tr_kind k)
{
	switch (tr_blocking(k)) {
	case TR_SEND: case TR_BSEND: case TR_SSEND: case TR_RSEND: case TR_RECV:
	case TR_ISEND: case TR_IBSEND: case TR_ISSEND: case TR_IRSEND: case TR_IRECV:
	case TR_SENDRECV: case TR_SENDRECV_REPLACE:
	case TR_BARRIER: case TR_BCAST: case TR_REDUCE: case TR_ALLREDUCE: case TR_GATHER:
	case TR_GATHERV: case TR_SCATTER: case TR_SCATTERV: case TR_ALLGATHER: case TR_ALLGATHERV:
	case TR_ALLTOALL: case TR_ALLTOALLV: case TR_REDUCE_SCATTER: case TR_REDUCE_SCATTER_BLOCK:
	case TR_SCAN: case TR_EXSCAN:
		return 1;
	default:
		return 0;
	}
}

/* How the bytes of one call follow from OTF2's totals (Score-P counts, per
 * call, the bytes sent and received in all: a root's Bcast sends the message
 * to every rank, an Allreduce sends the vector to every rank, ...). */
enum rule {
	R_NONE,       /* no bytes */
	R_ROOT_OUT,   /* the root sends a block to each rank, the others receive one */
	R_TO_ROOT,    /* every rank sends one block (an in-place root receives N-1) */
	R_ALL,        /* every rank sends a block to each rank */
	R_SCAN,       /* rank i sends to ranks i..N-1 */
	R_EXSCAN      /* rank i sends to ranks i+1..N-1 */
};

/* X(OTF2 operation, tr_kind, rule); the operations that make or free
 * communicators and windows have no row (their call is taken by name). */
#define OTF2_COLLS(X) \
	X(BARRIER, BARRIER, R_NONE) X(BCAST, BCAST, R_ROOT_OUT) X(GATHER, GATHER, R_TO_ROOT) \
	X(GATHERV, GATHERV, R_TO_ROOT) X(SCATTER, SCATTER, R_ROOT_OUT) \
	X(SCATTERV, SCATTERV, R_ROOT_OUT) X(ALLGATHER, ALLGATHER, R_ALL) \
	X(ALLGATHERV, ALLGATHERV, R_ALL) X(ALLTOALL, ALLTOALL, R_ALL) X(ALLTOALLV, ALLTOALLV, R_ALL) \
	X(ALLREDUCE, ALLREDUCE, R_ALL) X(REDUCE, REDUCE, R_TO_ROOT) \
	X(REDUCE_SCATTER, REDUCE_SCATTER, R_ALL) X(SCAN, SCAN, R_SCAN) X(EXSCAN, EXSCAN, R_EXSCAN) \
	X(REDUCE_SCATTER_BLOCK, REDUCE_SCATTER_BLOCK, R_ALL)

/* The tr_kind and rule of a collective operation; TR_OTHER if none. */
static enum tr_kind coll_kind(OTF2_CollectiveOp op, enum rule *rule)
{
	switch (op) {
#define OTF2_COLL_CASE(o, k, r) case OTF2_COLLECTIVE_OP_##o: *rule = r; return TR_##k;
	OTF2_COLLS(OTF2_COLL_CASE)
#undef OTF2_COLL_CASE
	default:
		*rule = R_NONE;
		return TR_OTHER;
	}
}

/* The nonblocking twin of a blocking collective kind (itself if none). */
static enum tr_kind nonblocking(enum tr_kind k)
{
	switch (k) {
#define TR_ICOLL_TWIN(i, b) case TR_##b: return TR_##i;
	TR_ICOLLS(TR_ICOLL_TWIN)
#undef TR_ICOLL_TWIN
	default:
		return k;
	}
}

/* total / parts when it divides, else total / (parts - 1) when that
 * divides (an in-place call), else total / parts rounded. */
static int64_t share(uint64_t total, int64_t parts)
{
	if (parts <= 0)
		return 0;
	if (total % (uint64_t)parts == 0)
		return (int64_t)(total / (uint64_t)parts);
	if (parts > 1 && total % (uint64_t)(parts - 1) == 0)
		return (int64_t)(total / (uint64_t)(parts - 1));
	return (int64_t)((total + (uint64_t)parts / 2) / (uint64_t)parts);
}

/* The byte fields of collective call c from the totals sent and received. */
static void coll_bytes(struct tr_call *c, enum rule rule, uint64_t sent, uint64_t recvd)
{
	int64_t n = c->comm_size, me = c->comm_rank;
	int root = c->root >= 0 && c->root == c->comm_rank;
	switch (rule) {
	case R_NONE:
		break;
	case R_ROOT_OUT:
		c->bytes = root ? share(sent, n) : 0;
		c->rbytes = root ? c->bytes : (int64_t)recvd;
		if (tr_blocking((enum tr_kind)c->kind) == TR_BCAST && !root)
			c->bytes = c->rbytes;
		break;
	case R_TO_ROOT:
		c->bytes = sent ? (int64_t)sent : share(recvd, n - 1);
		c->rbytes = root ? share(recvd, n) : 0;
		break;
	case R_ALL:
		c->bytes = share(sent, n);
		c->rbytes = share(recvd, n);
		break;
	case R_SCAN:
		c->bytes = share(sent, n - me);
		break;
	case R_EXSCAN:
		c->bytes = n - me - 1 > 0 ? share(sent, n - me - 1) : share(recvd, me);
		break;
	}
}

/* Appends a call of kind k for the current MPI call; *i is its index. */
static int new_call(struct lread *l, enum tr_kind k, double end, size_t *i)
{
	struct tr_call *c;
	if (tr_build_call(l->b, k, l->a.line, i)) {
		lfail(l, "out of memory");
		return -1;
	}
	c = &l->b->t->calls[*i];
	c->start = l->a.start;
	c->end = end;
	c->paused = l->paused;
	l->paused = 0;
	if (k == TR_OTHER) {
		const char *name = l->a.region >= 0 ? string_of(l->o, l->o->regions[l->a.region].name)
		                                    : "(MPI events outside MPI regions)";
		if (tr_build_name(l->b, name, &c->name)) {
			lfail(l, "out of memory");
			return -1;
		}
	}
	return 0;
}

/* Remembers that request id started call i (completed later). */
static int pend_put(struct lread *l, uint64_t id, size_t i)
{
	uint32_t *v = util_kmap_get(&l->pend, &id, sizeof id);
	if (v) {
		*v = (uint32_t)i;
		return 0;
	}
	if (i > UINT32_MAX || util_kmap_put(&l->pend, &id, sizeof id, (uint32_t)i)) {
		lfail(l, "out of memory");
		return -1;
	}
	return 0;
}

/* The call request id started, or -1; it is forgotten. */
static long pend_take(struct lread *l, uint64_t id)
{
	uint32_t *v = util_kmap_get(&l->pend, &id, sizeof id);
	long i = v && *v != UINT32_MAX ? (long)*v : -1;
	if (v)
		*v = UINT32_MAX;
	return i;
}

/* The current MPI call ends at time end: appends its calls. */
static int finish(struct lread *l, double end)
{
	struct acc *a = &l->a;
	enum tr_kind byname = a->region >= 0 ? (enum tr_kind)l->o->regions[a->region].kind : TR_OTHER;
	enum tr_kind k;
	struct tr_call *c;
	size_t i;
	int main = 1;
	l->open = 0;
	if (a->coll) {
		enum rule rule;
		k = coll_kind(a->op, &rule);
		if (k == TR_OTHER && byname != TR_OTHER && !needs_data(byname))
			k = byname;   /* MPI_Comm_split & co.: no ops */
		if (new_call(l, k, end, &i))
			return -1;
		c = &l->b->t->calls[i];
		set_comm(l, c, a->ccomm);
		c->root = a->root == OTF2_UNDEFINED_UINT32 ? -1 : (int32_t)a->root;
		if (needs_data(k))
			coll_bytes(c, rule, a->sent, a->recvd);
	} else if (a->nbc) {
		k = tr_blocking(byname) != byname ? byname : TR_OTHER;
		if (new_call(l, k, end, &i))
			return -1;
		c = &l->b->t->calls[i];
		c->req = a->nbc_req;
		c->flags |= TR_F_NODATA;   /* until it completes */
		if (k != TR_OTHER && pend_put(l, a->nbc_req, i))
			return -1;
	} else if (a->isend) {
		k = tr_is_isend(byname) ? byname : TR_ISEND;
		if (new_call(l, k, end, &i))
			return -1;
		c = &l->b->t->calls[i];
		c->peer = (int32_t)a->is.peer;
		c->tag = (int32_t)a->is.tag;
		c->bytes = (int64_t)a->is.bytes;
		c->req = a->isend_req;
		set_comm(l, c, a->is.comm);
	} else if (a->irecv) {
		if (new_call(l, TR_IRECV, end, &i))
			return -1;
		c = &l->b->t->calls[i];
		c->req = a->irecv_req;
		c->flags |= TR_F_NODATA;   /* until its MpiIrecv */
		if (pend_put(l, a->irecv_req, i))
			return -1;
	} else if (a->send || a->recv) {
		if (a->send && a->recv)
			k = byname == TR_SENDRECV_REPLACE ? byname : TR_SENDRECV;
		else if (a->send)
			k = byname == TR_BSEND || byname == TR_SSEND || byname == TR_RSEND ? byname : TR_SEND;
		else
			k = TR_RECV;
		if (new_call(l, k, end, &i))
			return -1;
		c = &l->b->t->calls[i];
		if (a->send) {
			c->peer = (int32_t)a->s.peer;
			c->tag = (int32_t)a->s.tag;
			c->bytes = (int64_t)a->s.bytes;
			set_comm(l, c, a->s.comm);
		}
		if (a->recv && a->send) {
			c->rpeer = (int32_t)a->r.peer;
			c->rtag = (int32_t)a->r.tag;
			c->rbytes = (int64_t)a->r.bytes;
		} else if (a->recv) {
			c->peer = (int32_t)a->r.peer;
			c->tag = (int32_t)a->r.tag;
			c->bytes = (int64_t)a->r.bytes;
			set_comm(l, c, a->r.comm);
		}
	} else if (a->ndone == 0 && !a->cancel) {
		if (new_call(l, byname, end, &i))
			return -1;
		if (needs_data(byname))
			l->b->t->calls[i].flags |= TR_F_NODATA;
	} else {
		main = 0;
	}
	if (a->ndone) {
		int64_t *v;
		if (new_call(l, TR_WAITALL, end, &i) || tr_build_list(l->b, i, 0, (uint32_t)a->ndone, &v))
			return lfail(l, "out of memory"), -1;
		memcpy(v, a->done, a->ndone * sizeof *v);
		l->b->t->calls[i].nreq = (int32_t)a->ndone;
		if (main)
			l->b->t->calls[i].start = end;
	}
	if (a->cancel) {
		if (new_call(l, TR_CANCEL, end, &i))
			return -1;
		l->b->t->calls[i].req = a->cancel_req;
	}
	return 0;
}

/* Opens the call of MPI region index rg at time t. */
static void open_call(struct lread *l, long rg, double t)
{
	uint64_t *done = l->a.done;
	size_t cap = l->a.capdone;
	memset(&l->a, 0, sizeof l->a);
	l->a.done = done;
	l->a.capdone = cap;
	l->a.region = rg;
	l->a.start = t;
	l->a.line = (uint32_t)l->event;
	l->open = 1;
}

/* The call an MPI event belongs to: the open one, or a call of that event
 * alone when it is outside every MPI region (an archive without the MPI
 * regions). */
static int in_call(struct lread *l, double t, int *instant)
{
	*instant = !l->open;
	if (!l->open)
		open_call(l, -1, t);
	return 0;
}

static OTF2_CallbackCode end_event(struct lread *l, int instant, double t)
{
	if (instant && finish(l, t))
		return OTF2_CALLBACK_INTERRUPT;
	return l->failed ? OTF2_CALLBACK_INTERRUPT : OTF2_CALLBACK_SUCCESS;
}

/* The bookkeeping of every event: its number and time. */
static struct lread *ev(void *data, OTF2_TimeStamp time, double *t)
{
	struct lread *l = data;
	l->events++;
	l->event = l->events;
	*t = us(l, time);
	if (*t > l->last)
		l->last = *t;
	return l;
}

static OTF2_CallbackCode on_enter(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                  void *data, OTF2_AttributeList *attrs, OTF2_RegionRef region)
{
	double t;
	struct lread *l = ev(data, time, &t);
	long rg = index_of(l->o->region_at, l->o->nregion_at, &l->o->regions_ix, region);
	(void)loc;
	(void)pos;
	(void)attrs;
	if (rg < 0)
		return lfail(l, "event %" PRIu64 ": Enter of region %" PRIu32 ", which the definitions "
		             "do not have", l->event, region);
	int mpi = l->o->regions[rg].mpi;
	if (util_grow(&l->stk, &l->capstk, l->nstk + 1, sizeof *l->stk))
		return lfail(l, "out of memory");
	l->stk[l->nstk++] = (struct frame){ rg, mpi };
	if (!mpi)
		l->nonmpi_regions++;
	else if (l->depth++ == 0)
		open_call(l, rg, t);
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_leave(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                  void *data, OTF2_AttributeList *attrs, OTF2_RegionRef region)
{
	double t;
	struct lread *l = ev(data, time, &t);
	long rg = index_of(l->o->region_at, l->o->nregion_at, &l->o->regions_ix, region);
	size_t k = l->nstk;
	(void)loc;
	(void)pos;
	(void)attrs;
	while (k > 0 && l->stk[k - 1].region != rg)
		k--;
	if (k == 0) {
		/* a Leave without its Enter */
		l->leave_alone++;
		return OTF2_CALLBACK_SUCCESS;
	}
	if (!l->stk[k - 1].mpi)
		l->nonmpi_regions++;
	/* the regions entered after it and not left end here, with it */
	l->left_open += l->nstk - k;
	while (l->nstk > k - 1)
		if (l->stk[--l->nstk].mpi && --l->depth == 0 && finish(l, t))
			return OTF2_CALLBACK_INTERRUPT;
	return l->failed ? OTF2_CALLBACK_INTERRUPT : OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_send(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                 void *data, OTF2_AttributeList *attrs, uint32_t receiver,
                                 OTF2_CommRef comm, uint32_t tag, uint64_t length)
{
	double t;
	int instant;
	struct lread *l = ev(data, time, &t);
	(void)loc;
	(void)pos;
	(void)attrs;
	if (in_call(l, t, &instant))
		return OTF2_CALLBACK_INTERRUPT;
	l->a.send = 1;
	l->a.s = (struct p2p){ receiver, comm, tag, length };
	return end_event(l, instant, t);
}

static OTF2_CallbackCode on_recv(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                 void *data, OTF2_AttributeList *attrs, uint32_t sender,
                                 OTF2_CommRef comm, uint32_t tag, uint64_t length)
{
	double t;
	int instant;
	struct lread *l = ev(data, time, &t);
	(void)loc;
	(void)pos;
	(void)attrs;
	if (in_call(l, t, &instant))
		return OTF2_CALLBACK_INTERRUPT;
	l->a.recv = 1;
	l->a.r = (struct p2p){ sender, comm, tag, length };
	return end_event(l, instant, t);
}

static OTF2_CallbackCode on_isend(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                  void *data, OTF2_AttributeList *attrs, uint32_t receiver,
                                  OTF2_CommRef comm, uint32_t tag, uint64_t length, uint64_t req)
{
	double t;
	int instant;
	struct lread *l = ev(data, time, &t);
	(void)loc;
	(void)pos;
	(void)attrs;
	if (in_call(l, t, &instant))
		return OTF2_CALLBACK_INTERRUPT;
	l->a.isend = 1;
	l->a.is = (struct p2p){ receiver, comm, tag, length };
	l->a.isend_req = req + 1;
	return end_event(l, instant, t);
}

/* Request id completes in the current call. */
static OTF2_CallbackCode completes(struct lread *l, double t, uint64_t id)
{
	int instant;
	if (in_call(l, t, &instant))
		return OTF2_CALLBACK_INTERRUPT;
	if (util_grow(&l->a.done, &l->a.capdone, l->a.ndone + 1, sizeof *l->a.done))
		return lfail(l, "out of memory");
	l->a.done[l->a.ndone++] = id;
	return end_event(l, instant, t);
}

static OTF2_CallbackCode on_isend_complete(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                           void *data, OTF2_AttributeList *attrs, uint64_t req)
{
	double t;
	struct lread *l = ev(data, time, &t);
	(void)loc;
	(void)pos;
	(void)attrs;
	return completes(l, t, req + 1);
}

static OTF2_CallbackCode on_irecv_request(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                          void *data, OTF2_AttributeList *attrs, uint64_t req)
{
	double t;
	int instant;
	struct lread *l = ev(data, time, &t);
	(void)loc;
	(void)pos;
	(void)attrs;
	if (in_call(l, t, &instant))
		return OTF2_CALLBACK_INTERRUPT;
	l->a.irecv = 1;
	l->a.irecv_req = req + 1;
	return end_event(l, instant, t);
}

static OTF2_CallbackCode on_irecv(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                  void *data, OTF2_AttributeList *attrs, uint32_t sender,
                                  OTF2_CommRef comm, uint32_t tag, uint64_t length, uint64_t req)
{
	double t;
	struct lread *l = ev(data, time, &t);
	long i = pend_take(l, req + 1);
	(void)loc;
	(void)pos;
	(void)attrs;
	if (i >= 0 && l->b->t->calls[i].kind == TR_IRECV) {
		/* the Irecv learns its sender (the one it matched) now */
		struct tr_call *c = &l->b->t->calls[i];
		c->peer = (int32_t)sender;
		c->tag = (int32_t)tag;
		c->bytes = (int64_t)length;
		c->flags &= (uint16_t)~TR_F_NODATA;
		set_comm(l, c, comm);
		return completes(l, t, req + 1);
	}
	/* a receive no traced Irecv started: a receive of this call */
	int instant;
	if (in_call(l, t, &instant))
		return OTF2_CALLBACK_INTERRUPT;
	l->a.recv = 1;
	l->a.r = (struct p2p){ sender, comm, tag, length };
	return end_event(l, instant, t);
}

static OTF2_CallbackCode on_request_test(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                         void *data, OTF2_AttributeList *attrs, uint64_t req)
{
	double t;
	(void)ev(data, time, &t);
	(void)loc;
	(void)pos;
	(void)attrs;
	(void)req;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_cancelled(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                      void *data, OTF2_AttributeList *attrs, uint64_t req)
{
	double t;
	int instant;
	struct lread *l = ev(data, time, &t);
	(void)loc;
	(void)pos;
	(void)attrs;
	if (in_call(l, t, &instant))
		return OTF2_CALLBACK_INTERRUPT;
	l->a.cancel = 1;
	l->a.cancel_req = req + 1;
	return end_event(l, instant, t);
}

static OTF2_CallbackCode on_coll_begin(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                       void *data, OTF2_AttributeList *attrs)
{
	double t;
	(void)ev(data, time, &t);
	(void)loc;
	(void)pos;
	(void)attrs;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_coll_end(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                     void *data, OTF2_AttributeList *attrs, OTF2_CollectiveOp op,
                                     OTF2_CommRef comm, uint32_t root, uint64_t sent, uint64_t recvd)
{
	double t;
	int instant;
	struct lread *l = ev(data, time, &t);
	(void)loc;
	(void)pos;
	(void)attrs;
	if (in_call(l, t, &instant))
		return OTF2_CALLBACK_INTERRUPT;
	l->a.coll = 1;
	l->a.op = op;
	l->a.ccomm = comm;
	l->a.root = root;
	l->a.sent = sent;
	l->a.recvd = recvd;
	return end_event(l, instant, t);
}

static OTF2_CallbackCode on_nbc_request(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                        void *data, OTF2_AttributeList *attrs, uint64_t req)
{
	double t;
	int instant;
	struct lread *l = ev(data, time, &t);
	(void)loc;
	(void)pos;
	(void)attrs;
	if (in_call(l, t, &instant))
		return OTF2_CALLBACK_INTERRUPT;
	l->a.nbc = 1;
	l->a.nbc_req = req + 1;
	return end_event(l, instant, t);
}

static OTF2_CallbackCode on_nbc_complete(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                         void *data, OTF2_AttributeList *attrs,
                                         OTF2_CollectiveOp op, OTF2_CommRef comm, uint32_t root,
                                         uint64_t sent, uint64_t recvd, uint64_t req)
{
	double t;
	struct lread *l = ev(data, time, &t);
	long i = pend_take(l, req + 1);
	enum rule rule;
	enum tr_kind k = coll_kind(op, &rule);
	(void)loc;
	(void)pos;
	(void)attrs;
	if (i >= 0) {
		/* the nonblocking collective learns its communicator and sizes */
		struct tr_call *c = &l->b->t->calls[i];
		if (k != TR_OTHER && nonblocking(k) != k)
			c->kind = (uint16_t)nonblocking(k);
		c->flags &= (uint16_t)~TR_F_NODATA;
		set_comm(l, c, comm);
		c->root = root == OTF2_UNDEFINED_UINT32 ? -1 : (int32_t)root;
		coll_bytes(c, rule, sent, recvd);
	}
	return completes(l, t, req + 1);
}

static OTF2_CallbackCode on_flush(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                  void *data, OTF2_AttributeList *attrs, OTF2_TimeStamp stop)
{
	double t;
	struct lread *l = ev(data, time, &t);
	(void)loc;
	(void)pos;
	(void)attrs;
	l->flushes++;
	if (stop > time)
		l->paused += us(l, stop) - t;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_measurement(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                        void *data, OTF2_AttributeList *attrs,
                                        OTF2_MeasurementMode mode)
{
	double t;
	struct lread *l = ev(data, time, &t);
	(void)loc;
	(void)pos;
	(void)attrs;
	(void)mode;
	l->measurement++;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_unknown(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                    void *data, OTF2_AttributeList *attrs)
{
	double t;
	struct lread *l = ev(data, time, &t);
	(void)loc;
	(void)pos;
	(void)attrs;
	return lfail(l, "event %" PRIu64 ": a record of a kind this OTF2 library does not know",
	             l->event);
}

/* The members of each communicator as rank r sees them. */
static int views(struct lread *l)
{
	struct tr_otf2 *o = l->o;
	l->cv = calloc(o->ncomms ? o->ncomms : 1, sizeof *l->cv);
	if (!l->cv)
		return -1;
	for (size_t i = 0; i < o->ncomms; i++) {
		long gi = find_id(&o->groups_ix, o->comms[i].group);
		const struct group *g = gi >= 0 ? &o->groups[gi] : NULL;
		struct cview *v = &l->cv[i];
		if (!g)
			continue;
		if (g->type == OTF2_GROUP_TYPE_COMM_SELF) {
			/* a communicator of one rank: each rank's own */
			if (!(v->members = malloc(sizeof *v->members)))
				return -1;
			v->members[0] = (int64_t)l->rank;
			v->me = 0;
			v->size = 1;
			continue;
		}
		if (g->type != OTF2_GROUP_TYPE_COMM_GROUP || g->n == 0 || g->n > INT32_MAX)
			continue;
		v->me = -1;
		for (uint32_t k = 0; k < g->n; k++) {
			if (g->members[k] >= o->nranks) {
				v->me = -1;
				break;
			}
			if (g->members[k] == l->rank)
				v->me = (int32_t)k;
		}
		if (v->me < 0)
			continue;
		if (!(v->members = malloc(g->n * sizeof *v->members)))
			return -1;
		for (uint32_t k = 0; k < g->n; k++)
			v->members[k] = (int64_t)g->members[k];
		v->size = (int32_t)g->n;
	}
	return 0;
}

/* The TR_COMMDEF calls of rank r's communicators. */
static int commdefs(struct lread *l)
{
	for (size_t i = 0; i < l->o->ncomms; i++) {
		const struct cview *v = &l->cv[i];
		size_t k;
		int64_t *m;
		if (!v->members)
			continue;
		if (tr_build_call(l->b, TR_COMMDEF, 0, &k) || tr_build_list(l->b, k, 0, (uint32_t)v->size, &m))
			return -1;
		memcpy(m, v->members, (size_t)v->size * sizeof *m);
		l->b->t->calls[k].newcomm = l->o->comms[i].id;
		l->b->t->calls[k].comm_size = v->size;
	}
	return 0;
}

/* Reads the events of location l->loc with the OTF2 library. */
static int read_events(struct lread *l, char *why, size_t whylen)
{
	struct tr_otf2 *o = l->o;
	OTF2_Reader *rd;
	OTF2_EvtReader *er;
	OTF2_EvtReaderCallbacks *cb = NULL;
	OTF2_ErrorCode ec;
	uint64_t n = 0;
	int rc = -1, defs;
	tr_otf2_msg_clear();
	if (!(rd = OTF2_Reader_Open(o->anchor))) {
		snprintf(why, whylen, "cannot open the archive: %s", tr_otf2_why(OTF2_ERROR_INVALID));
		return -1;
	}
	OTF2_Reader_SetSerialCollectiveCallbacks(rd);
	if ((ec = OTF2_Reader_SelectLocation(rd, l->loc)) != OTF2_SUCCESS) {
		snprintf(why, whylen, "%s", tr_otf2_why(ec));
		goto done;
	}
	/* the local definitions (optional) map local ids to global ones */
	defs = OTF2_Reader_OpenDefFiles(rd) == OTF2_SUCCESS;
	tr_otf2_msg_clear();
	if ((ec = OTF2_Reader_OpenEvtFiles(rd)) != OTF2_SUCCESS) {
		snprintf(why, whylen, "cannot open its events: %s", tr_otf2_why(ec));
		goto done;
	}
	if (defs) {
		OTF2_DefReader *dr = OTF2_Reader_GetDefReader(rd, l->loc);
		if (dr) {
			uint64_t nd;
			if ((ec = OTF2_Reader_ReadAllLocalDefinitions(rd, dr, &nd)) != OTF2_SUCCESS) {
				snprintf(why, whylen, "cannot read its definitions: %s", tr_otf2_why(ec));
				goto done;
			}
			OTF2_Reader_CloseDefReader(rd, dr);
		}
		OTF2_Reader_CloseDefFiles(rd);
	}
	tr_otf2_msg_clear();
	if (!(er = OTF2_Reader_GetEvtReader(rd, l->loc)) || !(cb = OTF2_EvtReaderCallbacks_New())) {
		snprintf(why, whylen, "cannot read its events: %s", tr_otf2_why(OTF2_ERROR_INVALID));
		goto done;
	}
	OTF2_EvtReaderCallbacks_SetUnknownCallback(cb, on_unknown);
	OTF2_EvtReaderCallbacks_SetBufferFlushCallback(cb, on_flush);
	OTF2_EvtReaderCallbacks_SetMeasurementOnOffCallback(cb, on_measurement);
	OTF2_EvtReaderCallbacks_SetEnterCallback(cb, on_enter);
	OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, on_leave);
	OTF2_EvtReaderCallbacks_SetMpiSendCallback(cb, on_send);
	OTF2_EvtReaderCallbacks_SetMpiIsendCallback(cb, on_isend);
	OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(cb, on_isend_complete);
	OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(cb, on_irecv_request);
	OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cb, on_recv);
	OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(cb, on_irecv);
	OTF2_EvtReaderCallbacks_SetMpiRequestTestCallback(cb, on_request_test);
	OTF2_EvtReaderCallbacks_SetMpiRequestCancelledCallback(cb, on_cancelled);
	OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(cb, on_coll_begin);
	OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, on_coll_end);
	OTF2_EvtReaderCallbacks_SetNonBlockingCollectiveRequestCallback(cb, on_nbc_request);
	OTF2_EvtReaderCallbacks_SetNonBlockingCollectiveCompleteCallback(cb, on_nbc_complete);
	if ((ec = OTF2_Reader_RegisterEvtCallbacks(rd, er, cb, l)) != OTF2_SUCCESS) {
		snprintf(why, whylen, "%s", tr_otf2_why(ec));
		goto done;
	}
	ec = OTF2_Reader_ReadAllLocalEvents(rd, er, &n);
	if (l->failed) {
		snprintf(why, whylen, "%s", l->msg);
		goto done;
	}
	if (ec != OTF2_SUCCESS) {
		snprintf(why, whylen, "reading its events failed after event %" PRIu64 ": %s", l->events,
		         tr_otf2_why(ec));
		goto done;
	}
	rc = 0;
done:
	if (cb)
		OTF2_EvtReaderCallbacks_Delete(cb);
	OTF2_Reader_Close(rd);
	return rc;
}

int tr_otf2_read(struct tr_otf2 *o, size_t r, struct tr_trace *t, char *err, size_t errlen)
{
	struct tr_build b;
	struct lread l;
	char why[400] = "";
	int rc = -1;
	uint64_t nevents = 0;

	memset(&l, 0, sizeof l);
	l.o = o;
	l.rank = r;
	l.loc = o->ranks[r];
	l.b = &b;
	tr_build_init(&b, t, TR_UNIT_EVENT);
	t->rank = (int)r;
	t->size = (int)o->nranks;
	for (size_t i = 0; i < o->nlocs; i++)
		if (o->locs[i].id == l.loc)
			nevents = o->locs[i].nevents;
	if (views(&l) || commdefs(&l)) {
		snprintf(why, sizeof why, "out of memory");
	} else if (!read_events(&l, why, sizeof why)) {
		/* what is still open ends with the last event */
		l.left_open += l.nstk;
		if (l.open && finish(&l, l.last))
			snprintf(why, sizeof why, "%s", l.msg);
		else
			rc = 0;
	}
	/* the records left out, by kind */
	struct { const char *name; uint64_t n; } skips[] = {
		{ "(OTF2 Enter/Leave of regions that are not MPI)", l.nonmpi_regions },
		{ "(OTF2 Leave without its Enter)", l.leave_alone },
		{ "(OTF2 regions entered and never left)", l.left_open },
		{ "(OTF2 measurement on/off)", l.measurement },
		{ "(OTF2 buffer flushes)", l.flushes },
		{ "(OTF2 records that are not MPI)", nevents > l.events ? nevents - l.events : 0 },
		{ "(OTF2 locations that are not MPI ranks)", r == 0 ? o->not_ranks : 0 },
	};
	for (size_t i = 0; i < sizeof skips / sizeof skips[0] && !rc; i++)
		if (skips[i].n && tr_build_skip(&b, skips[i].name, skips[i].n)) {
			snprintf(why, sizeof why, "out of memory");
			rc = -1;
		}
	size_t calls = 0;
	for (size_t i = 0; i < t->ncalls; i++)
		calls += t->calls[i].kind != TR_COMMDEF;
	if (!rc && calls == 0) {
		snprintf(why, sizeof why, "no MPI call in its events");
		rc = -1;
	}
	if (rc) {
		snprintf(err, errlen, "%s: error: rank %zu (location %" PRIu64 "): %s", o->anchor, r, l.loc,
		         why);
		tr_free(t);
	}
	tr_build_done(&b);
	if (l.cv)
		for (size_t i = 0; i < o->ncomms; i++)
			free(l.cv[i].members);
	free(l.cv);
	free(l.stk);
	free(l.a.done);
	util_kmap_free(&l.pend);
	return rc;
}

#endif
