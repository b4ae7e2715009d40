/* trace_dumpi_rec.c: the SST-DUMPI format: the function table, a rank file
 * in memory and the decoding of its records (trace_dumpi_int.h).
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
#include "trace_dumpi_int.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
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

const struct dfunc dumpi_funcs[] = {
#define DUMPI_FUNC(name, layout, kind) { name, layout, kind },
	DUMPI_FUNCS(DUMPI_FUNC)
#undef DUMPI_FUNC
};
_Static_assert(sizeof dumpi_funcs / sizeof dumpi_funcs[0] == NFUNCS, "NFUNCS is the table's size");

/* ---- A rank file in memory ----------------------------------------------- */

/* "FILE: error: MESSAGE" into f->err; returns -1. */
int dumpi_ferr(const struct dfile *f, const char *fmt, ...)
{
	char msg[300];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	snprintf(f->err, f->errlen, "%s: error: %s", f->path, msg);
	return -1;
}

/* Whether the file's DUMPI version is at least a.b.c. */
static int have_version(const struct dfile *f, int a, int b, int c)
{
	int v = f->ver[0] * 65536 + f->ver[1] * 256 + f->ver[2];
	return v >= a * 65536 + b * 256 + c;
}

/* Checks the magic, reads the index at the end, the version and the
 * datatype sizes.  Returns 0 or -1 (message in f->err). */
int dumpi_file_open(struct dfile *f)
{
	uint64_t off[7];
	int k;
	if (f->len < 8 || be64(f->p) != DUMPI_MAGIC)
		return dumpi_ferr(f, "not a DUMPI trace (no DUMPI magic at the start)");
	if (f->len < 8 + 40)
		return dumpi_ferr(f, "cut short: %zu bytes, no index record at the end", f->len);
	/* the index: the magic and 4 offsets (header, body, footer, keyvals),
	 * newer files with up to 3 more in front (perf labels, function
	 * names, datatype sizes) */
	for (k = 3; k >= 0; k--)
		if (f->len >= 8 + (size_t)(5 + k) * 8 && be64(f->p + f->len - (size_t)(5 + k) * 8) == DUMPI_MAGIC)
			break;
	if (k < 0)
		return dumpi_ferr(f, "no index record at the end of the file (cut short?)");
	size_t ix = f->len - (size_t)(4 + k) * 8;
	for (int i = 0; i < 4 + k; i++)
		off[i] = be64(f->p + ix + (size_t)i * 8);
	uint64_t header = off[k], body = off[k + 1], footer = off[k + 2];
	uint64_t sizes = k == 3 ? off[0] : 0;
	size_t end = ix - 8;
	if (body < 8 || body > end - 8 || header > end || header < 8 || header - 8 < body)
		return dumpi_ferr(f, "bad index record at byte %zu (offsets out of the file)", ix - 8);
	f->body = (size_t)body;
	f->limit = (size_t)header;
	if (header > end - 3)
		return dumpi_ferr(f, "bad index record at byte %zu (no header)", ix - 8);
	memcpy(f->ver, f->p + header, 3);
	f->footer = footer >= 8 && footer <= end && end - footer >= 8 + 4 * (LABEL_END - 2) ?
	            (size_t)footer : 0;
	if (f->footer && be64(f->p + f->footer) != DUMPI_FOOT_MAGIC)
		f->footer = 0;
	f->sizes = 0;
	f->nsizes = 0;
	if (sizes) {
		if (sizes < 8 || sizes > end - 4)
			return dumpi_ferr(f, "bad index record at byte %zu (datatype sizes out of the "
			                  "file)", ix - 8);
		uint32_t n = be32(f->p + sizes);
		if (n > (end - sizes - 4) / 4)
			return dumpi_ferr(f, "%" PRIu32 " datatype sizes at byte %" PRIu64 " run past the "
			                  "index", n, sizes);
		f->sizes = (size_t)sizes + 4;
		f->nsizes = n;
	}
	return 0;
}

/* ---- One record ----------------------------------------------------------- */

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

/* The record stream of f: *c at its first record, and its time biases
 * (seconds). */
void dumpi_stream(const struct dfile *f, struct cur *c, double *bias_cpu, double *bias_wall)
{
	c->f = f;
	c->pos = f->body;
	c->end = f->limit;
	c->cut = 0;
	*bias_cpu = (double)(uint32_t)get(c, 4);
	*bias_wall = (double)(uint32_t)get(c, 4);
}

/* Reads the record at c->pos into r.  Returns 1, 0 at the end of the
 * stream, or -1 (message in f->err). */
int dumpi_next_record(struct cur *c, struct drec *r, uint32_t recno, double bias_cpu,
                      double bias_wall)
{
	const struct dfile *f = c->f;
	memset(r, 0, sizeof *r);
	r->at = c->pos;
	if (c->end - c->pos < 2)
		return dumpi_ferr(f, "record %" PRIu32 " at byte %zu: the record stream ends without "
		                  "its end mark (cut short?)", recno, c->pos);
	r->fn = (unsigned)get(c, 2);
	if (r->fn == LABEL_END)
		return 0;
	if (r->fn == NFUNCS || r->fn > LABEL_END)
		return dumpi_ferr(f, "record %" PRIu32 " at byte %zu: unknown function label %u", recno,
		                  r->at, r->fn);
	if (r->fn < NFUNCS && !dumpi_funcs[r->fn].layout)
		return dumpi_ferr(f, "record %" PRIu32 " at byte %zu: a %s record, which DUMPI does "
		                  "not write (its layout is not known)", recno, r->at,
		                  dumpi_funcs[r->fn].name);
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
		decode_args(c, r, mask, dumpi_funcs[r->fn].layout);
	else
		get(c, 8); /* the address of the profiled function */
	if (c->cut)
		return dumpi_ferr(f, "record %" PRIu32 " at byte %zu (%s): cut short (it runs past the "
		                  "end of the record stream at byte %zu)", recno, r->at,
		                  r->fn < NFUNCS ? dumpi_funcs[r->fn].name : "function entry or exit",
		                  c->end);
	if (r->has_time && !(r->end >= r->start))
		return dumpi_ferr(f, "record %" PRIu32 " at byte %zu (%s): ends before it starts", recno,
		                  r->at,
		                  r->fn < NFUNCS ? dumpi_funcs[r->fn].name : "function entry or exit");
	return 1;
}
