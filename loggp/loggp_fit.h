/* loggp_fit.h: the LogGP estimator: PRTT tables to o, O, g, G, L per protocol range. */
#ifndef LOGGP_FIT_H
#define LOGGP_FIT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "loggp_params.h"

/* The measured (median) parametrised round-trip times of one message size,
 * in ns.  prtt1 = PRTT(1,0,s), prtt2 = PRTT(2,0,s), prttn = PRTT(n,0,s),
 * prttd = PRTT(n,d,s) measured with the delay d.  The spreads are
 * informational (interquartile ranges, ns; 0 for simulated times). */
typedef struct loggp_point {
	uint64_t size;
	double d;
	double prtt1, prtt2, prttn, prttd;
	double spread1, spreadn, spreadd;
} loggp_point;

/* Options of the protocol-change detection. */
typedef struct loggp_detect {
	double pfact;     /* a change needs lsq to grow by more than this factor (2.0) */
	unsigned lookahead; /* ... at each of the next x points (3) */
	double floor_ns;  /* deviations below this many ns count as this much (1.0) */
	double floor_rel; /* ... and below this fraction of the mean value (0.05) */
	int enabled;      /* 0: one range over all sizes */
} loggp_detect;

void loggp_detect_default(loggp_detect *opt);

/* One protocol range: points first..last (indices into the table) and the
 * parameters fitted over them.  Per-byte terms use (s-1) bytes, as in the
 * simulator: gap(s) = g + (s-1)G, o_s(s) = o + (s-1)O. */
typedef struct loggp_fitrange {
	size_t first, last;
	double g, G, o, O;
	double L;          /* model latency: fitted to PRTT(1,0,s)/2 - 2o - max(sO,sG)
	                      with the smallest largest relative error; where
	                      that is negative, L = 0 and o is lowered to make it
	                      0 (the mean of send and receive overhead) */
	double o_send;     /* o as fitted from the send overheads o_s(s) */
	double O_send;     /* O as fitted from o_s(s); where the ping-pong
	                      PRTT(1,0,s)/2 grows faster than max(O, G), O is
	                      its slope (LOGGP_RAISED_O); where it grows slower
	                      than O, O is max(its slope, G) (LOGGP_LOWERED_O) */
	double gap_rms;    /* root mean square residual of the gap fit, ns */
	double os_rms;     /* same for the overhead fit */
	unsigned clamped;  /* negative fits set to 0 (LOGGP_CLAMP_L: o lowered
	                      instead): bits LOGGP_CLAMP_* */
} loggp_fitrange;

enum { LOGGP_CLAMP_L = 1, LOGGP_CLAMP_o = 2, LOGGP_CLAMP_g = 4, LOGGP_CLAMP_G = 8,
       LOGGP_CLAMP_O = 16, LOGGP_RAISED_O = 32, LOGGP_LOWERED_O = 64 };

/* O is raised to the ping-pong's slope only when that exceeds max(O, G) by
 * this factor, and lowered only when O exceeds max(slope, G) by it: below
 * it, noise and rounding. */
#define LOGGP_RAISE_FACTOR 1.05

/* A change found by the test moves to a later point of the look-ahead
 * where the values step this many times further than at any other. */
#define LOGGP_STEP_FACTOR 3.0

typedef struct loggp_result {
	unsigned n;                 /* messages per PRTT(n, ., s) */
	double L_reported;          /* PRTT(1,0,1)/2, or of the smallest size */
	size_t nranges;
	loggp_fitrange range[LOGGP_PARAMS_MAX_RANGES];
} loggp_result;

/* The per-size values the fits use: gap = (PRTT(n,0,s) - PRTT(1,0,s))/(n-1)
 * and o_s = (PRTT(n,d,s) - PRTT(1,0,s))/(n-1) - d.  n >= 2. */
double loggp_gap(const loggp_point *p, unsigned n);
double loggp_os(const loggp_point *p, unsigned n);

/* The delay to use for PRTT(n,d,s): PRTT(1,0,s), or PRTT(2,0,s) when the
 * gap g + (s-1)G (as measured by gap) exceeds it; *fallback says which. */
double loggp_delay(double prtt1, double prtt2, double gap, int *fallback);

/* Least-squares line y = icpt + slope*x through x[k..l], y[k..l] (l >= k).
 * With one point, or all x equal, slope is 0 and icpt the mean. */
void loggp_lsq_line(const double *x, const double *y, size_t k, size_t l,
                    double *slope, double *icpt);

/* Mean least-squares deviation of y[k..l] from its own least-squares line:
 * sum_{i=k..l} (slope*x_i + icpt - y_i)^2 / (l-k-2), divided by 1 for three
 * points.  Needs l >= k+2 (at least three points); returns -1 otherwise. */
double loggp_lsq_dev(const double *x, const double *y, size_t k, size_t l);

/* Split points 0..np-1 into protocol ranges by the series y[0..ny)
 * (each of np values at x).  Starting with last = 0, a change is declared
 * after point c (c >= last+2) when, in one of the series, for every
 * j = 1..lookahead, lsq(last, c+j) > pfact * max(lsq(last, c), floor_ns^2)
 * and point c+j lies more than f off the least-squares line of
 * y[last..c], all of them on the same side; f = max(floor_ns, floor_rel *
 * mean of y[last..c]): deviations within the measurement noise do not
 * count.  The change then moves to the point c' of c..c+lookahead-1 (at
 * most 64 of them) after which that series steps, net of the slope of
 * last..c, more than LOGGP_STEP_FACTOR times as far as after any other, if
 * there is one (a large step seen early); the next range starts at c'+1.
 * Writes the first index of each range to starts (at most max entries) and
 * returns their number (>= 1 when np >= 1). */
size_t loggp_detect_ranges(const double *x, const double *const *y, size_t ny,
                           size_t np, const loggp_detect *opt, size_t *starts,
                           size_t max);

/* Fit everything: sizes must be strictly increasing, n >= 2, np >= 1.
 * Returns 0, or -1 with a message in err (errlen bytes). */
int loggp_fit(const loggp_point *pts, size_t np, unsigned n,
              const loggp_detect *opt, loggp_result *res, char *err, size_t errlen);

/* The per-byte term max(s-1,0)*rate rounded half up, as the simulator
 * charges it. */
double loggp_bytes(double rate, uint64_t size);

/* The round trips of s bytes that range r's parameters predict, the fits
 * of loggp_fit turned round: PRTT(1,0,s) = 2(L + 2o + max(sO, sG)),
 * PRTT(n,0,s) = PRTT(1,0,s) + (n-1)(g + sG) and PRTT(n,d,s) = PRTT(1,0,s)
 * + (n-1)(d + o + sO).  The point's size and d are read; the three times
 * are written. */
void loggp_predict(const loggp_range *r, unsigned n, loggp_point *p);

/* The parameter file of a fit: range r covers sizes from the first size of
 * its points (0 for the first range) up to its last measured size (inf for
 * the last range); S is the rendezvous threshold to write. */
void loggp_fit_params(const loggp_result *res, const loggp_point *pts, uint64_t S,
                      loggp_params *out);

/* Print the per-size table and the per-range parameters for people. */
void loggp_print_table(FILE *f, const loggp_point *pts, size_t np,
                       const loggp_result *res);

/* ---- Strided messages (log_3 P) ---------------------------------------- */

/* The round trips of one size at one stride (loggp-measure --stride), in
 * ns: PRTT(1,0,s) and PRTT(n,d,s) of contiguous messages (c1, cd) and of
 * strided ones (s1, sd: blocks of 8 bytes, stride bytes apart), the four
 * with the same delay d. */
typedef struct loggp_spoint {
	uint64_t stride, size;
	double d;
	double c1, cd, s1, sd;
} loggp_spoint;

/* The middleware costs of one stride: om(s) = o_mw + (s-1)O_mw at each
 * end, lm(s) = l_mw + (s-1)L_mw in flight (docs/semantics.md section 10),
 * fitted over points first..last of a table of loggp_spoint. */
typedef struct loggp_mwfit {
	uint64_t stride;
	size_t first, last;
	double o_mw, O_mw, l_mw, L_mw;
	double om_rms, p_rms;  /* rms residuals of the two fits, ns */
	unsigned clamped;      /* LOGGP_MW_* */
} loggp_mwfit;

enum { LOGGP_MW_NEG_P = 1,   /* the strided ping-pong was faster: no cost */
       LOGGP_MW_NEG_O = 2,   /* the send overhead did not grow: om 0, all in lm */
       LOGGP_MW_SPLIT = 4 }; /* lm came out negative: om lowered to half the
                                ping-pong's extra time, lm 0 */

/* Per size: om(s) = ((sd - s1) - (cd - c1)) / (n-1), the strided send
 * overhead less the contiguous one; p(s) = (s1 - c1) / 2 = 2 om(s) + lm(s),
 * what the stride adds to one message of the ping-pong. */
double loggp_mw_om(const loggp_spoint *p, unsigned n);
double loggp_mw_p(const loggp_spoint *p);

/* Fit every stride of pts[0..np) (grouped by stride, strides increasing,
 * sizes increasing within one) into out (at most LOGGP_PARAMS_MAX_STRIDES):
 * the least-squares lines of om(s) and p(s) over s-1, each point weighted
 * by 1 / (strided PRTT(1,0,s))^2 (the relative error of the strided round
 * trip counts, every size alike); lm = p - 2 om,
 * intercept and slope apart.  Where one comes out negative it is adjusted
 * (LOGGP_MW_*) so that 2 om + lm stays the fitted p.  Returns the number of
 * strides, or -1 with a message in err. */
int loggp_fit_strides(const loggp_spoint *pts, size_t np, unsigned n, loggp_mwfit *out,
                      char *err, size_t errlen);

/* Print the per-size strided table and the fitted costs for people. */
void loggp_print_strides(FILE *f, const loggp_spoint *pts, const loggp_mwfit *fits,
                         size_t nfits, unsigned n);

#endif
