/* sg_out.h: schedgen's output: one stream of ranks, ops and dependencies
 * written either as GOAL text or directly as the binary format. */
#ifndef SG_OUT_H
#define SG_OUT_H

#include "goal.h"

#include <stddef.h>
#include <stdint.h>

typedef enum sg_format {
	SG_TEXT,   /* GOAL text, canonical labels l1, l2, ... */
	SG_BINARY, /* the binary format of goal.h */
	SG_SINK    /* calls the caller's functions (sg_out_open_sink) */
} sg_format;

/* The caller's functions of an SG_SINK output: an op with its comm (the
 * value given to sg_out_op_comm; its index in the rank is the number of ops
 * passed before it since the rank began) and a dependency.  They return 0,
 * or -1 to stop (the output then fails with the message the function wrote
 * into err, errlen bytes). */
typedef struct sg_sink {
	int (*op)(void *ctx, const goal_op *op, uint32_t comm, char *err, size_t errlen);
	int (*dep)(void *ctx, uint32_t a, uint32_t b, int irequires, char *err, size_t errlen);
	void *ctx;
} sg_sink;

/* The writer (opaque). */
typedef struct sg_out sg_out;

/* Open the output, written safely (util/out.h: a failed output leaves
 * path as it was).  path "-" means standard output.  comment (may be
 * NULL) is written as a first "// ..." line of a text file.  Returns the
 * output, or NULL with a message in err (errlen bytes): "PATH: error: ..."
 * or "error: out of memory". */
sg_out *sg_out_open(const char *path, sg_format format, uint64_t nranks,
                    const char *comment, char *err, size_t errlen);

/* Open an output that passes ops and dependencies to sink's functions
 * (which are not called for ranks: the caller knows where a rank begins).
 * sg_out_rank_begin restarts the op count; sg_out_close only frees.
 * Returns NULL only when out of memory. */
sg_out *sg_out_open_sink(const sg_sink *sink);

/* Once a call below has failed (returned -1), every later one fails too;
 * sg_out_error says why. */

/* Begin rank r (ranks come in order 0..nranks-1).  Returns 0 or -1. */
int sg_out_rank_begin(sg_out *o, uint64_t r);

/* Append an op to the current rank; its index in the rank is stored in
 * *index (may be NULL).  Returns 0 or -1. */
int sg_out_op(sg_out *o, const goal_op *op, uint32_t *index);

/* The same in comm (0 .. GOAL_MAX_COMM): a send or recv with a comm other
 * than 0 is written "comm C" (text) or through the comm table (binary), or
 * passed on to a sink's op function.  sg_out_op is this in comm 0. */
int sg_out_op_comm(sg_out *o, const goal_op *op, uint32_t comm, uint32_t *index);

/* The same, strided (docs/goal.md, `stride D block B`): stride 0 for a
 * contiguous message; else a send or recv with 1 <= block <= stride <=
 * GOAL_MAX_STRIDE.  A sink's op function is not told the stride. */
int sg_out_op_stride(sg_out *o, const goal_op *op, uint32_t comm, uint32_t stride,
                     uint32_t block, uint32_t *index);

/* From now on every send and recv of at least one byte that sg_out_op or
 * sg_out_op_comm writes is strided (stride 0: contiguous again). */
void sg_out_set_stride(sg_out *o, uint32_t stride, uint32_t block);

/* From now on ops may have labels of their own (sg_out_op_label): the
 * others get their canonical labels l1, l2, ... (a rank with other labels
 * needs them for its dependencies).  A text output keeps the current
 * rank's labels for its dependency lines. */
void sg_out_set_labels(sg_out *o);

/* sg_out_op_comm with a label: a GOAL label (docs/goal.md) that no other
 * op of the rank has and that is not of the form l<N> (NULL: none).  Needs
 * sg_out_set_labels.  A sink is not told the label. */
int sg_out_op_label(sg_out *o, const goal_op *op, uint32_t comm, const char *label,
                    uint32_t *index);

/* "a requires b" (irequires 0) or "a irequires b" in the current rank.
 * Returns 0 or -1. */
int sg_out_dep(sg_out *o, uint32_t a, uint32_t b, int irequires);

/* Finish the current rank.  Returns 0 or -1. */
int sg_out_rank_end(sg_out *o);

/* The number of ops in the current rank so far (the index of the next). */
uint32_t sg_out_nops(const sg_out *o);

/* The message of o's failure (possibly "" for a sink's), or NULL if no
 * call on o has failed. */
const char *sg_out_error(const sg_out *o);

/* Finish and close the output, and free o.  Returns 0, or -1 with the
 * message in err (errlen bytes; err may be NULL if errlen is 0) and a
 * partial output file removed. */
int sg_out_close(sg_out *o, char *err, size_t errlen);

/* Give up: free o and remove a partial output file. */
void sg_out_abort(sg_out *o);

/* The format a path asks for: binary for "*.bin", text otherwise. */
sg_format sg_format_of_path(const char *path);

#endif
