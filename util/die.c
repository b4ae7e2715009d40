/* die.c: the one way a tool fails (die.h). */
#include "die.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *prog_name = "?";

void util_set_prog(const char *prog)
{
	prog_name = prog;
}

const char *util_prog(void)
{
	return prog_name;
}

static void put(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
static void put(const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: error: ", prog_name);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

/* The usage error of fmt, ap: the message and the Try line. */
static void usage(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
static void usage(const char *fmt, va_list ap)
{
	put(fmt, ap);
	fprintf(stderr, "Try '%s --help'.\n", prog_name);
}

int util_usage(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	usage(fmt, ap);
	va_end(ap);
	return 2;
}

void util_option_error(int c, char *const argv[], char *buf, size_t n)
{
	const char *a = optind > 0 ? argv[optind - 1] : "";
	size_t name = strcspn(a, "=");
	if (c == ':')
		snprintf(buf, n, "option '%s' needs an argument", a);
	else if (strncmp(a, "--", 2) == 0 && optopt)
		snprintf(buf, n, "option '%.*s' takes no argument", (int)name, a);
	else if (strncmp(a, "--", 2) == 0 || !optopt)
		snprintf(buf, n, "unknown option '%.*s'", (int)name, a);
	else
		snprintf(buf, n, "unknown option '-%c'", optopt);
}

int util_usage_option(int c, char *const argv[])
{
	char msg[256];
	util_option_error(c, argv, msg, sizeof msg);
	return util_usage("%s", msg);
}

int util_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	put(fmt, ap);
	va_end(ap);
	return 1;
}

int util_error_msg(const char *msg)
{
	if (strncmp(msg, "error: ", 7) == 0)
		return util_error("%s", msg + 7);
	fprintf(stderr, "%s\n", msg);
	return 1;
}

void util_die_usage(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	usage(fmt, ap);
	va_end(ap);
	exit(2);
}

void util_die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	put(fmt, ap);
	va_end(ap);
	exit(1);
}
