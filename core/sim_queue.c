/* sim_queue.c: the matching queues: each rank's posted receives (RQ)
 * and unexpected messages (UQ), their indexes, and the rendezvous
 * records.
 * A part of sim.c's compilation unit (sim.c includes it; it is not
 * compiled alone), so that the event handlers inline its helpers. */

/* ---- Queues ---------------------------------------------------------------
 * A rank's RQ lists its posted receives in posting order, its UQ the
 * messages handled before their receive was posted, in arrival order; a
 * message takes the first receive that matches, a receive the first
 * message.  Searched first to last, a queue costs P^2 when a rank takes
 * P entries in another order than they came: a root that takes its
 * children's messages from rank P - 1 down (Open MPI's linear reduce), or
 * receives posted from every rank, their messages arriving in reverse.  So
 * a search from one source that looked at more than q_index_after entries
 * indexes that queue of its rank until it is empty.  An indexed RQ moves
 * to a pool of its own (sim_rqx), one receive an entry, numbered in
 * posting order, and chains each entry with the others of its source and
 * tag (rt_key; a source or a tag may be "any"), so that a message takes
 * the earliest posted of the first matches in the chains of its source and
 * tag, of its source and any tag, of any source and its tag, and of any
 * source and tag (those not empty: the RQ's QS_KEY entry counts its
 * receives from any source and of any tag, while it has some).  A UQ
 * chains each entry with the others of its sender, from the entry
 * QS_KEY(0, rank, sender): a receive from one source reads its chain, one
 * from any source the UQ first to last.  The first match in a chain is the first in the queue:
 * the index changes what a search costs, never what it finds (nor what
 * --qstat counts: the entries a search from the first would look at).  A
 * message of a send of any tag reads the RQ first to last.  Indexed RQs
 * and all UQs are doubly linked, so that an entry found through its chain
 * is unlinked in O(1); RQs that are not stay as they were, 12 bytes for a
 * run of receives. */
#define SNEXT(p, i) ((uint32_t *)(void *)((p)->a + (size_t)(i) * (p)->esz + 8))
#define PREV(p, i) ((uint32_t *)(void *)((p)->a + (size_t)(i) * (p)->esz + 4))

/* Set bit k of rank r's queues (on 1) or clear it; -1 when out of memory
 * (m->fail set). */
static int q_set_indexed(sim *m, int k, uint32_t r, int on)
{
	uint64_t b = q_bit(k, r);
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

/* Entry k of pool p at the end of chain d. */
static void chain_push(sim_pool *p, sim_dep *d, uint32_t k)
{
	*SNEXT(p, k) = QNIL;
	if (d->chain.head == QNIL)
		d->chain.head = k;
	else
		*SNEXT(p, d->chain.tail) = k;
	d->chain.tail = k;
}

/* Unlink entry i (after sprev, QNIL: first) of pool p from chain d, which
 * leaves the table when empty. */
static void chain_cut(sim *m, sim_pool *p, sim_dep *d, uint32_t i, uint32_t sprev)
{
	if (sprev == QNIL)
		d->chain.head = *SNEXT(p, i);
	else
		*SNEXT(p, sprev) = *SNEXT(p, i);
	if (d->chain.tail == i)
		d->chain.tail = sprev;
	if (d->chain.head == QNIL)
		dt_delete(m, (uint64_t)(d - m->dt));
}

/* The predecessor of entry i in chain d of pool p. */
static uint32_t chain_prev(const sim_pool *p, const sim_dep *d, uint32_t i)
{
	uint32_t prev = QNIL;
	for (uint32_t k = d->chain.head; k != i; k = *SNEXT(p, k))
		prev = k;
	return prev;
}

/* What a search from the first entry of a queue (list head of pool p, len
 * entries) looks at to find entry found (QNIL: none, all of them): --qstat
 * counts that, whether the queue is indexed or not. */
static uint32_t q_linear(const sim_pool *p, uint32_t head, uint32_t found, uint32_t len)
{
	if (found == QNIL)
		return len;
	uint32_t n = 1;
	for (uint32_t k = head; k != found; k = *pool_next(p, k))
		n++;
	return n;
}

/* -- The RQ -- */

/* The chain of the recvs from src with tag in rank r's indexed RQ, or NULL
 * when there are none. */
static sim_dep *rt_find(const sim *m, uint32_t r, uint32_t src, int32_t tag)
{
	uint64_t key = rt_key(r, src, tag);
	sim_dep *d = m->dt ? dt_probe(m, key, 1, src, tag) : NULL;
	return d && d->gop == key ? d : NULL;
}

/* Recv o joined rank r's indexed RQ (d 1) or left it (d -1): the RQ's
 * count of recvs from any source and of any tag, kept while one is not
 * zero (QX_WILD set then); -1 when out of memory (m->fail set). */
static int rq_wild(sim *m, uint32_t r, const goal_op *o, int d)
{
	int src = o->peer == GOAL_ANY_SOURCE, tag = o->tag == GOAL_ANY_TAG;
	if (!src && !tag)
		return 0;
	sim_dep *c = dt_get(m, QS_KEY(1, r, GOAL_ANY_SOURCE));
	if (!c)
		return -1;
	c->rqn.any_src += (uint32_t)(src * d);
	c->rqn.any_tag += (uint32_t)(tag * d);
	if (c->rqn.any_src || c->rqn.any_tag)
		return q_set_indexed(m, QX_WILD, r, 1);
	dt_delete(m, (uint64_t)(c - m->dt));
	return q_set_indexed(m, QX_WILD, r, 0);
}

/* Indexed recv k of rank r (its op set) at the end of its list (head,
 * tail), numbered after the last, and of the chain of its source and tag;
 * -1 when out of memory (m->fail set). */
static int rq_link(sim *m, uint32_t r, uint32_t *head, uint32_t *tail, uint32_t k)
{
	RXE(m, k)->post = *tail == QNIL ? 0 : RXE(m, *tail)->post + 1;
	dlist_link(&m->rxp, head, tail, k);
	const goal_op *o = &rank_ops(m, r)[RXE(m, k)->op];
	sim_dep *d = dt_make(m, rt_key(r, o->peer, o->tag), 1, o->peer, o->tag);
	if (!d)
		return -1;
	chain_push(&m->rxp, d, k);
	return rq_wild(m, r, o, 1);
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

/* The first recv in rank q's chain d (NULL: none) that matches a message
 * (srel, tag, comm index), and its predecessor there; *n counts the recvs
 * looked at. */
static uint32_t rq_chain_find(const sim *m, uint32_t q, const sim_dep *d, uint32_t srel, int32_t tag,
                              uint32_t comm, uint32_t *sprev, uint32_t *n)
{
	const goal_op *ops = rank_ops(m, q);
	*sprev = QNIL;
	for (uint32_t i = d ? d->chain.head : QNIL; i != QNIL; *sprev = i, i = RXE(m, i)->snext) {
		++*n;
		if (rq_matches(m, &ops[RXE(m, i)->op], srel, tag, comm))
			return i;
	}
	return QNIL;
}

/* rq_take of an indexed RQ (queues h): the earliest posted of the first
 * matches in the chains of (source, tag), (source, any tag), (any source,
 * tag) and (any source, any tag), those with recvs; for a send of any tag,
 * the first match in posting order. */
static uint32_t rq_take_indexed(sim *m, uint32_t q, sim_rq *h, uint32_t srel, int32_t tag, uint32_t comm)
{
	const sim_dep *c = q_indexed(m, QX_WILD, q) ? dt_find(m, QS_KEY(1, q, GOAL_ANY_SOURCE)) : NULL;
	uint32_t any_src = c ? c->rqn.any_src : 0, any_tag = c ? c->rqn.any_tag : 0;
	const goal_op *ops = rank_ops(m, q);
	sim_dep *bd = NULL;
	uint32_t n = 0, best = QNIL, bprev = QNIL;
	if (tag == GOAL_ANY_TAG) {
		for (best = h->rq_head; best != QNIL; best = RXE(m, best)->next)
			if (++n, rq_matches(m, &ops[RXE(m, best)->op], srel, tag, comm))
				break;
		if (best != QNIL) {
			const goal_op *o = &ops[RXE(m, best)->op];
			bd = rt_find(m, q, o->peer, o->tag);
			bprev = chain_prev(&m->rxp, bd, best);
		}
	} else {
		const uint32_t src[4] = { srel, srel, GOAL_ANY_SOURCE, GOAL_ANY_SOURCE };
		const int32_t tg[4] = { tag, GOAL_ANY_TAG, tag, GOAL_ANY_TAG };
		for (int k = 0; k < 4; k++) {
			if ((src[k] == GOAL_ANY_SOURCE && !any_src) || (tg[k] == GOAL_ANY_TAG && !any_tag))
				continue;
			sim_dep *d = rt_find(m, q, src[k], tg[k]);
			uint32_t prev, i = rq_chain_find(m, q, d, srel, tag, comm, &prev, &n);
			if (i != QNIL && (best == QNIL || (int32_t)(RXE(m, i)->post - RXE(m, best)->post) < 0)) {
				best = i;
				bprev = prev;
				bd = d;
			}
		}
	}
	if (m->qs)
		n = q_linear(&m->rxp, h->rq_head, best, m->qs[q].rq_len);
	qs_search(m, q, n);
	if (best == QNIL)
		return UINT32_MAX;
	uint32_t op = RXE(m, best)->op;
	const goal_op *o = &ops[op];
	chain_cut(m, &m->rxp, bd, best, bprev);
	dlist_remove(&m->rxp, &h->rq_head, &h->rq_tail, best);
	rq_wild(m, q, o, -1);
	if (h->rq_head == QNIL)   /* empty: the index goes */
		q_set_indexed(m, 1, q, 0);
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
	for (uint32_t k = rank_q(m, r)->uq_head; k != QNIL; k = UQE(m, k)->next) {
		sim_dep *d = dt_get(m, QS_KEY(0, r, UQE(m, k)->peer));
		if (!d)
			return;
		chain_push(&m->uqp, d, k);
	}
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
	sim_dep *d;
	if (q_indexed(m, 0, q) && (d = dt_get(m, QS_KEY(0, q, peer))))
		chain_push(&m->uqp, d, k);
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
	sim_dep *d = NULL;   /* the chain of the message found (ix) */
	if (ix && src != GOAL_ANY_SOURCE) {
		d = dt_find(m, QS_KEY(0, r, src));
		for (uint32_t i = d ? d->chain.head : QNIL; i != QNIL; sprev = i, i = UQE(m, i)->snext) {
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
		if (found != QNIL && ix) {
			d = dt_find(m, QS_KEY(0, r, UQE(m, found)->peer));
			sprev = chain_prev(&m->uqp, d, found);
		}
	}
	if (ix && m->qs)
		n = q_linear(&m->uqp, h->uq_head, found, m->qs[r].uq_len);
	qs_search(m, r, n);
	if (found != QNIL) {
		*out = *UQE(m, found);
		if (ix)
			chain_cut(m, &m->uqp, d, found, sprev);
		dlist_remove(&m->uqp, &h->uq_head, &h->uq_tail, found);
		if (ix && h->uq_head == QNIL)
			q_set_indexed(m, 0, r, 0);
		qs_len(m, r, 1, -1);
	}
	if (!ix && n > m->q_index_after && src != GOAL_ANY_SOURCE && h->uq_head != QNIL)
		uq_index(m, r);
	return found != QNIL;
}

/* The rendezvous slot of rank r's CPU c (NULL: c is past the record's,
 * or no slots yet). */
static inline sim_rdvs *rdv_at(const sim *m, uint32_t r, uint32_t c)
{
	return m->rdvs && c < m->ncpus ? &m->rdvs[(uint64_t)r * m->ncpus + c] : NULL;
}

/* Rendezvous send i of rank r on CPU c started at t: its start waits for
 * its message (m->fail set when out of memory). */
static void rdv_put(sim *m, uint32_t r, uint32_t i, uint32_t c, uint64_t t)
{
	if (!m->rdvs && !(m->rdvs = sim_big_alloc(rdvs_bytes(m)))) {
		m->fail = FAIL_MEMORY;
		return;
	}
	sim_rdvs *e = rdv_at(m, r, c);
	if (e && !e->op1) {
		e->start = t;
		e->op1 = (uint64_t)i + 1;
		return;
	}
	sim_dep *d = dt_get(m, RDV_KEY(r, i));
	if (d)
		d->rdv.start = t;
}

/* The start of rendezvous send j of rank r on CPU c, whose message is
 * handled: taken out. */
static uint64_t rdv_take(sim *m, uint32_t r, uint32_t j, uint32_t c)
{
	sim_rdvs *e = rdv_at(m, r, c);
	if (e && e->op1 == (uint64_t)j + 1) {
		e->op1 = 0;
		return e->start;
	}
	sim_dep *d = dt_find(m, RDV_KEY(r, j));
	if (!d)
		return 0;   /* out of memory when it was put (m->fail) */
	uint64_t start = d->rdv.start;
	dt_delete(m, (uint64_t)(d - m->dt));
	return start;
}
