/* ompi_coll.c: one collective, for tests/schedgen/ompi.sh to count Open
 * MPI's own messages: ompi_coll COLL BYTES [ROOT], BYTES the size the call
 * names on each rank (the whole buffer for allreduce, bcast, reduce, scan
 * and exscan, one block for allgather, alltoall, gather, scatter, alltoallv,
 * allgatherv, reduce_scatter_block and reduce_scatter, whose every rank
 * receives BYTES), of MPI_BYTE; root ROOT (default 0).  The v-variants give
 * every rank BYTES, the blocks one after another.  The reductions are
 * MPI_BOR, or with a fourth argument "nc" an operation created as not
 * commutative: ompi_coll COLL BYTES ROOT nc. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static MPI_Op op = MPI_BOR;

/* A bitwise or that MPI is told does not commute. */
static void or_nc(void *in, void *inout, int *len, MPI_Datatype *type)
{
	(void)type;
	for (int i = 0; i < *len; i++)
		((char *)inout)[i] |= ((const char *)in)[i];
}

/* MPI_Reduce_scatter of n bytes to each of the p ranks; 1 if out of memory. */
static int reduce_scatter(const char *a, char *b, int n, int p)
{
	int *counts = malloc(sizeof *counts * (size_t)p);
	if (!counts)
		return 1;
	for (int i = 0; i < p; i++)
		counts[i] = n;
	MPI_Reduce_scatter(a, b, counts, MPI_BYTE, op, MPI_COMM_WORLD);
	free(counts);
	return 0;
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int p, rc = 0;
	MPI_Comm_size(MPI_COMM_WORLD, &p);
	int n = argc > 2 ? atoi(argv[2]) : 1, root = argc > 3 ? atoi(argv[3]) : 0;
	char *a = calloc((size_t)n * (size_t)p + 1, 1), *b = calloc((size_t)n * (size_t)p + 1, 1);
	if (argc > 4 && strcmp(argv[4], "nc") == 0)
		MPI_Op_create(or_nc, 0, &op);
	if (argc < 3 || !a || !b || root < 0 || root >= p)
		rc = 1;
	else if (strcmp(argv[1], "allreduce") == 0)
		MPI_Allreduce(a, b, n, MPI_BYTE, op, MPI_COMM_WORLD);
	else if (strcmp(argv[1], "allgather") == 0)
		MPI_Allgather(a, n, MPI_BYTE, b, n, MPI_BYTE, MPI_COMM_WORLD);
	else if (strcmp(argv[1], "alltoall") == 0)
		MPI_Alltoall(a, n, MPI_BYTE, b, n, MPI_BYTE, MPI_COMM_WORLD);
	else if (strcmp(argv[1], "bcast") == 0)
		MPI_Bcast(a, n, MPI_BYTE, root, MPI_COMM_WORLD);
	else if (strcmp(argv[1], "reduce") == 0)
		MPI_Reduce(a, b, n, MPI_BYTE, op, root, MPI_COMM_WORLD);
	else if (strcmp(argv[1], "gather") == 0)
		MPI_Gather(a, n, MPI_BYTE, b, n, MPI_BYTE, root, MPI_COMM_WORLD);
	else if (strcmp(argv[1], "scatter") == 0)
		MPI_Scatter(a, n, MPI_BYTE, b, n, MPI_BYTE, root, MPI_COMM_WORLD);
	else if (strcmp(argv[1], "barrier") == 0)
		MPI_Barrier(MPI_COMM_WORLD);
	else if (strcmp(argv[1], "reduce_scatter_block") == 0)
		MPI_Reduce_scatter_block(a, b, n, MPI_BYTE, op, MPI_COMM_WORLD);
	else if (strcmp(argv[1], "reduce_scatter") == 0)
		rc = reduce_scatter(a, b, n, p);
	else if (strcmp(argv[1], "scan") == 0)
		MPI_Scan(a, b, n, MPI_BYTE, op, MPI_COMM_WORLD);
	else if (strcmp(argv[1], "exscan") == 0)
		MPI_Exscan(a, b, n, MPI_BYTE, op, MPI_COMM_WORLD);
	else if (strcmp(argv[1], "alltoallv") == 0 || strcmp(argv[1], "allgatherv") == 0) {
		int *cnt = malloc(sizeof *cnt * (size_t)p), *dsp = malloc(sizeof *dsp * (size_t)p);
		if (!cnt || !dsp)
			rc = 1;
		for (int i = 0; !rc && i < p; i++) {
			cnt[i] = n;
			dsp[i] = i * n;
		}
		if (!rc && strcmp(argv[1], "alltoallv") == 0)
			MPI_Alltoallv(a, cnt, dsp, MPI_BYTE, b, cnt, dsp, MPI_BYTE, MPI_COMM_WORLD);
		else if (!rc)
			MPI_Allgatherv(a, n, MPI_BYTE, b, cnt, dsp, MPI_BYTE, MPI_COMM_WORLD);
		free(cnt);
		free(dsp);
	} else
		rc = 1;
	if (rc)
		fprintf(stderr, "usage: ompi_coll allreduce|allgather|alltoall|bcast|reduce|gather|"
		        "scatter|barrier|reduce_scatter_block|reduce_scatter|scan|exscan|alltoallv|"
		        "allgatherv BYTES [ROOT]\n");
	free(a);
	free(b);
	if (op != MPI_BOR)
		MPI_Op_free(&op);
	MPI_Finalize();
	return rc;
}
