#!/usr/bin/env bash
# sweep-parallel.sh: run one loggopsim sweep as N independent pieces with GNU
# parallel (Debian package 'parallel'), on this machine or, through GNU
# parallel's own --sshloginfile, on several; then merge the pieces into one
# CSV (docs/sweep.md, "Beyond one machine").
#
#   scripts/sweep-parallel.sh [-n PIECES] [-j JOBS] [-t THREADS] [-d DIR]
#       [-o OUT.csv] [--relative-to NAME] -- LOGGOPSIM-ARGUMENTS...
#
#   -n PIECES   split the sweep into this many pieces (default 8)
#   -j JOBS     pieces running at once (default: the number of cores)
#   -t THREADS  threads per piece, loggopsim -j (default 1)
#   -d DIR      where the pieces go (default: a new temporary folder)
#   -o OUT.csv  the merged CSV (default: standard output)
#   --relative-to NAME   the relative column, from set NAME
#
# LOGGOPSIM-ARGUMENTS are loggopsim's (--sweep SPEC, parameters, schedule);
# the script adds --part K/N --csv DIR/piece-K.csv -q.  The loggopsim
# program is $LOGGOPSIM (default: loggopsim on the PATH).  Extra GNU parallel
# options go in $PARALLEL, e.g. PARALLEL='--sshloginfile nodes --workdir .'
# (the schedule and loggopsim must then be at the same paths on every node).
set -u
prog=sweep-parallel.sh
die() { echo "$prog: error: $*" >&2; exit 2; }
usage() { sed -n '2,23s/^# \{0,1\}//p' "$0"; }
n=8 jobs='' threads=1 dir='' out=- rel=()
while [ $# -gt 0 ]; do
	case $1 in
	-n) [ $# -ge 2 ] || die "-n needs a number"; n=$2; shift 2 ;;
	-j) [ $# -ge 2 ] || die "-j needs a number"; jobs=$2; shift 2 ;;
	-t) [ $# -ge 2 ] || die "-t needs a number"; threads=$2; shift 2 ;;
	-d) [ $# -ge 2 ] || die "-d needs a folder"; dir=$2; shift 2 ;;
	-o) [ $# -ge 2 ] || die "-o needs a file"; out=$2; shift 2 ;;
	--relative-to) [ $# -ge 2 ] || die "--relative-to needs a set name"; rel=(--relative-to "$2"); shift 2 ;;
	-h|--help) usage; exit 0 ;;
	--) shift; break ;;
	*) die "unknown option '$1' (loggopsim's arguments go after --)" ;;
	esac
done
[[ $n =~ ^[1-9][0-9]*$ ]] || die "-n needs a positive number, not '$n'"
[[ $threads =~ ^[1-9][0-9]*$ ]] || die "-t needs a positive number, not '$threads'"
[ -z "$jobs" ] || [[ $jobs =~ ^[1-9][0-9]*$ ]] || die "-j needs a positive number, not '$jobs'"
[ $# -gt 0 ] || die "no loggopsim arguments (after --)"
command -v parallel >/dev/null 2>&1 || { echo "$prog: error: GNU parallel is not installed (Debian: apt-get install parallel)" >&2; exit 1; }
sim=${LOGGOPSIM:-loggopsim}
here=$(cd "$(dirname "$0")" && pwd)
if [ -z "$dir" ]; then
	dir=$(mktemp -d) || exit 1
	trap 'rm -rf "$dir"' EXIT
else
	mkdir -p "$dir" || exit 1
fi
# One job per piece; --halt stops at the first failing piece.
parallel --will-cite --halt now,fail=1 ${jobs:+-j "$jobs"} -q \
	"$sim" "$@" -j "$threads" -q --part '{}'/"$n" --csv "$dir/piece-{}.csv" \
	::: $(seq 1 "$n") >/dev/null || { echo "$prog: error: a piece failed" >&2; exit 1; }
pieces=()
for k in $(seq 1 "$n"); do pieces+=("$dir/piece-$k.csv"); done
if [ "$out" = - ]; then
	"$here/sweep-merge.sh" "${rel[@]}" "${pieces[@]}"
else
	"$here/sweep-merge.sh" "${rel[@]}" "${pieces[@]}" >"$out"
fi
