/* halo.c: test MPI program for tracing: a 1-D Jacobi halo exchange with
 * nonblocking sends and receives, a global residual by allreduce, and one
 * call of every other traced MPI function (also on sub-communicators).
 * Usage: halo [iterations [cells per rank]]; prints the final residual. */
#include <mpi.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* The state the tour's steps share: the rank, the size p, the ring
 * neighbours, scalars and the buffers of the v-collectives. */
struct tour {
	int rank, p, right, left, one, x, y;
	int *cnt, *dsp, *big, *big2;
};

/* Every blocking collective on MPI_COMM_WORLD. */
static void tour_coll(struct tour *b)
{
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Bcast(&b->x, 1, MPI_INT, 0, MPI_COMM_WORLD);
	MPI_Reduce(&b->rank, &b->y, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
	MPI_Gather(&b->rank, 1, MPI_INT, b->big, 1, MPI_INT, 0, MPI_COMM_WORLD);
	MPI_Gatherv(&b->rank, b->cnt[b->rank], MPI_INT, b->big, b->cnt, b->dsp, MPI_INT, 0,
	            MPI_COMM_WORLD);
	MPI_Scatter(b->big, 1, MPI_INT, &b->y, 1, MPI_INT, 0, MPI_COMM_WORLD);
	MPI_Scatterv(b->big, b->cnt, b->dsp, MPI_INT, b->big2, b->cnt[b->rank], MPI_INT, 0,
	             MPI_COMM_WORLD);
	MPI_Allgather(&b->rank, 1, MPI_INT, b->big, 1, MPI_INT, MPI_COMM_WORLD);
	MPI_Allgatherv(b->big2, b->cnt[b->rank], MPI_INT, b->big, b->cnt, b->dsp, MPI_INT,
	               MPI_COMM_WORLD);
	MPI_Alltoall(b->big, 1, MPI_INT, b->big2, 1, MPI_INT, MPI_COMM_WORLD);
	int *scnt = malloc((size_t)b->p * sizeof *scnt);
	for (int i = 0; i < b->p; i++)
		scnt[i] = 1 + b->rank % 2;
	MPI_Alltoallv(b->big, scnt, b->dsp, MPI_INT, b->big2, b->cnt, b->dsp, MPI_INT,
	              MPI_COMM_WORLD);
	free(scnt);
	for (int i = 0; i < b->p; i++)
		b->big[i] = i;
	MPI_Reduce_scatter(b->big, &b->y, (int[]){ 1, 1, 1, 1, 1, 1, 1, 1 }, MPI_INT, MPI_SUM,
	                   MPI_COMM_WORLD);
	MPI_Scan(&b->one, &b->y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
}

/* Blocking point to point around the ring. */
static void tour_p2p(struct tour *b)
{
	MPI_Status st;
	if (b->rank % 2 == 0) {
		MPI_Send(&b->x, 1, MPI_INT, b->right, 10, MPI_COMM_WORLD);
		MPI_Ssend(&b->x, 1, MPI_INT, b->right, 11, MPI_COMM_WORLD);
		MPI_Recv(&b->y, 1, MPI_INT, MPI_ANY_SOURCE, 12, MPI_COMM_WORLD, &st);
	} else {
		MPI_Recv(&b->y, 1, MPI_INT, b->left, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Recv(&b->y, 1, MPI_INT, b->left, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Send(&b->x, 1, MPI_INT, b->left, 12, MPI_COMM_WORLD);
	}
	MPI_Sendrecv(&b->x, 1, MPI_INT, b->right, 13, &b->y, 1, MPI_INT, b->left, 13, MPI_COMM_WORLD,
	             &st);
	MPI_Sendrecv_replace(&b->x, 1, MPI_INT, b->left, 14, b->right, 14, MPI_COMM_WORLD, &st);
}

/* A probe, then polled and partly completed receives. */
static void tour_poll(struct tour *b)
{
	MPI_Status st;
	MPI_Request r[2];
	MPI_Isend(&b->x, 1, MPI_INT, b->right, 15, MPI_COMM_WORLD, &r[0]);
	MPI_Probe(b->left, 15, MPI_COMM_WORLD, &st);
	int flag = 0;
	while (!flag)
		MPI_Iprobe(MPI_ANY_SOURCE, 15, MPI_COMM_WORLD, &flag, &st);
	MPI_Irecv(&b->y, 1, MPI_INT, b->left, 15, MPI_COMM_WORLD, &r[1]);
	flag = 0;
	while (!flag)
		MPI_Test(&r[1], &flag, &st);
	MPI_Wait(&r[0], MPI_STATUS_IGNORE);
	MPI_Irecv(&b->y, 1, MPI_INT, b->left, 16, MPI_COMM_WORLD, &r[1]);
	MPI_Isend(&b->x, 1, MPI_INT, b->right, 16, MPI_COMM_WORLD, &r[0]);
	int idx, n = 0, done = 0, ids[2];
	MPI_Waitany(2, r, &idx, &st);
	while (done < 1) {
		MPI_Waitsome(2, r, &n, ids, MPI_STATUSES_IGNORE);
		done += n == MPI_UNDEFINED ? 1 : n;
	}
	MPI_Irecv(&b->y, 1, MPI_INT, b->left, 17, MPI_COMM_WORLD, &r[1]);
	MPI_Isend(&b->x, 1, MPI_INT, b->right, 17, MPI_COMM_WORLD, &r[0]);
	flag = 0;
	while (!flag)
		MPI_Testall(2, r, &flag, MPI_STATUSES_IGNORE);
}

/* Collectives and a message on sub-communicators. */
static void tour_sub(struct tour *b)
{
	MPI_Comm half, dup;
	MPI_Comm_split(MPI_COMM_WORLD, b->rank % 2, -b->rank, &half);
	MPI_Comm_dup(half, &dup);
	int hr, hs;
	MPI_Comm_rank(half, &hr);
	MPI_Comm_size(dup, &hs);
	MPI_Allreduce(&b->rank, &b->y, 1, MPI_INT, MPI_MAX, half);
	MPI_Bcast(&b->x, 1, MPI_INT, 0, dup);
	MPI_Barrier(dup);
	if (hr == 0 && hs > 1)
		MPI_Send(&b->x, 1, MPI_INT, 1, 18, dup);
	else if (hr == 1)
		MPI_Recv(&b->y, 1, MPI_INT, 0, 18, dup, MPI_STATUS_IGNORE);
	MPI_Comm_free(&dup);
	MPI_Comm_free(&half);
}

/* Cartesian and shared-memory communicators; nonblocking collectives
 * overlapping point to point, completed by Waitall and a Test loop. */
static void tour_nbc(struct tour *b)
{
	MPI_Comm cart, row, node;
	int dims[2] = { 0, 0 }, periods[2] = { 1, 0 }, keep[2] = { 0, 1 };
	MPI_Request q[16];
	int nq = 0;
	MPI_Dims_create(b->p, 2, dims);
	MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
	MPI_Cart_sub(cart, keep, &row);
	MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, b->rank, MPI_INFO_NULL, &node);
	MPI_Ibcast(&b->x, 1, MPI_INT, 0, row, &q[nq++]);
	MPI_Iallreduce(&b->rank, &b->y, 1, MPI_INT, MPI_SUM, cart, &q[nq++]);
	MPI_Irecv(&b->one, 1, MPI_INT, b->left, 19, MPI_COMM_WORLD, &q[nq++]);
	MPI_Isend(&b->x, 1, MPI_INT, b->right, 19, MPI_COMM_WORLD, &q[nq++]);
	MPI_Waitall(nq, q, MPI_STATUSES_IGNORE);
	MPI_Ibarrier(node, &q[0]);
	int flag = 0;
	while (!flag)
		MPI_Test(&q[0], &flag, MPI_STATUS_IGNORE);
	int *b3 = malloc((size_t)b->p * 4 * sizeof *b3), *b4 = malloc((size_t)b->p * 4 * sizeof *b4);
	int *b5 = malloc((size_t)b->p * 4 * sizeof *b5), *b6 = malloc((size_t)b->p * 4 * sizeof *b6);
	int z[6];
	nq = 0;
	MPI_Ireduce(&b->rank, &z[0], 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD, &q[nq++]);
	MPI_Igather(&b->rank, 1, MPI_INT, b->big, 1, MPI_INT, 0, MPI_COMM_WORLD, &q[nq++]);
	MPI_Igatherv(&b->rank, 1, MPI_INT, b->big2, (int[]){ 1, 1, 1, 1, 1, 1, 1, 1 }, b->dsp,
	             MPI_INT, 0, MPI_COMM_WORLD, &q[nq++]);
	MPI_Iscan(&b->one, &z[1], 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &q[nq++]);
	MPI_Iexscan(&b->one, &z[2], 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &q[nq++]);
	MPI_Waitall(nq, q, MPI_STATUSES_IGNORE);
	nq = 0;
	for (int i = 0; i < b->p; i++)
		b->big[i] = i;
	MPI_Iscatter(b->big, 1, MPI_INT, &z[3], 1, MPI_INT, 0, MPI_COMM_WORLD, &q[nq++]);
	MPI_Iscatterv(b->big, b->cnt, b->dsp, MPI_INT, b3, b->cnt[b->rank], MPI_INT, 0,
	              MPI_COMM_WORLD, &q[nq++]);
	MPI_Iallgather(&b->rank, 1, MPI_INT, b4, 1, MPI_INT, MPI_COMM_WORLD, &q[nq++]);
	MPI_Ialltoall(b->big, 1, MPI_INT, b5, 1, MPI_INT, MPI_COMM_WORLD, &q[nq++]);
	MPI_Waitall(nq, q, MPI_STATUSES_IGNORE);
	nq = 0;
	MPI_Iallgatherv(b3, b->cnt[b->rank], MPI_INT, b6, b->cnt, b->dsp, MPI_INT, MPI_COMM_WORLD,
	                &q[nq++]);
	int *ones = (int[]){ 1, 1, 1, 1, 1, 1, 1, 1 };
	MPI_Ialltoallv(b->big, ones, b->dsp, MPI_INT, b5, ones, b->dsp, MPI_INT, MPI_COMM_WORLD,
	               &q[nq++]);
	MPI_Ireduce_scatter(b->big, &z[4], (int[]){ 1, 1, 1, 1, 1, 1, 1, 1 }, MPI_INT, MPI_SUM,
	                    MPI_COMM_WORLD, &q[nq++]);
	MPI_Ireduce_scatter_block(b->big2, &z[5], 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &q[nq++]);
	MPI_Waitall(nq, q, MPI_STATUSES_IGNORE);
	MPI_Comm_free(&node);
	MPI_Comm_free(&row);
	MPI_Comm_free(&cart);
	free(b3);
	free(b4);
	free(b5);
	free(b6);
}

/* Calls every traced function that the halo loop does not use, once. */
static void tour(int rank, int size)
{
	struct tour b = { rank, size, (rank + 1) % size, (rank + size - 1) % size, 1, rank, 0,
	                  NULL, NULL, NULL, NULL };
	b.cnt = malloc((size_t)size * sizeof *b.cnt);
	b.dsp = malloc((size_t)size * sizeof *b.dsp);
	b.big = malloc((size_t)size * 4 * sizeof *b.big);
	b.big2 = malloc((size_t)size * 4 * sizeof *b.big2);
	for (int i = 0; i < size; i++) {
		b.cnt[i] = 1 + i % 2;
		b.dsp[i] = 2 * i;
	}
	tour_coll(&b);
	tour_p2p(&b);
	tour_poll(&b);
	tour_sub(&b);
	tour_nbc(&b);
	free(b.cnt);
	free(b.dsp);
	free(b.big);
	free(b.big2);
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int rank, size;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int iters = argc > 1 ? atoi(argv[1]) : 20;
	int n = argc > 2 ? atoi(argv[2]) : 10000;
	if (size > 8 || iters < 0 || n < 1) {
		if (rank == 0)
			fprintf(stderr, "usage: halo [iterations [cells]] on at most 8 ranks\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	double *u = calloc((size_t)n + 2, sizeof *u), *v = calloc((size_t)n + 2, sizeof *v);
	for (int i = 1; i <= n; i++)
		u[i] = sin((double)(rank * n + i) * 0.001);
	int left = rank - 1, right = rank + 1;
	if (left < 0)
		left = MPI_PROC_NULL;
	if (right >= size)
		right = MPI_PROC_NULL;
	double res = 0;
	for (int it = 0; it < iters; it++) {
		MPI_Request r[4];
		MPI_Irecv(&u[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &r[0]);
		MPI_Irecv(&u[n + 1], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &r[1]);
		MPI_Isend(&u[1], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &r[2]);
		MPI_Isend(&u[n], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &r[3]);
		/* interior while the halo is in flight */
		double local = 0;
		for (int i = 2; i < n; i++) {
			v[i] = 0.5 * u[i] + 0.25 * (u[i - 1] + u[i + 1]);
			local += (v[i] - u[i]) * (v[i] - u[i]);
		}
		MPI_Waitall(4, r, MPI_STATUSES_IGNORE);
		v[1] = 0.5 * u[1] + 0.25 * (u[0] + u[2]);
		v[n] = 0.5 * u[n] + 0.25 * (u[n - 1] + u[n + 1]);
		double *t = u;
		u = v;
		v = t;
		MPI_Allreduce(&local, &res, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	}
	tour(rank, size);
	if (rank == 0)
		printf("residual %.6e after %d iterations on %d ranks\n", sqrt(res), iters, size);
	free(u);
	free(v);
	MPI_Finalize();
	return 0;
}
