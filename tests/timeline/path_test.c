/* path_test.c: the critical path file (timeline/tl_path.h): what the writer
 * writes is read back field by field, byte for byte again, and every error
 * of the reader, exactly. */
#include <stdlib.h>

#include "check.h"
#include "tl_path.h"

static const char head[] =
	"step,kind,rank,unit,op,peer,start_ns,end_ns,via,range,L,o,g,G_bytes,O_bytes,"
	"calc_ns,noise_ns,label\n";

/* Read text as a path file called p.csv. */
static int read_str(const char *text, tl_link **v, size_t *n, char *err, size_t len)
{
	FILE *f = fmemopen((void *)(uintptr_t)text, strlen(text), "r");
	err[0] = 0;
	int rc = tl_path_read(f, "p.csv", v, n, err, len);
	fclose(f);
	return rc;
}

/* The error of reading the header and then body. */
static const char *error_of(const char *body)
{
	static char err[512];
	char text[2048];
	snprintf(text, sizeof text, "%s%s", head, body);
	tl_link *v;
	size_t n;
	if (read_str(text, &v, &n, err, sizeof err) == 0) {
		tl_path_free(v, n);
		return "(read)";
	}
	return err;
}

/* What the writer writes for n links, in a malloc'ed string. */
static char *written(const tl_link *v, size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	CHECK(tl_path_write(f, v, n) == 0);
	fclose(f);
	return buf;
}

int main(void)
{
	/* A ping-pong's path: calc, send, wire, recv, with every field set. */
	const tl_link path[] = {
		{ 0, TL_LINK_CALC, 0, 0, 0, 99, 0, 100, TL_VIA_DEP, 0, 0, 0, 0, 0, 0, 100, 0, NULL },
		{ 1, TL_LINK_SEND, 0, 1, 1, 1, 100, 1600, TL_VIA_DEP, 1, 2500, 1500, 1000, 42, 7, 0, 0, "" },
		{ 2, TL_LINK_WIRE, 0, 2, 1, 1, 1600, 4100, TL_VIA_DEP, 1, 2500, 1500, 1000, 42, 7, 0, 0,
		  "a \"quoted\", label" },
		{ 3, TL_LINK_RECV, 1, 0, 1, 0, 4100, 5642, TL_VIA_DEP, 1, 2500, 1500, 1000, 42, 7, 0, 12,
		  "tab\there" },
		{ 4, TL_LINK_RNIC, 1, 65535, UINT64_MAX, UINT64_MAX, UINT64_MAX - 1, UINT64_MAX,
		  TL_VIA_HOLD, 63, 1, 2, 3, 4, 5, 6, -7, "x" },
	};
	size_t np = sizeof path / sizeof path[0];
	char *text = written(path, np);
	char want[1024];
	snprintf(want, sizeof want, "%s"
	         "0,calc,0,0,0,,0,100,dep,0,0,0,0,0,0,100,0,\n"
	         "1,send,0,1,1,1,100,1600,dep,1,2500,1500,1000,42,7,0,0,\n"
	         "2,wire,0,2,1,1,1600,4100,dep,1,2500,1500,1000,42,7,0,0,\"a \"\"quoted\"\", label\"\n"
	         "3,recv,1,0,1,0,4100,5642,dep,1,2500,1500,1000,42,7,0,12,\"tab here\"\n"
	         "4,rnic,1,65535,18446744073709551615,18446744073709551615,18446744073709551614,"
	         "18446744073709551615,hold,63,1,2,3,4,5,6,-7,\"x\"\n", head);
	CHECK_STR(text, want);

	/* Read back: every field, the labels unquoted. */
	tl_link *v = NULL;
	size_t n = 0;
	char err[512];
	CHECK(read_str(text, &v, &n, err, sizeof err) == 0);
	CHECK_STR(err, "");
	CHECK_EQ_U64(n, np);
	for (size_t i = 0; i < n && i < np; i++) {
		const tl_link *a = &v[i], *b = &path[i];
		CHECK_EQ_U64(a->step, b->step);
		CHECK_EQ_U64(a->kind, b->kind);
		CHECK_EQ_U64(a->rank, b->rank);
		CHECK_EQ_U64(a->unit, b->unit);
		CHECK_EQ_U64(a->op, b->op);
		CHECK_EQ_U64(a->peer, b->kind == TL_LINK_CALC ? 0 : b->peer);
		CHECK_EQ_U64(a->start_ns, b->start_ns);
		CHECK_EQ_U64(a->end_ns, b->end_ns);
		CHECK_EQ_U64(a->via, b->via);
		CHECK_EQ_U64(a->range, b->range);
		CHECK_EQ_U64(a->L, b->L);
		CHECK_EQ_U64(a->o, b->o);
		CHECK_EQ_U64(a->g, b->g);
		CHECK_EQ_U64(a->G_bytes, b->G_bytes);
		CHECK_EQ_U64(a->O_bytes, b->O_bytes);
		CHECK_EQ_U64(a->calc_ns, b->calc_ns);
		CHECK(a->noise_ns == b->noise_ns);
	}
	if (n == np) {
		CHECK(v[0].label == NULL && v[1].label == NULL);
		CHECK_STR(v[2].label, "a \"quoted\", label");
		CHECK_STR(v[3].label, "tab here");
	}
	/* Written again: the same bytes. */
	char *again = written(v, n);
	CHECK_STR(again, text);
	free(again);
	tl_path_free(v, n);
	free(text);

	/* An empty path; CRLF line ends; an unquoted label; blank lines. */
	text = written(NULL, 0);
	CHECK_STR(text, head);
	CHECK(read_str(text, &v, &n, err, sizeof err) == 0 && n == 0);
	tl_path_free(v, n);
	free(text);
	CHECK(read_str("step,kind,rank,unit,op,peer,start_ns,end_ns,via,range,L,o,g,G_bytes,"
	               "O_bytes,calc_ns,noise_ns,label\r\n0,calc,3,0,7,,5,9,dep,0,0,0,0,0,0,4,0,"
	               "bare words\r\n\n", &v, &n, err, sizeof err) == 0);
	CHECK_EQ_U64(n, 1);
	if (n == 1) {
		CHECK_STR(v[0].label, "bare words");
		CHECK_EQ_U64(v[0].rank, 3);
	}
	tl_path_free(v, n);

	/* Errors: FILE:LINE:COL: error: MESSAGE. */
	CHECK(read_str("", &v, &n, err, sizeof err) == -1);
	CHECK_STR(err, "p.csv:1:1: error: empty file (expected the header 'step,kind,rank,unit,op,"
	          "peer,start_ns,end_ns,via,range,L,o,g,G_bytes,O_bytes,calc_ns,noise_ns,label')");
	CHECK(read_str("step,kind\n", &v, &n, err, sizeof err) == -1);
	CHECK_STR(err, "p.csv:1:1: error: expected the header 'step,kind,rank,unit,op,peer,start_ns,"
	          "end_ns,via,range,L,o,g,G_bytes,O_bytes,calc_ns,noise_ns,label'");
	CHECK_STR(error_of("0,calc,0,0,0,,0,100,dep,0,0,0,0,0,0,100\n"),
	          "p.csv:2:40: error: expected 18 fields, found 16");
	CHECK_STR(error_of("0,calc,0,0,0,,0,100,dep,0,0,0,0,0,0,100,0,,9\n"),
	          "p.csv:2:44: error: expected 18 fields, found more");
	CHECK_STR(error_of("0,calk,0,0,0,,0,100,dep,0,0,0,0,0,0,100,0,\n"),
	          "p.csv:2:3: error: unknown kind 'calk' (expected calc, send, snic, wire, recv or rnic)");
	CHECK_STR(error_of("0,calc,0,0,0,,0,1x0,dep,0,0,0,0,0,0,100,0,\n"),
	          "p.csv:2:17: error: bad end_ns '1x0' (expected an unsigned integer)");
	CHECK_STR(error_of("0,calc,0,0,0,,-5,100,dep,0,0,0,0,0,0,100,0,\n"),
	          "p.csv:2:15: error: bad start_ns '-5' (expected an unsigned integer)");
	CHECK_STR(error_of("0,calc,0,0,0,,0,100,dep,0,0,0,0,0,0,,0,\n"),
	          "p.csv:2:37: error: missing calc_ns");
	CHECK_STR(error_of("0,calc,0,0,0,,0,18446744073709551616,dep,0,0,0,0,0,0,0,0,\n"),
	          "p.csv:2:17: error: end_ns '18446744073709551616' is too large");
	CHECK_STR(error_of("0,calc,0,0,0,1,0,100,dep,0,0,0,0,0,0,100,0,\n"),
	          "p.csv:2:14: error: a calc link has no peer");
	CHECK_STR(error_of("0,wire,0,0,0,,0,100,dep,0,0,0,0,0,0,0,0,\n"),
	          "p.csv:2:14: error: missing peer (the other rank of the message)");
	CHECK_STR(error_of("0,recv,0,65536,0,1,0,100,dep,0,0,0,0,0,0,0,0,\n"),
	          "p.csv:2:10: error: unit 65536 out of range (at most 65535)");
	CHECK_STR(error_of("0,send,0,0,0,1,100,99,dep,0,0,0,0,0,0,0,0,\n"),
	          "p.csv:2:20: error: end_ns 99 before start_ns 100");
	CHECK_STR(error_of("0,calc,0,0,0,,0,100,dep,0,0,0,0,0,0,100,0,\n"
	                   "2,calc,0,0,1,,100,200,dep,0,0,0,0,0,0,100,0,\n"),
	          "p.csv:3:1: error: step 2 does not follow step 0");
	CHECK_STR(error_of("0,calc,0,0,0,,50,100,dep,0,0,0,0,0,0,50,0,\n"
	                   "1,calc,1,0,0,,40,100,dep,0,0,0,0,0,0,60,0,\n"),
	          "p.csv:3:15: error: start_ns 40 before the start of the link before it (50): "
	          "the links are in time order");
	CHECK_STR(error_of("0,calc,0,0,0,,0,100,dep,0,0,0,0,0,0,100,0,\"open\n"),
	          "p.csv:2:43: error: unterminated quoted label");
	CHECK_STR(error_of("0,calc,0,0,0,,0,100,dep,0,0,0,0,0,0,100,0,\"a\"b\n"),
	          "p.csv:2:46: error: text after the closing quote of label");
	CHECK_STR(error_of("0,calc,0,0,0,,0,100,via,0,0,0,0,0,0,100,0,\n"),
	          "p.csv:2:21: error: unknown via 'via' (expected root, dep, cpu, nic, msg, hold or "
	          "depart)");
	CHECK_STR(error_of("0,calc,0,0,0,,0,100,dep,0,0,0,0,0,0,100,-,\n"),
	          "p.csv:2:41: error: bad noise_ns '-' (expected an unsigned integer)");
	CHECK_STR(error_of("0,calc,0,0,0,,0,100,dep,0,0,0,0,0,0,100,0,a\"b\n"),
	          "p.csv:2:44: error: a quote inside the unquoted label");
	return check_done();
}
