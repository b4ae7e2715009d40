#!/usr/bin/env bash
# The cost per event of loggopsim against the number of events (docs/sim.md,
# "Cost per event"):
#
#   scripts/sim-cost.sh [BUILD_DIR] [OUT_DIR]   (defaults: build, build/sim-cost)
#
# Runs schedgen's binomial broadcast (1 byte) at P = 2^15 .. 2^23,
# dissemination allreduce (1 byte) at P = 2^11, 2^13, .. 2^23 and 2^24 (up to
# 2^MAXLOG) and linear
# alltoall (8 bytes) at P = 2^7 .. 2^13, each once with the default
# parameters, and writes OUT_DIR/cost.csv:
#   pattern,P,events,sim_s,ns_per_event,pushes_per_event,wall_s,rss_mib
# (sim_s and ns_per_event: the simulation alone, as loggopsim reports it);
# then scripts/sim-cost-chart.py draws OUT_DIR/sim-cost.svg.  Schedules
# are written to OUT_DIR and removed after their run; their ranks share
# blocks (docs/binary-format.md, version 3), so the largest, the
# dissemination at 2^24 ranks (1.2 * 10^9 events), is 403 MB and its run
# peaks at about 2.2 GiB.
# Environment: MAXLOG=K (default 24).
set -euo pipefail
B=$(cd "${1:-build}" && pwd)/bin
OUT=${2:-build/sim-cost}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
ROOT=$(cd "$(dirname "$0")/.." && pwd)
MAXLOG=${MAXLOG:-24}
csv=$OUT/cost.csv
echo "pattern,P,events,sim_s,ns_per_event,pushes_per_event,wall_s,rss_mib" >"$csv"

one() { # PATTERN BYTES P
	local f=$OUT/s.bin
	"$B/schedgen" "$1" -s "$3" -d "$2" -o "$f"
	LOGGOPSIM_PUSHES=1 /usr/bin/time -f '%e %M' -o "$OUT/time" "$B/loggopsim" -b "$f" \
		>/dev/null 2>"$OUT/err"
	rm -f "$f"
	local wall kb ev s pu
	read -r wall kb <"$OUT/time"
	ev=$(sed -n 's/^loggopsim: \([0-9]*\) events in \([0-9.]*\) s.*/\1/p' "$OUT/err")
	s=$(sed -n 's/^loggopsim: \([0-9]*\) events in \([0-9.]*\) s.*/\2/p' "$OUT/err")
	pu=$(sed -n 's/^loggopsim: [0-9]* queue pushes (\([0-9.]*\) per event)$/\1/p' "$OUT/err")
	printf '%s,%s,%s,%s,%.1f,%s,%s,%.0f\n' "$1" "$3" "$ev" "$s" \
		"$(echo "$s * 1000000000 / $ev" | bc -l)" "$pu" "$wall" "$(echo "$kb / 1024" | bc -l)" \
		| tee -a "$csv"
}

for lg in $(seq 15 2 23); do one bcast_binomial 1 $((1 << lg)); done
for lg in $(seq 11 2 "$MAXLOG") $([ "$MAXLOG" -ge 24 ] && echo 24); do
	one allreduce_dissemination 1 $((1 << lg))
done
for lg in 7 9 11 13; do one alltoall_linear 8 $((1 << lg)); done
rm -f "$OUT/time" "$OUT/err"
python3 "$ROOT/scripts/sim-cost-chart.py" "$csv" "$OUT/sim-cost.svg"
echo "wrote $csv and $OUT/sim-cost.svg"
