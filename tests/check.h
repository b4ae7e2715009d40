/* check.h: the smallest unit-test harness: each CHECK prints "ok - ..." or
 * "not ok - ..." with file and line; check_done() gives the exit status. */
#ifndef CHECK_H
#define CHECK_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int check_failures;

#define CHECK(cond) check_report(!!(cond), #cond, __FILE__, __LINE__)
#define CHECK_EQ_U64(a, b) do { \
	uint64_t check_a_ = (uint64_t)(a), check_b_ = (uint64_t)(b); \
	if (!check_report(check_a_ == check_b_, #a " == " #b, __FILE__, __LINE__)) \
		printf("    got %" PRIu64 ", want %" PRIu64 "\n", check_a_, check_b_); \
} while (0)
#define CHECK_STR(a, b) do { \
	const char *check_a_ = (a), *check_b_ = (b); \
	if (!check_report(check_a_ && strcmp(check_a_, check_b_) == 0, #a " == " #b, \
	                  __FILE__, __LINE__)) \
		printf("    got \"%s\"\n    want \"%s\"\n", check_a_ ? check_a_ : "(null)", check_b_); \
} while (0)

static inline int check_report(int ok, const char *what, const char *file, int line)
{
	printf("%s - %s:%d: %s\n", ok ? "ok" : "not ok", file, line, what);
	if (!ok)
		check_failures++;
	return ok;
}

static inline int check_done(void)
{
	fflush(stdout);
	return check_failures ? 1 : 0;
}

#endif
