/* trace_otf2_int.h: what the files of the OTF2 reader share, private to
 * them (trace_otf2.h is the contract with everything else), with the OTF2
 * library only (HAVE_OTF2): the global definitions of an open archive and
 * the library's messages.  trace_otf2.c reads the definitions;
 * trace_otf2_events.c reads a rank's events. */
#ifndef TRACE_OTF2_INT_H
#define TRACE_OTF2_INT_H

#include "trace_otf2.h"
#include "kmap.h"

#include <otf2/otf2.h>
#include <stddef.h>
#include <stdint.h>

/* ---- Global definitions ---------------------------------------------------- */

struct region {
	uint32_t name;              /* string id */
	uint16_t kind;              /* the tr_kind of its name, TR_OTHER */
	uint8_t mpi;                /* an MPI call */
};

struct group {
	uint8_t type;               /* OTF2_GroupType */
	uint8_t paradigm;
	uint64_t *members;
	uint32_t n;
};

struct comm {
	uint32_t id;
	uint32_t group;             /* OTF2 group id */
};

struct location {
	uint64_t id;
	uint64_t nevents;
	uint32_t group;             /* location group */
	uint8_t type;
};

struct tr_otf2 {
	char *anchor;
	uint64_t resolution, offset;    /* clock: ticks per second, first tick */
	char **strings;                 /* by index (strings_ix) */
	util_kmap strings_ix, regions_ix, groups_ix, comms_ix, locgroups_ix;
	size_t nstrings, capstrings;
	struct region *regions;
	size_t nregions, capregions;
	struct group *groups;
	size_t ngroups, capgroups;
	struct comm *comms;
	size_t ncomms, capcomms;
	struct location *locs;
	size_t nlocs, caplocs;
	uint8_t *locgroup_type;         /* by index (locgroups_ix) */
	size_t nlocgroups, caplocgroups;
	int32_t *region_at, *comm_at;   /* index by id (ids below DENSE_MAX), -1 */
	size_t nregion_at, ncomm_at;
	uint64_t *ranks;                /* location of each rank */
	size_t nranks;
	uint64_t not_ranks;             /* locations that are not MPI ranks */
	int oom;
};

/* Region and communicator ids are small numbers: their indexes are also
 * kept in arrays by id (up to this id; beyond, the maps are asked). */
#define DENSE_MAX (1u << 20)

static inline long find_id(const util_kmap *m, uint64_t id)
{
	const uint32_t *v = util_kmap_get(m, &id, sizeof id);
	return v ? (long)*v : -1;
}

/* The index of region or communicator id, or -1. */
static inline long index_of(const int32_t *at, size_t n, const util_kmap *m, uint64_t id)
{
	return id < n ? at[id] : id < DENSE_MAX ? -1 : find_id(m, id);
}

static inline const char *string_of(const struct tr_otf2 *o, uint32_t id)
{
	long i = find_id(&o->strings_ix, id);
	return i >= 0 ? o->strings[i] : "";
}

/* ---- The OTF2 library's error messages ------------------------------------ */

/* The library's message for code (its last one, else the code's). */
const char *tr_otf2_why(OTF2_ErrorCode code);

/* Forgets the library's last message. */
void tr_otf2_msg_clear(void);

#endif
