/* goaltrace_coll.c: the tracer's wrappers of the collectives (blocking and
 * nonblocking) for libgoaltrace.so: each calls PMPI and records the call
 * with its times and arguments (goaltrace.c keeps the records). */
#include <mpi.h>

#include "goaltrace_int.h"
#include "trace_write.h"

/* The blocking collectives record after the call, the nonblocking ones
 * (req: their request) after starting it. */
static void rec_barrier(enum tr_kind kind, MPI_Comm comm, const MPI_Request *req,
                        uint64_t t0, uint64_t t1)
{
	uint64_t *w = gt_rec_open(kind, 0);
	if (w)
		gt_rec_end(w, TR_REC_FIRST, comm, req, t0, t1);
}

int MPI_Barrier(MPI_Comm comm)
{
	uint64_t t0 = now();
	int ret = PMPI_Barrier(comm);
	rec_barrier(TR_BARRIER, comm, NULL, t0, now());
	return ret;
}

int MPI_Ibarrier(MPI_Comm comm, MPI_Request *req)
{
	uint64_t t0 = now();
	int ret = PMPI_Ibarrier(comm, req);
	rec_barrier(TR_IBARRIER, comm, req, t0, now());
	return ret;
}

static void rec_bcast(enum tr_kind kind, const void *buf, int count, MPI_Datatype dt,
                      int root, MPI_Comm comm, const MPI_Request *req, uint64_t t0,
                      uint64_t t1)
{
	uint64_t *w = gt_rec_open(kind, 0);
	if (!w)
		return;
	size_t i = gt_put_buf(w, TR_REC_FIRST, buf, count, dt);
	w[i++] = s64(root);
	gt_rec_end(w, i, comm, req, t0, t1);
}

int MPI_Bcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm)
{
	uint64_t t0 = now();
	int ret = PMPI_Bcast(buf, count, dt, root, comm);
	rec_bcast(TR_BCAST, buf, count, dt, root, comm, NULL, t0, now());
	return ret;
}

int MPI_Ibcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm,
               MPI_Request *req)
{
	uint64_t t0 = now();
	int ret = PMPI_Ibcast(buf, count, dt, root, comm, req);
	rec_bcast(TR_IBCAST, buf, count, dt, root, comm, req, t0, now());
	return ret;
}

/* Record b b n d o [r] c [R] of the reductions. */
static void rec_reduce(enum tr_kind kind, const void *sbuf, const void *rbuf, int count,
                       MPI_Datatype dt, MPI_Op op, int root, MPI_Comm comm,
                       const MPI_Request *req, uint64_t t0, uint64_t t1)
{
	uint64_t *w = gt_rec_open(kind, 0);
	if (!w)
		return;
	size_t i = TR_REC_FIRST;
	w[i++] = h_ptr(sbuf);
	w[i++] = h_ptr(rbuf);
	w[i++] = s64(count);
	i = gt_put_dtype(w, i, dt);
	w[i++] = gt_op_id(op);
	if (tr_blocking(kind) == TR_REDUCE)
		w[i++] = s64(root);
	gt_rec_end(w, i, comm, req, t0, t1);
}

int MPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op,
               int root, MPI_Comm comm)
{
	uint64_t t0 = now();
	int ret = PMPI_Reduce(sbuf, rbuf, count, dt, op, root, comm);
	rec_reduce(TR_REDUCE, sbuf, rbuf, count, dt, op, root, comm, NULL, t0, now());
	return ret;
}

int MPI_Ireduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op,
                int root, MPI_Comm comm, MPI_Request *req)
{
	uint64_t t0 = now();
	int ret = PMPI_Ireduce(sbuf, rbuf, count, dt, op, root, comm, req);
	rec_reduce(TR_IREDUCE, sbuf, rbuf, count, dt, op, root, comm, req, t0, now());
	return ret;
}

#define ALLRED_FN(NAME, KIND) \
	int NAME(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, \
	         MPI_Comm comm) \
	{ \
		uint64_t t0 = now(); \
		int ret = P##NAME(sbuf, rbuf, count, dt, op, comm); \
		rec_reduce(KIND, sbuf, rbuf, count, dt, op, -1, comm, NULL, t0, now()); \
		return ret; \
	}
#define IALLRED_FN(NAME, KIND) \
	int NAME(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, \
	         MPI_Comm comm, MPI_Request *req) \
	{ \
		uint64_t t0 = now(); \
		int ret = P##NAME(sbuf, rbuf, count, dt, op, comm, req); \
		rec_reduce(KIND, sbuf, rbuf, count, dt, op, -1, comm, req, t0, now()); \
		return ret; \
	}
ALLRED_FN(MPI_Allreduce, TR_ALLREDUCE)
ALLRED_FN(MPI_Scan, TR_SCAN)
ALLRED_FN(MPI_Exscan, TR_EXSCAN)
ALLRED_FN(MPI_Reduce_scatter_block, TR_REDUCE_SCATTER_BLOCK)
IALLRED_FN(MPI_Iallreduce, TR_IALLREDUCE)
IALLRED_FN(MPI_Iscan, TR_ISCAN)
IALLRED_FN(MPI_Iexscan, TR_IEXSCAN)
IALLRED_FN(MPI_Ireduce_scatter_block, TR_IREDUCE_SCATTER_BLOCK)

static void rec_reduce_scatter(enum tr_kind kind, const void *sbuf, const void *rbuf,
                               const int rcounts[], MPI_Datatype dt, MPI_Op op,
                               MPI_Comm comm, const MPI_Request *req, uint64_t t0,
                               uint64_t t1)
{
	int p = gt_comm_size(comm);
	uint64_t *w = gt_rec_open(kind, (size_t)p);
	if (!w)
		return;
	size_t i = TR_REC_FIRST;
	w[i++] = h_ptr(sbuf);
	w[i++] = h_ptr(rbuf);
	w[i++] = s64(p);
	for (int k = 0; k < p; k++)
		w[i++] = s64(rcounts[k]);
	i = gt_put_dtype(w, i, dt);
	w[i++] = gt_op_id(op);
	gt_rec_end(w, i, comm, req, t0, t1);
}

int MPI_Reduce_scatter(const void *sbuf, void *rbuf, const int rcounts[], MPI_Datatype dt,
                       MPI_Op op, MPI_Comm comm)
{
	uint64_t t0 = now();
	int ret = PMPI_Reduce_scatter(sbuf, rbuf, rcounts, dt, op, comm);
	rec_reduce_scatter(TR_REDUCE_SCATTER, sbuf, rbuf, rcounts, dt, op, comm, NULL, t0, now());
	return ret;
}

int MPI_Ireduce_scatter(const void *sbuf, void *rbuf, const int rcounts[], MPI_Datatype dt,
                        MPI_Op op, MPI_Comm comm, MPI_Request *req)
{
	uint64_t t0 = now();
	int ret = PMPI_Ireduce_scatter(sbuf, rbuf, rcounts, dt, op, comm, req);
	rec_reduce_scatter(TR_IREDUCE_SCATTER, sbuf, rbuf, rcounts, dt, op, comm, req, t0, now());
	return ret;
}

/* Count and type of one side of a collective; both 0 when the buffer is
 * MPI_IN_PLACE (the count and type are then not significant). */
static size_t put_side(uint64_t *w, size_t i, const void *buf, int count, MPI_Datatype dt)
{
	if (buf != MPI_IN_PLACE)
		return gt_put_buf(w, i, buf, count, dt);
	w[i++] = h_ptr(buf);
	w[i++] = 0;
	w[i] = w[i + 1] = w[i + 2] = 0;
	return i + 3;
}

/* Puts "b A D d", a side of a v collective: its buffer, its counts and
 * displacements (p each) and its datatype; a side MPI does not read at
 * this rank (used 0) as empty lists and datatype 0. */
static size_t put_vside(uint64_t *w, size_t i, const void *buf, const int counts[],
                        const int displs[], MPI_Datatype dt, int p, int used)
{
	w[i++] = h_ptr(buf);
	i = gt_put_counts(w, i, used ? counts : NULL, p);
	i = gt_put_counts(w, i, used ? displs : NULL, p);
	return gt_put_dtype(w, i, used ? dt : MPI_DATATYPE_NULL);
}

/* Record b n d b n d [r] c [R] of Gather, Scatter, Allgather and Alltoall. */
static void rec_gather(enum tr_kind kind, const void *sbuf, int scount, MPI_Datatype stype,
                       const void *rbuf, int rcount, MPI_Datatype rtype, int root,
                       MPI_Comm comm, const MPI_Request *req, uint64_t t0, uint64_t t1)
{
	uint64_t *w = gt_rec_open(kind, 0);
	if (!w)
		return;
	enum tr_kind bk = tr_blocking(kind);
	int me = gt_comm_rank(comm);
	int rooted = bk == TR_GATHER || bk == TR_SCATTER;
	/* arguments that MPI ignores at this rank are recorded as 0 */
	int send_ok = !(bk == TR_SCATTER && me != root);
	int recv_ok = !(bk == TR_GATHER && me != root);
	size_t i = TR_REC_FIRST;
	i = put_side(w, i, sbuf, send_ok ? scount : 0, send_ok ? stype : MPI_DATATYPE_NULL);
	i = put_side(w, i, rbuf, recv_ok ? rcount : 0, recv_ok ? rtype : MPI_DATATYPE_NULL);
	if (rooted)
		w[i++] = s64(root);
	gt_rec_end(w, i, comm, req, t0, t1);
}

#define GATHER_FN(NAME, KIND) \
	int NAME(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount, \
	         MPI_Datatype rtype, int root, MPI_Comm comm) \
	{ \
		uint64_t t0 = now(); \
		int ret = P##NAME(sbuf, scount, stype, rbuf, rcount, rtype, root, comm); \
		rec_gather(KIND, sbuf, scount, stype, rbuf, rcount, rtype, root, comm, NULL, t0, \
		           now()); \
		return ret; \
	}
#define IGATHER_FN(NAME, KIND) \
	int NAME(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount, \
	         MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request *req) \
	{ \
		uint64_t t0 = now(); \
		int ret = P##NAME(sbuf, scount, stype, rbuf, rcount, rtype, root, comm, req); \
		rec_gather(KIND, sbuf, scount, stype, rbuf, rcount, rtype, root, comm, req, t0, \
		           now()); \
		return ret; \
	}
GATHER_FN(MPI_Gather, TR_GATHER)
GATHER_FN(MPI_Scatter, TR_SCATTER)
IGATHER_FN(MPI_Igather, TR_IGATHER)
IGATHER_FN(MPI_Iscatter, TR_ISCATTER)

#define ALLGATHER_FN(NAME, KIND) \
	int NAME(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount, \
	         MPI_Datatype rtype, MPI_Comm comm) \
	{ \
		uint64_t t0 = now(); \
		int ret = P##NAME(sbuf, scount, stype, rbuf, rcount, rtype, comm); \
		rec_gather(KIND, sbuf, scount, stype, rbuf, rcount, rtype, -1, comm, NULL, t0, \
		           now()); \
		return ret; \
	}
#define IALLGATHER_FN(NAME, KIND) \
	int NAME(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount, \
	         MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req) \
	{ \
		uint64_t t0 = now(); \
		int ret = P##NAME(sbuf, scount, stype, rbuf, rcount, rtype, comm, req); \
		rec_gather(KIND, sbuf, scount, stype, rbuf, rcount, rtype, -1, comm, req, t0, \
		           now()); \
		return ret; \
	}
ALLGATHER_FN(MPI_Allgather, TR_ALLGATHER)
ALLGATHER_FN(MPI_Alltoall, TR_ALLTOALL)
IALLGATHER_FN(MPI_Iallgather, TR_IALLGATHER)
IALLGATHER_FN(MPI_Ialltoall, TR_IALLTOALL)

static void rec_gatherv(enum tr_kind kind, const void *sbuf, int scount, MPI_Datatype stype,
                        const void *rbuf, const int rcounts[], const int displs[],
                        MPI_Datatype rtype, int root, MPI_Comm comm, const MPI_Request *req,
                        uint64_t t0, uint64_t t1)
{
	int p = gt_comm_size(comm), at_root = gt_comm_rank(comm) == root;
	uint64_t *w = gt_rec_open(kind, (size_t)p);
	if (!w)
		return;
	size_t i = put_side(w, TR_REC_FIRST, sbuf, scount, stype);
	i = put_vside(w, i, rbuf, rcounts, displs, rtype, p, at_root);
	w[i++] = s64(root);
	gt_rec_end(w, i, comm, req, t0, t1);
}

int MPI_Gatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                const int rcounts[], const int displs[], MPI_Datatype rtype, int root,
                MPI_Comm comm)
{
	uint64_t t0 = now();
	int ret = PMPI_Gatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm);
	rec_gatherv(TR_GATHERV, sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm,
	            NULL, t0, now());
	return ret;
}

int MPI_Igatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                 const int rcounts[], const int displs[], MPI_Datatype rtype, int root,
                 MPI_Comm comm, MPI_Request *req)
{
	uint64_t t0 = now();
	int ret = PMPI_Igatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm,
	                        req);
	rec_gatherv(TR_IGATHERV, sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm,
	            req, t0, now());
	return ret;
}

static void rec_scatterv(enum tr_kind kind, const void *sbuf, const int scounts[],
                         const int displs[], MPI_Datatype stype, const void *rbuf, int rcount,
                         MPI_Datatype rtype, int root, MPI_Comm comm, const MPI_Request *req,
                         uint64_t t0, uint64_t t1)
{
	int p = gt_comm_size(comm), at_root = gt_comm_rank(comm) == root;
	uint64_t *w = gt_rec_open(kind, (size_t)p);
	if (!w)
		return;
	size_t i = put_vside(w, TR_REC_FIRST, sbuf, scounts, displs, stype, p, at_root);
	i = put_side(w, i, rbuf, rcount, rtype);
	w[i++] = s64(root);
	gt_rec_end(w, i, comm, req, t0, t1);
}

int MPI_Scatterv(const void *sbuf, const int scounts[], const int displs[],
                 MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype, int root,
                 MPI_Comm comm)
{
	uint64_t t0 = now();
	int ret = PMPI_Scatterv(sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm);
	rec_scatterv(TR_SCATTERV, sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm,
	             NULL, t0, now());
	return ret;
}

int MPI_Iscatterv(const void *sbuf, const int scounts[], const int displs[],
                  MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype, int root,
                  MPI_Comm comm, MPI_Request *req)
{
	uint64_t t0 = now();
	int ret = PMPI_Iscatterv(sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm,
	                         req);
	rec_scatterv(TR_ISCATTERV, sbuf, scounts, displs, stype, rbuf, rcount, rtype, root,
	             comm, req, t0, now());
	return ret;
}

static void rec_allgatherv(enum tr_kind kind, const void *sbuf, int scount,
                           MPI_Datatype stype, const void *rbuf, const int rcounts[],
                           const int displs[], MPI_Datatype rtype, MPI_Comm comm,
                           const MPI_Request *req, uint64_t t0, uint64_t t1)
{
	int p = gt_comm_size(comm);
	uint64_t *w = gt_rec_open(kind, (size_t)p);
	if (!w)
		return;
	size_t i = put_side(w, TR_REC_FIRST, sbuf, scount, stype);
	i = put_vside(w, i, rbuf, rcounts, displs, rtype, p, 1);
	gt_rec_end(w, i, comm, req, t0, t1);
}

int MPI_Allgatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                   const int rcounts[], const int displs[], MPI_Datatype rtype,
                   MPI_Comm comm)
{
	uint64_t t0 = now();
	int ret = PMPI_Allgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm);
	rec_allgatherv(TR_ALLGATHERV, sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm,
	               NULL, t0, now());
	return ret;
}

int MPI_Iallgatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                    const int rcounts[], const int displs[], MPI_Datatype rtype,
                    MPI_Comm comm, MPI_Request *req)
{
	uint64_t t0 = now();
	int ret = PMPI_Iallgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm, req);
	rec_allgatherv(TR_IALLGATHERV, sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm,
	               req, t0, now());
	return ret;
}

static void rec_alltoallv(enum tr_kind kind, const void *sbuf, const int scounts[],
                          const int sdispls[], MPI_Datatype stype, const void *rbuf,
                          const int rcounts[], const int rdispls[], MPI_Datatype rtype,
                          MPI_Comm comm, const MPI_Request *req, uint64_t t0, uint64_t t1)
{
	int p = gt_comm_size(comm), in_place = sbuf == MPI_IN_PLACE;
	uint64_t *w = gt_rec_open(kind, (size_t)p);
	if (!w)
		return;
	size_t i = put_vside(w, TR_REC_FIRST, sbuf, scounts, sdispls, stype, p, !in_place);
	i = put_vside(w, i, rbuf, rcounts, rdispls, rtype, p, 1);
	gt_rec_end(w, i, comm, req, t0, t1);
}

int MPI_Alltoallv(const void *sbuf, const int scounts[], const int sdispls[],
                  MPI_Datatype stype, void *rbuf, const int rcounts[],
                  const int rdispls[], MPI_Datatype rtype, MPI_Comm comm)
{
	uint64_t t0 = now();
	int ret = PMPI_Alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls,
	                         rtype, comm);
	rec_alltoallv(TR_ALLTOALLV, sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype,
	              comm, NULL, t0, now());
	return ret;
}

int MPI_Ialltoallv(const void *sbuf, const int scounts[], const int sdispls[],
                   MPI_Datatype stype, void *rbuf, const int rcounts[],
                   const int rdispls[], MPI_Datatype rtype, MPI_Comm comm,
                   MPI_Request *req)
{
	uint64_t t0 = now();
	int ret = PMPI_Ialltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls,
	                          rtype, comm, req);
	rec_alltoallv(TR_IALLTOALLV, sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls,
	              rtype, comm, req, t0, now());
	return ret;
}
