/* schedgen.c: the schedgen command line: generate the GOAL schedule of a
 * collective algorithm or communication pattern, as text or binary. */
#include "die.h"
#include "loggp_params.h"
#include "num.h"
#include "out.h"
#include "progress.h"
#include "sg_out.h"
#include "sg_pattern.h"
#include "sg_select.h"
#include "version.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static void usage(FILE *f)
{
	fprintf(f,
"usage: schedgen PATTERN [options]\n"
"       schedgen CLASS --select LIB[:N] [options]\n"
"Writes the GOAL schedule of a collective algorithm or communication pattern.\n"
"\n"
"  -p, --pattern NAME     the pattern, if not given as the first argument;\n"
"                         --list shows them all, with the old schedgen names\n"
"  -s, --ranks N          number of ranks P (default 8; -P N is the same)\n"
"  -d, --size BYTES       message size (default 1; per pattern, see docs/patterns.md)\n"
"                         (sizes take units: 64Ki = 65536, 1M = 10^6; times: 2.5us)\n"
"      --root R           root rank of rooted patterns (default 0)\n"
"      --segment BYTES    segment size of pipelined patterns (default: unsegmented)\n"
"      --nway N           messages per round of barrier_nway (default 1)\n"
"      --fanin N          fan-in of barrier_tree (default 2)\n"
"      --fanout N         chains of bcast_chain_ompi, reduce_chain (1..32, default 4)\n"
"      --radix K          radix of bcast_knomial (2..256, default 4)\n"
"      --channels C       channels of NCCL's patterns (*_nccl; 1..64, default 1)\n"
"      --protocol P       protocol of NCCL's patterns: simple (default), ll, ll128\n"
"      --ranks-per-node K nodes of K ranks (rank r on node r / K) of NCCL's\n"
"                         patterns and of *_han (default 1)\n"
"      --iterations N     run the collective N times back to back (default 1)\n"
"      --rotate-root      iteration i uses root (R + i) mod P\n"
"      --sync             a dissemination barrier (0-byte messages) between iterations\n"
"      --nb T             nonblocking: T ns of computation overlap each run\n"
"      --nb-poll T        cut that computation in pieces of T ns\n"
"      --cpu C            cpu of that computation (default 0)\n"
"      --gamma NS         ns per byte of a local reduction: every reducing step of a\n"
"                         reducing pattern costs a calc of NS x its bytes (default 0)\n"
"      --params FILE      take gamma from a parameter file's 'gamma' line\n"
"                         (docs/loggp.md); --gamma wins\n"
"      --stride D         every message is strided: blocks D bytes apart\n"
"      --block B          bytes per block of a strided message (default 8)\n"
"  -o, --output FILE      output (default schedule.goal; - for standard output);\n"
"                         FILE.bin is written in the binary format, else GOAL text\n"
"      --format text|binary  force the output format\n"
"      --select LIB[:N]   the algorithm library LIB (openmpi: Open MPI 4.1,\n"
"                         mpich: MPICH 4.0.2) runs for the collective CLASS\n"
"                         (allreduce, bcast, reduce, allgather, alltoall,\n"
"                         barrier, gather, scatter, reduce_scatter_block,\n"
"                         reduce_scatter, scan, exscan, alltoallv, allgatherv;\n"
"                         mpich: the first five and the reduce-scatters; -d is\n"
"                         one rank's block of the v-variants, all equal) on\n"
"                         these ranks and bytes; :N forces Open MPI's algorithm\n"
"                         N, :NAME a library's by its name\n"
"                         (openmpi:rabenseifner, mpich:ring); nccl: the\n"
"                         algorithm, --protocol and --channels NCCL's tuning\n"
"                         model picks (bcast, reduce, allgather, reduce_scatter,\n"
"                         allreduce; with --ranks-per-node)\n"
"      --nccl-system SPEC the GPUs and links of --select nccl, e.g.\n"
"                         channels=8,bwintra=40,bwinter=24,sm=80 (the default;\n"
"                         docs/patterns.md, \"NCCL's choice\")\n");
	fprintf(f,
"      --noncommutative   the reduction does not commute: --select follows the\n"
"                         library's rules and fallbacks for that\n"
"      --explain          say what --select picked and why (stdout; stderr\n"
"                         when the schedule goes to stdout)\n"
"      --list             list the patterns\n"
"  -h, --help             this help\n"
"      --version          the version and the commit it was built from\n"
"\n"
"The options of the published schedgen are accepted too: --ptrn, --commsize,\n"
"--datasize, --filename, --segmentsize, --timemult (ignored).\n"
"Example: schedgen bcast_binomial -s 1048576 -d 8 -o bcast.bin\n"
"         schedgen allreduce --select openmpi -s 64 -d 1Mi --explain -o ar.bin\n"
"Exit status: 0 done, 1 failed output, 2 bad options.\n");
}

/* What an option's value is: a count, a size in bytes (units: "64Ki"), or
 * a time in ns (units: "2.5us"). */
enum num_kind { COUNT, BYTES, NS };

/* A non-negative value of kind k, or a usage error naming the option. */
static uint64_t num_of(const char *opt, const char *s, enum num_kind k)
{
	static const char *const what[] = { "a number", "a size in bytes (e.g. 1024 or 64Ki)",
	                                    "a time in whole ns (e.g. 2500 or 2.5us)" };
	uint64_t v;
	num_err e;
	if (*s == '-' && s[1] >= '0' && s[1] <= '9')
		util_die_usage("%s must not be negative (got %s)", opt, s);
	e = k == BYTES ? num_size_parse(s, strlen(s), &v)
	    : k == NS ? num_ns_parse(s, strlen(s), &v) : num_u64_parse(s, strlen(s), &v);
	switch (e) {
	case NUM_OK: return v;
	case NUM_BIG: util_die_usage("%s: %s is too large", opt, s);
	default: util_die_usage("%s expects %s, not '%s'", opt, what[k], s);
	}
}

static uint64_t num(const char *opt, const char *s)
{
	return num_of(opt, s, COUNT);
}

static void list(void)
{
	for (size_t i = 0; i < sg_npatterns(); i++) {
		const sg_pattern_info *pi = sg_pattern(i);
		printf("%-24s %s\n", pi->name, pi->summary);
		if (pi->aliases[0])
			printf("%-24s (also: %s)\n", "", pi->aliases);
	}
}

/* "DONE of P ranks", on a terminal only. */
typedef struct progress_state {
	uint64_t total;
	util_progress pg;
} progress_state;

static void progress(void *ctx, uint64_t done)
{
	progress_state *ps = ctx;
	if (util_progress_due(&ps->pg))
		util_progress_line(&ps->pg, "%" PRIu64 " of %" PRIu64 " ranks", done, ps->total);
}

enum {
	OPT_ROOT = 256, OPT_SEGMENT, OPT_NWAY, OPT_FANIN, OPT_ITER, OPT_ROTATE,
	OPT_SYNC, OPT_NB, OPT_NBPOLL, OPT_CPU, OPT_FORMAT, OPT_LIST, OPT_TIMEMULT,
	OPT_STRIDE, OPT_BLOCK, OPT_FANOUT, OPT_RADIX, OPT_SELECT, OPT_EXPLAIN, OPT_GAMMA, OPT_PARAMS, OPT_NONCOMM, OPT_CHANNELS, OPT_PROTOCOL, OPT_PPN, OPT_NSYS
};

static const struct option opts[] = {
	{ "pattern", required_argument, NULL, 'p' },
	{ "ptrn", required_argument, NULL, 'p' },
	{ "ranks", required_argument, NULL, 's' },
	{ "commsize", required_argument, NULL, 's' },
	{ "size", required_argument, NULL, 'd' },
	{ "datasize", required_argument, NULL, 'd' },
	{ "output", required_argument, NULL, 'o' },
	{ "filename", required_argument, NULL, 'o' },
	{ "root", required_argument, NULL, OPT_ROOT },
	{ "segment", required_argument, NULL, OPT_SEGMENT },
	{ "segmentsize", required_argument, NULL, OPT_SEGMENT },
	{ "nway", required_argument, NULL, OPT_NWAY },
	{ "fanin", required_argument, NULL, OPT_FANIN },
	{ "fanout", required_argument, NULL, OPT_FANOUT },
	{ "radix", required_argument, NULL, OPT_RADIX },
	{ "iterations", required_argument, NULL, OPT_ITER },
	{ "rotate-root", no_argument, NULL, OPT_ROTATE },
	{ "sync", no_argument, NULL, OPT_SYNC },
	{ "nb", required_argument, NULL, OPT_NB },
	{ "nb-poll", required_argument, NULL, OPT_NBPOLL },
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "stride", required_argument, NULL, OPT_STRIDE },
	{ "block", required_argument, NULL, OPT_BLOCK },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "list", no_argument, NULL, OPT_LIST },
	{ "select", required_argument, NULL, OPT_SELECT },
	{ "explain", no_argument, NULL, OPT_EXPLAIN },
	{ "gamma", required_argument, NULL, OPT_GAMMA },
	{ "params", required_argument, NULL, OPT_PARAMS },
	{ "noncommutative", no_argument, NULL, OPT_NONCOMM },
	{ "channels", required_argument, NULL, OPT_CHANNELS },
	{ "protocol", required_argument, NULL, OPT_PROTOCOL },
	{ "ranks-per-node", required_argument, NULL, OPT_PPN },
	{ "nccl-system", required_argument, NULL, OPT_NSYS },
	{ "timemult", required_argument, NULL, OPT_TIMEMULT },
	{ "version", no_argument, NULL, UTIL_OPT_VERSION },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/* Everything the command line sets: the pattern and its parameters, the
 * output, and --select's library with its choice (pattern is then the
 * chosen pattern, cls the collective asked for). */
struct cli {
	sg_params p;
	const char *pattern, *out, *select, *cls, *params, *nsys;
	int format, idx, have_block, have_fanout, explain, have_gamma, have_channels, have_protocol;
	sg_choice pick;
	char lib[32];
};

/* --stride or --block (option c) with value arg into p. */
static void stride_opt(sg_params *p, int c, const char *arg)
{
	const char *name = c == OPT_STRIDE ? "--stride" : "--block";
	uint64_t v = num_of(name, arg, BYTES);
	if (v < 1 || v > GOAL_MAX_STRIDE)
		util_die_usage("%s must be 1..%u bytes (got %" PRIu64 ")", name, GOAL_MAX_STRIDE, v);
	if (c == OPT_STRIDE)
		p->stride = (uint32_t)v;
	else
		p->block = (uint32_t)v;
}

/* Read the command line into cl: -1 to go on, or the exit status (after
 * the list, the help or the version); a bad option ends the program. */
static int cli_parse(struct cli *cl, int argc, char **argv)
{
	sg_params *p = &cl->p;
	char err[512];
	int c;
	memset(cl, 0, sizeof *cl);
	cl->out = "schedule.goal";
	cl->format = -1;
	sg_params_default(p);
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":p:s:P:d:o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'p': cl->pattern = optarg; break;
		case 's':
		case 'P':
			if (optarg[0] == '-' && optarg[1] >= '0' && optarg[1] <= '9')
				util_die_usage("the number of ranks must be at least 1 (got %s)", optarg);
			p->nranks = num("--ranks", optarg);
			break;
		case 'd': p->size = num_of("--size", optarg, BYTES); break;
		case 'o': cl->out = optarg; break;
		case OPT_ROOT:
			if (optarg[0] == '-' && optarg[1] >= '0' && optarg[1] <= '9')
				util_die_usage("the root %s is not a rank", optarg);
			p->root = num("--root", optarg);
			break;
		case OPT_SEGMENT:
			p->segment = num_of("--segment", optarg, BYTES);
			if (p->segment == 0)
				util_die_usage("the segment size must be at least 1 byte (got 0)");
			break;
		case OPT_NWAY: p->nway = num("--nway", optarg); break;
		case OPT_FANIN: p->fanin = num("--fanin", optarg); break;
		case OPT_FANOUT: p->fanout = num("--fanout", optarg); cl->have_fanout = 1; break;
		case OPT_RADIX: p->radix = num("--radix", optarg); break;
		case OPT_ITER: p->iterations = num("--iterations", optarg); break;
		case OPT_ROTATE: p->rotate_root = 1; break;
		case OPT_SYNC: p->sync = 1; break;
		case OPT_NB: p->nb = 1; p->nb_time = num_of("--nb", optarg, NS); break;
		case OPT_NBPOLL: p->nb_poll = num_of("--nb-poll", optarg, NS); break;
		case OPT_CPU: {
			uint64_t v = num("--cpu", optarg);
			if (v > GOAL_MAX_INDEX)
				util_die_usage("--cpu must be 0..%u (got %" PRIu64 ")", GOAL_MAX_INDEX, v);
			p->cpu = (uint16_t)v;
			break;
		}
		case OPT_STRIDE:
		case OPT_BLOCK:
			stride_opt(p, c, optarg);
			cl->have_block |= c == OPT_BLOCK;
			break;
		case OPT_FORMAT:
			if (strcmp(optarg, "text") == 0)
				cl->format = SG_TEXT;
			else if (strcmp(optarg, "binary") == 0 || strcmp(optarg, "bin") == 0)
				cl->format = SG_BINARY;
			else
				util_die_usage("--format is text or binary, not '%s'", optarg);
			break;
		case OPT_NSYS: cl->nsys = optarg; break;
		case OPT_CHANNELS:
			cl->have_channels = 1;
			p->channels = num("--channels", optarg);
			if (p->channels < 1 || p->channels > SG_MAX_CHANNELS)
				util_die_usage("--channels must be 1..%d (got %" PRIu64 ")", SG_MAX_CHANNELS,
				               p->channels);
			break;
		case OPT_PROTOCOL: {
			int k = 0;
			cl->have_protocol = 1;
			while (k < SG_NPROTOCOLS && strcasecmp(optarg, sg_protocol_name[k]) != 0)
				k++;
			if (k == SG_NPROTOCOLS)
				util_die_usage("--protocol is simple, ll or ll128, not '%s'", optarg);
			p->protocol = (sg_protocol)k;
			break;
		}
		case OPT_PPN:
			p->ranks_per_node = num("--ranks-per-node", optarg);
			if (p->ranks_per_node < 1 || p->ranks_per_node > UINT32_MAX)
				util_die_usage("--ranks-per-node must be 1..%" PRIu32 " (got %" PRIu64 ")",
				               UINT32_MAX, p->ranks_per_node);
			break;
		case OPT_SELECT: cl->select = optarg; break;
		case OPT_EXPLAIN: cl->explain = 1; break;
		case OPT_GAMMA: {
			num_err e = num_dec_parse(optarg, strlen(optarg), NUM_FRAC_MAX, &p->gamma);
			if (e)
				util_die_usage("--gamma expects ns per byte (e.g. 0.25), not '%s': %s", optarg,
				               num_err_str(e));
			cl->have_gamma = 1;
			break;
		}
		case OPT_PARAMS: cl->params = optarg; break;
		case OPT_NONCOMM: p->noncommutative = 1; break;
		case OPT_LIST:
			list();
			return util_stdout_close(err, sizeof err) ? util_error_msg(err) : 0;
		case OPT_TIMEMULT: (void)num("--timemult", optarg); break;
		case UTIL_OPT_VERSION: return util_version(NULL);
		case 'h': usage(stdout); return 0;
		default: exit(util_usage_option(c, argv));  /* ':' or '?' */
		}
	}
	if (optind < argc && !cl->pattern)
		cl->pattern = argv[optind++];
	if (optind < argc)
		util_die_usage("unexpected argument '%s'", argv[optind]);
	return -1;
}

/* The pattern's presence, --explain's --select and the gamma of --params:
 * -1 to go on, or the exit status after the message; a bad option ends
 * the program. */
static int cli_check(struct cli *cl)
{
	char err[512];
	if (!cl->pattern)
		util_die_usage(cl->select ? "no collective given (one of: %s)"
		                          : "no pattern given (schedgen --list shows them)",
		               sg_select_classes);
	if (cl->explain && !cl->select)
		util_die_usage("--explain needs --select");
	if (cl->nsys && (!cl->select || strncmp(cl->select, "nccl", 4) != 0))
		util_die_usage("--nccl-system needs --select nccl");
	if (cl->params) {
		num_dec g;
		if (loggp_params_read_gamma(cl->params, &g, err))
			return util_error_msg(err);
		if (!cl->have_gamma)
			cl->p.gamma = g;
	}
	return -1;
}

/* --select LIB[:ALG]: the library's pattern for the collective asked for
 * replaces it in cl, with its fan-out unless --fanout gives one. */
static void select_pattern(struct cli *cl)
{
	const char *select = cl->select;
	sg_params *p = &cl->p;
	char err[512];
	unsigned alg = 0;
	int bad;
	size_t n = strcspn(select, ":");
	if (n >= sizeof cl->lib)
		util_die_usage("--select: unknown library '%s' (known: openmpi mpich nccl)", select);
	memcpy(cl->lib, select, n);
	cl->lib[n] = 0;
	if (strcmp(cl->lib, "nccl") == 0) {
		sg_nccl_system sys;
		sg_nccl_system_default(&sys);
		if (select[n])
			util_die_usage("--select nccl takes no algorithm (give the pattern itself)");
		if (cl->nsys && sg_nccl_system_parse(cl->nsys, &sys, err, sizeof err))
			util_die_usage("%s", err);
		bad = sg_select_nccl(&sys, cl->pattern, p->nranks, p->ranks_per_node, p->size,
		                     cl->explain ? SG_SELECT_EXPLAIN : 0, &cl->pick, err, sizeof err);
	} else {
		if (strcmp(cl->lib, "mpich") != 0 && select[n] && select[n + 1] >= '0' &&
		    select[n + 1] <= '9' && strlen(select + n + 1) < 6) {   /* MPICH names them only */
			uint64_t v = num("--select", select + n + 1);
			if (v < 1)
				util_die_usage("--select %s: the algorithm number must be 1 or more", select);
			alg = (unsigned)v;
		} else if (select[n] && sg_select_alg(cl->lib, cl->pattern, select + n + 1, &alg, err,
		                                      sizeof err)) {
			util_die_usage("--select: %s", err);
		}
		bad = sg_select(cl->lib, cl->pattern, p->nranks, p->size, alg,
		                (cl->explain ? SG_SELECT_EXPLAIN : 0) |
		                (p->noncommutative ? SG_SELECT_NONCOMMUTATIVE : 0), &cl->pick, err,
		                sizeof err);
	}
	if (bad)
		util_die_usage("--select: %s", err);
	cl->cls = cl->pattern;
	cl->pattern = cl->pick.pattern;
	sg_choice_apply(&cl->pick, p, (cl->have_fanout ? SG_GIVEN_FANOUT : 0) |
	                (cl->have_protocol ? SG_GIVEN_PROTOCOL : 0) |
	                (cl->have_channels ? SG_GIVEN_CHANNELS : 0));
}

/* The pattern's number in cl->idx, its parameters checked, and the output
 * format; a bad option ends the program. */
static void pattern_check(struct cli *cl)
{
	const sg_params *p = &cl->p;
	char err[512];
	cl->idx = sg_pattern_find(cl->pattern);
	if (cl->idx < 0) {
		static const char *const old_only[] = {
			"random_bisect", "random_bisect_fd_sym", "linear_alltoallv", "trace",
			"resnet", "chained_dissem"
		};
		for (size_t k = 0; k < sizeof old_only / sizeof old_only[0]; k++)
			if (strcmp(cl->pattern, old_only[k]) == 0)
				util_die_usage("the published schedgen's pattern '%s' is not supported here "
				    "(schedgen --list shows the patterns)", cl->pattern);
		util_die_usage("unknown pattern '%s' (schedgen --list shows them)", cl->pattern);
	}
	if (cl->have_block && !p->stride)
		util_die_usage("--block needs --stride");
	if (p->stride && p->block > p->stride)
		util_die_usage("--stride %" PRIu32 " is smaller than the block size %" PRIu32,
		               p->stride, p->block);
	if (sg_params_check((size_t)cl->idx, p, err, sizeof err))
		util_die_usage("%s", err);
	if (cl->format < 0)
		cl->format = (int)sg_format_of_path(cl->out);
}

/* The schedule's comment: the pattern, its ranks and bytes, --select's
 * choice and the parameters the pattern uses. */
static void make_comment(const struct cli *cl, char *comment, size_t len)
{
	const sg_params *p = &cl->p;
	unsigned uses = sg_pattern((size_t)cl->idx)->uses;
	size_t n = (size_t)snprintf(comment, len, "schedgen %s: %" PRIu64
	                            " ranks, %" PRIu64 " bytes", sg_pattern((size_t)cl->idx)->name,
	                            p->nranks, p->size);
#define APPEND(...) do { if (n < len) \
		n += (size_t)snprintf(comment + n, len - n, __VA_ARGS__); } while (0)
	if (cl->select && strcmp(cl->lib, "openmpi") != 0)   /* MPICH, NCCL name them only */
		APPEND(" (%s's %s %s)", cl->lib, cl->cls, cl->pick.name);
	else if (cl->select)
		APPEND(" (%s's %s algorithm %u)", cl->lib, cl->cls, cl->pick.alg);
	if (uses & SG_USES_ROOT)
		APPEND(", root %" PRIu64, p->root);
	if ((uses & SG_USES_SEGMENT) && p->segment)
		APPEND(", segment %" PRIu64, p->segment);
	if (uses & SG_USES_NWAY)
		APPEND(", nway %" PRIu64, p->nway);
	if (uses & SG_USES_FANIN)
		APPEND(", fanin %" PRIu64, p->fanin);
	if (uses & SG_USES_FANOUT)
		APPEND(", fanout %" PRIu64, p->fanout);
	if (uses & SG_USES_RADIX)
		APPEND(", radix %" PRIu64, p->radix);
	if (uses & SG_USES_NCCL)
		APPEND(", %" PRIu64 " channel%s, %s", p->channels ? p->channels : 1,
		       p->channels > 1 ? "s" : "", sg_protocol_name[p->protocol]);
	if ((uses & SG_USES_NODES) && p->ranks_per_node > 1)
		APPEND(", %" PRIu64 " ranks a node", p->ranks_per_node);
	if (p->iterations > 1)
		APPEND(", %" PRIu64 " iterations%s%s", p->iterations,
		       p->rotate_root ? ", rotate-root" : "", p->sync ? ", sync" : "");
	if (p->nb)
		APPEND(", nb %" PRIu64 " ns (poll %" PRIu64 ", cpu %u)", p->nb_time,
		       p->nb_poll, (unsigned)p->cpu);
	if (p->gamma.num && (uses & SG_REDUCES)) {
		char g[NUM_DEC_TEXT];
		num_dec_format(p->gamma, g, sizeof g);
		APPEND(", gamma %s ns/B", g);
	}
	if (p->stride)
		APPEND(", stride %" PRIu32 " (blocks of %" PRIu32 ")", p->stride, p->block);
#undef APPEND
}

/* --explain: what --select chose and why, beside the schedule. */
static void explain(const struct cli *cl)
{
	char alg[32] = "";
	if (strcmp(cl->lib, "openmpi") == 0)
		snprintf(alg, sizeof alg, "algorithm %u (", cl->pick.alg);
	fprintf(strcmp(cl->out, "-") ? stdout : stderr, "%s on %" PRIu64 " ranks, %" PRIu64 " bytes: "
	        "%s, %s %s%s%s.\n  %s.\n", cl->cls, cl->p.nranks, cl->p.size, cl->pick.pattern,
	        cl->lib, alg, cl->pick.name, *alg ? ")" : "", cl->pick.why);
}

/* Writes the schedule, with progress on a terminal.  Returns the exit
 * status (after the message). */
static int generate(const struct cli *cl, const char *comment)
{
	char err[512];
	progress_state ps;
	sg_out *o = sg_out_open(cl->out, (sg_format)cl->format, cl->p.nranks, comment, err, sizeof err);
	if (!o)
		return util_error_msg(err);
	ps.total = cl->p.nranks;
	util_progress_start(&ps.pg, !isatty(2), 0);
	if (sg_generate((size_t)cl->idx, &cl->p, o, progress, &ps, err, sizeof err)) {
		util_progress_end(&ps.pg);
		sg_out_abort(o);
		return util_error_msg(err);
	}
	util_progress_end(&ps.pg);
	return sg_out_close(o, err, sizeof err) ? util_error_msg(err) : 0;
}

int main(int argc, char **argv)
{
	static struct cli cl;
	char comment[512];
	int st;
	util_set_prog("schedgen");
	if ((st = cli_parse(&cl, argc, argv)) >= 0 || (st = cli_check(&cl)) >= 0)
		return st;
	if (cl.select)
		select_pattern(&cl);
	pattern_check(&cl);
	make_comment(&cl, comment, sizeof comment);
	if (cl.explain)
		explain(&cl);
	return generate(&cl, comment);
}
