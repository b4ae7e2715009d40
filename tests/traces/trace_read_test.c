/* trace_read_test.c: unit tests of the trace reader and writer on small
 * hand-written traces of both dialects: exact values and error texts. */
#include "../check.h"
#include "trace_read.h"
#include "trace_write.h"

#include <math.h>
#include <stdlib.h>

static int read_text(const char *text, struct tr_trace *t, char *err, size_t n)
{
	return tr_read_mem("t.txt", text, strlen(text), NULL, t, err, n);
}

/* Value k of list i of call c (INT64_MIN when the trace has no list values). */
static int64_t list_value(const struct tr_trace *t, const struct tr_call *c, int i, size_t k)
{
	const int64_t *l = tr_list(t, c, i);
	return l ? l[k] : INT64_MIN;
}

/* Reads text that must be rejected and checks the message. */
static void check_error(const char *text, const char *want)
{
	struct tr_trace t;
	char err[512];
	int rc = read_text(text, &t, err, sizeof err);
	CHECK(rc == -1);
	CHECK_STR(err, want);
	CHECK(t.ncalls == 0 && t.calls == NULL);
}

static void test_goaltrace_p2p(void)
{
	const char *text =
		"# goaltrace trace format 1\n"
		"# rank: 1\n"
		"# size: 4\n"
		"# comm:1000:0,1,2,3\n"
		"MPI_Init:-:140:150:10.500\n"
		"MPI_Send:11.000:777:100:1,4,4:2:7:1000,1,4:12.250\n"
		"MPI_Isend:13:777:3:10,8,8:0:5:1000,1,4:9001:14\n"
		"MPI_Irecv:15:778:8:13,1,1:-1:-1:1000,1,4:9002:16\n"
		"MPI_Waitall:17:2:9001,9002:0,5,0,3,9,8:19\n"
		"MPI_Recv:20:1:2:1,4,4:-1:3:1000,1,4:2,3,8:21\n"
		"MPI_Sendrecv:22:1:1:1,4,4:2:0:5:2:1,4,4:0:1:1000,1,4:0,1,8:23\n"
		"MPI_Test:24:9003:0:-1,-1,0:24.5\n"
		"MPI_Waitany:25:2:9004,0:1:3,4,16:26\n"
		"MPI_Waitsome:27:3:9005,9006,9007:2:0,2:1,1,4,3,3,4:28\n"
		"MPI_Finalize:29:30\n";
	struct tr_trace t;
	char err[512];
	CHECK(read_text(text, &t, err, sizeof err) == 0);
	CHECK_STR(err, "");
	CHECK_EQ_U64(t.dialect, TR_DIALECT_GOALTRACE);
	CHECK_EQ_U64(t.rank, 1);
	CHECK_EQ_U64(t.size, 4);
	CHECK_EQ_U64(t.ncalls, 12);
	if (t.ncalls != 12)
		return;
	const struct tr_call *c = t.calls;
	CHECK_EQ_U64(c[0].kind, TR_COMMDEF);
	CHECK_EQ_U64(c[0].newcomm, 1000);
	CHECK_EQ_U64(c[0].comm_size, 4);
	CHECK_EQ_U64(c[0].len[0], 4);
	CHECK_EQ_U64(list_value(&t, &c[0], 0, 3), 3);

	CHECK_EQ_U64(c[1].kind, TR_INIT);
	CHECK_EQ_U64(c[1].flags, TR_F_NO_START);
	CHECK(c[1].start == 10.5 && c[1].end == 10.5);
	CHECK_EQ_U64(c[1].line, 5);

	CHECK_EQ_U64(c[2].kind, TR_SEND);
	CHECK(c[2].start == 11.0 && c[2].end == 12.25);
	CHECK_EQ_U64(c[2].peer, 2);
	CHECK_EQ_U64(c[2].tag, 7);
	CHECK_EQ_U64(c[2].bytes, 400);
	CHECK_EQ_U64(c[2].comm, 1000);
	CHECK_EQ_U64(c[2].comm_rank, 1);
	CHECK_EQ_U64(c[2].comm_size, 4);
	CHECK_EQ_U64(c[2].rpeer, -1);

	CHECK_EQ_U64(c[3].kind, TR_ISEND);
	CHECK_EQ_U64(c[3].bytes, 24);
	CHECK_EQ_U64(c[3].req, 9001);
	CHECK_EQ_U64(c[4].kind, TR_IRECV);
	CHECK_EQ_U64(c[4].peer, TR_ANY_SOURCE);
	CHECK_EQ_U64(c[4].tag, TR_ANY_TAG);
	CHECK_EQ_U64(c[4].bytes, 8);
	CHECK_EQ_U64(c[4].req, 9002);

	CHECK_EQ_U64(c[5].kind, TR_WAITALL);
	CHECK_EQ_U64(c[5].nreq, 2);
	CHECK_EQ_U64(c[5].len[0], 2);
	CHECK_EQ_U64(list_value(&t, &c[5], 0, 1), 9002);
	CHECK_EQ_U64(c[5].len[2], 6);
	CHECK_EQ_U64(list_value(&t, &c[5], 2, 3), 3);
	CHECK_EQ_U64(list_value(&t, &c[5], 2, 5), 8);

	CHECK_EQ_U64(c[6].kind, TR_RECV);
	CHECK_EQ_U64(c[6].flags, TR_F_STATUS);
	CHECK_EQ_U64(c[6].st_source, 2);
	CHECK_EQ_U64(c[6].st_tag, 3);
	CHECK_EQ_U64(c[6].st_bytes, 8);

	CHECK_EQ_U64(c[7].kind, TR_SENDRECV);
	CHECK_EQ_U64(c[7].peer, 2);
	CHECK_EQ_U64(c[7].tag, 0);
	CHECK_EQ_U64(c[7].bytes, 4);
	CHECK_EQ_U64(c[7].rpeer, 0);
	CHECK_EQ_U64(c[7].rtag, 1);
	CHECK_EQ_U64(c[7].rbytes, 8);

	CHECK_EQ_U64(c[8].kind, TR_TEST);
	CHECK_EQ_U64(c[8].req, 9003);
	CHECK_EQ_U64(c[8].flag, 0);
	CHECK_EQ_U64(c[9].kind, TR_WAITANY);
	CHECK_EQ_U64(c[9].index, 1);
	CHECK_EQ_U64(c[9].st_bytes, 16);
	CHECK_EQ_U64(c[10].kind, TR_WAITSOME);
	CHECK_EQ_U64(c[10].flag, 2);
	CHECK_EQ_U64(c[10].len[1], 2);
	CHECK_EQ_U64(list_value(&t, &c[10], 1, 1), 2);
	CHECK_EQ_U64(c[11].kind, TR_FINALIZE);
	CHECK(c[11].end == 30.0);
	tr_free(&t);
}

static void test_goaltrace_colls(void)
{
	const char *text =
		"# goaltrace trace format 1\n"
		"MPI_Bcast:1:5:10:13,1,1:2:1000,0,4:2\n"
		"MPI_Reduce:3:5:6:4:10,8,8:3:0:1000,0,4:4\n"
		"MPI_Allreduce:5:5:6:1:10,8,8:3:1000,0,4:6\n"
		"MPI_Gatherv:7:5:3:1,4,4:6:9:1,2,3,4:9:0,1,3,6:1,4,4:0:1000,0,4:8\n"
		"MPI_Scatterv:9:5:77:2,0,1,1:9:0,2,2,3:10,8,8:6:1:10,8,8:3:1000,0,4:10\n"
		"MPI_Alltoallv:11:5:70:1,1,1,1:71:0,1,2,3:1,4,4:6:72:2,2,2,2:73:0,2,4,6:1,4,4:1000,0,4:12\n"
		"MPI_Reduce_scatter:13:5:6:1,2,3,4:1,4,4:3:1000,0,4:14\n"
		"MPI_Comm_split:15:1000,0,4:1:0:2000:16\n"
		"# comm:2000:1,3\n"
		"MPI_Barrier:17:2000,0,2:18\n"
		"MPI_Comm_free:19:2000:20\n"
		"MPI_Comm_rank:21:1000,0,4:0:21\n"
		"MPI_Type_commit:22:140:22\n"
		"MPI_Type_commit:23:140:23\n";
	struct tr_trace t;
	char err[512];
	CHECK(read_text(text, &t, err, sizeof err) == 0);
	CHECK_STR(err, "");
	CHECK_EQ_U64(t.ncalls, 14);
	if (t.ncalls != 14)
		return;
	const struct tr_call *c = t.calls;
	CHECK_EQ_U64(c[0].kind, TR_BCAST);
	CHECK_EQ_U64(c[0].bytes, 10);
	CHECK_EQ_U64(c[0].root, 2);
	CHECK_EQ_U64(c[1].kind, TR_REDUCE);
	CHECK_EQ_U64(c[1].bytes, 32);
	CHECK_EQ_U64(c[1].root, 0);
	CHECK_EQ_U64(c[2].kind, TR_ALLREDUCE);
	CHECK_EQ_U64(c[2].bytes, 8);
	CHECK_EQ_U64(c[2].root, -1);
	CHECK_EQ_U64(c[3].kind, TR_GATHERV);
	CHECK_EQ_U64(c[3].bytes, 12);
	CHECK_EQ_U64(c[3].len[0], 0);
	CHECK_EQ_U64(c[3].len[1], 4);
	CHECK_EQ_U64(list_value(&t, &c[3], 1, 3), 16);
	CHECK_EQ_U64(c[4].kind, TR_SCATTERV);
	CHECK_EQ_U64(c[4].len[0], 4);
	CHECK_EQ_U64(list_value(&t, &c[4], 0, 0), 16);
	CHECK_EQ_U64(c[4].rbytes, 8);
	CHECK_EQ_U64(c[4].root, 3);
	CHECK_EQ_U64(c[5].kind, TR_ALLTOALLV);
	CHECK_EQ_U64(list_value(&t, &c[5], 0, 2), 4);
	CHECK_EQ_U64(list_value(&t, &c[5], 1, 2), 8);
	CHECK_EQ_U64(c[6].kind, TR_REDUCE_SCATTER);
	CHECK_EQ_U64(list_value(&t, &c[6], 0, 3), 16);
	CHECK_EQ_U64(c[7].kind, TR_COMM_SPLIT);
	CHECK_EQ_U64(c[7].color, 1);
	CHECK_EQ_U64(c[7].key, 0);
	CHECK_EQ_U64(c[7].newcomm, 2000);
	CHECK_EQ_U64(c[8].kind, TR_COMMDEF);
	CHECK(c[8].start == 16.0);
	CHECK_EQ_U64(list_value(&t, &c[8], 0, 1), 3);
	CHECK_EQ_U64(c[9].comm_size, 2);
	CHECK_EQ_U64(c[10].kind, TR_COMM_FREE);
	CHECK_EQ_U64(c[10].newcomm, 2000);
	CHECK_EQ_U64(c[11].kind, TR_COMM_RANK);
	CHECK_EQ_U64(c[12].kind, TR_OTHER);
	CHECK_STR(tr_call_name(&t, &c[12]), "MPI_Type_commit");
	CHECK_EQ_U64(c[13].name, c[12].name);
	CHECK_EQ_U64(t.nnames, strlen("MPI_Type_commit") + 1);
	tr_free(&t);
}

/* Lines as the LogGOPSim toolchain's liballprof writes them. */
/* Reads the liballprof text with --request-size opt_size (0: detect): the
 * size used is want_size, and request k of call i is want. */
static void check_request_size(const char *text, unsigned opt_size, unsigned want_size,
                               size_t i, size_t k, uint64_t want)
{
	struct tr_options opt = { .request_size = opt_size };
	struct tr_trace t;
	char err[512];
	CHECK(tr_read_mem("m.txt", text, strlen(text), &opt, &t, err, sizeof err) == 0);
	CHECK_STR(err, "");
	CHECK_EQ_U64(t.request_size, want_size);
	if (t.ncalls > i)
		CHECK_EQ_U64(list_value(&t, &t.calls[i], 0, k), want);
	tr_free(&t);
}

static void test_liballprof(void)
{
	const char *text =
		"# htor's PMPI Tracer 1.0 Output File\n"
		"# clockdiff: 0.000000 s (relative to rank 0)\n"
		"\n"
		"MPI_Init:-:140736:140737:1225038833071000\n"
		"MPI_Irecv : 1225038833071959.000000 : 14744192 : 36864 : 13,1,1 : -1 : 76 : "
		"5641280,0,4 : 14118576 : 1225038833071964.000000\n"
		"MPI_Isend:1225038833071970:14744192:2:1,4,4:1:5:5641280,0,4:14118584:1225038833071971\n"
		"MPI_Waitall:1225038833071972:2:14118576:5839040:1225038833071980\r\n"
		"MPI_Wait:1225038833071981:7104000:140734714680384:1225038833071982\n"
		"MPI_Recv:1225038833071990:1:2:1,4,4:3:4:5641280,0,4:140:1225038833071995\n"
		"MPI_Comm_split:1225038833071996:5641280,0,4:1:0:140737:1225038833071997\n"
		"MPI_Reduce_scatter:1225038833071998:1:2:31337:1,4,4:3:5641280,0,4:1225038833071999\n"
		"MPI_Wtime:1225038833072000:1225038833072000\n"
		"MPI_Finalize:1225038833072001:-\n";
	struct tr_trace t;
	char err[512];
	CHECK(read_text(text, &t, err, sizeof err) == 0);
	CHECK_STR(err, "");
	CHECK_EQ_U64(t.dialect, TR_DIALECT_LIBALLPROF);
	CHECK_EQ_U64(t.rank, -1);
	CHECK_EQ_U64(t.ncalls, 10);
	if (t.ncalls != 10)
		return;
	const struct tr_call *c = t.calls;
	CHECK_EQ_U64(c[0].kind, TR_INIT);
	CHECK(c[0].end == 1225038833071000.0);
	CHECK_EQ_U64(c[1].kind, TR_IRECV);
	CHECK(c[1].start == 1225038833071959.0);
	CHECK_EQ_U64(c[1].bytes, 36864);
	CHECK_EQ_U64(c[1].peer, -1);
	CHECK_EQ_U64(c[1].tag, 76);
	CHECK_EQ_U64(c[1].comm, 5641280);
	CHECK_EQ_U64(c[1].comm_size, 4);
	CHECK_EQ_U64(c[1].req, 14118576);
	CHECK_EQ_U64(c[2].req, 14118584);
	CHECK_EQ_U64(c[3].kind, TR_WAITALL);
	CHECK_EQ_U64(c[3].len[0], 2);
	CHECK_EQ_U64(list_value(&t, &c[3], 0, 0), 14118576);
	CHECK_EQ_U64(list_value(&t, &c[3], 0, 1), 14118584);
	CHECK_EQ_U64(c[3].len[2], 0);
	CHECK_EQ_U64(c[4].kind, TR_WAIT);
	CHECK_EQ_U64(c[4].req, 7104000);
	CHECK_EQ_U64(c[4].flags, 0);
	CHECK_EQ_U64(c[5].kind, TR_RECV);
	CHECK_EQ_U64(c[5].peer, 3);
	CHECK_EQ_U64(c[6].kind, TR_COMM_SPLIT);
	CHECK_EQ_U64(c[6].newcomm, 0);
	CHECK_EQ_U64(c[7].kind, TR_REDUCE_SCATTER);
	CHECK_EQ_U64(c[7].len[0], 0);
	CHECK_EQ_U64(c[8].kind, TR_OTHER);
	CHECK_STR(tr_call_name(&t, &c[8]), "MPI_Wtime");
	CHECK_EQ_U64(c[9].kind, TR_FINALIZE);
	CHECK_EQ_U64(c[9].flags, TR_F_NO_END);
	tr_free(&t);

	/* MPICH traces: 4-byte requests */
	struct tr_options opt = { .request_size = 4 };
	const char *w = "MPI_Waitall:1:3:100:200:2\n";
	CHECK(tr_read_mem("m.txt", w, strlen(w), &opt, &t, err, sizeof err) == 0);
	CHECK_EQ_U64(t.calls[0].len[0], 3);
	CHECK_EQ_U64(list_value(&t, &t.calls[0], 0, 2), 108);
	CHECK_EQ_U64(t.request_size, 4);
	tr_free(&t);

	/* the request size detected: an Irecv at the array address + 4 (an
	 * MPICH int handle; an 8-byte request cannot start there) */
	const char *m4 =
		"MPI_Irecv:1:2:3:1,4,4:1:5:0,0,2:1000:3\n"
		"MPI_Irecv:4:2:3:1,4,4:1:6:0,0,2:1004:5\n"
		"MPI_Waitall:6:2:1000:200:7\n"
		"MPI_Waitall:8:3:2000:200:9\n";
	check_request_size(m4, 0, 4, 2, 1, 1004);
	check_request_size(m4, 0, 4, 3, 2, 2008);
	/* Open MPI: the requests 8 bytes apart, nothing at + 4 */
	const char *m8 =
		"MPI_Irecv:1:2:3:1,4,4:1:5:0,0,2:1000:3\n"
		"MPI_Irecv:4:2:3:1,4,4:1:6:0,0,2:1008:5\n"
		"MPI_Waitall:6:2:1000:200:7\n";
	check_request_size(m8, 0, 8, 2, 1, 1008);
	/* an explicit size is not second-guessed */
	check_request_size(m4, 8, 8, 2, 1, 1008);
}

static void test_errors(void)
{
	check_error("MPI_Send:1:2:3:1,4,4:1:0:5,0,2\n",
	            "t.txt:1:31: error: MPI_Send: expected 8 fields after the name, found 7");
	check_error("\nMPI_Send:1:2:3:1,4,4:1:0:5,0,2:4:5\n",
	            "t.txt:2:34: error: MPI_Send: expected 8 fields after the name, found 9");
	check_error("MPI_Send:1:2:x3:1,4,4:1:0:5,0,2:4\n",
	            "t.txt:1:14: error: expected an integer, found 'x3'");
	check_error("MPI_Send:1:2:3:1,4:1:0:5,0,2:4\n",
	            "t.txt:1:16: error: expected 3 or 5 comma-separated values "
	            "(datatype id,size,extent[,stride,block]), found 2");
	check_error("MPI_Send:1:2:3:1,4,4,8:1:0:5,0,2:4\n",
	            "t.txt:1:16: error: expected 3 or 5 comma-separated values "
	            "(datatype id,size,extent[,stride,block]), found 4");
	check_error("MPI_Send:1:2:3:1,4,4,8,16:1:0:5,0,2:4\n",
	            "t.txt:1:22: error: datatype stride 8 and block 16: 1 <= block <= stride <= 2147483648");
	check_error("MPI_Send:1:2:3:1,4,4,8,8,8:1:0:5,0,2:4\n",
	            "t.txt:1:16: error: too many values in datatype id,size,extent[,stride,block]");
	check_error("MPI_Barrier:1.5.2:5,0,2:4\n",
	            "t.txt:1:13: error: expected a time in microseconds or '-', found '1.5.2'");
	check_error("MPI_Barrier:5:5,0,2:4\n",
	            "t.txt:1:21: error: end time 4.000 before start time 5.000");
	check_error("hello\n",
	            "t.txt:1:1: error: expected a call name starting with MPI_ or a '#' comment");
	check_error("MPI_Foo\n",
	            "t.txt:1:8: error: MPI_Foo: expected a start and an end time");
	check_error("# goaltrace\nMPI_Waitall:1:2:5:-:2\n",
	            "t.txt:2:17: error: 1 request ids for 2 requests");
	check_error("# goaltrace\nMPI_Waitsome:1:2:5,6:1:-:-:2\n",
	            "t.txt:2:24: error: 0 indices for outcount 1");
	check_error("# goaltrace\nMPI_Waitall:1:1:5:1,2:2\n",
	            "t.txt:2:19: error: 2 status values for 1 requests (3 per status)");
	check_error("MPI_Send:1:2:-3:1,4,4:1:0:5,0,2:4\n",
	            "t.txt:1:14: error: negative count -3");
	check_error("MPI_Send:1:2:3:1,4,4:99999999999:0:5,0,2:4\n",
	            "t.txt:1:22: error: value 99999999999 out of range");
	check_error("# rank: x\n",
	            "t.txt:1:9: error: expected an integer, found 'x'");
	check_error("MPI_Barrier:1:5,-7,2:4\n",
	            "t.txt:1:15: error: bad communicator rank or size '5,-7,2'");
	/* liballprof request counts are bounded by the trace before the ids
	 * are made (at most one per byte of it in all) */
	check_error("MPI_Waitall:1:301111111:100:200:2\n",
	            "t.txt:1:15: error: request count 301111111 too large for a trace of 34 bytes");
	check_error("MPI_Waitall:1:40:100:200:2\nMPI_Waitall:3:40:100:200:4\n",
	            "t.txt:2:15: error: request count 40 too large for a trace of 54 bytes");
	/* times beyond 2^64 ns, bytes beyond 2^63 */
	check_error("MPI_Barrier:1:5,0,2:18446744073709552\n",
	            "t.txt:1:21: error: time '18446744073709552' out of range (2^64 ns or more)");
	check_error("MPI_Barrier:-1e1:5,0,2:1\n",
	            "t.txt:1:13: error: expected a time in microseconds or '-', found '-1e1'");
	{
		char text[600] = "MPI_Barrier:-";
		memset(text + 13, '9', 400);
		strcpy(text + 413, ":5,0,2:1\n");
		check_error(text, "t.txt:1:13: error: time '-999999999999999999999999999999999999999' "
		            "out of range (2^64 ns or more)");
	}
	check_error("MPI_Send:1:2:4611686018427387904:1,4,4:1:0:5,0,2:4\n",
	            "t.txt:1:34: error: count 4611686018427387904 times datatype size 4 is too large");
	check_error("MPI_Gatherv:1:0:1:1,4,4:0:0:1,4611686018427387904:0:0,1:13,2,2:0:5,0,2:2\n",
	            "t.txt:1:57: error: count 4611686018427387904 times datatype size 2 is too large");
	struct tr_trace t;
	char err[512];
	CHECK(read_text("MPI_Waitall:1:3:100:200:2\n", &t, err, sizeof err) == 0);
	CHECK_EQ_U64(t.npool, 3);
	tr_free(&t);
	CHECK(read_text("MPI_Barrier:1:5,0,2:4", &t, err, sizeof err) == 0); /* no newline */
	CHECK_EQ_U64(t.ncalls, 1);
	CHECK(tr_list(&t, &t.calls[0], 0) == NULL); /* no list values at all */
	tr_free(&t);
	CHECK(tr_read_file("/nonexistent/trace.txt", NULL, &t, err, sizeof err) == -1);
	CHECK_STR(err, "/nonexistent/trace.txt: error: cannot open: No such file or directory");
}

/* Records formatted by the writer read back with the same values. */
static void test_round_trip(void)
{
	uint64_t w[64];
	char line[4096];
	size_t n;
	/* MPI_Isend: b n d P T c R (d: id, size, extent, stride, block) */
	uint64_t isend[] = { TR_REC_HEAD(TR_ISEND, 17), 1000500, 1002000,
	                     0x7ffd1234, 3, 10, 8, 8, 0, 0, 2, (uint64_t)-1, 77, 0, 4, 555 };
	memcpy(w, isend, sizeof isend);
	CHECK_EQ_U64(tr_format_record(w, 0, line), 0); /* 16 words, head says 17 */
	w[0] = TR_REC_HEAD(TR_ISEND, 16);
	n = tr_format_record(w, -500, line);
	line[n] = '\0';
	CHECK_STR(line, "MPI_Isend:1000.000:2147291700:3:10,8,8:2:-1:77,0,4:555:1001.500\n");
	CHECK(n <= tr_record_max_chars(w));
	CHECK_EQ_U64(tr_record_words(TR_ISEND, 0), 16);
	/* A vector datatype: its stride and block follow. */
	uint64_t vsend[] = { TR_REC_HEAD(TR_ISEND, 16), 1000500, 1002000,
	                     0x7ffd1234, 1, 99, 128, 968, 64, 8, 2, 5, 77, 0, 4, 556 };
	char vline[512];
	n = tr_format_record(vsend, 0, vline);
	vline[n] = '\0';
	CHECK_STR(vline, "MPI_Isend:1000.500:2147291700:1:99,128,968,64,8:2:5:77,0,4:556:1002.000\n");

	/* MPI_Waitall: k L S */
	uint64_t wa[] = { TR_REC_HEAD(TR_WAITALL, 14), 5, TR_NO_TIME,
	                  2, 2, 555, 556, 2, 1, 2, 8, (uint64_t)-1, 3, 0 };
	n = tr_format_record(wa, 0, line);
	line[n] = '\0';
	CHECK_STR(line, "MPI_Waitall:0.005:2:555,556:1,2,8,-1,3,0:-\n");

	/* MPI_Gatherv with an empty count array at a non-root rank */
	uint64_t gv[] = { TR_REC_HEAD(TR_GATHERV, 27), 1000, 2000,
	                  11, 2, 1, 4, 4, 0, 0, 12, 0, 0, 0, 0, 1, 4, 4, 0, 0, 0, 9, 0, 4 };
	gv[0] = TR_REC_HEAD(TR_GATHERV, 24);
	n = tr_format_record(gv, 0, line);
	line[n] = '\0';
	CHECK_STR(line, "MPI_Gatherv:1.000:11:2:1,4,4:12:0:-:0:-:1,4,4:0:9,0,4:2.000\n");
	CHECK_EQ_U64(tr_record_words(TR_GATHERV, 3), 30); /* b n d b A D d r c */
	CHECK_EQ_U64(tr_record_words(TR_WAITSOME, 2), 18); /* k L O I S */
	CHECK_EQ_U64(tr_record_words(TR_FINALIZE, 5), TR_REC_FIRST);

	uint64_t cd[] = { TR_REC_HEAD(TR_COMMDEF, 7), 0, 0, 42, 2, 1, 3 };
	n = tr_format_record(cd, 0, line);
	line[n] = '\0';
	CHECK_STR(line, "# comm:42:1,3\n");

	char text[8192];
	snprintf(text, sizeof text, "# goaltrace\n# comm:42:1,3\n%s", "");
	size_t len = strlen(text);
	n = tr_format_record(w, -500, text + len);
	len += n;
	n = tr_format_record(gv, 0, text + len);
	len += n;
	n = tr_format_record(vsend, 0, text + len);
	len += n;
	struct tr_trace t;
	char err[512];
	CHECK(tr_read_mem("rt.txt", text, len, NULL, &t, err, sizeof err) == 0);
	CHECK_STR(err, "");
	CHECK_EQ_U64(t.ncalls, 4);
	if (t.ncalls == 4) {
		CHECK_EQ_U64(t.calls[3].bytes, 128);
		CHECK_EQ_U64(t.calls[3].stride[0], 64);
		CHECK_EQ_U64(t.calls[3].block[0], 8);
		CHECK_EQ_U64(t.calls[1].stride[0], 0);
		CHECK_EQ_U64(t.calls[1].req, 555);
		CHECK_EQ_U64(t.calls[1].bytes, 24);
		CHECK(fabs(t.calls[1].end - 1001.5) < 1e-9);
		CHECK_EQ_U64(t.calls[2].bytes, 8);
		CHECK_EQ_U64(t.calls[2].len[1], 0);
		CHECK_EQ_U64(t.calls[2].root, 0);
	}
	tr_free(&t);
}

/* Unknown call names are stored once each, however many there are. */
static void test_unknown_names(void)
{
	struct tr_trace t;
	char err[256], *text = malloc(40 * 3000 + 100), *p = text;
	CHECK(text != NULL);
	if (!text)
		return;
	p += sprintf(p, "# goaltrace trace format 1\n# rank: 0\n# size: 1\n");
	for (int i = 0; i < 3000; i++)
		p += sprintf(p, "MPI_Foo%d:%d.000:%d.000\n", i % 1000, 2 * i, 2 * i + 1);
	CHECK(read_text(text, &t, err, sizeof err) == 0);
	CHECK_EQ_U64(t.ncalls, 3000);
	size_t want = 0;
	for (int i = 0; i < 1000; i++)
		want += (size_t)snprintf(NULL, 0, "MPI_Foo%d", i) + 1;
	CHECK_EQ_U64(t.nnames, want);
	CHECK(t.ncalls == 3000 && t.calls[7].name == t.calls[1007].name && t.calls[7].name != t.calls[8].name);
	CHECK_STR(tr_call_name(&t, &t.calls[2999]), "MPI_Foo999");
	tr_free(&t);
	free(text);
}

int main(void)
{
	test_goaltrace_p2p();
	test_goaltrace_colls();
	test_liballprof();
	test_errors();
	test_round_trip();
	test_unknown_names();
	return check_done();
}
