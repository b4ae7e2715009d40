/* model_plot.c: SVG plots written as text: axes, ticks, labels, a legend,
 * markers for simulated values and lines for formulas. */
#include "model_plot.h"
#include "svg.h"
#include "util.h"

#include <math.h>
#include <string.h>

#define W 760.0
#define H 480.0
#define ML 80.0   /* margins: left, right (legend), top, bottom */
#define MR 230.0
#define MT 40.0
#define MB 60.0
#define MAXTICKS 40

static const char *const colours[] = {
	"#000000", "#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd",
	"#8c564b", "#e377c2", "#17becf", "#7f7f7f"
};
#define NCOLOURS (sizeof colours / sizeof colours[0])

typedef struct axis {
	double lo, hi;   /* data range (log10 of it on a log axis) */
	int log;
	double a, b;     /* pixel range */
} axis;

static double axis_map(const axis *ax, double v)
{
	double t = ax->log ? log10(v) : v;
	return ax->a + (t - ax->lo) / (ax->hi - ax->lo) * (ax->b - ax->a);
}

static int usable(const axis *ax, double v)
{
	return isfinite(v) && (!ax->log || v > 0);
}

/* The data range of one coordinate over every usable point. */
static int range(const model_series *s, size_t ns, int ycoord, const axis *ax,
                 double *lo, double *hi)
{
	int any = 0;
	for (size_t i = 0; i < ns; i++)
		for (size_t j = 0; j < s[i].n; j++) {
			double v = ycoord ? s[i].y[j] : s[i].x[j];
			if (!usable(ax, v))
				continue;
			if (!any || v < *lo)
				*lo = v;
			if (!any || v > *hi)
				*hi = v;
			any = 1;
		}
	return any;
}

/* Set the axis limits from [lo, hi] and choose ticks; returns their count. */
static size_t ticks(axis *ax, double lo, double hi, int base2, double *t)
{
	size_t n = 0;
	if (ax->log) {
		if (base2) {
			double e0 = floor(log2(lo)), e1 = ceil(log2(hi));
			double step = e1 - e0 > 12 ? 2 : 1;
			if (e1 <= e0)
				e1 = e0 + 1;
			ax->lo = e0 * log10(2.0);
			ax->hi = e1 * log10(2.0);
			for (double e = e0; e <= e1 && n < MAXTICKS; e += step)
				t[n++] = exp2(e);
			return n;
		}
		double e0 = floor(log10(lo)), e1 = ceil(log10(hi));
		if (e1 <= e0)
			e1 = e0 + 1;
		ax->lo = e0;
		ax->hi = e1;
		for (double e = e0; e <= e1 && n < MAXTICKS; e++) {
			double d = pow(10, e);
			t[n++] = d;
			if (e1 - e0 <= 2 && e < e1) {
				t[n++] = 2 * d;
				t[n++] = 5 * d;
			}
		}
		return n;
	}
	if (hi <= lo) {
		hi = lo + 1;
		lo = lo - 1;
	}
	double step = util_nice_step(hi - lo, 10);
	ax->lo = floor(lo / step) * step;
	ax->hi = ceil(hi / step) * step;
	for (double v = ax->lo; v <= ax->hi + step / 2 && n < MAXTICKS; v += step)
		t[n++] = fabs(v) < step / 1e6 ? 0 : v;
	return n;
}

int model_plot_svg(FILE *out, const model_plot *pl, const model_series *s, size_t ns)
{
	axis ax = { 0, 1, pl->xlog, ML, W - MR }, ay = { 0, 1, pl->ylog, H - MB, MT };
	double xlo = 0, xhi = 0, ylo = 0, yhi = 0, xt[MAXTICKS], yt[MAXTICKS];
	size_t nx, ny;

	if (!range(s, ns, 0, &ax, &xlo, &xhi) || !range(s, ns, 1, &ay, &ylo, &yhi))
		return -1;
	nx = ticks(&ax, xlo, xhi, pl->xbase2, xt);
	ny = ticks(&ay, ylo, yhi, 0, yt);

	util_svg_begin(out, W, H, "font-family=\"" UTIL_SVG_FONT "\" font-size=\"12\"");
	util_svg_text(out, pl->title, "x=\"%.1f\" y=\"24\" text-anchor=\"middle\" font-size=\"14\"",
	              (ML + W - MR) / 2);

	/* Grid, ticks and tick labels. */
	for (size_t i = 0; i < nx; i++) {
		double px = axis_map(&ax, xt[i]);
		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e0e0e0\"/>\n",
		        px, MT, px, H - MB);
		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n",
		        px, H - MB, px, H - MB + 5);
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>\n",
		        px, H - MB + 18, xt[i]);
	}
	for (size_t i = 0; i < ny; i++) {
		double py = axis_map(&ay, yt[i]);
		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e0e0e0\"/>\n",
		        ML, py, W - MR, py);
		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n",
		        ML - 5, py, ML, py);
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n",
		        ML - 8, py + 4, yt[i]);
	}
	fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"black\"/>\n",
	        ML, MT, W - MR - ML, H - MB - MT);
	char label[512];
	snprintf(label, sizeof label, "%s%s", pl->xlabel, pl->xlog ? " (log scale)" : "");
	util_svg_text(out, label, "x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\"", (ML + W - MR) / 2,
	              H - 18);
	snprintf(label, sizeof label, "%s%s", pl->ylabel, pl->ylog ? " (log scale)" : "");
	util_svg_text(out, label, "transform=\"translate(20 %.1f) rotate(-90)\" text-anchor=\"middle\"",
	              (MT + H - MB) / 2);

	/* Series: lines first, markers on top. */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < ns; i++) {
			const char *c = colours[i % NCOLOURS];
			int pen = 0;
			if (s[i].points != pass)
				continue;
			if (!pass)
				fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"%s points=\"",
				        c, i >= NCOLOURS ? " stroke-dasharray=\"6 3\"" : "");
			for (size_t j = 0; j < s[i].n; j++) {
				if (!usable(&ax, s[i].x[j]) || !usable(&ay, s[i].y[j]))
					continue;
				double px = axis_map(&ax, s[i].x[j]), py = axis_map(&ay, s[i].y[j]);
				if (pass)
					fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"/>\n",
					        px, py, c);
				else
					fprintf(out, "%s%.1f,%.1f", pen++ ? " " : "", px, py);
			}
			if (!pass)
				fputs("\"/>\n", out);
		}

	/* Legend. */
	for (size_t i = 0; i < ns; i++) {
		const char *c = colours[i % NCOLOURS];
		double y = MT + 10 + 20.0 * (double)i, x = W - MR + 12;
		if (s[i].points)
			fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"/>\n",
			        x + 10, y, c);
		else
			fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"1.5\"%s/>\n",
			        x, y, x + 20, y, c, i >= NCOLOURS ? " stroke-dasharray=\"6 3\"" : "");
		util_svg_text(out, s[i].name, "x=\"%.1f\" y=\"%.1f\"", x + 26, y + 4);
	}
	return util_svg_end(out);
}
