#!/usr/bin/env bash
# Differential test: loggopsim against refsim.py (a plain implementation of
# docs/semantics.md written from the page alone).  Every case of
# tests/sim/cases with its options (regression cases among them), every
# GOAL text of tests/goal/cases that compiles (every syntax form), and REFSIM_RUNS
# (default 2000) random schedules of randsched.py, enough to catch a defect
# that shows in 0.4% of them with 99.97% probability.  Per-rank finishing
# times, the event count and complete/incomplete must agree exactly.
# `make soak` runs the long version (tests/refsim/difftest.py).
set -u
B=$(cd "${1:-build}" && pwd)
cd "$(dirname "$0")" || exit 2
python3 difftest.py "$B" cases ../sim/cases
python3 difftest.py "$B" cases ../goal/cases
python3 difftest.py "$B" seeds 1 "${REFSIM_RUNS:-2000}" -j 2 --out "$B/refsim-mismatch"
exit 0
