/* goal_open.h: opening a schedule that is binary or GOAL text, and
 * compiling a file or stream (libgoalc.a, goal_open.c): above both the
 * binary format (goal.h) and the compiler (goal_compile.h). */
#ifndef GOAL_OPEN_H
#define GOAL_OPEN_H

#include <stddef.h>
#include <stdio.h>

#include "goal.h"

/* goal_compile of the file at in_path; a stream that is not a regular file
 * (standard input "-", a pipe, a device) is copied to a temporary file
 * first, as goal_sched_open_any does (which compiles in two threads).  A
 * binary schedule is validated when out_path is NULL (a check), and is an
 * error otherwise ("IN: error: this is a binary schedule, not GOAL text
 * ..."); it is never read as text.  Returns the number of errors. */
unsigned long goal_compile_path(const char *in_path, const char *out_path,
                                FILE *diag, unsigned max_errors, unsigned threads);

/* Open a binary schedule, or compile a GOAL text file (detected by its first
 * bytes) into an unlinked temporary binary and open that.  path "-" is
 * standard input; a pipe, FIFO or device is read once (into an unlinked
 * temporary file, at most one line of GOAL_MAX_LINE bytes past the last
 * newline).  Text errors are printed to diag in the compiler's format.
 * Returns 0 or -1 (err set; for text errors err says how many). */
int goal_sched_open_any(goal_sched *s, const char *path, FILE *diag,
                        char *err, size_t errlen);

/* Open job j of the merged schedule s alone in its ranks (goal_job_alone),
 * from an unlinked temporary binary.  Returns 0 or -1 (err set). */
int goal_sched_open_alone(goal_sched *a, const goal_sched *s, uint32_t j, char *err,
                          size_t errlen);

/* Open the merged schedule s with its jobs placed anew by how and seed
 * (goal_replace), from an unlinked temporary binary.  Returns 0 or -1
 * (err set). */
int goal_sched_open_placed(goal_sched *a, const goal_sched *s, const char *how, uint64_t seed,
                           char *err, size_t errlen);

#endif
