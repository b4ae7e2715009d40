/* svg.c: the small SVG writer of the charts (svg.h). */
#include "svg.h"
#include "util.h"

#include <math.h>
#include <stdarg.h>

void util_svg_begin(FILE *f, double w, double h, const char *attrs)
{
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
	        "viewBox=\"0 0 %.0f %.0f\"%s%s>\n"
	        "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
	        w, h, w, h, attrs[0] ? " " : "", attrs);
}

int util_svg_end(FILE *f)
{
	fputs("</svg>\n", f);
	return ferror(f) ? -1 : 0;
}

void util_svg_text(FILE *f, const char *text, const char *attrs, ...)
{
	va_list ap;
	fputs("<text ", f);
	va_start(ap, attrs);
	vfprintf(f, attrs, ap);
	va_end(ap);
	fputc('>', f);
	util_xml_put(f, text);
	fputs("</text>\n", f);
}

double util_nice_step(double span, double n)
{
	double raw = span / n;
	if (!(raw > 0) || !isfinite(raw))
		return 1;
	double p = pow(10, floor(log10(raw)));
	static const double mul[] = { 1, 2, 5, 10 };
	for (int i = 0; i < 3; i++)
		if (mul[i] * p >= raw * (1 - 1e-12))
			return mul[i] * p;
	return 10 * p;
}
