/* goal_text.c: the GOAL front end's actions: labels, checks, diagnostics,
 * and the compile driver that feeds the binary writer. */
#include "goal_compile.h"
#include "goal_text.h"
#include "kind.h"
#include "util.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "goal_parse.h"
#define YYSTYPE GOALYYSTYPE
#define YYLTYPE GOALYYLTYPE
#include "goal_lex.h"

#define NO_OP UINT32_MAX

typedef struct sym {
	uint32_t name, len;   /* in names[] */
	uint32_t hash, op;    /* op index in the rank, NO_OP until defined */
	goal_loc def;
} sym;

typedef struct pdep {
	uint32_t a, b;
	uint32_t ireq;
	goal_loc aloc, bloc;
} pdep;

/* What a part of the input gives the writer, kept to give it later, in
 * order (goal_compile, parts): records of a tag byte and their fields. */
enum { LOG_RANK_BEGIN = 1, LOG_OP, LOG_DEP, LOG_RANK_END };
typedef struct wlog {
	unsigned char *a;
	size_t n, cap;
} wlog;

struct goal_ps {
	goal_scan scan;        /* first: see GOAL_SCAN */
	FILE *in, *diag;
	const char *name, *out_path;
	unsigned max_errors;
	unsigned long nerrors;
	int stopped;           /* too many errors */

	goal_writer *w;        /* NULL once an error made output pointless */
	wlog *log;             /* or, for a part: what the writer is given */
	int quiet;             /* a part: errors are counted, not printed */
	int part_start;        /* a part: its first rank block is the expected one */
	uint64_t first_rank;   /* a part: the number of its first rank block */
	int have_nranks, saw_rank;
	goal_loc nranks_loc;
	uint64_t nranks, next_rank;
	int rank_ok;           /* current rank block is the expected one */
	uint64_t rank;         /* current rank number (for messages) */
	uint32_t nops;         /* ops in the current rank */

	/* Labels of the current rank: open addressing on hash, slot = sym + 1. */
	uint32_t *slots;
	size_t nslots;         /* power of two */
	sym *syms;
	size_t nsyms, syms_cap;
	char *names;
	size_t names_len, names_cap;
	pdep *deps;
	size_t ndeps, deps_cap;

	/* The op being collected. */
	goal_num opt[GOAL_NOPTS];
	goal_loc opt_loc[GOAL_NOPTS];
	unsigned has_opt;      /* bit k: field k given */
	goal_kind kind;
	goal_num size, peer;
	goal_loc size_loc, peer_loc;
	int has_peer;

	/* The job line being read, and the last job declared. */
	uint32_t job_sym, last_job;  /* last_job: NO_OP before the first */
	goal_loc job_loc, job_opt_loc;
	unsigned job_opts;           /* bit 0: start given, bit 1: comm */
	uint64_t job_start;
	uint32_t job_comm, last_comm;
	int job_ok;
};

static const char *const opt_name[GOAL_NOPTS] = { "tag", "cpu", "nic", "comm", "stride",
                                                   "block" };

/* ---- Diagnostics ------------------------------------------------------- */

/* Print the source line that starts at off, and a caret under column col.
 * Reads with pread, so the scanner's stream position is untouched; a stream
 * without a file descriptor shows no line. */
static void show_line(goal_ps *ps, uint64_t off, uint64_t col)
{
	char line[512];
	int fd = fileno(ps->in);
	ssize_t got;
	size_t n = 0;

	if (fd < 0)
		return;
	got = pread(fd, line, sizeof line - 1, (off_t)off);
	if (got <= 0)
		return;
	while (n < (size_t)got && line[n] != '\n')
		n++;
	if (n == 0)
		return;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)line[i] < 0x20 && line[i] != '\t')
			line[i] = ' ';
	line[n] = '\0';
	fprintf(ps->diag, "%s\n", line);
	for (uint64_t i = 1; i < col && i - 1 < n; i++)
		fputc(line[i - 1] == '\t' ? '\t' : ' ', ps->diag);
	fputs("^\n", ps->diag);
}

/* Drop the output: after an error nothing is written. */
static void drop_output(goal_ps *ps)
{
	if (ps->w) {
		goal_writer_abort(ps->w);
		ps->w = NULL;
	}
}

static void verror(goal_ps *ps, const goal_loc *loc, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
static void verror(goal_ps *ps, const goal_loc *loc, const char *fmt, va_list ap)
{
	ps->nerrors++;
	if (ps->quiet)
		ps->stopped = 1;
	if (ps->stopped)
		goto out;
	if (ps->nerrors > ps->max_errors) {
		fprintf(ps->diag, "%s: too many errors, stopping\n", ps->name);
		ps->stopped = 1;
		goto out;
	}
	if (loc)
		fprintf(ps->diag, "%s:%" PRIu64 ":%" PRIu64 ": error: ", ps->name, loc->line, loc->col);
	else
		fprintf(ps->diag, "%s: error: ", ps->name);
	vfprintf(ps->diag, fmt, ap);
	fputc('\n', ps->diag);
	if (loc)
		show_line(ps, loc->line_off, loc->col);
out:
	/* Last: the message may be the writer's own. */
	drop_output(ps);
}

void goal_ps_error(goal_ps *ps, const goal_loc *loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	verror(ps, loc, fmt, ap);
	va_end(ap);
}

void goal_ps_stop(goal_ps *ps)
{
	ps->stopped = 1;
}

int goal_ps_too_many_errors(const goal_ps *ps)
{
	return ps->stopped;
}

/* A token's grammar name as users read it: keywords and punctuation in
 * single quotes ('send', '{'), classes plain (number, end of line). */
static void token_name(const goal_ps *ps, const char *s, char *buf, size_t n)
{
	if (!s) {
		unsigned char c = ps->scan.invalid;
		if (c > 0x20 && c < 0x7f)
			snprintf(buf, n, "character '%c'", c);
		else
			snprintf(buf, n, "byte 0x%02x", c);
		return;
	}
	/* Bison gives keywords and classes alike without quotes. */
	if (strcmp(s, "end of file") == 0 || strcmp(s, "end of line") == 0
	    || strcmp(s, "number") == 0 || strcmp(s, "size") == 0
	    || strcmp(s, "label") == 0 || s[0] == '\'')
		snprintf(buf, n, "%s", s);
	else
		snprintf(buf, n, "'%s'", s);
}

/* A first error on line 1 of a file that is of another kind (kind.h):
 * say what it is, and stop.  Returns 1 if so. */
static int other_kind(goal_ps *ps, const goal_loc *loc)
{
	char head[UTIL_KIND_HEAD];
	ssize_t got;
	util_kind k;
	if (ps->nerrors || !loc || loc->line != 1 || !ps->in || fileno(ps->in) < 0 ||
	    (got = pread(fileno(ps->in), head, sizeof head, 0)) <= 0)
		return 0;
	k = util_kind_of(head, (size_t)got);
	if (k == UTIL_KIND_NONE || k == UTIL_KIND_GOAL_TEXT)
		return 0;
	goal_ps_error(ps, loc, "this is %s, not a GOAL schedule", util_kind_what(k));
	goal_ps_stop(ps);
	return 1;
}

void goal_ps_syntax_error(goal_ps *ps, const goal_loc *loc, const char *unexpected,
                          const char *const *expected, int n)
{
	char msg[600], tok[64];
	size_t m;
	if (other_kind(ps, loc))
		return;
	if (ps->scan.eof_error && unexpected && strcmp(unexpected, "end of file") == 0)
		return; /* the scanner said why already */
	if (ps->scan.reported) {
		ps->scan.reported = 0;
		return;
	}
	token_name(ps, unexpected, tok, sizeof tok);
	m = (size_t)snprintf(msg, sizeof msg, "unexpected %s", tok);
	for (int i = 0; i < n && m < sizeof msg; i++) {
		token_name(ps, expected[i], tok, sizeof tok);
		m += (size_t)snprintf(msg + m, sizeof msg - m, "%s%s",
		                      i == 0 ? ", expected " : i == n - 1 ? " or " : ", ", tok);
	}
	goal_ps_error(ps, loc, "%s", msg);
}

/* ---- Labels ------------------------------------------------------------ */

static int rehash(goal_ps *ps, size_t nslots)
{
	uint32_t *slots = calloc(nslots, sizeof *slots);
	if (!slots)
		return -1;
	for (size_t i = 0; i < ps->nsyms; i++) {
		size_t j = ps->syms[i].hash & (nslots - 1);
		while (slots[j])
			j = (j + 1) & (nslots - 1);
		slots[j] = (uint32_t)i + 1;
	}
	free(ps->slots);
	ps->slots = slots;
	ps->nslots = nslots;
	return 0;
}

/* Forget the labels of the previous rank: O(its labels), not O(table
 * size) (the table keeps the size of the largest rank so far, and a large
 * rank followed by many small ones would be quadratic). */
static void labels_reset(goal_ps *ps)
{
	if (ps->nslots && ps->nsyms * 8 >= ps->nslots) {
		memset(ps->slots, 0, ps->nslots * sizeof *ps->slots);
	} else {
		for (size_t i = 0; i < ps->nsyms; i++) {
			size_t j = ps->syms[i].hash & (ps->nslots - 1);
			while (ps->slots[j] != i + 1)
				j = (j + 1) & (ps->nslots - 1);
			ps->slots[j] = 0;
		}
	}
	ps->nsyms = 0;
	ps->names_len = 0;
	ps->ndeps = 0;
	ps->nops = 0;
}

/* Labels are short: compared in line rather than by a call. */
static int same_bytes(const char *a, const char *b, size_t n)
{
	while (n && *a == *b) {
		a++;
		b++;
		n--;
	}
	return n == 0;
}

uint32_t goal_ps_intern(goal_ps *ps, const char *s, size_t len)
{
	uint32_t h = (uint32_t)util_hash(s, len);
	size_t j;
	sym *y;

	if (!ps->nslots || (ps->nsyms + 1) * 2 > ps->nslots) {
		if (rehash(ps, ps->nslots ? ps->nslots * 2 : 1024))
			goto oom;
	}
	for (j = h & (ps->nslots - 1); ps->slots[j]; j = (j + 1) & (ps->nslots - 1)) {
		y = &ps->syms[ps->slots[j] - 1];
		if (y->hash == h && y->len == len && same_bytes(ps->names + y->name, s, len))
			return ps->slots[j] - 1;
	}
	if (ps->names_len + len + 1 > UINT32_MAX || ps->nsyms >= UINT32_MAX - 1
	    || util_grow(&ps->syms, &ps->syms_cap, ps->nsyms + 1, sizeof *ps->syms)
	    || util_grow(&ps->names, &ps->names_cap, ps->names_len + len + 1, 1))
		goto oom;
	y = &ps->syms[ps->nsyms];
	y->name = (uint32_t)ps->names_len;
	y->len = (uint32_t)len;
	y->hash = h;
	y->op = NO_OP;
	memcpy(ps->names + ps->names_len, s, len);
	ps->names[ps->names_len + len] = '\0';
	ps->names_len += len + 1;
	ps->slots[j] = (uint32_t)ps->nsyms + 1;
	return (uint32_t)ps->nsyms++;
oom:
	fprintf(ps->diag, "%s: error: out of memory\n", ps->name);
	exit(1);
}

static const char *sym_name(const goal_ps *ps, uint32_t s)
{
	return ps->names + ps->syms[s].name;
}

/* ---- Output: the writer, or a part's log ------------------------------- */

static void *log_put(goal_ps *ps, size_t n)
{
	wlog *l = ps->log;
	if (util_grow(&l->a, &l->cap, l->n + n, 1)) {
		fprintf(ps->diag, "%s: error: out of memory\n", ps->name);
		exit(1);
	}
	l->n += n;
	return l->a + l->n - n;
}

static void log_tag(goal_ps *ps, unsigned char tag)
{
	*(unsigned char *)log_put(ps, 1) = tag;
}

/* The functions below return nonzero on a writer's error (a log takes all). */
static int out_rank_begin(goal_ps *ps)
{
	if (!ps->log)
		return goal_writer_rank_begin(ps->w);
	log_tag(ps, LOG_RANK_BEGIN);
	return 0;
}

/* An op: label NULL for none; st[0] its stride, 0 for none, st[1] its block. */
static int out_op(goal_ps *ps, const goal_op *op, uint32_t comm, const char *label,
                  uint32_t len, const uint32_t st[2])
{
	if (!ps->log)
		return goal_writer_op_comm(ps->w, op, comm, label, len, NULL)
		       || (st[0] && goal_writer_stride(ps->w, st[0], st[1]));
	unsigned char *p = log_put(ps, 1 + sizeof *op + 4 * sizeof(uint32_t) + len);
	uint32_t f[4] = { comm, st[0], st[1], label ? len : 0 };
	*p = LOG_OP;
	memcpy(p + 1, op, sizeof *op);
	memcpy(p + 1 + sizeof *op, f, sizeof f);
	if (label)
		memcpy(p + 1 + sizeof *op + sizeof f, label, len);
	return 0;
}

static int out_dep(goal_ps *ps, uint32_t a, uint32_t b, uint32_t ireq)
{
	if (!ps->log)
		return goal_writer_dep(ps->w, a, b, (int)ireq);
	uint32_t f[3] = { a, b, ireq };
	unsigned char *p = log_put(ps, 1 + sizeof f);
	*p = LOG_DEP;
	memcpy(p + 1, f, sizeof f);
	return 0;
}

static int out_rank_end(goal_ps *ps)
{
	if (!ps->log)
		return goal_writer_rank_end(ps->w);
	log_tag(ps, LOG_RANK_END);
	return 0;
}

/* Give w what log l holds; 0, or -1 on the writer's first error. */
static int log_replay(goal_writer *w, const wlog *l)
{
	const unsigned char *p = l->a, *e = l->a + l->n;
	while (p < e) {
		int rc;
		switch (*p++) {
		case LOG_RANK_BEGIN:
			rc = goal_writer_rank_begin(w);
			break;
		case LOG_OP: {
			goal_op op;
			uint32_t f[4];
			memcpy(&op, p, sizeof op);
			memcpy(f, p + sizeof op, sizeof f);
			p += sizeof op + sizeof f;
			rc = goal_writer_op_comm(w, &op, f[0], f[3] ? (const char *)p : NULL, f[3], NULL)
			     || (f[1] && goal_writer_stride(w, f[1], f[2]));
			p += f[3];
			break;
		}
		case LOG_DEP: {
			uint32_t f[3];
			memcpy(f, p, sizeof f);
			p += sizeof f;
			rc = goal_writer_dep(w, f[0], f[1], (int)f[2]);
			break;
		}
		default:
			rc = goal_writer_rank_end(w);
			break;
		}
		if (rc)
			return -1;
	}
	return 0;
}

/* ---- Actions ----------------------------------------------------------- */

/* Check a number for overflow; 0 if fine. */
static int check_num(goal_ps *ps, const goal_num *n, const goal_loc *loc)
{
	if (n->ovf) {
		goal_ps_error(ps, loc, "number too large (at most %" PRIu64 ")", UINT64_MAX);
		return -1;
	}
	return 0;
}

void goal_ps_num_ranks(goal_ps *ps, const goal_num *n, const goal_loc *loc)
{
	char err[300];
	if (ps->have_nranks || ps->saw_rank) {
		goal_ps_error(ps, loc, ps->have_nranks ? "num_ranks given twice"
		              : "num_ranks must come before the first rank block");
		return;
	}
	if (check_num(ps, n, loc))
		return;
	if (n->neg || n->v == 0) {
		goal_ps_error(ps, loc, "num_ranks must be at least 1");
		return;
	}
	if (n->v > GOAL_MAX_RANKS) {
		goal_ps_error(ps, loc, "num_ranks %" PRIu64 " is too large (at most %u)", n->v, GOAL_MAX_RANKS);
		return;
	}
	ps->have_nranks = 1;
	ps->nranks = n->v;
	ps->nranks_loc = *loc;
	if (ps->nerrors)
		return;
	ps->w = goal_writer_create(ps->out_path, ps->nranks, err, sizeof err);
	if (!ps->w) {
		if (!ps->quiet)
			fprintf(ps->diag, "%s\n", err);
		ps->nerrors++;
	}
}

void goal_ps_job(goal_ps *ps, uint32_t name, const goal_loc *loc)
{
	ps->job_ok = 0;
	ps->job_sym = name;
	ps->job_loc = *loc;
	ps->job_opts = 0;
	ps->job_start = ps->job_comm = 0;
	if (!ps->have_nranks || ps->saw_rank)
		goal_ps_error(ps, loc, ps->saw_rank ? "job lines must come before the first rank block"
		              : "missing 'num_ranks N' before the first job line");
	else
		ps->job_ok = 1;
}

void goal_ps_job_opt(goal_ps *ps, int which, const goal_num *v, const goal_loc *loc)
{
	static const char *const what[2] = { "start", "comm" };
	if (!ps->job_ok)
		return;
	ps->job_ok = 0;
	if (ps->job_opts >> which & 1)
		goal_ps_error(ps, loc, "%s given twice", what[which]);
	else if (check_num(ps, v, loc))
		;
	else if (v->neg)
		goal_ps_error(ps, loc, "%s must be >= 0", what[which]);
	else if (which && v->v > GOAL_MAX_COMM)
		goal_ps_error(ps, loc, "comm %" PRIu64 " is too large (at most %u)", v->v, GOAL_MAX_COMM);
	else
		ps->job_ok = 1;
	if (!ps->job_ok)
		return;
	ps->job_opts |= 1u << which;
	ps->job_opt_loc = *loc;
	if (which)
		ps->job_comm = (uint32_t)v->v;
	else
		ps->job_start = v->v;
}

void goal_ps_job_begin(goal_ps *ps)
{
	if (!ps->job_ok || !ps->w)
		return;
	if (ps->job_sym == ps->last_job && ps->job_opts) {
		goal_ps_error(ps, &ps->job_opt_loc, "start and comm of job %s belong on its first line",
		              sym_name(ps, ps->job_sym));
	} else if (ps->job_sym != ps->last_job) {
		/* comm left out: the first job's comms start at 0, a later job's
		 * after the job before's */
		const char *name = sym_name(ps, ps->job_sym);
		if (!(ps->job_opts & 2) && ps->last_job != NO_OP)
			ps->job_comm = ps->last_comm + 1;
		ps->last_comm = ps->job_comm;
		if (goal_writer_job(ps->w, name, strlen(name), ps->job_start, ps->job_comm))
			goal_ps_error(ps, &ps->job_loc, "%s", goal_writer_error(ps->w));
		ps->last_job = ps->job_sym;
	}
}

void goal_ps_job_ranks(goal_ps *ps, const goal_num *a, const goal_num *b, const goal_loc *loc)
{
	if (!ps->job_ok || !ps->w || check_num(ps, a, loc) || check_num(ps, b, loc))
		return;
	if (a->neg || b->neg) {
		goal_ps_error(ps, loc, "rank numbers start at 0");
		return;
	}
	if (b->v < a->v) {
		goal_ps_error(ps, loc, "ranks %" PRIu64 " to %" PRIu64 " go down", a->v, b->v);
		return;
	}
	for (uint64_t r = a->v; r <= b->v; r++)
		if (goal_writer_job_rank(ps->w, r)) {
			goal_ps_error(ps, loc, "%s", goal_writer_error(ps->w));
			return;
		}
}

void goal_ps_rank_begin(goal_ps *ps, const goal_num *n, const goal_loc *loc)
{
	labels_reset(ps);
	ps->rank_ok = 0;
	ps->rank = n->v;
	if (!ps->have_nranks && !ps->saw_rank)
		goal_ps_error(ps, loc, "missing 'num_ranks N' before the first rank block");
	ps->saw_rank = 1;
	if (check_num(ps, n, loc) || !ps->have_nranks)
		return;
	if (ps->part_start) {
		ps->part_start = 0;
		ps->first_rank = ps->next_rank = n->v;
	}
	if (n->neg) {
		goal_ps_error(ps, loc, "rank numbers start at 0");
	} else if (n->v >= ps->nranks) {
		goal_ps_error(ps, loc, "rank %" PRIu64 " is outside 0..%" PRIu64 " (num_ranks is %" PRIu64 ")",
		              n->v, ps->nranks - 1, ps->nranks);
	} else if (n->v < ps->next_rank) {
		goal_ps_error(ps, loc, "duplicate or out-of-order rank block %" PRIu64 " (expected rank %" PRIu64 ")",
		              n->v, ps->next_rank);
	} else if (n->v > ps->next_rank) {
		goal_ps_error(ps, loc, "rank block %" PRIu64 " out of order: expected rank %" PRIu64,
		              n->v, ps->next_rank);
		ps->next_rank = n->v + 1;
	} else {
		ps->rank_ok = 1;
		ps->next_rank++;
		if ((ps->w || ps->log) && out_rank_begin(ps))
			goal_ps_error(ps, loc, "%s", goal_writer_error(ps->w));
	}
}

void goal_ps_op_begin(goal_ps *ps, goal_kind kind, const goal_num *size,
                      const goal_loc *size_loc)
{
	ps->kind = kind;
	ps->size = *size;
	ps->size_loc = *size_loc;
	ps->has_peer = 0;
	ps->has_opt = 0;
}

void goal_ps_opt(goal_ps *ps, int which, const goal_num *v, const goal_loc *loc)
{
	if (ps->has_opt & 1u << which) {
		goal_ps_error(ps, loc, "duplicate '%s'", opt_name[which]);
		return;
	}
	ps->has_opt |= 1u << which;
	ps->opt[which] = *v;
	ps->opt_loc[which] = *loc;
}

void goal_ps_peer(goal_ps *ps, const goal_num *peer, const goal_loc *peer_loc)
{
	ps->has_peer = 1;
	ps->peer = *peer;
	ps->peer_loc = *peer_loc;
}

/* Check a given optional index (cpu, nic), tag, comm, stride or block;
 * store it in op, *comm or st[0] (stride), st[1] (block). 0 if fine. */
static int check_opt(goal_ps *ps, int which, goal_op *op, uint32_t *comm, uint32_t st[2])
{
	const goal_num *n = &ps->opt[which];
	const goal_loc *loc = &ps->opt_loc[which];
	if (check_num(ps, n, loc))
		return -1;
	if (which == GOAL_OPT_STRIDE || which == GOAL_OPT_BLOCK) {
		if (n->neg || n->v == 0) {
			goal_ps_error(ps, loc, "%s must be at least 1 byte", opt_name[which]);
			return -1;
		}
		if (n->v > GOAL_MAX_STRIDE) {
			goal_ps_error(ps, loc, "%s %" PRIu64 " is too large (at most %u)", opt_name[which],
			              n->v, GOAL_MAX_STRIDE);
			return -1;
		}
		st[which == GOAL_OPT_BLOCK] = (uint32_t)n->v;
		return 0;
	}
	if (which == GOAL_OPT_TAG) {
		if (n->neg && n->v != 1) {
			goal_ps_error(ps, loc, "tag must be >= 0, or -1 for any tag");
			return -1;
		}
		if (!n->neg && n->v == UINT64_MAX) {
			/* The published tool's spelling of any tag. */
			op->tag = GOAL_ANY_TAG;
			return 0;
		}
		if (!n->neg && n->v > INT32_MAX) {
			goal_ps_error(ps, loc, "tag %" PRIu64 " is too large (at most %d)", n->v, INT32_MAX);
			return -1;
		}
		op->tag = n->neg ? GOAL_ANY_TAG : (int32_t)n->v;
		return 0;
	}
	if (which == GOAL_OPT_COMM) {
		if (n->neg) {
			goal_ps_error(ps, loc, "comm must be >= 0");
			return -1;
		}
		if (n->v > GOAL_MAX_COMM) {
			goal_ps_error(ps, loc, "comm %" PRIu64 " is too large (at most %u)", n->v, GOAL_MAX_COMM);
			return -1;
		}
		*comm = (uint32_t)n->v;
		return 0;
	}
	if (n->neg) {
		goal_ps_error(ps, loc, "%s index must be >= 0", opt_name[which]);
		return -1;
	}
	if (n->v > GOAL_MAX_INDEX) {
		goal_ps_error(ps, loc, "%s index %" PRIu64 " is too large (at most %u)",
		              opt_name[which], n->v, GOAL_MAX_INDEX);
		return -1;
	}
	if (which == GOAL_OPT_CPU)
		op->cpu = (uint16_t)n->v;
	else
		op->nic = (uint16_t)n->v;
	return 0;
}

void goal_ps_op(goal_ps *ps, int has_label, uint32_t label, const goal_loc *loc)
{
	goal_op op;
	int bad = 0;
	uint32_t index = ps->nops, comm = 0, st[2] = { 0, GOAL_DEFAULT_BLOCK };

	memset(&op, 0, sizeof op);
	op.kind = (uint8_t)ps->kind;
	if (check_num(ps, &ps->size, &ps->size_loc)) {
		bad = 1;
	} else if (ps->size.neg) {
		goal_ps_error(ps, &ps->size_loc, "%s must be >= 0",
		              ps->kind == GOAL_CALC ? "calc time" : "message size");
		bad = 1;
	}
	op.size = ps->size.v;
	if (ps->has_peer && !check_num(ps, &ps->peer, &ps->peer_loc)) {
		const goal_num *p = &ps->peer;
		if (p->neg && p->v == 1 && ps->kind == GOAL_RECV) {
			op.peer = GOAL_ANY_SOURCE;
		} else if (p->neg && p->v == 1) {
			goal_ps_error(ps, &ps->peer_loc, "send needs a destination rank; -1 (any source) is only for recv");
			bad = 1;
		} else if (p->neg) {
			goal_ps_error(ps, &ps->peer_loc, "rank must be >= 0%s",
			              ps->kind == GOAL_RECV ? ", or -1 for any source" : "");
			bad = 1;
		} else if (ps->have_nranks && p->v >= ps->nranks) {
			goal_ps_error(ps, &ps->peer_loc, "peer %" PRIu64 " is outside 0..%" PRIu64 " (num_ranks is %" PRIu64 ")",
			              p->v, ps->nranks - 1, ps->nranks);
			bad = 1;
		} else {
			op.peer = (uint32_t)p->v;
		}
	} else if (ps->has_peer) {
		bad = 1;
	}
	if (ps->kind == GOAL_CALC) {
		for (int k = GOAL_OPT_TAG; k < GOAL_NOPTS; k++)
			if (k != GOAL_OPT_CPU && ps->has_opt & 1u << k) {
				goal_ps_error(ps, &ps->opt_loc[k], "calc takes no '%s'", opt_name[k]);
				bad = 1;
			}
	}
	for (int k = 0; ps->has_opt >> k; k++)
		if (ps->has_opt & 1u << k && check_opt(ps, k, &op, &comm, st))
			bad = 1;
	if (ps->has_opt >> GOAL_OPT_STRIDE && !bad && ps->kind != GOAL_CALC) {
		if (!(ps->has_opt & 1u << GOAL_OPT_STRIDE)) {
			goal_ps_error(ps, &ps->opt_loc[GOAL_OPT_BLOCK], "'block' needs a 'stride'");
			bad = 1;
		} else if (st[0] < st[1]) {
			goal_ps_error(ps, &ps->opt_loc[GOAL_OPT_STRIDE],
			              "stride %" PRIu32 " is smaller than the block size %" PRIu32, st[0], st[1]);
			bad = 1;
		}
	}
	if (has_label) {
		sym *y = &ps->syms[label];
		if (y->op != NO_OP) {
			goal_ps_error(ps, loc, "duplicate label '%s' (first defined at %" PRIu64 ":%" PRIu64 ")",
			              sym_name(ps, label), y->def.line, y->def.col);
			bad = 1;
		} else {
			y->op = index;
			y->def = *loc;
		}
	}
	ps->nops++;
	if (bad || !(ps->w || ps->log) || !ps->rank_ok)
		return;
	if (out_op(ps, &op, comm, has_label ? sym_name(ps, label) : NULL,
	           has_label ? ps->syms[label].len : 0, st))
		goal_ps_error(ps, loc, "%s", goal_writer_error(ps->w));
}

void goal_ps_dep(goal_ps *ps, uint32_t a, const goal_loc *aloc, uint32_t b,
                 const goal_loc *bloc, int irequires)
{
	if (util_grow(&ps->deps, &ps->deps_cap, ps->ndeps + 1, sizeof *ps->deps)) {
		fprintf(ps->diag, "%s: error: out of memory\n", ps->name);
		exit(1);
	}
	ps->deps[ps->ndeps++] = (pdep){ a, b, irequires ? 1u : 0u, *aloc, *bloc };
}

void goal_ps_rank_end(goal_ps *ps, const goal_loc *loc)
{
	(void)loc;
	for (size_t k = 0; k < ps->ndeps; k++) {
		const pdep *d = &ps->deps[k];
		if (ps->syms[d->a].op == NO_OP)
			goal_ps_error(ps, &d->aloc, "undefined label '%s' in rank %" PRIu64, sym_name(ps, d->a), ps->rank);
		if (ps->syms[d->b].op == NO_OP)
			goal_ps_error(ps, &d->bloc, "undefined label '%s' in rank %" PRIu64, sym_name(ps, d->b), ps->rank);
	}
	if (!(ps->w || ps->log) || !ps->rank_ok)
		return;
	for (size_t k = 0; k < ps->ndeps; k++) {
		const pdep *d = &ps->deps[k];
		if (out_dep(ps, ps->syms[d->a].op, ps->syms[d->b].op, d->ireq)) {
			goal_ps_error(ps, &d->aloc, "%s", goal_writer_error(ps->w));
			return;
		}
	}
	if (out_rank_end(ps)) {
		uint64_t k = goal_writer_cycle_dep(ps->w);
		const goal_loc *at = k < ps->ndeps ? &ps->deps[k].aloc : loc;
		goal_ps_error(ps, at, "%s", goal_writer_error(ps->w));
	}
}

/* ---- Driver ------------------------------------------------------------ */

static void ps_init(goal_ps *ps, FILE *in, const char *name, const char *out_path, FILE *diag,
                    unsigned max_errors)
{
	memset(ps, 0, sizeof *ps);
	ps->scan.pos.line = 1;
	ps->scan.pos.col = 1;
	ps->in = in;
	ps->diag = diag;
	ps->name = name;
	ps->out_path = out_path;
	ps->max_errors = max_errors ? max_errors : 1;
	ps->last_job = NO_OP;
}

static void ps_free(goal_ps *ps)
{
	free(ps->slots);
	free(ps->syms);
	free(ps->names);
	free(ps->deps);
}

/* Parse the whole input in this thread, with every message. */
static unsigned long compile_serial(goal_ps *ps)
{
	yyscan_t scanner;
	int rc;

	if (goalyylex_init_extra(ps, &scanner)) {
		fprintf(ps->diag, "%s: error: out of memory\n", ps->name);
		return 1;
	}
	goalyyset_in(ps->in, scanner);
	rc = goalyyparse(scanner, ps);
	if (rc == 2)
		goal_ps_error(ps, NULL, "out of memory");
	if (ps->scan.read_errno || ferror(ps->in)) {
		goal_ps_error(ps, NULL, "cannot read: %s", strerror(ps->scan.read_errno ? ps->scan.read_errno : EIO));
		ps->stopped = 1;
	}
	if (!ps->stopped && rc == 0 && ps->have_nranks && ps->next_rank < ps->nranks) {
		const goal_loc *end = &ps->nranks_loc;
		if (ps->next_rank + 1 == ps->nranks)
			goal_ps_error(ps, end, "missing rank block %" PRIu64 " (num_ranks is %" PRIu64 ")",
			              ps->next_rank, ps->nranks);
		else
			goal_ps_error(ps, end, "missing rank blocks %" PRIu64 "..%" PRIu64 " (num_ranks is %" PRIu64 ")",
			              ps->next_rank, ps->nranks - 1, ps->nranks);
	}
	if (!ps->stopped && rc == 0 && !ps->have_nranks && !ps->saw_rank && !ps->nerrors)
		goal_ps_error(ps, NULL, "no 'num_ranks N' line: not a GOAL schedule");
	goalyylex_destroy(scanner);
	return ps->nerrors;
}

/* ---- Parts: the input parsed in two threads ------------------------------
 * A large file is cut into parts at lines that start a rank block, and the
 * writer gets the parts' calls in order: the calls of one thread, the same
 * bytes.  The first part (it has num_ranks) is parsed first.  Then this
 * thread parses the even parts and writes them as it goes, and a second
 * thread parses the odd ones into logs, which this thread replays in their
 * turn.  A part starts from what the parts before it end with: the number
 * of ranks, and the next rank (an odd part takes its first rank block's
 * number, which its replay checks).  Parts print nothing: at the first
 * error, of a part or of the writer, or at a cut that is no rank block (in
 * a comment), the whole input is compiled again in one thread, which
 * prints the messages. */
#define PART_BYTES ((uint64_t)1 << 20)
#define FIRST_PART ((uint64_t)1 << 16)  /* the first part: small, the others wait for it */
#define NLOGS 4                         /* odd parts parsed ahead of their turn */

typedef struct parts {
	int fd;
	uint64_t *cut;         /* part k: bytes cut[k] .. cut[k + 1] - 1 */
	size_t nparts;
	uint64_t nranks;
	const goal_ps *base;   /* name, diag */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	size_t parsed;         /* odd parts parsed (1, 3, 5, ...) */
	size_t replayed;       /* and replayed */
	int failed;
	struct part_log {
		wlog log;
		uint64_t first_rank, end_rank;
	} slot[NLOGS];         /* the odd parts' logs, by turns (part_slot) */
} parts;

/* The offset of the first line at or after off that starts "rank" and a
 * blank, or size. */
static uint64_t next_cut(int fd, uint64_t off, uint64_t size)
{
	char buf[1 << 16];
	const char key[] = "\nrank";
	size_t k = sizeof key - 1;
	for (off--; off + k < size; off += sizeof buf - k) {
		ssize_t got = pread(fd, buf, sizeof buf, (off_t)off);
		if (got <= (ssize_t)k)
			break;
		for (const char *p = buf; (p = memchr(p, '\n', (size_t)got - k - (size_t)(p - buf)));
		     p++)
			if (memcmp(p, key, k) == 0 && (p[k] == ' ' || p[k] == '\t'))
				return off + (uint64_t)(p - buf) + 1;
	}
	return size;
}

/* The log slot of odd part k. */
static struct part_log *part_slot(parts *pt, size_t k)
{
	return &pt->slot[k / 2 % NLOGS];
}

/* The scanner of ps at the start of part k; ps prints nothing. */
static void part_input(goal_ps *ps, const parts *pt, size_t k)
{
	ps->scan = (goal_scan){ .pos = { 1, 0, 1 }, .range = 1, .fd = pt->fd, .off = pt->cut[k],
	                        .left = pt->cut[k + 1] - pt->cut[k] };
	ps->quiet = 1;
}

/* Parse part k with ps (whose scanner is sc) into log, or when log is NULL
 * to w, from rank next; 0 when it parsed without an error. */
static int parse_part(const parts *pt, goal_ps *ps, yyscan_t sc, size_t k, wlog *log,
                      goal_writer *w, uint64_t next)
{
	part_input(ps, pt, k);
	ps->nerrors = 0;
	ps->stopped = 0;
	ps->have_nranks = ps->saw_rank = 1;
	ps->nranks = pt->nranks;
	ps->rank_ok = 0;
	ps->log = log;
	ps->w = w;
	ps->part_start = log != NULL;
	ps->next_rank = next;
	if (log)
		log->n = 0;
	goal_lex_restart(sc);
	return goalyyparse(sc, ps) || ps->nerrors || ps->scan.read_errno;
}

static int parts_ps(goal_ps *ps, yyscan_t *sc, const parts *pt)
{
	ps_init(ps, NULL, pt->base->name, NULL, pt->base->diag, 1);
	if (goalyylex_init_extra(ps, sc) == 0)
		return 0;
	ps_free(ps);
	return -1;
}

static void parts_fail(parts *pt)
{
	pthread_mutex_lock(&pt->mu);
	pt->failed = 1;
	pthread_cond_broadcast(&pt->cv);
	pthread_mutex_unlock(&pt->mu);
}

/* The second thread: parses the odd parts into logs. */
static void *parts_thread(void *arg)
{
	parts *pt = arg;
	goal_ps ps;
	yyscan_t sc;
	int bad = parts_ps(&ps, &sc, pt), ready = !bad;
	for (size_t k = 1; !bad && k < pt->nparts; k += 2) {
		pthread_mutex_lock(&pt->mu);
		while (!pt->failed && pt->parsed >= pt->replayed + NLOGS)
			pthread_cond_wait(&pt->cv, &pt->mu);
		bad = pt->failed;
		pthread_mutex_unlock(&pt->mu);
		if (bad)
			break;
		struct part_log *pl = part_slot(pt, k);
		bad = parse_part(pt, &ps, sc, k, &pl->log, NULL, 0);
		pthread_mutex_lock(&pt->mu);
		pl->first_rank = ps.first_rank;
		pl->end_rank = ps.next_rank;
		pt->parsed++;
		if (bad)
			pt->failed = 1;   /* before its log is taken */
		pthread_cond_broadcast(&pt->cv);
		pthread_mutex_unlock(&pt->mu);
	}
	if (bad)
		parts_fail(pt);
	if (ready) {
		goalyylex_destroy(sc);
		ps_free(&ps);
	}
	return NULL;
}

/* Give *w the parts after the first, in order, from rank *next (then the
 * rank after the last part's); 0, or -1 when the input is to be compiled
 * again in one thread (*w NULL when an error gave it up). */
static int write_parts(parts *pt, goal_writer **w, uint64_t *next)
{
	goal_ps ps;
	yyscan_t sc;
	pthread_t th;
	if (parts_ps(&ps, &sc, pt))
		return -1;
	int threaded = pthread_create(&th, NULL, parts_thread, pt) == 0, bad = 0;
	for (size_t k = 1; !bad && k < pt->nparts; k++) {
		if (k % 2 == 0 || !threaded) {
			bad = parse_part(pt, &ps, sc, k, NULL, *w, *next);
			*w = ps.w;
			*next = ps.next_rank;
			continue;
		}
		pthread_mutex_lock(&pt->mu);
		while (!pt->failed && pt->parsed <= k / 2)
			pthread_cond_wait(&pt->cv, &pt->mu);
		bad = pt->failed;
		pthread_mutex_unlock(&pt->mu);
		if (bad)
			break;
		const struct part_log *pl = part_slot(pt, k);
		bad = pl->first_rank != *next || log_replay(*w, &pl->log);
		*next = pl->end_rank;
		pthread_mutex_lock(&pt->mu);
		pt->replayed++;
		pthread_cond_broadcast(&pt->cv);
		pthread_mutex_unlock(&pt->mu);
	}
	parts_fail(pt);   /* done: the thread stops */
	if (threaded)
		pthread_join(th, NULL);
	goalyylex_destroy(sc);
	ps_free(&ps);
	return bad ? -1 : 0;
}

/* Compile in parts (see above): 0 when done, with no error (ps->w
 * finished by the caller); -1 when the input is to be compiled in one
 * thread (nothing printed, nothing written, the stream where it was).
 * *nparts: the parts, 0 when the input is not cut. */
static int compile_parts(goal_ps *ps, size_t *nparts)
{
	*nparts = 0;
	struct stat st;
	int fd = fileno(ps->in);
	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode) || (uint64_t)st.st_size < GOAL_PARTS_MIN
	    || ftello(ps->in) != 0)
		return -1;
	uint64_t size = (uint64_t)st.st_size;
	parts pt;
	memset(&pt, 0, sizeof pt);
	pt.fd = fd;
	pt.base = ps;
	size_t cap = 0;
	for (uint64_t off = 0; off < size; off = next_cut(fd, off + (off ? PART_BYTES : FIRST_PART), size)) {
		if (util_grow(&pt.cut, &cap, pt.nparts + 2, sizeof *pt.cut)) {
			free(pt.cut);
			return -1;
		}
		pt.cut[pt.nparts++] = off;
	}
	pt.cut[pt.nparts] = size;
	*nparts = pt.nparts;
	pthread_mutex_init(&pt.mu, NULL);
	pthread_cond_init(&pt.cv, NULL);

	/* The first part, here, as a whole input of its own. */
	yyscan_t sc;
	int rc = -1;
	if (goalyylex_init_extra(ps, &sc) == 0) {
		part_input(ps, &pt, 0);
		rc = goalyyparse(sc, ps) || ps->nerrors || ps->scan.read_errno || !ps->have_nranks
		     || !ps->w ? -1 : 0;
		goalyylex_destroy(sc);
	}
	if (rc == 0) {
		pt.nranks = ps->nranks;
		rc = write_parts(&pt, &ps->w, &ps->next_rank);
		if (rc == 0 && ps->next_rank != ps->nranks)
			rc = -1;   /* missing rank blocks */
	}
	for (int i = 0; i < NLOGS; i++)
		free(pt.slot[i].log.a);
	free(pt.cut);
	pthread_mutex_destroy(&pt.mu);
	pthread_cond_destroy(&pt.cv);
	if (rc) {
		if (ps->w)
			goal_writer_abort(ps->w);
		FILE *in = ps->in, *diag = ps->diag;
		const char *name = ps->name, *out_path = ps->out_path;
		unsigned max_errors = ps->max_errors;
		ps_free(ps);
		ps_init(ps, in, name, out_path, diag, max_errors);
	}
	return rc;
}

unsigned long goal_compile(FILE *in, const char *name, const char *out_path,
                           FILE *diag, unsigned max_errors, unsigned threads)
{
	goal_ps ps;
	size_t nparts;
	ps_init(&ps, in, name, out_path, diag, max_errors);
	int rc = threads > 1 ? compile_parts(&ps, &nparts) : (nparts = 0, -1);
	if (getenv("GOAL_PARTS")) {
		if (!nparts)
			fprintf(diag, "%s: in one thread\n", name);
		else if (rc)
			fprintf(diag, "%s: in %zu parts, then again in one thread\n", name, nparts);
		else
			fprintf(diag, "%s: in %zu parts\n", name, nparts);
	}
	if (rc)
		compile_serial(&ps);
	if (ps.w) {
		if (ps.nerrors == 0 && goal_writer_finish(ps.w)) {
			fprintf(diag, "%s\n", goal_writer_error(ps.w));
			ps.nerrors++;
		}
		goal_writer_close(ps.w);
		ps.w = NULL;
	}
	ps_free(&ps);
	return ps.nerrors;
}
