/* params.c: parameter sets for loggopsim: the parameter file, changes to
 * single values, the flags, formatting (docs/semantics.md "Size ranges",
 * docs/sim.md). */
#include "params.h"

#include "loggp_params.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

__extension__ typedef unsigned __int128 sim_pu128;

static const char *const pname[SIM_NPARAMS] = {
#define SIM_PS_X(e, n, r, h) n,
	SIM_PARAMS(SIM_PS_X)
#undef SIM_PS_X
};
static const int per_byte[SIM_NPARAMS] = {
#define SIM_PB_X(e, n, r, h) r,
	SIM_PARAMS(SIM_PB_X)
#undef SIM_PB_X
};
static const char *const meaning[SIM_NPARAMS] = {
#define SIM_PM_X(e, n, r, h) h,
	SIM_PARAMS(SIM_PM_X)
#undef SIM_PM_X
};

const char *sim_pname_str(sim_pname k)
{
	return pname[k];
}

int sim_pname_find(const char *name, size_t n)
{
	for (int k = 0; k < SIM_NPARAMS; k++)
		if (strlen(pname[k]) == n && memcmp(pname[k], name, n) == 0)
			return k;
	return -1;
}

void sim_pset_default(sim_pset *ps)
{
	memset(ps, 0, sizeof *ps);
	sim_params_default(&ps->p);
}

void sim_pset_copy(sim_pset *dst, const sim_pset *src)
{
	*dst = *src;
	dst->p.range = src->p.nranges >= 2 ? dst->rg : NULL;
	dst->p.strides = src->p.nstrides ? dst->st : NULL;
}

/* The ranges of p's level into out[0 .. SIM_MAX_RANGES): their number. */
static uint32_t level_ranges(const sim_params *p, sim_range *out)
{
	if (p->nranges >= 2) {
		memcpy(out, p->range, p->nranges * sizeof *out);
		return p->nranges;
	}
	sim_range one = { UINT64_MAX, p->L, p->o, p->g, p->G, p->O };
	out[0] = one;
	return 1;
}

uint32_t sim_pset_ranges(const sim_pset *ps, sim_range *out)
{
	return level_ranges(&ps->p, out);
}

/* Store n ranges into *ps (one range: into the plain fields). */
static void set_ranges(sim_pset *ps, const sim_range *in, uint32_t n)
{
	if (n >= 2) {
		memcpy(ps->rg, in, n * sizeof *in);
		ps->p.nranges = n;
		ps->p.range = ps->rg;
		return;
	}
	ps->p.L = in[0].L;
	ps->p.o = in[0].o;
	ps->p.g = in[0].g;
	ps->p.G = in[0].G;
	ps->p.O = in[0].O;
	ps->p.nranges = 0;
	ps->p.range = NULL;
}

int sim_pset_read(const char *path, sim_pset *ps, char *err, size_t errlen)
{
	loggp_params *lp = malloc(sizeof *lp);
	char lerr[LOGGP_ERRLEN];
	sim_range rg[SIM_MAX_RANGES];
	if (!lp) {
		snprintf(err, errlen, "%s: error: out of memory", path);
		return -1;
	}
	if (loggp_params_read(path, lp, lerr)) {
		snprintf(err, errlen, "%s", lerr);
		free(lp);
		return -1;
	}
	for (size_t k = 0; k < lp->nranges; k++) {
		const loggp_range *r = &lp->range[k];
		rg[k].last = r->last;
		rg[k].L = r->L;
		rg[k].o = r->o;
		rg[k].g = r->g;
		rg[k].G = r->G;
		rg[k].O = r->O;
	}
	sim_pset_default(ps);
	ps->p.S = lp->S;
	set_ranges(ps, rg, (uint32_t)lp->nranges);
	for (size_t k = 0; k < lp->nstrides; k++) {
		const loggp_stride *x = &lp->stride[k];
		sim_stride y = { x->stride, x->o_mw, x->l_mw, x->O_mw, x->L_mw };
		ps->st[k] = y;
	}
	ps->p.nstrides = (uint32_t)lp->nstrides;
	ps->p.strides = lp->nstrides ? ps->st : NULL;
	free(lp);
	return 0;
}

unsigned sim_pname_frac(sim_pname k)
{
	return per_byte[k] ? NUM_FRAC_MAX : 0;
}

int sim_px_parse(sim_pname k, const char *text, sim_px *x, char *err, size_t errlen)
{
	size_t len = strlen(text);
	memset(x, 0, sizeof *x);
	x->v.den = 1;
	if (text[0] == '*') {
		if (num_u64_parse(text + 1, len - 1, &x->v.num) == NUM_OK) {
			x->kind = SIM_PX_MUL;
			return 0;
		}
	} else if (per_byte[k] ? num_value_parse(text, len, sim_pname_frac(k), &x->v) == NUM_OK
	           : (k == SIM_P_S ? num_size_parse : num_ns_parse)(text, len, &x->v.num) == NUM_OK) {
		x->kind = SIM_PX_SET;
		return 0;
	} else if (k != SIM_P_S) {
		int f = sim_pname_find(text, strlen(text));
		if (f >= 0 && f != SIM_P_S && per_byte[f] == per_byte[k]) {
			x->kind = SIM_PX_COPY;
			x->from = (uint8_t)f;
			return 0;
		}
	}
	if (k == SIM_P_S)
		snprintf(err, errlen, "S needs a size in bytes (65535, 64Ki) or '*K', not '%s'", text);
	else if (per_byte[k])
		snprintf(err, errlen, "%s needs a non-negative number (at most 9 decimals), "
		         "'*K' or one of G, O, not '%s'", pname[k], text);
	else
		snprintf(err, errlen, "%s needs a time in whole ns (2500, 2.5us), '*K' or one of "
		         "L, o, g, not '%s'", pname[k], text);
	return -1;
}

int sim_pflag_parse(int opt, const char *text, sim_pchange *c, char *err, size_t errlen)
{
	char name[2] = { (char)opt, 0 };
	int k = opt > 0 && opt < 128 ? sim_pname_find(name, 1) : -1;
	sim_px x;
	if (k < 0)
		return 1;
	if (sim_px_parse((sim_pname)k, text, &x, err, errlen) || x.kind != SIM_PX_SET) {
		snprintf(err, errlen, "-%s needs %s, not '%s'", pname[k],
		         per_byte[k] ? "a non-negative number (at most 9 decimals)"
		         : k == SIM_P_S ? "a size in bytes (65535, 64Ki)" : "a time in whole ns (2500, 2.5us)",
		         text);
		return -1;
	}
	c->x[k] = x;
	return 0;
}

void sim_pflag_help(FILE *f, int col)
{
	sim_pset ps;
	int w = 0;
	sim_pset_default(&ps);
	for (int k = 0; k < SIM_NPARAMS; k++)
		if ((int)strlen(meaning[k]) > w)
			w = (int)strlen(meaning[k]);
	for (int k = 0; k < SIM_NPARAMS; k++) {
		char v[NUM_DEC_TEXT];
		sim_pset_value(&ps, (sim_pname)k, v, sizeof v);
		fprintf(f, "  -%s %-*s%-*s(default %s%s)\n", pname[k], col - 5,
		        per_byte[k] ? "X" : "N", w + 2, meaning[k], v,
		        per_byte[k] ? "; may be fractional" : "");
	}
}

/* Parameter k of range r as a rate (den 1 for L, o, g). */
static sim_rate range_get(const sim_range *r, int k)
{
	sim_rate v = { 0, 1 };
	switch (k) {
	case SIM_P_L: v.num = r->L; break;
	case SIM_P_o: v.num = r->o; break;
	case SIM_P_g: v.num = r->g; break;
	case SIM_P_G: v = r->G; break;
	case SIM_P_O: v = r->O; break;
	default: break;
	}
	return v;
}

static void range_set(sim_range *r, int k, sim_rate v)
{
	switch (k) {
	case SIM_P_L: r->L = v.num; break;
	case SIM_P_o: r->o = v.num; break;
	case SIM_P_g: r->g = v.num; break;
	case SIM_P_G: r->G = v; break;
	case SIM_P_O: r->O = v; break;
	default: break;
	}
}

/* old * factor into *out: 0, or -1 when it does not fit (rates: value below
 * NUM_DEC_LIMIT, as num_dec_parse requires). */
static int mul(sim_rate old, uint64_t factor, int rate, sim_rate *out)
{
	sim_pu128 v = (sim_pu128)old.num * factor;
	if (v > UINT64_MAX || (rate && v >= (sim_pu128)old.den * NUM_DEC_LIMIT))
		return -1;
	*out = num_dec_make((uint64_t)v, old.den);
	return 0;
}

int sim_pset_apply(sim_pset *ps, const sim_pchange *c, char *err, size_t errlen)
{
	sim_range rg[SIM_MAX_RANGES];
	uint32_t n = sim_pset_ranges(ps, rg);
	for (uint32_t i = 0; i < n; i++) {
		const sim_range old = rg[i];
		for (int k = 0; k < SIM_NPARAMS; k++) {
			const sim_px *x = &c->x[k];
			sim_rate v;
			if (k == SIM_P_S || x->kind == SIM_PX_KEEP)
				continue;
			if (x->kind == SIM_PX_SET) {
				v = x->v;
			} else if (x->kind == SIM_PX_COPY) {
				v = range_get(&old, x->from);
			} else if (mul(range_get(&old, k), x->v.num, per_byte[k], &v)) {
				snprintf(err, errlen, "%s*%" PRIu64 " is too large", pname[k], x->v.num);
				return -1;
			}
			range_set(&rg[i], k, v);
		}
	}
	const sim_px *xs = &c->x[SIM_P_S];
	if (xs->kind == SIM_PX_SET) {
		ps->p.S = xs->v.num;
	} else if (xs->kind == SIM_PX_MUL) {
		sim_rate s = { ps->p.S, 1 }, v;
		if (mul(s, xs->v.num, 0, &v)) {
			snprintf(err, errlen, "S*%" PRIu64 " is too large", xs->v.num);
			return -1;
		}
		ps->p.S = v.num;
	}
	set_ranges(ps, rg, n);
	return 0;
}

void sim_pset_value(const sim_pset *ps, sim_pname k, char *buf, size_t n)
{
	if (k == SIM_P_S) {
		snprintf(buf, n, "%" PRIu64, ps->p.S);
		return;
	}
	sim_range rg[SIM_MAX_RANGES];
	uint32_t nr = sim_pset_ranges(ps, rg);
	sim_rate v = range_get(&rg[0], k);
	for (uint32_t i = 1; i < nr; i++) {
		sim_rate w = range_get(&rg[i], k);
		if (w.num != v.num || w.den != v.den) {
			snprintf(buf, n, "mixed");
			return;
		}
	}
	num_dec_format(v, buf, n);
}

/* "L=.. o=.. g=.. G=.. O=.." of range r, or (f NULL) its JSON members. */
static void put_range(FILE *f, uj *j, const sim_range *r)
{
	for (int k = SIM_P_L; k <= SIM_P_O; k++) {
		char buf[48];
		num_dec_format(range_get(r, k), buf, sizeof buf);
		if (f)
			fprintf(f, "%s%s=%s", k ? " " : "", pname[k], buf);
		else
			uj_raw(j, pname[k], buf);
	}
}

/* The strides of *ps, as text lines or (f NULL) as JSON objects. */
static void put_strides(FILE *f, uj *j, const sim_pset *ps)
{
	for (uint32_t i = 0; i < ps->p.nstrides; i++) {
		const sim_stride *x = &ps->p.strides[i];
		char Om[NUM_DEC_TEXT], Lm[NUM_DEC_TEXT];
		num_dec_format(x->O_mw, Om, sizeof Om);
		num_dec_format(x->L_mw, Lm, sizeof Lm);
		if (!f) {
			uj_obj(j, NULL);
			uj_u64(j, "stride", x->stride);
			uj_u64(j, "o_mw", x->o_mw);
			uj_raw(j, "O_mw", Om);
			uj_u64(j, "l_mw", x->l_mw);
			uj_raw(j, "L_mw", Lm);
			uj_end(j);
		} else
			fprintf(f, "stride %" PRIu64 " o_mw=%" PRIu64 " O_mw=%s l_mw=%" PRIu64 " L_mw=%s\n",
			        x->stride, x->o_mw, Om, x->l_mw, Lm);
	}
}

/* The "range FIRST..LAST L=.. o=.." lines of ranges rg[0..n), each after
 * prefix. */
static void print_ranges(FILE *f, const char *prefix, const sim_range *rg, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		fprintf(f, "%srange %" PRIu64 "..", prefix, i ? rg[i - 1].last + 1 : 0);
		if (rg[i].last == UINT64_MAX)
			fprintf(f, "inf ");
		else
			fprintf(f, "%" PRIu64 " ", rg[i].last);
		put_range(f, NULL, &rg[i]);
		fputc('\n', f);
	}
}

/* The members of ranges rg[0..n): the plain values for one, else an array
 * "ranges". */
static void json_ranges(uj *j, const sim_range *rg, uint32_t n)
{
	if (n == 1) {
		put_range(NULL, j, &rg[0]);
		return;
	}
	uj_arr(j, "ranges");
	for (uint32_t i = 0; i < n; i++) {
		uj_obj(j, NULL);
		uj_u64(j, "first", i ? rg[i - 1].last + 1 : 0);
		if (rg[i].last == UINT64_MAX)
			uj_raw(j, "last", "null");
		else
			uj_u64(j, "last", rg[i].last);
		put_range(NULL, j, &rg[i]);
		uj_end(j);
	}
	uj_end(j);
}

/* Whether *ps has parameters within nodes. */
static int has_nodes(const sim_pset *ps)
{
	return ps->p.ranks_per_node >= 2 && ps->p.intra;
}

void sim_pset_print(FILE *f, const sim_pset *ps, uint64_t nranks)
{
	sim_range rg[SIM_MAX_RANGES];
	uint32_t n = sim_pset_ranges(ps, rg);
	if (n == 1) {
		fprintf(f, "LogGOPS ");
		put_range(f, NULL, &rg[0]);
		fprintf(f, " S=%" PRIu64 " P=%" PRIu64 "\n", ps->p.S, nranks);
	} else {
		fprintf(f, "LogGOPS S=%" PRIu64 " P=%" PRIu64 " ranges=%" PRIu32 "\n", ps->p.S, nranks, n);
		print_ranges(f, "", rg, n);
	}
	put_strides(f, NULL, ps);
	if (!has_nodes(ps))
		return;
	n = level_ranges(ps->p.intra, rg);
	fprintf(f, "within nodes of %" PRIu32 " ranks: ", ps->p.ranks_per_node);
	if (n == 1) {
		put_range(f, NULL, &rg[0]);
		fputc('\n', f);
	} else {
		fprintf(f, "ranges=%" PRIu32 "\n", n);
		print_ranges(f, "intra ", rg, n);
	}
}

void sim_pset_json(uj *j, const sim_pset *ps)
{
	sim_range rg[SIM_MAX_RANGES];
	uint32_t n = sim_pset_ranges(ps, rg);
	if (n == 1) {
		json_ranges(j, rg, n);
		uj_u64(j, "S", ps->p.S);
	} else {
		uj_u64(j, "S", ps->p.S);
		json_ranges(j, rg, n);
	}
	if (has_nodes(ps)) {
		uj_u64(j, "ranks_per_node", ps->p.ranks_per_node);
		uj_obj(j, "intra");
		json_ranges(j, rg, level_ranges(ps->p.intra, rg));
		uj_end(j);
	}
	if (ps->p.nstrides) {
		uj_arr(j, "strides");
		put_strides(NULL, j, ps);
		uj_end(j);
	}
}
