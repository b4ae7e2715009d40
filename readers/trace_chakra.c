/* trace_chakra.c: Chakra execution traces (trace_chakra.h), read through
 * protobuf-c from the schema's part in chakra_et.proto. */
#include "trace_chakra.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *const ck_type_name[CK_NTYPES] = {
#define CK_X_NAME(id, name) name,
	CK_TYPES(CK_X_NAME)
#undef CK_X_NAME
};
const char *const ck_coll_name[CK_NCOLLS] = {
#define CK_X_NAME(id, name, cls) name,
	CK_COLLS(CK_X_NAME)
#undef CK_X_NAME
};
const char *const ck_coll_class[CK_NCOLLS] = {
#define CK_X_CLASS(id, name, cls) cls,
	CK_COLLS(CK_X_CLASS)
#undef CK_X_CLASS
};

/* The longest duration taken as real: 10^12 us, about 11.6 days. */
#define CK_MAX_US 1000000000000ull

static int ck_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int ck_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* ---- The files of a run ------------------------------------------------- */

/* The rank of file name b (NAME.RANK.et) and the length of its NAME, or
 * -1 when b is not so named. */
static long et_rank(const char *b, size_t *namelen)
{
	size_t n = strlen(b);
	if (n < 6 || strcmp(b + n - 3, ".et") != 0)
		return -1;
	size_t e = n - 3, s = e;
	while (s > 0 && b[s - 1] >= '0' && b[s - 1] <= '9')
		s--;
	if (s == e || s < 2 || b[s - 1] != '.' || e - s > 9)
		return -1;
	*namelen = s - 1;
	return strtol(b + s, NULL, 10);
}

int ck_is_trace(const char *path)
{
	struct stat st;
	size_t nl;
	if (stat(path, &st) != 0)
		return 0;
	if (!S_ISDIR(st.st_mode)) {
		const char *b = strrchr(path, '/');
		return et_rank(b ? b + 1 : path, &nl) >= 0;
	}
	DIR *d = opendir(path);
	int found = 0;
	for (struct dirent *e; d && !found && (e = readdir(d));)
		found = et_rank(e->d_name, &nl) >= 0;
	if (d)
		closedir(d);
	return found;
}

void ck_files_free(char **paths, size_t n)
{
	for (size_t i = 0; paths && i < n; i++)
		free(paths[i]);
	free(paths);
}

/* The NAME.RANK.et of folder dir: its NAME into name (cap bytes). */
static int folder_name(const char *dir, char *name, size_t cap, char *err, size_t errlen)
{
	DIR *d = opendir(dir);
	size_t nl;
	int rc = -1;
	*name = '\0';
	if (!d)
		return ck_err(err, errlen, "%s: error: cannot open: %s", dir, strerror(errno));
	for (struct dirent *e; (e = readdir(d));) {
		if (et_rank(e->d_name, &nl) < 0)
			continue;
		if (!*name && nl < cap) {
			memcpy(name, e->d_name, nl);
			name[nl] = '\0';
		} else if (strlen(name) != nl || memcmp(name, e->d_name, nl) != 0) {
			ck_err(err, errlen, "%s: error: traces of two runs: %s.*.et and %.*s.*.et", dir,
			       name, (int)nl, e->d_name);
			goto out;
		}
	}
	rc = *name ? 0 : ck_err(err, errlen, "%s: error: no NAME.RANK.et files", dir);
out:
	closedir(d);
	return rc;
}

int ck_files(const char *path, char ***paths, size_t *n, char *err, size_t errlen)
{
	struct stat st;
	char dir[4096], name[1024];
	size_t nl;
	*paths = NULL;
	*n = 0;
	if (stat(path, &st) != 0)
		return ck_err(err, errlen, "%s: error: cannot open: %s", path, strerror(errno));
	if (S_ISDIR(st.st_mode)) {
		snprintf(dir, sizeof dir, "%s", path);
		if (folder_name(dir, name, sizeof name, err, errlen))
			return -1;
	} else {
		const char *b = strrchr(path, '/');
		snprintf(dir, sizeof dir, "%.*s", b ? (int)(b - path) : 1, b ? path : ".");
		b = b ? b + 1 : path;
		if (et_rank(b, &nl) < 0 || nl >= sizeof name)
			return ck_err(err, errlen, "%s: error: not named NAME.RANK.et", path);
		memcpy(name, b, nl);
		name[nl] = '\0';
	}
	size_t cap = 0;
	for (size_t r = 0;; r++) {
		char p[8192];
		snprintf(p, sizeof p, "%s/%s.%zu.et", dir, name, r);
		if (stat(p, &st) != 0)
			break;
		if (util_grow(paths, &cap, r + 1, sizeof **paths) || !((*paths)[r] = strdup(p))) {
			ck_files_free(*paths, r);
			*paths = NULL;
			return ck_err(err, errlen, "error: out of memory");
		}
		*n = r + 1;
	}
	if (!*n)
		return ck_err(err, errlen, "%s/%s.0.et: error: cannot open: no rank 0", dir, name);
	/* a rank past a missing one */
	DIR *d = opendir(dir);
	long last = -1;
	for (struct dirent *e; d && (e = readdir(d));) {
		long r = et_rank(e->d_name, &nl);
		if (r > last && nl == strlen(name) && memcmp(e->d_name, name, nl) == 0)
			last = r;
	}
	if (d)
		closedir(d);
	if (last >= (long)*n) {
		ck_files_free(*paths, *n);
		*paths = NULL;
		return ck_err(err, errlen, "%s/%s.%ld.et: error: rank %ld, but no rank %zu (%s.%zu.et)",
		              dir, name, last, last, *n, name, *n);
	}
	return 0;
}

#ifdef HAVE_CHAKRA
#include "chakra_et.pb-c.h"

int ck_supported(void)
{
	return 1;
}

/* ---- Reading ------------------------------------------------------------- */

/* The varint at p[*i ..) of the n bytes into *v: 0, or -1 when it is cut
 * off or longer than 10 bytes. */
static int varint(const unsigned char *p, size_t n, size_t *i, uint64_t *v)
{
	*v = 0;
	for (unsigned s = 0; s < 70; s += 7) {
		if (*i >= n)
			return -1;
		unsigned char b = p[(*i)++];
		*v |= (uint64_t)(b & 0x7f) << s;
		if (!(b & 0x80))
			return 0;
	}
	return -1;
}

/* The integer value of a (bool as 0 or 1) into *v: 0, or -1 when it has
 * none. */
static int attr_int(const Chakra__Attr *a, int64_t *v)
{
	switch (a->value_case) {
	case CHAKRA__ATTR__VALUE_INT32_VAL: *v = a->int32_val; return 0;
	case CHAKRA__ATTR__VALUE_INT64_VAL: *v = a->int64_val; return 0;
	case CHAKRA__ATTR__VALUE_UINT32_VAL: *v = a->uint32_val; return 0;
	case CHAKRA__ATTR__VALUE_UINT64_VAL: *v = (int64_t)a->uint64_val; return 0;
	case CHAKRA__ATTR__VALUE_SINT32_VAL: *v = a->sint32_val; return 0;
	case CHAKRA__ATTR__VALUE_SINT64_VAL: *v = a->sint64_val; return 0;
	case CHAKRA__ATTR__VALUE_FIXED32_VAL: *v = a->fixed32_val; return 0;
	case CHAKRA__ATTR__VALUE_FIXED64_VAL: *v = (int64_t)a->fixed64_val; return 0;
	case CHAKRA__ATTR__VALUE_SFIXED32_VAL: *v = a->sfixed32_val; return 0;
	case CHAKRA__ATTR__VALUE_SFIXED64_VAL: *v = a->sfixed64_val; return 0;
	case CHAKRA__ATTR__VALUE_BOOL_VAL: *v = a->bool_val; return 0;
	default: return -1;
	}
}

/* Count attribute name (of node id) as unused. */
static int unused(ck_trace *t, const char *name, uint64_t id)
{
	for (size_t i = 0; i < t->nunused; i++)
		if (strcmp(t->unused[i].name, name) == 0) {
			t->unused[i].n++;
			return 0;
		}
	if (util_grow(&t->unused, &t->capunused, t->nunused + 1, sizeof *t->unused))
		return -1;
	if (!(t->unused[t->nunused].name = strdup(name)))
		return -1;
	t->unused[t->nunused].first = id;
	t->unused[t->nunused++].n = 1;
	return 0;
}

/* The integer attributes: name, bit, and where the value goes. */
typedef struct int_attr {
	const char *name;
	uint16_t bit;
	int sign;                /* 1: may be negative (a rank: -1) */
} int_attr;
static const int_attr int_attrs[] = {
	{ "comm_type", CK_A_TYPE, 0 }, { "comm_size", CK_A_SIZE, 0 },
	{ "comm_src", CK_A_SRC, 1 }, { "comm_dst", CK_A_DST, 1 },
	{ "comm_tag", CK_A_TAG, 0 }, { "num_ops", CK_A_OPS, 0 },
	{ "tensor_size", CK_A_TENSOR, 0 }, { "root", CK_A_ROOT, 0 },
};

/* Store integer attribute k's value v in x.  0, or -1 (message in err). */
static int put_int(ck_node *x, size_t k, int64_t v, const char *path, char *err, size_t errlen)
{
	const int_attr *a = &int_attrs[k];
	if ((!a->sign && v < 0) || (a->bit & (CK_A_SRC | CK_A_DST | CK_A_ROOT) && v > INT32_MAX)
	    || (a->bit == CK_A_TAG && v > INT32_MAX))
		return ck_err(err, errlen, "%s: error: node %" PRIu64 ": %s %" PRId64 " is out of range",
		              path, x->id, a->name, v);
	x->has |= a->bit;
	switch (a->bit) {
	case CK_A_TYPE:
		x->comm_type = v;
		x->coll = v < CK_NCOLLS ? (uint8_t)v : CK_NCOLLS;
		break;
	case CK_A_SIZE: x->size = (uint64_t)v; break;
	case CK_A_SRC: x->src = (int32_t)v; break;
	case CK_A_DST: x->dst = (int32_t)v; break;
	case CK_A_TAG: x->tag = (int32_t)v; break;
	case CK_A_OPS: x->num_ops = (uint64_t)v; break;
	case CK_A_TENSOR: x->tensor = (uint64_t)v; break;
	default: x->root = (int32_t)v; break;
	}
	return 0;
}

/* Append s to t's strings: its offset into *off.  0, or -1 (out of memory,
 * or more than 4 GiB of them). */
static int add_str(ck_trace *t, const char *s, uint32_t *off)
{
	size_t len = strlen(s) + 1;
	if (t->nstr + len > UINT32_MAX || util_grow(&t->str, &t->capstr, t->nstr + len, 1))
		return -1;
	memcpy(t->str + t->nstr, s, len);
	*off = (uint32_t)t->nstr;
	t->nstr += len;
	return 0;
}

/* The attributes of node m into x. */
static int node_attrs(ck_trace *t, const Chakra__Node *m, ck_node *x, const char *path,
                      char *err, size_t errlen)
{
	for (size_t i = 0; i < m->n_attr; i++) {
		const Chakra__Attr *a = m->attr[i];
		int64_t v;
		size_t k = 0;
		while (k < sizeof int_attrs / sizeof int_attrs[0] && strcmp(a->name, int_attrs[k].name))
			k++;
		if (k < sizeof int_attrs / sizeof int_attrs[0] && attr_int(a, &v) == 0) {
			if (put_int(x, k, v, path, err, errlen))
				return -1;
		} else if (strcmp(a->name, "pg_name") == 0
		           && a->value_case == CHAKRA__ATTR__VALUE_STRING_VAL) {
			if (add_str(t, a->string_val, &x->pg))
				return ck_err(err, errlen, "error: out of memory");
			x->has |= CK_A_PG;
		} else if (strcmp(a->name, "is_cpu_op") != 0 && unused(t, a->name, x->id)) {
			return ck_err(err, errlen, "error: out of memory");
		}
	}
	return 0;
}

/* Node message m into the next node of t. */
static int add_node(ck_trace *t, const Chakra__Node *m, const char *path, char *err,
                    size_t errlen)
{
	size_t nd = m->n_ctrl_deps + m->n_data_deps;
	if (util_grow(&t->node, &t->cap, t->n + 1, sizeof *t->node)
	    || util_grow(&t->dep, &t->capdep, t->ndep + nd, sizeof *t->dep))
		return ck_err(err, errlen, "error: out of memory");
	if (t->ndep + nd > UINT32_MAX || t->n >= UINT32_MAX)
		return ck_err(err, errlen, "%s: error: node %" PRIu64 ": more than 2^32 nodes or"
		              " dependencies", path, m->id);
	ck_node *x = &t->node[t->n];
	memset(x, 0, sizeof *x);
	x->id = m->id;
	x->type = m->type >= 0 && m->type < CK_NTYPES ? (uint8_t)m->type : CK_NTYPES;
	x->coll = CK_NCOLLS;
	x->dep = (uint32_t)t->ndep;
	x->ndeps = (uint32_t)nd;
	for (size_t k = 0; k < m->n_ctrl_deps; k++)
		t->dep[t->ndep + k] = m->ctrl_deps[k];
	for (size_t k = 0; k < m->n_data_deps; k++)
		t->dep[t->ndep + m->n_ctrl_deps + k] = m->data_deps[k];
	if (m->duration_micros > CK_MAX_US) {
		if ((int64_t)m->duration_micros < 0)
			return ck_err(err, errlen, "%s: error: node %" PRIu64 ": a negative duration (%"
			              PRId64 " us)", path, m->id, (int64_t)m->duration_micros);
		return ck_err(err, errlen, "%s: error: node %" PRIu64 ": a duration of %" PRIu64
		              " us is more than 10^12 us", path, m->id, m->duration_micros);
	}
	x->dur_us = m->duration_micros;
	if (m->name && *m->name) {
		if (add_str(t, m->name, &x->name))
			return ck_err(err, errlen, "error: out of memory");
		x->has |= CK_A_NAME;
	}
	if (node_attrs(t, m, x, path, err, errlen))
		return -1;
	t->ndep += nd;
	t->types[x->type]++;
	t->n++;
	return 0;
}

/* The framing of buf[0..n): every message's length is whole and within
 * the file.  *count: the messages.  0, or -1 (message in err). */
static int frames(const unsigned char *buf, size_t n, const char *path, size_t *count,
                  char *err, size_t errlen)
{
	size_t k = 0;
	for (size_t i = 0; i < n; k++) {
		size_t at = i;
		uint64_t len;
		if (varint(buf, n, &i, &len))
			return ck_err(err, errlen, "%s: error: byte %zu: the length of message %zu is cut"
			              " off", path, at, k);
		if (len > n - i)
			return ck_err(err, errlen, "%s: error: byte %zu: message %zu of %" PRIu64 " bytes"
			              " runs past the end of the file (%zu bytes)", path, at, k, len, n);
		i += (size_t)len;
	}
	*count = k;
	return 0;
}

/* The messages of buf[0..n): the GlobalMetadata, then nodes (the node
 * array sized once, from the framing). */
static int read_messages(ck_trace *t, const unsigned char *buf, size_t n, const char *path,
                         char *err, size_t errlen)
{
	size_t count = 0;
	if (frames(buf, n, path, &count, err, errlen))
		return -1;
	if (count > 1 && util_grow(&t->node, &t->cap, count - 1, sizeof *t->node))
		return ck_err(err, errlen, "error: out of memory");
	for (size_t i = 0, k = 0; i < n; k++) {
		size_t at = i;
		uint64_t len;
		varint(buf, n, &i, &len);
		if (k == 0) {
			Chakra__GlobalMetadata *g = chakra__global_metadata__unpack(NULL, len, buf + i);
			if (!g)
				return ck_err(err, errlen, "%s: error: byte %zu: not a Chakra GlobalMetadata",
				              path, at);
			snprintf(t->version, sizeof t->version, "%s", g->version);
			chakra__global_metadata__free_unpacked(g, NULL);
		} else {
			Chakra__Node *m = chakra__node__unpack(NULL, len, buf + i);
			if (!m)
				return ck_err(err, errlen, "%s: error: byte %zu: message %zu is not a Chakra"
				              " node", path, at, k);
			int rc = add_node(t, m, path, err, errlen);
			chakra__node__free_unpacked(m, NULL);
			if (rc)
				return -1;
		}
		i += (size_t)len;
	}
	return 0;
}

int ck_read(const char *path, ck_trace *t, char *err, size_t errlen)
{
	char *buf;
	size_t n;
	memset(t, 0, sizeof *t);
	if (util_read_file(path, SIZE_MAX / 2, &buf, &n, err, errlen))
		return -1;
	int rc = n == 0 ? ck_err(err, errlen, "%s: error: empty (no GlobalMetadata)", path)
	                : read_messages(t, (const unsigned char *)buf, n, path, err, errlen);
	free(buf);
	if (rc)
		ck_free(t);
	return rc;
}

#else

int ck_supported(void)
{
	return 0;
}

int ck_read(const char *path, ck_trace *t, char *err, size_t errlen)
{
	memset(t, 0, sizeof *t);
	return ck_err(err, errlen, "%s: error: this build reads no Chakra traces: it has no"
	              " protobuf-c (scripts/install-deps.sh installs it)", path);
}

#endif

void ck_free(ck_trace *t)
{
	for (size_t i = 0; i < t->nunused; i++)
		free(t->unused[i].name);
	free(t->unused);
	free(t->node);
	free(t->dep);
	free(t->str);
	memset(t, 0, sizeof *t);
}
