/* model_plot.h: a small deterministic SVG plot: series of points (measured
 * or simulated) and lines (formulas), linear or logarithmic axes. */
#ifndef MODEL_PLOT_H
#define MODEL_PLOT_H

#include <stddef.h>
#include <stdio.h>

typedef struct model_series {
	const char *name;     /* legend text */
	const double *x, *y;  /* n points; y <= 0 is skipped on a log axis */
	size_t n;
	int points;           /* 1: markers only, 0: a line */
} model_series;

typedef struct model_plot {
	const char *title, *xlabel, *ylabel;
	int xlog, ylog;       /* logarithmic axes */
	int xbase2;           /* on a log x axis: ticks at powers of two */
} model_plot;

/* Write the plot of the ns series as a complete SVG document to out.
 * Returns 0, or -1 if writing failed or no series has a drawable point. */
int model_plot_svg(FILE *out, const model_plot *pl, const model_series *s, size_t ns);

#endif
