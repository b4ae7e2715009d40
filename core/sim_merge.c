/* sim_merge.c: the merge of a lookahead window's logs (docs/parallel.md,
 * "Why a window's events may run rank by rank", point 5): from the events
 * of a window that gave seqs, in the order of their ranks (each rank's in
 * its own order) and numbered as a run rank by rank numbers them, the
 * order in which the sequential run processed them, and so the seqs it
 * gave.  The merge runs the event queue again on the log alone: the
 * events pending at the window's start at their (time, seq), and each
 * event, as it takes its place, gives its children (the events it queued)
 * their sequential seqs and queues them.  No rank's state is read. */
#include "sim_int.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct kv {
	uint64_t key;
	uint32_t i, pad;
} kv;

/* Sort a[0 .. n - 1] by key (stable) with tmp (room for n); the result in
 * a.  Radix, 11 bits a pass, as many passes as the largest key needs. */
static void kv_sort(kv *a, kv *tmp, size_t n)
{
	uint64_t max = 0;
	for (size_t k = 0; k < n; k++)
		max = a[k].key > max ? a[k].key : max;
	kv *src = a, *dst = tmp;
	for (unsigned sh = 0; sh < 64 && (sh == 0 || (max >> sh)); sh += 11) {
		size_t cnt[2048] = { 0 };
		for (size_t k = 0; k < n; k++)
			cnt[(src[k].key >> sh) & 2047]++;
		size_t sum = 0;
		for (unsigned d = 0; d < 2048; d++) {
			size_t c = cnt[d];
			cnt[d] = sum;
			sum += c;
		}
		for (size_t k = 0; k < n; k++)
			dst[cnt[(src[k].key >> sh) & 2047]++] = src[k];
		kv *t = src;
		src = dst;
		dst = t;
	}
	if (src != a)
		memcpy(a, src, n * sizeof *a);
}

/* The record whose new seqs hold seq (above base): the last one with p0 <=
 * seq, or UINT32_MAX. */
static uint32_t parent_of(const sim_mrec *r, size_t n, uint32_t seq)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (r[mid].p0 <= seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && seq - r[lo - 1].p0 < r[lo - 1].n ? (uint32_t)(lo - 1) : UINT32_MAX;
}

int sim_merge(const sim_mrec *r, size_t n, uint32_t base, uint32_t *order, uint32_t *p0)
{
	if (!n)
		return 0;
	int rc = -1;
	uint32_t *first = malloc(n * sizeof *first), *next = malloc(n * sizeof *next);
	uint32_t *now = malloc(n * sizeof *now);
	evq q;
	evq_init(&q);
	if (!first || !next || !now)
		goto out;
	/* each event's children, in the log's order */
	for (size_t k = 0; k < n; k++)
		first[k] = UINT32_MAX;
	for (size_t k = n; k-- > 0;) {
		uint32_t p = r[k].par;
		if ((p == UINT32_MAX) != (r[k].seq < base) ||
		    (p != UINT32_MAX && (p >= k || r[p].t > r[k].t || r[k].seq - r[p].p0 >= r[p].n)))
			goto out;   /* not a log of a window */
		if (p != UINT32_MAX) {
			next[k] = first[p];
			first[p] = (uint32_t)k;
		} else if (evq_push(&q, (evq_node){ r[k].t, r[k].seq, (uint32_t)k, 0, 0 })) {
			goto out;
		}
	}
	/* the sequential run again, on the log: an event's place gives its new
	 * seqs, and so its children's places.  Children of the batch's time
	 * come after the whole batch (their seqs are new), in the order they
	 * get them: in now[]. */
	size_t done = 0, nn;
	uint32_t seq = base;
	long nb;
	while ((nb = evq_next_batch(&q)) > 0) {
		nn = 0;
		for (size_t i = 0, j = 0; i < q.batch.n || j < nn;) {
			uint32_t k = i < q.batch.n ? evq_batch_node(&q, i++).rank : now[j++];
			order[done++] = k;
			p0[k] = seq;
			seq += r[k].n;
			for (uint32_t c = first[k]; c != UINT32_MAX; c = next[c]) {
				evq_node y = { r[c].t, p0[k] + (r[c].seq - r[k].p0), c, 0, 0 };
				if (y.time == q.now)
					now[nn++] = c;
				else if (evq_push(&q, y))
					goto out;
			}
		}
	}
	rc = nb < 0 || done != n ? -1 : 0;
out:
	free(first);
	free(next);
	free(now);
	evq_free(&q);
	return rc;
}

int sim_merge_check(const sim_mrec *rec, const uint32_t *own, size_t n, uint32_t base,
                    uint64_t *ns)
{
	if (!n)
		return 1;
	int rc = -1;
	kv *a = malloc(n * sizeof *a), *tmp = malloc(n * sizeof *tmp);
	uint32_t *at = malloc(n * sizeof *at), *order = malloc(n * sizeof *order);
	uint32_t *p0 = malloc(n * sizeof *p0);
	sim_mrec *w = malloc(n * sizeof *w);
	if (!a || !tmp || !at || !order || !p0 || !w)
		goto out;
	/* the ranks' order: record a[j].i of the run is record j of the log */
	for (size_t k = 0; k < n; k++)
		a[k] = (kv){ own[k], (uint32_t)k, 0 };
	kv_sort(a, tmp, n);
	for (size_t j = 0; j < n; j++)
		at[a[j].i] = (uint32_t)j;
	/* numbered as a run rank by rank numbers them */
	uint32_t c = base;
	for (size_t j = 0; j < n; j++) {
		const sim_mrec *x = &rec[a[j].i];
		w[j] = (sim_mrec){ x->t, x->seq, c, x->n, UINT32_MAX };
		c += x->n;
	}
	for (size_t j = 0; j < n; j++) {
		if (w[j].seq < base)
			continue;
		uint32_t p = parent_of(rec, n, w[j].seq);
		if (p == UINT32_MAX)
			goto out;
		w[j].par = at[p];
		w[j].seq = w[at[p]].p0 + (w[j].seq - rec[p].p0);
	}
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int m = sim_merge(w, n, base, order, p0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	*ns += (uint64_t)((t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec));
	rc = 0;
	if (m)
		goto out;
	for (size_t k = 0; k < n; k++)
		if (a[order[k]].i != k || p0[order[k]] != rec[k].p0)
			goto out;
	rc = 1;
out:
	free(a);
	free(tmp);
	free(at);
	free(order);
	free(p0);
	free(w);
	return rc;
}
