/* fuzz_dumpi.c: libFuzzer target for the DUMPI reader (readers/
 * trace_dumpi.h) and trace2goal's conversion of what it reads: the input
 * is one rank file, read from memory as each rank of a run of two.  A read
 * must fail with "fuzz.bin: error: ..." and leave the trace empty, or give
 * calls whose every list and name lies inside the trace's pool and names,
 * times in order and communicator members that are ranks of the run; the
 * conversion (both ranks from the input) must fail with a message or give
 * a schedule the binary writer accepts. */
#include "trace2goal_conv.h"
#include "trace_dumpi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define RANKS 2

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

struct input {
	const unsigned char *data;
	size_t size;
};

/* The checks of one read trace. */
static void check_trace(const struct tr_trace *t)
{
	if (t->unit != TR_UNIT_RECORD || t->rank < 0 || t->size != RANKS)
		abort();
	for (size_t i = 0; i < t->ncalls; i++) {
		const struct tr_call *c = &t->calls[i];
		if (c->kind >= TR_NKINDS || !(c->end >= c->start))
			abort();
		for (int k = 0; k < 3; k++)
			if ((size_t)c->list[k] > t->npool || c->len[k] > t->npool - c->list[k])
				abort();
		if (c->kind == TR_OTHER &&
		    (c->name >= t->nnames || !memchr(t->names + c->name, 0, t->nnames - c->name)))
			abort();
		if (c->kind == TR_COMMDEF)
			for (uint32_t k = 0; k < c->len[0]; k++)
				if (tr_list(t, c, 0)[k] < 0 || tr_list(t, c, 0)[k] >= RANKS)
					abort();
		if (c->comm_size > RANKS || c->comm_rank >= RANKS)
			abort();
	}
	for (size_t i = 0; i < t->nskips; i++)
		if (t->skips[i].name >= t->nnames)
			abort();
}

static int read_input(void *ctx, size_t r, const struct tr_options *to, struct tr_trace *t,
                      const char **path, char *err, size_t errlen)
{
	const struct input *in = ctx;
	(void)to;
	*path = "fuzz.bin";
	return tr_dumpi_read_mem("fuzz.bin", in->data, in->size, (int)r, RANKS, t, err, errlen);
}

static void check_warning(void *ctx, const char *msg)
{
	(void)ctx;
	if (strncmp(msg, "warning: ", 9) != 0 && !strstr(msg, ": warning: "))
		abort();
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static int fd = -1;
	static char path[64];
	struct input in = { data, size };
	struct t2g_source src = { RANKS, read_input, &in };
	struct tr_trace t;
	struct t2g_options o;
	struct t2g_stats st;
	char err[1024];
	sg_out *so;

	for (int r = 0; r < RANKS; r++) {
		if (tr_dumpi_read_mem("fuzz.bin", data, size, r, RANKS, &t, err, sizeof err)) {
			if (strncmp(err, "fuzz.bin: error: ", 17) != 0 || t.calls || t.pool || t.names ||
			    t.skips || t.ncalls)
				abort();
			return 0;
		}
		check_trace(&t);
		tr_free(&t);
	}
	if (fd < 0) {
		fd = memfd_create("fuzz-out.bin", 0);
		if (fd < 0)
			abort();
		snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	}
	t2g_options_default(&o);
	o.strict = size % 3 == 0;
	o.extrapolate = size % 5 == 0 ? 2 : 1;
	o.warn = check_warning;
	so = sg_out_open(path, SG_BINARY, RANKS * o.extrapolate, NULL, err, sizeof err);
	if (!so)
		abort();
	if (t2g_convert_source(&src, &o, so, &st, err, sizeof err)) {
		t2g_stats_free(&st);
		if (!strstr(err, "error: "))
			abort();
		sg_out_abort(so);
		return 0;
	}
	t2g_stats_free(&st);
	if (sg_out_close(so, err, sizeof err)) {
		fprintf(stderr, "converted, but the writer says: %s\n", err);
		abort();
	}
	return 0;
}
