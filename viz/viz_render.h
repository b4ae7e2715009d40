/* viz_render.h: draws a read timeline (timeline.h) as SVG, or as a
 * Graphviz dot file with fixed positions (render it with neato -n2). */
#ifndef VIZ_RENDER_H
#define VIZ_RENDER_H

#include <stdio.h>

#include "timeline.h"
#include "tl_path.h"

typedef struct viz_render_opts {
	double width;        /* pixels (points) for the time axis; <= 0: 1000 */
	const char *source;  /* file name shown under the title, or NULL */
	const tl_link *path; /* the critical path to mark (tl_path.h), or NULL */
	size_t npath;
} viz_render_opts;

/* Write tl as a standalone SVG document: one element with class and data-*
 * attributes (exact times) and a <title> tooltip per bar and message.
 * Returns 0, or -1 on a write error. */
int viz_render_svg(const tl_file *tl, const viz_render_opts *o, FILE *out);

/* Write the same picture as a dot graph whose nodes all carry pos (points):
 * `neato -n2 -Tsvg` (or -Tpng, ...) renders it without moving anything.
 * Returns 0, or -1 on a write error. */
int viz_render_dot(const tl_file *tl, const viz_render_opts *o, FILE *out);

/* The notes a window needs (ranks or items left out, with a suggestion),
 * one per line, into buf; "" when nothing was left out. */
void viz_render_notes(const tl_file *tl, char *buf, size_t n);

#endif
