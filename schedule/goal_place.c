/* goal_place.c: where the ranks of merged jobs go (goal.h, docs/jobs.md):
 * packed, round-robin, random, or a placement file. */
#include "goal.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

__extension__ typedef unsigned __int128 u128;

/* The placement being made: each merged rank's job (UINT32_MAX: none). */
typedef struct placing {
	goal_mjob *jobs;
	uint32_t nj;
	uint64_t P;
	uint32_t *owner;
	char *err;
	size_t errlen;
} placing;

static int fail(placing *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(placing *p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(p->err, p->errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* Give merged rank m to rank i of job j; 0, or -1 when m is taken. */
static int take(placing *p, uint32_t j, uint32_t i, uint64_t m)
{
	if (p->owner[m] != UINT32_MAX)
		return -1;
	p->owner[m] = j;
	p->jobs[j].place[i] = (uint32_t)m;
	return 0;
}

/* The ranks of job j from the line at p (ln: its number, line: its start)
 * of the placement file path.  0 or -1. */
static int place_line(placing *pl, const char *path, uint64_t ln, const char *line, const char *p,
                      uint32_t j)
{
	const goal_mjob *g = &pl->jobs[j];
	uint32_t i = 0;
	while (*p && *p != '\n') {
		char *q;
		uint64_t a, b;
		size_t col = (size_t)(p - line) + 1;
		errno = 0;
		a = b = strtoull(p, &q, 10);
		if (q == p || !isdigit((unsigned char)*p) || errno)
			return fail(pl, "%s:%" PRIu64 ":%zu: error: expected a rank", path, ln, col);
		p = q + strspn(q, " \t\r");
		if (strncmp(p, "to", 2) == 0 && (p[2] == ' ' || p[2] == '\t')) {
			p += 2 + strspn(p + 2, " \t");
			errno = 0;
			b = strtoull(p, &q, 10);
			if (q == p || !isdigit((unsigned char)*p) || errno || b < a)
				return fail(pl, "%s:%" PRIu64 ":%zu: error: expected a rank of at least %" PRIu64
				            " after 'to'", path, ln, (size_t)(p - line) + 1, a);
			p = q + strspn(q, " \t\r");
		}
		for (uint64_t m = a; m <= b; m++) {
			if (m >= pl->P)
				return fail(pl, "%s:%" PRIu64 ":%zu: error: rank %" PRIu64 " is outside the"
				            " merged schedule's 0..%" PRIu64 " (--ranks)", path, ln, col, m,
				            pl->P - 1);
			if (i == g->nranks)
				return fail(pl, "%s:%" PRIu64 ":%zu: error: job %s has %" PRIu32 " ranks; the"
				            " line names more", path, ln, col, g->name, g->nranks);
			if (take(pl, j, i++, m))
				return fail(pl, "%s:%" PRIu64 ":%zu: error: rank %" PRIu64 " is job %s's"
				            " already", path, ln, col, m, pl->jobs[pl->owner[m]].name);
		}
	}
	if (i < g->nranks)
		return fail(pl, "%s:%" PRIu64 ":1: error: job %s has %" PRIu32 " ranks; the line names"
		            " %" PRIu32, path, ln, g->name, g->nranks, i);
	return 0;
}

/* The placement file: one line per job, its ranks as "a" and "a to b";
 * blank lines and lines starting with '#' are skipped. */
static int place_file(placing *pl, const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	uint64_t ln = 0;
	uint32_t j = 0;
	int rc = -1;
	if (!f)
		return fail(pl, "%s: error: cannot open: %s", path, strerror(errno));
	for (ssize_t got; (got = getline(&line, &cap, f)) >= 0;) {
		ln++;
		const char *p = line + strspn(line, " \t");
		if (*p == '\n' || *p == '\0' || *p == '#')
			continue;
		if (j == pl->nj) {
			fail(pl, "%s:%" PRIu64 ":1: error: more lines than the %" PRIu32 " jobs", path, ln,
			     pl->nj);
			goto out;
		}
		if (place_line(pl, path, ln, line, p, j++))
			goto out;
	}
	if (ferror(f))
		fail(pl, "%s: error: cannot read: %s", path, strerror(errno));
	else if (j < pl->nj)
		fail(pl, "%s: error: %" PRIu32 " lines for %" PRIu32 " jobs", path, j, pl->nj);
	else
		rc = 0;
out:
	free(line);
	fclose(f);
	return rc;
}

/* Random: a permutation of the P ranks drawn from seed (Fisher-Yates from
 * the last down, as the network's random mapping), the jobs' ranks in
 * order given its first ones. */
static int place_random(placing *pl, uint64_t seed)
{
	uint32_t *perm = malloc(pl->P * sizeof *perm);
	uint64_t st = seed, m = 0;
	if (!perm)
		return fail(pl, "error: out of memory");
	for (uint64_t r = 0; r < pl->P; r++)
		perm[r] = (uint32_t)r;
	for (uint64_t i = pl->P; i > 1; i--) {
		uint64_t k = (uint64_t)(((u128)util_next64(&st) * i) >> 64);
		uint32_t x = perm[i - 1];
		perm[i - 1] = perm[k];
		perm[k] = x;
	}
	for (uint32_t j = 0; j < pl->nj; j++)
		for (uint32_t i = 0; i < pl->jobs[j].nranks; i++, m++)
			take(pl, j, i, perm[m]);
	free(perm);
	return 0;
}

int goal_place(goal_mjob *jobs, uint32_t nj, uint64_t P, const char *how, uint64_t seed,
               char *err, size_t errlen)
{
	placing pl = { jobs, nj, P, NULL, err, errlen };
	uint64_t total = 0, most = 0, m = 0;
	int rc = 0;
	for (uint32_t j = 0; j < nj; j++) {
		total += jobs[j].nranks;
		most = jobs[j].nranks > most ? jobs[j].nranks : most;
	}
	if (total > P)
		return fail(&pl, "error: the jobs have %" PRIu64 " ranks together, the merge %" PRIu64, total, P);
	if (!(pl.owner = malloc(P * sizeof *pl.owner)))
		return fail(&pl, "error: out of memory");
	memset(pl.owner, 0xff, P * sizeof *pl.owner);
	if (strcmp(how, "packed") == 0) {
		for (uint32_t j = 0; j < nj; j++)
			for (uint32_t i = 0; i < jobs[j].nranks; i++)
				take(&pl, j, i, m++);
	} else if (strcmp(how, "roundrobin") == 0) {
		for (uint32_t i = 0; i < most; i++)
			for (uint32_t j = 0; j < nj; j++)
				if (i < jobs[j].nranks)
					take(&pl, j, i, m++);
	} else if (strcmp(how, "random") == 0) {
		rc = place_random(&pl, seed);
	} else {
		rc = place_file(&pl, how);
	}
	free(pl.owner);
	return rc;
}
