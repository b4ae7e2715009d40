/* fuzz_otf2.c: libFuzzer target for the OTF2 reader (readers/trace_otf2.h):
 * the input is an archive's anchor file, beside the definitions and events
 * of a real archive (the folder FUZZ_OTF2_ARCHIVE, which holds traces.def
 * and traces/; fuzz.sh makes one with tests/trace2goal/mkotf2.py).  Opening
 * must fail with "ANCHOR: error: ..." or give ranks whose every read fails
 * with a message or gives a trace; nothing may crash, leak, hang or ask for
 * more than the fuzzer's memory limit (a damaged count in an anchor once
 * kept the OTF2 library busy for 22 s, asking for 34 GB).  Leaks inside
 * the library itself, on its error paths, are suppressed
 * (tests/fuzz/lsan-otf2.supp). */
#include "trace_otf2.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

/* A folder of this process: traces.def and traces/ linked to the
 * archive's, traces.otf2 written for each input.  NULL: no archive given. */
static const char *anchor_path(void)
{
	static char anchor[4096];
	static int done;
	if (done)
		return anchor[0] ? anchor : NULL;
	done = 1;
	const char *src = getenv("FUZZ_OTF2_ARCHIVE");
	char dir[] = "/tmp/fuzz-otf2-XXXXXX", a[4096], b[4096];
	if (!src || !mkdtemp(dir))
		return NULL;
	snprintf(a, sizeof a, "%s/traces.def", src);
	snprintf(b, sizeof b, "%s/traces.def", dir);
	if (symlink(a, b))
		return NULL;
	snprintf(a, sizeof a, "%s/traces", src);
	snprintf(b, sizeof b, "%s/traces", dir);
	if (symlink(a, b))
		return NULL;
	snprintf(anchor, sizeof anchor, "%s/traces.otf2", dir);
	return anchor;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	const char *path = anchor_path();
	char err[1024];
	if (!path)
		abort();   /* FUZZ_OTF2_ARCHIVE names no archive */
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f))
		abort();
	err[0] = 0;
	struct tr_otf2 *o = tr_otf2_open(path, err, sizeof err);
	if (!o) {
		if (strncmp(err, path, strlen(path)) != 0 || !strstr(err, ": error: "))
			abort();
		return 0;
	}
	for (size_t r = 0; r < tr_otf2_ranks(o); r++) {
		struct tr_trace t;
		err[0] = 0;
		if (tr_otf2_read(o, r, &t, err, sizeof err)) {
			if (!err[0] || t.ncalls)
				abort();
			continue;
		}
		tr_free(&t);
	}
	tr_otf2_close(o);
	return 0;
}
