/* tl_read.c: the one-pass timeline reader (versions 1 to 4 of the
 * loggopsim -V format and the published LogGOPSim format; docs/timeline.md). */
#include "timeline.h"
#include "tl_scan.h"
#include "kmap.h"
#include "util.h"

#include <inttypes.h>
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
	tl_scan s;            /* the lines (tl_scan.h) */
	pqueue *q;            /* per lane (version 1, old format) */
	util_kmap sent;       /* version 2: (src, op) -> index in tl->msgs */
	uint64_t last_osend_rank, last_osend_start;
	uint16_t last_osend_cpu;
	int have_last_osend;
} rd;

/* The key of send op `op` of rank src in rd.sent. */
typedef struct msg_key {
	uint64_t src, op;
} msg_key;

static int oom(rd *r)
{
	snprintf(r->s.err, r->s.errlen, "%s: error: out of memory", r->s.name);
	return -1;
}

/* The header's facts into tl. */
static void take_head(tl_file *tl, const tl_head *h)
{
	tl->old_format = h->old_format;
	tl->version = h->version;
	tl->nranks = h->nranks;
	tl->ncpus = h->ncpus;
	tl->nnics = h->nnics;
	tl->S = h->S;
	tl->nranges = h->nranges;
	memcpy(tl->range, h->range, sizeof tl->range);
	tl->old_G = h->old_G;
}

/* The first index of v[0 .. n - 1] (increasing) whose value is at least
 * x, or n. */
static uint32_t lower_bound(const uint64_t *v, uint32_t n, uint64_t x)
{
	uint32_t lo = 0, hi = n;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (v[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The index of x in v[0 .. n - 1] (increasing), or UINT32_MAX. */
static uint32_t index_of(const uint64_t *v, uint32_t n, uint64_t x)
{
	uint32_t i = lower_bound(v, n, x);
	return i < n && v[i] == x ? i : UINT32_MAX;
}

uint32_t tl_lane_of(const tl_file *tl, uint64_t rank)
{
	return index_of(tl->lane_rank, tl->nlanes, rank);
}

/* Choose the lanes once P is known. */
static int make_lanes(rd *r)
{
	tl_file *tl = r->tl;
	const tl_window *w = r->w;
	uint64_t max = w->max_lanes ? w->max_lanes : 1;
	size_t cap = (size_t)(tl->nranks < max ? tl->nranks : max);
	tl->lane_rank = malloc((cap ? cap : 1) * sizeof *tl->lane_rank);
	if (tl->version < 2)  /* version 2 names each orecv's message */
		r->q = calloc(cap ? cap : 1, sizeof *r->q);
	if (!tl->lane_rank || (tl->version < 2 && !r->q))
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

/* An interval record. */
static int do_interval(rd *r, const tl_rec *x)
{
	tl_file *tl = r->tl;
	tl_kind k = x->kind;
	uint64_t rank = x->rank, unit = x->unit, start = x->start, end = x->end;
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
	uint32_t lane = tl_lane_of(tl, rank);
	if (lane == UINT32_MAX)
		return 0;
	tl_bar b = { start, end, lane, (uint16_t)unit, (uint8_t)k, 0, 0 };
	if (x->has_msg) {
		msg_key key = { x->src, x->op };
		uint32_t *mi = util_kmap_get(&r->sent, &key, sizeof key);
		b.has_msg = 1;
		b.msg_src = x->src;
		if (mi) {
			tl_msg *m = &tl->msgs[*mi];
			if (m->dst != rank)
				return tl_scan_error(&r->s, x->at_src, "the message of send op %" PRIu64
				                     " of rank %" PRIu64 " goes to rank %" PRIu64 ", not %"
				                     PRIu64, x->op, x->src, m->dst, rank);
			if (start < m->arrival)
				return tl_scan_error(&r->s, x->at_src, "the message is handled at %" PRIu64
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

/* A transmission record. */
static int do_transmission(rd *r, const tl_rec *x)
{
	tl_file *tl = r->tl;
	tl_msg m;
	memset(&m, 0, sizeof m);
	m.src = x->src;
	m.dst = x->dst;
	m.size = x->size;
	m.handled = TL_NONE;
	m.send = tl->old_format ? TL_NONE : x->start;
	m.depart = x->depart;
	if (tl->old_format) {
		m.handled = x->arrival;   /* the old format's END: received */
	} else if (tl->version >= 2) {
		m.src_cpu = (uint16_t)x->cpu;
		if (x->cpu >= tl->cpu_rows)
			tl->cpu_rows = (uint32_t)x->cpu + 1;
		if (x->nic >= tl->nic_rows)
			tl->nic_rows = (uint32_t)x->nic + 1;
	}
	m.arrival = x->arrival;
	if (m.arrival > tl->tmax)
		tl->tmax = m.arrival;
	m.src_lane = tl_lane_of(tl, x->src);
	m.dst_lane = tl_lane_of(tl, x->dst);
	if (tl->version < 2 && r->have_last_osend && r->last_osend_rank == x->src &&
	    r->last_osend_start == x->start)
		m.src_cpu = r->last_osend_cpu;
	size_t idx = SIZE_MAX;
	if (m.src_lane != UINT32_MAX && m.dst_lane != UINT32_MAX &&
	    in_window(r, m.depart, m.arrival) && room(r, m.depart)) {
		idx = tl->nmsgs;
		if (push_msg(r, &m))
			return -1;
		if (tl->version >= 2 && idx < UINT32_MAX) {
			msg_key key = { x->src, x->op };
			uint32_t *mi = util_kmap_get(&r->sent, &key, sizeof key);
			if (mi)
				*mi = (uint32_t)idx;  /* the send op again: the latest */
			else if (util_kmap_put(&r->sent, &key, sizeof key, (uint32_t)idx))
				return oom(r);
		}
	}
	if (m.dst_lane != UINT32_MAX && tl->version < 2) {
		pend e = { m.arrival, x->src, x->size, idx };
		if (pq_push(r, &r->q[m.dst_lane], &e))
			return -1;
	}
	return 0;
}

/* A link's load, kept when in the window, up to max_items of them (the
 * rows are chosen at the end: choose_links). */
static int do_load(rd *r, const tl_rec *x)
{
	tl_file *tl = r->tl;
	if (x->end > tl->tmax)
		tl->tmax = x->end;
	if (!in_window(r, x->start, x->end))
		return 0;
	if (tl->nloads >= r->w->max_items) {
		tl->loads_left_out++;
		return 0;
	}
	if (util_grow(&tl->loads, &tl->cap_loads, tl->nloads + 1, sizeof *tl->loads))
		return oom(r);
	tl_load d = { x->start, x->end, x->size, (uint32_t)x->unit,
	              x->flows < UINT32_MAX ? (uint32_t)x->flows : UINT32_MAX };
	tl->loads[tl->nloads++] = d;
	return 0;
}

typedef struct link_sum {
	uint64_t bytes;
	uint64_t link;
} link_sum;

static int by_link(const void *a, const void *b)
{
	const link_sum *x = a, *y = b;
	return (x->link > y->link) - (x->link < y->link);
}

static int by_bytes(const void *a, const void *b)
{
	const link_sum *x = a, *y = b;
	if (x->bytes != y->bytes)
		return x->bytes < y->bytes ? 1 : -1;
	return by_link(a, b);
}

static int by_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* The rows of links: the TL_MAX_LINK_ROWS with the most bytes in the
 * window; the loads of the others are dropped.  0, or -1 (no memory). */
static int choose_links(rd *r)
{
	tl_file *tl = r->tl;
	if (!tl->nloads)
		return 0;
	link_sum *sum = malloc(tl->nloads * sizeof *sum);
	if (!sum || !(tl->link_row = malloc(TL_MAX_LINK_ROWS * sizeof *tl->link_row))) {
		free(sum);
		return oom(r);
	}
	for (size_t i = 0; i < tl->nloads; i++)
		sum[i] = (link_sum){ tl->loads[i].bytes, tl->loads[i].link };
	qsort(sum, tl->nloads, sizeof *sum, by_link);
	size_t n = 0;   /* one entry per link, its bytes added up (saturating) */
	for (size_t i = 0; i < tl->nloads; i++) {
		if (n && sum[n - 1].link == sum[i].link) {
			uint64_t b = sum[i].bytes, *t = &sum[n - 1].bytes;
			*t = b > UINT64_MAX - *t ? UINT64_MAX : *t + b;
		} else {
			sum[n++] = sum[i];
		}
	}
	qsort(sum, n, sizeof *sum, by_bytes);
	size_t keep = n < TL_MAX_LINK_ROWS ? n : TL_MAX_LINK_ROWS;
	for (size_t i = 0; i < keep; i++)
		tl->link_row[i] = sum[i].link;
	qsort(tl->link_row, keep, sizeof *tl->link_row, by_u64);
	tl->nlink_rows = (uint32_t)keep;
	tl->links_left_out = n - keep;
	free(sum);
	size_t k = 0;
	for (size_t i = 0; i < tl->nloads; i++) {
		if (tl_link_row(tl, tl->loads[i].link) == UINT32_MAX)
			continue;
		if (tl->loads[i].flows > tl->max_flows)
			tl->max_flows = tl->loads[i].flows;
		tl->loads[k++] = tl->loads[i];
	}
	tl->nloads = k;
	return 0;
}

uint32_t tl_link_row(const tl_file *tl, uint32_t link)
{
	return index_of(tl->link_row, tl->nlink_rows, link);
}

/* A job line: its ranks' lanes get its index. */
static int do_job(rd *r, const tl_rec *x)
{
	tl_file *tl = r->tl;
	if (!tl->lane_job) {
		size_t n = tl->nlanes ? tl->nlanes : 1;
		if (!(tl->lane_job = malloc(n * sizeof *tl->lane_job)))
			return oom(r);
		memset(tl->lane_job, 0xff, n * sizeof *tl->lane_job);
	}
	const char *p = x->at_src;
	uint64_t a, b;
	while (tl_scan_job_run(&p, &a, &b))
		for (uint32_t i = lower_bound(tl->lane_rank, tl->nlanes, a);
		     i < tl->nlanes && tl->lane_rank[i] <= b; i++)
			tl->lane_job[i] = (uint32_t)x->unit;
	return 0;
}

/* One line: 0 go on, 1 stop reading (after the window), -1 error. */
static int do_line(rd *r, const char *line, size_t len)
{
	tl_rec x;
	switch (tl_scan_line(&r->s, line, len, &x)) {
	case TL_LINE_NONE:
		return 0;
	case TL_LINE_LINK:
		return do_load(r, &x);
	case TL_LINE_JOB:
		return do_job(r, &x);
	case TL_LINE_HEADER:
		take_head(r->tl, &r->s.h);
		return make_lanes(r);
	case TL_LINE_INTERVAL:
		return do_interval(r, &x);
	case TL_LINE_TRANSMISSION:
		return do_transmission(r, &x);
	case TL_LINE_STOP:
		r->tl->stopped_early = 1;
		return 1;
	default:
		return -1;
	}
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
	tl_scan_init(&r.s, name, err, errlen);
	r.s.stop_after = w->to;
	char *buf = NULL;
	size_t cap = 0;
	ssize_t len;
	int rc = 0;
	while ((len = getline(&buf, &cap, f)) >= 0) {
		int k = do_line(&r, buf, (size_t)len);
		if (k < 0) {
			rc = -1;
			break;
		}
		/* Past the window or the item limit nothing more is kept: the
		 * new format is in time order, so stop reading there, but for
		 * the link lines of version 2 (written when a load ends). */
		if (k > 0 || (tl->items_left_out && !tl->old_format)) {
			tl->stopped_early = 1;
			r.s.links_only = tl->version >= 2;
			if (!r.s.links_only)
				break;
		}
	}
	if (rc == 0 && ferror(f)) {
		snprintf(err, errlen, "%s: error: read error", name);
		rc = -1;
	}
	if (rc == 0 && tl_scan_end(&r.s))
		rc = -1;
	if (rc == 0 && choose_links(&r))
		rc = -1;
	if (r.s.have_header)
		take_head(tl, &r.s.h);  /* the old format's CPUs and G as read */
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
	tl->lines = r.s.line;
	tl->njobs = r.s.njobs;   /* the scanner's job names, now tl's */
	tl->job_names = r.s.job_names;
	tl->job_off = r.s.job_off;
	r.s.job_names = NULL;
	r.s.job_off = NULL;
	tl_scan_free(&r.s);
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
	free(tl->loads);
	free(tl->link_row);
	free(tl->job_names);
	free(tl->job_off);
	free(tl->lane_job);
	memset(tl, 0, sizeof *tl);
}
