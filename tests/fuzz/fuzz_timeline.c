/* fuzz_timeline.c: libFuzzer target for goalviz's timeline reader
 * (timeline/timeline.h: versions 1 and 2 of loggopsim -V and the old format)
 * and the trace JSON converter (timeline/tl_trace_json.h): the input is
 * read twice, with goalviz's default window and with a small one (a time
 * window, a rank list, few lanes and items), and what was read is drawn as
 * SVG and dot into /dev/null and converted to JSON.  Any input must be
 * rejected with a "fuzz.tl:..." message or give a timeline whose bars and
 * messages lie on its lanes; the converter, which reads the lines through
 * the same parser, rejects nothing that the reader takes without a window. */
#include "viz_render.h"
#include "timeline.h"
#include "tl_trace_json.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static void check(const tl_file *tl)
{
	for (size_t i = 0; i < tl->nbars; i++) {
		const tl_bar *b = &tl->bars[i];
		if (b->lane >= tl->nlanes || b->kind >= TL_NKINDS || b->end < b->start)
			abort();
		if (!tl->old_format && b->unit >= (tl_kind_on_nic[b->kind] ? tl->nnics : tl->ncpus))
			abort();
	}
	for (size_t i = 0; i < tl->nmsgs; i++) {
		const tl_msg *m = &tl->msgs[i];
		if (m->src_lane >= tl->nlanes || m->dst_lane >= tl->nlanes || m->arrival < m->depart ||
		    m->src >= tl->nranks || m->dst >= tl->nranks)
			abort();
	}
	for (uint32_t i = 0; i < tl->nlanes; i++)
		if (tl->lane_rank[i] >= tl->nranks || (i && tl->lane_rank[i] <= tl->lane_rank[i - 1]))
			abort();
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static FILE *devnull;
	static const uint64_t ranges[] = { 1, 2, 5, 9 };
	const tl_window win[2] = {
		{ 0, TL_NONE, NULL, 0, 256, 1000000 },       /* goalviz's defaults */
		{ 100, 5000, ranges, 2, 3, 8 },
	};
	char err[512], notes[1024];

	if (!devnull)
		devnull = fopen("/dev/null", "w");
	if (!devnull)
		abort();
	for (int k = 0; k < 2; k++) {
		/* fmemopen does not take an empty buffer */
		FILE *f = size ? fmemopen((void *)(uintptr_t)data, size, "r") : fopen("/dev/null", "r");
		tl_file tl;
		if (!f)
			abort();
		err[0] = 0;
		int rc = tl_read(&tl, f, "fuzz.tl", &win[k], err, sizeof err);
		fclose(f);
		if (rc) {
			if (strncmp(err, "fuzz.tl:", 8) != 0 || !strstr(err, "error: "))
				abort();
		} else {
			check(&tl);
			viz_render_opts ro = { k ? 300 : 0, k ? "fuzz.tl" : NULL, NULL, 0 };
			viz_render_notes(&tl, notes, sizeof notes);
			if (viz_render_svg(&tl, &ro, devnull) || viz_render_dot(&tl, &ro, devnull))
				abort();
		}
		tl_free(&tl);
		f = size ? fmemopen((void *)(uintptr_t)data, size, "r") : fopen("/dev/null", "r");
		if (!f)
			abort();
		tl_json_opts jo = { win[k].from, win[k].to, win[k].ranges, win[k].nranges, NULL, NULL, NULL };
		err[0] = 0;
		int jrc = tl_json_convert(f, "fuzz.tl", devnull, &jo, NULL, err, sizeof err);
		fclose(f);
		if (jrc && (strncmp(err, "fuzz.tl:", 8) != 0 || !strstr(err, "error: ")))
			abort();
		if (jrc && k == 0 && rc == 0 && !strstr(err, "thread ids") && !strstr(err, "CPUs 0..15"))
			abort();
		if (!jrc && tl_json_path(devnull, NULL, 0))
			abort();
	}
	return 0;
}
