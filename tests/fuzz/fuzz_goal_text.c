/* fuzz_goal_text.c: libFuzzer target for the GOAL compiler (text in,
 * check only).  Any input must give errors or success, never a crash. */
#include "goal_compile.h"

#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static FILE *devnull;
	int fd = memfd_create("fuzz.goal", 0);
	FILE *in;

	if (!devnull)
		devnull = fopen("/dev/null", "w");
	if (fd < 0 || !devnull)
		abort();
	if (size && write(fd, data, size) != (ssize_t)size)
		abort();
	lseek(fd, 0, SEEK_SET);
	in = fdopen(fd, "r");
	if (!in)
		abort();
	goal_compile(in, "fuzz.goal", NULL, devnull, 20, 2);
	fclose(in);
	return 0;
}
