/* loggp_report.c: option values, the fit, the human report and the parameter file for loggp-measure and loggp-fit. */
#include "loggp_report.h"
#include "num.h"
#include "out.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int loggp_arg_u64(const char *arg, uint64_t min, uint64_t max, uint64_t *v)
{
	uint64_t x;
	if (!arg || num_u64_parse(arg, strlen(arg), &x) || x < min || x > max)
		return -1;
	*v = x;
	return 0;
}

int loggp_arg_size(const char *arg, uint64_t min, uint64_t max, uint64_t *v)
{
	uint64_t x;
	if (!arg || num_size_parse(arg, strlen(arg), &x) || x < min || x > max)
		return -1;
	*v = x;
	return 0;
}

int loggp_arg_double(const char *arg, double min, double max, double *v)
{
	char *e;
	if (!arg || !*arg)
		return -1;
	errno = 0;
	double x = strtod(arg, &e);
	if (errno || *e || !isfinite(x) || x < min || x > max)
		return -1;
	*v = x;
	return 0;
}

const char loggp_detect_help[] =
	"protocol-change detection (docs/loggp.md):\n"
	"      --pfact X         a change needs the mean least-squares deviation to\n"
	"                        grow by more than X (default 2.0)\n"
	"      --lookahead N     ... at each of the next N sizes (default 3)\n"
	"      --floor NS        ... and each of these sizes to lie more than NS ns\n"
	"                        off the range's line, all on one side (default 1)\n"
	"      --rel-floor F     ... and more than F times the mean value (default 0.05)\n"
	"      --no-detect       one range over all sizes\n"
	"  -S N                  rendezvous threshold written to the file (default "
	LOGGP_STR(LOGGP_DEFAULT_S) ")\n";

int loggp_detect_option(int opt, const char *arg, loggp_detect *det, char *err,
                        size_t errlen)
{
	uint64_t u;
	switch (opt) {
	case LOGGP_OPT_PFACT:
		if (loggp_arg_double(arg, 1.0, 1e9, &det->pfact) == 0)
			return 1;
		snprintf(err, errlen, "--pfact: expected a number >= 1, got '%s'", arg);
		return -1;
	case LOGGP_OPT_LOOKAHEAD:
		if (loggp_arg_u64(arg, 1, 1000, &u) == 0) {
			det->lookahead = (unsigned)u;
			return 1;
		}
		snprintf(err, errlen, "--lookahead: expected an integer 1..1000, got '%s'", arg);
		return -1;
	case LOGGP_OPT_FLOOR:
		if (loggp_arg_double(arg, 0, 1e12, &det->floor_ns) == 0)
			return 1;
		snprintf(err, errlen, "--floor: expected a number >= 0, got '%s'", arg);
		return -1;
	case LOGGP_OPT_RELFLOOR:
		if (loggp_arg_double(arg, 0, 1e6, &det->floor_rel) == 0)
			return 1;
		snprintf(err, errlen, "--rel-floor: expected a number >= 0, got '%s'", arg);
		return -1;
	case LOGGP_OPT_NODETECT:
		det->enabled = 0;
		return 1;
	default:
		return 0;
	}
}

/* The parameter file and its comment, for util_out_write. */
typedef struct params_out {
	const loggp_params *par;
	const char *comment;
} params_out;

static int put_params(FILE *f, void *ctx)
{
	const params_out *p = ctx;
	return loggp_params_write(f, p->par, p->comment);
}

/* Fit the strided points into par's strides, print their table to out and
 * warnings to warn.  0, or -1 with err set. */
static int report_strides(FILE *out, FILE *warn, const loggp_spoint *spts, size_t nsp,
                          unsigned n, loggp_params *par, char *err, size_t errlen)
{
	loggp_mwfit fits[LOGGP_PARAMS_MAX_STRIDES];
	char msg[LOGGP_ERRLEN];
	int nf = loggp_fit_strides(spts, nsp, n, fits, msg, sizeof msg);
	if (nf < 0) {
		snprintf(err, errlen, "error: %s", msg);
		return -1;
	}
	loggp_print_strides(out, spts, fits, (size_t)nf, n);
	fflush(out);
	for (int k = 0; k < nf; k++) {
		const loggp_mwfit *m = &fits[k];
		unsigned long long d = (unsigned long long)m->stride;
		if (m->clamped & LOGGP_MW_NEG_P)
			fprintf(warn, "warning: stride %llu: the strided ping-pong is faster than "
			        "the contiguous one at some sizes: what is negative written as 0\n", d);
		if (m->clamped & LOGGP_MW_NEG_O)
			fprintf(warn, "warning: stride %llu: the strided send overhead is below "
			        "the contiguous one at some sizes: o_mw or O_mw written as 0\n", d);
		if (m->clamped & LOGGP_MW_SPLIT)
			fprintf(warn, "warning: stride %llu: the receiver's part costs less than "
			        "the sender's o_mw (lm came out negative): o_mw and O_mw lowered to "
			        "half the ping-pong's extra time per message, l_mw or L_mw 0\n", d);
		loggp_stride_set(&par->stride[k], m->stride, m->o_mw, m->O_mw, m->l_mw, m->L_mw);
	}
	par->nstrides = (size_t)nf;
	return 0;
}

int loggp_report(FILE *out, FILE *warn, const loggp_point *pts, size_t np, unsigned n,
                 const loggp_spoint *spts, size_t nsp, const loggp_detect *det,
                 uint64_t S, const char *params_path, const char *comment,
                 loggp_params *fitted, char *err, size_t errlen)
{
	loggp_result *res = malloc(sizeof *res);
	loggp_params *par = malloc(sizeof *par);
	int rc = -1;
	char msg[LOGGP_ERRLEN];
	if (!res || !par) {
		snprintf(err, errlen, "error: out of memory");
		goto out;
	}
	if (loggp_fit(pts, np, n, det, res, msg, sizeof msg)) {
		snprintf(err, errlen, "error: %s", msg);
		goto out;
	}
	loggp_print_table(out, pts, np, res);
	fflush(out);
	for (size_t r = 0; r < res->nranges; r++) {
		static const char *const names[5] = { "L", "o", "g", "G", "O" };
		unsigned c = res->range[r].clamped;
		if (!c)
			continue;
		if (c & LOGGP_CLAMP_L)
			fprintf(warn, "warning: range %zu: the receiver costs less than the "
			        "sender's o (PRTT(1,0,s)/2 < 2o + max(sO,sG)): L written as 0 "
			        "and o as %.1f ns, the mean of send and receive overhead "
			        "(send overhead %.1f ns; see docs/loggp.md)\n",
			        r, res->range[r].o, res->range[r].o_send);
		if (c & LOGGP_RAISED_O)
			fprintf(warn, "warning: range %zu: a ping-pong grows by %.6g ns per "
			        "byte, more than max(O, G): O written as that (send overhead "
			        "per byte %.6g ns; see docs/loggp.md)\n",
			        r, res->range[r].O, res->range[r].O_send);
		if (c & LOGGP_LOWERED_O)
			fprintf(warn, "warning: range %zu: a ping-pong grows by less than the "
			        "send overhead per byte, %.6g ns: O written as %.6g, the "
			        "larger of the ping-pong's growth and G (see docs/loggp.md)\n",
			        r, res->range[r].O_send, res->range[r].O);
		c &= ~(unsigned)(LOGGP_CLAMP_L | LOGGP_RAISED_O | LOGGP_LOWERED_O);
		if (!c)
			continue;
		fprintf(warn, "warning: range %zu:", r);
		for (int k = 0; k < 5; k++)
			if (c & (1u << k))
				fprintf(warn, " %s", names[k]);
		fprintf(warn, " came out negative, written as 0\n");
	}
	loggp_fit_params(res, pts, S, par);
	if (nsp && report_strides(out, warn, spts, nsp, n, par, err, errlen))
		goto out;
	if (params_path) {
		char c[1024];
		snprintf(c, sizeof c, "%s%sreported latency PRTT(1,0,%llu)/2 = %.1f ns; "
		         "n = %u; %zu sizes, %zu protocol range%s",
		         comment ? comment : "", comment ? "\n" : "",
		         (unsigned long long)pts[0].size, res->L_reported, n, np,
		         res->nranges, res->nranges == 1 ? "" : "s");
		params_out po = { par, c };
		if (util_out_write(params_path, NULL, 0, put_params, &po, err, errlen))
			goto out;
	}
	if (fitted)
		*fitted = *par;
	rc = 0;
out:
	free(res);
	free(par);
	return rc;
}

/* (y - x) / x, x > 0: how far y is from x, measured. */
static double rel_dev(double x, double y)
{
	return x > 0 ? (y - x) / x : 0;
}

/* The largest difference over the sizes of one range: how much, in which
 * round trip (0: PRTT(1,0,s), 1: PRTT(n,0,s)), at which size. */
typedef struct range_worst {
	double d;
	int k;
	uint64_t size;
	size_t sizes;
} range_worst;

/* A size's differences of PRTT(1,0,s) and PRTT(n,0,s); whether one is
 * above tol. */
static int worst_add(range_worst *w, uint64_t size, const double dv[2], double tol)
{
	int off = 0;
	for (int k = 0; k < 2; k++) {
		if (w->sizes == 0 || fabs(dv[k]) > w->d) {
			w->d = fabs(dv[k]);
			w->k = k;
			w->size = size;
		}
		off |= fabs(dv[k]) > tol;
	}
	w->sizes++;
	return off;
}

/* "range R (FIRST..LAST B): N sizes, largest difference X% (WHAT at S B)",
 * or "...: no size measured", without the line's end. */
static void put_worst(FILE *out, size_t r, const loggp_range *pr, const range_worst *w)
{
	static const char *const what[2] = { "PRTT(1,0,s)", "PRTT(n,0,s)" };
	char last[NUM_DEC_TEXT] = "inf";
	if (pr->last != LOGGP_SIZE_INF)
		snprintf(last, sizeof last, "%llu", (unsigned long long)pr->last);
	fprintf(out, "range %zu (%llu..%s B): ", r, (unsigned long long)pr->first, last);
	if (!w->sizes)
		fprintf(out, "no size measured");
	else
		fprintf(out, "%zu sizes, largest difference %.1f%% (%s at %llu B)", w->sizes,
		        100 * w->d, what[w->k], (unsigned long long)w->size);
}

size_t loggp_check(FILE *out, const char *name, const loggp_params *p, const loggp_point *pts,
                   size_t np, unsigned n, double tol)
{
	fprintf(out, "%10s %5s %11s %11s %7s %11s %11s %7s %11s %11s %7s\n", "size", "range",
	        "PRTT(1,0,s)", "predicted", "diff", "PRTT(n,0,s)", "predicted", "diff",
	        "PRTT(n,d,s)", "predicted", "diff");
	size_t bad = 0, i = 0;
	for (size_t r = 0; r < p->nranges; r++) {
		const loggp_range *pr = &p->range[r];
		range_worst w = { 0 };
		for (; i < np && pts[i].size <= pr->last; i++) {
			loggp_point q = { .size = pts[i].size, .d = pts[i].d };
			loggp_predict(pr, n, &q);
			double dv[3] = { rel_dev(pts[i].prtt1, q.prtt1), rel_dev(pts[i].prttn, q.prttn),
			                 rel_dev(pts[i].prttd, q.prttd) };
			fprintf(out, "%10llu %5zu %11.1f %11.1f %+6.1f%% %11.1f %11.1f %+6.1f%% %11.1f "
			        "%11.1f %+6.1f%%\n", (unsigned long long)pts[i].size, r, pts[i].prtt1,
			        q.prtt1, 100 * dv[0], pts[i].prttn, q.prttn, 100 * dv[1], pts[i].prttd,
			        q.prttd, 100 * dv[2]);
			bad += worst_add(&w, pts[i].size, dv, tol);
		}
		put_worst(out, r, pr, &w);
		fprintf(out, w.sizes ? (w.d > tol ? ": does not hold\n" : ": holds\n") : "\n");
	}
	fprintf(out, "(diff: predicted - measured, in percent of the measured time; "
	        "PRTT(n,d,s) is shown, not judged)\n");
	if (bad)
		fprintf(out, "%s does not hold here now: %zu of %zu sizes differ by more than "
		        "%g%% (PRTT(1,0,s) or PRTT(n,0,s))\n", name, bad, np, 100 * tol);
	else
		fprintf(out, "%s holds here now: every size within %g%% (PRTT(1,0,s) and "
		        "PRTT(n,0,s))\n", name, 100 * tol);
	return bad;
}

void loggp_repeat_report(FILE *out, FILE *warn, const loggp_params *p, const loggp_point *a,
                         const loggp_point *b, size_t np, unsigned rep, double tol)
{
	size_t i = 0;
	fprintf(out, "\nmeasurement %u against the first (the file's ranges):\n", rep);
	for (size_t r = 0; r < p->nranges; r++) {
		const loggp_range *pr = &p->range[r];
		range_worst w = { 0 };
		for (; i < np && a[i].size <= pr->last; i++) {
			double dv[2] = { rel_dev(a[i].prtt1, b[i].prtt1), rel_dev(a[i].prttn, b[i].prttn) };
			worst_add(&w, a[i].size, dv, tol);
		}
		put_worst(out, r, pr, &w);
		fputc('\n', out);
		if (w.sizes && w.d > tol)
			fprintf(warn, "warning: range %zu: measurement %u differs from the first by "
			        "%.1f%% at %llu B: this machine's times drift; check the file with "
			        "loggp-measure --check before a study\n", r, rep, 100 * w.d,
			        (unsigned long long)w.size);
	}
}
