/* num.c: integers, exact decimals, ranges, times and rank lists as the
 * tools write them (num.h). */
#include "num.h"
#include "util.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const err_str[] = {
#define NUM_STR_X(e, m) m,
	NUM_ERRORS(NUM_STR_X)
#undef NUM_STR_X
};

const char *num_err_str(num_err e)
{
	return err_str[e];
}

/* The digits of a number at the start of s[0..n): "DIGITS[.DIGITS]". */
typedef struct num_scan {
	size_t end;          /* bytes read */
	size_t nint, nfrac;  /* digits before and after the point */
	int dot;             /* a '.' was read */
	int big;             /* the integer part is above UINT64_MAX */
	uint64_t ip;         /* the integer part (unless big) */
	uint64_t frac;       /* the first NUM_FRAC_MAX fraction digits */
	unsigned kept;       /* how many: min(nfrac, NUM_FRAC_MAX) */
} num_scan;

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static num_scan scan(const char *s, size_t n)
{
	num_scan c = { 0 };
	size_t i = 0;
	for (; i < n && is_digit(s[i]); i++, c.nint++) {
		unsigned d = (unsigned)(s[i] - '0');
		if (c.ip > (UINT64_MAX - d) / 10)
			c.big = 1;
		else
			c.ip = c.ip * 10 + d;
	}
	if (i < n && s[i] == '.') {
		c.dot = 1;
		for (i++; i < n && is_digit(s[i]); i++, c.nfrac++)
			if (c.kept < NUM_FRAC_MAX) {
				c.frac = c.frac * 10 + (uint64_t)(s[i] - '0');
				c.kept++;
			}
	}
	c.end = i;
	return c;
}

/* 10^k, k <= 19. */
static uint64_t pow10u(unsigned k)
{
	uint64_t p = 1;
	while (k--)
		p *= 10;
	return p;
}

num_err num_u64_parse(const char *s, size_t n, uint64_t *v)
{
	num_scan c = scan(s, n);
	if (c.nint == 0 || c.dot || c.end != n)
		return NUM_SYNTAX;
	if (c.big)
		return NUM_BIG;
	*v = c.ip;
	return NUM_OK;
}

num_err num_u64_scan(const char **p, uint64_t *v)
{
	size_t n = 0;
	while ((*p)[n] >= '0' && (*p)[n] <= '9')
		n++;
	num_err e = num_u64_parse(*p, n, v);
	if (e == NUM_OK)
		*p += n;
	return e;
}

num_err num_dec_parse(const char *s, size_t n, unsigned frac_max, num_dec *v)
{
	num_scan c = scan(s, n);
	if (c.nint == 0 || (c.dot && c.nfrac == 0) || c.end != n)
		return NUM_SYNTAX;
	if (c.nfrac > frac_max || c.nfrac > NUM_FRAC_MAX)
		return NUM_FRAC;
	if (c.big || c.ip >= NUM_DEC_LIMIT)
		return NUM_BIG;
	uint64_t den = pow10u(c.kept);
	*v = num_dec_make(c.ip * den + c.frac, den);
	return NUM_OK;
}

num_dec num_dec_make(uint64_t num, uint64_t den)
{
	num_dec v = { num, den };
	while (v.den > 1 && v.num % 10 == 0) {
		v.num /= 10;
		v.den /= 10;
	}
	if (v.num == 0)
		v.den = 1;
	return v;
}

void num_dec_format(num_dec v, char *buf, size_t n)
{
	char frac[NUM_FRAC_MAX + 2];
	size_t w = 0;
	uint64_t fp = v.num % v.den;
	/* den = 10^w: the fraction digits, most significant first. */
	if (v.den > 1)
		frac[w++] = '.';
	for (uint64_t d = v.den / 10; d >= 1 && w < sizeof frac - 1; d /= 10)
		frac[w++] = (char)('0' + fp / d % 10);
	frac[w] = 0;
	snprintf(buf, n, "%" PRIu64 "%s", v.num / v.den, frac);
}

num_err num_value_parse(const char *s, size_t n, unsigned frac, num_dec *v)
{
	if (frac)
		return num_dec_parse(s, n, frac, v);
	v->den = 1;
	return num_u64_parse(s, n, &v->num);
}

/* ---- Ranges ---------------------------------------------------------- */

__extension__ typedef unsigned __int128 num_u128;

static const char range_op[NUM_RANGE_NKINDS] = {
#define NUM_OP_X(e, op) op,
	NUM_RANGE_KINDS(NUM_OP_X)
#undef NUM_OP_X
};

int num_is_range(const char *s, size_t n)
{
	for (size_t i = 0; i + 1 < n; i++)
		if (s[i] == '.' && s[i + 1] == '.')
			return 1;
	return 0;
}

/* The value s[0..n) in units of 10^-frac: 0, or -1 if it is not such a
 * value. */
static int units(const char *s, size_t n, unsigned frac, uint64_t *out)
{
	num_dec v;
	if (num_value_parse(s, n, frac, &v))
		return -1;
	*out = v.num * (pow10u(frac) / v.den);   /* below 2^32 * 10^9 */
	return 0;
}

num_err num_range_parse(const char *s, size_t n, unsigned frac, num_range *r)
{
	size_t dots = 0, op;
	while (dots + 1 < n && !(s[dots] == '.' && s[dots + 1] == '.'))
		dots++;
	if (dots + 1 >= n)
		return NUM_RANGE;
	/* The first operator after "..", if any, gives the kind. */
	r->kind = NUM_RANGE_DOUBLE;
	for (op = dots + 2; op < n && r->kind == NUM_RANGE_DOUBLE; op++)
		for (int k = 0; k < NUM_RANGE_NKINDS; k++)
			if (range_op[k] && s[op] == range_op[k])
				r->kind = (num_range_kind)k;
	if (r->kind != NUM_RANGE_DOUBLE)
		op--;
	r->frac = frac;
	if (units(s, dots, frac, &r->a) || units(s + dots + 2, op - dots - 2, frac, &r->b))
		return NUM_RANGE;
	const char *d = s + op + 1;
	size_t dl = op < n ? n - op - 1 : 0;
	switch (r->kind) {
	case NUM_RANGE_MUL:
		if (num_u64_parse(d, dl, &r->step) || r->step < 2)
			return NUM_FACTOR;
		if (r->a == 0)
			return NUM_START;
		break;
	case NUM_RANGE_ADD:
	case NUM_RANGE_STEP:
		if (units(d, dl, frac, &r->step))
			return NUM_RANGE;
		if (r->step == 0)
			return r->kind == NUM_RANGE_ADD ? NUM_STEP_PLUS : NUM_STEP_COLON;
		break;
	default:
		r->step = 2;
		if (r->a == 0)
			return NUM_DOUBLING;
		break;
	}
	return r->b < r->a ? NUM_EMPTY : NUM_OK;
}

void num_range_begin(const num_range *r, num_range_it *it)
{
	it->next = r->a;
	it->state = 0;
}

int num_range_next(const num_range *r, num_range_it *it, num_dec *v)
{
	/* STEP and DOUBLE end at B whether or not a step reaches it. */
	int to_b = r->kind == NUM_RANGE_STEP || r->kind == NUM_RANGE_DOUBLE;
	uint64_t x = it->next;
	if (it->state == 2)
		return 0;
	if (it->state == 1 || (to_b && x >= r->b)) {
		x = r->b;
		it->state = 2;
	} else {
		int mul = r->kind == NUM_RANGE_MUL || r->kind == NUM_RANGE_DOUBLE;
		num_u128 nx = mul ? (num_u128)x * r->step : (num_u128)x + r->step;
		if (to_b ? nx >= r->b : nx > r->b)
			it->state = to_b ? 1 : 2;
		else
			it->next = (uint64_t)nx;
	}
	*v = num_dec_make(x, pow10u(r->frac));
	return 1;
}

/* ---- Times ----------------------------------------------------------- */

/* The units of a time.  X(name, ns) */
#define NUM_TIME_UNITS(X) \
	X("", 1) \
	X("ns", 1) \
	X("us", 1000) \
	X("ms", 1000000) \
	X("s", 1000000000)

/* A unit: its name and how many ns or bytes it is. */
typedef struct num_unit {
	const char *name;
	uint64_t mul;
} num_unit;

static const num_unit time_unit[] = {
#define NUM_TU_X(name, ns) { name, ns },
	NUM_TIME_UNITS(NUM_TU_X)
#undef NUM_TU_X
};

static const num_unit size_unit[] = {
#define NUM_SU_X(name, bytes) { name, bytes },
	NUM_SIZE_UNITS(NUM_SU_X)
#undef NUM_SU_X
};

/* The number at the start of s[0..n) into *c and what its unit (the rest,
 * without a trailing "B" when bytes) of table t (nt units) is worth into
 * *mul: NUM_OK, or NUM_SYNTAX. */
static num_err with_unit(const char *s, size_t n, const num_unit *t, size_t nt, int bytes,
                         num_scan *c, uint64_t *mul)
{
	*c = scan(s, n);
	if (c->nint == 0 || (c->dot && c->nfrac == 0))
		return NUM_SYNTAX;
	const char *u = s + c->end;
	size_t m = n - c->end;
	if (bytes && m && u[m - 1] == 'B')   /* "KiB", "MB", "B" */
		m--;
	for (size_t k = 0; k < nt; k++)
		if (strlen(t[k].name) == m && memcmp(t[k].name, u, m) == 0) {
			*mul = t[k].mul;
			return NUM_OK;
		}
	return NUM_SYNTAX;
}

/* The scanned number c times mul into *v: truncated, or exactly (a
 * fraction of the unit left is NUM_WHOLE); NUM_BIG above UINT64_MAX. */
static num_err scaled(const num_scan *c, uint64_t mul, int exact, uint64_t *v)
{
	if (c->big || c->ip > UINT64_MAX / mul)
		return NUM_BIG;
	/* frac < 10^9 and mul <= 2^30 or 10^9: the product fits. */
	uint64_t p = pow10u(c->kept), f = c->frac * mul;
	if (exact && (f % p || c->nfrac > NUM_FRAC_MAX))
		return NUM_WHOLE;
	if (c->ip * mul > UINT64_MAX - f / p)
		return NUM_BIG;
	*v = c->ip * mul + f / p;
	return NUM_OK;
}

#define NUM_NUNITS(t) (sizeof t / sizeof t[0])

num_err num_time_parse(const char *s, size_t n, uint64_t *ns)
{
	num_scan c;
	uint64_t mul;
	num_err e = with_unit(s, n, time_unit, NUM_NUNITS(time_unit), 0, &c, &mul);
	return e ? e : scaled(&c, mul, 0, ns);
}

/* A whole number of the unit: a decimal needs a unit ("1.5" is not). */
static num_err whole_with_unit(const char *s, size_t n, const num_unit *t, size_t nt,
                               int bytes, uint64_t *v)
{
	num_scan c;
	uint64_t mul;
	num_err e = with_unit(s, n, t, nt, bytes, &c, &mul);
	if (e)
		return e;
	if (c.dot && c.end == n)
		return NUM_WHOLE;
	return scaled(&c, mul, 1, v);
}

num_err num_ns_parse(const char *s, size_t n, uint64_t *ns)
{
	return whole_with_unit(s, n, time_unit, NUM_NUNITS(time_unit), 0, ns);
}

num_err num_size_parse(const char *s, size_t n, uint64_t *bytes)
{
	return whole_with_unit(s, n, size_unit, NUM_NUNITS(size_unit), 1, bytes);
}

num_err num_range_units(const char *s, size_t n, int bytes, char *out, size_t outlen)
{
	size_t i = 0, j, k;
	uint64_t a, b, d = 0;
	num_err e;
	while (i + 1 < n && !(s[i] == '.' && s[i + 1] == '.'))
		i++;
	if (i == 0 || i + 2 >= n)
		return NUM_RANGE;
	for (j = i + 2; j < n && s[j] != '*' && s[j] != '+' && s[j] != ':'; j++)
		;
	if (j == i + 2 || (j < n && j + 1 >= n))
		return NUM_RANGE;
#define NUM_U(p, len, v) (bytes ? num_size_parse(p, len, v) : num_ns_parse(p, len, v))
	if ((e = NUM_U(s, i, &a)) != NUM_OK || (e = NUM_U(s + i + 2, j - i - 2, &b)) != NUM_OK)
		return e;
	if (j < n && s[j] != '*' && (e = NUM_U(s + j + 1, n - j - 1, &d)) != NUM_OK)
		return e;
#undef NUM_U
	if (j == n)
		k = (size_t)snprintf(out, outlen, "%" PRIu64 "..%" PRIu64, a, b);
	else if (s[j] == '*')
		k = (size_t)snprintf(out, outlen, "%" PRIu64 "..%" PRIu64 "*%.*s", a, b,
		                     (int)(n - j - 1), s + j + 1);
	else
		k = (size_t)snprintf(out, outlen, "%" PRIu64 "..%" PRIu64 "%c%" PRIu64, a, b, s[j], d);
	return k < outlen ? NUM_OK : NUM_BIG;
}

num_err num_window_parse(const char *s, size_t n, uint64_t *from, uint64_t *to)
{
	size_t i = 0;
	while (i + 1 < n && !(s[i] == '.' && s[i + 1] == '.'))
		i++;
	if (i + 1 >= n)
		return NUM_SYNTAX;
	uint64_t a = 0, b = UINT64_MAX;
	num_err e;
	if (i > 0 && (e = num_time_parse(s, i, &a)) != NUM_OK)
		return e;
	if (i + 2 < n && (e = num_time_parse(s + i + 2, n - i - 2, &b)) != NUM_OK)
		return e;
	if (b < a)
		return NUM_EMPTY;
	*from = a;
	*to = b;
	return NUM_OK;
}

/* ---- Rank lists ---- */

static int ranks_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

int num_ranks_parse(const char *s, uint64_t **out, size_t *n, char *err, size_t errlen)
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
		while (j > 0 && ranks_cmp(&r[2 * (j - 1)], &lo) > 0) {
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

