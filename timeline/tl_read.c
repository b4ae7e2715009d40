/* tl_read.c: the one-pass timeline reader (versions 1 and 2 of the
 * loggopsim -V format and the published LogGOPSim format; docs/timeline.md). */
#include "timeline.h"
#include "kmap.h"
#include "util.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- Reader state ------------------------------------------------------- */

/* Version 1 and the old format do not say which message an orecv handled:
 * it is the oldest message waiting at its rank (as they were written).  A
 * message waiting at a kept rank for the orecv that handles it: */
typedef struct pend {
	uint64_t arrival, src, size;
	size_t msg;           /* index in tl->msgs, or SIZE_MAX if not kept */
} pend;

typedef struct pqueue {
	pend *v;
	size_t head, n, cap;
} pqueue;

typedef struct rd {
	tl_file *tl;
	const tl_window *w;
	const char *name;
	uint64_t line;
	const char *lbuf;     /* start of the current line */
	char *err;
	size_t errlen;
	pqueue *q;            /* per lane (version 1, old format) */
	util_kmap sent;       /* version 2: (src, op) -> index in tl->msgs */
	int have_header;
	uint32_t ranges_due;  /* range lines still to come after the header */
	uint64_t last_osend_rank, last_osend_start;
	uint16_t last_osend_cpu;
	int have_last_osend;
} rd;

/* The key of send op `op` of rank src in rd.sent. */
typedef struct msg_key {
	uint64_t src, op;
} msg_key;

static int rd_error(rd *r, const char *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int rd_error(rd *r, const char *at, const char *fmt, ...)
{
	int n = snprintf(r->err, r->errlen, "%s:%" PRIu64 ":%ld: error: ", r->name,
	                 r->line, (long)(at - r->lbuf) + 1);
	if (n < 0 || (size_t)n >= r->errlen)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->err + n, r->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

static int oom(rd *r)
{
	snprintf(r->err, r->errlen, "%s: error: out of memory", r->name);
	return -1;
}

static const char *skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* The next field: a number.  Old format numbers may end in ';'. */
static int field_u64(rd *r, const char **pp, uint64_t *v, const char *what)
{
	const char *p = skip_ws(*pp);
	if (*p == 0 || *p == '\n' || *p == '\r' || *p == ';')
		return rd_error(r, p, "missing %s", what);
	if (*p == '-')
		return rd_error(r, p, "negative %s", what);
	const char *q = p;
	if (num_u64_scan(&q, v) != NUM_OK)
		return rd_error(r, p, "bad %s (expected an unsigned integer)", what);
	if (*q != 0 && *q != ' ' && *q != '\t' && *q != '\n' && *q != '\r' && *q != ';')
		return rd_error(r, p, "bad %s (expected an unsigned integer)", what);
	*pp = q;
	return 0;
}

/* Old format colour fields: a number like 0, 1, 0.5 (ignored). */
static int field_colour(rd *r, const char **pp)
{
	const char *p = skip_ws(*pp);
	if (*p == 0 || *p == '\n' || *p == '\r' || *p == ';')
		return rd_error(r, p, "missing colour field");
	char *end;
	errno = 0;
	(void)strtod(p, &end);
	if (end == p || (*end != 0 && *end != ' ' && *end != '\t' && *end != '\n' &&
	                 *end != '\r' && *end != ';'))
		return rd_error(r, p, "bad colour field (expected a number)");
	*pp = end;
	return 0;
}

/* The end of a line: nothing (new format) or ';' (old format). */
static int line_end(rd *r, const char *p)
{
	p = skip_ws(p);
	if (r->tl->old_format) {
		if (*p != ';')
			return rd_error(r, p, "expected ';' at the end of the line");
		p = skip_ws(p + 1);
	}
	if (*p != 0 && *p != '\n' && !(*p == '\r' && (p[1] == 0 || p[1] == '\n')))
		return rd_error(r, p, "unexpected text at the end of the line");
	return 0;
}

/* Lane of rank, or UINT32_MAX when it is not drawn. */
static uint32_t lane_of(const tl_file *tl, uint64_t rank)
{
	uint32_t lo = 0, hi = tl->nlanes;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (tl->lane_rank[mid] < rank)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < tl->nlanes && tl->lane_rank[lo] == rank ? lo : UINT32_MAX;
}

/* Choose the lanes once P is known. */
static int make_lanes(rd *r)
{
	tl_file *tl = r->tl;
	const tl_window *w = r->w;
	uint64_t max = w->max_lanes ? w->max_lanes : 1;
	size_t cap = (size_t)(tl->nranks < max ? tl->nranks : max);
	tl->lane_rank = malloc((cap ? cap : 1) * sizeof *tl->lane_rank);
	if (tl->version != 2)  /* version 2 names each orecv's message */
		r->q = calloc(cap ? cap : 1, sizeof *r->q);
	if (!tl->lane_rank || (tl->version != 2 && !r->q))
		return oom(r);
	uint64_t dummy[2] = { 0, tl->nranks ? tl->nranks - 1 : 0 };
	const uint64_t *rg = w->ranges ? w->ranges : dummy;
	size_t nr = w->ranges ? w->nranges : (tl->nranks ? 1 : 0);
	for (size_t i = 0; i < nr; i++) {
		uint64_t lo = rg[2 * i], hi = rg[2 * i + 1];
		if (lo >= tl->nranks)
			break;
		if (hi >= tl->nranks)
			hi = tl->nranks - 1;
		for (uint64_t k = lo;; k++) {
			if (tl->nlanes < cap) {
				tl->lane_rank[tl->nlanes++] = k;
			} else {
				if (!tl->lanes_left_out)
					tl->first_left_out = k;
				tl->lanes_left_out += hi - k + 1;
				break;
			}
			if (k == hi)
				break;
		}
	}
	return 0;
}

/* Keeping an item: count it against max_items.  Returns 1 to keep. */
static int room(rd *r, uint64_t start)
{
	tl_file *tl = r->tl;
	if (tl->nbars + tl->nmsgs < r->w->max_items)
		return 1;
	if (!tl->items_left_out || start < tl->first_time_left_out)
		tl->first_time_left_out = start;
	tl->items_left_out++;
	return 0;
}

static int push_bar(rd *r, const tl_bar *b)
{
	tl_file *tl = r->tl;
	if (util_grow(&tl->bars, &tl->cap_bars, tl->nbars + 1, sizeof *tl->bars))
		return oom(r);
	tl->bars[tl->nbars++] = *b;
	return 0;
}

static int push_msg(rd *r, const tl_msg *m)
{
	tl_file *tl = r->tl;
	if (util_grow(&tl->msgs, &tl->cap_msgs, tl->nmsgs + 1, sizeof *tl->msgs))
		return oom(r);
	tl->msgs[tl->nmsgs++] = *m;
	return 0;
}

static int pq_push(rd *r, pqueue *q, const pend *e)
{
	if (q->head > 0 && q->head + q->n == q->cap) {
		memmove(q->v, q->v + q->head, q->n * sizeof *q->v);
		q->head = 0;
	}
	if (util_grow(&q->v, &q->cap, q->n + 1, sizeof *q->v))
		return oom(r);
	q->v[q->head + q->n++] = *e;
	return 0;
}

static int in_window(const rd *r, uint64_t start, uint64_t end)
{
	return end >= r->w->from && (r->w->to == TL_NONE || start <= r->w->to);
}

/* An interval line after its keyword. */
static int do_interval(rd *r, tl_kind k, const char *p)
{
	tl_file *tl = r->tl;
	uint64_t rank, unit, start, end;
	const char *at_rank = skip_ws(p), *at_unit, *at_end;
	if (field_u64(r, &p, &rank, "rank"))
		return -1;
	at_unit = skip_ws(p);
	if (field_u64(r, &p, &unit, tl_kind_on_nic[k] ? "nic" : "cpu"))
		return -1;
	if (field_u64(r, &p, &start, "start time"))
		return -1;
	at_end = skip_ws(p);
	if (field_u64(r, &p, &end, "end time"))
		return -1;
	uint64_t src = 0, op = 0;
	const char *at_src = NULL;
	if (k == TL_ORECV && tl->version >= 2) {
		at_src = skip_ws(p);
		if (field_u64(r, &p, &src, "source rank") ||
		    field_u64(r, &p, &op, "send op"))
			return -1;
	}
	if (tl->old_format)
		for (int i = 0; i < 3; i++)
			if (field_colour(r, &p))
				return -1;
	if (line_end(r, p))
		return -1;
	if (rank >= tl->nranks)
		return rd_error(r, at_rank, "rank %" PRIu64 " out of range (P = %" PRIu64 ")",
		                rank, tl->nranks);
	if (unit > 65535)
		return rd_error(r, at_unit, "unit %" PRIu64 " out of range (at most 65535)", unit);
	if (end < start)
		return rd_error(r, at_end, "end %" PRIu64 " before start %" PRIu64, end, start);
	if (at_src && src >= tl->nranks)
		return rd_error(r, at_src, "rank %" PRIu64 " out of range (P = %" PRIu64 ")",
		                src, tl->nranks);
	uint32_t rows = tl_kind_on_nic[k] ? tl->nnics : tl->ncpus;
	if (!tl->old_format && unit >= rows)
		return rd_error(r, at_unit, "%s %" PRIu64 " out of range (the header says %" PRIu32 ")",
		                tl_kind_on_nic[k] ? "nic" : "cpu", unit, rows);
	if (tl->old_format && unit >= tl->ncpus)
		tl->ncpus = (uint32_t)unit + 1;
	uint32_t *used = tl_kind_on_nic[k] ? &tl->nic_rows : &tl->cpu_rows;
	if (unit >= *used)
		*used = (uint32_t)unit + 1;
	if (end > tl->tmax)
		tl->tmax = end;
	if (k == TL_OSEND) {
		r->have_last_osend = 1;
		r->last_osend_rank = rank;
		r->last_osend_start = start;
		r->last_osend_cpu = (uint16_t)unit;
	}
	uint32_t lane = lane_of(tl, rank);
	if (lane == UINT32_MAX)
		return 0;
	tl_bar b = { start, end, lane, (uint16_t)unit, (uint8_t)k, 0, 0 };
	if (at_src) {
		msg_key key = { src, op };
		uint32_t *mi = util_kmap_get(&r->sent, &key, sizeof key);
		b.has_msg = 1;
		b.msg_src = src;
		if (mi) {
			tl_msg *m = &tl->msgs[*mi];
			if (m->dst != rank)
				return rd_error(r, at_src, "the message of send op %" PRIu64 " of rank %"
				                PRIu64 " goes to rank %" PRIu64 ", not %" PRIu64, op, src,
				                m->dst, rank);
			if (start < m->arrival)
				return rd_error(r, at_src, "the message is handled at %" PRIu64
				                " before it arrives (%" PRIu64 ")", start, m->arrival);
			m->handled = start;
			m->dst_cpu = (uint16_t)unit;
		}
	} else if (k == TL_ORECV) {
		/* Join to the oldest message waiting at this rank. */
		pqueue *q = &r->q[lane];
		if (q->n && q->v[q->head].arrival <= start) {
			pend e = q->v[q->head];
			q->head++;
			q->n--;
			b.has_msg = 1;
			b.msg_src = e.src;
			if (e.msg != SIZE_MAX) {
				tl->msgs[e.msg].handled = start;
				tl->msgs[e.msg].dst_cpu = (uint16_t)unit;
			}
		}
	}
	if (!in_window(r, start, end) || !room(r, start))
		return 0;
	return push_bar(r, &b);
}

static int do_transmission(rd *r, const char *p)
{
	tl_file *tl = r->tl;
	uint64_t src, dst, start, depart = 0, arr, size, G = 0, op = 0, cpu = 0, nic = 0;
	const char *at_src = skip_ws(p), *at_dst, *at_dep = NULL, *at_arr, *at_cpu = NULL,
	           *at_nic = NULL;
	if (field_u64(r, &p, &src, "source rank"))
		return -1;
	at_dst = skip_ws(p);
	if (field_u64(r, &p, &dst, "destination rank"))
		return -1;
	if (field_u64(r, &p, &start, "start time"))
		return -1;
	if (tl->version >= 2) {
		at_dep = skip_ws(p);
		if (field_u64(r, &p, &depart, "departure time"))
			return -1;
	}
	at_arr = skip_ws(p);
	if (field_u64(r, &p, &arr, "arrival time"))
		return -1;
	if (field_u64(r, &p, &size, "size"))
		return -1;
	if (tl->version >= 2) {
		if (field_u64(r, &p, &op, "send op"))
			return -1;
		at_cpu = skip_ws(p);
		if (field_u64(r, &p, &cpu, "cpu"))
			return -1;
		at_nic = skip_ws(p);
		if (field_u64(r, &p, &nic, "nic"))
			return -1;
	}
	if (tl->old_format) {
		if (field_u64(r, &p, &G, "G"))
			return -1;
		for (int i = 0; i < 3; i++)
			if (field_colour(r, &p))
				return -1;
	}
	if (line_end(r, p))
		return -1;
	if (src >= tl->nranks)
		return rd_error(r, at_src, "rank %" PRIu64 " out of range (P = %" PRIu64 ")",
		                src, tl->nranks);
	if (dst >= tl->nranks)
		return rd_error(r, at_dst, "rank %" PRIu64 " out of range (P = %" PRIu64 ")",
		                dst, tl->nranks);
	tl_msg m;
	memset(&m, 0, sizeof m);
	m.src = src;
	m.dst = dst;
	m.size = size;
	m.handled = TL_NONE;
	if (tl->old_format) {
		tl->old_G = G;
		m.send = TL_NONE;
		m.depart = start;
		m.handled = arr;
	} else if (tl->version == 1) {
		/* Version 1 wrote one set of parameters: a message leaves o after
		 * its send starts (no later than it arrives, for a size range
		 * whose o the header does not have). */
		m.send = start;
		m.depart = start > UINT64_MAX - tl->range[0].o ? arr : start + tl->range[0].o;
		if (m.depart > arr)
			m.depart = arr;
	} else {
		if (cpu >= tl->ncpus)
			return rd_error(r, at_cpu, "cpu %" PRIu64 " out of range (the header says %" PRIu32 ")",
			                cpu, tl->ncpus);
		if (nic >= tl->nnics)
			return rd_error(r, at_nic, "nic %" PRIu64 " out of range (the header says %" PRIu32 ")",
			                nic, tl->nnics);
		if (depart < start)
			return rd_error(r, at_dep, "departure %" PRIu64 " before the send starts (%" PRIu64 ")",
			                depart, start);
		m.send = start;
		m.depart = depart;
		m.src_cpu = (uint16_t)cpu;
		if (cpu >= tl->cpu_rows)
			tl->cpu_rows = (uint32_t)cpu + 1;
		if (nic >= tl->nic_rows)
			tl->nic_rows = (uint32_t)nic + 1;
	}
	if (arr < m.depart)
		return rd_error(r, at_arr, "arrival %" PRIu64 " before the message leaves (%" PRIu64 ")",
		                arr, m.depart);
	m.arrival = arr;
	if (arr > tl->tmax)
		tl->tmax = arr;
	m.src_lane = lane_of(tl, src);
	m.dst_lane = lane_of(tl, dst);
	if (tl->version != 2 && r->have_last_osend && r->last_osend_rank == src &&
	    r->last_osend_start == start)
		m.src_cpu = r->last_osend_cpu;
	size_t idx = SIZE_MAX;
	if (m.src_lane != UINT32_MAX && m.dst_lane != UINT32_MAX &&
	    in_window(r, m.depart, arr) && room(r, m.depart)) {
		idx = tl->nmsgs;
		if (push_msg(r, &m))
			return -1;
		if (tl->version >= 2 && idx < UINT32_MAX) {
			msg_key key = { src, op };
			uint32_t *mi = util_kmap_get(&r->sent, &key, sizeof key);
			if (mi)
				*mi = (uint32_t)idx;  /* the send op again: the latest */
			else if (util_kmap_put(&r->sent, &key, sizeof key, (uint32_t)idx))
				return oom(r);
		}
	}
	if (m.dst_lane != UINT32_MAX && tl->version != 2) {
		pend e = { arr, src, size, idx };
		if (pq_push(r, &r->q[m.dst_lane], &e))
			return -1;
	}
	return 0;
}

/* The "KEY VALUE" pairs from p to the end of a header line (header set:
 * P, S, ncpus, nnics and ranges into tl, *haveP and *nranges) or of a range
 * line; L, o, g, G and O into *rg.  Other keys are ignored (later versions
 * may add some). */
static int do_keys(rd *r, const char *p, loggp_range *rg, int header, int *haveP,
                   uint64_t *nranges)
{
	tl_file *tl = r->tl;
	for (;;) {
		p = skip_ws(p);
		if (*p == 0 || *p == '\n' || *p == '\r')
			return 0;
		const char *key = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r')
			p++;
		size_t kl = (size_t)(p - key);
		const char *val = skip_ws(p);
		if (*val == 0 || *val == '\n' || *val == '\r')
			return rd_error(r, val, "missing value of '%.*s'", (int)kl, key);
		const char *e = val;
		while (*e && *e != ' ' && *e != '\t' && *e != '\n' && *e != '\r')
			e++;
#define KEY(s) (kl == sizeof(s) - 1 && memcmp(key, s, kl) == 0)
		int dec = KEY("G") || KEY("O");
		if (!dec && !KEY("L") && !KEY("o") && !KEY("g") &&
		    !(header && (KEY("P") || KEY("S") || KEY("ranges") || KEY("ncpus") ||
		                 KEY("nnics")))) {
			p = e;  /* a key of a later version: its value skipped */
			continue;
		}
		if (dec) {
			num_err ne = num_dec_parse(val, (size_t)(e - val), NUM_FRAC_MAX,
			                           *key == 'G' ? &rg->G : &rg->O);
			if (ne != NUM_OK)
				return rd_error(r, val, "bad value of %c: %s", *key, num_err_str(ne));
			p = e;
			continue;
		}
		uint64_t v;
		p = val;
		if (field_u64(r, &p, &v, "header value"))
			return -1;
		if (KEY("L")) {
			rg->L = v;
		} else if (KEY("o")) {
			rg->o = v;
		} else if (KEY("g")) {
			rg->g = v;
		} else if (KEY("P")) {
			tl->nranks = v;
			*haveP = 1;
		} else if (KEY("S")) {
			tl->S = v;
		} else if (KEY("ranges")) {
			if (v < 1 || v > LOGGP_PARAMS_MAX_RANGES)
				return rd_error(r, val, "ranges must be 1..%d", LOGGP_PARAMS_MAX_RANGES);
			*nranges = v;
		} else if (KEY("ncpus") || KEY("nnics")) {
			if (v < 1 || v > 65536)
				return rd_error(r, val, "%.*s must be 1..65536", (int)kl, key);
			if (KEY("ncpus"))
				tl->ncpus = (uint32_t)v;
			else
				tl->nnics = (uint32_t)v;
		}
#undef KEY
	}
}

/* Version 1: "loggopsim-timeline 1 P N L N o N g N G X O X S N ncpus N
 * nnics N"; version 2: "loggopsim-timeline 2 P N S N ncpus N nnics N
 * ranges K", then K range lines. */
static int do_header(rd *r, const char *p)
{
	tl_file *tl = r->tl;
	uint64_t ver, nranges = 0;
	int haveP = 0;
	const char *at = skip_ws(p);
	if (field_u64(r, &p, &ver, "version"))
		return -1;
	if (ver < 1 || ver > TL_VERSION)
		return rd_error(r, at, "timeline version %" PRIu64 " is not supported (this reads 1 and 2)",
		                ver);
	tl->version = (uint32_t)ver;
	tl->ncpus = tl->nnics = 1;
	if (do_keys(r, p, &tl->range[0], 1, &haveP, &nranges))
		return -1;
	if (!haveP)
		return rd_error(r, p + strcspn(p, "\r\n"), "the header has no P");
	if (ver == 1) {
		tl->nranges = 1;
		tl->range[0].last = LOGGP_SIZE_INF;
	} else if (!nranges) {
		return rd_error(r, p + strcspn(p, "\r\n"), "the header has no ranges");
	} else {
		r->ranges_due = (uint32_t)nranges;
	}
	return make_lanes(r);
}

/* "range FIRST LAST L N o N g N G X O X" (LAST "inf" on the last one). */
static int do_range(rd *r, const char *p)
{
	tl_file *tl = r->tl;
	loggp_range *rg = &tl->range[tl->nranges];
	const char *at = skip_ws(p);
	if (field_u64(r, &p, &rg->first, "first size"))
		return -1;
	uint64_t want = tl->nranges ? tl->range[tl->nranges - 1].last + 1 : 0;
	if (rg->first != want)
		return rd_error(r, at, "range starts at %" PRIu64 ", not %" PRIu64, rg->first, want);
	at = p = skip_ws(p);
	int last = --r->ranges_due == 0;
	if (last) {
		if (strncmp(p, "inf", 3) != 0 || !strchr(" \t\r\n", p[3]))
			return rd_error(r, at, "the last range ends at 'inf'");
		rg->last = LOGGP_SIZE_INF;
		p += 3;
	} else if (field_u64(r, &p, &rg->last, "last size")) {
		return -1;
	} else if (rg->last < rg->first || rg->last == UINT64_MAX) {
		return rd_error(r, at, "bad last size %" PRIu64, rg->last);
	}
	tl->nranges++;
	return do_keys(r, p, rg, 0, NULL, NULL);
}

/* "numranks N;" */
static int do_numranks(rd *r, const char *p)
{
	tl_file *tl = r->tl;
	uint64_t n;
	if (field_u64(r, &p, &n, "number of ranks"))
		return -1;
	if (line_end(r, p))
		return -1;
	tl->nranks = n;
	tl->ncpus = 1;
	tl->nnics = 1;
	return make_lanes(r);
}

/* Start time of an event line (the field after the kind and two numbers),
 * or TL_NONE: used to stop reading after the window. */
static uint64_t line_start(const char *p)
{
	for (int i = 0; i < 2; i++) {
		p = skip_ws(p);
		while (*p >= '0' && *p <= '9')
			p++;
	}
	p = skip_ws(p);
	uint64_t v;
	return num_u64_scan(&p, &v) != NUM_OK ? TL_NONE : v;
}

static int do_line(rd *r, const char *line)
{
	tl_file *tl = r->tl;
	const char *p = skip_ws(line);
	if (*p == 0 || *p == '\n' || (*p == '\r' && (p[1] == 0 || p[1] == '\n')))
		return 0;
	const char *kw = p;
	while (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r' && *p != ';')
		p++;
	size_t kl = (size_t)(p - kw);
#define IS(s) (kl == sizeof(s) - 1 && memcmp(kw, s, kl) == 0)
	if (!r->have_header) {
		int rc;
		if (IS("loggopsim-timeline")) {
			tl->old_format = 0;
			rc = do_header(r, p);
		} else if (IS("numranks")) {
			tl->old_format = 1;
			rc = do_numranks(r, p);
		} else {
			return rd_error(r, kw, "expected the header 'loggopsim-timeline VERSION P ...' "
			                "(or 'numranks N;' of the old format)");
		}
		r->have_header = 1;
		return rc;
	}
	if (r->ranges_due) {
		if (!IS("range"))
			return rd_error(r, kw, "expected %" PRIu32 " more range line%s after the header",
			                r->ranges_due, r->ranges_due > 1 ? "s" : "");
		return do_range(r, p);
	}
	if (!tl->old_format && r->w->to != TL_NONE && !IS("transmission") && !IS("noise")) {
		uint64_t s = line_start(p);
		if (s != TL_NONE && s > r->w->to) {
			tl->stopped_early = 1;
			return 1;
		}
	}
	if (IS("transmission"))
		return do_transmission(r, p);
	for (int k = 0; k < TL_NKINDS; k++)
		if (kl == strlen(tl_kind_word[k]) && memcmp(kw, tl_kind_word[k], kl) == 0) {
			return do_interval(r, (tl_kind)k, p);
		}
	if (IS("numranks") || IS("loggopsim-timeline"))
		return rd_error(r, kw, "a second header line");
#undef IS
	return rd_error(r, kw, "unknown line kind '%.*s'", (int)(kl > 40 ? 40 : kl), kw);
}

/* Draw only the first n lanes: the others are left out (and named) like
 * the ranks past max_lanes, with their bars and messages. */
static void drop_lanes(tl_file *tl, uint32_t n)
{
	size_t k = 0;
	tl->lanes_left_out += tl->nlanes - n;
	tl->first_left_out = tl->lane_rank[n];
	tl->nlanes = n;
	for (size_t i = 0; i < tl->nbars; i++)
		if (tl->bars[i].lane < n)
			tl->bars[k++] = tl->bars[i];
	tl->nbars = k;
	k = 0;
	for (size_t i = 0; i < tl->nmsgs; i++)
		if (tl->msgs[i].src_lane < n && tl->msgs[i].dst_lane < n)
			tl->msgs[k++] = tl->msgs[i];
	tl->nmsgs = k;
}

int tl_read(tl_file *tl, FILE *f, const char *name, const tl_window *w,
            char *err, size_t errlen)
{
	memset(tl, 0, sizeof *tl);
	rd r;
	memset(&r, 0, sizeof r);
	r.tl = tl;
	r.w = w;
	r.name = name;
	r.err = err;
	r.errlen = errlen;
	char *buf = NULL;
	size_t cap = 0;
	ssize_t len;
	int rc = 0;
	while ((len = getline(&buf, &cap, f)) >= 0) {
		r.line++;
		r.lbuf = buf;
		if (memchr(buf, 0, (size_t)len)) {
			rc = rd_error(&r, buf, "NUL byte in the line");
			break;
		}
		int k = do_line(&r, buf);
		if (k < 0) {
			rc = -1;
			break;
		}
		if (k > 0)
			break;
		/* Past the item limit nothing more is kept: the new format is
		 * in time order, so stop reading there. */
		if (tl->items_left_out && !tl->old_format) {
			tl->stopped_early = 1;
			break;
		}
	}
	if (rc == 0 && ferror(f)) {
		snprintf(err, errlen, "%s: error: read error", name);
		rc = -1;
	}
	if (rc == 0 && r.ranges_due) {
		snprintf(err, errlen, "%s:%" PRIu64 ":1: error: expected %" PRIu32
		         " more range line%s after the header", name, r.line + 1, r.ranges_due,
		         r.ranges_due > 1 ? "s" : "");
		rc = -1;
	}
	if (rc == 0 && !r.have_header) {
		snprintf(err, errlen, "%s:1:1: error: empty timeline (no header line)", name);
		rc = -1;
	}
	/* A lane has a row per CPU and NIC; a header that claims thousands
	 * gets the rows its records use (so 73 bytes cannot make a 3 GB
	 * picture). */
	if (tl->ncpus <= TL_MAX_ROWS)
		tl->cpu_rows = tl->ncpus;
	if (tl->nnics <= TL_MAX_ROWS)
		tl->nic_rows = tl->nnics;
	if (!tl->cpu_rows)
		tl->cpu_rows = 1;
	if (!tl->nic_rows)
		tl->nic_rows = 1;
	tl->lines = r.line;
	tl->from = w->from;
	tl->to = w->to != TL_NONE ? w->to : tl->tmax;
	tl->to_auto = w->to == TL_NONE;
	if (tl->items_left_out && tl->first_time_left_out < tl->to && !tl->old_format)
		tl->to = tl->first_time_left_out;
	if (tl->to < tl->from)
		tl->to = tl->from;
	for (uint32_t i = 0; r.q && i < tl->nlanes; i++)
		free(r.q[i].v);
	free(r.q);
	util_kmap_free(&r.sent);
	free(buf);
	/* One record can still ask for 65,536 rows per lane: the lanes
	 * drawn have at most TL_MAX_ALL_ROWS rows in all. */
	uint64_t rows = (uint64_t)tl->cpu_rows + (tl->old_format ? 0 : tl->nic_rows);
	uint64_t fit = TL_MAX_ALL_ROWS / rows ? TL_MAX_ALL_ROWS / rows : 1;
	if (tl->nlanes > fit)
		drop_lanes(tl, (uint32_t)fit);
	return rc;
}

void tl_free(tl_file *tl)
{
	free(tl->lane_rank);
	free(tl->bars);
	free(tl->msgs);
	memset(tl, 0, sizeof *tl);
}
