/* sg_unrooted.c: the collectives without a root as Open MPI and MPICH run
 * them: allgathers, allreduces, alltoalls, barriers, reduce-scatters,
 * scans and the v-collectives, and those of Open MPI's that run its own
 * pick of other collectives (sg_select). */
#include "sg_pattern_int.h"
#include "sg_select.h"

#include <string.h>

/* Open MPI's ring allgather (coll_tuned allgather algorithm 4,
 * ompi_coll_base_allgather_intra_ring): P-1 steps; in step i rank r sends
 * the block it received in step i-1 (its own first) to r+1 and receives
 * the next from r-1, one MPI_Sendrecv a step (tag i). */
void g_allgather_ring(ctx *c, const sg_params *p, uint64_t root)
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
void g_alltoall_pairwise(ctx *c, const sg_params *p, uint64_t root)
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
void g_allgather_bruck(ctx *c, const sg_params *p, uint64_t root)
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
void g_allgather_recdoub(ctx *c, const sg_params *p, uint64_t root)
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
void g_allgather_neighbor(ctx *c, const sg_params *p, uint64_t root)
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
void g_allreduce_rabenseifner(ctx *c, const sg_params *p, uint64_t root)
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
uint64_t t_rabenseifner(const sg_params *p)
{
	return 2 * (uint64_t)floor_log2(p->nranks ? p->nranks : 1) + 3;
}

/* Tags of a pattern of P-1 steps. */
uint64_t t_steps(const sg_params *p)
{
	return p->nranks > 2 ? p->nranks - 1 : 1;
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
void g_allreduce_linear(ctx *c, const sg_params *p, uint64_t root)
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
void g_allreduce_recdoub_ompi(ctx *c, const sg_params *p, uint64_t root)
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
void g_allreduce_ring_segmented(ctx *c, const sg_params *p, uint64_t root)
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
uint64_t t_ring_segmented(const sg_params *p)
{
	uint64_t P = p->nranks, n = ring_phases(p->size, P, p->segment);
	if (P < 2)
		return 1;
	if (p->size < P)
		return t_recdoub(p);
	return sat_mul(n ? n + 1 : 2, P - 1);
}

/* Open MPI's tree barrier (barrier algorithm 6,
 * ompi_coll_base_barrier_intra_tree): rank r receives from r + 2^k for
 * each 2^k below its lowest set bit (all, for rank 0) in increasing order
 * (tag 0), then sends to r - lowbit(r); then it receives from that rank
 * and sends to the same ranks as before in decreasing order (tag 1).  One
 * blocking call after the other. */
void g_barrier_tree_ompi(ctx *c, const sg_params *p, uint64_t root)
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
void g_barrier_double_ring(ctx *c, const sg_params *p, uint64_t root)
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

/* Open MPI's Bruck alltoall (alltoall algorithm 3,
 * ompi_coll_base_alltoall_intra_bruck): step k (distance d = 2^k < P) is
 * one MPI_Sendrecv to r+d and from r-d of the blocks i = 1 .. P-1 whose
 * bit k is set, s bytes each (tag k). */
void g_alltoall_bruck(ctx *c, const sg_params *p, uint64_t root)
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
uint64_t ompi_pick(ctx *c, const char *cls, const sg_params *p, uint64_t size, sg_params *q,
                   gen_fn **g)
{
	return ompi_pick_as(c, cls, p, size, 0, q, g);
}

/* Open MPI's nonoverlapping allreduce (allreduce algorithm 2,
 * ompi_coll_base_allreduce_intra_nonoverlapping): a reduce to rank 0, then
 * a broadcast from it, each the algorithm Open MPI picks for P ranks and s
 * bytes (sg_select). */
void g_allreduce_nonoverlapping(ctx *c, const sg_params *p, uint64_t root)
{
	sg_params pr, pb;
	gen_fn *gr, *gb;
	uint64_t tr = ompi_pick(c, "reduce", p, p->size, &pr, &gr);
	(void)root;
	if (tr && ompi_pick(c, "bcast", p, p->size, &pb, &gb))
		then(c, gr, &pr, tr, gb, &pb, 0);
}
uint64_t t_nonoverlapping(const sg_params *p)
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
void g_allgather_linear(ctx *c, const sg_params *p, uint64_t root)
{
	sg_params pg, pb;
	gen_fn *gg, *gb;
	uint64_t tg = ompi_pick(c, "gather", p, p->size, &pg, &gg);
	(void)root;
	if (tg && ompi_pick(c, "bcast", p, sat_mul(p->size, p->nranks), &pb, &gb))
		then(c, gg, &pg, tg, gb, &pb, 0);
}
uint64_t t_allgather_linear(const sg_params *p)
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
void g_reduce_scatter_block_linear(ctx *c, const sg_params *p, uint64_t root)
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
uint64_t t_reduce_scatter_block_linear(const sg_params *p)
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
void g_reduce_scatter_block_recdoub(ctx *c, const sg_params *p, uint64_t root)
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
uint64_t t_reduce_scatter_block_recdoub(const sg_params *p)
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
void g_reduce_scatter_block_rechalving(ctx *c, const sg_params *p, uint64_t root)
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
uint64_t t_fold(const sg_params *p)
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
void g_reduce_scatter_block_butterfly(ctx *c, const sg_params *p, uint64_t root)
{
	(void)root;
	butterfly(c, p, 1);
}

/* Open MPI's non-overlapping reduce-scatter (reduce_scatter algorithm 1,
 * ompi_coll_base_reduce_scatter_intra_nonoverlapping): a reduce of all P*s
 * bytes to rank 0, the algorithm Open MPI picks (sg_select: reduce for
 * P*s bytes), then coll/basic's scatterv of the s-byte blocks from rank 0
 * (its basic linear scatter's messages: g_scatter_linear_ompi). */
void g_reduce_scatter_nonoverlapping(ctx *c, const sg_params *p, uint64_t root)
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
uint64_t t_reduce_scatter_nonoverlapping(const sg_params *p)
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
void g_reduce_scatter_ring(ctx *c, const sg_params *p, uint64_t root)
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
void g_reduce_scatter_butterfly(ctx *c, const sg_params *p, uint64_t root)
{
	(void)root;
	butterfly(c, p, 0);
}

/* Open MPI's linear scan (scan algorithm 1, ompi_coll_base_scan_intra_linear;
 * also coll/basic's scan, Open MPI's own choice): rank r > 0 receives the
 * prefix of ranks 0..r-1 from r-1 (tag 0) and reduces it into its own
 * block; then every rank but P-1 sends its prefix to r+1, once reduced.
 * At 0 bytes MPI_Scan returns before any algorithm runs: nothing. */
void g_scan_linear(ctx *c, const sg_params *p, uint64_t root)
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
void g_exscan_linear(ctx *c, const sg_params *p, uint64_t root)
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
void g_scan_recdoub(ctx *c, const sg_params *p, uint64_t root)
{
	(void)root;
	prefix_recdoub(c, p, 0);
}

/* Open MPI's recursive-doubling exscan (exscan algorithm 2,
 * ompi_coll_base_exscan_intra_recursivedoubling): prefix_recdoub. */
void g_exscan_recdoub(ctx *c, const sg_params *p, uint64_t root)
{
	(void)root;
	prefix_recdoub(c, p, 1);
}

/* Open MPI's linear alltoallv (alltoallv algorithm 1,
 * ompi_coll_base_alltoallv_intra_basic_linear): rank r posts the receives
 * of the s-byte blocks of ranks 0, 1, .. P-1 (not r), then the sends of
 * its blocks to ranks 0, 1, .. P-1, starts them all at once and waits for
 * them (tag 0); its own block is a local copy. */
void g_alltoallv_linear(ctx *c, const sg_params *p, uint64_t root)
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
void g_allgatherv_default(ctx *c, const sg_params *p, uint64_t root)
{
	sg_params pb;
	gen_fn *gb;
	(void)root;
	if (p->size == 0)
		return;
	if (bcast_one_element(c, p, &pb, &gb))
		then(c, g_gather_linear_ompi, p, 1, gb, &pb, 0);
}
uint64_t t_allgatherv_default(const sg_params *p)
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
void g_allgatherv_two_proc(ctx *c, const sg_params *p, uint64_t root)
{
	(void)root;
	if (c->P == 2 && p->size > 0)
		sendrecv(c, p->size, c->r ^ 1, p->size, c->r ^ 1, 0, NONE);
}

/* ---- MPICH's algorithms ---------------------------------------------------
 * MPICH 4.0's (src/mpi/coll/COLL/COLL_intra_ALG.c), where they differ
 * from Open MPI's; its blocking sends and receives (MPIC_Send, MPIC_Recv)
 * each wait for the one before, an MPIC_Sendrecv for both of the step
 * before. */

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
void g_allreduce_rabenseifner_mpich(ctx *c, const sg_params *p, uint64_t root)
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
uint64_t t_rabenseifner_mpich(const sg_params *p)
{
	return 2 * (uint64_t)floor_log2(p->nranks ? p->nranks : 1) + 2;
}

/* MPICH's pairwise reduce-scatter (MPIR_Reduce_scatter_intra_pairwise,
 * MPIR_Reduce_scatter_block_intra_pairwise): in step i = 1..P-1 rank r
 * sends its contribution to the block of r+i and receives the one of r-i
 * to its own block, s bytes each, one MPIC_Sendrecv a step (tag i-1),
 * then reduces what came. */
void g_reduce_scatter_pairwise(ctx *c, const sg_params *p, uint64_t root)
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
void g_alltoall_scattered(ctx *c, const sg_params *p, uint64_t root)
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
void g_alltoall_pairwise_mpich(ctx *c, const sg_params *p, uint64_t root)
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
