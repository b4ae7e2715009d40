/* topo.c: fat trees, tori and dragonflies computed from host numbers (no
 * table per pair), their specs, link names and routes, and the placement
 * of ranks on hosts (topo.h, docs/network.md). */
#include "topo.h"
#include "invariant.h"
#include "num.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__extension__ typedef unsigned __int128 u128;

/* Most hosts and most links of a topology. */
#define TOPO_HOSTS_MAX ((uint64_t)1 << 31)
#define TOPO_LINKS_MAX ((uint64_t)1 << 31)
/* Most levels of a fat tree (k >= 2 and k^levels <= 2^31). */
#define FT_LEVELS_MAX 31
/* Largest lat= (ns per switch crossed). */
#define TOPO_LAT_MAX 1000000000000u

typedef enum topo_kind { TOPO_FATTREE, TOPO_TORUS, TOPO_DRAGONFLY, TOPO_DOT } topo_kind;

/* A dot file's route at a node: messages for node dest leave by link. */
typedef struct dot_route {
	uint32_t dest, link;
} dot_route;

/* Generated kinds: links 0 .. hosts-1 are the hosts' up-links,
 * hosts .. 2*hosts-1 their down-links, then those between switches
 * (docs/network.md).  A dot file: its edges, node by node. */
struct topo {
	topo_kind kind;
	uint32_t hosts, links;
	num_dec bw, hostbw;            /* as given (0: the run's default) */
	double bwv, hostbwv;
	uint64_t lat;
	union {
		struct {                   /* XGFT(n; k..k; 1, w..w), w = k / taper */
			uint32_t k, n, taper, w;
			uint64_t kpow[FT_LEVELS_MAX + 1];  /* k^i */
			uint64_t wpow[FT_LEVELS_MAX + 1];  /* w^i */
			uint64_t nsw[FT_LEVELS_MAX + 1];   /* switches at level i: k^(n-i) w^(i-1) */
			uint64_t base[FT_LEVELS_MAX + 1];  /* level i's up-links from base[i],
			                                    * then as many down-links */
		} ft;
		struct {
			unsigned ndim;
			uint32_t dim[3], p;
			uint64_t stride[3];        /* router r: coordinate d is r / stride[d] mod dim[d] */
			uint64_t base[3];          /* dimension d's links (dim[d] > 1): + of router r
			                            * at base[d] + 2r, - at base[d] + 2r + 1 */
		} tor;
		struct {
			uint32_t a, p, h, g;
			uint64_t m;                /* a*h + 1: the group arithmetic of global ports */
			uint64_t lbase, gbase;     /* local links, global links */
		} df;
		struct {
			char *path;                /* as given */
			uint32_t nodes;
			char *names;               /* node i's name at names + name[i] */
			uint32_t *name;
			uint32_t *host;            /* host h's node */
			uint32_t *out;             /* node i's out-links: out[i] .. out[i+1]-1 */
			uint32_t *head;            /* link l's head node (its tail: by out) */
			uint32_t *rt;              /* node i's routes: route[rt[i] .. rt[i+1]-1],
			                            * by dest */
			dot_route *route;
			uint32_t *dflt;            /* node i's '*' link (UINT32_MAX: none) */
			double *bw;                /* link l's bw attribute (0: none) */
		} dot;
	} u;
};

/* ---- Parsing -------------------------------------------------------------- */

/* The keys of the specs.  ORDER KEY: keydefs. */
enum { K_K, K_LEVELS, K_TAPER, K_A, K_P, K_H, K_GROUPS, K_BW, K_HOSTBW, K_LAT, NKEYS };

#define FT (1u << TOPO_FATTREE)
#define TO (1u << TOPO_TORUS)
#define DF (1u << TOPO_DRAGONFLY)

static const struct keydef {
	const char *name;
	unsigned kinds;     /* the kinds that take it */
	int dec;            /* a decimal (else an integer lo..hi) */
	int ns;             /* the integer is a time in ns (units: "50ns", "0.1us") */
	uint64_t lo, hi;
} keydefs[NKEYS] = {
	{ "k", FT, 0, 0, 2, TOPO_HOSTS_MAX },
	{ "levels", FT, 0, 0, 1, FT_LEVELS_MAX },
	{ "taper", FT, 0, 0, 1, TOPO_HOSTS_MAX },
	{ "a", DF, 0, 0, 1, TOPO_HOSTS_MAX },
	{ "p", TO | DF, 0, 0, 1, TOPO_HOSTS_MAX },
	{ "h", DF, 0, 0, 1, TOPO_HOSTS_MAX },
	{ "groups", DF, 0, 0, 2, TOPO_HOSTS_MAX },
	{ "bw", FT | TO | DF, 1, 0, 0, 0 },
	{ "hostbw", FT | TO | DF, 1, 0, 0, 0 },
	{ "lat", FT | TO | DF, 0, 1, 0, TOPO_LAT_MAX },
};

static const char *const kind_name[] = { "fattree", "torus", "dragonfly" };

/* The syntax of each kind, for messages. */
static const char *const kind_syntax[] = {
	"fattree:k=K,levels=N[,taper=T]",
	"torus:D1xD2[xD3][,p=H]",
	"dragonfly:a=A,p=P,h=H[,groups=G]",
};

/* Longest piece of the spec quoted in a message. */
#define QUOTE_MAX 40
#define QLEN(n) ((int)((n) < QUOTE_MAX ? (n) : QUOTE_MAX))

/* a * b, or UINT64_MAX when that is more. */
static uint64_t mul_sat(uint64_t a, uint64_t b)
{
	u128 x = (u128)a * b;
	return x > UINT64_MAX ? UINT64_MAX : (uint64_t)x;
}

/* An integer value s[0..n) of key name in lo..hi into *v; 0 or -1 with the
 * message in err. */
static int int_value(const char *name, const char *s, size_t n, int ns, uint64_t lo,
                     uint64_t hi, uint64_t *v, char *err, size_t errlen)
{
	num_err e = ns ? num_ns_parse(s, n, v) : num_u64_parse(s, n, v);
	if (e == NUM_SYNTAX || e == NUM_WHOLE) {
		snprintf(err, errlen, "--topology: %s=%.*s: not %s", name, QLEN(n), s,
		         ns ? "a time in whole ns (50, 0.1us)" : "an integer");
		return -1;
	}
	if (e != NUM_OK || *v < lo || *v > hi) {
		snprintf(err, errlen, "--topology: %s=%.*s: out of range (%llu..%llu)", name, QLEN(n),
		         s, (unsigned long long)lo, (unsigned long long)hi);
		return -1;
	}
	return 0;
}

/* The dimensions D1xD2[xD3] of a torus at s[0..n). */
static int torus_dims(topo *t, const char *s, size_t n, char *err, size_t errlen)
{
	unsigned nd = 0;
	const char *p = s, *end = s + n;
	if (n == 0 || memchr(s, '=', n)) {
		snprintf(err, errlen, "--topology: expected the dimensions first: %s",
		         kind_syntax[TOPO_TORUS]);
		return -1;
	}
	for (;;) {
		const char *x = memchr(p, 'x', (size_t)(end - p));
		const char *e = x ? x : end;
		uint64_t v;
		if (nd == 3) {
			nd++;
			break;
		}
		num_err ne = num_u64_parse(p, (size_t)(e - p), &v);
		if (ne == NUM_SYNTAX) {
			snprintf(err, errlen, "--topology: torus dimension '%.*s': not an integer",
			         QLEN((size_t)(e - p)), p);
			return -1;
		}
		if (ne != NUM_OK || v < 1 || v > TOPO_HOSTS_MAX) {
			snprintf(err, errlen, "--topology: torus dimension '%.*s': out of range "
			         "(1..%llu)", QLEN((size_t)(e - p)), p, (unsigned long long)TOPO_HOSTS_MAX);
			return -1;
		}
		t->u.tor.dim[nd++] = (uint32_t)v;
		if (!x)
			break;
		p = x + 1;
	}
	if (nd < 2 || nd > 3) {
		snprintf(err, errlen, "--topology: a torus has 2 or 3 dimensions (D1xD2 or D1xD2xD3), "
		         "not '%.*s'", QLEN(n), s);
		return -1;
	}
	t->u.tor.ndim = nd;
	return 0;
}

/* The keys a kind takes, for messages: "k, levels, taper, bw, hostbw or lat". */
static void key_list(topo_kind kind, char *buf, size_t n)
{
	size_t len = 0, cnt = 0, i = 0;
	for (int k = 0; k < NKEYS; k++)
		cnt += (keydefs[k].kinds >> kind) & 1;
	buf[0] = 0;
	for (int k = 0; k < NKEYS; k++) {
		if (!((keydefs[k].kinds >> kind) & 1))
			continue;
		i++;
		int w = snprintf(buf + len, n - len, "%s%s", i == 1 ? "" : i == cnt ? " or " : ", ",
		                 keydefs[k].name);
		if (w < 0 || (size_t)w >= n - len)
			return;
		len += (size_t)w;
	}
}

static int fattree_build(topo *t, const uint64_t *v, char *err, size_t errlen);
static int torus_build(topo *t, uint64_t p, char *err, size_t errlen);
static int dragonfly_build(topo *t, const uint64_t *v, const int *have, char *err,
                           size_t errlen);

topo *topo_parse(const char *spec, char *err, size_t errlen)
{
	static const int required[3][3] = {
		{ K_K, K_LEVELS, -1 }, { -1, -1, -1 }, { K_A, K_P, K_H } };
	const char *colon, *p, *end;
	uint64_t v[NKEYS] = { 0 };
	num_dec d[NKEYS] = { { 0, 0 } };
	int have[NKEYS] = { 0 }, more;
	size_t klen;
	int kind = -1;
	topo *t;
	if (!spec)
		spec = "";
	colon = strchr(spec, ':');
	klen = colon ? (size_t)(colon - spec) : strlen(spec);
	for (int k = 0; k < 3; k++)
		if (strlen(kind_name[k]) == klen && memcmp(spec, kind_name[k], klen) == 0)
			kind = k;
	if (kind < 0) {
		snprintf(err, errlen, "--topology: unknown kind '%.*s' (expected fattree, torus or "
		         "dragonfly)", QLEN(klen), spec);
		return NULL;
	}
	t = calloc(1, sizeof *t);
	if (!t) {
		snprintf(err, errlen, "--topology: out of memory");
		return NULL;
	}
	t->kind = (topo_kind)kind;
	t->bw = t->hostbw = num_dec_make(0, 1);
	p = colon ? colon + 1 : spec + klen;
	end = p + strlen(p);
	more = p < end;
	if (kind == TOPO_TORUS) {
		const char *e = memchr(p, ',', (size_t)(end - p));
		if (torus_dims(t, p, (size_t)((e ? e : end) - p), err, errlen))
			goto fail;
		more = e != NULL;
		p = e ? e + 1 : end;
	}
	/* the KEY=VALUE fields, each ended by a comma or the end */
	while (more) {
		const char *e = memchr(p, ',', (size_t)(end - p));
		const char *eq, *s;
		int key = -1;
		size_t n;
		if (!e)
			e = end;
		eq = memchr(p, '=', (size_t)(e - p));
		if (!eq) {
			snprintf(err, errlen, "--topology: expected KEY=VALUE, not '%.*s'",
			         QLEN((size_t)(e - p)), p);
			goto fail;
		}
		for (int k = 0; k < NKEYS; k++)
			if (((keydefs[k].kinds >> kind) & 1) && strlen(keydefs[k].name) == (size_t)(eq - p) &&
			    memcmp(p, keydefs[k].name, (size_t)(eq - p)) == 0)
				key = k;
		if (key < 0) {
			char keys[100];
			key_list(t->kind, keys, sizeof keys);
			snprintf(err, errlen, "--topology: unknown key '%.*s' for %s (expected %s)",
			         QLEN((size_t)(eq - p)), p, kind_name[kind], keys);
			goto fail;
		}
		if (have[key]) {
			snprintf(err, errlen, "--topology: repeated key '%s'", keydefs[key].name);
			goto fail;
		}
		have[key] = 1;
		s = eq + 1;
		n = (size_t)(e - s);
		if (keydefs[key].dec) {
			num_err ne = num_dec_parse(s, n, NUM_FRAC_MAX, &d[key]);
			if (ne != NUM_OK) {
				snprintf(err, errlen, "--topology: %s=%.*s: %s", keydefs[key].name, QLEN(n), s,
				         ne == NUM_BIG ? "out of range (below 4294967296)" : num_err_str(ne));
				goto fail;
			}
		} else if (int_value(keydefs[key].name, s, n, keydefs[key].ns, keydefs[key].lo,
		                     keydefs[key].hi, &v[key], err, errlen))
			goto fail;
		more = e < end;
		p = e + more;
	}
	for (int i = 0; i < 3 && required[kind][i] >= 0; i++)
		if (!have[required[kind][i]]) {
			snprintf(err, errlen, "--topology: missing key '%s' (%s)",
			         keydefs[required[kind][i]].name, kind_syntax[kind]);
			goto fail;
		}
	if (have[K_BW])
		t->bw = d[K_BW];
	if (have[K_HOSTBW])
		t->hostbw = d[K_HOSTBW];
	t->bwv = (double)t->bw.num / (double)t->bw.den;
	t->hostbwv = (double)t->hostbw.num / (double)t->hostbw.den;
	t->lat = v[K_LAT];
	switch (t->kind) {
	case TOPO_FATTREE:
		if (fattree_build(t, v, err, errlen))
			goto fail;
		break;
	case TOPO_TORUS:
		if (torus_build(t, have[K_P] ? v[K_P] : 1, err, errlen))
			goto fail;
		break;
	case TOPO_DRAGONFLY:
		if (dragonfly_build(t, v, have, err, errlen))
			goto fail;
		break;
	case TOPO_DOT:       /* topo_read_dot's */
		break;
	}
	return t;
fail:
	free(t);
	return NULL;
}

/* Checks the totals (h hosts, l links, both saturated) and sets them. */
static int set_totals(topo *t, uint64_t h, uint64_t l, char *err, size_t errlen)
{
	if (h > TOPO_HOSTS_MAX) {
		snprintf(err, errlen, "--topology: too many hosts (more than 2^31)");
		return -1;
	}
	if (l > TOPO_LINKS_MAX) {
		snprintf(err, errlen, "--topology: too many links (more than 2^31)");
		return -1;
	}
	t->hosts = (uint32_t)h;
	t->links = (uint32_t)l;
	return 0;
}

void topo_free(topo *t)
{
	if (t && t->kind == TOPO_DOT) {
		free(t->u.dot.path);
		free(t->u.dot.names);
		free(t->u.dot.name);
		free(t->u.dot.host);
		free(t->u.dot.out);
		free(t->u.dot.head);
		free(t->u.dot.rt);
		free(t->u.dot.route);
		free(t->u.dot.dflt);
		free(t->u.dot.bw);
	}
	free(t);
}

uint32_t topo_hosts(const topo *t)
{
	return t->hosts;
}

uint32_t topo_links(const topo *t)
{
	return t->links;
}

double topo_link_bw(const topo *t, uint32_t l)
{
	if (t->kind == TOPO_DOT)
		return t->u.dot.bw[l];
	return l < 2 * (uint64_t)t->hosts ? t->hostbwv : t->bwv;
}

uint64_t topo_route_lat(const topo *t, unsigned n)
{
	u128 x = n ? (u128)(n - 1) * t->lat : 0;
	return x > UINT64_MAX ? UINT64_MAX : (uint64_t)x;
}

/* ---- Fat trees ------------------------------------------------------------ */

/* XGFT(n; k, ..., k; 1, w, ..., w), w = k / taper.  The switches of level i
 * (1..n) are numbered s = g * w^(i-1) + r: g = host / k^i is the subtree
 * they serve, r (0 .. w^(i-1)-1) which of its copies.  Switch (g, r) of
 * level i < n reaches through up port q (0..w-1) the switch
 * (g / k, r + q * w^(i-1)) of level i + 1. */
static int fattree_build(topo *t, const uint64_t *v, char *err, size_t errlen)
{
	uint64_t k = v[K_K], n = v[K_LEVELS], taper = v[K_TAPER] ? v[K_TAPER] : 1, w, h = 1;
	uint64_t links;
	if (k % taper) {
		snprintf(err, errlen, "--topology: taper=%llu does not divide k=%llu",
		         (unsigned long long)taper, (unsigned long long)k);
		return -1;
	}
	w = k / taper;
	for (uint64_t i = 0; i < n; i++)
		h = mul_sat(h, k);
	if (h > TOPO_HOSTS_MAX)
		return set_totals(t, h, 0, err, errlen);
	t->u.ft.k = (uint32_t)k;
	t->u.ft.n = (uint32_t)n;
	t->u.ft.taper = (uint32_t)taper;
	t->u.ft.w = (uint32_t)w;
	t->u.ft.kpow[0] = t->u.ft.wpow[0] = 1;
	for (uint64_t i = 1; i <= n; i++) {
		t->u.ft.kpow[i] = t->u.ft.kpow[i - 1] * k;
		t->u.ft.wpow[i] = t->u.ft.wpow[i - 1] * w;   /* w^i <= k^i <= 2^31 */
	}
	links = 2 * h;
	for (uint64_t i = 1; i <= n; i++) {
		t->u.ft.nsw[i] = t->u.ft.kpow[n - i] * t->u.ft.wpow[i - 1];
		t->u.ft.base[i] = links;
		if (i < n)
			links += 2 * t->u.ft.nsw[i] * w;    /* each below 2^32: no overflow */
	}
	return set_totals(t, h, links, err, errlen);
}

static unsigned fattree_route(const topo *t, uint64_t a, uint64_t b, uint32_t *out)
{
	const uint64_t *kp = t->u.ft.kpow, *wp = t->u.ft.wpow;
	uint64_t w = t->u.ft.w;
	unsigned n = 0, top = 1;
	while (top < t->u.ft.n && a / kp[top] != b / kp[top])
		top++;
	out[n++] = (uint32_t)a;
	/* up from level i through port floor(b / w^(i-1)) mod w (d-mod-k) */
	for (unsigned i = 1; i < top; i++) {
		uint64_t s = a / kp[i] * wp[i - 1] + b % wp[i - 1];
		out[n++] = (uint32_t)(t->u.ft.base[i] + s * w + b / wp[i - 1] % w);
	}
	/* down the same copies towards b */
	for (unsigned i = top - 1; i >= 1; i--) {
		uint64_t s = b / kp[i] * wp[i - 1] + b % wp[i - 1];
		out[n++] = (uint32_t)(t->u.ft.base[i] + t->u.ft.nsw[i] * w + s * w + b / wp[i - 1] % w);
	}
	out[n++] = (uint32_t)(t->hosts + b);
	return n;
}

static void fattree_name(const topo *t, uint64_t l, char *buf, size_t n)
{
	unsigned i = 1;
	uint64_t w = t->u.ft.w, o, up;
	while (i + 1 < t->u.ft.n && l >= t->u.ft.base[i + 1])
		i++;
	o = l - t->u.ft.base[i];
	up = o < t->u.ft.nsw[i] * w;
	if (!up)
		o -= t->u.ft.nsw[i] * w;
	snprintf(buf, n, "switch %u.%llu %s %llu", i, (unsigned long long)(o / w),
	         up ? "up" : "down", (unsigned long long)(o % w));
}

/* ---- Tori ----------------------------------------------------------------- */

static int torus_build(topo *t, uint64_t p, char *err, size_t errlen)
{
	uint64_t r = 1, links, hops = 2;
	for (unsigned d = 0; d < t->u.tor.ndim; d++) {
		t->u.tor.stride[d] = r;
		r = mul_sat(r, t->u.tor.dim[d]);
		hops += t->u.tor.dim[d] / 2;
	}
	uint64_t h = mul_sat(r, p);
	if (h > TOPO_HOSTS_MAX)
		return set_totals(t, h, 0, err, errlen);
	t->u.tor.p = (uint32_t)p;
	links = 2 * h;
	for (unsigned d = 0; d < t->u.tor.ndim; d++) {
		t->u.tor.base[d] = links;
		if (t->u.tor.dim[d] > 1)
			links += 2 * r;
	}
	if (set_totals(t, h, links, err, errlen))
		return -1;
	if (hops > TOPO_MAX_HOPS) {
		snprintf(err, errlen, "--topology: routes of up to %llu links, more than %d",
		         (unsigned long long)hops, TOPO_MAX_HOPS);
		return -1;
	}
	return 0;
}

static unsigned torus_route(const topo *t, uint64_t a, uint64_t b, uint32_t *out)
{
	uint64_t cur = a / t->u.tor.p, rb = b / t->u.tor.p;
	unsigned n = 0;
	out[n++] = (uint32_t)a;
	for (unsigned d = 0; d < t->u.tor.ndim; d++) {
		uint64_t D = t->u.tor.dim[d], st = t->u.tor.stride[d];
		uint64_t ca = cur / st % D, cb = rb / st % D;
		uint64_t delta = (cb + D - ca) % D;
		int plus = delta <= D - delta;
		uint64_t steps = plus ? delta : D - delta;
		for (uint64_t i = 0; i < steps; i++) {
			uint64_t c = cur / st % D, c2 = plus ? (c + 1) % D : (c + D - 1) % D;
			out[n++] = (uint32_t)(t->u.tor.base[d] + 2 * cur + (plus ? 0 : 1));
			cur = cur - c * st + c2 * st;
		}
	}
	out[n++] = (uint32_t)(t->hosts + b);
	return n;
}

static void torus_name(const topo *t, uint64_t l, char *buf, size_t n)
{
	unsigned d = t->u.tor.ndim;
	uint64_t r, o;
	while (d > 0 && (t->u.tor.dim[d - 1] == 1 || l < t->u.tor.base[d - 1]))
		d--;
	ASSERT(d > 0);
	d--;
	o = l - t->u.tor.base[d];
	r = o / 2;
	if (t->u.tor.ndim == 2)
		snprintf(buf, n, "router %llu,%llu %c%c",
		         (unsigned long long)(r % t->u.tor.dim[0]),
		         (unsigned long long)(r / t->u.tor.stride[1]),
		         o % 2 ? '-' : '+', "xyz"[d]);
	else
		snprintf(buf, n, "router %llu,%llu,%llu %c%c",
		         (unsigned long long)(r % t->u.tor.dim[0]),
		         (unsigned long long)(r / t->u.tor.stride[1] % t->u.tor.dim[1]),
		         (unsigned long long)(r / t->u.tor.stride[2]),
		         o % 2 ? '-' : '+', "xyz"[d]);
}

/* ---- Dragonflies ---------------------------------------------------------- */

/* Local links: router (x, r) to router (x, s), s != r, at
 * lbase + (x*a + r) * (a-1) + (s < r ? s : s-1).  Global links: group x to
 * group y != x at gbase + x * (g-1) + (y - x - 1) mod g. */
static int dragonfly_build(topo *t, const uint64_t *v, const int *have, char *err,
                           size_t errlen)
{
	uint64_t a = v[K_A], p = v[K_P], h = v[K_H], m = a * h + 1, g, hosts, links;
	if (have[K_GROUPS]) {
		g = v[K_GROUPS];
		if (g > m) {
			snprintf(err, errlen, "--topology: groups=%llu: out of range (2..%llu)",
			         (unsigned long long)g, (unsigned long long)m);
			return -1;
		}
	} else
		g = m;
	hosts = mul_sat(mul_sat(g, a), p);
	if (hosts > TOPO_HOSTS_MAX)
		return set_totals(t, hosts, 0, err, errlen);
	/* g*a <= 2^31, so a, g <= 2^31 and every term fits */
	t->u.df.lbase = 2 * hosts;
	t->u.df.gbase = t->u.df.lbase + g * a * (a - 1);
	links = t->u.df.gbase + g * (g - 1);
	t->u.df.a = (uint32_t)a;
	t->u.df.p = (uint32_t)p;
	t->u.df.h = (uint32_t)h;
	t->u.df.g = (uint32_t)g;
	t->u.df.m = m;
	return set_totals(t, hosts, links, err, errlen);
}

static uint64_t df_local(const topo *t, uint64_t x, uint64_t r, uint64_t s)
{
	uint64_t a = t->u.df.a;
	return t->u.df.lbase + (x * a + r) * (a - 1) + (s < r ? s : s - 1);
}

static unsigned dragonfly_route(const topo *t, uint64_t a, uint64_t b, uint32_t *out)
{
	uint64_t A = t->u.df.a, H = t->u.df.h, G = t->u.df.g, M = t->u.df.m;
	uint64_t ra = a / t->u.df.p, rb = b / t->u.df.p;
	uint64_t x = ra / A, xa = ra % A, y = rb / A, yb = rb % A;
	unsigned n = 0;
	out[n++] = (uint32_t)a;
	if (ra != rb && x == y)
		out[n++] = (uint32_t)df_local(t, x, xa, yb);
	else if (x != y) {
		uint64_t gp = (y + M - x - 1) % M;     /* x's global port to y */
		uint64_t rg = gp / H, rl = (M - 2 - gp) / H;
		if (xa != rg)
			out[n++] = (uint32_t)df_local(t, x, xa, rg);
		out[n++] = (uint32_t)(t->u.df.gbase + x * (G - 1) + (y + G - x - 1) % G);
		if (rl != yb)
			out[n++] = (uint32_t)df_local(t, y, rl, yb);
	}
	out[n++] = (uint32_t)(t->hosts + b);
	return n;
}

static void dragonfly_name(const topo *t, uint64_t l, char *buf, size_t n)
{
	uint64_t A = t->u.df.a, H = t->u.df.h, G = t->u.df.g, M = t->u.df.m;
	if (l < t->u.df.gbase) {
		uint64_t o = l - t->u.df.lbase, r = o / (A - 1), q = o % (A - 1);
		snprintf(buf, n, "router %llu.%llu local %llu", (unsigned long long)(r / A),
		         (unsigned long long)(r % A), (unsigned long long)(q < r % A ? q : q + 1));
	} else {
		uint64_t o = l - t->u.df.gbase, x = o / (G - 1), y = (x + o % (G - 1) + 1) % G;
		uint64_t gp = (y + M - x - 1) % M;
		snprintf(buf, n, "router %llu.%llu global %llu", (unsigned long long)x,
		         (unsigned long long)(gp / H), (unsigned long long)(gp % H));
	}
}

/* ---- Dot files ------------------------------------------------------------ */

/* The published LogGOPSim's annotated Graphviz files (docs/network.md,
 * "Dot files"): the nodes whose names begin with H are the hosts, in the
 * order of the file; every edge is a link from its tail to its head; a
 * node with one out-edge sends everything over it, else over the edge
 * whose comment names the destination (names separated by commas or
 * blanks; "*": every destination no other edge names). */

static const char *dot_node_name(const topo *t, uint32_t i)
{
	return t->u.dot.names + t->u.dot.name[i];
}

static void dot_name(const topo *t, uint64_t l, char *buf, size_t n)
{
	uint32_t lo = 0, hi = t->u.dot.nodes;
	while (hi - lo > 1) {        /* the tail: the last node with out[i] <= l */
		uint32_t mid = lo + (hi - lo) / 2;
		if (t->u.dot.out[mid] <= l)
			lo = mid;
		else
			hi = mid;
	}
	snprintf(buf, n, "%s -> %s", dot_node_name(t, lo), dot_node_name(t, t->u.dot.head[l]));
}

/* The link node i takes towards node dest, or UINT32_MAX. */
static uint32_t dot_next(const topo *t, uint32_t i, uint32_t dest)
{
	const uint32_t *out = t->u.dot.out;
	uint32_t lo = t->u.dot.rt[i], hi = t->u.dot.rt[i + 1];
	if (out[i + 1] - out[i] == 1)
		return out[i];
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (t->u.dot.route[mid].dest < dest)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < t->u.dot.rt[i + 1] && t->u.dot.route[lo].dest == dest)
		return t->u.dot.route[lo].link;
	return t->u.dot.dflt[i];
}

/* The route from host a to host b (a != b) into out: its length, or 0
 * with why not in err. */
static unsigned dot_walk(const topo *t, uint32_t a, uint32_t b, uint32_t *out, char *err,
                         size_t errlen)
{
	uint32_t at = t->u.dot.host[a], to = t->u.dot.host[b];
	unsigned n = 0;
	while (at != to) {
		uint32_t l = dot_next(t, at, to);
		if (l == UINT32_MAX) {
			uint32_t deg = t->u.dot.out[at + 1] - t->u.dot.out[at];
			if (deg == 0)
				snprintf(err, errlen, "no route from %s to %s: %s has no out-edge",
				         dot_node_name(t, t->u.dot.host[a]), dot_node_name(t, to),
				         dot_node_name(t, at));
			else
				snprintf(err, errlen, "no route from %s to %s: none of the %lu out-edges of %s "
				         "has a comment that names %s (or '*')",
				         dot_node_name(t, t->u.dot.host[a]), dot_node_name(t, to),
				         (unsigned long)deg, dot_node_name(t, at), dot_node_name(t, to));
			return 0;
		}
		if (n == TOPO_MAX_HOPS) {
			snprintf(err, errlen, "the route from %s to %s is longer than %d links (a loop "
			         "through %s?)", dot_node_name(t, t->u.dot.host[a]), dot_node_name(t, to),
			         TOPO_MAX_HOPS, dot_node_name(t, at));
			return 0;
		}
		out[n++] = l;
		at = t->u.dot.head[l];
	}
	return n;
}

int topo_check_route(const topo *t, uint32_t a, uint32_t b, char *err, size_t errlen)
{
	uint32_t links[TOPO_MAX_HOPS];
	char why[512];
	if (t->kind != TOPO_DOT || a == b || dot_walk(t, a, b, links, why, sizeof why))
		return 0;
	snprintf(err, errlen, "%s: error: %s", t->u.dot.path, why);
	return -1;
}

int topo_routes_checked(const topo *t)
{
	return t->kind == TOPO_DOT;
}

#ifdef HAVE_CGRAPH
#include <graphviz/cgraph.h>

/* What cgraph reports while it reads (its messages go nowhere else). */
static char dot_msg[256];

static int dot_errf(char *msg)
{
	size_t n = strlen(dot_msg);
	snprintf(dot_msg + n, sizeof dot_msg - n, "%s", msg);
	return 0;
}

/* cgraph's "Error: syntax error in line 3 near ';'" as
 * "PATH:3: error: syntax error near ';'". */
static void dot_syntax(const char *path, char *err, size_t errlen)
{
	char *m = dot_msg, *in, *nl;
	unsigned long line = 0;
	if ((nl = strchr(m, '\n')))
		*nl = 0;
	if (strncmp(m, "Error: ", 7) == 0)
		m += 7;
	if (*m == 0) {
		snprintf(err, errlen, "%s: error: no graph in the file", path);
		return;
	}
	if ((in = strstr(m, " in line ")) && sscanf(in + 9, "%lu", &line) == 1) {
		char *rest = in + 9 + strspn(in + 9, "0123456789");
		snprintf(err, errlen, "%s:%lu: error: %.*s%s", path, line, (int)(in - m), m, rest);
	} else
		snprintf(err, errlen, "%s: error: %s", path, m);
}

static int route_cmp(const void *x, const void *y)
{
	const dot_route *a = x, *b = y;
	if (a->dest != b->dest)
		return a->dest < b->dest ? -1 : 1;
	return a->link < b->link ? -1 : a->link > b->link;
}

/* The node index of cgraph node n (idx by sequence number). */
#define DOT_IX(n) (idx[AGSEQ(n)])

/* Node i's routes route[lo .. hi-1] sorted by dest, each dest once. */
static int dot_sort_routes(topo *t, uint32_t i, uint32_t lo, uint32_t hi, const char *path,
                           char *err, size_t errlen)
{
	uint32_t n = hi - lo, k = 0;
	if (n == 0)
		return 0;
	dot_route *r = t->u.dot.route + lo;
	qsort(r, n, sizeof *r, route_cmp);
	for (uint32_t j = 0; j < n; j++) {
		if (k && r[k - 1].dest == r[j].dest) {
			if (r[k - 1].link == r[j].link)
				continue;
			snprintf(err, errlen, "%s: error: node %s routes %s over two edges (to %s and "
			         "to %s)", path, dot_node_name(t, i), dot_node_name(t, r[j].dest),
			         dot_node_name(t, t->u.dot.head[r[k - 1].link]),
			         dot_node_name(t, t->u.dot.head[r[j].link]));
			return -1;
		}
		r[k++] = r[j];
	}
	return (int)k;
}

/* An edge's bw attribute: bytes/ns above 0, or -1 with the message. */
static double dot_bw(const char *bw, const char *path, Agedge_t *e, char *err, size_t errlen)
{
	num_dec d;
	num_err ne = num_dec_parse(bw, strlen(bw), NUM_FRAC_MAX, &d);
	if (ne == NUM_OK && d.num > 0)
		return (double)d.num / (double)d.den;
	snprintf(err, errlen, "%s: error: edge %s -> %s: bw=\"%.*s\": %s", path,
	         agnameof(agtail(e)), agnameof(aghead(e)), QLEN(strlen(bw)), bw,
	         ne == NUM_OK ? "not above 0" : ne == NUM_BIG ? "out of range (below 4294967296)"
	         : num_err_str(ne));
	return -1;
}

static int dot_build(topo *t, Agraph_t *g, const char *path, char *err, size_t errlen)
{
	uint32_t nn = (uint32_t)agnnodes(g), i = 0, hosts = 0, l = 0, nr = 0;
	uint64_t maxseq = 0, nchar = 0, ne = 0;
	uint32_t *idx = NULL;
	size_t rtcap = 0;
	int rc = -1;
	if (nn == 0) {
		snprintf(err, errlen, "%s: error: the graph has no nodes", path);
		return -1;
	}
	/* Edges counted one by one: agnedges() asks cdt for each node's size,
	 * which recurses as deep as the node has out-edges (a stack overflow
	 * at about 600,000). */
	for (Agnode_t *n = agfstnode(g); n; n = agnxtnode(g, n))
		for (Agedge_t *e = agfstout(g, n); e; e = agnxtout(g, e))
			ne++;
	if (ne >= TOPO_LINKS_MAX) {
		snprintf(err, errlen, "%s: error: too many edges (2^31 or more)", path);
		return -1;
	}
	for (Agnode_t *n = agfstnode(g); n; n = agnxtnode(g, n)) {
		if (AGSEQ(n) > maxseq)
			maxseq = AGSEQ(n);
		nchar += strlen(agnameof(n)) + 1;
		hosts += agnameof(n)[0] == 'H';
	}
	if (hosts == 0) {
		snprintf(err, errlen, "%s: error: no host (the hosts are the nodes whose names begin "
		         "with H)", path);
		return -1;
	}
	t->u.dot.nodes = nn;
	t->hosts = hosts;
	t->links = (uint32_t)ne;
	idx = malloc((maxseq + 1) * sizeof *idx);
	t->u.dot.names = malloc(nchar);
	t->u.dot.name = malloc(nn * sizeof *t->u.dot.name);
	t->u.dot.host = malloc(hosts * sizeof *t->u.dot.host);
	t->u.dot.out = malloc((nn + 1) * sizeof *t->u.dot.out);
	t->u.dot.rt = malloc((nn + 1) * sizeof *t->u.dot.rt);
	t->u.dot.dflt = malloc(nn * sizeof *t->u.dot.dflt);
	t->u.dot.head = malloc((ne ? ne : 1) * sizeof *t->u.dot.head);
	t->u.dot.bw = calloc(ne ? ne : 1, sizeof *t->u.dot.bw);
	if (!idx || !t->u.dot.names || !t->u.dot.name || !t->u.dot.host || !t->u.dot.out ||
	    !t->u.dot.rt || !t->u.dot.dflt || !t->u.dot.head || !t->u.dot.bw)
		goto oom;
	nchar = 0;
	hosts = 0;
	for (Agnode_t *n = agfstnode(g); n; n = agnxtnode(g, n), i++) {
		size_t len = strlen(agnameof(n)) + 1;
		idx[AGSEQ(n)] = i;
		t->u.dot.name[i] = (uint32_t)nchar;
		memcpy(t->u.dot.names + nchar, agnameof(n), len);
		nchar += len;
		if (agnameof(n)[0] == 'H')
			t->u.dot.host[hosts++] = i;
		t->u.dot.dflt[i] = UINT32_MAX;
	}
	/* The links node by node, and the routes their comments name. */
	i = 0;
	for (Agnode_t *n = agfstnode(g); n; n = agnxtnode(g, n), i++) {
		int k;
		t->u.dot.out[i] = l;
		t->u.dot.rt[i] = nr;
		for (Agedge_t *e = agfstout(g, n); e; e = agnxtout(g, e), l++) {
			static char comment[] = "comment", bwkey[] = "bw";
			const char *c = agget(e, comment), *bw = agget(e, bwkey);
			t->u.dot.head[l] = DOT_IX(aghead(e));
			if (bw && *bw && (t->u.dot.bw[l] = dot_bw(bw, path, e, err, errlen)) < 0)
				goto out;
			for (size_t len; c && *(c += strspn(c, ", \t\r\n")); c += len) {
				char name[256];
				Agnode_t *d = NULL;
				len = strcspn(c, ", \t\r\n");
				if (len == 1 && *c == '*') {
					if (t->u.dot.dflt[i] != UINT32_MAX && t->u.dot.dflt[i] != l) {
						snprintf(err, errlen, "%s: error: node %s: two out-edges with '*' in "
						         "their comments", path, agnameof(n));
						goto out;
					}
					t->u.dot.dflt[i] = l;
					continue;
				}
				if (len < sizeof name) {
					memcpy(name, c, len);
					name[len] = 0;
					d = agnode(g, name, 0);
				}
				if (!d) {
					snprintf(err, errlen, "%s: error: edge %s -> %s: its comment names '%.*s', "
					         "which is no node of the graph", path, agnameof(n),
					         agnameof(aghead(e)), QLEN(len), c);
					goto out;
				}
				if (util_grow(&t->u.dot.route, &rtcap, (size_t)nr + 1, sizeof *t->u.dot.route))
					goto oom;
				t->u.dot.route[nr].dest = DOT_IX(d);
				t->u.dot.route[nr++].link = l;
			}
		}
		if ((k = dot_sort_routes(t, i, t->u.dot.rt[i], nr, path, err, errlen)) < 0)
			goto out;
		nr = t->u.dot.rt[i] + (uint32_t)k;
	}
	t->u.dot.out[nn] = l;
	t->u.dot.rt[nn] = nr;
	rc = 0;
	goto out;
oom:
	snprintf(err, errlen, "%s: error: out of memory", path);
out:
	free(idx);
	return rc;
}

topo *topo_read_dot(const char *path, char *err, size_t errlen)
{
	topo *t = calloc(1, sizeof *t);
	FILE *f;
	Agraph_t *g;
	agusererrf old;
	if (!t || !(t->u.dot.path = strdup(path))) {
		free(t);
		snprintf(err, errlen, "%s: error: out of memory", path);
		return NULL;
	}
	t->kind = TOPO_DOT;
	if (!(f = fopen(path, "r"))) {
		snprintf(err, errlen, "%s: error: cannot open: %s", path, strerror(errno));
		topo_free(t);
		return NULL;
	}
	dot_msg[0] = 0;
	old = agseterrf(dot_errf);
	agreseterrors();
	g = agread(f, NULL);
	agseterrf(old);
	fclose(f);
	if (!g) {
		dot_syntax(path, err, errlen);
		topo_free(t);
		return NULL;
	}
	if (dot_build(t, g, path, err, errlen)) {
		agclose(g);
		topo_free(t);
		return NULL;
	}
	agclose(g);
	return t;
}
#else
topo *topo_read_dot(const char *path, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: error: this build cannot read dot files (it was built "
	         "without Graphviz's cgraph: install libgraphviz-dev and rebuild)", path);
	return NULL;
}
#endif

/* ---- Routes, names and specs ---------------------------------------------- */

unsigned topo_route(const topo *t, uint32_t a, uint32_t b, uint32_t *out)
{
	unsigned n = 0;
	ASSERT(a < t->hosts && b < t->hosts);
	if (a == b)
		return 0;
	switch (t->kind) {
	case TOPO_FATTREE:
		n = fattree_route(t, a, b, out);
		break;
	case TOPO_TORUS:
		n = torus_route(t, a, b, out);
		break;
	case TOPO_DRAGONFLY:
		n = dragonfly_route(t, a, b, out);
		break;
	case TOPO_DOT: {
		char err[8];
		n = dot_walk(t, a, b, out, err, sizeof err);
		ASSERT(n >= 1);      /* loggopsim checked every route it uses */
		return n;
	}
	}
	ASSERT(n >= 2 && n <= TOPO_MAX_HOPS);
	return n;
}

void topo_link_name(const topo *t, uint32_t l, char *buf, size_t n)
{
	if (l >= t->links)
		snprintf(buf, n, "no link %lu", (unsigned long)l);
	else if (t->kind == TOPO_DOT)
		dot_name(t, l, buf, n);
	else if (l < t->hosts)
		snprintf(buf, n, "host %lu up", (unsigned long)l);
	else if (l < 2 * (uint64_t)t->hosts)
		snprintf(buf, n, "host %lu down", (unsigned long)(l - t->hosts));
	else if (t->kind == TOPO_FATTREE)
		fattree_name(t, l, buf, n);
	else if (t->kind == TOPO_TORUS)
		torus_name(t, l, buf, n);
	else
		dragonfly_name(t, l, buf, n);
}

void topo_spec(const topo *t, char *buf, size_t n)
{
	char bw[NUM_DEC_TEXT], hbw[NUM_DEC_TEXT], lat[32];
	int w = 0;
	if (t->kind == TOPO_DOT) {
		snprintf(buf, n, "dot:%s", t->u.dot.path);
		return;
	}
	if (t->kind == TOPO_FATTREE)
		w = snprintf(buf, n, "fattree:k=%lu,levels=%lu,taper=%lu", (unsigned long)t->u.ft.k,
		             (unsigned long)t->u.ft.n, (unsigned long)t->u.ft.taper);
	else if (t->kind == TOPO_TORUS && t->u.tor.ndim == 2)
		w = snprintf(buf, n, "torus:%lux%lu,p=%lu", (unsigned long)t->u.tor.dim[0],
		             (unsigned long)t->u.tor.dim[1], (unsigned long)t->u.tor.p);
	else if (t->kind == TOPO_TORUS)
		w = snprintf(buf, n, "torus:%lux%lux%lu,p=%lu", (unsigned long)t->u.tor.dim[0],
		             (unsigned long)t->u.tor.dim[1], (unsigned long)t->u.tor.dim[2],
		             (unsigned long)t->u.tor.p);
	else
		w = snprintf(buf, n, "dragonfly:a=%lu,p=%lu,h=%lu,groups=%lu",
		             (unsigned long)t->u.df.a, (unsigned long)t->u.df.p,
		             (unsigned long)t->u.df.h, (unsigned long)t->u.df.g);
	if (w < 0 || (size_t)w >= n)
		return;
	num_dec_format(t->bw, bw, sizeof bw);
	num_dec_format(t->hostbw, hbw, sizeof hbw);
	snprintf(lat, sizeof lat, "%llu", (unsigned long long)t->lat);
	snprintf(buf + w, n - (size_t)w, "%s%s%s%s%s%s", t->bw.num ? ",bw=" : "",
	         t->bw.num ? bw : "", t->hostbw.num ? ",hostbw=" : "", t->hostbw.num ? hbw : "",
	         t->lat ? ",lat=" : "", t->lat ? lat : "");
}

/* ---- Mapping -------------------------------------------------------------- */

/* One host number a line from the file at path into host[0..P). */
static int map_file(const topo *t, uint64_t P, const char *path, uint32_t *host, char *err,
                    size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	uint64_t r = 0, lineno = 0;
	int rc = -1;
	if (!f) {
		snprintf(err, errlen, "%s: error: cannot open: %s", path, strerror(errno));
		return -1;
	}
	while ((len = getline(&line, &cap, f)) >= 0) {
		const char *q = line, *q0;
		uint64_t v;
		lineno++;
		if (memchr(line, 0, (size_t)len)) {
			snprintf(err, errlen, "%s:%llu:%d: error: not a text file (a NUL byte)", path,
			         (unsigned long long)lineno, (int)((const char *)memchr(line, 0, (size_t)len) - line) + 1);
			goto out;
		}
		while (*q == ' ' || *q == '\t' || *q == '\r')
			q++;
		if (*q == 0 || *q == '\n' || *q == '#')
			continue;
		q0 = q;
		if (r == P) {
			snprintf(err, errlen, "%s:%llu:%d: error: more host numbers than the %llu ranks",
			         path, (unsigned long long)lineno, (int)(q0 - line) + 1,
			         (unsigned long long)P);
			goto out;
		}
		num_err ne = num_u64_scan(&q, &v);
		if (ne == NUM_SYNTAX) {
			snprintf(err, errlen, "%s:%llu:%d: error: expected a host number (0..%lu)", path,
			         (unsigned long long)lineno, (int)(q0 - line) + 1,
			         (unsigned long)t->hosts - 1);
			goto out;
		}
		if (ne != NUM_OK || v >= t->hosts) {
			size_t nd = strspn(q0, "0123456789");
			snprintf(err, errlen, "%s:%llu:%d: error: host %.*s is outside 0..%lu", path,
			         (unsigned long long)lineno, (int)(q0 - line) + 1, QLEN(nd), q0,
			         (unsigned long)t->hosts - 1);
			goto out;
		}
		while (*q == ' ' || *q == '\t' || *q == '\r')
			q++;
		if (*q != 0 && *q != '\n' && *q != '#') {
			snprintf(err, errlen, "%s:%llu:%d: error: unexpected text after the host number",
			         path, (unsigned long long)lineno, (int)(q - line) + 1);
			goto out;
		}
		host[r++] = (uint32_t)v;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "%s: error: cannot read: %s", path, strerror(errno));
		goto out;
	}
	if (r < P) {
		snprintf(err, errlen, "%s: error: %llu host numbers for %llu ranks (one line per rank)",
		         path, (unsigned long long)r, (unsigned long long)P);
		goto out;
	}
	rc = 0;
out:
	free(line);
	fclose(f);
	return rc;
}

int topo_map(const topo *t, uint64_t P, const char *mapping, uint64_t seed,
             uint32_t *host, int *exit_code, char *err, size_t errlen)
{
	uint64_t H = t->hosts;
	*exit_code = 0;
	if (!mapping) {
		if (P > H) {
			snprintf(err, errlen, "--mapping: %llu ranks on %llu hosts: give --mapping linear, "
			         "roundrobin, random or a file", (unsigned long long)P, (unsigned long long)H);
			*exit_code = 2;
			return -1;
		}
		for (uint64_t r = 0; r < P; r++)
			host[r] = (uint32_t)r;
	} else if (strcmp(mapping, "linear") == 0 || strcmp(mapping, "random") == 0) {
		uint64_t c = P / H + (P % H != 0);     /* ranks per host */
		for (uint64_t r = 0; r < P; r++)
			host[r] = (uint32_t)(r / c);
		if (strcmp(mapping, "random") == 0) {
			/* Fisher-Yates from the last rank down */
			uint64_t st = seed;
			for (uint64_t i = P; i > 1; i--) {
				uint64_t j = (uint64_t)(((u128)util_next64(&st) * i) >> 64);
				uint32_t x = host[i - 1];
				host[i - 1] = host[j];
				host[j] = x;
			}
		}
	} else if (strcmp(mapping, "roundrobin") == 0) {
		for (uint64_t r = 0; r < P; r++)
			host[r] = (uint32_t)(r % H);
	} else if (*mapping == 0) {
		snprintf(err, errlen, "--mapping: an empty name: give linear, roundrobin, random or "
		         "a file");
		*exit_code = 2;
		return -1;
	} else if (map_file(t, P, mapping, host, err, errlen)) {
		*exit_code = 1;
		return -1;
	}
	return 0;
}
