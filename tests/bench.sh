#!/usr/bin/env bash
# make bench: speed and memory figures of every part (no assertions).
# Usage: tests/bench.sh BUILD_DIR.  Scratch files go to $BENCH_DIR
# (default /tmp/loggops-bench), which is removed afterwards.
set -eu
B=$(cd "${1:-build}" && pwd)
cd "$(dirname "$0")/.."
W=${BENCH_DIR:-/tmp/loggops-bench}
mkdir -p "$W"
trap 'rm -rf "$W"' EXIT

# Runs a command, prints "LABEL: WALL s, PEAK MiB peak RSS" and leaves the
# wall time in $wall.
measure() {
	local label=$1; shift
	/usr/bin/time -f '%e %M' -o "$W/time" "$@"
	read -r wall rss <"$W/time"
	printf '%-44s %8.2f s  %8.1f MiB peak RSS\n' "$label" "$wall" "$(echo "$rss / 1024" | bc -l)"
}

echo "== goalc: GOAL text compiler"
python3 tests/gen_goal.py 131072 16 >"$W/big.goal"
mb=$(( $(stat -c %s "$W/big.goal") / 1000000 ))
echo "input: $mb MB of GOAL text (dissemination, 131072 ranks, 16 rounds)"
for j in 2 1; do
	best=
	for i in 1 2 3; do
		measure "compile to binary, -j $j (run $i)" "$B/bin/goalc" -j $j "$W/big.goal" -o "$W/big.bin"
		if [ -z "$best" ] || [ "$(echo "$wall < $best" | bc)" = 1 ]; then best=$wall; fi
	done
	printf '%-44s %8.1f MB/s\n' "compile speed, -j $j (best of 3)" "$(echo "$mb / $best" | bc -l)"
done
measure "check only (--check)" "$B/bin/goalc" --check "$W/big.goal"
measure "dump binary to text (--dump)" sh -c "'$B/bin/goalc' --dump '$W/big.bin' >'$W/dump.goal'"
measure "validate and summarise (--stats)" sh -c "'$B/bin/goalc' --stats '$W/big.bin' >/dev/null"
printf '%-44s %8d MB\n' "binary size" "$(( $(stat -c %s "$W/big.bin") / 1000000 ))"
rm -f "$W"/big.* "$W/dump.goal"

for s in tests/bench-*.sh; do
	[ -x "$s" ] || continue
	echo
	"$s" "$B"
done
