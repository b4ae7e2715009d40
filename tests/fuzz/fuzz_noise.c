/* fuzz_noise.c: libFuzzer target for noise traces and synthetic noise specs
 * (perturb/noise.h): every input is read as a noise trace (from memory), and a
 * short input that starts like a spec as a --noise spec.  For a table it
 * accepts, the end of a few activities is computed under both rules and
 * checked: never before t + d; each rule's end is t + d plus the detours
 * that sim_noise_each reports for it; the exact rule's is never before the
 * published rule's.  Any input must give errors or success, never a
 * crash, a leak, a hang or a broken invariant. */
#include "noise.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static void add(void *ctx, uint64_t s, uint64_t e)
{
	uint64_t *sum = ctx;
	if (e < s)
		abort();
	sum[0] += e - s;
	sum[1]++;
}

/* Checks the ends of activities (t, d) at offsets drawn from the input. */
static void check(const sim_noise *z, const unsigned char *data, size_t size)
{
	uint64_t h = 1469598103934665603u;
	for (size_t i = 0; i < size; i++)
		h = (h ^ data[i]) * 1099511628211u;
	for (int k = 0; k < 8; k++) {
		uint64_t t = h % 100000, d = (h >> 20) % 50000, off = (h >> 40) % 1000000, ex, pu;
		uint64_t sum[2] = { 0, 0 };
		h = h * 6364136223846793005u + 1442695040888963407u;
		if (k == 7)
			t = UINT64_MAX - d / 2; /* overflow must be reported, not wrapped */
		int re = sim_noise_end(z, SIM_NOISE_EXACT, off, t, d, &ex);
		int rp = sim_noise_end(z, SIM_NOISE_PUBLISHED, off, t, d, &pu);
		if (re || rp) {
			if (k != 7 && d <= UINT64_MAX - t && sim_noise_count(z) == 0)
				abort();
			continue;
		}
		if (ex < t + d || pu < t + d || ex < pu)
			abort();
		sim_noise_each(z, SIM_NOISE_EXACT, off, t, d, ex, 100000, add, sum);
		if (sum[1] < 100000 && ex - t != d + sum[0])
			abort();
		sum[0] = sum[1] = 0;
		sim_noise_each(z, SIM_NOISE_PUBLISHED, off, t, d, pu, 100000, add, sum);
		if (sum[1] < 100000 && pu - t != d + sum[0])
			abort();
	}
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	char err[800];
	sim_noise *z = sim_noise_parse("fuzz.noise", (const char *)data, size, NULL, NULL, err,
	                               sizeof err);
	if (z) {
		check(z, data, size);
		sim_noise_free(z);
	}
	if (size < 64 && size > 8 && (memcmp(data, "periodic:", 9) == 0 ||
	                              memcmp(data, "poisson:", 8) == 0)) {
		char spec[64];
		memcpy(spec, data, size);
		spec[size] = 0;
		if (strlen(spec) == size && (z = sim_noise_synth(spec, err, sizeof err))) {
			check(z, data, size);
			sim_noise_free(z);
		}
	}
	return 0;
}
