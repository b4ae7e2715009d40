/* sweep_spec.c: the sweep language: the compact form and sweep files into
 * the sets of a sweep, and each set's parameters (docs/sweep.md "The
 * sets"). */
#include "sweep.h"
#include "kmap.h"
#include "util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

void sweep_free(sweep *sw)
{
	for (size_t i = 0; i < sw->npf; i++)
		free(sw->pf[i].path);
	free(sw->pf);
	for (size_t i = 0; i < sw->nplaces; i++)
		free(sw->places[i]);
	free(sw->places);
	free(sw->set);
	sw->set = NULL;
	sw->pf = NULL;
	sw->places = NULL;
	sw->n = sw->cap = sw->npf = sw->cap_pf = sw->nplaces = sw->cap_places = 0;
}

/* The placement text[0..len) kept once in sw (a sweep names few, so a
 * linear search): its copy, or NULL when out of memory. */
static const char *place_get(sweep *sw, const char *text, size_t len)
{
	for (size_t i = 0; i < sw->nplaces; i++)
		if (strlen(sw->places[i]) == len && memcmp(sw->places[i], text, len) == 0)
			return sw->places[i];
	if (util_grow(&sw->places, &sw->cap_places, sw->nplaces + 1, sizeof *sw->places))
		return NULL;
	char *c = malloc(len + 1);
	if (!c)
		return NULL;
	memcpy(c, text, len);
	c[len] = '\0';
	return sw->places[sw->nplaces++] = c;
}

/* The parameters of file path, read at its first use (a sweep names few
 * files, so a linear search).  NULL with the reason in err. */
static const sim_pset *pfile_get(sweep *sw, const char *path, char *err, size_t errlen)
{
	for (size_t i = 0; i < sw->npf; i++)
		if (strcmp(sw->pf[i].path, path) == 0)
			return &sw->pf[i].ps;
	if (sw->npf >= 64) {
		snprintf(err, errlen, "more than 64 parameter files");
		return NULL;
	}
	if (util_grow(&sw->pf, &sw->cap_pf, sw->npf + 1, sizeof *sw->pf)) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	sweep_pfile *f = &sw->pf[sw->npf];
	if (!(f->path = strdup(path))) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (sim_pset_read(path, &f->ps, err, errlen)) {
		free(f->path);
		return NULL;
	}
	sw->npf++;
	return &f->ps;
}

/* A new zeroed set at the end of sw: its address, or NULL when out of
 * memory. */
static sweep_set *add_set(sweep *sw)
{
	if (util_grow(&sw->set, &sw->cap, sw->n + 1, sizeof *sw->set))
		return NULL;
	sweep_set *x = &sw->set[sw->n++];
	memset(x, 0, sizeof *x);
	return x;
}

long sweep_find(const sweep *sw, const char *name)
{
	for (size_t i = 0; i < sw->n; i++)
		if (strcmp(sw->set[i].name, name) == 0)
			return (long)i;
	return -1;
}

/* ---- Compact form ------------------------------------------------------ */

/* The axes (and seen[] indices) of the seed and the placement, after the
 * parameters. */
#define AX_SEED SIM_NPARAMS
#define AX_PLACE (SIM_NPARAMS + 1)
#define NAXES (SIM_NPARAMS + 2)

/* The name of axis k. */
static const char *axis_name(int k)
{
	return k == AX_SEED ? "seed" : k == AX_PLACE ? "place" : sim_pname_str((sim_pname)k);
}

/* The axis named w[0..len): k, or -1. */
static int axis_find(const char *w, size_t len)
{
	if (len == 4 && memcmp(w, "seed", 4) == 0)
		return AX_SEED;
	if (len == 5 && memcmp(w, "place", 5) == 0)
		return AX_PLACE;
	return sim_pname_find(w, len);
}

/* One axis of the compact form: a parameter and its values (a placement's
 * in place), each with its label in set names. */
typedef struct axis_val {
	sim_px x;
	const char *place;
	char label[48];
} axis_val;

typedef struct axis {
	int k;
	size_t n, cap;
	axis_val *v;
} axis;

/* The label of value x: "1000", "0.4", "*10", "G". */
static void px_label(const sim_px *x, char *buf, size_t n)
{
	if (x->kind == SIM_PX_MUL)
		snprintf(buf, n, "*%" PRIu64, x->v.num);
	else if (x->kind == SIM_PX_COPY)
		snprintf(buf, n, "%s", sim_pname_str((sim_pname)x->from));
	else
		num_dec_format(x->v, buf, n);
}

/* Add value x to a: 0, or -1 with the reason in err. */
static int add_value(axis *a, const sim_px *x, char *err, size_t errlen)
{
	if (a->n >= SWEEP_MAX_SETS) {
		snprintf(err, errlen, "more than %d sets", SWEEP_MAX_SETS);
		return -1;
	}
	if (util_grow(&a->v, &a->cap, a->n + 1, sizeof *a->v)) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	a->v[a->n].x = *x;
	px_label(x, a->v[a->n].label, sizeof a->v[a->n].label);
	a->n++;
	return 0;
}

/* Expand the range item (num.h: "A..B*F", "A..B+D", "A..B", "A..B:D") of
 * parameter k into a.  A seed range "A..B" is every seed from A to B (as
 * "A..B:1"), not a doubling. */
static int expand_range(axis *a, int k, const char *item, char *err, size_t errlen)
{
	num_range r;
	num_range_it it;
	sim_px x;
	char every[128];
	const char *given = item;   /* for the messages */
	if (k == AX_SEED && !strpbrk(item, "*+:") && strlen(item) + 3 <= sizeof every) {
		snprintf(every, sizeof every, "%s:1", item);
		item = every;
	}
	/* Sizes (S) and times (L, o, g) take units: the range in plain integers. */
	char plain[160];
	num_err e = NUM_OK;
	if (k == SIM_P_S || k == SIM_P_L || k == SIM_P_o || k == SIM_P_g) {
		e = num_range_units(item, strlen(item), k == SIM_P_S, plain, sizeof plain);
		item = plain;
	}
	if (e == NUM_OK)
		e = num_range_parse(item, strlen(item),
		                    k == AX_SEED ? 0 : sim_pname_frac((sim_pname)k), &r);
	else if (e != NUM_BIG)
		e = NUM_RANGE;
	if (e == NUM_RANGE) {
		snprintf(err, errlen, "bad range '%s': %s with numbers for %s", given,
		         num_err_str(e), axis_name(k));
		return -1;
	}
	if (e == NUM_EMPTY) {
		snprintf(err, errlen, "range '%s' is empty (it ends below its start)", given);
		return -1;
	}
	if (e) {
		snprintf(err, errlen, "range '%s': %s", given, num_err_str(e));
		return -1;
	}
	memset(&x, 0, sizeof x);
	x.kind = SIM_PX_SET;
	for (num_range_begin(&r, &it); num_range_next(&r, &it, &x.v);)
		if (add_value(a, &x, err, errlen))
			return -1;
	return 0;
}

/* Parse one axis word "K=ITEM,ITEM,..." into a (placements kept in sw). */
static int parse_axis(axis *a, sweep *sw, const char *word, size_t len, const int *seen,
                      char *err, size_t errlen)
{
	char w[4096];
	if (len >= sizeof w) {
		snprintf(err, errlen, "'%.40s...' is too long", word);
		return -1;
	}
	memcpy(w, word, len);
	w[len] = 0;
	char *eq = strchr(w, '=');
	if (!eq || eq == w || !eq[1]) {
		snprintf(err, errlen, "expected NAME=VALUES, got '%s'", w);
		return -1;
	}
	int k = axis_find(w, (size_t)(eq - w));
	if (k < 0) {
		*eq = 0;
		snprintf(err, errlen, "unknown parameter '%s' (expected L, o, g, G, O, S, seed or place)", w);
		return -1;
	}
	if (seen[k]) {
		snprintf(err, errlen, "%s given twice", axis_name(k));
		return -1;
	}
	a->k = k;
	for (char *item = eq + 1, *next; item; item = next) {
		next = strchr(item, ',');
		if (next)
			*next++ = 0;
		if (!*item) {
			snprintf(err, errlen, "empty value in '%.*s'", (int)len, word);
			return -1;
		}
		if (k == AX_PLACE) {
			sim_px none = { .v.den = 1 };   /* labelled below */
			size_t il = strlen(item);
			if (il >= sizeof a->v->label) {
				snprintf(err, errlen, "placement '%.40s...' is longer than %zu bytes (name it"
				         " in a sweep file)", item, sizeof a->v->label - 1);
				return -1;
			}
			if (add_value(a, &none, err, errlen))
				return -1;
			if (!(a->v[a->n - 1].place = place_get(sw, item, il))) {
				snprintf(err, errlen, "out of memory");
				return -1;
			}
			memcpy(a->v[a->n - 1].label, item, il + 1);
			continue;
		}
		if (num_is_range(item, strlen(item))) {
			if (expand_range(a, k, item, err, errlen))
				return -1;
			continue;
		}
		sim_px x;
		if (k == AX_SEED) {
			memset(&x, 0, sizeof x);
			x.kind = SIM_PX_SET;
			x.v.den = 1;
			if (num_u64_parse(item, strlen(item), &x.v.num)) {
				snprintf(err, errlen, "seed needs a non-negative integer, not '%s'", item);
				return -1;
			}
			if (add_value(a, &x, err, errlen))
				return -1;
			continue;
		}
		if (sim_px_parse((sim_pname)k, item, &x, err, errlen) || add_value(a, &x, err, errlen))
			return -1;
	}
	return 0;
}

int sweep_parse_compact(const char *spec, sweep *sw, char *err, size_t errlen)
{
	axis ax[NAXES];
	int seen[NAXES] = { 0 };
	size_t na = 0;
	int rc = -1;
	memset(ax, 0, sizeof ax);
	for (const char *p = spec; *p;) {
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (!*p)
			break;
		size_t len = strcspn(p, " \t\n");
		if (na == NAXES) {
			/* One axis more than there are: one is repeated. */
			axis tmp;
			memset(&tmp, 0, sizeof tmp);
			if (parse_axis(&tmp, sw, p, len, seen, err, errlen) == 0)
				snprintf(err, errlen, "too many parameters");
			free(tmp.v);
			goto out;
		}
		if (parse_axis(&ax[na], sw, p, len, seen, err, errlen)) {
			na++;
			goto out;
		}
		seen[ax[na].k] = 1;
		na++;
		p += len;
	}
	if (na == 0) {
		snprintf(err, errlen, "empty sweep");
		goto out;
	}
	size_t total = 1;
	for (size_t i = 0; i < na; i++) {
		if (total * ax[i].n > SWEEP_MAX_SETS) {
			snprintf(err, errlen, "more than %d sets", SWEEP_MAX_SETS);
			goto out;
		}
		total *= ax[i].n;
	}
	/* The first axis varies slowest, the last fastest. */
	for (size_t idx = 0; idx < total; idx++) {
		sweep_set *x = add_set(sw);
		if (!x) {
			snprintf(err, errlen, "out of memory");
			goto out;
		}
		size_t rem = idx, stride = total, pos = 0;
		for (size_t i = 0; i < na; i++) {
			stride /= ax[i].n;
			size_t j = rem / stride;
			rem %= stride;
			if (ax[i].k == AX_SEED) {
				x->has_seed = 1;
				x->seed = ax[i].v[j].x.v.num;
			} else if (ax[i].k == AX_PLACE) {
				x->place = ax[i].v[j].place;
			} else {
				x->change.x[ax[i].k] = ax[i].v[j].x;
			}
			int w = snprintf(x->name + pos, sizeof x->name - pos, "%s%s=%s", i ? ":" : "",
			                 axis_name(ax[i].k), ax[i].v[j].label);
			if (w < 0 || (size_t)w >= sizeof x->name - pos) {
				snprintf(err, errlen, "set name longer than %d bytes", SWEEP_NAME_MAX - 1);
				goto out;
			}
			pos += (size_t)w;
		}
	}
	rc = 0;
out:
	for (size_t i = 0; i < na; i++) {
		free(ax[i].v);
	}
	return rc;
}

/* ---- Sweep files ----------------------------------------------------------- */

#define FERR(col, ...) do { \
	int n_ = snprintf(err, errlen, "%s:%zu:%zu: error: ", name, line, (size_t)(col)); \
	if (n_ > 0 && (size_t)n_ < errlen) \
		snprintf(err + n_, errlen - (size_t)n_, __VA_ARGS__); \
	return -1; \
} while (0)

static int parse_file(const char *name, const char *text, size_t len, sweep *sw,
                      util_kmap *names, char *err, size_t errlen)
{
	size_t line = 0;
	for (size_t ls = 0; ls < len;) {
		size_t le = ls;
		while (le < len && text[le] != '\n')
			le++;
		line++;
		size_t end = ls;
		while (end < le && text[end] != '#')
			end++;
		sweep_set *x = NULL;
		int seen[NAXES] = { 0 };
		for (size_t p = ls; p < end;) {
			if (text[p] == ' ' || text[p] == '\t' || text[p] == '\r') {
				p++;
				continue;
			}
			size_t we = p;
			while (we < end && text[we] != ' ' && text[we] != '\t' && text[we] != '\r')
				we++;
			size_t wl = we - p, col = p - ls + 1;
			const char *w = text + p;
			const char *eq = memchr(w, '=', wl);
			if (!x) {
				if (eq)
					FERR(col, "expected a set name first, got '%.*s'", (int)wl, w);
				for (size_t i = 0; i < wl; i++)
					if (w[i] == ',' || w[i] == '"' || (unsigned char)w[i] < ' ')
						FERR(col + i, "a set name may not contain ',', '\"' or control characters");
				if (wl >= SWEEP_NAME_MAX)
					FERR(col, "set name longer than %d bytes", SWEEP_NAME_MAX - 1);
				char nm[SWEEP_NAME_MAX];
				memcpy(nm, w, wl);
				nm[wl] = 0;
				if (util_kmap_get(names, nm, wl))
					FERR(col, "set '%s' defined twice", nm);
				if (util_kmap_put(names, nm, wl, (uint32_t)sw->n))
					FERR(col, "out of memory");
				if (sw->n >= SWEEP_MAX_SETS)
					FERR(col, "more than %d sets", SWEEP_MAX_SETS);
				x = add_set(sw);
				if (!x)
					FERR(col, "out of memory");
				memcpy(x->name, nm, wl + 1);
			} else if (eq && (size_t)(eq - w) == 6 && memcmp(w, "params", 6) == 0 &&
			           eq + 1 < w + wl) {
				char path[4096], e[1024];
				size_t pl = wl - 7;
				if (x->own)
					FERR(col, "params given twice");
				if (pl >= sizeof path)
					FERR(col + 7, "file name too long");
				memcpy(path, eq + 1, pl);
				path[pl] = 0;
				if (!(x->own = pfile_get(sw, path, e, sizeof e)))
					FERR(col + 7, "cannot use the parameter file: %s", e);
			} else if (eq && (size_t)(eq - w) == 4 && memcmp(w, "seed", 4) == 0) {
				if (seen[AX_SEED])
					FERR(col, "seed given twice");
				seen[AX_SEED] = 1;
				if (num_u64_parse(eq + 1, wl - 5, &x->seed))
					FERR(col + 5, "seed needs a non-negative integer, not '%.*s'",
					     (int)(wl - 5), eq + 1);
				x->has_seed = 1;
			} else if (eq && (size_t)(eq - w) == 5 && memcmp(w, "place", 5) == 0 &&
			           eq + 1 < w + wl) {
				if (seen[AX_PLACE])
					FERR(col, "place given twice");
				seen[AX_PLACE] = 1;
				if (!(x->place = place_get(sw, eq + 1, wl - 6)))
					FERR(col, "out of memory");
			} else {
				if (!eq || eq == w || eq == w + wl - 1)
					FERR(col, "expected NAME=VALUE, got '%.*s'", (int)wl, w);
				int k = sim_pname_find(w, (size_t)(eq - w));
				if (k < 0)
					FERR(col, "unknown parameter '%.*s' (expected L, o, g, G, O, S, "
					     "params, seed or place)", (int)(eq - w), w);
				if (seen[k])
					FERR(col, "%s given twice", sim_pname_str((sim_pname)k));
				seen[k] = 1;
				char val[64], e[256];
				size_t vl = wl - (size_t)(eq + 1 - w);
				if (vl >= sizeof val)
					FERR(col + (size_t)(eq + 1 - w), "value too long");
				memcpy(val, eq + 1, vl);
				val[vl] = 0;
				if (sim_px_parse((sim_pname)k, val, &x->change.x[k], e, sizeof e))
					FERR(col + (size_t)(eq + 1 - w), "%s", e);
			}
			p = we;
		}
		ls = le + 1;
	}
	if (sw->n == 0) {
		snprintf(err, errlen, "%s: error: no parameter sets", name);
		return -1;
	}
	return 0;
}

int sweep_parse_file(const char *name, const char *text, size_t len, sweep *sw,
                     char *err, size_t errlen)
{
	util_kmap names = { 0 };   /* set names, hashed: a linear parse */
	int rc = parse_file(name, text, len, sw, &names, err, errlen);
	util_kmap_free(&names);
	return rc;
}

int sweep_read_file(const char *path, sweep *sw, char *err, size_t errlen)
{
	char *buf;
	size_t len;
	if (util_read_file(path, 64u << 20, &buf, &len, err, errlen))
		return -1;
	int rc = sweep_parse_file(path, buf, len, sw, err, errlen);
	free(buf);
	return rc;
}

int sweep_set_params(const sweep *sw, size_t i, const sim_pset *base, sim_pset *out,
                     char *err, size_t errlen)
{
	const sweep_set *x = &sw->set[i];
	if (x->own) {
		sim_pset_copy(out, x->own);
		out->p.ranks_per_node = base->p.ranks_per_node;   /* the run's nodes */
		out->p.intra = base->p.intra;
		if (sim_pset_apply(out, &sw->flags, err, errlen))
			return -1;
	} else {
		sim_pset_copy(out, base);
	}
	return sim_pset_apply(out, &x->change, err, errlen);
}
