/* fuzz_topo.c: libFuzzer target for topology specs and mappings
 * (network/topo.h): the first line of an input is read as a --topology spec,
 * the rest as a mapping file (written to fuzz-topo.map in the current
 * folder).  A spec that fails must say so with "--topology: "; one that
 * parses must give a canonical spec that parses back to the same counts,
 * routes from a's up-link to b's down-link through links that exist, and
 * placements of ranks on existing hosts under every form of mapping.  Any
 * input must give errors or success, never a crash, a leak, a hang or a
 * broken invariant. */
#include "topo.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

/* Most ranks placed. */
#define FUZZ_RANKS 300

static void check_map(const topo *t, uint64_t P, const char *mapping, uint64_t seed,
                      uint32_t *host)
{
	char err[600];
	int code = -1;
	if (topo_map(t, P, mapping, seed, host, &code, err, sizeof err)) {
		if (code != 1 && code != 2)
			abort();
		if (code == 2 && strncmp(err, "--mapping: ", 11) != 0)
			abort();
		return;
	}
	for (uint64_t r = 0; r < P; r++)
		if (host[r] >= topo_hosts(t))
			abort();
}

static void check(const topo *t, const unsigned char *data, size_t size, const char *rest,
                  size_t rlen)
{
	char buf[256], buf2[256], name[128], err[600];
	uint32_t out[TOPO_MAX_HOPS], H = topo_hosts(t), L = topo_links(t);
	static uint32_t host[FUZZ_RANKS];
	uint64_t h = 1469598103934665603u;
	topo *u;
	if (H < 1 || L < 2 * (uint64_t)H)
		abort();
	topo_spec(t, buf, sizeof buf);
	u = topo_parse(buf, err, sizeof err);
	if (!u)
		abort();
	topo_spec(u, buf2, sizeof buf2);
	if (strcmp(buf, buf2) != 0 || topo_hosts(u) != H || topo_links(u) != L)
		abort();
	for (size_t i = 0; i < size; i++)
		h = (h ^ data[i]) * 1099511628211u;
	for (int k = 0; k < 16; k++) {
		uint32_t a = (uint32_t)(h % H), b = (uint32_t)((h >> 32) % H);
		h = h * 6364136223846793005u + 1442695040888963407u;
		if (k == 0) {
			a = 0;
			b = H - 1;
		}
		unsigned n = topo_route(t, a, b, out);
		if (a == b ? n != 0 : n < 2 || n > TOPO_MAX_HOPS || out[0] != a ||
		    out[n - 1] != (uint64_t)H + b)
			abort();
		uint32_t o2[TOPO_MAX_HOPS];
		if (topo_route(u, a, b, o2) != n || memcmp(out, o2, n * sizeof *out) != 0)
			abort();
		for (unsigned i = 0; i < n; i++) {
			double bw = topo_link_bw(t, out[i]);
			if (out[i] >= L || !(bw >= 0) || isinf(bw))
				abort();
			topo_link_name(t, out[i], name, sizeof name);
			if (strncmp(name, "host ", 5) && strncmp(name, "switch ", 7) &&
			    strncmp(name, "router ", 7))
				abort();
		}
		topo_route_lat(t, n);
	}
	topo_link_name(t, L - 1, name, sizeof name);
	topo_link_name(t, L, name, sizeof name);
	topo_free(u);

	uint64_t P = h % (FUZZ_RANKS + 1);
	check_map(t, P, NULL, h, host);
	check_map(t, P, "linear", h, host);
	check_map(t, P, "roundrobin", h, host);
	check_map(t, P, "random", h, host);
	FILE *f = fopen("fuzz-topo.map", "wb");
	if (!f)
		return;
	fwrite(rest, 1, rlen, f);
	fclose(f);
	check_map(t, P, "fuzz-topo.map", h, host);
	check_map(t, P % 8, "fuzz-topo.map", h, host);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	char spec[512], err[600];
	const unsigned char *nl = memchr(data, '\n', size);
	size_t len = nl ? (size_t)(nl - data) : size;
	if (len >= sizeof spec)
		return 0;
	memcpy(spec, data, len);
	spec[len] = 0;
	topo *t = topo_parse(spec, err, sizeof err);
	if (!t) {
		if (strncmp(err, "--topology: ", 12) != 0)
			abort();
		return 0;
	}
	check(t, data, size, nl ? (const char *)nl + 1 : "", nl ? size - len - 1 : 0);
	topo_free(t);
	return 0;
}
