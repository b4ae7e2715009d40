#!/usr/bin/env bash
# make example: a real example end to end with the built tools: compile a
# GOAL schedule, generate collectives with schedgen, simulate them with
# loggopsim (one on a million ranks) and draw a timeline with goalviz.
# Pictures and schedules are left in $EXAMPLE_DIR (default build/example).
set -eu
B=$(cd "${1:-build}" && pwd)
cd "$(dirname "$0")/.."
W=${EXAMPLE_DIR:-$B/example}
mkdir -p "$W"

step() { printf '\n== %s\n' "$*"; }

step "compile a GOAL schedule and summarise it"
"$B/bin/goalc" tests/goal/cases/example.goal -o "$W/example.bin"
"$B/bin/goalc" --stats "$W/example.bin"

step "simulate it (default parameters L=2500 o=1500 g=1000 G=6 O=0 S=65535)"
"$B/bin/loggopsim" -q "$W/example.bin"

step "binomial broadcast of 1 KiB on 8 ranks: simulate, draw the timeline"
"$B/bin/schedgen" bcast_binomial -s 8 -d 1024 -o "$W/bcast8.goal"
"$B/bin/loggopsim" -q -V "$W/bcast8.tl" "$W/bcast8.goal"
"$B/bin/goalviz" "$W/bcast8.tl" -o "$W/bcast8.svg"
echo "timeline picture: $W/bcast8.svg"

step "binomial broadcast of 8 bytes on 1,048,576 ranks"
"$B/bin/schedgen" bcast_binomial -s 1048576 -d 8 -o "$W/bcast1m.bin"
"$B/bin/goalc" --stats "$W/bcast1m.bin" | head -2
"$B/bin/loggopsim" "$W/bcast1m.bin" | tee "$W/bcast1m.out"
rm -f "$W/bcast1m.bin"
# Closed form (docs/semantics.md section 7): log2(P) = 20 rounds of
# 2o + L + max(sO, sG) = 3000 + 2500 + 7 * 6 ns.
want=$((20 * (3000 + 2500 + 42)))
got=$(sed -n 's/^Maximum finishing time at host [0-9]*: \([0-9]*\) .*/\1/p' "$W/bcast1m.out")
if [ "$got" != "$want" ]; then
	echo "error: simulated ${got:-nothing}, closed form 20 * (2o + L + 7G) = $want ns" >&2
	exit 1
fi
echo "closed form: 20 * (2o + L + 7G) = $want ns, as simulated"
echo "the pictures and schedules are in $W"
