/* sim.h: the LogGOPS simulation core: executes a binary schedule exactly as
 * docs/semantics.md (sections 2-5) defines. */
#ifndef SIM_H
#define SIM_H

#include "flow.h"
#include "goal.h"
#include "loggp_params.h"
#include "noise.h"
#include "num.h"
#include "tl_path.h"
#include "topo.h"

#include <stdint.h>
#include <stdio.h>

/* A per-byte rate in ns: an exact decimal below 2^32 (num.h), so that
 * fractional G and O are exact. */
typedef num_dec sim_rate;

/* The per-byte term of a message of size bytes: max(size-1,0) * r rounded
 * half up, floor(x + 0.5).  Exact (128-bit arithmetic). */
uint64_t sim_rate_bytes(sim_rate r, uint64_t size);

/* Most size ranges a parameter set may have: those of a parameter file. */
#define SIM_MAX_RANGES LOGGP_PARAMS_MAX_RANGES
/* The most ranks a simulation takes (its tables key a rank and a peer in
 * one word; 2^29 ranks need 32 GiB of rank records alone). */
#define SIM_MAX_RANKS (1ull << 29)

/* The parameters of the messages of a size range (docs/semantics.md,
 * "Size ranges"): sizes from the previous range's last + 1 (0 for the first)
 * to last (UINT64_MAX for the final range). */
typedef struct sim_range {
	uint64_t last;
	uint64_t L, o, g;
	sim_rate G, O;
} sim_range;

/* Most strides a parameter set may have: those of a parameter file. */
#define SIM_MAX_STRIDES LOGGP_PARAMS_MAX_STRIDES

/* The middleware costs of strided messages measured at one stride
 * (docs/semantics.md, "Strided messages"): a message whose stride is this
 * one (or the nearest below its own) has o + o_mw + round((s-1) O_mw) in
 * place of o at both ends and L + l_mw + round((s-1) L_mw) in place of L. */
typedef struct sim_stride {
	uint64_t stride;
	uint64_t o_mw, l_mw;
	sim_rate O_mw, L_mw;
} sim_stride;

/* Model parameters in ns (S in bytes).  With nranges 0 or 1, L, o, g, G, O
 * hold for every message (range is not read).  With nranges >= 2 (at most
 * SIM_MAX_RANGES), range[0..nranges) hold them by message size (L, o, g, G,
 * O are then not read): lasts strictly increasing, the final one
 * UINT64_MAX; sim_create copies them. */
typedef struct sim_params {
	uint64_t L, o, g, S;
	sim_rate G, O;
	uint32_t nranges;
	const sim_range *range;
	/* Strides in increasing order (0: none, strided messages cost as
	 * contiguous ones); sim_create copies them. */
	uint32_t nstrides;
	const sim_stride *strides;
	/* Two levels (docs/semantics.md, "Nodes"): with ranks_per_node K >= 2,
	 * a message between two ranks of one node takes intra's L, o, g, G, O
	 * (and its ranges); the others take these.  Without a network, ranks r
	 * and q share a node when r / K == q / K; with one, when they are on
	 * one host.  intra's S, strides and own intra are not read (S and the
	 * strides are these).  K 0 or 1: one level, intra not read. */
	uint32_t ranks_per_node;
	const struct sim_params *intra;
} sim_params;

/* The defaults of the published tool: L=2500 o=1500 g=1000 G=6 O=0 S=65535,
 * one range. */
void sim_params_default(sim_params *p);

/* Progress as reported to sim_options.progress. */
typedef struct sim_progress {
	uint64_t ops_started, nops;
	uint64_t events;     /* ops started + messages handled so far */
	uint64_t now;        /* simulated time of the event being processed */
} sim_progress;

/* A network (docs/semantics.md section 11): the ranks placed on the hosts
 * of a topology; a message between two hosts moves its bytes as a flow
 * over the links of its route. */
typedef struct sim_net {
	const topo *topo;
	const uint32_t *host;   /* the host of each rank (one per rank) */
	flow_rule rule;         /* how flows share links */
} sim_net;

/* The features of a run that not every other may join: X(enum suffix,
 * what it is).  A network's flows keep no critical path and take no
 * detours (docs/semantics.md section 11); the critical path's sums are by
 * the ranges of one level (sim_params.ranks_per_node). */
#define SIM_FEATURES(X) \
	X(NET, "a network") \
	X(PATH, "the critical path") \
	X(NOISE, "noise") \
	X(SLOW, "slow ranks") \
	X(NODES, "parameters within nodes")

typedef enum sim_feature {
#define SIM_FEAT_X(e, what) SIM_F_##e,
	SIM_FEATURES(SIM_FEAT_X)
#undef SIM_FEAT_X
	SIM_NFEATURES
} sim_feature;

/* What feature k is ("a network", ...). */
const char *sim_feature_str(sim_feature k);

/* The first pair of features in f (a set of 1u << sim_feature) that cannot
 * be combined, in *a < *b: returns 1; or 0 when they all may run together.
 * sim_create refuses such a pair, and a command line may first, in its own
 * words. */
int sim_features_conflict(unsigned f, sim_feature *a, sim_feature *b);

typedef struct sim_options {
	FILE *timeline;      /* NULL: none; else the -V text (docs/timeline.md) */
	/* Called every few million events (NULL: never). */
	void (*progress)(void *ctx, const sim_progress *pr);
	void *progress_ctx;
	/* Largest seq + 1 before the queue renumbers (0: 2^32).  Only tests
	 * set it, to exercise renumbering on small schedules. */
	uint64_t seq_limit;
	/* Noise and slow ranks (NULL: none; docs/semantics.md section 9); must
	 * stay valid until sim_free. */
	const sim_perturb *perturb;
	/* 1: keep what set every time of the run, for sim_critical_path (8
	 * bytes per op below 2^28 ops, else 10; 8 per CPU and NIC of a rank; at
	 * most 2^36 ops).  2: the same, 10 bytes per op whatever the size. */
	int critical;
	/* 1: count queue lengths and match searches, for sim_qstat (32 bytes
	 * per rank). */
	int qstat;
	/* 1: keep where each rank's time went, for sim_account_rank (48 bytes
	 * per rank; a schedule of one CPU and one NIC per rank). */
	int account;
	/* A network (NULL: none); must stay valid until sim_free.  Not with
	 * critical, noise or slow ranks (sim_features_conflict). */
	const sim_net *net;
	/* A search of a receive queue or an unexpected queue from one source
	 * that looked at more than this many entries indexes that queue by
	 * source (0: 64; sim.c, "Queues").  Only tests set it, to index small
	 * queues. */
	uint32_t q_index_after;
	/* 1: count what windows of the run's lookahead would hold, for
	 * sim_windows_get (4 bytes per rank; docs/parallel.md). */
	int windows;
} sim_options;

typedef struct sim sim;

/* Results of a run. */
typedef struct sim_result {
	int complete;        /* 0: some op never started or some RQ/UQ non-empty */
	uint64_t time;       /* max over ranks of the finishing time */
	uint64_t host;       /* lowest rank with that time */
	uint64_t events;     /* ops started + messages (put-backs not counted) */
	uint64_t messages;
	uint64_t ops_started;
	uint64_t stuck_ranks;/* ranks with an unstarted op or a queue entry */
	uint64_t pushes;     /* nodes put into the event queue: every event but
	                        the roots (they run first, without it), events
	                        put back into it, and the wake nodes of the lists
	                        of waiting events (docs/sim.md) */
} sim_result;

/* Prepare a simulation of s (which must stay open, and is only read: any
 * number of simulations of one schedule may run at once in different
 * threads) under p.  opt may be NULL.  Returns NULL with a message in err
 * when out of memory, when s has more than SIM_MAX_RANKS ranks, when p's
 * ranges or strides are malformed, or when the critical path is asked for
 * a run with middleware costs (strided messages and strides in p: the path
 * does not count them). */
sim *sim_create(const goal_sched *s, const sim_params *p,
                const sim_options *opt, char *err, size_t errlen);

/* Run to the end (an empty queue) and fill *res.  Returns 0 (check
 * res->complete), or -1 with a message in err (out of memory, timeline write
 * error).  Call once. */
int sim_run(sim *m, sim_result *res, char *err, size_t errlen);

/* Finishing time of rank r after sim_run: the latest of its CPUs' free
 * times and, with a network, its receives' completions. */
uint64_t sim_rank_finish(const sim *m, uint64_t r);

/* End of job j of a merged schedule (j < s->njobs) after sim_run: the
 * latest finishing time of its ranks, at least its start. */
uint64_t sim_job_end(const sim *m, uint32_t j);

/* Describe an incomplete run on out: for each stuck rank (at most max_ranks
 * of them, then a count of the rest) the ops that never started (at most
 * max_ops per rank) and every leftover RQ / UQ entry.  Format in
 * docs/sim.md.  Returns the number of stuck ranks. */
uint64_t sim_report_stuck(const sim *m, FILE *out, uint64_t max_ranks,
                          uint64_t max_ops);

void sim_destroy(sim *m);

/* The flows of a run with a network (NULL: none), for link statistics. */
const flow_net *sim_flows(const sim *m);

/* ---- Critical path (docs/sensitivity.md) --------------------------------- */

__extension__ typedef unsigned __int128 sim_u128;

/* The chain of activities that sets the finishing time T, from a root at
 * time 0 to the end of the last activity, in time order; a link starts
 * when (via) the one before it ends or departs, and the costs of the links
 * add up to T.  Where two predecessors end at the same time, the path
 * takes an op's dependency before its CPU or NIC, a message's CPU or NIC
 * before its arrival, and a CPU before a NIC. */
typedef struct sim_path {
	tl_link *link;        /* steps from 1, labels NULL (tl_path.h) */
	size_t n;
	uint64_t T;
	uint32_t nranges;     /* of the parameters */
	struct sim_path_count {
		uint64_t L, o, g, G_bytes, O_bytes;
	} count[SIM_MAX_RANGES];  /* sums over the links of each size range */
	uint64_t calc;            /* sums over all links */
	int64_t noise;
	/* dT/dL, dT/do, dT/dg, dT/dG, dT/dO of each size range: the counts,
	 * those of o and O each weighted by the slowdown factor of the rank
	 * whose CPU pays it (--slow stretches CPU work only), in 10^-9. */
	sim_u128 d[SIM_MAX_RANGES][5];
} sim_path;

/* The critical path of a complete run (sim_options.critical set) into *p.
 * Returns 0, or -1 with a message in err (not kept, out of memory).
 * Free with sim_path_free. */
int sim_critical_path(sim *m, const sim_result *res, sim_path *p, char *err, size_t errlen);
void sim_path_free(sim_path *p);

/* ---- Match statistics ------------------------------------------------------ */

/* The queues of a rank over a run, as LogGOPSim's --qstat counted them. */
typedef struct sim_qstat {
	uint32_t rq_max;      /* longest receive queue (posted receives) */
	uint32_t uq_max;      /* longest unexpected queue (handled messages) */
	uint64_t searches;    /* searches: one per message handled (of the RQ) and
	                         one per receive posted (of the UQ) */
	uint64_t searched;    /* entries they looked at */
	uint32_t searched_max;/* most entries one search looked at */
} sim_qstat;

/* The statistics of rank r (sim_options.qstat set): 0, else -1. */
int sim_qstat_rank(const sim *m, uint64_t r, sim_qstat *q);

/* ---- The account ----------------------------------------------------------- */

/* Where rank r's time went, from 0 to its finishing time, in ns: finish =
 * calc + overhead + noise + nic + wait (docs/sensitivity.md, "The
 * account"). */
typedef struct sim_account {
	uint64_t finish;      /* sim_rank_finish */
	uint64_t calc;        /* the calc ops' CPU work (slow ranks' factor in) */
	uint64_t overhead;    /* the CPU work of sends and of messages handled:
	                         o and O (docs/semantics.md sections 3-4) */
	uint64_t noise;       /* what detours added to those activities */
	uint64_t nic;         /* the CPU idle until its NIC became free (g, G):
	                         before a send or a message's handling that
	                         waited for it last (a tie with anything else
	                         counts here), and the NIC's activity after the
	                         CPU's last */
	uint64_t wait;        /* the CPU idle otherwise: waiting for other ranks
	                         (messages in flight, L, peers late, rendezvous,
	                         flows) */
} sim_account;

/* The account of rank r (sim_options.account set): 0, else -1. */
int sim_account_rank(const sim *m, uint64_t r, sim_account *a);

/* ---- Lookahead windows ------------------------------------------------------ */

/* The splits of the ranks the statistics count: into 2, 4, 16 and 64
 * blocks of consecutive ranks (rank r in block r * B / P), and dealt
 * round-robin to as many sets (rank r in set r mod B). */
#define SIM_WIN_SPLITS 4
extern const uint32_t sim_win_blocks[SIM_WIN_SPLITS];

/* What windows of the run's lookahead would hold (docs/parallel.md,
 * "The lookahead"): the first window starts at the first event; each next one
 * at the first event at or after the end of the one before; each lasts
 * the lookahead.  Events are counted where they are processed (an event
 * put back, at each try), by the rank whose state they change: a
 * message's receiver, an op's rank. */
typedef struct sim_windows {
	uint64_t lookahead;   /* ns from a send's start to its message's
	                         arrival, at least (the least o + L over the
	                         size ranges and levels, o of the fastest
	                         rank); 0: none */
	int flows;            /* 1: a network's flows decide the arrivals (no
	                         lookahead: every flow's share couples them) */
	uint64_t windows;
	uint64_t events;
	uint64_t largest;     /* events of the largest window */
	uint64_t visits;      /* (window, rank) pairs with an event */
	uint64_t pushers;     /* events that gave new seqs: what a merge of
	                         the windows' logs orders */
	uint64_t rendezvous;  /* messages above S handled: each ends its
	                         sender's send at its match (no lookahead) */
	uint64_t busiest[SIM_WIN_SPLITS]; /* over the windows, the sum of the
	                         events of each window's busiest block */
	uint64_t busiest_dealt[SIM_WIN_SPLITS]; /* the same, dealt round-robin */
	/* The merge (docs/parallel.md), checked on each window: the windows
	 * whose events, numbered as a run rank by rank would number them,
	 * it put back in the sequential order with their seqs; those it did
	 * not (0, or the argument is wrong); those not tried (seqs
	 * renumbered, a rendezvous message matched, above SIM_WIN_MERGE_MAX
	 * events that gave seqs, out of memory); and its time (wall clock,
	 * ns: not part of any result). */
	uint64_t merged, merge_wrong, merge_skipped, merge_ns;
} sim_windows;

/* The most events that gave seqs a window may have for the merge's check. */
#define SIM_WIN_MERGE_MAX (1u << 24)

/* The statistics (sim_options.windows set, after sim_run): 0, else -1. */
int sim_windows_get(const sim *m, sim_windows *w);

#endif
