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
# (folder that keeps the parameter file and the PRTT table).
set -eu
B=$(cd "${1:-build}" && pwd)
shift || true
MAX_ERR=${MAX_ERR:-10}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
unset ASAN_OPTIONS UBSAN_OPTIONS

mpirun -np 2 --oversubscribe "$@" "$B/bin/loggp-measure" -q \
	--quantile "${QUANTILE:-0.1}" ${MEASURE_ARGS:-} -o "$W/m.params" --raw "$W/m.prtt" \
	>"$W/table" 2>"$W/warn"
if [ -n "${OUT:-}" ]; then
	mkdir -p "$OUT"
	cp "$W/m.params" "$W/m.prtt" "$W/table" "$W/warn" "$OUT/"
fi
grep -v '^#' "$W/m.params"
cat "$W/warn" >&2

printf '%10s %12s %12s %8s\n' size measured simulated error
worst=0
while read -r size _ prtt1 _; do
	case $size in ''|'#'*|loggp-prtt|n) continue ;; esac
	cat >"$W/pp.goal" <<EOF
num_ranks 2
rank 0 {
l1: send ${size}b to 1
l2: recv ${size}b from 1
l2 requires l1
}
rank 1 {
l1: recv ${size}b from 0
l2: send ${size}b to 0
l2 requires l1
}
EOF
	sim=$("$B/bin/loggopsim" -q -p "$W/m.params" "$W/pp.goal" | sed -n 's/^Host 0: //p')
	err=$(awk -v m="$prtt1" -v s="$sim" 'BEGIN { e = (s - m) / m * 100; printf "%+.1f", e }')
	printf '%10s %12.0f %12s %7s%%\n' "$size" "$prtt1" "$sim" "$err"
	worst=$(awk -v w="$worst" -v e="$err" 'BEGIN { e = e < 0 ? -e : e; print (e > w ? e : w) }')
done <"$W/m.prtt"
echo "largest error: ${worst}% (limit ${MAX_ERR}%)"
awk -v w="$worst" -v l="$MAX_ERR" 'BEGIN { exit !(w <= l) }'
