/* evq.c: the event queue: one array of nodes per pending time, a heap of
 * the pending times, batches of equal time sorted by seq. */
#include "evq.h"

#include "invariant.h"
#include "oa.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Node arrays of 2 MiB and more live in their own mappings on transparent
 * huge pages (fewer page faults and TLB misses); smaller ones in malloc. */
#define BIG_BYTES ((size_t)2 << 20)

static void vec_free(evq_vec *v)
{
	if (v->cap * sizeof *v->a >= BIG_BYTES)
		munmap(v->a, v->cap * sizeof *v->a);
	else
		free(v->a);
}

void evq_init(evq *q)
{
	memset(q, 0, sizeof *q);
	q->hot = UINT32_MAX;
}

void evq_free(evq *q)
{
	for (uint32_t i = 0; i < q->nslot; i++)
		vec_free(&q->slot[i].v);
	free(q->slot);
	free(q->heap);
	free(q->free);
	free(q->ht);
	vec_free(&q->batch);
	vec_free(&q->tmp);
	vec_free(&q->rest);
	for (unsigned i = 0; i < q->nspare; i++)
		vec_free(&q->spare[i]);
	evq_init(q);
}

static int vec_reserve(evq_vec *v, size_t n)
{
	if (n <= v->cap)
		return 0;
	size_t cap = v->cap ? v->cap : 4;
	while (cap < n)
		cap *= 2;
	size_t ob = v->cap * sizeof *v->a, nb = cap * sizeof *v->a;
	evq_ent *a;
	if (nb < BIG_BYTES) {
		a = realloc(v->a, nb);
		if (!a)
			return -1;
	} else {
		void *p = ob >= BIG_BYTES ? mremap(v->a, ob, nb, MREMAP_MAYMOVE)
		        : mmap(NULL, nb, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return -1;
#ifdef MADV_HUGEPAGE
		madvise(p, nb, MADV_HUGEPAGE);
#endif
		a = p;
		if (ob < BIG_BYTES) {
			if (v->n)
				memcpy(a, v->a, v->n * sizeof *a);
			free(v->a);
		}
	}
	v->a = a;
	v->cap = cap;
	return 0;
}

/* ---- Arrays of slots ------------------------------------------------------
 * A freed slot keeps an array of at most SLOT_KEEP nodes.  Larger arrays are
 * kept apart, up to EVQ_SPARES of them (the batch's array, which a large
 * batch swaps with its slot's, is one), and a slot takes one once it holds
 * more than SLOT_KEEP nodes: a collective's few times reuse the same large
 * arrays, and times that each hold a few events (noise, traces) do not keep
 * one each. */
#define SLOT_KEEP ((size_t)4096)

/* Room for n nodes in slot array v; 0 or -1. */
static int slot_reserve(evq *q, evq_vec *v, size_t n)
{
	if (n <= v->cap)
		return 0;
	if (n > SLOT_KEEP && q->nspare) {
		evq_vec *sp = &q->spare[q->nspare - 1];
		if (sp->cap >= n) {
			memcpy(sp->a, v->a, v->n * sizeof *v->a);
			sp->n = v->n;
			vec_free(v);
			*v = *sp;
			q->nspare--;
			return 0;
		}
	}
	return vec_reserve(v, n);
}

/* Slot array v of a freed slot (empty): kept if small, else a spare or
 * freed. */
static void slot_release(evq *q, evq_vec *v)
{
	if (v->cap <= SLOT_KEEP)
		return;
	if (q->nspare < EVQ_SPARES)
		q->spare[q->nspare++] = *v;
	else
		vec_free(v);
	v->a = NULL;
	v->cap = 0;
}

/* ---- Pending times: hash table and heap of slots ---------------------- */

static uint64_t ht_hash(const evq *q, uint64_t time)
{
	return oa_home(time, q->ht_mask);
}

/* The slot of time, or UINT32_MAX. */
static uint32_t ht_find(const evq *q, uint64_t time)
{
	if (!q->ht)
		return UINT32_MAX;
	uint64_t h0 = ht_hash(q, time), h = h0;
	while (q->ht[h].slot != UINT32_MAX && q->ht[h].time != time)
		h = (h + 1) & q->ht_mask;
	ASSERT(oa_probe_ok(h0, h, q->ht_mask));
	return q->ht[h].slot;
}

static void ht_put(evq *q, evq_hent e)
{
	uint64_t h0 = ht_hash(q, e.time), h = h0;
	while (q->ht[h].slot != UINT32_MAX)
		h = (h + 1) & q->ht_mask;
	ASSERT(oa_probe_ok(h0, h, q->ht_mask));
	q->ht[h] = e;
}

static int ht_word(const void *t, uint64_t i, uint64_t *w)
{
	const evq_hent *e = &((const evq_hent *)t)[i];
	*w = e->time;
	return e->slot != UINT32_MAX;
}

/* Room for one more time (load at most 1/2); 0 or -1. */
static int ht_room(evq *q)
{
	if (q->ht && 2 * ((uint64_t)q->nheap + 1) <= q->ht_mask + 1)
		return 0;
	uint64_t cap = q->ht ? 2 * (q->ht_mask + 1) : 64;
	evq_hent *old = q->ht, *nt = malloc(cap * sizeof *nt);
	uint64_t ocap = q->ht ? q->ht_mask + 1 : 0;
	if (!nt)
		return -1;
	for (uint64_t i = 0; i < cap; i++)
		nt[i] = (evq_hent){ 0, UINT32_MAX, 0 };
	ASSERT(!old || oa_probes_ok(oa_measure(old, ocap - 1, ht_word), ocap - 1));
	q->ht = nt;
	q->ht_mask = cap - 1;
	for (uint64_t i = 0; i < ocap; i++)
		if (old[i].slot != UINT32_MAX)
			ht_put(q, old[i]);
	free(old);
	return 0;
}

/* Remove time's entry (present) by shifting later entries of its probe
 * run back. */
static void ht_del(evq *q, uint64_t time)
{
	uint64_t h0 = ht_hash(q, time), h = h0, j;
	while (q->ht[h].time != time || q->ht[h].slot == UINT32_MAX)
		h = (h + 1) & q->ht_mask;
	for (j = h;;) {
		j = (j + 1) & q->ht_mask;
		if (q->ht[j].slot == UINT32_MAX)
			break;
		if (oa_stays(h, j, ht_hash(q, q->ht[j].time)))
			continue;
		q->ht[h] = q->ht[j];
		h = j;
	}
	ASSERT(oa_probe_ok(h0, j, q->ht_mask));
	q->ht[h].slot = UINT32_MAX;
}

static void heap_up(evq *q, uint32_t i)
{
	evq_hent e = q->heap[i];
	while (i > 0) {
		uint32_t p = (i - 1) / 2;
		if (q->heap[p].time <= e.time)
			break;
		q->heap[i] = q->heap[p];
		i = p;
	}
	q->heap[i] = e;
}

static void heap_down(evq *q, uint32_t i)
{
	evq_hent e = q->heap[i];
	uint32_t n = q->nheap;
	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && q->heap[c + 1].time < q->heap[c].time)
			c++;
		if (q->heap[c].time >= e.time)
			break;
		q->heap[i] = q->heap[c];
		i = c;
	}
	q->heap[i] = e;
}

/* A new slot for time, pending: its index, or UINT32_MAX when out of
 * memory.  Slots and the arrays of freed slots are reused. */
static uint32_t slot_new(evq *q, uint64_t time)
{
	if (ht_room(q))
		return UINT32_MAX;
	uint32_t s;
	if (q->nfree) {
		s = q->free[--q->nfree];
	} else {
		if (q->nslot == q->slot_cap) {
			uint32_t nc = q->slot_cap ? 2 * q->slot_cap : 16;
			evq_slot *ns = realloc(q->slot, nc * sizeof *ns);
			if (!ns)
				return UINT32_MAX;
			q->slot = ns;
			evq_hent *nh = realloc(q->heap, nc * sizeof *nh);
			if (!nh)
				return UINT32_MAX;
			q->heap = nh;
			uint32_t *nf = realloc(q->free, nc * sizeof *nf);
			if (!nf)
				return UINT32_MAX;
			q->free = nf;
			q->slot_cap = nc;
		}
		s = q->nslot++;
		memset(&q->slot[s], 0, sizeof q->slot[s]);
	}
	evq_hent e = { time, s, 0 };
	q->slot[s].time = time;
	q->slot[s].v.n = 0;
	ht_put(q, e);
	q->heap[q->nheap++] = e;
	heap_up(q, q->nheap - 1);
	return s;
}

int evq_push_slow(evq *q, uint64_t time, evq_ent e)
{
	uint32_t s = q->hot;
	if (s == UINT32_MAX || q->slot[s].time != time) {
		s = ht_find(q, time);
		if (s == UINT32_MAX && (s = slot_new(q, time)) == UINT32_MAX)
			return -1;
		q->hot = s;
	}
	ASSERT(time >= q->now);
	evq_vec *v = &q->slot[s].v;
	if (v->n == v->cap && slot_reserve(q, v, v->n + 1))
		return -1;
	v->a[v->n++] = e;
	q->count++;
	return 0;
}

void evq_push_now(evq *q, evq_node x)
{
	evq_vec *v = &q->batch;
	ASSERT(x.time == q->now && q->pos >= 1 && q->pos <= v->n);
	/* The first unprocessed node with a larger seq: usually the next. */
	size_t lo = q->pos, hi = v->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v->a[mid].seq < x.seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	ASSERT(lo == v->n || v->a[lo].seq != x.seq);
	memmove(&v->a[q->pos - 1], &v->a[q->pos], (lo - q->pos) * sizeof *v->a);
	v->a[lo - 1] = (evq_ent){ x.seq, x.rank, x.op, x.peer };
	q->pos--;
}

/* The batch's nodes were written to tmp: tmp's array becomes the batch's
 * and the batch's the scratch. */
static void take_tmp(evq *q)
{
	evq_ent *t = q->batch.a;
	size_t tc = q->batch.cap;
	q->batch.a = q->tmp.a;
	q->batch.cap = q->tmp.cap;
	q->tmp.a = t;
	q->tmp.cap = tc;
}

/* Merge sorted runs a .. ae - 1 and b .. be - 1 into o: the run to take
 * from chosen without a branch (which run comes next is unpredictable),
 * a's node on a tie. */
static void merge2(const evq_ent *a, const evq_ent *ae, const evq_ent *b, const evq_ent *be,
                   evq_ent *o)
{
	while (a < ae && b < be) {
		int tb = b->seq < a->seq;
		*o++ = *(tb ? b : a);
		a += !tb;
		b += tb;
	}
	memcpy(o, a, (size_t)(ae - a) * sizeof *a);
	memcpy(o + (ae - a), b, (size_t)(be - b) * sizeof *b);
}

/* Merge sorted runs a, b and c into o in one pass: on a tie the earlier
 * run's node first. */
static void merge3(const evq_ent *a, const evq_ent *ae, const evq_ent *b, const evq_ent *be,
                   const evq_ent *c, const evq_ent *ce, evq_ent *o)
{
	while (a < ae && b < be && c < ce) {
		if (a->seq <= b->seq && a->seq <= c->seq)
			*o++ = *a++;
		else if (b->seq <= c->seq)
			*o++ = *b++;
		else
			*o++ = *c++;
	}
	if (a == ae)
		merge2(b, be, c, ce, o);
	else if (b == be)
		merge2(a, ae, c, ce, o);
	else
		merge2(a, ae, b, be, o);
}

/* Sort the batch by seq when it is made of at most 8 sorted runs (the usual
 * case: put-back events and events from a few buckets): three runs in one
 * pass, more by pairs, in ceil(log2 runs) passes between the batch and tmp,
 * sequential; the earlier run first on a tie.  The first run ends at first
 * (> 0).  Returns 1 if done, 0 if there are more runs, -1 when out of
 * memory. */
static int merge_runs(evq *q, size_t first)
{
	evq_vec *v = &q->batch;
	size_t end[8], k = 0;   /* run j is end[j - 1] .. end[j] - 1 */
	for (size_t i = first; i < v->n; i++) {
		if (v->a[i].seq < v->a[i - 1].seq) {
			if (k == 7)
				return 0;
			end[k++] = i;
		}
	}
	end[k++] = v->n;
	if (vec_reserve(&q->tmp, v->n))
		return -1;
	if (k == 3) {
		merge3(v->a, v->a + end[0], v->a + end[0], v->a + end[1], v->a + end[1],
		       v->a + end[2], q->tmp.a);
		take_tmp(q);
		return 1;
	}
	while (k > 1) {
		size_t nk = 0;
		for (size_t j = 0; j < k; j += 2) {
			size_t lo = j ? end[j - 1] : 0;
			if (j + 1 < k)
				merge2(v->a + lo, v->a + end[j], v->a + end[j], v->a + end[j + 1],
				       q->tmp.a + lo);
			else
				memcpy(q->tmp.a + lo, v->a + lo, (end[j] - lo) * sizeof *v->a);
			end[nk++] = end[j + 1 < k ? j + 1 : j];
		}
		k = nk;
		take_tmp(q);
	}
	return 1;
}

/* Batches of at most this many nodes are sorted by merging their runs. */
#define MERGE_ALL_MAX 4096

/* The end of the sorted run of a[0 .. n - 1] that starts at lo. */
static size_t run_end(const evq_ent *a, size_t lo, size_t n)
{
	size_t i = lo + 1;
	while (i < n && a[i].seq >= a[i - 1].seq)
		i++;
	return i;
}

/* Sort the batch by seq, merging neighbouring sorted runs pass by pass
 * (ceil(log2 runs) passes, the earlier run first on a tie).  For small
 * batches, where a radix sort's 2048 counts per pass cost more than the
 * nodes (under noise, batches of a few hundred nodes in dozens of runs).
 * Returns 0 or -1 when out of memory. */
static int merge_all(evq *q)
{
	evq_vec *v = &q->batch;
	if (vec_reserve(&q->tmp, v->n))
		return -1;
	for (size_t runs = 0; runs != 1;) {
		runs = 0;
		for (size_t lo = 0, n = v->n; lo < n; runs++) {
			size_t mid = run_end(v->a, lo, n), hi = mid < n ? run_end(v->a, mid, n) : n;
			merge2(v->a + lo, v->a + mid, v->a + mid, v->a + hi, q->tmp.a + lo);
			lo = hi;
		}
		take_tmp(q);
	}
	return 0;
}

/* Sort a[0 .. n - 1] by seq: LSD radix sort on seq - min, 11 bits per
 * pass, between a and tmp (room for n), stable (copies of an event keep
 * their order).  O(n) per pass, sequential reads.  The result is in a. */
static void radix_sort(evq_ent *a, evq_ent *tmp, size_t n)
{
	uint32_t lo = UINT32_MAX, hi = 0;
	for (size_t i = 0; i < n; i++) {
		if (a[i].seq < lo)
			lo = a[i].seq;
		if (a[i].seq > hi)
			hi = a[i].seq;
	}
	evq_ent *src = a, *dst = tmp;
	uint32_t range = hi - lo;
	for (unsigned shift = 0; shift < 32 && (shift == 0 || (range >> shift) != 0); shift += 11) {
		size_t cnt[2048] = { 0 };
		for (size_t i = 0; i < n; i++)
			cnt[((src[i].seq - lo) >> shift) & 2047]++;
		size_t sum = 0;
		for (unsigned d = 0; d < 2048; d++) {
			size_t c = cnt[d];
			cnt[d] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			dst[cnt[((src[i].seq - lo) >> shift) & 2047]++] = src[i];
		evq_ent *t = src;
		src = dst;
		dst = t;
	}
	if (src != a)
		memcpy(a, src, n * sizeof *a);
}

/* Sort the batch by seq.  A large batch is mostly the pushes of the
 * batches before, in seq order, among events put back with older seqs:
 * the nodes not below every seq before them stay in their order (in
 * tmp), the others (in rest) are sorted and merged in, a node of the
 * first kind first on a tie (copies of an event keep their order: a copy
 * in rest comes after its twin in tmp).  Returns 0 or -1 when out of
 * memory. */
static int sort_batch(evq *q)
{
	evq_vec *v = &q->batch;
	if (v->n <= MERGE_ALL_MAX)
		return merge_all(q);
	if (vec_reserve(&q->tmp, v->n) || vec_reserve(&q->rest, v->n))
		return -1;
	size_t m = 0, k = 0;
	uint32_t top = 0;
	for (size_t i = 0; i < v->n; i++) {
		if (v->a[i].seq >= top) {
			top = v->a[i].seq;
			q->tmp.a[m++] = v->a[i];
		} else {
			q->rest.a[k++] = v->a[i];
		}
	}
	radix_sort(q->rest.a, v->a, k);
	merge2(q->tmp.a, q->tmp.a + m, q->rest.a, q->rest.a + k, v->a);
	return 0;
}

/* Batches of at most this many nodes are copied out of their slot. */
#define SMALL_BATCH 4096

long evq_next_batch(evq *q)
{
	q->batch.n = q->pos = 0;
	if (q->count == 0)
		return 0;
	/* The slot of the smallest time becomes the batch; the batch's old
	 * array goes to the freed slot. */
	uint32_t s = q->heap[0].slot;
	q->heap[0] = q->heap[--q->nheap];
	if (q->nheap)
		heap_down(q, 0);
	ASSERT(q->slot[s].time >= q->now);
	q->now = q->slot[s].time;
	ht_del(q, q->slot[s].time);
	if (q->hot == s)
		q->hot = UINT32_MAX;
	evq_vec *v = &q->slot[s].v;
	if (v->n <= SMALL_BATCH && v->n <= q->batch.cap) {
		/* a small batch is copied, so that the slot keeps its small array
		 * and large arrays do not pile up in the free slots */
		memcpy(q->batch.a, v->a, v->n * sizeof *v->a);
		q->batch.n = v->n;
	} else {
		evq_vec t = q->batch;
		q->batch = *v;
		*v = t;
	}
	v->n = 0;
	slot_release(q, v);
	q->free[q->nfree++] = s;
	q->count -= q->batch.n;
	for (size_t i = 1; i < q->batch.n; i++) {
		if (q->batch.a[i].seq < q->batch.a[i - 1].seq) {
			int r = merge_runs(q, i);
			if (r < 0 || (r == 0 && sort_batch(q)))
				return -1;
			break;
		}
	}
#if GOAL_CHECKS
	for (size_t i = 1; i < q->batch.n; i++) {
		const evq_ent *a = &q->batch.a[i - 1], *b = &q->batch.a[i];
		ASSERT(a->seq < b->seq || (a->seq == b->seq && a->rank == b->rank && a->op == b->op));
	}
#endif
	return (long)q->batch.n;
}

static int cmp_u32(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	return (a > b) - (a < b);
}

/* New seq of x under the map described at evq_renumber. */
static uint32_t remap(const uint32_t *s, size_t m, uint32_t floor, uint32_t x)
{
	if (x < floor)
		return x;
	size_t lo = 0, hi = m;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (uint32_t)(floor + lo);
}

uint64_t evq_renumber(evq *q, uint32_t floor, uint32_t *const *ext, size_t next)
{
	size_t n = evq_size(q) + next, m = 0;
	uint32_t *s = malloc((n ? n : 1) * sizeof *s);
	if (!s)
		return UINT64_MAX;
	for (uint32_t h = 0; h < q->nheap; h++) {
		const evq_vec *v = &q->slot[q->heap[h].slot].v;
		for (size_t i = 0; i < v->n; i++)
			if (v->a[i].seq >= floor)
				s[m++] = v->a[i].seq;
	}
	for (size_t i = q->pos; i < q->batch.n; i++)
		if (q->batch.a[i].seq >= floor)
			s[m++] = q->batch.a[i].seq;
	for (size_t i = 0; i < next; i++)
		if (*ext[i] >= floor)
			s[m++] = *ext[i];
	qsort(s, m, sizeof *s, cmp_u32);
	size_t u = 0;   /* without repeats: equal seqs map to one number */
	for (size_t i = 0; i < m; i++)
		if (u == 0 || s[i] != s[u - 1])
			s[u++] = s[i];
	for (uint32_t h = 0; h < q->nheap; h++) {
		evq_vec *v = &q->slot[q->heap[h].slot].v;
		for (size_t i = 0; i < v->n; i++)
			v->a[i].seq = remap(s, u, floor, v->a[i].seq);
	}
	for (size_t i = q->pos; i < q->batch.n; i++)
		q->batch.a[i].seq = remap(s, u, floor, q->batch.a[i].seq);
	for (size_t i = 0; i < next; i++)
		*ext[i] = remap(s, u, floor, *ext[i]);
	free(s);
	return (uint64_t)floor + u;
}
