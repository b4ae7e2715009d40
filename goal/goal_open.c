/* goal_open.c: opening GOAL input by path: text compiled from a file or a
 * stream, or a schedule that is binary or text (goal_open.h). */
#include "goal_open.h"
#include "goal.h"
#include "goal_compile.h"
#include "out.h"


#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Copy the stream fd to a new unlinked temporary file, rewound; stop one
 * byte into a line longer than GOAL_MAX_LINE (the scanner reports it, and
 * an endless stream without newlines ends).  NULL with an error on diag. */
static FILE *stream_copy(int fd, const char *name, FILE *diag)
{
	char buf[1 << 16];
	uint64_t since_nl = 0;
	ssize_t k;
	FILE *out = tmpfile();
	if (!out) {
		fprintf(diag, "%s: error: cannot create a temporary file: %s\n", name, strerror(errno));
		return NULL;
	}
	while ((k = read(fd, buf, sizeof buf)) != 0) {
		if (k < 0) {
			if (errno == EINTR)
				continue;
			fprintf(diag, "%s: error: cannot read: %s\n", name, strerror(errno));
			fclose(out);
			return NULL;
		}
		const char *nl = memrchr(buf, '\n', (size_t)k);
		since_nl = nl ? (uint64_t)(buf + k - nl - 1) : since_nl + (uint64_t)k;
		if (fwrite(buf, 1, (size_t)k, out) != (size_t)k) {
			fprintf(diag, "%s: error: cannot write a temporary file: %s\n", name, strerror(errno));
			fclose(out);
			return NULL;
		}
		if (since_nl > GOAL_MAX_LINE)
			break;
	}
	if (fflush(out) != 0) {
		fprintf(diag, "%s: error: cannot write a temporary file: %s\n", name, strerror(errno));
		fclose(out);
		return NULL;
	}
	rewind(out);
	return out;
}

/* Open path ("-": standard input) for reading: a regular file as it is,
 * anything else copied once to a temporary file (stream_copy).  NULL with
 * an error on diag (a directory: "cannot read: Is a directory"). */
static FILE *open_input(const char *path, const char *name, FILE *diag)
{
	struct stat st;
	int fd = strcmp(path, "-") == 0 ? dup(0) : open(path, O_RDONLY | O_CLOEXEC);
	FILE *in;
	if (fd < 0) {
		fprintf(diag, "%s: error: cannot open: %s\n", name, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
		fprintf(diag, "%s: error: cannot read: %s\n", name, strerror(S_ISDIR(st.st_mode) ? EISDIR : errno));
		close(fd);
		return NULL;
	}
	if (S_ISREG(st.st_mode)) {
		if (!(in = fdopen(fd, "r"))) {
			fprintf(diag, "%s: error: cannot open: %s\n", name, strerror(errno));
			close(fd);
		}
		return in;
	}
	in = stream_copy(fd, name, diag);
	close(fd);
	return in;
}

unsigned long goal_compile_path(const char *in_path, const char *out_path,
                                FILE *diag, unsigned max_errors, unsigned threads)
{
	const char *name = strcmp(in_path, "-") == 0 ? "<stdin>" : in_path;
	FILE *in = open_input(in_path, name, diag);
	char magic[8];
	if (!in)
		return 1;
	if (pread(fileno(in), magic, sizeof magic, 0) == (ssize_t)sizeof magic
	    && memcmp(magic, GOAL_MAGIC, 8) == 0) {
		/* A binary schedule: validated by a check, never read as text. */
		unsigned long n = 1;
		char err[1024];
		goal_sched s;
		if (out_path)
			fprintf(diag, "%s: error: this is a binary schedule, not GOAL text "
			        "(goalc --dump writes it as text)\n", name);
		else if (goal_sched_open_fd(&s, fileno(in), name, err, sizeof err))
			fprintf(diag, "%s\n", err);
		else
			n = (goal_sched_close(&s), 0);
		fclose(in);
		return n;
	}
	unsigned long n = goal_compile(in, name, out_path, diag, max_errors, threads);
	fclose(in);
	return n;
}

/* A new empty temporary file for a writer to rename its own over, named
 * in tmp (n bytes) and tracked; 0, or -1 with a message in err. */
static int tmp_file(char *tmp, size_t n, char *err, size_t errlen)
{
	const char *dir = getenv("TMPDIR");
	snprintf(tmp, n, "%s/goal-XXXXXX", dir && *dir ? dir : "/tmp");
	int fd = mkstemp(tmp);
	if (fd < 0) {
		snprintf(err, errlen, "%s: error: cannot create a temporary file: %s", tmp, strerror(errno));
		return -1;
	}
	close(fd);
	util_tmp_track(tmp);
	return 0;
}

/* Open the temporary schedule tmp (unless writing it failed: wrote -1),
 * then unlink it. */
static int tmp_open(goal_sched *s, const char *tmp, int wrote, char *err, size_t errlen)
{
	int rc = wrote ? -1 : goal_sched_open(s, tmp, err, errlen);
	util_tmp_untrack(tmp);
	unlink(tmp);
	return rc;
}

int goal_sched_open_alone(goal_sched *a, const goal_sched *s, uint32_t j, char *err,
                          size_t errlen)
{
	char tmp[4096];
	memset(a, 0, sizeof *a);
	if (tmp_file(tmp, sizeof tmp, err, errlen))
		return -1;
	return tmp_open(a, tmp, goal_job_alone(s, j, tmp, err, errlen), err, errlen);
}

int goal_sched_open_placed(goal_sched *a, const goal_sched *s, const char *how, uint64_t seed,
                           char *err, size_t errlen)
{
	char tmp[4096];
	memset(a, 0, sizeof *a);
	if (tmp_file(tmp, sizeof tmp, err, errlen))
		return -1;
	return tmp_open(a, tmp, goal_replace(s, how, seed, tmp, err, errlen), err, errlen);
}

int goal_sched_open_any(goal_sched *s, const char *path, FILE *diag,
                        char *err, size_t errlen)
{
	const char *name = strcmp(path, "-") == 0 ? "<stdin>" : path;
	char magic[8], tmp[4096];
	unsigned long nerr;
	int rc;

	memset(s, 0, sizeof *s);
	FILE *in = open_input(path, name, diag);
	if (!in) {
		snprintf(err, errlen, "%s: 1 error", name);
		return -1;
	}
	if (pread(fileno(in), magic, sizeof magic, 0) == (ssize_t)sizeof magic
	    && memcmp(magic, GOAL_MAGIC, 8) == 0) {
		rc = goal_sched_open_fd(s, fileno(in), name, err, errlen);
		fclose(in);
		return rc;
	}
	/* Text: compiled into a temporary binary, unlinked once mapped. */
	if (tmp_file(tmp, sizeof tmp, err, errlen)) {
		fclose(in);
		return -1;
	}
	nerr = goal_compile(in, name, tmp, diag, 20, 2);
	fclose(in);
	if (nerr) {
		util_tmp_untrack(tmp);
		unlink(tmp);
		snprintf(err, errlen, "%s: %lu error%s", name, nerr, nerr == 1 ? "" : "s");
		return -1;
	}
	return tmp_open(s, tmp, 0, err, errlen);
}
