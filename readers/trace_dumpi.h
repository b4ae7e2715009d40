/* trace_dumpi.h: reads MPI traces in SST-DUMPI's binary format (a text
 * .meta file naming one big-endian .bin file per rank) into struct tr_trace
 * (trace_read.h), one rank at a time.  docs/trace2goal.md ("DUMPI traces")
 * says what becomes what and what is left out. */
#ifndef TRACE_DUMPI_H
#define TRACE_DUMPI_H

#include "trace_read.h"

#include <stddef.h>

struct tr_dumpi;

/* Whether path names a DUMPI .meta file (by its name). */
int tr_dumpi_is_meta(const char *path);

/* Opens the run that the .meta file at path describes (its numprocs and
 * fileprefix lines; the rank files PREFIX-NNNN.bin beside it).  When the
 * files record MPI_Comm_split, reads every file once (more for splits of
 * split communicators) to learn the members of the new communicators from
 * the colors and keys of all ranks.  Returns the run, or NULL with
 * "FILE: error: ..." (or "META:LINE:COL: error: ...") in err. */
struct tr_dumpi *tr_dumpi_open(const char *meta, char *err, size_t errlen);

/* The number of ranks of the run, and the file of rank r. */
size_t tr_dumpi_ranks(const struct tr_dumpi *d);
const char *tr_dumpi_path(const struct tr_dumpi *d, size_t r);

/* Reads the trace of rank r (0 <= r < tr_dumpi_ranks) into *t (free with
 * tr_free): one call per MPI record, in order, line = record number from 1,
 * unit TR_UNIT_RECORD; a TR_COMMDEF call for MPI_COMM_WORLD (handle 2) and
 * MPI_COMM_SELF (3) first and one after every call that makes a
 * communicator whose members the trace tells.  Returns 0, or -1 with
 * "FILE: error: record N at byte B: ..." (or "FILE: error: ...") in err and
 * *t empty. */
int tr_dumpi_read(struct tr_dumpi *d, size_t r, struct tr_trace *t, char *err,
                  size_t errlen);

/* Frees d (NULL is allowed). */
void tr_dumpi_close(struct tr_dumpi *d);

/* Reads one rank file from memory data[0..len) as rank `rank` of a run of
 * `size` ranks, as tr_dumpi_read does (the members of split communicators,
 * which need the other ranks' files, stay unknown); fname is used in
 * messages. */
int tr_dumpi_read_mem(const char *fname, const unsigned char *data, size_t len, int rank,
                      int size, struct tr_trace *t, char *err, size_t errlen);

#endif
