/* trace2goal_int.h: what the files of the converter share, private to
 * them (trace2goal_conv.h is the contract with trace2goal): the
 * conversion's state and the functions that give errors and emit ops.
 * trace2goal_conv.c converts a rank's calls; trace2goal_coll.c replaces a
 * collective by the pattern of its class. */
#ifndef TRACE2GOAL_INT_H
#define TRACE2GOAL_INT_H

#include "trace2goal_conv.h"
#include "kmap.h"

#include <stddef.h>
#include <stdint.h>

#define NONE UINT32_MAX   /* no op */
#define FRONT_MAX 4       /* frontier size before it is joined by a calc 0 */

/* A communicator of the current trace. */
struct comm {
	uint64_t handle;
	uint32_t gid;            /* global id, the same on every member (ctx_p2p, ctx_coll) */
	int32_t size;
	const int64_t *members;  /* world ranks in comm rank order (in the trace's pool) */
	int64_t *own;            /* members built here (implicit communicators) */
	int dead;                /* freed or never usable */
	uint32_t nbc;            /* nonblocking collectives started on it */
};

/* A pending nonblocking operation. */
struct preq {
	uint64_t id;
	uint32_t call;           /* its call index */
	uint32_t op;             /* its op, or NONE */
	uint32_t next;           /* the next one pushed with the same id, or NONE */
};

/* Ops the current program position depends on. */
struct front {
	uint32_t op[FRONT_MAX];
	uint8_t ireq[FRONT_MAX];
	int n;
};

struct conv {
	const struct t2g_options *opt;
	sg_out *out;
	struct t2g_stats st;
	char *err;
	size_t errlen;
	int failed;
	uint64_t N, K;           /* traced ranks, copies */
	/* global */
	util_kmap comm_ids;      /* member list and occurrence -> global id */
	util_kmap tags;          /* (space, comm id, tag) -> GOAL tag */
	uint32_t ncomm_ids, ntags; /* global ids given (0 is the world's, 1.. the others'), tags */
	util_kmap pairs;         /* (src, dst, comm) -> sends minus receives (int32) */
	uint64_t anyrecv;        /* receives from any source */
	/* per output rank */
	const char *path;
	struct tr_trace t;
	uint64_t r, j, R;        /* traced rank, copy, output rank */
	struct comm *comms;
	size_t ncomms, capcomms;
	util_kmap handles;       /* communicator handle -> index in comms */
	util_kmap seen;          /* member list -> definitions so far on this rank */
	struct preq *pend;       /* in push order, completed ones too */
	size_t npend, cappend;
	util_kmap pend_ids;      /* request id -> its chain in pchain */
	struct { uint32_t head, tail; } *pchain; /* oldest live entry (or NONE), newest */
	size_t npchain, cappchain;
	int32_t *rsrc, *rtag;    /* per call: resolved source / tag of receives */
	uint8_t *cancelled;      /* per call: cancelled request */
	struct front f;
	double pending_us;
	/* The calls that make communicators: the kind of the k-th of them
	 * (as the first rank that made one gave it) and the shortest time it
	 * took on any traced rank (us; -1: the ranks' k-th calls are not of
	 * one kind); how many this rank made so far. */
	struct comm_cost {
		double us;
		uint16_t kind;
	} *comm_cost;
	size_t ncomm_cost, capcomm_cost, ncomm_made;
	/* warnings already given on this traced rank */
	util_kmap warned;
	unsigned linear_warned;  /* classes warned of a linear pattern at scale */
	uint64_t p2p_calls;      /* point-to-point sends and receives converted */
	/* the hosts of the traced ranks that say their cores: ranks on each */
	struct host {
		char name[sizeof ((struct tr_trace *)0)->host];
		int32_t cores;
		uint64_t ranks;
	} *hosts;
	size_t nhosts, caphosts;
	size_t skip_cap;        /* of st.skip */
	/* collective buffer */
	struct t2g_pat pat;          /* the collective being emitted */
};

/* The comm of the point-to-point messages on communicator m, and that of
 * its collectives: every communicator has two contexts of its own, and
 * MPI_COMM_WORLD's point-to-point messages are in comm 0. */
static inline uint32_t ctx_p2p(const struct comm *m)
{
	return 2 * m->gid;
}

static inline uint32_t ctx_coll(const struct comm *m)
{
	return 2 * m->gid + 1;
}

/* Records the first error of the conversion in cv->err; returns -1. */
int t2g_cerr(struct conv *cv, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* An error at call c of the current trace; returns -1. */
int t2g_call_err(struct conv *cv, const struct tr_call *c, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Call c names a negative size, bytes (a count below 0, as a damaged
 * trace may hold): an error under --strict (-1), else a warning once per
 * rank and 0 bytes (0). */
int t2g_negative_size(struct conv *cv, const struct tr_call *c, int64_t bytes);

/* The output failed: its message becomes the error; returns -1. */
int t2g_out_fail(struct conv *cv);

/* Appends op in comm, strided when stride is not 0 (blocks of block
 * bytes); it depends on the frontier.  Returns its index or NONE. */
uint32_t t2g_emit_st(struct conv *cv, const goal_op *op, uint32_t comm, uint32_t stride,
                     uint32_t block);

/* Appends a calc of ns nanoseconds after the frontier; its index or NONE. */
uint32_t t2g_emit_calc(struct conv *cv, uint64_t ns);

/* The frontier becomes the single op i (requires, or irequires). */
void t2g_front_set(struct conv *cv, uint32_t i, int ireq);

/* Adds "requires i" to the frontier (joining it first when full). */
void t2g_front_add(struct conv *cv, uint32_t i);

/* The communicator of call c, or NULL (with a warning, or an error) when
 * it cannot be used. */
struct comm *t2g_comm_of(struct conv *cv, const struct tr_call *c);

/* The GOAL tag of (space, communicator, tag): numbered in order of first
 * use.  Space 0: point-to-point tags; 1: collective rounds. */
int32_t t2g_goal_tag(struct conv *cv, uint32_t space, uint32_t gid, int64_t tag);

/* The class of a traced collective, or -1 for other calls. */
int t2g_coll_class(enum tr_kind k);

/* Replaces collective c (of class cls) by its pattern (trace2goal_coll.c);
 * done: NULL for a blocking call, else where the op that the completion
 * of its request waits for goes.  Returns 0, or -1 with the error. */
int t2g_collective(struct conv *cv, const struct tr_call *c, int cls, uint32_t *done);

#endif
