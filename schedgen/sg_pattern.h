/* sg_pattern.h: the schedules schedgen generates: collective algorithms and
 * communication patterns, one rank at a time, with benchmark loops around
 * them.  docs/patterns.md says what each rank does in each round. */
#ifndef SG_PATTERN_H
#define SG_PATTERN_H

#include "num.h"
#include "sg_out.h"

#include <stddef.h>
#include <stdint.h>

/* What a pattern reads from sg_params besides nranks and size. */
#define SG_USES_ROOT    0x1u
#define SG_USES_SEGMENT 0x2u
#define SG_USES_NWAY    0x4u
#define SG_USES_FANIN   0x8u
/* Not an option: a rank sends or receives P - 1 messages a call (linear
 * in P), so a large P is slow to simulate. */
#define SG_LINEAR       0x10u
/* Reads fanout (Open MPI's chains), radix (its k-nomial tree). */
#define SG_USES_FANOUT  0x20u
#define SG_USES_RADIX   0x40u
/* Reduces: --gamma charges its local reduction steps. */
#define SG_REDUCES      0x80u
/* Reads channels and protocol (NCCL's patterns). */
#define SG_USES_NCCL    0x100u
/* Reads ranks_per_node (nodes of ranks: NCCL's trees, its channels' orders). */
#define SG_USES_NODES   0x200u
/* Needs nodes of equal size: nranks a multiple of ranks_per_node (HAN). */
#define SG_EQUAL_NODES  0x400u

/* Most channels of NCCL's patterns (its MAXCHANNELS). */
#define SG_MAX_CHANNELS 64

/* NCCL's protocols: their chunks, slices and wire bytes (sg_nccl.c). */
typedef enum sg_protocol { SG_PROTO_SIMPLE, SG_PROTO_LL, SG_PROTO_LL128, SG_NPROTOCOLS } sg_protocol;
extern const char *const sg_protocol_name[SG_NPROTOCOLS];

typedef struct sg_params {
	uint64_t nranks;     /* P >= 1 */
	uint64_t size;       /* bytes (meaning per pattern: docs/patterns.md) */
	uint64_t root;       /* < P */
	uint64_t segment;    /* segment size in bytes; 0: unsegmented */
	uint64_t nway;       /* n-way dissemination: messages per round (>= 1) */
	uint64_t fanin;      /* combining tree barrier: children per node (>= 1) */
	uint64_t fanout;     /* Open MPI's chains: chains below the root (1..32) */
	uint64_t radix;      /* Open MPI's k-nomial tree: radix (2..256) */
	uint64_t iterations; /* the collective this many times, back to back (>= 1) */
	int rotate_root;     /* iteration i uses root (root + i) mod P */
	int sync;            /* a dissemination barrier between iterations */
	int nb;              /* nonblocking: overlap nb_time ns of computation */
	uint64_t nb_time;    /* ns of computation per iteration */
	uint64_t nb_poll;    /* split the computation in pieces of this many ns (0: one) */
	uint16_t cpu;        /* cpu of that computation */
	uint32_t stride;     /* every message of at least one byte is strided:
	                        blocks of block bytes, stride apart (0: contiguous) */
	uint32_t block;
	int noncommutative;  /* the reduction does not commute: the picks of
	                        Open MPI's that composites run use its rules for
	                        that (sg_select) */
	num_dec gamma;       /* ns per byte of a local reduction: every step that
	                        reduces n bytes costs a calc of gamma * n ns
	                        (rounded half up); 0: no calc */
	uint64_t channels;   /* NCCL's patterns: channels, 1..SG_MAX_CHANNELS (0: 1) */
	sg_protocol protocol; /* NCCL's patterns: the protocol */
	uint64_t ranks_per_node; /* NCCL's tree: ranks r / K on one node (0: 1) */
} sg_params;

/* The defaults of the published schedgen: P 8, 1 byte, root 0, one
 * iteration; unsegmented, nway 1, fan-in 2; contiguous (block 8 when a
 * stride is given); and Open MPI's: 4 chains, radix 4. */
void sg_params_default(sg_params *p);

typedef struct sg_pattern_info {
	const char *name;     /* canonical name */
	const char *aliases;  /* space-separated other names ("" if none) */
	unsigned uses;        /* SG_USES_* */
	const char *summary;  /* one line */
} sg_pattern_info;

/* The patterns, in the order --list prints them. */
size_t sg_npatterns(void);
const sg_pattern_info *sg_pattern(size_t i);

/* The index of the pattern called name (canonical or alias, ASCII case
 * ignored), or -1. */
int sg_pattern_find(const char *name);

/* Check p for pattern i.  Returns 0, or -1 with a message (no prefix, e.g.
 * "the root 9 is not a rank (0..7)") in err. */
int sg_params_check(size_t i, const sg_params *p, char *err, size_t errlen);

/* Generate pattern i with parameters p (checked) into o, which must be open
 * for p->nranks ranks.  progress (may be NULL) is called every 65536 ranks
 * with the number of ranks done.  Memory: O(ops of one rank).  Returns 0,
 * or -1 with a message in err.  Does not close o. */
int sg_generate(size_t i, const sg_params *p, sg_out *o,
                void (*progress)(void *ctx, uint64_t done), void *ctx,
                char *err, size_t errlen);

/* Generate only rank r (< p->nranks) of pattern i with parameters p
 * (checked) into o, inside the rank the caller has begun (typically an
 * SG_SINK output): the same ops and dependencies sg_generate writes for
 * rank r.  Returns 0, or -1 with a message in err. */
int sg_generate_rank(size_t i, const sg_params *p, uint64_t r, sg_out *o,
                     char *err, size_t errlen);

/* NCCL's chunk of p->protocol (data bytes a ring step moves at most),
 * and the bytes on the wire of n data bytes (LL: 8 for 4, LL128: 128 for
 * 120, Simple: n). */
uint64_t sg_nccl_chunk(const sg_params *p);
uint64_t sg_nccl_wire(const sg_params *p, uint64_t n);

/* The number of distinct tags pattern i uses with parameters p (tags
 * 0..n-1; saturates at UINT64_MAX), 0 for an unknown pattern. */
uint64_t sg_pattern_tags(size_t i, const sg_params *p);

#endif
