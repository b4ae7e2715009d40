/* loggp_fit_main.c: loggp-fit, the LogGP estimator on a PRTT table (measured or simulated). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "die.h"
#include "loggp_raw.h"
#include "loggp_report.h"
#include "out.h"
#include "version.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: loggp-fit [options] TABLE\n"
		"       loggp-fit --check PARAMS\n"
		"\n"
		"Fit LogGP parameters (o, O, g, G, L per protocol range) to a table of\n"
		"parametrised round-trip times PRTT(n,d,s) ('loggp-prtt 1', as written by\n"
		"loggp-measure --raw, or computed by a simulation), print the table and\n"
		"the parameters, and write the parameter file (docs/loggp.md).\n"
		"\n"
		"options:\n"
		"  -o, --output FILE     write the parameter file to FILE ('-': stdout)\n"
		"%s"
		"      --check PARAMS    read the parameter file PARAMS, print it again in\n"
		"                        the normal form, or its first error\n"
		"  -h, --help            this help\n"
		"      --version         the version and the commit it was built from\n"
		"\n"
		"Example: loggp-fit shm.prtt -o shm.params\n"
		"Exit status: 0 success, 1 bad table or write error, 2 bad options.\n",
		loggp_detect_help);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "pfact", required_argument, NULL, LOGGP_OPT_PFACT },
		{ "lookahead", required_argument, NULL, LOGGP_OPT_LOOKAHEAD },
		{ "floor", required_argument, NULL, LOGGP_OPT_FLOOR },
		{ "rel-floor", required_argument, NULL, LOGGP_OPT_RELFLOOR },
		{ "no-detect", no_argument, NULL, LOGGP_OPT_NODETECT },
		{ "check", required_argument, NULL, 'c' },
		{ "version", no_argument, NULL, UTIL_OPT_VERSION },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	util_set_prog("loggp-fit");
	loggp_detect det;
	loggp_detect_default(&det);
	const char *output = NULL, *check = NULL;
	uint64_t S = LOGGP_DEFAULT_S;
	char err[LOGGP_ERRLEN];
	int c;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:S:h", longopts, NULL)) != -1) {
		int r = loggp_detect_option(c, optarg, &det, err, sizeof err);
		if (r < 0)
			return util_usage("%s", err);
		if (r > 0)
			continue;
		switch (c) {
		case 'o':
			output = optarg;
			break;
		case 'S':
			if (loggp_arg_size(optarg, 0, UINT64_MAX - 1, &S))
				return util_usage("-S: expected a byte count, got '%s'", optarg);
			break;
		case 'c':
			check = optarg;
			break;
		case UTIL_OPT_VERSION: return util_version(NULL);
		case 'h':
			usage(stdout);
			return 0;
		default:  /* ':' or '?' */
			return util_usage_option(c, argv);
		}
	}
	if (check) {
		static loggp_params par;
		if (optind != argc)
			return util_usage("--check takes no TABLE");
		if (loggp_params_read(check, &par, err))
			return util_error_msg(err);
		if (loggp_params_write(stdout, &par, NULL) || util_stdout_close(err, LOGGP_ERRLEN))
			return util_error("write failed on standard output");
		return 0;
	}
	if (optind != argc - 1)
		return util_usage("%s", optind == argc ? "missing TABLE" : "more than one TABLE");
	unsigned n;
	loggp_point *pts;
	loggp_spoint *spts;
	size_t np, nsp;
	if (output && util_out_check(output, (const char *const *)&argv[optind], 1, err, sizeof err))
		return util_error_msg(err);
	if (loggp_raw_read(argv[optind], &n, &pts, &np, &spts, &nsp, err))
		return util_error_msg(err);
	char comment[600];
	snprintf(comment, sizeof comment, "fitted by loggp-fit from %s", argv[optind]);
	int rc = loggp_report(output && strcmp(output, "-") == 0 ? stderr : stdout, stderr,
	                      pts, np, n, spts, nsp, &det, S, output, comment, NULL, err,
	                      sizeof err);
	free(pts);
	free(spts);
	if (rc)
		return util_error_msg(err);
	return util_stdout_close(err, LOGGP_ERRLEN) ? util_error_msg(err) : 0;
}
