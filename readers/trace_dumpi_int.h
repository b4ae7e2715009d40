/* trace_dumpi_int.h: what the files of the DUMPI reader share, private to
 * them (trace_dumpi.h is the contract with everything else): the function
 * labels, a rank file in memory and its records.  trace_dumpi_rec.c
 * decodes a rank file and its records (the format is described there);
 * trace_dumpi.c follows the communicators, turns the records into calls
 * and reads a run. */
#ifndef TRACE_DUMPI_INT_H
#define TRACE_DUMPI_INT_H

#include "trace_read.h"

#include <stddef.h>
#include <stdint.h>

/* A function of DUMPI's table (trace_dumpi_rec.c): its name, the layout of
 * its arguments and the tr_kind of its calls. */
struct dfunc {
	const char *name, *layout;
	enum tr_kind kind;
};

/* The function labels are the positions in the table, NFUNCS of them. */
#define NFUNCS 290
extern const struct dfunc dumpi_funcs[NFUNCS];

/* The labels after the MPI functions: a sentinel, the entry and exit of a
 * profiled (not MPI) function (a 64-bit address each), the end of the
 * stream. */
#define LABEL_FN_ENTER (NFUNCS + 1)
#define LABEL_FN_EXIT (NFUNCS + 2)
#define LABEL_END (NFUNCS + 3)

/* Function labels of the communicator calls the reader follows. */
enum {
	F_COMM_GROUP = 72, F_GROUP_UNION, F_GROUP_INTERSECTION, F_GROUP_DIFFERENCE,
	F_GROUP_INCL, F_GROUP_EXCL, F_GROUP_RANGE_INCL, F_GROUP_RANGE_EXCL, F_GROUP_FREE,
	F_COMM_DUP = 84, F_COMM_CREATE, F_COMM_SPLIT, F_COMM_FREE,
	F_CART_CREATE = 99, F_CART_SUB = 111
};

/* ---- A rank file in memory ----------------------------------------------- */

struct dfile {
	const char *path;
	const unsigned char *p;
	size_t len;
	char *own;                /* the buffer to free (a loaded file) */
	size_t body, limit;       /* the record stream: [body, limit) */
	size_t footer;            /* 0: none */
	uint8_t ver[3];
	size_t sizes;             /* offset of the datatype sizes (past the count), 0: none */
	uint32_t nsizes;
	char *err;
	size_t errlen;
};

/* "FILE: error: MESSAGE" into f->err; returns -1. */
int dumpi_ferr(const struct dfile *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static inline uint16_t be16(const unsigned char *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t be64(const unsigned char *p)
{
	return (uint64_t)be32(p) << 32 | be32(p + 4);
}

/* Checks the magic, reads the index at the end, the version and the
 * datatype sizes.  Returns 0 or -1 (message in f->err). */
int dumpi_file_open(struct dfile *f);

/* ---- One record ----------------------------------------------------------- */

#define MAXV 16
#define MAXA 8

/* An array of a record: n values of size bytes at byte off. */
struct darr {
	size_t off;
	uint32_t n;
	uint8_t size;
};

struct drec {
	unsigned fn;
	size_t at;                  /* byte of its label */
	int has_time;
	double start, end;          /* microseconds */
	int64_t v[MAXV];            /* the scalar values in order */
	int nv;
	struct darr a[MAXA];        /* the arrays in order */
	int na;
	int has_st;                 /* statuses recorded */
	struct darr st;             /* statuses: n of size bytes each */
};

/* Reading position in the record stream. */
struct cur {
	const struct dfile *f;
	size_t pos, end;
	int cut;                    /* read past the end */
};

/* The record stream of f: *c at its first record, and its time biases
 * (seconds). */
void dumpi_stream(const struct dfile *f, struct cur *c, double *bias_cpu, double *bias_wall);

/* Reads the record at c->pos into r.  Returns 1, 0 at the end of the
 * stream, or -1 (message in f->err). */
int dumpi_next_record(struct cur *c, struct drec *r, uint32_t recno, double bias_cpu,
                      double bias_wall);

#endif
