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
#include "out.h"
#include "loggp_raw.h"
#include "loggp_report.h"
#include "version.h"

#define TAG_DATA 1
#define TAG_REPLY 2
#define MAX_SIZES 4096

/* Everything the command line sets; every rank parses the same argv. */
typedef struct config {
	unsigned n, reps, warmup, per_octave, passes, repeat;
	double quant;
	uint64_t min_size, max_size, S;
	uint64_t sizes[MAX_SIZES];
	size_t nsizes;
	/* --stride: strided round trips at these strides and sizes */
	uint64_t strides[LOGGP_PARAMS_MAX_STRIDES];
	size_t nstrides;
	uint64_t ssizes[MAX_SIZES];
	size_t nssizes;
	const char *output, *raw;
	const char *check;    /* --check FILE: compare, write no file */
	double tol;           /* --tolerance, a fraction */
	int quiet, output_set;
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
		"      --stride LIST     also measure strided messages (MPI_Type_create_hvector\n"
		"                        of 8-byte blocks) at these strides in bytes, comma\n"
		"                        separated, increasing, 8..2^31, and fit their\n"
		"                        middleware costs per stride (log_3 P)\n"
		"      --stride-sizes LIST  the sizes of the strided messages: multiples of 8,\n"
		"                        at least 16, increasing (default 1 KiB, 2 KiB, ...\n"
		"                        up to the largest size)\n"
		"  -o, --output FILE     parameter file (default loggp.params; '-': stdout)\n"
		"      --check FILE      measure, and say whether the parameter file FILE\n"
		"                        still holds: per size, the round trips measured\n"
		"                        against those its parameters predict; exit status 1\n"
		"                        when PRTT(1,0,s) or PRTT(n,0,s) of a size differs by\n"
		"                        more than the tolerance (writes no file)\n"
		"      --repeat K        measure K times (default 2): the file is fitted to the\n"
		"                        first; each other is compared with it, range by\n"
		"                        range, with a warning where PRTT(1,0,s) or PRTT(n,0,s)\n"
		"                        of a size differs by more than the tolerance\n"
		"      --tolerance PCT   of --check and --repeat, in percent of the measured\n"
		"                        time (default 10)\n"
		"      --raw FILE        also write the PRTT table (for loggp-fit)\n"
		"  -q, --quiet           no progress on stderr\n"
		"%s"
		"  -h, --help            this help\n"
		"      --version         the version and the commit it was built from\n"
		"\n"
		"Runs with exactly 2 ranks.  Times are medians over the repetitions; the\n"
		"spread columns are interquartile ranges.\n"
		"Example: mpirun -np 2 loggp-measure --max-size 1Mi -o shm.params\n"
		"Exit status: 0 success (with --check: the file holds), 1 run or write\n"
		"error (with --check: the file does not hold, or cannot be read), 2 bad\n"
		"options.\n",
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

/* Parse "a,b,c" (increasing, lo..hi, multiples of mult, at most cap) of
 * option opt into v[], *nv; what says it in messages ("sizes 1..2^30").
 * 0 or -1. */
static int parse_list(const char *opt, const char *what, const char *arg, uint64_t lo,
                      uint64_t hi, uint64_t mult, uint64_t *v, size_t *nv, size_t cap,
                      char *err, size_t errlen)
{
	char *copy = strdup(arg), *save = NULL;
	*nv = 0;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		uint64_t x;
		if (*nv == cap || loggp_arg_size(t, lo, hi, &x) || x % mult ||
		    (*nv && x <= v[*nv - 1])) {
			snprintf(err, errlen, "%s: expected increasing %s, at most %zu, got '%s'",
			         opt, what, cap, t);
			free(copy);
			return -1;
		}
		v[(*nv)++] = x;
	}
	free(copy);
	if (*nv == 0) {
		snprintf(err, errlen, "%s: empty list", opt);
		return -1;
	}
	return 0;
}

/* Returns 0 to run, 1 for --help, 2 for --version, -1 with err set for bad
 * options. */
static int parse_args(int argc, char **argv, config *c, char *err, size_t errlen)
{
	enum { O_MIN = 2000, O_MAX, O_PER, O_SIZES, O_WARM, O_RAW, O_QUANT, O_PASSES, O_STRIDE,
	       O_SSIZES, O_CHECK, O_TOL, O_REPEAT };
	static const struct option longopts[] = {
		{ "min-size", required_argument, NULL, O_MIN },
		{ "max-size", required_argument, NULL, O_MAX },
		{ "per-octave", required_argument, NULL, O_PER },
		{ "sizes", required_argument, NULL, O_SIZES },
		{ "stride", required_argument, NULL, O_STRIDE },
		{ "stride-sizes", required_argument, NULL, O_SSIZES },
		{ "reps", required_argument, NULL, 'r' },
		{ "warmup", required_argument, NULL, O_WARM },
		{ "passes", required_argument, NULL, O_PASSES },
		{ "quantile", required_argument, NULL, O_QUANT },
		{ "output", required_argument, NULL, 'o' },
		{ "raw", required_argument, NULL, O_RAW },
		{ "check", required_argument, NULL, O_CHECK },
		{ "tolerance", required_argument, NULL, O_TOL },
		{ "repeat", required_argument, NULL, O_REPEAT },
		{ "quiet", no_argument, NULL, 'q' },
		{ "pfact", required_argument, NULL, LOGGP_OPT_PFACT },
		{ "lookahead", required_argument, NULL, LOGGP_OPT_LOOKAHEAD },
		{ "floor", required_argument, NULL, LOGGP_OPT_FLOOR },
		{ "rel-floor", required_argument, NULL, LOGGP_OPT_RELFLOOR },
		{ "no-detect", no_argument, NULL, LOGGP_OPT_NODETECT },
		{ "version", no_argument, NULL, UTIL_OPT_VERSION },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	memset(c, 0, sizeof *c);
	c->n = 10;
	c->reps = 31;
	c->warmup = 3;
	c->passes = 4;
	c->repeat = 2;
	c->per_octave = 4;
	c->quant = 0.5;
	c->min_size = 1;
	c->max_size = 262144;
	c->S = LOGGP_DEFAULT_S;
	c->output = "loggp.params";
	c->tol = 0.1;
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
#define NUM(name, lo, hi, dst) NUMK(loggp_arg_u64, name, lo, hi, dst)
#define SIZE(name, lo, hi, dst) NUMK(loggp_arg_size, name, lo, hi, dst)
#define NUMK(parse, name, lo, hi, dst) do { \
	if (parse(optarg, lo, hi, &v)) { \
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
		case O_REPEAT: NUM("--repeat", 1, 100, c->repeat); break;
		case O_MIN: SIZE("--min-size", 1, 1ull << 30, c->min_size); break;
		case O_MAX: SIZE("--max-size", 1, 1ull << 30, c->max_size); break;
		case O_PER: NUM("--per-octave", 1, 64, c->per_octave); break;
		case 'S': SIZE("-S", 0, UINT64_MAX - 1, c->S); break;
		case O_SIZES:
			if (parse_list("--sizes", "sizes 1..2^30", optarg, 1, 1ull << 30, 1, c->sizes,
			               &c->nsizes, MAX_SIZES, err, errlen))
				return -1;
			explicit_sizes = 1;
			break;
		case O_STRIDE:
			if (parse_list("--stride", "strides 8..2^31", optarg, 8, 1ull << 31, 1,
			               c->strides, &c->nstrides, LOGGP_PARAMS_MAX_STRIDES, err, errlen))
				return -1;
			break;
		case O_SSIZES:
			if (parse_list("--stride-sizes", "multiples of 8, 16..2^30", optarg, 16,
			               1ull << 30, 8, c->ssizes, &c->nssizes, MAX_SIZES, err, errlen))
				return -1;
			break;
		case O_QUANT:
			if (loggp_arg_double(optarg, 0, 1, &c->quant)) {
				snprintf(err, errlen, "--quantile: expected a number 0..1, got '%s'",
				         optarg);
				return -1;
			}
			break;
		case 'o': c->output = optarg; c->output_set = 1; break;
		case O_RAW: c->raw = optarg; break;
		case O_CHECK: c->check = optarg; break;
		case O_TOL:
			if (loggp_arg_double(optarg, 0, 1000, &c->tol)) {
				snprintf(err, errlen, "--tolerance: expected a percentage 0..1000, got '%s'",
				         optarg);
				return -1;
			}
			c->tol /= 100;
			break;
		case 'q': c->quiet = 1; break;
		case UTIL_OPT_VERSION: return 2;
		case 'h': return 1;
		default:
			util_option_error(opt, argv, err, errlen);
			return -1;
		}
#undef NUM
#undef SIZE
#undef NUMK
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
	if (c->check && (c->output_set || c->nstrides)) {
		snprintf(err, errlen, "--check writes no parameter file and measures no strides: "
		         "not with %s", c->output_set ? "-o" : "--stride");
		return -1;
	}
	if (c->nssizes && !c->nstrides) {
		snprintf(err, errlen, "--stride-sizes needs --stride");
		return -1;
	}
	if (c->raw && util_out_same(c->raw, c->output)) {
		snprintf(err, errlen, "-o and --raw name the same file '%s'", c->raw);
		return -1;
	}
	if (c->nstrides && !c->nssizes) {
		for (uint64_t s = 1024; s <= c->sizes[c->nsizes - 1]; s *= 2)
			c->ssizes[c->nssizes++] = s;
		if (!c->nssizes) {
			snprintf(err, errlen, "--stride: the sizes end below 1024 bytes: "
			         "give --stride-sizes");
			return -1;
		}
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

/* Client side of one PRTT(n,d,s) of messages of count elements of type t;
 * returns the time in ns. */
static double prtt_client_t(char *buf, int count, MPI_Datatype t, unsigned n, double d)
{
	double t0 = now_ns();
	for (unsigned i = 0; i < n; i++) {
		MPI_Send(buf, count, t, 1, TAG_DATA, MPI_COMM_WORLD);
		if (d > 0 && i + 1 < n)
			spin(d);
	}
	MPI_Recv(buf, count, t, 1, TAG_REPLY, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	return now_ns() - t0;
}

/* Server side: receive n messages, answer with one. */
static void prtt_server_t(char *buf, int count, MPI_Datatype t, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		MPI_Recv(buf, count, t, 0, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Send(buf, count, t, 0, TAG_REPLY, MPI_COMM_WORLD);
}

/* The same for s contiguous bytes. */
static double prtt_client(char *buf, int s, unsigned n, double d)
{
	return prtt_client_t(buf, s, MPI_BYTE, n, d);
}

static void prtt_server(char *buf, int s, unsigned n)
{
	prtt_server_t(buf, s, MPI_BYTE, n);
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

/* Bytes the strided buffer spans for s bytes in 8-byte blocks stride apart. */
static uint64_t strided_span(uint64_t s, uint64_t stride)
{
	return (s / 8 - 1) * stride + 8;
}

/* Measure the strided round trips (--stride); rank 0 fills spts, grouped by
 * stride, sizes increasing.  For each size and stride, in passes as
 * measure() takes them: PRTT(1,0,s) of s contiguous bytes (cbuf) and of one
 * strided message (s/8 blocks of 8 bytes, stride apart, in sbuf)
 * interleaved; then both PRTT(n,d,s) with d the strided PRTT(1,0,s).  tmp
 * holds 4 * reps * nstrides * nssizes times. */
static void measure_strides(const config *c, int rank, char *cbuf, char *sbuf,
                            loggp_spoint *spts, double *tmp)
{
	unsigned reps = c->reps, passes = c->passes < reps ? c->passes : reps;
	size_t ns = c->nssizes, nd = c->nstrides, np = ns * nd;
	double *t[4] = { tmp, tmp + np * reps, tmp + 2 * np * reps, tmp + 3 * np * reps };
	int tty = isatty(2) && rank == 0;
	for (int phase = 0; phase < 2; phase++)
		for (unsigned p = 0; p < passes; p++) {
			unsigned r0 = reps * p / passes, r1 = reps * (p + 1) / passes;
			if (rank == 0)
				progress(c, tty, phase * passes + p, 2 * passes,
				         phase ? "strided PRTT(n,d,s)" : "strided PRTT(1,0,s)");
			for (size_t q = 0; q < ns; q++) {
				size_t i = p % 2 ? ns - 1 - q : q;
				int s = (int)c->ssizes[i];
				for (size_t k = 0; k < nd; k++) {
					size_t j = k * ns + i;
					MPI_Datatype v;
					MPI_Type_create_hvector(s / 8, 1, (MPI_Aint)c->strides[k], MPI_DOUBLE, &v);
					MPI_Type_commit(&v);
					for (unsigned w = 0; w < c->warmup + r1 - r0; w++) {
						double a, b;
						if (rank == 1) {
							prtt_server(cbuf, s, phase ? c->n : 1);
							prtt_server_t(sbuf, 1, v, phase ? c->n : 1);
							continue;
						}
						a = prtt_client(cbuf, s, phase ? c->n : 1, phase ? spts[j].d : 0);
						b = prtt_client_t(sbuf, 1, v, phase ? c->n : 1, phase ? spts[j].d : 0);
						if (w >= c->warmup) {
							t[2 * phase][j * reps + r0 + w - c->warmup] = a;
							t[2 * phase + 1][j * reps + r0 + w - c->warmup] = b;
						}
					}
					MPI_Type_free(&v);
				}
			}
			if (phase || p + 1 < passes || rank != 0)
				continue;
			/* Both PRTT(1,0,s) known: the delay of PRTT(n,d,s). */
			for (size_t j = 0; j < np; j++) {
				double sp;
				loggp_spoint *x = &spts[j];
				x->stride = c->strides[j / ns];
				x->size = c->ssizes[j % ns];
				stats(t[0] + j * reps, reps, c->quant, &x->c1, &sp);
				stats(t[1] + j * reps, reps, c->quant, &x->s1, &sp);
				x->d = x->s1;
			}
		}
	for (size_t j = 0; rank == 0 && j < np; j++) {
		double sp;
		stats(t[2] + j * reps, reps, c->quant, &spts[j].cd, &sp);
		stats(t[3] + j * reps, reps, c->quant, &spts[j].sd, &sp);
	}
	if (tty && !c->quiet)
		fprintf(stderr, "\r\033[K");
}

/* Rank 0's report of the first measurement: the check against --check's
 * parameters chk, the --raw table, else the fit into *fitted and its
 * file.  Returns the exit status. */
static int report_first(const config *c, const loggp_params *chk, const loggp_point *pts,
                        const loggp_spoint *spts, size_t nsp, FILE *report,
                        loggp_params *fitted)
{
	char err[LOGGP_ERRLEN];
	int rc = 0;
	char lib[MPI_MAX_LIBRARY_VERSION_STRING], host[256] = "?";
	int len;
	MPI_Get_library_version(lib, &len);
	lib[strcspn(lib, "\n,")] = '\0';
	gethostname(host, sizeof host - 1);
	char when[32] = "?";
	time_t now = time(NULL);
	struct tm tm;
	if (gmtime_r(&now, &tm))
		strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
	char comment[1024];
	snprintf(comment, sizeof comment,
	         "measured by loggp-measure on %s at %s with %s\n%u repetitions per PRTT "
	         "(quantile %g) in %u passes, %u warm-up each", host, when, lib, c->reps,
	         c->quant, c->passes < c->reps ? c->passes : c->reps, c->warmup);
	if (c->check) {
		fprintf(report, "check of %s against a measurement on %s at %s with %s\n",
		        c->check, host, when, lib);
		if (loggp_check(report, c->check, chk, pts, c->nsizes, c->n, c->tol))
			rc = 1;
	}
	if (c->raw) {
		FILE *f = fopen(c->raw, "w");
		if (!f || loggp_raw_write(f, c->n, pts, c->nsizes, spts, nsp) || fclose(f))
			rc = util_error("%s: cannot write", c->raw);
	}
	if (!c->check && loggp_report(report, stderr, pts, c->nsizes, c->n, spts, nsp, &c->det,
	                              c->S, c->output, comment, fitted, err, sizeof err))
		rc = util_error_msg(err);
	return rc;
}

/* The command line's outcome on every rank, and the two ranks: -1 to go
 * on, or the exit status (rank 0 prints the message, the help or the
 * version). */
static int start(int argc, char **argv, int rank, int size, config *c)
{
	char err[LOGGP_ERRLEN];
	int pr = parse_args(argc, argv, c, err, sizeof err);
	if (pr != 0) {
		int rc = pr > 0 ? 0 : 2;
		if (rank == 0 && pr == 1)
			usage(stdout);
		else if (rank == 0 && pr == 2)
			rc = util_version(NULL);
		else if (rank == 0)
			util_usage("%s", err);
		return rc;
	}
	if (size != 2) {
		if (rank == 0)
			util_usage("needs exactly 2 ranks (mpirun -np 2), has %d", size);
		return 2;
	}
	return -1;
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
	int st = start(argc, argv, rank, size, &c);
	if (st >= 0) {
		MPI_Finalize();
		return st;
	}
	/* The file to check: rank 0 reads it (the other rank may not see it). */
	static loggp_params chk;
	int bad = 0;
	if (c.check && rank == 0 && (bad = loggp_params_read(c.check, &chk, err) != 0))
		util_error_msg(err);
	MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (bad) {
		MPI_Finalize();
		return 1;
	}
	uint64_t maxs = c.sizes[c.nsizes - 1];
	size_t nsp = c.nstrides * c.nssizes;
	uint64_t maxss = c.nssizes ? c.ssizes[c.nssizes - 1] : 0, span = 0;
	if (nsp)
		span = strided_span(maxss, c.strides[c.nstrides - 1]);
	char *buf = calloc(maxs > maxss ? maxs : maxss, 1);
	char *sbuf = nsp ? calloc(span, 1) : NULL;
	loggp_point *pts = calloc(c.nsizes, sizeof *pts);
	int twice = c.repeat > 1 && !c.check;
	loggp_point *again = twice ? calloc(c.nsizes, sizeof *again) : NULL;
	static loggp_params fitted;
	FILE *report = strcmp(c.output, "-") == 0 ? stderr : stdout;   /* the file may be stdout */
	loggp_spoint *spts = nsp ? calloc(nsp, sizeof *spts) : NULL;
	size_t ntmp = (c.nsizes > nsp ? c.nsizes : nsp) * 4 * (size_t)c.reps;
	double *tmp = malloc(ntmp * sizeof *tmp);
	int ok = buf && pts && tmp && (!nsp || (sbuf && spts)) && (again || !twice),
	    all_ok;
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
	if (nsp) {
		if (rank == 0 && !c.quiet)
			fprintf(stderr, "loggp-measure: strides %llu..%llu B (%zu), sizes %llu..%llu B "
			        "(%zu), a strided buffer of %llu B\n",
			        (unsigned long long)c.strides[0],
			        (unsigned long long)c.strides[c.nstrides - 1], c.nstrides,
			        (unsigned long long)c.ssizes[0], (unsigned long long)maxss, c.nssizes,
			        (unsigned long long)span);
		measure_strides(&c, rank, buf, sbuf, spts, tmp);
	}
	int rc = rank == 0 ? report_first(&c, &chk, pts, spts, nsp, report, &fitted) : 0;
	/* Again, compared with the first (every rank: the round trips take both). */
	MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
	for (unsigned k = 2; again && rc == 0 && k <= c.repeat; k++) {
		if (rank == 0 && !c.quiet)
			fprintf(stderr, "loggp-measure: measurement %u of %u\n", k, c.repeat);
		measure(&c, rank, buf, again, tmp);
		if (rank == 0)
			loggp_repeat_report(report, stderr, &fitted, pts, again, c.nsizes, k, c.tol);
	}
	free(buf);
	free(sbuf);
	free(pts);
	free(again);
	free(spts);
	free(tmp);
	MPI_Finalize();
	return rc;
}
