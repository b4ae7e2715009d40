/* simgen.c: binomial broadcast, dissemination, linear scatter and incast
 * schedules written with the goal_writer API (see simgen.h). */
#include "simgen.h"

#include "goal.h"

#include <stdio.h>
#include <string.h>

static goal_op mk(goal_kind k, uint64_t size, uint32_t peer, int32_t tag)
{
	goal_op op;
	memset(&op, 0, sizeof op);
	op.kind = (uint8_t)k;
	op.size = size;
	op.peer = peer;
	op.tag = tag;
	return op;
}

/* Finish w and translate failures into err. */
static int finish(goal_writer *w, int rc, char *err, size_t n)
{
	if (rc) {
		snprintf(err, n, "%s", goal_writer_error(w));
		goal_writer_abort(w);
		return -1;
	}
	if (goal_writer_finish(w)) {
		snprintf(err, n, "%s", goal_writer_error(w));
		goal_writer_abort(w);
		return -1;
	}
	return goal_writer_close(w);
}

int simgen_binomial(const char *path, uint64_t P, uint64_t size, char *err, size_t n)
{
	goal_writer *w = goal_writer_create(path, P, err, n);
	int rc = 0, top = 0;
	if (!w)
		return -1;
	while ((1ull << top) < P)
		top++;
	for (uint64_t r = 0; r < P && !rc; r++) {
		rc = goal_writer_rank_begin(w);
		int h = top;
		uint32_t recv = 0;
		if (r) {
			h = __builtin_ctzll(r);
			goal_op op = mk(GOAL_RECV, size, (uint32_t)(r - (1ull << h)), 0);
			rc = rc ? rc : goal_writer_op(w, &op, NULL, 0, &recv);
		}
		for (int k = h - 1; k >= 0 && !rc; k--) {
			uint64_t c = r + (1ull << k);
			uint32_t idx;
			if (c >= P)
				continue;
			goal_op op = mk(GOAL_SEND, size, (uint32_t)c, 0);
			rc = goal_writer_op(w, &op, NULL, 0, &idx);
			if (!rc && r)
				rc = goal_writer_dep(w, idx, recv, 0);
		}
		rc = rc ? rc : goal_writer_rank_end(w);
	}
	return finish(w, rc, err, n);
}

int simgen_dissemination(const char *path, uint64_t P, uint64_t size, char *err, size_t n)
{
	goal_writer *w = goal_writer_create(path, P, err, n);
	int rc = 0, rounds = 0;
	if (!w)
		return -1;
	while ((1ull << rounds) < P)
		rounds++;
	for (uint64_t r = 0; r < P && !rc; r++) {
		uint32_t prev_recv = 0;
		rc = goal_writer_rank_begin(w);
		for (int k = 0; k < rounds && !rc; k++) {
			uint64_t d = 1ull << k;
			uint32_t s = 0, v = 0;
			goal_op so = mk(GOAL_SEND, size, (uint32_t)((r + d) % P), k);
			goal_op ro = mk(GOAL_RECV, size, (uint32_t)((r + P - d % P) % P), k);
			rc = goal_writer_op(w, &so, NULL, 0, &s);
			rc = rc ? rc : goal_writer_op(w, &ro, NULL, 0, &v);
			if (!rc && k)
				rc = goal_writer_dep(w, s, prev_recv, 0);
			rc = rc ? rc : goal_writer_dep(w, v, s, 0);
			prev_recv = v;
		}
		rc = rc ? rc : goal_writer_rank_end(w);
	}
	return finish(w, rc, err, n);
}

int simgen_scatter(const char *path, uint64_t P, uint64_t size, char *err, size_t n)
{
	goal_writer *w = goal_writer_create(path, P, err, n);
	int rc = 0;
	if (!w)
		return -1;
	for (uint64_t r = 0; r < P && !rc; r++) {
		rc = goal_writer_rank_begin(w);
		if (r == 0) {
			for (uint64_t q = 1; q < P && !rc; q++) {
				goal_op op = mk(GOAL_SEND, size, (uint32_t)q, 0);
				rc = goal_writer_op(w, &op, NULL, 0, NULL);
			}
		} else {
			goal_op op = mk(GOAL_RECV, size, 0, 0);
			rc = goal_writer_op(w, &op, NULL, 0, NULL);
		}
		rc = rc ? rc : goal_writer_rank_end(w);
	}
	return finish(w, rc, err, n);
}

int simgen_incast(const char *path, uint64_t P, uint64_t k, uint64_t k0, uint64_t d,
                  uint64_t size, char *err, size_t n)
{
	goal_writer *w = goal_writer_create(path, P, err, n);
	int rc = 0;
	if (!w)
		return -1;
	for (uint64_t r = 0; r < P && !rc; r++) {
		rc = goal_writer_rank_begin(w);
		if (r == 0) {
			goal_op c = mk(GOAL_CALC, d, 0, 0);
			rc = goal_writer_op(w, &c, NULL, 0, NULL);
			for (uint64_t i = 0; i < k0 && !rc; i++) {
				goal_op z = mk(GOAL_CALC, 0, 0, 0);
				rc = goal_writer_op(w, &z, NULL, 0, NULL);
			}
			for (uint64_t i = 0; i < (P - 1) * k && !rc; i++) {
				goal_op op = mk(GOAL_RECV, size, GOAL_ANY_SOURCE, 0);
				rc = goal_writer_op(w, &op, NULL, 0, NULL);
			}
		} else {
			for (uint64_t i = 0; i < k && !rc; i++) {
				goal_op op = mk(GOAL_SEND, size, 0, 0);
				rc = goal_writer_op(w, &op, NULL, 0, NULL);
			}
			for (uint64_t i = 0; i < k && !rc; i++) {
				goal_op z = mk(GOAL_CALC, 0, 0, 0);
				rc = goal_writer_op(w, &z, NULL, 0, NULL);
			}
		}
		rc = rc ? rc : goal_writer_rank_end(w);
	}
	return finish(w, rc, err, n);
}
