/* tl_trace_json.h: timelines (loggopsim -V, docs/timeline.md) as Chrome /
 * Perfetto trace-event JSON, for ui.perfetto.dev and chrome://tracing:
 * the streaming converter, the critical path appended to it, and a
 * converter thread fed through a pipe (loggopsim --trace-json).
 * docs/perfetto.md states the mapping; in short:
 *
 *   {"otherData":{...the header...},"traceEvents":[
 *   EVENT,            one event a line, in the order of the timeline's lines
 *   ...
 *   ]}
 *
 * - Rank R is process pid R+1 named "rank R"; its tracks are threads,
 *   tid = R*T + k + 1 with T = ncpus + 2*nnics and k = c for "cpu c",
 *   ncpus + 2n for "nic n send", ncpus + 2n + 1 for "nic n recv" (the old
 *   format: T = 16, CPUs only).  A track's thread_name (and its rank's
 *   process_name) is written before its first event.
 * - osend, orecv, loclop, noise, gsend, grecv lines are complete events
 *   ("ph":"X", name = the line's keyword) on their CPU or NIC track; with
 *   labels (tl_json_opts.label), a labelled op's loclop, osend and orecv
 *   are named by its label, their args' "kind" the keyword;
 *   ts and dur in microseconds written exactly (ns / 1000 with three
 *   decimals: 1234.567).  noise lies inside the activity it stretched.
 * - A version-2 message is a flow: "s" on the sender's CPU track at the
 *   send's start (bound to its osend), "f" with "bp":"e" on the receiver's
 *   CPU track at the start of the orecv that handled it, id "0x" + hex of
 *   SRC*2^32 + OP; and an instant "arrival" ("ph":"i") on the receiver's
 *   NIC receive track when its first byte arrives.
 * - The critical path (tl_json_path) is process pid 4294967295, "critical
 *   path", a thread per link kind, a slice per link and flows between
 *   consecutive links.
 *
 * Memory: a bit per rank and per track (the names written), whatever the
 * number of lines. */
#ifndef TL_TRACE_JSON_H
#define TL_TRACE_JSON_H

#include "tl_path.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* What to keep.  A slice is kept when its rank is selected and it overlaps
 * [from, to] (its times are not cut); an instant when its rank is selected
 * and it is in [from, to]; a flow's "s" with its osend when both ranks are
 * selected, its "f" with its orecv likewise (so in a window a message with
 * one end outside has one of the two, which viewers ignore). */
typedef struct tl_json_opts {
	uint64_t from, to;          /* to = TL_NONE: to the end */
	const uint64_t *ranges;     /* rank pairs lo, hi (inclusive), sorted,
	                               disjoint; NULL: every rank */
	size_t nranges;
	FILE *tee;                  /* NULL, or every line read is copied here
	                               as it is read */
	/* NULL, or the label that names the slices of op `op` of rank `rank`
	 * (a calc's loclop; a send's osend and the orecv that handled it),
	 * NULL to keep the keyword; its characters need no JSON escape. */
	const char *(*label)(void *ctx, uint64_t rank, uint64_t op);
	void *label_ctx;
} tl_json_opts;

/* What a conversion did. */
typedef struct tl_json_info {
	uint64_t lines;             /* lines read */
	uint64_t events;            /* events written */
	uint64_t nranks;            /* the header's ranks */
	uint64_t tmax;              /* latest end or arrival read */
	int stopped_early;          /* the rest of the input is after the window */
} tl_json_info;

/* Convert the timeline read from in (named name in messages) to out, from
 * the opening of the JSON to the last event of the timeline: the events'
 * array is left open for tl_json_path.  Reads line by line and writes as
 * it goes; with a window it stops reading at the first line past it (not
 * before the end of the input when there is a tee).  Returns 0, or -1 with
 * "NAME:LINE:COL: error: ..." in err (as goalviz reads the same file) or
 * "NAME: error: ..." (a read error, no memory); out then holds a part of a
 * document.  Write errors on out are left to its closer (ferror). */
int tl_json_convert(FILE *in, const char *name, FILE *out, const tl_json_opts *o,
                    tl_json_info *info, char *err, size_t errlen);

/* Append the critical path (n links, links may be NULL when n is 0) to a
 * document that tl_json_convert wrote, then close it ("]}").  Returns 0,
 * or -1 if json has had an error. */
int tl_json_path(FILE *json, const tl_link *links, size_t n);

/* loggopsim --trace-json: a converter thread reading a pipe.  Start it:
 * it converts what is written to the returned stream (its write end; NULL
 * with "error: ..." in err if the pipe or thread cannot be made) into json,
 * with o (and o->tee, when given, receives every line).  The converter
 * keeps reading to the end of the input whatever happens, so a writer
 * never blocks. */
typedef struct tl_json_pipe tl_json_pipe;
FILE *tl_json_pipe_start(tl_json_pipe **p, FILE *json, const char *name,
                         const tl_json_opts *o, char *err, size_t errlen);

/* Close the write end (flushing it), wait for the converter and free p.
 * Returns 0 (json then holds the timeline's events, to be closed with
 * tl_json_path), or -1 with the converter's error in err. */
int tl_json_pipe_finish(tl_json_pipe *p, tl_json_info *info, char *err, size_t errlen);

#endif
