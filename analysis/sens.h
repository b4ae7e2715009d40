/* sens.h: what a critical path tells (docs/sensitivity.md): T as a sum of
 * parameters, the derivatives of T, the tolerance of T to a larger L or G
 * found exactly with a few re-simulations, and their text, JSON and CSV. */
#ifndef SENS_H
#define SENS_H

#include "goal.h"
#include "num.h"
#include "params.h"
#include "sim.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The parameters a tolerance is searched for: X(enum suffix, name,
 * searched in steps of at most 1/unit of the parameter's unit (sens_tol),
 * cap of the change in the parameter's unit, what the output calls it). */
#define SENS_PARAMS(X) \
	X(L, "L", 1, 1ull << 40, "latency") \
	X(G, "G", 1000, 1000000ull, "bandwidth")

typedef enum sens_param {
#define SENS_X(e, n, unit, cap, word) SENS_##e,
	SENS_PARAMS(SENS_X)
#undef SENS_X
	SENS_NPARAMS
} sens_param;

/* The tolerance for one percentage x: the largest change d (in steps of
 * 1/unit of the parameter, added in every size range) with T(d) <= target
 * = floor(T (1 + x/100)), where the simulations at d and d + 1 agree
 * (T(d + 1) > target); or unbounded when T stays within target up to the
 * cap.  A step is 1 ns for L (L is whole ns); for G it is 1/1000 ns per
 * byte, or finer (down to 10^-9) until it is at most 0.1% of the smallest
 * G above 0. */
typedef struct sens_tol {
	num_dec pct;
	uint64_t target;
	uint64_t delta;
	uint64_t unit;        /* steps per ns (L) or per ns/byte (G) */
	int unbounded;
} sens_tol;

/* Simulate s under ps (perturbation pt, may be NULL) keeping the critical
 * path: *res and *path (free with sim_path_free).  Returns 0 (a complete
 * run), or -1 with a message in err (failed or incomplete run). */
int sens_run(const goal_sched *s, const sim_pset *ps, const sim_perturb *pt, sim_result *res,
             sim_path *path, char *err, size_t errlen);

/* The tolerances of parameter k for tol[0..n) (pct set, increasing) from
 * the run of s under ps that gave path p.  *runs: how many simulations the
 * search took.  Returns 0, or -1 with a message in err. */
int sens_tolerance(const goal_sched *s, const sim_pset *ps, const sim_perturb *pt,
                   sens_param k, const sim_path *p, sens_tol *tol, size_t n, unsigned *runs,
                   char *err, size_t errlen);

/* Parse "1,2,5" (positive decimals, at most 3 fraction digits, below
 * 10^6, increasing after sorting, no repeats) into tol[].pct; *n the count
 * (at most max).  Returns 0, or -1 with the reason in err. */
int sens_pct_parse(const char *text, sens_tol *tol, size_t max, size_t *n, char *err,
                   size_t errlen);

/* Text: "Critical path: N links, T = 10*L + 20*o + 0*g + 0*G + 0*O + 0 calc"
 * (several size ranges: one parenthesised sum per range). */
void sens_print_path(FILE *f, const sim_path *p, const sim_pset *ps);

/* Text: "dT/dL = 10" ... one line per parameter (per range when several);
 * with slow ranks dT/do and dT/dO may be decimals ("dT/do = 4.5"). */
void sens_print_derivs(FILE *f, const sim_path *p, const sim_pset *ps);

/* A derivative of sim_path.d (in 10^-9) as its shortest decimal: "10",
 * "4.5". */
void sens_deriv_text(sim_u128 v, char *buf, size_t n);

/* Text: "latency tolerance 1%: L <= 2555 (+2.2%)" per tol[i]. */
void sens_print_tol(FILE *f, sens_param k, const sim_pset *ps, const sens_tol *tol, size_t n);

/* The JSON member "critical_path": {"links", "calc_ns", "noise_ns",
 * "ranges": [{"L", "o", "g", "G_bytes", "O_bytes"}, ...]} of j's open
 * object. */
void sens_json_path(uj *j, const sim_path *p);
/* Text: "Tolerance search: 2 simulations for L, 1 for G". */
void sens_print_runs(FILE *f, const unsigned runs[SENS_NPARAMS]);

/* The JSON member "tolerance": {"L": [...], "G": [...], "runs": {"L": N,
 * "G": N}} of j's open object; tol[k] with ntol[k] entries per
 * parameter. */
void sens_json_tol(uj *j, const sens_tol *const tol[SENS_NPARAMS],
                   const size_t ntol[SENS_NPARAMS], const unsigned runs[SENS_NPARAMS]);

#endif
