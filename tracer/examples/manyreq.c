/* manyreq.c: test MPI program for long trace records: every rank posts N
 * receives from and N sends to its ring neighbours, completes all 2N
 * requests with one MPI_Waitall; then again, completing them with up to
 * three MPI_Testall, one MPI_Waitsome and an MPI_Waitall; and an
 * MPI_Alltoallv.
 * Usage: manyreq [N]; rank 0 prints the number of requests. */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>

/* Posts n receives from the left and n sends to the right neighbour. */
static void post(int n, int *in, int *out, MPI_Request *r, int left, int right)
{
	for (int k = 0; k < n; k++)
		MPI_Irecv(&in[k], 1, MPI_INT, left, k, MPI_COMM_WORLD, &r[k]);
	for (int k = 0; k < n; k++)
		MPI_Isend(&out[k], 1, MPI_INT, right, k, MPI_COMM_WORLD, &r[n + k]);
}

static int check(int n, const int *in, int left)
{
	for (int k = 0; k < n; k++)
		if (in[k] != left * 1000000 + k)
			return 0;
	return 1;
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int rank, size;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int n = argc > 1 ? atoi(argv[1]) : 20000;
	if (n < 1 || n > 1000000) {
		if (rank == 0)
			fprintf(stderr, "usage: manyreq [N], 1 <= N <= 1000000\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	int left = (rank + size - 1) % size, right = (rank + 1) % size;
	int *in = malloc((size_t)n * sizeof *in), *out = malloc((size_t)n * sizeof *out);
	int *idx = malloc(2 * (size_t)n * sizeof *idx);
	MPI_Request *r = malloc(2 * (size_t)n * sizeof *r);
	MPI_Status *st = malloc(2 * (size_t)n * sizeof *st);
	if (!in || !out || !idx || !r || !st) {
		fprintf(stderr, "manyreq: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	for (int k = 0; k < n; k++)
		out[k] = rank * 1000000 + k;
	int ok = 1;

	/* one Waitall over 2N requests, with statuses */
	post(n, in, out, r, left, right);
	MPI_Waitall(2 * n, r, st);
	ok &= check(n, in, left);

	/* Testall until done, then Waitsome until every request is null */
	MPI_Barrier(MPI_COMM_WORLD);
	post(n, in, out, r, left, right);
	int flag = 0, tests = 0;
	while (!flag && tests < 3) {
		MPI_Testall(2 * n, r, &flag, MPI_STATUSES_IGNORE);
		tests++;
	}
	int m = 0;
	MPI_Waitsome(2 * n, r, &m, idx, st);
	MPI_Waitall(2 * n, r, MPI_STATUSES_IGNORE);
	ok &= check(n, in, left);

	/* an Alltoallv: one count and displacement per rank */
	int *cnt = malloc((size_t)size * sizeof *cnt), *dsp = malloc((size_t)size * sizeof *dsp);
	int *sb = malloc((size_t)size * sizeof *sb), *rb = malloc((size_t)size * sizeof *rb);
	for (int i = 0; i < size; i++) {
		cnt[i] = 1;
		dsp[i] = i;
		sb[i] = rank;
	}
	MPI_Alltoallv(sb, cnt, dsp, MPI_INT, rb, cnt, dsp, MPI_INT, MPI_COMM_WORLD);
	for (int i = 0; i < size; i++)
		ok &= rb[i] == i;

	int all = 0;
	MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
	if (rank == 0)
		printf("%d requests per Waitall on %d ranks: %s\n", 2 * n, size,
		       all ? "ok" : "WRONG DATA");
	free(in);
	free(out);
	free(idx);
	free(r);
	free(st);
	free(cnt);
	free(dsp);
	free(sb);
	free(rb);
	MPI_Finalize();
	return all ? 0 : 1;
}
