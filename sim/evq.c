/* evq.c: monotone radix heap over 64-bit times with batches of equal time
 * sorted by seq; all memory access is sequential over arrays. */
#include "evq.h"

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
}

void evq_free(evq *q)
{
	for (int i = 0; i < 65; i++)
		vec_free(&q->b[i]);
	vec_free(&q->batch);
	vec_free(&q->tmp);
	evq_init(q);
}

static int vec_reserve(evq_vec *v, size_t n)
{
	if (n <= v->cap)
		return 0;
	size_t cap = v->cap ? v->cap : 256;
	while (cap < n)
		cap *= 2;
	size_t ob = v->cap * sizeof *v->a, nb = cap * sizeof *v->a;
	evq_node *a;
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

static inline unsigned bucket_of(uint64_t last, uint64_t t)
{
	return t == last ? 0u : 64u - (unsigned)__builtin_clzll(t ^ last);
}

int evq_push(evq *q, evq_node x)
{
	evq_vec *v = &q->b[bucket_of(q->last, x.time)];
	if (v->n == v->cap && vec_reserve(v, v->n + 1))
		return -1;
	v->a[v->n++] = x;
	q->count++;
	return 0;
}

/* Sort the batch by seq when it is made of at most 8 sorted runs (the usual
 * case: put-back events and events from a few buckets): merge the runs into
 * tmp, O(n * runs), sequential.  Returns 1 if done, 0 if there are more
 * runs, -1 when out of memory. */
static int merge_runs(evq *q)
{
	evq_vec *v = &q->batch;
	size_t head[9], end[9], k = 0;
	head[0] = 0;
	for (size_t i = 1; i < v->n; i++) {
		if (v->a[i].seq < v->a[i - 1].seq) {
			if (k == 7)
				return 0;
			end[k++] = i;
			head[k] = i;
		}
	}
	end[k++] = v->n;
	if (vec_reserve(&q->tmp, v->n))
		return -1;
	for (size_t o = 0; o < v->n; o++) {
		size_t best = 9;
		for (size_t j = 0; j < k; j++)
			if (head[j] < end[j] && (best == 9 || v->a[head[j]].seq < v->a[head[best]].seq))
				best = j;
		q->tmp.a[o] = v->a[head[best]++];
	}
	evq_node *t = v->a;
	size_t tc = v->cap;
	v->a = q->tmp.a;
	v->cap = q->tmp.cap;
	q->tmp.a = t;
	q->tmp.cap = tc;
	return 1;
}

/* Sort the batch by seq: LSD radix sort on seq - min, 11 bits per pass
 * (seqs are unique, so a stable sort is a total order).  O(n) per pass,
 * sequential memory access.  Returns 0 or -1 when out of memory. */
static int sort_batch(evq *q)
{
	evq_vec *v = &q->batch;
	uint32_t lo = UINT32_MAX, hi = 0;
	for (size_t i = 0; i < v->n; i++) {
		if (v->a[i].seq < lo)
			lo = v->a[i].seq;
		if (v->a[i].seq > hi)
			hi = v->a[i].seq;
	}
	if (vec_reserve(&q->tmp, v->n))
		return -1;
	uint32_t range = hi - lo;
	for (unsigned shift = 0; shift < 32 && (shift == 0 || (range >> shift) != 0); shift += 11) {
		size_t cnt[2048] = { 0 };
		for (size_t i = 0; i < v->n; i++)
			cnt[((v->a[i].seq - lo) >> shift) & 2047]++;
		size_t sum = 0;
		for (unsigned d = 0; d < 2048; d++) {
			size_t c = cnt[d];
			cnt[d] = sum;
			sum += c;
		}
		for (size_t i = 0; i < v->n; i++)
			q->tmp.a[cnt[((v->a[i].seq - lo) >> shift) & 2047]++] = v->a[i];
		evq_node *t = v->a;
		size_t tc = v->cap;
		v->a = q->tmp.a;
		v->cap = q->tmp.cap;
		q->tmp.a = t;
		q->tmp.cap = tc;
	}
	return 0;
}

long evq_next_batch(evq *q)
{
	q->batch.n = q->pos = 0;
	if (q->count == 0)
		return 0;
	if (q->b[0].n == 0) {
		/* Smallest non-empty bucket; its minimum becomes last and its
		 * nodes move to lower buckets. */
		unsigned k = 1;
		while (q->b[k].n == 0)
			k++;
		evq_vec *v = &q->b[k];
		uint64_t m = v->a[0].time;
		for (size_t i = 1; i < v->n; i++)
			if (v->a[i].time < m)
				m = v->a[i].time;
		q->last = m;
		for (size_t i = 0; i < v->n; i++) {
			evq_vec *d = &q->b[bucket_of(m, v->a[i].time)];
			if (d->n == d->cap && vec_reserve(d, d->n + 1))
				return -1;
			d->a[d->n++] = v->a[i];
		}
		v->n = 0;
	}
	/* Bucket 0 becomes the batch; the batch's old array becomes bucket 0. */
	evq_vec t = q->batch;
	q->batch = q->b[0];
	q->b[0] = t;
	q->b[0].n = 0;
	q->count -= q->batch.n;
	for (size_t i = 1; i < q->batch.n; i++) {
		if (q->batch.a[i].seq < q->batch.a[i - 1].seq) {
			int r = merge_runs(q);
			if (r < 0 || (r == 0 && sort_batch(q)))
				return -1;
			break;
		}
	}
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

uint64_t evq_renumber(evq *q, uint32_t floor)
{
	size_t n = evq_size(q), m = 0;
	uint32_t *s = malloc((n ? n : 1) * sizeof *s);
	if (!s)
		return UINT64_MAX;
	for (int k = 0; k < 65; k++)
		for (size_t i = 0; i < q->b[k].n; i++)
			if (q->b[k].a[i].seq >= floor)
				s[m++] = q->b[k].a[i].seq;
	for (size_t i = q->pos; i < q->batch.n; i++)
		if (q->batch.a[i].seq >= floor)
			s[m++] = q->batch.a[i].seq;
	qsort(s, m, sizeof *s, cmp_u32);
	for (int k = 0; k < 65; k++)
		for (size_t i = 0; i < q->b[k].n; i++)
			q->b[k].a[i].seq = remap(s, m, floor, q->b[k].a[i].seq);
	for (size_t i = q->pos; i < q->batch.n; i++)
		q->batch.a[i].seq = remap(s, m, floor, q->batch.a[i].seq);
	free(s);
	return (uint64_t)floor + m;
}
