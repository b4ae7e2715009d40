#!/usr/bin/env bash
# trace2goal on programs nobody here wrote, and extrapolation to 1024 ranks:
#  1. measures the LogGP parameters of this machine (loggp-measure, 2 ranks),
#     unless PARAMS=FILE names a parameter file measured before;
#  2. runs NetPIPE (Debian package netpipe-openmpi, NPopenmpi: ping-pongs of
#     1 byte to 64 KiB) on 2 ranks with libgoaltrace.so, converts the traces
#     with trace2goal --strict and simulates them with those parameters;
#     then NetPIPE -a -z (preposted MPI_Irecv from MPI_ANY_SOURCE);
#  3. does the same with the project's halo program on 2 ranks, and
#     extrapolates that trace to 1024 ranks (--extrapolate 512);
#  4. LAMMPS (Debian package lammps, lmp; input tests/trace2goal/apps/
#     lj-melt.in, 4000 atoms, 200 steps) on 2 ranks, measured and simulated,
#     and on 4 and 8 ranks (2x2x1 and 2x4x1 grids, MPI_Cart_create; more
#     ranks than cores: --oversubscribe) traced and simulated;
#  5. HPCC (package hpcc; tests/trace2goal/apps/hpccinf-2.txt: N=400, 1x2
#     grid) on 2 ranks, measured and simulated, and on 4 ranks
#     (hpccinf-4.txt, 2x2 grid: HPL's row and column communicators from
#     MPI_Comm_split) traced, the collectives on them counted, simulated;
#     and hpccinf-tiny.txt (N=8, 2x1) on 2 ranks cut by hpcc-cut.awk: how the
#     recorded trace tests/trace2goal/apps/hpcc was made (KEEP=DIR: DIR/hpcc);
#  6. ScaLAPACK (Debian package scalapack-mpi-test, xdqr built for Open MPI;
#     input tests/trace2goal/apps/scalapack-qr.dat: QR of N=400, NB=32, 2x2
#     grid) on 4 ranks: BLACS's grid communicators (MPI_Comm_create,
#     MPI_Comm_split: rows and columns of 2 ranks) checked, measured and
#     simulated.
# Prints one "ok - ..." line per step and the measured and simulated times;
# a program that is not installed gives "# SKIP".
# tests/trace2goal/run.sh runs it (scripts/install-deps.sh installs the
# netpipe-openmpi, lammps, hpcc and scalapack-mpi-test packages): about 3
# minutes, with the sanitizer build too (the tracer has no sanitizers).
# Usage: tests/trace2goal/real-app.sh [BUILD_DIR]   (default build)
# Environment: PARAMS=FILE (skip the measurement), SIM=PROGRAM (another
# loggopsim), KEEP=DIR (keep the traces and schedules there), BUFMB=N
# (GOALTRACE_BUFFER_MB of LAMMPS and HPCC, default 512).
set -u
B=$(cd "${1:-build}" && pwd) || exit 2
cd "$(dirname "$0")/../.." || exit 2
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
unset ASAN_OPTIONS UBSAN_OPTIONS
if ! command -v mpirun >/dev/null 2>&1; then
	echo "ok - real-app: programs traced # SKIP mpirun not installed"
	exit 0
fi
NP=$(command -v NPopenmpi || true)
LMP=$(command -v lmp || true)
HPCC=$(command -v hpcc || true)
# the test programs of scalapack-mpi-test linked with Open MPI (the package
# also has MPICH builds in mpich-tests, which libgoaltrace.so cannot trace)
XDQR=/usr/lib/x86_64-linux-gnu/scalapack/openmpi-tests/xdqr
[ -x "$XDQR" ] || XDQR=
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
if [ -z "$NP" ]; then
	echo "ok - real-app: NetPIPE traced # SKIP NPopenmpi not installed (apt-get install netpipe-openmpi)"
else
start=$(date +%s.%N)
if ! $MPIRUN -np 2 -x LD_PRELOAD="$B/lib/libgoaltrace.so" -x GOALTRACE_DIR="$dir" \
	-x GOALTRACE_PREFIX=np- "$NP" -u 65536 -n 200 -o "$dir/np.out" >"$dir/np.log" 2>&1; then
	echo "not ok - real-app: NetPIPE ran under mpirun"
	tail -5 "$dir/np.log" | sed 's/^/    /'
	exit 1
fi
end=$(date +%s.%N)
echo "ok - real-app: NetPIPE ran on 2 ranks, traced ($(awk -v a="$start" -v b="$end" 'BEGIN{printf "%.2f", b-a}') s with mpirun)"
if "$B/bin/trace2goal" --strict --stats "$dir"/np-0.txt "$dir"/np-1.txt -o "$dir/np.bin" >"$dir/np.stats" 2>&1; then
	echo "ok - real-app: NetPIPE converted with --strict"
	echo "    NetPIPE: measured $(awk '/^traced time/{print $3}' "$dir/np.stats") ns (Init to Finalize), $(awk '/^ops/{print $2}' "$dir/np.stats") ops, computation $(awk '/^calc time/{print $3}' "$dir/np.stats") ns"
	sim NetPIPE "$dir/np.bin"
else
	echo "not ok - real-app: NetPIPE converted with --strict"
	head -3 "$dir/np.stats" | sed 's/^/    /'
	st=1
fi

# 2b. NetPIPE with preposted receives (MPI_Irecv + MPI_Wait) from MPI_ANY_SOURCE
if $MPIRUN -np 2 -x LD_PRELOAD="$B/lib/libgoaltrace.so" -x GOALTRACE_DIR="$dir" \
	-x GOALTRACE_PREFIX=npa- "$NP" -a -z -u 4096 -n 50 -o "$dir/npa.out" >"$dir/npa.log" 2>&1 &&
	"$B/bin/trace2goal" --strict --stats "$dir"/npa-0.txt "$dir"/npa-1.txt -o "$dir/npa.bin" \
		>"$dir/npa.stats" 2>&1; then
	echo "ok - real-app: NetPIPE -a -z (Irecv from any source) traced and converted"
	echo "    NetPIPE -a -z: measured $(awk '/^traced time/{print $3}' "$dir/npa.stats") ns, computation $(awk '/^calc time/{print $3}' "$dir/npa.stats") ns"
	sim "NetPIPE -a -z" "$dir/npa.bin"
else
	echo "not ok - real-app: NetPIPE -a -z (Irecv from any source) traced and converted"
	st=1
fi
fi

# 3. halo on 2 ranks, then extrapolated to 1024
if ! $MPIRUN -np 2 -x LD_PRELOAD="$B/lib/libgoaltrace.so" -x GOALTRACE_DIR="$dir" \
	-x GOALTRACE_PREFIX=halo- "$B/examples/halo" 20 20000 >"$dir/halo.log" 2>&1; then
	echo "not ok - real-app: halo ran under mpirun"
	exit 1
fi
if ! "$B/bin/trace2goal" --strict --stats "$dir"/halo-?.txt -o "$dir/halo.bin" >"$dir/halo.stats" 2>&1; then
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
	"$dir"/halo-?.txt -o "$dir/halo1024.bin" >"$dir/halo1024.stats" 2>&1; then
	echo "ok - real-app: halo extrapolated to $(awk '/^ranks/{print $2}' "$dir/halo1024.stats") ranks ($(awk '/^ops/{print $2}' "$dir/halo1024.stats") ops)"
	sim "halo x512 (1024 ranks)" "$dir/halo1024.bin"
else
	echo "not ok - real-app: halo extrapolated to 1024 ranks"
	st=1
fi

# A trace buffer large enough for HPCC's polling loops (about 2 million
# calls per rank): when the buffer fills up, the rank formats and writes
# it during the run (up to 0.4 s each time) while the other rank polls on;
# trace2goal leaves that time out ('# flush' lines), but the run measured
# is longer.
BUFMB=${BUFMB:-512}

# app NAME NP PREFIX COMMAND...: runs COMMAND on NP ranks in $dir/PREFIX
# (its working folder) with the tracer, converts the traces with --strict
# --stats to $dir/PREFIX.bin; fails (1) if the run or the conversion fails.
# APPIN=FILE: copied to the working folder as hpccinf.txt (or as APPAS)
# first.
app() {
	local name=$1 np=$2 pre=$3 start end w=$dir/$3 i
	shift 3
	rm -rf "$w" && mkdir -p "$w"
	[ -z "${APPIN:-}" ] || cp "$APPIN" "$w/${APPAS:-hpccinf.txt}"
	start=$(date +%s.%N)
	if ! (cd "$w" && $MPIRUN -np "$np" -x LD_PRELOAD="$B/lib/libgoaltrace.so" \
		-x GOALTRACE_DIR="$w" -x GOALTRACE_PREFIX="$pre-" -x GOALTRACE_BUFFER_MB="$BUFMB" \
		"$@") >"$w.log" 2>&1; then
		echo "not ok - real-app: $name ran under mpirun"
		tail -5 "$w.log" | sed 's/^/    /'
		st=1
		return 1
	fi
	end=$(date +%s.%N)
	for ((i = 0; i < np; i++)); do
		if [ ! -s "$w/$pre-$i.txt" ]; then
			echo "not ok - real-app: $name ran on $np ranks but rank $i left no trace ($w/$pre-$i.txt)"
			st=1
			return 1
		fi
	done
	echo "ok - real-app: $name ran on $np ranks, traced ($(awk -v a="$start" -v b="$end" 'BEGIN{printf "%.2f", b-a}') s with mpirun, load average $(cut -d' ' -f1-3 /proc/loadavg))"
	if "$B/bin/trace2goal" --strict --stats "$w/$pre-0.txt" -o "$w.bin" >"$w.stats" 2>&1; then
		echo "ok - real-app: $name converted with --strict"
	else
		echo "not ok - real-app: $name converted with --strict"
		head -3 "$w.stats" | sed 's/^/    /'
		st=1
		return 1
	fi
	echo "    $name: measured $(awk '/^traced time/{print $3}' "$w.stats") ns (Init to Finalize), $(awk '/^ops/{print $2}' "$w.stats") ops, computation $(awk '/^calc time/{print $3}' "$w.stats") ns"
	# more ranks than cores: the times do not compare (trace2goal says so)
	grep 'ran on host' "$w.stats" | sed 's/^/    /'
}

# subcomm NAME FILE SIZE: the communicators of SIZE ranks defined in the
# trace FILE (# comm lines) and the calls on them (HPL's row and column
# communicators carry point-to-point messages only: HPL has collectives of
# its own built on MPI_Send and MPI_Recv)
subcomm() {
	local c k p
	c=$(grep -c "^# comm:[0-9]*:[0-9]*\(,[0-9]*\)\{$(($3 - 1))\}\$" "$2")
	k=$(grep -Ec "^MPI_(Barrier|Bcast|Reduce|Allreduce|Gather|Gatherv|Scatter|Scatterv|Allgather|Allgatherv|Alltoall|Alltoallv|Reduce_scatter|Reduce_scatter_block|Scan|Exscan):.*:[0-9]+,[0-9]+,$3:[0-9.]+\$" "$2")
	p=$(grep -Ec "^MPI_(Send|Recv|Isend|Irecv|Sendrecv|Iprobe|Probe):.*:[0-9]+,[0-9]+,$3:" "$2")
	if [ "$c" -gt 0 ] && [ $((k + p)) -gt 0 ]; then
		echo "ok - real-app: $1: $c communicators of $3 ranks defined, $k collective and $p point-to-point calls on them ($(basename "$2"))"
	else
		echo "not ok - real-app: $1: communicators of $3 ranks and calls on them ($c, $k, $p)"
		st=1
	fi
}

# 4. LAMMPS: 2 ranks measured and simulated; 4 ranks on a 2x2x1 grid
IN=$PWD/tests/trace2goal/apps/lj-melt.in
if [ -z "$LMP" ]; then
	echo "ok - real-app: LAMMPS traced # SKIP lmp not installed (apt-get install lammps)"
else
	LARGS="-in $IN -var n 10 -var steps 200 -log none -screen none -nocite"
	# shellcheck disable=SC2086
	app LAMMPS 2 lmp2 "$LMP" $LARGS && sim LAMMPS "$dir/lmp2.bin"
	# cart NP GRID: the P x Q x 1 grid of NP ranks (oversubscribed on this
	# machine's cores), its MPI_Cart_create and communicator of NP ranks in
	# rank 0's trace (the world's and the Cartesian one: 2 # comm lines)
	cart() {
		# shellcheck disable=SC2086
		app "LAMMPS $2" "$1" "lmp$1" "$LMP" $LARGS || return
		if grep -q '^MPI_Cart_create:' "$dir/lmp$1/lmp$1-0.txt" &&
			[ "$(grep -c "^# comm:[0-9]*:[0-9]*\(,[0-9]*\)\{$(($1 - 1))\}\$" "$dir/lmp$1/lmp$1-0.txt")" = 2 ]; then
			echo "ok - real-app: LAMMPS $2: MPI_Cart_create traced, its communicator of $1 ranks defined"
		else
			echo "not ok - real-app: LAMMPS $2: MPI_Cart_create traced, its communicator of $1 ranks defined"
			st=1
		fi
		sim "LAMMPS $2" "$dir/lmp$1.bin"
	}
	cart 4 2x2x1
	cart 8 2x4x1
fi

# 5. HPCC (HPL, PTRANS, DGEMM, STREAM, RandomAccess, FFT, latency and
# bandwidth): 2 ranks measured and simulated; 4 ranks on a 2x2 grid
if [ -z "$HPCC" ]; then
	echo "ok - real-app: HPCC traced # SKIP hpcc not installed (apt-get install hpcc)"
else
	APPIN=tests/trace2goal/apps/hpccinf-2.txt app HPCC 2 hpcc2 "$HPCC" && sim HPCC "$dir/hpcc2.bin"
	if APPIN=tests/trace2goal/apps/hpccinf-4.txt app "HPCC 2x2" 4 hpcc4 "$HPCC"; then
		subcomm "HPCC 2x2" "$dir/hpcc4/hpcc4-0.txt" 2
		sim "HPCC 2x2" "$dir/hpcc4.bin"
	fi
	# how the recorded trace tests/trace2goal/apps/hpcc is made:
	# hpccinf-tiny.txt (N = 8) on 2 ranks, the LatencyBandwidth section
	# (fixed loop counts, most of the calls) cut out of each rank's file.
	# On a 2x1 grid HPL's panel broadcasts go along rows of 1 rank: on 1x2
	# they polled with MPI_Iprobe, 115 to 39 433 times per rank in 6 runs.
	# HPCC misreads its input when a line is longer than 80 characters or
	# so (PTRANS then fails to allocate): its tests are checked first, by
	# HPL's and PTRANS's residual checks.  Not by its PASSED lines: PTRANS
	# prints a CPU line beside a test's WALL line only when it measured CPU
	# time, so their number varies with the machine's load (9 instead of 11
	# in 2 of 8 runs beside two busy loops).
	hpcc_passed() {
		local f=$dir/hpcct/hpccoutf.txt
		! grep -q 'Failed to allocate' "$f" &&
			[ "$(grep -cE '^ *[1-9][0-9]* tests completed and passed residual checks' "$f")" = 2 ] &&
			[ "$(grep -cE '^ *0 tests completed and failed residual checks' "$f")" = 2 ]
	}
	hpcc_show() {
		echo "    HPCC tiny: its residual checks, failures and last lines:"
		grep -e 'residual checks' "$dir/hpcct/hpccoutf.txt" | sed 's/^ */    | /'
		grep -i -e 'fail' -e 'error' "$dir/hpcct/hpccoutf.txt" | grep -v -e 'Node(s) with error 0' \
			-e 'Found 0 errors' -e 'residual checks' -e 'Errors=0$' -e 'ErrorsFraction=0$' | head -10 | sed 's/^/    | /'
		tail -5 "$dir/hpcct/hpccoutf.txt" | sed 's/^/    | /'
	}
	if APPIN=tests/trace2goal/apps/hpccinf-tiny.txt app "HPCC tiny" 2 hpcct "$HPCC"; then
		mkdir -p "$dir/hpcc"
		if ! hpcc_passed; then
			echo "not ok - real-app: HPCC tiny: HPL's and PTRANS's residual checks passed"
			hpcc_show
			st=1
		elif awk -f tests/trace2goal/hpcc-cut.awk "$dir/hpcct/hpcct-0.txt" "$dir/hpcct/hpcct-0.txt" >"$dir/hpcc/hpcc-0.txt" &&
			awk -f tests/trace2goal/hpcc-cut.awk "$dir/hpcct/hpcct-1.txt" "$dir/hpcct/hpcct-1.txt" >"$dir/hpcc/hpcc-1.txt" &&
			"$B/bin/trace2goal" --strict --stats "$dir/hpcc" -o "$dir/hpcc.bin" >"$dir/hpcc.stats" 2>&1; then
			echo "ok - real-app: HPCC tiny: LatencyBandwidth cut out ($(cat "$dir"/hpcct/hpcct-?.txt | wc -c) to $(cat "$dir"/hpcc/hpcc-?.txt | wc -c) bytes), converted with --strict"
			echo "    HPCC tiny, cut: $(awk '/^ops/{print $2}' "$dir/hpcc.stats") ops, traced time $(awk '/^traced time/{print $3}' "$dir/hpcc.stats") ns"
			sim "HPCC tiny, cut" "$dir/hpcc.bin"
		else
			echo "not ok - real-app: HPCC tiny: LatencyBandwidth cut out, converted with --strict"
			st=1
		fi
	fi
fi

# 6. ScaLAPACK's QR test (xdqr, Fortran; its MPI calls come from BLACS, C)
# on a 2x2 grid: 4 ranks measured and simulated. BLACS builds its grid with
# MPI_Comm_create and MPI_Comm_dup on the world and MPI_Comm_split into
# rows and columns of 2 ranks, which carry ScaLAPACK's broadcasts and
# reductions.
if [ -z "$XDQR" ]; then
	echo "ok - real-app: ScaLAPACK traced # SKIP xdqr not installed (apt-get install scalapack-mpi-test)"
else
	if APPIN=tests/trace2goal/apps/scalapack-qr.dat APPAS=QR.dat \
		app "ScaLAPACK xdqr 2x2" 4 sqr4 "$XDQR"; then
		if grep -q 'PASSED' "$dir/sqr4.log"; then
			echo "ok - real-app: ScaLAPACK xdqr 2x2: the QR test passed"
		else
			echo "not ok - real-app: ScaLAPACK xdqr 2x2: the QR test passed"
			st=1
		fi
		subcomm "ScaLAPACK xdqr 2x2" "$dir/sqr4/sqr4-0.txt" 2
		sim "ScaLAPACK xdqr 2x2" "$dir/sqr4.bin"
	fi
fi
exit $st
