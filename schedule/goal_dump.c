/* goal_dump.c: print a binary schedule as GOAL text (the inverse of the
 * compiler: compiling the output gives back the same binary). */
#include "goal.h"
#include "util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* A line buffer: the dump writes tens of millions of lines, so it formats
 * numbers itself instead of calling fprintf per field. */
typedef struct lbuf {
	char b[8192];
	size_t n;
	FILE *out;
	int err;
} lbuf;

static void lb_flush(lbuf *l)
{
	if (l->n && fwrite(l->b, 1, l->n, l->out) != l->n)
		l->err = 1;
	l->n = 0;
}

static void lb_str(lbuf *l, const char *s, size_t len)
{
	if (l->n + len > sizeof l->b)
		lb_flush(l);
	if (len > sizeof l->b) {
		if (fwrite(s, 1, len, l->out) != len)
			l->err = 1;
		return;
	}
	memcpy(l->b + l->n, s, len);
	l->n += len;
}

static void lb_cstr(lbuf *l, const char *s)
{
	lb_str(l, s, strlen(s));
}

static void lb_u64(lbuf *l, uint64_t v)
{
	char t[20];
	lb_str(l, t, (size_t)(util_put_u64(t, v) - t));
}

static void lb_i64(lbuf *l, int64_t v)
{
	if (v < 0) {
		lb_str(l, "-", 1);
		lb_u64(l, (uint64_t)-(v + 1) + 1);
	} else {
		lb_u64(l, (uint64_t)v);
	}
}

/* Label of op i: from the blob (labels[i]) or canonical. */
static void lb_label(lbuf *l, const char *const *labels, uint32_t i)
{
	if (labels) {
		lb_cstr(l, labels[i]);
	} else {
		lb_str(l, "l", 1);
		lb_u64(l, (uint64_t)i + 1);
	}
}

/* The job lines (docs/goal.md): job NAME [start T] [comm C] : RANKS, the
 * ranks as runs "a" or "a to b", JOB_RUNS runs a line; more runs go on
 * in lines "job NAME : RANKS".  comm is left out where it is the default:
 * 0 for the first job, the job before's plus 1 for the others. */
#define JOB_RUNS 16
static void lb_jobs(lbuf *l, const goal_sched *s)
{
	for (uint32_t j = 0; j < s->njobs; j++) {
		const goal_job *g = &s->jobs[j];
		const uint32_t *rk = s->job_ranks + g->first;
		unsigned runs = JOB_RUNS;
		for (uint32_t i = 0; i < g->nranks; runs++) {
			if (runs == JOB_RUNS) {
				lb_cstr(l, i ? "\njob " : "job ");
				lb_cstr(l, goal_job_name(s, j));
				if (!i && g->start) {
					lb_cstr(l, " start ");
					lb_u64(l, g->start);
				}
				if (!i && g->comm_base != (j ? s->jobs[j - 1].comm_base + 1 : 0)) {
					lb_cstr(l, " comm ");
					lb_u64(l, g->comm_base);
				}
				lb_str(l, " :", 2);
				runs = 0;
			}
			uint32_t e = i;
			while (e + 1 < g->nranks && rk[e + 1] == rk[e] + 1)
				e++;
			lb_str(l, " ", 1);
			lb_u64(l, rk[i]);
			if (e > i) {
				lb_cstr(l, " to ");
				lb_u64(l, rk[e]);
			}
			i = e + 1;
		}
		lb_str(l, "\n", 1);
	}
}

int goal_dump(const goal_sched *s, FILE *out)
{
	lbuf l;
	const char **labels = NULL;
	size_t labels_cap = 0;
	uint64_t next_stride = 0;   /* the stride entry of the next strided op */

	l.n = 0;
	l.out = out;
	l.err = 0;
	lb_cstr(&l, "num_ranks ");
	lb_u64(&l, s->nranks);
	lb_str(&l, "\n", 1);
	lb_jobs(&l, s);
	for (uint64_t r = 0; r < s->nranks && !l.err; r++) {
		uint32_t n = goal_rank_nops(s, r);
		const goal_op *ops = goal_rank_ops(s, r);
		const goal_edge *edges = goal_rank_edges(s, r);
		const char *blob = goal_rank_labels(s, r);

		if (blob) {
			if (util_grow(&labels, &labels_cap, n, sizeof *labels)) {
				free(labels);
				return -1;
			}
			for (uint32_t i = 0; i < n; i++) {
				labels[i] = blob;
				blob += strlen(blob) + 1;
			}
		}
		lb_cstr(&l, "\nrank ");
		lb_u64(&l, r);
		lb_cstr(&l, " {\n");
		for (uint32_t i = 0; i < n; i++) {
			const goal_op *o = &ops[i];
			const char *const *lab = blob ? labels : NULL;
			if (!lab || *labels[i]) {
				lb_label(&l, lab, i);
				lb_str(&l, ": ", 2);
			}
			lb_cstr(&l, goal_kind_name[o->kind]);
			lb_str(&l, " ", 1);
			lb_u64(&l, o->size);
			if (o->kind != GOAL_CALC) {
				lb_cstr(&l, o->kind == GOAL_SEND ? "b to " : "b from ");
				uint32_t peer = goal_op_peer(s, r, o);
				if (peer == GOAL_ANY_SOURCE)
					lb_str(&l, "-1", 2);
				else
					lb_u64(&l, peer);
				if (o->tag) {
					lb_cstr(&l, " tag ");
					lb_i64(&l, o->tag);
				}
				if (goal_op_comm(o)) {
					lb_cstr(&l, " comm ");
					lb_u64(&l, goal_op_comm_value(s, o));
				}
				if (next_stride < s->nstrides
				    && s->strides[next_stride].op == s->ranks[r].first_op + i) {
					const goal_stride *d = &s->strides[next_stride++];
					lb_cstr(&l, " stride ");
					lb_u64(&l, d->stride);
					if (d->block != GOAL_DEFAULT_BLOCK) {
						lb_cstr(&l, " block ");
						lb_u64(&l, d->block);
					}
				}
			}
			if (o->cpu) {
				lb_cstr(&l, " cpu ");
				lb_u64(&l, o->cpu);
			}
			if (o->nic) {
				lb_cstr(&l, " nic ");
				lb_u64(&l, o->nic);
			}
			lb_str(&l, "\n", 1);
		}
		for (uint32_t b = 0; b < n; b++) {
			uint32_t end = goal_op_dep_end(s, r, ops, b);
			for (uint32_t k = ops[b].dep_begin; k < end; k++) {
				lb_label(&l, blob ? labels : NULL, GOAL_EDGE_OP(edges[k]));
				lb_cstr(&l, edges[k] & GOAL_EDGE_IREQ ? " irequires " : " requires ");
				lb_label(&l, blob ? labels : NULL, b);
				lb_str(&l, "\n", 1);
			}
		}
		lb_cstr(&l, "}\n");
	}
	lb_flush(&l);
	free(labels);
	if (fflush(out) != 0)
		l.err = 1;
	return l.err ? -1 : 0;
}
