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
#include <sys/mman.h>
#include <sys/stat.h>

__extension__ typedef unsigned __int128 u128;

/* A detour [s, e), in ns from the start of a period. */
typedef struct det {
	uint64_t s, e;
} det;

/* Detours d[0..n) of one period [0, T), sorted, apart (d[i].e <
 * d[i+1].s), d[i].e <= T; b[i] the CPU time they take before detour i
 * (b[n] = D, the total); d[i].s - b[i] is the CPU time left before detour
 * i.  F = T - D > 0 when n > 0.  wrap: the last detour ends at T and the
 * first starts at 0, so across the wrap they are one detour (for the
 * published rule, which counts detours by their starts).  24 bytes a
 * detour; d is a mapping of dcap detours (only those used take memory). */
struct sim_noise {
	uint64_t T, D, F;
	int wrap;
	size_t n, dcap;
	det *d;
	uint64_t *b;
};

/* ---- Collecting detours --------------------------------------------------
 * Detours come in one at a time, into a mapping sized from the input (a
 * line of a trace holds at most one detour, of 4 bytes or more, so a trace
 * of len bytes holds at most len / 4 + 1): its pages are taken as detours
 * fill them, and no detour is copied.  In order of their starts (as traces
 * are written) they are merged as they come; once one comes out of order
 * the rest are kept as they are, then sorted and merged at the end. */
typedef struct collect {
	det *d;
	size_t n, cap;        /* cap: detours the mapping holds */
	uint64_t last_s;      /* the start of the last one that came */
	int sorted;           /* every one came in order of its start */
	size_t overlap;       /* overlaps merged */
	unsigned first_line;  /* the line of the first, merged in order (0: none) */
	uint64_t first_at;    /* the start of the first found when sorting */
} collect;

static int collect_init(collect *c, size_t cap)
{
	memset(c, 0, sizeof *c);
	c->cap = cap ? cap : 1;
	c->sorted = 1;
	c->d = mmap(NULL, c->cap * sizeof *c->d, PROT_READ | PROT_WRITE,
	            MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (c->d == MAP_FAILED) {
		c->d = NULL;
		return -1;
	}
	return 0;
}

static void collect_free(collect *c)
{
	if (c->d)
		munmap(c->d, c->cap * sizeof *c->d);
	c->d = NULL;
}

/* Detour [s, e) of line (0: not from a trace); 0, or -1 out of memory. */
static int collect_add(collect *c, uint64_t s, uint64_t e, unsigned line)
{
	if (c->n && s < c->last_s)
		c->sorted = 0;
	c->last_s = s;
	if (c->sorted && e == s)
		return 0;
	if (c->sorted && c->n && s <= c->d[c->n - 1].e) {
		det *last = &c->d[c->n - 1];
		if (s < last->e && c->overlap++ == 0)
			c->first_line = line;
		if (e > last->e)
			last->e = e;
		return 0;
	}
	if (c->n == c->cap) {
		void *p = mremap(c->d, c->cap * sizeof *c->d, 2 * c->cap * sizeof *c->d, MREMAP_MAYMOVE);
		if (p == MAP_FAILED)
			return -1;
		c->d = p;
		c->cap *= 2;
	}
	c->d[c->n].s = s;
	c->d[c->n].e = e;
	c->n++;
	return 0;
}

static int det_cmp(const void *a, const void *b)
{
	const det *x = a, *y = b;
	if (x->s != y->s)
		return x->s < y->s ? -1 : 1;
	return (x->e > y->e) - (x->e < y->e);
}

/* The table of the detours of c and period T (0: the end of the last
 * detour), which takes c's mapping.  Returns NULL with a reason in err
 * (prefix pre); c is freed either way. */
static sim_noise *build(collect *c, uint64_t T, const char *pre, char *err, size_t errlen)
{
	size_t m = c->n;
	uint64_t maxe = 0;
	if (!c->sorted) {
		/* Sorted and merged in place: what was merged in order stays so. */
		qsort(c->d, c->n, sizeof *c->d, det_cmp);
		m = 0;
		for (size_t i = 0; i < c->n; i++) {
			det x = c->d[i];
			if (x.e == x.s)
				continue;
			if (m && x.s <= c->d[m - 1].e) {
				if (x.s < c->d[m - 1].e && c->overlap++ == 0)
					c->first_at = x.s;
				if (x.e > c->d[m - 1].e)
					c->d[m - 1].e = x.e;
				continue;
			}
			c->d[m++] = x;
		}
	}
	for (size_t i = 0; i < m; i++)
		if (c->d[i].e > maxe)
			maxe = c->d[i].e;
	if (T == 0)
		T = maxe;
	else if (maxe > T) {
		snprintf(err, errlen, "%sa detour ends at %llu ns, after the period of %llu ns", pre,
		         (unsigned long long)maxe, (unsigned long long)T);
		collect_free(c);
		return NULL;
	}
	sim_noise *z = calloc(1, sizeof *z);
	uint64_t *b = malloc((m + 1) * sizeof *b);
	if (!z || !b) {
		free(z);
		free(b);
		collect_free(c);
		snprintf(err, errlen, "%sout of memory", pre);
		return NULL;
	}
	z->n = m;
	z->T = T;
	z->d = c->d;
	z->dcap = c->cap;
	c->d = NULL;
	z->b = b;
	b[0] = 0;
	for (size_t i = 0; i < m; i++)
		b[i + 1] = b[i] + (z->d[i].e - z->d[i].s);
	z->D = b[m];
	z->F = T - z->D;
	z->wrap = m > 1 && z->d[0].s == 0 && z->d[m - 1].e == T;
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
	if (n->d)
		munmap(n->d, n->dcap * sizeof *n->d);
	free(n->b);
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

/* A trace being read: its detours, its period and where it was set. */
typedef struct reading {
	const char *path;
	collect c;
	uint64_t T;
	unsigned period_line;
} reading;

/* Line number line (p: its text, without the newline, NUL-terminated).
 * Returns 0, or -1 with "FILE:LINE:COL: error: ..." in err. */
static int read_line(reading *rd, const char *p, unsigned line, char *err, size_t errlen)
{
	const char *q = skip_blanks(p), *w;
	if (*q == '#') {
		/* A comment, or the period: '#', 'period', ':' and T, any blanks
		 * between; a comment that starts so but does not go on so is an
		 * error, not a comment. */
		w = skip_blanks(q + 1);
		if (strncmp(w, "period", 6) != 0 || isalnum((unsigned char)w[6]) || w[6] == '_')
			return 0;
		if (rd->period_line) {
			snprintf(err, errlen, "%s:%u:%d: error: a second period (the first is on line %u)",
			         rd->path, line, (int)(q - p) + 1, rd->period_line);
			return -1;
		}
		const char *colon = skip_blanks(w + 6);
		q = *colon == ':' ? skip_blanks(colon + 1) : colon;
		if (*colon != ':' || scan_ns(&q, &rd->T) || *skip_blanks(q) || rd->T == 0) {
			snprintf(err, errlen, "%s:%u:%d: error: expected '# period: T' with T in ns "
			         "above 0", rd->path, line, (int)(q - p) + 1);
			return -1;
		}
		rd->period_line = line;
		return 0;
	}
	if (!*q)
		return 0;
	uint64_t s, d;
	const char *q0 = q;
	if (scan_ns(&q, &s)) {
		snprintf(err, errlen, "%s:%u:%d: error: expected the start of a detour in ns "
		         "(START DURATION)", rd->path, line, (int)(q0 - p) + 1);
		return -1;
	}
	q0 = q;
	q = skip_blanks(q);
	if (q == q0 || scan_ns(&q, &d)) {
		snprintf(err, errlen, "%s:%u:%d: error: expected the duration of the detour "
		         "in ns after its start and a blank", rd->path, line, (int)(q - p) + 1);
		return -1;
	}
	q = skip_blanks(q);
	if (*q && *q != '#') {
		snprintf(err, errlen, "%s:%u:%d: error: unexpected text after the duration",
		         rd->path, line, (int)(q - p) + 1);
		return -1;
	}
	if (d > UINT64_MAX - s) {
		snprintf(err, errlen, "%s:%u:1: error: the detour ends at 2^64 ns or later",
		         rd->path, line);
		return -1;
	}
	if (collect_add(&rd->c, s, s + d, line)) {
		snprintf(err, errlen, "%s: error: out of memory", rd->path);
		return -1;
	}
	return 0;
}

/* The table of what rd read, with its warnings. */
static sim_noise *read_done(reading *rd, sim_noise_warn *warn, void *wctx, char *err,
                            size_t errlen)
{
	char pre[600];
	snprintf(pre, sizeof pre, "%s: error: ", rd->path);
	sim_noise *z = build(&rd->c, rd->T, pre, err, errlen);
	if (z && warn) {
		char msg[700];
		const collect *c = &rd->c;
		if (c->overlap && c->first_line)
			snprintf(msg, sizeof msg, "%s:%u:1: warning: this detour overlaps the one before "
			         "it; merged%s", rd->path, c->first_line, c->overlap > 1 ? " (and more overlaps)" : "");
		else if (c->overlap)
			snprintf(msg, sizeof msg, "%s: warning: the detour that starts at %llu ns overlaps "
			         "the one before it; merged%s", rd->path, (unsigned long long)c->first_at,
			         c->overlap > 1 ? " (and more overlaps)" : "");
		if (c->overlap)
			warn(wctx, msg);
		if (z->n == 0) {
			snprintf(msg, sizeof msg, "%s: warning: no detours in the noise trace: no noise",
			         rd->path);
			warn(wctx, msg);
		}
	}
	return z;
}

static int read_begin(reading *rd, const char *path, size_t len, char *err, size_t errlen)
{
	memset(rd, 0, sizeof *rd);
	rd->path = path;
	if (collect_init(&rd->c, len / 4 + 2)) {
		snprintf(err, errlen, "%s: error: out of memory", path);
		return -1;
	}
	return 0;
}

sim_noise *sim_noise_read(const char *path, sim_noise_warn *warn, void *wctx,
                          char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	struct stat st;
	char *line = NULL;
	size_t lcap = 0;
	ssize_t k;
	unsigned no = 0;
	reading rd;
	if (!f) {
		snprintf(err, errlen, "%s: error: cannot open: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fileno(f), &st) != 0)
		st.st_mode = 0;
	if (S_ISREG(st.st_mode) && (uint64_t)st.st_size >= NOISE_FILE_MAX) {
		snprintf(err, errlen, "%s: error: too large (%zu bytes or more)", path, NOISE_FILE_MAX);
		fclose(f);
		return NULL;
	}
	/* Read a line at a time: the detours are all that stays. */
	if (read_begin(&rd, path, S_ISREG(st.st_mode) ? (size_t)st.st_size : 4096, err, errlen)) {
		fclose(f);
		return NULL;
	}
	size_t total = 0;
	int bad = 0;
	while (!bad && (k = getline(&line, &lcap, f)) > 0) {
		no++;
		total += (size_t)k;
		if (total >= NOISE_FILE_MAX) {
			snprintf(err, errlen, "%s: error: too large (%zu bytes or more)", path, NOISE_FILE_MAX);
			bad = 1;
		} else if (memchr(line, 0, (size_t)k)) {
			snprintf(err, errlen, "%s: error: not a text file (a NUL byte)", path);
			bad = 1;
		} else {
			if (line[k - 1] == '\n')
				line[k - 1] = 0;
			bad = read_line(&rd, line, no, err, errlen) != 0;
		}
	}
	if (!bad && ferror(f)) {
		snprintf(err, errlen, "%s: error: cannot read: %s", path, strerror(errno ? errno : EIO));
		bad = 1;
	}
	free(line);
	fclose(f);
	if (bad) {
		collect_free(&rd.c);
		return NULL;
	}
	return read_done(&rd, warn, wctx, err, errlen);
}

sim_noise *sim_noise_parse(const char *path, const char *input, size_t len,
                           sim_noise_warn *warn, void *wctx, char *err, size_t errlen)
{
	reading rd;
	char *line = NULL;
	size_t lcap = 0;
	unsigned no = 0;
	if (memchr(input, 0, len)) {
		snprintf(err, errlen, "%s: error: not a text file (a NUL byte)", path);
		return NULL;
	}
	if (read_begin(&rd, path, len, err, errlen))
		return NULL;
	for (const char *p = input; p < input + len;) {
		const char *eol = memchr(p, '\n', (size_t)(input + len - p));
		size_t n = (size_t)((eol ? eol : input + len) - p);
		if (util_grow(&line, &lcap, n + 1, 1)) {
			snprintf(err, errlen, "%s: error: out of memory", path);
			goto bad;
		}
		memcpy(line, p, n);
		line[n] = 0;
		if (read_line(&rd, line, ++no, err, errlen))
			goto bad;
		if (!eol)
			break;
		p = eol + 1;
	}
	free(line);
	return read_done(&rd, warn, wctx, err, errlen);
bad:
	free(line);
	collect_free(&rd.c);
	return NULL;
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

/* A whole number of ns of spec at *p up to the end ("25000", "25us"). */
static int spec_ns(const char *p, uint64_t *v)
{
	return num_ns_parse(p, strlen(p), v) == NUM_OK ? 0 : -1;
}

#define POISSON_DETOURS 65536

sim_noise *sim_noise_synth(const char *spec, char *err, size_t errlen)
{
	const char *p;
	num_dec f;
	collect c;
	if (strncmp(spec, "periodic:", 9) == 0) {
		uint64_t d;
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
		if (collect_init(&c, 1) || collect_add(&c, 0, d, 0)) {
			collect_free(&c);
			snprintf(err, errlen, "--noise: out of memory");
			return NULL;
		}
		return build(&c, (uint64_t)T, "--noise: ", err, errlen);
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
		if (collect_init(&c, POISSON_DETOURS)) {
			snprintf(err, errlen, "--noise: out of memory");
			return NULL;
		}
		for (size_t i = 0; i < POISSON_DETOURS; i++) {
			uint64_t len = expo ? draw_exp(&st, dmean) : d;
			t += draw_exp(&st, gap);
			if (t >= (uint64_t)1 << 62 || len >= (uint64_t)1 << 62) {
				collect_free(&c);
				snprintf(err, errlen, "--noise: %s spans more than 2^62 ns", spec);
				return NULL;
			}
			collect_add(&c, t, t + len, 0);   /* in order: within the mapping */
			if (t + len > maxe)
				maxe = t + len;
		}
		t += draw_exp(&st, gap);
		return build(&c, t > maxe ? t : maxe, "--noise: ", err, errlen);
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

/* What the searches compare: a detour's start, its end, or the CPU time
 * left before it. */
enum { BY_START, BY_END, BY_FREE };

/* The number of detours i with key(i) <= x (keys non-decreasing in i). */
static size_t count_le(const sim_noise *z, int by, uint64_t x)
{
	size_t lo = 0, hi = z->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t k = by == BY_START ? z->d[mid].s : by == BY_END ? z->d[mid].e
		                                                          : z->d[mid].s - z->b[mid];
		if (k <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* CPU time in [0, u) of one period, u in [0, T). */
static uint64_t free_at(const sim_noise *z, uint64_t u)
{
	size_t k = count_le(z, BY_START, u);
	if (k == 0)
		return u;
	if (u < z->d[k - 1].e)
		return z->d[k - 1].s - z->b[k - 1];
	return u - z->b[k];
}

/* The first position of one period with CPU time w in [0, it), w in
 * [1, F]: past every detour that starts with less CPU time before it. */
static uint64_t pos_of(const sim_noise *z, uint64_t w)
{
	return w + z->b[count_le(z, BY_FREE, w - 1)];
}

/* Busy time of the detours that start before x (x from the origin of a
 * period, any number of periods on). */
static u128 busy_before(const sim_noise *z, u128 x)
{
	u128 q = x / z->T;
	uint64_t r = (uint64_t)(x % z->T);
	return q * z->D + z->b[r ? count_le(z, BY_START, r - 1) : 0];
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
		size_t k = count_le(z, BY_START, u);
		u128 extra = k && u < z->d[k - 1].e ? z->d[k - 1].e - u : 0;
		/* the detours that start in (u, u + d) */
		extra += busy_before(z, (u128)u + d) - busy_before(z, (u128)u + 1);
		if (z->wrap) {
			/* the first detour of a period continues the last one of the
			 * period before: its length goes with the last one's start */
			uint64_t e0 = z->d[0].e, sl = z->d[z->n - 1].s;
			u128 hi = (u128)u + d;                       /* starts in (u, hi) */
			u128 c0 = (hi - 1) / z->T;                   /* at T, 2T, ... < hi */
			u128 c1 = hi > sl ? (hi - 1 - sl) / z->T + 1 : 0;
			if (u >= sl)                                 /* those at or before u */
				c1 -= (u - sl) / z->T + 1 < c1 ? (u - sl) / z->T + 1 : c1;
			extra += c1 * e0;
			extra -= c0 * e0;   /* busy_before counted these, 0 <= extra */
			if (k == z->n && u < z->d[k - 1].e)          /* under way: the last */
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
	i = count_le(z, BY_END, (uint64_t)(x % z->T));
	for (size_t k = 0; k < max; k++) {
		int cont = pub && z->wrap && i == z->n && k > 0;
		if (i == z->n) {
			i = 0;
			base += z->T;
		}
		u128 s = base + z->d[i].s, e = base + z->d[i].e;
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
	char *list;
	uint64_t *rg = NULL;
	size_t nrg = 0;
	num_dec f;
	if (!colon || colon == text) {
		snprintf(err, errlen, "--slow: expected RANKS:FACTOR (e.g. 0,17-31:1.5), not '%s'",
		         text);
		return -1;
	}
	if (num_dec_parse(colon + 1, strlen(colon + 1), NUM_FRAC_MAX, &f) != NUM_OK || f.num == 0) {
		snprintf(err, errlen, "--slow: the factor must be a number above 0 (at most 9 "
		         "decimals), not '%s'", colon + 1);
		return -1;
	}
	if (!(list = strndup(text, (size_t)(colon - text)))) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	int bad = num_ranks_parse(list, &rg, &nrg, err, errlen);
	free(list);
	if (bad) {
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
