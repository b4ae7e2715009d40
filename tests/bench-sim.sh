#!/usr/bin/env bash
# loggopsim speed and memory (make bench runs it): binomial broadcast at 1M
# and 8M ranks, dissemination allreduce at 64K and 1M ranks (BENCH_BIG=1
# adds 8M ranks: a 201 MB schedule), and schedules where many events wait for
# one CPU or NIC: linear alltoall at 512, 2048 and 8192 ranks (a 721 KB
# schedule: its ranks share one block), linear gather at 8192 ranks, an
# incast of 1M ranks.  Prints,
# best of 3 (of 1 for the large runs): simulated time, events, events/s
# (simulation only, wall clock), ns per event, wall and CPU (user + sys)
# time of the whole command (open, simulate, print) and its peak RSS (which
# counts the mapped schedule); for the waiting schedules also the event
# queue's pushes per event.
# Large messages: broadcast, dissemination, recursive doubling, ring
# allreduce and linear alltoall with 1-byte and with 1 MiB (rendezvous)
# messages, at 4096 ranks and at the largest P run in about a minute, with
# the ratio of their costs per event (target: at most 2); the ring allreduce
# of 1 GiB at 53.7 GB/s (-L 500 -o 0 -g 0 -G 0.018626) at 1024, 4096 and
# 16384 ranks (target: >= 20 M events/s).
# Networks: tests/bench-net.sh.
# Targets: 8M binomial <= 10 s and <= 3 GiB, >= 10 M events/s; 64K
# dissemination >= 11 M events/s (10x the published tool); with noise, the
# 1M dissemination at no less than half its events/s without; a noise trace
# read in at most twice its size; its critical
# path at most 1.5x the time and 1.3x the memory; the waiting schedules
# >= 10 M events/s, with pushes per event flat as P grows (linear).
# Usage: tests/bench-sim.sh BUILD_DIR.  Scratch in $BENCH_DIR.
set -eu
B=$(cd "${1:-build}" && pwd)
W=${BENCH_DIR:-/tmp/loggops-bench}/sim
mkdir -p "$W"
trap 'rm -rf "$W"' EXIT

# Schedules from schedgen, or from the test generator (built with
# everything) when it is missing (binomial, dissemination), and the incast:
# every rank but 0 sends one 8-byte message to rank 0 (nonblocking: nothing
# waits for it), then does a calc of 0; rank 0 receives from any source.
gen() { # KIND P OUT
	if [ "$1" = incast ]; then
		"$B/tests/sim-gen" incast "$2" 8 "$3" 1
	elif [ -x "$B/bin/schedgen" ]; then
		case $1 in
		binomial) "$B/bin/schedgen" bcast_binomial -s "$2" -d 1 -o "$3" ;;
		dissemination) "$B/bin/schedgen" allreduce_dissemination -s "$2" -d 1 -o "$3" ;;
		alltoall) "$B/bin/schedgen" alltoall_linear -s "$2" -d 8 -o "$3" ;;
		alltoall1k) "$B/bin/schedgen" alltoall_linear -s "$2" -d 1024 -o "$3" ;;
		gather) "$B/bin/schedgen" gather_linear -s "$2" -d 8 -o "$3" ;;
		esac
	else
		"$B/tests/sim-gen" "$1" "$2" 1 "$3"
	fi
}

# PUSHES=1: a column with the event queue's pushes per event.  The best
# run's M events/s is left in $last_rate.
run() { # LABEL RUNS SCHEDULE [OPTION...]
	local label=$1 runs=$2 f=$3 best= rss= rate= events= t= cpu= pushes=
	shift 3
	for i in $(seq "$runs"); do
		LOGGOPSIM_PUSHES=1 /usr/bin/time -f '%e %M %U %S' -o "$W/time" "$B/bin/loggopsim" -b "$@" "$f" >"$W/out" 2>"$W/err"
		read -r wall kb us sy <"$W/time"
		if [ -z "$best" ] || [ "$(echo "$wall < $best" | bc)" = 1 ]; then
			best=$wall
			rss=$kb
			cpu=$(echo "$us + $sy" | bc)
			rate=$(sed -n 's/^loggopsim: \([0-9]*\) events in \([0-9.]*\) s (\([0-9.]*\) M events\/s)$/\3/p' "$W/err")
			events=$(sed -n 's/^loggopsim: \([0-9]*\) events in.*/\1/p' "$W/err")
			t=$(sed -n 's/^Maximum finishing time at host [0-9]*: \([0-9]*\) .*/\1/p' "$W/out")
			pushes=$(sed -n 's/^loggopsim: [0-9]* queue pushes (\([0-9.]*\) per event)$/\1/p' "$W/err")
		fi
	done
	printf '%-26s T=%-7s %10s events %6.2f M ev/s %5.0f ns/ev %7.2f s wall %7.2f s cpu %7.1f MiB' \
		"$label" "$t" "$events" "$rate" "$(echo "1000 / $rate" | bc -l)" "$best" "$cpu" \
		"$(echo "$rss / 1024" | bc -l)"
	if [ "${PUSHES:-0}" = 1 ]; then printf ' %6.3f pushes/ev\n' "$pushes"; else echo; fi
	last_rate=$rate
}

echo "== loggopsim: simulation (L=2500 o=1500 g=1000 G=6, 1-byte messages)"
gen binomial 1048576 "$W/b1m.bin"
run "binomial bcast P=1048576" 3 "$W/b1m.bin"
rm -f "$W/b1m.bin"
gen binomial 8388608 "$W/b8m.bin"
run "binomial bcast P=8388608" 3 "$W/b8m.bin"
# the critical path (docs/sensitivity.md) at 8M ranks
run "  critical path" 1 "$W/b8m.bin" --critical-path "$W/cp.csv"
rm -f "$W/b8m.bin"
gen dissemination 65536 "$W/d64k.bin"
run "dissemination P=65536" 3 "$W/d64k.bin"
# latency and bandwidth tolerance (target: at most 10 re-simulations)
run "  tolerance 1,2,5" 1 "$W/d64k.bin" --tolerance 1,2,5
echo "   $(grep '^Tolerance search' "$W/out")"
rm -f "$W/d64k.bin"
gen dissemination 1048576 "$W/d1m.bin"
# Best of 3 here: on a virtual machine the first run that touches more
# memory than the run before it pays for the host's page faults (docs/
# sensitivity.md, Cost).
run "dissemination P=1048576" 3 "$W/d1m.bin"
# the critical path and the derivatives (target: at most 1.5x the time and
# 1.3x the peak memory of the plain run)
run "  critical path, dT/dX" 3 "$W/d1m.bin" --critical-path "$W/cp.csv" --sensitivity
# with noise (docs/noise.md; target: at least half the events/s without)
run "  noise periodic 1kHz x 25us" 1 "$W/d1m.bin" --noise periodic:1000,25000
run "  noise poisson 1kHz, exp 25us" 1 "$W/d1m.bin" --noise poisson:1000,exp:25000
run "  slow ranks 0-1023 x1.5" 1 "$W/d1m.bin" --slow 0-1023:1.5
# Reading a noise trace of 12 M detours (169 MB; target: a peak within
# twice the file's size), on a 2-rank broadcast.
awk 'BEGIN { for (i = 1; i <= 12000000; i++) printf "%d000 25\n", i }' >"$W/big.noise"
"$B/bin/schedgen" bcast_binomial -s 2 -o "$W/b2.bin"
/usr/bin/time -f '%e %M' -o "$W/time" "$B/bin/loggopsim" -q --noise-trace "$W/big.noise" "$W/b2.bin" >/dev/null
read -r wall kb <"$W/time"
printf '%-26s %d MB trace: %7.2f s wall %7.1f MiB peak RSS\n' "  noise trace read" \
	"$(( $(stat -c %s "$W/big.noise") / 1000000 ))" "$wall" "$(echo "$kb / 1024" | bc -l)"
rm -f "$W/big.noise" "$W/b2.bin"
# What windows of the lookahead hold (docs/parallel.md, "What windows hold").
echo "-- lookahead windows (docs/parallel.md): windows, events and ranks each, events per rank; events over the busiest block's or set's"
for o in "" "--noise periodic:1000,25000"; do
	echo "   dissemination P=1048576${o:+ $o}:"
	"$B/bin/loggopsim" -b --lookahead $o "$W/d1m.bin" 2>"$W/err" | sed -n 's/^Windows: /     /p;s/^Blocks of ranks: events over the busiest block.s in each window, /     blocks: /p;s/^Ranks dealt round-robin: events over the busiest set.s in each window, /     dealt: /p;s/^Merge: /     /p'
	sed -n 's/^loggopsim: the windows. merge took /     the merge (a replay on one thread): /p' "$W/err"
done
# What one cache line read in no order costs here, prefetched well ahead:
# the bound on runs whose events come in no order of ranks (docs/noise.md,
# Speed): the schedule's size, and the rank records' (64 B per rank).
echo "   memory, random lines: $("$B/tests/mem-probe" 1384 1 20000000 | sed 's/.*, //'), over the schedule;" \
	"$("$B/tests/mem-probe" 64 1 20000000 | sed 's/.*, //'), over the rank records"
rm -f "$W/d1m.bin"
echo "-- cost per event as P grows (binomial broadcast; linear cost = flat ns/ev)"
for lg in 16 18 20 22; do
	gen binomial $((1 << lg)) "$W/s.bin"
	run "binomial bcast P=2^$lg" 1 "$W/s.bin"
	rm -f "$W/s.bin"
done
echo "-- many events waiting for one CPU or NIC (linear = flat pushes/ev and ns/ev)"
PUSHES=1
for p in 512 2048 8192; do
	gen alltoall "$p" "$W/a.bin"
	run "alltoall_linear P=$p" "$([ "$p" -lt 8192 ] && echo 3 || echo 1)" "$W/a.bin"
	rm -f "$W/a.bin"
done
# 1 KiB messages: a send's CPU is free before its NIC, and receives keep
# the CPU busy: the waiting sends alternate between the two.
for p in 512 2048; do
	gen alltoall1k "$p" "$W/a.bin"
	run "alltoall_linear 1 KiB P=$p" 3 "$W/a.bin"
	rm -f "$W/a.bin"
done
gen gather 8192 "$W/g.bin"
run "gather_linear P=8192" 5 "$W/g.bin"   # 4 ms: noisy
rm -f "$W/g.bin"
gen incast 1048576 "$W/i.bin"
run "incast P=1048576" 3 "$W/i.bin"
rm -f "$W/i.bin"
PUSHES=0
echo "-- large messages: each pattern with 1-byte and with rendezvous messages (1 MiB, above S)"
echo "   (the ring's chunks are the messages), at 4096 ranks and at the largest P run within a"
echo "   minute or two; linear = flat ns/ev, target: rendezvous ns/ev within 2x of 1 byte"
# rdv_pair PATTERN P [RUNS]: both cases of a pattern, and the ratio of their costs per event.
rdv_pair() {
	local pat=$1 p=$2 runs=${3:-1} e1 er
	for d in 1 1048576; do
		if [ "$pat" = allreduce_ring ]; then
			"$B/bin/schedgen" "$pat" -s "$p" -d $((d * p)) -o "$W/r.bin"
		else
			"$B/bin/schedgen" "$pat" -s "$p" -d "$d" -o "$W/r.bin"
		fi
		run "$pat $([ "$d" = 1 ] && echo 1B || echo 1MiB) P=$p" "$runs" "$W/r.bin"
		if [ "$d" = 1 ]; then e1=$last_rate; else er=$last_rate; fi
		rm -f "$W/r.bin"
	done
	printf '%-26s %.2fx the cost per event of 1 byte\n' "  rendezvous" "$(echo "$e1 / $er" | bc -l)"
}
for pat in bcast_binomial allreduce_dissemination allreduce_recdoub allreduce_ring alltoall_linear; do
	rdv_pair "$pat" 4096 3
done
rdv_pair bcast_binomial 8388608
rdv_pair allreduce_dissemination 1048576
rdv_pair allreduce_recdoub 1048576
rdv_pair allreduce_ring 16384
rdv_pair alltoall_linear 8192
# The ring allreduce of 1 GiB that AI clusters run (chunks of 1 GiB / P,
# all above S), at 53.7 GB/s (target: >= 20 M events/s at every P).
for p in 1024 4096 16384; do
	"$B/bin/schedgen" allreduce_ring -s "$p" -d 1073741824 -o "$W/r.bin"
	run "ring 1 GiB, G=0.018626 P=$p" "$([ "$p" -lt 16384 ] && echo 3 || echo 1)" "$W/r.bin" \
		-L 500 -o 0 -g 0 -G 0.018626
	rm -f "$W/r.bin"
done
if [ "${BENCH_BIG:-0}" = 1 ]; then
	gen dissemination 8388608 "$W/d8m.bin"
	run "dissemination P=8388608" 1 "$W/d8m.bin"
	rm -f "$W/d8m.bin"
fi
echo "-- trace JSON (docs/perfetto.md): binomial bcast P=2^21, its -V timeline of ~10.5 M lines"
gen binomial 2097152 "$W/t.bin"
"$B/bin/loggopsim" -q -b -V "$W/t.tl" "$W/t.bin" >/dev/null
tjson() { # LABEL OUT CMD...: wall, cpu, peak RSS, lines in, bytes out
	local label=$1 out=$2
	shift 2
	/usr/bin/time -f '%e %M %U %S' -o "$W/time" "$@" >/dev/null
	read -r wall kb us sy <"$W/time"
	printf '%-34s %7.2f s wall %7.2f s cpu %7.1f MiB  %d lines -> %d MB\n' "$label" "$wall" \
		"$(echo "$us + $sy" | bc)" "$(echo "$kb / 1024" | bc -l)" "$(wc -l <"$W/t.tl")" \
		"$(( $(stat -c %s "$out" 2>/dev/null || echo 0) / 1000000 ))"
}
tjson "goalviz t.tl -o t.json" "$W/t.json" "$B/bin/goalviz" "$W/t.tl" -o "$W/t.json"
rm -f "$W/t.json"
tjson "loggopsim --trace-json (run + JSON)" "$W/t.json" "$B/bin/loggopsim" -q -b --trace-json "$W/t.json" "$W/t.bin"
rm -f "$W/t.bin" "$W/t.tl" "$W/t.json"
