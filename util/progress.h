/* progress.h: the one progress line of a long run, on standard error, and
 * the clock of wall times.  The first line comes after 2 s (at once when
 * forced), then at most one a second; on a terminal each line overwrites
 * the last ("\r"), elsewhere each is a line of its own. */
#ifndef UTIL_PROGRESS_H
#define UTIL_PROGRESS_H

/* Seconds on the monotonic clock. */
double util_now(void);

typedef struct util_progress {
	double t0, last;      /* the start, the last line */
	int quiet, tty, shown;
} util_progress;

/* Start the clock of *p; quiet: never a line; force: the first line as soon
 * as one is asked for. */
void util_progress_start(util_progress *p, int quiet, int force);

/* Whether a line is due now (then it counts as shown): call it before
 * computing what the line says. */
int util_progress_due(util_progress *p);

/* The line "PROG: TEXT" (util_prog of die.h), ended by "\r" on a terminal
 * or "\n" elsewhere. */
void util_progress_line(util_progress *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Ends the progress: on a terminal where a line was shown, a newline. */
void util_progress_end(util_progress *p);

#endif
