/* trace2goal.c: command line of the MPI trace to GOAL schedule converter. */
#include "trace2goal_conv.h"
#include "trace_dumpi.h"
#include "trace_otf2.h"
#include "die.h"
#include "loggp_params.h"
#include "num.h"
#include "out.h"
#include "util.h"

#include "sg_pattern.h"
#include "sg_select.h"
#include "version.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The --help text. */
static void usage(FILE *f)
{
	fprintf(f,
	        "usage: trace2goal [options] TRACE...\n"
	        "       trace2goal [options] RUN.meta | ARCHIVE.otf2 | FOLDER\n"
	        "\n"
	        "Convert the per-rank traces of an MPI run (goaltrace or liballprof text,\n"
	        "docs/traces.md; SST-DUMPI binary; OTF2) into a GOAL schedule for loggopsim\n"
	        "(docs/trace2goal.md).  TRACE: one text file per rank, a folder (its *.txt\n"
	        "and numbered *.dat files), or the file of rank 0 alone (the other ranks'\n"
	        "files are found next to it, the rank number in the name replaced, for the\n"
	        "world size of the trace).  A file's rank is its '# rank:' line, else the\n"
	        "number before '.txt' or '.dat' in its name.\n"
	        "RUN.meta: a DUMPI trace (the .meta file names the rank files\n"
	        "PREFIX-NNNN.bin beside it).  ARCHIVE.otf2: the anchor file of an OTF2\n"
	        "archive (Score-P's traces.otf2), its MPI ranks.  A folder holding one\n"
	        ".meta or .otf2 file is read as that file.\n%s"
	        "\n"
	        "options:\n"
	        "  -o, --output FILE        write the schedule to FILE: binary if it ends in\n"
	        "                           .bin, else GOAL text (default: text on stdout)\n"
	        "  -c, --coll CLASS=PATTERN replace the collectives of CLASS by the schedgen\n"
	        "                           pattern PATTERN (repeatable; see --list)\n"
	        "      --select LIB         replace each collective (not the v-collectives) by\n"
	        "                           the algorithm LIB runs for its communicator and\n"
	        "                           bytes: openmpi (the default), mpich (where it has\n"
	        "                           rules: --list), or none (the patterns --list names)\n"
	        "      --gamma NS           ns per byte of a local reduction: each reducing\n"
	        "                           step of a collective costs a calc of NS x its\n"
	        "                           bytes (default 0)\n"
	        "      --params FILE        take gamma from a parameter file's 'gamma' line\n"
	        "                           (docs/loggp.md); --gamma wins\n"
	        "  -x, --extrapolate K      K times the traced ranks (default 1)\n"
	        "      --compute-scale X    multiply the computation times by X (default 1)\n"
	        "      --strict             an unsupported MPI call is an error (default:\n"
	        "                           a warning, and the call is skipped)\n"
	        "      --request-size N     bytes of an MPI_Request in liballprof traces, 4 or 8\n"
	        "                           (default: detected from each trace)\n"
	        "      --stats              print figures of the conversion (with the skipped\n"
	        "                           calls by function) on stdout, as goalc --stats\n"
	        "                           does (on stderr when the schedule goes there)\n"
	        "  -q, --quiet              no warnings\n"
	        "  -l, --list               list the collective classes and the patterns\n"
	        "  -h, --help               this help\n"
	        "      --version            the version and the commit it was built from\n"
	        "\n"
	        "Example: trace2goal --strict --stats traces/ -o app.bin\n"
	        "Exit status: 0 done, 1 bad trace (FILE:LINE:COL: error: ... or FILE: error:\n"
	        "...), 2 bad options.\n",
	        tr_otf2_supported() ? "" : "This build reads no OTF2: it has no OTF2 library.\n");
}

/* --list: the classes with their patterns, then every pattern. */
static void list_patterns(const struct t2g_options *o)
{
	printf("collective classes and their patterns (--coll CLASS=PATTERN):\n");
	for (int c = 0; c < T2G_NCOLL; c++) {
		sg_choice ch;
		char err[160];
		int lib = o->select && !(o->pinned & (1u << c)) &&
		          sg_select(o->select, t2g_coll_name(c), 2, 1, 0, 0, &ch, err, sizeof err) == 0;
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

/* A list of trace files with their ranks. */
struct file {
	char *path;
	long rank;
};
struct files {
	struct file *v;
	size_t n, cap;
};

/* Appends path (copied), rank unknown.  Returns 0 or -1 (out of memory). */
static int files_add(struct files *fs, const char *path)
{
	if (util_grow(&fs->v, &fs->cap, fs->n + 1, sizeof *fs->v))
		return -1;
	fs->v[fs->n].path = strdup(path);
	fs->v[fs->n].rank = -1;
	if (!fs->v[fs->n].path)
		return -1;
	fs->n++;
	return 0;
}

/* files_add as a callback (tr_otf2_members). */
static int files_add_cb(void *ctx, const char *path)
{
	return files_add(ctx, path);
}

/* qsort order of file names. */
static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Adds the trace files (t2g_trace_name) of folder dir, in name order.  Returns 0 or 1
 * (message printed). */
static int add_dir(struct files *fs, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;
	if (!d) {
		fprintf(stderr, "%s: error: cannot open: %s\n", dir, strerror(errno));
		return 1;
	}
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (!t2g_trace_name(e->d_name))
			continue;
		if (util_grow(&names, &cap, n + 1, sizeof *names)) {
			rc = util_error("out of memory");
			break;
		}
		size_t dl = strlen(dir), pl = dl + len + 2;
		while (dl > 1 && dir[dl - 1] == '/')
			dl--;
		names[n] = malloc(pl);
		if (!names[n]) {
			rc = util_error("out of memory");
			break;
		}
		snprintf(names[n], pl, "%.*s/%s", (int)dl, dir, e->d_name);
		n++;
	}
	closedir(d);
	if (!rc && n == 0) {
		fprintf(stderr, "%s: error: no *.txt or *.dat trace files in this folder\n", dir);
		rc = 1;
	}
	if (!rc)
		qsort(names, n, sizeof *names, cmp_name);
	for (size_t i = 0; i < n; i++) {
		if (!rc && files_add(fs, names[i]))
			rc = util_error("out of memory");
		free(names[i]);
	}
	free(names);
	return rc;
}

/* The files of the other ranks when only the file of rank 0 is given
 * (liballprof's habit): the world size W from the trace, and for rank r
 * in 1..W-1 the same path with the number 0 just before the final ".txt"
 * replaced by r.  Does nothing when the file is not of rank 0 or the run
 * had one rank.  Returns 0 or 1 (message printed). */
static int add_other_ranks(struct files *fs, const struct t2g_options *o)
{
	const char *p0 = fs->v[0].path;
	char err[1200];
	long rank, W;
	unsigned line;
	size_t n = strlen(p0), e, s;
	if (t2g_file_rank(p0, &rank, err, sizeof err))
		return util_error_msg(err);
	if (rank != 0)
		return 0;
	if (t2g_world_size(p0, o, &W, &line, err, sizeof err))
		return util_error_msg(err);
	if (W <= 1)
		return 0;
	if (!t2g_name_digits(p0, &s, &e) || e - s != 1 || p0[s] != '0') {
		fprintf(stderr, "%s:%u:1: error: the trace is of a run on %ld ranks, but only this file "
		        "was given and its name has no rank number 0 before '.txt' or '.dat' to find "
		        "the others "
		        "by\n", p0, line, W);
		return 1;
	}
	for (long r = 1; r < W; r++) {
		struct stat sb;
		size_t pl = n + 24;
		char *q = malloc(pl);
		if (!q)
			return util_error("out of memory");
		snprintf(q, pl, "%.*s%ld%s", (int)s, p0, r, p0 + e);
		int st = stat(q, &sb);
		if (st != 0 || S_ISDIR(sb.st_mode)) {
			fprintf(stderr, "%s:%u:1: error: the trace is of a run on %ld ranks, but there is "
			        "no trace of rank %ld: %s: %s\n", p0, line, W, r, q,
			        st != 0 ? strerror(errno) : "is a folder");
			free(q);
			return 1;
		}
		int rc = files_add(fs, q);
		free(q);
		if (rc)
			return util_error("out of memory");
		p0 = fs->v[0].path; /* fs->v may have moved */
	}
	return 0;
}

/* qsort order of files by rank. */
static int cmp_rank(const void *a, const void *b)
{
	const struct file *x = a, *y = b;
	return (x->rank > y->rank) - (x->rank < y->rank);
}

/* Orders fs by rank: every file has a rank, ranks are 0..n-1 once each.
 * Returns 0 or 1 (message printed). */
static int order_files(struct files *fs)
{
	char err[600];
	int named = 0;
	for (size_t i = 0; i < fs->n; i++) {
		if (t2g_file_rank(fs->v[i].path, &fs->v[i].rank, err, sizeof err))
			return util_error_msg(err);
		named += fs->v[i].rank >= 0;
	}
	if (named == 0) {
		/* no rank anywhere: the order of the command line */
		for (size_t i = 0; i < fs->n; i++)
			fs->v[i].rank = (long)i;
		return 0;
	}
	for (size_t i = 0; i < fs->n; i++)
		if (fs->v[i].rank < 0) {
			snprintf(err, sizeof err, "%s: error: cannot tell the rank of this trace (no "
			         "'# rank:' line, no number before .txt or .dat)", fs->v[i].path);
			return util_error_msg(err);
		}
	qsort(fs->v, fs->n, sizeof *fs->v, cmp_rank);
	for (size_t i = 0; i < fs->n; i++) {
		if (i > 0 && fs->v[i].rank == fs->v[i - 1].rank)
			return util_error("two traces of rank %ld: %s and %s", fs->v[i].rank,
			                  fs->v[i - 1].path, fs->v[i].path);
		if (fs->v[i].rank != (long)i)
			return util_error("no trace of rank %zu among the %zu files given", i, fs->n);
	}
	return 0;
}

/* The formats a single argument can be read as. */
enum input {
	IN_TEXT,        /* text traces: files, a folder, rank 0's file */
	IN_DUMPI,       /* a DUMPI .meta file */
	IN_OTF2         /* an OTF2 anchor file */
};

/* The format of a whole run's file by its name, else IN_TEXT. */
static enum input kind_of(const char *name)
{
	return tr_dumpi_is_meta(name) ? IN_DUMPI : tr_otf2_is_anchor(name) ? IN_OTF2 : IN_TEXT;
}

/* What a whole run given as one argument is: a .meta file (DUMPI), an
 * .otf2 anchor, or a folder holding exactly one of them; *path is the file
 * to open (free it).  Returns 0 (IN_TEXT: anything else), or 1 (message
 * printed). */
static int input_kind(const char *arg, enum input *kind, char **path)
{
	struct stat sb;
	*kind = IN_TEXT;
	*path = NULL;
	if (kind_of(arg) != IN_TEXT && !(stat(arg, &sb) == 0 && S_ISDIR(sb.st_mode))) {
		*kind = kind_of(arg);
		*path = strdup(arg);
		return *path ? 0 : util_error("out of memory");
	}
	if (stat(arg, &sb) != 0 || !S_ISDIR(sb.st_mode))
		return 0;
	DIR *d = opendir(arg);
	struct dirent *e;
	size_t found = 0;
	char *first = NULL;
	if (!d)
		return 0; /* add_dir says why */
	enum input k = IN_TEXT;
	while ((e = readdir(d)))
		if (kind_of(e->d_name) != IN_TEXT && found++ == 0) {
			first = strdup(e->d_name);
			k = kind_of(e->d_name);
		}
	closedir(d);
	if (found > 1) {
		fprintf(stderr, "%s: error: %zu .meta and .otf2 files in this folder; name the one to "
		        "read\n", arg, found);
		free(first);
		return 1;
	}
	if (found == 0)
		return 0;
	if (!first)
		return util_error("out of memory");
	size_t dl = strlen(arg), pl = dl + strlen(first) + 2;
	while (dl > 1 && arg[dl - 1] == '/')
		dl--;
	*path = malloc(pl);
	if (!*path) {
		free(first);
		return util_error("out of memory");
	}
	snprintf(*path, pl, "%.*s/%s", (int)dl, arg, first);
	free(first);
	*kind = k;
	return 0;
}

/* The trace source of a DUMPI run: ctx is the struct tr_dumpi. */
static int read_dumpi(void *ctx, size_t r, const struct tr_options *to, struct tr_trace *t,
                      const char **path, char *err, size_t errlen)
{
	(void)to;
	*path = tr_dumpi_path(ctx, r);
	return tr_dumpi_read(ctx, r, t, err, errlen);
}

/* The trace source of an OTF2 archive: ctx is the struct tr_otf2. */
static int read_otf2(void *ctx, size_t r, const struct tr_options *to, struct tr_trace *t,
                     const char **path, char *err, size_t errlen)
{
	(void)to;
	*path = tr_otf2_path(ctx);
	return tr_otf2_read(ctx, r, t, err, errlen);
}

/* A whole decimal number (no sign).  Returns 0 or -1. */
static int parse_u64(const char *s, uint64_t *v)
{
	return num_u64_parse(s, strlen(s), v) == NUM_OK ? 0 : -1;
}

/* Everything the command line sets: the conversion's options, the output,
 * the extras, and the traces named (args[0..nargs)). */
struct cli {
	struct t2g_options o;
	const char *out_path;
	const char *params;
	int stats, quiet, list, have_gamma;
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
	{ "compute-scale", required_argument, NULL, 'C' },
	{ "strict", no_argument, NULL, 'S' },
	{ "request-size", required_argument, NULL, 'r' },
	{ "stats", no_argument, NULL, 't' },
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
			else if (strcmp(optarg, "openmpi") == 0 || strcmp(optarg, "mpich") == 0)
				cl->o.select = strcmp(optarg, "mpich") ? "openmpi" : "mpich";
			else
				return util_usage("--select is openmpi, mpich or none (got '%s')", optarg);
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
		case 's':
			return util_usage("-s is not an option of trace2goal (in schedgen and loggops-model "
			                  "it gives the ranks): the computation's scale is --compute-scale X");
		case 'C': {
			char *end;
			errno = 0;
			cl->o.compute_scale = strtod(optarg, &end);
			if (errno || *end || !(cl->o.compute_scale >= 0) || !isfinite(cl->o.compute_scale))
				return util_usage("--compute-scale wants a number of at least 0 (got '%s')", optarg);
			break;
		}
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

/* The run to convert: its format, the file of a whole run with its
 * reader, the trace files, and every file the output may not replace. */
struct run {
	enum input kind;
	char *path;                     /* a DUMPI or OTF2 run's file */
	struct tr_dumpi *dumpi;
	struct tr_otf2 *otf2;
	struct t2g_source src;
	struct files fs;
	struct files whole;             /* what the output may not replace */
	const char **paths;             /* whole's paths */
};

/* Frees a list of trace files. */
static void files_free(struct files *fs)
{
	for (size_t i = 0; i < fs->n; i++)
		free(fs->v[i].path);
	free(fs->v);
}

/* Frees what r holds. */
static void run_free(struct run *r)
{
	tr_dumpi_close(r->dumpi);
	tr_otf2_close(r->otf2);
	free(r->path);
	files_free(&r->fs);
	files_free(&r->whole);
	free(r->paths);
}

/* Whether an argument is a whole run (DUMPI or OTF2), given alone.
 * Returns 0, or the exit status after the message. */
static int run_kind(struct run *r, const struct cli *cl)
{
	int rc = 0;
	for (int i = 0; i < cl->nargs && !rc; i++) {
		enum input k;
		char *p;
		rc = input_kind(cl->args[i], &k, &p);
		if (!rc && k != IN_TEXT && cl->nargs > 1) {
			free(p);
			return util_usage("'%s' is a whole run (DUMPI or OTF2): give it alone", cl->args[i]);
		}
		if (!rc && k != IN_TEXT) {
			r->kind = k;
			r->path = p;
		}
	}
	return rc;
}

/* Opens the reader of a DUMPI or OTF2 run with the files it reads.
 * Returns 0 or 1 (message printed). */
static int run_open(struct run *r)
{
	char err[1024];
	int rc = 0;
	if (r->kind == IN_DUMPI) {
		if (!(r->dumpi = tr_dumpi_open(r->path, err, sizeof err)))
			return util_error_msg(err);
		r->src.nranks = tr_dumpi_ranks(r->dumpi);
		r->src.read = read_dumpi;
		r->src.ctx = r->dumpi;
		for (size_t i = 0; i < r->src.nranks && !rc; i++)
			if (files_add(&r->fs, tr_dumpi_path(r->dumpi, i)))
				rc = util_error("out of memory");
		if (!rc && files_add(&r->fs, r->path))
			rc = util_error("out of memory");
	}
	if (!rc && r->kind == IN_OTF2) {
		if (!(r->otf2 = tr_otf2_open(r->path, err, sizeof err)))
			return util_error_msg(err);
		r->src.nranks = tr_otf2_ranks(r->otf2);
		r->src.read = read_otf2;
		r->src.ctx = r->otf2;
		if (files_add(&r->fs, r->path))
			rc = util_error("out of memory");
	}
	return rc;
}

/* The text traces of the arguments (files, folders, rank 0's file alone)
 * in rank order.  Returns 0 or 1 (message printed). */
static int run_text(struct run *r, const struct cli *cl)
{
	int dirs = 0, rc = 0;
	for (int i = 0; i < cl->nargs && !rc; i++) {
		struct stat sb;
		if (stat(cl->args[i], &sb) == 0 && S_ISDIR(sb.st_mode)) {
			dirs++;
			rc = add_dir(&r->fs, cl->args[i]);
		} else if (files_add(&r->fs, cl->args[i])) {
			rc = util_error("out of memory");
		}
	}
	if (!rc && cl->nargs == 1 && r->fs.n == 1 && !dirs)
		rc = add_other_ranks(&r->fs, &cl->o);
	if (!rc)
		rc = order_files(&r->fs);
	return rc;
}

/* The files the output may not replace: every input file, and of an
 * OTF2 archive every member, read or not.  Returns 0 or 1 (message
 * printed). */
static int run_guard(struct run *r)
{
	for (size_t i = 0; i < r->fs.n; i++)
		if (files_add(&r->whole, r->fs.v[i].path))
			return util_error("out of memory");
	if (r->kind == IN_OTF2 && tr_otf2_members(r->path, files_add_cb, &r->whole))
		return util_error("out of memory");
	r->paths = malloc((r->whole.n ? r->whole.n : 1) * sizeof *r->paths);
	if (!r->paths)
		return util_error("out of memory");
	for (size_t i = 0; i < r->whole.n; i++)
		r->paths[i] = r->whole.v[i].path;
	return 0;
}

/* --stats: the figures of the conversion on f. */
static void print_stats(FILE *f, const struct t2g_stats *st)
{
	fprintf(f, "ranks          %" PRIu64 "\n", st->ranks);
	fprintf(f, "ops            %" PRIu64 "\n", st->ops);
	fprintf(f, "  send         %" PRIu64 "\n", st->sends);
	fprintf(f, "  recv         %" PRIu64 "\n", st->recvs);
	fprintf(f, "  calc         %" PRIu64 "\n", st->calcs);
	fprintf(f, "collectives    %" PRIu64 "\n", st->collectives);
	for (size_t i = 0; i < st->npatterns; i++)
		if (st->by_pattern[i])
			fprintf(f, "  %-28s %" PRIu64 "\n", sg_pattern(i)->name, st->by_pattern[i]);
	fprintf(f, "skipped calls  %" PRIu64 "\n", st->skipped);
	for (size_t i = 0; i < st->nskip; i++)
		fprintf(f, "  %-12s %" PRIu64 "\n", st->skip[i].name, st->skip[i].n);
	fprintf(f, "calc time      %" PRIu64 " ns\n", st->calc_ns);
	fprintf(f, "traced time    %" PRIu64 " ns\n", st->traced_ns);
	if (st->request_size)
		fprintf(f, "request size   %u bytes\n", st->request_size);
}

/* Converts the traces of r into the output, with the figures of --stats.
 * Returns 0 or 1 (message printed). */
static int convert(const struct cli *cl, const struct run *r)
{
	const struct t2g_options *o = &cl->o;
	struct t2g_stats st;
	char err[1024], comment[128];
	size_t n = r->src.nranks;
	sg_out *out;
	int rc = 0;
	memset(&st, 0, sizeof st);
	if (o->extrapolate > 1)
		snprintf(comment, sizeof comment, "trace2goal: %zu traced ranks, extrapolated x%" PRIu32,
		         n, o->extrapolate);
	else
		snprintf(comment, sizeof comment, "trace2goal: %zu traced ranks", n);
	if (util_out_check(cl->out_path, r->paths, r->whole.n, err, sizeof err)) {
		rc = util_error_msg(err);
	} else if (!(out = sg_out_open(cl->out_path, sg_format_of_path(cl->out_path),
	                               (uint64_t)n * o->extrapolate, comment,
	                               err, sizeof err))) {
		rc = util_error_msg(err);
	} else if (r->src.read ? t2g_convert_source(&r->src, o, out, &st, err, sizeof err)
	                       : t2g_convert(r->paths, n, o, out, &st, err, sizeof err)) {
		rc = util_error_msg(err);
		sg_out_abort(out);
	} else if (sg_out_close(out, err, sizeof err)) {
		rc = util_error_msg(err);
	} else if (cl->stats) {
		/* Beside the schedule: on stdout, as goalc --stats; on stderr
		 * when the schedule itself goes to stdout. */
		print_stats(strcmp(cl->out_path, "-") == 0 ? stderr : stdout, &st);
	}
	t2g_stats_free(&st);
	return rc;
}

int main(int argc, char **argv)
{
	struct cli cl;
	struct run r;
	int rc;
	util_set_prog("trace2goal");
	if ((rc = cli_parse(&cl, argc, argv)) >= 0 || (rc = cli_check(&cl)) >= 0)
		return rc;
	memset(&r, 0, sizeof r);
	r.kind = IN_TEXT;
	rc = run_kind(&r, &cl);
	if (!rc)
		rc = r.kind == IN_TEXT ? run_text(&r, &cl) : run_open(&r);
	if (!rc && !r.src.read)
		r.src.nranks = r.fs.n;
	if (!rc && (uint64_t)r.src.nranks * cl.o.extrapolate > GOAL_MAX_RANKS)
		rc = util_usage("%zu ranks times %" PRIu32 " is too many ranks", r.src.nranks,
		                cl.o.extrapolate);
	if (!rc)
		rc = run_guard(&r);
	if (!rc)
		rc = convert(&cl, &r);
	run_free(&r);
	return rc;
}
