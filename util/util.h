/* util.h: small helpers shared by the tools: the hash of tables, the
 * integer formatter, the growable array, reading a small file whole, and
 * writing text escaped for XML (SVG). */
#ifndef UTIL_H
#define UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* splitmix64, the project's one pseudo-random generator: util_mix64 is
 * the value of state x (x advanced by the step, then mixed), util_next64
 * the next value of the state *st, which it advances. */
#define UTIL_MIX64_STEP 0x9e3779b97f4a7c15u
static inline uint64_t util_mix64(uint64_t x)
{
	x += UTIL_MIX64_STEP;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
	return x ^ (x >> 31);
}

static inline uint64_t util_next64(uint64_t *st)
{
	uint64_t r = util_mix64(*st);
	*st += UTIL_MIX64_STEP;
	return r;
}

/* The hash of the n bytes at p: the one hash of the project's tables of
 * names and keys (in memory only: no file depends on it).  Eight bytes at
 * a time, each word mixed by a multiply (a long key in four independent
 * lanes, 32 bytes a round, folded into one), the rest byte by byte, then
 * the high bits folded into the low ones (tables index by the low bits). */
static inline uint64_t util_hash(const void *p, size_t n)
{
	const unsigned char *b = p;
	uint64_t h = 0x9e3779b97f4a7c15u ^ n;
	if (n >= 64) {
		uint64_t l0 = h, l1 = h + 1, l2 = h + 2, l3 = h + 3, w[4];
		for (; n >= 32; n -= 32, b += 32) {
			memcpy(w, b, 32);
			l0 = (l0 ^ w[0]) * 0xff51afd7ed558ccdu;
			l1 = (l1 ^ w[1]) * 0xff51afd7ed558ccdu;
			l2 = (l2 ^ w[2]) * 0xff51afd7ed558ccdu;
			l3 = (l3 ^ w[3]) * 0xff51afd7ed558ccdu;
			l0 ^= l0 >> 32;
			l1 ^= l1 >> 32;
			l2 ^= l2 >> 32;
			l3 ^= l3 >> 32;
		}
		h = ((((h ^ l0) * 0xff51afd7ed558ccdu ^ l1) * 0xff51afd7ed558ccdu ^ l2)
		     * 0xff51afd7ed558ccdu ^ l3) * 0xff51afd7ed558ccdu;
		h ^= h >> 32;
	}
	for (; n >= 8; n -= 8, b += 8) {
		uint64_t w;
		memcpy(&w, b, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdu;
		h ^= h >> 32;
	}
	for (; n; n--, b++)
		h = (h ^ *b) * 1099511628211u;
	h ^= h >> 29;
	h *= 0xc4ceb9fe1a85ec53u;
	return h ^ (h >> 32);
}

/* Write the decimal digits of v at p (at most 20); returns the new end.
 * The one integer formatter of text written in bulk (timelines, traces,
 * GOAL text, goalc --dump). */
static inline char *util_put_u64(char *p, uint64_t v)
{
	char tmp[20];
	int n = 0;
	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

/* The one growable array: make room for need elements of elem bytes in
 * the array *(T **)pp of capacity *cap, doubling it (from 64) until need
 * fits.  Returns 0, or -1 (out of memory, or more than SIZE_MAX bytes) with
 * *pp and *cap unchanged. */
int util_grow_to(void *pp, size_t *cap, size_t need, size_t elem);
static inline int util_grow(void *pp, size_t *cap, size_t need, size_t elem)
{
	return need <= *cap ? 0 : util_grow_to(pp, cap, need, elem);
}

/* Read the rest of f into a new buffer *buf (free it) of *len bytes, at
 * most max bytes.  Returns 0, or EFBIG (max bytes or more), ENOMEM or the
 * errno of a read error (EIO if it set none), with *buf NULL. */
int util_read_stream(FILE *f, size_t max, char **buf, size_t *len);

/* Read the file at path whole (util_read_stream) into a new buffer *buf
 * (free it) of *len bytes, at most max bytes.  Returns 0, or -1 with
 * "PATH: error: cannot open: REASON", "PATH: error: cannot read: REASON"
 * or "PATH: error: too large (MAX bytes or more)" in err. */
int util_read_file(const char *path, size_t max, char **buf, size_t *len, char *err,
                   size_t errlen);

/* Write s to f with &, <, > and " escaped for XML. */
void util_xml_put(FILE *f, const char *s);

#endif
