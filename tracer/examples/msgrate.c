/* msgrate.c: message-heavy MPI program to measure tracing overhead: rank
 * pairs exchange many small messages with a little computation between.
 * Usage: msgrate [messages [bytes [work]]]; rank 0 prints the run time. */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int rank, size;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	long msgs = argc > 1 ? atol(argv[1]) : 100000;
	int bytes = argc > 2 ? atoi(argv[2]) : 8;
	long work = argc > 3 ? atol(argv[3]) : 0;
	if (size % 2 || msgs < 1 || bytes < 0 || work < 0) {
		if (rank == 0)
			fprintf(stderr, "usage: msgrate [messages [bytes [work]]] on an even number of ranks\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	char *buf = calloc((size_t)bytes + 1, 1);
	int peer = rank ^ 1;
	volatile double acc = 0;
	MPI_Barrier(MPI_COMM_WORLD);
	double t0 = MPI_Wtime();
	for (long m = 0; m < msgs; m++) {
		if (rank % 2 == 0) {
			MPI_Send(buf, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
			MPI_Recv(buf, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		} else {
			MPI_Recv(buf, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			MPI_Send(buf, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
		}
		for (long k = 0; k < work; k++)
			acc = acc + 1e-9 * (double)k;
	}
	MPI_Barrier(MPI_COMM_WORLD);
	double t = MPI_Wtime() - t0;
	if (rank == 0)
		printf("%.6f s for %ld round trips of %d bytes (work %ld)\n", t, msgs, bytes, work);
	free(buf);
	MPI_Finalize();
	return 0;
}
