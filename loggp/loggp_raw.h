/* loggp_raw.h: the table of measured PRTT times (one line per size), written by loggp-measure --raw and read by loggp-fit. */
#ifndef LOGGP_RAW_H
#define LOGGP_RAW_H

#include <stddef.h>
#include <stdio.h>

#include "loggp_fit.h"
#include "loggp_params.h"

/* Write n and the points, then the strided points (nsp may be 0); returns
 * 0 or -1 on a write error. */
int loggp_raw_write(FILE *f, unsigned n, const loggp_point *pts, size_t np,
                    const loggp_spoint *spts, size_t nsp);

/* Read the table at path: *pts and *spts are allocated (free them), *np,
 * *nsp and *n set (spts may be NULL: the strided lines are then checked and
 * dropped).  Returns 0, or -1 with "PATH:LINE:COL: error: MESSAGE" in err. */
int loggp_raw_read(const char *path, unsigned *n, loggp_point **pts, size_t *np,
                   loggp_spoint **spts, size_t *nsp, char err[LOGGP_ERRLEN]);

#endif
