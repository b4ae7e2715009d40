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

void loggp_predict(const loggp_range *r, unsigned n, loggp_point *p)
{
	double G = (double)r->G.num / (double)r->G.den, O = (double)r->O.num / (double)r->O.den;
	double sG = loggp_bytes(G, p->size), sO = loggp_bytes(O, p->size);
	p->prtt1 = 2 * ((double)r->L + 2 * (double)r->o + (sO > sG ? sO : sG));
	p->prtt2 = 0;
	p->prttn = p->prtt1 + (n - 1) * ((double)r->g + sG);
	p->prttd = p->prtt1 + (n - 1) * (p->d + (double)r->o + sO);
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

/* ---- Strided messages (log_3 P) ---------------------------------------- */

double loggp_mw_om(const loggp_spoint *p, unsigned n)
{
	return ((p->sd - p->s1) - (p->cd - p->c1)) / (double)(n - 1);
}

double loggp_mw_p(const loggp_spoint *p)
{
	return (p->s1 - p->c1) / 2;
}

/* The least-squares line y = icpt + slope x through x[k..l], y[k..l] with
 * weights w[k..l] (one point, or all x equal: slope 0, the weighted mean). */
static void wlsq_line(const double *x, const double *y, const double *w, size_t k, size_t l,
                      double *slope, double *icpt)
{
	double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
	for (size_t i = k; i <= l; i++) {
		sw += w[i];
		sx += w[i] * x[i];
		sy += w[i] * y[i];
		sxx += w[i] * x[i] * x[i];
		sxy += w[i] * x[i] * y[i];
	}
	double det = sw * sxx - sx * sx;
	if (l == k || !(fabs(det) > 1e-12 * sw * sxx)) {
		*slope = 0;
		*icpt = sy / sw;
		return;
	}
	*slope = (sw * sxy - sx * sy) / det;
	*icpt = (sy - *slope * sx) / sw;
}

/* The rms residual of y[k..l] from the line icpt + slope x. */
static double rms_of(const double *x, const double *y, size_t k, size_t l, double slope,
                     double icpt)
{
	double s = 0;
	for (size_t i = k; i <= l; i++) {
		double e = icpt + slope * x[i] - y[i];
		s += e * e;
	}
	return sqrt(s / (double)(l - k + 1));
}

int loggp_fit_strides(const loggp_spoint *pts, size_t np, unsigned n, loggp_mwfit *out,
                      char *err, size_t errlen)
{
	double *x = malloc((np ? np : 1) * sizeof *x), *om = malloc((np ? np : 1) * sizeof *om),
	       *p = malloc((np ? np : 1) * sizeof *p), *w = malloc((np ? np : 1) * sizeof *w);
	int nf = 0;
	if (!x || !om || !p || !w) {
		snprintf(err, errlen, "out of memory");
		nf = -1;
		goto out;
	}
	if (n < 2) {
		snprintf(err, errlen, "n must be at least 2");
		nf = -1;
		goto out;
	}
	for (size_t i = 0; i < np; i++) {
		x[i] = pts[i].size ? (double)(pts[i].size - 1) : 0;
		om[i] = loggp_mw_om(&pts[i], n);
		p[i] = loggp_mw_p(&pts[i]);
		/* Relative to the strided round trip: every size counts alike. */
		w[i] = 1 / (pts[i].s1 > 1 ? pts[i].s1 * pts[i].s1 : 1);
	}
	for (size_t k = 0; k < np;) {
		size_t l = k;
		while (l + 1 < np && pts[l + 1].stride == pts[k].stride)
			l++;
		if (nf == LOGGP_PARAMS_MAX_STRIDES) {
			snprintf(err, errlen, "more than %d strides", LOGGP_PARAMS_MAX_STRIDES);
			nf = -1;
			goto out;
		}
		loggp_mwfit *f = &out[nf++];
		double ao, bo, ap, bp;
		memset(f, 0, sizeof *f);
		f->stride = pts[k].stride;
		f->first = k;
		f->last = l;
		wlsq_line(x, om, w, k, l, &bo, &ao);
		wlsq_line(x, p, w, k, l, &bp, &ap);
		f->om_rms = rms_of(x, om, k, l, bo, ao);
		f->p_rms = rms_of(x, p, k, l, bp, ap);
		if (ap < 0 || bp < 0) {
			f->clamped |= LOGGP_MW_NEG_P;
			ap = ap < 0 ? 0 : ap;
			bp = bp < 0 ? 0 : bp;
		}
		if (ao < 0 || bo < 0) {
			f->clamped |= LOGGP_MW_NEG_O;
			ao = ao < 0 ? 0 : ao;
			bo = bo < 0 ? 0 : bo;
		}
		if (ap - 2 * ao < 0) {
			f->clamped |= LOGGP_MW_SPLIT;
			ao = ap / 2;
		}
		if (bp - 2 * bo < 0) {
			f->clamped |= LOGGP_MW_SPLIT;
			bo = bp / 2;
		}
		f->o_mw = ao;
		f->O_mw = bo;
		f->l_mw = ap - 2 * ao;
		f->L_mw = bp - 2 * bo;
		k = l + 1;
	}
out:
	free(x);
	free(om);
	free(p);
	free(w);
	return nf;
}

void loggp_print_strides(FILE *f, const loggp_spoint *pts, const loggp_mwfit *fits,
                         size_t nfits, unsigned n)
{
	fprintf(f, "\n%7s %10s %11s %11s %11s %11s %9s %9s\n", "stride", "size",
	        "PRTT(1,0,s)", "strided", "PRTT(n,d,s)", "strided", "om", "lm");
	for (size_t k = 0; k < nfits; k++)
		for (size_t i = fits[k].first; i <= fits[k].last; i++) {
			double om = loggp_mw_om(&pts[i], n);
			fprintf(f, "%7llu %10llu %11.1f %11.1f %11.1f %11.1f %9.1f %9.1f\n",
			        (unsigned long long)pts[i].stride, (unsigned long long)pts[i].size,
			        pts[i].c1, pts[i].s1, pts[i].cd, pts[i].sd, om,
			        loggp_mw_p(&pts[i]) - 2 * om);
		}
	fprintf(f, "%7s %9s %10s %9s %10s %9s %9s\n", "stride", "o_mw", "O_mw", "l_mw",
	        "L_mw", "om rms", "p rms");
	for (size_t k = 0; k < nfits; k++) {
		const loggp_mwfit *m = &fits[k];
		fprintf(f, "%7llu %9.1f %10.6f %9.1f %10.6f %9.1f %9.1f%s\n",
		        (unsigned long long)m->stride, m->o_mw, m->O_mw, m->l_mw, m->L_mw,
		        m->om_rms, m->p_rms, m->clamped ? "  (*)" : "");
	}
	fprintf(f, "(om: the strided send overhead less the contiguous one; lm: what is\n"
	        " left of the strided ping-pong's extra time per message, less 2 om;\n"
	        " (*): adjusted, see the warnings)\n");
}
