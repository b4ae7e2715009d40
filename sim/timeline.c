/* timeline.c: writes the -V timeline lines with a small integer formatter
 * (printf is the cost of a timeline run otherwise). */
#include "timeline.h"

#include <inttypes.h>
#include <string.h>

static const char *const kind_word[SIM_TL_NKINDS] = {
#define SIM_TL_X(name, kw) kw,
	SIM_TL_KINDS(SIM_TL_X)
#undef SIM_TL_X
};

/* Append " " and the decimal digits of v at p; returns the new end. */
static char *put_u64(char *p, uint64_t v)
{
	char tmp[24];
	int n = 0;
	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	*p++ = ' ';
	while (n)
		*p++ = tmp[--n];
	return p;
}

void sim_tl_header(FILE *f, uint64_t nranks, uint64_t L, uint64_t o, uint64_t g,
                   const char *G, const char *O, uint64_t S, uint32_t ncpus,
                   uint32_t nnics)
{
	fprintf(f, "loggopsim-timeline 1 P %" PRIu64 " L %" PRIu64 " o %" PRIu64
	        " g %" PRIu64 " G %s O %s S %" PRIu64 " ncpus %" PRIu32
	        " nnics %" PRIu32 "\n", nranks, L, o, g, G, O, S, ncpus, nnics);
}

void sim_tl_interval(FILE *f, sim_tl_kind k, uint64_t rank, uint32_t unit,
                     uint64_t start, uint64_t end)
{
	char line[128], *p = line;
	size_t n = strlen(kind_word[k]);
	memcpy(p, kind_word[k], n);
	p += n;
	p = put_u64(p, rank);
	p = put_u64(p, unit);
	p = put_u64(p, start);
	p = put_u64(p, end);
	*p++ = '\n';
	fwrite(line, 1, (size_t)(p - line), f);
}

void sim_tl_transmission(FILE *f, uint64_t src, uint64_t dst, uint64_t start,
                         uint64_t arrival, uint64_t size)
{
	char line[160], *p = line;
	memcpy(p, "transmission", 12);
	p += 12;
	p = put_u64(p, src);
	p = put_u64(p, dst);
	p = put_u64(p, start);
	p = put_u64(p, arrival);
	p = put_u64(p, size);
	*p++ = '\n';
	fwrite(line, 1, (size_t)(p - line), f);
}
