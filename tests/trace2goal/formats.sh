#!/usr/bin/env bash
# Tests of trace2goal's binary trace formats (docs/trace2goal.md, "DUMPI
# traces" and "OTF2 archives"): the public DUMPI trace and OTF2 archive of
# ../shared/traces (skipped where ../shared is absent) converted and
# simulated with exact figures; traces written here by mkdumpi.py
# (communicators made by MPI_Comm_create and MPI_Comm_split, a wildcard
# receive, nonblocking calls, records that are not MPI) and archives by
# mkotf2.py (python3-otf2; skipped without it); damaged copies (cut short,
# bytes changed, files missing): an error naming the file, exit status 1,
# never a crash.  The OTF2 checks are skipped when trace2goal was built
# without the OTF2 library.  Run by tests/trace2goal/run.sh.
# Usage: tests/trace2goal/formats.sh BUILD_DIR
set -u
B=$(cd "${1:-build}" && pwd) || exit 2
cd "$(dirname "$0")/../.." || exit 2
T2G=$B/bin/trace2goal
SIM=$B/bin/loggopsim
SHARED=../shared/traces
st=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { echo "ok - trace2goal formats: $1"; }
skip() { echo "ok - trace2goal formats: $1 # SKIP $2"; }
fail() {
	echo "not ok - trace2goal formats: $1"
	shift
	for l in "$@"; do echo "    $l"; done
	st=1
}
# check NAME GOT WANT: the two strings are equal
check() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		fail "$1" "got:  $(printf '%s' "$2" | head -12 | tr '\n' '|')" \
			"want: $(printf '%s' "$3" | head -12 | tr '\n' '|')"
	fi
}
# ops_in FILE: "RANK COMM COUNT" lines, the ops of each rank in each GOAL comm
ops_in() {
	awk '/^rank /{r=$2} /: (send|recv) /{c=0; for(i=1;i<=NF;i++) if($i=="comm") c=$(i+1); n[r" "c]++}
		END { for (k in n) print k, n[k] }' "$1" | sort -n -k1 -k2
}
# finish FILE: loggopsim's maximum finishing time line
finish() { "$SIM" -q "$1" 2>&1 | grep '^Maximum'; }
# damaged NAME FILE...: trace2goal on the run must fail with exit status 1
# and one message "FILE: error: ..." about that file (no sanitizer report)
damaged() {
	local name=$1 want=$2 meta=$3 got
	ASAN_OPTIONS=detect_leaks=1:exitcode=99 UBSAN_OPTIONS=halt_on_error=1:exitcode=99 \
		"$T2G" --select none -q "$meta" >/dev/null 2>"$tmp/err"
	got=$?
	if [ "$got" = 1 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "^$want: error: " "$tmp/err" &&
		! grep -qiE 'sanitizer|runtime error' "$tmp/err"; then
		return 0
	fi
	fail "$name" "exit status $got (want 1)" "$(head -3 "$tmp/err")"
	return 1
}

# ---- the public DUMPI trace -------------------------------------------------
D=$SHARED/dumpi-testbgp
if [ ! -e "$D/testbgp.meta" ]; then
	skip "DUMPI testbgp (7 ranks)" "$D is absent"
else
	# every call is supported (--strict): Irecv, Isend, Waitall, Alltoall
	# and Barrier, with Comm_group, Group_incl and Comm_create making a
	# communicator of all 7 ranks
	if "$T2G" --select none --strict --stats "$D/testbgp.meta" -o "$tmp/bgp.goal" >"$tmp/bgp.stats" 2>&1; then
		ok "DUMPI testbgp: converted with --strict"
	else
		fail "DUMPI testbgp: converted with --strict" "$(head -3 "$tmp/bgp.stats")"
	fi
	check "DUMPI testbgp: --stats" "$(cat "$tmp/bgp.stats")" "ranks          7
ops            3584
  send         945
  recv         945
  calc         1694
collectives    70
  barrier_dissemination        21
  alltoall_linear              49
skipped calls  0
calc time      56559826 ns
traced time    12638793 ns"
	check "DUMPI testbgp: simulated time (default parameters)" "$(finish "$tmp/bgp.goal")" \
		"Maximum finishing time at host 3: 10139465 (0.010139465 s)"
	"$T2G" --select none --strict "$D" -o "$tmp/bgp-dir.goal" 2>/dev/null
	if cmp -s "$tmp/bgp.goal" "$tmp/bgp-dir.goal"; then
		ok "DUMPI testbgp: the folder gives the same schedule as the .meta file"
	else
		fail "DUMPI testbgp: the folder gives the same schedule as the .meta file"
	fi
	# the 49 Alltoalls are on the communicator of Comm_create (its
	# collective context, comm 5: world 0-1, each rank's MPI_COMM_SELF
	# 2-3 ... rank 0 defines it third), 7 x 12 ops per rank; the 21
	# Barriers on the world's (comm 1), 3 x 6 ops per rank; the messages
	# of Isend and Irecv in the new communicator's point-to-point context
	want=$(for r in 0 1 2 3 4 5 6; do echo "$r 1 18"; echo "$r 4 168"; echo "$r 5 84"; done)
	check "DUMPI testbgp: Comm_create's communicator carries the Alltoalls and messages" \
		"$(ops_in "$tmp/bgp.goal")" "$want"

	# damaged copies of rank 3's file
	mkdir "$tmp/bad"
	f=$tmp/bad/testbgp-0003.bin
	len=$(stat -c %s "$D/testbgp-0003.bin")
	ok_cuts=1
	for cut in 0 7 8 100 5000 $((len - 64)) $((len - 1)); do
		cp "$D"/testbgp* "$tmp/bad/" && chmod u+w "$tmp"/bad/*
		head -c "$cut" "$D/testbgp-0003.bin" >"$f"
		damaged "DUMPI: rank 3's file cut at byte $cut" "$f" "$tmp/bad/testbgp.meta" || ok_cuts=0
	done
	[ $ok_cuts = 1 ] && ok "DUMPI: a file cut at 7 places: an error naming it, exit status 1"
	# patch OFFSET HEX: rank 3's file with the bytes HEX written at OFFSET
	# (negative: from the end); damaged_patch NAME OFFSET HEX
	damaged_patch() {
		cp "$D"/testbgp* "$tmp/bad/" && chmod u+w "$tmp"/bad/*
		python3 - "$f" "$2" "$3" <<'EOF'
import sys
p, off, val = sys.argv[1], int(sys.argv[2]), bytes.fromhex(sys.argv[3])
b = bytearray(open(p, 'rb').read())
off = off % len(b)
b[off:off + len(val)] = val
open(p, 'wb').write(b)
EOF
		damaged "DUMPI: $1" "$f" "$tmp/bad/testbgp.meta" && ok "DUMPI: $1: an error naming the file"
	}
	damaged_patch "no magic" 0 00
	damaged_patch "an unknown function label" 16 fff0
	# the Group_incl record at 0xe2: its ranks array (after 29 bytes of
	# label, mask, thread and times, a group and a count) claims 2^31-1 ranks
	damaged_patch "an array longer than the file" $((0xe2 + 35)) 7fffffff
	damaged_patch "a record stream without its end" -32 0000000000001000
	damaged_patch "an index pointing past the file" -24 00000000ffffffff
	# random bytes changed: a conversion or an error, never a crash
	crashes=0
	for seed in $(seq 1 40); do
		cp "$D"/testbgp* "$tmp/bad/" && chmod u+w "$tmp"/bad/*
		python3 - "$f" "$seed" <<'EOF'
import random, sys
p = sys.argv[1]
rnd = random.Random(int(sys.argv[2]))
b = bytearray(open(p, 'rb').read())
for _ in range(rnd.randint(1, 8)):
    b[rnd.randrange(len(b))] = rnd.randrange(256)
open(p, 'wb').write(b)
EOF
		ASAN_OPTIONS=detect_leaks=1:exitcode=99 UBSAN_OPTIONS=halt_on_error=1:exitcode=99 \
			timeout 60 "$T2G" --select none -q "$tmp/bad/testbgp.meta" >/dev/null 2>"$tmp/err"
		got=$?
		if { [ $got != 0 ] && [ $got != 1 ]; } || grep -qiE 'sanitizer|runtime error' "$tmp/err" ||
			{ [ $got = 1 ] && ! grep -q ': error: ' "$tmp/err"; }; then
			crashes=$((crashes + 1))
			fail "DUMPI: random bytes changed (seed $seed)" "exit status $got" "$(head -3 "$tmp/err")"
		fi
	done
	[ $crashes = 0 ] && ok "DUMPI: 40 copies with random bytes changed: converted or an error, no crash"
fi

# ---- DUMPI traces written here ----------------------------------------------
mkdir "$tmp/dc"
python3 tests/trace2goal/mkdumpi.py comm "$tmp/dc"
"$T2G" --select none --stats "$tmp/dc/comm.meta" -o "$tmp/dc.goal" >"$tmp/dc.err" 2>&1
check "DUMPI comm: warnings and --stats" "$(cat "$tmp/dc.err")" \
	"$tmp/dc/comm-0000.bin: warning: record 12: rank 0: MPI_Win_fence is not supported; skipped, its time counts as computation
ranks          4
ops            61
  send         18
  recv         18
  calc         25
collectives    10
  bcast_binomial               2
  allreduce_dissemination      4
  barrier_dissemination        4
skipped calls  9
  (DUMPI function entry, not MPI) 4
  (DUMPI function exit, not MPI) 4
  MPI_Win_fence 1
calc time      77000 ns
traced time    31000 ns"
# Comm_create of world ranks 2 and 3: the Bcast of 100 bytes from its rank 0
# goes from world rank 2 to 3 only, in that communicator's collective
# context (comm 13: rank 0 defines the world (0), its MPI_COMM_SELF (1) and
# its split half (2); rank 1 its MPI_COMM_SELF (3) and half (4); rank 2
# its MPI_COMM_SELF (5) and the created communicator (6))
check "DUMPI comm: the Bcast on Comm_create's communicator" \
	"$(grep -E ' 100b ' "$tmp/dc.goal")" "l2: send 100b to 3 tag 6 comm 13
l2: recv 100b from 2 tag 6 comm 13"
# Comm_split by parity with keys -rank: halves [2, 0] and [3, 1]; each
# Allreduce of 2 ints is one exchange of 8 bytes inside its half (comms 5
# and 9)
check "DUMPI comm: the Allreduce on each Comm_split half" \
	"$(awk '/^rank /{r=$2} / 8b /{print r": "$2, $3, $4, $5}' "$tmp/dc.goal")" "0: send 8b to 2
0: recv 8b from 2
1: send 8b to 3
1: recv 8b from 3
2: send 8b to 0
2: recv 8b from 0
3: send 8b to 1
3: recv 8b from 1"
# MPI_Comm_split of a communicator onto its own handle (keys reverse the
# order): the Bcast from its rank 0 goes from world rank 1 to rank 0
mkdir "$tmp/rsp"
python3 tests/trace2goal/mkdumpi.py resplit "$tmp/rsp"
check "DUMPI: MPI_Comm_split onto the parent's handle" \
	"$("$T2G" --select none -q "$tmp/rsp/resplit.meta" -o - 2>&1 | grep ' 100b ')" "l2: recv 100b from 1 tag 0 comm 7
l2: send 100b to 0 tag 0 comm 7"
# the MPI_ANY_SOURCE receive takes the sender of its status, rank 0
check "DUMPI comm: the wildcard receive from its status' source" \
	"$(awk '/^rank 1/{r=1} /^rank 2/{r=0} r && / 10b /{print $2, $3, $4, $5}' "$tmp/dc.goal")" \
	"recv 10b from 0"
check "DUMPI comm: simulated time (default parameters)" "$(finish "$tmp/dc.goal")" \
	"Maximum finishing time at host 3: 54412 (0.000054412 s)"
# The reader knows a .meta file by its content too: the same run under
# another name gives the same schedule; a text trace is still one.
cp "$tmp/dc/comm.meta" "$tmp/dc/comm.desc"
"$T2G" --select none -q "$tmp/dc/comm.desc" -o "$tmp/dc-desc.goal" 2>"$tmp/err"
if cmp -s "$tmp/dc.goal" "$tmp/dc-desc.goal"; then
	ok "DUMPI comm: a .meta file under another name is read by its content"
else
	fail "DUMPI comm: a .meta file under another name is read by its content" "$(cat "$tmp/err")"
fi
"$T2G" --select none --strict "$tmp/dc/comm.meta" >/dev/null 2>"$tmp/err"
check "DUMPI comm: --strict: the unsupported call is an error" "$?: $(cat "$tmp/err")" \
	"1: $tmp/dc/comm-0000.bin: error: record 12: rank 0: MPI_Win_fence is not supported (--strict)"
# A count below 0 (a damaged trace): a warning and 0 bytes, an error with
# --strict; the call after it keeps its 16 bytes.
mkdir "$tmp/neg"
python3 tests/trace2goal/mkdumpi.py negative "$tmp/neg"
"$T2G" --select none "$tmp/neg/negative.meta" -o "$tmp/neg.goal" 2>"$tmp/err"
check "DUMPI: a negative count is a warning" "$?: $(cat "$tmp/err")" \
	"0: $tmp/neg/negative-0000.bin: warning: record 2: rank 0: MPI_Send: a negative size, -20 bytes (a count below 0), taken as 0 bytes
$tmp/neg/negative-0001.bin: warning: record 2: rank 1: MPI_Recv: a negative size, -20 bytes (a count below 0), taken as 0 bytes"
check "DUMPI: a negative count is 0 bytes" "$(grep -c ' 0b ' "$tmp/neg.goal") $(grep -c ' 16b ' "$tmp/neg.goal")" "2 2"
"$T2G" --select none --strict "$tmp/neg/negative.meta" >/dev/null 2>"$tmp/err"
check "DUMPI: --strict: a negative count is an error" "$?: $(cat "$tmp/err")" \
	"1: $tmp/neg/negative-0000.bin: error: record 2: rank 0: MPI_Send: a negative size, -20 bytes (a count below 0) (--strict)"
# a missing rank file
rm "$tmp/dc/comm-0002.bin"
"$T2G" --select none "$tmp/dc" >/dev/null 2>"$tmp/err"
check "DUMPI: a missing rank file" "$?: $(cat "$tmp/err")" \
	"1: $tmp/dc/comm.meta:2:1: error: the trace is of a run on 4 ranks, but there is no trace of rank 2: $tmp/dc/comm-0002.bin: No such file or directory"

# ---- OTF2 ---------------------------------------------------------------------
if "$T2G" --select none --help | grep -q 'reads no OTF2'; then
	skip "OTF2 archives" "trace2goal built without the OTF2 library (libopen-trace-format2-dev)"
	exit $st
fi
O=$SHARED/otf2-mpi-coverage
if [ ! -e "$O/traces.otf2" ]; then
	skip "OTF2 mpi-coverage (10 ranks)" "$O is absent"
else
	# Score-P 2.0.2 records no event for the nonblocking collectives
	# (Iallgather, Ialltoall, Iallreduce): they are skipped with a warning
	# per rank and name, and counted
	"$T2G" --select none --stats "$O/traces.otf2" -o "$tmp/cov.goal" >"$tmp/cov.err" 2>&1
	check "OTF2 mpi-coverage: converted, a warning per rank for each of 3 calls" \
		"$?: $(grep -c 'the trace does not record its communicator, peer or size; skipped' "$tmp/cov.err")" "0: 30"
	check "OTF2 mpi-coverage: --stats" "$(grep -v ': warning: ' "$tmp/cov.err")" "ranks          10
ops            15332
  send         4420
  recv         4420
  calc         6492
collectives    1200
  bcast_binomial               18
  reduce_binomial              18
  scatter_linear               18
  gather_linear                18
  allreduce_dissemination      216
  alltoall_linear              432
skipped calls  1080
  MPI_Iallgather 360
  MPI_Iallreduce 360
  MPI_Ialltoall 360
calc time      14874468 ns
traced time    96849502 ns"
	check "OTF2 mpi-coverage: simulated time (default parameters)" "$(finish "$tmp/cov.goal")" \
		"Maximum finishing time at host 7: 23383840 (0.023383840 s)"
	"$T2G" --select none -q "$O" -o "$tmp/cov-dir.goal"
	if cmp -s "$tmp/cov.goal" "$tmp/cov-dir.goal"; then
		ok "OTF2 mpi-coverage: the folder gives the same schedule as the anchor"
	else
		fail "OTF2 mpi-coverage: the folder gives the same schedule as the anchor"
	fi
	"$T2G" --select none --strict "$O/traces.otf2" >/dev/null 2>"$tmp/err"
	check "OTF2 mpi-coverage: --strict: a call without its communicator is an error" \
		"$?: $(cat "$tmp/err")" \
		"1: $O/traces.otf2: error: event 467: rank 0: MPI_Iallgather: the trace does not record its communicator, peer or size (--strict)"
	# the messages of each GOAL comm: the world's point-to-point (0) and
	# collective (1) contexts, and those of the communicators of 2 ranks
	# (pairs of ranks 0-6, 1-7, 2-8, 3-9 from MPI_Comm_split) and of 1 rank
	# (ranks 4 and 5 alone: a message to themselves)
	check "OTF2 mpi-coverage: the messages of each communicator" \
		"$(awk '/: (send|recv) /{c=0; for(i=1;i<=NF;i++) if($i=="comm") c=$(i+1); n[c]++}
			END { for (k in n) print k, n[k] }' "$tmp/cov.goal" | sort -n | tr '\n' ' ')" \
		"0 960 1 5352 2 192 3 152 6 96 10 192 11 152 14 96 18 192 19 152 22 96 26 192 27 152 30 96 36 96 38 96 42 96 44 96 48 96 54 96 60 96 66 96 "
	# each message of a communicator of 2 ranks stays between its members
	got=$(awk '/^rank /{r=$2} /: (send|recv) /{c=0; for(i=1;i<=NF;i++) if($i=="comm") c=$(i+1)
		if (c >= 2) { n++; if (r % 6 != $5 % 6) bad++ } }
		END { printf "%d %d", n, bad }' "$tmp/cov.goal")
	check "OTF2 mpi-coverage: the sub-communicators' messages stay between their members" "$got" "2528 0"
	"$T2G" --select none -q -x 2 "$O/traces.otf2" -o "$tmp/cov-x2.bin"
	check "OTF2 mpi-coverage: extrapolated x2 (20 ranks) simulates" "$(finish "$tmp/cov-x2.bin")" \
		"Maximum finishing time at host 16: 26538886 (0.026538886 s)"
fi

# archives written here need the OTF2 library's Python bindings
PY=
for p in python3 /usr/bin/python3; do
	if command -v "$p" >/dev/null && "$p" -c 'import otf2' 2>/dev/null; then
		PY=$p
		break
	fi
done
if [ -z "$PY" ]; then
	skip "OTF2 archives written by mkotf2.py" "python3-otf2 not installed"
	exit $st
fi
"$PY" tests/trace2goal/mkotf2.py cover "$tmp/oc"
if "$T2G" --select none --strict --stats "$tmp/oc/traces.otf2" -o "$tmp/oc.goal" >"$tmp/oc.err" 2>&1; then
	ok "OTF2 cover: converted with --strict (records that are not MPI are no error)"
else
	fail "OTF2 cover: converted with --strict" "$(head -3 "$tmp/oc.err")"
fi
check "OTF2 cover: --stats (what is not MPI counted)" "$(cat "$tmp/oc.err")" "ranks          4
ops            66
  send         16
  recv         16
  calc         34
collectives    10
  bcast_binomial               4
  allreduce_dissemination      2
  barrier_dissemination        4
skipped calls  15
  (OTF2 Enter/Leave of regions that are not MPI) 9
  (OTF2 Leave without its Enter) 1
  (OTF2 measurement on/off) 2
  (OTF2 records that are not MPI) 2
  (OTF2 regions entered and never left) 1
calc time      46000 ns
traced time    20498 ns"
# Hand-checked: rank 1's receive takes the sender its event names (rank 0);
# ranks 2 and 3 exchange 8 bytes (Isend, Irecv); the Allreduce of 8 bytes
# (Score-P: 16 sent in all) is one exchange between ranks 1 and 3 in the
# collective context of their communicator (comm 3: rank 1 defines it
# first after the world); the Bcast of 50 bytes (200 sent by the root)
# goes 0 -> 1, 0 -> 2, 1 -> 3 (binomial) in the world's collective context
# (comm 1); the Ibarrier (dissemination, 2 rounds) has tags of its own
# The reader knows an anchor by its content too; the OTF2 library opens
# an archive only by NAME.otf2, and the message says so.
cp "$tmp/oc/traces.otf2" "$tmp/oc/anchor"
"$T2G" --select none "$tmp/oc/anchor" >/dev/null 2>"$tmp/err"
check "OTF2 cover: an anchor under another name is known by its content" "$?: $(cat "$tmp/err")" \
	"1: $tmp/oc/anchor: error: an OTF2 anchor file, but the OTF2 library opens an archive only by an anchor named NAME.otf2 (beside NAME.def and NAME/): rename the three"
check "OTF2 cover: the messages of every rank" \
	"$(awk '/^rank /{r=$2} /: (send|recv) /{$1=""; print r":"$0}' "$tmp/oc.goal")" "0: send 100b to 1 tag 0
0: send 50b to 1 tag 1 comm 1
0: send 50b to 2 tag 2 comm 1
0: send 0b to 1 tag 3 comm 1
0: recv 0b from 3 tag 3 comm 1
0: send 0b to 2 tag 4 comm 1
0: recv 0b from 2 tag 4 comm 1
1: recv 100b from 0 tag 0
1: send 8b to 3 tag 5 comm 3
1: recv 8b from 3 tag 5 comm 3
1: recv 50b from 0 tag 1 comm 1
1: send 50b to 3 tag 2 comm 1
1: send 0b to 2 tag 3 comm 1
1: recv 0b from 0 tag 3 comm 1
1: send 0b to 3 tag 4 comm 1
1: recv 0b from 3 tag 4 comm 1
2: send 8b to 3 tag 6
2: recv 8b from 3 tag 6
2: recv 50b from 0 tag 2 comm 1
2: send 0b to 3 tag 3 comm 1
2: recv 0b from 1 tag 3 comm 1
2: send 0b to 0 tag 4 comm 1
2: recv 0b from 0 tag 4 comm 1
3: send 8b to 2 tag 6
3: recv 8b from 2 tag 6
3: send 8b to 1 tag 5 comm 3
3: recv 8b from 1 tag 5 comm 3
3: recv 50b from 1 tag 2 comm 1
3: send 0b to 0 tag 3 comm 1
3: recv 0b from 2 tag 3 comm 1
3: send 0b to 1 tag 4 comm 1
3: recv 0b from 1 tag 4 comm 1"
check "OTF2 cover: simulated time (default parameters)" "$(finish "$tmp/oc.goal")" \
	"Maximum finishing time at host 2: 39836 (0.000039836 s)"
# the Ibarrier's program position on rank 0: the computation after it (l13:
# 3000 ns of the region that is not MPI and the gaps around it) waits only
# for its 3 first ops to start (a calc 0 over irequires, l12), and the Wait
# (l14) for the join of its last ops (l11)
check "OTF2 cover: the Ibarrier overlaps the region that is not MPI" \
	"$(awk '/^rank 0/{r=1} /^rank 1/{r=0} r' "$tmp/oc.goal" | grep -E 'irequires|^l13|^l14 requires')" \
	"l12 irequires l7
l12 irequires l8
l12 irequires l10
l13: calc 4500
l13 requires l12
l14 requires l13
l14 requires l11"
# damaged archives
broken() {
	local name=$1
	shift
	rm -rf "$tmp/ob" && cp -r "$tmp/oc" "$tmp/ob"
	"$@"
	damaged "OTF2: $name" "$tmp/ob/traces.otf2" "$tmp/ob/traces.otf2" && ok "OTF2: $name: an error, exit status 1"
}
cut_half() { head -c $(( $(stat -c %s "$1") / 2 )) "$1" >"$tmp/x" && cp "$tmp/x" "$1"; }
broken "no definitions file" rm "$tmp/ob/traces.def"
broken "an empty definitions file" cp /dev/null "$tmp/ob/traces.def"
broken "rank 2's events cut in half" cut_half "$tmp/ob/traces/2.evt"
broken "rank 2's events cut to 20 bytes" sh -c "head -c 20 '$tmp/oc/traces/2.evt' >'$tmp/ob/traces/2.evt'"
broken "no events file of rank 2" rm "$tmp/ob/traces/2.evt"
broken "no anchor file" rm "$tmp/ob/traces.otf2"
# A damaged anchor is refused before the OTF2 library reads it (counts of
# 2^40 kept it busy for tens of seconds): exactly this message, at once.
anchor() { # NAME WANT OFFSET VALUE | NAME WANT cut BYTES
	rm -rf "$tmp/ob" && cp -r "$tmp/oc" "$tmp/ob"
	if [ "$3" = cut ]; then head -c "$4" "$tmp/oc/traces.otf2" >"$tmp/ob/traces.otf2"; else
		"$PY" -c 'import struct, sys; f = open(sys.argv[1], "r+b"); f.seek(int(sys.argv[2])); f.write(struct.pack("<Q", int(sys.argv[3])))' \
			"$tmp/ob/traces.otf2" "$3" "$4"
	fi
	timeout 20 "$T2G" --select none -q "$tmp/ob/traces.otf2" >/dev/null 2>"$tmp/err"
	check "OTF2: a damaged anchor: $1" "$?: $(cat "$tmp/err")" "1: $tmp/ob/traces.otf2: error: the anchor file is damaged: $2"
}
anchor "a chunk of 2^40 bytes" "chunks of 1099511627776 and 4194304 bytes (OTF2 allows 262144 to 16777216)" 12 1099511627776
anchor "2^40 locations" "1099511627776 locations and 52 global definitions, more records than $tmp/ob/traces.def holds ($(stat -c %s "$tmp/oc/traces.def") bytes)" 30 1099511627776
anchor "cut at 40 bytes" "its fields (counts and strings) run past its end at 40 bytes" cut 40
exit $st
