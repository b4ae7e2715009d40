#!/usr/bin/env bash
# The latency tolerance study of docs/sensitivity.md ("Study"):
#
#   scripts/sensitivity-study.sh [BUILD_DIR] [OUT_DIR]   (defaults: build, build/sens-study)
#
# 1. Collectives (schedgen, default LogGP parameters): binomial broadcast,
#    dissemination and recursive-doubling allreduce of 8 bytes at P = 2^10 ..
#    2^MAXLOG, linear scatter of 8 bytes at 2^6 .. 2^12 and ring allreduce of
#    1 MiB at 2^4 .. 2^10 (even powers): loggopsim --tolerance 1,2,5 --json,
#    one row per run in OUT_DIR/collectives.csv:
#      pattern,bytes,P,time_ns,dT_dL,dT_do,L1,L2,L5,G1,G2,G5,runs_L,runs_G,wall_s
#    (L1 = the largest L with T at most 1% more; "inf" where unbounded).
# 2. The traced programs of tests/trace2goal/apps (and Sweep3D from
#    ../shared/traces where present), converted with trace2goal: the same
#    row per program in OUT_DIR/programs.csv.
# 3. T(L) of every program by a plain sweep over L (0 to 3 times its 5%
#    tolerance, 61 values): OUT_DIR/curve-NAME.csv (the sweep's CSV).
# Then scripts/sensitivity-charts.py draws OUT_DIR/*.svg and prints the
# tables.  Environment: MAXLOG=K (default 20).
set -euo pipefail

B=$(cd "${1:-build}" && pwd)/bin
OUT=${2:-build/sens-study}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
ROOT=$(cd "$(dirname "$0")/.." && pwd)
MAXLOG=${MAXLOG:-20}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ROW NAME P SCHEDULE: one CSV row from loggopsim's JSON.
row() {
	local name=$1 p=$2 f=$3 t0 t1
	t0=$(date +%s.%N)
	"$B/loggopsim" -q --json --tolerance 1,2,5 "$f" >"$tmp/j"
	t1=$(date +%s.%N)
	python3 - "$name" "$p" "$tmp/j" "$(echo "$t1 - $t0" | bc)" <<'PY'
import json, sys
name, p, path, wall = sys.argv[1:]
j = json.load(open(path))
c = j["critical_path"]["ranges"][0]
def val(x, base):
    return "inf" if x.get("unbounded") else str(base + x["increase"])
Ls = [val(x, j["L"]) for x in j["tolerance"]["L"]]
Gs = [val(x, float(j["G"])) for x in j["tolerance"]["G"]]
print(",".join([name, p, str(j["time_ns"]), str(c["L"]), str(c["o"])] + Ls + Gs
               + [str(j["tolerance"]["runs"]["L"]), str(j["tolerance"]["runs"]["G"]),
                  "%.2f" % float(wall)]))
PY
}

head='pattern,bytes,P,time_ns,dT_dL,dT_do,L1,L2,L5,G1,G2,G5,runs_L,runs_G,wall_s'
echo "$head" >"$OUT/collectives.csv"
while read -r pat bytes lo hi; do
	for lg in $(seq "$lo" 2 "$hi"); do
		"$B/schedgen" "$pat" -s $((1 << lg)) -d "$bytes" -o "$tmp/s.bin"
		row "$pat,$bytes" $((1 << lg)) "$tmp/s.bin" >>"$OUT/collectives.csv"
		echo "sensitivity-study: $pat ${bytes}B P=2^$lg" >&2
	done
done <<EOF
bcast_binomial 8 10 $MAXLOG
allreduce_dissemination 8 10 $MAXLOG
allreduce_recdoub 8 10 $MAXLOG
scatter_linear 8 6 12
allreduce_ring 1048576 4 10
EOF
rm -f "$tmp/s.bin"

echo "$head" | sed 's/^pattern,bytes/program/' >"$OUT/programs.csv"
progs=(lammps:tests/trace2goal/apps/lammps netpipe:tests/trace2goal/apps/netpipe
       scalapack:tests/trace2goal/apps/scalapack mumps:tests/trace2goal/apps/mumps)
[ -d "$ROOT/../shared/traces/sweep3d-2x2" ] && progs+=(sweep3d:../shared/traces/sweep3d-2x2)
for pr in "${progs[@]}"; do
	name=${pr%%:*} dir=$ROOT/${pr#*:}
	"$B/trace2goal" -q -o "$tmp/$name.bin" "$dir/"
	p=$(ls "$dir" | wc -l)
	row "$name" "$p" "$tmp/$name.bin" >>"$OUT/programs.csv"
	# T(L) by a plain sweep: 61 values from 0 to 3 x the 5% tolerance.
	l5=$(grep "^$name," "$OUT/programs.csv" | cut -d, -f8)
	step=$(( (3 * l5 + 59) / 60 ))
	"$B/loggopsim" -q --sweep "L=0..$((60 * step)):$step" --no-wall --csv "$OUT/curve-$name.csv" \
		-j 2 "$tmp/$name.bin" >/dev/null
	echo "sensitivity-study: $name" >&2
done
python3 "$ROOT/scripts/sensitivity-charts.py" "$OUT"
