#!/usr/bin/env bash
# The critical path, the derivatives of T and the tolerances
# (docs/sensitivity.md): closed forms of collectives, re-simulation at X-1
# and X+1, the path file, random schedules (tests/sim/cp_check.py), the
# queue statistics and bad options.  Prints "ok - ..." / "not ok - ..." lines.
set -u
B=$(cd "${1:-build}" && pwd)
SIM=$B/bin/loggopsim
SG=$B/bin/schedgen
cd "$(dirname "$0")" || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { echo "ok - sensitivity $1"; }
fail() { echo "not ok - sensitivity $1"; [ -s "$tmp/diff" ] && sed 's/^/    /' "$tmp/diff" | head -30; }
check() { # NAME EXPECTED-FILE ACTUAL-FILE
	if diff -u "$2" "$3" >"$tmp/diff" 2>&1; then ok "$1"; else fail "$1"; fi
}
T() { "$SIM" -q -b "$@" | sed -n 's/^Maximum finishing time at host [0-9]*: \([0-9]*\) .*/\1/p'; }
deriv() { # PARAM ARGS...: dT/dPARAM from --sensitivity
	local x=$1
	shift
	"$SIM" -q -b --sensitivity "$@" | sed -n "s|^dT/d$x = ||p"
}

# The issue's example: a 1024-rank binomial broadcast of 1 byte, defaults:
# T = 10 (L + 2o); 1% more is 550 ns, 55 ns of L.
"$SG" bcast_binomial -s 1024 -d 1 -o "$tmp/b1k.bin"
"$SIM" -q -b --tolerance 1,2,5 "$tmp/b1k.bin" >"$tmp/out"
cat >"$tmp/want" <<'X'
LogGOPS L=2500 o=1500 g=1000 G=6 O=0 S=65535 P=1024
Maximum finishing time at host 1023: 55000 (0.000055000 s)
Events: 3069 (2046 ops, 1023 messages)
Critical path: 30 links, T = 10*L + 20*o + 0*g + 0*G + 0*O + 0 calc
dT/dL = 10
dT/do = 20
dT/dg = 0
dT/dG = 0
dT/dO = 0
latency tolerance 1%: L <= 2555 (+2.2%)
latency tolerance 2%: L <= 2610 (+4.4%)
latency tolerance 5%: L <= 2775 (+11.0%)
bandwidth tolerance 1%: G unbounded (T stays at most 55550 ns up to G = 1000006)
bandwidth tolerance 2%: G unbounded (T stays at most 56100 ns up to G = 1000006)
bandwidth tolerance 5%: G unbounded (T stays at most 57750 ns up to G = 1000006)
Tolerance search: 6 simulations for L, 1 for G
X
check "binomial broadcast P=1024: path, derivatives, tolerances" "$tmp/want" "$tmp/out"
for L in 2555 2556; do echo "$L $(T -L $L "$tmp/b1k.bin")"; done >"$tmp/out"
printf '2555 55550\n2556 55560\n' >"$tmp/want"
check "binomial broadcast P=1024: T at the tolerance and one above" "$tmp/want" "$tmp/out"

# A small G is searched in steps of at most 0.1% of it (here 10^-6 ns/B for
# G = 0.005, not 0.001): T = 23312, target floor(1.01 T) = 23545.
"$SG" allreduce_dissemination -s 16 -d 65536 -o "$tmp/ar16.bin"
"$SIM" -q -G 0.005 --tolerance 1 "$tmp/ar16.bin" | grep '^bandwidth tolerance' >"$tmp/out"
echo 'bandwidth tolerance 1%: G <= 0.005897 (+17.9%)' >"$tmp/want"
check "G = 0.005: the bound to 10^-6 ns/B" "$tmp/want" "$tmp/out"
for g in 0.005 0.005897 0.005898; do echo "$g $(T -G $g "$tmp/ar16.bin")"; done >"$tmp/out"
printf '0.005 23312\n0.005897 23544\n0.005898 23548\n' >"$tmp/want"
check "G = 0.005: T at the bound and one step above" "$tmp/want" "$tmp/out"

# Closed forms: PATTERN P BYTES FLAGS | dT/dL dT/do dT/dg dT/dG.
while read -r pat p d flags want; do
	[ "$flags" = - ] && flags=
	"$SG" "$pat" -s "$p" -d "$d" -o "$tmp/s.bin"
	# shellcheck disable=SC2086
	got="$(deriv L $flags "$tmp/s.bin") $(deriv o $flags "$tmp/s.bin") $(deriv g $flags "$tmp/s.bin") $(deriv G $flags "$tmp/s.bin")"
	if [ "$got" = "$want" ]; then
		ok "closed form: $pat P=$p ${d}B $flags: dT/d(L o g G) = $want"
	else
		echo "want $want, got $got" >"$tmp/diff"
		fail "closed form: $pat P=$p ${d}B $flags: dT/d(L o g G) = $want"
	fi
done <<'X'
bcast_binomial 64 1 - 6 12 0 0
bcast_binomial 16 1000 - 4 8 0 3996
allreduce_dissemination 64 1 - 6 12 0 0
allreduce_dissemination 1024 8 - 10 20 0 70
scatter_linear 8 1 - 1 8 0 0
scatter_linear 8 1 -g3000 1 2 6 0
bcast_chain 8 1 - 7 14 0 0
X

# Derivatives against re-simulation at X-1 and X+1 (both sides, since these
# runs have no break point at the defaults).
for spec in "bcast_binomial 64 1" "bcast_binary 31 100" "allreduce_recdoub 48 8" \
            "alltoall_linear 8 1" "gather_linear 8 1" "barrier_tree 27 1" "allreduce_ring 8 4096"; do
	set -- $spec
	"$SG" "$1" -s "$2" -d "$3" -o "$tmp/s.bin"
	t0=$(T "$tmp/s.bin")
	res=
	for x in L:2500 o:1500 g:1000; do
		k=${x%%:*} v=${x#*:}
		d=$(deriv "$k" "$tmp/s.bin")
		up=$(( $(T "-$k" $((v + 1)) "$tmp/s.bin") - t0 ))
		down=$(( t0 - $(T "-$k" $((v - 1)) "$tmp/s.bin") ))
		res="$res $k:$d/$down/$up"
	done
	if echo "$res" | awk '{ for (i = 1; i <= NF; i++) { split($i, a, "[:/]"); if (a[2] != a[3] || a[2] != a[4]) exit 1 } }'; then
		ok "$1 P=$2 ${3}B: dT/dX = T(X+1) - T(X) = T(X) - T(X-1) for L, o, g ($res)"
	else
		echo "dT/dX/left/right:$res" >"$tmp/diff"
		fail "$1 P=$2 ${3}B: dT/dX = T(X+1) - T(X) = T(X) - T(X-1) for L, o, g"
	fi
done

# The path file of a linear scatter bound by its NIC: T = 2g + o + L + o.
"$SG" scatter_linear -s 4 -d 1 -o "$tmp/sc.bin"
"$SIM" -q -b -g 3000 --critical-path "$tmp/cp.csv" "$tmp/sc.bin" >"$tmp/out"
cat >"$tmp/want" <<'X'
step,kind,rank,unit,op,peer,start_ns,end_ns,via,range,L,o,g,G_bytes,O_bytes,calc_ns,noise_ns,label
1,snic,0,0,0,1,0,3000,root,0,0,0,1,0,0,0,0,"l1"
2,snic,0,0,1,2,3000,6000,nic,0,0,0,1,0,0,0,0,"l2"
3,send,0,0,2,3,6000,7500,nic,0,0,1,0,0,0,0,0,"l3"
4,wire,0,0,2,3,7500,10000,depart,0,1,0,0,0,0,0,0,"l3"
5,recv,3,0,2,0,10000,11500,msg,0,0,1,0,0,0,0,0,"l3"
X
check "scatter P=4 g=3000: the path file" "$tmp/want" "$tmp/cp.csv"
grep -q '^Critical path: 5 links, T = 1\*L + 2\*o + 2\*g + 0\*G + 0\*O + 0 calc$' "$tmp/out" &&
	ok "scatter P=4 g=3000: T = 1*L + 2*o + 2*g in the summary" ||
	{ cp "$tmp/out" "$tmp/diff"; fail "scatter P=4 g=3000: T = 1*L + 2*o + 2*g in the summary"; }

# Random schedules: paths that add up to T, derivatives against re-simulation.
python3 cp_check.py "$B" 1 "${SENS_RUNS:-300}"

# A latency tolerance past a break point: rank 1 computes 20 us while the
# message flies, T = max(L + o, 20000) + o; 1% more (21715) is reached at
# L = 18715, beyond the flat part the run's path sees.
cat >"$tmp/kink.goal" <<'X'
num_ranks 2
rank 0 {
s: send 1b to 1
}
rank 1 {
r: recv 1b from 0
c: calc 20000
}
X
"$SIM" -q --tolerance 1,200 "$tmp/kink.goal" | grep -E '^(dT/dL|latency|Tolerance)' >"$tmp/out"
cat >"$tmp/want" <<'X'
dT/dL = 0
latency tolerance 1%: L <= 18715 (+648.6%)
latency tolerance 200%: L <= 61500 (+2360.0%)
Tolerance search: 5 simulations for L, 1 for G
X
check "tolerance past a break point (T flat in L, then rising)" "$tmp/want" "$tmp/out"
echo "$(T -L 18715 "$tmp/kink.goal") $(T -L 18716 "$tmp/kink.goal")" >"$tmp/out"
echo "21715 21716" >"$tmp/want"
check "tolerance past a break point: T at L and L+1" "$tmp/want" "$tmp/out"

# Queue statistics: rank 1 posts the receive of tag 4 (an empty UQ: 0
# entries looked at); messages 1, 2, 3 each look at it in the RQ (1 entry)
# and wait in the UQ; message 4 matches it (1 entry), and the receives of
# tags 3, 2, 1 then look at 3, 2 and 1 entries: 8 searches, 10 entries.
cat >"$tmp/q.goal" <<'X'
num_ranks 2
rank 0 {
send 1b to 1 tag 1
send 1b to 1 tag 2
send 1b to 1 tag 3
send 1b to 1 tag 4
}
rank 1 {
r4: recv 1b from 0 tag 4
r3: recv 1b from 0 tag 3
r2: recv 1b from 0 tag 2
r1: recv 1b from 0 tag 1
r3 requires r4
r2 requires r4
r1 requires r4
}
X
"$SIM" -q --qstat --csv "$tmp/q.csv" "$tmp/q.goal" | grep -E '^(Queues|Matching)' >"$tmp/out"
cat >"$tmp/want" <<'X'
Queues: longest receive queue 1 (rank 1), longest unexpected queue 3 (rank 1)
Matching: 8 searches, 1.25 entries per search, at most 3 (rank 1)
X
check "qstat: summary of a hand-computed case" "$tmp/want" "$tmp/out"
cat >"$tmp/want" <<'X'
rank,finish_ns,rq_max,uq_max,searches,searched_mean,searched_max
0,6000,0,0,0,0.00,0
1,10000,1,3,8,1.25,3
X
check "qstat: per-rank CSV" "$tmp/want" "$tmp/q.csv"
"$SIM" -q --json --qstat --sensitivity "$tmp/q.goal" >"$tmp/out"
if python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
assert j["qstat"] == {"rq_max": 1, "rq_max_rank": 1, "uq_max": 3, "uq_max_rank": 1, "searches": 8,
                      "searched": 10, "searched_max": 3, "searched_max_rank": 1}, j["qstat"]
assert j["critical_path"] == {"links": 6, "calc_ns": 0, "noise_ns": 0,
                              "ranges": [{"L": 1, "o": 5, "g": 0, "G_bytes": 0, "O_bytes": 0}]}, j["critical_path"]
' "$tmp/out" 2>"$tmp/diff"; then ok "--json carries qstat and the critical path"; else fail "--json carries qstat and the critical path"; fi

# Per-rank time on the path and slack: the scatter above.
"$SIM" -q -g 3000 --critical-path "$tmp/cp.csv" --csv "$tmp/r.csv" "$tmp/sc.bin" >/dev/null
cat >"$tmp/want" <<'X'
rank,finish_ns,cp_ns,slack_ns
0,7500,7500,4000
1,5500,0,6000
2,8500,0,3000
3,11500,1500,0
X
check "--csv with the path: cp_ns and slack_ns per rank" "$tmp/want" "$tmp/r.csv"

# Bad options (exit 2), and no path from an incomplete run (exit 1).
while IFS='|' read -r args msg; do
	# shellcheck disable=SC2086
	"$SIM" -q $args "$tmp/q.goal" >/dev/null 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 2 ] && head -1 "$tmp/err" | grep -qF -- "$msg"; then
		ok "bad option $args: exit 2, '$msg'"
	else
		{ echo "exit $rc"; cat "$tmp/err"; } >"$tmp/diff"
		fail "bad option $args: exit 2, '$msg'"
	fi
done <<'X'
--tolerance 0|loggopsim: error: --tolerance: a percentage is a number above 0 and below 1000000 with at most 3 decimals, not '0'
--tolerance -1|not '-1'
--tolerance 1,,2|not ''
--tolerance 1.0001|not '1.0001'
--tolerance 2,1,2|percentage 2 given twice
--tolerance abc|not 'abc'
--critical-path q.goal --sweep L=1,2|--sweep cannot be combined
X
printf 'num_ranks 2\nrank 0 {\nrecv 1b from 1\n}\nrank 1 {\ncalc 5\n}\n' >"$tmp/stuck.goal"
rm -f "$tmp/stuck.csv"
"$SIM" -q --critical-path "$tmp/stuck.csv" --sensitivity "$tmp/stuck.goal" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 1 ] && [ ! -e "$tmp/stuck.csv" ] && grep -q '^loggopsim: error: incomplete run' "$tmp/err" && [ ! -s "$tmp/out" ]; then
	ok "an incomplete run reports it and writes no path"
else
	{ echo "exit $rc"; cat "$tmp/err" "$tmp/out"; ls "$tmp"; } >"$tmp/diff"
	fail "an incomplete run reports it and writes no path"
fi

# A sweep with --sensitivity: the derivatives as CSV columns, per set.
"$SIM" -q --sweep "L=1000,4000 o=100" --sensitivity --no-wall --csv - "$tmp/b1k.bin" >"$tmp/out"
cat >"$tmp/want" <<'X'
set,name,P,L,o,g,G,O,S,status,time_ns,host,events,relative,wall_s,dT_dL,dT_do,dT_dg,dT_dG,dT_dO
1,L=1000:o=100,1024,1000,100,1000,6,0,65535,ok,12000,1023,3069,,,10,20,0,0,0
2,L=4000:o=100,1024,4000,100,1000,6,0,65535,ok,42000,1023,3069,,,10,20,0,0,0
X
check "--sweep --sensitivity: derivative columns" "$tmp/want" "$tmp/out"

# Noise and slow ranks: the path's noise column holds what they added.
"$SG" bcast_binomial -s 8 -d 1 -o "$tmp/b8.bin"
"$SIM" -q -b --slow 0-7:2 --critical-path "$tmp/cp.csv" "$tmp/b8.bin" | grep '^Critical' >"$tmp/out"
echo "Critical path: 9 links, T = 3*L + 6*o + 0*g + 0*G + 0*O + 0 calc + 9000 noise" >"$tmp/want"
check "--slow 0-7:2: each o counts once more as noise" "$tmp/want" "$tmp/out"

# CPUs of index 4 and up (kept out of the rank records) that finish
# together at T: the path ends at the lowest of them, as among the first
# four, whatever order their table holds them in.
{ echo "num_ranks 1"; echo "rank 0 {"
  for c in 40 31 22 13 9 7 5 4 6 8; do echo "calc 100 cpu $c"; done; echo "}"; } >"$tmp/cpus.goal"
"$SIM" -q --critical-path "$tmp/cp.csv" "$tmp/cpus.goal" >/dev/null
sed -n 2p "$tmp/cp.csv" >"$tmp/out"
echo '1,calc,0,4,7,,0,100,root,0,0,0,0,0,0,100,0,"l8"' >"$tmp/want"
check "--critical-path: of CPUs 4 and up free at T, the lowest" "$tmp/want" "$tmp/out"

# Slow ranks: the o and O that a slow rank's CPU pays count its factor.
# A ping: rank 0 pays o, rank 1 (twice as slow) 2o: T = 3o + L, dT/do = 3,
# and T(o + 1) - T(o) = 3; with 1.5, dT/do = 2.5 (each 1.5o rounded).
printf 'num_ranks 2\nrank 0 {\ns: send 1b to 1\n}\nrank 1 {\nr: recv 1b from 0\n}\n' >"$tmp/ping.goal"
"$SIM" -q --sensitivity --slow 1:2 "$tmp/ping.goal" | grep -E '^(Max|dT/do)' >"$tmp/out"
printf '%s\n' 'Maximum finishing time at host 1: 7000 (0.000007000 s)' 'dT/do = 3' >"$tmp/want"
check "--slow 1:2: dT/do weighs rank 1's o twice" "$tmp/want" "$tmp/out"
echo "$(( $(T -o 1501 --slow 1:2 "$tmp/ping.goal") - $(T --slow 1:2 "$tmp/ping.goal") )) $(( $(T --slow 1:2 "$tmp/ping.goal") - $(T -o 1499 --slow 1:2 "$tmp/ping.goal") ))" >"$tmp/out"
echo "3 3" >"$tmp/want"
check "--slow 1:2: T moves by 3 per ns of o" "$tmp/want" "$tmp/out"
"$SIM" -q --sensitivity --slow 1:1.5 "$tmp/ping.goal" | grep '^dT/do' >"$tmp/out"
echo "dT/do = 2.5" >"$tmp/want"
check "--slow 1:1.5: dT/do = 2.5" "$tmp/want" "$tmp/out"
# Noise: refused (T jumps or stays flat where the path meets a detour).
"$SIM" -q --sensitivity --noise periodic:1000,25000 "$tmp/ping.goal" >/dev/null 2>"$tmp/out"
echo "exit $?" >>"$tmp/out"
printf '%s\n' "loggopsim: error: --sensitivity cannot be combined with noise: where the critical path meets a detour, T does not move as the counts say" \
	"Try 'loggopsim --help'." "exit 2" >"$tmp/want"
check "--sensitivity with noise: refused" "$tmp/want" "$tmp/out"
