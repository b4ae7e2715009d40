/* viz_timeline_test.c: unit tests of the timeline reader: times, rank lists,
 * both formats, the join of a message to its receive, windows, errors. */
#include <stdlib.h>

#include "check.h"
#include "viz_timeline.h"

static const char pingpong[] =
	"loggopsim-timeline 1 P 2 L 2500 o 1500 g 1000 G 0.4 O 0 S 65535 ncpus 2 nnics 1\n"
	"osend 0 1 0 1500\n"
	"gsend 0 0 0 1042\n"
	"transmission 0 1 0 4000 8\n"
	"loclop 1 0 0 5000\n"
	"orecv 1 0 5000 6542\n"
	"grecv 1 0 5000 5542\n";

static int read_str(viz_tl *tl, const char *text, const viz_window *w, char *err, size_t n)
{
	FILE *f = fmemopen((void *)(uintptr_t)text, strlen(text), "r");
	int rc = viz_tl_read(tl, f, "t.tl", w, err, n);
	fclose(f);
	return rc;
}

int main(void)
{
	uint64_t t;
	CHECK(viz_parse_time("1.5us", &t) == 0);
	CHECK_EQ_U64(t, 1500);
	CHECK(viz_parse_time("2ms", &t) == 0);
	CHECK_EQ_U64(t, 2000000);
	CHECK(viz_parse_time("12000", &t) == 0);
	CHECK_EQ_U64(t, 12000);
	CHECK(viz_parse_time("1.25s", &t) == 0);
	CHECK_EQ_U64(t, 1250000000);
	CHECK(viz_parse_time("1h", &t) != 0);
	CHECK(viz_parse_time("-1", &t) != 0);
	CHECK(viz_parse_time("99999999999999999999", &t) != 0);

	char err[256];
	uint64_t *r;
	size_t n;
	CHECK(viz_parse_ranges("32,0-15,10-20,21", &r, &n, err, sizeof err) == 0);
	CHECK_EQ_U64(n, 2);
	CHECK_EQ_U64(r[0], 0);
	CHECK_EQ_U64(r[1], 21);
	CHECK_EQ_U64(r[2], 32);
	CHECK_EQ_U64(r[3], 32);
	free(r);
	CHECK(viz_parse_ranges("5-3", &r, &n, err, sizeof err) != 0);
	CHECK(viz_parse_ranges("1,,2", &r, &n, err, sizeof err) != 0);

	viz_window w = { 0, VIZ_NONE, NULL, 0, 256, 1000000 };
	viz_tl tl;
	CHECK(read_str(&tl, pingpong, &w, err, sizeof err) == 0);
	CHECK_EQ_U64(tl.nranks, 2);
	CHECK_EQ_U64(tl.ncpus, 2);
	CHECK_STR(tl.G, "0.4");
	CHECK_EQ_U64(tl.nbars, 5);
	CHECK_EQ_U64(tl.nmsgs, 1);
	CHECK_EQ_U64(tl.msgs[0].depart, 1500);
	CHECK_EQ_U64(tl.msgs[0].src_cpu, 1);    /* from the osend of the send */
	CHECK_EQ_U64(tl.msgs[0].handled, 5000); /* joined to the orecv */
	CHECK_EQ_U64(tl.bars[3].kind, VIZ_BAR_ORECV);
	CHECK(tl.bars[3].has_msg && tl.bars[3].msg_src == 0);
	CHECK_EQ_U64(tl.to, 6542);
	viz_tl_free(&tl);

	/* A window ending at 1000 stops reading at the first later line. */
	w.to = 1000;
	CHECK(read_str(&tl, pingpong, &w, err, sizeof err) == 0);
	CHECK(tl.stopped_early);
	CHECK_EQ_U64(tl.nbars, 3);
	CHECK_EQ_U64(tl.nmsgs, 0);
	viz_tl_free(&tl);

	w.to = VIZ_NONE;
	CHECK(read_str(&tl, "numranks 1;\nosend 0 0 5 9 0.5 0 1;\n", &w, err, sizeof err) == 0);
	CHECK(tl.old_format);
	CHECK_EQ_U64(tl.bars[0].end, 9);
	viz_tl_free(&tl);

	CHECK(read_str(&tl, "numranks 1;\nosend 0 0 5 9 x 0 1;\n", &w, err, sizeof err) != 0);
	CHECK_STR(err, "t.tl:2:15: error: bad colour field (expected a number)");
	viz_tl_free(&tl);

	/* A lane has a row per CPU and NIC of the header, up to VIZ_MAX_ROWS;
	 * past that, the rows its records use. */
	CHECK(read_str(&tl, "loggopsim-timeline 1 P 2 L 1 o 1 g 1 G 0 O 0 S 1 ncpus 3 nnics 2\n",
	               &w, err, sizeof err) == 0);
	CHECK_EQ_U64(tl.cpu_rows, 3);
	CHECK_EQ_U64(tl.nic_rows, 2);
	viz_tl_free(&tl);
	CHECK(read_str(&tl, "loggopsim-timeline 1 P 2 L 1 o 1 g 1 G 0 O 0 S 1 ncpus 65535 nnics 65535\n"
	               "loclop 1 4 0 10\n", &w, err, sizeof err) == 0);
	CHECK_EQ_U64(tl.ncpus, 65535);
	CHECK_EQ_U64(tl.cpu_rows, 5);
	CHECK_EQ_U64(tl.nic_rows, 1);
	viz_tl_free(&tl);

	/* One record can make a lane of 1000 rows: then the lanes drawn have
	 * at most VIZ_MAX_ALL_ROWS rows in all, the others are left out. */
	CHECK(read_str(&tl, "loggopsim-timeline 1 P 300 L 1 o 1 g 1 G 0 O 0 S 1 ncpus 65535 nnics 1\n"
	               "loclop 0 999 0 10\nloclop 64 0 0 10\nloclop 65 0 0 10\n"
	               "transmission 64 0 0 1 8\ntransmission 65 0 0 1 8\n", &w, err, sizeof err) == 0);
	CHECK_EQ_U64(tl.cpu_rows, 1000);
	CHECK_EQ_U64(tl.nlanes, 65);
	CHECK_EQ_U64(tl.lanes_left_out, 235);
	CHECK_EQ_U64(tl.first_left_out, 65);
	CHECK_EQ_U64(tl.nbars, 2);
	CHECK_EQ_U64(tl.nmsgs, 1);
	viz_tl_free(&tl);
	/* a lane of 65,536 cpus and 65,536 nics is drawn alone */
	CHECK(read_str(&tl, "loggopsim-timeline 1 P 300 ncpus 65536 nnics 65536\n"
	               "loclop 0 65535 0 1\ngsend 0 65535 0 1\n", &w, err, sizeof err) == 0);
	CHECK_EQ_U64(tl.nlanes, 1);
	CHECK_EQ_U64(tl.lanes_left_out, 299);
	viz_tl_free(&tl);
	/* the old format: the rows are the cpus used */
	CHECK(read_str(&tl, "numranks 300;\nosend 0 65535 0 1 0 0 0;\n", &w, err, sizeof err) == 0);
	CHECK_EQ_U64(tl.cpu_rows, 65536);
	CHECK_EQ_U64(tl.nlanes, 1);
	viz_tl_free(&tl);
	return check_done();
}
