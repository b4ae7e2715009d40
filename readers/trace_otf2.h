/* trace_otf2.h: reads the MPI ranks of an OTF2 archive (Score-P and other
 * OTF2 writers; the anchor file NAME.otf2, the definitions NAME.def, the
 * events NAME/LOCATION.evt) into struct tr_trace (trace_read.h), one rank at
 * a time, through the OTF2 library.  docs/trace2goal.md ("OTF2 archives")
 * says what becomes what and what is left out.  Built without the OTF2
 * library (no pkg-config otf2), tr_otf2_open fails with a message saying
 * so. */
#ifndef TRACE_OTF2_H
#define TRACE_OTF2_H

#include "trace_read.h"

#include <stddef.h>

struct tr_otf2;

/* Whether path names an OTF2 anchor file (by its name, *.otf2). */
int tr_otf2_is_anchor(const char *path);

/* Whether the n bytes at b begin as an OTF2 anchor file does: a chunk
 * header byte 3, the byte order (0x42 little, 0x23 big endian), then the
 * string "OTF2" with its NUL byte (7 bytes). */
int tr_otf2_magic(const unsigned char *b, size_t n);

/* The files an archive is made of, whether or not they are read: the
 * anchor NAME.otf2, NAME.def (which may not exist) and every regular file
 * under the folder NAME/ (up to 8 folders down, links followed): add(ctx,
 * path) for each.  Returns 0, or the first non-zero value add returned. */
int tr_otf2_members(const char *anchor, int (*add)(void *ctx, const char *path), void *ctx);

/* Whether this build reads OTF2 (it was built with the OTF2 library). */
int tr_otf2_supported(void);

/* Opens the archive of the anchor file and reads its global definitions:
 * the clock, the regions, the MPI ranks (the locations of the MPI
 * communicator locations group, in rank order) and the communicators with
 * their members.  Returns it, or NULL with "ANCHOR: error: ..." in err. */
struct tr_otf2 *tr_otf2_open(const char *anchor, char *err, size_t errlen);

/* The number of MPI ranks, and the file named in messages (the anchor). */
size_t tr_otf2_ranks(const struct tr_otf2 *o);
const char *tr_otf2_path(const struct tr_otf2 *o);

/* Reads the events of rank r into *t (free with tr_free): one call per MPI
 * region entered and left (Enter/Leave of a region of the MPI paradigm or
 * named MPI_*), with what the MPI events inside it say; line = the event
 * number (from 1) of its Enter, unit TR_UNIT_EVENT; a TR_COMMDEF call first
 * for every communicator the rank is a member of.  Returns 0, or -1 with
 * "ANCHOR: error: rank R (location L): ..." in err and *t empty. */
int tr_otf2_read(struct tr_otf2 *o, size_t r, struct tr_trace *t, char *err, size_t errlen);

/* Frees o (NULL is allowed). */
void tr_otf2_close(struct tr_otf2 *o);

#endif
