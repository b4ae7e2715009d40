/* evq.c: binary array heap of (time, seq) nodes that moves a hole instead of
 * swapping at each level. */
#include "evq.h"

#include <stdlib.h>

void evq_init(evq *q)
{
	q->a = NULL;
	q->n = q->cap = 0;
}

void evq_free(evq *q)
{
	free(q->a);
	evq_init(q);
}

/* Move the hole at i up until x fits, then store x there. */
static void sift_up(evq_node *a, size_t i, evq_node x)
{
	while (i > 0) {
		size_t p = (i - 1) / 2;
		if (!evq_less(&x, &a[p]))
			break;
		a[i] = a[p];
		i = p;
	}
	a[i] = x;
}

/* Move the hole at i (of n nodes) down until x fits, then store x there. */
static void sift_down(evq_node *a, size_t n, size_t i, evq_node x)
{
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && evq_less(&a[c + 1], &a[c]))
			c++;
		if (!evq_less(&a[c], &x))
			break;
		a[i] = a[c];
		i = c;
	}
	a[i] = x;
}

int evq_push(evq *q, evq_node x)
{
	if (q->n == q->cap) {
		size_t cap = q->cap ? 2 * q->cap : 1024;
		evq_node *a = realloc(q->a, cap * sizeof *a);
		if (!a)
			return -1;
		q->a = a;
		q->cap = cap;
	}
	sift_up(q->a, q->n++, x);
	return 0;
}

void evq_pop(evq *q, evq_node *out)
{
	*out = q->a[0];
	q->n--;
	if (q->n > 0)
		sift_down(q->a, q->n, 0, q->a[q->n]);
}

void evq_replace_top(evq *q, evq_node x)
{
	sift_down(q->a, q->n, 0, x);
}

static int cmp_u32(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	return (a > b) - (a < b);
}

uint64_t evq_renumber(evq *q, uint32_t floor)
{
	size_t m = 0;
	uint32_t *s = malloc((q->n ? q->n : 1) * sizeof *s);
	if (!s)
		return UINT64_MAX;
	for (size_t i = 0; i < q->n; i++)
		if (q->a[i].seq >= floor)
			s[m++] = q->a[i].seq;
	qsort(s, m, sizeof *s, cmp_u32);
	/* seqs are unique: the new seq of x is floor + its rank among s. */
	for (size_t i = 0; i < q->n; i++) {
		uint32_t x = q->a[i].seq;
		if (x < floor)
			continue;
		size_t lo = 0, hi = m;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (s[mid] < x)
				lo = mid + 1;
			else
				hi = mid;
		}
		q->a[i].seq = (uint32_t)(floor + lo);
	}
	free(s);
	return (uint64_t)floor + m;
}
