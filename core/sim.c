/* sim.c: the LogGOPS simulation core (docs/semantics.md sections 2-5): one
 * event queue ordered by (time, seq), per-rank CPU / NIC free times, receive
 * and unexpected queues as intrusive lists in one pool.  One compilation
 * unit with the hot parts it includes where they stand: the observers and
 * the named points where the handlers call them (sim_watch.c), the matching
 * queues (sim_queue.c), the time rules (sim_times.c), flows (sim_net.c) and
 * the waiting lists (sim_wait.c). */
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
	*p = (sim_params){ .L = 2500, .o = 1500, .g = 1000, .S = LOGGP_DEFAULT_S,
	                   .G = { 6, 1 }, .O = { 0, 1 } };
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

int sim_ovf_insert(const sim *m, uint64_t key)
{
	if (ovf_slot(m, key, 0))
		return 0;
	ovf_slot(m, key, 1);
	return 1;
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
#include "sim_watch.c"

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

/* The slot of key, or the empty one that ends its run: with chain set, a
 * slot of key counts only when it is the chain of (src, tag) (rt_key). */
static inline sim_dep *dt_probe(const sim *m, uint64_t key, int chain, uint32_t src, int32_t tag)
{
	uint64_t h0 = dt_hash(m, key), h = h0;
	for (;; h = (h + 1) & m->dt_mask) {
		const sim_dep *d = &m->dt[h];
		if (d->gop == UINT64_MAX || (d->gop == key && (!chain || (d->chain.src == src && d->chain.tag == tag))))
			break;
	}
	ASSERT(oa_probe_ok(h0, h, m->dt_mask));
	return &m->dt[h];
}

/* The table slot of key, or NULL when absent. */
static sim_dep *dt_find(const sim *m, uint64_t key)
{
	if (!m->dt)
		return NULL;
	sim_dep *d = dt_probe(m, key, 0, 0, 0);
	return d->gop == key ? d : NULL;
}

/* The slot of key (a chain of (src, tag): chain set), made if absent, its
 * first 12 bytes zero (a chain's head QNIL after its src and tag); NULL
 * when out of memory (m->fail set). */
static sim_dep *dt_make(sim *m, uint64_t key, int chain, uint32_t src, int32_t tag)
{
	if ((!m->dt || 2 * (m->dt_n + 1) > m->dt_mask + 1) && dt_grow(m)) {
		m->fail = FAIL_MEMORY;
		return NULL;
	}
	sim_dep *d = dt_probe(m, key, chain, src, tag);
	if (d->gop == UINT64_MAX) {
		d->gop = key;
		d->op.maxt = 0;
		d->op.cnt = 0;
		if (chain) {
			d->chain.src = src;
			d->chain.tag = tag;
		}
		m->dt_n++;
	}
	return d;
}

/* The table slot of key, inserted (cnt 0, maxt 0) if absent; NULL when out
 * of memory (m->fail set). */
static sim_dep *dt_get(sim *m, uint64_t key)
{
	return dt_make(m, key, 0, 0, 0);
}

#include "sim_queue.c"

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
	ASSERT(d->op.cnt < nd);
	if (d->op.cnt == 0 || time > d->op.maxt) {
		d->op.maxt = time;
		d->op.who = who;
	}
	if (++d->op.cnt == nd) {
		uint64_t t = d->op.maxt;
		uint32_t w = d->op.who;
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

#include "sim_times.c"

#include "sim_net.c"

/* ---- Events ------------------------------------------------------------- */

/* An event that changed nothing waits until back for resource key
 * (OVF_KEY), the later free of the two it needs, other (WO) the other.
 * The handlers return back, or 0 when the event ran, and fill a
 * wait_for of their caller only when it waits. */
typedef struct wait_for {
	uint64_t back, key;
	uint32_t other;
} wait_for;

/* The event waits until back for key, other (into *wf); returns back. */
static inline uint64_t wait_on(wait_for *wf, uint64_t back, uint64_t key, uint32_t other)
{
	wf->back = back;
	wf->key = key;
	wf->other = other;
	return back;
}

/* Handle the message of send j of rank r at time t. */
static uint64_t on_message(sim *m, uint64_t t, uint32_t r, uint32_t j, wait_for *wf)
{
	const goal_op *sops = rank_ops(m, r), *sop = &sops[j];
	uint32_t q = goal_op_peer(m->s, r, sop);
	uint64_t *cf = cpu_free(m, q, sop->cpu);
	uint64_t *nf = nic_recv(m, q, sop->nic);
	uint64_t busy = *cf > *nf ? *cf : *nf;
	if (busy > t)
		return *nf > *cf ? wait_on(wf, busy, OVF_KEY(q, OVF_NICR, sop->nic), WO(OVF_CPU, sop->cpu))
		                 : wait_on(wf, busy, OVF_KEY(q, OVF_CPU, sop->cpu), WO(OVF_NICR, sop->nic));

	uint64_t g = gop_of(m, r, j);
	watch_arrive(m, g, sop, q, t, busy);
	act_times x;
	uint64_t off = noise_off(m, q);
	handle_times(m, r, sop, j, q, off, t, &x);
	watch_cpu(m, q, t, &x, *nf == t);
	set_free_by(m, cf, x.cpu, q, OVF_CPU, sop->cpu, CPW(CPW_HCPU, g));
	set_free_by(m, nf, x.nic, q, OVF_NICR, sop->nic, CPW(CPW_HNIC, g));
	watch_handle(m, r, sop, j, q, t, &x, off);
	uint64_t start = 0;
	if (sop->size > m->S)
		start = rdv_take(m, r, j, sop->cpu);
	uint32_t fid = m->fl ? flow_begin(m, t, r, j, sop, &x) : NIL;
	uint32_t recv = rq_take(m, q, r, sop->tag, op_comm(m, sop));
	if (recv == UINT32_MAX) {
		uq_add(m, q, r, sop->tag, j, start);
		sim_dep *d = fid != NIL ? dt_get(m, FLOW_KEY(r, j)) : NULL;
		if (d) {
			d->flow.on = 1;
			d->flow.id = fid;
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
	watch_recv_done(m, q, recv, CPW(CPW_MSG, g));
	satisfy_edges(m, q, rank_ops(m, q), recv, x.cpu, 0);
	flush_released(m);
	return 0;
}

/* Process op i of rank r at time t (who: its event word).  Returns the
 * put-back time or 0. */
static uint64_t on_op(sim *m, uint64_t t, uint32_t r, uint32_t i, uint32_t who, wait_for *wf)
{
	if (m->nhold && held(m, t, r, i, who))
		return 0;
	const goal_op *ops = rank_ops(m, r), *op = &ops[i];
	uint64_t *cf = cpu_free(m, r, op->cpu);

	switch ((goal_kind)op->kind) {
	case GOAL_CALC: {
		if (*cf > t)
			return wait_on(wf, *cf, OVF_KEY(r, OVF_CPU, op->cpu), WO_NONE);
		watch_start(m, r, op, i, t, who);
		uint64_t off = noise_off(m, r), d, end = calc_end(m, r, op, i, off, t, &d);
		set_free_by(m, cf, end, r, OVF_CPU, op->cpu, CPW(CPW_OPEND, gop_of(m, r, i)));
		mark_started(m, r, i);
		mark_done(m, r, i);
		watch_calc(m, r, op, i, t, end, off, d);
		edge_span es = op_span(m, r, ops, i);
		satisfy_span(m, r, ops, es, i, t, 1);
		satisfy_span(m, r, ops, es, i, end, 0);
		break;
	}
	case GOAL_SEND: {
		uint64_t *nf = nic_send(m, r, op->nic);
		uint64_t busy = *cf > *nf ? *cf : *nf;
		if (busy > t)
			return *nf > *cf ? wait_on(wf, busy, OVF_KEY(r, OVF_NICS, op->nic), WO(OVF_CPU, op->cpu))
			                 : wait_on(wf, busy, OVF_KEY(r, OVF_CPU, op->cpu), WO(OVF_NICS, op->nic));
		watch_start(m, r, op, i, t, who);
		act_times x;
		uint64_t off = noise_off(m, r), g = gop_of(m, r, i);
		uint32_t peer = goal_op_peer(m->s, r, op);
		send_times(m, r, op, i, off, t, &x);
		watch_cpu(m, r, t, &x, *nf == t);
		if (m->hoplat)
			x.arrive = tadd(m, x.arrive, hop_lat(m, r, peer), r, i);
		set_free_by(m, cf, x.cpu, r, OVF_CPU, op->cpu, CPW(CPW_OPEND, g));
		set_free_by(m, nf, x.nic, r, OVF_NICS, op->nic, CPW(CPW_OPNIC, g));
		mark_started(m, r, i);
		watch_send(m, r, op, i, peer, t, &x, off, *cf, *nf);
		push_event(m, x.arrive, r, i | EV_MSG, peer);
		if (op->size > m->S)
			rdv_put(m, r, i, op->cpu, t);
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
		watch_start(m, r, op, i, t, who);
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
			uint64_t lag = d->flow.lag;
			uint32_t fid = d->flow.id, on = d->flow.on;
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
		watch_recv_done(m, r, i, CPW(CPW_SELF, 0));
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

/* Process the event (rank r, event word w, peer word who) at time t:
 * 0, or the time it waits until (*wf). */
static uint64_t process(sim *m, uint64_t t, uint32_t r, uint32_t w, uint32_t who, wait_for *wf)
{
	m->now = t;
	if (w & EV_MSG)
		return on_message(m, t, r, w & ~EV_MSG, wf);
	return on_op(m, t, r, w, who, wf);
}

#include "sim_wait.c"

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
		if (m->rdvs)   /* the rendezvous slot of the send's rank's first CPU */
			PREFETCH(rdv_at(m, r, 0));
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
			wait_for wf;
			watch_event(m, x.time, x.rank, x.op, x.peer, x.seq);
			if (process(m, x.time, x.rank, x.op, x.peer, &wf))
				put_back(m, &x, &wf);
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

/* Root op i of rank r starts at time t0 (its job's start) with the next
 * root seq: now at 0, or from the queue. */
static void start_root(sim *m, uint32_t r, uint32_t i, uint64_t t0, uint64_t *rootseq,
                       uint64_t *iter)
{
	uint32_t seq = (uint32_t)(*rootseq)++;
	if (t0) {
		m->pushes++;
		if (evq_push(&m->q, (evq_node){ t0, seq, r, i, WHO_ROOT }))
			m->fail = FAIL_MEMORY;
		return;
	}
	m->cur_seq = seq;
	wait_for wf;
	watch_event(m, 0, r, i, WHO_ROOT, seq);
	if (process(m, 0, r, i, WHO_ROOT, &wf)) {
		evq_node x = { 0, seq, r, i, WHO_ROOT };
		put_back(m, &x, &wf);
	}
	if (m->progress && (++*iter & 0x3fffff) == 0)
		report_progress(m);
}

/* Every root: at time 0 before anything else, since nothing queued can
 * come before them (put-back roots are later, new events have larger
 * seq); the roots of a job that starts later are queued for its start. */
static void start_roots(sim *m, uint64_t *iter)
{
	const goal_sched *s = m->s;
	uint64_t rootseq = 0;
	root_list rl = { 0, 0, 0, NULL, 0 };
	uint32_t *rjob = NULL;   /* rank -> job, when some job starts after 0 */
	for (uint32_t j = 0; j < s->njobs && !rjob; j++)
		if (s->jobs[j].start && !(rjob = calloc(s->nranks, sizeof *rjob)))
			m->fail = FAIL_MEMORY;
	for (uint32_t j = 0; rjob && j < s->njobs; j++)
		for (uint32_t i = 0; i < s->jobs[j].nranks; i++)
			rjob[s->job_ranks[s->jobs[j].first + i]] = j;
	for (uint64_t r = 0; r < s->nranks && !m->fail; r++) {
		/* from the rank's record, which its ops' processing reads anyway
		 * (the file's rank table would be a second stream of P entries) */
		const sim_rank *k = rank_of(m, r);
		if (rank_roots(&rl, k, rank_ops(m, r))) {
			m->fail = FAIL_MEMORY;
			break;
		}
		uint64_t t0 = rjob ? s->jobs[rjob[r]].start : 0;
		for (uint32_t j = 0; j < rl.n; j++)
			start_root(m, (uint32_t)r, rl.op[j], t0, &rootseq, iter);
	}
	free(rl.op);
	free(rjob);
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

	start_roots(m, &iter);
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
	watch_end(m);
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

uint64_t sim_job_end(const sim *m, uint32_t j)
{
	const goal_job *g = &m->s->jobs[j];
	uint64_t e = g->start;
	for (uint32_t i = 0; i < g->nranks; i++) {
		uint64_t t = sim_rank_finish(m, m->s->job_ranks[g->first + i]);
		e = t > e ? t : e;
	}
	return e;
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

int sim_account_rank(const sim *m, uint64_t r, sim_account *a)
{
	if (!m->acct || r >= m->nranks)
		return -1;
	const sim_acct *x = &m->acct[r];
	uint64_t nic = *nic_send(m, r, 0) > *nic_recv(m, r, 0) ? *nic_send(m, r, 0)
	                                                        : *nic_recv(m, r, 0);
	a->finish = sim_rank_finish(m, r);
	a->calc = x->calc;
	a->overhead = x->overhead;
	a->noise = x->noise;
	a->nic = x->nic;
	a->wait = x->wait;
	/* After the CPU's last activity: the NIC's, then the rest. */
	ASSERT(a->finish >= x->cpu_end);
	uint64_t nic_end = nic < a->finish ? nic : a->finish;
	if (nic_end > x->cpu_end)
		a->nic += nic_end - x->cpu_end;
	a->wait += a->finish - (nic_end > x->cpu_end ? nic_end : x->cpu_end);
	return 0;
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
