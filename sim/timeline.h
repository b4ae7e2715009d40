/* timeline.h: the -V timeline text (format in docs/timeline.md), written
 * line by line while the simulation runs. */
#ifndef TIMELINE_H
#define TIMELINE_H

#include <stdint.h>
#include <stdio.h>

/* Interval kinds.  X(enum suffix, keyword, what the interval is) */
#define SIM_TL_KINDS(X) \
	X(OSEND, "osend")   /* CPU busy sending: o + sO                 */ \
	X(ORECV, "orecv")   /* CPU busy receiving: o + max(sO, sG)      */ \
	X(LOCLOP, "loclop") /* CPU busy with a calc                     */ \
	X(GSEND, "gsend")   /* send NIC busy: g + sG                    */ \
	X(GRECV, "grecv")   /* receive NIC busy: g + sG                 */

typedef enum sim_tl_kind {
#define SIM_TL_X(name, kw) SIM_TL_##name,
	SIM_TL_KINDS(SIM_TL_X)
#undef SIM_TL_X
	SIM_TL_NKINDS
} sim_tl_kind;

/* The header line: P and the parameters (G and O already formatted). */
void sim_tl_header(FILE *f, uint64_t nranks, uint64_t L, uint64_t o, uint64_t g,
                   const char *G, const char *O, uint64_t S, uint32_t ncpus,
                   uint32_t nnics);

/* "KIND RANK UNIT START END": unit is the cpu or nic index. */
void sim_tl_interval(FILE *f, sim_tl_kind k, uint64_t rank, uint32_t unit,
                     uint64_t start, uint64_t end);

/* "transmission SRC DST START ARRIVAL SIZE" for a message sent at start,
 * whose first byte arrives at arrival. */
void sim_tl_transmission(FILE *f, uint64_t src, uint64_t dst, uint64_t start,
                         uint64_t arrival, uint64_t size);

#endif
