/* num.h: the number syntax of the tools' options and files: non-negative
 * integers, exact decimals (at most 9 fraction digits), ranges of values
 * ("1000..64000*2", "2..64", "0.1..0.5+0.2", "2..70:4"), times with a
 * unit ("1.5ms") and rank lists ("0-15,32").  Parsers take a byte string
 * s[0..n) (no sign, no blanks) and return a num_err; the caller writes its
 * own message. */
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
	X(BIG, "too large") \
	X(RANGE, "expected A..B*F, A..B+D, A..B or A..B:D") \
	X(FACTOR, "the factor after '*' must be an integer of at least 2") \
	X(START, "a range with '*' must start above 0") \
	X(DOUBLING, "a doubling range A..B needs A > 0 (or give A..B:STEP)") \
	X(STEP_PLUS, "the step after '+' must be above 0") \
	X(STEP_COLON, "the step after ':' must be above 0") \
	X(EMPTY, "the range ends below its start") \
	X(WHOLE, "not a whole number of the unit (ns or bytes)")

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

/* The same for the digits at *p (a string), which stop at the first other
 * character: on NUM_OK *p moves past them. */
num_err num_u64_scan(const char **p, uint64_t *v);

/* Parse s[0..n) as a decimal: digits, optionally '.' and at least one
 * digit ("6", "0.4"; not ".5", "5." or "1e3").  Returns NUM_OK with *v set,
 * NUM_SYNTAX, NUM_FRAC (more than frac_max fraction digits; frac_max at
 * most NUM_FRAC_MAX) or NUM_BIG (not below NUM_DEC_LIMIT). */
num_err num_dec_parse(const char *s, size_t n, unsigned frac_max, num_dec *v);

/* A value with at most frac fraction digits: with frac 0 an integer
 * (num_u64_parse; den 1), else a decimal (num_dec_parse). */
num_err num_value_parse(const char *s, size_t n, unsigned frac, num_dec *v);

/* The decimal num / den (den a power of ten, 1 to 10^NUM_FRAC_MAX) in
 * lowest terms. */
num_dec num_dec_make(uint64_t num, uint64_t den);

/* Write v as its shortest decimal ("6", "0.4", "12.125") into buf. */
void num_dec_format(num_dec v, char *buf, size_t n);

/* ---- Ranges ---- */

/* The forms of a range of values A..B.  X(enum suffix, operator) */
#define NUM_RANGE_KINDS(X) \
	X(MUL, '*')    /* A..B*F: A, A*F, A*F^2, ... up to B (F an integer >= 2, A > 0) */ \
	X(ADD, '+')    /* A..B+D: A, A+D, A+2D, ... up to B (D > 0) */ \
	X(DOUBLE, 0)   /* A..B: A, 2A, 4A, ... and B (A > 0) */ \
	X(STEP, ':')   /* A..B:D: A, A+D, A+2D, ... and B (D > 0) */

typedef enum num_range_kind {
#define NUM_RK_X(e, op) NUM_RANGE_##e,
	NUM_RANGE_KINDS(NUM_RK_X)
#undef NUM_RK_X
	NUM_RANGE_NKINDS
} num_range_kind;

/* A range: A, B and D in units of 10^-frac; for MUL step is F, for DOUBLE
 * 2.  A <= B. */
typedef struct num_range {
	num_range_kind kind;
	unsigned frac;
	uint64_t a, b, step;
} num_range;

/* Whether s[0..n) is a range rather than a single value: it holds "..". */
int num_is_range(const char *s, size_t n);

/* Parse s[0..n) as a range (NUM_RANGE_KINDS) of values with at most frac
 * fraction digits (num_value_parse; F is an integer).  Returns NUM_OK with
 * *r set, or, checked in this order: NUM_RANGE (not such a range, or a
 * bad number), NUM_FACTOR, NUM_STEP_PLUS, NUM_STEP_COLON, NUM_START,
 * NUM_DOUBLING (A is 0), NUM_EMPTY (B < A). */
num_err num_range_parse(const char *s, size_t n, unsigned frac, num_range *r);

/* An iteration over the values of a range, in increasing order. */
typedef struct num_range_it {
	uint64_t next;       /* the next value, in units of 10^-frac */
	int state;           /* 0: next; 1: B, the last; 2: done */
} num_range_it;

/* Start an iteration over r. */
void num_range_begin(const num_range *r, num_range_it *it);

/* The next value of r into *v: returns 1, or 0 after the last. */
int num_range_next(const num_range *r, num_range_it *it, num_dec *v);

/* ---- Times ---- */

/* Parse s[0..n) as a time in ns: a number ("12000", "1.5"; fraction
 * digits beyond the 9th are ignored) with an optional unit ns, us, ms or s
 * (default ns): "12us", "1.5ms", "2s".  The value is truncated to whole
 * ns.  Returns NUM_OK with *ns set, NUM_SYNTAX (not such a time, or an
 * unknown unit) or NUM_BIG (above UINT64_MAX ns). */
num_err num_time_parse(const char *s, size_t n, uint64_t *ns);

/* Parse s[0..n) as a whole number of ns: an integer (ns: "2500"), or a
 * number with a unit ns, us, ms or s that comes to whole ns ("2.5us",
 * "1.5ms").  Returns NUM_OK with *ns set, NUM_SYNTAX, NUM_WHOLE (a
 * fraction of a ns, or a decimal without a unit) or NUM_BIG. */
num_err num_ns_parse(const char *s, size_t n, uint64_t *ns);

/* Parse s[0..n) as a window of times "T0..T1" (each as num_time_parse;
 * either may be left out: "..T1" from 0, "T0.." to the end, *to then
 * UINT64_MAX).  Returns NUM_OK with *from and *to set, NUM_SYNTAX (no "..",
 * or a bad time), NUM_BIG or NUM_EMPTY (T1 before T0). */
num_err num_window_parse(const char *s, size_t n, uint64_t *from, uint64_t *to);

/* ---- Sizes ---- */

/* The units of a size: X(name, bytes).  Each may be followed by "B"
 * ("64KiB", "1MB"); "B" alone is bytes. */
#define NUM_SIZE_UNITS(X) \
	X("", 1) \
	X("k", 1000) \
	X("K", 1000) \
	X("M", 1000000) \
	X("G", 1000000000) \
	X("Ki", 1024) \
	X("Mi", 1048576) \
	X("Gi", 1073741824)

/* Parse s[0..n) as a size in bytes: an integer ("65536"), or a number
 * with a unit of NUM_SIZE_UNITS that comes to whole bytes ("64Ki",
 * "1.5MB", "8B").  Returns NUM_OK with *bytes set, NUM_SYNTAX, NUM_WHOLE
 * (a fraction of a byte, or a decimal without a unit) or NUM_BIG. */
num_err num_size_parse(const char *s, size_t n, uint64_t *bytes);

/* A range "A..B", "A..B*F", "A..B+D" or "A..B:D" (num_range_parse) whose
 * values are sizes (bytes != 0: num_size_parse) or whole ns
 * (num_ns_parse), written again with plain integers into out (outlen
 * bytes): "1us..64us*2" -> "1000..64000*2" (F, a factor, stays as it is).
 * Returns NUM_OK, NUM_RANGE (not such a range) or the error of the first
 * number that does not parse. */
num_err num_range_units(const char *s, size_t n, int bytes, char *out, size_t outlen);

/* ---- Rank lists ---- */

/* Parse a rank list like "0-15,32" (ranks and inclusive ranges, any order,
 * overlaps allowed) into sorted, merged pairs lo, hi in *out (malloc'ed;
 * free it), *n pairs.  Returns 0, or -1 with "bad rank list 'S' (expected
 * e.g. 0-15,32)" or "out of memory" in err. */
int num_ranks_parse(const char *s, uint64_t **out, size_t *n, char *err, size_t errlen);

#endif
