/* evq.h: the simulator's event queue: nodes ordered by (time, seq), kept
 * per pending time (16 bytes each: their time is their slot's) and drained
 * one time step (a batch) at a time. */
#ifndef EVQ_H
#define EVQ_H

#include <stddef.h>
#include <stdint.h>

/* One queued event: the key (time, seq) and the event itself, so that
 * processing it needs no lookup (the queue only moves nodes through
 * sequential arrays, so a larger node costs little; an extra random access
 * per event costs much).  The meaning of rank, op and peer is the
 * simulator's (sim.c). */
typedef struct evq_node {
	uint64_t time;
	uint32_t seq;
	uint32_t rank;
	uint32_t op;
	uint32_t peer;
} evq_node;
_Static_assert(sizeof(evq_node) == 24, "evq_node is 24 bytes");

/* A node as stored: without its time, which is that of its slot (or of
 * the batch, q->now).  A third less memory written and read per event. */
typedef struct evq_ent {
	uint32_t seq;
	uint32_t rank;
	uint32_t op;
	uint32_t peer;
} evq_ent;
_Static_assert(sizeof(evq_ent) == 16, "evq_ent is 16 bytes");

typedef struct evq_vec {
	evq_ent *a;
	size_t n, cap;
} evq_vec;

/* One pending time and its nodes, in push order. */
typedef struct evq_slot {
	uint64_t time;
	evq_vec v;
} evq_slot;

/* A pending time and its slot: the heap and the hash table keep the time
 * beside the slot, so that ordering and finding touch only their own
 * arrays (with one node per time, as under noise, a look into the slots
 * per comparison made each push and pop a cache miss per heap level). */
typedef struct evq_hent {
	uint64_t time;
	uint32_t slot;        /* UINT32_MAX: an empty entry of the table */
	uint32_t pad;
} evq_hent;

#define EVQ_SPARES 2

/* The nodes of each pending time are kept together in a slot; a binary
 * heap orders the slots by time and a hash table finds the slot of a time.
 * A collective has few pending times at once (the current time plus a few
 * combinations of o, g, L), so a node is written once and read once. */
typedef struct evq {
	size_t count;         /* nodes in the slots (not in the batch) */
	evq_slot *slot;       /* slot[0 .. nslot-1]; free ones keep their arrays */
	uint32_t nslot, slot_cap;
	evq_hent *heap;       /* pending times, a min-heap by time */
	uint32_t nheap;
	uint32_t *free;       /* free slots */
	uint32_t nfree;
	evq_vec spare[EVQ_SPARES];  /* large arrays for slots (evq.c) */
	unsigned nspare;
	evq_hent *ht;         /* time -> slot, open addressing */
	uint64_t ht_mask;
	uint32_t hot;         /* slot of the last push (UINT32_MAX: none) */
	evq_vec batch;        /* the current batch, sorted by seq, at time now */
	size_t pos;           /* next unprocessed node of the batch */
	evq_vec tmp;          /* scratch for sorting a batch */
	evq_vec rest;         /* the nodes of a batch out of order, while sorting it */
	uint64_t now;         /* time of the current batch (0 before the first) */
} evq;

/* a < b in (time, seq) order. */
static inline int evq_less(const evq_node *a, const evq_node *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

/* An empty queue (no allocation until the first push). */
void evq_init(evq *q);
void evq_free(evq *q);

/* evq_push but for the usual case (the node in registers: a 24-byte
 * argument goes through the stack, where loading what was stored in
 * pieces stalls) */
int evq_push_slow(evq *q, uint64_t time, evq_ent e);

/* Insert x; x.time must be >= the time of the current batch (q->now).  Returns 0, or
 * -1 when out of memory (q unchanged).  O(1) amortised for a time already
 * pending (O(log T) for a new one, T pending times): arrays grow by
 * doubling and are kept, never allocated per event. */
static inline int evq_push(evq *q, evq_node x)
{
	/* The usual case, inline: the time of the last push, with room in its
	 * array (the node is written in place, not built on the stack and
	 * copied by a call). */
	uint32_t s = q->hot;
	evq_ent e = { x.seq, x.rank, x.op, x.peer };
	if (s != UINT32_MAX && q->slot[s].time == x.time && q->slot[s].v.n < q->slot[s].v.cap) {
		q->slot[s].v.a[q->slot[s].v.n++] = e;
		q->count++;
		return 0;
	}
	return evq_push_slow(q, x.time, e);
}

/* Insert x into the unprocessed rest of the current batch, in seq order, so
 * that it is processed in this batch: for an event that becomes due at the
 * current time while the batch runs (evq_push would keep it for a later
 * batch).  Requires x.time == q->now, q->pos >= 1 (the node at q->pos - 1
 * has been taken: its place is reused) and x.seq above the seq of every
 * node already taken from the batch.  Cannot fail.  O(log n) plus the
 * number of batch nodes whose seq lies between the taken ones and x.seq
 * (moved down by one place). */
void evq_push_now(evq *q, evq_node x);

/* Make the next batch current: every queued node with the smallest queued
 * time (never below the previous batch's: the queue never goes back in
 * time), sorted by seq, in q->batch.a[0 .. q->batch.n - 1] (at time
 * q->now: evq_batch_node), q->pos = 0.
 * Seqs are distinct but for copies of one event (same seq, rank and op
 * words, other peer words: the simulator's flow ends whose end moved away
 * and back), which it tells apart by their peer words.
 * Nodes pushed while a batch is processed (all later in (time, seq) order
 * than the whole batch) wait for a later batch.  Returns the batch size, 0
 * when the queue is empty, or -1 when out of memory.  O(log T) plus the
 * sort when put-back nodes made the batch's seqs unordered. */
long evq_next_batch(evq *q);

/* Node i of the current batch. */
static inline evq_node evq_batch_node(const evq *q, size_t i)
{
	const evq_ent *e = &q->batch.a[i];
	evq_node x = { q->now, e->seq, e->rank, e->op, e->peer };
	return x;
}

/* Nodes in the queue: in the buckets plus the rest of the batch. */
static inline size_t evq_size(const evq *q) { return q->count + (q->batch.n - q->pos); }

/* Renumber the seq of every queued node (buckets and the unprocessed rest of
 * the batch), and the seqs *ext[0 .. next - 1] kept outside the queue, by
 * one monotone map that keeps every seq below floor and sends the others,
 * in their order, to floor, floor + 1, ... (equal seqs stay equal).  The
 * order among all of them does not change.  Returns the first unused seq,
 * or UINT64_MAX when out of memory.  O(n log n), n = queued + next. */
uint64_t evq_renumber(evq *q, uint32_t floor, uint32_t *const *ext, size_t next);

#endif
