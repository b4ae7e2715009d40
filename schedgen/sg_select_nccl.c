/* sg_select_nccl.c: the algorithm, protocol and channels NCCL's tuning
 * model picks for a collective (sg_select.h, docs/patterns.md "NCCL's
 * choice"): its latency and bandwidth of each algorithm and protocol from
 * src/graph/tuning.cc (ncclTopoTuneModel, ncclTopoGetAlgoTime), the
 * smallest time wins, then enqueue.cc's channel and thread tuning.  Ring
 * and tree only: CollNet and NVLS need switches that reduce. */
#include "sg_select.h"
#include "sg_pattern.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TREE, RING, NALGS };
enum { LL, LL128, SIMPLE, NPROTOS };   /* NCCL's order, not sg_protocol's */
enum { HW_NVLINK, HW_PCI, HW_NET };
enum { C_BCAST, C_REDUCE, C_ALLGATHER, C_REDUCE_SCATTER, C_ALLREDUCE, NCOLLS };

static const char *const alg_name[NALGS] = { "tree", "ring" };
static const char *const proto_name[NPROTOS] = { "LL", "LL128", "Simple" };
static const sg_protocol proto_sg[NPROTOS] = { SG_PROTO_LL, SG_PROTO_LL128, SG_PROTO_SIMPLE };

/* The collectives: schedgen's class, the ring's pattern, the tree's (NULL:
 * none), and whether NCCL's bytes are P blocks of the call's. */
static const struct { const char *cls, *ring, *tree; int all_p; } colls[NCOLLS] = {
	{ "bcast", "bcast_ring_nccl", NULL, 0 },
	{ "reduce", "reduce_ring_nccl", NULL, 0 },
	{ "allgather", "allgather_ring_nccl", NULL, 1 },
	{ "reduce_scatter", "reduce_scatter_ring_nccl", NULL, 1 },
	{ "allreduce", "allreduce_ring_nccl", "allreduce_tree_nccl", 0 },
};

/* tuning.cc's tables: latencies in us, bandwidths in GB/s. */
static const double base_lat[NALGS][NPROTOS] = { { 6.8, 14.0, 0 }, { 6.6, 14.0, 8.4 } };
static const double hw_lat[3][NALGS][NPROTOS] = {
	{ { .6, 1.25, 28 }, { .6, 1.9, 3.4 } },      /* NVLink */
	{ { 1.0, 1.9, 28 }, { 1.0, 2.5, 5.7 } },     /* PCI */
	{ { 5.0, 8.5, 28 }, { 2.7, 4.0, 14.0 } },    /* network */
};
/* By GPU (Volta, Ampere, Hopper) or, with several nodes, CPU (Intel,
 * AMD), then 1, 2 or more nodes. */
static const double ll_max_bw[3][3] = { { 39.0, 39.0, 20.4 }, { 87.7, 22.5, 19.0 }, { 87.7, 22.5, 19.0 } };
static const double ring_ll128_bw[3][3] = { { 20, 20, 20 }, { 20, 20, 20 }, { 36.7, 36.7, 36.7 } };
static const double tree_ll128_bw[3][3] = { { 20, 20, 20 }, { 20, 20, 20 }, { 36.7, 36.7, 29.0 } };
static const double tree_bw[3][3] = { { 26.5, 18.5, 10.0 }, { 24.0, 23.6, 17.8 }, { 38.7, 41.4, 36.0 } };
/* The tree's bandwidth at 64 B x 2^k, k < 23 (ncclTopoGetAlgoTime). */
static const double tree_corr[NPROTOS][23] = {
	{ 1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0, 1.0 },
	{ 1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9, 1.0, 1.0 },
	{ .9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9 },
};
/* enqueue.cc and device.h: threads a channel and bytes a thread before a
 * channel is dropped; PCI's bandwidth. */
static const unsigned max_threads[NPROTOS] = { 512, 640, 512 };
static const uint64_t thread_threshold[NPROTOS] = { 8, 8, 64 };
#define PCI_BW 12.0

static unsigned log2i(uint64_t n)
{
	unsigned l = 0;
	while (n >>= 1)
		l++;
	return l;
}

void sg_nccl_system_default(sg_nccl_system *s)
{
	*s = (sg_nccl_system){ .channels = 8, .bw_intra = 40, .bw_inter = 24, .sm = 80,
	                       .nvlink = 1, .ll128 = 1, .same = 1 };
}

int sg_nccl_system_parse(const char *spec, sg_nccl_system *s, char *err, size_t errlen)
{
	char buf[256];
	if (strlen(spec) >= sizeof buf) {
		snprintf(err, errlen, "--nccl-system: too long");
		return -1;
	}
	strcpy(buf, spec);
	for (char *save = NULL, *kv = strtok_r(buf, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(kv, '='), *end;
		if (!eq)
			goto bad;
		*eq++ = 0;
		double v = strtod(eq, &end);
		if (!strcmp(kv, "cpu") || !strcmp(kv, "link")) {
			int amd = !strcmp(eq, "amd"), pci = !strcmp(eq, "pci");
			if (!strcmp(kv, "cpu") && (amd || !strcmp(eq, "intel")))
				s->amd = amd;
			else if (!strcmp(kv, "link") && (pci || !strcmp(eq, "nvlink")))
				s->nvlink = !pci;
			else
				goto bad;
			continue;
		}
		if (end == eq || *end || v < 0)
			goto bad;
		if (!strcmp(kv, "channels") && v >= 1 && v <= SG_MAX_CHANNELS && v == (unsigned)v)
			s->channels = (unsigned)v;
		else if (!strcmp(kv, "bwintra") && v > 0)
			s->bw_intra = v;
		else if (!strcmp(kv, "bwinter") && v > 0)
			s->bw_inter = v;
		else if (!strcmp(kv, "latinter"))
			s->lat_inter = v;
		else if (!strcmp(kv, "sm") && (v == 70 || v == 80 || v == 90))
			s->sm = (unsigned)v;
		else if ((!strcmp(kv, "ll128") || !strcmp(kv, "same")) && (v == 0 || v == 1))
			*(!strcmp(kv, "ll128") ? &s->ll128 : &s->same) = (int)v;
		else
			goto bad;
	}
	return 0;
bad:
	snprintf(err, errlen, "--nccl-system: bad '%s' in '%s' (keys: channels=1..%d, bwintra=GB/s, "
	         "bwinter=GB/s, latinter=us, sm=70|80|90, cpu=intel|amd, link=nvlink|pci, ll128=0|1, "
	         "same=0|1)", buf, spec, SG_MAX_CHANNELS);
	return -1;
}

/* The model of tuning.cc for collective c on P ranks of n nodes: the
 * latency (us) and bandwidth (GB/s) of each algorithm and protocol
 * (bandwidth 0: not run). */
static void tune(const sg_nccl_system *s, int c, uint64_t P, uint64_t n, double lat[NALGS][NPROTOS],
                 double bw[NALGS][NPROTOS])
{
	int cc = s->sm >= 90 ? 2 : s->sm >= 80 ? 1 : 0, i2 = n <= 2 ? (int)n - 1 : 2;
	int i1 = n == 1 ? cc : s->amd;
	double ppn = (double)P / (double)n, C = s->channels;
	int intra_hw = s->nvlink ? HW_NVLINK : HW_PCI, hw = n == 1 ? intra_hw : HW_NET;
	double nsteps = c == C_ALLREDUCE ? 2.0 * (double)(P - 1)
	                : c == C_ALLGATHER || c == C_REDUCE_SCATTER ? (double)(P - 1) : (double)P;
	double inter_steps = c == C_ALLREDUCE ? (n > 1 ? 2.0 * (double)n : 0)
	                     : c == C_ALLGATHER || c == C_REDUCE_SCATTER ? (double)(n - 1) : (double)n;
	for (int a = 0; a < NALGS; a++)
		for (int p = 0; p < NPROTOS; p++) {
			bw[a][p] = 0;
			if (a == TREE && c != C_ALLREDUCE)
				continue;
			double b = C * (n <= 2 ? s->bw_intra : s->bw_inter);
			if (a == RING && p == LL) {
				b *= n > 1 || c == C_ALLREDUCE || c == C_REDUCE ? 1.0 / 4.0 : 1.0 / 3.0;
				b = b < ll_max_bw[i1][i2] ? b : ll_max_bw[i1][i2];
			}
			if (a == RING && p == LL128) {
				b *= ppn < 2 ? 0.7 : 0.92;
				b = b < C * ring_ll128_bw[cc][i2] ? b : C * ring_ll128_bw[cc][i2];
			}
			if (a == TREE) {
				b *= .92;
				b = b < C * tree_bw[cc][i2] ? b : C * tree_bw[cc][i2];
				if (p == LL) {
					b /= 3.8;
					b = b < ll_max_bw[i1][i2] ? b : ll_max_bw[i1][i2];
				}
				if (p == LL128) {
					b *= n == 1 ? 7.0 / 9.0 : 120.0 / 128.0;
					b = b < C * tree_ll128_bw[cc][i2] ? b : C * tree_ll128_bw[cc][i2];
				}
			}
			b *= a == RING ? (double)P / nsteps : .5;
			/* LL128 only on NVLink, with the NIC near the GPU */
			bw[a][p] = p == LL128 && !(s->ll128 && s->nvlink) ? 0 : b;
			double l = base_lat[a][p], intra = hw_lat[intra_hw][a][p];
			double inter = hw_lat[HW_NET][a][p] + s->lat_inter + (p == SIMPLE ? s->lat_inter : 0);
			if (a == RING && (c == C_REDUCE || c == C_BCAST)) {
				l += s->same ? hw_lat[hw][a][p] : nsteps * hw_lat[hw][p == SIMPLE ? TREE : RING][p];
			} else if (a == RING) {
				double net = n > 1 ? (s->amd ? 2.0 : 1.0) * (p == SIMPLE ? 3 : 1) : 0;
				intra = intra > net ? intra : net;
				l += (nsteps - inter_steps) * intra + inter_steps * inter;
			} else {
				l += 2 * ((double)(P / n - 1) * intra + log2i(n) * inter);
			}
			lat[a][p] = l;
		}
}

int sg_select_nccl(const sg_nccl_system *s, const char *cls, uint64_t P, uint64_t K, uint64_t size,
                   unsigned flags, sg_choice *out, char *err, size_t errlen)
{
	int c = 0;
	while (c < NCOLLS && strcmp(colls[c].cls, cls))
		c++;
	memset(out, 0, sizeof *out);
	if (c == NCOLLS) {
		snprintf(err, errlen, "nccl has no '%s' (it has bcast, reduce, allgather, reduce_scatter, "
		         "allreduce)", cls);
		return -1;
	}
	uint64_t n = P ? (P + (K ? K : 1) - 1) / (K ? K : 1) : 1;
	uint64_t bytes = colls[c].all_p && P && size <= UINT64_MAX / P ? size * P : size;
	double lat[NALGS][NPROTOS], bw[NALGS][NPROTOS], t[NALGS][NPROTOS], best = -1;
	int ba = RING, bp = SIMPLE;
	tune(s, c, P ? P : 1, n ? n : 1, lat, bw);
	unsigned ls = log2i(bytes >> 6);
	for (int a = 0; a < NALGS; a++)
		for (int p = 0; p < NPROTOS; p++) {
			t[a][p] = -1;
			if (bw[a][p] == 0)
				continue;
			double b = bw[a][p], l = lat[a][p];
			if (a == TREE && ls < 23)
				b *= tree_corr[p][ls];
			if (a == RING && p == SIMPLE && n > 1 && c == C_ALLREDUCE && bytes / (s->channels * P) >= 64)
				l *= s->sm < 80 ? 1.9 : 1.4;   /* the ring's plateau */
			t[a][p] = l + (double)bytes / (1000 * b);
			if (best < 0 || t[a][p] < best) {
				best = t[a][p];
				ba = a;
				bp = p;
			}
		}
	/* Fewer channels (then threads) while each would have too little. */
	uint64_t nc = s->channels, nt = max_threads[bp];
	if (ba == RING && bp == SIMPLE && s->bw_intra * s->channels <= PCI_BW)
		nt = 256;
	uint64_t thr = thread_threshold[bp] * (ba == RING && bp == LL ? P : 1);
	while (bytes < nc * nt * thr) {
		if (nc >= 2)
			nc--;
		else if (nt % 128 == 0)
			nt /= 2;
		else
			break;
	}
	out->pattern = ba == TREE ? colls[c].tree : colls[c].ring;
	out->name = alg_name[ba];
	out->protocol = (int)proto_sg[bp];
	out->channels = nc;
	if (flags & SG_SELECT_EXPLAIN) {
		size_t m = 0;
		m += (size_t)snprintf(out->why, sizeof out->why, "NCCL's model (tuning.cc) on %" PRIu64
		                      " node%s: %s/%s takes %.1f us the least of", n, n > 1 ? "s" : "",
		                      alg_name[ba], proto_name[bp], best);
		for (int a = 0; a < NALGS; a++)
			for (int p = 0; p < NPROTOS && m < sizeof out->why; p++)
				if (t[a][p] >= 0)
					m += (size_t)snprintf(out->why + m, sizeof out->why - m, " %s/%s %.1f",
					                      alg_name[a], proto_name[p], t[a][p]);
		if (m < sizeof out->why)
			snprintf(out->why + m, sizeof out->why - m, "; %" PRIu64 " of %u channels"
			         " (enqueue.cc: at least %" PRIu64 " bytes a thread)", nc, s->channels, thr);
	}
	return 0;
}
