/* mpich_count.c: MPICH's own messages, for tests/schedgen/mpich.sh.  MPICH
 * has no counter of its own like Open MPI's pml monitoring; Debian builds
 * it on UCX alone (ch4:ucx, no shared-memory module), so every message it
 * sends, inside a collective too, is one call of libucp's
 * ucp_tag_send_nbx or ucp_tag_send_sync_nbx.  This library, preloaded
 * (LD_PRELOAD) into an MPICH program, logs those calls:
 * - MPI_Init maps each UCX endpoint to its rank: every rank sends every
 *   rank (itself too) CALIB + that rank's number bytes;
 * - from the end of MPI_Init to the start of MPI_Finalize it logs;
 * - MPI_Finalize writes "SRC DST BYTES", a line a message in the order
 *   they were sent (those to itself left out: a rank's messages to itself
 *   are local copies in schedgen), to the file $MPICH_COUNT.RANK.
 * Contiguous datatypes only (the program sends MPI_BYTE): another counts
 * as an error, written to the file. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucp/api/ucp.h>

#define MAXPEER 256
#define MAXMSG 65536
#define CALIB (1 << 20)

static struct peer {
	ucp_ep_h ep;
	int rank;          /* -1 until calibrated */
} peers[MAXPEER];
static struct msg {
	int peer;          /* index in peers */
	size_t bytes;
} msgs[MAXMSG];
static int npeers, nmsgs, counting, calibrating, noncontig;

static void count(ucp_ep_h ep, size_t n, const ucp_request_param_t *param)
{
	size_t unit = 1;
	struct peer *p;
	int i;
	if (param && (param->op_attr_mask & UCP_OP_ATTR_FIELD_DATATYPE)) {
		if ((param->datatype & UCP_DATATYPE_CLASS_MASK) != UCP_DATATYPE_CONTIG)
			noncontig = 1;
		unit = param->datatype >> UCP_DATATYPE_SHIFT;
	}
	for (i = 0; i < npeers && peers[i].ep != ep; i++)
		;
	if (i == MAXPEER)
		return;
	p = &peers[i];
	if (i == npeers) {
		npeers++;
		p->ep = ep;
		p->rank = -1;
	}
	if (calibrating && n * unit >= CALIB)
		p->rank = (int)(n * unit - CALIB);
	if (counting && nmsgs < MAXMSG) {
		msgs[nmsgs].peer = i;
		msgs[nmsgs++].bytes = n * unit;
	}
}

#define REAL(f) static __typeof__(f) *real; if (!real) real = (__typeof__(f) *)dlsym(RTLD_NEXT, #f)

ucs_status_ptr_t ucp_tag_send_nbx(ucp_ep_h ep, const void *buf, size_t n, ucp_tag_t tag,
                                  const ucp_request_param_t *param)
{
	REAL(ucp_tag_send_nbx);
	count(ep, n, param);
	return real(ep, buf, n, tag, param);
}

ucs_status_ptr_t ucp_tag_send_sync_nbx(ucp_ep_h ep, const void *buf, size_t n, ucp_tag_t tag,
                                       const ucp_request_param_t *param)
{
	REAL(ucp_tag_send_sync_nbx);
	count(ep, n, param);
	return real(ep, buf, n, tag, param);
}

int MPI_Init(int *argc, char ***argv)
{
	int rc = PMPI_Init(argc, argv), r, P;
	char *s, *d;
	if (rc != MPI_SUCCESS)
		return rc;
	PMPI_Comm_rank(MPI_COMM_WORLD, &r);
	PMPI_Comm_size(MPI_COMM_WORLD, &P);
	s = calloc(CALIB + (size_t)P, 1);
	d = calloc(CALIB + (size_t)P, 1);
	if (!s || !d || P > MAXPEER)
		PMPI_Abort(MPI_COMM_WORLD, 2);
	calibrating = 1;
	for (int i = 0; i < P; i++) {
		int to = (r + i) % P, from = (r + P - i) % P;
		PMPI_Sendrecv(s, CALIB + to, MPI_BYTE, to, 0, d, CALIB + r, MPI_BYTE, from, 0,
		              MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
	calibrating = 0;
	free(s);
	free(d);
	PMPI_Barrier(MPI_COMM_WORLD);
	counting = 1;
	return rc;
}

int MPI_Finalize(void)
{
	const char *path = getenv("MPICH_COUNT");
	char name[4096];
	int r;
	FILE *f;
	counting = 0;
	PMPI_Comm_rank(MPI_COMM_WORLD, &r);
	snprintf(name, sizeof name, "%s.%d", path ? path : "mpich_count", r);
	if ((f = fopen(name, "w"))) {
		if (noncontig || nmsgs == MAXMSG)
			fprintf(f, "error: a non-contiguous datatype or too many messages\n");
		for (int i = 0; i < nmsgs; i++)
			if (peers[msgs[i].peer].rank != r)
				fprintf(f, "%d %d %zu\n", r, peers[msgs[i].peer].rank, msgs[i].bytes);
		fclose(f);
	}
	return PMPI_Finalize();
}
