/* fuzz_dot.c: libFuzzer target for dot files (network/topo.h, topo_read_dot):
 * an input is written to fuzz-dot.dot in the current folder and read.  A
 * file that fails must say so with "fuzz-dot.dot:"; one that reads must
 * have a host, and for every pair of its first hosts either a route that
 * topo_check_route refuses with "fuzz-dot.dot: error: ", or one of 1 to
 * TOPO_MAX_HOPS links that exist, each with a name.  Any input must give
 * errors or success, never a crash, a leak, a hang or a broken
 * invariant. */
#include "topo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

/* Hosts whose routes are walked, each way. */
#define FUZZ_HOSTS 24

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static const char path[] = "fuzz-dot.dot";
	char err[1200], name[600];
	uint32_t out[TOPO_MAX_HOPS];
	FILE *f = fopen(path, "wb");
	topo *t;
	if (!f || fwrite(data, 1, size, f) != size || fclose(f))
		abort();
	if (!(t = topo_read_dot(path, err, sizeof err))) {
		if (strncmp(err, path, sizeof path - 1) != 0)
			abort();
		return 0;
	}
	uint32_t H = topo_hosts(t), L = topo_links(t), n = H < FUZZ_HOSTS ? H : FUZZ_HOSTS;
	if (H < 1 || !topo_routes_checked(t))
		abort();
	topo_spec(t, name, sizeof name);
	if (strcmp(name, "dot:fuzz-dot.dot") != 0)
		abort();
	for (uint32_t a = 0; a < n; a++)
		for (uint32_t b = 0; b < n; b++) {
			if (topo_check_route(t, a, b, err, sizeof err)) {
				if (a == b || strncmp(err, "fuzz-dot.dot: error: ", 21) != 0)
					abort();
				continue;
			}
			unsigned k = topo_route(t, a, b, out);
			if ((a == b) != (k == 0) || k > TOPO_MAX_HOPS)
				abort();
			for (unsigned i = 0; i < k; i++) {
				if (out[i] >= L || topo_link_bw(t, out[i]) < 0)
					abort();
				topo_link_name(t, out[i], name, sizeof name);
				if (!strstr(name, " -> "))
					abort();
			}
		}
	topo_free(t);
	return 0;
}
