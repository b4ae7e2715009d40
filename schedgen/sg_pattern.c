/* sg_pattern.c: the table of schedgen's patterns (SG_PATTERNS), their
 * parameters, the benchmark loop around them, and the patterns of the
 * published schedgen: binomial, binary and chain broadcasts and reduces,
 * linear scatter and gather, dissemination, recursive doubling, the ring
 * allreduce, the barriers, rings and the linear alltoall.  The libraries'
 * algorithms are in sg_rooted.c and sg_unrooted.c. */
#include "sg_pattern_int.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- Patterns ----------------------------------------------------------
 * The tag counts that many patterns share, and the patterns of the
 * published schedgen (sg_pattern_int.h says what a g_* and a t_* do). */

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
uint64_t t_segments(const sg_params *p)
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
uint64_t t_recdoub(const sg_params *p)
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

/* Nothing: what an MPI library sends for a collective call of 0 bytes
 * (sg_select: both return before running an algorithm). */
static void g_none(ctx *c, const sg_params *p, uint64_t root)
{
	(void)c;
	(void)p;
	(void)root;
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
	X("allreduce_ring_nccl", "", SG_USES_NCCL | SG_USES_NODES | SG_LINEAR | RED, g_allreduce_ring_nccl, t_allreduce_ring_nccl, \
	  "allreduce as NCCL's ring: --channels rings, chunks of the --protocol") \
	X("allgather_ring_nccl", "", SG_USES_NCCL | SG_USES_NODES | SG_LINEAR, g_allgather_ring_nccl, t_ring_nccl, \
	  "allgather as NCCL's ring: --channels rings, chunks of the --protocol") \
	X("reduce_scatter_ring_nccl", "", SG_USES_NCCL | SG_USES_NODES | SG_LINEAR | RED, g_reduce_scatter_ring_nccl, t_ring_nccl, \
	  "reduce-scatter as NCCL's ring: --channels rings, chunks of the --protocol") \
	X("bcast_ring_nccl", "", SG_USES_NCCL | SG_USES_NODES | R, g_bcast_ring_nccl, t_chain_nccl, \
	  "broadcast as NCCL's ring: a chain from the root on --channels rings") \
	X("reduce_ring_nccl", "", SG_USES_NCCL | SG_USES_NODES | R | RED, g_reduce_ring_nccl, t_chain_nccl, \
	  "reduce as NCCL's ring: a chain to the root on --channels rings") \
	X("allreduce_tree_nccl", "", SG_USES_NCCL | SG_USES_NODES | RED, g_allreduce_tree_nccl, t_tree_nccl, \
	  "allreduce as NCCL's double binary tree over nodes of --ranks-per-node") \
	X("allreduce_han", "", SG_USES_NODES | SG_EQUAL_NODES | SG_USES_SEGMENT | RED, g_allreduce_han, \
	  t_allreduce_han, \
	  "allreduce as Open MPI's coll/han: within nodes, among them, in --segment pieces") \
	X("bcast_han", "", SG_USES_NODES | SG_EQUAL_NODES | SG_USES_SEGMENT | R, g_bcast_han, t_bcast_han, \
	  "broadcast as Open MPI's coll/han: among nodes, then within, in --segment pieces") \
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

void pattern_fns(size_t i, gen_fn **g, tags_fn **t)
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
	if (p->channels > 64)
		return perr(err, errlen, "--channels must be 1..64 (got %" PRIu64 ")", p->channels);
	if ((patterns[i].uses & SG_EQUAL_NODES) && p->ranks_per_node > 1
	    && p->nranks % p->ranks_per_node)
		return perr(err, errlen, "%s needs nodes of equal size: %" PRIu64 " ranks are no multiple"
		            " of --ranks-per-node %" PRIu64, patterns[i].name, p->nranks, p->ranks_per_node);
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
void end_phase(ctx *c)
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
