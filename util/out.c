/* out.c: output files written safely (out.h). */
#include "out.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int util_out_check(const char *out, const char *const *inputs, size_t n,
                   char *err, size_t errlen)
{
	struct stat so, si;
	if (strcmp(out, "-") == 0)
		return 0;
	int have = stat(out, &so) == 0;
	if (!have || S_ISREG(so.st_mode)) {
		/* A new or regular file is written in its folder: that must be
		 * there and writable now, not only after a long run. */
		char dir[PATH_MAX] = ".";
		const char *slash = strrchr(out, '/');
		if (slash) {   /* "/x": the folder "/" */
			size_t dl = slash == out ? 1 : (size_t)(slash - out);
			if (dl >= sizeof dir)
				dl = sizeof dir - 1;
			memcpy(dir, out, dl);
			dir[dl] = 0;
		}
		if (access(dir, W_OK | X_OK) != 0) {
			snprintf(err, errlen, "%s: error: cannot create: %s", out, strerror(errno));
			return -1;
		}
	}
	if (!have || !S_ISREG(so.st_mode))
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (!inputs[i] || strcmp(inputs[i], "-") == 0 || stat(inputs[i], &si) != 0)
			continue;
		if (si.st_dev == so.st_dev && si.st_ino == so.st_ino) {
			snprintf(err, errlen, "%s: error: the output is also the input %s", out, inputs[i]);
			return -1;
		}
	}
	return 0;
}

/* ---- Temporary files removed on a signal -------------------------------
 * A slot holds its path in static storage, so that the handler reads no
 * memory that may be freed; used is set (release) once the path is
 * written, cleared before the file is renamed or removed. */
#define TMP_SLOTS 32
static struct {
	char path[PATH_MAX];
	int used;             /* the handler removes path */
	int taken;            /* the slot is someone's */
} tmp_slot[TMP_SLOTS];

static void tmp_on_signal(int sig)
{
	for (int i = 0; i < TMP_SLOTS; i++)
		if (__atomic_load_n(&tmp_slot[i].used, __ATOMIC_ACQUIRE))
			unlink(tmp_slot[i].path);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* The handlers, once: for each of the signals that is not ignored. */
static void tmp_handlers(void)
{
	static int done;
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	if (__atomic_exchange_n(&done, 1, __ATOMIC_ACQ_REL))
		return;
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
		struct sigaction old, sa;
		if (sigaction(sigs[i], NULL, &old) != 0 || old.sa_handler == SIG_IGN)
			continue;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = tmp_on_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(sigs[i], &sa, NULL);
	}
}

int util_tmp_track(const char *path)
{
	if (strlen(path) >= PATH_MAX)
		return -1;
	tmp_handlers();
	for (int i = 0; i < TMP_SLOTS; i++)
		if (!__atomic_exchange_n(&tmp_slot[i].taken, 1, __ATOMIC_ACQ_REL)) {
			strcpy(tmp_slot[i].path, path);
			__atomic_store_n(&tmp_slot[i].used, 1, __ATOMIC_RELEASE);
			return 0;
		}
	return -1;
}

void util_tmp_untrack(const char *path)
{
	for (int i = 0; i < TMP_SLOTS; i++)
		if (__atomic_load_n(&tmp_slot[i].used, __ATOMIC_ACQUIRE)
		    && strcmp(tmp_slot[i].path, path) == 0) {
			__atomic_store_n(&tmp_slot[i].used, 0, __ATOMIC_RELEASE);
			__atomic_store_n(&tmp_slot[i].taken, 0, __ATOMIC_RELEASE);
			return;
		}
}

/* Path p with its folder resolved (a new string), or NULL. */
static char *resolved(const char *p)
{
	const char *slash = strrchr(p, '/');
	char *dir = slash ? strndup(p, (size_t)(slash - p) + 1) : strdup(".");
	char *rd = dir ? realpath(dir, NULL) : NULL, *r = NULL;
	const char *base = slash ? slash + 1 : p;
	if (rd && (r = malloc(strlen(rd) + strlen(base) + 2)))
		sprintf(r, "%s/%s", rd, base);
	free(dir);
	free(rd);
	return r;
}

int util_out_same(const char *a, const char *b)
{
	struct stat sa, sb;
	if (strcmp(a, "-") == 0 || strcmp(b, "-") == 0)
		return strcmp(a, b) == 0;
	if (strcmp(a, b) == 0)
		return 1;
	int ea = stat(a, &sa) == 0, eb = stat(b, &sb) == 0;
	if (ea && eb)
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	if (ea || eb)
		return 0;
	char *ra = resolved(a), *rb = resolved(b);
	int same = ra && rb && strcmp(ra, rb) == 0;
	free(ra);
	free(rb);
	return same;
}

/* The mode a new file gets (0666 less the umask). */
static mode_t new_mode(void)
{
	mode_t m = umask(0);
	umask(m);
	return 0666 & ~m;
}

int util_out_open(util_out *o, const char *path, const char *const *inputs, size_t n,
                  int seekable, char *err, size_t errlen)
{
	struct stat st;
	memset(o, 0, sizeof *o);
	if (util_out_check(path, inputs, n, err, errlen))
		return -1;
	int is_stdout = strcmp(path, "-") == 0;
	int exists = !is_stdout && stat(path, &st) == 0;
	if (!(o->path = strdup(path)))
		goto fail;
	/* /dev/stdout, /dev/fd/N, /proc/self/fd/N stand for an open file:
	 * written in place, whatever it is. */
	int special = strncmp(path, "/dev/std", 8) == 0 || strncmp(path, "/dev/fd/", 8) == 0
	              || strncmp(path, "/proc/", 6) == 0;
	if (is_stdout || (exists && !S_ISREG(st.st_mode)) || special) {
		/* A pipe, device or standard output: written directly, or
		 * through scratch when the caller writes at offsets. */
		if (seekable && !(exists && S_ISREG(st.st_mode))) {
			o->copy = 1;
			o->f = tmpfile();   /* unlinked, in TMPDIR */
		} else {
			o->f = is_stdout ? stdout : fopen(path, "w");
		}
		if (!o->f)
			goto fail;
		return 0;
	}
	/* A regular file or a new one: a temporary file in its folder (the
	 * folder of the file a symlink points to). */
	o->dest = exists ? realpath(path, NULL) : strdup(path);
	if (!o->dest)
		goto fail;
	const char *base = strrchr(o->dest, '/');
	size_t dirlen = base ? (size_t)(base - o->dest) + 1 : 0;
	base = base ? base + 1 : o->dest;
	if (!(o->tmp = malloc(dirlen + strlen(base) + 9)))
		goto fail;
	memcpy(o->tmp, o->dest, dirlen);
	sprintf(o->tmp + dirlen, ".%s.XXXXXX", base);
	int fd = mkstemp(o->tmp);
	if (fd < 0) {
		free(o->tmp);
		o->tmp = NULL;
		goto fail;
	}
	util_tmp_track(o->tmp);
	if (fchmod(fd, exists ? st.st_mode & 07777 : new_mode()) != 0 || !(o->f = fdopen(fd, "w"))) {
		int e = errno;
		close(fd);
		util_tmp_untrack(o->tmp);
		unlink(o->tmp);
		errno = e;
		goto fail;
	}
	return 0;
fail:
	snprintf(err, errlen, "%s: error: cannot create: %s", path, strerror(errno));
	util_out_abort(o);
	return -1;
}

/* Copy the scratch file to the target; 0 or an errno. */
static int copy_out(util_out *o)
{
	char buf[1 << 16];
	size_t k;
	FILE *to = strcmp(o->path, "-") == 0 ? stdout : fopen(o->path, "w");
	int e = 0;
	if (!to)
		return errno;
	rewind(o->f);
	while (!e && (k = fread(buf, 1, sizeof buf, o->f)) > 0)
		if (fwrite(buf, 1, k, to) != k)
			e = errno ? errno : EIO;
	if (!e && ferror(o->f))
		e = EIO;
	if (fflush(to) != 0 && !e)
		e = errno;
	if (!e && ferror(to))
		e = EIO;
	if (to != stdout && fclose(to) != 0 && !e)
		e = errno;
	return e;
}

int util_out_close(util_out *o, char *err, size_t errlen)
{
	int e = 0;
	if (!o->f)
		return 0;
	errno = 0;
	if (fflush(o->f) != 0)
		e = errno ? errno : EIO;
	if (!e && ferror(o->f))
		e = EIO;
	if (!e && o->copy)
		e = copy_out(o);
	if (o->f != stdout) {
		if (fclose(o->f) != 0 && !e)
			e = errno;
	}
	o->f = NULL;
	if (!e && o->tmp) {
		util_tmp_untrack(o->tmp);
		if (rename(o->tmp, o->dest) != 0)
			e = errno;
	}
	if (e)
		snprintf(err, errlen, "%s: error: write failed: %s",
		         strcmp(o->path, "-") ? o->path : "<stdout>", strerror(e));
	else {
		free(o->tmp);
		o->tmp = NULL;
	}
	util_out_abort(o);
	return e ? -1 : 0;
}

void util_out_abort(util_out *o)
{
	if (o->f && o->f != stdout)
		fclose(o->f);
	if (o->tmp) {
		util_tmp_untrack(o->tmp);
		unlink(o->tmp);
	}
	free(o->tmp);
	free(o->dest);
	free(o->path);
	memset(o, 0, sizeof *o);
}

int util_out_write(const char *path, const char *const *inputs, size_t n,
                   int (*fn)(FILE *f, void *ctx), void *ctx, char *err, size_t errlen)
{
	util_out o;
	if (util_out_open(&o, path, inputs, n, 0, err, errlen))
		return -1;
	if (fn(o.f, ctx) != 0) {
		snprintf(err, errlen, "%s: error: write failed", strcmp(path, "-") ? path : "<stdout>");
		util_out_abort(&o);
		return -1;
	}
	return util_out_close(&o, err, errlen);
}

int util_stdout_close(char *err, size_t errlen)
{
	errno = 0;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		snprintf(err, errlen, "error: write failed: %s", strerror(errno ? errno : EIO));
		return -1;
	}
	return 0;
}
