/* sim_times.c: the time rules of docs/semantics.md sections 3, 9 and
 * 10: what an activity costs (o, O, g, G, L, strides), stretched by slow
 * ranks and noise.
 * A part of sim.c's compilation unit (sim.c includes it; it is not
 * compiled alone), so that the event handlers inline its helpers. */

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
	const sim_range *pr = range_of(m, r, op);
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
	const sim_range *pr = range_of(m, r, sop);
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
	watch_rdv_match(m);
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
	if (*cf < t) {
		watch_rdv_wait(m, q, t);
		set_free_by(m, cf, t, q, OVF_CPU, op->cpu, CPW(CPW_RDV, g));
	}
	if (*nf < t)
		set_free_by(m, nf, t, q, OVF_NICS, op->nic, CPW(CPW_RDV, g));
	mark_done(m, q, j);
	satisfy_edges(m, q, ops, j, done, 0);
}
