/* tl_trace_json.c: timelines as trace-event JSON (tl_trace_json.h,
 * docs/perfetto.md): one pass over the lines through tl_scan, each line
 * written as events as soon as it is read.  A send's osend and gsend lines
 * wait for its transmission line (they come together, with the same start)
 * to get its destination, size and op; nothing else is held. */
#include "tl_trace_json.h"
#include "tl_scan.h"
#include "json.h"
#include "num.h"
#include "util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Process and thread ids: ranks' tracks take 1 .. TID_MAX, the critical
 * path the ids above it. */
#define TID_MAX UINT64_C(4294967231)      /* 2^32 - 65 */
#define PATH_PID UINT64_C(4294967295)
#define NET_PID UINT64_C(4294967294)      /* the links' loads: link l on l + 1 */
#define PATH_TID0 UINT64_C(4294967294)    /* kind k, lane j: PATH_TID0 - 8k - j */
#define PATH_LANES 8
#define OLD_TRACKS 16                     /* CPUs per rank of the old format */

/* ---- A set of 32-bit numbers: pages of 2^16 bits, made when touched ---- */

typedef struct bitset {
	unsigned char **page;    /* 65536 pages */
} bitset;

/* Set bit i: 1 if it was clear, 0 if set already, -1 out of memory. */
static int bit_set(bitset *b, uint64_t i)
{
	if (!b->page && !(b->page = calloc(65536, sizeof *b->page)))
		return -1;
	unsigned char **pg = &b->page[(i >> 16) & 0xffff];
	if (!*pg && !(*pg = calloc(8192, 1)))
		return -1;
	unsigned char m = (unsigned char)(1u << (i & 7));
	unsigned char *byte = &(*pg)[(i & 0xffff) >> 3];
	if (*byte & m)
		return 0;
	*byte |= m;
	return 1;
}

static void bit_free(bitset *b)
{
	for (size_t i = 0; b->page && i < 65536; i++)
		free(b->page[i]);
	free(b->page);
	b->page = NULL;
}

/* ---- Text ----------------------------------------------------------------- */

static char *put_str(char *p, const char *s)
{
	size_t n = strlen(s);
	memcpy(p, s, n);
	return p + n;
}

/* ns as microseconds, exactly: "1234.567". */
static char *put_us(char *p, uint64_t ns)
{
	p = util_put_u64(p, ns / 1000);
	unsigned f = (unsigned)(ns % 1000);
	*p++ = '.';
	*p++ = (char)('0' + f / 100);
	*p++ = (char)('0' + f / 10 % 10);
	*p++ = (char)('0' + f % 10);
	return p;
}

static char *put_hex(char *p, uint64_t v)
{
	char tmp[16];
	int n = 0;
	do {
		tmp[n++] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

/* ,"KEY":V */
static char *put_arg(char *p, const char *key, uint64_t v, int first)
{
	if (!first)
		*p++ = ',';
	*p++ = '"';
	p = put_str(p, key);
	*p++ = '"';
	*p++ = ':';
	return util_put_u64(p, v);
}

/* ---- The converter -------------------------------------------------------- */

typedef struct cv {
	FILE *out;
	const tl_json_opts *o;
	tl_scan s;
	uint64_t T;              /* tracks per rank */
	int begun;               /* the opening is written */
	bitset ranks, tracks;    /* process and thread names written */
	bitset links;            /* link tracks named */
	uint32_t *rank_job;      /* versions 3 and 4: each rank's job (UINT32_MAX: none) */
	int net_named;           /* the network's process named */
	tl_rec os, gs;           /* a send's osend and gsend, waiting for its */
	int held_os, held_gs;    /* transmission line */
	tl_rec rv;               /* the last orecv (for its grecv's args) */
	int have_rv;
	uint64_t events;
	char b[1024];            /* the event being written */
} cv;

static int oom(cv *c)
{
	snprintf(c->s.err, c->s.errlen, "%s: error: out of memory", c->s.name);
	return -1;
}

static int rank_kept(const cv *c, uint64_t r)
{
	const tl_json_opts *o = c->o;
	if (!o->ranges)
		return 1;
	size_t lo = 0, hi = o->nranges;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (o->ranges[2 * mid + 1] < r)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < o->nranges && o->ranges[2 * lo] <= r;
}

static int in_window(const cv *c, uint64_t start, uint64_t end)
{
	return end >= c->o->from && (c->o->to == TL_NONE || start <= c->o->to);
}

/* An event is written into b after ",\n" (every event follows another),
 * from the pointer this returns, ... */
static char *ev_start(cv *c)
{
	c->b[0] = ',';
	c->b[1] = '\n';
	return c->b + 2;
}

/* ... and out in one go when it ends at p (the converter is the stream's
 * one writer while it runs). */
static void emit(cv *c, char *p)
{
	fwrite_unlocked(c->b, 1, (size_t)(p - c->b), c->out);
	c->events++;
}

/* "pid":P,"tid":T */
static char *put_ids(char *p, uint64_t pid, uint64_t tid)
{
	p = put_str(p, "\"pid\":");
	p = util_put_u64(p, pid);
	p = put_str(p, ",\"tid\":");
	return util_put_u64(p, tid);
}

static uint64_t tid_of(const cv *c, uint64_t rank, uint64_t k)
{
	return rank * c->T + k + 1;
}

/* Track k of rank: "cpu c", "nic n send", "nic n recv". */
static uint64_t track_cpu(uint64_t cpu)
{
	return cpu;
}

static uint64_t track_nic(const cv *c, uint64_t nic, int recv)
{
	return c->s.h.ncpus + 2 * nic + (recv ? 1 : 0);
}

/* A job line: its ranks' job (for their process names). */
static int do_job(cv *c, const tl_rec *x)
{
	if (!c->rank_job) {
		size_t n = c->s.h.nranks ? (size_t)c->s.h.nranks : 1;
		if (!(c->rank_job = malloc(n * sizeof *c->rank_job)))
			return oom(c);
		memset(c->rank_job, 0xff, n * sizeof *c->rank_job);
	}
	const char *p = x->at_src;
	uint64_t a, b;
	while (tl_scan_job_run(&p, &a, &b))
		for (uint64_t r = a; r <= b; r++)
			c->rank_job[r] = (uint32_t)x->unit;
	return 0;
}

/* The thread id of track k of rank, its names written before its first
 * event; 0 (no such track) after an error. */
static uint64_t use_track(cv *c, uint64_t rank, uint64_t k)
{
	uint64_t tid = tid_of(c, rank, k);
	int fresh = bit_set(&c->tracks, tid);
	if (fresh < 0)
		return oom(c), 0;
	if (!fresh)
		return tid;
	char *p = ev_start(c);
	int rfresh = bit_set(&c->ranks, rank);
	if (rfresh < 0)
		return oom(c), 0;
	if (rfresh) {
		p = put_str(p, "{\"ph\":\"M\",\"name\":\"process_name\",");
		p = put_ids(p, rank + 1, tid);
		p = put_str(p, ",\"args\":{\"name\":\"rank ");
		p = util_put_u64(p, rank);
		if (c->rank_job && c->rank_job[rank] != UINT32_MAX) {
			p = put_str(p, " (");
			p = put_str(p, c->s.job_names + c->s.job_off[c->rank_job[rank]]);
			p = put_str(p, ")");
		}
		p = put_str(p, "\"}}");
		emit(c, p);
		p = ev_start(c);
	}
	p = put_str(p, "{\"ph\":\"M\",\"name\":\"thread_name\",");
	p = put_ids(p, rank + 1, tid);
	p = put_str(p, ",\"args\":{\"name\":\"");
	uint32_t ncpus = c->s.h.ncpus;
	if (c->s.h.old_format || k < ncpus) {
		p = put_str(p, "cpu ");
		p = util_put_u64(p, k);
	} else {
		p = put_str(p, "nic ");
		p = util_put_u64(p, (k - ncpus) / 2);
		p = put_str(p, (k - ncpus) % 2 ? " recv" : " send");
	}
	p = put_str(p, "\"}}");
	emit(c, p);
	return tid;
}

/* The start of an event: {"ph":"PH","name":"NAME","pid":..,"tid":..,"ts":TS */
static char *ev_begin(cv *c, const char *ph, const char *name, uint64_t rank, uint64_t tid,
                      uint64_t ts)
{
	char *p = ev_start(c);
	p = put_str(p, "{\"ph\":\"");
	p = put_str(p, ph);
	p = put_str(p, "\",\"name\":\"");
	p = put_str(p, name);
	p = put_str(p, "\",");
	p = put_ids(p, rank + 1, tid);
	p = put_str(p, ",\"ts\":");
	return put_us(p, ts);
}

/* The label of op op of rank rank, or NULL (none, or no labels). */
static const char *label_of(const cv *c, uint64_t rank, uint64_t op)
{
	return c->o->label ? c->o->label(c->o->label_ctx, rank, op) : NULL;
}

/* An interval as a complete event, named label (NULL: its keyword); args:
 * NULL or the members inside "args":{...}.  Returns the thread id, 0 when
 * not kept, UINT64_MAX after an error. */
static uint64_t slice(cv *c, const tl_rec *x, const char *label, const char *args)
{
	if (!rank_kept(c, x->rank) || !in_window(c, x->start, x->end))
		return 0;
	if (c->s.h.old_format && tl_kind_on_nic[x->kind])
		return 0;  /* the published tool wrote no NIC lines: not drawn */
	uint64_t k = tl_kind_on_nic[x->kind] ? track_nic(c, x->unit, x->kind == TL_GRECV)
	                                     : track_cpu(x->unit);
	if (c->s.h.old_format && k >= OLD_TRACKS) {
		tl_scan_error(&c->s, c->s.lbuf, "cpu %" PRIu64 ": CPUs 0..%d of the old format are "
		              "converted", x->unit, OLD_TRACKS - 1);
		return UINT64_MAX;
	}
	uint64_t tid = use_track(c, x->rank, k);
	if (!tid)
		return UINT64_MAX;
	char *p = ev_begin(c, "X", label ? label : tl_kind_word[x->kind], x->rank, tid, x->start);
	p = put_str(p, ",\"dur\":");
	p = put_us(p, x->end - x->start);
	if (args || label) {
		p = put_str(p, ",\"args\":{");
		if (label) {
			p = put_str(p, "\"kind\":\"");
			p = put_str(p, tl_kind_word[x->kind]);
			*p++ = '"';
			if (args && *args)
				*p++ = ',';
		}
		if (args)
			p = put_str(p, args);
		*p++ = '}';
	}
	*p++ = '}';
	emit(c, p);
	return tid;
}

/* A flow event of message (src, op) on track tid of rank at ts. */
static void flow(cv *c, int start, uint64_t src, uint64_t op, uint64_t rank, uint64_t tid,
                 uint64_t ts)
{
	char *p = ev_start(c);
	p = put_str(p, start ? "{\"ph\":\"s\"," : "{\"ph\":\"f\",\"bp\":\"e\",");
	p = put_str(p, "\"name\":\"message\",\"cat\":\"message\",\"id\":\"0x");
	p = put_hex(p, (src << 32) + op);
	p = put_str(p, "\",");
	p = put_ids(p, rank + 1, tid);
	p = put_str(p, ",\"ts\":");
	p = put_us(p, ts);
	*p++ = '}';
	emit(c, p);
}

/* Write the held osend and gsend: with the args of transmission t (NULL:
 * none came). */
static int release(cv *c, const tl_rec *t)
{
	const tl_head *h = &c->s.h;
	char a[256], *p;
	uint64_t tid = 0;
	if (c->held_os) {
		p = a;
		*p = 0;
		if (t) {
			p = put_arg(p, "peer", t->dst, 1);
			p = put_arg(p, "size", t->size, 0);
			if (h->version >= 2)
				p = put_arg(p, "op", t->op, 0);
			if (h->version >= 2)
				p = put_arg(p, "depart_ns", t->depart, 0);
			p = put_arg(p, h->old_format ? "received_ns" : "arrival_ns", t->arrival, 0);
			*p = 0;
		}
		if ((tid = slice(c, &c->os, t && h->version >= 2 ? label_of(c, t->src, t->op) : NULL,
		                 t ? a : NULL)) == UINT64_MAX)
			return -1;
	}
	if (c->held_gs) {
		p = a;
		if (t) {
			p = put_arg(p, "peer", t->dst, 1);
			p = put_arg(p, "size", t->size, 0);
			if (h->version >= 2)
				p = put_arg(p, "op", t->op, 0);
		}
		*p = 0;
		if (slice(c, &c->gs, NULL, t ? a : NULL) == UINT64_MAX)
			return -1;
	}
	/* The message's flow starts on its osend, when that is written. */
	if (t && h->version >= 2 && tid && rank_kept(c, t->dst))
		flow(c, 1, t->src, t->op, t->src, tid, t->start);
	c->held_os = c->held_gs = 0;
	return 0;
}

static int do_transmission(cv *c, const tl_rec *t)
{
	const tl_head *h = &c->s.h;
	int mine = c->held_os && c->os.rank == t->src && c->os.start == t->start;
	if (release(c, mine ? t : NULL))
		return -1;
	if (h->old_format || !rank_kept(c, t->dst) || !in_window(c, t->arrival, t->arrival))
		return 0;
	uint64_t tid = use_track(c, t->dst, track_nic(c, h->version >= 2 ? t->nic : 0, 1));
	if (!tid)
		return -1;
	char *p = ev_begin(c, "i", "arrival", t->dst, tid, t->arrival);
	p = put_str(p, ",\"s\":\"t\",\"args\":{");
	p = put_arg(p, "peer", t->src, 1);
	if (h->version >= 2)
		p = put_arg(p, "op", t->op, 0);
	p = put_arg(p, "size", t->size, 0);
	p = put_str(p, "}}");
	emit(c, p);
	return 0;
}

static int do_interval(cv *c, const tl_rec *x)
{
	if (x->kind == TL_OSEND) {
		if (release(c, NULL))
			return -1;
		c->os = *x;
		c->held_os = 1;
		return 0;
	}
	if (x->kind == TL_GSEND && c->held_os && !c->held_gs && c->os.rank == x->rank &&
	    c->os.start == x->start) {
		c->gs = *x;
		c->held_gs = 1;
		return 0;
	}
	if (release(c, NULL))
		return -1;
	char a[128], *p = a;
	const char *label = NULL;
	*p = 0;
	if (x->kind == TL_ORECV && x->has_msg) {
		p = put_arg(p, "peer", x->src, 1);
		p = put_arg(p, "op", x->op, 0);
		*p = 0;
		c->rv = *x;
		c->have_rv = 1;
		label = label_of(c, x->src, x->op);
	} else if (x->has_op) {
		p = put_arg(p, "op", x->op, 1);
		*p = 0;
		label = label_of(c, x->rank, x->op);
	} else if (x->kind == TL_GRECV && c->have_rv && c->rv.rank == x->rank &&
	           c->rv.start == x->start) {
		p = put_arg(p, "peer", c->rv.src, 1);
		p = put_arg(p, "op", c->rv.op, 0);
		*p = 0;
	}
	uint64_t tid = slice(c, x, label, a[0] ? a : NULL);
	if (tid == UINT64_MAX)
		return -1;
	if (tid && x->kind == TL_ORECV && x->has_msg && rank_kept(c, x->src))
		flow(c, 0, x->src, x->op, x->rank, tid, x->start);
	return 0;
}

/* A link line: "N flows" on the link's track of the network process,
 * with the flows and the bytes they moved; 0, or -1 after an error. */
static int do_link(cv *c, const tl_rec *x)
{
	if (!in_window(c, x->start, x->end))
		return 0;
	int lfresh = bit_set(&c->links, x->unit);
	if (lfresh < 0)
		return oom(c);
	char *p;
	if (!c->net_named) {
		c->net_named = 1;
		p = ev_start(c);
		p = put_str(p, "{\"ph\":\"M\",\"name\":\"process_name\",");
		p = put_ids(p, NET_PID, 0);
		p = put_str(p, ",\"args\":{\"name\":\"network links\"}}");
		emit(c, p);
	}
	if (lfresh) {
		p = ev_start(c);
		p = put_str(p, "{\"ph\":\"M\",\"name\":\"thread_name\",");
		p = put_ids(p, NET_PID, x->unit + 1);
		p = put_str(p, ",\"args\":{\"name\":\"link ");
		p = util_put_u64(p, x->unit);
		p = put_str(p, "\"}}");
		emit(c, p);
	}
	p = ev_start(c);
	p = put_str(p, "{\"ph\":\"X\",\"name\":\"");
	p = util_put_u64(p, x->flows);
	p = put_str(p, x->flows == 1 ? " flow\"," : " flows\",");
	p = put_ids(p, NET_PID, x->unit + 1);
	p = put_str(p, ",\"ts\":");
	p = put_us(p, x->start);
	p = put_str(p, ",\"dur\":");
	p = put_us(p, x->end - x->start);
	p = put_str(p, ",\"args\":{");
	p = put_arg(p, "flows", x->flows, 1);
	p = put_arg(p, "bytes", x->size, 0);
	p = put_str(p, "}}");
	emit(c, p);
	return 0;
}

/* The opening, once the header and its range lines are read. */
static int begin(cv *c)
{
	const tl_head *h = &c->s.h;
	FILE *f = c->out;
	c->T = h->old_format ? OLD_TRACKS : (uint64_t)h->ncpus + 2 * (uint64_t)h->nnics;
	if (h->nranks > TID_MAX / c->T) {
		snprintf(c->s.err, c->s.errlen, "%s:1:1: error: %" PRIu64 " ranks of %" PRIu64
		         " tracks each: more than the %" PRIu64 " thread ids trace JSON has",
		         c->s.name, h->nranks, c->T, TID_MAX);
		return -1;
	}
	if (h->old_format) {
		fprintf(f, "{\"otherData\":{\"timeline\":\"LogGOPSim\",\"P\":%" PRIu64 "},\n",
		        h->nranks);
	} else {
		fprintf(f, "{\"otherData\":{\"timeline\":\"loggopsim-timeline %" PRIu32 "\",\"P\":%"
		        PRIu64 ",\"S\":%" PRIu64 ",\"ncpus\":%" PRIu32 ",\"nnics\":%" PRIu32
		        ",\"ranges\":\"", h->version, h->nranks, h->S, h->ncpus, h->nnics);
		for (uint32_t i = 0; i < h->nranges; i++) {
			const loggp_range *r = &h->range[i];
			char G[NUM_DEC_TEXT] = "?", O[NUM_DEC_TEXT] = "?";
			if (r->G.den)
				num_dec_format(r->G, G, sizeof G);
			if (r->O.den)
				num_dec_format(r->O, O, sizeof O);
			fprintf(f, "%s%" PRIu64 "..", i ? "; " : "", r->first);
			if (r->last == LOGGP_SIZE_INF)
				fputs("inf", f);
			else
				fprintf(f, "%" PRIu64, r->last);
			fprintf(f, " L=%" PRIu64 " o=%" PRIu64 " g=%" PRIu64 " G=%s O=%s", r->L, r->o,
			        r->g, G, O);
		}
		fputs("\"},\n", f);
	}
	/* The first event, so that every other one follows a comma: the
	 * critical path's process sorts first. */
	fprintf(f, "\"traceEvents\":[\n{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":%"
	        PRIu64 ",\"tid\":%" PRIu64 ",\"args\":{\"sort_index\":-1}}", PATH_PID, PATH_PID);
	c->begun = 1;
	return 0;
}

int tl_json_convert(FILE *in, const char *name, FILE *out, const tl_json_opts *o,
                    tl_json_info *info, char *err, size_t errlen)
{
	cv *c = calloc(1, sizeof *c);
	if (!c) {
		snprintf(err, errlen, "%s: error: out of memory", name);
		return -1;
	}
	c->out = out;
	c->o = o;
	tl_scan_init(&c->s, name, err, errlen);
	c->s.stop_after = o->to;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int rc = 0, stopped = 0;
	uint64_t tmax = 0;
	while ((len = getline(&line, &cap, in)) >= 0) {
		if (o->tee)
			fwrite(line, 1, (size_t)len, o->tee);
		tl_rec x;
		int k = tl_scan_line(&c->s, line, (size_t)len, &x);
		if (k < 0) {
			rc = -1;
			break;
		}
		if (!c->begun && c->s.have_header && !c->s.ranges_due && begin(c)) {
			rc = -1;
			break;
		}
		if (k == TL_LINE_STOP) {   /* link lines may still come (tl_scan.h) */
			stopped = 1;
			if (!c->s.links_only)
				break;
			continue;
		}
		if (k == TL_LINE_INTERVAL || k == TL_LINE_LINK)
			tmax = x.end > tmax ? x.end : tmax;
		else if (k == TL_LINE_TRANSMISSION)
			tmax = x.arrival > tmax ? x.arrival : tmax;
		if ((k == TL_LINE_JOB && do_job(c, &x)) ||
		    (k == TL_LINE_INTERVAL && do_interval(c, &x)) ||
		    (k == TL_LINE_TRANSMISSION && do_transmission(c, &x)) ||
		    (k == TL_LINE_LINK && do_link(c, &x))) {
			rc = -1;
			break;
		}
	}
	if (rc == 0 && (!stopped || c->s.links_only) && ferror(in)) {
		snprintf(err, errlen, "%s: error: read error", name);
		rc = -1;
	}
	if (rc == 0 && tl_scan_end(&c->s))
		rc = -1;
	if (rc == 0 && release(c, NULL))
		rc = -1;
	if (info) {
		info->lines = c->s.line;
		info->events = c->events;
		info->nranks = c->s.h.nranks;
		info->tmax = tmax;
		info->stopped_early = stopped;
	}
	free(line);
	bit_free(&c->ranks);
	bit_free(&c->tracks);
	bit_free(&c->links);
	free(c->rank_job);
	tl_scan_free(&c->s);
	free(c);
	return rc;
}

/* ---- The critical path ---------------------------------------------------- */

int tl_json_path(FILE *f, const tl_link *links, size_t n)
{
	uint64_t last_end[TL_LINK_NKINDS][PATH_LANES];
	unsigned char used[TL_LINK_NKINDS][PATH_LANES];
	memset(used, 0, sizeof used);
	if (n)
		fprintf(f, ",\n{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%" PRIu64 ",\"tid\":%"
		        PRIu64 ",\"args\":{\"name\":\"critical path\"}}", PATH_PID, PATH_TID0);
	for (size_t i = 0; i < n; i++) {
		const tl_link *l = &links[i];
		unsigned k = (unsigned)l->kind < TL_LINK_NKINDS ? (unsigned)l->kind : 0;
		/* The first lane of its kind free at its start. */
		unsigned j = 0;
		while (j + 1 < PATH_LANES && used[k][j] && last_end[k][j] > l->start_ns)
			j++;
		uint64_t tid = PATH_TID0 - PATH_LANES * k - j;
		if (!used[k][j]) {
			fprintf(f, ",\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%" PRIu64
			        ",\"tid\":%" PRIu64 ",\"args\":{\"name\":\"%s", PATH_PID, tid,
			        tl_link_word[k]);
			if (j)
				fprintf(f, " %u", j + 1);
			fputs("\"}}", f);
			fprintf(f, ",\n{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":%" PRIu64
			        ",\"tid\":%" PRIu64 ",\"args\":{\"sort_index\":%u}}", PATH_PID, tid,
			        PATH_LANES * k + j);
			used[k][j] = 1;
		}
		last_end[k][j] = l->end_ns;
		char b[64];
		fprintf(f, ",\n{\"ph\":\"X\",\"name\":\"%s\",\"pid\":%" PRIu64 ",\"tid\":%" PRIu64
		        ",\"ts\":", tl_link_word[k], PATH_PID, tid);
		fwrite(b, 1, (size_t)(put_us(b, l->start_ns) - b), f);
		fputs(",\"dur\":", f);
		fwrite(b, 1, (size_t)(put_us(b, l->end_ns - l->start_ns) - b), f);
		fprintf(f, ",\"args\":{\"step\":%" PRIu64 ",\"rank\":%" PRIu64 ",\"unit\":%" PRIu32
		        ",\"op\":%" PRIu64, l->step, l->rank, l->unit, l->op);
		if (l->kind != TL_LINK_CALC)
			fprintf(f, ",\"peer\":%" PRIu64, l->peer);
		fprintf(f, ",\"via\":\"%s\",\"range\":%" PRIu64 ",\"L\":%" PRIu64 ",\"o\":%"
		        PRIu64 ",\"g\":%" PRIu64 ",\"G_bytes\":%" PRIu64 ",\"O_bytes\":%" PRIu64
		        ",\"calc_ns\":%" PRIu64 ",\"noise_ns\":%" PRId64,
		        (unsigned)l->via < TL_NVIAS ? tl_via_word[l->via] : "?", l->range, l->L,
		        l->o, l->g, l->G_bytes, l->O_bytes, l->calc_ns, l->noise_ns);
		if (l->label && *l->label) {
			fputs(",\"label\":", f);
			util_json_str(f, l->label);
		}
		fputs("}}", f);
		/* Arrows from each link to the next: "f" binds this slice (the
		 * one just written on this thread at its start), "s" too. */
		for (int e = 0; e < 2; e++) {
			if ((e == 0 && i == 0) || (e == 1 && i + 1 == n))
				continue;
			fprintf(f, ",\n{\"ph\":\"%s\",\"name\":\"critical path\",\"cat\":\"critical_path\","
			        "\"id\":\"0x%zx\",\"pid\":%" PRIu64 ",\"tid\":%" PRIu64 ",\"ts\":",
			        e ? "s" : "f\",\"bp\":\"e", e ? i + 1 : i, PATH_PID, tid);
			fwrite(b, 1, (size_t)(put_us(b, l->start_ns) - b), f);
			fputc('}', f);
		}
	}
	fputs("\n]}\n", f);
	return ferror(f) ? -1 : 0;
}
