/* svg.h: the small SVG writer of the charts (sweeps, models, timelines):
 * the document, text escaped for XML, and nice axis ticks.  Coordinates
 * and attributes are the caller's, written as it formats them. */
#ifndef UTIL_SVG_H
#define UTIL_SVG_H

#include <stdio.h>

/* The font of every picture the tools draw (timelines, charts, plots). */
#define UTIL_SVG_FONT "Helvetica, Arial, sans-serif"

/* The XML declaration, <svg> of w x h px (its viewBox the same) with the
 * extra attributes attrs (e.g. "font-family=\"sans-serif\""; may be ""),
 * and a white background. */
void util_svg_begin(FILE *f, double w, double h, const char *attrs);

/* Ends the document.  Returns 0, or -1 if f has had an error. */
int util_svg_end(FILE *f);

/* "<text ATTRS>TEXT</text>\n": ATTRS formatted like printf (e.g.
 * "x=\"%.1f\" y=\"24\""), TEXT escaped for XML. */
void util_svg_text(FILE *f, const char *text, const char *attrs, ...)
	__attribute__((format(printf, 3, 4)));

/* The step of nice axis ticks: the smallest of 1, 2 and 5 times a power of
 * ten that cuts span into at most n steps (1 when span/n is not positive). */
double util_nice_step(double span, double n);

#endif
