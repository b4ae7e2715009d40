/* viz_timeline_test.c: unit tests of the timeline reader: times, rank lists,
 * both formats, the join of a message to its receive, windows, errors. */
#include <stdlib.h>

#include "check.h"
#include "num.h"
#include "timeline.h"

static const char pingpong[] =
	"loggopsim-timeline 1 P 2 L 2500 o 1500 g 1000 G 0.4 O 0 S 65535 ncpus 2 nnics 1\n"
	"osend 0 1 0 1500\n"
	"gsend 0 0 0 1042\n"
	"transmission 0 1 0 4000 8\n"
	"loclop 1 0 0 5000\n"
	"orecv 1 0 5000 6542\n"
	"grecv 1 0 5000 5542\n";

static int read_str(tl_file *tl, const char *text, const tl_window *w, char *err, size_t n)
{
	FILE *f = fmemopen((void *)(uintptr_t)text, strlen(text), "r");
	int rc = tl_read(tl, f, "t.tl", w, err, n);
	fclose(f);
	return rc;
}

/* goalviz's --from and --to. */
static int ptime(const char *s, uint64_t *t)
{
	return num_time_parse(s, strlen(s), t) == NUM_OK ? 0 : -1;
}

int main(void)
{
	uint64_t t;
	CHECK(ptime("1.5us", &t) == 0);
	CHECK_EQ_U64(t, 1500);
	CHECK(ptime("2ms", &t) == 0);
	CHECK_EQ_U64(t, 2000000);
	CHECK(ptime("12000", &t) == 0);
	CHECK_EQ_U64(t, 12000);
	CHECK(ptime("1.25s", &t) == 0);
	CHECK_EQ_U64(t, 1250000000);
	CHECK(ptime("1h", &t) != 0);
	CHECK(ptime("-1", &t) != 0);
	CHECK(ptime("99999999999999999999", &t) != 0);

	char err[256];
	uint64_t *r;
	size_t n;
	CHECK(num_ranks_parse("32,0-15,10-20,21", &r, &n, err, sizeof err) == 0);
	CHECK_EQ_U64(n, 2);
	CHECK_EQ_U64(r[0], 0);
	CHECK_EQ_U64(r[1], 21);
	CHECK_EQ_U64(r[2], 32);
	CHECK_EQ_U64(r[3], 32);
	free(r);
	CHECK(num_ranks_parse("5-3", &r, &n, err, sizeof err) != 0);
	CHECK(num_ranks_parse("1,,2", &r, &n, err, sizeof err) != 0);

	tl_window w = { 0, TL_NONE, NULL, 0, 256, 1000000 };
	tl_file tl;
	CHECK(read_str(&tl, pingpong, &w, err, sizeof err) == 0);
	CHECK_EQ_U64(tl.nranks, 2);
	CHECK_EQ_U64(tl.ncpus, 2);
	CHECK(tl.range[0].G.num == 4 && tl.range[0].G.den == 10);
	CHECK_EQ_U64(tl.nbars, 5);
	CHECK_EQ_U64(tl.nmsgs, 1);
	CHECK_EQ_U64(tl.msgs[0].depart, 1500);
	CHECK_EQ_U64(tl.msgs[0].src_cpu, 1);    /* from the osend of the send */
	CHECK_EQ_U64(tl.msgs[0].handled, 5000); /* joined to the orecv */
	CHECK_EQ_U64(tl.bars[3].kind, TL_ORECV);
	CHECK(tl.bars[3].has_msg && tl.bars[3].msg_src == 0);
	CHECK_EQ_U64(tl.to, 6542);
	tl_free(&tl);

	/* A window ending at 1000 stops reading at the first later line. */
	w.to = 1000;
	CHECK(read_str(&tl, pingpong, &w, err, sizeof err) == 0);
	CHECK(tl.stopped_early);
	CHECK_EQ_U64(tl.nbars, 3);
	CHECK_EQ_U64(tl.nmsgs, 0);
	tl_free(&tl);

	/* Version 2: the ranges' parameters, and the facts of every message:
	 * its departure, its CPU, and the orecv that handled it by (SRC, OP),
	 * here the second message first. */
	w.to = TL_NONE;
	static const char v2[] =
		"loggopsim-timeline 2 P 2 S 100 ncpus 2 nnics 1 ranges 2\n"
		"range 0 64 L 100 o 10 g 20 G 1 O 0\n"
		"range 65 inf L 1000 o 50 g 5 G 0.5 O 2\n"
		"transmission 0 1 0 10 110 11 0 1 0\n"
		"transmission 0 1 5 55 1055 100 3 0 0\n"
		"orecv 1 0 1055 1200 0 3\n"
		"orecv 1 1 1300 1400 0 0\n";
	CHECK(read_str(&tl, v2, &w, err, sizeof err) == 0);
	CHECK_EQ_U64(tl.version, 2);
	CHECK_EQ_U64(tl.nranges, 2);
	CHECK_EQ_U64(tl.range[1].first, 65);
	CHECK(tl.range[1].last == LOGGP_SIZE_INF);
	CHECK_EQ_U64(tl.range[1].o, 50);
	CHECK(tl.range[1].G.num == 5 && tl.range[1].G.den == 10);
	CHECK_EQ_U64(tl.msgs[0].depart, 10);
	CHECK_EQ_U64(tl.msgs[0].src_cpu, 1);
	CHECK_EQ_U64(tl.msgs[0].handled, 1300);
	CHECK_EQ_U64(tl.msgs[0].dst_cpu, 1);
	CHECK_EQ_U64(tl.msgs[1].depart, 55);
	CHECK_EQ_U64(tl.msgs[1].handled, 1055);
	tl_free(&tl);
	/* A range line's keys are L, o, g, G and O: a "P" there changes nothing
	 * (a fuzzer's input; P 1 made the lanes disagree with P); keys of later
	 * versions are skipped with their values. */
	CHECK(read_str(&tl, "loggopsim-timeline 2 P 2 ranges 1 later x.y\nrange 0 inf L 5 P 1 S 6 ncpus 9\n"
	               "loclop 1 0 0 1\n", &w, err, sizeof err) == 0);
	CHECK_EQ_U64(tl.nranks, 2);
	CHECK_EQ_U64(tl.nlanes, 2);
	CHECK_EQ_U64(tl.ncpus, 1);
	CHECK_EQ_U64(tl.range[0].L, 5);
	tl_free(&tl);
	static const struct {
		const char *text, *err;
	} bad2[] = {
		{ "loggopsim-timeline 2 P 2\n", "t.tl:1:25: error: the header has no ranges" },
		{ "loggopsim-timeline 2 P 2 ranges 2\nrange 0 9 L 1 o 1 g 1 G 1 O 1\n",
		  "t.tl:3:1: error: expected 1 more range line after the header" },
		{ "loggopsim-timeline 2 P 2 ranges 1\nosend 0 0 0 1\n",
		  "t.tl:2:1: error: expected 1 more range line after the header" },
		{ "loggopsim-timeline 2 P 2 ranges 2\nrange 0 9 L 1\nrange 11 inf L 1\n",
		  "t.tl:3:7: error: range starts at 11, not 10" },
		{ "loggopsim-timeline 2 P 2 ranges 1\nrange 0 9 L 1\n",
		  "t.tl:2:9: error: the last range ends at 'inf'" },
		{ "loggopsim-timeline 2 P 2 ranges 65\n", "t.tl:1:33: error: ranges must be 1..64" },
		{ "loggopsim-timeline 2 P 2 ranges 1\nrange 0 inf G 0.1234567891\n",
		  "t.tl:2:15: error: bad value of G: too many fraction digits" },
		{ "loggopsim-timeline 2 P 2 ranges 1\nrange 0 inf O .5\n",
		  "t.tl:2:15: error: bad value of O: not a number" },
		{ "loggopsim-timeline 2 P 2 ranges 1\nrange 0 inf\ntransmission 0 1 5 4 9 1 0 0 0\n",
		  "t.tl:3:20: error: departure 4 before the send starts (5)" },
		{ "loggopsim-timeline 2 P 2 ranges 1\nrange 0 inf\ntransmission 0 1 5 6 9 1 0 1 0\n",
		  "t.tl:3:28: error: cpu 1 out of range (the header says 1)" },
		{ "loggopsim-timeline 2 P 2 ranges 1\nrange 0 inf\norecv 1 0 5 6 2 0\n",
		  "t.tl:3:15: error: rank 2 out of range (P = 2)" },
		{ "loggopsim-timeline 2 P 3 ranges 1\nrange 0 inf\ntransmission 0 1 0 1 2 8 4 0 0\n"
		  "orecv 2 0 5 6 0 4\n",
		  "t.tl:4:15: error: the message of send op 4 of rank 0 goes to rank 1, not 2" },
		{ "loggopsim-timeline 2 P 3 ranges 1\nrange 0 inf\ntransmission 0 1 0 1 9 8 4 0 0\n"
		  "orecv 1 0 5 6 0 4\n",
		  "t.tl:4:15: error: the message is handled at 5 before it arrives (9)" },
		{ "loggopsim-timeline 2 P 2 ranges 1\nrange 0 inf\norecv 1 0 5 6 0\n",
		  "t.tl:3:16: error: missing send op" },
		/* version 4: a calc's op ends its loclop line, which version 2 lacks */
		{ "loggopsim-timeline 4 P 2 ranges 1\nrange 0 inf\nloclop 1 0 5 6\n",
		  "t.tl:3:15: error: missing calc op" },
		{ "loggopsim-timeline 4 P 2 ranges 1\nrange 0 inf\nloclop 1 0 5 6 4294967296\n",
		  "t.tl:3:16: error: op 4294967296 out of range (below 2^32)" },
		{ "loggopsim-timeline 2 P 2 ranges 1\nrange 0 inf\nloclop 1 0 5 6 3\n",
		  "t.tl:3:16: error: unexpected text at the end of the line" },
		{ "loggopsim-timeline 3 P 2 ranges 1\nrange 0 inf\nloclop 1 0 5 6 3\n",
		  "t.tl:3:16: error: unexpected text at the end of the line" },
	};
	for (size_t i = 0; i < sizeof bad2 / sizeof bad2[0]; i++) {
		CHECK(read_str(&tl, bad2[i].text, &w, err, sizeof err) != 0);
		CHECK_STR(err, bad2[i].err);
		tl_free(&tl);
	}

	CHECK(read_str(&tl, "loggopsim-timeline 4 P 2 ranges 1\nrange 0 inf\nloclop 1 0 5 6 4294967295\n",
	               &w, err, sizeof err) == 0);
	CHECK_EQ_U64(tl.nbars, 1);
	CHECK_EQ_U64(tl.bars[0].end, 6);
	tl_free(&tl);

	CHECK(read_str(&tl, "numranks 1;\nosend 0 0 5 9 0.5 0 1;\n", &w, err, sizeof err) == 0);
	CHECK(tl.old_format);
	CHECK_EQ_U64(tl.bars[0].end, 9);
	tl_free(&tl);

	CHECK(read_str(&tl, "numranks 1;\nosend 0 0 5 9 x 0 1;\n", &w, err, sizeof err) != 0);
	CHECK_STR(err, "t.tl:2:15: error: bad colour field (expected a number)");
	tl_free(&tl);

	/* A lane has a row per CPU and NIC of the header, up to TL_MAX_ROWS;
	 * past that, the rows its records use. */
	CHECK(read_str(&tl, "loggopsim-timeline 1 P 2 L 1 o 1 g 1 G 0 O 0 S 1 ncpus 3 nnics 2\n",
	               &w, err, sizeof err) == 0);
	CHECK_EQ_U64(tl.cpu_rows, 3);
	CHECK_EQ_U64(tl.nic_rows, 2);
	tl_free(&tl);
	CHECK(read_str(&tl, "loggopsim-timeline 1 P 2 L 1 o 1 g 1 G 0 O 0 S 1 ncpus 65535 nnics 65535\n"
	               "loclop 1 4 0 10\n", &w, err, sizeof err) == 0);
	CHECK_EQ_U64(tl.ncpus, 65535);
	CHECK_EQ_U64(tl.cpu_rows, 5);
	CHECK_EQ_U64(tl.nic_rows, 1);
	tl_free(&tl);

	/* One record can make a lane of 1000 rows: then the lanes drawn have
	 * at most TL_MAX_ALL_ROWS rows in all, the others are left out. */
	CHECK(read_str(&tl, "loggopsim-timeline 1 P 300 L 1 o 1 g 1 G 0 O 0 S 1 ncpus 65535 nnics 1\n"
	               "loclop 0 999 0 10\nloclop 64 0 0 10\nloclop 65 0 0 10\n"
	               "transmission 64 0 0 1 8\ntransmission 65 0 0 1 8\n", &w, err, sizeof err) == 0);
	CHECK_EQ_U64(tl.cpu_rows, 1000);
	CHECK_EQ_U64(tl.nlanes, 65);
	CHECK_EQ_U64(tl.lanes_left_out, 235);
	CHECK_EQ_U64(tl.first_left_out, 65);
	CHECK_EQ_U64(tl.nbars, 2);
	CHECK_EQ_U64(tl.nmsgs, 1);
	tl_free(&tl);
	/* a lane of 65,536 cpus and 65,536 nics is drawn alone */
	CHECK(read_str(&tl, "loggopsim-timeline 1 P 300 ncpus 65536 nnics 65536\n"
	               "loclop 0 65535 0 1\ngsend 0 65535 0 1\n", &w, err, sizeof err) == 0);
	CHECK_EQ_U64(tl.nlanes, 1);
	CHECK_EQ_U64(tl.lanes_left_out, 299);
	tl_free(&tl);
	/* the old format: the rows are the cpus used */
	CHECK(read_str(&tl, "numranks 300;\nosend 0 65535 0 1 0 0 0;\n", &w, err, sizeof err) == 0);
	CHECK_EQ_U64(tl.cpu_rows, 65536);
	CHECK_EQ_U64(tl.nlanes, 1);
	tl_free(&tl);
	return check_done();
}
