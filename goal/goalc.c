/* goalc.c: the GOAL compiler's command line (also installed as txt2bin). */
#include "die.h"
#include "goal.h"
#include "goal_open.h"
#include "num.h"
#include "out.h"
#include "util.h"
#include "version.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
	fprintf(f,
"usage: goalc [options] INPUT\n"
"\n"
"Compile GOAL text schedules to the binary schedule format and back.\n"
"\n"
"  goalc IN.goal [-o OUT.bin]   compile (default output: IN with .bin for .goal;\n"
"                               IN may be - for standard input, then -o is needed)\n"
"  goalc --check IN             check only, write nothing (IN text or binary)\n"
"  goalc --dump IN.bin [-o F]   print a binary schedule as GOAL text\n"
"  goalc --stats FILE           ranks, ops by kind, dependencies, bytes, jobs\n"
"                               (FILE binary or text)\n"
"  goalc --merge JOB... -o OUT  the schedules of several jobs as one; a JOB is\n"
"                               [NAME=]FILE[@T]: its name (default: FILE's base\n"
"                               name), its schedule (binary or text), the time\n"
"                               its roots start (12us, 1.5ms; default 0)\n"
"  goalc --job NAME IN -o OUT   job NAME of a merged schedule, as it was alone\n"
"\n"
"options:\n"
"  -o, --output FILE     output file\n"
"      --max-errors N    report at most N errors (default 20)\n"
"      --place HOW       --merge: where the jobs' ranks go: packed (default:\n"
"                        one block after the other), roundrobin (one rank of\n"
"                        each job in turn), random (drawn from --seed), or a\n"
"                        file of one line per job, its ranks as in GOAL job\n"
"                        lines: 0 to 31 64 70\n"
"      --seed N          --place random: the seed (default 1)\n"
"      --ranks P         --merge: ranks of the merged schedule (default: the\n"
"                        jobs' ranks together); ranks of no job stay empty\n"
"  -j, --threads N       1: compile in one thread; 2 (default): a file of 4 MiB\n"
"                        or more in parts, in two threads (the same output)\n"
"  -h, --help            this help\n"
"      --version         the version and the commit it was built from\n"
"\n"
"As txt2bin (the old tool's interface): txt2bin -i IN.goal -o OUT.bin\n"
"Errors read FILE:LINE:COL: error: MESSAGE.\n"
"Example: goalc app.goal -o app.bin\n"
"         goalc --merge ar=allreduce.bin a2a=alltoall.bin@5us --place random -o both.bin\n"
"Exit status: 0 done, 1 bad input or failed output, 2 bad options.\n");
}

static int put_dump(FILE *f, void *s)
{
	return goal_dump(s, f);
}

static int do_dump(const char *in, const char *out_path)
{
	goal_sched s;
	char err[1024];
	int rc = 0;

	if (goal_sched_open(&s, in, err, sizeof err))
		return util_error_msg(err);
	if (util_out_write(out_path ? out_path : "-", &in, 1, put_dump, &s, err, sizeof err))
		rc = util_error_msg(err);
	goal_sched_close(&s);
	return rc;
}

static int do_stats(const char *in)
{
	goal_sched s;
	char err[512];
	uint64_t kinds[GOAL_NKINDS] = { 0 }, req = 0, ireq = 0, bytes = 0, calc = 0;

	if (goal_sched_open_any(&s, in, stderr, err, sizeof err))
		return util_error_msg(err);
	for (uint64_t r = 0; r < s.nranks; r++) {
		uint32_t n = goal_rank_nops(&s, r);
		const goal_op *ops = goal_rank_ops(&s, r);
		const goal_edge *e = goal_rank_edges(&s, r);
		for (uint32_t i = 0; i < n; i++) {
			kinds[ops[i].kind]++;
			if (ops[i].kind == GOAL_SEND)
				bytes += ops[i].size;
			else if (ops[i].kind == GOAL_CALC)
				calc += ops[i].size;
		}
		for (uint32_t k = 0; k < s.ranks[r].nedges; k++) {
			if (e[k] & GOAL_EDGE_IREQ)
				ireq++;
			else
				req++;
		}
	}
	printf("ranks          %" PRIu64 "\n", s.nranks);
	printf("ops            %" PRIu64 "\n", s.nops);
	for (int k = 0; k < GOAL_NKINDS; k++)
		printf("  %-12s %" PRIu64 "\n", goal_kind_name[k], kinds[k]);
	printf("dependencies   %" PRIu64 "\n", s.nedges);
	printf("  requires     %" PRIu64 "\n", req);
	printf("  irequires    %" PRIu64 "\n", ireq);
	printf("bytes sent     %" PRIu64 "\n", bytes);
	printf("calc time      %" PRIu64 " ns\n", calc);
	printf("cpus per rank  %" PRIu32 "\n", s.ncpus);
	printf("nics per rank  %" PRIu32 "\n", s.nnics);
	printf("largest rank   %" PRIu32 " ops\n", s.max_rank_ops);
	printf("comms          %" PRIu32 "\n", s.ncomms);
	if (s.nstrides)
		printf("strided ops    %" PRIu64 "\n", s.nstrides);
	/* Versions 1 and 2 have a block per rank. */
	printf("rank blocks    %" PRIu64 "\n", s.version >= 3 ? s.nblocks : s.nranks);
	printf("binary size    %" PRIu64 " bytes\n", s.size);
	printf("format version %" PRIu32 "\n", s.version);
	for (uint32_t j = 0; j < s.njobs; j++)
		printf("job %-10s %" PRIu32 " ranks, start %" PRIu64 " ns, comms from %" PRIu32 "\n",
		       goal_job_name(&s, j), s.jobs[j].nranks, s.jobs[j].start, s.jobs[j].comm_base);
	goal_sched_close(&s);
	return util_stdout_close(err, sizeof err) ? util_error_msg(err) : 0;
}

/* ---- Merging ----------------------------------------------------------- */

/* A message that names its file ("FILE:LINE:COL: error: ..."); returns 1. */
static int located(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int located(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return util_error_msg(buf);
}

typedef struct mjob {
	char name[GOAL_MAX_NAME + 1];
	int named;            /* the name was given (NAME=) */
	const char *path;
	uint64_t start;       /* ns */
	goal_sched s;
	int open;
} mjob;

/* The job of argument arg, [NAME=]FILE[@T]: its name (given, or FILE's
 * base name made a label), path and start.  0, or 2 after a usage error. */
static int job_arg(mjob *j, char *arg)
{
	char *eq = strchr(arg, '='), *at = strrchr(arg, '@');
	const char *name = NULL;
	size_t len = 0;
	if (eq && eq > arg) {
		int label = 1;
		for (const char *p = arg; p < eq; p++)
			label &= isalnum((unsigned char)*p) || *p == '_';
		if (label) {
			name = arg;
			len = (size_t)(eq - arg);
			arg = eq + 1;
			j->named = 1;
		}
	}
	if (at && at > arg) {
		if (num_time_parse(at + 1, strlen(at + 1), &j->start) != NUM_OK)
			return util_usage("%s: the start after '@' is no time (12000, 12us, 1.5ms)", arg);
		*at = '\0';
	}
	j->path = arg;
	if (name) {
		if (len > GOAL_MAX_NAME)
			return util_usage("%.*s...: a job's name has at most %u characters", 32, name, GOAL_MAX_NAME);
		memcpy(j->name, name, len);
		j->name[len] = '\0';
		return 0;
	}
	const char *b = strrchr(arg, '/');
	b = b ? b + 1 : arg;
	len = strlen(b);
	if (len > 4 && strcmp(b + len - 4, ".bin") == 0)
		len -= 4;
	else if (len > 5 && strcmp(b + len - 5, ".goal") == 0)
		len -= 5;
	size_t k = 0;
	if (!len || isdigit((unsigned char)*b))
		j->name[k++] = 'j';
	for (size_t i = 0; i < len && k < GOAL_MAX_NAME - 8; i++)
		j->name[k++] = isalnum((unsigned char)b[i]) ? b[i] : '_';
	j->name[k] = '\0';
	return 0;
}

/* Names from file names made distinct: the second "a" is "a_2". */
static void distinct_names(mjob *jobs, uint32_t n)
{
	for (uint32_t j = 1; j < n; j++) {
		if (jobs[j].named)
			continue;
		size_t base = strlen(jobs[j].name);
		for (unsigned v = 2;; v++) {
			uint32_t k = 0;
			while (k < j && strcmp(jobs[k].name, jobs[j].name) != 0)
				k++;
			if (k == j)
				break;
			snprintf(jobs[j].name + base, 9, "_%u", v);
		}
	}
}

static int do_merge(char **args, int n, const char *out, const char *how, uint64_t seed,
                    uint64_t P)
{
	mjob *jobs = calloc((size_t)n, sizeof *jobs);
	goal_mjob *mj = calloc((size_t)n, sizeof *mj);
	uint64_t total = 0, base = 0;
	char err[1024];
	int rc = 1;
	if (!jobs || !mj) {
		rc = util_error("out of memory");
		goto out;
	}
	if ((uint64_t)n > GOAL_MAX_JOBS) {
		rc = util_usage("at most %u jobs", GOAL_MAX_JOBS);
		goto out;
	}
	for (int j = 0; j < n; j++)
		if ((rc = job_arg(&jobs[j], args[j])))
			goto out;
	rc = 1;
	distinct_names(jobs, (uint32_t)n);
	for (int j = 0; j < n; j++)
		if (util_out_check(out, &jobs[j].path, 1, err, sizeof err)) {
			util_error_msg(err);
			goto out;
		}
	for (int j = 0; j < n; j++) {
		mjob *g = &jobs[j];
		if (goal_sched_open_any(&g->s, g->path, stderr, err, sizeof err)) {
			util_error_msg(err);
			goto out;
		}
		g->open = 1;
		if (g->s.njobs) {
			located("%s: error: already a merged schedule (%" PRIu32 " jobs); goalc --job takes"
			           " one out", g->path, g->s.njobs);
			goto out;
		}
		uint32_t top = 0;
		for (uint32_t k = 0; k < g->s.ncomms; k++)
			top = g->s.comms[k] > top ? g->s.comms[k] : top;
		if (base + top > GOAL_MAX_COMM) {
			located("%s: error: the jobs' comms together pass %u", g->path, GOAL_MAX_COMM);
			goto out;
		}
		mj[j] = (goal_mjob){ .s = &g->s, .nranks = (uint32_t)g->s.nranks, .name = g->name,
		                     .start = g->start, .comm_base = (uint32_t)base,
		                     .dcomm = (uint32_t)base };
		base += (uint64_t)top + 1;
		total += g->s.nranks;
		if (!(mj[j].place = malloc(g->s.nranks * sizeof *mj[j].place))) {
			util_error("out of memory");
			goto out;
		}
	}
	if (!P)
		P = total;
	if (P > GOAL_MAX_RANKS || total > P) {
		rc = util_usage("the jobs have %" PRIu64 " ranks together, --ranks gives %" PRIu64, total, P);
		goto out;
	}
	if (goal_place(mj, (uint32_t)n, P, how, seed, err, sizeof err)) {
		util_error_msg(err);
		goto out;
	}
	if (goal_merge(out, mj, (uint32_t)n, P, 1, err, sizeof err)) {
		util_error_msg(err);
		goto out;
	}
	rc = 0;
out:
	for (int j = 0; jobs && j < n; j++) {
		if (jobs[j].open)
			goal_sched_close(&jobs[j].s);
		if (mj)
			free(mj[j].place);
	}
	free(jobs);
	free(mj);
	return rc;
}

/* Job NAME of the merged schedule IN, as it was alone, to OUT. */
static int do_job(const char *name, const char *in, const char *out)
{
	goal_sched s;
	char err[1024];
	int rc = 1;
	if (!out)
		return util_usage("--job needs -o OUT");
	if (util_out_check(out, &in, 1, err, sizeof err))
		return util_error_msg(err);
	if (goal_sched_open_any(&s, in, stderr, err, sizeof err))
		return util_error_msg(err);
	uint32_t j = 0;
	while (j < s.njobs && strcmp(goal_job_name(&s, j), name) != 0)
		j++;
	if (!s.njobs)
		located("%s: error: no jobs (not a merged schedule)", in);
	else if (j == s.njobs)
		located("%s: error: no job named %s", in, name);
	else if (goal_job_extract(&s, j, out, err, sizeof err))
		util_error_msg(err);
	else
		rc = 0;
	goal_sched_close(&s);
	return rc;
}

/* The number arg into *v, from lo to hi: 0, or -1. */
static int num_opt(const char *arg, uint64_t lo, uint64_t hi, uint64_t *v)
{
	return num_u64_parse(arg, strlen(arg), v) != NUM_OK || *v < lo || *v > hi ? -1 : 0;
}

/* --merge (merge 1: given) and its options: seed NULL when
 * not given, ranks 0. */
static int merge_main(int merge, const char *out, const char *place, const uint64_t *seed,
                      uint64_t ranks, char **args, int n)
{
	if (!merge)
		return util_usage("--place, --seed and --ranks go with --merge");
	if (n == 0)
		return util_usage("--merge needs its jobs' schedules after the options");
	if (!out)
		return util_usage("--merge needs -o OUT");
	if (seed && (!place || strcmp(place, "random") != 0))
		return util_usage("--seed goes with --place random");
	return do_merge(args, n, out, place ? place : "packed", seed ? *seed : 1, ranks);
}

/* Default output for IN: IN without .goal, plus .bin. */
static char *default_output(const char *in)
{
	size_t n = strlen(in);
	char *out = malloc(n + 5);
	if (!out)
		return NULL;
	memcpy(out, in, n + 1);
	if (n > 5 && strcmp(in + n - 5, ".goal") == 0)
		out[n - 5] = '\0';
	strcat(out, ".bin");
	return out;
}

/* Compile in to out (check: write nothing; out NULL: the default name). */
static int do_compile(const char *in, const char *out, int check, unsigned max_errors,
                      unsigned threads)
{
	char *def_out = NULL;
	unsigned long nerr;
	if (check) {
		if (out)
			return util_usage("--check writes nothing; drop -o");
	} else if (!out) {
		if (strcmp(in, "-") == 0)
			return util_usage("reading standard input needs -o FILE");
		out = def_out = default_output(in);
		if (!out)
			return util_error("out of memory");
	}
	if (out) {
		char err[1024];
		if (util_out_check(out, &in, 1, err, sizeof err)) {
			free(def_out);
			return util_error_msg(err);
		}
	}
	nerr = goal_compile_path(in, out, stderr, max_errors, threads);
	free(def_out);
	return nerr ? 1 : 0;
}

int main(int argc, char **argv)
{
	enum { OPT_CHECK = 256, OPT_DUMP, OPT_STATS, OPT_MAXERR, OPT_MERGE, OPT_JOB, OPT_PLACE,
	       OPT_SEED, OPT_RANKS };
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "input", required_argument, NULL, 'i' },
		{ "check", no_argument, NULL, OPT_CHECK },
		{ "dump", no_argument, NULL, OPT_DUMP },
		{ "stats", no_argument, NULL, OPT_STATS },
		{ "merge", no_argument, NULL, OPT_MERGE },
		{ "job", required_argument, NULL, OPT_JOB },
		{ "place", required_argument, NULL, OPT_PLACE },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "ranks", required_argument, NULL, OPT_RANKS },
		{ "max-errors", required_argument, NULL, OPT_MAXERR },
		{ "threads", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, UTIL_OPT_VERSION },
		{ NULL, 0, NULL, 0 },
	};
	const char *base = strrchr(argv[0], '/');
	const char *in = NULL, *out = NULL, *job = NULL, *place = NULL;
	int mode = 0, c, have_seed = 0;
	uint64_t seed = 1, merged_ranks = 0, v;
	unsigned max_errors = 20, threads = 2;

	base = base ? base + 1 : argv[0];
	util_set_prog(strcmp(base, "txt2bin") == 0 ? "txt2bin" : "goalc");
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:i:j:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'i':
			in = optarg;
			break;
		case OPT_JOB:
		case OPT_CHECK:
		case OPT_DUMP:
		case OPT_STATS:
		case OPT_MERGE:
			if (c == OPT_JOB)
				job = optarg;
			if (mode && mode != c)
				return util_usage("--check, --dump, --stats, --merge and --job exclude each other");
			mode = c;
			break;
		case OPT_PLACE:
			place = optarg;
			break;
		case OPT_SEED:
			if (num_opt(optarg, 0, UINT64_MAX, &seed))
				return util_usage("--seed needs a number from 0 to %" PRIu64, UINT64_MAX);
			have_seed = 1;
			break;
		case OPT_RANKS:
			if (num_opt(optarg, 1, GOAL_MAX_RANKS, &merged_ranks))
				return util_usage("--ranks needs a number from 1 to %u", GOAL_MAX_RANKS);
			break;
		case OPT_MAXERR:
			if (num_opt(optarg, 1, 100000, &v))
				return util_usage("--max-errors needs a number from 1 to 100000");
			max_errors = (unsigned)v;
			break;
		case 'j':
			if (num_opt(optarg, 1, 2, &v))
				return util_usage("--threads needs 1 or 2");
			threads = (unsigned)v;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case UTIL_OPT_VERSION: {
			char fv[64];
			snprintf(fv, sizeof fv, "binary schedule format version %u", GOAL_VERSION);
			return util_version(fv);
		}
		default:
			return util_usage_option(c, argv);
		}
	}
	if (mode == OPT_MERGE && in)
		return util_usage("--merge takes its jobs after the options, not with -i");
	if (mode == OPT_MERGE || place || have_seed || merged_ranks)
		return merge_main(mode == OPT_MERGE, out, place, have_seed ? &seed : NULL,
		                  merged_ranks, argv + optind, argc - optind);
	if (optind < argc) {
		if (in)
			return util_usage("more than one input file");
		in = argv[optind++];
	}
	if (optind < argc)
		return util_usage("more than one input file");
	if (!in)
		return util_usage("no input file");
	if (mode == OPT_DUMP)
		return do_dump(in, out);
	if (mode == OPT_STATS)
		return do_stats(in);
	if (mode == OPT_JOB)
		return do_job(job, in, out);
	return do_compile(in, out, mode == OPT_CHECK, max_errors, threads);
}
