/* fuzz_trace.c: libFuzzer target for the MPI trace reader (readers/
 * trace_read.h), both dialects: the input is one rank's trace, read from
 * memory (request size 8, or 4 for inputs of odd length).  It must be
 * rejected with a "fuzz.txt:LINE:COL: error: ..." message and nothing
 * allocated, or read into calls whose every list and name lies inside the
 * trace's pool and names. */
#include "trace_read.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct tr_options opt = { size % 2 ? 4 : 8 };
	struct tr_trace t;
	char err[512];

	if (tr_read_mem("fuzz.txt", (const char *)data, size, &opt, &t, err, sizeof err)) {
		if (strncmp(err, "fuzz.txt:", 9) != 0 || !strstr(err, ": error: ") || t.calls ||
		    t.pool || t.names || t.ncalls)
			abort();
		return 0;
	}
	if (err[0])
		abort();
	for (size_t i = 0; i < t.ncalls; i++) {
		const struct tr_call *c = &t.calls[i];
		if (c->kind >= TR_NKINDS || c->end < c->start || c->line == 0)
			abort();
		for (int k = 0; k < 3; k++)
			if ((size_t)c->list[k] > t.npool || c->len[k] > t.npool - c->list[k])
				abort();
		if (c->kind == TR_OTHER &&
		    (c->name >= t.nnames || !memchr(t.names + c->name, 0, t.nnames - c->name)))
			abort();
		if (!tr_call_name(&t, c))
			abort();
	}
	tr_free(&t);
	return 0;
}
