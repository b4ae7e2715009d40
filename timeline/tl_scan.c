/* tl_scan.c: the timeline's line parser (tl_scan.h): versions 1 to 4 of
 * the loggopsim -V format and the published LogGOPSim format
 * (docs/timeline.md). */
#include "tl_scan.h"
#include "kind.h"
#include "num.h"
#include "util.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void tl_scan_init(tl_scan *s, const char *name, char *err, size_t errlen)
{
	memset(s, 0, sizeof *s);
	s->stop_after = TL_NONE;
	s->name = name;
	s->err = err;
	s->errlen = errlen;
}

void tl_scan_free(tl_scan *s)
{
	free(s->job_names);
	free(s->job_off);
	util_kmap_free(&s->job_map);
	s->job_names = NULL;
	s->job_off = NULL;
}

int tl_scan_error(tl_scan *s, const char *at, const char *fmt, ...)
{
	int n = snprintf(s->err, s->errlen, "%s:%" PRIu64 ":%ld: error: ", s->name,
	                 s->line, (long)(at - s->lbuf) + 1);
	if (n < 0 || (size_t)n >= s->errlen)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->err + n, s->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

static const char *skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* The next field: a number.  Old format numbers may end in ';'. */
static int field_u64(tl_scan *s, const char **pp, uint64_t *v, const char *what)
{
	const char *p = skip_ws(*pp);
	if (*p == 0 || *p == '\n' || *p == '\r' || *p == ';')
		return tl_scan_error(s, p, "missing %s", what);
	if (*p == '-')
		return tl_scan_error(s, p, "negative %s", what);
	const char *q = p;
	if (num_u64_scan(&q, v) != NUM_OK)
		return tl_scan_error(s, p, "bad %s (expected an unsigned integer)", what);
	if (*q != 0 && *q != ' ' && *q != '\t' && *q != '\n' && *q != '\r' && *q != ';')
		return tl_scan_error(s, p, "bad %s (expected an unsigned integer)", what);
	*pp = q;
	return 0;
}

/* Old format colour fields: a number like 0, 1, 0.5 (ignored). */
static int field_colour(tl_scan *s, const char **pp)
{
	const char *p = skip_ws(*pp);
	if (*p == 0 || *p == '\n' || *p == '\r' || *p == ';')
		return tl_scan_error(s, p, "missing colour field");
	char *end;
	errno = 0;
	(void)strtod(p, &end);
	if (end == p || (*end != 0 && *end != ' ' && *end != '\t' && *end != '\n' &&
	                 *end != '\r' && *end != ';'))
		return tl_scan_error(s, p, "bad colour field (expected a number)");
	*pp = end;
	return 0;
}

/* The end of a line: nothing (new format) or ';' (old format). */
static int line_end(tl_scan *s, const char *p)
{
	p = skip_ws(p);
	if (s->h.old_format) {
		if (*p != ';')
			return tl_scan_error(s, p, "expected ';' at the end of the line");
		p = skip_ws(p + 1);
	}
	if (*p != 0 && *p != '\n' && !(*p == '\r' && (p[1] == 0 || p[1] == '\n')))
		return tl_scan_error(s, p, "unexpected text at the end of the line");
	return 0;
}

/* An interval line after its keyword. */
static int do_interval(tl_scan *s, tl_kind k, const char *p, tl_rec *rec)
{
	tl_head *h = &s->h;
	uint64_t rank, unit, start, end;
	const char *at_rank = skip_ws(p), *at_unit, *at_end;
	if (field_u64(s, &p, &rank, "rank"))
		return -1;
	at_unit = skip_ws(p);
	if (field_u64(s, &p, &unit, tl_kind_on_nic[k] ? "nic" : "cpu"))
		return -1;
	if (field_u64(s, &p, &start, "start time"))
		return -1;
	at_end = skip_ws(p);
	if (field_u64(s, &p, &end, "end time"))
		return -1;
	uint64_t src = 0, op = 0;
	const char *at_src = NULL, *at_op = NULL;
	if (k == TL_ORECV && h->version >= 2) {
		at_src = skip_ws(p);
		if (field_u64(s, &p, &src, "source rank") ||
		    field_u64(s, &p, &op, "send op"))
			return -1;
	}
	if (k == TL_LOCLOP && h->version >= 4) {
		at_op = skip_ws(p);
		if (field_u64(s, &p, &op, "calc op"))
			return -1;
	}
	if (h->old_format)
		for (int i = 0; i < 3; i++)
			if (field_colour(s, &p))
				return -1;
	if (line_end(s, p))
		return -1;
	if (rank >= h->nranks)
		return tl_scan_error(s, at_rank, "rank %" PRIu64 " out of range (P = %" PRIu64 ")",
		                     rank, h->nranks);
	if (unit > 65535)
		return tl_scan_error(s, at_unit, "unit %" PRIu64 " out of range (at most 65535)", unit);
	if (end < start)
		return tl_scan_error(s, at_end, "end %" PRIu64 " before start %" PRIu64, end, start);
	if (at_src && src >= h->nranks)
		return tl_scan_error(s, at_src, "rank %" PRIu64 " out of range (P = %" PRIu64 ")",
		                     src, h->nranks);
	if (at_op && op > UINT32_MAX)
		return tl_scan_error(s, at_op, "op %" PRIu64 " out of range (below 2^32)", op);
	uint32_t rows = tl_kind_on_nic[k] ? h->nnics : h->ncpus;
	if (!h->old_format && unit >= rows)
		return tl_scan_error(s, at_unit, "%s %" PRIu64 " out of range (the header says %" PRIu32 ")",
		                     tl_kind_on_nic[k] ? "nic" : "cpu", unit, rows);
	if (h->old_format && unit >= h->ncpus)
		h->ncpus = (uint32_t)unit + 1;
	memset(rec, 0, sizeof *rec);
	rec->kind = k;
	rec->rank = rank;
	rec->unit = unit;
	rec->start = start;
	rec->end = end;
	rec->has_msg = at_src != NULL;
	rec->has_op = at_op != NULL;
	rec->src = src;
	rec->op = op;
	rec->at_src = at_src;
	return TL_LINE_INTERVAL;
}

/* A link line after its keyword (version 2). */
static int do_link(tl_scan *s, const char *p, tl_rec *rec)
{
	uint64_t link, start, end, flows, bytes;
	const char *at_link = skip_ws(p), *at_end, *at_flows;
	if (s->h.old_format || s->h.version < 2)
		return tl_scan_error(s, s->lbuf, "a link line in a timeline of version %" PRIu32,
		                     s->h.version);
	if (field_u64(s, &p, &link, "link"))
		return -1;
	if (field_u64(s, &p, &start, "start time"))
		return -1;
	at_end = skip_ws(p);
	if (field_u64(s, &p, &end, "end time"))
		return -1;
	at_flows = skip_ws(p);
	if (field_u64(s, &p, &flows, "flows") || field_u64(s, &p, &bytes, "bytes") || line_end(s, p))
		return -1;
	if (link >= UINT64_C(1) << 31)
		return tl_scan_error(s, at_link, "link %" PRIu64 " out of range (below 2^31)", link);
	if (end <= start)
		return tl_scan_error(s, at_end, "end %" PRIu64 " not after start %" PRIu64, end, start);
	if (flows == 0)
		return tl_scan_error(s, at_flows, "0 flows (a link line has at least 1)");
	memset(rec, 0, sizeof *rec);
	rec->unit = link;
	rec->start = start;
	rec->end = end;
	rec->flows = flows;
	rec->size = bytes;
	return TL_LINE_LINK;
}

static int do_transmission(tl_scan *s, const char *p, tl_rec *rec)
{
	tl_head *h = &s->h;
	uint64_t src, dst, start, depart = 0, arr, size, G = 0, op = 0, cpu = 0, nic = 0;
	const char *at_src = skip_ws(p), *at_dst, *at_dep = NULL, *at_arr, *at_cpu = NULL,
	           *at_nic = NULL;
	if (field_u64(s, &p, &src, "source rank"))
		return -1;
	at_dst = skip_ws(p);
	if (field_u64(s, &p, &dst, "destination rank"))
		return -1;
	if (field_u64(s, &p, &start, "start time"))
		return -1;
	if (h->version >= 2) {
		at_dep = skip_ws(p);
		if (field_u64(s, &p, &depart, "departure time"))
			return -1;
	}
	at_arr = skip_ws(p);
	if (field_u64(s, &p, &arr, "arrival time"))
		return -1;
	if (field_u64(s, &p, &size, "size"))
		return -1;
	if (h->version >= 2) {
		if (field_u64(s, &p, &op, "send op"))
			return -1;
		at_cpu = skip_ws(p);
		if (field_u64(s, &p, &cpu, "cpu"))
			return -1;
		at_nic = skip_ws(p);
		if (field_u64(s, &p, &nic, "nic"))
			return -1;
	}
	if (h->old_format) {
		if (field_u64(s, &p, &G, "G"))
			return -1;
		for (int i = 0; i < 3; i++)
			if (field_colour(s, &p))
				return -1;
	}
	if (line_end(s, p))
		return -1;
	if (src >= h->nranks)
		return tl_scan_error(s, at_src, "rank %" PRIu64 " out of range (P = %" PRIu64 ")",
		                     src, h->nranks);
	if (dst >= h->nranks)
		return tl_scan_error(s, at_dst, "rank %" PRIu64 " out of range (P = %" PRIu64 ")",
		                     dst, h->nranks);
	if (h->old_format) {
		h->old_G = G;
		depart = start;
	} else if (h->version == 1) {
		/* Version 1 wrote one set of parameters: a message leaves o after
		 * its send starts (no later than it arrives, for a size range
		 * whose o the header does not have). */
		depart = start > UINT64_MAX - h->range[0].o ? arr : start + h->range[0].o;
		if (depart > arr)
			depart = arr;
	} else {
		if (cpu >= h->ncpus)
			return tl_scan_error(s, at_cpu, "cpu %" PRIu64 " out of range (the header says %"
			                     PRIu32 ")", cpu, h->ncpus);
		if (nic >= h->nnics)
			return tl_scan_error(s, at_nic, "nic %" PRIu64 " out of range (the header says %"
			                     PRIu32 ")", nic, h->nnics);
		if (depart < start)
			return tl_scan_error(s, at_dep, "departure %" PRIu64 " before the send starts (%"
			                     PRIu64 ")", depart, start);
	}
	if (arr < depart)
		return tl_scan_error(s, at_arr, "arrival %" PRIu64 " before the message leaves (%"
		                     PRIu64 ")", arr, depart);
	memset(rec, 0, sizeof *rec);
	rec->rank = rec->src = src;
	rec->dst = dst;
	rec->start = start;
	rec->depart = depart;
	rec->arrival = arr;
	rec->size = size;
	rec->has_msg = h->version >= 2;
	rec->op = op;
	rec->cpu = cpu;
	rec->nic = nic;
	rec->at_src = at_src;
	return TL_LINE_TRANSMISSION;
}

int tl_scan_job_run(const char **p, uint64_t *a, uint64_t *b)
{
	const char *q = skip_ws(*p);
	if (*q < '0' || *q > '9')
		return 0;
	num_u64_scan(&q, a);
	*b = *a;
	if (*q == '-') {
		q++;
		num_u64_scan(&q, b);
	}
	*p = q;
	return 1;
}

/* A job line after its keyword (versions 3 and 4): "NAME START RUN ...",
 * NAME a label, each run "A" or "A-B" with A <= B < P. */
static int do_job(tl_scan *s, const char *p, tl_rec *rec)
{
	if (s->h.old_format || s->h.version < 3)
		return tl_scan_error(s, s->lbuf, "a job line in a timeline of version %" PRIu32,
		                     s->h.version);
	const char *name = skip_ws(p);
	p = name;
	while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_'
	       || (p > name && *p >= '0' && *p <= '9'))
		p++;
	if (p == name || (*p != ' ' && *p != '\t'))
		return tl_scan_error(s, name, "bad job name (expected a label)");
	size_t len = (size_t)(p - name);
	const uint32_t *known = util_kmap_get(&s->job_map, name, len);
	if (known && *known + 1 != s->njobs)
		return tl_scan_error(s, name, "job %.*s again after another job", (int)len, name);
	if (!known) {   /* a new job */
		if (util_grow(&s->job_names, &s->cap_job_names, s->job_names_len + len + 1, 1)
		    || util_grow(&s->job_off, &s->cap_job_off, (size_t)s->njobs + 1, sizeof *s->job_off)
		    || util_kmap_put(&s->job_map, name, len, s->njobs))
			return tl_scan_error(s, name, "out of memory");
		s->job_off[s->njobs++] = (uint32_t)s->job_names_len;
		memcpy(s->job_names + s->job_names_len, name, len);
		s->job_names[s->job_names_len + len] = '\0';
		s->job_names_len += len + 1;
	}
	rec->unit = s->njobs - 1;
	if (field_u64(s, &p, &rec->start, "start"))
		return -1;
	rec->at_src = p;
	int runs = 0;
	for (;;) {
		const char *at = skip_ws(p);
		uint64_t a, b;
		if (*at == 0 || *at == '\n' || *at == '\r')
			break;
		p = at;
		if (*p < '0' || *p > '9' || num_u64_scan(&p, &a) != NUM_OK)
			return tl_scan_error(s, at, "bad run of ranks (expected A or A-B)");
		b = a;
		if (*p == '-') {
			const char *q = ++p;
			if (*q < '0' || *q > '9' || num_u64_scan(&p, &b) != NUM_OK)
				return tl_scan_error(s, q, "bad run of ranks (expected A or A-B)");
		}
		if (*p != 0 && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r')
			return tl_scan_error(s, at, "bad run of ranks (expected A or A-B)");
		if (b < a || b >= s->h.nranks)
			return tl_scan_error(s, at, "ranks %" PRIu64 "-%" PRIu64 " out of range (P = %"
			                     PRIu64 ")", a, b, s->h.nranks);
		runs++;
	}
	if (!runs)
		return tl_scan_error(s, p, "a job line without ranks");
	return TL_LINE_JOB;
}

/* The "KEY VALUE" pairs from p to the end of a header line (header set:
 * P, S, ncpus, nnics and ranges into h, *haveP and *nranges) or of a range
 * line; L, o, g, G and O into *rg.  Other keys are ignored (later versions
 * may add some). */
static int do_keys(tl_scan *s, const char *p, loggp_range *rg, int header, int *haveP,
                   uint64_t *nranges)
{
	tl_head *h = &s->h;
	for (;;) {
		p = skip_ws(p);
		if (*p == 0 || *p == '\n' || *p == '\r')
			return 0;
		const char *key = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r')
			p++;
		size_t kl = (size_t)(p - key);
		const char *val = skip_ws(p);
		if (*val == 0 || *val == '\n' || *val == '\r')
			return tl_scan_error(s, val, "missing value of '%.*s'", (int)kl, key);
		const char *e = val;
		while (*e && *e != ' ' && *e != '\t' && *e != '\n' && *e != '\r')
			e++;
#define KEY(str) (kl == sizeof(str) - 1 && memcmp(key, str, kl) == 0)
		int dec = KEY("G") || KEY("O");
		if (!dec && !KEY("L") && !KEY("o") && !KEY("g") &&
		    !(header && (KEY("P") || KEY("S") || KEY("ranges") || KEY("ncpus") ||
		                 KEY("nnics")))) {
			p = e;  /* a key of a later version: its value skipped */
			continue;
		}
		if (dec) {
			num_err ne = num_dec_parse(val, (size_t)(e - val), NUM_FRAC_MAX,
			                           *key == 'G' ? &rg->G : &rg->O);
			if (ne != NUM_OK)
				return tl_scan_error(s, val, "bad value of %c: %s", *key, num_err_str(ne));
			p = e;
			continue;
		}
		uint64_t v;
		p = val;
		if (field_u64(s, &p, &v, "header value"))
			return -1;
		if (KEY("L")) {
			rg->L = v;
		} else if (KEY("o")) {
			rg->o = v;
		} else if (KEY("g")) {
			rg->g = v;
		} else if (KEY("P")) {
			h->nranks = v;
			*haveP = 1;
		} else if (KEY("S")) {
			h->S = v;
		} else if (KEY("ranges")) {
			if (v < 1 || v > LOGGP_PARAMS_MAX_RANGES)
				return tl_scan_error(s, val, "ranges must be 1..%d", LOGGP_PARAMS_MAX_RANGES);
			*nranges = v;
		} else if (KEY("ncpus") || KEY("nnics")) {
			if (v < 1 || v > 65536)
				return tl_scan_error(s, val, "%.*s must be 1..65536", (int)kl, key);
			if (KEY("ncpus"))
				h->ncpus = (uint32_t)v;
			else
				h->nnics = (uint32_t)v;
		}
#undef KEY
	}
}

/* Version 1: "loggopsim-timeline 1 P N L N o N g N G X O X S N ncpus N
 * nnics N"; version 2: "loggopsim-timeline 2 P N S N ncpus N nnics N
 * ranges K", then K range lines. */
static int do_header(tl_scan *s, const char *p)
{
	tl_head *h = &s->h;
	uint64_t ver, nranges = 0;
	int haveP = 0;
	const char *at = skip_ws(p);
	if (field_u64(s, &p, &ver, "version"))
		return -1;
	if (ver < 1 || ver > TL_VERSION)
		return tl_scan_error(s, at, "timeline version %" PRIu64 " is not supported (this "
		                     "reads 1 to %d)", ver, TL_VERSION);
	h->version = (uint32_t)ver;
	h->ncpus = h->nnics = 1;
	if (do_keys(s, p, &h->range[0], 1, &haveP, &nranges))
		return -1;
	if (!haveP)
		return tl_scan_error(s, p + strcspn(p, "\r\n"), "the header has no P");
	if (ver == 1) {
		h->nranges = 1;
		h->range[0].last = LOGGP_SIZE_INF;
	} else if (!nranges) {
		return tl_scan_error(s, p + strcspn(p, "\r\n"), "the header has no ranges");
	} else {
		s->ranges_due = (uint32_t)nranges;
	}
	return TL_LINE_HEADER;
}

/* "range FIRST LAST L N o N g N G X O X" (LAST "inf" on the last one). */
static int do_range(tl_scan *s, const char *p)
{
	tl_head *h = &s->h;
	loggp_range *rg = &h->range[h->nranges];
	const char *at = skip_ws(p);
	if (field_u64(s, &p, &rg->first, "first size"))
		return -1;
	uint64_t want = h->nranges ? h->range[h->nranges - 1].last + 1 : 0;
	if (rg->first != want)
		return tl_scan_error(s, at, "range starts at %" PRIu64 ", not %" PRIu64, rg->first,
		                     want);
	at = p = skip_ws(p);
	int last = --s->ranges_due == 0;
	if (last) {
		if (strncmp(p, "inf", 3) != 0 || !strchr(" \t\r\n", p[3]))
			return tl_scan_error(s, at, "the last range ends at 'inf'");
		rg->last = LOGGP_SIZE_INF;
		p += 3;
	} else if (field_u64(s, &p, &rg->last, "last size")) {
		return -1;
	} else if (rg->last < rg->first || rg->last == UINT64_MAX) {
		return tl_scan_error(s, at, "bad last size %" PRIu64, rg->last);
	}
	h->nranges++;
	return do_keys(s, p, rg, 0, NULL, NULL) ? -1 : TL_LINE_NONE;
}

/* "numranks N;" */
static int do_numranks(tl_scan *s, const char *p)
{
	tl_head *h = &s->h;
	uint64_t n;
	if (field_u64(s, &p, &n, "number of ranks"))
		return -1;
	if (line_end(s, p))
		return -1;
	h->nranks = n;
	h->ncpus = 1;
	h->nnics = 1;
	return TL_LINE_HEADER;
}

/* Start time of an event line (the field after the kind and two numbers),
 * or TL_NONE. */
static uint64_t line_start(const char *p)
{
	for (int i = 0; i < 2; i++) {
		p = skip_ws(p);
		while (*p >= '0' && *p <= '9')
			p++;
	}
	p = skip_ws(p);
	uint64_t v;
	return num_u64_scan(&p, &v) != NUM_OK ? TL_NONE : v;
}

int tl_scan_line(tl_scan *s, const char *line, size_t len, tl_rec *rec)
{
	tl_head *h = &s->h;
	s->line++;
	s->lbuf = line;
	if (memchr(line, 0, len))
		return tl_scan_error(s, line, "NUL byte in the line");
	const char *p = skip_ws(line);
	if (*p == 0 || *p == '\n' || (*p == '\r' && (p[1] == 0 || p[1] == '\n')))
		return TL_LINE_NONE;
	const char *kw = p;
	while (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r' && *p != ';')
		p++;
	size_t kl = (size_t)(p - kw);
#define IS(str) (kl == sizeof(str) - 1 && memcmp(kw, str, kl) == 0)
	if (!s->have_header) {
		int rc;
		if (IS("loggopsim-timeline")) {
			h->old_format = 0;
			rc = do_header(s, p);
		} else if (IS("numranks")) {
			h->old_format = 1;
			rc = do_numranks(s, p);
		} else {
			util_kind k = util_kind_of(line, len);
			if (k != UTIL_KIND_NONE)
				return tl_scan_error(s, kw, "this is %s, not a timeline", util_kind_what(k));
			return tl_scan_error(s, kw, "expected the header 'loggopsim-timeline VERSION P "
			                     "...' (or 'numranks N;' of the old format)");
		}
		s->have_header = 1;
		return rc;
	}
	if (s->ranges_due) {
		if (!IS("range"))
			return tl_scan_error(s, kw, "expected %" PRIu32 " more range line%s after the "
			                     "header", s->ranges_due, s->ranges_due > 1 ? "s" : "");
		return do_range(s, p);
	}
	if (s->links_only && !IS("link"))
		return TL_LINE_NONE;
	if (!h->old_format && s->stop_after != TL_NONE && !IS("transmission") && !IS("noise")
	    && !IS("link") && !IS("job")) {
		uint64_t t = line_start(p);
		if (t != TL_NONE && t > s->stop_after) {
			s->links_only = h->version >= 2;
			return TL_LINE_STOP;
		}
	}
	if (IS("transmission"))
		return do_transmission(s, p, rec);
	if (IS("link"))
		return do_link(s, p, rec);
	if (IS("job"))
		return do_job(s, p, rec);
	for (int k = 0; k < TL_NKINDS; k++)
		if (kl == strlen(tl_kind_word[k]) && memcmp(kw, tl_kind_word[k], kl) == 0)
			return do_interval(s, (tl_kind)k, p, rec);
	if (IS("numranks") || IS("loggopsim-timeline"))
		return tl_scan_error(s, kw, "a second header line");
#undef IS
	return tl_scan_error(s, kw, "unknown line kind '%.*s'", (int)(kl > 40 ? 40 : kl), kw);
}

int tl_scan_end(tl_scan *s)
{
	if (s->have_header && s->ranges_due) {
		snprintf(s->err, s->errlen, "%s:%" PRIu64 ":1: error: expected %" PRIu32
		         " more range line%s after the header", s->name, s->line + 1, s->ranges_due,
		         s->ranges_due > 1 ? "s" : "");
		return -1;
	}
	if (!s->have_header) {
		snprintf(s->err, s->errlen, "%s:1:1: error: empty timeline (no header line)", s->name);
		return -1;
	}
	return 0;
}
