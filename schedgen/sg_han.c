/* sg_han.c: Open MPI's hierarchical collectives, coll/han (4.1 and 5.0,
 * their default "intra" algorithms: coll_han_allreduce.c, coll_han_bcast.c;
 * docs/patterns.md, "Open MPI's coll/han").  Ranks sit on nodes of K
 * (--ranks-per-node); a collective runs as one within each node ("low":
 * what Open MPI's tuned picks for K ranks) and one among the nodes ("up":
 * the ranks of one local rank, one a node, with libnbc's algorithms), the
 * message cut into segments (--segment, default HAN's 65536 bytes) that go
 * through the levels in HAN's pipeline of tasks. */
#include "sg_pattern_int.h"

#define HAN_SEGSIZE 65536u
#define NBC_LARGE 65536u        /* libnbc: binomial trees below, chains from here */
#define NBC_HUGE 524288u        /* libnbc's broadcast: larger fragments from here */
#define NBC_RED_FRAG 8192u      /* libnbc's reduce chain: its fragments */

/* ---- libnbc's broadcast and reduce (Open MPI 4.1: nbc_ibcast.c,
 * nbc_ireduce.c) ---------------------------------------------------------- */

/* The trees' virtual ranks: the root and rank 0 swap places (RANK2VRANK). */
static uint64_t nbc_v(uint64_t r, uint64_t root)
{
	return r == root ? 0 : r == 0 ? root : r;
}

/* Fragment k of n of s bytes: s / n each, the last the rest. */
static uint64_t frag_bytes(uint64_t s, uint64_t n, uint64_t k)
{
	return k + 1 < n ? s / n : s - s / n * (n - 1);
}

static uint64_t nbc_bcast_frags(uint64_t P, uint64_t s)
{
	return P <= 4 || s < NBC_LARGE ? 1 : nseg(s, s < NBC_HUGE ? 8192 : 32768);
}

/* libnbc's broadcast: on 4 ranks or fewer the root sends to each; below
 * 64 KiB a binomial tree (vrank v receives from v - 2^k, 2^k <= v <
 * 2^(k+1), then sends to v + 2^j for every 2^j > v); else a chain in
 * fragments of 8 KiB (below 512 KiB) or 32 KiB.  The chain goes in
 * libnbc's rounds, each after the one before: the root sends a fragment
 * a round, the others receive fragment k while they send fragment k - 1. */
static void nbc_bcast(ctx *c, const sg_params *p, uint64_t root)
{
	uint64_t P = c->P, r = c->r, v = nbc_v(r, root), s = p->size, n = nbc_bcast_frags(P, s);
	if (P <= 4) {
		for (uint64_t q = 0; q < P && r == root; q++)
			if (q != root)
				send(c, s, q, 0, NONE);
		if (r != root)
			recv(c, s, root, 0, NONE);
	} else if (s < NBC_LARGE) {
		uint32_t got = NONE;
		unsigned k = 0;
		if (v) {
			k = floor_log2(v);
			got = recv(c, s, nbc_v(v - (UINT64_C(1) << k), root), 0, NONE);
			k++;
		}
		for (; (UINT64_C(1) << k) < P; k++)
			if (v + (UINT64_C(1) << k) < P)
				send(c, s, nbc_v(v + (UINT64_C(1) << k), root), 0, got);
	} else {
		uint64_t next = nbc_v(v + 1, root), prev = v ? nbc_v(v - 1, root) : 0;
		uint64_t rounds = v == 0 ? n : n + (v + 1 < P);
		uint32_t end = NONE;
		for (uint64_t k = 0; k < rounds; k++) {
			c->la.n = 0;
			if (v == 0)
				push(c, &c->la, send(c, frag_bytes(s, n, k), next, k, end));
			if (v > 0 && k < n)
				push(c, &c->la, recv(c, frag_bytes(s, n, k), prev, k, end));
			if (v > 0 && k > 0 && v + 1 < P)
				push(c, &c->la, send(c, frag_bytes(s, n, k - 1), next, k - 1, end));
			end = join(c, &c->la);
		}
	}
}

static uint64_t nbc_reduce_frags(uint64_t P, uint64_t s)
{
	return P > 4 || s < NBC_LARGE ? 1 : nseg(s, NBC_RED_FRAG);
}

/* libnbc's reduce: on more than 4 ranks or below 64 KiB a binomial tree
 * (vrank v receives from v + 2^k while v is a multiple of 2^(k+1),
 * reducing each before the next, then sends to v - 2^k); else a chain from
 * rank root - 1 down to the root (each rank r receiving from r + 1 and
 * sending to r - 1) in fragments of 8 KiB: the last rank sends them all at
 * once, the others receive fragment k + 1 while they send fragment k. */
static void nbc_reduce(ctx *c, const sg_params *p, uint64_t root)
{
	uint64_t P = c->P, r = c->r, s = p->size, n = nbc_reduce_frags(P, s);
	if (n == 1) {
		uint64_t v = nbc_v(r, root);
		uint32_t at = NONE;
		for (unsigned k = 0; (UINT64_C(1) << k) < P; k++) {
			uint64_t bit = UINT64_C(1) << k;
			if (v % (2 * bit)) {
				send(c, s, nbc_v(v - bit, root), 0, at);
				break;
			}
			if (v + bit < P)
				at = reduced(c, p, s, recv(c, s, nbc_v(v + bit, root), 0, at));
		}
		return;
	}
	uint64_t v = (r + P - root) % P, up = (r + 1) % P, down = (r + P - 1) % P;
	uint32_t at = NONE, sent = NONE;
	for (uint64_t k = 0; k < n; k++) {
		uint64_t b = frag_bytes(s, n, k);
		if (v == P - 1) {
			send(c, b, down, k, NONE);
			continue;
		}
		c->la.n = 0;
		push(c, &c->la, recv(c, b, up, k, at));
		if (sent != NONE)
			push(c, &c->la, sent);
		at = reduced(c, p, b, join(c, &c->la));
		if (v > 0)
			sent = send(c, b, down, k, at);
	}
}

/* ---- HAN -------------------------------------------------------------- */

/* One level's collective: its generator, parameters, root and tags. */
typedef struct level {
	gen_fn *g;
	sg_params q;
	uint64_t root, tags;
} level;

/* The level of class cls ("reduce", "bcast") on n ranks, s bytes, rooted
 * at root: libnbc's (nbc) or Open MPI's tuned pick. */
static level level_of(ctx *c, const sg_params *p, const char *cls, int nbc, uint64_t n, uint64_t s,
                      uint64_t root)
{
	level l = { NULL, *p, root, 1 };
	sg_params on = *p;
	on.nranks = n;
	if (nbc) {
		int red = strcmp(cls, "reduce") == 0;
		l.g = red ? nbc_reduce : nbc_bcast;
		l.q = on;
		l.q.size = s;
		l.q.segment = 0;
		l.tags = red ? nbc_reduce_frags(n, s) : nbc_bcast_frags(n, s);
	} else if (n > 1 && !(l.tags = ompi_pick(c, cls, &on, s, &l.q, &l.g))) {
		l.g = NULL;      /* no pick: c->oom is set, and the output fails */
		l.tags = 1;
	}
	return l;
}

/* Run level l over the n ranks base + j stride as its rank me, its entry
 * ops after op `after` (NONE: the phase's start), its tags from tag0 on:
 * the op that stands for its end (its last ops joined), or `after` when it
 * adds no op. */
static uint32_t run_level(ctx *c, const level *l, uint64_t n, uint64_t me, uint64_t base,
                          uint64_t stride, uint64_t tag0, uint32_t after)
{
	ctx keep = *c;
	uint32_t first = nops(c), end;
	if (n < 2 || !l->g)
		return after;
	c->P = n;
	c->r = me;
	c->pbase = base;
	c->pstride = stride;
	c->tagbase = keep.tagbase + tag0;
	c->first = first;
	if (after != NONE)
		c->start = after;
	l->g(c, &l->q, l->root);
	c->lb.n = 0;
	for (uint32_t i = first; i < nops(c) && i < c->used_cap; i++)
		if (!c->used[i])
			push(c, &c->lb, i);
	end = c->lb.n ? join(c, &c->lb) : after;
	keep.la = c->la;             /* the lists may have grown */
	keep.lb = c->lb;
	keep.exits = c->exits;
	keep.used = c->used;
	keep.used_cap = c->used_cap;
	keep.oom = c->oom;
	*c = keep;
	return end;
}

/* The ranks of a node, K, at most P (HAN's nodes are equal:
 * sg_params_check asks for P a multiple of K). */
static uint64_t node_k(const sg_params *p)
{
	uint64_t K = p->ranks_per_node ? p->ranks_per_node : 1;
	return K < p->nranks ? K : p->nranks;
}

static uint64_t han_seg(const sg_params *p)
{
	return p->segment ? p->segment : HAN_SEGSIZE;
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* The levels of segments of s bytes: the low reduce and broadcast and the
 * up ones (rooted at 0) of HAN's allreduce; tags: the most of them. */
static uint64_t allreduce_levels(ctx *c, const sg_params *p, uint64_t s, level lv[4])
{
	uint64_t K = node_k(p), N = p->nranks / K, t = 1;
	lv[0] = level_of(c, p, "reduce", 0, K, s, 0);
	lv[1] = level_of(c, p, "reduce", 1, N, s, 0);
	lv[2] = level_of(c, p, "bcast", 1, N, s, 0);
	lv[3] = level_of(c, p, "bcast", 0, K, s, 0);
	for (int k = 0; k < 4; k++)
		t = max_u64(t, lv[k].tags);
	return t;
}

/* The tags of one segment's level: the most of a full and the last one. */
static uint64_t han_tags(const sg_params *p, uint64_t (*levels)(ctx *, const sg_params *, uint64_t, level *))
{
	ctx c;
	level lv[4];
	uint64_t seg = han_seg(p), S = nseg(p->size, seg);
	memset(&c, 0, sizeof c);
	return max_u64(levels(&c, p, seg_size(p->size, seg, 0), lv),
	               levels(&c, p, seg_size(p->size, seg, S - 1), lv));
}

/* HAN's allreduce: a segment goes through four levels, low reduce (lr) to
 * the node's local rank 0, up reduce (ur) among local ranks 0 to node 0,
 * up broadcast (ub) back, low broadcast (lb) in the node.  Task t runs
 * lr(t), ur(t - 1), ub(t - 2) and lb(t - 3) (the last after lr(t): both
 * are blocking calls of the rank's thread), each task once the one before
 * has ended (HAN waits for its requests).  Tags: a block of T for each
 * level of each segment. */
void g_allreduce_han(ctx *c, const sg_params *p, uint64_t root)
{
	uint64_t K = node_k(p), N = c->P / K, node = c->r / K, i = c->r % K;
	uint64_t seg = han_seg(p), S = nseg(p->size, seg), T;
	uint32_t end = NONE;
	level full[4], last[4];
	(void)root;
	if (c->P < 2 || !p->size)
		return;
	T = max_u64(allreduce_levels(c, p, seg_size(p->size, seg, 0), full),
	            allreduce_levels(c, p, seg_size(p->size, seg, S - 1), last));
	for (uint64_t t = 0; t < S + 3; t++) {
		ilist *ends = &c->exits;
		uint32_t e[4];
		for (int k = 0; k < 4; k++) {
			uint64_t sg = t - (uint64_t)k;       /* the segment of level k */
			e[k] = NONE;
			if (t < (uint64_t)k || sg >= S || ((k == 1 || k == 2) && i != 0))
				continue;
			const level *lv = sg + 1 < S ? full : last;
			uint64_t tag0 = (sg * 4 + (uint64_t)k) * T;
			uint32_t after = k == 3 && e[0] != NONE ? e[0] : end;
			e[k] = k == 0 || k == 3 ? run_level(c, &lv[k], K, i, node * K, 1, tag0, after)
			                        : run_level(c, &lv[k], N, node, 0, K, tag0, after);
		}
		ends->n = 0;
		for (int k = 0; k < 4; k++)
			if (e[k] != NONE && e[k] != end)
				push(c, ends, e[k]);
		if (ends->n)
			end = join(c, ends);
	}
}

uint64_t t_allreduce_han(const sg_params *p)
{
	uint64_t S = nseg(p->size, han_seg(p));
	return p->nranks < 2 || !p->size ? 1 : sat_mul(sat_mul(S, 4), han_tags(p, allreduce_levels));
}

/* The levels of a broadcast of segments of s bytes from root: the up
 * broadcast among the ranks of the root's local rank, from the root's
 * node (0: the blocking one of HAN's first task, Open MPI's pick; 1:
 * libnbc's), and the low one from the root's local rank. */
static uint64_t bcast_levels(ctx *c, const sg_params *p, uint64_t s, level lv[4])
{
	uint64_t K = node_k(p), N = p->nranks / K, t = 1;
	lv[0] = level_of(c, p, "bcast", 0, N, s, p->root / K);
	lv[1] = level_of(c, p, "bcast", 1, N, s, p->root / K);
	lv[2] = level_of(c, p, "bcast", 0, K, s, p->root % K);
	lv[3] = lv[2];
	for (int k = 0; k < 3; k++)
		t = max_u64(t, lv[k].tags);
	return t;
}

/* HAN's broadcast: task 0 broadcasts segment 0 among the nodes (ub, the
 * ranks of the root's local rank, a blocking call); task t + 1 broadcasts
 * segment t + 1 among them (libnbc, nonblocking) and segment t within
 * each node (lb), once task t has ended.  Tags: a block of T for each
 * level of each segment. */
void g_bcast_han(ctx *c, const sg_params *p, uint64_t root)
{
	uint64_t K = node_k(p), N = c->P / K, node = c->r / K, i = c->r % K;
	uint64_t seg = han_seg(p), S = nseg(p->size, seg), T;
	uint32_t end = NONE;
	sg_params q = *p;
	level full[4], last[4];
	q.root = root;
	if (c->P < 2 || !p->size)
		return;
	T = max_u64(bcast_levels(c, &q, seg_size(p->size, seg, 0), full),
	            bcast_levels(c, &q, seg_size(p->size, seg, S - 1), last));
	for (uint64_t t = 0; t <= S; t++) {
		uint32_t up = NONE, low = NONE;
		if (t < S && i == root % K)
			up = run_level(c, &(t + 1 < S ? full : last)[t == 0 ? 0 : 1], N, node, i, K,
			               t * 2 * T, end);
		if (t > 0)
			low = run_level(c, &(t < S ? full : last)[2], K, i, node * K, 1,
			                ((t - 1) * 2 + 1) * T, end);
		c->exits.n = 0;
		if (up != NONE && up != end)
			push(c, &c->exits, up);
		if (low != NONE && low != end)
			push(c, &c->exits, low);
		if (c->exits.n)
			end = join(c, &c->exits);
	}
}

uint64_t t_bcast_han(const sg_params *p)
{
	uint64_t S = nseg(p->size, han_seg(p));
	return p->nranks < 2 || !p->size ? 1 : sat_mul(sat_mul(S, 2), han_tags(p, bcast_levels));
}
