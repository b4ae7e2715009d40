#!/usr/bin/env bash
# Measures the run-time overhead of libgoaltrace.so on the message-heavy
# program tracer/examples/msgrate (2 ranks, ping-pong of small messages):
# alternates untraced and traced runs, prints the median times and the
# overhead in percent.  Usage: tracer/overhead.sh [BUILD [RUNS [MSGS [BYTES [WORK]]]]]
# (GOALTRACE_CLOCK=monotonic in the environment times the calls with
# clock_gettime, docs/traces.md)
set -u
B=${1:-build}
runs=${2:-7}
msgs=${3:-200000}
bytes=${4:-8}
work=${5:-0}
cd "$(dirname "$0")/.." || exit 2
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
run() { # $1 = preload or empty; prints the measured seconds
	mpirun -np 2 --oversubscribe ${1:+-x LD_PRELOAD=$1} -x GOALTRACE_DIR="$dir" \
		${GOALTRACE_CLOCK:+-x GOALTRACE_CLOCK} \
		"$B/examples/msgrate" "$msgs" "$bytes" "$work" | awk '{print $1}'
}
plain=() traced=()
for ((i = 0; i < runs; i++)); do
	plain+=("$(run "")")
	traced+=("$(run "$PWD/$B/lib/libgoaltrace.so")")
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
p=$(median "${plain[@]}")
t=$(median "${traced[@]}")
lines=$(wc -l <"$dir/pmpi-trace-rank-0.txt")
awk -v p="$p" -v t="$t" -v m="$msgs" -v b="$bytes" -v w="$work" -v n="$runs" -v l="$lines" 'BEGIN {
	printf "msgrate %d round trips of %d bytes, work %d, median of %d runs:\n", m, b, w, n
	printf "  untraced %.4f s, traced %.4f s, overhead %+.2f%% (%.0f ns per call), %d trace lines per rank\n",
		p, t, (t - p) / p * 100, (t - p) / (2 * m) * 1e9, l }'
