/* viz_args.c: goalviz's option values: rank lists and times. */
#include "viz_args.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

int viz_parse_time(const char *s, uint64_t *t)
{
	uint64_t ip = 0, frac = 0, fdiv = 1;
	const char *p = s;
	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (ip > (UINT64_MAX - 9) / 10)
			return -1;
		ip = ip * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.') {
		p++;
		if (*p < '0' || *p > '9')
			return -1;
		for (; *p >= '0' && *p <= '9'; p++)
			if (fdiv < 1000000000u) {
				frac = frac * 10 + (uint64_t)(*p - '0');
				fdiv *= 10;
			}
	}
	uint64_t mul;
	if (*p == 0 || strcmp(p, "ns") == 0)
		mul = 1;
	else if (strcmp(p, "us") == 0)
		mul = 1000;
	else if (strcmp(p, "ms") == 0)
		mul = 1000000;
	else if (strcmp(p, "s") == 0)
		mul = 1000000000;
	else
		return -1;
	if (ip > UINT64_MAX / mul)
		return -1;
	uint64_t v = ip * mul, f = frac * mul / fdiv;
	if (v > UINT64_MAX - f)
		return -1;
	*t = v + f;
	return 0;
}

/* Parse decimal digits at *p (no sign); 0 on success, advancing *p. */
static int parse_u64(const char **p, uint64_t *v)
{
	const char *q = *p;
	uint64_t x = 0;
	if (*q < '0' || *q > '9')
		return -1;
	for (; *q >= '0' && *q <= '9'; q++) {
		uint64_t d = (uint64_t)(*q - '0');
		if (x > (UINT64_MAX - d) / 10)
			return -1;
		x = x * 10 + d;
	}
	*p = q;
	*v = x;
	return 0;
}

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
		if (parse_u64(&p, &lo))
			goto bad;
		hi = lo;
		if (*p == '-') {
			p++;
			if (parse_u64(&p, &hi) || hi < lo)
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

