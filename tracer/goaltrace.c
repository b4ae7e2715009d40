/* goaltrace.c: PMPI tracing library (libgoaltrace.so): records every MPI
 * call of a rank with its times and arguments into memory and writes one
 * liballprof-style text file per rank (docs/traces.md).  Here: the state,
 * the records and their encoding, setup, and the wrappers of every call
 * but the collectives (goaltrace_coll.c). */
#include <mpi.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include "goaltrace_int.h"
#include "trace_write.h"

/* ---- state ---------------------------------------------------------- */

static int active;            /* between MPI_Init and MPI_Finalize */
static int fd = -1;           /* output file */
static int my_rank, world_size;
static int64_t shift_ns;      /* added to local times: rank 0's clock */
static uint64_t *wbuf;        /* binary records */
static size_t wused, wcap;    /* in words */
static size_t wres;           /* words reserved by the last rec_open */
static enum tr_kind wkind;    /* and the kind of its record */
static char *tbuf;            /* text being written */
static size_t tcap;
int gt_tsc;                   /* now() reads the TSC */
static uint64_t at_tick, at_ns; /* the last anchor: a TSC value and its ns */

/* Stops the whole job (in every build): a record that cannot be kept
 * exactly would make the trace describe another run. */
static void fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void fatal(const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	fprintf(stderr, "goaltrace: rank %d: %s\n", my_rank, msg);
	fflush(stderr);
	int fin = 0;
	PMPI_Finalized(&fin);
	if (!fin)
		PMPI_Abort(MPI_COMM_WORLD, 1);
	abort();
}

/* Writes all of p[0..n) to the trace file; gives up tracing on error. */
static void write_all(const char *p, size_t n)
{
	while (n && fd >= 0) {
		ssize_t k = write(fd, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			fprintf(stderr, "goaltrace: rank %d: cannot write the trace: %s\n",
			        my_rank, strerror(errno));
			close(fd);
			fd = -1;
			return;
		}
		p += k;
		n -= (size_t)k;
	}
}

/* ---- the clock (docs/traces.md, "Clock") ----------------------------- */

__extension__ typedef unsigned __int128 u128;

/* A TSC value and CLOCK_MONOTONIC read together (the TSC halfway through
 * the clock read). */
static void anchor(uint64_t *tick, uint64_t *ns)
{
#if defined(__x86_64__)
	uint64_t a = __rdtsc();
	*ns = now_ns();
	*tick = a + (__rdtsc() - a) / 2;
#else
	*tick = *ns = now_ns();
#endif
}

/* Chooses the records' clock, at MPI_Init: the TSC where CPUID says it is
 * invariant (a constant rate in every state of the CPU) and
 * GOALTRACE_CLOCK is not "monotonic"; and takes the first anchor. */
static void clock_start(void)
{
	const char *env = getenv("GOALTRACE_CLOCK");
	gt_tsc = 0;
#if defined(__x86_64__)
	unsigned a, b, c, d;
	if (!(env && strcmp(env, "monotonic") == 0) && __get_cpuid(0x80000000u, &a, &b, &c, &d) &&
	    a >= 0x80000007u && __get_cpuid(0x80000007u, &a, &b, &c, &d))
		gt_tsc = (d >> 8) & 1;
#else
	(void)env;
#endif
	anchor(&at_tick, &at_ns);
}

/* The buffered records' times, TSC values, into ns on the line through
 * the last anchor and one taken now, which becomes the last: exact at both
 * anchors, and the TSC's rate is constant between them.  The times are
 * those taken since the last anchor, and those of the call whose record
 * made the buffer flush at that anchor, a little before it. */
static void records_to_ns(void)
{
	if (!gt_tsc)
		return;
	uint64_t tick, ns;
	anchor(&tick, &ns);
	uint64_t dt = tick > at_tick ? tick - at_tick : 1, dn = ns > at_ns ? ns - at_ns : 0;
	for (size_t i = 0; i < wused; i += TR_REC_WORDS(wbuf[i]))
		for (int k = 1; k <= 2; k++) {
			uint64_t t = wbuf[i + k];
			if (t == TR_NO_TIME)
				continue;
			wbuf[i + k] = t >= at_tick ? at_ns + (uint64_t)((u128)(t - at_tick) * dn / dt)
			                           : at_ns - (uint64_t)((u128)(at_tick - t) * dn / dt);
		}
	at_tick = tick;
	at_ns = ns;
}

/* Formats and writes every buffered record; empties the buffer. */
static void flush_records(void)
{
	size_t i = 0, tused = 0;
	records_to_ns();
	while (i < wused) {
		const uint64_t *w = wbuf + i;
		size_t need = tr_record_max_chars(w);
		if (tused + need > tcap) {
			write_all(tbuf, tused);
			tused = 0;
			if (need > tcap) {
				char *t = realloc(tbuf, need);
				if (!t)
					fatal("out of memory for a trace line of %zu bytes", need);
				tbuf = t;
				tcap = need;
			}
		}
		size_t k = tr_format_record(w, shift_ns, tbuf + tused);
		if (k == 0 || k > need)
			fatal("internal error: a %s record of %zu words formats to %zu "
			      "characters (0: bad record, bound %zu)",
			      TR_REC_KIND(w[0]) < TR_NKINDS ? tr_kind_names[TR_REC_KIND(w[0])] : "?",
			      TR_REC_WORDS(w[0]), k, need);
		tused += k;
		i += TR_REC_WORDS(w[0]);
	}
	write_all(tbuf, tused);
	wused = 0;
}

/* Returns room for a record of kind whose lists hold at most list values
 * each, or NULL if not tracing.  Flushes the buffer to the file when it is
 * full; a record longer than the whole buffer gets a larger buffer. */
uint64_t *gt_rec_open(enum tr_kind kind, size_t list)
{
	if (!active)
		return NULL;
	size_t n = tr_record_words(kind, list);
	if (wused + n > wcap) {
		uint64_t t0 = now_ns();
		flush_records();
		char line[96];
		int k = snprintf(line, sizeof line, "# flush: %.3f %.3f\n",
		                 (double)((int64_t)t0 + shift_ns) / 1e3,
		                 (double)((int64_t)now_ns() + shift_ns) / 1e3);
		write_all(line, (size_t)k);
		if (n > wcap) {
			uint64_t *b = n > SIZE_MAX / sizeof *wbuf ? NULL
			                                          : realloc(wbuf, n * sizeof *wbuf);
			if (!b)
				fatal("out of memory for a record of %zu words", n);
			wbuf = b;
			wcap = n;
		}
	}
	wres = n;
	wkind = kind;
	return wbuf + wused;
}

/* Completes the record at w that rec_open returned, with n words: n must be
 * within what rec_open reserved. */
static void rec_close(uint64_t *w, size_t n, uint64_t t0, uint64_t t1)
{
	if (n > wres || n < TR_REC_FIRST || w != wbuf + wused)
		fatal("internal error: a %s record of %zu words overflows its "
		      "reservation of %zu words", tr_kind_names[wkind], n, wres);
	wres = 0;
	w[0] = TR_REC_HEAD(wkind, n);
	w[1] = t0;
	w[2] = t1;
	wused += n;
}

/* ---- argument encoding ---------------------------------------------- */

#define HANDLE_FN(name, type, null) \
	static uint64_t name(type h) \
	{ \
		uint64_t v = 0; \
		if (h == null) \
			return 0; \
		memcpy(&v, &h, sizeof h < sizeof v ? sizeof h : sizeof v); \
		return v; \
	}
HANDLE_FN(h_comm, MPI_Comm, MPI_COMM_NULL)
HANDLE_FN(h_req, MPI_Request, MPI_REQUEST_NULL)
HANDLE_FN(h_type, MPI_Datatype, MPI_DATATYPE_NULL)
HANDLE_FN(h_op, MPI_Op, MPI_OP_NULL)
HANDLE_FN(h_group, MPI_Group, MPI_GROUP_NULL)
HANDLE_FN(h_info, MPI_Info, MPI_INFO_NULL)

/* Rank with MPI's special values normalised (trace_kinds.h). */
static uint64_t peer(int r)
{
	if (r == MPI_ANY_SOURCE)
		return s64(TR_ANY_SOURCE);
	if (r == MPI_PROC_NULL)
		return s64(TR_PROC_NULL);
	return s64(r);
}

static uint64_t tagv(int t)
{
	return s64(t == MPI_ANY_TAG ? TR_ANY_TAG : t);
}

/* liballprof's numbers for predefined datatypes and ops. */
struct dtype_id {
	MPI_Datatype t;
	int id;
};
struct op_id {
	MPI_Op o;
	int id;
};

static int dtype_id(MPI_Datatype t, uint64_t *id)
{
	const struct dtype_id ids[] = {
		{ MPI_INT, 1 }, { MPI_INTEGER, 2 }, { MPI_LONG, 3 }, { MPI_SHORT, 4 },
		{ MPI_UNSIGNED, 5 }, { MPI_UNSIGNED_LONG, 6 }, { MPI_UNSIGNED_SHORT, 7 },
		{ MPI_FLOAT, 8 }, { MPI_REAL, 9 }, { MPI_DOUBLE, 10 },
		{ MPI_DOUBLE_PRECISION, 11 }, { MPI_LONG_DOUBLE, 12 }, { MPI_BYTE, 13 },
		{ MPI_FLOAT_INT, 14 }, { MPI_DOUBLE_INT, 15 }, { MPI_LONG_INT, 16 },
		{ MPI_2INT, 17 }, { MPI_SHORT_INT, 18 }, { MPI_LONG_DOUBLE_INT, 19 },
		{ MPI_LOGICAL, 20 }, { MPI_COMPLEX, 21 }, { MPI_CHARACTER, 21 },
		{ MPI_DOUBLE_COMPLEX, 22 },
	};
	for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
		if (ids[i].t == t) {
			*id = (uint64_t)ids[i].id;
			return 1;
		}
	return 0;
}

uint64_t gt_op_id(MPI_Op o)
{
	const struct op_id ids[] = {
		{ MPI_MIN, 1 }, { MPI_MAX, 2 }, { MPI_SUM, 3 }, { MPI_PROD, 4 },
		{ MPI_LAND, 5 }, { MPI_BAND, 6 }, { MPI_LOR, 7 }, { MPI_BOR, 8 },
		{ MPI_LXOR, 9 }, { MPI_BXOR, 10 }, { MPI_MINLOC, 11 }, { MPI_MAXLOC, 12 },
	};
	for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
		if (ids[i].o == o)
			return (uint64_t)ids[i].id;
	return h_op(o);
}

/* A small cache of datatype id, size, extent, and stride and block
 * (cleared by Type_free). */
#define DT_CACHE 16
static struct {
	MPI_Datatype t;
	uint64_t v[5];
	int used;
} dt_cache[DT_CACHE];

/* The layout of a vector type (MPI_Type_vector or MPI_Type_create_hvector
 * of at least two blocks of a contiguous type): the bytes from one block's
 * start to the next one's into *stride, a block's bytes into *block; 0 and
 * 0 for any other type. */
static void vector_shape(MPI_Datatype t, uint64_t *stride, uint64_t *block)
{
	int ni = 0, na = 0, nd = 0, comb = 0, ints[3] = { 0, 0, 0 };
	MPI_Aint addrs[1] = { 0 }, lb = 0, ext = 0;
	MPI_Datatype old = MPI_DATATYPE_NULL;
	*stride = *block = 0;
	if (PMPI_Type_get_envelope(t, &ni, &na, &nd, &comb) != MPI_SUCCESS
	    || !((comb == MPI_COMBINER_VECTOR && ni == 3 && na == 0 && nd == 1)
	         || (comb == MPI_COMBINER_HVECTOR && ni == 2 && na == 1 && nd == 1))
	    || PMPI_Type_get_contents(t, ni, na, nd, ints, addrs, &old) != MPI_SUCCESS)
		return;
	int size = 0, oc = 0;
	PMPI_Type_size(old, &size);
	PMPI_Type_get_extent(old, &lb, &ext);
	int64_t st = comb == MPI_COMBINER_VECTOR ? (int64_t)ints[2] * (int64_t)ext : (int64_t)addrs[0];
	int64_t bl = (int64_t)ints[1] * size;
	if (ints[0] >= 2 && size > 0 && (MPI_Aint)size == ext && bl > 0 && st >= bl) {
		*stride = (uint64_t)st;
		*block = (uint64_t)bl;
	}
	/* A derived old type comes back as a new handle, to be freed. */
	if (PMPI_Type_get_envelope(old, &ni, &na, &nd, &oc) == MPI_SUCCESS && oc != MPI_COMBINER_NAMED)
		PMPI_Type_free(&old);
}

size_t gt_put_dtype(uint64_t *w, size_t i, MPI_Datatype t)
{
	if (t == MPI_DATATYPE_NULL) {
		w[i] = w[i + 1] = w[i + 2] = w[i + 3] = w[i + 4] = 0;
		return i + 5;
	}
	uint64_t hv = h_type(t);
	unsigned slot = (unsigned)((hv >> 4) ^ (hv >> 12)) % DT_CACHE;
	if (!dt_cache[slot].used || dt_cache[slot].t != t) {
		int size = 0;
		MPI_Aint lb = 0, extent = 0;
		PMPI_Type_size(t, &size);
		PMPI_Type_get_extent(t, &lb, &extent);
		dt_cache[slot].t = t;
		dt_cache[slot].used = 1;
		if (!dtype_id(t, &dt_cache[slot].v[0]))
			dt_cache[slot].v[0] = hv;
		dt_cache[slot].v[1] = s64(size);
		dt_cache[slot].v[2] = s64((int64_t)extent);
		vector_shape(t, &dt_cache[slot].v[3], &dt_cache[slot].v[4]);
	}
	memcpy(w + i, dt_cache[slot].v, sizeof dt_cache[slot].v);
	return i + 5;
}

/* A small cache of communicator rank and size (cleared by Comm_free). */
#define COMM_CACHE 8
static struct {
	MPI_Comm c;
	uint64_t v[3];
	int used;
} comm_cache[COMM_CACHE];

static size_t put_comm(uint64_t *w, size_t i, MPI_Comm c)
{
	uint64_t hv = h_comm(c);
	unsigned slot = (unsigned)((hv >> 4) ^ (hv >> 12)) % COMM_CACHE;
	if (!comm_cache[slot].used || comm_cache[slot].c != c) {
		int r = -1, p = 0;
		if (c != MPI_COMM_NULL) {
			PMPI_Comm_rank(c, &r);
			PMPI_Comm_size(c, &p);
		}
		comm_cache[slot].c = c;
		comm_cache[slot].used = 1;
		comm_cache[slot].v[0] = hv;
		comm_cache[slot].v[1] = s64(r);
		comm_cache[slot].v[2] = s64(p);
	}
	memcpy(w + i, comm_cache[slot].v, sizeof comm_cache[slot].v);
	return i + 3;
}

static size_t put_status(uint64_t *w, size_t i, const MPI_Status *st)
{
#ifdef OPEN_MPI
	/* Open MPI keeps the received bytes in the status: no call needed */
	int64_t n = (int64_t)st->_ucount;
#else
	int n = 0;
	PMPI_Get_count(st, MPI_BYTE, &n);
	if (n == MPI_UNDEFINED)
		n = -1;
#endif
	w[i] = peer(st->MPI_SOURCE);
	w[i + 1] = tagv(st->MPI_TAG);
	w[i + 2] = s64(n);
	return i + 3;
}

/* Count array (A): pointer, n, values (n = 0 if counts is NULL). */
size_t gt_put_counts(uint64_t *w, size_t i, const int *counts, int n)
{
	w[i++] = h_ptr(counts);
	if (!counts)
		n = 0;
	w[i++] = s64(n);
	for (int k = 0; k < n; k++)
		w[i++] = s64(counts[k]);
	return i;
}

int gt_comm_size(MPI_Comm c)
{
	int p = 0;
	PMPI_Comm_size(c, &p);
	return p;
}

int gt_comm_rank(MPI_Comm c)
{
	int r = -1;
	PMPI_Comm_rank(c, &r);
	return r;
}

/* Writes a communicator definition: its handle and its members' world ranks. */
static void put_commdef(MPI_Comm c, uint64_t t)
{
	if (c == MPI_COMM_NULL)
		return;
	int p = gt_comm_size(c);
	uint64_t *w = gt_rec_open(TR_COMMDEF, (size_t)p);
	if (!w)
		return;
	MPI_Group g, wg;
	int *in = malloc(2 * (size_t)p * sizeof *in);
	if (!in)
		fatal("out of memory for the members of a communicator of %d ranks", p);
	PMPI_Comm_group(c, &g);
	PMPI_Comm_group(MPI_COMM_WORLD, &wg);
	for (int k = 0; k < p; k++)
		in[k] = k;
	PMPI_Group_translate_ranks(g, p, in, wg, in + p);
	PMPI_Group_free(&g);
	PMPI_Group_free(&wg);
	size_t i = TR_REC_FIRST;
	w[i++] = h_comm(c);
	w[i++] = s64(p);
	for (int k = 0; k < p; k++)
		w[i++] = s64(in[p + k]);
	free(in);
	rec_close(w, i, t, t);
}

/* ---- setup and teardown --------------------------------------------- */

/* Estimates this rank's clock offset to rank 0 by ping-pongs (the one with
 * the smallest round trip counts); sets shift_ns. */
static void sync_clocks(void)
{
	const char *env = getenv("GOALTRACE_SYNC");
	if (env && strcmp(env, "0") == 0)
		return;
	MPI_Comm c;
	PMPI_Comm_dup(MPI_COMM_WORLD, &c);
	/* ranks on rank 0's host share its CLOCK_MONOTONIC: no shift */
	char host0[256] = "", host[256] = "";
	gethostname(host, sizeof host - 1);
	memcpy(host0, host, sizeof host);
	PMPI_Bcast(host0, sizeof host0, MPI_CHAR, 0, c);
	int need = strcmp(host, host0) != 0, *needs = NULL;
	if (my_rank == 0)
		needs = calloc((size_t)world_size, sizeof *needs);
	PMPI_Gather(&need, 1, MPI_INT, needs, 1, MPI_INT, 0, c);
	enum { ROUNDS = 10 };
	if (my_rank == 0) {
		for (int r = 1; r < world_size; r++) {
			if (!needs || !needs[r])
				continue;
			int64_t best_rtt = INT64_MAX, off = 0;
			for (int k = 0; k < ROUNDS; k++) {
				int64_t a = (int64_t)now_ns(), b;
				PMPI_Send(&a, 1, MPI_INT64_T, r, 0, c);
				PMPI_Recv(&b, 1, MPI_INT64_T, r, 0, c, MPI_STATUS_IGNORE);
				int64_t e = (int64_t)now_ns();
				if (e - a < best_rtt) {
					best_rtt = e - a;
					off = a + (e - a) / 2 - b;
				}
			}
			PMPI_Send(&off, 1, MPI_INT64_T, r, 1, c);
		}
		free(needs);
	} else if (need) {
		for (int k = 0; k < ROUNDS; k++) {
			int64_t a, b;
			PMPI_Recv(&a, 1, MPI_INT64_T, 0, 0, c, MPI_STATUS_IGNORE);
			b = (int64_t)now_ns();
			PMPI_Send(&b, 1, MPI_INT64_T, 0, 0, c);
		}
		PMPI_Recv(&shift_ns, 1, MPI_INT64_T, 0, 1, c, MPI_STATUS_IGNORE);
	}
	PMPI_Comm_free(&c);
}

/* Creates folder dir and its parents as needed (several ranks may race:
 * a folder that exists is fine); 0, or -1 with errno set. */
static int make_dirs(const char *dir)
{
	char p[4096];
	size_t n = strlen(dir);
	if (n >= sizeof p) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(p, dir, n + 1);
	for (size_t i = 1; i <= n; i++) {
		if (p[i] != '/' && p[i] != 0)
			continue;
		char c = p[i];
		p[i] = 0;
		if (mkdir(p, 0777) != 0 && errno != EEXIST)
			return -1;
		p[i] = c;
	}
	return 0;
}

/* Opens path for writing without truncating it (that waits until every
 * rank could open its file); *created tells whether the file is new. */
static int open_trace(const char *path, int *created)
{
	int f = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	*created = f >= 0;
	if (f < 0 && errno == EEXIST)
		f = open(path, O_WRONLY | O_CLOEXEC);
	return f;
}

static void rec_p2p(enum tr_kind kind, const void *buf, int count, MPI_Datatype dt,
                    int rank, int tag, MPI_Comm comm, const MPI_Request *req,
                    uint64_t t0, uint64_t t1);

/* The tracer's own time around a call, in ns (the trace's "# tracer
 * overhead:" line, docs/traces.md): what a wrapper of MPI_Isend adds to
 * the MPI call, its second clock read and its record, timed over 1000
 * records at MPI_Init that are then dropped (the median of 5 rounds). */
static uint64_t own_cost(void)
{
	enum { ROUNDS = 5, N = 1000 };
	uint64_t t[ROUNDS];
	MPI_Request req = MPI_REQUEST_NULL;
	size_t saved = wused;
	active = 1;
	for (int k = 0; k < ROUNDS; k++) {
		uint64_t t0 = now_ns();
		for (int i = 0; i < N; i++) {
			rec_p2p(TR_ISEND, &req, 1, MPI_BYTE, 0, 0, MPI_COMM_WORLD, &req, t0, now());
			wused = saved;
		}
		t[k] = (now_ns() - t0 + N / 2) / N;
	}
	active = 0;
	for (int i = 1; i < ROUNDS; i++)   /* sort the five */
		for (int j = i; j > 0 && t[j] < t[j - 1]; j--) {
			uint64_t x = t[j];
			t[j] = t[j - 1];
			t[j - 1] = x;
		}
	return t[ROUNDS / 2];
}

/* Opens the trace file and allocates the buffers.  Then, before any other
 * collective call, the ranks agree: if one of them failed, none traces
 * (or, with GOALTRACE_STRICT=1, all stop with exit status 1), and the lowest
 * failing rank says why on stderr, once.  A rank alone without a trace file
 * would leave the others' clock synchronisation, or the application's
 * collectives, waiting for it forever. */
static void start_tracing(void)
{
	PMPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
	PMPI_Comm_size(MPI_COMM_WORLD, &world_size);
	const char *dir = getenv("GOALTRACE_DIR");
	const char *prefix = getenv("GOALTRACE_PREFIX");
	const char *htor = getenv("HTOR_PMPI_FILE_PREFIX");
	const char *strict_env = getenv("GOALTRACE_STRICT");
	int strict = strict_env && strcmp(strict_env, "1") == 0;
	char path[4096], why[4200] = "";
	int plen;
	if (!dir && !prefix && htor)
		plen = snprintf(path, sizeof path, "%s%d.txt", htor, my_rank);
	else
		plen = snprintf(path, sizeof path, "%s/%s%d.txt", dir ? dir : ".",
		                prefix ? prefix : "pmpi-trace-rank-", my_rank);
	const char *mb = getenv("GOALTRACE_BUFFER_MB");
	size_t bytes = (size_t)(mb && atoi(mb) > 0 ? atoi(mb) : 64) << 20;
	wcap = bytes / sizeof *wbuf;
	wbuf = malloc(wcap * sizeof *wbuf);
	if (wbuf) {
		/* Fault every page in now rather than during the run.  A memset
		 * would not do: the compiler turns malloc + memset into calloc,
		 * which leaves fresh pages untouched. */
		volatile unsigned char *page = (volatile unsigned char *)wbuf;
		for (size_t k = 0; k < wcap * sizeof *wbuf; k += 4096)
			page[k] = 0;
	}
	tcap = 1 << 20;
	tbuf = malloc(tcap);
	int created = 0;
	if (plen < 0 || (size_t)plen >= sizeof path)
		snprintf(why, sizeof why, "cannot open %.200s...: %s", path, strerror(ENAMETOOLONG));
	else if (dir && make_dirs(dir) != 0)
		snprintf(why, sizeof why, "cannot create the folder %s: %s", dir, strerror(errno));
	else if ((fd = open_trace(path, &created)) < 0)
		snprintf(why, sizeof why, "cannot open %s: %s", path, strerror(errno));
	else if (!wbuf || !tbuf)
		snprintf(why, sizeof why, "cannot allocate the %zu MiB record buffer: %s",
		         bytes >> 20, strerror(ENOMEM));

	/* the lowest failing rank (INT_MAX: none) and whether any rank is strict */
	int in[2] = { why[0] ? my_rank : INT_MAX, -strict }, out[2];
	PMPI_Allreduce(in, out, 2, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
	if (out[0] != INT_MAX) {
		int bad = why[0] != 0, nbad = 0;
		PMPI_Allreduce(&bad, &nbad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
		strict = out[1] < 0;
		if (my_rank == out[0]) {
			char others[64] = "";
			if (nbad > 1)
				snprintf(others, sizeof others, " (and %d more rank%s)", nbad - 1,
				         nbad > 2 ? "s" : "");
			fprintf(stderr, "goaltrace: rank %d: %s%s; %s\n", my_rank, why, others,
			        strict ? "stopping (GOALTRACE_STRICT=1)" : "no rank is traced");
			fflush(stderr);
		}
		if (fd >= 0) {
			close(fd);
			if (created)
				unlink(path);
		}
		fd = -1;
		free(wbuf);
		free(tbuf);
		wbuf = NULL;
		tbuf = NULL;
		wcap = tcap = 0;
		if (strict) {
			PMPI_Finalize();
			exit(1);
		}
		return;
	}
	struct stat sb;
	if (!created && fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && ftruncate(fd, 0) != 0)
		fatal("cannot truncate %s: %s", path, strerror(errno));
	sync_clocks();
	uint64_t own = own_cost();
	char host[256] = "";
	gethostname(host, sizeof host - 1);
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	char head[1024];
	int n = snprintf(head, sizeof head,
	                 "# goaltrace trace format 1\n"
	                 "# rank: %d\n"
	                 "# size: %d\n"
	                 "# hostname: %s\n"
	                 "# cores: %ld\n"
	                 "# time: microseconds (CLOCK_MONOTONIC + clock shift)\n"
	                 "# clock shift to rank 0: %.3f us\n"
	                 "# request size: %zu\n"
	                 "# tracer overhead: %" PRIu64 " ns per call\n",
	                 my_rank, world_size, host, cores > 0 ? cores : 1L,
	                 (double)shift_ns / 1e3, sizeof(MPI_Request), own);
	write_all(head, (size_t)n);
	active = 1;
}

static void stop_tracing(void)
{
	if (!active)
		return;
	flush_records();
	active = 0;
	if (fd >= 0)
		close(fd);
	fd = -1;
	free(wbuf);
	free(tbuf);
	wbuf = NULL;
	tbuf = NULL;
	wused = wcap = tcap = 0;
}

static void after_init(uint64_t t0, int *argc, char ***argv, int thread,
                       int required, int provided)
{
	start_tracing();
	uint64_t t1 = now();
	uint64_t *w = gt_rec_open(thread ? TR_INIT_THREAD : TR_INIT, 0);
	if (!w)
		return;
	size_t i = TR_REC_FIRST;
	w[i++] = h_ptr(argc);
	w[i++] = h_ptr(argv);
	if (thread) {
		w[i++] = s64(required);
		w[i++] = s64(provided);
	}
	rec_close(w, i, t0, t1);
	put_commdef(MPI_COMM_WORLD, t1);
	put_commdef(MPI_COMM_SELF, t1);
}

int MPI_Init(int *argc, char ***argv)
{
	clock_start();
	uint64_t t0 = now();
	int ret = PMPI_Init(argc, argv);
	if (ret == MPI_SUCCESS)
		after_init(t0, argc, argv, 0, 0, 0);
	return ret;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
	clock_start();
	uint64_t t0 = now();
	int ret = PMPI_Init_thread(argc, argv, required, provided);
	if (ret == MPI_SUCCESS)
		after_init(t0, argc, argv, 1, required, *provided);
	return ret;
}

int MPI_Finalize(void)
{
	uint64_t t0 = now();
	int ret = PMPI_Finalize();
	uint64_t t1 = now();
	uint64_t *w = gt_rec_open(TR_FINALIZE, 0);
	if (w)
		rec_close(w, TR_REC_FIRST, t0, t1);
	stop_tracing();
	return ret;
}

int MPI_Abort(MPI_Comm comm, int errorcode)
{
	uint64_t t0 = now();
	uint64_t *w = gt_rec_open(TR_ABORT, 0);
	if (w) {
		size_t i = put_comm(w, TR_REC_FIRST, comm);
		w[i++] = s64(errorcode);
		rec_close(w, i, t0, t0);
	}
	stop_tracing();
	return PMPI_Abort(comm, errorcode);
}

/* ---- point to point ------------------------------------------------- */

/* Ends a record with its communicator, and, for a nonblocking call (req
 * not NULL), its request after it; closes the record. */
void gt_rec_end(uint64_t *w, size_t i, MPI_Comm comm, const MPI_Request *req,
                uint64_t t0, uint64_t t1)
{
	i = put_comm(w, i, comm);
	if (req)
		w[i++] = h_req(*req);
	rec_close(w, i, t0, t1);
}

/* Puts "b n d": a buffer, its count and datatype. */
size_t gt_put_buf(uint64_t *w, size_t i, const void *buf, int count, MPI_Datatype dt)
{
	w[i++] = h_ptr(buf);
	w[i++] = s64(count);
	return gt_put_dtype(w, i, dt);
}

/* Record of a send-like call: b n d P T c [R]. */
static void rec_p2p(enum tr_kind kind, const void *buf, int count, MPI_Datatype dt,
                    int rank, int tag, MPI_Comm comm, const MPI_Request *req,
                    uint64_t t0, uint64_t t1)
{
	uint64_t *w = gt_rec_open(kind, 0);
	if (!w)
		return;
	size_t i = gt_put_buf(w, TR_REC_FIRST, buf, count, dt);
	w[i++] = peer(rank);
	w[i++] = tagv(tag);
	gt_rec_end(w, i, comm, req, t0, t1);
}

#define SEND_FN(NAME, KIND) \
	int NAME(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm) \
	{ \
		uint64_t t0 = now(); \
		int ret = P##NAME(buf, count, dt, dest, tag, comm); \
		rec_p2p(KIND, buf, count, dt, dest, tag, comm, NULL, t0, now()); \
		return ret; \
	}
SEND_FN(MPI_Send, TR_SEND)
SEND_FN(MPI_Bsend, TR_BSEND)
SEND_FN(MPI_Ssend, TR_SSEND)
SEND_FN(MPI_Rsend, TR_RSEND)

#define ISEND_FN(NAME, KIND) \
	int NAME(const void *buf, int count, MPI_Datatype dt, int dest, int tag, \
	         MPI_Comm comm, MPI_Request *req) \
	{ \
		uint64_t t0 = now(); \
		int ret = P##NAME(buf, count, dt, dest, tag, comm, req); \
		rec_p2p(KIND, buf, count, dt, dest, tag, comm, req, t0, now()); \
		return ret; \
	}
ISEND_FN(MPI_Isend, TR_ISEND)
ISEND_FN(MPI_Ibsend, TR_IBSEND)
ISEND_FN(MPI_Issend, TR_ISSEND)
ISEND_FN(MPI_Irsend, TR_IRSEND)

int MPI_Irecv(void *buf, int count, MPI_Datatype dt, int source, int tag,
              MPI_Comm comm, MPI_Request *req)
{
	uint64_t t0 = now();
	int ret = PMPI_Irecv(buf, count, dt, source, tag, comm, req);
	rec_p2p(TR_IRECV, buf, count, dt, source, tag, comm, req, t0, now());
	return ret;
}

int MPI_Recv(void *buf, int count, MPI_Datatype dt, int source, int tag,
             MPI_Comm comm, MPI_Status *status)
{
	MPI_Status st;
	if (status == MPI_STATUS_IGNORE)
		status = &st;
	uint64_t t0 = now();
	int ret = PMPI_Recv(buf, count, dt, source, tag, comm, status);
	uint64_t t1 = now();
	uint64_t *w = gt_rec_open(TR_RECV, 0);
	if (w) {
		size_t i = gt_put_buf(w, TR_REC_FIRST, buf, count, dt);
		w[i++] = peer(source);
		w[i++] = tagv(tag);
		i = put_comm(w, i, comm);
		i = put_status(w, i, status);
		rec_close(w, i, t0, t1);
	}
	return ret;
}

int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest, int stag,
                 void *rbuf, int rcount, MPI_Datatype rtype, int source, int rtag,
                 MPI_Comm comm, MPI_Status *status)
{
	MPI_Status st;
	if (status == MPI_STATUS_IGNORE)
		status = &st;
	uint64_t t0 = now();
	int ret = PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype,
	                        source, rtag, comm, status);
	uint64_t t1 = now();
	uint64_t *w = gt_rec_open(TR_SENDRECV, 0);
	if (w) {
		size_t i = TR_REC_FIRST;
		w[i++] = h_ptr(sbuf);
		w[i++] = s64(scount);
		i = gt_put_dtype(w, i, stype);
		w[i++] = peer(dest);
		w[i++] = tagv(stag);
		w[i++] = h_ptr(rbuf);
		w[i++] = s64(rcount);
		i = gt_put_dtype(w, i, rtype);
		w[i++] = peer(source);
		w[i++] = tagv(rtag);
		i = put_comm(w, i, comm);
		i = put_status(w, i, status);
		rec_close(w, i, t0, t1);
	}
	return ret;
}

int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype dt, int dest, int stag,
                         int source, int rtag, MPI_Comm comm, MPI_Status *status)
{
	MPI_Status st;
	if (status == MPI_STATUS_IGNORE)
		status = &st;
	uint64_t t0 = now();
	int ret = PMPI_Sendrecv_replace(buf, count, dt, dest, stag, source, rtag, comm, status);
	uint64_t t1 = now();
	uint64_t *w = gt_rec_open(TR_SENDRECV_REPLACE, 0);
	if (w) {
		size_t i = gt_put_buf(w, TR_REC_FIRST, buf, count, dt);
		w[i++] = peer(dest);
		w[i++] = tagv(stag);
		w[i++] = peer(source);
		w[i++] = tagv(rtag);
		i = put_comm(w, i, comm);
		i = put_status(w, i, status);
		rec_close(w, i, t0, t1);
	}
	return ret;
}

int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
	MPI_Status st;
	if (status == MPI_STATUS_IGNORE)
		status = &st;
	uint64_t t0 = now();
	int ret = PMPI_Probe(source, tag, comm, status);
	uint64_t t1 = now();
	uint64_t *w = gt_rec_open(TR_PROBE, 0);
	if (w) {
		size_t i = TR_REC_FIRST;
		w[i++] = peer(source);
		w[i++] = tagv(tag);
		i = put_comm(w, i, comm);
		i = put_status(w, i, status);
		rec_close(w, i, t0, t1);
	}
	return ret;
}

int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
	MPI_Status st;
	if (status == MPI_STATUS_IGNORE)
		status = &st;
	uint64_t t0 = now();
	int ret = PMPI_Iprobe(source, tag, comm, flag, status);
	uint64_t t1 = now();
	uint64_t *w = gt_rec_open(TR_IPROBE, 0);
	if (w) {
		size_t i = TR_REC_FIRST;
		w[i++] = peer(source);
		w[i++] = tagv(tag);
		i = put_comm(w, i, comm);
		w[i++] = s64(*flag != 0);
		if (*flag) {
			i = put_status(w, i, status);
		} else {
			w[i++] = s64(-1);
			w[i++] = s64(-1);
			w[i++] = 0;
		}
		rec_close(w, i, t0, t1);
	}
	return ret;
}

/* ---- completion ----------------------------------------------------- */

int MPI_Wait(MPI_Request *req, MPI_Status *status)
{
	MPI_Status st;
	if (status == MPI_STATUS_IGNORE)
		status = &st;
	uint64_t h = h_req(*req);
	uint64_t t0 = now();
	int ret = PMPI_Wait(req, status);
	uint64_t t1 = now();
	uint64_t *w = gt_rec_open(TR_WAIT, 0);
	if (w) {
		size_t i = TR_REC_FIRST;
		w[i++] = h;
		i = put_status(w, i, status);
		rec_close(w, i, t0, t1);
	}
	return ret;
}

int MPI_Test(MPI_Request *req, int *flag, MPI_Status *status)
{
	MPI_Status st;
	if (status == MPI_STATUS_IGNORE)
		status = &st;
	uint64_t h = h_req(*req);
	uint64_t t0 = now();
	int ret = PMPI_Test(req, flag, status);
	uint64_t t1 = now();
	uint64_t *w = gt_rec_open(TR_TEST, 0);
	if (w) {
		size_t i = TR_REC_FIRST;
		w[i++] = h;
		w[i++] = s64(*flag != 0);
		if (*flag) {
			i = put_status(w, i, status);
		} else {
			w[i++] = s64(-1);
			w[i++] = s64(-1);
			w[i++] = 0;
		}
		rec_close(w, i, t0, t1);
	}
	return ret;
}

/* Statuses for the *all / *some calls when the caller passes
 * MPI_STATUSES_IGNORE. */
static MPI_Status *status_array(MPI_Status *given, MPI_Status *local, int nlocal,
                                int n, MPI_Status **heap)
{
	*heap = NULL;
	if (given != MPI_STATUSES_IGNORE)
		return given;
	if (n <= nlocal)
		return local;
	*heap = malloc((size_t)n * sizeof **heap);
	if (!*heap)
		fatal("out of memory for %d statuses", n);
	return *heap;
}

/* Copies the request handles before a completion call (NULL if not
 * tracing or out of memory). */
static uint64_t *save_reqs(int n, const MPI_Request *reqs, uint64_t *local, int nlocal)
{
	if (!active)
		return NULL;
	uint64_t *h = n <= nlocal ? local : malloc((size_t)n * sizeof *h);
	if (!h)
		fatal("out of memory for %d request handles", n);
	for (int k = 0; k < n; k++)
		h[k] = h_req(reqs[k]);
	return h;
}

#define NLOCAL 32

/* A count as a list length (an erroneous negative count lists nothing). */
static size_t list_len(int n)
{
	return n > 0 ? (size_t)n : 0;
}

/* Writes k L for a completion call; returns the next index. */
static size_t put_reqs(uint64_t *w, size_t i, int n, const uint64_t *h)
{
	w[i++] = s64(n);
	w[i++] = list_len(n);
	for (int k = 0; k < n; k++)
		w[i++] = h[k];
	return i;
}

static void rec_all(enum tr_kind kind, int n, const uint64_t *h, int flag,
                    const MPI_Status *st, uint64_t t0, uint64_t t1)
{
	uint64_t *w = gt_rec_open(kind, list_len(n));
	if (!w)
		return;
	size_t i = put_reqs(w, TR_REC_FIRST, n, h);
	if (kind == TR_TESTALL)
		w[i++] = s64(flag != 0);
	int ns = flag && st && n > 0 ? n : 0;
	w[i++] = s64(ns);
	for (int k = 0; k < ns; k++)
		i = put_status(w, i, &st[k]);
	rec_close(w, i, t0, t1);
}

int MPI_Waitall(int n, MPI_Request reqs[], MPI_Status statuses[])
{
	uint64_t lh[NLOCAL];
	MPI_Status ls[NLOCAL], *heap;
	uint64_t *h = save_reqs(n, reqs, lh, NLOCAL);
	MPI_Status *st = h ? status_array(statuses, ls, NLOCAL, n, &heap) : statuses;
	if (!h)
		heap = NULL;
	uint64_t t0 = now();
	int ret = PMPI_Waitall(n, reqs, st ? st : statuses);
	uint64_t t1 = now();
	if (h) {
		rec_all(TR_WAITALL, n, h, 1, st, t0, t1);
		if (h != lh)
			free(h);
	}
	free(heap);
	return ret;
}

int MPI_Testall(int n, MPI_Request reqs[], int *flag, MPI_Status statuses[])
{
	uint64_t lh[NLOCAL];
	MPI_Status ls[NLOCAL], *heap;
	uint64_t *h = save_reqs(n, reqs, lh, NLOCAL);
	MPI_Status *st = h ? status_array(statuses, ls, NLOCAL, n, &heap) : statuses;
	if (!h)
		heap = NULL;
	uint64_t t0 = now();
	int ret = PMPI_Testall(n, reqs, flag, st ? st : statuses);
	uint64_t t1 = now();
	if (h) {
		rec_all(TR_TESTALL, n, h, *flag, st, t0, t1);
		if (h != lh)
			free(h);
	}
	free(heap);
	return ret;
}

static void rec_any(enum tr_kind kind, int n, const uint64_t *h, int index, int flag,
                    const MPI_Status *st, uint64_t t0, uint64_t t1)
{
	uint64_t *w = gt_rec_open(kind, list_len(n));
	if (!w)
		return;
	size_t i = put_reqs(w, TR_REC_FIRST, n, h);
	int done = flag && index != MPI_UNDEFINED;
	w[i++] = s64(done ? index : -1);
	if (kind == TR_TESTANY)
		w[i++] = s64(flag != 0);
	if (done) {
		i = put_status(w, i, st);
	} else {
		w[i++] = s64(-1);
		w[i++] = s64(-1);
		w[i++] = 0;
	}
	rec_close(w, i, t0, t1);
}

int MPI_Waitany(int n, MPI_Request reqs[], int *index, MPI_Status *status)
{
	MPI_Status st;
	if (status == MPI_STATUS_IGNORE)
		status = &st;
	uint64_t lh[NLOCAL];
	uint64_t *h = save_reqs(n, reqs, lh, NLOCAL);
	uint64_t t0 = now();
	int ret = PMPI_Waitany(n, reqs, index, status);
	uint64_t t1 = now();
	if (h) {
		rec_any(TR_WAITANY, n, h, *index, 1, status, t0, t1);
		if (h != lh)
			free(h);
	}
	return ret;
}

int MPI_Testany(int n, MPI_Request reqs[], int *index, int *flag, MPI_Status *status)
{
	MPI_Status st;
	if (status == MPI_STATUS_IGNORE)
		status = &st;
	uint64_t lh[NLOCAL];
	uint64_t *h = save_reqs(n, reqs, lh, NLOCAL);
	uint64_t t0 = now();
	int ret = PMPI_Testany(n, reqs, index, flag, status);
	uint64_t t1 = now();
	if (h) {
		rec_any(TR_TESTANY, n, h, *index, *flag, status, t0, t1);
		if (h != lh)
			free(h);
	}
	return ret;
}

static void rec_some(enum tr_kind kind, int n, const uint64_t *h, int outcount,
                     const int *indices, const MPI_Status *st, uint64_t t0, uint64_t t1)
{
	int m = outcount >= 0 && outcount <= n ? outcount : 0; /* MPI_UNDEFINED: 0 */
	uint64_t *w = gt_rec_open(kind, list_len(n));
	if (!w)
		return;
	size_t i = put_reqs(w, TR_REC_FIRST, n, h);
	w[i++] = s64(m);
	w[i++] = s64(m);
	for (int k = 0; k < m; k++)
		w[i++] = s64(indices[k]);
	w[i++] = s64(m);
	for (int k = 0; k < m; k++)
		i = put_status(w, i, &st[k]);
	rec_close(w, i, t0, t1);
}

#define SOME_FN(NAME, KIND) \
	int NAME(int n, MPI_Request reqs[], int *outcount, int indices[], \
	         MPI_Status statuses[]) \
	{ \
		uint64_t lh[NLOCAL]; \
		MPI_Status ls[NLOCAL], *heap; \
		uint64_t *h = save_reqs(n, reqs, lh, NLOCAL); \
		MPI_Status *st = h ? status_array(statuses, ls, NLOCAL, n, &heap) : statuses; \
		if (!h) \
			heap = NULL; \
		uint64_t t0 = now(); \
		int ret = P##NAME(n, reqs, outcount, indices, st ? st : statuses); \
		uint64_t t1 = now(); \
		if (h) { \
			if (st) \
				rec_some(KIND, n, h, *outcount, indices, st, t0, t1); \
			if (h != lh) \
				free(h); \
		} \
		free(heap); \
		return ret; \
	}
SOME_FN(MPI_Waitsome, TR_WAITSOME)
SOME_FN(MPI_Testsome, TR_TESTSOME)

static void rec_req(enum tr_kind kind, uint64_t h, uint64_t t0, uint64_t t1)
{
	uint64_t *w = gt_rec_open(kind, 0);
	if (!w)
		return;
	w[TR_REC_FIRST] = h;
	rec_close(w, TR_REC_FIRST + 1, t0, t1);
}

int MPI_Request_free(MPI_Request *req)
{
	uint64_t h = h_req(*req), t0 = now();
	int ret = PMPI_Request_free(req);
	rec_req(TR_REQUEST_FREE, h, t0, now());
	return ret;
}

int MPI_Cancel(MPI_Request *req)
{
	uint64_t h = h_req(*req), t0 = now();
	int ret = PMPI_Cancel(req);
	rec_req(TR_CANCEL, h, t0, now());
	return ret;
}

/* ---- communicators and datatypes ------------------------------------ */

/* Record "c VALUES... N" of a call that made communicator newcomm from
 * comm (the values between them: its other arguments, as the kind's layout
 * lists them), then newcomm's member list. */
static void rec_newcomm(enum tr_kind kind, MPI_Comm comm, const uint64_t *v, size_t nv,
                        MPI_Comm newcomm, uint64_t t0, uint64_t t1)
{
	uint64_t *w = gt_rec_open(kind, 0);
	if (!w)
		return;
	size_t i = put_comm(w, TR_REC_FIRST, comm);
	for (size_t k = 0; k < nv; k++)
		w[i++] = v[k];
	w[i++] = h_comm(newcomm);
	rec_close(w, i, t0, t1);
	put_commdef(newcomm, t1);
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
	uint64_t t0 = now();
	int ret = PMPI_Comm_split(comm, color, key, newcomm);
	uint64_t v[] = { s64(color == MPI_UNDEFINED ? -1 : color), s64(key) };
	rec_newcomm(TR_COMM_SPLIT, comm, v, 2, *newcomm, t0, now());
	return ret;
}

int MPI_Comm_split_type(MPI_Comm comm, int type, int key, MPI_Info info, MPI_Comm *newcomm)
{
	uint64_t t0 = now();
	int ret = PMPI_Comm_split_type(comm, type, key, info, newcomm);
	uint64_t v[] = { s64(type), s64(key), h_info(info) };
	rec_newcomm(TR_COMM_SPLIT_TYPE, comm, v, 3, *newcomm, t0, now());
	return ret;
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
	uint64_t t0 = now();
	int ret = PMPI_Comm_dup(comm, newcomm);
	rec_newcomm(TR_COMM_DUP, comm, NULL, 0, *newcomm, t0, now());
	return ret;
}

int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
	uint64_t t0 = now();
	int ret = PMPI_Comm_create(comm, group, newcomm);
	uint64_t v[] = { h_group(group) };
	rec_newcomm(TR_COMM_CREATE, comm, v, 1, *newcomm, t0, now());
	return ret;
}

int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
	uint64_t t0 = now();
	int ret = PMPI_Comm_create_group(comm, group, tag, newcomm);
	uint64_t v[] = { h_group(group), s64(tag) };
	rec_newcomm(TR_COMM_CREATE_GROUP, comm, v, 2, *newcomm, t0, now());
	return ret;
}

int MPI_Cart_create(MPI_Comm comm, int ndims, const int dims[], const int periods[],
                    int reorder, MPI_Comm *newcomm)
{
	uint64_t t0 = now();
	int ret = PMPI_Cart_create(comm, ndims, dims, periods, reorder, newcomm);
	uint64_t v[] = { s64(ndims), s64(reorder) };
	rec_newcomm(TR_CART_CREATE, comm, v, 2, *newcomm, t0, now());
	return ret;
}

int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm)
{
	uint64_t t0 = now();
	int ret = PMPI_Cart_sub(comm, remain_dims, newcomm);
	rec_newcomm(TR_CART_SUB, comm, NULL, 0, *newcomm, t0, now());
	return ret;
}

int MPI_Comm_free(MPI_Comm *comm)
{
	uint64_t h = h_comm(*comm), t0 = now();
	memset(comm_cache, 0, sizeof comm_cache);
	int ret = PMPI_Comm_free(comm);
	rec_req(TR_COMM_FREE, h, t0, now());
	return ret;
}

int MPI_Comm_rank(MPI_Comm comm, int *rank)
{
	uint64_t t0 = now();
	int ret = PMPI_Comm_rank(comm, rank);
	uint64_t t1 = now();
	uint64_t *w = gt_rec_open(TR_COMM_RANK, 0);
	if (w) {
		size_t i = put_comm(w, TR_REC_FIRST, comm);
		w[i++] = s64(*rank);
		rec_close(w, i, t0, t1);
	}
	return ret;
}

int MPI_Comm_size(MPI_Comm comm, int *size)
{
	uint64_t t0 = now();
	int ret = PMPI_Comm_size(comm, size);
	uint64_t t1 = now();
	uint64_t *w = gt_rec_open(TR_COMM_SIZE, 0);
	if (w) {
		size_t i = put_comm(w, TR_REC_FIRST, comm);
		w[i++] = s64(*size);
		rec_close(w, i, t0, t1);
	}
	return ret;
}

/* Not recorded: they only keep the datatype cache right. */
int MPI_Type_free(MPI_Datatype *t)
{
	memset(dt_cache, 0, sizeof dt_cache);
	return PMPI_Type_free(t);
}

int MPI_Type_commit(MPI_Datatype *t)
{
	memset(dt_cache, 0, sizeof dt_cache);
	return PMPI_Type_commit(t);
}
