/* num_test.c: the number syntax of util/num.h: integers, decimals, exact
 * values, their text and every error. */
#include "check.h"
#include "num.h"

/* The outcome of num_u64_parse on s, with the value when it parses. */
static const char *u64(const char *s)
{
	static char buf[64];
	uint64_t v;
	num_err e = num_u64_parse(s, strlen(s), &v);
	if (e)
		return num_err_str(e);
	snprintf(buf, sizeof buf, "%" PRIu64, v);
	return buf;
}

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

int main(void)
{
	test_u64();
	test_dec();
	test_format();
	return check_done();
}
