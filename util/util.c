/* util.c: small helpers shared by the tools (util.h). */
#include "util.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int util_grow_to(void *pp, size_t *cap, size_t need, size_t elem)
{
	size_t n = *cap ? *cap : 64;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			return -1;
		n *= 2;
	}
	if (elem && n > SIZE_MAX / elem)
		return -1;
	/* The array pointer is read and written as bytes: *pp is a T *, not a
	 * void *, and memcpy may alias any object. */
	void *p;
	memcpy(&p, pp, sizeof p);
	void *q = realloc(p, n * elem);
	if (!q)
		return -1;
	memcpy(pp, &q, sizeof q);
	*cap = n;
	return 0;
}

int util_read_stream(FILE *f, size_t max, char **buf, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *b = malloc(cap);
	int rerr = 0;
	*buf = NULL;
	*len = 0;
	while (b) {
		errno = 0;
		n += fread(b + n, 1, cap - n, f);
		if (n < cap) {
			rerr = errno;
			break;
		}
		if (cap >= max) {
			free(b);
			return EFBIG;
		}
		char *nb = realloc(b, 2 * cap);
		if (!nb)
			free(b);
		b = nb;
		cap *= 2;
	}
	if (!b)
		return ENOMEM;
	if (ferror(f)) {
		free(b);
		return rerr ? rerr : EIO;
	}
	*buf = b;
	*len = n;
	return 0;
}

int util_read_file(const char *path, size_t max, char **buf, size_t *len, char *err,
                   size_t errlen)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		snprintf(err, errlen, "%s: error: cannot open: %s", path, strerror(errno));
		return -1;
	}
	int e = util_read_stream(f, max, buf, len);
	fclose(f);
	if (e == EFBIG)
		snprintf(err, errlen, "%s: error: too large (%zu bytes or more)", path, max);
	else if (e)
		snprintf(err, errlen, "%s: error: cannot read: %s", path, strerror(e));
	return e ? -1 : 0;
}

void util_xml_put(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f); break;
		}
	}
}
