/* loggopsim.c: the simulator's command line: options, the run and its
 * progress, sweeps; the outputs of a finished run are in report.c. */
#include "loggopsim_int.h"

#include "die.h"
#include "goal_open.h"
#include "kind.h"
#include "num.h"
#include "progress.h"
#include "sweep.h"
#include "timeline.h"
#include "version.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *f)
{
	fprintf(f,
"usage: loggopsim [options] SCHEDULE\n"
"\n"
"Simulate a GOAL schedule (binary, or .goal text compiled on the fly) under\n"
"the LogGOPS model and print the finishing times.\n"
"\n"
"options (times in ns; G and O may be fractional, e.g. -G 0.4):\n"
"  -f, --filename FILE   the schedule (instead of the SCHEDULE argument)\n");
	sim_pflag_help(f, 24);
	fprintf(f,
"  -p, --params FILE     parameters from a parameter file (docs/loggp.md):\n"
"                        S and size ranges, each with its own L, o, g, G, O;\n"
"                        -L/-o/-g/-G/-O then set that value in every range,\n"
"                        -S sets S\n"
"  -V, --vizfile FILE    write the timeline (docs/timeline.md) to FILE\n"
"      --trace-json FILE write the timeline as trace-event JSON to FILE while\n"
"                        the run goes on, for ui.perfetto.dev or chrome://tracing\n"
"                        (docs/perfetto.md); with -V both are written\n"
"      --window T0..T1   trace JSON: only what overlaps T0..T1 (ns, or with a\n"
"                        unit: 12us, 1.5ms; either end may be left out)\n"
"      --ranks LIST      trace JSON: only these ranks, e.g. 0-15,32\n"
"\n"
"noise and stragglers (docs/noise.md):\n"
"      --noise-trace FILE  detours from a noise trace ('START DURATION' in ns\n"
"                        per line), repeating with its period ('# period: T',\n"
"                        else the end of its last detour)\n"
"      --noise SPEC      synthetic detours: periodic:FREQ_HZ,DURATION_NS,\n"
"                        poisson:RATE_HZ,DURATION_NS or poisson:RATE_HZ,exp:MEAN_NS\n"
"      --noise-cosched   every rank reads the detours from one offset\n"
"                        (default: each rank from its own, drawn from the seed)\n"
"      --noise-offset T  every rank reads them from offset T ns\n"
"      --noise-rule RULE exact (default: detours inside the stretched activity\n"
"                        count too) or published (LogGOPSim's: only the one\n"
"                        under way and those that start within its length)\n"
"      --seed N          seed of the ranks' offsets, of --mapping random and\n"
"                        of --place random (default 1)\n"
"      --slow RANKS:FACTOR  stretch the CPU work (o, O, calc) of RANKS, e.g.\n"
"                        0,17-31:1.5 (repeatable)\n");
	fprintf(f,
"network (docs/network.md):\n"
"      --topology SPEC   messages between hosts share the links of a network\n"
"                        max-min fairly: fattree:k=K,levels=N[,taper=T],\n"
"                        torus:XxY[xZ][,p=H], dragonfly:a=A,p=P,h=H[,groups=G],\n"
"                        each with optional ,bw=B ,hostbw=B (bytes/ns; default\n"
"                        1/G) and ,lat=NS (per switch)\n"
"      --network-file FILE  the network of a dot file as the published LogGOPSim\n"
"                        reads it: nodes named H... are the hosts, each edge a\n"
"                        link, routes in the edges' comment attributes\n"
"      --mapping MAP     ranks on hosts: linear, roundrobin, random (seeded) or\n"
"                        a file of one host per rank (default: rank r on host r)\n"
"      --ranks-per-node K  nodes of K ranks (rank r on node r / K; with a\n"
"                        network, node n is host n): messages within a node\n"
"                        take the parameters of --intra-params and no links\n"
"      --intra-params FILE  the parameters of messages within a node (a\n"
"                        parameter file; its S and strides are the run's)\n"
"  -n, --network-type T  how messages share links: maxmin (default), simple\n"
"                        (the published rule: a message at the bandwidth of its\n"
"                        most shared link over its number of messages) or LogGP\n"
"                        (no network: --topology and --network-file unused)\n");
	fprintf(f,
"critical path and sensitivity (docs/sensitivity.md):\n"
"      --critical-path FILE  write the chain of activities that sets the\n"
"                        finishing time T to FILE (CSV); the summary gives T\n"
"                        as a sum of L, o, g, G, O and calc along it\n"
"      --sensitivity     print dT/dL, dT/do, dT/dg, dT/dG, dT/dO (per byte for\n"
"                        G and O) from the critical path (with --sweep: as\n"
"                        columns of the CSV)\n"
"      --tolerance LIST  and the largest L and G with T at most LIST percent\n"
"                        more (e.g. 1,2,5), found by re-simulating\n"
"      --qstat           queue statistics: longest receive and unexpected\n"
"                        queue, entries a match searched (summary and --csv)\n"
"      --account         where each rank's time went: computation, o and O,\n"
"                        noise, waiting for the NIC (g, G) and for other\n"
"                        ranks (summary and --csv; docs/sim.md)\n"
"      --lookahead       the lookahead (least time from a send to its\n"
"                        message's arrival) and what windows of it would\n"
"                        hold: events, ranks, blocks (docs/parallel.md)\n"
"      --jobs-alone      a merged schedule (goalc --merge): simulate each job\n"
"                        alone too, in its place, and print its slowdown\n"
"      --place HOW       a merged schedule: its jobs placed anew, as goalc\n"
"                        --merge --place HOW would (packed, roundrobin,\n"
"                        random from --seed, or a placement file)\n"
"  -b, --batchmode       no per-rank lines\n"
"      --csv FILE        write rank,finish_ns for every rank to FILE (with\n"
"                        the critical path: cp_ns,slack_ns; with --qstat: the\n"
"                        queue columns; with --account: its columns)\n"
"      --json            print a JSON summary on stdout instead of the text\n"
"      --progress        show progress on stderr from the start\n"
"  -q, --quiet           no progress and no speed line on stderr\n"
"\n"
"parameter sweeps (docs/sweep.md):\n"
"      --sweep SPEC      run the schedule under many parameter sets: SPEC is\n"
"                        a file of sets ('NAME L=.. G=*10 O=G' per line) or,\n"
"                        if it contains '=', the compact form, a cartesian\n"
"                        product like 'L=1000..64000*2 G=1,2,4'; values not\n"
"                        given come from the options above (in a file, a\n"
"                        set may start from its own 'params=FILE')\n"
"  -j, --jobs N          sets run in N threads (default: the number of cores)\n"
"      --csv FILE        with --sweep: the CSV of the sets ('-': stdout)\n"
"      --relative-to NAME  report times relative to set NAME\n"
"      --svg FILE        bar chart of the relative times (needs --relative-to)\n"
"      --title TEXT      the chart's title (default: the schedule's name and P)\n"
"      --part K/N        run only sets K, K+N, K+2N, ... (1 <= K <= N), for\n"
"                        splitting a sweep into jobs (scripts/sweep-*.sh)\n"
"      --no-wall         leave the CSV's wall_s column empty\n"
"  -h, --help            this help\n"
"      --version         the version and the commit it was built from\n"
"\n"
"Standard output depends only on the schedule and the parameters.  The speed\n"
"(events per second) goes to stderr.\n"
"Example: loggopsim -L 2.5us -o 1.5us -g 1us -G 0.4 -V app.tl app.bin\n"
"Exit status: 0 complete run, 1 bad schedule or incomplete run (deadlock,\n"
"unmatched messages), 2 bad options.\n");
}

/* The size ranges of *ps for the timeline header: their number. */
static uint32_t timeline_ranges(const sim_pset *ps, loggp_range *out)
{
	sim_range rg[SIM_MAX_RANGES];
	uint32_t n = sim_pset_ranges(ps, rg);
	for (uint32_t i = 0; i < n; i++) {
		loggp_range *t = &out[i];
		t->first = i ? rg[i - 1].last + 1 : 0;
		t->last = rg[i].last; /* UINT64_MAX is LOGGP_SIZE_INF */
		t->L = rg[i].L;
		t->o = rg[i].o;
		t->g = rg[i].g;
		t->G = rg[i].G;
		t->O = rg[i].O;
	}
	return n;
}

static void on_progress(void *ctx, const sim_progress *pr)
{
	util_progress *pg = ctx;
	if (!util_progress_due(pg))
		return;
	double pct = pr->nops ? 100.0 * (double)pr->ops_started / (double)pr->nops : 100.0;
	util_progress_line(pg, "%5.1f%% of ops started, %" PRIu64 " events, %.2f M events/s, "
	                   "simulated time %" PRIu64 " ns", pct, pr->events,
	                   (double)pr->events / (pg->last - pg->t0) * 1e-6, pr->now);
}

static void noise_warn(void *ctx, const char *msg)
{
	(void)ctx;
	fprintf(stderr, "%s\n", msg);
}

/* Checks the perturbation options and makes the noise table: 0, or the
 * exit status after the message. */
static int perturb_setup(perturb_opts *o)
{
	char err[1024];
	sim_perturb *p = &o->p;
	memset(p, 0, sizeof *p);
	if (o->trace && o->spec)
		return util_usage("give --noise-trace or --noise, not both");
	if (!o->trace && !o->spec && (o->cosched || o->has_offset || o->rule))
		return util_usage("--noise-cosched, --noise-offset and --noise-rule need "
		                  "--noise-trace or --noise");
	if (o->cosched && o->has_offset)
		return util_usage("give --noise-cosched or --noise-offset, not both");
	p->rule = SIM_NOISE_EXACT;
	if (o->rule) {
		if (strcmp(o->rule, "published") == 0)
			p->rule = SIM_NOISE_PUBLISHED;
		else if (strcmp(o->rule, "exact") != 0)
			return util_usage("--noise-rule is exact or published, not '%s'", o->rule);
	}
	p->seed = o->has_seed ? o->seed : 1;
	p->offsets = o->has_offset ? SIM_OFFSETS_FIXED
	             : o->cosched ? SIM_OFFSETS_COSCHED : SIM_OFFSETS_OWN;
	p->offset = o->offset;
	p->slow = o->slow;
	p->nslow = o->nslow;
	if (o->trace && !(o->noise = sim_noise_read(o->trace, noise_warn, NULL, err, sizeof err)))
		return util_error_msg(err);
	if (o->spec && !(o->noise = sim_noise_synth(o->spec, err, sizeof err)))
		return util_usage("%s", err);
	p->noise = o->noise;
	return 0;
}

/* Every rank of --slow is one of the schedule's: 0, or the exit status
 * after the message. */
static int slow_check(const perturb_opts *o, uint64_t nranks)
{
	if (!o->nslow || o->slow[o->nslow - 1].hi < nranks)
		return 0;
	const sim_slow *v = &o->slow[o->nslow - 1];
	return util_usage("--slow: rank %" PRIu64 " is not a rank of the schedule (0..%" PRIu64 ")",
	                  v->lo > nranks ? v->lo : nranks, nranks - 1);
}

/* The network flags: the topology made (n->t; NULL: none, or
 * --network-type LogGP), or the exit status after the message. */
static int net_opts_check(net_opts *n)
{
	static const char *const types[] = { "maxmin", "simple", "LogGP" };
	char err[1024];
	int type = 0;
	if (n->type) {
		for (type = 0; type < 3 && strcmp(n->type, types[type]); type++)
			;
		if (type == 3)
			return util_usage("--network-type: unknown type '%s' (expected maxmin, simple or "
			                  "LogGP)", n->type);
	}
	if (n->spec && n->file)
		return util_usage("give --topology or --network-file, not both");
	if (!n->spec && !n->file) {
		if (n->mapping)
			return util_usage("--mapping needs --topology or --network-file");
		if (n->type && type < 2)
			return util_usage("--network-type %s needs --topology or --network-file",
			                  types[type]);
		return 0;
	}
	if (type == 2) {     /* the published tool's default: no congestion */
		fprintf(stderr, "%s: warning: --network-type LogGP: the network of %s is not used\n",
		        util_prog(), n->spec ? "--topology" : "--network-file");
		return 0;
	}
	n->net.rule = type == 1 ? FLOW_SIMPLE : FLOW_MAXMIN;
	if (n->spec && !(n->t = topo_parse(n->spec, err, sizeof err)))
		return util_usage("%s", err);
	if (n->file && !(n->t = topo_read_dot(n->file, err, sizeof err)))
		return util_error_msg(err);
	return 0;
}

/* Every pair of hosts a send of s connects has a route (a dot file's may
 * not): 0, or the exit status after the message.  Each pair is walked
 * once when the hosts are few enough for a bitmap of the pairs. */
static int net_check_routes(const net_opts *n, const goal_sched *s)
{
	uint64_t H = topo_hosts(n->t);
	uint8_t *seen = H <= 8192 ? calloc((H * H + 7) / 8, 1) : NULL;
	char err[1024];
	for (uint64_t r = 0; r < s->nranks; r++) {
		const goal_op *op = goal_rank_ops(s, r);
		for (uint32_t i = 0, nops = goal_rank_nops(s, r); i < nops; i++) {
			if (op[i].kind != GOAL_SEND)
				continue;
			uint32_t peer = goal_op_peer(s, r, &op[i]);
			uint32_t a = n->host[r], b = n->host[peer];
			uint64_t bit = (uint64_t)a * H + b;
			if (seen && (seen[bit / 8] >> (bit % 8) & 1))
				continue;
			if (topo_check_route(n->t, a, b, err, sizeof err)) {
				char msg[1200];
				free(seen);
				snprintf(msg, sizeof msg, "%s (rank %" PRIu64 " sends to rank %" PRIu32 ")", err,
				         r, peer);
				return util_error_msg(msg);
			}
			if (seen)
				seen[bit / 8] |= (uint8_t)(1u << (bit % 8));
		}
	}
	free(seen);
	return 0;
}

/* Schedule s (of file) with its jobs placed anew by how and seed: *s
 * becomes the placed one.  0, or the exit status after the message (s
 * closed). */
static int place_jobs(goal_sched *s, const char *file, const char *how, uint64_t seed)
{
	char err[1024];
	goal_sched p;
	int st = 0;
	if (!s->njobs)
		st = util_usage("--place needs a schedule of several jobs (goalc --merge); %s has no"
		                " job table", file);
	else if (goal_sched_open_placed(&p, s, how, seed, err, sizeof err))
		st = util_error_msg(err);
	goal_sched_close(s);
	if (!st)
		*s = p;
	return st;
}

/* Place the ranks of s and check the routes they use: 0, or the exit
 * status after the message. */
static int net_place(net_opts *n, const goal_sched *s, uint64_t seed)
{
	char err[1024];
	int code = 2;
	if (!n->t)
		return 0;
	if (!(n->host = malloc((s->nranks ? s->nranks : 1) * sizeof *n->host)))
		return util_error("out of memory");
	if (n->ppn) {
		uint64_t nodes = (s->nranks + n->ppn - 1) / n->ppn;
		if (nodes > topo_hosts(n->t))
			return util_usage("--ranks-per-node %" PRIu32 ": %" PRIu64 " ranks make %" PRIu64
			                  " nodes, and the network has %" PRIu32 " hosts", n->ppn,
			                  s->nranks, nodes, topo_hosts(n->t));
		for (uint64_t r = 0; r < s->nranks; r++)
			n->host[r] = (uint32_t)(r / n->ppn);
	} else if (topo_map(n->t, s->nranks, n->mapping, seed, n->host, &code, err, sizeof err))
		return code == 2 ? util_usage("%s", err) : util_error_msg(err);
	if (topo_routes_checked(n->t) && (code = net_check_routes(n, s)))
		return code;
	n->net.topo = n->t;
	n->net.host = n->host;
	return 0;
}

typedef struct sweep_out {
	const goal_sched *s;
	const sim_pset *base;
	const sweep *sw;
	const sweep_result *res;
	long base_idx;
	int wall;
	const char *title;     /* --title, or NULL */
	const char *name;      /* the schedule's file name */
} sweep_out;

static int put_csv(FILE *f, void *ctx)
{
	sweep_out *o = ctx;
	return sweep_write_csv(f, o->s, o->base, o->sw, o->res, o->base_idx, o->wall);
}

static int put_svg(FILE *f, void *ctx)
{
	sweep_out *o = ctx;
	return sweep_write_svg(f, o->s, o->name, o->base, o->sw, o->res, o->base_idx, o->title);
}

/* The sets of --sweep o into sw, checked against the base set and the
 * perturbation (a seed needs noise or a random placement), and the index of --relative-to's set
 * into *base_idx (-1: none).  0, or the exit status (sw freed). */
static int sweep_load(const sweep_opts *o, const sim_pset *base, const perturb_opts *po,
                      sweep *sw, long *base_idx)
{
	char err[1024];
	int status;
	if (strchr(o->spec, '=')) {
		if (sweep_parse_compact(o->spec, sw, err, sizeof err)) {
			sweep_free(sw);
			return util_usage("--sweep: %s", err);
		}
	} else if (sweep_read_file(o->spec, sw, err, sizeof err)) {
		sweep_free(sw);
		return util_error_msg(err);
	}
	/* The parameter files the sets name are inputs too. */
	for (size_t i = 0; i < sw->npf; i++) {
		const char *pf = sw->pf[i].path, *outs[] = { o->csv, o->svg };
		for (size_t k = 0; k < 2; k++)
			if (outs[k] && util_out_check(outs[k], &pf, 1, err, sizeof err)) {
				sweep_free(sw);
				return util_error_msg(err);
			}
	}
	/* A seed draws noise or a random placement: in a sweep with neither
	 * it would change nothing. */
	int drawn = po->noise != NULL;
	for (size_t i = 0; i < sw->n && !drawn; i++) {
		uint64_t seed;
		const char *how = sweep_set_place(sw, i, &seed);
		drawn = how && strcmp(how, "random") == 0;
	}
	for (size_t i = 0; i < sw->n && !drawn; i++)
		if (sw->set[i].has_seed) {
			status = util_usage("set '%s': a seed needs --noise-trace, --noise or a random"
			                    " placement", sw->set[i].name);
			sweep_free(sw);
			return status;
		}
	*base_idx = -1;
	if (o->rel && (*base_idx = sweep_find(sw, o->rel)) < 0) {
		sweep_free(sw);
		return util_usage("--relative-to: no set named '%s'", o->rel);
	}
	for (size_t i = 0; i < sw->n; i++) {
		sim_pset ps;
		if (sweep_set_params(sw, i, base, &ps, err, sizeof err)) {
			status = util_usage("set '%s': %s", sw->set[i].name, err);
			sweep_free(sw);
			return status;
		}
	}
	return 0;
}

/* The placements of sweep sw checked on its schedule s (of file) before a
 * set runs: s has jobs, and each placement file places them (placed once,
 * nothing written).  0, or the exit status after the message. */
static int sweep_places(const sweep *sw, const goal_sched *s, const char *file)
{
	char err[1024];
	if (!sweep_placing(sw))
		return 0;
	if (!s->njobs)
		return util_usage("a placement (--place, place=) needs a schedule of several jobs (goalc"
		                  " --merge); %s has no job table", file);
	for (size_t i = 0; i <= sw->nplaces; i++) {
		const char *how = i < sw->nplaces ? sw->places[i] : sw->place;
		if (how && goal_replace(s, how, 1, NULL, err, sizeof err))
			return util_error_msg(err);
	}
	return 0;
}

/* The results of the sets that ran (err: the first failure's message):
 * each failure on stderr, their events and count into *events and *ran;
 * 1 when a set did not complete, else 0. */
static int sweep_failures(const sweep *sw, const sweep_result *res, const char *err,
                          uint64_t *events, size_t *ran)
{
	size_t bad = 0, nfailed = 0;
	*events = 0;
	*ran = 0;
	for (size_t i = 0; i < sw->n; i++) {
		if (res[i].status == SWEEP_NOT_RUN)
			continue;
		++*ran;
		*events += res[i].events;
		if (res[i].status == SWEEP_INCOMPLETE)
			util_error("set '%s': incomplete run (deadlock or unmatched messages)",
			           sw->set[i].name);
		else if (res[i].status == SWEEP_FAILED && nfailed++ == 0)
			util_error("%s", err);   /* the first failure, with its set's name */
		else if (res[i].status == SWEEP_FAILED)
			util_error("set '%s': failed", sw->set[i].name);
		bad += res[i].status != SWEEP_OK;
	}
	return bad != 0;
}

/* loggopsim --sweep: parse the sets, open the schedule once, run, write the
 * table, the CSV and the chart.  Returns the exit status. */
static int run_sweep(const sweep_opts *o, const char *file, const char *place,
                     const sim_pset *base, const sim_pchange *flags, const perturb_opts *po,
                     net_opts *no)
{
	sweep sw = { 0 };
	char desc[1200], ndesc[300];
	sw.flags = *flags;
	sw.place = place;
	sw.seed = po->has_seed ? po->seed : 1;
	sw.sensitivity = o->sensitivity;
	if (perturbed(po)) {
		describe(po, 1, desc, sizeof desc);
		sw.perturb = &po->p;
		sw.perturb_desc = desc;
	}
	char err[1024];
	long base_idx = -1;
	int status = sweep_load(o, base, po, &sw, &base_idx);
	if (status)
		return status;
	goal_sched s;
	if (goal_sched_open_any(&s, file, stderr, err, sizeof err)) {
		sweep_free(&sw);
		return util_error_msg(err);
	}
	if ((status = slow_check(po, s.nranks)) || (status = sweep_places(&sw, &s, file)) ||
	    (status = net_place(no, &s, po->has_seed ? po->seed : 1))) {
		goal_sched_close(&s);
		sweep_free(&sw);
		return status;
	}
	if (no->t) {
		net_spec(no, ndesc, sizeof ndesc);
		sw.net = &no->net;
		sw.net_desc = ndesc;
	}
	sweep_result *res = calloc(sw.n, sizeof *res);
	if (s.njobs)
		sw.job_end = calloc(sw.n * s.njobs, sizeof *sw.job_end);
	if (!res || (s.njobs && !sw.job_end)) {
		free(res);
		free(sw.job_end);
		goal_sched_close(&s);
		sweep_free(&sw);
		return util_error("out of memory");
	}
	unsigned jobs = o->jobs;
	if (!jobs) {
		long nc = sysconf(_SC_NPROCESSORS_ONLN);
		jobs = nc > 0 && nc < 1024 ? (unsigned)nc : 1;
	}
	size_t part = o->nparts ? (size_t)o->part - 1 : 0, nparts = o->nparts ? (size_t)o->nparts : 1;
	double t0 = util_now();
	err[0] = 0;
	if (sweep_run(&s, base, &sw, part, nparts, jobs, res, err, sizeof err)) {
		status = util_error("%s", err);
		goto out;
	}
	double wall = util_now() - t0;
	uint64_t events;
	size_t ran;
	status = sweep_failures(&sw, res, err, &events, &ran);
	if (base_idx >= 0 && res[base_idx].status != SWEEP_OK)
		status = util_error("the baseline set '%s' did not complete", o->rel);
	const char *slash = strrchr(file, '/');
	sweep_out out = { &s, base, &sw, res, base_idx, !o->nowall, o->title, slash ? slash + 1 : file };
	if (!(o->csv && strcmp(o->csv, "-") == 0))
		sweep_write_table(stdout, &s, base, &sw, res, base_idx);
	if (o->csv && write_out(o->csv, put_csv, &out))
		status = 1;
	if (o->svg && write_out(o->svg, put_svg, &out))
		status = 1;
	if (!o->quiet)
		fprintf(stderr, "%s: %zu sets, %" PRIu64 " events in %.3f s with %u threads (%.2f M events/s)\n",
		        util_prog(), ran, events, wall, jobs, wall > 0 ? (double)events / wall * 1e-6 : 0.0);
	if (fflush(stdout) != 0 || ferror(stdout))
		status = util_error("write failed on standard output");
out:
	free(res);
	free(sw.job_end);
	goal_sched_close(&s);
	sweep_free(&sw);
	return status;
}

/* Check the options: 0, or the exit status after the message. */
static int trace_json_opts(trace_json *t)
{
	char err[256];
	t->o.to = TL_NONE;
	if (!t->path && (t->window || t->ranks))
		return util_usage("--window and --ranks need --trace-json");
	if (t->window) {
		num_err e = num_window_parse(t->window, strlen(t->window), &t->o.from, &t->o.to);
		if (e == NUM_EMPTY)
			return util_usage("--window '%s' ends before it starts", t->window);
		if (e != NUM_OK)
			return util_usage("bad window '%s' for --window (expected T0..T1, e.g. 10us..25us)",
			                  t->window);
	}
	if (t->ranks && num_ranks_parse(t->ranks, &t->rg, &t->o.nranges, err, sizeof err))
		return util_usage("%s", err);
	t->o.ranges = t->rg;
	return 0;
}

static const char *op_label(void *labels, uint64_t rank, uint64_t op)
{
	return goal_labels_get(labels, rank, op);
}

/* Open the JSON and start the converter, which names slices by the labels
 * of s and copies the text to tee (NULL: none): the stream to write the
 * timeline to, or NULL after the message in err. */
static FILE *trace_json_start(trace_json *t, const goal_sched *s, FILE *tee, char *err,
                              size_t n)
{
	static char jbuf[1 << 20], pbuf[1 << 20];
	if (util_out_open(&t->out, t->path, NULL, 0, 0, err, n))
		return NULL;
	setvbuf(t->out.f, jbuf, _IOFBF, sizeof jbuf);
	t->o.tee = tee;
	t->o.label = op_label;
	t->o.label_ctx = t->labels = goal_labels_new(s);
	FILE *w = t->labels ? tl_json_pipe_start(&t->pipe, t->out.f, "<timeline>", &t->o, err, n)
	                    : NULL;
	if (!w) {
		if (!t->labels)
			snprintf(err, n, "error: out of memory");
		goal_labels_free(t->labels);
		t->labels = NULL;
		util_out_abort(&t->out);
		return NULL;
	}
	setvbuf(w, pbuf, _IOFBF, sizeof pbuf);
	return w;
}

/* Wait for the converter; ok: append the critical path (n links) and close
 * the JSON, else give it up.  Returns 0 or 1 (after the message). */
int trace_json_end(trace_json *t, const tl_link *path, size_t n, int ok)
{
	char err[1024];
	int st = 0;
	if (t->pipe && tl_json_pipe_finish(t->pipe, NULL, err, sizeof err) && ok)
		st = util_error_msg(err);
	t->pipe = NULL;
	goal_labels_free(t->labels);
	t->labels = NULL;
	if (ok && !st) {
		tl_json_path(t->out.f, path, n);
		if (util_out_close(&t->out, err, sizeof err))
			st = util_error_msg(err);
	}
	util_out_abort(&t->out);
	return st;
}

enum { OPT_CSV = 256, OPT_JSON, OPT_PROGRESS, OPT_SWEEP, OPT_REL, OPT_SVG, OPT_TITLE,
       OPT_PART, OPT_NOWALL, OPT_NTRACE, OPT_NOISE, OPT_COSCHED, OPT_NOFFSET, OPT_NRULE,
       OPT_SEED, OPT_SLOW, OPT_CPATH, OPT_SENS, OPT_TOL, OPT_QSTAT, OPT_ACCOUNT, OPT_LOOKAHEAD, OPT_ALONE, OPT_PLACE, OPT_TJSON, OPT_WINDOW,
       OPT_RANKS, OPT_TOPO, OPT_MAPPING, OPT_NETFILE, OPT_PPN, OPT_INTRA };
static const struct option longopts[] = {
	{ "filename", required_argument, NULL, 'f' },
	{ "vizfile", required_argument, NULL, 'V' },
	{ "batchmode", no_argument, NULL, 'b' },
	{ "LogGOPSParmL", required_argument, NULL, 'L' },
	{ "LogGOPSParmo", required_argument, NULL, 'o' },
	{ "LogGOPSParmg", required_argument, NULL, 'g' },
	{ "LogGOPSParmG", required_argument, NULL, 'G' },
	{ "LogGOPSParmO", required_argument, NULL, 'O' },
	{ "LogGOPSParmS", required_argument, NULL, 'S' },
	{ "params", required_argument, NULL, 'p' },
	{ "csv", required_argument, NULL, OPT_CSV },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "progress", no_argument, NULL, OPT_PROGRESS },
	{ "quiet", no_argument, NULL, 'q' },
	{ "sweep", required_argument, NULL, OPT_SWEEP },
	{ "jobs", required_argument, NULL, 'j' },
	{ "relative-to", required_argument, NULL, OPT_REL },
	{ "svg", required_argument, NULL, OPT_SVG },
	{ "title", required_argument, NULL, OPT_TITLE },
	{ "part", required_argument, NULL, OPT_PART },
	{ "no-wall", no_argument, NULL, OPT_NOWALL },
	{ "noise-trace", required_argument, NULL, OPT_NTRACE },
	{ "noise", required_argument, NULL, OPT_NOISE },
	{ "noise-cosched", no_argument, NULL, OPT_COSCHED },
	{ "noise-offset", required_argument, NULL, OPT_NOFFSET },
	{ "noise-rule", required_argument, NULL, OPT_NRULE },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "slow", required_argument, NULL, OPT_SLOW },
	{ "critical-path", required_argument, NULL, OPT_CPATH },
	{ "sensitivity", no_argument, NULL, OPT_SENS },
	{ "tolerance", required_argument, NULL, OPT_TOL },
	{ "qstat", no_argument, NULL, OPT_QSTAT },
	{ "account", no_argument, NULL, OPT_ACCOUNT },
	{ "lookahead", no_argument, NULL, OPT_LOOKAHEAD },
	{ "jobs-alone", no_argument, NULL, OPT_ALONE },
	{ "place", required_argument, NULL, OPT_PLACE },
	{ "trace-json", required_argument, NULL, OPT_TJSON },
	{ "window", required_argument, NULL, OPT_WINDOW },
	{ "ranks", required_argument, NULL, OPT_RANKS },
	{ "topology", required_argument, NULL, OPT_TOPO },
	{ "mapping", required_argument, NULL, OPT_MAPPING },
	{ "ranks-per-node", required_argument, NULL, OPT_PPN },
	{ "intra-params", required_argument, NULL, OPT_INTRA },
	{ "network-file", required_argument, NULL, OPT_NETFILE },
	{ "network-type", required_argument, NULL, 'n' },
	{ "version", no_argument, NULL, UTIL_OPT_VERSION },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* Read the command line into cl: -1 to go on, or the exit status (after
 * the message, the help or the version). */
static int cli_parse(cli *cl, int argc, char **argv)
{
	char err[1024];
	int c;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":f:V:b" SIM_PFLAGS "p:j:qn:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'f': cl->file = optarg; break;
		case 'V': cl->viz = optarg; break;
		case 'b': cl->batch = 1; break;
		case 'p': cl->pfile = optarg; break;
		case OPT_CSV: cl->csv = optarg; break;
		case OPT_SWEEP: cl->sw.spec = optarg; break;
		case 'j': {
			uint64_t v;
			if (num_u64_parse(optarg, strlen(optarg), &v) || v < 1 || v > 1024)
				return util_usage("-j needs a number of threads from 1 to 1024, not '%s'", optarg);
			cl->sw.jobs = (unsigned)v;
			break;
		}
		case OPT_REL: cl->sw.rel = optarg; break;
		case OPT_SVG: cl->sw.svg = optarg; break;
		case OPT_TITLE: cl->sw.title = optarg; break;
		case OPT_PART: {
			const char *sl = strchr(optarg, '/');
			if (!sl || num_u64_parse(optarg, (size_t)(sl - optarg), &cl->sw.part)
			    || num_u64_parse(sl + 1, strlen(sl + 1), &cl->sw.nparts)
			    || cl->sw.part < 1 || cl->sw.part > cl->sw.nparts)
				return util_usage("--part needs K/N with 1 <= K <= N, not '%s'", optarg);
			break;
		}
		case OPT_NOWALL: cl->sw.nowall = 1; break;
		case OPT_NTRACE: cl->po.trace = optarg; break;
		case OPT_NOISE: cl->po.spec = optarg; break;
		case OPT_COSCHED: cl->po.cosched = 1; break;
		case OPT_NRULE: cl->po.rule = optarg; break;
		case OPT_NOFFSET:
		case OPT_SEED: {
			uint64_t v;
			if (num_u64_parse(optarg, strlen(optarg), &v))
				return util_usage("--%s needs a non-negative integer, not '%s'",
				                  c == OPT_SEED ? "seed" : "noise-offset", optarg);
			*(c == OPT_SEED ? &cl->po.seed : &cl->po.offset) = v;
			*(c == OPT_SEED ? &cl->po.has_seed : &cl->po.has_offset) = 1;
			break;
		}
		case OPT_SLOW:
			if (cl->po.nslow_text == sizeof cl->po.slow_text / sizeof cl->po.slow_text[0])
				return util_usage("more than 64 --slow options");
			if (sim_slow_parse(optarg, &cl->po.slow, &cl->po.nslow, &cl->po.capslow, err,
			                   sizeof err))
				return util_usage("%s", err);
			cl->po.slow_text[cl->po.nslow_text++] = optarg;
			break;
		case OPT_CPATH: cl->cpath = optarg; break;
		case OPT_SENS: cl->sens = 1; break;
		case OPT_QSTAT: cl->qstat = 1; break;
		case OPT_ACCOUNT: cl->account = 1; break;
		case OPT_LOOKAHEAD: cl->lookahead = 1; break;
		case OPT_ALONE: cl->jobs_alone = 1; break;
		case OPT_PLACE: cl->place = optarg; break;
		case OPT_TOL:
			if (sens_pct_parse(optarg, cl->tol[0], 16, &cl->ntol, err, sizeof err))
				return util_usage("--tolerance: %s", err);
			for (unsigned k = 1; k < SENS_NPARAMS; k++)
				memcpy(cl->tol[k], cl->tol[0], sizeof cl->tol[0]);
			break;
		case OPT_TJSON: cl->tj.path = optarg; break;
		case OPT_WINDOW: cl->tj.window = optarg; break;
		case OPT_RANKS: cl->tj.ranks = optarg; break;
		case OPT_TOPO: cl->no.spec = optarg; break;
		case OPT_MAPPING: cl->no.mapping = optarg; break;
		case OPT_NETFILE: cl->no.file = optarg; break;
		case OPT_PPN: {
			uint64_t v;
			if (num_u64_parse(optarg, strlen(optarg), &v) || v < 1 || v > UINT32_MAX)
				return util_usage("--ranks-per-node needs a number of ranks from 1 to %" PRIu32
				                  ", not '%s'", UINT32_MAX, optarg);
			cl->no.ppn = v >= 2 ? (uint32_t)v : 0;
			break;
		}
		case OPT_INTRA: cl->intra_file = optarg; break;
		case 'n': cl->no.type = optarg; break;
		case OPT_JSON: cl->json = 1; break;
		case OPT_PROGRESS: cl->force = 1; break;
		case 'q': cl->quiet = 1; break;
		case UTIL_OPT_VERSION: return util_version(NULL);
		case 'h': usage(stdout); return 0;
		case ':': return util_usage_option(c, argv);
		default: {
			int r = sim_pflag_parse(c, optarg, &cl->flags, err, sizeof err);
			if (r < 0)
				return util_usage("%s", err);
			if (r > 0)
				return util_usage_option(c, argv);
			break;
		}
		}
	}
	if (optind < argc) {
		if (cl->file || optind + 1 < argc)
			return util_usage("give exactly one schedule");
		cl->file = argv[optind];
	}
	return -1;
}

/* The options that cannot be combined, and outputs that are inputs or
 * each other, refused in this one place before anything runs (the
 * network's topology is made here): 0, or the exit status after the
 * message. */
static int cli_check(cli *cl)
{
	char err[1024];
	const trace_json *tj = &cl->tj;
	const perturb_opts *po = &cl->po;
	sweep_opts *sw = &cl->sw;
	util_kind vk = !cl->file && cl->viz ? util_kind_of_file(cl->viz) : UTIL_KIND_NONE;
	if (vk == UTIL_KIND_GOAL_TEXT || vk == UTIL_KIND_GOAL_BINARY)
		return util_usage("no schedule given (-V takes the timeline's output file, so '%s' "
		                  "was taken as that: loggopsim -V OUT.tl %s)", cl->viz, cl->viz);
	if (!cl->file)
		return util_usage("no schedule given");
	if (!sw->spec && (sw->jobs || sw->rel || sw->svg || sw->title || sw->nparts || sw->nowall))
		return util_usage("-j, --relative-to, --svg, --title, --part and --no-wall need --sweep");
	if (sw->spec && (cl->viz || cl->json || cl->cpath || cl->ntol || cl->qstat || cl->account
	                 || cl->lookahead || tj->path || cl->jobs_alone))
		return util_usage("--sweep cannot be combined with -V, --json, --critical-path, "
		                  "--tolerance, --qstat, --account, --lookahead, --trace-json or "
		                  "--jobs-alone");
	/* Where the path meets a detour T jumps or stays flat as a parameter
	 * moves (a message that lands in a detour leaves T flat in L): the
	 * path's counts are no derivatives there. */
	if (cl->sens && (po->trace || po->spec))
		return util_usage("--sensitivity cannot be combined with noise: where the critical path "
		                  "meets a detour, T does not move as the counts say");
	if (cl->intra_file && !cl->no.ppn)
		return util_usage("--intra-params needs --ranks-per-node of 2 or more");
	if (cl->no.ppn && cl->no.mapping)
		return util_usage("give --ranks-per-node or --mapping, not both");
	if (cl->no.ppn && !cl->intra_file && !cl->no.spec && !cl->no.file)
		return util_usage("--ranks-per-node needs --intra-params or a network");
	int st = net_opts_check(&cl->no);
	if (st)
		return st;
	/* The core's features, and the options that ask for each. */
	static const char *const feature_opts[SIM_NFEATURES] = {
		[SIM_F_NET] = "--topology, --network-file",
		[SIM_F_PATH] = "--critical-path, --sensitivity, --tolerance, --trace-json",
		[SIM_F_NOISE] = "--noise, --noise-trace",
		[SIM_F_SLOW] = "--slow",
		[SIM_F_NODES] = "--intra-params",
	};
	unsigned f = (unsigned)(cl->no.t != NULL) << SIM_F_NET
	             | (unsigned)(cl->cpath || cl->sens || cl->ntol || tj->path) << SIM_F_PATH
	             | (unsigned)(po->trace || po->spec) << SIM_F_NOISE
	             | (unsigned)(po->nslow != 0) << SIM_F_SLOW
	             | (unsigned)(cl->intra_file != NULL) << SIM_F_NODES;
	sim_feature a, b;
	if (sim_features_conflict(f, &a, &b)) {
		topo_free(cl->no.t);
		cl->no.t = NULL;
		return util_usage("%s (%s) cannot be combined with %s (%s)", sim_feature_str(a),
		                  feature_opts[a], sim_feature_str(b), feature_opts[b]);
	}
	if ((st = trace_json_opts(&cl->tj)))
		return st;
	if (sw->svg && !sw->rel)
		return util_usage("--svg needs --relative-to");
	if (sw->rel && sw->nparts > 1)
		return util_usage("--relative-to cannot be combined with --part (give it to scripts/sweep-merge.sh)");
	sw->csv = cl->csv;
	sw->quiet = cl->quiet;
	sw->sensitivity = cl->sens;

	const char *inputs[] = { cl->file, cl->pfile,
	                         sw->spec && !strchr(sw->spec, '=') ? sw->spec : NULL,
	                         po->trace, cl->no.mapping, cl->no.file, cl->place, cl->intra_file };
	const char *outs[] = { cl->viz, cl->csv, sw->svg, cl->cpath, tj->path };
	static const char *const out_opt[] = { "-V", "--csv", "--svg", "--critical-path",
	                                        "--trace-json" };
	for (size_t i = 0; i < sizeof outs / sizeof outs[0]; i++) {
		for (size_t k = 0; k < i && outs[i]; k++)
			if (outs[k] && util_out_same(outs[k], outs[i]))
				return util_usage("%s and %s name the same file '%s'", out_opt[k], out_opt[i],
				                  outs[i]);
		if (outs[i] && util_out_check(outs[i], inputs, sizeof inputs / sizeof inputs[0], err, sizeof err))
			return util_error_msg(err);
	}
	return 0;
}

/* The timeline (-V) and the trace JSON (--trace-json) of a run of s, or
 * neither: *tl the stream the core writes (NULL: none).  0, or the exit
 * status after the message. */
static int timeline_open(cli *cl, const goal_sched *s, util_out *tlo, FILE **tl)
{
	char err[1024];
	static char tlbuf[1 << 20];
	*tl = NULL;
	if (!cl->viz && !cl->tj.path)
		return 0;
	if (cl->viz && util_out_open(tlo, cl->viz, NULL, 0, 0, err, sizeof err))
		return util_error_msg(err);
	if ((*tl = tlo->f))
		setvbuf(*tl, tlbuf, _IOFBF, sizeof tlbuf);
	if (cl->tj.path && !(*tl = trace_json_start(&cl->tj, s, tlo->f, err, sizeof err))) {
		util_out_abort(tlo);
		return util_error_msg(err);
	}
	loggp_range trg[SIM_MAX_RANGES];
	tl_write_header(*tl, s->nranks, cl->pset.p.S, s->ncpus, s->nnics, trg,
	                timeline_ranges(&cl->pset, trg));
	for (uint32_t j = 0; j < s->njobs; j++)
		tl_write_job(*tl, goal_job_name(s, j), s->jobs[j].start, s->job_ranks + s->jobs[j].first,
		             s->jobs[j].nranks);
	return 0;
}

/* One run of the schedule: open it, place its ranks, simulate, report.
 * Returns the exit status. */
static int simulate(cli *cl)
{
	char err[1024];
	goal_sched s;
	int st;
	if (goal_sched_open_any(&s, cl->file, stderr, err, sizeof err))
		return util_error_msg(err);
	perturb_opts *po = &cl->po;
	if (cl->jobs_alone && !s.njobs) {
		goal_sched_close(&s);
		return util_usage("--jobs-alone needs a schedule of several jobs (goalc --merge); %s has"
		                  " no job table", cl->file);
	}
	if (cl->place && (st = place_jobs(&s, cl->file, cl->place, po->has_seed ? po->seed : 1)))
		return st;
	if ((st = slow_check(po, s.nranks)) ||
	    (st = net_place(&cl->no, &s, po->has_seed ? po->seed : 1))) {
		goal_sched_close(&s);
		return st;
	}
	FILE *tl;
	util_out tlo = { 0 };
	if ((st = timeline_open(cl, &s, &tlo, &tl))) {
		goal_sched_close(&s);
		return st;
	}
	util_progress pg;
	sim_options so = { .timeline = tl, .progress = on_progress, .progress_ctx = &pg,
	                   .perturb = perturbed(po) ? &po->p : NULL, .critical = wants_path(cl),
	                   .qstat = cl->qstat, .account = cl->account,
	                   .windows = cl->lookahead,
	                   .net = cl->no.t ? &cl->no.net : NULL };
	const char *qix = getenv("LOGGOPSIM_INDEX_AFTER");
	if (qix)
		so.q_index_after = (uint32_t)strtoul(qix, NULL, 10);
	sim *m = sim_create(&s, &cl->pset.p, &so, err, sizeof err);
	if (!m) {
		util_error("%s", err);
		trace_json_end(&cl->tj, NULL, 0, 0);
		util_out_abort(&tlo);
		goal_sched_close(&s);
		return 1;
	}
	sim_result res;
	util_progress_start(&pg, cl->quiet, cl->force);
	int rc = sim_run(m, &res, err, sizeof err);
	double wall = util_now() - pg.t0;
	util_progress_end(&pg);
	sim_path path = { 0 };
	char (*labels)[256] = NULL;
	if (rc) {
		st = util_error("%s", err);
		trace_json_end(&cl->tj, NULL, 0, 0);
		sim_destroy(m);
	} else {
		st = finish_run(cl, &s, m, &res, wall, &tlo, &path, &labels);
	}
	trace_json_end(&cl->tj, NULL, 0, 0);
	util_out_abort(&tlo);
	sim_path_free(&path);
	free(labels);
	goal_sched_close(&s);
	return st;
}

int main(int argc, char **argv)
{
	static cli cl;
	char err[1024];
	util_set_prog("loggopsim");
	int st = cli_parse(&cl, argc, argv);
	if (st >= 0)
		return st;
	if ((st = cli_check(&cl)) || (st = perturb_setup(&cl.po)))
		return st;
	if (cl.pfile) {
		if (sim_pset_read(cl.pfile, &cl.pset, err, sizeof err))
			return util_error_msg(err);
	} else {
		sim_pset_default(&cl.pset);
	}
	if (sim_pset_apply(&cl.pset, &cl.flags, err, sizeof err))
		return util_usage("%s", err);
	if (cl.intra_file) {
		if (sim_pset_read(cl.intra_file, &cl.intra, err, sizeof err))
			return util_error_msg(err);
		if (cl.intra.p.nstrides)
			return util_usage("--intra-params %s: strided messages cost the same at both levels:"
			                  " give the strides in --params", cl.intra_file);
		cl.pset.p.ranks_per_node = cl.no.ppn;
		cl.pset.p.intra = &cl.intra.p;
	}
	if (cl.sw.spec)
		st = run_sweep(&cl.sw, cl.file, cl.place, &cl.pset, &cl.flags, &cl.po, &cl.no);
	else
		st = simulate(&cl);
	free(cl.tj.rg);
	sim_noise_free(cl.po.noise);
	free(cl.po.slow);
	topo_free(cl.no.t);
	free(cl.no.host);
	return st;
}
