/* trace2goal_account.c: where a traced run's time went
 * (trace2goal_account.h). */
#include "trace2goal_account.h"

#include "kmap.h"
#include "util.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct rank_acct {
	int64_t traced, mpi, tracer;   /* ns */
	uint64_t calls;
	uint32_t per_call;             /* the trace's ns per call (0: not given) */
};

struct call_acct {
	uint64_t calls;
	int64_t ns;
};

struct t2g_account {
	size_t nranks;
	struct rank_acct *rank;
	util_kmap names;               /* call name -> index in call[] */
	struct call_acct *call;
	size_t ncall, callcap;
};

static int64_t ns_of(double us)
{
	return (int64_t)llround(us * 1000.0);
}

static int is_init(const struct tr_call *c)
{
	return c->kind == TR_INIT || c->kind == TR_INIT_THREAD;
}

/* Adds a call of name (len bytes) that took ns to the by-call sums. */
static int add_call(struct t2g_account *a, const char *name, size_t len, int64_t ns)
{
	uint32_t *k = util_kmap_get(&a->names, name, len);
	if (!k) {
		if (util_grow((void **)&a->call, &a->callcap, a->ncall + 1, sizeof *a->call)
		    || util_kmap_put(&a->names, name, len, (uint32_t)a->ncall))
			return -1;
		a->call[a->ncall++] = (struct call_acct){ 0, 0 };
		k = util_kmap_get(&a->names, name, len);
	}
	a->call[*k].calls++;
	a->call[*k].ns += ns;
	return 0;
}

/* Accounts for trace t into *ra and the by-call sums: its window is from
 * the end of its first MPI_Init to the start of the first MPI_Finalize
 * after it (without them: from the first call's start, to the last call's
 * end); the calls strictly inside are counted, and the flushes before any
 * call up to the Finalize. */
static int account_rank(struct t2g_account *a, const struct tr_trace *t, struct rank_acct *ra)
{
	size_t i0 = t->ncalls, i1 = t->ncalls, first = t->ncalls, last = 0;
	for (size_t i = 0; i < t->ncalls; i++) {
		const struct tr_call *c = &t->calls[i];
		if (c->kind == TR_COMMDEF)
			continue;
		if (first == t->ncalls)
			first = i;
		last = i;
		if (i0 == t->ncalls && is_init(c))
			i0 = i;
		else if (i0 < t->ncalls && i1 == t->ncalls && c->kind == TR_FINALIZE)
			i1 = i;
	}
	memset(ra, 0, sizeof *ra);
	ra->per_call = t->tracer_ns;
	if (first == t->ncalls)
		return 0;   /* no call */
	size_t lo = i0 < t->ncalls ? i0 + 1 : first, hi = i1 < t->ncalls ? i1 : last + 1;
	int64_t start = i0 < t->ncalls ? ns_of(t->calls[i0].end) : ns_of(t->calls[first].start);
	int64_t finish = i1 < t->ncalls ? ns_of(t->calls[i1].start) : ns_of(t->calls[last].end);
	int64_t flush = 0;
	for (size_t i = lo; i < hi; i++) {
		const struct tr_call *c = &t->calls[i];
		if (c->kind == TR_COMMDEF)
			continue;
		int64_t ns = ns_of(c->end) - ns_of(c->start);
		const char *name = c->kind == TR_OTHER ? t->names + c->name
		                                       : tr_kind_name((enum tr_kind)c->kind);
		if (add_call(a, name, strlen(name), ns))
			return -1;
		ra->mpi += ns;
		ra->calls++;
		flush += ns_of(c->paused);
	}
	if (i1 < t->ncalls)
		flush += ns_of(t->calls[i1].paused);
	ra->traced = finish - start;
	ra->tracer = flush + (int64_t)(ra->calls * ra->per_call);
	return 0;
}

struct t2g_account *t2g_account_run(const struct t2g_source *src, const struct tr_options *to,
                                    char *err, size_t errlen)
{
	struct t2g_account *a = calloc(1, sizeof *a);
	if (a)
		a->rank = calloc(src->nranks ? src->nranks : 1, sizeof *a->rank);
	if (!a || !a->rank) {
		snprintf(err, errlen, "error: out of memory");
		t2g_account_free(a);
		return NULL;
	}
	a->nranks = src->nranks;
	for (size_t r = 0; r < src->nranks; r++) {
		struct tr_trace t;
		const char *path = "";
		memset(&t, 0, sizeof t);
		if (src->read(src->ctx, r, to, &t, &path, err, errlen)) {
			t2g_account_free(a);
			return NULL;
		}
		int rc = account_rank(a, &t, &a->rank[r]);
		tr_free(&t);
		if (rc) {
			snprintf(err, errlen, "error: out of memory");
			t2g_account_free(a);
			return NULL;
		}
	}
	return a;
}

/* The by-call sums in print order: most time first, ties by name. */
static const struct t2g_account *sort_ctx;
static int cmp_call(const void *x, const void *y)
{
	const struct t2g_account *a = sort_ctx;
	uint32_t i = *(const uint32_t *)x, j = *(const uint32_t *)y;
	if (a->call[i].ns != a->call[j].ns)
		return a->call[i].ns > a->call[j].ns ? -1 : 1;
	const util_kent *ei = &a->names.ent[i], *ej = &a->names.ent[j];
	size_t n = ei->len < ej->len ? ei->len : ej->len;
	int c = memcmp(a->names.arena + ei->off, a->names.arena + ej->off, n);
	return c ? c : (ei->len > ej->len) - (ei->len < ej->len);
}

#define SOME_UNKNOWN " (not recorded by some ranks: flushes only there)"

static void print_share(FILE *f, int64_t x, int64_t whole)
{
	if (whole > 0)
		fprintf(f, " %13.1f%%", 100.0 * (double)x / (double)whole);
	else
		fprintf(f, " %14s", "-");
}

void t2g_account_print(FILE *f, const struct t2g_account *a)
{
	struct rank_acct all = { 0, 0, 0, 0, 0 };
	uint32_t lo = UINT32_MAX, hi = 0;
	size_t unknown = 0;
	fprintf(f, "%-16s %14s %14s %14s %14s\n", "account (ns)", "traced", "computation", "MPI",
	        "tracer");
	for (size_t r = 0; r < a->nranks; r++) {
		const struct rank_acct *ra = &a->rank[r];
		char name[32];
		snprintf(name, sizeof name, "rank %zu", r);
		fprintf(f, "%-16s %14" PRId64 " %14" PRId64 " %14" PRId64 " %14" PRId64 "\n", name,
		        ra->traced, ra->traced - ra->mpi - ra->tracer, ra->mpi, ra->tracer);
		all.traced += ra->traced;
		all.mpi += ra->mpi;
		all.tracer += ra->tracer;
		all.calls += ra->calls;
		if (ra->per_call == 0) {
			unknown++;
		} else {
			lo = ra->per_call < lo ? ra->per_call : lo;
			hi = ra->per_call > hi ? ra->per_call : hi;
		}
	}
	int64_t comp = all.traced - all.mpi - all.tracer;
	fprintf(f, "%-16s %14" PRId64 " %14" PRId64 " %14" PRId64 " %14" PRId64 "\n", "all ranks",
	        all.traced, comp, all.mpi, all.tracer);
	fprintf(f, "%-16s", "share");
	print_share(f, all.traced, all.traced);
	print_share(f, comp, all.traced);
	print_share(f, all.mpi, all.traced);
	print_share(f, all.tracer, all.traced);
	int w = 14;   /* the names' column: the longest name */
	for (size_t k = 0; k < a->ncall; k++)
		if (a->names.ent[k].len > (size_t)w)
			w = (int)a->names.ent[k].len;
	fprintf(f, "\n%-*s %14s %14s %14s\n", w + 2, "MPI calls", "calls", "time", "of MPI");
	uint32_t *order = malloc((a->ncall ? a->ncall : 1) * sizeof *order);
	for (uint32_t i = 0; order && i < a->ncall; i++)
		order[i] = i;
	sort_ctx = a;
	if (order)
		qsort(order, a->ncall, sizeof *order, cmp_call);
	for (size_t k = 0; order && k < a->ncall; k++) {
		const util_kent *e = &a->names.ent[order[k]];
		const struct call_acct *c = &a->call[order[k]];
		fprintf(f, "  %-*.*s %14" PRIu64 " %14" PRId64, w, (int)e->len,
		        (const char *)a->names.arena + e->off, c->calls, c->ns);
		print_share(f, c->ns, all.mpi);
		fputc('\n', f);
	}
	free(order);
	if (unknown == a->nranks)
		fprintf(f, "tracer per call  not recorded by these traces (the tracer column: "
		        "flushes only)\n");
	else if (lo == hi)
		fprintf(f, "tracer per call  %" PRIu32 " ns%s\n", lo, unknown ? SOME_UNKNOWN : "");
	else
		fprintf(f, "tracer per call  %" PRIu32 " to %" PRIu32 " ns%s\n", lo, hi,
		        unknown ? SOME_UNKNOWN : "");
}

void t2g_account_free(struct t2g_account *a)
{
	if (!a)
		return;
	util_kmap_free(&a->names);
	free(a->call);
	free(a->rank);
	free(a);
}
