/* noise.c: detour tables (read or synthesized), the end of a CPU activity
 * under noise, rank offsets and slowdown factors (noise.h). */
#include "noise.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__extension__ typedef unsigned __int128 u128;

/* Detours [s[i], e[i]) of one period [0, T), sorted, apart (e[i] < s[i+1]),
 * e[i] <= T; b[i] the CPU time they take before detour i (b[n] = D, the
 * total), f[i] = s[i] - b[i] the CPU time left before detour i.  F = T - D
 * > 0 when n > 0.  wrap: the last detour ends at T and the first starts at
 * 0, so across the wrap they are one detour (for the published rule, which
 * counts detours by their starts). */
struct sim_noise {
	uint64_t T, D, F;
	int wrap;
	size_t n;
	uint64_t *s, *e, *b, *f;
};

/* Detours as read, before sorting and merging. */
typedef struct raw {
	uint64_t s, e;
	unsigned line;
} raw;

static int raw_cmp(const void *a, const void *b)
{
	const raw *x = a, *y = b;
	if (x->s != y->s)
		return x->s < y->s ? -1 : 1;
	return (x->line > y->line) - (x->line < y->line);
}

/* Builds the table from r[0..n) (sorted here) and period T (0: the end of
 * the last detour); *overlap counts merged overlaps, *first_line the line
 * of the first.  Returns NULL with a reason in err (prefix pre). */
static sim_noise *build(raw *r, size_t n, uint64_t T, size_t *overlap, unsigned *first_line,
                        const char *pre, char *err, size_t errlen)
{
	size_t m = 0;
	uint64_t maxe = 0;
	*overlap = 0;
	*first_line = 0;
	if (n)
		qsort(r, n, sizeof *r, raw_cmp);
	for (size_t i = 0; i < n; i++) {
		if (r[i].e == r[i].s)
			continue;
		if (m && r[i].s <= r[m - 1].e) {
			if (r[i].s < r[m - 1].e && (*overlap)++ == 0)
				*first_line = r[i].line;
			if (r[i].e > r[m - 1].e)
				r[m - 1].e = r[i].e;
			continue;
		}
		r[m++] = r[i];
	}
	for (size_t i = 0; i < m; i++)
		if (r[i].e > maxe)
			maxe = r[i].e;
	if (T == 0)
		T = maxe;
	else if (maxe > T) {
		snprintf(err, errlen, "%sa detour ends at %llu ns, after the period of %llu ns", pre,
		         (unsigned long long)maxe, (unsigned long long)T);
		return NULL;
	}
	sim_noise *z = calloc(1, sizeof *z);
	uint64_t *mem = malloc((4 * m + 1) * sizeof *mem);
	if (!z || !mem) {
		free(z);
		free(mem);
		snprintf(err, errlen, "%sout of memory", pre);
		return NULL;
	}
	z->n = m;
	z->T = T;
	z->s = mem;
	z->e = mem + m;
	z->f = mem + 2 * m;
	z->b = mem + 3 * m;
	z->b[0] = 0;
	for (size_t i = 0; i < m; i++) {
		z->s[i] = r[i].s;
		z->e[i] = r[i].e;
		z->f[i] = r[i].s - z->b[i];
		z->b[i + 1] = z->b[i] + (r[i].e - r[i].s);
	}
	z->D = z->b[m];
	z->F = T - z->D;
	z->wrap = m > 1 && z->s[0] == 0 && z->e[m - 1] == T;
	if (m && z->F == 0) {
		snprintf(err, errlen, "%sthe detours take all of the CPU time (period %llu ns)", pre,
		         (unsigned long long)T);
		sim_noise_free(z);
		return NULL;
	}
	return z;
}

void sim_noise_free(sim_noise *n)
{
	if (!n)
		return;
	free(n->s);
	free(n);
}

uint64_t sim_noise_period(const sim_noise *n)
{
	return n->T;
}

size_t sim_noise_count(const sim_noise *n)
{
	return n->n;
}

uint64_t sim_noise_busy(const sim_noise *n)
{
	return n->D;
}

uint64_t sim_noise_share(const sim_noise *n)
{
	return n->T ? (uint64_t)(((u128)n->D * 10000 + n->T / 2) / n->T) : 0;
}

/* ---- Reading a trace ------------------------------------------------------ */

/* A time in ns at *p: digits, optionally '.' and digits, rounded half up.
 * Returns 0 and moves *p past it, or -1 (not a number, or 2^64 or more). */
static int scan_ns(const char **p, uint64_t *v)
{
	const char *q = *p;
	uint64_t x = 0;
	if (!isdigit((unsigned char)*q))
		return -1;
	for (; isdigit((unsigned char)*q); q++) {
		if (x > (UINT64_MAX - (uint64_t)(*q - '0')) / 10)
			return -1;
		x = 10 * x + (uint64_t)(*q - '0');
	}
	if (*q == '.') {
		q++;
		if (!isdigit((unsigned char)*q))
			return -1;
		if (*q >= '5') {
			if (x == UINT64_MAX)
				return -1;
			x++;
		}
		while (isdigit((unsigned char)*q))
			q++;
	}
	*p = q;
	*v = x;
	return 0;
}

/* Largest noise trace read: 1 GiB. */
#define NOISE_FILE_MAX ((size_t)1 << 30)

static const char *skip_blanks(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\r')
		p++;
	return p;
}

sim_noise *sim_noise_read(const char *path, sim_noise_warn *warn, void *wctx,
                          char *err, size_t errlen)
{
	size_t len;
	char *text = NULL;
	sim_noise *z;
	if (util_read_file(path, NOISE_FILE_MAX, &text, &len, err, errlen))
		return NULL;
	z = sim_noise_parse(path, text, len, warn, wctx, err, errlen);
	free(text);
	return z;
}

sim_noise *sim_noise_parse(const char *path, const char *input, size_t len,
                           sim_noise_warn *warn, void *wctx, char *err, size_t errlen)
{
	char *text = malloc(len + 1);
	raw *r = NULL;
	size_t n = 0, cap = 0, overlap;
	uint64_t T = 0;
	unsigned line = 0, first;
	char pre[600];
	sim_noise *z = NULL;
	if (!text) {
		snprintf(err, errlen, "%s: error: out of memory", path);
		return NULL;
	}
	memcpy(text, input, len);
	text[len] = 0;
	if (memchr(text, 0, len)) {
		snprintf(err, errlen, "%s: error: not a text file (a NUL byte)", path);
		goto out;
	}
	for (char *p = text; p < text + len;) {
		char *eol = memchr(p, '\n', (size_t)(text + len - p));
		const char *q;
		if (eol)
			*eol = 0;
		line++;
		q = skip_blanks(p);
		if (strncmp(q, "# period:", 9) == 0) {
			q = skip_blanks(q + 9);
			if (scan_ns(&q, &T) || *skip_blanks(q) || T == 0) {
				snprintf(err, errlen, "%s:%u:%d: error: expected '# period: T' with T in ns "
				         "above 0", path, line, (int)(q - p) + 1);
				goto out;
			}
		} else if (*q && *q != '#') {
			uint64_t s, d;
			const char *q0 = q;
			if (scan_ns(&q, &s)) {
				snprintf(err, errlen, "%s:%u:%d: error: expected the start of a detour in ns "
				         "(START DURATION)", path, line, (int)(q0 - p) + 1);
				goto out;
			}
			q0 = q;
			q = skip_blanks(q);
			if (q == q0 || scan_ns(&q, &d)) {
				snprintf(err, errlen, "%s:%u:%d: error: expected the duration of the detour "
				         "in ns after its start and a blank", path, line, (int)(q - p) + 1);
				goto out;
			}
			q = skip_blanks(q);
			if (*q && *q != '#') {
				snprintf(err, errlen, "%s:%u:%d: error: unexpected text after the duration",
				         path, line, (int)(q - p) + 1);
				goto out;
			}
			if (d > UINT64_MAX - s) {
				snprintf(err, errlen, "%s:%u:1: error: the detour ends at 2^64 ns or later",
				         path, line);
				goto out;
			}
			if (util_grow(&r, &cap, n + 1, sizeof *r)) {
				snprintf(err, errlen, "%s: error: out of memory", path);
				goto out;
			}
			r[n].s = s;
			r[n].e = s + d;
			r[n].line = line;
			n++;
		}
		if (!eol)
			break;
		p = eol + 1;
	}
	snprintf(pre, sizeof pre, "%s: error: ", path);
	z = build(r, n, T, &overlap, &first, pre, err, errlen);
	if (z && warn) {
		char msg[700];
		if (overlap) {
			snprintf(msg, sizeof msg, "%s:%u:1: warning: this detour overlaps the one before "
			         "it; merged%s", path, first, overlap > 1 ? " (and more overlaps)" : "");
			warn(wctx, msg);
		}
		if (z->n == 0) {
			snprintf(msg, sizeof msg, "%s: warning: no detours in the noise trace: no noise",
			         path);
			warn(wctx, msg);
		}
	}
out:
	free(r);
	free(text);
	return z;
}

/* ---- Synthetic tables ----------------------------------------------------- */

/* An exponential variate of the given mean, rounded half up to ns; *st is
 * the generator's state. */
static uint64_t draw_exp(uint64_t *st, double mean)
{
	*st = util_mix64(*st);
	double u = (double)(*st >> 11) * 0x1p-53, x = -log1p(-u) * mean + 0.5;
	return x >= 0x1p63 ? (uint64_t)1 << 63 : (uint64_t)x;
}

/* A decimal of spec at *p up to stop (a char or 0); moves *p past it. */
static int spec_dec(const char **p, char stop, num_dec *v)
{
	const char *e = stop ? strchr(*p, stop) : *p + strlen(*p);
	if (!e || num_dec_parse(*p, (size_t)(e - *p), NUM_FRAC_MAX, v) != NUM_OK)
		return -1;
	*p = e + (stop ? 1 : 0);
	return 0;
}

/* An integer number of ns of spec at *p up to the end. */
static int spec_ns(const char *p, uint64_t *v)
{
	return num_u64_parse(p, strlen(p), v) == NUM_OK ? 0 : -1;
}

#define POISSON_DETOURS 65536

sim_noise *sim_noise_synth(const char *spec, char *err, size_t errlen)
{
	const char *p;
	num_dec f;
	size_t overlap;
	unsigned first;
	if (strncmp(spec, "periodic:", 9) == 0) {
		uint64_t d;
		raw r = { 0, 0, 0 };
		p = spec + 9;
		if (spec_dec(&p, ',', &f) || f.num == 0 || spec_ns(p, &d)) {
			snprintf(err, errlen, "--noise: expected periodic:FREQ_HZ,DURATION_NS (FREQ above "
			         "0), not '%s'", spec);
			return NULL;
		}
		u128 T = ((u128)2000000000u * f.den + f.num) / (2 * (u128)f.num);
		if (T == 0 || d >= T) {
			snprintf(err, errlen, "--noise: %s leaves no CPU time (the period is %llu ns)",
			         spec, (unsigned long long)T);
			return NULL;
		}
		r.e = d;
		return build(&r, 1, (uint64_t)T, &overlap, &first, "--noise: ", err, errlen);
	}
	if (strncmp(spec, "poisson:", 8) == 0) {
		uint64_t d = 0, st = 0x6e6f697365u, t = 0, maxe = 0;
		num_dec mean;
		int expo;
		p = spec + 8;
		if (spec_dec(&p, ',', &f) || f.num == 0)
			goto bad_poisson;
		expo = strncmp(p, "exp:", 4) == 0;
		if (expo)
			p += 4;
		if (expo ? spec_dec(&p, 0, &mean) : spec_ns(p, &d))
			goto bad_poisson;
		double gap = 1e9 * (double)f.den / (double)f.num;
		double dmean = expo ? (double)mean.num / (double)mean.den : 0;
		raw *r = malloc(POISSON_DETOURS * sizeof *r);
		if (!r) {
			snprintf(err, errlen, "--noise: out of memory");
			return NULL;
		}
		for (size_t i = 0; i < POISSON_DETOURS; i++) {
			uint64_t len = expo ? draw_exp(&st, dmean) : d;
			t += draw_exp(&st, gap);
			if (t >= (uint64_t)1 << 62 || len >= (uint64_t)1 << 62) {
				free(r);
				snprintf(err, errlen, "--noise: %s spans more than 2^62 ns", spec);
				return NULL;
			}
			r[i].s = t;
			r[i].e = t + len;
			r[i].line = (unsigned)i;
			if (r[i].e > maxe)
				maxe = r[i].e;
		}
		t += draw_exp(&st, gap);
		sim_noise *z = build(r, POISSON_DETOURS, t > maxe ? t : maxe, &overlap, &first,
		                     "--noise: ", err, errlen);
		free(r);
		return z;
	bad_poisson:
		snprintf(err, errlen, "--noise: expected poisson:RATE_HZ,DURATION_NS or "
		         "poisson:RATE_HZ,exp:MEAN_NS (RATE above 0), not '%s'", spec);
		return NULL;
	}
	snprintf(err, errlen, "--noise: expected periodic:FREQ_HZ,DURATION_NS, "
	         "poisson:RATE_HZ,DURATION_NS or poisson:RATE_HZ,exp:MEAN_NS, not '%s'", spec);
	return NULL;
}

/* ---- The end of an activity ----------------------------------------------- */

/* The number of i in [0, n) with v[i] <= x (v sorted). */
static size_t count_le(const uint64_t *v, size_t n, uint64_t x)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid] <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* CPU time in [0, u) of one period, u in [0, T). */
static uint64_t free_at(const sim_noise *z, uint64_t u)
{
	size_t k = count_le(z->s, z->n, u);
	if (k == 0)
		return u;
	if (u < z->e[k - 1])
		return z->f[k - 1];
	return u - z->b[k];
}

/* The first position of one period with CPU time w in [0, it), w in
 * [1, F]: past every detour that starts with less CPU time before it. */
static uint64_t pos_of(const sim_noise *z, uint64_t w)
{
	return w + z->b[count_le(z->f, z->n, w - 1)];
}

/* Busy time of the detours that start before x (x from the origin of a
 * period, any number of periods on). */
static u128 busy_before(const sim_noise *z, u128 x)
{
	u128 q = x / z->T;
	uint64_t r = (uint64_t)(x % z->T);
	return q * z->D + z->b[r ? count_le(z->s, z->n, r - 1) : 0];
}

int sim_noise_end(const sim_noise *z, sim_noise_rule rule, uint64_t off, uint64_t t,
                  uint64_t d, uint64_t *end)
{
	u128 x, res;
	uint64_t u;
	if (d == 0 || z->n == 0) {
		if (d > UINT64_MAX - t)
			return -1;
		*end = t + d;
		return 0;
	}
	x = (u128)t + off;
	u = (uint64_t)(x % z->T);
	if (rule == SIM_NOISE_PUBLISHED) {
		size_t k = count_le(z->s, z->n, u);
		u128 extra = k && u < z->e[k - 1] ? z->e[k - 1] - u : 0;
		/* the detours that start in (u, u + d) */
		extra += busy_before(z, (u128)u + d) - busy_before(z, (u128)u + 1);
		if (z->wrap) {
			/* the first detour of a period continues the last one of the
			 * period before: its length goes with the last one's start */
			uint64_t e0 = z->e[0], sl = z->s[z->n - 1];
			u128 hi = (u128)u + d;                       /* starts in (u, hi) */
			u128 c0 = (hi - 1) / z->T;                   /* at T, 2T, ... < hi */
			u128 c1 = hi > sl ? (hi - 1 - sl) / z->T + 1 : 0;
			if (u >= sl)                                 /* those at or before u */
				c1 -= (u - sl) / z->T + 1 < c1 ? (u - sl) / z->T + 1 : c1;
			extra += c1 * e0;
			extra -= c0 * e0;   /* busy_before counted these, 0 <= extra */
			if (k == z->n && u < z->e[k - 1])            /* under way: the last */
				extra += e0;
		}
		res = (u128)t + d + extra;
	} else {
		u128 v = (u128)free_at(z, u) + d;
		u128 q = (v - 1) / z->F;
		uint64_t w = (uint64_t)(v - q * z->F);
		res = x - u + q * z->T + pos_of(z, w) - off;
	}
	if (res > UINT64_MAX)
		return -1;
	*end = (uint64_t)res;
	return 0;
}

void sim_noise_each(const sim_noise *z, sim_noise_rule rule, uint64_t off, uint64_t t,
                    uint64_t d, uint64_t end, size_t max,
                    void (*fn)(void *ctx, uint64_t s, uint64_t e), void *ctx)
{
	u128 x, base, stop;
	size_t i;
	int pub = rule == SIM_NOISE_PUBLISHED;
	if (z->n == 0 || end <= t)
		return;
	x = (u128)t + off;
	base = x - x % z->T;
	/* exact: up to the end; published: the detours that start before t + d
	 * (and the continuation of the last one across the wrap) */
	stop = (u128)(pub ? t + d : end) + off;
	/* the first detour of this period that ends after x */
	i = count_le(z->e, z->n, (uint64_t)(x % z->T));
	for (size_t k = 0; k < max; k++) {
		int cont = pub && z->wrap && i == z->n && k > 0;
		if (i == z->n) {
			i = 0;
			base += z->T;
		}
		u128 s = base + z->s[i], e = base + z->e[i];
		if (s >= stop && !cont)
			return;
		if (!pub && e > stop)
			e = stop;
		fn(ctx, (uint64_t)((s > x ? s : x) - off), (uint64_t)(e - off));
		i++;
	}
}

uint64_t sim_perturb_offset(const sim_perturb *p, uint64_t r)
{
	uint64_t T = p->noise->T, h;
	if (T == 0)
		return 0;
	if (p->offsets == SIM_OFFSETS_FIXED)
		return p->offset % T;
	h = util_mix64(util_mix64(p->seed) ^ (p->offsets == SIM_OFFSETS_COSCHED ? UINT64_MAX : r));
	return (uint64_t)(((u128)h * T) >> 64);
}

/* ---- Slow ranks ----------------------------------------------------------- */

int sim_slow_parse(const char *text, sim_slow **v, size_t *n, size_t *cap,
                   char *err, size_t errlen)
{
	const char *colon = strrchr(text, ':');
	char list[256];
	uint64_t *rg = NULL;
	size_t nrg = 0;
	num_dec f;
	if (!colon || (size_t)(colon - text) >= sizeof list || colon == text) {
		snprintf(err, errlen, "--slow: expected RANKS:FACTOR (e.g. 0,17-31:1.5), not '%s'",
		         text);
		return -1;
	}
	if (num_dec_parse(colon + 1, strlen(colon + 1), NUM_FRAC_MAX, &f) != NUM_OK || f.num == 0) {
		snprintf(err, errlen, "--slow: the factor must be a number above 0 (at most 9 "
		         "decimals), not '%s'", colon + 1);
		return -1;
	}
	memcpy(list, text, (size_t)(colon - text));
	list[colon - text] = 0;
	if (num_ranks_parse(list, &rg, &nrg, err, errlen)) {
		char why[300];
		snprintf(why, sizeof why, "%s", err);
		snprintf(err, errlen, "--slow: %s", why);
		return -1;
	}
	for (size_t k = 0; k < nrg; k++) {
		uint64_t lo = rg[2 * k], hi = rg[2 * k + 1];
		size_t at = 0;
		while (at < *n && (*v)[at].hi < lo)
			at++;
		if (at < *n && (*v)[at].lo <= hi) {
			uint64_t r = lo > (*v)[at].lo ? lo : (*v)[at].lo;
			snprintf(err, errlen, "--slow: rank %llu is in two --slow lists",
			         (unsigned long long)r);
			free(rg);
			return -1;
		}
		if (util_grow(v, cap, *n + 1, sizeof **v)) {
			free(rg);
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		memmove(*v + at + 1, *v + at, (*n - at) * sizeof **v);
		(*v)[at].lo = lo;
		(*v)[at].hi = hi;
		(*v)[at].factor = f;
		(*n)++;
	}
	free(rg);
	return 0;
}

int sim_slow_apply(num_dec f, uint64_t x, uint64_t *out)
{
	u128 v = (u128)x * f.num;
	if (f.den != 1)
		v = (2 * v + f.den) / (2 * (u128)f.den);
	if (v > UINT64_MAX)
		return -1;
	*out = (uint64_t)v;
	return 0;
}
