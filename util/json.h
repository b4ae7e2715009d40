/* json.h: the JSON writer of the tools' summaries: a document on one line,
 * {"key": value, ...}, with ", " between members or elements and ": "
 * after a key; objects and arrays nest up to UJ_DEPTH deep.  Numbers are
 * the caller's text (an exact decimal, null, true), so that each output
 * keeps its own formats.  Strings are escaped by util_json_str, which the
 * trace-event JSON writer uses too.  Writes go to a FILE; its error flag
 * tells of a failed write. */
#ifndef UTIL_JSON_H
#define UTIL_JSON_H

#include <stdint.h>
#include <stdio.h>

#define UJ_DEPTH 16

typedef struct uj {
	FILE *f;
	unsigned depth;        /* open objects and arrays */
	uint32_t arr;          /* bit d: level d is an array */
	uint32_t more;         /* bit d: level d has a member already */
} uj;

/* s as a JSON string: quotes, backslashes and control characters
 * escaped (\", \\, \u00XX). */
void util_json_str(FILE *f, const char *s);

/* A writer on f; nothing is written yet. */
void uj_init(uj *j, FILE *f);

/* Open an object or an array: as member key of the enclosing object, or
 * as the next element (key NULL: in an array, or the document itself). */
void uj_obj(uj *j, const char *key);
void uj_arr(uj *j, const char *key);

/* Close the innermost object or array. */
void uj_end(uj *j);

/* A member (or, key NULL, an element) whose value is text as it stands,
 * a string, or a number. */
void uj_raw(uj *j, const char *key, const char *text);
void uj_str(uj *j, const char *key, const char *s);
void uj_u64(uj *j, const char *key, uint64_t v);
void uj_i64(uj *j, const char *key, int64_t v);

#endif
