/* viz_sched.c: writes a schedule's dependency graph as dot, with each send
 * joined to the receive it matches (see docs/viz.md for the matching). */
#include "viz_sched.h"
#include "util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* A send to a drawn rank. */
typedef struct vsend {
	uint64_t src;
	uint32_t op;
	int32_t tag;
	uint32_t match;   /* op index of the matching recv, or UINT32_MAX */
	uint8_t wild;     /* matched through a wildcard */
} vsend;

typedef struct vlist {
	vsend *v;
	size_t n, cap;
	size_t first_open;   /* all before it are matched */
} vlist;

/* Index of rank r in the sorted array dr[0..n), or SIZE_MAX. */
static size_t find_rank(const uint64_t *dr, size_t n, uint64_t r)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (dr[mid] < r)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && dr[lo] == r ? lo : SIZE_MAX;
}

static int tags_match(int32_t a, int32_t b)
{
	return a == b || a == GOAL_ANY_TAG || b == GOAL_ANY_TAG;
}

/* Write s escaped for a dot "string". */
static void put_esc(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
}

static const char *const kind_fill[GOAL_NKINDS] = {
	"#cfe0fa", /* send */
	"#fde3c8", /* recv */
	"#d4f0d4", /* calc */
};

/* Describe op o of rank r in words: "send 8 B to 1 tag 0". */
static void op_text(const goal_sched *s, uint64_t r, const goal_op *o, char *buf, size_t n)
{
	size_t k = 0;
	int w;
	uint32_t peer = o->kind == GOAL_CALC ? 0 : goal_op_peer(s, r, o);
	if (o->kind == GOAL_CALC) {
		snprintf(buf, n, "calc %" PRIu64 " ns", o->size);
		w = (int)strlen(buf);
	} else if (o->kind == GOAL_SEND) {
		w = snprintf(buf, n, "send %" PRIu64 " B to %" PRIu32, o->size, peer);
	} else if (peer == GOAL_ANY_SOURCE) {
		w = snprintf(buf, n, "recv %" PRIu64 " B from any", o->size);
	} else {
		w = snprintf(buf, n, "recv %" PRIu64 " B from %" PRIu32, o->size, peer);
	}
	if (w < 0 || (size_t)w >= n)
		return;
	k = (size_t)w;
	if (o->kind != GOAL_CALC && o->tag != 0 && k < n) {
		if (o->tag == GOAL_ANY_TAG)
			w = snprintf(buf + k, n - k, " tag any");
		else
			w = snprintf(buf + k, n - k, " tag %" PRId32, o->tag);
		if (w > 0)
			k += (size_t)w;
	}
	if (o->cpu && k < n) {
		w = snprintf(buf + k, n - k, " cpu %u", (unsigned)o->cpu);
		if (w > 0)
			k += (size_t)w;
	}
	if (o->kind != GOAL_CALC && o->nic && k < n)
		snprintf(buf + k, n - k, " nic %u", (unsigned)o->nic);
}

/* The drawn ranks: those of opts' ranges (all by default), in order, while
 * their ops fit in max_ops; the rest counted in info.  Returns 0, or -1
 * when out of memory. */
static int pick_ranks(const goal_sched *s, const viz_sched_opts *opts, uint64_t max_ops,
                      uint64_t **drp, size_t *ndrp, viz_sched_info *info)
{
	uint64_t all[2] = { 0, s->nranks ? s->nranks - 1 : 0 };
	const uint64_t *rg = opts && opts->ranges ? opts->ranges : all;
	size_t nrg = opts && opts->ranges ? opts->nranges : (s->nranks ? 1 : 0);
	uint64_t *dr = NULL;
	size_t ndr = 0, cap = 0;
	uint64_t ops = 0;
	int full = 0;
	for (size_t i = 0; i < nrg; i++) {
		uint64_t lo = rg[2 * i], hi = rg[2 * i + 1];
		if (lo >= s->nranks)
			break;
		if (hi >= s->nranks)
			hi = s->nranks - 1;
		for (uint64_t r = lo;; r++) {
			uint32_t n = goal_rank_nops(s, r);
			if (full || (ndr > 0 && ops + n > max_ops)) {
				if (!full)
					info->first_left_out = r;
				full = 1;
				info->ranks_left_out += hi - r + 1;
				break;
			}
			if (util_grow(&dr, &cap, ndr + 1, sizeof *dr)) {
				*drp = dr;
				return -1;
			}
			dr[ndr++] = r;
			ops += n;
			if (r == hi)
				break;
		}
	}
	info->ranks_drawn = ndr;
	info->ops_drawn = ops;
	*drp = dr;
	*ndrp = ndr;
	return 0;
}

/* The sends to the drawn ranks dr[0..ndr), in lists[d] for dr[d], in
 * (source, program) order.  Returns 0, or -1 when out of memory. */
static int collect_sends(const goal_sched *s, const uint64_t *dr, size_t ndr, vlist *lists)
{
	for (uint64_t r = 0; r < s->nranks && ndr; r++) {
		const goal_op *o = goal_rank_ops(s, r);
		uint32_t n = goal_rank_nops(s, r);
		for (uint32_t i = 0; i < n; i++) {
			if (o[i].kind != GOAL_SEND)
				continue;
			size_t d = find_rank(dr, ndr, goal_op_peer(s, r, &o[i]));
			if (d == SIZE_MAX)
				continue;
			vlist *l = &lists[d];
			if (util_grow(&l->v, &l->cap, l->n + 1, sizeof *l->v))
				return -1;
			vsend v = { r, i, o[i].tag, UINT32_MAX, 0 };
			l->v[l->n++] = v;
		}
	}
	return 0;
}

/* The index of the first send of source src in l (l->n if none). */
static size_t first_send_of(const vlist *l, uint64_t src)
{
	size_t lo = 0, hi = l->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (l->v[mid].src < src)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Match the receives of drawn rank q, in program order, to the sends to it
 * in l: *matchp gets, per op of q, the index in l of the send its receive
 * matches, or UINT32_MAX.  Returns 0, or -1 when out of memory. */
static int match_rank(const goal_sched *s, uint64_t q, vlist *l, uint32_t **matchp,
                      viz_sched_info *info)
{
	const goal_op *o = goal_rank_ops(s, q);
	uint32_t n = goal_rank_nops(s, q);
	uint32_t *match = malloc((n ? n : 1) * sizeof *match);
	*matchp = match;
	if (!match)
		return -1;
	for (uint32_t i = 0; i < n; i++) {
		match[i] = UINT32_MAX;
		if (o[i].kind != GOAL_RECV)
			continue;
		size_t j = l->first_open;
		uint32_t src = goal_op_peer(s, q, &o[i]);
		if (src != GOAL_ANY_SOURCE) {
			size_t lo = first_send_of(l, src);
			if (lo > j)
				j = lo;
		}
		for (; j < l->n; j++) {
			vsend *v = &l->v[j];
			if (src != GOAL_ANY_SOURCE && v->src != src)
				break;
			if (v->match == UINT32_MAX && tags_match(v->tag, o[i].tag)) {
				v->match = i;
				v->wild = src == GOAL_ANY_SOURCE || o[i].tag == GOAL_ANY_TAG ||
				          v->tag == GOAL_ANY_TAG;
				match[i] = (uint32_t)j;
				info->matches++;
				info->wildcard_matches += v->wild;
				break;
			}
		}
		while (l->first_open < l->n && l->v[l->first_open].match != UINT32_MAX)
			l->first_open++;
	}
	return 0;
}

/* The graph's first lines: its title, what was left out, the defaults of
 * nodes and edges. */
static void put_head(FILE *out, const goal_sched *s, const viz_sched_opts *opts,
                     const viz_sched_info *info, uint64_t max_ops)
{
	fprintf(out, "// dependency graph of a GOAL schedule, drawn by goalviz: render with dot\n"
	        "digraph schedule {\n"
	        "  graph [fontname=\"Helvetica\", fontsize=12, labelloc=t, newrank=true, "
	        "nodesep=0.25, ranksep=0.35, label=\"");
	if (opts && opts->name)
		put_esc(out, opts->name);
	fprintf(out, "%sP=%" PRIu64 ", %" PRIu64 " ops; requires solid, irequires dashed, "
	        "messages bold (dotted: wildcard)", opts && opts->name ? ": " : "", s->nranks,
	        s->nops);
	if (info->ranks_left_out)
		fprintf(out, "\\nleft out %" PRIu64 " ranks from rank %" PRIu64 " on (op limit %"
		        PRIu64 ")", info->ranks_left_out, info->first_left_out, max_ops);
	fputs("\"];\n  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", "
	      "fontsize=10, height=0.3];\n  edge [arrowsize=0.6];\n", out);
}

/* Rank r's cluster: its name and a node per op, an unmatched receive
 * (match UINT32_MAX) in red and counted in info. */
static void put_cluster(FILE *out, const goal_sched *s, uint64_t r, const uint32_t *match,
                        viz_sched_info *info)
{
	char text[160], tip[256];
	const goal_op *o = goal_rank_ops(s, r);
	uint32_t n = goal_rank_nops(s, r);
	const char *lab = goal_rank_labels(s, r);
	/* The rank's name is a node above its ops, not the cluster's label:
	 * dot routes the messages around nodes, but across labels. */
	fprintf(out, "  subgraph cluster_r%" PRIu64 " {\n    label=\"\"; "
	        "style=filled; fillcolor=\"#f4f4f4\"; color=\"#bbbbbb\";\n"
	        "    r%" PRIu64 "_t [label=\"rank %" PRIu64 "\", shape=plaintext, style=\"\", "
	        "fontsize=12, height=0.2];\n", r, r, r);
	for (uint32_t i = 0; i < n; i++) {
		char canon[16];
		const char *name = lab;
		if (!lab) {
			snprintf(canon, sizeof canon, "l%" PRIu32, i + 1);
			name = canon;
		} else {
			lab += strlen(lab) + 1;
		}
		op_text(s, r, &o[i], text, sizeof text);
		int unmatched = (o[i].kind == GOAL_RECV && match[i] == UINT32_MAX);
		fprintf(out, "    r%" PRIu64 "_%" PRIu32 " [label=\"", r, i);
		if (*name) {
			put_esc(out, name);
			fputs(": ", out);
		}
		put_esc(out, text);
		snprintf(tip, sizeof tip, "rank %" PRIu64 ", op %" PRIu32 "%s", r, i,
		         unmatched ? ": no send matches this receive" : "");
		fprintf(out, "\", fillcolor=\"%s\", tooltip=\"", kind_fill[o[i].kind]);
		put_esc(out, tip);
		fputs(unmatched ? "\", color=red, penwidth=2];\n" : "\"];\n", out);
		info->unmatched += (uint64_t)unmatched;
	}
	fputs("  }\n", out);
}

/* Rank r: its cluster, its dependencies, and the name above every op that
 * waits for no other.  Returns 0, or -1 when out of memory. */
static int put_rank(FILE *out, const goal_sched *s, uint64_t r, const uint32_t *match,
                    viz_sched_info *info)
{
	const goal_op *o = goal_rank_ops(s, r);
	uint32_t n = goal_rank_nops(s, r);
	put_cluster(out, s, r, match, info);
	const goal_edge *e = goal_rank_edges(s, r);
	for (uint32_t b = 0; b < n; b++)
		for (uint32_t k = o[b].dep_begin; k < goal_op_dep_end(s, r, o, b); k++)
			fprintf(out, "  r%" PRIu64 "_%" PRIu32 " -> r%" PRIu64 "_%" PRIu32 "%s;\n",
			        r, b, r, GOAL_EDGE_OP(e[k]),
			        e[k] & GOAL_EDGE_IREQ ? " [style=dashed]" : "");
	unsigned char *waits = calloc(n ? n : 1, 1);
	if (!waits)
		return -1;
	for (uint32_t b = 0; b < n; b++)
		for (uint32_t k = o[b].dep_begin; k < goal_op_dep_end(s, r, o, b); k++)
			waits[GOAL_EDGE_OP(e[k])] = 1;
	for (uint32_t b = 0; b < n; b++)
		if (!waits[b])
			fprintf(out, "  r%" PRIu64 "_t -> r%" PRIu64 "_%" PRIu32 " [style=invis];\n",
			        r, r, b);
	free(waits);
	return 0;
}

/* The messages between drawn ranks; the unmatched sends of drawn ranks to
 * drawn ranks counted in info. */
static void put_messages(FILE *out, const uint64_t *dr, size_t ndr, const vlist *lists,
                         viz_sched_info *info)
{
	for (size_t d = 0; d < ndr; d++)
		for (size_t j = 0; j < lists[d].n; j++) {
			const vsend *v = &lists[d].v[j];
			if (v->match == UINT32_MAX) {
				if (find_rank(dr, ndr, v->src) != SIZE_MAX)
					info->unmatched++;
				continue;
			}
			if (find_rank(dr, ndr, v->src) == SIZE_MAX)
				continue;
			fprintf(out, "  r%" PRIu64 "_%" PRIu32 " -> r%" PRIu64 "_%" PRIu32
			        " [color=\"#c03030\", penwidth=1.6%s];\n", v->src, v->op, dr[d], v->match,
			        v->wild ? ", style=dotted, tooltip=\"wildcard: one possible match\"" : "");
		}
}

int viz_schedule_dot(const goal_sched *s, const viz_sched_opts *opts, FILE *out,
                     viz_sched_info *info, char *err, size_t errlen)
{
	viz_sched_info dummy;
	if (!info)
		info = &dummy;
	memset(info, 0, sizeof *info);
	uint64_t max_ops = opts && opts->max_ops ? opts->max_ops : 2000;
	uint64_t *dr = NULL;
	size_t ndr = 0;
	if (pick_ranks(s, opts, max_ops, &dr, &ndr, info))
		goto oom;

	vlist *lists = calloc(ndr ? ndr : 1, sizeof *lists);
	if (!lists)
		goto oom;
	if (collect_sends(s, dr, ndr, lists))
		goto oom_lists;

	uint32_t **recv_match = calloc(ndr ? ndr : 1, sizeof *recv_match);
	if (!recv_match)
		goto oom_lists;
	for (size_t d = 0; d < ndr; d++)
		if (match_rank(s, dr[d], &lists[d], &recv_match[d], info))
			goto oom_match;

	put_head(out, s, opts, info, max_ops);
	int rc = 0;
	for (size_t d = 0; d < ndr && rc == 0; d++)
		if (put_rank(out, s, dr[d], recv_match[d], info)) {
			snprintf(err, errlen, "out of memory");
			rc = -1;
		}
	put_messages(out, dr, ndr, lists, info);
	fputs("}\n", out);

	if (rc == 0 && (fflush(out) || ferror(out))) {
		snprintf(err, errlen, "write error");
		rc = -1;
	}
	for (size_t d = 0; d < ndr; d++)
		free(recv_match[d]);
	free(recv_match);
	for (size_t d = 0; d < ndr; d++)
		free(lists[d].v);
	free(lists);
	free(dr);
	return rc;

oom_match:
	for (size_t d = 0; d < ndr; d++)
		free(recv_match[d]);
	free(recv_match);
oom_lists:
	for (size_t d = 0; d < ndr; d++)
		free(lists[d].v);
	free(lists);
oom:
	free(dr);
	snprintf(err, errlen, "out of memory");
	return -1;
}
