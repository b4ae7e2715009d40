/* json.c: the JSON writer (json.h). */
#include "json.h"

#include "invariant.h"

#include <inttypes.h>

void util_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

void uj_init(uj *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->arr = j->more = 0;
}

/* The separator before the next member or element, and its key. */
static void next(uj *j, const char *key)
{
	if (j->depth) {
		uint32_t bit = 1u << (j->depth - 1);
		if (j->more & bit)
			fputs(", ", j->f);
		j->more |= bit;
		ASSERT(!key == !!(j->arr & bit));
	}
	if (key) {
		util_json_str(j->f, key);
		fputs(": ", j->f);
	}
}

static void begin(uj *j, const char *key, int arr)
{
	ASSERT(j->depth < UJ_DEPTH);
	next(j, key);
	fputc(arr ? '[' : '{', j->f);
	uint32_t bit = 1u << j->depth++;
	j->more &= ~bit;
	if (arr)
		j->arr |= bit;
	else
		j->arr &= ~bit;
}

void uj_obj(uj *j, const char *key) { begin(j, key, 0); }
void uj_arr(uj *j, const char *key) { begin(j, key, 1); }

void uj_end(uj *j)
{
	ASSERT(j->depth > 0);
	uint32_t bit = 1u << --j->depth;
	fputc(j->arr & bit ? ']' : '}', j->f);
}

void uj_raw(uj *j, const char *key, const char *text)
{
	next(j, key);
	fputs(text, j->f);
}

void uj_str(uj *j, const char *key, const char *s)
{
	next(j, key);
	util_json_str(j->f, s);
}

void uj_u64(uj *j, const char *key, uint64_t v)
{
	next(j, key);
	fprintf(j->f, "%" PRIu64, v);
}

void uj_i64(uj *j, const char *key, int64_t v)
{
	next(j, key);
	fprintf(j->f, "%" PRId64, v);
}
