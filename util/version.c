/* version.c: the version line of every tool (version.h). */
#include "version.h"

#include "commit.h"   /* UTIL_COMMIT, written by make into $(B)/gen */
#include "die.h"
#include "out.h"

#include <stdio.h>

int util_version(const char *extra)
{
	char err[256];
	printf("%s %s (commit %s)\n", util_prog(), UTIL_VERSION, UTIL_COMMIT);
	if (extra)
		printf("%s\n", extra);
	return util_stdout_close(err, sizeof err) ? util_error_msg(err) : 0;
}
