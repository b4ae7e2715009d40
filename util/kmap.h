/* kmap.h: a map from byte strings to 32-bit numbers: open addressing on
 * util_hash, the keys copied into one arena, entries in insertion order
 * (ent[0 .. nent-1]).  O(1) expected per call; grows by doubling. */
#ifndef UTIL_KMAP_H
#define UTIL_KMAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct util_kent {
	size_t off, len;        /* the key: arena[off .. off+len) */
	uint64_t hash;
	uint32_t val;
} util_kent;

typedef struct util_kmap {
	uint32_t *slot;         /* entry index + 1, 0 = empty */
	size_t nslot;
	util_kent *ent;
	size_t nent, cap;
	unsigned char *arena;
	size_t alen, acap;
} util_kmap;                /* all zero: an empty map */

/* Frees m; it becomes an empty map. */
void util_kmap_free(util_kmap *m);

/* The value of key (len bytes), or NULL if absent. */
uint32_t *util_kmap_get(const util_kmap *m, const void *key, size_t len);

/* Adds key (absent) with value val.  Returns 0 or -1 (out of memory). */
int util_kmap_put(util_kmap *m, const void *key, size_t len, uint32_t val);

#endif
