#!/usr/bin/env bash
# End-to-end tests of loggopsim: every cases/NAME.goal is simulated with the
# options in NAME.args; stdout must equal NAME.out, the timeline NAME.tl (if
# present); err-* cases must exit 1 with exactly NAME.err on stderr.  Then
# option errors, corrupted binaries, determinism and the output formats.
# Prints "ok - ..." / "not ok - ..." lines.
set -u
B=$(cd "${1:-build}" && pwd)
SIM=$B/bin/loggopsim
GOALC=$B/bin/goalc
cd "$(dirname "$0")/cases" || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { echo "ok - loggopsim $1"; }
fail() { echo "not ok - loggopsim $1"; [ -s "$tmp/diff" ] && sed 's/^/    /' "$tmp/diff" | head -30; }
check() { # NAME EXPECTED-FILE ACTUAL-FILE
	if diff -u "$2" "$3" >"$tmp/diff" 2>&1; then ok "$1"; else fail "$1"; fi
}

for f in *.goal; do
	n=${f%.goal}
	args=$(cat "$n.args" 2>/dev/null || true)
	tl=()
	[ -f "$n.tl" ] && tl=(-V "$tmp/tl")
	# shellcheck disable=SC2086
	"$SIM" -q $args "${tl[@]}" "$f" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	case $n in
	err-*)
		echo "exit status $rc" >"$tmp/diff"
		if [ $rc -eq 1 ]; then check "$n: stderr" "$n.err" "$tmp/err"; else fail "$n: exit status 1"; fi
		[ -f "$n.out" ] && check "$n: stdout" "$n.out" "$tmp/out"
		;;
	*)
		if [ $rc -ne 0 ] || [ -s "$tmp/err" ]; then
			{ echo "exit status $rc"; cat "$tmp/err"; } >"$tmp/diff"
			fail "$n: runs cleanly"
			continue
		fi
		check "$n: output" "$n.out" "$tmp/out"
		[ -f "$n.tl" ] && check "$n: timeline" "$n.tl" "$tmp/tl"
		;;
	esac
done

# The same schedule as a binary gives the same output; -f works as well.
"$GOALC" wildcard-uq.goal -o "$tmp/w.bin" 2>"$tmp/diff"
"$SIM" -q $(cat wildcard-uq.args) -f "$tmp/w.bin" >"$tmp/out" 2>&1
check "binary input, -f" wildcard-uq.out "$tmp/out"
# The old tool's long option names.
"$SIM" -q --LogGOPSParmL=100 --LogGOPSParmo=10 --LogGOPSParmg=5 --LogGOPSParmG=0 \
	"$tmp/w.bin" >"$tmp/out" 2>&1
check "long option names" wildcard-uq.out "$tmp/out"

# Parameter files (-p): flags override single values in every range, before
# or after -p (hand calculation in ranges-two.goal: with G=0 in both ranges
# s2 starts at 20, its message arrives at 1070 and is handled until 3120).
"$SIM" -q -G 0 -p ranges-two.params ranges-two.goal >"$tmp/out" 2>&1
printf '%s\n' 'LogGOPS S=100000 P=2 ranges=2' 'range 0..64 L=100 o=10 g=20 G=0 O=0' \
	'range 65..inf L=1000 o=50 g=5 G=0 O=2' 'Host 0: 2070' 'Host 1: 3120' \
	'Maximum finishing time at host 1: 3120 (0.000003120 s)' 'Events: 6 (4 ops, 2 messages)' >"$tmp/want"
check "-G overrides G in every range" "$tmp/want" "$tmp/out"
"$SIM" -q -p ranges-two.params -L 0 -S 7 --json ranges-two.goal >"$tmp/out" 2>&1
echo '{"complete": true, "P": 2, "S": 7, "ranges": [{"first": 0, "last": 64, "L": 0, "o": 10, "g": 20, "G": 1, "O": 0}, {"first": 65, "last": null, "L": 0, "o": 50, "g": 5, "G": 0.5, "O": 2}], "time_ns": 2130, "host": 1, "events": 6, "ops": 4, "messages": 2}' >"$tmp/want"
check "-L and -S override, --json with ranges" "$tmp/want" "$tmp/out"
# A one-range file is the same as the flags, byte for byte.
printf 'loggp-params 1\nrange 0 inf L=100 o=10 g=5 G=0 O=0\n' >"$tmp/one.params"
"$SIM" -q -p "$tmp/one.params" wildcard-uq.goal >"$tmp/out" 2>&1
check "one-range file: output as with flags" wildcard-uq.out "$tmp/out"
"$SIM" -q $(cat wildcard-uq.args) -V "$tmp/t1" --json wildcard-uq.goal >"$tmp/o1" 2>&1
"$SIM" -q -p "$tmp/one.params" -V "$tmp/t2" --json wildcard-uq.goal >"$tmp/o2" 2>&1
if cmp -s "$tmp/o1" "$tmp/o2" && cmp -s "$tmp/t1" "$tmp/t2" && [ -s "$tmp/t1" ]; then
	ok "one-range file: JSON and timeline as with flags"
else
	diff "$tmp/o1" "$tmp/o2" >"$tmp/diff"; fail "one-range file: JSON and timeline as with flags"
fi
# Strided messages (docs/semantics.md section 10; hand calculation in
# stride.goal): without strides in the parameters, or with the strides of
# the schedule below every stride of the file, they cost as contiguous
# ones (contiguous, stride.goal takes 15844 ns); --json lists the
# strides; the critical path refuses them.
sed 's/ stride [0-9]*\( block [0-9]*\)\?//' stride.goal >"$tmp/contig.goal"
grep -v '^stride' stride.params >"$tmp/nostride.params"
"$SIM" -q -p "$tmp/nostride.params" stride.goal >"$tmp/o1" 2>&1
"$SIM" -q -p "$tmp/nostride.params" "$tmp/contig.goal" >"$tmp/o2" 2>&1
if cmp -s "$tmp/o1" "$tmp/o2" && grep -qx 'Host 1: 15844' "$tmp/o1"; then
	ok "strides without stride parameters: as contiguous"
else
	diff "$tmp/o1" "$tmp/o2" >"$tmp/diff"; fail "strides without stride parameters: as contiguous"
fi
sed 's/^stride 64 /stride 8192 /; s/^stride 1024 /stride 16384 /' stride.params >"$tmp/high.params"
"$SIM" -q -p "$tmp/high.params" stride.goal | grep -v '^stride' >"$tmp/o1" 2>&1
grep -v '^stride' "$tmp/o2" >"$tmp/o3"
check "strides below every stride of the file: as contiguous" "$tmp/o3" "$tmp/o1"
"$SIM" -q -p stride.params --json stride.goal >"$tmp/out" 2>&1
echo '{"complete": true, "P": 2, "L": 1000, "o": 100, "g": 50, "G": 2, "O": 1, "S": 2000, "strides": [{"stride": 64, "o_mw": 30, "O_mw": 0.5, "l_mw": 200, "L_mw": 0.25}, {"stride": 1024, "o_mw": 1000, "O_mw": 0, "l_mw": 0, "L_mw": 1}], "time_ns": 22334, "host": 1, "events": 12, "ops": 8, "messages": 4}' >"$tmp/want"
check "--json with strides" "$tmp/want" "$tmp/out"
"$SIM" -q -p stride.params --critical-path "$tmp/cp.csv" stride.goal >"$tmp/out" 2>"$tmp/err"
rc=$?
echo "loggopsim: error: the critical path does not count the middleware costs of strided messages: give a parameter set without strides" >"$tmp/want"
if [ $rc -eq 1 ] && [ ! -s "$tmp/out" ]; then check "--critical-path refuses middleware costs" "$tmp/want" "$tmp/err"; else echo "exit status $rc" >"$tmp/diff"; fail "--critical-path refuses middleware costs"; fi
# Errors in the file: the reader's FILE:LINE:COL message, exit status 1.
expect_file_error() { # NAME EXPECTED-STDERR FILE-CONTENT
	printf '%b' "$3" >"$tmp/bad.params"
	"$SIM" -q -p "$tmp/bad.params" ranges-two.goal >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	printf '%s\n' "$2" >"$tmp/want"
	if [ $rc -eq 1 ] && [ ! -s "$tmp/out" ]; then check "$1" "$tmp/want" "$tmp/err"; else echo "exit status $rc" >"$tmp/diff"; fail "$1"; fi
}
expect_file_error "-p: a gap between ranges" \
	"$tmp/bad.params:3:7: error: range must start at 11 (the previous range's last size + 1)" \
	'loggp-params 1\nrange 0 10 L=1 o=1 g=1 G=1 O=1\nrange 12 inf L=1 o=1 g=1 G=1 O=1\n'
expect_file_error "-p: strides out of order" \
	"$tmp/bad.params:3:8: error: stride 8 after stride 64: strides must increase" \
	'loggp-params 1\nstride 64 o_mw=1 O_mw=0 l_mw=1 L_mw=0\nstride 8 o_mw=1 O_mw=0 l_mw=1 L_mw=0\nrange 0 inf L=1 o=1 g=1 G=1 O=1\n'
expect_file_error "-p: a bad decimal" \
	"$tmp/bad.params:2:27: error: expected a decimal like 6 or 0.4 (at most 9 fraction digits, below 2^32), got '1.x'" \
	'loggp-params 1\nrange 0 inf L=1 o=1 g=1 G=1.x O=1\n'
"$SIM" -q -p "$tmp/none.params" ranges-two.goal >"$tmp/out" 2>"$tmp/err"
rc=$?
echo "$tmp/none.params: error: cannot open: No such file or directory" >"$tmp/want"
if [ $rc -eq 1 ]; then check "-p: missing file" "$tmp/want" "$tmp/err"; else echo "exit status $rc" >"$tmp/diff"; fail "-p: missing file"; fi

# Determinism: two runs, byte-identical output and timeline.
"$SIM" -q -V "$tmp/t1" wildcard-rq.goal >"$tmp/o1" 2>&1
"$SIM" -q -V "$tmp/t2" wildcard-rq.goal >"$tmp/o2" 2>&1
if cmp -s "$tmp/o1" "$tmp/o2" && cmp -s "$tmp/t1" "$tmp/t2" && [ -s "$tmp/t1" ]; then
	ok "deterministic output and timeline"
else
	: >"$tmp/diff"; fail "deterministic output and timeline"
fi

# -b drops the per-host lines; --csv and --json.
"$SIM" -q -b $(cat busy-nic.args) busy-nic.goal >"$tmp/out" 2>&1
grep -v '^Host ' busy-nic.out >"$tmp/want"
check "-b" "$tmp/want" "$tmp/out"
"$SIM" -q $(cat busy-nic.args) --csv "$tmp/csv" busy-nic.goal >/dev/null 2>&1
printf 'rank,finish_ns\n0,110\n1,120\n2,170\n3,220\n' >"$tmp/want"
check "--csv" "$tmp/want" "$tmp/csv"
"$SIM" -q $(cat busy-nic.args) --json busy-nic.goal >"$tmp/out" 2>&1
echo '{"complete": true, "P": 4, "L": 100, "o": 10, "g": 50, "G": 0, "O": 0, "S": 65535, "time_ns": 220, "host": 3, "events": 9, "ops": 6, "messages": 3}' >"$tmp/want"
check "--json" "$tmp/want" "$tmp/out"
"$SIM" -q --json err-deadlock.goal >"$tmp/out" 2>/dev/null
echo '{"complete": false, "P": 4, "stuck_ranks": 3, "ops_never_started": 3}' >"$tmp/want"
check "--json of an incomplete run" "$tmp/want" "$tmp/out"

# The speed line goes to stderr (stdout stays deterministic); -q drops it.
"$SIM" busy-nic.goal >/dev/null 2>"$tmp/err"
if grep -Eq '^loggopsim: 9 events in [0-9.]+ s \([0-9.]+ M events/s\)$' "$tmp/err"; then
	ok "speed line on stderr"
else
	cp "$tmp/err" "$tmp/diff"; fail "speed line on stderr"
fi

# Option errors: exact text, exit status 2.
expect_usage() { # NAME EXPECTED-FIRST-LINE ARGS...
	local name=$1 want=$2
	shift 2
	"$SIM" "$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	printf '%s\n' "$want" "Try 'loggopsim --help'." >"$tmp/want"
	if [ $rc -eq 2 ]; then check "$name" "$tmp/want" "$tmp/err"; else echo "exit status $rc" >"$tmp/diff"; fail "$name"; fi
}
expect_usage "rejects -L abc" "loggopsim: error: -L needs a time in whole ns (2500, 2.5us), not 'abc'" -L abc busy-nic.goal
expect_usage "rejects -L 2.5 (whole ns)" "loggopsim: error: -L needs a time in whole ns (2500, 2.5us), not '2.5'" -L 2.5 busy-nic.goal
expect_usage "rejects an argument to a flag" "loggopsim: error: option '--json' takes no argument" --json=1 busy-nic.goal
expect_usage "rejects -G -1" "loggopsim: error: -G needs a non-negative number (at most 9 decimals), not '-1'" -G -1 busy-nic.goal
expect_usage "rejects no schedule" "loggopsim: error: no schedule given"
expect_usage "rejects two schedules" "loggopsim: error: give exactly one schedule" busy-nic.goal busy-nic.goal
"$SIM" --help >"$tmp/out" 2>&1
if [ $? -eq 0 ] && grep -q '^usage: loggopsim' "$tmp/out"; then ok "--help"; else : >"$tmp/diff"; fail "--help"; fi

# Bad schedules: a clear error and exit status 1, never a crash.
"$SIM" -q "$tmp/missing.bin" >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -eq 1 ] && grep -q "^$tmp/missing.bin: error: " "$tmp/err"; then ok "missing file"; else cp "$tmp/err" "$tmp/diff"; fail "missing file"; fi
printf 'num_ranks 2\nrank 0 {\nsend 1b to 5\n}\nrank 1 {\n}\n' >"$tmp/bad.goal"
"$SIM" -q "$tmp/bad.goal" >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -eq 1 ] && grep -q "bad.goal:3:.*error" "$tmp/err"; then ok "text error"; else cp "$tmp/err" "$tmp/diff"; fail "text error"; fi
size=$(stat -c %s "$tmp/w.bin")
for off in 0 8 16 24 40 64 72 100 $((size - 20)); do
	cp "$tmp/w.bin" "$tmp/c.bin"
	printf '\x7f\xff\x13' | dd of="$tmp/c.bin" bs=1 seek="$off" conv=notrunc 2>/dev/null
	"$SIM" -q "$tmp/c.bin" >/dev/null 2>"$tmp/err"
	rc=$?
	# A flipped byte may leave a valid schedule (e.g. in a size); what
	# matters: no crash, and an error is an error.
	if [ $rc -eq 0 ] || { [ $rc -eq 1 ] && grep -q "error: " "$tmp/err"; }; then
		ok "corrupted binary (offset $off): clean result or clear error"
	else
		{ echo "exit status $rc"; cat "$tmp/err"; } >"$tmp/diff"; fail "corrupted binary (offset $off)"
	fi
done
head -c $((size / 2)) "$tmp/w.bin" >"$tmp/t.bin"
"$SIM" -q "$tmp/t.bin" >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -eq 1 ] && grep -q "error: " "$tmp/err"; then ok "truncated binary rejected"; else cp "$tmp/err" "$tmp/diff"; fail "truncated binary rejected"; fi
# ---- Sweeps (--sweep) ----
ROOT=$(cd ../../.. && pwd)
# The table: 3130 and 2130 are the hand calculations of ranges-two.goal (-p
# as is, and with L=0 in every range); 2130/3130 = 0.6805.
"$SIM" -q -p ranges-two.params --sweep 'L=*1,0' --relative-to 'L=*1' \
	--title 'ranges-two: L=0' --svg "$tmp/c.svg" ranges-two.goal >"$tmp/out" 2>"$tmp/err"
check "sweep: table" sweep-table.out "$tmp/out"
check "sweep: SVG chart" sweep-chart.svg "$tmp/c.svg"
if command -v rsvg-convert >/dev/null 2>&1; then
	if rsvg-convert "$tmp/c.svg" -o "$tmp/c.png" 2>"$tmp/diff" && [ -s "$tmp/c.png" ]; then
		ok "sweep: SVG renders"; else fail "sweep: SVG renders"; fi
else
	echo "ok - loggopsim sweep: SVG renders # SKIP rsvg-convert not installed"
fi

# Every set of a sweep gives exactly what a single run with its parameters
# gives (finishing time, host, events), whatever the number of threads.
spec='L=10..1000*10 o=5,50 G=0,0.5 O=0,G S=0,65535'
"$SIM" -q --sweep "$spec" -j 1 --no-wall --csv "$tmp/j1.csv" busy-nic.goal >/dev/null 2>&1
"$SIM" -q --sweep "$spec" -j 2 --no-wall --csv "$tmp/j2.csv" busy-nic.goal >/dev/null 2>&1
"$SIM" -q --sweep "$spec" -j 7 --no-wall --csv "$tmp/j7.csv" busy-nic.goal >/dev/null 2>&1
if [ "$(wc -l <"$tmp/j1.csv")" -eq 49 ] && cmp -s "$tmp/j1.csv" "$tmp/j2.csv" && cmp -s "$tmp/j1.csv" "$tmp/j7.csv"; then
	ok "sweep: 48 sets, same CSV with -j 1, 2, 7"
else
	diff "$tmp/j1.csv" "$tmp/j2.csv" >"$tmp/diff"; fail "sweep: 48 sets, same CSV with -j 1, 2, 7"
fi
bad=0
while IFS=, read -r _ name _ L o g G O S status time host events _; do
	"$SIM" -q --json -L "$L" -o "$o" -g "$g" -G "$G" -O "$O" -S "$S" busy-nic.goal >"$tmp/one" 2>&1
	want="\"time_ns\": $time, \"host\": $host, \"events\": $events,"
	if [ "$status" != ok ] || ! grep -qF "$want" "$tmp/one"; then
		echo "set $name: sweep $status $want; single run: $(cat "$tmp/one")" >>"$tmp/diff"
		bad=1
	fi
done < <(tail -n +2 "$tmp/j1.csv")
: >"$tmp/diff"
if [ $bad -eq 0 ]; then ok "sweep: every set equals a single run"; else fail "sweep: every set equals a single run"; fi
# The CSV: header, a row per set; wall_s is a number unless --no-wall.
"$SIM" -q --sweep 'L=100,200' --relative-to L=200 --csv "$tmp/w.csv" busy-nic.goal >/dev/null 2>&1
{ echo 'set,name,P,L,o,g,G,O,S,status,time_ns,host,events,relative,wall_s'
  echo '1,L=100,4,100,1500,1000,6,0,65535,ok,WALL'
  echo '2,L=200,4,200,1500,1000,6,0,65535,ok,WALL'; } >"$tmp/want"
sed -E 's/,ok,.*,[0-9]+\.[0-9]{3}$/,ok,WALL/' "$tmp/w.csv" >"$tmp/got"
check "sweep: CSV columns, wall time" "$tmp/want" "$tmp/got"
t1=$(cut -d, -f11 "$tmp/w.csv" | sed -n 2p) t2=$(cut -d, -f11 "$tmp/w.csv" | sed -n 3p)
rel=$(cut -d, -f14 "$tmp/w.csv" | sed -n 2p)
want=$(awk -v a="$t1" -v b="$t2" 'BEGIN { printf "%.4f", a / b }')
if [ "$rel" = "$want" ] && [ "$(cut -d, -f14 "$tmp/w.csv" | sed -n 3p)" = 1.0000 ]; then
	ok "sweep: relative column"; else echo "$rel vs $want" >"$tmp/diff"; fail "sweep: relative column"; fi
# A sweep file; unspecified values come from the command line.
printf 'base\nrdma O=0\nno-overlap O=G\nbw G=*10\nlat L=*10\n' >"$tmp/paper.sweep"
"$SIM" -q -O 2 -L 100 --sweep "$tmp/paper.sweep" --no-wall --csv - busy-nic.goal >"$tmp/out" 2>&1
cut -d, -f2,4-9 "$tmp/out" >"$tmp/got"
printf '%s\n' name,L,o,g,G,O,S base,100,1500,1000,6,2,65535 rdma,100,1500,1000,6,0,65535 \
	no-overlap,100,1500,1000,6,6,65535 bw,100,1500,1000,60,2,65535 lat,1000,1500,1000,6,2,65535 >"$tmp/want"
check "sweep: file sets over the command-line values" "$tmp/want" "$tmp/got"

# A parameter file per set: the set starts from its file (with the
# command line's single values), its changes refer to that.  pp100.goal is a
# ping-pong of 100 bytes: 2(L + 2o + max(sO, sG)) with sG = round(99 G):
# base 2(2500 + 3000 + 594) = 12188; a 2(1000 + 200 + 198) = 2796; b (100
# bytes in the second range) 2(3000 + 400 + 50) = 6900; b2 (L doubled, O =
# G) 2(6000 + 400 + 50) = 12900; with -L 7: 810, 914 and 2(14 + 400 + 50).
printf 'num_ranks 2\nrank 0 {\nl1: send 100b to 1\nl2: recv 100b from 1\nl2 requires l1\n}\nrank 1 {\nl1: recv 100b from 0\nl2: send 100b to 0\nl2 requires l1\n}\n' >"$tmp/pp100.goal"
printf 'loggp-params 1\nrange 0 inf L=1000 o=100 g=50 G=2 O=0\n' >"$tmp/a.params"
printf 'loggp-params 1\nS 100\nrange 0 63 L=500 o=10 g=5 G=1 O=0\nrange 64 inf L=3000 o=200 g=100 G=0.5 O=0\n' >"$tmp/b.params"
printf 'base\na params=%s\nb params=%s\nb2 params=%s L=*2 O=G\n' "$tmp/a.params" "$tmp/b.params" "$tmp/b.params" >"$tmp/own.sweep"
"$SIM" -q --sweep "$tmp/own.sweep" --no-wall --csv - "$tmp/pp100.goal" 2>&1 | cut -d, -f2,4-9,11 >"$tmp/got"
printf '%s\n' name,L,o,g,G,O,S,time_ns base,2500,1500,1000,6,0,65535,12188 a,1000,100,50,2,0,65535,2796 \
	b,mixed,mixed,mixed,mixed,0,100,6900 b2,mixed,mixed,mixed,mixed,mixed,100,12900 >"$tmp/want"
check "sweep: a parameter file per set" "$tmp/want" "$tmp/got"
"$SIM" -q -L 7 --sweep "$tmp/own.sweep" --no-wall --csv - "$tmp/pp100.goal" 2>&1 | cut -d, -f2,11 >"$tmp/got"
printf '%s\n' name,time_ns base,7202 a,810 b,914 b2,928 >"$tmp/want"
check "sweep: command-line values over a set's parameter file" "$tmp/want" "$tmp/got"

# Bad specifications and options: exact messages and exit statuses (2: a
# usage error, with the Try line).
expect_err() { # NAME STATUS EXPECTED-STDERR ARGS...
	local name=$1 st=$2 want=$3
	shift 3
	"$SIM" -q "$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	printf '%s\n' "$want" >"$tmp/want"
	[ "$st" = 2 ] && echo "Try 'loggopsim --help'." >>"$tmp/want"
	if [ $rc -eq "$st" ]; then check "$name" "$tmp/want" "$tmp/err"; else echo "exit status $rc" >"$tmp/diff"; fail "$name"; fi
}
expect_err "sweep: bad range" 2 "loggopsim: error: --sweep: range '1..9*1': the factor after '*' must be an integer of at least 2" \
	--sweep 'G=1,2 L=1..9*1' busy-nic.goal
expect_err "sweep: unknown parameter" 2 "loggopsim: error: --sweep: unknown parameter 'l' (expected L, o, g, G, O, S, seed or place)" \
	--sweep 'l=1' busy-nic.goal
printf 'a params=%s\n' "$tmp/none.params" >"$tmp/np.sweep"
expect_err "sweep: a set's parameter file missing" 1 "$tmp/np.sweep:1:10: error: cannot use the parameter file: $tmp/none.params: error: cannot open: No such file or directory" \
	--sweep "$tmp/np.sweep" busy-nic.goal
printf 'a params=%s params=%s\n' "$tmp/a.params" "$tmp/a.params" >"$tmp/np.sweep"
expect_err "sweep: params given twice" 1 "$tmp/np.sweep:1:$((${#tmp} + 20)): error: params given twice" \
	--sweep "$tmp/np.sweep" busy-nic.goal
printf 'a L=1\nb L=2 x\n' >"$tmp/bad.sweep"
expect_err "sweep: file error" 1 "$tmp/bad.sweep:2:7: error: expected NAME=VALUE, got 'x'" \
	--sweep "$tmp/bad.sweep" busy-nic.goal
expect_err "sweep: missing file" 1 "$tmp/none.sweep: error: cannot open: No such file or directory" \
	--sweep "$tmp/none.sweep" busy-nic.goal
expect_err "sweep: unknown baseline" 2 "loggopsim: error: --relative-to: no set named 'L=3'" \
	--sweep 'L=1,2' --relative-to L=3 busy-nic.goal
expect_err "sweep: product too large" 2 "loggopsim: error: set 'L=*4': L*4 is too large" \
	--sweep 'L=*4' -L 9223372036854775807 busy-nic.goal
expect_err "sweep: incomplete sets" 1 "loggopsim: error: set 'S=0': incomplete run (deadlock or unmatched messages)
loggopsim: error: set 'S=65535': incomplete run (deadlock or unmatched messages)" \
	--sweep 'S=0,65535' --no-wall --csv "$tmp/inc.csv" err-deadlock.goal
printf '%s\n' 'set,name,P,L,o,g,G,O,S,status,time_ns,host,events,relative,wall_s' \
	'1,S=0,4,2500,1500,1000,6,0,0,incomplete,,,,,' '2,S=65535,4,2500,1500,1000,6,0,65535,incomplete,,,,,' >"$tmp/want"
check "sweep: incomplete sets in the CSV" "$tmp/want" "$tmp/inc.csv"
expect_usage "sweep: -j 0" "loggopsim: error: -j needs a number of threads from 1 to 1024, not '0'" --sweep L=1 -j 0 busy-nic.goal
expect_usage "sweep: --part 3/2" "loggopsim: error: --part needs K/N with 1 <= K <= N, not '3/2'" --sweep L=1 --part 3/2 busy-nic.goal
expect_usage "sweep: --svg without --relative-to" "loggopsim: error: --svg needs --relative-to" --sweep L=1 --svg x.svg busy-nic.goal
expect_usage "sweep: -j without --sweep" "loggopsim: error: -j, --relative-to, --svg, --title, --part and --no-wall need --sweep" -j 2 busy-nic.goal
expect_usage "sweep: with -V" "loggopsim: error: --sweep cannot be combined with -V, --json, --critical-path, --tolerance, --qstat, --account, --lookahead, --trace-json or --jobs-alone" --sweep L=1 -V x busy-nic.goal

# Split sweeps: pieces (--part) merged give the CSV of the whole sweep.
spec='L=10..10000*10 G=0,1,2'
"$SIM" -q --sweep "$spec" --no-wall --relative-to L=100:G=1 --csv "$tmp/full.csv" busy-nic.goal >/dev/null 2>&1
for k in 1 2 3 4 5; do
	"$SIM" -q --sweep "$spec" --no-wall --part "$k/5" --csv "$tmp/piece-$k.csv" busy-nic.goal >/dev/null 2>&1
done
"$ROOT/scripts/sweep-merge.sh" --relative-to L=100:G=1 "$tmp"/piece-{5,3,1,2,4}.csv >"$tmp/merged.csv" 2>"$tmp/diff"
check "sweep: --part pieces merged" "$tmp/full.csv" "$tmp/merged.csv"
if [ "$(sed -n 2p "$tmp/piece-2.csv" | cut -d, -f1)" = 2 ] && [ "$(wc -l <"$tmp/piece-2.csv")" -eq 4 ]; then
	ok "sweep: --part 2/5 runs sets 2, 7, 12"; else : >"$tmp/diff"; fail "sweep: --part 2/5 runs sets 2, 7, 12"; fi
"$ROOT/scripts/sweep-merge.sh" "$tmp/piece-1.csv" "$tmp/piece-1.csv" >/dev/null 2>"$tmp/err"
rc=$?
echo "sweep-merge.sh: error: set 1 appears twice" >"$tmp/want"
if [ $rc -eq 1 ]; then check "sweep: merge refuses a repeated piece" "$tmp/want" "$tmp/err"; else fail "sweep: merge refuses a repeated piece"; fi
# The Slurm job-array script, with the variables Slurm sets.
for k in 1 2 3; do
	SLURM_ARRAY_TASK_ID=$((k + 4)) SLURM_ARRAY_TASK_MIN=5 SLURM_ARRAY_TASK_COUNT=3 SLURM_CPUS_PER_TASK=2 \
		LOGGOPSIM=$SIM "$ROOT/scripts/sweep-slurm.sh" "$tmp/slurm" --sweep "$spec" --no-wall busy-nic.goal >"$tmp/out" 2>"$tmp/diff"
done
"$ROOT/scripts/sweep-merge.sh" --relative-to L=100:G=1 "$tmp"/slurm/piece-*.csv >"$tmp/merged.csv" 2>"$tmp/diff"
check "sweep: Slurm array tasks merged" "$tmp/full.csv" "$tmp/merged.csv"
# The GNU parallel recipe (skipped without GNU parallel).
if command -v parallel >/dev/null 2>&1; then
	LOGGOPSIM=$SIM "$ROOT/scripts/sweep-parallel.sh" -n 4 -j 2 --relative-to L=100:G=1 -- \
		--sweep "$spec" --no-wall busy-nic.goal >"$tmp/merged.csv" 2>"$tmp/diff"
	check "sweep: GNU parallel recipe" "$tmp/full.csv" "$tmp/merged.csv"
else
	echo "ok - loggopsim sweep: GNU parallel recipe # SKIP parallel not installed"
fi

# ---- Nodes: two levels of parameters (docs/semantics.md section 12) --------
# nodes-two.goal (a case above) is the section's example: 130 within the
# node, 11509 across.  Two ranges in the intra file: the 1000-byte messages
# take the second, the same values, so only the parameter lines differ.
printf 'loggp-params 1\nrange 0 999 L=9 o=9 g=9 G=9 O=9\nrange 1000 inf L=100 o=10 g=5 G=0.01 O=0\n' >"$tmp/in2.params"
"$SIM" -q -b --ranks-per-node 4 --intra-params "$tmp/in2.params" nodes-two.goal >"$tmp/out" 2>&1
{ echo 'LogGOPS L=2500 o=1500 g=1000 G=6 O=0 S=65535 P=8'
  echo 'within nodes of 4 ranks: ranges=2'
  echo 'intra range 0..999 L=9 o=9 g=9 G=9 O=9'
  echo 'intra range 1000..inf L=100 o=10 g=5 G=0.01 O=0'
  grep '^Maximum\|^Events' nodes-two.out; } >"$tmp/want"
check "nodes: the intra file's ranges by size" "$tmp/want" "$tmp/out"
"$SIM" -q --ranks-per-node 4 --intra-params "$tmp/in2.params" --json nodes-two.goal >"$tmp/out" 2>&1
if grep -q '"ranks_per_node": 4, "intra": {"ranges": \[{"first": 0, "last": 999, "L": 9, "o": 9, "g": 9, "G": 9, "O": 9}, {"first": 1000, "last": null, "L": 100, "o": 10, "g": 5, "G": 0.01, "O": 0}\]}, "time_ns": 11509' "$tmp/out"; then
	ok "nodes: JSON"
else cp "$tmp/out" "$tmp/diff"; fail "nodes: JSON"; fi
# K = 8: one node, both messages within it (rank 4 at 130 + 15 = 145).
"$SIM" -q -b --ranks-per-node 8 --intra-params nodes-intra.params nodes-two.goal | grep '^Maximum' >"$tmp/out"
echo 'Maximum finishing time at host 4: 145 (0.000000145 s)' >"$tmp/want"
check "nodes: one node of 8" "$tmp/want" "$tmp/out"
# With a network, node n is host n: the same times (one flow at a time),
# and the message within a node has no flow.
"$SIM" -q --ranks-per-node 4 --intra-params nodes-intra.params --topology fattree:k=4,levels=1 \
	--json nodes-two.goal >"$tmp/out" 2>&1
if grep -q '"time_ns": 11509, "host": 4,' "$tmp/out" && grep -q '"flows": 1,' "$tmp/out"; then
	ok "nodes: on a network, node n on host n"
else cp "$tmp/out" "$tmp/diff"; fail "nodes: on a network, node n on host n"; fi
# Without --intra-params K only places the ranks: ranks 0 and 1 share host
# 0, so their message takes L alone: 1500 + 2500 + 1500 + 5994 = 11494.
"$SIM" -q --ranks-per-node 4 --topology fattree:k=4,levels=1 nodes-two.goal | grep '^Host 1:' >"$tmp/out"
echo 'Host 1: 11494' >"$tmp/want"
check "nodes: placement alone" "$tmp/want" "$tmp/out"
# A sweep changes the parameters between nodes only: L=5000 delays rank 4
# by 2500, not rank 1.
"$SIM" -q --ranks-per-node 4 --intra-params nodes-intra.params --sweep 'L=2500,5000' --no-wall \
	--csv - nodes-two.goal 2>/dev/null | cut -d, -f2,11 >"$tmp/out"
printf '%s\n' name,time_ns L=2500,11509 L=5000,14009 >"$tmp/want"
check "nodes: a sweep" "$tmp/want" "$tmp/out"
# A set with its own parameter file keeps the run's nodes: with all zero
# between nodes, rank 1 ends last, at 130.
printf 'loggp-params 1\nrange 0 inf L=0 o=0 g=0 G=0 O=0\n' >"$tmp/zero.params"
printf 'own params=%s\n' "$tmp/zero.params" >"$tmp/nodes.sweep"
"$SIM" -q --ranks-per-node 4 --intra-params nodes-intra.params --sweep "$tmp/nodes.sweep" --no-wall \
	--csv - nodes-two.goal 2>/dev/null | cut -d, -f11 | tail -1 >"$tmp/out"
echo 130 >"$tmp/want"
check "nodes: a set's own parameter file" "$tmp/want" "$tmp/out"
expect_usage "nodes: --intra-params alone" "loggopsim: error: --intra-params needs --ranks-per-node of 2 or more" \
	--intra-params nodes-intra.params nodes-two.goal
expect_usage "nodes: K of 0" "loggopsim: error: --ranks-per-node needs a number of ranks from 1 to 4294967295, not '0'" \
	--ranks-per-node 0 nodes-two.goal
expect_usage "nodes: and --mapping" "loggopsim: error: give --ranks-per-node or --mapping, not both" \
	--ranks-per-node 2 --topology fattree:k=4,levels=1 --mapping linear nodes-two.goal
expect_usage "nodes: K alone" "loggopsim: error: --ranks-per-node needs --intra-params or a network" \
	--ranks-per-node 2 nodes-two.goal
expect_usage "nodes: more nodes than hosts" "loggopsim: error: --ranks-per-node 2: 8 ranks make 4 nodes, and the network has 2 hosts" \
	--ranks-per-node 2 --topology fattree:k=2,levels=1 nodes-two.goal
expect_usage "nodes: and the critical path" "loggopsim: error: parameters within nodes (--intra-params) cannot be combined with the critical path (--critical-path, --sensitivity, --tolerance, --trace-json)" \
	--ranks-per-node 2 --intra-params nodes-intra.params --critical-path "$tmp/cp.csv" nodes-two.goal
printf 'loggp-params 1\nrange 0 inf L=1 o=1 g=1 G=0 O=0\nstride 64 o_mw=1 O_mw=0 l_mw=1 L_mw=0\n' >"$tmp/ins.params"
expect_usage "nodes: strides in the intra file" "loggopsim: error: --intra-params $tmp/ins.params: strided messages cost the same at both levels: give the strides in --params" \
	--ranks-per-node 2 --intra-params "$tmp/ins.params" nodes-two.goal
"$SIM" -q --ranks-per-node 2 --intra-params "$tmp/none.params" nodes-two.goal >/dev/null 2>"$tmp/err"
echo "$tmp/none.params: error: cannot open: No such file or directory" >"$tmp/want"
check "nodes: a missing intra file" "$tmp/want" "$tmp/err"

# ---- Noise and stragglers (docs/noise.md) ---------------------------------
# A noise trace without detours: a warning, and every result as without noise.
printf '# no detours here\n\n' >"$tmp/empty.noise"
"$SIM" -q $(cat busy-nic.args) busy-nic.goal >"$tmp/plain"
"$SIM" -q $(cat busy-nic.args) --noise-trace "$tmp/empty.noise" busy-nic.goal >"$tmp/out" 2>"$tmp/err"
echo "$tmp/empty.noise: warning: no detours in the noise trace: no noise" >"$tmp/want"
check "noise: a trace without detours warns" "$tmp/want" "$tmp/err"
grep -v '^noise ' "$tmp/out" >"$tmp/got"
check "noise: a trace without detours changes no result" "$tmp/plain" "$tmp/got"
# Overlapping detours are merged, with a warning naming the first overlap.
printf '10\t5\n100\t50\n120\t10\n140 30\n' >"$tmp/ov.noise"
"$SIM" -q --noise-trace "$tmp/ov.noise" --noise-offset 0 noise-exact.goal >"$tmp/out" 2>"$tmp/err"
echo "$tmp/ov.noise:3:1: warning: this detour overlaps the one before it; merged (and more overlaps)" >"$tmp/want"
check "noise: overlapping detours merged with a warning" "$tmp/want" "$tmp/err"
grep '^noise' "$tmp/out" >"$tmp/got"
echo "noise trace $tmp/ov.noise, offsets 0, rule exact, seed 1: 2 detours, period 170 ns, 44.12% of CPU time" >"$tmp/want"
check "noise: the merged table (2 detours, period 170 ns)" "$tmp/want" "$tmp/got"
# Malformed noise traces: FILE:LINE:COL: error, exit status 1.
bad_noise() { # NAME TEXT EXPECTED-MESSAGE-AFTER-FILE
	printf "$2" >"$tmp/bad.noise"
	expect_err "noise: $1" 1 "$tmp/bad.noise:$3" --noise-trace "$tmp/bad.noise" busy-nic.goal
}
bad_noise "a word for the start" '# x\nabc 5\n' "2:1: error: expected the start of a detour in ns (START DURATION)"
bad_noise "no duration" '100\n' "1:4: error: expected the duration of the detour in ns after its start and a blank"
bad_noise "an exponent" '1e3 5\n' "1:2: error: expected the duration of the detour in ns after its start and a blank"
bad_noise "text after the duration" '10 5 7\n' "1:6: error: unexpected text after the duration"
bad_noise "a negative duration" '10\t-5\n' "1:4: error: expected the duration of the detour in ns after its start and a blank"
bad_noise "period 0" '# period: 0\n' "1:12: error: expected '# period: T' with T in ns above 0"
bad_noise "a second period" '# period: 100\n5 10\n  # period: 200\n' "3:3: error: a second period (the first is on line 1)"
bad_noise "a period without its colon" '#period 1000\n5 10\n' "1:9: error: expected '# period: T' with T in ns above 0"
bad_noise "a period in words" '# period: soon\n' "1:11: error: expected '# period: T' with T in ns above 0"
bad_noise "a detour after the period" '# period: 100\n90 20\n' " error: a detour ends at 110 ns, after the period of 100 ns"
bad_noise "no CPU time left" '0 100\n' " error: the detours take all of the CPU time (period 100 ns)"
# The period without blanks is the period; a word that only starts with
# 'period' is a comment.
printf '#period:1000\n5 10\n#periodic detours follow\n' >"$tmp/p.noise"
"$SIM" -q --noise-trace "$tmp/p.noise" --noise-offset 0 noise-exact.goal | grep '^noise' >"$tmp/got"
echo "noise trace $tmp/p.noise, offsets 0, rule exact, seed 1: 1 detour, period 1000 ns, 1.00% of CPU time" >"$tmp/want"
check "noise: '#period:1000' is the period" "$tmp/want" "$tmp/got"
# Out of order, overlaps are found when sorting: named by their start.
printf '100 50\n10 5\n120 10\n' >"$tmp/un.noise"
"$SIM" -q --noise-trace "$tmp/un.noise" --noise-offset 0 noise-exact.goal >/dev/null 2>"$tmp/err"
echo "$tmp/un.noise: warning: the detour that starts at 120 ns overlaps the one before it; merged" >"$tmp/want"
check "noise: an overlap out of order is named by its start" "$tmp/want" "$tmp/err"
expect_err "noise: a missing trace" 1 "$tmp/none.noise: error: cannot open: No such file or directory" \
	--noise-trace "$tmp/none.noise" busy-nic.goal
# A slow rank's work past 2^64 - 1 ns fails the run, as any other time.
printf 'num_ranks 1\nrank 0 {\na: calc 10000000000000000000\n}\n' >"$tmp/big.goal"
expect_err "noise: a stretched calc past 2^64 ns" 1 \
	"loggopsim: error: simulated time passes 18446744073709551615 ns at rank 0, op a" --slow 0:2 "$tmp/big.goal"
# Option errors: exit status 2.
expect_usage "noise: factor 0" "loggopsim: error: --slow: the factor must be a number above 0 (at most 9 decimals), not '0'" --slow 1:0 busy-nic.goal
expect_usage "noise: negative factor" "loggopsim: error: --slow: the factor must be a number above 0 (at most 9 decimals), not '-1'" --slow 1:-1 busy-nic.goal
expect_usage "noise: empty rank list" "loggopsim: error: --slow: expected RANKS:FACTOR (e.g. 0,17-31:1.5), not ':2'" --slow :2 busy-nic.goal
expect_usage "noise: a bad rank list" "loggopsim: error: --slow: bad rank list '1,,2' (expected e.g. 0-15,32)" --slow 1,,2:2 busy-nic.goal
expect_usage "noise: a rank outside the schedule" "loggopsim: error: --slow: rank 4 is not a rank of the schedule (0..3)" --slow 2-4:2 busy-nic.goal
expect_usage "noise: a rank in two lists" "loggopsim: error: --slow: rank 3 is in two --slow lists" --slow 1-3:2 --slow 3:1.5 busy-nic.goal
expect_usage "noise: --noise-rule" "loggopsim: error: --noise-rule is exact or published, not 'old'" --noise periodic:1000,25000 --noise-rule old busy-nic.goal
expect_usage "noise: --noise-cosched alone" "loggopsim: error: --noise-cosched, --noise-offset and --noise-rule need --noise-trace or --noise" --noise-cosched busy-nic.goal
expect_usage "noise: two sources" "loggopsim: error: give --noise-trace or --noise, not both" --noise-trace noise.noise --noise periodic:1,1 busy-nic.goal
expect_usage "noise: cosched and an offset" "loggopsim: error: give --noise-cosched or --noise-offset, not both" --noise periodic:1,1 --noise-cosched --noise-offset 5 busy-nic.goal
expect_usage "noise: --seed -1" "loggopsim: error: --seed needs a non-negative integer, not '-1'" --seed -1 busy-nic.goal
expect_usage "noise: a bad spec" "loggopsim: error: --noise: expected periodic:FREQ_HZ,DURATION_NS, poisson:RATE_HZ,DURATION_NS or poisson:RATE_HZ,exp:MEAN_NS, not 'often'" --noise often busy-nic.goal
expect_usage "noise: detours as long as the period" "loggopsim: error: --noise: periodic:1000000,1000 leaves no CPU time (the period is 1000 ns)" --noise periodic:1000000,1000 busy-nic.goal
# Offsets: co-scheduled ranks see the same detours, ranks with their own
# offsets (from the seed) do not; the same seed gives the same output.
printf 'num_ranks 4\n' >"$tmp/four.goal"
for r in 0 1 2 3; do printf 'rank %d {\nc: calc 1000000\n}\n' $r >>"$tmp/four.goal"; done
nz="--noise poisson:20000,exp:5000"
"$SIM" -q $nz --noise-cosched "$tmp/four.goal" | grep '^Host' | cut -d' ' -f3 | sort -u | wc -l >"$tmp/got"
echo 1 >"$tmp/want"
check "noise: co-scheduled ranks finish together" "$tmp/want" "$tmp/got"
"$SIM" -q $nz "$tmp/four.goal" | grep '^Host' | cut -d' ' -f3 | sort -u | wc -l >"$tmp/got"
echo 4 >"$tmp/want"
check "noise: ranks with their own offsets finish apart" "$tmp/want" "$tmp/got"
"$SIM" -q $nz --seed 7 "$tmp/four.goal" >"$tmp/a"
"$SIM" -q $nz --seed 7 "$tmp/four.goal" >"$tmp/b"
"$SIM" -q $nz --seed 8 "$tmp/four.goal" >"$tmp/c"
if cmp -s "$tmp/a" "$tmp/b" && ! cmp -s "$tmp/a" "$tmp/c" && grep -q 'seed 7' "$tmp/a"; then
	ok "noise: the same seed, the same output; another seed, another"
else : >"$tmp/diff"; fail "noise: the same seed, the same output; another seed, another"; fi
# The noise and the slow ranks in the JSON summary.
"$SIM" -q --json $(cat noise-exact.args) --slow 1:2 noise-exact.goal >"$tmp/got"
echo '{"complete": true, "P": 2, "L": 2500, "o": 1500, "g": 1000, "G": 6, "O": 0, "S": 65535, "noise": {"trace": "noise.noise", "offsets": 0, "rule": "exact", "seed": 1, "detours": 4, "period_ns": 1000, "busy_ns": 190}, "slow": ["1:2"], "time_ns": 750, "host": 0, "events": 8, "ops": 8, "messages": 0}' >"$tmp/want"
check "noise: --json" "$tmp/want" "$tmp/got"
# A sweep over seeds: the same CSV at any thread count, one row per seed
# with its seed and the noise; a seed needs noise.
"$SIM" -q $nz --sweep 'seed=1..6' --no-wall --csv - -j 1 "$tmp/four.goal" >"$tmp/s1" 2>&1
"$SIM" -q $nz --sweep 'seed=1..6' --no-wall --csv - -j 2 "$tmp/four.goal" >"$tmp/s2" 2>&1
if cmp -s "$tmp/s1" "$tmp/s2" && [ "$(cut -d, -f1,2,16 "$tmp/s1" | sed -n '2p;7p')" = "$(printf '1,seed=1,1\n6,seed=6,6')" ] &&
	[ "$(head -1 "$tmp/s1")" = "set,name,P,L,o,g,G,O,S,status,time_ns,host,events,relative,wall_s,seed,noise" ] &&
	[ "$(cut -d, -f11 "$tmp/s1" | sort -u | wc -l)" -gt 2 ] &&
	grep -q ',1,"synthetic poisson:20000,exp:5000, offsets own, rule exact"$' "$tmp/s1"; then
	ok "noise: a sweep over seeds, the same at -j 1 and -j 2"
else cp "$tmp/s1" "$tmp/diff"; fail "noise: a sweep over seeds, the same at -j 1 and -j 2"; fi
for k in 1 2; do
	"$SIM" -q $nz --sweep 'seed=1..6' --no-wall --part "$k/2" --csv "$tmp/np-$k.csv" "$tmp/four.goal" >/dev/null 2>&1
done
"$ROOT/scripts/sweep-merge.sh" "$tmp/np-2.csv" "$tmp/np-1.csv" >"$tmp/got" 2>"$tmp/diff"
check "noise: the pieces of a sweep with noise merged" "$tmp/s1" "$tmp/got"
grep '^3,' "$tmp/s1" | cut -d, -f11 >"$tmp/got"
"$SIM" -q $nz --seed 3 --json "$tmp/four.goal" | sed 's/.*"time_ns": \([0-9]*\).*/\1/' >"$tmp/want"
check "noise: a sweep's seed=3 is --seed 3" "$tmp/want" "$tmp/got"
expect_usage "noise: a seed without noise" "loggopsim: error: set 'seed=1': a seed needs --noise-trace, --noise or a random placement" --sweep seed=1,2 busy-nic.goal
expect_usage "noise: --slow beyond the ranks in a sweep" "loggopsim: error: --slow: rank 9 is not a rank of the schedule (0..3)" --slow 9:2 --sweep L=1 busy-nic.goal
"$SIM" -q --slow 1:1.25 --sweep 'L=100 o=10 g=5 G=0' --no-wall --csv - slow.goal 2>&1 | sed -n 2p | cut -d, -f11,16,17 >"$tmp/got"
echo '371,1,"slow 1:1.25"' >"$tmp/want"
check "noise: --slow in a sweep (slow.goal: 371)" "$tmp/want" "$tmp/got"

# Large messages: a ring allreduce of 256 ranks in 64 KiB chunks, every
# message a rendezvous.  Its rendezvous keys (a rank's send, one per rank
# in flight, at the same op of every rank) all fell on one run of the
# dependency table while its hash dropped the rank bits; checked builds
# assert every table's probe lengths.  T = 2 (P - 1) (2o + L + (s-1)G) =
# 510 * (3000 + 2500 + 65535 * 6); events: 2 (P - 1) sends and as many
# receives and messages a rank.  On a tapered fat tree the messages are
# flows, each on links of its own (neighbours): the same T; the 256 flows
# of a step start together, one recomputation.
"$B/bin/schedgen" allreduce_ring -s 256 -d 16777216 -o "$tmp/ring.bin"
"$SIM" -q "$tmp/ring.bin" 2>&1 | sed -n '/^Maximum/,$p' >"$tmp/got"
printf '%s
' 'Maximum finishing time at host 0: 203342100 (0.203342100 s)' \
	'Events: 391680 (261120 ops, 130560 messages)' >"$tmp/want"
check "rendezvous ring allreduce, 256 ranks: T = 510 (2o + L + (s-1)G)" "$tmp/want" "$tmp/got"
"$SIM" -q --topology fattree:k=8,levels=3,taper=4 "$tmp/ring.bin" 2>&1 | sed -n '/^Maximum/p;/^Network/p' >"$tmp/got"
printf '%s\n' 'Maximum finishing time at host 0: 203342100 (0.203342100 s)' \
	'Network fattree:k=8,levels=3,taper=4: 130560 flows, at most 1 on one link, at most 256 recomputed at once' >"$tmp/want"
check "rendezvous ring allreduce, 256 ranks, as flows on a tapered fat tree" "$tmp/want" "$tmp/got"

# --lookahead (docs/parallel.md): a slow rank's factor below 1 shortens
# the least o (o = 10 x 0.5 = 5: 105 ns); messages above S are counted as
# rendezvous; a network's flows leave no lookahead; the JSON; and keeping
# the statistics changes no other output.
"$SIM" -q $(cat lookahead.args) --slow 1:0.5 lookahead.goal | sed -n '/^Lookahead/p' >"$tmp/got"
echo 'Lookahead: 105 ns (the least o + L)' >"$tmp/want"
check "--lookahead: a slow rank's factor below 1 shortens the lookahead" "$tmp/want" "$tmp/got"
"$SIM" -q $(cat lookahead.args) -S 0 lookahead.goal | sed -n '/^Rendezvous/p' >"$tmp/got"
echo 'Rendezvous: 2 messages above S end their sends at their match (no lookahead)' >"$tmp/want"
check "--lookahead: rendezvous messages counted" "$tmp/want" "$tmp/got"
"$SIM" -q $(cat lookahead.args) --topology torus:2x2 lookahead.goal | sed -n '/^Lookahead/p;/^Windows/p' >"$tmp/got"
echo "Lookahead: none (a network's flows decide when messages arrive)" >"$tmp/want"
check "--lookahead: none with a network's flows" "$tmp/want" "$tmp/got"
"$SIM" -q $(cat lookahead.args) --json lookahead.goal | sed 's/.*"lookahead": //' >"$tmp/got"
echo '{"flows": false, "lookahead_ns": 110, "windows": 3, "events": 8, "largest": 4, "rank_visits": 6, "seq_givers": 4, "rendezvous": 0, "merged": 3, "merge_wrong": 0, "merge_skipped": 0, "busiest_block_events": [{"blocks": 2, "events": 7, "dealt_events": 6}, {"blocks": 4, "events": 5, "dealt_events": 5}, {"blocks": 16, "events": 5, "dealt_events": 5}, {"blocks": 64, "events": 5, "dealt_events": 5}]}}' >"$tmp/want"
check "--lookahead: the JSON" "$tmp/want" "$tmp/got"
"$SIM" -q -L 100 -o 10 lookahead.goal >"$tmp/want"
sed '/^Lookahead\|^Windows\|^Blocks\|^Ranks dealt\|^Merge/d' lookahead.out >"$tmp/got"
check "--lookahead changes no other output" "$tmp/want" "$tmp/got"

# The account (docs/sensitivity.md, "The account") on every schedgen
# pattern at 17 ranks, plain, with noise and a slow rank, as rendezvous
# messages, and on a fat tree: each
# rank's parts add up to its finishing time, and keeping it changes no
# output but its own.
if [ -x "$B/bin/schedgen" ]; then
	n=0 bad=
	for p in $("$B/bin/schedgen" --list | awk '{print $1}'); do
		"$B/bin/schedgen" "$p" -s 17 -d 1000 -o "$tmp/ac.bin" 2>/dev/null || continue
		for opts in "" "--noise periodic:1000,25000 --slow 3:2.5" "-S 100" \
			"--topology fattree:k=6,levels=2"; do
			# shellcheck disable=SC2086
			"$SIM" -q $opts "$tmp/ac.bin" >"$tmp/ac0" 2>&1
			# shellcheck disable=SC2086
			"$SIM" -q $opts --account --csv "$tmp/ac.csv" "$tmp/ac.bin" >"$tmp/ac1" 2>&1
			# a pattern of several CPUs (NCCL's tree: up and down apart)
			grep -q 'the account splits the time of one CPU' "$tmp/ac1" && continue
			grep -v '^Account: ' "$tmp/ac1" | cmp -s - "$tmp/ac0" || bad="$bad $p($opts):output"
			awk -F, 'NR > 1 && $3 + $4 + $5 + $6 + $7 != $2 { b = 1 } END { exit b }' "$tmp/ac.csv" ||
				bad="$bad $p($opts):sum"
			n=$((n + 1))
		done
	done
	if [ -z "$bad" ] && [ $n -gt 100 ]; then
		ok "--account: the parts add up to every rank's finishing time, on $n runs of schedgen schedules"
	else
		echo "wrong:$bad ($n runs)" >"$tmp/diff"
		fail "--account: the parts add up to every rank's finishing time"
	fi
else
	ok "--account on schedgen schedules # SKIP schedgen not built"
fi

# CHECK FILE [OPTION...] on every case (but the errors and those matching
# SKIP) with its options, and on every schedgen pattern at 7 and 64 ranks
# (version-3 files: peers relative to the rank), plain and, when given,
# with OPTIONS too: sets nc and ns (cases and schedules run) and bad
# (where CHECK failed); 1 when schedgen is not built.
each_schedule() { # CHECK SKIP [OPTION...]
	local check=$1 skip=$2 f p P
	shift 2
	nc=0 ns=0 bad=
	for f in *.goal; do
		# shellcheck disable=SC2254
		case $f in err-*|$skip) continue ;; esac
		# shellcheck disable=SC2046
		"$check" "$f" $(cat "${f%.goal}.args" 2>/dev/null) || bad="$bad $f"
		nc=$((nc + 1))
	done
	[ -x "$B/bin/schedgen" ] || return 1
	for p in $("$B/bin/schedgen" --list | awk '{print $1}'); do
		for P in 7 64; do
			"$B/bin/schedgen" "$p" -s $P -d 1000 -o "$tmp/each.bin" 2>/dev/null || continue
			"$check" "$tmp/each.bin" || bad="$bad $p:$P"
			[ $# -eq 0 ] || "$check" "$tmp/each.bin" "$@" || bad="$bad $p:$P:$1"
			ns=$((ns + 1))
		done
	done
	[ $ns -gt 100 ] || bad="$bad (only $ns schedgen schedules)"
}

# The windows' merge (docs/parallel.md): the events of each window,
# numbered as a run rank by rank would number them, are put back in the
# sequential order with their seqs (windows with a rendezvous match are
# not tried: no lookahead there; networks have no windows).
merge_ok() { # FILE ARGS...
	local f=$1
	shift
	"$SIM" -q -b --lookahead "$@" "$f" 2>&1 | grep -q '^Merge: [0-9]* windows put back in the sequential order, 0 not, '
}
each_schedule merge_ok 'net-*' --noise periodic:1000,25000 ||
	ok "the windows' merge on schedgen schedules # SKIP schedgen not built"
if [ -z "$bad" ] && [ $nc -gt 30 ]; then
	ok "the windows' merge puts every window back in the sequential order: $nc cases, $ns schedgen schedules plain and with noise"
else
	echo "out of order:$bad ($nc cases, $ns schedules)" >"$tmp/diff"
	fail "the windows' merge puts every window back in the sequential order"
fi

# The queues' index (docs/sim.md, Matching) changes no time and no queue
# statistic: every case and schedgen schedule prints the same, timeline
# and --qstat included, with every queue indexed after two entries.
same_indexed() { # FILE ARGS...
	local f=$1
	shift
	"$SIM" -q "$@" --qstat -V "$tmp/tl0" "$f" >"$tmp/ix0" 2>&1
	LOGGOPSIM_INDEX_AFTER=1 "$SIM" -q "$@" --qstat -V "$tmp/tl1" "$f" >"$tmp/ix1" 2>&1
	cmp -s "$tmp/ix0" "$tmp/ix1" && cmp -s "$tmp/tl0" "$tmp/tl1"
}
each_schedule same_indexed '' || ok "queues indexed on schedgen schedules # SKIP schedgen not built"
if [ -z "$bad" ] && [ $nc -gt 30 ]; then
	ok "queues indexed after two entries: the same output, timeline and --qstat on $nc cases, $ns schedgen schedules"
else
	echo "differ:$bad ($nc cases, $ns schedules)" >"$tmp/diff"
	fail "queues indexed after two entries: the same output, timeline and --qstat"
fi

exit 0
