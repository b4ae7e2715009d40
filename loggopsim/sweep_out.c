/* sweep_out.c: the outputs of a sweep: CSV, table and SVG bar chart
 * (docs/sweep.md "Output"). */
#include "sweep.h"
#include "sens.h"
#include "svg.h"
#include "util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char *status_word(sweep_status st)
{
	switch (st) {
	case SWEEP_OK: return "ok";
	case SWEEP_INCOMPLETE: return "incomplete";
	case SWEEP_FAILED: return "failed";
	default: return "not-run";
	}
}

/* The relative time of set i to set b as "%.4f" text, or "" when either is
 * not a complete run or the baseline's time is 0. */
static void relative(const sweep_result *res, size_t i, long b, char *buf, size_t n)
{
	buf[0] = 0;
	if (b < 0 || res[i].status != SWEEP_OK || res[b].status != SWEEP_OK || res[b].time == 0)
		return;
	snprintf(buf, n, "%.4f", (double)res[i].time / (double)res[b].time);
}

/* The parameter values of set i as text (vals[k], "?" when the set's
 * parameters cannot be formed). */
static void set_values(const sweep *sw, size_t i, const sim_pset *base,
                       char vals[SIM_NPARAMS][48])
{
	sim_pset ps;
	char e[256];
	if (sweep_set_params(sw, i, base, &ps, e, sizeof e)) {
		for (int k = 0; k < SIM_NPARAMS; k++)
			snprintf(vals[k], 48, "?");
		return;
	}
	for (int k = 0; k < SIM_NPARAMS; k++)
		sim_pset_value(&ps, (sim_pname)k, vals[k], 48);
}

/* ",\"TEXT\"" (CSV quoting: a quote is doubled). */
static void put_quoted(FILE *f, const char *text)
{
	fputs(",\"", f);
	for (const char *c = text ? text : ""; *c; c++) {
		if (*c == '"')
			fputc('"', f);
		fputc(*c, f);
	}
	fputc('"', f);
}

int sweep_write_csv(FILE *f, const goal_sched *s, const sim_pset *base, const sweep *sw,
                    const sweep_result *res, long base_idx, int wall)
{
	int placing = sweep_placing(sw);
	fprintf(f, "set,name,P,L,o,g,G,O,S,status,time_ns,host,events,relative,wall_s%s%s%s%s%s",
	        sw->perturb || placing ? ",seed" : "", sw->perturb ? ",noise" : "",
	        placing ? ",place" : "", sw->net ? ",network" : "",
	        sw->sensitivity ? ",dT_dL,dT_do,dT_dg,dT_dG,dT_dO" : "");
	for (uint32_t k = 0; sw->job_end && k < s->njobs; k++)
		fprintf(f, ",job_%s_ns", goal_job_name(s, k));
	fputc('\n', f);
	for (size_t i = 0; i < sw->n; i++) {
		if (res[i].status == SWEEP_NOT_RUN)
			continue;
		char vals[SIM_NPARAMS][48], rel[32];
		set_values(sw, i, base, vals);
		relative(res, i, base_idx, rel, sizeof rel);
		fprintf(f, "%zu,%s,%" PRIu64, i + 1, sw->set[i].name, s->nranks);
		for (int k = 0; k < SIM_NPARAMS; k++)
			fprintf(f, ",%s", vals[k]);
		fprintf(f, ",%s", status_word(res[i].status));
		if (res[i].status == SWEEP_OK)
			fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64, res[i].time, res[i].host,
			        res[i].events);
		else
			fprintf(f, ",,,");
		fprintf(f, ",%s,", rel);
		if (wall)
			fprintf(f, "%.3f", res[i].wall);
		uint64_t seed;
		const char *place = sweep_set_place(sw, i, &seed);
		if (sw->perturb || placing)
			fprintf(f, ",%" PRIu64, seed);
		if (sw->perturb)
			put_quoted(f, sw->perturb_desc);
		if (placing)
			put_quoted(f, place ? place : "as merged");
		if (sw->net)
			put_quoted(f, sw->net_desc);
		for (int k = 0; k < 5 && sw->sensitivity; k++) {
			char v[48] = "";
			if (res[i].status == SWEEP_OK)
				sens_deriv_text(res[i].dT[k], v, sizeof v);
			fprintf(f, ",%s", v);
		}
		for (uint32_t k = 0; sw->job_end && k < s->njobs; k++) {
			if (res[i].status == SWEEP_OK)
				fprintf(f, ",%" PRIu64, sw->job_end[i * s->njobs + k] - s->jobs[k].start);
			else
				fputc(',', f);
		}
		fputc('\n', f);
	}
	return ferror(f) ? -1 : 0;
}

int sweep_write_table(FILE *f, const goal_sched *s, const sim_pset *base, const sweep *sw,
                      const sweep_result *res, long base_idx)
{
	enum { NCOL = 11 };
	static const char *const head[NCOL] = { "name", "L", "o", "g", "G", "O", "S",
		"time_ns", "host", "events", "relative" };
	size_t ncol = base_idx >= 0 ? NCOL : NCOL - 1, w[NCOL];
	for (size_t c = 0; c < NCOL; c++)
		w[c] = strlen(head[c]);
	/* Two passes: widths, then the rows. */
	for (int pass = 0; pass < 2; pass++) {
		if (pass) {
			size_t ran = 0;
			for (size_t i = 0; i < sw->n; i++)
				ran += res[i].status != SWEEP_NOT_RUN;
			if (ran == sw->n)
				fprintf(f, "sweep: %zu sets, P=%" PRIu64 "\n", sw->n, s->nranks);
			else
				fprintf(f, "sweep: %zu of %zu sets, P=%" PRIu64 "\n", ran, sw->n, s->nranks);
			for (size_t c = 0; c < ncol; c++)
				fprintf(f, c ? "  %*s" : "%-*s", (int)w[c], head[c]);
			fputc('\n', f);
		}
		for (size_t i = 0; i < sw->n; i++) {
			if (res[i].status == SWEEP_NOT_RUN)
				continue;
			char cell[NCOL][SWEEP_NAME_MAX], vals[SIM_NPARAMS][48];
			_Static_assert(sizeof vals[0] <= sizeof cell[0], "a value fits a cell");
			set_values(sw, i, base, vals);
			memcpy(cell[0], sw->set[i].name, sizeof cell[0]);
			for (int k = 0; k < SIM_NPARAMS; k++)
				memcpy(cell[1 + k], vals[k], sizeof vals[k]);
			if (res[i].status == SWEEP_OK) {
				snprintf(cell[7], sizeof cell[7], "%" PRIu64, res[i].time);
				snprintf(cell[8], sizeof cell[8], "%" PRIu64, res[i].host);
				snprintf(cell[9], sizeof cell[9], "%" PRIu64, res[i].events);
			} else {
				snprintf(cell[7], sizeof cell[7], "%s", status_word(res[i].status));
				cell[8][0] = cell[9][0] = 0;
			}
			relative(res, i, base_idx, cell[10], sizeof cell[10]);
			for (size_t c = 0; c < ncol; c++) {
				size_t l = strlen(cell[c]);
				if (!pass) {
					if (l > w[c])
						w[c] = l;
					continue;
				}
				fprintf(f, c ? "  %*s" : "%-*s", (int)w[c], cell[c]);
			}
			if (pass)
				fputc('\n', f);
		}
	}
	return ferror(f) ? -1 : 0;
}


int sweep_write_svg(FILE *f, const goal_sched *s, const char *name, const sim_pset *base,
                    const sweep *sw, const sweep_result *res, long base_idx, const char *title)
{
	char deftitle[900], params[300];
	size_t pn = (size_t)snprintf(params, sizeof params, "base");
	for (int k = 0; k < SIM_NPARAMS && pn < sizeof params; k++) {
		char v[NUM_DEC_TEXT + 8];
		sim_pset_value(base, (sim_pname)k, v, sizeof v);
		if (strcmp(v, "mixed") != 0)   /* differs between size ranges */
			pn += (size_t)snprintf(params + pn, sizeof params - pn, " %s=%s",
			                       sim_pname_str((sim_pname)k), v);
	}
	if (base->p.nranges >= 2 && pn < sizeof params)
		snprintf(params + pn, sizeof params - pn, ", %" PRIu32 " size ranges", base->p.nranges);
	/* The default title names the schedule, P and the base parameters; a
	 * title given has the parameters below it. */
	int own = title != NULL;
	if (!own) {
		snprintf(deftitle, sizeof deftitle, "%.500s: P=%" PRIu64 ", %s", name, s->nranks, params);
		title = deftitle;
	}
	/* Layout in px: one row per set, labels on the left, bars to the right
	 * from ratio 0, a dashed line at 1 (the baseline). */
	const double row = 26, top = 56, barw = 480, charw = 7.8;
	size_t nrow = 0, maxlab = 0;
	double maxr = 1;
	for (size_t i = 0; i < sw->n; i++) {
		if (res[i].status == SWEEP_NOT_RUN)
			continue;
		nrow++;
		size_t l = strlen(sw->set[i].name);
		if (l > maxlab)
			maxlab = l;
		char rel[32];
		relative(res, i, base_idx, rel, sizeof rel);
		if (rel[0] && atof(rel) > maxr)
			maxr = atof(rel);
	}
	/* At most 10 ticks (maxr is at least 1). */
	double step = util_nice_step(maxr, 10);
	double axmax = step * (double)(long)(maxr / step + 0.999999);
	if (axmax < maxr)
		axmax += step;
	double left = 16 + charw * (double)maxlab + 12, scale = barw / axmax;
	double width = left + barw + 90, height = top + row * (double)nrow + 40;
	if (width < 32 + 9.2 * (double)strlen(title))   /* the title, 15 px bold */
		width = 32 + 9.2 * (double)strlen(title);
	char sub[SWEEP_NAME_MAX + 340];
	snprintf(sub, sizeof sub, "time relative to '%s' (1 = same)%s%s",
	         base_idx >= 0 ? sw->set[base_idx].name : "", own ? "; " : "", own ? params : "");
	if (width < 32 + 7.2 * (double)strlen(sub))
		width = 32 + 7.2 * (double)strlen(sub);
	util_svg_begin(f, width, height, "font-family=\"" UTIL_SVG_FONT "\" font-size=\"13\"");
	util_svg_text(f, title, "x=\"16.0\" y=\"22\" font-size=\"15\" font-weight=\"bold\"");
	util_svg_text(f, sub, "x=\"16.0\" y=\"40\" fill=\"#555\"");
	double axy = top + row * (double)nrow + 6;
	for (int t = 0; (double)t * step <= axmax + 1e-9; t++) {
		double x = left + (double)t * step * scale;
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
		        x, top - 4, x, axy);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>\n",
		        x, axy + 16, (double)t * step);
	}
	size_t r = 0;
	for (size_t i = 0; i < sw->n; i++) {
		if (res[i].status == SWEEP_NOT_RUN)
			continue;
		double y = top + row * (double)r++;
		char rel[32];
		relative(res, i, base_idx, rel, sizeof rel);
		util_svg_text(f, sw->set[i].name, "x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\"",
		              left - 8, y + 17);
		if (!rel[0]) {
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" fill=\"#b00\">%s</text>\n", left + 4,
			        y + 17, status_word(res[i].status));
			continue;
		}
		double v = atof(rel), bw = v * scale;
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n",
		        left, y + 4, bw, row - 8, (long)i == base_idx || res[i].time == res[base_idx].time ? "#888"
		        : v > 1 ? "#c0504d" : "#4f81bd");
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">%s</text>\n", left + bw + 6, y + 17, rel);
	}
	double x1 = left + scale;
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\" "
	        "stroke-dasharray=\"4 3\"/>\n", x1, top - 4, x1, axy);
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n",
	        left, axy, left + barw, axy);
	return util_svg_end(f);
}
