/* topo.h: network topologies (docs/network.md): the hosts and directed links
 * of a fat tree, a torus or a dragonfly, and the static route between two
 * hosts, computed from the host numbers (no table per pair); and where the
 * ranks of a schedule are placed on the hosts.  A topology is immutable
 * once made: one may serve any number of simulations at once. */
#ifndef SIM_TOPO_H
#define SIM_TOPO_H

#include <stddef.h>
#include <stdint.h>

typedef struct topo topo;

/* Links are directed and numbered 0 .. topo_links()-1.  In a fat tree, a
 * torus or a dragonfly link h (h < hosts) is host h's up-link, link
 * hosts + h its down-link, then come the links between switches or
 * routers; in a dot file the edges, node by node (docs/network.md). */

/* Most links on one route (host up-link and down-link included). */
#define TOPO_MAX_HOPS 64

/* Build the topology of spec (docs/network.md, "Topologies"):
 *   fattree:k=K,levels=N[,taper=T]     k^N hosts; T divides K (default 1)
 *   torus:D1xD2[xD3][,p=H]             H hosts per router (default 1)
 *   dragonfly:a=A,p=P,h=H[,groups=G]   G groups (default A*H+1)
 * each optionally followed by ",bw=B" (bytes/ns of the links between
 * switches), ",hostbw=B" (of the links between a host and its switch) and
 * ",lat=NS" (latency per switch crossed); a bandwidth left out is 0,
 * which means the run's default (1/G).  Returns NULL with
 * "--topology: ..." in err (an unknown kind, a key it does not know, a
 * missing or repeated key, a value that is not a number or out of range,
 * a taper that does not divide k, more than 2^31 hosts or links, a torus
 * with routes of more than TOPO_MAX_HOPS links). */
topo *topo_parse(const char *spec, char *err, size_t errlen);

/* Read the published LogGOPSim's annotated Graphviz file at path
 * (docs/network.md, "Dot files") with cgraph: the nodes whose names begin
 * with H are the hosts, in the file's order; each edge a link, with its
 * optional bw attribute (bytes/ns); routes from the edges' comments.
 * Returns NULL with "PATH:LINE: error: ..." (a syntax error) or
 * "PATH: error: ..." in err (no node, no host, a comment that names no
 * node, a node that routes one destination over two edges or has two '*'
 * edges, a bw that is not a decimal above 0; or a build without cgraph).
 * Routes are checked when used: topo_check_route. */
topo *topo_read_dot(const char *path, char *err, size_t errlen);

/* 1 when routes can be missing (a dot file): each pair of hosts that
 * communicates must pass topo_check_route before topo_route; 0 when every
 * route exists. */
int topo_routes_checked(const topo *t);

/* 0 when there is a route from host a to host b (always, but in a dot
 * file), else -1 with "PATH: error: no route from X to Y: ..." or "...
 * longer than TOPO_MAX_HOPS links (a loop ...)" in err. */
int topo_check_route(const topo *t, uint32_t a, uint32_t b, char *err, size_t errlen);

void topo_free(topo *t);

uint32_t topo_hosts(const topo *t);
uint32_t topo_links(const topo *t);

/* The route from host a to host b (both below topo_hosts()): the links
 * crossed, in order, into out[0 .. n-1]; returns n (1..TOPO_MAX_HOPS), or 0
 * when a == b (no link).  Generated kinds: n >= 2, the first a's up-link
 * (link a), the last b's down-link (link hosts + b).  Deterministic
 * routing: d-mod-k on fat trees, dimension order on tori (the shorter way
 * round, + on a tie), minimal on dragonflies (local, global, local), the
 * comments of a dot file (a route topo_check_route accepted).  O(n) (a
 * dot file: O(n log d) for d routes a node names). */
unsigned topo_route(const topo *t, uint32_t a, uint32_t b, uint32_t *out);

/* Bandwidth of link l in bytes/ns (0: the run's default): hostbw for the
 * hosts' links (l < 2 * hosts), bw for the others; a dot file's edge
 * attribute bw. */
double topo_link_bw(const topo *t, uint32_t l);

/* Latency of a route of n links, in ns, beyond L: (n - 1) * lat (0 when n
 * is 0). */
uint64_t topo_route_lat(const topo *t, unsigned n);

/* The name of link l for reports, e.g. "host 5 up", "switch 1.3 up 2",
 * "router 3,4 +x", "router 2.1 local 3", "router 2.1 global 0", a dot
 * file's "H0 -> S1" (docs/network.md); "no link L" for l >= topo_links(). */
void topo_link_name(const topo *t, uint32_t l, char *buf, size_t n);

/* The canonical spec for reports: the kind's keys in a fixed order,
 * defaults filled in, then bw, hostbw and lat when not 0; it parses back
 * to the same topology.  A dot file: "dot:PATH". */
void topo_spec(const topo *t, char *buf, size_t n);

/* Place P ranks on the hosts (docs/network.md, "Mapping") into host[0..P-1]:
 *   NULL          rank r on host r (an error when P > hosts)
 *   "linear"      ceil(P / hosts) ranks per host, in rank order
 *   "roundrobin"  rank r on host r mod hosts
 *   "random"      the linear placement shuffled by seed (splitmix64,
 *                 Fisher-Yates: the same seed, the same placement)
 *   any other     a file: one host number per line, line i for rank i
 *                 ('#' comments and blank lines skipped)
 * Returns 0 (*exit_code 0), or -1 with "FILE:LINE:COL: error: ...",
 * "FILE: error: ..." (for a file) or "--mapping: ..." in err, and
 * *exit_code 1 (file) or 2 (flag). */
int topo_map(const topo *t, uint64_t P, const char *mapping, uint64_t seed,
             uint32_t *host, int *exit_code, char *err, size_t errlen);

#endif
