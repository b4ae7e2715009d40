/* sim_wait.c: events that wait for a busy CPU or NIC, in lists by resource,
 * one armed in the queue at a time.
 * A part of sim.c's compilation unit (sim.c includes it; it is not
 * compiled alone), so that the event handlers inline its helpers. */

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

/* Event x, processed at now, is put back at time b->back, to wait for
 * the resource b->key.  Into the queue, or into which list
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
 *   in it, unless the table has one already), in the table if that event
 *   joined a list of another pair;
 * - else the resource's list in the table (messages that arrive one by
 *   one), or a new one there.
 * A list whose armed waiter has a larger seq cannot take it: it goes back
 * into the queue (rare). */
static void put_back_wait(sim *m, const evq_node *xp, const wait_for *b, int same)
{
	uint64_t key = b->key, back = b->back;
	uint32_t other = b->other;
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
	/* Unlisted: the first list of a burst that went into the queue until
	 * now.  A burst whose waiters take turns between lists (sends of
	 * several CPUs waiting for one NIC) lists each new one at once, so that
	 * the next waiter of its pair finds it: else every waiter would start
	 * a list of its own, each armed, each woken at every busy period. */
	if (l == QNIL && (l = wl_new(m, key, other, !same || m->last_list != QNIL)) == QNIL)
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
static inline void put_back(sim *m, const evq_node *x, const wait_for *b)
{
	int same = b->key == m->last_wkey;
	m->last_wkey = b->key;
	m->burst = same ? m->burst + 1 : 1;
	if (!(x->op & EV_MSG) && m->waking == QNIL && m->burst < WL_BURST) {
		uint32_t c = x->peer & WHO_DELAYED ? x->peer & ~WHO_DELAYED : 0;
		if (c < WL_DIRECT) {
			m->last_list = QNIL;
			m->pushes++;
			if (evq_push(&m->q, (evq_node){ b->back, x->seq, x->rank, x->op, WHO_DELAYED | (c + 1) }))
				m->fail = FAIL_MEMORY;
			return;
		}
	}
	put_back_wait(m, x, b, same);
}

static void report_progress(sim *m);

/* The first waiter x of list l, processed at now, must wait until b->back
 * for the list's other resource (b->key), which is busy longer than its own.
 * So would every waiter after it, processed at now in turn: each needs the
 * same two resources, and a waiter that is put back changes nothing (no
 * flow holds a waiter while m->nhold is 0).  So the whole list waits for
 * that resource instead, x first, armed at back: one step where moving the
 * waiters one by one would cost as many (and a run of sends that wait by
 * turns for their CPU and their NIC, as in an alltoall, would cost k^2). */
static void wl_rekey(sim *m, uint32_t l, const evq_node *x, const wait_for *b)
{
	sim_wlist *L = WL(m, l);
	uint64_t key = L->key;
	ASSERT(b->other == WO(OVF_WHAT(key), key & 0xffff) &&
	       b->key == OVF_KEY(OVF_RANK(key), L->other >> 16, L->other & 0xffff));
	wl_unlist(m, l);
	L->key = b->key;
	L->other = b->other;
	if (wl_add(m, L, x))   /* its time is the wake node's, at back */
		return;
	m->last_list = l;
	m->last_wkey = b->key;
	if (wt_find(m, L->key, L->other) == QNIL && wt_add(m, l))
		return;
	wl_arm(m, l, b->back, 0);
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
		wait_for b;
		watch_event(m, t, x.rank, x.op, x.peer, x.seq);
		int waits = process(m, t, x.rank, x.op, x.peer, &b) != 0;
		L = WL(m, l);
		if (waits && b.key != L->key && L->n && !m->nhold) {
			wl_rekey(m, l, &x, &b);
			m->waking = QNIL;
			return;
		}
		if (waits)
			put_back(m, &x, &b);
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
