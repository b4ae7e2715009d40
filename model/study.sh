#!/usr/bin/env bash
# The figures and tables of docs/model.md: the benchmarking-error study (a
# binomial and a pipelined chain broadcast timed as one operation, as N
# back-to-back iterations divided by N, and with the root rotated, for
# P = 2 .. 1024, under the LogGP parameters measured for Gigabit Ethernet and
# InfiniBand), the fan-in sweep of the combining-tree barrier, and a few
# formula comparisons.  Plots go to OUTDIR/model-*.svg, tables to stdout.
#   model/study.sh [BUILD_DIR [OUTDIR [N]]]     (defaults: build docs/img 1000)
set -eu
B=${1:-build}
OUT=${2:-docs/img}
N=${3:-1000}
M=$B/bin/loggops-model
mkdir -p "$OUT"

run() { # NAME ARGS...: one table, one plot
	local n=$1; shift
	echo "== $n: loggops-model $*"
	"$M" "$@" --svg "$OUT/model-$n.svg"
	echo
}

gige="-L 45740 -o 3460 -g 915 -G 8.49"
ib="-L 5960 -o 4720 -g 5140 -G 0.73"
for net in gige ib; do
	for pat in bcast_binomial bcast_chain; do
		# shellcheck disable=SC2086
		run "study-$net-${pat#bcast_}" "$pat" -s 2..1024 -d 1 ${!net} --loop "$N"
	done
done

# Where the combining tree's fan-in is best: defaults, and both networks.
for net in default gige ib; do
	case $net in default) p="";; *) p=${!net};; esac
	for P in 64 1024; do
		# shellcheck disable=SC2086
		run "fanin-$net-$P" barrier_tree -s "$P" $p --sweep n=2..16:1
	done
done

# Formulas: where they are exact, bounds, or break.
run scatter-mixed scatter_linear -s 2..4096 -d 1000 -L 1000 -o 3000 -g 100 -G 2 -O 1
run binomial-all-P bcast_binomial -s 2..70:1 -d 1024
run binary-ib bcast_binary -s 3,7,15,31,63,127,255,511,1023,2047,4095 -d 1024 $ib
run dissemination-big-g barrier_dissemination -s 2..4096 -g 9000
run tournament-all-P barrier_tournament -s 2..70:1
run central-sweep-g barrier_linear -s 64 --sweep g=250..8000
