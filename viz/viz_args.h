/* viz_args.h: goalviz's rank lists. */
#ifndef VIZ_ARGS_H
#define VIZ_ARGS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Parse a list like "0-15,32" into sorted, merged pairs lo, hi in *out
 * (malloc'ed; free it).  Returns 0, or -1 with a message in err. */
int viz_parse_ranges(const char *s, uint64_t **out, size_t *n, char *err, size_t errlen);

#endif
