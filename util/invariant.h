/* invariant.h: ASSERT(expr), the one assertion of the project, for the
 * invariants the code relies on (an event queue that never goes back in
 * time, counters that never go below zero, ...).
 *
 * Active in the sanitizer builds (make test, make fuzz: compiled with
 * AddressSanitizer) and wherever GOAL_CHECKS=1 is defined; compiled out of
 * the release build (GOAL_CHECKS=0 or undefined outside the sanitizers),
 * where the expression is type-checked but not evaluated.  A failed
 * assertion prints "FILE:LINE: internal error: assertion failed: EXPR" on
 * stderr and aborts.  Never use it for what input can cause: that is an
 * error with a message. */
#ifndef INVARIANT_H
#define INVARIANT_H

#ifndef GOAL_CHECKS
#if defined(__SANITIZE_ADDRESS__)
#define GOAL_CHECKS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GOAL_CHECKS 1
#endif
#endif
#endif
#ifndef GOAL_CHECKS
#define GOAL_CHECKS 0
#endif

#if GOAL_CHECKS
#include <stdio.h>
#include <stdlib.h>

__attribute__((noreturn, cold)) static inline void
invariant_failed(const char *file, int line, const char *expr)
{
	fprintf(stderr, "%s:%d: internal error: assertion failed: %s\n", file, line, expr);
	abort();
}
#define ASSERT(e) ((e) ? (void)0 : invariant_failed(__FILE__, __LINE__, #e))
#else
/* In a branch never taken, so that what it names counts as used. */
#define ASSERT(e) ((void)(0 && (e)))
#endif

#endif
