/* sim_cpath.c: the critical path of a finished run (sim.h,
 * sim_critical_path): from the activity that set the finishing time, back
 * through the records the run kept (what released each op, what set each
 * free time), to a root; then forward, recomputing each link's times as the
 * run did.  Cold code: it runs once, after the run. */
#include "sim_int.h"

#include "timeline.h"
#include "util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* The time points of a path: when op g starts; when its CPU or NIC part
 * ends (a calc, a send's o + sO; a send's g + sG); when its message arrives;
 * when the message's handling starts, and its CPU and NIC parts end; when a
 * recv completes; when a rendezvous send completes; when it is matched. */
enum cp_node { N_START, N_OPEND, N_OPNIC, N_ARRIVE, N_HSTART, N_HCPU, N_HNIC, N_RECVDONE,
               N_RDVDONE, N_MATCH };

typedef struct cp_nd {
	uint64_t g;           /* global op index */
	uint8_t type;         /* cp_node */
	uint8_t via;          /* N_START, N_HSTART: sim_via of what set it */
} cp_nd;

/* The rank of global op g. */
static uint32_t rank_of_gop(const goal_sched *s, uint64_t g)
{
	uint64_t lo = 0, hi = s->nranks;
	while (hi - lo > 1) {
		uint64_t mid = lo + (hi - lo) / 2;
		if (s->ranks[mid].first_op <= g)
			lo = mid;
		else
			hi = mid;
	}
	return (uint32_t)lo;
}

/* The node a setter word names, and the via of what it set. */
static cp_nd setter_node(uint64_t w)
{
	static const uint8_t type[] = { [CPW_OPEND] = N_OPEND, [CPW_OPNIC] = N_OPNIC,
	                                [CPW_HCPU] = N_HCPU, [CPW_HNIC] = N_HNIC, [CPW_RDV] = N_MATCH };
	static const uint8_t via[] = { [CPW_OPEND] = TL_VIA_CPU, [CPW_OPNIC] = TL_VIA_NIC,
	                               [CPW_HCPU] = TL_VIA_CPU, [CPW_HNIC] = TL_VIA_NIC,
	                               [CPW_RDV] = TL_VIA_HOLD };
	unsigned k = CPW_KIND(w);
	cp_nd n = { CPW_VAL(w), type[k], via[k] };
	return n;
}

static int is_setter(uint64_t w)
{
	unsigned k = CPW_KIND(w);
	return k >= CPW_OPEND && k <= CPW_RDV;
}

/* The node of what w (a rendezvous completion word of send g) names. */
static int match_node(const sim *m, uint64_t g, uint64_t w, cp_nd *n)
{
	if (CPW_KIND(w) == CPW_MATCH_H) {
		n->type = N_HSTART;
		n->g = g;
	} else if (CPW_KIND(w) == CPW_MATCH_R) {
		uint32_t r = rank_of_gop(m->s, g);
		const goal_op *op = &rank_ops(m, r)[g - rank_of(m, r)->first_op];
		n->type = N_START;
		n->g = gop_of(m, goal_op_peer(m->s, r, op), (uint32_t)CPW_VAL(w));
	} else if (CPW_KIND(w) == CPW_SELF) {
		n->type = N_OPEND;
		n->g = g;
	} else {
		return -1;
	}
	return 0;
}

/* The node before n on the path into *pred (*done 1: n is a root at 0),
 * and, where n is a start, how it was set into *via; -1 when the records
 * are broken. */
static int cp_pred(sim *m, const cp_nd *n, cp_nd *pred, uint8_t *via, int *done)
{
	uint64_t g = n->g, w;
	uint32_t r = rank_of_gop(m->s, g), i = (uint32_t)(g - rank_of(m, r)->first_op);
	const goal_op *ops = rank_ops(m, r);
	*done = 0;
	*pred = *n;
	switch (n->type) {
	case N_START:
		w = cp_get(m, g, 0);
		if (CPW_KIND(w) == CPW_ROOT) {
			*via = TL_VIA_ROOT;
			*done = 1;
		} else if (is_setter(w)) {
			*pred = setter_node(w);
			*via = pred->via;
		} else if (CPW_KIND(w) == CPW_DEP) {
			/* Released by op j: by its start (irequires only) or its end. */
			uint32_t j = (uint32_t)CPW_VAL(w);
			edge_span es = op_span(m, r, ops, j);
			int req = 0;
			for (uint32_t x = es.b; x < es.end; x++)
				req |= GOAL_EDGE_OP(es.e[x]) == i && !(es.e[x] & GOAL_EDGE_IREQ);
			const goal_op *d = &ops[j];
			pred->g = gop_of(m, r, j);
			pred->type = !req ? N_START : d->kind == GOAL_CALC ? N_OPEND
			             : d->kind == GOAL_RECV ? N_RECVDONE : d->size > m->S ? N_RDVDONE : N_OPEND;
			*via = TL_VIA_DEP;
		} else {
			return -1;
		}
		return 0;
	case N_OPEND:
	case N_OPNIC:
	case N_ARRIVE:
		pred->type = N_START;
		return 0;
	case N_HSTART:
		w = cp_get(m, g, 1);
		if (CPW_KIND(w) == CPW_ARRIVAL) {
			pred->type = N_ARRIVE;
			*via = TL_VIA_MSG;
			return 0;
		}
		if (!is_setter(w))
			return -1;
		*pred = setter_node(w);
		*via = pred->via;
		return 0;
	case N_HCPU:
	case N_HNIC:
		pred->type = N_HSTART;
		return 0;
	case N_RECVDONE:
		w = cp_get(m, g, 1);
		if (CPW_KIND(w) == CPW_SELF)
			pred->type = N_START;
		else if (CPW_KIND(w) == CPW_MSG)
			*pred = (cp_nd){ CPW_VAL(w), N_HCPU, 0 };
		else
			return -1;
		return 0;
	case N_RDVDONE:
	case N_MATCH:
		if (!m->rdv || sim_cp_rdv_find(m, g)->key != g)
			return -1;
		return match_node(m, g, sim_cp_rdv_find(m, g)->w, pred);
	default:
		return -1;
	}
}

/* Append link k to p; -1 when out of memory. */
static int path_add(sim_path *p, size_t *cap, const tl_link *k)
{
	if (util_grow(&p->link, cap, p->n + 1, sizeof *p->link))
		return -1;
	p->link[p->n++] = *k;
	return 0;
}

void sim_path_free(sim_path *p)
{
	free(p->link);
	memset(p, 0, sizeof *p);
}

/* The nodes from setter word w's back to a root, w's first, into *nd
 * (*nn of them): 0; -1 when the records are broken, -2 when out of
 * memory (*nd freed). */
static int walk_back(sim *m, uint64_t w, cp_nd **nd, size_t *nn)
{
	size_t cap = 0;
	cp_nd n = setter_node(w);
	*nd = NULL;
	*nn = 0;
	for (uint64_t limit = 8 * m->s->nops + 16;; ) {
		if (util_grow(nd, &cap, *nn + 1, sizeof **nd)) {
			free(*nd);
			return -2;
		}
		int done;
		cp_nd pred;
		(*nd)[*nn] = n;
		if (*nn >= limit || cp_pred(m, &n, &pred, &(*nd)[*nn].via, &done)) {
			free(*nd);
			return -1;
		}
		++*nn;
		if (done)
			return 0;
		n = pred;
	}
}

/* The links of node x, reached at *t by a link of kind *via: into ln[0]
 * (and ln[1], a send's wire), with their kinds, units and counts; *t
 * becomes the node's time, *via the via of the next link.  Returns how
 * many links (0: a start, or a node at the time of the one before). */
static int node_links(sim *m, const cp_nd *x, uint64_t *t, uint8_t *via, tl_link ln[2])
{
	uint32_t r = rank_of_gop(m->s, x->g), i = (uint32_t)(x->g - rank_of(m, r)->first_op);
	const goal_op *op = &rank_ops(m, r)[i];
	const sim_range *pr = op->kind == GOAL_CALC ? m->rg : range_of(m, r, op);
	tl_link *a = &ln[0];
	*a = (tl_link){ 0 };
	a->rank = r;
	a->op = i;
	a->range = op->kind == GOAL_CALC ? 0 : (uint32_t)(pr - m->rg);
	a->peer = op->kind == GOAL_CALC ? 0 : goal_op_peer(m->s, r, op);
	a->start_ns = *t;
	a->via = (tl_via)*via;
	act_times at;
	uint64_t size1 = op->size ? op->size - 1 : 0;
	switch (x->type) {
	case N_START:
	case N_HSTART:
		*via = x->via;
		return 0;
	case N_OPEND:
		if (op->kind == GOAL_CALC) {
			uint64_t need;
			*t = sim_calc_end(m, r, op, i, a->start_ns, &need);
			a->kind = TL_LINK_CALC;
			a->unit = op->cpu;
			a->calc_ns = op->size;
		} else {
			sim_send_times(m, r, op, i, a->start_ns, &at);
			*t = at.cpu;
			a->kind = TL_LINK_SEND;
			a->unit = op->cpu;
			a->o = 1;
			a->O_bytes = size1;
		}
		break;
	case N_OPNIC:
		sim_send_times(m, r, op, i, a->start_ns, &at);
		*t = at.nic;
		a->kind = TL_LINK_SNIC;
		a->unit = op->nic;
		a->g = 1;
		a->G_bytes = size1;
		break;
	case N_ARRIVE:   /* the send's overhead, then the wire */
		sim_send_times(m, r, op, i, a->start_ns, &at);
		a->kind = TL_LINK_SEND;
		a->unit = op->cpu;
		a->o = 1;
		a->end_ns = at.depart;
		*t = at.arrive;
		ln[1] = (tl_link){ 0 };
		ln[1].kind = TL_LINK_WIRE;
		ln[1].via = TL_VIA_DEPART;
		ln[1].rank = r;
		ln[1].peer = a->peer;
		ln[1].op = i;
		ln[1].unit = op->nic;
		ln[1].range = a->range;
		ln[1].start_ns = a->end_ns;
		ln[1].end_ns = *t;
		ln[1].L = 1;
		return 2;
	case N_HCPU:
	case N_HNIC: {
		uint32_t q = goal_op_peer(m->s, r, op);
		sim_handle_times(m, r, op, i, q, a->start_ns, &at);
		a->rank = q;
		a->peer = r;
		if (x->type == N_HCPU) {
			*t = at.cpu;
			a->kind = TL_LINK_RECV;
			a->unit = op->cpu;
			a->o = 1;
			if (sim_rate_bytes(pr->G, op->size) >= sim_rate_bytes(pr->O, op->size))
				a->G_bytes = size1;
			else
				a->O_bytes = size1;
		} else {
			*t = at.nic;
			a->kind = TL_LINK_RNIC;
			a->unit = op->nic;
			a->g = 1;
			a->G_bytes = size1;
		}
		break;
	}
	default:   /* N_RECVDONE, N_RDVDONE, N_MATCH: as the node before */
		return 0;
	}
	a->end_ns = *t;
	return 1;
}

/* Link y, the next step of p: its noise, counts and derivatives, then
 * appended (*lcap: p's capacity).  0; -1 when the records are broken, -2
 * when out of memory. */
static int path_step(const sim *m, sim_path *p, size_t *lcap, tl_link *y)
{
	const sim_range *yr = &m->rg[y->range];
	uint64_t nominal = y->L * yr->L + y->o * yr->o + y->g * yr->g
	                   + sim_rate_bytes(yr->G, y->G_bytes + 1)
	                   + sim_rate_bytes(yr->O, y->O_bytes + 1) + y->calc_ns;
	if (y->end_ns < y->start_ns)
		return -1;
	y->noise_ns = (int64_t)(y->end_ns - y->start_ns - nominal);
	y->step = p->n + 1;
	struct sim_path_count *c = &p->count[y->range];
	c->L += y->L;
	c->o += y->o;
	c->g += y->g;
	c->G_bytes += y->G_bytes;
	c->O_bytes += y->O_bytes;
	p->calc += y->calc_ns;
	p->noise += y->noise_ns;
	/* The derivatives: o and O are CPU work, stretched on a slow rank
	 * (the link's rank is the one whose CPU works). */
	const num_dec *f = y->o || y->O_bytes ? sim_slow_factor(m, y->rank) : NULL;
	sim_u128 wt = f ? (sim_u128)f->num * (1000000000u / f->den) : 1000000000u;
	sim_u128 *d = p->d[y->range];
	d[0] += (sim_u128)y->L * 1000000000u;
	d[1] += (sim_u128)y->o * wt;
	d[2] += (sim_u128)y->g * 1000000000u;
	d[3] += (sim_u128)y->G_bytes * 1000000000u;
	d[4] += (sim_u128)y->O_bytes * wt;
	return path_add(p, lcap, y) ? -2 : 0;
}

int sim_critical_path(sim *m, const sim_result *res, sim_path *p, char *err, size_t errlen)
{
	memset(p, 0, sizeof *p);
	p->T = res->time;
	p->nranges = m->nrg;
	if (!m->cpr) {
		snprintf(err, errlen, "the critical path was not kept");
		return -1;
	}
	if (!res->complete) {
		snprintf(err, errlen, "the run is incomplete: no critical path");
		return -1;
	}
	/* The last activity: what set the free time T of the host's CPU. */
	uint64_t w = sim_cp_last(m, res->host, res->time);
	if (w == CPW_NONE)
		return 0;   /* nothing ran: T is 0 */
	cp_nd *nd = NULL;
	size_t nn = 0, lcap = 0;
	int rc = is_setter(w) ? walk_back(m, w, &nd, &nn) : -1;

	/* Forward from the root: the times of the nodes and the links. */
	uint64_t t = 0;
	uint8_t via = TL_VIA_ROOT;
	for (size_t k = nn; !rc && k-- > 0;) {
		tl_link ln[2];
		int nl = node_links(m, &nd[k], &t, &via, ln);
		if (m->fail)
			rc = -1;
		for (int l = 0; !rc && l < nl; l++)
			rc = path_step(m, p, &lcap, &ln[l]);
	}
	free(nd);
	if (!rc && t != res->time) {
		snprintf(err, errlen, "internal error: the critical path ends at %" PRIu64
		         " ns, not at the finishing time %" PRIu64 " ns", t, res->time);
		rc = -3;
	} else if (rc == -1) {
		snprintf(err, errlen, "internal error: the critical path records are inconsistent");
	} else if (rc == -2) {
		snprintf(err, errlen, "out of memory for the critical path");
	}
	if (rc)
		sim_path_free(p);
	return rc ? -1 : 0;
}
