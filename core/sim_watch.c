/* sim_watch.c: the observers of the rules: the critical path's records,
 * the queue statistics and the timeline, and the named points where the
 * handlers call them.
 * A part of sim.c's compilation unit (sim.c includes it; it is not
 * compiled alone), so that the event handlers inline its helpers. */

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

/* ---- The named points ----------------------------------------------------
 * The rules call these where an observer watches them.  A run that keeps
 * none of the records pays a branch for each kind a point feeds. */

/* Op i of rank r (op) starts at t, released as who (its event word) says. */
static inline void watch_start(sim *m, uint32_t r, const goal_op *op, uint32_t i, uint64_t t,
                               uint32_t who)
{
	if (m->cpr)
		cp_start(m, r, op, i, t, who);
}

/* ---- The account ------------------------------------------------------ */

/* Rank r's CPU was busy from t to end with need ns of work (calc: a calc
 * op's, else o and O); nic: its NIC became free at t, the last thing the
 * activity waited for. */
static inline void acct_busy(sim *m, uint32_t r, uint64_t t, uint64_t end, uint64_t need,
                             int calc, int nic)
{
	sim_acct *a = &m->acct[r];
	ASSERT(t >= a->cpu_end && end - t >= need);
	*(nic ? &a->nic : &a->wait) += t - a->cpu_end;
	*(calc ? &a->calc : &a->overhead) += need;
	a->noise += end - t - need;
	a->cpu_end = end;
}

/* ---- Lookahead windows ------------------------------------------------ */

const uint32_t sim_win_blocks[SIM_WIN_SPLITS] = { 2, 4, 16, 64 };   /* powers of two */

/* The event before, if it gave seqs, into the window's log. */
static void win_log(sim *m, sim_win *x)
{
	if (!x->id || m->seq == x->seq)
		return;
	x->w.pushers++;
	if (m->seq < x->seq) {   /* renumbered */
		x->renumbered = 1;
		return;
	}
	if (x->nrec == x->rec_cap && x->nrec < SIM_WIN_MERGE_MAX) {
		size_t c = x->rec_cap ? 2 * x->rec_cap : 1024;
		sim_mrec *a = realloc(x->rec, c * sizeof *a);
		uint32_t *o = a ? realloc(x->own, c * sizeof *o) : NULL;
		if (a)
			x->rec = a;
		if (o)
			x->own = o;
		if (a && o)
			x->rec_cap = c;
	}
	if (x->nrec < x->rec_cap) {
		x->rec[x->nrec] = (sim_mrec){ x->et, x->eseq, (uint32_t)x->seq,
		                              (uint32_t)(m->seq - x->seq), UINT32_MAX };
		x->own[x->nrec] = x->eown;
	}
	x->nrec++;   /* beyond rec_cap: too many, the check is skipped */
}

/* The open window (if any) closes: its log through the merge's check, its
 * counts into the sums. */
static void win_close(sim_win *x)
{
	if (!x->id)
		return;
	int ok = x->w.flows || x->renumbered || x->matched || x->nrec > x->rec_cap ? -1
	       : sim_merge_check(x->rec, x->own, x->nrec, x->base, &x->w.merge_ns);
	if (ok < 0)
		x->w.merge_skipped++;
	else if (ok)
		x->w.merged++;
	else
		x->w.merge_wrong++;
	x->nrec = 0;
	x->renumbered = x->matched = 0;
	x->w.windows++;
	if (x->n > x->w.largest)
		x->w.largest = x->n;
	for (unsigned k = 0; k < SIM_WIN_SPLITS; k++) {
		uint64_t most = 0, dmost = 0;
		for (uint32_t b = 0; b < sim_win_blocks[k]; b++) {
			most = x->cnt[k][b] > most ? x->cnt[k][b] : most;
			dmost = x->dealt[k][b] > dmost ? x->dealt[k][b] : dmost;
		}
		x->w.busiest[k] += most;
		x->w.busiest_dealt[k] += dmost;
	}
}

/* An event of rank r is processed at t with seq seq. */
static __attribute__((noinline)) void win_event(sim *m, uint64_t t, uint32_t r, uint32_t seq)
{
	sim_win *x = m->win;
	win_log(m, x);
	x->seq = m->seq;
	if (!x->id || t >= x->end) {
		win_close(x);
		x->base = (uint32_t)m->seq;
		if (++x->id == 0) {   /* numbers used up: no rank has one */
			memset(x->last, 0, (m->nranks ? m->nranks : 1) * sizeof *x->last);
			x->id = 1;
		}
		x->end = t + x->w.lookahead < t ? UINT64_MAX : t + x->w.lookahead;
		x->n = 0;
		memset(x->cnt, 0, sizeof x->cnt);
		memset(x->dealt, 0, sizeof x->dealt);
	}
	x->et = t;
	x->eseq = seq;
	x->eown = r;
	x->n++;
	x->w.events++;
	if (x->last[r] != x->id) {
		x->last[r] = x->id;
		x->w.visits++;
	}
	for (unsigned k = 0; k < SIM_WIN_SPLITS; k++) {
		x->cnt[k][(uint64_t)r * sim_win_blocks[k] / m->nranks]++;
		x->dealt[k][r & (sim_win_blocks[k] - 1)]++;
	}
}

/* The run's end: the last event and window. */
static void win_end(sim *m)
{
	win_log(m, m->win);
	win_close(m->win);
	m->win->id = 0;
}

int sim_windows_get(const sim *m, sim_windows *w)
{
	if (!m->win)
		return -1;
	*w = m->win->w;
	return 0;
}

/* ---- The named points ---------------------------------------------------- */

/* Event word w of rank r (peer word who, seq seq) is processed at t. */
static inline void watch_event(sim *m, uint64_t t, uint32_t r, uint32_t w, uint32_t who,
                               uint32_t seq)
{
	if (m->win)
		win_event(m, t, w & EV_MSG ? who : r, seq);
}

/* The run ends (complete or not). */
static inline void watch_end(sim *m)
{
	if (m->win)
		win_end(m);
}

/* A rendezvous message was matched: its receiver's event ends its
 * sender's send (the window's merge is not tried: no lookahead). */
static inline void watch_rdv_match(sim *m)
{
	if (m->win)
		m->win->matched = 1;
}

/* Rank r's CPU, blocked by a rendezvous send, is free again at t, when the
 * receive matched it: waiting for another rank. */
static inline void watch_rdv_wait(sim *m, uint32_t r, uint64_t t)
{
	if (m->acct && m->acct[r].cpu_end < t) {
		m->acct[r].wait += t - m->acct[r].cpu_end;
		m->acct[r].cpu_end = t;
	}
}

/* Calc op i (op) of rank r ran from t to end (need: its CPU work; off: its
 * rank's noise offset). */
static inline void watch_calc(sim *m, uint32_t r, const goal_op *op, uint32_t i, uint64_t t,
                              uint64_t end, uint64_t off, uint64_t need)
{
	if (m->acct)
		acct_busy(m, r, t, end, need, 1, 0);
	if (m->tl) {
		tl_write_loclop(m->tl, r, op->cpu, t, end, i);
		put_detours(m, off, r, op->cpu, t, end, need);
	}
}

/* Rank r's CPU starts a send or a message's handling at t, busy as x says
 * (before its CPU's and NIC's free times move): bynic, its NIC became
 * free at t. */
static inline void watch_cpu(sim *m, uint32_t r, uint64_t t, const act_times *x, int bynic)
{
	if (m->acct)
		acct_busy(m, r, t, x->cpu, x->need, 0, bynic);
}

/* Send op i of rank r to peer started at t: its CPU is busy until cpu, its
 * NIC until nic, its message arrives at x->arrive. */
static inline void watch_send(sim *m, uint32_t r, const goal_op *op, uint32_t i, uint32_t peer,
                              uint64_t t, const act_times *x, uint64_t off, uint64_t cpu,
                              uint64_t nic)
{
	if (m->tl) {
		tl_write_interval(m->tl, TL_OSEND, r, op->cpu, t, cpu);
		tl_write_interval(m->tl, TL_GSEND, r, op->nic, t, nic);
		tl_write_transmission(m->tl, r, peer, t, x->depart, x->arrive, op->size, i,
		                      op->cpu, op->nic);
		put_detours(m, off, r, op->cpu, t, cpu, x->need);
	}
}

/* The message of send g (op sop) is handled by rank q at t, where its CPU
 * and NIC became free at busy: what let it start. */
static inline void watch_arrive(sim *m, uint64_t g, const goal_op *sop, uint32_t q, uint64_t t,
                                uint64_t busy)
{
	if (m->cpr) {
		uint64_t w = busy < t ? CPW_NONE : cp_busy(m, q, sop->cpu, OVF_NICR, sop->nic, t);
		cp_put(m, g, 1, w != CPW_NONE ? w : CPW(CPW_ARRIVAL, 0));
	}
}

/* Rank q handled the message of send j of rank r (op sop) from t: x the
 * times, off q's noise offset. */
static inline void watch_handle(sim *m, uint32_t r, const goal_op *sop, uint32_t j, uint32_t q,
                                uint64_t t, const act_times *x, uint64_t off)
{
	if (m->win && sop->size > m->S)
		m->win->w.rendezvous++;
	if (m->tl) {
		tl_write_orecv(m->tl, q, sop->cpu, t, x->cpu, r, j);
		tl_write_interval(m->tl, TL_GRECV, q, sop->nic, t, x->nic);
		put_detours(m, off, q, sop->cpu, t, x->cpu, x->need);
	}
}

/* Receive op i of rank q completes as w says: a message (CPW_MSG) or at
 * its own start (CPW_SELF). */
static inline void watch_recv_done(sim *m, uint32_t q, uint32_t i, uint64_t w)
{
	if (m->cpr)
		cp_put(m, gop_of(m, q, i), 1, w);
}
