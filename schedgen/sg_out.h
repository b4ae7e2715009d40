/* sg_out.h: schedgen's output: one stream of ranks, ops and dependencies
 * written either as GOAL text or directly as the binary format. */
#ifndef SG_OUT_H
#define SG_OUT_H

#include "goal.h"
#include "out.h"

#include <stdint.h>
#include <stdio.h>

typedef enum sg_format {
	SG_TEXT,   /* GOAL text, canonical labels l1, l2, ... */
	SG_BINARY, /* the binary format of goal.h */
	SG_SINK    /* calls the caller's functions (sg_out_open_sink) */
} sg_format;

/* The caller's functions of an SG_SINK output: an op (its index in the
 * rank is the number of ops passed before it since the rank began) and a
 * dependency.  They return 0, or -1 to stop (the output then fails with the
 * message the function wrote into err, errlen bytes). */
typedef struct sg_sink {
	int (*op)(void *ctx, const goal_op *op, char *err, size_t errlen);
	int (*dep)(void *ctx, uint32_t a, uint32_t b, int irequires, char *err, size_t errlen);
	void *ctx;
} sg_sink;

/* The writer.  Fields are private to sg_out.c. */
typedef struct sg_out {
	sg_format format;
	goal_writer *w;        /* SG_BINARY */
	util_out uo;           /* SG_TEXT */
	char *buf;             /* text line buffer */
	size_t len;
	sg_sink sink;          /* SG_SINK */
	uint32_t nops;         /* ops in the current rank */
	int failed;
	char err[512];
} sg_out;

/* Open the output, written safely (util/out.h: a failed output leaves
 * path as it was).  path "-" means standard output.  comment (may be
 * NULL) is written as a first "// ..." line of a text file.  Returns 0, or
 * -1 with a message "PATH: error: ..." in o->err. */
int sg_out_open(sg_out *o, const char *path, sg_format format, uint64_t nranks,
                const char *comment);

/* Open an output that passes ops and dependencies to sink's functions
 * (which are not called for ranks: the caller knows where a rank begins).
 * sg_out_rank_begin restarts the op count; sg_out_close only frees. */
void sg_out_open_sink(sg_out *o, const sg_sink *sink);

/* Begin rank r (ranks come in order 0..nranks-1). */
int sg_out_rank_begin(sg_out *o, uint64_t r);

/* Append an op to the current rank; its index in the rank is stored in
 * *index.  Returns 0 or -1 (o->err set). */
int sg_out_op(sg_out *o, const goal_op *op, uint32_t *index);

/* "a requires b" (irequires 0) or "a irequires b" in the current rank. */
int sg_out_dep(sg_out *o, uint32_t a, uint32_t b, int irequires);

/* Finish the current rank. */
int sg_out_rank_end(sg_out *o);

/* Finish and close the output.  Returns 0, or -1 (o->err set; a partial
 * output file is removed). */
int sg_out_close(sg_out *o);

/* Give up: free everything and remove a partial output file. */
void sg_out_abort(sg_out *o);

/* The format a path asks for: binary for "*.bin", text otherwise. */
sg_format sg_format_of_path(const char *path);

#endif
