/* trace_kinds.h: the single table of traced MPI calls and the field layout of
 * their trace lines, shared by the recorder (goaltrace.c, trace_write.c) and
 * the reader (trace_read.c).  docs/traces.md explains every field letter. */
#ifndef TRACE_KINDS_H
#define TRACE_KINDS_H

/* X(ID, "line name", goaltrace layout, liballprof layout or NULL)
 *
 * A layout lists the fields between START and END, one letter per field as
 * written in the goaltrace dialect (our files) and in the liballprof dialect
 * (files of the LogGOPSim toolchain).  Both dialects have the same number of
 * ':'-separated fields per call (A and D take two); only the content of
 * output arguments differs (liballprof prints the address of the output
 * variable where goaltrace prints its value).  A call that liballprof does
 * not record (NULL) is an unknown call in its files.  A nonblocking
 * collective has the fields of its blocking twin (TR_ICOLLS) and then its
 * request.  Field letters:
 *   p  pointer or ignored value, printed unsigned      i  ignored int, signed
 *   b  buffer address (ignored)
 *   n  element count         d  datatype "id,size,extent"
 *   P  peer rank (dest or source; the second P of a line is the receive side)
 *   T  tag (the second T is the receive tag)            r  root rank
 *   c  communicator "handle,rank,size"                  o  reduction op id
 *   R  request handle        k  number of requests      f  flag (0 or 1)
 *   L  list of request handles (goaltrace)              x  index (-1: none)
 *   B  address of the request array (liballprof; ids = B + i * request size)
 *   s  status "source,tag,bytes"   S  list of statuses, 3 values each
 *   O  outcount               I  list of indices
 *   A  count array: two fields "pointer:c0,c1,..."      D  displacements (as A)
 *   Q  count list in one field (Reduce_scatter)
 *   K  color    Y  key    N  new communicator handle    F  freed comm handle
 *   W  list of world ranks (communicator definition lines)
 * An empty list is written "-".  ORDER TR_KIND: the enum follows this table. */
#define TR_KINDS(X) \
	X(INIT,                 "MPI_Init",                 "pp",            "pp") \
	X(INIT_THREAD,          "MPI_Init_thread",          "ppii",          "ppip") \
	X(FINALIZE,             "MPI_Finalize",             "",              "") \
	X(SEND,                 "MPI_Send",                 "bndPTc",        "bndPTc") \
	X(BSEND,                "MPI_Bsend",                "bndPTc",        "bndPTc") \
	X(SSEND,                "MPI_Ssend",                "bndPTc",        "bndPTc") \
	X(RSEND,                "MPI_Rsend",                "bndPTc",        "bndPTc") \
	X(ISEND,                "MPI_Isend",                "bndPTcR",       "bndPTcR") \
	X(IBSEND,               "MPI_Ibsend",               "bndPTcR",       "bndPTcR") \
	X(ISSEND,               "MPI_Issend",               "bndPTcR",       "bndPTcR") \
	X(IRSEND,               "MPI_Irsend",               "bndPTcR",       "bndPTcR") \
	X(RECV,                 "MPI_Recv",                 "bndPTcs",       "bndPTcp") \
	X(IRECV,                "MPI_Irecv",                "bndPTcR",       "bndPTcR") \
	X(SENDRECV,             "MPI_Sendrecv",             "bndPTbndPTcs",  "bndPTbndPTcp") \
	X(SENDRECV_REPLACE,     "MPI_Sendrecv_replace",     "bndPTPTcs",     "bndPTPTcp") \
	X(WAIT,                 "MPI_Wait",                 "Rs",            "Rp") \
	X(WAITALL,              "MPI_Waitall",              "kLS",           "kBp") \
	X(WAITANY,              "MPI_Waitany",              "kLxs",          "kBpp") \
	X(WAITSOME,             "MPI_Waitsome",             "kLOIS",         "kBppp") \
	X(TEST,                 "MPI_Test",                 "Rfs",           "Rpp") \
	X(TESTALL,              "MPI_Testall",              "kLfS",          "kBpp") \
	X(TESTANY,              "MPI_Testany",              "kLxfs",         "kBppp") \
	X(TESTSOME,             "MPI_Testsome",             "kLOIS",         "kBppp") \
	X(REQUEST_FREE,         "MPI_Request_free",         "R",             "R") \
	X(CANCEL,               "MPI_Cancel",               "R",             "R") \
	X(PROBE,                "MPI_Probe",                "PTcs",          "PTcp") \
	X(IPROBE,               "MPI_Iprobe",               "PTcfs",         "PTcpp") \
	X(BARRIER,              "MPI_Barrier",              "c",             "c") \
	X(BCAST,                "MPI_Bcast",                "bndrc",         "bndrc") \
	X(REDUCE,               "MPI_Reduce",               "bbndorc",       "bbndorc") \
	X(ALLREDUCE,            "MPI_Allreduce",            "bbndoc",        "bbndoc") \
	X(GATHER,               "MPI_Gather",               "bndbndrc",      "bndbndrc") \
	X(GATHERV,              "MPI_Gatherv",              "bndbADdrc",     "bndbADdrc") \
	X(SCATTER,              "MPI_Scatter",              "bndbndrc",      "bndbndrc") \
	X(SCATTERV,             "MPI_Scatterv",             "bADdbndrc",     "bADdbndrc") \
	X(ALLGATHER,            "MPI_Allgather",            "bndbndc",       "bndbndc") \
	X(ALLGATHERV,           "MPI_Allgatherv",           "bndbADdc",      "bndbADdc") \
	X(ALLTOALL,             "MPI_Alltoall",             "bndbndc",       "bndbndc") \
	X(ALLTOALLV,            "MPI_Alltoallv",            "bADdbADdc",     "bADdbADdc") \
	X(REDUCE_SCATTER,       "MPI_Reduce_scatter",       "bbQdoc",        "bbpdoc") \
	X(REDUCE_SCATTER_BLOCK, "MPI_Reduce_scatter_block", "bbndoc",        "bbndoc") \
	X(SCAN,                 "MPI_Scan",                 "bbndoc",        "bbndoc") \
	X(EXSCAN,               "MPI_Exscan",               "bbndoc",        "bbndoc") \
	X(IBARRIER,             "MPI_Ibarrier",             "cR",            NULL) \
	X(IBCAST,               "MPI_Ibcast",               "bndrcR",        NULL) \
	X(IREDUCE,              "MPI_Ireduce",              "bbndorcR",      NULL) \
	X(IALLREDUCE,           "MPI_Iallreduce",           "bbndocR",       NULL) \
	X(IGATHER,              "MPI_Igather",              "bndbndrcR",     NULL) \
	X(IGATHERV,             "MPI_Igatherv",             "bndbADdrcR",    NULL) \
	X(ISCATTER,             "MPI_Iscatter",             "bndbndrcR",     NULL) \
	X(ISCATTERV,            "MPI_Iscatterv",            "bADdbndrcR",    NULL) \
	X(IALLGATHER,           "MPI_Iallgather",           "bndbndcR",      NULL) \
	X(IALLGATHERV,          "MPI_Iallgatherv",          "bndbADdcR",     NULL) \
	X(IALLTOALL,            "MPI_Ialltoall",            "bndbndcR",      NULL) \
	X(IALLTOALLV,           "MPI_Ialltoallv",           "bADdbADdcR",    NULL) \
	X(IREDUCE_SCATTER,      "MPI_Ireduce_scatter",      "bbQdocR",       NULL) \
	X(IREDUCE_SCATTER_BLOCK, "MPI_Ireduce_scatter_block", "bbndocR",     NULL) \
	X(ISCAN,                "MPI_Iscan",                "bbndocR",       NULL) \
	X(IEXSCAN,              "MPI_Iexscan",              "bbndocR",       NULL) \
	X(COMM_SPLIT,           "MPI_Comm_split",           "cKYN",          "cKYp") \
	X(COMM_SPLIT_TYPE,      "MPI_Comm_split_type",      "ciYpN",         NULL) \
	X(COMM_DUP,             "MPI_Comm_dup",             "cN",            "cp") \
	X(COMM_CREATE,          "MPI_Comm_create",          "cpN",           "cpp") \
	X(COMM_CREATE_GROUP,    "MPI_Comm_create_group",    "cpiN",          NULL) \
	X(CART_CREATE,          "MPI_Cart_create",          "ciiN",          NULL) \
	X(CART_SUB,             "MPI_Cart_sub",             "cN",            NULL) \
	X(COMM_FREE,            "MPI_Comm_free",            "F",             "p") \
	X(COMM_RANK,            "MPI_Comm_rank",            "ci",            "cp") \
	X(COMM_SIZE,            "MPI_Comm_size",            "ci",            "cp") \
	X(ABORT,                "MPI_Abort",                "ci",            "ci") \
	X(COMMDEF,              "# comm",                   "NW",            "NW") \
	X(OTHER,                "",                         "",              "")

enum tr_kind {
#define TR_KIND_ENUM(id, name, ours, theirs) TR_##id,
	TR_KINDS(TR_KIND_ENUM)
#undef TR_KIND_ENUM
	TR_NKINDS
};

/* Whether kind k starts a nonblocking send. */
static inline int tr_is_isend(enum tr_kind k)
{
	return k == TR_ISEND || k == TR_IBSEND || k == TR_ISSEND || k == TR_IRSEND;
}

/* The nonblocking collectives and their blocking twins: X(ICOLL, COLL). */
#define TR_ICOLLS(X) \
	X(IBARRIER, BARRIER) X(IBCAST, BCAST) X(IREDUCE, REDUCE) X(IALLREDUCE, ALLREDUCE) \
	X(IGATHER, GATHER) X(IGATHERV, GATHERV) X(ISCATTER, SCATTER) X(ISCATTERV, SCATTERV) \
	X(IALLGATHER, ALLGATHER) X(IALLGATHERV, ALLGATHERV) X(IALLTOALL, ALLTOALL) \
	X(IALLTOALLV, ALLTOALLV) X(IREDUCE_SCATTER, REDUCE_SCATTER) \
	X(IREDUCE_SCATTER_BLOCK, REDUCE_SCATTER_BLOCK) X(ISCAN, SCAN) X(IEXSCAN, EXSCAN)

/* The blocking twin of a nonblocking collective; any other kind itself. */
static inline enum tr_kind tr_blocking(enum tr_kind k)
{
	switch (k) {
#define TR_ICOLL_CASE(i, b) case TR_##i: return TR_##b;
	TR_ICOLLS(TR_ICOLL_CASE)
#undef TR_ICOLL_CASE
	default: return k;
	}
}

/* Whether kind k makes a communicator (Comm_free, which frees one, is
 * not among them). */
static inline int tr_makes_comm(enum tr_kind k)
{
	return k == TR_COMM_SPLIT || k == TR_COMM_SPLIT_TYPE || k == TR_COMM_DUP ||
	       k == TR_COMM_CREATE || k == TR_COMM_CREATE_GROUP || k == TR_CART_CREATE ||
	       k == TR_CART_SUB;
}

/* Whether kind k starts a request: a nonblocking send, receive or
 * collective. */
static inline int tr_starts_request(enum tr_kind k)
{
	return tr_is_isend(k) || k == TR_IRECV || tr_blocking(k) != k;
}

/* The line name of each kind (defined in trace_write.c). */
extern const char *const tr_kind_names[TR_NKINDS];

/* Normalised special ranks and tags written by goaltrace (Open MPI's values;
 * MPICH's differ and are translated when recording). */
#define TR_ANY_SOURCE (-1)
#define TR_PROC_NULL (-2)
#define TR_ANY_TAG (-1)

/* Time value meaning "not recorded" ("-" in a trace line). */
#define TR_NO_TIME UINT64_MAX

#endif
