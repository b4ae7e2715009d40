/* fuzz_sweep.c: libFuzzer target for loggopsim's sweep specifications
 * (loggopsim/sweep.h): every input is read as a sweep file (from memory; a set's
 * params=FILE reads that file: fuzz-sweep.params, two size ranges, is
 * written into the current folder at the start) and as the compact
 * cartesian form.  The parameters of every set are formed; a sweep of at
 * most 1000 sets is also written as CSV, table and SVG into /dev/null with
 * made-up results.  Any input must give errors or success, never a crash,
 * a leak or a hang. */
#include "sweep.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static FILE *devnull;

/* Forms the parameters of every set and writes the outputs. */
static void use(const sweep *sw)
{
	sim_pset base, ps;
	char err[512], v[64];
	sim_pset_default(&base);
	for (size_t i = 0; i < sw->n; i++)
		if (sweep_set_params(sw, i, &base, &ps, err, sizeof err) == 0)
			for (int k = 0; k < SIM_NPARAMS; k++)
				sim_pset_value(&ps, (sim_pname)k, v, sizeof v);
	if (sw->n > 1000)
		return;
	sweep_result *res = calloc(sw->n, sizeof *res);
	goal_sched s;
	if (!res)
		abort();
	memset(&s, 0, sizeof s);
	s.nranks = 4;
	for (size_t i = 0; i < sw->n; i++) {
		res[i].status = (sweep_status)(i % 4);
		res[i].time = (i * 7919) % 1000;
		res[i].host = i % 4;
		res[i].events = i;
		res[i].wall = 0.001 * (double)i;
	}
	long b = sw->n > 1 ? 1 : 0;
	sweep_write_csv(devnull, &s, &base, sw, res, b, 1);
	sweep_write_table(devnull, &s, &base, sw, res, -1);
	sweep_write_svg(devnull, &s, "fuzz.bin", &base, sw, res, b, sw->set[0].name);
	sweep_write_svg(devnull, &s, "fuzz.bin", &base, sw, res, b, NULL);
	free(res);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	sweep sw;
	char err[1024];

	if (!devnull) {
		FILE *p = fopen("fuzz-sweep.params", "w");
		if (p) {
			fputs("loggp-params 1\nS 65535\n"
			      "range 0 256 L=0 o=96 g=87 G=0.091115 O=0.0033\n"
			      "range 257 inf L=39 o=2069 g=1976 G=0.069616 O=0.073073\n", p);
			fclose(p);
		}
		devnull = fopen("/dev/null", "w");
		if (!devnull)
			abort();
	}

	memset(&sw, 0, sizeof sw);
	if (sweep_parse_file("fuzz.sweep", (const char *)data, size, &sw, err, sizeof err) == 0) {
		if (sw.n == 0)
			abort();
		use(&sw);
	} else if (strncmp(err, "fuzz.sweep:", 11) != 0 || !strstr(err, "error: ")) {
		abort();
	}
	sweep_free(&sw);

	char *spec = malloc(size + 1);
	if (!spec)
		abort();
	memcpy(spec, data, size);
	spec[size] = 0;
	memset(&sw, 0, sizeof sw);
	err[0] = 0;
	if (sweep_parse_compact(spec, &sw, err, sizeof err) == 0) {
		if (sw.n == 0 || sw.n > SWEEP_MAX_SETS)
			abort();
		use(&sw);
	} else if (!err[0]) {
		abort();
	}
	sweep_free(&sw);
	free(spec);
	return 0;
}
