#!/usr/bin/env bash
# sweep-merge.sh: merge the CSV pieces of a split sweep (loggopsim --sweep
# ... --part K/N --csv PIECE) into one CSV on stdout, rows in set order, as
# one run of the whole sweep writes it (docs/sweep.md).
#
#   scripts/sweep-merge.sh [--relative-to NAME] PIECE.csv... > sweep.csv
#
# Checks: every piece has the sweep CSV header, no set appears twice.  With
# --relative-to NAME the relative column is computed from set NAME (which
# must be in some piece and complete).  Exit status 1 on bad input, 2 on a
# bad command line.
set -u
prog=sweep-merge.sh
usage() { sed -n '2,12s/^# \{0,1\}//p' "$0"; }
rel=
while [ $# -gt 0 ]; do
	case $1 in
	--relative-to) [ $# -ge 2 ] || { echo "$prog: error: --relative-to needs a set name" >&2; exit 2; }
		rel=$2; shift 2 ;;
	--relative-to=*) rel=${1#*=}; shift ;;
	-h|--help) usage; exit 0 ;;
	--) shift; break ;;
	-*) echo "$prog: error: unknown option '$1'" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || { echo "$prog: error: no CSV pieces given" >&2; exit 2; }
# The header of a sweep, and of a sweep with noise or slow ranks; every
# piece has the same one.
plain='set,name,P,L,o,g,G,O,S,status,time_ns,host,events,relative,wall_s'
header=
for f in "$@"; do
	[ -r "$f" ] || { echo "$f: error: cannot open" >&2; exit 1; }
	h=$(head -n 1 "$f")
	[ -n "$header" ] || header=$h
	{ [ "$h" = "$plain" ] || [ "$h" = "$plain,seed,noise" ]; } && [ "$h" = "$header" ] ||
		{ echo "$f:1: error: not a sweep CSV like the others (header '$h')" >&2; exit 1; }
done
echo "$header"
for f in "$@"; do tail -n +2 "$f"; done | sort -t, -k1,1n | awk -F, -v OFS=, -v rel="$rel" -v prog="$prog" '
	{
		if ($1 in seen) { printf "%s: error: set %s appears twice\n", prog, $1 > "/dev/stderr"; bad = 1; exit 1 }
		seen[$1] = 1
		row[++n] = $0
		if (rel != "" && $2 == rel) { base = ($10 == "ok") ? $11 : -1 }
	}
	END {
		if (bad) exit 1
		if (rel != "" && base == "") { printf "%s: error: --relative-to: no set named '\''%s'\''\n", prog, rel > "/dev/stderr"; exit 1 }
		if (rel != "" && base <= 0) { printf "%s: error: the baseline set '\''%s'\'' did not complete\n", prog, rel > "/dev/stderr"; exit 1 }
		for (i = 1; i <= n; i++) {
			$0 = row[i]
			if (rel != "") $14 = ($10 == "ok") ? sprintf("%.4f", $11 / base) : ""
			print
		}
	}'
