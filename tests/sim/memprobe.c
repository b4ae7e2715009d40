/* memprobe: how fast this machine reads cache lines in no order, the bound
 * on a simulation whose events touch rank state in no order (docs/noise.md,
 * "Speed").  Reads K lines per step at random places of an array of MB
 * mebibytes (on huge pages where the kernel allows), the lines of step
 * i + 32 prefetched at step i, and prints the nanoseconds per step and per
 * line.  Used by make bench; not installed.
 * Usage: mem-probe MB K STEPS */
#include "progress.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#define AHEAD 32

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: mem-probe MB K STEPS\n");
		return 2;
	}
	uint64_t mb = strtoull(argv[1], NULL, 10), k = strtoull(argv[2], NULL, 10);
	uint64_t steps = strtoull(argv[3], NULL, 10);
	if (!mb || mb > (1u << 20) || !k || k > 64 || !steps || steps > (1ull << 32)) {
		fprintf(stderr, "mem-probe: MB in 1..1048576, K in 1..64, STEPS in 1..2^32\n");
		return 2;
	}
	size_t bytes = (size_t)mb << 20, lines = bytes / 64;
	uint64_t *a = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint64_t *idx = malloc(steps * k * sizeof *idx);
	if (a == MAP_FAILED || !idx) {
		fprintf(stderr, "mem-probe: out of memory\n");
		return 1;
	}
#ifdef MADV_HUGEPAGE
	madvise(a, bytes, MADV_HUGEPAGE);
#endif
	for (size_t i = 0; i < bytes / 8; i += 8)
		a[i] = i;
	uint64_t x = 88172645463325252ull;   /* xorshift64: the same places each run */
	for (uint64_t i = 0; i < steps * k; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		idx[i] = x % lines * 8;
	}
	uint64_t sum = 0;
	double t0 = util_now();
	for (uint64_t s = 0; s < steps; s++) {
		if (s + AHEAD < steps)
			for (uint64_t j = 0; j < k; j++)
				__builtin_prefetch(&a[idx[(s + AHEAD) * k + j]]);
		for (uint64_t j = 0; j < k; j++)
			sum += a[idx[s * k + j]];
	}
	double t = util_now() - t0;
	volatile uint64_t sink = sum;   /* the loads are kept */
	(void)sink;
	printf("%" PRIu64 " MiB, %" PRIu64 " lines/step: %.1f ns/step, %.1f ns/line\n", mb, k,
	       t / (double)steps * 1e9, t / (double)(steps * k) * 1e9);
	munmap(a, bytes);
	free(idx);
	return 0;
}
