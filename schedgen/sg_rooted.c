/* sg_rooted.c: the rooted collectives as Open MPI and MPICH run them:
 * broadcasts, reduces, scatters and gathers, on Open MPI's trees and
 * linear, and the scatter-allgather broadcasts. */
#include "sg_pattern_int.h"

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
void g_bcast_scatter_allgather_ring(ctx *c, const sg_params *p, uint64_t root)
{
	scatter_ring(c, p, root, 1);
}
/* MPICH's scatter-ring-allgather broadcast
 * (MPIR_Bcast_intra_scatter_ring_allgather) sends the same, but scatters
 * fewer bytes than ranks too: blocks of one byte, the ranks from s on
 * getting none. */
void g_bcast_scatter_ring_mpich(ctx *c, const sg_params *p, uint64_t root)
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
void g_bcast_scatter_allgather(ctx *c, const sg_params *p, uint64_t root)
{
	scatter_recdoub(c, p, root, 1);
}
/* MPICH's scatter-recursive-doubling-allgather broadcast
 * (MPIR_Bcast_intra_scatter_recursive_doubling_allgather): the same, with
 * MPICH's scatter of fewer bytes than ranks (g_bcast_scatter_ring_mpich). */
void g_bcast_scatter_recdoub_mpich(ctx *c, const sg_params *p, uint64_t root)
{
	scatter_recdoub(c, p, root, 0);
}
uint64_t t_scatter_allgather(const sg_params *p)
{
	return 1 + 2 * (uint64_t)ceil_log2(p->nranks);
}

/* Tags of the scatter-allgather broadcast: the scatter's, then P-1 steps. */
uint64_t t_ring_bcast(const sg_params *p)
{
	return p->nranks > 1 ? p->nranks : 1;
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
void g_bcast_chain_ompi(ctx *c, const sg_params *p, uint64_t root)
{
	bcast_tree(c, p, root, TREE_CHAIN, p->fanout);
}
void g_bcast_pipeline(ctx *c, const sg_params *p, uint64_t root)
{
	bcast_tree(c, p, root, TREE_CHAIN, 1);
}
void g_bcast_binary_ompi(ctx *c, const sg_params *p, uint64_t root)
{
	bcast_tree(c, p, root, TREE_BINARY, 2);
}
void g_bcast_knomial(ctx *c, const sg_params *p, uint64_t root)
{
	bcast_tree(c, p, root, TREE_KNOMIAL, p->radix);
}
void g_reduce_chain(ctx *c, const sg_params *p, uint64_t root)
{
	reduce_tree(c, p, root, TREE_CHAIN, p->fanout);
}
void g_reduce_pipeline(ctx *c, const sg_params *p, uint64_t root)
{
	reduce_tree(c, p, root, TREE_CHAIN, 1);
}
void g_reduce_binary(ctx *c, const sg_params *p, uint64_t root)
{
	reduce_tree(c, p, root, TREE_BINARY, 2);
}
void g_reduce_binomial_ompi(ctx *c, const sg_params *p, uint64_t root)
{
	reduce_tree(c, p, root, TREE_BINOMIAL_IO, 0);
}

/* Open MPI's in-order binary reduce (reduce algorithm 6): up the in-order
 * binary tree rooted at rank P-1, which then sends the s bytes to the root
 * (tag: after the segments') when that is another rank. */
void g_reduce_in_order_binary(ctx *c, const sg_params *p, uint64_t root)
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
uint64_t t_segments_and_one(const sg_params *p)
{
	return nseg(p->size, p->segment) + 1;
}

/* Open MPI's linear broadcast (bcast algorithm 1): the root sends to every
 * other rank, in rank order, all at once. */
void g_bcast_linear(ctx *c, const sg_params *p, uint64_t root)
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
void g_reduce_linear(ctx *c, const sg_params *p, uint64_t root)
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
void g_bcast_split_binary(ctx *c, const sg_params *p, uint64_t root)
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
uint64_t t_split_binary(const sg_params *p)
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
void g_reduce_rabenseifner(ctx *c, const sg_params *p, uint64_t root)
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
uint64_t t_reduce_rabenseifner(const sg_params *p)
{
	return 3 + 2 * (uint64_t)floor_log2(p->nranks ? p->nranks : 1);
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
void g_scatter_linear_ompi(ctx *c, const sg_params *p, uint64_t root)
{
	linear_ompi(c, p, root, GOAL_SEND, 1);
}
void g_scatter_linear_nb(ctx *c, const sg_params *p, uint64_t root)
{
	linear_ompi(c, p, root, GOAL_SEND, 0);
}
void g_gather_linear_ompi(ctx *c, const sg_params *p, uint64_t root)
{
	linear_ompi(c, p, root, GOAL_RECV, 1);
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
void g_gather_binomial(ctx *c, const sg_params *p, uint64_t root)
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
void g_scatter_binomial(ctx *c, const sg_params *p, uint64_t root)
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
void g_gather_linear_sync(ctx *c, const sg_params *p, uint64_t root)
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
void g_bcast_binomial_mpich(ctx *c, const sg_params *p, uint64_t root)
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
