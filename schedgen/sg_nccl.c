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

/* The steps of a slice, the data of one message: Simple's rings 2
 * (*_SLICESTEPS), its chains 1 (BROADCAST_, REDUCE_SLICESTEPS), LL's and
 * LL128's 1. */
static uint64_t slice_steps(const sg_params *p, ring_kind kind)
{
	return p->protocol == SG_PROTO_SIMPLE && kind < RING_BROADCAST ? NCCL_STEPS / 4 : 1;
}

/* The data bytes of a slice. */
static uint64_t slice(const sg_params *p, ring_kind kind)
{
	return p->protocol == SG_PROTO_SIMPLE ? SIMPLE_STEP * slice_steps(p, kind) : chunk_of(p, kind);
}

uint64_t sg_nccl_wire(const sg_params *p, uint64_t n)
{
	switch (p->protocol) {
	case SG_PROTO_LL: return 2 * n;              /* 8 bytes a line for 4 of data, twice */
	case SG_PROTO_LL128: return (n / 120 + (n % 120 != 0)) * 128;
	default: return n;
	}
}

/* Most slices a step has: Simple's allreduce chunk of 4 steps in slices
 * of 2 (the others have one). */
#define MAX_SLICES 2

/* A collective on NCCL's rings: its kind, slices a chunk (the tags of a
 * step), steps a loop, and per channel the ops that stand for the
 * receives of its step before (slice by slice), which its next step's
 * sends require, as NCCL's FIFO of steps passes them on. */
typedef struct ring {
	const sg_params *p;
	ring_kind kind;
	uint64_t S, nsteps, nloops, root;
	uint32_t last[SG_MAX_CHANNELS][MAX_SLICES];
	uint8_t nlast[SG_MAX_CHANNELS];
	/* The receiver's FIFO: a channel's last W receives (W: NCCL_STEPS over
	 * the steps of a slice), receive n in win[n % W]; receive n is posted
	 * when receive n - W is done, as its slot of the FIFO is free then. */
	uint64_t W, nrecv[SG_MAX_CHANNELS];
	uint32_t win[SG_MAX_CHANNELS][NCCL_STEPS];
} ring;

/* The next receive of channel ch at rank r: b data bytes from rank from
 * with tag, once its slot of the FIFO is free. */
static uint32_t fifo_recv(ctx *c, ring *g, uint64_t ch, uint64_t b, uint64_t from, uint64_t tag)
{
	uint64_t n = g->nrecv[ch]++;
	uint32_t rv = add(c, GOAL_RECV, sg_nccl_wire(g->p, b), from, tag, (uint16_t)ch,
	                  n >= g->W ? g->win[ch][n % g->W] : NONE);
	g->win[ch][n % g->W] = rv;
	return rv;
}

/* Bytes of chunk k (0..P-1) of a loop whose chunks have real bytes and
 * whose data from the loop's start is rem bytes. */
static uint64_t chunk_bytes(uint64_t real, uint64_t rem, uint64_t k)
{
	if (rem <= k * real)
		return 0;
	return rem - k * real < real ? rem - k * real : real;
}

/* Step t of loop k of channel ch at rank r (channel ch on cpu ch): it
 * sends ssz bytes to the next rank and receives rsz bytes from the one
 * before, slice by slice, in the protocol's wire bytes; slice j of the
 * send requires slice j of the step before's receive (reduced when
 * reduces).  Tags: each step of each loop and channel S of its own. */
static void ring_step(ctx *c, ring *g, uint64_t ch, uint64_t k, uint64_t t, uint64_t ssz,
                      uint64_t rsz, int reduces)
{
	const sg_params *p = g->p;
	uint64_t P = c->P, r = c->r, sl = slice(p, g->kind);
	uint64_t ns = nseg(ssz, sl), nr = nseg(rsz, sl);
	uint64_t tag0 = ((ch * g->nloops + k) * g->nsteps + t) * g->S;
	uint32_t got[MAX_SLICES];
	uint8_t n = 0;
	for (uint64_t j = 0; j < ns || j < nr; j++) {
		if (j < ns)
			add(c, GOAL_SEND, sg_nccl_wire(p, seg_size(ssz, sl, j)), (r + 1) % P, tag0 + j,
			    (uint16_t)ch, j < g->nlast[ch] ? g->last[ch][j] : NONE);
		if (j < nr) {
			uint64_t b = seg_size(rsz, sl, j);
			uint32_t rv = fifo_recv(c, g, ch, b, (r + P - 1) % P, tag0 + j);
			got[n++] = reduces ? reduced(c, p, b, rv) : rv;
		}
	}
	memcpy(g->last[ch], got, n * sizeof got[0]);
	g->nlast[ch] = n;
}

/* Loop k at rank r on channel ch of a chain (broadcast: from the root to
 * root - 1; reduce: from root + 1 to the root), its chunk of n bytes:
 * slice by slice, a rank passes on what it received (a reduce: once
 * reduced), as broadcast.h's recvCopySend and reduce.h's recvReduceSend
 * do. */
static void chain_step(ctx *c, ring *g, uint64_t ch, uint64_t k, uint64_t n)
{
	const sg_params *p = g->p;
	uint64_t P = c->P, r = c->r, sl = slice(p, g->kind), tag0 = (ch * g->nloops + k) * g->S;
	uint64_t pos = (r + P - g->root - (g->kind == RING_REDUCE)) % P;   /* in the chain */
	for (uint64_t j = 0, ns = nseg(n, sl); j < ns; j++) {
		uint64_t b = seg_size(n, sl, j);
		uint32_t rv = NONE;
		if (pos > 0) {
			rv = fifo_recv(c, g, ch, b, (r + P - 1) % P, tag0 + j);
			if (g->kind == RING_REDUCE)
				rv = reduced(c, p, b, rv);
		}
		if (pos + 1 < P)
			add(c, GOAL_SEND, sg_nccl_wire(p, b), (r + 1) % P, tag0 + j, (uint16_t)ch, rv);
	}
}

/* Step t of loop k at rank r on channel ch, whose chunks have real bytes
 * and whose part of the loop's data has mine bytes: step t sends chunk
 * r - t and receives chunk r - t - 1 (allreduce: P chunks, reduced in the
 * first P - 1 steps; allgather and reduce-scatter: each chunk a rank's
 * block, all of one size, reduced by the reduce-scatter). */
static void nccl_step(ctx *c, ring *g, uint64_t ch, uint64_t k, uint64_t t, uint64_t real,
                      uint64_t mine)
{
	uint64_t P = c->P, r = c->r;
	if (g->kind >= RING_BROADCAST) {
		chain_step(c, g, ch, k, mine < real ? mine : real);
	} else if (g->kind == RING_ALLREDUCE) {
		uint64_t sc = (r + P - t % P) % P;
		ring_step(c, g, ch, k, t, chunk_bytes(real, mine, sc),
		          chunk_bytes(real, mine, (sc + P - 1) % P), t + 1 < P);
	} else {
		uint64_t n = mine < real ? mine : real;
		ring_step(c, g, ch, k, t, n, n, g->kind == RING_REDUCE_SCATTER);
	}
}

/* NCCL's ring of kind over p->channels channels: the data (allreduce,
 * broadcast, reduce: the vector; allgather and reduce-scatter: one rank's
 * block) in loops of channels x chunks (a loop's chunk, real, as NCCL's
 * runRing: min(chunk, the rest over channels x units)).  The ops go step
 * by step, each step of every channel before the next step: NCCL's
 * channels run at once, and a rank's receives are posted in the order
 * their messages come. */
static void nccl_ring(ctx *c, const sg_params *p, ring_kind kind, uint64_t root)
{
	uint64_t P = c->P, C = p->channels ? p->channels : 1, chunk = chunk_of(p, kind);
	uint64_t units = kind == RING_ALLREDUCE ? P : 1;   /* chunks of a channel's loop */
	if (C > SG_MAX_CHANNELS)   /* the callers' limit (schedgen, trace2goal) */
		C = SG_MAX_CHANNELS;
	uint64_t per_loop = C * units * chunk;
	ring g = { p, kind, nseg(chunk, slice(p, kind)),
	           kind == RING_ALLREDUCE ? 2 * P - 2 : kind >= RING_BROADCAST ? 1 : P - 1,
	           p->size / per_loop + (p->size % per_loop != 0), root, { { 0 } }, { 0 },
	           NCCL_STEPS / slice_steps(p, kind), { 0 }, { { 0 } } };
	if (P < 2 || !p->size)     /* NCCL launches nothing for 0 bytes */
		return;
	for (uint64_t k = 0; k < g.nloops; k++) {
		uint64_t left = p->size - k * per_loop;
		uint64_t real = left / (C * units) + (left % (C * units) != 0);
		real = real < chunk ? real : chunk;
		for (uint64_t t = 0; t < g.nsteps; t++)
			for (uint64_t ch = 0; ch < C; ch++)
				nccl_step(c, &g, ch, k, t, real,
				          left > ch * units * real ? left - ch * units * real : 0);
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
