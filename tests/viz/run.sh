#!/usr/bin/env bash
# Tests of goalviz: exact times in the SVG of hand-made timelines (new and
# old format), windows and limits, error messages, dot output that Graphviz
# renders without warnings, schedule graphs, loggopsim -V end to end; trace
# JSON (goalviz -o x.json, loggopsim --trace-json) and the critical path's
# marks.  Prints "ok - ..." / "not ok - ..." lines.
set -u
B=$(cd "${1:-build}" && pwd)
V=$B/bin/goalviz
here=$(cd "$(dirname "$0")" && pwd)
D=$here/data
CHECK="python3 $here/check_svg.py"
TRACE="python3 $here/check_trace.py"
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

# Golden: the bars, link loads and messages of the SVG, with their exact
# times (links.tl: tests/net/share.dot's run, plus 24 more links).
for f in pingpong old noise links; do
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

# Link loads: the 32 links that moved the most bytes in the window are
# drawn (ties: the lower number), darker with more flows; a note names the
# others; a window keeps the loads it meets.
"$V" links.tl -o "$tmp/links.svg" 2>"$tmp/err"
check "links: a note names the links left out" grep -qx \
	'goalviz: note: left out 2 links (the 32 that moved the most bytes in the window are drawn)' "$tmp/err"
check "links: the two least busy left out" test "$($CHECK "$tmp/links.svg" | awk '$1 == "link" && ($2 == 20 || $2 == 21)' | wc -l)" -eq 0
check "links: the tooltip of a load" grep -q 'link 15: 3 flows, 9000 bytes' "$tmp/links.svg"
check "links: the legend names the most flows" grep -q 'link load (darker: more flows, at most 3)' "$tmp/links.svg"
"$V" links.tl --from 31000 --to 40000 -o "$tmp/links2.svg" 2>"$tmp/err"
check "links: a window keeps the loads it meets" test \
	"$($CHECK "$tmp/links2.svg" | awk '$1 == "link" { print $2 }' | sort -n | tr '\n' ' ')" = "0 1 3 7 10 10 11 15 16 17 18 "
# A link line is written when its load ends: one that began in the window
# comes after records past it, and is still drawn (and in trace JSON).
printf '%s\n' 'loggopsim-timeline 2 P 2 S 65535 ncpus 1 nnics 1 ranges 1' \
	'range 0 inf L 2500 o 1500 g 1000 G 6 O 0' 'osend 0 0 0 1500' 'loclop 1 0 45000 46000' \
	'link 5 4000 58000 2 100' >"$tmp/cross.tl"
"$V" "$tmp/cross.tl" --from 31000 --to 40000 -o "$tmp/cross.svg" 2>"$tmp/diff"
check "links: a load that began in the window, written after it" test \
	"$($CHECK "$tmp/cross.svg" | grep '^link')" = "link 5 2 100 4000 58000 #8c564b"
"$V" "$tmp/cross.tl" --from 31000 --to 40000 -o "$tmp/cross.json" 2>"$tmp/diff"
check "links: the same load in trace JSON" grep -q '"name":"2 flows","pid":4294967294,"tid":6,"ts":4.000,"dur":54.000' "$tmp/cross.json"
# Link loads have their own item limit, with a note.
"$V" links.tl --max-items 5 -o "$tmp/links3.svg" 2>"$tmp/err"
check "links: loads past the item limit are counted in a note" grep -qx \
	'goalviz: note: left out 30 link loads past the item limit' "$tmp/err"

# Dot: Graphviz renders it without a warning, positions kept.
if command -v neato >/dev/null; then
	for f in pingpong old links; do
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
  r0_t -> r0_0 [style=invis];
  r1_t -> r1_0 [style=invis];
  r2_0 -> r2_1;
  r2_t -> r2_0 [style=invis];
  r2_t -> r2_2 [style=invis];
  r0_0 -> r2_1 [color="#c03030", penwidth=1.6, style=dotted, tooltip="wildcard: one possible match"];
  r1_0 -> r2_0 [color="#c03030", penwidth=1.6, style=dotted, tooltip="wildcard: one possible match"];
EOF
	check "schedule: edges, irequires dashed, matches with wildcards, the ranks' names above the ops that wait for none" diff -u "$tmp/want" <(grep -- '->' "$tmp/wild.dot")
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

# ---- Trace JSON (docs/perfetto.md) ----------------------------------------
C=$here/../sim/cases
# The example of docs/timeline.md, hand-checked: every byte.
"$V" "$C/rendezvous-uq.tl" -o "$tmp/rv.json" 2>"$tmp/diff"
check "json: rendezvous-uq.tl gives exactly rendezvous.json" diff -u rendezvous.json "$tmp/rv.json"
check "json: parses (python3 json) and reads as the viewers read it, flows paired" \
	$TRACE --paired "$tmp/rv.json"
"$V" "$C/rendezvous-uq.tl" -T json >"$tmp/rv-stdout.json" 2>"$tmp/diff"
check "json: -T json on standard output, the same bytes" cmp rendezvous.json "$tmp/rv-stdout.json"
# Every timeline here converts, reads as the viewers read it, and every
# message of a complete run has its flow's start and end.
bad=
for f in "$C"/*.tl pingpong.tl old.tl noise.tl; do
	"$V" "$f" -o "$tmp/t.json" 2>>"$tmp/diff" && $TRACE --paired "$tmp/t.json" >/dev/null 2>>"$tmp/diff" ||
		bad="$bad $(basename "$f")"
done
check "json: every test timeline converts, slices nested or disjoint, flows paired${bad:+ (not:$bad)}" test -z "$bad"
# Window and rank cuts keep exactly what overlaps them (times not cut).
"$V" "$C/rendezvous-uq.tl" --window 100..400 -o "$tmp/w.json" 2>"$tmp/diff"
cat >"$tmp/want" <<'EOF2'
X gsend 1/2 0+205 {op=0, peer=1, size=201}
i arrival 2/6 110 {op=0, peer=0, size=201}
X loclop 2/4 0+500 {op=0}
EOF2
check "json: --window 100..400 keeps what overlaps it" diff -u "$tmp/want" <($TRACE "$tmp/w.json")
"$V" "$C/rendezvous-uq.tl" --ranks 1 -o "$tmp/w.json" 2>"$tmp/diff"
cat >"$tmp/want" <<'EOF2'
i arrival 2/6 110 {op=0, peer=0, size=201}
X loclop 2/4 0+500 {op=0}
X orecv 2/4 500+210 {op=0, peer=0}
X grecv 2/6 500+205 {op=0, peer=0}
EOF2
check "json: --ranks 1 keeps rank 1, no flow to a rank left out" diff -u "$tmp/want" <($TRACE "$tmp/w.json")
"$V" "$C/two-cpus.tl" --ranks 0 --from 10 --to 10 -o "$tmp/w.json" 2>"$tmp/diff"
cat >"$tmp/want" <<'EOF2'
X osend 1/1 0+10 {arrival_ns=110, depart_ns=10, op=0, peer=1, size=1}
X osend 1/2 0+10 {arrival_ns=110, depart_ns=10, op=1, peer=1, size=1}
X loclop 1/1 10+100 {op=2}
EOF2
check "json: two CPUs, --ranks 0 --from 10 --to 10 (ends touching count)" \
	diff -u "$tmp/want" <($TRACE "$tmp/w.json")
check "json: thread names cpu N, nic N send, nic N recv" \
	grep -q '"pid":2,"tid":12,"args":{"name":"nic 1 recv"}' <("$V" "$C/two-cpus.tl" -T json 2>/dev/null)
# Bad windows and rank lists: exit 2 with a message.
usage_err() { # NAME WANT CMD...: exit 2 and the message WANT, then the Try line
	local n=$1 want=$2; shift 2
	"$@" >/dev/null 2>"$tmp/err"
	local rc=$?
	printf '%s\n' "$want" "Try '${want%%:*} --help'." >"$tmp/want"
	if [ $rc -eq 2 ] && diff -u "$tmp/want" "$tmp/err" >"$tmp/diff"; then ok "$n"; else
		echo "exit status $rc" >>"$tmp/diff"; fail "$n"; fi
}
usage_err "json: --window 20us..10us" "goalviz: error: --window '20us..10us' ends before it starts" \
	"$V" "$C/rendezvous-uq.tl" --window 20us..10us -o "$tmp/x.json"
usage_err "json: --window 10us" "goalviz: error: bad window '10us' for --window (expected T0..T1, e.g. 10us..25us)" \
	"$V" "$C/rendezvous-uq.tl" --window 10us -o "$tmp/x.json"
usage_err "json: --window with --from" "goalviz: error: give --window or --from and --to, not both" \
	"$V" "$C/rendezvous-uq.tl" --window 1..2 --from 1 -o "$tmp/x.json"
usage_err "json: --ranks 3-x" "goalviz: error: bad rank list '3-x' (expected e.g. 0-15,32)" \
	"$V" "$C/rendezvous-uq.tl" --ranks 3-x -o "$tmp/x.json"
usage_err "json: --schedule -o x.json" "goalviz: error: --schedule draws a picture: no json, no --critical-path" \
	"$V" --schedule "$C/rendezvous-uq.goal" -o "$tmp/x.json"
# A selection that holds nothing: exit 1, a message that says what the
# timeline has, no output.
for out in e.svg e.json; do
	for sel in "--ranks 7-9:ranks 7-9" "--from 1s:from 1000000000 ns" \
	           "--window 1ms..2ms:from 1000000 ns, to 2000000 ns"; do
		# shellcheck disable=SC2086
		"$V" "$C/rendezvous-uq.tl" ${sel%%:*} -o "$tmp/$out" 2>"$tmp/err"
		rc=$?
		echo "$C/rendezvous-uq.tl: error: nothing to draw in the selection (${sel#*:}): the timeline has ranks 0-1 and events up to 710 ns" >"$tmp/want"
		{ echo "exit status $rc"; diff -u "$tmp/want" "$tmp/err"; } >"$tmp/diff"
		if [ $rc -eq 1 ] && cmp -s "$tmp/want" "$tmp/err" && [ ! -e "$tmp/$out" ]; then
			ok "${out#e.}: ${sel%%:*} that selects nothing is an error"
		else
			fail "${out#e.}: ${sel%%:*} that selects nothing is an error"
		fi
	done
done
# A bad or cut timeline: the reader's errors, FILE:LINE:COL, exit 1.
for f in err-*.tl; do
	"$V" "$f" -o "$tmp/e.json" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 1 ] && diff -u "${f%.tl}.err" "$tmp/err" >"$tmp/diff" && [ ! -e "$tmp/e.json" ]; then
		ok "json: rejects $f as the picture does, no output left"
	else
		echo "exit status $rc" >>"$tmp/diff"
		fail "json: rejects $f as the picture does, no output left"
	fi
done
head -c 150 "$C/rendezvous-uq.tl" >"$tmp/cut.tl"
"$V" "$tmp/cut.tl" -o "$tmp/e.json" 2>"$tmp/err"
check "json: a timeline cut inside a line: exit 1" test $? -eq 1
check "json: ... and where" grep -qx "$tmp/cut.tl:5:29: error: missing send op" "$tmp/err"
head -1 "$C/ranges-two.tl" >"$tmp/cut.tl"
"$V" "$tmp/cut.tl" -o "$tmp/e.json" 2>"$tmp/err"
check "json: a timeline cut in its header" grep -qx \
	"$tmp/cut.tl:2:1: error: expected 2 more range lines after the header" "$tmp/err"

# ---- The critical path ----------------------------------------------------
# Marks in the SVG: an outline per CPU and NIC link, an arrow per wire.
"$V" pingpong.tl --critical-path pingpong.path.csv -o "$tmp/cp.svg" 2>"$tmp/diff"
cat >"$tmp/want" <<'EOF2'
path 0 send 0 0 0 1500 peer=-
path 1 wire 0 0 1500 4000 peer=1
path 2 recv 1 0 4000 5542 peer=-
path 3 snic 1 0 5542 6584 peer=-
path 4 wire 1 0 7042 9542 peer=0
path 5 rnic 0 0 9542 10584 peer=-
EOF2
check "path: every link marked in the SVG at its times" diff -u "$tmp/want" <($CHECK "$tmp/cp.svg" | grep '^path')
check "path: the bars and messages are still all there" diff -u pingpong.expect <($CHECK "$tmp/cp.svg" | grep -v '^path')
check "path: outlines, red arrows, the legend" python3 - "$tmp/cp.svg" <<'EOF2'
import sys, xml.etree.ElementTree as ET
NS = '{http://www.w3.org/2000/svg}'
root = ET.parse(sys.argv[1]).getroot()
marks = [g for g in root.iter(NS + 'g') if g.get('class') == 'critical']
rects = [r for g in marks for r in g.iter(NS + 'rect')]
lines = [l for g in marks for l in g.iter(NS + 'line')]
assert len(rects) == 4 and all(r.get('fill') == 'none' and r.get('stroke') == '#d62728' for r in rects), rects
assert len(lines) == 2 and all(l.get('marker-end') == 'url(#arrowc)' for l in lines), lines
assert any(t.text and t.text.startswith('critical path') for t in root.iter(NS + 'text'))
tips = [g.find(NS + 'title').text for g in marks]
assert 'first "ping", 8 bytes' in tips[1] and tips[4].startswith('critical path, step 4:'), tips
EOF2
"$V" pingpong.tl --critical-path pingpong.path.csv --ranks 1 --to 6000 -o "$tmp/cp1.svg" 2>"$tmp/diff"
check "path: marks of ranks left out and after --to are left out" \
	diff -u <(printf 'path 2 recv 1 0 4000 5542 peer=-\npath 3 snic 1 0 5542 6584 peer=-\n') \
	<($CHECK "$tmp/cp1.svg" | grep '^path')
if command -v neato >/dev/null; then
	"$V" pingpong.tl --critical-path pingpong.path.csv -o "$tmp/cp.dot" 2>/dev/null
	neato -n2 -Tsvg "$tmp/cp.dot" -o "$tmp/cp.gv.svg" 2>"$tmp/diff"
	check "path: the dot with marks renders with neato -n2 without warnings" test $? -eq 0 -a ! -s "$tmp/diff"
fi
# In trace JSON: a "critical path" process, a slice per link, arrows between them.
"$V" pingpong.tl --critical-path pingpong.path.csv -o "$tmp/cp.json" 2>"$tmp/diff"
cat >"$tmp/want" <<'EOF2'
X send 4294967295/4294967286 0+1500 {G_bytes=0, L=0, O_bytes=0, calc_ns=0, g=0, noise_ns=0, o=1, op=0, peer=1, range=0, rank=0, step=0, unit=0, via=root}
s 0x1 4294967295/4294967286 0 -> send@0
X wire 4294967295/4294967270 1500+2500 {G_bytes=0, L=1, O_bytes=0, calc_ns=0, g=0, label=first "ping", 8 bytes, noise_ns=0, o=0, op=0, peer=1, range=0, rank=0, step=1, unit=0, via=depart}
f 0x1 4294967295/4294967270 1500 -> wire@1500
s 0x2 4294967295/4294967270 1500 -> wire@1500
X recv 4294967295/4294967262 4000+1542 {G_bytes=7, L=0, O_bytes=0, calc_ns=0, g=0, noise_ns=0, o=1, op=0, peer=0, range=0, rank=1, step=2, unit=0, via=msg}
f 0x2 4294967295/4294967262 4000 -> recv@4000
s 0x3 4294967295/4294967262 4000 -> recv@4000
X snic 4294967295/4294967278 5542+1042 {G_bytes=7, L=0, O_bytes=0, calc_ns=0, g=1, noise_ns=0, o=0, op=1, peer=0, range=0, rank=1, step=3, unit=0, via=dep}
f 0x3 4294967295/4294967278 5542 -> snic@5542
s 0x4 4294967295/4294967278 5542 -> snic@5542
X wire 4294967295/4294967270 7042+2500 {G_bytes=0, L=1, O_bytes=0, calc_ns=0, g=0, noise_ns=0, o=0, op=1, peer=0, range=0, rank=1, step=4, unit=0, via=depart}
f 0x4 4294967295/4294967270 7042 -> wire@7042
s 0x5 4294967295/4294967270 7042 -> wire@7042
X rnic 4294967295/4294967254 9542+1042 {G_bytes=7, L=0, O_bytes=0, calc_ns=0, g=1, noise_ns=0, o=0, op=1, peer=1, range=0, rank=0, step=5, unit=0, via=msg}
f 0x5 4294967295/4294967254 9542 -> rnic@9542
EOF2
check "path: in JSON a slice per link, named by kind, and a flow to the next" \
	diff -u "$tmp/want" <($TRACE --paired "$tmp/cp.json" | grep '^[Xsf] .* 4294967295/')
check "path: its process and threads are named" \
	grep -q '"pid":4294967295,"tid":4294967294,"args":{"name":"critical path"}' "$tmp/cp.json"
# The path file's errors: FILE:LINE:COL, exit 1.
sed '3s/,wire,/,wired,/' pingpong.path.csv >"$tmp/bad.csv"
"$V" pingpong.tl --critical-path "$tmp/bad.csv" -o "$tmp/x.svg" 2>"$tmp/err"
check "path: a bad file: exit 1" test $? -eq 1
check "path: ... with the place and the reason" grep -qx "$tmp/bad.csv:3:3: error: unknown kind 'wired' (expected calc, send, snic, wire, recv or rnic)" "$tmp/err"
"$V" pingpong.tl --critical-path "$tmp/none.csv" -o "$tmp/x.json" 2>"$tmp/err"
check "path: a missing file: exit 1" test $? -eq 1 -a ! -e "$tmp/x.json"

# End to end: loggopsim -V, then goalviz, gives the hand-computed times.
S=$B/bin/loggopsim
if [ -x "$S" ]; then
	# Large pictures: past 16 lanes the time axis is drawn above the lanes
	# too (its labels twice), past 256 messages the arrows are thin; every
	# bar has a white outline, so bars that touch stay apart.
	"$B/bin/schedgen" alltoall_linear -s 17 -d 8 -o "$tmp/a17.goal" &&
		"$S" -q -V "$tmp/a17.tl" "$tmp/a17.goal" >/dev/null 2>&1 && "$V" "$tmp/a17.tl" -o "$tmp/a17.svg" 2>/dev/null
	check "17 lanes: the time axis above and below" test "$(grep -c '>0 µs</text>' "$tmp/a17.svg")" -eq 2
	check "272 messages: thin arrows" test "$(grep -c 'stroke="#777777" stroke-width="0.50" marker-end' "$tmp/a17.svg")" -eq 272
	check "every bar outlined in white" test "$(grep -c '<rect class=' "$tmp/a17.svg")" -eq "$(grep -c '<rect class=[^>]*stroke="#ffffff" stroke-width="0.5"' "$tmp/a17.svg")"
	"$B/bin/schedgen" alltoall_linear -s 16 -d 8 -o "$tmp/a16.goal" &&
		"$S" -q -V "$tmp/a16.tl" "$tmp/a16.goal" >/dev/null 2>&1 && "$V" "$tmp/a16.tl" -o "$tmp/a16.svg" 2>/dev/null
	check "16 lanes, 240 messages: one axis, arrows as usual" test "$(grep -c '>0 µs</text>' "$tmp/a16.svg")" -eq 1 -a \
		"$(grep -c 'stroke="#333333" stroke-width="1.00" marker-end' "$tmp/a16.svg")" -eq 241   # and the legend's
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
	# loggopsim --trace-json: the same bytes as goalviz's conversion of
	# the -V file of the same run with its --critical-path file, with or
	# without -V, cut or not.
	same_json() { # NAME SCHEDULE [OPTION...]
		local n=$1 g=$2
		shift 2
		"$S" -q -b "$@" -V "$tmp/s.tl" --trace-json "$tmp/s1.json" "$g" >/dev/null 2>"$tmp/diff" &&
			"$S" -q -b "$@" --trace-json "$tmp/s2.json" "$g" >/dev/null 2>>"$tmp/diff" &&
			"$S" -q -b "$@" -V "$tmp/s2.tl" --critical-path "$tmp/s.cp" "$g" >/dev/null 2>>"$tmp/diff" &&
			"$V" "$tmp/s.tl" --labels "$g" --critical-path "$tmp/s.cp" -o "$tmp/g.json" 2>>"$tmp/diff" &&
			cmp "$tmp/s.tl" "$tmp/s2.tl" >>"$tmp/diff" 2>&1 &&
			cmp "$tmp/g.json" "$tmp/s1.json" >>"$tmp/diff" 2>&1 &&
			cmp "$tmp/g.json" "$tmp/s2.json" >>"$tmp/diff" 2>&1 &&
			$TRACE --paired "$tmp/s1.json" >/dev/null 2>>"$tmp/diff"
		check "loggopsim --trace-json $n: goalviz's conversion of its -V, byte for byte" test $? -eq 0
	}
	same_json "rendezvous" "$C/rendezvous-uq.goal" -L 100 -o 10 -g 5 -G 1 -S 100
	same_json "two CPUs" "$C/two-cpus.goal" $(cat "$C/two-cpus.args")
	(cd "$C" && same_json "noise" noise-msg.goal $(cat noise-msg.args))
	"$B/bin/schedgen" allreduce_dissemination -s 16 -d 512 -o "$tmp/d16.goal" 2>/dev/null
	same_json "dissemination P=16" "$tmp/d16.goal"
	"$S" -q -b --window 2us..9us --ranks 1-3,9 --trace-json "$tmp/c1.json" "$tmp/d16.goal" >/dev/null 2>&1
	"$S" -q -b -V "$tmp/c.tl" --critical-path "$tmp/c.cp" "$tmp/d16.goal" >/dev/null 2>&1
	"$V" "$tmp/c.tl" --critical-path "$tmp/c.cp" --window 2us..9us --ranks 1-3,9 -o "$tmp/c2.json" 2>/dev/null
	check "loggopsim --trace-json --window --ranks: goalviz's cut, byte for byte" cmp "$tmp/c1.json" "$tmp/c2.json"
	usage_err "loggopsim --window without --trace-json" "loggopsim: error: --window and --ranks need --trace-json" \
		"$S" --window 1..2 "$tmp/d16.goal"
	usage_err "loggopsim --window 2..1" "loggopsim: error: --window '2..1' ends before it starts" \
		"$S" --trace-json "$tmp/x.json" --window 2..1 "$tmp/d16.goal"
	usage_err "loggopsim --ranks 1--2" "loggopsim: error: bad rank list '1--2' (expected e.g. 0-15,32)" \
		"$S" --trace-json "$tmp/x.json" --ranks 1--2 "$tmp/d16.goal"
	# Slices named by the ops' labels: rank 0's send s and calc c, rank 1's
	# calc w and the receive overhead of s's message; the rest by keyword.
	"$S" -q -b -L 100 -o 10 -g 5 -G 1 -S 100 --trace-json "$tmp/lab.json" "$C/rendezvous-uq.goal" \
		>/dev/null 2>"$tmp/diff"
	cat >"$tmp/want" <<'EOF2'
X s 1/1 0+10 {arrival_ns=110, depart_ns=10, kind=osend, op=0, peer=1, size=201}
X gsend 1/2 0+205 {op=0, peer=1, size=201}
i arrival 2/6 110 {op=0, peer=0, size=201}
X w 2/4 0+500 {kind=loclop, op=0}
X s 2/4 500+210 {kind=orecv, op=0, peer=0}
X grecv 2/6 500+205 {op=0, peer=0}
X c 1/1 500+7 {kind=loclop, op=1}
EOF2
	check "loggopsim --trace-json names slices by their ops' labels" \
		diff -u "$tmp/want" <($TRACE "$tmp/lab.json" | grep -v '^[sf] \| 4294967295/')
	"$S" -q -b -V "$tmp/lab.tl" "$tmp/d16.goal" >/dev/null 2>&1
	"$V" "$tmp/lab.tl" --labels "$C/rendezvous-uq.goal" -o "$tmp/x.json" 2>"$tmp/err"
	check "goalviz --labels of another schedule: exit 1, named" test $? -eq 1 -a \
		"$(cat "$tmp/err")" = "goalviz: error: $tmp/lab.tl: the timeline has 16 ranks, the schedule $C/rendezvous-uq.goal 2: --labels needs the schedule it was simulated from"
	usage_err "goalviz --labels draws no picture" \
		"goalviz: error: --labels names the slices of trace JSON: give an output .json" \
		"$V" "$tmp/lab.tl" --labels "$C/rendezvous-uq.goal" -o "$tmp/x.svg"
	"$S" -q --trace-json "$C/rendezvous-uq.goal" "$C/rendezvous-uq.goal" >/dev/null 2>"$tmp/err"
	check "loggopsim --trace-json refuses its input as the output" grep -q 'error: the output is also the input' "$tmp/err"
	# An incomplete run keeps its JSON, valid, as it keeps its -V.
	"$S" -q --trace-json "$tmp/dl.json" "$C/err-deadlock.goal" >/dev/null 2>&1
	check "loggopsim --trace-json of a deadlocked run: exit 1, valid JSON" \
		test $? -eq 1 -a -s "$tmp/dl.json" -a "$(python3 -c 'import json,sys; json.load(open(sys.argv[1])); print(1)' "$tmp/dl.json" 2>&1)" = 1
else
	echo "ok - goalviz end to end # SKIP no $S"
fi
exit 0
