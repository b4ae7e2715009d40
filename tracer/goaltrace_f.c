/* goaltrace_f.c: the Fortran bindings of the traced calls for
 * libgoaltrace.so (Open MPI, `include 'mpif.h'` and `use mpi`).  Debian's
 * Open MPI Fortran library calls the PMPI_ functions itself, past the C
 * wrappers; these definitions, preloaded before it, take the Fortran
 * calls instead: each converts its Fortran handles, statuses, logicals,
 * 1-based indices and sentinel addresses (MPI_IN_PLACE, MPI_BOTTOM,
 * MPI_STATUS(ES)_IGNORE) and calls the C wrapper of goaltrace.c, which
 * records the call and calls PMPI.  Every function has the four names
 * gfortran and other compilers use: mpi_send_, mpi_send__, mpi_send and
 * MPI_SEND.  Not wrapped: the mpi_f08 module (docs/traces.md). */
#include <mpi.h>

#include <stdint.h>
#include <stdlib.h>

#ifdef OPEN_MPI

_Static_assert(sizeof(MPI_Fint) == sizeof(int), "counts pass through as int");

/* Open MPI's sentinel addresses of the Fortran constants (libmpi). */
extern char mpi_fortran_in_place_, mpi_fortran_bottom_;
extern char mpi_fortran_status_ignore_, mpi_fortran_statuses_ignore_;

#define F_STATUS_SIZE (sizeof(MPI_Status) / sizeof(MPI_Fint))

/* A Fortran buffer address as C sees it. */
static void *buf_c(void *b)
{
	if (b == (void *)&mpi_fortran_in_place_)
		return MPI_IN_PLACE;
	if (b == (void *)&mpi_fortran_bottom_)
		return MPI_BOTTOM;
	return b;
}

static const void *cbuf_c(const void *b)
{
	return buf_c((void *)(uintptr_t)b);
}

static int status_ignored(const MPI_Fint *s)
{
	return (const void *)s == (const void *)&mpi_fortran_status_ignore_;
}

static int statuses_ignored(const MPI_Fint *s)
{
	return (const void *)s == (const void *)&mpi_fortran_statuses_ignore_;
}

/* MPI_STATUSES_IGNORE as Fortran passes it. */
static MPI_Fint *no_statuses(void)
{
	return (MPI_Fint *)(void *)&mpi_fortran_statuses_ignore_;
}

/* A C status to return into Fortran status f (unless ignored). */
static MPI_Status *st_c(MPI_Fint *f, MPI_Status *c)
{
	return status_ignored(f) ? MPI_STATUS_IGNORE : c;
}

static void st_f(MPI_Fint *f, const MPI_Status *c)
{
	if (!status_ignored(f))
		PMPI_Status_c2f(c, f);
}

/* The four names of one Fortran binding: lower_, lower__, lower, UPPER are
 * aliases of the static definition impl. */
#define F_NAMES(impl, lower, upper, params) \
	void lower##_ params; void lower##__ params; void lower params; void upper params; \
	void lower##_ params __attribute__((alias(#impl))); \
	void lower##__ params __attribute__((alias(#impl))); \
	void lower params __attribute__((alias(#impl))); \
	void upper params __attribute__((alias(#impl)));

#define FI MPI_Fint *

/* ---- setup ---------------------------------------------------------- */

static void f_init(FI ierr)
{
	*ierr = MPI_Init(NULL, NULL);
}
F_NAMES(f_init, mpi_init, MPI_INIT, (FI ierr))

static void f_init_thread(FI required, FI provided, FI ierr)
{
	int p = 0;
	*ierr = MPI_Init_thread(NULL, NULL, *required, &p);
	*provided = p;
}
F_NAMES(f_init_thread, mpi_init_thread, MPI_INIT_THREAD, (FI required, FI provided, FI ierr))

static void f_finalize(FI ierr)
{
	*ierr = MPI_Finalize();
}
F_NAMES(f_finalize, mpi_finalize, MPI_FINALIZE, (FI ierr))

static void f_abort(FI comm, FI code, FI ierr)
{
	*ierr = MPI_Abort(MPI_Comm_f2c(*comm), *code);
}
F_NAMES(f_abort, mpi_abort, MPI_ABORT, (FI comm, FI code, FI ierr))

/* ---- point to point ------------------------------------------------- */

#define F_SEND(impl, C, lower, upper) \
	static void impl(void *buf, FI count, FI dt, FI dest, FI tag, FI comm, FI ierr) \
	{ \
		*ierr = C(cbuf_c(buf), *count, MPI_Type_f2c(*dt), *dest, *tag, MPI_Comm_f2c(*comm)); \
	} \
	F_NAMES(impl, lower, upper, (void *buf, FI count, FI dt, FI dest, FI tag, FI comm, FI ierr))
F_SEND(f_send, MPI_Send, mpi_send, MPI_SEND)
F_SEND(f_bsend, MPI_Bsend, mpi_bsend, MPI_BSEND)
F_SEND(f_ssend, MPI_Ssend, mpi_ssend, MPI_SSEND)
F_SEND(f_rsend, MPI_Rsend, mpi_rsend, MPI_RSEND)

#define F_ISEND(impl, C, lower, upper) \
	static void impl(void *buf, FI count, FI dt, FI dest, FI tag, FI comm, FI req, FI ierr) \
	{ \
		MPI_Request r; \
		*ierr = C(cbuf_c(buf), *count, MPI_Type_f2c(*dt), *dest, *tag, MPI_Comm_f2c(*comm), &r); \
		*req = MPI_Request_c2f(r); \
	} \
	F_NAMES(impl, lower, upper, \
	        (void *buf, FI count, FI dt, FI dest, FI tag, FI comm, FI req, FI ierr))
F_ISEND(f_isend, MPI_Isend, mpi_isend, MPI_ISEND)
F_ISEND(f_ibsend, MPI_Ibsend, mpi_ibsend, MPI_IBSEND)
F_ISEND(f_issend, MPI_Issend, mpi_issend, MPI_ISSEND)
F_ISEND(f_irsend, MPI_Irsend, mpi_irsend, MPI_IRSEND)

static void f_irecv(void *buf, FI count, FI dt, FI src, FI tag, FI comm, FI req, FI ierr)
{
	MPI_Request r;
	*ierr = MPI_Irecv(buf_c(buf), *count, MPI_Type_f2c(*dt), *src, *tag, MPI_Comm_f2c(*comm), &r);
	*req = MPI_Request_c2f(r);
}
F_NAMES(f_irecv, mpi_irecv, MPI_IRECV,
        (void *buf, FI count, FI dt, FI src, FI tag, FI comm, FI req, FI ierr))

static void f_recv(void *buf, FI count, FI dt, FI src, FI tag, FI comm, FI status, FI ierr)
{
	MPI_Status st;
	*ierr = MPI_Recv(buf_c(buf), *count, MPI_Type_f2c(*dt), *src, *tag, MPI_Comm_f2c(*comm),
	                 st_c(status, &st));
	st_f(status, &st);
}
F_NAMES(f_recv, mpi_recv, MPI_RECV,
        (void *buf, FI count, FI dt, FI src, FI tag, FI comm, FI status, FI ierr))

static void f_sendrecv(void *sbuf, FI scount, FI stype, FI dest, FI stag, void *rbuf, FI rcount,
                       FI rtype, FI src, FI rtag, FI comm, FI status, FI ierr)
{
	MPI_Status st;
	*ierr = MPI_Sendrecv(cbuf_c(sbuf), *scount, MPI_Type_f2c(*stype), *dest, *stag, buf_c(rbuf),
	                     *rcount, MPI_Type_f2c(*rtype), *src, *rtag, MPI_Comm_f2c(*comm),
	                     st_c(status, &st));
	st_f(status, &st);
}
F_NAMES(f_sendrecv, mpi_sendrecv, MPI_SENDRECV,
        (void *sbuf, FI scount, FI stype, FI dest, FI stag, void *rbuf, FI rcount, FI rtype,
         FI src, FI rtag, FI comm, FI status, FI ierr))

static void f_sendrecv_replace(void *buf, FI count, FI dt, FI dest, FI stag, FI src, FI rtag,
                               FI comm, FI status, FI ierr)
{
	MPI_Status st;
	*ierr = MPI_Sendrecv_replace(buf_c(buf), *count, MPI_Type_f2c(*dt), *dest, *stag, *src, *rtag,
	                             MPI_Comm_f2c(*comm), st_c(status, &st));
	st_f(status, &st);
}
F_NAMES(f_sendrecv_replace, mpi_sendrecv_replace, MPI_SENDRECV_REPLACE,
        (void *buf, FI count, FI dt, FI dest, FI stag, FI src, FI rtag, FI comm, FI status,
         FI ierr))

static void f_probe(FI src, FI tag, FI comm, FI status, FI ierr)
{
	MPI_Status st;
	*ierr = MPI_Probe(*src, *tag, MPI_Comm_f2c(*comm), st_c(status, &st));
	st_f(status, &st);
}
F_NAMES(f_probe, mpi_probe, MPI_PROBE, (FI src, FI tag, FI comm, FI status, FI ierr))

static void f_iprobe(FI src, FI tag, FI comm, FI flag, FI status, FI ierr)
{
	MPI_Status st;
	int fl = 0;
	*ierr = MPI_Iprobe(*src, *tag, MPI_Comm_f2c(*comm), &fl, st_c(status, &st));
	*flag = fl != 0;
	if (fl)
		st_f(status, &st);
}
F_NAMES(f_iprobe, mpi_iprobe, MPI_IPROBE, (FI src, FI tag, FI comm, FI flag, FI status, FI ierr))

/* ---- completion ----------------------------------------------------- */

static void f_wait(FI req, FI status, FI ierr)
{
	MPI_Request r = MPI_Request_f2c(*req);
	MPI_Status st;
	*ierr = MPI_Wait(&r, st_c(status, &st));
	*req = MPI_Request_c2f(r);
	st_f(status, &st);
}
F_NAMES(f_wait, mpi_wait, MPI_WAIT, (FI req, FI status, FI ierr))

static void f_test(FI req, FI flag, FI status, FI ierr)
{
	MPI_Request r = MPI_Request_f2c(*req);
	MPI_Status st;
	int fl = 0;
	*ierr = MPI_Test(&r, &fl, st_c(status, &st));
	*req = MPI_Request_c2f(r);
	*flag = fl != 0;
	if (fl)
		st_f(status, &st);
}
F_NAMES(f_test, mpi_test, MPI_TEST, (FI req, FI flag, FI status, FI ierr))

/* Request and status arrays of n entries in C: *r and *s (s NULL when
 * the statuses are ignored); 0, or -1 when out of memory. */
static int arrays_c(int n, const MPI_Fint *freq, const MPI_Fint *fst, MPI_Request **r,
                    MPI_Status **s)
{
	size_t k = n > 0 ? (size_t)n : 1;
	*r = malloc(k * sizeof **r);
	*s = statuses_ignored(fst) ? NULL : malloc(k * sizeof **s);
	if (!*r || (!*s && !statuses_ignored(fst))) {
		free(*r);
		free(*s);
		return -1;
	}
	for (int i = 0; i < n; i++)
		(*r)[i] = MPI_Request_f2c(freq[i]);
	return 0;
}

/* Back into Fortran: the requests, and the statuses of the entries in
 * which[0..nw) (all n when which is NULL). */
static void arrays_f(int n, MPI_Fint *freq, MPI_Fint *fst, MPI_Request *r, MPI_Status *s,
                     const int *which, int nw)
{
	for (int i = 0; i < n; i++)
		freq[i] = MPI_Request_c2f(r[i]);
	if (s)
		for (int k = 0; k < (which ? nw : n); k++)
			PMPI_Status_c2f(&s[k], fst + (size_t)k * F_STATUS_SIZE);
	free(r);
	free(s);
}

static void f_waitall(FI count, FI reqs, FI statuses, FI ierr)
{
	MPI_Request *r;
	MPI_Status *s;
	if (arrays_c(*count, reqs, statuses, &r, &s)) {
		*ierr = MPI_ERR_NO_MEM;
		return;
	}
	*ierr = MPI_Waitall(*count, r, s ? s : MPI_STATUSES_IGNORE);
	arrays_f(*count, reqs, statuses, r, s, NULL, 0);
}
F_NAMES(f_waitall, mpi_waitall, MPI_WAITALL, (FI count, FI reqs, FI statuses, FI ierr))

static void f_testall(FI count, FI reqs, FI flag, FI statuses, FI ierr)
{
	MPI_Request *r;
	MPI_Status *s;
	int fl = 0;
	if (arrays_c(*count, reqs, statuses, &r, &s)) {
		*ierr = MPI_ERR_NO_MEM;
		return;
	}
	*ierr = MPI_Testall(*count, r, &fl, s ? s : MPI_STATUSES_IGNORE);
	*flag = fl != 0;
	if (!fl && s) {
		free(s);
		s = NULL;
	}
	arrays_f(*count, reqs, statuses, r, s, NULL, 0);
}
F_NAMES(f_testall, mpi_testall, MPI_TESTALL, (FI count, FI reqs, FI flag, FI statuses, FI ierr))

/* Waitany and Testany: Fortran indices count from 1. */
static void f_waitany(FI count, FI reqs, FI index, FI status, FI ierr)
{
	MPI_Request *r;
	MPI_Status *s, st;
	int idx = MPI_UNDEFINED;
	if (arrays_c(*count, reqs, no_statuses(), &r, &s)) {
		*ierr = MPI_ERR_NO_MEM;
		return;
	}
	*ierr = MPI_Waitany(*count, r, &idx, st_c(status, &st));
	*index = idx == MPI_UNDEFINED ? MPI_UNDEFINED : idx + 1;
	arrays_f(*count, reqs, NULL, r, s, NULL, 0);
	if (idx != MPI_UNDEFINED)
		st_f(status, &st);
}
F_NAMES(f_waitany, mpi_waitany, MPI_WAITANY, (FI count, FI reqs, FI index, FI status, FI ierr))

static void f_testany(FI count, FI reqs, FI index, FI flag, FI status, FI ierr)
{
	MPI_Request *r;
	MPI_Status *s, st;
	int idx = MPI_UNDEFINED, fl = 0;
	if (arrays_c(*count, reqs, no_statuses(), &r, &s)) {
		*ierr = MPI_ERR_NO_MEM;
		return;
	}
	*ierr = MPI_Testany(*count, r, &idx, &fl, st_c(status, &st));
	*index = idx == MPI_UNDEFINED ? MPI_UNDEFINED : idx + 1;
	*flag = fl != 0;
	arrays_f(*count, reqs, NULL, r, s, NULL, 0);
	if (fl && idx != MPI_UNDEFINED)
		st_f(status, &st);
}
F_NAMES(f_testany, mpi_testany, MPI_TESTANY,
        (FI count, FI reqs, FI index, FI flag, FI status, FI ierr))

/* Waitsome and Testsome: outcount statuses, indices from 1. */
#define F_SOME(impl, C, lower, upper) \
	static void impl(FI incount, FI reqs, FI outcount, FI indices, FI statuses, FI ierr) \
	{ \
		MPI_Request *r; \
		MPI_Status *s; \
		int out = 0; \
		if (arrays_c(*incount, reqs, statuses, &r, &s)) { \
			*ierr = MPI_ERR_NO_MEM; \
			return; \
		} \
		*ierr = C(*incount, r, &out, indices, s ? s : MPI_STATUSES_IGNORE); \
		*outcount = out; \
		for (int k = 0; out != MPI_UNDEFINED && k < out; k++) \
			indices[k]++; \
		arrays_f(*incount, reqs, statuses, r, s, indices, out == MPI_UNDEFINED ? 0 : out); \
	} \
	F_NAMES(impl, lower, upper, (FI incount, FI reqs, FI outcount, FI indices, FI statuses, FI ierr))
F_SOME(f_waitsome, MPI_Waitsome, mpi_waitsome, MPI_WAITSOME)
F_SOME(f_testsome, MPI_Testsome, mpi_testsome, MPI_TESTSOME)

static void f_request_free(FI req, FI ierr)
{
	MPI_Request r = MPI_Request_f2c(*req);
	*ierr = MPI_Request_free(&r);
	*req = MPI_Request_c2f(r);
}
F_NAMES(f_request_free, mpi_request_free, MPI_REQUEST_FREE, (FI req, FI ierr))

static void f_cancel(FI req, FI ierr)
{
	MPI_Request r = MPI_Request_f2c(*req);
	*ierr = MPI_Cancel(&r);
}
F_NAMES(f_cancel, mpi_cancel, MPI_CANCEL, (FI req, FI ierr))

/* ---- collectives ---------------------------------------------------- */

static void f_barrier(FI comm, FI ierr)
{
	*ierr = MPI_Barrier(MPI_Comm_f2c(*comm));
}
F_NAMES(f_barrier, mpi_barrier, MPI_BARRIER, (FI comm, FI ierr))

static void f_bcast(void *buf, FI count, FI dt, FI root, FI comm, FI ierr)
{
	*ierr = MPI_Bcast(buf_c(buf), *count, MPI_Type_f2c(*dt), *root, MPI_Comm_f2c(*comm));
}
F_NAMES(f_bcast, mpi_bcast, MPI_BCAST, (void *buf, FI count, FI dt, FI root, FI comm, FI ierr))

static void f_reduce(void *sbuf, void *rbuf, FI count, FI dt, FI op, FI root, FI comm, FI ierr)
{
	*ierr = MPI_Reduce(cbuf_c(sbuf), buf_c(rbuf), *count, MPI_Type_f2c(*dt), MPI_Op_f2c(*op),
	                   *root, MPI_Comm_f2c(*comm));
}
F_NAMES(f_reduce, mpi_reduce, MPI_REDUCE,
        (void *sbuf, void *rbuf, FI count, FI dt, FI op, FI root, FI comm, FI ierr))

#define F_ALLRED(impl, C, lower, upper) \
	static void impl(void *sbuf, void *rbuf, FI count, FI dt, FI op, FI comm, FI ierr) \
	{ \
		*ierr = C(cbuf_c(sbuf), buf_c(rbuf), *count, MPI_Type_f2c(*dt), MPI_Op_f2c(*op), \
		          MPI_Comm_f2c(*comm)); \
	} \
	F_NAMES(impl, lower, upper, (void *sbuf, void *rbuf, FI count, FI dt, FI op, FI comm, FI ierr))
F_ALLRED(f_allreduce, MPI_Allreduce, mpi_allreduce, MPI_ALLREDUCE)
F_ALLRED(f_scan, MPI_Scan, mpi_scan, MPI_SCAN)
F_ALLRED(f_exscan, MPI_Exscan, mpi_exscan, MPI_EXSCAN)
F_ALLRED(f_reduce_scatter_block, MPI_Reduce_scatter_block, mpi_reduce_scatter_block,
         MPI_REDUCE_SCATTER_BLOCK)

static void f_reduce_scatter(void *sbuf, void *rbuf, FI rcounts, FI dt, FI op, FI comm, FI ierr)
{
	*ierr = MPI_Reduce_scatter(cbuf_c(sbuf), buf_c(rbuf), rcounts, MPI_Type_f2c(*dt),
	                           MPI_Op_f2c(*op), MPI_Comm_f2c(*comm));
}
F_NAMES(f_reduce_scatter, mpi_reduce_scatter, MPI_REDUCE_SCATTER,
        (void *sbuf, void *rbuf, FI rcounts, FI dt, FI op, FI comm, FI ierr))

#define F_GATHER(impl, C, lower, upper) \
	static void impl(void *sbuf, FI scount, FI stype, void *rbuf, FI rcount, FI rtype, FI root, \
	                 FI comm, FI ierr) \
	{ \
		*ierr = C(cbuf_c(sbuf), *scount, MPI_Type_f2c(*stype), buf_c(rbuf), *rcount, \
		          MPI_Type_f2c(*rtype), *root, MPI_Comm_f2c(*comm)); \
	} \
	F_NAMES(impl, lower, upper, (void *sbuf, FI scount, FI stype, void *rbuf, FI rcount, \
	                             FI rtype, FI root, FI comm, FI ierr))
F_GATHER(f_gather, MPI_Gather, mpi_gather, MPI_GATHER)
F_GATHER(f_scatter, MPI_Scatter, mpi_scatter, MPI_SCATTER)

#define F_ALLGATHER(impl, C, lower, upper) \
	static void impl(void *sbuf, FI scount, FI stype, void *rbuf, FI rcount, FI rtype, FI comm, \
	                 FI ierr) \
	{ \
		*ierr = C(cbuf_c(sbuf), *scount, MPI_Type_f2c(*stype), buf_c(rbuf), *rcount, \
		          MPI_Type_f2c(*rtype), MPI_Comm_f2c(*comm)); \
	} \
	F_NAMES(impl, lower, upper, (void *sbuf, FI scount, FI stype, void *rbuf, FI rcount, \
	                             FI rtype, FI comm, FI ierr))
F_ALLGATHER(f_allgather, MPI_Allgather, mpi_allgather, MPI_ALLGATHER)
F_ALLGATHER(f_alltoall, MPI_Alltoall, mpi_alltoall, MPI_ALLTOALL)

static void f_gatherv(void *sbuf, FI scount, FI stype, void *rbuf, FI rcounts, FI displs,
                      FI rtype, FI root, FI comm, FI ierr)
{
	*ierr = MPI_Gatherv(cbuf_c(sbuf), *scount, MPI_Type_f2c(*stype), buf_c(rbuf), rcounts,
	                    displs, MPI_Type_f2c(*rtype), *root, MPI_Comm_f2c(*comm));
}
F_NAMES(f_gatherv, mpi_gatherv, MPI_GATHERV,
        (void *sbuf, FI scount, FI stype, void *rbuf, FI rcounts, FI displs, FI rtype,
         FI root, FI comm, FI ierr))

static void f_scatterv(void *sbuf, FI scounts, FI displs, FI stype, void *rbuf, FI rcount,
                       FI rtype, FI root, FI comm, FI ierr)
{
	*ierr = MPI_Scatterv(cbuf_c(sbuf), scounts, displs, MPI_Type_f2c(*stype), buf_c(rbuf),
	                     *rcount, MPI_Type_f2c(*rtype), *root, MPI_Comm_f2c(*comm));
}
F_NAMES(f_scatterv, mpi_scatterv, MPI_SCATTERV,
        (void *sbuf, FI scounts, FI displs, FI stype, void *rbuf, FI rcount, FI rtype,
         FI root, FI comm, FI ierr))

static void f_allgatherv(void *sbuf, FI scount, FI stype, void *rbuf, FI rcounts, FI displs,
                         FI rtype, FI comm, FI ierr)
{
	*ierr = MPI_Allgatherv(cbuf_c(sbuf), *scount, MPI_Type_f2c(*stype), buf_c(rbuf), rcounts,
	                       displs, MPI_Type_f2c(*rtype), MPI_Comm_f2c(*comm));
}
F_NAMES(f_allgatherv, mpi_allgatherv, MPI_ALLGATHERV,
        (void *sbuf, FI scount, FI stype, void *rbuf, FI rcounts, FI displs, FI rtype,
         FI comm, FI ierr))

static void f_alltoallv(void *sbuf, FI scounts, FI sdispls, FI stype, void *rbuf, FI rcounts,
                        FI rdispls, FI rtype, FI comm, FI ierr)
{
	*ierr = MPI_Alltoallv(cbuf_c(sbuf), scounts, sdispls, MPI_Type_f2c(*stype), buf_c(rbuf),
	                      rcounts, rdispls, MPI_Type_f2c(*rtype), MPI_Comm_f2c(*comm));
}
F_NAMES(f_alltoallv, mpi_alltoallv, MPI_ALLTOALLV,
        (void *sbuf, FI scounts, FI sdispls, FI stype, void *rbuf, FI rcounts, FI rdispls,
         FI rtype, FI comm, FI ierr))

/* ---- nonblocking collectives: the same, with a request ------------- */

static void f_ibarrier(FI comm, FI req, FI ierr)
{
	MPI_Request r;
	*ierr = MPI_Ibarrier(MPI_Comm_f2c(*comm), &r);
	*req = MPI_Request_c2f(r);
}
F_NAMES(f_ibarrier, mpi_ibarrier, MPI_IBARRIER, (FI comm, FI req, FI ierr))

static void f_ibcast(void *buf, FI count, FI dt, FI root, FI comm, FI req, FI ierr)
{
	MPI_Request r;
	*ierr = MPI_Ibcast(buf_c(buf), *count, MPI_Type_f2c(*dt), *root, MPI_Comm_f2c(*comm), &r);
	*req = MPI_Request_c2f(r);
}
F_NAMES(f_ibcast, mpi_ibcast, MPI_IBCAST,
        (void *buf, FI count, FI dt, FI root, FI comm, FI req, FI ierr))

static void f_ireduce(void *sbuf, void *rbuf, FI count, FI dt, FI op, FI root, FI comm, FI req,
                      FI ierr)
{
	MPI_Request r;
	*ierr = MPI_Ireduce(cbuf_c(sbuf), buf_c(rbuf), *count, MPI_Type_f2c(*dt), MPI_Op_f2c(*op),
	                    *root, MPI_Comm_f2c(*comm), &r);
	*req = MPI_Request_c2f(r);
}
F_NAMES(f_ireduce, mpi_ireduce, MPI_IREDUCE,
        (void *sbuf, void *rbuf, FI count, FI dt, FI op, FI root, FI comm, FI req, FI ierr))

#define F_IALLRED(impl, C, lower, upper) \
	static void impl(void *sbuf, void *rbuf, FI count, FI dt, FI op, FI comm, FI req, FI ierr) \
	{ \
		MPI_Request r; \
		*ierr = C(cbuf_c(sbuf), buf_c(rbuf), *count, MPI_Type_f2c(*dt), MPI_Op_f2c(*op), \
		          MPI_Comm_f2c(*comm), &r); \
		*req = MPI_Request_c2f(r); \
	} \
	F_NAMES(impl, lower, upper, \
	        (void *sbuf, void *rbuf, FI count, FI dt, FI op, FI comm, FI req, FI ierr))
F_IALLRED(f_iallreduce, MPI_Iallreduce, mpi_iallreduce, MPI_IALLREDUCE)
F_IALLRED(f_iscan, MPI_Iscan, mpi_iscan, MPI_ISCAN)
F_IALLRED(f_iexscan, MPI_Iexscan, mpi_iexscan, MPI_IEXSCAN)
F_IALLRED(f_ireduce_scatter_block, MPI_Ireduce_scatter_block, mpi_ireduce_scatter_block,
          MPI_IREDUCE_SCATTER_BLOCK)

static void f_ireduce_scatter(void *sbuf, void *rbuf, FI rcounts, FI dt, FI op, FI comm, FI req,
                              FI ierr)
{
	MPI_Request r;
	*ierr = MPI_Ireduce_scatter(cbuf_c(sbuf), buf_c(rbuf), rcounts, MPI_Type_f2c(*dt),
	                            MPI_Op_f2c(*op), MPI_Comm_f2c(*comm), &r);
	*req = MPI_Request_c2f(r);
}
F_NAMES(f_ireduce_scatter, mpi_ireduce_scatter, MPI_IREDUCE_SCATTER,
        (void *sbuf, void *rbuf, FI rcounts, FI dt, FI op, FI comm, FI req, FI ierr))

#define F_IGATHER(impl, C, lower, upper) \
	static void impl(void *sbuf, FI scount, FI stype, void *rbuf, FI rcount, FI rtype, FI root, \
	                 FI comm, FI req, FI ierr) \
	{ \
		MPI_Request r; \
		*ierr = C(cbuf_c(sbuf), *scount, MPI_Type_f2c(*stype), buf_c(rbuf), *rcount, \
		          MPI_Type_f2c(*rtype), *root, MPI_Comm_f2c(*comm), &r); \
		*req = MPI_Request_c2f(r); \
	} \
	F_NAMES(impl, lower, upper, (void *sbuf, FI scount, FI stype, void *rbuf, FI rcount, \
	                             FI rtype, FI root, FI comm, FI req, FI ierr))
F_IGATHER(f_igather, MPI_Igather, mpi_igather, MPI_IGATHER)
F_IGATHER(f_iscatter, MPI_Iscatter, mpi_iscatter, MPI_ISCATTER)

#define F_IALLGATHER(impl, C, lower, upper) \
	static void impl(void *sbuf, FI scount, FI stype, void *rbuf, FI rcount, FI rtype, FI comm, \
	                 FI req, FI ierr) \
	{ \
		MPI_Request r; \
		*ierr = C(cbuf_c(sbuf), *scount, MPI_Type_f2c(*stype), buf_c(rbuf), *rcount, \
		          MPI_Type_f2c(*rtype), MPI_Comm_f2c(*comm), &r); \
		*req = MPI_Request_c2f(r); \
	} \
	F_NAMES(impl, lower, upper, (void *sbuf, FI scount, FI stype, void *rbuf, FI rcount, \
	                             FI rtype, FI comm, FI req, FI ierr))
F_IALLGATHER(f_iallgather, MPI_Iallgather, mpi_iallgather, MPI_IALLGATHER)
F_IALLGATHER(f_ialltoall, MPI_Ialltoall, mpi_ialltoall, MPI_IALLTOALL)

static void f_igatherv(void *sbuf, FI scount, FI stype, void *rbuf, FI rcounts, FI displs,
                       FI rtype, FI root, FI comm, FI req, FI ierr)
{
	MPI_Request r;
	*ierr = MPI_Igatherv(cbuf_c(sbuf), *scount, MPI_Type_f2c(*stype), buf_c(rbuf), rcounts,
	                     displs, MPI_Type_f2c(*rtype), *root, MPI_Comm_f2c(*comm), &r);
	*req = MPI_Request_c2f(r);
}
F_NAMES(f_igatherv, mpi_igatherv, MPI_IGATHERV,
        (void *sbuf, FI scount, FI stype, void *rbuf, FI rcounts, FI displs, FI rtype,
         FI root, FI comm, FI req, FI ierr))

static void f_iscatterv(void *sbuf, FI scounts, FI displs, FI stype, void *rbuf, FI rcount,
                        FI rtype, FI root, FI comm, FI req, FI ierr)
{
	MPI_Request r;
	*ierr = MPI_Iscatterv(cbuf_c(sbuf), scounts, displs, MPI_Type_f2c(*stype), buf_c(rbuf),
	                      *rcount, MPI_Type_f2c(*rtype), *root, MPI_Comm_f2c(*comm), &r);
	*req = MPI_Request_c2f(r);
}
F_NAMES(f_iscatterv, mpi_iscatterv, MPI_ISCATTERV,
        (void *sbuf, FI scounts, FI displs, FI stype, void *rbuf, FI rcount, FI rtype,
         FI root, FI comm, FI req, FI ierr))

static void f_iallgatherv(void *sbuf, FI scount, FI stype, void *rbuf, FI rcounts, FI displs,
                          FI rtype, FI comm, FI req, FI ierr)
{
	MPI_Request r;
	*ierr = MPI_Iallgatherv(cbuf_c(sbuf), *scount, MPI_Type_f2c(*stype), buf_c(rbuf), rcounts,
	                        displs, MPI_Type_f2c(*rtype), MPI_Comm_f2c(*comm), &r);
	*req = MPI_Request_c2f(r);
}
F_NAMES(f_iallgatherv, mpi_iallgatherv, MPI_IALLGATHERV,
        (void *sbuf, FI scount, FI stype, void *rbuf, FI rcounts, FI displs, FI rtype,
         FI comm, FI req, FI ierr))

static void f_ialltoallv(void *sbuf, FI scounts, FI sdispls, FI stype, void *rbuf, FI rcounts,
                         FI rdispls, FI rtype, FI comm, FI req, FI ierr)
{
	MPI_Request r;
	*ierr = MPI_Ialltoallv(cbuf_c(sbuf), scounts, sdispls, MPI_Type_f2c(*stype), buf_c(rbuf),
	                       rcounts, rdispls, MPI_Type_f2c(*rtype), MPI_Comm_f2c(*comm), &r);
	*req = MPI_Request_c2f(r);
}
F_NAMES(f_ialltoallv, mpi_ialltoallv, MPI_IALLTOALLV,
        (void *sbuf, FI scounts, FI sdispls, FI stype, void *rbuf, FI rcounts, FI rdispls,
         FI rtype, FI comm, FI req, FI ierr))

/* ---- communicators -------------------------------------------------- */

static void f_comm_split(FI comm, FI color, FI key, FI newcomm, FI ierr)
{
	MPI_Comm c;
	*ierr = MPI_Comm_split(MPI_Comm_f2c(*comm), *color, *key, &c);
	*newcomm = MPI_Comm_c2f(c);
}
F_NAMES(f_comm_split, mpi_comm_split, MPI_COMM_SPLIT, (FI comm, FI color, FI key, FI newcomm, FI ierr))

static void f_comm_split_type(FI comm, FI type, FI key, FI info, FI newcomm, FI ierr)
{
	MPI_Comm c;
	*ierr = MPI_Comm_split_type(MPI_Comm_f2c(*comm), *type, *key, MPI_Info_f2c(*info), &c);
	*newcomm = MPI_Comm_c2f(c);
}
F_NAMES(f_comm_split_type, mpi_comm_split_type, MPI_COMM_SPLIT_TYPE,
        (FI comm, FI type, FI key, FI info, FI newcomm, FI ierr))

static void f_comm_dup(FI comm, FI newcomm, FI ierr)
{
	MPI_Comm c;
	*ierr = MPI_Comm_dup(MPI_Comm_f2c(*comm), &c);
	*newcomm = MPI_Comm_c2f(c);
}
F_NAMES(f_comm_dup, mpi_comm_dup, MPI_COMM_DUP, (FI comm, FI newcomm, FI ierr))

static void f_comm_create(FI comm, FI group, FI newcomm, FI ierr)
{
	MPI_Comm c;
	*ierr = MPI_Comm_create(MPI_Comm_f2c(*comm), MPI_Group_f2c(*group), &c);
	*newcomm = MPI_Comm_c2f(c);
}
F_NAMES(f_comm_create, mpi_comm_create, MPI_COMM_CREATE, (FI comm, FI group, FI newcomm, FI ierr))

static void f_cart_create(FI comm, FI ndims, FI dims, FI periods, FI reorder, FI newcomm,
                          FI ierr)
{
	MPI_Comm c;
	int n = *ndims > 0 ? *ndims : 0, *p = malloc((size_t)(n ? n : 1) * sizeof *p);
	if (!p) {
		*ierr = MPI_ERR_NO_MEM;
		return;
	}
	for (int i = 0; i < n; i++)
		p[i] = periods[i] != 0;   /* LOGICAL */
	*ierr = MPI_Cart_create(MPI_Comm_f2c(*comm), *ndims, dims, p, *reorder != 0, &c);
	*newcomm = MPI_Comm_c2f(c);
	free(p);
}
F_NAMES(f_cart_create, mpi_cart_create, MPI_CART_CREATE,
        (FI comm, FI ndims, FI dims, FI periods, FI reorder, FI newcomm, FI ierr))

static void f_cart_sub(FI comm, FI remain, FI newcomm, FI ierr)
{
	MPI_Comm c, cc = MPI_Comm_f2c(*comm);
	int n = 0, *k;
	PMPI_Cartdim_get(cc, &n);
	if (!(k = malloc((size_t)(n > 0 ? n : 1) * sizeof *k))) {
		*ierr = MPI_ERR_NO_MEM;
		return;
	}
	for (int i = 0; i < n; i++)
		k[i] = remain[i] != 0;    /* LOGICAL */
	*ierr = MPI_Cart_sub(cc, k, &c);
	*newcomm = MPI_Comm_c2f(c);
	free(k);
}
F_NAMES(f_cart_sub, mpi_cart_sub, MPI_CART_SUB, (FI comm, FI remain, FI newcomm, FI ierr))

static void f_comm_free(FI comm, FI ierr)
{
	MPI_Comm c = MPI_Comm_f2c(*comm);
	*ierr = MPI_Comm_free(&c);
	*comm = MPI_Comm_c2f(c);
}
F_NAMES(f_comm_free, mpi_comm_free, MPI_COMM_FREE, (FI comm, FI ierr))

static void f_comm_rank(FI comm, FI rank, FI ierr)
{
	int r = 0;
	*ierr = MPI_Comm_rank(MPI_Comm_f2c(*comm), &r);
	*rank = r;
}
F_NAMES(f_comm_rank, mpi_comm_rank, MPI_COMM_RANK, (FI comm, FI rank, FI ierr))

static void f_comm_size(FI comm, FI size, FI ierr)
{
	int n = 0;
	*ierr = MPI_Comm_size(MPI_Comm_f2c(*comm), &n);
	*size = n;
}
F_NAMES(f_comm_size, mpi_comm_size, MPI_COMM_SIZE, (FI comm, FI size, FI ierr))

#endif
