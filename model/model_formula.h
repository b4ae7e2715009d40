/* model_formula.h: the closed-form LogP / LogGP / LogGOPS models of
 * collective operations, one table row per formula, with its source and the
 * conditions under which it is exact or a bound. */
#ifndef MODEL_FORMULA_H
#define MODEL_FORMULA_H

#include "sim.h"

#include <stddef.h>
#include <stdint.h>

/* One point of evaluation: P ranks, s-byte messages, fan-in n (combining
 * tree), the model parameters, and the per-byte terms of an s-byte message
 * (sO = (s-1)O and sG = (s-1)G, rounded as docs/semantics.md says); for
 * strided messages, the middleware costs of one message at each end (om)
 * and in flight (lm), docs/semantics.md section 10 (0 for contiguous ones). */
typedef struct model_ctx {
	uint64_t P, s, n;
	sim_params prm;
	uint64_t sO, sG;
	uint64_t om, lm;
	int strided;          /* model_ctx_set_mw was called */
} model_ctx;

/* Fill c from its arguments (computes sO and sG; contiguous messages). */
void model_ctx_set(model_ctx *c, uint64_t P, uint64_t s, uint64_t n,
                   const sim_params *prm);

/* The messages are strided with the middleware costs x: om = o_mw +
 * (s-1)O_mw and lm = l_mw + (s-1)L_mw, rounded as sO. */
void model_ctx_set_mw(model_ctx *c, const sim_stride *x);

/* What a formula claims inside its domain. */
typedef enum model_kind {
	MODEL_EXACT,  /* equals the simulated time */
	MODEL_LOWER,  /* at most the simulated time */
	MODEL_UPPER,  /* at least the simulated time */
	MODEL_APPROX  /* no guarantee */
} model_kind;

/* "exact", "lower bound", "upper bound", "approximation". */
const char *model_kind_name(model_kind k);

typedef struct model_formula {
	const char *pattern;  /* the schedgen pattern that runs the algorithm */
	const char *name;     /* short unique id, e.g. "loggops_binomial" */
	const char *source;   /* paper (or document) it comes from */
	const char *expr;     /* the formula as printed */
	model_kind kind;
	/* Where the kind holds: as text, and as a predicate. */
	const char *domain_text;
	int (*domain)(const model_ctx *c);
	/* For bounds and approximations: where the formula is even exact (a
	 * subset of the domain); NULL if nowhere known. */
	const char *exact_text;
	int (*exact)(const model_ctx *c);
	/* How the schedgen pattern differs from the paper's algorithm ("" if
	 * it does not). */
	const char *notes;
	/* The formula's value in ns. */
	uint64_t (*eval)(const model_ctx *c);
	/* 1: a log_3 P form, about strided messages only; 0: a LogP / LogGP /
	 * LogGOPS form, outside its domain where messages pay middleware
	 * costs. */
	int mw;
} model_formula;

/* The table, in the order --list prints it. */
size_t model_nformulas(void);
const model_formula *model_formula_at(size_t i);

/* 1 if some formula is about pattern (canonical schedgen name). */
int model_has_pattern(const char *pattern);

/* 1 if c lies in f's domain (a log_3 P form: only for strided messages;
 * another: only where the messages pay no middleware costs). */
int model_in_domain(const model_formula *f, const model_ctx *c);

/* 1 if c lies where f is exact (for MODEL_EXACT: its domain). */
int model_is_exact_at(const model_formula *f, const model_ctx *c);

/* ceil(log_n x) for n >= 2, x >= 1. */
uint64_t model_ceil_log(uint64_t n, uint64_t x);

#endif
