/* trace_build.h: fills a struct tr_trace (trace_read.h) call by call, for
 * the readers of binary trace formats (trace_dumpi.c, trace_otf2.c): calls,
 * their list values, interned names and the counts of skipped records.
 * Every function returns 0 or -1 (out of memory, or more than 2^32 list
 * values or names in one trace); after -1 the trace is still valid to free
 * with tr_free. */
#ifndef TRACE_BUILD_H
#define TRACE_BUILD_H

#include "trace_read.h"
#include "kmap.h"

struct tr_build {
	struct tr_trace *t;
	size_t cap_calls, cap_pool, cap_names, cap_skips;
	util_kmap names;             /* name -> offset in t->names */
	util_kmap skips;             /* name -> index in t->skips */
};

/* Empties *t (rank and size unknown, -1) and starts building it; unit is
 * what the calls' line numbers count. */
void tr_build_init(struct tr_build *b, struct tr_trace *t, enum tr_unit unit);

/* Frees the builder's own memory (not the trace). */
void tr_build_done(struct tr_build *b);

/* Appends a call of kind k numbered line (fields 0; peer, rpeer, root and
 * index -1; start and end the end of the previous call) and sets *i to its
 * index in t->calls. */
int tr_build_call(struct tr_build *b, enum tr_kind k, uint32_t line, size_t *i);

/* Makes list li (0..2) of call i n values long and sets *v to them (to be
 * filled before the next call of the builder). */
int tr_build_list(struct tr_build *b, size_t i, int li, uint32_t n, int64_t **v);

/* The offset of name (NUL-terminated) in t->names, added once. */
int tr_build_name(struct tr_build *b, const char *name, uint32_t *off);

/* Counts n records called name that the reader left out. */
int tr_build_skip(struct tr_build *b, const char *name, uint64_t n);

#endif
