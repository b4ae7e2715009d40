/* goal_parse.y: the GOAL grammar.  Each action is one call into goal_text.c.
 * The scanner (goal_lex.l) is compiled in at the end. */
%code top {
#include <stdio.h>
#include <string.h>
}

%code requires {
#include "goal_text.h"
}

%code {
static int goalyylex(GOALYYSTYPE *lval, GOALYYLTYPE *lloc, void *scanner);
static void goalyyerror(GOALYYLTYPE *loc, void *scanner, goal_ps *ps, const char *msg);
}

%define api.prefix {goalyy}
%define api.pure full
%define api.location.type {goal_loc}
%define parse.error custom
%locations
%lex-param {void *scanner}
%parse-param {void *scanner} {goal_ps *ps}
%expect 0

%code {
#define YYLLOC_DEFAULT(Cur, Rhs, N) \
	do { (Cur) = (N) ? YYRHSLOC(Rhs, 1) : YYRHSLOC(Rhs, 0); } while (0)
}

%union {
	goal_num num;
	uint32_t sym;
}

%token END 0 "end of file"
%token EOL "end of line"
%token NUM_RANKS "num_ranks" RANK "rank"
%token SEND "send" RECV "recv" CALC "calc"
%token TO "to" FROM "from" TAG "tag" CPU "cpu" NIC "nic" COMM "comm"
%token STRIDE "stride" BLOCK "block"
%token JOB "job" START "start"
%token REQUIRES "requires" IREQUIRES "irequires"
%token <num> NUMBER "number" SIZE "size"
%token <sym> IDENT "label"
%token INVALID "invalid character"

%type <sym> label keyword

%%

file
	: %empty
	| file EOL
	| file header
	| file rank
	| file error EOL        { yyerrok; if (goal_ps_too_many_errors(ps)) YYABORT; }
	;

header
	: NUM_RANKS NUMBER EOL   { goal_ps_num_ranks(ps, &$2, &@2); }
	| job_head ':'           { goal_ps_job_begin(ps); }
	  job_ranks EOL
	;

/* A job of a merged schedule: its name, start time and first comm, then
 * its ranks; a line naming the job just declared adds ranks to it. */
job_head
	: JOB label                   { goal_ps_job(ps, $2, &@2); }
	| job_head START NUMBER       { goal_ps_job_opt(ps, 0, &$3, &@3); }
	| job_head COMM NUMBER        { goal_ps_job_opt(ps, 1, &$3, &@3); }
	;

job_ranks
	: %empty
	| job_ranks NUMBER            { goal_ps_job_ranks(ps, &$2, &$2, &@2); }
	| job_ranks NUMBER TO NUMBER  { goal_ps_job_ranks(ps, &$2, &$4, &@2); }
	;

rank
	: rank_head body '}'          { goal_ps_rank_end(ps, &@3); }
	| rank_head body stmt '}'     { goal_ps_rank_end(ps, &@4); }
	;

rank_head
	: RANK NUMBER '{'             { goal_ps_rank_begin(ps, &$2, &@2); }
	;

body
	: %empty
	| body EOL
	| body stmt EOL
	| body error EOL              { yyerrok; if (goal_ps_too_many_errors(ps)) YYABORT; }
	;

/* The parser's time goes mostly to reductions: a label is no rule of its
 * own where a statement starts, and an op's fields are lists in its
 * rules. */
stmt
	: IDENT ':' op_def            { goal_ps_op(ps, 1, $1, &@1); }
	| keyword ':' op_def          { goal_ps_op(ps, 1, $1, &@1); }
	| op_def                      { goal_ps_op(ps, 0, 0, &@1); }
	| IDENT REQUIRES label        { goal_ps_dep(ps, $1, &@1, $3, &@3, 0); }
	| keyword REQUIRES label      { goal_ps_dep(ps, $1, &@1, $3, &@3, 0); }
	| IDENT IREQUIRES label       { goal_ps_dep(ps, $1, &@1, $3, &@3, 1); }
	| keyword IREQUIRES label     { goal_ps_dep(ps, $1, &@1, $3, &@3, 1); }
	;

label
	: IDENT
	| keyword
	;

/* The old tool accepted these keywords as labels too (and so "stride",
 * "block", "job" and "start", which came later, stay labels a schedule
 * may use). */
keyword
	: TO     { $$ = goal_ps_intern(ps, "to", 2); }
	| FROM   { $$ = goal_ps_intern(ps, "from", 4); }
	| TAG    { $$ = goal_ps_intern(ps, "tag", 3); }
	| CPU    { $$ = goal_ps_intern(ps, "cpu", 3); }
	| NIC    { $$ = goal_ps_intern(ps, "nic", 3); }
	| COMM   { $$ = goal_ps_intern(ps, "comm", 4); }
	| STRIDE { $$ = goal_ps_intern(ps, "stride", 6); }
	| BLOCK  { $$ = goal_ps_intern(ps, "block", 5); }
	| JOB    { $$ = goal_ps_intern(ps, "job", 3); }
	| START  { $$ = goal_ps_intern(ps, "start", 5); }
	;

/* An op: its head (kind and size), its peer, and its optional fields,
 * which may come before and after the peer, in any order. */
op_def
	: send_head TO NUMBER         { goal_ps_peer(ps, &$3, &@3); }
	| recv_head FROM NUMBER       { goal_ps_peer(ps, &$3, &@3); }
	| calc_head
	| op_def TAG NUMBER           { goal_ps_opt(ps, GOAL_OPT_TAG, &$3, &@3); }
	| op_def CPU NUMBER           { goal_ps_opt(ps, GOAL_OPT_CPU, &$3, &@3); }
	| op_def NIC NUMBER           { goal_ps_opt(ps, GOAL_OPT_NIC, &$3, &@3); }
	| op_def COMM NUMBER          { goal_ps_opt(ps, GOAL_OPT_COMM, &$3, &@3); }
	| op_def STRIDE NUMBER        { goal_ps_opt(ps, GOAL_OPT_STRIDE, &$3, &@3); }
	| op_def BLOCK NUMBER         { goal_ps_opt(ps, GOAL_OPT_BLOCK, &$3, &@3); }
	;

send_head
	: SEND SIZE                   { goal_ps_op_begin(ps, GOAL_SEND, &$2, &@2); }
	| SEND NUMBER                 { goal_ps_op_begin(ps, GOAL_SEND, &$2, &@2); }
	| send_head TAG NUMBER        { goal_ps_opt(ps, GOAL_OPT_TAG, &$3, &@3); }
	| send_head CPU NUMBER        { goal_ps_opt(ps, GOAL_OPT_CPU, &$3, &@3); }
	| send_head NIC NUMBER        { goal_ps_opt(ps, GOAL_OPT_NIC, &$3, &@3); }
	| send_head COMM NUMBER       { goal_ps_opt(ps, GOAL_OPT_COMM, &$3, &@3); }
	| send_head STRIDE NUMBER     { goal_ps_opt(ps, GOAL_OPT_STRIDE, &$3, &@3); }
	| send_head BLOCK NUMBER      { goal_ps_opt(ps, GOAL_OPT_BLOCK, &$3, &@3); }
	;

recv_head
	: RECV SIZE                   { goal_ps_op_begin(ps, GOAL_RECV, &$2, &@2); }
	| RECV NUMBER                 { goal_ps_op_begin(ps, GOAL_RECV, &$2, &@2); }
	| recv_head TAG NUMBER        { goal_ps_opt(ps, GOAL_OPT_TAG, &$3, &@3); }
	| recv_head CPU NUMBER        { goal_ps_opt(ps, GOAL_OPT_CPU, &$3, &@3); }
	| recv_head NIC NUMBER        { goal_ps_opt(ps, GOAL_OPT_NIC, &$3, &@3); }
	| recv_head COMM NUMBER       { goal_ps_opt(ps, GOAL_OPT_COMM, &$3, &@3); }
	| recv_head STRIDE NUMBER     { goal_ps_opt(ps, GOAL_OPT_STRIDE, &$3, &@3); }
	| recv_head BLOCK NUMBER      { goal_ps_opt(ps, GOAL_OPT_BLOCK, &$3, &@3); }
	;

calc_head
	: CALC NUMBER                 { goal_ps_op_begin(ps, GOAL_CALC, &$2, &@2); }
	;

%%

static int yyreport_syntax_error(const yypcontext_t *ctx, void *scanner, goal_ps *ps)
{
	yysymbol_kind_t expected[16];
	const char *names[16];
	yysymbol_kind_t tok = yypcontext_token(ctx);
	int n = yypcontext_expected_tokens(ctx, expected, 16);
	(void)scanner;
	for (int i = 0; i < n; i++)
		names[i] = yysymbol_name(expected[i]);
	goal_ps_syntax_error(ps, yypcontext_location(ctx),
	                     tok == YYSYMBOL_INVALID ? NULL : yysymbol_name(tok),
	                     names, n > 0 ? n : 0);
	return 0;
}

static void goalyyerror(GOALYYLTYPE *loc, void *scanner, goal_ps *ps, const char *msg)
{
	(void)scanner;
	goal_ps_error(ps, loc, "%s", msg);
}

/* The scanner: here, its yylex is inlined into goalyyparse. */
#include "goal_lex.c"
