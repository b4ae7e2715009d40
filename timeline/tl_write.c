/* tl_write.c: writes the timeline lines with the integer formatter of
 * util.h (printf is the cost of a timeline run otherwise). */
#include "timeline.h"
#include "util.h"

#include <inttypes.h>
#include <string.h>

const char *const tl_kind_word[TL_NKINDS] = {
#define TL_X(name, kw, nic, legend, colour) kw,
	TL_KINDS(TL_X)
#undef TL_X
};
const char *const tl_kind_legend[TL_NKINDS] = {
#define TL_X(name, kw, nic, legend, colour) legend,
	TL_KINDS(TL_X)
#undef TL_X
};
const char *const tl_kind_colour[TL_NKINDS] = {
#define TL_X(name, kw, nic, legend, colour) colour,
	TL_KINDS(TL_X)
#undef TL_X
};
const unsigned char tl_kind_on_nic[TL_NKINDS] = {
#define TL_X(name, kw, nic, legend, colour) nic,
	TL_KINDS(TL_X)
#undef TL_X
};

void tl_write_header(FILE *f, uint64_t nranks, uint64_t S, uint32_t ncpus,
                     uint32_t nnics, const loggp_range *range, uint32_t nranges)
{
	fprintf(f, "loggopsim-timeline %d P %" PRIu64 " S %" PRIu64 " ncpus %" PRIu32
	        " nnics %" PRIu32 " ranges %" PRIu32 "\n", TL_VERSION, nranks, S, ncpus,
	        nnics, nranges);
	for (uint32_t i = 0; i < nranges; i++) {
		const loggp_range *r = &range[i];
		char G[NUM_DEC_TEXT], O[NUM_DEC_TEXT];
		num_dec_format(r->G, G, sizeof G);
		num_dec_format(r->O, O, sizeof O);
		fprintf(f, "range %" PRIu64, r->first);
		if (r->last == LOGGP_SIZE_INF)
			fputs(" inf", f);
		else
			fprintf(f, " %" PRIu64, r->last);
		fprintf(f, " L %" PRIu64 " o %" PRIu64 " g %" PRIu64 " G %s O %s\n",
		        r->L, r->o, r->g, G, O);
	}
}

/* The line "WORD V0 V1 ... V(n-1)\n". */
static void put_line(FILE *f, const char *word, const uint64_t *v, int n)
{
	char line[256], *p = line;
	size_t k = strlen(word);
	memcpy(p, word, k);
	p += k;
	for (int i = 0; i < n; i++) {
		*p++ = ' ';
		p = util_put_u64(p, v[i]);
	}
	*p++ = '\n';
	fwrite(line, 1, (size_t)(p - line), f);
}

void tl_write_interval(FILE *f, tl_kind k, uint64_t rank, uint32_t unit,
                       uint64_t start, uint64_t end)
{
	const uint64_t v[] = { rank, unit, start, end };
	put_line(f, tl_kind_word[k], v, 4);
}

void tl_write_loclop(FILE *f, uint64_t rank, uint32_t cpu, uint64_t start, uint64_t end,
                     uint32_t op)
{
	const uint64_t v[] = { rank, cpu, start, end, op };
	put_line(f, tl_kind_word[TL_LOCLOP], v, 5);
}

void tl_write_orecv(FILE *f, uint64_t rank, uint32_t cpu, uint64_t start,
                    uint64_t end, uint64_t src, uint32_t op)
{
	const uint64_t v[] = { rank, cpu, start, end, src, op };
	put_line(f, tl_kind_word[TL_ORECV], v, 6);
}

void tl_write_transmission(FILE *f, uint64_t src, uint64_t dst, uint64_t start,
                           uint64_t depart, uint64_t arrival, uint64_t size,
                           uint32_t op, uint32_t cpu, uint32_t nic)
{
	const uint64_t v[] = { src, dst, start, depart, arrival, size, op, cpu, nic };
	put_line(f, "transmission", v, 9);
}

void tl_write_link(FILE *f, uint32_t link, uint64_t start, uint64_t end, uint32_t flows,
                   uint64_t bytes)
{
	const uint64_t v[] = { link, start, end, flows, bytes };
	put_line(f, "link", v, 5);
}

void tl_write_job(FILE *f, const char *name, uint64_t start, const uint32_t *ranks, uint32_t n)
{
	unsigned runs = TL_JOB_RUNS;
	for (uint32_t i = 0; i < n; runs++) {
		if (runs == TL_JOB_RUNS) {
			fprintf(f, "%sjob %s %" PRIu64, i ? "\n" : "", name, start);
			runs = 0;
		}
		uint32_t e = i;
		while (e + 1 < n && ranks[e + 1] == ranks[e] + 1)
			e++;
		if (e > i)
			fprintf(f, " %" PRIu32 "-%" PRIu32, ranks[i], ranks[e]);
		else
			fprintf(f, " %" PRIu32, ranks[i]);
		i = e + 1;
	}
	fputc('\n', f);
}
