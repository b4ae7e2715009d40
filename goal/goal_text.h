/* goal_text.h: the GOAL front end's internals shared by the scanner, the
 * grammar and the actions (goal_text.c).  Nothing outside the compiler
 * includes it: the rest of the project sees goal_compile() in goal_compile.h. */
#ifndef GOAL_TEXT_H
#define GOAL_TEXT_H

#include <stdint.h>

#include "goal.h"

/* A source position: 1-based line and byte column, and the file offset of
 * the line's first byte (to print the line under an error). */
typedef struct goal_loc {
	uint64_t line;
	uint64_t line_off;
	uint64_t col; /* a whole word: the scanner adds to it, copies load it whole */
} goal_loc;

/* A number as written: its magnitude, sign and whether it overflowed. */
typedef struct goal_num {
	uint64_t v;
	uint8_t neg, ovf;
} goal_num;

/* Optional fields of an op. */
enum { GOAL_OPT_TAG, GOAL_OPT_CPU, GOAL_OPT_NIC, GOAL_OPT_COMM, GOAL_OPT_STRIDE,
       GOAL_OPT_BLOCK, GOAL_NOPTS };

typedef struct goal_ps goal_ps;

/* The scanner's bookkeeping: the first member of the parser state, so the
 * scanner updates it without calls. */
typedef struct goal_scan {
	goal_loc pos;          /* where the next token starts (file offset
	                          pos.line_off + pos.col - 1) */
	int read_errno;        /* a read error ended the input (0: none) */
	unsigned char invalid; /* the last INVALID character */
	unsigned char eof_error; /* the scanner reported an error at the end */
	unsigned char reported;  /* the scanner reported the error of its last
	                            INVALID token: no syntax error for it */
	/* range: the input is bytes off .. off + left - 1 of file fd, read with
	 * pread (else the stream yyin). */
	int range, fd;
	uint64_t off, left;
} goal_scan;

#define GOAL_SCAN(ps) ((goal_scan *)(void *)(ps))

/* Make a scanner start over (its buffer kept), in its first state, on the
 * input that its goal_scan now names. */
void goal_lex_restart(void *scanner);

/* Scanner callbacks. */
uint32_t goal_ps_intern(goal_ps *ps, const char *s, size_t len);
void goal_ps_error(goal_ps *ps, const goal_loc *loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Grammar actions: one call each. */
void goal_ps_num_ranks(goal_ps *ps, const goal_num *n, const goal_loc *loc);
/* A job line: its name (job), start and comm (job_opt: 0 start, 1
 * comm), the ':' (job_begin), then its ranks, a run a..b each. */
void goal_ps_job(goal_ps *ps, uint32_t name, const goal_loc *loc);
void goal_ps_job_opt(goal_ps *ps, int which, const goal_num *v, const goal_loc *loc);
void goal_ps_job_begin(goal_ps *ps);
void goal_ps_job_ranks(goal_ps *ps, const goal_num *a, const goal_num *b, const goal_loc *loc);
void goal_ps_rank_begin(goal_ps *ps, const goal_num *n, const goal_loc *loc);
void goal_ps_rank_end(goal_ps *ps, const goal_loc *loc);
/* An op is collected in pieces: its kind and size (op_begin, which resets
 * the rest), its optional fields (one call each), its peer, then its label
 * (op). */
void goal_ps_op_begin(goal_ps *ps, goal_kind kind, const goal_num *size,
                      const goal_loc *size_loc);
void goal_ps_opt(goal_ps *ps, int which, const goal_num *v, const goal_loc *loc);
void goal_ps_peer(goal_ps *ps, const goal_num *peer, const goal_loc *peer_loc);
void goal_ps_op(goal_ps *ps, int has_label, uint32_t label, const goal_loc *loc);
void goal_ps_dep(goal_ps *ps, uint32_t a, const goal_loc *aloc, uint32_t b,
                 const goal_loc *bloc, int irequires);
int goal_ps_too_many_errors(const goal_ps *ps);
/* Stop: report nothing more (the scanner ends the input after an error it
 * cannot recover from). */
void goal_ps_stop(goal_ps *ps);
/* A syntax error: unexpected is the token's grammar name (NULL: the
 * scanner's invalid character), expected the names of the n tokens that
 * would have been accepted. */
void goal_ps_syntax_error(goal_ps *ps, const goal_loc *loc, const char *unexpected,
                          const char *const *expected, int n);

#endif
