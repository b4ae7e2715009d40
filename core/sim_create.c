/* sim_create.c: making a simulation (its per-rank records, pools, tables
 * and network) and freeing it: the core's cold code (sim_int.h). */
#include "sim_int.h"

#include <inttypes.h>
#include <stdlib.h>
#include <sys/mman.h>   /* madvise */
#include <unistd.h>

/* Schedules whose blocks of ops and edges take more than this many bytes
 * have them prefetched (a block shared by many ranks stays in the caches). */
#define PF_SCHED_BYTES ((uint64_t)1 << 20)

/* The bytes of s's blocks: each distinct block once (a version 1 or 2
 * file has one per rank). */
static uint64_t sched_body(const goal_sched *s)
{
	if (!s->nblocks)
		return s->size;
	uint64_t n = 0;
	for (uint64_t b = 0; b < s->nblocks; b++)
		n += s->blocks[b].nops * sizeof(goal_op) + s->blocks[b].nedges * sizeof(goal_edge);
	return n;
}

static int ovf_word(const void *t, uint64_t i, uint64_t *w)
{
	*w = ((const sim_ovf *)t)[i].key;
	return *w != UINT64_MAX;
}

/* The overflow table at capacity cap (a power of two), the keys it has
 * placed anew: 0 or -1 (out of memory). */
static int ovf_resize(sim *m, uint64_t cap)
{
	sim_ovf *old = m->ovf, *t = malloc(cap * sizeof *t);
	uint64_t ocap = old ? m->ovf_mask + 1 : 0;
	if (!t)
		return -1;
	for (uint64_t i = 0; i < cap; i++)
		t[i].key = UINT64_MAX;
	m->ovf = t;
	m->ovf_mask = cap - 1;
	for (uint64_t i = 0; i < ocap; i++)
		if (old[i].key != UINT64_MAX)
			sim_ovf_insert(m, old[i].key);
	free(old);
	return 0;
}

/* The overflow table: every (rank, CPU) and (rank, NIC) pair past those
 * in the record that the schedule uses: an op's CPU, a send's NIC on its
 * rank, and the send's CPU and NIC on the receiver (a message is handled
 * there with the send's indices).  One pass over the ops, only for
 * schedules that use such indices; the table grows with the pairs (at
 * most half full), not with the ops that use them.  used[what][i]: the
 * pairs of index i below SIM_REC_MAX.  0 or -1 (out of memory). */
static int ovf_fill(sim *m, uint64_t used[3][SIM_REC_MAX])
{
	const goal_sched *s = m->s;
	uint64_t n = 0;
	if (ovf_resize(m, 16))
		return -1;
	for (uint64_t r = 0; r < s->nranks; r++) {
		const goal_op *ops = goal_rank_ops(s, r);
		for (uint32_t i = 0, k = goal_rank_nops(s, r); i < k; i++) {
			const goal_op *o = &ops[i];
			uint64_t keys[4];
			unsigned nk = 0;
			if (o->cpu >= m->ncpus)
				keys[nk++] = OVF_KEY(r, OVF_CPU, o->cpu);
			if (o->kind == GOAL_SEND) {
				uint32_t q = goal_op_peer(s, r, o);
				if (o->nic >= m->nnics)
					keys[nk++] = OVF_KEY(r, OVF_NICS, o->nic);
				if (o->cpu >= m->ncpus)
					keys[nk++] = OVF_KEY(q, OVF_CPU, o->cpu);
				if (o->nic >= m->nnics)
					keys[nk++] = OVF_KEY(q, OVF_NICR, o->nic);
			}
			for (unsigned j = 0; j < nk; j++) {
				if (2 * (n + 1) > m->ovf_mask + 1 && ovf_resize(m, 2 * (m->ovf_mask + 1)))
					return -1;
				if (sim_ovf_insert(m, keys[j])) {
					n++;
					if (OVF_IDX(keys[j]) < SIM_REC_MAX)
						used[OVF_WHAT(keys[j])][OVF_IDX(keys[j])]++;
				}
			}
		}
	}
	ASSERT(oa_probes_ok(oa_measure(m->ovf, m->ovf_mask, ovf_word), m->ovf_mask));
	return 0;
}

/* Whether key (UINT64_MAX: none) names a CPU or NIC past the record's. */
static int ovf_past(const sim *m, uint64_t key)
{
	return key != UINT64_MAX && OVF_IDX(key) >= (OVF_WHAT(key) == OVF_CPU ? m->ncpus : m->nnics);
}

/* The CPUs and NICs the rank records hold: the first SIM_REC_INDEX, and
 * every index up to the last that a quarter of the ranks or more use (of
 * a NIC: counted once as a send NIC, once as a receive NIC, against half
 * the ranks), below SIM_REC_MAX; the overflow table keeps the rest.  A
 * pair costs 32 bytes there (16, the table at most half full), so such an
 * index costs no more in the records (8 bytes a rank), and is read there
 * without a search (NCCL's channels run on 16 CPUs a rank).  0 or -1 (out
 * of memory). */
static int rec_layout(sim *m, const goal_sched *s)
{
	uint32_t nc = s->ncpus ? s->ncpus : 1, nn = s->nnics ? s->nnics : 1;
	m->ncpus = nc < SIM_REC_INDEX ? nc : SIM_REC_INDEX;
	m->nnics = nn < SIM_REC_INDEX ? nn : SIM_REC_INDEX;
	if ((nc == m->ncpus && nn == m->nnics) || !s->nranks)
		return 0;
	uint64_t used[3][SIM_REC_MAX] = { { 0 } }, quarter = (s->nranks + 3) / 4;
	if (ovf_fill(m, used))
		return -1;
	uint32_t c = m->ncpus, n = m->nnics;
	for (uint32_t i = SIM_REC_INDEX; i < SIM_REC_MAX; i++) {
		uint64_t cpus = used[OVF_CPU][i], nics = used[OVF_NICS][i] + used[OVF_NICR][i];
		if (cpus >= quarter)
			c = i + 1;
		if (nics >= 2 * quarter)
			n = i + 1;
	}
	if (c == m->ncpus && n == m->nnics)
		return 0;
	m->ncpus = c;
	m->nnics = n;
	sim_ovf *old = m->ovf;   /* without the pairs now in the records */
	uint64_t ocap = m->ovf_mask + 1, keep = 0, cap = 16;
	for (uint64_t i = 0; i < ocap; i++)
		keep += ovf_past(m, old[i].key);
	m->ovf = NULL;
	while (cap < 2 * (keep + 1))
		cap *= 2;
	if (keep && ovf_resize(m, cap)) {
		m->ovf = old;
		return -1;
	}
	for (uint64_t i = 0; i < ocap; i++)
		if (ovf_past(m, old[i].key))
			sim_ovf_insert(m, old[i].key);
	free(old);
	return 0;
}

static const char *const feature_str[SIM_NFEATURES] = {
#define SIM_FEAT_X(e, what) what,
	SIM_FEATURES(SIM_FEAT_X)
#undef SIM_FEAT_X
};

/* The pairs that cannot be combined. */
static const uint8_t conflicts[][2] = {
	{ SIM_F_NET, SIM_F_PATH },
	{ SIM_F_NET, SIM_F_NOISE },
	{ SIM_F_NET, SIM_F_SLOW },
	{ SIM_F_NODES, SIM_F_PATH },
};

const char *sim_feature_str(sim_feature k)
{
	return k < SIM_NFEATURES ? feature_str[k] : "?";
}

int sim_features_conflict(unsigned f, sim_feature *a, sim_feature *b)
{
	for (size_t i = 0; i < sizeof conflicts / sizeof conflicts[0]; i++)
		if (f >> conflicts[i][0] & f >> conflicts[i][1] & 1) {
			*a = conflicts[i][0];
			*b = conflicts[i][1];
			return 1;
		}
	return 0;
}

/* The features opt asks for. */
static unsigned features(const sim_options *opt)
{
	const sim_perturb *pt = opt->perturb;
	return (unsigned)(opt->net != NULL) << SIM_F_NET | (unsigned)(opt->critical != 0) << SIM_F_PATH
	       | (unsigned)(pt && pt->noise) << SIM_F_NOISE | (unsigned)(pt && pt->nslow) << SIM_F_SLOW;
}

/* The capacity of link l (flow_net_new): its own bandwidth, or 1/G of the
 * largest messages' range. */
static double link_cap(void *ctx, uint32_t l)
{
	const sim *m = ctx;
	double bw = topo_link_bw(m->topo, l);
	return bw > 0 ? bw : m->rate[m->nrg - 1];
}

/* The network of opt (section 11): its flows, each link at its own
 * bandwidth or at 1/G of the largest messages' range.  0, or -1 with the
 * message in err (m destroyed). */
static int net_setup(sim *m, const sim_options *opt, char *err, size_t errlen)
{
	const topo *t = opt->net->topo;
	m->topo = t;
	m->host = opt->net->host;
	uint32_t nl = topo_links(t);
	m->fin = sim_big_alloc((m->nranks ? m->nranks : 1) * sizeof *m->fin);
	for (uint32_t k = 0; k < m->nrg; k++)
		m->rate[k] = 1.0 / ((double)m->rg[k].G.num / (double)m->rg[k].G.den);
	if (m->fin)
		m->fl = flow_net_new(nl, link_cap, m, TOPO_MAX_HOPS, opt->net->rule);
	if (!m->fl) {
		snprintf(err, errlen, "out of memory for %" PRIu32 " links", nl);
		sim_destroy(m);
		return -1;
	}
	m->hoplat = topo_route_lat(t, 2) != 0;
	if (m->tl && flow_net_watch(m->fl, sim_link_load, m)) {
		snprintf(err, errlen, "out of memory for %" PRIu32 " links", nl);
		sim_destroy(m);
		return -1;
	}
	return 0;
}

/* The ranges of level p into rg (at most SIM_MAX_RANGES): their number,
 * or 0 when they are malformed. */
static uint32_t copy_ranges(sim_range *rg, const sim_params *p)
{
	if (p->nranges < 2) {
		sim_range one = { UINT64_MAX, p->L, p->o, p->g, p->G, p->O };
		rg[0] = one;
		return 1;
	}
	if (p->nranges > SIM_MAX_RANGES || !p->range)
		return 0;
	for (uint32_t k = 0; k < p->nranges; k++) {
		if (k && p->range[k].last <= p->range[k - 1].last)
			return 0;
		rg[k] = p->range[k];
	}
	return rg[p->nranges - 1].last == UINT64_MAX ? p->nranges : 0;
}

/* The size ranges (of both levels) and strides of p into m (critical: the
 * critical path is kept, which strides rule out): 0, or -1 with
 * the reason in err. */
static int set_params(sim *m, const goal_sched *s, const sim_params *p, int critical,
                      char *err, size_t errlen)
{
	if (!(m->nrg = copy_ranges(m->rg, p)))
		goto badrange;
	if (p->ranks_per_node >= 2) {
		if (!p->intra || !(m->nrg_in = copy_ranges(m->rg + m->nrg, p->intra)))
			goto badrange;
		m->ppn = p->ranks_per_node;
	}
	if (p->nstrides && s->nstrides) {
		if (p->nstrides > SIM_MAX_STRIDES || !p->strides)
			goto badstride;
		for (uint32_t k = 0; k < p->nstrides; k++) {
			if ((k && p->strides[k].stride <= p->strides[k - 1].stride) || !p->strides[k].stride)
				goto badstride;
			m->st[k] = p->strides[k];
		}
		m->nst = p->nstrides;
		if (critical) {
			snprintf(err, errlen, "the critical path does not count the middleware costs of"
			         " strided messages: give a parameter set without strides");
			return -1;
		}
	}
	for (uint32_t j = 0; critical && j < s->njobs; j++)
		if (s->jobs[j].start) {
			snprintf(err, errlen, "the critical path starts at time 0, and job %s starts at %" PRIu64
			         " ns: merge the jobs without start times", goal_job_name(s, j), s->jobs[j].start);
			return -1;
		}
	return 0;
badrange:
	snprintf(err, errlen, "malformed size ranges");
	return -1;
badstride:
	snprintf(err, errlen, "malformed strides");
	return -1;
}

/* The rank records, the op bits and the records of the critical path
 * (critical), of the queue statistics (qstat) and of the account for
 * schedule s, and the pools: 0, or -1 when out of memory. */
static int alloc_state(sim *m, const goal_sched *s, int critical, int qstat, int account)
{
	m->nranks = s->nranks;
	m->rq_off = RANK_WORDS + m->ncpus + 2ull * m->nnics;
	m->stride = m->rq_off + sizeof(sim_rq) / sizeof(uint64_t);
	if (m->stride <= 8)
		m->stride = 8;  /* a cache line per rank */
	m->pf_sched = sched_body(s) > PF_SCHED_BYTES;
	/* Zero pages: all times 0, all queues empty (QNIL is 0). */
	m->rs_bytes = (m->nranks ? m->nranks : 1) * m->stride * sizeof(uint64_t);
	m->rs = sim_big_alloc(m->rs_bytes);
	m->started_bytes = (s->nops / 64 + 1) * sizeof(uint64_t);
	m->started = sim_big_alloc(m->started_bytes);
	if (!m->rs || !m->started)
		return -1;
	if (critical) {
		m->nres = m->ncpus + 2ull * m->nnics;
		m->cpr_w = s->nops < CP_SMALL_OPS && critical != 2 ? 4 : 5;
		m->cpr_bytes = s->nops * 2 * m->cpr_w + 8;
		m->cpr = sim_big_alloc(m->cpr_bytes);   /* zero: CPW_NONE */
		m->cps = sim_big_alloc((m->nranks ? m->nranks : 1) * m->nres * sizeof *m->cps);
		if (!m->cpr || !m->cps)
			return -1;
	}
	if (qstat && !(m->qs = sim_big_alloc((m->nranks ? m->nranks : 1) * sizeof *m->qs)))
		return -1;
	if (account && !(m->acct = sim_big_alloc((m->nranks ? m->nranks : 1) * sizeof *m->acct)))
		return -1;
#if GOAL_CHECKS
	m->done = sim_big_alloc(m->started_bytes);
	if (!m->done)
		return -1;
#endif
	for (uint64_t r = 0; r < m->nranks; r++) {
		sim_rank *k = (sim_rank *)(void *)&m->rs[r * m->stride];
		k->block_off = s->ranks[r].block_off;
		k->first_op = s->ranks[r].first_op;
		k->nops = goal_rank_nops(s, r);
		k->nedges = s->ranks[r].nedges;
	}
	m->rqp.esz = sizeof(sim_rqe);
	m->rxp.esz = sizeof(sim_rqx);
	m->uqp.esz = sizeof(sim_uqe);
	m->wnp.esz = sizeof(sim_wnode);
	m->wcp.esz = sizeof(sim_wchunk);
	m->wlp.esz = sizeof(sim_wlist);
	m->rqp.used = m->rxp.used = m->uqp.used = m->wnp.used = m->wcp.used = m->wlp.used = 1;  /* entry 0 stands for QNIL */
	m->waking = m->last_list = QNIL;
	m->last_wkey = UINT64_MAX;
	return 0;
}

/* The least time from a send's start to its message's arrival: o + L of
 * each size range of each level, o of the fastest rank (a slow rank's
 * factor may lie below 1); middleware costs, switch latencies and detours
 * only add to it. */
static uint64_t lookahead(const sim *m)
{
	uint64_t best = UINT64_MAX;
	for (uint32_t k = 0; k < m->nrg + m->nrg_in; k++) {
		uint64_t o = m->rg[k].o, y;
		for (size_t j = 0; m->pt && j < m->pt->nslow; j++)
			if (!sim_slow_apply(m->pt->slow[j].factor, m->rg[k].o, &y) && y < o)
				o = y;
		uint64_t t = o + m->rg[k].L < o ? UINT64_MAX : o + m->rg[k].L;
		if (t < best)
			best = t;
	}
	return best;
}

/* The windows' statistics (sim_options.windows): 0, or -1 when out of
 * memory. */
static int win_create(sim *m)
{
	if (!(m->win = calloc(1, sizeof *m->win))
	    || !(m->win->last = sim_big_alloc((m->nranks ? m->nranks : 1) * sizeof *m->win->last)))
		return -1;
	m->win->w.flows = m->fl != NULL;
	m->win->w.lookahead = m->fl ? 0 : lookahead(m);
	return 0;
}

sim *sim_create(const goal_sched *s, const sim_params *p,
                const sim_options *opt, char *err, size_t errlen)
{
	sim_feature a, b;
	unsigned f = opt ? features(opt) : 0;
	if (sim_features_conflict(f | (unsigned)(p->ranks_per_node >= 2) << SIM_F_NODES, &a, &b)) {
		snprintf(err, errlen, "%s cannot be combined with %s", feature_str[a], feature_str[b]);
		return NULL;
	}
	sim *m = calloc(1, sizeof *m);
	if (!m)
		goto oom;
	m->s = s;
	m->S = p->S;
	int critical = opt ? opt->critical : 0, qstat = opt && opt->qstat;
	int account = opt && opt->account;
	if (set_params(m, s, p, critical, err, errlen)) {
		sim_destroy(m);
		return NULL;
	}
	if (opt) {
		m->tl = opt->timeline;
		m->progress = opt->progress;
		m->pctx = opt->progress_ctx;
		m->seq_limit = opt->seq_limit;
		m->q_index_after = opt->q_index_after;
		if (opt->perturb && (opt->perturb->noise || opt->perturb->nslow))
			m->pt = opt->perturb;
	}
	if (s->nranks > SIM_MAX_RANKS) {
		snprintf(err, errlen, "the simulation takes at most 2^29 ranks (the schedule has %"
		         PRIu64 ")", s->nranks);
		sim_destroy(m);
		return NULL;
	}
	if (account && (s->ncpus > 1 || s->nnics > 1)) {
		snprintf(err, errlen, "the account splits the time of one CPU and one NIC per rank "
		         "(the schedule uses %" PRIu32 " CPUs and %" PRIu32 " NICs)", s->ncpus, s->nnics);
		sim_destroy(m);
		return NULL;
	}
	if (critical && s->nops >= CP_MAX_OPS) {
		snprintf(err, errlen, "the critical path needs fewer than 2^36 ops (the schedule has %"
		         PRIu64 ")", s->nops);
		sim_destroy(m);
		return NULL;
	}
	if (m->seq_limit == 0 || m->seq_limit > (1ull << 32))
		m->seq_limit = 1ull << 32;
	if (m->q_index_after == 0)
		m->q_index_after = Q_INDEX_AFTER;
	if (rec_layout(m, s) || alloc_state(m, s, critical, qstat, account))
		goto oom;
#ifdef MADV_POPULATE_READ
	/* Map the whole schedule in one call rather than one page fault per
	 * page, when it fits comfortably in memory (else pages come and go). */
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
	if (s->mapped && pages > 0 && psz > 0 && s->size < (uint64_t)pages * (uint64_t)psz / 2)
		madvise((void *)(uintptr_t)s->base, s->size, MADV_POPULATE_READ);
#endif
	evq_init(&m->q);
	if (opt && opt->net && net_setup(m, opt, err, errlen))
		return NULL;
	if (opt && opt->windows && win_create(m))
		goto oom;
	return m;
oom:
	snprintf(err, errlen, "out of memory for %" PRIu64 " ranks", s->nranks);
	sim_destroy(m);
	return NULL;
}

void sim_destroy(sim *m)
{
	if (!m)
		return;
	sim_big_free(m->rs, m->rs_bytes);
	sim_big_free(m->started, m->started_bytes);
	sim_big_free(m->done, m->started_bytes);
	sim_big_free(m->cpr, m->cpr_bytes);
	sim_big_free(m->cps, (m->nranks ? m->nranks : 1) * m->nres * sizeof *m->cps);
	sim_big_free(m->qs, (m->nranks ? m->nranks : 1) * sizeof *m->qs);
	sim_big_free(m->acct, m->acct ? (m->nranks ? m->nranks : 1) * sizeof *m->acct : 0);
	if (m->win) {
		sim_big_free(m->win->last, (m->nranks ? m->nranks : 1) * sizeof *m->win->last);
		free(m->win->rec);
		free(m->win->own);
	}
	free(m->win);
	sim_big_free(m->rdv, m->rdv ? (m->rdv_mask + 1) * sizeof *m->rdv : 0);
	sim_big_free(m->rqp.a, (uint64_t)m->rqp.cap * m->rqp.esz);
	sim_big_free(m->uqp.a, (uint64_t)m->uqp.cap * m->uqp.esz);
	sim_big_free(m->rxp.a, (uint64_t)m->rxp.cap * m->rxp.esz);
	sim_big_free(m->qix, m->qix ? q_bytes(m) : 0);
	sim_big_free(m->wnp.a, (uint64_t)m->wnp.cap * m->wnp.esz);
	sim_big_free(m->wcp.a, (uint64_t)m->wcp.cap * m->wcp.esz);
	sim_big_free(m->wlp.a, (uint64_t)m->wlp.cap * m->wlp.esz);
	free(m->wt);
	sim_big_free(m->dt, m->dt ? (m->dt_mask + 1) * sizeof *m->dt : 0);
	sim_big_free(m->rdvs, rdvs_bytes(m));
	free(m->rel);
	free(m->ovf);
	free(m->ovf_max);
	flow_net_free(m->fl);
	free(m->fr);
	sim_big_free(m->fin, (m->nranks ? m->nranks : 1) * sizeof *m->fin);
	evq_free(&m->q);
	free(m);
}

const flow_net *sim_flows(const sim *m)
{
	return m->fl;
}
