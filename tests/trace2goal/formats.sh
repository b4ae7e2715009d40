#!/usr/bin/env bash
# Tests of trace2goal's binary trace formats (docs/trace2goal.md, "DUMPI
# traces"): the public DUMPI trace of ../shared/traces (skipped where
# ../shared is absent) converted and simulated with exact figures, traces
# written here by mkdumpi.py (communicators made by MPI_Comm_create and
# MPI_Comm_split, a wildcard receive, nonblocking calls, records that are
# not MPI), and damaged copies (cut short, bytes changed): an error naming
# the file, exit status 1, never a crash.  Run by tests/trace2goal/run.sh.
# Usage: tests/trace2goal/formats.sh BUILD_DIR
set -u
B=${1:-build}
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
		"$T2G" -q "$meta" >/dev/null 2>"$tmp/err"
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
	if "$T2G" --strict --stats "$D/testbgp.meta" -o "$tmp/bgp.goal" 2>"$tmp/bgp.stats"; then
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
skipped calls  0
calc time      54865168 ns
traced time    12638793 ns"
	check "DUMPI testbgp: simulated time (default parameters)" "$(finish "$tmp/bgp.goal")" \
		"Maximum finishing time at host 3: 9897371 (0.009897371 s)"
	"$T2G" --strict "$D" -o "$tmp/bgp-dir.goal" 2>/dev/null
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
			timeout 60 "$T2G" -q "$tmp/bad/testbgp.meta" >/dev/null 2>"$tmp/err"
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
"$T2G" --stats "$tmp/dc/comm.meta" -o "$tmp/dc.goal" 2>"$tmp/dc.err"
check "DUMPI comm: warnings and --stats" "$(cat "$tmp/dc.err")" \
	"$tmp/dc/comm-0000.bin: warning: record 12: rank 0: MPI_Win_fence is not supported; skipped, its time counts as computation
ranks          4
ops            61
  send         18
  recv         18
  calc         25
collectives    10
skipped calls  9
  (DUMPI function entry, not MPI) 4
  (DUMPI function exit, not MPI) 4
  MPI_Win_fence 1
calc time      69000 ns
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
# the MPI_ANY_SOURCE receive takes the sender of its status, rank 0
check "DUMPI comm: the wildcard receive from its status' source" \
	"$(awk '/^rank 1/{r=1} /^rank 2/{r=0} r && / 10b /{print $2, $3, $4, $5}' "$tmp/dc.goal")" \
	"recv 10b from 0"
check "DUMPI comm: simulated time (default parameters)" "$(finish "$tmp/dc.goal")" \
	"Maximum finishing time at host 3: 52412 (0.000052412 s)"
"$T2G" --strict "$tmp/dc/comm.meta" >/dev/null 2>"$tmp/err"
check "DUMPI comm: --strict: the unsupported call is an error" "$?: $(cat "$tmp/err")" \
	"1: $tmp/dc/comm-0000.bin: error: record 12: rank 0: MPI_Win_fence is not supported (--strict)"
# a missing rank file
rm "$tmp/dc/comm-0002.bin"
"$T2G" "$tmp/dc" >/dev/null 2>"$tmp/err"
check "DUMPI: a missing rank file" "$?: $(cat "$tmp/err")" \
	"1: $tmp/dc/comm.meta:2:1: error: the trace is of a run on 4 ranks, but there is no trace of rank 2: $tmp/dc/comm-0002.bin: No such file or directory"
exit $st
