#!/usr/bin/env bash
# Runs each libFuzzer target for $1 seconds (default 20), seeded with the
# golden GOAL cases and their compiled binaries, and for the LogGP files
# with two recorded PRTT tables and a parameter file.  Exit status
# non-zero if a target finds a crash (the reproducer is left in
# build/fuzz/).
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
mkdir -p $F/corpus-loggp
cp tests/loggp/data/shm-1.prtt tests/loggp/data/tcp-7.prtt $F/corpus-loggp/
printf '%s\n' 'loggp-params 1' 'S 65535' 'range 0 256 L=0 o=96 g=87 G=0.091115 O=0.0033' \
	'range 257 inf L=39 o=2069 g=1976 G=0.069616 O=0.073073' >$F/corpus-loggp/two.params
for t in goal_text goal_bin loggp; do
	echo "fuzzing $t for $secs s" >&2
	c=corpus-${t#goal_}
	(cd $F && ./fuzz_$t -max_total_time="$secs" -max_len=8192 -print_final_stats=0 \
		$c 2>fuzz-$t.log) || { tail -40 $F/fuzz-$t.log; exit 1; }
	grep -E '^#[0-9]+.*DONE' $F/fuzz-$t.log | tail -1 >&2 || true
done
