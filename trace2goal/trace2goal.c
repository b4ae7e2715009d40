/* trace2goal.c: command line of the MPI trace to GOAL schedule converter. */
#include "trace2goal_account.h"
#include "trace2goal_conv.h"
#include "t2g_chakra.h"
#include "trace_otf2.h"
#include "trace_source.h"
#include "die.h"
#include "loggp_params.h"
#include "num.h"
#include "out.h"
#include "util.h"

#include "sg_pattern.h"
#include "sg_select.h"
#include "version.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The --help text. */
static void usage(FILE *f)
{
	fprintf(f,
	        "usage: trace2goal [options] TRACE...\n"
	        "       trace2goal [options] RUN.meta | ARCHIVE.otf2 | NAME.0.et | FOLDER\n"
	        "\n"
	        "Convert the per-rank traces of an MPI run (goaltrace or liballprof text,\n"
	        "docs/traces.md; SST-DUMPI binary; OTF2) into a GOAL schedule for loggopsim\n"
	        "(docs/trace2goal.md).  TRACE: one text file per rank, a folder (its *.txt\n"
	        "and numbered *.dat files), or the file of rank 0 alone (the other ranks'\n"
	        "files are found next to it, the rank number in the name replaced, for the\n"
	        "world size of the trace).  A file's rank is its '# rank:' line, else the\n"
	        "number before '.txt' or '.dat' in its name.\n"
	        "RUN.meta: a DUMPI trace (the .meta file names the rank files\n"
	        "PREFIX-NNNN.bin beside it; a file of key=value lines with numprocs= is\n"
	        "one too, whatever its name).  ARCHIVE.otf2: the anchor file of an OTF2\n"
	        "archive (Score-P's traces.otf2), its MPI ranks.  A folder holding one\n"
	        ".meta or .otf2 file is read as that file.  NAME.RANK.et: a Chakra\n"
	        "execution trace (docs/chakra.md), one file per rank; give one of them, or\n"
	        "their folder.\n%s%s"
	        "\n"
	        "options:\n"
	        "  -o, --output FILE        write the schedule to FILE: binary if it ends in\n"
	        "                           .bin, else GOAL text (default: text on stdout)\n"
	        "  -c, --coll CLASS=PATTERN replace the collectives of CLASS by the schedgen\n"
	        "                           pattern PATTERN (repeatable; see --list)\n"
	        "      --select LIB         replace each collective (not the v-collectives) by\n"
	        "                           the algorithm LIB runs for its communicator and\n"
	        "                           bytes: openmpi (the default), mpich (where it has\n"
	        "                           rules: --list), nccl (its tuning model, on nodes of\n"
	        "                           --ranks-per-node, the machine of --nccl-system;\n"
	        "                           docs/patterns.md), or none (the patterns --list names)\n"
	        "      --gamma NS           ns per byte of a local reduction: each reducing\n"
	        "                           step of a collective costs a calc of NS x its\n"
	        "                           bytes (default 0)\n"
	        "      --params FILE        take gamma from a parameter file's 'gamma' line\n"
	        "                           (docs/loggp.md); --gamma wins\n"
	        "      --channels C         channels of NCCL's patterns (--coll CLASS=*_nccl;\n"
	        "                           1..64, default 1)\n"
	        "      --protocol P         their protocol: simple (default), ll, ll128\n"
	        "      --ranks-per-node K   nodes of K ranks, for NCCL's tree and --select nccl\n"
	        "      --nccl-system SPEC   the machine of --select nccl (schedgen --help)\n",
	        tr_otf2_supported() ? "" : "This build reads no OTF2: it has no OTF2 library.\n",
	        ck_supported() ? "" : "This build reads no Chakra: it has no protobuf-c.\n");
	fprintf(f,
	        "  -x, --extrapolate K      K times the traced ranks (default 1)\n"
	        "      --keep-group PG      Chakra, extrapolated: process group PG (a\n"
	        "                           model-parallel one) stays in each copy instead of\n"
	        "                           growing over all copies (repeatable)\n"
	        "      --compute-scale X    multiply the computation times by X (default 1)\n"
	        "      --flops F            Chakra: a compute node takes num_ops / F seconds\n"
	        "                           (default: its duration)\n"
	        "      --mem-bw B           Chakra: a memory node takes tensor_size / B ns\n"
	        "                           (B bytes per ns; default: its duration)\n"
	        "      --strict             an unsupported MPI call, or a Chakra node type or\n"
	        "                           attribute the conversion does not use, is an\n"
	        "                           error (default: a warning, and it is skipped)\n"
	        "      --request-size N     bytes of an MPI_Request in liballprof traces, 4 or 8\n"
	        "                           (default: detected from each trace)\n"
	        "      --stats              print figures of the conversion (with the skipped\n"
	        "                           calls by function) on stdout, as goalc --stats\n"
	        "                           does (on stderr when the schedule goes there)\n"
	        "      --account            print where each rank's traced time went:\n"
	        "                           computation, MPI calls (by call) and the\n"
	        "                           tracer's own time (where --stats prints)\n"
	        "  -q, --quiet              no warnings\n"
	        "  -l, --list               list the collective classes and the patterns\n"
	        "  -h, --help               this help\n"
	        "      --version            the version and the commit it was built from\n"
	        "\n"
	        "Example: trace2goal --strict --stats traces/ -o app.bin\n"
	        "Exit status: 0 done, 1 bad trace (FILE:LINE:COL: error: ... or FILE: error:\n"
	        "...), 2 bad options.\n");
}

/* --list: the classes with their patterns, then every pattern. */
static void list_patterns(const struct t2g_options *o)
{
	printf("collective classes and their patterns (--coll CLASS=PATTERN):\n");
	for (int c = 0; c < T2G_NCOLL; c++) {
		sg_choice ch;
		sg_params two;
		sg_params_default(&two);
		two.nranks = 2;
		int lib = !(o->pinned & (1u << c)) && t2g_select(o, t2g_coll_name(c), &two, &ch) == 0;
		printf("  %-16s %s%s%s%s\n", t2g_coll_name(c), lib ? o->select : "",
		       lib ? "'s choice by its rules (with --select none: " : "",
		       sg_pattern((size_t)o->pattern[c])->name, lib ? ")" : "");
	}
	printf("(gatherv, scatterv, allgatherv and alltoallv belong to the class without v,\n"
	       "with its --select none pattern, which sends each pair's count;\n"
	       "reduce_scatter_block to reduce_scatter, exscan to scan)\n");
	printf("patterns:\n");
	for (size_t i = 0; i < sg_npatterns(); i++)
		printf("  %-24s %s\n", sg_pattern(i)->name, sg_pattern(i)->summary);
}

/* Warnings of the conversion go to stderr, one a line. */
static void print_warning(void *ctx, const char *msg)
{
	(void)ctx;
	fprintf(stderr, "%s\n", msg);
}

/* A whole decimal number (no sign).  Returns 0 or -1. */
static int parse_u64(const char *s, uint64_t *v)
{
	return num_u64_parse(s, strlen(s), v) == NUM_OK ? 0 : -1;
}

/* A finite number of at least 0 (above 0 with positive) into *v: 0 or -1. */
static int parse_rate(const char *s, int positive, double *v)
{
	char *end;
	errno = 0;
	*v = strtod(s, &end);
	return errno || *end || end == s || !(*v >= 0) || !isfinite(*v) || (positive && *v == 0)
	       ? -1 : 0;
}

/* Everything the command line sets: the conversion's options, the output,
 * the extras, and the traces named (args[0..nargs)). */
struct cli {
	struct t2g_options o;
	const char *out_path;
	const char *params;
	int stats, account, quiet, list, have_gamma;
	char **args;
	int nargs;
};

static const struct option longopts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "coll", required_argument, NULL, 'c' },
	{ "select", required_argument, NULL, 'L' },
	{ "gamma", required_argument, NULL, 'g' },
	{ "params", required_argument, NULL, 'P' },
	{ "extrapolate", required_argument, NULL, 'x' },
	{ "keep-group", required_argument, NULL, 'G' },
	{ "compute-scale", required_argument, NULL, 'C' },
	{ "flops", required_argument, NULL, 'F' },
	{ "channels", required_argument, NULL, 'H' },
	{ "protocol", required_argument, NULL, 'R' },
	{ "ranks-per-node", required_argument, NULL, 'K' },
	{ "nccl-system", required_argument, NULL, 'N' },
	{ "mem-bw", required_argument, NULL, 'M' },
	{ "strict", no_argument, NULL, 'S' },
	{ "request-size", required_argument, NULL, 'r' },
	{ "stats", no_argument, NULL, 't' },
	{ "account", no_argument, NULL, 'A' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "list", no_argument, NULL, 'l' },
	{ "version", no_argument, NULL, UTIL_OPT_VERSION },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/* --coll CLASS=PATTERN into o.  Returns 0, or the exit status after the
 * message. */
static int parse_coll(struct t2g_options *o, const char *arg)
{
	const char *eq = strchr(arg, '=');
	char name[64];
	int cls, pat;
	if (!eq || (size_t)(eq - arg) >= sizeof name)
		return util_usage("--coll wants CLASS=PATTERN (got '%s')", arg);
	memcpy(name, arg, (size_t)(eq - arg));
	name[eq - arg] = 0;
	cls = t2g_coll_find(name);
	if (cls < 0)
		return util_usage("unknown collective class '%s' (see --list)", name);
	pat = sg_pattern_find(eq + 1);
	if (pat < 0)
		return util_usage("unknown pattern '%s' (see --list)", eq + 1);
	o->pattern[cls] = pat;
	o->pinned |= 1u << cls;
	return 0;
}

/* Read the command line into cl: -1 to go on, or the exit status (after
 * the message, the help or the version). */
static int cli_parse(struct cli *cl, int argc, char **argv)
{
	uint64_t v;
	int ch, st;
	memset(cl, 0, sizeof *cl);
	cl->out_path = "-";
	t2g_options_default(&cl->o);
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":o:c:x:s:qlh", longopts, NULL)) != -1) {
		switch (ch) {
		case 'o':
			cl->out_path = optarg;
			break;
		case 'c':
			if ((st = parse_coll(&cl->o, optarg)))
				return st;
			break;
		case 'L':
			if (strcmp(optarg, "none") == 0)
				cl->o.select = NULL;
			else if (strcmp(optarg, "openmpi") == 0 || strcmp(optarg, "mpich") == 0
			         || strcmp(optarg, "nccl") == 0)
				cl->o.select = strcmp(optarg, "openmpi") == 0 ? "openmpi"
				               : strcmp(optarg, "mpich") == 0 ? "mpich" : "nccl";
			else
				return util_usage("--select is openmpi, mpich, nccl or none (got '%s')", optarg);
			break;
		case 'g': {
			num_err e = num_dec_parse(optarg, strlen(optarg), NUM_FRAC_MAX, &cl->o.gamma);
			if (e)
				return util_usage("--gamma expects ns per byte (e.g. 0.25), not '%s': %s", optarg,
				                  num_err_str(e));
			cl->have_gamma = 1;
			break;
		}
		case 'P':
			cl->params = optarg;
			break;
		case 'x':
			if (parse_u64(optarg, &v) || v < 1 || v > UINT32_MAX)
				return util_usage("--extrapolate wants a whole number of at least 1 (got '%s')", optarg);
			cl->o.extrapolate = (uint32_t)v;
			break;
		case 'G':
			if (cl->o.nkeep_group == T2G_MAX_KEEP)
				return util_usage("--keep-group is given more than %d times", T2G_MAX_KEEP);
			cl->o.keep_group[cl->o.nkeep_group++] = optarg;
			break;
		case 's':
			return util_usage("-s is not an option of trace2goal (in schedgen and loggops-model "
			                  "it gives the ranks): the computation's scale is --compute-scale X");
		case 'C':
			if (parse_rate(optarg, 0, &cl->o.compute_scale))
				return util_usage("--compute-scale wants a number of at least 0 (got '%s')", optarg);
			break;
		case 'H':
			if (parse_u64(optarg, &v) || v < 1 || v > SG_MAX_CHANNELS)
				return util_usage("--channels must be 1..%d (got '%s')", SG_MAX_CHANNELS, optarg);
			cl->o.channels = v;
			cl->o.have_channels = 1;
			break;
		case 'K':
			if (parse_u64(optarg, &v) || v < 1 || v > UINT32_MAX)
				return util_usage("--ranks-per-node must be 1..%" PRIu32 " (got '%s')", UINT32_MAX,
				                  optarg);
			cl->o.ranks_per_node = v;
			break;
		case 'N': {
			char err[512];
			if (sg_nccl_system_parse(optarg, &cl->o.nccl, err, sizeof err))
				return util_usage("%s", err);
			break;
		}
		case 'R': {
			int k = 0;
			while (k < SG_NPROTOCOLS && strcasecmp(optarg, sg_protocol_name[k]) != 0)
				k++;
			if (k == SG_NPROTOCOLS)
				return util_usage("--protocol is simple, ll or ll128, not '%s'", optarg);
			cl->o.protocol = (sg_protocol)k;
			cl->o.have_protocol = 1;
			break;
		}
		case 'F':
		case 'M':
			if (parse_rate(optarg, 1, ch == 'F' ? &cl->o.flops : &cl->o.mem_bw))
				return util_usage("--%s wants a number above 0 (got '%s')",
				                  ch == 'F' ? "flops" : "mem-bw", optarg);
			break;
		case 'S':
			cl->o.strict = 1;
			break;
		case 'r':
			if (parse_u64(optarg, &v) || (v != 4 && v != 8))
				return util_usage("--request-size must be 4 or 8 (got '%s')", optarg);
			cl->o.request_size = (unsigned)v;
			break;
		case 't':
			cl->stats = 1;
			break;
		case 'A':
			cl->account = 1;
			break;
		case 'q':
			cl->quiet = 1;
			break;
		case 'l':
			cl->list = 1;
			break;
		case UTIL_OPT_VERSION: return util_version(NULL);
		case 'h':
			usage(stdout);
			return 0;
		default:
			return util_usage_option(ch, argv);
		}
	}
	cl->args = argv + optind;
	cl->nargs = argc - optind;
	return -1;
}

/* --list, the traces' presence, the gamma of --params and the warnings:
 * -1 to go on, or the exit status (after the message or the list). */
static int cli_check(struct cli *cl)
{
	char err[1024];
	if (cl->list) {
		list_patterns(&cl->o);
		return 0;
	}
	if (cl->nargs <= 0)
		return util_usage("no trace files");
	if (cl->params) {
		num_dec g;
		if (loggp_params_read_gamma(cl->params, &g, err))
			return util_error_msg(err);
		if (!cl->have_gamma)
			cl->o.gamma = g;
	}
	if (!cl->quiet)
		cl->o.warn = print_warning;
	return -1;
}

/* The ops by kind and the collectives by pattern, as --stats prints them
 * for either kind of trace. */
static void print_ops(FILE *f, uint64_t ops, uint64_t sends, uint64_t recvs, uint64_t calcs,
                      uint64_t collectives, const uint64_t *by_pattern, size_t npatterns)
{
	fprintf(f, "ops            %" PRIu64 "\n", ops);
	fprintf(f, "  send         %" PRIu64 "\n", sends);
	fprintf(f, "  recv         %" PRIu64 "\n", recvs);
	fprintf(f, "  calc         %" PRIu64 "\n", calcs);
	fprintf(f, "collectives    %" PRIu64 "\n", collectives);
	for (size_t i = 0; i < npatterns; i++)
		if (by_pattern[i])
			fprintf(f, "  %-28s %" PRIu64 "\n", sg_pattern(i)->name, by_pattern[i]);
}

/* --stats: the figures of the conversion on f. */
static void print_stats(FILE *f, const struct t2g_stats *st)
{
	fprintf(f, "ranks          %" PRIu64 "\n", st->ranks);
	print_ops(f, st->ops, st->sends, st->recvs, st->calcs, st->collectives, st->by_pattern,
	          st->npatterns);
	fprintf(f, "skipped calls  %" PRIu64 "\n", st->skipped);
	for (size_t i = 0; i < st->nskip; i++)
		fprintf(f, "  %-12s %" PRIu64 "\n", st->skip[i].name, st->skip[i].n);
	fprintf(f, "calc time      %" PRIu64 " ns\n", st->calc_ns);
	fprintf(f, "traced time    %" PRIu64 " ns\n", st->traced_ns);
	if (st->request_size)
		fprintf(f, "request size   %u bytes\n", st->request_size);
}

/* Converts the traces of run s (read through src) into the output, with
 * the figures of --stats.  Returns 0 or 1 (message printed). */
static int convert(const struct cli *cl, const struct tr_source *s, const struct t2g_source *src)
{
	const struct t2g_options *o = &cl->o;
	struct t2g_stats st;
	char err[1024], comment[128];
	size_t n = src->nranks, nfiles;
	const char *const *files = tr_source_files(s, &nfiles);
	sg_out *out;
	int rc = 0;
	memset(&st, 0, sizeof st);
	if (o->extrapolate > 1)
		snprintf(comment, sizeof comment, "trace2goal: %zu traced ranks, extrapolated x%" PRIu32,
		         n, o->extrapolate);
	else
		snprintf(comment, sizeof comment, "trace2goal: %zu traced ranks", n);
	if (util_out_check(cl->out_path, files, nfiles, err, sizeof err)) {
		rc = util_error_msg(err);
	} else if (!(out = sg_out_open(cl->out_path, sg_format_of_path(cl->out_path),
	                               (uint64_t)n * o->extrapolate, comment,
	                               err, sizeof err))) {
		rc = util_error_msg(err);
	} else if (t2g_convert_source(src, o, out, &st, err, sizeof err)) {
		rc = util_error_msg(err);
		sg_out_abort(out);
	} else if (sg_out_close(out, err, sizeof err)) {
		rc = util_error_msg(err);
	} else {
		/* Beside the schedule: on stdout, as goalc --stats; on stderr
		 * when the schedule itself goes to stdout. */
		FILE *f = strcmp(cl->out_path, "-") == 0 ? stderr : stdout;
		struct tr_options to = { o->request_size };
		struct t2g_account *a = NULL;
		if (cl->stats)
			print_stats(f, &st);
		if (cl->account && !(a = t2g_account_run(src, &to, err, sizeof err)))
			rc = util_error_msg(err);
		else if (a)
			t2g_account_print(f, a);
		t2g_account_free(a);
	}
	t2g_stats_free(&st);
	return rc;
}

/* --stats of a Chakra conversion on f. */
static void print_chakra_stats(FILE *f, const struct t2g_chakra_stats *st)
{
	fprintf(f, "ranks          %" PRIu64 "\n", st->ranks);
	fprintf(f, "nodes          %" PRIu64 "\n", st->nodes);
	for (int k = 0; k <= CK_NTYPES; k++)
		if (st->types[k])
			fprintf(f, "  %-16s %" PRIu64 "\n", k < CK_NTYPES ? ck_type_name[k] : "beyond 0.0.4",
			        st->types[k]);
	print_ops(f, st->ops, st->sends, st->recvs, st->calcs, st->collectives, st->by_pattern,
	          st->npatterns);
	fprintf(f, "unused attributes %zu\n", st->nunused);
	for (size_t i = 0; i < st->nunused; i++)
		fprintf(f, "  %-16s %" PRIu64 " nodes\n", st->unused[i].name, st->unused[i].n);
	fprintf(f, "calc time      %" PRIu64 " ns\n", st->calc_ns);
}

/* -1 when n traced ranks extrapolated K times fit a schedule, else the
 * exit status after the message. */
static int too_many_ranks(size_t n, uint32_t K)
{
	if ((uint64_t)n * K <= GOAL_MAX_RANKS)
		return -1;
	return util_usage("%zu ranks times %" PRIu32 " is too many ranks", n, K);
}

/* trace2goal of the Chakra trace at path (a folder or one rank's file).
 * Returns the exit status. */
static int convert_chakra(const struct cli *cl, const char *path)
{
	char err[1200];
	char **files;
	size_t n;
	int rc = 0;
	uint64_t K = cl->o.extrapolate;
	if (cl->account)
		return util_usage("--account reads MPI traces, not Chakra's");
	if (cl->o.nkeep_group && K < 2)
		return util_usage("--keep-group is for --extrapolate K of 2 or more");
	if (ck_files(path, &files, &n, err, sizeof err))
		return util_error_msg(err);
	int too = too_many_ranks(n, cl->o.extrapolate);
	if (too >= 0) {
		ck_files_free(files, n);
		return too;
	}
	struct t2g_chakra_stats st;
	char comment[128];
	sg_out *out = NULL;
	memset(&st, 0, sizeof st);
	if (K > 1)
		snprintf(comment, sizeof comment, "trace2goal: %zu ranks of a Chakra trace, extrapolated"
		         " x%" PRIu64, n, K);
	else
		snprintf(comment, sizeof comment, "trace2goal: %zu ranks of a Chakra trace", n);
	if (util_out_check(cl->out_path, (const char *const *)files, n, err, sizeof err))
		rc = util_error_msg(err);
	else if (!(out = sg_out_open(cl->out_path, sg_format_of_path(cl->out_path), n * K, comment,
	                             err, sizeof err)))
		rc = util_error_msg(err);
	else if (t2g_chakra(files, n, &cl->o, out, &st, err, sizeof err)) {
		rc = util_error_msg(err);
		sg_out_abort(out);
	} else if (sg_out_close(out, err, sizeof err)) {
		rc = util_error_msg(err);
	} else if (cl->stats) {
		print_chakra_stats(strcmp(cl->out_path, "-") == 0 ? stderr : stdout, &st);
	}
	t2g_chakra_stats_free(&st);
	ck_files_free(files, n);
	return rc;
}

/* The trace source of a run (ctx: the struct tr_source). */
static int read_source(void *ctx, size_t r, const struct tr_options *to, struct tr_trace *t,
                       const char **path, char *err, size_t errlen)
{
	return tr_source_read(ctx, r, to, t, path, err, errlen);
}

int main(int argc, char **argv)
{
	struct cli cl;
	char err[1200];
	int rc, usage;
	util_set_prog("trace2goal");
	if ((rc = cli_parse(&cl, argc, argv)) >= 0 || (rc = cli_check(&cl)) >= 0)
		return rc;
	for (int i = 0; i < cl.nargs; i++)
		if (ck_is_trace(cl.args[i]))
			return cl.nargs == 1 ? convert_chakra(&cl, cl.args[0])
			                     : util_usage("a Chakra trace is one argument: its folder, or"
			                                  " one rank's file");
	if (cl.o.nkeep_group)
		return util_usage("--keep-group names a Chakra trace's process group; MPI traces have"
		                  " none");
	struct tr_options to = { cl.o.request_size };
	struct tr_source *s = tr_source_open((const char *const *)cl.args, (size_t)cl.nargs, &to,
	                                     &usage, err, sizeof err);
	if (!s)
		return usage ? util_usage("%s", err) : util_error_msg(err);
	struct t2g_source src = { tr_source_ranks(s), read_source, s };
	if ((rc = too_many_ranks(src.nranks, cl.o.extrapolate)) < 0)
		rc = convert(&cl, s, &src);
	tr_source_close(s);
	return rc;
}
