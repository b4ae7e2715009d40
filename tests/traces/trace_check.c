/* trace_check.c: checks a set of per-rank traces of one run (used by
 * tests/traces/run.sh): every file parses, the listed calls occur, point-to-
 * point sends and receives pair up across ranks, every started request is
 * completed, and the members of each communicator call the same collectives.
 * Usage: trace_check [-k MPI_Name,...] FILE...   (FILE i holds rank i)
 * Prints "ok - ..." / "not ok - ..." lines; exits 1 on a failure. */
#include "trace_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

static void report(int ok, const char *what, const char *arg)
{
	printf("%s - traces: %s%s\n", ok ? "ok" : "not ok", what, arg);
	if (!ok)
		failures++;
}

/* A message end: world ranks, communicator identity, tag, bytes. */
struct msg {
	int src, dst, comm, tag;
	long long bytes;
};

static int msg_cmp(const void *a, const void *b)
{
	const struct msg *x = a, *y = b;
	if (x->src != y->src) return x->src < y->src ? -1 : 1;
	if (x->dst != y->dst) return x->dst < y->dst ? -1 : 1;
	if (x->comm != y->comm) return x->comm < y->comm ? -1 : 1;
	if (x->tag != y->tag) return x->tag < y->tag ? -1 : 1;
	if (x->bytes != y->bytes) return x->bytes < y->bytes ? -1 : 1;
	return 0;
}

/* Communicator identities: the member list (world ranks) as a string. */
static char *ids[1024];
static int nids;

static int comm_identity(const char *members)
{
	for (int i = 0; i < nids; i++)
		if (strcmp(ids[i], members) == 0)
			return i;
	if (nids == 1024)
		return -1;
	ids[nids] = strdup(members);
	return nids++;
}

/* Per rank: handle -> members of the latest definition. */
struct cdef {
	uint64_t handle;
	int id;
	const int64_t *world;
	int n;
};

static const struct cdef *find_comm(const struct cdef *d, int nd, uint64_t h)
{
	for (int i = nd - 1; i >= 0; i--)
		if (d[i].handle == h)
			return &d[i];
	return NULL;
}

#define DONE UINT64_MAX

/* Marks the oldest started request with handle h completed. */
static void complete(uint64_t *reqs, size_t n, size_t *oldest, size_t *nopen, uint64_t h)
{
	for (size_t j = *oldest; j < n; j++)
		if (reqs[j] == h) {
			reqs[j] = DONE;
			(*nopen)--;
			break;
		}
	while (*oldest < n && reqs[*oldest] == DONE)
		(*oldest)++;
}

static int is_coll(int k)
{
	int b = tr_blocking((enum tr_kind)k);
	return b >= TR_BARRIER && b <= TR_EXSCAN;
}

int main(int argc, char **argv)
{
	const char *want = NULL;
	int a = 1;
	if (a + 1 < argc && strcmp(argv[a], "-k") == 0) {
		want = argv[a + 1];
		a += 2;
	}
	int nranks = argc - a;
	if (nranks < 1) {
		fprintf(stderr, "usage: trace_check [-k MPI_Name,...] FILE...\n");
		return 2;
	}
	struct tr_trace *t = calloc((size_t)nranks, sizeof *t);
	char err[512];
	int nbad = 0;
	for (int r = 0; r < nranks; r++) {
		if (tr_read_file(argv[a + r], NULL, &t[r], err, sizeof err)) {
			report(0, "parse ", argv[a + r]);
			printf("    %s\n", err);
			nbad++;
		} else if (t[r].rank != r || t[r].size != nranks) {
			report(0, "rank and size in ", argv[a + r]);
			nbad++;
		}
	}
	if (nbad)
		return 1;
	report(1, "every trace file ", "parses");

	/* calls that must occur in some rank */
	if (want) {
		char *list = strdup(want), *save = NULL;
		int missing = 0;
		for (char *name = strtok_r(list, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
			int found = 0;
			for (int r = 0; r < nranks && !found; r++)
				for (size_t i = 0; i < t[r].ncalls && !found; i++)
					found = strcmp(tr_call_name(&t[r], &t[r].calls[i]), name) == 0;
			if (!found) {
				report(0, "not recorded: ", name);
				missing++;
			}
		}
		free(list);
		if (!missing)
			report(1, "every listed call ", "recorded");
	}

	/* sends and receives, requests, collectives */
	size_t cap = 1024, ns = 0, nr = 0;
	struct msg *sends = malloc(cap * sizeof *sends), *recvs = malloc(cap * sizeof *recvs);
	char **seq = calloc((size_t)nranks * 1024, sizeof *seq); /* collective kinds per (rank, comm) */
	int req_bad = 0, comm_bad = 0;
	for (int r = 0; r < nranks; r++) {
		struct cdef defs[256];
		int nd = 0;
		/* started requests, oldest first; completed ones become DONE */
		uint64_t *open_reqs = NULL;
		size_t nstarted = 0, cap_reqs = 0, oldest = 0, nopen = 0;
		for (size_t i = 0; i < t[r].ncalls; i++) {
			const struct tr_call *c = &t[r].calls[i];
			if (c->kind == TR_COMMDEF && nd < 256) {
				char members[4096] = "";
				for (uint32_t k = 0; k < c->len[0] && strlen(members) < 4000; k++)
					snprintf(members + strlen(members), sizeof members - strlen(members),
					         "%lld,", (long long)tr_list(&t[r], c, 0)[k]);
				defs[nd++] = (struct cdef){ c->newcomm, comm_identity(members),
				                            tr_list(&t[r], c, 0), (int)c->len[0] };
				continue;
			}
			const struct cdef *d = c->comm ? find_comm(defs, nd, c->comm) : NULL;
			if (c->comm && (!d || d->n != c->comm_size)) {
				comm_bad++;
				continue;
			}
			int send = c->kind == TR_SEND || c->kind == TR_SSEND || c->kind == TR_RSEND ||
			           c->kind == TR_BSEND || (c->kind >= TR_ISEND && c->kind <= TR_IRSEND) ||
			           c->kind == TR_SENDRECV || c->kind == TR_SENDRECV_REPLACE;
			int recv = c->kind == TR_RECV || c->kind == TR_IRECV ||
			           c->kind == TR_SENDRECV || c->kind == TR_SENDRECV_REPLACE;
			if (ns + 2 > cap || nr + 2 > cap) {
				cap *= 2;
				sends = realloc(sends, cap * sizeof *sends);
				recvs = realloc(recvs, cap * sizeof *recvs);
			}
			if (send && c->peer >= 0 && c->peer < d->n)
				sends[ns++] = (struct msg){ r, (int)d->world[c->peer], d->id, c->tag, c->bytes };
			if (recv) {
				int twoside = c->kind == TR_SENDRECV || c->kind == TR_SENDRECV_REPLACE;
				int src = twoside ? c->rpeer : c->peer;
				int tag = twoside ? c->rtag : c->tag;
				long long bytes = twoside ? c->rbytes : c->bytes;
				if (c->flags & TR_F_STATUS) {
					src = c->st_source;
					tag = c->st_tag;
					bytes = c->st_bytes;
				}
				if (src >= 0 && src < d->n && tag >= 0)
					recvs[nr++] = (struct msg){ (int)d->world[src], r, d->id, tag, bytes };
			}
			if (tr_starts_request((enum tr_kind)c->kind)) {
				if (nstarted == cap_reqs) {
					cap_reqs = cap_reqs ? 2 * cap_reqs : 1024;
					open_reqs = realloc(open_reqs, cap_reqs * sizeof *open_reqs);
				}
				open_reqs[nstarted++] = c->req;
				nopen++;
			}
			/* completion: remove completed handles (oldest first) */
			int completes_all = c->kind == TR_WAITALL || (c->kind == TR_TESTALL && c->flag);
			for (uint32_t k = 0; k < c->len[0]; k++) {
				uint64_t h = (uint64_t)tr_list(&t[r], c, 0)[k];
				int done = completes_all ||
				           ((c->kind == TR_WAITANY || c->kind == TR_TESTANY) && (int)k == c->index);
				if (c->kind == TR_WAITSOME || c->kind == TR_TESTSOME)
					for (uint32_t j = 0; j < c->len[1]; j++)
						done |= tr_list(&t[r], c, 1)[j] == (int64_t)k;
				if (done && h)
					complete(open_reqs, nstarted, &oldest, &nopen, h);
			}
			if ((c->kind == TR_WAIT || (c->kind == TR_TEST && c->flag)) && c->req)
				complete(open_reqs, nstarted, &oldest, &nopen, c->req);
			if (is_coll(c->kind) && d->id >= 0 && d->id < 1024) {
				char **s = &seq[(size_t)r * 1024 + (size_t)d->id];
				size_t old = *s ? strlen(*s) : 0;
				const char *name = tr_kind_name((enum tr_kind)c->kind);
				*s = realloc(*s, old + strlen(name) + 2);
				snprintf(*s + old, strlen(name) + 2, "%s ", name);
			}
		}
		req_bad += (int)nopen;
		free(open_reqs);
	}
	report(comm_bad == 0, "every communicator ", "defined before use");
	report(req_bad == 0, "every started request ", "completed");
	qsort(sends, ns, sizeof *sends, msg_cmp);
	qsort(recvs, nr, sizeof *recvs, msg_cmp);
	int paired = ns == nr && ns > 0;
	for (size_t i = 0; paired && i < ns; i++)
		paired = msg_cmp(&sends[i], &recvs[i]) == 0;
	report(paired, "sends and receives ", "pair up");
	if (!paired)
		printf("    %zu sends, %zu receives\n", ns, nr);
	int coll_ok = 1;
	for (int id = 0; id < nids && coll_ok; id++) {
		const char *first = NULL;
		for (const char *p = ids[id]; *p; ) {
			int r = atoi(p);
			const char *s = r < nranks ? seq[(size_t)r * 1024 + (size_t)id] : NULL;
			if (!first)
				first = s ? s : "";
			else if (strcmp(first, s ? s : "") != 0)
				coll_ok = 0;
			p = strchr(p, ',') + 1;
		}
	}
	report(coll_ok, "members of each communicator ", "call the same collectives");
	for (int i = 0; i < nranks * 1024; i++)
		free(seq[i]);
	free(seq);
	for (int i = 0; i < nids; i++)
		free(ids[i]);
	for (int r = 0; r < nranks; r++)
		tr_free(&t[r]);
	free(t);
	free(sends);
	free(recvs);
	return failures ? 1 : 0;
}
