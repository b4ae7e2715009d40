#!/usr/bin/env bash
# Runs the whole test suite against build folder $1 (default build).
# Every unit test program $B/tests/*_test and every script tests/*/run.sh
# prints one line per check: "ok - NAME" or "not ok - NAME" (details after
# a failing line, indented), or "ok - NAME # SKIP REASON" for a check that
# could not run here.  This script counts them, lists the skipped ones and
# ends with the line "N passed, M failed, K skipped".
set -u
B=${1:-build}
cd "$(dirname "$0")/.." || exit 2
export B
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
# The unit test programs the build lists (every one in $B/tests otherwise).
if [ -f "$B/tests/programs.txt" ]; then
	progs=$(tr ' ' '\n' <"$B/tests/programs.txt" | grep '_test$' | sed "s|^|$B/tests/|")
else
	progs=$(ls "$B"/tests/*_test 2>/dev/null)
fi
for t in $progs; do
	[ -x "$t" ] || { echo "not ok - $t is missing" >>"$log"; status=1; continue; }
	if ! "$t" >>"$log" 2>&1; then
		echo "not ok - $(basename "$t") exited non-zero" >>"$log"
		status=1
	fi
done
for s in tests/*/run.sh; do
	[ -x "$s" ] || continue
	if ! "$s" "$B" >>"$log" 2>&1; then
		echo "not ok - $s exited non-zero" >>"$log"
		status=1
	fi
done
grep -E '^(not )?ok ' "$log" | grep '^not ok' >/dev/null && {
	echo "Failures:"; grep -A8 '^not ok' "$log"; }
skipre='^ok .* # [Ss][Kk][Ii][Pp]'
grep -E "$skipre" "$log" | sed 's/^ok - /skipped: /'
pass=$(grep '^ok ' "$log" | grep -cvE "$skipre")
skip=$(grep -cE "$skipre" "$log")
fail=$(grep -c '^not ok ' "$log")
[ "$fail" -gt 0 ] && status=1
[ "$pass" -eq 0 ] && { echo "no test ran"; status=1; }
echo "$pass passed, $fail failed, $skip skipped"
exit $status
