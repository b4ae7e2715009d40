/* topo_test.c: topologies and mappings (network/topo.h, docs/network.md): the
 * exact parse errors; host and link counts; link names, decoded here into
 * the two nodes each link joins by the wiring of docs/network.md, so that
 * every route is checked to be a connected path from a to b; the d-mod-k
 * fat tree congestion-free on shift permutations (untapered) and not
 * (tapered); torus routes of the wrap-around Manhattan length; one global
 * link per pair of dragonfly groups; canonical specs that parse back to
 * the same topology; every form of mapping with exact hosts and errors. */
#include "check.h"
#include "topo.h"

#include <stdlib.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/sim_topo_test.XXXXXX";

/* The error of topo_parse(spec) ("" if it parses). */
static const char *parse_err(const char *spec)
{
	static char err[512];
	topo *t = topo_parse(spec, err, sizeof err);
	if (t) {
		topo_free(t);
		err[0] = 0;
	}
	return err;
}

static topo *parse(const char *spec)
{
	char err[512];
	topo *t = topo_parse(spec, err, sizeof err);
	if (!t)
		printf("    %s: %s\n", spec, err);
	return t;
}

static void check_errors(void)
{
	static const struct { const char *spec, *err; } cases[] = {
		{ "mesh:4x4", "--topology: unknown kind 'mesh' (expected fattree, torus or dragonfly)" },
		{ "", "--topology: unknown kind '' (expected fattree, torus or dragonfly)" },
		{ "Fattree:k=4,levels=2", "--topology: unknown kind 'Fattree' (expected fattree, torus "
		  "or dragonfly)" },
		{ "fattree", "--topology: missing key 'k' (fattree:k=K,levels=N[,taper=T])" },
		{ "fattree:", "--topology: missing key 'k' (fattree:k=K,levels=N[,taper=T])" },
		{ "fattree:k=4", "--topology: missing key 'levels' (fattree:k=K,levels=N[,taper=T])" },
		{ "fattree:k=4,levels=2,x=1", "--topology: unknown key 'x' for fattree (expected k, "
		  "levels, taper, bw, hostbw or lat)" },
		{ "fattree:k=4,levels=2,p=1", "--topology: unknown key 'p' for fattree (expected k, "
		  "levels, taper, bw, hostbw or lat)" },
		{ "torus:4x4,k=2", "--topology: unknown key 'k' for torus (expected p, bw, hostbw or "
		  "lat)" },
		{ "dragonfly:a=2,p=1,h=1,taper=1", "--topology: unknown key 'taper' for dragonfly "
		  "(expected a, p, h, groups, bw, hostbw or lat)" },
		{ "fattree:k=4,levels=2,k=4", "--topology: repeated key 'k'" },
		{ "torus:4x4,p=1,p=2", "--topology: repeated key 'p'" },
		{ "fattree:k=four,levels=2", "--topology: k=four: not an integer" },
		{ "fattree:k=4,levels=", "--topology: levels=: not an integer" },
		{ "fattree:k=4.5,levels=2", "--topology: k=4.5: not an integer" },
		{ "fattree:k=-4,levels=2", "--topology: k=-4: not an integer" },
		{ "fattree:k=4,levels=2,bw=fast", "--topology: bw=fast: not a number" },
		{ "fattree:k=4,levels=2,hostbw=.5", "--topology: hostbw=.5: not a number" },
		{ "fattree:k=4,levels=2,bw=0.0000000001", "--topology: bw=0.0000000001: too many "
		  "fraction digits" },
		{ "fattree:k=4,levels=2,bw=4294967296", "--topology: bw=4294967296: out of range "
		  "(below 4294967296)" },
		{ "fattree:k=4,levels=2,lat=1.5", "--topology: lat=1.5: not a time in whole ns (50, 0.1us)" },
		{ "fattree:k=4,levels=2,lat=1000000000001", "--topology: lat=1000000000001: out of "
		  "range (0..1000000000000)" },
		{ "fattree:k=1,levels=2", "--topology: k=1: out of range (2..2147483648)" },
		{ "fattree:k=99999999999999999999999,levels=2", "--topology: "
		  "k=99999999999999999999999: out of range (2..2147483648)" },
		{ "fattree:k=4,levels=0", "--topology: levels=0: out of range (1..31)" },
		{ "fattree:k=2,levels=32", "--topology: levels=32: out of range (1..31)" },
		{ "fattree:k=4,levels=2,taper=0", "--topology: taper=0: out of range (1..2147483648)" },
		{ "fattree:k=4,levels=2,taper=3", "--topology: taper=3 does not divide k=4" },
		{ "fattree:k=4,levels=2,taper=8", "--topology: taper=8 does not divide k=4" },
		{ "fattree:k=64,levels=6", "--topology: too many hosts (more than 2^31)" },
		{ "fattree:k=2,levels=31", "--topology: too many links (more than 2^31)" },
		{ "fattree:k=4,levels=2,", "--topology: expected KEY=VALUE, not ''" },
		{ "fattree:k=4,,levels=2", "--topology: expected KEY=VALUE, not ''" },
		{ "fattree:k=4,levels", "--topology: expected KEY=VALUE, not 'levels'" },
		{ "torus", "--topology: expected the dimensions first: torus:D1xD2[xD3][,p=H]" },
		{ "torus:p=4", "--topology: expected the dimensions first: torus:D1xD2[xD3][,p=H]" },
		{ "torus:8", "--topology: a torus has 2 or 3 dimensions (D1xD2 or D1xD2xD3), not '8'" },
		{ "torus:2x2x2x2", "--topology: a torus has 2 or 3 dimensions (D1xD2 or D1xD2xD3), "
		  "not '2x2x2x2'" },
		{ "torus:8x", "--topology: torus dimension '': not an integer" },
		{ "torus:8y8", "--topology: torus dimension '8y8': not an integer" },
		{ "torus:8x0", "--topology: torus dimension '0': out of range (1..2147483648)" },
		{ "torus:8x8,", "--topology: expected KEY=VALUE, not ''" },
		{ "torus:8x8,p=0", "--topology: p=0: out of range (1..2147483648)" },
		{ "torus:32768x32768", "--topology: too many links (more than 2^31)" },
		{ "torus:65536x65536,p=2", "--topology: too many hosts (more than 2^31)" },
		{ "torus:2147483648x2147483648x2147483648", "--topology: too many hosts (more than "
		  "2^31)" },
		{ "torus:64x64x64", "--topology: routes of up to 98 links, more than 64" },
		{ "dragonfly", "--topology: missing key 'a' (dragonfly:a=A,p=P,h=H[,groups=G])" },
		{ "dragonfly:a=4,h=2", "--topology: missing key 'p' (dragonfly:a=A,p=P,h=H[,groups=G])" },
		{ "dragonfly:a=4,p=2", "--topology: missing key 'h' (dragonfly:a=A,p=P,h=H[,groups=G])" },
		{ "dragonfly:a=4,p=2,h=2,groups=10", "--topology: groups=10: out of range (2..9)" },
		{ "dragonfly:a=4,p=2,h=2,groups=1", "--topology: groups=1: out of range "
		  "(2..2147483648)" },
		{ "dragonfly:a=0,p=2,h=2", "--topology: a=0: out of range (1..2147483648)" },
		{ "dragonfly:a=2147483648,p=2147483648,h=2147483648", "--topology: too many hosts "
		  "(more than 2^31)" },
		{ "dragonfly:a=1024,p=1,h=1024", "--topology: too many links (more than 2^31)" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		CHECK_STR(parse_err(cases[i].spec), cases[i].err);
	}
	/* routes of 2 + 62 = 64 links at most */
	CHECK_STR(parse_err("torus:1x125"), "");
	CHECK_STR(parse_err("torus:1x127"), "--topology: routes of up to 65 links, more than 64");
	CHECK_STR(parse_err(NULL), "--topology: unknown kind '' (expected fattree, torus or "
	          "dragonfly)");
	/* a long piece is quoted up to 40 bytes */
	CHECK_STR(parse_err("fattree:kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk=1"),
	          "--topology: unknown key 'kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk' for fattree "
	          "(expected k, levels, taper, bw, hostbw or lat)");
	/* a short buffer: truncated, never overrun */
	char small[12];
	memset(small, 'x', sizeof small);
	CHECK(topo_parse("mesh", small, 8) == NULL);
	CHECK_STR(small, "--topol");
	CHECK(small[8] == 'x');
}

/* ---- The wiring, from link names ------------------------------------------ */

/* The parameters a test needs to decode names of the topology under test. */
typedef struct wiring {
	char kind;                    /* 'f', 't', 'd' */
	uint64_t k, w, levels;        /* fat tree */
	uint64_t dim[3], ndim, p;     /* torus (p also dragonfly) */
	uint64_t a, h, g;             /* dragonfly */
} wiring;

static uint64_t ipow(uint64_t b, uint64_t e)
{
	uint64_t x = 1;
	while (e--)
		x *= b;
	return x;
}

/* The switch or router host x hangs from. */
static void attach(const wiring *w, uint64_t x, char *node, size_t n)
{
	if (w->kind == 'f')
		snprintf(node, n, "s1.%llu", (unsigned long long)(x / w->k));
	else if (w->kind == 't')
		snprintf(node, n, "r%llu", (unsigned long long)(x / w->p));
	else
		snprintf(node, n, "r%llu.%llu", (unsigned long long)(x / w->p / w->a),
		         (unsigned long long)(x / w->p % w->a));
}

/* The nodes link name joins, from and to; 0, or -1 if it is not a name. */
static int ends(const wiring *w, const char *name, char *from, char *to, size_t n)
{
	unsigned long long x, y, z, q;
	char dir[8], sign, axis;
	int len = 0;
	if (sscanf(name, "host %llu %4s%n", &x, dir, &len) == 2 && name[len] == 0) {
		char hn[32], sw[64];
		snprintf(hn, sizeof hn, "h%llu", x);
		attach(w, x, sw, sizeof sw);
		if (strcmp(dir, "up") == 0) {
			snprintf(from, n, "%s", hn);
			snprintf(to, n, "%s", sw);
		} else if (strcmp(dir, "down") == 0) {
			snprintf(from, n, "%s", sw);
			snprintf(to, n, "%s", hn);
		} else
			return -1;
		return 0;
	}
	if (w->kind == 'f' && sscanf(name, "switch %llu.%llu %4s %llu%n", &x, &y, dir, &q, &len) == 4 &&
	    name[len] == 0) {
		/* level x, switch y = g * w^(x-1) + r; up port q to the switch
		 * (g / k) * w^x + r + q * w^(x-1) of level x + 1 */
		uint64_t wp = ipow(w->w, x - 1), g = y / wp, r = y % wp;
		if (x < 1 || x >= w->levels || q >= w->w || g >= ipow(w->k, w->levels - x))
			return -1;
		char lo[64], hi[64];
		snprintf(lo, sizeof lo, "s%llu.%llu", x, y);
		snprintf(hi, sizeof hi, "s%llu.%llu", x + 1,
		         (unsigned long long)(g / w->k * wp * w->w + r + q * wp));
		if (strcmp(dir, "up") == 0) {
			snprintf(from, n, "%s", lo);
			snprintf(to, n, "%s", hi);
		} else if (strcmp(dir, "down") == 0) {
			snprintf(from, n, "%s", hi);
			snprintf(to, n, "%s", lo);
		} else
			return -1;
		return 0;
	}
	if (w->kind == 't') {
		uint64_t c[3] = { 0, 0, 0 };
		int ok = 0;
		if (w->ndim == 2 && sscanf(name, "router %llu,%llu %c%c%n", &x, &y, &sign, &axis, &len) == 4 &&
		    name[len] == 0) {
			c[0] = x;
			c[1] = y;
			ok = 1;
		}
		if (w->ndim == 3 && sscanf(name, "router %llu,%llu,%llu %c%c%n", &x, &y, &z, &sign, &axis,
		                           &len) == 5 && name[len] == 0) {
			c[0] = x;
			c[1] = y;
			c[2] = z;
			ok = 1;
		}
		if (!ok || (sign != '+' && sign != '-') || axis < 'x' || axis >= 'x' + (int)w->ndim)
			return -1;
		unsigned d = (unsigned)(axis - 'x');
		uint64_t r0 = 0, r1 = 0, st = 1, c2[3];
		memcpy(c2, c, sizeof c);
		if (w->dim[d] < 2)
			return -1;
		c2[d] = sign == '+' ? (c[d] + 1) % w->dim[d] : (c[d] + w->dim[d] - 1) % w->dim[d];
		for (unsigned i = 0; i < w->ndim; i++) {
			if (c[i] >= w->dim[i])
				return -1;
			r0 += c[i] * st;
			r1 += c2[i] * st;
			st *= w->dim[i];
		}
		snprintf(from, n, "r%llu", (unsigned long long)r0);
		snprintf(to, n, "r%llu", (unsigned long long)r1);
		return 0;
	}
	if (w->kind == 'd' && sscanf(name, "router %llu.%llu local %llu%n", &x, &y, &q, &len) == 3 &&
	    name[len] == 0) {
		if (x >= w->g || y >= w->a || q >= w->a || q == y)
			return -1;
		snprintf(from, n, "r%llu.%llu", x, y);
		snprintf(to, n, "r%llu.%llu", x, q);
		return 0;
	}
	if (w->kind == 'd' && sscanf(name, "router %llu.%llu global %llu%n", &x, &y, &q, &len) == 3 &&
	    name[len] == 0) {
		/* port gp = y*h + q of group x goes to group (x + gp + 1) mod m,
		 * arriving on its port m - 2 - gp */
		uint64_t m = w->a * w->h + 1, gp = y * w->h + q, gy = (x + gp + 1) % m;
		if (x >= w->g || y >= w->a || q >= w->h || gy >= w->g)
			return -1;
		snprintf(from, n, "r%llu.%llu", x, y);
		snprintf(to, n, "r%llu.%llu", (unsigned long long)gy,
		         (unsigned long long)((m - 2 - gp) / w->h));
		return 0;
	}
	return -1;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every link has a name that decodes, the names are distinct, and each
 * link's reverse exists. */
static void check_names(const topo *t, const wiring *w, const char *spec)
{
	uint32_t L = topo_links(t);
	char **names = calloc(L, sizeof *names), (*fr)[64] = calloc(L, sizeof *fr);
	char (*to)[64] = calloc(L, sizeof *to);
	int bad = 0, dup = 0, norev = 0;
	for (uint32_t l = 0; l < L; l++) {
		char buf[96];
		topo_link_name(t, l, buf, sizeof buf);
		names[l] = strdup(buf);
		if (ends(w, buf, fr[l], to[l], 64) && bad++ == 0)
			printf("    %s: link %lu is '%s'\n", spec, (unsigned long)l, buf);
	}
	qsort(names, L, sizeof *names, cmp_str);
	for (uint32_t l = 1; l < L; l++)
		if (strcmp(names[l - 1], names[l]) == 0 && dup++ == 0)
			printf("    %s: two links named '%s'\n", spec, names[l]);
	for (uint32_t l = 0; l < L && !bad; l++) {
		int found = 0;
		for (uint32_t m = 0; m < L && !found; m++)
			found = strcmp(fr[m], to[l]) == 0 && strcmp(to[m], fr[l]) == 0;
		if (!found && norev++ == 0)
			printf("    %s: no link from %s to %s\n", spec, to[l], fr[l]);
	}
	for (uint32_t l = 0; l < L; l++)
		free(names[l]);
	free(names);
	free(fr);
	free(to);
	printf("%s - names of %s: each decodes, distinct, reversible\n",
	       bad || dup || norev ? "not ok" : "ok", spec);
	if (bad || dup || norev)
		check_failures++;
}

/* Checks the route from a to b: a connected path from host a to host b
 * of links in range.  Returns its length, 0 after printing a failure. */
static unsigned check_path(const topo *t, const wiring *w, uint32_t a, uint32_t b,
                           uint32_t *out)
{
	char f[64], to[64], prev[64], name[96];
	unsigned n = topo_route(t, a, b, out);
	if (n < 2 || n > TOPO_MAX_HOPS) {
		printf("    route %lu -> %lu: %u links\n", (unsigned long)a, (unsigned long)b, n);
		return 0;
	}
	snprintf(prev, sizeof prev, "h%lu", (unsigned long)a);
	for (unsigned i = 0; i < n; i++) {
		if (out[i] >= topo_links(t)) {
			printf("    route %lu -> %lu: link %lu\n", (unsigned long)a, (unsigned long)b,
			       (unsigned long)out[i]);
			return 0;
		}
		topo_link_name(t, out[i], name, sizeof name);
		if (ends(w, name, f, to, sizeof f) || strcmp(f, prev) != 0) {
			printf("    route %lu -> %lu: link %u '%s' does not start at %s\n",
			       (unsigned long)a, (unsigned long)b, i, name, prev);
			return 0;
		}
		snprintf(prev, sizeof prev, "%s", to);
	}
	snprintf(f, sizeof f, "h%lu", (unsigned long)b);
	if (strcmp(prev, f) != 0) {
		printf("    route %lu -> %lu ends at %s\n", (unsigned long)a, (unsigned long)b, prev);
		return 0;
	}
	return n;
}

/* Every route between two hosts of t is a path; ok line per topology. */
static void check_all_paths(const topo *t, const wiring *w, const char *spec)
{
	uint32_t H = topo_hosts(t), out[TOPO_MAX_HOPS];
	int bad = 0;
	for (uint32_t a = 0; a < H && !bad; a++)
		for (uint32_t b = 0; b < H && !bad; b++)
			if (a != b && check_path(t, w, a, b, out) == 0)
				bad = 1;
	printf("%s - routes of %s: paths from a to b\n", bad ? "not ok" : "ok", spec);
	if (bad)
		check_failures++;
}

/* ---- Fat trees ------------------------------------------------------------ */

static wiring ft_wiring(uint64_t k, uint64_t levels, uint64_t taper)
{
	wiring w = { .kind = 'f', .k = k, .w = k / taper, .levels = levels };
	return w;
}

/* The most routes of the shift permutation i -> i + s (mod hosts) on one
 * link, over every s (when all is set) or only s. */
static unsigned shift_load(const topo *t, uint32_t s)
{
	uint32_t H = topo_hosts(t), out[TOPO_MAX_HOPS];
	unsigned *use = calloc(topo_links(t), sizeof *use), most = 0;
	for (uint32_t i = 0; i < H; i++) {
		unsigned n = topo_route(t, i, (i + s) % H, out);
		for (unsigned j = 0; j < n; j++)
			if (++use[out[j]] > most)
				most = use[out[j]];
	}
	free(use);
	return most;
}

static void check_fattree(void)
{
	static const struct { uint64_t k, levels, taper, links; } trees[] = {
		/* 2H + sum over levels i < n of 2 k^(n-i) w^i */
		{ 4, 3, 1, 128 + 2 * 64 + 2 * 64 },
		{ 8, 2, 1, 128 + 2 * 64 },
		{ 2, 5, 1, 64 + 4 * 64 },
		{ 3, 3, 1, 54 + 2 * 27 + 2 * 27 },
		{ 4, 2, 2, 32 + 2 * 4 * 2 },
		{ 4, 3, 2, 128 + 2 * 16 * 2 + 2 * 4 * 4 },
		{ 6, 2, 3, 72 + 2 * 6 * 2 },
		{ 4, 3, 4, 128 + 2 * 16 + 2 * 4 },
		{ 5, 1, 1, 10 },
	};
	uint32_t out[TOPO_MAX_HOPS];
	char spec[96], name[96];
	for (size_t i = 0; i < sizeof trees / sizeof trees[0]; i++) {
		snprintf(spec, sizeof spec, "fattree:k=%llu,levels=%llu,taper=%llu",
		         (unsigned long long)trees[i].k, (unsigned long long)trees[i].levels,
		         (unsigned long long)trees[i].taper);
		topo *t = parse(spec);
		CHECK(t != NULL);
		if (!t)
			continue;
		wiring w = ft_wiring(trees[i].k, trees[i].levels, trees[i].taper);
		CHECK_EQ_U64(topo_hosts(t), ipow(trees[i].k, trees[i].levels));
		CHECK_EQ_U64(topo_links(t), trees[i].links);
		check_names(t, &w, spec);
		check_all_paths(t, &w, spec);
		/* length 2L, L the lowest level where a and b share a subtree */
		int bad = 0;
		uint32_t H = topo_hosts(t);
		for (uint32_t a = 0; a < H; a++)
			for (uint32_t b = 0; b < H; b++) {
				unsigned L = 1;
				if (a == b)
					continue;
				while (a / ipow(trees[i].k, L) != b / ipow(trees[i].k, L))
					L++;
				if (topo_route(t, a, b, out) != 2 * L)
					bad++;
			}
		printf("%s - %s: routes of 2L links\n", bad ? "not ok" : "ok", spec);
		check_failures += bad != 0;
		if (trees[i].taper == 1) {
			/* untapered: every shift permutation congestion-free */
			unsigned most = 0;
			for (uint32_t s = 1; s < H; s++) {
				unsigned m = shift_load(t, s);
				most = m > most ? m : most;
			}
			printf("%s - %s: each shift permutation uses each link at most once\n",
			       most == 1 ? "ok" : "not ok", spec);
			check_failures += most != 1;
		}
		topo_free(t);
	}
	/* tapered by 2: the shift by k^(n-1) crosses the top, with half the
	 * up-links: some link carries 2 routes */
	topo *t = parse("fattree:k=4,levels=2,taper=2");
	CHECK(t && shift_load(t, 4) == 2);
	topo_free(t);
	t = parse("fattree:k=4,levels=3,taper=2");
	CHECK(t && shift_load(t, 16) >= 2);
	topo_free(t);

	/* exact routes and names: d-mod-k picks up port floor(b / w^(i-1)) mod w */
	t = parse("fattree:k=4,levels=3");
	CHECK_EQ_U64(topo_route(t, 5, 6, out), 2);
	CHECK_EQ_U64(topo_route(t, 0, 63, out), 6);
	static const char *const r063[] = { "host 0 up", "switch 1.0 up 3", "switch 2.3 up 3",
	                                    "switch 2.15 down 3", "switch 1.15 down 3",
	                                    "host 63 down" };
	for (unsigned i = 0; i < 6; i++) {
		topo_link_name(t, out[i], name, sizeof name);
		CHECK_STR(name, r063[i]);
	}
	CHECK_EQ_U64(topo_route(t, 1, 6, out), 4);
	static const char *const r16[] = { "host 1 up", "switch 1.0 up 2", "switch 1.1 down 2",
	                                   "host 6 down" };
	for (unsigned i = 0; i < 4; i++) {
		topo_link_name(t, out[i], name, sizeof name);
		CHECK_STR(name, r16[i]);
	}
	CHECK_EQ_U64(out[0], 1);
	CHECK_EQ_U64(out[3], 64 + 6);
	topo_link_name(t, 64, name, sizeof name);
	CHECK_STR(name, "host 0 down");
	topo_link_name(t, 128, name, sizeof name);
	CHECK_STR(name, "switch 1.0 up 0");
	topo_link_name(t, topo_links(t) - 1, name, sizeof name);
	CHECK_STR(name, "switch 2.15 down 3");
	topo_link_name(t, topo_links(t), name, sizeof name);
	CHECK_STR(name, "no link 384");
	topo_free(t);
	t = parse("fattree:k=4,levels=3,taper=2");
	CHECK_EQ_U64(topo_route(t, 0, 63, out), 6);
	static const char *const t063[] = { "host 0 up", "switch 1.0 up 1", "switch 2.1 up 1",
	                                    "switch 2.7 down 1", "switch 1.15 down 1",
	                                    "host 63 down" };
	for (unsigned i = 0; i < 6; i++) {
		topo_link_name(t, out[i], name, sizeof name);
		CHECK_STR(name, t063[i]);
	}
	topo_free(t);
	/* one level: a single switch */
	t = parse("fattree:k=5,levels=1");
	CHECK_EQ_U64(topo_route(t, 4, 0, out), 2);
	CHECK(out[0] == 4 && out[1] == 5);
	topo_free(t);
	/* large: 2^24 hosts, O(1) memory */
	t = parse("fattree:k=16,levels=6");
	CHECK_EQ_U64(topo_hosts(t), 1u << 24);
	CHECK_EQ_U64(topo_links(t), (1u << 25) + 5 * (1u << 25));
	CHECK_EQ_U64(topo_route(t, 0, (1u << 24) - 1, out), 12);
	topo_link_name(t, out[6], name, sizeof name);
	CHECK_STR(name, "switch 5.1048575 down 15");
	topo_free(t);
}

/* ---- Tori ----------------------------------------------------------------- */

static wiring torus_wiring(uint64_t d0, uint64_t d1, uint64_t d2, uint64_t p)
{
	wiring w = { .kind = 't', .dim = { d0, d1, d2 }, .ndim = d2 ? 3 : 2, .p = p };
	return w;
}

/* The wrap-around distance of routers r0 and r1. */
static uint64_t wrap_dist(const wiring *w, uint64_t r0, uint64_t r1)
{
	uint64_t s = 0;
	for (unsigned d = 0; d < w->ndim; d++) {
		uint64_t D = w->dim[d], a = r0 % D, b = r1 % D, x = (b + D - a) % D;
		s += x < D - x ? x : D - x;
		r0 /= D;
		r1 /= D;
	}
	return s;
}

static void check_torus(void)
{
	static const struct { const char *spec; uint64_t d0, d1, d2, p, links; } tori[] = {
		{ "torus:8x8", 8, 8, 0, 1, 128 + 2 * 2 * 64 },
		{ "torus:5x4x3,p=2", 5, 4, 3, 2, 240 + 3 * 2 * 60 },
		{ "torus:2x2", 2, 2, 0, 1, 8 + 2 * 2 * 4 },
		{ "torus:1x6,p=3", 1, 6, 0, 3, 36 + 2 * 6 },
		{ "torus:3x1x2", 3, 1, 2, 1, 12 + 2 * 2 * 6 },
		{ "torus:1x1,p=4", 1, 1, 0, 4, 8 },
		{ "torus:7x6", 7, 6, 0, 1, 84 + 2 * 2 * 42 },
	};
	uint32_t out[TOPO_MAX_HOPS];
	char name[96];
	for (size_t i = 0; i < sizeof tori / sizeof tori[0]; i++) {
		topo *t = parse(tori[i].spec);
		CHECK(t != NULL);
		if (!t)
			continue;
		wiring w = torus_wiring(tori[i].d0, tori[i].d1, tori[i].d2, tori[i].p);
		CHECK_EQ_U64(topo_hosts(t), tori[i].d0 * tori[i].d1 * (tori[i].d2 ? tori[i].d2 : 1) *
		             tori[i].p);
		CHECK_EQ_U64(topo_links(t), tori[i].links);
		check_names(t, &w, tori[i].spec);
		check_all_paths(t, &w, tori[i].spec);
		int bad = 0;
		uint32_t H = topo_hosts(t);
		for (uint32_t a = 0; a < H; a++)
			for (uint32_t b = 0; b < H; b++)
				if (a != b && topo_route(t, a, b, out) !=
				    wrap_dist(&w, a / w.p, b / w.p) + 2)
					bad++;
		printf("%s - %s: routes of the wrap-around distance + 2 links\n",
		       bad ? "not ok" : "ok", tori[i].spec);
		check_failures += bad != 0;
		topo_free(t);
	}
	/* a ring on 8x8 uses no link twice */
	topo *t = parse("torus:8x8");
	CHECK(t && shift_load(t, 1) == 1);
	/* dimension order, the shorter way, + on a tie */
	CHECK_EQ_U64(topo_route(t, 0, 8 * 4 + 4, out), 10);
	static const char *const r0[] = { "host 0 up", "router 0,0 +x", "router 1,0 +x",
	                                  "router 2,0 +x", "router 3,0 +x", "router 4,0 +y",
	                                  "router 4,1 +y", "router 4,2 +y", "router 4,3 +y",
	                                  "host 36 down" };
	for (unsigned i = 0; i < 10; i++) {
		topo_link_name(t, out[i], name, sizeof name);
		CHECK_STR(name, r0[i]);
	}
	CHECK_EQ_U64(topo_route(t, 1, 8 * 7 + 7, out), 5);
	static const char *const r1[] = { "host 1 up", "router 1,0 -x", "router 0,0 -x",
	                                  "router 7,0 -y", "host 63 down" };
	for (unsigned i = 0; i < 5; i++) {
		topo_link_name(t, out[i], name, sizeof name);
		CHECK_STR(name, r1[i]);
	}
	topo_free(t);
	t = parse("torus:4x4x4,p=2");
	CHECK_EQ_U64(topo_route(t, 0, 127, out), 5);
	static const char *const r3[] = { "host 0 up", "router 0,0,0 -x", "router 3,0,0 -y",
	                                  "router 3,3,0 -z", "host 127 down" };
	for (unsigned i = 0; i < 5; i++) {
		topo_link_name(t, out[i], name, sizeof name);
		CHECK_STR(name, r3[i]);
	}
	CHECK_EQ_U64(topo_route(t, 0, 1, out), 2);
	topo_free(t);
	/* size 2: both links kept, routes take + */
	t = parse("torus:2x2");
	CHECK_EQ_U64(topo_route(t, 1, 0, out), 3);
	topo_link_name(t, out[1], name, sizeof name);
	CHECK_STR(name, "router 1,0 +x");
	topo_link_name(t, 8 + 3, name, sizeof name);
	CHECK_STR(name, "router 1,0 -x");
	topo_free(t);
	/* large: 2^29 hosts */
	t = parse("torus:32x32x32,p=16384");
	CHECK_EQ_U64(topo_hosts(t), 1u << 29);
	CHECK_EQ_U64(topo_links(t), (1u << 30) + 6 * 32768);
	CHECK_EQ_U64(topo_route(t, 0, (1u << 29) - 1, out), 5);
	CHECK_EQ_U64(topo_route(t, 0, 16384 * (16 + 32 * 16 + 1024 * 16), out), 50);
	topo_free(t);
}

/* ---- Dragonflies ---------------------------------------------------------- */

static void check_dragonfly(void)
{
	static const struct { const char *spec; uint64_t a, p, h, g; } dfs[] = {
		{ "dragonfly:a=4,p=2,h=2", 4, 2, 2, 9 },
		{ "dragonfly:a=4,p=1,h=2,groups=5", 4, 1, 2, 5 },
		{ "dragonfly:a=3,p=2,h=1", 3, 2, 1, 4 },
		{ "dragonfly:a=1,p=3,h=3", 1, 3, 3, 4 },
		{ "dragonfly:a=1,p=1,h=1", 1, 1, 1, 2 },
		{ "dragonfly:a=2,p=1,h=3,groups=2", 2, 1, 3, 2 },
		{ "dragonfly:a=3,p=1,h=2,groups=6", 3, 1, 2, 6 },
	};
	uint32_t out[TOPO_MAX_HOPS];
	char name[96];
	for (size_t i = 0; i < sizeof dfs / sizeof dfs[0]; i++) {
		topo *t = parse(dfs[i].spec);
		CHECK(t != NULL);
		if (!t)
			continue;
		uint64_t a = dfs[i].a, p = dfs[i].p, G = dfs[i].g;
		wiring w = { .kind = 'd', .a = a, .p = p, .h = dfs[i].h, .g = G };
		CHECK_EQ_U64(topo_hosts(t), G * a * p);
		CHECK_EQ_U64(topo_links(t), 2 * G * a * p + G * a * (a - 1) + G * (G - 1));
		check_names(t, &w, dfs[i].spec);
		check_all_paths(t, &w, dfs[i].spec);
		/* one global link per ordered pair of groups, each on one route of
		 * the pair whatever the hosts; lengths 2..5 */
		uint32_t H = topo_hosts(t), *glob = calloc(G * G, sizeof *glob);
		unsigned lmin = 99, lmax = 0;
		int bad = 0;
		for (uint32_t x = 0; x < H; x++)
			for (uint32_t y = 0; y < H; y++) {
				if (x == y)
					continue;
				unsigned n = topo_route(t, x, y, out), ng = 0;
				uint64_t gx = x / p / a, gy = y / p / a;
				lmin = n < lmin ? n : lmin;
				lmax = n > lmax ? n : lmax;
				for (unsigned j = 0; j < n; j++) {
					topo_link_name(t, out[j], name, sizeof name);
					if (!strstr(name, "global"))
						continue;
					ng++;
					if (glob[gx * G + gy] == 0)
						glob[gx * G + gy] = out[j] + 1;
					else if (glob[gx * G + gy] != out[j] + 1)
						bad++;
				}
				if (ng != (gx != gy))
					bad++;
			}
		/* distinct links for distinct pairs: all G(G-1) global links */
		uint32_t nglob = 0;
		for (uint64_t q = 0; q < G * G; q++)
			for (uint64_t r = q + 1; r < G * G; r++)
				if (glob[q] && glob[q] == glob[r])
					bad++;
		for (uint64_t q = 0; q < G * G; q++)
			nglob += glob[q] != 0;
		CHECK_EQ_U64(nglob, G * (G - 1));
		printf("%s - %s: one global link for each pair of groups\n", bad ? "not ok" : "ok",
		       dfs[i].spec);
		check_failures += bad != 0;
		printf("%s - %s: routes of %u..%u links\n", lmin >= 2 && lmax <= 5 ? "ok" : "not ok",
		       dfs[i].spec, lmin, lmax);
		check_failures += !(lmin >= 2 && lmax <= 5);
		if (i == 0)
			CHECK(lmin == 2 && lmax == 5);
		free(glob);
		topo_free(t);
	}
	/* exact routes: port gp of group x goes to group (x + gp + 1) mod 9 */
	topo *t = parse("dragonfly:a=4,p=2,h=2");
	CHECK_EQ_U64(topo_route(t, 0, 1, out), 2);
	CHECK_EQ_U64(topo_route(t, 0, 2, out), 3);
	topo_link_name(t, out[1], name, sizeof name);
	CHECK_STR(name, "router 0.0 local 1");
	/* group 0 to 8: port 7 on router 3 (global 1), into group 8 on its
	 * port 9 - 2 - 7 = 0, router 0; then router 2 */
	CHECK_EQ_U64(topo_route(t, 0, 8 * 8 + 5, out), 5);
	static const char *const r[] = { "host 0 up", "router 0.0 local 3", "router 0.3 global 1",
	                                 "router 8.0 local 2", "host 69 down" };
	for (unsigned i = 0; i < 5; i++) {
		topo_link_name(t, out[i], name, sizeof name);
		CHECK_STR(name, r[i]);
	}
	/* group 1 to 2: port 0, router 0, into port 7 of group 2, router 3 */
	CHECK_EQ_U64(topo_route(t, 8, 16 + 7, out), 3);
	topo_link_name(t, out[1], name, sizeof name);
	CHECK_STR(name, "router 1.0 global 0");
	topo_free(t);
	/* groups < a*h+1: ports towards missing groups are left unconnected */
	t = parse("dragonfly:a=4,p=1,h=2,groups=5");
	CHECK_EQ_U64(topo_route(t, 16, 0, out), 5);
	static const char *const r2[] = { "host 16 up", "router 4.0 local 2", "router 4.2 global 0",
	                                  "router 0.1 local 0", "host 0 down" };
	for (unsigned i = 0; i < 5; i++) {
		topo_link_name(t, out[i], name, sizeof name);
		CHECK_STR(name, r2[i]);
	}
	topo_free(t);
	/* large: 2049 groups, 2^29 + 2^22 hosts */
	t = parse("dragonfly:a=64,p=4096,h=32");
	CHECK_EQ_U64(topo_hosts(t), 2049ull * 64 * 4096);
	CHECK_EQ_U64(topo_links(t), 2 * 2049ull * 64 * 4096 + 2049ull * 64 * 63 + 2049ull * 2048);
	CHECK_EQ_U64(topo_route(t, 0, topo_hosts(t) - 1, out), 5);
	topo_link_name(t, out[2], name, sizeof name);
	CHECK_STR(name, "router 0.63 global 31");
	topo_free(t);
}

/* ---- Specs, bandwidths, latency ------------------------------------------- */

static void check_specs(void)
{
	static const struct { const char *in, *canon; } specs[] = {
		{ "fattree:k=4,levels=3", "fattree:k=4,levels=3,taper=1" },
		{ "fattree:levels=3,k=4,taper=2", "fattree:k=4,levels=3,taper=2" },
		{ "fattree:k=04,levels=3,bw=12.50,hostbw=0,lat=0", "fattree:k=4,levels=3,taper=1,"
		  "bw=12.5" },
		{ "fattree:k=4,levels=3,lat=100,hostbw=25,bw=0.000000001", "fattree:k=4,levels=3,"
		  "taper=1,bw=0.000000001,hostbw=25,lat=100" },
		{ "torus:8x8,lat=0.1us", "torus:8x8,p=1,lat=100" },
		{ "torus:8x8", "torus:8x8,p=1" },
		{ "torus:4x5x6,p=3,bw=2", "torus:4x5x6,p=3,bw=2" },
		{ "dragonfly:h=2,p=2,a=4", "dragonfly:a=4,p=2,h=2,groups=9" },
		{ "dragonfly:a=4,p=2,h=2,groups=3,lat=40", "dragonfly:a=4,p=2,h=2,groups=3,lat=40" },
		{ "torus:2147483648x1,p=1,lat=1000000000000", "" },
	};
	char buf[256], buf2[256], n1[96], n2[96];
	for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
		topo *t = topo_parse(specs[i].in, buf, sizeof buf), *u;
		if (!specs[i].canon[0]) {
			CHECK(t == NULL);
			continue;
		}
		CHECK(t != NULL);
		if (!t)
			continue;
		topo_spec(t, buf, sizeof buf);
		CHECK_STR(buf, specs[i].canon);
		/* the canonical spec parses back to the same topology */
		u = parse(buf);
		CHECK(u != NULL);
		if (!u) {
			topo_free(t);
			continue;
		}
		topo_spec(u, buf2, sizeof buf2);
		CHECK_STR(buf2, buf);
		int same = topo_hosts(t) == topo_hosts(u) && topo_links(t) == topo_links(u) &&
		           topo_route_lat(t, 5) == topo_route_lat(u, 5);
		for (uint32_t l = 0; l < topo_links(t) && same; l++) {
			topo_link_name(t, l, n1, sizeof n1);
			topo_link_name(u, l, n2, sizeof n2);
			same = strcmp(n1, n2) == 0 && topo_link_bw(t, l) == topo_link_bw(u, l);
		}
		uint32_t o1[TOPO_MAX_HOPS], o2[TOPO_MAX_HOPS];
		for (uint32_t a = 0; a < topo_hosts(t) && same; a++)
			for (uint32_t b = 0; b < topo_hosts(t) && same; b++) {
				unsigned n = topo_route(t, a, b, o1);
				same = n == topo_route(u, a, b, o2) && memcmp(o1, o2, n * sizeof *o1) == 0;
			}
		printf("%s - %s round trip: the same topology\n", same ? "ok" : "not ok", buf);
		check_failures += !same;
		topo_free(u);
		topo_free(t);
	}
	/* truncated into a short buffer */
	topo *t = parse("dragonfly:a=4,p=2,h=2");
	topo_spec(t, buf, 12);
	CHECK_STR(buf, "dragonfly:a");
	topo_free(t);

	/* bandwidths: host links (up and down) and the others */
	t = parse("fattree:k=4,levels=2,bw=12.5,hostbw=25,lat=100");
	CHECK(topo_link_bw(t, 0) == 25.0);
	CHECK(topo_link_bw(t, 31) == 25.0);
	CHECK(topo_link_bw(t, 32) == 12.5);
	CHECK(topo_link_bw(t, topo_links(t) - 1) == 12.5);
	CHECK_EQ_U64(topo_route_lat(t, 2), 100);
	CHECK_EQ_U64(topo_route_lat(t, 4), 300);
	CHECK_EQ_U64(topo_route_lat(t, 0), 0);
	topo_free(t);
	t = parse("torus:4x4,bw=0.5");
	CHECK(topo_link_bw(t, 0) == 0.0);
	CHECK(topo_link_bw(t, 32) == 0.5);
	CHECK_EQ_U64(topo_route_lat(t, 6), 0);
	topo_free(t);
	t = parse("torus:4x4,lat=1000000000000");
	CHECK_EQ_U64(topo_route_lat(t, TOPO_MAX_HOPS), 63000000000000u);
	topo_free(t);
}

/* ---- Mapping -------------------------------------------------------------- */

/* The hosts of ranks 0..P-1 under mapping as "h0 h1 ...", or "EXIT: ERROR". */
static const char *map(const topo *t, uint64_t P, const char *mapping, uint64_t seed)
{
	static char buf[4096];
	char err[512];
	uint32_t host[256];
	int code = -1;
	size_t len = 0;
	memset(host, 0xff, sizeof host);
	if (topo_map(t, P, mapping, seed, host, &code, err, sizeof err)) {
		snprintf(buf, sizeof buf, "%d: %s", code, err);
		return buf;
	}
	buf[0] = 0;
	for (uint64_t r = 0; r < P; r++)
		len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%lu", r ? " " : "",
		                        (unsigned long)host[r]);
	if (code != 0)
		return "exit code not 0";
	return buf;
}

/* The path of a mapping file in tmpdir holding text. */
static const char *map_file(const char *name, const char *text)
{
	static char path[256];
	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	FILE *f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f))
		return "/nonexistent";
	return path;
}

static void check_map_file(const topo *t, const char *text, uint64_t P, const char *want)
{
	char exp[512];
	const char *path = map_file("m.map", text);
	/* want names the file "F" */
	const char *f = strstr(want, "F:");
	if (f) {
		snprintf(exp, sizeof exp, "%.*s%s%s", (int)(f - want), want, path, f + 1);
		want = exp;
	}
	CHECK_STR(map(t, P, path, 0), want);
}

static void check_mapping(void)
{
	topo *t = parse("fattree:k=4,levels=2");   /* 16 hosts */
	CHECK_STR(map(t, 4, NULL, 0), "0 1 2 3");
	CHECK_STR(map(t, 16, NULL, 0), "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15");
	CHECK_STR(map(t, 0, NULL, 0), "");
	CHECK_STR(map(t, 20, NULL, 0), "2: --mapping: 20 ranks on 16 hosts: give --mapping "
	          "linear, roundrobin, random or a file");
	CHECK_STR(map(t, 20, "", 0), "2: --mapping: an empty name: give linear, roundrobin, "
	          "random or a file");
	CHECK_STR(map(t, 5, "linear", 0), "0 1 2 3 4");
	CHECK_STR(map(t, 20, "linear", 0), "0 0 1 1 2 2 3 3 4 4 5 5 6 6 7 7 8 8 9 9");
	CHECK_STR(map(t, 33, "linear", 0), "0 0 0 1 1 1 2 2 2 3 3 3 4 4 4 5 5 5 6 6 6 7 7 7 8 8 8 "
	          "9 9 9 10 10 10");
	CHECK_STR(map(t, 20, "roundrobin", 0), "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0 1 2 3");
	CHECK_STR(map(t, 3, "roundrobin", 0), "0 1 2");
	/* random: splitmix64 from the seed, Fisher-Yates from the last rank */
	CHECK_STR(map(t, 16, "random", 1), "6 0 15 1 3 7 14 2 4 10 8 12 5 13 11 9");
	CHECK_STR(map(t, 16, "random", 2), "0 10 1 4 13 12 5 2 6 7 14 3 15 8 11 9");
	CHECK_STR(map(t, 20, "random", 1), "4 0 6 5 0 1 7 9 2 2 4 1 3 6 9 8 3 8 7 5");
	CHECK_STR(map(t, 1, "random", 7), "0");
	CHECK_STR(map(t, 0, "random", 7), "");
	{
		/* a permutation of the linear placement, the same for the same seed */
		char a[4096];
		snprintf(a, sizeof a, "%s", map(t, 200, "random", 99));
		CHECK_STR(map(t, 200, "random", 99), a);
		CHECK(strcmp(map(t, 200, "random", 100), a) != 0);
		unsigned cnt[16] = { 0 };
		const char *p = a;
		for (int r = 0; r < 200; r++) {
			char *e;
			unsigned long h = strtoul(p, &e, 10);
			if (h < 16)
				cnt[h]++;
			p = e;
		}
		int ok = 1;
		for (int h = 0; h < 16; h++)
			ok &= cnt[h] == (h < 15 ? 13u : 5u);
		CHECK(ok);
	}
	/* files */
	check_map_file(t, "3\n2\n1\n0\n", 4, "3 2 1 0");
	check_map_file(t, "# rank to host\n\n 15 # rank 0\n\t7\r\n\n# end\n0\n0", 4, "15 7 0 0");
	check_map_file(t, "1\n2\n3\n", 4, "1: F: error: 3 host numbers for 4 ranks (one line per "
	               "rank)");
	check_map_file(t, "", 2, "1: F: error: 0 host numbers for 2 ranks (one line per rank)");
	check_map_file(t, "", 0, "");
	check_map_file(t, "1\n2\n3\n4\n5\n", 4, "1: F:5:1: error: more host numbers than the 4 "
	               "ranks");
	check_map_file(t, "1\n  16\n", 2, "1: F:2:3: error: host 16 is outside 0..15");
	check_map_file(t, "1\n99999999999999999999999\n", 2, "1: F:2:1: error: host "
	               "99999999999999999999999 is outside 0..15");
	check_map_file(t, "1\nx\n", 2, "1: F:2:1: error: expected a host number (0..15)");
	check_map_file(t, "1\n-1\n", 2, "1: F:2:1: error: expected a host number (0..15)");
	check_map_file(t, "1\n2 3\n", 2, "1: F:2:3: error: unexpected text after the host number");
	check_map_file(t, "1\n2x\n", 2, "1: F:2:2: error: unexpected text after the host number");
	{
		char path[256];
		snprintf(path, sizeof path, "%s/nul.map", tmpdir);
		FILE *f = fopen(path, "wb");
		fwrite("1\n2\0003\n", 1, 6, f);
		fclose(f);
		char want[512];
		snprintf(want, sizeof want, "1: %s:2:2: error: not a text file (a NUL byte)", path);
		CHECK_STR(map(t, 2, path, 0), want);
		snprintf(want, sizeof want, "1: %s/none.map: error: cannot open: No such file or "
		         "directory", tmpdir);
		snprintf(path, sizeof path, "%s/none.map", tmpdir);
		CHECK_STR(map(t, 2, path, 0), want);
		snprintf(want, sizeof want, "1: %s: error: cannot read: Is a directory", tmpdir);
		CHECK_STR(map(t, 2, tmpdir, 0), want);
		snprintf(path, sizeof path, "%s/m.map", tmpdir);
		unlink(path);
		snprintf(path, sizeof path, "%s/nul.map", tmpdir);
		unlink(path);
	}
	topo_free(t);
}

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	check_errors();
	check_fattree();
	check_torus();
	check_dragonfly();
	check_specs();
	check_mapping();
	rmdir(tmpdir);
	return check_done();
}
