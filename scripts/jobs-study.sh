#!/usr/bin/env bash
# The study of docs/jobs.md ("Study"): how much an allreduce job slows
# down beside an all-to-all job on a fat tree, by placement, taper and the
# all-to-all's message size.
#
#   scripts/jobs-study.sh [BUILD_DIR] [OUT_DIR]   (defaults: build, build/jobs-study)
#
# Two jobs of P ranks each (P=128 unless given): allreduce_recdoub of
# 8 KiB and alltoall_linear of SIZE bytes (SIZES, default "1024 4096
# 16384"), merged by goalc with --place packed, roundrobin and random
# (seed 1), run with --jobs-alone on fattree:k=4,levels=4 (256 hosts; rank
# r on host r) with taper 1, 2 and 4 (4, 2 and 1 up-links a switch),
# default LogGP parameters.  One run at a time, under nice, at most
# TIMEOUT seconds (default 600).  A run whose piece exists is not run
# again: a stopped study resumes.
#
# Output: OUT_DIR/results.csv, one row per run:
#
#   size,place,taper,status,ar_ns,ar_alone_ns,ar_slowdown,a2a_ns,a2a_alone_ns,a2a_slowdown,wall_s
#
# then scripts/jobs-charts.py results.csv OUT_DIR draws the chart.
set -euo pipefail

B=$(cd "${1:-build}" && pwd)/bin
OUT=${2:-build/jobs-study}
mkdir -p "$OUT/sched" "$OUT/pieces"
OUT=$(cd "$OUT" && pwd)
P=${P:-128}
SIZES=${SIZES:-1024 4096 16384}
TIMEOUT=${TIMEOUT:-600}
TREE=${TREE:-fattree:k=4,levels=4}
start=$(date +%s)
say() { printf '[%4ds] %s\n' $(($(date +%s) - start)) "$*" >&2; }

"$B/schedgen" allreduce_recdoub -s "$P" -d 8Ki -o "$OUT/sched/ar.bin" >/dev/null
for size in $SIZES; do
	"$B/schedgen" alltoall_linear -s "$P" -d "$size" -o "$OUT/sched/a2a-$size.bin" >/dev/null
	for place in packed roundrobin random; do
		m=$OUT/sched/m-$size-$place.bin
		"$B/goalc" --merge ar="$OUT/sched/ar.bin" a2a="$OUT/sched/a2a-$size.bin" --place $place -o "$m"
		for taper in 1 2 4; do
			piece=$OUT/pieces/$size-$place-$taper
			[ -s "$piece" ] && continue
			say "a2a $size bytes, $place, taper $taper"
			t0=$(date +%s.%N)
			rc=0
			json=$(timeout "$TIMEOUT" nice "$B/loggopsim" -q --json --jobs-alone \
				--topology "$TREE,taper=$taper" "$m") || rc=$?
			t1=$(date +%s.%N)
			wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
			if [ $rc = 124 ]; then
				echo "$size,$place,$taper,timeout,,,,,,,$wall" >"$piece"
				continue
			elif [ $rc != 0 ]; then
				echo "jobs-study: loggopsim failed ($rc) on $m taper $taper" >&2
				exit 1
			fi
			echo "$json" | python3 -c '
import json, sys
j = {x["name"]: x for x in json.load(sys.stdin, parse_float=str)["jobs"]}
a, b = j["ar"], j["a2a"]
print("%s,%s,%s,ok,%d,%d,%s,%d,%d,%s,%s" % (sys.argv[1], sys.argv[2], sys.argv[3],
      a["time_ns"], a["alone_ns"], a["slowdown"], b["time_ns"], b["alone_ns"], b["slowdown"], sys.argv[4]))
' "$size" "$place" "$taper" "$wall" >"$piece"
		done
	done
done
{
	echo "size,place,taper,status,ar_ns,ar_alone_ns,ar_slowdown,a2a_ns,a2a_alone_ns,a2a_slowdown,wall_s"
	for size in $SIZES; do
		for place in packed roundrobin random; do
			for taper in 1 2 4; do cat "$OUT/pieces/$size-$place-$taper"; done
		done
	done
} >"$OUT/results.csv"
say "done: $OUT/results.csv"
