/* sim_stuck.c: the report of a run that did not complete: each stuck
 * rank's ops that never started, receives never matched and messages
 * never received (sim_report_stuck, sim.h). */
#include "sim_int.h"

#include <inttypes.h>

static void put_label(const sim *m, FILE *out, uint64_t r, uint32_t i)
{
	char buf[256];
	fputs(sim_op_name(m->s, r, i, buf, sizeof buf), out);
}

/* "from PEER tag TAG[ comm C]" of a receive, or of a message from peer
 * (send op o). */
static void put_peer_tag(FILE *out, const goal_sched *s, uint32_t peer, const goal_op *o)
{
	int32_t tag = o->tag;
	if (peer == GOAL_ANY_SOURCE)
		fprintf(out, "from any");
	else
		fprintf(out, "from %" PRIu32, peer);
	if (tag == GOAL_ANY_TAG)
		fprintf(out, " tag any");
	else
		fprintf(out, " tag %" PRId32, tag);
	if (goal_op_comm(o))
		fprintf(out, " comm %" PRIu32, goal_op_comm_value(s, o));
}

uint64_t sim_report_stuck(const sim *m, FILE *out, uint64_t max_ranks, uint64_t max_ops)
{
	const goal_sched *s = m->s;
	uint64_t stuck = 0;
	for (uint64_t r = 0; r < s->nranks; r++) {
		uint64_t a = s->ranks[r].first_op, b = s->ranks[r + 1].first_op, un = 0;
		for (uint64_t g = a; g < b; g++)
			un += !is_started(m, g);
		const sim_rq *h = rank_q(m, r);
		if (!un && h->rq_head == QNIL && h->uq_head == QNIL)
			continue;
		if (stuck++ >= max_ranks)
			continue;
		if (un) {
			uint64_t shown = 0;
			fprintf(out, "rank %" PRIu64 ": %" PRIu64 " op%s never started:", r, un,
			        un == 1 ? "" : "s");
			for (uint64_t g = a; g < b && shown < max_ops; g++) {
				if (is_started(m, g))
					continue;
				fputc(' ', out);
				put_label(m, out, r, (uint32_t)(g - a));
				shown++;
			}
			if (shown < un)
				fprintf(out, " ... (%" PRIu64 " more)", un - shown);
			fputc('\n', out);
		}
		uint64_t n = 0;
		int ix = q_indexed(m, 1, (uint32_t)r);   /* then an entry is one recv */
		for (uint32_t k = h->rq_head; k != QNIL && n <= max_ops; k = ix ? RXE(m, k)->next : RQE(m, k)->next) {
			uint32_t first = ix ? RXE(m, k)->op : RQE(m, k)->op;
			uint32_t cnt = ix ? 1u : RQE(m, k)->n, d = ix ? 0u : RQE(m, k)->d;
			for (uint32_t j = 0, op = first; j < cnt && n <= max_ops; j++, op += d, n++) {
				if (n == max_ops) {
					fprintf(out, "rank %" PRIu64 ": ... more posted receives\n", r);
					continue;
				}
				fprintf(out, "rank %" PRIu64 ": receive ", r);
				const goal_op *rop = &goal_rank_ops(s, r)[op];
				put_label(m, out, r, op);
				fputc(' ', out);
				put_peer_tag(out, s, goal_op_peer(s, r, rop), rop);
				fprintf(out, " never matched\n");
			}
		}
		n = 0;
		for (uint32_t k = h->uq_head; k != QNIL; k = UQE(m, k)->next, n++) {
			if (n == max_ops) {
				fprintf(out, "rank %" PRIu64 ": ... more unexpected messages\n", r);
				break;
			}
			const sim_uqe *e = UQE(m, k);
			const goal_op *sop = &goal_rank_ops(s, e->peer)[e->op];
			fprintf(out, "rank %" PRIu64 ": message ", r);
			put_peer_tag(out, s, e->peer, sop);
			fprintf(out, " (%" PRIu64 " bytes, send ", sop->size);
			put_label(m, out, e->peer, e->op);
			fprintf(out, ") never received\n");
		}
	}
	if (stuck > max_ranks)
		fprintf(out, "... and %" PRIu64 " more stuck ranks\n", stuck - max_ranks);
	return stuck;
}
