/* viz_sched.h: the dependency graph of a GOAL schedule as Graphviz dot (one
 * cluster per rank, sends joined to the receives they match). */
#ifndef VIZ_SCHED_H
#define VIZ_SCHED_H

#include <stdint.h>
#include <stdio.h>

#include "goal.h"

typedef struct viz_sched_opts {
	const uint64_t *ranges;  /* ranks to draw: pairs lo, hi (sorted); NULL: all */
	size_t nranges;
	uint64_t max_ops;        /* draw at most this many ops (whole ranks); 0: 2000 */
	const char *name;        /* shown in the graph label, or NULL */
} viz_sched_opts;

/* What viz_schedule_dot drew and left out. */
typedef struct viz_sched_info {
	uint64_t ranks_drawn, ops_drawn, matches, unmatched, wildcard_matches;
	uint64_t ranks_left_out;  /* selected ranks not drawn (op limit) */
	uint64_t first_left_out;  /* the first of them */
} viz_sched_info;

/* Write the dependency graph of s to out: every op a node labelled with its
 * label and operation, requires edges solid, irequires edges dashed, and an
 * edge from each send to the receive it matches (in program order per
 * source, destination and tag; wildcards as described in docs/viz.md).
 * opts may be NULL; info may be NULL.  Returns 0, or -1 with a message in err
 * (out of memory or a write error). */
int viz_schedule_dot(const goal_sched *s, const viz_sched_opts *opts, FILE *out,
                     viz_sched_info *info, char *err, size_t errlen);

#endif
