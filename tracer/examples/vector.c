/* vector.c: MPI program whose messages are vector datatypes, for the
 * tracer's record of their layout: rank 0 sends a column of a 16 x 8
 * matrix of doubles (MPI_Type_vector: 16 blocks of 8 bytes, 64 bytes
 * apart) and 4 pairs of ints 40 bytes apart (MPI_Type_create_hvector)
 * to rank 1, then both broadcast the column.  Run on 2 ranks. */
#include <mpi.h>

#include <stdio.h>

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int rank, size;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size != 2) {
		if (rank == 0)
			fprintf(stderr, "vector: run on 2 ranks\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	static double m[16][8];
	static int v[40];
	MPI_Datatype col, pairs;
	MPI_Type_vector(16, 1, 8, MPI_DOUBLE, &col);
	MPI_Type_create_hvector(4, 2, 40, MPI_INT, &pairs);
	MPI_Type_commit(&col);
	MPI_Type_commit(&pairs);
	for (int i = 0; i < 16; i++)
		m[i][0] = rank ? 0 : i;
	if (rank == 0) {
		MPI_Send(&m[0][0], 1, col, 1, 1, MPI_COMM_WORLD);
		MPI_Send(v, 1, pairs, 1, 2, MPI_COMM_WORLD);
	} else {
		MPI_Recv(&m[0][0], 1, col, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Recv(v, 1, pairs, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
	MPI_Bcast(&m[0][0], 1, col, 0, MPI_COMM_WORLD);
	MPI_Type_free(&col);
	MPI_Type_free(&pairs);
	if (rank == 1 && m[15][0] != 15)
		fprintf(stderr, "vector: the column did not arrive\n");
	MPI_Finalize();
	return 0;
}
