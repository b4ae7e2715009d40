/* loggp_report.h: what loggp-measure and loggp-fit share: option values, the fit, the report and the parameter file. */
#ifndef LOGGP_REPORT_H
#define LOGGP_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "loggp_fit.h"

/* Command-line values: 0, or -1 if arg is not a number in [min, max]. */
int loggp_arg_u64(const char *arg, uint64_t min, uint64_t max, uint64_t *v);
/* The same for a size in bytes, with units ("64Ki", util/num.h). */
int loggp_arg_size(const char *arg, uint64_t min, uint64_t max, uint64_t *v);
int loggp_arg_double(const char *arg, double min, double max, double *v);

/* The detection options as getopt_long entries use them: returns 1 if
 * opt was one of them (and sets *det), -1 if its argument is bad (message
 * in err), 0 if opt is something else. */
enum { LOGGP_OPT_PFACT = 1000, LOGGP_OPT_LOOKAHEAD, LOGGP_OPT_FLOOR, LOGGP_OPT_RELFLOOR,
       LOGGP_OPT_NODETECT };
int loggp_detect_option(int opt, const char *arg, loggp_detect *det, char *err,
                        size_t errlen);

/* The help text of the detection options and -S. */
extern const char loggp_detect_help[];

/* Fit pts (and the strided points spts, nsp of them, may be 0: their
 * middleware costs per stride), print the tables to out, write the
 * parameter file to params_path (unless NULL) with comment, copy its
 * parameters to *fitted (unless NULL), and print warnings about clamped
 * fits to warn.  Returns 0, or -1 with "PATH: error: ..." (the parameter
 * file) or "error: ..." (the fit) in err. */
int loggp_report(FILE *out, FILE *warn, const loggp_point *pts, size_t np, unsigned n,
                 const loggp_spoint *spts, size_t nsp, const loggp_detect *det,
                 uint64_t S, const char *params_path, const char *comment,
                 loggp_params *fitted, char *err, size_t errlen);

/* Whether the parameters *p (from the file named name) still hold for the
 * points pts measured now: per size, each round trip measured, predicted
 * (loggp_predict with the size's range) and their difference; per range
 * of *p, the largest difference of PRTT(1,0,s) and PRTT(n,0,s), the round
 * trip and the gap, which a simulation's times follow (PRTT(n,d,s) is
 * shown, not judged: where a fit lowered o to keep L from going negative,
 * it cannot match).  Prints to out; returns how many sizes differ by more
 * than tol (a fraction of the measured time) in either. */
size_t loggp_check(FILE *out, const char *name, const loggp_params *p, const loggp_point *pts,
                   size_t np, unsigned n, double tol);

/* Measurement rep (2, 3, ..) b of the sizes of the first, a, against it:
 * per range of the parameters *p fitted to a, the largest difference of
 * PRTT(1,0,s) and PRTT(n,0,s), to out, and a warning to warn for each
 * range where it is above tol (a fraction). */
void loggp_repeat_report(FILE *out, FILE *warn, const loggp_params *p, const loggp_point *a,
                         const loggp_point *b, size_t np, unsigned rep, double tol);

#endif
