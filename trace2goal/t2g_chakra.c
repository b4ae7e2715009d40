/* t2g_chakra.c: Chakra execution traces into a GOAL schedule
 * (t2g_chakra.h, docs/chakra.md). */
#include "t2g_chakra.h"
#include "kmap.h"
#include "util.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX
#define CPU_COMP 0        /* computation and memory nodes */
#define CPU_COMM 1        /* sends, receives and collectives */

/* A process group: its name, its traced ranks (ascending), and its
 * collectives on each.  Extrapolated K times, it grows to its members in
 * every copy (copy-major: member i of copy j is rank j N + member[i]),
 * unless kept: then each copy has a group of its own, in one comm (the
 * copies' ranks never meet). */
struct group {
	char *name;              /* pg_name; "" for none: every rank */
	uint32_t *member;
	size_t n, cap;
	uint64_t ncoll;          /* collectives on its first member */
	uint64_t base;           /* comms 1 + base ..: its collectives' */
	int keep;                /* --keep-group: stays in its copy */
};

struct ckc {
	const struct t2g_options *opt;
	sg_out *out;
	struct t2g_chakra_stats *st;
	size_t N;                    /* traced ranks */
	uint64_t K, j;               /* copies (--extrapolate), the current one */
	char *err;
	size_t errlen;
	const char *path;            /* the rank's file */
	util_kmap pgs;               /* name -> group (pg_name; "" for none: every rank) */
	struct group *g;
	size_t ng, capg;
	uint64_t *mine;              /* collectives of the current rank per group */
	size_t capmine;
	/* the current rank */
	ck_trace t;
	util_kmap ids;               /* node id -> index, or (ids of a narrow
	                                range) idtab[id - idmin] */
	uint32_t *idtab;
	uint64_t idmin, idspan;
	uint32_t *dep;               /* t.dep as indices */
	uint32_t *exit;              /* per node: the op its dependents require, or NONE */
	uint32_t *order, *child, *cfirst, *indeg;
	uint8_t *linked;             /* per node: has a dependency or a dependent */
	struct t2g_pat pat;          /* the collective being emitted */
	char label[GOAL_MAX_NAME + 1]; /* the current node's (node_label) */
	int labelled;                /* its first op is not yet emitted */
	uint32_t warned;             /* node types warned about (bit) */
	int failed;                  /* err is set */
};

static int fail(struct ckc *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct ckc *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->err, c->errlen, fmt, ap);
	va_end(ap);
	c->failed = 1;
	return -1;
}

static int oom(struct ckc *c)
{
	return fail(c, "error: out of memory");
}

/* ---- Process groups -------------------------------------------------------- */

/* The name of node x's group ("" for none: every rank). */
static const char *pg_name(const ck_trace *t, const ck_node *x)
{
	return x->has & CK_A_PG ? t->str + x->pg : "";
}

/* The group named name, with rank r in it (made on first sight): its
 * index, or -1 when out of memory. */
static long group_of(struct ckc *c, const char *name, uint32_t r)
{
	size_t len = strlen(name);
	uint32_t *v = util_kmap_get(&c->pgs, name, len);
	if (!v) {
		if (util_grow(&c->g, &c->capg, c->ng + 1, sizeof *c->g)
		    || util_grow(&c->mine, &c->capmine, c->ng + 1, sizeof *c->mine)
		    || util_kmap_put(&c->pgs, name, len, (uint32_t)c->ng))
			return -1;
		memset(&c->g[c->ng], 0, sizeof *c->g);
		c->mine[c->ng] = 0;
		if (!(c->g[c->ng].name = strdup(name)))
			return -1;
		v = util_kmap_get(&c->pgs, name, len);
		c->ng++;
	}
	struct group *g = &c->g[*v];
	if (!g->n || g->member[g->n - 1] != r) {
		if (util_grow(&g->member, &g->cap, g->n + 1, sizeof *g->member))
			return -1;
		g->member[g->n++] = r;
	}
	return (long)*v;
}

/* "process group 'NAME'", or what a collective without one has. */
static void group_words(const struct group *g, char *buf, size_t n)
{
	if (*g->name)
		snprintf(buf, n, "of process group '%s'", g->name);
	else
		snprintf(buf, n, "without pg_name (every rank's)");
}

/* Rank r's collectives (c->mine) agree in number with the first member's
 * of every group it is in. */
static int groups_agree(struct ckc *c, uint32_t r)
{
	for (size_t k = 0; k < c->ng; k++) {
		struct group *g = &c->g[k];
		char w[300];
		if (!g->n || g->member[g->n - 1] != r)
			continue;
		if (g->n == 1) {
			g->ncoll = c->mine[k];
		} else if (c->mine[k] != g->ncoll) {
			group_words(g, w, sizeof w);
			return fail(c, "%s: error: %" PRIu64 " collectives %s, where rank %" PRIu32 " has %"
			            PRIu64, c->path, c->mine[k], w, g->member[0], g->ncoll);
		}
	}
	return 0;
}

/* Pass 1: every rank's collectives, their groups and counts; the comms of
 * each group's collectives. */
static int find_groups(struct ckc *c, char *const *paths)
{
	for (size_t r = 0; r < c->N; r++) {
		c->path = paths[r];
		if (ck_read(c->path, &c->t, c->err, c->errlen))
			return -1;
		for (size_t k = 0; k < c->ng; k++)
			c->mine[k] = 0;
		for (size_t i = 0; i < c->t.n; i++) {
			const ck_node *x = &c->t.node[i];
			long g;
			if (x->type != CK_COLL)
				continue;
			if ((g = group_of(c, pg_name(&c->t, x), (uint32_t)r)) < 0)
				return oom(c);
			c->mine[g]++;
		}
		int rc = groups_agree(c, (uint32_t)r);
		ck_free(&c->t);
		if (rc)
			return -1;
	}
	uint64_t base = 0;
	for (size_t k = 0; k < c->ng; k++) {
		c->g[k].base = base;
		base += c->g[k].ncoll;
	}
	if (base >= GOAL_MAX_COMMS)
		return fail(c, "error: %" PRIu64 " collectives; at most %u", base, GOAL_MAX_COMMS - 1);
	for (size_t k = 0; k < c->opt->nkeep_group; k++) {
		const char *name = c->opt->keep_group[k];
		uint32_t *v = util_kmap_get(&c->pgs, name, strlen(name));
		if (!v)
			return fail(c, "%s: error: --keep-group '%s': no collective of the trace names this"
			            " process group", paths[0], name);
		c->g[*v].keep = 1;
	}
	uint32_t *all = util_kmap_get(&c->pgs, "", 0);
	if (all && c->g[*all].n != c->N) {
		const struct group *g = &c->g[*all];
		uint32_t r = 0;
		while (r < g->n && g->member[r] == r)
			r++;
		return fail(c, "%s: error: 0 collectives without pg_name (every rank's), where rank %"
		            PRIu32 " has %" PRIu64, paths[r], g->member[0], g->ncoll);
	}
	return 0;
}

/* ---- A rank's graph ---------------------------------------------------------- */

/* The index of node id, or NULL. */
static uint32_t *id_find(struct ckc *c, uint64_t id)
{
	if (!c->idtab)
		return util_kmap_get(&c->ids, &id, 8);
	if (id - c->idmin >= c->idspan || c->idtab[id - c->idmin] == NONE)
		return NULL;
	return &c->idtab[id - c->idmin];
}

/* Index the nodes by id: a table when the ids span less than 4 n (as a
 * trace's numbered nodes do: 4 bytes a slot), else a map.  0, or -1 (two
 * nodes of one id). */
static int index_ids(struct ckc *c)
{
	const ck_trace *t = &c->t;
	uint64_t lo = UINT64_MAX, hi = 0;
	for (size_t i = 0; i < t->n; i++) {
		lo = t->node[i].id < lo ? t->node[i].id : lo;
		hi = t->node[i].id > hi ? t->node[i].id : hi;
	}
	if (t->n && hi - lo < 4 * (uint64_t)t->n) {
		c->idmin = lo;
		c->idspan = hi - lo + 1;
		if (!(c->idtab = malloc(c->idspan * sizeof *c->idtab)))
			return oom(c);
		memset(c->idtab, 0xff, c->idspan * sizeof *c->idtab);
	}
	for (size_t i = 0; i < t->n; i++) {
		uint64_t id = t->node[i].id;
		if (id_find(c, id))
			return fail(c, "%s: error: node %" PRIu64 ": a second node with this id", c->path, id);
		if (c->idtab)
			c->idtab[id - c->idmin] = (uint32_t)i;
		else if (util_kmap_put(&c->ids, &id, 8, (uint32_t)i))
			return oom(c);
	}
	return 0;
}

/* Node ids to indices, dependencies resolved, and an order in which every
 * node comes after its dependencies (Kahn's, the file's order among the
 * ready ones): c->order. */
static int rank_order(struct ckc *c)
{
	const ck_trace *t = &c->t;
	size_t n = t->n;
	if (!(c->exit = malloc(n * sizeof *c->exit)) || !(c->order = malloc(n * sizeof *c->order))
	    || !(c->indeg = calloc(n, sizeof *c->indeg)) || !(c->cfirst = calloc(n + 1, sizeof *c->cfirst))
	    || !(c->linked = calloc(n, 1)) || (t->ndep && (!(c->dep = malloc(t->ndep * sizeof *c->dep))
	                                                  || !(c->child = malloc(t->ndep * sizeof *c->child)))))
		return oom(c);
	if (index_ids(c))
		return -1;
	for (size_t i = 0; i < n; i++) {
		const ck_node *x = &t->node[i];
		for (uint32_t k = x->dep; k < x->dep + x->ndeps; k++) {
			uint32_t *v = id_find(c, t->dep[k]);
			if (!v)
				return fail(c, "%s: error: node %" PRIu64 " depends on node %" PRIu64 ", which"
				            " is not in the trace", c->path, x->id, t->dep[k]);
			c->dep[k] = *v;
			c->cfirst[*v + 1]++;
			c->linked[*v] = c->linked[i] = 1;
		}
		c->indeg[i] = x->ndeps;
	}
	for (size_t i = 0; i < n; i++)
		c->cfirst[i + 1] += c->cfirst[i];
	for (size_t i = 0; i < n; i++)
		for (uint32_t k = t->node[i].dep; k < t->node[i].dep + t->node[i].ndeps; k++)
			c->child[c->cfirst[c->dep[k]]++] = (uint32_t)i;
	for (size_t i = n; i > 0; i--)      /* back to the starts */
		c->cfirst[i] = c->cfirst[i - 1];
	c->cfirst[0] = 0;
	size_t head = 0, tail = 0;
	for (size_t i = 0; i < n; i++)
		if (!c->indeg[i])
			c->order[tail++] = (uint32_t)i;
	while (head < tail) {
		uint32_t v = c->order[head++];
		for (uint32_t k = c->cfirst[v]; k < c->cfirst[v + 1]; k++)
			if (--c->indeg[c->child[k]] == 0)
				c->order[tail++] = c->child[k];
	}
	if (tail < n) {
		size_t i = 0;
		while (!c->indeg[i])
			i++;
		return fail(c, "%s: error: node %" PRIu64 " is in a cycle of dependencies", c->path,
		            t->node[i].id);
	}
	return 0;
}

/* ---- Ops ----------------------------------------------------------------------- */

/* Node x's name as a GOAL label, unique in the rank: its letters, digits
 * and _ (every run of other characters one _), then _n and its id
 * ("aten::mm" of node 12: aten_mm_n12), into c->label; c->labelled 0 when
 * it has no name. */
static void node_label(struct ckc *c, const ck_node *x)
{
	size_t n = 0;
	const char *s = x->has & CK_A_NAME ? c->t.str + x->name : "";
	c->labelled = 0;
	for (; *s && n < GOAL_MAX_NAME - 32; s++) {
		unsigned char ch = (unsigned char)*s;
		int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
		if (ok || ch == '_')
			c->label[n++] = (char)ch;
		else if (n && c->label[n - 1] != '_')
			c->label[n++] = '_';
	}
	while (n && c->label[n - 1] == '_')
		n--;
	if (!n)
		return;
	if (c->label[0] >= '0' && c->label[0] <= '9') {   /* a label begins with a letter or _ */
		memmove(c->label + 1, c->label, n++);
		c->label[0] = '_';
	}
	snprintf(c->label + n, sizeof c->label - n, "_n%" PRIu64, x->id);
	c->labelled = 1;
}

/* Append op (kind, size, peer, tag, cpu, comm) to the rank, the first of
 * its node with the node's label: its index, or NONE when the output
 * failed (c->err set). */
static uint32_t emit(struct ckc *c, goal_op *op, uint32_t comm)
{
	uint32_t idx;
	const char *label = c->labelled ? c->label : NULL;
	c->labelled = 0;
	if (sg_out_op_label(c->out, op, comm, label, &idx)) {
		fail(c, "%s", sg_out_error(c->out));
		return NONE;
	}
	c->st->ops++;
	c->st->sends += op->kind == GOAL_SEND;
	c->st->recvs += op->kind == GOAL_RECV;
	if (op->kind == GOAL_CALC) {
		c->st->calcs++;
		c->st->calc_ns += op->size;
	}
	return idx;
}

static uint32_t emit_calc(struct ckc *c, uint64_t ns, uint16_t cpu)
{
	goal_op op = { .kind = GOAL_CALC, .size = ns, .cpu = cpu };
	return emit(c, &op, 0);
}

/* "a requires b" unless b is NONE.  0 or -1. */
static int dep(struct ckc *c, uint32_t a, uint32_t b)
{
	if (b == NONE || !sg_out_dep(c->out, a, b, 0))
		return 0;
	return fail(c, "%s", sg_out_error(c->out));
}

/* Op a requires the exits of node i's dependencies.  0 or -1. */
static int requires_deps(struct ckc *c, uint32_t a, const ck_node *x)
{
	for (uint32_t k = x->dep; k < x->dep + x->ndeps; k++)
		if (dep(c, a, c->exit[c->dep[k]]))
			return -1;
	return 0;
}

/* ns of x rounded half up: v / rate. */
static uint64_t at_rate(uint64_t v, double rate)
{
	double ns = floor((double)v / rate + 0.5);
	return ns >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)ns;
}

/* A computation or memory node: a calc of its time (its duration, or its
 * work at --flops or --mem-bw). */
static uint32_t node_calc(struct ckc *c, const ck_node *x)
{
	uint64_t ns = x->dur_us * 1000;
	if (x->type == CK_COMP && c->opt->flops > 0 && (x->has & CK_A_OPS))
		ns = at_rate(x->num_ops, c->opt->flops * 1e-9);
	else if (x->type != CK_COMP && c->opt->mem_bw > 0 && (x->has & CK_A_TENSOR))
		ns = at_rate(x->tensor, c->opt->mem_bw);
	if (c->opt->compute_scale != 1)
		ns = at_rate(ns, 1 / c->opt->compute_scale);
	return emit_calc(c, ns, CPU_COMP);
}

/* A send or receive node: the message to or from its peer. */
static uint32_t node_p2p(struct ckc *c, const ck_node *x)
{
	int send = x->type == CK_SEND;
	unsigned need = CK_A_SIZE | (send ? CK_A_DST : CK_A_SRC);
	int32_t peer = send ? x->dst : x->src;
	if ((x->has & need) != need) {
		fail(c, "%s: error: node %" PRIu64 ": %s without %s", c->path, x->id,
		     ck_type_name[x->type], !(x->has & CK_A_SIZE) ? "comm_size" : send ? "comm_dst" : "comm_src");
		return NONE;
	}
	if (peer < 0 || (size_t)peer >= c->N) {
		fail(c, "%s: error: node %" PRIu64 ": %s %" PRId32 " is not a rank of the trace (0..%zu)",
		     c->path, x->id, send ? "comm_dst" : "comm_src", peer, c->N - 1);
		return NONE;
	}
	goal_op op = { .kind = send ? GOAL_SEND : GOAL_RECV, .size = x->size,
	               .peer = (uint32_t)(c->j * c->N + (uint64_t)peer),
	               .tag = x->has & CK_A_TAG ? x->tag : 0, .cpu = CPU_COMM };
	uint32_t i = (uint32_t)(x - c->t.node);
	if (send && c->cfirst[i + 1] > c->cfirst[i] && x->size > c->st->waited_send)
		c->st->waited_send = x->size;
	return emit(c, &op, 0);
}

/* ---- Collectives ------------------------------------------------------------------ */

/* The ranks of group g in the schedule. */
static uint64_t group_size(const struct ckc *c, const struct group *g)
{
	return g->keep ? g->n : g->n * c->K;
}

/* The schedule's rank of member i of group g (in the current copy when kept). */
static uint32_t group_rank(const struct ckc *c, const struct group *g, uint64_t i)
{
	uint64_t j = g->keep ? c->j : i / g->n;
	return (uint32_t)(j * c->N + g->member[i % g->n]);
}

/* The pattern of collective x (group g) at group rank me into c->pat.  The pattern's index, or -1 (message set). */
static int coll_ops(struct ckc *c, const ck_node *x, const struct group *g, uint64_t me)
{
	sg_params p;
	char e[512];
	const char *cls_name = ck_coll_class[x->coll];
	int cls = t2g_coll_find(cls_name);
	uint64_t P = group_size(c, g);
	sg_params_default(&p);
	p.nranks = P;
	p.gamma = c->opt->gamma;
	p.channels = c->opt->channels;
	p.protocol = c->opt->protocol;
	p.size = x->size;
	/* comm_size is one rank's whole buffer: these classes' patterns take
	 * the block of one rank (or pair) */
	if (x->coll == CK_C_ALL_GATHER || x->coll == CK_C_GATHER || x->coll == CK_C_SCATTER
	    || x->coll == CK_C_ALL_TO_ALL || x->coll == CK_C_REDUCE_SCATTER
	    || x->coll == CK_C_REDUCE_SCATTER_BLOCK)
		p.size = x->size / P + (x->size % P != 0);
	if (x->has & CK_A_ROOT) {
		if ((uint64_t)x->root >= P)
			return fail(c, "%s: error: node %" PRIu64 ": root %" PRId32 " is not a rank of its"
			            " group (0..%" PRIu64 ")", c->path, x->id, x->root, P - 1);
		p.root = (uint64_t)x->root;
	}
	int pat = t2g_pick_pattern(c->opt, cls, cls_name, &p);
	if (t2g_pat_generate(&c->pat, pat, &p, me, e, sizeof e))
		return fail(c, "%s: error: node %" PRIu64 ": %s with pattern %s: %s", c->path, x->id,
		            ck_coll_name[x->coll], sg_pattern((size_t)pat)->name, e);
	c->st->by_pattern[pat]++;
	return pat;
}

/* A collective node: its pattern over its group, in a comm of its own;
 * the op its dependents require. */
static uint32_t node_coll(struct ckc *c, const ck_node *x, uint32_t r)
{
	if (!(x->has & CK_A_TYPE) || x->coll == CK_NCOLLS) {
		if (x->has & CK_A_TYPE)
			fail(c, "%s: error: node %" PRIu64 ": comm_type %" PRId64 " is no collective of the"
			     " schema (0..%d)", c->path, x->id, x->comm_type, CK_NCOLLS - 1);
		else
			fail(c, "%s: error: node %" PRIu64 ": COMM_COLL_NODE without comm_type", c->path,
			     x->id);
		return NONE;
	}
	size_t k = *util_kmap_get(&c->pgs, pg_name(&c->t, x), strlen(pg_name(&c->t, x)));
	const struct group *g = &c->g[k];
	uint32_t comm = (uint32_t)(1 + g->base + c->mine[k]++);
	size_t lo = 0, hi = g->n;            /* r among the members, ascending */
	while (hi - lo > 1)
		if (g->member[lo + (hi - lo) / 2] <= r)
			lo += (hi - lo) / 2;
		else
			hi = lo + (hi - lo) / 2;
	uint64_t me = g->keep ? lo : c->j * g->n + lo, P = group_size(c, g);
	c->st->collectives++;
	if (P > 1 && coll_ops(c, x, g, me) < 0)
		return NONE;
	const struct t2g_pat *pt = &c->pat;
	if (P < 2 || pt->nops == 0)
		return c->linked[x - c->t.node] ? emit_calc(c, 0, CPU_COMM) : NONE;
	uint32_t begin = NONE, base = NONE, end;
	if (x->ndeps && pt->nentry > 1 && ((begin = emit_calc(c, 0, CPU_COMM)) == NONE
	                                   || requires_deps(c, begin, x)))
		return NONE;
	for (size_t i = 0; i < pt->nops; i++) {
		goal_op op = pt->ops[i].op;
		op.cpu = (uint16_t)(CPU_COMM + op.cpu);   /* NCCL's channels: a cpu each */
		if (op.kind != GOAL_CALC)
			op.peer = group_rank(c, g, op.peer);
		uint32_t idx = emit(c, &op, op.kind == GOAL_CALC ? 0 : comm);
		if (idx == NONE)
			return NONE;
		if (!i)
			base = idx;
		if (!(pt->flag[i] & 1) && (begin != NONE ? dep(c, idx, begin) : requires_deps(c, idx, x)))
			return NONE;
	}
	for (size_t i = 0; i < pt->ndeps; i++)
		if (sg_out_dep(c->out, base + pt->deps[i].a, base + pt->deps[i].b, pt->deps[i].ireq))
			return fail(c, "%s", sg_out_error(c->out)), NONE;
	if (pt->nexit == 1)
		return base + (uint32_t)pt->last;
	if ((end = emit_calc(c, 0, CPU_COMM)) == NONE)
		return NONE;
	for (size_t i = 0; i < pt->nops; i++)
		if (!(pt->flag[i] & 2) && dep(c, end, base + (uint32_t)i))
			return NONE;
	return end;
}

/* ---- Ranks ---------------------------------------------------------------------- */

/* With --strict, the first node of a type or attribute the conversion does
 * not use is an error; else each such type is a warning, once a run. */
static int unused_check(struct ckc *c)
{
	const ck_trace *t = &c->t;
	for (size_t i = 0; i < t->n; i++) {
		const ck_node *x = &t->node[i];
		if (x->type == CK_INVALID || x->type >= CK_STORAGE) {
			const char *name = x->type < CK_NTYPES ? ck_type_name[x->type] : "a node type beyond the schema";
			if (c->opt->strict)
				return fail(c, "%s: error: node %" PRIu64 ": %s is not used (--strict)", c->path,
				            x->id, name);
			if (c->opt->warn && !(c->warned & (1u << x->type))) {
				char msg[600];
				c->warned |= 1u << x->type;
				snprintf(msg, sizeof msg, "%s: warning: node %" PRIu64 ": %s is not used; it"
				         " takes no time", c->path, x->id, name);
				c->opt->warn(c->opt->warn_ctx, msg);
			}
		}
	}
	if (c->opt->strict && t->nunused)
		return fail(c, "%s: error: node %" PRIu64 ": its attribute '%s' is not used (--strict)",
		            c->path, t->unused[0].first, t->unused[0].name);
	return 0;
}

/* Add rank's unused attributes to the figures. */
static int count_unused(struct ckc *c)
{
	struct t2g_chakra_stats *st = c->st;
	for (size_t k = 0; k < c->t.nunused; k++) {
		const ck_unused *u = &c->t.unused[k];
		size_t i = 0;
		while (i < st->nunused && strcmp(st->unused[i].name, u->name) != 0)
			i++;
		if (i == st->nunused) {
			if (util_grow(&st->unused, &st->capunused, i + 1, sizeof *st->unused)
			    || !(st->unused[i].name = strdup(u->name)))
				return oom(c);
			st->unused[i].n = 0;
			st->unused[i].first = u->first;
			st->nunused++;
		}
		st->unused[i].n += u->n;
	}
	return 0;
}

/* The ops of node x (index i) of rank r; its exit into c->exit[i]. */
static void node_ops(struct ckc *c, const ck_node *x, uint32_t i, uint32_t r)
{
	uint32_t e = NONE;
	node_label(c, x);
	switch (x->type) {
	case CK_COMP:
	case CK_MEM_LOAD:
	case CK_MEM_STORE:
		e = node_calc(c, x);
		break;
	case CK_SEND:
	case CK_RECV:
		e = node_p2p(c, x);
		break;
	case CK_COLL:
		c->exit[i] = node_coll(c, x, r);
		return;
	default:          /* metadata and types not used: a link of the graph */
		if (c->linked[i])
			e = emit_calc(c, 0, CPU_COMP);
		break;
	}
	if (e != NONE)
		requires_deps(c, e, x);
	c->exit[i] = e;
}

/* Free what one rank needed. */
static void rank_free(struct ckc *c)
{
	ck_free(&c->t);
	util_kmap_free(&c->ids);
	free(c->idtab);
	c->idtab = NULL;
	free(c->dep);
	free(c->exit);
	free(c->order);
	free(c->child);
	free(c->cfirst);
	free(c->indeg);
	free(c->linked);
	c->dep = c->exit = c->order = c->child = c->cfirst = c->indeg = NULL;
	c->linked = NULL;
}

/* Read traced rank r's graph (the figures of its nodes from the first
 * copy only).  0 or -1. */
static int read_rank(struct ckc *c, const char *path)
{
	c->path = path;
	if (ck_read(path, &c->t, c->err, c->errlen))
		return c->failed = 1, -1;
	if (c->j == 0) {
		c->st->nodes += c->t.n;
		for (size_t k = 0; k <= CK_NTYPES; k++)
			c->st->types[k] += c->t.types[k];
		if (unused_check(c) || count_unused(c))
			return -1;
	}
	return rank_order(c);
}

/* Pass 2: the nodes of traced rank r (its graph read) as the ops of rank
 * j N + r of the schedule. */
static int convert_rank(struct ckc *c, uint32_t r)
{
	for (size_t k = 0; k < c->ng; k++)
		c->mine[k] = 0;
	if (sg_out_rank_begin(c->out, c->j * c->N + r))
		return fail(c, "%s", sg_out_error(c->out));
	for (size_t k = 0; k < c->t.n && !c->failed; k++)
		node_ops(c, &c->t.node[c->order[k]], c->order[k], r);
	if (!c->failed && sg_out_rank_end(c->out))
		fail(c, "%s", sg_out_error(c->out));
	return c->failed ? -1 : 0;
}

int t2g_chakra(char *const *paths, size_t n, const struct t2g_options *opt, sg_out *out,
               struct t2g_chakra_stats *st, char *err, size_t errlen)
{
	struct ckc c;
	int rc = -1;
	memset(&c, 0, sizeof c);
	memset(st, 0, sizeof *st);
	c.opt = opt;
	c.out = out;
	c.st = st;
	c.N = n;
	c.K = opt->extrapolate ? opt->extrapolate : 1;
	c.err = err;
	c.errlen = errlen;
	st->ranks = n * c.K;
	st->npatterns = sg_npatterns();
	if (!(st->by_pattern = calloc(st->npatterns, sizeof *st->by_pattern))) {
		oom(&c);
		goto out;
	}
	if (find_groups(&c, paths))
		goto out;
	sg_out_set_labels(out);
	/* Copy j reads each trace again, but one rank's graph is kept. */
	for (c.j = 0; c.j < c.K; c.j++)
		for (size_t r = 0; r < n; r++) {
			if (n > 1 || c.j == 0) {
				rank_free(&c);
				if (read_rank(&c, paths[r]))
					goto out;
			}
			if (convert_rank(&c, (uint32_t)r))
				goto out;
		}
	/* Above S a message waits for its receive (rendezvous); Chakra's send
	 * is done once sent, whatever its size. */
	if (st->waited_send > 65535 && opt->warn) {
		char msg[400];
		snprintf(msg, sizeof msg, "%s: warning: nodes depend on sends of up to %" PRIu64 " bytes,"
		         " done once sent in Chakra: simulate with loggopsim -S %" PRIu64 " or more (above"
		         " S a send waits for its receive, and such a graph can deadlock)", paths[0],
		         st->waited_send, st->waited_send);
		opt->warn(opt->warn_ctx, msg);
	}
	rc = 0;
out:
	rank_free(&c);
	util_kmap_free(&c.pgs);
	for (size_t k = 0; k < c.ng; k++) {
		free(c.g[k].name);
		free(c.g[k].member);
	}
	free(c.g);
	free(c.mine);
	t2g_pat_free(&c.pat);
	return rc;
}

void t2g_chakra_stats_free(struct t2g_chakra_stats *st)
{
	for (size_t i = 0; i < st->nunused; i++)
		free(st->unused[i].name);
	free(st->unused);
	free(st->by_pattern);
	memset(st, 0, sizeof *st);
}
