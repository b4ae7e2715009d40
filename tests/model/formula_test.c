/* formula_test.c: every closed form of model/model_formula.c against the
 * simulator: exact forms equal the simulated time everywhere in their
 * domain, bounds hold there, over many P and parameter sets. */
#include "check.h"
#include "model_formula.h"
#include "model_sim.h"

#include <stdlib.h>

/* One parameter set: L o g G O S (G and O as decimal strings), size s,
 * fan-in n. */
typedef struct pcase {
	const char *name;
	uint64_t L, o, g;
	const char *G, *O;
	uint64_t S, s, n;
} pcase;

static const pcase cases[] = {
	{ "defaults s=1", 2500, 1500, 1000, "6", "0", 65535, 1, 2 },
	{ "defaults s=1000", 2500, 1500, 1000, "6", "0", 65535, 1000, 4 },
	{ "g dominates s=1", 1000, 200, 3000, "0.5", "0", 65535, 1, 2 },
	{ "g dominates s=4096", 1000, 200, 3000, "0.5", "0", 65535, 4096, 2 },
	{ "O > 0 s=1", 500, 800, 500, "2", "3.5", 65535, 1, 2 },
	{ "O > 0 s=1000", 500, 800, 500, "2", "3.5", 65535, 1000, 5 },
	{ "O > G s=300", 3000, 1000, 1200, "1.25", "4", 65535, 300, 2 },
	{ "InfiniBand s=1024", 5960, 4720, 5140, "0.73", "0", 65535, 1024, 4 },
	{ "Gigabit Ethernet s=1", 45740, 3460, 915, "8.49", "0", 65535, 1, 2 },
	{ "Gigabit Ethernet s=1024", 45740, 3460, 915, "8.49", "0", 65535, 1024, 8 },
	{ "mixed terms s=1000", 1000, 3000, 100, "2", "1", 65535, 1000, 3 },
	{ "huge g s=1", 100, 10, 10000, "0", "0", 65535, 1, 2 },
	{ "no per-byte cost s=64", 2000, 700, 300, "0", "0", 65535, 64, 3 },
	{ "rendezvous s=2000", 2500, 1500, 1000, "6", "0", 1000, 2000, 2 },
	{ "rendezvous s=100000", 2500, 1500, 1000, "6", "0.5", 65535, 100000, 2 },
	{ "rendezvous s=1 S=0", 2500, 1500, 1000, "6", "0", 0, 1, 2 },
};
#define NPLAIN (sizeof cases / sizeof cases[0])

/* Strided messages (docs/semantics.md section 10): a parameter set above
 * (base), the messages' stride and its middleware costs.  The LogGOPS
 * forms are outside their domains here; the log_3 P forms are checked. */
typedef struct mwcase {
	size_t base;
	uint64_t stride, o_mw;
	const char *O_mw;
	uint64_t l_mw;
	const char *L_mw;
} mwcase;

static const mwcase mwcases[] = {
	{ 1, 64, 300, "0.5", 200, "0.25" },    /* defaults s=1000 */
	{ 3, 8, 100, "0.05", 5000, "1" },      /* g dominates s=4096: lm large */
	{ 5, 1024, 0, "2", 0, "0" },           /* O > 0 s=1000: packing per byte only */
	{ 7, 512, 2000, "1.5", 1000, "0.5" },  /* InfiniBand s=1024 */
	{ 10, 16, 50, "0", 20000, "0" },       /* mixed terms s=1000: lm above the root's step */
	{ 11, 4, 0, "0", 0, "0" },             /* huge g s=1, no cost at all */
	{ 13, 100, 400, "0.125", 300, "0.5" }, /* rendezvous s=2000 */
};
#define NMW (sizeof mwcases / sizeof mwcases[0])
#define NCASES (NPLAIN + NMW)

/* The ranks tried: every P from 2 to 17, and a few larger ones. */
#define NSMALL 16
static const uint64_t extra_P[] = { 31, 32, 63, 64, 100, 127, 128 };

typedef struct stat {
	uint64_t in_domain, exact, failures, first_P, first_sim, first_val;
} stat;

int main(void)
{
	size_t nf = model_nformulas();
	stat *st = calloc(nf * NCASES, sizeof *st);
	uint64_t *total_in = calloc(nf, sizeof *total_in), *total_ex = calloc(nf, sizeof *total_ex);
	model_sim ms;
	char err[1024];

	if (!st || !total_in || !total_ex || model_sim_open(&ms, err, sizeof err)) {
		printf("not ok - setup: %s\n", st && total_in && total_ex ? err : "out of memory");
		return 1;
	}
	static char names[NMW][128];
	for (size_t ci = 0; ci < NCASES; ci++) {
		const mwcase *mc = ci >= NPLAIN ? &mwcases[ci - NPLAIN] : NULL;
		const pcase *pc = mc ? &cases[mc->base] : &cases[ci];
		sim_params prm;
		sim_stride mst;
		sim_params_default(&prm);
		if (mc) {
			mst.stride = mc->stride;
			mst.o_mw = mc->o_mw;
			mst.l_mw = mc->l_mw;
			if (num_dec_parse(mc->O_mw, strlen(mc->O_mw), NUM_FRAC_MAX, &mst.O_mw) != NUM_OK ||
			    num_dec_parse(mc->L_mw, strlen(mc->L_mw), NUM_FRAC_MAX, &mst.L_mw) != NUM_OK) {
				printf("not ok - strided case %zu: bad rates\n", ci - NPLAIN);
				return 1;
			}
			prm.nstrides = 1;
			prm.strides = &mst;
			snprintf(names[ci - NPLAIN], sizeof names[0], "%s, stride %" PRIu64 " o_mw=%" PRIu64
			         " O_mw=%s l_mw=%" PRIu64 " L_mw=%s", pc->name, mc->stride, mc->o_mw,
			         mc->O_mw, mc->l_mw, mc->L_mw);
		}
		prm.L = pc->L;
		prm.o = pc->o;
		prm.g = pc->g;
		prm.S = pc->S;
		if (num_dec_parse(pc->G, strlen(pc->G), NUM_FRAC_MAX, &prm.G) != NUM_OK ||
		    num_dec_parse(pc->O, strlen(pc->O), NUM_FRAC_MAX, &prm.O) != NUM_OK) {
			printf("not ok - case %s: bad rates\n", pc->name);
			return 1;
		}
		for (size_t pi = 0; pi < NSMALL + sizeof extra_P / sizeof extra_P[0]; pi++) {
			uint64_t P = pi < NSMALL ? pi + 2 : extra_P[pi - NSMALL];
			const char *done[64];
			size_t ndone = 0;
			/* Simulate each pattern once and check all its formulas. */
			for (size_t k = 0; k < nf; k++) {
				const model_formula *f = model_formula_at(k);
				sg_params sp;
				uint64_t t;
				model_ctx c;
				int seen = 0;
				for (size_t d = 0; d < ndone; d++)
					if (strcmp(done[d], f->pattern) == 0)
						seen = 1;
				if (seen)
					continue;
				done[ndone++] = f->pattern;
				sg_params_default(&sp);
				sp.nranks = P;
				sp.size = pc->s;
				sp.fanin = pc->n;
				if (mc) {
					sp.stride = (uint32_t)mc->stride;
					sp.block = mc->stride < 8 ? (uint32_t)mc->stride : 8;
				}
				if (model_simulate(&ms, f->pattern, &sp, &prm, &t, err, sizeof err)) {
					printf("not ok - simulate %s P=%" PRIu64 " (%s): %s\n", f->pattern, P,
					       pc->name, err);
					check_failures++;
					continue;
				}
				model_ctx_set(&c, P, pc->s, pc->n, &prm);
				if (mc)
					model_ctx_set_mw(&c, &mst);
				for (size_t j = k; j < nf; j++) {
					const model_formula *h = model_formula_at(j);
					stat *s = &st[j * NCASES + ci];
					uint64_t v;
					int bad;
					if (strcmp(h->pattern, f->pattern) != 0 || !model_in_domain(h, &c))
						continue;
					v = h->eval(&c);
					s->in_domain++;
					if (model_is_exact_at(h, &c)) {
						s->exact++;
						bad = v != t;
					} else {
						bad = (h->kind == MODEL_LOWER && v > t) ||
						      (h->kind == MODEL_UPPER && v < t);
					}
					if (bad && !s->failures++) {
						s->first_P = P;
						s->first_sim = t;
						s->first_val = v;
					}
				}
			}
		}
	}
	model_sim_close(&ms);

	for (size_t k = 0; k < nf; k++) {
		const model_formula *f = model_formula_at(k);
		for (size_t ci = 0; ci < NCASES; ci++) {
			const stat *s = &st[k * NCASES + ci];
			total_in[k] += s->in_domain;
			total_ex[k] += s->exact;
			if (!s->in_domain || f->kind == MODEL_APPROX)
				continue;
			printf("%s - %s %s (%s) on %s: %" PRIu64 " P in its domain, %" PRIu64 " exact\n",
			       s->failures ? "not ok" : "ok", f->pattern, f->name,
			       model_kind_name(f->kind), ci < NPLAIN ? cases[ci].name : names[ci - NPLAIN],
			       s->in_domain, s->exact);
			if (s->failures) {
				printf("    %" PRIu64 " failures; first at P=%" PRIu64 ": simulated %" PRIu64
				       ", formula %" PRIu64 "\n", s->failures, s->first_P, s->first_sim,
				       s->first_val);
				check_failures++;
			}
		}
		/* A formula never in its domain (or never where it claims to be
		 * exact) would be checked by nothing. */
		{
			int good = total_in[k] >= 20 &&
			           (!(f->kind == MODEL_EXACT || f->exact) || total_ex[k] >= 5);
			printf("%s - %s %s checked in %" PRIu64 " cases, %" PRIu64 " where exact\n",
			       good ? "ok" : "not ok", f->pattern, f->name, total_in[k], total_ex[k]);
			if (!good)
				check_failures++;
		}
	}
	free(st);
	free(total_in);
	free(total_ex);
	return check_done();
}
