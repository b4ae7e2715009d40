/* fuzz_path.c: libFuzzer target for the critical path file's reader
 * (timeline/tl_path.h): any input is rejected with a "fuzz.csv:..."
 * message, or read into links that the writer writes and the reader reads
 * back to the same links, written again byte for byte. */
#include "tl_path.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

/* The writer's text of n links (malloc'ed). */
static char *written(const tl_link *v, size_t n, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	if (!f || tl_path_write(f, v, n) || fclose(f))
		abort();
	return buf;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	char err[512];
	tl_link *v = NULL, *w = NULL;
	size_t n = 0, m = 0, l1, l2;
	/* fmemopen does not take an empty buffer */
	FILE *f = size ? fmemopen((void *)(uintptr_t)data, size, "r") : fopen("/dev/null", "r");
	if (!f)
		abort();
	err[0] = 0;
	int rc = tl_path_read(f, "fuzz.csv", &v, &n, err, sizeof err);
	fclose(f);
	if (rc) {
		if (strncmp(err, "fuzz.csv:", 9) != 0 || !strstr(err, "error: "))
			abort();
		return 0;
	}
	char *a = written(v, n, &l1);
	f = fmemopen(a, l1, "r");
	if (!f || tl_path_read(f, "again.csv", &w, &m, err, sizeof err) || m != n)
		abort();
	fclose(f);
	char *b = written(w, m, &l2);
	if (l1 != l2 || memcmp(a, b, l1) != 0)
		abort();
	for (size_t i = 0; i < n; i++)
		if (v[i].step != w[i].step || v[i].kind != w[i].kind || v[i].start_ns != w[i].start_ns ||
		    v[i].end_ns != w[i].end_ns || v[i].noise_ns != w[i].noise_ns)
			abort();
	free(a);
	free(b);
	tl_path_free(v, n);
	tl_path_free(w, m);
	return 0;
}
