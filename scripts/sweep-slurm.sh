#!/usr/bin/env bash
# sweep-slurm.sh: one piece of a loggopsim sweep as a Slurm job-array task
# (docs/sweep.md, "Beyond one machine").  Submit N pieces, then the merge:
#
#   mkdir -p pieces
#   jid=$(sbatch --parsable --array=1-16 scripts/sweep-slurm.sh pieces \
#         --sweep study.sweep -p net.params app.bin)
#   sbatch --dependency=afterok:$jid --wrap \
#         "scripts/sweep-merge.sh --relative-to base pieces/piece-*.csv > study.csv"
#
# Arguments: the folder for the pieces, then loggopsim's arguments.  Task K
# of an array of N tasks runs loggopsim ... --part K/N --csv
# DIR/piece-K.csv, with as many threads as the task has CPUs
# (--cpus-per-task).  The loggopsim program is $LOGGOPSIM (default:
# loggopsim on the PATH); the schedule must be readable on every node.
#SBATCH --job-name=loggopsim-sweep
#SBATCH --cpus-per-task=4
#SBATCH --ntasks=1
#SBATCH --time=01:00:00
#SBATCH --output=loggopsim-sweep-%A_%a.out
set -eu
prog=sweep-slurm.sh
[ $# -ge 2 ] || { echo "$prog: error: usage: sbatch --array=1-N $prog DIR LOGGOPSIM-ARGS..." >&2; exit 2; }
: "${SLURM_ARRAY_TASK_ID:?$prog: error: not a job-array task (submit with sbatch --array=1-N)}"
dir=$1
shift
# Piece K of N, counted from 1 whatever the array's first index.
k=$((SLURM_ARRAY_TASK_ID - ${SLURM_ARRAY_TASK_MIN:-1} + 1))
n=${SLURM_ARRAY_TASK_COUNT:?$prog: error: SLURM_ARRAY_TASK_COUNT is not set}
threads=${SLURM_CPUS_PER_TASK:-1}
mkdir -p "$dir"
exec "${LOGGOPSIM:-loggopsim}" "$@" -j "$threads" -q --part "$k/$n" --csv "$dir/piece-$k.csv"
