/* sim_net.c: messages as flows over a network (section 11): a flow per
 * message, its end, and what waits for it.
 * A part of sim.c's compilation unit (sim.c includes it; it is not
 * compiled alone), so that the event handlers inline its helpers. */

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
	double rate = m->rate[range_of(m, r, sop) - m->rg];
	uint32_t id = flow_start(m->fl, t, x->sG, rate, links, n);
	if (id == UINT32_MAX || util_grow(&m->fr, &m->fr_cap, (size_t)id + 1, sizeof *m->fr)) {
		m->fail = FAIL_MEMORY;
		return NIL;
	}
	if (id >= m->nfr)
		m->nfr = (size_t)id + 1;
	sim_flow w = { r, j, NIL, m->cur_seq, x->cpu, x->o, x->sG, UINT64_MAX, 0, 0 };
	m->fr[id] = w;
	return id;
}

/* A link's load for the timeline (flow_net_watch). */
void sim_link_load(void *ctx, uint32_t l, uint64_t t0, uint64_t t, uint32_t n,
                   double bytes)
{
	const sim *m = ctx;
	tl_write_link(m->tl, l, t0, t, n, flow_round(bytes));
}

/* Flow id's end event at end: the live one (at (end, the message's seq),
 * as every end event of the flow). */
static void flow_event(sim *m, uint32_t id, uint64_t end)
{
	sim_flow *w = &m->fr[id];
	evq_node x = { end, w->seq, id, EV_FLOW, flow_gen(m->fl, id) };
	w->ev = end;
	w->evgen = x.peer;
	m->pushes++;
	if (evq_push(&m->q, x))
		m->fail = FAIL_MEMORY;
}

/* flow_settle moved the end of flow id.  An end that moves later keeps
 * the live event, which puts itself back at the end when it comes
 * (on_flow): half the moves of a contended network are later, often many
 * times over a flow's life, and each would be a push.  An earlier end
 * gets an event of its own; the one it replaces is stale. */
static void flow_moved(void *ctx, uint32_t id, uint64_t end)
{
	sim *m = ctx;
	if (m->fr[id].ev > end)
		flow_event(m, id, end);
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
			h->hold.wn = 0;
			m->nhold++;
		}
		if (on)
			h->hold.flows++;
		else if (h->hold.until < c)
			h->hold.until = c;
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
		h->hold.flows--;
		if (h->hold.until < c)
			h->hold.until = c;
		if (h->hold.flows == 0 && h->hold.wn != 0) {
			evq_node x = wn_get(WN(m, h->hold.wn), h->hold.until > m->now ? h->hold.until : m->now);
			WN(m, h->hold.wn)->e.op = EV_WAKE;
			pool_put(&m->wnp, h->hold.wn);
			h->hold.wn = 0;
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
	if (h->hold.flows) {   /* until the flows end */
		uint32_t n = pool_take(m, &m->wnp);
		if (n == QNIL)
			return 1;
		wn_set(WN(m, n), &x);
		h->hold.wn = n;
		return 1;
	}
	if (h->hold.until > t) {
		x.time = h->hold.until;
		m->pushes++;
		if (evq_push(&m->q, x))
			m->fail = FAIL_MEMORY;
		return 1;
	}
	dt_delete(m, (uint64_t)(h - m->dt));
	m->nhold--;
	return 0;
}

/* The end event of flow id (peer word gen) at t: nothing if it is not
 * the flow's live one (the events of a flow queued at once have distinct
 * peer words: each push after the first follows a reported move, which
 * changes the flow's generation; an ended flow's last event was its
 * end); put back at the flow's end if that moved later;
 * else the flow ends, and its receive completes (no earlier than
 * done_min), or, with none yet, the message in the UQ keeps t - sG for the
 * receive that takes it.  Either way the flow ends at (its end, the
 * message's seq), as if every move had pushed an event. */
static void on_flow(sim *m, uint64_t t, uint32_t id, uint32_t gen)
{
	if (m->fr[id].evgen != gen || m->fr[id].ev != t)
		return;
	uint64_t end = flow_end(m->fl, id);
	ASSERT(end >= t);
	if (end != t) {
		flow_event(m, id, end);
		return;
	}
	m->now = t;
	sim_flow w = m->fr[id];
	flow_finish(m->fl, id, t);
	m->fr[id].rank = UINT32_MAX;
	uint64_t lag = t > w.sG ? t - w.sG : 0;   /* t - sG: the flow's lateness + its start */
	if (w.recv == NIL) {
		sim_dep *d = dt_get(m, FLOW_KEY(w.rank, w.op));
		if (d) {
			d->flow.on = 0;
			d->flow.lag = lag;
		}
		return;
	}
	uint64_t c = w.uq ? lag : tadd(m, t, w.o, w.rank, w.op);
	unhold_edges(m, goal_op_peer(m->s, w.rank, &rank_ops(m, w.rank)[w.op]), w.recv, c > w.done_min ? c : w.done_min);
}
