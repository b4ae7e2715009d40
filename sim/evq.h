/* evq.h: the simulator's event queue, a binary array heap of 16-byte nodes
 * ordered by (time, seq), smallest first. */
#ifndef EVQ_H
#define EVQ_H

#include <stddef.h>
#include <stdint.h>

/* One queued event.  The key (time, seq) lives in the node; slot names the
 * event's payload in a table the caller owns. */
typedef struct evq_node {
	uint64_t time;
	uint32_t seq;
	uint32_t slot;
} evq_node;
_Static_assert(sizeof(evq_node) == 16, "evq_node is 16 bytes");

typedef struct evq {
	evq_node *a;   /* a[0 .. n-1], heap ordered */
	size_t n, cap;
} evq;

/* a < b in (time, seq) order. */
static inline int evq_less(const evq_node *a, const evq_node *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

/* An empty queue (no allocation until the first push). */
void evq_init(evq *q);
void evq_free(evq *q);

/* Insert x.  Returns 0, or -1 when out of memory (q unchanged).  Amortised
 * O(log n); the array grows by doubling, never per event. */
int evq_push(evq *q, evq_node x);

/* The smallest node; q must not be empty. */
static inline const evq_node *evq_top(const evq *q) { return &q->a[0]; }

/* Remove the smallest node into *out; q must not be empty.  O(log n). */
void evq_pop(evq *q, evq_node *out);

/* Replace the smallest node by x (same as pop then push, in one sift).
 * q must not be empty. */
void evq_replace_top(evq *q, evq_node x);

/* Renumber the seq of every queued node by the monotone map that keeps every
 * seq below floor unchanged and sends the others, in their order, to
 * floor, floor + 1, ...  The heap order is unchanged.  Returns the first
 * unused seq (floor + number of renumbered nodes), or UINT64_MAX when out of
 * memory (q unchanged).  O(n log n). */
uint64_t evq_renumber(evq *q, uint32_t floor);

#endif
