/* flow.h: flows over the directed links of a network, sharing every link
 * max-min fairly, or by the published simple rule (docs/semantics.md
 * section 11): the bandwidth model of a simulation with a topology.  A
 * flow has work (ns at its full rate) and a full rate (bytes/ns: no flow
 * goes faster, whatever the links allow); its rate is its max-min fair
 * share of the links of its route.  Starts and ends mark their links;
 * flow_settle then recomputes the rates of the flows that a change there
 * can reach (under the simple rule, the flows on the marked links), and
 * reports each flow whose end moved.  One flow_net belongs to
 * one simulation; no allocation per flow once the pools have grown. */
#ifndef SIM_FLOW_H
#define SIM_FLOW_H

#include <stddef.h>
#include <stdint.h>

typedef struct flow_net flow_net;

/* Per-link totals since flow_net_new. */
typedef struct flow_link_stat {
	double bytes;         /* bytes carried (every flow's share, integrated) */
	uint64_t busy;        /* ns during which at least one flow crossed it */
	uint32_t peak;        /* most flows at once */
	uint32_t n;           /* flows now */
	uint64_t since;       /* n > 0: time the current busy period began */
} flow_link_stat;

/* How flows share links.  MAXMIN: max-min fairly (a flow takes what the
 * others leave on its most contended link).  SIMPLE: the published
 * LogGOPSim's rule, each flow at min over its links of cap / (flows on
 * the link), capped at its full rate; bandwidth a flow leaves unused on a
 * link goes to no other (docs/network.md, "The simple rule"). */
typedef enum flow_rule { FLOW_MAXMIN, FLOW_SIMPLE } flow_rule;

/* A network of nlinks links of cap(ctx, l) bytes/ns each (> 0; asked at
 * a link's first flow), for routes of at most maxhops links, sharing them
 * by rule.  A link takes memory from its first flow on.  NULL when out of
 * memory. */
flow_net *flow_net_new(uint32_t nlinks, double (*cap)(void *ctx, uint32_t l), void *ctx,
                       unsigned maxhops, flow_rule rule);
void flow_net_free(flow_net *f);

/* Start a flow at time t over links[0 .. n-1] (1 <= n <= maxhops; a link
 * may not repeat) with work ns of work at full rate rate (bytes/ns, > 0),
 * work >= 1.  Its rate and end are set by the next flow_settle.  Returns
 * its id (ids of ended flows are reused), or UINT32_MAX when out of
 * memory. */
uint32_t flow_start(flow_net *f, uint64_t t, uint64_t work, double rate,
                    const uint32_t *links, unsigned n);

/* End flow id at time t (its end, as last reported). */
void flow_finish(flow_net *f, uint32_t id, uint64_t t);

/* Marked links wait for flow_settle. */
int flow_pending(const flow_net *f);

/* Recompute at time t (no earlier than any start or finish since the last
 * settle) the rates of the flows on the marked links and of those whose
 * rates they can change (through links that limit some flow; the simple
 * rule: of the flows on a marked link), and call moved(ctx, id, end) for
 * each of them whose end changed (every new flow), in the order the
 * solution fixes them (the same for the same starts and ends; the events
 * it makes carry their own seqs, so the order changes no result).  An end
 * is t + flow_round(remaining work / share of full rate); a flow that ran
 * at full rate since it started ends exactly work ns after its start.
 * Returns 0, or -1 when out of memory. */
int flow_settle(flow_net *f, uint64_t t,
                void (*moved)(void *ctx, uint32_t id, uint64_t end), void *ctx);

/* x >= 0 rounded to an integer, half up; a value within FLOW_HALF below
 * a half counts as one, so that the rounding error of the arithmetic
 * (the order in which a flow's progress was added up) does not decide
 * an exact half: ends in ns and a link's bytes in a period. */
#define FLOW_HALF 1e-6
uint64_t flow_round(double x);

/* The end of flow id as last reported, its generation (it changes each
 * time an end is reported and when the flow ends, so that an event for an
 * earlier end, even one equal to the current end, or for an earlier flow
 * with the same id can be told apart), and its share of full rate (0
 * before its first settle). */
uint64_t flow_end(const flow_net *f, uint32_t id);
uint32_t flow_gen(const flow_net *f, uint32_t id);
double flow_share(const flow_net *f, uint32_t id);

/* Report the load of every link over time: from now on, each settle at t
 * calls load(ctx, l, t0, t, n, bytes) for each link l whose number of
 * flows changed at t, with the n > 0 flows it carried in [t0, t) since its
 * last change at t0 and the bytes they moved on it then, in the order the
 * links were marked.  0, or -1 when out of memory. */
int flow_net_watch(flow_net *f, void (*load)(void *ctx, uint32_t l, uint64_t t0,
                                             uint64_t t, uint32_t n, double bytes),
                   void *ctx);

/* The totals of link l (bytes and busy time up to the last settle). */
const flow_link_stat *flow_link(const flow_net *f, uint32_t l);

/* The links that have carried a flow, in the order of their first ones:
 * *n of them (the others have carried nothing). */
const uint32_t *flow_links_used(const flow_net *f, size_t *n);

/* Flows started so far, and the most flows one settle recomputed. */
uint64_t flow_count(const flow_net *f);
uint64_t flow_largest_settle(const flow_net *f);

#endif
