/* flow.c: flows over links, max-min fair or by the simple rule (flow.h).
 *
 * Each link keeps the ids of the flows that cross it (an array, removal by
 * swapping the last in); each flow its links, its place in each link's
 * array, and its bottleneck (the link whose fair share it got).  Max-min:
 * flow_settle collects a part of the network from the marked links (see
 * part) and fills its links by progressive filling: repeatedly, the
 * smallest of the lowest full rate among unfixed flows and the lowest fair
 * share rem/cnt among links fixes that flow at its full rate, or every
 * unfixed flow of that link at the share (a flow alone on its links: at
 * once, from their capacities).  Shares only grow as flows are fixed (a
 * flow fixed at s takes s from links whose share was >= s), so the heap of
 * links by share keeps entries that are not moved as shares change (see
 * "The heap of links by share").  The simple rule needs no part: a flow's
 * share is its links' cap / flows, so only the flows on the marked links
 * can change, each computed at once.
 *
 * The part is what a start or end changes.  Rates change only through a
 * link that limits them, a bottleneck, and most changes die out within a
 * few links: the part starts at the marked links and their flows, and
 * goes on, ring by ring, only to the flows outside whose bottleneck got
 * another share (see part); where the changes spread far (a tapered tree
 * in an alltoall, where every shared link is some flow's bottleneck) it
 * goes on through every bottleneck at once.
 * The result is the max-min allocation: each flow of the part has a
 * bottleneck in the part where no flow, inside or out, is faster, and
 * each flow outside keeps its bottleneck, whose flows kept their shares.
 * A share that moved by less than 1e-12 of itself counts as kept: that is
 * the rounding error of solving a part in another order, not a change.
 * Cost: O(F * H + P log P) per solve for F flows of H links in the part
 * and P links that reach the top of the heap, and the walk of the part,
 * O(K + F * H) for its K links and its edges' flows.
 *
 * The walk and the solve are bound by memory: a part can hold most flows
 * in flight, each record a cache miss.  So a flow's links take n places
 * of one array (free places kept by n), not the route's longest; the mark
 * the walk reads at each link of a flow (the epoch, the flow's index in
 * the part, where its links are) lies apart, 12 bytes a flow; and the
 * walk writes what the solve needs in the part's own arrays, in the order
 * it reads them (each flow's links, each link's flows, all as indices
 * into the part; an edge's flows of the part are told by their marks).
 * A part that is a whole connected part is solved with the arithmetic,
 * and its order, of the plain algorithm. */
#include "flow.h"

#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

typedef struct fl {
	uint64_t t0;          /* when W and share were last set */
	double W;             /* work left at t0, ns at full rate */
	double share;         /* of full rate (0: not yet settled) */
	double rate;          /* full rate, bytes/ns */
	uint64_t end;
	uint32_t gen;         /* changes at every reported end, and at the end */
	uint16_t n;           /* links; 0: free, and next links the free ids */
	uint16_t hn;          /* the size of its place in hop (0: none) */
	uint32_t next;        /* free: the next free id */
	uint32_t bn;          /* its bottleneck: the link whose share it got at
	                       * its last settle (NO_LINK: its full rate, or none
	                       * yet) */
} fl;

#define NO_LINK UINT32_MAX

/* A flow's place on one of its links: the link, and the flow's index in
 * the link's array. */
typedef struct hop {
	uint32_t link, pos;
} hop;

/* What a link of the part is: walked (all its flows in the part), or an
 * edge, one the part touches but does not solve (some of its flows lie
 * outside, kept at their rates); an edge listed in ov is to be walked, or
 * to let in the flows it limits (see extend). */
enum { WALKED, EDGE, EDGE_WALK, EDGE_JOIN };

/* A link of the part being solved: capacity left, unfixed flows, the
 * lowest share it has in the heap, the part's flows on it (as indices
 * into cf) ka[a0 .. a0 + na - 1], and what it is (edge).  On an edge the
 * fastest flow outside runs at out bytes/ns (0: none), and rem starts at
 * what those flows leave, left. */
typedef struct part_link {
	double rem;
	double key;
	double out;
	double left;
	uint32_t cnt;
	uint32_t a0, na;
	uint32_t edge;
} part_link;

/* An entry of the heap of links: a share the link l had (settle index
 * k). */
typedef struct hent {
	double key;
	uint32_t k, l;
} hent;

typedef struct lk {
	uint32_t *a;          /* flow ids */
	uint32_t cap;
	uint32_t ep;          /* settle epoch that reached it */
	uint32_t ix;          /* its index in that settle's arrays */
	uint32_t dirty;
	uint32_t nb;          /* flows whose bottleneck it is */
} lk;

/* The per-link arrays (cap, lk, st, seen) are mappings of zero pages:
 * a link takes memory from its first flow on, so a run pays for the links
 * its messages cross, not for the topology's size. */
struct flow_net {
	uint32_t nl;
	flow_rule rule;
	unsigned mh;
	double (*capfn)(void *ctx, uint32_t l);
	void *capctx;
	double *cap;          /* set at a link's first flow */
	lk *lk;
	flow_link_stat *st;
	uint32_t *used;       /* the links that carried a flow, in that order */
	size_t nused, usedcap;
	fl *f;
	struct mark {         /* by flow id, apart (a part's walk reads it at
	                       * each of the flow's links, an end at each link
	                       * of the flow it moves in a link's array): */
		uint32_t ep;      /* the settle epoch that reached it */
		uint32_t i;       /* its index into that settle's cf */
		uint32_t ho;      /* its links: hop[ho .. ho + n - 1] */
	} *fm;
	size_t nf, fcap;
	uint32_t free;        /* free ids, linked by next (UINT32_MAX: none) */
	hop *hop;             /* the flows' links, a place of n for a flow of n */
	size_t nhop, hopcap;
	uint32_t *hfree;      /* by n: free places of n (linked by their first link) */
	uint32_t *dirty;      /* marked links */
	size_t ndirty, dcap;
	uint32_t epoch;
	/* settle scratch: the part's links cl (pl: by the same index) and
	 * flows cf; fk[fo[i] + h] the index into cl of flow cf[i]'s h-th link;
	 * done[i]: flow cf[i] is fixed, at share sh[i] with bottleneck bk[i]
	 * (an index into cl, or NO_LINK), the fixed flows in order in ord */
	uint32_t *cl, *cf, *fk, *fo, *ka, *bk, *ord;
	double *sh;
	uint8_t *done;
	size_t pk, pf, pa, pfk;   /* the part's links, flows, ka and fk used */
	uint32_t *ov;         /* edges to walk on from (solve, changed_edges) */
	size_t nov, ovcap;
	uint32_t *tocount;    /* edges to count (walk) */
	size_t tocountcap;
	hent *heap;
	part_link *pl;        /* by index into cl */
	struct by_rate *srt;
	size_t clcap, cfcap, fkcap, focap, kacap, bkcap, ordcap, shcap, donecap, heapcap, plcap,
	       srtcap;
	uint64_t started, largest;
	size_t live;          /* flows now */
	uint32_t far, run;    /* settles left to start through every bottleneck,
	                       * and how many the last such run had */
	/* flow_net_watch: each link's flows and bytes at its last change */
	void (*load)(void *ctx, uint32_t l, uint64_t t0, uint64_t t, uint32_t n, double bytes);
	void *load_ctx;
	struct seen {
		uint64_t t;
		double bytes;
		uint32_t n;
	} *seen;
};

/* n zeroed elements of size bytes that take memory as they are written
 * (NULL: out of memory); zfree frees them. */
static void *zalloc(size_t n, size_t size)
{
	void *p = mmap(NULL, (n ? n : 1) * size, PROT_READ | PROT_WRITE,
	               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

static void zfree(void *p, size_t n, size_t size)
{
	if (p)
		munmap(p, (n ? n : 1) * size);
}

/* The links of flow id. */
static inline hop *hops(const flow_net *f, uint32_t id)
{
	return &f->hop[f->fm[id].ho];
}

flow_net *flow_net_new(uint32_t nlinks, double (*cap)(void *ctx, uint32_t l), void *ctx,
                       unsigned maxhops, flow_rule rule)
{
	flow_net *f = calloc(1, sizeof *f);
	if (!f)
		return NULL;
	f->nl = nlinks;
	f->rule = rule;
	f->mh = maxhops ? maxhops : 1;
	f->free = UINT32_MAX;
	f->capfn = cap;
	f->capctx = ctx;
	f->hfree = malloc((f->mh + 1) * sizeof *f->hfree);
	if (!f->hfree) {
		free(f);
		return NULL;
	}
	for (unsigned n = 0; n <= f->mh; n++)
		f->hfree[n] = UINT32_MAX;
	f->cap = zalloc(nlinks, sizeof *f->cap);
	f->lk = zalloc(nlinks, sizeof *f->lk);
	f->st = zalloc(nlinks, sizeof *f->st);
	if (!f->cap || !f->lk || !f->st) {
		flow_net_free(f);
		return NULL;
	}
	return f;
}

void flow_net_free(flow_net *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->nused; i++)
		free(f->lk[f->used[i]].a);
	free(f->used);
	zfree(f->cap, f->nl, sizeof *f->cap);
	zfree(f->lk, f->nl, sizeof *f->lk);
	zfree(f->st, f->nl, sizeof *f->st);
	zfree(f->seen, f->nl, sizeof *f->seen);
	free(f->f);
	free(f->fm);
	free(f->hop);
	free(f->hfree);
	free(f->fo);
	free(f->dirty);
	free(f->cl);
	free(f->cf);
	free(f->fk);
	free(f->tocount);
	free(f->ka);
	free(f->bk);
	free(f->ord);
	free(f->sh);
	free(f->ov);
	free(f->done);
	free(f->heap);
	free(f->pl);
	free(f->srt);
	free(f);
}

static int mark(flow_net *f, uint32_t l)
{
	if (f->lk[l].dirty)
		return 0;
	if (util_grow(&f->dirty, &f->dcap, f->ndirty + 1, sizeof *f->dirty))
		return -1;
	f->lk[l].dirty = 1;
	f->dirty[f->ndirty++] = l;
	return 0;
}

/* Flow x's progress from t0 to t at its share: its work left less that,
 * t0 = t; returns the bytes it moved on each of its links then (advance
 * credits them; solve, reading the part's arrays, does it itself). */
static double progress(fl *x, uint64_t t)
{
	double dt = (double)(t - x->t0), bytes = 0;
	if (x->share > 0 && dt > 0) {
		bytes = x->share * x->rate * dt;
		x->W -= x->share * dt;
		if (x->W < 0)
			x->W = 0;
	}
	x->t0 = t;
	return bytes;
}

static void advance(flow_net *f, uint32_t id, uint64_t t)
{
	fl *x = &f->f[id];
	double b = progress(x, t);
	for (uint32_t h = 0; b > 0 && h < x->n; h++)
		f->st[hops(f, id)[h].link].bytes += b;
}

uint32_t flow_start(flow_net *f, uint64_t t, uint64_t work, double rate,
                    const uint32_t *links, unsigned n)
{
	uint32_t id;
	if (f->free != UINT32_MAX) {
		id = f->free;
		f->free = f->f[id].next;
	} else {
		size_t c = f->fcap;
		if (util_grow(&f->f, &f->fcap, f->nf + 1, sizeof *f->f))
			return UINT32_MAX;
		if (f->fcap != c) {
			struct mark *e = realloc(f->fm, f->fcap * sizeof *e);
			if (!e) {
				f->fcap = c;   /* try again next time */
				return UINT32_MAX;
			}
			f->fm = e;
		}
		id = (uint32_t)f->nf++;
		f->f[id].gen = 0;
	}
	fl *x = &f->f[id];
	x->t0 = t;
	x->share = 0;
	x->n = 0;
	x->bn = NO_LINK;
	if (f->hfree[n] != UINT32_MAX) {   /* a place for its links */
		f->fm[id].ho = f->hfree[n];
		f->hfree[n] = f->hop[f->fm[id].ho].link;
	} else if (util_grow(&f->hop, &f->hopcap, f->nhop + n, sizeof *f->hop)) {
		x->next = f->free;
		f->free = id;
		return UINT32_MAX;
	} else {
		f->fm[id].ho = (uint32_t)f->nhop;
		f->nhop += n;
	}
	x->hn = (uint16_t)n;
	f->live++;   /* from here on, a failure undoes it by flow_finish */
	for (unsigned h = 0; h < n; h++) {
		lk *L = &f->lk[links[h]];
		flow_link_stat *s = &f->st[links[h]];
		if (f->cap[links[h]] == 0) {   /* its first flow: its capacity, a place in used */
			if (util_grow(&f->used, &f->usedcap, f->nused + 1, sizeof *f->used)) {
				x->n = (uint16_t)h;
				flow_finish(f, id, t);
				return UINT32_MAX;
			}
			f->used[f->nused++] = links[h];
			f->cap[links[h]] = f->capfn(f->capctx, links[h]);
		}
		size_t c = L->cap;
		if (util_grow(&L->a, &c, (size_t)s->n + 1, sizeof *L->a) || mark(f, links[h])) {
			/* Undo the links taken so far. */
			L->cap = (uint32_t)c;
			x->n = (uint16_t)h;
			flow_finish(f, id, t);
			return UINT32_MAX;
		}
		L->cap = (uint32_t)c;
		hop y = { links[h], s->n };
		hops(f, id)[h] = y;
		L->a[s->n] = id;
		if (s->n++ == 0)
			s->since = t;
		if (s->n > s->peak)
			s->peak = s->n;
	}
	x->W = (double)work;
	x->rate = rate;
	x->end = UINT64_MAX;
	f->fm[id].ep = 0;
	x->n = (uint16_t)n;
	f->started++;
	return id;
}

void flow_finish(flow_net *f, uint32_t id, uint64_t t)
{
	fl *x = &f->f[id];
	advance(f, id, t);
	if (x->bn != NO_LINK)
		f->lk[x->bn].nb--;
	x->bn = NO_LINK;
	for (uint32_t h = 0; h < x->n; h++) {
		uint32_t l = hops(f, id)[h].link, p = hops(f, id)[h].pos;
		flow_link_stat *s = &f->st[l];
		lk *L = &f->lk[l];
		uint32_t last = L->a[--s->n];
		L->a[p] = last;
		if (last != id) {
			hop *y = hops(f, last);
			while (y->link != l)
				y++;
			y->pos = p;
		}
		if (s->n == 0)
			s->busy += t - s->since;
		(void)mark(f, l);   /* out of memory: the next start marks again */
	}
	if (x->hn) {   /* its place in hop, free */
		f->hop[f->fm[id].ho].link = f->hfree[x->hn];
		f->hfree[x->hn] = f->fm[id].ho;
		x->hn = 0;
	}
	x->n = 0;
	x->gen++;
	x->next = f->free;
	f->free = id;
	f->live--;
}

int flow_pending(const flow_net *f)
{
	return f->ndirty != 0;
}

/* ---- The heap of links by share ------------------------------------------
 * Entries (share, link) in order of share, then link number; a link's
 * share rem/cnt changes as flows are fixed, and its entries are not moved:
 * a share that drops below the link's lowest entry gets an entry of its
 * own (in exact arithmetic shares only grow, but a division may round one
 * down), and an entry found on top that is not its link's share now is
 * dropped, or pushed again at the share when that is higher.  So every
 * link with unfixed flows has an entry no higher than its share, and the
 * top entry that matches its share is the lowest share (the lowest link
 * number on a tie), as a heap kept in order at every change would give,
 * with a heap operation per link that reaches the top instead of one per
 * flow and link. */

/* Without branches: which child is less, and whether an entry goes on
 * down, are a coin's toss to the branch predictor. */
static inline int hless(hent a, hent b)
{
	return (a.key < b.key) | ((a.key == b.key) & (a.l < b.l));
}

static int hpush(flow_net *f, uint32_t *n, double key, uint32_t k)
{
	if (util_grow(&f->heap, &f->heapcap, (size_t)*n + 1, sizeof *f->heap))
		return -1;
	hent e = { key, k, f->cl[k] };
	uint32_t i = (*n)++;
	while (i > 0 && hless(e, f->heap[(i - 1) / 2])) {
		f->heap[i] = f->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	f->heap[i] = e;
	f->pl[k].key = key;
	return 0;
}

/* Entry e moved down from heap[i] to its place among heap[0 .. n-1]. */
static void hsift(flow_net *f, uint32_t n, uint32_t i, hent e)
{
	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c >= n)
			break;
		c += c + 1 < n && hless(f->heap[c + 1], f->heap[c]);
		if (!hless(f->heap[c], e))
			break;
		f->heap[i] = f->heap[c];
		i = c;
	}
	f->heap[i] = e;
}

static void hpop(flow_net *f, uint32_t *n)
{
	if (--*n)
		hsift(f, *n, 0, f->heap[*n]);
}

/* The settle index of the link of the lowest share, UINT32_MAX when every
 * flow is fixed; -1 in *oom when out of memory. */
static uint32_t htop(flow_net *f, uint32_t *n, int *oom)
{
	while (*n) {
		hent e = f->heap[0];
		part_link *q = &f->pl[e.k];
		double s = q->cnt ? q->rem / q->cnt : 0;
		if (q->cnt && e.key == s)
			return e.k;
		hpop(f, n);
		if (q->cnt && e.key < s && e.key == q->key && hpush(f, n, s, e.k)) {
			*oom = 1;
			return UINT32_MAX;
		}
	}
	return UINT32_MAX;
}

/* Flow cf[i] of the part is fixed at bytes/ns r: take r from each of its
 * links. */
static int take(flow_net *f, size_t i, double r, uint32_t *nheap)
{
	const uint32_t *k = &f->fk[f->fo[i]];
	for (uint32_t h = 0, n = f->fo[i + 1] - f->fo[i]; h < n; h++) {
		part_link *q = &f->pl[k[h]];
		q->rem -= r;
		if (q->rem < 0)
			q->rem = 0;
		if (--q->cnt && q->rem / q->cnt < q->key && hpush(f, nheap, q->rem / q->cnt, k[h]))
			return -1;
	}
	return 0;
}

/* Flow id runs at share of its full rate from t: a share that changed
 * moves its end, reported when it is another ns (a flow at full rate all
 * along keeps its exact end). */
static void set_share(flow_net *f, uint32_t id, double share, uint64_t t,
                      void (*moved)(void *ctx, uint32_t id, uint64_t end), void *ctx)
{
	fl *x = &f->f[id];
	if (share == x->share)
		return;
	x->share = share;
	uint64_t end = t + flow_round(share == 1.0 ? x->W : x->W / share);
	if (end == x->end)     /* a new share, but the same end (rounded) */
		return;
	x->end = end;
	x->gen++;
	moved(ctx, id, end);
}

/* Fix flow cf[i] of the part at share of its full rate, its bottleneck
 * the part's link k (NO_LINK: at its full rate); 0, or -1 when out of
 * memory. */
static int fix(flow_net *f, size_t i, double share, uint32_t k, size_t *nfixed,
               uint32_t *nheap)
{
	f->done[i] = 1;
	f->sh[i] = share;
	f->bk[i] = k;
	f->ord[(*nfixed)++] = (uint32_t)i;
	return take(f, i, share * f->f[f->cf[i]].rate, nheap);
}

/* The share of flow id by the simple rule: its full rate, or its most
 * contended link's cap / flows when that is lower (max-min too, for a
 * flow alone on its links), and that link in *bn (NO_LINK: none). */
static double simple_share(const flow_net *f, uint32_t id, uint32_t *bn)
{
	const fl *x = &f->f[id];
	double share = 1.0;
	*bn = NO_LINK;
	for (uint32_t h = 0; h < x->n; h++) {
		uint32_t l = hops(f, id)[h].link;
		double c = f->cap[l] / f->st[l].n;
		if (c < x->rate && c / x->rate < share) {
			share = c / x->rate;
			*bn = l;
		}
	}
	return share;
}

/* Flows by full rate, then id: the order progressive filling fixes them
 * at their full rate; i is the index into cf. */
typedef struct by_rate {
	double rate;
	uint32_t id, i;
} by_rate;

static int by_rate_cmp(const void *a, const void *b)
{
	const by_rate *x = a, *y = b;
	if (x->rate != y->rate)
		return x->rate < y->rate ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* Link l joins the part, an edge or walked; 0, or -1 when out of memory. */
static int add_link(flow_net *f, uint32_t l, uint32_t edge)
{
	if (util_grow(&f->cl, &f->clcap, f->pk + 1, sizeof *f->cl) ||
	    util_grow(&f->pl, &f->plcap, f->pk + 1, sizeof *f->pl))
		return -1;
	f->lk[l].ep = f->epoch;
	f->lk[l].ix = (uint32_t)f->pk;
	f->cl[f->pk] = l;
	f->pl[f->pk++].edge = edge;
	return 0;
}

/* The part of the network a settle solves, in cl[0 .. pk-1] (with pl) and
 * cf[0 .. pf-1] (with fo, fk and ka): first the marked links, the flows
 * on them and their links.  A link reached but not walked is an edge,
 * where the part stops: the flows outside keep their rates, and the part
 * gets what they leave.  That holds while no flow outside has to change:
 * solve lists each edge where the part would limit a flow below an
 * outside flow's rate (extend walks on from it), and changed_edges each
 * edge that is some outside flow's bottleneck where a flow of the part got
 * another share (those outside flows' share there changes: they join the
 * part); then the part is solved again.  After NEAR_TRIES tries, or once
 * the tries have solved a quarter of the flows in flight, the part goes on through every
 * link that is some flow's bottleneck, transitively (only through such a
 * link can a change of rates reach another flow), and settles that follow
 * one that went that far start there (see flow_settle); after TRIES, it
 * is the whole connected part.  Each of these is 0, or -1 when out of
 * memory. */

/* How far a walk goes from the links it walks: NEAR, nowhere (every link
 * it adds is an edge); LIMITS, on through the links that limit some flow;
 * ALL, on through every link. */
typedef enum reach { NEAR, LIMITS, ALL } reach;

/* Rates that differ by less than this much of themselves are the same: the
 * rounding error of solving a part in another order. */
#define ROUNDING 1e-12

/* Flow id joins the part, with its links (new ones walked or edges as how
 * says). */
static int join(flow_net *f, uint32_t id, reach how)
{
	uint32_t ep = f->epoch;
	const fl *x = &f->f[id];
	const hop *y = hops(f, id);
	if (util_grow(&f->cf, &f->cfcap, f->pf + 1, sizeof *f->cf) ||
	    util_grow(&f->fo, &f->focap, f->pf + 2, sizeof *f->fo) ||
	    util_grow(&f->fk, &f->fkcap, f->pfk + x->n, sizeof *f->fk))
		return -1;
	f->fm[id].ep = ep;
	f->fm[id].i = (uint32_t)f->pf;
	f->cf[f->pf] = id;
	f->fo[f->pf++] = (uint32_t)f->pfk;
	for (uint32_t h = 0; h < x->n; h++) {
		const lk *L = &f->lk[y[h].link];
		int stop = how == NEAR || (how == LIMITS && L->nb == 0);
		if (L->ep != ep && add_link(f, y[h].link, stop ? EDGE : WALKED))
			return -1;
		f->fk[f->pfk++] = L->ix;
	}
	f->fo[f->pf] = (uint32_t)f->pfk;
	return 0;
}

/* Link k of the part is walked: its flows join the part. */
static int walk_link(flow_net *f, size_t k, reach how)
{
	const lk *L = &f->lk[f->cl[k]];
	uint32_t n = f->st[f->cl[k]].n;
	if (util_grow(&f->ka, &f->kacap, f->pa + n, sizeof *f->ka))
		return -1;
	f->pl[k].a0 = (uint32_t)f->pa;
	f->pl[k].na = n;
	for (uint32_t j = 0; j < n; j++) {
		uint32_t id = L->a[j];
		if (f->fm[id].ep != f->epoch && join(f, id, how))
			return -1;
		f->ka[f->pa++] = f->fm[id].i;
	}
	return 0;
}

/* The flows outside the part whose bottleneck is edge k join it: their
 * share there changes.  The edge stays one (its other flows keep their
 * rates). */
static int join_limited(flow_net *f, size_t k, reach how)
{
	uint32_t l = f->cl[k];
	const lk *L = &f->lk[l];
	for (uint32_t j = 0; j < f->st[l].n; j++) {
		uint32_t id = L->a[j];
		if (f->fm[id].ep != f->epoch && f->f[id].bn == l && join(f, id, how))
			return -1;
	}
	return 0;
}

/* Edge k gets the part's flows on it (in the order of the link's array),
 * the bandwidth the others leave and the fastest of those; 0, or -1 when
 * out of memory. */
static int count_edge(flow_net *f, size_t k)
{
	part_link *q = &f->pl[k];
	uint32_t l = f->cl[k], n = f->st[l].n, ep = f->epoch;
	const lk *L = &f->lk[l];
	double used = 0;
	if (util_grow(&f->ka, &f->kacap, f->pa + n, sizeof *f->ka))
		return -1;
	q->a0 = (uint32_t)f->pa;
	q->na = 0;
	q->out = 0;
	for (uint32_t j = 0; j < n; j++) {
		uint32_t id = L->a[j];
		if (f->fm[id].ep == ep) {
			f->ka[f->pa++] = f->fm[id].i;
			q->na++;
		} else {
			double r = f->f[id].share * f->f[id].rate;
			used += r;
			if (r > q->out)
				q->out = r;
		}
	}
	q->left = f->cap[l] - used;
	if (q->left < 0)
		q->left = 0;
	return 0;
}

/* The links of the part from k on that are not edges are walked, and the
 * links they add; then the edges are counted that are new or that a flow
 * new to the part (from cf[f0] on) crosses. */
static int walk(flow_net *f, size_t k, size_t f0, reach how)
{
	size_t k0 = k, n = 0;
	for (; k < f->pk; k++)
		if (f->pl[k].edge == WALKED && walk_link(f, k, how))
			return -1;
	if (util_grow(&f->tocount, &f->tocountcap, f->pk, sizeof *f->tocount))
		return -1;
	for (k = k0; k < f->pk; k++)
		if (f->pl[k].edge != WALKED) {
			f->pl[k].na = UINT32_MAX;   /* to count */
			f->tocount[n++] = (uint32_t)k;
		}
	for (size_t e = f->fo[f0]; e < f->pfk; e++) {
		part_link *q = &f->pl[f->fk[e]];
		if (q->edge != WALKED && q->na != UINT32_MAX) {
			q->na = UINT32_MAX;
			f->tocount[n++] = f->fk[e];
		}
	}
	for (size_t i = 0; i < n; i++)
		if (count_edge(f, f->tocount[i]))
			return -1;
	return 0;
}

/* A new part: from the marked links, as far as how goes. */
static int part(flow_net *f, reach how)
{
	f->pk = f->pf = f->pa = f->pfk = 0;
	if (util_grow(&f->fo, &f->focap, 1, sizeof *f->fo))
		return -1;
	f->fo[0] = 0;
	for (size_t d = 0; d < f->ndirty; d++)
		if (f->lk[f->dirty[d]].ep != f->epoch && add_link(f, f->dirty[d], WALKED))
			return -1;
	return walk(f, 0, 0, how);
}

/* The part goes on from the edges listed in ov: walked (EDGE_WALK), or
 * the flows they limit joining (EDGE_JOIN, with NEAR only); with LIMITS,
 * every edge that limits some flow is walked too, with ALL every edge. */
static int extend(flow_net *f, reach how)
{
	size_t k0 = f->pk, f0 = f->pf;
	if (how != NEAR) {
		if (util_grow(&f->ov, &f->ovcap, f->nov + k0, sizeof *f->ov))
			return -1;
		for (size_t k = 0; k < k0; k++)
			if (f->pl[k].edge == EDGE && (how == ALL || f->lk[f->cl[k]].nb))
				f->ov[f->nov++] = (uint32_t)k;
	}
	for (size_t o = 0; o < f->nov; o++) {
		part_link *q = &f->pl[f->ov[o]];
		if (q->edge == EDGE_JOIN && how == NEAR) {
			q->edge = EDGE;
			if (join_limited(f, f->ov[o], how))
				return -1;
		} else {
			q->edge = WALKED;
			if (walk_link(f, f->ov[o], how))
				return -1;
		}
	}
	return walk(f, k0, f0, how);
}

/* After a solve of a part that found no edge limiting it: the edges where
 * some of the part's flows got another share and some flow outside has
 * its bottleneck go to ov, as EDGE_JOIN (those flows must be solved again:
 * their share there changes); 1 when there are any, -1 when out of
 * memory. */
static int changed_edges(flow_net *f)
{
	for (size_t k = 0; k < f->pk; k++) {
		part_link *q = &f->pl[k];
		uint32_t l = f->cl[k], mine = 0;
		int changed = 0;
		if (q->edge != EDGE || f->lk[l].nb == 0)
			continue;
		for (uint32_t e = q->a0; e < q->a0 + q->na; e++) {
			const fl *x = &f->f[f->cf[f->ka[e]]];
			changed |= fabs(f->sh[f->ka[e]] - x->share) > ROUNDING * x->share;
			mine += x->bn == l;
		}
		if (!changed || mine == f->lk[l].nb)
			continue;
		if (util_grow(&f->ov, &f->ovcap, f->nov + 1, sizeof *f->ov))
			return -1;
		q->edge = EDGE_JOIN;
		f->ov[f->nov++] = (uint32_t)k;
	}
	return f->nov != 0;
}

/* Link k of the part, before the filling starts, can never fix a flow:
 * its one flow's full rate is no more than its share rem (exact with one
 * flow, and it stays so until that flow is fixed), so the lowest full
 * rate among unfixed flows is never above it (a tie fixes the flow at its
 * full rate). */
static int never_binds(const flow_net *f, size_t k)
{
	const part_link *q = &f->pl[k];
	return q->cnt == 1 && q->na == 1 && q->rem >= f->f[f->cf[f->ka[q->a0]]].rate;
}

/* New shares for the part, F >= 1 flows, fixed in ord[0 .. *nfixed - 1].
 * *again: an edge would limit some of them below an outside flow's rate
 * (those edges are in ov[0 .. nov - 1]: extend, and solve again).  0, or
 * -1 when out of memory. */
static int solve(flow_net *f, uint64_t t, size_t *nfixed, int *again)
{
	size_t K = f->pk, F = f->pf;
	if (util_grow(&f->srt, &f->srtcap, F, sizeof *f->srt) ||
	    util_grow(&f->done, &f->donecap, F, sizeof *f->done) ||
	    util_grow(&f->sh, &f->shcap, F, sizeof *f->sh) ||
	    util_grow(&f->bk, &f->bkcap, F, sizeof *f->bk) ||
	    util_grow(&f->ord, &f->ordcap, F, sizeof *f->ord))
		return -1;
	/* Progress of every flow up to t, at its old share; the flows by
	 * full rate. */
	int same = 1;
	for (size_t i = 0; i < F; i++) {
		fl *x = &f->f[f->cf[i]];
		double b = progress(x, t);
		for (uint32_t h = 0; b > 0 && h < x->n; h++)
			f->st[f->cl[f->fk[f->fo[i] + h]]].bytes += b;
		by_rate r = { x->rate, f->cf[i], (uint32_t)i };
		f->srt[i] = r;
		same &= r.rate == f->srt[0].rate;
	}
	*nfixed = 0;
	*again = 0;
	f->nov = 0;
	memset(f->done, 0, F);
	for (size_t k = 0; k < K; k++)
		f->pl[k].cnt = f->pl[k].na;
	/* A flow alone on its links: its full rate, or its slowest link's. */
	for (size_t i = 0; i < F; i++) {
		uint32_t e = f->fo[i];
		while (e < f->fo[i + 1] && f->st[f->cl[f->fk[e]]].n == 1)
			e++;
		if (e < f->fo[i + 1])
			continue;
		uint32_t bn;
		f->sh[i] = simple_share(f, f->cf[i], &bn);
		f->bk[i] = bn == NO_LINK ? NO_LINK : f->lk[bn].ix;
		f->done[i] = 1;
		f->ord[(*nfixed)++] = (uint32_t)i;
		for (e = f->fo[i]; e < f->fo[i + 1]; e++)
			f->pl[f->fk[e]].cnt = 0;
	}
	/* The heap: every link with flows at its share, put in order from
	 * the bottom up. */
	if (util_grow(&f->heap, &f->heapcap, K, sizeof *f->heap))
		return -1;
	uint32_t nheap = 0;
	for (size_t k = 0; k < K; k++) {
		part_link *q = &f->pl[k];
		q->rem = q->edge != WALKED ? q->left : f->cap[f->cl[k]];
		if (q->cnt && never_binds(f, k)) {
			q->key = -HUGE_VAL;   /* take never pushes it */
		} else if (q->cnt) {
			hent e = { q->key = q->rem / q->cnt, (uint32_t)k, f->cl[k] };
			f->heap[nheap++] = e;
		}
	}
	for (uint32_t i = nheap / 2; i-- > 0;)
		hsift(f, nheap, i, f->heap[i]);
	if (!same)
		qsort(f->srt, F, sizeof *f->srt, by_rate_cmp);
	size_t dp = 0;
	int oom = 0;
	while (*nfixed < F) {
		while (dp < F && f->done[f->srt[dp].i])
			dp++;
		uint32_t top = htop(f, &nheap, &oom);
		if (oom)
			return -1;
		double s = top != UINT32_MAX ? f->pl[top].rem / f->pl[top].cnt : HUGE_VAL;
		if (dp < F && f->srt[dp].rate <= s) {
			/* The lowest full rate is below every share: at full rate. */
			if (fix(f, f->srt[dp].i, 1.0, NO_LINK, nfixed, &nheap))
				return -1;
			continue;
		}
		/* The link of the lowest share: every unfixed flow on it at s.
		 * On an edge, a flow outside faster than s would leave those
		 * flows short of their fair share. */
		if (f->pl[top].edge != WALKED && f->pl[top].out > s * (1 + ROUNDING)) {
			*again = 1;   /* and on, to find the other such edges */
			if (util_grow(&f->ov, &f->ovcap, f->nov + 1, sizeof *f->ov))
				return -1;
			f->pl[top].edge = EDGE_WALK;
			f->ov[f->nov++] = top;
		}
		const part_link *q = &f->pl[top];
		for (uint32_t e = q->a0; e < q->a0 + q->na; e++) {
			uint32_t i = f->ka[e];
			if (f->done[i])
				continue;
			if (fix(f, i, s / f->f[f->cf[i]].rate, top, nfixed, &nheap))
				return -1;
		}
	}
	return 0;
}

/* The part's flows take their new shares and bottlenecks, in the order
 * they were fixed. */
static void commit(flow_net *f, size_t nfixed, uint64_t t,
                   void (*moved)(void *ctx, uint32_t id, uint64_t end), void *ctx)
{
	for (size_t n = 0; n < nfixed; n++) {
		uint32_t i = f->ord[n], id = f->cf[i];
		fl *x = &f->f[id];
		uint32_t bn = f->bk[i] == NO_LINK ? NO_LINK : f->cl[f->bk[i]];
		if (bn != x->bn) {
			if (x->bn != NO_LINK)
				f->lk[x->bn].nb--;
			if (bn != NO_LINK)
				f->lk[bn].nb++;
			x->bn = bn;
		}
		set_share(f, id, f->sh[i], t, moved, ctx);
	}
}

/* The simple rule: a flow's share changes only with the flows on its
 * links, so the flows on the marked links are all it recomputes. */
static void settle_simple(flow_net *f, uint64_t t,
                          void (*moved)(void *ctx, uint32_t id, uint64_t end), void *ctx)
{
	uint64_t nf = 0;
	for (size_t d = 0; d < f->ndirty; d++) {
		uint32_t l = f->dirty[d];
		for (uint32_t j = 0; j < f->st[l].n; j++) {
			uint32_t id = f->lk[l].a[j];
			if (f->fm[id].ep == f->epoch)
				continue;
			f->fm[id].ep = f->epoch;
			nf++;
			advance(f, id, t);
			uint32_t bn;
			set_share(f, id, simple_share(f, id, &bn), t, moved, ctx);
		}
	}
	if (nf > f->largest)
		f->largest = nf;
}

/* Tries of a settle with the part stopping at edges; then it solves the
 * whole connected part. */
#define NEAR_TRIES 16
#define FAR_MAX 64
#define TRIES (NEAR_TRIES + 16)

/* A new settle epoch: no link or flow reached in it yet. */
static void next_epoch(flow_net *f)
{
	if (++f->epoch == 0) {   /* wrapped: clear the old marks */
		for (size_t i = 0; i < f->nused; i++)
			f->lk[f->used[i]].ep = 0;
		for (size_t i = 0; i < f->nf; i++)
			f->fm[i].ep = 0;
		f->epoch = 1;
	}
}

int flow_settle(flow_net *f, uint64_t t,
                void (*moved)(void *ctx, uint32_t id, uint64_t end), void *ctx)
{
	if (!f->ndirty)
		return 0;
	/* The simple rule: the flows of the marked links.  Max-min: the part
	 * of the network they reach, extended as long as a flow outside it
	 * has to change (see part). */
	int rc = 0;
	next_epoch(f);
	if (f->rule == FLOW_SIMPLE)
		settle_simple(f, t, moved, ctx);
	reach how = f->far ? LIMITS : NEAR, first = how;
	size_t solved = 0;
	int dense = 0;
	for (int tries = 0; f->rule == FLOW_MAXMIN; tries++) {
		size_t nfixed;
		int again;
		if (how == NEAR && solved > f->live / 4)
			dense = 1;
		if (how == NEAR && (tries >= NEAR_TRIES || dense))
			how = LIMITS;
		if (tries >= TRIES)
			how = ALL;
		if (tries ? extend(f, how) : part(f, how)) {
			rc = -1;
			break;
		}
		if (!f->pf)
			break;
		if (solve(f, t, &nfixed, &again) ||
		    (!again && how == NEAR && (again = changed_edges(f)) < 0)) {
			rc = -1;
			break;
		}
		if (f->pf > f->largest)
			f->largest = f->pf;
		solved += f->pf;
		if (!again) {
			commit(f, nfixed, t, moved, ctx);
			break;
		}
	}
	/* Where changes spread through most flows, the rings cost more than
	 * the walk through every bottleneck: after a settle whose rings solved
	 * a quarter of the flows in flight, the next ones start there, for
	 * twice as many settles each time it happens again (up to FAR_MAX);
	 * a settle whose rings did not resets it. */
	if (first == NEAR && f->rule == FLOW_MAXMIN) {
		f->run = !dense ? 0 : f->run ? (f->run < FAR_MAX ? 2 * f->run : FAR_MAX) : 1;
		f->far = f->run;
	} else if (f->far) {
		f->far--;
	}
	for (size_t d = 0; d < f->ndirty; d++)
		f->lk[f->dirty[d]].dirty = 0;
	/* The loads of the marked links: their flows' progress is up to t. */
	for (size_t d = 0; f->load && d < f->ndirty; d++) {
		uint32_t l = f->dirty[d];
		struct seen *w = &f->seen[l];
		if (w->n == f->st[l].n)
			continue;
		if (w->n && t > w->t)
			f->load(f->load_ctx, l, w->t, t, w->n, f->st[l].bytes - w->bytes);
		w->t = t;
		w->n = f->st[l].n;
		w->bytes = f->st[l].bytes;
	}
	f->ndirty = 0;
	return rc;
}

int flow_net_watch(flow_net *f, void (*load)(void *ctx, uint32_t l, uint64_t t0,
                                             uint64_t t, uint32_t n, double bytes),
                   void *ctx)
{
	if (!f->seen && !(f->seen = zalloc(f->nl, sizeof *f->seen)))
		return -1;
	f->load = load;
	f->load_ctx = ctx;
	return 0;
}

uint64_t flow_round(double x)
{
	return x > 0 ? (uint64_t)floor(x + (0.5 + FLOW_HALF)) : 0;
}

uint64_t flow_end(const flow_net *f, uint32_t id) { return f->f[id].end; }
uint32_t flow_gen(const flow_net *f, uint32_t id) { return f->f[id].gen; }
double flow_share(const flow_net *f, uint32_t id) { return f->f[id].share; }
const flow_link_stat *flow_link(const flow_net *f, uint32_t l) { return &f->st[l]; }
const uint32_t *flow_links_used(const flow_net *f, size_t *n)
{
	*n = f->nused;
	return f->used;
}
uint64_t flow_count(const flow_net *f) { return f->started; }
uint64_t flow_largest_settle(const flow_net *f) { return f->largest; }
