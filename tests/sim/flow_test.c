/* flow_test.c: max-min fair flows and the simple rule (network/flow.h)
 * against hand-computed shares and end times. */
#include "check.h"
#include "flow.h"

#include <math.h>
#include <stdlib.h>

typedef struct ends {
	uint64_t end[64];
	int moved[64];
} ends;

static void moved(void *ctx, uint32_t id, uint64_t end)
{
	ends *e = ctx;
	e->end[id] = end;
	e->moved[id]++;
}

/* Link l's capacity from the array ctx. */
static double cap_of(void *ctx, uint32_t l)
{
	return ((const double *)ctx)[l];
}

static void reset(ends *e)
{
	for (int i = 0; i < 64; i++)
		e->moved[i] = 0;
}

/* One flow alone: exactly work ns; two on one link: each at half rate. */
static void test_share(void)
{
	double cap[3] = { 1, 1, 1 };
	flow_net *f = flow_net_new(3, cap_of, cap, 4, FLOW_MAXMIN);
	ends e = { 0 };
	uint32_t r0[] = { 0, 1 }, r1[] = { 1, 2 };
	uint32_t a = flow_start(f, 100, 1000, 1.0, r0, 2);
	CHECK(flow_pending(f));
	CHECK(flow_settle(f, 100, moved, &e) == 0);
	CHECK_EQ_U64(e.end[a], 1100);
	CHECK(flow_share(f, a) == 1.0);
	/* A second flow shares link 1 from 300: a has 800 left at half rate. */
	reset(&e);
	uint32_t b = flow_start(f, 300, 1000, 1.0, r1, 2);
	CHECK(flow_settle(f, 300, moved, &e) == 0);
	CHECK_EQ_U64(e.end[a], 1900);
	CHECK_EQ_U64(e.end[b], 2300);
	CHECK(e.moved[a] == 1 && e.moved[b] == 1);
	/* a ends at 1900; b has 1000 - 800 = 200 left, at full rate again. */
	reset(&e);
	flow_finish(f, a, 1900);
	CHECK(flow_settle(f, 1900, moved, &e) == 0);
	CHECK_EQ_U64(e.end[b], 2100);
	flow_finish(f, b, 2100);
	CHECK(flow_settle(f, 2100, moved, &e) == 0);
	/* Link 1 carried both flows' bytes, busy 100..2100, two at once. */
	const flow_link_stat *s = flow_link(f, 1);
	CHECK(s->bytes > 1999.999 && s->bytes < 2000.001);
	CHECK_EQ_U64(s->busy, 2000);
	CHECK_EQ_U64(s->peak, 2);
	CHECK_EQ_U64(flow_link(f, 0)->busy, 1800);
	flow_net_free(f);
}

/* Max-min, not proportional: on links A (cap 1) and B (cap 3), flow x
 * crosses A and B, y crosses A, z crosses B.  A is the bottleneck:
 * x = y = 1/2; z takes the rest of B: 2.5, capped by its full rate 2. */
static void test_maxmin(void)
{
	double cap[2] = { 1, 3 };
	flow_net *f = flow_net_new(2, cap_of, cap, 4, FLOW_MAXMIN);
	ends e = { 0 };
	uint32_t rx[] = { 0, 1 }, ry[] = { 0 }, rz[] = { 1 };
	uint32_t x = flow_start(f, 0, 1000, 4.0, rx, 2);
	uint32_t y = flow_start(f, 0, 1000, 4.0, ry, 1);
	uint32_t z = flow_start(f, 0, 1000, 2.0, rz, 1);
	CHECK(flow_settle(f, 0, moved, &e) == 0);
	CHECK(flow_share(f, x) == 0.125);   /* 0.5 of 4 bytes/ns */
	CHECK(flow_share(f, y) == 0.125);
	CHECK(flow_share(f, z) == 1.0);
	CHECK_EQ_U64(e.end[x], 8000);
	CHECK_EQ_U64(e.end[z], 1000);
	flow_net_free(f);
}

/* A start only recomputes the flows connected to it through links. */
static void test_incremental(void)
{
	double cap[4] = { 1, 1, 1, 1 };
	flow_net *f = flow_net_new(4, cap_of, cap, 4, FLOW_MAXMIN);
	ends e = { 0 };
	uint32_t r0[] = { 0 }, r1[] = { 1, 2 }, r2[] = { 2 }, r3[] = { 3 };
	uint32_t a = flow_start(f, 0, 500, 1.0, r0, 1);
	uint32_t b = flow_start(f, 0, 500, 1.0, r1, 2);
	CHECK(flow_settle(f, 0, moved, &e) == 0);
	reset(&e);
	uint32_t c = flow_start(f, 10, 500, 1.0, r2, 1);   /* shares link 2 with b */
	uint32_t d = flow_start(f, 10, 500, 1.0, r3, 1);   /* alone */
	CHECK(flow_settle(f, 10, moved, &e) == 0);
	CHECK(e.moved[a] == 0);
	CHECK(e.moved[b] == 1 && e.moved[c] == 1 && e.moved[d] == 1);
	CHECK_EQ_U64(e.end[b], 10 + 2 * 490);
	CHECK_EQ_U64(e.end[d], 510);
	CHECK_EQ_U64(flow_largest_settle(f), 3);   /* b, c and d (marked together); not a */
	CHECK_EQ_U64(flow_count(f), 4);
	/* An ended flow's id comes back with another generation. */
	uint32_t g = flow_gen(f, a);
	flow_finish(f, a, 500);
	CHECK(flow_gen(f, a) != g);
	CHECK(flow_start(f, 500, 1, 1.0, r0, 1) == a);
	flow_net_free(f);
}

/* n flows into one link (an incast) all end together at n * work. */
static void test_incast(void)
{
	double cap[9];
	for (int i = 0; i < 9; i++)
		cap[i] = 1.0 / 6;   /* G = 6 ns per byte */
	flow_net *f = flow_net_new(9, cap_of, cap, 2, FLOW_MAXMIN);
	ends e = { 0 };
	for (uint32_t i = 0; i < 8; i++) {
		uint32_t r[] = { i, 8 };
		flow_start(f, 0, 6000, 1.0 / 6, r, 2);
	}
	CHECK(flow_settle(f, 0, moved, &e) == 0);
	for (uint32_t i = 0; i < 8; i++)
		CHECK_EQ_U64(e.end[i], 48000);
	flow_net_free(f);
}

/* The simple rule against max-min: links A and B (cap 1), flow p on A,
 * q on A and B, r and u on B (full rate 1, 3000 ns of work each).  Both
 * give q, r and u a third of B.  Max-min gives p what q leaves on A, 2/3;
 * the simple rule 1/A's count, 1/2.  When q, r and u end at 9000 p has
 * 3000 - 9000/2 < 0 left: it ended at 6000 under the simple rule. */
static void test_simple(void)
{
	double cap[2] = { 1, 1 };
	uint32_t rp[] = { 0 }, rq[] = { 0, 1 }, rr[] = { 1 };
	for (int rule = 0; rule < 2; rule++) {
		flow_net *f = flow_net_new(2, cap_of, cap, 4, rule ? FLOW_SIMPLE : FLOW_MAXMIN);
		ends e = { 0 };
		uint32_t p = flow_start(f, 0, 3000, 1.0, rp, 1);
		uint32_t q = flow_start(f, 0, 3000, 1.0, rq, 2);
		uint32_t r = flow_start(f, 0, 3000, 1.0, rr, 1);
		uint32_t u = flow_start(f, 0, 3000, 1.0, rr, 1);
		CHECK(flow_settle(f, 0, moved, &e) == 0);
		CHECK_EQ_U64(e.end[p], rule ? 6000 : 4500);
		CHECK(flow_share(f, p) == (rule ? 0.5 : 1 - 1.0 / 3));
		CHECK_EQ_U64(e.end[q], 9000);
		CHECK_EQ_U64(e.end[r], 9000);
		CHECK_EQ_U64(e.end[u], 9000);
		/* p's end leaves q, r and u at a third: their ends stay. */
		reset(&e);
		flow_finish(f, p, e.end[p]);
		CHECK(flow_settle(f, rule ? 6000 : 4500, moved, &e) == 0);
		CHECK(!e.moved[q] && !e.moved[r] && !e.moved[u]);
		flow_net_free(f);
	}
}

/* A change that reaches every link of a chain, one after the other:
 * link i (cap 2 * 3^i) carries flows i and i + 1, flow 0 only link 0.
 * Link 0 fills first (both its flows at 1), then link i leaves flow
 * i + 1 what flow i takes from it, c_i - f_i, below every later share.
 * When flow 0 ends, flow 1 gets all of link 0, and every flow after it
 * another rate: a part solved ring by ring must go on to the last. */
#define CN 20
#define CHAIN_RATE 1e10   /* full rate: above every share */
static void chain_check(flow_net *f, const uint32_t *id, const double *cap, int first)
{
	double want = first ? cap[0] : cap[0] / 2;   /* flows 0 and 1, or 1 alone */
	for (int i = first; i < CN; i++) {
		if (i >= 2)
			want = cap[i - 1] - want;
		double got = flow_share(f, id[i]) * CHAIN_RATE;
		if (fabs(got - want) > 1e-9 * want)
			printf("    flow %d: %.17g bytes/ns, want %.17g\n", i, got, want);
		CHECK(fabs(got - want) <= 1e-9 * want);
	}
}

static void no_move(void *ctx, uint32_t id, uint64_t end)
{
	(void)ctx, (void)id, (void)end;
}

/* The chain, beside idle flows alone on links of their own: with none the
 * part soon goes through every bottleneck (its rings solved a quarter of
 * the flows in flight); with 1000 it goes ring by ring as long as that
 * may go on, then through every bottleneck. */
#define IDLE 1000
static void test_chain(uint32_t idle)
{
	static double cap[CN + IDLE];
	uint32_t id[CN];
	for (uint32_t i = 0; i < CN + idle; i++)
		cap[i] = i >= CN ? 1 : i ? 3 * cap[i - 1] : 2;
	flow_net *f = flow_net_new(CN + idle, cap_of, cap, 2, FLOW_MAXMIN);
	uint32_t r0[] = { 0 };
	id[0] = flow_start(f, 0, 1000, CHAIN_RATE, r0, 1);
	for (uint32_t i = 1; i < CN; i++) {
		uint32_t r[] = { i - 1, i };
		id[i] = flow_start(f, 0, 1000, CHAIN_RATE, r, 2);
	}
	for (uint32_t i = CN; i < CN + idle; i++)
		flow_start(f, 0, 1000, 1.0, &i, 1);
	CHECK(flow_settle(f, 0, no_move, NULL) == 0);
	chain_check(f, id, cap, 0);
	flow_finish(f, id[0], 10);
	CHECK(flow_settle(f, 10, no_move, NULL) == 0);
	chain_check(f, id, cap, 1);
	CHECK_EQ_U64(flow_largest_settle(f), CN + idle);   /* the first settle */
	flow_net_free(f);
}

/* ---- Random runs against a reference ------------------------------------
 * Flows start and end on RL links at random; after every settle each live
 * flow's share is checked against a reference computed from scratch: by
 * water-filling for max-min (a level that rises for every unfixed flow,
 * each fixed at its full rate or when one of its links fills), by its
 * links' cap / flows for the simple rule. */
#define RL 10
#define RF 32

typedef struct rflow {
	int live;
	uint32_t id, n, links[3];
	double rate;
} rflow;

static void reference(const double *cap, const rflow *fl, int rule, double *share)
{
	int fixed[RF] = { 0 };
	double rem[RL];
	int cnt[RL] = { 0 };
	for (int l = 0; l < RL; l++)
		rem[l] = cap[l];
	for (int i = 0; i < RF; i++)
		for (uint32_t h = 0; fl[i].live && h < fl[i].n; h++)
			cnt[fl[i].links[h]]++;
	if (rule) {   /* simple: min over links of cap / flows, capped at 1 */
		for (int i = 0; i < RF; i++) {
			share[i] = 1.0;
			for (uint32_t h = 0; fl[i].live && h < fl[i].n; h++) {
				double c = cap[fl[i].links[h]] / cnt[fl[i].links[h]];
				if (c / fl[i].rate < share[i])
					share[i] = c / fl[i].rate;
			}
		}
		return;
	}
	for (;;) {
		/* The next level: the lowest fair share of a link or full rate. */
		double lv = HUGE_VAL;
		for (int l = 0; l < RL; l++)
			if (cnt[l] && rem[l] / cnt[l] < lv)
				lv = rem[l] / cnt[l];
		int any = 0;
		for (int i = 0; i < RF; i++)
			if (fl[i].live && !fixed[i] && fl[i].rate < lv)
				lv = fl[i].rate;
		/* Fix every flow at its full rate lv or on a link of share lv. */
		int fix[RF] = { 0 };
		for (int i = 0; i < RF; i++) {
			if (!fl[i].live || fixed[i])
				continue;
			fix[i] = fl[i].rate <= lv * (1 + 1e-12);
			for (uint32_t h = 0; h < fl[i].n; h++) {
				uint32_t l = fl[i].links[h];
				fix[i] |= rem[l] / cnt[l] <= lv * (1 + 1e-12);
			}
		}
		for (int i = 0; i < RF; i++) {
			if (!fix[i])
				continue;
			any = 1;
			fixed[i] = 1;
			share[i] = lv / fl[i].rate < 1 ? lv / fl[i].rate : 1;
			for (uint32_t h = 0; h < fl[i].n; h++) {
				rem[fl[i].links[h]] -= share[i] * fl[i].rate;
				cnt[fl[i].links[h]]--;
			}
		}
		if (!any)
			return;
	}
}

static void test_random(void)
{
	static const double caps[] = { 0.5, 1, 2 }, rates[] = { 0.25, 1, 4 };
	for (int rule = 0; rule < 2; rule++) {
		double cap[RL];
		srand(7 + rule);
		for (int l = 0; l < RL; l++)
			cap[l] = caps[rand() % 3];
		flow_net *f = flow_net_new(RL, cap_of, cap, 3, rule ? FLOW_SIMPLE : FLOW_MAXMIN);
		rflow fl[RF] = { { 0 } };
		ends e = { 0 };
		uint64_t t = 0, compared = 0, wrong = 0;
		for (int step = 0; step < 3000; step++) {
			int i = rand() % RF;
			if (fl[i].live) {   /* the flow ends at its end, or now */
				uint64_t end = flow_end(f, fl[i].id);
				if (end < t + 50)
					t = end;
				flow_finish(f, fl[i].id, t);
				fl[i].live = 0;
			} else {
				rflow *x = &fl[i];
				x->n = 1 + (uint32_t)(rand() % 3);
				for (uint32_t h = 0; h < x->n; h++) {
					x->links[h] = (uint32_t)(rand() % RL);
					for (uint32_t g = 0; g < h; g++)
						if (x->links[g] == x->links[h])
							x->links[h] = (x->links[h] + 1) % RL, g = (uint32_t)-1;
				}
				x->rate = rates[rand() % 3];
				x->id = flow_start(f, t, 1000000, x->rate, x->links, x->n);
				x->live = x->id < 64;
			}
			if (flow_settle(f, t, moved, &e))
				wrong++;
			double want[RF];
			reference(cap, fl, rule, want);
			for (int j = 0; j < RF; j++) {
				if (!fl[j].live)
					continue;
				double got = flow_share(f, fl[j].id);
				compared++;
				if (rule ? got != want[j] : fabs(got - want[j]) > 1e-9 * want[j]) {
					if (wrong++ < 3)
						printf("    step %d flow %d: share %.17g, want %.17g\n", step, j, got, want[j]);
				}
			}
			t += (uint64_t)(rand() % 3) * 17;
		}
		CHECK(compared > 10000);
		CHECK_EQ_U64(wrong, 0);
		flow_net_free(f);
	}
}

int main(void)
{
	test_share();
	test_maxmin();
	test_incremental();
	test_incast();
	test_chain(0);
	test_chain(IDLE);
	test_simple();
	test_random();
	return check_done();
}
