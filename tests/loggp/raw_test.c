/* raw_test.c: the PRTT table: round trip and exact error texts. */
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "loggp_raw.h"

/* Write text to a temporary file and read it as a PRTT table. */
static const char *raw(const char *text, unsigned *n, loggp_point **pts, size_t *np)
{
	static char err[LOGGP_ERRLEN];
	FILE *f = fopen("/tmp/loggp_raw_test.prtt", "w");
	fputs(text, f);
	fclose(f);
	int rc = loggp_raw_read("/tmp/loggp_raw_test.prtt", n, pts, np, NULL, NULL, err);
	unlink("/tmp/loggp_raw_test.prtt");
	return rc ? err : "";
}

static void test_raw(void)
{
	loggp_point in[2] = { { 1, 500, 500, 700, 2300, 6000, 1.5, 2, 3 },
	                      { 4096, 900, 900, 1100, 3000, 9000, 0, 0, 0 } };
	FILE *f = fopen("/tmp/loggp_raw_rt.prtt", "w");
	CHECK(loggp_raw_write(f, 10, in, 2, NULL, 0) == 0);
	fclose(f);
	unsigned n;
	loggp_point *pts;
	size_t np;
	char err[LOGGP_ERRLEN];
	CHECK(loggp_raw_read("/tmp/loggp_raw_rt.prtt", &n, &pts, &np, NULL, NULL, err) == 0);
	unlink("/tmp/loggp_raw_rt.prtt");
	CHECK_EQ_U64(n, 10);
	CHECK_EQ_U64(np, 2);
	CHECK(memcmp(pts, in, sizeof in) == 0);
	free(pts);
	CHECK_STR(raw("loggp-prtt 1\nn 5\n8 1 2 3 4 5\n", &n, &pts, &np), "");
	CHECK(np == 1 && pts[0].size == 8 && pts[0].prttd == 5 && pts[0].spreadd == 0);
	free(pts);
	CHECK_STR(raw("", &n, &pts, &np),
	          "/tmp/loggp_raw_test.prtt:1:1: error: empty file, expected 'loggp-prtt 1'");
	CHECK_STR(raw("loggp-prtt 1\nn 1\n", &n, &pts, &np),
	          "/tmp/loggp_raw_test.prtt:2:1: error: expected 'n N' with 2 <= N <= 1000000");
	CHECK_STR(raw("loggp-prtt 1\nn 4\n", &n, &pts, &np),
	          "/tmp/loggp_raw_test.prtt:3:1: error: no sizes in the table");
	CHECK_STR(raw("loggp-prtt 1\nn 4\n1 2 3 x 5 6\n", &n, &pts, &np),
	          "/tmp/loggp_raw_test.prtt:3:7: error: expected a non-negative number, got 'x'");
	CHECK_STR(raw("loggp-prtt 1\nn 4\n1 2 3\n", &n, &pts, &np),
	          "/tmp/loggp_raw_test.prtt:3:1: error: expected 6 or 9 columns: size d "
	          "PRTT(1,0,s) PRTT(2,0,s) PRTT(n,0,s) PRTT(n,d,s) [3 spreads]");
	CHECK_STR(raw("loggp-prtt 1\nn 4\n2 2 3 4 5 6\n2 2 3 4 5 6\n", &n, &pts, &np),
	          "/tmp/loggp_raw_test.prtt:4:1: error: sizes must increase");
	CHECK_STR(raw("loggp-prtt 1\nn 4\n2.5 2 3 4 5 6\n", &n, &pts, &np),
	          "/tmp/loggp_raw_test.prtt:3:1: error: the size must be an integer");
	/* Strided lines after the sizes. */
	CHECK_STR(raw("loggp-prtt 1\nn 4\n8 1 2 3 4 5\nstride 8 16 1 2 3 4\n", &n, &pts, &np),
	          "/tmp/loggp_raw_test.prtt:4:1: error: expected 'stride D SIZE d PRTT(1,0,s) "
	          "PRTT(n,d,s) PRTT(1,0,s) PRTT(n,d,s)' (the last two strided)");
	CHECK_STR(raw("loggp-prtt 1\nn 4\n8 1 2 3 4 5\n  stride 4 16 1 2 3 4 5\n", &n, &pts, &np),
	          "/tmp/loggp_raw_test.prtt:4:3: error: the stride must be an integer 8..2147483648");
	CHECK_STR(raw("loggp-prtt 1\nn 4\n8 1 2 3 4 5\nstride 8 20 1 2 3 4 5\n", &n, &pts, &np),
	          "/tmp/loggp_raw_test.prtt:4:1: error: the size must be a multiple of 8, at least 16");
	CHECK_STR(raw("loggp-prtt 1\nn 4\n8 1 2 3 4 5\nstride 64 16 1 2 3 4 5\nstride 8 16 1 2 3 4 5\n",
	              &n, &pts, &np),
	          "/tmp/loggp_raw_test.prtt:5:1: error: strides must not decrease, sizes increase within one");
	CHECK_STR(raw("loggp-prtt 1\nn 4\n8 1 2 3 4 5\nstride 8 16 1 2 3 4 5\n9 1 2 3 4 5\n", &n, &pts, &np),
	          "/tmp/loggp_raw_test.prtt:5:1: error: a size after the strided lines");
	CHECK_STR(raw("loggp-prtt 1\nn 4\n8 1 2 3 4 5\nstride 8 16 1 2 3 x 5\n", &n, &pts, &np),
	          "/tmp/loggp_raw_test.prtt:4:19: error: expected a non-negative number, got 'x'");
	{
		loggp_spoint sin[3] = { { 8, 1024, 5000.5, 4000, 20000, 4400, 25000.5 },
		                        { 8, 2048, 6000, 5000, 30000, 5800, 36000 },
		                        { 1024, 1024, 9000, 4000, 20000, 8000, 40000 } };
		loggp_spoint *sp = NULL;
		size_t nsp = 0;
		f = fopen("/tmp/loggp_raw_rt.prtt", "w");
		CHECK(loggp_raw_write(f, 10, in, 2, sin, 3) == 0);
		fclose(f);
		CHECK(loggp_raw_read("/tmp/loggp_raw_rt.prtt", &n, &pts, &np, &sp, &nsp, err) == 0);
		unlink("/tmp/loggp_raw_rt.prtt");
		CHECK_EQ_U64(np, 2);
		CHECK_EQ_U64(nsp, 3);
		CHECK(sp && memcmp(sp, sin, sizeof sin) == 0);
		free(pts);
		free(sp);
	}
}

int main(void)
{
	test_raw();
	return check_done();
}
