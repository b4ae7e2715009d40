#!/usr/bin/env bash
# The noise study of docs/noise.md ("Study: noise at scale"):
#
#   scripts/noise-study.sh [BUILD_DIR] [OUT_DIR]     (defaults: build, build/noise-study)
#
# For P = 2^4 .. 2^20 (even powers first, then the odd ones) and two 1-byte
# schedules (dissemination allreduce, binomial broadcast; default LogGP
# parameters) it runs loggopsim once without noise and, for each of three
# noise settings of the same 2.5% budget (1 kHz x 25 us, 10 Hz x 2.5 ms,
# Poisson 1 kHz with exponential lengths of mean 25 us), co-scheduled and
# with own offsets, under the exact and the published rule, a sweep over
# seeds 1..N.  All runs go to OUT_DIR/results.csv, one row per run:
#
#   schedule,P,noise,offsets,rule,seed,time_ns,base_ns,slowdown,wall_s
#
# (noise: periodic-1kHz, periodic-10Hz or poisson-1kHz; offsets: own or
# cosched; rule: exact or published; the baseline rows have noise none).
# At most two simulations run at a time (two loggopsim processes of one
# thread each).  Environment:
#   ODD=0           leave out the odd powers 2^5 .. 2^19
#   MAXLOG=K        stop at P = 2^K (default 20)
#   SEEDS_OWN=K     seeds per run with own offsets   (default: by P, below)
#   SEEDS_CO=K      seeds per co-scheduled run        (default: by P, below)
#   KEEP_SCHED=1    keep the schedules in OUT_DIR/sched (up to 1.4 GB each)
set -euo pipefail

B=$(cd "${1:-build}" && pwd)/bin
OUT=${2:-build/noise-study}
mkdir -p "$OUT/sched" "$OUT/pieces"
OUT=$(cd "$OUT" && pwd)
SIM=$B/loggopsim
GEN=$B/schedgen
if [ ! -x "$SIM" ] || [ ! -x "$GEN" ]; then
	echo "noise-study: no loggopsim/schedgen in $B" >&2
	exit 2
fi
MAXLOG=${MAXLOG:-20}

# Seeds per run.  Runs with their own offsets per rank average over the
# ranks already and cost 4-7 times a run without noise (docs/noise.md,
# Speed); co-scheduled runs cost what a run without noise does, and whether
# a detour hits the collective at all depends on the one offset, so they
# get more seeds.
seeds_own() {
	if [ -n "${SEEDS_OWN:-}" ]; then echo "$SEEDS_OWN"; return; fi
	local k=$1
	if [ "$k" -le 14 ]; then echo 20
	elif [ "$k" -le 16 ]; then echo 10
	else echo 5; fi
}
seeds_co() {
	if [ -n "${SEEDS_CO:-}" ]; then echo "$SEEDS_CO"; return; fi
	local k=$1
	if [ "$k" -le 16 ]; then echo 20
	else echo 10; fi
}

noises=("periodic-1kHz periodic:1000,25000" "periodic-10Hz periodic:10,2500000" "poisson-1kHz poisson:1000,exp:25000")
schedules=("dissemination allreduce_dissemination" "bcast bcast_binomial")

logs=()
for k in $(seq 4 2 "$MAXLOG"); do logs+=("$k"); done
if [ "${ODD:-1}" != 0 ]; then
	for k in $(seq 5 2 "$MAXLOG"); do logs+=("$k"); done
fi

start=$(date +%s)
say() { printf '[%4ds] %s\n' $(($(date +%s) - start)) "$*" >&2; }

# One job: SCHEDULE LOG NOISE_LABEL SPEC OFFSETS RULE SEEDS
run_job() {
	local sched=$1 k=$2 label=$3 spec=$4 offs=$5 rule=$6 n=$7
	local bin=$OUT/sched/$sched-$k.bin
	local piece=$OUT/pieces/$sched-$k-$label-$offs-$rule.csv
	local args=(--noise "$spec" --noise-rule "$rule")
	[ "$offs" = cosched ] && args+=(--noise-cosched)
	if [ "$label" = none ]; then
		local t0 t1 json
		t0=$(date +%s.%N)
		json=$("$SIM" -q --json "$bin")
		t1=$(date +%s.%N)
		printf 'set,name,P,L,o,g,G,O,S,status,time_ns,host,events,relative,wall_s,seed\n1,none,%s,,,,,,,ok,%s,,,,%s,\n' \
			$((1 << k)) "$(sed -E 's/.*"time_ns": ([0-9]+).*/\1/' <<<"$json")" \
			"$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')" >"$piece.tmp"
	else
		"$SIM" -q -j 1 "${args[@]}" --sweep "seed=1..$n" --csv - "$bin" >"$piece.tmp"
	fi
	mv "$piece.tmp" "$piece"
	printf '[%4ds] done %s 2^%s %s %s %s (%s seeds)\n' $(($(date +%s) - start)) \
		"$sched" "$k" "$label" "$offs" "$rule" "$n" >&2
}
export -f run_job
export SIM OUT start

# Schedules, then the job list, most expensive first within each group of
# powers (even, then odd) so that the two workers end together.
for k in "${logs[@]}"; do
	for s in "${schedules[@]}"; do
		name=${s%% *} pattern=${s#* }
		bin=$OUT/sched/$name-$k.bin
		[ -s "$bin" ] || { say "schedgen $pattern -s $((1 << k))"; "$GEN" "$pattern" -s $((1 << k)) -d 1 -o "$bin" >/dev/null; }
	done
done

jobs=$OUT/jobs.txt
: >"$jobs"
for group in even odd; do
	for k in $(printf '%s\n' "${logs[@]}" | sort -rn); do
		[ $((k % 2)) -eq 0 ] && [ $group = odd ] && continue
		[ $((k % 2)) -eq 1 ] && [ $group = even ] && continue
		for s in "${schedules[@]}"; do
			name=${s%% *}
			printf '%s %s none none own exact 1\n' "$name" "$k" >>"$jobs"
			for nz in "${noises[@]}"; do
				for offs in own cosched; do
					for rule in exact published; do
						if [ $offs = own ]; then n=$(seeds_own "$k"); else n=$(seeds_co "$k"); fi
						printf '%s %s %s %s %s %s %s\n' "$name" "$k" "${nz%% *}" "${nz#* }" "$offs" "$rule" "$n" >>"$jobs"
					done
				done
			done
		done
	done
done
say "$(wc -l <"$jobs") jobs, P = 2^{$(IFS=,; echo "${logs[*]}")}, 2 at a time"

# Jobs already done (a piece exists) are not run again: a study that was
# stopped goes on where it stopped.
while read -r sched k label spec offs rule n; do
	[ -s "$OUT/pieces/$sched-$k-$label-$offs-$rule.csv" ] && continue
	printf '%s\0%s\0%s\0%s\0%s\0%s\0%s\0' "$sched" "$k" "$label" "$spec" "$offs" "$rule" "$n"
done <"$jobs" | xargs -0 -n 7 -P 2 bash -c 'run_job "$@"' run_job

# Merge: one row per run, with the baseline and the slowdown.
csv=$OUT/results.csv
{
	echo "schedule,P,noise,offsets,rule,seed,time_ns,base_ns,slowdown,wall_s"
	while read -r sched k label spec offs rule n; do
		base=$(awk -F, 'NR == 2 { print $11 }' "$OUT/pieces/$sched-$k-none-own-exact.csv")
		piece=$OUT/pieces/$sched-$k-$label-$offs-$rule.csv
		if [ "$label" = none ]; then offs=none rule=none; fi
		awk -F, -v s="$sched" -v nz="$label" -v of="$offs" -v ru="$rule" -v base="$base" '
			NR > 1 {
				if ($10 != "ok") { printf "noise-study: %s %s %s %s %s seed %s: %s\n", s, $3, nz, of, ru, $16, $10 > "/dev/stderr"; exit 1 }
				printf "%s,%s,%s,%s,%s,%s,%s,%s,%.6f,%s\n", s, $3, nz, of, ru, $16, $11, base, $11 / base, $15
			}' "$piece"
	done < <(sort -k1,1 -k2,2n "$jobs")
} >"$csv.tmp"
mv "$csv.tmp" "$csv"
[ "${KEEP_SCHED:-0}" = 1 ] || rm -f "$OUT"/sched/*.bin
say "wrote $csv ($(($(wc -l <"$csv") - 1)) runs)"
