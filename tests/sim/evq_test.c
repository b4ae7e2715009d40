/* evq_test.c: the event queue hands out batches in (time, seq) order, keeps
 * nodes pushed during a batch for later, and renumbers without changing the
 * order. */
#include "check.h"
#include "evq.h"

static evq_node node(uint64_t time, uint32_t seq, uint32_t id)
{
	evq_node x = { time, seq, id, 0, 0 };
	return x;
}

int main(void)
{
	evq q;
	uint64_t state = 12345;
	int ok = 1;

	/* 100000 nodes pushed in random seq order, times in a small range (many
	 * ties on time): drained in (time, seq) order, each batch one time. */
	evq_init(&q);
	for (uint32_t i = 0; i < 100000; i++) {
		state = state * 6364136223846793005ull + 1442695040888963407ull;
		uint32_t seq = (uint32_t)((uint64_t)i * 2654435761u % 100003u);
		if (evq_push(&q, node((state >> 33) % 1000, seq, i)))
			ok = 0;
	}
	CHECK(ok);
	CHECK_EQ_U64(evq_size(&q), 100000);
	evq_node prev = node(0, 0, 0);
	size_t seen = 0;
	long n;
	while ((n = evq_next_batch(&q)) > 0) {
		for (long i = 0; i < n; i++) {
			const evq_node *x = &q.batch.a[i];
			if (x->time != q.batch.a[0].time || (seen && !evq_less(&prev, x)))
				ok = 0;
			prev = *x;
			seen++;
		}
	}
	CHECK(ok);
	CHECK_EQ_U64(seen, 100000);
	CHECK_EQ_U64(evq_size(&q), 0);

	/* Nodes pushed while a batch is processed: same time (larger seq) come
	 * in the next batch; later times in order. */
	evq_free(&q);                   /* a new run: time starts at 0 again */
	evq_push(&q, node(10, 1, 1));
	evq_push(&q, node(10, 2, 2));
	evq_push(&q, node(30, 3, 3));
	CHECK_EQ_U64(evq_next_batch(&q), 2);
	evq_push(&q, node(10, 4, 4));   /* same time, new event */
	evq_push(&q, node(20, 1, 1));   /* put back, keeps seq 1 */
	CHECK_EQ_U64(evq_next_batch(&q), 1);
	CHECK_EQ_U64(q.batch.a[0].rank, 4);
	CHECK_EQ_U64(evq_next_batch(&q), 1);
	CHECK_EQ_U64(q.batch.a[0].rank, 1);
	CHECK_EQ_U64(q.batch.a[0].time, 20);
	CHECK_EQ_U64(evq_next_batch(&q), 1);
	CHECK_EQ_U64(q.batch.a[0].rank, 3);
	CHECK_EQ_U64(evq_next_batch(&q), 0);

	/* Renumbering: seqs below the floor stay, the others become 10, 11, ...
	 * in their old order, in the buckets and in the rest of the batch. */
	uint32_t seqs[] = { 3, 500, 7, 90000, 12, 4000000000u, 9, 600 };
	uint64_t times[] = { 50, 50, 50, 50, 40, 50, 50, 40 };
	for (uint32_t i = 0; i < 8; i++)
		evq_push(&q, node(times[i], seqs[i], i));
	CHECK_EQ_U64(evq_next_batch(&q), 2);   /* time 40: ids 4 (12), 7 (600) */
	q.pos = 1;                             /* id 4 processed */
	/* left at or above the floor: 500, 600 (batch), 90000, 4e9 */
	CHECK_EQ_U64(evq_renumber(&q, 10), 14);
	CHECK_EQ_U64(q.batch.a[1].seq, 11);
	uint32_t want_id[] = { 0, 2, 6, 1, 3, 5 };
	uint32_t want_seq[] = { 3, 7, 9, 10, 12, 13 };
	CHECK_EQ_U64(evq_next_batch(&q), 6);
	ok = 1;
	for (int i = 0; i < 6; i++) {
		if (q.batch.a[i].rank != want_id[i] || q.batch.a[i].seq != want_seq[i]) {
			printf("    %d: id %u seq %u\n", i, q.batch.a[i].rank, q.batch.a[i].seq);
			ok = 0;
		}
	}
	CHECK(ok);
	evq_free(&q);
	return check_done();
}
