/* trace2goal_conv.h: conversion of per-rank MPI traces into a GOAL schedule
 * (calc for the time between calls, matched sends and receives, collectives
 * replaced by schedgen patterns, extrapolation to more ranks);
 * docs/trace2goal.md describes the rules. */
#ifndef TRACE2GOAL_CONV_H
#define TRACE2GOAL_CONV_H

#include "num.h"
#include "sg_out.h"
#include "sg_pattern.h"
#include "sg_select.h"
#include "trace_read.h"

#include <stddef.h>
#include <stdint.h>

/* The classes of collectives, each replaced by one schedgen pattern.
 * X(ID, name, other names, default pattern).  ORDER T2G_COLL. */
#define T2G_COLLS(X) \
	X(BARRIER,        "barrier",        "",                          "barrier_dissemination") \
	X(BCAST,          "bcast",          "",                          "bcast_binomial") \
	X(REDUCE,         "reduce",         "",                          "reduce_binomial") \
	X(ALLREDUCE,      "allreduce",      "",                          "allreduce_dissemination") \
	X(GATHER,         "gather",         "gatherv",                   "gather_linear") \
	X(SCATTER,        "scatter",        "scatterv",                  "scatter_linear") \
	X(ALLGATHER,      "allgather",      "allgatherv",                "alltoall_linear") \
	X(ALLTOALL,       "alltoall",       "alltoallv",                 "alltoall_linear") \
	X(REDUCE_SCATTER, "reduce_scatter", "reduce_scatter_block",      "alltoall_linear") \
	X(SCAN,           "scan",           "exscan",                    "allreduce_dissemination")

/* Process groups --keep-group can name. */
#define T2G_MAX_KEEP 64

/* A linear pattern (SG_LINEAR) on more ranks than this gets a warning. */
#define T2G_LINEAR_WARN 64

enum t2g_coll {
#define T2G_COLL_ENUM(id, name, other, def) T2G_##id,
	T2G_COLLS(T2G_COLL_ENUM)
#undef T2G_COLL_ENUM
	T2G_NCOLL
};

struct t2g_options {
	double compute_scale;        /* calc times are multiplied by this (> 0) */
	uint32_t extrapolate;        /* K >= 1: the schedule has K times the ranks */
	int strict;                  /* an unsupported call is an error */
	int pattern[T2G_NCOLL];      /* schedgen pattern index per class */
	const char *select;          /* the library whose choice of algorithm
	                              * replaces a collective of a class it has
	                              * rules for (sg_select: "openmpi"), or NULL */
	uint32_t pinned;             /* classes whose pattern was given (bit c):
	                              * pattern[c] even where select has rules */
	num_dec gamma;               /* ns per byte of a local reduction, charged
	                              * by the reducing patterns (sg_params) */
	unsigned request_size;       /* liballprof request ids: 4 or 8 bytes, 0:
	                              * detected from each trace (trace_read.h) */
	uint64_t channels;           /* NCCL's patterns: channels (0: 1) and */
	sg_protocol protocol;        /* protocol (sg_pattern.h) */
	int have_channels, have_protocol; /* given: they win over select "nccl" */
	uint64_t ranks_per_node;     /* NCCL's tree and choice: nodes of K ranks (0: 1) */
	sg_nccl_system nccl;         /* select "nccl": the machine */
	double flops;                /* Chakra: a compute node of num_ops takes
	                              * num_ops / flops s (0: its duration) */
	double mem_bw;               /* Chakra: a memory node of tensor_size
	                              * bytes takes tensor_size / mem_bw ns (0:
	                              * its duration) */
	const char *keep_group[T2G_MAX_KEEP]; /* Chakra, extrapolated: process
	                              * groups that stay in their copy */
	size_t nkeep_group;
	/* Called with each warning ("FILE:LINE:COL: warning: ..."); may be NULL. */
	void (*warn)(void *ctx, const char *msg);
	void *warn_ctx;
};

/* Calls of one name skipped by a conversion. */
struct t2g_skip {
	char *name;                  /* "MPI_Win_fence" */
	uint64_t n;
};

/* Figures of a conversion (free with t2g_stats_free). */
struct t2g_stats {
	uint64_t ranks;              /* ranks of the schedule */
	uint64_t ops, sends, recvs, calcs;
	uint64_t collectives;        /* collective calls replaced (all ranks) */
	uint64_t *by_pattern;        /* of them, by the pattern that replaced
	                              * them (sg_pattern's index; npatterns) */
	size_t npatterns;
	uint64_t skipped;            /* calls skipped (unsupported, or on a
	                              * communicator without members) */
	struct t2g_skip *skip;       /* the skipped calls by name, in name order */
	size_t nskip;
	unsigned request_size;       /* largest request size of the liballprof
	                              * traces that derive request ids (0: none) */
	uint64_t calc_ns;            /* sum of all calc durations */
	uint64_t traced_ns;          /* longest Init-to-Finalize time of a traced rank */
};

/* Defaults: scale 1, no extrapolation, not strict, Open MPI's choice
 * where it has rules, else the default pattern of each class (the last
 * column of T2G_COLLS). */
void t2g_options_default(struct t2g_options *o);

/* The name of class c, or NULL. */
const char *t2g_coll_name(int c);

/* The class called name (a name or other name of T2G_COLLS, ASCII case
 * ignored), or -1. */
int t2g_coll_find(const char *name);

/* The choice of o->select (openmpi, mpich, nccl: on nodes of
 * o->ranks_per_node, on the machine o->nccl) for the collective lib_cls
 * on p->nranks ranks and p->size bytes into *ch: 0, or -1 when there is
 * none (no library, or none of its rules for the class). */
int t2g_select(const struct t2g_options *o, const char *lib_cls, const sg_params *p, sg_choice *ch);

/* The pattern for a collective of class cls (lib_cls: its name in the
 * library's rules) on p->nranks ranks and p->size bytes: the library's
 * choice where o->select has rules and cls is not pinned (its fan-out,
 * and NCCL's protocol and channels unless given, into p), else
 * o->pattern[cls]; p->ranks_per_node is o's. */
int t2g_pick_pattern(const struct t2g_options *o, int cls, const char *lib_cls, sg_params *p);

/* One rank's part of a collective's pattern, generated apart: its ops
 * with the comm the pattern gave each, its dependencies, and its ends:
 * flag[k] bit 0 when op k has a dependency inside the pattern, bit 1
 * when it has a dependent; the entry ops (no dependency) and exit ops
 * (no dependent), the first entry and the last exit.  Reused from one
 * collective to the next; free with t2g_pat_free. */
struct t2g_pat {
	struct t2g_pop { goal_op op; uint32_t comm; } *ops;
	size_t nops, capops;
	struct t2g_pdep { uint32_t a, b; int ireq; } *deps;
	size_t ndeps, capdeps;
	uint8_t *flag;
	size_t capflag;
	size_t nentry, nexit, first, last;
};

/* Rank me of pattern pat with parameters p (sg_generate_rank checks them)
 * into *pt.  0,
 * or -1 with the pattern's message (no prefix) in err. */
int t2g_pat_generate(struct t2g_pat *pt, int pat, const sg_params *p, uint64_t me,
                     char *err, size_t errlen);
void t2g_pat_free(struct t2g_pat *pt);

/* Frees the name list of *st. */
void t2g_stats_free(struct t2g_stats *st);

/* Where the per-rank traces come from: read(ctx, r, to, t, path, ...)
 * reads the trace of rank r (0 <= r < nranks) into *t (freed with tr_free
 * by the conversion) and sets *path to the file named in messages about it;
 * it returns 0, or -1 with "FILE...: error: ..." in err.  A trace that
 * gives its rank or world size (tr_trace.rank, .size) must agree. */
struct t2g_source {
	size_t nranks;
	int (*read)(void *ctx, size_t r, const struct tr_options *to, struct tr_trace *t,
	            const char **path, char *err, size_t errlen);
	void *ctx;
};

/* Converts the traces of src into out, which must be open for
 * src->nranks * opt->extrapolate ranks and is not closed here.  Reads one
 * trace at a time (each trace again for every copy of an extrapolation).
 * Fills *st (may be NULL).  Returns 0, or -1 with a message
 * ("FILE:LINE:COL: error: ..." where a trace line is at fault, "FILE: error:
 * record N: ..." or "FILE: error: event N: ..." for binary traces, else
 * "error: ...") in err. */
int t2g_convert_source(const struct t2g_source *src, const struct t2g_options *opt,
                       sg_out *out, struct t2g_stats *st, char *err, size_t errlen);

/* t2g_convert_source for the text trace files paths[0..n) (paths[r] is the
 * trace of rank r, read by tr_read_file). */
int t2g_convert(const char *const *paths, size_t n, const struct t2g_options *opt,
                sg_out *out, struct t2g_stats *st, char *err, size_t errlen);

#endif
