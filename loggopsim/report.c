/* report.c: the outputs of a finished loggopsim run: the critical path
 * file, the CSV of the finishing times, the tolerance searches and the
 * summary (text or JSON), with the descriptions of the perturbation and
 * the network that the sweeps' outputs use too (loggopsim_int.h). */
#include "loggopsim_int.h"

#include "die.h"
#include "json.h"
#include "goal_open.h"
#include "progress.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* a / b to two decimals, half up ("1.50"; "0.00" when b is 0). */
static void put_mean(char *buf, size_t n, uint64_t a, uint64_t b)
{
	__extension__ unsigned __int128 h = b ? ((unsigned __int128)a * 200 + b) / (2 * (unsigned __int128)b) : 0;
	snprintf(buf, n, "%" PRIu64 ".%02" PRIu64, (uint64_t)(h / 100), (uint64_t)(h % 100));
}

static void put_seconds(FILE *f, uint64_t ns)
{
	fprintf(f, "%" PRIu64 ".%09" PRIu64, ns / 1000000000u, ns % 1000000000u);
}

/* The words of the outputs for how ranks read the noise (a fixed offset
 * is its number) and for the rule. */
static const char *offsets_word(const sim_perturb *p)
{
	return p->offsets == SIM_OFFSETS_COSCHED ? "cosched" : "own";
}

static const char *rule_word(const sim_perturb *p)
{
	return p->rule == SIM_NOISE_PUBLISHED ? "published" : "exact";
}

/* The noise source and how it is read ("trace FILE, offsets own, rule
 * exact"), then the slow ranks ("; slow 1:1.5"), for the text output and
 * the sweep CSV. */
void describe(const perturb_opts *o, int slow, char *buf, size_t n)
{
	const sim_perturb *p = &o->p;
	size_t k = 0;
#define ADD(...) (k += (size_t)snprintf(buf + k, k < n ? n - k : 0, __VA_ARGS__))
	buf[0] = 0;
	if (o->noise) {
		ADD("%s %s, offsets ", o->trace ? "trace" : "synthetic", o->trace ? o->trace : o->spec);
		if (p->offsets == SIM_OFFSETS_FIXED)
			ADD("%" PRIu64, p->offset);
		else
			ADD("%s", offsets_word(p));
		ADD(", rule %s", rule_word(p));
	}
	for (size_t i = 0; slow && i < o->nslow_text; i++)
		ADD("%sslow %s", k ? "; " : "", o->slow_text[i]);
#undef ADD
}

/* The lines of the text output: the noise, its table and seed, the slow
 * ranks. */
static void put_perturb_text(FILE *f, const perturb_opts *o)
{
	if (o->noise) {
		uint64_t pct = sim_noise_share(o->noise);
		char d[1200];
		describe(o, 0, d, sizeof d);
		fprintf(f, "noise %s", d);
		fprintf(f, ", seed %" PRIu64 ": %zu detour%s, period %" PRIu64 " ns, %" PRIu64
		        ".%02" PRIu64 "%% of CPU time\n", o->p.seed, sim_noise_count(o->noise),
		        sim_noise_count(o->noise) == 1 ? "" : "s", sim_noise_period(o->noise),
		        pct / 100, pct % 100);
	}
	for (size_t i = 0; i < o->nslow_text; i++)
		fprintf(f, "slow %s\n", o->slow_text[i]);
}

/* The JSON members of the perturbation, or nothing. */
static void put_perturb_json(uj *j, const perturb_opts *o)
{
	const sim_perturb *p = &o->p;
	if (o->noise) {
		uj_obj(j, "noise");
		uj_str(j, o->trace ? "trace" : "spec", o->trace ? o->trace : o->spec);
		if (p->offsets == SIM_OFFSETS_FIXED)
			uj_u64(j, "offsets", p->offset);
		else
			uj_str(j, "offsets", offsets_word(p));
		uj_str(j, "rule", rule_word(p));
		uj_u64(j, "seed", p->seed);
		uj_u64(j, "detours", sim_noise_count(o->noise));
		uj_u64(j, "period_ns", sim_noise_period(o->noise));
		uj_u64(j, "busy_ns", sim_noise_busy(o->noise));
		uj_end(j);
	}
	if (o->nslow_text) {
		uj_arr(j, "slow");
		for (size_t i = 0; i < o->nslow_text; i++)
			uj_str(j, NULL, o->slow_text[i]);
		uj_end(j);
	}
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

/* Keep the most loaded links of m's run (by bytes as reported, rounded,
 * then link number). */
static void net_collect(net_opts *n, const sim *m)
{
	const flow_net *f = sim_flows(m);
	if (!f)
		return;
	n->flows = flow_count(f);
	n->largest = flow_largest_settle(f);
	/* The links that carried flows, in link order (ties go to the lower). */
	size_t nu;
	const uint32_t *u = flow_links_used(f, &nu);
	uint32_t *ls = malloc((nu ? nu : 1) * sizeof *ls);
	if (!ls)
		return;
	if (nu)
		memcpy(ls, u, nu * sizeof *ls);
	qsort(ls, nu, sizeof *ls, cmp_u32);
	for (size_t i = 0; i < nu; i++) {
		uint32_t l = ls[i];
		const flow_link_stat *st = flow_link(f, l);
		if (st->peak > n->peak)
			n->peak = st->peak;
		if (st->bytes <= 0)
			continue;
		uint64_t bytes = flow_round(st->bytes);
		size_t k = n->ntop < NET_TOP ? n->ntop++ : NET_TOP;
		while (k > 0 && n->top[k - 1].bytes < bytes) {
			if (k < NET_TOP)
				n->top[k] = n->top[k - 1];
			k--;
		}
		if (k >= NET_TOP)
			continue;
		topo_link_name(n->t, l, n->top[k].name, sizeof n->top[k].name);
		n->top[k].bytes = bytes;
		n->top[k].busy = st->busy;
		n->top[k].peak = st->peak;
	}
	free(ls);
}

/* The network for reports: its canonical spec, and the rule when simple. */
void net_spec(const net_opts *n, char *buf, size_t len)
{
	size_t k;
	topo_spec(n->t, buf, len);
	k = strlen(buf);
	if (n->net.rule == FLOW_SIMPLE)
		snprintf(buf + k, len - k, " (simple rule)");
}

static void net_print(FILE *f, const net_opts *n)
{
	char spec[300];
	net_spec(n, spec, sizeof spec);
	fprintf(f, "Network %s: %" PRIu64 " flows, at most %" PRIu32 " on one link, at most %"
	        PRIu64 " recomputed at once\n", spec, n->flows, n->peak, n->largest);
	for (size_t i = 0; i < n->ntop; i++)
		fprintf(f, "  link %s: %" PRIu64 " bytes, busy %" PRIu64 " ns, at most %" PRIu32 " flow%s\n",
		        n->top[i].name, n->top[i].bytes, n->top[i].busy, n->top[i].peak,
		        n->top[i].peak == 1 ? "" : "s");
}

static void net_json(uj *j, const net_opts *n)
{
	char spec[256];
	topo_spec(n->t, spec, sizeof spec);
	uj_obj(j, "network");
	uj_str(j, "topology", spec);
	uj_str(j, "rule", n->net.rule == FLOW_SIMPLE ? "simple" : "maxmin");
	uj_u64(j, "flows", n->flows);
	uj_u64(j, "peak_flows", n->peak);
	uj_u64(j, "largest_settle", n->largest);
	uj_arr(j, "links");
	for (size_t i = 0; i < n->ntop; i++) {
		uj_obj(j, NULL);
		uj_str(j, "link", n->top[i].name);
		uj_u64(j, "bytes", n->top[i].bytes);
		uj_u64(j, "busy_ns", n->top[i].busy);
		uj_u64(j, "peak_flows", n->top[i].peak);
		uj_end(j);
	}
	uj_end(j);
	uj_end(j);
}

/* Write to path ("-": stdout) safely (util/out.h) with fn; returns 0, or
 * 1 after printing the error.  main has checked that no output is one of
 * the inputs. */
int write_out(const char *path, int (*fn)(FILE *, void *), void *ctx)
{
	char err[1024];
	return util_out_write(path, NULL, 0, fn, ctx, err, sizeof err) ? util_error_msg(err) : 0;
}

/* The CSV of the finishing times, with the time on the critical path and
 * the slack (path not NULL) and the queue statistics (qstat). */
typedef struct finish_out {
	const sim *m;
	uint64_t nranks;
	const sim_path *path;
	int qstat, account;
} finish_out;

static int put_finish(FILE *f, void *ctx)
{
	const finish_out *o = ctx;
	uint64_t *on = NULL;
	if (o->path) {
		/* The time of each rank's links (a wire is no rank's). */
		on = calloc(o->nranks ? o->nranks : 1, sizeof *on);
		if (!on)
			return -1;
		for (size_t i = 0; i < o->path->n; i++) {
			const tl_link *k = &o->path->link[i];
			if (k->kind != TL_LINK_WIRE)
				on[k->rank] += k->end_ns - k->start_ns;
		}
	}
	fprintf(f, "rank,finish_ns%s%s%s\n", on ? ",cp_ns,slack_ns" : "",
	        o->qstat ? ",rq_max,uq_max,searches,searched_mean,searched_max" : "",
	        o->account ? ",calc_ns,overhead_ns,noise_ns,nic_ns,wait_ns" : "");
	for (uint64_t r = 0; r < o->nranks; r++) {
		uint64_t fin = sim_rank_finish(o->m, r);
		fprintf(f, "%" PRIu64 ",%" PRIu64, r, fin);
		if (on)
			fprintf(f, ",%" PRIu64 ",%" PRIu64, on[r], o->path->T - fin);
		sim_qstat q;
		if (o->qstat && sim_qstat_rank(o->m, r, &q) == 0) {
			char mean[32];
			put_mean(mean, sizeof mean, q.searched, q.searches);
			fprintf(f, ",%" PRIu32 ",%" PRIu32 ",%" PRIu64 ",%s,%" PRIu32, q.rq_max, q.uq_max,
			        q.searches, mean, q.searched_max);
		}
		sim_account a;
		if (o->account && sim_account_rank(o->m, r, &a) == 0)
			fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64, a.calc,
			        a.overhead, a.noise, a.nic, a.wait);
		fputc('\n', f);
	}
	free(on);
	return ferror(f) ? -1 : 0;
}

/* The critical path file (timeline/tl_path.h), with the ops' labels. */
typedef struct path_out {
	const goal_sched *s;
	const sim_path *path;
} path_out;

static int put_path(FILE *f, void *ctx)
{
	const path_out *o = ctx;
	return tl_path_write(f, o->path->link, o->path->n);
}

/* Give the path's links the labels of their ops (the sender's for a
 * received message's links) in a new array of buffers (*buf, to free). */
static int label_path(const goal_sched *s, sim_path *p, char (**buf)[256])
{
	if (!(*buf = calloc(p->n ? p->n : 1, sizeof **buf)))
		return -1;
	for (size_t i = 0; i < p->n; i++) {
		tl_link *k = &p->link[i];
		uint64_t owner = k->kind == TL_LINK_RECV || k->kind == TL_LINK_RNIC ? k->peer : k->rank;
		k->label = goal_op_label(s, owner, (uint32_t)k->op, (*buf)[i], sizeof (*buf)[i]);
	}
	return 0;
}

/* The queue statistics over all ranks. */
typedef struct qstat_sum {
	uint32_t rq_max, uq_max, searched_max;
	uint64_t rq_rank, uq_rank, searched_rank, searches, searched;
} qstat_sum;

static void qstat_total(const sim *m, uint64_t nranks, qstat_sum *t)
{
	memset(t, 0, sizeof *t);
	for (uint64_t r = 0; r < nranks; r++) {
		sim_qstat q;
		if (sim_qstat_rank(m, r, &q))
			return;
		if (q.rq_max > t->rq_max) {
			t->rq_max = q.rq_max;
			t->rq_rank = r;
		}
		if (q.uq_max > t->uq_max) {
			t->uq_max = q.uq_max;
			t->uq_rank = r;
		}
		if (q.searched_max > t->searched_max) {
			t->searched_max = q.searched_max;
			t->searched_rank = r;
		}
		t->searches += q.searches;
		t->searched += q.searched;
	}
}

/* The account summed over all ranks (-1: not kept). */
static int account_total(const sim *m, uint64_t nranks, sim_account *t)
{
	memset(t, 0, sizeof *t);
	for (uint64_t r = 0; r < nranks; r++) {
		sim_account a;
		if (sim_account_rank(m, r, &a))
			return -1;
		t->finish += a.finish;
		t->calc += a.calc;
		t->overhead += a.overhead;
		t->noise += a.noise;
		t->nic += a.nic;
		t->wait += a.wait;
	}
	return 0;
}

/* The account's parts: X(field, JSON name, the summary's words). */
#define ACCOUNT_PARTS(X) \
	X(calc, "calc_ns", "computation") \
	X(overhead, "overhead_ns", "o and O") \
	X(noise, "noise_ns", "noise") \
	X(nic, "nic_ns", "waiting for the NIC") \
	X(wait, "wait_ns", "waiting for other ranks")

/* The lookahead windows' statistics (--lookahead): the text lines. */
static void windows_text(const sim_windows *w)
{
	if (w->flows) {
		printf("Lookahead: none (a network's flows decide when messages arrive)\n");
		return;
	}
	printf("Lookahead: %" PRIu64 " ns (the least o + L)\n", w->lookahead);
	char ev[32], rk[32], per[32], give[32];
	put_mean(ev, sizeof ev, w->events, w->windows);
	put_mean(rk, sizeof rk, w->visits, w->windows);
	put_mean(per, sizeof per, w->events, w->visits);
	put_mean(give, sizeof give, 100 * w->pushers, w->events);
	printf("Windows: %" PRIu64 ", %s events each (at most %" PRIu64 "), %s ranks each, %s "
	       "events per rank; %s%% of the events give new seqs\n", w->windows, ev, w->largest,
	       rk, per, give);
	for (int dealt = 0; dealt <= 1; dealt++) {
		printf(dealt ? "Ranks dealt round-robin: events over the busiest set's in each window,"
		             : "Blocks of ranks: events over the busiest block's in each window,");
		for (unsigned k = 0; k < SIM_WIN_SPLITS; k++) {
			char x[32];
			put_mean(x, sizeof x, w->events, dealt ? w->busiest_dealt[k] : w->busiest[k]);
			printf("%s %s of %" PRIu32, k ? "," : "", x, sim_win_blocks[k]);
		}
		printf("\n");
	}
	printf("Merge: %" PRIu64 " windows put back in the sequential order, %" PRIu64 " not, %"
	       PRIu64 " not tried\n", w->merged, w->merge_wrong, w->merge_skipped);
	if (w->rendezvous)
		printf("Rendezvous: %" PRIu64 " messages above S end their sends at their match "
		       "(no lookahead)\n", w->rendezvous);
}

static void windows_json(uj *j, const sim_windows *w)
{
	uj_obj(j, "lookahead");
	uj_raw(j, "flows", w->flows ? "true" : "false");
	uj_u64(j, "lookahead_ns", w->lookahead);
	uj_u64(j, "windows", w->windows);
	uj_u64(j, "events", w->events);
	uj_u64(j, "largest", w->largest);
	uj_u64(j, "rank_visits", w->visits);
	uj_u64(j, "seq_givers", w->pushers);
	uj_u64(j, "rendezvous", w->rendezvous);
	uj_u64(j, "merged", w->merged);
	uj_u64(j, "merge_wrong", w->merge_wrong);
	uj_u64(j, "merge_skipped", w->merge_skipped);
	uj_arr(j, "busiest_block_events");
	for (unsigned k = 0; k < SIM_WIN_SPLITS; k++) {
		uj_obj(j, NULL);
		uj_u64(j, "blocks", sim_win_blocks[k]);
		uj_u64(j, "events", w->busiest[k]);
		uj_u64(j, "dealt_events", w->busiest_dealt[k]);
		uj_end(j);
	}
	uj_end(j);
	uj_end(j);
}

/* What a complete run reports beside its result. */
typedef struct report {
	const sim_result *res;
	const sim_path *path;     /* with the critical path */
	int critical;
	const unsigned *runs;     /* of the tolerance searches */
	const qstat_sum *qs;
	const sim_account *acct;      /* summed over the ranks (--account) */
	const sim_windows *win;       /* --lookahead */
	const uint64_t *host_finish;  /* of ranks 0..15 */
	const uint64_t *job_end;      /* of each job (s->njobs) */
	const uint64_t *job_alone;    /* and alone (--jobs-alone), or NULL */
} report;

/* The end of each job of s in run m (sim_job_end).  NULL when out of
 * memory. */
static uint64_t *job_ends(const goal_sched *s, const sim *m)
{
	uint64_t *e = calloc(s->njobs ? s->njobs : 1, sizeof *e);
	for (uint32_t j = 0; e && j < s->njobs; j++)
		e[j] = sim_job_end(m, j);
	return e;
}

/* The end of job j of s simulated alone in its ranks, under the run's
 * parameters, perturbations and network.  0, or -1 with a message in
 * err. */
static int job_alone(const cli *cl, const goal_sched *s, uint32_t j, uint64_t *end, char *err,
                     size_t n)
{
	goal_sched a;
	if (goal_sched_open_alone(&a, s, j, err, n))
		return -1;
	const perturb_opts *po = &cl->po;
	sim_options so = { .perturb = perturbed(po) ? &po->p : NULL,
	                   .net = cl->no.t ? &cl->no.net : NULL };
	sim *m = sim_create(&a, &cl->pset.p, &so, err, n);
	sim_result res;
	int rc = -1;
	double t0 = util_now();
	if (m && sim_run(m, &res, err, n) == 0) {
		uint64_t *e = res.complete ? job_ends(&a, m) : NULL;
		if (!res.complete)
			snprintf(err, n, "job %s alone: incomplete run", goal_job_name(s, j));
		else if (!e)
			snprintf(err, n, "out of memory");
		else
			*end = e[0], rc = 0;
		free(e);
		if (!rc && !cl->quiet)
			fprintf(stderr, "%s: job %s alone: %" PRIu64 " events in %.3f s\n", util_prog(),
			        goal_job_name(s, j), res.events, util_now() - t0);
	}
	if (m)
		sim_destroy(m);
	goal_sched_close(&a);
	return rc;
}

/* time / alone to four decimals, half up ("1.2500"; "0.0000" when alone
 * is 0). */
static void put_slowdown(char *buf, size_t n, uint64_t time, uint64_t alone)
{
	__extension__ unsigned __int128 h = alone ? ((unsigned __int128)time * 20000 + alone)
	                                            / (2 * (unsigned __int128)alone) : 0;
	snprintf(buf, n, "%" PRIu64 ".%04" PRIu64, (uint64_t)(h / 10000), (uint64_t)(h % 10000));
}

static void jobs_json(uj *j, const goal_sched *s, const report *rp)
{
	char sd[32];
	uj_arr(j, "jobs");
	for (uint32_t k = 0; k < s->njobs; k++) {
		const goal_job *g = &s->jobs[k];
		uint64_t time = rp->job_end[k] - g->start;
		uj_obj(j, NULL);
		uj_str(j, "name", goal_job_name(s, k));
		uj_u64(j, "ranks", g->nranks);
		uj_u64(j, "start_ns", g->start);
		uj_u64(j, "end_ns", rp->job_end[k]);
		uj_u64(j, "time_ns", time);
		if (rp->job_alone) {
			uj_u64(j, "alone_ns", rp->job_alone[k] - g->start);
			put_slowdown(sd, sizeof sd, time, rp->job_alone[k] - g->start);
			uj_raw(j, "slowdown", sd);
		}
		uj_end(j);
	}
	uj_end(j);
}

static void jobs_text(const goal_sched *s, const report *rp)
{
	char sd[32];
	for (uint32_t k = 0; k < s->njobs; k++) {
		const goal_job *g = &s->jobs[k];
		uint64_t time = rp->job_end[k] - g->start;
		printf("Job %" PRIu32 " %s: %" PRIu32 " ranks, start %" PRIu64 ", end %" PRIu64 ", time %"
		       PRIu64, k, goal_job_name(s, k), g->nranks, g->start, rp->job_end[k], time);
		if (rp->job_alone) {
			put_slowdown(sd, sizeof sd, time, rp->job_alone[k] - g->start);
			printf(", alone %" PRIu64 ", slowdown %s", rp->job_alone[k] - g->start, sd);
		}
		putchar('\n');
	}
}

static void report_json(const cli *cl, const goal_sched *s, const report *rp)
{
	const sim_result *res = rp->res;
	const qstat_sum *qs = rp->qs;
	uj j;
	uj_init(&j, stdout);
	uj_obj(&j, NULL);
	uj_raw(&j, "complete", "true");
	uj_u64(&j, "P", s->nranks);
	sim_pset_json(&j, &cl->pset);
	put_perturb_json(&j, &cl->po);
	uj_u64(&j, "time_ns", res->time);
	uj_u64(&j, "host", res->host);
	uj_u64(&j, "events", res->events);
	uj_u64(&j, "ops", res->ops_started);
	uj_u64(&j, "messages", res->messages);
	if (s->njobs)
		jobs_json(&j, s, rp);
	if (rp->critical)
		sens_json_path(&j, rp->path);
	if (cl->ntol) {
		const sens_tol *tp[SENS_NPARAMS];
		size_t tn[SENS_NPARAMS];
		for (unsigned k = 0; k < SENS_NPARAMS; k++) {
			tp[k] = cl->tol[k];
			tn[k] = cl->ntol;
		}
		sens_json_tol(&j, tp, tn, rp->runs);
	}
	if (cl->qstat) {
		uj_obj(&j, "qstat");
		uj_u64(&j, "rq_max", qs->rq_max);
		uj_u64(&j, "rq_max_rank", qs->rq_rank);
		uj_u64(&j, "uq_max", qs->uq_max);
		uj_u64(&j, "uq_max_rank", qs->uq_rank);
		uj_u64(&j, "searches", qs->searches);
		uj_u64(&j, "searched", qs->searched);
		uj_u64(&j, "searched_max", qs->searched_max);
		uj_u64(&j, "searched_max_rank", qs->searched_rank);
		uj_end(&j);
	}
	if (cl->account) {
		uj_obj(&j, "account");
		uj_u64(&j, "finish_ns", rp->acct->finish);
#define ACCT_JSON(f, name, words) uj_u64(&j, name, rp->acct->f);
		ACCOUNT_PARTS(ACCT_JSON)
#undef ACCT_JSON
		uj_end(&j);
	}
	if (cl->lookahead)
		windows_json(&j, rp->win);
	if (cl->no.t)
		net_json(&j, &cl->no);
	uj_end(&j);
	putchar('\n');
}

static void report_text(const cli *cl, const goal_sched *s, const report *rp)
{
	const sim_result *res = rp->res;
	const qstat_sum *qs = rp->qs;
	sim_pset_print(stdout, &cl->pset, s->nranks);
	put_perturb_text(stdout, &cl->po);
	if (s->nranks <= 16 && !cl->batch)
		for (uint64_t r = 0; r < s->nranks; r++)
			printf("Host %" PRIu64 ": %" PRIu64 "\n", r, rp->host_finish[r]);
	printf("Maximum finishing time at host %" PRIu64 ": %" PRIu64 " (", res->host, res->time);
	put_seconds(stdout, res->time);
	printf(" s)\nEvents: %" PRIu64 " (%" PRIu64 " ops, %" PRIu64 " messages)\n",
	       res->events, res->ops_started, res->messages);
	jobs_text(s, rp);
	if (rp->critical)
		sens_print_path(stdout, rp->path, &cl->pset);
	if (cl->sens || cl->ntol)
		sens_print_derivs(stdout, rp->path, &cl->pset);
	for (unsigned k = 0; k < SENS_NPARAMS && cl->ntol; k++)
		sens_print_tol(stdout, (sens_param)k, &cl->pset, cl->tol[k], cl->ntol);
	if (cl->ntol)
		sens_print_runs(stdout, rp->runs);
	if (cl->qstat) {
		char mean[32];
		put_mean(mean, sizeof mean, qs->searched, qs->searches);
		printf("Queues: longest receive queue %" PRIu32 " (rank %" PRIu64 "), longest "
		       "unexpected queue %" PRIu32 " (rank %" PRIu64 ")\n", qs->rq_max, qs->rq_rank,
		       qs->uq_max, qs->uq_rank);
		printf("Matching: %" PRIu64 " searches, %s entries per search, at most %" PRIu32
		       " (rank %" PRIu64 ")\n", qs->searches, mean, qs->searched_max, qs->searched_rank);
	}
	if (cl->account) {
		const sim_account *a = rp->acct;
		double whole = a->finish ? (double)a->finish : 1.0;
		printf("Account: of %" PRIu64 " ns (every rank's finishing time)", a->finish);
#define ACCT_TEXT(f, name, words) \
		printf(", %s %" PRIu64 " (%.1f%%)", words, a->f, 100.0 * (double)a->f / whole);
		ACCOUNT_PARTS(ACCT_TEXT)
#undef ACCT_TEXT
		putchar('\n');
	}
	if (cl->lookahead)
		windows_text(rp->win);
	if (cl->no.t)
		net_print(stdout, &cl->no);
}

/* The outputs of run m of s (its result res): the timeline's end, the
 * critical path, the CSV files, the tolerance searches and the summary.
 * Destroys m.  Returns the exit status. */
int finish_run(cli *cl, const goal_sched *s, sim *m, const sim_result *res, double wall,
               util_out *tlo, sim_path *path, char (**labels)[256])
{
	char err[1024];
	int status = 0;
	/* The timeline of an incomplete run is kept: it shows what happened;
	 * the trace JSON of a complete one ends with the critical path. */
	int critical = wants_path(cl);
	if (res->complete && critical && sim_critical_path(m, res, path, err, sizeof err))
		status = util_error("%s", err);
	else if (res->complete && critical && label_path(s, path, labels))
		status = util_error("out of memory");
	if (status) {
		trace_json_end(&cl->tj, NULL, 0, 0);
		sim_destroy(m);
		return status;
	}
	if (cl->tj.path && trace_json_end(&cl->tj, path->link, path->n, 1))
		status = 1;
	if (tlo->f && util_out_close(tlo, err, sizeof err))
		status = util_error_msg(err);
	if (!res->complete) {
		util_error("incomplete run: %" PRIu64 " of %" PRIu64 " ranks stuck, %" PRIu64 " of %"
		           PRIu64 " ops never started", res->stuck_ranks, s->nranks,
		           s->nops - res->ops_started, s->nops);
		sim_report_stuck(m, stderr, 20, 20);
		if (cl->json) {
			uj j;
			uj_init(&j, stdout);
			uj_obj(&j, NULL);
			uj_raw(&j, "complete", "false");
			uj_u64(&j, "P", s->nranks);
			uj_u64(&j, "stuck_ranks", res->stuck_ranks);
			uj_u64(&j, "ops_never_started", s->nops - res->ops_started);
			uj_end(&j);
			putchar('\n');
		}
		sim_destroy(m);
		return 1;
	}
	qstat_sum qs;
	qstat_total(m, s->nranks, &qs);
	sim_account acct;
	account_total(m, s->nranks, &acct);
	sim_windows win = { 0 };
	sim_windows_get(m, &win);
	finish_out fo = { m, s->nranks, critical ? path : NULL, cl->qstat, cl->account };
	path_out pto = { s, path };
	if (cl->csv && write_out(cl->csv, put_finish, &fo))
		status = 1;
	if (cl->cpath && write_out(cl->cpath, put_path, &pto))
		status = 1;
	if (!cl->quiet)
		fprintf(stderr, "%s: %" PRIu64 " events in %.3f s (%.2f M events/s)\n", util_prog(),
		        res->events, wall, wall > 0 ? (double)res->events / wall * 1e-6 : 0.0);
	if (!cl->quiet && cl->lookahead)
		fprintf(stderr, "%s: the windows' merge took %.3f s (%.1f%% of the run)\n", util_prog(),
		        (double)win.merge_ns * 1e-9, wall > 0 ? (double)win.merge_ns * 1e-7 / wall : 0.0);
	if (getenv("LOGGOPSIM_PUSHES"))
		fprintf(stderr, "%s: %" PRIu64 " queue pushes (%.3f per event)\n", util_prog(),
		        res->pushes, res->events ? (double)res->pushes / (double)res->events : 0.0);
	/* The per-rank figures are out: the tolerance searches run without
	 * this simulation's memory. */
	uint64_t host_finish[16];
	for (uint64_t r = 0; r < s->nranks && r < 16; r++)
		host_finish[r] = sim_rank_finish(m, r);
	net_collect(&cl->no, m);
	uint64_t *job_end = job_ends(s, m), *alone = NULL;
	sim_destroy(m);
	if (!job_end || (cl->jobs_alone && !(alone = calloc(s->njobs, sizeof *alone))))
		status = util_error("out of memory");
	for (uint32_t j = 0; alone && j < s->njobs && !status; j++)
		if (job_alone(cl, s, j, &alone[j], err, sizeof err))
			status = util_error_msg(err);
	unsigned runs[SENS_NPARAMS] = { 0 };
	const perturb_opts *po = &cl->po;
	for (unsigned k = 0; k < SENS_NPARAMS && cl->ntol && !status; k++)
		if (sens_tolerance(s, &cl->pset, perturbed(po) ? &po->p : NULL, (sens_param)k, path,
		                   cl->tol[k], cl->ntol, &runs[k], err, sizeof err))
			status = util_error("%s", err);
	if (status) {
		free(job_end);
		free(alone);
		return status;
	}
	report rp = { res, path, critical, runs, &qs, &acct, &win, host_finish, job_end, alone };
	if (cl->json)
		report_json(cl, s, &rp);
	else
		report_text(cl, s, &rp);
	free(job_end);
	free(alone);
	if (fflush(stdout) != 0 || ferror(stdout))
		status = util_error("write failed on standard output");
	return status;
}
