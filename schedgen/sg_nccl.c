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

/* The channels of p: 1..SG_MAX_CHANNELS (the callers check the bound,
 * schedgen and trace2goal). */
static uint64_t channels_of(const sg_params *p)
{
	uint64_t C = p->channels ? p->channels : 1;
	return C < SG_MAX_CHANNELS ? C : SG_MAX_CHANNELS;
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
#define MAX_FIFOS (4 * SG_MAX_CHANNELS)

/* A rank's receive FIFOs, one a connection (a channel's ring has one,
 * its tree four: three children and the parent): a FIFO's last W receives
 * (W: NCCL_STEPS over the steps of a slice), receive n in win[n % W];
 * receive n is posted when receive n - W is done, as its slot of the FIFO
 * is free then. */
typedef struct fifos {
	const sg_params *p;
	uint64_t W, nrecv[MAX_FIFOS];
	uint32_t win[MAX_FIFOS][NCCL_STEPS];
} fifos;

/* The next receive of FIFO f on cpu at rank r: b data bytes from rank
 * from with tag, once its slot is free. */
static uint32_t fifo_recv(ctx *c, fifos *q, uint64_t f, uint16_t cpu, uint64_t b, uint64_t from,
                          uint64_t tag)
{
	uint64_t n = q->nrecv[f]++;
	uint32_t rv = add(c, GOAL_RECV, sg_nccl_wire(q->p, b), from, tag, cpu,
	                  n >= q->W ? q->win[f][n % q->W] : NONE);
	q->win[f][n % q->W] = rv;
	return rv;
}

/* ---- Channels on nodes ---------------------------------------------------- */

/* NCCL's channels leave a node through different GPUs, each with a NIC of
 * its own: channel ch visits the ranks of a node from local rank ch (mod
 * the node's ranks) on, so that its ring enters the node there and its
 * trees have their node's head there (the ring's order within the node,
 * as connect.cc's ncclTopoPreset takes the trees' from the rings').  A
 * place in channel ch's order is a node's first rank plus an offset;
 * nodes of K ranks, the last of P - its first. */
typedef struct order {
	uint64_t P, K, ch;
} order;

static order order_of(const sg_params *p, uint64_t P, uint64_t ch)
{
	order o = { P, p->ranks_per_node ? p->ranks_per_node : 1, ch };
	return o;
}

/* The ranks of the node whose first rank is first. */
static uint64_t node_ranks(const order *o, uint64_t first)
{
	return o->P - first < o->K ? o->P - first : o->K;
}

/* Rank r's place in the order. */
static uint64_t place_of(const order *o, uint64_t r)
{
	uint64_t first = r - r % o->K, L = node_ranks(o, first);
	return first + (r - first + L - o->ch % L) % L;
}

/* The rank at place q of the order. */
static uint64_t rank_at(const order *o, uint64_t q)
{
	uint64_t first = q - q % o->K, L = node_ranks(o, first);
	return first + (q - first + o->ch) % L;
}

/* The rank's place in a channel's ring (order), its neighbours there, and
 * its place in the chain of a broadcast or reduce. */
typedef struct ring_at {
	uint64_t place, next, prev, pos;
} ring_at;

/* A collective on NCCL's rings: its kind, slices a chunk (the tags of a
 * step), steps a loop, and per channel the rank's place in the ring and
 * the ops that stand for the receives of its step before (slice by
 * slice), which its next step's sends require, as NCCL's FIFO of steps
 * passes them on. */
typedef struct ring {
	const sg_params *p;
	ring_kind kind;
	uint64_t S, nsteps, nloops;
	ring_at at[SG_MAX_CHANNELS];
	uint32_t last[SG_MAX_CHANNELS][MAX_SLICES];
	uint8_t nlast[SG_MAX_CHANNELS];
	fifos q;
} ring;

/* Rank r's places on channel ch's ring of P ranks, root the chains' (a
 * broadcast: from the root to the rank before it; a reduce: from the rank
 * after it to the root). */
static ring_at ring_at_of(const sg_params *p, ring_kind kind, uint64_t P, uint64_t ch, uint64_t r,
                          uint64_t root)
{
	order o = order_of(p, P, ch);
	uint64_t q = place_of(&o, r);
	ring_at a = { q, rank_at(&o, (q + 1) % P), rank_at(&o, (q + P - 1) % P),
	              (q + P - place_of(&o, root) - (kind == RING_REDUCE)) % P };
	return a;
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
	uint64_t sl = slice(p, g->kind), next = g->at[ch].next, prev = g->at[ch].prev;
	uint64_t ns = nseg(ssz, sl), nr = nseg(rsz, sl);
	uint64_t tag0 = ((ch * g->nloops + k) * g->nsteps + t) * g->S;
	uint32_t got[MAX_SLICES];
	uint8_t n = 0;
	for (uint64_t j = 0; j < ns || j < nr; j++) {
		if (j < ns)
			add(c, GOAL_SEND, sg_nccl_wire(p, seg_size(ssz, sl, j)), next, tag0 + j,
			    (uint16_t)ch, j < g->nlast[ch] ? g->last[ch][j] : NONE);
		if (j < nr) {
			uint64_t b = seg_size(rsz, sl, j);
			uint32_t rv = fifo_recv(c, &g->q, ch, (uint16_t)ch, b, prev, tag0 + j);
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
	uint64_t P = c->P, sl = slice(p, g->kind), tag0 = (ch * g->nloops + k) * g->S;
	uint64_t next = g->at[ch].next, prev = g->at[ch].prev, pos = g->at[ch].pos;
	for (uint64_t j = 0, ns = nseg(n, sl); j < ns; j++) {
		uint64_t b = seg_size(n, sl, j);
		uint32_t rv = NONE;
		if (pos > 0) {
			rv = fifo_recv(c, &g->q, ch, (uint16_t)ch, b, prev, tag0 + j);
			if (g->kind == RING_REDUCE)
				rv = reduced(c, p, b, rv);
		}
		if (pos + 1 < P)
			add(c, GOAL_SEND, sg_nccl_wire(p, b), next, tag0 + j, (uint16_t)ch, rv);
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
	uint64_t P = c->P;
	if (g->kind >= RING_BROADCAST) {
		chain_step(c, g, ch, k, mine < real ? mine : real);
	} else if (g->kind == RING_ALLREDUCE) {
		uint64_t sc = (g->at[ch].place + P - t % P) % P;
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
	uint64_t P = c->P, C = channels_of(p), chunk = chunk_of(p, kind);
	uint64_t units = kind == RING_ALLREDUCE ? P : 1;   /* chunks of a channel's loop */
	uint64_t per_loop = C * units * chunk;
	ring g = { p, kind, nseg(chunk, slice(p, kind)),
	           kind == RING_ALLREDUCE ? 2 * P - 2 : kind >= RING_BROADCAST ? 1 : P - 1,
	           nseg(p->size, per_loop), { { 0, 0, 0, 0 } }, { { 0 } }, { 0 },
	           { p, NCCL_STEPS / slice_steps(p, kind), { 0 }, { { 0 } } } };
	if (P < 2 || !p->size)     /* NCCL launches nothing for 0 bytes */
		return;
	for (uint64_t ch = 0; ch < C; ch++)
		g.at[ch] = ring_at_of(p, kind, P, ch, c->r, root);
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

/* ---- The double binary tree (allreduce) ----------------------------------- */

/* NCCL's binary tree over n nodes (trees.cc, ncclGetBtree; root 0): node
 * x's parent and children (-1: none), and whether x is its parent's
 * second child (its number above the parent's). */
static void btree(int64_t n, int64_t x, int64_t *up, int64_t *d0, int64_t *d1, int *second)
{
	int64_t bit = 1;
	while (bit < n && !(bit & x))
		bit <<= 1;
	*second = 0;
	if (x == 0) {
		*up = *d0 = -1;
		*d1 = n > 1 ? bit >> 1 : -1;
		return;
	}
	*up = (x ^ bit) | (bit << 1);
	if (*up >= n)
		*up = x ^ bit;
	*second = x > *up;
	int64_t low = bit >> 1;
	*d0 = low ? x - low : -1;
	*d1 = low ? x + low : -1;
	while (*d1 >= n) {
		low >>= 1;
		*d1 = low ? x + low : -1;
	}
}

/* Tree t (0, or 1: ncclGetDtree's second, the first mirrored for an even
 * number of nodes and shifted by one for an odd) at node x of n. */
static void dtree(int t, int64_t n, int64_t x, int64_t *up, int64_t *d0, int64_t *d1, int *second)
{
	if (!t) {
		btree(n, x, up, d0, d1, second);
		return;
	}
	int odd = n % 2;
	btree(n, odd ? (x - 1 + n) % n : n - 1 - x, up, d0, d1, second);
	int64_t *v[3] = { up, d0, d1 };
	for (int k = 0; k < 3; k++)
		if (*v[k] >= 0)
			*v[k] = odd ? (*v[k] + 1) % n : n - 1 - *v[k];
}

/* Rank r's place in tree t: its parent (-1: the root) and its children
 * (nd of them, at most 3).  Nodes of K ranks (the last may have fewer)
 * are chains, local rank i's parent i - 1 and child i + 1, as
 * connect.cc's ncclTopoPreset sets them; between nodes the tree of the
 * nodes, in NCCL's balanced pattern: local rank 0 faces the parent node
 * and the second child node, local rank 1 (0 on a node of one) the first
 * (connectTrees). */
typedef struct tree_pos {
	int64_t up, down[3];
	unsigned nd;
} tree_pos;

static tree_pos tree_at(uint64_t P, uint64_t K, int t, uint64_t r)
{
	int64_t n = (int64_t)((P + K - 1) / K), x = (int64_t)(r / K), i = (int64_t)(r % K);
	int64_t up, d0, d1;
	int second;
	tree_pos tp = { -1, { 0 }, 0 };
#define LOCAL(node) ((int64_t)(P - (uint64_t)(node) * K < K ? P - (uint64_t)(node) * K : K))
#define CHILD0(node) (LOCAL(node) >= 2 ? 1 : 0)
	dtree(t, n, x, &up, &d0, &d1, &second);
	if (i > 0)
		tp.up = (int64_t)r - 1;
	else if (up >= 0)
		tp.up = up * (int64_t)K + (second ? 0 : CHILD0(up));
	if (i + 1 < LOCAL(x))
		tp.down[tp.nd++] = (int64_t)r + 1;
	if (i == CHILD0(x) && d0 >= 0)
		tp.down[tp.nd++] = d0 * (int64_t)K;
	if (i == 0 && d1 >= 0)
		tp.down[tp.nd++] = d1 * (int64_t)K;
#undef CHILD0
#undef LOCAL
	return tp;
}

/* Rank r's place in tree t of channel ch (its ranks in the channel's order). */
static tree_pos tree_of(const order *o, int t, uint64_t r)
{
	tree_pos tp = tree_at(o->P, o->K, t, place_of(o, r));
	if (tp.up >= 0)
		tp.up = (int64_t)rank_at(o, (uint64_t)tp.up);
	for (unsigned j = 0; j < tp.nd; j++)
		tp.down[j] = (int64_t)rank_at(o, (uint64_t)tp.down[j]);
	return tp;
}

/* The depth NCCL reckons for its trees (connectTrees): the ranks of a
 * node less one, plus log2 of the nodes. */
static uint64_t tree_depth(uint64_t P, uint64_t K)
{
	uint64_t n = (P + K - 1) / K, d = 0;
	while (n >>= 1)
		d++;
	return (P < K ? P : K) - 1 + d;
}

/* The data bytes of the tree's chunk (enqueue.cc) on C channels:
 * Simple's one step, halved while the chunks a channel moves are few
 * against the depth; LL128's one step of 614400 wire bytes, halved while
 * they are few against 1 + floor(log2 nodes) + ppn / 10 (its own rule,
 * on the wire bytes, the data then 120 of every 128); LL's one step; at
 * most the data over the channels (one loop). */
static uint64_t tree_chunk(const sg_params *p, uint64_t C)
{
	uint64_t K = p->ranks_per_node ? p->ranks_per_node : 1;
	uint64_t c = chunk_of(p, RING_BROADCAST), d = tree_depth(p->nranks, K);
	if (p->protocol == SG_PROTO_SIMPLE) {
		while (p->size / (C * c) < d * 8 && c > 131072)
			c /= 2;
		while (p->size / (C * c) < d * 4 && c > 65536)
			c /= 2;
		while (p->size / (C * c) < d && c > 32768)
			c /= 2;
	} else if (p->protocol == SG_PROTO_LL128) {
		uint64_t nodes = (p->nranks + K - 1) / K, w = sg_nccl_wire(p, c);
		double ppn = (double)p->nranks / (double)nodes;
		double steps = 1.0 + (double)floor_log2(nodes) + 0.1 * ppn;
		while ((double)(p->size / (C * w)) < steps * 64 / ppn && w > 131072)
			w /= 2;
		while ((double)(p->size / (C * w)) < steps * 16 / ppn && w > 32768)
			w /= 2;
		c = w / 128 * 120;
	}
	return nseg(p->size, C) < c ? nseg(p->size, C) : c;
}

/* NCCL's tree allreduce (all_reduce.h, runTreeSplit): channel ch on tree
 * 0 for the first half of the channels, tree 1 for the others; the data
 * in loops of C chunks, channel ch's chunk the ch-th.  A rank receives
 * its children's chunks and reduces them, then sends the sum to its
 * parent (cpu 2 ch); apart, it receives the result from its parent and
 * sends it to its children (cpu 2 ch + 1).  The root reduces and sends
 * the result down.  One message a chunk.  Each channel's trees take its
 * order of a node's ranks (order). */
void g_allreduce_tree_nccl(ctx *c, const sg_params *p, uint64_t root)
{
	(void)root;
	uint64_t P = c->P, C = channels_of(p);
	if (P < 2 || !p->size)
		return;
	uint64_t chunk = tree_chunk(p, C), per_loop = C * chunk, nloops = nseg(p->size, per_loop);
	fifos q = { p, NCCL_STEPS, { 0 }, { { 0 } } };
	tree_pos tp[SG_MAX_CHANNELS];
	for (uint64_t ch = 0; ch < C; ch++) {
		order o = order_of(p, P, ch);
		tp[ch] = tree_of(&o, 2 * ch >= C + (C % 2) ? 1 : 0, c->r);
	}
	for (uint64_t k = 0; k < nloops; k++)
		for (uint64_t ch = 0; ch < C; ch++) {
			uint64_t off = k * per_loop + ch * chunk;
			if (off >= p->size)
				continue;
			uint64_t n = p->size - off < chunk ? p->size - off : chunk, w = sg_nccl_wire(p, n);
			const tree_pos *t = &tp[ch];
			uint64_t tag = (ch * nloops + k) * 2;
			uint16_t up = (uint16_t)(2 * ch), dn = (uint16_t)(2 * ch + 1);
			ilist *got = &c->la;
			got->n = 0;
			for (unsigned j = 0; j < t->nd; j++) {
				uint32_t rv = fifo_recv(c, &q, 4 * ch + j, up, n, (uint64_t)t->down[j], tag);
				push(c, got, reduced(c, p, n, rv));
			}
			uint32_t sum = join(c, got);
			if (t->up < 0) {
				for (unsigned j = 0; j < t->nd; j++)
					add(c, GOAL_SEND, w, (uint64_t)t->down[j], tag + 1, up, sum);
				continue;
			}
			add(c, GOAL_SEND, w, (uint64_t)t->up, tag, up, sum);
			uint32_t res = fifo_recv(c, &q, 4 * ch + 3, dn, n, (uint64_t)t->up, tag + 1);
			for (unsigned j = 0; j < t->nd; j++)
				add(c, GOAL_SEND, w, (uint64_t)t->down[j], tag + 1, dn, res);
		}
}

uint64_t t_tree_nccl(const sg_params *p)
{
	uint64_t C = channels_of(p);
	if (p->nranks < 2 || !p->size)
		return 1;
	return sat_mul(sat_mul(C, nseg(p->size, C * tree_chunk(p, C))), 2);
}

/* Tags: every step of every loop and channel, a tag per slice. */
static uint64_t tags(const sg_params *p, ring_kind kind, uint64_t steps_per_loop, uint64_t units)
{
	uint64_t C = channels_of(p), chunk = chunk_of(p, kind);
	uint64_t loops = nseg(p->size, C * units * chunk);
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
