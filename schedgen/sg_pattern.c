/* sg_pattern.c: the collective algorithms and communication patterns of
 * schedgen, generated rank by rank, and the benchmark loop around them. */
#include "sg_pattern.h"
#include "sg_select.h"
#include "util.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define NONE UINT32_MAX  /* no op */
__extension__ typedef unsigned __int128 sg_u128;

/* A growable list of op indices. */
typedef struct ilist {
	uint32_t *v;
	size_t n, cap;
} ilist;

/* The state of the rank being generated.  Every op a pattern adds either
 * names the op it comes after, or depends on `start`, the end of the
 * previous phase (iteration, barrier) of the rank. */
typedef struct ctx {
	sg_out *o;
	uint64_t P, r;
	uint64_t tagbase;    /* first tag of the current phase */
	uint32_t start;      /* op the phase's entry ops require, or NONE */
	uint32_t first;      /* first op of the current phase */
	uint8_t *used;       /* per op of the rank: some op of its phase requires it */
	size_t used_cap;
	ilist la, lb, exits;
	int reduces;         /* the pattern reduces (SG_REDUCES): reduced() charges */
	int oom;
} ctx;

/* ---- Building blocks --------------------------------------------------- */

static uint32_t nops(const ctx *c)
{
	return sg_out_nops(c->o);
}

static void push(ctx *c, ilist *l, uint32_t i)
{
	if (util_grow(&l->v, &l->cap, l->n + 1, sizeof *l->v)) {
		c->oom = 1;
		return;
	}
	l->v[l->n++] = i;
}

/* "a requires b": b then has a dependent in the phase. */
static void req(ctx *c, uint32_t a, uint32_t b)
{
	if (a == NONE || b == NONE)
		return;
	sg_out_dep(c->o, a, b, 0);
	if (b < c->used_cap)
		c->used[b] = 1;
}

/* Append op to the rank and track it in used[].  Returns its index, or
 * NONE after an error (which c->oom or the output remembers). */
static uint32_t new_op(ctx *c, const goal_op *op)
{
	uint32_t i;
	if (sg_out_op(c->o, op, &i))
		return NONE;
	if (util_grow(&c->used, &c->used_cap, i + 1, 1)) {
		c->oom = 1;
		return NONE;
	}
	c->used[i] = 0;
	return i;
}

/* Add an op; it requires `after`, or the phase start when after is NONE.
 * Returns its index (NONE after an error). */
static uint32_t add(ctx *c, goal_kind kind, uint64_t size, uint64_t peer,
                    uint64_t tag, uint16_t cpu, uint32_t after)
{
	goal_op op;
	uint32_t i;
	memset(&op, 0, sizeof op);
	op.kind = (uint8_t)kind;
	op.size = size;
	op.cpu = cpu;
	if (kind != GOAL_CALC) {
		op.peer = (uint32_t)peer;
		op.tag = (int32_t)(c->tagbase + tag);
	}
	i = new_op(c, &op);
	if (i != NONE)
		req(c, i, after != NONE ? after : c->start);
	return i;
}

static uint32_t send(ctx *c, uint64_t size, uint64_t peer, uint64_t tag, uint32_t after)
{
	return add(c, GOAL_SEND, size, peer, tag, 0, after);
}

static uint32_t recv(ctx *c, uint64_t size, uint64_t peer, uint64_t tag, uint32_t after)
{
	return add(c, GOAL_RECV, size, peer, tag, 0, after);
}

/* A local reduction of n bytes once `after` has completed: a calc of
 * gamma * n ns (rounded half up).  Returns the op that stands for the
 * reduced data, which is `after` itself when gamma or n is 0 or the
 * pattern does not reduce (a barrier sharing a generator with an
 * allreduce): no op, so the schedule is the same as without --gamma. */
static uint32_t reduced(ctx *c, const sg_params *p, uint64_t n, uint32_t after)
{
	sg_u128 t;
	if (p->gamma.num == 0 || n == 0 || !c->reduces)
		return after;
	t = ((sg_u128)p->gamma.num * n + p->gamma.den / 2) / p->gamma.den;
	return add(c, GOAL_CALC, t > UINT64_MAX ? UINT64_MAX : (uint64_t)t, 0, 0, 0, after);
}

/* One op standing for all ops of l: NONE for none, the op for one, else a
 * `calc 0` that requires them all (costs no time: it keeps the number of
 * edges linear where many ops wait for many). */
static uint32_t join(ctx *c, const ilist *l)
{
	uint32_t j;
	if (l->n == 0)
		return NONE;
	if (l->n == 1)
		return l->v[0];
	j = add(c, GOAL_CALC, 0, 0, 0, 0, l->v[0]);
	for (size_t k = 1; k < l->n; k++)
		req(c, j, l->v[k]);
	return j;
}

static unsigned ceil_log2(uint64_t x)
{
	unsigned k = 0;
	while (k < 64 && (UINT64_C(1) << k) < x)
		k++;
	return k;
}

static unsigned floor_log2(uint64_t x)
{
	return x ? 63u - (unsigned)__builtin_clzll(x) : 0u;
}

/* Ranks relative to the root: vrank 0 is the root. */
static uint64_t vrank(const ctx *c, uint64_t root)
{
	return (c->r + c->P - root) % c->P;
}
static uint64_t real(const ctx *c, uint64_t v, uint64_t root)
{
	return (v + root) % c->P;
}
static uint64_t vrank_of(const ctx *c, uint64_t r, uint64_t root)
{
	return (r + c->P - root) % c->P;
}

/* Segments of a message of size bytes cut in pieces of seg (0: one). */
static uint64_t nseg(uint64_t size, uint64_t seg)
{
	if (seg == 0 || size == 0)
		return 1;
	return size / seg + (size % seg != 0);
}
static uint64_t seg_size(uint64_t size, uint64_t seg, uint64_t k)
{
	if (seg == 0)
		return size;
	return size - k * seg < seg ? size - k * seg : seg;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

/* ---- Patterns ----------------------------------------------------------
 * Each g_* adds the ops of rank c->r for one run of the pattern; each t_*
 * gives the number of tags one run uses (tags 0..t-1 after the phase's
 * base).  docs/patterns.md describes them. */

typedef void gen_fn(ctx *c, const sg_params *p, uint64_t root);
typedef uint64_t tags_fn(const sg_params *p);

static uint64_t t_one(const sg_params *p)
{
	(void)p;
	return 1;
}
static uint64_t t_two(const sg_params *p)
{
	(void)p;
	return 2;
}
static uint64_t t_three(const sg_params *p)
{
	(void)p;
	return 3;
}
static uint64_t t_log2(const sg_params *p)
{
	unsigned k = ceil_log2(p->nranks);
	return k ? k : 1;
}
static uint64_t t_segments(const sg_params *p)
{
	return nseg(p->size, p->segment);
}

/* Binomial broadcast: vrank v receives from v - 2^m (2^m its highest bit)
 * in round m, then sends to v + 2^k for k = m+1, m+2, ... (the root: k = 0,
 * 1, ...) while v + 2^k < P; tag k. */
static void g_bcast_binomial(ctx *c, const sg_params *p, uint64_t root)
{
	uint64_t v = vrank(c, root), P = c->P;
	unsigned K = ceil_log2(P), k = 0;
	uint32_t rv = NONE;
	if (v > 0) {
		unsigned m = floor_log2(v);
		rv = recv(c, p->size, real(c, v - (UINT64_C(1) << m), root), m, NONE);
		k = m + 1;
	}
	for (; k < K; k++)
		if (v + (UINT64_C(1) << k) < P)
			send(c, p->size, real(c, v + (UINT64_C(1) << k), root), k, rv);
}

/* Binomial reduce, the broadcast reversed: receive from the children
 * v + 2^k (k increasing), reduce each, then send to the parent once all
 * are reduced. */
static void g_reduce_binomial(ctx *c, const sg_params *p, uint64_t root)
{
	uint64_t v = vrank(c, root), P = c->P;
	unsigned K = ceil_log2(P), k = v ? floor_log2(v) + 1 : 0;
	c->la.n = 0;
	for (; k < K; k++)
		if (v + (UINT64_C(1) << k) < P)
			push(c, &c->la, reduced(c, p, p->size,
			                        recv(c, p->size, real(c, v + (UINT64_C(1) << k), root), k, NONE)));
	if (v > 0) {
		unsigned m = floor_log2(v);
		uint32_t s = send(c, p->size, real(c, v - (UINT64_C(1) << m), root), m,
		                  c->la.n ? c->la.v[0] : NONE);
		for (size_t i = 1; i < c->la.n; i++)
			req(c, s, c->la.v[i]);
	}
}

/* Binary tree broadcast (heap order): receive from (v-1)/2, send to 2v+1
 * and 2v+2. */
static void g_bcast_binary(ctx *c, const sg_params *p, uint64_t root)
{
	uint64_t v = vrank(c, root);
	uint32_t rv = NONE;
	if (v > 0)
		rv = recv(c, p->size, real(c, (v - 1) / 2, root), 0, NONE);
	for (uint64_t ch = 2 * v + 1; ch <= 2 * v + 2; ch++)
		if (ch < c->P)
			send(c, p->size, real(c, ch, root), 0, rv);
}

/* Pipelined chain root = v0 -> v1 -> ... -> v(P-1), segment k with tag k;
 * sending segment k requires having received it.  buffered: receiving
 * segment k also requires having sent segment k-1. */
static void chain(ctx *c, const sg_params *p, uint64_t root, int buffered)
{
	uint64_t v = vrank(c, root), n = nseg(p->size, p->segment);
	uint32_t prev_send = NONE;
	for (uint64_t k = 0; k < n; k++) {
		uint64_t sz = seg_size(p->size, p->segment, k);
		uint32_t rv = NONE;
		if (v > 0)
			rv = recv(c, sz, real(c, v - 1, root), k, buffered ? prev_send : NONE);
		if (v + 1 < c->P)
			prev_send = send(c, sz, real(c, v + 1, root), k, rv);
	}
}
static void g_bcast_chain(ctx *c, const sg_params *p, uint64_t root)
{
	chain(c, p, root, 0);
}
static void g_bcast_chain_buffered(ctx *c, const sg_params *p, uint64_t root)
{
	chain(c, p, root, 1);
}

/* Linear scatter: the root sends to vranks 1..P-1 in order, independently. */
static void g_scatter(ctx *c, const sg_params *p, uint64_t root)
{
	uint64_t v = vrank(c, root);
	if (v == 0) {
		for (uint64_t j = 1; j < c->P; j++)
			send(c, p->size, real(c, j, root), 0, NONE);
	} else {
		recv(c, p->size, root, 0, NONE);
	}
}

/* Linear gather: vranks 1..P-1 send to the root, which receives in order. */
static void g_gather(ctx *c, const sg_params *p, uint64_t root)
{
	uint64_t v = vrank(c, root);
	if (v == 0) {
		for (uint64_t j = 1; j < c->P; j++)
			recv(c, p->size, real(c, j, root), 0, NONE);
	} else {
		send(c, p->size, root, 0, NONE);
	}
}

/* Dissemination: round k = 0..ceil(log2 P)-1 sends to r + 2^k and receives
 * from r - 2^k (mod P), tag k; each send requires the previous receive
 * (reduced, in the allreduce). */
static void g_dissemination(ctx *c, const sg_params *p, uint64_t root)
{
	uint64_t P = c->P, r = c->r;
	unsigned K = ceil_log2(P);
	uint32_t prev = NONE;
	(void)root;
	for (unsigned k = 0; k < K; k++) {
		uint64_t d = UINT64_C(1) << k;
		send(c, p->size, (r + d) % P, k, prev);
		prev = reduced(c, p, p->size, recv(c, p->size, (r + P - d % P) % P, k, NONE));
	}
}

/* Recursive doubling / pairwise exchange.  p2 = largest power of two <= P;
 * rank r >= p2 first sends to r - p2 (tag 0) and at the end receives the
 * result from it (tag m+1); ranks r < p2 exchange with r XOR 2^k in round
 * k = 0..m-1 (m = log2 p2, tag k+1), each send requiring the previous
 * receive (reduced, in the allreduce). */
static void g_recdoub(ctx *c, const sg_params *p, uint64_t root)
{
	uint64_t P = c->P, r = c->r;
	unsigned m = floor_log2(P);
	uint64_t p2 = UINT64_C(1) << m, rem = P - p2;
	uint32_t prev = NONE;
	(void)root;
	if (r >= p2) {
		send(c, p->size, r - p2, 0, NONE);
		recv(c, p->size, r - p2, m + 1, NONE);
		return;
	}
	if (r < rem)
		prev = reduced(c, p, p->size, recv(c, p->size, r + p2, 0, NONE));
	for (unsigned k = 0; k < m; k++) {
		uint64_t q = r ^ (UINT64_C(1) << k);
		send(c, p->size, q, k + 1, prev);
		prev = reduced(c, p, p->size, recv(c, p->size, q, k + 1, NONE));
	}
	if (r < rem)
		send(c, p->size, r + p2, m + 1, prev);
}
static uint64_t t_recdoub(const sg_params *p)
{
	return floor_log2(p->nranks) + 2u;
}

/* Ring allreduce: the vector (size bytes) is cut in P chunks (chunk i has
 * size/P bytes, one more for i < size mod P), each chunk in segments.  Step
 * t = 0..2P-3 (P-1 reduce-scatter steps, then P-1 allgather steps): send
 * chunk (r-t) mod P to r+1 and receive chunk (r-t-1) mod P from r-1
 * (and reduce it, in the first P-1 steps); segment j of a step's send
 * requires segment j of the previous step's receive.  Tag t*S + j, S the segments of the largest chunk. */
static uint64_t ring_chunk(uint64_t size, uint64_t P, uint64_t i)
{
	return size / P + (i < size % P);
}
static void g_allreduce_ring(ctx *c, const sg_params *p, uint64_t root)
{
	uint64_t P = c->P, r = c->r;
	uint64_t S = nseg(ring_chunk(p->size, P, 0), p->segment);
	(void)root;
	if (P < 2)
		return;
	c->la.n = 0;  /* receives of the previous step, by segment */
	for (uint64_t t = 0; t < 2 * P - 2; t++) {
		uint64_t sc = (r + P - t % P) % P, rc = (sc + P - 1) % P;
		uint64_t ssz = ring_chunk(p->size, P, sc), rsz = ring_chunk(p->size, P, rc);
		uint64_t ns = nseg(ssz, p->segment), nr = nseg(rsz, p->segment);
		c->lb.n = 0;
		for (uint64_t j = 0; j < ns || j < nr; j++) {
			if (j < ns)
				send(c, seg_size(ssz, p->segment, j), (r + 1) % P, t * S + j,
				     j < c->la.n ? c->la.v[j] : NONE);
			if (j < nr) {
				uint32_t rv = recv(c, seg_size(rsz, p->segment, j), (r + P - 1) % P,
				                   t * S + j, NONE);
				push(c, &c->lb, t + 1 < P ? reduced(c, p, seg_size(rsz, p->segment, j), rv) : rv);
			}
		}
		{
			ilist tmp = c->la;
			c->la = c->lb;
			c->lb = tmp;
		}
	}
}
static uint64_t t_allreduce_ring(const sg_params *p)
{
	uint64_t P = p->nranks;
	if (P < 2)
		return 1;
	return sat_mul(2 * P - 2, nseg(ring_chunk(p->size, P, 0), p->segment));
}

/* One MPI_Sendrecv: ssize bytes to `to` and rsize from `from` (tag tag),
 * both after `after`; returns the op that stands for both having ended,
 * which the next step waits for. */
static uint32_t sendrecv(ctx *c, uint64_t ssize, uint64_t to, uint64_t rsize, uint64_t from,
                         uint64_t tag, uint32_t after)
{
	c->la.n = 0;
	push(c, &c->la, send(c, ssize, to, tag, after));
	push(c, &c->la, recv(c, rsize, from, tag, after));
	return join(c, &c->la);
}

/* Open MPI's ring allgather (coll_tuned allgather algorithm 4,
 * ompi_coll_base_allgather_intra_ring): P-1 steps; in step i rank r sends
 * the block it received in step i-1 (its own first) to r+1 and receives
 * the next from r-1, one MPI_Sendrecv a step (tag i). */
static void g_allgather_ring(ctx *c, const sg_params *p, uint64_t root)
{
	uint64_t P = c->P, r = c->r;
	uint32_t prev = NONE;
	(void)root;
	for (uint64_t i = 0; i + 1 < P; i++)
		prev = sendrecv(c, p->size, (r + 1) % P, p->size, (r + P - 1) % P, i, prev);
}

/* Open MPI's pairwise alltoall (coll_tuned alltoall algorithm 2,
 * ompi_coll_base_alltoall_intra_pairwise): in step i = 1..P-1 rank r sends
 * its block for r+i and receives the block of r-i, one MPI_Sendrecv a step
 * (tag i-1; step P, the rank's own block, is a local copy). */
static void g_alltoall_pairwise(ctx *c, const sg_params *p, uint64_t root)
{
	uint64_t P = c->P, r = c->r;
	uint32_t prev = NONE;
	(void)root;
	for (uint64_t i = 1; i < P; i++)
		prev = sendrecv(c, p->size, (r + i) % P, p->size, (r + P - i) % P, i - 1, prev);
}

/* Open MPI's Bruck allgather (coll_tuned allgather algorithm 2,
 * ompi_coll_base_allgather_intra_bruck): in step k (distance 2^k < P) rank
 * r sends the blocks it has, min(2^k, P - 2^k) of s bytes, to r - 2^k and
 * receives as many from r + 2^k, one MPI_Sendrecv a step (tag k). */
static void g_allgather_bruck(ctx *c, const sg_params *p, uint64_t root)
{
	uint64_t P = c->P, r = c->r;
	uint32_t prev = NONE;
	unsigned k = 0;
	(void)root;
	for (uint64_t d = 1; d < P; d <<= 1, k++) {
		uint64_t blocks = d <= P / 2 ? d : P - d;
		prev = sendrecv(c, sat_mul(blocks, p->size), (r + P - d) % P, sat_mul(blocks, p->size),
		                (r + d) % P, k, prev);
	}
}

/* Open MPI's recursive-doubling allgather (algorithm 3,
 * ompi_coll_base_allgather_intra_recursivedoubling): P a power of two, in
 * step k rank r exchanges its 2^k blocks with r xor 2^k (tag k); any other
 * P runs the Bruck allgather, as Open MPI falls back to it. */
static void g_allgather_recdoub(ctx *c, const sg_params *p, uint64_t root)
{
	uint64_t P = c->P, r = c->r;
	uint32_t prev = NONE;
	unsigned k = 0;
	if (P & (P - 1)) {
		g_allgather_bruck(c, p, root);
		return;
	}
	for (uint64_t d = 1; d < P; d <<= 1, k++)
		prev = sendrecv(c, sat_mul(d, p->size), r ^ d, sat_mul(d, p->size), r ^ d, k, prev);
}

/* Open MPI's neighbor-exchange allgather (algorithm 5,
 * ompi_coll_base_allgather_intra_neighborexchange): P even; an even rank's
 * neighbours are r+1, then r-1, an odd rank's r-1, then r+1.  Step 0
 * exchanges one block with the first neighbour, steps i = 1 .. P/2-1 two
 * blocks with neighbour i mod 2, one MPI_Sendrecv a step (tag i).  An odd
 * P runs the ring allgather, as Open MPI falls back to it. */
static void g_allgather_neighbor(ctx *c, const sg_params *p, uint64_t root)
{
	uint64_t P = c->P, r = c->r, nb[2];
	uint32_t prev = NONE;
	if (P % 2) {
		g_allgather_ring(c, p, root);
		return;
	}
	nb[r % 2] = (r + 1) % P;           /* even: r+1 first; odd: r+1 second */
	nb[1 - r % 2] = (r + P - 1) % P;
	for (uint64_t i = 0; i < P / 2; i++) {
		uint64_t to = nb[i % 2];
		prev = sendrecv(c, sat_mul(i ? 2 : 1, p->size), to, sat_mul(i ? 2 : 1, p->size), to, i,
		                prev);
	}
}

/* Open MPI's Rabenseifner allreduce (coll_tuned allreduce algorithm 6,
 * ompi_coll_base_allreduce_intra_redscat_allgather), for s bytes on P
 * ranks, P' = 2^floor(log2 P), q = P - P':
 * 1. Ranks below 2q pair up: an odd rank sends the first s/2 bytes to r-1
 *    and receives the rest from it (one MPI_Sendrecv), then sends its
 *    half back and leaves; an even rank does the mirror and, after
 *    receiving that half, goes on as vrank r/2.  The others are r - q.
 * 2. Reduce-scatter by recursive halving: for mask = 1, 2, .. P'/2 the
 *    vrank exchanges with vrank xor mask, sending the upper half of its
 *    window when it is the lower rank of the pair, else the lower half
 *    (s/2 rounded down goes to the lower half); the window becomes the
 *    half it kept.
 * 3. Allgather by recursive doubling: the same pairs in reverse order,
 *    each sending what it kept and receiving what it gave.
 * 4. The even ranks below 2q send all s bytes to r+1.
 * Every exchange is one MPI_Sendrecv after the one before; the pairing's
 * and the halving's received bytes are reduced before the next.  Below P'
 * bytes Open MPI falls back to its basic linear allreduce
 * (allreduce_linear). */
static void g_allreduce_linear(ctx *c, const sg_params *p, uint64_t root);
static void end_phase(ctx *c);
static void g_allreduce_rabenseifner(ctx *c, const sg_params *p, uint64_t root)
{
	unsigned k = floor_log2(c->P), n;
	uint64_t P = c->P, r = c->r, s = p->size, pof2 = UINT64_C(1) << k, q = P - pof2;
	uint64_t v, w = s, t = 2, last = 2 + 2 * (uint64_t)k;   /* tags: 0-1, 2.., last */
	uint64_t keep[64], give[64], dest[64];
	uint32_t prev = NONE;
	(void)root;
	if (P < 2)
		return;
	if (s < pof2) {
		g_allreduce_linear(c, p, 0);
		return;
	}
	if (r < 2 * q) {
		uint64_t lo = s / 2, hi = s - lo;
		if (r % 2) {
			prev = reduced(c, p, hi, sendrecv(c, lo, r - 1, hi, r - 1, 0, prev));
			prev = send(c, hi, r - 1, 1, prev);
			recv(c, s, r - 1, last, prev);
			return;
		}
		prev = reduced(c, p, lo, sendrecv(c, hi, r + 1, lo, r + 1, 0, prev));
		prev = recv(c, hi, r + 1, 1, prev);
		v = r / 2;
	} else {
		v = r - q;
	}
	for (n = 0; n < k; n++) {   /* partner of step n: vrank v xor 2^n */
		uint64_t vd = v ^ (UINT64_C(1) << n);
		dest[n] = vd < q ? vd * 2 : vd + q;
		keep[n] = r < dest[n] ? w / 2 : w - w / 2;
		give[n] = w - keep[n];
		prev = reduced(c, p, keep[n], sendrecv(c, give[n], dest[n], keep[n], dest[n], t++, prev));
		w = keep[n];
	}
	while (n-- > 0)
		prev = sendrecv(c, keep[n], dest[n], give[n], dest[n], t++, prev);
	if (r < 2 * q)
		send(c, s, r + 1, last, prev);
}
static uint64_t t_rabenseifner(const sg_params *p)
{
	return 2 * (uint64_t)floor_log2(p->nranks ? p->nranks : 1) + 3;
}

/* The bytes of block b of s bytes cut in blocks of sc (the last ones
 * shorter or empty). */
static uint64_t block_bytes(uint64_t s, uint64_t sc, uint64_t b)
{
	return sc * b >= s ? 0 : s - sc * b < sc ? s - sc * b : sc;
}

/* The binomial scatter of Open MPI's scatter-allgather broadcasts: the s
 * bytes in blocks of sc = ceil(s/P), vrank v owning block v.  v > 0
 * receives blocks v .. v + lowbit(v) - 1 from v - lowbit(v) (what of them
 * there is), then sends to v + m, for m = lowbit(v)/2 (the root: the
 * largest power of two below P) down to 1, the blocks from v + m on that
 * it holds, when there are any (tag 0).  Returns the rank's last op.
 * Below P bytes Open MPI runs its linear broadcast instead, when *linear
 * is set on entry (MPICH scatters what there is): the root sends all s
 * bytes to every rank (*linear stays set; else it is cleared). */
static uint32_t scatter_blocks(ctx *c, uint64_t s, uint64_t root, int *linear)
{
	uint64_t P = c->P, v = vrank(c, root), sc = (s + P - 1) / P, held = v ? 0 : s, m;
	uint32_t prev = NONE;
	*linear = s < P && *linear;
	if (*linear) {
		for (uint64_t j = 1; v == 0 && j < P; j++)
			send(c, s, real(c, j, root), 0, NONE);
		if (v)
			recv(c, s, root, 0, NONE);
		return NONE;
	}
	if (v) {
		m = v & (~v + 1);
		if (s > sc * v) {
			held = s - sc * v < sc * m ? s - sc * v : sc * m;
			prev = recv(c, held, real(c, v - m, root), 0, NONE);
		}
	} else {
		m = UINT64_C(1) << ceil_log2(P);
	}
	for (m >>= 1; m > 0; m >>= 1)
		if (v + m < P && held > sc * m) {
			prev = send(c, held - sc * m, real(c, v + m, root), 0, prev);
			held = sc * m;
		}
	return prev;
}

/* Open MPI's scatter-allgather broadcast with a ring (coll_tuned bcast
 * algorithm 9, ompi_coll_base_bcast_intra_scatter_allgather_ring): the
 * binomial scatter (scatter_blocks), then a ring allgather: P-1
 * MPI_Sendrecv steps, sending the block last received (its own first) to
 * rank r+1 and receiving the next from r-1 (tag i). */
static void scatter_ring(ctx *c, const sg_params *p, uint64_t root, int linear)
{
	uint64_t P = c->P, r = c->r, v = vrank(c, root), s = p->size, sc = (s + P - 1) / P;
	uint32_t prev;
	if (P < 2)
		return;
	prev = scatter_blocks(c, s, root, &linear);
	if (linear)
		return;
	for (uint64_t i = 1, sb = v, rb = (v + P - 1) % P; i < P; i++) {
		prev = sendrecv(c, block_bytes(s, sc, sb), (r + 1) % P, block_bytes(s, sc, rb),
		                (r + P - 1) % P, i, prev);
		sb = rb;
		rb = (rb + P - 1) % P;
	}
}
static void g_bcast_scatter_allgather_ring(ctx *c, const sg_params *p, uint64_t root)
{
	scatter_ring(c, p, root, 1);
}
/* MPICH's scatter-ring-allgather broadcast
 * (MPIR_Bcast_intra_scatter_ring_allgather) sends the same, but scatters
 * fewer bytes than ranks too: blocks of one byte, the ranks from s on
 * getting none. */
static void g_bcast_scatter_ring_mpich(ctx *c, const sg_params *p, uint64_t root)
{
	scatter_ring(c, p, root, 0);
}

/* The bytes of blocks b .. b+m-1 (those below P) of s bytes in blocks of
 * sc. */
static uint64_t blocks_bytes(uint64_t s, uint64_t sc, uint64_t P, uint64_t b, uint64_t m)
{
	uint64_t e = b + m < P ? b + m : P;
	if (b >= e || sc * b >= s)
		return 0;
	return s - sc * b < sc * (e - b) ? s - sc * b : sc * (e - b);
}

/* Open MPI's scatter-allgather broadcast (bcast algorithm 8,
 * ompi_coll_base_bcast_intra_scatter_allgather): the binomial scatter
 * (scatter_blocks), then an allgather by recursive doubling.  Before the
 * step of distance m, vrank v holds the blocks of its group of m, from R =
 * v rounded down to a multiple of m; it exchanges them with v xor m, when
 * that is a rank (an MPI_Sendrecv, tag 2k+1 in step k).  When the other
 * group reaches past P, the ranks of v's group whose partner is missing
 * get that group's blocks by recursive halving inside the group (distance
 * m/2 .. 1, tag 2k+2): a rank that has them sends to v xor d above it
 * when that one has not. */
static void scatter_recdoub(ctx *c, const sg_params *p, uint64_t root, int linear)
{
	uint64_t P = c->P, v = vrank(c, root), s = p->size, sc = (s + P - 1) / P;
	unsigned k = 0;
	uint32_t prev;
	if (P < 2)
		return;
	prev = scatter_blocks(c, s, root, &linear);
	if (linear)
		return;
	for (uint64_t m = 1; m < P; m <<= 1, k++) {
		uint64_t vr = v ^ m, R = v / m * m, Rr = vr / m * m;
		uint64_t got = blocks_bytes(s, sc, P, Rr, m);
		int64_t nad = (int64_t)P - (int64_t)(R + m);   /* ranks of v's group with data */
		if (vr < P)
			prev = sendrecv(c, blocks_bytes(s, sc, P, R, m), real(c, vr, root), got,
			                real(c, vr, root), 2 * k + 1, prev);
		if (Rr + m <= P)
			continue;
		for (uint64_t d = m >> 1; d > 0; d >>= 1) {
			uint64_t w = v ^ d;
			int64_t edge = (int64_t)(v / (2 * d) * (2 * d)) + nad;
			if (w > v && (int64_t)v < edge && (int64_t)w >= edge)
				prev = send(c, got, real(c, w, root), 2 * k + 2, prev);
			else if (w < v && (int64_t)w < edge && (int64_t)v >= edge)
				prev = recv(c, got, real(c, w, root), 2 * k + 2, prev);
		}
	}
}
static void g_bcast_scatter_allgather(ctx *c, const sg_params *p, uint64_t root)
{
	scatter_recdoub(c, p, root, 1);
}
/* MPICH's scatter-recursive-doubling-allgather broadcast
 * (MPIR_Bcast_intra_scatter_recursive_doubling_allgather): the same, with
 * MPICH's scatter of fewer bytes than ranks (g_bcast_scatter_ring_mpich). */
static void g_bcast_scatter_recdoub_mpich(ctx *c, const sg_params *p, uint64_t root)
{
	scatter_recdoub(c, p, root, 0);
}
static uint64_t t_scatter_allgather(const sg_params *p)
{
	return 1 + 2 * (uint64_t)ceil_log2(p->nranks);
}

/* Tags of the scatter-allgather broadcast: the scatter's, then P-1 steps. */
static uint64_t t_ring_bcast(const sg_params *p)
{
	return p->nranks > 1 ? p->nranks : 1;
}

/* Tags of a pattern of P-1 steps. */
static uint64_t t_steps(const sg_params *p)
{
	return p->nranks > 2 ? p->nranks - 1 : 1;
}

/* Central counter barrier: the root receives from every other rank (tag
 * 0), then sends to each (tag 1) once all arrived; the others send, then
 * receive. */
static void g_barrier_linear(ctx *c, const sg_params *p, uint64_t root)
{
	uint64_t v = vrank(c, root);
	if (v == 0) {
		uint32_t all;
		c->la.n = 0;
		for (uint64_t j = 1; j < c->P; j++)
			push(c, &c->la, recv(c, p->size, real(c, j, root), 0, NONE));
		all = join(c, &c->la);
		for (uint64_t j = 1; j < c->P; j++)
			send(c, p->size, real(c, j, root), 1, all);
	} else {
		send(c, p->size, root, 0, NONE);
		recv(c, p->size, root, 1, NONE);
	}
}

/* Combining tree barrier, fan-in n: children of v are v*n+1 .. v*n+n.
 * Arrival: receive from every child (tag 0), then send to the parent
 * (v-1)/n.  Release: receive from the parent (tag 1), then send to every
 * child; the root releases once all its children arrived. */
static void g_barrier_tree(ctx *c, const sg_params *p, uint64_t root)
{
	uint64_t v = vrank(c, root), n = p->fanin, P = c->P;
	uint64_t lo = 1, hi = 0;  /* children lo..hi */
	uint32_t go;
	if (v <= (P - 1) / n && v * n + 1 < P) {
		lo = v * n + 1;
		hi = n - 1 > P - 1 - lo ? P - 1 : lo + n - 1;
	}
	c->la.n = 0;
	for (uint64_t ch = lo; ch <= hi; ch++)
		push(c, &c->la, recv(c, p->size, real(c, ch, root), 0, NONE));
	go = join(c, &c->la);
	if (v > 0) {
		uint64_t parent = real(c, (v - 1) / n, root);
		send(c, p->size, parent, 0, go);
		go = recv(c, p->size, parent, 1, NONE);
	}
	for (uint64_t ch = lo; ch <= hi; ch++)
		send(c, p->size, real(c, ch, root), 1, go);
}

/* Tournament barrier: in round k = 0..K-1 (K = ceil(log2 P)) vrank v with
 * v mod 2^(k+1) = 2^k loses to v - 2^k: it sends to it (tag k) once it has
 * received from everyone it beat, and waits for its wake-up (tag K+k).  The
 * winner receives from v + 2^k (when < P).  The champion (the root) and
 * every woken rank wake those they beat, latest round first. */
static void g_barrier_tournament(ctx *c, const sg_params *p, uint64_t root)
{
	uint64_t v = vrank(c, root), P = c->P;
	unsigned K = ceil_log2(P), kv = v ? (unsigned)__builtin_ctzll(v) : K;
	uint32_t go;
	c->la.n = 0;
	for (unsigned k = 0; k < kv && k < K; k++)
		if (v + (UINT64_C(1) << k) < P)
			push(c, &c->la, recv(c, p->size, real(c, v + (UINT64_C(1) << k), root), k, NONE));
	go = join(c, &c->la);
	if (v > 0) {
		uint64_t w = real(c, v - (UINT64_C(1) << kv), root);
		send(c, p->size, w, kv, go);
		go = recv(c, p->size, w, K + kv, NONE);
	}
	for (unsigned k = kv < K ? kv : K; k-- > 0;)
		if (v + (UINT64_C(1) << k) < P)
			send(c, p->size, real(c, v + (UINT64_C(1) << k), root), K + k, go);
}
static uint64_t t_tournament(const sg_params *p)
{
	return 2 * t_log2(p);
}

/* n-way dissemination: in round k (D = (n+1)^k, while D < P) send to
 * r + w*D for w = 1..n with w*D < P (tag k), each send requiring every
 * receive of the previous round, then receive from r - w*D. */
static void g_barrier_nway(ctx *c, const sg_params *p, uint64_t root)
{
	uint64_t P = c->P, r = c->r, n = p->nway;
	(void)root;
	c->la.n = 0;
	for (uint64_t D = 1, k = 0; D < P; k++) {
		uint32_t prev = join(c, &c->la);
		c->lb.n = 0;
		for (uint64_t w = 1; w <= n && w * D < P; w++)
			send(c, p->size, (r + w * D) % P, k, prev);
		for (uint64_t w = 1; w <= n && w * D < P; w++)
			push(c, &c->lb, recv(c, p->size, (r + P - w * D) % P, k, NONE));
		{
			ilist tmp = c->la;
			c->la = c->lb;
			c->lb = tmp;
		}
		if (D > (P - 1) / (n + 1))
			break;
		D *= n + 1;
	}
}
static uint64_t t_nway(const sg_params *p)
{
	uint64_t k = 0, P = p->nranks, n = p->nway;
	for (uint64_t D = 1; D < P; k++) {
		if (D > (P - 1) / (n + 1)) {
			k++;
			break;
		}
		D *= n + 1;
	}
	return k ? k : 1;
}

/* Pipelined ring: the root sends each segment to vrank 1; every other rank
 * forwards it to the next, and the last back to the root (tag k). */
static void g_ring_pipelined(ctx *c, const sg_params *p, uint64_t root)
{
	uint64_t v = vrank(c, root), P = c->P, n = nseg(p->size, p->segment);
	if (P < 2)
		return;
	for (uint64_t k = 0; k < n; k++) {
		uint64_t sz = seg_size(p->size, p->segment, k);
		if (v == 0) {
			send(c, sz, real(c, 1, root), k, NONE);
			recv(c, sz, real(c, P - 1, root), k, NONE);
		} else {
			uint32_t rv = recv(c, sz, real(c, v - 1, root), k, NONE);
			send(c, sz, real(c, (v + 1) % P, root), k, rv);
		}
	}
}

/* Double ring: the root sends to both neighbours; every other rank forwards
 * what comes from v-1 to v+1 (tag 0) and what comes from v+1 to v-1 (tag
 * 1); both messages end at the root. */
static void g_ring_double(ctx *c, const sg_params *p, uint64_t root)
{
	uint64_t v = vrank(c, root), P = c->P;
	uint64_t next = real(c, (v + 1) % P, root), prev = real(c, (v + P - 1) % P, root);
	if (P < 2)
		return;
	if (v == 0) {
		send(c, p->size, next, 0, NONE);
		recv(c, p->size, prev, 0, NONE);
		send(c, p->size, prev, 1, NONE);
		recv(c, p->size, next, 1, NONE);
	} else {
		uint32_t rv = recv(c, p->size, prev, 0, NONE);
		send(c, p->size, next, 0, rv);
		rv = recv(c, p->size, next, 1, NONE);
		send(c, p->size, prev, 1, rv);
	}
}

/* Linear alltoall: step j = 1..P-1 sends to r + j and receives from r - j,
 * all independent. */
static void g_alltoall_linear(ctx *c, const sg_params *p, uint64_t root)
{
	uint64_t P = c->P, r = c->r;
	(void)root;
	for (uint64_t j = 1; j < P; j++) {
		send(c, p->size, (r + j) % P, 0, NONE);
		recv(c, p->size, (r + P - j) % P, 0, NONE);
	}
}

/* ---- Open MPI's trees ----------------------------------------------------
 * The trees of Open MPI 4.1's coll/base (coll_base_topo.c), for vrank v of
 * P (vrank 0 the root): its parent and its children, in the order Open MPI
 * serves them.  The in-order binary tree alone is built on ranks, rooted
 * at P-1, whatever the root. */

typedef enum tree_kind {
	TREE_BINARY,        /* ompi_coll_base_topo_build_tree(2) */
	TREE_CHAIN,         /* build_chain(fanout): fanout chains below the root */
	TREE_BINOMIAL,      /* build_bmtree: children v + 2^k for 2^k > v */
	TREE_BINOMIAL_IO,   /* build_in_order_bmtree: children v + 2^k below v's lowest bit */
	TREE_KNOMIAL,       /* build_kmtree(radix) */
	TREE_BINARY_IO      /* build_in_order_bintree, on ranks, root P-1 */
} tree_kind;

#define TREE_MAXCH 1024  /* (radix - 1) * ceil(log_radix P) for radix <= 256 */
typedef struct tree {
	uint64_t parent;   /* UINT64_MAX at the root */
	uint32_t n;        /* children */
	uint64_t ch[TREE_MAXCH];
} tree;

static void tree_add(tree *t, uint64_t v)
{
	if (t->n < TREE_MAXCH)
		t->ch[t->n++] = v;
}

/* k^e, saturating. */
static uint64_t upow(uint64_t k, unsigned e)
{
	uint64_t x = 1;
	while (e-- > 0)
		x = sat_mul(x, k);
	return x;
}

/* The binary tree of build_tree(2): level l holds vranks 2^l - 1 ..
 * 2^(l+1) - 2; a vrank's children are v + 2^l and v + 2^(l+1), its parent
 * v less 2^(l-1) until it is above level l. */
static void tree_binary(tree *t, uint64_t v, uint64_t P)
{
	unsigned l = 0;
	uint64_t num = 0, delta, top;
	while (num <= v)
		num += upow(2, l++);
	l--;
	delta = upow(2, l);
	for (uint64_t i = 1; i <= 2 && v + delta * i < P; i++)
		tree_add(t, v + delta * i);
	if (v == 0)
		return;
	top = delta - 1;   /* vranks on the levels above l */
	t->parent = v;
	if (v < 2)
		t->parent = 0;
	else
		while (t->parent >= top)
			t->parent -= delta / 2;
}

/* build_chain(fanout): f = min(fanout, P-1) chains hang off the root, the
 * first (P-1) mod f of them (all, when f divides P-1) one longer. */
static void tree_chain(tree *t, uint64_t v, uint64_t P, uint64_t fanout)
{
	uint64_t f = fanout < 1 ? 1 : fanout > 32 ? 32 : fanout, len, mark, head;
	if (P < 2)
		return;
	if (P - 1 < f)
		f = P - 1;
	if (f == 1) {
		if (v > 0)
			t->parent = v - 1;
		if (v + 1 < P)
			tree_add(t, v + 1);
		return;
	}
	len = (P - 1) / f;
	mark = f + 1;
	if ((P - 1) % f) {
		len++;
		mark = (P - 1) % f;
	}
	if (v == 0) {
		uint64_t h = 1;
		for (uint64_t i = 0; i < f; i++) {
			if (i > 0)
				h += len - (i > mark);
			tree_add(t, h);
		}
		return;
	}
	if (v - 1 < mark * len) {
		head = 1 + (v - 1) / len * len;
	} else {
		uint64_t col = mark + (v - 1 - mark * len) / (len - 1);
		head = mark * len + 1 + (col - mark) * (len - 1);
		len--;
	}
	t->parent = v == head ? 0 : v - 1;
	if (v != head + len - 1 && v + 1 < P)
		tree_add(t, v + 1);
}

static void tree_build(tree *t, tree_kind kind, uint64_t v, uint64_t P, uint64_t arg)
{
	t->parent = UINT64_MAX;
	t->n = 0;
	switch (kind) {
	case TREE_BINARY:
		tree_binary(t, v, P);
		break;
	case TREE_CHAIN:
		tree_chain(t, v, P, arg);
		break;
	case TREE_BINOMIAL:
		if (v > 0)
			t->parent = v - (UINT64_C(1) << floor_log2(v));
		for (uint64_t m = v ? UINT64_C(2) << floor_log2(v) : 1; v + m < P; m <<= 1)
			tree_add(t, v + m);
		break;
	case TREE_BINOMIAL_IO:
		if (v > 0)
			t->parent = v & (v - 1);
		for (uint64_t m = 1; m < P && !(v & m); m <<= 1)
			if (v + m < P)
				tree_add(t, v + m);
		break;
	case TREE_KNOMIAL: {
		uint64_t m = 1;
		for (; m < P; m = sat_mul(m, arg))
			if (v % sat_mul(arg, m)) {
				t->parent = v / sat_mul(arg, m) * sat_mul(arg, m);
				break;
			}
		for (m /= arg; m > 0; m /= arg)
			for (uint64_t j = 1; j < arg; j++)
				if (v + m * j < P)
					tree_add(t, v + m * j);
		break;
	}
	case TREE_BINARY_IO: {
		/* v is a rank here: the tree of P ranks has its root at P-1, the
		 * right subtree ranks 0 .. P/2 - 1, the left the ranks between;
		 * descend into the subtree that holds v. */
		uint64_t size = P, parent = P - 1, delta = 0, my = v;
		for (;;) {
			uint64_t right = size >> 1;
			int64_t lc = -1, rc = -1;
			if (size > 1) {
				lc = (int64_t)parent - 1;
				if (lc > 0)
					rc = (int64_t)right - 1;
			}
			if (my == parent) {
				if (lc >= 0)
					tree_add(t, (uint64_t)lc + delta);
				if (rc >= 0)
					tree_add(t, (uint64_t)rc + delta);
				break;
			}
			if ((int64_t)my > rc) {
				if ((int64_t)my == lc)
					t->parent = parent + delta;
				size -= right + 1;
				delta += right;
				my -= right;
				parent = size - 1;
			} else {
				if ((int64_t)my == rc)
					t->parent = parent + delta;
				size = right;
				parent = (uint64_t)rc;
			}
		}
		break;
	}
	}
}

/* The tree of rank c->r for a pattern: its vrank's parent and children as
 * ranks. */
static void rank_tree(ctx *c, tree *t, tree_kind kind, uint64_t root, uint64_t arg)
{
	int onranks = kind == TREE_BINARY_IO;
	tree_build(t, kind, onranks ? c->r : vrank(c, root), c->P, arg);
	if (onranks)
		return;
	if (t->parent != UINT64_MAX)
		t->parent = real(c, t->parent, root);
	for (uint32_t i = 0; i < t->n; i++)
		t->ch[i] = real(c, t->ch[i], root);
}

/* Open MPI's broadcast down a tree (ompi_coll_base_bcast_intra_generic):
 * the s bytes in segments (tag k for segment k); a rank receives each
 * segment from its parent and sends it to every child in turn, a segment's
 * sends once the previous segment's have all completed. */
static void bcast_tree(ctx *c, const sg_params *p, uint64_t root, tree_kind kind, uint64_t arg)
{
	tree t;
	uint64_t n = nseg(p->size, p->segment);
	uint32_t sent = NONE;
	rank_tree(c, &t, kind, root, arg);
	for (uint64_t k = 0; k < n; k++) {
		uint64_t sz = seg_size(p->size, p->segment, k);
		uint32_t rv = t.parent != UINT64_MAX ? recv(c, sz, t.parent, k, NONE) : NONE;
		c->la.n = 0;
		for (uint32_t i = 0; i < t.n; i++) {
			uint32_t s = send(c, sz, t.ch[i], k, rv);
			req(c, s, sent);
			push(c, &c->la, s);
		}
		if (t.n)
			sent = join(c, &c->la);
	}
}

/* Open MPI's reduce up a tree (ompi_coll_base_reduce_generic): segment k
 * (tag k) is received from every child in turn and reduced, and sent to
 * the parent once all are reduced and the previous segment has been sent
 * (blocking sends).  Returns the rank's last op (NONE: none). */
static uint32_t reduce_tree(ctx *c, const sg_params *p, uint64_t root, tree_kind kind, uint64_t arg)
{
	tree t;
	uint64_t n = nseg(p->size, p->segment);
	uint32_t last = NONE;
	rank_tree(c, &t, kind, root, arg);
	for (uint64_t k = 0; k < n; k++) {
		uint64_t sz = seg_size(p->size, p->segment, k);
		uint32_t got;
		c->la.n = 0;
		for (uint32_t i = 0; i < t.n; i++)
			push(c, &c->la, reduced(c, p, sz, recv(c, sz, t.ch[i], k, NONE)));
		got = join(c, &c->la);
		if (t.parent == UINT64_MAX) {
			last = got;
			continue;
		}
		uint32_t s = send(c, sz, t.parent, k, got);
		req(c, s, last);
		last = s;
	}
	return last;
}

/* Open MPI's broadcasts and reduces on its trees (coll_tuned bcast
 * algorithms 2, 3, 5, 7 and reduce algorithms 2, 3, 4, 5). */
static void g_bcast_chain_ompi(ctx *c, const sg_params *p, uint64_t root)
{
	bcast_tree(c, p, root, TREE_CHAIN, p->fanout);
}
static void g_bcast_pipeline(ctx *c, const sg_params *p, uint64_t root)
{
	bcast_tree(c, p, root, TREE_CHAIN, 1);
}
static void g_bcast_binary_ompi(ctx *c, const sg_params *p, uint64_t root)
{
	bcast_tree(c, p, root, TREE_BINARY, 2);
}
static void g_bcast_knomial(ctx *c, const sg_params *p, uint64_t root)
{
	bcast_tree(c, p, root, TREE_KNOMIAL, p->radix);
}
static void g_reduce_chain(ctx *c, const sg_params *p, uint64_t root)
{
	reduce_tree(c, p, root, TREE_CHAIN, p->fanout);
}
static void g_reduce_pipeline(ctx *c, const sg_params *p, uint64_t root)
{
	reduce_tree(c, p, root, TREE_CHAIN, 1);
}
static void g_reduce_binary(ctx *c, const sg_params *p, uint64_t root)
{
	reduce_tree(c, p, root, TREE_BINARY, 2);
}
static void g_reduce_binomial_ompi(ctx *c, const sg_params *p, uint64_t root)
{
	reduce_tree(c, p, root, TREE_BINOMIAL_IO, 0);
}

/* Open MPI's in-order binary reduce (reduce algorithm 6): up the in-order
 * binary tree rooted at rank P-1, which then sends the s bytes to the root
 * (tag: after the segments') when that is another rank. */
static void g_reduce_in_order_binary(ctx *c, const sg_params *p, uint64_t root)
{
	uint64_t n = nseg(p->size, p->segment), io = c->P - 1;
	uint32_t last = reduce_tree(c, p, root, TREE_BINARY_IO, 0);
	if (root == io)
		return;
	if (c->r == io)
		send(c, p->size, root, n, last);
	else if (c->r == root)
		recv(c, p->size, io, n, last);
}
static uint64_t t_segments_and_one(const sg_params *p)
{
	return nseg(p->size, p->segment) + 1;
}

/* Open MPI's linear broadcast (bcast algorithm 1): the root sends to every
 * other rank, in rank order, all at once. */
static void g_bcast_linear(ctx *c, const sg_params *p, uint64_t root)
{
	if (c->r != root) {
		recv(c, p->size, root, 0, NONE);
		return;
	}
	for (uint64_t j = 0; j < c->P; j++)
		if (j != root)
			send(c, p->size, j, 0, NONE);
}

/* Open MPI's linear reduce (reduce algorithm 1): every other rank sends to
 * the root, which receives from rank P-1, then P-2, .. 0, one at a time,
 * reducing each block after the first (its own among them) before the
 * next receive. */
static void g_reduce_linear(ctx *c, const sg_params *p, uint64_t root)
{
	uint32_t prev = NONE;
	if (c->r != root) {
		send(c, p->size, root, 0, NONE);
		return;
	}
	for (uint64_t j = c->P; j-- > 0;) {
		if (j != root)
			prev = recv(c, p->size, j, 0, prev);
		if (j + 1 < c->P)
			prev = reduced(c, p, p->size, prev);
	}
}

/* Open MPI's split-binary broadcast (bcast algorithm 4,
 * ompi_coll_base_bcast_intra_split_bintree): the first ceil(s/2) bytes go
 * down the left subtree of its binary tree (odd vranks), the rest down the
 * right (even vranks), in segments (tag k for segment k); the root sends
 * segment k to its left child, then to its right.  Then each rank swaps
 * halves with its pair, vrank v+1 for odd v (an MPI_Sendrecv, tag n0, the
 * segments of the first half); with an even P the root sends the second
 * half to vrank P-1, which has no pair.  With fewer than 2 bytes, or a
 * segment larger than a half, Open MPI runs its pipeline instead. */
static void g_bcast_split_binary(ctx *c, const sg_params *p, uint64_t root)
{
	uint64_t P = c->P, v = vrank(c, root), s = p->size, seg = p->segment;
	uint64_t half[2] = { s - s / 2, s / 2 }, lr = (v + 1) % 2, n[2];
	uint32_t prev = NONE;
	tree t;
	if (P < 2)
		return;
	if (half[1] == 0 || seg > half[1]) {
		g_bcast_pipeline(c, p, root);
		return;
	}
	n[0] = nseg(half[0], seg);
	n[1] = nseg(half[1], seg);
	rank_tree(c, &t, TREE_BINARY, root, 2);
	for (uint64_t k = 0; k < n[0]; k++) {
		if (v == 0) {
			for (uint32_t i = 0; i < t.n && i < 2; i++)
				if (k < n[i])
					prev = send(c, seg_size(half[i], seg, k), t.ch[i], k, prev);
			continue;
		}
		if (k >= n[lr])
			break;
		uint32_t rv = recv(c, seg_size(half[lr], seg, k), t.parent, k, t.n ? NONE : prev);
		for (uint32_t i = 0; i < t.n; i++) {
			uint32_t sd = send(c, seg_size(half[lr], seg, k), t.ch[i], k, rv);
			req(c, sd, prev);
			prev = sd;
		}
		if (!t.n)
			prev = rv;
	}
	if (P % 2 == 0 && (v == 0 || v == P - 1)) {
		if (v == 0)
			send(c, half[1], real(c, P - 1, root), n[0], prev);
		else
			recv(c, half[1], root, n[0], prev);
	} else if (v != 0) {
		uint64_t pair = real(c, lr == 0 ? v + 1 : v - 1, root);
		sendrecv(c, half[lr], pair, half[1 - lr], pair, n[0], prev);
	}
}
static uint64_t t_split_binary(const sg_params *p)
{
	uint64_t s = p->size;
	if (s / 2 == 0 || p->segment > s / 2)
		return t_segments(p);
	return nseg(s - s / 2, p->segment) + 1;
}

/* Open MPI's Rabenseifner reduce (reduce algorithm 7,
 * ompi_coll_base_reduce_intra_redscat_gather), for s bytes on P ranks,
 * P' = 2^floor(log2 P), q = P - P':
 * 1. Ranks below 2q pair up: an odd rank sends the first s/2 bytes to r-1
 *    and receives the rest from it (one MPI_Sendrecv, tag 0), then sends
 *    its half of the rest back (tag 1) and leaves; an even rank does the
 *    mirror and goes on as vrank r/2.  The others are r - q.
 * 2. Reduce-scatter by recursive halving, as allreduce_rabenseifner's
 *    (tags 2 ..): step k with vrank v xor 2^k; the lower rank of the pair
 *    keeps the lower half of its window (w/2 bytes).
 * 3. A binomial gather of the blocks to the root, from the largest
 *    distance down: at distance 2^k a rank whose partner's group of 2^k
 *    holds the root's vrank sends what it has gathered and stops; the
 *    others receive the partner's (tags 3 + log2 P' + k).  A root that
 *    left in step 1 (odd, below 2q) takes vrank 0's place: rank 0 first
 *    sends it its block (tag 2 + log2 P').
 * Every transfer waits for the one before.  With fewer bytes than P'
 * Open MPI runs its linear reduce. */
static void g_reduce_rabenseifner(ctx *c, const sg_params *p, uint64_t root)
{
	unsigned n = floor_log2(c->P);
	uint64_t P = c->P, r = c->r, s = p->size, pof2 = UINT64_C(1) << n, q = P - pof2;
	uint64_t w = s, keep[64], give[64], vroot, v = UINT64_MAX;
	int odd_root = root < 2 * q && root % 2;
	uint32_t prev = NONE;
	if (pof2 < 2 || s < pof2) {
		g_reduce_linear(c, p, root);
		return;
	}
	if (r < 2 * q) {
		uint64_t lo = s / 2, hi = s - lo;
		if (r % 2) {
			prev = reduced(c, p, hi, sendrecv(c, lo, r - 1, hi, r - 1, 0, prev));
			prev = send(c, hi, r - 1, 1, prev);
		} else {
			prev = reduced(c, p, lo, sendrecv(c, hi, r + 1, lo, r + 1, 0, prev));
			prev = recv(c, hi, r + 1, 1, prev);
			v = r / 2;
		}
	} else {
		v = r - q;
	}
	for (unsigned k = 0; k < n; k++) {   /* the halving; the root's windows alike */
		uint64_t vd = v ^ (UINT64_C(1) << k), dest = vd < q ? vd * 2 : vd + q;
		keep[k] = v == UINT64_MAX || r < dest ? w / 2 : w - w / 2;
		give[k] = w - keep[k];
		if (v != UINT64_MAX)
			prev = reduced(c, p, keep[k], sendrecv(c, give[k], dest, keep[k], dest, 2 + k, prev));
		w = keep[k];
	}
	vroot = odd_root ? 0 : root < 2 * q ? root / 2 : root - q;
	if (odd_root && r == root) {
		prev = recv(c, keep[n - 1], 0, 2 + n, prev);
		v = 0;
	} else if (odd_root && v == 0) {
		send(c, keep[n - 1], root, 2 + n, prev);
		return;
	}
	if (v == UINT64_MAX)
		return;
	for (unsigned k = n; k-- > 0;) {
		uint64_t vd = v ^ (UINT64_C(1) << k), dest = vd < q ? vd * 2 : vd + q;
		if (vd == 0 && odd_root)
			dest = root;
		if (vd >> k == vroot >> k) {
			send(c, keep[k], dest, 3 + n + k, prev);
			return;
		}
		prev = recv(c, give[k], dest, 3 + n + k, prev);
	}
}
static uint64_t t_reduce_rabenseifner(const sg_params *p)
{
	return 3 + 2 * (uint64_t)floor_log2(p->nranks ? p->nranks : 1);
}

/* Pattern a, then pattern b once a's ops on this rank have completed,
 * with b's tags after a's (ta of them). */
static void then(ctx *c, gen_fn *a, const sg_params *pa, uint64_t ta, gen_fn *b,
                 const sg_params *pb, uint64_t root)
{
	a(c, pa, root);
	end_phase(c);
	c->tagbase += ta;
	b(c, pb, root);
	c->tagbase -= ta;
}

/* Open MPI's linear allreduce (allreduce algorithm 1): its linear reduce
 * to rank 0, then its linear broadcast from rank 0. */
static void g_allreduce_linear(ctx *c, const sg_params *p, uint64_t root)
{
	(void)root;
	then(c, g_reduce_linear, p, 1, g_bcast_linear, p, 0);
}

/* Open MPI's recursive-doubling allreduce (allreduce algorithm 3,
 * ompi_coll_base_allreduce_intra_recursivedoubling): with P' =
 * 2^floor(log2 P) and q = P - P', the even ranks below 2q send their s
 * bytes to r+1 (tag 0) and wait for the result from it (tag m+1, m =
 * log2 P'); the odd ones take them and go on as vrank r/2, the others as
 * r - q.  Round k exchanges s bytes with vrank v xor 2^k (an MPI_Sendrecv,
 * tag k+1), vrank w being rank 2w+1 for w < q, else w + q. */
static void g_allreduce_recdoub_ompi(ctx *c, const sg_params *p, uint64_t root)
{
	uint64_t P = c->P, r = c->r, s = p->size;
	unsigned m = floor_log2(P), k = 0;
	uint64_t pof2 = UINT64_C(1) << m, q = P - pof2, v;
	uint32_t prev = NONE;
	(void)root;
	if (P < 2)
		return;
	if (r < 2 * q && r % 2 == 0) {
		prev = send(c, s, r + 1, 0, NONE);
		recv(c, s, r + 1, m + 1, prev);
		return;
	}
	if (r < 2 * q) {
		prev = reduced(c, p, s, recv(c, s, r - 1, 0, NONE));
		v = r / 2;
	} else {
		v = r - q;
	}
	for (uint64_t d = 1; d < pof2; d <<= 1, k++) {
		uint64_t w = v ^ d, peer = w < q ? 2 * w + 1 : w + q;
		prev = reduced(c, p, s, sendrecv(c, s, peer, s, peer, k + 1, prev));
	}
	if (r < 2 * q)
		send(c, s, r - 1, m + 1, prev);
}

/* The phases of Open MPI's segmented ring allreduce for s bytes on P ranks
 * in segments of seg (0: none): 0 when it runs the plain ring. */
static uint64_t ring_phases(uint64_t s, uint64_t P, uint64_t seg)
{
	uint64_t sc = seg && seg < s ? seg : s, n;
	if (sc == 0 || s < sat_mul(P, sc))
		return 0;
	n = s / (P * sc);
	if (s % (P * sc) >= P && s % (P * sc) > P * sc / 2)
		n++;
	return n;
}

/* The bytes of part i of n of x bytes, the first x mod n parts one
 * larger (COLL_BASE_COMPUTE_BLOCKCOUNT). */
static uint64_t part(uint64_t x, uint64_t n, uint64_t i)
{
	return x / n + (i < x % n);
}

/* Open MPI's ring allreduce, segmented (allreduce algorithm 5,
 * ompi_coll_base_allreduce_intra_ring_segmented; with no segment, or
 * fewer than P segments' bytes, its plain ring, algorithm 4): the s bytes
 * in P blocks (part), each block in n phases (part again).  Phase ph: rank
 * r sends its block's part ph to r+1, then P-2 times receives the part of
 * block r-j from r-1 and sends it on (blocking sends, in order), and
 * receives the last, block r+1's (tags ph(P-1) + j).  Then P-1 MPI_Sendrecv
 * steps pass whole blocks around the ring: step k sends block r+1-k, and
 * receives block r-k.  Below P bytes Open MPI runs its recursive doubling
 * (allreduce_recdoub_ompi). */
static void g_allreduce_ring_segmented(ctx *c, const sg_params *p, uint64_t root)
{
	uint64_t P = c->P, r = c->r, s = p->size, n = ring_phases(s, P, p->segment);
	uint32_t prev = NONE;
	if (P < 2)
		return;
	if (s < P) {
		g_allreduce_recdoub_ompi(c, p, root);
		return;
	}
	if (n == 0)
		n = 1;
	for (uint64_t ph = 0; ph < n; ph++) {
		uint64_t t = ph * (P - 1);
		prev = send(c, part(part(s, P, r), n, ph), (r + 1) % P, t, prev);
		for (uint64_t j = 1; j < P; j++) {
			uint64_t b = (r + P - j) % P;
			uint64_t sz = part(part(s, P, b), n, ph);
			uint32_t rv = reduced(c, p, sz, recv(c, sz, (r + P - 1) % P, t + j - 1, NONE));
			if (j + 1 < P) {
				uint32_t sd = send(c, sz, (r + 1) % P, t + j, rv);
				req(c, sd, prev);
				prev = sd;
			} else {
				c->la.n = 0;
				push(c, &c->la, prev);
				push(c, &c->la, rv);
				prev = join(c, &c->la);
			}
		}
	}
	for (uint64_t k = 0; k + 1 < P; k++)
		prev = sendrecv(c, part(s, P, (r + 1 + P - k) % P), (r + 1) % P, part(s, P, (r + P - k) % P),
		                (r + P - 1) % P, n * (P - 1) + k, prev);
}
static uint64_t t_ring_segmented(const sg_params *p)
{
	uint64_t P = p->nranks, n = ring_phases(p->size, P, p->segment);
	if (P < 2)
		return 1;
	if (p->size < P)
		return t_recdoub(p);
	return sat_mul(n ? n + 1 : 2, P - 1);
}

/* Open MPI's linear scatter and gather (ompi_coll_base_scatter_intra_basic_linear,
 * scatter algorithm 1; ompi_coll_base_scatter_intra_linear_nb, algorithm 3;
 * ompi_coll_base_gather_intra_basic_linear, gather algorithm 1): the root
 * sends each other rank its block (gather: receives it) in rank order
 * 0 .. P-1, not from the root on; blocking calls chain, each after the one
 * before, the nonblocking scatter's sends are all posted at once. */
static void linear_ompi(ctx *c, const sg_params *p, uint64_t root, goal_kind kind, int blocking)
{
	uint32_t prev = NONE;
	if (c->r != root) {
		add(c, kind == GOAL_SEND ? GOAL_RECV : GOAL_SEND, p->size, root, 0, 0, NONE);
		return;
	}
	for (uint64_t j = 0; j < c->P; j++)
		if (j != root)
			prev = add(c, kind, p->size, j, 0, 0, blocking ? prev : NONE);
}
static void g_scatter_linear_ompi(ctx *c, const sg_params *p, uint64_t root)
{
	linear_ompi(c, p, root, GOAL_SEND, 1);
}
static void g_scatter_linear_nb(ctx *c, const sg_params *p, uint64_t root)
{
	linear_ompi(c, p, root, GOAL_SEND, 0);
}
static void g_gather_linear_ompi(ctx *c, const sg_params *p, uint64_t root)
{
	linear_ompi(c, p, root, GOAL_RECV, 1);
}

/* Open MPI's tree barrier (barrier algorithm 6,
 * ompi_coll_base_barrier_intra_tree): rank r receives from r + 2^k for
 * each 2^k below its lowest set bit (all, for rank 0) in increasing order
 * (tag 0), then sends to r - lowbit(r); then it receives from that rank
 * and sends to the same ranks as before in decreasing order (tag 1).  One
 * blocking call after the other. */
static void g_barrier_tree_ompi(ctx *c, const sg_params *p, uint64_t root)
{
	uint64_t P = c->P, r = c->r, low = r ? r & (~r + 1) : UINT64_C(1) << ceil_log2(P);
	uint32_t prev = NONE;
	(void)root;
	for (uint64_t m = 1; m < low; m <<= 1)
		if (r + m < P)
			prev = recv(c, p->size, r + m, 0, prev);
	if (r) {
		prev = send(c, p->size, r - low, 0, prev);
		prev = recv(c, p->size, r - low, 1, prev);
	}
	for (uint64_t m = low >> 1; m > 0; m >>= 1)
		if (r + m < P)
			prev = send(c, p->size, r + m, 1, prev);
}

/* Open MPI's double-ring barrier (barrier algorithm 2,
 * ompi_coll_base_barrier_intra_doublering): twice (tag t = 0, 1), a message
 * goes around the ring from rank 0: a rank receives it from r-1 and sends
 * it to r+1; rank 0 sends first and receives last. */
static void g_barrier_double_ring(ctx *c, const sg_params *p, uint64_t root)
{
	uint64_t P = c->P, r = c->r;
	uint32_t prev = NONE;
	(void)root;
	if (P < 2)
		return;
	for (uint64_t t = 0; t < 2; t++) {
		if (r)
			prev = recv(c, p->size, r - 1, t, prev);
		prev = send(c, p->size, (r + 1) % P, t, prev);
		if (!r)
			prev = recv(c, p->size, P - 1, t, prev);
	}
}

/* The blocks below vrank v's subtree in the in-order binomial tree: child
 * w (> v) heads min(w - v, P - w) of them. */
static uint64_t subtree(uint64_t v, uint64_t w, uint64_t P)
{
	return w - v < P - w ? w - v : P - w;
}

/* Open MPI's binomial gather (gather algorithm 2,
 * ompi_coll_base_gather_intra_binomial): up the in-order binomial tree, a
 * rank receives each child's subtree of s-byte blocks, children in order,
 * then sends its own block and all it received to its parent (tag 0). */
static void g_gather_binomial(ctx *c, const sg_params *p, uint64_t root)
{
	uint64_t v = vrank(c, root), total = 1;
	uint32_t prev = NONE;
	tree t;
	rank_tree(c, &t, TREE_BINOMIAL_IO, root, 0);
	for (uint32_t i = 0; i < t.n; i++) {
		uint64_t n = subtree(v, vrank_of(c, t.ch[i], root), c->P);
		prev = recv(c, sat_mul(n, p->size), t.ch[i], 0, prev);
		total += n;
	}
	if (t.parent != UINT64_MAX)
		send(c, sat_mul(total, p->size), t.parent, 0, prev);
}

/* Open MPI's binomial scatter (scatter algorithm 2,
 * ompi_coll_base_scatter_intra_binomial): down the in-order binomial tree,
 * a rank receives its subtree's blocks from its parent, then sends each
 * child its subtree's, the last child first (tag 0). */
static void g_scatter_binomial(ctx *c, const sg_params *p, uint64_t root)
{
	uint64_t v = vrank(c, root), total = 1;
	uint32_t prev = NONE;
	tree t;
	rank_tree(c, &t, TREE_BINOMIAL_IO, root, 0);
	for (uint32_t i = 0; i < t.n; i++)
		total += subtree(v, vrank_of(c, t.ch[i], root), c->P);
	if (t.parent != UINT64_MAX)
		prev = recv(c, sat_mul(total, p->size), t.parent, 0, NONE);
	for (uint32_t i = t.n; i-- > 0;)
		prev = send(c, sat_mul(subtree(v, vrank_of(c, t.ch[i], root), c->P), p->size), t.ch[i],
		            0, prev);
}

/* Open MPI's synchronized linear gather (gather algorithm 3,
 * ompi_coll_base_gather_intra_linear_sync): the root, rank by rank, posts
 * the receive of the first segment (--segment bytes of the block, all of
 * it unsegmented) and of the rest, sends the rank a 0-byte message (tag
 * 0), and waits for the first segment (tag 1) before the next rank; the
 * rank waits for that message, then sends the two parts (tags 1 and 2). */
static void g_gather_linear_sync(ctx *c, const sg_params *p, uint64_t root)
{
	uint64_t s = p->size, first = p->segment && p->segment < s ? p->segment : s;
	uint32_t prev = NONE;
	if (c->r != root) {
		prev = recv(c, 0, root, 0, NONE);
		prev = send(c, first, root, 1, prev);
		send(c, s - first, root, 2, prev);
		return;
	}
	for (uint64_t j = 0; j < c->P; j++) {
		uint32_t go;
		if (j == root)
			continue;
		go = send(c, 0, j, 0, prev);
		prev = recv(c, first, j, 1, prev);
		req(c, prev, go);
		recv(c, s - first, j, 2, go);
	}
}

/* Open MPI's Bruck alltoall (alltoall algorithm 3,
 * ompi_coll_base_alltoall_intra_bruck): step k (distance d = 2^k < P) is
 * one MPI_Sendrecv to r+d and from r-d of the blocks i = 1 .. P-1 whose
 * bit k is set, s bytes each (tag k). */
static void g_alltoall_bruck(ctx *c, const sg_params *p, uint64_t root)
{
	uint64_t P = c->P, r = c->r;
	uint32_t prev = NONE;
	unsigned k = 0;
	(void)root;
	for (uint64_t d = 1; d < P; d <<= 1, k++) {
		uint64_t n = P / (2 * d) * d + (P % (2 * d) > d ? P % (2 * d) - d : 0);   /* i < P, bit d */
		prev = sendrecv(c, sat_mul(n, p->size), (r + d) % P, sat_mul(n, p->size),
		                (r + P - d) % P, k, prev);
	}
}

/* Nothing: what an MPI library sends for a collective call of 0 bytes
 * (sg_select: both return before running an algorithm). */
static void g_none(ctx *c, const sg_params *p, uint64_t root)
{
	(void)c;
	(void)p;
	(void)root;
}

/* ---- MPICH's algorithms ---------------------------------------------------
 * MPICH 4.0's (src/mpi/coll/COLL/COLL_intra_ALG.c), where they differ
 * from Open MPI's; its blocking sends and receives (MPIC_Send, MPIC_Recv)
 * each wait for the one before, an MPIC_Sendrecv for both of the step
 * before. */

/* MPICH's binomial broadcast (MPIR_Bcast_intra_binomial): vrank v > 0
 * receives the s bytes from v - lowbit(v), then sends them to v + m for m
 * = lowbit(v)/2 (the root: the largest power of two below P) down to 1,
 * while v + m < P (tag 0): the in-order binomial tree, largest subtree
 * first. */
static void g_bcast_binomial_mpich(ctx *c, const sg_params *p, uint64_t root)
{
	uint64_t P = c->P, v = vrank(c, root), m;
	uint32_t prev = NONE;
	if (P < 2)
		return;
	if (v) {
		m = v & (~v + 1);
		prev = recv(c, p->size, real(c, v - m, root), 0, NONE);
	} else {
		m = UINT64_C(1) << ceil_log2(P);
	}
	for (m >>= 1; m > 0; m >>= 1)
		if (v + m < P)
			prev = send(c, p->size, real(c, v + m, root), 0, prev);
}

/* The bytes of blocks a .. b-1 of MPICH's Rabenseifner allreduce: s bytes
 * in n blocks, block i of s/n bytes and one more for i < s mod n. */
static uint64_t cnts(uint64_t s, uint64_t n, uint64_t a, uint64_t b)
{
	uint64_t x = s % n;
	return (b - a) * (s / n) + (x > a ? (x < b ? x : b) - a : 0);
}

/* MPICH's Rabenseifner allreduce (MPIR_Allreduce_intra_reduce_scatter_
 * allgather), P' = 2^floor(log2 P), q = P - P':
 * 1. An even rank below 2q sends its s bytes to r+1 (tag 0) and waits for
 *    the result (tag 2 log2 P' + 1); the odd one reduces them and goes on
 *    as vrank r/2, a rank from 2q on as r - q; vrank w is rank 2w+1 for
 *    w < q, else w + q.
 * 2. Reduce-scatter by recursive halving of the s bytes in P' blocks
 *    (cnts): step n (tag 1 + n) exchanges with vrank v xor 2^n the halves
 *    of v's window of blocks (all P' at first), the lower vrank sending
 *    the upper half and keeping the lower; the window becomes the half
 *    kept; what came is reduced.
 * 3. Allgather by recursive doubling: the same pairs in reverse order
 *    (tag 1 + log2 P' + ...), each sending what it kept and receiving what
 *    it gave.
 * 4. The odd ranks below 2q send the s bytes to r-1.
 * Unlike Open MPI's (g_allreduce_rabenseifner), the odd rank of a pair
 * stays and the blocks are whole elements (bytes).  Below P' bytes MPICH
 * refuses it and runs its own choice, recursive doubling
 * (g_allreduce_recdoub_ompi), as its rules pick it only for s >= P'. */
static void g_allreduce_rabenseifner_mpich(ctx *c, const sg_params *p, uint64_t root)
{
	unsigned k = floor_log2(c->P), n;
	uint64_t P = c->P, r = c->r, s = p->size, pof2 = UINT64_C(1) << k, q = P - pof2;
	uint64_t v, lo = 0, len = pof2, t = 1, last = 1 + 2 * (uint64_t)k;
	uint64_t keep[64], give[64], dest[64];
	uint32_t prev = NONE;
	if (P < 2)
		return;
	if (s < pof2) {
		g_allreduce_recdoub_ompi(c, p, root);
		return;
	}
	if (r < 2 * q && r % 2 == 0) {
		prev = send(c, s, r + 1, 0, NONE);
		recv(c, s, r + 1, last, prev);
		return;
	}
	if (r < 2 * q) {
		prev = reduced(c, p, s, recv(c, s, r - 1, 0, NONE));
		v = r / 2;
	} else {
		v = r - q;
	}
	for (n = 0; n < k; n++) {
		uint64_t vd = v ^ (UINT64_C(1) << n), half = len / 2;
		uint64_t a = lo + half;   /* the upper half */
		dest[n] = vd < q ? 2 * vd + 1 : vd + q;
		if (v < vd) {
			keep[n] = cnts(s, pof2, lo, a);
			give[n] = cnts(s, pof2, a, lo + len);
		} else {
			keep[n] = cnts(s, pof2, a, lo + len);
			give[n] = cnts(s, pof2, lo, a);
			lo = a;
		}
		len = half;
		prev = reduced(c, p, keep[n], sendrecv(c, give[n], dest[n], keep[n], dest[n], t++, prev));
	}
	while (n-- > 0)
		prev = sendrecv(c, keep[n], dest[n], give[n], dest[n], t++, prev);
	if (r < 2 * q)
		send(c, s, r - 1, last, prev);
}
static uint64_t t_rabenseifner_mpich(const sg_params *p)
{
	return 2 * (uint64_t)floor_log2(p->nranks ? p->nranks : 1) + 2;
}

/* MPICH's pairwise reduce-scatter (MPIR_Reduce_scatter_intra_pairwise,
 * MPIR_Reduce_scatter_block_intra_pairwise): in step i = 1..P-1 rank r
 * sends its contribution to the block of r+i and receives the one of r-i
 * to its own block, s bytes each, one MPIC_Sendrecv a step (tag i-1),
 * then reduces what came. */
static void g_reduce_scatter_pairwise(ctx *c, const sg_params *p, uint64_t root)
{
	uint64_t P = c->P, r = c->r;
	uint32_t prev = NONE;
	(void)root;
	for (uint64_t i = 1; i < P; i++)
		prev = reduced(c, p, p->size,
		               sendrecv(c, p->size, (r + i) % P, p->size, (r + P - i) % P, i - 1, prev));
}

/* MPICH's scattered alltoall (MPIR_Alltoall_intra_scattered): the peers
 * i = 0..P-1 in batches of 32 (MPIR_CVAR_ALLTOALL_THROTTLE's default);
 * for a batch, receives from r+i, then sends to r-i, all posted at once,
 * and the next batch once all of them ended (tag 0).  Its own block (i =
 * 0, which MPICH sends to itself) is a local copy here. */
#define MPICH_ALLTOALL_THROTTLE 32
static void g_alltoall_scattered(ctx *c, const sg_params *p, uint64_t root)
{
	uint64_t P = c->P, r = c->r;
	uint32_t prev = NONE;
	(void)root;
	for (uint64_t ii = 0; ii < P; ii += MPICH_ALLTOALL_THROTTLE) {
		uint64_t ss = P - ii < MPICH_ALLTOALL_THROTTLE ? P - ii : MPICH_ALLTOALL_THROTTLE;
		c->lb.n = 0;
		for (uint64_t i = ii ? 0 : 1; i < ss; i++)
			push(c, &c->lb, recv(c, p->size, (r + i + ii) % P, 0, prev));
		for (uint64_t i = ii ? 0 : 1; i < ss; i++)
			push(c, &c->lb, send(c, p->size, (r + P - (i + ii) % P) % P, 0, prev));
		prev = join(c, &c->lb);
	}
}

/* MPICH's pairwise alltoall (MPIR_Alltoall_intra_pairwise): step i =
 * 1..P-1 is one MPIC_Sendrecv (tag i-1) with r xor i when P is a power of
 * two, else to r+i and from r-i (as Open MPI's). */
static void g_alltoall_pairwise_mpich(ctx *c, const sg_params *p, uint64_t root)
{
	uint64_t P = c->P, r = c->r;
	uint32_t prev = NONE;
	if (P & (P - 1)) {
		g_alltoall_pairwise(c, p, root);
		return;
	}
	for (uint64_t i = 1; i < P; i++)
		prev = sendrecv(c, p->size, r ^ i, p->size, r ^ i, i - 1, prev);
}

/* The generator and tags of pattern i (the table is below). */
static void pattern_fns(size_t i, gen_fn **g, tags_fn **t);

/* The pattern Open MPI picks for class cls on P ranks and size bytes, with
 * p's parameters for it (root 0, unsegmented, its chains) in *q, its
 * generator in *g; its tags returned (0: none found, c->oom set).  With
 * one_element the call names one element of all the bytes, and a broadcast
 * runs what Open MPI runs for that (sg_select_one_element). */
static uint64_t ompi_pick_as(ctx *c, const char *cls, const sg_params *p, uint64_t size,
                             int one_element, sg_params *q, gen_fn **g)
{
	sg_choice ch;
	char err[160];
	tags_fn *t;
	int i;
	if (sg_select("openmpi", cls, p->nranks, size, 0,
	              p->noncommutative ? SG_SELECT_NONCOMMUTATIVE : 0, &ch, err, sizeof err) ||
	    (i = sg_pattern_find(one_element ? sg_select_one_element(&ch) : ch.pattern)) < 0) {
		c->oom = 1;
		return 0;
	}
	pattern_fns((size_t)i, g, &t);
	*q = *p;
	q->size = size;
	q->root = 0;
	q->segment = 0;
	if (ch.fanout)
		q->fanout = ch.fanout;
	return t(q);
}
static uint64_t ompi_pick(ctx *c, const char *cls, const sg_params *p, uint64_t size, sg_params *q,
                          gen_fn **g)
{
	return ompi_pick_as(c, cls, p, size, 0, q, g);
}

/* Open MPI's nonoverlapping allreduce (allreduce algorithm 2,
 * ompi_coll_base_allreduce_intra_nonoverlapping): a reduce to rank 0, then
 * a broadcast from it, each the algorithm Open MPI picks for P ranks and s
 * bytes (sg_select). */
static void g_allreduce_nonoverlapping(ctx *c, const sg_params *p, uint64_t root)
{
	sg_params pr, pb;
	gen_fn *gr, *gb;
	uint64_t tr = ompi_pick(c, "reduce", p, p->size, &pr, &gr);
	(void)root;
	if (tr && ompi_pick(c, "bcast", p, p->size, &pb, &gb))
		then(c, gr, &pr, tr, gb, &pb, 0);
}
static uint64_t t_nonoverlapping(const sg_params *p)
{
	ctx c;
	sg_params q;
	gen_fn *g;
	memset(&c, 0, sizeof c);
	return ompi_pick(&c, "reduce", p, p->size, &q, &g) + ompi_pick(&c, "bcast", p, p->size, &q, &g);
}

/* Open MPI's linear allgather (allgather algorithm 1,
 * ompi_coll_base_allgather_intra_basic_linear): the gather of the s-byte
 * blocks to rank 0, then the broadcast of all P blocks from it, each the
 * algorithm Open MPI picks (sg_select). */
static void g_allgather_linear(ctx *c, const sg_params *p, uint64_t root)
{
	sg_params pg, pb;
	gen_fn *gg, *gb;
	uint64_t tg = ompi_pick(c, "gather", p, p->size, &pg, &gg);
	(void)root;
	if (tg && ompi_pick(c, "bcast", p, sat_mul(p->size, p->nranks), &pb, &gb))
		then(c, gg, &pg, tg, gb, &pb, 0);
}
static uint64_t t_allgather_linear(const sg_params *p)
{
	ctx c;
	sg_params q;
	gen_fn *g;
	memset(&c, 0, sizeof c);
	return ompi_pick(&c, "gather", p, p->size, &q, &g) +
	       ompi_pick(&c, "bcast", p, sat_mul(p->size, p->nranks), &q, &g);
}

/* ---- Open MPI's reduce-scatters ------------------------------------------
 * -d is one block: the bytes (MPI_BYTE) every rank receives, the same for
 * all (MPI_Reduce_scatter_block's rcount, or equal rcounts of
 * MPI_Reduce_scatter); each rank contributes P blocks.  With 0 bytes
 * nothing is sent: both MPI calls return before any algorithm runs. */

/* Open MPI's linear reduce-scatter-block (reduce_scatter_block algorithm
 * 1, ompi_coll_base_reduce_scatter_block_basic_linear): a reduce of all
 * P*s bytes to rank 0, then a scatter of the s-byte blocks from it, each
 * the algorithm Open MPI picks (sg_select: reduce for P*s bytes, scatter
 * for s). */
static void g_reduce_scatter_block_linear(ctx *c, const sg_params *p, uint64_t root)
{
	sg_params pr, ps;
	gen_fn *gr, *gs;
	uint64_t tr;
	(void)root;
	if (p->size == 0)
		return;
	tr = ompi_pick(c, "reduce", p, sat_mul(p->size, p->nranks), &pr, &gr);
	if (tr && ompi_pick(c, "scatter", p, p->size, &ps, &gs))
		then(c, gr, &pr, tr, gs, &ps, 0);
}
static uint64_t t_reduce_scatter_block_linear(const sg_params *p)
{
	ctx c;
	sg_params q;
	gen_fn *g;
	memset(&c, 0, sizeof c);
	return ompi_pick(&c, "reduce", p, sat_mul(p->size, p->nranks), &q, &g) +
	       ompi_pick(&c, "scatter", p, p->size, &q, &g);
}

/* Open MPI's recursive-doubling reduce-scatter-block (algorithm 2,
 * ompi_coll_base_reduce_scatter_block_intra_recursivedoubling).  Step k
 * (distance m = 2^k < P): rank r's group is the m ranks from R = r rounded
 * down to a multiple of m, its partner w = r xor m's group starts at Rw.
 * A group from G holds partial results for the blocks outside it: G
 * blocks below it and P - G - m above it (when its m ranks fit below P).
 * When w is a rank, r sends w its group's blocks and receives w's group's
 * (one MPI_Sendrecv, tag 2k).  When w's group reaches past P, the ranks
 * of r's group whose partner is missing get what the others received by
 * recursive halving inside the group (distance m/2 .. 1, blocking send or
 * receive, tag 2k+1): a rank that has it sends to r xor d above it when
 * that one has not.  A rank that received reduces those bytes before the
 * next step. */
static void g_reduce_scatter_block_recdoub(ctx *c, const sg_params *p, uint64_t root)
{
	uint64_t P = c->P, r = c->r, s = p->size;
	uint32_t prev = NONE;
	uint64_t k = 0;
	(void)root;
	if (P < 2 || s == 0)
		return;
	for (uint64_t m = 1; m < P; m <<= 1, k++) {
		uint64_t w = r ^ m, R = r / m * m, Rw = w / m * m;
		uint64_t give = sat_mul(R + (P >= R + m ? P - R - m : 0), s);
		uint64_t got = sat_mul(Rw + (P >= Rw + m ? P - Rw - m : 0), s);
		int have = 0;
		if (w < P) {
			prev = sendrecv(c, give, w, got, w, 2 * k, prev);
			have = 1;
		}
		if (Rw + m > P) {
			int64_t nad = (int64_t)P - (int64_t)(R + m);   /* ranks of w's group */
			for (uint64_t d = m >> 1; d > 0; d >>= 1) {
				uint64_t x = r ^ d;
				int64_t edge = (int64_t)(r / (2 * d) * (2 * d)) + nad;
				if (x > r && (int64_t)r < edge && (int64_t)x >= edge) {
					prev = send(c, got, x, 2 * k + 1, prev);
				} else if (x < r && (int64_t)x < edge && (int64_t)r >= edge) {
					prev = recv(c, got, x, 2 * k + 1, prev);
					have = 1;
				}
			}
		}
		if (have)
			prev = reduced(c, p, got, prev);
	}
}
static uint64_t t_reduce_scatter_block_recdoub(const sg_params *p)
{
	return p->nranks > 1 ? 2 * (uint64_t)ceil_log2(p->nranks) : 1;
}

/* Open MPI's recursive-halving and butterfly reduce-scatters first fold P
 * ranks to P' = 2^floor(log2 P), rem = P - P' of them leaving: vrank w <
 * rem stands for ranks 2w and 2w+1 (two blocks), the others for rank w +
 * rem (one).  The blocks vranks a..b stand for (ompi_range_sum,
 * ompi_sum_counts with equal counts): */
static uint64_t fold_blocks(uint64_t a, uint64_t b, uint64_t rem)
{
	return b - a + 1 + (rem > a ? (rem < b + 1 ? rem : b + 1) - a : 0);
}
/* The rank of vrank w. */
static uint64_t fold_rank(uint64_t w, uint64_t rem)
{
	return w < rem ? 2 * w + 1 : w + rem;
}
/* The fold: an even rank below 2 rem sends all its P*s bytes to r+1 (tag
 * 0) and leaves (returns UINT64_MAX); the odd one receives and reduces
 * them and goes on as vrank r/2; a rank from 2 rem on is vrank r - rem.
 * *prev: the rank's last op. */
static uint64_t fold(ctx *c, const sg_params *p, uint64_t rem, uint32_t *prev)
{
	uint64_t r = c->r, all = sat_mul(c->P, p->size);
	if (r >= 2 * rem)
		return r - rem;
	if (r % 2 == 0) {
		*prev = send(c, all, r + 1, 0, NONE);
		return UINT64_MAX;
	}
	*prev = reduced(c, p, all, recv(c, all, r - 1, 0, NONE));
	return r / 2;
}

/* Open MPI's recursive-halving reduce-scatter (reduce_scatter_block
 * algorithm 3, ompi_coll_base_reduce_scatter_block_intra_recursivehalving;
 * with equal counts also reduce_scatter algorithm 2,
 * ompi_coll_base_reduce_scatter_intra_basic_recursivehalving, which sends
 * the same in the same order): the fold (tag 0), then for mask = P'/2 ..
 * 1 vrank v exchanges with vrank v xor mask the halves of its window of
 * vranks' blocks (all P' at first): the lower vrank of the pair sends the
 * upper half and keeps the lower, the other the reverse; a receive posted,
 * a blocking send, the wait (tag 1 + step), then the reduction of what
 * came; the window becomes the half kept.  Last, the odd ranks below
 * 2 rem send r-1 its block (tag 2 + log2 P'), which the even ones receive
 * after their fold send. */
static void g_reduce_scatter_block_rechalving(ctx *c, const sg_params *p, uint64_t root)
{
	uint64_t P = c->P, r = c->r, s = p->size, pof2, rem, v, si = 0, ri = 0, last;
	unsigned m, k = 0;
	uint32_t prev = NONE;
	(void)root;
	if (P < 2 || s == 0)
		return;
	m = floor_log2(P);
	pof2 = UINT64_C(1) << m;
	rem = P - pof2;
	v = fold(c, p, rem, &prev);
	if (v == UINT64_MAX) {
		recv(c, s, r + 1, m + 1, prev);
		return;
	}
	last = pof2;
	for (uint64_t mask = pof2 >> 1; mask > 0; mask >>= 1, k++) {
		uint64_t vp = v ^ mask, peer = fold_rank(vp, rem), sn, rn;
		if (v < vp) {
			si = ri + mask;
			sn = fold_blocks(si, last - 1, rem);
			rn = fold_blocks(ri, si - 1, rem);
		} else {
			ri = si + mask;
			sn = fold_blocks(si, ri - 1, rem);
			rn = fold_blocks(ri, last - 1, rem);
		}
		prev = sendrecv(c, sat_mul(sn, s), peer, sat_mul(rn, s), peer, 1 + k, prev);
		prev = reduced(c, p, sat_mul(rn, s), prev);
		si = ri;
		last = ri + mask;
	}
	if (r < 2 * rem)
		send(c, s, r - 1, m + 1, prev);
}
static uint64_t t_fold(const sg_params *p)
{
	return floor_log2(p->nranks ? p->nranks : 1) + 2u;
}

/* x with its n low bits in reverse order (ompi_mirror_perm). */
static uint64_t mirror(uint64_t x, unsigned n)
{
	uint64_t y = 0;
	for (unsigned i = 0; i < n; i++, x >>= 1)
		y = y << 1 | (x & 1);
	return y;
}

/* Open MPI's butterfly reduce-scatters (ompi_coll_base_reduce_scatter_
 * block_intra_butterfly, ompi_coll_base_reduce_scatter_intra_butterfly):
 * the fold (tag 0), then for mask = 1, 2, .. P'/2 vrank v exchanges with
 * vrank v xor mask (one MPI_Sendrecv, tag 1 + step, then the reduction of
 * what came): its window of vranks' blocks (all P' at first) halves, v
 * keeping the lower half when its bit mask is 0, and sends the other.
 * Then v holds the block of vrank mirror(v) (the log2 P' bits reversed):
 * when that vrank stands for two ranks, it first sends the even one its
 * block (blocking, tag 2 + log2 P'); unless mirror(v) is v it swaps s
 * bytes with vrank mirror(v)'s rank (one MPI_Sendrecv, same tag).  The
 * even ranks below 2 rem receive their block there.  pof2_variant: with P
 * a power of two, the block call's butterfly_pof2 instead, the same
 * exchanges (step k swaps P/2^(k+1) blocks with r xor 2^k, tag k) with no
 * swap at the end (it permutes the blocks before). */
static void butterfly(ctx *c, const sg_params *p, int pof2_variant)
{
	uint64_t P = c->P, r = c->r, s = p->size, pof2, rem, v, nb, si = 0, ri = 0, vp, peer;
	unsigned m, k = 0;
	uint32_t prev = NONE;
	if (P < 2 || s == 0)
		return;
	m = floor_log2(P);
	pof2 = UINT64_C(1) << m;
	rem = P - pof2;
	if (rem == 0 && pof2_variant) {
		for (uint64_t mask = 1; mask < P; mask <<= 1, k++) {
			uint64_t n = sat_mul(P >> (k + 1), s);
			prev = sendrecv(c, n, r ^ mask, n, r ^ mask, k, prev);
			prev = reduced(c, p, n, prev);
		}
		return;
	}
	v = fold(c, p, rem, &prev);
	if (v == UINT64_MAX) {
		recv(c, s, fold_rank(mirror(r / 2, m), rem), m + 1, prev);
		return;
	}
	nb = pof2;
	for (uint64_t mask = 1; mask < pof2; mask <<= 1, k++) {
		uint64_t sn, rn;
		nb /= 2;
		if (v & mask)
			ri += nb;
		else
			si += nb;
		sn = sat_mul(fold_blocks(si, si + nb - 1, rem), s);
		rn = sat_mul(fold_blocks(ri, ri + nb - 1, rem), s);
		peer = fold_rank(v ^ mask, rem);
		prev = sendrecv(c, sn, peer, rn, peer, 1 + k, prev);
		prev = reduced(c, p, rn, prev);
		si = ri;
	}
	vp = mirror(v, m);
	peer = fold_rank(vp, rem);
	if (vp < rem)
		prev = send(c, s, peer - 1, m + 1, prev);
	if (vp != v)
		sendrecv(c, s, peer, s, peer, m + 1, prev);
}

/* Open MPI's butterfly reduce-scatter-block (algorithm 4): the butterfly
 * above, its power-of-two variant when P is one. */
static void g_reduce_scatter_block_butterfly(ctx *c, const sg_params *p, uint64_t root)
{
	(void)root;
	butterfly(c, p, 1);
}

/* Open MPI's non-overlapping reduce-scatter (reduce_scatter algorithm 1,
 * ompi_coll_base_reduce_scatter_intra_nonoverlapping): a reduce of all P*s
 * bytes to rank 0, the algorithm Open MPI picks (sg_select: reduce for
 * P*s bytes), then coll/basic's scatterv of the s-byte blocks from rank 0
 * (its basic linear scatter's messages: g_scatter_linear_ompi). */
static void g_reduce_scatter_nonoverlapping(ctx *c, const sg_params *p, uint64_t root)
{
	sg_params pr;
	gen_fn *gr;
	uint64_t tr;
	(void)root;
	if (p->size == 0)
		return;
	tr = ompi_pick(c, "reduce", p, sat_mul(p->size, p->nranks), &pr, &gr);
	if (tr)
		then(c, gr, &pr, tr, g_scatter_linear_ompi, p, 0);
}
static uint64_t t_reduce_scatter_nonoverlapping(const sg_params *p)
{
	ctx c;
	sg_params q;
	gen_fn *g;
	memset(&c, 0, sizeof c);
	return ompi_pick(&c, "reduce", p, sat_mul(p->size, p->nranks), &q, &g) + 1;
}

/* Open MPI's ring reduce-scatter (reduce_scatter algorithm 3,
 * ompi_coll_base_reduce_scatter_intra_ring): P-1 steps around the ring.
 * Rank r posts the receive of step 0 from r-1 and sends r-1's block to r+1
 * (blocking, tag 0).  Step k = 1 .. P-2: it posts the receive of step k,
 * waits for step k-1's block (that of r-k), reduces it into its own
 * partial result and sends that on to r+1 (blocking, tag k).  Last, it
 * waits for its own block (step P-2) and reduces it. */
static void g_reduce_scatter_ring(ctx *c, const sg_params *p, uint64_t root)
{
	uint64_t P = c->P, r = c->r, s = p->size, to, from;
	uint32_t rv, sd;
	(void)root;
	if (P < 2 || s == 0)
		return;
	to = (r + 1) % P;
	from = (r + P - 1) % P;
	rv = recv(c, s, from, 0, NONE);
	sd = send(c, s, to, 0, NONE);
	for (uint64_t k = 1; k + 1 < P; k++) {
		uint32_t next = recv(c, s, from, k, sd);
		uint32_t x = send(c, s, to, k, reduced(c, p, s, rv));
		req(c, x, sd);
		sd = x;
		rv = next;
	}
	reduced(c, p, s, rv);
}

/* Open MPI's butterfly reduce-scatter (reduce_scatter algorithm 4): the
 * butterfly above, with no power-of-two variant (a power-of-two P swaps
 * blocks with mirror(v) at the end). */
static void g_reduce_scatter_butterfly(ctx *c, const sg_params *p, uint64_t root)
{
	(void)root;
	butterfly(c, p, 0);
}

/* Open MPI's linear scan (scan algorithm 1, ompi_coll_base_scan_intra_linear;
 * also coll/basic's scan, Open MPI's own choice): rank r > 0 receives the
 * prefix of ranks 0..r-1 from r-1 (tag 0) and reduces it into its own
 * block; then every rank but P-1 sends its prefix to r+1, once reduced.
 * At 0 bytes MPI_Scan returns before any algorithm runs: nothing. */
static void g_scan_linear(ctx *c, const sg_params *p, uint64_t root)
{
	uint64_t s = p->size, r = c->r;
	uint32_t prev = NONE;
	(void)root;
	if (s == 0)
		return;
	if (r > 0)
		prev = reduced(c, p, s, recv(c, s, r - 1, 0, NONE));
	if (r + 1 < c->P)
		send(c, s, r + 1, 0, prev);
}

/* Open MPI's linear exscan (exscan algorithm 1,
 * ompi_coll_base_exscan_intra_linear; coll/basic's exscan): rank 0 sends
 * its block to 1, rank P-1 receives the prefix from P-2; a rank between
 * receives the prefix from r-1, reduces its own block into it and sends
 * the result to r+1 (tag 0).  One rank (Open MPI's coll/self) and 0 bytes
 * (MPI_Exscan returns first): nothing. */
static void g_exscan_linear(ctx *c, const sg_params *p, uint64_t root)
{
	uint64_t s = p->size, r = c->r, P = c->P;
	uint32_t got;
	(void)root;
	if (s == 0 || P < 2)
		return;
	if (r == 0) {
		send(c, s, 1, 0, NONE);
		return;
	}
	got = recv(c, s, r - 1, 0, NONE);
	if (r + 1 < P)
		send(c, s, r + 1, 0, reduced(c, p, s, got));
}

/* The recursive-doubling scan and exscan of Open MPI: for mask = 1, 2, 4,
 * .. < P, rank r exchanges its partial result (s bytes) with r xor mask
 * when that rank exists (one MPI_Sendrecv, tag k for mask 2^k), after the
 * previous exchange and its reductions.  The higher rank of a pair reduces
 * what it received into its result and into its partial result (two
 * reductions; for exscan the first such step copies into the result
 * instead: one); the lower rank reduces it into its partial result (one).
 * Nothing on one rank or at 0 bytes. */
static void prefix_recdoub(ctx *c, const sg_params *p, int exclusive)
{
	uint64_t s = p->size, r = c->r, P = c->P;
	uint32_t prev = NONE;
	int first = 1;
	unsigned k = 0;
	if (s == 0 || P < 2)
		return;
	for (uint64_t mask = 1; mask < P; mask <<= 1, k++) {
		uint64_t peer = r ^ mask;
		if (peer >= P)
			continue;
		prev = sendrecv(c, s, peer, s, peer, k, prev);
		if (r > peer && !(exclusive && first))
			prev = reduced(c, p, s, prev);
		if (r > peer)
			first = 0;
		prev = reduced(c, p, s, prev);
	}
}

/* Open MPI's recursive-doubling scan (scan algorithm 2,
 * ompi_coll_base_scan_intra_recursivedoubling): prefix_recdoub. */
static void g_scan_recdoub(ctx *c, const sg_params *p, uint64_t root)
{
	(void)root;
	prefix_recdoub(c, p, 0);
}

/* Open MPI's recursive-doubling exscan (exscan algorithm 2,
 * ompi_coll_base_exscan_intra_recursivedoubling): prefix_recdoub. */
static void g_exscan_recdoub(ctx *c, const sg_params *p, uint64_t root)
{
	(void)root;
	prefix_recdoub(c, p, 1);
}

/* Open MPI's linear alltoallv (alltoallv algorithm 1,
 * ompi_coll_base_alltoallv_intra_basic_linear): rank r posts the receives
 * of the s-byte blocks of ranks 0, 1, .. P-1 (not r), then the sends of
 * its blocks to ranks 0, 1, .. P-1, starts them all at once and waits for
 * them (tag 0); its own block is a local copy. */
static void g_alltoallv_linear(ctx *c, const sg_params *p, uint64_t root)
{
	(void)root;
	for (uint64_t j = 0; j < c->P; j++)
		if (j != c->r)
			recv(c, p->size, j, 0, NONE);
	for (uint64_t j = 0; j < c->P; j++)
		if (j != c->r)
			send(c, p->size, j, 0, NONE);
}

/* The broadcast Open MPI's default allgatherv runs: its pick for P ranks
 * and the P s bytes of one element of an indexed datatype, from rank 0,
 * unsegmented (ompi_pick_as). */
static uint64_t bcast_one_element(ctx *c, const sg_params *p, sg_params *q, gen_fn **g)
{
	return ompi_pick_as(c, "bcast", p, sat_mul(p->size, p->nranks), 1, q, g);
}

/* Open MPI's default allgatherv (allgatherv algorithm 1,
 * ompi_coll_base_allgatherv_intra_basic_default): coll/basic's gatherv of
 * the s-byte blocks to rank 0 (mca_coll_basic_gatherv_intra: the messages
 * and order of its basic linear gather, g_gather_linear_ompi), then the broadcast of all
 * P blocks as one element of an indexed datatype from rank 0, the
 * algorithm Open MPI picks for it (bcast_one_element).  At 0 bytes
 * MPI_Allgatherv returns first: nothing. */
static void g_allgatherv_default(ctx *c, const sg_params *p, uint64_t root)
{
	sg_params pb;
	gen_fn *gb;
	(void)root;
	if (p->size == 0)
		return;
	if (bcast_one_element(c, p, &pb, &gb))
		then(c, g_gather_linear_ompi, p, 1, gb, &pb, 0);
}
static uint64_t t_allgatherv_default(const sg_params *p)
{
	ctx c;
	sg_params q;
	gen_fn *g;
	memset(&c, 0, sizeof c);
	return 1 + bcast_one_element(&c, p, &q, &g);
}

/* Open MPI's two-process allgatherv (allgatherv algorithm 5,
 * ompi_coll_base_allgatherv_intra_two_procs): on two ranks one
 * MPI_Sendrecv of s bytes with the other rank (tag 0); on any other number
 * Open MPI returns MPI_ERR_UNSUPPORTED_OPERATION before sending anything:
 * nothing, as at 0 bytes (MPI_Allgatherv returns first). */
static void g_allgatherv_two_proc(ctx *c, const sg_params *p, uint64_t root)
{
	(void)root;
	if (c->P == 2 && p->size > 0)
		sendrecv(c, p->size, c->r ^ 1, p->size, c->r ^ 1, 0, NONE);
}

/* The table: X(name, aliases, uses, generator, tags, summary).  ORDER: as
 * --list prints it. */
#define R SG_USES_ROOT
#define SEG SG_USES_SEGMENT
#define RED SG_REDUCES
#define SG_PATTERNS(X) \
	X("bcast_binomial", "binomialtreebcast binomial", R, g_bcast_binomial, t_log2, \
	  "broadcast, binomial tree (round k: ranks below 2^k send to rank + 2^k)") \
	X("bcast_binary", "binarytreebcast binary", R, g_bcast_binary, t_one, \
	  "broadcast, binary tree in heap order (v sends to 2v+1, 2v+2)") \
	X("bcast_scatter_allgather_ring", "", R | SG_LINEAR, g_bcast_scatter_allgather_ring, \
	  t_ring_bcast, "broadcast as Open MPI's binomial scatter, then a ring allgather") \
	X("bcast_scatter_allgather", "", R, g_bcast_scatter_allgather, t_scatter_allgather, \
	  "broadcast as Open MPI's binomial scatter, then a recursive-doubling allgather") \
	X("bcast_chain", "pipelinedring chain", R | SEG, g_bcast_chain, t_segments, \
	  "broadcast, pipelined chain root -> 1 -> ... -> P-1, in segments") \
	X("bcast_chain_buffered", "pipelinedringdep", R | SEG, g_bcast_chain_buffered, t_segments, \
	  "pipelined chain; a rank takes segment k+1 once it has sent segment k") \
	X("bcast_linear", "", R | SG_LINEAR, g_bcast_linear, t_one, \
	  "broadcast as Open MPI's linear: the root sends to every rank at once") \
	X("bcast_chain_ompi", "", R | SEG | SG_USES_FANOUT, g_bcast_chain_ompi, t_segments, \
	  "broadcast as Open MPI's chain: --fanout chains from the root, in segments") \
	X("bcast_pipeline", "", R | SEG, g_bcast_pipeline, t_segments, \
	  "broadcast as Open MPI's pipeline: one chain, in segments") \
	X("bcast_binary_ompi", "", R | SEG, g_bcast_binary_ompi, t_segments, \
	  "broadcast as Open MPI's binary tree (level by level), in segments") \
	X("bcast_split_binary", "", R | SEG, g_bcast_split_binary, t_split_binary, \
	  "broadcast as Open MPI's split binary tree: a half down each subtree, swap") \
	X("bcast_knomial", "", R | SEG | SG_USES_RADIX, g_bcast_knomial, t_segments, \
	  "broadcast as Open MPI's k-nomial tree (--radix k), in segments") \
	X("reduce_binomial", "binomialtreereduce", R | RED, g_reduce_binomial, t_log2, \
	  "reduce, binomial tree (the binomial broadcast reversed)") \
	X("reduce_linear", "", R | SG_LINEAR | RED, g_reduce_linear, t_one, \
	  "reduce as Open MPI's linear: the root receives from P-1, P-2, .. 0") \
	X("reduce_chain", "", R | SEG | SG_USES_FANOUT | RED, g_reduce_chain, t_segments, \
	  "reduce as Open MPI's chain: up --fanout chains to the root, in segments") \
	X("reduce_pipeline", "", R | SEG | RED, g_reduce_pipeline, t_segments, \
	  "reduce as Open MPI's pipeline: up one chain, in segments") \
	X("reduce_binary", "", R | SEG | RED, g_reduce_binary, t_segments, \
	  "reduce as Open MPI's binary tree, in segments") \
	X("reduce_binomial_ompi", "", R | SEG | RED, g_reduce_binomial_ompi, t_segments, \
	  "reduce as Open MPI's binomial: up the in-order binomial tree, in segments") \
	X("reduce_in_order_binary", "", R | SEG | RED, g_reduce_in_order_binary, t_segments_and_one, \
	  "reduce as Open MPI's in-order binary tree (rooted at P-1), in segments") \
	X("reduce_rabenseifner", "", R | RED, g_reduce_rabenseifner, t_reduce_rabenseifner, \
	  "reduce as Open MPI's Rabenseifner: recursive halving, binomial gather") \
	X("scatter_linear", "scatter", R | SG_LINEAR, g_scatter, t_one, \
	  "linear scatter: the root sends to every rank in turn") \
	X("scatter_binomial", "", R, g_scatter_binomial, t_one, \
	  "scatter as Open MPI's binomial: subtrees' blocks down the in-order binomial tree") \
	X("scatter_linear_ompi", "", R | SG_LINEAR, g_scatter_linear_ompi, t_one, \
	  "scatter as Open MPI's basic linear: the root sends to 0..P-1, each send blocking") \
	X("scatter_linear_nb", "", R | SG_LINEAR, g_scatter_linear_nb, t_one, \
	  "scatter as Open MPI's linear_nb: the root posts sends to 0..P-1 at once") \
	X("gather_linear", "gather", R | SG_LINEAR, g_gather, t_one, \
	  "linear gather: every rank sends to the root") \
	X("gather_binomial", "", R, g_gather_binomial, t_one, \
	  "gather as Open MPI's binomial: subtrees' blocks up the in-order binomial tree") \
	X("gather_linear_sync", "", R | SEG | SG_LINEAR, g_gather_linear_sync, t_three, \
	  "gather as Open MPI's linear_sync: the root calls each rank in turn") \
	X("gather_linear_ompi", "", R | SG_LINEAR, g_gather_linear_ompi, t_one, \
	  "gather as Open MPI's basic linear: the root receives from 0..P-1, one at a time") \
	X("allreduce_dissemination", "dissemination", RED, g_dissemination, t_log2, \
	  "allreduce by dissemination (round k: send to r+2^k, receive from r-2^k)") \
	X("allreduce_recdoub", "recursive_doubling", RED, g_recdoub, t_recdoub, \
	  "allreduce by recursive doubling; ranks above 2^floor(log2 P) fold in") \
	X("allreduce_ring", "ring_allreduce", SEG | RED, g_allreduce_ring, t_allreduce_ring, \
	  "allreduce on a ring: reduce-scatter + allgather, chunks in segments") \
	X("allreduce_rabenseifner", "rabenseifner", RED, g_allreduce_rabenseifner, t_rabenseifner, \
	  "allreduce as Open MPI's Rabenseifner: recursive halving, then doubling") \
	X("allreduce_linear", "", SG_LINEAR | RED, g_allreduce_linear, t_two, \
	  "allreduce as Open MPI's linear: a linear reduce to 0, a linear broadcast") \
	X("allreduce_nonoverlapping", "", RED, g_allreduce_nonoverlapping, t_nonoverlapping, \
	  "allreduce as Open MPI's nonoverlapping: its pick of reduce, then of bcast") \
	X("allreduce_recdoub_ompi", "", RED, g_allreduce_recdoub_ompi, t_recdoub, \
	  "allreduce as Open MPI's recursive doubling (pairs 2i, 2i+1 fold in)") \
	X("allreduce_ring_segmented", "", SEG | SG_LINEAR | RED, g_allreduce_ring_segmented, t_ring_segmented, \
	  "allreduce as Open MPI's ring (segmented with --segment), its fallbacks") \
	X("barrier_linear", "linbarrier central_counter", R | SG_LINEAR, g_barrier_linear, t_two, \
	  "barrier, central counter: all report to the root, which releases all") \
	X("barrier_tree", "combining_tree", R | SG_USES_FANIN, g_barrier_tree, t_two, \
	  "barrier, combining tree of fan-in n (--fanin): arrive up, release down") \
	X("barrier_tree_ompi", "", 0, g_barrier_tree_ompi, t_two, \
	  "barrier as Open MPI's tree: in to rank 0 up a binomial tree, out down it") \
	X("barrier_double_ring", "", 0, g_barrier_double_ring, t_two, \
	  "barrier as Open MPI's double ring: twice around the ring from rank 0") \
	X("barrier_tournament", "tournament", R, g_barrier_tournament, t_tournament, \
	  "barrier, tournament: losers report to winners, the champion wakes all") \
	X("barrier_dissemination", "", 0, g_dissemination, t_log2, \
	  "barrier by dissemination (same messages as allreduce_dissemination)") \
	X("barrier_butterfly", "butterfly pairwise_exchange", 0, g_recdoub, t_recdoub, \
	  "barrier by pairwise exchange (same messages as allreduce_recdoub)") \
	X("barrier_nway", "nwaydissemination nway_dissemination", SG_USES_NWAY, g_barrier_nway, t_nway, \
	  "barrier, n-way dissemination (--nway n messages per round)") \
	X("ring_pipelined", "pipelined_ring", R | SEG, g_ring_pipelined, t_segments, \
	  "pipelined ring: segments travel from the root around the ring and back") \
	X("ring_double", "doublering double_ring", R, g_ring_double, t_two, \
	  "double ring: a message each way around the ring, forwarded by every rank") \
	X("alltoall_linear", "linear_alltoall alltoall", SG_LINEAR, g_alltoall_linear, t_one, \
	  "alltoall, linear: step j sends to r+j and receives from r-j") \
	X("alltoall_pairwise", "", SG_LINEAR, g_alltoall_pairwise, t_steps, \
	  "alltoall as Open MPI's pairwise: step i exchanges with r+i and r-i in turn") \
	X("alltoall_bruck", "", 0, g_alltoall_bruck, t_log2, \
	  "alltoall as Open MPI's Bruck: step k sends the blocks with bit k to r+2^k") \
	X("allgather_ring", "", SG_LINEAR, g_allgather_ring, t_steps, \
	  "allgather as Open MPI's ring: P-1 steps, a block to r+1, one from r-1") \
	X("allgather_bruck", "", 0, g_allgather_bruck, t_log2, \
	  "allgather as Open MPI's Bruck: step k sends min(2^k, P-2^k) blocks to r-2^k") \
	X("allgather_recdoub", "", 0, g_allgather_recdoub, t_log2, \
	  "allgather as Open MPI's recursive doubling (P = 2^n; else its Bruck)") \
	X("allgather_neighbor", "", SG_LINEAR, g_allgather_neighbor, t_steps, \
	  "allgather as Open MPI's neighbor exchange (P even; else its ring)") \
	X("allgather_linear", "", 0, g_allgather_linear, t_allgather_linear, \
	  "allgather as Open MPI's linear: its pick of gather, then of bcast of all") \
	X("reduce_scatter_block_linear", "", RED, g_reduce_scatter_block_linear, \
	  t_reduce_scatter_block_linear, \
	  "reduce-scatter as Open MPI's block linear: its reduce of P blocks, scatter") \
	X("reduce_scatter_block_recdoub", "", RED, g_reduce_scatter_block_recdoub, \
	  t_reduce_scatter_block_recdoub, \
	  "reduce-scatter as Open MPI's block recursive doubling (distance 1, 2, 4..)") \
	X("reduce_scatter_block_rechalving", "reduce_scatter_rechalving", RED, \
	  g_reduce_scatter_block_rechalving, t_fold, \
	  "reduce-scatter as Open MPI's recursive halving (P folded to a power of two)") \
	X("reduce_scatter_block_butterfly", "", RED, g_reduce_scatter_block_butterfly, t_fold, \
	  "reduce-scatter as Open MPI's block butterfly (P = 2^n: its pof2 variant)") \
	X("reduce_scatter_nonoverlapping", "", RED, g_reduce_scatter_nonoverlapping, \
	  t_reduce_scatter_nonoverlapping, \
	  "reduce-scatter as Open MPI's non-overlapping: its reduce, a linear scatterv") \
	X("reduce_scatter_ring", "", SG_LINEAR | RED, g_reduce_scatter_ring, t_steps, \
	  "reduce-scatter as Open MPI's ring: P-1 steps, a block to r+1, one from r-1") \
	X("reduce_scatter_butterfly", "", RED, g_reduce_scatter_butterfly, t_fold, \
	  "reduce-scatter as Open MPI's butterfly (mirror swap at the end, any P)") \
	X("scan_linear", "", RED, g_scan_linear, t_one, \
	  "scan as Open MPI's linear: receive from r-1, reduce, send to r+1") \
	X("scan_recdoub", "", RED, g_scan_recdoub, t_log2, \
	  "scan as Open MPI's recursive doubling: step k exchanges with r xor 2^k") \
	X("exscan_linear", "", RED, g_exscan_linear, t_one, \
	  "exscan as Open MPI's linear: receive from r-1, reduce, send to r+1") \
	X("exscan_recdoub", "", RED, g_exscan_recdoub, t_log2, \
	  "exscan as Open MPI's recursive doubling: step k exchanges with r xor 2^k") \
	X("alltoallv_linear", "", SG_LINEAR, g_alltoallv_linear, t_one, \
	  "alltoallv as Open MPI's linear: receives from, sends to all, in rank order") \
	X("allgatherv_default", "", SG_LINEAR, g_allgatherv_default, t_allgatherv_default, \
	  "allgatherv as Open MPI's default: gatherv to 0, its pick of bcast of all") \
	X("allgatherv_two_proc", "", 0, g_allgatherv_two_proc, t_one, \
	  "allgatherv as Open MPI's two_proc: one exchange on 2 ranks, else nothing") \
	X("bcast_binomial_mpich", "", R, g_bcast_binomial_mpich, t_one, \
	  "broadcast as MPICH's binomial: down the in-order binomial tree, largest first") \
	X("bcast_scatter_recdoub_mpich", "", R, g_bcast_scatter_recdoub_mpich, t_scatter_allgather, \
	  "broadcast as MPICH's binomial scatter, then recursive-doubling allgather") \
	X("bcast_scatter_ring_mpich", "", R | SG_LINEAR, g_bcast_scatter_ring_mpich, t_ring_bcast, \
	  "broadcast as MPICH's binomial scatter, then a ring allgather") \
	X("allreduce_rabenseifner_mpich", "", RED, g_allreduce_rabenseifner_mpich, \
	  t_rabenseifner_mpich, \
	  "allreduce as MPICH's Rabenseifner: recursive halving, then doubling") \
	X("reduce_scatter_pairwise", "", SG_LINEAR | RED, g_reduce_scatter_pairwise, t_steps, \
	  "reduce-scatter as MPICH's pairwise: step i sends to r+i, receives from r-i") \
	X("alltoall_scattered", "", SG_LINEAR, g_alltoall_scattered, t_one, \
	  "alltoall as MPICH's scattered: all at once, in batches of 32 peers") \
	X("alltoall_pairwise_mpich", "", SG_LINEAR, g_alltoall_pairwise_mpich, t_steps, \
	  "alltoall as MPICH's pairwise: step i exchanges with r xor i (P = 2^n)") \
	X("none", "", 0, g_none, t_one, \
	  "nothing: no message (what MPI libraries send for a call of 0 bytes)")

static const sg_pattern_info patterns[] = {
#define X_INFO(n, a, u, g, t, s) { n, a, u, s },
	SG_PATTERNS(X_INFO)
#undef X_INFO
};
static gen_fn *const gens[] = {
#define X_GEN(n, a, u, g, t, s) g,
	SG_PATTERNS(X_GEN)
#undef X_GEN
};
static tags_fn *const tagfns[] = {
#define X_TAGS(n, a, u, g, t, s) t,
	SG_PATTERNS(X_TAGS)
#undef X_TAGS
};
#undef R
#undef SEG
#define NPAT (sizeof patterns / sizeof patterns[0])
_Static_assert(sizeof gens / sizeof gens[0] == NPAT, "ORDER PATTERN");

static void pattern_fns(size_t i, gen_fn **g, tags_fn **t)
{
	*g = gens[i];
	*t = tagfns[i];
}

size_t sg_npatterns(void)
{
	return NPAT;
}

const sg_pattern_info *sg_pattern(size_t i)
{
	return i < NPAT ? &patterns[i] : NULL;
}

int sg_pattern_find(const char *name)
{
	size_t n = strlen(name);
	for (size_t i = 0; i < NPAT; i++) {
		const char *a = patterns[i].aliases;
		if (strcasecmp(patterns[i].name, name) == 0)
			return (int)i;
		while (*a) {
			size_t len = strcspn(a, " ");
			if (len == n && strncasecmp(a, name, n) == 0)
				return (int)i;
			a += len;
			a += strspn(a, " ");
		}
	}
	return -1;
}

void sg_params_default(sg_params *p)
{
	memset(p, 0, sizeof *p);
	p->nranks = 8;
	p->size = 1;
	p->nway = 1;
	p->fanin = 2;
	p->fanout = 4;
	p->radix = 4;
	p->iterations = 1;
	p->block = GOAL_DEFAULT_BLOCK;
}

/* Tags of one iteration: the barrier (with --sync) and the collective. */
static uint64_t tags_total(size_t i, const sg_params *p)
{
	uint64_t per = tagfns[i](p);
	if (p->sync && p->iterations > 1)
		per = per + t_log2(p) < per ? UINT64_MAX : per + t_log2(p);
	return sat_mul(per, p->iterations);
}

static int perr(char *err, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int perr(char *err, size_t n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, n, fmt, ap);
	va_end(ap);
	return -1;
}

int sg_params_check(size_t i, const sg_params *p, char *err, size_t errlen)
{
	uint64_t t;
	if (i >= NPAT)
		return perr(err, errlen, "unknown pattern");
	if (p->nranks < 1)
		return perr(err, errlen, "the number of ranks must be at least 1 (got %" PRIu64 ")", p->nranks);
	if (p->nranks > GOAL_MAX_RANKS)
		return perr(err, errlen, "the number of ranks must be at most %u (got %" PRIu64 ")",
		            GOAL_MAX_RANKS, p->nranks);
	if (p->root >= p->nranks)
		return perr(err, errlen, "the root %" PRIu64 " is not a rank (0..%" PRIu64 ")",
		            p->root, p->nranks - 1);
	if (p->nway < 1 || p->nway > UINT32_MAX)
		return perr(err, errlen, "--nway must be 1..%" PRIu32 " (got %" PRIu64 ")", UINT32_MAX, p->nway);
	if (p->fanin < 1 || p->fanin > UINT32_MAX)
		return perr(err, errlen, "--fanin must be 1..%" PRIu32 " (got %" PRIu64 ")", UINT32_MAX, p->fanin);
	if (p->fanout < 1 || p->fanout > 32)
		return perr(err, errlen, "--fanout must be 1..32 (got %" PRIu64 ")", p->fanout);
	if (p->radix < 2 || p->radix > 256)
		return perr(err, errlen, "--radix must be 2..256 (got %" PRIu64 ")", p->radix);
	if (p->iterations < 1)
		return perr(err, errlen, "--iterations must be at least 1");
	if (p->stride && (p->stride > GOAL_MAX_STRIDE || p->block < 1 || p->block > p->stride))
		return perr(err, errlen, "--stride %" PRIu32 " with blocks of %" PRIu32 " bytes: "
		            "1 <= block <= stride <= %u", p->stride, p->block, GOAL_MAX_STRIDE);
	if (p->nb) {
		uint64_t pieces = p->nb_poll ? p->nb_time / p->nb_poll + (p->nb_time % p->nb_poll != 0) : 1;
		uint64_t calcs;
		if (__builtin_mul_overflow(pieces ? pieces : 1, p->iterations, &calcs) || calcs > GOAL_MAX_RANK_OPS)
			return perr(err, errlen, "--nb %" PRIu64 " in pieces of --nb-poll %" PRIu64 " ns, %" PRIu64
			            " times: more calcs per rank than the %u ops a rank may have",
			            p->nb_time, p->nb_poll, p->iterations, GOAL_MAX_RANK_OPS);
	}
	t = tags_total(i, p);
	if (t > (uint64_t)INT32_MAX + 1)
		return perr(err, errlen, "this schedule needs %s%" PRIu64 " distinct tags, more than the "
		            "2^31 GOAL allows (use fewer segments or iterations)",
		            t == UINT64_MAX ? "over " : "", t);
	return 0;
}

/* End the phase that began at c->first: the next phase starts after every
 * op of this one that no other op of it requires. */
static void end_phase(ctx *c)
{
	uint32_t n = nops(c);
	c->exits.n = 0;
	for (uint32_t i = c->first; i < n && i < c->used_cap; i++)
		if (!c->used[i])
			push(c, &c->exits, i);
	if (c->exits.n)
		c->start = join(c, &c->exits);
	c->first = nops(c);
}

/* The nonblocking variant: the computation starts when the collective's
 * first op starts (irequires), in pieces of nb_poll ns. */
static void add_compute(ctx *c, const sg_params *p, uint32_t coll_first)
{
	uint64_t left = p->nb_time, piece = p->nb_poll ? p->nb_poll : p->nb_time;
	uint32_t prev = NONE;
	do {
		uint64_t d = piece < left ? piece : left;
		uint32_t op;
		if (prev != NONE) {
			op = add(c, GOAL_CALC, d, 0, 0, p->cpu, prev);
		} else if (coll_first != NONE) {
			goal_op g;
			memset(&g, 0, sizeof g);
			g.kind = GOAL_CALC;
			g.size = d;
			g.cpu = p->cpu;
			op = new_op(c, &g);
			if (op == NONE)
				return;
			sg_out_dep(c->o, op, coll_first, 1);
		} else {
			op = add(c, GOAL_CALC, d, 0, 0, p->cpu, NONE);
		}
		prev = op;
		left -= d;
	} while (left > 0);
}

/* Add the ops of rank r of pattern i (every iteration) to c->o, in the
 * rank begun there. */
static void gen_rank(ctx *c, size_t i, const sg_params *p, uint64_t r)
{
	uint64_t per_coll = tagfns[i](p), per_bar = t_log2(p);
	sg_params bar = *p;
	bar.size = 0;
	c->reduces = (patterns[i].uses & SG_REDUCES) != 0;
	c->r = r;
	c->start = NONE;
	c->first = 0;
	c->tagbase = 0;
	for (uint64_t it = 0; it < p->iterations; it++) {
		uint64_t root = p->rotate_root ? (p->root + it) % p->nranks : p->root;
		uint32_t coll_first;
		if (p->sync && it > 0) {
			g_dissemination(c, &bar, 0);
			c->tagbase += per_bar;
			end_phase(c);
		}
		coll_first = nops(c);
		gens[i](c, p, root);
		c->tagbase += per_coll;
		if (p->nb)
			add_compute(c, p, coll_first < nops(c) ? coll_first : NONE);
		if (it + 1 < p->iterations)
			end_phase(c);
	}
}

/* Free c; returns 0, or -1 with a message in err if generating failed
 * (out of memory, or an error of the output o). */
static int ctx_finish(ctx *c, sg_out *o, char *err, size_t errlen)
{
	int rc = 0;
	if (c->oom)
		rc = perr(err, errlen, "error: out of memory");
	else if (sg_out_error(o))
		rc = perr(err, errlen, "%s", sg_out_error(o));
	free(c->used);
	free(c->la.v);
	free(c->lb.v);
	free(c->exits.v);
	return rc;
}

uint64_t sg_pattern_tags(size_t i, const sg_params *p)
{
	return i < NPAT ? tags_total(i, p) : 0;
}

int sg_generate_rank(size_t i, const sg_params *p, uint64_t r, sg_out *o,
                     char *err, size_t errlen)
{
	ctx c;
	if (sg_params_check(i, p, err, errlen))
		return -1;
	if (r >= p->nranks)
		return perr(err, errlen, "rank %" PRIu64 " is not a rank of the pattern (0..%" PRIu64 ")",
		            r, p->nranks - 1);
	memset(&c, 0, sizeof c);
	c.o = o;
	c.P = p->nranks;
	sg_out_set_stride(o, p->stride, p->block);
	gen_rank(&c, i, p, r);
	return ctx_finish(&c, o, err, errlen);
}

int sg_generate(size_t i, const sg_params *p, sg_out *o,
                void (*progress)(void *ctx, uint64_t done), void *pctx,
                char *err, size_t errlen)
{
	ctx c;

	if (sg_params_check(i, p, err, errlen))
		return -1;
	memset(&c, 0, sizeof c);
	c.o = o;
	c.P = p->nranks;
	sg_out_set_stride(o, p->stride, p->block);
	for (uint64_t r = 0; r < p->nranks; r++) {
		if (sg_out_rank_begin(o, r))
			break;
		gen_rank(&c, i, p, r);
		if (c.oom || sg_out_rank_end(o))
			break;
		if (progress && (r + 1) % 65536 == 0)
			progress(pctx, r + 1);
	}
	return ctx_finish(&c, o, err, errlen);
}
