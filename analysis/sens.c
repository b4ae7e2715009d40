/* sens.c: derivatives and tolerances from critical paths (sens.h). */
#include "sens.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

__extension__ typedef unsigned __int128 sens_u128;

/* Simulations one tolerance may take before the search gives up (it ends
 * in a few where T is convex in the parameter; halving takes at most 64
 * more). */
#define SENS_MAX_STEPS 200u

static const char *const param_name[] = {
#define SENS_X(e, n, unit, cap, word) n,
	SENS_PARAMS(SENS_X)
#undef SENS_X
};
static const uint64_t param_unit[] = {
#define SENS_X(e, n, unit, cap, word) unit,
	SENS_PARAMS(SENS_X)
#undef SENS_X
};
static const uint64_t param_cap[] = {
#define SENS_X(e, n, unit, cap, word) cap,
	SENS_PARAMS(SENS_X)
#undef SENS_X
};
static const char *const param_word[] = {
#define SENS_X(e, n, unit, cap, word) word,
	SENS_PARAMS(SENS_X)
#undef SENS_X
};

int sens_run(const goal_sched *s, const sim_pset *ps, const sim_perturb *pt, sim_result *res,
             sim_path *path, char *err, size_t errlen)
{
	sim_options so = { .perturb = pt, .critical = 1 };
	memset(path, 0, sizeof *path);
	sim *m = sim_create(s, &ps->p, &so, err, errlen);
	if (!m)
		return -1;
	int rc = sim_run(m, res, err, errlen);
	if (!rc && !res->complete) {
		snprintf(err, errlen, "incomplete run (deadlock or unmatched messages)");
		rc = -1;
	}
	if (!rc)
		rc = sim_critical_path(m, res, path, err, errlen);
	sim_destroy(m);
	return rc;
}

/* The steps per unit of parameter k in ps (sens_tol): for G, 1000 or more,
 * until a step is at most 0.1% of the smallest G above 0. */
static uint64_t step_unit(const sim_pset *ps, sens_param k)
{
	uint64_t u = param_unit[k];
	if (k != SENS_G)
		return u;
	const sim_range *rg = ps->p.nranges >= 2 ? ps->rg : NULL;
	for (uint32_t i = 0; i < (rg ? ps->p.nranges : 1); i++) {
		sim_rate G = rg ? rg[i].G : ps->p.G;
		/* 1/u <= (G.num / G.den) / 1000 */
		while (G.num && u < 1000000000 && (sens_u128)1000 * G.den > (sens_u128)G.num * u)
			u *= 10;
	}
	return u;
}

/* ps with parameter k raised by d steps of 1/unit in every range, into
 * *out; -1 when a value does not fit. */
static int raised(const sim_pset *ps, sens_param k, uint64_t d, uint64_t unit, sim_pset *out)
{
	sim_pset_copy(out, ps);
	sim_range *rg = out->p.nranges >= 2 ? out->rg : NULL;
	uint32_t n = rg ? out->p.nranges : 1;
	for (uint32_t i = 0; i < n; i++) {
		if (k == SENS_L) {
			uint64_t *L = rg ? &rg[i].L : &out->p.L;
			if (__builtin_add_overflow(*L, d, L))
				return -1;
		} else {
			/* G + d/unit over the common power-of-ten denominator. */
			sim_rate *G = rg ? &rg[i].G : &out->p.G;
			uint64_t den = G->den > unit ? G->den : unit;
			sens_u128 num = (sens_u128)G->num * (den / G->den) + (sens_u128)d * (den / unit);
			if (num / den >= (1ull << 32))
				return -1;
			*G = num_dec_make((uint64_t)num, den);
		}
	}
	return 0;
}

/* The slope of T along path p in steps of parameter k, as a double (the
 * search only takes its candidates from it; simulations decide). */
static double slope(const sim_path *p, sens_param k, uint64_t unit)
{
	double s = 0;
	for (uint32_t i = 0; i < (p->nranges ? p->nranges : 1); i++)
		s += (double)(k == SENS_L ? p->count[i].L : p->count[i].G_bytes);
	return s / (double)unit;
}

/* One point of the search. */
typedef struct point {
	uint64_t d, T;
	double slope;
} point;

static int eval(const goal_sched *s, const sim_pset *ps, const sim_perturb *pt, sens_param k,
                uint64_t d, uint64_t unit, point *x, unsigned *runs, char *err, size_t errlen)
{
	sim_pset q;
	sim_result res;
	sim_path p;
	if (raised(ps, k, d, unit, &q)) {
		snprintf(err, errlen, "%s + %" PRIu64 " steps does not fit", param_name[k], d);
		return -1;
	}
	++*runs;
	if (sens_run(s, &q, pt, &res, &p, err, errlen))
		return -1;
	x->d = d;
	x->T = res.time;
	x->slope = slope(&p, k, unit);
	sim_path_free(&p);
	return 0;
}

int sens_tolerance(const goal_sched *s, const sim_pset *ps, const sim_perturb *pt,
                   sens_param k, const sim_path *p, sens_tol *tol, size_t n, unsigned *runs,
                   char *err, size_t errlen)
{
	uint64_t unit = step_unit(ps, k), cap = param_cap[k] * unit;
	point lo = { 0, p->T, slope(p, k, unit) };
	for (size_t t = 0; t < n; t++) {
		sens_tol *x = &tol[t];
		sens_u128 add = (sens_u128)p->T * x->pct.num / ((sens_u128)x->pct.den * 100);
		x->target = add > UINT64_MAX - p->T ? UINT64_MAX : p->T + (uint64_t)add;
		x->unbounded = 0;
		x->unit = unit;
		point hi = { UINT64_MAX, 0, 0 };
		/* lo: T <= target (from the last percentage, or the run itself);
		 * hi: T > target.  Where T is convex in the parameter, the line
		 * of a path lies below T, so where a path's line meets the target
		 * T is at or above it: Newton steps from hi (or from lo while
		 * there is no hi) land at or beyond the answer, exactly on it
		 * where T is linear; a step that would not pass lo, and every
		 * fourth step, halves instead, which ends the search where T is
		 * not linear (G's rounding per message makes it a staircase) or
		 * not convex. */
		for (unsigned it = 0; hi.d == UINT64_MAX || hi.d - lo.d > 1; it++) {
			uint64_t c;
			if (it == SENS_MAX_STEPS) {
				snprintf(err, errlen, "the %s tolerance search did not end in %u simulations",
				         param_word[k], SENS_MAX_STEPS);
				return -1;
			}
			if (lo.d == cap) {
				x->unbounded = 1;
				break;
			}
			if (hi.d != UINT64_MAX) {
				/* Newton from hi, or halving where it would not pass lo
				 * (T a staircase, as G's rounding per message makes it). */
				double back = hi.slope > 0 ? (double)(hi.T - x->target) / hi.slope : 0;
				if (hi.slope > 0 && it % 4 != 3 && ceil(back) <= (double)(hi.d - lo.d))
					c = hi.d - (uint64_t)ceil(back);   /* at lo: probe lo + 1 */
				else
					c = lo.d + (hi.d - lo.d) / 2;
			} else if (lo.slope > 0) {
				double step = (double)(x->target - lo.T) / lo.slope;
				c = step >= (double)(cap - lo.d) ? cap : lo.d + (uint64_t)step;
			} else {
				c = cap;
			}
			if (c <= lo.d)
				c = lo.d + 1;
			if (hi.d != UINT64_MAX && c >= hi.d)
				c = hi.d - 1;
			point y;
			if (eval(s, ps, pt, k, c, unit, &y, runs, err, errlen))
				return -1;
			if (y.T <= x->target)
				lo = y;
			else
				hi = y;
		}
		x->delta = lo.d;
	}
	return 0;
}

static int cmp_dec(const void *a, const void *b)
{
	const sens_tol *x = a, *y = b;
	sens_u128 l = (sens_u128)x->pct.num * y->pct.den, r = (sens_u128)y->pct.num * x->pct.den;
	return l < r ? -1 : l > r;
}

int sens_pct_parse(const char *text, sens_tol *tol, size_t max, size_t *n, char *err,
                   size_t errlen)
{
	*n = 0;
	for (const char *p = text;;) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		num_dec v;
		if (*n == max) {
			snprintf(err, errlen, "more than %zu percentages", max);
			return -1;
		}
		if (num_dec_parse(p, len, 3, &v) != NUM_OK || v.num == 0 || v.num / v.den >= 1000000) {
			snprintf(err, errlen, "a percentage is a number above 0 and below 1000000 "
			         "with at most 3 decimals, not '%.*s'", (int)len, p);
			return -1;
		}
		tol[(*n)++].pct = v;
		if (!e)
			break;
		p = e + 1;
	}
	qsort(tol, *n, sizeof *tol, cmp_dec);
	for (size_t i = 1; i < *n; i++)
		if (cmp_dec(&tol[i - 1], &tol[i]) == 0) {
			char b[NUM_DEC_TEXT];
			num_dec_format(tol[i].pct, b, sizeof b);
			snprintf(err, errlen, "percentage %s given twice", b);
			return -1;
		}
	return 0;
}

/* The first and last size of range i of ps as text ("0..1023",
 * "1024..inf"). */
static void range_text(const sim_pset *ps, uint32_t i, char *buf, size_t n)
{
	sim_range rg[SIM_MAX_RANGES];
	sim_pset_ranges(ps, rg);
	uint64_t first = i ? rg[i - 1].last + 1 : 0;
	if (rg[i].last == UINT64_MAX)
		snprintf(buf, n, "%" PRIu64 "..inf", first);
	else
		snprintf(buf, n, "%" PRIu64 "..%" PRIu64, first, rg[i].last);
}

static uint32_t nranges(const sim_path *p)
{
	return p->nranges ? p->nranges : 1;
}

void sens_print_path(FILE *f, const sim_path *p, const sim_pset *ps)
{
	uint32_t nr = nranges(p);
	fprintf(f, "Critical path: %zu link%s, T = ", p->n, p->n == 1 ? "" : "s");
	for (uint32_t i = 0; i < nr; i++) {
		const struct sim_path_count *c = &p->count[i];
		char rt[64] = "";
		if (nr > 1)
			range_text(ps, i, rt, sizeof rt);
		fprintf(f, "%s%s%" PRIu64 "*L + %" PRIu64 "*o + %" PRIu64 "*g + %" PRIu64 "*G + %" PRIu64
		        "*O%s%s%s", i ? " + " : "", nr > 1 ? "(" : "", c->L, c->o, c->g, c->G_bytes,
		        c->O_bytes, nr > 1 ? ")[" : "", rt, nr > 1 ? "]" : "");
	}
	fprintf(f, " + %" PRIu64 " calc", p->calc);
	if (p->noise)
		fprintf(f, " %c %" PRIu64 " noise", p->noise < 0 ? '-' : '+',
		        p->noise < 0 ? (uint64_t)-(p->noise + 1) + 1 : (uint64_t)p->noise);
	fputc('\n', f);
}

void sens_deriv_text(sim_u128 v, char *buf, size_t n)
{
	char digits[48];
	size_t k = 0;
	uint32_t frac = (uint32_t)(v % 1000000000u);
	sim_u128 whole = v / 1000000000u;
	do {
		digits[k++] = (char)('0' + (unsigned)(whole % 10));
		whole /= 10;
	} while (whole && k < sizeof digits - 12);
	size_t at = 0;
	while (k && at + 1 < n)
		buf[at++] = digits[--k];
	if (frac) {
		char f[11];
		int d = snprintf(f, sizeof f, ".%09u", (unsigned)frac);
		while (f[d - 1] == '0')
			d--;
		for (int i = 0; i < d && at + 1 < n; i++)
			buf[at++] = f[i];
	}
	buf[at] = 0;
}

void sens_print_derivs(FILE *f, const sim_path *p, const sim_pset *ps)
{
	static const char *const name[] = { "L", "o", "g", "G", "O" };
	uint32_t nr = nranges(p);
	for (unsigned k = 0; k < 5; k++)
		for (uint32_t i = 0; i < nr; i++) {
			char rt[64] = "", v[48];
			if (nr > 1) {
				rt[0] = '[';
				range_text(ps, i, rt + 1, sizeof rt - 2);
				strcat(rt, "]");
			}
			sens_deriv_text(p->d[i][k], v, sizeof v);
			fprintf(f, "dT/d%s%s = %s\n", name[k], rt, v);
		}
}

/* The value of parameter k raised by d steps of 1/unit as text: "2555",
 * "6.5"; with several ranges "L+55". */
static void raised_text(const sim_pset *ps, sens_param k, uint64_t d, uint64_t unit, char *buf,
                        size_t n)
{
	num_dec step = num_dec_make(d, unit);
	char v[NUM_DEC_TEXT];
	if (ps->p.nranges >= 2) {
		num_dec_format(step, v, sizeof v);
		snprintf(buf, n, "%s+%s in every range", param_name[k], v);
		return;
	}
	sim_pset q;
	if (raised(ps, k, d, unit, &q)) {
		snprintf(buf, n, "?");
		return;
	}
	if (k == SENS_L)
		snprintf(buf, n, "%" PRIu64, q.p.L);
	else
		num_dec_format(q.p.G, buf, n);
}

/* The change as a percentage of the value, one decimal ("+2.2%"), or ""
 * (several ranges, or a value of 0). */
static void change_text(const sim_pset *ps, sens_param k, uint64_t d, uint64_t unit, char *buf,
                        size_t n)
{
	buf[0] = 0;
	if (ps->p.nranges >= 2)
		return;
	/* d/unit / (num/den) * 100, to a tenth, half up. */
	sens_u128 base = k == SENS_L ? (sens_u128)ps->p.L * unit
	                 : (sens_u128)ps->p.G.num * unit / ps->p.G.den;
	if (base == 0)
		return;
	sens_u128 t = ((sens_u128)d * 2000 + base) / (2 * base);
	snprintf(buf, n, " (+%" PRIu64 ".%" PRIu64 "%%)", (uint64_t)(t / 10), (uint64_t)(t % 10));
}

void sens_print_tol(FILE *f, sens_param k, const sim_pset *ps, const sens_tol *tol, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char pct[NUM_DEC_TEXT], v[96], ch[48];
		num_dec_format(tol[i].pct, pct, sizeof pct);
		if (tol[i].unbounded) {
			raised_text(ps, k, param_cap[k] * tol[i].unit, tol[i].unit, v, sizeof v);
			fprintf(f, "%s tolerance %s%%: %s unbounded (T stays at most %" PRIu64 " ns up to "
			        "%s = %s)\n", param_word[k], pct, param_name[k], tol[i].target,
			        param_name[k], v);
			continue;
		}
		raised_text(ps, k, tol[i].delta, tol[i].unit, v, sizeof v);
		change_text(ps, k, tol[i].delta, tol[i].unit, ch, sizeof ch);
		fprintf(f, "%s tolerance %s%%: %s <= %s%s\n", param_word[k], pct, param_name[k], v, ch);
	}
}

void sens_json_path(uj *j, const sim_path *p)
{
	uint32_t nr = nranges(p);
	uj_obj(j, "critical_path");
	uj_u64(j, "links", p->n);
	uj_u64(j, "calc_ns", p->calc);
	uj_i64(j, "noise_ns", p->noise);
	uj_arr(j, "ranges");
	for (uint32_t i = 0; i < nr; i++) {
		const struct sim_path_count *c = &p->count[i];
		uj_obj(j, NULL);
		uj_u64(j, "L", c->L);
		uj_u64(j, "o", c->o);
		uj_u64(j, "g", c->g);
		uj_u64(j, "G_bytes", c->G_bytes);
		uj_u64(j, "O_bytes", c->O_bytes);
		uj_end(j);
	}
	uj_end(j);
	uj_end(j);
}

void sens_print_runs(FILE *f, const unsigned runs[SENS_NPARAMS])
{
	fprintf(f, "Tolerance search:");
	for (unsigned k = 0; k < SENS_NPARAMS; k++)
		fprintf(f, "%s %u%s for %s", k ? "," : "", runs[k],
		        k ? "" : runs[k] == 1 ? " simulation" : " simulations", param_name[k]);
	fputc('\n', f);
}

void sens_json_tol(uj *j, const sens_tol *const tol[SENS_NPARAMS],
                   const size_t ntol[SENS_NPARAMS], const unsigned runs[SENS_NPARAMS])
{
	uj_obj(j, "tolerance");
	for (unsigned k = 0; k < SENS_NPARAMS; k++) {
		uj_arr(j, param_name[k]);
		for (size_t i = 0; i < ntol[k]; i++) {
			const sens_tol *x = &tol[k][i];
			char pct[NUM_DEC_TEXT], d[NUM_DEC_TEXT];
			num_dec_format(x->pct, pct, sizeof pct);
			num_dec_format(num_dec_make(x->delta, x->unit), d, sizeof d);
			uj_obj(j, NULL);
			uj_raw(j, "percent", pct);
			uj_u64(j, "target_ns", x->target);
			if (x->unbounded)
				uj_raw(j, "unbounded", "true");
			else
				uj_raw(j, "increase", d);
			uj_end(j);
		}
		uj_end(j);
	}
	uj_obj(j, "runs");
	for (unsigned k = 0; k < SENS_NPARAMS; k++)
		uj_u64(j, param_name[k], runs[k]);
	uj_end(j);
	uj_end(j);
}
