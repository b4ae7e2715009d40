/* num_test.c: the number syntax of util/num.h: integers, decimals, exact
 * values and their text, the expansion of every form of range, times and
 * sizes with units, and every error. */
#include "check.h"
#include "num.h"

/* The outcome of a parse: the value v, or the error e. */
static const char *outcome(num_err e, uint64_t v)
{
	static char buf[64];
	if (e)
		return num_err_str(e);
	snprintf(buf, sizeof buf, "%" PRIu64, v);
	return buf;
}

/* The outcome of a parser of integers (num_u64_parse, num_time_parse,
 * num_ns_parse, num_size_parse) on s. */
static const char *parsed(num_err (*parse)(const char *, size_t, uint64_t *), const char *s)
{
	uint64_t v = 0;
	num_err e = parse(s, strlen(s), &v);
	return outcome(e, v);
}
#define u64(s) parsed(num_u64_parse, s)
#define time_ns(s) parsed(num_time_parse, s)
#define ns(s) parsed(num_ns_parse, s)
#define size(s) parsed(num_size_parse, s)

/* The outcome of num_dec_parse on s (frac_max fraction digits): the value
 * as num/den, or the error. */
static const char *dec(const char *s, unsigned frac_max)
{
	static char buf[64];
	num_dec v;
	num_err e = num_dec_parse(s, strlen(s), frac_max, &v);
	if (e)
		return num_err_str(e);
	snprintf(buf, sizeof buf, "%" PRIu64 "/%" PRIu64, v.num, v.den);
	return buf;
}

/* The text of num_dec_make(num, den). */
static const char *text(uint64_t num, uint64_t den)
{
	static char buf[NUM_DEC_TEXT];
	num_dec_format(num_dec_make(num, den), buf, sizeof buf);
	return buf;
}

static void test_u64(void)
{
	CHECK_STR(u64("0"), "0");
	CHECK_STR(u64("007"), "7");
	CHECK_STR(u64("18446744073709551615"), "18446744073709551615");
	CHECK_STR(u64("18446744073709551616"), "too large");
	CHECK_STR(u64("99999999999999999999"), "too large");
	CHECK_STR(u64(""), "not a number");
	CHECK_STR(u64("-1"), "not a number");
	CHECK_STR(u64("+1"), "not a number");
	CHECK_STR(u64(" 1"), "not a number");
	CHECK_STR(u64("1 "), "not a number");
	CHECK_STR(u64("1.0"), "not a number");
	CHECK_STR(u64("1e3"), "not a number");
	CHECK_STR(u64("0x10"), "not a number");
	/* Only the n bytes given are read. */
	uint64_t v = 0;
	CHECK(num_u64_parse("123x", 3, &v) == NUM_OK);
	CHECK_EQ_U64(v, 123);
}

static void test_dec(void)
{
	CHECK_STR(dec("6", 9), "6/1");
	CHECK_STR(dec("0.4", 9), "4/10");
	CHECK_STR(dec("12.125", 9), "12125/1000");
	CHECK_STR(dec("1.50", 9), "15/10");
	CHECK_STR(dec("3.000", 9), "3/1");
	CHECK_STR(dec("0.000", 9), "0/1");
	CHECK_STR(dec("0.000000001", 9), "1/1000000000");
	CHECK_STR(dec("4294967295.999999999", 9), "4294967295999999999/1000000000");
	CHECK_STR(dec("4294967296", 9), "too large");
	CHECK_STR(dec("99999999999999999999", 9), "too large");
	CHECK_STR(dec("0.1234567891", 9), "too many fraction digits");
	CHECK_STR(dec("0.1234", 3), "too many fraction digits");
	CHECK_STR(dec("0.123", 3), "123/1000");
	CHECK_STR(dec("0.5", 0), "too many fraction digits");
	CHECK_STR(dec("7", 0), "7/1");
	CHECK_STR(dec("", 9), "not a number");
	CHECK_STR(dec(".", 9), "not a number");
	CHECK_STR(dec(".5", 9), "not a number");
	CHECK_STR(dec("5.", 9), "not a number");
	CHECK_STR(dec("-1", 9), "not a number");
	CHECK_STR(dec("1e3", 9), "not a number");
	CHECK_STR(dec("1.2.3", 9), "not a number");
	CHECK_STR(dec("0,5", 9), "not a number");
}

static void test_format(void)
{
	CHECK_STR(text(6, 1), "6");
	CHECK_STR(text(4, 10), "0.4");
	CHECK_STR(text(400, 1000), "0.4");
	CHECK_STR(text(5, 100), "0.05");
	CHECK_STR(text(12125, 1000), "12.125");
	CHECK_STR(text(0, 1000), "0");
	CHECK_STR(text(1, 1000000000), "0.000000001");
	CHECK_STR(text(4294967295999999999u, 1000000000), "4294967295.999999999");
	num_dec z = num_dec_make(0, 100);
	CHECK(z.num == 0 && z.den == 1);
	num_dec h = num_dec_make(2500, 1000);
	CHECK(h.num == 25 && h.den == 10);
}

/* The values of range s (frac fraction digits) joined by blanks, or the
 * error. */
static const char *range(const char *s, unsigned frac)
{
	static char buf[1024];
	num_range r;
	num_range_it it;
	num_dec v;
	size_t pos = 0;
	num_err e = num_range_parse(s, strlen(s), frac, &r);
	if (e)
		return num_err_str(e);
	buf[0] = 0;
	for (num_range_begin(&r, &it); num_range_next(&r, &it, &v) && pos < sizeof buf - 30;) {
		char t[NUM_DEC_TEXT];
		num_dec_format(v, t, sizeof t);
		pos += (size_t)snprintf(buf + pos, sizeof buf - pos, "%s%s", pos ? " " : "", t);
	}
	return buf;
}

static void test_range(void)
{
	static const struct {
		const char *spec;
		unsigned frac;
		const char *want;
	} cases[] = {
		/* A..B*F: up to B. */
		{ "1000..64000*2", 0, "1000 2000 4000 8000 16000 32000 64000" },
		{ "1..50*3", 0, "1 3 9 27" },
		{ "5..5*2", 0, "5" },
		{ "0.5..4*2", 9, "0.5 1 2 4" },
		/* A..B+D: up to B, exact decimals. */
		{ "0..10+5", 0, "0 5 10" },
		{ "0..11+5", 0, "0 5 10" },
		{ "0.1..0.5+0.2", 9, "0.1 0.3 0.5" },
		{ "0.000000001..0.000000003+0.000000001", 9,
		  "0.000000001 0.000000002 0.000000003" },
		/* A..B: doubling, and B. */
		{ "2..64", 0, "2 4 8 16 32 64" },
		{ "2..70", 0, "2 4 8 16 32 64 70" },
		{ "3..3", 0, "3" },
		{ "0.25..1.5", 3, "0.25 0.5 1 1.5" },
		/* A..B:D: steps of D, and B. */
		{ "2..10:4", 0, "2 6 10" },
		{ "2..11:4", 0, "2 6 10 11" },
		{ "0..1:0.3", 3, "0 0.3 0.6 0.9 1" },
		/* At the top of the value range: no overflow, B the last. */
		{ "9223372036854775807..18446744073709551615", 0,
		  "9223372036854775807 18446744073709551614 18446744073709551615" },
		{ "18446744073709551614..18446744073709551615+5", 0, "18446744073709551614" },
		{ "4294967295..4294967295.5:0.25", 9, "4294967295 4294967295.25 4294967295.5" },
		/* Errors. */
		{ "1..x", 0, "expected A..B*F, A..B+D, A..B or A..B:D" },
		{ "1..", 0, "expected A..B*F, A..B+D, A..B or A..B:D" },
		{ "..5", 0, "expected A..B*F, A..B+D, A..B or A..B:D" },
		{ "5", 0, "expected A..B*F, A..B+D, A..B or A..B:D" },
		{ "1.5..3", 0, "expected A..B*F, A..B+D, A..B or A..B:D" },
		{ "1..2..3", 0, "expected A..B*F, A..B+D, A..B or A..B:D" },
		{ "1..4+x", 0, "expected A..B*F, A..B+D, A..B or A..B:D" },
		{ "1..4:", 0, "expected A..B*F, A..B+D, A..B or A..B:D" },
		{ "1..10*1", 0, "the factor after '*' must be an integer of at least 2" },
		{ "0.5..4*1.5", 9, "the factor after '*' must be an integer of at least 2" },
		{ "1..10*2+3", 0, "the factor after '*' must be an integer of at least 2" },
		{ "0..10*2", 0, "a range with '*' must start above 0" },
		{ "0..10", 0, "a doubling range A..B needs A > 0 (or give A..B:STEP)" },
		{ "1..10+0", 0, "the step after '+' must be above 0" },
		{ "1..10:0", 0, "the step after ':' must be above 0" },
		{ "10..1+1", 0, "the range ends below its start" },
		{ "8..4", 0, "the range ends below its start" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *got = range(cases[i].spec, cases[i].frac);
		CHECK_STR(got, cases[i].want);
		if (strcmp(got, cases[i].want) != 0)
			printf("    range %s\n", cases[i].spec);
	}
	CHECK(num_is_range("1..2", 4) && !num_is_range("1.2", 3) && !num_is_range("1..2", 2));
}

static void test_time(void)
{
	CHECK_STR(time_ns("12000"), "12000");
	CHECK_STR(time_ns("12000ns"), "12000");
	CHECK_STR(time_ns("12us"), "12000");
	CHECK_STR(time_ns("1.5us"), "1500");
	CHECK_STR(time_ns("1.5ms"), "1500000");
	CHECK_STR(time_ns("2ms"), "2000000");
	CHECK_STR(time_ns("2s"), "2000000000");
	CHECK_STR(time_ns("1.25s"), "1250000000");
	CHECK_STR(time_ns("1.5"), "1");                  /* truncated to ns */
	CHECK_STR(time_ns("0.0015us"), "1");
	CHECK_STR(time_ns("1.0000000019s"), "1000000001");   /* 10th digit ignored */
	CHECK_STR(time_ns("18446744073709551615"), "18446744073709551615");
	CHECK_STR(time_ns("18446744073.709551615s"), "18446744073709551615");
	CHECK_STR(time_ns("18446744073.7095516159s"), "18446744073709551615");
	CHECK_STR(time_ns("18446744073.709551616s"), "too large");
	CHECK_STR(time_ns("18446744074s"), "too large");
	CHECK_STR(time_ns("99999999999999999999"), "too large");
	CHECK_STR(time_ns("18446744073709551615.9us"), "too large");
	CHECK_STR(time_ns("1h"), "not a number");
	CHECK_STR(time_ns("-1"), "not a number");
	CHECK_STR(time_ns(""), "not a number");
	CHECK_STR(time_ns("us"), "not a number");
	CHECK_STR(time_ns(".5us"), "not a number");
	CHECK_STR(time_ns("5.us"), "not a number");
	CHECK_STR(time_ns("5 us"), "not a number");
	CHECK_STR(time_ns("5US"), "not a number");
}

static void test_whole(void)
{
	CHECK_STR(ns("2500"), "2500");
	CHECK_STR(ns("2500ns"), "2500");
	CHECK_STR(ns("2.5us"), "2500");
	CHECK_STR(ns("1.5ms"), "1500000");
	CHECK_STR(ns("0.000000001s"), "1");
	CHECK_STR(ns("18446744073.709551615s"), "18446744073709551615");
	CHECK_STR(ns("18446744073.709551616s"), "too large");
	CHECK_STR(ns("1.5"), "not a whole number of the unit (ns or bytes)");   /* no unit: an integer */
	CHECK_STR(ns("1.5ns"), "not a whole number of the unit (ns or bytes)");
	CHECK_STR(ns("0.0015us"), "not a whole number of the unit (ns or bytes)");
	CHECK_STR(ns("1.0000000001s"), "not a whole number of the unit (ns or bytes)");
	CHECK_STR(ns("1h"), "not a number");
	CHECK_STR(ns("us"), "not a number");

	CHECK_STR(size("65536"), "65536");
	CHECK_STR(size("8B"), "8");
	CHECK_STR(size("1k"), "1000");
	CHECK_STR(size("1K"), "1000");
	CHECK_STR(size("1kB"), "1000");
	CHECK_STR(size("64Ki"), "65536");
	CHECK_STR(size("64KiB"), "65536");
	CHECK_STR(size("1M"), "1000000");
	CHECK_STR(size("1MB"), "1000000");
	CHECK_STR(size("1Mi"), "1048576");
	CHECK_STR(size("1.5MiB"), "1572864");
	CHECK_STR(size("2G"), "2000000000");
	CHECK_STR(size("2Gi"), "2147483648");
	CHECK_STR(size("0.5Ki"), "512");
	CHECK_STR(size("17179869184Gi"), "too large");   /* 2^64 */
	CHECK_STR(size("17179869183Gi"), "18446744072635809792");
	CHECK_STR(size("1.5"), "not a whole number of the unit (ns or bytes)");
	CHECK_STR(size("1.5B"), "not a whole number of the unit (ns or bytes)");
	CHECK_STR(size("0.0001Ki"), "not a whole number of the unit (ns or bytes)");
	CHECK_STR(size("1KB2"), "not a number");
	CHECK_STR(size("1mb"), "not a number");
	CHECK_STR(size("1BB"), "not a number");
	CHECK_STR(size("1 KiB"), "not a number");
	CHECK_STR(size("Ki"), "not a number");
	CHECK_STR(size("-1"), "not a number");
}

/* num_range_units on s: the plain range, or the error. */
static const char *plain(const char *s, int bytes)
{
	static char buf[128];
	num_err e = num_range_units(s, strlen(s), bytes, buf, sizeof buf);
	return e ? num_err_str(e) : buf;
}

static void test_range_units(void)
{
	CHECK_STR(plain("1us..64us*2", 0), "1000..64000*2");
	CHECK_STR(plain("1us..2ms+0.5us", 0), "1000..2000000+500");
	CHECK_STR(plain("500..2500:1us", 0), "500..2500:1000");
	CHECK_STR(plain("1Ki..1Mi", 1), "1024..1048576");
	CHECK_STR(plain("64..4Ki*4", 1), "64..4096*4");
	CHECK_STR(plain("1us", 0), "expected A..B*F, A..B+D, A..B or A..B:D");
	CHECK_STR(plain("..1us", 0), "expected A..B*F, A..B+D, A..B or A..B:D");
	CHECK_STR(plain("1us..", 0), "expected A..B*F, A..B+D, A..B or A..B:D");
	CHECK_STR(plain("1us..2us+", 0), "expected A..B*F, A..B+D, A..B or A..B:D");
	CHECK_STR(plain("1.5..3", 0), "not a whole number of the unit (ns or bytes)");
	CHECK_STR(plain("1h..2h", 0), "not a number");
}

/* The outcome of num_window_parse on s: "FROM..TO", or the error. */
static const char *window(const char *s)
{
	static char buf[64];
	uint64_t a, b;
	num_err e = num_window_parse(s, strlen(s), &a, &b);
	if (e != NUM_OK)
		return num_err_str(e);
	snprintf(buf, sizeof buf, "%" PRIu64 "..%" PRIu64, a, b);
	return buf;
}

static void test_window(void)
{
	CHECK_STR(window("10us..20us"), "10000..20000");
	CHECK_STR(window("1.5..2"), "1..2");
	CHECK_STR(window("5..5"), "5..5");
	CHECK_STR(window("..2ms"), "0..2000000");
	CHECK_STR(window("3us.."), "3000..18446744073709551615");
	CHECK_STR(window(".."), "0..18446744073709551615");
	CHECK_STR(window("20us..10us"), "the range ends below its start");
	CHECK_STR(window("10us"), "not a number");
	CHECK_STR(window("10us-20us"), "not a number");
	CHECK_STR(window("1...2"), "not a number");
	CHECK_STR(window("1x..2"), "not a number");
	CHECK_STR(window("1..99999999999999999999"), "too large");
	CHECK_STR(window(""), "not a number");
}

int main(void)
{
	test_u64();
	test_dec();
	test_format();
	test_range();
	test_time();
	test_whole();
	test_range_units();
	test_window();
	return check_done();
}
