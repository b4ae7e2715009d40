/* schedgen_test.c: structure of every schedgen pattern for P = 1..64 and a
 * few large P: message counts, sizes, sends and receives pairing up (same
 * source, destination, tag and size, in order), and every op completing
 * when sends wait for their receives (rendezvous), and parameter errors. */
#include "check.h"
#include "sg_out.h"
#include "sg_pattern.h"

#include <stdlib.h>
#include <unistd.h>

static char path[64];

/* Generate pattern i into path and open it.  Returns 0 or -1. */
static int gen(size_t i, const sg_params *p, goal_sched *s)
{
	char err[512];
	sg_out *o = sg_out_open(path, SG_BINARY, p->nranks, NULL, err, sizeof err);
	if (!o) {
		printf("    open: %s\n", err);
		return -1;
	}
	if (sg_generate(i, p, o, NULL, NULL, err, sizeof err)) {
		printf("    generate: %s\n", err);
		sg_out_abort(o);
		return -1;
	}
	if (sg_out_close(o, err, sizeof err)) {
		printf("    close: %s\n", err);
		return -1;
	}
	if (goal_sched_open(s, path, err, sizeof err)) {
		printf("    %s\n", err);
		return -1;
	}
	return 0;
}

typedef struct msg {
	uint64_t src, dst, seq, size;
	int32_t tag;
} msg;

static int msg_cmp(const void *a, const void *b)
{
	const msg *x = a, *y = b;
#define CMP(f) if (x->f != y->f) return x->f < y->f ? -1 : 1
	CMP(src);
	CMP(dst);
	CMP(tag);
	CMP(seq);
#undef CMP
	return 0;
}

/* Sends and receives pair up: same multiset of (src, dst, tag), and in the
 * order of each rank's ops, the same sizes.  Fills *nmsg and *bytes. */
static int pairs(const goal_sched *s, uint64_t *nmsg, uint64_t *bytes, char *why, size_t n)
{
	msg *sd = malloc((s->nops + 1) * sizeof *sd), *rv = malloc((s->nops + 1) * sizeof *rv);
	uint64_t ns = 0, nr = 0;
	int ok = 1;
	*bytes = 0;
	for (uint64_t r = 0; r < s->nranks; r++) {
		const goal_op *ops = goal_rank_ops(s, r);
		for (uint32_t i = 0; i < goal_rank_nops(s, r); i++) {
			if (ops[i].kind == GOAL_SEND) {
				sd[ns++] = (msg){ r, goal_op_peer(s, r, &ops[i]), i, ops[i].size, ops[i].tag };
				*bytes += ops[i].size;
				if (goal_op_peer(s, r, &ops[i]) == r) {
					snprintf(why, n, "rank %" PRIu64 " sends to itself", r);
					ok = 0;
				}
			} else if (ops[i].kind == GOAL_RECV) {
				rv[nr++] = (msg){ goal_op_peer(s, r, &ops[i]), r, i, ops[i].size, ops[i].tag };
			}
		}
	}
	*nmsg = ns;
	if (ok && ns != nr) {
		snprintf(why, n, "%" PRIu64 " sends, %" PRIu64 " receives", ns, nr);
		ok = 0;
	}
	if (ok) {
		qsort(sd, ns, sizeof *sd, msg_cmp);
		qsort(rv, nr, sizeof *rv, msg_cmp);
		for (uint64_t k = 0; k < ns && ok; k++)
			if (sd[k].src != rv[k].src || sd[k].dst != rv[k].dst || sd[k].tag != rv[k].tag
			    || sd[k].size != rv[k].size) {
				snprintf(why, n, "send %" PRIu64 "->%" PRIu64 " tag %d size %" PRIu64
				         " meets recv %" PRIu64 "->%" PRIu64 " tag %d size %" PRIu64,
				         sd[k].src, sd[k].dst, sd[k].tag, sd[k].size,
				         rv[k].src, rv[k].dst, rv[k].tag, rv[k].size);
				ok = 0;
			}
	}
	free(sd);
	free(rv);
	return ok;
}

/* Execute s without time: an op starts when its dependencies allow, a recv
 * matches the first unmatched message of its source and tag, and a send
 * completes only when matched (rendezvous, the stricter case).  Returns 1
 * if every op completes. */
static int completes(const goal_sched *s, char *why, size_t n)
{
	uint64_t N = s->nops;
	uint32_t *left = malloc((N + 1) * sizeof *left);
	uint8_t *state = calloc(N + 1, 1);         /* 1 started, 2 completed */
	uint64_t *work = malloc((N + 1) * sizeof *work), wn = 0;
	uint64_t *owner = malloc((N + 1) * sizeof *owner);
	/* Per rank: posted receives and arrived messages (global op ids), in order. */
	uint64_t *posted = malloc((N + 1) * sizeof *posted), *arrived = malloc((N + 1) * sizeof *arrived);
	uint64_t *pbeg = calloc(s->nranks + 1, sizeof *pbeg), *pn = calloc(s->nranks, sizeof *pn);
	uint64_t *an = calloc(s->nranks, sizeof *an);
	uint64_t done = 0;
	int ok;

	for (uint64_t r = 0; r < s->nranks; r++) {
		const goal_op *ops = goal_rank_ops(s, r);
		pbeg[r + 1] = pbeg[r] + goal_rank_nops(s, r);
		for (uint32_t i = 0; i < goal_rank_nops(s, r); i++) {
			uint64_t g = s->ranks[r].first_op + i;
			owner[g] = r;
			left[g] = ops[i].ndeps;
			if (!left[g])
				work[wn++] = g;
		}
	}
	/* Both per-rank queues are sized by the receives of the rank: at most
	 * its op count. */
#define OP(g) (&goal_rank_ops(s, owner[g])[(g) - s->ranks[owner[g]].first_op])
	while (wn) {
		uint64_t g = work[--wn];
		uint64_t r = owner[g];
		const goal_op *o = OP(g);
		uint64_t comp[2];
		int nc = 0;
		/* start g */
		state[g] = 1;
		{
			const goal_op *ops = goal_rank_ops(s, r);
			const goal_edge *e = goal_rank_edges(s, r);
			uint32_t i = (uint32_t)(g - s->ranks[r].first_op);
			for (uint32_t k = ops[i].dep_begin; k < goal_op_dep_end(s, r, ops, i); k++)
				if ((e[k] & GOAL_EDGE_IREQ) && --left[s->ranks[r].first_op + GOAL_EDGE_OP(e[k])] == 0)
					work[wn++] = s->ranks[r].first_op + GOAL_EDGE_OP(e[k]);
		}
		if (o->kind == GOAL_CALC) {
			comp[nc++] = g;
		} else if (o->kind == GOAL_SEND) {
			uint64_t d = goal_op_peer(s, r, o), k;
			for (k = 0; k < pn[d]; k++) {
				const goal_op *q = OP(posted[pbeg[d] + k]);
				if (goal_op_peer(s, d, q) == r && q->tag == o->tag)
					break;
			}
			if (k < pn[d]) {
				comp[nc++] = g;
				comp[nc++] = posted[pbeg[d] + k];
				memmove(&posted[pbeg[d] + k], &posted[pbeg[d] + k + 1], (pn[d] - k - 1) * sizeof *posted);
				pn[d]--;
			} else {
				arrived[pbeg[d] + an[d]++] = g;
			}
		} else {
			uint64_t k;
			for (k = 0; k < an[r]; k++) {
				uint64_t m = arrived[pbeg[r] + k];
				if (owner[m] == goal_op_peer(s, r, o) && OP(m)->tag == o->tag)
					break;
			}
			if (k < an[r]) {
				comp[nc++] = g;
				comp[nc++] = arrived[pbeg[r] + k];
				memmove(&arrived[pbeg[r] + k], &arrived[pbeg[r] + k + 1], (an[r] - k - 1) * sizeof *arrived);
				an[r]--;
			} else {
				posted[pbeg[r] + pn[r]++] = g;
			}
		}
		for (int c = 0; c < nc; c++) {
			uint64_t h = comp[c], hr = owner[h];
			const goal_op *ops = goal_rank_ops(s, hr);
			const goal_edge *e = goal_rank_edges(s, hr);
			uint32_t i = (uint32_t)(h - s->ranks[hr].first_op);
			state[h] = 2;
			done++;
			for (uint32_t k = ops[i].dep_begin; k < goal_op_dep_end(s, hr, ops, i); k++)
				if (!(e[k] & GOAL_EDGE_IREQ) && --left[s->ranks[hr].first_op + GOAL_EDGE_OP(e[k])] == 0)
					work[wn++] = s->ranks[hr].first_op + GOAL_EDGE_OP(e[k]);
		}
	}
#undef OP
	ok = done == N;
	if (!ok) {
		uint64_t g = 0;
		while (g < N && state[g] == 2)
			g++;
		snprintf(why, n, "%" PRIu64 " of %" PRIu64 " ops complete; rank %" PRIu64
		         " op l%" PRIu64 " %s", done, N, owner[g], g - s->ranks[owner[g]].first_op + 1,
		         state[g] ? "never completes" : "never starts");
	}
	free(left);
	free(state);
	free(work);
	free(owner);
	free(posted);
	free(arrived);
	free(pbeg);
	free(pn);
	free(an);
	return ok;
}

static uint64_t clog2(uint64_t P)
{
	uint64_t k = 0;
	while ((UINT64_C(1) << k) < P)
		k++;
	return k;
}

/* Messages of one run of pattern `name`, from its definition (UINT64_MAX:
 * not checked). */
static uint64_t expect_msgs(const char *name, const sg_params *p)
{
	uint64_t P = p->nranks;
	uint64_t nseg = p->segment ? (p->size + p->segment - 1) / p->segment : 1;
	if (!nseg)
		nseg = 1;
	if (!strcmp(name, "bcast_binomial") || !strcmp(name, "bcast_binary")
	    || !strcmp(name, "reduce_binomial") || !strcmp(name, "scatter_linear")
	    || !strcmp(name, "gather_linear"))
		return P - 1;
	if (!strcmp(name, "bcast_linear") || !strcmp(name, "reduce_linear"))
		return P - 1;
	if (!strncmp(name, "bcast_chain", 11) || !strcmp(name, "bcast_pipeline")
	    || !strcmp(name, "bcast_binary_ompi") || !strcmp(name, "bcast_knomial")
	    || !strcmp(name, "reduce_chain") || !strcmp(name, "reduce_pipeline")
	    || !strcmp(name, "reduce_binary") || !strcmp(name, "reduce_binomial_ompi"))
		return (P - 1) * nseg;
	if (!strcmp(name, "reduce_in_order_binary"))
		return p->rotate_root ? UINT64_MAX : (P - 1) * nseg + (p->root != P - 1);
	if (!strcmp(name, "allreduce_linear"))
		return 2 * (P - 1);
	if (!strcmp(name, "allreduce_dissemination") || !strcmp(name, "barrier_dissemination"))
		return P * clog2(P);
	if (!strcmp(name, "allreduce_recdoub") || !strcmp(name, "barrier_butterfly")
	    || !strcmp(name, "allreduce_recdoub_ompi")
	    || (!strcmp(name, "allreduce_ring_segmented") && p->size < P)) {
		uint64_t m = 0;
		while ((UINT64_C(2) << m) <= P)
			m++;
		return (UINT64_C(1) << m) * m + 2 * (P - (UINT64_C(1) << m));
	}
	if (!strcmp(name, "allreduce_ring"))
		return p->segment || P < 2 ? UINT64_MAX : P * (2 * P - 2);
	if (!strcmp(name, "barrier_linear") || !strcmp(name, "barrier_tree")
	    || !strcmp(name, "barrier_tournament"))
		return 2 * (P - 1);
	if (!strcmp(name, "barrier_nway")) {
		uint64_t m = 0;
		for (uint64_t D = 1; D < P; D *= p->nway + 1) {
			uint64_t w = (P - 1) / D;
			m += P * (w < p->nway ? w : p->nway);
		}
		return m;
	}
	if (!strcmp(name, "ring_pipelined"))
		return P < 2 ? 0 : P * nseg;
	if (!strcmp(name, "ring_double"))
		return P < 2 ? 0 : 2 * P;
	if (!strcmp(name, "alltoall_linear"))
		return P * (P - 1);
	return UINT64_MAX;
}

/* One generated schedule passes every check; returns 1 if so. */
static int check_one(size_t i, const sg_params *p, int count)
{
	const char *name = sg_pattern(i)->name;
	goal_sched s;
	char why[256] = "";
	uint64_t nmsg, bytes, want;
	int ok;
	if (gen(i, p, &s))
		return check_report(0, name, __FILE__, __LINE__);
	ok = pairs(&s, &nmsg, &bytes, why, sizeof why) && completes(&s, why, sizeof why);
	want = count ? expect_msgs(name, p) : UINT64_MAX;
	if (ok && want != UINT64_MAX && nmsg != want * p->iterations) {
		snprintf(why, sizeof why, "%" PRIu64 " messages, want %" PRIu64, nmsg, want * p->iterations);
		ok = 0;
	}
	goal_sched_close(&s);
	if (!ok) {
		printf("not ok - %s P=%" PRIu64 " size=%" PRIu64 " root=%" PRIu64 " seg=%" PRIu64
		       " iter=%" PRIu64 ": %s\n", name, p->nranks, p->size, p->root, p->segment,
		       p->iterations, why);
		check_failures++;
	}
	return ok;
}

static void test_all_patterns(void)
{
	static const uint64_t large[] = { 1000, 1025, 4099 };
	for (size_t i = 0; i < sg_npatterns(); i++) {
		const char *name = sg_pattern(i)->name;
		unsigned uses = sg_pattern(i)->uses;
		int all = 1;
		char why[256];
		for (uint64_t P = 1; P <= 64; P++) {
			sg_params p;
			sg_params_default(&p);
			p.nranks = P;
			p.size = 10;
			all &= check_one(i, &p, 1);
			if (uses & SG_USES_ROOT) {
				p.root = P / 2 + P / 3 < P ? P / 2 + P / 3 : P - 1;
				all &= check_one(i, &p, 1);
			}
			if (uses & SG_USES_SEGMENT) {
				p.segment = 3;
				all &= check_one(i, &p, 1);
				p.size = 0;
				all &= check_one(i, &p, 1);
				p.size = 1000;
				p.segment = 7;
				all &= check_one(i, &p, 1);
			}
			if (uses & SG_USES_NWAY) {
				for (p.nway = 2; p.nway <= 5; p.nway++)
					all &= check_one(i, &p, 1);
			}
			if (uses & SG_USES_FANIN) {
				for (p.fanin = 1; p.fanin <= 5; p.fanin += 2)
					all &= check_one(i, &p, 1);
				p.fanin = 64;
				all &= check_one(i, &p, 1);
			}
			if ((uses & SG_USES_NCCL) && (P == 2 || P == 7 || P == 12)) {
				/* channels, each protocol, loops and short last chunks */
				for (int k = 0; k < SG_NPROTOCOLS; k++) {
					p.protocol = (sg_protocol)k;
					p.channels = (uint64_t)k + 2;
					p.size = sg_nccl_chunk(&p) * (strstr(name, "allreduce") ? P : 1) * 2 + 13;
					all &= check_one(i, &p, 1);
				}
				p.protocol = SG_PROTO_SIMPLE;
				p.channels = 0;
				p.size = 10;
			}
			if (uses & SG_USES_NODES) {
				/* nodes of 2 and 3 ranks (a last node of fewer), both trees;
				 * HAN in 16 segments */
				p.channels = 2;
				p.size = 1u << 20;
				p.segment = 0;
				for (p.ranks_per_node = 2; p.ranks_per_node <= 3; p.ranks_per_node++)
					if (!(uses & SG_EQUAL_NODES) || P % p.ranks_per_node == 0)
						all &= check_one(i, &p, 1);
					else  /* HAN's nodes are of one size */
						all &= sg_params_check(i, &p, why, sizeof why) == -1;
				p.ranks_per_node = 0;
				p.channels = 0;
				p.size = 10;
			}
			if (P % 7 == 3) {
				/* the benchmark loop around it */
				sg_params q;
				sg_params_default(&q);
				q.nranks = P;
				q.iterations = 3;
				q.rotate_root = 1;
				q.root = P - 1;
				all &= check_one(i, &q, 1);
				q.sync = 1;
				all &= check_one(i, &q, 0);
				q.nb = 1;
				q.nb_time = 1000;
				q.nb_poll = 300;
				q.cpu = 1;
				all &= check_one(i, &q, 0);
			}
		}
		if (!strcmp(name, "alltoall_linear") || !strcmp(name, "allreduce_ring")
		    || !strcmp(name, "allreduce_ring_nccl")
		    || !strcmp(name, "barrier_linear") || !strcmp(name, "scatter_linear")
		    || !strcmp(name, "gather_linear"))
			;  /* quadratic: 64 ranks is enough */
		else  /* P - 1 messages a rank: the largest P only for the others */
			for (size_t k = 0; k < sizeof large / sizeof large[0] - !!(uses & SG_LINEAR); k++) {
				sg_params p;
				sg_params_default(&p);
				p.nranks = large[k];
				p.root = large[k] / 3;
				p.nway = 3;
				p.fanin = 4;
				all &= check_one(i, &p, 1);
			}
		printf("%s - schedgen %s: P = 1..64 and large P pair up and complete\n",
		       all ? "ok" : "not ok", name);
	}
}

/* Exact ops of small cases, as hand-derived: o is the ops of rank q. */
#define PEER(k) goal_op_peer(&s, q, &o[k])
static void test_exact(void)
{
	sg_params p;
	goal_sched s;
	int i = sg_pattern_find("binomialtreebcast");
	CHECK(i >= 0 && !strcmp(sg_pattern((size_t)i)->name, "bcast_binomial"));
	sg_params_default(&p);
	p.nranks = 6;
	p.root = 2;
	p.size = 5;
	if (gen((size_t)i, &p, &s) == 0) {
		/* vrank = (r - 2) mod 6: rank 2 sends to 3 (tag 0), 4 (1), 0 (2). */
		uint64_t q = 2;
		const goal_op *o = goal_rank_ops(&s, q);
		CHECK_EQ_U64(goal_rank_nops(&s, 2), 3);
		CHECK_EQ_U64(PEER(0), 3);
		CHECK_EQ_U64(PEER(1), 4);
		CHECK_EQ_U64(PEER(2), 0);
		CHECK_EQ_U64(o[2].tag, 2);
		/* rank 5 = vrank 3: receives from vrank 1 = rank 3 (tag 1), sends nothing (vrank 7 >= 6). */
		o = goal_rank_ops(&s, q = 5);
		CHECK_EQ_U64(goal_rank_nops(&s, 5), 1);
		CHECK_EQ_U64(o[0].kind, GOAL_RECV);
		CHECK_EQ_U64(PEER(0), 3);
		CHECK_EQ_U64(o[0].tag, 1);
		CHECK_EQ_U64(o[0].size, 5);
		goal_sched_close(&s);
	}
	/* Ring allreduce of 10 bytes on 4 ranks: chunks 3 3 2 2; rank 0 sends
	 * chunk 0 (3 bytes) first and receives chunk 3 (2 bytes) from rank 3. */
	i = sg_pattern_find("allreduce_ring");
	sg_params_default(&p);
	p.nranks = 4;
	p.size = 10;
	if (gen((size_t)i, &p, &s) == 0) {
		uint64_t q = 0;
		const goal_op *o = goal_rank_ops(&s, q);
		CHECK_EQ_U64(goal_rank_nops(&s, 0), 12);
		CHECK_EQ_U64(o[0].size, 3);
		CHECK_EQ_U64(PEER(0), 1);
		CHECK_EQ_U64(o[1].size, 2);
		CHECK_EQ_U64(PEER(1), 3);
		CHECK_EQ_U64(o[2].size, 2);  /* then passes chunk 3 on */
		CHECK_EQ_U64(o[2].ndeps, 1);
		goal_sched_close(&s);
	}
	/* Recursive doubling on 6 ranks: 4 and 5 fold into 0 and 1. */
	i = sg_pattern_find("allreduce_recdoub");
	sg_params_default(&p);
	p.nranks = 6;
	if (gen((size_t)i, &p, &s) == 0) {
		uint64_t q = 1;
		const goal_op *o = goal_rank_ops(&s, q);
		CHECK_EQ_U64(goal_rank_nops(&s, 1), 6);  /* recv 5, 2 x (send, recv), send 5 */
		CHECK_EQ_U64(PEER(0), 5);
		CHECK_EQ_U64(PEER(1), 0);
		CHECK_EQ_U64(PEER(3), 3);
		CHECK_EQ_U64(PEER(5), 5);
		CHECK_EQ_U64(goal_rank_nops(&s, 2), 4);
		goal_sched_close(&s);
	}
}

static void test_errors(void)
{
	sg_params p;
	char err[256];
	size_t i = (size_t)sg_pattern_find("bcast_binomial");
	sg_params_default(&p);
	p.nranks = 0;
	CHECK(sg_params_check(i, &p, err, sizeof err) == -1);
	CHECK_STR(err, "the number of ranks must be at least 1 (got 0)");
	p.nranks = 8;
	p.root = 8;
	CHECK(sg_params_check(i, &p, err, sizeof err) == -1);
	CHECK_STR(err, "the root 8 is not a rank (0..7)");
	p.root = 0;
	p.iterations = 0;
	CHECK(sg_params_check(i, &p, err, sizeof err) == -1);
	CHECK_STR(err, "--iterations must be at least 1");
	p.iterations = 1;
	i = (size_t)sg_pattern_find("bcast_chain");
	p.segment = 1;
	p.size = UINT64_C(1) << 40;
	CHECK(sg_params_check(i, &p, err, sizeof err) == -1);
	CHECK_STR(err, "this schedule needs 1099511627776 distinct tags, more than the 2^31 "
	               "GOAL allows (use fewer segments or iterations)");
	CHECK(sg_pattern_find("no_such_pattern") == -1);
	CHECK(sg_pattern_find("LINBARRIER") == sg_pattern_find("barrier_linear"));
}

int main(void)
{
	int fd;
	snprintf(path, sizeof path, "%s/schedgen_test_XXXXXX",
	         access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
	fd = mkstemp(path);
	if (fd < 0)
		return 2;
	close(fd);
	test_errors();
	test_exact();
	test_all_patterns();
	unlink(path);
	return check_done();
}
