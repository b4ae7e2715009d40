/* model_sim.h: simulate one schedgen pattern in-process (schedgen's
 * generator into a temporary binary schedule, then the simulation core). */
#ifndef MODEL_SIM_H
#define MODEL_SIM_H

#include "sg_pattern.h"
#include "sim.h"

#include <stddef.h>
#include <stdint.h>

/* A folder for the temporary schedules. */
typedef struct model_sim {
	char dir[4096];
	char path[4200];
} model_sim;

/* Create a private temporary folder under $TMPDIR (or /tmp).  Returns 0, or
 * -1 with a message in err. */
int model_sim_open(model_sim *ms, char *err, size_t errlen);

/* Remove the folder. */
void model_sim_close(model_sim *ms);

/* Generate the schedgen pattern called pattern with sp, simulate it under
 * prm and store the run's time (ns) in *time.  Returns 0, or -1 with a
 * message in err (bad parameters, out of memory or disk, an incomplete
 * run). */
int model_simulate(model_sim *ms, const char *pattern, const sg_params *sp,
                   const sim_params *prm, uint64_t *time, char *err, size_t errlen);

#endif
