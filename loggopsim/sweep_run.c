/* sweep_run.c: runs the sets of a sweep on one shared schedule in threads
 * (docs/sweep.md "How it runs"). */
#include "sweep.h"
#include "goal_open.h"
#include "progress.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

typedef struct sweep_job {
	const goal_sched *s;
	const sim_pset *base;
	const sweep *sw;
	sweep_result *res;
	size_t part, nparts;
	atomic_size_t next;         /* next index to claim */
	pthread_mutex_t lock;       /* guards err */
	char *err;
	size_t errlen;
	int failed;
} sweep_job;

/* Run one set; its result into j->res[i]. */
static void run_one(sweep_job *j, size_t i)
{
	sim_pset ps;
	sim_result r;
	char e[512];
	double t0 = util_now();
	sweep_result *out = &j->res[i];
	sim *m = NULL;
	sim_perturb pt;
	sim_options so = { .critical = j->sw->sensitivity, .net = j->sw->net };
	if (j->sw->perturb) {
		pt = *j->sw->perturb;
		if (j->sw->set[i].has_seed)
			pt.seed = j->sw->set[i].seed;
		so.perturb = &pt;
	}
	/* A set's own placement: its schedule, placed anew from the shared one. */
	goal_sched placed;
	uint64_t seed;
	const char *how = sweep_set_place(j->sw, i, &seed);
	const goal_sched *s = j->s;
	if (how && goal_sched_open_placed(&placed, j->s, how, seed, e, sizeof e) == 0)
		s = &placed;
	out->status = SWEEP_FAILED;
	if ((!how || s == &placed) && sweep_set_params(j->sw, i, j->base, &ps, e, sizeof e) == 0
	    && (m = sim_create(s, &ps.p, &so, e, sizeof e)) != NULL
	    && sim_run(m, &r, e, sizeof e) == 0) {
		out->status = r.complete ? SWEEP_OK : SWEEP_INCOMPLETE;
		for (uint32_t k = 0; j->sw->job_end && r.complete && k < j->s->njobs; k++)
			j->sw->job_end[i * j->s->njobs + k] = sim_job_end(m, k);
		out->time = r.time;
		out->host = r.host;
		out->events = r.events;
		sim_path p;
		if (r.complete && j->sw->sensitivity) {
			if (sim_critical_path(m, &r, &p, e, sizeof e)) {
				out->status = SWEEP_FAILED;
			} else {
				for (uint32_t k = 0; k < p.nranges; k++)
					for (int x = 0; x < 5; x++)
						out->dT[x] += p.d[k][x];
				sim_path_free(&p);
			}
		}
	}
	sim_destroy(m);
	if (s == &placed)
		goal_sched_close(&placed);
	out->wall = util_now() - t0;
	if (out->status == SWEEP_FAILED) {
		pthread_mutex_lock(&j->lock);
		if (!j->failed)
			snprintf(j->err, j->errlen, "set '%s': %s", j->sw->set[i].name, e);
		j->failed = 1;
		pthread_mutex_unlock(&j->lock);
	}
}

static void *worker(void *arg)
{
	sweep_job *j = arg;
	for (;;) {
		size_t k = atomic_fetch_add(&j->next, 1);
		size_t i = j->part + k * j->nparts;
		if (i >= j->sw->n)
			break;
		run_one(j, i);
	}
	return NULL;
}

int sweep_run(const goal_sched *s, const sim_pset *base, const sweep *sw,
              size_t part, size_t nparts, unsigned jobs, sweep_result *res,
              char *err, size_t errlen)
{
	sweep_job j;
	size_t mine = part < sw->n ? (sw->n - part + nparts - 1) / nparts : 0;
	memset(res, 0, sw->n * sizeof *res);
	j.s = s;
	j.base = base;
	j.sw = sw;
	j.res = res;
	j.part = part;
	j.nparts = nparts;
	atomic_init(&j.next, 0);
	pthread_mutex_init(&j.lock, NULL);
	j.err = err;
	j.errlen = errlen;
	j.failed = 0;
	if (jobs < 1)
		jobs = 1;
	if (jobs > mine)
		jobs = mine ? (unsigned)mine : 1;
	pthread_t *t = calloc(jobs, sizeof *t);
	unsigned started = 0;
	int rc = 0;
	if (!t) {
		snprintf(err, errlen, "out of memory");
		rc = -1;
	}
	/* One thread runs in the caller; jobs - 1 more. */
	for (unsigned k = 1; t && k < jobs; k++) {
		int e = pthread_create(&t[k], NULL, worker, &j);
		if (e) {
			snprintf(err, errlen, "cannot start a thread: %s", strerror(e));
			rc = -1;
			break;
		}
		started++;
	}
	if (t)
		worker(&j);
	for (unsigned k = 1; k <= started; k++)
		pthread_join(t[k], NULL);
	free(t);
	pthread_mutex_destroy(&j.lock);
	return rc;
}
