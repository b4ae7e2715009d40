/* sg_select.h: the algorithm an MPI library runs for a collective, by the
 * communicator's size P and the bytes of the call: Open MPI 4.1's fixed
 * decision rules (coll/tuned, coll_tuned_decision_fixed.c) and MPICH
 * 4.0.2's selection (coll_selection.json, on a flat communicator), each
 * algorithm as a schedgen pattern.  docs/patterns.md cites the rules. */
#ifndef SG_SELECT_H
#define SG_SELECT_H

#include "sg_pattern.h"

#include <stddef.h>
#include <stdint.h>

/* What the library runs. */
typedef struct sg_choice {
	const char *pattern;   /* the schedgen pattern (sg_pattern_find) */
	unsigned alg;          /* Open MPI's number (coll_tuned_COLL_algorithm);
	                          MPICH's, which names them only: its place in
	                          the class's list, from 1 */
	const char *name;      /* the library's name of it ("rabenseifner",
	                          MPIR_CVAR_COLL_INTRA_ALGORITHM's "ring") */
	uint64_t fanout;       /* chains of a chain algorithm, else 0 */
	int protocol;          /* NCCL: the sg_protocol of the pick */
	uint64_t channels;     /* NCCL: its channels */
	char why[480];         /* the rule that chose it, any fallback, what it
	                          runs (when asked to explain; else empty) */
} sg_choice;

/* The collective classes sg_select knows of Open MPI, space-separated
 * (MPICH's are fewer: an error names them). */
extern const char sg_select_classes[];

/* The algorithm library lib ("openmpi", "mpich") runs for collective class cls
 * ("allreduce", ...) on P ranks, size bytes (what the call names on each
 * rank: the whole buffer of bcast, reduce and allreduce; one block of
 * allgather, alltoall, gather and scatter; the block every rank receives
 * of reduce_scatter_block and reduce_scatter, all ranks alike, whose rules
 * compare P x size; barrier's rules ignore it; an element a byte), root 0,
 * a commutative operation unless flags has SG_SELECT_NONCOMMUTATIVE: its own choice when
 * alg is 0, else its algorithm alg; out->why says why when flags has
 * SG_SELECT_EXPLAIN (the picks of a trace's every call need not format
 * it).  Returns 0, or -1 with a message in err (unknown library, class or
 * algorithm, with the valid ones; a non-commutative operation MPICH runs
 * an algorithm for that is not a pattern). */
int sg_select(const char *lib, const char *cls, uint64_t P, uint64_t size, unsigned alg,
              unsigned flags, sg_choice *out, char *err, size_t errlen);

/* sg_select's flags. */
#define SG_SELECT_EXPLAIN        0x1u  /* fill out->why */
#define SG_SELECT_NONCOMMUTATIVE 0x2u  /* the operation does not commute: the
                                          library's rules and fallbacks for it */

/* The pattern Open MPI's broadcast bcast (an sg_select of class "bcast")
 * runs on a count of one element of a derived datatype, as its default
 * allgatherv calls it: unsegmented, and the algorithms that split the
 * count fall back (the split binary tree to its pipeline, the
 * scatter-allgathers to the linear broadcast). */
const char *sg_select_one_element(const sg_choice *bcast);

/* The number of the algorithm called name ("rabenseifner", as
 * coll_tuned_COLL_algorithm's names; MPICH's as its variables name them)
 * of class cls in library lib into *alg.  Returns 0, or -1 with a message
 * in err naming the valid numbers and names. */
int sg_select_alg(const char *lib, const char *cls, const char *name, unsigned *alg, char *err,
                  size_t errlen);

/* What a pick sets in p: its fan-out (chain algorithms), NCCL's protocol
 * and channels; those named in given (SG_GIVEN_*: the user gave them)
 * stay as they are. */
#define SG_GIVEN_FANOUT   0x1u
#define SG_GIVEN_PROTOCOL 0x2u
#define SG_GIVEN_CHANNELS 0x4u
void sg_choice_apply(const sg_choice *ch, sg_params *p, unsigned given);

/* The GPUs and links NCCL's tuning model reads (its graphs' channels and
 * bandwidths as NCCL_DEBUG=INFO prints them: "nChannels 8, bw 40/24, type
 * NVL/PIX").  The defaults (sg_nccl_system_default) are an example
 * system: 8 channels, 40 GB/s a channel within a node and 24 across, SM
 * 80, Intel CPUs, NVLink, LL128 on, the same path on every channel. */
typedef struct sg_nccl_system {
	unsigned channels;        /* the graphs' and the communicator's */
	double bw_intra, bw_inter; /* GB/s a channel */
	double lat_inter;         /* us a network hop adds (the graph's latencyInter) */
	unsigned sm;              /* compute capability: 70, 80, 90 */
	int amd, nvlink, ll128, same;
} sg_nccl_system;

void sg_nccl_system_default(sg_nccl_system *s);

/* "channels=8,bwintra=40,bwinter=24,latinter=0,sm=80,cpu=intel,
 * link=nvlink,ll128=1,same=1" (any subset) into *s.  Returns 0, or -1
 * with a message naming the keys in err. */
int sg_nccl_system_parse(const char *spec, sg_nccl_system *s, char *err, size_t errlen);

/* What NCCL runs for collective cls (bcast, reduce, allgather,
 * reduce_scatter, allreduce; size as sg_select takes it) on P ranks in
 * nodes of K: out's pattern, name ("ring", "tree"), protocol and
 * channels, and with SG_SELECT_EXPLAIN every time the model gives.
 * Returns 0, or -1 with a message in err (a class NCCL lacks). */
int sg_select_nccl(const sg_nccl_system *s, const char *cls, uint64_t P, uint64_t K, uint64_t size,
                   unsigned flags, sg_choice *out, char *err, size_t errlen);

#endif
