/* evq_test.c: the event queue hands out batches in (time, seq) order, keeps
 * nodes pushed during a batch for later (or puts them into the current one:
 * evq_push_now), and renumbers without changing the order. */
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
			evq_node x = evq_batch_node(&q, (size_t)i);
			if (seen && !evq_less(&prev, &x))
				ok = 0;
			prev = x;
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
	CHECK_EQ_U64(evq_batch_node(&q, 0).time, 20);
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
	CHECK_EQ_U64(evq_renumber(&q, 10, NULL, 0), 14);
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

	/* A node pushed into the current batch (evq_push_now) comes in it at
	 * its seq, in the place of a node already taken; renumbering maps seqs
	 * outside the queue with the queued ones. */
	evq_free(&q);
	for (uint32_t i = 0; i < 5; i++)
		evq_push(&q, node(7, 10 * (i + 1), i));   /* seqs 10 .. 50 */
	CHECK_EQ_U64(evq_next_batch(&q), 5);
	q.pos = 2;                              /* 10 and 20 taken */
	evq_push_now(&q, node(7, 25, 100));     /* before 30 */
	CHECK_EQ_U64(q.pos, 1);
	CHECK_EQ_U64(q.batch.a[1].rank, 100);
	CHECK_EQ_U64(evq_size(&q), 4);
	q.pos = 3;                              /* 25 and 30 taken */
	evq_push_now(&q, node(7, 45, 101));     /* between 40 and 50 */
	evq_push_now(&q, node(7, 60, 102));     /* after all */
	uint32_t want_rank[] = { 3, 101, 4, 102 };
	ok = q.batch.n == 5 && q.pos == 1;      /* taken places reused */
	for (size_t i = 0; ok && i < 4; i++)
		ok = q.batch.a[q.pos + i].rank == want_rank[i] && evq_batch_node(&q, q.pos + i).time == 7;
	CHECK(ok);
	evq_push(&q, node(9, 35, 200));
	uint32_t out[] = { 12, 45, 45, 70, 2 };  /* outside: below, equal, above, below floor */
	uint32_t *ext[] = { &out[0], &out[1], &out[2], &out[3], &out[4] };
	/* at or above the floor 5: 12, 35, 40, 45 (three times), 50, 60, 70 */
	CHECK_EQ_U64(evq_renumber(&q, 5, ext, 5), 12);
	CHECK(out[0] == 5 && out[1] == 8 && out[2] == 8 && out[3] == 11 && out[4] == 2);
	CHECK(q.batch.a[1].seq == 7 && q.batch.a[2].seq == 8 && q.batch.a[3].seq == 9
	      && q.batch.a[4].seq == 10);
	CHECK_EQ_U64(evq_next_batch(&q), 1);
	CHECK_EQ_U64(q.batch.a[0].seq, 6);      /* 35, at time 9 */
	evq_free(&q);

	/* Large times (a collective's) and many times of one node each (noise)
	 * by turns: drained in order, and no free slot keeps an array of more
	 * than 4096 nodes (the large ones are reused, at most EVQ_SPARES). */
	uint32_t seq = 0;
	uint64_t t = 0;
	ok = 1;
	seen = 0;
	for (int round = 0; round < 6; round++) {
		for (uint32_t i = 0; i < 20000; i++)
			ok &= evq_push(&q, node(t + 1, seq++, i)) == 0;
		for (uint32_t i = 0; i < 5000; i++)
			ok &= evq_push(&q, node(t + 2 + i, seq++, i)) == 0;
		t += 5001;
		prev = node(0, 0, 0);
		while ((n = evq_next_batch(&q)) > 0) {
			for (long i = 0; i < n; i++) {
				evq_node x = evq_batch_node(&q, (size_t)i);
				ok &= !seen || evq_less(&prev, &x);
				prev = x;
				seen++;
			}
		}
		size_t big = 0;
		for (uint32_t i = 0; i < q.nfree; i++)
			big += q.slot[q.free[i]].v.cap > 4096;
		ok &= big == 0 && q.nspare <= EVQ_SPARES;
	}
	CHECK(ok);
	CHECK_EQ_U64(seen, 6 * 25000);
	evq_free(&q);

	/* A batch of k runs of increasing seq, pushed one run after the other
	 * (k = 2 .. 8 are merged; more are merged pass by pass up to 4096
	 * nodes, above that sorted), with copies of one event (the same seq in
	 * two runs, told apart by peer): drained in seq order, a copy after
	 * the copies pushed before it. */
	for (uint32_t k = 2; k <= 40; k++) {
		uint32_t per = k <= 10 ? 1000 + k : 100 + k;
		ok = 1;
		for (uint32_t j = 0; j < k; j++)
			for (uint32_t i = 0; i < per; i++) {
				evq_node x = node(5, i * k + j, j);
				if (i == per / 2) {   /* a copy of run 0's node */
					x.seq = i * k;
					x.rank = 0;
				}
				x.peer = j;
				ok &= evq_push(&q, x) == 0;
			}
		ok &= evq_next_batch(&q) == (long)(k * per);
		for (uint32_t i = 1; ok && i < k * per; i++) {
			const evq_ent *a = &q.batch.a[i - 1], *b = &q.batch.a[i];
			ok = a->seq < b->seq || (a->seq == b->seq && a->peer < b->peer);
		}
		if (!ok)
			printf("    %u runs\n", k);
		CHECK(ok);
		evq_free(&q);
	}

	/* A large batch as under noise: a run of new seqs among events put
	 * back with older ones (every third node, the oldest last), one a copy
	 * of a node of the run: drained in seq order, the copy after its twin. */
	ok = 1;
	for (uint32_t i = 0; i < 30000; i++) {
		evq_node x = node(5, i % 3 ? 100000 + i : 30000 - i, 0);
		if (i == 29999) {
			x.seq = 100000 + 1;
			x.peer = 1;
		}
		ok &= evq_push(&q, x) == 0;
	}
	ok &= evq_next_batch(&q) == 30000;
	for (uint32_t i = 1; ok && i < 30000; i++) {
		const evq_ent *a = &q.batch.a[i - 1], *b = &q.batch.a[i];
		ok = a->seq < b->seq || (a->seq == b->seq && a->peer < b->peer);
	}
	CHECK(ok);
	evq_free(&q);
	return check_done();
}
