/* trace_dumpi.c: SST-DUMPI binary traces into struct tr_trace
 * (trace_dumpi.h).
 *
 * A rank file is big-endian: the 8-byte magic FF AA DD 'D' 'U' 'M' 'P' 'I';
 * the record stream (two 32-bit time biases in seconds, CPU and wall, then
 * the records, ended by the label DUMPI_END); the header (three version
 * bytes, ...); the footer (a magic, then how often each function was called
 * and how often it was not recorded); the datatype sizes (a count, then one
 * 32-bit size per datatype id); and last the index: the magic and the
 * offsets of the sections, newer files having more of them in front.  A
 * record is a 16-bit function label, an 8-bit mask (bits 0-1: statuses are
 * recorded, 2: CPU times, 3: wall times, 6: a 16-bit thread id, 7:
 * performance counters), the thread id, the times (each a 16-bit second
 * after the bias and a 32-bit nanosecond, at entry and exit), the counters
 * (an 8-bit count, then two 64-bit values each) and the arguments, whose
 * layout is fixed per function (DUMPI_FUNCS).  Handles (communicators,
 * groups, datatypes, requests) are small numbers per rank: communicator 2 is
 * MPI_COMM_WORLD, 3 MPI_COMM_SELF, 1 MPI_COMM_NULL; group 2 is the empty
 * group; request 1 is MPI_REQUEST_NULL. */
#include "trace_dumpi.h"
#include "trace_build.h"
#include "kmap.h"
#include "util.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DUMPI_MAGIC 0xffaadd44554d5049ull
#define DUMPI_FOOT_MAGIC 0xf007fee7ull

/* Argument layouts, one letter per stored value (all big-endian):
 *   i int32   h 16-bit handle (communicator, group, datatype, ...)
 *   b 8 bits  q int64   r request (32 bits)
 *   a int32 array (int32 length, then the values)   H 16-bit array
 *   B 8-bit array   A array of int32 arrays   C chars (int32 length, bytes)
 *   T array of C    U array of T
 *   s, S status(es), present when the mask has bit 0 or 1: an int32 count,
 *     then per status bytes, source (int32), cancelled, error (8 bits) and,
 *     since version 0.6.3, the tag (int32)
 *   v an int32 array since version 0.6.9, one int32 before
 *   w the same since 0.6.8
 *   I the arguments of MPI_Init: an int32 count (written twice before
 *     version 0.6.2), then that many C
 *   J the same without the old repetition (MPI_Init_thread)
 *   [XY ...] the values up to ] are there only when the X-th and the Y-th
 *     value (digits, from 0) are equal (the root of Gather & co.)
 * X(name, layout, kind): the function labels are the positions in this
 * table; kind is the tr_kind of the call, TR_OTHER for the calls that
 * trace2goal does not convert (their name is kept).  libdumpi never writes
 * MPI_Pcontrol records (no layout: an error if one is found). */
#define DUMPI_FUNCS(X) \
	X("MPI_Send", "ihiih", TR_SEND) \
	X("MPI_Recv", "ihiihs", TR_RECV) \
	X("MPI_Get_count", "shi", TR_OTHER) \
	X("MPI_Bsend", "ihiih", TR_BSEND) \
	X("MPI_Ssend", "ihiih", TR_SSEND) \
	X("MPI_Rsend", "ihiih", TR_RSEND) \
	X("MPI_Buffer_attach", "i", TR_OTHER) \
	X("MPI_Buffer_detach", "i", TR_OTHER) \
	X("MPI_Isend", "ihiihr", TR_ISEND) \
	X("MPI_Ibsend", "ihiihr", TR_IBSEND) \
	X("MPI_Issend", "ihiihr", TR_ISSEND) \
	X("MPI_Irsend", "ihiihr", TR_IRSEND) \
	X("MPI_Irecv", "ihiihr", TR_IRECV) \
	X("MPI_Wait", "rs", TR_WAIT) \
	X("MPI_Test", "ris", TR_TEST) \
	X("MPI_Request_free", "r", TR_REQUEST_FREE) \
	X("MPI_Waitany", "iais", TR_WAITANY) \
	X("MPI_Testany", "iaiis", TR_TESTANY) \
	X("MPI_Waitall", "iaS", TR_WAITALL) \
	X("MPI_Testall", "iaiS", TR_TESTALL) \
	X("MPI_Waitsome", "iaiaS", TR_WAITSOME) \
	X("MPI_Testsome", "iaiaS", TR_TESTSOME) \
	X("MPI_Iprobe", "iihis", TR_IPROBE) \
	X("MPI_Probe", "iihs", TR_PROBE) \
	X("MPI_Cancel", "r", TR_CANCEL) \
	X("MPI_Test_cancelled", "si", TR_OTHER) \
	X("MPI_Send_init", "ihiihr", TR_OTHER) \
	X("MPI_Bsend_init", "ihiihr", TR_OTHER) \
	X("MPI_Ssend_init", "ihiihr", TR_OTHER) \
	X("MPI_Rsend_init", "ihiihr", TR_OTHER) \
	X("MPI_Recv_init", "ihiihr", TR_OTHER) \
	X("MPI_Start", "r", TR_OTHER) \
	X("MPI_Startall", "ia", TR_OTHER) \
	X("MPI_Sendrecv", "ihiiihiihs", TR_SENDRECV) \
	X("MPI_Sendrecv_replace", "ihiiiihs", TR_SENDRECV_REPLACE) \
	X("MPI_Type_contiguous", "ihh", TR_OTHER) \
	X("MPI_Type_vector", "iiihh", TR_OTHER) \
	X("MPI_Type_hvector", "iiihh", TR_OTHER) \
	X("MPI_Type_indexed", "iaahh", TR_OTHER) \
	X("MPI_Type_hindexed", "iaahh", TR_OTHER) \
	X("MPI_Type_struct", "iavHh", TR_OTHER) \
	X("MPI_Address", "i", TR_OTHER) \
	X("MPI_Type_extent", "hi", TR_OTHER) \
	X("MPI_Type_size", "hi", TR_OTHER) \
	X("MPI_Type_lb", "hi", TR_OTHER) \
	X("MPI_Type_ub", "hi", TR_OTHER) \
	X("MPI_Type_commit", "h", TR_OTHER) \
	X("MPI_Type_free", "h", TR_OTHER) \
	X("MPI_Get_elements", "shi", TR_OTHER) \
	X("MPI_Pack", "ihiiih", TR_OTHER) \
	X("MPI_Unpack", "iiiihh", TR_OTHER) \
	X("MPI_Pack_size", "ihhi", TR_OTHER) \
	X("MPI_Barrier", "h", TR_BARRIER) \
	X("MPI_Bcast", "ihih", TR_BCAST) \
	X("MPI_Gather", "iihih[03ih]", TR_GATHER) \
	X("MPI_Gatherv", "iiihih[04aa]h", TR_GATHERV) \
	X("MPI_Scatter", "iihih[03ih]", TR_SCATTER) \
	X("MPI_Scatterv", "iihihih[05aa]", TR_SCATTERV) \
	X("MPI_Allgather", "ihihh", TR_ALLGATHER) \
	X("MPI_Allgatherv", "iihaahh", TR_ALLGATHERV) \
	X("MPI_Alltoall", "ihihh", TR_ALLTOALL) \
	X("MPI_Alltoallv", "iaahaahh", TR_ALLTOALLV) \
	X("MPI_Reduce", "ihbih", TR_REDUCE) \
	X("MPI_Op_create", "ib", TR_OTHER) \
	X("MPI_Op_free", "b", TR_OTHER) \
	X("MPI_Allreduce", "ihbh", TR_ALLREDUCE) \
	X("MPI_Reduce_scatter", "iahbh", TR_REDUCE_SCATTER) \
	X("MPI_Scan", "ihbh", TR_SCAN) \
	X("MPI_Group_size", "hi", TR_OTHER) \
	X("MPI_Group_rank", "hi", TR_OTHER) \
	X("MPI_Group_translate_ranks", "hiaha", TR_OTHER) \
	X("MPI_Group_compare", "hhb", TR_OTHER) \
	X("MPI_Comm_group", "hh", TR_OTHER) \
	X("MPI_Group_union", "hhh", TR_OTHER) \
	X("MPI_Group_intersection", "hhh", TR_OTHER) \
	X("MPI_Group_difference", "hhh", TR_OTHER) \
	X("MPI_Group_incl", "hiah", TR_OTHER) \
	X("MPI_Group_excl", "hiah", TR_OTHER) \
	X("MPI_Group_range_incl", "hiAh", TR_OTHER) \
	X("MPI_Group_range_excl", "hiAh", TR_OTHER) \
	X("MPI_Group_free", "h", TR_OTHER) \
	X("MPI_Comm_size", "hi", TR_COMM_SIZE) \
	X("MPI_Comm_rank", "hi", TR_COMM_RANK) \
	X("MPI_Comm_compare", "hhb", TR_OTHER) \
	X("MPI_Comm_dup", "hh", TR_COMM_DUP) \
	X("MPI_Comm_create", "hhh", TR_COMM_CREATE) \
	X("MPI_Comm_split", "hiih", TR_COMM_SPLIT) \
	X("MPI_Comm_free", "h", TR_COMM_FREE) \
	X("MPI_Comm_test_inter", "hi", TR_OTHER) \
	X("MPI_Comm_remote_size", "hi", TR_OTHER) \
	X("MPI_Comm_remote_group", "hh", TR_OTHER) \
	X("MPI_Intercomm_create", "hihiih", TR_OTHER) \
	X("MPI_Intercomm_merge", "hih", TR_OTHER) \
	X("MPI_Keyval_create", "h", TR_OTHER) \
	X("MPI_Keyval_free", "h", TR_OTHER) \
	X("MPI_Attr_put", "hi", TR_OTHER) \
	X("MPI_Attr_get", "hii", TR_OTHER) \
	X("MPI_Attr_delete", "hi", TR_OTHER) \
	X("MPI_Topo_test", "hb", TR_OTHER) \
	X("MPI_Cart_create", "hiaaih", TR_CART_CREATE) \
	X("MPI_Dims_create", "iiaa", TR_OTHER) \
	X("MPI_Graph_create", "ihiaaih", TR_OTHER) \
	X("MPI_Graphdims_get", "hii", TR_OTHER) \
	X("MPI_Graph_get", "iihiiaa", TR_OTHER) \
	X("MPI_Cartdim_get", "hi", TR_OTHER) \
	X("MPI_Cart_get", "ihiaaw", TR_OTHER) \
	X("MPI_Cart_rank", "ihai", TR_OTHER) \
	X("MPI_Cart_coords", "ihiia", TR_OTHER) \
	X("MPI_Graph_neighbors_count", "hii", TR_OTHER) \
	X("MPI_Graph_neighbors", "ihiia", TR_OTHER) \
	X("MPI_Cart_shift", "hiiii", TR_OTHER) \
	X("MPI_Cart_sub", "ihah", TR_CART_SUB) \
	X("MPI_Cart_map", "hiaai", TR_OTHER) \
	X("MPI_Graph_map", "ihiaai", TR_OTHER) \
	X("MPI_Get_processor_name", "Ci", TR_OTHER) \
	X("MPI_Get_version", "ii", TR_OTHER) \
	X("MPI_Errhandler_create", "h", TR_OTHER) \
	X("MPI_Errhandler_set", "hh", TR_OTHER) \
	X("MPI_Errhandler_get", "hh", TR_OTHER) \
	X("MPI_Errhandler_free", "h", TR_OTHER) \
	X("MPI_Error_string", "iCi", TR_OTHER) \
	X("MPI_Error_class", "ii", TR_OTHER) \
	X("MPI_Wtime", "", TR_OTHER) \
	X("MPI_Wtick", "", TR_OTHER) \
	X("MPI_Init", "I", TR_INIT) \
	X("MPI_Finalize", "", TR_FINALIZE) \
	X("MPI_Initialized", "i", TR_OTHER) \
	X("MPI_Abort", "hi", TR_ABORT) \
	X("MPI_Pcontrol", NULL, TR_OTHER) \
	X("MPI_Close_port", "C", TR_OTHER) \
	X("MPI_Comm_accept", "Chihh", TR_OTHER) \
	X("MPI_Comm_connect", "Chihh", TR_OTHER) \
	X("MPI_Comm_disconnect", "h", TR_OTHER) \
	X("MPI_Comm_get_parent", "h", TR_OTHER) \
	X("MPI_Comm_join", "ih", TR_OTHER) \
	X("MPI_Comm_spawn", "iihh[01CTiha]", TR_OTHER) \
	X("MPI_Comm_spawn_multiple", "iiihh[12iTUaHa]", TR_OTHER) \
	X("MPI_Lookup_name", "ChC", TR_OTHER) \
	X("MPI_Open_port", "hC", TR_OTHER) \
	X("MPI_Publish_name", "ChC", TR_OTHER) \
	X("MPI_Unpublish_name", "ChC", TR_OTHER) \
	X("MPI_Accumulate", "ihiiihbh", TR_OTHER) \
	X("MPI_Get", "ihiiihh", TR_OTHER) \
	X("MPI_Put", "ihiiihh", TR_OTHER) \
	X("MPI_Win_complete", "h", TR_OTHER) \
	X("MPI_Win_create", "iihhh", TR_OTHER) \
	X("MPI_Win_fence", "bh", TR_OTHER) \
	X("MPI_Win_free", "h", TR_OTHER) \
	X("MPI_Win_get_group", "hh", TR_OTHER) \
	X("MPI_Win_lock", "bibh", TR_OTHER) \
	X("MPI_Win_post", "hbh", TR_OTHER) \
	X("MPI_Win_start", "hbh", TR_OTHER) \
	X("MPI_Win_test", "hi", TR_OTHER) \
	X("MPI_Win_unlock", "ih", TR_OTHER) \
	X("MPI_Win_wait", "h", TR_OTHER) \
	X("MPI_Alltoallw", "iaaHaaHh", TR_OTHER) \
	X("MPI_Exscan", "ihbh", TR_EXSCAN) \
	X("MPI_Add_error_class", "i", TR_OTHER) \
	X("MPI_Add_error_code", "ii", TR_OTHER) \
	X("MPI_Add_error_string", "iC", TR_OTHER) \
	X("MPI_Comm_call_errhandler", "hi", TR_OTHER) \
	X("MPI_Comm_create_keyval", "h", TR_OTHER) \
	X("MPI_Comm_delete_attr", "hh", TR_OTHER) \
	X("MPI_Comm_free_keyval", "h", TR_OTHER) \
	X("MPI_Comm_get_attr", "hhi", TR_OTHER) \
	X("MPI_Comm_get_name", "hCi", TR_OTHER) \
	X("MPI_Comm_set_attr", "hh", TR_OTHER) \
	X("MPI_Comm_set_name", "hC", TR_OTHER) \
	X("MPI_File_call_errhandler", "hi", TR_OTHER) \
	X("MPI_Grequest_complete", "r", TR_OTHER) \
	X("MPI_Grequest_start", "r", TR_OTHER) \
	X("MPI_Init_thread", "Jbb", TR_INIT_THREAD) \
	X("MPI_Is_thread_main", "i", TR_OTHER) \
	X("MPI_Query_thread", "b", TR_OTHER) \
	X("MPI_Status_set_cancelled", "si", TR_OTHER) \
	X("MPI_Status_set_elements", "shi", TR_OTHER) \
	X("MPI_Type_create_keyval", "h", TR_OTHER) \
	X("MPI_Type_delete_attr", "hh", TR_OTHER) \
	X("MPI_Type_dup", "hh", TR_OTHER) \
	X("MPI_Type_free_keyval", "h", TR_OTHER) \
	X("MPI_Type_get_attr", "hhi", TR_OTHER) \
	X("MPI_Type_get_contents", "iiihiiiaaH", TR_OTHER) \
	X("MPI_Type_get_envelope", "hiiib", TR_OTHER) \
	X("MPI_Type_get_name", "hCi", TR_OTHER) \
	X("MPI_Type_set_attr", "hh", TR_OTHER) \
	X("MPI_Type_set_name", "hC", TR_OTHER) \
	X("MPI_Type_match_size", "bih", TR_OTHER) \
	X("MPI_Win_call_errhandler", "hi", TR_OTHER) \
	X("MPI_Win_create_keyval", "h", TR_OTHER) \
	X("MPI_Win_delete_attr", "hh", TR_OTHER) \
	X("MPI_Win_free_keyval", "h", TR_OTHER) \
	X("MPI_Win_get_attr", "hhi", TR_OTHER) \
	X("MPI_Win_get_name", "hCi", TR_OTHER) \
	X("MPI_Win_set_attr", "hh", TR_OTHER) \
	X("MPI_Win_set_name", "hC", TR_OTHER) \
	X("MPI_Alloc_mem", "ih", TR_OTHER) \
	X("MPI_Comm_create_errhandler", "h", TR_OTHER) \
	X("MPI_Comm_get_errhandler", "hh", TR_OTHER) \
	X("MPI_Comm_set_errhandler", "hh", TR_OTHER) \
	X("MPI_File_create_errhandler", "h", TR_OTHER) \
	X("MPI_File_get_errhandler", "hh", TR_OTHER) \
	X("MPI_File_set_errhandler", "hh", TR_OTHER) \
	X("MPI_Finalized", "i", TR_OTHER) \
	X("MPI_Free_mem", "", TR_OTHER) \
	X("MPI_Get_address", "i", TR_OTHER) \
	X("MPI_Info_create", "h", TR_OTHER) \
	X("MPI_Info_delete", "hC", TR_OTHER) \
	X("MPI_Info_dup", "hh", TR_OTHER) \
	X("MPI_Info_free", "h", TR_OTHER) \
	X("MPI_Info_get", "hCiCi", TR_OTHER) \
	X("MPI_Info_get_nkeys", "hi", TR_OTHER) \
	X("MPI_Info_get_nthkey", "hiC", TR_OTHER) \
	X("MPI_Info_get_valuelen", "hCii", TR_OTHER) \
	X("MPI_Info_set", "hCC", TR_OTHER) \
	X("MPI_Pack_external", "Cihiii", TR_OTHER) \
	X("MPI_Pack_external_size", "Cihi", TR_OTHER) \
	X("MPI_Request_get_status", "ris", TR_OTHER) \
	X("MPI_Type_create_darray", "iiiaBaabhh", TR_OTHER) \
	X("MPI_Type_create_hindexed", "iaahh", TR_OTHER) \
	X("MPI_Type_create_hvector", "iiihh", TR_OTHER) \
	X("MPI_Type_create_indexed_block", "iiahh", TR_OTHER) \
	X("MPI_Type_create_resized", "hiih", TR_OTHER) \
	X("MPI_Type_create_struct", "iaaHh", TR_OTHER) \
	X("MPI_Type_create_subarray", "iaaabhh", TR_OTHER) \
	X("MPI_Type_get_extent", "hii", TR_OTHER) \
	X("MPI_Type_get_true_extent", "hii", TR_OTHER) \
	X("MPI_Unpack_external", "Ciiiih", TR_OTHER) \
	X("MPI_Win_create_errhandler", "h", TR_OTHER) \
	X("MPI_Win_get_errhandler", "hh", TR_OTHER) \
	X("MPI_Win_set_errhandler", "hh", TR_OTHER) \
	X("MPI_File_open", "hCbhh", TR_OTHER) \
	X("MPI_File_close", "h", TR_OTHER) \
	X("MPI_File_delete", "Ch", TR_OTHER) \
	X("MPI_File_set_size", "hq", TR_OTHER) \
	X("MPI_File_preallocate", "hq", TR_OTHER) \
	X("MPI_File_get_size", "hq", TR_OTHER) \
	X("MPI_File_get_group", "hh", TR_OTHER) \
	X("MPI_File_get_amode", "hb", TR_OTHER) \
	X("MPI_File_set_info", "hh", TR_OTHER) \
	X("MPI_File_get_info", "hh", TR_OTHER) \
	X("MPI_File_set_view", "hqhhCh", TR_OTHER) \
	X("MPI_File_get_view", "hqhhC", TR_OTHER) \
	X("MPI_File_read_at", "hqihs", TR_OTHER) \
	X("MPI_File_read_at_all", "hqihs", TR_OTHER) \
	X("MPI_File_write_at", "hqihs", TR_OTHER) \
	X("MPI_File_write_at_all", "hqihs", TR_OTHER) \
	X("MPI_File_iread_at", "hqihr", TR_OTHER) \
	X("MPI_File_iwrite_at", "hqihr", TR_OTHER) \
	X("MPI_File_read", "hihs", TR_OTHER) \
	X("MPI_File_read_all", "hihs", TR_OTHER) \
	X("MPI_File_write", "hihs", TR_OTHER) \
	X("MPI_File_write_all", "hihs", TR_OTHER) \
	X("MPI_File_iread", "hihr", TR_OTHER) \
	X("MPI_File_iwrite", "hihr", TR_OTHER) \
	X("MPI_File_seek", "hqb", TR_OTHER) \
	X("MPI_File_get_position", "hq", TR_OTHER) \
	X("MPI_File_get_byte_offset", "hqq", TR_OTHER) \
	X("MPI_File_read_shared", "hihs", TR_OTHER) \
	X("MPI_File_write_shared", "hihs", TR_OTHER) \
	X("MPI_File_iread_shared", "hihr", TR_OTHER) \
	X("MPI_File_iwrite_shared", "hihr", TR_OTHER) \
	X("MPI_File_read_ordered", "hihs", TR_OTHER) \
	X("MPI_File_write_ordered", "hihs", TR_OTHER) \
	X("MPI_File_seek_shared", "hqb", TR_OTHER) \
	X("MPI_File_get_position_shared", "hq", TR_OTHER) \
	X("MPI_File_read_at_all_begin", "hqih", TR_OTHER) \
	X("MPI_File_read_at_all_end", "hs", TR_OTHER) \
	X("MPI_File_write_at_all_begin", "hqih", TR_OTHER) \
	X("MPI_File_write_at_all_end", "hs", TR_OTHER) \
	X("MPI_File_read_all_begin", "hih", TR_OTHER) \
	X("MPI_File_read_all_end", "hs", TR_OTHER) \
	X("MPI_File_write_all_begin", "hih", TR_OTHER) \
	X("MPI_File_write_all_end", "hs", TR_OTHER) \
	X("MPI_File_read_ordered_begin", "hih", TR_OTHER) \
	X("MPI_File_read_ordered_end", "hs", TR_OTHER) \
	X("MPI_File_write_ordered_begin", "hih", TR_OTHER) \
	X("MPI_File_write_ordered_end", "hs", TR_OTHER) \
	X("MPI_File_get_type_extent", "hhi", TR_OTHER) \
	X("MPI_Register_datarep", "C", TR_OTHER) \
	X("MPI_File_set_atomicity", "hi", TR_OTHER) \
	X("MPI_File_get_atomicity", "hi", TR_OTHER) \
	X("MPI_File_sync", "h", TR_OTHER) \
	X("MPIO_Test", "ris", TR_OTHER) \
	X("MPIO_Wait", "rs", TR_OTHER) \
	X("MPIO_Testall", "iaiS", TR_OTHER) \
	X("MPIO_Waitall", "iaS", TR_OTHER) \
	X("MPIO_Testany", "iaiiS", TR_OTHER) \
	X("MPIO_Waitany", "iaiS", TR_OTHER) \
	X("MPIO_Waitsome", "iaiaS", TR_OTHER) \
	X("MPIO_Testsome", "iaiaS", TR_OTHER)

static const struct dfunc {
	const char *name, *layout;
	enum tr_kind kind;
} dfuncs[] = {
#define DUMPI_FUNC(name, layout, kind) { name, layout, kind },
	DUMPI_FUNCS(DUMPI_FUNC)
#undef DUMPI_FUNC
};

/* The labels after the MPI functions: a sentinel, the entry and exit of a
 * profiled (not MPI) function (a 64-bit address each), the end of the
 * stream. */
#define NFUNCS (sizeof dfuncs / sizeof dfuncs[0])
#define LABEL_FN_ENTER (NFUNCS + 1)
#define LABEL_FN_EXIT (NFUNCS + 2)
#define LABEL_END (NFUNCS + 3)

/* Function labels of the communicator calls the reader follows. */
enum {
	F_COMM_GROUP = 72, F_GROUP_UNION, F_GROUP_INTERSECTION, F_GROUP_DIFFERENCE,
	F_GROUP_INCL, F_GROUP_EXCL, F_GROUP_RANGE_INCL, F_GROUP_RANGE_EXCL, F_GROUP_FREE,
	F_COMM_DUP = 84, F_COMM_CREATE, F_COMM_SPLIT, F_COMM_FREE,
	F_CART_CREATE = 99, F_CART_SUB = 111
};

/* Handles of the predefined objects. */
#define COMM_NULL 1
#define COMM_WORLD 2
#define COMM_SELF 3
#define GROUP_EMPTY 2
#define REQUEST_NULL 1

/* ---- A rank file in memory ----------------------------------------------- */

struct dfile {
	const char *path;
	const unsigned char *p;
	size_t len;
	char *own;                /* the buffer to free (a loaded file) */
	size_t body, limit;       /* the record stream: [body, limit) */
	size_t footer;            /* 0: none */
	uint8_t ver[3];
	size_t sizes;             /* offset of the datatype sizes (past the count), 0: none */
	uint32_t nsizes;
	char *err;
	size_t errlen;
};

static int ferr(const struct dfile *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int ferr(const struct dfile *f, const char *fmt, ...)
{
	char msg[300];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	snprintf(f->err, f->errlen, "%s: error: %s", f->path, msg);
	return -1;
}

static uint16_t be16(const unsigned char *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint64_t be64(const unsigned char *p)
{
	return (uint64_t)be32(p) << 32 | be32(p + 4);
}

/* Whether the file's DUMPI version is at least a.b.c. */
static int have_version(const struct dfile *f, int a, int b, int c)
{
	int v = f->ver[0] * 65536 + f->ver[1] * 256 + f->ver[2];
	return v >= a * 65536 + b * 256 + c;
}

/* Checks the magic, reads the index at the end, the version and the
 * datatype sizes.  Returns 0 or -1 (message in f->err). */
static int dfile_open(struct dfile *f)
{
	uint64_t off[7];
	int k;
	if (f->len < 8 || be64(f->p) != DUMPI_MAGIC)
		return ferr(f, "not a DUMPI trace (no DUMPI magic at the start)");
	if (f->len < 8 + 40)
		return ferr(f, "cut short: %zu bytes, no index record at the end", f->len);
	/* the index: the magic and 4 offsets (header, body, footer, keyvals),
	 * newer files with up to 3 more in front (perf labels, function
	 * names, datatype sizes) */
	for (k = 3; k >= 0; k--)
		if (f->len >= 8 + (size_t)(5 + k) * 8 && be64(f->p + f->len - (size_t)(5 + k) * 8) == DUMPI_MAGIC)
			break;
	if (k < 0)
		return ferr(f, "no index record at the end of the file (cut short?)");
	size_t ix = f->len - (size_t)(4 + k) * 8;
	for (int i = 0; i < 4 + k; i++)
		off[i] = be64(f->p + ix + (size_t)i * 8);
	uint64_t header = off[k], body = off[k + 1], footer = off[k + 2];
	uint64_t sizes = k == 3 ? off[0] : 0;
	size_t end = ix - 8;
	if (body < 8 || body > end - 8 || header > end || header < 8 || header - 8 < body)
		return ferr(f, "bad index record at byte %zu (offsets out of the file)", ix - 8);
	f->body = (size_t)body;
	f->limit = (size_t)header;
	if (header > end - 3)
		return ferr(f, "bad index record at byte %zu (no header)", ix - 8);
	memcpy(f->ver, f->p + header, 3);
	f->footer = footer >= 8 && footer <= end && end - footer >= 8 + 4 * (LABEL_END - 2) ?
	            (size_t)footer : 0;
	if (f->footer && be64(f->p + f->footer) != DUMPI_FOOT_MAGIC)
		f->footer = 0;
	f->sizes = 0;
	f->nsizes = 0;
	if (sizes) {
		if (sizes < 8 || sizes > end - 4)
			return ferr(f, "bad index record at byte %zu (datatype sizes out of the file)",
			            ix - 8);
		uint32_t n = be32(f->p + sizes);
		if (n > (end - sizes - 4) / 4)
			return ferr(f, "%" PRIu32 " datatype sizes at byte %" PRIu64 " run past the index",
			            n, sizes);
		f->sizes = (size_t)sizes + 4;
		f->nsizes = n;
	}
	return 0;
}

/* The size in bytes of datatype id t (0 when the trace does not tell). */
static int64_t type_size(const struct dfile *f, int64_t t)
{
	if (t < 0 || t >= f->nsizes)
		return 0;
	int32_t s = (int32_t)be32(f->p + f->sizes + 4 * (size_t)t);
	return s > 0 ? s : 0;
}

/* How often the footer says function fn was called (-1: no footer). */
static int64_t footer_count(const struct dfile *f, unsigned fn)
{
	return f->footer ? (int64_t)be32(f->p + f->footer + 8 + 4 * fn) : -1;
}

/* ---- One record ----------------------------------------------------------- */

#define MAXV 16
#define MAXA 8

/* An array of a record: n values of size bytes at byte off. */
struct darr {
	size_t off;
	uint32_t n;
	uint8_t size;
};

struct drec {
	unsigned fn;
	size_t at;                  /* byte of its label */
	int has_time;
	double start, end;          /* microseconds */
	int64_t v[MAXV];            /* the scalar values in order */
	int nv;
	struct darr a[MAXA];        /* the arrays in order */
	int na;
	int has_st;                 /* statuses recorded */
	struct darr st;             /* statuses: n of size bytes each */
};

/* A value of array a (sign-extended). */
static int64_t arr_at(const struct dfile *f, const struct darr *a, uint32_t i)
{
	const unsigned char *p = f->p + a->off + (size_t)i * a->size;
	switch (a->size) {
	case 1: return (int8_t)p[0];
	case 2: return (int16_t)be16(p);
	default: return (int32_t)be32(p);
	}
}

/* Reading position in the record stream. */
struct cur {
	const struct dfile *f;
	size_t pos, end;
	int cut;                    /* read past the end */
};

static const unsigned char *take(struct cur *c, size_t n)
{
	if (c->cut || n > c->end - c->pos) {
		c->cut = 1;
		return NULL;
	}
	const unsigned char *p = c->f->p + c->pos;
	c->pos += n;
	return p;
}

static int64_t get(struct cur *c, int bytes)
{
	const unsigned char *p = take(c, (size_t)bytes);
	if (!p)
		return 0;
	switch (bytes) {
	case 1: return p[0];
	case 2: return be16(p);
	case 4: return (int32_t)be32(p);
	default: return (int64_t)be64(p);
	}
}

/* A length: an int32 that must be >= 0 and leave room for len * min bytes.
 * Returns it, or -1 (c->cut set). */
static int64_t get_len(struct cur *c, size_t min)
{
	int64_t n = get(c, 4);
	if (c->cut)
		return -1;
	if (n < 0 || (min && (uint64_t)n > (c->end - c->pos) / min)) {
		c->cut = 1;
		return -1;
	}
	return n;
}

/* An array of n values of size bytes, recorded in r (when room is left). */
static void get_arr(struct cur *c, struct drec *r, uint8_t size)
{
	int64_t n = get_len(c, size);
	if (n < 0)
		return;
	if (r->na < MAXA) {
		r->a[r->na].off = c->pos;
		r->a[r->na].n = (uint32_t)n;
		r->a[r->na].size = size;
		r->na++;
	}
	take(c, (size_t)n * size);
}

/* Skips an array of n length-prefixed items, each skipped by fn. */
static void skip_items(struct cur *c, void (*fn)(struct cur *))
{
	int64_t n = get_len(c, 4);
	for (int64_t i = 0; i < n && !c->cut; i++)
		fn(c);
}

static void skip_chars(struct cur *c)
{
	int64_t n = get_len(c, 1);
	if (n >= 0)
		take(c, (size_t)n);
}

static void skip_ints(struct cur *c)
{
	int64_t n = get_len(c, 4);
	if (n >= 0)
		take(c, (size_t)n * 4);
}

static void skip_strings(struct cur *c)
{
	skip_items(c, skip_chars);
}

/* Decodes the arguments of r by its layout l (see DUMPI_FUNCS). */
static void decode_args(struct cur *c, struct drec *r, uint8_t mask, const char *l)
{
	const struct dfile *f = c->f;
	for (; *l && !c->cut; l++) {
		int64_t v = 0;
		int scalar = 1;
		switch (*l) {
		case 'i': case 'r': v = get(c, 4); break;
		case 'h': v = get(c, 2); break;
		case 'b': v = get(c, 1); break;
		case 'q': v = get(c, 8); break;
		default: scalar = 0; break;
		}
		if (scalar) {
			if (r->nv < MAXV)
				r->v[r->nv++] = v;
			continue;
		}
		switch (*l) {
		case 'a': get_arr(c, r, 4); break;
		case 'H': get_arr(c, r, 2); break;
		case 'B': get_arr(c, r, 1); break;
		case 'A': skip_items(c, skip_ints); break;
		case 'C': skip_chars(c); break;
		case 'T': skip_strings(c); break;
		case 'U': skip_items(c, skip_strings); break;
		case 'v': case 'w':
			if (have_version(f, 0, 6, *l == 'v' ? 9 : 8))
				get_arr(c, r, 4);
			else
				get(c, 4);
			break;
		case 'I': case 'J': {
			int64_t n = get_len(c, 4);
			if (*l == 'I' && !have_version(f, 0, 6, 2))
				get(c, 4);
			for (int64_t i = 0; i < n && !c->cut; i++)
				skip_chars(c);
			break;
		}
		case 's': case 'S':
			if (mask & 3) {
				size_t each = have_version(f, 0, 6, 3) ? 14 : 10;
				int64_t n = get_len(c, each);
				if (n < 0)
					break;
				r->has_st = 1;
				r->st.off = c->pos;
				r->st.n = (uint32_t)n;
				r->st.size = (uint8_t)each;
				take(c, (size_t)n * each);
			}
			break;
		case '[': {
			int x = l[1] - '0', y = l[2] - '0';
			l += 2;
			if (x < r->nv && y < r->nv && r->v[x] == r->v[y])
				break;
			while (l[1] && l[1] != ']')
				l++;
			break;
		}
		default: /* ']' */
			break;
		}
	}
}

/* Status i of r: source, tag, bytes (the tag is the call's when the trace
 * is older than 0.6.3). */
static void status_at(const struct dfile *f, const struct drec *r, uint32_t i, int32_t *src,
                      int32_t *tag, int64_t *bytes, int32_t deftag)
{
	const unsigned char *p = f->p + r->st.off + (size_t)i * r->st.size;
	*bytes = (int32_t)be32(p);
	*src = (int32_t)be32(p + 4);
	*tag = r->st.size >= 14 ? (int32_t)be32(p + 10) : deftag;
}

/* Reads the record at c->pos into r.  Returns 1, 0 at the end of the
 * stream, or -1 (message in f->err). */
static int next_record(struct cur *c, struct drec *r, uint32_t recno, double bias_cpu,
                       double bias_wall)
{
	const struct dfile *f = c->f;
	memset(r, 0, sizeof *r);
	r->at = c->pos;
	if (c->end - c->pos < 2)
		return ferr(f, "record %" PRIu32 " at byte %zu: the record stream ends without its end "
		            "mark (cut short?)", recno, c->pos);
	r->fn = (unsigned)get(c, 2);
	if (r->fn == LABEL_END)
		return 0;
	if (r->fn == NFUNCS || r->fn > LABEL_END)
		return ferr(f, "record %" PRIu32 " at byte %zu: unknown function label %u", recno,
		            r->at, r->fn);
	if (r->fn < NFUNCS && !dfuncs[r->fn].layout)
		return ferr(f, "record %" PRIu32 " at byte %zu: a %s record, which DUMPI does not "
		            "write (its layout is not known)", recno, r->at, dfuncs[r->fn].name);
	uint8_t mask = (uint8_t)get(c, 1);
	if (mask & 0x40)
		get(c, 2);
	double t[4] = { 0, 0, 0, 0 };
	for (int k = 0; k < 2; k++) {
		if (!(mask & (4 << k)))
			continue;
		double bias = k ? bias_wall : bias_cpu;
		for (int e = 0; e < 2; e++) {
			int64_t s = get(c, 2), ns = (uint32_t)get(c, 4);
			double v = ((double)s + bias) * 1e6 + (double)ns / 1e3;
			if (k == 1 || !(mask & 8))
				t[e] = v;
		}
		r->has_time = 1;
	}
	r->start = t[0];
	r->end = t[1];
	if (mask & 0x80) {
		int64_t n = get(c, 1);
		take(c, (size_t)n * 16);
	}
	if (r->fn < NFUNCS)
		decode_args(c, r, mask, dfuncs[r->fn].layout);
	else
		get(c, 8); /* the address of the profiled function */
	if (c->cut)
		return ferr(f, "record %" PRIu32 " at byte %zu (%s): cut short (it runs past the end of "
		            "the record stream at byte %zu)", recno, r->at,
		            r->fn < NFUNCS ? dfuncs[r->fn].name : "function entry or exit", c->end);
	if (r->has_time && !(r->end >= r->start))
		return ferr(f, "record %" PRIu32 " at byte %zu (%s): ends before it starts", recno,
		            r->at, r->fn < NFUNCS ? dfuncs[r->fn].name : "function entry or exit");
	return 1;
}

/* ---- Communicators and groups --------------------------------------------- */

/* A member list (world ranks, in comm rank order), unknown when not
 * known (all zero). */
struct mlist {
	int64_t *v;
	int32_t n;
	int32_t me;              /* this rank's position, or -1 */
	int32_t *dims;           /* Cartesian dimensions (Cart_create), or NULL */
	int32_t ndims;
	int known;
};

/* Splits: the contributions of every rank to the k-th MPI_Comm_split on a
 * member list, found by a pass over all files. */
struct contrib {
	int32_t rank, color, key, pos;
};
struct bucket {
	int32_t need;            /* the parent's size */
	struct contrib *c;
	size_t n, cap;
};
struct splits {
	util_kmap map;           /* (seq, parent members) -> bucket */
	struct bucket *b;
	size_t n, cap;
};

static void splits_free(struct splits *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->b[i].c);
	free(s->b);
	util_kmap_free(&s->map);
	memset(s, 0, sizeof *s);
}

/* The number of complete buckets (every member of the parent counted). */
static size_t splits_complete(const struct splits *s)
{
	size_t k = 0;
	for (size_t i = 0; i < s->n; i++)
		k += s->b[i].n == (size_t)s->b[i].need;
	return k;
}

/* State of one pass over a rank file. */
struct rd {
	struct dfile *f;
	int rank, size;
	struct mlist *comm, *group;        /* by handle, grown on use */
	size_t ncomm, ngroup;
	uint32_t *touched;                 /* the lists that may own memory:
	                                    * handle, + 65536 for groups */
	size_t ntouched, captouched;
	util_kmap seq;                     /* parent members -> splits so far */
	const struct splits *known;        /* resolved splits (NULL: none) */
	struct splits *collect;            /* contributions to gather, or NULL */
	struct tr_build *b;                /* NULL: a pass that only collects */
	int64_t *tmp;                      /* scratch of size members */
	uint8_t *mark;                     /* scratch of size bytes */
	int oom;
};

static void ml_clear(struct mlist *m)
{
	free(m->v);
	free(m->dims);
	memset(m, 0, sizeof *m);
}

/* Sets m to the n members v (copied); me is found.  Members must be ranks
 * of the run, distinct; otherwise m becomes unknown. */
static void ml_set(struct rd *rd, struct mlist *m, const int64_t *v, int32_t n)
{
	int64_t *c = n ? malloc((size_t)n * sizeof *c) : NULL;
	int32_t me = -1;
	if (n && !c) {
		rd->oom = 1;
		ml_clear(m);
		return;
	}
	memset(rd->mark, 0, (size_t)rd->size);
	for (int32_t i = 0; i < n; i++) {
		if (v[i] < 0 || v[i] >= rd->size || rd->mark[v[i]]) {
			free(c);
			ml_clear(m);
			return;
		}
		rd->mark[v[i]] = 1;
		if (v[i] == rd->rank)
			me = i;
		c[i] = v[i];
	}
	ml_clear(m);
	if (util_grow(&rd->touched, &rd->captouched, rd->ntouched + 1, sizeof *rd->touched)) {
		free(c);
		rd->oom = 1;
		return;
	}
	if (m >= rd->comm && m < rd->comm + rd->ncomm)
		rd->touched[rd->ntouched++] = (uint32_t)(m - rd->comm);
	else
		rd->touched[rd->ntouched++] = (uint32_t)(m - rd->group) + 65536;
	m->v = c;
	m->n = n;
	m->me = me;
	m->known = 1;
}

/* Group operations: union, intersection, difference of a and b into tmp. */
static int32_t group_setop(struct rd *rd, unsigned fn, const struct mlist *a, const struct mlist *b)
{
	int32_t n = 0;
	memset(rd->mark, 0, (size_t)rd->size);
	for (int32_t i = 0; i < b->n; i++)
		rd->mark[b->v[i]] = 1;
	for (int32_t i = 0; i < a->n; i++)
		if (fn == F_GROUP_UNION || (fn == F_GROUP_INTERSECTION) == (rd->mark[a->v[i]] != 0))
			rd->tmp[n++] = a->v[i];
	if (fn == F_GROUP_UNION) {
		memset(rd->mark, 0, (size_t)rd->size);
		for (int32_t i = 0; i < a->n; i++)
			rd->mark[a->v[i]] = 1;
		for (int32_t i = 0; i < b->n && n < rd->size; i++)
			if (!rd->mark[b->v[i]])
				rd->tmp[n++] = b->v[i];
	}
	return n;
}

/* Group_incl/excl: the members of g at the positions of array a (incl), or
 * all others (excl), into tmp; -1 if a position is out of range. */
static int32_t group_select(struct rd *rd, int incl, const struct mlist *g, const struct darr *a)
{
	int32_t n = 0;
	if (incl && a->n > (uint32_t)g->n)
		return -1;
	memset(rd->mark, 0, (size_t)rd->size);
	for (uint32_t i = 0; i < a->n; i++) {
		int64_t p = arr_at(rd->f, a, i);
		if (p < 0 || p >= g->n)
			return -1;
		if (incl)
			rd->tmp[n++] = g->v[p];
		else
			rd->mark[p] = 1;
	}
	if (!incl)
		for (int32_t i = 0; i < g->n; i++)
			if (!rd->mark[i])
				rd->tmp[n++] = g->v[i];
	return n;
}

/* A Cartesian communicator of rank order: the first prod(dims) ranks of
 * parent p (MPI may reorder them; the trace does not say how, and MPI
 * libraries keep the order).  Sets m. */
static void cart_create(struct rd *rd, struct mlist *m, const struct mlist *p, const struct darr *dims)
{
	int64_t prod = 1;
	for (uint32_t i = 0; i < dims->n && prod <= p->n; i++) {
		int64_t d = arr_at(rd->f, dims, i);
		prod = d > 0 ? prod * d : p->n + 1;
	}
	if (prod > p->n || dims->n > 64) {
		ml_clear(m);
		return;
	}
	ml_set(rd, m, p->v, (int32_t)prod);
	if (!m->known)
		return;
	m->dims = malloc((dims->n ? dims->n : 1) * sizeof *m->dims);
	if (!m->dims) {
		rd->oom = 1;
		return;
	}
	m->ndims = (int32_t)dims->n;
	for (uint32_t i = 0; i < dims->n; i++)
		m->dims[i] = (int32_t)arr_at(rd->f, dims, i);
}

/* Cart_sub: the ranks of the Cartesian parent p whose coordinates equal
 * this rank's in the dimensions that do not remain (row-major order, the
 * last dimension fastest), in rank order.  Sets m. */
static void cart_sub(struct rd *rd, struct mlist *m, const struct mlist *p, const struct darr *remain)
{
	int32_t n = 0;
	if (!p->dims || remain->n != (uint32_t)p->ndims || p->me < 0) {
		ml_clear(m);
		return;
	}
	for (int32_t q = 0; q < p->n; q++) {
		int32_t a = q, b = p->me, same = 1;
		for (int32_t d = p->ndims - 1; d >= 0; d--) {
			int32_t e = p->dims[d];
			if (!arr_at(rd->f, remain, (uint32_t)d) && a % e != b % e)
				same = 0;
			a /= e;
			b /= e;
		}
		if (same)
			rd->tmp[n++] = p->v[q];
	}
	ml_set(rd, m, rd->tmp, n);
}

/* qsort order of the contributions of one color: key, then parent rank. */
static int cmp_contrib(const void *x, const void *y)
{
	const struct contrib *a = x, *b = y;
	if (a->key != b->key)
		return (a->key > b->key) - (a->key < b->key);
	return (a->pos > b->pos) - (a->pos < b->pos);
}

/* The bucket key of the seq-th split of parent p: seq then the members. */
static unsigned char *split_key(const struct mlist *p, uint32_t seq, size_t *len)
{
	*len = sizeof seq + (size_t)p->n * sizeof(int64_t);
	unsigned char *k = malloc(*len);
	if (!k)
		return NULL;
	memcpy(k, &seq, sizeof seq);
	if (p->n)
		memcpy(k + sizeof seq, p->v, (size_t)p->n * sizeof(int64_t));
	return k;
}

/* MPI_Comm_split of parent p with this rank's color and key: records the
 * contribution (collecting pass) and sets m from the resolved splits.  m
 * and p are different lists (comm_split handles a split onto its parent's
 * handle). */
static void split_into(struct rd *rd, struct mlist *m, const struct mlist *p, int32_t color,
                       int32_t key)
{
	size_t plen = (size_t)p->n * sizeof(int64_t), klen;
	uint32_t *cnt = util_kmap_get(&rd->seq, p->v ? (const void *)p->v : "", plen), seq = 0;
	unsigned char *k;
	ml_clear(m);
	if (cnt)
		seq = ++*cnt;
	else if (util_kmap_put(&rd->seq, p->v ? (const void *)p->v : "", plen, 0)) {
		rd->oom = 1;
		return;
	}
	k = split_key(p, seq, &klen);
	if (!k) {
		rd->oom = 1;
		return;
	}
	if (rd->collect) {
		struct splits *s = rd->collect;
		uint32_t *bi = util_kmap_get(&s->map, k, klen);
		if (!bi) {
			if (util_grow(&s->b, &s->cap, s->n + 1, sizeof *s->b) ||
			    util_kmap_put(&s->map, k, klen, (uint32_t)s->n)) {
				rd->oom = 1;
				free(k);
				return;
			}
			memset(&s->b[s->n], 0, sizeof s->b[s->n]);
			s->b[s->n].need = p->n;
			bi = util_kmap_get(&s->map, k, klen);
			s->n++;
		}
		struct bucket *bk = &s->b[*bi];
		if (util_grow(&bk->c, &bk->cap, bk->n + 1, sizeof *bk->c)) {
			rd->oom = 1;
			free(k);
			return;
		}
		bk->c[bk->n++] = (struct contrib){ rd->rank, color, key, p->me };
	}
	const uint32_t *bi = rd->known ? util_kmap_get(&rd->known->map, k, klen) : NULL;
	free(k);
	if (!bi || color < 0)
		return;
	const struct bucket *bk = &rd->known->b[*bi];
	if (bk->n != (size_t)bk->need)
		return;
	struct contrib *mine = malloc(bk->n * sizeof *mine);
	size_t n = 0;
	if (!mine) {
		rd->oom = 1;
		return;
	}
	for (size_t i = 0; i < bk->n; i++)
		if (bk->c[i].color == color)
			mine[n++] = bk->c[i];
	qsort(mine, n, sizeof *mine, cmp_contrib);
	for (size_t i = 0; i < n; i++)
		rd->tmp[i] = p->v[mine[i].pos];
	free(mine);
	ml_set(rd, m, rd->tmp, (int32_t)n);
}

/* The same, where the new communicator's handle may be its parent's
 * (MPI_Comm_split(c, color, key, &c)): the parent's members are moved
 * aside first, since m is cleared before p is read to its end. */
static void comm_split(struct rd *rd, struct mlist *m, struct mlist *p, int32_t color,
                       int32_t key)
{
	struct mlist own;
	if (m != p) {
		split_into(rd, m, p, color, key);
		return;
	}
	own = *p;
	memset(m, 0, sizeof *m);
	split_into(rd, m, &own, color, key);
	ml_clear(&own);
}

/* ---- Records into calls --------------------------------------------------- */

/* A request handle: 0 for MPI_REQUEST_NULL (and the error value). */
static uint64_t req_of(int64_t v)
{
	uint32_t u = (uint32_t)v;
	return u <= REQUEST_NULL ? 0 : u;
}

/* Sets the communicator fields of call c for handle h. */
static void set_comm(struct rd *rd, struct tr_call *c, int64_t h)
{
	const struct mlist *m = (uint16_t)h < rd->ncomm ? &rd->comm[(uint16_t)h] : NULL;
	c->comm = (uint64_t)(uint16_t)h;
	if (m && m->known && m->me >= 0) {
		c->comm_size = m->n;
		c->comm_rank = m->me;
	} else {
		c->comm_size = 0;
		c->comm_rank = -1;
	}
}

/* A peer rank: -1 (MPI_ANY_SOURCE in DUMPI) stays for receives; other
 * negative values, and -1 for sends, are MPI_PROC_NULL. */
static int32_t peer_of(int64_t v, int recv)
{
	if (v == -1 && recv)
		return TR_ANY_SOURCE;
	return v < 0 ? TR_PROC_NULL : (int32_t)v;
}

/* Array k of r times the size of datatype t into list li of call i. */
static int put_bytes(struct rd *rd, size_t i, int li, const struct drec *r, int k, int64_t t)
{
	int64_t *v, sz = type_size(rd->f, t);
	if (k >= r->na)
		return 0;
	if (tr_build_list(rd->b, i, li, r->a[k].n, &v))
		return -1;
	for (uint32_t j = 0; j < r->a[k].n; j++)
		v[j] = arr_at(rd->f, &r->a[k], j) * sz;
	return 0;
}

/* Array k of r as request ids into list 0 of call i. */
static int put_reqs(struct rd *rd, size_t i, const struct drec *r, int k)
{
	int64_t *v;
	if (k >= r->na)
		return 0;
	if (tr_build_list(rd->b, i, 0, r->a[k].n, &v))
		return -1;
	for (uint32_t j = 0; j < r->a[k].n; j++)
		v[j] = (int64_t)req_of(arr_at(rd->f, &r->a[k], j));
	return 0;
}

/* The statuses of r as (source, tag, bytes) triples into list 2 of call
 * i, when there are want of them. */
static int put_statuses(struct rd *rd, size_t i, const struct drec *r, uint32_t want)
{
	int64_t *v, bytes;
	int32_t src, tag;
	if (!r->has_st || r->st.n != want || want == 0)
		return 0;
	if (tr_build_list(rd->b, i, 2, 3 * want, &v))
		return -1;
	for (uint32_t j = 0; j < want; j++) {
		status_at(rd->f, r, j, &src, &tag, &bytes, TR_ANY_TAG);
		v[3 * j] = src;
		v[3 * j + 1] = tag;
		v[3 * j + 2] = bytes;
	}
	return 0;
}

/* The single status of r into c (source, tag, bytes). */
static void put_status(const struct rd *rd, struct tr_call *c, const struct drec *r, int32_t deftag)
{
	if (!r->has_st || r->st.n < 1)
		return;
	status_at(rd->f, r, 0, &c->st_source, &c->st_tag, &c->st_bytes, deftag);
	c->flags |= TR_F_STATUS;
}

/* Appends a TR_COMMDEF call for handle h with the members of m (when this
 * rank is one of them). */
static int commdef(struct rd *rd, uint32_t recno, int64_t h, const struct mlist *m)
{
	size_t i;
	int64_t *v;
	if (!rd->b || !m->known || m->me < 0)
		return 0;
	if (tr_build_call(rd->b, TR_COMMDEF, recno, &i) || tr_build_list(rd->b, i, 0, (uint32_t)m->n, &v))
		return -1;
	rd->b->t->calls[i].newcomm = (uint64_t)(uint16_t)h;
	rd->b->t->calls[i].comm_size = m->n;
	memcpy(v, m->v, (size_t)m->n * sizeof *v);
	return 0;
}

/* Makes room for handle h in table *t of *n lists (new ones unknown).
 * Returns 0 or -1 (out of memory). */
static int tab_grow(struct mlist **t, size_t *n, int64_t h)
{
	size_t need = (size_t)(uint16_t)h + 1, cap = *n;
	if (need <= *n)
		return 0;
	if (util_grow(t, &cap, need, sizeof **t))
		return -1;
	memset(*t + *n, 0, (cap - *n) * sizeof **t);
	*n = cap;
	return 0;
}

/* The handles of the calls track() follows: per value of the record, c a
 * communicator, g a group, . anything else. */
static const char *handles_of(unsigned fn)
{
	switch (fn) {
	case F_COMM_GROUP: return "cg";
	case F_GROUP_UNION: case F_GROUP_INTERSECTION: case F_GROUP_DIFFERENCE: return "ggg";
	case F_GROUP_INCL: case F_GROUP_EXCL: case F_GROUP_RANGE_INCL: case F_GROUP_RANGE_EXCL:
		return "g.g";
	case F_GROUP_FREE: return "g";
	case F_COMM_DUP: return "cc";
	case F_COMM_CREATE: return "cgc";
	case F_COMM_SPLIT: case F_CART_CREATE: return "c..c";
	case F_COMM_FREE: return "c";
	case F_CART_SUB: return ".cc";
	default: return "";
	}
}

/* Follows the communicator and group calls: the members of what r makes.
 * Appends the TR_COMMDEF of a new communicator. */
static int track(struct rd *rd, const struct drec *r, uint32_t recno)
{
	const int64_t *v = r->v;
	const char *hs = handles_of(r->fn);
	for (int k = 0; hs[k] && k < r->nv; k++)
		if ((hs[k] == 'c' && tab_grow(&rd->comm, &rd->ncomm, v[k])) ||
		    (hs[k] == 'g' && tab_grow(&rd->group, &rd->ngroup, v[k])))
			return -1;
	if (r->nv < (int)strlen(hs))
		return 0;
	struct mlist *g = rd->group, *c = rd->comm;
	int32_t n;
	switch (r->fn) {
	case F_COMM_GROUP:
		if (c[(uint16_t)v[0]].known)
			ml_set(rd, &g[(uint16_t)v[1]], c[(uint16_t)v[0]].v, c[(uint16_t)v[0]].n);
		else
			ml_clear(&g[(uint16_t)v[1]]);
		return 0;
	case F_GROUP_UNION: case F_GROUP_INTERSECTION: case F_GROUP_DIFFERENCE:
		if (g[(uint16_t)v[0]].known && g[(uint16_t)v[1]].known) {
			n = group_setop(rd, r->fn, &g[(uint16_t)v[0]], &g[(uint16_t)v[1]]);
			ml_set(rd, &g[(uint16_t)v[2]], rd->tmp, n);
		} else {
			ml_clear(&g[(uint16_t)v[2]]);
		}
		return 0;
	case F_GROUP_INCL: case F_GROUP_EXCL:
		n = g[(uint16_t)v[0]].known && r->na == 1 ?
		    group_select(rd, r->fn == F_GROUP_INCL, &g[(uint16_t)v[0]], &r->a[0]) : -1;
		if (n >= 0)
			ml_set(rd, &g[(uint16_t)v[2]], rd->tmp, n);
		else
			ml_clear(&g[(uint16_t)v[2]]);
		return 0;
	case F_GROUP_RANGE_INCL: case F_GROUP_RANGE_EXCL:
		ml_clear(&g[(uint16_t)v[2]]);  /* ranges are not followed */
		return 0;
	case F_GROUP_FREE:
		if (v[0] > GROUP_EMPTY)
			ml_clear(&g[(uint16_t)v[0]]);
		return 0;
	case F_COMM_DUP:
		if (v[1] != COMM_NULL && c[(uint16_t)v[0]].known)
			ml_set(rd, &c[(uint16_t)v[1]], c[(uint16_t)v[0]].v, c[(uint16_t)v[0]].n);
		else
			ml_clear(&c[(uint16_t)v[1]]);
		return v[1] == COMM_NULL ? 0 : commdef(rd, recno, v[1], &c[(uint16_t)v[1]]);
	case F_COMM_CREATE:
		if (v[2] != COMM_NULL && g[(uint16_t)v[1]].known)
			ml_set(rd, &c[(uint16_t)v[2]], g[(uint16_t)v[1]].v, g[(uint16_t)v[1]].n);
		else
			ml_clear(&c[(uint16_t)v[2]]);
		return v[2] == COMM_NULL ? 0 : commdef(rd, recno, v[2], &c[(uint16_t)v[2]]);
	case F_COMM_SPLIT:
		if (c[(uint16_t)v[0]].known && c[(uint16_t)v[0]].me >= 0)
			comm_split(rd, &c[(uint16_t)v[3]], &c[(uint16_t)v[0]], (int32_t)v[1], (int32_t)v[2]);
		else
			ml_clear(&c[(uint16_t)v[3]]);
		return v[3] == COMM_NULL ? 0 : commdef(rd, recno, v[3], &c[(uint16_t)v[3]]);
	case F_COMM_FREE:
		if (v[0] > COMM_SELF)
			ml_clear(&c[(uint16_t)v[0]]);
		return 0;
	case F_CART_CREATE:
		if (v[3] != COMM_NULL && c[(uint16_t)v[0]].known && r->na == 2)
			cart_create(rd, &c[(uint16_t)v[3]], &c[(uint16_t)v[0]], &r->a[0]);
		else
			ml_clear(&c[(uint16_t)v[3]]);
		return v[3] == COMM_NULL ? 0 : commdef(rd, recno, v[3], &c[(uint16_t)v[3]]);
	case F_CART_SUB:
		if (v[2] != COMM_NULL && c[(uint16_t)v[1]].known && r->na == 1)
			cart_sub(rd, &c[(uint16_t)v[2]], &c[(uint16_t)v[1]], &r->a[0]);
		else
			ml_clear(&c[(uint16_t)v[2]]);
		return v[2] == COMM_NULL ? 0 : commdef(rd, recno, v[2], &c[(uint16_t)v[2]]);
	default:
		return 0;
	}
}

/* The arguments of point-to-point call c (record r, of kind k). */
static void p2p_args(struct rd *rd, struct tr_call *c, const struct drec *r, enum tr_kind k)
{
	const int64_t *v = r->v;
	struct dfile *f = rd->f;
	switch (k) {
	case TR_SEND: case TR_BSEND: case TR_SSEND: case TR_RSEND:
	case TR_RECV:
	case TR_ISEND: case TR_IBSEND: case TR_ISSEND: case TR_IRSEND: case TR_IRECV: {
		int recv = k == TR_RECV || k == TR_IRECV;
		c->bytes = v[0] * type_size(f, v[1]);
		c->peer = peer_of(v[2], recv);
		c->tag = (int32_t)v[3];
		set_comm(rd, c, v[4]);
		if (k == TR_RECV)
			put_status(rd, c, r, c->tag);
		else if (k != TR_SEND && k != TR_BSEND && k != TR_SSEND && k != TR_RSEND)
			c->req = req_of(v[5]);
		return;
	}
	case TR_SENDRECV:
		c->bytes = v[0] * type_size(f, v[1]);
		c->peer = peer_of(v[2], 0);
		c->tag = (int32_t)v[3];
		c->rbytes = v[4] * type_size(f, v[5]);
		c->rpeer = peer_of(v[6], 1);
		c->rtag = (int32_t)v[7];
		set_comm(rd, c, v[8]);
		put_status(rd, c, r, c->rtag);
		return;
	case TR_SENDRECV_REPLACE:
		c->bytes = c->rbytes = v[0] * type_size(f, v[1]);
		c->peer = peer_of(v[2], 0);
		c->tag = (int32_t)v[3];
		c->rpeer = peer_of(v[4], 1);
		c->rtag = (int32_t)v[5];
		set_comm(rd, c, v[6]);
		put_status(rd, c, r, c->rtag);
		return;
	case TR_PROBE: case TR_IPROBE:
		c->peer = peer_of(v[0], 1);
		c->tag = (int32_t)v[1];
		set_comm(rd, c, v[2]);
		return;
	default:
		return;
	}
}

/* The arguments of completion call i (record r, of kind k). */
static int completion_args(struct rd *rd, size_t i, const struct drec *r, enum tr_kind k)
{
	const int64_t *v = r->v;
	struct dfile *f = rd->f;
	struct tr_call *c = &rd->b->t->calls[i];
	switch (k) {
	case TR_WAIT:
		c->req = req_of(v[0]);
		put_status(rd, c, r, TR_ANY_TAG);
		return 0;
	case TR_TEST:
		c->req = req_of(v[0]);
		c->flag = (int32_t)v[1];
		put_status(rd, c, r, TR_ANY_TAG);
		return 0;
	case TR_WAITANY: case TR_TESTANY:
		c->nreq = (int32_t)v[0];
		c->index = (int32_t)v[1];
		if (k == TR_TESTANY)
			c->flag = (int32_t)v[2];
		put_status(rd, c, r, TR_ANY_TAG);
		return put_reqs(rd, i, r, 0);
	case TR_WAITALL: case TR_TESTALL:
		c->nreq = (int32_t)v[0];
		if (k == TR_TESTALL)
			c->flag = (int32_t)v[1];
		if (put_reqs(rd, i, r, 0))
			return -1;
		return put_statuses(rd, i, r, r->na ? r->a[0].n : 0);
	case TR_WAITSOME: case TR_TESTSOME: {
		int64_t *ix;
		c->nreq = (int32_t)v[0];
		c->flag = (int32_t)v[1];
		if (put_reqs(rd, i, r, 0))
			return -1;
		if (r->na >= 2) {
			if (tr_build_list(rd->b, i, 1, r->a[1].n, &ix))
				return -1;
			for (uint32_t j = 0; j < r->a[1].n; j++)
				ix[j] = arr_at(f, &r->a[1], j);
		}
		return put_statuses(rd, i, r, r->na >= 2 ? r->a[1].n : 0);
	}
	case TR_REQUEST_FREE: case TR_CANCEL:
		c->req = req_of(v[0]);
		return 0;
	default:
		return 0;
	}
}

/* The arguments of collective call i (record r, of kind k). */
static int coll_args(struct rd *rd, size_t i, const struct drec *r, enum tr_kind k)
{
	const int64_t *v = r->v;
	struct dfile *f = rd->f;
	struct tr_call *c = &rd->b->t->calls[i];
	switch (k) {
	case TR_BARRIER:
		set_comm(rd, c, v[0]);
		return 0;
	case TR_BCAST:
		c->bytes = v[0] * type_size(f, v[1]);
		c->root = (int32_t)v[2];
		set_comm(rd, c, v[3]);
		return 0;
	case TR_REDUCE:
		c->bytes = v[0] * type_size(f, v[1]);
		c->root = (int32_t)v[3];
		set_comm(rd, c, v[4]);
		return 0;
	case TR_ALLREDUCE: case TR_SCAN: case TR_EXSCAN:
		c->bytes = v[0] * type_size(f, v[1]);
		set_comm(rd, c, v[3]);
		return 0;
	case TR_GATHER: case TR_SCATTER:
		/* commrank, count, type, root, comm, [count, type at the root] */
		*(k == TR_GATHER ? &c->bytes : &c->rbytes) = v[1] * type_size(f, v[2]);
		if (r->nv >= 7)
			*(k == TR_GATHER ? &c->rbytes : &c->bytes) = v[5] * type_size(f, v[6]);
		c->root = (int32_t)v[3];
		set_comm(rd, c, v[4]);
		return 0;
	case TR_GATHERV:
		/* commrank, commsize, sendcount, sendtype, root, comm, [recvcounts,
		 * displs at the root], recvtype */
		c->bytes = v[2] * type_size(f, v[3]);
		c->root = (int32_t)v[4];
		set_comm(rd, c, v[5]);
		return r->na == 2 ? put_bytes(rd, i, 1, r, 0, v[6]) : 0;
	case TR_SCATTERV:
		/* commrank, commsize, sendtype, recvcount, recvtype, root, comm,
		 * [sendcounts, displs at the root] */
		c->rbytes = v[3] * type_size(f, v[4]);
		c->root = (int32_t)v[5];
		set_comm(rd, c, v[6]);
		return r->na == 2 ? put_bytes(rd, i, 0, r, 0, v[2]) : 0;
	case TR_ALLGATHER: case TR_ALLTOALL:
		c->bytes = v[0] * type_size(f, v[1]);
		c->rbytes = v[2] * type_size(f, v[3]);
		set_comm(rd, c, v[4]);
		return 0;
	case TR_ALLGATHERV:
		/* commsize, sendcount, sendtype, recvcounts, displs, recvtype, comm */
		c->bytes = v[1] * type_size(f, v[2]);
		set_comm(rd, c, v[4]);
		return put_bytes(rd, i, 1, r, 0, v[3]);
	case TR_ALLTOALLV:
		/* commsize, sendcounts, sdispls, sendtype, recvcounts, rdispls,
		 * recvtype, comm */
		set_comm(rd, c, v[3]);
		if (put_bytes(rd, i, 0, r, 0, v[1]))
			return -1;
		return put_bytes(rd, i, 1, r, 2, v[2]);
	case TR_REDUCE_SCATTER:
		/* commsize, recvcounts, type, op, comm */
		set_comm(rd, c, v[3]);
		return put_bytes(rd, i, 0, r, 0, v[1]);
	default:
		return 0;
	}
}

/* Appends the call of record r. */
static int emit(struct rd *rd, const struct drec *r, uint32_t recno)
{
	const struct dfunc *fn = &dfuncs[r->fn];
	const int64_t *v = r->v;
	struct tr_call *c;
	size_t i;
	if (tr_build_call(rd->b, fn->kind, recno, &i))
		return -1;
	c = &rd->b->t->calls[i];
	if (r->has_time) {
		c->start = r->start;
		c->end = r->end;
	}
	switch (fn->kind) {
	case TR_SEND: case TR_BSEND: case TR_SSEND: case TR_RSEND:
	case TR_RECV:
	case TR_ISEND: case TR_IBSEND: case TR_ISSEND: case TR_IRSEND: case TR_IRECV:
	case TR_SENDRECV: case TR_SENDRECV_REPLACE:
	case TR_PROBE: case TR_IPROBE:
		p2p_args(rd, c, r, fn->kind);
		return 0;
	case TR_WAIT: case TR_TEST: case TR_WAITANY: case TR_TESTANY:
	case TR_WAITALL: case TR_TESTALL: case TR_WAITSOME: case TR_TESTSOME:
	case TR_REQUEST_FREE: case TR_CANCEL:
		return completion_args(rd, i, r, fn->kind);
	case TR_BARRIER: case TR_BCAST: case TR_REDUCE:
	case TR_ALLREDUCE: case TR_SCAN: case TR_EXSCAN:
	case TR_GATHER: case TR_SCATTER: case TR_GATHERV: case TR_SCATTERV:
	case TR_ALLGATHER: case TR_ALLTOALL: case TR_ALLGATHERV: case TR_ALLTOALLV:
	case TR_REDUCE_SCATTER:
		return coll_args(rd, i, r, fn->kind);
	case TR_COMM_DUP:
		set_comm(rd, c, v[0]);
		c->newcomm = (uint64_t)v[1];
		return 0;
	case TR_COMM_CREATE:
		set_comm(rd, c, v[0]);
		c->newcomm = (uint64_t)v[2];
		return 0;
	case TR_COMM_SPLIT:
		set_comm(rd, c, v[0]);
		c->color = (int32_t)v[1];
		c->key = (int32_t)v[2];
		c->newcomm = (uint64_t)v[3];
		return 0;
	case TR_CART_CREATE:
		set_comm(rd, c, v[0]);
		c->newcomm = (uint64_t)v[3];
		return 0;
	case TR_CART_SUB:
		set_comm(rd, c, v[1]);
		c->newcomm = (uint64_t)v[2];
		return 0;
	case TR_COMM_FREE:
		c->newcomm = (uint64_t)v[0];
		return 0;
	case TR_COMM_RANK: case TR_COMM_SIZE: case TR_ABORT:
		set_comm(rd, c, v[0]);
		return 0;
	case TR_OTHER:
		return tr_build_name(rd->b, fn->name, &c->name);
	default:
		return 0;
	}
}

/* One pass over the file of rd: follows communicators, collects split
 * contributions, and, with a builder, appends the calls. */
static int read_stream(struct rd *rd)
{
	struct dfile *f = rd->f;
	struct cur c = { f, f->body, f->limit, 0 };
	struct drec r;
	uint32_t recno = 0, calls = 0;
	double bias_cpu = (double)(uint32_t)get(&c, 4), bias_wall = (double)(uint32_t)get(&c, 4);
	rd->tmp = malloc((size_t)rd->size * sizeof *rd->tmp);
	rd->mark = malloc((size_t)rd->size);
	int rc = 0;
	if (!rd->tmp || !rd->mark || tab_grow(&rd->comm, &rd->ncomm, COMM_SELF) ||
	    tab_grow(&rd->group, &rd->ngroup, GROUP_EMPTY)) {
		rc = ferr(f, "out of memory");
		goto done;
	}
	for (int q = 0; q < rd->size; q++)
		rd->tmp[q] = q;
	ml_set(rd, &rd->comm[COMM_WORLD], rd->tmp, rd->size);
	rd->tmp[0] = rd->rank;
	ml_set(rd, &rd->comm[COMM_SELF], rd->tmp, 1);
	ml_set(rd, &rd->group[GROUP_EMPTY], rd->tmp, 0);
	if (commdef(rd, 0, COMM_WORLD, &rd->comm[COMM_WORLD]) ||
	    commdef(rd, 0, COMM_SELF, &rd->comm[COMM_SELF])) {
		rc = ferr(f, "out of memory");
		goto done;
	}
	for (;;) {
		int got = next_record(&c, &r, ++recno, bias_cpu, bias_wall);
		if (got < 0) {
			rc = -1;
			break;
		}
		if (got == 0)
			break;
		if (r.fn >= NFUNCS) {
			if (rd->b && tr_build_skip(rd->b, r.fn == LABEL_FN_ENTER ? "(DUMPI function entry, not MPI)"
			                                       : "(DUMPI function exit, not MPI)", 1))
				rc = ferr(f, "out of memory");
		} else {
			calls++;
			if ((rd->b && emit(rd, &r, recno)) || track(rd, &r, recno) || rd->oom)
				rc = ferr(f, "out of memory");
		}
		if (rc)
			break;
	}
	if (!rc && calls == 0)
		rc = ferr(f, "no MPI call in the trace (an empty or cut file)");
done:
	for (size_t i = 0; i < rd->ntouched; i++)
		ml_clear(rd->touched[i] < 65536 ? &rd->comm[rd->touched[i]]
		                                : &rd->group[rd->touched[i] - 65536]);
	free(rd->touched);
	rd->touched = NULL;
	rd->ntouched = rd->captouched = 0;
	free(rd->comm);
	free(rd->group);
	free(rd->tmp);
	free(rd->mark);
	util_kmap_free(&rd->seq);
	rd->comm = rd->group = NULL;
	rd->ncomm = rd->ngroup = 0;
	rd->tmp = NULL;
	rd->mark = NULL;
	return rc;
}

/* Reads f as rank `rank` of `size` into *t (NULL: a collecting pass). */
static int read_file(struct dfile *f, int rank, int size, const struct splits *known,
                     struct splits *collect, struct tr_trace *t)
{
	struct rd rd;
	struct tr_build b;
	int rc;
	memset(&rd, 0, sizeof rd);
	rd.f = f;
	rd.rank = rank;
	rd.size = size;
	rd.known = known;
	rd.collect = collect;
	if (t) {
		tr_build_init(&b, t, TR_UNIT_RECORD);
		rd.b = &b;
		t->rank = rank;
		t->size = size;
	}
	rc = dfile_open(f);
	if (!rc)
		rc = read_stream(&rd);
	if (t) {
		tr_build_done(&b);
		if (rc)
			tr_free(t);
	}
	return rc;
}

int tr_dumpi_read_mem(const char *fname, const unsigned char *data, size_t len, int rank,
                      int size, struct tr_trace *t, char *err, size_t errlen)
{
	struct dfile f;
	memset(&f, 0, sizeof f);
	f.path = fname;
	f.p = data;
	f.len = len;
	f.err = err;
	f.errlen = errlen;
	if (errlen)
		err[0] = '\0';
	if (size < 1 || rank < 0 || rank >= size) {
		memset(t, 0, sizeof *t);
		return ferr(&f, "rank %d of a run of %d ranks", rank, size);
	}
	return read_file(&f, rank, size, NULL, NULL, t);
}

/* ---- The run --------------------------------------------------------------- */

struct tr_dumpi {
	char **paths;
	size_t n;
	struct splits splits;      /* resolved MPI_Comm_split calls */
};

int tr_dumpi_is_meta(const char *path)
{
	size_t n = strlen(path);
	return n > 5 && strcmp(path + n - 5, ".meta") == 0;
}

size_t tr_dumpi_ranks(const struct tr_dumpi *d)
{
	return d->n;
}

const char *tr_dumpi_path(const struct tr_dumpi *d, size_t r)
{
	return d->paths[r];
}

void tr_dumpi_close(struct tr_dumpi *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->n; i++)
		free(d->paths[i]);
	free(d->paths);
	splits_free(&d->splits);
	free(d);
}

/* Loads the file of rank r into f (free f->p). */
static int load(const struct tr_dumpi *d, size_t r, struct dfile *f, char *err, size_t errlen)
{
	char *buf;
	size_t len;
	memset(f, 0, sizeof *f);
	f->path = d->paths[r];
	f->err = err;
	f->errlen = errlen;
	if (util_read_file(d->paths[r], SIZE_MAX, &buf, &len, err, errlen))
		return -1;
	f->own = buf;
	f->p = (const unsigned char *)buf;
	f->len = len;
	return 0;
}

int tr_dumpi_read(struct tr_dumpi *d, size_t r, struct tr_trace *t, char *err, size_t errlen)
{
	struct dfile f;
	int rc;
	memset(t, 0, sizeof *t);
	if (load(d, r, &f, err, errlen))
		return -1;
	rc = read_file(&f, (int)r, (int)d->n, &d->splits, NULL, t);
	free(f.own);
	return rc;
}

/* The passes over all files that resolve MPI_Comm_split: each pass knows
 * the splits the previous one resolved (splits of split communicators need
 * one pass more per level).  Skipped when every file's footer counts no
 * MPI_Comm_split. */
static int resolve_splits(struct tr_dumpi *d, char *err, size_t errlen)
{
	int any = 0;
	for (size_t r = 0; r < d->n && !any; r++) {
		struct dfile f;
		if (load(d, r, &f, err, errlen))
			return -1;
		int rc = dfile_open(&f);
		any = rc || footer_count(&f, F_COMM_SPLIT) != 0;
		free(f.own);
		if (rc)
			return -1;
	}
	if (!any)
		return 0;
	for (int pass = 0; pass < 16; pass++) {
		struct splits cur;
		memset(&cur, 0, sizeof cur);
		for (size_t r = 0; r < d->n; r++) {
			struct dfile f;
			if (load(d, r, &f, err, errlen)) {
				splits_free(&cur);
				return -1;
			}
			int rc = read_file(&f, (int)r, (int)d->n, &d->splits, &cur, NULL);
			free(f.own);
			if (rc) {
				splits_free(&cur);
				return -1;
			}
		}
		size_t before = splits_complete(&d->splits), now = splits_complete(&cur);
		splits_free(&d->splits);
		d->splits = cur;
		if (now <= before)
			break;
	}
	return 0;
}

/* Parses the .meta file: "key=value" lines; numprocs and fileprefix. */
static int read_meta(struct tr_dumpi *d, const char *meta, char *err, size_t errlen)
{
	char *text, prefix[4096] = "";
	size_t len;
	long nprocs = -1;
	unsigned line = 0, nline = 0;
	if (util_read_file(meta, 1 << 20, &text, &len, err, errlen))
		return -1;
	for (char *p = text; p < text + len;) {
		char *nl = memchr(p, '\n', (size_t)(text + len - p)), *e = nl ? nl : text + len;
		char *eq = memchr(p, '=', (size_t)(e - p));
		line++;
		if (e > p && e[-1] == '\r')
			e--;
		if (eq && eq - p == 8 && memcmp(p, "numprocs", 8) == 0) {
			char *end;
			errno = 0;
			nprocs = strtol(eq + 1, &end, 10);
			if (end == eq + 1 || end != e || errno || nprocs < 1 || nprocs > (1L << 24)) {
				snprintf(err, errlen, "%s:%u:10: error: numprocs must be a number of ranks from 1 "
				         "to 16777216", meta, line);
				free(text);
				return -1;
			}
			nline = line;
		} else if (eq && eq - p == 10 && memcmp(p, "fileprefix", 10) == 0) {
			snprintf(prefix, sizeof prefix, "%.*s", (int)(e - eq - 1), eq + 1);
		}
		p = nl ? nl + 1 : text + len;
	}
	free(text);
	if (nprocs < 0 || !prefix[0]) {
		snprintf(err, errlen, "%s: error: not a DUMPI .meta file (no %s line)", meta,
		         nprocs < 0 ? "numprocs=N" : "fileprefix=NAME");
		return -1;
	}
	const char *slash = strrchr(meta, '/');
	int dl = slash ? (int)(slash - meta + 1) : 0;
	d->paths = calloc((size_t)nprocs, sizeof *d->paths);
	if (!d->paths) {
		snprintf(err, errlen, "%s: error: out of memory", meta);
		return -1;
	}
	d->n = (size_t)nprocs;
	for (long r = 0; r < nprocs; r++) {
		size_t pl = (size_t)dl + strlen(prefix) + 32;
		if (!(d->paths[r] = malloc(pl))) {
			snprintf(err, errlen, "%s: error: out of memory", meta);
			return -1;
		}
		snprintf(d->paths[r], pl, "%.*s%s-%04ld.bin", dl, meta, prefix, r);
		FILE *fp = fopen(d->paths[r], "rb");
		if (!fp) {
			snprintf(err, errlen, "%s:%u:1: error: the trace is of a run on %ld ranks, but there "
			         "is no trace of rank %ld: %s: %s", meta, nline, nprocs, r, d->paths[r],
			         strerror(errno));
			return -1;
		}
		fclose(fp);
	}
	return 0;
}

struct tr_dumpi *tr_dumpi_open(const char *meta, char *err, size_t errlen)
{
	struct tr_dumpi *d = calloc(1, sizeof *d);
	if (!d) {
		snprintf(err, errlen, "%s: error: out of memory", meta);
		return NULL;
	}
	if (read_meta(d, meta, err, errlen) || resolve_splits(d, err, errlen)) {
		tr_dumpi_close(d);
		return NULL;
	}
	return d;
}
