#!/usr/bin/env bash
# The log_3 P study of docs/log3p.md: LogGP against log_3 P on strided
# messages, measured on this machine over shared memory and TCP.
#
#   scripts/log3p-study.sh [BUILD_DIR] [OUT_DIR]   (defaults: build, build/log3p)
#
# Per transport (shm: Open MPI's vader; tcp: TCP over loopback):
#   1. loggp-measure --stride 8,64,512,1024 measures the parameter file
#      (contiguous ranges up to 1 MiB, and the middleware costs per stride
#      at 1 KiB .. 1 MiB): OUT/T.params, its PRTT table OUT/T.prtt, its
#      report OUT/T.fit and warnings OUT/T.warn; OUT/T-loggp.params is the
#      same file without its stride lines (LogGP: the middleware ignored);
#   2. log3p-bench (loggp/log3p_bench.c) measures a ping-pong (2 ranks), a
#      linear and a binomial-tree broadcast (2 .. 8 ranks) of contiguous
#      messages and of strides 8, 64, 512, 1024 bytes, 1 KiB .. 1 MiB;
#   3. loggopsim simulates every point with each file (ping-pong: a send
#      and its answer; linear: schedgen scatter_linear; tree: schedgen
#      bcast_binomial, with --stride D).
# Writes OUT/points.csv:
#   transport,pattern,P,stride,size,measured,loggp,log3p
# then scripts/log3p-charts.py writes the tables (OUT/tables.md) and the
# charts (OUT/log3p-shm.svg, OUT/log3p-tcp.svg).
# Environment: RANKS (default "2 3 4 5 6 7 8"), REPS (log3p-bench
# repetitions, default 15), QUANTILE (of loggp-measure and log3p-bench,
# default 0.1: on a busy machine interference only adds time),
# TRANSPORTS (default "shm tcp").
set -euo pipefail
B=$(cd "${1:-build}" && pwd)
OUT=${2:-build/log3p}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
ROOT=$(cd "$(dirname "$0")/.." && pwd)
RANKS=${RANKS:-2 3 4 5 6 7 8}
REPS=${REPS:-15}
Q=${QUANTILE:-0.1}
SIZES=1024,4096,16384,65536,262144,1048576
STRIDES=8,64,512,1024
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
unset ASAN_OPTIONS UBSAN_OPTIONS
for f in "$B/bin/loggp-measure" "$B/examples/log3p-bench" "$B/bin/loggopsim" "$B/bin/schedgen"; do
	[ -x "$f" ] || { echo "log3p-study: error: $f not built (mpicc needed)" >&2; exit 1; }
done

csv=$OUT/points.csv
echo "transport,pattern,P,stride,size,measured,loggp,log3p" >"$csv"

# sim_time FILE SCHEDULE: the simulated time in ns
sim_time() {
	"$B/bin/loggopsim" -q -b -p "$1" "$2" | sed -n 's/^Maximum finishing time at host [0-9]*: \([0-9]*\) .*/\1/p'
}

# schedule PATTERN P STRIDE SIZE: writes OUT/s.goal
schedule() {
	local st=""
	[ "$3" != 0 ] && st=" stride $3"
	case $1 in
	pingpong)
		printf 'num_ranks 2\nrank 0 {\nl1: send %sb to 1%s\nl2: recv %sb from 1%s\nl2 requires l1\n}\n' \
			"$4" "$st" "$4" "$st" >"$OUT/s.goal"
		printf 'rank 1 {\nl1: recv %sb from 0%s\nl2: send %sb to 0%s\nl2 requires l1\n}\n' \
			"$4" "$st" "$4" "$st" >>"$OUT/s.goal"
		;;
	linear | tree)
		local pat=scatter_linear
		[ "$1" = tree ] && pat=bcast_binomial
		# shellcheck disable=SC2046
		"$B/bin/schedgen" "$pat" -s "$2" -d "$4" $([ "$3" != 0 ] && echo --stride "$3") -o "$OUT/s.goal"
		;;
	esac
}

for t in ${TRANSPORTS:-shm tcp}; do
	case $t in
	shm) btl="self,vader" ;;
	tcp) btl="tcp,self" ;;
	*) echo "log3p-study: error: transport '$t' is shm or tcp" >&2; exit 2 ;;
	esac
	echo "log3p-study: $t: measuring the parameters" >&2
	mpirun -np 2 --oversubscribe --mca btl "$btl" "$B/bin/loggp-measure" -q --quantile "$Q" \
		--max-size 1048576 --stride "$STRIDES" --stride-sizes "$SIZES" \
		-o "$OUT/$t.params" --raw "$OUT/$t.prtt" >"$OUT/$t.fit" 2>"$OUT/$t.warn"
	grep -v '^stride' "$OUT/$t.params" >"$OUT/$t-loggp.params"
	for P in $RANKS; do
		echo "log3p-study: $t: measuring on $P ranks" >&2
		mpirun -np "$P" --oversubscribe --mca btl "$btl" "$B/examples/log3p-bench" \
			--sizes "$SIZES" --strides "0,$STRIDES" --reps "$REPS" --quantile "$Q" \
			>"$OUT/$t-$P.csv"
	done
	echo "log3p-study: $t: simulating" >&2
	for P in $RANKS; do
		tail -n +2 "$OUT/$t-$P.csv" | while IFS=, read -r pat p st s meas; do
			schedule "$pat" "$p" "$st" "$s"
			a=$(sim_time "$OUT/$t-loggp.params" "$OUT/s.goal")
			b=$(sim_time "$OUT/$t.params" "$OUT/s.goal")
			echo "$t,$pat,$p,$st,$s,$meas,$a,$b" >>"$csv"
		done
	done
done
rm -f "$OUT/s.goal"
python3 "$ROOT/scripts/log3p-charts.py" "$csv" "$OUT"
echo "log3p-study: $csv, $OUT/tables.md, $OUT/log3p-*.svg" >&2
