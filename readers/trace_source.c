/* trace_source.c: a traced run in any format, behind one interface
 * (trace_source.h): the text traces' files found and put in rank order,
 * or the reader of a DUMPI run or an OTF2 archive. */
#include "trace_source.h"

#include "trace_dumpi.h"
#include "trace_otf2.h"
#include "util.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- Text traces: names and ranks --------------------------------------- */

int tr_file_rank(const char *path, long *rank, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char line[256];
	*rank = -1;
	if (!f) {
		snprintf(err, errlen, "%s: error: cannot open: %s", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof line, f)) {
		if (line[0] != '#')
			break;
		if (strncmp(line, "# rank:", 7) == 0) {
			char *end;
			long v = strtol(line + 7, &end, 10);
			if (end != line + 7 && v >= 0) {
				*rank = v;
				break;
			}
		}
	}
	fclose(f);
	if (*rank >= 0)
		return 0;
	size_t s, e;
	if (tr_name_digits(path, &s, &e) && e - s < 10)
		*rank = strtol(path + s, NULL, 10);
	return 0;
}

/* Whether name ends in ".txt" or ".dat" after at least one character. */
static int txt_or_dat(const char *name)
{
	size_t n = strlen(name);
	return n > 4 && (strcmp(name + n - 4, ".txt") == 0 || strcmp(name + n - 4, ".dat") == 0);
}

int tr_trace_name(const char *name)
{
	size_t n = strlen(name), s, e;
	return txt_or_dat(name) && (strcmp(name + n - 4, ".txt") == 0 || tr_name_digits(name, &s, &e));
}

int tr_name_digits(const char *path, size_t *s, size_t *e)
{
	size_t n = strlen(path);
	if (!txt_or_dat(path))
		return 0;
	*e = *s = n - 4;
	while (*s > 0 && isdigit((unsigned char)path[*s - 1]))
		(*s)--;
	return *s < *e;
}

int tr_world_size(const char *path, const struct tr_options *to, long *size, unsigned *line,
                  char *err, size_t errlen)
{
	struct tr_trace t;
	*size = -1;
	*line = 0;
	if (tr_read_file(path, to, &t, err, errlen))
		return -1;
	if (t.size >= 0) {
		*size = t.size;
		*line = t.size_line;
	} else {
		for (size_t i = 0; i < t.ncalls; i++) {
			const struct tr_call *c = &t.calls[i];
			if (c->comm_size > *size) {
				*size = c->comm_size;
				*line = c->line;
			}
		}
	}
	tr_free(&t);
	if (*size < 1) {
		snprintf(err, errlen, "%s: error: cannot tell the number of ranks of the run (no "
		         "'# size:' line, no call on a communicator)", path);
		return -1;
	}
	return 0;
}

/* ---- The files of a run -------------------------------------------------- */

/* A list of trace files with their ranks. */
struct file {
	char *path;
	long rank;
};
struct files {
	struct file *v;
	size_t n, cap;
};

/* The formats a run can come in. */
enum format {
	FMT_TEXT,       /* text traces: files, a folder, rank 0's file */
	FMT_DUMPI,      /* a DUMPI .meta file */
	FMT_OTF2        /* an OTF2 anchor file */
};

struct tr_source {
	enum format fmt;
	char *path;                     /* a DUMPI or OTF2 run's file */
	struct tr_dumpi *dumpi;
	struct tr_otf2 *otf2;
	size_t nranks;
	struct files fs;                /* the traces, by rank (text), or what is read */
	struct files whole;             /* what the output may not replace */
	const char **paths;             /* whole's paths */
};

static int oom(char *err, size_t errlen)
{
	snprintf(err, errlen, "error: out of memory");
	return -1;
}

/* Appends path (copied), rank unknown.  Returns 0 or -1 (out of memory). */
static int files_add(struct files *fs, const char *path)
{
	if (util_grow(&fs->v, &fs->cap, fs->n + 1, sizeof *fs->v))
		return -1;
	fs->v[fs->n].path = strdup(path);
	fs->v[fs->n].rank = -1;
	if (!fs->v[fs->n].path)
		return -1;
	fs->n++;
	return 0;
}

/* files_add as a callback (tr_otf2_members). */
static int files_add_cb(void *ctx, const char *path)
{
	return files_add(ctx, path);
}

static void files_free(struct files *fs)
{
	for (size_t i = 0; i < fs->n; i++)
		free(fs->v[i].path);
	free(fs->v);
}

/* qsort order of file names. */
static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* dir/name into a new string (NULL: out of memory). */
static char *join(const char *dir, const char *name)
{
	size_t dl = strlen(dir), pl = dl + strlen(name) + 2;
	while (dl > 1 && dir[dl - 1] == '/')
		dl--;
	char *p = malloc(pl);
	if (p)
		snprintf(p, pl, "%.*s/%s", (int)dl, dir, name);
	return p;
}

/* Adds the trace files (tr_trace_name) of folder dir, in name order.
 * Returns 0 or -1 (message in err). */
static int add_dir(struct files *fs, const char *dir, char *err, size_t errlen)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;
	if (!d) {
		snprintf(err, errlen, "%s: error: cannot open: %s", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d))) {
		if (!tr_trace_name(e->d_name))
			continue;
		if (util_grow(&names, &cap, n + 1, sizeof *names) || !(names[n] = join(dir, e->d_name))) {
			rc = oom(err, errlen);
			break;
		}
		n++;
	}
	closedir(d);
	if (!rc && n == 0) {
		snprintf(err, errlen, "%s: error: no *.txt or *.dat trace files in this folder", dir);
		rc = -1;
	}
	if (!rc)
		qsort(names, n, sizeof *names, cmp_name);
	for (size_t i = 0; i < n; i++) {
		if (!rc && files_add(fs, names[i]))
			rc = oom(err, errlen);
		free(names[i]);
	}
	free(names);
	return rc;
}

/* The files of the other ranks when only the file of rank 0 is given
 * (liballprof's habit): the world size W from the trace, and for rank r
 * in 1..W-1 the same path with the number 0 just before the final ".txt"
 * replaced by r.  Does nothing when the file is not of rank 0 or the run
 * had one rank.  Returns 0 or -1 (message in err). */
static int add_other_ranks(struct files *fs, const struct tr_options *to, char *err,
                           size_t errlen)
{
	const char *p0 = fs->v[0].path;
	long rank, W;
	unsigned line;
	size_t n = strlen(p0), e, s;
	if (tr_file_rank(p0, &rank, err, errlen))
		return -1;
	if (rank != 0)
		return 0;
	if (tr_world_size(p0, to, &W, &line, err, errlen))
		return -1;
	if (W <= 1)
		return 0;
	if (!tr_name_digits(p0, &s, &e) || e - s != 1 || p0[s] != '0') {
		snprintf(err, errlen, "%s:%u:1: error: the trace is of a run on %ld ranks, but only "
		         "this file was given and its name has no rank number 0 before '.txt' or "
		         "'.dat' to find the others by", p0, line, W);
		return -1;
	}
	for (long r = 1; r < W; r++) {
		struct stat sb;
		size_t pl = n + 24;
		char *q = malloc(pl);
		if (!q)
			return oom(err, errlen);
		snprintf(q, pl, "%.*s%ld%s", (int)s, p0, r, p0 + e);
		int st = stat(q, &sb);
		if (st != 0 || S_ISDIR(sb.st_mode)) {
			snprintf(err, errlen, "%s:%u:1: error: the trace is of a run on %ld ranks, but "
			         "there is no trace of rank %ld: %s: %s", p0, line, W, r, q,
			         st != 0 ? strerror(errno) : "is a folder");
			free(q);
			return -1;
		}
		int rc = files_add(fs, q);
		free(q);
		if (rc)
			return oom(err, errlen);
		p0 = fs->v[0].path; /* fs->v may have moved */
	}
	return 0;
}

/* qsort order of files by rank. */
static int cmp_rank(const void *a, const void *b)
{
	const struct file *x = a, *y = b;
	return (x->rank > y->rank) - (x->rank < y->rank);
}

/* Orders fs by rank: every file has a rank, ranks are 0..n-1 once each.
 * Returns 0 or -1 (message in err). */
static int order_files(struct files *fs, char *err, size_t errlen)
{
	int named = 0;
	for (size_t i = 0; i < fs->n; i++) {
		if (tr_file_rank(fs->v[i].path, &fs->v[i].rank, err, errlen))
			return -1;
		named += fs->v[i].rank >= 0;
	}
	if (named == 0) {
		/* no rank anywhere: the order of the command line */
		for (size_t i = 0; i < fs->n; i++)
			fs->v[i].rank = (long)i;
		return 0;
	}
	for (size_t i = 0; i < fs->n; i++)
		if (fs->v[i].rank < 0) {
			snprintf(err, errlen, "%s: error: cannot tell the rank of this trace (no "
			         "'# rank:' line, no number before .txt or .dat)", fs->v[i].path);
			return -1;
		}
	qsort(fs->v, fs->n, sizeof *fs->v, cmp_rank);
	for (size_t i = 0; i < fs->n; i++) {
		if (i > 0 && fs->v[i].rank == fs->v[i - 1].rank) {
			snprintf(err, errlen, "error: two traces of rank %ld: %s and %s", fs->v[i].rank,
			         fs->v[i - 1].path, fs->v[i].path);
			return -1;
		}
		if (fs->v[i].rank != (long)i) {
			snprintf(err, errlen, "error: no trace of rank %zu among the %zu files given", i,
			         fs->n);
			return -1;
		}
	}
	return 0;
}

/* ---- The format ---------------------------------------------------------- */

/* Whether the text b begins as a DUMPI .meta file does: lines KEY=VALUE,
 * one of them numprocs=. */
static int dumpi_meta(const char *b)
{
	for (const char *l = b; *l;) {
		size_t k = strcspn(l, "=\n");
		if (l[k] != '=')
			return 0;
		if (k == 8 && strncmp(l, "numprocs", 8) == 0)
			return 1;
		const char *nl = strchr(l, '\n');
		if (!nl)
			return 0;
		l = nl + 1;
	}
	return 0;
}

/* The format of a whole run's file by its name, else FMT_TEXT; content:
 * also by how the regular file begins (an OTF2 anchor's magic, a DUMPI
 * .meta file's lines). */
static enum format format_of(const char *name, int content)
{
	if (tr_dumpi_is_meta(name))
		return FMT_DUMPI;
	if (tr_otf2_is_anchor(name))
		return FMT_OTF2;
	struct stat sb;
	FILE *f;
	if (!content || stat(name, &sb) != 0 || !S_ISREG(sb.st_mode) || !(f = fopen(name, "rb")))
		return FMT_TEXT;
	char b[512];
	size_t n = fread(b, 1, sizeof b - 1, f);
	fclose(f);
	b[n] = 0;
	if (tr_otf2_magic((const unsigned char *)b, n))
		return FMT_OTF2;
	return dumpi_meta(b) ? FMT_DUMPI : FMT_TEXT;
}

/* What a whole run given as one argument is: a DUMPI .meta file, an OTF2
 * anchor, or a folder holding exactly one of them; *path is the file to
 * open (free it).  Returns 0 (FMT_TEXT: anything else), or -1 (message in
 * err). */
static int arg_format(const char *arg, enum format *fmt, char **path, char *err, size_t errlen)
{
	struct stat sb;
	*fmt = FMT_TEXT;
	*path = NULL;
	if (stat(arg, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
		enum format k = format_of(arg, 1);
		if (k == FMT_TEXT)
			return 0;
		*fmt = k;
		*path = strdup(arg);
		return *path ? 0 : oom(err, errlen);
	}
	DIR *d = opendir(arg);
	struct dirent *e;
	size_t found = 0;
	char *first = NULL;
	if (!d)
		return 0; /* add_dir says why */
	enum format k = FMT_TEXT;
	while ((e = readdir(d))) {
		enum format f = format_of(e->d_name, 0);
		if (f != FMT_TEXT && found++ == 0) {
			first = strdup(e->d_name);
			k = f;
		}
	}
	closedir(d);
	if (found > 1) {
		snprintf(err, errlen, "%s: error: %zu .meta and .otf2 files in this folder; name the "
		         "one to read", arg, found);
		free(first);
		return -1;
	}
	if (found == 0)
		return 0;
	*path = first ? join(arg, first) : NULL;
	free(first);
	if (!*path)
		return oom(err, errlen);
	*fmt = k;
	return 0;
}

/* ---- The run ------------------------------------------------------------- */

/* The reader of a DUMPI or OTF2 run, with the files it reads.  Returns 0
 * or -1 (message in err). */
static int open_whole(struct tr_source *s, char *err, size_t errlen)
{
	if (s->fmt == FMT_DUMPI) {
		if (!(s->dumpi = tr_dumpi_open(s->path, err, errlen)))
			return -1;
		s->nranks = tr_dumpi_ranks(s->dumpi);
		for (size_t i = 0; i < s->nranks; i++)
			if (files_add(&s->fs, tr_dumpi_path(s->dumpi, i)))
				return oom(err, errlen);
	} else {
		if (!(s->otf2 = tr_otf2_open(s->path, err, errlen)))
			return -1;
		s->nranks = tr_otf2_ranks(s->otf2);
	}
	return files_add(&s->fs, s->path) ? oom(err, errlen) : 0;
}

/* The text traces of the arguments (files, folders, rank 0's file alone)
 * in rank order.  Returns 0 or -1 (message in err). */
static int open_text(struct tr_source *s, const char *const *args, size_t n,
                     const struct tr_options *to, char *err, size_t errlen)
{
	int dirs = 0;
	for (size_t i = 0; i < n; i++) {
		struct stat sb;
		if (stat(args[i], &sb) == 0 && S_ISDIR(sb.st_mode)) {
			dirs++;
			if (add_dir(&s->fs, args[i], err, errlen))
				return -1;
		} else if (files_add(&s->fs, args[i])) {
			return oom(err, errlen);
		}
	}
	if (n == 1 && s->fs.n == 1 && !dirs && add_other_ranks(&s->fs, to, err, errlen))
		return -1;
	if (order_files(&s->fs, err, errlen))
		return -1;
	s->nranks = s->fs.n;
	return 0;
}

/* The files the output may not replace: every input file, and of an
 * OTF2 archive every member, read or not.  Returns 0 or -1 (out of
 * memory). */
static int guard(struct tr_source *s, char *err, size_t errlen)
{
	for (size_t i = 0; i < s->fs.n; i++)
		if (files_add(&s->whole, s->fs.v[i].path))
			return oom(err, errlen);
	if (s->fmt == FMT_OTF2 && tr_otf2_members(s->path, files_add_cb, &s->whole))
		return oom(err, errlen);
	s->paths = malloc((s->whole.n ? s->whole.n : 1) * sizeof *s->paths);
	if (!s->paths)
		return oom(err, errlen);
	for (size_t i = 0; i < s->whole.n; i++)
		s->paths[i] = s->whole.v[i].path;
	return 0;
}

struct tr_source *tr_source_open(const char *const *args, size_t n, const struct tr_options *to,
                                 int *usage, char *err, size_t errlen)
{
	struct tr_source *s = calloc(1, sizeof *s);
	*usage = 0;
	if (!s) {
		oom(err, errlen);
		return NULL;
	}
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		enum format k;
		char *p;
		rc = arg_format(args[i], &k, &p, err, errlen);
		if (!rc && k != FMT_TEXT && n > 1) {
			free(p);
			snprintf(err, errlen, "'%s' is a whole run (DUMPI or OTF2): give it alone", args[i]);
			*usage = 1;
			rc = -1;
		} else if (!rc && k != FMT_TEXT) {
			s->fmt = k;
			s->path = p;
		}
	}
	if (!rc)
		rc = s->fmt == FMT_TEXT ? open_text(s, args, n, to, err, errlen) : open_whole(s, err, errlen);
	if (!rc)
		rc = guard(s, err, errlen);
	if (rc) {
		tr_source_close(s);
		return NULL;
	}
	return s;
}

size_t tr_source_ranks(const struct tr_source *s)
{
	return s->nranks;
}

int tr_source_read(struct tr_source *s, size_t r, const struct tr_options *to,
                   struct tr_trace *t, const char **path, char *err, size_t errlen)
{
	switch (s->fmt) {
	case FMT_DUMPI:
		*path = tr_dumpi_path(s->dumpi, r);
		return tr_dumpi_read(s->dumpi, r, t, err, errlen);
	case FMT_OTF2:
		*path = tr_otf2_path(s->otf2);
		return tr_otf2_read(s->otf2, r, t, err, errlen);
	default:
		*path = s->fs.v[r].path;
		return tr_read_file(*path, to, t, err, errlen);
	}
}

const char *const *tr_source_files(const struct tr_source *s, size_t *n)
{
	*n = s->whole.n;
	return s->paths;
}

void tr_source_close(struct tr_source *s)
{
	if (!s)
		return;
	tr_dumpi_close(s->dumpi);
	tr_otf2_close(s->otf2);
	free(s->path);
	files_free(&s->fs);
	files_free(&s->whole);
	free(s->paths);
	free(s);
}
