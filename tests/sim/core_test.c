/* core_test.c: the closed forms of SPEC section 7, exactly, at many P and
 * parameter sets; rounding of fractional G and O; renumbering of seqs. */
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

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	check_rates();
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
	check_renumber(BINOMIAL, 1024, 3000);
	check_renumber(DISSEMINATION, 512, 20000);
	check_renumber(DISSEMINATION, 64, 1000);
	rmdir(tmpdir);
	return check_done();
}
