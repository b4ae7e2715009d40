/* t2g_test.c: unit tests of the trace2goal conversion library
 * (trace2goal/trace2goal_conv.h): class names, rank of a file, and conversions
 * of small traces into a sink, checked op by op. */
#include "check.h"
#include "sg_pattern.h"
#include "trace2goal_conv.h"
#include "trace_source.h"

#include <stdlib.h>
#include <unistd.h>

static char dir[] = "/tmp/t2g_test_XXXXXX";

/* Writes text to dir/name; returns the path (static buffer per call slot). */
static const char *put(int slot, const char *name, const char *text)
{
	static char paths[6][256];
	FILE *f;
	snprintf(paths[slot], sizeof paths[slot], "%s/%s", dir, name);
	f = fopen(paths[slot], "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	return paths[slot];
}

/* What the sink saw: ops and dependencies, all ranks in a row. */
struct seen {
	goal_op op[64];
	uint32_t comm[64];
	int nops;
	uint32_t a[64], b[64];
	int ireq[64];
	int ndeps;
	char warn[2][256];
	int nwarn;
};

static int s_op(void *ctx, const goal_op *op, uint32_t comm, char *err, size_t errlen)
{
	struct seen *s = ctx;
	(void)err;
	(void)errlen;
	if (s->nops < 64) {
		s->op[s->nops] = *op;
		s->comm[s->nops] = comm;
	}
	s->nops++;
	return 0;
}

static int s_dep(void *ctx, uint32_t a, uint32_t b, int irequires, char *err, size_t errlen)
{
	struct seen *s = ctx;
	(void)err;
	(void)errlen;
	if (s->ndeps < 64) {
		s->a[s->ndeps] = a;
		s->b[s->ndeps] = b;
		s->ireq[s->ndeps] = irequires;
	}
	s->ndeps++;
	return 0;
}

static void s_warn(void *ctx, const char *msg)
{
	struct seen *s = ctx;
	if (s->nwarn < 2)
		snprintf(s->warn[s->nwarn], sizeof s->warn[0], "%s", msg);
	s->nwarn++;
}

static int convert(const char *const *paths, size_t n, struct t2g_options *o,
                   struct seen *s, struct t2g_stats *st, char *err, size_t errlen)
{
	sg_sink k = { s_op, s_dep, s };
	memset(s, 0, sizeof *s);
	o->warn = s_warn;
	o->warn_ctx = s;
	sg_out *out = sg_out_open_sink(&k);
	if (!out)
		return snprintf(err, errlen, "error: out of memory"), -1;
	int rc = t2g_convert(paths, n, o, out, st, err, errlen);
	sg_out_close(out, NULL, 0);
	if (st) /* the counts stay, the names go */
		t2g_stats_free(st);
	return rc;
}

static const char rank0[] =
	"# goaltrace trace format 1\n# rank: 0\n# size: 2\n"
	"MPI_Init:0:1:2:10\n# comm:7:0,1\n"
	"MPI_Isend:12.5:1:3:10,8,8:1:4:7,0,2:99:13\n"
	"MPI_Wait:20:99:0,0,0:25\n"
	"MPI_Bar:26:27\n"
	"MPI_Finalize:30:31\n";
static const char rank1[] =
	"# goaltrace trace format 1\n# rank: 1\n# size: 2\n"
	"MPI_Init:0:1:2:11\n# comm:8:0,1\n"
	"MPI_Recv:11:1:3:10,8,8:-1:-1:8,1,2:0,4,24:20\n"
	"MPI_Finalize:40:41\n";

int main(void)
{
	struct t2g_options o;
	struct t2g_stats st;
	struct seen s;
	char err[600];
	long r;

	if (!mkdtemp(dir))
		return 1;

	/* classes */
	CHECK(t2g_coll_find("gatherv") == T2G_GATHER);
	CHECK(t2g_coll_find("ALLREDUCE") == T2G_ALLREDUCE);
	CHECK(t2g_coll_find("reduce_scatter_block") == T2G_REDUCE_SCATTER);
	CHECK(t2g_coll_find("gatherw") == -1);
	CHECK_STR(t2g_coll_name(T2G_SCAN), "scan");
	CHECK(t2g_coll_name(T2G_NCOLL) == NULL);
	t2g_options_default(&o);
	CHECK(o.pattern[T2G_BCAST] == sg_pattern_find("bcast_binomial"));
	CHECK(o.pattern[T2G_BARRIER] == sg_pattern_find("barrier_dissemination"));
	CHECK(o.extrapolate == 1 && o.compute_scale == 1.0 && !o.strict);

	/* rank of a file */
	CHECK(tr_file_rank(put(0, "a.txt", "# goaltrace trace format 1\n# rank: 3\nMPI_Init:0:1:2:1\n"),
	                    &r, err, sizeof err) == 0 && r == 3);
	CHECK(tr_file_rank(put(0, "pmpi-trace-rank-12.txt", "MPI_Init:-:1:2:1\n"), &r, err, sizeof err) == 0
	      && r == 12);
	CHECK(tr_file_rank(put(0, "trace", "MPI_Init:-:1:2:1\n"), &r, err, sizeof err) == 0 && r == -1);
	{
		char path[300], want[400];
		snprintf(path, sizeof path, "%s/none.txt", dir);
		snprintf(want, sizeof want, "%s: error: cannot open: No such file or directory", path);
		CHECK(tr_file_rank(path, &r, err, sizeof err) == -1 && r == -1);
		CHECK_STR(err, want);
	}

	/* a conversion, op by op */
	const char *paths[2] = { put(1, "r0.txt", rank0), put(2, "r1.txt", rank1) };
	t2g_options_default(&o);
	CHECK(convert(paths, 2, &o, &s, &st, err, sizeof err) == 0);
	/* rank 0: calc 2500, send 24b to 1 tag 0, calc 7000 (irequires the
	 * send), calc 5000 (requires both: the Wait then 1 + 1 + 3 us up to
	 * Finalize, MPI_Bar skipped); rank 1: recv 24b from 0 tag 0 (the
	 * wildcards resolved from the status), calc 20000 */
	CHECK_EQ_U64(s.nops, 6);
	CHECK(s.op[0].kind == GOAL_CALC && s.op[0].size == 2500);
	CHECK(s.op[1].kind == GOAL_SEND && s.op[1].size == 24 && s.op[1].peer == 1 && s.op[1].tag == 0);
	CHECK(s.op[2].kind == GOAL_CALC && s.op[2].size == 7000);
	CHECK(s.op[3].kind == GOAL_CALC && s.op[3].size == 5000);
	CHECK(s.op[4].kind == GOAL_RECV && s.op[4].peer == 0 && s.op[4].tag == 0);
	CHECK(s.op[5].kind == GOAL_CALC && s.op[5].size == 20000);
	CHECK(s.comm[1] == 0 && s.comm[4] == 0);  /* the world's point-to-point context */
	CHECK_EQ_U64(s.ndeps, 5);
	CHECK(s.a[0] == 1 && s.b[0] == 0 && !s.ireq[0]);
	CHECK(s.a[1] == 2 && s.b[1] == 1 && s.ireq[1]);
	CHECK(s.a[2] == 3 && s.b[2] == 2 && !s.ireq[2]);
	CHECK(s.a[3] == 3 && s.b[3] == 1 && !s.ireq[3]);
	CHECK(s.a[4] == 1 && s.b[4] == 0 && !s.ireq[4]);
	CHECK_EQ_U64(st.ranks, 2);
	CHECK_EQ_U64(st.skipped, 1);
	CHECK_EQ_U64(st.calc_ns, 2500 + 7000 + 5000 + 20000);
	CHECK_EQ_U64(st.traced_ns, 29000);  /* rank 1: 40 - 11 us */
	CHECK_EQ_U64(s.nwarn, 1);
	{
		char want[400];
		snprintf(want, sizeof want, "%s:8:1: warning: rank 0: MPI_Bar is not supported; skipped, "
		         "its time counts as computation", paths[0]);
		CHECK_STR(s.warn[0], want);
	}

	/* --compute-scale 0.1 and --strict */
	o.compute_scale = 0.1;
	CHECK(convert(paths, 2, &o, &s, &st, err, sizeof err) == 0);
	CHECK(s.op[0].size == 250 && s.op[2].size == 700 && s.op[5].size == 2000);
	o.compute_scale = 1;
	o.strict = 1;
	CHECK(convert(paths, 2, &o, &s, &st, err, sizeof err) == -1);
	{
		char want[400];
		snprintf(want, sizeof want, "%s:8:1: error: rank 0: MPI_Bar is not supported (--strict)",
		         paths[0]);
		CHECK_STR(err, want);
	}

	/* --extrapolate 2: ranks 2 and 3 talk to each other, tags unchanged */
	o.strict = 0;
	o.extrapolate = 2;
	CHECK(convert(paths, 2, &o, &s, &st, err, sizeof err) == 0);
	CHECK_EQ_U64(s.nops, 12);
	CHECK(s.op[7].kind == GOAL_SEND && s.op[7].peer == 3 && s.op[7].tag == 0);
	CHECK(s.op[10].kind == GOAL_RECV && s.op[10].peer == 2 && s.op[10].tag == 0);
	/* MPI_Bar for the first copy only, then that the messages stay in
	 * their copies */
	CHECK_EQ_U64(s.nwarn, 2);
	CHECK(strstr(s.warn[1], ": warning: --extrapolate 2 keeps the traced point-to-point "
	             "messages inside each copy of the 2 traced ranks (a ring becomes 2 rings; "
	             "docs/trace2goal.md, Extrapolation); only collectives span all 4 ranks") != NULL);
	CHECK_EQ_U64(st.ranks, 4);

	/* a world barrier: its messages in the world's collective context, comm 1 */
	{
		const char *bar[2] = {
			put(4, "b0.txt", "# goaltrace trace format 1\n# rank: 0\n# size: 2\n"
			                 "MPI_Init:0:1:2:10\n# comm:7:0,1\nMPI_Barrier:10:7,0,2:12\n"
			                 "MPI_Finalize:12:13\n"),
			put(5, "b1.txt", "# goaltrace trace format 1\n# rank: 1\n# size: 2\n"
			                 "MPI_Init:0:1:2:10\n# comm:8:0,1\nMPI_Barrier:10:8,1,2:12\n"
			                 "MPI_Finalize:12:13\n") };
		int msgs = 0, in1 = 0;
		t2g_options_default(&o);
		CHECK(convert(bar, 2, &o, &s, &st, err, sizeof err) == 0);
		for (int k = 0; k < s.nops && k < 64; k++)
			if (s.op[k].kind != GOAL_CALC) {
				msgs++;
				in1 += s.comm[k] == 1;
			}
		CHECK_EQ_U64(msgs, 4);
		CHECK_EQ_U64(in1, 4);
	}

	/* times whose nanoseconds do not fit in 64 bits: an error */
	{
		const char *one[1] = { put(3, "big.txt", "MPI_Init:-:1:2:-10000000000000000\n"
		                                          "MPI_Finalize:10000000000000000:-\n") };
		char want[400];
		t2g_options_default(&o);
		CHECK(convert(one, 1, &o, &s, &st, err, sizeof err) == -1);
		snprintf(want, sizeof want, "%s:2:1: error: rank 0: computation of 20000000000000000000 ns "
		         "before this call is too long (2^64 ns or more)", one[0]);
		CHECK_STR(err, want);
		one[0] = put(3, "big.txt", "MPI_Init:-:1:2:0\nMPI_Finalize:2000000000:-\n");
		o.compute_scale = 1e10;
		CHECK(convert(one, 1, &o, &s, &st, err, sizeof err) == -1);
		snprintf(want, sizeof want, "%s:2:1: error: rank 0: computation of 20000000000000000000000 ns "
		         "before this call is too long (2^64 ns or more)", one[0]);
		CHECK_STR(err, want);
		o.compute_scale = 1;
		one[0] = put(3, "big.txt", "MPI_Init:-:1:2:0\nMPI_Finalize:18446744073709540:-\n");
		CHECK(convert(one, 1, &o, &s, &st, err, sizeof err) == 0);
		CHECK_EQ_U64(s.nops, 1);
		CHECK_EQ_U64(s.op[0].size, 18446744073709539328u); /* the nearest double */
		unlink(one[0]);
	}

	unlink(paths[0]);
	unlink(paths[1]);
	unlink(put(0, "a.txt", ""));
	unlink(put(0, "pmpi-trace-rank-12.txt", ""));
	unlink(put(0, "trace", ""));
	rmdir(dir);
	return check_done();
}
