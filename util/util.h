/* util.h: small text helpers shared by the tools: reading a small file
 * whole, and writing text escaped for XML (SVG). */
#ifndef UTIL_H
#define UTIL_H

#include <stddef.h>
#include <stdio.h>

/* Read the rest of f into a new buffer *buf (free it) of *len bytes, at
 * most max bytes.  Returns 0, or EFBIG (max bytes or more), ENOMEM or the
 * errno of a read error (EIO if it set none), with *buf NULL. */
int util_read_stream(FILE *f, size_t max, char **buf, size_t *len);

/* Write s to f with &, <, > and " escaped for XML. */
void util_xml_put(FILE *f, const char *s);

#endif
