#!/usr/bin/env bash
# Hostile inputs of at most 1 MB, made here: each tool ends (under timeout
# 60) with the expected exit status and uses at most 64 MB more memory
# (peak RSS, /usr/bin/time) than on a small ordinary input.  Prints
# "ok - ..." / "not ok - ..." lines.
set -u
B=$(cd "${1:-build}" && pwd)
cd "$(dirname "$0")/../.." || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
T=/usr/bin/time
if [ ! -x $T ]; then
	echo "ok - hostile inputs # SKIP /usr/bin/time not installed"
	exit 0
fi
LIMIT_KB=$((64 * 1024))
# Under AddressSanitizer freed memory waits in a quarantine (256 MB): not
# what the tools use.
export ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}quarantine_size_mb=0"

# rss KB-FILE COMMAND...: run under time and timeout; sets rc.
rss() {
	local out=$1
	shift
	$T -f %M -o "$out" timeout 60 "$@" >/dev/null 2>"$tmp/stderr"
	rc=$?
}
# hostile NAME STATUS BASELINE-KB COMMAND...
hostile() {
	local name=$1 want=$2 base=$3
	shift 3
	rss "$tmp/kb" "$@"
	local kb
	kb=$(tail -1 "$tmp/kb")
	if [ "$rc" -eq "$want" ] && [ "$kb" -le $((base + LIMIT_KB)) ]; then
		echo "ok - hostile: $name"
	else
		echo "not ok - hostile: $name"
		echo "    exit status $rc (want $want), peak RSS $kb KB (ordinary input: $base KB)"
		head -3 "$tmp/stderr" | cut -c1-200 | sed 's/^/    /'
	fi
}
baseline() { # COMMAND...: the peak RSS in KB on an ordinary input
	rss "$tmp/kb" "$@"
	tail -1 "$tmp/kb"
}

"$B/bin/schedgen" bcast_binomial -s 64 -o "$tmp/ok.goal"
"$B/bin/goalc" "$tmp/ok.goal" -o "$tmp/ok.bin"
sim0=$(baseline "$B/bin/loggopsim" -q "$tmp/ok.goal")
goalc0=$(baseline "$B/bin/goalc" --check "$tmp/ok.goal")

# One op on cpu 65535 (and one send on nic 65535) among many ranks.
python3 - "$tmp" <<'PY'
import sys
d = sys.argv[1]
with open(d + "/cpu.goal", "w") as w:
    w.write("num_ranks 20000\n")
    for r in range(20000):
        w.write("rank %d {\nl1: calc 10%s\n}\n" % (r, " cpu 65535" if r == 0 else ""))
with open(d + "/nic.goal", "w") as w:
    P = 2000
    w.write("num_ranks %d\n" % P)
    for r in range(P):
        w.write("rank %d {\nl1: send 10b to %d nic 65535\nl2: recv 10b from %d\n}\n" % (r, (r + 1) % P, (r - 1) % P))
with open(d + "/huge-calc.goal", "w") as w:
    w.write("num_ranks 1\nrank 0 {\nl1: calc 18446744073709551615\nl2: calc 2\nl2 requires l1\n}\n")
PY
hostile "loggopsim: cpu 65535 on one op of 20,000 ranks" 0 "$sim0" "$B/bin/loggopsim" -q -b "$tmp/cpu.goal"
hostile "loggopsim: nic 65535 on 2,000 ranks" 0 "$sim0" "$B/bin/loggopsim" -q -b "$tmp/nic.goal"
hostile "loggopsim: calc times past 2^64 ns" 1 "$sim0" "$B/bin/loggopsim" -q "$tmp/huge-calc.goal"

# A binary whose header claims 65,536 CPUs and NICs.
cp "$tmp/ok.bin" "$tmp/claims.bin"
printf '\000\000\001\000\000\000\001\000' | dd of="$tmp/claims.bin" bs=1 seek=48 conv=notrunc 2>/dev/null
hostile "loggopsim: a header claiming 65,536 CPUs and NICs" 1 "$sim0" "$B/bin/loggopsim" -q "$tmp/claims.bin"

# GOAL text: a 1 MB line, a 1 MB label, 1 MB of NUL bytes.
head -c 1000000 /dev/zero | tr '\0' ' ' >"$tmp/spaces.goal"
hostile "goalc: a line of 1 MB" 1 "$goalc0" "$B/bin/goalc" --check "$tmp/spaces.goal"
{ printf 'num_ranks 1\nrank 0 {\n'; head -c 1000000 /dev/zero | tr '\0' a; printf ': calc 1\n}\n'; } >"$tmp/label.goal"
hostile "goalc: a label of 1 MB" 1 "$goalc0" "$B/bin/goalc" --check "$tmp/label.goal"
head -c 1000000 /dev/zero >"$tmp/zero.goal"
hostile "loggopsim: 1 MB of NUL bytes" 1 "$sim0" "$B/bin/loggopsim" "$tmp/zero.goal"
# A timeline header claiming 65,535 CPUs and NICs per rank.
printf 'loggopsim-timeline 1 P 256 L 1 o 1 g 1 G 0 O 0 S 1 ncpus 65535 nnics 65535\n' >"$tmp/rows.tl"
"$B/bin/loggopsim" -q -V "$tmp/ok.tl" "$tmp/ok.goal" >/dev/null
viz0=$(baseline "$B/bin/goalviz" "$tmp/ok.tl" -o "$tmp/ok.svg")
hostile "goalviz: a header claiming 65,535 CPUs and NICs" 0 "$viz0" "$B/bin/goalviz" "$tmp/rows.tl" -o "$tmp/rows.svg"
if [ "$(stat -c %s "$tmp/rows.svg")" -lt 1000000 ]; then
	echo "ok - hostile: goalviz: that header draws less than 1 MB"
else
	echo "not ok - hostile: goalviz: that header draws less than 1 MB"
	echo "    $(stat -c %s "$tmp/rows.svg") bytes"
fi
# Traces: a liballprof MPI_Waitall claiming 301,111,111 requests; 20,000
# distinct unknown call names.
mkdir "$tmp/tr" "$tmp/wa"
cp tests/trace2goal/cases/lap/*.txt "$tmp/tr/"
t2g0=$(baseline "$B/bin/trace2goal" -q "$tmp/tr" -o "$tmp/tr.goal")
cp tests/trace2goal/cases/lap/*.txt "$tmp/wa/"
printf 'MPI_Init:-:1:2:100\nMPI_Waitall:130:301111111:5000:6000:140\nMPI_Finalize:200:210\n' >"$tmp/wa/pmpi-trace-rank-0.txt"
hostile "trace2goal: a Waitall claiming 301,111,111 requests" 1 "$t2g0" "$B/bin/trace2goal" -q "$tmp/wa" -o "$tmp/wa.goal"
awk 'BEGIN { print "# goaltrace trace format 1"; print "# rank: 0"; print "# size: 1";
	print "MPI_Init:0.000:1:1:10.000"; for (i = 0; i < 20000; i++) print "MPI_Foo" i ":" 20 + i ".000:" 20 + i ".500";
	print "MPI_Finalize:30000.000:30001.000" }' >"$tmp/names.txt"
hostile "trace2goal: 20,000 distinct unknown call names" 0 "$t2g0" "$B/bin/trace2goal" -q "$tmp/names.txt" -o "$tmp/names.goal"

# A sweep file of 50,000 sets that all name one parameter file.
printf 'loggp-params 1\nrange 0 inf L=1 o=2 g=3 G=0 O=0\n' >"$tmp/p.params"
awk -v p="$tmp/p.params" 'BEGIN { for (i = 0; i < 50000; i++) print "s" i " params=" p }' >"$tmp/many.sweep"
printf 'a\nb L=5\n' >"$tmp/two.sweep"
sweep0=$(baseline "$B/bin/loggopsim" -q --sweep "$tmp/two.sweep" "$tmp/ok.goal")
hostile "loggopsim --sweep: 50,000 sets naming one parameter file" 0 "$sweep0" \
	"$B/bin/loggopsim" -q -j 2 --sweep "$tmp/many.sweep" "$tmp/ok.goal"
exit 0
