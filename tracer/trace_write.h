/* trace_write.h: turns binary call records (as the recorder keeps them in
 * memory) into liballprof-style text lines of the goaltrace dialect. */
#ifndef TRACE_WRITE_H
#define TRACE_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "trace_kinds.h"

/* A record is a run of 64-bit words:
 *   w[0]  kind | (total number of words << 16)
 *   w[1]  start time, w[2] end time (nanoseconds, TR_NO_TIME if unknown)
 *   then the fields of the kind's goaltrace layout (trace_kinds.h), each
 *   stored as: one word for a scalar letter (signed values as two's
 *   complement); five words for d (id, size, extent, and the stride and
 *   block of a vector type, or 0 and 0); three words for c and s; a count
 *   and the values for L, I, W and Q; a count and 3 words per status for
 *   S; the pointer, a count and the values for A and D.
 * Records of kind TR_COMMDEF have no times in their line. */

#define TR_REC_FIRST 3 /* index of the first field word */
#define TR_REC_KIND(w0) ((unsigned)((w0) & 0xffff))
#define TR_REC_WORDS(w0) ((size_t)((w0) >> 16))
#define TR_REC_HEAD(kind, nwords) ((uint64_t)(kind) | ((uint64_t)(nwords) << 16))

/* Upper bound of the words of a record of kind whose lists hold at most n
 * values each (n statuses for S), computed from the kind's layout: the size
 * to reserve before writing it. */
size_t tr_record_words(enum tr_kind kind, size_t n);

/* Upper bound of the characters tr_format_record writes for the record at
 * w (including the newline). */
size_t tr_record_max_chars(const uint64_t *w);

/* Writes the text line of the record at w into out (at least
 * tr_record_max_chars(w) bytes), adding shift_ns to both times, and returns
 * the number of characters written (no terminating NUL).  Returns 0 if the
 * record does not agree with its kind's layout (its word count is wrong). */
size_t tr_format_record(const uint64_t *w, int64_t shift_ns, char *out);

#endif
