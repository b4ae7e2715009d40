/* model_sim.c: one simulated time of a schedgen pattern: generate it into a
 * temporary binary schedule, map it, run the simulation core. */
#include "model_sim.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int model_sim_open(model_sim *ms, char *err, size_t errlen)
{
	const char *t = getenv("TMPDIR");
	if (!t || !*t)
		t = "/tmp";
	if ((size_t)snprintf(ms->dir, sizeof ms->dir, "%s/loggops-model.XXXXXX", t) >= sizeof ms->dir) {
		snprintf(err, errlen, "TMPDIR is too long");
		return -1;
	}
	if (!mkdtemp(ms->dir)) {
		snprintf(err, errlen, "cannot create a temporary folder in %s: %s", t, strerror(errno));
		return -1;
	}
	snprintf(ms->path, sizeof ms->path, "%s/schedule.bin", ms->dir);
	return 0;
}

void model_sim_close(model_sim *ms)
{
	unlink(ms->path);
	rmdir(ms->dir);
}

int model_simulate(model_sim *ms, const char *pattern, const sg_params *sp,
                   const sim_params *prm, uint64_t *time, char *err, size_t errlen)
{
	int idx = sg_pattern_find(pattern);
	sg_out *o;
	goal_sched s;
	sim *m;
	sim_result res;
	int rc;

	if (idx < 0) {
		snprintf(err, errlen, "unknown pattern '%s'", pattern);
		return -1;
	}
	if (sg_params_check((size_t)idx, sp, err, errlen))
		return -1;
	o = sg_out_open(ms->path, SG_BINARY, sp->nranks, NULL, err, errlen);
	if (!o)
		return -1;
	if (sg_generate((size_t)idx, sp, o, NULL, NULL, err, errlen)) {
		sg_out_abort(o);
		return -1;
	}
	if (sg_out_close(o, err, errlen))
		return -1;
	rc = goal_sched_open(&s, ms->path, err, errlen);
	unlink(ms->path); /* the mapping stays valid */
	if (rc)
		return -1;
	m = sim_create(&s, prm, NULL, err, errlen);
	if (!m) {
		goal_sched_close(&s);
		return -1;
	}
	rc = sim_run(m, &res, err, errlen);
	if (rc == 0 && !res.complete) {
		snprintf(err, errlen, "%s with %" PRIu64 " ranks: the run is incomplete (%" PRIu64
		         " stuck ranks)", pattern, sp->nranks, res.stuck_ranks);
		rc = -1;
	}
	if (rc == 0)
		*time = res.time;
	sim_destroy(m);
	goal_sched_close(&s);
	return rc;
}
