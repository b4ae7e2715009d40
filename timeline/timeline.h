/* timeline.h: the timeline format (loggopsim -V; docs/timeline.md), its one
 * owner: the kinds of its lines, its version, the writer the simulator calls
 * while it runs, and the one-pass reader behind goalviz.
 *
 * The writer records facts, never rules: a message's departure and arrival,
 * the CPU and NIC of its send, the message each receive overhead handled and
 * every size range's parameters.  So the reader of a file of version 2 or
 * later derives nothing from the LogGOPS rules; only files of version 1
 * (which lack these facts) and of the published LogGOPSim are read with the
 * rules they were written by (see docs/timeline.md). */
#ifndef TIMELINE_H
#define TIMELINE_H

#include "loggp_params.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define TL_VERSION 4          /* read: versions 1 to 4; written: 4 */
#define TL_NONE UINT64_MAX    /* an unknown time */

/* Interval kinds.  X(enum suffix, keyword, on a NIC, legend, fill colour) */
#define TL_KINDS(X) \
	X(OSEND, "osend", 0, "send overhead (o + sO)", "#1f6fd0") \
	X(ORECV, "orecv", 0, "receive overhead (o + max(sO, sG))", "#e07b10") \
	X(LOCLOP, "loclop", 0, "calc", "#2ca02c") \
	X(NOISE, "noise", 0, "noise (a detour)", "#9467bd") \
	X(GSEND, "gsend", 1, "send NIC gap (g + sG)", "#8fb8ea") \
	X(GRECV, "grecv", 1, "receive NIC gap (g + sG)", "#f2c08a")

typedef enum tl_kind {
#define TL_X(name, kw, nic, legend, colour) TL_##name,
	TL_KINDS(TL_X)
#undef TL_X
	TL_NKINDS
} tl_kind;

extern const char *const tl_kind_word[TL_NKINDS];
extern const char *const tl_kind_legend[TL_NKINDS];
extern const char *const tl_kind_colour[TL_NKINDS];
extern const unsigned char tl_kind_on_nic[TL_NKINDS];

/* ---- Writer ------------------------------------------------------------- */

/* The header line and one range line per size range (the parameter file's
 * ranges: 1 to LOGGP_PARAMS_MAX_RANGES, contiguous from 0, the last one to
 * LOGGP_SIZE_INF). */
void tl_write_header(FILE *f, uint64_t nranks, uint64_t S, uint32_t ncpus,
                     uint32_t nnics, const loggp_range *range, uint32_t nranges);

/* A run of several jobs: the lines "job NAME START RUN ..." of one job,
 * right after the header, its n ranks (in its order) as runs "A" or "A-B",
 * TL_JOB_RUNS runs a line. */
#define TL_JOB_RUNS 32
void tl_write_job(FILE *f, const char *name, uint64_t start, const uint32_t *ranks, uint32_t n);

/* "KIND RANK UNIT START END" for osend, gsend, grecv and noise (unit: the
 * cpu or nic index).  A calc is written by tl_write_loclop, a receive
 * overhead by tl_write_orecv. */
void tl_write_interval(FILE *f, tl_kind k, uint64_t rank, uint32_t unit,
                       uint64_t start, uint64_t end);

/* "loclop RANK CPU START END OP": calc op OP of rank RANK. */
void tl_write_loclop(FILE *f, uint64_t rank, uint32_t cpu, uint64_t start, uint64_t end,
                     uint32_t op);

/* "orecv RANK CPU START END SRC OP": the receive overhead that handles the
 * message of send op OP of rank SRC. */
void tl_write_orecv(FILE *f, uint64_t rank, uint32_t cpu, uint64_t start,
                    uint64_t end, uint64_t src, uint32_t op);

/* "transmission SRC DST START DEPART ARRIVAL SIZE OP CPU NIC": send op OP of
 * rank SRC, started at START on its CPU and NIC, leaves at DEPART, and its
 * first byte is at rank DST at ARRIVAL. */
void tl_write_transmission(FILE *f, uint64_t src, uint64_t dst, uint64_t start,
                           uint64_t depart, uint64_t arrival, uint64_t size,
                           uint32_t op, uint32_t cpu, uint32_t nic);

/* "link LINK START END FLOWS BYTES" (runs with a network): link LINK
 * carried FLOWS flows (at least 1) from START to END (START < END), which
 * moved BYTES bytes (rounded) over it then; written when the number
 * changes. */
void tl_write_link(FILE *f, uint32_t link, uint64_t start, uint64_t end, uint32_t flows,
                   uint64_t bytes);

/* ---- Reader ------------------------------------------------------------- */

#define TL_MAX_ROWS 16          /* CPUs or NICs per lane drawn even when unused */
#define TL_MAX_ALL_ROWS 65536u  /* rows of all lanes kept (one lane always) */

/* One interval of a CPU or NIC: 32 bytes. */
typedef struct tl_bar {
	uint64_t start, end;
	uint32_t lane;      /* index into tl_file.lane_rank */
	uint16_t unit;      /* cpu or nic index */
	uint8_t kind;       /* tl_kind */
	uint8_t has_msg;    /* orecv joined to a message: msg_src valid */
	uint64_t msg_src;   /* orecv: the sender of the message it handled */
} tl_bar;

/* One message. */
typedef struct tl_msg {
	uint64_t src, dst;
	uint64_t send;      /* start of the send, or TL_NONE (old format) */
	uint64_t depart;    /* leaves the sender */
	uint64_t arrival;   /* first byte at the receiver (old format: handled) */
	uint64_t handled;   /* the receiver's orecv starts, or TL_NONE if not known */
	uint64_t size;
	uint32_t src_lane, dst_lane; /* UINT32_MAX: rank not kept */
	uint16_t src_cpu, dst_cpu;
} tl_msg;

/* A link's load (runs with a network): link `link` carried `flows` flows
 * from start to end, which moved `bytes` bytes over it then. */
typedef struct tl_load {
	uint64_t start, end, bytes;
	uint32_t link, flows;
} tl_load;

#define TL_MAX_LINK_ROWS 32     /* links drawn: the busiest in the window */

/* What to keep. */
typedef struct tl_window {
	uint64_t from, to;        /* time window [from, to]; to = TL_NONE: to the end */
	const uint64_t *ranges;   /* rank pairs lo, hi (inclusive), sorted,
	                           * disjoint; NULL: all */
	size_t nranges;
	uint32_t max_lanes;       /* keep at most this many ranks (the first ones;
	                           * fewer when they have more than TL_MAX_ALL_ROWS rows) */
	uint64_t max_items;       /* keep at most this many bars + messages */
} tl_window;

/* A timeline as read. */
typedef struct tl_file {
	int old_format;           /* 1: the published LogGOPSim text format */
	uint32_t version;         /* 1 to 4 (0: old format) */
	uint64_t nranks;
	uint32_t ncpus, nnics;    /* per rank, as the header says */
	uint32_t cpu_rows, nic_rows; /* rows per lane: the header's counts, or
	                             past TL_MAX_ROWS the largest index used + 1 */
	uint64_t S;
	uint32_t nranges;         /* 0: no parameters (old format) */
	loggp_range range[LOGGP_PARAMS_MAX_RANGES]; /* G.den (O.den) 0: the
	                             header has no G (O), as version 1 allows */
	uint64_t old_G;           /* old format: the G of its transmission lines */
	uint64_t tmax;            /* latest end or arrival in the file (read part) */
	uint64_t from, to;        /* the window, to resolved */
	int to_auto;              /* to is the end of the file's events */
	uint64_t *lane_rank;      /* ranks kept, increasing */
	uint32_t nlanes;
	uint64_t lanes_left_out;  /* selected ranks beyond max_lanes */
	uint64_t first_left_out;  /* the first of them */
	tl_bar *bars;
	size_t nbars, cap_bars;
	tl_msg *msgs;
	size_t nmsgs, cap_msgs;
	tl_load *loads;           /* of the links in link_row only */
	size_t nloads, cap_loads;
	uint64_t *link_row;       /* the links drawn, increasing (at most
	                             TL_MAX_LINK_ROWS: the most bytes in the
	                             window, the lower number on a tie) */
	uint32_t nlink_rows;
	uint32_t max_flows;       /* the most flows of a load kept */
	uint64_t links_left_out;  /* links with loads in the window not drawn */
	uint64_t loads_left_out;  /* loads in the window past max_items */
	uint64_t items_left_out;  /* over max_items */
	uint64_t first_time_left_out; /* start of the first item left out */
	uint64_t lines;           /* lines read */
	int stopped_early;        /* stopped reading after the window */
	/* Jobs (versions 3 and 4): their names (job j's at job_names +
	 * job_off[j]) and each lane's job (lane_job, UINT32_MAX: none; NULL: no
	 * jobs). */
	uint32_t njobs;
	char *job_names;
	uint32_t *job_off;
	uint32_t *lane_job;
} tl_file;

/* Read the timeline from f (named name in messages) and keep what w selects.
 * Returns 0, or -1 with "NAME:LINE:COL: error: ..." in err ("NAME: error:
 * ..." for a read error or no memory); tl is then still to be freed with
 * tl_free. */
int tl_read(tl_file *tl, FILE *f, const char *name, const tl_window *w,
            char *err, size_t errlen);

void tl_free(tl_file *tl);

/* The lane of rank in tl (an index into tl->lane_rank), or UINT32_MAX when
 * the rank was not kept. */
uint32_t tl_lane_of(const tl_file *tl, uint64_t rank);

/* The row of link in tl (an index into tl->link_row), or UINT32_MAX when
 * the link is not drawn. */
uint32_t tl_link_row(const tl_file *tl, uint32_t link);

#endif
