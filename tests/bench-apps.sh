#!/usr/bin/env bash
# Real programs predicted, in pairs (make bench; docs/trace2goal.md,
# "Paired runs"): for each program, PAIRS times (default 5) in a row,
# loggp-measure takes this machine's parameters, then the program runs on
# 2 ranks with the tracer; its traces are converted (trace2goal --account)
# and simulated with that pair's parameters (loggopsim -p).  A pair's
# ratio is the simulated time over the traced one (the longest MPI_Init-
# end to MPI_Finalize-start of a rank); the tracer's share is its own time
# over the traced time of all ranks (the account's "share" line).  Prints
# per program the median ratio, its spread (smallest and largest) and the
# median tracer share.  Programs that are not installed are left out.
# Usage: tests/bench-apps.sh [BUILD_DIR [PAIRS]]; BENCH_APPS=0 skips it.
set -u
B=$(cd "${1:-build}" && pwd) || exit 2
PAIRS=${2:-5}
cd "$(dirname "$0")/.." || exit 2
echo "== real programs, paired with their parameters (2 ranks, $PAIRS pairs)"
if [ "${BENCH_APPS:-1}" = 0 ] || ! command -v mpirun >/dev/null 2>&1 ||
	[ ! -e "$B/lib/libgoaltrace.so" ] || [ ! -x "$B/bin/loggp-measure" ]; then
	echo "skipped (BENCH_APPS=0, or no mpirun, tracer or loggp-measure in $B)"
	exit 0
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
unset ASAN_OPTIONS UBSAN_OPTIONS
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
MPIRUN="timeout 600 mpirun -np 2"
A=$PWD/tests/trace2goal/apps
XDQR=/usr/lib/x86_64-linux-gnu/scalapack/openmpi-tests/xdqr

# The programs: NAME|INPUT FILE (copied as NAME2) or -|COMMAND (run in the
# working folder; @A is tests/trace2goal/apps).
programs() {
	command -v NPopenmpi >/dev/null && echo "NetPIPE|-|NPopenmpi -u 65536 -n 200 -o np.out"
	command -v NPopenmpi >/dev/null && echo "NetPIPE -a -z|-|NPopenmpi -a -z -u 4096 -n 200 -o npa.out"
	echo "halo|-|$B/examples/halo 20 20000"
	echo "halo, 200 steps|-|$B/examples/halo 200 20000"
	command -v hpcc >/dev/null && echo "HPCC 1x2|hpccinf-2.txt:hpccinf.txt|hpcc"
	[ -x "$XDQR" ] && echo "ScaLAPACK QR 1x2|scalapack-qr-1x2.dat:QR.dat|$XDQR"
	command -v lmp >/dev/null &&
		echo "LAMMPS|-|lmp -in $A/lj-melt.in -var n 10 -var steps 200 -log none -screen none -nocite"
}

# median and spread of the numbers on stdin: "MEDIAN MIN MAX"
stats() {
	sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) { print "- - -"; exit }
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%.3f %.3f %.3f\n", m, v[1], v[NR] }'
}

printf '%-20s %6s %10s %18s %10s\n' "program" "pairs" "ratio" "spread" "tracer"
programs | while IFS='|' read -r name input cmd; do
	: >"$W/ratios"
	: >"$W/tracer"
	for ((i = 1; i <= PAIRS; i++)); do
		w=$W/run
		rm -rf "$w" && mkdir -p "$w"
		$MPIRUN "$B/bin/loggp-measure" -q -o "$w/p.params" </dev/null >"$w/measure.log" 2>&1 || continue
		[ "$input" = - ] || cp "$A/${input%%:*}" "$w/${input#*:}"
		# shellcheck disable=SC2086
		(cd "$w" && $MPIRUN -x LD_PRELOAD="$B/lib/libgoaltrace.so" -x GOALTRACE_DIR="$w" \
			-x GOALTRACE_PREFIX=t- -x GOALTRACE_BUFFER_MB=512 $cmd) </dev/null >"$w/run.log" 2>&1 || continue
		"$B/bin/trace2goal" -q --stats --account "$w/t-0.txt" -o "$w/t.bin" >"$w/t.out" 2>&1 || continue
		traced=$(awk '/^traced time/{print $3}' "$w/t.out")
		sim=$("$B/bin/loggopsim" -q -b -p "$w/p.params" "$w/t.bin" | awk '/^Maximum/{print $(NF-2)}')
		[ -n "$traced" ] && [ -n "$sim" ] || continue
		awk -v s="$sim" -v t="$traced" 'BEGIN { printf "%.6f\n", s / t }' >>"$W/ratios"
		awk '/^share/{ sub("%", "", $5); print $5 }' "$w/t.out" >>"$W/tracer"
	done
	if [ ! -s "$W/ratios" ]; then
		printf '%-20s %6d   no pair completed (%s)\n' "$name" 0 "$(tail -1 "$W/run/run.log" 2>/dev/null)"
		continue
	fi
	read -r m lo hi < <(stats <"$W/ratios")
	read -r tm _ _ < <(stats <"$W/tracer")
	printf '%-20s %6d %10.2f %13.2f-%.2f %9.1f%%\n' "$name" "$(wc -l <"$W/ratios")" "$m" "$lo" \
		"$hi" "$tm"
done
