/* params.h: parameter sets for loggopsim (and the flags of loggops-model):
 * the parameter file (size ranges, read with libparams), changes to single
 * values (flags, sweep sets) and their formatting. */
#ifndef PARAMS_H
#define PARAMS_H

#include "json.h"
#include "sim.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The six parameters, in output order; each is also the flag -NAME VALUE
 * of the tools that take them.  X(enum suffix, name, per byte (a rate,
 * may be fractional), meaning for --help) */
#define SIM_PARAMS(X) \
	X(L, "L", 0, "latency, ns") \
	X(o, "o", 0, "CPU overhead per message, ns") \
	X(g, "g", 0, "NIC gap per message, ns") \
	X(G, "G", 1, "NIC gap per byte, ns") \
	X(O, "O", 1, "CPU overhead per byte, ns") \
	X(S, "S", 0, "rendezvous above N bytes")

/* The flags in getopt's option string: "L:o:g:G:O:S:". */
#define SIM_PF_OPT_X(e, n, r, h) n ":"
#define SIM_PFLAGS SIM_PARAMS(SIM_PF_OPT_X)

typedef enum sim_pname {
#define SIM_PN_X(e, n, r, h) SIM_P_##e,
	SIM_PARAMS(SIM_PN_X)
#undef SIM_PN_X
	SIM_NPARAMS
} sim_pname;

/* A set of parameters owning its size ranges and strides: p.range points
 * to rg when p.nranges >= 2, p.strides to st when p.nstrides >= 1.  Copy
 * with sim_pset_copy (the pointers must follow). */
typedef struct sim_pset {
	sim_params p;
	sim_range rg[SIM_MAX_RANGES];
	sim_stride st[SIM_MAX_STRIDES];
} sim_pset;

/* How one parameter changes: kept; set to v; multiplied by v (a
 * non-negative integer); or copied from parameter `from` (same unit: L, o,
 * g among themselves, G and O between themselves).  Every right-hand side
 * refers to the values before the change. */
typedef enum sim_px_kind { SIM_PX_KEEP, SIM_PX_SET, SIM_PX_MUL, SIM_PX_COPY } sim_px_kind;
typedef struct sim_px {
	uint8_t kind;        /* sim_px_kind */
	uint8_t from;        /* sim_pname, for SIM_PX_COPY */
	sim_rate v;          /* den 1 for L, o, g, S and for a factor */
} sim_px;

/* A change to every parameter (all SIM_PX_KEEP: no change). */
typedef struct sim_pchange {
	sim_px x[SIM_NPARAMS];
} sim_pchange;

/* The name of parameter k ("L" ... "S"). */
const char *sim_pname_str(sim_pname k);

/* The parameter named by the n bytes at name, or -1. */
int sim_pname_find(const char *name, size_t n);

/* The fraction digits parameter k's values may have (num.h): NUM_FRAC_MAX
 * for the per-byte G and O, 0 for the integers L, o, g, S. */
unsigned sim_pname_frac(sim_pname k);

/* The defaults (sim_params_default), one range. */
void sim_pset_default(sim_pset *ps);

/* *dst = *src, its range pointer following. */
void sim_pset_copy(sim_pset *dst, const sim_pset *src);

/* The size ranges of *ps into out[0 .. SIM_MAX_RANGES) (one range from the
 * plain fields); returns their number. */
uint32_t sim_pset_ranges(const sim_pset *ps, sim_range *out);

/* Read the parameter file at path (docs/loggp.md, read by libparams) into
 * *ps: S, the ranges (one range: the plain fields, nranges 0) and the
 * strides.  Returns
 * 0, or -1 with the reader's message in err ("PATH:LINE:COL: error: ..."). */
int sim_pset_read(const char *path, sim_pset *ps, char *err, size_t errlen);

/* A parameter flag -K TEXT (getopt's option character and optarg): the
 * value of parameter K, a plain number (no '*K', no parameter name), into
 * c->x[K].  Returns 0; 1 when opt is not one of the flags (text is not
 * read, c is unchanged); -1 with "-L needs a non-negative integer, not
 * 'TEXT'" (G and O: "-G needs a non-negative number (at most 9 decimals),
 * not 'TEXT'") in err. */
int sim_pflag_parse(int opt, const char *text, sim_pchange *c, char *err, size_t errlen);

/* Write the --help lines of the flags, one per parameter: "  -L N", the
 * meaning from column col on, and the default (sim_params_default):
 * "  -L N   latency, ns   (default 2500)". */
void sim_pflag_help(FILE *f, int col);

/* Parse the value text of parameter k into *x: a number ("2500", "0.4" for
 * G and O), "*K" (times the old value, K an integer) or a parameter name
 * ("O=G": the old value of G).  Returns 0, or -1 with the reason in err
 * (e.g. "L needs a non-negative integer, '*K' or one of L, o, g, not 'x'"). */
int sim_px_parse(sim_pname k, const char *text, sim_px *x, char *err, size_t errlen);

/* Apply c to every range of *ps in place (right-hand sides read the values
 * before the change).  Returns 0, or -1 with "VALUE overflows" style text in
 * err when a product does not fit (L, o, g, S in 64 bits; G, O below 2^32). */
int sim_pset_apply(sim_pset *ps, const sim_pchange *c, char *err, size_t errlen);

/* Format parameter k of *ps into buf: the value ("2500", "0.4") when it is
 * the same in every range, else "mixed". */
void sim_pset_value(const sim_pset *ps, sim_pname k, char *buf, size_t n);

/* Write the parameter line(s) of the text output (docs/sim.md): one range,
 * "LogGOPS L=.. o=.. g=.. G=.. O=.. S=.. P=..\n"; several, "LogGOPS S=..
 * P=.. ranges=N\n" then one "range FIRST..LAST L=.. o=.. g=.. G=.. O=..\n"
 * per range (LAST "inf" for the final one); then one "stride D o_mw=..
 * O_mw=.. l_mw=.. L_mw=..\n" per stride. */
void sim_pset_print(FILE *f, const sim_pset *ps, uint64_t nranks);

/* Write the parameters as members of j's open object: one range, "L",
 * "o", "g", "G", "O", "S"; several, "S" and "ranges": [{"first", "last"
 * (null for inf), "L", ...}, ...]; then, with strides, "strides":
 * [{"stride", "o_mw", "O_mw", "l_mw", "L_mw"}, ...]. */
void sim_pset_json(uj *j, const sim_pset *ps);

#endif
