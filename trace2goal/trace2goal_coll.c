/* trace2goal_coll.c: the collectives of the conversion: the classes with
 * their patterns, and a collective call replaced by the pattern of its
 * class, or of the library's choice, on its communicator. */
#include "trace2goal_int.h"

#include "sg_pattern.h"
#include "sg_select.h"
#include "die.h"
#include "util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* ---- Collective classes ------------------------------------------------ */

static const char *const coll_names[T2G_NCOLL] = {
#define T2G_COLL_NAME(id, name, other, def) name,
	T2G_COLLS(T2G_COLL_NAME)
#undef T2G_COLL_NAME
};
static const char *const coll_other[T2G_NCOLL] = {
#define T2G_COLL_OTHER(id, name, other, def) other,
	T2G_COLLS(T2G_COLL_OTHER)
#undef T2G_COLL_OTHER
};
static const char *const coll_default[T2G_NCOLL] = {
#define T2G_COLL_DEF(id, name, other, def) def,
	T2G_COLLS(T2G_COLL_DEF)
#undef T2G_COLL_DEF
};

void t2g_options_default(struct t2g_options *o)
{
	memset(o, 0, sizeof *o);
	o->compute_scale = 1.0;
	o->extrapolate = 1;
	o->select = "openmpi";
	sg_nccl_system_default(&o->nccl);
	for (int c = 0; c < T2G_NCOLL; c++)
		o->pattern[c] = sg_pattern_find(coll_default[c]);
}

const char *t2g_coll_name(int c)
{
	return c >= 0 && c < T2G_NCOLL ? coll_names[c] : NULL;
}

int t2g_coll_find(const char *name)
{
	for (int c = 0; c < T2G_NCOLL; c++)
		if (strcasecmp(coll_names[c], name) == 0 ||
		    (coll_other[c][0] && strcasecmp(coll_other[c], name) == 0))
			return c;
	return -1;
}

/* The class of a traced collective, or -1 for other calls. */
int t2g_coll_class(enum tr_kind k)
{
	switch (tr_blocking(k)) {
	case TR_BARRIER: return T2G_BARRIER;
	case TR_BCAST: return T2G_BCAST;
	case TR_REDUCE: return T2G_REDUCE;
	case TR_ALLREDUCE: return T2G_ALLREDUCE;
	case TR_GATHER: case TR_GATHERV: return T2G_GATHER;
	case TR_SCATTER: case TR_SCATTERV: return T2G_SCATTER;
	case TR_ALLGATHER: case TR_ALLGATHERV: return T2G_ALLGATHER;
	case TR_ALLTOALL: case TR_ALLTOALLV: return T2G_ALLTOALL;
	case TR_REDUCE_SCATTER: case TR_REDUCE_SCATTER_BLOCK: return T2G_REDUCE_SCATTER;
	case TR_SCAN: case TR_EXSCAN: return T2G_SCAN;
	default: return -1;
	}
}

/* ---- Collectives ------------------------------------------------------- */

int t2g_select(const struct t2g_options *o, const char *lib_cls, const sg_params *p, sg_choice *ch)
{
	char err[512];
	if (!o->select)
		return -1;
	if (strcmp(o->select, "nccl") == 0)
		return sg_select_nccl(&o->nccl, lib_cls, p->nranks, o->ranks_per_node, p->size, 0, ch, err,
		                      sizeof err);
	return sg_select(o->select, lib_cls, p->nranks, p->size, 0, 0, ch, err, sizeof err);
}

int t2g_pick_pattern(const struct t2g_options *o, int cls, const char *lib_cls, sg_params *p)
{
	sg_choice ch;
	p->ranks_per_node = o->ranks_per_node;
	if ((o->pinned & (1u << cls)) || t2g_select(o, lib_cls, p, &ch))
		return o->pattern[cls];
	sg_choice_apply(&ch, p, (o->have_protocol ? SG_GIVEN_PROTOCOL : 0) |
	                (o->have_channels ? SG_GIVEN_CHANNELS : 0));
	return sg_pattern_find(ch.pattern);
}

/* Pattern sink: buffers an op of the collective being generated. */
static int sink_op(void *ctx, const goal_op *op, uint32_t comm, char *err, size_t errlen)
{
	struct t2g_pat *pt = ctx;
	if (util_grow(&pt->ops, &pt->capops, pt->nops + 1, sizeof *pt->ops)) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	pt->ops[pt->nops].op = *op;
	pt->ops[pt->nops++].comm = comm;
	return 0;
}

/* Pattern sink: buffers a dependency between two of its ops. */
static int sink_dep(void *ctx, uint32_t a, uint32_t b, int irequires, char *err, size_t errlen)
{
	struct t2g_pat *pt = ctx;
	if (util_grow(&pt->deps, &pt->capdeps, pt->ndeps + 1, sizeof *pt->deps)) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	pt->deps[pt->ndeps++] = (struct t2g_pdep){ a, b, irequires };
	return 0;
}

int t2g_pat_generate(struct t2g_pat *pt, int pat, const sg_params *p, uint64_t me,
                     char *err, size_t errlen)
{
	sg_sink s = { sink_op, sink_dep, pt };
	sg_out *sink = sg_out_open_sink(&s);
	pt->nops = pt->ndeps = 0;
	if (!sink) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	sg_out_rank_begin(sink, me);
	int rc = sg_generate_rank((size_t)pat, p, me, sink, err, errlen);
	sg_out_close(sink, NULL, 0);
	pt->nentry = pt->nexit = pt->first = pt->last = 0;
	if (rc || pt->nops == 0)
		return rc ? -1 : 0;
	if (util_grow(&pt->flag, &pt->capflag, pt->nops, 1)) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	memset(pt->flag, 0, pt->nops);
	for (size_t k = 0; k < pt->ndeps; k++) {
		pt->flag[pt->deps[k].a] |= 1;
		pt->flag[pt->deps[k].b] |= 2;
	}
	for (size_t k = 0; k < pt->nops; k++) {
		if (!(pt->flag[k] & 1) && pt->nentry++ == 0)
			pt->first = k;
		if (!(pt->flag[k] & 2)) {
			pt->nexit++;
			pt->last = k;
		}
	}
	return 0;
}

void t2g_pat_free(struct t2g_pat *pt)
{
	free(pt->ops);
	free(pt->deps);
	free(pt->flag);
	memset(pt, 0, sizeof *pt);
}

/* The mean of v[0..n) (negative values as 0), rounded; 0 for n = 0. */
static int64_t list_mean(const int64_t *v, uint32_t n)
{
	__extension__ __int128 s = 0;
	for (uint32_t i = 0; i < n; i++)
		s += v[i] > 0 ? v[i] : 0;
	return n ? (int64_t)((s + n / 2) / n) : 0;
}

/* The pattern size of collective c, and the per-peer send bytes where the
 * call has them (*peer = NULL otherwise). */
static int64_t coll_size(const struct conv *cv, const struct tr_call *c, const int64_t **peer)
{
	const struct tr_trace *t = &cv->t;
	int nl0 = c->len[0] == (uint32_t)c->comm_size && c->comm_size > 0;
	int nl1 = c->len[1] == (uint32_t)c->comm_size && c->comm_size > 0;
	*peer = NULL;
	switch (tr_blocking((enum tr_kind)c->kind)) {
	case TR_BARRIER:
		return 0;
	case TR_BCAST:
		return c->bytes;
	case TR_SCATTER:
		return c->comm_rank == c->root ? (c->bytes ? c->bytes : c->rbytes) : c->rbytes;
	case TR_SCATTERV:
		if (c->comm_rank == c->root && nl0) {
			*peer = tr_list(t, c, 0);
			return list_mean(*peer, c->len[0]);
		}
		return c->rbytes;
	case TR_ALLTOALLV:
		if (nl0) {
			*peer = tr_list(t, c, 0);
			return list_mean(*peer, c->len[0]);
		}
		return c->bytes;
	case TR_REDUCE_SCATTER:
		if (nl0) {
			*peer = tr_list(t, c, 0);
			return list_mean(*peer, c->len[0]);
		}
		return c->bytes;
	case TR_GATHERV:
	case TR_ALLGATHERV:
		if (c->bytes == 0 && nl1)
			return tr_list(t, c, 1)[c->comm_rank];
		return c->bytes;
	default:
		return c->bytes ? c->bytes : c->rbytes;
	}
}

/* A calc 0 after the ops of the pattern just emitted from base that have
 * no flag bit (1: the entry ops, 2: the exit ops), over requires (ireq 0)
 * or irequires edges; with an empty frontier.  Its index, or NONE when the
 * output failed (cv->failed). */
static uint32_t join(struct conv *cv, uint32_t base, uint8_t bit, int ireq)
{
	uint32_t ji = t2g_emit_calc(cv, 0);
	for (size_t k = 0; ji != NONE && k < cv->pat.nops; k++)
		if (!(cv->pat.flag[k] & bit) && sg_out_dep(cv->out, ji, base + (uint32_t)k, ireq)) {
			t2g_out_fail(cv);
			return NONE;
		}
	return ji;
}

/* 1 if the n counts of peer (NULL: none) are not all equal: a
 * Reduce_scatter whose blocks differ keeps each pair's count. */
static int uneven(const int64_t *peer, uint64_t n)
{
	for (uint64_t q = 1; peer && q < n; q++)
		if (peer[q] != peer[0])
			return 1;
	return 0;
}

/* The pattern of class cls for collective c (bk: its blocking kind) on P
 * ranks, n of them traced (peer_bytes: its per-peer counts, or NULL):
 * the library's algorithm for this size of call and communicator, where
 * it has rules for the class and --coll gave no pattern (its fan-out into
 * p); a v-collective keeps its class's pattern, which sends each pair's
 * count.  Counts it, and warns once per class of a linear pattern on many
 * ranks. */
static int coll_pattern(struct conv *cv, enum tr_kind bk, int cls, uint64_t P, uint64_t n,
                        const int64_t *peer_bytes, sg_params *p)
{
	int pat = cv->opt->pattern[cls];
	if (bk != TR_GATHERV && bk != TR_SCATTERV && bk != TR_ALLGATHERV && bk != TR_ALLTOALLV &&
	    !uneven(peer_bytes, n))
		pat = t2g_pick_pattern(cv->opt, cls, bk == TR_REDUCE_SCATTER_BLOCK ? "reduce_scatter_block"
		                       : bk == TR_EXSCAN ? "exscan" : coll_names[cls], p);
	cv->st.by_pattern[pat]++;
	if (P > T2G_LINEAR_WARN && (sg_pattern((size_t)pat)->uses & SG_LINEAR) &&
	    !(cv->linear_warned & (1u << cls)) && cv->opt->warn) {
		char msg[400];
		cv->linear_warned |= 1u << cls;
		snprintf(msg, sizeof msg, "%s: warning: %s runs as %s on a communicator of %" PRIu64
		         " ranks: %" PRIu64 " messages at one rank a call, slow to simulate; --coll "
		         "%s=PATTERN chooses another (trace2goal --list)", util_prog(), coll_names[cls],
		         sg_pattern((size_t)pat)->name, P, P - 1, coll_names[cls]);
		cv->opt->warn(cv->opt->warn_ctx, msg);
	}
	return pat;
}

/* The ops and dependencies of pattern pat with parameters p at rank me of
 * the pattern into cv->pat.  0, or -1 with the message. */
static int coll_ops(struct conv *cv, const struct tr_call *c, int pat, const sg_params *p,
                    uint64_t me)
{
	char err[512];
	if (t2g_pat_generate(&cv->pat, pat, p, me, err, sizeof err))
		return t2g_call_err(cv, c, "%s with pattern %s: %s", tr_call_name(&cv->t, c),
		                    sg_pattern((size_t)pat)->name, err);
	return 0;
}

/* Emits the pattern's ops for collective c on communicator m (grow: the
 * pattern spans the extrapolated copies; space: the tags' space) with
 * their dependencies, peers mapped to the ranks of the output and sends
 * given peer_bytes' counts where there are some.  *base: the first op.
 * 0, or -1 with the message. */
static int coll_emit(struct conv *cv, const struct tr_call *c, const struct comm *m, int pat,
                     int grow, int64_t space, const int64_t *peer_bytes, uint32_t *base)
{
	uint64_t n = (uint64_t)m->size;
	*base = NONE;
	for (size_t k = 0; k < cv->pat.nops && !cv->failed; k++) {
		goal_op op = cv->pat.ops[k].op;
		struct front save = cv->f;
		uint32_t idx;
		if (cv->pat.ops[k].comm != 0)
			return t2g_call_err(cv, c, "%s with pattern %s: the pattern sends in comm %" PRIu32
			                    ", but a collective has one context (comm 0 of the pattern)",
			                    tr_call_name(&cv->t, c), sg_pattern((size_t)pat)->name,
			                    cv->pat.ops[k].comm);
		if (op.kind != GOAL_CALC) {
			uint64_t q = op.peer;  /* rank in the (grown) communicator */
			uint64_t tq = q % n;
			op.peer = (uint32_t)((grow ? q / n : cv->j) * cv->N + (uint64_t)m->members[tq]);
			op.tag = t2g_goal_tag(cv, space, m->gid, op.tag);
			if (op.kind == GOAL_SEND && peer_bytes)
				op.size = peer_bytes[tq] > 0 ? (uint64_t)peer_bytes[tq] : 0;
		}
		if (cv->pat.flag[k] & 1)
			cv->f.n = 0;
		/* a vector datatype makes every message of the pattern strided */
		int st = op.kind != GOAL_CALC && op.size && c->stride[0];
		idx = t2g_emit_st(cv, &op, op.kind == GOAL_CALC ? 0 : ctx_coll(m), st ? c->stride[0] : 0,
		                  c->block[0]);
		cv->f = save;
		if (k == 0)
			*base = idx;
	}
	if (cv->failed)
		return -1;
	for (size_t k = 0; k < cv->pat.ndeps; k++)
		if (sg_out_dep(cv->out, *base + cv->pat.deps[k].a, *base + cv->pat.deps[k].b,
		               cv->pat.deps[k].ireq))
			return t2g_out_fail(cv);
	return 0;
}

/* The program after the pattern emitted from base (its ends e).
 * Nonblocking (done not NULL): the request waits for the pattern's exit
 * ops (*done), and the program goes on once its entry ops have started
 * (as after MPI_Isend).  Blocking: it goes on after every exit op. */
static void coll_front(struct conv *cv, uint32_t base, const struct t2g_pat *e,
                       uint32_t *done)
{
	cv->f.n = 0;
	if (done) {
		*done = e->nexit == 1 ? base + (uint32_t)e->last : join(cv, base, 2, 0);
		t2g_front_set(cv, e->nentry == 1 ? base + (uint32_t)e->first : join(cv, base, 1, 1),
		              e->nentry == 1);
	} else if (e->nexit > FRONT_MAX) {
		t2g_front_set(cv, join(cv, base, 2, 0), 0);
	} else {
		for (size_t k = 0; k < cv->pat.nops; k++)
			if (!(cv->pat.flag[k] & 2))
				t2g_front_add(cv, base + (uint32_t)k);
	}
}

/* Replaces collective c by the pattern of its class for its communicator.
 * Blocking (done = NULL): the program continues after every op of the
 * pattern that no other of its ops requires.  Nonblocking: the program
 * continues at once, and *done is the op (or NONE) that the completion of
 * the call's request waits for. */
int t2g_collective(struct conv *cv, const struct tr_call *c, int cls, uint32_t *done)
{
	struct comm *m = t2g_comm_of(cv, c);
	enum tr_kind bk = tr_blocking((enum tr_kind)c->kind);
	const int64_t *peer_bytes;
	sg_params p;
	int pat;
	uint64_t P, me, n;
	int grow;
	uint32_t base;
	int64_t size, space = 1;

	if (!m)
		return cv->failed ? -1 : 0;
	/* the rounds of a nonblocking collective have tags of their own: it
	 * may overlap the next collectives on its communicator */
	if (done)
		space = 2 + (int64_t)m->nbc++;
	cv->st.collectives++;
	n = (uint64_t)m->size;
	grow = n == cv->N && cv->K > 1;
	P = grow ? n * cv->K : n;
	me = grow ? cv->j * n + (uint64_t)c->comm_rank : (uint64_t)c->comm_rank;
	if (P < 2)
		return 0;
	size = coll_size(cv, c, &peer_bytes);
	if (size < 0 && t2g_negative_size(cv, c, size))
		return -1;
	for (uint64_t q = 0; peer_bytes && q < n; q++)
		if (peer_bytes[q] < 0 && t2g_negative_size(cv, c, peer_bytes[q]))
			return -1;
	sg_params_default(&p);
	p.nranks = P;
	p.size = size > 0 ? (uint64_t)size : 0;
	p.root = 0;
	p.gamma = cv->opt->gamma;
	p.channels = cv->opt->channels;
	p.protocol = cv->opt->protocol;
	pat = coll_pattern(cv, bk, cls, P, n, peer_bytes, &p);
	if (bk == TR_BCAST || bk == TR_REDUCE || bk == TR_GATHER || bk == TR_GATHERV ||
	    bk == TR_SCATTER || bk == TR_SCATTERV) {
		if (c->root < 0 || (uint64_t)c->root >= n)
			return t2g_call_err(cv, c, "root %d is not a rank of the communicator (0..%d)",
			                    (int)c->root, (int)n - 1);
		p.root = (uint64_t)c->root;
	}
	if (coll_ops(cv, c, pat, &p, me))
		return -1;
	if (cv->pat.nops == 0)
		return 0;
	/* a pattern with several entry ops waits for one op, not the frontier */
	if (cv->f.n > 1 && cv->pat.nentry > 1)
		t2g_front_set(cv, t2g_emit_calc(cv, 0), 0);
	if (coll_emit(cv, c, m, pat, grow, space, peer_bytes, &base))
		return -1;
	coll_front(cv, base, &cv->pat, done);
	return cv->failed ? -1 : 0;
}
