/* out.h: output files written safely.  An output never overwrites one of
 * the tool's inputs; a regular file is written into a temporary file beside
 * it and renamed over it only once complete, so a failed run (a full disk,
 * an error in the input) leaves the old file, or none, never a partial one;
 * a tool removes only the temporary files it created.  A device, a pipe or
 * standard output ("-") is written directly, and so are /dev/stdout,
 * /dev/fd/N and /proc/... (an open file). */
#ifndef UTIL_OUT_H
#define UTIL_OUT_H

#include <stddef.h>
#include <stdio.h>

typedef struct util_out {
	FILE *f;        /* write here (fileno(f) for pwrite) */
	char *path;     /* the target as given ("-": standard output) */
	char *dest;     /* the file renamed into place (symlinks resolved) */
	char *tmp;      /* the temporary file, or NULL when written directly */
	int copy;       /* 1: f is unlinked scratch, copied to path at close */
} util_out;

/* Refuse an output that cannot be made or is one of the inputs, before a
 * long run: a new or regular file needs a writable folder ("OUT: error:
 * cannot create: REASON"), and out and each of the n paths in inputs (NULL
 * entries and "-" are skipped) are compared by device and inode ("OUT:
 * error: the output is also the input IN").  Returns 0, or -1 with the
 * message in err. */
int util_out_check(const char *out, const char *const *inputs, size_t n,
                   char *err, size_t errlen);

/* Whether outputs a and b of one run name the same file: the same
 * existing file (by device and inode, through links), or the same path
 * once its folder is resolved; standard output ("-") is the same as
 * itself only. */
int util_out_same(const char *a, const char *b);

/* Open path for writing, after util_out_check against the n inputs.
 * seekable: the caller writes at offsets (pwrite), so a pipe or device
 * gets an unlinked temporary file that is copied to it at close.  Returns
 * 0, or -1 with "PATH: error: ..." in err (o is then empty). */
int util_out_open(util_out *o, const char *path, const char *const *inputs, size_t n,
                  int seekable, char *err, size_t errlen);

/* Finish: flush and check every write, then rename the temporary file into
 * place (or copy it to a pipe or device).  Returns 0, or -1 with "PATH:
 * error: write failed: REASON" in err; then the temporary file is removed
 * and the target left as it was.  o is empty afterwards. */
int util_out_close(util_out *o, char *err, size_t errlen);

/* Give up: close and remove the temporary file; the target is untouched. */
void util_out_abort(util_out *o);

/* An output written in one go: util_out_open (not seekable), fn(f, ctx)
 * writes it (non-zero: a write failed), util_out_close.  Returns 0, or -1
 * with "PATH: error: ..." in err and the target left as it was. */
int util_out_write(const char *path, const char *const *inputs, size_t n,
                   int (*fn)(FILE *f, void *ctx), void *ctx, char *err, size_t errlen);

/* Temporary files a signal must not leave behind: once one is tracked,
 * SIGINT, SIGTERM and SIGHUP (each unless it is ignored) remove every
 * tracked file, then end the process as the signal would have.
 * util_out_open tracks its temporary files itself.  util_tmp_track
 * returns 0, or -1 when too many files are tracked at once (the file is
 * then not removed on a signal). */
int util_tmp_track(const char *path);
void util_tmp_untrack(const char *path);

/* Flush standard output and report a write error on it (a full disk,
 * a closed pipe): returns 0, or -1 with "error: write failed: REASON" in
 * err.  For tools that print their results, before exiting 0. */
int util_stdout_close(char *err, size_t errlen);

#endif
