#!/usr/bin/env bash
# loggp/pingpong.sh: how well measured LogGP parameters predict a ping-pong.
# Measures the parameters with loggp-measure under mpirun (its PRTT(1,0,s)
# is the measured ping-pong round trip of s bytes), simulates the same
# ping-pong with loggopsim -p on the parameter file, and prints, per size,
# measured and simulated round trip and the relative error; then the
# largest error.  Exit status 0 if every size is within MAX_ERR percent.
#
# Usage: loggp/pingpong.sh BUILD_DIR [MPIRUN_ARGS...]
#   loggp/pingpong.sh build                          # shared memory
#   loggp/pingpong.sh build --mca btl tcp,self       # TCP over loopback
# Environment: MAX_ERR (percent, default 10), QUANTILE (loggp-measure
# --quantile, default 0.1: on a busy machine interference only adds time),
# MEASURE_ARGS (more loggp-measure options, e.g. --per-octave 8), OUT
# (folder that keeps the parameter file and the PRTT table), PRTT (a PRTT
# table recorded earlier with --raw: fit it with loggp-fit instead of
# measuring; no mpirun needed).
set -eu
B=$(cd "${1:-build}" && pwd)
shift || true
MAX_ERR=${MAX_ERR:-10}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
unset ASAN_OPTIONS UBSAN_OPTIONS

if [ -n "${PRTT:-}" ]; then
	cp "$PRTT" "$W/m.prtt"
	"$B/bin/loggp-fit" -o "$W/m.params" "$W/m.prtt" >"$W/table" 2>"$W/warn"
else
	mpirun -np 2 --oversubscribe "$@" "$B/bin/loggp-measure" -q \
		--quantile "${QUANTILE:-0.1}" ${MEASURE_ARGS:-} -o "$W/m.params" \
		--raw "$W/m.prtt" >"$W/table" 2>"$W/warn"
fi
if [ -n "${OUT:-}" ]; then
	mkdir -p "$OUT"
	cp "$W/m.params" "$W/m.prtt" "$W/table" "$W/warn" "$OUT/"
fi
grep -v '^#' "$W/m.params"
cat "$W/warn" >&2

# One schedule with a ping-pong pair per size: ranks 2k and 2k+1 exchange
# the k-th size; pairs do not interact, so rank 2k finishes at the
# simulated round trip of that size.
awk '!/^(#|loggp-prtt|n )/ && NF >= 3 { print $1, $3 }' "$W/m.prtt" >"$W/sizes"
awk '{ k = NR - 1; a = 2 * k; b = a + 1
	printf "rank %d {\nl1: send %sb to %d\nl2: recv %sb from %d\nl2 requires l1\n}\n", a, $1, b, $1, b
	printf "rank %d {\nl1: recv %sb from %d\nl2: send %sb to %d\nl2 requires l1\n}\n", b, $1, a, $1, a }
' "$W/sizes" >"$W/ranks"
{ echo "num_ranks $((2 * $(wc -l <"$W/sizes")))"; cat "$W/ranks"; } >"$W/pp.goal"
"$B/bin/loggopsim" -q -b -p "$W/m.params" --csv "$W/sim.csv" "$W/pp.goal" >/dev/null
awk -F, 'NR > 1 && $1 % 2 == 0 { print $2 }' "$W/sim.csv" | paste -d ' ' "$W/sizes" - |
awk -v max="$MAX_ERR" '
	{ e = ($3 - $2) / $2 * 100; a = e < 0 ? -e : e; if (a > worst) worst = a
	  printf "%10s %12.0f %12s %+7.1f%%\n", $1, $2, $3, e }
	BEGIN { printf "%10s %12s %12s %8s\n", "size", "measured", "simulated", "error" }
	END { printf "largest error: %.2f%% (limit %s%%)\n", worst, max; exit !(worst <= max) }'
