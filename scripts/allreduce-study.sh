#!/usr/bin/env bash
# The allreduce study of docs/patterns.md: every allreduce algorithm of Open
# MPI 4.1 (schedgen allreduce --select openmpi:N, N = 1..6) and the one its
# fixed rules pick (--select openmpi), simulated by loggopsim with the
# default LogGOPS parameters, at P = 2^4, 2^8, 2^12, 2^16, 2^18 and 2^20
# ranks and 8 B .. 64 MiB.
#
#   scripts/allreduce-study.sh [BUILD_DIR] [OUT_DIR]  (defaults: build, build/allreduce)
#
# The rings (algorithms 4 and 5) send 2(P-1) messages a rank: they are
# simulated up to RING_MAX ranks (default 1024) and left out above (but
# where they fall back, below P bytes).
# Writes OUT/points.csv: P,bytes,forced,alg,pattern,time_ns (forced 0: the
# pick, algorithm alg), then scripts/allreduce-charts.py draws
# OUT/allreduce-pick.svg and prints the table of docs/patterns.md.
# Environment: RANKS (default "16 256 4096 65536 262144 1048576"), SIZES
# (default "8 1024 65536 1048576 67108864"), RING_MAX; LIB=mpich studies
# MPICH 4.0.2's two allreduce algorithms and its pick instead (numbered 1
# recursive_doubling, 2 reduce_scatter_allgather), into
# OUT/allreduce-pick-mpich.svg.
set -euo pipefail
B=$(cd "${1:-build}" && pwd)
OUT=${2:-build/allreduce}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
ROOT=$(cd "$(dirname "$0")/.." && pwd)
RANKS=${RANKS:-16 256 4096 65536 262144 1048576}
SIZES=${SIZES:-8 1024 65536 1048576 67108864}
RING_MAX=${RING_MAX:-1024}
LIB=${LIB:-openmpi}
ALGS="1 2 3 4 5 6"
[ "$LIB" = mpich ] && ALGS="recursive_doubling reduce_scatter_allgather"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "P,bytes,forced,alg,pattern,time_ns" >"$OUT/points.csv"
for P in $RANKS; do
	for s in $SIZES; do
		for n in 0 $ALGS; do
			sel=$LIB
			[ "$n" != 0 ] && sel=$LIB:$n
			# the forced rings, unless they fall back (and the pick is never a
			# ring at these P)
			[ "$LIB" = openmpi ] && [ "$n" -ge 4 ] && [ "$n" -le 5 ] && [ "$P" -gt "$RING_MAX" ] &&
				[ "$s" -ge "$P" ] && continue
			"$B/bin/schedgen" allreduce --select "$sel" -s "$P" -d "$s" --explain -o "$tmp/a.bin" >"$tmp/why"
			pat=$(sed -n "1s/.*: \([a-z_]*\), $LIB .*/\1/p" "$tmp/why")
			alg=$(sed -n '1s/.*openmpi algorithm \([0-9]*\).*/\1/p' "$tmp/why")
			case $pat in allreduce_recdoub_ompi) [ "$LIB" = mpich ] && alg=1 ;;
			allreduce_rabenseifner_mpich) alg=2 ;; esac
			t=$("$B/bin/loggopsim" -b -q "$tmp/a.bin" |
				sed -n 's/^Maximum finishing time at host [0-9]*: \([0-9]*\) .*/\1/p')
			echo "$P,$s,$([ "$n" = 0 ] && echo 0 || echo 1),$alg,$pat,$t" | tee -a "$OUT/points.csv"
		done
	done
done
python3 "$ROOT/scripts/allreduce-charts.py" "$OUT/points.csv" "$OUT" "$LIB"
