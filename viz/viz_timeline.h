/* viz_timeline.h: reads a timeline (loggopsim -V, or the old LogGOPSim text
 * format) in one pass and keeps only what a window of time and ranks shows. */
#ifndef VIZ_TIMELINE_H
#define VIZ_TIMELINE_H

#include <stdint.h>
#include <stdio.h>

/* Bar kinds.  X(enum suffix, keyword, legend text, fill colour) */
#define VIZ_BAR_KINDS(X) \
	X(OSEND, "osend", "send overhead (o + sO)", "#1f6fd0")   /* CPU sending   */ \
	X(ORECV, "orecv", "receive overhead (o + max(sO, sG))", "#e07b10") /* CPU receiving */ \
	X(LOCLOP, "loclop", "calc", "#2ca02c")                    /* CPU computing */ \
	X(NOISE, "noise", "noise (old format)", "#9467bd")        /* CPU noise     */ \
	X(GSEND, "gsend", "send NIC gap (g + sG)", "#8fb8ea")     /* NIC sending   */ \
	X(GRECV, "grecv", "receive NIC gap (g + sG)", "#f2c08a")  /* NIC receiving */

typedef enum viz_bar_kind {
#define VIZ_BAR_X(name, kw, legend, colour) VIZ_BAR_##name,
	VIZ_BAR_KINDS(VIZ_BAR_X)
#undef VIZ_BAR_X
	VIZ_NBARS
} viz_bar_kind;

extern const char *const viz_bar_word[VIZ_NBARS];
extern const char *const viz_bar_legend[VIZ_NBARS];
extern const char *const viz_bar_colour[VIZ_NBARS];

/* True for the kinds drawn on a NIC row (gsend, grecv). */
#define VIZ_BAR_ON_NIC(k) ((k) == VIZ_BAR_GSEND || (k) == VIZ_BAR_GRECV)
#define VIZ_MAX_ROWS 16   /* CPUs or NICs per lane drawn even when unused */
#define VIZ_MAX_ALL_ROWS 65536u /* rows of all lanes drawn (one lane always) */

#define VIZ_NONE UINT64_MAX  /* an unknown time */

/* One interval of a CPU or NIC: 32 bytes. */
typedef struct viz_bar {
	uint64_t start, end;
	uint32_t lane;      /* index into viz_tl.lane_rank */
	uint16_t unit;      /* cpu or nic index */
	uint8_t kind;       /* viz_bar_kind */
	uint8_t has_msg;    /* orecv joined to a message: msg_src, msg_size valid */
	uint64_t msg_src;   /* orecv: the sender of the message it handled */
} viz_bar;

/* One message. */
typedef struct viz_msg {
	uint64_t src, dst;
	uint64_t send;      /* start of the send (new format) or VIZ_NONE (old) */
	uint64_t depart;    /* leaves the sender: send start + o (old: START) */
	uint64_t arrival;   /* first byte at the receiver (old: handled) */
	uint64_t handled;   /* the receiver's orecv starts, or VIZ_NONE if not known */
	uint64_t size;
	uint32_t src_lane, dst_lane; /* UINT32_MAX: rank not drawn */
	uint16_t src_cpu, dst_cpu;
} viz_msg;

/* What to keep. */
typedef struct viz_window {
	uint64_t from, to;        /* time window [from, to]; to = VIZ_NONE: to the end */
	const uint64_t *ranges;   /* pairs lo, hi (inclusive), sorted, disjoint; NULL: all */
	size_t nranges;
	uint32_t max_lanes;       /* draw at most this many ranks (the first ones;
	                           * fewer when they have more than VIZ_MAX_ALL_ROWS rows) */
	uint64_t max_items;       /* keep at most this many bars + messages */
} viz_window;

typedef struct viz_tl {
	int old_format;           /* 1: the old LogGOPSim text format */
	uint64_t nranks;
	uint32_t ncpus, nnics;    /* per rank, as the header says */
	uint32_t cpu_rows, nic_rows; /* rows per lane: the header's counts, or
	                             past VIZ_MAX_ROWS the largest index used + 1 */
	int has_params;
	uint64_t L, o, g, S;
	char G[32], O[32];        /* as written in the header */
	uint64_t old_G;           /* old format: the G of its transmission lines */
	uint64_t tmax;            /* latest end or arrival in the file (read part) */
	uint64_t from, to;        /* the window, to resolved */
	int to_auto;              /* to is the end of the file's events */
	uint64_t *lane_rank;      /* ranks drawn, increasing */
	uint32_t nlanes;
	uint64_t lanes_left_out;  /* selected ranks beyond max_lanes */
	uint64_t first_left_out;  /* the first of them */
	viz_bar *bars;
	size_t nbars, cap_bars;
	viz_msg *msgs;
	size_t nmsgs, cap_msgs;
	uint64_t items_left_out;  /* over max_items */
	uint64_t first_time_left_out; /* start of the first item left out */
	uint64_t lines;           /* lines read */
	int stopped_early;        /* stopped reading after the window */
} viz_tl;

/* Parse a list like "0-15,32" into sorted, merged pairs lo, hi in *out
 * (malloc'ed; free it).  Returns 0, or -1 with a message in err. */
int viz_parse_ranges(const char *s, uint64_t **out, size_t *n, char *err, size_t errlen);

/* Parse a time: an integer or decimal number with an optional unit ns, us,
 * ms or s (default ns), e.g. "12000", "12us", "1.5ms".  Returns 0 or -1. */
int viz_parse_time(const char *s, uint64_t *t);

/* Read the timeline from f (named name in messages) and keep what w selects.
 * Returns 0, or -1 with "NAME:LINE:COL: error: ..." in err (tl is then still
 * to be freed with viz_tl_free). */
int viz_tl_read(viz_tl *tl, FILE *f, const char *name, const viz_window *w,
                char *err, size_t errlen);

void viz_tl_free(viz_tl *tl);

#endif
