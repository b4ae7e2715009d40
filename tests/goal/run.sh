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
"$G" --stats example.goal >"$tmp/stats2" 2>&1
if cmp -s "$tmp/stats" "$tmp/stats2"; then ok "--stats of text equals --stats of binary"; else fail "--stats of text"; fi
printf 'num_ranks 1\nrank 0 {\nl1: calc 1 @\n}\n' | "$G" --check - 2>"$tmp/err"
printf '<stdin>:3:12: error: unexpected character %s, expected end of line or %s\nl1: calc 1 @\n           ^\n' "'@'" "'}'" >"$tmp/want"
if diff -u "$tmp/want" "$tmp/err" >"$tmp/diff"; then ok "errors on stdin show the line"; else fail "errors on stdin show the line"; fi
"$G" --dump example.goal 2>"$tmp/err"
rc=$?
echo "example.goal: error: not a binary GOAL schedule (bad magic number)" >"$tmp/want"
if [ $rc -eq 1 ] && diff -u "$tmp/want" "$tmp/err" >"$tmp/diff"; then ok "--dump rejects text"; else fail "--dump rejects text"; fi
"$G" --frobnicate x 2>"$tmp/err"
rc=$?
printf "goalc: error: unknown option '--frobnicate'\nTry 'goalc --help'.\n" >"$tmp/want"
if [ $rc -eq 2 ] && diff -u "$tmp/want" "$tmp/err" >"$tmp/diff"; then ok "unknown option"; else fail "unknown option"; fi
"$G" --max-errors 2 --check err-too-many.goal 2>"$tmp/err"
if [ "$(grep -c ': error: ' "$tmp/err")" -eq 2 ] && tail -1 "$tmp/err" | grep -qx 'err-too-many.goal: too many errors, stopping'; then
	ok "--max-errors"; else fail "--max-errors"; fi
exit 0
