/* loggp_params.c: reads and writes the LogGP parameter file (format in docs/loggp.md). */
#include "loggp_params.h"
#include "kind.h"
#include "num.h"
#include "util.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define HEADER "loggp-params"

/* Parser state: the current line and the error buffer. */
typedef struct pstate {
	const char *name;
	size_t line;
	const char *linestart;
	char *err;
} pstate;

/* Format "NAME:LINE:COL: error: ..." for the token starting at at. */
static int fail(pstate *ps, const char *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(pstate *ps, const char *at, const char *fmt, ...)
{
	int n = snprintf(ps->err, LOGGP_ERRLEN, "%s:%zu:%zu: error: ", ps->name, ps->line,
	                 (size_t)(at - ps->linestart) + 1);
	if (n < 0 || n >= LOGGP_ERRLEN)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(ps->err + n, LOGGP_ERRLEN - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* A token: [s, s+len). */
typedef struct tok {
	const char *s;
	size_t len;
} tok;

/* Split line [s, e) into at most max tokens (blanks separate, '#' ends the
 * line).  Returns the number of tokens, or max+1 if there are more. */
static size_t split(const char *s, const char *e, tok *t, size_t max)
{
	size_t n = 0;
	while (s < e && *s != '#') {
		if (*s == ' ' || *s == '\t' || *s == '\r') {
			s++;
			continue;
		}
		const char *b = s;
		while (s < e && *s != ' ' && *s != '\t' && *s != '\r' && *s != '#')
			s++;
		if (n == max)
			return max + 1;
		t[n].s = b;
		t[n].len = (size_t)(s - b);
		n++;
	}
	return n;
}

static int tok_is(tok t, const char *w)
{
	return t.len == strlen(w) && memcmp(t.s, w, t.len) == 0;
}

/* Non-negative integer; 0 or -1 with the error set. */
/* What an integer field is: a size in bytes or a time in ns; both take
 * units (util/num.h: "64Ki", "2.5us"). */
enum { BYTES, NS };

static int parse_u64(pstate *ps, tok t, int kind, uint64_t *v)
{
	static const char *const what[] = { "a size in bytes (65536, 64Ki)",
	                                    "a time in whole ns (2500, 2.5us)" };
	if (t.len == 0)
		return fail(ps, t.s, "expected %s", what[kind]);
	switch (kind == BYTES ? num_size_parse(t.s, t.len, v) : num_ns_parse(t.s, t.len, v)) {
	case NUM_OK:
		return 0;
	case NUM_BIG:
		return fail(ps, t.s, "number '%.*s' out of range", (int)t.len, t.s);
	default:
		return fail(ps, t.s, "expected %s, got '%.*s'", what[kind], (int)t.len, t.s);
	}
}

static const char *const FIELDS[5] = { "L", "o", "g", "G", "O" };

/* Token t as NAME=VALUE, NAME one of names[0..n-1] (listed in expect for
 * the message) and not in seen[] yet: its index (marked in seen[]), the
 * value in *val; or -1 (reported). */
static int parse_field(pstate *ps, tok t, const char *const *names, int n, const char *expect,
                       int *seen, tok *val)
{
	const char *eq = memchr(t.s, '=', t.len);
	if (!eq)
		return fail(ps, t.s, "expected NAME=VALUE, got '%.*s'", (int)t.len, t.s);
	tok name = { t.s, (size_t)(eq - t.s) };
	*val = (tok){ eq + 1, t.len - name.len - 1 };
	for (int k = 0; k < n; k++) {
		if (!tok_is(name, names[k]))
			continue;
		if (seen[k])
			return fail(ps, t.s, "field '%s' given twice", names[k]);
		seen[k] = 1;
		return k;
	}
	return fail(ps, t.s, "unknown field '%.*s', expected %s", (int)name.len, name.s, expect);
}

/* A per-byte decimal value into *d; 0 or -1 (reported). */
static int parse_rate(pstate *ps, tok val, num_dec *d)
{
	if (num_dec_parse(val.s, val.len, NUM_FRAC_MAX, d))
		return fail(ps, val.s, "expected a decimal like 6 or 0.4 (at most 9 fraction "
		            "digits, below 2^32), got '%.*s'", (int)val.len, val.s);
	return 0;
}

/* range FIRST LAST L=.. o=.. g=.. G=.. O=.. into *r. */
static int parse_range(pstate *ps, const tok *t, size_t nt, const char *eol,
                       uint64_t expect_first, loggp_range *r)
{
	if (nt < 3)
		return fail(ps, nt == 2 ? t[1].s + t[1].len : t[0].s + t[0].len,
		            "expected 'range FIRST LAST L=.. o=.. g=.. G=.. O=..'");
	if (parse_u64(ps, t[1], BYTES, &r->first))
		return -1;
	if (r->first != expect_first)
		return fail(ps, t[1].s, "range must start at %llu%s",
		            (unsigned long long)expect_first,
		            expect_first ? " (the previous range's last size + 1)" : "");
	if (tok_is(t[2], "inf"))
		r->last = LOGGP_SIZE_INF;
	else if (parse_u64(ps, t[2], BYTES, &r->last))
		return -1;
	else if (r->last == LOGGP_SIZE_INF)
		return fail(ps, t[2].s, "number '%.*s' out of range", (int)t[2].len, t[2].s);
	if (r->last < r->first)
		return fail(ps, t[2].s, "range ends before it starts");
	int seen[5] = { 0 };
	for (size_t i = 3; i < nt; i++) {
		tok val;
		int f = parse_field(ps, t[i], FIELDS, 5, "L, o, g, G or O", seen, &val);
		if (f < 0)
			return -1;
		if (f < 3 ? parse_u64(ps, val, NS, f == 0 ? &r->L : f == 1 ? &r->o : &r->g)
		          : parse_rate(ps, val, f == 3 ? &r->G : &r->O))
			return -1;
	}
	for (int k = 0; k < 5; k++)
		if (!seen[k])
			return fail(ps, eol, "missing field '%s'", FIELDS[k]);
	return 0;
}

static const char *const MW_FIELDS[4] = { "o_mw", "O_mw", "l_mw", "L_mw" };

/* stride D o_mw=.. O_mw=.. l_mw=.. L_mw=.. into *x; prev: the last stride
 * read before (0: none) and its line. */
static int parse_stride(pstate *ps, const tok *t, size_t nt, const char *eol,
                        const loggp_stride *prev, size_t prev_line, loggp_stride *x)
{
	if (nt < 2)
		return fail(ps, eol, "expected 'stride D o_mw=.. O_mw=.. l_mw=.. L_mw=..'");
	if (parse_u64(ps, t[1], BYTES, &x->stride))
		return -1;
	if (x->stride == 0 || x->stride > LOGGP_MAX_STRIDE)
		return fail(ps, t[1].s, "stride %llu is out of range (1..%llu)",
		            (unsigned long long)x->stride, (unsigned long long)LOGGP_MAX_STRIDE);
	if (prev && x->stride == prev->stride)
		return fail(ps, t[1].s, "stride %llu given twice (first on line %zu)",
		            (unsigned long long)x->stride, prev_line);
	if (prev && x->stride < prev->stride)
		return fail(ps, t[1].s, "stride %llu after stride %llu: strides must increase",
		            (unsigned long long)x->stride, (unsigned long long)prev->stride);
	int seen[4] = { 0 };
	for (size_t i = 2; i < nt; i++) {
		tok val;
		int f = parse_field(ps, t[i], MW_FIELDS, 4, "o_mw, O_mw, l_mw or L_mw", seen, &val);
		if (f < 0)
			return -1;
		if (f == 0 || f == 2 ? parse_u64(ps, val, NS, f == 0 ? &x->o_mw : &x->l_mw)
		                     : parse_rate(ps, val, f == 1 ? &x->O_mw : &x->L_mw))
			return -1;
	}
	for (int k = 0; k < 4; k++)
		if (!seen[k])
			return fail(ps, eol, "missing field '%s'", MW_FIELDS[k]);
	return 0;
}

int loggp_params_parse(const char *name, const char *text, size_t len,
                       loggp_params *p, char err[LOGGP_ERRLEN])
{
	pstate ps = { name, 0, text, err };
	int have_header = 0, have_S = 0, have_gamma = 0;
	uint64_t next_first = 0;
	int open_ended = 0;
	size_t stride_line = 0;   /* of the last stride statement */
	memset(p, 0, sizeof *p);
	p->S = LOGGP_DEFAULT_S;
	const char *s = text, *end = text + len;
	while (s < end) {
		const char *e = memchr(s, '\n', (size_t)(end - s));
		if (!e)
			e = end;
		ps.line++;
		ps.linestart = s;
		if (memchr(s, '\0', (size_t)(e - s)))
			return fail(&ps, (const char *)memchr(s, '\0', (size_t)(e - s)),
			            "NUL byte in the file");
		tok t[10];
		size_t nt = split(s, e, t, 9);
		/* Just after the last token of the line (before any '#'). */
		size_t lt = nt < 9 ? nt : 9;
		const char *eol = nt ? t[lt - 1].s + t[lt - 1].len : s;
		s = e + 1;
		if (nt == 0)
			continue;
		if (!have_header) {
			util_kind k = util_kind_of(ps.linestart, (size_t)(end - ps.linestart));
			if (k != UTIL_KIND_NONE && k != UTIL_KIND_PARAMS)
				return fail(&ps, t[0].s, "this is %s, not a parameter file", util_kind_what(k));
			if (nt != 2 || !tok_is(t[0], HEADER) || !tok_is(t[1], "1"))
				return fail(&ps, t[0].s, "expected '" HEADER " 1' as the first line");
			have_header = 1;
			continue;
		}
		if (tok_is(t[0], "S")) {
			if (have_S)
				return fail(&ps, t[0].s, "'S' given twice");
			if (nt != 2)
				return fail(&ps, nt == 1 ? eol : t[2].s, "expected 'S BYTES'");
			if (parse_u64(&ps, t[1], BYTES, &p->S))
				return -1;
			have_S = 1;
		} else if (tok_is(t[0], "gamma")) {
			if (have_gamma)
				return fail(&ps, t[0].s, "'gamma' given twice");
			if (nt != 2)
				return fail(&ps, nt == 1 ? eol : t[2].s, "expected 'gamma NS_PER_BYTE'");
			if (parse_rate(&ps, t[1], &p->gamma))
				return -1;
			have_gamma = 1;
		} else if (tok_is(t[0], "range")) {
			if (nt > 8)
				return fail(&ps, t[8].s, "too many fields in a range");
			if (open_ended)
				return fail(&ps, t[0].s, "range after the range ending at 'inf'");
			if (p->nranges == LOGGP_PARAMS_MAX_RANGES)
				return fail(&ps, t[0].s, "more than %d ranges", LOGGP_PARAMS_MAX_RANGES);
			loggp_range *r = &p->range[p->nranges];
			if (parse_range(&ps, t, nt, eol, next_first, r))
				return -1;
			p->nranges++;
			if (r->last == LOGGP_SIZE_INF)
				open_ended = 1;
			else
				next_first = r->last + 1;
		} else if (tok_is(t[0], "stride")) {
			if (nt > 6)
				return fail(&ps, t[6].s, "too many fields in a stride");
			if (p->nstrides == LOGGP_PARAMS_MAX_STRIDES)
				return fail(&ps, t[0].s, "more than %d strides", LOGGP_PARAMS_MAX_STRIDES);
			loggp_stride *x = &p->stride[p->nstrides];
			if (parse_stride(&ps, t, nt, eol, p->nstrides ? x - 1 : NULL, stride_line, x))
				return -1;
			p->nstrides++;
			stride_line = ps.line;
		} else {
			return fail(&ps, t[0].s, "unknown keyword '%.*s', expected 'S', 'gamma', 'range' or 'stride'",
			            (int)t[0].len, t[0].s);
		}
	}
	/* Errors at the end point at the line after the last one. */
	ps.line++;
	ps.linestart = end;
	if (!have_header)
		return fail(&ps, end, "empty file, expected '" HEADER " 1'");
	if (p->nranges == 0)
		return fail(&ps, end, "no range: at least 'range 0 inf ...' is needed");
	if (!open_ended)
		return fail(&ps, end, "the last range must end at 'inf' (it ends at %llu)",
		            (unsigned long long)p->range[p->nranges - 1].last);
	return 0;
}

int loggp_params_read(const char *path, loggp_params *p, char err[LOGGP_ERRLEN])
{
	char *buf;
	size_t len;
	if (util_read_file(path, (size_t)1 << 27, &buf, &len, err, LOGGP_ERRLEN))
		return -1;
	int rc = loggp_params_parse(path, buf, len, p, err);
	free(buf);
	return rc;
}

int loggp_params_read_gamma(const char *path, num_dec *gamma, char err[LOGGP_ERRLEN])
{
	loggp_params *p = malloc(sizeof *p);
	int rc;
	if (!p) {
		snprintf(err, LOGGP_ERRLEN, "%s: error: out of memory", path);
		return -1;
	}
	rc = loggp_params_read(path, p, err);
	if (rc == 0)
		*gamma = p->gamma;
	free(p);
	return rc;
}

const loggp_range *loggp_params_lookup(const loggp_params *p, uint64_t size)
{
	size_t lo = 0, hi = p->nranges - 1;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p->range[mid].last < size)
			lo = mid + 1;
		else
			hi = mid;
	}
	return &p->range[lo];
}

const loggp_stride *loggp_params_stride(const loggp_params *p, uint64_t d)
{
	size_t lo = 0, hi = p->nstrides;   /* the first stride above d */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p->stride[mid].stride <= d)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? &p->stride[lo - 1] : NULL;
}

/* Round half up to a non-negative integer. */
static uint64_t round_ns(double v)
{
	if (!(v > 0))
		return 0;
	if (v >= 1.8e19)
		return UINT64_MAX;
	return (uint64_t)floor(v + 0.5);
}

/* A non-negative rate rounded to 5 significant digits (at most 9 fraction
 * digits): more would be noise for a measured value. */
static num_dec round_rate(double v)
{
	char buf[64];
	num_dec r = { 0, 1 };
	if (!(v > 0))
		v = 0;
	if (v > 4e9)
		v = 4e9;
	int digits = 4;
	for (double t = v; t > 0 && t < 1 && digits < 9; t *= 10)
		digits++;
	for (double t = v; t >= 10 && digits > 0; t /= 10)
		digits--;
	snprintf(buf, sizeof buf, "%.*f", digits, v);
	num_dec_parse(buf, strlen(buf), NUM_FRAC_MAX, &r);
	return r;
}

void loggp_range_set(loggp_range *r, uint64_t first, uint64_t last, double L,
                     double o, double g, double G, double O)
{
	r->first = first;
	r->last = last;
	r->L = round_ns(L);
	r->o = round_ns(o);
	r->g = round_ns(g);
	r->G = round_rate(G);
	r->O = round_rate(O);
}

void loggp_stride_set(loggp_stride *x, uint64_t stride, double o_mw, double O_mw,
                      double l_mw, double L_mw)
{
	x->stride = stride;
	x->o_mw = round_ns(o_mw);
	x->O_mw = round_rate(O_mw);
	x->l_mw = round_ns(l_mw);
	x->L_mw = round_rate(L_mw);
}

int loggp_params_write(FILE *f, const loggp_params *p, const char *comment)
{
	fprintf(f, HEADER " 1\n");
	while (comment && *comment) {
		const char *e = strchr(comment, '\n');
		int n = e ? (int)(e - comment) : (int)strlen(comment);
		fprintf(f, "# %.*s\n", n, comment);
		comment += n + (e ? 1 : 0);
	}
	fprintf(f, "S %llu\n", (unsigned long long)p->S);
	if (p->gamma.num) {
		char g[NUM_DEC_TEXT];
		num_dec_format(p->gamma, g, sizeof g);
		fprintf(f, "gamma %s\n", g);
	}
	fprintf(f, "#     first       last\n");
	for (size_t i = 0; i < p->nranges; i++) {
		const loggp_range *r = &p->range[i];
		char last[24], G[NUM_DEC_TEXT], O[NUM_DEC_TEXT];
		if (r->last == LOGGP_SIZE_INF)
			snprintf(last, sizeof last, "inf");
		else
			snprintf(last, sizeof last, "%llu", (unsigned long long)r->last);
		num_dec_format(r->G, G, sizeof G);
		num_dec_format(r->O, O, sizeof O);
		fprintf(f, "range %10llu %10s L=%llu o=%llu g=%llu G=%s O=%s\n",
		        (unsigned long long)r->first, last, (unsigned long long)r->L,
		        (unsigned long long)r->o, (unsigned long long)r->g, G, O);
	}
	if (p->nstrides)
		fprintf(f, "#     stride\n");
	for (size_t i = 0; i < p->nstrides; i++) {
		const loggp_stride *x = &p->stride[i];
		char Om[NUM_DEC_TEXT], Lm[NUM_DEC_TEXT];
		num_dec_format(x->O_mw, Om, sizeof Om);
		num_dec_format(x->L_mw, Lm, sizeof Lm);
		fprintf(f, "stride %10llu o_mw=%llu O_mw=%s l_mw=%llu L_mw=%s\n",
		        (unsigned long long)x->stride, (unsigned long long)x->o_mw, Om,
		        (unsigned long long)x->l_mw, Lm);
	}
	return ferror(f) ? -1 : 0;
}
