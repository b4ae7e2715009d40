/* goalviz.c: the command line: renders a timeline (loggopsim -V or the old
 * LogGOPSim format) or a schedule's dependency graph as SVG, dot, PNG, PDF,
 * or converts a timeline to trace JSON (Perfetto, chrome://tracing). */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "die.h"
#include "goal.h"
#include "goal_open.h"
#include "num.h"
#include "out.h"
#include "viz_render.h"
#include "viz_sched.h"
#include "timeline.h"
#include "tl_path.h"
#include "tl_trace_json.h"
#include "version.h"

extern char **environ;

static const char usage[] =
"usage: goalviz [options] TIMELINE -o OUT\n"
"       goalviz --schedule SCHEDULE -o OUT\n"
"\n"
"Draw a timeline written by loggopsim -V (or by the old LogGOPSim tool) with\n"
"one lane per rank, or the dependency graph of a GOAL schedule (binary or\n"
"text); or convert the timeline to trace-event JSON for ui.perfetto.dev and\n"
"chrome://tracing (docs/perfetto.md).  TIMELINE may be - for standard input.\n"
"The output format follows the extension of OUT: .svg, .dot (.gv), .png,\n"
".pdf, .json (PNG and PDF, and SVG of a schedule, are made by Graphviz,\n"
"which must be installed).\n"
"\n"
"options:\n"
"  -o, --output FILE     the picture or JSON (default: SVG on standard output)\n"
"  -T, --format FMT      svg, dot, png, pdf or json, whatever the extension says\n"
"      --from T          start of the time window (default 0); T in ns, or\n"
"                        with a unit: 12us, 1.5ms, 2s\n"
"      --to T            end of the time window (default: the last event)\n"
"      --window T0..T1   the same as --from T0 --to T1 (either may be left out)\n"
"      --ranks LIST      ranks to draw, e.g. 0-15,32 (default: all)\n"
"      --critical-path FILE  mark the critical path (loggopsim --critical-path):\n"
"                        outlined bars and red arrows in a picture, a\n"
"                        'critical path' process in JSON\n"
"      --labels SCHEDULE  JSON: name the slices of the ops that have labels\n"
"                        of their own in the schedule the timeline was\n"
"                        simulated from (as loggopsim --trace-json does)\n"
"      --max-lanes N     draw at most N ranks; the rest is named, not drawn\n"
"                        (default 256)\n"
"      --max-items N     keep at most N bars and messages, and N link loads\n"
"                        (default 1000000)\n"
"      --width PIXELS    width of the time axis (default 1000)\n"
"      --schedule        the input is a schedule: draw its dependency graph\n"
"      --max-ops N       schedule graph: at most N ops (default 2000)\n"
"  -h, --help            this help\n"
"      --version         the version and the commit it was built from\n"
"\n"
"Hovering a bar or an arrow of the SVG shows its exact times and size.  A .dot\n"
"timeline has fixed positions: render it with  neato -n2 -Tpng FILE.dot.\n"
"JSON keeps every slice that overlaps the window, with its exact times, and\n"
"is written as the timeline is read (--max-lanes, --max-items and --width\n"
"are for pictures).\n"
"Example: goalviz app.tl --window 10us..25us -o app.svg\n"
"Exit status: 0 done, 1 bad input or failed output, 2 bad options.\n";

enum fmt { FMT_SVG, FMT_DOT, FMT_PNG, FMT_PDF, FMT_JSON };
static const char *const fmt_name[] = { "svg", "dot", "png", "pdf", "json" };

static int fmt_parse(const char *s, enum fmt *f)
{
	for (int i = 0; i < 5; i++)
		if (strcmp(s, fmt_name[i]) == 0) {
			*f = (enum fmt)i;
			return 0;
		}
	if (strcmp(s, "gv") == 0) {
		*f = FMT_DOT;
		return 0;
	}
	return -1;
}

/* Run Graphviz TOOL -T<fmt> -o OUT (extra arg if not NULL) reading from a
 * pipe; *pid and the write end as a FILE.  Returns NULL on failure. */
static FILE *gv_start(const char *tool, const char *extra, const char *fmt, const char *out,
                      pid_t *pid)
{
	int fd[2];
	if (pipe(fd))
		return NULL;
	char targ[16];
	snprintf(targ, sizeof targ, "-T%s", fmt);
	char *argv[8];
	int n = 0;
	argv[n++] = (char *)(uintptr_t)tool;
	if (extra)
		argv[n++] = (char *)(uintptr_t)extra;
	argv[n++] = targ;
	if (out) {
		argv[n++] = (char *)(uintptr_t)"-o";
		argv[n++] = (char *)(uintptr_t)out;
	}
	argv[n] = NULL;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fd[0], 0);
	posix_spawn_file_actions_addclose(&fa, fd[0]);
	posix_spawn_file_actions_addclose(&fa, fd[1]);
	int rc = posix_spawnp(pid, tool, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fd[0]);
	if (rc) {
		close(fd[1]);
		util_error("cannot run %s: %s (install Graphviz)", tool, strerror(rc));
		return NULL;
	}
	FILE *f = fdopen(fd[1], "w");
	if (!f)
		close(fd[1]);
	return f;
}

/* Close the pipe and wait for Graphviz; 0 if it succeeded. */
static int gv_finish(FILE *f, pid_t pid, const char *tool)
{
	int bad = fclose(f) != 0, st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		util_error("%s failed", tool);
		return -1;
	}
	return bad ? -1 : 0;
}

/* The output: written safely (util/out.h) to out (NULL: standard output),
 * never over the input in; by the program itself, or through Graphviz's
 * tool (piped: it writes the file, into the temporary one). */
typedef struct gv_out {
	util_out uo;
	FILE *f;
	pid_t pid;
	const char *tool;
} gv_out;

static int out_begin(gv_out *g, const char *out, const char *const *ins, size_t nin,
                     const char *tool, const char *extra, const char *fmt)
{
	char err[1024];
	memset(g, 0, sizeof *g);
	g->tool = tool;
	if (util_out_open(&g->uo, out ? out : "-", ins, nin, 0, err, sizeof err)) {
		util_error_msg(err);
		return -1;
	}
	g->f = tool ? gv_start(tool, extra, fmt, out ? (g->uo.tmp ? g->uo.tmp : out) : NULL, &g->pid)
	            : g->uo.f;
	if (!g->f) {
		util_out_abort(&g->uo);
		return -1;
	}
	return 0;
}

/* Finish (ok: everything was written) or give up; 0 or -1. */
static int out_end(gv_out *g, int ok)
{
	char err[1024];
	if (g->tool && gv_finish(g->f, g->pid, g->tool))
		ok = 0;
	if (!ok) {
		util_out_abort(&g->uo);
		return -1;
	}
	if (util_out_close(&g->uo, err, sizeof err)) {
		util_error_msg(err);
		return -1;
	}
	return 0;
}

/* "FILE: error: cannot open: REASON" for errno; returns 1. */
static int cannot_open(const char *file)
{
	char msg[4200];
	snprintf(msg, sizeof msg, "%.4000s: error: cannot open: %s", file, strerror(errno));
	return util_error_msg(msg);
}

/* Nothing of timeline name (nranks ranks, events up to tmax) is in the
 * selection: with --ranks or a window given, an error that says what the
 * timeline holds (returns 1); else 0 (an empty timeline draws empty). */
static int empty_selection(const char *name, const char *ranks, const tl_window *w,
                           uint64_t nranks, uint64_t tmax)
{
	if (w->from == 0 && w->to == TL_NONE && !ranks)
		return 0;
	char sel[256] = "", msg[512];
	size_t n = 0;
	if (ranks)
		n += (size_t)snprintf(sel, sizeof sel, "ranks %.64s", ranks);
	if (w->from)
		n += (size_t)snprintf(sel + n, sizeof sel - n, "%sfrom %" PRIu64 " ns", n ? ", " : "",
		                      w->from);
	if (w->to != TL_NONE)
		snprintf(sel + n, sizeof sel - n, "%sto %" PRIu64 " ns", n ? ", " : "", w->to);
	char held[64] = "rank 0";
	if (nranks > 1)
		snprintf(held, sizeof held, "ranks 0-%" PRIu64, nranks - 1);
	snprintf(msg, sizeof msg, "%s: error: nothing to draw in the selection (%s): the "
	         "timeline has %s and events up to %" PRIu64 " ns", name, sel, held, tmax);
	return util_error_msg(msg);
}

static const struct option lopts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "format", required_argument, NULL, 'T' },
	{ "from", required_argument, NULL, 'F' },
	{ "to", required_argument, NULL, 't' },
	{ "ranks", required_argument, NULL, 'r' },
	{ "max-lanes", required_argument, NULL, 'l' },
	{ "max-items", required_argument, NULL, 'i' },
	{ "max-ops", required_argument, NULL, 'x' },
	{ "width", required_argument, NULL, 'w' },
	{ "schedule", no_argument, NULL, 's' },
	{ "window", required_argument, NULL, 'W' },
	{ "critical-path", required_argument, NULL, 'P' },
	{ "labels", required_argument, NULL, 'B' },
	{ "version", no_argument, NULL, UTIL_OPT_VERSION },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/* Everything the command line sets: the input, the output and its format,
 * what to draw (window, ranks rg[0..nrg), limits), the critical path and
 * the schedule of the labels. */
struct cli {
	const char *in, *out, *format, *ranks, *window, *cpath, *labels;
	int have_from, have_to, schedule;
	tl_window w;
	uint64_t max_ops;
	double width;
	enum fmt f;
	uint64_t *rg;
	size_t nrg;
};

/* Read the command line into cl: -1 to go on, or the exit status (after
 * the message, the help or the version). */
static int cli_parse(struct cli *cl, int argc, char **argv)
{
	static const tl_window w0 = { 0, TL_NONE, NULL, 0, 256, 1000000 };
	tl_window *w = &cl->w;
	int c;
	memset(cl, 0, sizeof *cl);
	cl->w = w0;
	cl->max_ops = 2000;
	cl->width = 1000;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:T:h", lopts, NULL)) != -1) {
		char *end;
		switch (c) {
		case 'o': cl->out = optarg; break;
		case 'T': cl->format = optarg; break;
		case 'F':
			if (num_time_parse(optarg, strlen(optarg), &w->from) != NUM_OK)
				return util_usage("bad time '%s' for --from (e.g. 12000, 12us, 1.5ms)", optarg);
			cl->have_from = 1;
			break;
		case 't':
			if (num_time_parse(optarg, strlen(optarg), &w->to) != NUM_OK || w->to == TL_NONE)
				return util_usage("bad time '%s' for --to (e.g. 12000, 12us, 1.5ms)", optarg);
			cl->have_to = 1;
			break;
		case 'r': cl->ranks = optarg; break;
		case 'l': case 'i': case 'x': {
			uint64_t v;
			if (num_u64_parse(optarg, strlen(optarg), &v) != NUM_OK || v == 0 ||
			    (c == 'l' && v > 100000))
				return util_usage("bad count '%s' (a positive integer)", optarg);
			if (c == 'l')
				w->max_lanes = (uint32_t)v;
			else if (c == 'i')
				w->max_items = v;
			else
				cl->max_ops = v;
			break;
		}
		case 'w':
			cl->width = strtod(optarg, &end);
			if (*end || !(cl->width >= 50 && cl->width <= 100000))
				return util_usage("bad width '%s' (50 to 100000 pixels)", optarg);
			break;
		case 's': cl->schedule = 1; break;
		case 'W': {
			num_err e = num_window_parse(optarg, strlen(optarg), &w->from, &w->to);
			if (e == NUM_EMPTY)
				return util_usage("--window '%s' ends before it starts", optarg);
			if (e != NUM_OK)
				return util_usage("bad window '%s' for --window (expected T0..T1, e.g. "
				                  "10us..25us)", optarg);
			cl->window = optarg;
			break;
		}
		case 'P': cl->cpath = optarg; break;
		case 'B': cl->labels = optarg; break;
		case UTIL_OPT_VERSION: return util_version(NULL);
		case 'h': fputs(usage, stdout); return 0;
		default: return util_usage_option(c, argv);  /* ':' or '?' */
		}
	}
	if (optind != argc - 1)
		return util_usage("%s", optind >= argc ? "no input file" : "more than one input file");
	cl->in = argv[optind];
	return -1;
}

/* The window, the output format and the ranks (into rg): -1 to go on, or
 * the exit status after the message. */
static int cli_check(struct cli *cl)
{
	char err[1024];
	if (cl->window && (cl->have_from || cl->have_to))
		return util_usage("give --window or --from and --to, not both");
	if (cl->w.to != TL_NONE && cl->w.to < cl->w.from)
		return util_usage("--to is before --from");
	cl->f = FMT_SVG;
	if (cl->format) {
		if (fmt_parse(cl->format, &cl->f))
			return util_usage("unknown format '%s' (svg, dot, png, pdf, json)", cl->format);
	} else if (cl->out) {
		const char *dot = strrchr(cl->out, '.');
		if (!dot || fmt_parse(dot + 1, &cl->f))
			return util_usage("cannot tell the format from '%s': use .svg, .dot, .png, "
			                 ".pdf, .json or --format", cl->out);
	}
	if (cl->schedule && (cl->f == FMT_JSON || cl->cpath))
		return util_usage("--schedule draws a picture: no json, no --critical-path");
	if (cl->labels && cl->f != FMT_JSON)
		return util_usage("--labels names the slices of trace JSON: give an output .json");
	if (cl->ranks && num_ranks_parse(cl->ranks, &cl->rg, &cl->nrg, err, sizeof err))
		return util_usage("%s", err);
	cl->w.ranges = cl->rg;
	cl->w.nranges = cl->nrg;
	return -1;
}

/* --schedule: the schedule's dependency graph, with notes on what was
 * left out.  Returns the exit status. */
static int draw_schedule(const struct cli *cl)
{
	const char *in = cl->in;
	char err[1024];
	int status = 0;
	goal_sched s;
	if (goal_sched_open_any(&s, in, stderr, err, sizeof err))
		return util_error_msg(err);
	viz_sched_opts so = { cl->rg, cl->nrg, cl->max_ops, in };
	viz_sched_info info;
	gv_out g;
	if (out_begin(&g, cl->out, &in, 1, cl->f != FMT_DOT ? "dot" : NULL, NULL, fmt_name[cl->f])) {
		goal_sched_close(&s);
		return 1;
	}
	if (viz_schedule_dot(&s, &so, g.f, &info, err, sizeof err)) {
		status = util_error("%s", err);
	}
	if (out_end(&g, !status))
		status = 1;
	if (info.ranks_left_out)
		fprintf(stderr, "goalviz: note: left out %" PRIu64 " ranks from rank %" PRIu64
		        " on (at most %" PRIu64 " ops are drawn); choose ranks with --ranks or "
		        "raise --max-ops\n", info.ranks_left_out, info.first_left_out, cl->max_ops);
	if (info.wildcard_matches)
		fprintf(stderr, "goalviz: note: %" PRIu64 " wildcard receives joined to one "
		        "possible send each (dotted edges)\n", info.wildcard_matches);
	goal_sched_close(&s);
	return status;
}

/* The critical path of --critical-path into *path (*npath links; none
 * without it).  Returns 0, or the exit status after the message. */
static int read_path(const struct cli *cl, tl_link **path, size_t *npath)
{
	char err[1024];
	if (!cl->cpath)
		return 0;
	FILE *pf = fopen(cl->cpath, "r");
	if (!pf)
		return cannot_open(cl->cpath);
	int prc = tl_path_read(pf, cl->cpath, path, npath, err, sizeof err);
	fclose(pf);
	return prc ? util_error_msg(err) : 0;
}

static const char *op_label(void *labels, uint64_t rank, uint64_t op)
{
	return goal_labels_get(labels, rank, op);
}

/* The timeline fin (called name) as trace JSON with the critical path,
 * streamed: read a line, write its events, its slices named by the labels
 * of s (NULL: none).  Returns the exit status. */
static int to_json(const struct cli *cl, FILE *fin, const char *name, const char *const *ins,
                   const tl_link *path, size_t npath, const goal_sched *s)
{
	char err[1024];
	int status = 0;
	gv_out g;
	goal_labels *labels = s ? goal_labels_new(s) : NULL;
	if (s && !labels)
		return util_error("out of memory");
	if (out_begin(&g, cl->out, ins, 3, NULL, NULL, fmt_name[cl->f])) {
		goal_labels_free(labels);
		return 1;
	}
	static char obuf[1 << 20];
	setvbuf(g.f, obuf, _IOFBF, sizeof obuf);
	tl_json_opts jo = { cl->w.from, cl->w.to, cl->rg, cl->nrg, NULL, s ? op_label : NULL, labels };
	tl_json_info ji;
	if (tl_json_convert(fin, name, g.f, &jo, &ji, err, sizeof err))
		status = util_error_msg(err);
	else if (s && ji.nranks != s->nranks)
		status = util_error("%s: the timeline has %" PRIu64 " ranks, the schedule %s %" PRIu64
		                    ": --labels needs the schedule it was simulated from", name,
		                    ji.nranks, cl->labels, s->nranks);
	else if (!ji.events && !npath)
		status = empty_selection(name, cl->ranks, &cl->w, ji.nranks, ji.tmax);
	else if (tl_json_path(g.f, path, npath))
		status = util_error("write error on %s", cl->out ? cl->out : "standard output");
	if (out_end(&g, !status))
		status = 1;
	goal_labels_free(labels);
	return status;
}

/* Timeline tl (called name) drawn as SVG or dot, or through Graphviz,
 * with the critical path and notes on what was left out.  Returns the
 * exit status. */
static int draw_timeline(const struct cli *cl, const tl_file *tl, const char *name,
                         const char *const *ins, const tl_link *path, size_t npath)
{
	enum fmt f = cl->f;
	int status = 0;
	if (!tl->nbars && !tl->nmsgs && !tl->nloads && !npath &&
	    (status = empty_selection(name, cl->ranks, &cl->w, tl->nranks, tl->tmax)))
		return status;
	char notes[1024];
	viz_render_notes(tl, notes, sizeof notes);
	for (char *p = notes, *nl; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		fprintf(stderr, "goalviz: note: %.*s\n", (int)(nl - p), p);
	}
	viz_render_opts ro = { cl->width, strcmp(cl->in, "-") == 0 ? NULL : cl->in, path, npath };
	gv_out g;
	if (out_begin(&g, cl->out, ins, 2, f == FMT_PNG || f == FMT_PDF ? "neato" : NULL, "-n2",
	              fmt_name[f]))
		return 1;
	int rc = f == FMT_SVG ? viz_render_svg(tl, &ro, g.f) : viz_render_dot(tl, &ro, g.f);
	if (rc) {
		status = util_error("write error on %s", cl->out ? cl->out : "standard output");
	}
	if (out_end(&g, !status))
		status = 1;
	return status;
}

/* The timeline of cl->in (or standard input) converted or drawn.  Returns
 * the exit status. */
static int timeline(const struct cli *cl, const tl_link *path, size_t npath)
{
	const char *in = cl->in;
	const char *ins[] = { in, cl->cpath, cl->labels };
	const char *name = strcmp(in, "-") == 0 ? "<stdin>" : in;
	char err[1024];
	int status;
	FILE *fin = strcmp(in, "-") == 0 ? stdin : fopen(in, "r");
	if (!fin)
		return cannot_open(in);
	if (cl->f == FMT_JSON) {
		goal_sched s;
		if (cl->labels && goal_sched_open_any(&s, cl->labels, stderr, err, sizeof err)) {
			status = util_error_msg(err);
		} else {
			status = to_json(cl, fin, name, ins, path, npath, cl->labels ? &s : NULL);
			if (cl->labels)
				goal_sched_close(&s);
		}
		if (fin != stdin)
			fclose(fin);
		return status;
	}
	tl_file tl;
	int rc = tl_read(&tl, fin, name, &cl->w, err, sizeof err);
	if (fin != stdin)
		fclose(fin);
	status = rc ? util_error_msg(err) : draw_timeline(cl, &tl, name, ins, path, npath);
	tl_free(&tl);
	return status;
}

int main(int argc, char **argv)
{
	struct cli cl;
	int status;
	util_set_prog("goalviz");
	if ((status = cli_parse(&cl, argc, argv)) >= 0 || (status = cli_check(&cl)) >= 0) {
		free(cl.rg);
		return status;
	}
	if (cl.schedule) {
		status = draw_schedule(&cl);
	} else {
		/* The critical path, small, first: then the timeline, once. */
		tl_link *path = NULL;
		size_t npath = 0;
		status = read_path(&cl, &path, &npath);
		if (!status)
			status = timeline(&cl, path, npath);
		tl_path_free(path, npath);
	}
	free(cl.rg);
	return status;
}
