/* progress.c: the one progress line of a long run (progress.h). */
#include "progress.h"
#include "die.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

double util_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void util_progress_start(util_progress *p, int quiet, int force)
{
	p->t0 = util_now();
	p->last = force ? p->t0 - 1.0 : p->t0 + 1.0;  /* the first after 0 s or 2 s */
	p->quiet = quiet;
	p->tty = isatty(2);
	p->shown = 0;
}

int util_progress_due(util_progress *p)
{
	if (p->quiet)
		return 0;
	double t = util_now();
	if (t - p->last < 1.0)
		return 0;
	p->last = t;
	p->shown = 1;
	return 1;
}

void util_progress_line(util_progress *p, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s: ", util_prog());
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc(p->tty ? '\r' : '\n', stderr);
}

void util_progress_end(util_progress *p)
{
	if (p->shown && p->tty)
		fputc('\n', stderr);
	p->shown = 0;
}
