/* file_test.c: the LogGP parameter file: exact values, round trip and
 * exact error texts. */
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "loggp_params.h"

/* v as text ("6", "0.4"). */
static const char *dec(num_dec v)
{
	static char buf[4][NUM_DEC_TEXT];
	static unsigned k;
	char *b = buf[k++ % 4];
	num_dec_format(v, b, NUM_DEC_TEXT);
	return b;
}

/* Parse text as "t.params"; returns the error text or "" on success. */
static const char *perr(const char *text, loggp_params *p)
{
	static char err[LOGGP_ERRLEN];
	if (loggp_params_parse("t.params", text, strlen(text), p, err) == 0)
		return "";
	return err;
}

static void test_parse_ok(void)
{
	static loggp_params p;
	CHECK_STR(perr("# comment\n\nloggp-params 1  # version\r\nS 4096\n"
	               "range 0 1024 L=2500 o=1500 g=1000 G=6 O=0\n"
	               "range 1025 inf O=0.000001 G=0.4 g=3 o=2 L=1\n", &p), "");
	CHECK_EQ_U64(p.S, 4096);
	CHECK_EQ_U64(p.nranges, 2);
	CHECK_EQ_U64(p.range[0].L, 2500);
	CHECK_EQ_U64(p.range[0].o, 1500);
	CHECK_EQ_U64(p.range[0].g, 1000);
	CHECK_EQ_U64(p.range[0].G.num, 6);
	CHECK_EQ_U64(p.range[0].G.den, 1);
	CHECK_EQ_U64(p.range[1].G.num, 4);
	CHECK_EQ_U64(p.range[1].G.den, 10);
	CHECK_EQ_U64(p.range[1].O.num, 1);
	CHECK_EQ_U64(p.range[1].O.den, 1000000);
	CHECK_STR(dec(p.range[1].O), "0.000001");
	CHECK(p.range[1].last == LOGGP_SIZE_INF);
	CHECK(loggp_params_lookup(&p, 0) == &p.range[0]);
	CHECK(loggp_params_lookup(&p, 1024) == &p.range[0]);
	CHECK(loggp_params_lookup(&p, 1025) == &p.range[1]);
	CHECK(loggp_params_lookup(&p, UINT64_MAX) == &p.range[1]);
	/* S is optional. */
	CHECK_STR(perr("loggp-params 1\nrange 0 inf L=1 o=2 g=3 G=4 O=5", &p), "");
	CHECK_EQ_U64(p.S, 65535);
}

static void test_parse_errors(void)
{
	static loggp_params p;
	static const struct {
		const char *text, *err;
	} cases[] = {
		{ "", "t.params:1:1: error: empty file, expected 'loggp-params 1'" },
		{ "loggp-params 2\n", "t.params:1:1: error: expected 'loggp-params 1' as the first line" },
		{ "loggp-params 1\n", "t.params:2:1: error: no range: at least 'range 0 inf ...' is needed" },
		{ "loggp-params 1\nrange 0 10 L=1 o=2 g=3 G=4 O=5\n",
		  "t.params:3:1: error: the last range must end at 'inf' (it ends at 10)" },
		{ "loggp-params 1\nrange 1 inf L=1 o=2 g=3 G=4 O=5\n",
		  "t.params:2:7: error: range must start at 0" },
		{ "loggp-params 1\nrange 0 10 L=1 o=2 g=3 G=4 O=5\nrange 12 inf L=1 o=2 g=3 G=4 O=5\n",
		  "t.params:3:7: error: range must start at 11 (the previous range's last size + 1)" },
		{ "loggp-params 1\nrange 0 inf L=1 o=2 g=3 G=4 O=5\nrange 0 inf L=1 o=2 g=3 G=4 O=5\n",
		  "t.params:3:1: error: range after the range ending at 'inf'" },
		{ "loggp-params 1\nrange 5 4 L=1\n", "t.params:2:7: error: range must start at 0" },
		{ "loggp-params 1\nrange 0 10 L=1 o=2 g=3 G=4 O=5\nrange 11 4 L=1\n",
		  "t.params:3:10: error: range ends before it starts" },
		{ "loggp-params 1\nrange 0 inf L=1 o=2 g=3 G=4\n",
		  "t.params:2:28: error: missing field 'O'" },
		{ "loggp-params 1\nrange 0 inf L=1 o=2 g=3 G=4 L=5\n",
		  "t.params:2:29: error: field 'L' given twice" },
		{ "loggp-params 1\nrange 0 inf L=1 o=2 g=3 G=4 x=5\n",
		  "t.params:2:29: error: unknown field 'x', expected L, o, g, G or O" },
		{ "loggp-params 1\nrange 0 inf L=1 o 2\n", "t.params:2:17: error: expected NAME=VALUE, got 'o'" },
		{ "loggp-params 1\nrange 0 inf L=1.5 o=2 g=3 G=4 O=5\n",
		  "t.params:2:15: error: expected a non-negative integer, got '1.5'" },
		{ "loggp-params 1\nrange 0 inf L=-1 o=2 g=3 G=4 O=5\n",
		  "t.params:2:15: error: expected a non-negative integer, got '-1'" },
		{ "loggp-params 1\nrange 0 inf L= o=2 g=3 G=4 O=5\n",
		  "t.params:2:15: error: expected a non-negative integer" },
		{ "loggp-params 1\nrange 0 inf L=99999999999999999999 o=2 g=3 G=4 O=5\n",
		  "t.params:2:15: error: number '99999999999999999999' out of range" },
		{ "loggp-params 1\nrange 0 inf L=1 o=2 g=3 G=0.1234567891 O=5\n",
		  "t.params:2:27: error: expected a decimal like 6 or 0.4 (at most 9 fraction digits, below 2^32), got '0.1234567891'" },
		{ "loggp-params 1\nrange 0 inf L=1 o=2 g=3 G=4 O=.5\n",
		  "t.params:2:31: error: expected a decimal like 6 or 0.4 (at most 9 fraction digits, below 2^32), got '.5'" },
		{ "loggp-params 1\nrange 0 inf L=1 o=2 g=3 G=4294967296 O=5\n",
		  "t.params:2:27: error: expected a decimal like 6 or 0.4 (at most 9 fraction digits, below 2^32), got '4294967296'" },
		{ "loggp-params 1\nrange 0 inf L=1 o=2 g=3 G=4 O=5 x=1\n",
		  "t.params:2:33: error: too many fields in a range" },
		{ "loggp-params 1\nrange 0\n",
		  "t.params:2:8: error: expected 'range FIRST LAST L=.. o=.. g=.. G=.. O=..'" },
		{ "loggp-params 1\nS 10\nS 11\n", "t.params:3:1: error: 'S' given twice" },
		{ "loggp-params 1\nS\n", "t.params:2:2: error: expected 'S BYTES'" },
		{ "loggp-params 1\nS 1 2\n", "t.params:2:5: error: expected 'S BYTES'" },
		{ "loggp-params 1\nS x\n", "t.params:2:3: error: expected a non-negative integer, got 'x'" },
		{ "loggp-params 1\n  L 10\n", "t.params:2:3: error: unknown keyword 'L', expected 'S' or 'range'" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		CHECK_STR(perr(cases[i].text, &p), cases[i].err);
	char err[LOGGP_ERRLEN];
	CHECK(loggp_params_read("/nonexistent/x.params", &p, err) == -1);
	CHECK_STR(err, "/nonexistent/x.params: error: cannot open: No such file or directory");
	static const char nul[] = "loggp-params 1\nS 1\0\n";
	CHECK(loggp_params_parse("t.params", nul, sizeof nul - 1, &p, err) == -1);
	CHECK_STR(err, "t.params:2:4: error: NUL byte in the file");
}

static void test_round_trip(void)
{
	static loggp_params p, q;
	p.S = 12345;
	p.nranges = 3;
	loggp_range_set(&p.range[0], 0, 256, 10.4, 93.5, 100.6, 0.1424926, -0.5);
	loggp_range_set(&p.range[1], 257, 1024, -3, 357.7, 334.8, 0.017682, 0.044988);
	loggp_range_set(&p.range[2], 1025, LOGGP_SIZE_INF, 2e3, 0, 4e3, 12.5, 3);
	CHECK_EQ_U64(p.range[0].L, 10);
	CHECK_EQ_U64(p.range[0].o, 94);
	CHECK_STR(dec(p.range[0].G), "0.14249");
	CHECK_STR(dec(p.range[0].O), "0");
	CHECK_EQ_U64(p.range[1].L, 0);
	CHECK_STR(dec(p.range[1].G), "0.017682");
	CHECK_STR(dec(p.range[1].O), "0.044988");
	CHECK_STR(dec(p.range[2].G), "12.5");
	CHECK_STR(dec(p.range[2].O), "3");
	char path[] = "/tmp/loggp_params_testXXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	FILE *f = fdopen(fd, "w");
	CHECK(loggp_params_write(f, &p, "two\nlines") == 0);
	fclose(f);
	char err[LOGGP_ERRLEN];
	CHECK(loggp_params_read(path, &q, err) == 0);
	CHECK_EQ_U64(q.S, 12345);
	CHECK_EQ_U64(q.nranges, 3);
	for (size_t i = 0; i < 3; i++) {
		CHECK_EQ_U64(q.range[i].first, p.range[i].first);
		CHECK_EQ_U64(q.range[i].last, p.range[i].last);
		CHECK_EQ_U64(q.range[i].L, p.range[i].L);
		CHECK_EQ_U64(q.range[i].o, p.range[i].o);
		CHECK_EQ_U64(q.range[i].g, p.range[i].g);
		CHECK(q.range[i].G.num == p.range[i].G.num && q.range[i].G.den == p.range[i].G.den);
		CHECK(q.range[i].O.num == p.range[i].O.num && q.range[i].O.den == p.range[i].O.den);
	}
	unlink(path);
}

int main(void)
{
	test_parse_ok();
	test_parse_errors();
	test_round_trip();
	return check_done();
}
