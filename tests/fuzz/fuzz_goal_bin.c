/* fuzz_goal_bin.c: libFuzzer target for the binary schedule reader: any
 * bytes are either rejected or validate into a schedule whose every op,
 * edge and label can be read (and dumped) safely. */
#include "goal.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static FILE *devnull;
	goal_sched s;
	char err[512];
	void *buf = aligned_alloc(8, (size + 8) & ~(size_t)7);

	if (!devnull)
		devnull = fopen("/dev/null", "w");
	if (!buf || !devnull)
		abort();
	memcpy(buf, data, size);
	if (goal_sched_from_buffer(&s, buf, size, err, sizeof err) == 0) {
		char lb[32];
		goal_dump(&s, devnull);
		for (uint64_t r = 0; r < s.nranks; r++)
			if (goal_rank_nops(&s, r))
				goal_op_label(&s, r, goal_rank_nops(&s, r) - 1, lb, sizeof lb);
	}
	free(buf);
	return 0;
}
