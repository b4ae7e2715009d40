/* loggopsim_int.h: what the files of the loggopsim command share, private
 * to them (the sweeps' files have sweep.h): the command line's options by
 * group (struct cli), the two questions both files ask of them, and the few
 * functions one file lends the other.  The files: loggopsim.c, the options,
 * the run and the sweeps; report.c, the outputs of a finished run (the
 * critical path, the CSV files, the tolerance searches and the summary,
 * text or JSON) and the descriptions of the perturbation and the network
 * that the sweeps' outputs use too. */
#ifndef LOGGOPSIM_INT_H
#define LOGGOPSIM_INT_H

#include "goal.h"
#include "out.h"
#include "params.h"
#include "sens.h"
#include "sim.h"
#include "tl_trace_json.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The options that perturb a run (noise and slow ranks) and their
 * description for the outputs. */
typedef struct perturb_opts {
	const char *trace, *spec, *rule;
	int cosched, has_offset, has_seed;
	uint64_t offset, seed;
	sim_slow *slow;
	size_t nslow, capslow;
	const char *slow_text[64];   /* as given, for the outputs */
	size_t nslow_text;
	sim_noise *noise;
	sim_perturb p;
} perturb_opts;

/* The network options, the placement of the ranks and, after a run, its
 * most loaded links. */
#define NET_TOP 5
typedef struct net_opts {
	const char *spec, *mapping, *file, *type;
	uint32_t ppn;         /* --ranks-per-node: ranks a host (0: by mapping) */
	topo *t;
	uint32_t *host;
	sim_net net;
	uint64_t flows, largest;
	uint32_t peak;        /* most flows on one link at once */
	size_t ntop;
	struct net_top {
		char name[64];
		uint64_t bytes;       /* flow_round of the link's bytes */
		uint64_t busy;
		uint32_t peak;
	} top[NET_TOP];
} net_opts;

/* The sweep options. */
typedef struct sweep_opts {
	const char *spec, *rel, *svg, *title, *csv;
	unsigned jobs;
	uint64_t part, nparts;
	int nowall, quiet, sensitivity;
} sweep_opts;

/* --trace-json FILE (docs/perfetto.md): the timeline goes through a pipe
 * to a converter thread (timeline/tl_trace_json.h), which writes FILE and,
 * with -V, copies the text to the -V file. */
typedef struct trace_json {
	const char *path, *window, *ranks;
	tl_json_opts o;
	uint64_t *rg;
	util_out out;
	tl_json_pipe *pipe;
	goal_labels *labels;   /* the slices' names (the schedule's labels) */
} trace_json;

/* Everything the command line sets, by group: the schedule and the
 * outputs, the parameters, the analyses, sweeps, perturbations, the trace
 * JSON and the network. */
typedef struct cli {
	const char *file, *viz, *csv, *cpath;
	int batch, json, quiet, force;
	const char *pfile;
	sim_pchange flags;
	sim_pset pset;
	const char *intra_file;      /* --intra-params: within nodes of no.ppn ranks */
	sim_pset intra;
	int sens, qstat, account, lookahead, jobs_alone;
	const char *place;           /* --place: the jobs placed anew (NULL: as merged) */
	sens_tol tol[SENS_NPARAMS][16];
	size_t ntol;
	sweep_opts sw;
	perturb_opts po;
	trace_json tj;
	net_opts no;
} cli;

/* Whether any option perturbs the run. */
static inline int perturbed(const perturb_opts *o)
{
	return o->noise || o->nslow;
}

/* Whether the run keeps what its critical path needs. */
static inline int wants_path(const cli *cl)
{
	return cl->cpath || cl->sens || cl->ntol || cl->tj.path;
}

/* ---- loggopsim.c lends report.c ---------------------------------------- */

/* Wait for the trace JSON's converter; ok: append the critical path (n
 * links) and close the JSON, else give it up.  Returns 0 or 1 (after the
 * message). */
int trace_json_end(trace_json *t, const tl_link *path, size_t n, int ok);

/* ---- report.c lends loggopsim.c ---------------------------------------- */

/* The perturbation's noise source and how it is read ("trace FILE, offsets
 * own, rule exact"), then, with slow, the slow ranks ("; slow 1:1.5"), into
 * buf (n bytes): for the text output and the sweep CSV. */
void describe(const perturb_opts *o, int slow, char *buf, size_t n);

/* The network for reports into buf (len bytes): its canonical spec, and
 * the rule when simple. */
void net_spec(const net_opts *n, char *buf, size_t len);

/* Write to path ("-": stdout) safely (util/out.h) with fn; returns 0, or
 * 1 after printing the error. */
int write_out(const char *path, int (*fn)(FILE *, void *), void *ctx);

/* The outputs of run m of s (its result res, wall seconds): the
 * timeline's end (tlo, and the trace JSON), the critical path (into *path,
 * its labels into *labels, both for the caller to free), the CSV files,
 * the tolerance searches and the summary.  Destroys m.  Returns the exit
 * status. */
int finish_run(cli *cl, const goal_sched *s, sim *m, const sim_result *res, double wall,
               util_out *tlo, sim_path *path, char (**labels)[256]);

#endif
