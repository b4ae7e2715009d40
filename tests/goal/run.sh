#!/usr/bin/env bash
# Golden tests of goalc: every cases/*.goal either compiles (and then its
# dump matches NAME.dump if present, and text -> bin -> text -> bin is
# byte-identical) or, for err-*.goal, fails with exit status 1 and exactly
# the messages of NAME.err.  Prints "ok - ..." / "not ok - ..." lines.
set -u
B=$(cd "${1:-build}" && pwd)
G=$B/bin/goalc
cd "$(dirname "$0")/cases" || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { echo "ok - goalc $1"; }
fail() { echo "not ok - goalc $1"; [ -f "$tmp/diff" ] && sed 's/^/    /' "$tmp/diff" | head -20; }

for f in *.goal; do
	n=${f%.goal}
	rm -f "$tmp/diff"
	case $n in
	err-*)
		"$G" --check "$f" 2>"$tmp/err" >/dev/null
		rc=$?
		if [ $rc -eq 1 ] && diff -u "$n.err" "$tmp/err" >"$tmp/diff"; then
			ok "rejects $f"
		else
			echo "exit status $rc" >>"$tmp/diff"
			fail "rejects $f"
		fi
		;;
	*)
		if ! "$G" "$f" -o "$tmp/a.bin" 2>"$tmp/diff"; then
			fail "compiles $f"
			continue
		fi
		ok "compiles $f"
		"$G" --dump "$tmp/a.bin" >"$tmp/a.goal"
		if [ -f "$n.dump" ]; then
			if diff -u "$n.dump" "$tmp/a.goal" >"$tmp/diff"; then ok "dump of $f"; else fail "dump of $f"; fi
		fi
		"$G" "$tmp/a.goal" -o "$tmp/b.bin" && "$G" --dump "$tmp/b.bin" >"$tmp/b.goal"
		if cmp -s "$tmp/a.bin" "$tmp/b.bin" && cmp -s "$tmp/a.goal" "$tmp/b.goal"; then
			ok "round trip of $f"
		else
			fail "round trip of $f"
		fi
		;;
	esac
done

# Standard input, the txt2bin interface, default output name, --stats.
rm -f "$tmp/diff"
if "$G" - -o "$tmp/s.bin" <example.goal && "$B/bin/txt2bin" -i example.goal -o "$tmp/t.bin" \
	&& cmp -s "$tmp/s.bin" "$tmp/t.bin"; then ok "stdin and txt2bin agree"; else fail "stdin and txt2bin agree"; fi
cp example.goal "$tmp/x.goal"
if "$G" "$tmp/x.goal" && cmp -s "$tmp/x.bin" "$tmp/t.bin"; then ok "default output name"; else fail "default output name"; fi
"$G" --stats "$tmp/t.bin" >"$tmp/stats" 2>&1
if diff -u example.stats "$tmp/stats" >"$tmp/diff"; then ok "--stats"; else fail "--stats"; fi
"$G" --stats stride.goal >"$tmp/stats3" 2>&1
if diff -u stride.stats "$tmp/stats3" >"$tmp/diff"; then ok "--stats of a strided schedule"; else fail "--stats of a strided schedule"; fi
"$G" --stats example.goal >"$tmp/stats2" 2>&1
if cmp -s "$tmp/stats" "$tmp/stats2"; then ok "--stats of text equals --stats of binary"; else fail "--stats of text"; fi
printf 'num_ranks 1\nrank 0 {\nl1: calc 1 @\n}\n' | "$G" --check - 2>"$tmp/err"
printf '<stdin>:3:12: error: unexpected character %s, expected end of line or %s\nl1: calc 1 @\n           ^\n' "'@'" "'}'" >"$tmp/want"
if diff -u "$tmp/want" "$tmp/err" >"$tmp/diff"; then ok "errors on stdin show the line"; else fail "errors on stdin show the line"; fi
"$G" --dump example.goal 2>"$tmp/err"
rc=$?
echo "example.goal: error: not a binary GOAL schedule: this is a GOAL schedule in text (goalc compiles it)" >"$tmp/want"
if [ $rc -eq 1 ] && diff -u "$tmp/want" "$tmp/err" >"$tmp/diff"; then ok "--dump rejects text"; else fail "--dump rejects text"; fi
"$G" --frobnicate x 2>"$tmp/err"
rc=$?
printf "goalc: error: unknown option '--frobnicate'\nTry 'goalc --help'.\n" >"$tmp/want"
if [ $rc -eq 2 ] && diff -u "$tmp/want" "$tmp/err" >"$tmp/diff"; then ok "unknown option"; else fail "unknown option"; fi
"$G" -j 3 example.goal 2>"$tmp/err"
rc=$?
printf "goalc: error: --threads needs 1 or 2\nTry 'goalc --help'.\n" >"$tmp/want"
if [ $rc -eq 2 ] && diff -u "$tmp/want" "$tmp/err" >"$tmp/diff"; then ok "-j 3"; else fail "-j 3"; fi
"$B/bin/txt2bin" -o "$tmp/n.bin" 2>"$tmp/err"
rc=$?
printf "txt2bin: error: no input file\nTry 'txt2bin --help'.\n" >"$tmp/want"
if [ $rc -eq 2 ] && diff -u "$tmp/want" "$tmp/err" >"$tmp/diff"; then ok "txt2bin: no input file"; else fail "txt2bin: no input file"; fi
"$G" --max-errors 2 --check err-too-many.goal 2>"$tmp/err"
if [ "$(grep -c ': error: ' "$tmp/err")" -eq 2 ] && tail -1 "$tmp/err" | grep -qx 'err-too-many.goal: too many errors, stopping'; then
	ok "--max-errors"; else fail "--max-errors"; fi

# Hostile input: one error each, in time linear in the input (timeout: a
# hang fails the check instead of the suite), no temporary file left.
expect_err() { # NAME WANT-STDERR COMMAND...
	local name=$1 want=$2
	shift 2
	timeout 60 "$@" >/dev/null 2>"$tmp/err"
	local rc=$?
	printf '%b' "$want" >"$tmp/want"
	{ echo "exit status $rc"; diff -u "$tmp/want" "$tmp/err"; } >"$tmp/diff"
	if [ $rc -eq 1 ] && cmp -s "$tmp/want" "$tmp/err"; then ok "$name"; else fail "$name"; fi
}
long=$(printf '%0256d' 0 | tr 0 a)
printf 'num_ranks 1\nrank 0 {\n%s: calc 1\n}\n' "$long" >"$tmp/label.goal"
expect_err "a label of 256 characters" "$tmp/label.goal:3:1: error: label longer than 255 characters\n$long: calc 1\n^\n" \
	"$G" --check "$tmp/label.goal"
printf 'num_ranks 1\nrank 0 {\nl1: calc 1%040d\n}\n' 0 >"$tmp/num.goal"
expect_err "a number of 41 digits" "$tmp/num.goal:3:10: error: number longer than 40 characters\nl1: calc 1$(printf '%040d' 0)\n         ^\n" \
	"$G" --check "$tmp/num.goal"
{ printf 'num_ranks 1\nrank 0 {\n'; head -c 1048577 /dev/zero | tr '\0' ' '; printf 'l1: calc 1\n}\n'; } >"$tmp/line.goal"
spaces=$(printf '%511s' '')
expect_err "a line of more than 1 MiB" "$tmp/line.goal:3:1048577: error: line longer than 1048576 bytes\n$spaces\n$spaces^\n" \
	"$G" --check "$tmp/line.goal"
{ printf 'num_ranks 1\nrank 0 {\nl1: calc 1\n}\n//'; head -c 1048574 /dev/zero | tr '\0' c; printf '\n'; } >"$tmp/max.goal"
if "$G" --check "$tmp/max.goal" 2>"$tmp/diff"; then ok "a line of 1 MiB and its newline"; else fail "a line of 1 MiB and its newline"; fi
expect_err "endless input without a newline (/dev/zero)" \
	"/dev/zero:1:1: error: unexpected byte 0x00, expected end of file, end of line, 'num_ranks', 'rank' or 'job'\n$spaces\n^\n/dev/zero:1:1048577: error: line longer than 1048576 bytes\n$spaces\n$spaces^\n" \
	"$G" --check /dev/zero
printf 'num_ranks 1\nrank 0 {\nl1: calc 5\n}\n' >"$tmp/p.goal"
"$B/bin/loggopsim" -q <(cat "$tmp/p.goal") >"$tmp/out" 2>&1
"$G" "$tmp/p.goal" -o "$tmp/p.bin"
"$B/bin/loggopsim" -q <(cat "$tmp/p.bin") >"$tmp/out2" 2>&1
if grep -qx 'Host 0: 5' "$tmp/out" && grep -qx 'Host 0: 5' "$tmp/out2"; then
	ok "a pipe as input, text or binary, is read once"
else
	cat "$tmp/out" "$tmp/out2" >"$tmp/diff"
	fail "a pipe as input, text or binary, is read once"
fi
# A binary schedule: --check validates it (silent, exit 0, also from a
# pipe) and names a damaged one; compiling it is refused; neither reads it
# as text.
if "$G" --check "$tmp/p.bin" >"$tmp/diff" 2>&1 && [ ! -s "$tmp/diff" ] &&
	"$G" --check - <"$tmp/p.bin" >"$tmp/diff" 2>&1 && [ ! -s "$tmp/diff" ]; then
	ok "--check of a valid binary schedule: silent, exit 0"
else fail "--check of a valid binary schedule: silent, exit 0"; fi
head -c 100 "$tmp/p.bin" >"$tmp/cut.bin"
expect_err "--check of a cut binary schedule" \
	"$tmp/cut.bin: error: truncated or extended: the file has 100 bytes, its header says $(stat -c %s "$tmp/p.bin")\n" \
	"$G" --check "$tmp/cut.bin"
expect_err "compiling a binary schedule" \
	"$tmp/p.bin: error: this is a binary schedule, not GOAL text (goalc --dump writes it as text)\n" \
	"$G" "$tmp/p.bin" -o "$tmp/q.bin"
mkdir "$tmp/dir.goal"
expect_err "a directory as input" "$tmp/dir.goal: error: cannot read: Is a directory\n" "$G" --check "$tmp/dir.goal"
expect_err "a directory as input (loggopsim)" "$tmp/dir.goal: error: cannot read: Is a directory\n$tmp/dir.goal: 1 error\n" \
	env TMPDIR="$tmp/dir.goal" "$B/bin/loggopsim" "$tmp/dir.goal"
if [ -z "$(ls -A "$tmp/dir.goal")" ]; then ok "no temporary file left behind"; else fail "no temporary file left behind"; fi
# A file of 4 MiB or more is compiled in parts, in two threads: the same
# bytes and the same messages as one thread (-j 1).  GOAL_PARTS=1 says
# which way it went.  The variants change a big file at one place each,
# past the first cuts.
python3 ../../gen_goal.py 5000 16 >"$tmp/big.goal"
python3 - "$tmp" <<'PY'
import sys
d = sys.argv[1]
lines = open(d + "/big.goal").read().split("\n")
n = len(lines)
def at(frac):  # the first line at or after frac of the file that starts a rank
    i = int(n * frac)
    while not lines[i].startswith("rank "):
        i += 1
    return i
def write(name, ls):
    open("%s/%s.goal" % (d, name), "w").write("\n".join(ls))
i = at(0.8)
write("syntax", lines[:i + 3] + [lines[i + 3] + " tag -5"] + lines[i + 4:])
write("cycle", lines[:i + 1] + ["l2 requires l3"] + lines[i + 1:])
write("peer", lines[:i + 1] + [lines[i + 1].replace("to ", "to 9")] + lines[i + 2:])
j = at(0.5)
write("order", lines[:j] + lines[j:j + 37] + lines[j:])
k = at(0.3)
write("comment", lines[:k] + ["/*"] + ["rank 7 {", "}"] * 200000 + ["*/"] + lines[k:])
last = max(x for x in range(n) if lines[x].startswith("rank "))
write("missing", lines[:last])
PY
parts_agree() { # NAME FILE WANT-PARTS-LINE-REGEX
	local name=$1 f=$2
	rm -f "$tmp"/p?.bin "$tmp/diff"
	GOAL_PARTS=1 "$G" "$f" -o "$tmp/p1.bin" 2>"$tmp/e1"
	local rc1=$?
	cat "$f" | "$G" - -o "$tmp/p2.bin" 2>/dev/null   # copied to a file: in parts too
	"$G" -j 1 "$f" -o "$tmp/p3.bin" 2>"$tmp/e3"
	local rc3=$?
	head -1 "$tmp/e1" >"$tmp/how"
	tail -n +2 "$tmp/e1" >"$tmp/e1m"
	{ echo "exit status $rc1 and $rc3"; cat "$tmp/how"; diff -u "$tmp/e3" "$tmp/e1m"; } >"$tmp/diff"
	if [ $rc1 -eq $rc3 ] && grep -qE "$3" "$tmp/how" && cmp -s "$tmp/e3" "$tmp/e1m" \
		&& { [ $rc1 -ne 0 ] || { cmp -s "$tmp/p1.bin" "$tmp/p3.bin" && cmp -s "$tmp/p2.bin" "$tmp/p3.bin"; }; }; then
		ok "in parts: $name"
	else
		fail "in parts: $name"
	fi
}
parts_agree "the bytes of one thread" "$tmp/big.goal" ": in ([2-9]|[1-9][0-9]+) parts$"
parts_agree "a syntax error, 80% in" "$tmp/syntax.goal" 'then again in one thread$'
parts_agree "a cycle (a writer's error), 80% in" "$tmp/cycle.goal" 'then again in one thread$'
parts_agree "a peer out of range, 80% in" "$tmp/peer.goal" 'then again in one thread$'
parts_agree "a rank block twice, 50% in" "$tmp/order.goal" 'then again in one thread$'
parts_agree "a comment over cuts" "$tmp/comment.goal" 'then again in one thread$'
parts_agree "the last rank block missing" "$tmp/missing.goal" 'then again in one thread$'
if [ "$(grep -c ': error: ' "$tmp/e3")" -eq 1 ] && grep -qx "$tmp/missing.goal:1:11: error: missing rank block 4999 (num_ranks is 5000)" "$tmp/e3"; then
	ok "in parts: the message of the missing block"; else cp "$tmp/e3" "$tmp/diff"; fail "in parts: the message of the missing block"; fi
printf 'num_ranks 1\nrank 0 {\nl1: calc 5\n}\n' >"$tmp/small.goal"
GOAL_PARTS=1 "$G" --check "$tmp/small.goal" 2>"$tmp/how"
GOAL_PARTS=1 "$G" -j 1 --check "$tmp/big.goal" 2>"$tmp/how2"
if grep -qx "$tmp/small.goal: in one thread" "$tmp/how" && grep -qx "$tmp/big.goal: in one thread" "$tmp/how2"; then
	ok "a small file, and -j 1, in one thread"; else fail "a small file, and -j 1, in one thread"; fi
exit 0
