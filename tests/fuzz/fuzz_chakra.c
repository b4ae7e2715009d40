/* fuzz_chakra.c: libFuzzer target for the Chakra reader and its conversion
 * (readers/trace_chakra.h, trace2goal/t2g_chakra.h): the input's first
 * byte gives the ranks (1 to 3), the rest is cut into that many equal
 * files NAME.RANK.et, converted into a binary schedule whose writer checks
 * every op and dependency.  --strict and --select follow from the input's
 * length.  A conversion must fail with a message or give a schedule the
 * writer accepts. */
#include "sg_pattern.h"
#include "t2g_chakra.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MAX_RANKS 3

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static void check_warning(void *ctx, const char *msg)
{
	(void)ctx;
	if (!strstr(msg, ": warning: "))
		abort();
}

/* A memfd: its descriptor and path. */
static int mfile(const char *name, char *path, size_t n)
{
	int fd = memfd_create(name, 0);
	if (fd < 0)
		abort();
	snprintf(path, n, "/proc/self/fd/%d", fd);
	return fd;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static char inpath[MAX_RANKS][64], outpath[64];
	static char *paths[MAX_RANKS];
	static int fd[MAX_RANKS], ready;
	struct t2g_options o;
	struct t2g_chakra_stats st;
	char err[1024];
	if (!ready) {
		for (int i = 0; i < MAX_RANKS; i++) {
			fd[i] = mfile("fuzz.et", inpath[i], sizeof inpath[i]);
			paths[i] = inpath[i];
		}
		mfile("fuzz.bin", outpath, sizeof outpath);
		ready = 1;
	}
	if (size < 1)
		return 0;
	size_t n = (size_t)data[0] % MAX_RANKS + 1, part = (size - 1) / n;
	for (size_t r = 0; r < n; r++) {
		size_t len = r + 1 < n ? part : size - 1 - r * part;
		if (ftruncate(fd[r], 0) || (len && pwrite(fd[r], data + 1 + r * part, len, 0) != (ssize_t)len))
			abort();
	}
	t2g_options_default(&o);
	o.strict = size % 7 == 0;
	if (size % 3 == 0)
		o.select = NULL;
	o.warn = check_warning;
	sg_out *so = sg_out_open(outpath, SG_BINARY, n, NULL, err, sizeof err);
	if (!so)
		abort();
	int rc = t2g_chakra(paths, n, &o, so, &st, err, sizeof err);
	uint64_t ops = st.ops, parts = st.sends + st.recvs + st.calcs;
	t2g_chakra_stats_free(&st);
	if (rc) {
		if (!strstr(err, "error: "))
			abort();
		sg_out_abort(so);
		return 0;
	}
	if (sg_out_close(so, err, sizeof err)) {
		fprintf(stderr, "converted, but the writer says: %s\n", err);
		abort();
	}
	if (ops != parts)
		abort();
	return 0;
}
