/* kind.h: what a file is, from its first bytes, so that a tool given a
 * file of another kind names it ("this is a timeline, not a GOAL
 * schedule") instead of reporting its first line as a syntax error. */
#ifndef UTIL_KIND_H
#define UTIL_KIND_H

#include <stddef.h>

/* The kinds the tools read and write: X(enum suffix, leading bytes, what
 * it is).  A file is of the first kind whose leading bytes it starts with. */
#define UTIL_KINDS(X) \
	X(GOAL_BINARY, "GOALBIN\n", "a binary GOAL schedule (goalc --dump shows it as text)") \
	X(GOAL_TEXT, "num_ranks", "a GOAL schedule in text (goalc compiles it)") \
	X(TIMELINE, "loggopsim-timeline ", "a timeline (loggopsim -V writes them; goalviz draws them)") \
	X(OLD_TIMELINE, "numranks ", "a timeline of the published LogGOPSim (goalviz draws them)") \
	X(PARAMS, "loggp-params ", "a LogGP parameter file (loggopsim -p reads them)") \
	X(PRTT, "loggp-prtt ", "a table of round-trip times (loggp-fit reads them)") \
	X(TRACE, "# goaltrace trace format", "an MPI trace (trace2goal converts them)") \
	X(PATH, "step,kind,rank,", "a critical path (loggopsim --critical-path writes them)") \
	X(JSON, "{", "a JSON document") \
	X(SVG, "<?xml", "an XML document (an SVG picture?)") \
	X(DOT, "digraph", "a Graphviz graph")

typedef enum util_kind {
	UTIL_KIND_NONE,
#define UTIL_KIND_X(e, lead, what) UTIL_KIND_##e,
	UTIL_KINDS(UTIL_KIND_X)
#undef UTIL_KIND_X
} util_kind;

/* Bytes of a file's start that util_kind_of needs at most. */
#define UTIL_KIND_HEAD 256

/* The kind of a file that starts with head[0 .. n) (leading blanks and
 * "//" comment lines skipped; such comments alone make GOAL text), or
 * UTIL_KIND_NONE. */
util_kind util_kind_of(const char *head, size_t n);

/* The kind of the file at path (UTIL_KIND_NONE when it cannot be read). */
util_kind util_kind_of_file(const char *path);

/* What kind k is ("a timeline (...)"); "" for UTIL_KIND_NONE. */
const char *util_kind_what(util_kind k);

#endif
