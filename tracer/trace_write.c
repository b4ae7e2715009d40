/* trace_write.c: formats binary call records as goaltrace text lines. */
#include "trace_write.h"
#include "util.h"

#include <string.h>

const char *const tr_kind_names[TR_NKINDS] = {
#define TR_KIND_NAME(id, name, ours, theirs) name,
	TR_KINDS(TR_KIND_NAME)
#undef TR_KIND_NAME
};

static const char *const kind_layout[TR_NKINDS] = {
#define TR_KIND_LAYOUT(id, name, ours, theirs) ours,
	TR_KINDS(TR_KIND_LAYOUT)
#undef TR_KIND_LAYOUT
};

/* The words of field letter l in a record (the encoding in trace_write.h):
 * FIELD_WORDS without the values of its list, VALUE_WORDS per value of its
 * list (0: the letter has no list). */
#define FIELD_WORDS(l) ((l) == 'd' ? 5 : (l) == 'c' || (l) == 's' ? 3 \
	: (l) == 'A' || (l) == 'D' ? 2 : 1)
#define VALUE_WORDS(l) ((l) == 'S' ? 3 \
	: (l) == 'L' || (l) == 'I' || (l) == 'W' || (l) == 'Q' || (l) == 'A' || (l) == 'D' ? 1 : 0)

/* WORDS(layout, F): the sum of F over the letters of a layout string
 * literal of at most 16 letters (checked below), folded at compile time
 * (GCC and clang fold a string literal's characters in an initializer). */
#define LETTER(s, k, F) ((k) < sizeof(s) - 1 ? F((s)[(k) < sizeof(s) ? (k) : 0]) : 0)
#define WORDS(s, F) (LETTER(s, 0, F) + LETTER(s, 1, F) + LETTER(s, 2, F) + \
	LETTER(s, 3, F) + LETTER(s, 4, F) + LETTER(s, 5, F) + LETTER(s, 6, F) + \
	LETTER(s, 7, F) + LETTER(s, 8, F) + LETTER(s, 9, F) + LETTER(s, 10, F) + \
	LETTER(s, 11, F) + LETTER(s, 12, F) + LETTER(s, 13, F) + LETTER(s, 14, F) + \
	LETTER(s, 15, F))
#define TR_KIND_SHORT(id, name, ours, theirs) \
	_Static_assert(sizeof(ours) <= 17, "the layout of " name " is longer than WORDS reads");
TR_KINDS(TR_KIND_SHORT)
#undef TR_KIND_SHORT

/* Per kind: the words of a record whose lists are empty, and the words
 * added per value in every list. */
static const struct {
	unsigned char fixed, per_value;
} kind_words[TR_NKINDS] = {
#define TR_KIND_WORDS(id, name, ours, theirs) \
	{ TR_REC_FIRST + WORDS(ours, FIELD_WORDS), WORDS(ours, VALUE_WORDS) },
	TR_KINDS(TR_KIND_WORDS)
#undef TR_KIND_WORDS
};

size_t tr_record_words(enum tr_kind kind, size_t n)
{
	return kind_words[kind].fixed + kind_words[kind].per_value * n;
}

static char *put_i64(char *p, int64_t v)
{
	if (v < 0) {
		*p++ = '-';
		return util_put_u64(p, (uint64_t)0 - (uint64_t)v);
	}
	return util_put_u64(p, (uint64_t)v);
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
	p = util_put_u64(p, a / 1000);
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
	if (kind >= TR_OTHER || nw < TR_REC_FIRST)
		return 0;
	char *p = out;
	size_t nl = strlen(tr_kind_names[kind]);
	memcpy(p, tr_kind_names[kind], nl);
	p += nl;
	if (kind != TR_COMMDEF) {
		*p++ = ':';
		p = put_time(p, w[1], shift_ns);
	}
	size_t i = TR_REC_FIRST;
	for (const char *l = kind_layout[kind]; *l; l++) {
		if (i + FIELD_WORDS(*l) > nw)
			return 0;
		*p++ = ':';
		switch (*l) {
		case 'd': /* id unsigned, size and extent signed; a vector's
		           * stride and block when it has them (stride not 0) */
			p = util_put_u64(p, w[i]);
			*p++ = ',';
			p = put_i64(p, (int64_t)w[i + 1]);
			*p++ = ',';
			p = put_i64(p, (int64_t)w[i + 2]);
			if (w[i + 3]) {
				*p++ = ',';
				p = util_put_u64(p, w[i + 3]);
				*p++ = ',';
				p = util_put_u64(p, w[i + 4]);
			}
			i += 5;
			break;
		case 'c':
			p = util_put_u64(p, w[i]);
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
			uint64_t n = w[i++] * VALUE_WORDS(*l);
			if (n > nw - i)
				return 0;
			if (*l == 'L') { /* request handles are unsigned */
				if (n == 0)
					*p++ = '-';
				for (uint64_t k = 0; k < n; k++) {
					if (k)
						*p++ = ',';
					p = util_put_u64(p, w[i + k]);
				}
			} else {
				p = put_list(p, w + i, n);
			}
			i += n;
			break;
		}
		case 'A': case 'D': {
			p = util_put_u64(p, w[i]);
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
				p = util_put_u64(p, w[i]);
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
