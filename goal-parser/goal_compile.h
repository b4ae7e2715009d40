/* goal_compile.h: the GOAL compiler (GOAL text to the binary format), and
 * opening a schedule that is binary or text (libgoalc.a).
 *
 * Layers: this library sits above the binary format (goal.h, libgoal.a),
 * whose writer the compiler feeds and whose reader goal_sched_open_any
 * opens the result with; libgoal calls nothing here.  A program that only
 * reads or writes binary schedules links libgoal alone, without the
 * parser; one that reads GOAL text links libgoalc before libgoal. */
#ifndef GOAL_COMPILE_H
#define GOAL_COMPILE_H

#include <stddef.h>
#include <stdio.h>

#include "goal.h"

/* Compile GOAL text from in (named name in messages) to the binary out_path
 * (NULL: check only).  Errors go to diag as "NAME:LINE:COL: error: MSG", the
 * source line and a caret; at most max_errors are printed.  in must be
 * seekable (to show source lines); goal_compile_path copies a stream that
 * is not a regular file (standard input "-", a pipe, a device) to a
 * temporary file first, as goal_sched_open_any does.  Returns the number
 * of errors (0 = success). */
unsigned long goal_compile(FILE *in, const char *name, const char *out_path,
                           FILE *diag, unsigned max_errors);
unsigned long goal_compile_path(const char *in_path, const char *out_path,
                                FILE *diag, unsigned max_errors);

/* Open a binary schedule, or compile a GOAL text file (detected by its first
 * bytes) into an unlinked temporary binary and open that.  path "-" is
 * standard input; a pipe, FIFO or device is read once (into an unlinked
 * temporary file, at most one line of GOAL_MAX_LINE bytes past the last
 * newline).  Text errors are printed to diag in the compiler's format.
 * Returns 0 or -1 (err set; for text errors err says how many). */
int goal_sched_open_any(goal_sched *s, const char *path, FILE *diag,
                        char *err, size_t errlen);

#endif
