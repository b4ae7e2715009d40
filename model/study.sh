#!/usr/bin/env bash
# The benchmarking-error study of docs/model.md: a binomial and a pipelined
# (chain) broadcast timed as one operation, as N back-to-back iterations
# divided by N, and with the root rotated, for P = 2 .. 1024, under the
# LogGP parameters measured for Gigabit Ethernet and InfiniBand; and the
# fan-in sweep of the combining-tree barrier.  Writes tables (.txt) and
# plots (.svg) into OUTDIR.
#   model/study.sh [BUILD_DIR [OUTDIR [N]]]     (defaults: build docs/img 1000)
set -eu
B=${1:-build}
OUT=${2:-docs/img}
N=${3:-1000}
M=$B/bin/loggops-model
mkdir -p "$OUT"

gige="-L 45740 -o 3460 -g 915 -G 8.49"
ib="-L 5960 -o 4720 -g 5140 -G 0.73"
for net in gige ib; do
	for pat in bcast_binomial bcast_chain; do
		f=$OUT/model-study-$net-$pat
		# shellcheck disable=SC2086
		"$M" "$pat" -P 2..1024 -s 1 ${!net} --loop "$N" --svg "$f.svg" >"$f.txt"
	done
done

# Where the combining tree's fan-in is best: defaults, and both networks.
for net in default gige ib; do
	case $net in default) p="";; *) p=${!net};; esac
	for P in 64 1024; do
		f=$OUT/model-fanin-$net-$P
		# shellcheck disable=SC2086
		"$M" barrier_tree -P "$P" $p --sweep n=2..16:1 --svg "$f.svg" >"$f.txt"
	done
done
