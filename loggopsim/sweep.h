/* sweep.h: parameter sweeps (docs/sweep.md): sweep specifications (a file of
 * named sets or the compact form; sweep_spec.c), running the sets of one
 * schedule in threads (sweep_run.c), and the CSV, table and SVG outputs
 * (sweep_out.c). */
#ifndef SWEEP_H
#define SWEEP_H

#include "goal.h"
#include "params.h"
#include "sim.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define SWEEP_MAX_SETS 100000
#define SWEEP_NAME_MAX 128

/* One parameter set of a sweep: its name, its own base set (a parameter
 * file named in the sweep file, read once for all sets that name it and
 * owned by the sweep; NULL: the command line's), its change to the base
 * set, its own seed (has_seed; else the command line's) of the noise and
 * of a random placement, and its placement of a merged schedule's jobs
 * (goal_place's how, one of the sweep's places; NULL: the command line's). */
typedef struct sweep_set {
	char name[SWEEP_NAME_MAX];
	const sim_pset *own;
	sim_pchange change;
	int has_seed;
	uint64_t seed;
	const char *place;
} sweep_set;

/* A parameter file named in a sweep file. */
typedef struct sweep_pfile {
	char *path;
	sim_pset ps;
} sweep_pfile;

/* The outcome of one set. */
typedef enum sweep_status { SWEEP_NOT_RUN, SWEEP_OK, SWEEP_INCOMPLETE, SWEEP_FAILED } sweep_status;
typedef struct sweep_result {
	sweep_status status;
	uint64_t time, host, events;
	double wall;                /* seconds, the only nondeterministic value */
	sim_u128 dT[5];             /* with sensitivity: dT/dL, do, dg, dG, dO (in 10^-9) from
	                               the critical path (summed over size ranges) */
} sweep_result;

/* The sets of a sweep, in order.  flags: the command line's single values
 * (-L ...), applied to a set's own parameter file as to -p FILE (all
 * SIM_PX_KEEP unless the caller sets them).  perturb: the command line's
 * noise and slow ranks for every set (NULL: none), perturb_desc their
 * description for the CSV. */
typedef struct sweep {
	sweep_set *set;
	size_t n, cap;
	sim_pchange flags;
	const sim_perturb *perturb;
	const char *perturb_desc;
	const sim_net *net;    /* the command line's network (NULL: none) and
	                          its description for the CSV */
	const char *net_desc;
	int sensitivity;       /* 1: the derivatives of T (sweep_result.dT) */
	uint64_t *job_end;     /* a merged schedule: set i's end of job k at
	                          [i * njobs + k], the caller's (NULL: none) */
	const char *place;     /* the command line's placement of the jobs
	                          (NULL: as merged) and seed */
	uint64_t seed;
	sweep_pfile *pf;       /* the parameter files its sets name */
	size_t npf, cap_pf;
	char **places;         /* the placements its sets name */
	size_t nplaces, cap_places;
} sweep;

/* The placement of set i's jobs (NULL: as merged) and its seed. */
static inline const char *sweep_set_place(const sweep *sw, size_t i, uint64_t *seed)
{
	*seed = sw->set[i].has_seed ? sw->set[i].seed : sw->seed;
	return sw->set[i].place ? sw->set[i].place : sw->place;
}

/* Whether some set is placed anew: the CSV's place column. */
static inline int sweep_placing(const sweep *sw)
{
	return sw->place || sw->nplaces;
}

/* ---- The sweep language (sweep_spec.c) ---- */

/* Expand the compact form ("L=1000..64000*2 G=1,2,4 seed=1..20
 * place=packed,random":
 * docs/sweep.md) into *sw (empty before).  Returns 0, or -1 with the
 * reason in err. */
int sweep_parse_compact(const char *spec, sweep *sw, char *err, size_t errlen);

/* Read a sweep file ("NAME K=V ..." per line, K a parameter, params,
 * seed or place) into *sw (empty before):
 * at most SWEEP_MAX_SETS sets, in time linear in the file (names are
 * hashed; a parameter file is read once, whatever number of sets name it).
 * Returns 0, or -1 with "PATH:LINE:COL: error: MESSAGE" (or "PATH: error:
 * MESSAGE") in err. */
int sweep_read_file(const char *path, sweep *sw, char *err, size_t errlen);

/* The text[0..len) of a sweep file already in memory; name for messages. */
int sweep_parse_file(const char *name, const char *text, size_t len, sweep *sw,
                     char *err, size_t errlen);

/* The parameters of set i: base (or the set's own file with sw->flags)
 * with the set's change.  Returns 0, or -1 with the reason in err (a
 * product too large). */
int sweep_set_params(const sweep *sw, size_t i, const sim_pset *base, sim_pset *out,
                     char *err, size_t errlen);

/* The index of the set named name, or -1.  O(sets). */
long sweep_find(const sweep *sw, const char *name);

/* Free the sets and parameter files of *sw, leaving it empty. */
void sweep_free(sweep *sw);

/* ---- Running (sweep_run.c) ---- */

/* Run every set i with i % nparts == part (all with nparts 1) on schedule s
 * (open, shared read-only by all threads) in jobs threads, each set in its
 * own simulation created and destroyed by the thread running it.  res has
 * sw->n entries; sets not run stay SWEEP_NOT_RUN.  Returns 0, or -1 with a
 * message in err when a thread cannot be started (a set whose simulation
 * fails is SWEEP_FAILED, its message in err if it is the first). */
int sweep_run(const goal_sched *s, const sim_pset *base, const sweep *sw,
              size_t part, size_t nparts, unsigned jobs, sweep_result *res,
              char *err, size_t errlen);

/* ---- Outputs (sweep_out.c) ---- */

/* Write the CSV (docs/sweep.md) of the sets that ran: header, then one row
 * per set in order.  base_idx: the baseline set for the relative column (-1:
 * none, left empty); wall 0 leaves the wall_s column empty.  Then, with
 * sw->perturb or a placement (sweep_placing), the column seed; with
 * sw->perturb noise; with a placement place; with sw->net network; with
 * sw->sensitivity dT_dL, dT_do, dT_dg, dT_dG, dT_dO; with sw->job_end
 * job_NAME_ns per job.  Returns 0, or -1 on a write error. */
int sweep_write_csv(FILE *f, const goal_sched *s, const sim_pset *base, const sweep *sw,
                    const sweep_result *res, long base_idx, int wall);

/* Write the table of the sets that ran (no wall time: deterministic). */
int sweep_write_table(FILE *f, const goal_sched *s, const sim_pset *base, const sweep *sw,
                      const sweep_result *res, long base_idx);

/* Write an SVG bar chart of each set's time relative to set base_idx
 * (complete runs only) of schedule s (named name) under base: the title
 * (default: the name and P) at the top, the base parameters below it.
 * Returns 0, or -1 on a write error. */
int sweep_write_svg(FILE *f, const goal_sched *s, const char *name, const sim_pset *base,
                    const sweep *sw, const sweep_result *res, long base_idx, const char *title);

#endif
