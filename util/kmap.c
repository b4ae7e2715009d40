/* kmap.c: a map from byte strings to numbers (kmap.h). */
#include "kmap.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

void util_kmap_free(util_kmap *m)
{
	free(m->slot);
	free(m->ent);
	free(m->arena);
	memset(m, 0, sizeof *m);
}

uint32_t *util_kmap_get(const util_kmap *m, const void *key, size_t len)
{
	uint64_t h = util_hash(key, len);
	if (!m->nslot)
		return NULL;
	for (size_t i = h & (m->nslot - 1);; i = (i + 1) & (m->nslot - 1)) {
		uint32_t s = m->slot[i];
		if (!s)
			return NULL;
		util_kent *e = &m->ent[s - 1];
		if (e->hash == h && e->len == len && memcmp(m->arena + e->off, key, len) == 0)
			return &e->val;
	}
}

int util_kmap_put(util_kmap *m, const void *key, size_t len, uint32_t val)
{
	if (2 * (m->nent + 1) > m->nslot) {
		size_t ns = m->nslot ? 2 * m->nslot : 64;
		uint32_t *sl = calloc(ns, sizeof *sl);
		if (!sl)
			return -1;
		for (size_t k = 0; k < m->nent; k++) {
			size_t i = m->ent[k].hash & (ns - 1);
			while (sl[i])
				i = (i + 1) & (ns - 1);
			sl[i] = (uint32_t)k + 1;
		}
		free(m->slot);
		m->slot = sl;
		m->nslot = ns;
	}
	if (m->nent == m->cap) {
		size_t c = m->cap ? 2 * m->cap : 64;
		util_kent *e = realloc(m->ent, c * sizeof *e);
		if (!e)
			return -1;
		m->ent = e;
		m->cap = c;
	}
	if (m->alen + len > m->acap) {
		size_t c = m->acap ? 2 * m->acap : 4096;
		while (c < m->alen + len)
			c *= 2;
		unsigned char *a = realloc(m->arena, c);
		if (!a)
			return -1;
		m->arena = a;
		m->acap = c;
	}
	memcpy(m->arena + m->alen, key, len);
	util_kent *e = &m->ent[m->nent];
	e->off = m->alen;
	e->len = len;
	e->hash = util_hash(key, len);
	e->val = val;
	m->alen += len;
	size_t i = e->hash & (m->nslot - 1);
	while (m->slot[i])
		i = (i + 1) & (m->nslot - 1);
	m->slot[i] = (uint32_t)m->nent + 1;
	m->nent++;
	return 0;
}
