/* core_test.c: the closed forms of SPEC section 7, exactly, at many P and
 * parameter sets; an incast where many events wait for one CPU or NIC, with
 * zero-length activities; rounding of fractional G and O; renumbering of
 * seqs, also with events waiting; the features that cannot be combined. */
#include "check.h"
#include "goal.h"
#include "sim.h"
#include "simgen.h"

#include <stdlib.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/sim_core_test.XXXXXX";

typedef struct pset {
	const char *name;
	uint64_t L, o, g;
	const char *G, *O;
	uint64_t size;
} pset;

/* Regimes: defaults; G dominates; o dominates; O dominates (sO > L);
 * fractional G and O; g dominates (scatter only). */
static const pset psets[] = {
	{ "default", 2500, 1500, 1000, "6", "0", 1 },
	{ "G-dominates", 2500, 1500, 1000, "6", "0", 1000 },
	{ "o-dominates", 100, 5000, 200, "0", "0", 8 },
	{ "O-dominates", 500, 100, 100, "1", "10", 1000 },
	{ "fractional", 2500, 1500, 1000, "0.4", "0.25", 1001 },
	{ "zero-bytes", 2500, 1500, 1000, "6", "3", 0 },
	{ "g-dominates", 10, 10, 5000, "0", "0", 1 },
};
#define NPSETS (sizeof psets / sizeof psets[0])

static void params_of(const pset *ps, sim_params *p)
{
	sim_params_default(p);
	p->L = ps->L;
	p->o = ps->o;
	p->g = ps->g;
	if (num_dec_parse(ps->G, strlen(ps->G), NUM_FRAC_MAX, &p->G) != NUM_OK ||
	    num_dec_parse(ps->O, strlen(ps->O), NUM_FRAC_MAX, &p->O) != NUM_OK)
		abort();
}

/* Simulate path; returns the run's time (UINT64_MAX on any failure). */
static uint64_t simulate(const char *path, const sim_params *p, uint64_t seq_limit,
                         sim_result *res, uint64_t **finish)
{
	goal_sched s;
	char err[512];
	sim_options so = { .seq_limit = seq_limit };
	if (goal_sched_open(&s, path, err, sizeof err)) {
		printf("    %s\n", err);
		return UINT64_MAX;
	}
	sim *m = sim_create(&s, p, &so, err, sizeof err);
	if (!m || sim_run(m, res, err, sizeof err)) {
		printf("    %s\n", err);
		return UINT64_MAX;
	}
	if (finish) {
		*finish = malloc(s.nranks * sizeof **finish);
		for (uint64_t r = 0; r < s.nranks; r++)
			(*finish)[r] = sim_rank_finish(m, r);
	}
	sim_destroy(m);
	goal_sched_close(&s);
	return res->complete ? res->time : UINT64_MAX;
}

static uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }

typedef enum { BINOMIAL, DISSEMINATION, SCATTER, SCATTER_RDV } coll;
static const char *const coll_name[] = { "binomial", "dissemination", "scatter",
                                         "scatter-rendezvous" };

static uint64_t closed_form(coll c, const sim_params *p, uint64_t P, uint64_t size)
{
	uint64_t sO = sim_rate_bytes(p->O, size), sG = sim_rate_bytes(p->G, size);
	uint64_t lg = 0;
	while ((1ull << lg) < P)
		lg++;
	switch (c) {
	case BINOMIAL:
		return (2 * p->o + p->L + max64(sO, sG)) * lg;
	case DISSEMINATION: {
		uint64_t delta = sO > p->L ? sO - p->L : 0;
		return (delta + 2 * p->o + p->L + max64(sO, sG)) * lg;
	}
	case SCATTER:
		return 2 * p->o + p->L + max64(sO, sG) + (P - 2) * max64(p->o + sO, p->g + sG);
	case SCATTER_RDV:
		/* Every receive is posted at 0, so each rendezvous is matched when
		 * its message arrives; holding rank 0's CPU and NIC until then
		 * changes nothing, as they are busy with the next sends (queued
		 * earlier, lower seq): the eager form. */
		return 2 * p->o + p->L + max64(sO, sG) + (P - 2) * max64(p->o + sO, p->g + sG);
	}
	return 0;
}

/* Does the closed form apply to this collective and regime? */
static int applies(coll c, const pset *ps, const sim_params *p)
{
	uint64_t sO = sim_rate_bytes(p->O, ps->size), sG = sim_rate_bytes(p->G, ps->size);
	if (c == SCATTER || c == SCATTER_RDV)
		return 1;
	/* g must not dominate: a rank's next send is not held by its NIC. */
	return p->g + sG <= 2 * p->o + p->L + max64(sO, sG) && p->g <= 2 * p->o + p->L;
}

static void check_coll(coll c, uint64_t P, unsigned first_pset, unsigned npsets)
{
	char path[256], err[512];
	snprintf(path, sizeof path, "%s/%s-%llu.bin", tmpdir, coll_name[c], (unsigned long long)P);
	for (unsigned i = first_pset; i < first_pset + npsets && i < NPSETS; i++) {
		const pset *ps = &psets[i];
		sim_params p;
		sim_result res;
		params_of(ps, &p);
		if (!applies(c, ps, &p))
			continue;
		if (c == SCATTER_RDV) {
			if (ps->size == 0)
				continue;
			p.S = ps->size - 1;  /* every message is a rendezvous */
		}
		int rc = c == BINOMIAL ? simgen_binomial(path, P, ps->size, err, sizeof err)
		       : c == DISSEMINATION ? simgen_dissemination(path, P, ps->size, err, sizeof err)
		       : simgen_scatter(path, P, ps->size, err, sizeof err);
		if (rc) {
			printf("not ok - generate %s: %s\n", path, err);
			check_failures++;
			return;
		}
		uint64_t want = closed_form(c, &p, P, ps->size);
		uint64_t got = simulate(path, &p, 0, &res, NULL);
		int ok = got == want;
		printf("%s - %s P=%llu %s: T = %llu\n", ok ? "ok" : "not ok", coll_name[c],
		       (unsigned long long)P, ps->name, (unsigned long long)want);
		if (!ok) {
			printf("    got %llu\n", (unsigned long long)got);
			check_failures++;
		}
	}
	unlink(path);
}

static void check_rates(void)
{
	sim_rate r;
	char buf[64];
	CHECK(num_dec_parse("0.4", 3, NUM_FRAC_MAX, &r) == NUM_OK);
	CHECK_EQ_U64(sim_rate_bytes(r, 0), 0);
	CHECK_EQ_U64(sim_rate_bytes(r, 1), 0);
	CHECK_EQ_U64(sim_rate_bytes(r, 2), 0);       /* 0.4 -> 0 */
	CHECK_EQ_U64(sim_rate_bytes(r, 3), 1);       /* 0.8 -> 1 */
	CHECK_EQ_U64(sim_rate_bytes(r, 1001), 400);  /* 400.0 */
	CHECK(num_dec_parse("2.5", 3, NUM_FRAC_MAX, &r) == NUM_OK);
	CHECK_EQ_U64(sim_rate_bytes(r, 2), 3);       /* 2.5 -> 3 (half up) */
	CHECK_EQ_U64(sim_rate_bytes(r, 4), 8);       /* 7.5 -> 8 */
	CHECK(num_dec_parse("0.000000001", 11, NUM_FRAC_MAX, &r) == NUM_OK);
	CHECK_EQ_U64(sim_rate_bytes(r, 500000001), 1); /* 0.5 -> 1 */
	CHECK_EQ_U64(sim_rate_bytes(r, 500000000), 0); /* 0.499999999 -> 0 */
	CHECK(num_dec_parse("6", 1, NUM_FRAC_MAX, &r) == NUM_OK);
	CHECK_EQ_U64(sim_rate_bytes(r, UINT64_MAX), UINT64_MAX); /* saturates */
	CHECK(num_dec_parse("1.50", 4, NUM_FRAC_MAX, &r) == NUM_OK);
	num_dec_format(r, buf, sizeof buf);
	CHECK_STR(buf, "1.5");
	CHECK(num_dec_parse("0.05", 4, NUM_FRAC_MAX, &r) == NUM_OK);
	num_dec_format(r, buf, sizeof buf);
	CHECK_STR(buf, "0.05");
	CHECK(num_dec_parse("3.0", 3, NUM_FRAC_MAX, &r) == NUM_OK);
	num_dec_format(r, buf, sizeof buf);
	CHECK_STR(buf, "3");
	CHECK(num_dec_parse("", 0, NUM_FRAC_MAX, &r) != NUM_OK);
	CHECK(num_dec_parse(".", 1, NUM_FRAC_MAX, &r) != NUM_OK);
	CHECK(num_dec_parse("-1", 2, NUM_FRAC_MAX, &r) != NUM_OK);
	CHECK(num_dec_parse("1e3", 3, NUM_FRAC_MAX, &r) != NUM_OK);
	CHECK(num_dec_parse("0.1234567891", 12, NUM_FRAC_MAX, &r) != NUM_OK);
	CHECK(num_dec_parse("4294967296", 10, NUM_FRAC_MAX, &r) != NUM_OK);
}

/* Renumbering the queue (tiny seq space) gives the same result, rank by rank. */
static void check_renumber(coll c, uint64_t P, uint64_t limit)
{
	char path[256], err[512];
	sim_params p;
	sim_result a, b;
	uint64_t *fa = NULL, *fb = NULL;
	snprintf(path, sizeof path, "%s/renumber.bin", tmpdir);
	params_of(&psets[1], &p);
	int rc = c == BINOMIAL ? simgen_binomial(path, P, 1000, err, sizeof err)
	       : simgen_dissemination(path, P, 1000, err, sizeof err);
	CHECK(rc == 0);
	uint64_t ta = simulate(path, &p, 0, &a, &fa);
	uint64_t tb = simulate(path, &p, limit, &b, &fb);
	CHECK_EQ_U64(ta, closed_form(c, &p, P, 1000));
	CHECK_EQ_U64(ta, tb);
	CHECK_EQ_U64(a.events, b.events);
	CHECK(fa && fb && memcmp(fa, fb, P * sizeof *fa) == 0);
	free(fa);
	free(fb);
	unlink(path);
}

/* ---- Waiting: an incast (simgen_incast) ----------------------------------
 * Every rank r != 0 sends k messages to rank 0, then does k calcs of 0;
 * rank 0 computes for d ns, then does k0 calcs of 0, and receives all
 * M = (P-1)k messages.  The messages wait for rank 0's CPU or receive NIC
 * (the sends for their CPU or NIC, the calcs for their CPU); rank 0 handles
 * them back to back from max(d, o + L), one every h = max(o + max(sO, sG),
 * g + sG), and no sender is later:
 *   T = max(d, o + L) + (M - 1) h + o + max(sO, sG).
 * The parameter sets make one kind of activity take no time (o = 0: the
 * CPU work; g = 0: the NICs; both), so that waiters become due at the time
 * they are woken. */
static const pset wait_psets[] = {
	{ "default", 2500, 1500, 1000, "6", "0", 8 },
	{ "o=0", 50, 0, 100, "0", "0", 8 },
	{ "g=0", 50, 100, 0, "0", "0", 8 },
	{ "g-dominates", 10, 10, 500, "0", "0", 1 },
	{ "zero-length", 10, 0, 0, "0", "0", 8 },
	{ "fractional", 2500, 1500, 1000, "0.4", "0.25", 1001 },
};
#define NWAIT (sizeof wait_psets / sizeof wait_psets[0])

static uint64_t incast_form(const sim_params *p, uint64_t P, uint64_t k, uint64_t d, uint64_t size)
{
	uint64_t sO = sim_rate_bytes(p->O, size), sG = sim_rate_bytes(p->G, size);
	uint64_t h = max64(p->o + max64(sO, sG), p->g + sG);
	return max64(d, p->o + p->L) + ((P - 1) * k - 1) * h + p->o + max64(sO, sG);
}

static void check_incast(uint64_t P, uint64_t k, uint64_t k0, uint64_t d)
{
	char path[256], err[512];
	snprintf(path, sizeof path, "%s/incast.bin", tmpdir);
	for (unsigned i = 0; i < NWAIT; i++) {
		const pset *ps = &wait_psets[i];
		sim_params p;
		sim_result res;
		params_of(ps, &p);
		if (simgen_incast(path, P, k, k0, d, ps->size, err, sizeof err)) {
			printf("not ok - generate %s: %s\n", path, err);
			check_failures++;
			return;
		}
		uint64_t want = incast_form(&p, P, k, d, ps->size);
		uint64_t got = simulate(path, &p, 0, &res, NULL);
		uint64_t events = 1 + k0 + 4 * (P - 1) * k;
		int ok = got == want && res.events == events;
		printf("%s - incast P=%llu k=%llu k0=%llu d=%llu %s: T = %llu, %llu events\n",
		       ok ? "ok" : "not ok", (unsigned long long)P, (unsigned long long)k,
		       (unsigned long long)k0, (unsigned long long)d, ps->name,
		       (unsigned long long)want, (unsigned long long)events);
		if (!ok) {
			printf("    got %llu, %llu events\n", (unsigned long long)got,
			       (unsigned long long)res.events);
			check_failures++;
		}
	}
	unlink(path);
}

/* One run of path with seq_limit, its timeline and critical path kept (in
 * 5-byte words when wide): 0, or -1 (reported). */
typedef struct run_out {
	sim_result res;
	uint64_t *finish;
	char *tl;
	size_t tl_len;
	sim_path path;
} run_out;

static int run_full(const char *path, const sim_params *p, uint64_t seq_limit, int wide,
                    run_out *o)
{
	goal_sched s;
	char err[512];
	memset(o, 0, sizeof *o);
	FILE *tl = open_memstream(&o->tl, &o->tl_len);
	sim_options so = { .timeline = tl, .seq_limit = seq_limit, .critical = 1 + !!wide };
	if (!tl || goal_sched_open(&s, path, err, sizeof err)) {
		printf("    cannot open %s\n", path);
		return -1;
	}
	sim *m = sim_create(&s, p, &so, err, sizeof err);
	int rc = !m || sim_run(m, &o->res, err, sizeof err)
	         || sim_critical_path(m, &o->res, &o->path, err, sizeof err);
	if (rc)
		printf("    %s\n", err);
	else {
		o->finish = malloc(s.nranks * sizeof *o->finish);
		for (uint64_t r = 0; r < s.nranks; r++)
			o->finish[r] = sim_rank_finish(m, r);
	}
	sim_destroy(m);
	goal_sched_close(&s);
	fclose(tl);
	return rc ? -1 : 0;
}

static void run_free(run_out *o)
{
	free(o->finish);
	free(o->tl);
	sim_path_free(&o->path);
}

/* Renumbering while events wait in lists (and wake nodes are queued),
 * every few seqs (extra: how many seqs above those of the roots and of the
 * messages sent at time 0, which all get numbers before the first batch):
 * the same finishing times, events, timeline and critical path as without. */
static void check_renumber_waiting(uint64_t P, uint64_t k, unsigned pi, uint64_t extra)
{
	char path[256], err[512];
	const pset *ps = &wait_psets[pi];
	sim_params p;
	run_out a, b;
	snprintf(path, sizeof path, "%s/renumber-wait.bin", tmpdir);
	params_of(ps, &p);
	CHECK(simgen_incast(path, P, k, k, 100000, ps->size, err, sizeof err) == 0);
	uint64_t nops = 1 + k + 3 * (P - 1) * k;   /* all roots: seqs from nops on */
	uint64_t slack = (p.o == 0 && p.g == 0 ? (P - 1) * k : P - 1) + extra;
	int ra = run_full(path, &p, 0, 0, &a), rb = run_full(path, &p, nops + slack, 0, &b);
	int same = ra == 0 && rb == 0 && a.res.time == b.res.time && a.res.events == b.res.events
	           && memcmp(a.finish, b.finish, P * sizeof *a.finish) == 0
	           && a.tl_len == b.tl_len && memcmp(a.tl, b.tl, a.tl_len) == 0
	           && a.path.n == b.path.n && a.path.n > 0
	           && memcmp(a.path.link, b.path.link, a.path.n * sizeof *a.path.link) == 0;
	printf("%s - renumbering (seq limit: roots + %llu), incast P=%llu k=%llu %s: same times, timeline "
	       "(%zu bytes) and critical path (%zu links)\n", same ? "ok" : "not ok",
	       (unsigned long long)slack, (unsigned long long)P, (unsigned long long)k, ps->name,
	       a.tl_len, a.path.n);
	if (!same)
		check_failures++;
	CHECK_EQ_U64(a.res.time, incast_form(&p, P, k, 100000, ps->size));
	run_free(&a);
	run_free(&b);
	unlink(path);
}

/* The critical path in 4-byte words (a schedule below 2^28 ops) and in
 * 5-byte ones (larger schedules): the same links.  gen: 0 the incast of
 * check_renumber_waiting with wait_psets[pi], 1 a dissemination of P ranks
 * with psets[pi]. */
static void check_cp_words(int gen, uint64_t P, unsigned pi)
{
	char path[256], err[512];
	const pset *ps = gen ? &psets[pi] : &wait_psets[pi];
	sim_params p;
	run_out a, b;
	snprintf(path, sizeof path, "%s/cp-words.bin", tmpdir);
	params_of(ps, &p);
	CHECK((gen ? simgen_dissemination(path, P, ps->size, err, sizeof err)
	           : simgen_incast(path, P, 3, 3, 100000, ps->size, err, sizeof err)) == 0);
	int ra = run_full(path, &p, 0, 0, &a), rb = run_full(path, &p, 0, 1, &b);
	int same = ra == 0 && rb == 0 && a.res.time == b.res.time && a.path.n == b.path.n
	           && a.path.n > 0
	           && memcmp(a.path.link, b.path.link, a.path.n * sizeof *a.path.link) == 0;
	printf("%s - critical path in 4- and 5-byte words, %s P=%llu %s: the same %zu links\n",
	       same ? "ok" : "not ok", gen ? "dissemination" : "incast", (unsigned long long)P,
	       ps->name, a.path.n);
	if (!same)
		check_failures++;
	run_free(&a);
	run_free(&b);
	unlink(path);
}

/* A network refused beside the critical path, noise or slow ranks, with
 * the exact message; alone it runs. */
static void check_conflicts(void)
{
	char path[256], err[512];
	goal_sched s;
	sim_params p;
	snprintf(path, sizeof path, "%s/conflicts.bin", tmpdir);
	sim_params_default(&p);
	CHECK(simgen_binomial(path, 4, 1, err, sizeof err) == 0);
	CHECK(goal_sched_open(&s, path, err, sizeof err) == 0);
	topo *t = topo_parse("torus:2x2", err, sizeof err);
	CHECK(t != NULL);
	static const uint32_t host[] = { 0, 1, 2, 3 };
	sim_net net = { .topo = t, .host = host, .rule = FLOW_MAXMIN };
	sim_noise *nz = sim_noise_synth("periodic:1000,100", err, sizeof err);
	CHECK(nz != NULL);
	sim_slow slow = { .lo = 0, .hi = 0, .factor = { 2, 1 } };
	sim_perturb pn = { .noise = nz }, ps = { .slow = &slow, .nslow = 1 };
	static const struct { int critical, noise, slow; const char *err; } cases[] = {
		{ 0, 0, 0, "" },
		{ 1, 0, 0, "a network cannot be combined with the critical path" },
		{ 0, 1, 0, "a network cannot be combined with noise" },
		{ 0, 0, 1, "a network cannot be combined with slow ranks" },
		{ 1, 1, 1, "a network cannot be combined with the critical path" },
	};
	for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		sim_options so = { .net = &net, .critical = cases[i].critical,
		                   .perturb = cases[i].slow ? &ps : cases[i].noise ? &pn : NULL };
		err[0] = 0;
		sim *m = sim_create(&s, &p, &so, err, sizeof err);
		CHECK_STR(err, cases[i].err);
		CHECK((m != NULL) == !cases[i].err[0]);
		sim_destroy(m);
	}
	sim_noise_free(nz);
	topo_free(t);
	goal_sched_close(&s);
	unlink(path);
}

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	check_rates();
	check_conflicts();
	for (uint64_t P = 2; P <= 65536; P *= 2) {
		check_coll(BINOMIAL, P, 0, P <= 4096 ? NPSETS : 2);
		check_coll(DISSEMINATION, P, 0, P <= 1024 ? NPSETS : P <= 16384 ? 2 : 1);
	}
	static const uint64_t scatter_p[] = { 2, 3, 5, 17, 100, 1000, 4099 };
	for (unsigned i = 0; i < sizeof scatter_p / sizeof scatter_p[0]; i++)
		check_coll(SCATTER, scatter_p[i], 0, NPSETS);
	for (unsigned i = 0; i < sizeof scatter_p / sizeof scatter_p[0]; i++)
		check_coll(SCATTER_RDV, scatter_p[i], 0, NPSETS);
	/* The published 8M-rank event count scaled down: 3 (P - 1) events. */
	{
		char path[256], err[512];
		sim_params p;
		sim_result res;
		snprintf(path, sizeof path, "%s/events.bin", tmpdir);
		sim_params_default(&p);
		CHECK(simgen_binomial(path, 1u << 12, 1, err, sizeof err) == 0);
		CHECK_EQ_U64(simulate(path, &p, 0, &res, NULL), 12 * (2 * 1500 + 2500));
		CHECK_EQ_U64(res.events, 3 * ((1u << 12) - 1));
		CHECK_EQ_U64(res.messages, (1u << 12) - 1);
		unlink(path);
	}
	/* Waiting: many events for one CPU and NIC, zero-length activities. */
	check_incast(2, 1, 0, 0);
	check_incast(2, 40, 3, 0);
	check_incast(17, 5, 7, 100000);
	check_incast(64, 3, 0, 0);
	check_incast(300, 2, 20, 1000000);
	check_renumber(BINOMIAL, 1024, 3000);
	check_renumber(DISSEMINATION, 512, 20000);
	check_renumber(DISSEMINATION, 64, 1000);
	for (unsigned i = 0; i < NWAIT; i++) {
		check_renumber_waiting(33, 8, i, 8);
		check_renumber_waiting(9, 40, i, 3);
		check_cp_words(0, 17, i);
	}
	for (unsigned i = 0; i < NPSETS; i++)
		check_cp_words(1, 64, i);
	rmdir(tmpdir);
	return check_done();
}
