/* goal.h: the binary GOAL schedule format, its streaming writer and its
 * validating, memory-mapped reader, and goal_dump (libgoal.a).  Every tool
 * links this library.  It is the bottom layer: it calls nothing of the GOAL
 * compiler, which sits above it with the opening of a schedule that is
 * binary or text (goal_open.h, libgoalc.a).
 *
 * The on-disk layout is described in docs/binary-format.md; the structs below
 * are that layout (little-endian, naturally aligned, no padding gaps).
 *
 *   header        64 bytes                       (goal_header)
 *   comm header   16 bytes, versions 2 and 3     (goal_comm_header)
 *   rank table    (nranks + 1) * 24 bytes        (goal_rank_entry, last = sentinel)
 *   rank blocks   8-byte aligned; version 3: one per distinct block, which
 *                 ranks share; versions 1 and 2: one per rank:
 *                   nops  * 32 bytes op records  (goal_op)
 *                   nedges * 4 bytes edges       (goal_edge), zero-padded to 8
 *                   label_bytes label blob       (optional), zero-padded to 8
 *   comm table    ncomms * 4 bytes, zero-padded to 8, versions 2 and 3
 *   block table   nblocks * 24 bytes, version 3 only (goal_block_entry)
 *   stride table  8 + nstrides * 16 bytes, with GOAL_F_STRIDES only
 *                                                (goal_stride)
 *   job table     8 + njobs * 24 bytes, the jobs' ranks (4 bytes each) and
 *                 names, each zero-padded to 8, with GOAL_F_JOBS only
 *                                                (goal_job)
 *
 * Version 3 stores the peer of a send or recv relative to its rank, so that
 * the ranks of a regular schedule have equal blocks: read it with
 * goal_op_peer, never from the op record.
 */
#ifndef GOAL_H
#define GOAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define GOAL_MAGIC "GOALBIN\n"  /* 8 bytes, no terminator stored */
#define GOAL_VERSION 3u      /* written; versions 1, 2 and 3 are read */

/* Op kinds.  This table is the single truth: ORDER OP everywhere.
 * X(enum suffix, GOAL keyword) */
#define GOAL_OP_KINDS(X) \
	X(SEND, "send")  /* size bytes to peer, tag; uses cpu and nic           */ \
	X(RECV, "recv")  /* size bytes from peer (or ANY), tag (or ANY); cpu, nic */ \
	X(CALC, "calc")  /* size = duration in ns on cpu                        */

typedef enum goal_kind {
#define GOAL_X_ENUM(name, kw) GOAL_##name,
	GOAL_OP_KINDS(GOAL_X_ENUM)
#undef GOAL_X_ENUM
	GOAL_NKINDS
} goal_kind;

extern const char *const goal_kind_name[GOAL_NKINDS];

#define GOAL_ANY_SOURCE UINT32_MAX  /* recv peer: any source */
#define GOAL_ANY_TAG    (-1)        /* recv or send tag: any tag */
#define GOAL_MAX_COMM   (UINT32_MAX - 1u) /* largest comm value */
#define GOAL_MAX_COMMS  (1u << 24)  /* distinct comms in a schedule (24-bit index) */
#define GOAL_MAX_RANKS  (UINT32_MAX - 1u)
#define GOAL_MAX_INDEX  65535u      /* largest cpu or nic index */
#define GOAL_MAX_RANK_OPS 0x7fffffffu /* ops in one rank (edge index is 31 bits) */
#define GOAL_MAX_STRIDE (1u << 31)  /* largest stride and block of a strided message, bytes */
#define GOAL_DEFAULT_BLOCK 8u       /* block of a strided message when none is given */
/* GOAL text: the longest line (bytes); labels have at most 255 characters,
 * numbers at most 40 digits (the scanner's rules, goal_lex.l). */
#define GOAL_MAX_LINE (1u << 20)

/* One op: 32 bytes. */
typedef struct goal_op {
	uint64_t size;      /* bytes (send, recv) or duration in ns (calc) */
	uint32_t peer;      /* send: destination; recv: source or GOAL_ANY_SOURCE; calc: 0.
	                       In a version-3 file, (peer - rank) mod nranks: read it
	                       with goal_op_peer.  Writers take it absolute. */
	int32_t tag;        /* >= 0 or GOAL_ANY_TAG; calc: 0 */
	uint32_t dep_begin; /* first of this op's outgoing edges in the rank's edge array;
	                       the op's edges end where the next op's begin (last op: nedges) */
	uint32_t ndeps;     /* number of dependencies (incoming edges, both kinds) */
	uint16_t cpu;
	uint16_t nic;       /* calc: 0 */
	uint8_t kind;       /* goal_kind */
	uint8_t comm[3];    /* index in the schedule's comm table, little-endian
	                       (goal_op_comm); 0 is comm 0; calc: 0 */
} goal_op;
_Static_assert(sizeof(goal_op) == 32, "goal_op is 32 bytes on disk");

/* The comm index of an op (its comm is s->comms[index]).  Two ops of one
 * schedule have the same comm exactly when their indices are equal. */
static inline uint32_t goal_op_comm(const goal_op *o)
{
	return (uint32_t)o->comm[0] | (uint32_t)o->comm[1] << 8 | (uint32_t)o->comm[2] << 16;
}

/* Store comm index c (below GOAL_MAX_COMMS) in o. */
static inline void goal_op_set_comm(goal_op *o, uint32_t c)
{
	o->comm[0] = (uint8_t)c;
	o->comm[1] = (uint8_t)(c >> 8);
	o->comm[2] = (uint8_t)(c >> 16);
}

/* An outgoing edge of op b, naming a dependent op a of the same rank:
 * "a requires b" (bit 31 clear) or "a irequires b" (bit 31 set).  The edges of
 * one op are in the order of their dependency lines. */
typedef uint32_t goal_edge;
#define GOAL_EDGE_IREQ 0x80000000u
#define GOAL_EDGE_OP(e) ((uint32_t)(e) & 0x7fffffffu)

typedef struct goal_rank_entry {
	uint64_t first_op;    /* global index of the rank's first op (sentinel: nops) */
	uint64_t block_off;   /* byte offset of the rank's block (sentinel: file size) */
	uint32_t nedges;      /* sentinel: 0 */
	uint32_t label_bytes; /* 0: labels are canonical l1, l2, ... (sentinel: 0) */
} goal_rank_entry;
_Static_assert(sizeof(goal_rank_entry) == 24, "goal_rank_entry is 24 bytes on disk");

#define GOAL_F_LABELS  0x1u  /* some rank has a label blob */
#define GOAL_F_STRIDES 0x2u  /* a stride table follows the comm table (version 2) */
#define GOAL_F_JOBS    0x4u  /* a job table ends the file (version 3) */
#define GOAL_F_KNOWN   (GOAL_F_LABELS | GOAL_F_STRIDES | GOAL_F_JOBS)

typedef struct goal_header {
	char magic[8];          /* GOAL_MAGIC */
	uint32_t version;       /* GOAL_VERSION */
	uint32_t flags;         /* GOAL_F_* */
	uint64_t nranks;
	uint64_t nops;          /* total over all ranks */
	uint64_t nedges;        /* total over all ranks */
	uint64_t file_size;
	uint32_t ncpus;         /* largest cpu index used + 1 (>= 1) */
	uint32_t nnics;         /* largest nic index used + 1 (>= 1) */
	uint32_t op_size;       /* sizeof(goal_op) */
	uint32_t max_rank_ops;  /* ops in the largest rank */
} goal_header;
_Static_assert(sizeof(goal_header) == 64, "goal_header is 64 bytes on disk");

/* Versions 2 and 3: right after the header, where the comm table is (and
 * the block table after it).  The rank table follows it (at 80; version 1:
 * at 64, after the header). */
typedef struct goal_comm_header {
	uint64_t comm_off;      /* file offset of the comm table (the end of the rank blocks) */
	uint32_t ncomms;        /* its entries, 1 .. GOAL_MAX_COMMS */
	uint32_t nblocks;       /* version 3: entries of the block table; version 2: 0 */
} goal_comm_header;
_Static_assert(sizeof(goal_comm_header) == 16, "goal_comm_header is 16 bytes on disk");

/* A distinct rank block (version 3): the block table lists them in the
 * order of their offsets, which is the order in which ranks first use them;
 * the blocks fill the file from the end of the rank table to comm_off.  A
 * rank's entry names its block by offset, with the block's counts. */
typedef struct goal_block_entry {
	uint64_t off;           /* file offset of the block */
	uint32_t nops, nedges, label_bytes;
	uint32_t zero;          /* 0 */
} goal_block_entry;
_Static_assert(sizeof(goal_block_entry) == 24, "goal_block_entry is 24 bytes on disk");

/* A strided send or recv (GOAL `stride D block B`): its data are blocks of
 * block bytes whose starts are stride bytes apart.  The stride table is a
 * u64 count, then that many entries in increasing op order. */
typedef struct goal_stride {
	uint64_t op;            /* global op index (first_op of its rank + index) */
	uint32_t stride;        /* 1 .. GOAL_MAX_STRIDE */
	uint32_t block;         /* 1 .. stride */
} goal_stride;
_Static_assert(sizeof(goal_stride) == 16, "goal_stride is 16 bytes on disk");

/* A job: a schedule of its own among the ranks of a merged one (goalc
 * --merge, docs/jobs.md).  Its rank i is the schedule's rank
 * job_ranks[first + i]; its roots start at time start; its comms are
 * comm_base + the comms it had alone.  The job table is a u64 count, that
 * many entries, the ranks of every job in job order (u32, zero-padded to
 * 8), then the names (NUL-terminated, zero-padded to 8). */
typedef struct goal_job {
	uint64_t start;         /* ns */
	uint32_t first;         /* the ranks of the jobs before */
	uint32_t nranks;        /* at least 1 */
	uint32_t comm_base;     /* greater than the job before's */
	uint32_t name_off;      /* in the names: the name bytes of the jobs before */
} goal_job;
_Static_assert(sizeof(goal_job) == 24, "goal_job is 24 bytes on disk");
#define GOAL_MAX_JOBS 65536u
#define GOAL_MAX_NAME 255u  /* bytes of a job's name (a GOAL label) */

/* ---- Reader ------------------------------------------------------------ */

/* A validated, read-only schedule.  The file is mapped, never copied. */
typedef struct goal_sched {
	const unsigned char *base;    /* mapping (or caller's buffer) */
	uint64_t size;
	const goal_header *hdr;
	const goal_rank_entry *ranks; /* nranks + 1 entries */
	uint64_t nranks, nops, nedges;
	uint32_t ncpus, nnics, max_rank_ops;
	uint32_t version;             /* of the file: 1, 2 or 3 */
	int rel_peers;                /* 1: peers are relative to their rank (version 3) */
	/* Version 3: the distinct blocks, in the order ranks first use them
	 * (nblocks 0: versions 1 and 2, a block per rank). */
	const goal_block_entry *blocks;
	uint64_t nblocks;
	/* The distinct comms, in the order of their first use: comms[0] is 0.
	 * A version-1 file has the one comm 0. */
	const uint32_t *comms;
	uint32_t ncomms;
	int mapped;                   /* 1: base is an mmap to unmap on close */
	/* The strided ops in increasing op order (nstrides 0: none, every
	 * message is contiguous). */
	const goal_stride *strides;
	uint64_t nstrides;
	/* The jobs (njobs 0: none, the schedule is one job).  Ranks of no
	 * job have no ops. */
	const goal_job *jobs;
	uint32_t njobs;
	const uint32_t *job_ranks;    /* every job's ranks, in job order */
	const char *job_names;
} goal_sched;

/* The name of job j of s. */
static inline const char *goal_job_name(const goal_sched *s, uint32_t j)
{
	return s->job_names + s->jobs[j].name_off;
}

/* The comm (value, not index) of op o of schedule s. */
static inline uint32_t goal_op_comm_value(const goal_sched *s, const goal_op *o)
{
	return s->comms[goal_op_comm(o)];
}

/* The stride entry of global op g, or NULL when g is contiguous (a calc,
 * or a message without a stride).  O(log nstrides). */
const goal_stride *goal_op_stride(const goal_sched *s, uint64_t g);

/* Map PATH and validate it completely (every offset, index, peer, comm,
 * count and the absence of dependency cycles).  Returns 0, or -1 with a message
 * "PATH: error: ..." in err. */
int goal_sched_open(goal_sched *s, const char *path, char *err, size_t errlen);

/* The same for an open regular file fd (not closed; the mapping outlives
 * it), named name in messages. */
int goal_sched_open_fd(goal_sched *s, int fd, const char *name, char *err, size_t errlen);

/* Validate a caller-owned buffer (8-byte aligned) the same way; the buffer
 * must outlive s.  Returns 0 or -1 with a message in err. */
int goal_sched_from_buffer(goal_sched *s, const void *buf, uint64_t len,
                           char *err, size_t errlen);

void goal_sched_close(goal_sched *s);

/* Peer p of an op of rank r as a version-3 file stores it: (p - r) mod
 * nranks; GOAL_ANY_SOURCE stays. */
static inline uint32_t goal_peer_rel(uint64_t nranks, uint64_t r, uint32_t p)
{
	if (p == GOAL_ANY_SOURCE)
		return p;
	return (uint32_t)(p >= r ? p - r : p + nranks - r);
}

/* The peer of send or recv o of rank r: its destination, or its source
 * (GOAL_ANY_SOURCE: any). */
static inline uint32_t goal_op_peer(const goal_sched *s, uint64_t r, const goal_op *o)
{
	uint64_t p = o->peer;
	if (!s->rel_peers || p == GOAL_ANY_SOURCE)
		return (uint32_t)p;
	p += r;
	return (uint32_t)(p >= s->nranks ? p - s->nranks : p);
}

static inline uint32_t goal_rank_nops(const goal_sched *s, uint64_t r)
{
	return (uint32_t)(s->ranks[r + 1].first_op - s->ranks[r].first_op);
}
static inline const goal_op *goal_rank_ops(const goal_sched *s, uint64_t r)
{
	return (const goal_op *)(const void *)(s->base + s->ranks[r].block_off);
}
static inline const goal_edge *goal_rank_edges(const goal_sched *s, uint64_t r)
{
	return (const goal_edge *)(const void *)(s->base + s->ranks[r].block_off
		+ (uint64_t)goal_rank_nops(s, r) * sizeof(goal_op));
}
/* End (exclusive) of op i's edges in its rank's edge array. */
static inline uint32_t goal_op_dep_end(const goal_sched *s, uint64_t r,
                                       const goal_op *ops, uint32_t i)
{
	return i + 1 < goal_rank_nops(s, r) ? ops[i + 1].dep_begin : s->ranks[r].nedges;
}
/* The rank's label blob (nops NUL-terminated strings, "" = unlabeled), or NULL
 * when its labels are canonical (op i is "l<i+1>"). */
const char *goal_rank_labels(const goal_sched *s, uint64_t r);

/* Label of op i of rank r into buf (canonical "l<i+1>" when none stored; ""
 * for an unlabeled op).  O(label bytes of the rank): for reports, not loops. */
const char *goal_op_label(const goal_sched *s, uint64_t r, uint32_t i,
                          char *buf, size_t n);

/* Op labels by index for outputs that name many ops (trace JSON): a
 * rank's label offsets are found the first time it is asked for, 4 bytes
 * an op of the ranks asked for, and 8 bytes a rank when some rank has
 * labels (none otherwise).  Not safe to share between threads. */
typedef struct goal_labels goal_labels;

/* NULL when out of memory. */
goal_labels *goal_labels_new(const goal_sched *s);

/* The label of op i of rank r, or NULL when the op has none of its own
 * (canonical "l<i+1>", unlabeled, r or i out of range, or no memory). */
const char *goal_labels_get(goal_labels *x, uint64_t r, uint64_t i);

void goal_labels_free(goal_labels *x);

/* ---- Writer ------------------------------------------------------------ */

typedef struct goal_writer goal_writer;

/* Start a schedule of nranks ranks.  path NULL: check only, write nothing.
 * The file is written safely (util/out.h): into a temporary file renamed
 * over path by goal_writer_finish, so that a failed or abandoned schedule
 * leaves path as it was; a pipe or device ("-": standard output) gets the
 * file's bytes at the finish.  Returns NULL only when out of memory or the
 * file cannot be created; then err holds the reason. */
goal_writer *goal_writer_create(const char *path, uint64_t nranks,
                                char *err, size_t errlen);

/* Begin the next rank (ranks are written in order 0..nranks-1). */
int goal_writer_rank_begin(goal_writer *w);

/* Append an op to the current rank, in comm 0.  op->dep_begin, ndeps, comm
 * are ignored.  label may be NULL (unlabeled); len is its length.  On success
 * the op's index in the rank is stored in *index (may be NULL). */
int goal_writer_op(goal_writer *w, const goal_op *op, const char *label,
                   size_t len, uint32_t *index);

/* The same in comm (0 .. GOAL_MAX_COMM; a calc's must be 0).  The writer
 * gives each distinct comm its index in the order of first use. */
int goal_writer_op_comm(goal_writer *w, const goal_op *op, uint32_t comm,
                        const char *label, size_t len, uint32_t *index);

/* The op just added (a send or recv) is strided: blocks of block bytes,
 * stride bytes apart, 1 <= block <= stride <= GOAL_MAX_STRIDE.  The writer
 * keeps 16 bytes per strided op until goal_writer_finish writes them. */
int goal_writer_stride(goal_writer *w, uint32_t stride, uint32_t block);

/* Declare a job, before the first rank: its name (a GOAL label, len
 * bytes, no two jobs alike), the time its roots start, and the first of
 * its comms (greater than the job before's).  Its ranks follow, in the
 * job's order, by goal_writer_job_rank; each is below nranks and in one
 * job only.  Once a schedule has jobs, a rank with ops must be in one.
 * The writer keeps 4 bytes per rank of the schedule. */
int goal_writer_job(goal_writer *w, const char *name, size_t len, uint64_t start,
                    uint32_t comm_base);
int goal_writer_job_rank(goal_writer *w, uint64_t rank);

/* "a requires b" (irequires = 0) or "a irequires b" within the current rank;
 * a and b are op indices of this rank, possibly not yet added.  A line that
 * repeats an earlier one (same a, b and kind) adds nothing. */
int goal_writer_dep(goal_writer *w, uint32_t a, uint32_t b, int irequires);

/* Finish the current rank: resolve and check its dependencies (indices in
 * range, no cycle) and write its block, or name an earlier rank's block
 * with the same counts and bytes (its peers relative to the rank) among
 * the first 64 MiB of distinct blocks.  On a cycle, the index (in the order
 * of goal_writer_dep calls of this rank) of one dependency on the cycle is
 * stored by goal_writer_cycle_dep, and the message names the labels. */
int goal_writer_rank_end(goal_writer *w);
uint64_t goal_writer_cycle_dep(const goal_writer *w);

/* Finish the file (all ranks must have been written).  Returns 0 or -1 with
 * goal_writer_error(w) set; w stays valid until goal_writer_close. */
int goal_writer_finish(goal_writer *w);

/* Finish the file if not yet done, and free w.  Returns 0, or -1 if the
 * file could not be finished (then path is left as it was). */
int goal_writer_close(goal_writer *w);

/* Give up: free the writer; path is left as it was. */
void goal_writer_abort(goal_writer *w);

/* The last error message of w. */
const char *goal_writer_error(const goal_writer *w);

/* ---- Copies (goal_copy.c) ------------------------------------------- */

/* Give w, between goal_writer_rank_begin and goal_writer_rank_end, the ops
 * of rank r of s: peers mapped by map (NULL: as they are; a peer that maps
 * to UINT32_MAX is an error), comms plus dcomm (mod 2^32), labels,
 * dependencies in their order, strides.  0, or -1 with a message in err. */
int goal_writer_copy_rank(goal_writer *w, const goal_sched *s, uint64_t r, const uint32_t *map,
                          uint32_t dcomm, char *err, size_t errlen);

/* ---- Merges and placements (goal_copy.c, goal_place.c) ------------- */

/* A job of a merge (docs/jobs.md): nranks ranks of schedule s, its rank i
 * being rank from[i] of s (from NULL: rank i).  Its comms in the merge are
 * s's plus dcomm (mod 2^32), the first of them comm_base.  Its rank i goes
 * to merged rank place[i] (an array of nranks, filled by goal_place). */
typedef struct goal_mjob {
	const goal_sched *s;
	const uint32_t *from;
	uint32_t nranks;
	const char *name;         /* a GOAL label, no two jobs alike */
	uint64_t start;           /* the time its roots start, ns */
	uint32_t comm_base, dcomm;
	uint32_t *place;
} goal_mjob;

/* Place jobs[0..nj) on P ranks (their place arrays) by how: "packed" (one
 * job after the other), "roundrobin" (one rank of each job in turn),
 * "random" (a permutation of the P ranks drawn from seed, the jobs' ranks
 * in order given its first ones), or else the path of a placement file:
 * one line per job, its ranks as "a" and "a to b", blank and '#' lines
 * skipped.  0, or -1 with "PATH:LINE:COL: error: MESSAGE" (or "PATH:
 * error: ...", "error: ...") in err. */
int goal_place(goal_mjob *jobs, uint32_t nj, uint64_t P, const char *how, uint64_t seed,
               char *err, size_t errlen);

/* Write jobs[0..nj) (placed) as one schedule of P ranks to path, with a job
 * table when table is 1; ranks of no job have no ops.  Jobs with a from
 * array all come from one schedule, and their peers are mapped by their
 * places (a peer outside its job is an error).  0, or -1 with "error:
 * MESSAGE" (or "PATH: error: ...") in err. */
int goal_merge(const char *path, const goal_mjob *jobs, uint32_t nj, uint64_t P, int table,
               char *err, size_t errlen);

/* Write the merged schedule s (s->njobs > 0) to path with its jobs placed
 * anew by how and seed (goal_place); names, starts and comms stay.  path
 * NULL: only place them, a check of how.  0, or -1 with a message as
 * goal_place's in err. */
int goal_replace(const goal_sched *s, const char *how, uint64_t seed, const char *path,
                 char *err, size_t errlen);

/* Write job j of s (s->njobs > j) to path as the schedule it was before
 * the merge: its ranks in its order, its own comms, no job table.  0, or
 * -1 with a message as goal_merge's in err. */
int goal_job_extract(const goal_sched *s, uint32_t j, const char *path, char *err, size_t errlen);

/* Write s to path with job j only: its ranks where they are, every other
 * rank empty, a job table of that job.  0, or -1 with a message as
 * goal_merge's in err. */
int goal_job_alone(const goal_sched *s, uint32_t j, const char *path, char *err, size_t errlen);

/* ---- Text ------------------------------------------------------------- */

/* Print s as GOAL text; compiling the text gives back the same binary, byte
 * for byte.  Returns 0 or -1 on a write error. */
int goal_dump(const goal_sched *s, FILE *out);

#endif
