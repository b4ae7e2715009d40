/* loggp_fit.c: the LogGP estimator: least-squares fits and protocol-change detection. */
#include "loggp_fit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void loggp_detect_default(loggp_detect *opt)
{
	opt->pfact = 2.0;
	opt->lookahead = 3;
	opt->floor_ns = 1.0;
	opt->floor_rel = 0.05;
	opt->enabled = 1;
}

double loggp_gap(const loggp_point *p, unsigned n)
{
	return (p->prttn - p->prtt1) / (double)(n - 1);
}

double loggp_os(const loggp_point *p, unsigned n)
{
	return (p->prttd - p->prtt1) / (double)(n - 1) - p->d;
}

double loggp_delay(double prtt1, double prtt2, double gap, int *fallback)
{
	*fallback = gap > prtt1;
	return *fallback ? prtt2 : prtt1;
}

double loggp_bytes(double rate, uint64_t size)
{
	if (size <= 1)
		return 0;
	return floor((double)(size - 1) * rate + 0.5);
}

void loggp_lsq_line(const double *x, const double *y, size_t k, size_t l,
                    double *slope, double *icpt)
{
	double m = (double)(l - k + 1), sx = 0, sy = 0;
	for (size_t i = k; i <= l; i++) {
		sx += x[i];
		sy += y[i];
	}
	double mx = sx / m, my = sy / m, sxx = 0, sxy = 0;
	/* Centred sums: no cancellation with large sizes. */
	for (size_t i = k; i <= l; i++) {
		sxx += (x[i] - mx) * (x[i] - mx);
		sxy += (x[i] - mx) * (y[i] - my);
	}
	*slope = sxx > 0 ? sxy / sxx : 0;
	*icpt = my - *slope * mx;
}

double loggp_lsq_dev(const double *x, const double *y, size_t k, size_t l)
{
	if (l < k + 2)
		return -1;
	double G, g, sum = 0;
	loggp_lsq_line(x, y, k, l, &G, &g);
	for (size_t i = k; i <= l; i++) {
		double r = G * x[i] + g - y[i];
		sum += r * r;
	}
	return sum / (double)(l > k + 2 ? l - k - 2 : 1);
}

/* Whether the published test, with the floor, declares a change of y
 * after point c of the range starting at last (c + lookahead < np). */
static int change_after(const double *x, const double *y, size_t last, size_t c,
                        const loggp_detect *opt)
{
	double base = loggp_lsq_dev(x, y, last, c), mean = 0, slope, icpt;
	for (size_t i = last; i <= c; i++)
		mean += y[i];
	mean = fabs(mean) / (double)(c - last + 1);
	double f = opt->floor_rel * mean > opt->floor_ns ? opt->floor_rel * mean
	                                                 : opt->floor_ns;
	if (base < opt->floor_ns * opt->floor_ns)
		base = opt->floor_ns * opt->floor_ns;
	loggp_lsq_line(x, y, last, c, &slope, &icpt);
	/* Each next point must also lie more than f off the line of last..c,
	 * all on the same side: a change of level or slope moves them all one
	 * way, noise does not. */
	int side = 0;
	for (unsigned j = 1; j <= opt->lookahead; j++) {
		double r = y[c + j] - (icpt + slope * x[c + j]);
		int s = r > 0 ? 1 : -1;
		if (loggp_lsq_dev(x, y, last, c + j) <= opt->pfact * base || fabs(r) <= f ||
		    (side != 0 && s != side))
			return 0;
		side = s;
	}
	return 1;
}

/* A change found after c may be a larger one seen early: the look-ahead
 * points c+1..c+x all lie off the line because of a step further on.
 * Returns the point in c..c+x-1 after which y steps (net of the slope of
 * last..c) more than LOGGP_STEP_FACTOR times as far as after any other
 * of them, or c. */
static size_t dominant_step(const double *x, const double *y, size_t last, size_t c,
                            unsigned lookahead)
{
	double slope, icpt, step[64];
	size_t n = lookahead < 64 ? lookahead : 64, m = 0;
	loggp_lsq_line(x, y, last, c, &slope, &icpt);
	for (size_t j = 0; j < n; j++) {
		step[j] = fabs(y[c + j + 1] - y[c + j] - slope * (x[c + j + 1] - x[c + j]));
		if (step[j] > step[m])
			m = j;
	}
	for (size_t j = 0; j < n; j++)
		if (j != m && step[m] <= LOGGP_STEP_FACTOR * step[j])
			return c;
	return c + m;
}

size_t loggp_detect_ranges(const double *x, const double *const *y, size_t ny,
                           size_t np, const loggp_detect *opt, size_t *starts,
                           size_t max)
{
	size_t nr = 0;
	if (np == 0 || max == 0)
		return 0;
	starts[nr++] = 0;
	if (!opt->enabled)
		return nr;
	size_t last = 0;
	for (size_t c = last + 2; c + opt->lookahead < np && nr < max; c++) {
		size_t k = 0;
		while (k < ny && !change_after(x, y[k], last, c, opt))
			k++;
		if (k < ny) {
			c = dominant_step(x, y[k], last, c, opt->lookahead);
			last = c + 1;
			starts[nr++] = last;
			c = last + 1; /* the loop's c++ makes it last + 2 */
		}
	}
	return nr;
}

/* Root mean square residual of y[k..l] about the line icpt + slope*x. */
static double rms(const double *x, const double *y, size_t k, size_t l,
                  double slope, double icpt)
{
	double s = 0;
	for (size_t i = k; i <= l; i++) {
		double r = icpt + slope * x[i] - y[i];
		s += r * r;
	}
	return sqrt(s / (double)(l - k + 1));
}

/* The L that makes the largest relative error max_i |L - r_i| / h_i over
 * i = k..l smallest (an h_i <= 0 counts as 1): where the rising envelope
 * max_i (L - r_i)/h_i meets the falling one max_i (r_i - L)/h_i. */
static double minimax_offset(const double *r, const double *h, size_t k, size_t l)
{
	double lo = r[k], hi = r[k];
	for (size_t i = k; i <= l; i++) {
		lo = r[i] < lo ? r[i] : lo;
		hi = r[i] > hi ? r[i] : hi;
	}
	for (int it = 0; it < 100 && hi - lo > 1e-9; it++) {
		double m = (lo + hi) / 2, up = -HUGE_VAL, down = -HUGE_VAL;
		for (size_t i = k; i <= l; i++) {
			double e = (m - r[i]) / (h[i] > 0 ? h[i] : 1);
			up = e > up ? e : up;
			down = -e > down ? -e : down;
		}
		if (up > down)
			hi = m;
		else
			lo = m;
	}
	return (lo + hi) / 2;
}

int loggp_fit(const loggp_point *pts, size_t np, unsigned n,
              const loggp_detect *opt, loggp_result *res, char *err, size_t errlen)
{
	if (np == 0) {
		snprintf(err, errlen, "no message sizes");
		return -1;
	}
	if (n < 2) {
		snprintf(err, errlen, "n must be at least 2 (is %u)", n);
		return -1;
	}
	for (size_t i = 1; i < np; i++)
		if (pts[i].size <= pts[i - 1].size) {
			snprintf(err, errlen, "sizes must increase: %llu after %llu",
			         (unsigned long long)pts[i].size,
			         (unsigned long long)pts[i - 1].size);
			return -1;
		}
	double *x = malloc(4 * np * sizeof *x);
	size_t *starts = malloc(LOGGP_PARAMS_MAX_RANGES * sizeof *starts);
	if (!x || !starts) {
		free(x);
		free(starts);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	double *gap = x + np, *os = x + 2 * np, *half = x + 3 * np;
	for (size_t i = 0; i < np; i++) {
		x[i] = pts[i].size ? (double)(pts[i].size - 1) : 0;
		gap[i] = loggp_gap(&pts[i], n);
		os[i] = loggp_os(&pts[i], n);
		half[i] = pts[i].prtt1 / 2;
	}
	res->n = n;
	res->L_reported = pts[0].prtt1 / 2;
	/* Protocol changes show in the gap or in the ping-pong (a change of
	 * the receiver's cost shows only there): a range ends where either
	 * series changes. */
	const double *series[2] = { gap, half };
	res->nranges = loggp_detect_ranges(x, series, 2, np, opt, starts, LOGGP_PARAMS_MAX_RANGES);
	for (size_t r = 0; r < res->nranges; r++) {
		loggp_fitrange *fr = &res->range[r];
		fr->first = starts[r];
		fr->last = r + 1 < res->nranges ? starts[r + 1] - 1 : np - 1;
		fr->clamped = 0;
		loggp_lsq_line(x, gap, fr->first, fr->last, &fr->G, &fr->g);
		loggp_lsq_line(x, os, fr->first, fr->last, &fr->O, &fr->o);
		fr->gap_rms = rms(x, gap, fr->first, fr->last, fr->G, fr->g);
		fr->os_rms = rms(x, os, fr->first, fr->last, fr->O, fr->o);
		double *v[4] = { &fr->g, &fr->G, &fr->o, &fr->O };
		static const unsigned bit[4] = { LOGGP_CLAMP_g, LOGGP_CLAMP_G, LOGGP_CLAMP_o,
		                                 LOGGP_CLAMP_O };
		for (int k = 0; k < 4; k++)
			if (*v[k] < 0) {
				*v[k] = 0;
				fr->clamped |= bit[k];
			}
		/* The simulator charges a one-way message L + 2o + max(sO, sG):
		 * where a ping-pong grows faster with the size than max(O, G)
		 * (the receiver copies too), O takes the ping-pong's slope;
		 * where it grows slower than O (the per-byte send overhead of
		 * a short range is noisy), O comes down to that slope, or to
		 * G. */
		double slope, icpt, top = fr->O > fr->G ? fr->O : fr->G;
		loggp_lsq_line(x, half, fr->first, fr->last, &slope, &icpt);
		double low = slope > fr->G ? slope : fr->G;
		fr->O_send = fr->O;
		if (slope > LOGGP_RAISE_FACTOR * top) {
			fr->O = slope;
			fr->clamped |= LOGGP_RAISED_O;
		} else if (fr->O > LOGGP_RAISE_FACTOR * low) {
			fr->O = low;
			fr->clamped |= LOGGP_LOWERED_O;
		}
		for (size_t i = fr->first; i <= fr->last; i++) {
			double sO = loggp_bytes(fr->O, pts[i].size);
			double sG = loggp_bytes(fr->G, pts[i].size);
			os[i] = half[i] - 2 * fr->o - (sO > sG ? sO : sG);
		}
		fr->o_send = fr->o;
		fr->L = minimax_offset(os, half, fr->first, fr->last);
		if (fr->L < 0) {
			/* The receiver costs less than the sender's o: the
			 * simulator's one o for both ends becomes the mean of the
			 * two, which keeps PRTT(1,0,s)/2 = 2o + max(sO,sG) with L = 0
			 * (docs/loggp.md, "Model latency"). */
			fr->o += fr->L / 2;
			fr->L = 0;
			fr->clamped |= LOGGP_CLAMP_L;
			if (fr->o < 0) {
				fr->o = 0;
				fr->clamped |= LOGGP_CLAMP_o;
			}
		}
	}
	free(x);
	free(starts);
	return 0;
}

void loggp_print_table(FILE *f, const loggp_point *pts, size_t np,
                       const loggp_result *res)
{
	fprintf(f, "%10s %5s %11s %9s %11s %9s %11s %11s %11s\n", "size", "range",
	        "PRTT(1,0,s)", "spread", "PRTT(n,0,s)", "spread", "gap/msg", "d", "o_s");
	size_t r = 0;
	for (size_t i = 0; i < np; i++) {
		while (r + 1 < res->nranges && i > res->range[r].last)
			r++;
		fprintf(f, "%10llu %5zu %11.1f %9.1f %11.1f %9.1f %11.1f %11.1f %11.1f\n",
		        (unsigned long long)pts[i].size, r, pts[i].prtt1, pts[i].spread1,
		        pts[i].prttn, pts[i].spreadn, loggp_gap(&pts[i], res->n), pts[i].d,
		        loggp_os(&pts[i], res->n));
	}
	fprintf(f, "\nn = %u; reported latency L = PRTT(1,0,%llu)/2 = %.1f ns\n", res->n,
	        (unsigned long long)pts[0].size, res->L_reported);
	fprintf(f, "%5s %10s %10s %9s %9s %9s %10s %10s %9s %9s\n", "range", "first",
	        "last", "L", "o", "g", "G", "O", "gap rms", "o_s rms");
	for (r = 0; r < res->nranges; r++) {
		const loggp_fitrange *fr = &res->range[r];
		fprintf(f, "%5zu %10llu %10llu %9.1f %9.1f %9.1f %10.6f %10.6f %9.1f %9.1f%s\n",
		        r, (unsigned long long)pts[fr->first].size,
		        (unsigned long long)pts[fr->last].size, fr->L, fr->o, fr->g,
		        fr->G, fr->O, fr->gap_rms, fr->os_rms,
		        fr->clamped ? "  (*)" : "");
	}
	fprintf(f, "(times in ns, G and O in ns/byte; per-byte terms count s-1 bytes;\n"
	        " L is the model latency: PRTT(1,0,s)/2 - 2o - max(sO,sG), fitted;\n"
	        " (*): adjusted for the simulator, see the warnings: set to 0 where\n"
	        " negative; o lowered where L came out negative; O moved to the\n"
	        " ping-pong's slope)\n");
}

void loggp_fit_params(const loggp_result *res, const loggp_point *pts, uint64_t S,
                      loggp_params *out)
{
	memset(out, 0, sizeof *out);
	out->S = S;
	out->nranges = res->nranges;
	for (size_t r = 0; r < res->nranges; r++) {
		const loggp_fitrange *fr = &res->range[r];
		uint64_t first = r == 0 ? 0 : out->range[r - 1].last + 1;
		uint64_t last = r + 1 == res->nranges ? LOGGP_SIZE_INF : pts[fr->last].size;
		loggp_range_set(&out->range[r], first, last, fr->L, fr->o, fr->g, fr->G, fr->O);
	}
}
