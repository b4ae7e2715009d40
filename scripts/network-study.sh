#!/usr/bin/env bash
# The network study of docs/network.md ("Study"):
#
#   scripts/network-study.sh [BUILD_DIR] [OUT_DIR]   (defaults: build, build/network-study)
#
# Part 1, collectives.  For P = 1024, 4096, 16384, 65536 and two message
# sizes (8 bytes: latency-bound; 32 KiB: bandwidth-bound, still eager
# under the default S = 65535) it writes the schedgen schedules below and
# runs each once without a topology (plain LogGOPS) and on five networks
# of that size, one rank per host (rank r on host r), default LogGP
# parameters:
#
#   fattree    the smallest fat tree with k a power of two at most 32 and
#              the fewest levels: k=32,levels=2 (1024 hosts),
#              k=16,levels=3 (4096), k=32,levels=3 (32768, half used for
#              16384 ranks), k=16,levels=4 (65536)
#   taper2     the same tree with taper=2
#   taper4     the same tree with taper=4
#   torus2     3D torus, 2 hosts per router: 8x8x8 16x16x8 32x16x16 32x32x32
#   torus16    3D torus, 16 hosts per router: 4x4x4 8x8x4 16x8x8 16x16x16
#
# Collectives: allreduce_dissemination, allreduce_recdoub, bcast_binomial,
# reduce_binomial, scatter_linear, gather_linear at every P; allreduce_ring
# (P (P-1) * 2 messages of the given size: -d SIZE*P) at 1024 only;
# alltoall_linear (P (P-1) messages) at 1024 and 4096 with 8 bytes only
# (with 32 KiB the unexpected-message matching alone takes over a minute
# at 1024 ranks without a topology, and over 5 minutes on a tapered tree).
#
# Part 2, a traced application: Sweep3D on 4 ranks (the liballprof trace
# in ../shared/traces/sweep3d-2x2, relative to the repository; TRACES=DIR
# to give another place), converted with trace2goal and extrapolated 64
# times (256 ranks), run without a topology and with several topologies
# and mappings.  Skipped with a message when the trace is not there.
#
# Output: OUT_DIR/results.csv, one row per collective run,
#
#   collective,size,P,topology,spec,status,time_ns,base_ns,slowdown,wall_s,events,flows,peak_flows,largest_settle
#
# (topology "none" is the plain LogGOPS run; peak_flows: the most flows on
# one link at once; largest_settle: the most flows one start or end
# recomputed; status ok or timeout; spec in double quotes) and OUT_DIR/trace.csv, one row per
# run of the traced application,
#
#   app,P,topology,spec,mapping,status,time_ns,base_ns,slowdown,wall_s,events,flows,peak_flows,largest_settle
#
# Runs go one at a time (the study was made on a 2-core machine shared
# with other work), each under `nice` and at most TIMEOUT seconds
# (default 600; a run that times out is a row with status timeout).  A
# run whose piece exists is not run again: a stopped study resumes.
# Environment: TIMEOUT=S, MAXP=N (leave out P above N), SIZES="8 32768",
# KEEP_SCHED=1 (keep the schedules in OUT_DIR/sched).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=$(cd "${1:-build}" && pwd)/bin
OUT=${2:-build/network-study}
mkdir -p "$OUT/sched" "$OUT/pieces"
OUT=$(cd "$OUT" && pwd)
SIM=$B/loggopsim
GEN=$B/schedgen
T2G=$B/trace2goal
for t in "$SIM" "$GEN" "$T2G"; do
	if [ ! -x "$t" ]; then
		echo "network-study: no $(basename "$t") in $B" >&2
		exit 2
	fi
done
TIMEOUT=${TIMEOUT:-600}
MAXP=${MAXP:-65536}
SIZES=${SIZES:-8 32768}
# the traces: TRACES, else ../shared/traces beside the repository (or,
# from a git worktree, beside its main working tree)
if [ -z "${TRACES:-}" ]; then
	TRACES=$ROOT/../shared/traces
	common=$(git -C "$ROOT" rev-parse --path-format=absolute --git-common-dir 2>/dev/null || true)
	if [ ! -d "$TRACES" ] && [ -n "$common" ] && [ -d "$common/../../shared/traces" ]; then
		TRACES=$(cd "$common/../../shared/traces" && pwd)
	fi
fi

start=$(date +%s)
say() { printf '[%4ds] %s\n' $(($(date +%s) - start)) "$*" >&2; }

# The networks of P hosts or more: LABEL SPEC per line.
topologies() {
	case $1 in
	1024) f=k=32,levels=2 t2=8x8x8 t16=4x4x4 ;;
	4096) f=k=16,levels=3 t2=16x16x8 t16=8x8x4 ;;
	16384) f=k=32,levels=3 t2=32x16x16 t16=16x8x8 ;;
	65536) f=k=16,levels=4 t2=32x32x32 t16=16x16x16 ;;
	*) echo "network-study: no networks for P=$1" >&2; exit 2 ;;
	esac
	echo "none -"
	echo "fattree fattree:$f"
	echo "taper2 fattree:$f,taper=2"
	echo "taper4 fattree:$f,taper=4"
	echo "torus2 torus:$t2,p=2"
	echo "torus16 torus:$t16,p=16"
}

# One run: PIECE BIN SPEC [loggopsim options...]; writes PIECE, one line
#   status,time_ns,wall_s,events,flows,peak_flows,largest_settle
run() {
	local piece=$1 bin=$2 spec=$3
	shift 3
	[ -s "$piece" ] && return 0
	local args=(-q -b --json)
	[ "$spec" != - ] && args+=(--topology "$spec")
	local t0 t1 json rc=0
	t0=$(date +%s.%N)
	json=$(timeout "$TIMEOUT" nice "$SIM" "${args[@]}" "$@" "$bin") || rc=$?
	t1=$(date +%s.%N)
	local wall
	wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
	if [ $rc = 124 ]; then
		echo "timeout,,$wall,,,," >"$piece"
		return 0
	elif [ $rc != 0 ]; then
		echo "network-study: loggopsim failed ($rc) on $bin $spec $*" >&2
		exit 1
	fi
	# the run's figures from its JSON summary
	local f
	f=$(python3 -c '
import json, sys
j = json.load(sys.stdin)
n = j.get("network", {})
print("ok,%d,%s,%d,%s,%s,%s" % (j["time_ns"], sys.argv[1], j["events"],
      n.get("flows", ""), n.get("peak_flows", ""), n.get("largest_settle", "")))
' "$wall" <<<"$json")
	echo "$f" >"$piece"
}

# ---- Part 1: collectives ------------------------------------------------

jobs=$OUT/jobs.txt
: >"$jobs"
for p in 1024 4096 16384 65536; do
	[ "$p" -gt "$MAXP" ] && continue
	for s in $SIZES; do
		colls="allreduce_dissemination allreduce_recdoub bcast_binomial reduce_binomial scatter_linear gather_linear"
		[ "$p" = 1024 ] && colls="$colls allreduce_ring"
		[ "$p" -le 4096 ] && [ "$s" = 8 ] && colls="$colls alltoall_linear"
		for c in $colls; do
			while read -r label spec; do
				echo "$c $s $p $label $spec" >>"$jobs"
			done < <(topologies "$p")
		done
	done
done
say "$(wc -l <"$jobs") collective runs, one at a time"

prev=
while read -r c s p label spec; do
	piece=$OUT/pieces/$c-$s-$p-$label
	bin=$OUT/sched/$c-$s-$p.bin
	if [ "$bin" != "$prev" ]; then
		# the previous schedule is done with: free the disk
		[ -n "$prev" ] && [ "${KEEP_SCHED:-0}" != 1 ] && rm -f "$prev"
		prev=$bin
	fi
	[ -s "$piece" ] && continue
	if [ ! -s "$bin" ]; then
		d=$s
		[ "$c" = allreduce_ring ] && d=$((s * p))
		nice "$GEN" "$c" -s "$p" -d "$d" -o "$bin" >/dev/null
	fi
	run "$piece" "$bin" "$spec" </dev/null
	say "$c $s B P=$p $label: $(cut -d, -f1-3 "$piece")"
done <"$jobs"
[ -n "$prev" ] && [ "${KEEP_SCHED:-0}" != 1 ] && rm -f "$prev"

csv=$OUT/results.csv
{
	echo "collective,size,P,topology,spec,status,time_ns,base_ns,slowdown,wall_s,events,flows,peak_flows,largest_settle"
	while read -r c s p label spec; do
		base=$(cut -d, -f2 "$OUT/pieces/$c-$s-$p-none")
		IFS=, read -r st t w ev fl pk ls <"$OUT/pieces/$c-$s-$p-$label"
		sd=
		[ "$st" = ok ] && sd=$(awk -v a="$t" -v b="$base" 'BEGIN { printf "%.6f", a / b }')
		echo "$c,$s,$p,$label,\"$spec\",$st,$t,$base,$sd,$w,$ev,$fl,$pk,$ls"
	done <"$jobs"
} >"$csv.tmp"
mv "$csv.tmp" "$csv"
say "wrote $csv ($(($(wc -l <"$csv") - 1)) runs)"

# ---- Part 2: a traced application ---------------------------------------

trace=$TRACES/sweep3d-2x2
if [ ! -d "$trace" ]; then
	say "no $trace: the traced application is skipped"
	exit 0
fi
X=64
app=sweep3d
bin=$OUT/sched/$app-x$X.bin
nice "$T2G" -q -x $X "$trace" -o "$bin"
P=$((4 * X))
# all 256 ranks on host 0
onehost=$OUT/sched/onehost.map
for ((i = 0; i < P; i++)); do echo 0; done >"$onehost"
# LABEL SPEC MAPPING
tjobs=$OUT/trace-jobs.txt
cat >"$tjobs" <<EOF
none - -
fattree-256 fattree:k=4,levels=4 -
fattree fattree:k=4,levels=3 onehost
fattree fattree:k=4,levels=3 linear
fattree fattree:k=4,levels=3 roundrobin
fattree fattree:k=4,levels=3 random
taper4 fattree:k=4,levels=3,taper=4 linear
taper4 fattree:k=4,levels=3,taper=4 roundrobin
taper4 fattree:k=4,levels=3,taper=4 random
torus torus:4x4x4 linear
torus torus:4x4x4 roundrobin
torus torus:4x4x4 random
EOF
while read -r label spec map; do
	piece=$OUT/pieces/trace-$app-$label-$map
	margs=()
	case $map in
	-) ;;
	onehost) margs=(--mapping "$onehost") ;;
	*) margs=(--mapping "$map") ;;
	esac
	run "$piece" "$bin" "$spec" "${margs[@]}" </dev/null
	say "$app P=$P $label $map: $(cut -d, -f1-3 "$piece")"
done <"$tjobs"
tcsv=$OUT/trace.csv
{
	echo "app,P,topology,spec,mapping,status,time_ns,base_ns,slowdown,wall_s,events,flows,peak_flows,largest_settle"
	base=$(cut -d, -f2 "$OUT/pieces/trace-$app-none--")
	while read -r label spec map; do
		IFS=, read -r st t w ev fl pk ls <"$OUT/pieces/trace-$app-$label-$map"
		sd=
		[ "$st" = ok ] && sd=$(awk -v a="$t" -v b="$base" 'BEGIN { printf "%.6f", a / b }')
		[ "$map" = - ] && map=host=rank
		echo "$app-x$X,$P,$label,\"$spec\",$map,$st,$t,$base,$sd,$w,$ev,$fl,$pk,$ls"
	done <"$tjobs"
} >"$tcsv.tmp"
mv "$tcsv.tmp" "$tcsv"
[ "${KEEP_SCHED:-0}" = 1 ] || rm -f "$bin"
say "wrote $tcsv ($(($(wc -l <"$tcsv") - 1)) runs)"
