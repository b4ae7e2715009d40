/* t2g_chakra.h: Chakra execution traces (readers/trace_chakra.h) into a
 * GOAL schedule: a rank's nodes become ops in the order of their
 * dependencies, its collectives the patterns of their classes over their
 * process groups (docs/chakra.md gives the rules). */
#ifndef T2G_CHAKRA_H
#define T2G_CHAKRA_H

#include "trace2goal_conv.h"
#include "trace_chakra.h"

#include <stddef.h>
#include <stdint.h>

/* Figures of a conversion (free with t2g_chakra_stats_free). */
struct t2g_chakra_stats {
	uint64_t ranks, nodes;
	uint64_t types[CK_NTYPES + 1];   /* nodes by type (the last: types beyond) */
	uint64_t ops, sends, recvs, calcs, calc_ns;
	uint64_t collectives;            /* collective nodes (all ranks) */
	uint64_t *by_pattern;            /* of them, by pattern (npatterns) */
	size_t npatterns;
	ck_unused *unused;               /* attributes not used, over all ranks */
	size_t nunused, capunused;
	uint64_t waited_send;            /* the largest send a node depends on */
};

/* Convert the traces paths[0..n) (paths[r]: rank r's NAME.r.et) into out,
 * open for n K ranks (K = opt->extrapolate) and not closed here; opt's
 * collective patterns, --select, gamma, strictness, warnings, the rates
 * flops and mem_bw, and the groups kept in their copy.  Copy j of traced
 * rank r is rank j n + r: its messages stay in the copy, its collectives
 * span the group's members in every copy (docs/chakra.md,
 * "Extrapolation").  Reads each trace once for the process groups, then
 * once a copy (once in all for one rank), one at a time.  Fills *st.  0,
 * or -1 with "FILE: error: ..." in err. */
int t2g_chakra(char *const *paths, size_t n, const struct t2g_options *opt, sg_out *out,
               struct t2g_chakra_stats *st, char *err, size_t errlen);

void t2g_chakra_stats_free(struct t2g_chakra_stats *st);

#endif
