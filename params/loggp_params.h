/* loggp_params.h: the LogGP parameter file (docs/loggp.md): size ranges with L, o, g, G, O, plus S. */
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

/* Ranges in increasing order, contiguous, from 0 to LOGGP_SIZE_INF. */
typedef struct loggp_params {
	uint64_t S;                 /* rendezvous above S bytes (LOGGP_DEFAULT_S) */
	size_t nranges;             /* 1..LOGGP_PARAMS_MAX_RANGES */
	loggp_range range[LOGGP_PARAMS_MAX_RANGES];
} loggp_params;

/* Read the parameter file at path into *p.  Returns 0, or -1 with one line
 * in err: "PATH:LINE:COL: error: MESSAGE" (or "PATH: error: MESSAGE" when
 * the file cannot be read). */
int loggp_params_read(const char *path, loggp_params *p, char err[LOGGP_ERRLEN]);

/* The same for text[0..len) already in memory; name is used in messages. */
int loggp_params_parse(const char *name, const char *text, size_t len,
                       loggp_params *p, char err[LOGGP_ERRLEN]);

/* The range holding messages of size bytes (never NULL for a valid *p). */
const loggp_range *loggp_params_lookup(const loggp_params *p, uint64_t size);

/* Fill *r from measured values: L, o, g rounded half up to integers,
 * negative values as 0, G and O to 5 significant
 * digits (at most 9 fraction digits, below 2^32). */
void loggp_range_set(loggp_range *r, uint64_t first, uint64_t last, double L,
                     double o, double g, double G, double O);

/* Write *p in the file format; every line of comment (may be NULL) is
 * written first as a '# ' line.  Returns 0, or -1 on a write error. */
int loggp_params_write(FILE *f, const loggp_params *p, const char *comment);

#endif
