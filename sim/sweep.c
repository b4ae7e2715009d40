/* sweep.c: parameter sweeps: specifications, threaded runs of one shared
 * schedule, CSV / table / SVG output (docs/sweep.md). */
#include "sweep.h"
#include "kmap.h"
#include "util.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

__extension__ typedef unsigned __int128 sweep_u128;

#define RATE_SCALE 1000000000ull   /* rates in range arithmetic: ns * 10^9 */

static int per_byte(int k)
{
	return k == SIM_P_G || k == SIM_P_O;
}

void sweep_free(sweep *sw)
{
	for (size_t i = 0; i < sw->npf; i++)
		free(sw->pf[i].path);
	free(sw->pf);
	free(sw->set);
	sw->set = NULL;
	sw->pf = NULL;
	sw->n = sw->cap = sw->npf = 0;
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
	if (sw->npf % 8 == 0) {
		sweep_pfile *np = realloc(sw->pf, (sw->npf + 8) * sizeof *np);
		if (!np) {
			snprintf(err, errlen, "out of memory");
			return NULL;
		}
		sw->pf = np;
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
	if (sw->n == sw->cap) {
		size_t nc = sw->cap ? 2 * sw->cap : 16;
		sweep_set *ns = realloc(sw->set, nc * sizeof *ns);
		if (!ns)
			return NULL;
		sw->set = ns;
		sw->cap = nc;
	}
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

/* One axis of the compact form: a parameter and its values. */
typedef struct axis {
	int k;
	size_t n, cap;
	sim_px *v;
	char (*label)[48];
} axis;

static int axis_add(axis *a, const sim_px *x, const char *label)
{
	if (a->n == a->cap) {
		size_t nc = a->cap ? 2 * a->cap : 8;
		sim_px *nv = realloc(a->v, nc * sizeof *nv);
		if (!nv)
			return -1;
		a->v = nv;
		char (*nl)[48] = realloc(a->label, nc * sizeof *nl);
		if (!nl)
			return -1;
		a->label = nl;
		a->cap = nc;
	}
	a->v[a->n] = *x;
	snprintf(a->label[a->n], sizeof a->label[a->n], "%s", label);
	a->n++;
	return 0;
}

/* The label of value x of parameter k: "1000", "0.4", "*10", "G". */
static void px_label(int k, const sim_px *x, char *buf, size_t n)
{
	if (x->kind == SIM_PX_MUL)
		snprintf(buf, n, "*%" PRIu64, x->v.num);
	else if (x->kind == SIM_PX_COPY)
		snprintf(buf, n, "%s", sim_pname_str((sim_pname)x->from));
	else if (per_byte(k))
		sim_rate_format(x->v, buf, n);
	else
		snprintf(buf, n, "%" PRIu64, x->v.num);
}

/* The plain number text of parameter k, scaled (rates times 10^9): 0 or -1. */
static int scaled_value(int k, const char *text, uint64_t *out)
{
	sim_px x;
	char e[256];
	if (sim_px_parse((sim_pname)k, text, &x, e, sizeof e) || x.kind != SIM_PX_SET)
		return -1;
	*out = per_byte(k) ? x.v.num * (RATE_SCALE / x.v.den) : x.v.num;
	return 0;
}

/* Expand the range item "A..B*F" or "A..B+D" of parameter k into a. */
static int expand_range(axis *a, int k, const char *item, char *err, size_t errlen)
{
	char buf[128];
	const char *dots = strstr(item, "..");
	size_t alen = (size_t)(dots - item);
	const char *op = strpbrk(dots + 2, "*+");
	uint64_t A, B, step;
	if (strlen(item) >= sizeof buf || !op)
		goto bad;
	memcpy(buf, item, alen);
	buf[alen] = 0;
	if (scaled_value(k, buf, &A))
		goto bad;
	memcpy(buf, dots + 2, (size_t)(op - dots - 2));
	buf[op - dots - 2] = 0;
	if (scaled_value(k, buf, &B))
		goto bad;
	if (*op == '*') {
		sim_px f;
		char e[256];
		if (sim_px_parse(SIM_P_L, op + 1, &f, e, sizeof e) || f.kind != SIM_PX_SET
		    || f.v.num < 2) {
			snprintf(err, errlen, "range '%s': the factor after '*' must be an integer of at least 2", item);
			return -1;
		}
		step = f.v.num;
		if (A == 0) {
			snprintf(err, errlen, "range '%s': a range with '*' must start above 0", item);
			return -1;
		}
	} else {
		if (scaled_value(k, op + 1, &step))
			goto bad;
		if (step == 0) {
			snprintf(err, errlen, "range '%s': the step after '+' must be above 0", item);
			return -1;
		}
	}
	if (B < A) {
		snprintf(err, errlen, "range '%s' is empty (it ends below its start)", item);
		return -1;
	}
	for (sweep_u128 v = A; v <= B;) {
		sim_px x;
		char label[48];
		memset(&x, 0, sizeof x);
		x.kind = SIM_PX_SET;
		x.v.num = (uint64_t)v;
		x.v.den = 1;
		if (per_byte(k)) {
			x.v.den = RATE_SCALE;
			while (x.v.den > 1 && x.v.num % 10 == 0) {
				x.v.num /= 10;
				x.v.den /= 10;
			}
			if (x.v.num == 0)
				x.v.den = 1;
		}
		if (a->n >= SWEEP_MAX_SETS) {
			snprintf(err, errlen, "more than %d sets", SWEEP_MAX_SETS);
			return -1;
		}
		px_label(k, &x, label, sizeof label);
		if (axis_add(a, &x, label)) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		v = *op == '*' ? v * step : v + step;
	}
	return 0;
bad:
	snprintf(err, errlen, "bad range '%s': expected A..B*F or A..B+D with numbers for %s",
	         item, sim_pname_str((sim_pname)k));
	return -1;
}

/* Parse one axis word "K=ITEM,ITEM,..." into a. */
static int parse_axis(axis *a, const char *word, size_t len, const int *seen,
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
	int k = sim_pname_find(w, (size_t)(eq - w));
	if (k < 0) {
		*eq = 0;
		snprintf(err, errlen, "unknown parameter '%s' (expected L, o, g, G, O or S)", w);
		return -1;
	}
	if (seen[k]) {
		snprintf(err, errlen, "%s given twice", sim_pname_str((sim_pname)k));
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
		if (strstr(item, "..")) {
			if (expand_range(a, k, item, err, errlen))
				return -1;
			continue;
		}
		sim_px x;
		char label[48];
		if (sim_px_parse((sim_pname)k, item, &x, err, errlen))
			return -1;
		px_label(k, &x, label, sizeof label);
		if (a->n >= SWEEP_MAX_SETS || axis_add(a, &x, label)) {
			snprintf(err, errlen, "more than %d sets", SWEEP_MAX_SETS);
			return -1;
		}
	}
	return 0;
}

int sweep_parse_compact(const char *spec, sweep *sw, char *err, size_t errlen)
{
	axis ax[SIM_NPARAMS];
	int seen[SIM_NPARAMS] = { 0 };
	size_t na = 0;
	int rc = -1;
	memset(ax, 0, sizeof ax);
	for (const char *p = spec; *p;) {
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (!*p)
			break;
		size_t len = strcspn(p, " \t\n");
		if (na == SIM_NPARAMS) {
			/* Seven axes: one parameter is repeated. */
			axis tmp;
			memset(&tmp, 0, sizeof tmp);
			if (parse_axis(&tmp, p, len, seen, err, errlen) == 0)
				snprintf(err, errlen, "too many parameters");
			free(tmp.v);
			free(tmp.label);
			goto out;
		}
		if (parse_axis(&ax[na], p, len, seen, err, errlen)) {
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
			x->change.x[ax[i].k] = ax[i].v[j];
			int w = snprintf(x->name + pos, sizeof x->name - pos, "%s%s=%s", i ? ":" : "",
			                 sim_pname_str((sim_pname)ax[i].k), ax[i].label[j]);
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
		free(ax[i].label);
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
		int seen[SIM_NPARAMS] = { 0 };
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
			} else {
				if (!eq || eq == w || eq == w + wl - 1)
					FERR(col, "expected NAME=VALUE, got '%.*s'", (int)wl, w);
				int k = sim_pname_find(w, (size_t)(eq - w));
				if (k < 0)
					FERR(col, "unknown parameter '%.*s' (expected L, o, g, G, O, S "
					     "or params)", (int)(eq - w), w);
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
	FILE *f = fopen(path, "rb");
	if (!f) {
		snprintf(err, errlen, "%s: error: cannot open: %s", path, strerror(errno));
		return -1;
	}
	char *buf;
	size_t len;
	int e = util_read_stream(f, 64u << 20, &buf, &len);
	fclose(f);
	if (e) {
		snprintf(err, errlen, "%s: error: %s", path,
		         e == EFBIG || e == ENOMEM ? "too large" : "read failed");
		return -1;
	}
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
		if (sim_pset_apply(out, &sw->flags, err, errlen))
			return -1;
	} else {
		sim_pset_copy(out, base);
	}
	return sim_pset_apply(out, &x->change, err, errlen);
}

/* ---- Running ---------------------------------------------------------------- */

typedef struct sweep_job {
	const goal_sched *s;
	const sim_pset *base;
	const sweep *sw;
	sweep_result *res;
	size_t part, nparts;
	atomic_size_t next;         /* next index to claim */
	pthread_mutex_t lock;       /* guards err */
	char *err;
	size_t errlen;
	int failed;
} sweep_job;

static double wall_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Run one set; its result into j->res[i]. */
static void run_one(sweep_job *j, size_t i)
{
	sim_pset ps;
	sim_result r;
	char e[512];
	double t0 = wall_now();
	sweep_result *out = &j->res[i];
	sim *m = NULL;
	out->status = SWEEP_FAILED;
	if (sweep_set_params(j->sw, i, j->base, &ps, e, sizeof e) == 0
	    && (m = sim_create(j->s, &ps.p, NULL, e, sizeof e)) != NULL
	    && sim_run(m, &r, e, sizeof e) == 0) {
		out->status = r.complete ? SWEEP_OK : SWEEP_INCOMPLETE;
		out->time = r.time;
		out->host = r.host;
		out->events = r.events;
	}
	sim_destroy(m);
	out->wall = wall_now() - t0;
	if (out->status == SWEEP_FAILED) {
		pthread_mutex_lock(&j->lock);
		if (!j->failed)
			snprintf(j->err, j->errlen, "set '%s': %s", j->sw->set[i].name, e);
		j->failed = 1;
		pthread_mutex_unlock(&j->lock);
	}
}

static void *worker(void *arg)
{
	sweep_job *j = arg;
	for (;;) {
		size_t k = atomic_fetch_add(&j->next, 1);
		size_t i = j->part + k * j->nparts;
		if (i >= j->sw->n)
			break;
		run_one(j, i);
	}
	return NULL;
}

int sweep_run(const goal_sched *s, const sim_pset *base, const sweep *sw,
              size_t part, size_t nparts, unsigned jobs, sweep_result *res,
              char *err, size_t errlen)
{
	sweep_job j;
	size_t mine = part < sw->n ? (sw->n - part + nparts - 1) / nparts : 0;
	memset(res, 0, sw->n * sizeof *res);
	j.s = s;
	j.base = base;
	j.sw = sw;
	j.res = res;
	j.part = part;
	j.nparts = nparts;
	atomic_init(&j.next, 0);
	pthread_mutex_init(&j.lock, NULL);
	j.err = err;
	j.errlen = errlen;
	j.failed = 0;
	if (jobs < 1)
		jobs = 1;
	if (jobs > mine)
		jobs = mine ? (unsigned)mine : 1;
	pthread_t *t = calloc(jobs, sizeof *t);
	unsigned started = 0;
	int rc = 0;
	if (!t) {
		snprintf(err, errlen, "out of memory");
		rc = -1;
	}
	/* One thread runs in the caller; jobs - 1 more. */
	for (unsigned k = 1; t && k < jobs; k++) {
		int e = pthread_create(&t[k], NULL, worker, &j);
		if (e) {
			snprintf(err, errlen, "cannot start a thread: %s", strerror(e));
			rc = -1;
			break;
		}
		started++;
	}
	if (t)
		worker(&j);
	for (unsigned k = 1; k <= started; k++)
		pthread_join(t[k], NULL);
	free(t);
	pthread_mutex_destroy(&j.lock);
	return rc;
}

/* ---- Output ------------------------------------------------------------------ */

static const char *status_word(sweep_status st)
{
	switch (st) {
	case SWEEP_OK: return "ok";
	case SWEEP_INCOMPLETE: return "incomplete";
	case SWEEP_FAILED: return "failed";
	default: return "not-run";
	}
}

/* The relative time of set i to set b as "%.4f" text, or "" when either is
 * not a complete run or the baseline's time is 0. */
static void relative(const sweep_result *res, size_t i, long b, char *buf, size_t n)
{
	buf[0] = 0;
	if (b < 0 || res[i].status != SWEEP_OK || res[b].status != SWEEP_OK || res[b].time == 0)
		return;
	snprintf(buf, n, "%.4f", (double)res[i].time / (double)res[b].time);
}

/* The parameter values of set i as text (vals[k], "?" when the set's
 * parameters cannot be formed). */
static void set_values(const sweep *sw, size_t i, const sim_pset *base,
                       char vals[SIM_NPARAMS][48])
{
	sim_pset ps;
	char e[256];
	if (sweep_set_params(sw, i, base, &ps, e, sizeof e)) {
		for (int k = 0; k < SIM_NPARAMS; k++)
			snprintf(vals[k], 48, "?");
		return;
	}
	for (int k = 0; k < SIM_NPARAMS; k++)
		sim_pset_value(&ps, (sim_pname)k, vals[k], 48);
}

int sweep_write_csv(FILE *f, const goal_sched *s, const sim_pset *base, const sweep *sw,
                    const sweep_result *res, long base_idx, int wall)
{
	fprintf(f, "set,name,P,L,o,g,G,O,S,status,time_ns,host,events,relative,wall_s\n");
	for (size_t i = 0; i < sw->n; i++) {
		if (res[i].status == SWEEP_NOT_RUN)
			continue;
		char vals[SIM_NPARAMS][48], rel[32];
		set_values(sw, i, base, vals);
		relative(res, i, base_idx, rel, sizeof rel);
		fprintf(f, "%zu,%s,%" PRIu64, i + 1, sw->set[i].name, s->nranks);
		for (int k = 0; k < SIM_NPARAMS; k++)
			fprintf(f, ",%s", vals[k]);
		fprintf(f, ",%s", status_word(res[i].status));
		if (res[i].status == SWEEP_OK)
			fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64, res[i].time, res[i].host,
			        res[i].events);
		else
			fprintf(f, ",,,");
		fprintf(f, ",%s,", rel);
		if (wall)
			fprintf(f, "%.3f", res[i].wall);
		fputc('\n', f);
	}
	return ferror(f) ? -1 : 0;
}

int sweep_write_table(FILE *f, const goal_sched *s, const sim_pset *base, const sweep *sw,
                      const sweep_result *res, long base_idx)
{
	enum { NCOL = 11 };
	static const char *const head[NCOL] = { "name", "L", "o", "g", "G", "O", "S",
		"time_ns", "host", "events", "relative" };
	size_t ncol = base_idx >= 0 ? NCOL : NCOL - 1, w[NCOL];
	for (size_t c = 0; c < NCOL; c++)
		w[c] = strlen(head[c]);
	/* Two passes: widths, then the rows. */
	for (int pass = 0; pass < 2; pass++) {
		if (pass) {
			size_t ran = 0;
			for (size_t i = 0; i < sw->n; i++)
				ran += res[i].status != SWEEP_NOT_RUN;
			if (ran == sw->n)
				fprintf(f, "sweep: %zu sets, P=%" PRIu64 "\n", sw->n, s->nranks);
			else
				fprintf(f, "sweep: %zu of %zu sets, P=%" PRIu64 "\n", ran, sw->n, s->nranks);
			for (size_t c = 0; c < ncol; c++)
				fprintf(f, c ? "  %*s" : "%-*s", (int)w[c], head[c]);
			fputc('\n', f);
		}
		for (size_t i = 0; i < sw->n; i++) {
			if (res[i].status == SWEEP_NOT_RUN)
				continue;
			char cell[NCOL][SWEEP_NAME_MAX], vals[SIM_NPARAMS][48];
			_Static_assert(sizeof vals[0] <= sizeof cell[0], "a value fits a cell");
			set_values(sw, i, base, vals);
			memcpy(cell[0], sw->set[i].name, sizeof cell[0]);
			for (int k = 0; k < SIM_NPARAMS; k++)
				memcpy(cell[1 + k], vals[k], sizeof vals[k]);
			if (res[i].status == SWEEP_OK) {
				snprintf(cell[7], sizeof cell[7], "%" PRIu64, res[i].time);
				snprintf(cell[8], sizeof cell[8], "%" PRIu64, res[i].host);
				snprintf(cell[9], sizeof cell[9], "%" PRIu64, res[i].events);
			} else {
				snprintf(cell[7], sizeof cell[7], "%s", status_word(res[i].status));
				cell[8][0] = cell[9][0] = 0;
			}
			relative(res, i, base_idx, cell[10], sizeof cell[10]);
			for (size_t c = 0; c < ncol; c++) {
				size_t l = strlen(cell[c]);
				if (!pass) {
					if (l > w[c])
						w[c] = l;
					continue;
				}
				fprintf(f, c ? "  %*s" : "%-*s", (int)w[c], cell[c]);
			}
			if (pass)
				fputc('\n', f);
		}
	}
	return ferror(f) ? -1 : 0;
}


int sweep_write_svg(FILE *f, const sweep *sw, const sweep_result *res, long base_idx,
                    const char *title)
{
	/* Layout in px: one row per set, labels on the left, bars to the right
	 * from ratio 0, a dashed line at 1 (the baseline). */
	const double row = 26, top = 56, barw = 480, charw = 7.8;
	size_t nrow = 0, maxlab = 0;
	double maxr = 1;
	for (size_t i = 0; i < sw->n; i++) {
		if (res[i].status == SWEEP_NOT_RUN)
			continue;
		nrow++;
		size_t l = strlen(sw->set[i].name);
		if (l > maxlab)
			maxlab = l;
		char rel[32];
		relative(res, i, base_idx, rel, sizeof rel);
		if (rel[0] && atof(rel) > maxr)
			maxr = atof(rel);
	}
	/* Tick step: 1, 2 or 5 times a power of ten, at most 10 ticks. */
	double step = 0.1;
	for (int k = 0; maxr / step > 10; k++)
		step *= (k % 3 == 1) ? 2.5 : 2;
	double axmax = step * (double)(long)(maxr / step + 0.999999);
	if (axmax < maxr)
		axmax += step;
	double left = 16 + charw * (double)maxlab + 12, scale = barw / axmax;
	double width = left + barw + 90, height = top + row * (double)nrow + 40;
	if (width < 32 + 9.2 * (double)strlen(title))   /* the title, 15 px bold */
		width = 32 + 9.2 * (double)strlen(title);
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
	        "viewBox=\"0 0 %.0f %.0f\" font-family=\"monospace\" font-size=\"13\">\n",
	        width, height, width, height);
	fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
	fprintf(f, "<text x=\"%.1f\" y=\"22\" font-size=\"15\" font-weight=\"bold\">", 16.0);
	util_xml_put(f, title);
	fprintf(f, "</text>\n");
	fprintf(f, "<text x=\"%.1f\" y=\"40\" fill=\"#555\">time relative to '", 16.0);
	util_xml_put(f, base_idx >= 0 ? sw->set[base_idx].name : "");
	fprintf(f, "' (1 = same)</text>\n");
	double axy = top + row * (double)nrow + 6;
	for (int t = 0; (double)t * step <= axmax + 1e-9; t++) {
		double x = left + (double)t * step * scale;
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
		        x, top - 4, x, axy);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>\n",
		        x, axy + 16, (double)t * step);
	}
	size_t r = 0;
	for (size_t i = 0; i < sw->n; i++) {
		if (res[i].status == SWEEP_NOT_RUN)
			continue;
		double y = top + row * (double)r++;
		char rel[32];
		relative(res, i, base_idx, rel, sizeof rel);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", left - 8, y + 17);
		util_xml_put(f, sw->set[i].name);
		fprintf(f, "</text>\n");
		if (!rel[0]) {
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" fill=\"#b00\">%s</text>\n", left + 4,
			        y + 17, status_word(res[i].status));
			continue;
		}
		double v = atof(rel), bw = v * scale;
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n",
		        left, y + 4, bw, row - 8, (long)i == base_idx || res[i].time == res[base_idx].time ? "#888"
		        : v > 1 ? "#c0504d" : "#4f81bd");
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">%s</text>\n", left + bw + 6, y + 17, rel);
	}
	double x1 = left + scale;
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\" "
	        "stroke-dasharray=\"4 3\"/>\n", x1, top - 4, x1, axy);
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n",
	        left, axy, left + barw, axy);
	fprintf(f, "</svg>\n");
	return ferror(f) ? -1 : 0;
}
