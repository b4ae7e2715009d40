/* fuzz_t2g.c: libFuzzer target for trace2goal's conversion (trace2goal/
 * trace2goal_conv.h) on top of the trace reader: the input is cut at form
 * feeds ('\f') into the traces of 1 to 3 ranks (the last one takes the
 * rest), converted into a binary schedule whose writer checks every op and
 * dependency.  The options follow from the input's length: extrapolation,
 * --strict, --compute-scale, --request-size and the collective patterns.
 * A conversion must fail with a message or give a schedule the writer
 * accepts. */
#include "sg_pattern.h"
#include "trace2goal_conv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MAX_RANKS 3

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

/* Warnings look like "PATH:LINE:1: warning: ..." (or "warning: ..." for
 * the whole run). */
static void check_warning(void *ctx, const char *msg)
{
	(void)ctx;
	if (strncmp(msg, "warning: ", 9) != 0 && !strstr(msg, ": warning: "))
		abort();
}

/* A memfd and its path. */
struct mfile {
	int fd;
	char path[64];
};

static void mfile_open(struct mfile *m, const char *name)
{
	m->fd = memfd_create(name, 0);
	if (m->fd < 0)
		abort();
	snprintf(m->path, sizeof m->path, "/proc/self/fd/%d", m->fd);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static struct mfile in[MAX_RANKS], out;
	static int ready;
	const char *paths[MAX_RANKS];
	struct t2g_options o;
	struct t2g_stats st;
	sg_out *so;
	char err[1024];
	size_t n = 0, pos = 0;

	if (!ready) {
		for (int i = 0; i < MAX_RANKS; i++)
			mfile_open(&in[i], "fuzz-rank.txt");
		mfile_open(&out, "fuzz.bin");
		ready = 1;
	}
	while (n < MAX_RANKS) {
		const unsigned char *ff = n + 1 < MAX_RANKS ? memchr(data + pos, '\f', size - pos) : NULL;
		size_t end = ff ? (size_t)(ff - data) : size;
		if (ftruncate(in[n].fd, 0) ||
		    (end > pos && pwrite(in[n].fd, data + pos, end - pos, 0) != (ssize_t)(end - pos)))
			abort();
		paths[n] = in[n].path;
		n++;
		if (!ff)
			break;
		pos = end + 1;
	}

	t2g_options_default(&o);
	o.extrapolate = size % 5 == 0 ? 2 : 1;
	o.strict = size % 7 == 0;
	o.compute_scale = size % 3 == 0 ? 0.5 : size % 11 == 0 ? 0 : 1;
	o.request_size = size % 2 ? 4 : 8;
	if (size % 4 == 0)
		for (int c = 0; c < T2G_NCOLL; c++)
			o.pattern[c] = (int)((size / 4 + (size_t)c * 7) % sg_npatterns());
	o.warn = check_warning;

	so = sg_out_open(out.path, SG_BINARY, n * o.extrapolate, NULL, err, sizeof err);
	if (!so)
		abort();
	int crc = t2g_convert(paths, n, &o, so, &st, err, sizeof err);
	t2g_stats_free(&st);
	if (crc) {
		if (!strstr(err, "error: "))
			abort();
		sg_out_abort(so);
		return 0;
	}
	/* the writer checks the schedule: peers, tags, dependencies, cycles */
	if (sg_out_close(so, err, sizeof err)) {
		fprintf(stderr, "converted, but the writer says: %s\n", err);
		abort();
	}
	if (st.ranks != n * o.extrapolate || st.ops != st.sends + st.recvs + st.calcs)
		abort();
	return 0;
}
