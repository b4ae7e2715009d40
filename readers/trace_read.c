/* trace_read.c: parser for per-rank MPI trace files (goaltrace and
 * liballprof dialects) into arrays of struct tr_call. */
#include "trace_read.h"
#include "kind.h"
#include "kmap.h"
#include "util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const layout[2][TR_NKINDS] = {
	{
#define TR_KIND_THEIRS(id, name, ours, theirs) theirs,
	TR_KINDS(TR_KIND_THEIRS)
#undef TR_KIND_THEIRS
	}, {
#define TR_KIND_OURS(id, name, ours, theirs) ours,
	TR_KINDS(TR_KIND_OURS)
#undef TR_KIND_OURS
	}
};

/* Open MPI's MPI_UNDEFINED, returned as index by Waitany/Testany. */
#define OMPI_UNDEFINED (-32766)

/* A field of the current line: text [s, e), trimmed. */
struct field {
	const char *s, *e;
};

struct parser {
	const char *fname;
	const char *line;       /* start of the current line */
	uint32_t lineno;
	struct tr_trace *t;
	size_t cap_calls, cap_pool, cap_names;
	unsigned reqsize;
	size_t len;             /* of the whole text */
	size_t nderived;        /* request ids derived from array addresses so far */
	util_kmap names;        /* unknown call names -> their offset in t->names */
	double paused;          /* "# flush" time not yet given to a call */
	double paused_from;     /* the start of the first of those flushes */
	char *err;
	size_t errlen;
	int failed;
};

/* Records the first error, at the column of position at in the line. */
static int fail(struct parser *ps, const char *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(struct parser *ps, const char *at, const char *fmt, ...)
{
	if (ps->failed)
		return -1;
	ps->failed = 1;
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (ps->errlen)
		snprintf(ps->err, ps->errlen, "%s:%u:%u: error: %s", ps->fname,
		         (unsigned)ps->lineno, (unsigned)(at - ps->line) + 1, msg);
	return -1;
}

/* Quotes a field for an error message (at most 40 characters). */
static const char *quote(const struct field *f, char *buf, size_t n)
{
	int len = (int)(f->e - f->s);
	if (len > 40)
		len = 40;
	snprintf(buf, n, "'%.*s'", len, f->s);
	return buf;
}

static int is_space(char c)
{
	return c == ' ' || c == '\t';
}

static struct field trim(const char *s, const char *e)
{
	while (s < e && is_space(*s))
		s++;
	while (e > s && is_space(e[-1]))
		e--;
	return (struct field){ s, e };
}

/* Parses a signed 64-bit integer filling all of f (unsigned values above
 * INT64_MAX are kept as two's complement). */
static int parse_int(struct parser *ps, const struct field *f, int64_t *out)
{
	const char *p = f->s;
	int neg = 0;
	if (p < f->e && (*p == '-' || *p == '+'))
		neg = *p++ == '-';
	if (p == f->e)
		goto bad;
	uint64_t v = 0;
	for (; p < f->e; p++) {
		if (*p < '0' || *p > '9')
			goto bad;
		unsigned d = (unsigned)(*p - '0');
		if (v > (UINT64_MAX - d) / 10)
			goto bad;
		v = v * 10 + d;
	}
	if (neg && v > (uint64_t)INT64_MAX + 1)
		goto bad;
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return 0;
bad:;
	char q[48];
	return fail(ps, f->s, "expected an integer, found %s", quote(f, q, sizeof q));
}

static int parse_i32(struct parser *ps, const struct field *f, int32_t *out)
{
	int64_t v;
	if (parse_int(ps, f, &v))
		return -1;
	if (v < INT32_MIN || v > INT32_MAX)
		return fail(ps, f->s, "value %lld out of range", (long long)v);
	*out = (int32_t)v;
	return 0;
}

/* Times are below 2^64 ns in magnitude (microseconds in the file). */
#define TIME_LIMIT_US 18446744073709551.616

/* Parses a time ("123", "123.456" or "-"); *known = 0 for "-". */
static int parse_time(struct parser *ps, const struct field *f, double *out, int *known)
{
	const char *p = f->s;
	if (f->e - p == 1 && *p == '-') {
		*known = 0;
		*out = 0;
		return 0;
	}
	int neg = 0, digits = 0;
	if (p < f->e && *p == '-')
		neg = 1, p++;
	double v = 0;
	for (; p < f->e && *p >= '0' && *p <= '9'; p++, digits++)
		v = v * 10 + (*p - '0');
	if (p < f->e && *p == '.') {
		double scale = 0.1;
		for (p++; p < f->e && *p >= '0' && *p <= '9'; p++, digits++) {
			v += scale * (*p - '0');
			scale /= 10;
		}
	}
	char q[48];
	if (p != f->e || digits == 0)
		return fail(ps, f->s, "expected a time in microseconds or '-', found %s",
		            quote(f, q, sizeof q));
	if (!(v < TIME_LIMIT_US))
		return fail(ps, f->s, "time %s out of range (2^64 ns or more)", quote(f, q, sizeof q));
	*out = neg ? -v : v;
	*known = 1;
	return 0;
}

/* Splits f at commas into at most max subfields; returns their number, or
 * -1 (error) if there are more than max. */
static int split_commas(struct parser *ps, const struct field *f, struct field *sub,
                        int max, const char *what)
{
	int n = 0;
	const char *s = f->s;
	for (;;) {
		const char *c = memchr(s, ',', (size_t)(f->e - s));
		const char *e = c ? c : f->e;
		if (n == max)
			return fail(ps, f->s, "too many values in %s", what);
		sub[n++] = trim(s, e);
		if (!c)
			break;
		s = c + 1;
	}
	return n;
}

/* Parses "a,b,c" (exactly three integers) into v. */
static int parse_triple(struct parser *ps, const struct field *f, int64_t v[3],
                        const char *what)
{
	struct field sub[3];
	int n = split_commas(ps, f, sub, 3, what);
	if (n < 0)
		return -1;
	if (n != 3)
		return fail(ps, f->s, "expected 3 comma-separated values (%s), found %d", what, n);
	for (int i = 0; i < 3; i++)
		if (parse_int(ps, &sub[i], &v[i]))
			return -1;
	return 0;
}

static int pool_push(struct parser *ps, int64_t v)
{
	struct tr_trace *t = ps->t;
	if (t->npool >= UINT32_MAX)
		return fail(ps, ps->line, "trace too large");
	if (util_grow(&t->pool, &ps->cap_pool, t->npool + 1, sizeof *t->pool))
		return fail(ps, ps->line, "out of memory");
	t->pool[t->npool++] = v;
	return 0;
}

/* Parses a comma list ("-" = empty) into the pool; sets *off and *len. */
static int parse_list(struct parser *ps, const struct field *f, uint32_t *off, uint32_t *len)
{
	*off = (uint32_t)ps->t->npool;
	*len = 0;
	if (f->e - f->s == 1 && *f->s == '-')
		return 0;
	const char *s = f->s;
	for (;;) {
		const char *c = memchr(s, ',', (size_t)(f->e - s));
		struct field sub = trim(s, c ? c : f->e);
		int64_t v;
		if (parse_int(ps, &sub, &v) || pool_push(ps, v))
			return -1;
		(*len)++;
		if (!c)
			break;
		s = c + 1;
	}
	return 0;
}

/* Number of ':' fields a layout takes. */
static int layout_fields(const char *l)
{
	int n = 0;
	for (; *l; l++)
		n += (*l == 'A' || *l == 'D') ? 2 : 1;
	return n;
}

/* Looks a call name up; TR_OTHER if unknown (or not recorded in dialect). */
static enum tr_kind find_kind(const struct field *f, int dialect)
{
	size_t n = (size_t)(f->e - f->s);
	for (int k = 0; k < TR_OTHER; k++)
		if (k != TR_COMMDEF && layout[dialect][k] && strlen(tr_kind_names[k]) == n &&
		    memcmp(tr_kind_names[k], f->s, n) == 0)
			return (enum tr_kind)k;
	return TR_OTHER;
}

/* Stores the name of an unknown call once (hashed: many distinct names
 * cost linear time); returns its offset. */
static int intern_name(struct parser *ps, const struct field *f, uint32_t *off)
{
	struct tr_trace *t = ps->t;
	size_t n = (size_t)(f->e - f->s);
	const uint32_t *known = util_kmap_get(&ps->names, f->s, n);
	if (known) {
		*off = *known;
		return 0;
	}
	if (t->nnames + n + 1 > UINT32_MAX)
		return fail(ps, f->s, "too many distinct call names");
	if (util_grow(&t->names, &ps->cap_names, t->nnames + n + 1, 1)
	    || util_kmap_put(&ps->names, f->s, n, (uint32_t)t->nnames))
		return fail(ps, f->s, "out of memory");
	memcpy(t->names + t->nnames, f->s, n);
	t->names[t->nnames + n] = '\0';
	*off = (uint32_t)t->nnames;
	t->nnames += n + 1;
	return 0;
}

/* count * size into *out, or an error at field f if it overflows. */
static int mul_bytes(struct parser *ps, const struct field *f, int64_t count, int64_t size,
                     int64_t *out)
{
	if (__builtin_mul_overflow(count, size, out))
		return fail(ps, f->s, "count %lld times datatype size %lld is too large",
		            (long long)count, (long long)size);
	return 0;
}

/* Multiplies the values of list i of c by size (f: the datatype field). */
static int scale_list(struct parser *ps, struct tr_call *c, int i, int64_t size,
                      const struct field *f)
{
	for (uint32_t k = 0; k < c->len[i]; k++) {
		int64_t *v = &ps->t->pool[c->list[i] + k];
		if (mul_bytes(ps, f, *v, size, v))
			return -1;
	}
	return 0;
}

/* A datatype field "id,size,extent[,stride,block]" (the nd-th of the
 * call): its stride and block into c, and its size times the count before
 * it (*count, then -1) into the call's bytes, or times the values of the
 * list *pending_list (then -1). */
static int datatype_field(struct parser *ps, struct tr_call *c, const struct field *f,
                          int64_t *count, int *pending_list, int *nd)
{
	struct field sub[5];
	int64_t v[3], vs[2] = { 0, 0 };
	int k = split_commas(ps, f, sub, 5, "datatype id,size,extent[,stride,block]");
	if (k < 0)
		return -1;
	if (k != 3 && k != 5)
		return fail(ps, f->s, "expected 3 or 5 comma-separated values "
		            "(datatype id,size,extent[,stride,block]), found %d", k);
	for (int j = 0; j < k; j++)
		if (parse_int(ps, &sub[j], j < 3 ? &v[j] : &vs[j - 3]))
			return -1;
	if (v[1] < 0)
		return fail(ps, f->s, "negative datatype size %lld", (long long)v[1]);
	if (k == 5 && (vs[1] < 1 || vs[1] > vs[0] || vs[0] > (int64_t)1 << 31))
		return fail(ps, sub[3].s, "datatype stride %lld and block %lld: "
		            "1 <= block <= stride <= 2147483648", (long long)vs[0],
		            (long long)vs[1]);
	if (*nd < 2) {
		c->stride[*nd] = (uint32_t)vs[0];
		c->block[*nd] = (uint32_t)vs[1];
	}
	if (*count >= 0 && mul_bytes(ps, f, *count, v[1], *nd == 0 ? &c->bytes : &c->rbytes))
		return -1;
	if (*pending_list >= 0 && scale_list(ps, c, *pending_list, v[1], f))
		return -1;
	*count = -1;
	*pending_list = -1;
	(*nd)++;
	return 0;
}

/* A communicator field "handle,rank,size" into c. */
static int comm_field(struct parser *ps, struct tr_call *c, const struct field *f)
{
	int64_t v[3];
	char q[48];
	if (parse_triple(ps, f, v, "communicator handle,rank,size"))
		return -1;
	c->comm = (uint64_t)v[0];
	c->comm_rank = (int32_t)v[1];
	c->comm_size = (int32_t)v[2];
	if (v[1] < -1 || v[1] > INT32_MAX || v[2] < 0 || v[2] > INT32_MAX)
		return fail(ps, f->s, "bad communicator rank or size %s", quote(f, q, sizeof q));
	return 0;
}

/* The request ids of field L, the indices of field I or the statuses of
 * field S (kind) into c, checked against its request count or outcount. */
static int req_list(struct parser *ps, struct tr_call *c, char kind, const struct field *f)
{
	int i = kind == 'L' ? 0 : kind == 'I' ? 1 : 2;
	if (parse_list(ps, f, &c->list[i], &c->len[i]))
		return -1;
	if (kind == 'L' && c->len[0] != (uint32_t)c->nreq)
		return fail(ps, f->s, "%u request ids for %d requests",
		            (unsigned)c->len[0], c->nreq);
	if (kind == 'I' && c->len[1] != (uint32_t)(c->flag < 0 ? 0 : c->flag))
		return fail(ps, f->s, "%u indices for outcount %d",
		            (unsigned)c->len[1], c->flag);
	if (kind == 'S' && (c->len[2] % 3 != 0 || c->len[2] / 3 > (uint32_t)c->nreq))
		return fail(ps, f->s, "%u status values for %d requests "
		            "(3 per status)", (unsigned)c->len[2], c->nreq);
	return 0;
}

/* Field B, the first of the call's request ids, which follow at the
 * trace's request size (f[-1] is the request count's field). */
static int derived_reqs(struct parser *ps, struct tr_call *c, const struct field *f)
{
	int64_t v;
	if (parse_int(ps, f, &v))
		return -1;
	/* The ids are not in the file: before making them, the
	 * count is bounded by the input, at most one id per byte
	 * of the trace in all (the calls that started the
	 * requests take far more). */
	if ((size_t)c->nreq > ps->len - ps->nderived)
		return fail(ps, f[-1].s, "request count %d too large for a trace of %zu bytes",
		            c->nreq, ps->len);
	ps->nderived += (size_t)c->nreq;
	c->flags |= TR_F_DERIVED;
	c->list[0] = (uint32_t)ps->t->npool;
	c->len[0] = (uint32_t)c->nreq;
	for (int32_t k = 0; k < c->nreq; k++)
		if (pool_push(ps, (int64_t)((uint64_t)v + (uint64_t)k * ps->reqsize)))
			return -1;
	return 0;
}

/* The field pair A (counts) or D (displacements, not kept; kind) at f:
 * the total, then the list.  The counts go to the send or receive side
 * by the datatypes seen so far (nd) and wait in *pending_list for their
 * datatype's size. */
static int counts_field(struct parser *ps, struct tr_call *c, char kind, const struct field *f,
                        int nd, int *pending_list)
{
	int64_t v;
	uint32_t off, len;
	if (parse_int(ps, f, &v))
		return -1;
	if (parse_list(ps, f + 1, &off, &len))
		return -1;
	if (kind == 'A') {
		int side = nd > 1 ? 1 : nd;
		c->list[side] = off;
		c->len[side] = len;
		*pending_list = side;
	} else {
		ps->t->npool = off; /* displacements are not kept */
	}
	return 0;
}

/* Fills c from the fields f[0..n) that the layout describes. */
static int parse_fields(struct parser *ps, struct tr_call *c, const char *l,
                        const struct field *f)
{
	int nP = 0, nT = 0, nd = 0, pending_list = -1;
	int64_t count = -1, v[3];
	for (; *l; l++, f++) {
		switch (*l) {
		case 'p': case 'b': case 'i': case 'o':
			if (parse_int(ps, f, &v[0]))
				return -1;
			break;
		case 'n':
			if (parse_int(ps, f, &count))
				return -1;
			if (count < 0)
				return fail(ps, f->s, "negative count %lld", (long long)count);
			break;
		case 'd':
			if (datatype_field(ps, c, f, &count, &pending_list, &nd))
				return -1;
			break;
		case 'P':
			if (parse_i32(ps, f, nP++ ? &c->rpeer : &c->peer))
				return -1;
			break;
		case 'T':
			if (parse_i32(ps, f, nT++ ? &c->rtag : &c->tag))
				return -1;
			break;
		case 'r':
			if (parse_i32(ps, f, &c->root))
				return -1;
			break;
		case 'c':
			if (comm_field(ps, c, f))
				return -1;
			break;
		case 'R': case 'N': case 'F':
			if (parse_int(ps, f, &v[0]))
				return -1;
			if (*l == 'R')
				c->req = (uint64_t)v[0];
			else
				c->newcomm = (uint64_t)v[0];
			break;
		case 'k':
			if (parse_i32(ps, f, &c->nreq))
				return -1;
			if (c->nreq < 0)
				return fail(ps, f->s, "negative request count %d", c->nreq);
			break;
		case 'L': case 'I': case 'S':
			if (req_list(ps, c, *l, f))
				return -1;
			break;
		case 'B':
			if (derived_reqs(ps, c, f))
				return -1;
			break;
		case 'f': case 'O':
			if (parse_i32(ps, f, &c->flag))
				return -1;
			break;
		case 'x':
			if (parse_i32(ps, f, &c->index))
				return -1;
			if (c->index == OMPI_UNDEFINED)
				c->index = -1;
			break;
		case 's':
			if (parse_triple(ps, f, v, "status source,tag,bytes"))
				return -1;
			c->st_source = (int32_t)v[0];
			c->st_tag = (int32_t)v[1];
			c->st_bytes = v[2];
			c->flags |= TR_F_STATUS;
			break;
		case 'A': case 'D':
			if (counts_field(ps, c, *l, f, nd, &pending_list))
				return -1;
			f++;
			break;
		case 'Q':
			if (parse_list(ps, f, &c->list[0], &c->len[0]))
				return -1;
			pending_list = 0;
			break;
		case 'K':
			if (parse_i32(ps, f, &c->color))
				return -1;
			break;
		case 'Y':
			if (parse_i32(ps, f, &c->key))
				return -1;
			break;
		case 'W':
			if (parse_list(ps, f, &c->list[0], &c->len[0]))
				return -1;
			c->comm_size = (int32_t)c->len[0];
			break;
		}
	}
	if (c->kind == TR_SENDRECV_REPLACE)
		c->rbytes = c->bytes;
	return 0;
}

#define MAX_FIELDS 64

/* Parses one call line [s, e) (no newline). */
static int parse_call(struct parser *ps, const char *s, const char *e)
{
	struct field f[MAX_FIELDS];
	int n = 0;
	const char *p = s;
	for (;;) {
		const char *c = memchr(p, ':', (size_t)(e - p));
		if (n == MAX_FIELDS)
			return fail(ps, p, "too many fields");
		f[n++] = trim(p, c ? c : e);
		if (!c)
			break;
		p = c + 1;
	}
	struct tr_call call;
	memset(&call, 0, sizeof call);
	call.line = ps->lineno;
	call.peer = call.rpeer = call.root = call.index = -1;
	int commdef = f[0].e - f[0].s == 6 && memcmp(f[0].s, "# comm", 6) == 0;
	enum tr_kind k = commdef ? TR_COMMDEF : find_kind(&f[0], ps->t->dialect);
	call.kind = (uint16_t)k;
	const char *l = layout[ps->t->dialect][k];
	int ntimes = commdef ? 0 : 2;
	int want = 1 + ntimes + layout_fields(l);
	if (k == TR_OTHER) {
		if (n < 3)
			return fail(ps, e, "%.*s: expected a start and an end time",
			            (int)(f[0].e - f[0].s), f[0].s);
		if (intern_name(ps, &f[0], &call.name))
			return -1;
	} else if (n != want) {
		return fail(ps, n > want ? f[want].s : e,
		            "%s: expected %d fields after the name, found %d",
		            tr_kind_names[k], want - 1, n - 1);
	}
	if (ntimes) {
		int ks, ke;
		if (parse_time(ps, &f[1], &call.start, &ks) ||
		    parse_time(ps, &f[n - 1], &call.end, &ke))
			return -1;
		if (!ks) {
			call.flags |= TR_F_NO_START;
			call.start = call.end;
		}
		if (!ke) {
			call.flags |= TR_F_NO_END;
			call.end = call.start;
		}
		if (call.end < call.start)
			return fail(ps, f[n - 1].s, "end time %.3f before start time %.3f",
			            call.end, call.start);
	} else if (ps->t->ncalls) {
		call.start = call.end = ps->t->calls[ps->t->ncalls - 1].end;
	}
	if (k != TR_OTHER && parse_fields(ps, &call, l, f + 1 + (ntimes ? 1 : 0)))
		return -1;
	struct tr_trace *t = ps->t;
	if (util_grow(&t->calls, &ps->cap_calls, t->ncalls + 1, sizeof *t->calls))
		return fail(ps, s, "out of memory");
	/* the recorder writes a flush's line before the record whose start
	 * made it flush, but the flush came after that call: the pause goes to
	 * the first call that starts after the flush began */
	if (!commdef && ps->paused > 0 && call.start >= ps->paused_from) {
		call.paused = ps->paused;
		ps->paused = 0;
	}
	t->calls[t->ncalls++] = call;
	return 0;
}

static int starts(const char *s, const char *e, const char *prefix)
{
	size_t n = strlen(prefix);
	return (size_t)(e - s) >= n && memcmp(s, prefix, n) == 0;
}

/* Parses a "# ..." line: header values and communicator definitions. */
static int parse_comment(struct parser *ps, const char *s, const char *e)
{
	if (starts(s, e, "# comm:"))
		return parse_call(ps, s, e);
	if (starts(s, e, "# flush:")) {
		/* "# flush: START END": the recorder wrote its buffer out */
		struct field f = trim(s + 8, e), a = f, b;
		double t0, t1;
		int k0, k1;
		while (a.e > a.s && !is_space(a.e[-1]))
			a.e--;
		b = trim(a.e, f.e);
		a = trim(f.s, a.e);
		if (a.s == a.e || parse_time(ps, &a, &t0, &k0) || parse_time(ps, &b, &t1, &k1))
			return a.s == a.e ? fail(ps, f.s, "expected '# flush: START END'") : -1;
		if (k0 && k1 && t1 > t0) {
			if (ps->paused == 0)
				ps->paused_from = t0;
			ps->paused += t1 - t0;
		}
		return 0;
	}
	if (starts(s, e, "# goaltrace")) {
		ps->t->dialect = TR_DIALECT_GOALTRACE;
		return 0;
	}
	if (starts(s, e, "# hostname:")) {
		struct field f = trim(s + 11, e);
		size_t n = (size_t)(f.e - f.s);
		if (n >= sizeof ps->t->host)
			n = sizeof ps->t->host - 1;
		memcpy(ps->t->host, f.s, n);
		ps->t->host[n] = '\0';
		return 0;
	}
	if (starts(s, e, "# tracer overhead:")) {
		/* "# tracer overhead: N ns per call" */
		struct field f = trim(s + 18, e), n = f;
		int32_t v = 0;
		n.e = n.s;
		while (n.e < f.e && !is_space(*n.e))
			n.e++;
		if (parse_i32(ps, &n, &v))
			return -1;
		struct field r = trim(n.e, f.e);
		if (v < 0 || r.e - r.s != 11 || memcmp(r.s, "ns per call", 11) != 0)
			return fail(ps, n.s, "expected '# tracer overhead: N ns per call'");
		ps->t->tracer_ns = (uint32_t)v;
		return 0;
	}
	if (starts(s, e, "# cores:")) {
		struct field f = trim(s + 8, e);
		int32_t v = 0;
		if (parse_i32(ps, &f, &v))
			return -1;
		if (v < 1)
			return fail(ps, f.s, "expected a number of cores of at least 1");
		ps->t->cores = v;
		return 0;
	}
	int is_rank = starts(s, e, "# rank:"), is_size = starts(s, e, "# size:");
	if (is_rank || is_size) {
		struct field f = trim(s + 7, e);
		int32_t v = 0;
		if (parse_i32(ps, &f, &v))
			return -1;
		if (v < 0)
			return fail(ps, f.s, "negative %s", is_rank ? "rank" : "size");
		*(is_rank ? &ps->t->rank : &ps->t->size) = v;
		if (is_size)
			ps->t->size_line = ps->lineno;
	}
	return 0;
}

/* qsort order of int64_t. */
static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* The request size of a trace read with 8-byte derived ids (see struct
 * tr_options): 4 when some array of two or more requests at A has a
 * started request at A + 4, then its derived ids are rewritten.  Returns
 * 0 or -1 (out of memory). */
static int detect_request_size(struct tr_trace *t)
{
	size_t n = 0, k = 0;
	int64_t *h;
	int four = 0;
	for (size_t i = 0; i < t->ncalls; i++)
		n += tr_starts_request((enum tr_kind)t->calls[i].kind);
	if (n == 0)
		return 0;
	h = malloc(n * sizeof *h);
	if (!h)
		return -1;
	for (size_t i = 0; i < t->ncalls; i++)
		if (tr_starts_request((enum tr_kind)t->calls[i].kind))
			h[k++] = (int64_t)t->calls[i].req;
	qsort(h, n, sizeof *h, cmp_i64);
	for (size_t i = 0; i < t->ncalls && !four; i++) {
		const struct tr_call *c = &t->calls[i];
		if ((c->flags & TR_F_DERIVED) && c->len[0] >= 2) {
			int64_t a4 = (int64_t)((uint64_t)t->pool[c->list[0]] + 4);
			four = bsearch(&a4, h, n, sizeof *h, cmp_i64) != NULL;
		}
	}
	free(h);
	if (!four)
		return 0;
	t->request_size = 4;
	for (size_t i = 0; i < t->ncalls; i++) {
		const struct tr_call *c = &t->calls[i];
		if (!(c->flags & TR_F_DERIVED))
			continue;
		int64_t *v = t->pool + c->list[0];
		for (uint32_t j = 1; j < c->len[0]; j++)
			v[j] = (int64_t)((uint64_t)v[0] + (uint64_t)j * 4);
	}
	return 0;
}

int tr_read_mem(const char *fname, const char *text, size_t len,
                const struct tr_options *opt, struct tr_trace *t,
                char *err, size_t errlen)
{
	memset(t, 0, sizeof *t);
	t->rank = t->size = -1;
	struct parser ps = { .fname = fname, .t = t, .err = err, .errlen = errlen, .len = len };
	ps.reqsize = opt && opt->request_size ? opt->request_size : 8;
	if (errlen)
		err[0] = '\0';
	const char *p = text, *end = text + len;
	while (p < end && !ps.failed) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;
		ps.line = p;
		ps.lineno++;
		if (e > p && e[-1] == '\r')
			e--;
		struct field f = trim(p, e);
		if (memchr(p, '\0', (size_t)(e - p)))
			fail(&ps, p, "NUL byte in line");
		else if (f.s == f.e)
			; /* empty line */
		else if (*f.s == '#')
			parse_comment(&ps, f.s, f.e);
		else if (starts(f.s, f.e, "MPI_") || starts(f.s, f.e, "PMPI_"))
			parse_call(&ps, f.s, f.e);
		else {
			util_kind k = ps.lineno == 1 ? util_kind_of(f.s, (size_t)(end - f.s))
			                             : UTIL_KIND_NONE;
			if (k != UTIL_KIND_NONE)
				fail(&ps, f.s, "this is %s, not an MPI trace", util_kind_what(k));
			else
				fail(&ps, f.s, "expected a call name starting with MPI_ or a '#' comment");
		}
		p = nl ? nl + 1 : end;
	}
	util_kmap_free(&ps.names);
	if (!ps.failed && ps.nderived) {
		t->request_size = ps.reqsize;
		if (!(opt && opt->request_size) && detect_request_size(t)) {
			snprintf(err, errlen, "%s: error: out of memory", fname);
			ps.failed = 1;
		}
	}
	if (ps.failed) {
		tr_free(t);
		return -1;
	}
	return 0;
}

int tr_read_file(const char *path, const struct tr_options *opt,
                 struct tr_trace *t, char *err, size_t errlen)
{
	memset(t, 0, sizeof *t);
	FILE *fp = fopen(path, "rb");
	if (!fp) {
		snprintf(err, errlen, "%s: error: cannot open: %s", path, strerror(errno));
		return -1;
	}
	char *buf = NULL;
	size_t len = 0, cap = 0;
	for (;;) {
		if (util_grow(&buf, &cap, len + 65536, 1)) {
			snprintf(err, errlen, "%s: error: out of memory", path);
			free(buf);
			fclose(fp);
			return -1;
		}
		size_t got = fread(buf + len, 1, cap - len, fp);
		len += got;
		if (got == 0)
			break;
	}
	int bad = ferror(fp);
	fclose(fp);
	if (bad) {
		snprintf(err, errlen, "%s: error: read error", path);
		free(buf);
		return -1;
	}
	int rc = tr_read_mem(path, buf, len, opt, t, err, errlen);
	free(buf);
	return rc;
}

void tr_free(struct tr_trace *t)
{
	free(t->calls);
	free(t->pool);
	free(t->names);
	free(t->skips);
	memset(t, 0, sizeof *t);
	t->rank = t->size = -1;
}

const char *tr_kind_name(enum tr_kind kind)
{
	return (unsigned)kind < TR_NKINDS ? tr_kind_names[kind] : "";
}

enum tr_kind tr_kind_find(const char *name)
{
	for (int k = 0; k < TR_OTHER; k++)
		if (k != TR_COMMDEF && strcmp(tr_kind_names[k], name) == 0)
			return (enum tr_kind)k;
	return TR_OTHER;
}

const char *tr_call_name(const struct tr_trace *t, const struct tr_call *c)
{
	if (c->kind == TR_OTHER)
		return t->names + c->name;
	return tr_kind_name((enum tr_kind)c->kind);
}
