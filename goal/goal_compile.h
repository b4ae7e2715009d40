/* goal_compile.h: the GOAL compiler, GOAL text to the binary format
 * (libgoalc.a; opening a file that is binary or text: goal_open.h).
 *
 * Layers: the compiler sits above the binary format (goal.h, libgoal.a),
 * whose writer it feeds; libgoal calls nothing here.  A program that only
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
 * seekable (to show source lines; goal_compile_path of goal_open.h takes
 * any stream).  threads 2 or more: a regular file of GOAL_PARTS_MIN bytes
 * or more, read from its start, is parsed in parts in two threads (the
 * same output and messages as one thread); the environment variable
 * GOAL_PARTS set makes it say on diag how it went.  Returns the number of
 * errors (0 = success). */
#define GOAL_PARTS_MIN ((uint64_t)4 << 20)
unsigned long goal_compile(FILE *in, const char *name, const char *out_path,
                           FILE *diag, unsigned max_errors, unsigned threads);

#endif
