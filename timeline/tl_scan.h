/* tl_scan.h: the timeline's one line parser (inside the timeline module):
 * the header and range lines, every record of versions 1 to 4 and of the
 * published LogGOPSim format, and the checks that need no other line.
 * tl_read (goalviz's reader) and the trace JSON converter both read through
 * it, so a file has the same errors for both.
 *
 * Errors read "NAME:LINE:COL: error: MESSAGE" (COL: the offending field,
 * in bytes from 1); docs/timeline.md lists what is assumed for the older
 * versions. */
#ifndef TL_SCAN_H
#define TL_SCAN_H

#include "kmap.h"
#include "timeline.h"

#include <stddef.h>
#include <stdint.h>

/* What a line was. */
typedef enum tl_line {
	TL_LINE_NONE,          /* blank, or a range line */
	TL_LINE_HEADER,        /* the header line: tl_scan.h is set */
	TL_LINE_INTERVAL,      /* osend, orecv, loclop, noise, gsend, grecv */
	TL_LINE_TRANSMISSION,
	TL_LINE_LINK,          /* a link's load: unit (the link), start, end,
	                          flows, size (the bytes) */
	TL_LINE_JOB,           /* a job line (versions 3, 4): unit (the job's
	                          index in tl_scan.job_*), start, and its runs
	                          from at_src (tl_scan_job_run) */
	TL_LINE_STOP           /* a record that starts after stop_after: the
	                          rest is after the window (but for link lines
	                          when links_only is set: read on) */
} tl_line;

/* The header as read (and, in the old format, the CPUs its lines use). */
typedef struct tl_head {
	int old_format;           /* 1: the published LogGOPSim format */
	uint32_t version;         /* 1 to 4 (0: old format) */
	uint64_t nranks;
	uint32_t ncpus, nnics;    /* old format: 1 NIC, CPUs as the lines use */
	uint64_t S;
	uint32_t nranges;         /* 0: no parameters (old format) */
	loggp_range range[LOGGP_PARAMS_MAX_RANGES]; /* G.den (O.den) 0: the
	                             header has no G (O), as version 1 allows */
	uint64_t old_G;           /* old format: the G of the last transmission */
} tl_head;

/* One record.  An interval: kind, rank, unit (its CPU or NIC), start, end,
 * for an orecv of version 2 on has_msg with src and op (the send's), and
 * for a loclop of version 4 has_op with op (the calc's).  A transmission:
 * src (also in rank), dst, start, depart, arrival, size, and in version 2
 * op, cpu and nic (has_msg set); version 1 has no depart (o after start, no
 * later than the arrival) and the old format has start = depart (it leaves)
 * and arrival = when it was received. */
typedef struct tl_rec {
	tl_kind kind;
	uint64_t rank, unit, start, end;
	int has_msg, has_op;
	uint64_t src, op;
	uint64_t dst, depart, arrival, size, cpu, nic, flows;
	const char *at_src;       /* the source rank's field in the line (a
	                             job line: its first run) */
} tl_rec;

typedef struct tl_scan {
	tl_head h;
	uint64_t stop_after;      /* TL_NONE, or: a record of a time-ordered
	                             file that starts after it (but for
	                             transmission and noise) is TL_LINE_STOP */
	uint64_t line;            /* lines read */
	const char *name;
	const char *lbuf;         /* the current line */
	char *err;
	size_t errlen;
	int have_header;
	uint32_t ranges_due;      /* range lines still to come */
	/* The jobs named so far (versions 3, 4): names NUL-terminated, job j's at
	 * job_names + job_off[j]; a job's lines follow each other. */
	char *job_names;
	size_t job_names_len, cap_job_names;
	uint32_t *job_off;
	uint32_t njobs;
	size_t cap_job_off;
	util_kmap job_map;        /* name -> index */
	int links_only;           /* past the window (version 2; set with the
	                             first TL_LINE_STOP, or by the reader): a
	                             link line is written when its load ends, so
	                             one that began in the window may come later;
	                             other lines are TL_LINE_NONE, unchecked */
} tl_scan;

/* Start reading a file called name; errors go to err. */
void tl_scan_init(tl_scan *s, const char *name, char *err, size_t errlen);

/* Free what s keeps (the job names). */
void tl_scan_free(tl_scan *s);

/* The next line (len bytes, its newline included or not): a tl_line with
 * *rec set for a record, or -1 with the message in err. */
int tl_scan_line(tl_scan *s, const char *line, size_t len, tl_rec *rec);

/* The next run "A" or "A-B" of a job line that tl_scan_line accepted, from
 * *p (rec->at_src at first): 1 with *a <= *b, or 0 after the last. */
int tl_scan_job_run(const char **p, uint64_t *a, uint64_t *b);

/* The end of the file: 0, or -1 with "NAME:LINE:1: error: ..." (no header,
 * range lines missing). */
int tl_scan_end(tl_scan *s);

/* A reader's own error about the field at `at` of the current line.
 * Returns -1. */
int tl_scan_error(tl_scan *s, const char *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
