/* viz_render.c: lays out a timeline once (lanes, rows, axis, legend) and
 * draws it through a small canvas with two back ends: SVG and dot. */
#include "viz_render.h"
#include "svg.h"
#include "util.h"

#include <inttypes.h>
#include <string.h>

/* ---- Canvas ------------------------------------------------------------- */

typedef struct cv {
	FILE *f;
	int dot;          /* 0: SVG, 1: dot */
	double height;    /* dot: y is flipped (Graphviz y grows upwards) */
	unsigned long id; /* dot: next node id */
} cv;

/* Write s escaped for XML (SVG) or for a dot "string". */
static void put_esc(cv *c, const char *s)
{
	if (!c->dot) {
		util_xml_put(c->f, s);
		return;
	}
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', c->f);
		if (*s == '\n') {
			fputs("\\n", c->f);
			continue;
		}
		fputc(*s, c->f);
	}
}

static double ydot(const cv *c, double y)
{
	return c->height - y;
}

/* A filled box, or with fill NULL the outline of one (stroke, 2 wide).
 * cls/data: SVG class and extra attributes (may be NULL); tip: the tooltip
 * (may be NULL). */
static void cv_rect(cv *c, double x, double y, double w, double h, const char *fill,
                    const char *stroke, const char *cls, const char *data, const char *tip)
{
	if (c->dot && !fill) {
		fprintf(c->f, "  n%lu [shape=box, pos=\"%.2f,%.2f!\", width=%.4f, height=%.4f, "
		        "fixedsize=true, label=\"\", color=\"%s\", penwidth=2", c->id++, x + w / 2,
		        ydot(c, y + h / 2), w / 72, h / 72, stroke);
		fputs(", tooltip=\"", c->f);
		put_esc(c, tip ? tip : " ");
		fputs("\"];\n", c->f);
		return;
	}
	if (c->dot) {
		fprintf(c->f, "  n%lu [shape=box, pos=\"%.2f,%.2f!\", width=%.4f, height=%.4f, "
		        "fixedsize=true, label=\"\", style=filled, fillcolor=\"%s\", color=\"%s\", "
		        "penwidth=%s", c->id++, x + w / 2, ydot(c, y + h / 2), w / 72, h / 72, fill,
		        stroke ? stroke : fill, stroke ? "0.5" : "0");
		if (cls) {
			fputs(", class=\"", c->f);
			put_esc(c, cls);
			fputc('"', c->f);
		}
		fputs(", tooltip=\"", c->f);
		put_esc(c, tip ? tip : " ");
		fputs("\"];\n", c->f);
		return;
	}
	fputs("<rect", c->f);
	if (cls)
		fprintf(c->f, " class=\"%s\"", cls);
	if (data)
		fprintf(c->f, " %s", data);
	fprintf(c->f, " x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\"",
	        x, y, w, h, fill ? fill : "none");
	if (stroke)
		fprintf(c->f, " stroke=\"%s\" stroke-width=\"%s\"", stroke, fill ? "0.5" : "2");
	if (tip) {
		fputs("><title>", c->f);
		put_esc(c, tip);
		fputs("</title></rect>\n", c->f);
	} else {
		fputs("/>\n", c->f);
	}
}

enum { LINE_SOLID, LINE_DASHED, LINE_DOTTED };
enum { ARROW_NONE, ARROW_MSG, ARROW_PATH };  /* arrowheads: none, grey, the path's */

#define PATH_COLOUR "#d62728"  /* the critical path's marks */

/* A straight line, with an arrowhead at its end when arrow is set. */
static void cv_line(cv *c, double x1, double y1, double x2, double y2, const char *colour,
                    double width, int style, int arrow, const char *tip)
{
	if (c->dot) {
		unsigned long a = c->id++, b = c->id++;
		fprintf(c->f, "  n%lu [shape=point, style=invis, width=0.01, height=0.01, "
		        "pos=\"%.2f,%.2f!\"];\n", a, x1, ydot(c, y1));
		fprintf(c->f, "  n%lu [shape=point, style=invis, width=0.01, height=0.01, "
		        "pos=\"%.2f,%.2f!\"];\n", b, x2, ydot(c, y2));
		fprintf(c->f, "  n%lu -> n%lu [color=\"%s\", penwidth=%.2f, arrowhead=%s, "
		        "arrowsize=0.5%s", a, b, colour, width, arrow ? "normal" : "none",
		        style == LINE_DASHED ? ", style=dashed" : style == LINE_DOTTED ?
		        ", style=dotted" : "");
		if (tip) {
			fputs(", tooltip=\"", c->f);
			put_esc(c, tip);
			fputc('"', c->f);
		}
		fputs("];\n", c->f);
		return;
	}
	fprintf(c->f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\" "
	        "stroke-width=\"%.2f\"", x1, y1, x2, y2, colour, width);
	if (style == LINE_DASHED)
		fputs(" stroke-dasharray=\"4,3\"", c->f);
	else if (style == LINE_DOTTED)
		fputs(" stroke-dasharray=\"1.5,2\"", c->f);
	if (arrow)
		fputs(arrow == ARROW_PATH ? " marker-end=\"url(#arrowc)\"" : " marker-end=\"url(#arrow)\"",
		      c->f);
	fputs("/>\n", c->f);
}

/* Estimated width of text of n bytes at font size sz (Helvetica-like). */
static double text_w(const char *s, double sz)
{
	size_t n = 0;
	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;  /* count UTF-8 characters */
	return (double)n * sz * 0.56;
}

/* The label of lane i: "rank R", or "rank R (JOB)" in a run of jobs. */
static void lane_label(const tl_file *tl, uint32_t i, char *buf, size_t n)
{
	uint32_t j = tl->lane_job ? tl->lane_job[i] : UINT32_MAX;
	if (j != UINT32_MAX)
		snprintf(buf, n, "rank %" PRIu64 " (%.64s)", tl->lane_rank[i], tl->job_names + tl->job_off[j]);
	else
		snprintf(buf, n, "rank %" PRIu64, tl->lane_rank[i]);
}

/* Text with its baseline at y; anchor -1 start, 0 middle, 1 end. */
static void cv_text(cv *c, double x, double y, int anchor, double sz, int bold,
                    const char *colour, const char *s)
{
	if (c->dot) {
		double w = text_w(s, sz) * (bold ? 1.25 : 1.1);
		double cx = anchor < 0 ? x + w / 2 : anchor > 0 ? x - w / 2 : x;
		fprintf(c->f, "  n%lu [shape=plaintext, margin=0, width=0, height=0, "
		        "fontsize=%.1f, fontname=\"%s\", fontcolor=\"%s\", pos=\"%.2f,%.2f!\", "
		        "label=\"", c->id++, sz, bold ? "Helvetica-Bold" : "Helvetica", colour,
		        cx, ydot(c, y - sz * 0.35));
		put_esc(c, s);
		fputs("\"];\n", c->f);
		return;
	}
	util_svg_text(c->f, s, "x=\"%.2f\" y=\"%.2f\" font-size=\"%.1f\"%s%s fill=\"%s\"", x, y,
	              sz, anchor < 0 ? "" : anchor > 0 ? " text-anchor=\"end\"" :
	              " text-anchor=\"middle\"", bold ? " font-weight=\"bold\"" : "", colour);
}

/* ---- Layout ------------------------------------------------------------- */

enum {
	CPU_H = 14, CPU_GAP = 2, NIC_H = 5, NIC_GAP = 2, LANE_PAD = 6,
	LINK_H = 8, LINK_GAP = 2, LINKS_PAD = 8,
	TOP = 58, RIGHT = 24
};

#define LINK_COLOUR "#8c564b"   /* a link's load at its most flows */

typedef struct lay {
	const tl_file *tl;
	const viz_render_opts *o;
	double lm, w;          /* left margin, axis width */
	uint64_t from, range;  /* range >= 1 */
	double lane_h;
	double links_top;      /* the rows of links (below the lanes) */
	uint32_t nic_rows;     /* NICs drawn per lane (0 for the old format) */
	double axis_y, height, total_w;
	double top;            /* the first lane's top */
	int top_axis;          /* a tall picture: the time axis above the lanes too */
	int thin;              /* many messages: thinner, lighter arrows */
	int sublabels;         /* cpu/nic row labels */
} lay;

/* Lanes from which the time axis is drawn above them too, and messages
 * from which their arrows are thin. */
enum { TOP_AXIS_LANES = 16, THIN_MSGS = 256 };

static double xt(const lay *l, uint64_t t)
{
	if (t < l->from)
		t = l->from;
	if (t > l->from + l->range)
		t = l->from + l->range;
	return l->lm + (double)(t - l->from) * l->w / (double)l->range;
}

static double xt_f(const lay *l, double t)
{
	return l->lm + (t - (double)l->from) * l->w / (double)l->range;
}

static double lane_top(const lay *l, uint32_t lane)
{
	return l->top + l->lane_h * lane;
}

/* Row of a bar: y of its top and its height. */
static void row_of(const lay *l, uint32_t lane, int nic, int send, uint32_t unit,
                   double *y, double *h)
{
	double t = lane_top(l, lane) + LANE_PAD;
	if (!nic) {
		*y = t + unit * (CPU_H + CPU_GAP);
		*h = CPU_H;
		return;
	}
	t += l->tl->cpu_rows * (CPU_H + CPU_GAP);
	*y = t + unit * (2 * NIC_H + NIC_GAP) + (send ? 0 : NIC_H);
	*h = NIC_H;
}

/* Nice tick step in ns (at least 1): about range/n. */
static uint64_t tick_step(uint64_t range, uint64_t n)
{
	double s = util_nice_step((double)range, (double)(n ? n : 1));
	return s < 1 ? 1 : s >= 1e19 ? UINT64_C(10000000000000000000) : (uint64_t)s;
}

/* A time for a tick label, in the unit of step. */
static void fmt_tick(char *buf, size_t n, uint64_t t, uint64_t step)
{
	if (step >= 1000000000u && step % 1000000000u == 0)
		snprintf(buf, n, "%" PRIu64 " s", t / 1000000000u);
	else if (step >= 1000000u && step % 1000000u == 0)
		snprintf(buf, n, "%" PRIu64 " ms", t / 1000000u);
	else if (step >= 1000u && step % 1000u == 0)
		snprintf(buf, n, "%" PRIu64 " \xc2\xb5s", t / 1000u);
	else
		snprintf(buf, n, "%" PRIu64 " ns", t);
}

/* A rank list like "0-255" of lanes a..b. */
static void lane_span(const tl_file *tl, char *buf, size_t n)
{
	if (!tl->nlanes) {
		snprintf(buf, n, "none");
		return;
	}
	size_t used = 0;
	uint32_t i = 0;
	buf[0] = 0;
	while (i < tl->nlanes && used + 48 < n) {
		uint32_t j = i;
		while (j + 1 < tl->nlanes && tl->lane_rank[j + 1] == tl->lane_rank[j] + 1)
			j++;
		int k = j > i ? snprintf(buf + used, n - used, "%s%" PRIu64 "-%" PRIu64, used ? "," : "",
		                         tl->lane_rank[i], tl->lane_rank[j])
		              : snprintf(buf + used, n - used, "%s%" PRIu64, used ? "," : "",
		                         tl->lane_rank[i]);
		if (k < 0)
			break;
		used += (size_t)k;
		i = j + 1;
	}
	if (i < tl->nlanes && used + 4 < n)
		snprintf(buf + used, n - used, ",...");
}

void viz_render_notes(const tl_file *tl, char *buf, size_t n)
{
	size_t used = 0;
	buf[0] = 0;
	if (tl->lanes_left_out && n > used) {
		uint64_t a = tl->first_left_out, b = a + tl->nlanes - 1;
		if (b >= tl->nranks)
			b = tl->nranks - 1;
		int k = snprintf(buf + used, n - used,
		                 "left out %" PRIu64 " rank%s from rank %" PRIu64 " on (at most %" PRIu32
		                 " lanes are drawn); choose them with e.g. --ranks %" PRIu64 "-%" PRIu64 "\n",
		                 tl->lanes_left_out, tl->lanes_left_out == 1 ? "" : "s", a,
		                 tl->nlanes, a, b);
		if (k > 0)
			used += (size_t)k;
	}
	if (tl->links_left_out && n > used) {
		int k = snprintf(buf + used, n - used,
		                 "left out %" PRIu64 " link%s (the %" PRIu32 " that moved the most bytes "
		                 "in the window are drawn)\n", tl->links_left_out,
		                 tl->links_left_out == 1 ? "" : "s", tl->nlink_rows);
		if (k > 0)
			used += (size_t)k;
	}
	if (tl->loads_left_out && n > used) {
		int k = snprintf(buf + used, n - used,
		                 "left out %" PRIu64 " link load%s past the item limit\n",
		                 tl->loads_left_out, tl->loads_left_out == 1 ? "" : "s");
		if (k > 0)
			used += (size_t)k;
	}
	if (tl->items_left_out && n > used) {
		int k = snprintf(buf + used, n - used,
		                 "left out %s%" PRIu64 " bars and messages from time %" PRIu64
		                 " ns on (item limit); see them with e.g. --from %" PRIu64 "\n",
		                 tl->stopped_early ? "at least " : "", tl->items_left_out,
		                 tl->first_time_left_out, tl->first_time_left_out);
		if (k > 0)
			used += (size_t)k;
	}
}

/* "L=.. o=.. g=.. G=.. O=.." of range r at buf; returns the length. */
static int range_text(const loggp_range *r, char *buf, size_t n)
{
	char G[NUM_DEC_TEXT] = "?", O[NUM_DEC_TEXT] = "?";
	if (r->G.den)
		num_dec_format(r->G, G, sizeof G);
	if (r->O.den)
		num_dec_format(r->O, O, sizeof O);
	return snprintf(buf, n, "L=%" PRIu64 " o=%" PRIu64 " g=%" PRIu64 " G=%s O=%s", r->L,
	                r->o, r->g, G, O);
}

#define TITLE_RANGES 3  /* size ranges named in the title; the rest counted */

static void title_text(const tl_file *tl, char *buf, size_t n)
{
	if (tl->old_format && tl->old_G) {
		snprintf(buf, n, "LogGOPSim timeline (old format): P=%" PRIu64 " G=%" PRIu64,
		         tl->nranks, tl->old_G);
		return;
	}
	if (tl->old_format) {
		snprintf(buf, n, "LogGOPSim timeline (old format): P=%" PRIu64, tl->nranks);
		return;
	}
	size_t k = (size_t)snprintf(buf, n, "LogGOPS timeline: P=%" PRIu64, tl->nranks);
	if (tl->nranges == 1) {
		k += (size_t)snprintf(buf + k, n - k, " ");
		k += (size_t)range_text(&tl->range[0], buf + k, n - k);
		k += (size_t)snprintf(buf + k, n - k, " S=%" PRIu64, tl->S);
	} else {
		k += (size_t)snprintf(buf + k, n - k, " S=%" PRIu64 ", %" PRIu32 " size ranges:",
		                      tl->S, tl->nranges);
		for (uint32_t i = 0; i < tl->nranges && i < TITLE_RANGES && k < n; i++) {
			const loggp_range *r = &tl->range[i];
			k += (size_t)snprintf(buf + k, n - k, "%s %" PRIu64 "..", i ? ";" : "", r->first);
			if (k < n && r->last == LOGGP_SIZE_INF)
				k += (size_t)snprintf(buf + k, n - k, "inf ");
			else if (k < n)
				k += (size_t)snprintf(buf + k, n - k, "%" PRIu64 " ", r->last);
			if (k < n)
				k += (size_t)range_text(r, buf + k, n - k);
		}
		if (k < n && tl->nranges > TITLE_RANGES)
			k += (size_t)snprintf(buf + k, n - k, "; %" PRIu32 " more",
			                      tl->nranges - TITLE_RANGES);
	}
	if (k < n && (tl->ncpus > 1 || tl->nnics > 1))
		snprintf(buf + k, n - k, " (%" PRIu32 " CPUs, %" PRIu32 " NICs per rank)",
		         tl->ncpus, tl->nnics);
}

static void make_layout(lay *l, const tl_file *tl, const viz_render_opts *o)
{
	memset(l, 0, sizeof *l);
	l->tl = tl;
	l->o = o;
	l->w = o && o->width > 0 ? o->width : 1000;
	l->from = tl->from;
	l->range = tl->to > tl->from ? tl->to - tl->from : 1;
	if (tl->to_auto && l->range / 50 <= UINT64_MAX - tl->to)  /* room after the last event */
		l->range += l->range / 50;
	l->nic_rows = tl->old_format ? 0 : tl->nic_rows;
	l->sublabels = tl->cpu_rows > 1 || l->nic_rows > 1;
	char b[128];
	double lw = 0;
	if (!tl->nlanes)
		lw = text_w("rank 0", 11);
	for (uint32_t i = 0; i < tl->nlanes; i++) {
		lane_label(tl, i, b, sizeof b);
		lw = text_w(b, 11) > lw ? text_w(b, 11) : lw;
	}
	l->lm = 20 + lw * 1.1 + (l->sublabels ? 34 : 0);
	if (tl->nlink_rows) {
		snprintf(b, sizeof b, "link %" PRIu64, tl->link_row[tl->nlink_rows - 1]);
		if (l->lm < 20 + text_w(b, 9) * 1.1)
			l->lm = 20 + text_w(b, 9) * 1.1;
	}
	l->lane_h = 2 * LANE_PAD + tl->cpu_rows * (CPU_H + CPU_GAP) +
	            l->nic_rows * (2 * NIC_H + NIC_GAP);
	l->top_axis = tl->nlanes > TOP_AXIS_LANES;
	l->top = TOP + (l->top_axis ? 24 : 0);
	l->thin = tl->nmsgs > THIN_MSGS;
	l->links_top = l->top + l->lane_h * tl->nlanes;
	l->axis_y = l->links_top + 2 +
	            (tl->nlink_rows ? 2 * LINKS_PAD + tl->nlink_rows * (LINK_H + LINK_GAP) : 0);
	l->total_w = l->lm + l->w + RIGHT;
}

/* Legend entries, wrapped to the width: returns the height used. */
static double legend(cv *c, const lay *l, double y, int draw)
{
	const tl_file *tl = l->tl;
	int present[TL_NKINDS + 4] = { 0 };
	for (size_t i = 0; i < tl->nbars; i++)
		present[tl->bars[i].kind] = 1;
	for (size_t i = 0; i < tl->nmsgs; i++) {
		present[TL_NKINDS] = 1;
		if (tl->msgs[i].handled != TL_NONE && tl->msgs[i].handled > tl->msgs[i].arrival)
			present[TL_NKINDS + 1] = 1;
	}
	present[TL_NKINDS + 2] = l->o && l->o->npath;
	present[TL_NKINDS + 3] = tl->nloads > 0;
	double x = l->lm, x_end = l->lm + l->w, y0 = y;
	char load_text[80];
	snprintf(load_text, sizeof load_text, "link load (darker: more flows, at most %" PRIu32 ")",
	         tl->max_flows);
	for (int k = 0; k < TL_NKINDS + 4; k++) {
		const char *text;
		if (!present[k])
			continue;
		if (k < TL_NKINDS) {
			if (tl_kind_on_nic[k] && !l->nic_rows)
				continue;
			text = tl_kind_legend[k];
		} else if (k == TL_NKINDS + 2) {
			text = "critical path (outlined bars, red arrows)";
		} else if (k == TL_NKINDS + 3) {
			text = load_text;
		} else {
			text = k == TL_NKINDS + 1 ? "message waits for the CPU" : tl->old_format ?
			       "message (leaves to received)" : "message (send + o to arrival)";
			if (k == TL_NKINDS + 1 && tl->old_format)
				continue;
		}
		double w = 20 + text_w(text, 10) + 16;
		if (x + w > x_end && x > l->lm) {
			x = l->lm;
			y += 16;
		}
		if (draw) {
			if (k < TL_NKINDS)
				cv_rect(c, x, y - 9, 14, tl_kind_on_nic[k] ? 5 : 10, tl_kind_colour[k],
				        NULL, NULL, NULL, NULL);
			else if (k == TL_NKINDS + 2)
				cv_rect(c, x + 1, y - 9, 12, 10, NULL, PATH_COLOUR, NULL, NULL, NULL);
			else if (k == TL_NKINDS + 3)
				cv_rect(c, x, y - 8, 14, LINK_H, LINK_COLOUR, NULL, NULL, NULL, NULL);
			else
				cv_line(c, x, y - 4, x + 14, y - 4, "#333333", 1,
				        k == TL_NKINDS ? LINE_SOLID : LINE_DOTTED,
				        k == TL_NKINDS ? ARROW_MSG : ARROW_NONE, NULL);
			cv_text(c, x + 20, y, -1, 10, 0, "#222222", text);
		}
		x += w;
	}
	return y - y0 + 16;
}

/* Clip the segment (t1, y1)-(t2, y2) in time to the window; 0 if nothing
 * is left. */
static int clip(const lay *l, double *t1, double *y1, double *t2, double *y2)
{
	double lo = (double)l->from, hi = (double)(l->from + l->range);
	if (*t2 < lo || *t1 > hi)
		return 0;
	double dt = *t2 - *t1;
	if (*t1 < lo && dt > 0) {
		*y1 += (*y2 - *y1) * (lo - *t1) / dt;
		*t1 = lo;
	}
	if (*t2 > hi && dt > 0) {
		*y2 = *y1 + (*y2 - *y1) * (hi - *t1) / (*t2 - *t1);
		*t2 = hi;
	}
	return 1;
}


/* The critical path (viz_render_opts.path): an outline around the bar of
 * each CPU and NIC link, a red arrow for each message in flight, each in
 * <g class="critical" data-...> with a tooltip; links outside the window
 * or on ranks not drawn are left out. */
static void draw_path(cv *c, const lay *l)
{
	const tl_file *tl = l->tl;
	const viz_render_opts *o = l->o;
	char tip[768], data[256];
	for (size_t i = 0; o && i < o->npath; i++) {
		const tl_link *k = &o->path[i];
		if (k->end_ns < l->from || k->start_ns > l->from + l->range)
			continue;
		int place = tl_link_place[k->kind];
		uint32_t lane = tl_lane_of(tl, k->rank), peer = UINT32_MAX;
		if (lane == UINT32_MAX)
			continue;
		if (place == 0 && k->unit >= tl->cpu_rows)
			continue;
		if (place == 1 && k->unit >= l->nic_rows)
			continue;
		if (place == 2 && (peer = tl_lane_of(tl, k->peer)) == UINT32_MAX)
			continue;
		int n = snprintf(tip, sizeof tip, "critical path, step %" PRIu64 ": %s\nrank %" PRIu64
		                 " %s %" PRIu32 ": %" PRIu64 " .. %" PRIu64 " ns (%" PRIu64 " ns)",
		                 k->step, tl_link_what[k->kind], k->rank, place == 0 ? "cpu" : "nic",
		                 k->unit, k->start_ns, k->end_ns, k->end_ns - k->start_ns);
#define ADD(...) do { if (n > 0 && (size_t)n < sizeof tip) \
		n += snprintf(tip + n, sizeof tip - (size_t)n, __VA_ARGS__); } while (0)
		if (k->kind == TL_LINK_CALC)
			ADD(", op %" PRIu64, k->op);
		else if (k->kind == TL_LINK_SEND || k->kind == TL_LINK_SNIC || k->kind == TL_LINK_WIRE)
			ADD("\nmessage to rank %" PRIu64 ", send op %" PRIu64, k->peer, k->op);
		else
			ADD("\nmessage from rank %" PRIu64 ", send op %" PRIu64, k->peer, k->op);
		ADD("\nstarted by: %s", (unsigned)k->via < TL_NVIAS ? tl_via_word[k->via] : "?");
		ADD("\ncost: %" PRIu64 " L + %" PRIu64 " o + %" PRIu64 " g + %" PRIu64 " bytes G + %"
		    PRIu64 " bytes O + %" PRIu64 " ns calc", k->L, k->o, k->g, k->G_bytes, k->O_bytes,
		    k->calc_ns);
		if (k->kind != TL_LINK_CALC)
			ADD(" (size range %" PRIu64 ")", k->range);
		if (k->noise_ns)
			ADD(" + %" PRId64 " ns noise", k->noise_ns);
		if (k->label && *k->label)
			ADD("\n%s", k->label);
#undef ADD
		snprintf(data, sizeof data, "data-step=\"%" PRIu64 "\" data-kind=\"%s\" data-rank=\"%"
		         PRIu64 "\" data-unit=\"%" PRIu32 "\" data-start=\"%" PRIu64 "\" data-end=\"%"
		         PRIu64 "\"", k->step, tl_link_word[k->kind], k->rank, k->unit, k->start_ns,
		         k->end_ns);
		if (!c->dot) {
			fprintf(c->f, "<g class=\"critical\" %s", data);
			if (place == 2)
				fprintf(c->f, " data-peer=\"%" PRIu64 "\"", k->peer);
			fputs("><title>", c->f);
			put_esc(c, tip);
			fputs("</title>\n", c->f);
		}
		if (place < 2) {
			double y, h;
			row_of(l, lane, place, k->kind == TL_LINK_SNIC, k->unit, &y, &h);
			double x1 = xt(l, k->start_ns), x2 = xt(l, k->end_ns);
			if (x2 - x1 < 0.75)
				x2 = x1 + 0.75;
			cv_rect(c, x1 - 1, y - 1, x2 - x1 + 2, h + 2, NULL, PATH_COLOUR, NULL, NULL,
			        c->dot ? tip : NULL);
		} else {
			/* Over the message's arrow when it is drawn, else between the
			 * CPU rows of the NIC's index. */
			uint32_t sc = k->unit < tl->cpu_rows ? k->unit : 0, dc = sc;
			for (size_t m = 0; m < tl->nmsgs; m++) {
				const tl_msg *g = &tl->msgs[m];
				if (g->src == k->rank && g->dst == k->peer && g->depart == k->start_ns &&
				    g->arrival == k->end_ns) {
					sc = g->src_cpu;
					dc = g->dst_cpu;
					break;
				}
			}
			double sy, sh, dy, dh, y1, y2;
			row_of(l, lane, 0, 1, sc, &sy, &sh);
			row_of(l, peer, 0, 1, dc, &dy, &dh);
			if (peer > lane) {
				y1 = sy + sh;
				y2 = dy;
			} else if (peer < lane) {
				y1 = sy;
				y2 = dy + dh;
			} else {
				y1 = sy + sh / 2;
				y2 = dy + dh / 2;
			}
			double t1 = (double)k->start_ns, t2 = (double)k->end_ns;
			if (clip(l, &t1, &y1, &t2, &y2))
				cv_line(c, xt_f(l, t1), y1, xt_f(l, t2), y2, PATH_COLOUR, 2, LINE_SOLID,
				        t2 == (double)k->end_ns ? ARROW_PATH : ARROW_NONE, tip);
		}
		if (!c->dot)
			fputs("</g>\n", c->f);
	}
}

/* The fill of a load of f flows: LINK_COLOUR blended with white, from 35%
 * of it (one flow) to all of it (the most flows drawn). */
static void load_colour(const tl_file *tl, uint32_t f, char out[8])
{
	static const unsigned base[3] = { 0x8c, 0x56, 0x4b };
	double a = tl->max_flows > 1 ? 0.35 + 0.65 * (double)(f - 1) / (double)(tl->max_flows - 1) : 1;
	unsigned v[3];
	for (int i = 0; i < 3; i++)
		v[i] = (unsigned)(255 - (255 - (double)base[i]) * a + 0.5);
	snprintf(out, 8, "#%02x%02x%02x", v[0], v[1], v[2]);
}

/* The links' rows below the lanes (runs with a network): shading and
 * labels, under the grid. */
static void draw_link_rows(cv *c, const lay *l)
{
	const tl_file *tl = l->tl;
	char buf[64];
	for (uint32_t i = 0; i < tl->nlink_rows; i++) {
		double y = l->links_top + LINKS_PAD + i * (LINK_H + LINK_GAP);
		cv_rect(c, l->lm, y, l->w, LINK_H, "#f7f2f0", NULL, NULL, NULL, NULL);
		snprintf(buf, sizeof buf, "link %" PRIu64, tl->link_row[i]);
		cv_text(c, l->lm - 6, y + LINK_H - 1, 1, 9, 0, "#000000", buf);
	}
}

/* A box per load in its link's row, its fill darker with more flows. */
static void draw_loads(cv *c, const lay *l)
{
	const tl_file *tl = l->tl;
	char tip[256], data[160], fill[8];
	for (size_t i = 0; i < tl->nloads; i++) {
		const tl_load *d = &tl->loads[i];
		double y = l->links_top + LINKS_PAD + tl_link_row(tl, d->link) * (LINK_H + LINK_GAP);
		double x1 = xt(l, d->start), x2 = xt(l, d->end);
		if (x2 - x1 < 0.75)
			x2 = x1 + 0.75;
		snprintf(tip, sizeof tip, "link %" PRIu32 ": %" PRIu32 " flow%s, %" PRIu64 " bytes\n%"
		         PRIu64 " .. %" PRIu64 " ns (%" PRIu64 " ns)", d->link, d->flows,
		         d->flows == 1 ? "" : "s", d->bytes, d->start, d->end, d->end - d->start);
		snprintf(data, sizeof data, "data-link=\"%" PRIu32 "\" data-flows=\"%" PRIu32
		         "\" data-bytes=\"%" PRIu64 "\" data-start=\"%" PRIu64 "\" data-end=\"%"
		         PRIu64 "\"", d->link, d->flows, d->bytes, d->start, d->end);
		load_colour(tl, d->flows, fill);
		cv_rect(c, x1, y, x2 - x1, LINK_H, fill, NULL, "link", data, tip);
	}
}

/* The title and the notes above the lanes. */
static void draw_title(cv *c, const lay *l, const viz_render_opts *o)
{
	const tl_file *tl = l->tl;
	char buf[512];
	title_text(tl, buf, sizeof buf);
	cv_text(c, l->lm, 20, -1, 14, 1, "#000000", buf);
	char span[200];
	lane_span(tl, span, sizeof span);
	snprintf(buf, sizeof buf, "%s%stime %" PRIu64 " .. %" PRIu64 " ns, ranks %s",
	         o && o->source ? o->source : "", o && o->source ? ": " : "", tl->from, tl->to,
	         span);
	cv_text(c, l->lm, 36, -1, 10, 0, "#444444", buf);
	char notes[512];
	viz_render_notes(tl, notes, sizeof notes);
	if (notes[0]) {
		char *nl = strchr(notes, '\n');
		if (nl)
			*nl = 0;
		snprintf(buf, sizeof buf, "%.400s%s", notes, nl && nl[1] ? " (and more, see stderr)" : "");
		cv_text(c, l->lm, 50, -1, 10, 1, "#b00000", buf);
	}
}

/* The colours of jobs (a merged schedule's timeline), by job index. */
static const char *const job_colour[] = { "#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                                          "#ff7f0e", "#8c564b", "#e377c2", "#17becf" };

/* The lanes: shading and labels (with the rank's job, and a stripe of its
 * colour, when the run has jobs), and the labels of their cpu and nic rows
 * when the layout has them. */
static void draw_lanes(cv *c, const lay *l)
{
	const tl_file *tl = l->tl;
	char buf[512];
	for (uint32_t i = 0; i < tl->nlanes; i++) {
		double y = lane_top(l, i);
		uint32_t j = tl->lane_job ? tl->lane_job[i] : UINT32_MAX;
		cv_rect(c, l->lm, y, l->w, l->lane_h, i % 2 ? "#ffffff" : "#f3f3f3", NULL, NULL,
		        NULL, NULL);
		if (j != UINT32_MAX)
			cv_rect(c, l->lm, y, 3, l->lane_h, job_colour[j % 8], NULL, NULL, NULL, NULL);
		lane_label(tl, i, buf, sizeof buf);
		cv_text(c, l->lm - (l->sublabels ? 38 : 6), y + l->lane_h / 2 + 4, 1, 11, 0,
		        "#000000", buf);
		if (!l->sublabels)
			continue;
		for (uint32_t u = 0; u < tl->cpu_rows; u++) {
			double ry, rh;
			row_of(l, i, 0, 1, u, &ry, &rh);
			snprintf(buf, sizeof buf, "cpu %" PRIu32, u);
			cv_text(c, l->lm - 4, ry + rh / 2 + 3, 1, 8, 0, "#555555", buf);
		}
		for (uint32_t u = 0; u < l->nic_rows; u++) {
			double ry, rh;
			row_of(l, i, 1, 1, u, &ry, &rh);
			snprintf(buf, sizeof buf, "nic %" PRIu32, u);
			cv_text(c, l->lm - 4, ry + rh + 3, 1, 8, 0, "#555555", buf);
		}
	}
}

/* The time axis: grid, ticks, labels (above the lanes too when the
 * layout says so). */
static void draw_axis(cv *c, const lay *l)
{
	const tl_file *tl = l->tl;
	char buf[512];
	uint64_t step = tick_step(l->range, (uint64_t)(l->w / 90 > 2 ? l->w / 90 : 2));
	uint64_t t = (l->from + step - 1) / step * step;
	cv_line(c, l->lm, l->axis_y, l->lm + l->w, l->axis_y, "#000000", 1, LINE_SOLID, 0, NULL);
	if (l->top_axis)
		cv_line(c, l->lm, l->top, l->lm + l->w, l->top, "#000000", 1, LINE_SOLID, 0, NULL);
	for (; t <= l->from + l->range; t += step) {
		double x = xt(l, t);
		if (tl->nlanes)
			cv_line(c, x, l->top, x, l->axis_y, "#d8d8d8", 0.5, LINE_SOLID, 0, NULL);
		cv_line(c, x, l->axis_y, x, l->axis_y + 5, "#000000", 1, LINE_SOLID, 0, NULL);
		fmt_tick(buf, sizeof buf, t, step);
		cv_text(c, x, l->axis_y + 17, 0, 10, 0, "#000000", buf);
		if (l->top_axis) {
			cv_line(c, x, l->top - 5, x, l->top, "#000000", 1, LINE_SOLID, 0, NULL);
			cv_text(c, x, l->top - 8, 0, 10, 0, "#000000", buf);
		}
		if (t > UINT64_MAX - step)
			break;
	}
	cv_text(c, l->lm + l->w, l->axis_y + 31, 1, 10, 0, "#444444", "time");
}

/* The bars; detours last, on top of the activities they stretched. */
static void draw_bars(cv *c, const lay *l)
{
	const tl_file *tl = l->tl;
	char tip[512], data[256];
	for (size_t n = 0; n < 2 * tl->nbars; n++) {
		const tl_bar *b = &tl->bars[n % tl->nbars];
		if ((b->kind == TL_NOISE) != (n >= tl->nbars))
			continue;
		int nic = tl_kind_on_nic[b->kind];
		double y, h;
		row_of(l, b->lane, nic, b->kind == TL_GSEND, b->unit, &y, &h);
		double x1 = xt(l, b->start), x2 = xt(l, b->end);
		if (x2 - x1 < 0.75)
			x2 = x1 + 0.75;
		uint64_t rank = tl->lane_rank[b->lane];
		int k = snprintf(tip, sizeof tip, "rank %" PRIu64 " %s %u: %s\n%" PRIu64 " .. %" PRIu64
		                 " ns (%" PRIu64 " ns)", rank, nic ? "nic" : "cpu", (unsigned)b->unit,
		                 tl_kind_legend[b->kind], b->start, b->end, b->end - b->start);
		if (b->has_msg && k > 0 && (size_t)k < sizeof tip)
			snprintf(tip + k, sizeof tip - (size_t)k, "\nmessage from rank %" PRIu64, b->msg_src);
		snprintf(data, sizeof data, "data-rank=\"%" PRIu64 "\" data-unit=\"%u\" data-start=\"%"
		         PRIu64 "\" data-end=\"%" PRIu64 "\"", rank, (unsigned)b->unit, b->start, b->end);
		/* A thin white outline keeps bars that touch apart. */
		cv_rect(c, x1, y, x2 - x1, h, tl_kind_colour[b->kind], "#ffffff",
		        tl_kind_word[b->kind], data, tip);
	}
}

/* The tooltip of message m: its ranks, size and times. */
static void msg_tip(const tl_file *tl, const tl_msg *m, char *tip, size_t n)
{
	int k = snprintf(tip, n, "message %" PRIu64 " -> %" PRIu64 ", %" PRIu64
	                 " byte%s\n", m->src, m->dst, m->size, m->size == 1 ? "" : "s");
	if (k > 0 && (size_t)k < n) {
		if (m->send != TL_NONE)
			k += snprintf(tip + k, n - (size_t)k, "send starts %" PRIu64
			              " ns, leaves %" PRIu64 " ns, first byte arrives %" PRIu64 " ns",
			              m->send, m->depart, m->arrival);
		else
			k += snprintf(tip + k, n - (size_t)k, "leaves %" PRIu64
			              " ns, received %" PRIu64 " ns", m->depart, m->arrival);
	}
	if (!tl->old_format && k > 0 && (size_t)k < n) {
		if (m->handled != TL_NONE)
			snprintf(tip + k, n - (size_t)k, ", received %" PRIu64 " ns", m->handled);
		else
			snprintf(tip + k, n - (size_t)k, ", received after the window");
	}
}

/* The messages: an arrow from the sender's row to the receiver's, from
 * departure to arrival, dotted on to when it was handled; in SVG each in
 * a group with its data. */
static void draw_msgs(cv *c, const lay *l)
{
	const tl_file *tl = l->tl;
	char tip[512];
	for (size_t i = 0; i < tl->nmsgs; i++) {
		const tl_msg *m = &tl->msgs[i];
		double sy, sh, dy, dh;
		row_of(l, m->src_lane, 0, 1, m->src_cpu, &sy, &sh);
		row_of(l, m->dst_lane, 0, 1, m->dst_cpu, &dy, &dh);
		double y1, y2;
		if (m->dst_lane > m->src_lane) {
			y1 = sy + sh;
			y2 = dy;
		} else if (m->dst_lane < m->src_lane) {
			y1 = sy;
			y2 = dy + dh;
		} else {
			y1 = sy + sh / 2;
			y2 = dy + dh / 2;
		}
		msg_tip(tl, m, tip, sizeof tip);
		if (!c->dot) {
			fprintf(c->f, "<g class=\"msg\" data-src=\"%" PRIu64 "\" data-dst=\"%" PRIu64
			        "\" data-depart=\"%" PRIu64 "\" data-arrival=\"%" PRIu64 "\" data-size=\"%"
			        PRIu64 "\"", m->src, m->dst, m->depart, m->arrival, m->size);
			if (m->send != TL_NONE)
				fprintf(c->f, " data-send=\"%" PRIu64 "\"", m->send);
			if (m->handled != TL_NONE && !tl->old_format)
				fprintf(c->f, " data-handled=\"%" PRIu64 "\"", m->handled);
			fputs("><title>", c->f);
			put_esc(c, tip);
			fputs("</title>\n", c->f);
		}
		double t1 = (double)m->depart, t2 = (double)m->arrival;
		double cy1 = y1, cy2 = y2;
		if (clip(l, &t1, &cy1, &t2, &cy2))
			cv_line(c, xt_f(l, t1), cy1, xt_f(l, t2), cy2, l->thin ? "#777777" : "#333333",
			        l->thin ? 0.5 : 1, LINE_SOLID,
			        t2 == (double)m->arrival ? ARROW_MSG : ARROW_NONE, tip);
		if (!tl->old_format && m->handled != TL_NONE && m->handled > m->arrival) {
			double w1 = (double)m->arrival, w2 = (double)m->handled, a = y2, b2 = y2;
			if (clip(l, &w1, &a, &w2, &b2))
				cv_line(c, xt_f(l, w1), a, xt_f(l, w2), b2, "#333333", 1.2, LINE_DOTTED,
				        ARROW_NONE, tip);
		}
		if (!c->dot)
			fputs("</g>\n", c->f);
	}
}

static void draw(cv *c, const lay *l, const viz_render_opts *o)
{
	draw_title(c, l, o);
	draw_lanes(c, l);
	draw_link_rows(c, l);
	draw_axis(c, l);
	draw_bars(c, l);
	draw_loads(c, l);
	draw_msgs(c, l);
	draw_path(c, l);
	legend(c, l, l->axis_y + 50, 1);
}

int viz_render_svg(const tl_file *tl, const viz_render_opts *o, FILE *out)
{
	lay l;
	make_layout(&l, tl, o);
	cv c = { out, 0, 0, 0 };
	double lh = legend(&c, &l, l.axis_y + 50, 0);
	l.height = l.axis_y + 50 + lh;
	util_svg_begin(out, l.total_w, l.height, "font-family=\"" UTIL_SVG_FONT "\"");
	fputs("<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" "
	      "markerWidth=\"7\" markerHeight=\"7\" orient=\"auto\">"
	      "<path d=\"M0,0 L10,5 L0,10 z\" fill=\"#333333\"/></marker>", out);
	if (o && o->npath)
		fputs("<marker id=\"arrowc\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" "
		      "markerWidth=\"5\" markerHeight=\"5\" orient=\"auto\">"
		      "<path d=\"M0,0 L10,5 L0,10 z\" fill=\"" PATH_COLOUR "\"/></marker>", out);
	fputs("</defs>\n", out);
	draw(&c, &l, o);
	return util_svg_end(out) || fflush(out) ? -1 : 0;
}

int viz_render_dot(const tl_file *tl, const viz_render_opts *o, FILE *out)
{
	lay l;
	make_layout(&l, tl, o);
	cv c = { out, 1, 0, 0 };
	double lh = legend(&c, &l, l.axis_y + 50, 0);
	l.height = l.axis_y + 50 + lh;
	c.height = l.height;
	fprintf(out, "// LogGOPS timeline drawn by goalviz; every node has its position:\n"
	        "// render with  neato -n2 -Tsvg FILE -o out.svg  (or -Tpng, -Tpdf)\n"
	        "digraph timeline {\n"
	        "  graph [layout=neato, splines=line, outputorder=nodesfirst, bgcolor=white, "
	        "pad=0, bb=\"0,0,%.2f,%.2f\"];\n"
	        "  node [fontname=\"Helvetica\"];\n", l.total_w, l.height);
	draw(&c, &l, o);
	fputs("}\n", out);
	return fflush(out) || ferror(out) ? -1 : 0;
}
