/* trace_otf2.c: the MPI ranks of an OTF2 archive (trace_otf2.h), through
 * the OTF2 library: the anchor checked before the library reads it, the
 * global definitions, the locations that are MPI ranks.  A rank's events
 * become its calls in trace_otf2_events.c. */
#include "trace_otf2.h"
#include "kmap.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int tr_otf2_is_anchor(const char *path)
{
	size_t n = strlen(path);
	return n > 5 && strcmp(path + n - 5, ".otf2") == 0;
}

int tr_otf2_magic(const unsigned char *b, size_t n)
{
	return n >= 7 && b[0] == 3 && (b[1] == 0x42 || b[1] == 0x23) && memcmp(b + 2, "OTF2", 5) == 0;
}

/* Every regular file under folder dir, at most depth folders down. */
static int members_under(const char *dir, int depth, int (*add)(void *ctx, const char *path),
                         void *ctx)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int rc = 0;
	if (!d)
		return 0;
	while (!rc && (e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		size_t n = strlen(dir) + strlen(e->d_name) + 2;
		char *p = malloc(n);
		struct stat sb;
		if (!p)
			return -1;
		snprintf(p, n, "%s/%s", dir, e->d_name);
		if (stat(p, &sb) == 0 && S_ISREG(sb.st_mode))
			rc = add(ctx, p);
		else if (stat(p, &sb) == 0 && S_ISDIR(sb.st_mode) && depth > 0)
			rc = members_under(p, depth - 1, add, ctx);
		free(p);
	}
	closedir(d);
	return rc;
}

int tr_otf2_members(const char *anchor, int (*add)(void *ctx, const char *path), void *ctx)
{
	size_t n = strlen(anchor);
	char *base = malloc(n + 5);
	int rc;
	if (!base)
		return -1;
	memcpy(base, anchor, n + 1);
	if (tr_otf2_is_anchor(base))
		base[n - 5] = 0;
	strcat(base, ".def");
	rc = add(ctx, anchor);
	if (!rc)
		rc = add(ctx, base);
	base[strlen(base) - 4] = 0;
	/* Writers put the locations' files in NAME/ (some in folders below). */
	if (!rc)
		rc = members_under(base, 8, add, ctx);
	free(base);
	return rc;
}

#ifndef HAVE_OTF2

int tr_otf2_supported(void)
{
	return 0;
}

struct tr_otf2 *tr_otf2_open(const char *anchor, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: error: OTF2 archives are not supported: this trace2goal was built "
	         "without the OTF2 library (Debian package libopen-trace-format2-dev; "
	         "scripts/install-deps.sh installs it)", anchor);
	return NULL;
}

size_t tr_otf2_ranks(const struct tr_otf2 *o)
{
	(void)o;
	return 0;
}

const char *tr_otf2_path(const struct tr_otf2 *o)
{
	(void)o;
	return "";
}

void tr_otf2_close(struct tr_otf2 *o)
{
	(void)o;
}

#else

#include "trace_otf2_int.h"

/* ---- The anchor, checked before the library sees it ----------------------
 * A damaged anchor (a chunk size, a count of definitions or of properties
 * of 2^40) kept the library busy for tens of seconds, or had it ask for
 * tens of GB.  The anchor's layout (OTF2 3.x, format 1 to 3; later formats
 * only add fields): the 7 bytes tr_otf2_magic knows, the anchor format, the trace format
 * and version (4 bytes), the event and definition chunk sizes (8 bytes
 * each), the substrate and compression (1 byte each), the counts of
 * locations and of global definitions (8 bytes each), three strings
 * (machine, creator, description); from format 2 a count of properties (4
 * bytes) and as many pairs of strings, and a trace id (8 bytes); from
 * format 3 two counts of 4 bytes.  Strings end with a NUL byte. */
typedef struct anchor_rd {
	const unsigned char *p, *end;
	int big;
} anchor_rd;

static int anchor_u(anchor_rd *a, unsigned n, uint64_t *v)
{
	if ((size_t)(a->end - a->p) < n)
		return -1;
	*v = 0;
	for (unsigned i = 0; i < n; i++)
		*v |= (uint64_t)a->p[a->big ? i : n - 1 - i] << 8 * (n - 1 - i);
	a->p += n;
	return 0;
}

static int anchor_str(anchor_rd *a)
{
	const unsigned char *z = memchr(a->p, 0, (size_t)(a->end - a->p));
	if (!z)
		return -1;
	a->p = z + 1;
	return 0;
}

/* The sizes of the anchor at path and of its NAME.def against what OTF2
 * allows; 0, or -1 with "ANCHOR: error: ..." in err. */
static int anchor_check(const char *path, char *err, size_t errlen)
{
	unsigned char buf[1 << 16];
	FILE *f = fopen(path, "rb");
	size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;
	uint64_t fmt, ver, cse, csd, sub, loc, defs, nprop;
	int rc = -1;
	if (f)
		fclose(f);
	anchor_rd a = { buf, buf + n, n > 1 && buf[1] == 0x23 };
	if (!tr_otf2_magic(buf, n)) {
		snprintf(err, errlen, "%s: error: not an OTF2 anchor file (it does not begin as one)", path);
		return -1;
	}
	a.p = buf + 7;
	if (anchor_u(&a, 1, &fmt) || fmt == 0 || anchor_u(&a, 4, &ver) || anchor_u(&a, 8, &cse)
	    || anchor_u(&a, 8, &csd) || anchor_u(&a, 2, &sub) || anchor_u(&a, 8, &loc)
	    || anchor_u(&a, 8, &defs) || anchor_str(&a) || anchor_str(&a) || anchor_str(&a))
		goto cut;
	if (fmt > 1) {
		if (anchor_u(&a, 4, &nprop))
			goto cut;
		for (uint64_t i = 0; i < 2 * nprop; i++)
			if (anchor_str(&a))
				goto cut;
		if (anchor_u(&a, 8, &ver))
			goto cut;
	}
	if (cse < 256 * 1024 || cse > 16 * 1024 * 1024 || csd < 256 * 1024 || csd > 16 * 1024 * 1024) {
		snprintf(err, errlen, "%s: error: the anchor file is damaged: chunks of %" PRIu64 " and %"
		         PRIu64 " bytes (OTF2 allows 262144 to 16777216)", path, cse, csd);
		return -1;
	}
	/* Every location and every global definition is a record of NAME.def. */
	size_t pl = strlen(path);
	char *def = malloc(pl + 5);
	struct stat sb;
	if (!def) {
		snprintf(err, errlen, "%s: error: out of memory", path);
		return -1;
	}
	memcpy(def, path, pl + 1);
	if (tr_otf2_is_anchor(def))
		def[pl - 5] = 0;
	strcat(def, ".def");
	uint64_t dsize = 0;
	if (stat(def, &sb) == 0 && ((dsize = (uint64_t)sb.st_size) < loc || dsize < defs))
		snprintf(err, errlen, "%s: error: the anchor file is damaged: %" PRIu64 " locations and %"
		         PRIu64 " global definitions, more records than %s holds (%" PRIu64 " bytes)",
		         path, loc, defs, def, dsize);
	else
		rc = 0;
	free(def);
	return rc;
cut:
	snprintf(err, errlen, "%s: error: the anchor file is damaged: its fields (counts and "
	         "strings) run past its end at %zu bytes%s", path, n, n == sizeof buf ? " (or past 64 KiB)" : "");
	return -1;
}

int tr_otf2_supported(void)
{
	return 1;
}

/* ---- The OTF2 library's error messages ------------------------------------ */

/* The last message of the library (it would print to stderr otherwise). */
static char otf2_msg[300];

static OTF2_ErrorCode on_error(void *data, const char *file, uint64_t line, const char *fn,
                               OTF2_ErrorCode code, const char *fmt, va_list va)
	__attribute__((format(printf, 6, 0)));
static OTF2_ErrorCode on_error(void *data, const char *file, uint64_t line, const char *fn,
                               OTF2_ErrorCode code, const char *fmt, va_list va)
{
	char m[240];
	(void)data;
	(void)file;
	(void)line;
	(void)fn;
	if (fmt && fmt[0]) {
		vsnprintf(m, sizeof m, fmt, va);
		snprintf(otf2_msg, sizeof otf2_msg, "%s (%s)", m, OTF2_Error_GetName(code));
	} else {
		snprintf(otf2_msg, sizeof otf2_msg, "%s", OTF2_Error_GetDescription(code));
	}
	return code;
}

/* The library's message for code (its last one, else the code's). */
const char *tr_otf2_why(OTF2_ErrorCode code)
{
	if (!otf2_msg[0])
		snprintf(otf2_msg, sizeof otf2_msg, "%s", OTF2_Error_GetDescription(code));
	return otf2_msg;
}

/* Forgets the library's last message. */
void tr_otf2_msg_clear(void)
{
	otf2_msg[0] = '\0';
}

/* ---- Global definitions ---------------------------------------------------- */

/* Adds id -> the next index to map m.  Returns the index, or -1 (out of
 * memory, or defined twice: the first counts). */
static long add_id(struct tr_otf2 *o, util_kmap *m, uint64_t id, size_t next)
{
	if (util_kmap_get(m, &id, sizeof id))
		return -1;
	if (util_kmap_put(m, &id, sizeof id, (uint32_t)next)) {
		o->oom = 1;
		return -1;
	}
	return (long)next;
}

/* The array at[0..*n) of the indexes of map m by id (ids below DENSE_MAX).
 * Returns 0 or -1 (out of memory). */
static int dense(const util_kmap *m, int32_t **at, size_t *n)
{
	size_t max = 0;
	for (size_t i = 0; i < m->nent; i++) {
		uint64_t id;
		memcpy(&id, m->arena + m->ent[i].off, sizeof id);
		if (id < DENSE_MAX && id + 1 > max)
			max = (size_t)id + 1;
	}
	*n = max;
	*at = malloc((max ? max : 1) * sizeof **at);
	if (!*at)
		return -1;
	for (size_t i = 0; i < max; i++)
		(*at)[i] = -1;
	for (size_t i = 0; i < m->nent; i++) {
		uint64_t id;
		memcpy(&id, m->arena + m->ent[i].off, sizeof id);
		if (id < DENSE_MAX)
			(*at)[id] = (int32_t)m->ent[i].val;
	}
	return 0;
}

static OTF2_CallbackCode def_clock(void *data, uint64_t resolution, uint64_t offset,
                                   uint64_t length, uint64_t realtime)
{
	struct tr_otf2 *o = data;
	(void)length;
	(void)realtime;
	o->resolution = resolution;
	o->offset = offset;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_string(void *data, OTF2_StringRef self, const char *s)
{
	struct tr_otf2 *o = data;
	char *c;
	if (util_grow(&o->strings, &o->capstrings, o->nstrings + 1, sizeof *o->strings) ||
	    !(c = strdup(s ? s : ""))) {
		o->oom = 1;
		return OTF2_CALLBACK_INTERRUPT;
	}
	if (add_id(o, &o->strings_ix, self, o->nstrings) < 0) {
		free(c);
		return o->oom ? OTF2_CALLBACK_INTERRUPT : OTF2_CALLBACK_SUCCESS;
	}
	o->strings[o->nstrings++] = c;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_region(void *data, OTF2_RegionRef self, OTF2_StringRef name,
                                    OTF2_StringRef canonical, OTF2_StringRef description,
                                    OTF2_RegionRole role, OTF2_Paradigm paradigm,
                                    OTF2_RegionFlag flags, OTF2_StringRef file,
                                    uint32_t begin, uint32_t end)
{
	struct tr_otf2 *o = data;
	const char *s = string_of(o, name);
	(void)canonical;
	(void)description;
	(void)role;
	(void)flags;
	(void)file;
	(void)begin;
	(void)end;
	if (util_grow(&o->regions, &o->capregions, o->nregions + 1, sizeof *o->regions)) {
		o->oom = 1;
		return OTF2_CALLBACK_INTERRUPT;
	}
	if (add_id(o, &o->regions_ix, self, o->nregions) < 0)
		return o->oom ? OTF2_CALLBACK_INTERRUPT : OTF2_CALLBACK_SUCCESS;
	struct region *g = &o->regions[o->nregions++];
	g->name = name;
	g->kind = (uint16_t)tr_kind_find(s);
	g->mpi = paradigm == OTF2_PARADIGM_MPI || strncmp(s, "MPI_", 4) == 0;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_locgroup(void *data, OTF2_LocationGroupRef self, OTF2_StringRef name,
                                      OTF2_LocationGroupType type, OTF2_SystemTreeNodeRef parent,
                                      OTF2_LocationGroupRef creator)
{
	struct tr_otf2 *o = data;
	(void)name;
	(void)parent;
	(void)creator;
	if (util_grow(&o->locgroup_type, &o->caplocgroups, o->nlocgroups + 1, 1)) {
		o->oom = 1;
		return OTF2_CALLBACK_INTERRUPT;
	}
	if (add_id(o, &o->locgroups_ix, self, o->nlocgroups) >= 0)
		o->locgroup_type[o->nlocgroups++] = (uint8_t)type;
	return o->oom ? OTF2_CALLBACK_INTERRUPT : OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_location(void *data, OTF2_LocationRef self, OTF2_StringRef name,
                                      OTF2_LocationType type, uint64_t nevents,
                                      OTF2_LocationGroupRef group)
{
	struct tr_otf2 *o = data;
	(void)name;
	if (util_grow(&o->locs, &o->caplocs, o->nlocs + 1, sizeof *o->locs)) {
		o->oom = 1;
		return OTF2_CALLBACK_INTERRUPT;
	}
	o->locs[o->nlocs++] = (struct location){ self, nevents, group, (uint8_t)type };
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_group(void *data, OTF2_GroupRef self, OTF2_StringRef name,
                                   OTF2_GroupType type, OTF2_Paradigm paradigm,
                                   OTF2_GroupFlag flags, uint32_t n, const uint64_t *members)
{
	struct tr_otf2 *o = data;
	uint64_t *m = NULL;
	(void)name;
	(void)flags;
	if (util_grow(&o->groups, &o->capgroups, o->ngroups + 1, sizeof *o->groups) ||
	    (n && !(m = malloc((size_t)n * sizeof *m)))) {
		o->oom = 1;
		return OTF2_CALLBACK_INTERRUPT;
	}
	if (add_id(o, &o->groups_ix, self, o->ngroups) < 0) {
		free(m);
		return o->oom ? OTF2_CALLBACK_INTERRUPT : OTF2_CALLBACK_SUCCESS;
	}
	if (n)
		memcpy(m, members, (size_t)n * sizeof *m);
	o->groups[o->ngroups++] = (struct group){ (uint8_t)type, (uint8_t)paradigm, m, n };
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_comm(void *data, OTF2_CommRef self, OTF2_StringRef name,
                                  OTF2_GroupRef group, OTF2_CommRef parent, OTF2_CommFlag flags)
{
	struct tr_otf2 *o = data;
	(void)name;
	(void)parent;
	(void)flags;
	if (util_grow(&o->comms, &o->capcomms, o->ncomms + 1, sizeof *o->comms)) {
		o->oom = 1;
		return OTF2_CALLBACK_INTERRUPT;
	}
	if (add_id(o, &o->comms_ix, self, o->ncomms) >= 0)
		o->comms[o->ncomms++] = (struct comm){ self, group };
	return o->oom ? OTF2_CALLBACK_INTERRUPT : OTF2_CALLBACK_SUCCESS;
}

/* qsort order of locations: by location group, then id. */
static int cmp_loc(const void *a, const void *b)
{
	const struct location *x = a, *y = b;
	if (x->group != y->group)
		return (x->group > y->group) - (x->group < y->group);
	return (x->id > y->id) - (x->id < y->id);
}

/* The MPI ranks: the members of the MPI group of type COMM_LOCATIONS, else
 * the first CPU thread of each process location group.  Returns 0 or -1
 * (message in err). */
static int find_ranks(struct tr_otf2 *o, char *err, size_t errlen)
{
	const struct group *w = NULL;
	for (size_t i = 0; i < o->ngroups && !w; i++)
		if (o->groups[i].type == OTF2_GROUP_TYPE_COMM_LOCATIONS &&
		    o->groups[i].paradigm == OTF2_PARADIGM_MPI)
			w = &o->groups[i];
	if (w && w->n) {
		o->ranks = malloc(w->n * sizeof *o->ranks);
		if (!o->ranks)
			return snprintf(err, errlen, "%s: error: out of memory", o->anchor), -1;
		memcpy(o->ranks, w->members, w->n * sizeof *o->ranks);
		o->nranks = w->n;
	} else {
		qsort(o->locs, o->nlocs, sizeof *o->locs, cmp_loc);
		o->ranks = malloc((o->nlocs ? o->nlocs : 1) * sizeof *o->ranks);
		if (!o->ranks)
			return snprintf(err, errlen, "%s: error: out of memory", o->anchor), -1;
		for (size_t i = 0; i < o->nlocs; i++) {
			long g = find_id(&o->locgroups_ix, o->locs[i].group);
			if (o->locs[i].type == OTF2_LOCATION_TYPE_CPU_THREAD && g >= 0 &&
			    o->locgroup_type[g] == OTF2_LOCATION_GROUP_TYPE_PROCESS &&
			    (i == 0 || o->locs[i - 1].group != o->locs[i].group ||
			     o->nranks == 0 || o->ranks[o->nranks - 1] != o->locs[i - 1].id))
				o->ranks[o->nranks++] = o->locs[i].id;
		}
	}
	if (o->nranks == 0)
		return snprintf(err, errlen, "%s: error: no MPI rank in the archive (no MPI locations "
		                "group, no process location)", o->anchor), -1;
	for (size_t i = 0; i < o->nlocs; i++) {
		int rank = 0;
		for (size_t r = 0; r < o->nranks && !rank; r++)
			rank = o->ranks[r] == o->locs[i].id;
		o->not_ranks += !rank;
	}
	return 0;
}

void tr_otf2_close(struct tr_otf2 *o)
{
	if (!o)
		return;
	for (size_t i = 0; i < o->nstrings; i++)
		free(o->strings[i]);
	for (size_t i = 0; i < o->ngroups; i++)
		free(o->groups[i].members);
	free(o->strings);
	free(o->regions);
	free(o->groups);
	free(o->comms);
	free(o->locs);
	free(o->locgroup_type);
	free(o->ranks);
	free(o->region_at);
	free(o->comm_at);
	free(o->anchor);
	util_kmap_free(&o->strings_ix);
	util_kmap_free(&o->regions_ix);
	util_kmap_free(&o->groups_ix);
	util_kmap_free(&o->comms_ix);
	util_kmap_free(&o->locgroups_ix);
	free(o);
}

struct tr_otf2 *tr_otf2_open(const char *anchor, char *err, size_t errlen)
{
	struct tr_otf2 *o = calloc(1, sizeof *o);
	OTF2_Reader *rd = NULL;
	OTF2_GlobalDefReader *gdr = NULL;
	OTF2_GlobalDefReaderCallbacks *cb = NULL;
	OTF2_ErrorCode ec = OTF2_SUCCESS;
	uint64_t n = 0;
	int rc = -1;
	FILE *fp;

	if (!tr_otf2_is_anchor(anchor)) {
		snprintf(err, errlen, "%s: error: an OTF2 anchor file, but the OTF2 library opens an "
		         "archive only by an anchor named NAME.otf2 (beside NAME.def and NAME/): "
		         "rename the three", anchor);
		free(o);
		return NULL;
	}
	if (!o || !(o->anchor = strdup(anchor))) {
		snprintf(err, errlen, "%s: error: out of memory", anchor);
		free(o);
		return NULL;
	}
	OTF2_Error_RegisterCallback(on_error, NULL);
	otf2_msg[0] = '\0';
	/* the library says little about a missing anchor */
	if (!(fp = fopen(anchor, "r"))) {
		snprintf(err, errlen, "%s: error: cannot open: %s", anchor, strerror(errno));
		goto done;
	}
	fclose(fp);
	if (anchor_check(anchor, err, errlen))
		goto done;
	if (!(rd = OTF2_Reader_Open(anchor))) {
		snprintf(err, errlen, "%s: error: not an OTF2 archive: %s", anchor,
		         tr_otf2_why(OTF2_ERROR_INVALID));
		goto done;
	}
	OTF2_Reader_SetSerialCollectiveCallbacks(rd);
	if (!(gdr = OTF2_Reader_GetGlobalDefReader(rd)) || !(cb = OTF2_GlobalDefReaderCallbacks_New())) {
		snprintf(err, errlen, "%s: error: cannot read the definitions: %s", anchor,
		         tr_otf2_why(OTF2_ERROR_INVALID));
		goto done;
	}
	OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, def_clock);
	OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, def_string);
	OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb, def_region);
	OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(cb, def_locgroup);
	OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, def_location);
	OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cb, def_group);
	OTF2_GlobalDefReaderCallbacks_SetCommCallback(cb, def_comm);
	ec = OTF2_Reader_RegisterGlobalDefCallbacks(rd, gdr, cb, o);
	if (ec == OTF2_SUCCESS)
		ec = OTF2_Reader_ReadAllGlobalDefinitions(rd, gdr, &n);
	if (o->oom) {
		snprintf(err, errlen, "%s: error: out of memory", anchor);
		goto done;
	}
	if (ec != OTF2_SUCCESS) {
		snprintf(err, errlen, "%s: error: cannot read the definitions: %s", anchor, tr_otf2_why(ec));
		goto done;
	}
	if (o->resolution == 0) {
		snprintf(err, errlen, "%s: error: the definitions have no clock (timer resolution)", anchor);
		goto done;
	}
	if (dense(&o->regions_ix, &o->region_at, &o->nregion_at) ||
	    dense(&o->comms_ix, &o->comm_at, &o->ncomm_at)) {
		snprintf(err, errlen, "%s: error: out of memory", anchor);
		goto done;
	}
	rc = find_ranks(o, err, errlen);
done:
	if (cb)
		OTF2_GlobalDefReaderCallbacks_Delete(cb);
	if (rd)
		OTF2_Reader_Close(rd);
	if (rc) {
		tr_otf2_close(o);
		return NULL;
	}
	return o;
}

size_t tr_otf2_ranks(const struct tr_otf2 *o)
{
	return o->nranks;
}

const char *tr_otf2_path(const struct tr_otf2 *o)
{
	return o->anchor;
}

#endif
