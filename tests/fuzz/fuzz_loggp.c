/* fuzz_loggp.c: libFuzzer target for the LogGP files: every input is read
 * as a parameter file and as a PRTT table; a table that reads is fitted
 * and its parameter file written.  Any input must give errors or
 * success, never a crash or a hang. */
#include "loggp_fit.h"
#include "loggp_params.h"
#include "loggp_raw.h"

#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static FILE *devnull;
	static loggp_params par;
	static loggp_result res;
	char err[LOGGP_ERRLEN], path[64];

	if (!devnull)
		devnull = fopen("/dev/null", "w");
	if (!devnull)
		abort();
	if (loggp_params_parse("fuzz.params", (const char *)data, size, &par, err) == 0) {
		for (uint64_t s = 0; s < 1u << 20; s = s * 2 + 1)
			(void)loggp_params_lookup(&par, s);
		loggp_params_write(devnull, &par, "fuzz");
	}

	int fd = memfd_create("fuzz.prtt", 0);
	if (fd < 0)
		abort();
	if (size && write(fd, data, size) != (ssize_t)size)
		abort();
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	unsigned n;
	loggp_point *pts;
	size_t np;
	loggp_spoint *spts = NULL;
	size_t nsp = 0;
	if (loggp_raw_read(path, &n, &pts, &np, &spts, &nsp, err) == 0) {
		loggp_detect det;
		loggp_detect_default(&det);
		if (loggp_fit(pts, np, n, &det, &res, err, sizeof err) == 0) {
			loggp_print_table(devnull, pts, np, &res);
			loggp_fit_params(&res, pts, 65535, &par);
			loggp_params_write(devnull, &par, NULL);
		}
		static loggp_mwfit fits[LOGGP_PARAMS_MAX_STRIDES];
		int nf = loggp_fit_strides(spts, nsp, n, fits, err, sizeof err);
		if (nf > 0)
			loggp_print_strides(devnull, spts, fits, (size_t)nf, n);
		free(pts);
		free(spts);
	}
	close(fd);
	return 0;
}
