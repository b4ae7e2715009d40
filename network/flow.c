/* flow.c: flows over links, max-min fair or by the simple rule (flow.h).
 *
 * Each link keeps the ids of the flows that cross it (an array, removal by
 * swapping the last in); each flow its links and its place in each link's
 * array.  flow_settle walks from the marked links to every flow on them
 * and every link of those flows, transitively (the connected part of the
 * network that a start or end can affect), and fills that part's links by
 * progressive filling: repeatedly, the smallest of the lowest full rate
 * among unfixed flows and the lowest fair share rem/cnt among links fixes
 * that flow at its full rate, or every unfixed flow of that link at the
 * share (a flow alone in its part: at once, from its links' capacities
 * and counts).  The simple rule needs no walk: a flow's share is its
 * links' cap / flows, so only the flows on the marked links can change,
 * each computed at once.  Shares only grow as
 * flows are fixed (a flow fixed at s takes s from links whose share was
 * >= s), so the heap of links by share keeps entries that are not moved as
 * shares change (see "The heap of links by share").  Cost: O(F * H + P
 * log P) for F flows of H links in the part and P links that reach the
 * top of the heap; the walk of the part is O(K + F * H) for its K links.
 *
 * The walk and the solve are bound by memory: a part holds most flows in
 * flight on a shared network, each record a cache miss.  So a flow's
 * links take n places of one array (free places kept by n), not the
 * route's longest; the mark the walk reads at each link of a flow (the
 * epoch, the flow's index in the part) lies apart, 8 bytes a flow; and the
 * walk writes what the solve needs in the part's own arrays, in the order
 * it reads them (each flow's links as indices into the part, each link's
 * flows as indices into the part).  The arithmetic, and its order, are
 * those of the plain algorithm above. */
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
	uint32_t ho;          /* its links: hop[ho .. ho + n - 1] */
	uint16_t n;           /* links; 0: free, and next links the free ids */
	uint16_t hn;          /* the size of its place in hop (0: none) */
	uint32_t next;        /* free: the next free id */
} fl;

/* A flow's place on one of its links: the link, and the flow's index in
 * the link's array. */
typedef struct hop {
	uint32_t link, pos;
} hop;

/* A link of the part being solved: capacity left, unfixed flows, and the
 * lowest share it has in the heap. */
typedef struct part_link {
	double rem;
	double key;
	uint32_t cnt;
} part_link;

/* An entry of the heap of links: a share the link had (settle index k). */
typedef struct hent {
	double key;
	uint32_t k;
} hent;

typedef struct lk {
	uint32_t *a;          /* flow ids */
	uint32_t cap;
	uint32_t ep;          /* settle epoch that reached it */
	uint32_t ix;          /* its index in that settle's arrays */
	uint32_t dirty;
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
	                       * each of the flow's links): */
		uint32_t ep;      /* the settle epoch that reached it */
		uint32_t i;       /* its index into that settle's cf */
	} *fm;
	size_t nf, fcap;
	uint32_t free;        /* free ids, linked by next (UINT32_MAX: none) */
	hop *hop;             /* the flows' links, a place of n for a flow of n */
	size_t nhop, hopcap;
	uint32_t *hfree;      /* by n: free places of n (linked by their first link) */
	uint32_t *dirty;      /* marked links */
	size_t ndirty, dcap;
	uint32_t epoch;
	/* settle scratch: the part's links cl and flows cf; fk[fo[i] + h] the
	 * index into cl of flow cf[i]'s h-th link; the flows of link cl[k] (as
	 * indices into cf, in the link's order) ka[ko[k] .. ko[k + 1] - 1];
	 * done[i]: flow cf[i] is fixed */
	uint32_t *cl, *cf, *fk, *fo, *ka, *ko;
	uint8_t *done;
	hent *heap;
	part_link *pl;        /* by index into cl */
	struct by_rate *srt;
	size_t clcap, cfcap, fkcap, focap, kacap, kocap, donecap, heapcap, plcap, srtcap;
	uint64_t started, largest;
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
	return &f->hop[f->f[id].ho];
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
	free(f->ka);
	free(f->ko);
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
 * t0 = t; returns the bytes it moved on each of its links then. */
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
	if (f->hfree[n] != UINT32_MAX) {   /* a place for its links */
		x->ho = f->hfree[n];
		f->hfree[n] = f->hop[x->ho].link;
	} else if (util_grow(&f->hop, &f->hopcap, f->nhop + n, sizeof *f->hop)) {
		x->next = f->free;
		f->free = id;
		return UINT32_MAX;
	} else {
		x->ho = (uint32_t)f->nhop;
		f->nhop += n;
	}
	x->hn = (uint16_t)n;
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
	double b = progress(x, t);
	for (uint32_t h = 0; h < x->n; h++) {
		uint32_t l = hops(f, id)[h].link, p = hops(f, id)[h].pos;
		flow_link_stat *s = &f->st[l];
		if (b > 0)
			s->bytes += b;
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
		f->hop[x->ho].link = f->hfree[x->hn];
		f->hfree[x->hn] = x->ho;
		x->hn = 0;
	}
	x->n = 0;
	x->gen++;
	x->next = f->free;
	f->free = id;
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

static int hless(const flow_net *f, hent a, hent b)
{
	return a.key < b.key || (a.key == b.key && f->cl[a.k] < f->cl[b.k]);
}

static int hpush(flow_net *f, uint32_t *n, double key, uint32_t k)
{
	if (util_grow(&f->heap, &f->heapcap, (size_t)*n + 1, sizeof *f->heap))
		return -1;
	hent e = { key, k };
	uint32_t i = (*n)++;
	while (i > 0 && hless(f, e, f->heap[(i - 1) / 2])) {
		f->heap[i] = f->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	f->heap[i] = e;
	f->pl[k].key = key;
	return 0;
}

static void hpop(flow_net *f, uint32_t *n)
{
	hent e = f->heap[--*n];
	uint32_t i = 0;
	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c >= *n)
			break;
		if (c + 1 < *n && hless(f, f->heap[c + 1], f->heap[c]))
			c++;
		if (!hless(f, f->heap[c], e))
			break;
		f->heap[i] = f->heap[c];
		i = c;
	}
	if (*n)
		f->heap[i] = e;
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

/* Fix flow cf[i] of the part at share of its full rate; 0, or -1 when out
 * of memory. */
static int fix(flow_net *f, size_t i, double share, uint64_t t, uint32_t *nheap,
               void (*moved)(void *ctx, uint32_t id, uint64_t end), void *ctx)
{
	uint32_t id = f->cf[i];
	f->done[i] = 1;
	if (take(f, i, share * f->f[id].rate, nheap))
		return -1;
	set_share(f, id, share, t, moved, ctx);
	return 0;
}

/* The share of flow id by the simple rule: its full rate, or its most
 * contended link's cap / flows when that is lower (max-min too, for a
 * flow alone in its part). */
static double simple_share(const flow_net *f, uint32_t id)
{
	const fl *x = &f->f[id];
	double share = 1.0;
	for (uint32_t h = 0; h < x->n; h++) {
		uint32_t l = hops(f, id)[h].link;
		double c = f->cap[l] / f->st[l].n;
		if (c < x->rate && c / x->rate < share)
			share = c / x->rate;
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

/* Collect the component of link l (not reached in this epoch) into
 * cl[0 .. *K-1] and cf[0 .. *F-1], with fk, ka and ko: 0, or -1 when out
 * of memory. */
static int component(flow_net *f, uint32_t l, size_t *K, size_t *F)
{
	uint32_t ep = f->epoch;
	size_t nk = 0, nf = 0, na = 0, nfk = 0;
	if (util_grow(&f->cl, &f->clcap, 1, sizeof *f->cl) ||
	    util_grow(&f->fo, &f->focap, 1, sizeof *f->fo))
		return -1;
	f->lk[l].ep = ep;
	f->lk[l].ix = 0;
	f->cl[nk++] = l;
	for (size_t k = 0; k < nk; k++) {
		const lk *L = &f->lk[f->cl[k]];
		uint32_t n = f->st[f->cl[k]].n;
		if (util_grow(&f->ko, &f->kocap, k + 2, sizeof *f->ko) ||
		    util_grow(&f->ka, &f->kacap, na + n, sizeof *f->ka))
			return -1;
		f->ko[k] = (uint32_t)na;
		for (uint32_t j = 0; j < n; j++) {
			uint32_t id = L->a[j];
			if (f->fm[id].ep != ep) {
				const fl *x = &f->f[id];
				const hop *y = hops(f, id);
				if (util_grow(&f->cf, &f->cfcap, nf + 1, sizeof *f->cf) ||
				    util_grow(&f->fo, &f->focap, nf + 2, sizeof *f->fo) ||
				    util_grow(&f->fk, &f->fkcap, nfk + x->n, sizeof *f->fk))
					return -1;
				f->fm[id].ep = ep;
				f->fm[id].i = (uint32_t)nf;
				f->cf[nf] = id;
				f->fo[nf++] = (uint32_t)nfk;
				for (uint32_t h = 0; h < x->n; h++) {
					lk *L2 = &f->lk[y[h].link];
					if (L2->ep != ep) {
						if (util_grow(&f->cl, &f->clcap, nk + 1, sizeof *f->cl))
							return -1;
						L2->ep = ep;
						L2->ix = (uint32_t)nk;
						f->cl[nk++] = y[h].link;
					}
					f->fk[nfk++] = L2->ix;
				}
			}
			f->ka[na++] = f->fm[id].i;
		}
	}
	f->ko[nk] = (uint32_t)na;
	f->fo[nf] = (uint32_t)nfk;
	*K = nk;
	*F = nf;
	return 0;
}

/* New shares for the component in cl[0 .. K-1], cf[0 .. F-1], F >= 1. */
static int solve(flow_net *f, size_t K, size_t F, uint64_t t,
                 void (*moved)(void *ctx, uint32_t id, uint64_t end), void *ctx)
{
	if (util_grow(&f->pl, &f->plcap, K, sizeof *f->pl) ||
	    util_grow(&f->srt, &f->srtcap, F, sizeof *f->srt) ||
	    util_grow(&f->done, &f->donecap, F, sizeof *f->done))
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
	if (F == 1) {   /* alone: its full rate, or its slowest link's */
		set_share(f, f->cf[0], simple_share(f, f->cf[0]), t, moved, ctx);
		return 0;
	}
	uint32_t nheap = 0;
	for (size_t k = 0; k < K; k++) {
		uint32_t l = f->cl[k];
		f->pl[k].rem = f->cap[l];
		f->pl[k].cnt = f->st[l].n;
		if (f->pl[k].cnt && hpush(f, &nheap, f->pl[k].rem / f->pl[k].cnt, (uint32_t)k))
			return -1;
	}
	if (!same)
		qsort(f->srt, F, sizeof *f->srt, by_rate_cmp);
	memset(f->done, 0, F);
	size_t dp = 0, nfixed = 0;
	int oom = 0;
	while (nfixed < F) {
		while (dp < F && f->done[f->srt[dp].i])
			dp++;
		uint32_t top = htop(f, &nheap, &oom);
		if (oom)
			return -1;
		double s = top != UINT32_MAX ? f->pl[top].rem / f->pl[top].cnt : HUGE_VAL;
		if (dp < F && f->srt[dp].rate <= s) {
			/* The lowest full rate is below every share: at full rate. */
			if (fix(f, f->srt[dp].i, 1.0, t, &nheap, moved, ctx))
				return -1;
			nfixed++;
			continue;
		}
		/* The link of the lowest share: every unfixed flow on it at s. */
		for (uint32_t e = f->ko[top]; e < f->ko[top + 1]; e++) {
			uint32_t i = f->ka[e];
			if (f->done[i])
				continue;
			if (fix(f, i, s / f->f[f->cf[i]].rate, t, &nheap, moved, ctx))
				return -1;
			nfixed++;
		}
	}
	return 0;
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
			fl *x = &f->f[id];
			if (f->fm[id].ep == f->epoch)
				continue;
			f->fm[id].ep = f->epoch;
			nf++;
			double b = progress(x, t);
			for (uint32_t h = 0; b > 0 && h < x->n; h++)
				f->st[hops(f, id)[h].link].bytes += b;
			set_share(f, id, simple_share(f, id), t, moved, ctx);
		}
	}
	if (nf > f->largest)
		f->largest = nf;
}

int flow_settle(flow_net *f, uint64_t t,
                void (*moved)(void *ctx, uint32_t id, uint64_t end), void *ctx)
{
	if (!f->ndirty)
		return 0;
	uint32_t ep = ++f->epoch;
	if (ep == 0) {   /* wrapped: clear the old marks */
		for (size_t i = 0; i < f->nused; i++)
			f->lk[f->used[i]].ep = 0;
		for (size_t i = 0; i < f->nf; i++)
			f->fm[i].ep = 0;
		f->epoch = 1;
	}
	/* The simple rule: the flows of the marked links.  Max-min: each
	 * connected part of the network reached from a marked link. */
	int rc = 0;
	if (f->rule == FLOW_SIMPLE)
		settle_simple(f, t, moved, ctx);
	for (size_t d = 0; d < f->ndirty; d++) {
		uint32_t l = f->dirty[d];
		f->lk[l].dirty = 0;
		size_t K, F;
		if (rc || f->rule == FLOW_SIMPLE || f->lk[l].ep == f->epoch)
			continue;
		if (component(f, l, &K, &F) || (F && solve(f, K, F, t, moved, ctx))) {
			rc = -1;
			continue;
		}
		if (F > f->largest)
			f->largest = F;
	}
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
