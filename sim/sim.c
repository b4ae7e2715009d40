/* sim.c: the LogGOPS simulation core (docs/semantics.md sections 2-5): one
 * event queue ordered by (time, seq), per-rank CPU / NIC free times, receive
 * and unexpected queues as intrusive lists in one pool. */
#include "sim_int.h"

#include "timeline.h"
#include "util.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* ---- Rates ------------------------------------------------------------ */

uint64_t sim_rate_bytes(sim_rate r, uint64_t size)
{
	if (size <= 1 || r.num == 0)
		return 0;
	sim_u128 v = (sim_u128)(size - 1) * r.num;
	if (r.den != 1)
		v = (2 * v + r.den) / (2 * (sim_u128)r.den);
	return v > UINT64_MAX ? UINT64_MAX : (uint64_t)v;
}

void sim_params_default(sim_params *p)
{
	p->L = 2500;
	p->o = 1500;
	p->g = 1000;
	p->S = LOGGP_DEFAULT_S;
	p->G.num = 6;
	p->G.den = 1;
	p->O.num = 0;
	p->O.den = 1;
	p->nranges = 0;
	p->range = NULL;
	p->nstrides = 0;
	p->strides = NULL;
}

/* ---- Pools ------------------------------------------------------------ */

/* Zeroed memory for large arrays, on transparent huge pages where the
 * kernel allows (random access over many MB misses the TLB otherwise).
 * Returns NULL when out of memory. */
void *sim_big_alloc(uint64_t bytes)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
#ifdef MADV_HUGEPAGE
	if (bytes >= (2u << 20))
		madvise(p, bytes, MADV_HUGEPAGE);
#endif
	return p;
}

void sim_big_free(void *p, uint64_t bytes)
{
	if (p)
		munmap(p, bytes);
}

/* Pages are given to a pool POOL_STEP bytes at a time, as its entries
 * come into use: in one call rather than one fault each (a fault costs
 * much more in a virtual machine), and not for the part of a doubling
 * that is never used. */
#define POOL_STEP ((size_t)4 << 20)

/* Room for entry p->used of pool p: the array grown by doubling (mremap
 * keeps the pages) and the next step of pages; 0 or -1. */
static int pool_grow(sim_pool *p)
{
	if (p->used >= p->cap) {
		uint64_t nc = p->cap ? 2ull * p->cap : 4096;
		if (nc > NIL)
			nc = NIL;
		if (nc <= p->cap)
			return -1;
		size_t ob = (size_t)p->cap * p->esz, nb = (size_t)nc * p->esz;
		void *a = p->a ? mremap(p->a, ob, nb, MREMAP_MAYMOVE) : sim_big_alloc(nb);
		if (a == MAP_FAILED || !a)
			return -1;
#ifdef MADV_HUGEPAGE
		if (p->a && nb >= (2u << 20))
			madvise(a, nb, MADV_HUGEPAGE);
#endif
		p->a = a;
		p->cap = (uint32_t)nc;
	}
	/* from the page of the first entry without pages (madvise wants an
	 * aligned start; entries need not end on a page) */
	size_t from = (size_t)p->ready * p->esz & ~(size_t)4095, to = from + POOL_STEP;
	if (to > (size_t)p->cap * p->esz)
		to = (size_t)p->cap * p->esz;
#ifdef MADV_POPULATE_WRITE
	madvise(p->a + from, to - from, MADV_POPULATE_WRITE);
#endif
	p->ready = (uint32_t)(to / p->esz);
	return 0;
}

static inline uint32_t *pool_next(const sim_pool *p, uint32_t i)
{
	return (uint32_t *)(void *)(p->a + (size_t)i * p->esz);
}

/* A free entry of pool p (its contents undefined): its index, or QNIL
 * when out of memory (m->fail set). */
static inline uint32_t pool_take(sim *m, sim_pool *p)
{
	uint32_t i = p->free;
	if (i != QNIL) {
		p->free = *pool_next(p, i);
		return i;
	}
	if (p->used >= p->ready && pool_grow(p)) {
		m->fail = FAIL_MEMORY;
		return QNIL;
	}
	return p->used++;
}

/* Entry i of pool p is free again. */
static inline void pool_put(sim_pool *p, uint32_t i)
{
	*pool_next(p, i) = p->free;
	p->free = i;
}

/* A new entry at the tail of the list (head, tail) of pool p: its index,
 * or QNIL when out of memory (m->fail set). */
static inline uint32_t list_append(sim *m, sim_pool *p, uint32_t *head, uint32_t *tail)
{
	uint32_t i = pool_take(m, p);
	if (i == QNIL)
		return QNIL;
	*pool_next(p, i) = QNIL;
	if (*tail == QNIL)
		*head = i;
	else
		*pool_next(p, *tail) = i;
	*tail = i;
	return i;
}

/* Unlink entry i (whose predecessor is prev, QNIL if none) and free it. */
static void list_remove(sim_pool *p, uint32_t *head, uint32_t *tail, uint32_t prev, uint32_t i)
{
	uint32_t next = *pool_next(p, i);
	if (prev == QNIL)
		*head = next;
	else
		*pool_next(p, prev) = next;
	if (*tail == i)
		*tail = prev;
	pool_put(p, i);
}

/* The slot of key: found, or (insert) a new one with time 0; NULL if
 * absent and not inserting. */
static sim_ovf *ovf_slot(const sim *m, uint64_t key, int insert)
{
	uint64_t h0 = oa_home(key, m->ovf_mask), h = h0;
	while (m->ovf[h].key != key) {
		if (m->ovf[h].key == UINT64_MAX) {
			if (!insert)
				return NULL;
			m->ovf[h].key = key;
			m->ovf[h].t = 0;
			m->ovf[h].who = CPW_NONE;
			break;
		}
		h = (h + 1) & m->ovf_mask;
	}
	ASSERT(oa_probe_ok(h0, h, m->ovf_mask));
	return &m->ovf[h];
}

sim_ovf *sim_ovf_insert(const sim *m, uint64_t key)
{
	return ovf_slot(m, key, 1);
}

/* Per-rank state accessors (see struct sim; rank_of and rank_q are in
 * sim_int.h). */

/* Where CPU or NIC idx (below the record's count) of a rank is among its
 * free times: CPUs, then send NICs, then receive NICs. */
static inline uint64_t res_index(const sim *m, unsigned what, uint32_t idx)
{
	return (what == OVF_CPU ? 0 : what == OVF_NICS ? m->ncpus : m->ncpus + m->nnics) + idx;
}

/* The free time of CPU or NIC idx of rank r (what: OVF_*): in the record
 * below SIM_REC_INDEX, else in the overflow table (filled by sim_create
 * for every pair the schedule uses). */
static inline uint64_t *free_time(const sim *m, uint64_t r, unsigned what, uint32_t idx)
{
	uint32_t lim = what == OVF_CPU ? m->ncpus : m->nnics;
	if (idx < lim)
		return &m->rs[r * m->stride + RANK_WORDS + res_index(m, what, idx)];
	sim_ovf *o = ovf_slot(m, OVF_KEY(r, what, idx), 0);
	ASSERT(o != NULL);   /* ovf_fill saw every pair the schedule uses */
	return &o->t;
}

/* Critical path: the word of what set that free time (see free_time). */
static inline uint64_t *setter(const sim *m, uint64_t r, unsigned what, uint32_t idx)
{
	uint32_t lim = what == OVF_CPU ? m->ncpus : m->nnics;
	if (idx < lim)
		return &m->cps[r * m->nres + res_index(m, what, idx)];
	sim_ovf *o = ovf_slot(m, OVF_KEY(r, what, idx), 0);
	ASSERT(o != NULL);
	return &o->who;
}
static inline uint64_t *cpu_free(const sim *m, uint64_t r, uint32_t c)
{
	return free_time(m, r, OVF_CPU, c);
}
static inline uint64_t *nic_send(const sim *m, uint64_t r, uint32_t n)
{
	return free_time(m, r, OVF_NICS, n);
}
static inline uint64_t *nic_recv(const sim *m, uint64_t r, uint32_t n)
{
	return free_time(m, r, OVF_NICR, n);
}
/* ---- Critical path records ----------------------------------------------- */

/* The setter of whichever of CPU cpu and NIC nic (what: OVF_NICS or
 * OVF_NICR; OVF_CPU: the CPU alone) of rank r became free at t: the CPU on
 * a tie.  CPW_NONE when neither did (a time 0 nothing set). */
static uint64_t cp_busy(const sim *m, uint32_t r, uint32_t cpu, unsigned what, uint32_t nic,
                        uint64_t t)
{
	if (*free_time(m, r, OVF_CPU, cpu) == t && *setter(m, r, OVF_CPU, cpu) != CPW_NONE)
		return *setter(m, r, OVF_CPU, cpu);
	if (what != OVF_CPU && *free_time(m, r, what, nic) == t)
		return *setter(m, r, what, nic);
	return CPW_NONE;
}

static int rdv_word(const void *t, uint64_t i, uint64_t *w)
{
	*w = ((const sim_cprdv *)t)[i].key;
	return *w != UINT64_MAX;
}

/* Where rendezvous send g is in the rdv table, or the empty slot where it
 * would go (the table must exist). */
static sim_cprdv *cp_rdv_probe(const sim *m, uint64_t g)
{
	uint64_t h0 = oa_home(g, m->rdv_mask), h = h0;
	while (m->rdv[h].key != UINT64_MAX && m->rdv[h].key != g)
		h = (h + 1) & m->rdv_mask;
	ASSERT(oa_probe_ok(h0, h, m->rdv_mask));
	return &m->rdv[h];
}

/* The slot of rendezvous send g in the rdv table (inserted if absent);
 * NULL when out of memory (m->fail set). */
static sim_cprdv *cp_rdv(sim *m, uint64_t g)
{
	if (2 * (m->rdv_n + 1) > m->rdv_mask + 1) {
		uint64_t ocap = m->rdv ? m->rdv_mask + 1 : 0, ncap = ocap ? 2 * ocap : 64;
		sim_cprdv *old = m->rdv, *nt = sim_big_alloc(ncap * sizeof *nt);
		if (!nt) {
			m->fail = FAIL_MEMORY;
			return NULL;
		}
		for (uint64_t i = 0; i < ncap; i++)
			nt[i].key = UINT64_MAX;
		m->rdv = nt;
		m->rdv_mask = ncap - 1;
		m->rdv_n = 0;
		ASSERT(!old || oa_probes_ok(oa_measure(old, ocap - 1, rdv_word), ocap - 1));
		for (uint64_t i = 0; i < ocap; i++)
			if (old[i].key != UINT64_MAX)
				*cp_rdv(m, old[i].key) = old[i];
		sim_big_free(old, ocap * sizeof *old);
	}
	sim_cprdv *e = cp_rdv_probe(m, g);
	if (e->key == UINT64_MAX) {
		e->key = g;
		e->w = CPW_NONE;
		m->rdv_n++;
	}
	return e;
}

/* ---- Match statistics ------------------------------------------------- */

/* A search of rank r's RQ or UQ that looked at n entries. */
static inline void qs_search(sim *m, uint32_t r, uint32_t n)
{
	if (m->qs) {
		sim_qs *q = &m->qs[r];
		q->searches++;
		q->searched += n;
		if (n > q->searched_max)
			q->searched_max = n;
	}
}

/* Rank r's RQ (uq 0) or UQ (uq 1) grew (d 1) or shrank (d -1). */
static inline void qs_len(sim *m, uint32_t r, int uq, int d)
{
	if (m->qs) {
		sim_qs *q = &m->qs[r];
		uint32_t *len = uq ? &q->uq_len : &q->rq_len, *mx = uq ? &q->uq_max : &q->rq_max;
		*len = (uint32_t)((int64_t)*len + d);
		if (*len > *mx)
			*mx = *len;
	}
}

/* The comm index of op o: read only when the schedule has comms other
 * than index 0 (the file's reader checked every index). */
static inline uint32_t op_comm(const sim *m, const goal_op *o)
{
	return m->s->ncomms > 1 ? goal_op_comm(o) : 0;
}

static int tags_match(uint32_t src_a, int32_t tag_a, uint32_t src_b, int32_t tag_b)
{
	return (src_a == src_b || src_a == GOAL_ANY_SOURCE || src_b == GOAL_ANY_SOURCE)
	    && (tag_a == tag_b || tag_a == GOAL_ANY_TAG || tag_b == GOAL_ANY_TAG);
}

/* ---- Sequence numbers ---------------------------------------------------- */

/* Renumber the seqs of the queue, of the waiting events and of the armed
 * lists together (their order among each other stays); the first unused
 * seq, or UINT64_MAX when out of memory. */
static __attribute__((cold, noinline)) uint64_t renumber(sim *m)
{
	/* ext: every seq kept outside the queue; a range's seqs after its
	 * first are in implied (they stay consecutive, so the range's second
	 * entry does not change) */
	size_t n = 0, ni = 0, most = (size_t)(m->wnp.used - 1) + 2 * (size_t)(m->wlp.used - 1) + m->nfr;
	for (uint32_t i = 1; i < m->wlp.used; i++)
		if (WL(m, i)->key != UINT64_MAX)
			most += WL(m, i)->n;
	uint32_t **ext = malloc((most ? most : 1) * sizeof *ext);
	uint32_t *implied = malloc((most ? most : 1) * sizeof *implied);
	if (!ext || !implied) {
		free(ext);
		free(implied);
		return UINT64_MAX;
	}
	for (uint32_t i = 1; i < m->wnp.used; i++)
		if (WN(m, i)->e.op != EV_WAKE)
			ext[n++] = &WN(m, i)->e.seq;
	for (uint32_t i = 1; i < m->wlp.used; i++) {
		sim_wlist *L = WL(m, i);
		if (L->key == UINT64_MAX)
			continue;
		if (L->armed)
			ext[n++] = &L->aseq;
		if (L->hc != QNIL)
			ext[n++] = &L->tseq;
		for (uint32_t c = L->hc, k = L->hi; c != QNIL; k = 0) {
			sim_went *e = WC(m, c)->e;
			for (uint32_t end = c == L->tc ? L->ti : WC_N; k < end; k++) {
				ext[n++] = &e[k].seq;
				if (k + 1 < end && e[k + 1].rank == WE_RANGE) {
					for (uint32_t j = 1; j <= e[k + 1].seq; j++) {
						implied[ni] = e[k].seq + j;
						ext[n++] = &implied[ni++];
					}
					k++;
				}
			}
			c = c == L->tc ? QNIL : WC(m, c)->next;
		}
	}
	for (size_t i = 0; i < m->nfr; i++)
		if (m->fr[i].rank != UINT32_MAX)
			ext[n++] = &m->fr[i].seq;
	uint64_t r = evq_renumber(&m->q, (uint32_t)m->seq_floor, ext, n);
	free(ext);
	free(implied);
	return r;
}

/* The next seq (renumbering, out of line, when they run out). */
static inline uint32_t next_seq(sim *m)
{
	if (m->seq >= m->seq_limit) {
		uint64_t n = renumber(m);
		if (n == UINT64_MAX) {
			m->fail = FAIL_MEMORY;
			return 0;
		}
		if (n >= m->seq_limit) {
			m->fail = FAIL_SEQS;
			return 0;
		}
		m->seq = n;
	}
	return (uint32_t)m->seq++;
}

static inline void push_event(sim *m, uint64_t time, uint32_t rank, uint32_t op, uint32_t peer)
{
	evq_node x = { time, next_seq(m), rank, op, peer };
	m->pushes++;
	if (evq_push(&m->q, x))
		m->fail = FAIL_MEMORY;
}

/* ---- Dependencies -------------------------------------------------------- */

static uint64_t dt_hash(const sim *m, uint64_t gop)
{
	return oa_home(gop, m->dt_mask);
}

static int dt_word(const void *t, uint64_t i, uint64_t *w)
{
	*w = ((const sim_dep *)t)[i].gop;
	return *w != UINT64_MAX;
}

static int dt_grow(sim *m)
{
	uint64_t ncap = m->dt ? 2 * (m->dt_mask + 1) : 1024;
	sim_dep *old = m->dt, *nt = sim_big_alloc(ncap * sizeof *nt);
	uint64_t ocap = m->dt ? m->dt_mask + 1 : 0;
	if (!nt)
		return -1;
	for (uint64_t i = 0; i < ncap; i++)
		nt[i].gop = UINT64_MAX;
	ASSERT(!old || oa_probes_ok(oa_measure(old, ocap - 1, dt_word), ocap - 1));
	m->dt = nt;
	m->dt_mask = ncap - 1;
	for (uint64_t i = 0; i < ocap; i++) {
		if (old[i].gop == UINT64_MAX)
			continue;
		uint64_t h = dt_hash(m, old[i].gop);
		while (nt[h].gop != UINT64_MAX)
			h = (h + 1) & m->dt_mask;
		nt[h] = old[i];
	}
	sim_big_free(old, ocap * sizeof *old);
	return 0;
}

/* Remove slot h by shifting later entries of its probe run back. */
static void dt_delete(sim *m, uint64_t h)
{
	uint64_t j = h, h0 = h;
	for (;;) {
		j = (j + 1) & m->dt_mask;
		if (m->dt[j].gop == UINT64_MAX)
			break;
		if (oa_stays(h, j, dt_hash(m, m->dt[j].gop)))
			continue;
		m->dt[h] = m->dt[j];
		h = j;
	}
	ASSERT(oa_probe_ok(h0, j, m->dt_mask));
	m->dt[h].gop = UINT64_MAX;
	m->dt_n--;
}

/* The table slot of key, inserted (cnt 0, maxt 0) if absent; NULL when out
 * of memory (m->fail set). */
static sim_dep *dt_get(sim *m, uint64_t key)
{
	if (!m->dt || 2 * (m->dt_n + 1) > m->dt_mask + 1) {
		if (dt_grow(m)) {
			m->fail = FAIL_MEMORY;
			return NULL;
		}
	}
	uint64_t h0 = dt_hash(m, key), h = h0;
	while (m->dt[h].gop != UINT64_MAX && m->dt[h].gop != key)
		h = (h + 1) & m->dt_mask;
	ASSERT(oa_probe_ok(h0, h, m->dt_mask));
	sim_dep *d = &m->dt[h];
	if (d->gop == UINT64_MAX) {
		d->gop = key;
		d->maxt = 0;
		d->cnt = 0;
		m->dt_n++;
	}
	return d;
}

/* The table slot of key, or NULL when absent. */
static sim_dep *dt_find(const sim *m, uint64_t key)
{
	if (!m->dt)
		return NULL;
	uint64_t h0 = dt_hash(m, key), h = h0;
	while (m->dt[h].gop != UINT64_MAX && m->dt[h].gop != key)
		h = (h + 1) & m->dt_mask;
	ASSERT(oa_probe_ok(h0, h, m->dt_mask));
	return m->dt[h].gop == key ? &m->dt[h] : NULL;
}

/* ---- Queues ---------------------------------------------------------------
 * A rank's RQ lists its posted receives in posting order, its UQ the
 * messages handled before their receive was posted, in arrival order; a
 * message takes the first receive that matches, a receive the first
 * message.  Searched first to last, a queue costs P^2 when a rank takes
 * P entries in another order than they came: a root that takes its
 * children's messages from rank P - 1 down (Open MPI's linear reduce), or
 * receives posted from every rank, their messages arriving in reverse.  So
 * a search from one source that looked at more than q_index_after entries
 * indexes that queue of its rank until it is empty: each entry is also
 * chained with the others of its source in order, from the dependency-table
 * entry QS_KEY(rq, rank, source), and a search from one source reads its
 * chain.  An indexed RQ moves to a pool of its own (sim_rqx), one receive
 * an entry; its receives from any source have a chain of their own, and
 * the entries are numbered in posting order, so that a message takes the
 * earlier of the first match in its source's chain and the first in that
 * one.  A receive from any source reads the UQ first to last.  The first
 * match in a chain is the first in the queue: the index changes what a
 * search costs, never what it finds.  Indexed RQs and all UQs are doubly
 * linked, so that an entry found through its chain is unlinked in O(1);
 * RQs that are not stay as they were, 12 bytes for a run of receives. */
#define SNEXT(p, i) ((uint32_t *)(void *)((p)->a + (size_t)(i) * (p)->esz + 8))
#define PREV(p, i) ((uint32_t *)(void *)((p)->a + (size_t)(i) * (p)->esz + 4))

/* Mark it indexed (on 1) or not; -1 when out of memory (m->fail set). */
static int q_set_indexed(sim *m, int rq, uint32_t r, int on)
{
	uint64_t b = q_bit(rq, r);
	if (!m->qix && !(m->qix = sim_big_alloc(q_bytes(m)))) {
		m->fail = FAIL_MEMORY;
		return -1;
	}
	if (on)
		m->qix[b / 64] |= 1ull << (b % 64);
	else
		m->qix[b / 64] &= ~(1ull << (b % 64));
	return 0;
}

/* Entry k of pool p (taken) at the tail of the list (head, tail). */
static void dlist_link(sim_pool *p, uint32_t *head, uint32_t *tail, uint32_t k)
{
	*pool_next(p, k) = QNIL;
	*PREV(p, k) = *tail;
	if (*tail == QNIL)
		*head = k;
	else
		*pool_next(p, *tail) = k;
	*tail = k;
}

/* Unlink entry i from the list (head, tail) of pool p and free it. */
static void dlist_remove(sim_pool *p, uint32_t *head, uint32_t *tail, uint32_t i)
{
	uint32_t next = *pool_next(p, i), prev = *PREV(p, i);
	if (prev == QNIL)
		*head = next;
	else
		*pool_next(p, prev) = next;
	if (next == QNIL)
		*tail = prev;
	else
		*PREV(p, next) = prev;
	pool_put(p, i);
}

/* Entry k of pool p at the end of the chain of key; -1 when out of memory
 * (m->fail set). */
static int chain_append(sim *m, sim_pool *p, uint64_t key, uint32_t k)
{
	sim_dep *d = dt_get(m, key);
	if (!d)
		return -1;
	*SNEXT(p, k) = QNIL;
	if (d->cnt == QNIL)
		d->cnt = k;
	else
		*SNEXT(p, d->who) = k;
	d->who = k;
	return 0;
}

/* Unlink entry i (after sprev, QNIL: first) of pool p from the chain of
 * key, deleted when empty unless keep. */
static void chain_remove(sim *m, sim_pool *p, uint64_t key, uint32_t i, uint32_t sprev, int keep)
{
	sim_dep *d = dt_find(m, key);
	ASSERT(d);
	if (sprev == QNIL)
		d->cnt = *SNEXT(p, i);
	else
		*SNEXT(p, sprev) = *SNEXT(p, i);
	if (d->who == i)
		d->who = sprev;
	if (d->cnt == QNIL && !keep)
		dt_delete(m, (uint64_t)(d - m->dt));
}

/* The predecessor of entry i in the chain of key. */
static uint32_t chain_prev(const sim *m, const sim_pool *p, uint64_t key, uint32_t i)
{
	uint32_t prev = QNIL;
	for (uint32_t k = dt_find(m, key)->cnt; k != i; k = *SNEXT(p, k))
		prev = k;
	return prev;
}

/* -- The RQ -- */

/* Indexed recv k of rank r (its op set) at the end of its list (head,
 * tail) and of its source's chain, numbered by the any-source chain's
 * entry (made at the first, with maxt 0); -1 when out of memory. */
static int rq_link(sim *m, uint32_t r, uint32_t *head, uint32_t *tail, uint32_t k)
{
	dlist_link(&m->rxp, head, tail, k);
	sim_dep *any = dt_get(m, QS_KEY(1, r, GOAL_ANY_SOURCE));
	if (!any)
		return -1;
	RXE(m, k)->post = (uint32_t)any->maxt++;
	return chain_append(m, &m->rxp, QS_KEY(1, r, rank_ops(m, r)[RXE(m, k)->op].peer), k);
}

/* Index rank r's RQ (queues h): its recvs move to the pool of indexed
 * recvs, one an entry, each chained. */
static void rq_index(sim *m, uint32_t r, sim_rq *h)
{
	if (q_set_indexed(m, 1, r, 1))
		return;
	uint32_t head = QNIL, tail = QNIL;
	for (uint32_t i = h->rq_head, next; i != QNIL; i = next) {
		sim_rqe *e = RQE(m, i);
		for (uint32_t k = 0, op = e->op; k < e->n; k++, op += e->d) {
			uint32_t j = pool_take(m, &m->rxp);
			if (j == QNIL)
				return;
			RXE(m, j)->op = op;
			if (rq_link(m, r, &head, &tail, j))
				return;
			e = RQE(m, i);
		}
		next = e->next;
		pool_put(&m->rqp, i);
	}
	h->rq_head = head;
	h->rq_tail = tail;
}

/* Recv i of rank r (queues h) posted: at the end of the RQ's last entry if
 * it continues it, else in a new one. */
static void rq_post(sim *m, sim_rq *h, uint32_t r, uint32_t i)
{
	qs_len(m, r, 0, 1);
	if (q_indexed(m, 1, r)) {
		uint32_t k = pool_take(m, &m->rxp);
		if (k != QNIL) {
			RXE(m, k)->op = i;
			rq_link(m, r, &h->rq_head, &h->rq_tail, k);
		}
		return;
	}
	if (h->rq_tail != QNIL) {
		sim_rqe *t = RQE(m, h->rq_tail);
		uint32_t last = t->op + (t->n - 1u) * t->d;
		if (i > last && t->n < UINT16_MAX && i - last <= UINT16_MAX && (t->n == 1 || i - last == t->d)) {
			t->d = (uint16_t)(i - last);
			t->n++;
			return;
		}
	}
	uint32_t k = list_append(m, &m->rqp, &h->rq_head, &h->rq_tail);
	if (k != QNIL) {
		sim_rqe *e = RQE(m, k);
		e->op = i;
		e->n = 1;
		e->d = 0;
	}
}

/* The recvs of RQ entry i of queues h after its k-th into a new entry
 * after it (so that the k-th can be taken): the new entry, or QNIL when
 * out of memory (m->fail set). */
static uint32_t rq_split(sim *m, sim_rq *h, uint32_t i, uint32_t k)
{
	uint32_t j = pool_take(m, &m->rqp);
	if (j == QNIL)
		return QNIL;
	sim_rqe *e = RQE(m, i), *f = RQE(m, j);
	f->next = e->next;
	f->op = e->op + (k + 1) * e->d;
	f->n = (uint16_t)(e->n - k - 1);
	f->d = e->d;
	e->next = j;
	if (h->rq_tail == i)
		h->rq_tail = j;
	return j;
}

/* Whether recv op r matches a message (srel: its source as the recv
 * stores it, tag, comm index). */
static inline int rq_matches(const sim *m, const goal_op *r, uint32_t srel, int32_t tag, uint32_t comm)
{
	return tags_match(r->peer, r->tag, srel, tag) && op_comm(m, r) == comm;
}

/* The first recv in rank q's chain of key that matches, and its
 * predecessor there; *n counts the recvs looked at. */
static uint32_t rq_chain_find(const sim *m, uint32_t q, uint64_t key, uint32_t srel, int32_t tag,
                              uint32_t comm, uint32_t *sprev, uint32_t *n)
{
	const sim_dep *d = dt_find(m, key);
	const goal_op *ops = rank_ops(m, q);
	*sprev = QNIL;
	for (uint32_t i = d ? d->cnt : QNIL; i != QNIL; *sprev = i, i = RXE(m, i)->snext) {
		++*n;
		if (rq_matches(m, &ops[RXE(m, i)->op], srel, tag, comm))
			return i;
	}
	return QNIL;
}

/* rq_take of an indexed RQ (queues h): the earlier of the first match from
 * the source and the first from any source. */
static uint32_t rq_take_indexed(sim *m, uint32_t q, sim_rq *h, uint32_t srel, int32_t tag, uint32_t comm)
{
	uint32_t n = 0, pa, pb;
	uint32_t a = rq_chain_find(m, q, QS_KEY(1, q, srel), srel, tag, comm, &pa, &n);
	uint32_t b = rq_chain_find(m, q, QS_KEY(1, q, GOAL_ANY_SOURCE), srel, tag, comm, &pb, &n);
	qs_search(m, q, n);
	if (a == QNIL && b == QNIL)
		return UINT32_MAX;
	if (a == QNIL || (b != QNIL && RXE(m, b)->post < RXE(m, a)->post)) {
		a = b;
		pa = pb;
	}
	uint32_t op = RXE(m, a)->op, peer = rank_ops(m, q)[op].peer;
	chain_remove(m, &m->rxp, QS_KEY(1, q, peer), a, pa, peer == GOAL_ANY_SOURCE);
	dlist_remove(&m->rxp, &h->rq_head, &h->rq_tail, a);
	if (h->rq_head == QNIL) {   /* empty: no chain is left but the any-source one */
		dt_delete(m, (uint64_t)(dt_find(m, QS_KEY(1, q, GOAL_ANY_SOURCE)) - m->dt));
		q_set_indexed(m, 1, q, 0);
	}
	qs_len(m, q, 0, -1);
	return op;
}

/* A search of rank q's RQ (queues h, not indexed) looked at n recvs. */
static void rq_searched(sim *m, uint32_t q, sim_rq *h, uint32_t n)
{
	qs_search(m, q, n);
	if (n > m->q_index_after && h->rq_head != QNIL)
		rq_index(m, q, h);
}

/* The first posted recv of rank q matching a message (src, tag, comm
 * index): its op index, removed from the RQ; or UINT32_MAX. */
static uint32_t rq_take(sim *m, uint32_t q, uint32_t src, int32_t tag, uint32_t comm)
{
	sim_rq *h = rank_q(m, q);
	const goal_op *ops = rank_ops(m, q);
	/* src as q's receives store it: compared to each without decoding */
	uint32_t srel = m->s->rel_peers ? goal_peer_rel(m->nranks, q, src) : src;
	if (q_indexed(m, 1, q))
		return rq_take_indexed(m, q, h, srel, tag, comm);
	uint32_t prev = QNIL, n = 0;
	for (uint32_t i = h->rq_head; i != QNIL; prev = i, i = RQE(m, i)->next) {
		sim_rqe *e = RQE(m, i);
		for (uint32_t k = 0, op = e->op; k < e->n; k++, op += e->d) {
			n++;
			if (!rq_matches(m, &ops[op], srel, tag, comm))
				continue;
			if (e->n == 1) {
				list_remove(&m->rqp, &h->rq_head, &h->rq_tail, prev, i);
			} else if (k == 0) {
				e->op += e->d;
				e->n--;
			} else {   /* the entry keeps the k before; those after move on */
				if (k + 1u < e->n && rq_split(m, h, i, k) == QNIL)
					return UINT32_MAX;
				RQE(m, i)->n = (uint16_t)k;
			}
			qs_len(m, q, 0, -1);
			rq_searched(m, q, h, n);
			return op;
		}
	}
	rq_searched(m, q, h, n);
	return UINT32_MAX;
}

/* The op of rank r's first posted recv (its RQ not empty). */
static inline uint32_t rq_first(const sim *m, uint32_t r, const sim_rq *h)
{
	return q_indexed(m, 1, r) ? RXE(m, h->rq_head)->op : RQE(m, h->rq_head)->op;
}

/* -- The UQ -- */

/* Index rank r's UQ: chain its entries by sender. */
static void uq_index(sim *m, uint32_t r)
{
	if (q_set_indexed(m, 0, r, 1))
		return;
	for (uint32_t k = rank_q(m, r)->uq_head; k != QNIL; k = UQE(m, k)->next)
		if (chain_append(m, &m->uqp, QS_KEY(0, r, UQE(m, k)->peer), k))
			return;
}

/* A message (sender rank peer, its send j with tag, started at start) at
 * the end of rank q's UQ. */
static void uq_add(sim *m, uint32_t q, uint32_t peer, int32_t tag, uint32_t j, uint64_t start)
{
	sim_rq *h = rank_q(m, q);
	uint32_t k = pool_take(m, &m->uqp);
	if (k == QNIL)
		return;
	sim_uqe *e = UQE(m, k);
	e->peer = peer;
	e->tag = tag;
	e->op = j;
	e->aux = start;
	dlist_link(&m->uqp, &h->uq_head, &h->uq_tail, k);
	qs_len(m, q, 1, 1);
	if (q_indexed(m, 0, q))
		chain_append(m, &m->uqp, QS_KEY(0, q, peer), k);
}

/* Whether UQ entry e matches a recv (src, tag, comm index). */
static inline int uq_matches(const sim *m, const sim_uqe *e, uint32_t src, int32_t tag, uint32_t comm)
{
	return tags_match(e->peer, e->tag, src, tag)
	    && (m->s->ncomms > 1 ? goal_op_comm(&rank_ops(m, e->peer)[e->op]) == comm : 1);
}

/* The first handled message of rank r matching a recv (src, tag, comm
 * index): copied to *out and removed from the UQ; returns 1, or 0 if none. */
static int uq_take(sim *m, uint32_t r, uint32_t src, int32_t tag, uint32_t comm, sim_uqe *out)
{
	sim_rq *h = rank_q(m, r);
	int ix = q_indexed(m, 0, r);
	uint32_t n = 0, found = QNIL, sprev = QNIL;
	if (ix && src != GOAL_ANY_SOURCE) {
		const sim_dep *d = dt_find(m, QS_KEY(0, r, src));
		for (uint32_t i = d ? d->cnt : QNIL; i != QNIL; sprev = i, i = UQE(m, i)->snext) {
			n++;
			if (uq_matches(m, UQE(m, i), src, tag, comm)) {
				found = i;
				break;
			}
		}
	} else {
		for (uint32_t i = h->uq_head; i != QNIL; i = UQE(m, i)->next) {
			n++;
			if (uq_matches(m, UQE(m, i), src, tag, comm)) {
				found = i;
				break;
			}
		}
		if (found != QNIL && ix)
			sprev = chain_prev(m, &m->uqp, QS_KEY(0, r, UQE(m, found)->peer), found);
	}
	qs_search(m, r, n);
	if (found != QNIL) {
		*out = *UQE(m, found);
		if (ix)
			chain_remove(m, &m->uqp, QS_KEY(0, r, out->peer), found, sprev, 0);
		dlist_remove(&m->uqp, &h->uq_head, &h->uq_tail, found);
		if (ix && h->uq_head == QNIL)
			q_set_indexed(m, 0, r, 0);
		qs_len(m, r, 1, -1);
	}
	if (!ix && n > m->q_index_after && src != GOAL_ANY_SOURCE && h->uq_head != QNIL)
		uq_index(m, r);
	return found != QNIL;
}

/* Rendezvous send i of rank r started at t: its start waits for its
 * message (m->fail set when out of memory). */
static void rdv_put(sim *m, uint32_t r, uint32_t i, uint64_t t)
{
	if (!m->rdvs && !(m->rdvs = sim_big_alloc((m->nranks ? m->nranks : 1) * sizeof *m->rdvs))) {
		m->fail = FAIL_MEMORY;
		return;
	}
	sim_rdvs *e = &m->rdvs[r];
	if (!e->op1) {
		e->start = t;
		e->op1 = (uint64_t)i + 1;
		return;
	}
	sim_dep *d = dt_get(m, RDV_KEY(r, i));
	if (d)
		d->maxt = t;
}

/* The start of rendezvous send j of rank r, whose message is handled:
 * taken out. */
static uint64_t rdv_take(sim *m, uint32_t r, uint32_t j)
{
	sim_rdvs *e = &m->rdvs[r];
	if (e->op1 == (uint64_t)j + 1) {
		e->op1 = 0;
		return e->start;
	}
	sim_dep *d = dt_find(m, RDV_KEY(r, j));
	if (!d)
		return 0;   /* out of memory when it was put (m->fail) */
	uint64_t start = d->maxt;
	dt_delete(m, (uint64_t)(d - m->dt));
	return start;
}

static inline __attribute__((always_inline)) void
release_op(sim *m, uint32_t r, uint32_t a, uint64_t time, uint32_t who)
{
	if (util_grow(&m->rel, &m->rel_cap, m->rel_n + 1, sizeof *m->rel)) {
		m->fail = FAIL_MEMORY;
		return;
	}
	m->rel[m->rel_n].rank = r;
	m->rel[m->rel_n].op = a;
	m->rel[m->rel_n].time = time;
	m->rel[m->rel_n].who = who;
	m->rel_n++;
	if (m->cpr)   /* queue_released may write its record */
		PREFETCH(cp_rec(m, gop_of(m, r, a)));
}

/* The dependency of op a of rank r on op who is satisfied at time; release
 * a when it was the last (at the latest satisfaction time among its
 * dependencies, by the first dependency satisfied then). */
static __attribute__((noinline)) void satisfy(sim *m, uint32_t r, const goal_op *ops, uint32_t a,
                                              uint64_t time, uint32_t who)
{
	uint32_t nd = ops[a].ndeps;
	if (nd == 1) {
		release_op(m, r, a, time, who);
		return;
	}
	sim_dep *d = dt_get(m, rank_of(m, r)->first_op + a);
	if (!d)
		return;
	ASSERT(d->cnt < nd);
	if (d->cnt == 0 || time > d->maxt) {
		d->maxt = time;
		d->who = who;
	}
	if (++d->cnt == nd) {
		uint64_t t = d->maxt;
		uint32_t w = d->who;
		dt_delete(m, (uint64_t)(d - m->dt));
		release_op(m, r, a, t, w);
	}
}

/* The dependents of op i of rank r (its edges x) whose edge is irequires
 * (ireq 1) or requires (ireq 0), in the order of their dependency lines,
 * at time.  Inline in its callers, satisfy out of line: most calls find no
 * edge of their kind, and a call paid a full prologue for that. */
static inline __attribute__((always_inline)) void
satisfy_span(sim *m, uint32_t r, const goal_op *ops, edge_span x, uint32_t i, uint64_t time,
             int ireq)
{
	for (uint32_t j = x.b; j < x.end; j++)
		if (!!(x.e[j] & GOAL_EDGE_IREQ) == ireq)
			satisfy(m, r, ops, GOAL_EDGE_OP(x.e[j]), time, i);
}

static inline __attribute__((always_inline)) void
satisfy_edges(sim *m, uint32_t r, const goal_op *ops, uint32_t i, uint64_t time, int ireq)
{
	satisfy_span(m, r, ops, op_span(m, r, ops, i), i, time, ireq);
}

/* Queue the released ops: rank by rank, sends, receives, calcs, each in
 * release order, at max(release, cpu_free[c] (, nic_send_free[n])). */
static inline __attribute__((always_inline)) void
queue_released(sim *m, const sim_rel *x, const goal_op *op)
{
	uint64_t t = x->time, c = *cpu_free(m, x->rank, op->cpu);
	uint32_t who = x->who;
	if (c > t)
		t = c;
	if (op->kind == GOAL_SEND && *nic_send(m, x->rank, op->nic) > t)
		t = *nic_send(m, x->rank, op->nic);
	if (t > x->time) {
		who = WHO_DELAYED;
		/* A recv starts at t without looking again: keep what set t now. */
		if (m->cpr)
			cp_put(m, gop_of(m, x->rank, x->op), 0,
			       cp_busy(m, x->rank, op->cpu, op->kind == GOAL_SEND ? OVF_NICS : OVF_CPU,
			               op->nic, t));
	}
	push_event(m, t, x->rank, x->op, who);
}

/* flush_released for two or more released ops. */
static __attribute__((noinline)) void flush_many(sim *m)
{
	/* Usually one rank, its ops released in kind order already (a recv
	 * that releases its sends): that order is the release order. */
	const goal_op *o0 = rank_ops(m, m->rel[0].rank);
	size_t n = 1;
	while (n < m->rel_n && m->rel[n].rank == m->rel[0].rank
	       && o0[m->rel[n].op].kind >= o0[m->rel[n - 1].op].kind)
		n++;
	if (n == m->rel_n) {
		for (n = 0; n < m->rel_n; n++)
			queue_released(m, &m->rel[n], &o0[m->rel[n].op]);
		m->rel_n = 0;
		return;
	}
	uint64_t prev = 0;
	int first = 1;
	for (;;) {
		/* Next rank above prev among the released. */
		uint64_t cur = UINT64_MAX;
		for (size_t k = 0; k < m->rel_n; k++) {
			uint64_t rk = m->rel[k].rank;
			if ((first || rk > prev) && rk < cur)
				cur = rk;
		}
		if (cur == UINT64_MAX)
			break;
		const goal_op *ops = rank_ops(m, cur);
		for (unsigned kind = 0; kind < GOAL_NKINDS; kind++)
			for (size_t k = 0; k < m->rel_n; k++)
				if (m->rel[k].rank == cur && ops[m->rel[k].op].kind == kind)
					queue_released(m, &m->rel[k], &ops[m->rel[k].op]);
		prev = cur;
		first = 0;
	}
	m->rel_n = 0;
}

/* Queue the ops released by the current event (usually one: inline). */
static inline void flush_released(sim *m)
{
	if (m->rel_n == 1) {
		queue_released(m, &m->rel[0], &rank_ops(m, m->rel[0].rank)[m->rel[0].op]);
		m->rel_n = 0;
	} else if (m->rel_n) {
		flush_many(m);
	}
}

/* Op i of rank r starts: once. */
static void mark_started(sim *m, uint32_t r, uint32_t i)
{
	uint64_t g = rank_of(m, r)->first_op + i;
	ASSERT(!is_started(m, g));
	m->started[g >> 6] |= 1ull << (g & 63);
	m->ops_started++;
}

/* Op i of rank r completes: once, after it started (checked where
 * GOAL_CHECKS is on; nothing otherwise). */
static inline void mark_done(sim *m, uint32_t r, uint32_t i)
{
#if GOAL_CHECKS
	uint64_t g = rank_of(m, r)->first_op + i;
	ASSERT(is_started(m, g) && !(m->done[g >> 6] >> (g & 63) & 1));
	m->done[g >> 6] |= 1ull << (g & 63);
	m->ops_done++;
#else
	(void)m, (void)r, (void)i;
#endif
}

/* A time of op i of rank r past UINT64_MAX: the run fails (a time that
 * wraps would be a silent wrong answer); returns UINT64_MAX. */
static uint64_t time_fail(sim *m, uint32_t r, uint32_t i)
{
	if (!m->fail) {
		m->fail = FAIL_TIME;
		m->fail_rank = r;
		m->fail_op = i;
	}
	return UINT64_MAX;
}

/* a + b for times of op i of rank r (time_fail past UINT64_MAX). */
static inline uint64_t tadd(sim *m, uint64_t a, uint64_t b, uint32_t r, uint32_t i)
{
	uint64_t t;
	if (__builtin_add_overflow(a, b, &t))
		return time_fail(m, r, i);
	return t;
}

/* ---- Noise and slow ranks (section 9) ------------------------------------ */

/* The slowdown factor of rank r, or NULL when it has none. */
static const num_dec *slow_factor(const sim *m, uint64_t r)
{
	if (!m->pt || !m->pt->nslow)
		return NULL;
	const sim_slow *v = m->pt->slow;
	size_t lo = 0, hi = m->pt->nslow;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid].hi < r)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo == m->pt->nslow || v[lo].lo > r ? NULL : &v[lo].factor;
}

/* x ns of CPU work of rank r, stretched by its slowdown factor; past
 * UINT64_MAX the run fails at op i of rank fr. */
static inline uint64_t slow(sim *m, uint64_t r, uint64_t x, uint32_t fr, uint32_t i)
{
	uint64_t y;
	if (!m->pt || !m->pt->nslow)
		return x;
	const num_dec *f = slow_factor(m, r);
	if (!f)
		return x;
	return sim_slow_apply(*f, x, &y) ? time_fail(m, fr, i) : y;
}

/* Timeline: a detour that took CPU c of rank r during an activity. */
typedef struct detour_ctx {
	sim *m;
	uint32_t r, c;
} detour_ctx;

static void put_detour(void *ctx, uint64_t s, uint64_t e)
{
	const detour_ctx *x = ctx;
	tl_write_interval(x->m->tl, TL_NOISE, x->r, x->c, s, e);
}

/* Where rank r reads the detours (0 without noise): once per event. */
static inline uint64_t noise_off(const sim *m, uint32_t r)
{
	return m->pt && m->pt->noise ? sim_perturb_offset(m->pt, r) : 0;
}

/* cpu_end under noise, out of line (a run without noise never gets here). */
static __attribute__((noinline)) uint64_t noisy_end(sim *m, uint64_t off, uint64_t t, uint64_t d,
                                                    uint32_t fr, uint32_t i)
{
	uint64_t end;
	if (sim_noise_end(m->pt->noise, m->pt->rule, off, t, d, &end))
		return time_fail(m, fr, i);
	return end;
}

/* The end of a CPU activity of d ns that starts at t on a rank reading the
 * detours from off (noise_off); past UINT64_MAX the run fails at op i of
 * rank fr. */
static inline uint64_t cpu_end(sim *m, uint64_t off, uint64_t t, uint64_t d, uint32_t fr, uint32_t i)
{
	if (!m->pt || !m->pt->noise)
		return tadd(m, t, d, fr, i);
	return noisy_end(m, off, t, d, fr, i);
}

/* Timeline: the detours that stretched the activity of d ns that CPU c of
 * rank r ran from t to end (written after the activity's own lines; at
 * most 1000). */
static void put_detours(sim *m, uint64_t off, uint32_t r, uint32_t c, uint64_t t, uint64_t end,
                        uint64_t d)
{
	if (m->pt && m->pt->noise && end - t > d) {
		detour_ctx x = { m, r, c };
		sim_noise_each(m->pt->noise, m->pt->rule, off, t, d, end, 1000,
		               put_detour, &x);
	}
}

/* A CPU's or NIC's free time moves forward only. */
static inline void set_free(uint64_t *f, uint64_t t)
{
	ASSERT(t >= *f);
	*f = t;
}

/* The times of send op i of rank r (op) that starts at t on a rank reading
 * the detours from off; or of the handling from t of its message at its
 * receiver q (handle_times, off the receiver's).  need: the CPU work. */

/* o and L (set to the range's values) plus the middleware costs of send
 * op i's stride (section 10), if it has one: the costs of the largest
 * measured stride at or below it.  Out of line: only a schedule with
 * strides gets here. */
static __attribute__((noinline)) void stride_o_L(sim *m, uint32_t r, const goal_op *op, uint32_t i,
                                                 uint64_t *o, uint64_t *L)
{
	const goal_stride *d = goal_op_stride(m->s, gop_of(m, r, i));
	if (!d || d->stride < m->st[0].stride)
		return;
	uint32_t lo = 0, hi = m->nst;   /* the first stride above d's */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (m->st[mid].stride <= d->stride)
			lo = mid + 1;
		else
			hi = mid;
	}
	const sim_stride *x = &m->st[lo - 1];
	*o = tadd(m, tadd(m, *o, x->o_mw, r, i), sim_rate_bytes(x->O_mw, op->size), r, i);
	*L = tadd(m, tadd(m, *L, x->l_mw, r, i), sim_rate_bytes(x->L_mw, op->size), r, i);
}

/* The o and L of send op i of rank r (op) at its range's (pr) values, plus
 * the middleware costs of its stride when it has one. */
static inline void send_o_L(sim *m, uint32_t r, const goal_op *op, uint32_t i,
                            const sim_range *pr, uint64_t *o, uint64_t *L)
{
	*o = pr->o;
	*L = pr->L;
	if (m->nst)
		stride_o_L(m, r, op, i, o, L);
}

static inline __attribute__((always_inline)) void
send_times(sim *m, uint32_t r, const goal_op *op, uint32_t i, uint64_t off, uint64_t t,
           act_times *x)
{
	const sim_range *pr = range_of(m, op->size);
	uint64_t o, L;
	send_o_L(m, r, op, i, pr, &o, &L);
	o = slow(m, r, o, r, i);
	uint64_t sO = slow(m, r, sim_rate_bytes(pr->O, op->size), r, i);
	uint64_t sG = sim_rate_bytes(pr->G, op->size);
	x->need = tadd(m, o, sO, r, i);
	x->depart = cpu_end(m, off, t, o, r, i);
	x->arrive = tadd(m, x->depart, L, r, i);
	x->cpu = cpu_end(m, off, t, x->need, r, i);
	x->nic = tadd(m, tadd(m, t, pr->g, r, i), sG, r, i);
}

static inline __attribute__((always_inline)) void
handle_times(sim *m, uint32_t r, const goal_op *sop, uint32_t j, uint32_t q, uint64_t off,
             uint64_t t, act_times *x)
{
	const sim_range *pr = range_of(m, sop->size);
	uint64_t o, L;
	send_o_L(m, r, sop, j, pr, &o, &L);
	uint64_t sO = slow(m, q, sim_rate_bytes(pr->O, sop->size), r, j);
	uint64_t sG = sim_rate_bytes(pr->G, sop->size);
	x->need = tadd(m, slow(m, q, o, r, j), sO > sG ? sO : sG, r, j);
	x->cpu = cpu_end(m, off, t, x->need, r, j);
	x->nic = tadd(m, tadd(m, t, pr->g, r, j), sG, r, j);
	x->o = o;
	x->sG = sG;
}

/* The end of calc op i of rank r (op) that starts at t; *need its CPU work. */
static uint64_t calc_end(sim *m, uint32_t r, const goal_op *op, uint32_t i, uint64_t off,
                         uint64_t t, uint64_t *need)
{
	*need = slow(m, r, op->size, r, i);
	return cpu_end(m, off, t, *need, r, i);
}

/* Critical path: free time f of rank r (what, idx) moves to t, set by w. */
static inline void set_free_by(sim *m, uint64_t *f, uint64_t t, uint32_t r, unsigned what,
                               uint32_t idx, uint64_t w)
{
	set_free(f, t);
	if (m->cpr)
		*setter(m, r, what, idx) = w;
}

/* A rendezvous send (op j of rank q, started at start) matched at t; match:
 * the word of what matched it (CPW_MATCH_H, CPW_MATCH_R). */
static void rendezvous_done(sim *m, uint32_t q, const goal_op *ops, uint32_t j,
                            uint64_t start, uint64_t t, uint64_t match)
{
	const goal_op *op = &ops[j];
	act_times x;
	send_times(m, q, op, j, noise_off(m, q), start, &x);
	uint64_t done = x.cpu, g = gop_of(m, q, j);
	uint64_t *cf = cpu_free(m, q, op->cpu);
	uint64_t *nf = nic_send(m, q, op->nic);
	if (m->cpr) {
		sim_cprdv *e = cp_rdv(m, g);
		if (e)
			e->w = done >= t ? CPW(CPW_SELF, 0) : match;
	}
	if (done < t)
		done = t;
	if (*cf < t)
		set_free_by(m, cf, t, q, OVF_CPU, op->cpu, CPW(CPW_RDV, g));
	if (*nf < t)
		set_free_by(m, nf, t, q, OVF_NICS, op->nic, CPW(CPW_RDV, g));
	mark_done(m, q, j);
	satisfy_edges(m, q, ops, j, done, 0);
}

/* ---- Flows (section 11) ---------------------------------------------------- */

/* The latency a message from rank r to rank q adds for the switches on
 * its route. */
static uint64_t hop_lat(const sim *m, uint32_t r, uint32_t q)
{
	uint32_t a = m->host[r], b = m->host[q], links[TOPO_MAX_HOPS];
	return a == b ? 0 : topo_route_lat(m->topo, topo_route(m->topo, a, b, links));
}

/* The message of send j of rank r (sop), handled at t (x), starts its
 * flow: its id, or NIL when it has none (no bytes to move, or both ranks
 * on one host). */
static uint32_t flow_begin(sim *m, uint64_t t, uint32_t r, uint32_t j, const goal_op *sop,
                           const act_times *x)
{
	uint32_t a = m->host[r], b = m->host[goal_op_peer(m->s, r, sop)], links[TOPO_MAX_HOPS];
	if (!x->sG || a == b)
		return NIL;
	unsigned n = topo_route(m->topo, a, b, links);
	double rate = m->rate[range_of(m, sop->size) - m->rg];
	uint32_t id = flow_start(m->fl, t, x->sG, rate, links, n);
	if (id == UINT32_MAX || util_grow(&m->fr, &m->fr_cap, (size_t)id + 1, sizeof *m->fr)) {
		m->fail = FAIL_MEMORY;
		return NIL;
	}
	if (id >= m->nfr)
		m->nfr = (size_t)id + 1;
	sim_flow w = { r, j, NIL, m->cur_seq, x->cpu, x->o, x->sG, 0 };
	m->fr[id] = w;
	return id;
}

/* A link's load for the timeline (flow_net_watch). */
void sim_link_load(void *ctx, uint32_t l, uint64_t t0, uint64_t t, uint32_t n,
                   double bytes)
{
	const sim *m = ctx;
	tl_write_link(m->tl, l, t0, t, n, bytes > 0 ? (uint64_t)(bytes + 0.5) : 0);
}

/* flow_settle moved the end of flow id: its end event. */
static void flow_moved(void *ctx, uint32_t id, uint64_t end)
{
	sim *m = ctx;
	evq_node x = { end, m->fr[id].seq, id, EV_FLOW, flow_gen(m->fl, id) };
	m->pushes++;
	if (evq_push(&m->q, x))
		m->fail = FAIL_MEMORY;
}

/* The ops that require receive i of rank r wait for a flow: one more flow
 * on (on), or a completion at c (!on). */
static void hold_edges(sim *m, uint32_t r, uint32_t i, int on, uint64_t c)
{
	edge_span x = op_span(m, r, rank_ops(m, r), i);
	for (uint32_t j = x.b; j < x.end; j++) {
		if (x.e[j] & GOAL_EDGE_IREQ)
			continue;
		uint64_t n0 = m->dt_n;
		sim_dep *h = dt_get(m, HOLD_KEY(gop_of(m, r, GOAL_EDGE_OP(x.e[j]))));
		if (!h)
			return;
		if (m->dt_n != n0) {   /* a new entry */
			h->who = 0;
			m->nhold++;
		}
		if (on)
			h->cnt++;
		else if (h->maxt < c)
			h->maxt = c;
	}
	if (!on && m->fin[r] < c)
		m->fin[r] = c;
}

/* A flow that held the ops requiring receive i of rank r has ended, and
 * the receive completes at c: those that wait for no other flow go on. */
static void unhold_edges(sim *m, uint32_t r, uint32_t i, uint64_t c)
{
	edge_span es = op_span(m, r, rank_ops(m, r), i);
	if (m->fin[r] < c)
		m->fin[r] = c;
	for (uint32_t j = es.b; j < es.end; j++) {
		if (es.e[j] & GOAL_EDGE_IREQ)
			continue;
		sim_dep *h = dt_find(m, HOLD_KEY(gop_of(m, r, GOAL_EDGE_OP(es.e[j]))));
		if (!h)
			continue;
		h->cnt--;
		if (h->maxt < c)
			h->maxt = c;
		if (h->cnt == 0 && h->who != 0) {
			evq_node x = wn_get(WN(m, h->who), h->maxt > m->now ? h->maxt : m->now);
			WN(m, h->who)->e.op = EV_WAKE;
			pool_put(&m->wnp, h->who);
			h->who = 0;
			m->pushes++;
			if (evq_push(&m->q, x))
				m->fail = FAIL_MEMORY;
		}
	}
}

/* Op i of rank r, its event at (t, cur_seq), requires a receive that a
 * flow completes late: it waits (1), else it may start (0). */
static int held(sim *m, uint64_t t, uint32_t r, uint32_t i, uint32_t who)
{
	sim_dep *h = dt_find(m, HOLD_KEY(gop_of(m, r, i)));
	if (!h)
		return 0;
	evq_node x = { t, m->cur_seq, r, i, who };
	if (h->cnt) {   /* until the flows end */
		uint32_t n = pool_take(m, &m->wnp);
		if (n == QNIL)
			return 1;
		wn_set(WN(m, n), &x);
		h->who = n;
		return 1;
	}
	if (h->maxt > t) {
		x.time = h->maxt;
		m->pushes++;
		if (evq_push(&m->q, x))
			m->fail = FAIL_MEMORY;
		return 1;
	}
	dt_delete(m, (uint64_t)(h - m->dt));
	m->nhold--;
	return 0;
}

/* The end event of flow id (generation gen) at t: nothing if the flow has
 * moved its end since; else the flow ends, and its receive completes (no
 * earlier than done_min), or, with none yet, the message in the UQ keeps
 * t - sG for the receive that takes it. */
static void on_flow(sim *m, uint64_t t, uint32_t id, uint32_t gen)
{
	if (flow_gen(m->fl, id) != gen || flow_end(m->fl, id) != t)
		return;
	m->now = t;
	sim_flow w = m->fr[id];
	flow_finish(m->fl, id, t);
	m->fr[id].rank = UINT32_MAX;
	uint64_t lag = t > w.sG ? t - w.sG : 0;   /* t - sG: the flow's lateness + its start */
	if (w.recv == NIL) {
		sim_dep *d = dt_get(m, FLOW_KEY(w.rank, w.op));
		if (d) {
			d->cnt = 0;
			d->maxt = lag;
		}
		return;
	}
	uint64_t c = w.uq ? lag : tadd(m, t, w.o, w.rank, w.op);
	unhold_edges(m, goal_op_peer(m->s, w.rank, &rank_ops(m, w.rank)[w.op]), w.recv, c > w.done_min ? c : w.done_min);
}

/* ---- Events ------------------------------------------------------------- */

/* Handle the message of send j of rank r at time t.
 * Returns the time to put it back at, or 0 when handled. */
static uint64_t on_message(sim *m, uint64_t t, uint32_t r, uint32_t j)
{
	const goal_op *sops = rank_ops(m, r), *sop = &sops[j];
	uint32_t q = goal_op_peer(m->s, r, sop);
	uint64_t *cf = cpu_free(m, q, sop->cpu);
	uint64_t *nf = nic_recv(m, q, sop->nic);
	uint64_t busy = *cf > *nf ? *cf : *nf;
	if (busy > t) {
		m->wkey = *nf > *cf ? OVF_KEY(q, OVF_NICR, sop->nic) : OVF_KEY(q, OVF_CPU, sop->cpu);
		m->wother = *nf > *cf ? WO(OVF_CPU, sop->cpu) : WO(OVF_NICR, sop->nic);
		return busy;
	}

	uint64_t g = gop_of(m, r, j);
	if (m->cpr) {
		uint64_t w = busy < t ? CPW_NONE : cp_busy(m, q, sop->cpu, OVF_NICR, sop->nic, t);
		cp_put(m, g, 1, w != CPW_NONE ? w : CPW(CPW_ARRIVAL, 0));
	}
	act_times x;
	uint64_t off = noise_off(m, q);
	handle_times(m, r, sop, j, q, off, t, &x);
	set_free_by(m, cf, x.cpu, q, OVF_CPU, sop->cpu, CPW(CPW_HCPU, g));
	set_free_by(m, nf, x.nic, q, OVF_NICR, sop->nic, CPW(CPW_HNIC, g));
	if (m->tl) {
		tl_write_orecv(m->tl, q, sop->cpu, t, x.cpu, r, j);
		tl_write_interval(m->tl, TL_GRECV, q, sop->nic, t, x.nic);
		put_detours(m, off, q, sop->cpu, t, x.cpu, x.need);
	}
	uint64_t start = 0;
	if (sop->size > m->S)
		start = rdv_take(m, r, j);
	uint32_t fid = m->fl ? flow_begin(m, t, r, j, sop, &x) : NIL;
	uint32_t recv = rq_take(m, q, r, sop->tag, op_comm(m, sop));
	if (recv == UINT32_MAX) {
		uq_add(m, q, r, sop->tag, j, start);
		sim_dep *d = fid != NIL ? dt_get(m, FLOW_KEY(r, j)) : NULL;
		if (d) {
			d->cnt = 1;
			d->who = fid;
		}
		return 0;
	}
	if (sop->size > m->S)
		rendezvous_done(m, r, sops, j, start, t, CPW(CPW_MATCH_H, g));
	if (fid != NIL) {   /* what requires the receive waits for the flow */
		m->fr[fid].recv = recv;
		hold_edges(m, q, recv, 1, 0);
	}
	mark_done(m, q, recv);
	if (m->cpr)
		cp_put(m, gop_of(m, q, recv), 1, CPW(CPW_MSG, g));
	satisfy_edges(m, q, rank_ops(m, q), recv, x.cpu, 0);
	flush_released(m);
	return 0;
}

/* Critical path: op i of rank r (op) starts at t, released by its
 * dependency on op who (event word: WHO_*) or, delayed, when its CPU or
 * NIC became free (a recv keeps what queue_released saw). */
static void cp_start(sim *m, uint32_t r, const goal_op *op, uint32_t i, uint64_t t, uint32_t who)
{
	uint64_t w;
	if (!(who & WHO_DELAYED))
		w = who == WHO_ROOT ? CPW(CPW_ROOT, 0) : CPW(CPW_DEP, who);
	else if (op->kind != GOAL_RECV)
		w = cp_busy(m, r, op->cpu, op->kind == GOAL_SEND ? OVF_NICS : OVF_CPU, op->nic, t);
	else
		return;
	cp_put(m, gop_of(m, r, i), 0, w);
}

/* Process op i of rank r at time t (who: its event word).  Returns the
 * put-back time or 0. */
static uint64_t on_op(sim *m, uint64_t t, uint32_t r, uint32_t i, uint32_t who)
{
	if (m->nhold && held(m, t, r, i, who))
		return 0;
	const goal_op *ops = rank_ops(m, r), *op = &ops[i];
	uint64_t *cf = cpu_free(m, r, op->cpu);

	switch ((goal_kind)op->kind) {
	case GOAL_CALC: {
		if (*cf > t) {
			m->wkey = OVF_KEY(r, OVF_CPU, op->cpu);
			m->wother = WO_NONE;
			return *cf;
		}
		if (m->cpr)
			cp_start(m, r, op, i, t, who);
		uint64_t off = noise_off(m, r), d, end = calc_end(m, r, op, i, off, t, &d);
		set_free_by(m, cf, end, r, OVF_CPU, op->cpu, CPW(CPW_OPEND, gop_of(m, r, i)));
		mark_started(m, r, i);
		mark_done(m, r, i);
		if (m->tl) {
			tl_write_interval(m->tl, TL_LOCLOP, r, op->cpu, t, end);
			put_detours(m, off, r, op->cpu, t, end, d);
		}
		edge_span es = op_span(m, r, ops, i);
		satisfy_span(m, r, ops, es, i, t, 1);
		satisfy_span(m, r, ops, es, i, end, 0);
		break;
	}
	case GOAL_SEND: {
		uint64_t *nf = nic_send(m, r, op->nic);
		uint64_t busy = *cf > *nf ? *cf : *nf;
		if (busy > t) {
			m->wkey = *nf > *cf ? OVF_KEY(r, OVF_NICS, op->nic) : OVF_KEY(r, OVF_CPU, op->cpu);
			m->wother = *nf > *cf ? WO(OVF_CPU, op->cpu) : WO(OVF_NICS, op->nic);
			return busy;
		}
		if (m->cpr)
			cp_start(m, r, op, i, t, who);
		act_times x;
		uint64_t off = noise_off(m, r), g = gop_of(m, r, i);
		uint32_t peer = goal_op_peer(m->s, r, op);
		send_times(m, r, op, i, off, t, &x);
		if (m->hoplat)
			x.arrive = tadd(m, x.arrive, hop_lat(m, r, peer), r, i);
		set_free_by(m, cf, x.cpu, r, OVF_CPU, op->cpu, CPW(CPW_OPEND, g));
		set_free_by(m, nf, x.nic, r, OVF_NICS, op->nic, CPW(CPW_OPNIC, g));
		mark_started(m, r, i);
		if (m->tl) {
			tl_write_interval(m->tl, TL_OSEND, r, op->cpu, t, *cf);
			tl_write_interval(m->tl, TL_GSEND, r, op->nic, t, *nf);
			tl_write_transmission(m->tl, r, peer, t, x.depart, x.arrive, op->size, i,
			                      op->cpu, op->nic);
			put_detours(m, off, r, op->cpu, t, *cf, x.need);
		}
		push_event(m, x.arrive, r, i | EV_MSG, peer);
		if (op->size > m->S)
			rdv_put(m, r, i, t);
		m->messages++;
		edge_span es = op_span(m, r, ops, i);
		satisfy_span(m, r, ops, es, i, t, 1);
		if (op->size <= m->S) {
			mark_done(m, r, i);
			satisfy_span(m, r, ops, es, i, *cf, 0);
		}
		break;
	}
	case GOAL_RECV: {
		mark_started(m, r, i);
		if (m->cpr)
			cp_start(m, r, op, i, t, who);
		sim_uqe e;
		int found = uq_take(m, r, goal_op_peer(m->s, r, op), op->tag, op_comm(m, op), &e);
		edge_span es = op_span(m, r, ops, i);
		satisfy_span(m, r, ops, es, i, t, 1);
		if (!found) {
			rq_post(m, rank_q(m, r), r, i);
			break;
		}
		uint32_t q = e.peer, j = e.op;
		uint64_t start = e.aux;
		const goal_op *sops = rank_ops(m, q);
		if (sops[j].size > m->S)
			rendezvous_done(m, q, sops, j, start, t, CPW(CPW_MATCH_R, i));
		sim_dep *d = m->fl ? dt_find(m, FLOW_KEY(q, j)) : NULL;
		if (d) {
			/* Its flow is on (its end completes the receive), or has
			 * ended e - sG (its start plus its lateness) ago. */
			uint64_t lag = d->maxt;
			uint32_t fid = d->who, on = d->cnt;
			dt_delete(m, (uint64_t)(d - m->dt));
			if (on) {
				m->fr[fid].recv = i;
				m->fr[fid].done_min = t;
				m->fr[fid].uq = 1;
				hold_edges(m, r, i, 1, 0);
			} else if (lag > t) {
				hold_edges(m, r, i, 0, lag);
			}
		}
		mark_done(m, r, i);
		if (m->cpr)
			cp_put(m, gop_of(m, r, i), 1, CPW(CPW_SELF, 0));
		satisfy_span(m, r, ops, es, i, t, 0);
		break;
	}
	default:
		break;
	}
	if (m->rel_n)
		flush_released(m);
	return 0;
}

/* Process the event (rank r, event word w, peer word who) at time t.
 * Returns 0, or the time to put it back at (it changed nothing), with the
 * resource it waits for in m->wkey. */
static uint64_t process(sim *m, uint64_t t, uint32_t r, uint32_t w, uint32_t who)
{
	m->now = t;
	if (w & EV_MSG)
		return on_message(m, t, r, w & ~EV_MSG);
	return on_op(m, t, r, w, who);
}

/* ---- Waiting for a busy CPU or NIC ----------------------------------------
 * An event that finds its CPU or NIC busy is put back at the time it is free
 * and keeps its seq (docs/semantics.md sections 3-4).  Put back into the
 * queue, k events waiting for one resource would each be put back again at
 * each of its k busy periods: k^2/2 queue operations.  Instead events that
 * wait for one resource (the later of the two an event needs, the CPU on a
 * tie) wait in a list in seq order, and only the first of the list, the
 * armed one, is in the queue: as a wake node (event word EV_WAKE, rank
 * word the list, peer word the waiter: it stays the first while the list
 * is armed) at its seq.  The wake node takes the first waiter out of
 * the list and processes it at that place; then the next waiter is armed
 * at max(now, the resource's free time), in this batch if that is now.
 * put_back says which list an event joins (a resource may have several,
 * each armed on its own) or whether it goes back into the queue.
 *
 * The result is exactly that of putting every waiter back into the queue.
 * An event put back at (t, s) is, there, busy until t' > t; free times only
 * grow, so processed at any (u, s) with t <= u < its next effective time
 * (where it runs), it is busy again and changes nothing (and is put back at
 * most at that effective time, where its resources are free).  A waiter in
 * a list has a seq above the list's armed one and needs the resource, so it
 * cannot run before the armed one is processed; it is armed no later than
 * where it would run.  Hence the events that run, run at the same (time,
 * seq) as if every waiter went back into the queue, in the same order;
 * only events that change nothing are processed at other places, or not
 * at all.  An op's event is marked WHO_DELAYED when put back, into the
 * queue or a list (the critical path reads it); its other bits count its
 * put-backs into the queue. */

/* The resource a list waits for: its free time now. */
static uint64_t wl_free(const sim *m, uint64_t key)
{
	return *free_time(m, OVF_RANK(key), OVF_WHAT(key), (uint32_t)(key & 0xffff));
}

/* The word a list's slot is homed by: its resource and the other one
 * (one word, different for every pair, for ranks below 2^26). */
static inline uint64_t wt_key(uint64_t key, uint32_t other)
{
	return key ^ (uint64_t)other << 44;
}

static uint64_t wt_hash(const sim *m, uint64_t key, uint32_t other)
{
	return oa_home(wt_key(key, other), m->wt_mask);
}

static int wt_word(const void *t, uint64_t i, uint64_t *w)
{
	const sim_wslot *e = &((const sim_wslot *)t)[i];
	*w = wt_key(e->key, e->other);
	return e->list != QNIL;
}

/* A list not in the table enters it when this many events wait in it: a
 * few sends released together do not touch the table, many do (so that
 * the messages that arrive later find them, and one list has them all). */
#define WL_LISTED_AT 4

/* An op is put back into the queue its first WL_DIRECT times, unless it is
 * one of WL_BURST or more events put back one after the other for one
 * resource: then, and afterwards, it waits in a list. */
#define WL_DIRECT 8u
#define WL_BURST 16u

/* The list of resource key for waiters that also need other, or QNIL. */
static uint32_t wt_find(const sim *m, uint64_t key, uint32_t other)
{
	if (!m->wt)
		return QNIL;
	uint64_t h0 = wt_hash(m, key, other), h = h0;
	while (m->wt[h].list != QNIL && (m->wt[h].key != key || m->wt[h].other != other))
		h = (h + 1) & m->wt_mask;
	ASSERT(oa_probe_ok(h0, h, m->wt_mask));
	return m->wt[h].list;
}

static void wt_put(sim *m, uint64_t key, uint32_t other, uint32_t l)
{
	uint64_t h0 = wt_hash(m, key, other), h = h0;
	while (m->wt[h].list != QNIL)
		h = (h + 1) & m->wt_mask;
	ASSERT(oa_probe_ok(h0, h, m->wt_mask));
	m->wt[h].key = key;
	m->wt[h].other = other;
	m->wt[h].list = l;
}

/* List l (not listed, and no list of its resource is) enters the table.
 * 0, or -1 when out of memory (m->fail set). */
static int wt_add(sim *m, uint32_t l)
{
	if (!m->wt || 2 * (m->wt_n + 1) > m->wt_mask + 1) {
		uint64_t ocap = m->wt ? m->wt_mask + 1 : 0, ncap = ocap ? 2 * ocap : 256;
		sim_wslot *old = m->wt, *nt = calloc(ncap, sizeof *nt);
		if (!nt) {
			m->fail = FAIL_MEMORY;
			return -1;
		}
		ASSERT(!old || oa_probes_ok(oa_measure(old, ocap - 1, wt_word), ocap - 1));
		m->wt = nt;
		m->wt_mask = ncap - 1;
		for (uint64_t i = 0; i < ocap; i++)
			if (old[i].list != QNIL)
				wt_put(m, old[i].key, old[i].other, old[i].list);
		free(old);
	}
	wt_put(m, WL(m, l)->key, WL(m, l)->other, l);
	WL(m, l)->listed = 1;
	m->wt_n++;
	return 0;
}

/* A new, empty list for resource key, in the table (listed; there is no
 * list of key there) or not: its index, or QNIL when out of memory
 * (m->fail set). */
static uint32_t wl_new(sim *m, uint64_t key, uint32_t other, int listed)
{
	uint32_t l = pool_take(m, &m->wlp);
	if (l == QNIL)
		return QNIL;
	sim_wlist *L = WL(m, l);
	L->hc = L->tc = L->heap = QNIL;
	L->n = 0;
	L->armed = L->listed = L->hi = L->ti = 0;
	L->aseq = 0;
	L->key = key;
	L->other = other;
	if (listed && wt_add(m, l)) {
		L->key = UINT64_MAX;
		pool_put(&m->wlp, l);
		return QNIL;
	}
	return l;
}

/* List l out of the table (its entry removed by shifting later entries of
 * its probe run back). */
static void wl_unlist(sim *m, uint32_t l)
{
	sim_wlist *L = WL(m, l);
	if (L->listed) {
		uint64_t h0 = wt_hash(m, L->key, L->other), h = h0, j;
		while (m->wt[h].list != l)
			h = (h + 1) & m->wt_mask;
		for (j = h;;) {
			j = (j + 1) & m->wt_mask;
			if (m->wt[j].list == QNIL)
				break;
			if (oa_stays(h, j, wt_hash(m, m->wt[j].key, m->wt[j].other)))
				continue;
			m->wt[h] = m->wt[j];
			h = j;
		}
		ASSERT(oa_probe_ok(h0, j, m->wt_mask));
		m->wt[h].list = QNIL;
		m->wt_n--;
		L->listed = 0;
	}
}

/* List l is empty: out of the table and freed. */
static void wl_free_list(sim *m, uint32_t l)
{
	wl_unlist(m, l);
	WL(m, l)->key = UINT64_MAX;
	pool_put(&m->wlp, l);
}

static inline uint32_t wseq(const sim *m, uint32_t n)
{
	return WN(m, n)->e.seq;
}

/* Pairing heap by seq: two roots melded into one. */
static uint32_t heap_meld(sim *m, uint32_t a, uint32_t b)
{
	if (wseq(m, b) < wseq(m, a)) {
		uint32_t t = a;
		a = b;
		b = t;
	}
	WN(m, b)->sib = WN(m, a)->next;
	WN(m, a)->next = b;
	return a;
}

/* The heap of root's children (root taken out): paired left to right,
 * then melded right to left.  O(log n) amortised. */
static uint32_t heap_pop(sim *m, uint32_t root)
{
	uint32_t c = WN(m, root)->next, stack = QNIL;
	while (c != QNIL) {
		uint32_t a = c, b = WN(m, a)->sib;
		if (b == QNIL) {
			WN(m, a)->sib = stack;
			stack = a;
			break;
		}
		c = WN(m, b)->sib;
		WN(m, a)->sib = WN(m, b)->sib = QNIL;
		a = heap_meld(m, a, b);
		WN(m, a)->sib = stack;
		stack = a;
	}
	uint32_t r = QNIL;
	while (stack != QNIL) {
		uint32_t nx = WN(m, stack)->sib;
		WN(m, stack)->sib = QNIL;
		r = r == QNIL ? stack : heap_meld(m, r, stack);
		stack = nx;
	}
	return r;
}

/* The peer word of a waiter of list L with event word op: a message's is
 * its receiver, whose CPU or NIC the list waits for; an op joins a list
 * only as one put back WL_DIRECT times (put_back_wait). */
static inline uint32_t wl_peer(const sim_wlist *L, uint32_t op)
{
	return op & EV_MSG ? (uint32_t)OVF_RANK(L->key) : WHO_DELAYED | WL_DIRECT;
}

/* The first waiter of list L (not empty): where it is (a WREF), and its
 * seq in *seq. */
static inline uint32_t wl_first(const sim *m, const sim_wlist *L, uint32_t *seq)
{
	if (L->hc != QNIL) {
		uint32_t s = WC(m, L->hc)->e[L->hi].seq;
		if (L->heap == QNIL || s < wseq(m, L->heap)) {
			*seq = s;
			return WREF_RUN(L->hc, L->hi);
		}
	}
	*seq = wseq(m, L->heap);
	return WREF_HEAP | L->heap;
}

/* A chunk for a run, linked to chunk next (its waiters undefined), or
 * QNIL when out of memory (m->fail set). */
static inline uint32_t wc_take(sim *m, uint32_t next)
{
	uint32_t c = pool_take(m, &m->wcp);
	if (c >= WC_MAX) {
		m->fail = FAIL_MEMORY;
		return QNIL;
	}
	WC(m, c)->next = next;
	return c;
}

/* Waiter x, whose seq follows the run's last one, continues the run whose
 * tail chunk holds e[0 .. ti - 1]: the tail's range, or a new range from
 * a tail that stands alone (with room after it for the range's second
 * entry).  The new ti, or 0 if x does not continue the tail. */
static inline unsigned wl_extend(sim_went *e, unsigned ti, const sim_went *x)
{
	sim_went *t = &e[ti - 1];
	if (t->rank == WE_RANGE) {
		if (x->rank != t[-1].rank || x->op != t[-1].op + (t->seq + 1) * t->op)
			return 0;
		t->seq++;
		return ti;
	}
	if (ti == WC_N || x->rank != t->rank)
		return 0;
	e[ti] = (sim_went){ 1, WE_RANGE, x->op - t->op };
	return ti + 1;
}

/* Waiter x joins list L: at an end of the sorted run (in a range if it
 * continues one), else into the heap.  0, or -1 when out of memory
 * (m->fail set). */
static int wl_add(sim *m, sim_wlist *L, const evq_node *x)
{
	sim_went e = { x->seq, x->rank, x->op };
	uint32_t c;
	ASSERT(x->peer == wl_peer(L, x->op));
	if (L->hc == QNIL) {
		if ((c = wc_take(m, QNIL)) == QNIL)
			return -1;
		L->hc = L->tc = c;
		L->hi = L->ti = 0;
		WC(m, c)->e[L->ti++] = e;
		L->tseq = e.seq;
	} else if (e.seq > L->tseq) {
		unsigned ti;
		if (e.seq == L->tseq + 1 && (ti = wl_extend(WC(m, L->tc)->e, L->ti, &e))) {
			L->ti = (uint8_t)ti;
		} else {
			if (L->ti == WC_N) {
				if ((c = wc_take(m, QNIL)) == QNIL)
					return -1;
				WC(m, L->tc)->next = c;
				L->tc = c;
				L->ti = 0;
			}
			WC(m, L->tc)->e[L->ti++] = e;
		}
		L->tseq = e.seq;
	} else if (e.seq < WC(m, L->hc)->e[L->hi].seq) {
		if (L->hi == 0) {
			if ((c = wc_take(m, L->hc)) == QNIL)
				return -1;
			L->hc = c;
			L->hi = WC_N;
		}
		WC(m, L->hc)->e[--L->hi] = e;
	} else {
		uint32_t n = pool_take(m, &m->wnp);
		if (n == QNIL)
			return -1;
		wn_set(WN(m, n), x);
		WN(m, n)->next = WN(m, n)->sib = QNIL;
		L->heap = L->heap == QNIL ? n : heap_meld(m, L->heap, n);
	}
	L->n++;
	return 0;
}

/* Take the first waiter out of list L: its event, at time t.  Entering a
 * chunk, the run prefetches the one after it, which it reads a few wakes
 * later (a list is woken once per busy period of its resource). */
static evq_node wl_pop(sim *m, sim_wlist *L, uint64_t t)
{
	uint32_t seq, f = wl_first(m, L, &seq);
	L->n--;
	if (f & WREF_HEAP) {
		uint32_t n = f & ~WREF_HEAP;
		evq_node x = wn_get(WN(m, n), t);
		L->heap = heap_pop(m, n);
		WN(m, n)->e.op = EV_WAKE;
		pool_put(&m->wnp, n);
		return x;
	}
	sim_wchunk *c = WC(m, L->hc);
	sim_went *e = &c->e[L->hi];
	evq_node x = { t, e->seq, e->rank, e->op, wl_peer(L, e->op) };
	if (L->hi + 1u < (L->hc == L->tc ? L->ti : WC_N) && e[1].rank == WE_RANGE) {
		e->seq++;   /* a range: its next waiter is its first now */
		e->op += e[1].op;
		if (--e[1].seq == 0) {   /* it stands alone, in the second place */
			e[1] = e[0];
			L->hi++;
		}
		return x;
	}
	L->hi++;
	if (L->hc == L->tc && L->hi == L->ti) {
		pool_put(&m->wcp, L->hc);
		L->hc = L->tc = QNIL;
	} else if (L->hi == WC_N) {
		uint32_t next = c->next, after = WC(m, next)->next;
		pool_put(&m->wcp, L->hc);
		L->hc = next;
		L->hi = 0;
		if (after != QNIL)
			PREFETCH(WC(m, after));
	}
	return x;
}

/* Put list l's first waiter into the queue as a wake node at time t (now:
 * t is the current batch's time, q->now, and the node joins this batch). */
static void wl_arm(sim *m, uint32_t l, uint64_t t, int now)
{
	sim_wlist *L = WL(m, l);
	uint32_t seq, f = wl_first(m, L, &seq);
	evq_node w = { t, seq, l, EV_WAKE, f };
	L->armed = 1;
	L->aseq = w.seq;
	m->wakes++;
	m->pushes++;
	if (now)
		evq_push_now(&m->q, w);
	else if (evq_push(&m->q, w))
		m->fail = FAIL_MEMORY;
}

/* Event x, processed at now, is put back at time back, to wait for the
 * resource m->wkey.  Into the queue, or into which list
 * (several lists may wait for one resource: each is armed on its own, and
 * the argument above holds for each):
 * - an op put back fewer than WL_DIRECT times goes back into the queue: a
 *   few put-backs cost less than a list (a rank of a binomial broadcast
 *   with up to 9 sends to make puts them back into the queue), unless it is in
 *   a burst of WL_BURST or more put back one after the other for this
 *   resource (sends released together, as in an alltoall);
 * - the list being woken, if it waits for this resource (its waiter, busy
 *   again);
 * - the list the event put back just before joined, if it waits for this
 *   resource; a new list, not in the table, if that event went back into
 *   the queue (such a list enters the table once WL_LISTED_AT events wait
 *   in it, unless the table has one already);
 * - else the resource's list in the table (messages that arrive one by
 *   one), or a new one there.
 * A list whose armed waiter has a larger seq cannot take it: it goes back
 * into the queue (rare). */
static void put_back_wait(sim *m, const evq_node *xp, uint64_t back, int same)
{
	uint64_t key = m->wkey;
	uint32_t other = m->wother;
	evq_node x = { back, xp->seq, xp->rank, xp->op, xp->peer };
	uint32_t l = m->waking;
	if (l != QNIL && (WL(m, l)->key != key || WL(m, l)->other != other))
		l = QNIL;
	if (!(x.op & EV_MSG)) {
		uint32_t c = x.peer & WHO_DELAYED ? x.peer & ~WHO_DELAYED : 0;
		if (l == QNIL && c < WL_DIRECT && m->burst < WL_BURST) {
			x.peer = WHO_DELAYED | (c + 1);
			goto queue;
		}
		x.peer = WHO_DELAYED | WL_DIRECT;
	}
	if (l == QNIL) {
		l = m->last_list;
		if (!same || l == QNIL || WL(m, l)->key != key || WL(m, l)->other != other ||
		    !WL(m, l)->armed)
			l = same && l == QNIL ? QNIL : wt_find(m, key, other);
	}
	if (l != QNIL && WL(m, l)->armed && x.seq < WL(m, l)->aseq)
		goto queue;
	if (l == QNIL && (l = wl_new(m, key, other, !same)) == QNIL)
		return;
	sim_wlist *L = WL(m, l);
	if (wl_add(m, L, &x))
		return;
	m->last_list = l;
	if (!L->listed && L->n == WL_LISTED_AT && wt_find(m, key, other) == QNIL && wt_add(m, l))
		return;
	if (!L->armed && l != m->waking)
		wl_arm(m, l, back, 0);   /* a new list */
	return;
queue:
	m->last_list = QNIL;
	m->pushes++;
	if (evq_push(&m->q, x))
		m->fail = FAIL_MEMORY;
}

/* put_back_wait, with the usual case inline: an op put back into the
 * queue. */
static inline void put_back(sim *m, const evq_node *x, uint64_t back)
{
	int same = m->wkey == m->last_wkey;
	m->last_wkey = m->wkey;
	m->burst = same ? m->burst + 1 : 1;
	if (!(x->op & EV_MSG) && m->waking == QNIL && m->burst < WL_BURST) {
		uint32_t c = x->peer & WHO_DELAYED ? x->peer & ~WHO_DELAYED : 0;
		if (c < WL_DIRECT) {
			m->last_list = QNIL;
			m->pushes++;
			if (evq_push(&m->q, (evq_node){ back, x->seq, x->rank, x->op, WHO_DELAYED | (c + 1) }))
				m->fail = FAIL_MEMORY;
			return;
		}
	}
	put_back_wait(m, x, back, same);
}

static void report_progress(sim *m);

/* The first waiter x of list l, processed at now, must wait until back for
 * the list's other resource (m->wkey), which is busy longer than its own.
 * So would every waiter after it, processed at now in turn: each needs the
 * same two resources, and a waiter that is put back changes nothing (no
 * flow holds a waiter while m->nhold is 0).  So the whole list waits for
 * that resource instead, x first, armed at back: one step where moving the
 * waiters one by one would cost as many (and a run of sends that wait by
 * turns for their CPU and their NIC, as in an alltoall, would cost k^2). */
static void wl_rekey(sim *m, uint32_t l, const evq_node *x, uint64_t back)
{
	sim_wlist *L = WL(m, l);
	uint64_t key = L->key;
	ASSERT(m->wother == WO(OVF_WHAT(key), key & 0xffff) &&
	       m->wkey == OVF_KEY(OVF_RANK(key), L->other >> 16, L->other & 0xffff));
	wl_unlist(m, l);
	L->key = m->wkey;
	L->other = m->wother;
	if (wl_add(m, L, x))   /* its time is the wake node's, at back */
		return;
	m->last_list = l;
	m->last_wkey = m->wkey;
	if (wt_find(m, L->key, L->other) == QNIL && wt_add(m, l))
		return;
	wl_arm(m, l, back, 0);
}

/* The wake node of list l at (t, seq), armed for waiter first (the list's
 * first): that waiter is processed there (unless the list's resource is
 * busy again: then the list is armed again); then the next one is armed.  When
 * nothing else is queued, that wake node would come next, alone: its
 * waiter is processed here at once (a waiter after another on a busy
 * resource, as at the root of a gather), counted in *iter. */
static void on_wake(sim *m, uint64_t t, uint32_t l, uint32_t seq, uint32_t first, uint64_t *iter)
{
	sim_wlist *L = WL(m, l);
	ASSERT(L->armed && L->aseq == seq && wl_first(m, L, &(uint32_t){ 0 }) == first);
	L->armed = 0;
	m->wakes--;
	if (!m->nhold) {
		/* After the list was armed, an event before its wake node at t
		 * took its resource (another list's waiter: sends and messages
		 * take turns at a CPU).  Its waiter would only find it busy and
		 * be put back, changing nothing (see above): the list is armed
		 * again at the resource's free time, the waiter not taken. */
		uint64_t f = wl_free(m, L->key);
		if (f > t) {
			wl_arm(m, l, f, 0);
			return;
		}
	}
	for (;;) {
		evq_node x = wl_pop(m, L, t);
		ASSERT(x.seq == seq);
		m->waking = l;
		m->cur_seq = x.seq;
		uint64_t back = process(m, t, x.rank, x.op, x.peer);
		L = WL(m, l);
		if (back && m->wkey != L->key && L->n && !m->nhold) {
			wl_rekey(m, l, &x, back);
			m->waking = QNIL;
			return;
		}
		if (back)
			put_back(m, &x, back);
		m->waking = QNIL;
		if (m->fail)
			return;
		L = WL(m, l);
		if (L->hc == QNIL && L->heap == QNIL) {
			wl_free_list(m, l);
			return;
		}
		uint64_t f = wl_free(m, L->key);
		if (f < t)
			f = t;
		if (evq_size(&m->q) || (m->fl && flow_pending(m->fl))) {
			wl_arm(m, l, f, f == m->q.now);
			return;
		}
		t = f;
		wl_first(m, L, &seq);
		if (m->progress && (++*iter & 0x3fffff) == 0)
			report_progress(m);
	}
}

/* ---- Run ---------------------------------------------------------------- */

/* Prefetch distances (batch positions ahead), one stage per link of the
 * chain payload -> rank entry -> op record -> receiver's state; a wake
 * node's chain starts one link earlier, at its list and waiter. */
#define PF_RANK 24
#define PF_OP 16
#define PF_PEER 8
#define PF_WAKE_OP 4   /* a wake node's last stage */

/* Stage 0, 1 or 2 of the chain of event (r, w, peer): rank record(s), op
 * record and receive queue, then the recv a message completes or the op's
 * edges.  Ops and edges only when the schedule's blocks are large
 * (pf_sched): blocks that ranks share stay in the caches. */
static inline __attribute__((always_inline)) void
prefetch_event(const sim *m, uint32_t r, uint32_t w, uint32_t peer, int stage)
{
	if (stage == 0) {
		PREFETCH(rank_of(m, r));
		if (w & EV_MSG)
			PREFETCH(rank_of(m, peer));
		if (m->rdvs)   /* the send's rendezvous slot */
			PREFETCH(&m->rdvs[r]);
		return;
	}
	if (stage == 1) {
		if (m->pf_sched)
			PREFETCH(&rank_ops(m, r)[w & ~EV_MSG]);
		if (w & EV_MSG) {
			const sim_rq *h = rank_q(m, peer);
			PREFETCH(q_indexed(m, 1, peer) ? (void *)RXE(m, h->rq_head) : (void *)RQE(m, h->rq_head));
		} else {   /* the op's started bit (mark_started) */
			PREFETCH(&m->started[gop_of(m, r, w) >> 6]);
		}
		if (m->cpr) {
			/* The op's records and the setters of the rank that works. */
			PREFETCH(cp_rec(m, gop_of(m, r, w & ~EV_MSG)));
			PREFETCH(&m->cps[(w & EV_MSG ? peer : r) * m->nres]);
		}
		return;
	}
	if (!m->pf_sched && !m->cpr)
		return;
	if (w & EV_MSG) {
		const sim_rq *h = rank_q(m, peer);
		if (h->rq_head != QNIL) {
			uint32_t recv = rq_first(m, peer, h);
			if (m->pf_sched)
				PREFETCH(&rank_ops(m, peer)[recv]);
			if (m->cpr)   /* the recv it completes: its record */
				PREFETCH(cp_rec(m, gop_of(m, peer, recv)));
		}
	} else if (m->pf_sched) {
		PREFETCH(&rank_edges(m, r)[rank_ops(m, r)[w].dep_begin]);
	}
}

/* Stage 0 .. 3 of wake node x: its list and its waiter (the wake node's
 * peer word), then the waiter's stages 0 .. 2. */
static inline __attribute__((always_inline)) void
prefetch_wake(const sim *m, const evq_ent *x, int stage)
{
	const sim_went *e = WREF(m, x->peer);
	if (stage == 0) {
		PREFETCH(WL(m, x->rank));
		PREFETCH(e);
		return;
	}
	prefetch_event(m, e->rank, e->op, wl_peer(WL(m, x->rank), e->op), stage - 1);
}

static inline __attribute__((always_inline)) void
prefetch_stage(const sim *m, const evq_ent *x, int stage, int wakes)
{
	if (wakes && x->op >= EV_FLOW) {
		if (x->op == EV_WAKE)
			prefetch_wake(m, x, stage);
		return;
	}
	prefetch_event(m, x->rank, x->op, x->peer, stage);
}

static void report_progress(sim *m)
{
	sim_progress pr = { m->ops_started, m->s->nops, m->ops_started + m->messages, m->now };
	m->progress(m->pctx, &pr);
}

/* Does the rest of the current batch hold a wake node or a flow's end? */
static int batch_has_wake(const evq *q)
{
	for (size_t i = q->pos; i < q->batch.n; i++)
		if (q->batch.a[i].op >= EV_FLOW)
			return 1;
	return 0;
}

/* Process the current batch.  It is fixed (but for wake nodes that join
 * it, in a place already taken, and only while a wake node of it runs):
 * the loop prefetches the state of the events a few places ahead (random
 * ranks miss the caches otherwise).  wakes 0: the batch holds no wake node
 * (none can join it then) and the run has no flows, and the loop is the
 * plain one. */
static inline __attribute__((always_inline)) void run_batch(sim *m, uint64_t *iter, int wakes)
{
	const evq_ent *b = m->q.batch.a;
	size_t n = m->q.batch.n, i0 = m->q.pos;
	for (size_t i = i0; i < n && !m->fail; i++) {
		if (i + PF_RANK < n)
			prefetch_stage(m, &b[i + PF_RANK], 0, wakes);
		if (i + PF_OP < n)
			prefetch_stage(m, &b[i + PF_OP], 1, wakes);
		if (i + PF_PEER < n)
			prefetch_stage(m, &b[i + PF_PEER], 2, wakes);
		if (wakes && i + PF_WAKE_OP < n && b[i + PF_WAKE_OP].op == EV_WAKE)
			prefetch_wake(m, &b[i + PF_WAKE_OP], 3);
		evq_node x = evq_batch_node(&m->q, i);
		m->q.pos = i + 1;
		if (wakes && x.op == EV_WAKE) {
			on_wake(m, x.time, x.rank, x.seq, x.peer, iter);
			i = m->q.pos - 1;   /* a wake node may have joined at i */
		} else if (wakes && x.op == EV_FLOW) {
			on_flow(m, x.time, x.rank, x.peer);
		} else {
			if (wakes)   /* a run with flows is always here (sim_run) */
				m->cur_seq = x.seq;
			uint64_t back = process(m, x.time, x.rank, x.op, x.peer);
			if (back)
				put_back(m, &x, back);
		}
	}
	/* progress when the count crosses a multiple of 2^22, between batches */
	uint64_t was = *iter;
	*iter += m->q.pos - i0;
	if (m->progress && (was ^ *iter) >> 22)
		report_progress(m);
}

/* Op i of rank r in messages: its label, or "#i" when it has none. */
const char *sim_op_name(const goal_sched *s, uint64_t r, uint32_t i, char *buf, size_t n)
{
	const char *l = goal_op_label(s, r, i, buf, n);
	if (l && *l)
		return l;
	snprintf(buf, n, "#%" PRIu32, i);
	return buf;
}

/* The root ops of the ranks whose op records start at block_off (nops
 * each), in the order they start: by kind, then by index.  Ranks that
 * share their records share their roots: consecutive ranks with the same
 * block look at its ops once. */
typedef struct root_list {
	uint64_t block_off;
	uint32_t nops, n;
	uint32_t *op;
	size_t cap;
} root_list;

/* The roots of rank k (ops: its records) into l, or kept from the rank
 * before; 0 or -1 (out of memory). */
static int rank_roots(root_list *l, const sim_rank *k, const goal_op *ops)
{
	if (l->op && l->block_off == k->block_off && l->nops == k->nops)
		return 0;
	uint32_t at[GOAL_NKINDS] = { 0 }, n = 0;
	for (uint32_t i = 0; i < k->nops; i++)
		if (ops[i].ndeps == 0)
			at[ops[i].kind]++;
	for (unsigned kind = 0; kind < GOAL_NKINDS; kind++) {
		uint32_t c = at[kind];
		at[kind] = n;
		n += c;
	}
	if (util_grow(&l->op, &l->cap, n ? n : 1, sizeof *l->op))
		return -1;
	for (uint32_t i = 0; i < k->nops; i++)
		if (ops[i].ndeps == 0)
			l->op[at[ops[i].kind]++] = i;
	l->block_off = k->block_off;
	l->nops = k->nops;
	l->n = n;
	return 0;
}

/* Root op i of rank r starts at time 0 with the next root seq. */
static void start_root(sim *m, uint32_t r, uint32_t i, uint64_t *rootseq, uint64_t *iter)
{
	uint32_t seq = (uint32_t)(*rootseq)++;
	m->cur_seq = seq;
	uint64_t back = process(m, 0, r, i, WHO_ROOT);
	if (back) {
		evq_node x = { 0, seq, r, i, WHO_ROOT };
		put_back(m, &x, back);
	}
	if (m->progress && (++*iter & 0x3fffff) == 0)
		report_progress(m);
}

int sim_run(sim *m, sim_result *res, char *err, size_t errlen)
{
	const goal_sched *s = m->s;
	uint64_t iter = 0;

	memset(res, 0, sizeof *res);
	/* Roots get seq 0, 1, ... in order; new events start above every root:
	 * at nops, or at the exact number of roots when nops is large. */
	uint64_t c0 = s->nops;
	if (c0 >= m->seq_limit / 2) {
		c0 = 0;
		for (uint64_t r = 0; r < s->nranks; r++) {
			const goal_op *ops = goal_rank_ops(s, r);
			for (uint32_t i = 0, n = goal_rank_nops(s, r); i < n; i++)
				c0 += ops[i].ndeps == 0;
		}
	}
	if (c0 >= m->seq_limit) {
		snprintf(err, errlen, "too many root ops (%" PRIu64 ")", c0);
		return -1;
	}
	m->seq = m->seq_floor = c0;

	/* Roots, all at time 0, before anything else: nothing queued can come
	 * before them (put-back roots are later, new events have larger seq). */
	uint64_t rootseq = 0;
	root_list rl = { 0, 0, 0, NULL, 0 };
	for (uint64_t r = 0; r < s->nranks && !m->fail; r++) {
		/* from the rank's record, which its ops' processing reads anyway
		 * (the file's rank table would be a second stream of P entries) */
		const sim_rank *k = rank_of(m, r);
		if (rank_roots(&rl, k, rank_ops(m, r))) {
			m->fail = FAIL_MEMORY;
			break;
		}
		for (uint32_t j = 0; j < rl.n; j++)
			start_root(m, (uint32_t)r, rl.op[j], &rootseq, &iter);
	}
	free(rl.op);
	m->seq_floor = 0;

	for (;;) {
		/* The flows that started or ended at this time take their rates. */
		if (m->fl && !m->fail && flow_settle(m->fl, m->q.now, flow_moved, m))
			m->fail = FAIL_MEMORY;
		long n = m->fail ? 0 : evq_next_batch(&m->q);
		if (n <= 0) {
			if (n < 0)
				m->fail = FAIL_MEMORY;
			break;
		}
		if (m->fl || (m->wakes && batch_has_wake(&m->q)))
			run_batch(m, &iter, 1);
		else
			run_batch(m, &iter, 0);
	}
	if (m->fail == FAIL_TIME) {
		char lb[256];
		snprintf(err, errlen, "simulated time passes %" PRIu64 " ns at rank %" PRIu32 ", op %s",
		         UINT64_MAX, m->fail_rank, sim_op_name(s, m->fail_rank, m->fail_op, lb, sizeof lb));
		return -1;
	}
	if (m->fail) {
		snprintf(err, errlen, m->fail == FAIL_SEQS ? "too many queued events"
		         : "out of memory while simulating");
		return -1;
	}
	if (m->progress)
		report_progress(m);

	if (m->ovf) {
		/* The overflow CPUs' part of each rank's finishing time. */
		m->ovf_max = calloc(s->nranks ? s->nranks : 1, sizeof *m->ovf_max);
		if (!m->ovf_max) {
			snprintf(err, errlen, "out of memory while simulating");
			return -1;
		}
		for (uint64_t i = 0; i <= m->ovf_mask; i++) {
			const sim_ovf *o = &m->ovf[i];
			if (o->key != UINT64_MAX && OVF_WHAT(o->key) == OVF_CPU && o->t > m->ovf_max[OVF_RANK(o->key)])
				m->ovf_max[OVF_RANK(o->key)] = o->t;
		}
	}
	/* An empty queue leaves no waiter: every list has its wake node. */
	ASSERT(m->wt_n == 0);
	res->events = m->ops_started + m->messages;
	res->pushes = m->pushes;
	res->messages = m->messages;
	res->ops_started = m->ops_started;
	res->complete = 1;
	for (uint64_t r = 0; r < s->nranks; r++) {
		uint64_t f = sim_rank_finish(m, r);
		if (f > res->time || r == 0) {
			res->time = f;
			res->host = r;
		}
		if (rank_q(m, r)->rq_head != QNIL || rank_q(m, r)->uq_head != QNIL)
			res->stuck_ranks++;
		else if (m->ops_started != s->nops) {
			uint64_t a = s->ranks[r].first_op, b = s->ranks[r + 1].first_op;
			for (uint64_t g = a; g < b; g++)
				if (!is_started(m, g)) {
					res->stuck_ranks++;
					break;
				}
		}
	}
	if (res->stuck_ranks || m->ops_started != s->nops)
		res->complete = 0;
	/* A complete run completed every op (a rendezvous send completes at
	 * its match, a recv at its match). */
	ASSERT(!res->complete || m->ops_done == s->nops || !GOAL_CHECKS);
	return 0;
}

uint64_t sim_rank_finish(const sim *m, uint64_t r)
{
	uint64_t f = m->ovf_max ? m->ovf_max[r] : 0;
	if (m->fin && m->fin[r] > f)
		f = m->fin[r];
	for (uint32_t c = 0; c < m->ncpus; c++)
		if (*cpu_free(m, r, c) > f)
			f = *cpu_free(m, r, c);
	return f;
}

/* ---- For the critical path's walk (sim_cpath.c) ---------------------- */

uint64_t sim_calc_end(sim *m, uint32_t r, const goal_op *op, uint32_t i, uint64_t t,
                      uint64_t *need)
{
	return calc_end(m, r, op, i, noise_off(m, r), t, need);
}

void sim_send_times(sim *m, uint32_t r, const goal_op *op, uint32_t i, uint64_t t,
                    act_times *x)
{
	send_times(m, r, op, i, noise_off(m, r), t, x);
}

void sim_handle_times(sim *m, uint32_t r, const goal_op *op, uint32_t i, uint32_t q,
                      uint64_t t, act_times *x)
{
	handle_times(m, r, op, i, q, noise_off(m, q), t, x);
}

const num_dec *sim_slow_factor(const sim *m, uint64_t r)
{
	return slow_factor(m, r);
}

const sim_cprdv *sim_cp_rdv_find(const sim *m, uint64_t g)
{
	return cp_rdv_probe(m, g);
}

uint64_t sim_cp_last(const sim *m, uint64_t h, uint64_t T)
{
	uint64_t w = CPW_NONE, wkey = UINT64_MAX;
	for (uint32_t c = 0; c < m->ncpus && w == CPW_NONE; c++)
		if (*cpu_free(m, h, c) == T)
			w = *setter(m, h, OVF_CPU, c);
	for (uint64_t i = 0; m->ovf && w == CPW_NONE && i <= m->ovf_mask; i++) {
		const sim_ovf *o = &m->ovf[i];
		if (o->key != UINT64_MAX && OVF_RANK(o->key) == h && OVF_WHAT(o->key) == OVF_CPU
		    && o->t == T && (wkey == UINT64_MAX || o->key < wkey))
			wkey = o->key;
	}
	if (wkey != UINT64_MAX)
		w = ovf_slot(m, wkey, 0)->who;
	return w;
}

int sim_qstat_rank(const sim *m, uint64_t r, sim_qstat *q)
{
	if (!m->qs || r >= m->nranks)
		return -1;
	const sim_qs *x = &m->qs[r];
	q->rq_max = x->rq_max;
	q->uq_max = x->uq_max;
	q->searches = x->searches;
	q->searched = x->searched;
	q->searched_max = x->searched_max;
	return 0;
}
