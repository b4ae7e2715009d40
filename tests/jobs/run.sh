#!/usr/bin/env bash
# Several jobs in one schedule (docs/jobs.md): goalc --merge and its
# placements, --job giving each job back byte for byte, loggopsim's line per
# job, --jobs-alone, start times, and a shared link's exact slowdown; bad
# input with its exact message.  Prints "ok - ..." / "not ok - ..." lines.
set -u
B=$(cd "${1:-build}" && pwd)
G=$B/bin/goalc
SIM=$B/bin/loggopsim
SG=$B/bin/schedgen
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 2

ok() { echo "ok - jobs $1"; }
fail() { echo "not ok - jobs $1"; [ -s diff ] && sed 's/^/    /' diff | head -20; }
want() { # NAME EXPECTED ACTUAL
	if [ "$2" = "$3" ]; then ok "$1"; else echo "got '$3', want '$2'" >diff; fail "$1"; fi
}
# NAME STATUS MESSAGE CMD...: CMD exits with STATUS and prints MESSAGE.
expect_err() {
	local name=$1 st=$2 msg=$3
	shift 3
	"$@" >/dev/null 2>err
	local rc=$?
	printf '%b' "$msg" >wanterr
	if [ $rc -eq "$st" ] && diff -u wanterr err >diff; then ok "$name"; else
		echo "exit status $rc" >>diff; fail "$name"; fi
}
# The job lines of loggopsim's summary.
jobs_of() { "$SIM" -q -b "$@" 2>&1 | grep '^Job\|error'; }

"$SG" allreduce_ring -s 4 -d 64 -o ar.goal >/dev/null
"$SG" alltoall_linear -s 3 -d 64 -o a2a.goal >/dev/null
# A schedule with labels, comms, a stride and an any-source receive.
cat >odd.goal <<'G'
num_ranks 3
rank 0 {
a: send 64b to 1 comm 7 stride 16 block 4
b: calc 10
b requires a
}
rank 1 {
x: recv 64b from -1 comm 7 stride 16 block 4
}
rank 2 {
}
G
for f in ar a2a odd; do "$G" $f.goal -o $f.bin; done

# ---- Merging and taking back -------------------------------------------
"$G" --merge ar.goal a2a.bin@2us odd.goal -o m.bin
"$G" --dump m.bin | grep '^job' >lines
printf 'job ar : 0 to 3\njob a2a start 2000 : 4 to 6\njob odd : 7 to 9\n' >wantl
if diff -u wantl lines >diff; then ok "packed: the job lines"; else fail "packed: the job lines"; fi
good=1
for f in ar a2a odd; do
	"$G" --job $f m.bin -o back.bin && cmp -s $f.bin back.bin || good=0
done
want "--job gives each job back byte for byte" 1 $good
"$G" --dump m.bin >m.goal && "$G" m.goal -o m2.bin
if cmp -s m.bin m2.bin; then ok "a merged schedule's dump compiles to it"; else fail "dump round trip"; fi
"$G" --merge ar.goal ar.goal --place roundrobin -o rr.bin
want "roundrobin, one file twice" "job ar : 0 2 4 6
job ar_2 : 1 3 5 7" "$("$G" --dump rr.bin | grep '^job')"
"$G" --merge ar.goal a2a.goal --place roundrobin --ranks 12 -o rr12.bin
want "roundrobin, a smaller job runs out first" "job ar : 0 2 4 6
job a2a : 1 3 5" "$("$G" --dump rr12.bin | grep '^job')"
"$G" --merge x=ar.goal y=a2a.goal --place random --seed 7 --ranks 9 -o r1.bin
"$G" --merge x=ar.goal y=a2a.goal --place random --seed 7 --ranks 9 -o r2.bin
"$G" --merge x=ar.goal y=a2a.goal --place random --seed 8 --ranks 9 -o r3.bin
if cmp -s r1.bin r2.bin && ! cmp -s r1.bin r3.bin; then ok "random: the seed decides"; else fail "random: the seed decides"; fi
# The ranks of the job lines, runs "a to b" written out, one a line.
job_ranks() {
	"$G" --dump "$1" | sed -n 's/^job [^:]*: //p' | awk '{
		for (i = 1; i <= NF; i++)
			if ($(i + 1) == "to") { for (r = $i; r <= $(i + 2); r++) print r; i += 2 }
			else print $i }'
}
want "random: 7 distinct ranks of 9" "7 7 8" \
	"$(job_ranks r1.bin | wc -l) $(job_ranks r1.bin | sort -u | wc -l) $(job_ranks r1.bin | sort -n | tail -1)"
"$G" --job y r1.bin -o back.bin
if cmp -s a2a.bin back.bin; then ok "random: --job gives the job back"; else fail "random: --job"; fi
printf '# ar, then a2a\n8 to 9 0 1\n\n5 2 3\n' >place.txt
"$G" --merge ar.goal a2a.goal --place place.txt --ranks 10 -o f.bin
want "a placement file" "job ar : 8 to 9 0 to 1
job a2a : 5 2 to 3" "$("$G" --dump f.bin | grep '^job')"
"$G" --stats f.bin | grep '^job' >stats
printf 'job ar         4 ranks, start 0 ns, comms from 0\njob a2a        3 ranks, start 0 ns, comms from 1\n' >wants
if diff -u wants stats >diff; then ok "--stats lists the jobs"; else fail "--stats lists the jobs"; fi

# ---- Bad input -----------------------------------------------------------
# NAME FILE-TEXT MESSAGE: --place of a file with that text is refused so.
place_err() {
	printf "$2" >place
	expect_err "placement: $1" 1 "$3" "$G" --merge ar.goal a2a.goal --place place -o x.bin
}
place_err "too few ranks" '0 to 3\n4 5\n' "place:2:1: error: job a2a has 3 ranks; the line names 2\n"
place_err "too many ranks" '0 to 4\n5 6\n' "place:1:1: error: job ar has 4 ranks; the line names more\n"
place_err "a rank twice" '0 to 3\n3 4 5\n' "place:2:1: error: rank 3 is job ar's already\n"
place_err "a rank past the size" '0 to 3\n4 5 9\n' \
	"place:2:5: error: rank 9 is outside the merged schedule's 0..6 (--ranks)\n"
place_err "too few lines" '0 to 3\n' "place: error: 1 lines for 2 jobs\n"
place_err "not a rank" '0 to 3\n4 x\n' "place:2:3: error: expected a rank\n"
expect_err "--ranks below the jobs' ranks" 2 "goalc: error: the jobs have 7 ranks together, --ranks gives 6\nTry 'goalc --help'.\n" \
	"$G" --merge ar.goal a2a.goal --ranks 6 -o x.bin
expect_err "a merged input" 1 "m.bin: error: already a merged schedule (3 jobs); goalc --job takes one out\n" \
	"$G" --merge m.bin ar.goal -o x.bin
expect_err "a bad start" 2 "goalc: error: ar.goal@soon: the start after '@' is no time (12000, 12us, 1.5ms)\nTry 'goalc --help'.\n" \
	"$G" --merge ar.goal@soon -o x.bin
expect_err "two names alike" 1 "goalc: error: two jobs are named a\n" \
	"$G" --merge a=ar.goal a=a2a.goal -o x.bin
expect_err "--job of no such job" 1 "m.bin: error: no job named zz\n" "$G" --job zz m.bin -o x.bin
expect_err "--job of a schedule without jobs" 1 "ar.bin: error: no jobs (not a merged schedule)\n" \
	"$G" --job ar ar.bin -o x.bin
expect_err "--seed without random" 2 "goalc: error: --seed goes with --place random\nTry 'goalc --help'.\n" \
	"$G" --merge ar.goal --seed 3 -o x.bin
[ ! -e x.bin ]; want "no output after an error" 0 $?

# ---- Simulating ------------------------------------------------------------
t_ar=$("$SIM" -q -b ar.goal | sed -n 's/^Maximum finishing time at host [0-9]*: \([0-9]*\) .*/\1/p')
t_a2a=$("$SIM" -q -b a2a.goal | sed -n 's/^Maximum finishing time at host [0-9]*: \([0-9]*\) .*/\1/p')
# odd: the 64-byte message ends at 2o + L + 63G = 5878.
want "no network: each job as alone, the late one from its start" \
	"Job 0 ar: 4 ranks, start 0, end $t_ar, time $t_ar, alone $t_ar, slowdown 1.0000
Job 1 a2a: 3 ranks, start 2000, end $((2000 + t_a2a)), time $t_a2a, alone $t_a2a, slowdown 1.0000
Job 2 odd: 3 ranks, start 0, end 5878, time 5878, alone 5878, slowdown 1.0000" "$(jobs_of m.bin --jobs-alone)"
want "JSON names the jobs" '"jobs": [{"name": "ar", "ranks": 4, "start_ns": 0, "end_ns": '$t_ar', "time_ns": '$t_ar'}' \
	"$("$SIM" -q --json rr.bin | grep -o '"jobs": \[{[^}]*}')"
# A sweep: a column per job, each job's time as alone at that G.
t12=$("$SIM" -q -G 12 -b a2a.goal | sed -n 's/^Maximum finishing time at host [0-9]*: \([0-9]*\) .*/\1/p')
want "a sweep's CSV has a column per job" "set,name,P,L,o,g,G,O,S,status,time_ns,host,events,relative,wall_s,job_ar_ns,job_a2a_ns,job_odd_ns
1,G=6,10,2500,1500,1000,6,0,65535,ok,$t_ar,0,94,,,$t_ar,$t_a2a,5878" \
	"$("$SIM" -q --sweep 'G=6' m.bin --csv - --no-wall)"
want "a sweep's job column at G=12" "$t12" \
	"$("$SIM" -q --sweep 'G=12' m.bin --csv - --no-wall | tail -1 | cut -d, -f17)"
# The timeline names the jobs; goalviz and the trace JSON name each rank's.
"$SIM" -q rr.bin -V rr.tl >/dev/null
want "the timeline's job lines" "loggopsim-timeline 4 P 8 S 65535 ncpus 1 nnics 1 ranges 1
range 0 inf L 2500 o 1500 g 1000 G 6 O 0
job ar 0 0 2 4 6
job ar_2 0 1 3 5 7" "$(head -4 rr.tl)"
"$SIM" -q m.bin -V m.tl >/dev/null
want "job lines as runs, with the start" "job ar 0 0-3
job a2a 2000 4-6
job odd 0 7-9" "$(sed -n 3,5p m.tl)"
"$B/bin/goalviz" rr.tl -o rr.svg
want "goalviz names each rank's job" "rank 0 (ar) rank 1 (ar_2) rank 7 (ar_2)" \
	"$(grep -o 'rank [0-9] ([a-z_0-9]*)' rr.svg | sed -n '1p;2p;8p' | tr '\n' ' ' | sed 's/ $//')"
"$SIM" -q rr.bin --trace-json rr.json >/dev/null
want "the trace JSON names each rank's job" '"name":"rank 0 (ar)" "name":"rank 1 (ar_2)"' \
	"$(grep -o '"name":"rank [01] ([a-z_0-9]*)"' rr.json | sort -u | tr '\n' ' ' | sed 's/ $//')"
# One message of 10^6 bytes per job, host 0 -> 2 and host 1 -> 3 (round
# robin): on fattree:k=2,levels=2,taper=2 both cross the one up-link of
# leaf 0, so each gets half of it: 2o + L + 2(s-1)G = 12005488 ns against
# 2o + L + (s-1)G = 6005494 alone.  Packed, each job stays on its leaf.
printf 'num_ranks 2\nrank 0 {\nsend 1000000b to 1\n}\nrank 1 {\nrecv 1000000b from 0\n}\n' >p2p.goal
"$G" --merge A=p2p.goal B=p2p.goal --place roundrobin -o net.bin
"$G" --merge A=p2p.goal B=p2p.goal -o packed.bin
want "a shared up-link: half the bandwidth each" \
	"Job 0 A: 2 ranks, start 0, end 12005488, time 12005488, alone 6005494, slowdown 1.9991
Job 1 B: 2 ranks, start 0, end 12005488, time 12005488, alone 6005494, slowdown 1.9991" \
	"$(jobs_of net.bin --topology fattree:k=2,levels=2,taper=2 --jobs-alone)"
want "packed: no link shared" \
	"Job 0 A: 2 ranks, start 0, end 6005494, time 6005494, alone 6005494, slowdown 1.0000
Job 1 B: 2 ranks, start 0, end 6005494, time 6005494, alone 6005494, slowdown 1.0000" \
	"$(jobs_of packed.bin --topology fattree:k=2,levels=2,taper=2 --jobs-alone)"
# B starts 3000000 ns later: A's bytes flow alone for 3000000 ns (500000
# bytes at 1/6 byte/ns, from 1500 on), then both at 1/12: A's other 499999
# bytes take 5999988 ns, to 9001488; B has sent 499999 bytes by then
# (from 3001500), its last 500000 take 3000000 more, to 12001488; each
# message ends L + o later.
"$G" --merge A=p2p.goal B=p2p.goal@3ms --place roundrobin -o late.bin
want "a late job on the shared up-link" \
	"Job 0 A: 2 ranks, start 0, end 9005488, time 9005488
Job 1 B: 2 ranks, start 3000000, end 12005488, time 9005488" \
	"$(jobs_of late.bin --topology fattree:k=2,levels=2,taper=2)"
# ---- Placing anew ----------------------------------------------------------
# loggopsim --place places a merged schedule's jobs as goalc --merge --place
# would: the timelines of the two runs are the same, byte for byte.
"$G" --merge x=ar.goal y=a2a.goal --place random --seed 5 --ranks 9 -o r5.bin
"$G" --merge x=ar.goal y=a2a.goal --ranks 9 -o p9.bin
"$SIM" -q p9.bin --place random --seed 5 -V a.tl >/dev/null
"$SIM" -q r5.bin -V b.tl >/dev/null
if cmp -s a.tl b.tl && ! cmp -s a.tl <("$SIM" -q p9.bin -V - 2>/dev/null); then
	ok "--place random: as merged so"; else fail "--place random: as merged so"; fi
printf '0 2\n1 3\n' >rr.txt
want "--place FILE: the shared up-link" \
	"Job 0 A: 2 ranks, start 0, end 12005488, time 12005488, alone 6005494, slowdown 1.9991
Job 1 B: 2 ranks, start 0, end 12005488, time 12005488, alone 6005494, slowdown 1.9991" \
	"$(jobs_of packed.bin --place rr.txt --topology fattree:k=2,levels=2,taper=2 --jobs-alone)"
# A sweep places per set: packed, round robin, and random by each seed, each
# row as the run with --place and --seed.
FT=fattree:k=2,levels=2,taper=2
"$SIM" -q packed.bin --topology $FT --sweep 'place=packed,roundrobin' --csv - --no-wall >sw.csv
want "a sweep's place= per set" "set,name,P,L,o,g,G,O,S,status,time_ns,host,events,relative,wall_s,seed,place,network,job_A_ns,job_B_ns
1,place=packed,4,2500,1500,1000,6,0,65535,ok,6005494,1,6,,,1,\"packed\",\"$FT\",6005494,6005494
2,place=roundrobin,4,2500,1500,1000,6,0,65535,ok,12005488,2,6,,,1,\"roundrobin\",\"$FT\",12005488,12005488" "$(cat sw.csv)"
"$SIM" -q packed.bin --topology $FT --sweep 'place=random seed=1..6' --csv - --no-wall >sw.csv
good=1
for k in 1 2 3 4 5 6; do
	t=$("$SIM" -q -b packed.bin --topology $FT --place random --seed $k | sed -n 's/^Job 0 A: .*time \([0-9]*\)$/\1/p')
	[ "$(sed -n "$((k + 1))p" sw.csv | awk -F, '{ print $(NF - 1) }')" = "$t" ] || good=0
done
want "a sweep's random placements: each seed's row as its run" "1 2" \
	"$good $(awk -F, 'NR > 1 { print $(NF - 1) }' sw.csv | sort -u | wc -l)"
printf 'rr place=rr.txt\nas-merged\nr3 place=random seed=3\n' >p.sweep
want "a sweep file's place=" "rr,12005488 as-merged,6005494 r3,12005488" \
	"$("$SIM" -q packed.bin --topology $FT --sweep p.sweep --csv - --no-wall | awk -F, 'NR > 1 { print $2 "," $(NF - 1) }' | tr '\n' ' ' | sed 's/ $//')"
printf '0 2\n1\n' >bad.txt
expect_err "a sweep's bad placement file, before any set runs" 1 "bad.txt:2:1: error: job B has 2 ranks; the line names 1\n" \
	"$SIM" -q packed.bin --sweep 'place=packed,bad.txt'
expect_err "--place without jobs" 2 "loggopsim: error: --place needs a schedule of several jobs (goalc --merge); ar.goal has no job table\nTry 'loggopsim --help'.\n" \
	"$SIM" -q ar.goal --place random
expect_err "a sweep's place= without jobs" 2 "loggopsim: error: a placement (--place, place=) needs a schedule of several jobs (goalc --merge); ar.goal has no job table\nTry 'loggopsim --help'.\n" \
	"$SIM" -q ar.goal --sweep place=random
expect_err "a seed with no random placement" 2 "loggopsim: error: set 'place=packed:seed=1': a seed needs --noise-trace, --noise or a random placement\nTry 'loggopsim --help'.\n" \
	"$SIM" -q packed.bin --sweep 'place=packed seed=1'
expect_err "the critical path with a late job" 1 "loggopsim: error: the critical path starts at time 0, and job B starts at 3000000 ns: merge the jobs without start times\n" \
	"$SIM" -q late.bin --critical-path cp.txt
expect_err "--jobs-alone without jobs" 2 "loggopsim: error: --jobs-alone needs a schedule of several jobs (goalc --merge); ar.goal has no job table\nTry 'loggopsim --help'.\n" \
	"$SIM" -q ar.goal --jobs-alone
