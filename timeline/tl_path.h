/* tl_path.h: the critical path file (loggopsim --critical-path FILE), its
 * one reader and writer.  A CSV file: the header line
 *
 *   step,kind,rank,unit,op,peer,start_ns,end_ns,via,range,L,o,g,G_bytes,O_bytes,calc_ns,noise_ns,label
 *
 * then one row per link of the path, in time order (start_ns never
 * decreases, step goes up by one from row to row).  kind and via are words
 * (below); noise_ns is a decimal integer that may be negative; every other
 * field but peer and label is an unsigned decimal integer; peer is empty for
 * a calc (and only then); label is empty or a double-quoted CSV field (""
 * for a quote inside).  docs/sensitivity.md, section "The path file", says
 * what each field is. */
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

/* What started a link: X(enum suffix, word): time 0, a dependency's end
 * (or start, irequires), its CPU or NIC becoming free (the link before it
 * kept it busy), its message's arrival, the end of a rendezvous send's hold
 * (its match), the message's departure (a wire, after its send's o). */
#define TL_VIAS(X) \
	X(ROOT, "root") X(DEP, "dep") X(CPU, "cpu") X(NIC, "nic") X(MSG, "msg") X(HOLD, "hold") \
	X(DEPART, "depart")

typedef enum tl_via {
#define TL_VIA_X(name, word) TL_VIA_##name,
	TL_VIAS(TL_VIA_X)
#undef TL_VIA_X
	TL_NVIAS
} tl_via;

extern const char *const tl_via_word[TL_NVIAS];
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
	tl_via via;           /* what started it */
	uint64_t range;       /* the size range of the message (0: the first) */
	/* Its cost: end_ns - start_ns = L*L + o*o + g*g + round(G_bytes*G) +
	 * round(O_bytes*O) + calc_ns + noise_ns with the range's parameters. */
	uint64_t L, o, g;     /* how many latencies, overheads, gaps */
	uint64_t G_bytes, O_bytes; /* the bytes that pay G, O */
	uint64_t calc_ns;     /* a calc's duration as the schedule gives it */
	int64_t noise_ns;     /* what detours and slow ranks added (or took) */
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
