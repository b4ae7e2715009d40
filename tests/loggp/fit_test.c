/* fit_test.c: the LogGP estimator on synthetic PRTT times from the closed forms of the method. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "loggp_fit.h"

#define CHECK_NEAR(a, b, tol) do { \
	double near_a_ = (a), near_b_ = (b); \
	if (!check_report(fabs(near_a_ - near_b_) <= (tol), #a " ~ " #b, __FILE__, __LINE__)) \
		printf("    got %.9g, want %.9g\n", near_a_, near_b_); \
} while (0)

/* Model parameters of one protocol. */
typedef struct model {
	double L, o, g, G, O;
} model;

/* The closed forms: with o_s = o_r = o + (s-1)O,
 * PRTT(1,0,s) = 2(L + o_s + o_r + (s-1)G) and
 * PRTT(n,d,s) = PRTT(1,0,s) + (n-1) max(o_s + d, g + (s-1)G). */
static double prtt(const model *m, unsigned n, double d, uint64_t s)
{
	double x = (double)(s - 1), os = m->o + x * m->O, gap = m->g + x * m->G;
	double p1 = 2 * (m->L + 2 * os + x * m->G);
	return p1 + (double)(n - 1) * fmax(os + d, gap);
}

/* Sizes 1..65536, 4 per octave (as loggp-measure makes them), the
 * parameters of m1 up to change bytes and of m2 above. */
static size_t synth(loggp_point *pts, unsigned n, const model *m1, const model *m2,
                    uint64_t change)
{
	size_t np = 0;
	for (unsigned i = 0; i <= 64; i++) {
		uint64_t s = (uint64_t)floor(pow(2.0, i / 4.0) + 0.5);
		if (np && s == pts[np - 1].size)
			continue;
		const model *m = s <= change ? m1 : m2;
		loggp_point *p = &pts[np++];
		*p = (loggp_point){ 0 };
		p->size = s;
		p->prtt1 = prtt(m, 1, 0, s);
		p->prtt2 = prtt(m, 2, 0, s);
		p->prttn = prtt(m, n, 0, s);
		int fb;
		p->d = loggp_delay(p->prtt1, p->prtt2, loggp_gap(p, n), &fb);
		p->prttd = prtt(m, n, p->d, s);
	}
	return np;
}

/* loggp_fit with the default detection and n = 10; 0 on success. */
static int fit10(const loggp_point *pts, size_t np, loggp_result *res)
{
	loggp_detect det;
	loggp_detect_default(&det);
	char err[200];
	return loggp_fit(pts, np, 10, &det, res, err, sizeof err);
}

static void test_lsq(void)
{
	double x[4] = { 0, 1, 2, 3 }, y[4] = { 0, 0, 0, 4 }, G, g;
	loggp_lsq_line(x, y, 0, 3, &G, &g);
	CHECK_NEAR(G, 1.2, 1e-12);
	CHECK_NEAR(g, -0.8, 1e-12);
	/* residuals -0.8 0.4 1.6 -1.2: 4.8 / (3-0-2) */
	CHECK_NEAR(loggp_lsq_dev(x, y, 0, 3), 4.8, 1e-12);
	/* Three points: residuals -2/3 4/3 -2/3, divided by 1. */
	CHECK_NEAR(loggp_lsq_dev(x, y, 1, 3), 8.0 / 3, 1e-12);
	CHECK(loggp_lsq_dev(x, y, 0, 1) == -1);
	loggp_lsq_line(x, y, 2, 2, &G, &g);
	CHECK(G == 0 && g == 0);
}

/* The range starts that loggp_detect_ranges finds in y[0..n) (x = 0..n-1,
 * default options), as "0 6 9". */
static const char *starts_of(const double *y, size_t n)
{
	static char buf[200];
	double x[64];
	size_t st[LOGGP_PARAMS_MAX_RANGES], len = 0;
	for (size_t i = 0; i < n; i++)
		x[i] = (double)i;
	loggp_detect det;
	loggp_detect_default(&det);
	size_t nr = loggp_detect_ranges(x, &y, 1, n, &det, st, LOGGP_PARAMS_MAX_RANGES);
	buf[0] = 0;
	for (size_t r = 0; r < nr; r++)
		len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%zu", r ? " " : "",
		                        st[r]);
	return buf;
}

static void test_detect(void)
{
	/* A jump in level: the change after the last point before it. */
	double jump[12] = { 100, 100, 100, 100, 100, 100, 130, 130, 130, 130, 130, 130 };
	CHECK_STR(starts_of(jump, 12), "0 6");
	/* A range of three points between two jumps. */
	double three[15] = { 100, 100, 100, 100, 100, 100, 200, 200, 200,
	                     400, 400, 400, 400, 400, 400 };
	CHECK_STR(starts_of(three, 15), "0 6 9");
	/* A bend after point 7, then a step after 9 three times the size of
	 * the bend's: the test sees the step from point 7 on, and the change
	 * goes to the step (two points, 110 and 120, cannot make a range). */
	double step[16] = { 100, 100, 100, 100, 100, 100, 100, 100, 110, 120,
	                    400, 400, 400, 400, 400, 400 };
	CHECK_STR(starts_of(step, 16), "0 10");
	/* Outliers beyond the 5% floor on both sides of the line: noise, no
	 * change. */
	double noise[10] = { 100, 100, 100, 100, 100, 108, 92, 108, 100, 100 };
	CHECK_STR(starts_of(noise, 10), "0");
	/* A jump of 30% after 40 noisy points (+-30 ns about 1000): the mean
	 * deviation of the range grows by less than the square of the 5%
	 * floor, but every point after the jump lies 300 ns off the line. */
	double late[44];
	for (size_t i = 0; i < 44; i++)
		late[i] = i < 40 ? 1000 + (i % 2 ? 30 : -30) : 1300;
	CHECK_STR(starts_of(late, 44), "0 40");
}

static void test_delay(void)
{
	int fb;
	CHECK(loggp_delay(1000, 1500, 400, &fb) == 1000 && fb == 0);
	CHECK(loggp_delay(1000, 2300, 1300, &fb) == 2300 && fb == 1);
}

static void test_one_protocol(void)
{
	model m = { 2000, 500, 1000, 2, 1 };
	loggp_point pts[80];
	size_t np = synth(pts, 10, &m, &m, UINT64_MAX);
	loggp_result res;
	CHECK(fit10(pts, np, &res) == 0);
	CHECK_EQ_U64(res.nranges, 1);
	CHECK_NEAR(res.range[0].o, 500, 1e-6);
	CHECK_NEAR(res.range[0].O_send, 1, 1e-9);
	/* The closed form's one-way time grows by 2O + G per byte, the
	 * simulator's by max(O, G): O is raised to 2O + G for the file, and L
	 * stays exact. */
	CHECK_NEAR(res.range[0].O, 4, 1e-9);
	CHECK(res.range[0].clamped == LOGGP_RAISED_O);
	CHECK_NEAR(res.range[0].L, 2000, 0.5);
	CHECK_NEAR(res.range[0].g, 1000, 1e-6);
	CHECK_NEAR(res.range[0].G, 2, 1e-9);
	CHECK_NEAR(res.L_reported, 2000 + 2 * 500, 1e-9);
}

static void test_protocol_change(void)
{
	/* Eager-like up to 4096 bytes, then a protocol with a larger g and o
	 * and a smaller G; g + (s-1)G >= o_s everywhere, so PRTT(n,0,s)
	 * measures the gap.  O = 0 in the first range, where the closed form
	 * and the simulator agree, so L is exact there. */
	model m1 = { 2000, 500, 1000, 2, 0 }, m2 = { 6000, 900, 3000, 0.5, 0.25 };
	loggp_point pts[80];
	size_t np = synth(pts, 10, &m1, &m2, 4096);
	loggp_detect det;
	loggp_detect_default(&det);
	loggp_result res;
	char err[200];
	CHECK(loggp_fit(pts, np, 10, &det, &res, err, sizeof err) == 0);
	CHECK_EQ_U64(res.nranges, 2);
	CHECK_EQ_U64(pts[res.range[0].last].size, 4096);
	CHECK_EQ_U64(pts[res.range[1].first].size, 4871);
	const loggp_fitrange *a = &res.range[0], *b = &res.range[1];
	CHECK_NEAR(a->o, 500, 1e-6);
	CHECK_NEAR(a->O, 0, 1e-9);
	CHECK_NEAR(a->g, 1000, 1e-6);
	CHECK_NEAR(a->G, 2, 1e-9);
	CHECK_NEAR(a->L, 2000, 1e-6);
	CHECK_NEAR(b->o, 900, 1e-6);
	CHECK_NEAR(b->O_send, 0.25, 1e-9);
	CHECK_NEAR(b->O, 2 * 0.25 + 0.5, 1e-9);
	CHECK_NEAR(b->g, 3000, 1e-5);
	CHECK_NEAR(b->G, 0.5, 1e-9);
	CHECK(a->clamped == 0 && b->clamped == LOGGP_RAISED_O);

	/* The parameter file of the fit. */
	loggp_params par;
	loggp_fit_params(&res, pts, 65535, &par);
	CHECK_EQ_U64(par.nranges, 2);
	CHECK_EQ_U64(par.range[0].first, 0);
	CHECK_EQ_U64(par.range[0].last, 4096);
	CHECK_EQ_U64(par.range[1].first, 4097);
	CHECK(par.range[1].last == LOGGP_SIZE_INF);
	CHECK_EQ_U64(par.range[0].L, 2000);
	CHECK_EQ_U64(par.range[1].g, 3000);
	CHECK(par.range[1].G.num == 5 && par.range[1].G.den == 10);   /* 0.5 */
	CHECK(par.range[0].O.num == 0 && par.range[0].O.den == 1);

	/* Detection off: one range. */
	det.enabled = 0;
	CHECK(loggp_fit(pts, np, 10, &det, &res, err, sizeof err) == 0);
	CHECK_EQ_U64(res.nranges, 1);

	/* A change among the last lookahead sizes cannot be seen. */
	loggp_detect_default(&det);
	np = synth(pts, 10, &m1, &m2, 46341); /* sizes above: 55109, 65536 */
	CHECK(loggp_fit(pts, np, 10, &det, &res, err, sizeof err) == 0);
	CHECK_EQ_U64(res.nranges, 1);
}

static void test_three_protocols(void)
{
	/* Three ranges; lookahead 5 and a larger pfact still find them. */
	model m1 = { 300, 100, 120, 0.1, 0.05 }, m2 = { 600, 300, 330, 0.02, 0.04 },
	      m3 = { 3000, 400, 2000, 0.7, 0.7 };
	loggp_point pts[80], tmp[80];
	size_t np = synth(pts, 10, &m1, &m2, 256);
	size_t n2 = synth(tmp, 10, &m2, &m3, 1024);
	for (size_t i = 0; i < np; i++)
		if (pts[i].size > 1024)
			pts[i] = tmp[i];
	(void)n2;
	loggp_detect det;
	loggp_detect_default(&det);
	det.lookahead = 5;
	det.pfact = 4;
	loggp_result res;
	char err[200];
	CHECK(loggp_fit(pts, np, 10, &det, &res, err, sizeof err) == 0);
	CHECK_EQ_U64(res.nranges, 3);
	CHECK_EQ_U64(pts[res.range[0].last].size, 256);
	CHECK_EQ_U64(pts[res.range[1].last].size, 1024);
	CHECK_NEAR(res.range[1].g, 330, 1e-6);
	CHECK_NEAR(res.range[2].G, 0.7, 1e-9);
	CHECK_NEAR(res.range[2].O_send, 0.7, 1e-9);
	CHECK_NEAR(res.range[2].O, 2.1, 1e-9);
}

static void test_latency_change(void)
{
	/* Only the latency changes above 4096 bytes (a protocol change that
	 * the gap does not show): the ping-pong finds it, each range keeps
	 * its L. */
	model m1 = { 1000, 500, 2000, 1, 0 }, m2 = { 4000, 500, 2000, 1, 0 };
	loggp_point pts[80];
	size_t np = synth(pts, 10, &m1, &m2, 4096);
	loggp_result res;
	CHECK(fit10(pts, np, &res) == 0);
	CHECK_EQ_U64(res.nranges, 2);
	CHECK_EQ_U64(pts[res.range[1].first].size, 4871);
	CHECK_NEAR(res.range[0].L, 1000, 0.5);
	CHECK_NEAR(res.range[1].L, 4000, 0.5);
	CHECK_NEAR(res.range[1].g, 2000, 1e-6);
	CHECK(res.range[0].clamped == 0 && res.range[1].clamped == 0);
}

static void test_cheap_receiver(void)
{
	/* Send overhead o_s = 800 + (s-1)O, receive overhead o_r = 200 +
	 * (s-1)O, no wire latency: PRTT(1,0,s) = 2(o_s + o_r + (s-1)G) =
	 * 2(1000 + (s-1)(2O + G)).  The fit gives o = 800 from the sends;
	 * L = 1000/2 ... -600 comes out negative, so o becomes the mean
	 * (800 + 200)/2 = 500 and L = 0: a simulated ping-pong,
	 * 2(L + 2o + max(sO,sG)), is PRTT(1,0,s) again when 2O + G = max(O, G)
	 * (O = 0 here). */
	model m = { -600, 800, 1000, 2, 0 };
	loggp_point pts[80];
	size_t np = synth(pts, 10, &m, &m, UINT64_MAX);
	loggp_result res;
	CHECK(fit10(pts, np, &res) == 0);
	CHECK_EQ_U64(res.nranges, 1);
	const loggp_fitrange *r = &res.range[0];
	CHECK_NEAR(r->o_send, 800, 1e-6);
	CHECK_NEAR(r->o, 500, 1e-6);
	CHECK_NEAR(r->L, 0, 0);
	CHECK(r->clamped == LOGGP_CLAMP_L);
	for (size_t i = 0; i < np; i++) {
		double sG = loggp_bytes(r->G, pts[i].size);
		CHECK_NEAR(2 * (r->L + 2 * r->o + sG), pts[i].prtt1, 1.0);
	}
}

static void test_noisy_send_overhead(void)
{
	/* The send overheads grow by 2 ns per byte (say, noise), the
	 * ping-pong only by G = 0.5: O comes down to max(slope, G) = 0.5, and
	 * a simulated ping-pong is PRTT(1,0,s) again. */
	model m = { 2000, 500, 1000, 0.5, 0 };
	loggp_point pts[80];
	size_t np = synth(pts, 10, &m, &m, UINT64_MAX);
	for (size_t i = 0; i < np; i++)
		pts[i].prttd += 9 * 2.0 * (double)(pts[i].size - 1);
	loggp_result res;
	CHECK(fit10(pts, np, &res) == 0);
	CHECK_EQ_U64(res.nranges, 1);
	const loggp_fitrange *r = &res.range[0];
	CHECK_NEAR(r->O_send, 2, 1e-9);
	CHECK_NEAR(r->O, 0.5, 1e-9);
	CHECK(r->clamped == LOGGP_LOWERED_O);
	for (size_t i = 0; i < np; i++) {
		double sO = loggp_bytes(r->O, pts[i].size);
		CHECK_NEAR(2 * (r->L + 2 * r->o + sO), pts[i].prtt1, 1.0);
	}
}

static void test_errors(void)
{
	loggp_point pts[2] = { { .size = 8 }, { .size = 8 } };
	loggp_detect det;
	loggp_detect_default(&det);
	loggp_result res;
	char err[200];
	CHECK(loggp_fit(pts, 2, 10, &det, &res, err, sizeof err) == -1);
	CHECK_STR(err, "sizes must increase: 8 after 8");
	CHECK(loggp_fit(pts, 1, 1, &det, &res, err, sizeof err) == -1);
	CHECK_STR(err, "n must be at least 2 (is 1)");
	CHECK(loggp_fit(pts, 0, 10, &det, &res, err, sizeof err) == -1);
	CHECK_STR(err, "no message sizes");
}

/* A strided point of size s whose send overhead grows by om and whose
 * ping-pong grows by 2p (p per message) over some contiguous times. */
static loggp_spoint spoint(uint64_t stride, uint64_t s, unsigned n, double om, double p)
{
	double x = (double)(s - 1);
	loggp_spoint q = { stride, s, 0, 0, 0, 0, 0 };
	q.c1 = 10000 + 2 * x;
	q.d = q.c1 + 2 * p;
	q.cd = q.c1 + (double)(n - 1) * (1500 + 0.25 * x + q.d);
	q.s1 = q.c1 + 2 * p;
	q.sd = q.s1 + (q.cd - q.c1) + (double)(n - 1) * om;
	return q;
}

/* The middleware costs per stride: recovered exactly from exact times;
 * adjusted, with their flags, where the receiver is cheaper (lm < 0) or the
 * strided messages are faster. */
static void test_strides(void)
{
	loggp_spoint pts[30];
	loggp_mwfit fits[LOGGP_PARAMS_MAX_STRIDES];
	size_t np = 0;
	unsigned n = 10;
	char err[200];
	for (uint64_t s = 1024; s <= 262144; s *= 2) {
		double x = (double)(s - 1);
		/* stride 8: om = 300 + 0.5x, lm = 200 + 0.25x */
		pts[np++] = spoint(8, s, n, 300 + 0.5 * x, 2 * (300 + 0.5 * x) + 200 + 0.25 * x);
	}
	for (uint64_t s = 1024; s <= 262144; s *= 2) {
		double x = (double)(s - 1);
		/* stride 64: om = 500 + x, but the ping-pong grows by only 600 + 2x
		 * per message: lm's intercept would be -400 */
		pts[np++] = spoint(64, s, n, 500 + x, 600 + 2 * x);
	}
	for (uint64_t s = 1024; s <= 262144; s *= 2) {
		double x = (double)(s - 1);
		/* stride 1024: the strided ping-pong is faster by 100 ns */
		pts[np++] = spoint(1024, s, n, 50 + 0.125 * x, -100 + 0.25 * x);
	}
	CHECK(loggp_fit_strides(pts, np, n, fits, err, sizeof err) == 3);
	CHECK_EQ_U64(fits[0].stride, 8);
	CHECK_NEAR(fits[0].o_mw, 300, 1e-6);
	CHECK_NEAR(fits[0].O_mw, 0.5, 1e-9);
	CHECK_NEAR(fits[0].l_mw, 200, 1e-6);
	CHECK_NEAR(fits[0].L_mw, 0.25, 1e-9);
	CHECK_EQ_U64(fits[0].clamped, 0);
	CHECK_NEAR(fits[0].om_rms, 0, 1e-6);
	CHECK_EQ_U64(fits[1].stride, 64);
	CHECK_NEAR(fits[1].o_mw, 300, 1e-6);
	CHECK_NEAR(fits[1].O_mw, 1, 1e-9);
	CHECK_NEAR(fits[1].l_mw, 0, 1e-6);
	CHECK_NEAR(fits[1].L_mw, 0, 1e-9);
	CHECK_EQ_U64(fits[1].clamped, LOGGP_MW_SPLIT);
	CHECK_EQ_U64(fits[2].stride, 1024);
	CHECK_NEAR(fits[2].o_mw, 0, 1e-6);
	CHECK_NEAR(fits[2].O_mw, 0.125, 1e-9);
	CHECK_NEAR(fits[2].l_mw, 0, 1e-6);
	CHECK_NEAR(fits[2].L_mw, 0, 1e-9);
	CHECK_EQ_U64(fits[2].clamped, LOGGP_MW_NEG_P | LOGGP_MW_SPLIT);
	CHECK_EQ_U64(fits[2].first, 18);
	CHECK_EQ_U64(fits[2].last, 26);
	CHECK(loggp_fit_strides(pts, np, 1, fits, err, sizeof err) == -1);
	CHECK_STR(err, "n must be at least 2");
}

int main(void)
{
	test_strides();
	test_lsq();
	test_detect();
	test_delay();
	test_one_protocol();
	test_protocol_change();
	test_three_protocols();
	test_latency_change();
	test_cheap_receiver();
	test_noisy_send_overhead();
	test_errors();
	return check_done();
}
