/* loggp_measure.c: loggp-measure, the MPI program that measures PRTT(n,d,s) between two ranks and fits LogGP parameters. */
#include <getopt.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "die.h"
#include "loggp_raw.h"
#include "loggp_report.h"

#define TAG_DATA 1
#define TAG_REPLY 2
#define MAX_SIZES 4096

/* Everything the command line sets; every rank parses the same argv. */
typedef struct config {
	unsigned n, reps, warmup, per_octave, passes;
	double quant;
	uint64_t min_size, max_size, S;
	uint64_t sizes[MAX_SIZES];
	size_t nsizes;
	const char *output, *raw;
	int quiet;
	loggp_detect det;
} config;

static void usage(FILE *f)
{
	fprintf(f,
		"usage: mpirun -np 2 loggp-measure [options]\n"
		"\n"
		"Measure the LogGP parameters between rank 0 (client) and rank 1 (server)\n"
		"with parametrised round trips PRTT(n,d,s): the client sends n messages of\n"
		"s bytes with a busy wait of d ns between them, the server answers with one\n"
		"message of s bytes once it has all; only the client takes times.  Fits\n"
		"o, O (from PRTT(n,d,s), d = PRTT(1,0,s)) and g, G (from PRTT(n,0,s)) per\n"
		"protocol range, prints a table and writes a parameter file that\n"
		"'loggopsim -p FILE' reads (docs/loggp.md).\n"
		"\n"
		"options:\n"
		"  -n N                  messages per PRTT(n,.,s) (default 10)\n"
		"      --min-size B      smallest message size in bytes (default 1)\n"
		"      --max-size B      largest message size (default 262144: beyond 64 KiB\n"
		"                        so that a change near 64 KiB has look-ahead)\n"
		"      --per-octave K    sizes per doubling, geometric (default 4)\n"
		"      --sizes LIST      explicit sizes, comma separated, increasing\n"
		"  -r, --reps R          measurements of each PRTT, median taken (default 31)\n"
		"      --passes K        take them in K passes over all sizes, so that a\n"
		"                        burst of interference spoils one block of a size,\n"
		"                        not all its measurements (default 4)\n"
		"      --warmup W        discarded measurements before each block (default 3)\n"
		"      --quantile Q      take this quantile of the repetitions instead of\n"
		"                        the median (0.5); on a busy machine 0.1 or 0 (the\n"
		"                        minimum) is less disturbed by other processes\n"
		"  -o, --output FILE     parameter file (default loggp.params; '-': stdout)\n"
		"      --raw FILE        also write the PRTT table (for loggp-fit)\n"
		"  -q, --quiet           no progress on stderr\n"
		"%s"
		"  -h, --help            this help\n"
		"\n"
		"Runs with exactly 2 ranks.  Times are medians over the repetitions; the\n"
		"spread columns are interquartile ranges.  Exit status: 0 success, 1 run\n"
		"or write error, 2 bad options.\n",
		loggp_detect_help);
}

/* Geometric sizes min..max, k per octave, rounded, without repeats. */
static size_t make_sizes(uint64_t min, uint64_t max, unsigned k, uint64_t *out, size_t cap)
{
	size_t n = 0;
	for (unsigned i = 0;; i++) {
		double v = (double)min * pow(2.0, (double)i / k);
		uint64_t s = (uint64_t)floor(v + 0.5);
		if (s > max || n == cap)
			break;
		if (n == 0 || s > out[n - 1])
			out[n++] = s;
	}
	if (n < cap && (n == 0 || out[n - 1] < max))
		out[n++] = max;
	return n;
}

/* Parse "a,b,c" into c->sizes; 0 or -1. */
static int parse_list(const char *arg, config *c, char *err, size_t errlen)
{
	char *copy = strdup(arg), *save = NULL;
	c->nsizes = 0;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		uint64_t v;
		if (c->nsizes == MAX_SIZES || loggp_arg_u64(t, 1, 1ull << 30, &v) ||
		    (c->nsizes && v <= c->sizes[c->nsizes - 1])) {
			snprintf(err, errlen, "--sizes: expected increasing sizes 1..2^30, "
			         "at most %d, got '%s'", MAX_SIZES, t);
			free(copy);
			return -1;
		}
		c->sizes[c->nsizes++] = v;
	}
	free(copy);
	if (c->nsizes == 0) {
		snprintf(err, errlen, "--sizes: empty list");
		return -1;
	}
	return 0;
}

/* Returns 0 to run, 1 for --help, -1 with err set for bad options. */
static int parse_args(int argc, char **argv, config *c, char *err, size_t errlen)
{
	enum { O_MIN = 2000, O_MAX, O_PER, O_SIZES, O_WARM, O_RAW, O_QUANT, O_PASSES };
	static const struct option longopts[] = {
		{ "min-size", required_argument, NULL, O_MIN },
		{ "max-size", required_argument, NULL, O_MAX },
		{ "per-octave", required_argument, NULL, O_PER },
		{ "sizes", required_argument, NULL, O_SIZES },
		{ "reps", required_argument, NULL, 'r' },
		{ "warmup", required_argument, NULL, O_WARM },
		{ "passes", required_argument, NULL, O_PASSES },
		{ "quantile", required_argument, NULL, O_QUANT },
		{ "output", required_argument, NULL, 'o' },
		{ "raw", required_argument, NULL, O_RAW },
		{ "quiet", no_argument, NULL, 'q' },
		{ "pfact", required_argument, NULL, LOGGP_OPT_PFACT },
		{ "lookahead", required_argument, NULL, LOGGP_OPT_LOOKAHEAD },
		{ "floor", required_argument, NULL, LOGGP_OPT_FLOOR },
		{ "rel-floor", required_argument, NULL, LOGGP_OPT_RELFLOOR },
		{ "no-detect", no_argument, NULL, LOGGP_OPT_NODETECT },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	memset(c, 0, sizeof *c);
	c->n = 10;
	c->reps = 31;
	c->warmup = 3;
	c->passes = 4;
	c->per_octave = 4;
	c->quant = 0.5;
	c->min_size = 1;
	c->max_size = 262144;
	c->S = LOGGP_DEFAULT_S;
	c->output = "loggp.params";
	loggp_detect_default(&c->det);
	int explicit_sizes = 0, opt;
	uint64_t v;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":n:r:o:S:qh", longopts, NULL)) != -1) {
		int r = loggp_detect_option(opt, optarg, &c->det, err, errlen);
		if (r < 0)
			return -1;
		if (r > 0)
			continue;
#define NUM(name, lo, hi, dst) do { \
	if (loggp_arg_u64(optarg, lo, hi, &v)) { \
		snprintf(err, errlen, "%s: expected an integer %llu..%llu, got '%s'", name, \
		         (unsigned long long)(lo), (unsigned long long)(hi), optarg); \
		return -1; \
	} \
	dst = v; \
} while (0)
		switch (opt) {
		case 'n': NUM("-n", 2, 100000, c->n); break;
		case 'r': NUM("--reps", 1, 1000000, c->reps); break;
		case O_WARM: NUM("--warmup", 0, 1000000, c->warmup); break;
		case O_PASSES: NUM("--passes", 1, 1000000, c->passes); break;
		case O_MIN: NUM("--min-size", 1, 1ull << 30, c->min_size); break;
		case O_MAX: NUM("--max-size", 1, 1ull << 30, c->max_size); break;
		case O_PER: NUM("--per-octave", 1, 64, c->per_octave); break;
		case 'S': NUM("-S", 0, UINT64_MAX - 1, c->S); break;
		case O_SIZES:
			if (parse_list(optarg, c, err, errlen))
				return -1;
			explicit_sizes = 1;
			break;
		case O_QUANT:
			if (loggp_arg_double(optarg, 0, 1, &c->quant)) {
				snprintf(err, errlen, "--quantile: expected a number 0..1, got '%s'",
				         optarg);
				return -1;
			}
			break;
		case 'o': c->output = optarg; break;
		case O_RAW: c->raw = optarg; break;
		case 'q': c->quiet = 1; break;
		case 'h': return 1;
		default:
			util_option_error(opt, argv, err, errlen);
			return -1;
		}
#undef NUM
	}
	if (optind < argc) {
		snprintf(err, errlen, "unexpected argument '%s'", argv[optind]);
		return -1;
	}
	if (!explicit_sizes) {
		if (c->min_size > c->max_size) {
			snprintf(err, errlen, "--min-size is larger than --max-size");
			return -1;
		}
		c->nsizes = make_sizes(c->min_size, c->max_size, c->per_octave, c->sizes,
		                       MAX_SIZES);
	}
	return 0;
}

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Busy wait d ns on the monotonic clock. */
static void spin(double d)
{
	double end = now_ns() + d;
	while (now_ns() < end)
		;
}

/* Client side of one PRTT(n,d,s); returns the time in ns. */
static double prtt_client(char *buf, int s, unsigned n, double d)
{
	double t0 = now_ns();
	for (unsigned i = 0; i < n; i++) {
		MPI_Send(buf, s, MPI_BYTE, 1, TAG_DATA, MPI_COMM_WORLD);
		if (d > 0 && i + 1 < n)
			spin(d);
	}
	MPI_Recv(buf, s, MPI_BYTE, 1, TAG_REPLY, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	return now_ns() - t0;
}

/* Server side: receive n messages, answer with one. */
static void prtt_server(char *buf, int s, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		MPI_Recv(buf, s, MPI_BYTE, 0, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Send(buf, s, MPI_BYTE, 0, TAG_REPLY, MPI_COMM_WORLD);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Quantile q of v[0..k) (sorts v), linear interpolation. */
static double quantile(double *v, size_t k, double q)
{
	qsort(v, k, sizeof *v, cmp_double);
	double pos = q * (double)(k - 1);
	size_t i = (size_t)pos;
	if (i + 1 >= k)
		return v[k - 1];
	return v[i] + (pos - (double)i) * (v[i + 1] - v[i]);
}

/* The chosen quantile q of v[0..k) and its interquartile range. */
static void stats(double *v, size_t k, double q, double *median, double *spread)
{
	*median = quantile(v, k, q);
	*spread = quantile(v, k, 0.75) - quantile(v, k, 0.25);
}

/* Progress on stderr: "pass R of T (WHAT)". */
static void progress(const config *c, int tty, unsigned r, unsigned total,
                     const char *what)
{
	if (!c->quiet)
		fprintf(stderr, "%sloggp-measure: pass %u of %u (%s)%s", tty ? "\r" : "",
		        r + 1, total, what, tty ? "\033[K" : "\n");
}

/* Measure every size; rank 0 fills pts.  Both ranks run the same loops.
 * The reps measurements of a size come in c->passes blocks, one per pass
 * over all sizes, each after c->warmup discarded ones: a burst of
 * interference from other processes (some milliseconds on a shared
 * machine) spoils a block of a few sizes, which a low quantile leaves
 * out, rather than every measurement of one size.  Passes go up and down
 * the sizes in turn, so that no size follows a much larger one (the
 * smallest would be measured cold after the largest).  tmp holds
 * 4 * reps * nsizes times. */
static void measure(const config *c, int rank, char *buf, loggp_point *pts, double *tmp)
{
	unsigned reps = c->reps, passes = c->passes < reps ? c->passes : reps;
	size_t ns = c->nsizes;
	double *t1 = tmp, *t2 = tmp + ns * reps, *tn = tmp + 2 * ns * reps,
	       *td = tmp + 3 * ns * reps;
	int tty = isatty(2) && rank == 0;
	/* PRTT(1,0,s), PRTT(2,0,s), PRTT(n,0,s), interleaved. */
	for (unsigned p = 0; p < passes; p++) {
		unsigned r0 = reps * p / passes, r1 = reps * (p + 1) / passes;
		if (rank == 0)
			progress(c, tty, p, 2 * passes, "PRTT(1,0,s), PRTT(2,0,s), PRTT(n,0,s)");
		for (size_t q = 0; q < ns; q++) {
			size_t i = p % 2 ? ns - 1 - q : q;
			int s = (int)c->sizes[i];
			for (unsigned w = 0; w < c->warmup + r1 - r0; w++) {
				unsigned k[3] = { 1, 2, c->n };
				double *dst[3] = { t1, t2, tn };
				for (int j = 0; j < 3; j++) {
					if (rank == 1) {
						prtt_server(buf, s, k[j]);
						continue;
					}
					double t = prtt_client(buf, s, k[j], 0);
					if (w >= c->warmup)
						dst[j][i * reps + r0 + w - c->warmup] = t;
				}
			}
		}
	}
	for (size_t i = 0; rank == 0 && i < ns; i++) {
		loggp_point *p = &pts[i];
		int s = (int)c->sizes[i];
		p->size = (uint64_t)s;
		double sp2;
		stats(t1 + i * reps, reps, c->quant, &p->prtt1, &p->spread1);
		stats(t2 + i * reps, reps, c->quant, &p->prtt2, &sp2);
		stats(tn + i * reps, reps, c->quant, &p->prttn, &p->spreadn);
		int fallback;
		p->d = loggp_delay(p->prtt1, p->prtt2, loggp_gap(p, c->n), &fallback);
		if (fallback)
			fprintf(stderr, "%sloggp-measure: warning: size %d: g+(s-1)G = %.1f ns "
			        "> PRTT(1,0,s) = %.1f ns; using d = PRTT(2,0,s) = %.1f ns\n",
			        tty && !c->quiet ? "\r\033[K" : "", s, loggp_gap(p, c->n),
			        p->prtt1, p->d);
	}
	/* PRTT(n,d,s) with the delay of each size (the server needs no d). */
	for (unsigned p = 0; p < passes; p++) {
		unsigned r0 = reps * p / passes, r1 = reps * (p + 1) / passes;
		if (rank == 0)
			progress(c, tty, passes + p, 2 * passes, "PRTT(n,d,s)");
		for (size_t q = 0; q < ns; q++) {
			size_t i = p % 2 ? ns - 1 - q : q;
			int s = (int)c->sizes[i];
			for (unsigned w = 0; w < c->warmup + r1 - r0; w++) {
				if (rank == 1) {
					prtt_server(buf, s, c->n);
					continue;
				}
				double t = prtt_client(buf, s, c->n, pts[i].d);
				if (w >= c->warmup)
					td[i * reps + r0 + w - c->warmup] = t;
			}
		}
	}
	for (size_t i = 0; rank == 0 && i < ns; i++)
		stats(td + i * reps, reps, c->quant, &pts[i].prttd, &pts[i].spreadd);
	if (tty && !c->quiet)
		fprintf(stderr, "\r\033[K");
}

int main(int argc, char **argv)
{
	util_set_prog("loggp-measure");
	MPI_Init(&argc, &argv);
	int rank, size;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	static config c;
	char err[LOGGP_ERRLEN];
	int pr = parse_args(argc, argv, &c, err, sizeof err);
	if (pr != 0) {
		if (rank == 0 && pr > 0)
			usage(stdout);
		else if (rank == 0)
			util_usage("%s", err);
		MPI_Finalize();
		return pr > 0 ? 0 : 2;
	}
	if (size != 2) {
		if (rank == 0)
			util_usage("needs exactly 2 ranks (mpirun -np 2), has %d", size);
		MPI_Finalize();
		return 2;
	}
	uint64_t maxs = c.sizes[c.nsizes - 1];
	char *buf = calloc(maxs, 1);
	loggp_point *pts = calloc(c.nsizes, sizeof *pts);
	double *tmp = malloc(4 * (size_t)c.reps * c.nsizes * sizeof *tmp);
	int ok = buf && pts && tmp, all_ok;
	MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
	if (!all_ok) {
		if (rank == 0)
			util_error("out of memory (%u repetitions of %zu sizes up to %llu B)", c.reps,
			           c.nsizes, (unsigned long long)maxs);
		MPI_Finalize();
		return 1;
	}
	if (rank == 0 && !c.quiet)
		fprintf(stderr, "loggp-measure: %zu sizes %llu..%llu B, n = %u, %u reps "
		        "in %u passes (+%u warm-up each)\n", c.nsizes,
		        (unsigned long long)c.sizes[0], (unsigned long long)maxs, c.n, c.reps,
		        c.passes < c.reps ? c.passes : c.reps, c.warmup);
	measure(&c, rank, buf, pts, tmp);
	int rc = 0;
	if (rank == 0) {
		char lib[MPI_MAX_LIBRARY_VERSION_STRING], host[256] = "?";
		int len;
		MPI_Get_library_version(lib, &len);
		lib[strcspn(lib, "\n,")] = '\0';
		gethostname(host, sizeof host - 1);
		char comment[1024];
		snprintf(comment, sizeof comment,
		         "measured by loggp-measure on %s with %s\n%u repetitions per PRTT "
		         "(quantile %g) in %u passes, %u warm-up each", host, lib, c.reps,
		         c.quant, c.passes < c.reps ? c.passes : c.reps, c.warmup);
		if (c.raw) {
			FILE *f = fopen(c.raw, "w");
			if (!f || loggp_raw_write(f, c.n, pts, c.nsizes) || fclose(f))
				rc = util_error("%s: cannot write", c.raw);
		}
		if (loggp_report(strcmp(c.output, "-") == 0 ? stderr : stdout, stderr, pts,
		                 c.nsizes, c.n, &c.det, c.S, c.output, comment, err,
		                 sizeof err))
			rc = util_error_msg(err);
	}
	free(buf);
	free(pts);
	free(tmp);
	MPI_Finalize();
	return rc;
}
