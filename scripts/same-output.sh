#!/usr/bin/env bash
# Does a change of loggopsim keep its output, byte for byte?  Runs every
# schedgen pattern (1000-byte messages) at P = 17, 64 and 300 (with a
# network at 17 and 64) under 14 option sets with two builds' loggopsim
# and compares everything they write: stdout and stderr, the timeline,
# trace JSON, critical path and CSV files.
#
#   git worktree add /tmp/old HEAD && make -C /tmp/old -s -j2
#   make -s -j2 && scripts/same-output.sh /tmp/old/build build
#
# Usage: scripts/same-output.sh OLD_BUILD NEW_BUILD [P...]
# Prints one line per option set (schedules compared, mismatches) and each
# mismatching case; exit status 0 when every output is the same, 1 when
# one differs, 2 on bad usage.  SAME_IGNORE=RE takes what matches the
# extended regular expression RE (no /) out of every file compared: a
# figure a change is meant to move, such as a count of its own work (the
# flows recomputed at once: 'most [0-9]+ recomputed|"largest_settle": [0-9]+').
# Schedules come from NEW_BUILD's schedgen; both builds read the same
# files.  Takes about 6 minutes here.
set -u
[ $# -ge 2 ] || { sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
OLD=$(cd "$1" && pwd) || exit 2
NEW=$(cd "$2" && pwd) || exit 2
shift 2
PS=${*:-17 64 300}
for b in "$OLD" "$NEW"; do
	[ -x "$b/bin/loggopsim" ] || { echo "same-output.sh: no $b/bin/loggopsim" >&2; exit 2; }
done
[ -x "$NEW/bin/schedgen" ] || { echo "same-output.sh: no $NEW/bin/schedgen" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The option sets: NAME|OPTIONS, where @ is the folder for output files
# (each build gets its own) and % the folder of the inputs.  The sets with
# a network run at P <= 64 only: contended flows take minutes a run at 300
# (docs/network.md, Speed).
printf 'a L=1000 G=1\nb L=4000 G=6\nc L=4000 G=1 O=0.5\n' >"$tmp/sweep.txt"
printf 'loggp-params 1\nS 65535\nrange 0 256 L=900 o=96 g=87 G=0.091115 O=0.0033\nrange 257 inf L=39 o=2069 g=1976 G=0.069616 O=0.073073\nstride 64 o_mw=210 O_mw=0.31 l_mw=0 L_mw=0.042\n' >"$tmp/two.params"
SETS=(
	"plain|"
	"json|--json --critical-path @/cp --tolerance 2 --qstat -p %/two.params"
	"json, noise|--json --noise periodic:10000,2000 --slow 1,5-9:1.5"
	"json, network|--json --topology fattree:k=8,levels=3,taper=2"
	"timeline|-b -V @/tl"
	"trace-json|-b --trace-json @/tj"
	"critical path|-b --critical-path @/cp --sensitivity"
	"noise|-b --noise periodic:10000,2000 --seed 3"
	"noise, slow|-b --noise poisson:20000,exp:500 --noise-rule published --slow 1,5-9:1.5"
	"fat tree|-b --topology fattree:k=8,levels=3,taper=2 --mapping random --seed 2"
	"torus, simple|-b --topology torus:8x8x8 -n simple -V @/tl"
	"queues|-b --qstat --csv @/q.csv"
	"sweep|--sweep %/sweep.txt -j 2 --no-wall --csv -"
	"rendezvous|-b -S 256 -O 0.5 -o 700"
)

# The schedules, once: PAT.P.bin (patterns that do not take P are left out).
mkdir "$tmp/s"
for P in $PS; do
	for pat in $("$NEW/bin/schedgen" --list | awk '{print $1}'); do
		"$NEW/bin/schedgen" "$pat" -s "$P" -d 1000 -o "$tmp/s/$pat.$P.bin" 2>/dev/null ||
			rm -f "$tmp/s/$pat.$P.bin"
	done
done

fail=0
for set in "${SETS[@]}"; do
	name=${set%%|*}
	opts=${set#*|}
	n=0 bad=0
	for P in $PS; do
		case $opts in *--topology*) [ "$P" -le 64 ] || continue ;; esac
		for f in "$tmp"/s/*."$P".bin; do
			[ -e "$f" ] || continue
			pat=$(basename "$f" ".$P.bin")
			for side in old new; do
				b=$OLD
				[ $side = new ] && b=$NEW
				rm -rf "${tmp:?}/$side" && mkdir "$tmp/$side"
				o=${opts//@/$tmp/$side}
				o=${o//%/$tmp}
				# shellcheck disable=SC2086
				"$b/bin/loggopsim" -q $o "$f" >"$tmp/$side/out" 2>&1
				echo "exit $?" >>"$tmp/$side/out"
			done
			n=$((n + 1))
			if [ -n "${SAME_IGNORE:-}" ]; then
				find "$tmp/old" "$tmp/new" -type f | while read -r o; do
					sed -E "s/$SAME_IGNORE//g" "$o" >"$o.kept"
					mv "$o.kept" "$o"
				done
			fi
			if ! diff -r "$tmp/old" "$tmp/new" >/dev/null; then
				bad=$((bad + 1))
				echo "  differs: $name: $pat P=$P"
			fi
		done
	done
	printf '%-16s %4d schedules, %d differ\n' "$name" "$n" "$bad"
	[ "$bad" = 0 ] || fail=1
done
exit $fail
