/* goal_format.c: the binary schedule format: streaming writer and
 * validating mmap reader (layout in goal.h and docs/binary-format.md). */
#include "goal.h"

#include "invariant.h"
#include "kind.h"
#include "kmap.h"
#include "out.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

const char *const goal_kind_name[GOAL_NKINDS] = {
#define GOAL_X_NAME(name, kw) kw,
	GOAL_OP_KINDS(GOAL_X_NAME)
#undef GOAL_X_NAME
};

#define PAD8(x) (((uint64_t)(x) + 7u) & ~(uint64_t)7u)

static void fmt_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void fmt_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* Is label (len bytes) the canonical label of op index i, "l<i+1>"?
 * Compares digits from the last: no formatting (one call per op). */
static int label_is_canonical(const char *label, size_t len, uint32_t i)
{
	uint32_t v = i + 1;
	if (len < 2 || label[0] != 'l' || label[1] == '0')
		return 0;
	while (--len) {
		if (!v || label[len] != (char)('0' + v % 10))
			return 0;
		v /= 10;
	}
	return v == 0;
}

static int label_char(int c, int first)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'
		|| (!first && c >= '0' && c <= '9');
}

/* The GOAL keywords a label cannot be (docs/goal.md: "to", "from", "tag",
 * "cpu", "nic" and "comm" can). */
static const char *const label_keywords[] = {
	"num_ranks", "rank", "send", "recv", "calc", "requires", "irequires",
};

/* Slots of the label hash table for a rank of n ops: a power of two >= 2n. */
static uint64_t label_slots(uint64_t n)
{
	uint64_t k = 16;
	while (k < 2 * n)
		k *= 2;
	return k;
}

/* Can the labels of a rank with a label blob be written as GOAL text that
 * compiles back to the same rank (goal_dump)?  blob holds the n labels of
 * the rank ("" = unlabeled), ops and nedges are the rank's.  Yes when every
 * label is no GOAL keyword, no two labels are equal, every op that has a
 * dependency or a dependent has a label, and some label is not canonical
 * (a rank of canonical labels has no blob).  ht is scratch of
 * label_slots(n) entries.  Returns 0, or -1 with the reason in msg.  O(label
 * bytes), one hash per label. */
static int labels_check(const char *blob, uint32_t n, const goal_op *ops, uint32_t nedges,
                        uint32_t *ht, char *msg, size_t msglen)
{
	uint64_t mask = label_slots(n) - 1;
	int canonical = 1;
	const char *l = blob;
	memset(ht, 0xff, (mask + 1) * sizeof *ht);
	for (uint32_t i = 0; i < n; l += strlen(l) + 1, i++) {
		size_t len = strlen(l);
		uint32_t end = i + 1 < n ? ops[i + 1].dep_begin : nedges;
		if (!len) {
			if (ops[i].ndeps || ops[i].dep_begin != end) {
				fmt_err(msg, msglen, "op %" PRIu32 " is in a dependency but has no label,"
				        " and the labels of its rank are not l1, l2, ...", i);
				return -1;
			}
			continue;
		}
		if (!label_is_canonical(l, len, i))
			canonical = 0;
		for (size_t k = 0; k < sizeof label_keywords / sizeof *label_keywords; k++)
			if (strcmp(l, label_keywords[k]) == 0) {
				fmt_err(msg, msglen, "op %" PRIu32 " has the label '%s', a GOAL keyword", i, l);
				return -1;
			}
		uint64_t h;
		for (h = util_hash(l, len) & mask; ht[h] != UINT32_MAX; h = (h + 1) & mask) {
			const char *o = blob + ht[h];
			if (strcmp(o, l) == 0) {
				uint32_t j = 0;
				for (const char *p = blob; p < o; p += strlen(p) + 1)
					j++;
				fmt_err(msg, msglen, "ops %" PRIu32 " and %" PRIu32 " have the same label '%.64s'",
				        j, i, l);
				return -1;
			}
		}
		ht[h] = (uint32_t)(l - blob);
	}
	if (canonical) {
		fmt_err(msg, msglen, "a label blob of canonical labels only (l1, l2, ...)");
		return -1;
	}
	return 0;
}

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
	fmt_err(err, errlen, "error: out of memory");
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

int goal_writer_rank_begin(goal_writer *w)
{
	if (w->failed)
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
	if (labels_check(w->labels, (uint32_t)n, w->ops, (uint32_t)nedges, w->label_ht, msg, sizeof msg))
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

	if (w->failed)
		return -1;
	if (w->finished)
		return 0;
	if (w->in_rank || w->next_rank != w->nranks)
		return werr(w, "%" PRIu64 " of %" PRIu64 " ranks written", w->next_rank, w->nranks);
	memset(&sent, 0, sizeof sent);
	sent.first_op = w->nops;
	sent.block_off = w->blocks.off + w->blocks.len;
	if (ws_put(w, &w->table, &sent, sizeof sent)
	    || ws_put(w, &w->blocks, w->comms, comm_bytes)
	    || ws_zero(w, &w->blocks, (size_t)(PAD8(comm_bytes) - comm_bytes))
	    || ws_put(w, &w->blocks, w->blk, blk_bytes)
	    || (nst && (ws_put(w, &w->blocks, &nst, sizeof nst)
	                || ws_put(w, &w->blocks, w->strides, nst * sizeof(goal_stride)))))
		return -1;
	_Static_assert(sizeof hc == sizeof(goal_header) + sizeof(goal_comm_header), "no gap");
	memset(&hc, 0, sizeof hc);
	memcpy(hp->magic, GOAL_MAGIC, sizeof hp->magic);
	hp->version = GOAL_VERSION;
	hp->flags = w->flags | (nst ? GOAL_F_STRIDES : 0);
	hp->nranks = w->nranks;
	hp->nops = w->nops;
	hp->nedges = w->nedges;
	hp->file_size = sent.block_off + PAD8(comm_bytes) + blk_bytes + stride_bytes;
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

/* ---- Reader ------------------------------------------------------------ */

/* Check the fields of rank r's ops: kinds, comm indices (first used in
 * order), cpus, nics, peers, tags and edge ranges; used[] gets the cpus,
 * nics and comms used so far.  Returns 0, or -1 with a message in err. */
static int check_ops(const goal_sched *s, uint64_t r, uint32_t used[3], char *err, size_t errlen)
{
	uint32_t n = goal_rank_nops(s, r);
	const goal_op *ops = goal_rank_ops(s, r);
	uint32_t ne = s->ranks[r].nedges;
	for (uint32_t i = 0; i < n; i++) {
		const goal_op *o = &ops[i];
		uint32_t end = i + 1 < n ? ops[i + 1].dep_begin : ne;
		uint32_t c = goal_op_comm(o);
		if (o->kind >= GOAL_NKINDS) {
			fmt_err(err, errlen, "rank %" PRIu64 " op %" PRIu32 ": bad kind", r, i);
			return -1;
		}
		if (c > used[2] || c >= s->ncomms) {
			fmt_err(err, errlen, "rank %" PRIu64 " op %" PRIu32 ": comm index %" PRIu32
			        " is %s (the table has %" PRIu32 ", first used in order)", r, i, c,
			        c >= s->ncomms ? "out of range" : "out of order", s->ncomms);
			return -1;
		}
		if (c == used[2])
			used[2]++;
		if (o->cpu >= s->ncpus || o->nic >= s->nnics) {
			fmt_err(err, errlen, "rank %" PRIu64 " op %" PRIu32 ": cpu %u or nic %u out of range", r, i, o->cpu, o->nic);
			return -1;
		}
		if (o->cpu >= used[0])
			used[0] = o->cpu + 1u;
		if (o->nic >= used[1])
			used[1] = o->nic + 1u;
		if (o->kind == GOAL_CALC) {
			if (o->peer || o->tag || o->nic || c) {
				fmt_err(err, errlen, "rank %" PRIu64 " op %" PRIu32 ": calc with peer, tag, nic or comm", r, i);
				return -1;
			}
		} else if ((o->peer >= s->nranks && !(o->kind == GOAL_RECV && o->peer == GOAL_ANY_SOURCE))
		           || o->tag < GOAL_ANY_TAG) {
			fmt_err(err, errlen, "rank %" PRIu64 " op %" PRIu32 ": peer %" PRIu32 " or tag %" PRId32 " out of range",
			        r, i, o->peer, o->tag);
			return -1;
		}
		if ((i == 0 && o->dep_begin != 0) || o->dep_begin > end || end > ne) {
			fmt_err(err, errlen, "rank %" PRIu64 " op %" PRIu32 ": edge range out of bounds", r, i);
			return -1;
		}
		if (!ne && o->ndeps) {
			fmt_err(err, errlen, "rank %" PRIu64 " op %" PRIu32 ": dependency count %" PRIu32 " does not match its 0 edges",
			        r, i, o->ndeps);
			return -1;
		}
	}
	return 0;
}

/* Check the edges of rank r (it has some): targets in the rank, each op's
 * ndeps its incoming edges, no cycle (Kahn's algorithm, in indeg[] and
 * queue[]), zero padding.  Returns 0, or -1 with a message in err. */
static int check_edges(const goal_sched *s, uint64_t r, uint32_t *indeg, uint32_t *queue,
                       char *err, size_t errlen)
{
	uint32_t n = goal_rank_nops(s, r);
	const goal_op *ops = goal_rank_ops(s, r);
	const goal_edge *edges = goal_rank_edges(s, r);
	uint32_t ne = s->ranks[r].nedges;
	uint32_t head = 0, tail = 0;
	for (uint32_t i = 0; i < n; i++)
		indeg[i] = 0;
	for (uint32_t k = 0; k < ne; k++) {
		uint32_t a = GOAL_EDGE_OP(edges[k]);
		if (a >= n) {
			fmt_err(err, errlen, "rank %" PRIu64 " edge %" PRIu32 ": op %" PRIu32 " out of range", r, k, a);
			return -1;
		}
		indeg[a]++;
	}
	for (uint32_t i = 0; i < n; i++) {
		if (indeg[i] != ops[i].ndeps) {
			fmt_err(err, errlen, "rank %" PRIu64 " op %" PRIu32 ": dependency count %" PRIu32 " does not match its %" PRIu32 " edges",
			        r, i, ops[i].ndeps, indeg[i]);
			return -1;
		}
		if (!indeg[i])
			queue[tail++] = i;
	}
	while (head < tail) {
		uint32_t b = queue[head++];
		uint32_t end = b + 1 < n ? ops[b + 1].dep_begin : ne;
		for (uint32_t k = ops[b].dep_begin; k < end; k++) {
			uint32_t a = GOAL_EDGE_OP(edges[k]);
			if (--indeg[a] == 0)
				queue[tail++] = a;
		}
	}
	if (tail != n) {
		fmt_err(err, errlen, "rank %" PRIu64 ": dependency cycle", r);
		return -1;
	}
	const unsigned char *p = (const unsigned char *)(edges + ne);
	const unsigned char *end = p + (PAD8((uint64_t)ne * 4) - (uint64_t)ne * 4);
	for (; p < end; p++)
		if (*p) {
			fmt_err(err, errlen, "rank %" PRIu64 ": non-zero padding", r);
			return -1;
		}
	return 0;
}

/* Check the label blob of rank r (it has one): terminated, valid
 * characters, one label per op, zero padding, and what labels_check
 * checks.  Returns 0, or -1 with a message in err. */
static int check_label_blob(const goal_sched *s, uint64_t r, uint32_t *label_ht,
                            char *err, size_t errlen)
{
	const goal_rank_entry *e = &s->ranks[r];
	uint32_t n = goal_rank_nops(s, r);
	const goal_op *ops = goal_rank_ops(s, r);
	uint32_t ne = e->nedges;
	const char *l = (const char *)(s->base + e->block_off + (uint64_t)n * sizeof(goal_op)
	                               + PAD8((uint64_t)ne * 4));
	uint32_t count = 0, first = 1;
	if (l[e->label_bytes - 1] != '\0') {
		fmt_err(err, errlen, "rank %" PRIu64 ": label blob not terminated", r);
		return -1;
	}
	for (uint32_t k = 0; k < e->label_bytes; k++) {
		int c = (unsigned char)l[k];
		if (!c) {
			count++;
			first = 1;
		} else if (!label_char(c, first)) {
			fmt_err(err, errlen, "rank %" PRIu64 ": invalid character in a label", r);
			return -1;
		} else {
			first = 0;
		}
	}
	if (count != n) {
		fmt_err(err, errlen, "rank %" PRIu64 ": %" PRIu32 " labels for %" PRIu32 " ops", r, count, n);
		return -1;
	}
	for (uint64_t k = e->label_bytes; k < PAD8(e->label_bytes); k++)
		if (l[k]) {
			fmt_err(err, errlen, "rank %" PRIu64 ": non-zero padding", r);
			return -1;
		}
	char msg[256];
	if (labels_check(l, n, ops, ne, label_ht, msg, sizeof msg)) {
		fmt_err(err, errlen, "rank %" PRIu64 ": %s", r, msg);
		return -1;
	}
	return 0;
}

/* Validate one rank's block.  indeg and queue have max_rank_ops entries,
 * label_ht label_slots(max_rank_ops) (when the rank has a label blob).
 * Raises used[0] and used[1] to the CPUs and NICs its ops use (largest
 * index + 1), and used[2] to the comm indices (largest + 1): an op's index
 * is one used before or the next new one (first-use order). */
static int check_rank(const goal_sched *s, uint64_t r, uint32_t *indeg,
                      uint32_t *queue, uint32_t *label_ht, uint32_t used[3],
                      char *err, size_t errlen)
{
	if (check_ops(s, r, used, err, errlen))
		return -1;
	/* No edges: nothing to count, no cycle. */
	if (s->ranks[r].nedges && check_edges(s, r, indeg, queue, err, errlen))
		return -1;
	if (s->ranks[r].label_bytes && check_label_blob(s, r, label_ht, err, errlen))
		return -1;
	return 0;
}

/* The comm table of a version-1 file. */
static const uint32_t comm_zero[1] = { 0 };

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

/* Check the comm table of a version-2 or 3 file (where the rank blocks
 * end, at off, which is at most the file's size): in place, entry 0 is 0,
 * the values distinct and at most GOAL_MAX_COMM, padding zero; set
 * s->comms, and in version 3 s->blocks to the block table after it (its
 * entries are checked with the rank table).  0 or -1. */
static int check_comms(goal_sched *s, uint64_t off, char *err, size_t errlen)
{
	const goal_comm_header *c = (const goal_comm_header *)(const void *)(s->base + sizeof(goal_header));
	uint64_t bytes = (uint64_t)c->ncomms * 4, rest = s->size - off;
	uint64_t blk = s->version >= 3 ? (uint64_t)c->nblocks * sizeof(goal_block_entry) : 0;
	uint32_t *sorted;
	/* The file ends with the tables, or with the stride table after them. */
	int more = !!(s->hdr->flags & GOAL_F_STRIDES);
	if (c->comm_off != off || (s->version < 3 && c->nblocks)
	    || c->ncomms == 0 || c->ncomms > GOAL_MAX_COMMS
	    || PAD8(bytes) + blk > rest || (!more && PAD8(bytes) + blk != rest)) {
		fmt_err(err, errlen, "the comm table is out of place or of a wrong size");
		return -1;
	}
	s->comms = (const uint32_t *)(const void *)(s->base + off);
	s->ncomms = c->ncomms;
	s->blocks = (const goal_block_entry *)(const void *)(s->base + off + PAD8(bytes));
	s->nblocks = s->version >= 3 ? c->nblocks : 0;
	for (uint64_t k = bytes; k < PAD8(bytes); k++)
		if (s->base[off + k]) {
			fmt_err(err, errlen, "comm table: non-zero padding");
			return -1;
		}
	if (s->comms[0] != 0) {
		fmt_err(err, errlen, "comm table: entry 0 is %" PRIu32 ", not 0", s->comms[0]);
		return -1;
	}
	if (!(sorted = malloc(bytes))) {
		fmt_err(err, errlen, "out of memory");
		return -1;
	}
	memcpy(sorted, s->comms, bytes);
	qsort(sorted, c->ncomms, sizeof *sorted, cmp_u32);
	for (uint32_t k = 0; k < c->ncomms; k++)
		if ((k && sorted[k] == sorted[k - 1]) || sorted[k] > GOAL_MAX_COMM) {
			fmt_err(err, errlen, "comm table: comm %" PRIu32 " %s", sorted[k],
			        sorted[k] > GOAL_MAX_COMM ? "is out of range" : "appears twice");
			free(sorted);
			return -1;
		}
	free(sorted);
	return 0;
}

/* Check the stride table that starts at off (GOAL_F_STRIDES) and ends the
 * file: a count of at least 1, entries in increasing op order, each a send
 * or recv with 1 <= block <= stride <= GOAL_MAX_STRIDE; set s->strides.
 * One pass over the entries and the rank table.  0 or -1. */
static int check_strides(goal_sched *s, uint64_t off, char *err, size_t errlen)
{
	uint64_t n, r = 0;
	if (s->size - off < 8) {
		fmt_err(err, errlen, "the stride table is out of place or of a wrong size");
		return -1;
	}
	memcpy(&n, s->base + off, sizeof n);
	if (n == 0 || n > (s->size - off - 8) / sizeof(goal_stride)
	    || 8 + n * sizeof(goal_stride) != s->size - off) {
		fmt_err(err, errlen, "the stride table is out of place or of a wrong size");
		return -1;
	}
	s->strides = (const goal_stride *)(const void *)(s->base + off + 8);
	s->nstrides = n;
	for (uint64_t k = 0; k < n; k++) {
		const goal_stride *e = &s->strides[k];
		if (e->op >= s->nops || (k && e->op <= s->strides[k - 1].op)) {
			fmt_err(err, errlen, "stride table: entry %" PRIu64 " names op %" PRIu64
			        " (ops increase, below %" PRIu64 ")", k, e->op, s->nops);
			return -1;
		}
		while (s->ranks[r + 1].first_op <= e->op)
			r++;
		uint32_t i = (uint32_t)(e->op - s->ranks[r].first_op);
		if (goal_rank_ops(s, r)[i].kind == GOAL_CALC) {
			fmt_err(err, errlen, "stride table: rank %" PRIu64 " op %" PRIu32 " is a calc", r, i);
			return -1;
		}
		if (e->block == 0 || e->block > e->stride || e->stride > GOAL_MAX_STRIDE) {
			fmt_err(err, errlen, "stride table: rank %" PRIu64 " op %" PRIu32 " has stride %" PRIu32
			        " and block %" PRIu32 " (1 <= block <= stride <= %u)", r, i, e->stride,
			        e->block, GOAL_MAX_STRIDE);
			return -1;
		}
	}
	return 0;
}

const goal_stride *goal_op_stride(const goal_sched *s, uint64_t g)
{
	uint64_t lo = 0, hi = s->nstrides;
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		if (s->strides[mid].op < g)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->nstrides && s->strides[lo].op == g ? &s->strides[lo] : NULL;
}

/* The bytes of the block of rank entry e with n ops. */
static uint64_t block_bytes(const goal_rank_entry *e, uint64_t n)
{
	return n * sizeof(goal_op) + PAD8((uint64_t)e->nedges * 4) + PAD8(e->label_bytes);
}

/* check_rank for the ranks lo .. hi - 1 that bring a new block, the first
 * at offset next (a rank of version 3 whose block an earlier rank brought
 * is not checked again), raising used[].  Scratch for counting and
 * ordering, allocated at the first rank with edges (and with labels):
 * O(largest rank), never O(file).  0, or -1 with the first failing rank's
 * message in err. */
static int check_ranks(const goal_sched *s, uint64_t lo, uint64_t hi, uint64_t next,
                       uint64_t max_ops, uint32_t used[3], char *err, size_t errlen)
{
	uint32_t *indeg = NULL, *queue = NULL, *label_ht = NULL;
	int rc = -1;
	for (uint64_t r = lo; r < hi; r++) {
		if (s->ranks[r].block_off != next)
			continue;
		next += block_bytes(&s->ranks[r], goal_rank_nops(s, r));
		if (s->ranks[r].nedges && !indeg) {
			indeg = malloc((max_ops ? max_ops : 1) * sizeof *indeg);
			queue = malloc((max_ops ? max_ops : 1) * sizeof *queue);
			if (!indeg || !queue) {
				fmt_err(err, errlen, "out of memory");
				goto out;
			}
		}
		if (s->ranks[r].label_bytes && !label_ht
		    && !(label_ht = malloc(label_slots(max_ops) * sizeof *label_ht))) {
			fmt_err(err, errlen, "out of memory");
			goto out;
		}
		if (check_rank(s, r, indeg, queue, label_ht, used, err, errlen))
			goto out;
	}
	rc = 0;
out:
	free(indeg);
	free(queue);
	free(label_ht);
	return rc;
}

/* The ranks of a large schedule are checked in two halves (by ops), the
 * second by a thread of its own: reading a file of gigabytes once takes
 * much of the time to open it.  Only with one comm: the comm indices must
 * come in first-use order over all ranks, which one pass in order checks. */
#define CHECK_SPLIT_OPS ((uint64_t)1 << 22)

typedef struct check_half {
	const goal_sched *s;
	uint64_t lo, hi, next, max_ops;
	uint32_t used[3];
	int rc;
	char err[512];
} check_half;

static void *check_half_main(void *arg)
{
	check_half *c = arg;
	c->rc = check_ranks(c->s, c->lo, c->hi, c->next, c->max_ops, c->used, c->err, sizeof c->err);
	return NULL;
}

/* The first rank of the second half of a large schedule (nranks: no
 * split).  Read before the rank table is checked: any value is safe. */
static uint64_t split_rank(const goal_sched *s)
{
	uint64_t lo = 0, hi = s->nranks;
	if (s->nops < CHECK_SPLIT_OPS)
		return s->nranks;
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		if (s->ranks[mid].first_op < s->nops / 2)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* check_ranks over all ranks, whose first block is at next, in two halves
 * at once when the schedule is large (from rank lo, whose next new block
 * is at lo_next); the same result and message as one pass in order. */
static int check_all_ranks(const goal_sched *s, uint64_t next, uint64_t lo, uint64_t lo_next,
                           uint64_t max_ops, uint32_t used[3], char *err, size_t errlen)
{
	check_half c = { s, lo, s->nranks, lo_next, max_ops, { 1, 1, 1 }, 0, "" };
	pthread_t t;
	int split = s->ncomms == 1 && lo > 0 && lo < s->nranks
	            && pthread_create(&t, NULL, check_half_main, &c) == 0;
	int rc = check_ranks(s, 0, split ? lo : s->nranks, next, max_ops, used, err, errlen);
	if (split) {
		pthread_join(t, NULL);
		if (!rc && c.rc) {
			snprintf(err, errlen, "%s", c.err);
			rc = -1;
		}
		for (int k = 0; k < 3; k++)
			if (c.used[k] > used[k])
				used[k] = c.used[k];
	}
	return rc;
}

/* Version 3: the block at offset off, which a rank names: the next block
 * of the table (*seen of them named so far; it becomes named, *fresh 1),
 * or one named before (*fresh 0); NULL when off is neither. */
static const goal_block_entry *rank_block(const goal_sched *s, uint64_t off, uint64_t *seen,
                                          int *fresh)
{
	uint64_t lo = 0, hi = *seen;
	*fresh = *seen < s->nblocks && off == s->blocks[*seen].off;
	if (*fresh)
		return &s->blocks[(*seen)++];
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		if (s->blocks[mid].off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < *seen && s->blocks[lo].off == off ? &s->blocks[lo] : NULL;
}

/* Check the header of s: magic number, version, layout, sizes and counts;
 * the rank table's offset in *table_off, its end in *table_end.  Returns
 * 0, or -1 with a message in err. */
static int check_header(const goal_sched *s, uint64_t *table_off, uint64_t *table_end,
                        char *err, size_t errlen)
{
	const goal_header *h;
	if (s->size < 8 || memcmp(s->base, GOAL_MAGIC, 8) != 0) {
		util_kind k = util_kind_of((const char *)s->base, s->size < UTIL_KIND_HEAD ? (size_t)s->size : UTIL_KIND_HEAD);
		if (k != UTIL_KIND_NONE)
			fmt_err(err, errlen, "not a binary GOAL schedule: this is %s", util_kind_what(k));
		else
			fmt_err(err, errlen, "not a binary GOAL schedule (bad magic number)");
		return -1;
	}
	if (s->size < sizeof(goal_header)) {
		fmt_err(err, errlen, "truncated: %" PRIu64 " bytes is shorter than the header", s->size);
		return -1;
	}
	h = (const goal_header *)(const void *)s->base;
	if (h->version < 1 || h->version > 3) {
		fmt_err(err, errlen, "format version %" PRIu32 " is not supported (this build reads versions 1, 2 and 3)",
		        h->version);
		return -1;
	}
	*table_off = sizeof(goal_header) + (h->version >= 2 ? sizeof(goal_comm_header) : 0);
	if (s->size < *table_off) {
		fmt_err(err, errlen, "truncated: %" PRIu64 " bytes is shorter than the header", s->size);
		return -1;
	}
	if (h->flags & ~GOAL_F_KNOWN) {
		fmt_err(err, errlen, "unknown layout flags 0x%" PRIx32, h->flags & ~GOAL_F_KNOWN);
		return -1;
	}
	if (h->op_size != sizeof(goal_op)) {
		fmt_err(err, errlen, "op records of %" PRIu32 " bytes are not supported", h->op_size);
		return -1;
	}
	if (h->file_size != s->size) {
		fmt_err(err, errlen, "truncated or extended: the file has %" PRIu64 " bytes, its header says %" PRIu64,
		        s->size, h->file_size);
		return -1;
	}
	if (h->nranks == 0 || h->nranks > GOAL_MAX_RANKS || h->ncpus == 0 || h->ncpus > GOAL_MAX_INDEX + 1
	    || h->nnics == 0 || h->nnics > GOAL_MAX_INDEX + 1 || h->max_rank_ops > GOAL_MAX_RANK_OPS) {
		fmt_err(err, errlen, "header counts out of range");
		return -1;
	}
	*table_end = *table_off + (h->nranks + 1) * sizeof(goal_rank_entry);
	if (*table_end > s->size) {
		fmt_err(err, errlen, "truncated: the rank table ends past the end of the file");
		return -1;
	}
	return 0;
}

/* The walk of the rank table, rank by rank. */
typedef struct table_walk {
	uint64_t off;       /* where the next new block must start */
	uint64_t end;       /* where the blocks end */
	uint64_t first;     /* the first op of the next rank */
	uint64_t edges;     /* the edges of the ranks so far */
	uint64_t seen;      /* version 3: the blocks of the block table named so far */
	uint64_t max_ops;   /* the most ops of a rank so far */
	int any_labels;     /* a rank so far has a label blob */
} table_walk;

/* Check the table entry of rank r against the walk so far, and add it.
 * Returns 0, or -1 with a message in err. */
static int walk_rank(const goal_sched *s, uint64_t r, table_walk *w, char *err, size_t errlen)
{
	const goal_header *h = s->hdr;
	const goal_rank_entry *e = &s->ranks[r], *nx = e + 1;
	const goal_block_entry *b = NULL;
	uint64_t n, size;
	int fresh = 1;      /* the rank brings a new block */
	if (h->version >= 3 && nx->first_op == w->first) {
		/* no ops, no block */
		if (e->first_op != w->first || e->block_off || e->nedges || e->label_bytes) {
			fmt_err(err, errlen, "rank %" PRIu64 ": rank table entry out of place", r);
			return -1;
		}
		return 0;
	}
	if (h->version >= 3) {
		if (!(b = rank_block(s, e->block_off, &w->seen, &fresh))) {
			fmt_err(err, errlen, "rank %" PRIu64 ": rank table entry names no block", r);
			return -1;
		}
	}
	if (e->first_op != w->first || (!b && e->block_off != w->off) || nx->first_op < w->first
	    || nx->first_op - w->first > h->max_rank_ops) {
		fmt_err(err, errlen, "rank %" PRIu64 ": rank table entry out of place", r);
		return -1;
	}
	n = nx->first_op - w->first;
	if (n > w->max_ops)
		w->max_ops = n;
	if (b && (b->nops != n || b->nedges != e->nedges || b->label_bytes != e->label_bytes
	          || b->zero)) {
		fmt_err(err, errlen, "rank %" PRIu64 ": rank table entry does not match its block", r);
		return -1;
	}
	if (e->label_bytes)
		w->any_labels = 1;
	w->first += n;
	w->edges += e->nedges;
	if (!fresh)
		return 0;           /* a block an earlier rank brought */
	size = block_bytes(e, n);
	if (e->block_off != w->off) {
		fmt_err(err, errlen, "block %" PRIu64 " (rank %" PRIu64 "): out of place", w->seen - 1, r);
		return -1;
	}
	if (size > w->end - w->off) {
		fmt_err(err, errlen, "truncated: rank %" PRIu64 " ends past the end of the file", r);
		return -1;
	}
	w->off += size;
	return 0;
}

/* The table: blocks contiguous, counts consistent; in version 3 a rank
 * brings the next block of the block table or names one an earlier rank
 * brought, with its counts.  The blocks start at table_end; the next new
 * block at rank lo goes to *lo_next.  Returns 0, or -1 with a message in
 * err. */
static int walk_table(const goal_sched *s, uint64_t table_end, uint64_t lo, table_walk *w,
                      uint64_t *lo_next, char *err, size_t errlen)
{
	const goal_header *h = s->hdr;
	w->off = table_end;
	/* Blocks end at the comm table (version 3: known by now). */
	w->end = h->version >= 3 ? (uint64_t)((const unsigned char *)s->comms - s->base) : s->size;
	for (uint64_t r = 0; r < s->nranks; r++) {
		if (r == lo)
			*lo_next = w->off;
		if (walk_rank(s, r, w, err, errlen))
			return -1;
	}
	if (w->seen != s->nblocks) {
		fmt_err(err, errlen, "the block table has %" PRIu64 " entries, the ranks use %" PRIu64,
		        s->nblocks, w->seen);
		return -1;
	}
	const goal_rank_entry *sn = &s->ranks[s->nranks];
	if (sn->first_op != h->nops || w->first != h->nops || sn->block_off != w->off
	    || (h->version != 2 && w->off != w->end)
	    || sn->nedges || sn->label_bytes || w->edges != h->nedges || w->max_ops != h->max_rank_ops) {
		fmt_err(err, errlen, "totals in the header and rank table do not match the blocks");
		return -1;
	}
	return 0;
}

static int validate(goal_sched *s, char *err, size_t errlen)
{
	const goal_header *h;
	uint64_t table_off, table_end, off, lo, lo_next = 0;
	uint32_t used[3] = { 1, 1, 1 };
	table_walk w;

	if (check_header(s, &table_off, &table_end, err, errlen))
		return -1;
	h = (const goal_header *)(const void *)s->base;
	s->hdr = h;
	s->ranks = (const goal_rank_entry *)(const void *)(s->base + table_off);
	s->version = h->version;
	s->rel_peers = h->version >= 3;
	s->comms = comm_zero;
	s->ncomms = 1;
	s->nranks = h->nranks;
	s->nops = h->nops;
	s->nedges = h->nedges;
	s->ncpus = h->ncpus;
	s->nnics = h->nnics;
	s->max_rank_ops = h->max_rank_ops;

	/* Version 3: the comm and block tables first, the rank table needs
	 * the block table. */
	if (h->version >= 3) {
		const goal_comm_header *c = (const goal_comm_header *)(const void *)(s->base + sizeof(goal_header));
		/* Where the blocks end: a multiple of 8, so that the comm and
		 * block tables are read aligned. */
		if (c->comm_off < table_end || c->comm_off > s->size || c->comm_off % 8) {
			fmt_err(err, errlen, "the comm table is out of place or of a wrong size");
			return -1;
		}
		if (check_comms(s, c->comm_off, err, errlen))
			return -1;
	}
	lo = split_rank(s);

	memset(&w, 0, sizeof w);
	if (walk_table(s, table_end, lo, &w, &lo_next, err, errlen))
		return -1;
	off = w.off;
	if (h->version == 1 && (h->flags & GOAL_F_STRIDES)) {
		fmt_err(err, errlen, "a version-1 file has no stride table");
		return -1;
	}
	if (h->version == 2 && check_comms(s, off, err, errlen))
		return -1;

	if ((h->flags & GOAL_F_STRIDES)
	    && check_strides(s, off + PAD8((uint64_t)s->ncomms * 4) + s->nblocks * sizeof(goal_block_entry),
	                     err, errlen))
		return -1;
	if (w.any_labels != !!(h->flags & GOAL_F_LABELS)) {
		fmt_err(err, errlen, "label flag does not match the label blobs");
		return -1;
	}
	if (check_all_ranks(s, table_end, lo, lo_next, w.max_ops, used, err, errlen))
		return -1;
	/* Memory per rank follows the header's counts: they must be the ones
	 * the ops use. */
	if (used[0] != s->ncpus || used[1] != s->nnics) {
		fmt_err(err, errlen, "the header says %" PRIu32 " CPUs and %" PRIu32 " NICs per rank,"
		        " the ops use %" PRIu32 " and %" PRIu32, s->ncpus, s->nnics, used[0], used[1]);
		return -1;
	}
	if (used[2] != s->ncomms) {
		fmt_err(err, errlen, "the comm table has %" PRIu32 " entries, the ops use %" PRIu32,
		        s->ncomms, used[2]);
		return -1;
	}
	return 0;
}

int goal_sched_from_buffer(goal_sched *s, const void *buf, uint64_t len,
                           char *err, size_t errlen)
{
	memset(s, 0, sizeof *s);
	s->base = buf;
	s->size = len;
	if (((uintptr_t)buf & 7u) != 0) {
		fmt_err(err, errlen, "buffer not 8-byte aligned");
		return -1;
	}
	if (validate(s, err, errlen)) {
		memset(s, 0, sizeof *s);
		return -1;
	}
	return 0;
}

int goal_sched_open(goal_sched *s, const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	memset(s, 0, sizeof *s);
	if (fd < 0) {
		fmt_err(err, errlen, "%s: error: cannot open: %s", path, strerror(errno));
		return -1;
	}
	int rc = goal_sched_open_fd(s, fd, path, err, errlen);
	close(fd);
	return rc;
}

int goal_sched_open_fd(goal_sched *s, int fd, const char *name, char *err, size_t errlen)
{
	struct stat st;
	void *p;
	char msg[400];

	memset(s, 0, sizeof *s);
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		fmt_err(err, errlen, "%s: error: not a regular file", name);
		return -1;
	}
	if (st.st_size == 0) {
		fmt_err(err, errlen, "%s: error: truncated: the file is empty", name);
		return -1;
	}
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED) {
		fmt_err(err, errlen, "%s: error: cannot map: %s", name, strerror(errno));
		return -1;
	}
#ifdef MADV_HUGEPAGE
	madvise(p, (size_t)st.st_size, MADV_HUGEPAGE);
#endif
	s->base = p;
	s->size = (uint64_t)st.st_size;
	s->mapped = 1;
	if (validate(s, msg, sizeof msg)) {
		fmt_err(err, errlen, "%s: error: %s", name, msg);
		munmap(p, (size_t)st.st_size);
		memset(s, 0, sizeof *s);
		return -1;
	}
	return 0;
}

void goal_sched_close(goal_sched *s)
{
	if (s->mapped && s->base)
		munmap((void *)(uintptr_t)s->base, (size_t)s->size);
	memset(s, 0, sizeof *s);
}

const char *goal_rank_labels(const goal_sched *s, uint64_t r)
{
	const goal_rank_entry *e = &s->ranks[r];
	if (!e->label_bytes)
		return NULL;
	return (const char *)(s->base + e->block_off + (uint64_t)goal_rank_nops(s, r) * sizeof(goal_op)
	                      + PAD8((uint64_t)e->nedges * 4));
}

const char *goal_op_label(const goal_sched *s, uint64_t r, uint32_t i,
                          char *buf, size_t n)
{
	const char *l = goal_rank_labels(s, r);
	if (!l) {
		snprintf(buf, n, "l%" PRIu32, i + 1);
		return buf;
	}
	for (uint32_t k = 0; k < i; k++)
		l += strlen(l) + 1;
	return l;
}
