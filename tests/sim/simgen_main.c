/* simgen_main.c: sim-gen KIND P SIZE OUT [K] writes a benchmark schedule
 * (KIND binomial, dissemination, scatter, or incast with K messages per
 * rank, default 1; see simgen.h). */
#include "simgen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	char err[512];
	int rc;
	if (argc != 5 && !(argc == 6 && strcmp(argv[1], "incast") == 0)) {
		fprintf(stderr, "usage: sim-gen binomial|dissemination|scatter|incast P SIZE OUT [K]\n");
		return 2;
	}
	uint64_t P = strtoull(argv[2], NULL, 10), size = strtoull(argv[3], NULL, 10);
	if (strcmp(argv[1], "binomial") == 0)
		rc = simgen_binomial(argv[4], P, size, err, sizeof err);
	else if (strcmp(argv[1], "dissemination") == 0)
		rc = simgen_dissemination(argv[4], P, size, err, sizeof err);
	else if (strcmp(argv[1], "scatter") == 0)
		rc = simgen_scatter(argv[4], P, size, err, sizeof err);
	else if (strcmp(argv[1], "incast") == 0)
		rc = simgen_incast(argv[4], P, argc == 6 ? strtoull(argv[5], NULL, 10) : 1, 0, 0, size,
		                   err, sizeof err);
	else {
		fprintf(stderr, "sim-gen: error: unknown kind '%s'\n", argv[1]);
		return 2;
	}
	if (rc) {
		fprintf(stderr, "sim-gen: error: %s\n", err);
		return 1;
	}
	return 0;
}
