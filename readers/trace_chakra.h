/* trace_chakra.h: Chakra execution traces (MLCommons Chakra, schema 0.0.4;
 * docs/chakra.md): one file per rank, NAME.RANK.et, each a GlobalMetadata
 * and then the rank's nodes, every message after a varint of its length.
 * Read through protobuf-c where the build has it (ck_supported). */
#ifndef TRACE_CHAKRA_H
#define TRACE_CHAKRA_H

#include <stddef.h>
#include <stdint.h>

/* Node types, as the schema numbers them.  X(enum suffix, schema name) */
#define CK_TYPES(X) \
	X(INVALID, "INVALID_NODE") \
	X(METADATA, "METADATA_NODE") \
	X(MEM_LOAD, "MEM_LOAD_NODE") \
	X(MEM_STORE, "MEM_STORE_NODE") \
	X(COMP, "COMP_NODE") \
	X(SEND, "COMM_SEND_NODE") \
	X(RECV, "COMM_RECV_NODE") \
	X(COLL, "COMM_COLL_NODE") \
	X(STORAGE, "STORAGE_NODE") \
	X(BATCH, "BATCH_NODE") \
	X(CHECKPOINT, "CHECKPOINT_NODE")

enum ck_type {
#define CK_X_ENUM(id, name) CK_##id,
	CK_TYPES(CK_X_ENUM)
#undef CK_X_ENUM
	CK_NTYPES
};
extern const char *const ck_type_name[CK_NTYPES];

/* Collective kinds (comm_type of a COMM_COLL_NODE), as the schema numbers
 * them.  X(enum suffix, schema name, the conversion's class: a class of
 * trace2goal --list) */
#define CK_COLLS(X) \
	X(ALL_REDUCE, "ALL_REDUCE", "allreduce") \
	X(REDUCE, "REDUCE", "reduce") \
	X(ALL_GATHER, "ALL_GATHER", "allgather") \
	X(GATHER, "GATHER", "gather") \
	X(SCATTER, "SCATTER", "scatter") \
	X(BROADCAST, "BROADCAST", "bcast") \
	X(ALL_TO_ALL, "ALL_TO_ALL", "alltoall") \
	X(REDUCE_SCATTER, "REDUCE_SCATTER", "reduce_scatter") \
	X(REDUCE_SCATTER_BLOCK, "REDUCE_SCATTER_BLOCK", "reduce_scatter_block") \
	X(BARRIER, "BARRIER", "barrier")

enum ck_coll {
#define CK_X_ENUM(id, name, cls) CK_C_##id,
	CK_COLLS(CK_X_ENUM)
#undef CK_X_ENUM
	CK_NCOLLS
};
extern const char *const ck_coll_name[CK_NCOLLS];
extern const char *const ck_coll_class[CK_NCOLLS];

/* The attributes a node may give (bits of ck_node.has). */
enum {
	CK_A_TYPE = 1u << 0,     /* comm_type */
	CK_A_SIZE = 1u << 1,     /* comm_size */
	CK_A_SRC = 1u << 2,      /* comm_src */
	CK_A_DST = 1u << 3,      /* comm_dst */
	CK_A_TAG = 1u << 4,      /* comm_tag */
	CK_A_PG = 1u << 5,       /* pg_name */
	CK_A_OPS = 1u << 6,      /* num_ops */
	CK_A_TENSOR = 1u << 7,   /* tensor_size */
	CK_A_ROOT = 1u << 8,     /* root */
	CK_A_NAME = 1u << 9      /* name (not empty) */
};

/* A node: what the conversion uses of it. */
typedef struct ck_node {
	uint64_t id;
	uint64_t dur_us;         /* duration_micros */
	uint64_t size;           /* comm_size */
	uint64_t num_ops, tensor;
	uint32_t dep, ndeps;     /* its dependencies (ctrl, then data): dep[dep ..) */
	uint32_t pg;             /* pg_name: offset in str */
	uint32_t name;           /* name: offset in str */
	int32_t src, dst, tag, root;
	uint16_t has;            /* CK_A_* */
	uint8_t type;            /* enum ck_type, or CK_NTYPES: a type beyond */
	uint8_t coll;            /* enum ck_coll, or CK_NCOLLS: none or beyond */
	int64_t comm_type;       /* as given (for the messages) */
} ck_node;

/* An attribute the conversion does not use: on how many nodes, the first
 * of them. */
typedef struct ck_unused {
	char *name;
	uint64_t n, first;
} ck_unused;

/* One rank's trace. */
typedef struct ck_trace {
	ck_node *node;
	size_t n, cap;
	uint64_t *dep;
	size_t ndep, capdep;
	char *str;               /* node and process group names, each NUL-terminated */
	size_t nstr, capstr;
	uint64_t types[CK_NTYPES + 1];  /* nodes by type (the last: types beyond) */
	ck_unused *unused;       /* in the order first seen */
	size_t nunused, capunused;
	char version[32];        /* the GlobalMetadata's */
} ck_trace;

/* 1 when this build reads Chakra traces (it has protobuf-c). */
int ck_supported(void);

/* Whether path names a Chakra trace: a file NAME.RANK.et, or a folder
 * holding such files. */
int ck_is_trace(const char *path);

/* The files of a run: path is a folder of NAME.RANK.et files (one NAME),
 * or the file of one rank of them, the others beside it; ranks 0 .. n-1,
 * none missing.  *paths (n strings) is the caller's to free with
 * ck_files_free.  0, or -1 with "PATH: error: ..." in err. */
int ck_files(const char *path, char ***paths, size_t *n, char *err, size_t errlen);
void ck_files_free(char **paths, size_t n);

/* Read the trace at path into *t (empty before; free with ck_free).  0, or
 * -1 with "PATH: error: byte OFF: ..." (a message that cannot be read) or
 * "PATH: error: node ID: ..." (a value out of range) in err. */
int ck_read(const char *path, ck_trace *t, char *err, size_t errlen);
void ck_free(ck_trace *t);

#endif
