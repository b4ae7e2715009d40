/* oa_test.c: the open-addressing rules of util/oa.h: the longest run and
 * the probe lengths allowed, the deletion rule, the measure of a table laid
 * out by hand, and the probe lengths of oa_home on the key layouts of the
 * simulator's tables at strides of powers of two (with a hash that keeps
 * low bits of a product as the control that must fail). */
#include "check.h"
#include "oa.h"

#include <stdlib.h>

/* A table as the simulator's are: linear probing from the home slot,
 * doubled (from 64 slots) before it is more than half full, deletion by
 * shifting back. */
typedef struct table {
	uint64_t *key;        /* UINT64_MAX: empty */
	uint64_t mask, n;
	uint64_t (*home)(uint64_t key, uint64_t mask);
	uint64_t longest_probe;
} table;

static void t_put(table *t, uint64_t k)
{
	uint64_t h0 = t->home(k, t->mask), h = h0;
	while (t->key[h] != UINT64_MAX)
		h = (h + 1) & t->mask;
	if (((h - h0) & t->mask) > t->longest_probe)
		t->longest_probe = (h - h0) & t->mask;
	t->key[h] = k;
}

static void t_grow(table *t, uint64_t cap)
{
	uint64_t *old = t->key, omask = t->mask;
	t->key = malloc(cap * sizeof *t->key);
	if (!t->key)
		abort();
	for (uint64_t i = 0; i < cap; i++)
		t->key[i] = UINT64_MAX;
	t->mask = cap - 1;
	for (uint64_t i = 0; old && i <= omask; i++)
		if (old[i] != UINT64_MAX)
			t_put(t, old[i]);
	free(old);
}

static void t_insert(table *t, uint64_t k)
{
	if (2 * (t->n + 1) > t->mask + 1)
		t_grow(t, 2 * (t->mask + 1));
	t_put(t, k);
	t->n++;
}

/* The slot of k, or UINT64_MAX. */
static uint64_t t_find(const table *t, uint64_t k)
{
	uint64_t h = t->home(k, t->mask);
	while (t->key[h] != UINT64_MAX && t->key[h] != k)
		h = (h + 1) & t->mask;
	return t->key[h] == k ? h : UINT64_MAX;
}

static void t_delete(table *t, uint64_t h)
{
	for (uint64_t j = h;;) {
		j = (j + 1) & t->mask;
		if (t->key[j] == UINT64_MAX)
			break;
		if (oa_stays(h, j, t->home(t->key[j], t->mask)))
			continue;
		t->key[h] = t->key[j];
		h = j;
	}
	t->key[h] = UINT64_MAX;
	t->n--;
}

static int t_word(const void *p, uint64_t i, uint64_t *w)
{
	*w = ((const uint64_t *)p)[i];
	return *w != UINT64_MAX;
}

/* The probe lengths of t by its own home function. */
static oa_probes t_probes(const table *t)
{
	oa_probes p = { 0, 0, 0 };
	uint64_t run = 0;
	for (uint64_t s = 0; s <= 2 * t->mask + 1; s++) {   /* twice: runs that wrap */
		uint64_t i = s & t->mask;
		if (t->key[i] == UINT64_MAX) {
			run = 0;
			continue;
		}
		if (++run > p.longest)
			p.longest = run;
		if (s <= t->mask) {
			p.n++;
			p.dist += (i - t->home(t->key[i], t->mask)) & t->mask;
		}
	}
	return p;
}

/* The hash the dependency table had: bits 17 and up of a product. */
static uint64_t low_product(uint64_t key, uint64_t mask)
{
	return (key * 0x9E3779B97F4A7C15ull >> 17) & mask;
}

/* The key layouts of the simulator's tables (sim.c): n keys, key i of
 * layout l at stride 2^s. */
enum { GOP, RDV_RANKS, RDV_OPS, FLOW_RANKS, HOLD, RES_RANKS, RES_LIST, TIMES, LAYOUTS };
static const char *const layout_name[LAYOUTS] = {
	"global op indices",
	"rank << 31 | op, kind bit 63, ranks at a stride, one op",
	"rank << 31 | op, kind bit 63, one rank, ops at a stride",
	"rank << 31 | op, kind bit 62, ranks and ops at a stride",
	"global op indices, kind bit 61",
	"rank << 18 | what << 16 | index, ranks at a stride",
	"resource ^ other << 44, ranks at a stride, three others",
	"times (ns)",
};

/* The bits of the field that runs at a stride (the keys are distinct
 * while n << s fits). */
static const unsigned layout_bits[LAYOUTS] = { 40, 32, 31, 31, 40, 32, 24, 40 };

static uint64_t layout_key(int l, uint64_t i, unsigned s)
{
	uint64_t v = i << s;
	switch (l) {
	case GOP: return v;
	case RDV_RANKS: return 1ull << 63 | (v & 0xffffffffu) << 31 | 7;
	case RDV_OPS: return 1ull << 63 | 5ull << 31 | (v & 0x7fffffffu);
	case FLOW_RANKS: return 1ull << 62 | (v & 0xffffffffu) << 31 | (v & 0x7fffffffu);
	case HOLD: return 1ull << 61 | v;
	case RES_RANKS: return (v & 0xffffffffu) << 18 | 1ull << 16 | 2;
	case RES_LIST: return v << 18 ^ (uint64_t)(1u << 16 | i % 3) << 44;
	default: return 2500 + 1500 * i + (v << 6);   /* L + o i + a stride */
	}
}

/* Whether n keys of layout l at stride 2^s keep the probe lengths of
 * oa_probes_ok in a table with home function home, through the inserts
 * and after every other key is deleted (those left still found, those
 * deleted not); the measure of oa_measure agrees with the table's own
 * where home is oa_home. */
static int layout_ok(int l, unsigned s, uint64_t n, uint64_t (*home)(uint64_t, uint64_t))
{
	table t = { NULL, 0, 0, home, 0 };
	t_grow(&t, 64);
	int ok = 1;
	for (uint64_t i = 0; i < n; i++)
		t_insert(&t, layout_key(l, i, s));
	oa_probes p = t_probes(&t);
	ok &= oa_probes_ok(p, t.mask) && t.longest_probe <= oa_longest(t.mask);
	if (home == oa_home) {
		oa_probes q = oa_measure(t.key, t.mask, t_word);
		ok &= q.n == p.n && q.dist == p.dist && q.longest == p.longest && p.n == n;
	}
	for (uint64_t i = 0; i < n; i += 2)
		t_delete(&t, t_find(&t, layout_key(l, i, s)));
	for (uint64_t i = 0; i < n; i++)
		ok &= (t_find(&t, layout_key(l, i, s)) == UINT64_MAX) == (i % 2 == 0);
	ok &= oa_probes_ok(t_probes(&t), t.mask);
	free(t.key);
	return ok;
}

/* The nth key (from 0) whose home is h in a table of 16 slots. */
static uint64_t homed_at(uint64_t h, unsigned nth)
{
	for (uint64_t k = 0;; k++)
		if (oa_home(k, 15) == h && nth-- == 0)
			return k;
}

int main(void)
{
	/* 8 log2(slots) + 16. */
	CHECK_EQ_U64(oa_longest(63), 64);
	CHECK_EQ_U64(oa_longest(1023), 96);
	CHECK_EQ_U64(oa_longest((1ull << 20) - 1), 176);
	CHECK(oa_probe_ok(1000, 1000 + 96, 1023) && !oa_probe_ok(1000, 1000 + 97, 1023));
	CHECK(oa_probe_ok(1020, 40, 1023) && !oa_probe_ok(1020, 100, 1023));   /* wrapped */

	/* The limits: runs, and the mean from 256 entries on. */
	CHECK(oa_probes_ok((oa_probes){ 300, 300, 96 }, 1023));
	CHECK(!oa_probes_ok((oa_probes){ 300, 301, 10 }, 1023));
	CHECK(!oa_probes_ok((oa_probes){ 300, 0, 97 }, 1023));
	CHECK(oa_probes_ok((oa_probes){ 255, 2000, 64 }, 1023));

	/* Deletion: the entry at j, homed at k, stays when k is cyclically in
	 * (h, j]. */
	CHECK(oa_stays(5, 8, 6) && oa_stays(5, 8, 8) && !oa_stays(5, 8, 5) && !oa_stays(5, 8, 3));
	CHECK(oa_stays(14, 1, 15) && oa_stays(14, 1, 0) && oa_stays(14, 1, 1));
	CHECK(!oa_stays(14, 1, 14) && !oa_stays(14, 1, 2));

	/* A table of 16 slots laid out by hand: keys homed at 15, 15 and 0
	 * fill slots 15, 0 and 1 (distances 0, 1, 1: one run of 3 across the
	 * end), a key homed at 5 fills slot 5. */
	uint64_t hand[16];
	for (int i = 0; i < 16; i++)
		hand[i] = UINT64_MAX;
	hand[15] = homed_at(15, 0);
	hand[0] = homed_at(15, 1);
	hand[1] = homed_at(0, 0);
	hand[5] = homed_at(5, 0);
	oa_probes p = oa_measure(hand, 15, t_word);
	CHECK_EQ_U64(p.n, 4);
	CHECK_EQ_U64(p.dist, 2);
	CHECK_EQ_U64(p.longest, 3);

	/* 4096 keys of every layout at strides 2^0, 2^2, .. as far as the
	 * field holds them: oa_home spreads every one. */
	for (int l = 0; l < LAYOUTS; l++) {
		unsigned bad = 0;
		for (unsigned s = 0; 12 + s <= layout_bits[l]; s += 2)
			if (!layout_ok(l, s, 4096, oa_home))
				bad |= 1u << (s / 2);
		if (!check_report(bad == 0, layout_name[l], __FILE__, __LINE__))
			printf("    strides failing (bit s/2): %#x\n", bad);
	}
	/* The control: bits 17 and up of a product put the rendezvous keys of
	 * 4096 ranks (one op) and ops at large strides on a few runs. */
	CHECK(!layout_ok(RDV_RANKS, 0, 4096, low_product));
	CHECK(!layout_ok(GOP, 20, 4096, low_product));
	return check_done();
}
