#!/usr/bin/env bash
# Tests of trace2goal: golden conversions of hand-written traces (goaltrace
# and liballprof dialects), warnings and errors (exact text), --strict,
# --compute-scale, --extrapolate, binary output, every schedule simulated to
# completion; the binary formats (tests/trace2goal/formats.sh); then the
# test MPI program tracer/examples/halo.c run with mpirun, traced, converted
# and simulated (skipped without mpicc/mpirun).
# Usage: tests/trace2goal/run.sh BUILD_DIR      (T2G_UPDATE=1 rewrites goldens)
set -u
B=$(cd "${1:-build}" && pwd) || exit 2
cd "$(dirname "$0")/../.." || exit 2
T2G=$B/bin/trace2goal
SIM=$B/bin/loggopsim
GOALC=$B/bin/goalc
C=tests/trace2goal/cases
st=0
for f in "$T2G" "$SIM" "$GOALC"; do
	if [ ! -x "$f" ]; then
		echo "not ok - trace2goal: $f not built"
		exit 1
	fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { echo "ok - trace2goal: $1"; }
fail() {
	echo "not ok - trace2goal: $1"
	shift
	for l in "$@"; do echo "    $l"; done
	st=1
}

# same NAME GOT WANT: the files are identical (T2G_UPDATE=1: copy GOT to WANT)
same() {
	if [ "${T2G_UPDATE:-0}" = 1 ]; then cp "$2" "$3"; fi
	if cmp -s "$2" "$3"; then
		ok "$1"
	else
		fail "$1" "$(diff "$3" "$2" | head -10)"
	fi
}

# golden NAME WANT_STATUS ARGS...: trace2goal --select none ARGS (the
# classes' own patterns, which --list names); stdout must equal
# $C/NAME.goal, stderr $C/NAME.err (empty if that file does not exist).
golden() {
	local name=$1 want=$2
	shift 2
	"$T2G" --select none "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
	local got=$?
	if [ "$got" -ne "$want" ]; then
		fail "$name: exit status $want" "got $got" "$(head -3 "$tmp/$name.err")"
		return
	fi
	if [ "$want" -eq 0 ]; then
		same "$name: schedule" "$tmp/$name.out" "$C/$name.goal"
	fi
	if [ -e "$C/$name.err" ] || { [ "${T2G_UPDATE:-0}" = 1 ] && [ -s "$tmp/$name.err" ]; }; then
		same "$name: messages" "$tmp/$name.err" "$C/$name.err"
	elif [ -s "$tmp/$name.err" ]; then
		fail "$name: no messages" "$(head -3 "$tmp/$name.err")"
	else
		ok "$name: no messages"
	fi
}

# expect NAME STATUS MESSAGE ARGS...: exit status and exact stderr (status
# 2, a usage error, adds the Try line)
expect() {
	local name=$1 want=$2 msg=$3
	shift 3
	[ "$want" = 2 ] && msg="$msg"$'\n'"Try 'trace2goal --help'."
	"$T2G" "$@" >/dev/null 2>"$tmp/err"
	local got=$?
	if [ "$got" -eq "$want" ] && [ "$(cat "$tmp/err")" = "$msg" ]; then
		ok "$name"
	else
		fail "$name" "status $got (want $want)" "got:  $(head -2 "$tmp/err")" "want: $msg"
	fi
}

# simulates NAME FILE: the schedule runs to completion (every op started,
# every message matched)
simulates() {
	if "$SIM" -q "$2" >"$tmp/sim.out" 2>&1 && grep -q '^Maximum finishing time' "$tmp/sim.out"; then
		ok "$1: loggopsim completes"
	else
		fail "$1: loggopsim completes" "$(tail -5 "$tmp/sim.out")"
	fi
}

# ---- golden conversions ----------------------------------------------------
golden p2p 0 $C/p2p/rank-1.txt $C/p2p/rank-0.txt
simulates p2p "$tmp/p2p.out"
golden lap 0 $C/lap
simulates lap "$tmp/lap.out"
golden coll 0 $C/coll
simulates coll "$tmp/coll.out"
# the default: each allreduce, bcast and reduce as Open MPI runs it for its
# communicator and bytes
golden coll-openmpi 0 --select openmpi $C/coll
simulates coll-openmpi "$tmp/coll-openmpi.out"
# --select mpich: MPICH's (its Rabenseifner for the 16-byte allreduce of 2
# ranks, its binomial broadcast)
golden coll-mpich 0 --select mpich $C/coll
simulates coll-mpich "$tmp/coll-mpich.out"
# --gamma: every reducing step of those collectives is followed by a calc
# of 0.25 ns a byte; --params takes it from a parameter file
golden coll-gamma 0 --select openmpi --gamma 0.25 $C/coll
simulates coll-gamma "$tmp/coll-gamma.out"
printf 'loggp-params 1\ngamma 0.25\nrange 0 inf L=1 o=1 g=1 G=0 O=0\n' >"$tmp/g.params"
"$T2G" --select openmpi --params "$tmp/g.params" $C/coll >"$tmp/coll-params.out" 2>&1
same "coll: --params gives --gamma" "$tmp/coll-params.out" "$C/coll-gamma.goal"
# vector datatypes (goaltrace: ID,SIZE,EXTENT,STRIDE,BLOCK): the messages
# keep their layout as GOAL strides, each side its own datatype's (a
# Sendrecv's second datatype is its receive side's), and every message of
# a collective the stride of its datatype
golden vector 0 $C/vector
simulates vector "$tmp/vector.out"
sed 's/^MPI_Send:15.000:1:2:12345,512,4040,64,8:/MPI_Send:15.000:1:2:12345,512,4040,8,16:/' \
	$C/vector/rank-0.txt >"$tmp/badvec.txt"
expect "a vector datatype whose stride is below its block" 1 \
	"$tmp/badvec.txt:7:36: error: datatype stride 8 and block 16: 1 <= block <= stride <= 2147483648" \
	"$tmp/badvec.txt" $C/vector/rank-1.txt
golden p2p-x3 0 --extrapolate 3 -q $C/p2p
simulates p2p-x3 "$tmp/p2p-x3.out"
golden coll-x2 0 -x 2 $C/coll
simulates coll-x2 "$tmp/coll-x2.out"
# A linear pattern on more than 64 ranks: one warning per class, naming
# --coll (here alltoall's linear default on 4 x 17 = 68 ranks); at 64, none.
expect "a linear alltoall on 68 ranks is named" 0 "trace2goal: warning: alltoall runs as alltoall_linear on a communicator of 68 ranks: 67 messages at one rank a call, slow to simulate; --coll alltoall=PATTERN chooses another (trace2goal --list)" -x 17 $C/coll
expect "a linear alltoall on 64 ranks: no warning" 0 "" -x 16 $C/coll
# Extrapolated point-to-point traffic stays in its copy: said once.
expect "extrapolated point-to-point messages stay in their copies" 0 "$C/p2p/rank-0.txt:14:1: warning: rank 0: MPI_Foo is not supported; skipped, its time counts as computation
$C/p2p/rank-1.txt:14:1: warning: rank 1: MPI_Foo is not supported; skipped, its time counts as computation
trace2goal: warning: --extrapolate 3 keeps the traced point-to-point messages inside each copy of the 2 traced ranks (a ring becomes 3 rings; docs/trace2goal.md, Extrapolation); only collectives span all 6 ranks" -x 3 $C/p2p
# each copy's sub-communicators are its own: every message in the comms
# of the split and duplicated communicators (not 0 and 1, the world's)
# stays inside its copy of 4 ranks, while the world's collectives, grown to
# 8 ranks, cross copies
got=$(awk '/^rank /{r=$2} / (send|recv) /{c=0; for(i=1;i<=NF;i++) if($i=="comm") c=$(i+1)
	q=$5; if (c > 1) { n++; if (int(q/4) != int(r/4)) bad++ } else if (c == 1 && int(q/4) != int(r/4)) x++ }
	END { printf "%d %d %d", n, bad, (x > 0) }' "$tmp/coll-x2.out")
if [ "$got" = "24 0 1" ]; then
	ok "coll-x2: the sub-communicators' 24 messages stay in their copy, the world's cross"
else
	fail "coll-x2: the sub-communicators' 24 messages stay in their copy, the world's cross" \
		"got (messages, crossing, world crosses) $got"
fi
golden coll-ring 0 --coll allreduce=allreduce_ring --coll alltoallv=alltoall_linear \
	--coll bcast=bcast_chain $C/coll
simulates coll-ring "$tmp/coll-ring.out"

# Contexts: rank 0 posts an Irecv from any source with any tag (liballprof:
# it stays a wildcard) before a barrier; rank 1 sends after the barrier.
# The barrier is in the world's collective context (comm 1), the Irecv and
# the send in its point-to-point context (comm 0). Default parameters: each
# barrier message leaves at 0, arrives at o+L = 4000 and completes its
# receive at 4000+o = 5500; rank 1's send of 8 bytes starts at 5500 (done at
# 5500+o = 7000), arrives at 9500 and completes the Irecv at 9500+o+7G = 11042.
golden wild 0 $C/wild
"$SIM" -q "$tmp/wild.out" 2>&1 | grep '^Host' >"$tmp/got"
printf '%s\n' "Host 0: 11042" "Host 1: 7000" >"$tmp/want"
same "wild: simulated times" "$tmp/got" "$tmp/want"
# one_context NAME SCHEDULE LINE...: the schedule with its comms removed
# leaves a rank stuck, with exactly these messages (and exit status 1)
one_context() {
	local name=$1 f=$2
	shift 2
	sed -E 's/ comm [0-9]+$//' "$f" >"$tmp/one.goal"
	"$SIM" -q "$tmp/one.goal" >/dev/null 2>"$tmp/got"
	echo "exit $?" >>"$tmp/got"
	printf '%s\n' "$@" "exit 1" >"$tmp/want"
	same "$name: in one context the wildcard takes the barrier's message" "$tmp/got" "$tmp/want"
}
# in one context the Irecv takes rank 1's barrier message, and rank 0's
# barrier receive waits forever
one_context wild "$tmp/wild.out" \
	"loggopsim: error: incomplete run: 1 of 2 ranks stuck, 0 of 6 ops never started" \
	"rank 0: receive l3 from 1 tag 0 never matched" \
	"rank 0: message from 1 tag 1 (8 bytes, send l3) never received"

# Nonblocking collectives (goaltrace): rank 0 starts an Ibcast (root, 100
# bytes), an Irecv from any source with any tag whose Waitall keeps no
# status (so it stays a wildcard) and an Ibarrier, then computes 10 us; rank
# 1 starts the Ibcast and the Ibarrier, computes 1 us, sends 8 bytes, and
# completes them by Wait and a Test loop. Each pattern's ops start from the
# program position; what follows waits until they have started; the
# completions wait for their last ops. Default parameters: rank 0's barrier
# send waits for the NIC (busy with the 100 bytes until g+99G = 1594), so
# its calc runs 3094..13094 (after that send's o); rank 1's barrier message
# (arrived 4000) is handled 13094..14594 and takes the barrier receive, not
# the wildcard, which takes the 8 bytes (arrived 6500) at 14594..16136 (o +
# 7G). Rank 1 handles the bcast message at 4000..6094, rank 0's barrier
# message at 6094..7594, then its last calc, which waits for the bcast,
# 7594..8594.
golden nbc 0 --strict $C/nbc
"$SIM" -q "$tmp/nbc.out" 2>&1 | grep '^Host' >"$tmp/got"
printf '%s\n' "Host 0: 16136" "Host 1: 8594" >"$tmp/want"
same "nbc: simulated times" "$tmp/got" "$tmp/want"
one_context nbc "$tmp/nbc.out" \
	"loggopsim: error: incomplete run: 1 of 2 ranks stuck, 1 of 15 ops never started" \
	"rank 0: 1 op never started: l5" "rank 0: receive l4 from 1 tag 1 never matched" \
	"rank 0: message from 1 tag 2 (8 bytes, send l7) never received"

# A communicator handle reused after its communicator is gone (rank 0
# defines handle 10 twice, rank 1 uses handles 20 and 30): the second
# communicator's nonblocking collectives count from the first again, so
# both ranks give its Ibarrier the same round tags and the run completes.
"$T2G" --strict $C/reuse >"$tmp/reuse.goal" 2>"$tmp/reuse.err"
"$SIM" -q "$tmp/reuse.goal" 2>&1 | grep '^Host' >"$tmp/got"
printf '%s\n' "Host 0: 11000" "Host 1: 11000" >"$tmp/want"
same "a reused communicator handle: its nonblocking collectives match" "$tmp/got" "$tmp/want"

# A Wait and a Test of MPI_REQUEST_NULL (request 0) complete nothing, also
# with --strict: the nbc schedule is unchanged
mkdir "$tmp/null"
cp $C/nbc/rank-0.txt "$tmp/null/"
sed -e 's/^MPI_Wait:2.000:600:/MPI_Wait:2.000:0:-1,-1,0:2.000\n&/' \
	-e 's/^MPI_Test:3.000:601:1:/MPI_Test:3.000:0:1:-1,-1,0:3.000\n&/' $C/nbc/rank-1.txt >"$tmp/null/rank-1.txt"
"$T2G" --strict "$tmp/null" >"$tmp/null.goal" 2>"$tmp/null.err"
if [ "$(grep -cE '^MPI_(Wait|Test):[0-9.]+:0:' "$tmp/null/rank-1.txt")" = 2 ] && [ ! -s "$tmp/null.err" ] &&
	cmp -s "$tmp/null.goal" $C/nbc.goal; then
	ok "Wait and Test of MPI_REQUEST_NULL complete nothing (--strict)"
else
	fail "Wait and Test of MPI_REQUEST_NULL complete nothing (--strict)" "$(head -3 "$tmp/null.err")"
fi

# The recorder's buffer writes ('# flush: START END') are not the program's
# time.  As goaltrace writes them, a flush line comes before the record of
# the call after which the flush happened: 0.3 us after rank 0's Irecv
# (20-21 us) leave 0.2 us of the 0.5 us before its Isend, and 2 us after
# its second Isend (22 us) turn the calc of 8 us before its Waitall into
# 6 us; rank 0's traced time is 50 - 2.3 = 47.7 us
mkdir "$tmp/flush"
cp $C/p2p/rank-1.txt "$tmp/flush/"
sed -e 's/^MPI_Irecv:20.000:/# flush: 21.100 21.400\n&/' \
	-e 's/^MPI_Isend:22.000:/# flush: 23.000 25.000\n&/' $C/p2p/rank-0.txt >"$tmp/flush/rank-0.txt"
"$T2G" -q --stats "$tmp/flush" >"$tmp/flush.goal" 2>"$tmp/flush.err"
a=$(awk '/^rank 0/{r=1} /^rank 1/{r=0} r && /calc/{printf "%s ", $3}' "$tmp/flush.goal")
b=$(awk '/^traced time/{print $3}' "$tmp/flush.err")
if [ "$a" = "5000 4000 200 6000 1000 8000 9000 " ] && [ "$b" = 47700 ]; then
	ok "# flush lines: the recorder's time is not computation"
else
	fail "# flush lines: the recorder's time is not computation" "calcs $a" "traced $b"
fi

# --strict: the first unsupported call is an error
golden p2p-strict 1 --strict $C/p2p

# A trace whose messages do not balance (a receive and a send cut out of
# rank 1): a warning, an error with --strict; an empty trace is an error.
mkdir "$tmp/lost" "$tmp/empty"
cp $C/p2p/rank-0.txt "$tmp/lost/"
grep -v -e '^MPI_Recv:13.000' -e '^MPI_Send:19.000' -e '^MPI_Foo' $C/p2p/rank-1.txt >"$tmp/lost/rank-1.txt"
"$T2G" "$tmp/lost" 2>&1 >/dev/null | tail -1 >"$tmp/got"
echo "warning: 1 send has no receive to match it (rank 0 to rank 1, for one), and 1 receive has no send to match it; the simulation will not complete" >"$tmp/want"
same "unmatched messages: a warning" "$tmp/got" "$tmp/want"
grep -v '^MPI_Foo' "$tmp/lost/rank-0.txt" >"$tmp/r0" && mv "$tmp/r0" "$tmp/lost/rank-0.txt"
"$T2G" --strict "$tmp/lost" >/dev/null 2>"$tmp/got"
echo "exit $?" >>"$tmp/got"
printf '%s\n' "trace2goal: error: 1 send has no receive to match it (rank 0 to rank 1, for one), and 1 receive has no send to match it (--strict)" "exit 1" >"$tmp/want"
same "unmatched messages: an error with --strict" "$tmp/got" "$tmp/want"
# a send and a receive between the same ranks, but on two communicators
# (the world and its duplicate), do not balance
mkdir "$tmp/ctx"
printf '%s\n' "# goaltrace trace format 1" "# rank: 0" "# size: 2" "MPI_Init:0.000:1:2:1.000" \
	"# comm:10:0,1" "MPI_Comm_dup:1.000:10,0,2:20:2.000" "# comm:20:0,1" \
	"MPI_Send:3.000:1:1:13,1,1:1:0:10,0,2:4.000" "MPI_Finalize:5.000:6.000" >"$tmp/ctx/r-0.txt"
printf '%s\n' "# goaltrace trace format 1" "# rank: 1" "# size: 2" "MPI_Init:0.000:1:2:1.000" \
	"# comm:10:0,1" "MPI_Comm_dup:1.000:10,1,2:20:2.000" "# comm:20:0,1" \
	"MPI_Recv:3.000:1:1:13,1,1:0:0:20,1,2:0,0,1:4.000" "MPI_Finalize:5.000:6.000" >"$tmp/ctx/r-1.txt"
"$T2G" "$tmp/ctx" 2>&1 >/dev/null | tail -1 >"$tmp/got"
echo "warning: 1 send has no receive to match it (rank 0 to rank 1, for one), and 1 receive has no send to match it; the simulation will not complete" >"$tmp/want"
same "unmatched messages: a send and a receive on two communicators" "$tmp/got" "$tmp/want"
cp "$tmp/lost/rank-0.txt" "$tmp/empty/"
: >"$tmp/empty/rank-1.txt"
"$T2G" "$tmp/empty" >/dev/null 2>"$tmp/got"
echo "exit $?" >>"$tmp/got"
printf '%s\n' "$tmp/empty/rank-1.txt: error: no MPI call in the trace (an empty or cut file)" "exit 1" >"$tmp/want"
same "an empty trace file is an error" "$tmp/got" "$tmp/want"

# --compute-scale: every calc of the scaled schedule is 2.5 times the
# unscaled one (rounded half up), everything else is equal
"$T2G" -q $C/p2p >"$tmp/s1.goal" && "$T2G" -q --compute-scale 2.5 $C/p2p >"$tmp/s2.goal"
if awk 'NR == FNR { a[FNR] = $0; next }
	{ split(a[FNR], x, " "); split($0, y, " ")
	  if (x[2] == "calc") { if (y[2] != "calc" || y[3] != int(x[3] * 2.5 + 0.5)) exit 1 }
	  else if (a[FNR] != $0) exit 1 }
	END { if (FNR != length(a)) exit 1 }' "$tmp/s1.goal" "$tmp/s2.goal" &&
	grep -q '^l14: calc 22500$' "$tmp/s2.goal"; then
	ok "--compute-scale 2.5 scales every calc and nothing else"
else
	fail "--compute-scale 2.5 scales every calc and nothing else" "$(diff "$tmp/s1.goal" "$tmp/s2.goal" | head -6)"
fi
"$T2G" -q --compute-scale 0 $C/p2p >"$tmp/s0.goal"
n=$(grep -c ': calc [1-9]' "$tmp/s0.goal")
if [ "$n" -eq 0 ] && grep -q ': send' "$tmp/s0.goal"; then
	ok "--compute-scale 0 leaves no computation"
else
	fail "--compute-scale 0 leaves no computation" "$n calcs"
fi

# --extrapolate: copy j of traced rank r is rank j*N+r; its point-to-point
# ops are those of rank r with peers renamed
"$T2G" -q -x 3 --select none $C/p2p >"$tmp/x3.goal"
awk '/^rank /{r=$2} r==4 && /: (send|recv) 16b/' "$tmp/x3.goal" >"$tmp/x3-r4"
awk '/^rank /{r=$2} r==0 && /: (send|recv) 16b/' "$tmp/x3.goal" |
	sed -E 's/(to|from) 1 /\1 5 /' >"$tmp/x3-r0"
if [ "$(grep -c '^num_ranks 6$' "$tmp/x3.goal")" = 1 ] && [ -s "$tmp/x3-r0" ] &&
	cmp -s "$tmp/x3-r0" "$tmp/x3-r4"; then
	ok "--extrapolate 3: rank 4 sends and receives as rank 0, peers renamed"
else
	fail "--extrapolate 3: rank 4 sends and receives as rank 0, peers renamed" \
		"$(diff "$tmp/x3-r0" "$tmp/x3-r4" | head -4)"
fi
# the world barrier is regenerated for 6 ranks: dissemination (--select
# none), 3 rounds, in the world's collective context (comm 1)
n=$(awk '/^rank /{r=$2} r==4 && /send 0b/' "$tmp/x3.goal" | tr '\n' ' ')
if [ "$n" = "l12: send 0b to 5 tag 4 comm 1 l14: send 0b to 0 tag 5 comm 1 l16: send 0b to 2 tag 6 comm 1 " ]; then
	ok "--extrapolate 3: barrier of 6 ranks at rank 4"
else
	fail "--extrapolate 3: barrier of 6 ranks at rank 4" "got $n"
fi

# binary output: the same schedule as the text compiled
"$T2G" -q -o "$tmp/p2p.bin" $C/p2p && "$GOALC" "$tmp/s1.goal" -o "$tmp/s1.bin"
if cmp -s "$tmp/p2p.bin" "$tmp/s1.bin"; then
	ok "-o FILE.bin writes the binary of the text schedule"
else
	fail "-o FILE.bin writes the binary of the text schedule"
fi

# determinism
"$T2G" -q $C/coll >"$tmp/d1" && "$T2G" -q $C/coll >"$tmp/d2"
if cmp -s "$tmp/d1" "$tmp/d2"; then ok "same input, same output"; else fail "same input, same output"; fi

# --stats
"$T2G" -q --stats $C/p2p -o "$tmp/st.goal" >"$tmp/st" 2>&1
if [ "$(grep -E '^(ops|traced time|calc time|skipped calls) ' "$tmp/st" | tr -s ' ' | tr '\n' '|')" = \
	"ops 28|skipped calls 3|calc time 68050 ns|traced time 50000 ns|" ]; then
	ok "--stats figures"
else
	fail "--stats figures" "$(cat "$tmp/st")"
fi

# --stats: the skipped calls by function
"$T2G" -q --stats $C/p2p -o "$tmp/st.goal" >"$tmp/st" 2>&1
if [ "$(grep -A1 '^skipped calls' "$tmp/st" | tr -s ' ' | tr '\n' '|')" = "skipped calls 3| MPI_Foo 3|" ]; then
	ok "--stats: skipped calls by function"
else
	fail "--stats: skipped calls by function" "$(cat "$tmp/st")"
fi

# rank 0's file alone: the others found by its name (the rank number
# replaced), the world size from the trace; the same schedule as all files
"$T2G" -q $C/p2p/rank-0.txt >"$tmp/a.goal" 2>&1
same "p2p from rank 0's file alone ('# size' line)" "$tmp/a.goal" $C/p2p.goal
"$T2G" -q --select none $C/lap/pmpi-trace-rank-0.txt >"$tmp/a.goal" 2>&1
same "lap from rank 0's file alone (liballprof: the largest communicator)" "$tmp/a.goal" $C/lap.goal
# files named *.dat: from the folder (other files ignored) and from rank 0's
mkdir "$tmp/dat"
for f in $C/lap/*.txt; do b=$(basename "$f" .txt); cp "$f" "$tmp/dat/$b.dat"; done
echo "not a trace" >"$tmp/dat/README"
echo "a program's input" >"$tmp/dat/QR.dat"
"$T2G" -q --select none "$tmp/dat" >"$tmp/a.goal" 2>&1
same "lap from a folder of *.dat files" "$tmp/a.goal" $C/lap.goal
"$T2G" -q --select none "$tmp/dat/pmpi-trace-rank-0.dat" >"$tmp/a.goal" 2>&1
same "lap from rank 0's .dat file alone" "$tmp/a.goal" $C/lap.goal

# A communicator without member list (liballprof) smaller than the world:
# its calls are skipped with a warning and counted; --strict fails on them
mkdir -p "$tmp/sub"
for r in 0 1 2; do
	{
		echo "MPI_Init:-:1:2:0"
		echo "MPI_Barrier:1:5,$r,3:2"
		[ $r -lt 2 ] && echo "MPI_Barrier:3:9,$r,2:4" && echo "MPI_Barrier:5:9,$r,2:6"
		echo "MPI_Finalize:7:8"
	} >"$tmp/sub/t-$r.txt"
done
"$T2G" --stats "$tmp/sub" -o "$tmp/sub.goal" >"$tmp/got" 2>&1
grep -e warning -e '^skipped' -e '^  MPI_' "$tmp/got" | tr -s ' ' >"$tmp/got2"
printf '%s\n' "$tmp/sub/t-0.txt:3:1: warning: rank 0: communicator 9 (2 ranks) has no member list ('# comm' line); its calls are skipped" \
	"$tmp/sub/t-1.txt:3:1: warning: rank 1: communicator 9 (2 ranks) has no member list ('# comm' line); its calls are skipped" \
	"skipped calls 4" " MPI_Barrier 4" >"$tmp/want"
same "a communicator without members: skipped, counted by function" "$tmp/got2" "$tmp/want"
expect "--strict: a call on a communicator without members is an error" 1 \
	"$tmp/sub/t-0.txt:3:1: error: rank 0: MPI_Barrier on communicator 9 (2 ranks), which has no member list ('# comm' line) (--strict)" \
	--strict "$tmp/sub"
# --strict: a completion of a request no traced call started
mkdir -p "$tmp/req"
printf '%s\n' "MPI_Init:-:1:2:0" "MPI_Barrier:1:5,0,2:2" "MPI_Wait:3:4444:99:4" "MPI_Finalize:5:6" >"$tmp/req/t-0.txt"
printf '%s\n' "MPI_Init:-:1:2:0" "MPI_Barrier:1:5,1,2:2" "MPI_Finalize:5:6" >"$tmp/req/t-1.txt"
expect "--strict: a request no traced call started is an error" 1 \
	"$tmp/req/t-0.txt:3:1: error: rank 0: MPI_Wait completes request 4444 that no traced call started (--strict)" \
	--strict "$tmp/req"

# The request size of liballprof traces, detected: rank 0 posts two Irecvs
# whose request variables are 4 bytes apart (MPICH) and completes them
# with one Waitall; the schedule is that of --request-size 4, and with 8
# the second request is not found
mkdir -p "$tmp/rs"
printf '%s\n' "MPI_Init:-:1:2:0" "MPI_Irecv:1:2:3:1,4,4:1:5:0,0,2:1000:2" \
	"MPI_Irecv:2:2:3:1,4,4:1:6:0,0,2:1004:3" "MPI_Waitall:3:2:1000:200:4" \
	"MPI_Finalize:5:6" >"$tmp/rs/t-0.txt"
printf '%s\n' "MPI_Init:-:1:2:0" "MPI_Send:1:2:3:1,4,4:0:5:0,1,2:2" \
	"MPI_Send:2:2:3:1,4,4:0:6:0,1,2:3" "MPI_Finalize:5:6" >"$tmp/rs/t-1.txt"
"$T2G" --stats "$tmp/rs" -o "$tmp/rs.goal" >"$tmp/rs.err" 2>&1 &&
	"$T2G" --request-size 4 "$tmp/rs" -o "$tmp/rs4.goal" 2>/dev/null
if cmp -s "$tmp/rs.goal" "$tmp/rs4.goal" && grep -q '^request size   4 bytes$' "$tmp/rs.err" &&
	! grep -q warning "$tmp/rs.err"; then
	ok "request size detected: 4 (MPICH), as --request-size 4"
else
	fail "request size detected: 4 (MPICH), as --request-size 4" "$(head -3 "$tmp/rs.err")"
fi
"$T2G" --request-size 8 "$tmp/rs" -o /dev/null 2>"$tmp/got"
echo "$tmp/rs/t-0.txt:4:1: warning: rank 0: MPI_Waitall completes request 1008 that no traced call started; ignored" >"$tmp/want"
same "--request-size 8 overrides the detection" "$tmp/got" "$tmp/want"

# 200,000 communicators on one rank (found by handle, not by a scan of the
# ones before: it took 25 s; the timeout only guards against a hang)
awk 'BEGIN { print "MPI_Init:-:1:2:0"; for (i = 0; i < 200000; i++) print "# comm:" i + 100 ":0";
	print "MPI_Barrier:1:199999,0,1:2"; print "MPI_Finalize:3:4" }' >"$tmp/comms.txt"
if timeout 300 "$T2G" -q "$tmp/comms.txt" -o "$tmp/comms.goal"; then
	ok "200,000 communicators converted"
else
	fail "200,000 communicators converted"
fi

# 100,000 pending requests completed newest first, each found by its id
# (it took 5 s; the timeout only guards against a hang)
awk 'BEGIN { print "# goaltrace trace format 1"; print "MPI_Init:-:1:2:0";
	for (i = 1; i <= 100000; i++) print "MPI_Isend:1:0:1:1,1,1:0:0:5,0,1:" i ":1";
	for (i = 100000; i >= 1; i--) print "MPI_Wait:2:" i ":0,0,0:2"; print "MPI_Finalize:3:4" }' >"$tmp/reqs.txt"
if timeout 300 "$T2G" -q "$tmp/reqs.txt" -o "$tmp/reqs.goal" &&
	[ "$(grep -c ': send 1b to 0 ' "$tmp/reqs.goal")" = 100000 ]; then
	ok "100,000 pending requests converted"
else
	fail "100,000 pending requests converted"
fi

# ---- errors -------------------------------------------------------------------
mkdir -p "$tmp/e"
printf '# goaltrace trace format 1\n# rank: 0\n# size: 2\nMPI_Init:0:1:2:1\n# comm:5:0,1\nMPI_Send:2:1:1:13,1,1:5:0:5,0,2:3\n' >"$tmp/e/peer-0.txt"
printf '# goaltrace trace format 1\n# rank: 1\n# size: 2\nMPI_Init:0:1:2:1\nMPI_Send:2:1:x:13,1,1:0:0:5,1,2:3\n' >"$tmp/e/peer-1.txt"
expect "error: peer outside the communicator" 1 \
	"$tmp/e/peer-0.txt:6:1: error: rank 0: MPI_Send to rank 5 of a communicator of 2 ranks" \
	"$tmp/e/peer-0.txt" "$tmp/e/peer-1.txt"
cp "$tmp/e/peer-1.txt" "$tmp/e/bad-1.txt"
sed 's/:5:0:5,0,2:/:1:0:5,0,2:/' "$tmp/e/peer-0.txt" >"$tmp/e/bad-0.txt"
expect "error: bad trace line (reader's file:line:col)" 1 \
	"$tmp/e/bad-1.txt:5:14: error: expected an integer, found 'x'" "$tmp/e/bad-0.txt" "$tmp/e/bad-1.txt"
expect "error: a rank missing" 1 \
	"trace2goal: error: no trace of rank 0 among the 1 files given" $C/p2p/rank-1.txt
expect "error: two files of one rank" 1 \
	"trace2goal: error: two traces of rank 1: $C/p2p/rank-1.txt and $C/p2p/rank-1.txt" \
	$C/p2p/rank-0.txt $C/p2p/rank-1.txt $C/p2p/rank-1.txt
# rank 0's file alone: the others must be next to it
mkdir -p "$tmp/alone"
cp $C/p2p/rank-0.txt "$tmp/alone/"
expect "error: rank 0's file alone, rank 1's missing ('# size' line)" 1 \
	"$tmp/alone/rank-0.txt:3:1: error: the trace is of a run on 2 ranks, but there is no trace of rank 1: $tmp/alone/rank-1.txt: No such file or directory" \
	"$tmp/alone/rank-0.txt"
cp $C/p2p/rank-0.txt "$tmp/alone/run.txt"
expect "error: rank 0's file alone, no rank number in its name" 1 \
	"$tmp/alone/run.txt:3:1: error: the trace is of a run on 2 ranks, but only this file was given and its name has no rank number 0 before '.txt' or '.dat' to find the others by" \
	"$tmp/alone/run.txt"
# liballprof: the world size is that of the largest communicator (line 2)
mkdir -p "$tmp/alone2"
cp $C/lap/pmpi-trace-rank-0.txt "$tmp/alone2/"
expect "error: liballprof rank 0's file alone, rank 1's missing" 1 \
	"$tmp/alone2/pmpi-trace-rank-0.txt:2:1: error: the trace is of a run on 2 ranks, but there is no trace of rank 1: $tmp/alone2/pmpi-trace-rank-1.txt: No such file or directory" \
	"$tmp/alone2/pmpi-trace-rank-0.txt"
# a communicator larger than the traces found: an error, not a skip
expect "error: a communicator larger than the traces given" 1 \
	"$tmp/alone2/pmpi-trace-rank-0.txt:3:1: error: rank 0: MPI_Isend on a communicator of 2 ranks, but only 1 trace file was given: no trace of rank 1" \
	"$tmp/alone2"
expect "error: missing file" 1 "$tmp/none.txt: error: cannot open: No such file or directory" \
	"$tmp/none.txt"
expect "bad option: --extrapolate 0" 2 \
	"trace2goal: error: --extrapolate wants a whole number of at least 1 (got '0')" -x 0 $C/p2p
expect "bad option: unknown class" 2 \
	"trace2goal: error: unknown collective class 'bcst' (see --list)" --coll bcst=bcast_binary $C/p2p
expect "bad option: unknown pattern" 2 \
	"trace2goal: error: unknown pattern 'star' (see --list)" --coll bcast=star $C/p2p
expect "bad option: --compute-scale" 2 \
	"trace2goal: error: --compute-scale wants a number of at least 0 (got '-1')" --compute-scale -1 $C/p2p
expect "bad option: -s (not the compute scale any more)" 2 \
	"trace2goal: error: -s is not an option of trace2goal (in schedgen and loggops-model it gives the ranks): the computation's scale is --compute-scale X" -s 0.5 $C/p2p
expect "bad option: unknown" 2 "trace2goal: error: unknown option '--frobnicate'" \
	--frobnicate $C/p2p
expect "no trace files" 2 "trace2goal: error: no trace files"
if "$T2G" --help | grep -q '^usage: trace2goal'; then ok "--help"; else fail "--help"; fi

# ---- a public trace (../shared, README there) ------------------------------
# Sweep3D on 4 ranks (liballprof): Send/Recv on the world, Allreduce, Barrier
# and Bcast; no wildcard, so the contexts do not change its simulated time
SW=../shared/traces/sweep3d-2x2
if [ ! -d "$SW" ]; then
	echo "ok - trace2goal: sweep3d-2x2 converted and simulated # SKIP $SW absent"
elif "$T2G" --strict "$SW" -o "$tmp/sw.bin" 2>"$tmp/sw.err" && [ ! -s "$tmp/sw.err" ]; then
	"$SIM" -q "$tmp/sw.bin" 2>&1 | grep '^Maximum' >"$tmp/got"
	echo "Maximum finishing time at host 0: 42442538076 (42.442538076 s)" >"$tmp/want"
	same "sweep3d-2x2: simulated time (Open MPI's algorithms)" "$tmp/got" "$tmp/want"
	# from rank 0's file alone (the published converter's way): the same
	if "$T2G" --strict "$SW/pmpi-trace-rank-0.txt" -o "$tmp/sw0.bin" 2>"$tmp/sw0.err" &&
		[ ! -s "$tmp/sw0.err" ] && cmp -s "$tmp/sw.bin" "$tmp/sw0.bin"; then
		ok "sweep3d-2x2: from rank 0's file alone with --strict, the same schedule"
	else
		fail "sweep3d-2x2: from rank 0's file alone with --strict, the same schedule" "$(head -3 "$tmp/sw0.err")"
	fi
	# three of the four files: an error naming the missing one
	mkdir -p "$tmp/sw3"
	cp "$SW"/pmpi-trace-rank-[012].txt "$tmp/sw3/"
	expect "sweep3d-2x2: rank 3's file missing (rank 0's file alone)" 1 \
		"$tmp/sw3/pmpi-trace-rank-0.txt:7:1: error: the trace is of a run on 4 ranks, but there is no trace of rank 3: $tmp/sw3/pmpi-trace-rank-3.txt: No such file or directory" \
		"$tmp/sw3/pmpi-trace-rank-0.txt"
	expect "sweep3d-2x2: rank 3's file missing (the folder)" 1 \
		"$tmp/sw3/pmpi-trace-rank-0.txt:9:1: error: rank 0: MPI_Bcast on a communicator of 4 ranks, but only 3 trace files were given: no trace of rank 3" \
		"$tmp/sw3"
else
	fail "sweep3d-2x2: converted with --strict, no messages" "$(head -3 "$tmp/sw.err")"
fi

# ---- recorded traces of programs nobody here wrote -------------------------
# tests/trace2goal/apps (recorded with libgoaltrace.so, Open MPI 4.1, see
# real-app.sh): LAMMPS (lmp -partition 2x2 -in apps/lj-melt.in -var n 5
# -var steps 20: two replicas of 2 ranks, each on a communicator
# MPI_Comm_split from the world, with an MPI_Cart_create on it) and NetPIPE
# (NPopenmpi -a -z -u 64 -n 3 -p 0: Irecv from any source, Wait, Barrier),
# and a Fortran program, MUMPS's dsimpletest (Debian mumps-test, 2 ranks,
# input_simpletest_real; traced through the Fortran bindings: collectives on
# duplicated communicators, Iprobe polling, Isend/Test), and ScaLAPACK's
# QR test (xdqr from Debian scalapack-mpi-test, openmpi-tests; input as
# apps/scalapack-qr.dat but M = N = 32, MB = NB = 8: 4 ranks on a 2x2 BLACS
# grid; its MPI calls come from BLACS, in C: MPI_Comm_create, MPI_Comm_dup,
# MPI_Comm_split into rows and columns, communicator handles freed and
# reused), and HPCC (Debian hpcc; apps/hpccinf-tiny.txt: N = 8, 2 ranks on
# a 2x1 grid; its LatencyBandwidth section cut out by hpcc-cut.awk and
# left out of the time with a '# flush' line, see real-app.sh).
# Converted with --strict, no messages, simulated with the default
# parameters: the time is exact (the simulation is deterministic), with
# Open MPI's algorithms (the default) and with the classes' own patterns
# (--select none).
# replay NAME DIR WANT_MAXIMUM WANT_MAXIMUM_SELECT_NONE (ns)
replay() {
	if "$T2G" --strict "$2" -o "$tmp/$1.bin" 2>"$tmp/$1.err" && [ ! -s "$tmp/$1.err" ] &&
		"$T2G" --strict --select none "$2" -o "$tmp/$1-none.bin" 2>>"$tmp/$1.err" &&
		[ ! -s "$tmp/$1.err" ]; then
		ok "$1: recorded trace converted with --strict, no messages"
		{ "$SIM" -q "$tmp/$1.bin"; "$SIM" -q "$tmp/$1-none.bin"; } 2>&1 |
			sed -n 's/^Maximum finishing time at host [0-9]*: \([0-9]*\) .*/\1/p' | paste -sd' ' >"$tmp/got"
		echo "$3 $4" >"$tmp/want"
		same "$1: simulated to completion, time exact (Open MPI's algorithms; --select none)" \
			"$tmp/got" "$tmp/want"
	else
		fail "$1: recorded trace converted with --strict, no messages" "$(head -3 "$tmp/$1.err")"
	fi
}
A=tests/trace2goal/apps
replay lammps $A/lammps 9502191 9447630
replay netpipe $A/netpipe 5714423 5714423
replay mumps $A/mumps 3116879 2775683
replay scalapack $A/scalapack 2352079 2116980
replay hpcc $A/hpcc 21605585 21350112
# LAMMPS: each rank's trace defines its replica's communicator (the world
# ranks 0,1 or 2,3) and the Cartesian one on it; the converted schedule has
# each replica's collectives and point-to-point messages in the comms of its
# own communicator (comm 5 and 4 for ranks 0-1, 13 and 12 for ranks 2-3)
# and only the 4 world collectives of LAMMPS's start in comm 1 (per rank:
# comm, ops)
for r in 0 1 2 3; do
	m=$([ $r -lt 2 ] && echo 0,1 || echo 2,3)
	echo "rank $r: $(grep -c "^# comm:[0-9]*:$m\$" "$A/lammps/lmp-$r.txt") of $m"
done >"$tmp/got"
printf '%s\n' "rank 0: 2 of 0,1" "rank 1: 2 of 0,1" "rank 2: 2 of 2,3" "rank 3: 2 of 2,3" >"$tmp/want"
same "lammps: the split and the Cartesian communicator in every rank's trace" "$tmp/got" "$tmp/want"
"$T2G" --strict --select none "$A/lammps" 2>/dev/null |
	awk '/^rank/ { r = $2 } { for (i = 1; i < NF; i++) if ($i == "comm") n[r " " $(i + 1)]++ }
	     END { for (k in n) print k, n[k] }' | sort -n -k1,1 -k2,2 >"$tmp/got"
printf '%s\n' "0 1 4" "0 4 184" "0 5 199" "1 1 4" "1 4 184" "1 5 199" \
	"2 1 4" "2 12 184" "2 13 199" "3 1 4" "3 12 184" "3 13 199" >"$tmp/want"
same "lammps: collectives and messages in the comms of the sub-communicators" "$tmp/got" "$tmp/want"
# and in the trace: rank 0's Allreduce calls are on the split communicator
h=$(awk -F: '/^MPI_Comm_split:/ { print $6; exit }' "$A/lammps/lmp-0.txt")
n=$(grep -c "^MPI_Allreduce:.*:$h,[0-9]*,2:[0-9.]*\$" "$A/lammps/lmp-0.txt")
if [ -n "$h" ] && [ "$n" -gt 10 ]; then
	ok "lammps: MPI_Allreduce on the split communicator in the trace ($n calls)"
else
	fail "lammps: MPI_Allreduce on the split communicator in the trace" "handle '$h', $n calls"
fi

# ScaLAPACK: each rank's trace defines its grid row (0,1 or 2,3) and column
# (0,2 or 1,3) communicators of 2 ranks, and has its broadcasts and
# reductions on them (per rank: the 2-rank communicators defined, the
# collectives on communicators of 2 ranks)
for r in 0 1 2 3; do
	echo "rank $r: $(grep -o '^# comm:[0-9]*:[0-9]*,[0-9]*$' "$A/scalapack/qr-$r.txt" |
		cut -d: -f3 | sort | paste -sd' ') $(grep -Ec '^MPI_(Bcast|Reduce|Allreduce):.*:[0-9]+,[0-9]+,2:[0-9.]+$' "$A/scalapack/qr-$r.txt")"
done >"$tmp/got"
printf '%s\n' "rank 0: 0,1 0,2 66" "rank 1: 0,1 1,3 64" "rank 2: 0,2 2,3 66" "rank 3: 1,3 2,3 64" >"$tmp/want"
same "scalapack: the row and column communicators in every rank's trace, collectives on them" "$tmp/got" "$tmp/want"

# HPCC: RandomAccess polls with MPI_Testany, cancels its last MPI_Irecv and
# tests MPI_REQUEST_NULL; PTRANS (5 runs) and HPL each split the world into
# a grid communicator of 2 ranks and that into rows of 1 and a column of 2
# (18 MPI_Comm_split); PTRANS has MPI_Allreduce and MPI_Barrier on its
# grids, HPL only point-to-point calls on its communicators (it builds its
# collectives on MPI_Send, MPI_Recv and MPI_Irecv). Per rank:
# the calls on the communicators MPI_Comm_split made, before the cut line
# (PTRANS) and after it (HPL).
for r in 0 1; do
	f=$A/hpcc/hpcc-$r.txt
	printf 'rank %d: RandomAccess: %d MPI_Testany, %d MPI_Cancel, %d MPI_Test of MPI_REQUEST_NULL; ' "$r" \
		"$(grep -c '^MPI_Testany:' "$f")" "$(grep -c '^MPI_Cancel:' "$f")" "$(grep -c '^MPI_Test:[0-9.]*:0:' "$f")"
	awk -F: '
	/^MPI_Comm_split:/ { ns++; sp = 1; next }
	/^# comm:/ { if (sp) { n = split($3, m, ","); def[n]++; split_comm[$2] = 1 }; sp = 0; next }
	/^# cut:/ { hpl = 1 }
	/^#/ { next }
	{
		sp = 0
		for (i = 3; i < NF; i++)
			if (split($i, h, ",") == 3 && h[1] in split_comm) {
				if ($1 ~ /^MPI_I?(Barrier|Bcast|Reduce|Allreduce|Gatherv?|Scatterv?|Allgatherv?|Alltoallv?|Reduce_scatter(_block)?|Scan|Exscan)$/)
					c[hpl + 0]++
				else if ($1 ~ /^MPI_(Send|Bsend|Ssend|Rsend|Isend|Ibsend|Issend|Irsend|Recv|Irecv|Sendrecv|Sendrecv_replace|Iprobe|Probe)$/)
					p[hpl + 0]++
				break
			}
	}
	END { printf "%d MPI_Comm_split: %d communicators of 2 ranks, %d of 1; PTRANS: %d collectives, %d point-to-point; HPL: %d collectives, %d point-to-point\n",
		ns, def[2], def[1], c[0], p[0], c[1], p[1] }' "$f"
done >"$tmp/got"
printf '%s\n' \
	"rank 0: RandomAccess: 260 MPI_Testany, 4 MPI_Cancel, 2 MPI_Test of MPI_REQUEST_NULL; 18 MPI_Comm_split: 12 communicators of 2 ranks, 6 of 1; PTRANS: 25 collectives, 5 point-to-point; HPL: 0 collectives, 44 point-to-point" \
	"rank 1: RandomAccess: 262 MPI_Testany, 4 MPI_Cancel, 3 MPI_Test of MPI_REQUEST_NULL; 18 MPI_Comm_split: 12 communicators of 2 ranks, 6 of 1; PTRANS: 25 collectives, 5 point-to-point; HPL: 0 collectives, 44 point-to-point" >"$tmp/want"
same "hpcc: RandomAccess's polls, the split communicators, collectives on PTRANS's and none on HPL's" "$tmp/got" "$tmp/want"

# ---- the test MPI program, end to end -------------------------------------
# the binary trace formats (DUMPI)
# --account (docs/trace2goal.md, "Accounting for the traced time"), by
# hand: rank 0 is traced from Init's end (10 us) to Finalize's start
# (30 us): 20000 ns, of which two Barriers 1500 + 5125 ns, a flush of
# 2000 ns and 40 ns per call for the two calls (2080 ns), the rest 11295
# ns computation; rank 1 (no "# tracer overhead:" line): 18500 ns, two
# Barriers 4400 + 11000 ns, no tracer time, 3100 ns computation.
"$T2G" --account "$C/account" -o "$tmp/account.goal" >"$tmp/account.out" 2>&1
cat >"$tmp/account.want" <<'EOT'
account (ns)             traced    computation            MPI         tracer
rank 0                    20000          11295           6625           2080
rank 1                    18500           3100          15400              0
all ranks                 38500          14395          22025           2080
share                    100.0%          37.4%          57.2%           5.4%
MPI calls                 calls           time         of MPI
  MPI_Barrier                 4          22025         100.0%
tracer per call  40 ns (not recorded by some ranks: flushes only there)
EOT
same "--account: the traced time split by hand" "$tmp/account.out" "$tmp/account.want"
"$T2G" --account "$C/account" -o - 2>"$tmp/account.err" >/dev/null
same "--account -o -: the account on stderr" "$tmp/account.err" "$tmp/account.want"
sed 's/^# tracer overhead: 40 ns per call$/# tracer overhead: 40 ms per call/' \
	"$C/account/pmpi-trace-rank-0.txt" >"$tmp/acc0.txt"
expect "a bad '# tracer overhead:' line is an error" 1 \
	"$tmp/acc0.txt:4:20: error: expected '# tracer overhead: N ns per call'" "$tmp/acc0.txt" -o "$tmp/a.goal"
tests/trace2goal/formats.sh "$B" || st=1

if ! command -v mpicc >/dev/null 2>&1 || ! command -v mpirun >/dev/null 2>&1; then
	echo "ok - trace2goal: halo traced, converted, simulated # SKIP mpicc not installed"
	exit $st
fi
for f in "$B/lib/libgoaltrace.so" "$B/examples/halo"; do
	if [ ! -e "$f" ]; then
		fail "halo end to end: $f not built"
		exit 1
	fi
done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
(
	unset ASAN_OPTIONS UBSAN_OPTIONS
	timeout 120 mpirun -np 4 --oversubscribe -x LD_PRELOAD="$B/lib/libgoaltrace.so" \
		-x GOALTRACE_DIR="$tmp" -x GOALTRACE_PREFIX=halo- "$B/examples/halo" 20 20000
) >"$tmp/mpirun.out" 2>&1 || {
	fail "halo ran under mpirun" "$(head -5 "$tmp/mpirun.out")"
	exit 1
}
ok "halo ran under mpirun with libgoaltrace.so"
if "$T2G" --strict --stats "$tmp"/halo-0.txt "$tmp"/halo-1.txt "$tmp"/halo-2.txt \
	"$tmp"/halo-3.txt -o "$tmp/halo.goal" >"$tmp/halo.stats" 2>&1; then
	ok "halo: converted with --strict (every call supported)"
else
	fail "halo: converted with --strict (every call supported)" "$(head -3 "$tmp/halo.stats")"
fi
# every send has its receive: 20 iterations of the halo (6 messages) plus
# the point-to-point calls of the tour, on each side
s=$(grep -c ': send' "$tmp/halo.goal")
r=$(grep -c ': recv' "$tmp/halo.goal")
if [ "$s" = "$r" ] && [ "$s" -gt 120 ]; then
	ok "halo: as many sends as receives ($s)"
else
	fail "halo: as many sends as receives" "sends $s, receives $r"
fi
simulates "halo" "$tmp/halo.goal"
# --account on the tracer's own traces: the tracer measured its time per
# call; each rank's traced time is its computation, MPI and tracer time
# (the parts add up, none negative); the halo's calls are there.
"$T2G" -q --account "$tmp"/halo-?.txt -o "$tmp/halo2.goal" >"$tmp/halo.acc"
if grep -q '^# tracer overhead: [1-9][0-9]* ns per call$' "$tmp/halo-0.txt" &&
	grep -q '^tracer per call  [1-9][0-9]* \(to [0-9]* \)\?ns$' "$tmp/halo.acc"; then
	ok "halo --account: the tracer measured its time per call"
else
	fail "halo --account: the tracer measured its time per call" "$(tail -1 "$tmp/halo.acc")"
fi
bad=$(awk '/^rank |^all ranks/ { if ($4 + $5 + $6 != $3 || $4 < 0 || $5 < 0 || $6 < 0) print }' \
	"$tmp/halo.acc")
calls=$(awk '/^  MPI_/{print $1}' "$tmp/halo.acc" | sort | tr '\n' ' ')
if [ -z "$bad" ] && [ "$(grep -c '^rank ' "$tmp/halo.acc")" = 4 ]; then
	ok "halo --account: computation + MPI + tracer = traced, on each of 4 ranks"
else
	fail "halo --account: computation + MPI + tracer = traced, on each of 4 ranks" "$bad"
fi
case " $calls" in
*" MPI_Isend "*" MPI_Waitall "*) ok "halo --account: the MPI calls by name (MPI_Isend, MPI_Waitall, ...)" ;;
*) fail "halo --account: the MPI calls by name" "$calls" ;;
esac
# the simulated against the measured time (Init to Finalize), with the
# default and with shared-memory-like parameters: reported, not judged
meas=$(awk '/^traced time/{print $3}' "$tmp/halo.stats")
sim1=$("$SIM" -q "$tmp/halo.goal" | awk '/^Maximum/{print $(NF-2)}')
sim2=$("$SIM" -q -L 250 -o 85 -g 140 -G 0.04 -O 0.06 "$tmp/halo.goal" | awk '/^Maximum/{print $(NF-2)}')
echo "ok - trace2goal: halo on 4 ranks: measured $meas ns, simulated $sim1 ns (defaults), $sim2 ns (L=250 o=85 g=140 G=0.04 O=0.06) # info"
# extrapolated to 64 ranks
if "$T2G" -q -x 16 "$tmp"/halo-?.txt -o "$tmp/halo64.bin"; then
	simulates "halo x16 (64 ranks)" "$tmp/halo64.bin"
else
	fail "halo x16: converted"
fi
# Traces that say their host and its cores (the tracer writes both): more
# ranks than cores on a host is a warning, as many is none; 0 cores is an
# error where it stands.
mkdir -p "$tmp/os"
for r in 0 1; do
	{ head -3 "$C/p2p/rank-$r.txt"; printf '# hostname: node7\n# cores: 1\n'; tail -n +4 "$C/p2p/rank-$r.txt"; } \
		>"$tmp/os/rank-$r.txt"
done
"$T2G" "$tmp/os/rank-0.txt" -o "$tmp/os.goal" 2>&1 | grep 'ran on host' >"$tmp/os.got"
echo "trace2goal: warning: 2 traced ranks ran on host node7, which has 1 core: their times include waiting for a core, which the simulation (a CPU per rank) does not model; compare simulated with measured times only where ranks do not outnumber cores" >"$tmp/os.want"
same "2 ranks on a host of 1 core: a warning" "$tmp/os.got" "$tmp/os.want"
sed -i 's/^# cores: 1$/# cores: 2/' "$tmp/os"/rank-*.txt
"$T2G" "$tmp/os/rank-0.txt" -o "$tmp/os.goal" 2>&1 | grep 'ran on host' >"$tmp/os.got"
same "2 ranks on a host of 2 cores: no warning" "$tmp/os.got" /dev/null
sed -i 's/^# cores: 2$/# cores: 0/' "$tmp/os/rank-0.txt"
expect "'# cores: 0' is an error" 1 "$tmp/os/rank-0.txt:5:10: error: expected a number of cores of at least 1" \
	"$tmp/os/rank-0.txt" -o "$tmp/os.goal"
# Programs nobody here wrote, traced, converted and simulated (each skipped
# where it or MPI is missing): their structure, not their times.
bash tests/trace2goal/real-app.sh "$B" || st=1
exit $st
