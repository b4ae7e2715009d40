/* trace_dumpi.c: SST-DUMPI binary traces into struct tr_trace
 * (trace_dumpi.h): the communicators and groups a rank makes, its records
 * as calls, and the run (the .meta file, the passes that resolve
 * MPI_Comm_split).  The format and its records: trace_dumpi_rec.c. */
#include "trace_dumpi.h"
#include "trace_dumpi_int.h"
#include "trace_build.h"
#include "kmap.h"
#include "util.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Handles of the predefined objects. */
#define COMM_NULL 1
#define COMM_WORLD 2
#define COMM_SELF 3
#define GROUP_EMPTY 2
#define REQUEST_NULL 1

/* ---- Values of a rank file and its records ------------------------------ */

/* The size in bytes of datatype id t (0 when the trace does not tell). */
static int64_t type_size(const struct dfile *f, int64_t t)
{
	if (t < 0 || t >= f->nsizes)
		return 0;
	int32_t s = (int32_t)be32(f->p + f->sizes + 4 * (size_t)t);
	return s > 0 ? s : 0;
}

/* How often the footer says function fn was called (-1: no footer). */
static int64_t footer_count(const struct dfile *f, unsigned fn)
{
	return f->footer ? (int64_t)be32(f->p + f->footer + 8 + 4 * fn) : -1;
}

/* A value of array a (sign-extended). */
static int64_t arr_at(const struct dfile *f, const struct darr *a, uint32_t i)
{
	const unsigned char *p = f->p + a->off + (size_t)i * a->size;
	switch (a->size) {
	case 1: return (int8_t)p[0];
	case 2: return (int16_t)be16(p);
	default: return (int32_t)be32(p);
	}
}

/* Status i of r: source, tag, bytes (the tag is the call's when the trace
 * is older than 0.6.3). */
static void status_at(const struct dfile *f, const struct drec *r, uint32_t i, int32_t *src,
                      int32_t *tag, int64_t *bytes, int32_t deftag)
{
	const unsigned char *p = f->p + r->st.off + (size_t)i * r->st.size;
	*bytes = (int32_t)be32(p);
	*src = (int32_t)be32(p + 4);
	*tag = r->st.size >= 14 ? (int32_t)be32(p + 10) : deftag;
}

/* ---- Communicators and groups --------------------------------------------- */

/* A member list (world ranks, in comm rank order), unknown when not
 * known (all zero). */
struct mlist {
	int64_t *v;
	int32_t n;
	int32_t me;              /* this rank's position, or -1 */
	int32_t *dims;           /* Cartesian dimensions (Cart_create), or NULL */
	int32_t ndims;
	int known;
};

/* Splits: the contributions of every rank to the k-th MPI_Comm_split on a
 * member list, found by a pass over all files. */
struct contrib {
	int32_t rank, color, key, pos;
};
struct bucket {
	int32_t need;            /* the parent's size */
	struct contrib *c;
	size_t n, cap;
};
struct splits {
	util_kmap map;           /* (seq, parent members) -> bucket */
	struct bucket *b;
	size_t n, cap;
};

static void splits_free(struct splits *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->b[i].c);
	free(s->b);
	util_kmap_free(&s->map);
	memset(s, 0, sizeof *s);
}

/* The number of complete buckets (every member of the parent counted). */
static size_t splits_complete(const struct splits *s)
{
	size_t k = 0;
	for (size_t i = 0; i < s->n; i++)
		k += s->b[i].n == (size_t)s->b[i].need;
	return k;
}

/* State of one pass over a rank file. */
struct rd {
	struct dfile *f;
	int rank, size;
	struct mlist *comm, *group;        /* by handle, grown on use */
	size_t ncomm, ngroup;
	uint32_t *touched;                 /* the lists that may own memory:
	                                    * handle, + 65536 for groups */
	size_t ntouched, captouched;
	util_kmap seq;                     /* parent members -> splits so far */
	const struct splits *known;        /* resolved splits (NULL: none) */
	struct splits *collect;            /* contributions to gather, or NULL */
	struct tr_build *b;                /* NULL: a pass that only collects */
	int64_t *tmp;                      /* scratch of size members */
	uint8_t *mark;                     /* scratch of size bytes */
	int oom;
};

static void ml_clear(struct mlist *m)
{
	free(m->v);
	free(m->dims);
	memset(m, 0, sizeof *m);
}

/* Sets m to the n members v (copied); me is found.  Members must be ranks
 * of the run, distinct; otherwise m becomes unknown. */
static void ml_set(struct rd *rd, struct mlist *m, const int64_t *v, int32_t n)
{
	int64_t *c = n ? malloc((size_t)n * sizeof *c) : NULL;
	int32_t me = -1;
	if (n && !c) {
		rd->oom = 1;
		ml_clear(m);
		return;
	}
	memset(rd->mark, 0, (size_t)rd->size);
	for (int32_t i = 0; i < n; i++) {
		if (v[i] < 0 || v[i] >= rd->size || rd->mark[v[i]]) {
			free(c);
			ml_clear(m);
			return;
		}
		rd->mark[v[i]] = 1;
		if (v[i] == rd->rank)
			me = i;
		c[i] = v[i];
	}
	ml_clear(m);
	if (util_grow(&rd->touched, &rd->captouched, rd->ntouched + 1, sizeof *rd->touched)) {
		free(c);
		rd->oom = 1;
		return;
	}
	if (m >= rd->comm && m < rd->comm + rd->ncomm)
		rd->touched[rd->ntouched++] = (uint32_t)(m - rd->comm);
	else
		rd->touched[rd->ntouched++] = (uint32_t)(m - rd->group) + 65536;
	m->v = c;
	m->n = n;
	m->me = me;
	m->known = 1;
}

/* Group operations: union, intersection, difference of a and b into tmp. */
static int32_t group_setop(struct rd *rd, unsigned fn, const struct mlist *a, const struct mlist *b)
{
	int32_t n = 0;
	memset(rd->mark, 0, (size_t)rd->size);
	for (int32_t i = 0; i < b->n; i++)
		rd->mark[b->v[i]] = 1;
	for (int32_t i = 0; i < a->n; i++)
		if (fn == F_GROUP_UNION || (fn == F_GROUP_INTERSECTION) == (rd->mark[a->v[i]] != 0))
			rd->tmp[n++] = a->v[i];
	if (fn == F_GROUP_UNION) {
		memset(rd->mark, 0, (size_t)rd->size);
		for (int32_t i = 0; i < a->n; i++)
			rd->mark[a->v[i]] = 1;
		for (int32_t i = 0; i < b->n && n < rd->size; i++)
			if (!rd->mark[b->v[i]])
				rd->tmp[n++] = b->v[i];
	}
	return n;
}

/* Group_incl/excl: the members of g at the positions of array a (incl), or
 * all others (excl), into tmp; -1 if a position is out of range. */
static int32_t group_select(struct rd *rd, int incl, const struct mlist *g, const struct darr *a)
{
	int32_t n = 0;
	if (incl && a->n > (uint32_t)g->n)
		return -1;
	memset(rd->mark, 0, (size_t)rd->size);
	for (uint32_t i = 0; i < a->n; i++) {
		int64_t p = arr_at(rd->f, a, i);
		if (p < 0 || p >= g->n)
			return -1;
		if (incl)
			rd->tmp[n++] = g->v[p];
		else
			rd->mark[p] = 1;
	}
	if (!incl)
		for (int32_t i = 0; i < g->n; i++)
			if (!rd->mark[i])
				rd->tmp[n++] = g->v[i];
	return n;
}

/* A Cartesian communicator of rank order: the first prod(dims) ranks of
 * parent p (MPI may reorder them; the trace does not say how, and MPI
 * libraries keep the order).  Sets m. */
static void cart_create(struct rd *rd, struct mlist *m, const struct mlist *p, const struct darr *dims)
{
	int64_t prod = 1;
	for (uint32_t i = 0; i < dims->n && prod <= p->n; i++) {
		int64_t d = arr_at(rd->f, dims, i);
		prod = d > 0 ? prod * d : p->n + 1;
	}
	if (prod > p->n || dims->n > 64) {
		ml_clear(m);
		return;
	}
	ml_set(rd, m, p->v, (int32_t)prod);
	if (!m->known)
		return;
	m->dims = malloc((dims->n ? dims->n : 1) * sizeof *m->dims);
	if (!m->dims) {
		rd->oom = 1;
		return;
	}
	m->ndims = (int32_t)dims->n;
	for (uint32_t i = 0; i < dims->n; i++)
		m->dims[i] = (int32_t)arr_at(rd->f, dims, i);
}

/* Cart_sub: the ranks of the Cartesian parent p whose coordinates equal
 * this rank's in the dimensions that do not remain (row-major order, the
 * last dimension fastest), in rank order.  Sets m. */
static void cart_sub(struct rd *rd, struct mlist *m, const struct mlist *p, const struct darr *remain)
{
	int32_t n = 0;
	if (!p->dims || remain->n != (uint32_t)p->ndims || p->me < 0) {
		ml_clear(m);
		return;
	}
	for (int32_t q = 0; q < p->n; q++) {
		int32_t a = q, b = p->me, same = 1;
		for (int32_t d = p->ndims - 1; d >= 0; d--) {
			int32_t e = p->dims[d];
			if (!arr_at(rd->f, remain, (uint32_t)d) && a % e != b % e)
				same = 0;
			a /= e;
			b /= e;
		}
		if (same)
			rd->tmp[n++] = p->v[q];
	}
	ml_set(rd, m, rd->tmp, n);
}

/* qsort order of the contributions of one color: key, then parent rank. */
static int cmp_contrib(const void *x, const void *y)
{
	const struct contrib *a = x, *b = y;
	if (a->key != b->key)
		return (a->key > b->key) - (a->key < b->key);
	return (a->pos > b->pos) - (a->pos < b->pos);
}

/* The bucket key of the seq-th split of parent p: seq then the members. */
static unsigned char *split_key(const struct mlist *p, uint32_t seq, size_t *len)
{
	*len = sizeof seq + (size_t)p->n * sizeof(int64_t);
	unsigned char *k = malloc(*len);
	if (!k)
		return NULL;
	memcpy(k, &seq, sizeof seq);
	if (p->n)
		memcpy(k + sizeof seq, p->v, (size_t)p->n * sizeof(int64_t));
	return k;
}

/* MPI_Comm_split of parent p with this rank's color and key: records the
 * contribution (collecting pass) and sets m from the resolved splits.  m
 * and p are different lists (comm_split handles a split onto its parent's
 * handle). */
static void split_into(struct rd *rd, struct mlist *m, const struct mlist *p, int32_t color,
                       int32_t key)
{
	size_t plen = (size_t)p->n * sizeof(int64_t), klen;
	uint32_t *cnt = util_kmap_get(&rd->seq, p->v ? (const void *)p->v : "", plen), seq = 0;
	unsigned char *k;
	ml_clear(m);
	if (cnt)
		seq = ++*cnt;
	else if (util_kmap_put(&rd->seq, p->v ? (const void *)p->v : "", plen, 0)) {
		rd->oom = 1;
		return;
	}
	k = split_key(p, seq, &klen);
	if (!k) {
		rd->oom = 1;
		return;
	}
	if (rd->collect) {
		struct splits *s = rd->collect;
		uint32_t *bi = util_kmap_get(&s->map, k, klen);
		if (!bi) {
			if (util_grow(&s->b, &s->cap, s->n + 1, sizeof *s->b) ||
			    util_kmap_put(&s->map, k, klen, (uint32_t)s->n)) {
				rd->oom = 1;
				free(k);
				return;
			}
			memset(&s->b[s->n], 0, sizeof s->b[s->n]);
			s->b[s->n].need = p->n;
			bi = util_kmap_get(&s->map, k, klen);
			s->n++;
		}
		struct bucket *bk = &s->b[*bi];
		if (util_grow(&bk->c, &bk->cap, bk->n + 1, sizeof *bk->c)) {
			rd->oom = 1;
			free(k);
			return;
		}
		bk->c[bk->n++] = (struct contrib){ rd->rank, color, key, p->me };
	}
	const uint32_t *bi = rd->known ? util_kmap_get(&rd->known->map, k, klen) : NULL;
	free(k);
	if (!bi || color < 0)
		return;
	const struct bucket *bk = &rd->known->b[*bi];
	if (bk->n != (size_t)bk->need)
		return;
	struct contrib *mine = malloc(bk->n * sizeof *mine);
	size_t n = 0;
	if (!mine) {
		rd->oom = 1;
		return;
	}
	for (size_t i = 0; i < bk->n; i++)
		if (bk->c[i].color == color)
			mine[n++] = bk->c[i];
	qsort(mine, n, sizeof *mine, cmp_contrib);
	for (size_t i = 0; i < n; i++)
		rd->tmp[i] = p->v[mine[i].pos];
	free(mine);
	ml_set(rd, m, rd->tmp, (int32_t)n);
}

/* The same, where the new communicator's handle may be its parent's
 * (MPI_Comm_split(c, color, key, &c)): the parent's members are moved
 * aside first, since m is cleared before p is read to its end. */
static void comm_split(struct rd *rd, struct mlist *m, struct mlist *p, int32_t color,
                       int32_t key)
{
	struct mlist own;
	if (m != p) {
		split_into(rd, m, p, color, key);
		return;
	}
	own = *p;
	memset(m, 0, sizeof *m);
	split_into(rd, m, &own, color, key);
	ml_clear(&own);
}

/* ---- Records into calls --------------------------------------------------- */

/* A request handle: 0 for MPI_REQUEST_NULL (and the error value). */
static uint64_t req_of(int64_t v)
{
	uint32_t u = (uint32_t)v;
	return u <= REQUEST_NULL ? 0 : u;
}

/* Sets the communicator fields of call c for handle h. */
static void set_comm(struct rd *rd, struct tr_call *c, int64_t h)
{
	const struct mlist *m = (uint16_t)h < rd->ncomm ? &rd->comm[(uint16_t)h] : NULL;
	c->comm = (uint64_t)(uint16_t)h;
	if (m && m->known && m->me >= 0) {
		c->comm_size = m->n;
		c->comm_rank = m->me;
	} else {
		c->comm_size = 0;
		c->comm_rank = -1;
	}
}

/* A peer rank: -1 (MPI_ANY_SOURCE in DUMPI) stays for receives; other
 * negative values, and -1 for sends, are MPI_PROC_NULL. */
static int32_t peer_of(int64_t v, int recv)
{
	if (v == -1 && recv)
		return TR_ANY_SOURCE;
	return v < 0 ? TR_PROC_NULL : (int32_t)v;
}

/* Array k of r times the size of datatype t into list li of call i. */
static int put_bytes(struct rd *rd, size_t i, int li, const struct drec *r, int k, int64_t t)
{
	int64_t *v, sz = type_size(rd->f, t);
	if (k >= r->na)
		return 0;
	if (tr_build_list(rd->b, i, li, r->a[k].n, &v))
		return -1;
	for (uint32_t j = 0; j < r->a[k].n; j++)
		v[j] = arr_at(rd->f, &r->a[k], j) * sz;
	return 0;
}

/* Array k of r as request ids into list 0 of call i. */
static int put_reqs(struct rd *rd, size_t i, const struct drec *r, int k)
{
	int64_t *v;
	if (k >= r->na)
		return 0;
	if (tr_build_list(rd->b, i, 0, r->a[k].n, &v))
		return -1;
	for (uint32_t j = 0; j < r->a[k].n; j++)
		v[j] = (int64_t)req_of(arr_at(rd->f, &r->a[k], j));
	return 0;
}

/* The statuses of r as (source, tag, bytes) triples into list 2 of call
 * i, when there are want of them. */
static int put_statuses(struct rd *rd, size_t i, const struct drec *r, uint32_t want)
{
	int64_t *v, bytes;
	int32_t src, tag;
	if (!r->has_st || r->st.n != want || want == 0)
		return 0;
	if (tr_build_list(rd->b, i, 2, 3 * want, &v))
		return -1;
	for (uint32_t j = 0; j < want; j++) {
		status_at(rd->f, r, j, &src, &tag, &bytes, TR_ANY_TAG);
		v[3 * j] = src;
		v[3 * j + 1] = tag;
		v[3 * j + 2] = bytes;
	}
	return 0;
}

/* The single status of r into c (source, tag, bytes). */
static void put_status(const struct rd *rd, struct tr_call *c, const struct drec *r, int32_t deftag)
{
	if (!r->has_st || r->st.n < 1)
		return;
	status_at(rd->f, r, 0, &c->st_source, &c->st_tag, &c->st_bytes, deftag);
	c->flags |= TR_F_STATUS;
}

/* Appends a TR_COMMDEF call for handle h with the members of m (when this
 * rank is one of them). */
static int commdef(struct rd *rd, uint32_t recno, int64_t h, const struct mlist *m)
{
	size_t i;
	int64_t *v;
	if (!rd->b || !m->known || m->me < 0)
		return 0;
	if (tr_build_call(rd->b, TR_COMMDEF, recno, &i) || tr_build_list(rd->b, i, 0, (uint32_t)m->n, &v))
		return -1;
	rd->b->t->calls[i].newcomm = (uint64_t)(uint16_t)h;
	rd->b->t->calls[i].comm_size = m->n;
	memcpy(v, m->v, (size_t)m->n * sizeof *v);
	return 0;
}

/* Makes room for handle h in table *t of *n lists (new ones unknown).
 * Returns 0 or -1 (out of memory). */
static int tab_grow(struct mlist **t, size_t *n, int64_t h)
{
	size_t need = (size_t)(uint16_t)h + 1, cap = *n;
	if (need <= *n)
		return 0;
	if (util_grow(t, &cap, need, sizeof **t))
		return -1;
	memset(*t + *n, 0, (cap - *n) * sizeof **t);
	*n = cap;
	return 0;
}

/* The handles of the calls track() follows: per value of the record, c a
 * communicator, g a group, . anything else. */
static const char *handles_of(unsigned fn)
{
	switch (fn) {
	case F_COMM_GROUP: return "cg";
	case F_GROUP_UNION: case F_GROUP_INTERSECTION: case F_GROUP_DIFFERENCE: return "ggg";
	case F_GROUP_INCL: case F_GROUP_EXCL: case F_GROUP_RANGE_INCL: case F_GROUP_RANGE_EXCL:
		return "g.g";
	case F_GROUP_FREE: return "g";
	case F_COMM_DUP: return "cc";
	case F_COMM_CREATE: return "cgc";
	case F_COMM_SPLIT: case F_CART_CREATE: return "c..c";
	case F_COMM_FREE: return "c";
	case F_CART_SUB: return ".cc";
	default: return "";
	}
}

/* Follows the communicator and group calls: the members of what r makes.
 * Appends the TR_COMMDEF of a new communicator. */
static int track(struct rd *rd, const struct drec *r, uint32_t recno)
{
	const int64_t *v = r->v;
	const char *hs = handles_of(r->fn);
	for (int k = 0; hs[k] && k < r->nv; k++)
		if ((hs[k] == 'c' && tab_grow(&rd->comm, &rd->ncomm, v[k])) ||
		    (hs[k] == 'g' && tab_grow(&rd->group, &rd->ngroup, v[k])))
			return -1;
	if (r->nv < (int)strlen(hs))
		return 0;
	struct mlist *g = rd->group, *c = rd->comm;
	int32_t n;
	switch (r->fn) {
	case F_COMM_GROUP:
		if (c[(uint16_t)v[0]].known)
			ml_set(rd, &g[(uint16_t)v[1]], c[(uint16_t)v[0]].v, c[(uint16_t)v[0]].n);
		else
			ml_clear(&g[(uint16_t)v[1]]);
		return 0;
	case F_GROUP_UNION: case F_GROUP_INTERSECTION: case F_GROUP_DIFFERENCE:
		if (g[(uint16_t)v[0]].known && g[(uint16_t)v[1]].known) {
			n = group_setop(rd, r->fn, &g[(uint16_t)v[0]], &g[(uint16_t)v[1]]);
			ml_set(rd, &g[(uint16_t)v[2]], rd->tmp, n);
		} else {
			ml_clear(&g[(uint16_t)v[2]]);
		}
		return 0;
	case F_GROUP_INCL: case F_GROUP_EXCL:
		n = g[(uint16_t)v[0]].known && r->na == 1 ?
		    group_select(rd, r->fn == F_GROUP_INCL, &g[(uint16_t)v[0]], &r->a[0]) : -1;
		if (n >= 0)
			ml_set(rd, &g[(uint16_t)v[2]], rd->tmp, n);
		else
			ml_clear(&g[(uint16_t)v[2]]);
		return 0;
	case F_GROUP_RANGE_INCL: case F_GROUP_RANGE_EXCL:
		ml_clear(&g[(uint16_t)v[2]]);  /* ranges are not followed */
		return 0;
	case F_GROUP_FREE:
		if (v[0] > GROUP_EMPTY)
			ml_clear(&g[(uint16_t)v[0]]);
		return 0;
	case F_COMM_DUP:
		if (v[1] != COMM_NULL && c[(uint16_t)v[0]].known)
			ml_set(rd, &c[(uint16_t)v[1]], c[(uint16_t)v[0]].v, c[(uint16_t)v[0]].n);
		else
			ml_clear(&c[(uint16_t)v[1]]);
		return v[1] == COMM_NULL ? 0 : commdef(rd, recno, v[1], &c[(uint16_t)v[1]]);
	case F_COMM_CREATE:
		if (v[2] != COMM_NULL && g[(uint16_t)v[1]].known)
			ml_set(rd, &c[(uint16_t)v[2]], g[(uint16_t)v[1]].v, g[(uint16_t)v[1]].n);
		else
			ml_clear(&c[(uint16_t)v[2]]);
		return v[2] == COMM_NULL ? 0 : commdef(rd, recno, v[2], &c[(uint16_t)v[2]]);
	case F_COMM_SPLIT:
		if (c[(uint16_t)v[0]].known && c[(uint16_t)v[0]].me >= 0)
			comm_split(rd, &c[(uint16_t)v[3]], &c[(uint16_t)v[0]], (int32_t)v[1], (int32_t)v[2]);
		else
			ml_clear(&c[(uint16_t)v[3]]);
		return v[3] == COMM_NULL ? 0 : commdef(rd, recno, v[3], &c[(uint16_t)v[3]]);
	case F_COMM_FREE:
		if (v[0] > COMM_SELF)
			ml_clear(&c[(uint16_t)v[0]]);
		return 0;
	case F_CART_CREATE:
		if (v[3] != COMM_NULL && c[(uint16_t)v[0]].known && r->na == 2)
			cart_create(rd, &c[(uint16_t)v[3]], &c[(uint16_t)v[0]], &r->a[0]);
		else
			ml_clear(&c[(uint16_t)v[3]]);
		return v[3] == COMM_NULL ? 0 : commdef(rd, recno, v[3], &c[(uint16_t)v[3]]);
	case F_CART_SUB:
		if (v[2] != COMM_NULL && c[(uint16_t)v[1]].known && r->na == 1)
			cart_sub(rd, &c[(uint16_t)v[2]], &c[(uint16_t)v[1]], &r->a[0]);
		else
			ml_clear(&c[(uint16_t)v[2]]);
		return v[2] == COMM_NULL ? 0 : commdef(rd, recno, v[2], &c[(uint16_t)v[2]]);
	default:
		return 0;
	}
}

/* The arguments of point-to-point call c (record r, of kind k). */
static void p2p_args(struct rd *rd, struct tr_call *c, const struct drec *r, enum tr_kind k)
{
	const int64_t *v = r->v;
	struct dfile *f = rd->f;
	switch (k) {
	case TR_SEND: case TR_BSEND: case TR_SSEND: case TR_RSEND:
	case TR_RECV:
	case TR_ISEND: case TR_IBSEND: case TR_ISSEND: case TR_IRSEND: case TR_IRECV: {
		int recv = k == TR_RECV || k == TR_IRECV;
		c->bytes = v[0] * type_size(f, v[1]);
		c->peer = peer_of(v[2], recv);
		c->tag = (int32_t)v[3];
		set_comm(rd, c, v[4]);
		if (k == TR_RECV)
			put_status(rd, c, r, c->tag);
		else if (k != TR_SEND && k != TR_BSEND && k != TR_SSEND && k != TR_RSEND)
			c->req = req_of(v[5]);
		return;
	}
	case TR_SENDRECV:
		c->bytes = v[0] * type_size(f, v[1]);
		c->peer = peer_of(v[2], 0);
		c->tag = (int32_t)v[3];
		c->rbytes = v[4] * type_size(f, v[5]);
		c->rpeer = peer_of(v[6], 1);
		c->rtag = (int32_t)v[7];
		set_comm(rd, c, v[8]);
		put_status(rd, c, r, c->rtag);
		return;
	case TR_SENDRECV_REPLACE:
		c->bytes = c->rbytes = v[0] * type_size(f, v[1]);
		c->peer = peer_of(v[2], 0);
		c->tag = (int32_t)v[3];
		c->rpeer = peer_of(v[4], 1);
		c->rtag = (int32_t)v[5];
		set_comm(rd, c, v[6]);
		put_status(rd, c, r, c->rtag);
		return;
	case TR_PROBE: case TR_IPROBE:
		c->peer = peer_of(v[0], 1);
		c->tag = (int32_t)v[1];
		set_comm(rd, c, v[2]);
		return;
	default:
		return;
	}
}

/* The arguments of completion call i (record r, of kind k). */
static int completion_args(struct rd *rd, size_t i, const struct drec *r, enum tr_kind k)
{
	const int64_t *v = r->v;
	struct dfile *f = rd->f;
	struct tr_call *c = &rd->b->t->calls[i];
	switch (k) {
	case TR_WAIT:
		c->req = req_of(v[0]);
		put_status(rd, c, r, TR_ANY_TAG);
		return 0;
	case TR_TEST:
		c->req = req_of(v[0]);
		c->flag = (int32_t)v[1];
		put_status(rd, c, r, TR_ANY_TAG);
		return 0;
	case TR_WAITANY: case TR_TESTANY:
		c->nreq = (int32_t)v[0];
		c->index = (int32_t)v[1];
		if (k == TR_TESTANY)
			c->flag = (int32_t)v[2];
		put_status(rd, c, r, TR_ANY_TAG);
		return put_reqs(rd, i, r, 0);
	case TR_WAITALL: case TR_TESTALL:
		c->nreq = (int32_t)v[0];
		if (k == TR_TESTALL)
			c->flag = (int32_t)v[1];
		if (put_reqs(rd, i, r, 0))
			return -1;
		return put_statuses(rd, i, r, r->na ? r->a[0].n : 0);
	case TR_WAITSOME: case TR_TESTSOME: {
		int64_t *ix;
		c->nreq = (int32_t)v[0];
		c->flag = (int32_t)v[1];
		if (put_reqs(rd, i, r, 0))
			return -1;
		if (r->na >= 2) {
			if (tr_build_list(rd->b, i, 1, r->a[1].n, &ix))
				return -1;
			for (uint32_t j = 0; j < r->a[1].n; j++)
				ix[j] = arr_at(f, &r->a[1], j);
		}
		return put_statuses(rd, i, r, r->na >= 2 ? r->a[1].n : 0);
	}
	case TR_REQUEST_FREE: case TR_CANCEL:
		c->req = req_of(v[0]);
		return 0;
	default:
		return 0;
	}
}

/* The arguments of collective call i (record r, of kind k). */
static int coll_args(struct rd *rd, size_t i, const struct drec *r, enum tr_kind k)
{
	const int64_t *v = r->v;
	struct dfile *f = rd->f;
	struct tr_call *c = &rd->b->t->calls[i];
	switch (k) {
	case TR_BARRIER:
		set_comm(rd, c, v[0]);
		return 0;
	case TR_BCAST:
		c->bytes = v[0] * type_size(f, v[1]);
		c->root = (int32_t)v[2];
		set_comm(rd, c, v[3]);
		return 0;
	case TR_REDUCE:
		c->bytes = v[0] * type_size(f, v[1]);
		c->root = (int32_t)v[3];
		set_comm(rd, c, v[4]);
		return 0;
	case TR_ALLREDUCE: case TR_SCAN: case TR_EXSCAN:
		c->bytes = v[0] * type_size(f, v[1]);
		set_comm(rd, c, v[3]);
		return 0;
	case TR_GATHER: case TR_SCATTER:
		/* commrank, count, type, root, comm, [count, type at the root] */
		*(k == TR_GATHER ? &c->bytes : &c->rbytes) = v[1] * type_size(f, v[2]);
		if (r->nv >= 7)
			*(k == TR_GATHER ? &c->rbytes : &c->bytes) = v[5] * type_size(f, v[6]);
		c->root = (int32_t)v[3];
		set_comm(rd, c, v[4]);
		return 0;
	case TR_GATHERV:
		/* commrank, commsize, sendcount, sendtype, root, comm, [recvcounts,
		 * displs at the root], recvtype */
		c->bytes = v[2] * type_size(f, v[3]);
		c->root = (int32_t)v[4];
		set_comm(rd, c, v[5]);
		return r->na == 2 ? put_bytes(rd, i, 1, r, 0, v[6]) : 0;
	case TR_SCATTERV:
		/* commrank, commsize, sendtype, recvcount, recvtype, root, comm,
		 * [sendcounts, displs at the root] */
		c->rbytes = v[3] * type_size(f, v[4]);
		c->root = (int32_t)v[5];
		set_comm(rd, c, v[6]);
		return r->na == 2 ? put_bytes(rd, i, 0, r, 0, v[2]) : 0;
	case TR_ALLGATHER: case TR_ALLTOALL:
		c->bytes = v[0] * type_size(f, v[1]);
		c->rbytes = v[2] * type_size(f, v[3]);
		set_comm(rd, c, v[4]);
		return 0;
	case TR_ALLGATHERV:
		/* commsize, sendcount, sendtype, recvcounts, displs, recvtype, comm */
		c->bytes = v[1] * type_size(f, v[2]);
		set_comm(rd, c, v[4]);
		return put_bytes(rd, i, 1, r, 0, v[3]);
	case TR_ALLTOALLV:
		/* commsize, sendcounts, sdispls, sendtype, recvcounts, rdispls,
		 * recvtype, comm */
		set_comm(rd, c, v[3]);
		if (put_bytes(rd, i, 0, r, 0, v[1]))
			return -1;
		return put_bytes(rd, i, 1, r, 2, v[2]);
	case TR_REDUCE_SCATTER:
		/* commsize, recvcounts, type, op, comm */
		set_comm(rd, c, v[3]);
		return put_bytes(rd, i, 0, r, 0, v[1]);
	default:
		return 0;
	}
}

/* Appends the call of record r. */
static int emit(struct rd *rd, const struct drec *r, uint32_t recno)
{
	const struct dfunc *fn = &dumpi_funcs[r->fn];
	const int64_t *v = r->v;
	struct tr_call *c;
	size_t i;
	if (tr_build_call(rd->b, fn->kind, recno, &i))
		return -1;
	c = &rd->b->t->calls[i];
	if (r->has_time) {
		c->start = r->start;
		c->end = r->end;
	}
	switch (fn->kind) {
	case TR_SEND: case TR_BSEND: case TR_SSEND: case TR_RSEND:
	case TR_RECV:
	case TR_ISEND: case TR_IBSEND: case TR_ISSEND: case TR_IRSEND: case TR_IRECV:
	case TR_SENDRECV: case TR_SENDRECV_REPLACE:
	case TR_PROBE: case TR_IPROBE:
		p2p_args(rd, c, r, fn->kind);
		return 0;
	case TR_WAIT: case TR_TEST: case TR_WAITANY: case TR_TESTANY:
	case TR_WAITALL: case TR_TESTALL: case TR_WAITSOME: case TR_TESTSOME:
	case TR_REQUEST_FREE: case TR_CANCEL:
		return completion_args(rd, i, r, fn->kind);
	case TR_BARRIER: case TR_BCAST: case TR_REDUCE:
	case TR_ALLREDUCE: case TR_SCAN: case TR_EXSCAN:
	case TR_GATHER: case TR_SCATTER: case TR_GATHERV: case TR_SCATTERV:
	case TR_ALLGATHER: case TR_ALLTOALL: case TR_ALLGATHERV: case TR_ALLTOALLV:
	case TR_REDUCE_SCATTER:
		return coll_args(rd, i, r, fn->kind);
	case TR_COMM_DUP:
		set_comm(rd, c, v[0]);
		c->newcomm = (uint64_t)v[1];
		return 0;
	case TR_COMM_CREATE:
		set_comm(rd, c, v[0]);
		c->newcomm = (uint64_t)v[2];
		return 0;
	case TR_COMM_SPLIT:
		set_comm(rd, c, v[0]);
		c->color = (int32_t)v[1];
		c->key = (int32_t)v[2];
		c->newcomm = (uint64_t)v[3];
		return 0;
	case TR_CART_CREATE:
		set_comm(rd, c, v[0]);
		c->newcomm = (uint64_t)v[3];
		return 0;
	case TR_CART_SUB:
		set_comm(rd, c, v[1]);
		c->newcomm = (uint64_t)v[2];
		return 0;
	case TR_COMM_FREE:
		c->newcomm = (uint64_t)v[0];
		return 0;
	case TR_COMM_RANK: case TR_COMM_SIZE: case TR_ABORT:
		set_comm(rd, c, v[0]);
		return 0;
	case TR_OTHER:
		return tr_build_name(rd->b, fn->name, &c->name);
	default:
		return 0;
	}
}

/* One pass over the file of rd: follows communicators, collects split
 * contributions, and, with a builder, appends the calls. */
static int read_stream(struct rd *rd)
{
	struct dfile *f = rd->f;
	struct cur c;
	struct drec r;
	uint32_t recno = 0, calls = 0;
	double bias_cpu, bias_wall;
	dumpi_stream(f, &c, &bias_cpu, &bias_wall);
	rd->tmp = malloc((size_t)rd->size * sizeof *rd->tmp);
	rd->mark = malloc((size_t)rd->size);
	int rc = 0;
	if (!rd->tmp || !rd->mark || tab_grow(&rd->comm, &rd->ncomm, COMM_SELF) ||
	    tab_grow(&rd->group, &rd->ngroup, GROUP_EMPTY)) {
		rc = dumpi_ferr(f, "out of memory");
		goto done;
	}
	for (int q = 0; q < rd->size; q++)
		rd->tmp[q] = q;
	ml_set(rd, &rd->comm[COMM_WORLD], rd->tmp, rd->size);
	rd->tmp[0] = rd->rank;
	ml_set(rd, &rd->comm[COMM_SELF], rd->tmp, 1);
	ml_set(rd, &rd->group[GROUP_EMPTY], rd->tmp, 0);
	if (commdef(rd, 0, COMM_WORLD, &rd->comm[COMM_WORLD]) ||
	    commdef(rd, 0, COMM_SELF, &rd->comm[COMM_SELF])) {
		rc = dumpi_ferr(f, "out of memory");
		goto done;
	}
	for (;;) {
		int got = dumpi_next_record(&c, &r, ++recno, bias_cpu, bias_wall);
		if (got < 0) {
			rc = -1;
			break;
		}
		if (got == 0)
			break;
		if (r.fn >= NFUNCS) {
			if (rd->b && tr_build_skip(rd->b, r.fn == LABEL_FN_ENTER ? "(DUMPI function entry, not MPI)"
			                                       : "(DUMPI function exit, not MPI)", 1))
				rc = dumpi_ferr(f, "out of memory");
		} else {
			calls++;
			if ((rd->b && emit(rd, &r, recno)) || track(rd, &r, recno) || rd->oom)
				rc = dumpi_ferr(f, "out of memory");
		}
		if (rc)
			break;
	}
	if (!rc && calls == 0)
		rc = dumpi_ferr(f, "no MPI call in the trace (an empty or cut file)");
done:
	for (size_t i = 0; i < rd->ntouched; i++)
		ml_clear(rd->touched[i] < 65536 ? &rd->comm[rd->touched[i]]
		                                : &rd->group[rd->touched[i] - 65536]);
	free(rd->touched);
	rd->touched = NULL;
	rd->ntouched = rd->captouched = 0;
	free(rd->comm);
	free(rd->group);
	free(rd->tmp);
	free(rd->mark);
	util_kmap_free(&rd->seq);
	rd->comm = rd->group = NULL;
	rd->ncomm = rd->ngroup = 0;
	rd->tmp = NULL;
	rd->mark = NULL;
	return rc;
}

/* Reads f as rank `rank` of `size` into *t (NULL: a collecting pass). */
static int read_file(struct dfile *f, int rank, int size, const struct splits *known,
                     struct splits *collect, struct tr_trace *t)
{
	struct rd rd;
	struct tr_build b;
	int rc;
	memset(&rd, 0, sizeof rd);
	rd.f = f;
	rd.rank = rank;
	rd.size = size;
	rd.known = known;
	rd.collect = collect;
	if (t) {
		tr_build_init(&b, t, TR_UNIT_RECORD);
		rd.b = &b;
		t->rank = rank;
		t->size = size;
	}
	rc = dumpi_file_open(f);
	if (!rc)
		rc = read_stream(&rd);
	if (t) {
		tr_build_done(&b);
		if (rc)
			tr_free(t);
	}
	return rc;
}

int tr_dumpi_read_mem(const char *fname, const unsigned char *data, size_t len, int rank,
                      int size, struct tr_trace *t, char *err, size_t errlen)
{
	struct dfile f;
	memset(&f, 0, sizeof f);
	f.path = fname;
	f.p = data;
	f.len = len;
	f.err = err;
	f.errlen = errlen;
	if (errlen)
		err[0] = '\0';
	if (size < 1 || rank < 0 || rank >= size) {
		memset(t, 0, sizeof *t);
		return dumpi_ferr(&f, "rank %d of a run of %d ranks", rank, size);
	}
	return read_file(&f, rank, size, NULL, NULL, t);
}

/* ---- The run --------------------------------------------------------------- */

struct tr_dumpi {
	char **paths;
	size_t n;
	struct splits splits;      /* resolved MPI_Comm_split calls */
};

int tr_dumpi_is_meta(const char *path)
{
	size_t n = strlen(path);
	return n > 5 && strcmp(path + n - 5, ".meta") == 0;
}

size_t tr_dumpi_ranks(const struct tr_dumpi *d)
{
	return d->n;
}

const char *tr_dumpi_path(const struct tr_dumpi *d, size_t r)
{
	return d->paths[r];
}

void tr_dumpi_close(struct tr_dumpi *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->n; i++)
		free(d->paths[i]);
	free(d->paths);
	splits_free(&d->splits);
	free(d);
}

/* Loads the file of rank r into f (free f->p). */
static int load(const struct tr_dumpi *d, size_t r, struct dfile *f, char *err, size_t errlen)
{
	char *buf;
	size_t len;
	memset(f, 0, sizeof *f);
	f->path = d->paths[r];
	f->err = err;
	f->errlen = errlen;
	if (util_read_file(d->paths[r], SIZE_MAX, &buf, &len, err, errlen))
		return -1;
	f->own = buf;
	f->p = (const unsigned char *)buf;
	f->len = len;
	return 0;
}

int tr_dumpi_read(struct tr_dumpi *d, size_t r, struct tr_trace *t, char *err, size_t errlen)
{
	struct dfile f;
	int rc;
	memset(t, 0, sizeof *t);
	if (load(d, r, &f, err, errlen))
		return -1;
	rc = read_file(&f, (int)r, (int)d->n, &d->splits, NULL, t);
	free(f.own);
	return rc;
}

/* The passes over all files that resolve MPI_Comm_split: each pass knows
 * the splits the previous one resolved (splits of split communicators need
 * one pass more per level).  Skipped when every file's footer counts no
 * MPI_Comm_split. */
static int resolve_splits(struct tr_dumpi *d, char *err, size_t errlen)
{
	int any = 0;
	for (size_t r = 0; r < d->n && !any; r++) {
		struct dfile f;
		if (load(d, r, &f, err, errlen))
			return -1;
		int rc = dumpi_file_open(&f);
		any = rc || footer_count(&f, F_COMM_SPLIT) != 0;
		free(f.own);
		if (rc)
			return -1;
	}
	if (!any)
		return 0;
	for (int pass = 0; pass < 16; pass++) {
		struct splits cur;
		memset(&cur, 0, sizeof cur);
		for (size_t r = 0; r < d->n; r++) {
			struct dfile f;
			if (load(d, r, &f, err, errlen)) {
				splits_free(&cur);
				return -1;
			}
			int rc = read_file(&f, (int)r, (int)d->n, &d->splits, &cur, NULL);
			free(f.own);
			if (rc) {
				splits_free(&cur);
				return -1;
			}
		}
		size_t before = splits_complete(&d->splits), now = splits_complete(&cur);
		splits_free(&d->splits);
		d->splits = cur;
		if (now <= before)
			break;
	}
	return 0;
}

/* Parses the .meta file: "key=value" lines; numprocs and fileprefix. */
static int read_meta(struct tr_dumpi *d, const char *meta, char *err, size_t errlen)
{
	char *text, prefix[4096] = "";
	size_t len;
	long nprocs = -1;
	unsigned line = 0, nline = 0;
	if (util_read_file(meta, 1 << 20, &text, &len, err, errlen))
		return -1;
	for (char *p = text; p < text + len;) {
		char *nl = memchr(p, '\n', (size_t)(text + len - p)), *e = nl ? nl : text + len;
		char *eq = memchr(p, '=', (size_t)(e - p));
		line++;
		if (e > p && e[-1] == '\r')
			e--;
		if (eq && eq - p == 8 && memcmp(p, "numprocs", 8) == 0) {
			char *end;
			errno = 0;
			nprocs = strtol(eq + 1, &end, 10);
			if (end == eq + 1 || end != e || errno || nprocs < 1 || nprocs > (1L << 24)) {
				snprintf(err, errlen, "%s:%u:10: error: numprocs must be a number of ranks from 1 "
				         "to 16777216", meta, line);
				free(text);
				return -1;
			}
			nline = line;
		} else if (eq && eq - p == 10 && memcmp(p, "fileprefix", 10) == 0) {
			snprintf(prefix, sizeof prefix, "%.*s", (int)(e - eq - 1), eq + 1);
		}
		p = nl ? nl + 1 : text + len;
	}
	free(text);
	if (nprocs < 0 || !prefix[0]) {
		snprintf(err, errlen, "%s: error: not a DUMPI .meta file (no %s line)", meta,
		         nprocs < 0 ? "numprocs=N" : "fileprefix=NAME");
		return -1;
	}
	const char *slash = strrchr(meta, '/');
	int dl = slash ? (int)(slash - meta + 1) : 0;
	d->paths = calloc((size_t)nprocs, sizeof *d->paths);
	if (!d->paths) {
		snprintf(err, errlen, "%s: error: out of memory", meta);
		return -1;
	}
	d->n = (size_t)nprocs;
	for (long r = 0; r < nprocs; r++) {
		size_t pl = (size_t)dl + strlen(prefix) + 32;
		if (!(d->paths[r] = malloc(pl))) {
			snprintf(err, errlen, "%s: error: out of memory", meta);
			return -1;
		}
		snprintf(d->paths[r], pl, "%.*s%s-%04ld.bin", dl, meta, prefix, r);
		FILE *fp = fopen(d->paths[r], "rb");
		if (!fp) {
			snprintf(err, errlen, "%s:%u:1: error: the trace is of a run on %ld ranks, but there "
			         "is no trace of rank %ld: %s: %s", meta, nline, nprocs, r, d->paths[r],
			         strerror(errno));
			return -1;
		}
		fclose(fp);
	}
	return 0;
}

struct tr_dumpi *tr_dumpi_open(const char *meta, char *err, size_t errlen)
{
	struct tr_dumpi *d = calloc(1, sizeof *d);
	if (!d) {
		snprintf(err, errlen, "%s: error: out of memory", meta);
		return NULL;
	}
	if (read_meta(d, meta, err, errlen) || resolve_splits(d, err, errlen)) {
		tr_dumpi_close(d);
		return NULL;
	}
	return d;
}
