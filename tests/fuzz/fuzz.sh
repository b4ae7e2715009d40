#!/usr/bin/env bash
# Runs each libFuzzer target for $1 seconds (default 20), seeded with the
# golden GOAL cases and their compiled binaries, for the LogGP files with
# two recorded PRTT tables and a parameter file, for the trace reader and
# trace2goal with the traces of tests/trace2goal/cases (the ranks of a run
# joined by form feeds), for the DUMPI reader with the rank files that
# tests/trace2goal/mkdumpi.py writes, for the timeline reader with the timelines of
# tests/viz/data and tests/sim/cases, for the critical path file with the
# one of tests/viz/data, for sweeps with the files and
# compact forms of docs/sweep.md, for noise traces and --noise specs, and
# for topology specs followed by a mapping file, for dot files, and for
# OTF2 anchors.
# Exit status non-zero if a target finds a crash, a leak, a timeout (10 s)
# or more than 2 GB of memory (the reproducer is left in build/fuzz/).
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
mkdir -p $F/corpus-trace $F/corpus-t2g
T=tests/trace2goal/cases
for d in $T/*/; do
	n=$(basename "$d")
	for r in "$d"*.txt; do cp "$r" "$F/corpus-trace/$n-$(basename "$r")"; done
	# the first three ranks, joined by form feeds
	set -- "$d"*.txt
	{ cat "$1"; for r in "${@:2:2}"; do printf '\f'; cat "$r"; done; } >"$F/corpus-t2g/$n"
	cp "$1" "$F/corpus-t2g/$n-one"
done
# the coll case on three ranks (rank 1 alone in its split half)
for r in 0 1 2; do
	sed -e 's/^# size: 4/# size: 3/; s/0,1,2,3$/0,1,2/; s/,4:/,3:/g; s/10,20,30,40/10,20,30/' \
		-e 's/0,10,30,60/0,10,30/; s/\([0-9]*\),\1,\1,\1:/\1,\1,\1:/; s/0,1,2,3:/0,1,2:/' \
		-e '/^# rank: 1/,$ { s/:3,1$/:1/; s/:2\([01]\),1,2:/:2\1,0,1:/; }' $T/coll/rank-$r.txt
	[ $r = 2 ] || printf '\f'
done >$F/corpus-t2g/coll-3
mkdir -p $F/corpus-dumpi $F/dumpi-seed
python3 tests/trace2goal/mkdumpi.py comm $F/dumpi-seed
python3 tests/trace2goal/mkdumpi.py big $F/dumpi-seed 20 2
python3 tests/trace2goal/mkdumpi.py resplit $F/dumpi-seed
cp $F/dumpi-seed/*.bin $F/corpus-dumpi/
mkdir -p $F/corpus-timeline
for f in tests/viz/data/*.tl tests/sim/cases/*.tl; do
	cp "$f" "$F/corpus-timeline/$(basename "$(dirname "$f")")-$(basename "$f")"
done
mkdir -p $F/corpus-path
cp tests/viz/data/*.csv $F/corpus-path/
mkdir -p $F/corpus-sweep
printf '%s\n' '# the four changes of the LogGOPSim paper' base 'rdma       O=0' \
	'no-overlap O=G' 'G*10       G=*10' 'L*10       L=*10 S=100' >$F/corpus-sweep/four.sweep
printf '%s\n' 'shm params=fuzz-sweep.params' 'tcp-L*2  params=fuzz-sweep.params L=*2 O=G' \
	>$F/corpus-sweep/params.sweep
printf '%s\n' 'none params=no-such.params' >$F/corpus-sweep/no-params.sweep
printf '%s' 'L=1000..64000*2 G=1,2,4' >$F/corpus-sweep/compact
printf '%s' 'G=0.1..0.5+0.2 o=*2,L O=0.000000001 S=0,65535 g=1..50*3' >$F/corpus-sweep/compact2
printf '%s' 'L=1..10 S=0..10:4,100 G=0.5..2,4..4.5:0.25' >$F/corpus-sweep/compact3
mkdir -p $F/corpus-noise
cp tests/sim/cases/noise.noise tests/sim/cases/wrap.noise $F/corpus-noise/
printf '%s\n' '# period: 1000' '0.5 10.5' '990 10' '5 3' >$F/corpus-noise/frac
printf '%s' 'periodic:1000,25000' >$F/corpus-noise/periodic
printf '%s' 'poisson:100000,exp:2000' >$F/corpus-noise/poisson
mkdir -p $F/corpus-topo
printf '%s\n' 'fattree:k=4,levels=3,taper=2,bw=12.5,hostbw=25,lat=100' '# rank 0' '3' '2 # two' \
	'1' '0' >$F/corpus-topo/fattree
printf '%s\n' 'torus:8x8x2,p=2' '0' '127' '5' >$F/corpus-topo/torus
printf '%s\n' 'dragonfly:a=4,p=2,h=2,groups=5' '1' '' '39' >$F/corpus-topo/dragonfly
printf '%s' 'fattree:k=2,levels=31' >$F/corpus-topo/big
mkdir -p $F/corpus-dot
cp tests/net/share.dot $F/corpus-dot/
printf '%s' 'digraph { H0 -> S0; H1 -> S1; S0 -> S1 [comment="*"]; S0 -> H0 [comment="H0", bw="2"]; S1 -> S0 [comment="*"]; S1 -> H1 [comment="H0"] }' \
	>$F/corpus-dot/loop
printf '%s' 'graph { H0 -- S0 [comment="*"]; H1 -- S0; S0 -- H1 [comment="H1 H0"] }' >$F/corpus-dot/undirected
# Chakra: a byte of ranks, then the traces of tests/chakra/run.sh's kinds.
mkdir -p $F/corpus-chakra
PYTHONPATH=tests/chakra python3 -c '
import et, sys
d = sys.argv[1]
one = et.framed([et.metadata(), et.node(1, et.COMP, dur=5, attrs=[("num_ops", 9)]),
                 et.node(2, et.MEM_LOAD, dur=1, data=[1], attrs=[("tensor_size", 64)]),
                 et.node(3, et.METADATA, ctrl=[2])])
coll = et.framed([et.metadata(), et.node(1, et.COLL, attrs=[("comm_type", et.ALL_REDUCE), ("comm_size", 64)]),
                  et.node(2, et.COLL, data=[1], attrs=[("comm_type", et.ALL_TO_ALL), ("comm_size", 96), ("pg_name", "g")]),
                  et.node(3, et.COMP, dur=2, data=[2])])
open(d + "/one", "wb").write(bytes([0]) + one)
open(d + "/coll", "wb").write(bytes([2]) + coll * 3)
' $F/corpus-chakra
# OTF2: anchors of archives mkotf2.py writes (it needs the OTF2 library's
# Python bindings), fuzzed beside the definitions and events of one of them.
targets="goal_text goal_bin loggp trace t2g dumpi timeline path sweep noise topo dot chakra"
for p in python3 /usr/bin/python3; do
	command -v "$p" >/dev/null && "$p" -c 'import otf2' 2>/dev/null || continue
	rm -rf $F/otf2-seed && mkdir -p $F/corpus-otf2
	"$p" tests/trace2goal/mkotf2.py cover $F/otf2-seed
	cp $F/otf2-seed/traces.otf2 $F/corpus-otf2/cover
	[ -e ../shared/traces/otf2-mpi-coverage/traces.otf2 ] &&
		cp ../shared/traces/otf2-mpi-coverage/traces.otf2 $F/corpus-otf2/score-p
	export FUZZ_OTF2_ARCHIVE=$PWD/$F/otf2-seed
	targets="$targets otf2"
	break
done
[ -n "${FUZZ_OTF2_ARCHIVE:-}" ] || echo "fuzzing otf2: skipped (python3-otf2 not installed)" >&2
for t in $targets; do
	echo "fuzzing $t for $secs s" >&2
	c=corpus-${t#goal_}
	supp=
	[ $t = otf2 ] && supp=suppressions=$PWD/tests/fuzz/lsan-otf2.supp
	(cd $F && LSAN_OPTIONS=$supp ./fuzz_$t -max_total_time="$secs" -max_len=8192 -print_final_stats=0 \
		-timeout=10 -rss_limit_mb=2048 $c 2>fuzz-$t.log) || { tail -40 $F/fuzz-$t.log; exit 1; }
	grep -E '^#[0-9]+.*DONE' $F/fuzz-$t.log | tail -1 >&2 || true
done
