/* trace_source.h: a traced run in any format the readers know, behind one
 * interface: the project's text traces (a file per rank), an SST-DUMPI run
 * (its .meta file, trace_dumpi.h) or an OTF2 archive (its anchor file,
 * trace_otf2.h).  tr_source_open takes what the user named and finds the
 * format: by a file's name (*.meta, *.otf2), else by how it begins (a
 * .meta file's lines, an anchor's magic); in a folder, by the names of its
 * files.  The ranks are then read one by one, whatever the format. */
#ifndef TRACE_SOURCE_H
#define TRACE_SOURCE_H

#include "trace_read.h"

#include <stddef.h>

struct tr_source;

/* Opens the run that args[0 .. n-1] name (n >= 1):
 * - text trace files, in any order (each says its rank in a "# rank:" line
 *   or by the number before ".txt" or ".dat"; with no rank anywhere, the
 *   order given), or a folder of them (its *.txt and *.dat files);
 * - the file of rank 0 alone: the other ranks' files are found beside it
 *   by their names (the run's size from its "# size:" line or its largest
 *   communicator, read with to);
 * - one whole run: a DUMPI .meta file, an OTF2 anchor, or a folder holding
 *   exactly one of them.
 * Returns it, or NULL with the message in err: "FILE...: error: ..." or
 * "error: ..."; *usage is set when the arguments are wrong together (a
 * whole run given with others), not a file. */
struct tr_source *tr_source_open(const char *const *args, size_t n, const struct tr_options *to,
                                 int *usage, char *err, size_t errlen);

/* The number of ranks of the run. */
size_t tr_source_ranks(const struct tr_source *s);

/* Reads the trace of rank r (0 <= r < tr_source_ranks) into *t (free with
 * tr_free), text traces with options to; *path is the file named in
 * messages about it.  Returns 0, or -1 with "FILE...: error: ..." in err. */
int tr_source_read(struct tr_source *s, size_t r, const struct tr_options *to,
                   struct tr_trace *t, const char **path, char *err, size_t errlen);

/* Every file the run is made of, read or not (what an output must not
 * replace): *n paths, valid until tr_source_close. */
const char *const *tr_source_files(const struct tr_source *s, size_t *n);

void tr_source_close(struct tr_source *s);

/* The rank of a text trace file: the "# rank: N" header line if the file
 * has one before its first call, else the number just before a final
 * ".txt" or ".dat" of the path, else -1.  Returns 0, or -1 with "PATH:
 * error: ..." in err when the file cannot be read. */
int tr_file_rank(const char *path, long *rank, char *err, size_t errlen);

/* Whether a file name is that of a text trace (the names liballprof
 * writes): it ends in ".txt" after at least one character, or in ".dat"
 * after a rank number (programs keep their input in other *.dat files). */
int tr_trace_name(const char *name);

/* The rank number in a trace file's name: where path ends in ".txt" or
 * ".dat" after one or more digits, their bytes [*s, *e); returns 1, else 0. */
int tr_name_digits(const char *path, size_t *s, size_t *e);

/* The world size of the run a text trace file is of: its "# size:" line,
 * else the size of the largest communicator of its calls (MPI_COMM_WORLD
 * is the largest), read with to.  *line is the line that says so.  Returns
 * 0, or -1 with a message "PATH...: error: ..." in err (unreadable, bad,
 * or no communicator at all). */
int tr_world_size(const char *path, const struct tr_options *to, long *size, unsigned *line,
                  char *err, size_t errlen);

#endif
