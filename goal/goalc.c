/* goalc.c: the GOAL compiler's command line (also installed as txt2bin). */
#include "die.h"
#include "goal.h"
#include "goal_open.h"
#include "num.h"
#include "out.h"
#include "version.h"

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
"  goalc --stats FILE           ranks, ops by kind, dependencies, bytes\n"
"                               (FILE binary or text)\n"
"\n"
"options:\n"
"  -o, --output FILE     output file\n"
"      --max-errors N    report at most N errors (default 20)\n"
"  -j, --threads N       1: compile in one thread; 2 (default): a file of 4 MiB\n"
"                        or more in parts, in two threads (the same output)\n"
"  -h, --help            this help\n"
"      --version         the version and the commit it was built from\n"
"\n"
"As txt2bin (the old tool's interface): txt2bin -i IN.goal -o OUT.bin\n"
"Errors read FILE:LINE:COL: error: MESSAGE.\n"
"Example: goalc app.goal -o app.bin\n"
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
	goal_sched_close(&s);
	return util_stdout_close(err, sizeof err) ? util_error_msg(err) : 0;
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

int main(int argc, char **argv)
{
	enum { OPT_CHECK = 256, OPT_DUMP, OPT_STATS, OPT_MAXERR };
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "input", required_argument, NULL, 'i' },
		{ "check", no_argument, NULL, OPT_CHECK },
		{ "dump", no_argument, NULL, OPT_DUMP },
		{ "stats", no_argument, NULL, OPT_STATS },
		{ "max-errors", required_argument, NULL, OPT_MAXERR },
		{ "threads", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, UTIL_OPT_VERSION },
		{ NULL, 0, NULL, 0 },
	};
	const char *base = strrchr(argv[0], '/');
	const char *in = NULL, *out = NULL;
	char *def_out = NULL;
	int mode = 0, c;
	unsigned max_errors = 20, threads = 2;
	unsigned long nerr;

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
		case OPT_CHECK:
		case OPT_DUMP:
		case OPT_STATS:
			if (mode && mode != c)
				return util_usage("--check, --dump and --stats exclude each other");
			mode = c;
			break;
		case OPT_MAXERR: {
			uint64_t v;
			if (num_u64_parse(optarg, strlen(optarg), &v) != NUM_OK || v == 0 || v > 100000)
				return util_usage("--max-errors needs a number from 1 to 100000");
			max_errors = (unsigned)v;
			break;
		}
		case 'j': {
			uint64_t v;
			if (num_u64_parse(optarg, strlen(optarg), &v) != NUM_OK || v < 1 || v > 2)
				return util_usage("--threads needs 1 or 2");
			threads = (unsigned)v;
			break;
		}
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
	if (mode == OPT_CHECK) {
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
