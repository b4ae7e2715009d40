/* sim_int.h: the state the files of the core share, private to them (sim.h
 * is the contract with everything else): struct sim and its records, the
 * pools' entries, the per-rank accessors that every part reads, and the
 * few functions one file lends another.  The files: sim.c, the rules and
 * the run (the hot code, one compilation unit so that its helpers
 * inline); sim_create.c, making and freeing a simulation; sim_stuck.c, the
 * report of a run that did not complete. */
#ifndef SIM_INT_H
#define SIM_INT_H

#include "sim.h"

#include "evq.h"
#include "invariant.h"
#include "oa.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define NIL UINT32_MAX   /* pool index limit */
#define QNIL 0u          /* end of an RQ / UQ list (entry 0 is never used) */
#define EV_MSG 0x80000000u  /* event word: a message (else an op) */
#define EV_WAKE UINT32_MAX  /* event word of a wake node (no op or message has it) */
#define EV_FLOW (UINT32_MAX - 1)  /* event word of a flow's end (rank word: the flow) */

/* A prefetch the compiler keeps (GCC 12 drops some __builtin_prefetch calls
 * as dead code). */
#if defined(__x86_64__) && defined(__GNUC__)
#define PREFETCH(p) __asm__ volatile("prefetcht0 %0" : : "m"(*(const char *)(p)))
#else
#define PREFETCH(p) __builtin_prefetch(p)
#endif

/* A queued event (evq_node): an op names (rank, op); a message names its
 * send (sender rank, op | EV_MSG) and peer is its receiver.  The start time
 * of a rendezvous send, needed when its message is matched, waits until the
 * message is handled in the sim_rdvs of its rank and CPU, or, when that
 * holds another send or the CPU is past the record's, in the dependency
 * table under RDV_KEY. */
static inline uint64_t rdv_key(uint64_t rank, uint32_t op)
{
	ASSERT(rank < SIM_MAX_RANKS && op < (1u << 31));
	return 1ull << 63 | rank << 31 | op;
}
#define RDV_KEY(rank, op) rdv_key((rank), (op))

/* A rendezvous send in flight of a rank's CPU (one of those in the
 * record): its start time and op + 1 (0: none).  A CPU seldom has two (it
 * waits for the match, and so does its NIC), and the array in rank order
 * is read where the rank records are: a hash table of every rank's sends
 * cost two misses per message. */
typedef struct sim_rdvs {
	uint64_t start;
	uint64_t op1;
} sim_rdvs;

/* A message's bytes in flight as a flow (section 11): the message (send op
 * of rank; rank UINT32_MAX: the flow has ended), the receive it completes
 * (NIL: none yet, the message waits in the UQ), the seq of the flow's end
 * event (the message's), the earliest time the receive completes, and the
 * message's o and sG: a receive matched at the handling completes o after
 * the flow's end e at the earliest, one that took the message from the UQ
 * (uq) at e - sG.  The flow's one live end event is at ev (UINT64_MAX:
 * none yet), with peer word evgen: an end that moves later leaves it
 * there, and it is put back at the end when it comes (sim_net.c). */
typedef struct sim_flow {
	uint32_t rank, op, recv, seq;
	uint64_t done_min, o, sG, ev;
	uint32_t evgen;
	int uq;
} sim_flow;
/* The dependency-table key of a message in a UQ whose flow is on (on 1,
 * id: the flow) or has ended (on 0, lag: e - sG). */
static inline uint64_t flow_key(uint64_t rank, uint32_t op)
{
	ASSERT(rank < SIM_MAX_RANKS && op < (1u << 31));
	return 1ull << 62 | rank << 31 | op;
}
#define FLOW_KEY(rank, op) flow_key((rank), (op))
/* The key of an op (global index) that requires a receive completed late
 * by a flow: flows such flows still on, until the latest completion known,
 * wn its event's node in the wnp pool while it waits for them (QNIL:
 * none).  The op does not start before until, nor while flows > 0. */
static inline uint64_t hold_key(uint64_t gop)
{
	ASSERT(gop < (1ull << 61));
	return 1ull << 61 | gop;
}
#define HOLD_KEY(gop) hold_key(gop)

/* Posted recvs in an RQ, in the order they were posted: n recvs of a
 * rank, with indices op, op + d, .. op + (n - 1) d (their sources and tags
 * are read from the ops).  Recvs posted one after the other at a stride
 * (a rank's roots) are one entry.  next links the list (QNIL ends it). */
typedef struct sim_rqe {
	uint32_t next;
	uint32_t op;
	uint16_t n, d;
} sim_rqe;
_Static_assert(sizeof(sim_rqe) == 12, "sim_rqe is 12 bytes");

/* A posted recv in an indexed RQ (see "Queues"), in a pool of its own: its
 * links in the rank's list (next, prev) and in the chain of its source and
 * tag (snext), the recv, and its number in posting order. */
typedef struct sim_rqx {
	uint32_t next, prev;
	uint32_t snext;
	uint32_t op;
	uint32_t post;
} sim_rqx;
_Static_assert(sizeof(sim_rqx) == 20, "sim_rqx is 20 bytes");

/* A handled message in a UQ: its links, sender rank, the send's tag and
 * index, and the send's start time (for a rendezvous completion).  Its
 * comm index is not stored: uq_take reads it from the send's op record,
 * only for an entry whose source and tag match, and only when the schedule
 * has comms other than 0.  A rank's UQ is a list in arrival order (next,
 * prev); an indexed UQ (see "Queues") also chains each sender's messages
 * in that order (snext). */
typedef struct sim_uqe {
	uint32_t next, prev;
	uint32_t snext;
	uint32_t peer;
	int32_t tag;
	uint32_t op;
	uint64_t aux;
} sim_uqe;
_Static_assert(sizeof(sim_uqe) == 32, "sim_uqe is 32 bytes");
/* Indexed recvs and messages start with next, prev and snext (the list and
 * chain helpers of "Queues" serve both). */
_Static_assert(offsetof(sim_rqx, snext) == 8 && offsetof(sim_uqe, snext) == 8, "snext at 8");
/* The dependency-table key of the messages from sender src in rank's
 * indexed UQ (rq 0; their chain), or of rank's indexed RQ (rq 1, src
 * GOAL_ANY_SOURCE; its wildcards' count).  Ranks below SIM_MAX_RANKS. */
static inline uint64_t qs_key(unsigned rq, uint64_t rank, uint32_t src)
{
	ASSERT(rq <= 1 && rank < SIM_MAX_RANKS);
	return 3ull << 62 | (uint64_t)rq << 61 | rank << 32 | src;
}
#define QS_KEY(rq, rank, src) qs_key((rq), (rank), (src))
/* The key of the chain of the recvs from src (as the rank's recvs store
 * it, GOAL_ANY_SOURCE included) with tag (GOAL_ANY_TAG included) in rank's
 * indexed RQ.  Its low word mixes src and tag, so that the chains of two
 * pairs may share a key: the entry holds its pair, and a search passes
 * the entries of other pairs (bits 63 and 61: no other key has both). */
static inline uint64_t rt_key(uint64_t rank, uint32_t src, int32_t tag)
{
	ASSERT(rank < SIM_MAX_RANKS);
	return 1ull << 63 | 1ull << 61 | rank << 32 | (uint32_t)(src * 0x9e3779b1u + (uint32_t)tag);
}

/* A pool of list entries (whose first field is next), grown by doubling on
 * huge pages; freed entries are reused. */
typedef struct sim_pool {
	unsigned char *a;
	size_t esz;
	uint32_t used, cap, free;
	uint32_t ready;       /* entries below it have their pages */
} sim_pool;

/* A waiting event's seq, rank and op words (its peer word is implied by
 * its list: wl_peer); in a list's sorted run, a waiter is just this. */
typedef struct sim_went {
	uint32_t seq, rank, op;
} sim_went;

/* An event waiting for a busy CPU or NIC (see "Waiting" below) out of
 * seq order, in a list's heap, or an op held by flows (HOLD_KEY): the
 * queue node it will be processed as, but its time (that of the wake node
 * that takes it out, or of its put-back), and its links.  Free: op is
 * EV_WAKE and next links the free nodes. */
typedef struct sim_wnode {
	uint32_t next;        /* the first child */
	uint32_t sib;         /* the next sibling */
	sim_went e;
	uint32_t peer;
} sim_wnode;
_Static_assert(sizeof(sim_wnode) == 24, "sim_wnode is 24 bytes");

static inline void wn_set(sim_wnode *w, const evq_node *x)
{
	w->e.seq = x->seq;
	w->e.rank = x->rank;
	w->e.op = x->op;
	w->peer = x->peer;
}

/* The node of waiter w, at time t. */
static inline evq_node wn_get(const sim_wnode *w, uint64_t t)
{
	evq_node x = { t, w->e.seq, w->e.rank, w->e.op, w->peer };
	return x;
}

/* A chunk of a sorted run, one cache line: the next chunk (QNIL: none;
 * free: the next free chunk) and WC_N waiters in seq order.  A run is read
 * and written at its ends, so its waiters are read in the order they were
 * stored, WC_N to a line: waiting, an event costs a fifth of a line, not a
 * node taken anywhere in the pool. */
#define WC_N 5
/* Two entries of a chunk may be a range: e[i] is the first of n + 1
 * waiters of one rank, with seqs e[i].seq .. + n and op words advancing by
 * d (mod 2^32), and e[i + 1] is { n, WE_RANGE, d }.  A burst of sends
 * released together (an alltoall's) waits in one range. */
#define WE_RANGE UINT32_MAX   /* no rank has it (GOAL_MAX_RANKS) */
typedef struct sim_wchunk {
	uint32_t next;
	sim_went e[WC_N];
} sim_wchunk;
_Static_assert(sizeof(sim_wchunk) == 64, "sim_wchunk is one 64-byte line");

/* Where a waiter is (the peer word of its list's wake node): WREF_HEAP |
 * its node, or its chunk << 3 | its place there.  Chunks number below
 * WC_MAX. */
#define WREF_HEAP 0x80000000u
#define WC_MAX (1u << 28)
static inline uint32_t wref_run(uint32_t c, uint32_t i)
{
	ASSERT(c < WC_MAX && i < 8);
	return c << 3 | i;
}
#define WREF_RUN(c, i) wref_run((c), (i))
#define WREF(m, f) ((f) & WREF_HEAP ? &WN(m, (f) & ~WREF_HEAP)->e : &WC(m, (f) >> 3)->e[(f) & 7])

/* Events waiting for one CPU or NIC, in seq order: a sorted run (waiters
 * usually come in seq order: e[hi] of chunk hc .. e[ti - 1] of chunk tc)
 * and a pairing heap of those that came out of order; n of them.  Every
 * waiter needs the same two resources of one rank: key, the one it waits
 * for, and other (WO_*; WO_NONE: a calc needs only its CPU).  armed: the
 * first of them is in the event queue as a wake node, at seq aseq; listed:
 * the list is in the table of resources.  Free: key is UINT64_MAX and hc
 * links the free lists. */
typedef struct sim_wlist {
	uint32_t hc, tc;      /* QNIL: the run is empty */
	uint32_t heap;
	uint32_t n;
	uint64_t key;         /* the resource: OVF_KEY(rank, OVF_*, index) */
	uint32_t armed : 1, listed : 1, other : 20;
	uint32_t aseq;
	uint32_t tseq;        /* the seq of the run's last waiter: one joins
	                         without reading its line, which other
	                         events have often pushed out of the caches */
	uint8_t hi, ti;       /* the first waiter in hc; one past the last in tc */
} sim_wlist;

/* The other resource of a waiter: OVF_* << 16 | index, or WO_NONE. */
static inline uint32_t wo(unsigned what, uint32_t idx)
{
	ASSERT(what <= 3 && idx <= 0xffff);
	return (uint32_t)what << 16 | idx;
}
#define WO(what, idx) wo((what), (idx))
#define WO_NONE (3u << 16)
_Static_assert(sizeof(sim_wlist) == 40, "sim_wlist is 40 bytes");

/* A slot of the table of the resources that have lists (list QNIL: empty). */
typedef struct sim_wslot {
	uint64_t key;
	uint32_t list;
	uint32_t other;
} sim_wslot;

/* Where a rank's ops and edges are in the mapped schedule. */
typedef struct sim_rank {
	uint64_t block_off;   /* of its op records */
	uint64_t first_op;    /* global index of its first op */
	uint32_t nops;
	uint32_t nedges;
} sim_rank;
_Static_assert(sizeof(sim_rank) == 24, "sim_rank is 24 bytes");
#define RANK_WORDS (sizeof(sim_rank) / sizeof(uint64_t))

/* Per-rank queue heads and tails (indices into the RQ and UQ pools, QNIL:
 * empty). */
typedef struct sim_rq {
	uint32_t rq_head, rq_tail, uq_head, uq_tail;
} sim_rq;
_Static_assert(sizeof(sim_rq) == 16, "sim_rq is 16 bytes");

/* An entry of the dependency table: its key (gop; UINT64_MAX: empty) and,
 * by the key's kind, one of these records (each 16 bytes; a new entry has
 * its first 12 bytes zero): */
typedef struct sim_dep {
	uint64_t gop;
	union {
		/* A global op index: an op with two or more dependencies, cnt
		 * of them satisfied, the latest at maxt by op who of its rank. */
		struct { uint64_t maxt; uint32_t cnt, who; } op;
		/* RDV_KEY: a rendezvous message in flight, its send's start. */
		struct { uint64_t start; } rdv;
		/* FLOW_KEY: a message in a UQ whose flow is on (on 1, flow id)
		 * or has ended (on 0, lag: its end - sG). */
		struct { uint64_t lag; uint32_t on, id; } flow;
		/* HOLD_KEY: an op that waits for flows to end (see HOLD_KEY). */
		struct { uint64_t until; uint32_t flows, wn; } hold;
		/* QS_KEY of a UQ, or rt_key: a chain of queue entries, first
		 * head, last tail; an RQ's chain holds its src and tag. */
		struct { uint32_t src; int32_t tag; uint32_t head, tail; } chain;
		/* QS_KEY of an RQ: its recvs from any source, and of any tag
		 * (while it has some: QX_WILD). */
		struct { uint32_t any_src, any_tag; } rqn;
	};
} sim_dep;
_Static_assert(sizeof(sim_dep) == 24, "sim_dep is 24 bytes");

/* A CPU or NIC free time outside the rank records (key OVF_KEY). */
typedef struct sim_ovf {
	uint64_t key;         /* UINT64_MAX: empty */
	uint64_t t;
	uint64_t who;         /* critical path: what set t (a cpw word) */
} sim_ovf;
#define SIM_REC_INDEX 4u  /* CPUs and NICs 0..3 live in the rank record, */
#define SIM_REC_MAX 64u   /* and those up to 63 a quarter of the ranks use */
enum { OVF_CPU, OVF_NICS, OVF_NICR };
static inline uint64_t ovf_key(uint64_t rank, unsigned what, uint32_t idx)
{
	ASSERT(rank < SIM_MAX_RANKS && what <= OVF_NICR && idx <= 0xffff);
	return rank << 18 | (uint64_t)what << 16 | idx;
}
#define OVF_KEY(rank, what, idx) ovf_key((rank), (what), (idx))
#define OVF_RANK(key) ((key) >> 18)
#define OVF_WHAT(key) ((key) >> 16 & 3)
#define OVF_IDX(key) ((uint32_t)((key) & 0xffff))

/* An op released while processing the current event, by its dependency
 * on op who of its rank (WHO_ROOT: none). */
typedef struct sim_rel {
	uint32_t rank;
	uint32_t op;
	uint64_t time;
	uint32_t who;
} sim_rel;

/* The peer word of an op's event: the dependency that released it (bits
 * 0..30; WHO_ROOT for a root); or WHO_DELAYED once it was queued or put
 * back after its release because its CPU or NIC was busy, and then in bits
 * 0..30 how many times it was put back into the queue (see put_back; the
 * dependency is not needed any more: cp_start reads what set the CPU or
 * NIC). */
#define WHO_ROOT 0x7fffffffu
#define WHO_DELAYED 0x80000000u

/* ---- Critical path records (sim_options.critical) ----------------------
 * What set each time of the run, in 40-bit words: a kind (bits 36..39) and
 * a value below 2^36 (a global op index, or an op index of a rank).  Two
 * words per op (cpr): [0] what set its start; [1] for a send what set the
 * start of its message's handling, for a recv what completed it.  Stored in
 * 5 bytes each, or in 4 (kind in bits 28..31) when the schedule has fewer
 * than 2^28 ops: the records are the path's largest cost, and a run pays
 * for every page of them.
 * Every CPU and NIC free time has the word of the activity that set it
 * (cps, and sim_ovf.who).  A rendezvous send's completion is in the rdv
 * table.  sim_critical_path walks the words back from the finishing time. */
enum cpw_kind {
	CPW_NONE,     /* not set */
	CPW_ROOT,     /* an op without dependencies, released at 0 */
	CPW_DEP,      /* released by its dependency on op VAL of its rank */
	CPW_OPEND,    /* [setter] the CPU end of op VAL: a calc, a send's o + sO */
	CPW_OPNIC,    /* [setter] the NIC end of send VAL: g + sG */
	CPW_HCPU,     /* [setter] the CPU end of the handling of send VAL's message */
	CPW_HNIC,     /* [setter] the NIC end of that handling */
	CPW_RDV,      /* [setter] rendezvous send VAL held its CPU and NIC to its match */
	CPW_ARRIVAL,  /* a message handled when it arrived */
	CPW_SELF,     /* a recv matched at its start; a rendezvous send done at its own end */
	CPW_MSG,      /* a recv completed by the handling of send VAL */
	CPW_MATCH_H,  /* a rendezvous send matched when its message was handled */
	CPW_MATCH_R   /* a rendezvous send matched when recv VAL of its peer started */
};
static inline uint64_t cpw(unsigned kind, uint64_t v)
{
	ASSERT(kind <= 15 && v < (1ull << 36));
	return (uint64_t)kind << 36 | v;
}
#define CPW(kind, v) cpw((kind), (v))
#define CPW_KIND(w) ((unsigned)((w) >> 36) & 15u)
#define CPW_VAL(w) ((w) & ((1ull << 36) - 1))
#define CP_MAX_OPS (1ull << 36)
#define CP_SMALL_OPS (1ull << 28)

/* A rendezvous send's completion word (open addressing on the send's
 * global op index; key UINT64_MAX: empty). */
typedef struct sim_cprdv {
	uint64_t key, w;
} sim_cprdv;

/* Match statistics of a rank (sim_options.qstat). */
/* A rank's account as the run keeps it (sim_account): the end of its
 * CPU's last activity, and the sums. */
typedef struct sim_acct {
	uint64_t cpu_end, calc, overhead, noise, nic, wait;
} sim_acct;

/* A window's event that gave seqs (sim_merge.c): processed at t with seq
 * seq, it gave the seqs p0 .. p0 + n - 1; par: the event of the log that
 * gave it its seq (UINT32_MAX: it was pending at the window's start). */
typedef struct sim_mrec {
	uint64_t t;
	uint32_t seq, p0, n, par;
} sim_mrec;

/* The order in which the sequential run processed the events r[0 .. n - 1]
 * of one window that gave seqs, given in the order of their ranks (each
 * rank's in its own order) and numbered as a run rank by rank numbers
 * them, from base (the window's first new seq; a seq below base was
 * pending at its start): order[j] is the event processed j-th, p0[k] the
 * first seq event k gave there (r[k].par: its parent in r, which a run
 * rank by rank knows as it logs).  0, or -1 when out of memory or when r
 * is not such a log. */
int sim_merge(const sim_mrec *r, size_t n, uint32_t base, uint32_t *order, uint32_t *p0);

/* Check sim_merge on the events rec[0 .. n - 1] of a window of the
 * sequential run (in its order; own: their ranks): numbered as a run
 * rank by rank would number them, are they put back in their order with
 * their seqs?  1 yes, 0 no, -1 out of memory; the merge's time added to
 * *ns. */
int sim_merge_check(const sim_mrec *rec, const uint32_t *own, size_t n, uint32_t base,
                    uint64_t *ns);

/* The lookahead windows' statistics as the run keeps them: the closed
 * windows' sums; the open window (its number from 1, its end, its events
 * and those of each block of each split, its first new seq, whether seqs
 * were renumbered in it and whether a rendezvous message was matched);
 * m->seq when the last event began, and that event (time, seq, rank); per
 * rank the number of its last event's window; and the open window's
 * events that gave seqs, for the merge's check. */
typedef struct sim_win {
	sim_windows w;
	uint32_t id, base;
	uint64_t end, n, seq;
	uint64_t et;
	uint32_t eseq, eown;
	int renumbered, matched;
	uint64_t cnt[SIM_WIN_SPLITS][64], dealt[SIM_WIN_SPLITS][64];
	uint32_t *last;
	sim_mrec *rec;
	uint32_t *own;
	size_t nrec, rec_cap;
} sim_win;

typedef struct sim_qs {
	uint32_t rq_len, uq_len, rq_max, uq_max;
	uint64_t searches, searched;
	uint32_t searched_max, pad;
} sim_qs;

/* Why a run stopped before its end (sim.fail). */
typedef enum sim_fail {
	FAIL_NONE,
	FAIL_MEMORY,          /* out of memory */
	FAIL_SEQS,            /* the seq space exhausted */
	FAIL_TIME             /* a time past UINT64_MAX (at fail_rank, fail_op) */
} sim_fail;

struct sim {
	const goal_sched *s;
	uint64_t S;           /* rendezvous above S bytes */
	uint32_t nrg;         /* size ranges in rg (1: one set for all sizes) */
	uint32_t ppn;         /* ranks per node (0: one level) */
	uint32_t nrg_in;      /* the intra-node ranges, rg[nrg .. nrg + nrg_in) */
	FILE *tl;
	void (*progress)(void *ctx, const sim_progress *pr);
	void *pctx;
	uint64_t seq_limit;
	const sim_perturb *pt;  /* NULL: no noise and no slow ranks */
	uint64_t nranks;
	uint32_t ncpus, nnics;  /* in the record (sim_create.c: rec_layout) */

	/* Per-rank state, one record of stride words per rank (64 bytes with
	 * one CPU and one NIC, so one cache line): the rank's sim_rank entry
	 * (where its ops are, taken from the rank table once so that an event
	 * touches no rank table page), cpu_free[ncpus], nic_send_free[nnics],
	 * nic_recv_free[nnics], then the sim_rq queue heads. */
	uint64_t *rs;
	uint64_t stride, rs_bytes;
	uint64_t rq_off;        /* of the sim_rq in a record, in words */
	int pf_sched;           /* prefetch ops and edges: the blocks are large */
	sim_rdvs *rdvs;       /* per rank and CPU in the record; NULL until the
	                         first rendezvous send */
	/* The free times of CPUs and NICs past those in the record, for the
	 * (rank, index) pairs the schedule uses: memory follows the
	 * schedule, not P times the largest index.  Filled before the run and
	 * never grown during it, so pointers into it stay valid. */
	sim_ovf *ovf;
	uint64_t ovf_mask;
	uint64_t *ovf_max;    /* per rank: the latest free time among its
	                         overflow CPUs, set at the end of the run */
	uint64_t *started;    /* bitmap over global op indices */
	uint64_t started_bytes;
	uint64_t *done;       /* GOAL_CHECKS only: completed ops, as started */
	uint64_t ops_done;

	sim_pool rqp;         /* sim_rqe */
	sim_pool rxp;         /* sim_rqx */
	sim_pool uqp;         /* sim_uqe */
	uint64_t *qix;        /* QX_BITS bits a rank (NULL: none yet) */
	uint32_t q_index_after;
	evq q;
	uint64_t pushes;      /* nodes put into q */

	/* Events waiting for a busy CPU or NIC: lists by resource (a hash
	 * table of the resources that have waiters, with their lists), the
	 * waiting events in a pool: memory follows what waits, not P. */
	sim_pool wnp;         /* sim_wnode */
	sim_pool wcp;         /* sim_wchunk */
	sim_pool wlp;         /* sim_wlist */
	sim_wslot *wt;        /* resource key -> list, open addressing */
	uint64_t wt_mask, wt_n;
	uint32_t waking;      /* the list whose first waiter is being processed */
	uint64_t wakes;       /* wake nodes in the queue */
	uint64_t last_wkey;   /* the resource the put-back before waits for */
	uint64_t burst;       /* put-backs one after the other for last_wkey */
	uint32_t last_list;   /* the list it joined (QNIL: none) */

	sim_dep *dt;          /* open addressing, linear probing */
	uint64_t dt_mask, dt_n;

	sim_rel *rel;
	size_t rel_n, rel_cap;

	uint64_t seq;         /* next seq */
	uint64_t seq_floor;   /* seqs below it belong to roots (root phase) */
	uint64_t now;
	uint64_t messages, ops_started;
	sim_fail fail;        /* the first failure; the run stops at it */
	uint32_t fail_rank, fail_op;

	/* Critical path records (NULL: not kept) and match statistics. */
	unsigned char *cpr;
	uint64_t cpr_bytes;
	unsigned cpr_w;        /* bytes per word: 4 or 5 */
	uint64_t *cps;        /* per rank: the setters of the record's free times */
	uint64_t nres;        /* words per rank in cps: ncpus + 2 * nnics */
	sim_cprdv *rdv;
	uint64_t rdv_mask, rdv_n;
	sim_qs *qs;
	sim_acct *acct;       /* sim_options.account: one per rank, else NULL */
	sim_win *win;         /* sim_options.windows, else NULL */

	/* A network (section 11; fl NULL: none): the flows, their messages
	 * (fr[0 .. nfr-1] by flow id), each rank's latest receive completed by
	 * a flow, and whether routes add a latency per switch. */
	const topo *topo;
	const uint32_t *host;
	flow_net *fl;
	sim_flow *fr;
	size_t nfr, fr_cap;
	uint64_t *fin;
	uint64_t nhold;       /* HOLD_KEY entries in dt */
	int hoplat;
	uint32_t cur_seq;     /* seq of the event being processed */
	double rate[SIM_MAX_RANGES];  /* a flow's full rate by range: 1/G (between nodes) */

	/* By size, the last of each level ending at UINT64_MAX: the ranges of
	 * messages between nodes, then those within one (nrg_in, ppn >= 2). */
	sim_range rg[2 * SIM_MAX_RANGES];
	/* Middleware costs by stride, increasing (nst 0: none, or the
	 * schedule has no strided op). */
	uint32_t nst;
	sim_stride st[SIM_MAX_STRIDES];
};

/* The parameters of message op of rank r (a send, or the receive that
 * matches it): its level's range for its size.  One range: no search; else
 * a linear scan (ranges are few, and small sizes come first). */
static inline const sim_range *range_of(const sim *m, uint32_t r, const goal_op *op)
{
	const sim_range *g = m->rg;
	uint32_t n = m->nrg;
	if (m->ppn) {
		uint32_t q = goal_op_peer(m->s, r, op);
		if (m->host ? m->host[r] == m->host[q] : r / m->ppn == q / m->ppn) {
			g += n;
			n = m->nrg_in;
		}
	}
	if (n > 1)
		while (op->size > g->last)
			g++;
	return g;
}

/* The entries of the pools. */
#define RQE(m, i) ((sim_rqe *)(void *)((m)->rqp.a + (size_t)(i) * sizeof(sim_rqe)))
#define WN(m, i) ((sim_wnode *)(void *)((m)->wnp.a + (size_t)(i) * sizeof(sim_wnode)))
#define WC(m, i) ((sim_wchunk *)(void *)((m)->wcp.a + (size_t)(i) * sizeof(sim_wchunk)))
#define WL(m, i) ((sim_wlist *)(void *)((m)->wlp.a + (size_t)(i) * sizeof(sim_wlist)))
#define UQE(m, i) ((sim_uqe *)(void *)((m)->uqp.a + (size_t)(i) * sizeof(sim_uqe)))
#define RXE(m, i) ((sim_rqx *)(void *)((m)->rxp.a + (size_t)(i) * sizeof(sim_rqx)))

#define Q_INDEX_AFTER 64u   /* the default of sim_options.q_index_after */

/* Per-rank state accessors (see struct sim). */
static inline const sim_rank *rank_of(const sim *m, uint64_t r)
{
	return (const sim_rank *)(const void *)&m->rs[r * m->stride];
}
static inline sim_rq *rank_q(const sim *m, uint64_t r)
{
	return (sim_rq *)(void *)&m->rs[r * m->stride + m->rq_off];
}

static inline const goal_op *rank_ops(const sim *m, uint64_t r)
{
	return (const goal_op *)(const void *)(m->s->base + rank_of(m, r)->block_off);
}
static inline const goal_edge *rank_edges(const sim *m, uint64_t r)
{
	const sim_rank *k = rank_of(m, r);
	return (const goal_edge *)(const void *)(m->s->base + k->block_off
		+ (uint64_t)k->nops * sizeof(goal_op));
}

/* The dependency edges of an op: e[b .. end - 1]. */
typedef struct edge_span {
	const goal_edge *e;
	uint32_t b, end;
} edge_span;

/* The edges of op i of rank r (ops: its ops). */
static inline edge_span op_span(const sim *m, uint32_t r, const goal_op *ops, uint32_t i)
{
	const sim_rank *k = rank_of(m, r);
	edge_span x;
	x.b = ops[i].dep_begin;
	x.end = i + 1 < k->nops ? ops[i + 1].dep_begin : k->nedges;
	x.e = rank_edges(m, r);
	return x;
}

/* The global index of op i of rank r. */
static inline uint64_t gop_of(const sim *m, uint32_t r, uint32_t i)
{
	return rank_of(m, r)->first_op + i;
}

/* The records of global op g. */
static inline unsigned char *cp_rec(const sim *m, uint64_t g)
{
	return m->cpr + g * 2 * m->cpr_w;
}

/* Word k (0 or 1) of global op g. */
static inline uint64_t cp_get(const sim *m, uint64_t g, unsigned k)
{
	const unsigned char *p = cp_rec(m, g) + m->cpr_w * k;
	if (m->cpr_w == 4) {
		uint32_t v;
		memcpy(&v, p, sizeof v);
		return CPW(v >> 28, v & (CP_SMALL_OPS - 1));
	}
	return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16
	       | (uint64_t)p[3] << 24 | (uint64_t)p[4] << 32;
}

static inline void cp_put(sim *m, uint64_t g, unsigned k, uint64_t w)
{
	unsigned char *p = cp_rec(m, g) + m->cpr_w * k;
	if (m->cpr_w == 4) {
		ASSERT(CPW_VAL(w) < CP_SMALL_OPS);
		uint32_t v = (uint32_t)(CPW_KIND(w) << 28 | CPW_VAL(w));
		memcpy(p, &v, sizeof v);
		return;
	}
	for (unsigned b = 0; b < 5; b++)
		p[b] = (unsigned char)(w >> 8 * b);
}

/* The times of an activity (send_times, handle_times, calc_end in sim.c). */
typedef struct act_times {
	uint64_t need, cpu, nic;  /* CPU work; when CPU and NIC are free again */
	uint64_t depart, arrive;  /* send_times only */
	uint64_t o, sG;           /* handle_times only: the message's o and sG */
} act_times;

/* The bits of a rank's queues in m->qix: its UQ is indexed, its RQ is,
 * its indexed RQ holds recvs from any source or of any tag (counted in
 * its QS_KEY entry, there only then). */
enum { QX_UQ, QX_RQ, QX_WILD, QX_BITS = 4 };

/* The bit of rank r's RQ (k 1, QX_RQ), UQ (k 0, QX_UQ) or QX_WILD in
 * m->qix. */
static inline uint64_t q_bit(int k, uint32_t r)
{
	return (uint64_t)QX_BITS * r + (unsigned)k;
}

/* The bytes of m->qix: QX_BITS bits per rank. */
static inline uint64_t q_bytes(const sim *m)
{
	return (QX_BITS * m->nranks + 63) / 64 * sizeof *m->qix;
}

/* The bytes of m->rdvs: a slot for each CPU in a rank record. */
static inline uint64_t rdvs_bytes(const sim *m)
{
	return (m->nranks ? m->nranks : 1) * m->ncpus * sizeof(sim_rdvs);
}

/* Whether rank r's RQ (k 1) or UQ (k 0) is indexed (or its bit k). */
static inline int q_indexed(const sim *m, int k, uint32_t r)
{
	uint64_t b = q_bit(k, r);
	return m->qix && (m->qix[b / 64] >> (b % 64) & 1);
}

/* Whether op g (global index) has started. */
static inline int is_started(const sim *m, uint64_t g)
{
	return (int)(m->started[g >> 6] >> (g & 63) & 1);
}

/* A slot for key in the overflow table (time 0) if it has none: 1 when
 * it is new, 0 when it was there.  The table must have room. */
int sim_ovf_insert(const sim *m, uint64_t key);

/* Zeroed memory for large arrays, on transparent huge pages where the
 * kernel allows (random access over many MB misses the TLB otherwise):
 * NULL when out of memory.  sim_big_free(NULL, n) does nothing. */
void *sim_big_alloc(uint64_t bytes);
void sim_big_free(void *p, uint64_t bytes);

/* A link's load for the timeline (flow_net_watch's callback; ctx: the
 * simulation). */
void sim_link_load(void *ctx, uint32_t l, uint64_t t0, uint64_t t, uint32_t n, double bytes);

/* For the critical path's walk (sim_cpath.c): the times of op i of rank r
 * (op: the op) started at t, as the run computed them: a calc's end (its
 * CPU work in *need), a send's, and the handling on rank q of send op's
 * message that arrived at t. */
uint64_t sim_calc_end(sim *m, uint32_t r, const goal_op *op, uint32_t i, uint64_t t,
                      uint64_t *need);
void sim_send_times(sim *m, uint32_t r, const goal_op *op, uint32_t i, uint64_t t,
                    act_times *x);
void sim_handle_times(sim *m, uint32_t r, const goal_op *op, uint32_t i, uint32_t q,
                      uint64_t t, act_times *x);
/* Rank r's slowdown factor, NULL when it has none. */
const num_dec *sim_slow_factor(const sim *m, uint64_t r);
/* The setter word of what last freed a CPU of rank h at T (the lowest
 * CPU index among those free at T); CPW_NONE when none did. */
uint64_t sim_cp_last(const sim *m, uint64_t h, uint64_t T);
/* The rdv table's slot of rendezvous send g (the table must exist). */
const sim_cprdv *sim_cp_rdv_find(const sim *m, uint64_t g);

/* Op i of rank r in messages: its label, or "#i" when it has none. */
const char *sim_op_name(const goal_sched *s, uint64_t r, uint32_t i, char *buf, size_t n);

#endif
