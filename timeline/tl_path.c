/* tl_path.c: the critical path CSV file (tl_path.h), reader and writer. */
#include "tl_path.h"
#include "num.h"
#include "util.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const char *const tl_link_word[TL_LINK_NKINDS] = {
#define TL_LINK_X(name, word, place, what) word,
	TL_LINK_KINDS(TL_LINK_X)
#undef TL_LINK_X
};
const char *const tl_via_word[TL_NVIAS] = {
#define TL_VIA_X(name, word) word,
	TL_VIAS(TL_VIA_X)
#undef TL_VIA_X
};
const char *const tl_link_what[TL_LINK_NKINDS] = {
#define TL_LINK_X(name, word, place, what) what,
	TL_LINK_KINDS(TL_LINK_X)
#undef TL_LINK_X
};
const unsigned char tl_link_place[TL_LINK_NKINDS] = {
#define TL_LINK_X(name, word, place, what) place,
	TL_LINK_KINDS(TL_LINK_X)
#undef TL_LINK_X
};

/* The columns, in order. */
enum {
	C_STEP, C_KIND, C_RANK, C_UNIT, C_OP, C_PEER, C_START, C_END, C_VIA, C_RANGE,
	C_L, C_O, C_G, C_GB, C_OB, C_CALC, C_NOISE, C_LABEL, NCOLS
};
static const char *const col_name[NCOLS] = {
	"step", "kind", "rank", "unit", "op", "peer", "start_ns", "end_ns", "via", "range",
	"L", "o", "g", "G_bytes", "O_bytes", "calc_ns", "noise_ns", "label"
};
static const char header[] =
	"step,kind,rank,unit,op,peer,start_ns,end_ns,via,range,L,o,g,G_bytes,O_bytes,"
	"calc_ns,noise_ns,label";

/* ---- Writer ------------------------------------------------------------- */

int tl_path_write(FILE *f, const tl_link *links, size_t n)
{
	fprintf(f, "%s\n", header);
	for (size_t i = 0; i < n; i++) {
		const tl_link *l = &links[i];
		char line[512], *p = line;
		p = util_put_u64(p, l->step);
		*p++ = ',';
		const char *w = (unsigned)l->kind < TL_LINK_NKINDS ? tl_link_word[l->kind] : "?";
		size_t wl = strlen(w);
		memcpy(p, w, wl);
		p += wl;
		const uint64_t v[] = { l->rank, l->unit, l->op };
		for (int k = 0; k < 3; k++) {
			*p++ = ',';
			p = util_put_u64(p, v[k]);
		}
		*p++ = ',';
		if (l->kind != TL_LINK_CALC)
			p = util_put_u64(p, l->peer);
		const uint64_t u[] = { l->start_ns, l->end_ns, 0, l->range, l->L, l->o, l->g,
		                       l->G_bytes, l->O_bytes, l->calc_ns };
		for (size_t k = 0; k < sizeof u / sizeof u[0]; k++) {
			*p++ = ',';
			if (k == C_VIA - C_START) {
				const char *vw = (unsigned)l->via < TL_NVIAS ? tl_via_word[l->via] : "?";
				memcpy(p, vw, strlen(vw));
				p += strlen(vw);
			} else {
				p = util_put_u64(p, u[k]);
			}
		}
		*p++ = ',';
		if (l->noise_ns < 0)
			*p++ = '-';
		p = util_put_u64(p, l->noise_ns < 0 ? (uint64_t)-(l->noise_ns + 1) + 1
		                                    : (uint64_t)l->noise_ns);
		*p++ = ',';
		fwrite(line, 1, (size_t)(p - line), f);
		if (l->label && *l->label) {
			fputc('"', f);
			for (const char *s = l->label; *s; s++) {
				if (*s == '"')
					fputc('"', f);
				fputc((unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s, f);
			}
			fputc('"', f);
		}
		fputc('\n', f);
	}
	return ferror(f) ? -1 : 0;
}

/* ---- Reader ------------------------------------------------------------- */

typedef struct prd {
	const char *name;
	uint64_t line;
	const char *lbuf;
	char *err;
	size_t errlen;
} prd;

static int perr(prd *r, const char *at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int perr(prd *r, const char *at, const char *fmt, ...)
{
	int n = snprintf(r->err, r->errlen, "%s:%" PRIu64 ":%ld: error: ", r->name, r->line,
	                 (long)(at - r->lbuf) + 1);
	if (n < 0 || (size_t)n >= r->errlen)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->err + n, r->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* One field of a row: where it starts in the line and its text (a quoted
 * field unquoted into the row's buffer). */
typedef struct field {
	const char *at;
	const char *s;
	size_t len;
} field;

/* Split line (its newline cut off, len bytes) into NCOLS fields, the last
 * one possibly quoted; unquoted text goes to buf (len + 1 bytes). */
static int split(prd *r, char *line, size_t len, field *f, char *buf)
{
	size_t i = 0, nf = 0;
	for (;;) {
		if (nf == NCOLS)
			return perr(r, line + i, "expected %d fields, found more", NCOLS);
		field *x = &f[nf++];
		x->at = line + i;
		if (i < len && line[i] == '"') {
			size_t k = 0;
			for (i++;; i++) {
				if (i >= len)
					return perr(r, x->at, "unterminated quoted %s", col_name[nf - 1]);
				if (line[i] == '"') {
					if (i + 1 < len && line[i + 1] == '"') {
						buf[k++] = '"';
						i++;
						continue;
					}
					i++;
					break;
				}
				buf[k++] = line[i];
			}
			buf[k] = 0;
			x->s = buf;
			x->len = k;
			buf += k + 1;
			if (i < len && line[i] != ',')
				return perr(r, line + i, "text after the closing quote of %s",
				            col_name[nf - 1]);
		} else {
			x->s = line + i;
			while (i < len && line[i] != ',') {
				if (line[i] == '"')
					return perr(r, line + i, "a quote inside the unquoted %s",
					            col_name[nf - 1]);
				i++;
			}
			x->len = (size_t)(line + i - x->s);
		}
		if (i >= len)
			break;
		i++;  /* the comma */
	}
	if (nf < NCOLS)
		return perr(r, line + len, "expected %d fields, found %zu", NCOLS, nf);
	return 0;
}

static int num(prd *r, const field *x, int col, uint64_t *v)
{
	if (x->len == 0)
		return perr(r, x->at, "missing %s", col_name[col]);
	num_err e = num_u64_parse(x->s, x->len, v);
	if (e == NUM_BIG)
		return perr(r, x->at, "%s '%.*s' is too large", col_name[col],
		            (int)(x->len > 40 ? 40 : x->len), x->s);
	if (e != NUM_OK)
		return perr(r, x->at, "bad %s '%.*s' (expected an unsigned integer)", col_name[col],
		            (int)(x->len > 40 ? 40 : x->len), x->s);
	return 0;
}

/* One row into *l (its label copied); prev: the row before, or NULL. */
static int row(prd *r, char *line, size_t len, tl_link *l, const tl_link *prev, char *buf)
{
	field f[NCOLS];
	if (split(r, line, len, f, buf))
		return -1;
	memset(l, 0, sizeof *l);
	const field *k = &f[C_KIND];
	int kind = -1;
	for (int i = 0; i < TL_LINK_NKINDS; i++)
		if (k->len == strlen(tl_link_word[i]) && memcmp(k->s, tl_link_word[i], k->len) == 0)
			kind = i;
	uint64_t unit;
	if (num(r, &f[C_STEP], C_STEP, &l->step))
		return -1;
	if (kind < 0)
		return perr(r, k->at, "unknown kind '%.*s' (expected calc, send, snic, wire, recv or "
		            "rnic)", (int)(k->len > 40 ? 40 : k->len), k->s);
	l->kind = (tl_link_kind)kind;
	if (num(r, &f[C_RANK], C_RANK, &l->rank) || num(r, &f[C_UNIT], C_UNIT, &unit) ||
	    num(r, &f[C_OP], C_OP, &l->op))
		return -1;
	if (unit > 65535)
		return perr(r, f[C_UNIT].at, "unit %" PRIu64 " out of range (at most 65535)", unit);
	l->unit = (uint32_t)unit;
	if (kind == TL_LINK_CALC && f[C_PEER].len)
		return perr(r, f[C_PEER].at, "a calc link has no peer");
	if (kind != TL_LINK_CALC && !f[C_PEER].len)
		return perr(r, f[C_PEER].at, "missing peer (the other rank of the message)");
	if (kind != TL_LINK_CALC && num(r, &f[C_PEER], C_PEER, &l->peer))
		return -1;
	uint64_t *dst[] = { &l->start_ns, &l->end_ns, NULL, &l->range, &l->L, &l->o, &l->g,
	                    &l->G_bytes, &l->O_bytes, &l->calc_ns };
	for (int c = C_START; c < C_NOISE; c++)
		if (c != C_VIA && num(r, &f[c], c, dst[c - C_START]))
			return -1;
	const field *v = &f[C_VIA];
	int via = -1;
	for (int i = 0; i < TL_NVIAS; i++)
		if (v->len == strlen(tl_via_word[i]) && memcmp(v->s, tl_via_word[i], v->len) == 0)
			via = i;
	if (via < 0)
		return perr(r, v->at, "unknown via '%.*s' (expected root, dep, cpu, nic, msg, hold or "
		            "depart)", (int)(v->len > 40 ? 40 : v->len), v->s);
	l->via = (tl_via)via;
	/* noise_ns: an integer that may be negative. */
	field nz = f[C_NOISE];
	int neg = nz.len > 1 && nz.s[0] == '-';
	uint64_t mag;
	if (neg) {
		nz.s++;
		nz.len--;
	}
	if (num(r, &nz, C_NOISE, &mag))
		return -1;
	if (mag > (uint64_t)INT64_MAX + (uint64_t)neg)
		return perr(r, f[C_NOISE].at, "noise_ns is too large");
	l->noise_ns = neg ? (int64_t)(0 - mag) : (int64_t)mag;
	if (l->end_ns < l->start_ns)
		return perr(r, f[C_END].at, "end_ns %" PRIu64 " before start_ns %" PRIu64, l->end_ns,
		            l->start_ns);
	if (prev && (prev->step == UINT64_MAX || l->step != prev->step + 1))
		return perr(r, f[C_STEP].at, "step %" PRIu64 " does not follow step %" PRIu64,
		            l->step, prev->step);
	if (prev && l->start_ns < prev->start_ns)
		return perr(r, f[C_START].at, "start_ns %" PRIu64 " before the start of the link "
		            "before it (%" PRIu64 "): the links are in time order", l->start_ns,
		            prev->start_ns);
	const field *lb = &f[C_LABEL];
	if (lb->len) {
		if (memchr(lb->s, 0, lb->len))
			return perr(r, lb->at, "NUL byte in the label");
		char *s = malloc(lb->len + 1);
		if (!s) {
			snprintf(r->err, r->errlen, "%s: error: out of memory", r->name);
			return -1;
		}
		memcpy(s, lb->s, lb->len);
		s[lb->len] = 0;
		l->label = s;
	}
	return 0;
}

void tl_path_free(tl_link *links, size_t n)
{
	for (size_t i = 0; links && i < n; i++)
		free((void *)(uintptr_t)links[i].label);
	free(links);
}

int tl_path_read(FILE *f, const char *name, tl_link **out, size_t *n, char *err,
                 size_t errlen)
{
	prd r = { name, 0, NULL, err, errlen };
	tl_link *v = NULL;
	size_t nv = 0, cap = 0, bcap = 0;
	char *line = NULL, *buf = NULL;
	size_t lcap = 0;
	ssize_t got;
	int rc = 0, have_header = 0;
	*out = NULL;
	*n = 0;
	while ((got = getline(&line, &lcap, f)) >= 0) {
		size_t len = (size_t)got;
		r.line++;
		r.lbuf = line;
		if (memchr(line, 0, len)) {
			rc = perr(&r, line, "NUL byte in the line");
			break;
		}
		if (len && line[len - 1] == '\n')
			len--;
		if (len && line[len - 1] == '\r')
			len--;
		line[len] = 0;
		if (!have_header) {
			if (strcmp(line, header) != 0) {
				rc = perr(&r, line, "expected the header '%s'", header);
				break;
			}
			have_header = 1;
			continue;
		}
		if (strspn(line, " \t") == len)
			continue;
		if (util_grow(&v, &cap, nv + 1, sizeof *v) ||
		    util_grow(&buf, &bcap, len + 1, 1)) {
			snprintf(err, errlen, "%s: error: out of memory", name);
			rc = -1;
			break;
		}
		if (row(&r, line, len, &v[nv], nv ? &v[nv - 1] : NULL, buf)) {
			rc = -1;
			break;
		}
		nv++;
	}
	if (rc == 0 && ferror(f)) {
		snprintf(err, errlen, "%s: error: read error", name);
		rc = -1;
	}
	if (rc == 0 && !have_header) {
		snprintf(err, errlen, "%s:1:1: error: empty file (expected the header '%s')", name,
		         header);
		rc = -1;
	}
	free(line);
	free(buf);
	if (rc) {
		tl_path_free(v, nv);
		return -1;
	}
	*out = v;
	*n = nv;
	return 0;
}
