#!/usr/bin/env bash
# trace2goal on programs nobody here wrote, and extrapolation to 1024 ranks:
#  1. measures the LogGP parameters of this machine (loggp-measure, 2 ranks),
#     unless PARAMS=FILE names a parameter file measured before;
#  2. runs NetPIPE (Debian package netpipe-openmpi, NPopenmpi: ping-pongs of
#     1 byte to 64 KiB) on 2 ranks with libgoaltrace.so, converts the traces
#     with trace2goal --strict and simulates them with those parameters;
#     then NetPIPE -a -z (preposted MPI_Irecv from MPI_ANY_SOURCE);
#  3. does the same with the project's halo program on 2 ranks, and
#     extrapolates that trace to 1024 ranks (--extrapolate 512).
# Prints one "ok - ..." line per step and the measured and simulated times.
# Not part of tests/run.sh: it needs the netpipe-openmpi package
# (apt-get install netpipe-openmpi) and takes about a minute.
# Usage: tests/trace2goal/real-app.sh [BUILD_DIR]   (default build)
# Environment: PARAMS=FILE (skip the measurement), SIM=PROGRAM (another
# loggopsim), KEEP=DIR (keep the traces and schedules there).
set -u
B=${1:-build}
cd "$(dirname "$0")/../.." || exit 2
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
unset ASAN_OPTIONS UBSAN_OPTIONS
NP=$(command -v NPopenmpi || true)
if [ -z "$NP" ] || ! command -v mpirun >/dev/null 2>&1; then
	echo "ok - real-app: NetPIPE traced # SKIP NPopenmpi not installed (apt-get install netpipe-openmpi)"
	exit 0
fi
SIM=${SIM:-$B/bin/loggopsim}
for f in "$B/bin/trace2goal" "$SIM" "$B/bin/loggp-measure" \
	"$B/lib/libgoaltrace.so" "$B/examples/halo"; do
	if [ ! -e "$f" ]; then
		echo "not ok - real-app: $f not built (make B=$B all)"
		exit 1
	fi
done
dir=${KEEP:-$(mktemp -d)}
mkdir -p "$dir"
[ -n "${KEEP:-}" ] || trap 'rm -rf "$dir"' EXIT
st=0
MPIRUN="timeout 300 mpirun --oversubscribe"

# 1. parameters
params=${PARAMS:-$dir/shm.params}
if [ -z "${PARAMS:-}" ]; then
	if ! $MPIRUN -np 2 "$B/bin/loggp-measure" -o "$params" >"$dir/measure.out" 2>&1; then
		echo "not ok - real-app: loggp-measure"
		tail -5 "$dir/measure.out" | sed 's/^/    /'
		exit 1
	fi
fi
# the first (small message) range as plain -L -o -g -G -O flags
flags=$(awk '$1 == "range" { for (i = 4; i <= NF; i++) { split($i, kv, "="); printf "-%s %s ", kv[1], kv[2] }; exit }' "$params")
echo "ok - real-app: LogGP parameters ($params): first range $flags"
sed -n 's/^range/    range/p' "$params"

# sim NAME SCHEDULE: prints the simulated time in ns with the parameter
# file (all ranges) and with the first range
sim() {
	local a b
	a=$("$SIM" -q -b -p "$params" "$2" | awk '/^Maximum/{print $(NF-2)}')
	b=$("$SIM" -q -b $flags "$2" | awk '/^Maximum/{print $(NF-2)}')
	if [ -z "$a" ] || [ -z "$b" ]; then
		echo "not ok - real-app: $1 simulated to completion"
		st=1
		return
	fi
	echo "ok - real-app: $1 simulated to completion"
	echo "    $1: simulated $a ns (parameter file), $b ns (first range)"
}

# 2. NetPIPE
rm -f "$dir"/np-*.txt "$dir"/npa-*.txt "$dir"/halo-*.txt
start=$(date +%s.%N)
if ! $MPIRUN -np 2 -x LD_PRELOAD="$PWD/$B/lib/libgoaltrace.so" -x GOALTRACE_DIR="$dir" \
	-x GOALTRACE_PREFIX=np- "$NP" -u 65536 -n 200 -o "$dir/np.out" >"$dir/np.log" 2>&1; then
	echo "not ok - real-app: NetPIPE ran under mpirun"
	tail -5 "$dir/np.log" | sed 's/^/    /'
	exit 1
fi
end=$(date +%s.%N)
echo "ok - real-app: NetPIPE ran on 2 ranks, traced ($(awk -v a="$start" -v b="$end" 'BEGIN{printf "%.2f", b-a}') s with mpirun)"
if "$B/bin/trace2goal" --strict --stats "$dir"/np-0.txt "$dir"/np-1.txt -o "$dir/np.bin" 2>"$dir/np.stats"; then
	echo "ok - real-app: NetPIPE converted with --strict"
	echo "    NetPIPE: measured $(awk '/^traced time/{print $3}' "$dir/np.stats") ns (Init to Finalize), $(awk '/^ops/{print $2}' "$dir/np.stats") ops, computation $(awk '/^calc time/{print $3}' "$dir/np.stats") ns"
	sim NetPIPE "$dir/np.bin"
else
	echo "not ok - real-app: NetPIPE converted with --strict"
	head -3 "$dir/np.stats" | sed 's/^/    /'
	st=1
fi

# 2b. NetPIPE with preposted receives (MPI_Irecv + MPI_Wait) from MPI_ANY_SOURCE
if $MPIRUN -np 2 -x LD_PRELOAD="$PWD/$B/lib/libgoaltrace.so" -x GOALTRACE_DIR="$dir" \
	-x GOALTRACE_PREFIX=npa- "$NP" -a -z -u 4096 -n 50 -o "$dir/npa.out" >"$dir/npa.log" 2>&1 &&
	"$B/bin/trace2goal" --strict --stats "$dir"/npa-0.txt "$dir"/npa-1.txt -o "$dir/npa.bin" \
		2>"$dir/npa.stats"; then
	echo "ok - real-app: NetPIPE -a -z (Irecv from any source) traced and converted"
	echo "    NetPIPE -a -z: measured $(awk '/^traced time/{print $3}' "$dir/npa.stats") ns, computation $(awk '/^calc time/{print $3}' "$dir/npa.stats") ns"
	sim "NetPIPE -a -z" "$dir/npa.bin"
else
	echo "not ok - real-app: NetPIPE -a -z (Irecv from any source) traced and converted"
	st=1
fi

# 3. halo on 2 ranks, then extrapolated to 1024
if ! $MPIRUN -np 2 -x LD_PRELOAD="$PWD/$B/lib/libgoaltrace.so" -x GOALTRACE_DIR="$dir" \
	-x GOALTRACE_PREFIX=halo- "$B/examples/halo" 20 20000 >"$dir/halo.log" 2>&1; then
	echo "not ok - real-app: halo ran under mpirun"
	exit 1
fi
if ! "$B/bin/trace2goal" --strict --stats "$dir"/halo-?.txt -o "$dir/halo.bin" 2>"$dir/halo.stats"; then
	echo "not ok - real-app: halo on 2 ranks converted"
	head -3 "$dir/halo.stats" | sed 's/^/    /'
	exit 1
fi
echo "ok - real-app: halo on 2 ranks converted"
echo "    halo: measured $(awk '/^traced time/{print $3}' "$dir/halo.stats") ns, computation $(awk '/^calc time/{print $3}' "$dir/halo.stats") ns"
sim "halo" "$dir/halo.bin"
# At 1024 ranks a linear alltoall is a million messages: the alltoall-like
# classes use logarithmic patterns here (docs/trace2goal.md).
if "$B/bin/trace2goal" -q --stats --extrapolate 512 --coll alltoall=allreduce_dissemination \
	--coll allgather=allreduce_recdoub --coll reduce_scatter=allreduce_dissemination \
	--coll gather=reduce_binomial --coll scatter=bcast_binomial \
	"$dir"/halo-?.txt -o "$dir/halo1024.bin" 2>"$dir/halo1024.stats"; then
	echo "ok - real-app: halo extrapolated to $(awk '/^ranks/{print $2}' "$dir/halo1024.stats") ranks ($(awk '/^ops/{print $2}' "$dir/halo1024.stats") ops)"
	sim "halo x512 (1024 ranks)" "$dir/halo1024.bin"
else
	echo "not ok - real-app: halo extrapolated to 1024 ranks"
	st=1
fi
exit $st
