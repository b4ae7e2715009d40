/* die.h: the one way a tool fails.  Every message reads "PROG: error:
 * MESSAGE" on standard error, except a library's message that names its
 * file ("FILE:LINE:COL: error: MESSAGE"), printed as it is.  A usage error
 * (a bad flag or argument) adds "Try 'PROG --help'." and exits with status
 * 2; an input error (a bad file, a run that fails) exits with status 1. */
#ifndef UTIL_DIE_H
#define UTIL_DIE_H

#include <stddef.h>

/* The program name of the messages (set once, first thing in main). */
void util_set_prog(const char *prog);
const char *util_prog(void);

/* Print a usage error; returns 2, the status to exit with. */
int util_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Print an input error; returns 1, the status to exit with. */
int util_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Print a library's message: one that starts with "error: " (it names no
 * file) as "PROG: error: ...", any other ("FILE:LINE:COL: error: ...",
 * "FILE: error: ...", "FILE: 3 errors") as it is.  Returns 1. */
int util_error_msg(const char *msg);

/* The message of getopt_long's answer c (':' or '?') for the option just
 * read from argv: "option '--x' needs an argument", "option '--x' takes no
 * argument", "unknown option '--x'" or "unknown option '-x'". */
void util_option_error(int c, char *const argv[], char *buf, size_t n);

/* util_usage with that message; returns 2. */
int util_usage_option(int c, char *const argv[]);

/* util_usage, then exit(2). */
_Noreturn void util_die_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* util_error, then exit(1). */
_Noreturn void util_die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
