/* topo_dump.c: prints a topology (network/topo.h, docs/network.md) as text, for
 * platform.awk to turn into a SimGrid platform: the same hosts, the same
 * directed links with the same bandwidths, the same route for every
 * ordered pair of hosts.
 *
 *   topo_dump SPEC
 *
 * Output, one record a line, fields separated by one space:
 *   topology CANONICAL-SPEC
 *   hosts H
 *   links N
 *   link L BW NAME...      N lines, L = 0..N-1; BW in bytes/ns as
 *                          topo_link_bw gives it (0: the run's default,
 *                          1/G), NAME as topo_link_name (with spaces)
 *   route A B L1 L2 ...    H*(H-1) lines, every A != B in order: the links
 *                          of the route from host A to host B
 *   lat NS                 the latency per switch crossed
 * Exit status 2 with "topo_dump: error: ..." on a bad spec. */
#include "topo.h"

#include <inttypes.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: topo_dump SPEC\n");
		return 2;
	}
	char err[512];
	topo *t = topo_parse(argv[1], err, sizeof err);
	if (!t) {
		fprintf(stderr, "topo_dump: error: %s\n", err);
		return 2;
	}
	char buf[256];
	topo_spec(t, buf, sizeof buf);
	uint32_t H = topo_hosts(t), N = topo_links(t);
	printf("topology %s\nhosts %" PRIu32 "\nlinks %" PRIu32 "\n", buf, H, N);
	for (uint32_t l = 0; l < N; l++) {
		topo_link_name(t, l, buf, sizeof buf);
		printf("link %" PRIu32 " %.17g %s\n", l, topo_link_bw(t, l), buf);
	}
	uint32_t route[TOPO_MAX_HOPS];
	for (uint32_t a = 0; a < H; a++)
		for (uint32_t b = 0; b < H; b++) {
			unsigned n = topo_route(t, a, b, route);
			if (!n)
				continue;
			printf("route %" PRIu32 " %" PRIu32, a, b);
			for (unsigned i = 0; i < n; i++)
				printf(" %" PRIu32, route[i]);
			putchar('\n');
		}
	/* The latency of a route of two links is one switch's. */
	printf("lat %" PRIu64 "\n", topo_route_lat(t, 2));
	topo_free(t);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "topo_dump: error: write failed\n");
		return 1;
	}
	return 0;
}
