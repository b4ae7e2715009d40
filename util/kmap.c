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
		if (e->hash == h && e->len == len && (!len || memcmp(m->arena + e->off, key, len) == 0))
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
	if (util_grow(&m->ent, &m->cap, m->nent + 1, sizeof *m->ent) ||
	    util_grow(&m->arena, &m->acap, m->alen + len, 1))
		return -1;
	if (len)   /* an empty key may come before the arena has memory */
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
