/* goal_format.c: the binary schedule format's validating mmap reader
 * (layout in goal.h and docs/binary-format.md); the writer is in
 * goal_writer.c. */
#include "goal.h"
#include "goal_format_int.h"

#include "kind.h"
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

void goal_fmt_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* The GOAL keywords a label cannot be (docs/goal.md: "to", "from", "tag",
 * "cpu", "nic" and "comm" can). */
static const char *const label_keywords[] = {
	"num_ranks", "rank", "send", "recv", "calc", "requires", "irequires",
};

/* The keyword l[0..len) is, or NULL. */
static const char *keyword(const char *l, size_t len)
{
	for (size_t k = 0; k < sizeof label_keywords / sizeof *label_keywords; k++)
		if (strlen(label_keywords[k]) == len && memcmp(l, label_keywords[k], len) == 0)
			return label_keywords[k];
	return NULL;
}

int goal_name_check(const char *name, size_t len, char *msg, size_t msglen)
{
	int ok = len >= 1 && len <= GOAL_MAX_NAME;
	for (size_t i = 0; ok && i < len; i++)
		ok = label_char((unsigned char)name[i], i == 0);
	if (!ok) {
		goal_fmt_err(msg, msglen, "'%.*s' is not a label (1 to %u letters, digits and _, not"
		             " starting with a digit)", (int)(len < 64 ? len : 64), name, GOAL_MAX_NAME);
		return -1;
	}
	if (keyword(name, len)) {
		goal_fmt_err(msg, msglen, "'%s' is a GOAL keyword", keyword(name, len));
		return -1;
	}
	return 0;
}

int goal_labels_check(const char *blob, uint32_t n, const goal_op *ops, uint32_t nedges,
                      uint32_t *ht, char *msg, size_t msglen)
{
	uint64_t mask = label_slots(n) - 1;
	int canonical = 1;
	const char *l = blob;
	memset(ht, 0xff, (mask + 1) * sizeof *ht);
	for (uint32_t i = 0, len; i < n; l += len + 1, i++) {
		len = (uint32_t)strlen(l);
		uint32_t end = i + 1 < n ? ops[i + 1].dep_begin : nedges;
		if (!len) {
			if (ops[i].ndeps || ops[i].dep_begin != end) {
				goal_fmt_err(msg, msglen, "op %" PRIu32 " is in a dependency but has no label,"
				        " and the labels of its rank are not l1, l2, ...", i);
				return -1;
			}
			continue;
		}
		if (!label_is_canonical(l, len, i))
			canonical = 0;
		if (keyword(l, len)) {
			goal_fmt_err(msg, msglen, "op %" PRIu32 " has the label '%s', a GOAL keyword", i, l);
			return -1;
		}
		uint64_t h;
		for (h = util_hash(l, len) & mask; ht[h] != UINT32_MAX; h = (h + 1) & mask) {
			const char *o = blob + ht[h];
			if (strcmp(o, l) == 0) {
				uint32_t j = 0;
				for (const char *p = blob; p < o; p += strlen(p) + 1)
					j++;
				goal_fmt_err(msg, msglen, "ops %" PRIu32 " and %" PRIu32 " have the same label '%.64s'",
				        j, i, l);
				return -1;
			}
		}
		ht[h] = (uint32_t)(l - blob);
	}
	if (canonical) {
		goal_fmt_err(msg, msglen, "a label blob of canonical labels only (l1, l2, ...)");
		return -1;
	}
	return 0;
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
			goal_fmt_err(err, errlen, "rank %" PRIu64 " op %" PRIu32 ": bad kind", r, i);
			return -1;
		}
		if (c > used[2] || c >= s->ncomms) {
			goal_fmt_err(err, errlen, "rank %" PRIu64 " op %" PRIu32 ": comm index %" PRIu32
			        " is %s (the table has %" PRIu32 ", first used in order)", r, i, c,
			        c >= s->ncomms ? "out of range" : "out of order", s->ncomms);
			return -1;
		}
		if (c == used[2])
			used[2]++;
		if (o->cpu >= s->ncpus || o->nic >= s->nnics) {
			goal_fmt_err(err, errlen, "rank %" PRIu64 " op %" PRIu32 ": cpu %u or nic %u out of range", r, i, o->cpu, o->nic);
			return -1;
		}
		if (o->cpu >= used[0])
			used[0] = o->cpu + 1u;
		if (o->nic >= used[1])
			used[1] = o->nic + 1u;
		if (o->kind == GOAL_CALC) {
			if (o->peer || o->tag || o->nic || c) {
				goal_fmt_err(err, errlen, "rank %" PRIu64 " op %" PRIu32 ": calc with peer, tag, nic or comm", r, i);
				return -1;
			}
		} else if ((o->peer >= s->nranks && !(o->kind == GOAL_RECV && o->peer == GOAL_ANY_SOURCE))
		           || o->tag < GOAL_ANY_TAG) {
			goal_fmt_err(err, errlen, "rank %" PRIu64 " op %" PRIu32 ": peer %" PRIu32 " or tag %" PRId32 " out of range",
			        r, i, o->peer, o->tag);
			return -1;
		}
		if ((i == 0 && o->dep_begin != 0) || o->dep_begin > end || end > ne) {
			goal_fmt_err(err, errlen, "rank %" PRIu64 " op %" PRIu32 ": edge range out of bounds", r, i);
			return -1;
		}
		if (!ne && o->ndeps) {
			goal_fmt_err(err, errlen, "rank %" PRIu64 " op %" PRIu32 ": dependency count %" PRIu32 " does not match its 0 edges",
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
			goal_fmt_err(err, errlen, "rank %" PRIu64 " edge %" PRIu32 ": op %" PRIu32 " out of range", r, k, a);
			return -1;
		}
		indeg[a]++;
	}
	for (uint32_t i = 0; i < n; i++) {
		if (indeg[i] != ops[i].ndeps) {
			goal_fmt_err(err, errlen, "rank %" PRIu64 " op %" PRIu32 ": dependency count %" PRIu32 " does not match its %" PRIu32 " edges",
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
		goal_fmt_err(err, errlen, "rank %" PRIu64 ": dependency cycle", r);
		return -1;
	}
	const unsigned char *p = (const unsigned char *)(edges + ne);
	const unsigned char *end = p + (PAD8((uint64_t)ne * 4) - (uint64_t)ne * 4);
	for (; p < end; p++)
		if (*p) {
			goal_fmt_err(err, errlen, "rank %" PRIu64 ": non-zero padding", r);
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
		goal_fmt_err(err, errlen, "rank %" PRIu64 ": label blob not terminated", r);
		return -1;
	}
	for (uint32_t k = 0; k < e->label_bytes; k++) {
		int c = (unsigned char)l[k];
		if (!c) {
			count++;
			first = 1;
		} else if (!label_char(c, first)) {
			goal_fmt_err(err, errlen, "rank %" PRIu64 ": invalid character in a label", r);
			return -1;
		} else {
			first = 0;
		}
	}
	if (count != n) {
		goal_fmt_err(err, errlen, "rank %" PRIu64 ": %" PRIu32 " labels for %" PRIu32 " ops", r, count, n);
		return -1;
	}
	for (uint64_t k = e->label_bytes; k < PAD8(e->label_bytes); k++)
		if (l[k]) {
			goal_fmt_err(err, errlen, "rank %" PRIu64 ": non-zero padding", r);
			return -1;
		}
	char msg[256];
	if (goal_labels_check(l, n, ops, ne, label_ht, msg, sizeof msg)) {
		goal_fmt_err(err, errlen, "rank %" PRIu64 ": %s", r, msg);
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
	int more = !!(s->hdr->flags & (GOAL_F_STRIDES | GOAL_F_JOBS));
	if (c->comm_off != off || (s->version < 3 && c->nblocks)
	    || c->ncomms == 0 || c->ncomms > GOAL_MAX_COMMS
	    || PAD8(bytes) + blk > rest || (!more && PAD8(bytes) + blk != rest)) {
		goal_fmt_err(err, errlen, "the comm table is out of place or of a wrong size");
		return -1;
	}
	s->comms = (const uint32_t *)(const void *)(s->base + off);
	s->ncomms = c->ncomms;
	s->blocks = (const goal_block_entry *)(const void *)(s->base + off + PAD8(bytes));
	s->nblocks = s->version >= 3 ? c->nblocks : 0;
	for (uint64_t k = bytes; k < PAD8(bytes); k++)
		if (s->base[off + k]) {
			goal_fmt_err(err, errlen, "comm table: non-zero padding");
			return -1;
		}
	if (s->comms[0] != 0) {
		goal_fmt_err(err, errlen, "comm table: entry 0 is %" PRIu32 ", not 0", s->comms[0]);
		return -1;
	}
	if (!(sorted = malloc(bytes))) {
		goal_fmt_err(err, errlen, "out of memory");
		return -1;
	}
	memcpy(sorted, s->comms, bytes);
	qsort(sorted, c->ncomms, sizeof *sorted, cmp_u32);
	for (uint32_t k = 0; k < c->ncomms; k++)
		if ((k && sorted[k] == sorted[k - 1]) || sorted[k] > GOAL_MAX_COMM) {
			goal_fmt_err(err, errlen, "comm table: comm %" PRIu32 " %s", sorted[k],
			        sorted[k] > GOAL_MAX_COMM ? "is out of range" : "appears twice");
			free(sorted);
			return -1;
		}
	free(sorted);
	return 0;
}

/* Check the stride table that starts at off (GOAL_F_STRIDES) and ends the
 * file, or the job table (GOAL_F_JOBS): a count of at least 1, entries in
 * increasing op order, each a send or recv with 1 <= block <= stride <=
 * GOAL_MAX_STRIDE; set s->strides.  One pass over the entries and the rank
 * table.  0 or -1. */
static int check_strides(goal_sched *s, uint64_t off, char *err, size_t errlen)
{
	uint64_t n, r = 0;
	int last = !(s->hdr->flags & GOAL_F_JOBS);
	if (s->size - off < 8) {
		goal_fmt_err(err, errlen, "the stride table is out of place or of a wrong size");
		return -1;
	}
	memcpy(&n, s->base + off, sizeof n);
	if (n == 0 || n > (s->size - off - 8) / sizeof(goal_stride)
	    || (last && 8 + n * sizeof(goal_stride) != s->size - off)) {
		goal_fmt_err(err, errlen, "the stride table is out of place or of a wrong size");
		return -1;
	}
	s->strides = (const goal_stride *)(const void *)(s->base + off + 8);
	s->nstrides = n;
	for (uint64_t k = 0; k < n; k++) {
		const goal_stride *e = &s->strides[k];
		if (e->op >= s->nops || (k && e->op <= s->strides[k - 1].op)) {
			goal_fmt_err(err, errlen, "stride table: entry %" PRIu64 " names op %" PRIu64
			        " (ops increase, below %" PRIu64 ")", k, e->op, s->nops);
			return -1;
		}
		while (s->ranks[r + 1].first_op <= e->op)
			r++;
		uint32_t i = (uint32_t)(e->op - s->ranks[r].first_op);
		if (goal_rank_ops(s, r)[i].kind == GOAL_CALC) {
			goal_fmt_err(err, errlen, "stride table: rank %" PRIu64 " op %" PRIu32 " is a calc", r, i);
			return -1;
		}
		if (e->block == 0 || e->block > e->stride || e->stride > GOAL_MAX_STRIDE) {
			goal_fmt_err(err, errlen, "stride table: rank %" PRIu64 " op %" PRIu32 " has stride %" PRIu32
			        " and block %" PRIu32 " (1 <= block <= stride <= %u)", r, i, e->stride,
			        e->block, GOAL_MAX_STRIDE);
			return -1;
		}
	}
	return 0;
}

#define JOB_BAD(...) do { goal_fmt_err(err, errlen, "job table: " __VA_ARGS__); goto bad; } while (0)

/* Check the job table that starts at off (GOAL_F_JOBS) and ends the file
 * (layout at goal_job): the entries' counts, ranks and name offsets in
 * order, comm bases increasing, names GOAL labels and distinct, ranks
 * below nranks and in one job each, every rank with ops in a job, padding
 * zero; set s->jobs.  O(nranks / 8) scratch.  0 or -1. */
static int check_jobs(goal_sched *s, uint64_t off, char *err, size_t errlen)
{
	uint64_t n, rest = s->size - off, nr = 0, names = 0;
	unsigned char *seen = NULL;
	uint32_t *ht = NULL;
	if (s->version < 3 || rest < 8) {
		goal_fmt_err(err, errlen, "the job table is out of place or of a wrong size");
		return -1;
	}
	memcpy(&n, s->base + off, sizeof n);
	if (n == 0 || n > GOAL_MAX_JOBS || n > s->nranks || 8 + n * sizeof(goal_job) > rest) {
		goal_fmt_err(err, errlen, "the job table is out of place or of a wrong size");
		return -1;
	}
	const goal_job *jobs = (const goal_job *)(const void *)(s->base + off + 8);
	for (uint64_t k = 0; k < n; k++) {
		if (jobs[k].first != nr || jobs[k].nranks == 0 || (k && jobs[k].comm_base <= jobs[k - 1].comm_base)) {
			goal_fmt_err(err, errlen, "job table: entry %" PRIu64 " has first rank %" PRIu32 ", %" PRIu32
			             " ranks, comm base %" PRIu32 " (ranks follow the jobs before, at least 1;"
			             " comm bases increase)", k, jobs[k].first, jobs[k].nranks, jobs[k].comm_base);
			return -1;
		}
		nr += jobs[k].nranks;
	}
	uint64_t rank_off = off + 8 + n * sizeof(goal_job);
	if (nr > s->nranks || PAD8(nr * 4) > s->size - rank_off) {
		goal_fmt_err(err, errlen, "the job table is out of place or of a wrong size");
		return -1;
	}
	const uint32_t *ranks = (const uint32_t *)(const void *)(s->base + rank_off);
	const char *blob = (const char *)s->base + rank_off + PAD8(nr * 4);
	uint64_t blob_len = s->size - (rank_off + PAD8(nr * 4));
	for (uint64_t k = nr * 4; k < PAD8(nr * 4); k++)
		if (s->base[rank_off + k])
			JOB_BAD("non-zero padding");
	uint64_t mask = label_slots(n) - 1;
	if (!(seen = calloc(s->nranks / 8 + 1, 1)) || !(ht = malloc((mask + 1) * sizeof *ht)))
		JOB_BAD("out of memory");
	memset(ht, 0xff, (mask + 1) * sizeof *ht);
	for (uint64_t k = 0; k < n; k++) {
		const char *name = blob + names;
		const char *nul = names < blob_len ? memchr(name, 0, blob_len - names) : NULL;
		char msg[300];
		if (jobs[k].name_off != names || !nul)
			JOB_BAD("entry %" PRIu64 " has its name at %" PRIu32 ", not %" PRIu64, k,
			        jobs[k].name_off, names);
		size_t len = (size_t)(nul - name);
		if (goal_name_check(name, len, msg, sizeof msg))
			JOB_BAD("job %" PRIu64 ": its name %s", k, msg);
		uint64_t h;
		for (h = util_hash(name, len) & mask; ht[h] != UINT32_MAX; h = (h + 1) & mask)
			if (strcmp(blob + jobs[ht[h]].name_off, name) == 0)
				JOB_BAD("two jobs are named %s", name);
		ht[h] = (uint32_t)k;
		names += len + 1;
		for (uint32_t i = 0; i < jobs[k].nranks; i++) {
			uint32_t r = ranks[jobs[k].first + i];
			if (r >= s->nranks || (seen[r / 8] >> (r % 8) & 1))
				JOB_BAD("job %s: rank %" PRIu32 " is %s", name, r,
				        r >= s->nranks ? "out of range" : "in two jobs");
			seen[r / 8] |= (unsigned char)(1u << (r % 8));
		}
	}
	if (PAD8(names) != blob_len)
		JOB_BAD("the names take %" PRIu64 " bytes, the table leaves %" PRIu64, PAD8(names), blob_len);
	for (uint64_t k = names; k < blob_len; k++)
		if (blob[k])
			JOB_BAD("non-zero padding");
	for (uint64_t r = 0; r < s->nranks; r++)
		if (goal_rank_nops(s, r) && !(seen[r / 8] >> (r % 8) & 1))
			JOB_BAD("rank %" PRIu64 " has ops but is in no job", r);
	free(seen);
	free(ht);
	s->jobs = jobs;
	s->njobs = (uint32_t)n;
	s->job_ranks = ranks;
	s->job_names = blob;
	return 0;
bad:
	free(seen);
	free(ht);
	return -1;
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
				goal_fmt_err(err, errlen, "out of memory");
				goto out;
			}
		}
		if (s->ranks[r].label_bytes && !label_ht
		    && !(label_ht = malloc(label_slots(max_ops) * sizeof *label_ht))) {
			goal_fmt_err(err, errlen, "out of memory");
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
			goal_fmt_err(err, errlen, "not a binary GOAL schedule: this is %s", util_kind_what(k));
		else
			goal_fmt_err(err, errlen, "not a binary GOAL schedule (bad magic number)");
		return -1;
	}
	if (s->size < sizeof(goal_header)) {
		goal_fmt_err(err, errlen, "truncated: %" PRIu64 " bytes is shorter than the header", s->size);
		return -1;
	}
	h = (const goal_header *)(const void *)s->base;
	if (h->version < 1 || h->version > 3) {
		goal_fmt_err(err, errlen, "format version %" PRIu32 " is not supported (this build reads versions 1, 2 and 3)",
		        h->version);
		return -1;
	}
	*table_off = sizeof(goal_header) + (h->version >= 2 ? sizeof(goal_comm_header) : 0);
	if (s->size < *table_off) {
		goal_fmt_err(err, errlen, "truncated: %" PRIu64 " bytes is shorter than the header", s->size);
		return -1;
	}
	if (h->flags & ~GOAL_F_KNOWN) {
		goal_fmt_err(err, errlen, "unknown layout flags 0x%" PRIx32, h->flags & ~GOAL_F_KNOWN);
		return -1;
	}
	if (h->op_size != sizeof(goal_op)) {
		goal_fmt_err(err, errlen, "op records of %" PRIu32 " bytes are not supported", h->op_size);
		return -1;
	}
	if (h->file_size != s->size) {
		goal_fmt_err(err, errlen, "truncated or extended: the file has %" PRIu64 " bytes, its header says %" PRIu64,
		        s->size, h->file_size);
		return -1;
	}
	if (h->nranks == 0 || h->nranks > GOAL_MAX_RANKS || h->ncpus == 0 || h->ncpus > GOAL_MAX_INDEX + 1
	    || h->nnics == 0 || h->nnics > GOAL_MAX_INDEX + 1 || h->max_rank_ops > GOAL_MAX_RANK_OPS) {
		goal_fmt_err(err, errlen, "header counts out of range");
		return -1;
	}
	*table_end = *table_off + (h->nranks + 1) * sizeof(goal_rank_entry);
	if (*table_end > s->size) {
		goal_fmt_err(err, errlen, "truncated: the rank table ends past the end of the file");
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
			goal_fmt_err(err, errlen, "rank %" PRIu64 ": rank table entry out of place", r);
			return -1;
		}
		return 0;
	}
	if (h->version >= 3) {
		if (!(b = rank_block(s, e->block_off, &w->seen, &fresh))) {
			goal_fmt_err(err, errlen, "rank %" PRIu64 ": rank table entry names no block", r);
			return -1;
		}
	}
	if (e->first_op != w->first || (!b && e->block_off != w->off) || nx->first_op < w->first
	    || nx->first_op - w->first > h->max_rank_ops) {
		goal_fmt_err(err, errlen, "rank %" PRIu64 ": rank table entry out of place", r);
		return -1;
	}
	n = nx->first_op - w->first;
	if (n > w->max_ops)
		w->max_ops = n;
	if (b && (b->nops != n || b->nedges != e->nedges || b->label_bytes != e->label_bytes
	          || b->zero)) {
		goal_fmt_err(err, errlen, "rank %" PRIu64 ": rank table entry does not match its block", r);
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
		goal_fmt_err(err, errlen, "block %" PRIu64 " (rank %" PRIu64 "): out of place", w->seen - 1, r);
		return -1;
	}
	if (size > w->end - w->off) {
		goal_fmt_err(err, errlen, "truncated: rank %" PRIu64 " ends past the end of the file", r);
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
		goal_fmt_err(err, errlen, "the block table has %" PRIu64 " entries, the ranks use %" PRIu64,
		        s->nblocks, w->seen);
		return -1;
	}
	const goal_rank_entry *sn = &s->ranks[s->nranks];
	if (sn->first_op != h->nops || w->first != h->nops || sn->block_off != w->off
	    || (h->version != 2 && w->off != w->end)
	    || sn->nedges || sn->label_bytes || w->edges != h->nedges || w->max_ops != h->max_rank_ops) {
		goal_fmt_err(err, errlen, "totals in the header and rank table do not match the blocks");
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
			goal_fmt_err(err, errlen, "the comm table is out of place or of a wrong size");
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
		goal_fmt_err(err, errlen, "a version-1 file has no stride table");
		return -1;
	}
	if (h->version == 2 && check_comms(s, off, err, errlen))
		return -1;

	off += PAD8((uint64_t)s->ncomms * 4) + s->nblocks * sizeof(goal_block_entry);
	if ((h->flags & GOAL_F_STRIDES) && check_strides(s, off, err, errlen))
		return -1;
	if (w.any_labels != !!(h->flags & GOAL_F_LABELS)) {
		goal_fmt_err(err, errlen, "label flag does not match the label blobs");
		return -1;
	}
	if (check_all_ranks(s, table_end, lo, lo_next, w.max_ops, used, err, errlen))
		return -1;
	/* Memory per rank follows the header's counts: they must be the ones
	 * the ops use. */
	if (used[0] != s->ncpus || used[1] != s->nnics) {
		goal_fmt_err(err, errlen, "the header says %" PRIu32 " CPUs and %" PRIu32 " NICs per rank,"
		        " the ops use %" PRIu32 " and %" PRIu32, s->ncpus, s->nnics, used[0], used[1]);
		return -1;
	}
	if (used[2] != s->ncomms) {
		goal_fmt_err(err, errlen, "the comm table has %" PRIu32 " entries, the ops use %" PRIu32,
		        s->ncomms, used[2]);
		return -1;
	}
	if ((h->flags & GOAL_F_JOBS)
	    && check_jobs(s, off + (s->nstrides ? 8 + s->nstrides * sizeof(goal_stride) : 0), err, errlen))
		return -1;
	return 0;
}

int goal_sched_from_buffer(goal_sched *s, const void *buf, uint64_t len,
                           char *err, size_t errlen)
{
	memset(s, 0, sizeof *s);
	s->base = buf;
	s->size = len;
	if (((uintptr_t)buf & 7u) != 0) {
		goal_fmt_err(err, errlen, "buffer not 8-byte aligned");
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
		goal_fmt_err(err, errlen, "%s: error: cannot open: %s", path, strerror(errno));
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
		goal_fmt_err(err, errlen, "%s: error: not a regular file", name);
		return -1;
	}
	if (st.st_size == 0) {
		goal_fmt_err(err, errlen, "%s: error: truncated: the file is empty", name);
		return -1;
	}
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED) {
		goal_fmt_err(err, errlen, "%s: error: cannot map: %s", name, strerror(errno));
		return -1;
	}
#ifdef MADV_HUGEPAGE
	madvise(p, (size_t)st.st_size, MADV_HUGEPAGE);
#endif
	s->base = p;
	s->size = (uint64_t)st.st_size;
	s->mapped = 1;
	if (validate(s, msg, sizeof msg)) {
		goal_fmt_err(err, errlen, "%s: error: %s", name, msg);
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

struct goal_labels {
	const goal_sched *s;
	uint32_t **off;           /* per rank: its ops' offsets in its blob, or
	                             NULL (not asked for yet, or no blob) */
};

goal_labels *goal_labels_new(const goal_sched *s)
{
	goal_labels *x = calloc(1, sizeof *x);
	if (!x)
		return NULL;
	x->s = s;
	if ((s->hdr->flags & GOAL_F_LABELS) && s->nranks &&
	    !(x->off = calloc(s->nranks, sizeof *x->off))) {
		free(x);
		return NULL;
	}
	return x;
}

const char *goal_labels_get(goal_labels *x, uint64_t r, uint64_t i)
{
	if (!x->off || r >= x->s->nranks || i >= goal_rank_nops(x->s, r))
		return NULL;
	const char *l = goal_rank_labels(x->s, r);
	if (!l)
		return NULL;
	if (!x->off[r]) {
		uint32_t n = goal_rank_nops(x->s, r), *o = malloc((size_t)n * sizeof *o);
		if (!o)
			return NULL;
		for (uint32_t k = 0, at = 0; k < n; k++) {
			o[k] = at;
			at += (uint32_t)strlen(l + at) + 1;
		}
		x->off[r] = o;
	}
	const char *v = l + x->off[r][i];
	size_t len = strlen(v);
	return len && !label_is_canonical(v, len, (uint32_t)i) ? v : NULL;
}

void goal_labels_free(goal_labels *x)
{
	if (!x)
		return;
	if (x->off)
		for (uint64_t r = 0; r < x->s->nranks; r++)
			free(x->off[r]);
	free(x->off);
	free(x);
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
