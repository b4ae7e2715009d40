/* trace2goal_conv.c: converts per-rank MPI traces into a GOAL schedule, one
 * output rank at a time (docs/trace2goal.md): the conversion's state, the
 * ops it emits, communicators, requests, point-to-point calls and a
 * rank's calls in order.  Collectives: trace2goal_coll.c. */
#include "trace2goal_conv.h"
#include "trace2goal_int.h"

#include "sg_pattern.h"
#include "trace_read.h"
#include "kmap.h"
#include "die.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Records the first error of the conversion in cv->err; returns -1. */
int t2g_cerr(struct conv *cv, const char *fmt, ...)
{
	va_list ap;
	if (cv->failed)
		return -1;
	cv->failed = 1;
	va_start(ap, fmt);
	vsnprintf(cv->err, cv->errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static int count_skip(struct conv *cv, const char *name, uint64_t n);

/* The start of a message about call c: "FILE:LINE:1: error: " for a
 * text trace, "FILE: error: record N: " (or event N) for a binary one; what
 * is error or warning. */
static void where(const struct conv *cv, const struct tr_call *c, const char *what,
                  char *buf, size_t n)
{
	static const char *const unit[] = { "line", "record", "event" };
	if (cv->t.unit == TR_UNIT_LINE || cv->t.unit >= sizeof unit / sizeof unit[0])
		snprintf(buf, n, "%s:%u:1: %s: ", cv->path, (unsigned)c->line, what);
	else
		snprintf(buf, n, "%s: %s: %s %u: ", cv->path, what, unit[cv->t.unit],
		         (unsigned)c->line);
}

/* An error at call c of the current trace. */
int t2g_call_err(struct conv *cv, const struct tr_call *c, const char *fmt, ...)
{
	char msg[400], at[300];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	where(cv, c, "error", at, sizeof at);
	return t2g_cerr(cv, "%srank %" PRIu64 ": %s", at, cv->r, msg);
}

/* A warning at call c, given once per key on the traced rank (and only for
 * the first copy when extrapolating). */
static void warn_once(struct conv *cv, const struct tr_call *c, const char *key,
                      const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void warn_once(struct conv *cv, const struct tr_call *c, const char *key,
                      const char *fmt, ...)
{
	char msg[400], full[800], at[300];
	va_list ap;
	if (cv->j > 0 || !cv->opt->warn || util_kmap_get(&cv->warned, key, strlen(key)))
		return;
	if (util_kmap_put(&cv->warned, key, strlen(key), 1))
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	where(cv, c, "warning", at, sizeof at);
	snprintf(full, sizeof full, "%srank %" PRIu64 ": %s", at, cv->r, msg);
	cv->opt->warn(cv->opt->warn_ctx, full);
}

/* Call c names a negative size, bytes (a count below 0, as a damaged
 * trace may hold): an error under --strict (-1), else a warning once per
 * rank and 0 bytes (0). */
int t2g_negative_size(struct conv *cv, const struct tr_call *c, int64_t bytes)
{
	if (cv->opt->strict)
		return t2g_call_err(cv, c, "%s: a negative size, %" PRId64 " bytes (a count below 0) (--strict)",
		                    tr_call_name(&cv->t, c), bytes);
	warn_once(cv, c, "negative size", "%s: a negative size, %" PRId64 " bytes (a count below 0), "
	          "taken as 0 bytes", tr_call_name(&cv->t, c), bytes);
	return 0;
}

/* The output failed: its message becomes the error; returns -1. */
int t2g_out_fail(struct conv *cv)
{
	const char *e = sg_out_error(cv->out);
	return t2g_cerr(cv, "%s", e && e[0] ? e : "error: cannot write the schedule");
}

/* Counts a send from src to dst in comm (d = 1) or a receive there
 * (d = -1). */
static void balance(struct conv *cv, uint64_t src, uint64_t dst, uint32_t comm, int d)
{
	uint64_t key[3] = { src, dst, comm };
	uint32_t *v = util_kmap_get(&cv->pairs, key, sizeof key);
	if (v)
		*v = (uint32_t)((int32_t)*v + d);
	else if (util_kmap_put(&cv->pairs, key, sizeof key, (uint32_t)d))
		t2g_cerr(cv, "error: out of memory");
}

/* After the conversion: the sends that no receive of the output can take,
 * and the receives no send feeds (a trace cut short, a rank's file from
 * another run).  A warning, an error with --strict.  Returns 0 or -1. */
static int check_balance(struct conv *cv)
{
	uint64_t lost_sends = 0, lost_recvs = 0, any_left = 0, first[2] = { 0, 0 };
	int have_first = 0;
	/* Entries in insertion order: the first lost send is the earliest. */
	for (size_t i = 0; i < cv->pairs.nent; i++) {
		const util_kent *e = &cv->pairs.ent[i];
		int32_t b = (int32_t)e->val;
		uint64_t key[3];
		memcpy(key, cv->pairs.arena + e->off, sizeof key);
		if (b > 0) {
			lost_sends += (uint64_t)b;
			if (!have_first) {
				first[0] = key[0];
				first[1] = key[1];
				have_first = 1;
			}
		} else if (b < 0) {
			lost_recvs += (uint64_t)-(int64_t)b;
		}
	}
	any_left = cv->anyrecv;
	/* A receive from any source may take any of the sends left over. */
	uint64_t taken = any_left < lost_sends ? any_left : lost_sends;
	lost_sends -= taken;
	lost_recvs += any_left - taken;
	if (!lost_sends && !lost_recvs)
		return 0;
	char msg[400] = "";
	size_t n = 0;
	if (lost_sends)
		n += (size_t)snprintf(msg, sizeof msg, "%" PRIu64 " send%s no receive to match %s"
		                      " (rank %" PRIu64 " to rank %" PRIu64 ", for one)", lost_sends,
		                      lost_sends == 1 ? " has" : "s have", lost_sends == 1 ? "it" : "them",
		                      first[0], first[1]);
	if (lost_recvs && n < sizeof msg)
		snprintf(msg + n, sizeof msg - n, "%s%" PRIu64 " receive%s no send to match %s",
		         n ? ", and " : "", lost_recvs, lost_recvs == 1 ? " has" : "s have",
		         lost_recvs == 1 ? "it" : "them");
	if (cv->opt->strict)
		return t2g_cerr(cv, "error: %s (--strict)", msg);
	if (cv->opt->warn) {
		char full[600];
		snprintf(full, sizeof full, "warning: %s; the simulation will not complete", msg);
		cv->opt->warn(cv->opt->warn_ctx, full);
	}
	return 0;
}

/* Appends op in comm, strided when stride is not 0 (blocks of block
 * bytes); it depends on the frontier.  Returns its index or NONE. */
uint32_t t2g_emit_st(struct conv *cv, const goal_op *op, uint32_t comm, uint32_t stride,
                     uint32_t block)
{
	uint32_t i;
	if (cv->failed)
		return NONE;
	if (sg_out_op_stride(cv->out, op, comm, stride, block, &i)) {
		t2g_out_fail(cv);
		return NONE;
	}
	for (int k = 0; k < cv->f.n; k++)
		if (sg_out_dep(cv->out, i, cv->f.op[k], cv->f.ireq[k])) {
			t2g_out_fail(cv);
			return NONE;
		}
	cv->st.ops++;
	if (op->kind == GOAL_SEND) {
		cv->st.sends++;
		balance(cv, cv->R, op->peer, comm, 1);
	} else if (op->kind == GOAL_RECV) {
		cv->st.recvs++;
		if (op->peer == GOAL_ANY_SOURCE)
			cv->anyrecv++;
		else
			balance(cv, op->peer, cv->R, comm, -1);
	}
	else {
		cv->st.calcs++;
		cv->st.calc_ns += op->size;
	}
	return i;
}

/* The same, contiguous. */
static uint32_t emit_in(struct conv *cv, const goal_op *op, uint32_t comm)
{
	return t2g_emit_st(cv, op, comm, 0, 0);
}

/* The same in comm 0. */
static uint32_t emit(struct conv *cv, const goal_op *op)
{
	return emit_in(cv, op, 0);
}

/* Appends a calc of ns nanoseconds after the frontier; its index or NONE. */
uint32_t t2g_emit_calc(struct conv *cv, uint64_t ns)
{
	goal_op op;
	memset(&op, 0, sizeof op);
	op.kind = GOAL_CALC;
	op.size = ns;
	return emit(cv, &op);
}

/* The frontier becomes the single op i (requires, or irequires). */
void t2g_front_set(struct conv *cv, uint32_t i, int ireq)
{
	if (i == NONE)
		return;
	cv->f.n = 1;
	cv->f.op[0] = i;
	cv->f.ireq[0] = (uint8_t)ireq;
}

/* Adds "requires i" to the frontier (joining it first when full). */
void t2g_front_add(struct conv *cv, uint32_t i)
{
	if (i == NONE)
		return;
	for (int k = 0; k < cv->f.n; k++)
		if (cv->f.op[k] == i) {
			cv->f.ireq[k] = 0;
			return;
		}
	if (cv->f.n == FRONT_MAX)
		t2g_front_set(cv, t2g_emit_calc(cv, 0), 0);
	cv->f.op[cv->f.n] = i;
	cv->f.ireq[cv->f.n] = 0;
	cv->f.n++;
}

/* 2^64: times in ns must stay below it. */
#define NS_LIMIT 18446744073709551616.0

/* Emits the computation time gathered so far as one calc, before call c.
 * Returns 0, or -1 (an error at c) when it does not fit in 64 bits. */
static int flush_calc(struct conv *cv, const struct tr_call *c)
{
	double ns = cv->pending_us * 1000.0 * cv->opt->compute_scale;
	cv->pending_us = 0;
	if (ns < 0.5)
		return 0;
	ns = floor(ns + 0.5);
	if (!(ns < NS_LIMIT))
		return t2g_call_err(cv, c, "computation of %.0f ns before this call is too long "
		                    "(2^64 ns or more)", ns);
	t2g_front_set(cv, t2g_emit_calc(cv, (uint64_t)ns), 0);
	return cv->failed ? -1 : 0;
}

/* ---- Communicators ----------------------------------------------------- */

/* The global id of a communicator with these world members that is the
 * occurrence-th one with this member list on its rank: 0 for MPI_COMM_WORLD
 * (the first one with the members 0..N-1 in order), else 1, 2, ... in the
 * order the communicators are first defined (rank 0's first, then those
 * rank 1 defines without rank 0, ...), so it is the same on every member. */
static int comm_gid(struct conv *cv, const int64_t *members, int32_t size,
                    uint32_t occurrence, uint32_t *gid)
{
	size_t len = sizeof(uint32_t) + (size_t)size * sizeof(int64_t);
	unsigned char *key = malloc(len);
	uint32_t *v;
	if (!key)
		return t2g_cerr(cv, "error: out of memory");
	memcpy(key, &occurrence, sizeof occurrence);
	if (size)
		memcpy(key + sizeof occurrence, members, (size_t)size * sizeof(int64_t));
	v = util_kmap_get(&cv->comm_ids, key, len);
	if (v) {
		*gid = *v;
	} else {
		int world = occurrence == 0 && (uint64_t)size == cv->N;
		for (int32_t i = 0; world && i < size; i++)
			world = members[i] == i;
		if (world) {
			*gid = 0;
		} else if (cv->ncomm_ids >= GOAL_MAX_COMM / 2) {
			free(key);
			return t2g_cerr(cv, "error: more than %u communicators", GOAL_MAX_COMM / 2);
		} else {
			*gid = cv->ncomm_ids++;
		}
		if (util_kmap_put(&cv->comm_ids, key, len, *gid)) {
			free(key);
			return t2g_cerr(cv, "error: out of memory");
		}
	}
	free(key);
	return 0;
}

/* The entry of handle in the rank's table, or NULL. */
static struct comm *comm_find(struct conv *cv, uint64_t handle)
{
	uint32_t *i = util_kmap_get(&cv->handles, &handle, sizeof handle);
	return i ? &cv->comms[*i] : NULL;
}

/* The entry of handle in the rank's table, a new (dead) one if absent, or
 * NULL when out of memory. */
static struct comm *comm_slot(struct conv *cv, uint64_t handle)
{
	struct comm *found = comm_find(cv, handle);
	if (found)
		return found;
	if (util_grow(&cv->comms, &cv->capcomms, cv->ncomms + 1, sizeof *cv->comms)) {
		t2g_cerr(cv, "error: out of memory");
		return NULL;
	}
	if (util_kmap_put(&cv->handles, &handle, sizeof handle, (uint32_t)cv->ncomms)) {
		t2g_cerr(cv, "error: out of memory");
		return NULL;
	}
	struct comm *m = &cv->comms[cv->ncomms++];
	memset(m, 0, sizeof *m);
	m->handle = handle;
	m->dead = 1;
	return m;
}

/* A "# comm" line: defines (or redefines) a communicator. */
static int comm_define(struct conv *cv, const struct tr_call *c)
{
	const int64_t *w = tr_list(&cv->t, c, 0);
	int32_t n = (int32_t)c->len[0];
	size_t len = (size_t)n * sizeof(int64_t);
	uint32_t *cnt, occ = 0;
	struct comm *m;
	for (int32_t i = 0; i < n; i++)
		if (w[i] < 0 || (uint64_t)w[i] >= cv->N)
			return t2g_call_err(cv, c, "communicator member %" PRId64 " is not a rank (0..%" PRIu64 ")",
			                    w[i], cv->N - 1);
	cnt = n ? util_kmap_get(&cv->seen, w, len) : NULL;
	if (cnt) {
		occ = ++*cnt;
	} else if (n && util_kmap_put(&cv->seen, w, len, 0)) {
		return t2g_cerr(cv, "error: out of memory");
	}
	m = comm_slot(cv, c->newcomm);
	if (!m)
		return -1;
	free(m->own);
	m->own = NULL;
	m->members = w;
	m->size = n;
	m->dead = n == 0;
	m->nbc = 0;
	return n ? comm_gid(cv, w, n, occ, &m->gid) : 0;
}

/* The communicator of call c, or NULL (with a warning, or an error) when
 * it cannot be used.  Traces without "# comm" lines: a communicator of the
 * size of the world where this rank has its world rank is taken as
 * MPI_COMM_WORLD, one of size 1 as MPI_COMM_SELF. */
struct comm *t2g_comm_of(struct conv *cv, const struct tr_call *c)
{
	struct comm *m = comm_find(cv, c->comm);
	char key[64];
	if (m && !m->dead) {
		if (m->size != c->comm_size || c->comm_rank < 0 || c->comm_rank >= m->size ||
		    (uint64_t)m->members[c->comm_rank] != cv->r) {
			t2g_call_err(cv, c, "communicator %" PRIu64 " has %d members in its '# comm' line but the "
			             "call gives rank %d of %d", c->comm, (int)m->size, (int)c->comm_rank,
			             (int)c->comm_size);
			return NULL;
		}
		return m;
	}
	if (!m && (((uint64_t)c->comm_size == cv->N && (uint64_t)c->comm_rank == cv->r) ||
	           (c->comm_size == 1 && c->comm_rank == 0))) {
		m = comm_slot(cv, c->comm);
		if (!m)
			return NULL;
		m->own = malloc((size_t)c->comm_size * sizeof(int64_t));
		if (!m->own) {
			t2g_cerr(cv, "error: out of memory");
			return NULL;
		}
		if (c->comm_size == 1)
			m->own[0] = (int64_t)cv->r;
		else
			for (int32_t i = 0; i < c->comm_size; i++)
				m->own[i] = i;
		m->members = m->own;
		m->size = c->comm_size;
		m->dead = 0;
		if (comm_gid(cv, m->members, m->size, 0, &m->gid))
			return NULL;
		return m;
	}
	if (!m && (uint64_t)c->comm_size > cv->N) {
		t2g_call_err(cv, c, "%s on a communicator of %d ranks, but only %" PRIu64 " trace file%s "
		             "given: no trace of rank %" PRIu64, tr_call_name(&cv->t, c), (int)c->comm_size,
		             cv->N, cv->N == 1 ? " was" : "s were", cv->N);
		return NULL;
	}
	/* binary traces: the reader found no members (a communicator it
	 * cannot follow) */
	const char *why = cv->t.unit == TR_UNIT_LINE ? "has no member list ('# comm' line)"
	                                             : "has members the trace does not tell";
	if (cv->opt->strict) {
		if (cv->t.unit == TR_UNIT_LINE)
			t2g_call_err(cv, c, "%s on communicator %" PRIu64 " (%d ranks), which %s (--strict)",
			             tr_call_name(&cv->t, c), c->comm, (int)c->comm_size, why);
		else
			t2g_call_err(cv, c, "%s on communicator %" PRIu64 ", which %s (--strict)",
			             tr_call_name(&cv->t, c), c->comm, why);
		return NULL;
	}
	if (count_skip(cv, tr_call_name(&cv->t, c), 1))
		return NULL;
	snprintf(key, sizeof key, "comm %" PRIu64, c->comm);
	if (cv->t.unit == TR_UNIT_LINE)
		warn_once(cv, c, key, "communicator %" PRIu64 " (%d ranks) %s; its calls are skipped",
		          c->comm, (int)c->comm_size, why);
	else
		warn_once(cv, c, key, "communicator %" PRIu64 " %s; its calls are skipped", c->comm,
		          why);
	return NULL;
}

/* The world rank (in the output) of rank q of communicator m. */
static uint64_t world_of(const struct conv *cv, const struct comm *m, int32_t q)
{
	return cv->j * cv->N + (uint64_t)m->members[q];
}

/* The GOAL tag of (space, communicator, tag): numbered in order of first
 * use.  Space 0: point-to-point tags; 1: collective rounds. */
int32_t t2g_goal_tag(struct conv *cv, uint32_t space, uint32_t gid, int64_t tag)
{
	int64_t key[3] = { space, gid, tag };
	uint32_t *v = util_kmap_get(&cv->tags, key, sizeof key);
	if (v)
		return (int32_t)*v;
	if (cv->ntags > (uint32_t)INT32_MAX) {
		t2g_cerr(cv, "error: more than 2^31 distinct tags");
		return 0;
	}
	if (util_kmap_put(&cv->tags, key, sizeof key, cv->ntags)) {
		t2g_cerr(cv, "error: out of memory");
		return 0;
	}
	return (int32_t)cv->ntags++;
}

/* ---- Requests ---------------------------------------------------------- */

/* No pending operations (a new pass over a trace). */
static void pend_reset(struct conv *cv)
{
	cv->npend = cv->npchain = 0;
	util_kmap_free(&cv->pend_ids);
}

/* Appends a pending operation (call index, op or NONE) under request id;
 * the entries of one id are chained in push order.  Returns 0 or -1 (out
 * of memory). */
static int pend_push(struct conv *cv, uint64_t id, uint32_t call, uint32_t op)
{
	uint32_t i = (uint32_t)cv->npend;
	if (util_grow(&cv->pend, &cv->cappend, cv->npend + 1, sizeof *cv->pend))
		return t2g_cerr(cv, "error: out of memory");
	uint32_t *k = util_kmap_get(&cv->pend_ids, &id, sizeof id);
	if (!k) {
		if (util_grow(&cv->pchain, &cv->cappchain, cv->npchain + 1, sizeof *cv->pchain) ||
		    util_kmap_put(&cv->pend_ids, &id, sizeof id, (uint32_t)cv->npchain))
			return t2g_cerr(cv, "error: out of memory");
		cv->pchain[cv->npchain].head = cv->pchain[cv->npchain].tail = i;
		cv->npchain++;
	} else {
		if (cv->pchain[*k].head == NONE)
			cv->pchain[*k].head = i;
		else
			cv->pend[cv->pchain[*k].tail].next = i;
		cv->pchain[*k].tail = i;
	}
	cv->pend[i].id = id;
	cv->pend[i].call = call;
	cv->pend[i].op = op;
	cv->pend[i].next = NONE;
	cv->npend++;
	return 0;
}

/* The oldest live pending operation with request id, or NULL. */
static struct preq *pend_find(struct conv *cv, uint64_t id)
{
	uint32_t *k = util_kmap_get(&cv->pend_ids, &id, sizeof id);
	return k && cv->pchain[*k].head != NONE ? &cv->pend[cv->pchain[*k].head] : NULL;
}

/* The pending operation p (found by pend_find: the oldest of its id) is
 * complete (or forgotten). */
static void pend_done(struct conv *cv, struct preq *p)
{
	uint32_t *k = util_kmap_get(&cv->pend_ids, &p->id, sizeof p->id);
	if (k && cv->pchain[*k].head == (uint32_t)(p - cv->pend))
		cv->pchain[*k].head = p->next;
}

/* Calls fn for every request that call c completes, with its status
 * (has = 0: no status recorded). */
typedef void done_fn(struct conv *cv, const struct tr_call *c, uint64_t id, int has,
                     int32_t src, int32_t tag);

static void completions(struct conv *cv, const struct tr_call *c, done_fn *fn)
{
	const struct tr_trace *t = &cv->t;
	const int64_t *ids = tr_list(t, c, 0), *st = tr_list(t, c, 2), *ix = tr_list(t, c, 1);
	int has = (c->flags & TR_F_STATUS) != 0;
	switch ((enum tr_kind)c->kind) {
	case TR_WAIT:
	case TR_TEST:
		/* request 0: MPI_REQUEST_NULL (goaltrace), which completes nothing */
		if (c->req != 0 && (c->kind == TR_WAIT || c->flag > 0))
			fn(cv, c, c->req, has, c->st_source, c->st_tag);
		break;
	case TR_WAITALL:
	case TR_TESTALL:
		if (c->kind == TR_TESTALL && c->flag <= 0)
			break;
		for (uint32_t k = 0; k < c->len[0]; k++)
			if (ids[k] != 0) {
				int h = c->len[2] == 3 * c->len[0];
				fn(cv, c, (uint64_t)ids[k], h, h ? (int32_t)st[3 * k] : 0,
				   h ? (int32_t)st[3 * k + 1] : 0);
			}
		break;
	case TR_WAITANY:
	case TR_TESTANY:
		if (c->kind == TR_TESTANY && c->flag <= 0)
			break;
		if (c->index >= 0 && (uint32_t)c->index < c->len[0])
			fn(cv, c, (uint64_t)ids[c->index], has, c->st_source, c->st_tag);
		break;
	case TR_WAITSOME:
	case TR_TESTSOME:
		for (uint32_t k = 0; k < c->len[1]; k++)
			if (ix[k] >= 0 && (uint64_t)ix[k] < c->len[0]) {
				int h = c->len[2] == 3 * c->len[1];
				fn(cv, c, (uint64_t)ids[ix[k]], h, h ? (int32_t)st[3 * k] : 0,
				   h ? (int32_t)st[3 * k + 1] : 0);
			}
		break;
	default:
		break;
	}
}

/* First pass: the status that completes a wildcard receive. */
static void scan_done(struct conv *cv, const struct tr_call *c, uint64_t id, int has,
                      int32_t src, int32_t tag)
{
	struct preq *p = pend_find(cv, id);
	(void)c;
	if (!p)
		return;
	if (has && src >= 0 && cv->t.calls[p->call].kind == TR_IRECV) {
		cv->rsrc[p->call] = src;
		cv->rtag[p->call] = tag;
	}
	pend_done(cv, p);
}

/* Second pass: the program now depends on the completed operation. */
static void main_done(struct conv *cv, const struct tr_call *c, uint64_t id, int has,
                      int32_t src, int32_t tag)
{
	struct preq *p = pend_find(cv, id);
	char key[64];
	(void)has;
	(void)src;
	(void)tag;
	if (!p) {
		if (cv->opt->strict) {
			t2g_call_err(cv, c, "%s completes request %" PRIu64 " that no traced call started "
			             "(--strict)", tr_call_name(&cv->t, c), id);
			return;
		}
		snprintf(key, sizeof key, "request %s", tr_call_name(&cv->t, c));
		warn_once(cv, c, key, "%s completes request %" PRIu64 " that no traced call started; "
		          "ignored", tr_call_name(&cv->t, c), id);
		return;
	}
	t2g_front_add(cv, p->op);
	pend_done(cv, p);
}


/* First pass over the trace: the source and tag of every receive whose
 * status the trace has, and the cancelled requests. */
static int prescan(struct conv *cv)
{
	size_t n = cv->t.ncalls;
	cv->rsrc = malloc((n ? n : 1) * sizeof *cv->rsrc);
	cv->rtag = malloc((n ? n : 1) * sizeof *cv->rtag);
	cv->cancelled = calloc(n ? n : 1, 1);
	if (!cv->rsrc || !cv->rtag || !cv->cancelled)
		return t2g_cerr(cv, "error: out of memory");
	for (size_t i = 0; i < n; i++) {
		const struct tr_call *c = &cv->t.calls[i];
		cv->rsrc[i] = c->kind == TR_SENDRECV || c->kind == TR_SENDRECV_REPLACE ? c->rpeer : c->peer;
		cv->rtag[i] = c->kind == TR_SENDRECV || c->kind == TR_SENDRECV_REPLACE ? c->rtag : c->tag;
		if ((c->kind == TR_RECV || c->kind == TR_SENDRECV || c->kind == TR_SENDRECV_REPLACE) &&
		    (c->flags & TR_F_STATUS) && c->st_source >= 0) {
			cv->rsrc[i] = c->st_source;
			cv->rtag[i] = c->st_tag;
		}
		if (tr_starts_request((enum tr_kind)c->kind)) {
			if (pend_push(cv, c->req, (uint32_t)i, 0))
				return -1;
		} else if (c->kind == TR_REQUEST_FREE) {
			struct preq *p = pend_find(cv, c->req);
			if (p)
				pend_done(cv, p);
		} else if (c->kind == TR_CANCEL) {
			struct preq *p = pend_find(cv, c->req);
			if (p)
				cv->cancelled[p->call] = 1;
		} else {
			completions(cv, c, scan_done);
		}
	}
	pend_reset(cv);
	return 0;
}

/* ---- Point to point ---------------------------------------------------- */

/* A send or receive op of call c on communicator m to/from comm rank peer
 * (TR_ANY_SOURCE allowed for receives) with MPI tag (or TR_ANY_TAG); side:
 * the call's datatype it uses (0: the first, 1: the second), whose vector
 * layout it keeps as its stride. */
static uint32_t p2p(struct conv *cv, const struct tr_call *c, const struct comm *m,
                    goal_kind kind, int64_t bytes, int32_t peer, int32_t tag, int side)
{
	goal_op op;
	memset(&op, 0, sizeof op);
	op.kind = (uint8_t)kind;
	cv->p2p_calls++;
	if (bytes < 0 && t2g_negative_size(cv, c, bytes))
		return NONE;
	op.size = bytes > 0 ? (uint64_t)bytes : 0;
	if (peer == TR_ANY_SOURCE && kind == GOAL_RECV) {
		op.peer = GOAL_ANY_SOURCE;
	} else if (peer < 0 || peer >= m->size) {
		t2g_call_err(cv, c, "%s %s rank %d of a communicator of %d ranks", tr_call_name(&cv->t, c),
		             kind == GOAL_SEND ? "to" : "from", (int)peer, (int)m->size);
		return NONE;
	} else {
		op.peer = (uint32_t)world_of(cv, m, peer);
	}
	if (tag == TR_ANY_TAG && kind == GOAL_RECV)
		op.tag = GOAL_ANY_TAG;
	else if (tag < 0) {
		t2g_call_err(cv, c, "negative tag %d", (int)tag);
		return NONE;
	} else
		op.tag = t2g_goal_tag(cv, 0, m->gid, tag);
	return t2g_emit_st(cv, &op, ctx_p2p(m), op.size ? c->stride[side] : 0, c->block[side]);
}

/* ---- One rank ---------------------------------------------------------- */

/* Calls that are local (no communication, no warning): time counts as
 * computation. */
static int is_local_name(const char *name)
{
	static const char *const prefixes[] = {
		"MPI_Wtime", "MPI_Wtick", "MPI_Get_count", "MPI_Get_elements", "MPI_Type_",
		"MPI_Op_create", "MPI_Op_free", "MPI_Get_processor_name", "MPI_Initialized",
		"MPI_Finalized", "MPI_Comm_group", "MPI_Group_", "MPI_Errhandler_",
		"MPI_Comm_set_errhandler", "MPI_Comm_get_errhandler", "MPI_Attr_get",
		"MPI_Comm_get_attr", "MPI_Get_version", "MPI_Get_library_version",
		"MPI_Query_thread", "MPI_Is_thread_main", "MPI_Buffer_attach",
		"MPI_Buffer_detach", "MPI_Address", "MPI_Get_address", "MPI_Pack",
		"MPI_Unpack", "MPI_Error_string", "MPI_Error_class", "MPI_Comm_test_inter",
		"MPI_Dims_create", "MPI_Comm_compare", "MPI_Comm_get_name",
		"MPI_Comm_set_name", "MPI_Alloc_mem", "MPI_Free_mem", "MPI_Pcontrol",
	};
	for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
		if (strncmp(name, prefixes[i], strlen(prefixes[i])) == 0)
			return 1;
	return 0;
}

/* Counts n skipped calls (or records) of name name.  Returns 0 or -1 (out
 * of memory). */
static int count_skip(struct conv *cv, const char *name, uint64_t n)
{
	struct t2g_stats *st = &cv->st;
	size_t lo = 0, hi = st->nskip;
	st->skipped += n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int d = strcmp(st->skip[mid].name, name);
		if (d == 0) {
			st->skip[mid].n += n;
			return 0;
		}
		if (d < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (util_grow(&st->skip, &cv->skip_cap, st->nskip + 1, sizeof *st->skip))
		return t2g_cerr(cv, "error: out of memory");
	char *copy = strdup(name);
	if (!copy)
		return t2g_cerr(cv, "error: out of memory");
	memmove(st->skip + lo + 1, st->skip + lo, (st->nskip - lo) * sizeof *st->skip);
	st->skip[lo].name = copy;
	st->skip[lo].n = n;
	st->nskip++;
	return 0;
}

void t2g_stats_free(struct t2g_stats *st)
{
	for (size_t i = 0; i < st->nskip; i++)
		free(st->skip[i].name);
	free(st->skip);
	st->skip = NULL;
	st->nskip = 0;
	free(st->by_pattern);
	st->by_pattern = NULL;
	st->npatterns = 0;
}

/* An unsupported call: an error with --strict, else a warning (once per
 * name and rank) saying what happens instead. */
static int unsupported(struct conv *cv, const struct tr_call *c, const char *instead)
{
	const char *name = tr_call_name(&cv->t, c);
	if (cv->opt->strict)
		return t2g_call_err(cv, c, "%s is not supported (--strict)", name);
	if (count_skip(cv, name, 1))
		return -1;
	warn_once(cv, c, name, "%s is not supported; %s", name, instead);
	return 0;
}

/* A call whose communicator, peer or size the trace does not record
 * (TR_F_NODATA): an error with --strict, else a warning (once per name and
 * rank); the call is skipped and its time counts as computation. */
static int nodata(struct conv *cv, const struct tr_call *c)
{
	const char *name = tr_call_name(&cv->t, c);
	char key[96];
	if (cv->opt->strict)
		return t2g_call_err(cv, c, "%s: the trace does not record its communicator, peer or size "
		                    "(--strict)", name);
	if (count_skip(cv, name, 1))
		return -1;
	snprintf(key, sizeof key, "nodata %s", name);
	warn_once(cv, c, key, "%s: the trace does not record its communicator, peer or size; "
	          "skipped, its time counts as computation", name);
	return 0;
}

/* Converts call i of the trace (not Init, Finalize, Abort, local or
 * unknown calls: convert_rank handles those).  Returns 0 or -1. */
static int convert_call(struct conv *cv, size_t i)
{
	const struct tr_call *c = &cv->t.calls[i];
	enum tr_kind k = (enum tr_kind)c->kind;
	const struct comm *m;
	int cls;
	switch (k) {
	case TR_SEND: case TR_BSEND: case TR_SSEND: case TR_RSEND:
	case TR_RECV: case TR_SENDRECV: case TR_SENDRECV_REPLACE: {
		uint32_t a = NONE, b = NONE;
		int sendside = k != TR_RECV, recvside = k == TR_RECV || k == TR_SENDRECV ||
		                                        k == TR_SENDRECV_REPLACE;
		if (flush_calc(cv, c))
			return -1;
		m = t2g_comm_of(cv, c);
		if (!m)
			return cv->failed ? -1 : 0;
		if (sendside && c->peer != TR_PROC_NULL) {
			struct front save = cv->f;
			a = p2p(cv, c, m, GOAL_SEND, c->bytes, c->peer, c->tag, 0);
			if (recvside)
				cv->f = save;
		}
		if (recvside && cv->rsrc[i] != TR_PROC_NULL)
			b = p2p(cv, c, m, GOAL_RECV, k == TR_RECV ? c->bytes : c->rbytes, cv->rsrc[i],
			        cv->rtag[i], k == TR_SENDRECV);
		if (a != NONE && b != NONE) {
			cv->f.n = 0;
			t2g_front_add(cv, a);
			t2g_front_add(cv, b);
		} else {
			t2g_front_set(cv, a != NONE ? a : b, 0);
		}
		return cv->failed ? -1 : 0;
	}
	case TR_ISEND: case TR_IBSEND: case TR_ISSEND: case TR_IRSEND: case TR_IRECV: {
		uint32_t op = NONE;
		if (flush_calc(cv, c))
			return -1;
		m = t2g_comm_of(cv, c);
		if (cv->failed)
			return -1;
		if (m && !cv->cancelled[i] && c->peer != TR_PROC_NULL) {
			if (k == TR_IRECV)
				op = p2p(cv, c, m, GOAL_RECV, c->bytes, cv->rsrc[i], cv->rtag[i], 0);
			else
				op = p2p(cv, c, m, GOAL_SEND, c->bytes, c->peer, c->tag, 0);
			if (cv->failed)
				return -1;
			t2g_front_set(cv, op, 1);
		}
		return pend_push(cv, c->req, (uint32_t)i, op);
	}
	case TR_TEST: case TR_TESTALL: case TR_TESTANY: case TR_TESTSOME:
		/* a failed test is part of a polling loop: nothing happens */
		if (c->flag <= 0)
			return 0;
		if (flush_calc(cv, c))
			return -1;
		completions(cv, c, main_done);
		return cv->failed ? -1 : 0;
	case TR_WAIT: case TR_WAITALL: case TR_WAITANY: case TR_WAITSOME:
		if (flush_calc(cv, c))
			return -1;
		completions(cv, c, main_done);
		return cv->failed ? -1 : 0;
	case TR_REQUEST_FREE: {
		struct preq *p = pend_find(cv, c->req);
		if (p)
			pend_done(cv, p);
		return 0;
	}
	case TR_CANCEL: case TR_PROBE: case TR_IPROBE:
		return 0;
	case TR_COMMDEF:
		return comm_define(cv, c);
	default:
		break;
	}
	cls = t2g_coll_class(k);
	if (cls >= 0) {
		uint32_t done = NONE;
		if (flush_calc(cv, c))
			return -1;
		if (tr_blocking(k) == k)
			return t2g_collective(cv, c, cls, NULL);
		if (t2g_collective(cv, c, cls, &done))
			return -1;
		return pend_push(cv, c->req, (uint32_t)i, done);
	}
	return 0;
}

/* Converts the loaded trace into output rank cv->R. */
static int convert_rank(struct conv *cv)
{
	const struct tr_trace *t = &cv->t;
	double last_end = 0, init_end = -1, fin_start = -1, paused_us = 0;
	const struct tr_call *last = NULL, *fin = NULL;
	int started = 0;

	cv->f.n = 0;
	cv->pending_us = 0;
	cv->ncomm_made = 0;
	pend_reset(cv);
	if (prescan(cv))
		return -1;
	if (sg_out_rank_begin(cv->out, cv->R))
		return t2g_out_fail(cv);
	for (size_t i = 0; i < t->ncalls && !cv->failed; i++) {
		const struct tr_call *c = &t->calls[i];
		enum tr_kind k = (enum tr_kind)c->kind;
		last = c;
		if (k == TR_COMMDEF) {
			if (comm_define(cv, c))
				return -1;
			continue;
		}
		if (k == TR_INIT || k == TR_INIT_THREAD) {
			started = 1;
			last_end = init_end = c->end;
			cv->pending_us = 0;
			continue;
		}
		if (!started) {
			started = 1;
			init_end = c->start;
			last_end = c->start;
		}
		if (c->start > last_end + c->paused)
			cv->pending_us += c->start - last_end - c->paused;
		paused_us += c->paused;
		if (c->end > last_end)
			last_end = c->end;
		if (k == TR_FINALIZE) {
			fin_start = c->start;
			fin = c;
			if (flush_calc(cv, c))
				return -1;
			break;
		}
		if (k == TR_ABORT) {
			fin_start = c->start;
			fin = c;
			if (flush_calc(cv, c))
				return -1;
			if (unsupported(cv, c, "the rest of the trace is ignored"))
				return -1;
			break;
		}
		if (c->flags & TR_F_NODATA) {
			if (c->end > c->start)
				cv->pending_us += c->end - c->start;
			if (nodata(cv, c))
				return -1;
			continue;
		}
		if (k == TR_OTHER) {
			const char *name = tr_call_name(t, c);
			if (c->end > c->start)
				cv->pending_us += c->end - c->start;
			if (!is_local_name(name) &&
			    unsupported(cv, c, "skipped, its time counts as computation"))
				return -1;
			continue;
		}
		if (k == TR_COMM_RANK || k == TR_COMM_SIZE || k == TR_COMM_FREE) {
			/* local: the call's time counts as computation */
			if (c->end > c->start)
				cv->pending_us += c->end - c->start;
			continue;
		}
		if (tr_makes_comm(k)) {
			/* the work of making it, without the wait for the others */
			size_t n = cv->ncomm_made++;
			double us = c->end > c->start ? c->end - c->start : 0;
			if (n < cv->ncomm_cost && cv->comm_cost[n].us >= 0)
				us = cv->comm_cost[n].us;
			cv->pending_us += us;
			continue;
		}
		if (convert_call(cv, i))
			return -1;
	}
	if (cv->failed)
		return -1;
	if (last && flush_calc(cv, last))
		return -1;
	if (fin_start < 0)
		fin_start = last_end;
	if (init_end >= 0 && fin_start > init_end + paused_us && cv->j == 0) {
		double ns = floor((fin_start - init_end - paused_us) * 1000.0 + 0.5);
		if (!(ns < NS_LIMIT))
			return t2g_call_err(cv, fin ? fin : last, "traced time of %.0f ns is too long "
			                    "(2^64 ns or more)", ns);
		if ((uint64_t)ns > cv->st.traced_ns)
			cv->st.traced_ns = (uint64_t)ns;
	}
	if (sg_out_rank_end(cv->out))
		return t2g_out_fail(cv);
	return 0;
}

/* Frees what one output rank needed (the trace, its communicators). */
static void rank_free(struct conv *cv)
{
	tr_free(&cv->t);
	for (size_t i = 0; i < cv->ncomms; i++)
		free(cv->comms[i].own);
	cv->ncomms = 0;
	util_kmap_free(&cv->handles);
	util_kmap_free(&cv->seen);
	free(cv->rsrc);
	free(cv->rtag);
	free(cv->cancelled);
	cv->rsrc = cv->rtag = NULL;
	cv->cancelled = NULL;
}

/* The traced rank's host (its trace says its cores) has one more rank;
 * -1 when out of memory. */
static int count_host(struct conv *cv)
{
	for (size_t i = 0; i < cv->nhosts; i++)
		if (strcmp(cv->hosts[i].name, cv->t.host) == 0) {
			cv->hosts[i].ranks++;
			return 0;
		}
	if (util_grow(&cv->hosts, &cv->caphosts, cv->nhosts + 1, sizeof *cv->hosts))
		return -1;
	struct host *h = &cv->hosts[cv->nhosts++];
	memcpy(h->name, cv->t.host, sizeof h->name);
	h->cores = cv->t.cores;
	h->ranks = 1;
	return 0;
}

/* Folds trace t's calls that make communicators into cv->comm_cost.
 * Returns 0 or -1 (out of memory). */
static int fold_comm_costs(struct conv *cv, const struct tr_trace *t)
{
	size_t n = 0;
	for (size_t i = 0; i < t->ncalls; i++) {
		const struct tr_call *c = &t->calls[i];
		if (!tr_makes_comm((enum tr_kind)c->kind))
			continue;
		double us = c->end > c->start ? c->end - c->start : 0;
		if (n == cv->ncomm_cost) {
			if (util_grow((void **)&cv->comm_cost, &cv->capcomm_cost, n + 1,
			              sizeof *cv->comm_cost))
				return -1;
			cv->comm_cost[cv->ncomm_cost++] = (struct comm_cost){ us, c->kind };
		}
		struct comm_cost *k = &cv->comm_cost[n++];
		if (k->kind != c->kind)
			k->us = -1;
		else if (k->us >= 0 && us < k->us)
			k->us = us;
	}
	return 0;
}

/* The cost of the calls that make communicators (cv->comm_cost), when
 * rank 0's trace (cv->t) has some: from it and from every other traced
 * rank, read once more.  Returns 0, or -1 with the message set. */
static int comm_costs(struct conv *cv, const struct t2g_source *src, const struct tr_options *to)
{
	int rc = fold_comm_costs(cv, &cv->t) ? t2g_cerr(cv, "error: out of memory") : 0;
	for (size_t r = 1; r < src->nranks && cv->ncomm_cost && !rc; r++) {
		char rerr[600];
		const char *path = "";
		struct tr_trace t;
		memset(&t, 0, sizeof t);
		if (src->read(src->ctx, r, to, &t, &path, rerr, sizeof rerr))
			rc = t2g_cerr(cv, "%s", rerr);
		else if (fold_comm_costs(cv, &t))
			rc = t2g_cerr(cv, "error: out of memory");
		tr_free(&t);
	}
	return rc;
}

int t2g_convert_source(const struct t2g_source *src, const struct t2g_options *opt,
                       sg_out *out, struct t2g_stats *st, char *err, size_t errlen)
{
	struct conv cv;
	struct tr_options to;
	size_t n = src->nranks;
	int rc = 0;

	memset(&cv, 0, sizeof cv);
	cv.opt = opt;
	cv.out = out;
	cv.err = err;
	cv.errlen = errlen;
	cv.N = n;
	cv.K = opt->extrapolate ? opt->extrapolate : 1;
	cv.ncomm_ids = 1;
	cv.st.ranks = cv.N * cv.K;
	cv.st.npatterns = sg_npatterns();
	cv.st.by_pattern = calloc(cv.st.npatterns, sizeof *cv.st.by_pattern);
	if (!cv.st.by_pattern)
		rc = t2g_cerr(&cv, "error: out of memory");
	memset(&to, 0, sizeof to);
	to.request_size = opt->request_size;
	if (n == 0)
		rc = t2g_cerr(&cv, "error: no trace files");
	for (int c = 0; c < T2G_NCOLL && !rc; c++)
		if (opt->pattern[c] < 0 || (size_t)opt->pattern[c] >= sg_npatterns())
			rc = t2g_cerr(&cv, "error: no pattern for %s", t2g_coll_name(c));
	for (uint64_t R = 0; R < cv.N * cv.K && !rc; R++) {
		char rerr[600];
		const char *path = "";
		cv.R = R;
		cv.j = R / cv.N;
		cv.r = R % cv.N;
		util_kmap_free(&cv.warned);
		if (src->read(src->ctx, cv.r, &to, &cv.t, &path, rerr, sizeof rerr)) {
			rc = t2g_cerr(&cv, "%s", rerr);
			break;
		}
		cv.path = path;
		if (cv.t.request_size > cv.st.request_size)
			cv.st.request_size = cv.t.request_size;
		for (size_t i = 0; i < cv.t.nskips && !rc; i++)
			rc = count_skip(&cv, cv.t.names + cv.t.skips[i].name, cv.t.skips[i].n);
		if (rc) {
			/* out of memory: the message is set */
		} else if (cv.t.size >= 0 && (uint64_t)cv.t.size != cv.N) {
			rc = t2g_cerr(&cv, "%s: error: the trace is of a run on %d ranks, but %zu trace files "
			              "were given", cv.path, cv.t.size, n);
		} else if (cv.t.rank >= 0 && (uint64_t)cv.t.rank != cv.r) {
			rc = t2g_cerr(&cv, "%s: error: the trace is of rank %d, expected rank %" PRIu64,
			              cv.path, cv.t.rank, cv.r);
		} else if (cv.t.ncalls == 0) {
			rc = t2g_cerr(&cv, "%s: error: no MPI call in the trace (an empty or cut file)", cv.path);
		} else if (cv.j == 0 && cv.t.cores > 0 && count_host(&cv)) {
			rc = t2g_cerr(&cv, "error: out of memory");
		} else if (R == 0 && n > 1 && comm_costs(&cv, src, &to)) {
			rc = -1;
		} else {
			rc = convert_rank(&cv);
		}
		rank_free(&cv);
	}
	if (!rc)
		rc = check_balance(&cv);
	for (size_t i = 0; i < cv.nhosts && !rc && opt->warn; i++) {
		const struct host *h = &cv.hosts[i];
		if (h->ranks <= (uint64_t)h->cores)
			continue;
		char msg[400];
		snprintf(msg, sizeof msg, "%s: warning: %" PRIu64 " traced ranks ran on host %s, which "
		         "has %" PRId32 " core%s: their times include waiting for a core, which the "
		         "simulation (a CPU per rank) does not model; compare simulated with measured "
		         "times only where ranks do not outnumber cores", util_prog(), h->ranks,
		         h->name, h->cores, h->cores == 1 ? "" : "s");
		opt->warn(opt->warn_ctx, msg);
	}
	if (!rc && cv.K > 1 && cv.p2p_calls && opt->warn) {
		char msg[400];
		snprintf(msg, sizeof msg, "%s: warning: --extrapolate %" PRIu64 " keeps the traced "
		         "point-to-point messages inside each copy of the %" PRIu64 " traced ranks "
		         "(a ring becomes %" PRIu64 " rings; docs/trace2goal.md, Extrapolation); only "
		         "collectives span all %" PRIu64 " ranks", util_prog(), cv.K, cv.N, cv.K,
		         cv.N * cv.K);
		opt->warn(opt->warn_ctx, msg);
	}
	free(cv.hosts);
	free(cv.comm_cost);
	util_kmap_free(&cv.pairs);
	util_kmap_free(&cv.comm_ids);
	util_kmap_free(&cv.tags);
	util_kmap_free(&cv.warned);
	free(cv.comms);
	pend_reset(&cv);
	free(cv.pend);
	free(cv.pchain);
	t2g_pat_free(&cv.pat);
	if (st)
		*st = cv.st;
	else
		t2g_stats_free(&cv.st);
	return rc ? -1 : 0;
}

/* The text trace files of t2g_convert: ctx is the array of paths. */
static int read_text(void *ctx, size_t r, const struct tr_options *to, struct tr_trace *t,
                     const char **path, char *err, size_t errlen)
{
	const char *const *paths = ctx;
	*path = paths[r];
	return tr_read_file(paths[r], to, t, err, errlen);
}

int t2g_convert(const char *const *paths, size_t n, const struct t2g_options *opt,
                sg_out *out, struct t2g_stats *st, char *err, size_t errlen)
{
	struct t2g_source src = { n, read_text, (void *)(uintptr_t)paths };
	return t2g_convert_source(&src, opt, out, st, err, errlen);
}
