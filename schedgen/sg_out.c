/* sg_out.c: schedgen's output stream, as GOAL text or binary. */
#include "sg_out.h"

#include "out.h"
#include "util.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TEXT_BUF (1u << 20)  /* text buffer; a line is far shorter than TEXT_MARGIN */
#define TEXT_MARGIN 1024u

struct sg_out {
	sg_format format;
	goal_writer *w;        /* SG_BINARY */
	util_out uo;           /* SG_TEXT */
	char *buf;             /* text line buffer */
	size_t len;
	sg_sink sink;          /* SG_SINK */
	uint32_t nops;         /* ops in the current rank */
	uint32_t stride, block; /* sg_out_set_stride */
	int labels;            /* sg_out_set_labels */
	const char *label;     /* the next op's (sg_out_op_label), or NULL */
	char *lab;             /* SG_TEXT: the rank's labels, NUL-terminated */
	size_t nlab, caplab;
	uint32_t *laboff;      /* per op: 1 + its label's offset in lab, 0: l<i+1> */
	size_t caplaboff;
	int failed;
	char err[512];
};

static int oerr(sg_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int oerr(sg_out *o, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(o->err, sizeof o->err, fmt, ap);
	va_end(ap);
	o->failed = 1;
	return -1;
}

sg_format sg_format_of_path(const char *path)
{
	size_t n = strlen(path);
	return n >= 4 && strcmp(path + n - 4, ".bin") == 0 ? SG_BINARY : SG_TEXT;
}

static const char *tname(const sg_out *o)
{
	return strcmp(o->uo.path, "-") ? o->uo.path : "<stdout>";
}

/* Write the buffered text out. */
static int text_flush(sg_out *o)
{
	if (o->len && fwrite(o->buf, 1, o->len, o->uo.f) != o->len)
		return oerr(o, "%s: error: cannot write: %s", tname(o), strerror(errno));
	o->len = 0;
	return 0;
}

/* Append a string; the caller has made room (at most TEXT_MARGIN per line). */
static void put_str(sg_out *o, const char *s, size_t n)
{
	memcpy(o->buf + o->len, s, n);
	o->len += n;
}
#define PUT_LIT(o, s) put_str((o), (s), sizeof(s) - 1)

static void put_u64(sg_out *o, uint64_t v)
{
	o->len = (size_t)(util_put_u64(o->buf + o->len, v) - o->buf);
}

static void put_i32(sg_out *o, int32_t v)
{
	if (v < 0) {
		PUT_LIT(o, "-");
		put_u64(o, (uint64_t)(-(int64_t)v));
	} else {
		put_u64(o, (uint64_t)v);
	}
}

static int text_room(sg_out *o)
{
	return o->len + TEXT_MARGIN > TEXT_BUF ? text_flush(o) : 0;
}

/* Frees o after a failed open; returns NULL. */
static sg_out *open_fail(sg_out *o, char *err, size_t errlen, const char *msg)
{
	snprintf(err, errlen, "%s", msg);
	if (o)
		free(o->buf);
	free(o);
	return NULL;
}

sg_out *sg_out_open(const char *path, sg_format format, uint64_t nranks,
                    const char *comment, char *err, size_t errlen)
{
	char msg[512];
	sg_out *o = calloc(1, sizeof *o);
	if (!o)
		return open_fail(o, err, errlen, "error: out of memory");
	o->format = format;
	if (format == SG_BINARY) {
		o->w = goal_writer_create(path, nranks, msg, sizeof msg);
		return o->w ? o : open_fail(o, err, errlen, msg);
	}
	o->buf = malloc(TEXT_BUF);
	if (!o->buf)
		return open_fail(o, err, errlen, "error: out of memory");
	if (util_out_open(&o->uo, path, NULL, 0, 0, msg, sizeof msg))
		return open_fail(o, err, errlen, msg);
	if (comment) {
		size_t n = strlen(comment);
		if (n > TEXT_BUF - TEXT_MARGIN)
			n = TEXT_BUF - TEXT_MARGIN;
		PUT_LIT(o, "// ");
		put_str(o, comment, n);
		PUT_LIT(o, "\n");
	}
	PUT_LIT(o, "num_ranks ");
	put_u64(o, nranks);
	PUT_LIT(o, "\n");
	return o;
}

sg_out *sg_out_open_sink(const sg_sink *sink)
{
	sg_out *o = calloc(1, sizeof *o);
	if (!o)
		return NULL;
	o->format = SG_SINK;
	o->sink = *sink;
	return o;
}

uint32_t sg_out_nops(const sg_out *o)
{
	return o->nops;
}

const char *sg_out_error(const sg_out *o)
{
	return o->failed ? o->err : NULL;
}

int sg_out_rank_begin(sg_out *o, uint64_t r)
{
	if (o->failed)
		return -1;
	o->nops = 0;
	o->nlab = 0;
	if (o->format == SG_SINK)
		return 0;
	if (o->format == SG_BINARY) {
		if (goal_writer_rank_begin(o->w))
			return oerr(o, "error: %s", goal_writer_error(o->w));
		return 0;
	}
	if (text_room(o))
		return -1;
	PUT_LIT(o, "\nrank ");
	put_u64(o, r);
	PUT_LIT(o, " {\n");
	return 0;
}

/* Op i's label: its own, else "l<i+1>". */
static void put_label(sg_out *o, uint32_t i)
{
	if (o->labels && o->laboff[i]) {
		const char *l = o->lab + o->laboff[i] - 1;
		put_str(o, l, strlen(l));
		return;
	}
	PUT_LIT(o, "l");
	put_u64(o, (uint64_t)i + 1);
}

void sg_out_set_labels(sg_out *o)
{
	o->labels = 1;
}

int sg_out_op_label(sg_out *o, const goal_op *op, uint32_t comm, const char *label,
                    uint32_t *index)
{
	o->label = label;
	int rc = sg_out_op_comm(o, op, comm, index);
	o->label = NULL;
	return rc;
}

/* Op nops's label (o->label, or none) in the text output's table.  0 or -1. */
static int keep_label(sg_out *o)
{
	size_t len = o->label ? strlen(o->label) + 1 : 0;
	if (util_grow(&o->laboff, &o->caplaboff, (size_t)o->nops + 1, sizeof *o->laboff)
	    || (len && (o->nlab + len >= UINT32_MAX
	                || util_grow(&o->lab, &o->caplab, o->nlab + len, 1))))
		return oerr(o, "error: out of memory");
	o->laboff[o->nops] = len ? (uint32_t)o->nlab + 1 : 0;
	if (len)
		memcpy(o->lab + o->nlab, o->label, len);
	o->nlab += len;
	return 0;
}

int sg_out_op(sg_out *o, const goal_op *op, uint32_t *index)
{
	return sg_out_op_comm(o, op, 0, index);
}

void sg_out_set_stride(sg_out *o, uint32_t stride, uint32_t block)
{
	o->stride = stride;
	o->block = block;
}

int sg_out_op_comm(sg_out *o, const goal_op *op, uint32_t comm, uint32_t *index)
{
	int strided = o->stride && op->kind != GOAL_CALC && op->size;
	return sg_out_op_stride(o, op, comm, strided ? o->stride : 0, o->block, index);
}

int sg_out_op_stride(sg_out *o, const goal_op *op, uint32_t comm, uint32_t stride,
                     uint32_t block, uint32_t *index)
{
	if (o->failed)
		return -1;
	if (comm > GOAL_MAX_COMM || (comm && op->kind == GOAL_CALC))
		return oerr(o, "error: a %s with comm %" PRIu32 " (a send or recv takes 0..%u, a calc 0)",
		            op->kind < GOAL_NKINDS ? goal_kind_name[op->kind] : "op", comm, GOAL_MAX_COMM);
	if (stride && (op->kind == GOAL_CALC || block == 0 || block > stride || stride > GOAL_MAX_STRIDE))
		return oerr(o, "error: a %s with stride %" PRIu32 " and block %" PRIu32
		            " (a send or recv takes 1 <= block <= stride <= %u)",
		            op->kind < GOAL_NKINDS ? goal_kind_name[op->kind] : "op", stride, block,
		            GOAL_MAX_STRIDE);
	if (o->format == SG_BINARY) {
		char canon[24];
		const char *l = o->label;
		size_t len = l ? strlen(l) : 0;
		if (!l && o->labels) {
			canon[0] = 'l';
			len = (size_t)(util_put_u64(canon + 1, (uint64_t)o->nops + 1) - canon);
			l = canon;
		}
		if (goal_writer_op_comm(o->w, op, comm, l, len, index)
		    || (stride && goal_writer_stride(o->w, stride, block)))
			return oerr(o, "error: %s", goal_writer_error(o->w));
		o->nops++;
		return 0;
	}
	if (o->nops >= GOAL_MAX_RANK_OPS)
		return oerr(o, "error: a rank has more than %u ops", GOAL_MAX_RANK_OPS);
	if (o->format == SG_SINK) {
		if (o->sink.op(o->sink.ctx, op, comm, o->err, sizeof o->err)) {
			o->failed = 1;
			return -1;
		}
		if (index)
			*index = o->nops;
		o->nops++;
		return 0;
	}
	if (text_room(o) || (o->labels && keep_label(o)))
		return -1;
	put_label(o, o->nops);
	PUT_LIT(o, ": ");
	switch ((goal_kind)op->kind) {
	case GOAL_SEND:
	case GOAL_RECV:
		if (op->kind == GOAL_SEND)
			PUT_LIT(o, "send ");
		else
			PUT_LIT(o, "recv ");
		put_u64(o, op->size);
		if (op->kind == GOAL_SEND)
			PUT_LIT(o, "b to ");
		else
			PUT_LIT(o, "b from ");
		if (op->peer == GOAL_ANY_SOURCE)
			PUT_LIT(o, "-1");
		else
			put_u64(o, op->peer);
		PUT_LIT(o, " tag ");
		put_i32(o, op->tag);
		if (comm) {
			PUT_LIT(o, " comm ");
			put_u64(o, comm);
		}
		if (stride) {
			PUT_LIT(o, " stride ");
			put_u64(o, stride);
			if (block != GOAL_DEFAULT_BLOCK) {
				PUT_LIT(o, " block ");
				put_u64(o, block);
			}
		}
		if (op->nic) {
			PUT_LIT(o, " nic ");
			put_u64(o, op->nic);
		}
		break;
	case GOAL_CALC:
	case GOAL_NKINDS:
	default:
		PUT_LIT(o, "calc ");
		put_u64(o, op->size);
		break;
	}
	if (op->cpu) {
		PUT_LIT(o, " cpu ");
		put_u64(o, op->cpu);
	}
	PUT_LIT(o, "\n");
	if (index)
		*index = o->nops;
	o->nops++;
	return 0;
}

int sg_out_dep(sg_out *o, uint32_t a, uint32_t b, int irequires)
{
	if (o->failed)
		return -1;
	if (o->format == SG_BINARY) {
		if (goal_writer_dep(o->w, a, b, irequires))
			return oerr(o, "error: %s", goal_writer_error(o->w));
		return 0;
	}
	if (o->format == SG_SINK) {
		if (o->sink.dep(o->sink.ctx, a, b, irequires, o->err, sizeof o->err)) {
			o->failed = 1;
			return -1;
		}
		return 0;
	}
	if (text_room(o))
		return -1;
	put_label(o, a);
	if (irequires)
		PUT_LIT(o, " irequires ");
	else
		PUT_LIT(o, " requires ");
	put_label(o, b);
	PUT_LIT(o, "\n");
	return 0;
}

int sg_out_rank_end(sg_out *o)
{
	if (o->failed)
		return -1;
	if (o->format == SG_SINK)
		return 0;
	if (o->format == SG_BINARY) {
		if (goal_writer_rank_end(o->w))
			return oerr(o, "error: %s", goal_writer_error(o->w));
		return 0;
	}
	if (text_room(o))
		return -1;
	PUT_LIT(o, "}\n");
	return 0;
}

/* Finishes the output file (removed if o failed); returns 0 or -1. */
static int finish(sg_out *o)
{
	if (o->format == SG_SINK)
		return o->failed ? -1 : 0;
	if (o->format == SG_BINARY) {
		int rc = 0;
		if (o->failed) {
			goal_writer_abort(o->w);
			return -1;
		}
		if (goal_writer_finish(o->w)) {
			oerr(o, "%s", goal_writer_error(o->w));
			rc = -1;
		}
		if (goal_writer_close(o->w))
			rc = -1;
		return rc;
	}
	if (!o->failed)
		text_flush(o);
	if (o->failed) {
		util_out_abort(&o->uo);
	} else {
		char err[1024];
		if (util_out_close(&o->uo, err, sizeof err))
			oerr(o, "%s", err);
	}
	free(o->buf);
	return o->failed ? -1 : 0;
}

/* What every format may hold. */
static void free_all(sg_out *o)
{
	free(o->lab);
	free(o->laboff);
	free(o);
}

int sg_out_close(sg_out *o, char *err, size_t errlen)
{
	int rc = finish(o);
	if (rc && errlen)
		snprintf(err, errlen, "%s", o->err);
	free_all(o);
	return rc;
}

void sg_out_abort(sg_out *o)
{
	o->failed = 1;
	sg_out_close(o, NULL, 0);
}
