/* sg_nccl.c: NCCL's ring collectives (docs/patterns.md, "NCCL"): the data
 * cut over channels, each channel a ring that moves its chunks step by
 * step, in slices of the protocol's size and in the protocol's wire
 * bytes. */
#include "sg_pattern_int.h"

/* NCCL's buffers (its device.h and proxy defaults, 2.18): NCCL_STEPS 8
 * steps a buffer; Simple: 4 MiB, a chunk of 4 steps (ALLREDUCE_CHUNKSTEPS,
 * NCCL_STEPS / 2) sent in slices of 2 (ALLREDUCE_SLICESTEPS); LL: 8 lines
 * of 16 bytes a thread, 512 threads, 8 data bytes a line; LL128: 120
 * 8-byte elements a thread, 640 threads, 120 data bytes a 128-byte line. */
#define NCCL_STEPS 8
#define SIMPLE_STEP ((4u << 20) / NCCL_STEPS)
#define LL_STEP (8u * 512u * 16u / 2u)
#define LL128_STEP (120u * 640u * 8u / 128u * 120u)

const char *const sg_protocol_name[SG_NPROTOCOLS] = { "simple", "ll", "ll128" };

/* The kinds of NCCL ring: steps of a loop (over P chunks), which of them
 * reduce what they receive, and the chunks of a loop's data.  Broadcast
 * and reduce are chains along the ring (one step a loop). */
typedef enum { RING_ALLREDUCE, RING_ALLGATHER, RING_REDUCE_SCATTER, RING_BROADCAST,
               RING_REDUCE } ring_kind;

/* The data bytes of a chunk of kind: Simple's chunk is ALLREDUCE_CHUNKSTEPS
 * (and ALLGATHER_, REDUCESCATTER_) 4 steps, BROADCAST_CHUNKSTEPS and
 * REDUCE_CHUNKSTEPS 1; LL's and LL128's are one step. */
static uint64_t chunk_of(const sg_params *p, ring_kind kind)
{
	switch (p->protocol) {
	case SG_PROTO_LL: return LL_STEP;
	case SG_PROTO_LL128: return LL128_STEP;
	default: return (uint64_t)SIMPLE_STEP * (kind >= RING_BROADCAST ? 1 : NCCL_STEPS / 2);
	}
}

uint64_t sg_nccl_chunk(const sg_params *p)
{
	return chunk_of(p, RING_ALLREDUCE);
}

/* The data bytes of one message: a slice (Simple: 2 steps, *_SLICESTEPS;
 * broadcast and reduce: 1). */
static uint64_t slice(const sg_params *p, ring_kind kind)
{
	return p->protocol == SG_PROTO_SIMPLE && kind < RING_BROADCAST ? (uint64_t)SIMPLE_STEP * (NCCL_STEPS / 4)
	                                                              : chunk_of(p, kind);
}

uint64_t sg_nccl_wire(const sg_params *p, uint64_t n)
{
	switch (p->protocol) {
	case SG_PROTO_LL: return 2 * n;              /* 8 bytes a line for 4 of data, twice */
	case SG_PROTO_LL128: return (n / 120 + (n % 120 != 0)) * 128;
	default: return n;
	}
}

/* A loop of a channel: nsteps steps, each sending the chunk that the
 * step before received, chunk bytes (the last chunks of the data may be
 * shorter: sizes[k] for chunk k of the loop). */
typedef struct ring {
	const sg_params *p;
	ring_kind kind;
	uint64_t S;                  /* slices of the largest chunk: tags of a step */
	uint64_t step;               /* steps so far, every loop and channel */
} ring;

/* Bytes of chunk k (0..P-1) of a loop whose chunks have real bytes and
 * whose data from the loop's start is rem bytes. */
static uint64_t chunk_bytes(uint64_t real, uint64_t rem, uint64_t k)
{
	if (rem <= k * real)
		return 0;
	return rem - k * real < real ? rem - k * real : real;
}

/* One loop of a channel at rank r: its steps, slice by slice; slice j of
 * a step's send requires slice j of the step before's receive (c->la),
 * as NCCL's FIFO of steps passes them on. */
static void ring_loop(ctx *c, ring *g, uint64_t real, uint64_t rem, uint16_t cpu)
{
	const sg_params *p = g->p;
	uint64_t P = c->P, r = c->r, sl = slice(p, g->kind);
	uint64_t nsteps = g->kind == RING_ALLREDUCE ? 2 * P - 2 : P - 1;
	for (uint64_t t = 0; t < nsteps; t++, g->step++) {
		/* step t sends chunk r - t, receives chunk r - t - 1 */
		uint64_t sc = (r + P - t % P) % P, rc = (sc + P - 1) % P;
		uint64_t ssz = chunk_bytes(real, rem, sc), rsz = chunk_bytes(real, rem, rc);
		uint64_t ns = nseg(ssz, sl), nr = nseg(rsz, sl);
		int reduces = g->kind == RING_REDUCE_SCATTER || (g->kind == RING_ALLREDUCE && t + 1 < P);
		c->lb.n = 0;
		for (uint64_t j = 0; j < ns || j < nr; j++) {
			uint64_t tag = g->step * g->S + j;
			if (j < ns)
				add(c, GOAL_SEND, sg_nccl_wire(p, seg_size(ssz, sl, j)), (r + 1) % P, tag, cpu,
				    j < c->la.n ? c->la.v[j] : NONE);
			if (j < nr) {
				uint32_t rv = add(c, GOAL_RECV, sg_nccl_wire(p, seg_size(rsz, sl, j)),
				                  (r + P - 1) % P, tag, cpu, NONE);
				push(c, &c->lb, reduces ? reduced(c, p, seg_size(rsz, sl, j), rv) : rv);
			}
		}
		ilist tmp = c->la;
		c->la = c->lb;
		c->lb = tmp;
	}
}

/* One loop of a channel at rank r of a chain (broadcast: from the root
 * to root - 1; reduce: from root + 1 to the root), whose chunk has n
 * bytes: slice by slice, a rank passes on what it received (a reduce:
 * once reduced), as broadcast.h's recvCopySend and reduce.h's
 * recvReduceSend do. */
static void chain_loop(ctx *c, ring *g, uint64_t n, uint64_t root, uint16_t cpu)
{
	const sg_params *p = g->p;
	uint64_t P = c->P, r = c->r, sl = slice(p, g->kind);
	uint64_t pos = (r + P - root - (g->kind == RING_REDUCE)) % P;   /* in the chain */
	for (uint64_t j = 0, ns = nseg(n, sl); j < ns; j++) {
		uint64_t tag = g->step * g->S + j, b = seg_size(n, sl, j);
		uint32_t rv = NONE;
		if (pos > 0) {
			rv = add(c, GOAL_RECV, sg_nccl_wire(p, b), (r + P - 1) % P, tag, cpu, NONE);
			if (g->kind == RING_REDUCE)
				rv = reduced(c, p, b, rv);
		}
		if (pos + 1 < P)
			add(c, GOAL_SEND, sg_nccl_wire(p, b), (r + 1) % P, tag, cpu, rv);
	}
	g->step++;
}

/* NCCL's ring of kind over p->channels channels, channel k on cpu k:
 * the data (allreduce, broadcast, reduce: the vector; allgather and
 * reduce-scatter: one rank's block) in loops of channels x chunks (a
 * loop's chunk, real, as NCCL's runRing: min(chunk, the rest over
 * channels x units)). */
static void nccl_ring(ctx *c, const sg_params *p, ring_kind kind, uint64_t root)
{
	uint64_t P = c->P, C = p->channels ? p->channels : 1, chunk = chunk_of(p, kind);
	uint64_t units = kind == RING_ALLREDUCE ? P : 1;   /* chunks of a channel's loop */
	ring g = { p, kind, nseg(chunk, slice(p, kind)), 0 };
	if (P < 2 || !p->size)     /* NCCL launches nothing for 0 bytes */
		return;
	for (uint64_t ch = 0; ch < C; ch++) {
		c->la.n = 0;
		for (uint64_t off = 0; off < p->size; off += C * units * chunk) {
			uint64_t left = p->size - off;
			uint64_t real = left / (C * units) + (left % (C * units) != 0);
			real = real < chunk ? real : chunk;
			uint64_t mine = left > ch * units * real ? left - ch * units * real : 0;
			/* allgather and reduce-scatter: every chunk of a loop is a
			 * rank's block, all of one size */
			if (kind == RING_ALLREDUCE)
				ring_loop(c, &g, real, mine, (uint16_t)ch);
			else if (kind >= RING_BROADCAST)
				chain_loop(c, &g, mine < real ? mine : real, root, (uint16_t)ch);
			else
				ring_loop(c, &g, mine < real ? mine : real, (mine < real ? mine : real) * P,
				          (uint16_t)ch);
		}
	}
}

void g_allreduce_ring_nccl(ctx *c, const sg_params *p, uint64_t root)
{
	(void)root;
	nccl_ring(c, p, RING_ALLREDUCE, 0);
}

void g_allgather_ring_nccl(ctx *c, const sg_params *p, uint64_t root)
{
	(void)root;
	nccl_ring(c, p, RING_ALLGATHER, 0);
}

void g_reduce_scatter_ring_nccl(ctx *c, const sg_params *p, uint64_t root)
{
	(void)root;
	nccl_ring(c, p, RING_REDUCE_SCATTER, 0);
}

void g_bcast_ring_nccl(ctx *c, const sg_params *p, uint64_t root)
{
	nccl_ring(c, p, RING_BROADCAST, root);
}

void g_reduce_ring_nccl(ctx *c, const sg_params *p, uint64_t root)
{
	nccl_ring(c, p, RING_REDUCE, root);
}

/* Tags: every step of every loop and channel, a tag per slice. */
static uint64_t tags(const sg_params *p, ring_kind kind, uint64_t steps_per_loop, uint64_t units)
{
	uint64_t C = p->channels ? p->channels : 1, chunk = chunk_of(p, kind);
	uint64_t per_loop = C * units * chunk;
	uint64_t loops = p->size ? p->size / per_loop + (p->size % per_loop != 0) : 1;
	return sat_mul(sat_mul(sat_mul(C, loops), steps_per_loop), nseg(chunk, slice(p, kind)));
}

uint64_t t_allreduce_ring_nccl(const sg_params *p)
{
	return p->nranks < 2 ? 1 : tags(p, RING_ALLREDUCE, 2 * p->nranks - 2, p->nranks);
}

uint64_t t_ring_nccl(const sg_params *p)
{
	return p->nranks < 2 ? 1 : tags(p, RING_ALLGATHER, p->nranks - 1, 1);
}

uint64_t t_chain_nccl(const sg_params *p)
{
	return p->nranks < 2 ? 1 : tags(p, RING_BROADCAST, 1, 1);
}
