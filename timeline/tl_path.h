/* tl_path.h: the critical path file (loggopsim --critical-path FILE), its
 * one reader and writer.  A CSV file: the header line
 *
 *   step,kind,rank,unit,op,peer,start_ns,end_ns,wait_ns,range,L,o,g,G_bytes,O_bytes,calc_ns,noise_ns,label
 *
 * then one row per link of the path, in time order (start_ns never
 * decreases, step goes up by one from row to row).  Every field but peer and
 * label is an unsigned decimal integer; peer is empty for a calc (and only
 * then); label is empty or a double-quoted CSV field ("" for a quote inside).
 * docs/timeline.md, section "Critical path file", says what each field is. */
#ifndef TL_PATH_H
#define TL_PATH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The kinds of links.  X(enum suffix, word, place, what): place 0 a CPU
 * activity on CPU `unit` of `rank`, 1 a NIC gap on NIC `unit` of `rank`,
 * 2 a message in flight from `rank` (its NIC `unit`) to `peer`. */
#define TL_LINK_KINDS(X) \
	X(CALC, "calc", 0, "calc (loclop)") \
	X(SEND, "send", 0, "send overhead (osend)") \
	X(SNIC, "snic", 1, "send NIC gap (gsend)") \
	X(WIRE, "wire", 2, "message in flight (departure to arrival)") \
	X(RECV, "recv", 0, "receive overhead (orecv)") \
	X(RNIC, "rnic", 1, "receive NIC gap (grecv)")

typedef enum tl_link_kind {
#define TL_LINK_X(name, word, place, what) TL_LINK_##name,
	TL_LINK_KINDS(TL_LINK_X)
#undef TL_LINK_X
	TL_LINK_NKINDS
} tl_link_kind;

extern const char *const tl_link_word[TL_LINK_NKINDS];
extern const char *const tl_link_what[TL_LINK_NKINDS];
extern const unsigned char tl_link_place[TL_LINK_NKINDS];

/* One link of the path: a row of the file, field by field. */
typedef struct tl_link {
	uint64_t step;
	tl_link_kind kind;
	uint64_t rank;        /* calc, send, snic: its rank; wire: the sender;
	                         recv, rnic: the receiver */
	uint32_t unit;        /* the CPU (calc, send, recv) or NIC (snic, wire,
	                         rnic) index, at most 65535 */
	uint64_t op;          /* the op index in rank's schedule; wire, recv,
	                         rnic: the send's op index in the sender's */
	uint64_t peer;        /* the other rank of the message (not for calc) */
	uint64_t start_ns, end_ns; /* wire: departure and arrival */
	uint64_t wait_ns;     /* time the link waited after the one before it */
	uint64_t range;       /* the size range of the message (0: the first) */
	uint64_t L, o, g;     /* that range's parameters */
	uint64_t G_bytes, O_bytes; /* the message's sG and sO in ns */
	uint64_t calc_ns;     /* a calc's duration as the schedule gives it */
	uint64_t noise_ns;    /* the detours that stretched the link */
	const char *label;    /* NULL or "": none */
} tl_link;

/* Write the header and one row per link to f: exactly the format above
 * (peer left empty for a calc whatever its value; a label's control
 * characters written as spaces).  Returns 0, or -1 if f has had an error. */
int tl_path_write(FILE *f, const tl_link *links, size_t n);

/* Read a path file from f (named name in messages) into a new array *out
 * (free it with tl_path_free) of *n links.  Returns 0, or -1 with
 * "NAME:LINE:COL: error: MESSAGE" in err (COL: the field, in bytes from 1),
 * "NAME: error: ..." for a read error or no memory. */
int tl_path_read(FILE *f, const char *name, tl_link **out, size_t *n, char *err,
                 size_t errlen);

/* Free what tl_path_read returned. */
void tl_path_free(tl_link *links, size_t n);

#endif
