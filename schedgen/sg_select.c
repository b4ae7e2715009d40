/* sg_select.c: Open MPI 4.1's and MPICH 4.0.2's choice of collective
 * algorithm (sg_select.h).
 *
 * The rules are rows { P below, bytes below, algorithm } (0: no bound), in
 * the order of coll_tuned_decision_fixed.c's if-chains (or of MPICH's
 * JSON tree, flattened): the first row that holds picks, as the chain
 * does.  Each class's algorithms are numbered as coll_tuned_COLL_algorithm
 * numbers them (MPICH's in the order of its list); with a commutative
 * operation, and nc_rules for a non-commutative one. */
#include "sg_select.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

typedef struct sg_rule {
	uint32_t pmax, smax;   /* P < pmax and bytes < smax (0: any) */
	uint8_t alg;           /* with MPICH's further tests in its high bits: */
} sg_rule;
#define SG_POW2       0x40u  /* and P is a power of two */
#define SG_BELOW_POF2 0x80u  /* bytes < 2^floor(log2 P) instead of smax */
#define SG_ALG(r)     ((unsigned)(r)->alg & 0x3fu)

/* An algorithm of a class: its number and name in Open MPI, the pattern
 * that is it, the chains it builds when forced (its coll_tuned default)
 * and when the fixed rules pick it (they pass fan-out 0: one chain), what
 * it falls back to for P ranks and s bytes (NULL: nothing), and the
 * classes whose own picks it runs (NULL: none), runs[i] on all P blocks
 * (P x s bytes) when bit i of all_p is set. */
typedef struct sg_alg {
	unsigned alg;
	const char *name, *pattern;
	uint8_t fanout_forced, fanout_fixed;
	const char *(*falls)(uint64_t P, uint64_t s);
	const char *runs[2];
	int all_p;
	/* Explains what it runs for P ranks and s bytes when runs cannot: adds
	 * to the n bytes at b (NULL: nothing). */
	void (*explain)(uint64_t P, uint64_t s, char *b, size_t n);
} sg_alg;

typedef struct sg_class {
	const char *name, *func;   /* the class, its decision function */
	const sg_rule *rules;
	size_t nrules;
	const sg_rule *nc_rules;   /* for a non-commutative operation (NULL: the same) */
	size_t nc_nrules;
	const sg_alg *algs;
	size_t nalgs;
	int all_p;   /* the rules compare the bytes of all P blocks (P x s) */
	/* NULL: func is coll/tuned's fixed decision; else coll/tuned leaves the
	 * class to coll/basic without dynamic rules, and this says what
	 * coll/basic's func runs (the rules are one row: that algorithm). */
	const char *basic;
	const char *note;          /* added to the explanation of a pick (NULL: none) */
	const char *nc_missing;    /* a non-commutative operation's algorithms,
	                              which are not here (NULL: nc_rules) */
} sg_class;

/* A library: its classes, where its rules are, how a pick is forced. */
typedef struct sg_lib {
	const char *name, *title, *source;
	const char *forced[2];   /* the variable that forces an algorithm: around the class */
	int numbered;            /* Open MPI numbers its algorithms (MPICH names
	                            them only, in upper-case variables) */
	const sg_class *classes;
	size_t nclasses;
	const char *class_names;
} sg_lib;

static uint64_t pof2(uint64_t P)
{
	uint64_t p = 1;
	while (p <= P / 2)
		p <<= 1;
	return p;
}

static const char *below_ranks_recdoub(uint64_t P, uint64_t s)
{
	return s < P ? "fewer bytes than ranks: Open MPI runs its recursive doubling instead" : NULL;
}
static const char *below_pof2_linear(uint64_t P, uint64_t s)
{
	return s < pof2(P) ? "fewer bytes than the largest power of two of ranks: Open MPI "
	                     "runs its linear algorithm instead" : NULL;
}
static const char *below_ranks_linear(uint64_t P, uint64_t s)
{
	return s < P ? "fewer bytes than ranks: Open MPI runs its linear broadcast instead" : NULL;
}

static const char *same_as_linear(uint64_t P, uint64_t s)
{
	(void)P;
	(void)s;
	return "its messages are those of the linear algorithm, all posted at once";
}
static const char *two_ranks(uint64_t P, uint64_t s)
{
	(void)s;
	return P == 2 ? NULL : "Open MPI runs it for two ranks; the pattern exchanges as on two";
}

static const char *below_two_pipeline(uint64_t P, uint64_t s)
{
	(void)P;
	return s < 2 ? "fewer than 2 bytes: Open MPI runs its pipeline instead" : NULL;
}

static const char *basic_scatterv(uint64_t P, uint64_t s)
{
	(void)P;
	(void)s;
	return "its scatterv is coll/basic's linear one (coll/tuned has none)";
}

static const char *pof2_butterfly(uint64_t P, uint64_t s)
{
	(void)s;
	return P > 1 && (P & (P - 1)) == 0 ? "P is a power of two: Open MPI runs its "
	                                     "butterfly_pof2 variant, as the pattern does" : NULL;
}

/* The rules, as coll_tuned_decision_fixed.c has them. */
/* For non-commutative operations (the first branch of the decision
 * functions); the reduce-scatters then always run algorithm 1. */
static const sg_rule allreduce_nc_rules[] = {
	{ 4, 131072, 3 }, { 4, 0, 1 }, { 8, 0, 3 }, { 16, 1048576, 3 }, { 16, 0, 2 }, { 128, 0, 3 },
	{ 256, 131072, 2 }, { 256, 524288, 3 }, { 256, 0, 2 }, { 512, 4096, 2 }, { 512, 524288, 3 },
	{ 512, 0, 2 }, { 0, 2048, 2 }, { 0, 0, 3 }
};
static const sg_rule reduce_nc_rules[] = {
	{ 4, 8, 6 }, { 4, 0, 1 }, { 8, 0, 1 }, { 16, 1024, 6 }, { 16, 8192, 1 }, { 16, 16384, 6 },
	{ 16, 262144, 1 }, { 16, 0, 6 }, { 128, 0, 6 }, { 256, 512, 6 }, { 256, 1024, 1 }, { 256, 0, 6 },
	{ 0, 0, 6 }
};
static const sg_rule reduce_scatter_block_nc_rules[] = { { 0, 0, 1 } };
static const sg_rule reduce_scatter_nc_rules[] = { { 0, 0, 1 } };

/* The algorithms that check for a commutative operation, and the one Open
 * MPI runs instead (their own check, in coll_base_*.c). */
static const struct {
	const char *cls;
	unsigned alg;
	const char *pattern;
} nc_fallbacks[] = {
	{ "allreduce", 6, "allreduce_linear" },
	{ "reduce", 7, "reduce_linear" },
	{ "reduce_scatter_block", 3, "reduce_scatter_block_linear" },
};

static const sg_rule allreduce_rules[] = {
	{ 4, 8, 4 }, { 4, 4096, 3 }, { 4, 8192, 4 }, { 4, 16384, 3 }, { 4, 65536, 4 },
	{ 4, 262144, 5 }, { 4, 0, 6 }, { 8, 16, 4 }, { 8, 8192, 3 }, { 8, 0, 6 }, { 16, 8192, 3 },
	{ 16, 0, 6 }, { 32, 64, 5 }, { 32, 4096, 3 }, { 32, 0, 6 }, { 64, 128, 5 }, { 64, 0, 6 },
	{ 128, 262144, 3 }, { 128, 0, 6 }, { 256, 131072, 2 }, { 256, 262144, 3 }, { 256, 0, 6 },
	{ 512, 4096, 2 }, { 512, 0, 6 }, { 2048, 2048, 2 }, { 2048, 16384, 3 }, { 2048, 0, 6 },
	{ 4096, 2048, 2 }, { 4096, 4096, 5 }, { 4096, 16384, 3 }, { 4096, 0, 6 }, { 0, 2048, 2 },
	{ 0, 16384, 5 }, { 0, 32768, 3 }, { 0, 0, 6 }
};
static const sg_rule bcast_rules[] = {
	{ 4, 32, 3 }, { 4, 256, 5 }, { 4, 512, 3 }, { 4, 1024, 7 }, { 4, 32768, 1 }, { 4, 131072, 5 },
	{ 4, 262144, 2 }, { 4, 524288, 1 }, { 4, 1048576, 6 }, { 4, 0, 5 }, { 8, 64, 5 },
	{ 8, 128, 6 }, { 8, 2048, 5 }, { 8, 8192, 6 }, { 8, 1048576, 1 }, { 8, 0, 2 }, { 16, 8, 7 },
	{ 16, 64, 5 }, { 16, 4096, 7 }, { 16, 16384, 5 }, { 16, 32768, 6 }, { 16, 0, 1 },
	{ 32, 4096, 7 }, { 32, 1048576, 6 }, { 32, 0, 8 }, { 64, 2048, 6 }, { 64, 0, 7 },
	{ 128, 0, 7 }, { 256, 2, 6 }, { 256, 16384, 5 }, { 256, 32768, 1 }, { 256, 65536, 5 },
	{ 256, 0, 7 }, { 1024, 16384, 7 }, { 1024, 32768, 4 }, { 1024, 0, 7 }, { 2048, 524288, 7 },
	{ 2048, 0, 8 }, { 4096, 262144, 7 }, { 4096, 0, 8 }, { 0, 8192, 7 }, { 0, 16384, 5 },
	{ 0, 262144, 7 }, { 0, 0, 8 }
};
static const sg_rule reduce_rules[] = {
	{ 4, 8, 7 }, { 4, 16, 4 }, { 4, 32, 3 }, { 4, 262144, 1 }, { 4, 524288, 3 },
	{ 4, 1048576, 2 }, { 4, 0, 3 }, { 8, 4096, 4 }, { 8, 65536, 2 }, { 8, 262144, 5 },
	{ 8, 524288, 1 }, { 8, 1048576, 5 }, { 8, 0, 1 }, { 16, 8192, 4 }, { 16, 0, 5 },
	{ 32, 4096, 4 }, { 32, 0, 5 }, { 256, 0, 5 }, { 512, 8192, 5 }, { 512, 16384, 6 },
	{ 512, 0, 5 }, { 2048, 0, 5 }, { 4096, 512, 5 }, { 4096, 1024, 6 }, { 4096, 8192, 5 },
	{ 4096, 16384, 6 }, { 4096, 0, 5 }, { 0, 16, 5 }, { 0, 32, 6 }, { 0, 1024, 5 },
	{ 0, 2048, 6 }, { 0, 8192, 5 }, { 0, 16384, 6 }, { 0, 0, 5 }
};

static const sg_rule alltoall_rules[] = {
	{ 3, 2, 2 }, { 3, 4, 5 }, { 3, 16, 2 }, { 3, 64, 5 }, { 3, 256, 2 }, { 3, 4096, 5 },
	{ 3, 32768, 2 }, { 3, 262144, 4 }, { 3, 1048576, 5 }, { 3, 0, 2 }, { 8, 8192, 4 },
	{ 8, 16384, 1 }, { 8, 65536, 4 }, { 8, 524288, 1 }, { 8, 1048576, 2 }, { 8, 0, 1 },
	{ 16, 262144, 4 }, { 16, 0, 1 }, { 32, 4, 4 }, { 32, 512, 3 }, { 32, 8192, 4 },
	{ 32, 32768, 1 }, { 32, 262144, 4 }, { 32, 524288, 1 }, { 32, 0, 4 }, { 64, 512, 3 },
	{ 64, 524288, 1 }, { 64, 0, 4 }, { 128, 1024, 3 }, { 128, 2048, 1 }, { 128, 4096, 4 },
	{ 128, 262144, 1 }, { 128, 0, 2 }, { 256, 1024, 3 }, { 256, 2048, 4 }, { 256, 262144, 1 },
	{ 256, 0, 2 }, { 512, 1024, 3 }, { 512, 8192, 4 }, { 512, 32768, 1 }, { 512, 0, 2 },
	{ 1024, 512, 3 }, { 1024, 8192, 4 }, { 1024, 16384, 1 }, { 1024, 131072, 4 },
	{ 1024, 262144, 1 }, { 1024, 0, 2 }, { 2048, 512, 3 }, { 2048, 1024, 4 }, { 2048, 2048, 1 },
	{ 2048, 16384, 4 }, { 2048, 262144, 1 }, { 2048, 0, 4 }, { 4096, 1024, 3 }, { 4096, 4096, 4 },
	{ 4096, 8192, 1 }, { 4096, 131072, 4 }, { 4096, 0, 1 }, { 0, 2048, 3 }, { 0, 8192, 4 },
	{ 0, 16384, 1 }, { 0, 32768, 4 }, { 0, 65536, 1 }, { 0, 0, 4 }
};
static const sg_rule allgather_rules[] = {
	{ 3, 0, 6 }, { 32, 0, 3 }, { 64, 1024, 3 }, { 64, 65536, 5 }, { 64, 0, 4 }, { 128, 512, 3 },
	{ 128, 65536, 5 }, { 128, 0, 4 }, { 256, 512, 3 }, { 256, 131072, 5 }, { 256, 524288, 4 },
	{ 256, 1048576, 5 }, { 256, 0, 4 }, { 512, 32, 3 }, { 512, 128, 2 }, { 512, 1024, 3 },
	{ 512, 131072, 5 }, { 512, 524288, 4 }, { 512, 1048576, 5 }, { 512, 0, 4 }, { 1024, 64, 3 },
	{ 1024, 256, 2 }, { 1024, 2048, 3 }, { 1024, 0, 5 }, { 2048, 4, 3 }, { 2048, 8, 2 },
	{ 2048, 16, 3 }, { 2048, 32, 2 }, { 2048, 256, 3 }, { 2048, 512, 2 }, { 2048, 4096, 3 },
	{ 2048, 0, 5 }, { 4096, 32, 2 }, { 4096, 128, 3 }, { 4096, 512, 2 }, { 4096, 4096, 3 },
	{ 4096, 0, 5 }, { 0, 2, 3 }, { 0, 8, 2 }, { 0, 16, 3 }, { 0, 512, 2 }, { 0, 4096, 3 },
	{ 0, 0, 5 }
};
static const sg_rule barrier_rules[] = {
	{ 4, 0, 3 }, { 8, 0, 1 }, { 64, 0, 3 }, { 256, 0, 4 }, { 512, 0, 6 }, { 1024, 0, 4 },
	{ 4096, 0, 6 }, { 0, 0, 4 }
};
static const sg_rule gather_rules[] = {
	{ 4, 2, 3 }, { 4, 4, 1 }, { 4, 32768, 2 }, { 4, 65536, 1 }, { 4, 131072, 2 }, { 4, 0, 3 },
	{ 8, 1024, 2 }, { 8, 8192, 1 }, { 8, 32768, 2 }, { 8, 262144, 1 }, { 8, 0, 3 }, { 256, 0, 2 },
	{ 512, 2048, 2 }, { 512, 8192, 1 }, { 512, 0, 2 }, { 0, 0, 2 }
};
static const sg_rule scatter_rules[] = {
	{ 4, 2, 3 }, { 4, 131072, 1 }, { 4, 262144, 3 }, { 4, 0, 1 }, { 8, 2048, 2 }, { 8, 4096, 1 },
	{ 8, 8192, 2 }, { 8, 32768, 1 }, { 8, 1048576, 3 }, { 8, 0, 1 }, { 16, 16384, 2 },
	{ 16, 1048576, 3 }, { 16, 0, 1 }, { 32, 16384, 2 }, { 32, 32768, 1 }, { 32, 0, 3 },
	{ 64, 512, 2 }, { 64, 8192, 3 }, { 64, 16384, 2 }, { 64, 0, 3 }, { 0, 512, 2 }, { 0, 0, 3 }
};
/* reduce_scatter_block decides on one block, reduce_scatter on all P
 * (sg_class all_p). */
static const sg_rule reduce_scatter_block_rules[] = {
	{ 4, 4, 2 }, { 4, 8, 4 }, { 4, 16, 3 }, { 4, 128, 4 }, { 4, 256, 3 }, { 4, 4096, 4 },
	{ 4, 8192, 3 }, { 4, 131072, 4 }, { 4, 0, 1 }, { 8, 8, 3 }, { 8, 32, 2 }, { 8, 256, 4 },
	{ 8, 8192, 3 }, { 8, 16384, 4 }, { 8, 1048576, 3 }, { 8, 0, 1 }, { 16, 4, 1 }, { 16, 32, 3 },
	{ 16, 128, 4 }, { 16, 524288, 3 }, { 16, 4194304, 1 }, { 16, 0, 4 }, { 32, 32, 1 },
	{ 32, 524288, 3 }, { 32, 2097152, 1 }, { 32, 4194304, 3 }, { 32, 0, 4 }, { 0, 4, 3 },
	{ 0, 16, 1 }, { 0, 65536, 4 }, { 0, 262144, 1 }, { 0, 0, 4 }
};
static const sg_rule reduce_scatter_rules[] = {
	{ 4, 65536, 3 }, { 4, 131072, 4 }, { 4, 0, 3 }, { 8, 8, 1 }, { 8, 262144, 2 }, { 8, 0, 3 },
	{ 32, 262144, 2 }, { 32, 0, 3 }, { 64, 64, 1 }, { 64, 2048, 2 }, { 64, 524288, 4 },
	{ 64, 0, 3 }, { 128, 256, 1 }, { 128, 512, 2 }, { 128, 2048, 4 }, { 128, 4096, 2 },
	{ 128, 0, 4 }, { 256, 256, 1 }, { 256, 512, 2 }, { 256, 0, 4 }, { 512, 256, 1 },
	{ 512, 1024, 2 }, { 512, 0, 4 }, { 1024, 512, 1 }, { 1024, 2048, 2 }, { 1024, 8192, 4 },
	{ 1024, 16384, 2 }, { 1024, 0, 4 }, { 2048, 512, 1 }, { 2048, 4096, 2 }, { 2048, 16384, 4 },
	{ 2048, 32768, 2 }, { 2048, 0, 4 }, { 4096, 512, 1 }, { 4096, 4096, 2 }, { 4096, 0, 4 },
	{ 0, 1024, 1 }, { 0, 8192, 2 }, { 0, 0, 4 }
};

/* MPI_Scan and MPI_Exscan: coll/basic runs the linear algorithm always. */
static const sg_rule scan_rules[] = { { 0, 0, 1 } };
static const sg_rule exscan_rules[] = { { 0, 0, 1 } };
/* ompi_coll_tuned_alltoallv_intra_dec_fixed decides on P alone. */
static const sg_rule alltoallv_rules[] = {
	{ 4, 0, 2 }, { 64, 0, 1 }, { 128, 0, 2 }, { 256, 0, 1 }, { 1024, 0, 2 }, { 0, 0, 1 }
};
/* ompi_coll_tuned_allgatherv_intra_dec_fixed decides on the bytes per rank
 * (s here); its first branch is P == 2, so P = 1 takes the P < 8 rows. */
static const sg_rule allgatherv_rules[] = {
	{ 2, 256, 1 }, { 2, 4096, 4 }, { 2, 8192, 3 }, { 2, 16384, 4 }, { 2, 262144, 2 }, { 2, 0, 4 },
	{ 3, 2048, 3 }, { 3, 4096, 5 }, { 3, 8192, 3 }, { 3, 0, 5 },
	{ 8, 256, 1 }, { 8, 4096, 4 }, { 8, 8192, 3 }, { 8, 16384, 4 }, { 8, 262144, 2 }, { 8, 0, 4 },
	{ 16, 1024, 1 }, { 16, 0, 2 }, { 32, 128, 1 }, { 32, 262144, 2 }, { 32, 0, 3 },
	{ 64, 256, 1 }, { 64, 8192, 2 }, { 64, 0, 3 }, { 128, 256, 1 }, { 128, 4096, 2 },
	{ 128, 0, 3 }, { 256, 1024, 2 }, { 256, 65536, 4 }, { 256, 0, 3 }, { 512, 1024, 2 },
	{ 512, 0, 3 }, { 1024, 512, 2 }, { 1024, 1024, 1 }, { 1024, 4096, 2 }, { 1024, 1048576, 4 },
	{ 1024, 0, 3 }, { 0, 4096, 2 }, { 0, 0, 4 }
};

#define ALG(n, name, pat, forced, fixed, falls) \
	{ n, name, pat, forced, fixed, falls, { NULL, NULL }, 0, NULL }
static const sg_alg allreduce_algs[] = {
	ALG(1, "basic_linear", "allreduce_linear", 0, 0, NULL),
	{ 2, "nonoverlapping", "allreduce_nonoverlapping", 0, 0, NULL, { "reduce", "bcast" }, 0, NULL },
	ALG(3, "recursive_doubling", "allreduce_recdoub_ompi", 0, 0, NULL),
	ALG(4, "ring", "allreduce_ring_segmented", 0, 0, below_ranks_recdoub),
	ALG(5, "segmented_ring", "allreduce_ring_segmented", 0, 0, below_ranks_recdoub),
	ALG(6, "rabenseifner", "allreduce_rabenseifner", 0, 0, below_pof2_linear),
};
static const sg_alg bcast_algs[] = {
	ALG(1, "basic_linear", "bcast_linear", 0, 0, NULL),
	ALG(2, "chain", "bcast_chain_ompi", 4, 1, NULL),
	ALG(3, "pipeline", "bcast_pipeline", 0, 0, NULL),
	ALG(4, "split_binary_tree", "bcast_split_binary", 0, 0, below_two_pipeline),
	ALG(5, "binary_tree", "bcast_binary_ompi", 0, 0, NULL),
	ALG(6, "binomial", "bcast_binomial", 0, 0, NULL),
	ALG(7, "knomial", "bcast_knomial", 0, 0, NULL),
	ALG(8, "scatter_allgather", "bcast_scatter_allgather", 0, 0, below_ranks_linear),
	ALG(9, "scatter_allgather_ring", "bcast_scatter_allgather_ring", 0, 0, below_ranks_linear),
};
static const sg_alg reduce_algs[] = {
	ALG(1, "linear", "reduce_linear", 0, 0, NULL),
	ALG(2, "chain", "reduce_chain", 4, 1, NULL),
	ALG(3, "pipeline", "reduce_pipeline", 0, 0, NULL),
	ALG(4, "binary", "reduce_binary", 0, 0, NULL),
	ALG(5, "binomial", "reduce_binomial_ompi", 0, 0, NULL),
	ALG(6, "in-order_binary", "reduce_in_order_binary", 0, 0, NULL),
	ALG(7, "rabenseifner", "reduce_rabenseifner", 0, 0, below_pof2_linear),
};

static const sg_alg allgather_algs[] = {
	{ 1, "linear", "allgather_linear", 0, 0, NULL, { "gather", "bcast" }, 2, NULL },
	ALG(2, "bruck", "allgather_bruck", 0, 0, NULL),
	ALG(3, "recursive_doubling", "allgather_recdoub", 0, 0, NULL),
	ALG(4, "ring", "allgather_ring", 0, 0, NULL),
	ALG(5, "neighbor", "allgather_neighbor", 0, 0, NULL),
	ALG(6, "two_proc", "allgather_recdoub", 0, 0, two_ranks),
};
static const sg_alg alltoall_algs[] = {
	ALG(1, "linear", "alltoall_linear", 0, 0, NULL),
	ALG(2, "pairwise", "alltoall_pairwise", 0, 0, NULL),
	ALG(3, "modified_bruck", "alltoall_bruck", 0, 0, NULL),
	ALG(4, "linear_sync", "alltoall_linear", 0, 0, same_as_linear),
	ALG(5, "two_proc", "alltoall_pairwise", 0, 0, two_ranks),
};
static const sg_alg barrier_algs[] = {
	ALG(1, "linear", "barrier_linear", 0, 0, NULL),
	ALG(2, "double_ring", "barrier_double_ring", 0, 0, NULL),
	ALG(3, "recursive_doubling", "barrier_butterfly", 0, 0, NULL),
	ALG(4, "bruck", "barrier_dissemination", 0, 0, NULL),
	ALG(5, "two_proc", "barrier_butterfly", 0, 0, two_ranks),
	ALG(6, "tree", "barrier_tree_ompi", 0, 0, NULL),
};
static const sg_alg gather_algs[] = {
	ALG(1, "basic_linear", "gather_linear_ompi", 0, 0, NULL),
	ALG(2, "binomial", "gather_binomial", 0, 0, NULL),
	ALG(3, "linear_sync", "gather_linear_sync", 0, 0, NULL),
};
static const sg_alg scatter_algs[] = {
	ALG(1, "basic_linear", "scatter_linear_ompi", 0, 0, NULL),
	ALG(2, "binomial", "scatter_binomial", 0, 0, NULL),
	ALG(3, "linear_nb", "scatter_linear_nb", 0, 0, NULL),
};
static const sg_alg reduce_scatter_block_algs[] = {
	{ 1, "basic_linear", "reduce_scatter_block_linear", 0, 0, NULL, { "reduce", "scatter" }, 1, NULL },
	ALG(2, "recursive_doubling", "reduce_scatter_block_recdoub", 0, 0, NULL),
	ALG(3, "recursive_halving", "reduce_scatter_block_rechalving", 0, 0, NULL),
	ALG(4, "butterfly", "reduce_scatter_block_butterfly", 0, 0, pof2_butterfly),
};
static const sg_alg reduce_scatter_algs[] = {
	{ 1, "non-overlapping", "reduce_scatter_nonoverlapping", 0, 0, basic_scatterv,
	  { "reduce", NULL }, 1, NULL },
	ALG(2, "recursive_halving", "reduce_scatter_block_rechalving", 0, 0, NULL),
	ALG(3, "ring", "reduce_scatter_ring", 0, 0, NULL),
	ALG(4, "butterfly", "reduce_scatter_butterfly", 0, 0, NULL),
};

static const char *two_ranks_only(uint64_t P, uint64_t s)
{
	(void)s;
	return P == 2 ? NULL : "not two ranks: Open MPI returns MPI_ERR_UNSUPPORTED_OPERATION "
	                       "before sending anything, and the pattern sends nothing";
}
static const char *odd_ranks_ring(uint64_t P, uint64_t s)
{
	(void)s;
	return P % 2 ? "odd P: Open MPI runs its ring allgatherv instead" : NULL;
}
static void allgatherv_default_runs(uint64_t P, uint64_t s, char *b, size_t n);

static const sg_alg scan_algs[] = {
	ALG(1, "linear", "scan_linear", 0, 0, NULL),
	ALG(2, "recursive_doubling", "scan_recdoub", 0, 0, NULL),
};
static const sg_alg exscan_algs[] = {
	ALG(1, "linear", "exscan_linear", 0, 0, NULL),
	ALG(2, "recursive_doubling", "exscan_recdoub", 0, 0, NULL),
};
static const sg_alg alltoallv_algs[] = {
	ALG(1, "basic_linear", "alltoallv_linear", 0, 0, NULL),
	ALG(2, "pairwise", "alltoall_pairwise", 0, 0, NULL),
};
static const sg_alg allgatherv_algs[] = {
	{ 1, "default", "allgatherv_default", 0, 0, NULL, { NULL, NULL }, 0, allgatherv_default_runs },
	ALG(2, "bruck", "allgather_bruck", 0, 0, NULL),
	ALG(3, "ring", "allgather_ring", 0, 0, NULL),
	ALG(4, "neighbor", "allgather_neighbor", 0, 0, odd_ranks_ring),
	ALG(5, "two_proc", "allgatherv_two_proc", 0, 0, two_ranks_only),
};

#define N(a) (sizeof a / sizeof a[0])
#define CLASS_X(c, nc, nnc, all_p) { #c, "ompi_coll_tuned_" #c "_intra_dec_fixed", c##_rules, \
	                            N(c##_rules), nc, nnc, c##_algs, N(c##_algs), all_p, NULL, NULL, NULL }
#define CLASS(c) CLASS_X(c, NULL, 0, 0)
#define CLASS_NC(c, all_p) CLASS_X(c, c##_nc_rules, N(c##_nc_rules), all_p)
#define BASIC(c, calls) { #c, "mca_coll_basic_" #c "_intra", c##_rules, N(c##_rules), NULL, 0, \
	                  c##_algs, N(c##_algs), 0, calls, NULL, NULL }
static const sg_class classes[] = {
	CLASS_NC(allreduce, 0), CLASS(bcast), CLASS_NC(reduce, 0), CLASS(allgather), CLASS(alltoall),
	CLASS(barrier), CLASS(gather), CLASS(scatter), CLASS_NC(reduce_scatter_block, 0),
	CLASS_NC(reduce_scatter, 1),
	BASIC(scan, "ompi_coll_base_scan_intra_linear"),
	BASIC(exscan, "ompi_coll_base_exscan_intra_linear"),
	CLASS(alltoallv), CLASS(allgatherv),
};
const char sg_select_classes[] = "allreduce bcast reduce allgather alltoall barrier gather scatter "
                                  "reduce_scatter_block reduce_scatter scan exscan alltoallv allgatherv";

/* MPICH 4.0.2's rules (Debian 12's libmpich12): the MPIR-level selection
 * that src/mpi/coll/coll_selection.json gives (built into the library;
 * csel.c reads it), for an intracommunicator without node hierarchy (one
 * rank a node, as the network here), not in place, a built-in operation
 * unless non-commutative.  Its "<= b" are "< b+1" here, its "count < pow2"
 * is SG_BELOW_POF2 (an element a byte, as everywhere in schedgen). */
static const sg_rule mpich_allreduce_rules[] = {
	{ 0, 9, 1 }, { 0, 0, 1 | SG_BELOW_POF2 }, { 0, 0, 2 }
};
/* a non-commutative operation is a user's: "is_op_built_in=no" */
static const sg_rule mpich_allreduce_nc_rules[] = { { 0, 0, 1 } };
static const sg_rule mpich_bcast_rules[] = {
	{ 8, 0, 1 }, { 0, 12289, 1 | SG_POW2 }, { 0, 524289, 2 | SG_POW2 }, { 0, 0, 3 | SG_POW2 },
	{ 0, 12289, 1 }, { 0, 0, 3 }
};
static const sg_rule mpich_allgather_rules[] = {
	{ 0, 524288, 1 | SG_POW2 }, { 0, 0, 3 | SG_POW2 }, { 0, 81920, 2 }, { 0, 0, 3 }
};
static const sg_rule mpich_reduce_scatter_rules[] = { { 0, 524288, 1 }, { 0, 0, 2 } };
#define mpich_reduce_scatter_block_rules mpich_reduce_scatter_rules
/* "comm_size<8" as P <= 8: see the class's note */
static const sg_rule mpich_alltoall_rules[] = {
	{ 9, 32769, 2 }, { 9, 0, 3 }, { 0, 257, 1 }, { 0, 32769, 2 }, { 0, 0, 3 }
};
static const sg_rule mpich_barrier_rules[] = { { 0, 0, 1 } };

static const char *not_pow2_bruck(uint64_t P, uint64_t s)
{
	(void)s;
	return P & (P - 1) ? "P is not a power of two: MPICH runs its recursive doubling with "
	                     "fewer partners, the pattern runs the Bruck allgather" : NULL;
}

static const char *below_pof2_auto(uint64_t P, uint64_t s)
{
	return s < pof2(P) ? "fewer bytes than the largest power of two of ranks: MPICH "
	                     "refuses it and runs its own choice, recursive doubling" : NULL;
}

static const sg_alg mpich_allreduce_algs[] = {
	ALG(1, "recursive_doubling", "allreduce_recdoub_ompi", 0, 0, NULL),
	ALG(2, "reduce_scatter_allgather", "allreduce_rabenseifner_mpich", 0, 0, below_pof2_auto),
};
static const sg_alg mpich_bcast_algs[] = {
	ALG(1, "binomial", "bcast_binomial_mpich", 0, 0, NULL),
	ALG(2, "scatter_recursive_doubling_allgather", "bcast_scatter_recdoub_mpich", 0, 0, NULL),
	ALG(3, "scatter_ring_allgather", "bcast_scatter_ring_mpich", 0, 0, NULL),
};
static const sg_alg mpich_allgather_algs[] = {
	ALG(1, "recursive_doubling", "allgather_recdoub", 0, 0, not_pow2_bruck),
	ALG(2, "brucks", "allgather_bruck", 0, 0, NULL),
	ALG(3, "ring", "allgather_ring", 0, 0, NULL),
};
static const sg_alg mpich_reduce_scatter_algs[] = {
	ALG(1, "recursive_halving", "reduce_scatter_block_rechalving", 0, 0, NULL),
	ALG(2, "pairwise", "reduce_scatter_pairwise", 0, 0, NULL),
};
#define mpich_reduce_scatter_block_algs mpich_reduce_scatter_algs
static const sg_alg mpich_alltoall_algs[] = {
	ALG(1, "brucks", "alltoall_bruck", 0, 0, NULL),
	ALG(2, "scattered", "alltoall_scattered", 0, 0, NULL),
	ALG(3, "pairwise", "alltoall_pairwise_mpich", 0, 0, NULL),
};
static const sg_alg mpich_barrier_algs[] = {
	ALG(1, "dissemination", "barrier_dissemination", 0, 0, NULL),
};

#define MPICH_X(c, F, nc, nnc, all_p, note, ncm) { #c, "MPIR_" F "_allcomm_auto", \
	mpich_##c##_rules, N(mpich_##c##_rules), nc, nnc, mpich_##c##_algs, N(mpich_##c##_algs), \
	all_p, NULL, note, ncm }
#define MPICH_RS_NC "MPICH runs its noncommutative and recursive_doubling reduce-scatters for " \
	"a non-commutative operation, which are not modelled here"
static const sg_class mpich_classes[] = {
	MPICH_X(allreduce, "Allreduce", mpich_allreduce_nc_rules, 1, 0, NULL, NULL),
	MPICH_X(bcast, "Bcast", NULL, 0, 0, NULL, NULL),
	MPICH_X(allgather, "Allgather", NULL, 0, 1, NULL, NULL),
	MPICH_X(alltoall, "Alltoall", NULL, 0, 0,
	        "; MPICH 4.0.2 tests its \"comm_size<8\" as P <= 8 here: below the in-place "
	        "test, its search, not its pruning, evaluates it (csel.c)", NULL),
	MPICH_X(barrier, "Barrier", NULL, 0, 0, NULL, NULL),
	MPICH_X(reduce_scatter_block, "Reduce_scatter_block", NULL, 0, 1, NULL, MPICH_RS_NC),
	MPICH_X(reduce_scatter, "Reduce_scatter", NULL, 0, 1, NULL, MPICH_RS_NC),
};

static const sg_lib libs[] = {
	{ "openmpi", "Open MPI 4.1", "coll_tuned_decision_fixed.c", { "coll_tuned_", "_algorithm" }, 1,
	  classes, N(classes), sg_select_classes },
	{ "mpich", "MPICH 4.0.2", "coll_selection.json", { "MPIR_CVAR_", "_INTRA_ALGORITHM" }, 0,
	  mpich_classes, N(mpich_classes),
	  "allreduce bcast allgather alltoall barrier reduce_scatter_block reduce_scatter" },
};

const char *sg_select_one_element(const sg_choice *bcast)
{
	switch (bcast->alg) {
	case 4:   /* half of one element is none: its chain of one, a pipeline */
		return "bcast_pipeline";
	case 8:   /* one element is fewer than P (P >= 2): its linear broadcast */
	case 9:
		return "bcast_linear";
	default:  /* one segment: the count cannot be cut */
		return bcast->pattern;
	}
}

/* Open MPI's default allgatherv runs coll/basic's gatherv, then its pick
 * of bcast for the P s bytes of one element. */
static void allgatherv_default_runs(uint64_t P, uint64_t s, char *b, size_t n)
{
	sg_choice sub;
	char err[160];
	uint64_t all = P && s > UINT64_MAX / P ? UINT64_MAX : s * P;
	if (sg_select("openmpi", "bcast", P, all, 0, 0, &sub, err, sizeof err))
		return;
	snprintf(b, n, "; it runs coll/basic's linear gatherv to rank 0 (mca_coll_basic_gatherv_intra), "
	         "then bcast of one element of all P blocks: %s (algorithm %u, unsegmented%s)",
	         sg_select_one_element(&sub), sub.alg,
	         strcmp(sg_select_one_element(&sub), sub.pattern) ? ", its fallback for a count of 1" : "");
}

/* "[lo, hi)" of a row's bound after the previous row's (0: none). */
static void range(char *b, size_t n, const char *what, uint32_t lo, uint32_t hi)
{
	if (!hi)
		snprintf(b, n, lo ? "%s >= %" PRIu32 : "any %s", what, lo);
	else if (lo)
		snprintf(b, n, "%s %" PRIu32 "..%" PRIu32, what, lo, hi - 1);
	else
		snprintf(b, n, "%s < %" PRIu32, what, hi);
}

/* The class cls of library lib (*l set), or NULL with a message in err. */
static const sg_class *find_class(const char *lib, const char *cls, const sg_lib **l, char *err,
                                  size_t errlen)
{
	for (*l = libs; *l < libs + N(libs) && strcmp((*l)->name, lib) != 0; (*l)++)
		;
	if (*l == libs + N(libs)) {
		snprintf(err, errlen, "unknown library '%s' (known: openmpi mpich)", lib);
		return NULL;
	}
	for (size_t i = 0; i < (*l)->nclasses; i++)
		if (strcmp((*l)->classes[i].name, cls) == 0)
			return &(*l)->classes[i];
	snprintf(err, errlen, "%s has no rules for '%s' here (known: %s)", lib, cls, (*l)->class_names);
	return NULL;
}

/* Appends "s's algorithms are 1..N or NAME ..." (Open MPI) or "are NAME
 * ..." (MPICH, which names them only) to the n bytes at b. */
static size_t valid_algs(const sg_lib *l, const sg_class *c, char *b, size_t n)
{
	size_t k = (size_t)snprintf(b, n, "%s's %s algorithms are", l->name, c->name);
	if (l->numbered && k < n)
		k += (size_t)snprintf(b + k, n - k, " 1..%u or", c->algs[c->nalgs - 1].alg);
	for (size_t i = 0; i < c->nalgs && k < n; i++)
		k += (size_t)snprintf(b + k, n - k, " %s", c->algs[i].name);
	return k;
}

int sg_select_alg(const char *lib, const char *cls, const char *name, unsigned *alg, char *err,
                  size_t errlen)
{
	const sg_lib *l;
	const sg_class *c = find_class(lib, cls, &l, err, errlen);
	size_t n;
	if (!c)
		return -1;
	for (size_t i = 0; i < c->nalgs; i++)
		if (strcmp(c->algs[i].name, name) == 0) {
			*alg = c->algs[i].alg;
			return 0;
		}
	n = valid_algs(l, c, err, errlen);
	if (n < errlen)
		snprintf(err + n, errlen - n, " (got '%s')", name);
	return -1;
}

/* The P of rule i of rules, for explaining it: "[lo, hi)" after the
 * previous group of rows, and whether P must be a power of two. */
static void p_range(char *b, size_t n, const sg_rule *rules, size_t i)
{
	uint32_t lo = 0;
	int pow2_before = 0;
	for (size_t j = 0; j < i; j++)
		if (rules[j].pmax != rules[i].pmax || (rules[j].alg ^ rules[i].alg) & SG_POW2) {
			lo = rules[j].pmax ? rules[j].pmax : lo;
			pow2_before |= rules[j].alg & SG_POW2;
		}
	if (!lo && !rules[i].pmax && (pow2_before || rules[i].alg & SG_POW2)) {
		snprintf(b, n, "P %sa power of two", rules[i].alg & SG_POW2 ? "" : "not ");
		return;
	}
	range(b, n, "P", lo, rules[i].pmax);
	if (rules[i].alg & SG_POW2)
		snprintf(b + strlen(b), n - strlen(b), ", a power of two");
	else if (pow2_before)
		snprintf(b + strlen(b), n - strlen(b), ", not a power of two");
}

/* The row of rules (n of them) that picks for P ranks and bytes bytes (p2
 * the largest power of two <= P); *slo the bytes from which it picks, for
 * explaining it (set to 0 on entry). */
static size_t pick_row(const sg_rule *rules, size_t n, uint64_t P, uint64_t bytes, uint64_t p2,
                       uint64_t *slo)
{
	size_t row;
	for (row = 0; row < n; row++) {
		const sg_rule *r = &rules[row];
		int pok = (!r->pmax || P < r->pmax) && (!(r->alg & SG_POW2) || (P & (P - 1)) == 0);
		uint64_t smax = r->alg & SG_BELOW_POF2 ? p2 : r->smax;
		if (row && (rules[row - 1].pmax != r->pmax || (rules[row - 1].alg ^ r->alg) & SG_POW2))
			*slo = 0;
		if (pok && (!smax || bytes < smax))
			break;
		if (pok && smax > *slo)
			*slo = smax;
	}
	return row;
}

/* out->why for an algorithm the library's rules picked: rules[row] picks
 * algorithm label of class c for P ranks and bytes bytes (size a rank's,
 * p2 the largest power of two <= P), from slo bytes on; nc: for a
 * non-commutative operation. */
static void why_rule(sg_choice *out, const sg_lib *l, const sg_class *c, const sg_rule *rules,
                     size_t row, const char *label, int nc, uint64_t P, uint64_t size,
                     uint64_t bytes, uint64_t p2, uint64_t slo)
{
	char pr[96], sr[128];
	p_range(pr, sizeof pr, rules, row);
	if (rules[row].alg & SG_BELOW_POF2)
		snprintf(sr, sizeof sr, "bytes < %" PRIu64 ", the largest power of two <= P "
		         "(\"count < pow2\", an element a byte)", p2);
	else
		range(sr, sizeof sr, "bytes", (uint32_t)slo, rules[row].smax);
	snprintf(out->why, sizeof out->why, "%s picks %s %s for %s, %s%s (%s, %s)", l->title,
	         c->name, label, pr, sr, nc ? ", a non-commutative operation" : "", l->source,
	         c->func);
	if (c->all_p) {
		size_t n = strlen(out->why);
		snprintf(out->why + n, sizeof out->why - n, "; its bytes are those of all "
		         "P blocks: %" PRIu64 " x %" PRIu64 " = %" PRIu64, P, size, bytes);
	}
}

/* Append to out->why what algorithm a of library lib does beyond its
 * pattern for P ranks and size bytes (all: of all P blocks): its fallback,
 * the class's note, its own words, and the picks of the classes it runs.
 * Returns 0, or -1 with a message in err. */
static int why_more(sg_choice *out, const char *lib, const sg_class *c, const sg_alg *a,
                    uint64_t P, uint64_t size, uint64_t all, unsigned flags, char *err,
                    size_t errlen)
{
	const char *fb = a->falls ? a->falls(P, size) : NULL;
	if (fb) {
		size_t n = strlen(out->why);
		snprintf(out->why + n, sizeof out->why - n, "; %s", fb);
	}
	if (c->note) {
		size_t n = strlen(out->why);
		snprintf(out->why + n, sizeof out->why - n, "%s", c->note);
	}
	if (a->explain) {
		size_t n = strlen(out->why);
		a->explain(P, size, out->why + n, sizeof out->why - n);
	}
	for (size_t i = 0; i < 2 && a->runs[i]; i++) {
		sg_choice sub;
		size_t n = strlen(out->why);
		uint64_t s = (a->all_p >> i) & 1 ? all : size;
		if (sg_select(lib, a->runs[i], P, s, 0, flags & SG_SELECT_NONCOMMUTATIVE, &sub, err, errlen))
			return -1;
		snprintf(out->why + n, sizeof out->why - n, "%s%s: %s (algorithm %u)", i ? ", " : "; it runs ",
		         a->runs[i], sub.pattern, sub.alg);
	}
	return 0;
}

int sg_select(const char *lib, const char *cls, uint64_t P, uint64_t size, unsigned alg,
              unsigned flags, sg_choice *out, char *err, size_t errlen)
{
	const sg_lib *l;
	const sg_class *c;
	const sg_alg *a = NULL;
	const sg_rule *rules;
	int fixed = alg == 0, explain = (flags & SG_SELECT_EXPLAIN) != 0;
	int nc = (flags & SG_SELECT_NONCOMMUTATIVE) != 0;
	uint64_t all = P && size > UINT64_MAX / P ? UINT64_MAX : size * P, bytes, p2 = pof2(P);
	uint64_t slo = 0;
	size_t i, row = 0;
	char label[64];
	memset(out, 0, sizeof *out);
	if (!(c = find_class(lib, cls, &l, err, errlen)))
		return -1;
	if (nc && c->nc_missing) {
		snprintf(err, errlen, "%s", c->nc_missing);
		return -1;
	}
	bytes = c->all_p ? all : size;
	nc = nc && c->nc_rules;   /* the other classes do not reduce */
	rules = nc ? c->nc_rules : c->rules;
	if (alg == 0) {
		row = pick_row(rules, nc ? c->nc_nrules : c->nrules, P, bytes, p2, &slo);
		alg = SG_ALG(&rules[row]);
	}
	for (i = 0; i < c->nalgs; i++)
		if (c->algs[i].alg == alg)
			a = &c->algs[i];
	if (!a) {
		size_t n = valid_algs(l, c, err, errlen);
		if (n < errlen)
			snprintf(err + n, errlen - n, " (got %u)", alg);
		return -1;
	}
	if (l->numbered)
		snprintf(label, sizeof label, "algorithm %u", alg);
	else
		snprintf(label, sizeof label, "%s", a->name);
	if (explain && !fixed) {
		char var[64];
		snprintf(var, sizeof var, "%s%s%s", l->forced[0], c->name, l->forced[1]);
		for (i = 0; !l->numbered && var[i]; i++)
			if (var[i] >= 'a' && var[i] <= 'z')
				var[i] = (char)(var[i] - 'a' + 'A');
		snprintf(out->why, sizeof out->why, "%s %s, as forced by %s%s%s", c->name, label, var,
		         l->numbered ? "" : "=", l->numbered ? (c->basic ? " (with coll_tuned_use_dynamic_rules 1)"
		                                          : "") : a->name);
	} else if (explain && c->basic) {
		snprintf(out->why, sizeof out->why, "Open MPI 4.1 runs %s algorithm %u for any P and "
		         "bytes: without dynamic rules coll/tuned leaves %s to coll/basic "
		         "(coll_tuned_module.c), whose %s calls %s", c->name, alg, c->name, c->func,
		         c->basic);
	} else if (explain) {
		why_rule(out, l, c, rules, row, label, nc, P, size, bytes, p2, slo);
	}
	out->pattern = a->pattern;
	out->alg = a->alg;
	out->name = a->name;
	out->fanout = fixed ? a->fanout_fixed : a->fanout_forced;
	/* Both libraries' bindings return at once for 0 bytes (checked by
	 * hand at 4 ranks: tests/schedgen's ompi_coll under pml monitoring and
	 * mpich_count), but Open MPI's linear alltoallv, which sends its
	 * 0-byte messages. */
	if (size == 0 && strcmp(c->name, "barrier") != 0 &&
	    !(c->algs == alltoallv_algs && alg == 1)) {
		out->pattern = "none";
		if (explain) {
			size_t n = strlen(out->why);
			snprintf(out->why + n, sizeof out->why - n, "; but a call of 0 bytes returns at "
			         "once, sending nothing (pattern none)");
		}
		return 0;
	}
	for (i = 0; nc && i < N(nc_fallbacks); i++)
		if (strcmp(l->name, "openmpi") == 0 && nc_fallbacks[i].alg == alg &&
		    strcmp(nc_fallbacks[i].cls, c->name) == 0) {
			out->pattern = nc_fallbacks[i].pattern;
			if (explain) {
				size_t n = strlen(out->why);
				snprintf(out->why + n, sizeof out->why - n, "; the operation does not commute: "
				         "Open MPI runs its algorithm 1 instead, %s", out->pattern);
			}
			return 0;
		}
	if (!explain)
		return 0;
	return why_more(out, lib, c, a, P, size, all, flags, err, errlen);
}

void sg_choice_apply(const sg_choice *ch, sg_params *p, unsigned given)
{
	if (ch->fanout && !(given & SG_GIVEN_FANOUT))
		p->fanout = ch->fanout;
	if (ch->channels && !(given & SG_GIVEN_PROTOCOL))   /* channels: an NCCL pick */
		p->protocol = (sg_protocol)ch->protocol;
	if (ch->channels && !(given & SG_GIVEN_CHANNELS))
		p->channels = ch->channels;
}
