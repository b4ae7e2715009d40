#!/usr/bin/env bash
# Differential test: loggopsim against refsim.py (a plain implementation of
# docs/semantics.md written from the page alone) on random schedules and
# several parameter sets.  Per-rank finishing times, the event count and
# complete/incomplete must agree exactly.  REFSIM_RUNS (default 150) sets the
# number of schedules.
set -u
B=$(cd "${1:-build}" && pwd)
cd "$(dirname "$0")"
runs=${REFSIM_RUNS:-150}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
params=("" "-L 100 -o 2000 -g 50 -G 0.4 -O 0.25" "-L 9000 -o 10 -g 3000 -G 2.5 -O 1.5 -S 100" "-S 0 -G 0 -O 3")
bad=0
for seed in $(seq 1 "$runs"); do
	python3 randsched.py "$seed" >"$tmp/s.goal"
	"$B/bin/goalc" "$tmp/s.goal" -o "$tmp/s.bin" 2>"$tmp/err" || { echo "not ok - refsim seed $seed: goalc failed"; cat "$tmp/err"; bad=1; continue; }
	"$B/bin/goalc" --dump "$tmp/s.bin" >"$tmp/d.goal"
	p=${params[$((seed % ${#params[@]}))]}
	# shellcheck disable=SC2086
	python3 refsim.py $p "$tmp/d.goal" >"$tmp/want"
	# shellcheck disable=SC2086
	"$B/bin/loggopsim" -q $p --csv "$tmp/got.csv" "$tmp/s.bin" >"$tmp/out" 2>&1
	rc=$?
	if grep -qx incomplete "$tmp/want"; then
		if [ $rc -eq 1 ]; then continue; fi
		echo "not ok - refsim seed $seed ($p): reference says incomplete, loggopsim exit $rc"
		bad=1
		continue
	fi
	events=$(sed -n 's/^Events: \([0-9]*\).*/\1/p' "$tmp/out")
	{ grep -v '^rank' "$tmp/got.csv" 2>/dev/null; echo "events,$events"; } >"$tmp/got"
	if [ $rc -ne 0 ] || ! diff -u "$tmp/want" "$tmp/got" >"$tmp/diff"; then
		echo "not ok - refsim seed $seed ($p) exit $rc"
		sed 's/^/    /' "$tmp/diff" | head -20
		sed 's/^/    /' "$tmp/out" | head -5
		bad=1
	fi
done
[ $bad -eq 0 ] && echo "ok - loggopsim agrees with the reference semantics on $runs random schedules"
exit 0
