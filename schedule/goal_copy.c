/* goal_copy.c: ranks copied from one schedule into a writer, and the two
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

/* Write ranks 0..nout-1 to w: rank k is rank from[k] of s (UINT32_MAX: a
 * rank without ops), peers mapped by map, comms shifted by dcomm. */
static int copy_ranks(goal_writer *w, const goal_sched *s, uint64_t nout, const uint32_t *from,
                      const uint32_t *map, uint32_t dcomm, char *err, size_t errlen)
{
	for (uint64_t k = 0; k < nout; k++) {
		if (goal_writer_rank_begin(w)
		    || (from[k] != UINT32_MAX && goal_writer_copy_rank(w, s, from[k], map, dcomm, err, errlen))
		    || goal_writer_rank_end(w)) {
			if (!*err)
				snprintf(err, errlen, "%s", goal_writer_error(w));
			return -1;
		}
	}
	return 0;
}

/* The two ways out of a merged schedule: job j alone in its own ranks
 * (extract), or alone in the merged ranks (alone). */
static int job_out(const goal_sched *s, uint32_t j, int extract, const char *path,
                   char *err, size_t errlen)
{
	const goal_job *g = &s->jobs[j];
	const uint32_t *rk = s->job_ranks + g->first;
	uint64_t nout = extract ? g->nranks : s->nranks;
	uint32_t *from = malloc(nout * sizeof *from), *map = NULL;
	goal_writer *w = NULL;
	int rc = -1;
	*err = '\0';
	if (!from || (extract && !(map = malloc(s->nranks * sizeof *map)))) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if (extract) {
		memset(map, 0xff, s->nranks * sizeof *map);
		for (uint32_t i = 0; i < g->nranks; i++) {
			from[i] = rk[i];
			map[rk[i]] = i;
		}
	} else {
		memset(from, 0xff, nout * sizeof *from);
		for (uint32_t i = 0; i < g->nranks; i++)
			from[rk[i]] = rk[i];
	}
	if (!(w = goal_writer_create(path, nout, err, errlen)))
		goto out;
	const char *name = goal_job_name(s, j);
	if (!extract) {
		if (goal_writer_job(w, name, strlen(name), g->start, g->comm_base))
			goto werr;
		for (uint32_t i = 0; i < g->nranks; i++)
			if (goal_writer_job_rank(w, rk[i]))
				goto werr;
	}
	if (copy_ranks(w, s, nout, from, map, extract ? 0u - g->comm_base : 0, err, errlen))
		goto out;
	if (goal_writer_finish(w))
		goto werr;
	rc = 0;
	goto out;
werr:
	snprintf(err, errlen, "%s", goal_writer_error(w));
out:
	if (w) {
		if (rc)
			goal_writer_abort(w);
		else if (goal_writer_close(w))
			rc = -1;
	}
	free(from);
	free(map);
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
