/* trace_write.c: formats binary call records as goaltrace text lines. */
#include "trace_write.h"

#include <string.h>

static const char *const kind_name[TR_NKINDS] = {
#define TR_KIND_NAME(id, name, ours, theirs) name,
	TR_KINDS(TR_KIND_NAME)
#undef TR_KIND_NAME
};

static const char *const kind_layout[TR_NKINDS] = {
#define TR_KIND_LAYOUT(id, name, ours, theirs) ours,
	TR_KINDS(TR_KIND_LAYOUT)
#undef TR_KIND_LAYOUT
};

/* Writes v in decimal at p; returns the end. */
static char *put_u64(char *p, uint64_t v)
{
	char tmp[24];
	int n = 0;
	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

static char *put_i64(char *p, int64_t v)
{
	if (v < 0) {
		*p++ = '-';
		return put_u64(p, (uint64_t)0 - (uint64_t)v);
	}
	return put_u64(p, (uint64_t)v);
}

/* Writes nanoseconds t + shift as microseconds with three decimals. */
static char *put_time(char *p, uint64_t t, int64_t shift)
{
	if (t == TR_NO_TIME) {
		*p++ = '-';
		return p;
	}
	int64_t ns = (int64_t)t + shift;
	uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
	if (ns < 0)
		*p++ = '-';
	p = put_u64(p, a / 1000);
	unsigned frac = (unsigned)(a % 1000);
	*p++ = '.';
	*p++ = (char)('0' + frac / 100);
	*p++ = (char)('0' + frac / 10 % 10);
	*p++ = (char)('0' + frac % 10);
	return p;
}

/* Is letter a signed scalar? */
static int is_signed(char letter)
{
	return strchr("inPTrkfxOKY", letter) != NULL;
}

size_t tr_record_max_chars(const uint64_t *w)
{
	/* name, 2 times, and per word at most 20 digits, a sign and a separator */
	return 40 + 2 * 26 + 23 * TR_REC_WORDS(w[0]);
}

/* Writes a list of n signed values separated by commas ("-" if empty). */
static char *put_list(char *p, const uint64_t *v, uint64_t n)
{
	if (n == 0) {
		*p++ = '-';
		return p;
	}
	for (uint64_t i = 0; i < n; i++) {
		if (i)
			*p++ = ',';
		p = put_i64(p, (int64_t)v[i]);
	}
	return p;
}

size_t tr_format_record(const uint64_t *w, int64_t shift_ns, char *out)
{
	unsigned kind = TR_REC_KIND(w[0]);
	size_t nw = TR_REC_WORDS(w[0]);
	if (kind >= TR_OTHER || nw < 3)
		return 0;
	char *p = out;
	size_t nl = strlen(kind_name[kind]);
	memcpy(p, kind_name[kind], nl);
	p += nl;
	if (kind != TR_COMMDEF) {
		*p++ = ':';
		p = put_time(p, w[1], shift_ns);
	}
	size_t i = 3;
	for (const char *l = kind_layout[kind]; *l; l++) {
		size_t need = 1;
		if (strchr("dcs", *l))
			need = 3;
		if (i + need > nw)
			return 0;
		*p++ = ':';
		switch (*l) {
		case 'd': /* id unsigned, size and extent signed */
			p = put_u64(p, w[i]);
			*p++ = ',';
			p = put_i64(p, (int64_t)w[i + 1]);
			*p++ = ',';
			p = put_i64(p, (int64_t)w[i + 2]);
			i += 3;
			break;
		case 'c':
			p = put_u64(p, w[i]);
			*p++ = ',';
			p = put_i64(p, (int64_t)w[i + 1]);
			*p++ = ',';
			p = put_i64(p, (int64_t)w[i + 2]);
			i += 3;
			break;
		case 's':
			p = put_list(p, w + i, 3);
			i += 3;
			break;
		case 'L': case 'I': case 'W': case 'Q': case 'S': {
			uint64_t n = w[i++];
			if (*l == 'S')
				n *= 3;
			if (n > nw - i)
				return 0;
			if (*l == 'L') { /* request handles are unsigned */
				if (n == 0)
					*p++ = '-';
				for (uint64_t k = 0; k < n; k++) {
					if (k)
						*p++ = ',';
					p = put_u64(p, w[i + k]);
				}
			} else {
				p = put_list(p, w + i, n);
			}
			i += n;
			break;
		}
		case 'A': case 'D': {
			if (i + 2 > nw)
				return 0;
			p = put_u64(p, w[i]);
			*p++ = ':';
			uint64_t n = w[i + 1];
			i += 2;
			if (n > nw - i)
				return 0;
			p = put_list(p, w + i, n);
			i += n;
			break;
		}
		default:
			if (is_signed(*l))
				p = put_i64(p, (int64_t)w[i]);
			else
				p = put_u64(p, w[i]);
			i++;
			break;
		}
	}
	if (i != nw)
		return 0;
	if (kind != TR_COMMDEF) {
		*p++ = ':';
		p = put_time(p, w[2], shift_ns);
	}
	*p++ = '\n';
	return (size_t)(p - out);
}
