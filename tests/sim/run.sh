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
expect_usage "rejects -L abc" "loggopsim: error: -L needs a non-negative integer, not 'abc'" -L abc busy-nic.goal
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
exit 0
