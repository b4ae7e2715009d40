/* loggp_params.h: the LogGP parameter file (docs/loggp.md): size ranges with L, o, g, G, O,
 * plus S, and the middleware costs of strided messages per stride. */
#ifndef LOGGP_PARAMS_H
#define LOGGP_PARAMS_H

#include "num.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Most size ranges of a file (and of the simulator's parameters). */
#define LOGGP_PARAMS_MAX_RANGES 64
#define LOGGP_ERRLEN 512
#define LOGGP_SIZE_INF UINT64_MAX   /* 'inf' as the last size of a range */
#define LOGGP_DEFAULT_S 65535       /* S when a file or flag gives none */
#define LOGGP_STR(x) LOGGP_STR_(x)   /* a macro's value as a string literal */
#define LOGGP_STR_(x) #x

/* The parameters of messages of first..last bytes: L, o, g in ns, G and O
 * in ns per byte, exact. */
typedef struct loggp_range {
	uint64_t first, last;
	uint64_t L, o, g;
	num_dec G, O;
} loggp_range;

/* Most strides of a file, and the largest stride. */
#define LOGGP_PARAMS_MAX_STRIDES 64
#define LOGGP_MAX_STRIDE (1ull << 31)

/* The middleware costs of strided messages (log_3 P) measured at one
 * stride: a message of s bytes whose stride is this one (or the nearest
 * measured one below its own) costs o_mw + (s-1)O_mw ns of CPU at the
 * sender and again at the receiver, and l_mw + (s-1)L_mw ns more in flight
 * (docs/semantics.md, section 10). */
typedef struct loggp_stride {
	uint64_t stride;            /* bytes, 1..LOGGP_MAX_STRIDE */
	uint64_t o_mw, l_mw;        /* ns */
	num_dec O_mw, L_mw;         /* ns per byte */
} loggp_stride;

/* Ranges in increasing order, contiguous, from 0 to LOGGP_SIZE_INF;
 * strides (possibly none) in increasing order. */
typedef struct loggp_params {
	uint64_t S;                 /* rendezvous above S bytes (LOGGP_DEFAULT_S) */
	num_dec gamma;              /* ns per byte of a local reduction (0: none
	                               given); schedgen and trace2goal charge it */
	size_t nranges;             /* 1..LOGGP_PARAMS_MAX_RANGES */
	loggp_range range[LOGGP_PARAMS_MAX_RANGES];
	size_t nstrides;            /* 0..LOGGP_PARAMS_MAX_STRIDES */
	loggp_stride stride[LOGGP_PARAMS_MAX_STRIDES];
} loggp_params;

/* Read the parameter file at path into *p.  Returns 0, or -1 with one line
 * in err: "PATH:LINE:COL: error: MESSAGE" (or "PATH: error: MESSAGE" when
 * the file cannot be read). */
int loggp_params_read(const char *path, loggp_params *p, char err[LOGGP_ERRLEN]);

/* The same for text[0..len) already in memory; name is used in messages. */
int loggp_params_parse(const char *name, const char *text, size_t len,
                       loggp_params *p, char err[LOGGP_ERRLEN]);

/* The gamma of the parameter file at path into *gamma (0 when the file has
 * none).  Returns 0, or -1 with one line in err, as loggp_params_read. */
int loggp_params_read_gamma(const char *path, num_dec *gamma, char err[LOGGP_ERRLEN]);

/* The range holding messages of size bytes (never NULL for a valid *p). */
const loggp_range *loggp_params_lookup(const loggp_params *p, uint64_t size);

/* The costs of a message with stride d: those of the largest stride of
 * *p at or below d, or NULL when there is none (no stride statement, or d
 * below the smallest). */
const loggp_stride *loggp_params_stride(const loggp_params *p, uint64_t d);

/* Fill *x from measured values: o_mw and l_mw rounded half up to integers,
 * negative values as 0, O_mw and L_mw to 5 significant digits. */
void loggp_stride_set(loggp_stride *x, uint64_t stride, double o_mw, double O_mw,
                      double l_mw, double L_mw);

/* Fill *r from measured values: L, o, g rounded half up to integers,
 * negative values as 0, G and O to 5 significant
 * digits (at most 9 fraction digits, below 2^32). */
void loggp_range_set(loggp_range *r, uint64_t first, uint64_t last, double L,
                     double o, double g, double G, double O);

/* Write *p in the file format; every line of comment (may be NULL) is
 * written first as a '# ' line.  Returns 0, or -1 on a write error. */
int loggp_params_write(FILE *f, const loggp_params *p, const char *comment);

#endif
