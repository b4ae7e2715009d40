/* oa.h: what the open-addressing tables of the simulator have in common
 * (the dependency, overflow, waiting-list, rendezvous and pending-time
 * tables: linear probing, at most half full, deletion by shifting later
 * entries back): where a key's probe starts, which entries a deletion
 * moves, and the probe lengths every such table keeps, which checked
 * builds assert at every probe and each time a table doubles. */
#ifndef OA_H
#define OA_H

#include "util.h"

#include <stdint.h>

/* The home slot of key in a table of mask + 1 slots (a power of two): the
 * key mixed whole (util_mix64), so that every bit of it moves the slot.
 * Keys that differ only in their high bits (the kinds of the dependency
 * table), or only in a rank or an op at a stride of a power of two, land
 * as random keys would: the probe lengths of oa_probes_ok for any key set
 * but one chosen against the mix. */
static inline uint64_t oa_home(uint64_t key, uint64_t mask)
{
	return util_mix64(key) & mask;
}

/* Deleting slot h: the entry found later in its run at slot j, whose home
 * is k, stays where it is when k lies cyclically in (h, j]; otherwise it
 * moves back to h, and j is the slot to fill next. */
static inline int oa_stays(uint64_t h, uint64_t j, uint64_t k)
{
	return h <= j ? h < k && k <= j : h < k || k <= j;
}

/* The probe lengths of a table: n entries, the sum of their distances
 * from their home slots (an entry's probe length is its distance + 1),
 * and the longest run of full slots. */
typedef struct oa_probes {
	uint64_t n, dist, longest;
} oa_probes;

/* The probe lengths of the table t of mask + 1 slots, whose slot i is
 * full when word(t, i, &w) returns 1, with the word w its home is
 * oa_home(w, mask) of.  O(slots). */
oa_probes oa_measure(const void *t, uint64_t mask,
                     int (*word)(const void *t, uint64_t i, uint64_t *w));

/* The longest run of full slots a table of mask + 1 slots at most half
 * full may have: 8 log2(slots) + 16.  Random keys give about 3.6
 * log2(slots); clustered keys break it by far (the dependency table that
 * kept the low bits of a product had runs of all its rendezvous keys). */
static inline uint64_t oa_longest(uint64_t mask)
{
	return 8 * (uint64_t)(64 - __builtin_clzll(mask | 1)) + 16;
}

/* Whether a probe that started at slot h0 and stopped at slot h stayed
 * within the longest run allowed: asserted by every probe of the tables in
 * checked builds (free elsewhere). */
static inline int oa_probe_ok(uint64_t h0, uint64_t h, uint64_t mask)
{
	return ((h - h0) & mask) <= oa_longest(mask);
}

/* Whether p, measured on a table of mask + 1 slots at most half full, is
 * what a mix that spreads its keys gives: no run longer than oa_longest,
 * and a mean probe length of at most 2 (random keys give 1.5) once it
 * holds 256 entries or more.  Asserted by checked builds each time a
 * table doubles, on the table before. */
int oa_probes_ok(oa_probes p, uint64_t mask);

#endif
