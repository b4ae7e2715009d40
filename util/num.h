/* num.h: the number syntax of the tools' options and files: non-negative
 * integers, exact decimals (at most 9 fraction digits), ranges of values
 * ("1000..64000*2", "2..64", "0.1..0.5+0.2", "2..70:4") and times with a
 * unit ("1.5ms").  Parsers take a byte string s[0..n) (no sign, no blanks)
 * and return a num_err; the caller writes its own message. */
#ifndef UTIL_NUM_H
#define UTIL_NUM_H

#include <stddef.h>
#include <stdint.h>

/* Most fraction digits of a decimal. */
#define NUM_FRAC_MAX 9

/* Decimals are below 2^32: with 9 fraction digits num then fits 64 bits
 * with room to spare (num < 2^62). */
#define NUM_DEC_LIMIT ((uint64_t)1 << 32)

/* An exact non-negative decimal num / den, den a power of ten from 1 to
 * 10^NUM_FRAC_MAX, in lowest terms (no trailing zero in num when den > 1,
 * den 1 when num is 0), so that equal values have equal fields. */
typedef struct num_dec {
	uint64_t num, den;
} num_dec;

/* Bytes num_dec_format needs at most ("4294967295.999999999" and NUL). */
#define NUM_DEC_TEXT 24

/* The parsers' outcomes.  X(enum suffix, message) */
#define NUM_ERRORS(X) \
	X(OK, "") \
	X(SYNTAX, "not a number") \
	X(FRAC, "too many fraction digits") \
	X(BIG, "too large")

typedef enum num_err {
#define NUM_ERR_X(e, m) NUM_##e,
	NUM_ERRORS(NUM_ERR_X)
#undef NUM_ERR_X
} num_err;

/* The message of e ("" for NUM_OK). */
const char *num_err_str(num_err e);

/* Parse s[0..n) as a non-negative integer: one or more digits.  Returns
 * NUM_OK with *v set, NUM_SYNTAX (not only digits, or empty) or NUM_BIG
 * (above UINT64_MAX). */
num_err num_u64_parse(const char *s, size_t n, uint64_t *v);

/* Parse s[0..n) as a decimal: digits, optionally '.' and at least one
 * digit ("6", "0.4"; not ".5", "5." or "1e3").  Returns NUM_OK with *v set,
 * NUM_SYNTAX, NUM_FRAC (more than frac_max fraction digits; frac_max at
 * most NUM_FRAC_MAX) or NUM_BIG (not below NUM_DEC_LIMIT). */
num_err num_dec_parse(const char *s, size_t n, unsigned frac_max, num_dec *v);

/* The decimal num / den (den a power of ten, 1 to 10^NUM_FRAC_MAX) in
 * lowest terms. */
num_dec num_dec_make(uint64_t num, uint64_t den);

/* Write v as its shortest decimal ("6", "0.4", "12.125") into buf. */
void num_dec_format(num_dec v, char *buf, size_t n);

#endif
