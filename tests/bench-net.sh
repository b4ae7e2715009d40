#!/usr/bin/env bash
# loggopsim on networks (make bench runs it; docs/network.md, Speed): the
# cost of flows sharing links as P grows.  Series of schedgen schedules,
# rank r on host r, default parameters (G=6: links of 1/6 bytes/ns):
#   alltoall_linear of 32 KiB, P = 128 .. 4096, and of 8 bytes at 4096;
#   allreduce_dissemination of 1 KiB and of 32 KiB, P = 128 .. 65536;
# each without a topology and on a fat tree with taper 1, 2 and 4
# (fattree:k=16,levels=3 up to 4096 ranks, k=28,levels=3 at 16384,
# k=16,levels=4 at 65536) and on a torus of 2 hosts per router.  One run
# each, at most $BENCH_NET_TIMEOUT s (default 60); a series stops at its
# first run over that.  Prints per run: simulated time, events, wall time
# (the whole command), ns per event (the simulation alone, to 1 ms),
# flows, most flows on one link and most flows one recomputation solved.
# Usage: tests/bench-net.sh BUILD_DIR [SERIES...]  (alltoall, alltoall8,
# diss1k, diss32k; default all four).  Scratch in $BENCH_DIR.
set -eu
B=$(cd "${1:-build}" && pwd)
shift || true
W=${BENCH_DIR:-/tmp/loggops-bench}/net
TO=${BENCH_NET_TIMEOUT:-60}
mkdir -p "$W"
trap 'rm -rf "$W"' EXIT

tree() { # P TAPER
	case $1 in
	16384) echo "fattree:k=28,levels=3,taper=$2" ;;
	65536) echo "fattree:k=16,levels=4,taper=$2" ;;
	*) echo "fattree:k=16,levels=3,taper=$2" ;;
	esac
}
torus() { # P: 2 hosts per router, P/2 routers
	case $1 in
	128) echo torus:4x4x4,p=2 ;;
	256) echo torus:8x4x4,p=2 ;;
	512) echo torus:8x8x4,p=2 ;;
	1024) echo torus:8x8x8,p=2 ;;
	4096) echo torus:16x16x8,p=2 ;;
	16384) echo torus:32x16x16,p=2 ;;
	65536) echo torus:32x32x32,p=2 ;;
	esac
}

# net LABEL P SCHEDULE [OPTION...]: one run; 1 when it took over $TO s
net() {
	local label=$1 p=$2 f=$3 rc=0 wall events sim t flows most solved
	shift 3
	/usr/bin/time -f '%e' -o "$W/time" timeout "$TO" "$B/bin/loggopsim" -b "$@" "$f" >"$W/out" 2>"$W/err" || rc=$?
	if [ "$rc" = 124 ]; then
		printf '%-34s %6s %12s %10s %8s\n' "$label" "$p" "" "" "> $TO"
		return 1
	elif [ "$rc" != 0 ]; then
		printf '%-34s %6s failed: %s\n' "$label" "$p" "$(tail -1 "$W/err")"
		return 1
	fi
	wall=$(tail -1 "$W/time")
	read -r events sim < <(sed -n 's/^loggopsim: \([0-9]*\) events in \([0-9.]*\) s .*/\1 \2/p' "$W/err")
	t=$(sed -n 's/^Maximum finishing time at host [0-9]*: \([0-9]*\) .*/\1/p' "$W/out")
	read -r flows most solved < <(sed -n 's/^Network .*: \([0-9]*\) flows, at most \([0-9]*\) on one link, at most \([0-9]*\) recomputed at once$/\1 \2 \3/p' "$W/out")
	printf '%-34s %6s %12s %10s %8.2f %7.0f %9s %6s %7s\n' "$label" "$p" "$t" "$events" "$wall" \
		"$(echo "$sim * 1000000000 / $events" | bc -l)" "${flows:--}" "${most:--}" "${solved:--}"
}

# series NAME SCHEDGEN_ARGS P...: the schedule at each P on each network
series() {
	local name=$1 args=$2 p net
	shift 2
	local -A stop=()
	for p in "$@"; do
		# shellcheck disable=SC2086
		"$B/bin/schedgen" $args -s "$p" -o "$W/s.bin"
		net "$name" "$p" "$W/s.bin" || true
		for net in "taper=1" "taper=2" "taper=4" torus; do
			[ -z "${stop[$net]:-}" ] || continue
			local topo
			if [ "$net" = torus ]; then topo=$(torus "$p"); else topo=$(tree "$p" "${net#taper=}"); fi
			net "  $topo" "$p" "$W/s.bin" --topology "$topo" || stop[$net]=1
		done
		rm -f "$W/s.bin"
	done
}

echo "== loggopsim on networks (at most $TO s a run; a series stops at its first run over that)"
printf '%-34s %6s %12s %10s %8s %7s %9s %6s %7s\n' "schedule, network" P "T (ns)" events "wall s" ns/ev flows "most/l" solved
for pat in "${@:-alltoall alltoall8 diss1k diss32k}"; do
	for x in $pat; do
		case $x in
		alltoall) series "alltoall_linear 32 KiB" "alltoall_linear -d 32768" 128 256 512 1024 4096 ;;
		alltoall8) series "alltoall_linear 8 B" "alltoall_linear -d 8" 4096 ;;
		diss1k) series "allreduce_dissemination 1 KiB" "allreduce_dissemination -d 1024" \
			128 1024 4096 16384 65536 ;;
		diss32k) series "allreduce_dissemination 32 KiB" "allreduce_dissemination -d 32768" \
			128 1024 4096 16384 65536 ;;
		*) echo "bench-net.sh: unknown series '$x' (alltoall, alltoall8, diss1k, diss32k)" >&2; exit 2 ;;
		esac
	done
done
