/* loggp_raw.c: reads and writes the PRTT table "loggp-prtt 1" (format in docs/loggp.md). */
#include "loggp_raw.h"
#include "kind.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int loggp_raw_write(FILE *f, unsigned n, const loggp_point *pts, size_t np,
                    const loggp_spoint *spts, size_t nsp)
{
	fprintf(f, "loggp-prtt 1\nn %u\n", n);
	fprintf(f, "# size d PRTT(1,0,s) PRTT(2,0,s) PRTT(n,0,s) PRTT(n,d,s) "
	        "spread(1,0,s) spread(n,0,s) spread(n,d,s)   (ns)\n");
	for (size_t i = 0; i < np; i++) {
		const loggp_point *p = &pts[i];
		fprintf(f, "%llu %.1f %.1f %.1f %.1f %.1f %.1f %.1f %.1f\n",
		        (unsigned long long)p->size, p->d, p->prtt1, p->prtt2, p->prttn,
		        p->prttd, p->spread1, p->spreadn, p->spreadd);
	}
	if (nsp)
		fprintf(f, "# stride D size d PRTT(1,0,s) PRTT(n,d,s), then the same strided   (ns)\n");
	for (size_t i = 0; i < nsp; i++) {
		const loggp_spoint *p = &spts[i];
		fprintf(f, "stride %llu %llu %.1f %.1f %.1f %.1f %.1f\n",
		        (unsigned long long)p->stride, (unsigned long long)p->size, p->d, p->c1,
		        p->cd, p->s1, p->sd);
	}
	return ferror(f) ? -1 : 0;
}

static int rfail(char *err, const char *path, size_t line, size_t col, const char *msg,
                 const char *word, size_t wlen)
{
	snprintf(err, LOGGP_ERRLEN, "%s:%zu:%zu: error: %s%s%.*s%s", path, line, col, msg,
	         word ? " '" : "", (int)wlen, word ? word : "", word ? "'" : "");
	return -1;
}

/* The fields of a line from s on (b: where the line starts, for columns):
 * fills v[0..9) and returns the number of fields, or -1 with err set. */
static int fields(const char *path, size_t line, const char *b, char *s, double *v, char *err)
{
	int nf = 0;
	for (;;) {
		while (*s == ' ' || *s == '\t' || *s == '\r')
			s++;
		if (*s == '\0' || *s == '#')
			return nf;
		char *w = s;
		while (*s && *s != ' ' && *s != '\t' && *s != '\r' && *s != '#')
			s++;
		if (nf == 9)
			return rfail(err, path, line, (size_t)(w - b) + 1,
			             "too many columns (at most 9)", NULL, 0);
		char *e;
		errno = 0;
		double x = strtod(w, &e);
		if (e != s || errno || !isfinite(x) || x < 0)
			return rfail(err, path, line, (size_t)(w - b) + 1,
			             "expected a non-negative number, got", w, (size_t)(s - w));
		v[nf++] = x;
	}
}

/* A strided line "stride D SIZE d C1 CD S1 SD" (kw: its keyword, b: the
 * line) into *p; prev: the line before (NULL: none).  0, or -1 with err
 * set. */
static int stride_line(const char *path, size_t line, const char *b, char *kw,
                       const loggp_spoint *prev, loggp_spoint *p, char *err)
{
	double v[9] = { 0 };
	size_t col = (size_t)(kw - b) + 1;
	int nf = fields(path, line, b, kw + 6, v, err);
	if (nf < 0)
		return -1;
	if (nf != 7)
		return rfail(err, path, line, col, "expected 'stride D SIZE d PRTT(1,0,s) PRTT(n,d,s) "
		             "PRTT(1,0,s) PRTT(n,d,s)' (the last two strided)", NULL, 0);
	if (v[0] != floor(v[0]) || v[0] < 8 || v[0] > 2147483648.0)
		return rfail(err, path, line, col, "the stride must be an integer 8..2147483648", NULL, 0);
	if (v[1] != floor(v[1]) || v[1] < 16 || v[1] > 9e15 || fmod(v[1], 8) != 0)
		return rfail(err, path, line, col, "the size must be a multiple of 8, at least 16", NULL, 0);
	*p = (loggp_spoint){ (uint64_t)v[0], (uint64_t)v[1], v[2], v[3], v[4], v[5], v[6] };
	if (prev && (p->stride < prev->stride || (p->stride == prev->stride && p->size <= prev->size)))
		return rfail(err, path, line, col, "strides must not decrease, sizes increase within one",
		             NULL, 0);
	return 0;
}

/* The first line, "loggp-prtt 1" (s: its first word, at column col).  0,
 * or -1 with err set. */
static int header_line(const char *path, size_t line, size_t col, const char *s, char *err)
{
	util_kind k = util_kind_of(s, strlen(s));
	if (k != UTIL_KIND_NONE && k != UTIL_KIND_PRTT) {
		char msg[256];
		snprintf(msg, sizeof msg, "this is %s, not a table of round-trip times",
		         util_kind_what(k));
		return rfail(err, path, line, col, msg, NULL, 0);
	}
	if (strncmp(s, "loggp-prtt 1", 12) != 0 || s[12 + strspn(s + 12, " \t\r")] != '\0')
		return rfail(err, path, line, col, "expected 'loggp-prtt 1' as the first line", NULL, 0);
	return 0;
}

/* The line "n N" (s: its first word, at column col) into *n.  0, or -1
 * with err set. */
static int n_line(const char *path, size_t line, size_t col, const char *s, unsigned *n,
                  char *err)
{
	char *e;
	unsigned long v = 0;
	if (s[0] == 'n' && (s[1] == ' ' || s[1] == '\t')) {
		errno = 0;
		v = strtoul(s + 2, &e, 10);
		e += strspn(e, " \t\r");
	}
	if (s[0] != 'n' || (s[1] != ' ' && s[1] != '\t') || errno || *e != '\0' ||
	    v < 2 || v > 1000000)
		return rfail(err, path, line, col, "expected 'n N' with 2 <= N <= 1000000", NULL, 0);
	*n = (unsigned)v;
	return 0;
}

/* A size line (b, its first word at column col) appended to *pts (*np
 * points, room for *cap).  0, or -1 with err set. */
static int point_line(const char *path, size_t line, size_t col, char *b, loggp_point **pts,
                      size_t *np, size_t *cap, char *err)
{
	double v[9] = { 0 };
	int nf = fields(path, line, b, b, v, err);
	if (nf < 0)
		return -1;
	if (nf != 6 && nf != 9)
		return rfail(err, path, line, col,
		             "expected 6 or 9 columns: size d PRTT(1,0,s) PRTT(2,0,s) "
		             "PRTT(n,0,s) PRTT(n,d,s) [3 spreads]", NULL, 0);
	if (v[0] != floor(v[0]) || v[0] > 9e15)
		return rfail(err, path, line, col, "the size must be an integer", NULL, 0);
	if (*np && (uint64_t)v[0] <= (*pts)[*np - 1].size)
		return rfail(err, path, line, col, "sizes must increase", NULL, 0);
	if (util_grow(pts, cap, *np + 1, sizeof **pts)) {
		snprintf(err, LOGGP_ERRLEN, "%s: error: out of memory", path);
		return -1;
	}
	loggp_point *p = &(*pts)[(*np)++];
	*p = (loggp_point){ (uint64_t)v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8] };
	return 0;
}

int loggp_raw_read(const char *path, unsigned *n, loggp_point **pts, size_t *np,
                   loggp_spoint **spts, size_t *nsp, char err[LOGGP_ERRLEN])
{
	loggp_spoint *sp = NULL, last_sp;
	size_t nsp_ = 0, spcap = 0;
	int have_sp = 0;
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, LOGGP_ERRLEN, "%s: error: cannot open: %s", path, strerror(errno));
		return -1;
	}
	char *buf = NULL;
	size_t bcap = 0, line = 0, cap = 0;
	int state = 0; /* 0: header expected, 1: n expected, 2: points */
	int rc = 0;
	*pts = NULL;
	*np = 0;
	while (getline(&buf, &bcap, f) >= 0) {
		line++;
		buf[strcspn(buf, "\n")] = '\0';
		char *s = buf + strspn(buf, " \t\r");
		if (*s == '\0' || *s == '#')
			continue;
		size_t col = (size_t)(s - buf) + 1;
		if (state == 0) {
			if ((rc = header_line(path, line, col, s, err)))
				break;
			state = 1;
			continue;
		}
		if (state == 1) {
			if ((rc = n_line(path, line, col, s, n, err)))
				break;
			state = 2;
			continue;
		}
		if (strncmp(s, "stride", 6) == 0 && (s[6] == ' ' || s[6] == '\t')) {
			loggp_spoint q;
			if (stride_line(path, line, buf, s, have_sp ? &last_sp : NULL, &q, err)) {
				rc = -1;
				break;
			}
			have_sp = 1;
			last_sp = q;
			if (spts) {
				if (util_grow(&sp, &spcap, nsp_ + 1, sizeof *sp)) {
					snprintf(err, LOGGP_ERRLEN, "%s: error: out of memory", path);
					rc = -1;
					break;
				}
				sp[nsp_++] = q;
			}
			continue;
		}
		if (have_sp) {
			rc = rfail(err, path, line, col, "a size after the strided lines", NULL, 0);
			break;
		}
		if ((rc = point_line(path, line, col, buf, pts, np, &cap, err)))
			break;
	}
	if (rc == 0 && ferror(f)) {
		snprintf(err, LOGGP_ERRLEN, "%s: error: cannot read: %s", path, strerror(errno));
		rc = -1;
	}
	if (rc == 0 && state < 2)
		rc = rfail(err, path, line + 1, 1, state == 0 ? "empty file, expected 'loggp-prtt 1'"
		           : "expected 'n N'", NULL, 0);
	if (rc == 0 && *np == 0)
		rc = rfail(err, path, line + 1, 1, "no sizes in the table", NULL, 0);
	free(buf);
	fclose(f);
	if (rc) {
		free(*pts);
		*pts = NULL;
		*np = 0;
		free(sp);
		sp = NULL;
		nsp_ = 0;
	}
	if (spts) {
		*spts = sp;
		*nsp = nsp_;
	}
	return rc;
}
