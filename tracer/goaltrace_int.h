/* goaltrace_int.h: what the files of the tracer share, private to them
 * (hidden in libgoaltrace.so, whose symbols are the MPI functions it
 * wraps): the clock, argument encoding and records.  goaltrace.c holds
 * the state, the records, setup and the wrappers of the other calls;
 * goaltrace_coll.c the wrappers of the collectives. */
#ifndef GOALTRACE_INT_H
#define GOALTRACE_INT_H

#include <mpi.h>

#include <stddef.h>
#include <stdint.h>
#include <time.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#include "trace_write.h"

/* CLOCK_MONOTONIC in nanoseconds. */
static inline uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#pragma GCC visibility push(hidden)
extern int gt_tsc;   /* the records' clock is the TSC (set at MPI_Init) */
#pragma GCC visibility pop

/* The records' clock: the TSC where it runs at a constant rate (x86-64
 * with an invariant TSC, unless GOALTRACE_CLOCK=monotonic), else
 * CLOCK_MONOTONIC in ns.  A TSC read costs a third of a clock_gettime;
 * the records' ticks become CLOCK_MONOTONIC ns when they are written
 * (docs/traces.md, "Clock"). */
static inline uint64_t now(void)
{
#if defined(__x86_64__)
	if (gt_tsc)
		return __rdtsc();
#endif
	return now_ns();
}

static inline uint64_t h_ptr(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

static inline uint64_t s64(int64_t v)
{
	return (uint64_t)v;
}

#pragma GCC visibility push(hidden)

/* Returns room for a record of kind whose lists hold at most list values
 * each, or NULL if not tracing. */
uint64_t *gt_rec_open(enum tr_kind kind, size_t list);

/* Ends a record with its communicator, and, for a nonblocking call (req
 * not NULL), its request after it; closes the record. */
void gt_rec_end(uint64_t *w, size_t i, MPI_Comm comm, const MPI_Request *req,
                uint64_t t0, uint64_t t1);

/* Put "b n d" (a buffer, its count and datatype), "d" (a datatype) and "A"
 * (a count array: pointer, n, values; n = 0 if counts is NULL) at w[i];
 * return the next index. */
size_t gt_put_buf(uint64_t *w, size_t i, const void *buf, int count, MPI_Datatype dt);
size_t gt_put_dtype(uint64_t *w, size_t i, MPI_Datatype t);
size_t gt_put_counts(uint64_t *w, size_t i, const int *counts, int n);

/* liballprof's number of a predefined op, else the op's handle. */
uint64_t gt_op_id(MPI_Op o);

/* The size of communicator c, and this rank's rank in it. */
int gt_comm_size(MPI_Comm c);
int gt_comm_rank(MPI_Comm c);

#pragma GCC visibility pop

#endif
