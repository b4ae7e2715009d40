/* noise.h: CPU noise and stragglers (docs/semantics.md, section 9): a
 * periodic table of detours that take a rank's CPU away, read from a noise
 * trace or synthesized, each rank reading it from its own offset; and
 * per-rank factors that stretch CPU activities.  A noise table is
 * immutable once made: one may serve any number of simulations at once. */
#ifndef SIM_NOISE_H
#define SIM_NOISE_H

#include "num.h"

#include <stddef.h>
#include <stdint.h>

typedef struct sim_noise sim_noise;

/* How detours lengthen a CPU activity of d ns starting at t. */
typedef enum sim_noise_rule {
	/* Preemptive: it ends at the first t' where the CPU time in [t, t')
	 * outside detours is d, so detours inside the stretched activity count. */
	SIM_NOISE_EXACT,
	/* The published LogGOPSim's: t + d, plus the rest of a detour under way
	 * at t, plus the detours that start inside (t, t + d). */
	SIM_NOISE_PUBLISHED
} sim_noise_rule;

/* Warnings while reading a trace: "FILE:LINE:COL: warning: ..." (or
 * "FILE: warning: ..."); ctx is passed through. */
typedef void sim_noise_warn(void *ctx, const char *msg);

/* Read a noise trace (docs/noise.md): one detour per line, "START DURATION"
 * in ns separated by blanks (a tab in the published format), each a
 * non-negative decimal rounded half up to whole ns; '#' starts a comment,
 * "# period: T" sets the period once (default: the end of the last
 * detour).  Overlapping detours are merged (a warning); a trace without
 * detours gives a table without detours (a warning).  Read a line at a
 * time: the memory is the table's, 24 bytes a detour.  Returns NULL with
 * "FILE:LINE:COL: error: ..." in err. */
sim_noise *sim_noise_read(const char *path, sim_noise_warn *warn, void *wctx,
                          char *err, size_t errlen);

/* The same for text[0..len) already in memory; name for the messages. */
sim_noise *sim_noise_parse(const char *name, const char *text, size_t len,
                           sim_noise_warn *warn, void *wctx, char *err, size_t errlen);

/* A synthetic table from spec (docs/noise.md):
 *   periodic:FREQ_HZ,DURATION_NS   one detour per period 10^9/FREQ ns
 *                                  (rounded half up)
 *   poisson:RATE_HZ,DURATION_NS    65536 detours whose starts are apart by
 *   poisson:RATE_HZ,exp:MEAN_NS    exponential gaps of mean 10^9/RATE ns,
 *                                  of a fixed or an exponential length
 *                                  (one fixed pseudo-random stream: the
 *                                  seed only chooses where ranks read)
 * Returns NULL with the reason in err ("--noise: ..."). */
sim_noise *sim_noise_synth(const char *spec, char *err, size_t errlen);

void sim_noise_free(sim_noise *n);

/* The table's period (ns), its detours after merging, and their total
 * length within one period. */
uint64_t sim_noise_period(const sim_noise *n);
size_t sim_noise_count(const sim_noise *n);
uint64_t sim_noise_busy(const sim_noise *n);

/* The detours' share of the period in hundredths of a percent, rounded half
 * up (250: 2.5%). */
uint64_t sim_noise_share(const sim_noise *n);

/* The end of a CPU activity of d ns starting at t on a rank that reads the
 * table from offset off (time t is position (t + off) mod period of the
 * table), under rule.  0 with *end set, -1 when it is 2^64 ns or later.
 * With d = 0 it ends at t. */
int sim_noise_end(const sim_noise *n, sim_noise_rule rule, uint64_t off, uint64_t t,
                  uint64_t d, uint64_t *end);

/* The detours that stretched an activity of d ns from t to end on a rank
 * with offset off, under rule, for the timeline: calls fn with each one's
 * start and end time, in order, at most max of them.  Exact: those that
 * overlap [t, end), clipped to it.  Published: the one under way at t
 * (from t on) and those that start in (t, t + d), whole. */
void sim_noise_each(const sim_noise *n, sim_noise_rule rule, uint64_t off, uint64_t t,
                    uint64_t d, uint64_t end, size_t max,
                    void (*fn)(void *ctx, uint64_t s, uint64_t e), void *ctx);

/* Ranks whose CPU activities take factor times as long: rank pairs lo, hi
 * (sorted, disjoint) with a factor each. */
typedef struct sim_slow {
	uint64_t lo, hi;
	num_dec factor;      /* > 0 */
} sim_slow;

/* Parse "RANKS:FACTOR" (a rank list, num.h, and a decimal above 0, at
 * most 9 fraction digits) and add its ranges to *v (n, cap: util_grow),
 * keeping it sorted.  Returns 0, or -1 with the reason in err (a bad list
 * or factor, a rank already in *v). */
int sim_slow_parse(const char *text, sim_slow **v, size_t *n, size_t *cap,
                   char *err, size_t errlen);

/* x stretched by factor f: x * f rounded half up into *out; -1 when that
 * is 2^64 or more. */
int sim_slow_apply(num_dec f, uint64_t x, uint64_t *out);

/* How ranks read the table: each from its own offset drawn from the seed,
 * all from one offset drawn from it (co-scheduled), or all from a given
 * offset. */
typedef enum sim_offsets { SIM_OFFSETS_OWN, SIM_OFFSETS_COSCHED, SIM_OFFSETS_FIXED } sim_offsets;

/* Everything that perturbs a run (sim_options.perturb). */
typedef struct sim_perturb {
	const sim_noise *noise;  /* NULL: no detours */
	sim_noise_rule rule;
	uint64_t seed;
	sim_offsets offsets;
	uint64_t offset;         /* SIM_OFFSETS_FIXED: every rank's offset (taken
	                          * modulo the period) */
	const sim_slow *slow;    /* slow[0..nslow): sorted, disjoint */
	size_t nslow;
} sim_perturb;

/* The offset of rank r under p (p->noise not NULL). */
uint64_t sim_perturb_offset(const sim_perturb *p, uint64_t r);

#endif
