#!/usr/bin/env bash
# Traces the example MPI program tracer/examples/halo.c with libgoaltrace.so
# on 4 ranks and checks the traces (every call recorded, sends and receives
# pair up, requests complete, collectives agree); runs where some ranks
# cannot open their trace files (the job goes on untraced, or stops with
# GOALTRACE_STRICT=1, and never hangs); and traces calls with 50,000
# requests (tracer/examples/manyreq.c) through records longer than the
# record buffer; a Fortran program (tracer/examples/fring.f90); vector
# datatypes (tracer/examples/vector.c).  Skips
# if mpicc (or, for the Fortran program, mpif90) is missing.
# Usage: tests/traces/run.sh BUILD_DIR
set -u
B=$(cd "${1:-build}" && pwd) || exit 2
cd "$(dirname "$0")/../.." || exit 2
if ! command -v mpicc >/dev/null 2>&1 || ! command -v mpirun >/dev/null 2>&1; then
	for t in "halo traced on 4 ranks" "a rank without its trace file" \
		"records of 50000 requests"; do
		echo "ok - traces: $t # SKIP mpicc not installed"
	done
	exit 0
fi
for f in "$B/lib/libgoaltrace.so" "$B/examples/halo" "$B/examples/manyreq" "$B/examples/vector" \
	"$B/tests/trace_check"; do
	if [ ! -e "$f" ]; then
		echo "not ok - traces: $f not built"
		exit 1
	fi
done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# The tracer is not built with sanitizers; keep them out of mpirun.
unset ASAN_OPTIONS UBSAN_OPTIONS
lib=$B/lib/libgoaltrace.so
st=0

# prints "ok - traces: $2" if $1 is 0, else "not ok" (sets st, returns 1)
check() {
	if [ "$1" -eq 0 ]; then
		echo "ok - traces: $2"
	else
		echo "not ok - traces: $2"
		st=1
		return 1
	fi
}

halo() {
	if ! timeout 120 mpirun -np 4 --oversubscribe -x LD_PRELOAD="$lib" \
		-x GOALTRACE_DIR="$dir" -x GOALTRACE_PREFIX=halo- "$B/examples/halo" 10 2000 \
		>"$dir/out" 2>&1; then
		echo "not ok - traces: halo ran under mpirun"
		sed 's/^/    /' "$dir/out" | head -20
		return 1
	fi
	echo "ok - traces: halo ran under mpirun with libgoaltrace.so"
	n=$(ls "$dir"/halo-*.txt 2>/dev/null | wc -l)
	if [ "$n" -eq 4 ]; then
		echo "ok - traces: one trace file per rank"
	else
		echo "not ok - traces: one trace file per rank"
		echo "    found $n files"
		return 1
	fi
	calls=MPI_Init,MPI_Finalize,MPI_Send,MPI_Ssend,MPI_Recv,MPI_Isend,MPI_Irecv
	calls=$calls,MPI_Sendrecv,MPI_Sendrecv_replace,MPI_Wait,MPI_Waitall,MPI_Waitany
	calls=$calls,MPI_Waitsome,MPI_Test,MPI_Testall,MPI_Probe,MPI_Iprobe,MPI_Barrier
	calls=$calls,MPI_Bcast,MPI_Reduce,MPI_Allreduce,MPI_Gather,MPI_Gatherv,MPI_Scatter
	calls=$calls,MPI_Scatterv,MPI_Allgather,MPI_Allgatherv,MPI_Alltoall,MPI_Alltoallv
	calls=$calls,MPI_Reduce_scatter,MPI_Scan,MPI_Comm_split,MPI_Comm_dup,MPI_Comm_free
	calls=$calls,MPI_Comm_rank,MPI_Comm_size,MPI_Cart_create,MPI_Cart_sub
	calls=$calls,MPI_Comm_split_type,MPI_Ibarrier,MPI_Ibcast,MPI_Ireduce,MPI_Iallreduce
	calls=$calls,MPI_Igather,MPI_Igatherv,MPI_Iscatter,MPI_Iscatterv,MPI_Iallgather
	calls=$calls,MPI_Iallgatherv,MPI_Ialltoall,MPI_Ialltoallv,MPI_Ireduce_scatter
	calls=$calls,MPI_Ireduce_scatter_block,MPI_Iscan,MPI_Iexscan
	"$B/tests/trace_check" -k "$calls" "$dir"/halo-0.txt "$dir"/halo-1.txt \
		"$dir"/halo-2.txt "$dir"/halo-3.txt
	hst=$?
	# the halo loop: 10 iterations of 2 Irecv + 2 Isend + Waitall + Allreduce
	got=$(grep -c '^MPI_Allreduce:' "$dir"/halo-1.txt)
	if [ "$got" -eq 11 ]; then
		echo "ok - traces: 11 allreduce lines on rank 1"
	else
		echo "not ok - traces: 11 allreduce lines on rank 1"
		echo "    got $got"
		hst=1
	fi
	return $hst
}
halo || st=1

# The records' clock (docs/traces.md, "Clock"): the TSC where it is
# invariant, or CLOCK_MONOTONIC.  With either, and a 1 MiB buffer that
# flushes 4 times on each of 2 ranks, every call starts no earlier than the
# one before it ended and ends no earlier than it starts, and a flush starts
# after the call before it ended, and after the call written after it,
# whose record made the buffer flush (times in us with three decimals).
ordered() { # TRACE: "calls flushes" if in order, else the first line out of order
	awk -F: '/^# flush: / { split($0, f, " "); a = f[3] * 1000
		if (a < e) { print NR ": " $0; bad = 1; exit }
		fl++; next }
		/^MPI_/ { s = $2 * 1000; t = $NF * 1000
		if (s < e || t < s || (a && t > a)) { print NR ": " $0; bad = 1; exit }
		e = t; a = 0; n++ }
		END { if (!bad) print n, fl + 0 }' "$1"
}
for clk in tsc monotonic; do
	cd=$dir/clock-$clk
	timeout 120 mpirun -np 2 --oversubscribe -x LD_PRELOAD="$lib" -x GOALTRACE_DIR="$cd" \
		-x GOALTRACE_CLOCK=$clk -x GOALTRACE_BUFFER_MB=1 "$B/examples/halo" 6000 200 \
		>"$dir/clock.out" 2>&1 &&
		"$B/tests/trace_check" -k MPI_Isend,MPI_Irecv,MPI_Waitall,MPI_Allreduce \
			"$cd/pmpi-trace-rank-0.txt" "$cd/pmpi-trace-rank-1.txt" >"$dir/clock.check" 2>&1
	check $? "GOALTRACE_CLOCK=$clk: halo traced with a 1 MiB buffer, trace_check reads it" ||
		sed 's/^/    /' "$dir/clock.out" "$dir/clock.check" | head -10
	got="$(ordered "$cd/pmpi-trace-rank-0.txt") $(ordered "$cd/pmpi-trace-rank-1.txt")"
	[[ $got =~ ^[0-9]+\ [1-9][0-9]*\ [0-9]+\ [1-9][0-9]*$ ]]
	check $? "GOALTRACE_CLOCK=$clk: calls and flushes in time order on both ranks" ||
		echo "    calls, flushes per rank (or a line out of order): $got"
done

# Runs mpirun under timeout 60 (a hang fails the check) with the tracer;
# stdout to $dir/$1.out, stderr to $dir/$1.err; sets rc.
run() {
	local name=$1
	shift
	timeout 60 mpirun --oversubscribe "$@" >"$dir/$name.out" 2>"$dir/$name.err"
	rc=$?
}

# shows a run's output below a failed check
show() {
	echo "    exit status $rc$([ "$rc" -eq 124 ] && echo ' (hung: killed by timeout 60)')"
	sed 's/^/    /' "$dir/$1.out" "$dir/$1.err" | head -20
}

# The goaltrace lines of a run's stderr are exactly $2.
message_is() {
	[ "$(grep '^goaltrace' "$dir/$1.err")" = "$2" ]
}

# Some ranks cannot open their trace files (here folders of those names, as
# root ignores permissions): every rank learns it in MPI_Init, the lowest
# failing rank says why, once, and the job runs untraced, or with
# GOALTRACE_STRICT=1 all ranks stop with exit status 1.
bad=$dir/bad
mkdir -p "$bad/h-2.txt" "$bad/h-3.txt"
echo old >"$bad/h-1.txt"
name="ranks 2 and 3 cannot open their trace files: the job goes on untraced"
run open4 -np 4 -x LD_PRELOAD="$lib" -x GOALTRACE_DIR="$bad" -x GOALTRACE_PREFIX=h- \
	"$B/examples/halo" 3 100
[ "$rc" -eq 0 ] && grep -q '^residual .* on 4 ranks$' "$dir/open4.out"
check $? "$name (exit status 0)" || show open4
msg="goaltrace: rank 2: cannot open $bad/h-2.txt: Is a directory (and 1 more rank); no rank is traced"
message_is open4 "$msg"
check $? "$name: one message, from rank 2" || { echo "    want: $msg"; show open4; }
[ "$(ls "$bad")" = "$(printf 'h-1.txt\nh-2.txt\nh-3.txt')" ] && [ "$(cat "$bad/h-1.txt")" = old ]
check $? "$name: no trace file written, rank 1's old file untouched" || ls -l "$bad" | sed 's/^/    /'

name="ranks 2 and 3 cannot open their trace files, GOALTRACE_STRICT=1"
run strict4 -np 4 -x LD_PRELOAD="$lib" -x GOALTRACE_DIR="$bad" -x GOALTRACE_PREFIX=h- \
	-x GOALTRACE_STRICT=1 "$B/examples/halo" 3 100
[ "$rc" -eq 1 ] && ! grep -q residual "$dir/strict4.out"
check $? "$name: every rank stops in MPI_Init (exit status 1)" || show strict4
msg="goaltrace: rank 2: cannot open $bad/h-2.txt: Is a directory (and 1 more rank); stopping (GOALTRACE_STRICT=1)"
message_is strict4 "$msg"
check $? "$name: one message, from rank 2" || { echo "    want: $msg"; show strict4; }

name="rank 0's folder cannot be made (a file is in its path; rank 1's exists)"
mkdir "$dir/ok"
echo x >"$dir/file"
run open2 -np 1 -x LD_PRELOAD="$lib" -x GOALTRACE_DIR="$dir/file/sub" "$B/examples/halo" 3 100 : \
	-np 1 -x LD_PRELOAD="$lib" -x GOALTRACE_DIR="$dir/ok" "$B/examples/halo" 3 100
[ "$rc" -eq 0 ] && grep -q '^residual .* on 2 ranks$' "$dir/open2.out" &&
	[ -z "$(ls "$dir/ok")" ]
check $? "$name: the job goes on untraced (exit status 0)" || show open2
msg="goaltrace: rank 0: cannot create the folder $dir/file/sub: Not a directory; no rank is traced"
message_is open2 "$msg"
check $? "$name: one message, from rank 0" || { echo "    want: $msg"; show open2; }

# A missing GOALTRACE_DIR is created with its parents, by every rank at once.
name="GOALTRACE_DIR is created with its parents"
run mkdir4 -np 4 -x LD_PRELOAD="$lib" -x GOALTRACE_DIR="$dir/new/a/b" "$B/examples/halo" 3 100
[ "$rc" -eq 0 ] && [ ! -s "$dir/mkdir4.err" ] &&
	[ "$(ls "$dir/new/a/b" | tr '\n' ' ')" = "pmpi-trace-rank-0.txt pmpi-trace-rank-1.txt pmpi-trace-rank-2.txt pmpi-trace-rank-3.txt " ]
check $? "$name: four trace files, nothing on stderr" || show mkdir4

# Records longer than the whole record buffer (1 MiB): Waitall, Testall and
# Waitsome over 50,000 requests on each of 2 ranks, 200,008 words and
# 1.2 MB of text per Waitall line; read back by trace_check and trace2goal.
name="records of 50000 requests"
mr=$dir/many
mkdir "$mr"
run many -np 2 -x LD_PRELOAD="$lib" -x GOALTRACE_DIR="$mr" -x GOALTRACE_BUFFER_MB=1 \
	"$B/examples/manyreq" 25000
[ "$rc" -eq 0 ] && grep -qx '50000 requests per Waitall on 2 ranks: ok' "$dir/many.out" &&
	[ ! -s "$dir/many.err" ]
check $? "$name: manyreq ran traced with a 1 MiB buffer" || show many
"$B/tests/trace_check" -k MPI_Waitall,MPI_Testall,MPI_Waitsome,MPI_Alltoallv \
	"$mr/pmpi-trace-rank-0.txt" "$mr/pmpi-trace-rank-1.txt" >"$dir/many.check"
check $? "$name: trace_check reads and checks the traces" || sed 's/^/    /' "$dir/many.check"
# each Waitall line: 50000 requests, 50000 handles, 150000 status values
got=$(awk -F: '/^MPI_Waitall:/ { n++; if ($3 == 50000 && split($4, h, ",") == 50000 &&
	split($5, s, ",") == 150000 && length($0) > 1048576) good++ }
	/^# flush:/ { f++ } END { print n + 0, good + 0, (f > 0) }' "$mr/pmpi-trace-rank-1.txt")
[ "$got" = "2 2 1" ]
check $? "$name: rank 1 has 2 whole Waitall lines, each longer than the buffer" ||
	echo "    Waitall lines, whole ones, flushed: $got (want 2 2 1)"
if [ -x "$B/bin/trace2goal" ]; then
	"$B/bin/trace2goal" --stats "$mr" -o "$dir/many.bin" >"$dir/t2g.out" 2>&1 &&
		grep -q '^ranks  *2$' "$dir/t2g.out"
	check $? "$name: trace2goal converts the traces" || sed 's/^/    /' "$dir/t2g.out" | head
else
	echo "ok - traces: $name: trace2goal converts the traces # SKIP $B/bin/trace2goal not built"
fi

# A Fortran program (tracer/examples/fring.f90, `use mpi`): Open MPI's
# Fortran library calls PMPI itself, so only the tracer's Fortran bindings
# (tracer/goaltrace_f.c) see its calls; they convert handles, statuses,
# MPI_IN_PLACE and MPI_STATUS_IGNORE, and the program still computes right.
name="a Fortran program traced"
if [ ! -x "$B/examples/fring" ]; then
	echo "ok - traces: $name # SKIP no mpif90 (Debian's gfortran and openmpi-bin)"
	exit $st
fi
fr=$dir/fortran
mkdir "$fr"
run fortran -np 4 -x LD_PRELOAD="$lib" -x GOALTRACE_DIR="$fr" -x GOALTRACE_PREFIX=f- "$B/examples/fring"
[ "$rc" -eq 0 ] && [ "$(cat "$dir/fortran.out")" = "sum    6.0 from status 3" ]
check $? "$name: it runs and computes right (MPI_IN_PLACE, a status from any source)" || show fortran
"$B/tests/trace_check" -k MPI_Init,MPI_Finalize,MPI_Isend,MPI_Irecv,MPI_Waitall,MPI_Send,MPI_Recv,MPI_Allreduce,MPI_Bcast,MPI_Comm_split,MPI_Barrier,MPI_Comm_free,MPI_Comm_rank,MPI_Comm_size,MPI_Iallreduce,MPI_Ibarrier \
	"$fr"/f-0.txt "$fr"/f-1.txt "$fr"/f-2.txt "$fr"/f-3.txt >"$dir/fortran.check"
check $? "$name: every call recorded, messages pair up, requests complete" ||
	sed 's/^/    /' "$dir/fortran.check"
# rank 0's receive from any source has the status of rank 3's message
grep -q '^MPI_Recv:[^:]*:[^:]*:1:11,8,8:-1:9:[^:]*:3,9,8:' "$fr/f-0.txt"
check $? "$name: the wildcard receive's status recorded" || grep '^MPI_Recv' "$fr/f-0.txt" | sed 's/^/    /'
if [ -x "$B/bin/trace2goal" ] && [ -x "$B/bin/loggopsim" ]; then
	"$B/bin/trace2goal" --strict "$fr" -o "$dir/fring.bin" >"$dir/fring.t2g" 2>&1 &&
		"$B/bin/loggopsim" -q "$dir/fring.bin" >>"$dir/fring.t2g" 2>&1
	check $? "$name: converted with --strict and simulated to completion" ||
		sed 's/^/    /' "$dir/fring.t2g" | head
fi

# Vector datatypes (tracer/examples/vector.c): a datatype field records the
# layout as ID,SIZE,EXTENT,STRIDE,BLOCK (a column of 16 doubles 64 bytes
# apart: size 128, extent 15 * 64 + 8 = 968; 4 pairs of ints 40 bytes
# apart: 32, 128, 40, 8), and trace2goal keeps it as the messages' strides.
name="vector datatypes traced"
vd=$dir/vector
mkdir "$vd"
run vector -np 2 -x LD_PRELOAD="$lib" -x GOALTRACE_DIR="$vd" -x GOALTRACE_PREFIX=v- \
	"$B/examples/vector"
[ "$rc" -eq 0 ] && [ ! -s "$dir/vector.err" ]
check $? "$name: the program ran" || show vector
got=$(grep -hE '^MPI_(Send|Recv|Bcast):' "$vd"/v-0.txt "$vd"/v-1.txt | cut -d: -f1,5 |
	sed 's/:[0-9]*,/:/' | tr '\n' ' ')
want="MPI_Send:128,968,64,8 MPI_Send:32,128,40,8 MPI_Bcast:128,968,64,8 MPI_Recv:128,968,64,8 MPI_Recv:32,128,40,8 MPI_Bcast:128,968,64,8 "
[ "$got" = "$want" ]
check $? "$name: size, extent, stride and block of each datatype" || echo "    got $got"
if [ -x "$B/bin/trace2goal" ]; then
	got=$("$B/bin/trace2goal" --strict "$vd" -o - 2>&1 | grep -E ': (send|recv) ' | sed 's/^l[0-9]*: //' | tr '\n' ';')
	want="send 128b to 1 tag 0 stride 64;send 32b to 1 tag 1 stride 40;send 128b to 1 tag 2 comm 1 stride 64;"
	want="${want}recv 128b from 0 tag 0 stride 64;recv 32b from 0 tag 1 stride 40;recv 128b from 0 tag 2 comm 1 stride 64;"
	[ "$got" = "$want" ]
	check $? "$name: trace2goal keeps the strides" || echo "    got $got"
fi

# A Fortran program nobody here wrote: MUMPS's dsimpletest (Debian
# mumps-test), on 2 ranks, solves its system and is traced in full.
name="MUMPS's dsimpletest (Fortran) traced"
mu=/usr/lib/mumps
if [ ! -x "$mu/dsimpletest" ] || [ ! -r "$mu/input_simpletest_real" ]; then
	echo "ok - traces: $name # SKIP mumps-test not installed"
	exit $st
fi
md=$dir/mumps
mkdir "$md"
run mumps -np 2 -x LD_PRELOAD="$lib" -x GOALTRACE_DIR="$md" -x GOALTRACE_PREFIX=mu- \
	"$mu/dsimpletest" <"$mu/input_simpletest_real"
[ "$rc" -eq 0 ] && grep -q 'Solution is *0\.99999' "$dir/mumps.out"
check $? "$name: it solves its system" || show mumps
# (trace_check pairs a wildcard Irecv by its own fields only, and dsimpletest
# completes one by MPI_Wait: the pairing is checked by trace2goal below)
"$B/tests/trace_check" -k MPI_Init,MPI_Finalize,MPI_Comm_dup,MPI_Comm_split,MPI_Allreduce,MPI_Bcast,MPI_Reduce,MPI_Iprobe,MPI_Isend \
	"$md"/mu-0.txt "$md"/mu-1.txt >"$dir/mumps.check"
grep -q '^ok - traces: every listed call recorded$' "$dir/mumps.check" &&
	grep -q '^ok - traces: members of each communicator call the same collectives$' "$dir/mumps.check"
check $? "$name: its calls recorded, collectives agree" || sed 's/^/    /' "$dir/mumps.check"
if [ -x "$B/bin/trace2goal" ] && [ -x "$B/bin/loggopsim" ]; then
	"$B/bin/trace2goal" --strict "$md" -o "$dir/mumps.bin" >"$dir/mumps.t2g" 2>&1 &&
		"$B/bin/loggopsim" -q "$dir/mumps.bin" >>"$dir/mumps.t2g" 2>&1
	check $? "$name: converted with --strict (every message paired) and simulated" ||
		sed 's/^/    /' "$dir/mumps.t2g" | head
fi
exit $st
