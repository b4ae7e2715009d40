/* trace_read.h: reads one rank's MPI trace file (goaltrace or liballprof
 * dialect, docs/traces.md) into a compact array of call records. */
#ifndef TRACE_READ_H
#define TRACE_READ_H

#include <stddef.h>
#include <stdint.h>

#include "trace_kinds.h"

enum tr_dialect {
	TR_DIALECT_LIBALLPROF = 0, /* no "# goaltrace" header line */
	TR_DIALECT_GOALTRACE = 1
};

/* Record flags. */
#define TR_F_NO_START 1u  /* start time was "-" (start = end) */
#define TR_F_NO_END 2u    /* end time was "-" (end = start) */
#define TR_F_STATUS 4u    /* st_* hold the status of the call */
#define TR_F_DERIVED 8u   /* list[0] = request ids derived from an array address */
#define TR_F_NODATA 16u   /* the trace records the call but not what it
                           * communicates (no communicator, peer or size):
                           * the conversion skips it (binary formats) */

/* What tr_call.line counts, for messages: a line of a text trace
 * ("FILE:LINE:1: error: ..."), or a record of a binary trace ("FILE: error:
 * record N: ...") or an event of an OTF2 location ("FILE: error: event N:
 * ..."). */
enum tr_unit {
	TR_UNIT_LINE = 0,
	TR_UNIT_RECORD = 1,
	TR_UNIT_EVENT = 2
};

/* Records of a trace that are not MPI calls and were left out by the reader
 * (counted by name, for trace2goal --stats). */
struct tr_skip {
	uint32_t name;         /* offset of its name in tr_trace.names */
	uint64_t n;
};

/* One traced call.  Fields a call does not have are 0 (peer, rpeer, root,
 * index: -1).  Times are microseconds on the trace's clock.
 *   point to point: peer/tag/bytes (send side or the only side), rpeer/
 *     rtag/rbytes (receive side of Sendrecv*), req (Isend/Irecv/Wait/Test/
 *     Request_free/Cancel: the request id)
 *   completion calls (Wait*, Test*): nreq and list[0] = request ids (in the
 *     liballprof dialect: address of the array + i * request size), flag
 *     (Test*: completed; *some: outcount), index (*any), list[1] = indices
 *     (*some), list[2] = statuses as (source, tag, bytes) triples, in
 *     request order for *all and in index order for *some
 *   collectives: bytes = count * type size sent by this rank, rbytes =
 *     received per peer; root; list[0] and list[1] = send and receive bytes
 *     per peer for the v variants (list[0] = receive bytes per rank for
 *     Reduce_scatter; the goaltrace dialect only)
 *   communicators: comm/comm_rank/comm_size of the call; newcomm (Split,
 *     Dup, Create: the new handle, 0 for MPI_COMM_NULL; Free: the freed
 *     handle; goaltrace only); color/key (Split)
 *   TR_COMMDEF: newcomm = handle, list[0] = the world ranks of its members
 *     in rank order (written by goaltrace after every communicator creation
 *     and for MPI_COMM_WORLD and MPI_COMM_SELF at MPI_Init)
 *   TR_OTHER: any other call; name = offset of its name in tr_trace.names
 *   line: the line of the call in a text trace, else the number (from 1)
 *     of its record or event (tr_trace.unit)
 *   paused: microseconds the recorder spent writing its buffer out ("#
 *     flush: START END" lines) since the end of the previous call: not
 *     the program's time (a flush line comes before the record of the
 *     call after which it happened; its time goes to the first call that
 *     starts after the flush began) */
struct tr_call {
	uint16_t kind;         /* enum tr_kind */
	uint16_t flags;        /* TR_F_* */
	uint32_t line;         /* line number in the file */
	double start, end;
	int32_t peer, tag, rpeer, rtag;
	int64_t bytes, rbytes;
	uint64_t comm;
	int32_t comm_rank, comm_size;
	uint64_t req, newcomm;
	int32_t root, color, key, nreq;
	int32_t flag, index;
	int32_t st_source, st_tag;
	int64_t st_bytes;
	uint32_t list[3], len[3]; /* offsets and lengths in tr_trace.pool */
	uint32_t name;
	double paused;
	/* The layout of the call's datatypes when the trace records one of a
	 * vector type (goaltrace: "ID,SIZE,EXTENT,STRIDE,BLOCK"): blocks of
	 * block[k] bytes, stride[k] apart; 0 and 0 otherwise.  [0]: the first
	 * datatype of the call (the send side, or the only one), [1]: the
	 * second (the receive side of Sendrecv, of most collectives). */
	uint32_t stride[2], block[2];
};

struct tr_trace {
	struct tr_call *calls;
	size_t ncalls;
	int64_t *pool;         /* list values (request ids as two's complement) */
	size_t npool;
	char *names;           /* NUL-terminated names of TR_OTHER calls */
	size_t nnames;
	enum tr_dialect dialect;
	int rank, size;        /* from "# rank:" / "# size:" lines, else -1 */
	char host[64];         /* from "# hostname:" (cut; "": none) */
	int32_t cores;         /* from "# cores:", the host's cores (0: not given) */
	uint32_t tracer_ns;    /* from "# tracer overhead: N ns per call", the
	                        * recorder's own time around each call (0: not
	                        * given) */
	uint32_t size_line;    /* line of the "# size:" line (0: none) */
	unsigned request_size; /* bytes per request of the derived request ids
	                        * (liballprof; 0 when the trace derives none) */
	uint8_t unit;          /* enum tr_unit: what tr_call.line counts */
	struct tr_skip *skips; /* records left out (not MPI calls), by name */
	size_t nskips;
};

struct tr_options {
	/* Size of MPI_Request in bytes, to derive the request ids of liballprof
	 * Waitall & co. from the array address (8 for Open MPI, 4 for MPICH);
	 * 0: detected from the trace (4 if, for some array of two or more
	 * requests at address A, A + 4 is the request address of an Isend,
	 * Ibsend, Issend, Irsend or Irecv of the trace: an 8-byte request
	 * cannot start there; else 8). */
	unsigned request_size;
};

/* Parses the trace text[0..len) (need not be NUL-terminated); fname is used
 * in error messages.  On success returns 0 and fills *t (free with
 * tr_free).  On error returns -1, leaves *t empty and writes a message
 * "fname:line:col: error: ..." into err (errlen bytes).  opt may be NULL. */
int tr_read_mem(const char *fname, const char *text, size_t len,
                const struct tr_options *opt, struct tr_trace *t,
                char *err, size_t errlen);

/* Reads and parses the file path, as tr_read_mem. */
int tr_read_file(const char *path, const struct tr_options *opt,
                 struct tr_trace *t, char *err, size_t errlen);

/* Frees what a successful read allocated (by any reader); *t becomes
 * empty. */
void tr_free(struct tr_trace *t);

/* The MPI name of a kind ("MPI_Send"), "# comm" for TR_COMMDEF and "" for
 * TR_OTHER. */
const char *tr_kind_name(enum tr_kind kind);

/* The kind called name ("MPI_Send"), or TR_OTHER. */
enum tr_kind tr_kind_find(const char *name);

/* The name of call c as written in the trace (also for TR_OTHER). */
const char *tr_call_name(const struct tr_trace *t, const struct tr_call *c);

/* Values of list i (0..2) of call c (NULL when the trace has no list
 * values at all: then every list is empty). */
static inline const int64_t *tr_list(const struct tr_trace *t,
                                     const struct tr_call *c, int i)
{
	return t->pool ? t->pool + c->list[i] : NULL;
}

#endif
