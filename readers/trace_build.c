/* trace_build.c: a struct tr_trace filled call by call (trace_build.h). */
#include "trace_build.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

void tr_build_init(struct tr_build *b, struct tr_trace *t, enum tr_unit unit)
{
	memset(b, 0, sizeof *b);
	memset(t, 0, sizeof *t);
	t->rank = t->size = -1;
	t->unit = (uint8_t)unit;
	b->t = t;
}

void tr_build_done(struct tr_build *b)
{
	util_kmap_free(&b->names);
	util_kmap_free(&b->skips);
}

int tr_build_call(struct tr_build *b, enum tr_kind k, uint32_t line, size_t *i)
{
	struct tr_trace *t = b->t;
	struct tr_call *c;
	if (util_grow(&t->calls, &b->cap_calls, t->ncalls + 1, sizeof *t->calls))
		return -1;
	c = &t->calls[t->ncalls];
	memset(c, 0, sizeof *c);
	c->kind = (uint16_t)k;
	c->line = line;
	c->peer = c->rpeer = c->root = c->index = -1;
	if (t->ncalls)
		c->start = c->end = t->calls[t->ncalls - 1].end;
	*i = t->ncalls++;
	return 0;
}

int tr_build_list(struct tr_build *b, size_t i, int li, uint32_t n, int64_t **v)
{
	struct tr_trace *t = b->t;
	if (t->npool + n > UINT32_MAX || util_grow(&t->pool, &b->cap_pool, t->npool + n + 1,
	                                             sizeof *t->pool))
		return -1;
	t->calls[i].list[li] = (uint32_t)t->npool;
	t->calls[i].len[li] = n;
	*v = t->pool + t->npool;
	t->npool += n;
	return 0;
}

int tr_build_name(struct tr_build *b, const char *name, uint32_t *off)
{
	struct tr_trace *t = b->t;
	size_t n = strlen(name);
	uint32_t *v = util_kmap_get(&b->names, name, n);
	if (v) {
		*off = *v;
		return 0;
	}
	if (t->nnames + n + 1 > UINT32_MAX || util_grow(&t->names, &b->cap_names, t->nnames + n + 1, 1) ||
	    util_kmap_put(&b->names, name, n, (uint32_t)t->nnames))
		return -1;
	memcpy(t->names + t->nnames, name, n + 1);
	*off = (uint32_t)t->nnames;
	t->nnames += n + 1;
	return 0;
}

int tr_build_skip(struct tr_build *b, const char *name, uint64_t n)
{
	struct tr_trace *t = b->t;
	size_t len = strlen(name);
	uint32_t *v = util_kmap_get(&b->skips, name, len), off;
	if (v) {
		t->skips[*v].n += n;
		return 0;
	}
	if (tr_build_name(b, name, &off) ||
	    util_grow(&t->skips, &b->cap_skips, t->nskips + 1, sizeof *t->skips) ||
	    util_kmap_put(&b->skips, name, len, (uint32_t)t->nskips))
		return -1;
	t->skips[t->nskips].name = off;
	t->skips[t->nskips].n = n;
	t->nskips++;
	return 0;
}
