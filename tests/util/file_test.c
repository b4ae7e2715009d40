/* file_test.c: reading a small file whole (util_read_file): the bytes, and
 * each error with its exact text. */
#include "check.h"
#include "util.h"

#include <stdlib.h>
#include <unistd.h>

int main(void)
{
	char dir[] = "/tmp/util_file_test.XXXXXX", path[64], err[256], *buf = NULL;
	size_t len = 0;
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(path, sizeof path, "%s/f", dir);
	FILE *f = fopen(path, "wb");
	CHECK(f && fwrite("ab\0cd", 1, 5, f) == 5);
	if (f)
		fclose(f);

	CHECK(util_read_file(path, 64, &buf, &len, err, sizeof err) == 0);
	CHECK_EQ_U64(len, 5);
	CHECK(buf && memcmp(buf, "ab\0cd", 5) == 0);
	free(buf);

	char want[512], big[8192];
	memset(big, 'x', sizeof big);
	f = fopen(path, "wb");
	CHECK(f && fwrite(big, 1, sizeof big, f) == sizeof big);
	if (f)
		fclose(f);
	CHECK(util_read_file(path, 8192, &buf, &len, err, sizeof err) == -1);
	snprintf(want, sizeof want, "%s: error: too large (8192 bytes or more)", path);
	CHECK_STR(err, want);
	CHECK(buf == NULL);
	CHECK(util_read_file(path, 8193, &buf, &len, err, sizeof err) == 0);
	CHECK_EQ_U64(len, 8192);
	free(buf);

	CHECK(util_read_file(dir, 64, &buf, &len, err, sizeof err) == -1);
	snprintf(want, sizeof want, "%s: error: cannot read: Is a directory", dir);
	CHECK_STR(err, want);

	unlink(path);
	CHECK(util_read_file(path, 64, &buf, &len, err, sizeof err) == -1);
	snprintf(want, sizeof want, "%s: error: cannot open: No such file or directory", path);
	CHECK_STR(err, want);
	rmdir(dir);
	return check_done();
}
