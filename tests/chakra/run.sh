#!/usr/bin/env bash
# Chakra execution traces (docs/chakra.md): trace2goal's conversion of
# traces written here (tests/chakra/et.py) with exact times and exact
# errors, and of ASTRA-sim's public traces in ../shared/traces (skipped,
# and said so, where they are absent).  Prints "ok - ..." / "not ok - ..."
# lines.
set -u
B=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
T2G=$B/bin/trace2goal
SIM=$B/bin/loggopsim
G=$B/bin/goalc
SHARED=$here/../../../shared/traces/chakra-astrasim
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 2

ok() { echo "ok - chakra $1"; }
fail() { echo "not ok - chakra $1"; [ -s diff ] && sed 's/^/    /' diff | head -20; }
want() { # NAME EXPECTED ACTUAL
	if [ "$2" = "$3" ]; then ok "$1"; else printf "got '%s'\nwant '%s'\n" "$3" "$2" >diff; fail "$1"; fi
}
if ! "$T2G" --help | grep -q 'NAME.RANK.et' || "$T2G" --help | grep -q 'reads no Chakra'; then
	echo "ok - chakra traces # SKIP this build has no protobuf-c"
	exit 0
fi
# gen DIR PYTHON: the traces the Python lines write (et.py imported as et).
gen() {
	mkdir -p "$1"
	(cd "$1" && PYTHONPATH=$here python3 -c "import et
$2")
}
# The finishing time of a schedule: loggopsim ARGS...
time_of() { "$SIM" -q -b "$@" | sed -n 's/^Maximum finishing time at host [0-9]*: \([0-9]*\) .*/\1/p'; }
# NAME MESSAGE ARGS...: trace2goal ARGS exits 1 with MESSAGE on stderr.
expect_err() {
	local name=$1 msg=$2
	shift 2
	"$T2G" "$@" -o x.goal >/dev/null 2>err
	local rc=$?
	printf '%s\n' "$msg" >wanterr
	if [ $rc -eq 1 ] && diff -u wanterr err >diff; then ok "$name"; else
		echo "exit status $rc" >>diff; fail "$name"; fi
}

# ---- Nodes as ops --------------------------------------------------------------
# Rank 0 computes 5 us, then sends 1000 bytes; rank 1 receives them, then
# computes 3 us.  L=100, o=10, G=1: 5000 + o + L + 999 G + o + 3000 = 9119.
gen p2p 'et.write("t.0.et", [et.node(1, et.COMP, dur=5),
                   et.node(2, et.SEND, data=[1], attrs=[("comm_dst", 1), ("comm_size", 1000), ("comm_tag", 7)])])
et.write("t.1.et", [et.node(1, et.RECV, attrs=[("comm_src", 0), ("comm_size", 1000), ("comm_tag", 7)]),
                   et.node(2, et.COMP, dur=3, data=[1])])'
"$T2G" --strict p2p -o p2p.bin
want "a send, a receive and their computations" 9119 "$(time_of p2p.bin -L 100 -o 10 -g 0 -G 1)"
"$T2G" --strict p2p/t.1.et -o p2p1.bin
if cmp -s p2p.bin p2p1.bin; then ok "one rank's file finds the others"; else fail "one rank's file"; fi
want "compute on cpu 0, messages on cpu 1" "n1_n1: calc 5000
n2_n2: send 1000b to 1 tag 7 cpu 1" "$("$T2G" p2p | sed -n '5,6p')"

# Durations stay exact; --flops and --mem-bw give work a time; nodes run
# in the order of their dependencies, whatever the file's order.
gen rates 'et.write("t.0.et", [et.node(3, et.COMP, dur=1, data=[2], attrs=[("num_ops", 3000000000)]),
                   et.node(2, et.MEM_LOAD, dur=2, ctrl=[1], attrs=[("tensor_size", 1000)]),
                   et.node(1, et.COMP, dur=123456789)])'
want "durations in ns, dependencies first" "n1_n1: calc 123456789000 n2_n2: calc 2000 n3_n3: calc 1000" \
	"$("$T2G" rates | grep calc | tr '\n' ' ' | sed 's/ $//')"
want "--flops and --mem-bw" "n1_n1: calc 123456789000 n2_n2: calc 250 n3_n3: calc 3000000" \
	"$("$T2G" --flops 1e12 --mem-bw 4 rates | grep calc | tr '\n' ' ' | sed 's/ $//')"
want "--compute-scale" "n1_n1: calc 246913578000" "$("$T2G" --compute-scale 2 rates | grep 'n1: calc')"

# ---- Collectives ---------------------------------------------------------------
# An allreduce of every rank and one of group "even" (ranks 0 and 2, the
# ranks that name it); --select none --coll: recursive doubling, 8 bytes.
gen coll 'for r in range(4):
    n = [et.node(1, et.COLL, attrs=[("comm_type", et.ALL_REDUCE), ("comm_size", 8)])]
    if r % 2 == 0:
        n.append(et.node(2, et.COLL, data=[1], attrs=[("comm_type", et.ALL_REDUCE), ("comm_size", 8), ("pg_name", "even")]))
    et.write("t.%d.et" % r, n)'
"$T2G" --strict --select none --coll allreduce=allreduce_recdoub coll -o coll.bin
# Rank 0 meets rank 2 in the second round of the first (comm 1), and as
# the other member of "even" in the second (comm 2).
want "a process group's peers and comm" "l3: send 8b to 2 tag 2 comm 1 cpu 1
l4: recv 8b from 2 tag 2 comm 1 cpu 1
l7: send 8b to 2 tag 1 comm 2 cpu 1
l8: recv 8b from 2 tag 1 comm 2 cpu 1" "$("$G" --dump coll.bin | sed -n '/^rank 0 /,/^}/p' | grep 'to 2\|from 2')"
# Two rounds of 2o + L + 7G, then the group's one: 3 (2o + L + 7G).
want "collectives in order: 3 rounds" $((3 * (2 * 10 + 100 + 7))) "$(time_of coll.bin -L 100 -o 10 -g 0 -G 1)"
"$T2G" --stats --select none --coll allreduce=allreduce_recdoub coll -o coll2.bin >stats
want "--stats counts nodes and patterns" "nodes          6
  COMM_COLL_NODE   6
collectives    6
  allreduce_recdoub            6" "$(grep 'nodes\|COLL\|collectives\|allreduce' stats)"
# comm_size is one rank's buffer: an all-to-all sends a quarter to each.
gen a2a 'for r in range(4):
    et.write("t.%d.et" % r, [et.node(1, et.COLL, attrs=[("comm_type", et.ALL_TO_ALL), ("comm_size", 1000)])])'
want "an all-to-all's block: comm_size / P, rounded up" "send 250b" \
	"$("$T2G" --select none a2a | grep -o 'send [0-9]*b' | sort -u)"

# NCCL's ring for the allreduce: 2(P-1) steps of a 100-byte chunk,
# 6 (2o + L + 99 G) = 1314 at L=100, o=10, G=1; with 2 channels, on cpus
# 1 and 2.
gen nccl 'for r in range(4):
    et.write("t.%d.et" % r, [et.node(1, et.COLL, attrs=[("comm_type", et.ALL_REDUCE), ("comm_size", 400)])])'
"$T2G" --strict --coll allreduce=allreduce_ring_nccl nccl -o nccl.bin
want "NCCL's ring allreduce" 1314 "$(time_of nccl.bin -L 100 -o 10 -g 0 -G 1)"
want "--channels 2: a cpu per channel" "6 6" \
	"$("$T2G" --coll allreduce=allreduce_ring_nccl --channels 2 nccl | sed -n '/^rank 0 /,/^}/p' |
	   awk '/send/ { n[$NF]++ } END { print n[1], n[2] }')"

# --select nccl: NCCL's model picks the ring with LL for 400 bytes on 4
# GPUs (docs/patterns.md, "NCCL's choice"), one channel: LL's 200 wire
# bytes a step, 6 (2o + L + 199 G) = 1914.
"$T2G" --strict --select nccl nccl -o nccl-pick.bin
want "--select nccl: the ring with LL" 1914 "$(time_of nccl-pick.bin -L 100 -o 10 -g 0 -G 1)"
want "--select nccl: --protocol wins" 1314 \
	"$("$T2G" --select nccl --protocol simple nccl -o nccl-s.bin && time_of nccl-s.bin -L 100 -o 10 -g 0 -G 1)"

# ---- Node names as labels ------------------------------------------------------
# A node's first op is labelled with its name (other characters than
# letters, digits and _ one _; a leading digit after a _) and _n<id>;
# a node without a usable name keeps the canonical label.
gen lab 'et.write("t.0.et", [et.node(12, et.COMP, dur=5, name="aten::mm (backward)"),
                   et.node(5, et.SEND, data=[12], name="3x send", attrs=[("comm_dst", 1), ("comm_size", 1000)])])
et.write("t.1.et", [et.node(1, et.RECV, name="nccl:recv", attrs=[("comm_src", 0), ("comm_size", 1000)]),
                   et.node(2, et.COMP, dur=3, data=[1], name="::")])'
want "node names as labels" "aten_mm_backward_n12: calc 5000
_3x_send_n5: send 1000b to 1 tag 0 cpu 1
_3x_send_n5 requires aten_mm_backward_n12
nccl_recv_n1: recv 1000b from 0 tag 0 cpu 1
l2: calc 3000
l2 requires nccl_recv_n1" "$("$T2G" lab | grep -v '^rank\|^}\|^$\|^//\|^num_ranks')"
"$T2G" lab -o lab.bin && "$T2G" lab -o lab.goal && "$G" lab.goal -o lab2.bin
if cmp -s lab.bin lab2.bin; then ok "labelled text compiles to the binary output"; else fail "labelled text"; fi
"$B/bin/goalviz" --schedule lab.bin -o lab.dot
want "goalviz shows the names" 'label="aten_mm_backward_n12: calc 5000 ns"' \
	"$(grep -o 'label="aten[^"]*"' lab.dot)"
"$SIM" -q lab.bin --critical-path cp.csv >/dev/null
want "the critical path names the nodes" '"aten_mm_backward_n12" "_3x_send_n5" "l2"' \
	"$(sed -n '2p;3p;6p' cp.csv | sed 's/.*,//' | tr '\n' ' ' | sed 's/ $//')"
"$SIM" -q lab.bin --trace-json lab.json >/dev/null
want "trace JSON names the ranks' slices by the nodes" \
	'"aten_mm_backward_n12" "_3x_send_n5" "gsend" "_3x_send_n5" "grecv" "loclop"' \
	"$(grep -o '"ph":"X","name":"[^"]*","pid":[12],' lab.json | cut -d, -f2 | cut -d: -f2 | tr '\n' ' ' |
		sed 's/ $//')"

# ---- Extrapolation ------------------------------------------------------------
# --extrapolate 2 of the collectives above: 8 ranks; the allreduce of every
# rank takes 3 rounds, "even" grows to ranks 0, 2, 4, 6 (2 rounds): 5 (2o
# + L + 7G).  Kept in its copy, "even" is 0, 2 and 4, 6 (1 round): 4.
"$T2G" --strict --select none --coll allreduce=allreduce_recdoub -x 2 coll -o coll-x2.bin
want "--extrapolate 2: groups grow over the copies" $((5 * 127)) "$(time_of coll-x2.bin -L 100 -o 10 -g 0 -G 1)"
"$T2G" --strict --select none --coll allreduce=allreduce_recdoub -x 2 --keep-group even coll -o coll-k.bin
want "--keep-group: a group stays in its copy" $((4 * 127)) "$(time_of coll-k.bin -L 100 -o 10 -g 0 -G 1)"
want "--keep-group: copy 1's group is ranks 4 and 6" "l9: send 8b to 6 tag 1 comm 2 cpu 1" \
	"$("$G" --dump coll-k.bin | sed -n '/^rank 4 /,/^}/p' | grep 'comm 2' | grep send)"
# Messages stay in their copy: rank 2 (copy 1 of rank 0) sends to rank 3.
"$T2G" --strict -x 3 p2p -o p2p-x3.bin
want "--extrapolate 3: messages stay in their copy" "9119 n2_n2: send 1000b to 3 tag 7 cpu 1" \
	"$(time_of p2p-x3.bin -L 100 -o 10 -g 0 -G 1) $("$G" --dump p2p-x3.bin | sed -n '/^rank 2 /,/^}/p' | grep send)"
# One rank's trace (5 us, then an allreduce of 8 bytes) on 4 ranks:
# 5000 + 2 rounds.
gen one 'et.write("t.0.et", [et.node(1, et.COMP, dur=5),
                   et.node(2, et.COLL, data=[1], attrs=[("comm_type", et.ALL_REDUCE), ("comm_size", 8)])])'
"$T2G" --strict --select none --coll allreduce=allreduce_recdoub -x 4 one -o one.bin
want "one rank's trace extrapolated to 4" $((5000 + 2 * 127)) "$(time_of one.bin -L 100 -o 10 -g 0 -G 1)"
# One rank's trace of thousands of nodes (3000 computations of 1 us in a
# chain, then an allreduce of 8 bytes) on 1024 ranks: 3 ms + 10 rounds.
gen one3k 'n = [et.node(i, et.COMP, dur=1, data=[i - 1] if i > 1 else [], name="aten::add_") for i in range(1, 3001)]
n.append(et.node(3001, et.COLL, data=[3000], name="nccl:all_reduce", attrs=[("comm_type", et.ALL_REDUCE), ("comm_size", 8)]))
et.write("t.0.et", n)'
"$T2G" --strict --select none --coll allreduce=allreduce_recdoub -x 1024 one3k -o one3k.bin
want "a 3001-node rank extrapolated to 1024 ranks" $((3000000 + 10 * 127)) \
	"$(time_of one3k.bin -L 100 -o 10 -g 0 -G 1)"
expect_err "--keep-group of a group the trace does not have" \
	"coll/t.0.et: error: --keep-group 'odd': no collective of the trace names this process group" \
	-x 2 --keep-group odd coll
"$T2G" --keep-group even coll >/dev/null 2>err
want "--keep-group wants --extrapolate" "2 trace2goal: error: --keep-group is for --extrapolate K of 2 or more" \
	"$? $(head -1 err)"

# ---- Types and attributes it does not use -----------------------------------
gen unused 'et.write("t.0.et", [et.node(1, et.COMP, dur=1, attrs=[("foo", 3), ("is_cpu_op", True)]),
                   et.node(2, et.STORAGE, data=[1]), et.node(3, et.COMP, dur=1, data=[2])])'
"$T2G" unused -o u.goal 2>warn
want "an unused node type: a warning, and a link of no time" \
	"unused/t.0.et: warning: node 2: STORAGE_NODE is not used; it takes no time
n2_n2: calc 0 n3_n3: calc 1000" "$(cat warn; grep 'n[23]: calc' u.goal | tr '\n' ' ' | sed 's/ $//')"
want "--stats lists unused attributes" "unused attributes 1
  foo              1 nodes" "$("$T2G" --stats unused -o u.bin 2>/dev/null | grep -A1 unused)"
expect_err "--strict: an unused node type" \
	"unused/t.0.et: error: node 2: STORAGE_NODE is not used (--strict)" --strict unused
gen unused2 'et.write("t.0.et", [et.node(4, et.COMP, dur=1, attrs=[("foo", 3)])])'
expect_err "--strict: an unused attribute" \
	"unused2/t.0.et: error: node 4: its attribute 'foo' is not used (--strict)" --strict unused2

# ---- Bad input ---------------------------------------------------------------------
# NAME MESSAGE PYTHON: the trace of the lines is refused with MESSAGE.
bad() {
	rm -rf b
	gen b "$3"
	expect_err "$1" "b/t.0.et: error: $2" b
}
bad "a cut-off length" "byte 19: the length of message 2 is cut off" \
	'et.write("t.0.et", [et.node(1, et.COMP)], tail=b"\x80")'
bad "a message past the end" "byte 19: message 2 of 50 bytes runs past the end of the file (22 bytes)" \
	'et.write("t.0.et", [et.node(1, et.COMP)], tail=b"\x32\x08\x01")'
bad "a message that is no node" "byte 19: message 2 is not a Chakra node" \
	'et.write("t.0.et", [et.node(1, et.COMP)], tail=b"\x02\x0f\x00")'
bad "a dependency that is not there" "node 2 depends on node 9, which is not in the trace" \
	'et.write("t.0.et", [et.node(1, et.COMP), et.node(2, et.COMP, data=[9])])'
bad "a cycle" "node 1 is in a cycle of dependencies" \
	'et.write("t.0.et", [et.node(1, et.COMP, data=[2]), et.node(2, et.COMP, ctrl=[1]), et.node(3, et.COMP)])'
bad "two nodes of one id" "node 1: a second node with this id" \
	'et.write("t.0.et", [et.node(1, et.COMP), et.node(1, et.COMP)])'
bad "a negative duration" "node 1: a negative duration (-5 us)" \
	'et.write("t.0.et", [et.node(1, et.COMP, dur=-5)])'
bad "an absurd duration" "node 1: a duration of 2000000000000 us is more than 10^12 us" \
	'et.write("t.0.et", [et.node(1, et.COMP, dur=2000000000000)])'
bad "an unknown collective" "node 1: comm_type 42 is no collective of the schema (0..9)" \
	'et.write("t.0.et", [et.node(1, et.COLL, attrs=[("comm_type", 42), ("comm_size", 8)])])'
bad "a negative size" "node 1: comm_size -8 is out of range" \
	'et.write("t.0.et", [et.node(1, et.COLL, attrs=[("comm_type", 0), ("comm_size", -8)])])'
bad "a peer outside the trace" "node 1: comm_dst 7 is not a rank of the trace (0..0)" \
	'et.write("t.0.et", [et.node(1, et.SEND, attrs=[("comm_dst", 7), ("comm_size", 8)])])'
bad "a send without its peer" "node 1: COMM_SEND_NODE without comm_dst" \
	'et.write("t.0.et", [et.node(1, et.SEND, attrs=[("comm_size", 8)])])'
rm -rf b
gen b 'et.write("t.0.et", [et.node(1, et.COLL, attrs=[("comm_type", 0), ("comm_size", 8)]),
                   et.node(2, et.COLL, data=[1], attrs=[("comm_type", 0), ("comm_size", 8)])])
et.write("t.1.et", [et.node(1, et.COLL, attrs=[("comm_type", 0), ("comm_size", 8)])])'
expect_err "ranks that disagree on their collectives" \
	"b/t.1.et: error: 1 collectives without pg_name (every rank's), where rank 0 has 2" b
mv b/t.1.et b/t.2.et
expect_err "a missing rank" "b/t.2.et: error: rank 2, but no rank 1 (t.1.et)" b

# ---- ASTRA-sim's traces --------------------------------------------------------------
if [ ! -d "$SHARED" ]; then
	echo "ok - chakra ASTRA-sim's public traces # SKIP ../shared/traces/chakra-astrasim is absent"
	exit 0
fi
good=1
for d in all_reduce all_gather reduce_scatter all_to_all; do
	"$T2G" --strict "$SHARED/${d}_4npus_1MB" -o $d.bin && [ -n "$(time_of $d.bin)" ] || good=0
done
want "the four 1 MB microbenchmarks convert with --strict and complete" 1 $good
# The ring allreduce written out: on every rank 14 sends of 131072 bytes
# and 14 receives, the receive after the send, 7 compute nodes of 7 us
# after 7 of the receives.  Messages eager (-S), L=100, o=10, G=1:
# 14 ((s-1)G + L + 2o) + 7 * 7000 = 1885674.
"$T2G" --strict "$SHARED/custom_ring_allreduce_8npus_1MB/custom_allreduce.3.et" -o ring.bin 2>warn
want "the written-out ring allreduce: 14 steps and 7 computations" 1885674 \
	"$(time_of ring.bin -S 131072 -L 100 -o 10 -g 0 -G 1)"
want "it warns that its sends are eager" 1 "$(grep -c 'simulate with loggopsim -S 131072 or more' warn)"
