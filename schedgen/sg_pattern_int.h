/* sg_pattern_int.h: what the files of the patterns share, private to them
 * (sg_pattern.h is the contract with everything else): the state of the
 * rank being generated, the building blocks that add its ops (inline, so
 * that the generators inline them), and the generators and tag counts the
 * table of patterns in sg_pattern.c names.  The files: sg_pattern.c, the
 * table, the benchmark loop and the patterns of the published schedgen;
 * sg_rooted.c, the libraries' broadcasts, reduces, scatters and gathers;
 * sg_unrooted.c, their other collectives; sg_nccl.c, NCCL's rings and
 * tree; sg_han.c, Open MPI's coll/han over nodes. */
#ifndef SG_PATTERN_INT_H
#define SG_PATTERN_INT_H

#include "sg_pattern.h"
#include "util.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

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
	uint64_t pbase, pstride; /* a pattern run over a group (sg_han.c): its
	                            rank j is rank pbase + j pstride (pstride 0:
	                            j itself) */
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

static inline uint32_t nops(const ctx *c)
{
	return sg_out_nops(c->o);
}

static inline void push(ctx *c, ilist *l, uint32_t i)
{
	if (util_grow(&l->v, &l->cap, l->n + 1, sizeof *l->v)) {
		c->oom = 1;
		return;
	}
	l->v[l->n++] = i;
}

/* "a requires b": b then has a dependent in the phase. */
static inline void req(ctx *c, uint32_t a, uint32_t b)
{
	if (a == NONE || b == NONE)
		return;
	sg_out_dep(c->o, a, b, 0);
	if (b < c->used_cap)
		c->used[b] = 1;
}

/* Append op to the rank and track it in used[].  Returns its index, or
 * NONE after an error (which c->oom or the output remembers). */
static inline uint32_t new_op(ctx *c, const goal_op *op)
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
static inline uint32_t add(ctx *c, goal_kind kind, uint64_t size, uint64_t peer,
                           uint64_t tag, uint16_t cpu, uint32_t after)
{
	goal_op op;
	uint32_t i;
	memset(&op, 0, sizeof op);
	op.kind = (uint8_t)kind;
	op.size = size;
	op.cpu = cpu;
	if (kind != GOAL_CALC) {
		op.peer = (uint32_t)(c->pstride ? c->pbase + peer * c->pstride : peer);
		op.tag = (int32_t)(c->tagbase + tag);
	}
	i = new_op(c, &op);
	if (i != NONE)
		req(c, i, after != NONE ? after : c->start);
	return i;
}

static inline uint32_t send(ctx *c, uint64_t size, uint64_t peer, uint64_t tag, uint32_t after)
{
	return add(c, GOAL_SEND, size, peer, tag, 0, after);
}

static inline uint32_t recv(ctx *c, uint64_t size, uint64_t peer, uint64_t tag, uint32_t after)
{
	return add(c, GOAL_RECV, size, peer, tag, 0, after);
}

/* A local reduction of n bytes once `after` has completed: a calc of
 * gamma * n ns (rounded half up).  Returns the op that stands for the
 * reduced data, which is `after` itself when gamma or n is 0 or the
 * pattern does not reduce (a barrier sharing a generator with an
 * allreduce): no op, so the schedule is the same as without --gamma. */
static inline uint32_t reduced(ctx *c, const sg_params *p, uint64_t n, uint32_t after)
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
static inline uint32_t join(ctx *c, const ilist *l)
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

static inline unsigned ceil_log2(uint64_t x)
{
	unsigned k = 0;
	while (k < 64 && (UINT64_C(1) << k) < x)
		k++;
	return k;
}

static inline unsigned floor_log2(uint64_t x)
{
	return x ? 63u - (unsigned)__builtin_clzll(x) : 0u;
}

/* Ranks relative to the root: vrank 0 is the root. */
static inline uint64_t vrank(const ctx *c, uint64_t root)
{
	return (c->r + c->P - root) % c->P;
}
static inline uint64_t real(const ctx *c, uint64_t v, uint64_t root)
{
	return (v + root) % c->P;
}
static inline uint64_t vrank_of(const ctx *c, uint64_t r, uint64_t root)
{
	return (r + c->P - root) % c->P;
}

/* Segments of a message of size bytes cut in pieces of seg (0: one). */
static inline uint64_t nseg(uint64_t size, uint64_t seg)
{
	if (seg == 0 || size == 0)
		return 1;
	return size / seg + (size % seg != 0);
}
static inline uint64_t seg_size(uint64_t size, uint64_t seg, uint64_t k)
{
	if (seg == 0)
		return size;
	return size - k * seg < seg ? size - k * seg : seg;
}

static inline uint64_t sat_mul(uint64_t a, uint64_t b)
{
	return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

/* One MPI_Sendrecv: ssize bytes to `to` and rsize from `from` (tag tag),
 * both after `after`; returns the op that stands for both having ended,
 * which the next step waits for. */
static inline uint32_t sendrecv(ctx *c, uint64_t ssize, uint64_t to, uint64_t rsize,
                                uint64_t from, uint64_t tag, uint32_t after)
{
	c->la.n = 0;
	push(c, &c->la, send(c, ssize, to, tag, after));
	push(c, &c->la, recv(c, rsize, from, tag, after));
	return join(c, &c->la);
}

/* ---- Patterns ----------------------------------------------------------
 * Each g_* adds the ops of rank c->r for one run of a pattern; each t_*
 * gives the number of tags one run uses (tags 0..t-1 after the phase's
 * base).  docs/patterns.md describes them. */

typedef void gen_fn(ctx *c, const sg_params *p, uint64_t root);
typedef uint64_t tags_fn(const sg_params *p);

/* sg_pattern.c: the tags of a pattern in segments, and of recursive
 * doubling; the end of a phase (the next phase's ops require its last
 * ones); the generator and tags of pattern i of the table. */
tags_fn t_segments, t_recdoub;
void end_phase(ctx *c);
void pattern_fns(size_t i, gen_fn **g, tags_fn **t);

/* sg_rooted.c */
gen_fn g_bcast_scatter_allgather_ring, g_bcast_scatter_allgather, g_bcast_linear,
	g_bcast_chain_ompi, g_bcast_pipeline, g_bcast_binary_ompi, g_bcast_split_binary,
	g_bcast_knomial, g_reduce_linear, g_reduce_chain, g_reduce_pipeline, g_reduce_binary,
	g_reduce_binomial_ompi, g_reduce_in_order_binary, g_reduce_rabenseifner, g_scatter_binomial,
	g_scatter_linear_ompi, g_scatter_linear_nb, g_gather_binomial, g_gather_linear_sync,
	g_gather_linear_ompi, g_bcast_binomial_mpich, g_bcast_scatter_recdoub_mpich,
	g_bcast_scatter_ring_mpich;
tags_fn t_ring_bcast, t_scatter_allgather, t_split_binary, t_segments_and_one,
	t_reduce_rabenseifner;

/* sg_unrooted.c */
gen_fn g_allreduce_rabenseifner, g_allreduce_linear, g_allreduce_nonoverlapping,
	g_allreduce_recdoub_ompi, g_allreduce_ring_segmented, g_barrier_tree_ompi,
	g_barrier_double_ring, g_alltoall_pairwise, g_alltoall_bruck, g_allgather_ring,
	g_allgather_bruck, g_allgather_recdoub, g_allgather_neighbor, g_allgather_linear,
	g_reduce_scatter_block_linear, g_reduce_scatter_block_recdoub,
	g_reduce_scatter_block_rechalving, g_reduce_scatter_block_butterfly,
	g_reduce_scatter_nonoverlapping, g_reduce_scatter_ring, g_reduce_scatter_butterfly,
	g_scan_linear, g_scan_recdoub, g_exscan_linear, g_exscan_recdoub, g_alltoallv_linear,
	g_allgatherv_default, g_allgatherv_two_proc, g_allreduce_rabenseifner_mpich,
	g_reduce_scatter_pairwise, g_alltoall_scattered, g_alltoall_pairwise_mpich;
tags_fn t_steps, t_rabenseifner, t_nonoverlapping, t_ring_segmented, t_allgather_linear,
	t_reduce_scatter_block_linear, t_reduce_scatter_block_recdoub, t_fold,
	t_reduce_scatter_nonoverlapping, t_allgatherv_default, t_rabenseifner_mpich;

/* sg_unrooted.c: the pattern Open MPI picks for class cls on p->nranks
 * ranks and size bytes, its parameters in *q, its generator in *g; its
 * tags (0: none found, c->oom set). */
uint64_t ompi_pick(ctx *c, const char *cls, const sg_params *p, uint64_t size, sg_params *q,
                   gen_fn **g);

/* sg_han.c */
gen_fn g_allreduce_han, g_bcast_han;
tags_fn t_allreduce_han, t_bcast_han;

/* sg_nccl.c */
gen_fn g_allreduce_ring_nccl, g_allgather_ring_nccl, g_reduce_scatter_ring_nccl;
gen_fn g_bcast_ring_nccl, g_reduce_ring_nccl, g_allreduce_tree_nccl;
tags_fn t_allreduce_ring_nccl, t_ring_nccl, t_chain_nccl, t_tree_nccl;

#endif
