/* evq_test.c: the event queue pops in (time, seq) order and renumbers
 * without changing that order. */
#include "check.h"
#include "evq.h"

#include <stdlib.h>

int main(void)
{
	evq q;
	evq_node x;
	uint64_t state = 12345;
	int ok = 1;

	evq_init(&q);
	/* 100000 nodes, times in a small range so that ties on time are common. */
	for (uint32_t i = 0; i < 100000; i++) {
		state = state * 6364136223846793005ull + 1442695040888963407ull;
		evq_node n = { (state >> 33) % 1000, i, i };
		if (evq_push(&q, n))
			ok = 0;
	}
	CHECK(ok);
	CHECK_EQ_U64(q.n, 100000);
	evq_node prev = { 0, 0, 0 };
	int first = 1;
	for (uint32_t i = 0; i < 100000; i++) {
		evq_pop(&q, &x);
		if (!first && !evq_less(&prev, &x))
			ok = 0;
		prev = x;
		first = 0;
	}
	CHECK(ok);
	CHECK_EQ_U64(q.n, 0);

	/* replace_top keeps the order: put back every node once at a later time. */
	for (uint32_t i = 0; i < 1000; i++) {
		evq_node n = { 1000 - i % 10, i, i };
		evq_push(&q, n);
	}
	uint32_t moved = 0;
	first = 1;
	ok = 1;
	while (q.n) {
		x = *evq_top(&q);
		if (x.time < 1500) {
			x.time += 1000;
			evq_replace_top(&q, x);
			moved++;
			continue;
		}
		evq_pop(&q, &x);
		if (!first && !evq_less(&prev, &x))
			ok = 0;
		prev = x;
		first = 0;
	}
	CHECK(ok);
	CHECK_EQ_U64(moved, 1000);

	/* Renumbering: seqs below the floor stay, the others become 10, 11, ...
	 * in their old order; the pop order is unchanged. */
	uint32_t seqs[] = { 3, 500, 7, 90000, 12, 4000000000u, 9 };
	uint64_t times[] = { 5, 5, 5, 5, 1, 5, 5 };
	for (int i = 0; i < 7; i++) {
		evq_node n = { times[i], seqs[i], (uint32_t)i };
		evq_push(&q, n);
	}
	CHECK_EQ_U64(evq_renumber(&q, 10), 14);
	uint32_t want_slot[] = { 4, 0, 2, 6, 1, 3, 5 };
	uint32_t want_seq[] = { 10, 3, 7, 9, 11, 12, 13 };
	ok = 1;
	for (int i = 0; i < 7; i++) {
		evq_pop(&q, &x);
		if (x.slot != want_slot[i] || x.seq != want_seq[i]) {
			printf("    pop %d: slot %u seq %u\n", i, x.slot, x.seq);
			ok = 0;
		}
	}
	CHECK(ok);
	evq_free(&q);
	return check_done();
}
