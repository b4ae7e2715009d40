/* goal_writer.c: the binary schedule format's streaming writer (layout in
 * goal.h and docs/binary-format.md): ranks in order, each rank's ops and
 * dependencies checked and sorted as it ends. */
#include "goal.h"
#include "goal_format_int.h"

#include "invariant.h"
#include "kmap.h"
#include "out.h"
#include "util.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- Writer ------------------------------------------------------------ */

/* A buffered stream of writes into one region of the output file. */
typedef struct wstream {
	unsigned char *buf;
	size_t len, cap;
	uint64_t off;   /* file offset of buf[0] */
} wstream;

/* The bytes of distinct blocks the writer keeps to find equal ones: enough
 * for the few kinds of rank of a collective, bounded for a trace whose
 * ranks all differ (a block past it is never shared). */
#define SHARE_BYTES ((uint64_t)64 << 20)

typedef struct wdep {
	uint32_t a, b;  /* a (i)requires b */
	uint32_t ireq;
	uint32_t seq;   /* order of the goal_writer_dep call in the rank */
} wdep;

struct goal_writer {
	int fd;             /* -1: check only; else fileno(out.f) */
	util_out out;       /* the output, renamed into place when finished */
	char *path;
	uint64_t nranks, next_rank;
	int in_rank, failed, finished;
	uint64_t nops, nedges;
	uint32_t max_cpu, max_nic, max_rank_ops, flags;
	wstream table, blocks;
	/* The comm table: comms[k] has index k (comms[0] = 0); comm_map maps
	 * the other values (4 bytes) to their index. */
	uint32_t *comms;
	size_t ncomms, comms_cap;
	util_kmap comm_map;
	/* The stride table, written by goal_writer_finish. */
	goal_stride *strides;
	size_t nstrides, strides_cap;
	/* The job table, written by goal_writer_finish: the jobs, their ranks,
	 * their names; rank_job[r] is the job of rank r (NO_JOB: none). */
	goal_job *jobs;
	size_t njobs, jobs_cap;
	uint32_t *job_ranks, *rank_job;
	size_t njob_ranks, job_ranks_cap;
	char *job_names;
	size_t job_names_len, job_names_cap;
	util_kmap job_map;  /* job name -> index */
	/* The distinct blocks (the block table, written by goal_writer_finish),
	 * and those a later rank may share: their bytes map to their index,
	 * up to SHARE_BYTES of them. */
	goal_block_entry *blk;
	size_t nblk, blk_cap;
	util_kmap share;
	unsigned char *bbuf;  /* the current rank's block */
	size_t bbuf_cap;

	/* The current rank, reset by goal_writer_rank_begin. */
	goal_op *ops;
	size_t nops_rank, ops_cap;
	char *labels;       /* nops_rank NUL-terminated labels ("" = none) */
	size_t labels_len, labels_cap;
	int labels_canonical;
	wdep *deps;
	size_t ndeps, deps_cap;
	/* Scratch of rank_end, sized to the largest rank so far. */
	uint32_t *count, *mark_req, *mark_ireq, *queue;
	size_t scratch_cap;
	uint32_t *label_ht;   /* labels_check */
	uint64_t label_ht_cap;
	goal_edge *edges;
	uint32_t *edge_seq;
	size_t edges_cap;
	uint64_t cycle_dep;
	char err[512];
};

static int werr(goal_writer *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int werr(goal_writer *w, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(w->err, sizeof w->err, fmt, ap);
	va_end(ap);
	w->failed = 1;
	return -1;
}

static int ws_flush(goal_writer *w, wstream *s)
{
	size_t done = 0;
	while (done < s->len) {
		ssize_t n = pwrite(w->fd, s->buf + done, s->len - done,
		                   (off_t)(s->off + done));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return werr(w, "%s: error: cannot write: %s", w->path, strerror(errno));
		}
		done += (size_t)n;
	}
	s->off += s->len;
	s->len = 0;
	return 0;
}

static int ws_put(goal_writer *w, wstream *s, const void *data, size_t len)
{
	const unsigned char *p = data;
	if (w->fd < 0) {
		s->off += len;
		return 0;
	}
	while (len) {
		/* Chunks end at multiples of cap in the file: whole, aligned
		 * writes let the page cache hold the file in huge folios, which
		 * a reader that maps it can then map with huge pages. */
		size_t end = (size_t)(s->cap - s->off % s->cap);
		size_t n = end - s->len;
		if (n > len)
			n = len;
		memcpy(s->buf + s->len, p, n);
		s->len += n;
		p += n;
		len -= n;
		if (s->len == end && ws_flush(w, s))
			return -1;
	}
	return 0;
}

static int ws_zero(goal_writer *w, wstream *s, size_t len)
{
	static const unsigned char zeros[8];
	return ws_put(w, s, zeros, len);
}

goal_writer *goal_writer_create(const char *path, uint64_t nranks,
                                char *err, size_t errlen)
{
	goal_writer *w = calloc(1, sizeof *w);
	if (!w)
		goto oom;
	w->fd = -1;
	w->nranks = nranks;
	w->labels_canonical = 1;
	if (nranks == 0 || nranks > GOAL_MAX_RANKS) {
		/* Reported at the first call, so the caller has one error path. */
		werr(w, "the number of ranks must be 1..%u, not %" PRIu64,
		     GOAL_MAX_RANKS, nranks);
	}
	w->table.off = sizeof(goal_header) + sizeof(goal_comm_header);
	w->blocks.off = w->table.off + (nranks + 1) * sizeof(goal_rank_entry);
	if (!(w->comms = malloc(sizeof *w->comms)))
		goto oom;
	w->comms[0] = 0;
	w->ncomms = w->comms_cap = 1;
	if (!path)
		return w;
	w->path = strdup(path);
	w->table.cap = 64 * 1024;
	w->blocks.cap = 2u << 20;  /* a huge page */
	w->table.buf = malloc(w->table.cap);
	w->blocks.buf = malloc(w->blocks.cap);
	if (!w->path || !w->table.buf || !w->blocks.buf)
		goto oom;
	if (util_out_open(&w->out, path, NULL, 0, 1, err, errlen)) {
		goal_writer_abort(w);
		return NULL;
	}
	w->fd = fileno(w->out.f);
	return w;
oom:
	goal_fmt_err(err, errlen, "error: out of memory");
	goal_writer_abort(w);
	return NULL;
}

const char *goal_writer_error(const goal_writer *w)
{
	return w->err;
}

uint64_t goal_writer_cycle_dep(const goal_writer *w)
{
	return w->cycle_dep;
}

#define NO_JOB UINT32_MAX

/* The last job declared has ranks; 0 or -1. */
static int job_has_ranks(goal_writer *w)
{
	const goal_job *j = w->njobs ? &w->jobs[w->njobs - 1] : NULL;
	if (j && j->nranks == 0)
		return werr(w, "job %s has no ranks", w->job_names + j->name_off);
	return 0;
}

int goal_writer_job(goal_writer *w, const char *name, size_t len, uint64_t start,
                    uint32_t comm_base)
{
	char msg[300];
	if (w->failed)
		return -1;
	if (w->in_rank || w->next_rank)
		return werr(w, "job %.*s declared after the first rank", (int)(len < 64 ? len : 64), name);
	if (job_has_ranks(w))
		return -1;
	if (goal_name_check(name, len, msg, sizeof msg))
		return werr(w, "job name %s", msg);
	if (util_kmap_get(&w->job_map, name, len))
		return werr(w, "two jobs are named %.*s", (int)len, name);
	if (w->njobs >= GOAL_MAX_JOBS)
		return werr(w, "more than %u jobs", GOAL_MAX_JOBS);
	if (comm_base > GOAL_MAX_COMM)
		return werr(w, "job %.*s: its comms start at %" PRIu32 " (comms are 0..%u)", (int)len, name,
		            comm_base, GOAL_MAX_COMM);
	if (w->njobs && comm_base <= w->jobs[w->njobs - 1].comm_base)
		return werr(w, "job %.*s: its comms start at %" PRIu32 ", not after the job before's (%" PRIu32 ")",
		            (int)len, name, comm_base, w->jobs[w->njobs - 1].comm_base);
	if (!w->rank_job) {
		if (!(w->rank_job = malloc(w->nranks * sizeof *w->rank_job)))
			return werr(w, "error: out of memory");
		memset(w->rank_job, 0xff, w->nranks * sizeof *w->rank_job);
	}
	if (util_grow(&w->jobs, &w->jobs_cap, w->njobs + 1, sizeof *w->jobs)
	    || util_grow(&w->job_names, &w->job_names_cap, w->job_names_len + len + 1, 1)
	    || util_kmap_put(&w->job_map, name, len, (uint32_t)w->njobs))
		return werr(w, "error: out of memory");
	w->jobs[w->njobs++] = (goal_job){ start, (uint32_t)w->njob_ranks, 0, comm_base,
	                                  (uint32_t)w->job_names_len };
	memcpy(w->job_names + w->job_names_len, name, len);
	w->job_names[w->job_names_len + len] = '\0';
	w->job_names_len += len + 1;
	return 0;
}

int goal_writer_job_rank(goal_writer *w, uint64_t rank)
{
	if (w->failed)
		return -1;
	if (!w->njobs || w->next_rank || w->in_rank)
		return werr(w, "a job's rank outside a job");
	goal_job *j = &w->jobs[w->njobs - 1];
	const char *name = w->job_names + j->name_off;
	if (rank >= w->nranks)
		return werr(w, "job %s: rank %" PRIu64 " is outside 0..%" PRIu64, name, rank, w->nranks - 1);
	if (w->rank_job[rank] != NO_JOB)
		return werr(w, "job %s: rank %" PRIu64 " is already in job %s", name, rank,
		            w->job_names + w->jobs[w->rank_job[rank]].name_off);
	if (util_grow(&w->job_ranks, &w->job_ranks_cap, w->njob_ranks + 1, sizeof *w->job_ranks))
		return werr(w, "error: out of memory");
	w->rank_job[rank] = (uint32_t)(w->njobs - 1);
	w->job_ranks[w->njob_ranks++] = (uint32_t)rank;
	j->nranks++;
	return 0;
}

int goal_writer_rank_begin(goal_writer *w)
{
	if (w->failed)
		return -1;
	if (w->next_rank == 0 && !w->in_rank && job_has_ranks(w))
		return -1;
	if (w->in_rank)
		return werr(w, "rank %" PRIu64 " begun before the previous one ended", w->next_rank);
	if (w->next_rank >= w->nranks)
		return werr(w, "more rank blocks than the %" PRIu64 " ranks", w->nranks);
	w->in_rank = 1;
	w->nops_rank = 0;
	w->labels_len = 0;
	w->labels_canonical = 1;
	w->ndeps = 0;
	return 0;
}

/* The index of comm in the table, added at its first use; or -1. */
static int64_t comm_index(goal_writer *w, uint32_t comm)
{
	uint32_t *v;
	if (comm == 0)
		return 0;
	if ((v = util_kmap_get(&w->comm_map, &comm, sizeof comm)))
		return *v;
	if (comm > GOAL_MAX_COMM)
		return werr(w, "rank %" PRIu64 ": op %zu has comm %" PRIu32 " (comms are 0..%u)",
		            w->next_rank, w->nops_rank, comm, GOAL_MAX_COMM);
	if (w->ncomms >= GOAL_MAX_COMMS)
		return werr(w, "more than %u distinct comms", GOAL_MAX_COMMS);
	if (util_grow(&w->comms, &w->comms_cap, w->ncomms + 1, sizeof *w->comms)
	    || util_kmap_put(&w->comm_map, &comm, sizeof comm, (uint32_t)w->ncomms))
		return werr(w, "out of memory");
	w->comms[w->ncomms] = comm;
	return (int64_t)w->ncomms++;
}

int goal_writer_op(goal_writer *w, const goal_op *op, const char *label,
                   size_t len, uint32_t *index)
{
	return goal_writer_op_comm(w, op, 0, label, len, index);
}

int goal_writer_op_comm(goal_writer *w, const goal_op *op, uint32_t comm,
                        const char *label, size_t len, uint32_t *index)
{
	uint32_t i = (uint32_t)w->nops_rank;
	uint64_t r = w->next_rank;
	if (w->failed)
		return -1;
	if (!w->in_rank)
		return werr(w, "op outside a rank");
	if (w->nops_rank >= GOAL_MAX_RANK_OPS)
		return werr(w, "rank %" PRIu64 " has more than %u ops", r, GOAL_MAX_RANK_OPS);
	if (op->kind >= GOAL_NKINDS)
		return werr(w, "rank %" PRIu64 ": op %" PRIu32 " has unknown kind %u", r, i, op->kind);
	if (util_grow(&w->ops, &w->ops_cap, w->nops_rank + 1, sizeof *w->ops))
		return werr(w, "out of memory");
	/* Built in place: a copy from the stack would load whole words that
	 * were stored in pieces (a stall of its own on every op). */
	goal_op *o = &w->ops[i];
	memset(o, 0, sizeof *o);
	o->kind = op->kind;
	o->size = op->size;
	o->cpu = op->cpu;
	if (op->kind != GOAL_CALC) {
		int any_ok = op->kind == GOAL_RECV;
		if (op->peer >= w->nranks && !(any_ok && op->peer == GOAL_ANY_SOURCE))
			return werr(w, "rank %" PRIu64 ": op %" PRIu32 " has peer %" PRIu32
			            " outside 0..%" PRIu64, r, i, op->peer, w->nranks - 1);
		if (op->tag < GOAL_ANY_TAG)
			return werr(w, "rank %" PRIu64 ": op %" PRIu32 " has tag %" PRId32
			            " (tags are >= 0, or -1 for any)", r, i, op->tag);
		/* Relative to the rank (version 3), so that ranks that do the
		 * same to their neighbours have equal blocks. */
		o->peer = goal_peer_rel(w->nranks, r, op->peer);
		o->tag = op->tag;
		o->nic = op->nic;
		int64_t c = comm_index(w, comm);
		if (c < 0)
			return -1;
		goal_op_set_comm(o, (uint32_t)c);
	} else if (comm) {
		return werr(w, "rank %" PRIu64 ": op %" PRIu32 " is a calc with comm %" PRIu32, r, i, comm);
	}
	if (label && !label_is_canonical(label, len, i)) {
		/* Only a label that is not canonical can be invalid. */
		for (size_t k = 0; k < len; k++)
			if (!label_char((unsigned char)label[k], k == 0))
				return werr(w, "rank %" PRIu64 ": op %" PRIu32 " has an invalid label", r, i);
		w->labels_canonical = 0;
	} else if (!label) {
		len = 0;
		/* An unlabeled op dumps without label: the rank keeps a blob only
		 * if some other label is not canonical. */
	}
	if (util_grow(&w->labels, &w->labels_cap, w->labels_len + len + 1, 1))
		return werr(w, "out of memory");
	w->nops_rank++;
	if (len)
		memcpy(w->labels + w->labels_len, label, len);
	w->labels[w->labels_len + len] = '\0';
	w->labels_len += len + 1;
	if (o->cpu > w->max_cpu)
		w->max_cpu = o->cpu;
	if (o->nic > w->max_nic)
		w->max_nic = o->nic;
	if (index)
		*index = i;
	return 0;
}

int goal_writer_stride(goal_writer *w, uint32_t stride, uint32_t block)
{
	uint64_t r = w->next_rank;
	if (w->failed)
		return -1;
	if (!w->in_rank || !w->nops_rank)
		return werr(w, "stride without an op");
	uint32_t i = (uint32_t)w->nops_rank - 1;
	if (w->ops[i].kind == GOAL_CALC)
		return werr(w, "rank %" PRIu64 ": op %" PRIu32 " is a calc with a stride", r, i);
	if (block == 0 || block > stride || stride > GOAL_MAX_STRIDE)
		return werr(w, "rank %" PRIu64 ": op %" PRIu32 " has stride %" PRIu32 " and block %" PRIu32
		            " (1 <= block <= stride <= %u)", r, i, stride, block, GOAL_MAX_STRIDE);
	uint64_t g = w->nops + i;
	if (w->nstrides && w->strides[w->nstrides - 1].op == g)
		return werr(w, "rank %" PRIu64 ": op %" PRIu32 " has two strides", r, i);
	if (util_grow(&w->strides, &w->strides_cap, w->nstrides + 1, sizeof *w->strides))
		return werr(w, "out of memory");
	w->strides[w->nstrides++] = (goal_stride){ g, stride, block };
	return 0;
}

int goal_writer_dep(goal_writer *w, uint32_t a, uint32_t b, int irequires)
{
	if (w->failed)
		return -1;
	if (!w->in_rank)
		return werr(w, "dependency outside a rank");
	if (w->ndeps >= UINT32_MAX)
		return werr(w, "too many dependencies in rank %" PRIu64, w->next_rank);
	if (util_grow(&w->deps, &w->deps_cap, w->ndeps + 1, sizeof *w->deps))
		return werr(w, "out of memory");
	w->deps[w->ndeps] = (wdep){ a, b, irequires ? 1u : 0u, (uint32_t)w->ndeps };
	w->ndeps++;
	return 0;
}

/* Label of op i of the current rank, for messages. */
static const char *wlabel(goal_writer *w, uint32_t i, char *buf, size_t n)
{
	const char *p = w->labels;
	for (uint32_t k = 0; k < i; k++)
		p += strlen(p) + 1;
	if (*p)
		return p;
	snprintf(buf, n, "l%" PRIu32, i + 1);
	return buf;
}

/* Find a cycle among the ops that Kahn's algorithm could not order (those
 * with count[] > 0), report it and set cycle_dep.  Walks backwards along
 * dependencies, which every remaining op has among the remaining ops. */
static int report_cycle(goal_writer *w, size_t nedges)
{
	size_t n = w->nops_rank;
	uint32_t *rbeg = w->mark_req, *rpos = w->mark_ireq; /* reused: n + 1 */
	uint32_t *pred, *pred_seq, *order;
	uint32_t start = 0, cur, len = 0;
	char msg[400], lb1[16], lb2[16];
	size_t m = 0;
	uint32_t min_seq = UINT32_MAX;

	pred = malloc((nedges ? nedges : 1) * sizeof *pred);
	pred_seq = malloc((nedges ? nedges : 1) * sizeof *pred_seq);
	order = malloc(n * sizeof *order);
	if (!pred || !pred_seq || !order) {
		free(pred);
		free(pred_seq);
		free(order);
		return werr(w, "out of memory");
	}
	memset(rbeg, 0, (n + 1) * sizeof *rbeg);
	for (uint32_t b = 0; b < n; b++)
		for (uint32_t e = w->ops[b].dep_begin; e < (b + 1 < n ? w->ops[b + 1].dep_begin : nedges); e++)
			rbeg[GOAL_EDGE_OP(w->edges[e]) + 1]++;
	for (size_t i = 0; i < n; i++)
		rbeg[i + 1] += rbeg[i];
	memcpy(rpos, rbeg, n * sizeof *rpos);
	for (uint32_t b = 0; b < n; b++)
		for (uint32_t e = w->ops[b].dep_begin; e < (b + 1 < n ? w->ops[b + 1].dep_begin : nedges); e++) {
			uint32_t a = GOAL_EDGE_OP(w->edges[e]);
			pred[rpos[a]] = b;
			pred_seq[rpos[a]++] = w->edge_seq[e];
		}
	while (start < n && w->count[start] == 0)
		start++;
	/* order[] holds the step at which an op was visited + 1. */
	memset(order, 0, n * sizeof *order);
	cur = start;
	while (!order[cur]) {
		order[cur] = ++len;
		for (uint32_t k = rbeg[cur]; k < rbeg[cur + 1]; k++)
			if (w->count[pred[k]]) {
				cur = pred[k];
				break;
			}
	}
	/* cur is on the cycle: walk it once more, writing "x requires y". */
	m = (size_t)snprintf(msg, sizeof msg, "dependency cycle in rank %" PRIu64 ": ", w->next_rank);
	{
		uint32_t first = cur, steps = 0;
		do {
			uint32_t next = cur;
			uint32_t seq = 0;
			for (uint32_t k = rbeg[cur]; k < rbeg[cur + 1]; k++)
				if (w->count[pred[k]]) {
					next = pred[k];
					seq = pred_seq[k];
					break;
				}
			if (seq < min_seq)
				min_seq = seq;
			if (m < sizeof msg)
				m += (size_t)snprintf(msg + m, sizeof msg - m, "%s%s requires %s",
				                      steps ? ", " : "", wlabel(w, cur, lb1, sizeof lb1),
				                      wlabel(w, next, lb2, sizeof lb2));
			cur = next;
			steps++;
		} while (cur != first && steps <= n);
	}
	w->cycle_dep = min_seq;
	free(pred);
	free(pred_seq);
	free(order);
	return werr(w, "%s", msg);
}

/* Grow the scratch arrays for a rank of n ops and nd dependencies: count,
 * mark_req, mark_ireq and queue to n + 1, edges and edge_seq to nd + 1.
 * Returns 0, or -1 with the writer failed. */
static int grow_scratch(goal_writer *w, size_t n, size_t nd)
{
	size_t old_cap;
	/* The other scratch arrays follow the capacity of count and edges. */
	old_cap = w->scratch_cap;
	if (util_grow(&w->count, &w->scratch_cap, n + 1, sizeof *w->count))
		return werr(w, "out of memory");
	if (w->scratch_cap != old_cap) {
		size_t cap = w->scratch_cap;
		uint32_t *a = realloc(w->mark_req, cap * sizeof *a);
		if (a)
			w->mark_req = a;
		a = a ? realloc(w->mark_ireq, cap * sizeof *a) : NULL;
		if (a)
			w->mark_ireq = a;
		a = a ? realloc(w->queue, cap * sizeof *a) : NULL;
		if (a)
			w->queue = a;
		if (!a)
			return werr(w, "out of memory");
	}
	old_cap = w->edges_cap;
	if (util_grow(&w->edges, &w->edges_cap, nd + 1, sizeof *w->edges))
		return werr(w, "out of memory");
	if (w->edges_cap != old_cap) {
		uint32_t *s = realloc(w->edge_seq, w->edges_cap * sizeof *s);
		if (!s)
			return werr(w, "out of memory");
		w->edge_seq = s;
	}
	return 0;
}

/* The rank's edges from its nd dependencies: grouped by the op required,
 * in line order, repeats dropped; each op's dep_begin and ndeps set, and
 * edge_seq[] the line of each edge.  Returns the number of edges. */
static size_t sort_deps(goal_writer *w, size_t n, size_t nd)
{
	size_t nedges = 0;
	/* Counting sort of the dependencies by b (stable: line order), dropping
	 * repeats: mark_*[a] == b + 1 means "a (i)requires b" was already seen. */
	memset(w->count, 0, (n + 1) * sizeof *w->count);
	memset(w->mark_req, 0, n * sizeof *w->mark_req);
	memset(w->mark_ireq, 0, n * sizeof *w->mark_ireq);
	for (size_t k = 0; k < nd; k++)
		w->count[w->deps[k].b + 1]++;
	for (size_t i = 0; i < n; i++)
		w->count[i + 1] += w->count[i];
	/* edge_seq[] first holds the dependency order grouped by b. */
	for (size_t k = 0; k < nd; k++)
		w->edge_seq[w->count[w->deps[k].b]++] = (uint32_t)k;
	/* count[b] is now the end of b's group; rebuild the edges in order. */
	for (size_t i = 0, k = 0; i < n; i++) {
		size_t end = w->count[i];
		w->ops[i].dep_begin = (uint32_t)nedges;
		for (; k < end; k++) {
			const wdep *d = &w->deps[w->edge_seq[k]];
			uint32_t *mark = d->ireq ? w->mark_ireq : w->mark_req;
			if (mark[d->a] == d->b + 1)
				continue;
			mark[d->a] = d->b + 1;
			w->edges[nedges] = d->a | (d->ireq ? GOAL_EDGE_IREQ : 0);
			/* edge_seq[nedges] is read-behind of k: nedges <= k. */
			w->edge_seq[nedges] = d->seq;
			nedges++;
			w->ops[d->a].ndeps++;
		}
	}
	return nedges;
}

/* Whether the rank's n ops and nedges edges have no cycle (Kahn's
 * algorithm); the ops it could not order keep count[] > 0. */
static int acyclic(goal_writer *w, size_t n, size_t nedges)
{
	/* Kahn: count[] = remaining dependencies, queue[] = ready ops. */
	size_t head = 0, tail = 0;
	for (size_t i = 0; i < n; i++) {
		w->count[i] = w->ops[i].ndeps;
		if (!w->count[i])
			w->queue[tail++] = (uint32_t)i;
	}
	while (head < tail) {
		uint32_t b = w->queue[head++];
		uint32_t end = b + 1 < n ? w->ops[b + 1].dep_begin : (uint32_t)nedges;
		for (uint32_t e = w->ops[b].dep_begin; e < end; e++) {
			uint32_t a = GOAL_EDGE_OP(w->edges[e]);
			if (--w->count[a] == 0)
				w->queue[tail++] = a;
		}
	}
	return tail == n;
}

/* Check the rank's labels that are not all canonical (labels_check).
 * Returns 0, or -1 with the writer failed. */
static int check_rank_labels(goal_writer *w, size_t n, size_t nedges)
{
	char msg[256];
	uint64_t k = label_slots(n);
	if (k > w->label_ht_cap) {
		uint32_t *ht = realloc(w->label_ht, k * sizeof *ht);
		if (!ht)
			return werr(w, "out of memory");
		w->label_ht = ht;
		w->label_ht_cap = k;
	}
	if (goal_labels_check(w->labels, (uint32_t)n, w->ops, (uint32_t)nedges, w->label_ht, msg, sizeof msg))
		return werr(w, "rank %" PRIu64 ": %s", w->next_rank, msg);
	return 0;
}

/* The block of the rank (n > 0 ops) in ent->block_off: an earlier one with
 * the same bytes, or a new one written to the blocks.  Returns 0, or -1
 * with the writer failed. */
static int put_block(goal_writer *w, goal_rank_entry *ent, size_t n, size_t nedges)
{
	/* The key: the block's counts (its bytes alone do not give them:
	 * an edge 0 reads as padding), then its bytes.  A rank without
	 * ops has no block (block_off 0). */
	goal_block_entry be = { 0, (uint32_t)n, (uint32_t)nedges, ent->label_bytes, 0 };
	uint64_t eb = PAD8(nedges * 4), len = n * sizeof *w->ops + eb + PAD8(ent->label_bytes);
	uint64_t klen = len + sizeof be;
	if (klen > SIZE_MAX || util_grow(&w->bbuf, &w->bbuf_cap, (size_t)klen, 1))
		return werr(w, "out of memory");
	unsigned char *b = w->bbuf;
	memset(b, 0, (size_t)klen);
	memcpy(b, &be, sizeof be);
	b += sizeof be;
	memcpy(b, w->ops, n * sizeof *w->ops);
	b += n * sizeof *w->ops;
	if (nedges)
		memcpy(b, w->edges, nedges * sizeof *w->edges);
	b += eb;
	if (ent->label_bytes)
		memcpy(b, w->labels, ent->label_bytes);
	const uint32_t *k = util_kmap_get(&w->share, w->bbuf, (size_t)klen);
	if (k) {
		ent->block_off = w->blk[*k].off;
		return 0;
	}
	ent->block_off = be.off = w->blocks.off + w->blocks.len;
	if (util_grow(&w->blk, &w->blk_cap, w->nblk + 1, sizeof *w->blk)
	    || (w->share.alen + klen <= SHARE_BYTES
	        && util_kmap_put(&w->share, w->bbuf, (size_t)klen, (uint32_t)w->nblk)))
		return werr(w, "out of memory");
	w->blk[w->nblk++] = be;
	return ws_put(w, &w->blocks, w->bbuf + sizeof be, (size_t)len);
}

int goal_writer_rank_end(goal_writer *w)
{
	size_t n = w->nops_rank, nd = w->ndeps, nedges;
	uint64_t r = w->next_rank;
	goal_rank_entry ent;

	if (w->failed)
		return -1;
	if (!w->in_rank)
		return werr(w, "rank end without rank begin");
	for (size_t k = 0; k < nd; k++)
		if (w->deps[k].a >= n || w->deps[k].b >= n)
			return werr(w, "rank %" PRIu64 ": dependency names op %" PRIu32
			            " but the rank has %zu ops", r,
			            w->deps[k].a >= n ? w->deps[k].a : w->deps[k].b, n);
	if (grow_scratch(w, n, nd))
		return -1;
	nedges = sort_deps(w, n, nd);
	if (!acyclic(w, n, nedges))
		return report_cycle(w, nedges);
#if GOAL_CHECKS
	/* The block is what the reader accepts: edge ranges in order, targets
	 * in the rank, each op's ndeps its incoming edges. */
	{
		uint64_t in = 0;
		for (size_t i = 0; i < n; i++) {
			ASSERT(w->ops[i].dep_begin <= (i + 1 < n ? w->ops[i + 1].dep_begin : nedges));
			in += w->ops[i].ndeps;
		}
		for (size_t k = 0; k < nedges; k++)
			ASSERT(GOAL_EDGE_OP(w->edges[k]) < n);
		ASSERT(in == nedges);
	}
#endif
	if (!w->labels_canonical && check_rank_labels(w, n, nedges))
		return -1;
	if (n && w->njobs && w->rank_job[r] == NO_JOB)
		return werr(w, "rank %" PRIu64 " has ops but is in no job", r);

	/* The rank's table entry, and its block: an earlier one with the same
	 * bytes, or a new one. */
	memset(&ent, 0, sizeof ent);
	ent.first_op = w->nops;
	ent.nedges = (uint32_t)nedges;
	if (!w->labels_canonical) {
		if (w->labels_len > UINT32_MAX)
			return werr(w, "rank %" PRIu64 ": labels exceed 4 GiB", r);
		ent.label_bytes = (uint32_t)w->labels_len;
		w->flags |= GOAL_F_LABELS;
	}
	if (n && put_block(w, &ent, n, nedges))
		return -1;
	if (ws_put(w, &w->table, &ent, sizeof ent))
		return -1;
	w->nops += n;
	w->nedges += nedges;
	if (n > w->max_rank_ops)
		w->max_rank_ops = (uint32_t)n;
	w->in_rank = 0;
	w->next_rank++;
	return 0;
}

static void writer_free(goal_writer *w)
{
	util_out_abort(&w->out);   /* nothing left to do once closed */
	free(w->path);
	free(w->table.buf);
	free(w->blocks.buf);
	free(w->ops);
	free(w->labels);
	free(w->deps);
	free(w->count);
	free(w->mark_req);
	free(w->mark_ireq);
	free(w->queue);
	free(w->label_ht);
	free(w->edges);
	free(w->edge_seq);
	free(w->comms);
	util_kmap_free(&w->comm_map);
	free(w->strides);
	free(w->jobs);
	free(w->job_ranks);
	free(w->rank_job);
	free(w->job_names);
	util_kmap_free(&w->job_map);
	free(w->blk);
	util_kmap_free(&w->share);
	free(w->bbuf);
	free(w);
}

void goal_writer_abort(goal_writer *w)
{
	if (w)
		writer_free(w);
}

int goal_writer_finish(goal_writer *w)
{
	struct {
		goal_header h;
		goal_comm_header c;
	} hc;
	goal_header *hp = &hc.h;
	goal_rank_entry sent;
	uint64_t comm_bytes = w->ncomms * sizeof *w->comms;
	uint64_t nst = w->nstrides, stride_bytes = nst ? 8 + nst * sizeof(goal_stride) : 0;
	uint64_t blk_bytes = w->nblk * sizeof *w->blk;
	uint64_t nj = w->njobs, jr_bytes = w->njob_ranks * 4, jn_bytes = w->job_names_len;
	uint64_t job_bytes = nj ? 8 + nj * sizeof(goal_job) + PAD8(jr_bytes) + PAD8(jn_bytes) : 0;

	if (w->failed)
		return -1;
	if (w->finished)
		return 0;
	if (w->in_rank || w->next_rank != w->nranks)
		return werr(w, "%" PRIu64 " of %" PRIu64 " ranks written", w->next_rank, w->nranks);
	if (job_has_ranks(w))
		return -1;
	memset(&sent, 0, sizeof sent);
	sent.first_op = w->nops;
	sent.block_off = w->blocks.off + w->blocks.len;
	if (ws_put(w, &w->table, &sent, sizeof sent)
	    || ws_put(w, &w->blocks, w->comms, comm_bytes)
	    || ws_zero(w, &w->blocks, (size_t)(PAD8(comm_bytes) - comm_bytes))
	    || ws_put(w, &w->blocks, w->blk, blk_bytes)
	    || (nst && (ws_put(w, &w->blocks, &nst, sizeof nst)
	                || ws_put(w, &w->blocks, w->strides, nst * sizeof(goal_stride))))
	    || (nj && (ws_put(w, &w->blocks, &nj, sizeof nj)
	               || ws_put(w, &w->blocks, w->jobs, nj * sizeof(goal_job))
	               || ws_put(w, &w->blocks, w->job_ranks, jr_bytes)
	               || ws_zero(w, &w->blocks, (size_t)(PAD8(jr_bytes) - jr_bytes))
	               || ws_put(w, &w->blocks, w->job_names, jn_bytes)
	               || ws_zero(w, &w->blocks, (size_t)(PAD8(jn_bytes) - jn_bytes)))))
		return -1;
	_Static_assert(sizeof hc == sizeof(goal_header) + sizeof(goal_comm_header), "no gap");
	memset(&hc, 0, sizeof hc);
	memcpy(hp->magic, GOAL_MAGIC, sizeof hp->magic);
	hp->version = GOAL_VERSION;
	hp->flags = w->flags | (nst ? GOAL_F_STRIDES : 0) | (nj ? GOAL_F_JOBS : 0);
	hp->nranks = w->nranks;
	hp->nops = w->nops;
	hp->nedges = w->nedges;
	hp->file_size = sent.block_off + PAD8(comm_bytes) + blk_bytes + stride_bytes + job_bytes;
	hp->ncpus = w->max_cpu + 1;
	hp->nnics = w->max_nic + 1;
	hp->op_size = sizeof(goal_op);
	hp->max_rank_ops = w->max_rank_ops;
	hc.c.comm_off = sent.block_off;
	hc.c.ncomms = (uint32_t)w->ncomms;
	hc.c.nblocks = (uint32_t)w->nblk;
	if (w->fd >= 0) {
		wstream hs = { (unsigned char *)&hc, sizeof hc, sizeof hc, 0 };
		if (ws_flush(w, &w->table) || ws_flush(w, &w->blocks) || ws_flush(w, &hs))
			return -1;
		if (ftruncate(w->fd, (off_t)hp->file_size) != 0)
			return werr(w, "%s: error: cannot truncate: %s", w->path, strerror(errno));
		w->fd = -1;
		if (util_out_close(&w->out, w->err, sizeof w->err)) {
			w->failed = 1;
			return -1;
		}
	}
	w->finished = 1;
	return 0;
}

int goal_writer_close(goal_writer *w)
{
	int rc = goal_writer_finish(w);
	writer_free(w);
	return rc;
}

