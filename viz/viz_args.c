/* viz_args.c: goalviz's rank lists. */
#include "viz_args.h"
#include "num.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

int viz_parse_ranges(const char *s, uint64_t **out, size_t *n, char *err, size_t errlen)
{
	size_t cap = 0, k = 0;
	uint64_t *r = NULL;
	const char *p = s;
	for (;;) {
		uint64_t lo, hi;
		if (num_u64_scan(&p, &lo) != NUM_OK)
			goto bad;
		hi = lo;
		if (*p == '-') {
			p++;
			if (num_u64_scan(&p, &hi) != NUM_OK || hi < lo)
				goto bad;
		}
		if (util_grow(&r, &cap, k + 1, 2 * sizeof *r)) {
			free(r);
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		r[2 * k] = lo;
		r[2 * k + 1] = hi;
		k++;
		if (*p == 0)
			break;
		if (*p != ',')
			goto bad;
		p++;
	}
	/* Sort the pairs by lo (pairs are adjacent u64s: sort as 16-byte items). */
	for (size_t i = 1; i < k; i++) {
		uint64_t lo = r[2 * i], hi = r[2 * i + 1];
		size_t j = i;
		while (j > 0 && cmp_u64(&r[2 * (j - 1)], &lo) > 0) {
			r[2 * j] = r[2 * (j - 1)];
			r[2 * j + 1] = r[2 * (j - 1) + 1];
			j--;
		}
		r[2 * j] = lo;
		r[2 * j + 1] = hi;
	}
	size_t m = 0;
	for (size_t i = 0; i < k; i++) {
		if (m && (r[2 * i] <= r[2 * (m - 1) + 1] ||
		          r[2 * i] - 1 == r[2 * (m - 1) + 1])) {
			if (r[2 * i + 1] > r[2 * (m - 1) + 1])
				r[2 * (m - 1) + 1] = r[2 * i + 1];
		} else {
			r[2 * m] = r[2 * i];
			r[2 * m + 1] = r[2 * i + 1];
			m++;
		}
	}
	*out = r;
	*n = m;
	return 0;
bad:
	free(r);
	snprintf(err, errlen, "bad rank list '%s' (expected e.g. 0-15,32)", s);
	return -1;
}

