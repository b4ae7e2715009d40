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
	CHECK_EQ_U64(p.gamma.num, 0);
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
	/* Sizes and times with units. */
	static loggp_params q;
	CHECK_STR(perr("loggp-params 1\nS 64Ki\nrange 0 1Ki L=2.5us o=1.5us g=1us G=6 O=0\n"
	               "range 1025 inf L=0.001ms o=2 g=3 G=0.4 O=0\n"
	               "stride 8B o_mw=0.3us O_mw=0.5 l_mw=200ns L_mw=0.25\n", &q), "");
	CHECK_EQ_U64(q.S, 65536);
	CHECK_EQ_U64(q.range[0].last, 1024);
	CHECK_EQ_U64(q.range[0].L, 2500);
	CHECK_EQ_U64(q.range[0].o, 1500);
	CHECK_EQ_U64(q.range[0].g, 1000);
	CHECK_EQ_U64(q.range[1].L, 1000);
	CHECK_EQ_U64(q.stride[0].stride, 8);
	CHECK_EQ_U64(q.stride[0].o_mw, 300);
	CHECK_EQ_U64(q.stride[0].l_mw, 200);
	CHECK_EQ_U64(p.nstrides, 0);
	CHECK(loggp_params_stride(&p, 64) == NULL);
	/* Strides, anywhere after the header, fields in any order. */
	CHECK_STR(perr("loggp-params 1\nstride 8 o_mw=10 O_mw=0.5 l_mw=20 L_mw=0.25\n"
	               "range 0 inf L=1 o=2 g=3 G=4 O=5\n"
	               "stride 64 L_mw=0 l_mw=0 O_mw=1.125 o_mw=300 # comment\n"
	               "stride 2147483648 o_mw=1 O_mw=2 l_mw=3 L_mw=4\n", &p), "");
	CHECK_EQ_U64(p.nstrides, 3);
	CHECK_EQ_U64(p.stride[0].stride, 8);
	CHECK_EQ_U64(p.stride[0].o_mw, 10);
	CHECK_STR(dec(p.stride[0].O_mw), "0.5");
	CHECK_EQ_U64(p.stride[0].l_mw, 20);
	CHECK_STR(dec(p.stride[0].L_mw), "0.25");
	CHECK_EQ_U64(p.stride[1].stride, 64);
	CHECK_EQ_U64(p.stride[1].o_mw, 300);
	CHECK_STR(dec(p.stride[1].O_mw), "1.125");
	CHECK_EQ_U64(p.stride[2].stride, 2147483648u);
	/* The nearest stride at or below. */
	CHECK(loggp_params_stride(&p, 7) == NULL);
	CHECK(loggp_params_stride(&p, 8) == &p.stride[0]);
	CHECK(loggp_params_stride(&p, 63) == &p.stride[0]);
	CHECK(loggp_params_stride(&p, 64) == &p.stride[1]);
	CHECK(loggp_params_stride(&p, 2147483647) == &p.stride[1]);
	CHECK(loggp_params_stride(&p, 2147483648u) == &p.stride[2]);
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
		  "t.params:2:15: error: expected a time in whole ns (2500, 2.5us), got '1.5'" },
		{ "loggp-params 1\nrange 0 inf L=-1 o=2 g=3 G=4 O=5\n",
		  "t.params:2:15: error: expected a time in whole ns (2500, 2.5us), got '-1'" },
		{ "loggp-params 1\nrange 0 inf L= o=2 g=3 G=4 O=5\n",
		  "t.params:2:15: error: expected a time in whole ns (2500, 2.5us)" },
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
		{ "loggp-params 1\ngamma 1\ngamma 2\n", "t.params:3:1: error: 'gamma' given twice" },
		{ "loggp-params 1\ngamma\n", "t.params:2:6: error: expected 'gamma NS_PER_BYTE'" },
		{ "loggp-params 1\ngamma -0.5\n",
		  "t.params:2:7: error: expected a decimal like 6 or 0.4 (at most 9 fraction digits, below 2^32), got '-0.5'" },
		{ "loggp-params 1\nS x\n", "t.params:2:3: error: expected a size in bytes (65536, 64Ki), got 'x'" },
		{ "loggp-params 1\n  L 10\n", "t.params:2:3: error: unknown keyword 'L', expected 'S', 'gamma', 'range' or 'stride'" },
		{ "loggp-params 1\nstride\n",
		  "t.params:2:7: error: expected 'stride D o_mw=.. O_mw=.. l_mw=.. L_mw=..'" },
		{ "loggp-params 1\nstride 0 o_mw=1 O_mw=2 l_mw=3 L_mw=4\n",
		  "t.params:2:8: error: stride 0 is out of range (1..2147483648)" },
		{ "loggp-params 1\nstride 2147483649 o_mw=1 O_mw=2 l_mw=3 L_mw=4\n",
		  "t.params:2:8: error: stride 2147483649 is out of range (1..2147483648)" },
		{ "loggp-params 1\nstride x o_mw=1 O_mw=2 l_mw=3 L_mw=4\n",
		  "t.params:2:8: error: expected a size in bytes (65536, 64Ki), got 'x'" },
		{ "loggp-params 1\nstride 64 o_mw=1 O_mw=2 l_mw=3 L_mw=4\n\nstride 64 o_mw=1 O_mw=2 l_mw=3 L_mw=4\n",
		  "t.params:4:8: error: stride 64 given twice (first on line 2)" },
		{ "loggp-params 1\nstride 64 o_mw=1 O_mw=2 l_mw=3 L_mw=4\nstride 8 o_mw=1 O_mw=2 l_mw=3 L_mw=4\n",
		  "t.params:3:8: error: stride 8 after stride 64: strides must increase" },
		{ "loggp-params 1\nstride 8 o_mw=1 O_mw=2 l_mw=3\n",
		  "t.params:2:30: error: missing field 'L_mw'" },
		{ "loggp-params 1\nstride 8 o_mw=1 O_mw=2 l_mw=3 o_mw=4\n",
		  "t.params:2:31: error: field 'o_mw' given twice" },
		{ "loggp-params 1\nstride 8 o_mw=1 O_mw=2 l_mw=3 L=4\n",
		  "t.params:2:31: error: unknown field 'L', expected o_mw, O_mw, l_mw or L_mw" },
		{ "loggp-params 1\nstride 8 o_mw=1 O_mw=2 l_mw=3 L_mw=4 x=5\n",
		  "t.params:2:38: error: too many fields in a stride" },
		{ "loggp-params 1\nstride 8 o_mw=1.5 O_mw=2 l_mw=3 L_mw=4\n",
		  "t.params:2:15: error: expected a time in whole ns (2500, 2.5us), got '1.5'" },
		{ "loggp-params 1\nstride 8 o_mw=1 O_mw=-2 l_mw=3 L_mw=4\n",
		  "t.params:2:22: error: expected a decimal like 6 or 0.4 (at most 9 fraction digits, below 2^32), got '-2'" },
		{ "loggp-params 1\nstride 8 o_mw 1\n", "t.params:2:10: error: expected NAME=VALUE, got 'o_mw'" },
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
	p.gamma = num_dec_make(25, 100);
	p.nstrides = 2;
	loggp_stride_set(&p.stride[0], 8, 12.5, 0.0312344, -4, 0.25);
	loggp_stride_set(&p.stride[1], 1024, 2000.4, 1.5, 30, 0);
	CHECK_EQ_U64(p.stride[0].o_mw, 13);
	CHECK_STR(dec(p.stride[0].O_mw), "0.031234");
	CHECK_EQ_U64(p.stride[0].l_mw, 0);
	CHECK_EQ_U64(p.stride[1].o_mw, 2000);
	char path[] = "/tmp/loggp_params_testXXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	FILE *f = fdopen(fd, "w");
	CHECK(loggp_params_write(f, &p, "two\nlines") == 0);
	fclose(f);
	char err[LOGGP_ERRLEN];
	CHECK(loggp_params_read(path, &q, err) == 0);
	CHECK_EQ_U64(q.S, 12345);
	CHECK_STR(dec(q.gamma), "0.25");
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
	CHECK_EQ_U64(q.nstrides, 2);
	for (size_t i = 0; i < 2; i++) {
		CHECK_EQ_U64(q.stride[i].stride, p.stride[i].stride);
		CHECK_EQ_U64(q.stride[i].o_mw, p.stride[i].o_mw);
		CHECK_EQ_U64(q.stride[i].l_mw, p.stride[i].l_mw);
		CHECK(q.stride[i].O_mw.num == p.stride[i].O_mw.num && q.stride[i].O_mw.den == p.stride[i].O_mw.den);
		CHECK(q.stride[i].L_mw.num == p.stride[i].L_mw.num && q.stride[i].L_mw.den == p.stride[i].L_mw.den);
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
