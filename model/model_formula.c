/* model_formula.c: the table of closed forms (LogP barriers, LogGP
 * broadcasts, LogGOPS collectives) with their domains of validity. */
#include "model_formula.h"

#include <string.h>

void model_ctx_set(model_ctx *c, uint64_t P, uint64_t s, uint64_t n,
                   const sim_params *prm)
{
	memset(c, 0, sizeof *c);
	c->P = P;
	c->s = s;
	c->n = n;
	c->prm = *prm;
	c->sO = sim_rate_bytes(prm->O, s);
	c->sG = sim_rate_bytes(prm->G, s);
}

void model_ctx_set_mw(model_ctx *c, const sim_stride *x)
{
	c->om = x->o_mw + sim_rate_bytes(x->O_mw, c->s);
	c->lm = x->l_mw + sim_rate_bytes(x->L_mw, c->s);
	c->strided = 1;
}

const char *model_kind_name(model_kind k)
{
	switch (k) {
	case MODEL_EXACT: return "exact";
	case MODEL_LOWER: return "lower bound";
	case MODEL_UPPER: return "upper bound";
	case MODEL_APPROX: return "approximation";
	}
	return "?";
}

uint64_t model_ceil_log(uint64_t n, uint64_t x)
{
	uint64_t k = 0, v = 1;
	while (v < x) {
		v = v > UINT64_MAX / n ? UINT64_MAX : v * n;
		k++;
	}
	return k;
}

/* ---- Shorthands of the formulas ---------------------------------------- */

static uint64_t max2(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* floor(log2 x) for x >= 1. */
static uint64_t floor_log2(uint64_t x)
{
	uint64_t k = 0;
	while (x >>= 1)
		k++;
	return k;
}

static int pow2(uint64_t x) { return x && !(x & (x - 1)); }
static int ex_pow2(const model_ctx *c) { return pow2(c->P); }
static int eager(const model_ctx *c) { return c->s <= c->prm.S; }
static int rendezvous(const model_ctx *c) { return c->s > c->prm.S; }
/* No per-byte cost: the LogP world. */
static int no_bytes(const model_ctx *c) { return c->sO == 0 && c->sG == 0; }
/* max(sO, sG): the receive cost beyond o. */
static uint64_t m_of(const model_ctx *c) { return max2(c->sO, c->sG); }
/* The hop 2o + L + max(sO, sG). */
static uint64_t hop(const model_ctx *c) { return 2 * c->prm.o + c->prm.L + m_of(c); }
/* f = max(o, g) and t = max(g, 2o + L) of the LogP barrier paper. */
static uint64_t f_of(const model_ctx *c) { return max2(c->prm.o, c->prm.g); }
static uint64_t t_of(const model_ctx *c) { return max2(c->prm.g, 2 * c->prm.o + c->prm.L); }

/* ---- LogGOPS (Hoefler, Schneider, Lumsdaine 2010) ---------------------- */

/* 2o + L + max{(P-2)o + (P-1)sO, (P-2)g + (P-1)sG} */
static uint64_t ev_loggops_linear(const model_ctx *c)
{
	uint64_t P = c->P;
	return 2 * c->prm.o + c->prm.L +
	       max2((P - 2) * c->prm.o + (P - 1) * c->sO, (P - 2) * c->prm.g + (P - 1) * c->sG);
}

/* The same plus (P-1)L for rendezvous. */
static uint64_t ev_loggops_linear_rdv(const model_ctx *c)
{
	return ev_loggops_linear(c) + (c->P - 1) * c->prm.L;
}

/* The same term dominates both maxima (or P = 2, where there is one). */
static int ex_scatter_same_term(const model_ctx *c)
{
	uint64_t o = c->prm.o, g = c->prm.g;
	if (!eager(c))
		return 0;
	return c->P == 2 || (o + c->sO >= g + c->sG && c->sO >= c->sG) ||
	       (g + c->sG >= o + c->sO && c->sG >= c->sO);
}

/* Gather: the root's receives are spaced by max(o + max(sO, sG), g + sG). */
static int ex_gather_same_term(const model_ctx *c)
{
	uint64_t o = c->prm.o, g = c->prm.g;
	if (!eager(c))
		return 0;
	return c->P == 2 || (g >= o && c->sG >= c->sO) ||
	       (c->sO >= c->sG && o + c->sO >= g + c->sG);
}

/* (2o + L + max{sO, sG}) ceil(log2 P) */
static uint64_t ev_loggops_binomial(const model_ctx *c)
{
	return hop(c) * model_ceil_log(2, c->P);
}

static int dom_binomial(const model_ctx *c)
{
	return eager(c) && c->prm.g + c->sG <= hop(c);
}

/* (delta + 2o + L + max{sO, sG}) ceil(log2 P), delta = max(0, sO - L) */
static uint64_t ev_loggops_dissemination(const model_ctx *c)
{
	uint64_t delta = c->sO > c->prm.L ? c->sO - c->prm.L : 0;
	return (delta + hop(c)) * model_ceil_log(2, c->P);
}

static int dom_dissemination(const model_ctx *c)
{
	uint64_t delta = c->sO > c->prm.L ? c->sO - c->prm.L : 0;
	return eager(c) && c->prm.g + c->sG <= delta + hop(c);
}

/* docs/semantics.md section 7: 2o + L + max(sO, sG) + (P-2) max(o + sO, g + sG) */
static uint64_t ev_spec_scatter(const model_ctx *c)
{
	return hop(c) + (c->P - 2) * max2(c->prm.o + c->sO, c->prm.g + c->sG);
}

/* docs/patterns.md: 2o + L + max(sO, sG) + (P-2) max(o + max(sO, sG), g + sG) */
static uint64_t ev_spec_gather(const model_ctx *c)
{
	return hop(c) + (c->P - 2) * max2(c->prm.o + m_of(c), c->prm.g + c->sG);
}

/* docs/patterns.md: (P-1)(2o + L + max(sO, sG)) */
static uint64_t ev_chain(const model_ctx *c)
{
	return (c->P - 1) * hop(c);
}

/* P-1 MPI_Sendrecv steps: a rank's CPU sends (o + sO) while the message
 * from its other neighbour, gone after o, arrives L later; the receive
 * starts when both are done and costs o + max(sO, sG). */
static uint64_t ev_sendrecv_steps(const model_ctx *c)
{
	return (c->P - 1) * (2 * c->prm.o + max2(c->prm.L, c->sO) + m_of(c));
}

/* One MPI_Sendrecv step of x bytes each way, as above:
 * 2o + max(L, xO) + max(xO, xG). */
static uint64_t step_of(const model_ctx *c, uint64_t x)
{
	uint64_t xO = sim_rate_bytes(c->prm.O, x), xG = sim_rate_bytes(c->prm.G, x);
	return 2 * c->prm.o + max2(c->prm.L, xO) + max2(xO, xG);
}
/* A rank's sends of x bytes, one a step, are g + xG apart at least. */
static int gap_fits(const model_ctx *c, uint64_t x)
{
	return x <= c->prm.S && c->prm.g + sim_rate_bytes(c->prm.G, x) <= step_of(c, x);
}

/* allreduce_ring, chunks of c = s/P: 2(P-1) steps, each a send of a chunk
 * and the receive it waits for (a dissemination round). */
static uint64_t ev_ring_chunks(const model_ctx *c)
{
	return 2 * (c->P - 1) * step_of(c, c->s / c->P);
}
static int dom_ring_chunks(const model_ctx *c)
{
	return c->s % c->P == 0 && gap_fits(c, c->s / c->P);
}

/* NCCL's rings (schedgen/sg_nccl.c, Simple, one channel): one chunk a
 * step and one message a chunk while a chunk is at most a slice, 1 MiB on
 * the rings, 512 KiB on the chains of bcast and reduce (docs/patterns.md,
 * "NCCL"); no message at all for 0 bytes.  A step's send waits for the
 * step before's receive, so a step costs what an MPI_Sendrecv step does. */
#define NCCL_RING_SLICE (1u << 20)
#define NCCL_CHAIN_SLICE (1u << 19)
static int dom_ring_nccl(const model_ctx *c)
{
	return c->s && dom_ring_chunks(c) && c->s / c->P <= NCCL_RING_SLICE;
}
static int dom_steps_nccl(const model_ctx *c)
{
	return c->s && c->s <= NCCL_RING_SLICE && dom_binomial(c);
}
static int dom_chain_nccl(const model_ctx *c)
{
	return c->s && c->s <= NCCL_CHAIN_SLICE && eager(c);
}

/* NCCL's double binary tree (allreduce_tree_nccl, Simple, one channel,
 * nodes of one rank): one chunk while s is at most the smallest tree
 * chunk (32 KiB) goes up NCCL's binary tree of the P ranks, ceil(log2 P)
 * deep, and down again.  Each hop costs at least a chain's; a rank with
 * two children takes their chunks one after the other, so a bound, exact
 * where the tree is a chain (P <= 3) whose middle rank's two sends, two
 * hops apart, are not held back by g. */
#define NCCL_TREE_MIN_CHUNK (1u << 15)
static uint64_t ev_tree_nccl(const model_ctx *c)
{
	uint64_t d = 0;
	while ((UINT64_C(1) << d) < c->P)
		d++;
	return 2 * d * hop(c);
}
static int dom_tree_nccl(const model_ctx *c)
{
	return c->s && c->s <= NCCL_TREE_MIN_CHUNK && eager(c);
}
static int exact_tree_nccl(const model_ctx *c)
{
	return c->P <= 2 || (c->P == 3 && c->prm.g + c->sG <= 2 * hop(c));
}

/* allreduce_recdoub_ompi, P a power of two: log2 P exchanges of s bytes
 * (other P fold ranks in, and the ranks that wait for them meet partners
 * that did not: no step-by-step form). */
static uint64_t ev_recdoub_ompi(const model_ctx *c)
{
	return floor_log2(c->P) * step_of(c, c->s);
}
static int dom_recdoub_ompi(const model_ctx *c)
{
	return pow2(c->P) && gap_fits(c, c->s);
}

/* allreduce_rabenseifner, P a power of two and s a multiple of P: the
 * halving exchanges s/2, s/4, .. s/P bytes, the doubling the same again. */
static uint64_t ev_rabenseifner(const model_ctx *c)
{
	uint64_t t = 0, m = floor_log2(c->P);
	for (uint64_t k = 1; k <= m; k++)
		t += 2 * step_of(c, c->s >> k);
	return t;
}
static int dom_rabenseifner(const model_ctx *c)
{
	if (!pow2(c->P) || c->s % c->P || c->s < c->P)
		return 0;
	for (uint64_t k = 1; k <= floor_log2(c->P); k++)
		if (!gap_fits(c, c->s >> k))
			return 0;
	return 1;
}

/* reduce_scatter_block_rechalving, P a power of two: step k = 1..log2 P
 * exchanges P/2^k blocks of s bytes. */
static uint64_t ev_rechalving(const model_ctx *c)
{
	uint64_t t = 0;
	for (uint64_t m = c->P / 2; m > 0; m >>= 1)
		t += step_of(c, m * c->s);
	return t;
}
static int dom_rechalving(const model_ctx *c)
{
	if (!pow2(c->P))
		return 0;
	for (uint64_t m = c->P / 2; m > 0; m >>= 1)
		if (!gap_fits(c, m * c->s))
			return 0;
	return 1;
}

/* allgather_neighbor, P even: one exchange of a block, then P/2 - 1 of
 * two. */
static uint64_t ev_neighbor(const model_ctx *c)
{
	return step_of(c, c->s) + (c->P / 2 - 1) * step_of(c, 2 * c->s);
}
static int dom_neighbor(const model_ctx *c)
{
	return c->P % 2 == 0 && gap_fits(c, c->s) && (c->P == 2 || gap_fits(c, 2 * c->s));
}

/* allgather_bruck: step k exchanges min(2^k, P - 2^k) blocks of s bytes. */
static uint64_t ev_bruck(const model_ctx *c)
{
	uint64_t t = 0;
	for (uint64_t d = 1; d < c->P; d <<= 1)
		t += step_of(c, (d <= c->P / 2 ? d : c->P - d) * c->s);
	return t;
}
static int dom_bruck(const model_ctx *c)
{
	for (uint64_t d = 1; d < c->P; d <<= 1)
		if (!gap_fits(c, (d <= c->P / 2 ? d : c->P - d) * c->s))
			return 0;
	return 1;
}

/* ---- LogP barriers (Hoefler, Cerquetti, Mehlan, Mietke, Rehm 2005) ----- */

/* 2(2o + L) + 2(P-2) f */
static uint64_t ev_logp_central(const model_ctx *c)
{
	return 2 * (2 * c->prm.o + c->prm.L) + 2 * (c->P - 2) * f_of(c);
}

/* (2o + L + (n-2) f) ceil(log_n P) + 2o + L + (ceil(log2 P) - 1) t */
static uint64_t ev_logp_combining(const model_ctx *c)
{
	uint64_t n = c->n < 2 ? 2 : c->n, K = model_ceil_log(2, c->P);
	uint64_t up = (2 * c->prm.o + c->prm.L + (n - 2) * f_of(c)) * model_ceil_log(n, c->P);
	return up + 2 * c->prm.o + c->prm.L + (K ? K - 1 : 0) * t_of(c);
}

/* t ceil(log2 P) + 2o + L + (ceil(log2 P) - 1) t */
static uint64_t ev_logp_tournament(const model_ctx *c)
{
	uint64_t K = model_ceil_log(2, c->P);
	return t_of(c) * K + 2 * c->prm.o + c->prm.L + (K ? K - 1 : 0) * t_of(c);
}

/* t ceil(log2 P) */
static uint64_t ev_logp_dissemination(const model_ctx *c)
{
	return t_of(c) * model_ceil_log(2, c->P);
}

static int dom_logp(const model_ctx *c) { return eager(c) && no_bytes(c); }

static int ex_logp_dissemination(const model_ctx *c)
{
	return c->prm.g <= 2 * c->prm.o + c->prm.L;
}

static int dom_logp_tournament(const model_ctx *c)
{
	return dom_logp(c) && c->prm.g <= 2 * c->prm.o + c->prm.L;
}

/* ---- LogGP broadcasts (Cameron, Ge, Sun 2007), k = s - 1 --------------- */

/* 2o + L + (P-1) G k + (P-2) g */
static uint64_t ev_cameron_linear(const model_ctx *c)
{
	return 2 * c->prm.o + c->prm.L + (c->P - 1) * c->sG + (c->P - 2) * c->prm.g;
}

static int ex_cameron_linear(const model_ctx *c)
{
	return eager(c) && c->sG >= c->sO && (c->P == 2 || c->prm.g + c->sG >= c->prm.o + c->sO);
}

/* h (2o + L + k G) + (h - 1) g, h = log2 P (the depth of the tree) */
static uint64_t ev_cameron_binary(const model_ctx *c)
{
	uint64_t h = floor_log2(c->P);
	return h * (2 * c->prm.o + c->prm.L + c->sG) + (h ? h - 1 : 0) * c->prm.g;
}

/* docs/patterns.md, full binary tree of depth d: d (2o + L + max(sO, sG) + max(o + sO, g + sG)) */
static uint64_t ev_heap_binary(const model_ctx *c)
{
	uint64_t d = floor_log2(c->P);
	return d * (hop(c) + max2(c->prm.o + c->sO, c->prm.g + c->sG));
}

static int dom_heap_binary(const model_ctx *c)
{
	return eager(c) && pow2(c->P + 1);
}

static int dom_eager(const model_ctx *c) { return eager(c); }

/* ---- log_3 P (Cameron, Ge, Sun 2007): strided messages --------------------
 * The paper's o_mw is the middleware overhead of a message, sender and
 * receiver together: 2 om here (om at each end, docs/semantics.md section
 * 10); its l_mw is lm, and its o_net the LogGOPS point-to-point time of
 * the contiguous message, 2o + L + max(sO, sG). */

/* o_mw + l_mw + o_net: one strided message. */
static uint64_t p2p3(const model_ctx *c) { return 2 * c->om + c->lm + hop(c); }

/* (P-1) (o_mw + l_mw + o_net): the chain is P-1 point-to-point messages in a
 * row (P = 2: one). */
static uint64_t ev_log3p_p2p(const model_ctx *c)
{
	return (c->P - 1) * p2p3(c);
}

/* P (o_mw/2 + l_mw/2) + o_net, rounded half up. */
static uint64_t ev_log3p_linear(const model_ctx *c)
{
	return (c->P * (2 * c->om + c->lm) + 1) / 2 + hop(c);
}

/* The root's time per send: max(o + om + sO, g + sG). */
static uint64_t root_step(const model_ctx *c)
{
	return max2(c->prm.o + c->om + c->sO, c->prm.g + c->sG);
}

/* The paper's form is (P-2)(om + lm/2 - root_step) from the exact one: at
 * most it where lm/2 <= root_step - om. */
static int dom_log3p_linear(const model_ctx *c)
{
	return eager(c) && c->lm <= 2 * (root_step(c) - c->om);
}

static int ex_log3p_linear(const model_ctx *c)
{
	return c->P == 2 || c->lm == 2 * (root_step(c) - c->om);
}

/* docs/semantics.md sections 7 and 10: o + om in place of o, L + lm in
 * place of L in the exact linear form. */
static uint64_t ev_log3p_spec_linear(const model_ctx *c)
{
	return p2p3(c) + (c->P - 2) * root_step(c);
}

/* h (o_mw + l_mw + o_net), h = ceil(log2 P) */
static uint64_t ev_log3p_tree(const model_ctx *c)
{
	return p2p3(c) * model_ceil_log(2, c->P);
}

/* The binomial tree's condition with o + om and L + lm. */
static int dom_log3p_tree(const model_ctx *c)
{
	return eager(c) && c->prm.g + c->sG <= p2p3(c);
}

/* ---- The table ---------------------------------------------------------- */

#define HSL10 "Hoefler, Schneider, Lumsdaine 2010 (LogGOPSim)"
#define HCMMR05 "Hoefler, Cerquetti, Mehlan, Mietke, Rehm 2005 (LogP barriers)"
#define CGS07 "Cameron, Ge, Sun 2007 (lognP and log3P)"

static const model_formula table[] = {
	{ "scatter_linear", "loggops_linear", HSL10,
	  "2o + L + max{(P-2)o + (P-1)sO, (P-2)g + (P-1)sG}", MODEL_LOWER,
	  "s <= S", dom_eager,
	  "the same term dominates both maxima: o+sO >= g+sG and sO >= sG, or "
	  "g+sG >= o+sO and sG >= sO (or P = 2)", ex_scatter_same_term,
	  "", ev_loggops_linear, 0 },
	{ "scatter_linear", "loggops_linear_rdv", HSL10,
	  "2o + L + max{(P-2)o + (P-1)sO, (P-2)g + (P-1)sG} + (P-1)L", MODEL_APPROX,
	  "s > S (rendezvous)", rendezvous, NULL, NULL,
	  "", ev_loggops_linear_rdv, 0 },
	{ "scatter_linear", "spec_scatter", "docs/semantics.md section 7",
	  "2o + L + max(sO, sG) + (P-2) max(o + sO, g + sG)", MODEL_EXACT,
	  "s <= S", dom_eager, NULL, NULL,
	  "", ev_spec_scatter, 0 },
	{ "scatter_linear", "cameron_linear", CGS07,
	  "2o + L + (P-1)Gk + (P-2)g, k = s-1", MODEL_LOWER,
	  "s <= S", dom_eager,
	  "sG >= sO and (g+sG >= o+sO or P = 2)", ex_cameron_linear,
	  "the linear broadcast: the root sends the same s bytes to every rank, "
	  "which is the schedule of scatter_linear", ev_cameron_linear, 0 },
	{ "scatter_linear", "log3p_linear", CGS07,
	  "P (o_mw/2 + l_mw/2) + o_net, o_mw = 2om, l_mw = lm, o_net = 2o + L + max(sO, sG)",
	  MODEL_LOWER, "s <= S, lm <= 2 (max(o + om + sO, g + sG) - om)", dom_log3p_linear,
	  "P = 2 (or lm = 2 (max(o + om + sO, g + sG) - om))", ex_log3p_linear,
	  "the linear broadcast of strided messages (the schedule of scatter_linear); "
	  "above the domain an upper bound", ev_log3p_linear, 1 },
	{ "scatter_linear", "log3p_spec_linear", "docs/semantics.md sections 7, 10",
	  "o_mw + l_mw + o_net + (P-2) max(o + om + sO, g + sG)", MODEL_EXACT,
	  "s <= S", dom_eager, NULL, NULL,
	  "", ev_log3p_spec_linear, 1 },
	{ "gather_linear", "loggops_linear", HSL10,
	  "2o + L + max{(P-2)o + (P-1)sO, (P-2)g + (P-1)sG}", MODEL_LOWER,
	  "s <= S", dom_eager,
	  "g >= o and sG >= sO, or sO >= sG and o+sO >= g+sG (or P = 2)", ex_gather_same_term,
	  "the root pays o + max(sO, sG) per receive", ev_loggops_linear, 0 },
	{ "gather_linear", "loggops_linear_rdv", HSL10,
	  "2o + L + max{(P-2)o + (P-1)sO, (P-2)g + (P-1)sG} + (P-1)L", MODEL_APPROX,
	  "s > S (rendezvous)", rendezvous, NULL, NULL,
	  "", ev_loggops_linear_rdv, 0 },
	{ "gather_linear", "spec_gather", "docs/patterns.md",
	  "2o + L + max(sO, sG) + (P-2) max(o + max(sO, sG), g + sG)", MODEL_EXACT,
	  "s <= S", dom_eager, NULL, NULL,
	  "", ev_spec_gather, 0 },
	{ "bcast_binomial", "loggops_binomial", HSL10,
	  "(2o + L + max{sO, sG}) ceil(log2 P)", MODEL_UPPER,
	  "s <= S, g + sG <= 2o + L + max(sO, sG)", dom_binomial,
	  "P is a power of two", ex_pow2,
	  "", ev_loggops_binomial, 0 },
	{ "bcast_binomial", "log3p_tree", CGS07,
	  "h (o_mw + l_mw + o_net), h = ceil(log2 P), o_mw = 2om, l_mw = lm", MODEL_UPPER,
	  "s <= S, g + sG <= o_mw + l_mw + o_net", dom_log3p_tree,
	  "P is a power of two", ex_pow2,
	  "the tree-structured broadcast of strided messages", ev_log3p_tree, 1 },
	{ "bcast_binary", "cameron_binary", CGS07,
	  "h (2o + L + kG) + (h-1) g, h = floor(log2 P), k = s-1", MODEL_APPROX,
	  "s <= S", dom_eager, NULL, NULL,
	  "h is the depth of the tree (log2 P for P a power of two); the paper "
	  "charges no receive overhead for the second child", ev_cameron_binary, 0 },
	{ "bcast_binary", "heap_binary", "docs/patterns.md",
	  "d (2o + L + max(sO, sG) + max(o + sO, g + sG)), d = log2(P+1) - 1", MODEL_EXACT,
	  "s <= S, P + 1 a power of two (a full tree)", dom_heap_binary, NULL, NULL,
	  "", ev_heap_binary, 0 },
	{ "bcast_chain", "log3p_p2p", CGS07,
	  "(P-1) (o_mw + l_mw + o_net), o_mw = 2om, l_mw = lm, o_net = 2o + L + max(sO, sG)",
	  MODEL_EXACT, "s <= S, unsegmented", dom_eager, NULL, NULL,
	  "the point-to-point form o_mw + l_mw + o_net (P = 2), once per link of the chain",
	  ev_log3p_p2p, 1 },
	{ "bcast_chain", "chain", "docs/patterns.md",
	  "(P-1) (2o + L + max(sO, sG))", MODEL_EXACT,
	  "s <= S, unsegmented", dom_eager, NULL, NULL,
	  "", ev_chain, 0 },
	{ "allgather_ring", "sendrecv_steps", "docs/patterns.md",
	  "(P-1) (2o + max(L, sO) + max(sO, sG))", MODEL_EXACT,
	  "s <= S, g + sG <= 2o + L + max(sO, sG)", dom_binomial, NULL, NULL,
	  "P-1 steps of one MPI_Sendrecv each", ev_sendrecv_steps, 0 },
	{ "alltoall_pairwise", "sendrecv_steps", "docs/patterns.md",
	  "(P-1) (2o + max(L, sO) + max(sO, sG))", MODEL_EXACT,
	  "s <= S, g + sG <= 2o + L + max(sO, sG)", dom_binomial, NULL, NULL,
	  "P-1 steps of one MPI_Sendrecv each", ev_sendrecv_steps, 0 },
	{ "alltoall_pairwise_mpich", "sendrecv_steps", "docs/patterns.md",
	  "(P-1) (2o + max(L, sO) + max(sO, sG))", MODEL_EXACT,
	  "s <= S, g + sG <= 2o + L + max(sO, sG)", dom_binomial, NULL, NULL,
	  "P-1 steps of one MPI_Sendrecv each", ev_sendrecv_steps, 0 },
	{ "reduce_scatter_pairwise", "sendrecv_steps", "docs/patterns.md",
	  "(P-1) (2o + max(L, sO) + max(sO, sG))", MODEL_EXACT,
	  "s <= S, g + sG <= 2o + L + max(sO, sG)", dom_binomial, NULL, NULL,
	  "P-1 steps of one MPI_Sendrecv each; no reduction computation", ev_sendrecv_steps, 0 },
	{ "reduce_scatter_block_rechalving", "halving_steps", "docs/patterns.md",
	  "sum_{k=1..log2 P} (2o + max(L, xO) + max(xO, xG)), x = P s/2^k", MODEL_EXACT,
	  "P a power of two, P s/2 <= S, g + xG within each step", dom_rechalving, NULL, NULL,
	  "no reduction computation", ev_rechalving, 0 },
	{ "allreduce_ring", "ring_chunks", "docs/patterns.md",
	  "2(P-1) (2o + max(L, cO) + max(cO, cG)), c = s/P", MODEL_EXACT,
	  "P divides s, c <= S, g + cG <= 2o + max(L, cO) + max(cO, cG)", dom_ring_chunks, NULL, NULL,
	  "unsegmented; no reduction computation", ev_ring_chunks, 0 },
	{ "allreduce_ring_nccl", "ring_chunks", "docs/patterns.md",
	  "2(P-1) (2o + max(L, cO) + max(cO, cG)), c = s/P", MODEL_EXACT,
	  "P divides s, 0 < c <= 1 MiB, c <= S, g + cG <= 2o + max(L, cO) + max(cO, cG)",
	  dom_ring_nccl, NULL, NULL,
	  "Simple, one channel: a chunk a step; no reduction computation", ev_ring_chunks, 0 },
	{ "allgather_ring_nccl", "sendrecv_steps", "docs/patterns.md",
	  "(P-1) (2o + max(L, sO) + max(sO, sG))", MODEL_EXACT,
	  "0 < s <= 1 MiB, s <= S, g + sG <= 2o + L + max(sO, sG)", dom_steps_nccl, NULL, NULL,
	  "Simple, one channel: a rank's block a step", ev_sendrecv_steps, 0 },
	{ "reduce_scatter_ring_nccl", "sendrecv_steps", "docs/patterns.md",
	  "(P-1) (2o + max(L, sO) + max(sO, sG))", MODEL_EXACT,
	  "0 < s <= 1 MiB, s <= S, g + sG <= 2o + L + max(sO, sG)", dom_steps_nccl, NULL, NULL,
	  "Simple, one channel: a rank's block a step; no reduction computation",
	  ev_sendrecv_steps, 0 },
	{ "bcast_ring_nccl", "chain", "docs/patterns.md",
	  "(P-1) (2o + L + max(sO, sG))", MODEL_EXACT,
	  "0 < s <= 512 KiB, s <= S", dom_chain_nccl, NULL, NULL,
	  "Simple, one channel: one message a hop", ev_chain, 0 },
	{ "reduce_ring_nccl", "chain", "docs/patterns.md",
	  "(P-1) (2o + L + max(sO, sG))", MODEL_EXACT,
	  "0 < s <= 512 KiB, s <= S", dom_chain_nccl, NULL, NULL,
	  "Simple, one channel: one message a hop; no reduction computation", ev_chain, 0 },
	{ "allreduce_tree_nccl", "tree_up_down", "docs/patterns.md",
	  "2 ceil(log2 P) (2o + L + max(sO, sG))", MODEL_LOWER,
	  "0 < s <= 32 KiB, s <= S", dom_tree_nccl, "P = 2; P = 3 (a chain) with g + sG <= 2 (2o + L + max(sO, sG))",
	  exact_tree_nccl,
	  "Simple, one channel, nodes of one rank: one chunk up and down; no reduction"
	  " computation", ev_tree_nccl, 0 },
	{ "allreduce_recdoub_ompi", "sendrecv_rounds", "docs/patterns.md",
	  "log2 P (2o + max(L, sO) + max(sO, sG))", MODEL_EXACT,
	  "P a power of two, s <= S, g + sG <= 2o + max(L, sO) + max(sO, sG)", dom_recdoub_ompi, NULL, NULL,
	  "no reduction computation", ev_recdoub_ompi, 0 },
	{ "allreduce_rabenseifner", "halving_doubling", "docs/patterns.md",
	  "2 sum_{k=1..log2 P} (2o + max(L, xO) + max(xO, xG)), x = s/2^k", MODEL_EXACT,
	  "P a power of two dividing s, s/2 <= S, g + xG within each step", dom_rabenseifner, NULL, NULL,
	  "no reduction computation", ev_rabenseifner, 0 },
	{ "allreduce_rabenseifner_mpich", "halving_doubling", "docs/patterns.md",
	  "2 sum_{k=1..log2 P} (2o + max(L, xO) + max(xO, xG)), x = s/2^k", MODEL_EXACT,
	  "P a power of two dividing s, s/2 <= S, g + xG within each step", dom_rabenseifner, NULL, NULL,
	  "no reduction computation", ev_rabenseifner, 0 },
	{ "allgather_recdoub", "doubling_steps", "docs/patterns.md",
	  "sum_{k=1..log2 P} (2o + max(L, xO) + max(xO, xG)), x = 2^(k-1) s", MODEL_EXACT,
	  "P a power of two, P s/2 <= S, g + xG within each step", dom_rechalving, NULL, NULL,
	  "the sizes of the halving steps, in the other order", ev_rechalving, 0 },
	{ "allgather_neighbor", "neighbor_steps", "docs/patterns.md",
	  "(2o + max(L, sO) + max(sO, sG)) + (P/2 - 1) (2o + max(L, xO) + max(xO, xG)), x = 2s",
	  MODEL_EXACT, "P even, 2s <= S, g + xG within each step", dom_neighbor, NULL, NULL,
	  "", ev_neighbor, 0 },
	{ "scan_recdoub", "sendrecv_rounds", "docs/patterns.md",
	  "log2 P (2o + max(L, sO) + max(sO, sG))", MODEL_EXACT,
	  "P a power of two, s <= S, g + sG <= 2o + max(L, sO) + max(sO, sG)", dom_recdoub_ompi, NULL, NULL,
	  "no reduction computation", ev_recdoub_ompi, 0 },
	{ "exscan_recdoub", "sendrecv_rounds", "docs/patterns.md",
	  "log2 P (2o + max(L, sO) + max(sO, sG))", MODEL_EXACT,
	  "P a power of two, s <= S, g + sG <= 2o + max(L, sO) + max(sO, sG)", dom_recdoub_ompi, NULL, NULL,
	  "no reduction computation", ev_recdoub_ompi, 0 },
	{ "reduce_scatter_ring", "sendrecv_steps", "docs/patterns.md",
	  "(P-1) (2o + max(L, sO) + max(sO, sG))", MODEL_EXACT,
	  "s <= S, g + sG <= 2o + L + max(sO, sG)", dom_binomial, NULL, NULL,
	  "P-1 steps of one block each; no reduction computation", ev_sendrecv_steps, 0 },
	{ "reduce_scatter_block_butterfly", "halving_steps", "docs/patterns.md",
	  "sum_{k=1..log2 P} (2o + max(L, xO) + max(xO, xG)), x = P s/2^k", MODEL_EXACT,
	  "P a power of two, P s/2 <= S, g + xG within each step", dom_rechalving, NULL, NULL,
	  "no reduction computation", ev_rechalving, 0 },
	{ "allgather_bruck", "bruck_steps", "docs/patterns.md",
	  "sum_{d=2^k<P} (2o + max(L, xO) + max(xO, xG)), x = min(d, P-d) s", MODEL_EXACT,
	  "x <= S, g + xG within each step", dom_bruck, NULL, NULL,
	  "", ev_bruck, 0 },
	{ "allreduce_dissemination", "loggops_dissemination", HSL10,
	  "(delta + 2o + L + max{sO, sG}) ceil(log2 P), delta = max(0, sO - L)", MODEL_EXACT,
	  "s <= S, g + sG <= delta + 2o + L + max(sO, sG)", dom_dissemination, NULL, NULL,
	  "no reduction computation", ev_loggops_dissemination, 0 },
	{ "barrier_dissemination", "loggops_dissemination", HSL10,
	  "(delta + 2o + L + max{sO, sG}) ceil(log2 P), delta = max(0, sO - L)", MODEL_EXACT,
	  "s <= S, g + sG <= delta + 2o + L + max(sO, sG)", dom_dissemination, NULL, NULL,
	  "", ev_loggops_dissemination, 0 },
	{ "barrier_dissemination", "logp_dissemination", HCMMR05,
	  "t ceil(log2 P), t = max(g, 2o + L)", MODEL_UPPER,
	  "sO = sG = 0 (e.g. s <= 1)", dom_logp,
	  "g <= 2o + L", ex_logp_dissemination,
	  "the first round costs 2o + L even when g > 2o + L: the gap only "
	  "separates a rank's consecutive sends", ev_logp_dissemination, 0 },
	{ "barrier_linear", "logp_central", HCMMR05,
	  "2(2o + L) + 2(P-2) f, f = max(o, g)", MODEL_EXACT,
	  "sO = sG = 0 (e.g. s <= 1)", dom_logp, NULL, NULL,
	  "", ev_logp_central, 0 },
	{ "barrier_tree", "logp_combining", HCMMR05,
	  "(2o + L + (n-2) f) ceil(log_n P) + 2o + L + (ceil(log2 P) - 1) t", MODEL_APPROX,
	  "sO = sG = 0 (e.g. s <= 1)", dom_logp, NULL, NULL,
	  "the schedgen tree releases through the same fan-in n tree (each node "
	  "sends to its n children), the paper through a binary tree", ev_logp_combining, 0 },
	{ "barrier_tournament", "logp_tournament", HCMMR05,
	  "t ceil(log2 P) + 2o + L + (ceil(log2 P) - 1) t", MODEL_UPPER,
	  "sO = sG = 0 (e.g. s <= 1), g <= 2o + L", dom_logp_tournament,
	  "P is a power of two", ex_pow2,
	  "", ev_logp_tournament, 0 },
};

size_t model_nformulas(void)
{
	return sizeof table / sizeof table[0];
}

const model_formula *model_formula_at(size_t i)
{
	return i < model_nformulas() ? &table[i] : NULL;
}

int model_has_pattern(const char *pattern)
{
	for (size_t i = 0; i < model_nformulas(); i++)
		if (strcmp(table[i].pattern, pattern) == 0)
			return 1;
	return 0;
}

int model_in_domain(const model_formula *f, const model_ctx *c)
{
	if (f->mw ? !c->strided : c->om || c->lm)
		return 0;
	return f->domain(c);
}

int model_is_exact_at(const model_formula *f, const model_ctx *c)
{
	if (f->kind == MODEL_EXACT)
		return model_in_domain(f, c);
	return f->exact && model_in_domain(f, c) && f->exact(c);
}
