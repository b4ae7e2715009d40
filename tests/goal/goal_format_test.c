/* goal_format_test.c: unit tests of the binary format library: writer,
 * reader, validation of corrupted and truncated files, labels. */
#include "goal.h"
#include "../check.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[] = "/tmp/goal-format-test-XXXXXX";

static char *path(const char *name)
{
	static char buf[256];
	snprintf(buf, sizeof buf, "%s/%s", dir, name);
	return buf;
}

static goal_op op(goal_kind kind, uint64_t size, uint32_t peer, int32_t tag)
{
	goal_op o;
	memset(&o, 0, sizeof o);
	o.kind = (uint8_t)kind;
	o.size = size;
	o.peer = peer;
	o.tag = tag;
	return o;
}

/* Rank 0: send, recv, calc with "l3 requires l1", "l3 irequires l2",
 * a repeated line; rank 1: recv any, send back. */
static int write_small(const char *p, int labels)
{
	char err[256];
	goal_writer *w = goal_writer_create(p, 2, err, sizeof err);
	goal_op o;
	if (!w)
		return -1;
	goal_writer_rank_begin(w);
	o = op(GOAL_SEND, 10, 1, 5);
	goal_writer_op(w, &o, labels ? "a" : NULL, 1, NULL);
	o = op(GOAL_RECV, 10, 1, 5);
	o.cpu = 1;
	o.nic = 2;
	goal_writer_op(w, &o, labels ? "b" : NULL, 1, NULL);
	o = op(GOAL_CALC, 700, 0, 0);
	goal_writer_op(w, &o, labels ? "c_3" : NULL, 3, NULL);
	goal_writer_dep(w, 2, 0, 0);
	goal_writer_dep(w, 2, 1, 1);
	goal_writer_dep(w, 2, 0, 0); /* repeat: adds nothing */
	if (goal_writer_rank_end(w))
		return -1;
	goal_writer_rank_begin(w);
	o = op(GOAL_RECV, 10, GOAL_ANY_SOURCE, GOAL_ANY_TAG);
	goal_writer_op(w, &o, NULL, 0, NULL);
	o = op(GOAL_SEND, 10, 0, 5);
	goal_writer_op(w, &o, NULL, 0, NULL);
	goal_writer_dep(w, 1, 0, 0);
	if (goal_writer_rank_end(w))
		return -1;
	return goal_writer_close(w);
}

static unsigned char *slurp(const char *p, size_t *len)
{
	struct stat st;
	unsigned char *buf;
	int fd = open(p, O_RDONLY);
	if (fd < 0 || fstat(fd, &st))
		return NULL;
	buf = aligned_alloc(8, ((size_t)st.st_size + 7) & ~(size_t)7);
	if (buf && read(fd, buf, (size_t)st.st_size) != st.st_size) {
		free(buf);
		buf = NULL;
	}
	close(fd);
	*len = (size_t)st.st_size;
	return buf;
}

static void test_round_values(void)
{
	goal_sched s;
	char err[256], lb[32];
	const goal_op *ops;
	const goal_edge *e;

	CHECK(write_small(path("small.bin"), 1) == 0);
	CHECK(goal_sched_open(&s, path("small.bin"), err, sizeof err) == 0);
	CHECK_EQ_U64(s.nranks, 2);
	CHECK_EQ_U64(s.nops, 5);
	CHECK_EQ_U64(s.nedges, 3);
	CHECK_EQ_U64(s.ncpus, 2);
	CHECK_EQ_U64(s.nnics, 3);
	CHECK_EQ_U64(s.max_rank_ops, 3);
	CHECK_EQ_U64(goal_rank_nops(&s, 0), 3);
	CHECK_EQ_U64(goal_rank_nops(&s, 1), 2);
	ops = goal_rank_ops(&s, 0);
	e = goal_rank_edges(&s, 0);
	CHECK_EQ_U64(ops[0].kind, GOAL_SEND);
	CHECK_EQ_U64(ops[0].size, 10);
	CHECK_EQ_U64(goal_op_peer(&s, 0, &ops[0]), 1);
	CHECK_EQ_U64(ops[0].tag, 5);
	CHECK_EQ_U64(ops[1].cpu, 1);
	CHECK_EQ_U64(ops[1].nic, 2);
	CHECK_EQ_U64(ops[2].size, 700);
	CHECK_EQ_U64(ops[2].ndeps, 2);
	/* op 0's edges: l3 requires it; op 1's: l3 irequires it. */
	CHECK_EQ_U64(ops[0].dep_begin, 0);
	CHECK_EQ_U64(goal_op_dep_end(&s, 0, ops, 0), 1);
	CHECK_EQ_U64(e[0], 2);
	CHECK_EQ_U64(e[1], 2 | GOAL_EDGE_IREQ);
	CHECK_EQ_U64(goal_op_dep_end(&s, 0, ops, 2), 2);
	CHECK_STR(goal_op_label(&s, 0, 2, lb, sizeof lb), "c_3");
	CHECK_STR(goal_op_label(&s, 1, 1, lb, sizeof lb), "l2");
	CHECK(goal_rank_labels(&s, 1) == NULL);
	ops = goal_rank_ops(&s, 1);
	CHECK_EQ_U64(goal_op_peer(&s, 1, &ops[0]), GOAL_ANY_SOURCE);
	CHECK_EQ_U64((uint32_t)ops[0].tag, (uint32_t)GOAL_ANY_TAG);
	goal_sched_close(&s);
}

/* Every truncation is rejected; every single-byte change is either rejected
 * or gives a file that still validates (never undefined behaviour: the
 * sanitizer build runs this). */
static void test_corruption(void)
{
	size_t len;
	unsigned char *good, *buf;
	goal_sched s;
	char err[256];
	int trunc_ok = 1, flips = 0, rejected = 0;

	CHECK(write_small(path("c.bin"), 1) == 0);
	good = slurp(path("c.bin"), &len);
	CHECK(good != NULL);
	if (!good)
		return;
	buf = aligned_alloc(8, (len + 7) & ~(size_t)7);
	for (size_t n = 0; n < len; n++) {
		memcpy(buf, good, n);
		if (goal_sched_from_buffer(&s, buf, n, err, sizeof err) == 0)
			trunc_ok = 0;
	}
	CHECK(trunc_ok);
	for (size_t i = 0; i < len; i++)
		for (int bit = 0; bit < 8; bit++) {
			memcpy(buf, good, len);
			buf[i] ^= (unsigned char)(1u << bit);
			flips++;
			if (goal_sched_from_buffer(&s, buf, len, err, sizeof err))
				rejected++;
		}
	/* Most bits are structural; sizes, tags and label letters are data. */
	CHECK(rejected > flips / 2);
	memcpy(buf, good, len);
	buf[0] = 'X';
	CHECK(goal_sched_from_buffer(&s, buf, len, err, sizeof err) == -1);
	CHECK_STR(err, "not a binary GOAL schedule (bad magic number)");
	memcpy(buf, good, len);
	buf[8] = 9;
	CHECK(goal_sched_from_buffer(&s, buf, len, err, sizeof err) == -1);
	CHECK_STR(err, "format version 9 is not supported (this build reads versions 1, 2 and 3)");
	CHECK(goal_sched_from_buffer(&s, good, len - 8, err, sizeof err) == -1);
	CHECK_STR(err, "truncated or extended: the file has 384 bytes, its header says 392");
	free(buf);
	free(good);
}

static void test_open_errors(void)
{
	goal_sched s;
	char err[512], want[512];
	int fd;

	CHECK(goal_sched_open(&s, path("missing.bin"), err, sizeof err) == -1);
	snprintf(want, sizeof want, "%s: error: cannot open: No such file or directory", path("missing.bin"));
	CHECK_STR(err, want);
	fd = open(path("empty.bin"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
	close(fd);
	CHECK(goal_sched_open(&s, path("empty.bin"), err, sizeof err) == -1);
	snprintf(want, sizeof want, "%s: error: truncated: the file is empty", path("empty.bin"));
	CHECK_STR(err, want);
}

static void test_writer_errors(void)
{
	char err[256];
	goal_writer *w;
	goal_op o;

	/* A cycle names the labels and the first dependency on it. */
	w = goal_writer_create(NULL, 1, err, sizeof err);
	goal_writer_rank_begin(w);
	o = op(GOAL_CALC, 1, 0, 0);
	goal_writer_op(w, &o, "x", 1, NULL);
	goal_writer_op(w, &o, "y", 1, NULL);
	goal_writer_op(w, &o, "z", 1, NULL);
	goal_writer_dep(w, 2, 0, 0);
	goal_writer_dep(w, 0, 1, 0);
	goal_writer_dep(w, 1, 0, 1);
	CHECK(goal_writer_rank_end(w) == -1);
	CHECK_STR(goal_writer_error(w), "dependency cycle in rank 0: x requires y, y requires x");
	CHECK_EQ_U64(goal_writer_cycle_dep(w), 1);
	goal_writer_abort(w);

	w = goal_writer_create(NULL, 2, err, sizeof err);
	goal_writer_rank_begin(w);
	o = op(GOAL_SEND, 1, 2, 0);
	CHECK(goal_writer_op(w, &o, NULL, 0, NULL) == -1);
	CHECK_STR(goal_writer_error(w), "rank 0: op 0 has peer 2 outside 0..1");
	goal_writer_abort(w);

	w = goal_writer_create(NULL, 2, err, sizeof err);
	goal_writer_rank_begin(w);
	goal_writer_rank_end(w);
	CHECK(goal_writer_finish(w) == -1);
	CHECK_STR(goal_writer_error(w), "1 of 2 ranks written");
	CHECK(goal_writer_close(w) == -1);
}

/* Canonical labels leave no blob: a schedule written with labels l1, l2,
 * ... is byte-identical to one written without labels. */
static void test_canonical_labels(void)
{
	char err[256];
	size_t la, lb;
	unsigned char *a, *b;
	for (int v = 0; v < 2; v++) {
		goal_writer *w = goal_writer_create(path(v ? "lab.bin" : "nolab.bin"), 1, err, sizeof err);
		goal_op o = op(GOAL_CALC, 5, 0, 0);
		goal_writer_rank_begin(w);
		goal_writer_op(w, &o, v ? "l1" : NULL, 2, NULL);
		goal_writer_op(w, &o, v ? "l2" : NULL, 2, NULL);
		goal_writer_dep(w, 1, 0, 0);
		goal_writer_rank_end(w);
		CHECK(goal_writer_close(w) == 0);
	}
	a = slurp(path("lab.bin"), &la);
	b = slurp(path("nolab.bin"), &lb);
	CHECK(a && b && la == lb && memcmp(a, b, la) == 0);
	free(a);
	free(b);
}

/* One rank of three calcs labeled a, b, c ("" or NULL: none), with
 * "1 requires 0" when dep; the writer's error or "" when it accepts it.
 * Written to PATH when accepted. */
static const char *write_labels(const char *p, const char *a, const char *b,
                                const char *c, int dep)
{
	static char msg[256];
	char err[256];
	const char *lab[3] = { a, b, c };
	goal_writer *w = goal_writer_create(p, 1, err, sizeof err);
	goal_op o = op(GOAL_CALC, 5, 0, 0);
	goal_writer_rank_begin(w);
	for (int i = 0; i < 3; i++)
		goal_writer_op(w, &o, lab[i], lab[i] ? strlen(lab[i]) : 0, NULL);
	if (dep)
		goal_writer_dep(w, 1, 0, 0);
	msg[0] = 0;
	if (goal_writer_rank_end(w) || goal_writer_finish(w))
		snprintf(msg, sizeof msg, "%s", goal_writer_error(w));
	if (msg[0])
		goal_writer_abort(w);
	else
		CHECK(goal_writer_close(w) == 0);
	return msg;
}

/* The dump is the inverse of the writer: what the writer accepts dumps as
 * GOAL text naming every op in a dependency, and the writer rejects labels
 * that the text cannot say (keywords, repeats, an unlabeled op in a
 * dependency beside non-canonical labels).  The reader rejects such blobs
 * too, and a blob of canonical labels only (the writer leaves none). */
static void test_dumpable_labels(void)
{
	goal_sched s;
	char err[256];
	size_t len;
	unsigned char *buf;

	CHECK_STR(write_labels(path("k.bin"), "send", "b", NULL, 0),
	          "rank 0: op 0 has the label 'send', a GOAL keyword");
	CHECK_STR(write_labels(path("k.bin"), "x", "irequires", NULL, 0),
	          "rank 0: op 1 has the label 'irequires', a GOAL keyword");
	CHECK_STR(write_labels(path("k.bin"), "to", "tag", "nic", 1), "");
	CHECK_STR(write_labels(path("k.bin"), "x", "y", "x", 0),
	          "rank 0: ops 0 and 2 have the same label 'x'");
	CHECK_STR(write_labels(path("k.bin"), "l2", "l1", "l1", 0),
	          "rank 0: ops 1 and 2 have the same label 'l1'");
	CHECK_STR(write_labels(path("k.bin"), NULL, "b", NULL, 1),
	          "rank 0: op 0 is in a dependency but has no label, and the labels of its rank are not l1, l2, ...");
	CHECK_STR(write_labels(path("k.bin"), "a", NULL, "c", 1),
	          "rank 0: op 1 is in a dependency but has no label, and the labels of its rank are not l1, l2, ...");
	/* Accepted: the unlabeled op is in no dependency; or the other labels
	 * are canonical, so the rank has no blob and the dump says l1. */
	CHECK_STR(write_labels(path("k.bin"), "a", "b", NULL, 1), "");
	CHECK_STR(write_labels(path("k.bin"), NULL, "l2", "l3", 1), "");
	CHECK(goal_sched_open(&s, path("k.bin"), err, sizeof err) == 0);
	CHECK(goal_rank_labels(&s, 0) == NULL);
	goal_sched_close(&s);

	/* Blobs the writer never writes, made by editing one it wrote. */
	CHECK_STR(write_labels(path("k.bin"), "xy", "l2", "zz", 1), "");
	buf = slurp(path("k.bin"), &len);
	CHECK(buf != NULL);
	if (!buf)
		return;
	unsigned char *z = memmem(buf, len, "zz", 3);
	CHECK(z != NULL);
	if (z) {
		memcpy(z, "xy", 2);
		CHECK(goal_sched_from_buffer(&s, buf, len, err, sizeof err) == -1);
		CHECK_STR(err, "rank 0: ops 0 and 2 have the same label 'xy'");
		memcpy(z, "l3", 2);
		memcpy(z - 6, "l1", 2);
		CHECK(goal_sched_from_buffer(&s, buf, len, err, sizeof err) == -1);
		CHECK_STR(err, "rank 0: a label blob of canonical labels only (l1, l2, ...)");
		memcpy(z - 6, "if", 2);
		CHECK(goal_sched_from_buffer(&s, buf, len, err, sizeof err) == 0);
	}
	free(buf);
}

/* The header's CPU and NIC counts size every rank's state in the
 * simulator: they must be what the ops use (small.bin: 2 CPUs, 3 NICs). */
static void test_header_counts(void)
{
	goal_sched s;
	char err[256];
	size_t len;
	unsigned char *buf = slurp(path("small.bin"), &len);
	CHECK(buf != NULL);
	if (!buf)
		return;
	uint32_t v = 65536;
	memcpy(buf + 48, &v, 4);
	memcpy(buf + 52, &v, 4);
	CHECK(goal_sched_from_buffer(&s, buf, len, err, sizeof err) == -1);
	CHECK_STR(err, "the header says 65536 CPUs and 65536 NICs per rank, the ops use 2 and 3");
	v = 2;
	memcpy(buf + 48, &v, 4);
	CHECK(goal_sched_from_buffer(&s, buf, len, err, sizeof err) == -1);
	CHECK_STR(err, "the header says 2 CPUs and 65536 NICs per rank, the ops use 2 and 3");
	v = 3;
	memcpy(buf + 52, &v, 4);
	CHECK(goal_sched_from_buffer(&s, buf, len, err, sizeof err) == 0);
	free(buf);
}

/* Comms: indices in the order of first use, the table in the file, the
 * reader's checks of indices and table, and version-1 files (no comm
 * header, no table) read as comm 0 throughout. */
static void test_comms(void)
{
	char err[256];
	goal_writer *w = goal_writer_create(path("comm.bin"), 2, err, sizeof err);
	goal_op o;
	goal_sched s;
	size_t len;
	unsigned char *good, *buf;

	goal_writer_rank_begin(w);
	o = op(GOAL_SEND, 1, 1, 0);
	goal_writer_op_comm(w, &o, 9, NULL, 0, NULL);
	goal_writer_op_comm(w, &o, 0, NULL, 0, NULL);
	goal_writer_op_comm(w, &o, GOAL_MAX_COMM, NULL, 0, NULL);
	goal_writer_rank_end(w);
	goal_writer_rank_begin(w);
	o = op(GOAL_RECV, 1, GOAL_ANY_SOURCE, GOAL_ANY_TAG);
	goal_writer_op_comm(w, &o, GOAL_MAX_COMM, NULL, 0, NULL);
	goal_writer_op_comm(w, &o, 9, NULL, 0, NULL);
	goal_writer_op(w, &o, NULL, 0, NULL);
	goal_writer_rank_end(w);
	CHECK(goal_writer_close(w) == 0);
	CHECK(goal_sched_open(&s, path("comm.bin"), err, sizeof err) == 0);
	CHECK_EQ_U64(s.version, 3);
	CHECK_EQ_U64(s.ncomms, 3);
	CHECK_EQ_U64(s.comms[0], 0);
	CHECK_EQ_U64(s.comms[1], 9);
	CHECK_EQ_U64(s.comms[2], GOAL_MAX_COMM);
	CHECK_EQ_U64(goal_op_comm(&goal_rank_ops(&s, 0)[0]), 1);
	CHECK_EQ_U64(goal_op_comm(&goal_rank_ops(&s, 0)[1]), 0);
	CHECK_EQ_U64(goal_op_comm(&goal_rank_ops(&s, 0)[2]), 2);
	CHECK_EQ_U64(goal_op_comm(&goal_rank_ops(&s, 1)[0]), 2);
	CHECK_EQ_U64(goal_op_comm(&goal_rank_ops(&s, 1)[1]), 1);
	CHECK_EQ_U64(goal_op_comm(&goal_rank_ops(&s, 1)[2]), 0);
	/* 80 + 3 * 24 + 2 * 3 * 32, then the table: 3 entries and padding,
	 * then the block table (2 * 24). */
	CHECK_EQ_U64(s.size, 344 + 16 + 48);
	goal_sched_close(&s);

	good = slurp(path("comm.bin"), &len);
	CHECK(good != NULL && len == 408);
	if (!good || len != 408)
		return;
	buf = aligned_alloc(8, len);
	/* Op 0 of rank 0 (at 152) names index 3, outside the table. */
	memcpy(buf, good, len);
	buf[152 + 29] = 3;
	CHECK(goal_sched_from_buffer(&s, buf, len, err, sizeof err) == -1);
	CHECK_STR(err, "rank 0 op 0: comm index 3 is out of range (the table has 3, first used in order)");
	/* Index 2 before index 1. */
	memcpy(buf, good, len);
	buf[152 + 29] = 2;
	CHECK(goal_sched_from_buffer(&s, buf, len, err, sizeof err) == -1);
	CHECK_STR(err, "rank 0 op 0: comm index 2 is out of order (the table has 3, first used in order)");
	/* A table entry twice; entry 0 not 0. */
	memcpy(buf, good, len);
	buf[344 + 8] = 9;
	buf[344 + 9] = buf[344 + 10] = buf[344 + 11] = 0;
	CHECK(goal_sched_from_buffer(&s, buf, len, err, sizeof err) == -1);
	CHECK_STR(err, "comm table: comm 9 appears twice");
	memcpy(buf, good, len);
	buf[344] = 1;
	CHECK(goal_sched_from_buffer(&s, buf, len, err, sizeof err) == -1);
	CHECK_STR(err, "comm table: entry 0 is 1, not 0");
	/* A calc in a comm other than 0. */
	w = goal_writer_create(NULL, 1, err, sizeof err);
	goal_writer_rank_begin(w);
	o = op(GOAL_CALC, 1, 0, 0);
	CHECK(goal_writer_op_comm(w, &o, 3, NULL, 0, NULL) == -1);
	CHECK_STR(goal_writer_error(w), "rank 0: op 0 is a calc with comm 3");
	goal_writer_abort(w);
	free(buf);
	free(good);

	/* Version 1: the same bytes without the comm header, the comm table
	 * and the block table, every block 16 bytes earlier (the peers of
	 * write_small read the same absolute and relative). */
	CHECK(write_small(path("v3.bin"), 1) == 0);
	good = slurp(path("v3.bin"), &len);
	CHECK(good != NULL && len == 392);
	if (!good || len != 392)
		return;
	buf = aligned_alloc(8, len);
	memcpy(buf, good, 64);
	memcpy(buf + 64, good + 80, len - 80 - 8 - 48);
	len -= 24 + 48;
	buf[8] = 1;
	memcpy(buf + 40, &(uint64_t){ len }, 8);
	for (int r = 0; r <= 2; r++) {
		uint64_t off;
		memcpy(&off, buf + 64 + 24 * r + 8, 8);
		off -= 16;
		memcpy(buf + 64 + 24 * r + 8, &off, 8);
	}
	CHECK(goal_sched_from_buffer(&s, buf, len, err, sizeof err) == 0);
	CHECK_EQ_U64(s.version, 1);
	CHECK_EQ_U64(s.ncomms, 1);
	CHECK_EQ_U64(s.comms[0], 0);
	CHECK_EQ_U64(goal_rank_ops(&s, 1)[1].size, 10);
	CHECK_EQ_U64(s.nops, 5);
	/* Its reserved bytes, now the comm index, must be 0. */
	buf[64 + 3 * 24 + 29] = 1;
	CHECK(goal_sched_from_buffer(&s, buf, len, err, sizeof err) == -1);
	CHECK_STR(err, "rank 0 op 0: comm index 1 is out of range (the table has 1, first used in order)");
	free(buf);
	free(good);
}

/* Strided ops: the writer's table after the comm table, the reader's
 * checks of it, and the lookup. */
static void test_strides(void)
{
	char err[256];
	goal_writer *w = goal_writer_create(path("stride.bin"), 2, err, sizeof err);
	goal_op o;
	goal_sched s;
	size_t len;
	unsigned char *good, *buf;

	goal_writer_rank_begin(w);
	o = op(GOAL_SEND, 1024, 1, 0);
	goal_writer_op(w, &o, NULL, 0, NULL);
	CHECK(goal_writer_stride(w, 64, 8) == 0);
	o = op(GOAL_CALC, 5, 0, 0);
	goal_writer_op(w, &o, NULL, 0, NULL);
	o = op(GOAL_SEND, 8, 1, 0);
	goal_writer_op(w, &o, NULL, 0, NULL);
	goal_writer_rank_end(w);
	goal_writer_rank_begin(w);
	o = op(GOAL_RECV, 1024, 0, 0);
	goal_writer_op(w, &o, NULL, 0, NULL);
	CHECK(goal_writer_stride(w, 128, 16) == 0);
	o = op(GOAL_RECV, 8, 0, 0);
	goal_writer_op(w, &o, NULL, 0, NULL);
	goal_writer_rank_end(w);
	CHECK(goal_writer_close(w) == 0);
	CHECK(goal_sched_open(&s, path("stride.bin"), err, sizeof err) == 0);
	CHECK_EQ_U64(s.hdr->flags, GOAL_F_STRIDES);
	CHECK_EQ_U64(s.nstrides, 2);
	CHECK(goal_op_stride(&s, 0) && goal_op_stride(&s, 0)->stride == 64
	      && goal_op_stride(&s, 0)->block == 8);
	CHECK(goal_op_stride(&s, 1) == NULL && goal_op_stride(&s, 2) == NULL
	      && goal_op_stride(&s, 4) == NULL && goal_op_stride(&s, 5) == NULL);
	CHECK(goal_op_stride(&s, 3) && goal_op_stride(&s, 3)->stride == 128
	      && goal_op_stride(&s, 3)->block == 16);
	/* 80 + 3 * 24 + 5 * 32, the comm table (8), the block table (2 * 24),
	 * then 8 + 2 * 16. */
	CHECK_EQ_U64(s.size, 408);
	goal_sched_close(&s);

	good = slurp(path("stride.bin"), &len);
	CHECK(good != NULL && len == 408);
	if (!good || len != 408)
		return;
	buf = aligned_alloc(8, len);
	/* The table starts at 368: the count, then {op, stride, block}. */
	memcpy(buf, good, len);
	buf[368] = 0;
	CHECK(goal_sched_from_buffer(&s, buf, len, err, sizeof err) == -1);
	CHECK_STR(err, "the stride table is out of place or of a wrong size");
	memcpy(buf, good, len);
	buf[368] = 3;
	CHECK(goal_sched_from_buffer(&s, buf, len, err, sizeof err) == -1);
	CHECK_STR(err, "the stride table is out of place or of a wrong size");
	memcpy(buf, good, len);
	buf[376] = 1;   /* the calc */
	CHECK(goal_sched_from_buffer(&s, buf, len, err, sizeof err) == -1);
	CHECK_STR(err, "stride table: rank 0 op 1 is a calc");
	memcpy(buf, good, len);
	buf[392] = 0;   /* op 0 twice */
	CHECK(goal_sched_from_buffer(&s, buf, len, err, sizeof err) == -1);
	CHECK_STR(err, "stride table: entry 1 names op 0 (ops increase, below 5)");
	memcpy(buf, good, len);
	buf[392] = 5;
	CHECK(goal_sched_from_buffer(&s, buf, len, err, sizeof err) == -1);
	CHECK_STR(err, "stride table: entry 1 names op 5 (ops increase, below 5)");
	memcpy(buf, good, len);
	buf[388] = 65;  /* block 65 > stride 64 */
	CHECK(goal_sched_from_buffer(&s, buf, len, err, sizeof err) == -1);
	CHECK_STR(err, "stride table: rank 0 op 0 has stride 64 and block 65 (1 <= block <= stride <= 2147483648)");
	memcpy(buf, good, len);
	buf[388] = 0;
	CHECK(goal_sched_from_buffer(&s, buf, len, err, sizeof err) == -1);
	memcpy(buf, good, len);
	buf[384 + 3] = 0x80;
	buf[384] = 1;   /* stride 2^31 + 1 */
	CHECK(goal_sched_from_buffer(&s, buf, len, err, sizeof err) == -1);
	/* Stride 2^31 with block 2^31 is fine. */
	memcpy(buf, good, len);
	memcpy(buf + 384, &(uint32_t){ GOAL_MAX_STRIDE }, 4);
	memcpy(buf + 388, &(uint32_t){ GOAL_MAX_STRIDE }, 4);
	CHECK(goal_sched_from_buffer(&s, buf, len, err, sizeof err) == 0);
	/* The flag without the table; the table without the flag. */
	memcpy(buf, good, len);
	buf[12] = 0;
	CHECK(goal_sched_from_buffer(&s, buf, len, err, sizeof err) == -1);
	CHECK_STR(err, "the comm table is out of place or of a wrong size");
	memcpy(buf, good, 368);
	buf[12] = GOAL_F_STRIDES;
	memcpy(buf + 40, &(uint64_t){ 368 }, 8);
	CHECK(goal_sched_from_buffer(&s, buf, 368, err, sizeof err) == -1);
	CHECK_STR(err, "the stride table is out of place or of a wrong size");
	free(buf);
	free(good);

	/* The writer's checks. */
	w = goal_writer_create(NULL, 2, err, sizeof err);
	goal_writer_rank_begin(w);
	o = op(GOAL_CALC, 1, 0, 0);
	goal_writer_op(w, &o, NULL, 0, NULL);
	CHECK(goal_writer_stride(w, 8, 8) == -1);
	CHECK_STR(goal_writer_error(w), "rank 0: op 0 is a calc with a stride");
	goal_writer_abort(w);
	w = goal_writer_create(NULL, 2, err, sizeof err);
	goal_writer_rank_begin(w);
	o = op(GOAL_SEND, 1, 1, 0);
	goal_writer_op(w, &o, NULL, 0, NULL);
	CHECK(goal_writer_stride(w, 8, 16) == -1);
	CHECK_STR(goal_writer_error(w), "rank 0: op 0 has stride 8 and block 16 (1 <= block <= stride <= 2147483648)");
	goal_writer_abort(w);
	w = goal_writer_create(NULL, 2, err, sizeof err);
	goal_writer_rank_begin(w);
	o = op(GOAL_SEND, 1, 1, 0);
	goal_writer_op(w, &o, NULL, 0, NULL);
	CHECK(goal_writer_stride(w, 8, 8) == 0);
	CHECK(goal_writer_stride(w, 8, 8) == -1);
	CHECK_STR(goal_writer_error(w), "rank 0: op 0 has two strides");
	goal_writer_abort(w);
}

/* Jobs: job a (start 100) on ranks 2 and 0, job bb (comms from 5) on
 * rank 3, rank 1 in no job and empty. */
static void test_jobs(void)
{
	char err[256];
	goal_writer *w = goal_writer_create(path("jobs.bin"), 4, err, sizeof err);
	goal_op o;
	goal_sched s;
	size_t len;
	unsigned char *good, *buf;

	CHECK(goal_writer_job(w, "a", 1, 100, 0) == 0);
	CHECK(goal_writer_job_rank(w, 2) == 0 && goal_writer_job_rank(w, 0) == 0);
	CHECK(goal_writer_job(w, "bb", 2, 0, 5) == 0 && goal_writer_job_rank(w, 3) == 0);
	goal_writer_rank_begin(w);
	o = op(GOAL_SEND, 8, 2, 0);
	goal_writer_op(w, &o, NULL, 0, NULL);
	goal_writer_rank_end(w);
	goal_writer_rank_begin(w);
	goal_writer_rank_end(w);
	goal_writer_rank_begin(w);
	o = op(GOAL_RECV, 8, 0, 0);
	goal_writer_op(w, &o, NULL, 0, NULL);
	goal_writer_rank_end(w);
	goal_writer_rank_begin(w);
	o = op(GOAL_CALC, 9, 0, 0);
	goal_writer_op(w, &o, NULL, 0, NULL);
	goal_writer_rank_end(w);
	CHECK(goal_writer_close(w) == 0);
	CHECK(goal_sched_open(&s, path("jobs.bin"), err, sizeof err) == 0);
	CHECK_EQ_U64(s.hdr->flags, GOAL_F_JOBS);
	CHECK_EQ_U64(s.njobs, 2);
	CHECK_STR(goal_job_name(&s, 0), "a");
	CHECK_STR(goal_job_name(&s, 1), "bb");
	CHECK(s.jobs[0].start == 100 && s.jobs[0].nranks == 2 && s.jobs[1].comm_base == 5);
	CHECK(s.job_ranks[0] == 2 && s.job_ranks[1] == 0 && s.job_ranks[2] == 3);
	/* 80 + 5 * 24 + 3 * 32, the comm table (8), the block table (3 * 24),
	 * then the job table at 376: 8 + 2 * 24, the ranks (12, padded to
	 * 16), the names "a", "bb" (5, padded to 8). */
	CHECK_EQ_U64(s.size, 456);
	goal_sched_close(&s);

	good = slurp(path("jobs.bin"), &len);
	CHECK(good != NULL && len == 456);
	if (!good || len != 456)
		return;
	buf = aligned_alloc(8, len);
	static const struct {
		size_t at;
		unsigned char v;
		const char *msg;
	} bad[] = {
		{ 376, 0, "the job table is out of place or of a wrong size" },
		{ 376, 5, "the job table is out of place or of a wrong size" },
		{ 392, 1, "job table: entry 0 has first rank 1, 2 ranks, comm base 0 (ranks follow the"
		          " jobs before, at least 1; comm bases increase)" },
		{ 424, 0, "job table: entry 1 has first rank 2, 1 ranks, comm base 0 (ranks follow the"
		          " jobs before, at least 1; comm bases increase)" },
		{ 420, 0, "job table: entry 1 has first rank 2, 0 ranks, comm base 5 (ranks follow the"
		          " jobs before, at least 1; comm bases increase)" },
		{ 428, 3, "job table: entry 1 has its name at 3, not 2" },
		{ 432, 4, "job table: job a: rank 4 is out of range" },
		{ 432, 0, "job table: job a: rank 0 is in two jobs" },
		{ 440, 1, "job table: rank 3 has ops but is in no job" },
		{ 440, 2, "job table: job bb: rank 2 is in two jobs" },
		{ 444, 1, "job table: non-zero padding" },
		{ 453, 1, "job table: non-zero padding" },
		{ 448, '9', "job table: job 0: its name '9' is not a label (1 to 255 letters, digits and"
		            " _, not starting with a digit)" },
	};
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		memcpy(buf, good, len);
		buf[bad[k].at] = bad[k].v;
		CHECK(goal_sched_from_buffer(&s, buf, len, err, sizeof err) == -1);
		CHECK_STR(err, bad[k].msg);
	}
	/* Names "a" and "a". */
	memcpy(buf, good, len);
	memcpy(buf + 450, "a\0\0", 3);
	CHECK(goal_sched_from_buffer(&s, buf, len, err, sizeof err) == -1);
	CHECK_STR(err, "job table: two jobs are named a");
	/* The flag without the table. */
	memcpy(buf, good, len);
	buf[12] = 0;
	CHECK(goal_sched_from_buffer(&s, buf, len, err, sizeof err) == -1);
	CHECK_STR(err, "the comm table is out of place or of a wrong size");
	free(buf);
	free(good);

	/* The writer's checks. */
	static const struct {
		const char *name;
		uint32_t comm, rank;
		const char *msg;
	} wbad[] = {
		{ "rank", 1, 0, "job name 'rank' is a GOAL keyword" },
		{ "a b", 1, 0, "job name 'a b' is not a label (1 to 255 letters, digits and _, not starting"
		               " with a digit)" },
		{ "a", 1, 0, "two jobs are named a" },
		{ "b", 0, 0, "job b: its comms start at 0, not after the job before's (0)" },
		{ "b", 1, 4, "job b: rank 4 is outside 0..3" },
		{ "b", 1, 0, "job b: rank 0 is already in job a" },
	};
	for (size_t k = 0; k < sizeof wbad / sizeof wbad[0]; k++) {
		w = goal_writer_create(NULL, 4, err, sizeof err);
		CHECK(goal_writer_job(w, "a", 1, 0, 0) == 0 && goal_writer_job_rank(w, 0) == 0);
		CHECK(goal_writer_job(w, wbad[k].name, strlen(wbad[k].name), 0, wbad[k].comm) == -1
		      || goal_writer_job_rank(w, wbad[k].rank) == -1);
		CHECK_STR(goal_writer_error(w), wbad[k].msg);
		goal_writer_abort(w);
	}
	w = goal_writer_create(NULL, 2, err, sizeof err);
	CHECK(goal_writer_job(w, "a", 1, 0, 0) == 0);
	CHECK(goal_writer_rank_begin(w) == -1);
	CHECK_STR(goal_writer_error(w), "job a has no ranks");
	goal_writer_abort(w);
	w = goal_writer_create(NULL, 2, err, sizeof err);
	CHECK(goal_writer_job(w, "a", 1, 0, 0) == 0 && goal_writer_job_rank(w, 0) == 0);
	goal_writer_rank_begin(w);
	goal_writer_rank_end(w);
	goal_writer_rank_begin(w);
	o = op(GOAL_CALC, 9, 0, 0);
	goal_writer_op(w, &o, NULL, 0, NULL);
	CHECK(goal_writer_rank_end(w) == -1);
	CHECK_STR(goal_writer_error(w), "rank 1 has ops but is in no job");
	goal_writer_abort(w);
	w = goal_writer_create(NULL, 2, err, sizeof err);
	goal_writer_rank_begin(w);
	CHECK(goal_writer_job(w, "a", 1, 0, 0) == -1);
	CHECK_STR(goal_writer_error(w), "job a declared after the first rank");
	goal_writer_abort(w);
}

/* A schedule of 2^22 ops or more is checked in two halves at once: it
 * validates, and a bad op gives the message of the first bad rank, in
 * either half, as one pass in order does. */
static void test_split_check(void)
{
	enum { RANKS = 4096, OPS = 1025 };
	char err[256];
	goal_writer *w = goal_writer_create(path("split.bin"), RANKS, err, sizeof err);
	CHECK(w != NULL);
	if (!w)
		return;
	int ok = 1;
	for (uint32_t r = 0; r < RANKS; r++) {
		ok &= goal_writer_rank_begin(w) == 0;
		for (uint32_t i = 0; i < OPS; i++) {
			goal_op o = op(GOAL_CALC, r * OPS + i, 0, 0);  /* no two ranks alike */
			ok &= goal_writer_op(w, &o, NULL, 0, NULL) == 0;
		}
		ok &= goal_writer_rank_end(w) == 0;
	}
	CHECK(ok && goal_writer_close(w) == 0);
	size_t len;
	unsigned char *buf = slurp(path("split.bin"), &len);
	CHECK(buf != NULL);
	if (!buf)
		return;
	goal_sched s;
	CHECK(goal_sched_from_buffer(&s, buf, len, err, sizeof err) == 0);
	CHECK_EQ_U64(s.nops, (uint64_t)RANKS * OPS);
	goal_sched_close(&s);
	/* the kind byte of op i of rank r (the rank table follows the 80-byte
	 * header of versions 2 and 3; an op's kind is its byte 28) */
	uint64_t off3000, off7;
	memcpy(&off3000, buf + 80 + 24 * 3000 + 8, 8);
	memcpy(&off7, buf + 80 + 24 * 7 + 8, 8);
	buf[off3000 + 32 * 5 + 28] = 9;
	CHECK(goal_sched_from_buffer(&s, buf, len, err, sizeof err) == -1);
	CHECK_STR(err, "rank 3000 op 5: bad kind");
	buf[off7 + 32 * 1 + 28] = 9;
	CHECK(goal_sched_from_buffer(&s, buf, len, err, sizeof err) == -1);
	CHECK_STR(err, "rank 7 op 1: bad kind");
	free(buf);
}

/* Version 3: ranks whose blocks are equal once peers are relative share
 * one block; the block table and the rank entries that name its blocks are
 * checked.  A ring of 4 ranks: send to r+1, recv from r-1, a calc after
 * both; with odd, rank 2 tags its send 1 (a block of its own). */
static int write_ring(const char *p, int odd)
{
	char err[256];
	goal_writer *w = goal_writer_create(p, 4, err, sizeof err);
	if (!w)
		return -1;
	for (uint32_t r = 0; r < 4; r++) {
		goal_op o = op(GOAL_SEND, 8, (r + 1) % 4, odd && r == 2);
		goal_writer_rank_begin(w);
		goal_writer_op(w, &o, NULL, 0, NULL);
		o = op(GOAL_RECV, 8, (r + 3) % 4, 0);
		goal_writer_op(w, &o, NULL, 0, NULL);
		o = op(GOAL_CALC, 100, 0, 0);
		goal_writer_op(w, &o, NULL, 0, NULL);
		goal_writer_dep(w, 2, 0, 0);
		goal_writer_dep(w, 2, 1, 0);
		if (goal_writer_rank_end(w))
			return -1;
	}
	return goal_writer_close(w);
}

static void test_shared_blocks(void)
{
	char err[256];
	goal_sched s;
	size_t len;
	unsigned char *good, *buf;

	CHECK(write_ring(path("ring.bin"), 0) == 0);
	CHECK(goal_sched_open(&s, path("ring.bin"), err, sizeof err) == 0);
	/* 80 + 5 * 24, one block (3 * 32 + 8 of edges), the comm table (8),
	 * the block table (24). */
	CHECK_EQ_U64(s.size, 80 + 120 + 104 + 8 + 24);
	CHECK_EQ_U64(s.nblocks, 1);
	CHECK_EQ_U64(s.nops, 12);
	CHECK_EQ_U64(s.nedges, 8);
	CHECK_EQ_U64(s.blocks[0].off, 200);
	CHECK_EQ_U64(s.blocks[0].nops, 3);
	CHECK_EQ_U64(s.blocks[0].nedges, 2);
	for (uint64_t r = 0; r < 4; r++) {
		const goal_op *o = goal_rank_ops(&s, r);
		CHECK_EQ_U64(s.ranks[r].block_off, 200);
		CHECK_EQ_U64(s.ranks[r].first_op, 3 * r);
		CHECK_EQ_U64(goal_op_peer(&s, r, &o[0]), (r + 1) % 4);
		CHECK_EQ_U64(goal_op_peer(&s, r, &o[1]), (r + 3) % 4);
		CHECK_EQ_U64(o[0].peer, 1);     /* stored relative */
		CHECK_EQ_U64(o[1].peer, 3);
	}
	goal_sched_close(&s);

	CHECK(write_ring(path("ring2.bin"), 1) == 0);
	good = slurp(path("ring2.bin"), &len);
	CHECK(good != NULL && len == 80 + 120 + 2 * 104 + 8 + 48);
	if (!good || len != 80 + 120 + 2 * 104 + 8 + 48)
		return;
	CHECK(goal_sched_from_buffer(&s, good, len, err, sizeof err) == 0);
	CHECK_EQ_U64(s.nblocks, 2);
	CHECK_EQ_U64(s.ranks[2].block_off, 304);
	CHECK_EQ_U64(s.ranks[3].block_off, 200);
	CHECK_EQ_U64(goal_rank_ops(&s, 2)[0].tag, 1);
	CHECK_EQ_U64(goal_rank_ops(&s, 3)[0].tag, 0);
	buf = aligned_alloc(8, len);
	/* Rank 3 names an offset inside block 0; rank 0 names block 1 before
	 * a rank brought it. */
	memcpy(buf, good, len);
	memcpy(buf + 80 + 3 * 24 + 8, &(uint64_t){ 208 }, 8);
	CHECK(goal_sched_from_buffer(&s, buf, len, err, sizeof err) == -1);
	CHECK_STR(err, "rank 3: rank table entry names no block");
	memcpy(buf, good, len);
	memcpy(buf + 80 + 8, &(uint64_t){ 304 }, 8);
	CHECK(goal_sched_from_buffer(&s, buf, len, err, sizeof err) == -1);
	CHECK_STR(err, "rank 0: rank table entry names no block");
	/* Rank 3 shares block 1 (same counts): valid, and its ops are those. */
	memcpy(buf, good, len);
	memcpy(buf + 80 + 3 * 24 + 8, &(uint64_t){ 304 }, 8);
	CHECK(goal_sched_from_buffer(&s, buf, len, err, sizeof err) == 0);
	CHECK_EQ_U64(goal_rank_ops(&s, 3)[0].tag, 1);
	/* Counts of a rank that differ from its block's; a block table entry
	 * with a non-zero pad; a block table of a wrong length. */
	memcpy(buf, good, len);
	buf[80 + 3 * 24 + 16] = 1;      /* nedges */
	CHECK(goal_sched_from_buffer(&s, buf, len, err, sizeof err) == -1);
	CHECK_STR(err, "rank 3: rank table entry does not match its block");
	memcpy(buf, good, len);
	buf[len - 48 + 20] = 1;
	CHECK(goal_sched_from_buffer(&s, buf, len, err, sizeof err) == -1);
	CHECK_STR(err, "rank 0: rank table entry does not match its block");
	memcpy(buf, good, len);
	buf[76] = 3;                    /* nblocks */
	CHECK(goal_sched_from_buffer(&s, buf, len, err, sizeof err) == -1);
	CHECK_STR(err, "the comm table is out of place or of a wrong size");
	memcpy(buf, good, len);
	buf[76] = 0;
	CHECK(goal_sched_from_buffer(&s, buf, len, err, sizeof err) == -1);
	CHECK_STR(err, "the comm table is out of place or of a wrong size");
	/* Block 1 out of place (its entry names 312). */
	memcpy(buf, good, len);
	memcpy(buf + len - 24, &(uint64_t){ 312 }, 8);
	memcpy(buf + 80 + 2 * 24 + 8, &(uint64_t){ 312 }, 8);
	CHECK(goal_sched_from_buffer(&s, buf, len, err, sizeof err) == -1);
	CHECK_STR(err, "block 1 (rank 2): out of place");
	/* Version 2: a block per rank; the same bytes with nblocks 1 and
	 * version 2 name a block twice. */
	memcpy(buf, good, len);
	buf[8] = 2;
	buf[76] = 0;
	CHECK(goal_sched_from_buffer(&s, buf, len, err, sizeof err) == -1);
	CHECK_STR(err, "rank 1: rank table entry out of place");
	/* The comm table at an offset that is not a multiple of 8 (4 bytes
	 * inserted before it, the sizes following): refused before the comm
	 * and block tables are read (they would be read misaligned). */
	{
		size_t ct = len - 8 - 48;       /* the comm table */
		unsigned char *b4 = aligned_alloc(8, len + 8);
		uint64_t v;
		CHECK(b4 != NULL);
		if (b4) {
			memcpy(b4, good, ct);
			memset(b4 + ct, 0, 4);
			memcpy(b4 + ct + 4, good + ct, len - ct);
			memcpy(&v, b4 + 64, 8);
			v += 4;
			memcpy(b4 + 64, &v, 8);     /* comm_off */
			memcpy(&v, b4 + 40, 8);
			v += 4;
			memcpy(b4 + 40, &v, 8);     /* file_size */
			CHECK(goal_sched_from_buffer(&s, b4, len + 4, err, sizeof err) == -1);
			CHECK_STR(err, "the comm table is out of place or of a wrong size");
			free(b4);
		}
	}
	free(buf);
	free(good);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_round_values();
	test_corruption();
	test_open_errors();
	test_writer_errors();
	test_canonical_labels();
	test_dumpable_labels();
	test_header_counts();
	test_comms();
	test_strides();
	test_jobs();
	test_split_check();
	test_shared_blocks();
	{
		char cmd[300];
		snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
		if (system(cmd) != 0)
			return 1;
	}
	return check_done();
}
