#!/usr/bin/env bash
# Tests of goalviz: exact times in the SVG of hand-made timelines (new and
# old format), windows and limits, error messages, dot output that Graphviz
# renders without warnings, schedule graphs, and loggopsim -V end to end.
# Prints "ok - ..." / "not ok - ..." lines.
set -u
B=$(cd "${1:-build}" && pwd)
V=$B/bin/goalviz
here=$(cd "$(dirname "$0")" && pwd)
D=$here/data
CHECK="python3 $here/check_svg.py"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$D" || exit 2

ok() { echo "ok - goalviz $1"; }
fail() {
	echo "not ok - goalviz $1"
	[ -s "$tmp/diff" ] && sed 's/^/    /' "$tmp/diff" | head -20
	rm -f "$tmp/diff"
}
# check NAME CMD...: ok if CMD succeeds
check() { local n=$1; shift; if "$@" >"$tmp/diff" 2>&1; then ok "$n"; else fail "$n"; fi; }

# Golden: the bars and messages of the SVG, with their exact times.
for f in pingpong old noise; do
	if "$V" "$f.tl" -o "$tmp/$f.svg" 2>"$tmp/diff" &&
		$CHECK "$tmp/$f.svg" >"$tmp/out" 2>>"$tmp/diff" &&
		diff -u "$f.expect" "$tmp/out" >"$tmp/diff"; then
		ok "$f.tl: well-formed SVG with every bar and message at its times"
	else
		fail "$f.tl: well-formed SVG with every bar and message at its times"
	fi
done

# Tooltips carry the times and the size.
check "tooltip of a message" grep -q 'message 0 -&gt; 1, 8 bytes' "$tmp/pingpong.svg"
check "tooltip of a bar" grep -q 'rank 1 cpu 0: receive overhead (o + max(sO, sG))' "$tmp/pingpong.svg"
check "title with P and the parameters" \
	grep -q 'LogGOPS timeline: P=2 L=2500 o=1500 g=1000 G=6 O=0 S=65535' "$tmp/pingpong.svg"
check "old format title" grep -q 'LogGOPSim timeline (old format): P=2 G=6' "$tmp/old.svg"
check "detours drawn and in the legend" grep -q 'noise (a detour)' "$tmp/noise.svg"

# Same input, same bytes; standard input works.
"$V" pingpong.tl -o "$tmp/again.svg" 2>/dev/null
"$V" - -o "$tmp/stdin.svg" <pingpong.tl 2>/dev/null
check "output is deterministic" cmp "$tmp/pingpong.svg" "$tmp/again.svg"
check "reads standard input" cmp <($CHECK "$tmp/stdin.svg") pingpong.expect

# Windows.
"$V" pingpong.tl --from 5us --to 10000 -o "$tmp/w.svg" 2>"$tmp/diff"
cat >"$tmp/want" <<'EOF'
orecv 1 0 4000 5542
grecv 1 0 4000 5042
osend 1 0 5542 7042
gsend 1 0 5542 6584
orecv 0 0 9542 11084
grecv 0 0 9542 10584
msg 1 0 send=5542 depart=7042 arrival=9542 handled=9542 size=8
EOF
check "--from 5us --to 10000 keeps what overlaps the window" diff -u "$tmp/want" <($CHECK "$tmp/w.svg")
"$V" pingpong.tl --ranks 1 -o "$tmp/r.svg" 2>"$tmp/diff"
check "--ranks 1 keeps rank 1 only" diff -u <(grep ' 1 0 ' pingpong.expect | grep -v msg) <($CHECK "$tmp/r.svg")

# More lanes than drawn: the rest is named, with a suggestion.
python3 - "$tmp/big.tl" <<'EOF'
import sys
with open(sys.argv[1], 'w') as f:
    f.write('loggopsim-timeline 1 P 300 L 2500 o 1500 g 1000 G 6 O 0 S 65535 ncpus 1 nnics 1\n')
    for r in range(300):
        f.write('loclop %d 0 %d %d\n' % (r, r * 10, r * 10 + 100))
EOF
"$V" "$tmp/big.tl" -o "$tmp/big.svg" 2>"$tmp/err"
check "beyond 256 lanes: a note names what was left out" grep -qx \
	'goalviz: note: left out 44 ranks from rank 256 on (at most 256 lanes are drawn); choose them with e.g. --ranks 256-299' "$tmp/err"
check "beyond 256 lanes: 256 lanes drawn" test "$($CHECK "$tmp/big.svg" | wc -l)" -eq 256
check "beyond 256 lanes: the note is in the picture" grep -q 'left out 44 ranks' "$tmp/big.svg"
"$V" "$tmp/big.tl" --ranks 250-299 --max-lanes 300 -o "$tmp/big2.svg" 2>"$tmp/err"
check "--ranks 250-299 draws 50 lanes, no note" test "$($CHECK "$tmp/big2.svg" | wc -l)" -eq 50 -a ! -s "$tmp/err"
"$V" pingpong.tl --max-items 3 -o "$tmp/mi.svg" 2>"$tmp/err"
check "--max-items 3: three items and a note" test "$($CHECK "$tmp/mi.svg" | wc -l)" -eq 3
check "--max-items 3: the note suggests --from" grep -q 'see them with e.g. --from 4000' "$tmp/err"

# Errors: FILE:LINE:COL: error: ..., exit status 1.
for f in err-*.tl; do
	"$V" "$f" -o "$tmp/e.svg" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 1 ] && diff -u "${f%.tl}.err" "$tmp/err" >"$tmp/diff"; then
		ok "rejects $f"
	else
		echo "exit status $rc" >>"$tmp/diff"
		fail "rejects $f"
	fi
done
"$V" pingpong.tl --bogus >/dev/null 2>"$tmp/err"
check "bad option: exit status 2" test $? -eq 2
printf '%s\n' "goalviz: error: unknown option '--bogus'" "Try 'goalviz --help'." >"$tmp/want"
check "bad option: the message and the Try line" diff -u "$tmp/want" "$tmp/err"
"$V" pingpong.tl -o x.jpeg >/dev/null 2>&1
check "unknown extension: exit status 2" test $? -eq 2
"$V" --help | grep -q '^usage: goalviz'
check "--help" test $? -eq 0

# Dot: Graphviz renders it without a warning, positions kept.
if command -v neato >/dev/null; then
	for f in pingpong old; do
		"$V" "$f.tl" -o "$tmp/$f.dot" 2>/dev/null
		neato -n2 -Tsvg "$tmp/$f.dot" -o "$tmp/$f.gv.svg" 2>"$tmp/diff"
		check "$f.dot renders with neato -n2 without warnings" test $? -eq 0 -a ! -s "$tmp/diff"
	done
	check "the dot carries the tooltips" grep -q 'tooltip="message 1 -> 0, 8 bytes' "$tmp/pingpong.dot"
	n=$(grep -c 'class="node osend"' "$tmp/pingpong.gv.svg")
	check "Graphviz SVG has one node per send overhead" test "$n" -eq 2
else
	echo "ok - goalviz dot rendering # SKIP neato not installed"
fi

# Schedule graphs.
cat >"$tmp/wild.goal" <<'EOF'
num_ranks 3
rank 0 {
a: send 4b to 2 tag 5
b: calc 100
b irequires a
}
rank 1 {
send 4b to 2 tag 7
}
rank 2 {
r1: recv 4b from -1 tag 7
r2: recv 4b from 0 tag -1
r3: recv 4b from 1 tag 7
r2 requires r1
}
EOF
if "$V" --schedule "$tmp/wild.goal" -o "$tmp/wild.dot" 2>"$tmp/err"; then
	cat >"$tmp/want" <<'EOF'
  r0_0 -> r0_1 [style=dashed];
  r2_0 -> r2_1;
  r0_0 -> r2_1 [color="#c03030", penwidth=1.6, style=dotted, tooltip="wildcard: one possible match"];
  r1_0 -> r2_0 [color="#c03030", penwidth=1.6, style=dotted, tooltip="wildcard: one possible match"];
EOF
	check "schedule: edges, irequires dashed, matches with wildcards" diff -u "$tmp/want" <(grep -- '->' "$tmp/wild.dot")
	check "schedule: an unmatched receive is marked" grep -q 'r2_2 \[label="r3: recv 4 B from 1 tag 7".*no send matches this receive", color=red' "$tmp/wild.dot"
	check "schedule: one cluster per rank" test "$(grep -c 'subgraph cluster_r' "$tmp/wild.dot")" -eq 3
	if command -v dot >/dev/null; then
		dot -Tsvg "$tmp/wild.dot" -o "$tmp/wild.svg" 2>"$tmp/diff"
		check "schedule dot renders without warnings" test $? -eq 0 -a ! -s "$tmp/diff"
		"$V" --schedule "$tmp/wild.goal" -o "$tmp/wild2.svg" 2>/dev/null
		check "schedule SVG through Graphviz is well-formed" python3 -c \
			"import xml.etree.ElementTree as E,sys; E.parse(sys.argv[1])" "$tmp/wild2.svg"
	fi
else
	fail "schedule: goalviz --schedule"
	cat "$tmp/err"
fi
"$V" --schedule err-empty.tl -o "$tmp/x.dot" 2>/dev/null
check "schedule: a bad schedule exits 1" test $? -eq 1

# End to end: loggopsim -V, then goalviz, gives the hand-computed times.
S=$B/bin/loggopsim
if [ -x "$S" ]; then
	cat >"$tmp/pp.goal" <<'EOF'
num_ranks 2
rank 0 {
s: send 8b to 1 tag 0
r: recv 8b from 1 tag 0
r requires s
}
rank 1 {
r: recv 8b from 0 tag 0
s: send 8b to 0 tag 0
s requires r
}
EOF
	"$S" -q -b -V "$tmp/pp.tl" "$tmp/pp.goal" >/dev/null 2>&1
	"$V" "$tmp/pp.tl" -o "$tmp/pp.svg" 2>/dev/null
	check "loggopsim -V ping-pong: exact times" diff -u pingpong.expect <($CHECK "$tmp/pp.svg")
	# Rank 1 computes until 5000: the message (arrives 4000) waits for the CPU.
	sed 's/^r: recv 8b from 0 tag 0$/c: calc 5000\nr: recv 8b from 0 tag 0/' "$tmp/pp.goal" >"$tmp/busy.goal"
	"$S" -q -b -V "$tmp/busy.tl" "$tmp/busy.goal" >/dev/null 2>&1
	"$V" "$tmp/busy.tl" -o "$tmp/busy.svg" 2>/dev/null
	check "loggopsim -V: a message waiting for a busy CPU joins its receive" \
		grep -x 'msg 0 1 send=0 depart=1500 arrival=4000 handled=5000 size=8' <($CHECK "$tmp/busy.svg")
	check "loggopsim -V: the wait is drawn dotted" grep -q 'stroke-dasharray="1.5,2"' "$tmp/busy.svg"
	# Two size ranges (tests/sim/cases/ranges-two.goal, hand-computed
	# there): each message leaves o of its own range after its send.
	# msgs PARAMS NAME: the messages goalviz draws of that run, in $tmp/NAME.
	C=$here/../sim/cases
	msgs() {
		"$S" -q -p "$1" -V "$tmp/$2.tl" "$C/ranges-two.goal" >/dev/null 2>&1
		"$V" "$tmp/$2.tl" -o "$tmp/$2.svg" 2>"$tmp/diff"
		$CHECK "$tmp/$2.svg" | grep '^msg'
	}
	printf '%s\n' 'msg 0 1 send=0 depart=10 arrival=110 handled=110 size=11' \
		'msg 0 1 send=30 depart=80 arrival=1080 handled=1080 size=1001' >"$tmp/want"
	check "loggopsim -V with two size ranges: exact messages" \
		diff -u "$tmp/want" <(msgs "$C/ranges-two.params" r2)
	check "two size ranges: both in the title" grep -q \
		'P=2 S=100000, 2 size ranges: 0..64 L=100 o=10 g=20 G=1 O=0; 65..inf L=1000 o=50 g=5 G=0.5 O=2' \
		"$tmp/r2.svg"
	# The ranges the other way round: the 1001-byte message (sent at 70)
	# overtakes the 11-byte one (arrives at 180, before 1050) and is handled
	# first; the 11-byte one waits for rank 1's NIC until 1200.
	sed -e 's/^range 0 64 .*/range 0 64 L=1000 o=50 g=5 G=0.5 O=2/' \
		-e 's/^range 65 inf .*/range 65 inf L=100 o=10 g=20 G=1 O=0/' \
		"$C/ranges-two.params" >"$tmp/rev.params"
	printf '%s\n' 'msg 0 1 send=0 depart=50 arrival=1050 handled=1200 size=11' \
		'msg 0 1 send=70 depart=80 arrival=180 handled=180 size=1001' >"$tmp/want"
	check "two size ranges, a message that overtakes: exact messages" \
		diff -u "$tmp/want" <(msgs "$tmp/rev.params" rev)
else
	echo "ok - goalviz end to end # SKIP no $S"
fi
exit 0
