/* version.h: what every tool prints for --version, for citing results:
 * "PROG VERSION (commit C)", C the git commit the tool was built from
 * (with "-modified" when the tree had changes then; "unknown" outside a
 * git checkout). */
#ifndef UTIL_VERSION_H
#define UTIL_VERSION_H

/* The version of the toolchain; the binary schedule format has its own
 * (GOAL_VERSION). */
#define UTIL_VERSION "1.0"

/* The getopt_long value of every tool's --version (above the tools' own). */
#define UTIL_OPT_VERSION 0x7000

/* Print the version line on standard output, then extra (a line, or
 * NULL), and close it.  Returns the exit status: 0, or 1 after an error
 * message when standard output cannot be written. */
int util_version(const char *extra);

#endif
