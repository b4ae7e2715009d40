/* log3p_bench.c: the measured side of the log_3 P study (docs/log3p.md):
 * times a ping-pong, a linear broadcast and a binomial-tree broadcast of
 * contiguous and strided messages, with the schedules of the simulator's
 * counterparts (a send and its answer; schedgen's scatter_linear and
 * bcast_binomial), and prints one CSV line per point.
 *
 *   mpirun -np P log3p-bench [--sizes LIST] [--strides LIST] [--reps R]
 *                            [--warmup W] [--quantile Q]
 *
 * A strided message is one MPI_Type_create_hvector of s/8 blocks of 8
 * bytes, the stride apart (stride 0: s contiguous bytes).  Each time is
 * from rank 0's start, after a barrier, to the latest end of any rank,
 * on the monotonic clock every rank of one machine shares (the ranks must
 * run on one machine); the quantile Q of R repetitions (default 0.5, 15
 * after 3 warm-up).  Output on rank 0's stdout:
 *
 *   pattern,P,stride,size,time_ns
 *
 * pingpong only with 2 ranks (its time is the round trip). */
#include <mpi.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXN 64

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Parse "a,b,c" (non-negative, increasing) into v; the count, or -1. */
static int parse_list(const char *arg, long *v)
{
	char *copy = strdup(arg), *save = NULL;
	int n = 0;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *e;
		long x = strtol(t, &e, 10);
		if (*e || x < 0 || n == MAXN || (n && x <= v[n - 1])) {
			free(copy);
			return -1;
		}
		v[n++] = x;
	}
	free(copy);
	return n ? n : -1;
}

/* One run of pattern pat (0 ping-pong, 1 linear, 2 tree) from rank 0 on
 * size ranks, messages of count elements of type t in buf. */
static void run(int pat, int rank, int size, char *buf, int count, MPI_Datatype t)
{
	MPI_Comm w = MPI_COMM_WORLD;
	if (pat == 0) {
		if (rank == 0) {
			MPI_Send(buf, count, t, 1, 1, w);
			MPI_Recv(buf, count, t, 1, 2, w, MPI_STATUS_IGNORE);
		} else if (rank == 1) {
			MPI_Recv(buf, count, t, 0, 1, w, MPI_STATUS_IGNORE);
			MPI_Send(buf, count, t, 0, 2, w);
		}
	} else if (pat == 1) {
		if (rank == 0)
			for (int r = 1; r < size; r++)
				MPI_Send(buf, count, t, r, 0, w);
		else
			MPI_Recv(buf, count, t, 0, 0, w, MPI_STATUS_IGNORE);
	} else {
		/* schedgen's bcast_binomial: round k, ranks below 2^k send to
		 * rank + 2^k (a rank receives in the round of its highest bit). */
		int k = 0;
		if (rank) {
			int hb = 1;
			while (hb * 2 <= rank)
				hb *= 2;
			MPI_Recv(buf, count, t, rank - hb, 0, w, MPI_STATUS_IGNORE);
			k = hb * 2;
		} else {
			k = 1;
		}
		for (; rank + k < size; k *= 2)
			MPI_Send(buf, count, t, rank + k, 0, w);
	}
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int rank, size;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	long sizes[MAXN] = { 1024, 4096, 16384, 65536, 262144, 1048576 };
	long strides[MAXN] = { 0, 8, 64, 512, 1024 };
	int nsizes = 6, nstrides = 5, reps = 15, warmup = 3;
	double q = 0.5;
	for (int i = 1; i < argc; i += 2) {   /* OPTION VALUE pairs */
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		int bad = !v;
		if (!bad && strcmp(a, "--sizes") == 0)
			bad = (nsizes = parse_list(v, sizes)) < 0;
		else if (!bad && strcmp(a, "--strides") == 0)
			bad = (nstrides = parse_list(v, strides)) < 0;
		else if (!bad && strcmp(a, "--reps") == 0)
			bad = (reps = atoi(v)) < 1;
		else if (!bad && strcmp(a, "--warmup") == 0)
			bad = (warmup = atoi(v)) < 0;
		else if (!bad && strcmp(a, "--quantile") == 0)
			bad = !((q = atof(v)) >= 0 && q <= 1);
		else
			bad = 1;
		if (bad) {
			if (rank == 0)
				fprintf(stderr, "log3p-bench: error: bad option '%s'\n"
				        "usage: mpirun -np P log3p-bench [--sizes LIST] [--strides LIST] "
				        "[--reps R] [--warmup W] [--quantile Q]\n", a);
			MPI_Finalize();
			return 2;
		}
	}
	for (int i = 0; i < nsizes; i++)
		if (sizes[i] < 16 || sizes[i] % 8 || sizes[i] > (1L << 30)) {
			if (rank == 0)
				fprintf(stderr, "log3p-bench: error: sizes are multiples of 8, 16..2^30\n");
			MPI_Finalize();
			return 2;
		}
	for (int i = 0; i < nstrides; i++)
		if (strides[i] && (strides[i] < 8 || strides[i] > (1L << 31))) {
			if (rank == 0)
				fprintf(stderr, "log3p-bench: error: strides are 0 (contiguous) or 8..2^31\n");
			MPI_Finalize();
			return 2;
		}
	long maxs = sizes[nsizes - 1], maxd = strides[nstrides - 1] > 8 ? strides[nstrides - 1] : 8;
	size_t span = (size_t)(maxs / 8 - 1) * (size_t)maxd + 8;
	char *buf = calloc(span, 1);
	double *t = malloc((size_t)reps * sizeof *t);
	if (!buf || !t) {
		fprintf(stderr, "log3p-bench: error: out of memory (%zu bytes)\n", span);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	if (rank == 0)
		printf("pattern,P,stride,size,time_ns\n");
	static const char *const names[3] = { "pingpong", "linear", "tree" };
	for (int pat = size == 2 ? 0 : 1; pat < 3; pat++)
		for (int d = 0; d < nstrides; d++)
			for (int i = 0; i < nsizes; i++) {
				MPI_Datatype ty = MPI_BYTE, v;
				int count = (int)sizes[i];
				if (strides[d]) {
					MPI_Type_create_hvector((int)(sizes[i] / 8), 1, (MPI_Aint)strides[d],
					                        MPI_DOUBLE, &v);
					MPI_Type_commit(&v);
					ty = v;
					count = 1;
				}
				for (int r = 0; r < warmup + reps; r++) {
					MPI_Barrier(MPI_COMM_WORLD);
					double t0 = now_ns();
					run(pat, rank, size, buf, count, ty);
					double end = now_ns(), last;
					MPI_Bcast(&t0, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
					MPI_Reduce(&end, &last, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
					if (rank == 0 && r >= warmup)
						t[r - warmup] = last - t0;
				}
				if (strides[d])
					MPI_Type_free(&v);
				if (rank == 0) {
					qsort(t, (size_t)reps, sizeof *t, cmp_double);
					double pos = q * (reps - 1), x = t[(int)pos];
					if ((int)pos + 1 < reps)
						x += (pos - floor(pos)) * (t[(int)pos + 1] - x);
					printf("%s,%d,%ld,%ld,%.0f\n", names[pat], size, strides[d], sizes[i], x);
					fflush(stdout);
				}
			}
	free(buf);
	free(t);
	MPI_Finalize();
	return 0;
}
