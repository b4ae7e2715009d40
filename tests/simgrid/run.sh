#!/usr/bin/env bash
# usage: tests/simgrid/run.sh BUILD_DIR [--keep DIR] [--time] [--ranks P] [TOPOLOGY...]
#
# loggopsim's flow model (docs/semantics.md section 11, docs/network.md)
# side by side with SimGrid's max-min flow model: the same schedgen
# schedules (incast, alltoall, two allreduces, 64 ranks) on the same
# networks (fattree:k=4,levels=3 and torus:8x8), run by loggopsim and by
# replay.cpp on a SimGrid platform made from the topology (topo_dump.c,
# platform.awk).  Each check passes when the two finishing times, and every
# rank's, agree within 2%; it prints both.  A line starting with '#' gives,
# for information, SimGrid's time when every comm starts as soon as posted
# (see "Why the sending NIC" below).  --keep DIR keeps the platforms,
# schedules and outputs in DIR.  --ranks P runs P ranks instead of 64 (the
# topologies must have P hosts).  --time also prints, per check, each
# simulator's own wall time for the simulation (loggopsim's "events in"
# line, replay's run_s: without reading the schedule or loading the
# platform, whose explicit route per pair of hosts SimGrid takes long to
# load on large topologies), measured one after the other, and their
# ratio; the runs "every comm at once" are then left out.
#
# The programs are built into BUILD_DIR/tests/simgrid: topo_dump with the
# compiler and flags of BUILD_DIR (BUILD_DIR/flags.txt) against its libsim,
# replay with g++ and pkg-config simgrid.  Without SimGrid (libsimgrid-dev)
# every check is reported skipped.  Prints "ok - ..." / "not ok - ...".
#
# Only the network matters: o = g = L = O = 0, G = 0.1 ns/byte (links of
# 1/G = 10 bytes/ns, 1e10 bytes/s in SimGrid), messages of s = 1000001 bytes
# (sG = (s - 1) G = 100000 ns; SimGrid sends s - 1 bytes), all eager (S
# above s).  Rank r on host r.
#
# Why the sending NIC: loggopsim keeps the LogGOPS rules, and a rank's NIC
# takes g + sG per send (section 4), so a rank's independent sends leave
# sG apart; replay --gap G does the same.  Without it SimGrid starts every
# comm when posted: the linear alltoall's 63 sends of a rank start all at
# once instead of one per sG.  On the fat tree that changes nothing (each
# host's own links carry 63 flows either way: 63 sG), on the torus it does:
# all 4032 flows share the links from time 0 and end at the load of the
# busiest links (80 flows on every +x and +y link: 80 sG = 8.0 ms), while
# sent step by step the shifts load the links unevenly over time and the
# run ends at 9.29 ms, in both simulators.  loggopsim's receiving NIC and
# CPU also take one message at a time (g + sG, o + max(sO, sG)), a flow
# starting when its message is handled; SimGrid starts it when sent.  In
# these schedules that changes no finishing time: in the incast the root
# handles the 63 messages one after the other, each flow alone on its
# down-link for sG, where SimGrid shares the down-link among 63 flows at
# 1/63 of the rate: both end at 63 sG; in the alltoall and the allreduces
# no message waits for its receiver.
set -u
usage() { sed -n '2p' "$0" | sed 's/^# //' >&2; exit 2; }
[ $# -ge 1 ] || usage
B=$(cd "$1" && pwd) || exit 2
shift
keep=
TOPOS=
timing=0
P=64
while [ $# -gt 0 ]; do
	case $1 in
	--keep) [ $# -ge 2 ] || usage; mkdir -p "$2" && keep=$(cd "$2" && pwd) || exit 2; shift 2 ;;
	--time) timing=1; shift ;;
	--ranks)
		if [ $# -lt 2 ] || ! [ "$2" -ge 2 ] 2>/dev/null; then usage; fi
		P=$2
		shift 2 ;;
	-*) usage ;;
	*) TOPOS+="$1 "; shift ;;
	esac
done
: "${TOPOS:=fattree:k=4,levels=3 torus:8x8}"
cd "$(dirname "$0")/../.." || exit 2
SIM=$B/bin/loggopsim
SCHEDGEN=$B/bin/schedgen
out=$B/tests/simgrid
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -n "$keep" ] && tmp_keep=$keep || tmp_keep=$tmp

G=0.1
SIZE=1000001
LOGGOPS="-o 0 -g 0 -L 0 -O 0 -G $G -S $((SIZE + 1))"
# name:schedgen pattern
PATTERNS="incast:gather_linear alltoall:alltoall_linear allreduce:allreduce_dissemination
allreduce:allreduce_recdoub"

checks() { # every check's name, for skips
	for pt in $PATTERNS; do for t in $TOPOS; do echo "${pt%%:*} ${pt#*:} on $t"; done; done
}
skip_all() { checks | while read -r n; do echo "ok - simgrid $n # SKIP $1"; done; exit 0; }

if ! command -v pkg-config >/dev/null || ! pkg-config --exists simgrid 2>/dev/null; then
	skip_all "SimGrid is not installed (libsimgrid-dev)"
fi
command -v g++ >/dev/null || skip_all "no g++ to build the SimGrid program"
for p in "$SIM" "$SCHEDGEN" "$B/lib/libsim.a" "$B/lib/libutil.a"; do
	[ -e "$p" ] || { echo "not ok - simgrid: $p is missing (build first)"; exit 1; }
done

# Builds OUT from the command that follows when OUT is older than one of
# the files before "--".
build() { # OUT DEPS... -- COMMAND...
	local o=$1 stale=0
	shift
	while [ "$1" != "--" ]; do
		[ "$o" -nt "$1" ] || stale=1
		shift
	done
	shift
	[ -x "$o" ] && [ $stale = 0 ] && return 0
	if ! "$@" >"$tmp/build.log" 2>&1; then
		echo "not ok - simgrid: building $(basename "$o")"
		sed 's/^/    /' "$tmp/build.log" | head -30
		exit 1
	fi
}
mkdir -p "$out"
# topo_dump: the build's own compiler and flags (sanitizers included).
if [ -f "$B/flags.txt" ]; then
	cflags=$(cut -d'|' -f1 "$B/flags.txt")
	ldflags=$(cut -d'|' -f3 "$B/flags.txt")
else
	cflags="cc -std=c11 -O2"
	ldflags="-lm"
fi
build "$out/topo_dump" tests/simgrid/topo_dump.c network/topo.h "$B/lib/libsim.a" "$B/lib/libutil.a" -- \
	sh -c "$cflags -I network -c tests/simgrid/topo_dump.c -o '$out/topo_dump.o' &&
		${cflags%% *} '$out/topo_dump.o' '$B/lib/libsim.a' '$B/lib/libutil.a' $ldflags -o '$out/topo_dump'"
build "$out/replay" tests/simgrid/replay.cpp -- \
	sh -c "g++ -std=c++17 -O2 -Wall -Wextra -Werror tests/simgrid/replay.cpp \
		$(pkg-config --cflags simgrid) $(pkg-config --libs simgrid) -o '$out/replay'"

# Compares two files of "RANK FINISH" lines: "MAXDIFF_PERCENT RANK", the
# largest difference of one rank's finishing time, relative to the larger
# of the two (ranks that finish at 0 in both: no difference).
rank_diff() { # A B
	awk 'FNR == NR { a[$1] = $2; next }
	     { x = a[$1]; y = $2; d = x > y ? x - y : y - x; m = x > y ? x : y
	       r = m > 0 ? 100 * d / m : 0; if (who == "" || r > worst) { worst = r; who = $1 } }
	     END { printf "%.4f %s\n", worst, who }' "$1" "$2"
}
# The relative difference of B to A in percent.
pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.4f", (a > 0 ? 100 * (b - a) / a : 0) }'; }
within2() { awk -v d="$1" 'BEGIN { exit !(d <= 2 && d >= -2) }'; }

for t in $TOPOS; do
	tn=$(printf '%s' "$t" | tr -c 'A-Za-z0-9=.\n-' '_')
	if ! "$out/topo_dump" "$t" >"$tmp/$tn.topo" 2>"$tmp/err" ||
		! awk -v G=$G -f tests/simgrid/platform.awk "$tmp/$tn.topo" >"$tmp_keep/$tn.xml" 2>>"$tmp/err"; then
		echo "not ok - simgrid platform of $t"
		sed 's/^/    /' "$tmp/err"
		continue
	fi
	for pt in $PATTERNS; do
		name=${pt%%:*} pat=${pt#*:}
		check="simgrid $name $pat on $t"
		goal=$tmp_keep/$pat.goal
		[ -s "$goal" ] || "$SCHEDGEN" "$pat" -s "$P" -d $SIZE -o "$goal" >/dev/null 2>"$tmp/err"
		base=$tmp_keep/$pat.$tn
		# shellcheck disable=SC2086
		"$SIM" -b $LOGGOPS --topology "$t" --csv "$tmp/ls.csv" "$goal" >/dev/null 2>"$tmp/lerr"
		rc=$?
		grep -v "^loggopsim: " "$tmp/lerr" >>"$tmp/err"
		[ $rc = 0 ] && "$out/replay" "$tmp_keep/$tn.xml" "$goal" --gap $G >"$base.simgrid" 2>>"$tmp/err"
		rc=$((rc | $?))
		if [ $rc != 0 ] || { [ $timing = 0 ] &&
			! "$out/replay" "$tmp_keep/$tn.xml" "$goal" >"$base.simgrid-concurrent" 2>>"$tmp/err"; }; then
			echo "not ok - $check"
			sed 's/^/    /' "$tmp/err" | head -20
			continue
		fi
		sed -n 's/^\([0-9]*\),\([0-9]*\)$/\1 \2/p' "$tmp/ls.csv" >"$base.loggopsim"
		sed -n 's/^rank //p' "$base.simgrid" >"$tmp/sg"
		[ $timing = 1 ] || sed -n 's/^rank //p' "$base.simgrid-concurrent" >"$tmp/sgc"
		tl=$(awk '$2 > m { m = $2 } END { print m + 0 }' "$base.loggopsim")
		ts=$(sed -n 's/^max //p' "$base.simgrid")
		d=$(pct "$tl" "$ts")
		read -r rd rr < <(rank_diff "$base.loggopsim" "$tmp/sg")
		msg="$check: loggopsim $tl ns, SimGrid $ts ns ($d%; ranks at most $rd% apart)"
		if within2 "$d" && within2 "$rd"; then
			echo "ok - $msg"
		else
			echo "not ok - $msg"
			echo "    rank $rr differs most: loggopsim $(awk -v r="$rr" '$1 == r { print $2 }' \
				"$base.loggopsim") ns, SimGrid $(awk -v r="$rr" '$1 == r { print $2 }' "$tmp/sg") ns"
		fi
		if [ $timing = 1 ]; then
			l=$(sed -n 's/^loggopsim: [0-9]* events in \([0-9.]*\) s .*/\1/p' "$tmp/lerr")
			g=$(sed -n 's/^run_s //p' "$base.simgrid")
			awk -v l="$l" -v g="$g" 'BEGIN { printf "# simulation wall time: loggopsim %.3f s, SimGrid %.3f s (%s)\n",
				l, g, (l > 0 ? sprintf("%.0fx", g / l) : "loggopsim under 1 ms") }'
			continue
		fi
		tc=$(sed -n 's/^max //p' "$base.simgrid-concurrent")
		read -r cd cr < <(rank_diff "$base.loggopsim" "$tmp/sgc")
		echo "# every comm at once: SimGrid $tc ns ($(pct "$tl" "$tc")%; ranks at most $cd% apart, rank $cr)"
	done
done
exit 0
