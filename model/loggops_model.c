/* loggops_model.c: the loggops-model command line: simulate a pattern over
 * P or one parameter, compare with every closed form known for it, print a
 * table or CSV and draw an SVG plot. */
#include "die.h"
#include "model_formula.h"
#include "model_plot.h"
#include "model_sim.h"
#include "num.h"
#include "out.h"
#include "params.h"
#include "progress.h"
#include "version.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_POINTS 10000
#define MAX_P 1048576u
#define MAX_TIME 1000000000000u   /* L, o, g at most 1000 s */
#define MAX_RATE 1000u            /* G, O at most 1000 ns/byte */
#define MAX_SIZE 1073741824u      /* s at most 1 GiB */
#define MAX_LOOP 100000u
#define MAX_LOOP_RANKS 50000000u  /* P x N of a benchmark loop */

static void usage(FILE *f)
{
	fprintf(f,
"usage: loggops-model PATTERN [options]\n"
"Simulates a collective pattern (schedgen's) with the LogGOPS simulation core\n"
"and compares it with every closed-form LogP / LogGP / LogGOPS model known for\n"
"it: one row per P (or per value of a swept parameter), the simulated time,\n"
"each formula and its relative error.\n"
"\n"
"  -s, --ranks RANGE    ranks P (default 2..64; -P RANGE is the same): N,\n"
"                       A..B (A, 2A, 4A, ... and B),\n"
"                       A..B:STEP (A, A+STEP, ... and B), A..B*F (A, A*F,\n"
"                       A*F*F, ... up to B), A..B+D (A, A+D, ... up to B), or\n"
"                       a list of them N,M,...\n"
"  -d, --size BYTES     message size s (default 1)\n");
	sim_pflag_help(f, 23);
	fprintf(f,
"  -n, --fanin N        fan-in of barrier_tree        (default 2)\n"
"      --stride D       the messages are strided (D bytes, blocks of 8 or D),\n"
"                       with the middleware costs of log_3 P at each end and\n"
"                       in flight (docs/semantics.md section 10):\n"
"      --o-mw N  --O-mw X  --l-mw N  --L-mw X\n"
"                       om = o_mw + (s-1) O_mw, lm = l_mw + (s-1) L_mw (default 0)\n"
"      --sweep X=RANGE  sweep X (L, o, g, G, O, S, s or n) over RANGE instead\n"
"                       of P; -s then gives one P (default 16)\n"
"      --loop N         benchmarking error: compare one operation with N\n"
"                       back-to-back iterations divided by N, and with the root\n"
"                       rotated each iteration (rooted patterns)\n"
"      --csv FILE       also write the results as CSV into FILE ('-': on\n"
"                       standard output, instead of the table)\n"
"      --svg FILE       also draw the results as an SVG plot into FILE\n"
"      --list           the formulas: pattern, source, kind, domain\n"
"  -h, --help           this help\n"
"      --version        the version and the commit it was built from\n"
"\n"
"Relative error = (formula - simulated) / simulated.  In the table an error in\n"
"parentheses lies outside the formula's domain (docs/model.md).\n"
"Example: loggops-model bcast_binomial -s 2..4096 -d 1024 --svg bcast.svg\n"
"Exit status: 0 done, 1 failed run or output, 2 bad options.\n");
}

/* Fraction digits of G and O. */
#define RATE_FRAC 3

/* What is wrong with the range str of option what: a usage error. */
static void bad_range(const char *what, const char *str) __attribute__((noreturn));
static void bad_range(const char *what, const char *str)
{
	util_die_usage("%s expects N, A..B*F, A..B+D, A..B, A..B:STEP or a list of them, not '%s'", what, str);
}

/* v in units of 10^-frac (v has at most frac fraction digits). */
static uint64_t units(num_dec v, unsigned frac)
{
	uint64_t scale = 1;
	while (frac--)
		scale *= 10;
	return v.num * (scale / v.den);
}

/* Whether v > max. */
static int above(num_dec v, uint64_t max)
{
	return v.num / v.den > max || (v.num / v.den == max && v.num % v.den);
}

/* A list of values and ranges (util/num.h: A..B, A..B:STEP, A..B*F,
 * A..B+D), each with at most frac fraction digits.  what names the option
 * in messages.  Fills v (at most MAX_POINTS) and returns the count;
 * *geometric is set for a single range A..B or A..B*F and for a list
 * spanning a factor of 16 or more (a log axis suits them).  Dies on a bad
 * range. */
static size_t parse_range(const char *what, const char *str, unsigned frac, num_dec *v,
                          int *geometric)
{
	char buf[256];
	size_t n = 0, items = 0;
	int geo = 0;
	if (strlen(str) >= sizeof buf)
		util_die_usage("%s: '%s' is too long", what, str);
	strcpy(buf, str);
	for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ","), items++) {
		size_t len = strlen(tok);
		num_range r;
		num_range_it it;
		num_dec x;
		if (!num_is_range(tok, len)) {
			if (n >= MAX_POINTS)
				util_die_usage("%s: '%s' has more than %u values", what, str, MAX_POINTS);
			if (num_value_parse(tok, len, frac, &v[n++]))
				bad_range(what, str);
			continue;
		}
		num_err e = num_range_parse(tok, len, frac, &r);
		if (e == NUM_RANGE)
			bad_range(what, str);
		if (e == NUM_EMPTY)
			util_die_usage("%s: the range '%s' is empty", what, tok);
		if (e)
			util_die_usage("%s: %s", what, num_err_str(e));
		geo = r.kind == NUM_RANGE_DOUBLE || r.kind == NUM_RANGE_MUL;
		for (num_range_begin(&r, &it); num_range_next(&r, &it, &x); v[n++] = x)
			if (n >= MAX_POINTS)
				util_die_usage("%s: '%s' has more than %u values", what, str, MAX_POINTS);
	}
	if (n == 0)
		bad_range(what, str);
	if (items > 1 || !num_is_range(str, strlen(str))) {
		/* A list that spans a factor of 16 or more is plotted on a log axis. */
		uint64_t lo = units(v[0], frac), hi = lo;
		for (size_t i = 1; i < n; i++) {
			uint64_t x = units(v[i], frac);
			lo = x < lo ? x : lo;
			hi = x > hi ? x : hi;
		}
		geo = lo > 0 && hi / lo >= 16;
	}
	*geometric = geo;
	return n;
}

/* One value of a single-valued option with at most frac fraction digits,
 * at most max, or die. */
/* An integer option that is a size (units: "64Ki") or a time (units:
 * "2.5us"), up to max; dies with the reason. */
static uint64_t parse_unit(const char *opt, const char *str, int bytes, uint64_t max)
{
	uint64_t v;
	num_err e;
	if (str[0] == '-' && str[1] >= '0' && str[1] <= '9')
		util_die_usage("%s must not be negative (got %s)", opt, str);
	e = bytes ? num_size_parse(str, strlen(str), &v) : num_ns_parse(str, strlen(str), &v);
	if (e == NUM_BIG || (e == NUM_OK && v > max))
		util_die_usage("%s must be at most %" PRIu64 " (got %s)", opt, max, str);
	if (e)
		util_die_usage("%s expects %s, not '%s'", opt, bytes ? "a size in bytes (e.g. 1024 or "
		               "64Ki)" : "a time in whole ns (e.g. 300 or 0.3us)", str);
	return v;
}

static num_dec parse_one(const char *opt, const char *str, unsigned frac, uint64_t max)
{
	num_dec v;
	num_err e;
	if (str[0] == '-' && str[1] >= '0' && str[1] <= '9')
		util_die_usage("%s must not be negative (got %s)", opt, str);
	e = num_value_parse(str, strlen(str), frac, &v);
	if (e == NUM_BIG || (e == NUM_OK && above(v, max)))
		util_die_usage("%s must be at most %" PRIu64 "%s (got %s)", opt, max, frac ? " ns/byte" : "", str);
	if (e) {
		if (frac)
			util_die_usage("%s expects a decimal (at most %u fraction digits) number, not '%s'", opt,
			    frac, str);
		util_die_usage("%s expects a number, not '%s'", opt, str);
	}
	return v;
}

/* A LogGOPS flag -K TEXT (sim_pflag_parse) into *c, within this tool's
 * limits: at most RATE_FRAC fraction digits and MAX_RATE for G and O,
 * MAX_TIME for L, o, g.  Dies with the reason; returns 1 when opt is not
 * such a flag. */
static int param_flag(int opt, const char *text, sim_pchange *c)
{
	char err[256], name[3] = { '-', (char)opt, 0 };
	int r = sim_pflag_parse(opt, text, c, err, sizeof err);
	if (r > 0)
		return 1;
	int k = sim_pname_find(name + 1, 1);
	unsigned frac = sim_pname_frac((sim_pname)k) ? RATE_FRAC : 0;
	parse_one(name, text, frac, k == SIM_P_S ? UINT64_MAX / 10 : frac ? MAX_RATE : MAX_TIME);
	if (r < 0)
		util_die_usage("%s", err);
	return 0;
}

/* The swept quantity. */
typedef enum sweep_var { SW_P, SW_L, SW_o, SW_g, SW_G, SW_O, SW_S, SW_s, SW_n } sweep_var;

static const char *const sweep_names[] = { "P", "L", "o", "g", "G", "O", "S", "s", "n" };

/* All settings of one run. */
typedef struct setup {
	const char *pattern;
	uint64_t P, s, n;      /* when not swept */
	sim_params prm;
	sweep_var var;
	num_dec *vals;
	size_t nvals;
	int geometric;
	uint64_t loop;         /* 0: the formula comparison */
	const char *csv;   /* --csv FILE ("-": stdout, instead of the table) */
	const char *svg;
	sim_stride stride;     /* stride 0: contiguous messages; else their
	                          stride and middleware costs */
} setup;

/* The value of point i in the units of its variable (G, O: ns/byte). */
static double x_of(const setup *u, size_t i)
{
	return (double)u->vals[i].num / (double)u->vals[i].den;
}

/* Format point i's value of the swept variable. */
static void fmt_x(const setup *u, size_t i, char *buf, size_t n)
{
	num_dec_format(u->vals[i], buf, n);
}

/* The parameters of point i. */
static void point(const setup *u, size_t i, uint64_t *P, uint64_t *s, uint64_t *n, sim_params *prm)
{
	num_dec x = u->vals[i];
	uint64_t v = x.num;    /* the integers: den 1 */
	*P = u->P;
	*s = u->s;
	*n = u->n;
	*prm = u->prm;
	switch (u->var) {
	case SW_P: *P = v; break;
	case SW_L: prm->L = v; break;
	case SW_o: prm->o = v; break;
	case SW_g: prm->g = v; break;
	case SW_G: prm->G = x; break;
	case SW_O: prm->O = x; break;
	case SW_S: prm->S = v; break;
	case SW_s: *s = v; break;
	case SW_n: *n = v; break;
	}
}

static void list_formulas(void)
{
	for (size_t i = 0; i < model_nformulas(); i++) {
		const model_formula *f = model_formula_at(i);
		printf("%s %s: %s\n", f->pattern, f->name, model_kind_name(f->kind));
		printf("    %s\n", f->expr);
		printf("    %s for %s\n", f->kind == MODEL_APPROX ? "applies" : "holds", f->domain_text);
		if (f->exact_text)
			printf("    exact when %s\n", f->exact_text);
		if (f->notes[0])
			printf("    note: %s\n", f->notes);
		printf("    source: %s\n", f->source);
	}
}

/* The header lines of the table: pattern, parameters, formulas. */
/* The parameters that are not swept, as " P=16 s=1 L=2500 ..." into buf. */
static void fixed_params(const setup *u, char *buf, size_t n)
{
	char g[NUM_DEC_TEXT], o[NUM_DEC_TEXT];
	size_t len = 0;
	num_dec_format(u->prm.G, g, sizeof g);
	num_dec_format(u->prm.O, o, sizeof o);
	buf[0] = '\0';
#define ADD(...) do { if (len < n) len += (size_t)snprintf(buf + len, n - len, __VA_ARGS__); } while (0)
	if (u->var != SW_P)
		ADD(" P=%" PRIu64, u->P);
	if (u->var != SW_s)
		ADD(" s=%" PRIu64, u->s);
	if (u->var != SW_L)
		ADD(" L=%" PRIu64, u->prm.L);
	if (u->var != SW_o)
		ADD(" o=%" PRIu64, u->prm.o);
	if (u->var != SW_g)
		ADD(" g=%" PRIu64, u->prm.g);
	if (u->var != SW_G)
		ADD(" G=%s", g);
	if (u->var != SW_O)
		ADD(" O=%s", o);
	if (u->var != SW_S)
		ADD(" S=%" PRIu64, u->prm.S);
	if (u->var != SW_n && strcmp(u->pattern, "barrier_tree") == 0)
		ADD(" n=%" PRIu64, u->n);
	if (u->stride.stride) {
		char om[NUM_DEC_TEXT], lm[NUM_DEC_TEXT];
		num_dec_format(u->stride.O_mw, om, sizeof om);
		num_dec_format(u->stride.L_mw, lm, sizeof lm);
		ADD(" stride=%" PRIu64 " o_mw=%" PRIu64 " O_mw=%s l_mw=%" PRIu64 " L_mw=%s",
		    u->stride.stride, u->stride.o_mw, om, u->stride.l_mw, lm);
	}
#undef ADD
}

/* The header lines of the table: pattern, parameters, formulas. */
static void put_header(const setup *u, const model_formula **fs, size_t nf)
{
	char fixed[512];
	fixed_params(u, fixed, sizeof fixed);
	printf("# loggops-model %s:%s (ns)\n", u->pattern, fixed);
	if (u->loop) {
		printf("# loop: %" PRIu64 " back-to-back iterations, time / %" PRIu64
		       "; rotated: the same with the root rotated\n", u->loop, u->loop);
		printf("# err: (per-iteration - single) / single; ratio: single / per-iteration\n");
		return;
	}
	for (size_t k = 0; k < nf; k++) {
		const model_formula *f = fs[k];
		printf("# %s (%s): %s\n", f->name, model_kind_name(f->kind), f->expr);
		printf("#   %s for %s", f->kind == MODEL_APPROX ? "applies" : "holds", f->domain_text);
		if (f->exact_text)
			printf("; exact when %s", f->exact_text);
		printf("\n#   %s\n", f->source);
	}
	printf("# err: (formula - simulated) / simulated; (in parentheses): outside the domain\n");
}

static double rel(double v, double ref)
{
	return ref > 0 ? (v - ref) / ref : 0;
}

/* Print a relative error (percent) into buf; in parentheses when out. */
static void fmt_err(char *buf, size_t n, double e, int in)
{
	char t[48];
	if (e == 0)
		snprintf(t, sizeof t, "0");
	else
		snprintf(t, sizeof t, "%+.2f%%", 100 * e);
	if (strcmp(t, "+0.00%") == 0 || strcmp(t, "-0.00%") == 0)
		snprintf(t, sizeof t, "%s0.00%%", e > 0 ? "+" : "-");
	snprintf(buf, n, in ? "%s" : "(%s)", t);
}

/* The last table line of a sweep: where the simulated time and each
 * formula are smallest (the first such value on ties). */
static void put_minima(const setup *u, const model_formula **fs, size_t nf,
                       const double *simt, const double *fval)
{
	char x[48];
	size_t best = 0;
	for (size_t i = 1; i < u->nvals; i++)
		if (simt[i] < simt[best])
			best = i;
	fmt_x(u, best, x, sizeof x);
	printf("# minimum: simulated %.0f at %s=%s", simt[best], sweep_names[u->var], x);
	for (size_t k = 0; k < nf; k++) {
		const double *v = fval + k * u->nvals;
		best = 0;
		for (size_t i = 1; i < u->nvals; i++)
			if (v[i] < v[best])
				best = i;
		fmt_x(u, best, x, sizeof x);
		printf("; %s %.0f at %s=%s", fs[k]->name, v[best], sweep_names[u->var], x);
	}
	printf("\n");
}

/* The plot and its series, for util_out_write. */
typedef struct plot_out {
	const model_plot *pl;
	const model_series *ser;
	size_t ns;
} plot_out;

static int put_plot(FILE *f, void *ctx)
{
	const plot_out *p = ctx;
	return model_plot_svg(f, p->pl, p->ser, p->ns);
}

/* Write the SVG plot of the results.  Returns 0 or -1 (error printed). */
static int draw(const setup *u, const model_formula **fs, size_t nf, const double *simt,
                const double *fval, const int *in, const double *loopv, const double *rotv)
{
	model_series ser[64];
	double *xs = malloc(u->nvals * sizeof *xs), *ys = malloc((nf + 3) * u->nvals * sizeof *ys);
	size_t ns = 0;
	char title[700], fixed[512], xl[64];
	model_plot pl;
	int rc = -1;

	if (!xs || !ys) {
		util_error("out of memory");
		goto out;
	}
	for (size_t i = 0; i < u->nvals; i++) {
		xs[i] = x_of(u, i);
		ys[i] = simt[i] / 1000;
	}
	ser[ns++] = (model_series){ u->loop ? "one operation" : "simulated", xs, ys, u->nvals, 1 };
	if (u->loop) {
		for (size_t i = 0; i < u->nvals; i++) {
			ys[u->nvals + i] = loopv[i] / 1000;
			ys[2 * u->nvals + i] = rotv[i] / 1000;
		}
		ser[ns++] = (model_series){ "loop / N", xs, ys + u->nvals, u->nvals, 1 };
		ser[ns++] = (model_series){ "rotated root, loop / N", xs, ys + 2 * u->nvals, u->nvals, 1 };
	} else {
		for (size_t k = 0; k < nf && ns < 64; k++) {
			double *y = ys + (k + 1) * u->nvals;
			int any = 0;
			for (size_t i = 0; i < u->nvals; i++)
				any |= in[k * u->nvals + i];
			if (!any)
				continue; /* never in its domain here: not drawn */
			for (size_t i = 0; i < u->nvals; i++)
				y[i] = fval[k * u->nvals + i] / 1000;
			ser[ns++] = (model_series){ fs[k]->name, xs, y, u->nvals, 0 };
		}
	}
	fixed_params(u, fixed, sizeof fixed);
	if (u->var == SW_P)
		snprintf(title, sizeof title, "%s:%s", u->pattern, fixed);
	else
		snprintf(title, sizeof title, "%s:%s, sweep of %s", u->pattern, fixed, sweep_names[u->var]);
	snprintf(xl, sizeof xl, "%s%s", u->var == SW_P ? "P (ranks)" : sweep_names[u->var],
	         u->var == SW_G || u->var == SW_O ? " (ns/byte)" :
	         u->var == SW_s || u->var == SW_S ? " (bytes)" :
	         u->var == SW_n ? " (fan-in)" : u->var == SW_P ? "" : " (ns)");
	pl.title = title;
	pl.xlabel = xl;
	pl.ylabel = u->loop ? "time per operation (us)" : "time (us)";
	pl.xlog = u->geometric;
	pl.xbase2 = u->var == SW_P || u->var == SW_n;
	{
		double lo = 0, hi = 0;
		for (size_t i = 0; i < ns; i++)
			for (size_t j = 0; j < ser[i].n; j++) {
				double v = ser[i].y[j];
				if (v > 0 && (lo == 0 || v < lo))
					lo = v;
				if (v > hi)
					hi = v;
			}
		pl.ylog = lo > 0 && hi / lo > 20;
	}
	plot_out po = { &pl, ser, ns };
	char err[1024];
	rc = util_out_write(u->svg, NULL, 0, put_plot, &po, err, sizeof err);
	if (rc)
		util_error_msg(err);
out:
	free(xs);
	free(ys);
	return rc;
}

/* The results: the table (csv 0) or the CSV (csv 1) into f. */
typedef struct results {
	const setup *u;
	const model_formula *const *fs;
	size_t nf, w;
	const double *simt, *fval, *loopv, *rotv;
	const int *in;
	int csv;
} results;

static int put_results(FILE *f, void *ctx)
{
	const results *r = ctx;
	const setup *u = r->u;
	const model_formula *const *fs = r->fs;
	size_t nf = r->nf, w = r->w;
	const double *simt = r->simt, *fval = r->fval, *loopv = r->loopv, *rotv = r->rotv;
	const int *in = r->in;
	int csv = r->csv;
	if (csv) {
		fprintf(f, "%s,simulated", sweep_names[u->var]);
		if (u->loop)
			fprintf(f, ",loop,loop_err,rotated,rotated_err");
		else
			for (size_t k = 0; k < nf; k++)
				fprintf(f, ",%s,%s_err,%s_in_domain", fs[k]->name, fs[k]->name, fs[k]->name);
		fprintf(f, "\n");
	} else {
		fprintf(f, "%8s %14s", sweep_names[u->var], u->loop ? "single" : "simulated");
		if (u->loop)
			fprintf(f, " %14s %10s %8s %14s %10s %8s\n", "loop", "err", "ratio", "rotated", "err", "ratio");
		else {
			for (size_t k = 0; k < nf; k++)
				fprintf(f, " %*s %10s", (int)w, fs[k]->name, "err");
			fprintf(f, "\n");
		}
	}
	for (size_t i = 0; i < u->nvals; i++) {
		char x[48], e[64];
		fmt_x(u, i, x, sizeof x);
		if (csv) {
			fprintf(f, "%s,%.0f", x, simt[i]);
			if (u->loop)
				fprintf(f, ",%.3f,%.6f,%.3f,%.6f", loopv[i], rel(loopv[i], simt[i]),
				       rotv[i], rel(rotv[i], simt[i]));
			else
				for (size_t k = 0; k < nf; k++) {
					double v = fval[k * u->nvals + i];
					fprintf(f, ",%.0f,%.6f,%d", v, rel(v, simt[i]), in[k * u->nvals + i]);
				}
			fprintf(f, "\n");
			continue;
		}
		fprintf(f, "%8s %14.0f", x, simt[i]);
		if (u->loop) {
			fmt_err(e, sizeof e, rel(loopv[i], simt[i]), 1);
			fprintf(f, " %14.1f %10s %8.2f", loopv[i], e, loopv[i] > 0 ? simt[i] / loopv[i] : 0);
			fmt_err(e, sizeof e, rel(rotv[i], simt[i]), 1);
			fprintf(f, " %14.1f %10s %8.2f", rotv[i], e, rotv[i] > 0 ? simt[i] / rotv[i] : 0);
		} else {
			for (size_t k = 0; k < nf; k++) {
				double v = fval[k * u->nvals + i];
				fmt_err(e, sizeof e, rel(v, simt[i]), in[k * u->nvals + i]);
				fprintf(f, " %*.0f %10s", (int)w, v, e);
			}
		}
		fprintf(f, "\n");
	}
	return ferror(f) ? -1 : 0;
}

/* Simulate every point, print the table or CSV, draw the plot.  Returns the
 * exit status. */
static int run(const setup *u)
{
	const model_formula *fs[64];
	size_t nf = 0, w = 12;
	double *simt = calloc(u->nvals, sizeof *simt), *fval = NULL, *loopv = NULL, *rotv = NULL;
	int *in = NULL;
	model_sim ms;
	char err[1024];
	int status = 1;
	util_progress pg;  /* "point i of n", on a terminal only */
	util_progress_start(&pg, !isatty(2), 0);

	/* The log_3 P forms only for strided messages. */
	for (size_t k = 0; k < model_nformulas() && nf < 64; k++)
		if (strcmp(model_formula_at(k)->pattern, u->pattern) == 0
		    && (u->stride.stride || !model_formula_at(k)->mw)) {
			fs[nf++] = model_formula_at(k);
			if (strlen(fs[nf - 1]->name) > w)
				w = strlen(fs[nf - 1]->name);
		}
	fval = calloc(nf * u->nvals + 1, sizeof *fval);
	in = calloc(nf * u->nvals + 1, sizeof *in);
	loopv = calloc(u->nvals, sizeof *loopv);
	rotv = calloc(u->nvals, sizeof *rotv);
	if (!simt || !fval || !in || !loopv || !rotv) {
		util_error("out of memory");
		goto out;
	}
	if (model_sim_open(&ms, err, sizeof err)) {
		util_error("%s", err);
		goto out;
	}
	for (size_t i = 0; i < u->nvals; i++) {
		sg_params sp;
		sim_params prm;
		model_ctx c;
		uint64_t P, s, n, t;
		if (util_progress_due(&pg))
			util_progress_line(&pg, "point %zu of %zu", i + 1, u->nvals);
		point(u, i, &P, &s, &n, &prm);
		sg_params_default(&sp);
		sp.nranks = P;
		sp.size = s;
		sp.fanin = n;
		if (u->stride.stride) {
			sp.stride = (uint32_t)u->stride.stride;
			sp.block = sp.stride < GOAL_DEFAULT_BLOCK ? sp.stride : GOAL_DEFAULT_BLOCK;
			prm.nstrides = 1;
			prm.strides = &u->stride;
		}
		if (model_simulate(&ms, u->pattern, &sp, &prm, &t, err, sizeof err))
			goto fail;
		simt[i] = (double)t;
		if (u->loop) {
			sp.iterations = u->loop;
			if (model_simulate(&ms, u->pattern, &sp, &prm, &t, err, sizeof err))
				goto fail;
			loopv[i] = (double)t / (double)u->loop;
			sp.rotate_root = 1;
			if (model_simulate(&ms, u->pattern, &sp, &prm, &t, err, sizeof err))
				goto fail;
			rotv[i] = (double)t / (double)u->loop;
			continue;
		}
		model_ctx_set(&c, P, s, n, &prm);
		if (u->stride.stride)
			model_ctx_set_mw(&c, &u->stride);
		for (size_t k = 0; k < nf; k++) {
			fval[k * u->nvals + i] = (double)fs[k]->eval(&c);
			in[k * u->nvals + i] = model_in_domain(fs[k], &c);
		}
	}
	model_sim_close(&ms);
	util_progress_end(&pg);

	/* The table on stdout, or the CSV there with --csv -; with --csv FILE
	 * the table and the CSV into FILE. */
	int csv_out = u->csv && strcmp(u->csv, "-") == 0;
	results res = { u, fs, nf, w, simt, fval, loopv, rotv, in, csv_out };
	if (!csv_out)
		put_header(u, fs, nf);
	put_results(stdout, &res);
	if (!csv_out && !u->loop && u->var != SW_P && u->nvals > 1)
		put_minima(u, fs, nf, simt, fval);
	if (fflush(stdout) || ferror(stdout)) {
		util_error("cannot write the output");
		goto out;
	}
	if (u->csv && !csv_out) {
		res.csv = 1;
		if (util_out_write(u->csv, NULL, 0, put_results, &res, err, sizeof err)) {
			util_error_msg(err);
			goto out;
		}
	}
	if (u->svg && draw(u, fs, nf, simt, fval, in, loopv, rotv))
		goto out;
	status = 0;
	goto out;
fail:
	model_sim_close(&ms);
	util_progress_end(&pg);
	util_error("%s", err);
out:
	free(simt);
	free(fval);
	free(in);
	free(loopv);
	free(rotv);
	return status;
}

enum { OPT_SWEEP = 256, OPT_LOOP, OPT_CSV, OPT_SVG, OPT_LIST, OPT_STRIDE, OPT_OMW,
       OPT_OMW_B, OPT_LMW, OPT_LMW_B };
static const struct option opts[] = {
	{ "ranks", required_argument, NULL, 'P' },
	{ "size", required_argument, NULL, 'd' },
	{ "fanin", required_argument, NULL, 'n' },
	{ "sweep", required_argument, NULL, OPT_SWEEP },
	{ "loop", required_argument, NULL, OPT_LOOP },
	{ "csv", required_argument, NULL, OPT_CSV },
	{ "svg", required_argument, NULL, OPT_SVG },
	{ "list", no_argument, NULL, OPT_LIST },
	{ "stride", required_argument, NULL, OPT_STRIDE },
	{ "o-mw", required_argument, NULL, OPT_OMW },
	{ "O-mw", required_argument, NULL, OPT_OMW_B },
	{ "l-mw", required_argument, NULL, OPT_LMW },
	{ "L-mw", required_argument, NULL, OPT_LMW_B },
	{ "version", no_argument, NULL, UTIL_OPT_VERSION },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/* Everything the command line sets: the run's setup, the ranks and sweep
 * as given, the LogGOPS flags, and the arguments after the options. */
struct cli {
	setup u;
	const char *prange, *sweep;
	int rank_opt;   /* 's' or 'P': the option that gave the ranks */
	int mw;         /* a middleware cost was given */
	sim_pchange flags;
	char **args;
	int nargs;
};

/* Read the command line into cl: -1 to go on, or the exit status (after
 * the list, the help or the version); a bad option ends the program. */
static int cli_parse(struct cli *cl, int argc, char **argv)
{
	static num_dec vals[MAX_POINTS];
	setup *u = &cl->u;
	int c;
	memset(cl, 0, sizeof *cl);
	u->s = 1;
	u->n = 2;
	u->vals = vals;
	u->stride.O_mw.den = u->stride.L_mw.den = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":P:s:d:" SIM_PFLAGS "n:h", opts, NULL)) != -1) {
		switch (c) {
		case 'P':
		case 's':
			/* -s gave the message size once: with -P as well, that is what
			 * it meant, and it is refused rather than read as ranks. */
			if (cl->rank_opt && cl->rank_opt != c)
				util_die_usage("-s and -P both give the ranks (the message size is -d BYTES)");
			cl->rank_opt = c;
			cl->prange = optarg;
			break;
		case 'd': u->s = parse_unit("--size", optarg, 1, MAX_SIZE); break;
		case 'n':
			u->n = parse_one("--fanin", optarg, 0, MAX_P).num;
			if (u->n < 2)
				util_die_usage("--fanin must be at least 2 (got %s)", optarg);
			break;
		case OPT_SWEEP: cl->sweep = optarg; break;
		case OPT_LOOP:
			u->loop = parse_one("--loop", optarg, 0, MAX_LOOP).num;
			if (u->loop < 1)
				util_die_usage("--loop must be at least 1 (got %s)", optarg);
			break;
		case OPT_CSV: u->csv = optarg; break;
		case OPT_SVG: u->svg = optarg; break;
		case OPT_LIST: list_formulas(); return 0;
		case OPT_STRIDE:
			u->stride.stride = parse_unit("--stride", optarg, 1, GOAL_MAX_STRIDE);
			if (u->stride.stride < 1)
				util_die_usage("--stride must be at least 1 (got %s)", optarg);
			break;
		case OPT_OMW: u->stride.o_mw = parse_unit("--o-mw", optarg, 0, MAX_TIME); cl->mw = 1; break;
		case OPT_LMW: u->stride.l_mw = parse_unit("--l-mw", optarg, 0, MAX_TIME); cl->mw = 1; break;
		case OPT_OMW_B:
			u->stride.O_mw = parse_one("--O-mw", optarg, RATE_FRAC, MAX_RATE);
			cl->mw = 1;
			break;
		case OPT_LMW_B:
			u->stride.L_mw = parse_one("--L-mw", optarg, RATE_FRAC, MAX_RATE);
			cl->mw = 1;
			break;
		case UTIL_OPT_VERSION: return util_version(NULL);
		case 'h': usage(stdout); return 0;
		case ':': exit(util_usage_option(c, argv));
		default:
			if (param_flag(c, optarg, &cl->flags) == 0)
				break;
			exit(util_usage_option(c, argv));
		}
	}
	cl->args = argv + optind;
	cl->nargs = argc - optind;
	return -1;
}

/* The options that need others, the LogGOPS parameters and the pattern;
 * a bad option ends the program. */
static void cli_check(struct cli *cl)
{
	setup *u = &cl->u;
	sim_pset ps;
	char err[256];
	int idx;
	if (cl->mw && !u->stride.stride)
		util_die_usage("--o-mw, --O-mw, --l-mw and --L-mw need --stride");
	if (u->stride.stride && u->loop)
		util_die_usage("--loop compares contiguous messages only (no --stride)");
	sim_pset_default(&ps);
	if (sim_pset_apply(&ps, &cl->flags, err, sizeof err))
		util_die_usage("%s", err);
	u->prm = ps.p;
	if (cl->nargs < 1)
		util_die_usage("no pattern given (--list shows the patterns with formulas)");
	u->pattern = cl->args[0];
	if (cl->nargs > 1)
		util_die_usage("unexpected argument '%s'", cl->args[1]);
	idx = sg_pattern_find(u->pattern);
	if (idx < 0)
		util_die_usage("unknown pattern '%s' (--list shows the patterns with formulas)", u->pattern);
	u->pattern = sg_pattern((size_t)idx)->name;
	if (!model_has_pattern(u->pattern))
		util_die_usage("no formula covers pattern '%s' (--list shows the patterns with formulas)", u->pattern);
}

/* --sweep X=RANGE: the swept variable and its values, the ranks a single
 * value; a bad option ends the program. */
static void sweep_points(struct cli *cl)
{
	setup *u = &cl->u;
	const char *sweep = cl->sweep, *ropt = cl->rank_opt == 's' ? "-s" : "-P";
	const char *eq = strchr(sweep, '=');
	size_t k, len = eq ? (size_t)(eq - sweep) : 0;
	unsigned frac;
	uint64_t max;
	for (k = 1; k < sizeof sweep_names / sizeof sweep_names[0]; k++)
		if (eq && strlen(sweep_names[k]) == len && strncmp(sweep, sweep_names[k], len) == 0)
			break;
	if (!eq || k == sizeof sweep_names / sizeof sweep_names[0])
		util_die_usage("--sweep expects X=RANGE with X one of L, o, g, G, O, S, s, n (got '%s')", sweep);
	u->var = (sweep_var)k;
	frac = (u->var == SW_G || u->var == SW_O) ? RATE_FRAC : 0;
	u->nvals = parse_range("--sweep", eq + 1, frac, u->vals, &u->geometric);
	max = u->var == SW_G || u->var == SW_O ? MAX_RATE :
	      u->var == SW_s ? MAX_SIZE : u->var == SW_n ? MAX_P :
	      u->var == SW_S ? UINT64_MAX / 10 : MAX_TIME;
	for (size_t i = 0; i < u->nvals; i++) {
		if (above(u->vals[i], max))
			util_die_usage("--sweep: %s must be at most %" PRIu64, sweep_names[k], max);
		if (u->var == SW_n && u->vals[i].num < 2)
			util_die_usage("--sweep: the fan-in n must be at least 2");
	}
	u->P = 16;
	if (cl->prange) {
		int geo;
		static num_dec one[MAX_POINTS];
		if (parse_range(ropt, cl->prange, 0, one, &geo) != 1)
			util_die_usage("with --sweep, %s takes one value (got '%s')", ropt, cl->prange);
		u->P = one[0].num;
	}
	if (u->P < 2 || u->P > MAX_P)
		util_die_usage("%s must be 2..%u (got %" PRIu64 ")", ropt, MAX_P, u->P);
}

/* Without --sweep the ranks are swept (default 2..64); a bad option ends
 * the program. */
static void rank_points(struct cli *cl)
{
	setup *u = &cl->u;
	const char *ropt = cl->rank_opt == 's' ? "-s" : "-P";
	u->var = SW_P;
	u->nvals = parse_range(ropt, cl->prange ? cl->prange : "2..64", 0, u->vals, &u->geometric);
	for (size_t i = 0; i < u->nvals; i++)
		if (u->vals[i].num < 2 || u->vals[i].num > MAX_P)
			util_die_usage("%s must be 2..%u (got %" PRIu64 ")", ropt, MAX_P, u->vals[i].num);
}

/* --loop N: P x N within MAX_LOOP_RANKS at the largest P; a bad option
 * ends the program. */
static void loop_check(const setup *u)
{
	uint64_t maxP = u->var == SW_P ? 0 : u->P;
	for (size_t i = 0; u->var == SW_P && i < u->nvals; i++)
		if (u->vals[i].num > maxP)
			maxP = u->vals[i].num;
	if (maxP * u->loop > MAX_LOOP_RANKS)
		util_die_usage("--loop %" PRIu64 " with P up to %" PRIu64 " is too large (P x N must be at most %u)",
		    u->loop, maxP, MAX_LOOP_RANKS);
}

int main(int argc, char **argv)
{
	static struct cli cl;
	const setup *u = &cl.u;
	char err[256];
	int st;
	util_set_prog("loggops-model");
	if ((st = cli_parse(&cl, argc, argv)) >= 0)
		return st;
	cli_check(&cl);
	if (cl.sweep)
		sweep_points(&cl);
	else
		rank_points(&cl);
	if (u->loop)
		loop_check(u);
	/* The outputs, checked before the simulations. */
	if (u->csv && u->svg && util_out_same(u->csv, u->svg))
		util_die_usage("--csv and --svg name the same file '%s'", u->svg);
	if ((u->csv && util_out_check(u->csv, NULL, 0, err, sizeof err)) ||
	    (u->svg && util_out_check(u->svg, NULL, 0, err, sizeof err)))
		return util_error_msg(err);
	return run(u);
}
