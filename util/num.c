/* num.c: integers, exact decimals, ranges and times as the tools write
 * them (num.h). */
#include "num.h"

#include <inttypes.h>
#include <stdio.h>

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
