#!/usr/bin/env bash
# Runs each libFuzzer target for $1 seconds (default 20), seeded with the
# golden GOAL cases and their compiled binaries.  Exit status non-zero if a
# target finds a crash (the reproducer is left in build/fuzz/).
set -eu
secs=${1:-20}
cd "$(dirname "$0")/../.."
F=build/fuzz
mkdir -p $F/corpus-text $F/corpus-bin
cp tests/goal/cases/*.goal $F/corpus-text/
for g in tests/goal/cases/*.goal; do
	case $g in */err-*) continue ;; esac
	build/fuzz/bin/goalc "$g" -o "$F/corpus-bin/$(basename "$g" .goal).bin"
done
for t in text bin; do
	echo "fuzzing the GOAL $t reader for $secs s" >&2
	(cd $F && ./fuzz_goal_$t -max_total_time="$secs" -max_len=4096 -print_final_stats=0 \
		corpus-$t 2>fuzz-$t.log) || { tail -40 $F/fuzz-$t.log; exit 1; }
	grep -E '^#[0-9]+.*DONE' $F/fuzz-$t.log | tail -1 >&2 || true
done
