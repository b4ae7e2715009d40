/* kind.c: what a file is, from its first bytes (kind.h). */
#include "kind.h"

#include <stdio.h>
#include <string.h>

static const struct {
	const char *lead, *what;
} kinds[] = {
	{ "", "" },
#define UTIL_KIND_X(e, lead, what) { lead, what },
	UTIL_KINDS(UTIL_KIND_X)
#undef UTIL_KIND_X
};

util_kind util_kind_of(const char *head, size_t n)
{
	int comment = 0;
	for (;;) {   /* blanks, and lines of "//" comments (GOAL text's own) */
		while (n && (*head == ' ' || *head == '\t' || *head == '\n' || *head == '\r')) {
			head++;
			n--;
		}
		if (n < 2 || head[0] != '/' || head[1] != '/')
			break;
		comment = 1;
		const char *nl = memchr(head, '\n', n);
		if (!nl)
			return UTIL_KIND_GOAL_TEXT;
		n -= (size_t)(nl - head);
		head = nl;
	}
	for (size_t k = 1; k < sizeof kinds / sizeof kinds[0]; k++) {
		size_t m = strlen(kinds[k].lead);
		if (n >= m && memcmp(head, kinds[k].lead, m) == 0)
			return (util_kind)k;
	}
	return comment ? UTIL_KIND_GOAL_TEXT : UTIL_KIND_NONE;
}

util_kind util_kind_of_file(const char *path)
{
	char head[UTIL_KIND_HEAD];
	FILE *f = fopen(path, "rb");
	if (!f)
		return UTIL_KIND_NONE;
	size_t n = fread(head, 1, sizeof head, f);
	fclose(f);
	return util_kind_of(head, n);
}

const char *util_kind_what(util_kind k)
{
	return kinds[k].what;
}
