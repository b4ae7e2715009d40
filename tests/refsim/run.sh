#!/usr/bin/env bash
# Differential test: loggopsim against refsim.py (a plain implementation of
# docs/semantics.md written from the page alone).  Every case of
# tests/sim/cases with its options (regression cases among them), every
# GOAL text of tests/goal/cases that compiles (every syntax form), and REFSIM_RUNS
# (default 2000) random schedules of randsched.py, enough to catch a defect
# that shows in 0.4% of them with 99.97% probability, and half as many with
# small queues indexed.  Per-rank finishing
# times, the event count and complete/incomplete must agree exactly.
# `make soak` runs the long version (tests/refsim/difftest.py).
set -u
B=$(cd "${1:-build}" && pwd)
cd "$(dirname "$0")" || exit 2
# A run that stops early (an option refsim.py does not take) says so.
diff_run() {
	python3 difftest.py "$B" "$@"
	local rc=$?
	[ $rc -le 1 ] || echo "not ok - refsim difftest.py $* stopped (exit status $rc)"
}
diff_run cases ../sim/cases
diff_run cases ../goal/cases
diff_run seeds 1 "${REFSIM_RUNS:-2000}" -j 2 --out "$B/refsim-mismatch"
# Again with every receive and unexpected queue indexed by source after a
# search of two entries (docs/sim.md, Matching), not 65.
LOGGOPSIM_INDEX_AFTER=1 diff_run seeds 100001 $((${REFSIM_RUNS:-2000} / 2)) -j 2 \
	--out "$B/refsim-mismatch"
exit 0
