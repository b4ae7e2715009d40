/* goal_copy.c: ranks copied from one schedule into a writer; jobs merged
 * into one schedule, a merged schedule's jobs placed anew, and the two
 * schedules made of one job of a merged one (goal.h, docs/jobs.md). */
#include "goal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int goal_writer_copy_rank(goal_writer *w, const goal_sched *s, uint64_t r, const uint32_t *map,
                          uint32_t dcomm, char *err, size_t errlen)
{
	uint32_t n = goal_rank_nops(s, r);
	const goal_op *ops = goal_rank_ops(s, r);
	const goal_edge *e = goal_rank_edges(s, r);
	const char *lab = goal_rank_labels(s, r);
	const goal_stride *st = NULL;
	for (uint32_t i = 0; i < n; i++) {
		goal_op o = ops[i];
		size_t len = lab ? strlen(lab) : 0;
		if (o.kind != GOAL_CALC) {
			o.peer = goal_op_peer(s, r, &ops[i]);
			if (map && o.peer != GOAL_ANY_SOURCE && (o.peer = map[o.peer]) == UINT32_MAX) {
				snprintf(err, errlen, "rank %" PRIu64 " op %" PRIu32 ": its peer %" PRIu32
				         " is outside its job", r, i, goal_op_peer(s, r, &ops[i]));
				return -1;
			}
		}
		uint32_t comm = o.kind == GOAL_CALC ? 0 : goal_op_comm_value(s, &ops[i]) + dcomm;
		if (goal_writer_op_comm(w, &o, comm, len ? lab : NULL, len, NULL)
		    || (s->nstrides && (st = goal_op_stride(s, s->ranks[r].first_op + i))
		        && goal_writer_stride(w, st->stride, st->block)))
			goto werr;
		if (lab)
			lab += len + 1;
	}
	for (uint32_t b = 0; b < n; b++)
		for (uint32_t k = ops[b].dep_begin, end = goal_op_dep_end(s, r, ops, b); k < end; k++)
			if (goal_writer_dep(w, GOAL_EDGE_OP(e[k]), b, !!(e[k] & GOAL_EDGE_IREQ)))
				goto werr;
	return 0;
werr:
	snprintf(err, errlen, "%s", goal_writer_error(w));
	return -1;
}

/* A merged rank's job: the last j with first[j] <= g (first: nj + 1
 * ascending sums of the jobs' ranks, g below first[nj]). */
static uint32_t job_of(const uint64_t *first, uint32_t nj, uint64_t g)
{
	uint32_t lo = 0, hi = nj;
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (first[mid] <= g)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

int goal_merge(const char *path, const goal_mjob *jobs, uint32_t nj, uint64_t P, int table,
               char *err, size_t errlen)
{
	uint64_t *first = malloc((nj + 1) * sizeof *first);
	uint32_t *inv = malloc(P * sizeof *inv), *map = NULL;   /* merged rank: first[j] + i */
	const goal_sched *src = NULL;
	const char *msg;
	goal_writer *w = NULL;
	int rc = -1;
	*err = '\0';
	if (!first || !inv)
		goto oom;
	memset(inv, 0xff, P * sizeof *inv);
	first[0] = 0;
	for (uint32_t j = 0; j < nj; j++) {
		first[j + 1] = first[j] + jobs[j].nranks;
		for (uint32_t i = 0; i < jobs[j].nranks; i++)
			inv[jobs[j].place[i]] = (uint32_t)(first[j] + i);
		if (jobs[j].from)
			src = jobs[j].s;
	}
	/* Jobs of one schedule: its ranks to their merged ranks. */
	if (src) {
		if (!(map = malloc(src->nranks * sizeof *map)))
			goto oom;
		memset(map, 0xff, src->nranks * sizeof *map);
		for (uint32_t j = 0; j < nj; j++)
			for (uint32_t i = 0; jobs[j].from && i < jobs[j].nranks; i++)
				map[jobs[j].from[i]] = jobs[j].place[i];
	}
	if (!(w = goal_writer_create(path, P, err, errlen)))
		goto out;
	for (uint32_t j = 0; table && j < nj; j++) {
		const goal_mjob *g = &jobs[j];
		if (goal_writer_job(w, g->name, strlen(g->name), g->start, g->comm_base))
			goto werr;
		for (uint32_t i = 0; i < g->nranks; i++)
			if (goal_writer_job_rank(w, g->place[i]))
				goto werr;
	}
	for (uint64_t m = 0; m < P; m++) {
		if (goal_writer_rank_begin(w))
			goto werr;
		if (inv[m] != UINT32_MAX) {
			const goal_mjob *g = &jobs[job_of(first, nj, inv[m])];
			uint32_t i = (uint32_t)(inv[m] - first[g - jobs]);
			char e[512];
			if (goal_writer_copy_rank(w, g->s, g->from ? g->from[i] : i, g->from ? map : g->place,
			                          g->dcomm, e, sizeof e)) {
				snprintf(err, errlen, "error: job %s: %s", g->name, e);
				goto out;
			}
		}
		if (goal_writer_rank_end(w))
			goto werr;
	}
	if (goal_writer_finish(w))
		goto werr;
	rc = 0;
	goto out;
oom:
	snprintf(err, errlen, "error: out of memory");
	goto out;
werr:
	/* The writer's messages name their file when it is the cause. */
	msg = goal_writer_error(w);
	snprintf(err, errlen, "%s%s", strstr(msg, "error: ") ? "" : "error: ", msg);
out:
	if (w) {
		if (rc)
			goal_writer_abort(w);
		else if (goal_writer_close(w)) {
			snprintf(err, errlen, "%s: error: cannot write", path);
			rc = -1;
		}
	}
	free(first);
	free(inv);
	free(map);
	return rc;
}

/* Job g of merged schedule s as a goal_mjob of itself: its ranks in s,
 * its name, start and comms. */
static goal_mjob job_part(const goal_sched *s, uint32_t j)
{
	const goal_job *g = &s->jobs[j];
	return (goal_mjob){ .s = s, .from = s->job_ranks + g->first, .nranks = g->nranks,
	                    .name = goal_job_name(s, j), .start = g->start,
	                    .comm_base = g->comm_base };
}

/* Job j of s alone: in its own ranks with its own comms (extract), or
 * in s's ranks with a job table of it. */
static int job_out(const goal_sched *s, uint32_t j, int extract, const char *path, char *err,
                   size_t errlen)
{
	goal_mjob g = job_part(s, j);
	if (!(g.place = malloc(g.nranks * sizeof *g.place))) {
		snprintf(err, errlen, "error: out of memory");
		return -1;
	}
	for (uint32_t i = 0; i < g.nranks; i++)
		g.place[i] = extract ? i : g.from[i];
	g.dcomm = extract ? 0u - g.comm_base : 0;
	int rc = goal_merge(path, &g, 1, extract ? g.nranks : s->nranks, !extract, err, errlen);
	free(g.place);
	return rc;
}

int goal_job_extract(const goal_sched *s, uint32_t j, const char *path, char *err, size_t errlen)
{
	return job_out(s, j, 1, path, err, errlen);
}

int goal_job_alone(const goal_sched *s, uint32_t j, const char *path, char *err, size_t errlen)
{
	return job_out(s, j, 0, path, err, errlen);
}

int goal_replace(const goal_sched *s, const char *how, uint64_t seed, const char *path,
                 char *err, size_t errlen)
{
	goal_mjob *jobs = calloc(s->njobs, sizeof *jobs);
	uint32_t *place = malloc(s->nranks * sizeof *place);
	int rc = -1;
	if (!s->njobs) {
		snprintf(err, errlen, "error: no jobs to place (not a merged schedule)");
		goto out;
	}
	if (!jobs || !place) {
		snprintf(err, errlen, "error: out of memory");
		goto out;
	}
	for (uint32_t j = 0; j < s->njobs; j++) {
		jobs[j] = job_part(s, j);
		jobs[j].place = place + s->jobs[j].first;
	}
	rc = goal_place(jobs, s->njobs, s->nranks, how, seed, err, errlen) ? -1
	     : path ? goal_merge(path, jobs, s->njobs, s->nranks, 1, err, errlen) : 0;
out:
	free(jobs);
	free(place);
	return rc;
}
