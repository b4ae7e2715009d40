/* oa.c: the probe lengths of an open-addressing table (oa.h). */
#include "oa.h"

oa_probes oa_measure(const void *t, uint64_t mask,
                     int (*word)(const void *t, uint64_t i, uint64_t *w))
{
	oa_probes p = { 0, 0, 0 };
	/* Runs are counted from after an empty slot, so that one that wraps
	 * around the end is counted whole (a full table is one run). */
	uint64_t start = 0, run = 0;
	uint64_t w;
	while (start < mask && word(t, start, &w))
		start++;
	for (uint64_t s = 1; s <= mask + 1; s++) {
		uint64_t i = (start + s) & mask;
		if (!word(t, i, &w)) {
			run = 0;
			continue;
		}
		p.n++;
		p.dist += (i - oa_home(w, mask)) & mask;
		if (++run > p.longest)
			p.longest = run;
	}
	return p;
}

int oa_probes_ok(oa_probes p, uint64_t mask)
{
	/* A mean probe length of at most 2: a mean distance of at most 1. */
	return p.longest <= oa_longest(mask) && (p.n < 256 || p.dist <= p.n);
}
