#!/usr/bin/env bash
# The patterns that are Open MPI's algorithms send what Open MPI sends:
# for each (collective, coll_tuned algorithm, pattern), P ranks and a size,
# the messages and bytes of every rank pair in the schedule equal those
# Open MPI's own monitoring counts (pml_monitoring) when it runs that
# algorithm.  Skipped without mpicc, mpirun or Open MPI's monitoring.
# Prints "ok - ..." / "not ok - ...".
set -u
B=$(cd "${1:-build}" && pwd)
cd "$(dirname "$0")" || exit 2
. ./counts.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
name="Open MPI's own message counts"
if ! command -v mpicc >/dev/null || ! command -v mpirun >/dev/null ||
	! ompi_info 2>/dev/null | grep -q 'MCA pml: monitoring'; then
	echo "ok - schedgen: $name # SKIP needs Open MPI (mpicc, mpirun, its pml monitoring)"
	exit 0
fi
if ! mpicc -O1 ompi_coll.c -o "$tmp/coll" 2>"$tmp/err"; then
	echo "not ok - schedgen: $name: ompi_coll.c does not build"; sed 's/^/    /' "$tmp/err"
	exit 0
fi

# COLL ALGORITHM PATTERN SIZES [SEGMENT]: the pattern is that algorithm
# (sizes in bytes; Open MPI's barriers send 0 bytes), in segments of
# SEGMENT bytes when given (Open MPI's coll_tuned_COLL_algorithm_segmentsize
# and schedgen's --segment).  allreduce_ring from P bytes on: below that
# Open MPI's ring allreduce falls back to recursive doubling.  The
# reduce-scatters' size is one block, what every rank receives; their
# linear ones cross the rules of the reduce (P x size) and scatter they run.
cases='allreduce 1 allreduce_linear 8,65536
allreduce 2 allreduce_nonoverlapping 100,100000
allreduce 3 allreduce_recdoub_ompi 8,65536
allreduce 4 allreduce_ring 8,65536
allreduce 4 allreduce_ring_segmented 5,65537
allreduce 5 allreduce_ring_segmented 100003 1000
allreduce 6 allreduce_rabenseifner 5,8,65537
bcast 1 bcast_linear 8
bcast 2 bcast_chain_ompi 8,100000 8192
bcast 3 bcast_pipeline 100000 8192
bcast 4 bcast_split_binary 1,100,100000 8192
bcast 5 bcast_binary_ompi 8,100000 8192
bcast 7 bcast_knomial 8,100000 8192
bcast 8 bcast_scatter_allgather 7,100,65537
reduce 1 reduce_linear 8
reduce 2 reduce_chain 100000 8192
reduce 3 reduce_pipeline 100000 8192
reduce 4 reduce_binary 100000 8192
reduce 5 reduce_binomial_ompi 8,100000 8192
reduce 6 reduce_in_order_binary 8,100000 8192
reduce 7 reduce_rabenseifner 3,100,65537
allgather 2 allgather_bruck 8,65536
allgather 3 allgather_recdoub 8,65536
allgather 4 allgather_ring 8,65536
allgather 5 allgather_neighbor 8,65536
alltoall 2 alltoall_pairwise 8,65536
alltoall 3 alltoall_bruck 8,1000
allgather 1 allgather_linear 100,30000
bcast 6 bcast_binomial 8,65536
bcast 9 bcast_scatter_allgather_ring 5,8,65537
gather 1 gather_linear_ompi 8,65536
gather 2 gather_binomial 8,1000
gather 3 gather_linear_sync 100
gather 3 gather_linear_sync 1000 300
scatter 1 scatter_linear_ompi 8,65536
scatter 2 scatter_binomial 8,1000
scatter 3 scatter_linear_nb 100
barrier 1 barrier_linear 0
barrier 2 barrier_double_ring 0
barrier 6 barrier_tree_ompi 0
barrier 3 barrier_butterfly 0
barrier 4 barrier_dissemination 0
reduce_scatter_block 1 reduce_scatter_block_linear 1,7,100,30000
reduce_scatter_block 2 reduce_scatter_block_recdoub 1,7,100
reduce_scatter_block 3 reduce_scatter_block_rechalving 1,7,100
reduce_scatter_block 4 reduce_scatter_block_butterfly 1,7,100
reduce_scatter 1 reduce_scatter_nonoverlapping 1,7,100,30000
reduce_scatter 2 reduce_scatter_block_rechalving 1,7,100
reduce_scatter 3 reduce_scatter_ring 1,7,100
reduce_scatter 4 reduce_scatter_butterfly 1,7,100
scan 1 scan_linear 8,65536
scan 2 scan_recdoub 8,65536
exscan 1 exscan_linear 8,65536
exscan 2 exscan_recdoub 8,65536
alltoallv 1 alltoallv_linear 8,65536
alltoallv 2 alltoall_pairwise 8,65536
allgatherv 1 allgatherv_default 8,100,3000,30000
allgatherv 2 allgather_bruck 8,65536
allgatherv 3 allgather_ring 8,65536
allgatherv 4 allgather_neighbor 8,65536'

# "SRC DST MSGS BYTES" per rank pair that Open MPI counted, sorted:
# algorithm ALGORITHM forced, or 0 for Open MPI's own choice; MCA options
# in $EXTRA_MCA too.  Its monitoring counts the messages of persistent
# requests (the linear alltoallv's) as external ("E"), the others as
# internal ("I"); ompi_coll sends nothing of its own, so both are the
# collective's.  With NC set, the reduction is one not commutative.
ompi_counts() { # COLL ALGORITHM P BYTES [SEGMENT]
	local mca=()
	[ "$2" != 0 ] && mca=(--mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_"$1"_algorithm "$2")
	[ -n "${5:-}" ] && mca+=(--mca coll_tuned_"$1"_algorithm_segmentsize "$5")
	[ -n "${EXTRA_MCA:-}" ] && read -r -a extra <<<"$EXTRA_MCA" && mca+=("${extra[@]}")
	rm -f "$tmp"/prof.*
	timeout 60 mpirun --oversubscribe --allow-run-as-root -np "$3" \
		--mca pml_monitoring_enable 2 --mca pml_monitoring_enable_output 3 \
		--mca pml_monitoring_filename "$tmp/prof" "${mca[@]}" \
		"$tmp/coll" "$1" "$4" "$(root_of "$1" "$3")" ${NC:+nc} </dev/null >/dev/null 2>"$tmp/err" || return 1
	awk -F'\t' '$1 == "I" || $1 == "E" { split($4, b, " "); split($5, m, " "); print $2, $3, m[1], b[1] }' \
		"$tmp"/prof.* | sort -n -k1,1 -k2,2
}

while read -r coll alg pat sizes seg; do
	bad= n=0 opt=()
	[ -n "$seg" ] && opt=(--segment "$seg")
	for P in 3 5 6 8; do
		for d in ${sizes//,/ }; do
			[ "$pat" = allreduce_ring ] && [ "$d" -lt "$P" ] && continue
			if ! ompi_counts "$coll" "$alg" "$P" "$d" $seg >"$tmp/ompi"; then
				bad="mpirun failed at P=$P, $d bytes: $(head -2 "$tmp/err")"
				break 2
			fi
			goal_counts "$coll" "$pat" "$P" "$d" "${opt[@]}" >"$tmp/goal"
			if [ ! -s "$tmp/ompi" ] || ! cmp -s "$tmp/ompi" "$tmp/goal"; then
				bad="P=$P, $d bytes: $(diff "$tmp/ompi" "$tmp/goal" | head -6 | tr '\n' ' ')"
				break 2
			fi
			n=$((n + 1))
		done
	done
	[ -z "$bad" ] && [ "$n" -eq 0 ] && bad="nothing compared"
	if [ -z "$bad" ]; then
		roots=
		[ "$(root_of "$coll" 5)" = 1 ] && roots="; roots 1 at P = 5, 5 at P = 6"
		echo "ok - schedgen: $pat sends what Open MPI's $coll algorithm $alg sends (P = 3, 5, 6, 8; ${sizes//,/ and } B${seg:+ in segments of $seg B}$roots)"
	else
		echo "not ok - schedgen: $pat sends what Open MPI's $coll algorithm $alg sends"
		echo "    $bad"
	fi
done <<<"$cases"

# A control: allreduce_recdoub folds the ranks above a power of two in
# otherwise than Open MPI's recursive doubling (allreduce algorithm 3), and
# the comparison must see it at P = 6.
ompi_counts allreduce 3 6 8 >"$tmp/ompi" && goal_counts allreduce allreduce_recdoub 6 8 >"$tmp/goal"
if [ -s "$tmp/ompi" ] && ! cmp -s "$tmp/ompi" "$tmp/goal"; then
	echo "ok - schedgen: the comparison tells allreduce_recdoub from Open MPI's recursive doubling (P = 6)"
else
	echo "not ok - schedgen: the comparison tells allreduce_recdoub from Open MPI's recursive doubling (P = 6)"
fi

# A control: at P = 8 Open MPI's butterfly reduce-scatter-block runs its
# power-of-two variant, which ends without the mirror swap of its
# butterfly reduce-scatter; the comparison must see it.
ompi_counts reduce_scatter_block 4 8 8 >"$tmp/ompi" &&
	goal_counts reduce_scatter_block reduce_scatter_butterfly 8 8 >"$tmp/goal"
if [ -s "$tmp/ompi" ] && ! cmp -s "$tmp/ompi" "$tmp/goal"; then
	echo "ok - schedgen: the comparison tells Open MPI's power-of-two butterfly from reduce_scatter_butterfly (P = 8)"
else
	echo "not ok - schedgen: the comparison tells Open MPI's power-of-two butterfly from reduce_scatter_butterfly (P = 8)"
fi

# Open MPI's two-process allgatherv (algorithm 5) on two ranks, and on
# three, where Open MPI fails the call before sending anything (mpirun
# fails) and allgatherv_two_proc sends nothing.
bad=
for d in 8 65536; do
	ompi_counts allgatherv 5 2 "$d" >"$tmp/ompi" || bad="mpirun failed at P=2, $d bytes"
	goal_counts allgatherv allgatherv_two_proc 2 "$d" >"$tmp/goal"
	[ -z "$bad" ] && { [ ! -s "$tmp/ompi" ] || ! cmp -s "$tmp/ompi" "$tmp/goal"; } &&
		bad="P=2, $d bytes: $(diff "$tmp/ompi" "$tmp/goal" | head -6 | tr '\n' ' ')"
done
ompi_counts allgatherv 5 3 8 >/dev/null && bad="${bad:-Open MPI ran its two_proc on 3 ranks}"
[ -n "$(goal_counts allgatherv allgatherv_two_proc 3 8)" ] && bad="${bad:-the pattern sends on 3 ranks}"
if [ -z "$bad" ]; then
	echo "ok - schedgen: allgatherv_two_proc sends what Open MPI's allgatherv algorithm 5 sends (P = 2: 8 and 65536 B; P = 3: nothing, the call fails)"
else
	echo "not ok - schedgen: allgatherv_two_proc sends what Open MPI's allgatherv algorithm 5 sends"
	echo "    $bad"
fi

# The default allgatherv broadcasts one element of a datatype of all
# blocks: there Open MPI's split binary tree (bcast algorithm 4) sends what
# its pipeline (3) sends, and its scatter-allgathers (8, 9) what its linear
# broadcast (1) sends, whatever the segment size (sg_select_one_element).
bad= n=0
for pair in 4:3 8:1 9:1; do
	for P in 3 6; do
		for d in 8 30000; do
			EXTRA_MCA="--mca coll_tuned_bcast_algorithm ${pair%:*} --mca coll_tuned_bcast_algorithm_segmentsize 1024" \
				ompi_counts allgatherv 1 "$P" "$d" >"$tmp/ompi" &&
				EXTRA_MCA="--mca coll_tuned_bcast_algorithm ${pair#*:}" \
					ompi_counts allgatherv 1 "$P" "$d" >"$tmp/goal" ||
				{ bad="mpirun failed at P=$P, $d bytes, bcast $pair"; break 3; }
			if [ ! -s "$tmp/ompi" ] || ! cmp -s "$tmp/ompi" "$tmp/goal"; then
				bad="bcast $pair, P=$P, $d bytes: $(diff "$tmp/ompi" "$tmp/goal" | head -6 | tr '\n' ' ')"
				break 3
			fi
			n=$((n + 1))
		done
	done
done
if [ -z "$bad" ] && [ "$n" -eq 12 ]; then
	echo "ok - schedgen: in Open MPI's default allgatherv, bcast 4 sends as 3, 8 and 9 as 1 (P = 3, 6; 8 and 30000 B)"
else
	echo "not ok - schedgen: in Open MPI's default allgatherv, bcast 4 sends as 3, 8 and 9 as 1"
	echo "    ${bad:-$n of 12 compared}"
fi

# Open MPI's own choice (its fixed decision rules, no algorithm forced)
# against schedgen COLL --select openmpi, over communicator sizes and bytes
# that cross its rules' bounds.  Where Open MPI picks its linear alltoall
# (algorithm 1) the case is skipped: that one sends with persistent
# requests, which its monitoring does not count.
for coll in allreduce bcast reduce allgather alltoall barrier gather scatter reduce_scatter_block \
	reduce_scatter scan exscan alltoallv allgatherv; do
	bad= n=0 skip=0
	for P in 3 6 12 17; do
		for d in 7 100 3000 20000 140000 1100000; do
			[ "$coll" = barrier ] && d=0
			if [ "$coll" = alltoall ] && "$B/bin/schedgen" alltoall --select openmpi -s "$P" -d "$d" \
				--explain -o /dev/null | grep -q 'openmpi algorithm 1 '; then
				skip=$((skip + 1))
				continue
			fi
			if ! ompi_counts "$coll" 0 "$P" "$d" >"$tmp/ompi"; then
				bad="mpirun failed at P=$P, $d bytes: $(head -2 "$tmp/err")"
				break 2
			fi
			goal_counts "$coll" "$coll" "$P" "$d" --select openmpi >"$tmp/goal"
			if [ ! -s "$tmp/ompi" ] || ! cmp -s "$tmp/ompi" "$tmp/goal"; then
				bad="P=$P, $d bytes: $(diff "$tmp/ompi" "$tmp/goal" | head -6 | tr '\n' ' ')"
				break 2
			fi
			n=$((n + 1))
			[ "$coll" = barrier ] && break
		done
	done
	want=$([ "$coll" = barrier ] && echo 4 || echo $((24 - skip)))
	sizes=$([ "$coll" = barrier ] && echo "0 B" || echo "7 B to 1.1 MB")
	note=
	[ "$skip" -gt 0 ] && note="; $skip cases of its linear alltoall skipped"
	if [ -z "$bad" ] && [ "$n" -eq "$want" ] && [ "$n" -gt 0 ]; then
		echo "ok - schedgen: $coll --select openmpi sends what Open MPI's own choice sends (P = 3, 6, 12, 17; $sizes$note)"
	else
		echo "not ok - schedgen: $coll --select openmpi sends what Open MPI's own choice sends"
		echo "    ${bad:-$n of $want compared}"
	fi
done

# The reduce-scatters' rules that grid does not reach: recursive doubling
# (reduce_scatter_block, P < 8, a few bytes), non-overlapping (P 4..7,
# P x bytes < 8) and butterfly (reduce_scatter, P < 4, 64 KiB to 128 KiB
# in all); each COLL:P:BYTES must pick ALGORITHM.
bad= n=0
for t in reduce_scatter_block:3:2:2 reduce_scatter_block:6:10:2 reduce_scatter:6:1:1 \
	reduce_scatter:3:30000:4; do
	IFS=: read -r coll P d alg <<<"$t"
	if ! "$B/bin/schedgen" "$coll" --select openmpi -s "$P" -d "$d" --explain -o /dev/null |
		grep -q "openmpi algorithm $alg "; then
		bad="$coll at P=$P, $d bytes: not algorithm $alg"
		break
	fi
	if ! ompi_counts "$coll" 0 "$P" "$d" >"$tmp/ompi"; then
		bad="mpirun failed at P=$P, $d bytes: $(head -2 "$tmp/err")"
		break
	fi
	goal_counts "$coll" "$coll" "$P" "$d" --select openmpi >"$tmp/goal"
	if [ ! -s "$tmp/ompi" ] || ! cmp -s "$tmp/ompi" "$tmp/goal"; then
		bad="$coll at P=$P, $d bytes: $(diff "$tmp/ompi" "$tmp/goal" | head -6 | tr '\n' ' ')"
		break
	fi
	n=$((n + 1))
done
if [ -z "$bad" ] && [ "$n" -eq 4 ]; then
	echo "ok - schedgen: the reduce-scatters' other rules pick what Open MPI's own choice sends (4 cases)"
else
	echo "not ok - schedgen: the reduce-scatters' other rules pick what Open MPI's own choice sends"
	echo "    ${bad:-$n of 4 compared}"
fi

# A reduction that does not commute (an MPI_Op created so): Open MPI's
# rules for it, and the algorithms that then run another (Rabenseifner's
# allreduce and reduce, the recursive-halving reduce-scatter-block), against
# schedgen --noncommutative.  COLL:ALGORITHM:P:BYTES, algorithm 0 its
# choice.
bad= n=0
cases=
for coll in allreduce reduce reduce_scatter_block reduce_scatter; do
	for P in 3 6 17; do
		for d in 7 3000 140000; do cases="$cases $coll:0:$P:$d"; done
	done
done
for t in $cases allreduce:6:8:100 reduce:7:6:100 reduce_scatter_block:3:5:100; do
	IFS=: read -r coll alg P d <<<"$t"
	if ! NC=1 ompi_counts "$coll" "$alg" "$P" "$d" >"$tmp/ompi"; then
		bad="mpirun failed: $coll $alg at P=$P, $d bytes: $(head -2 "$tmp/err")"
		break
	fi
	sel=openmpi
	[ "$alg" != 0 ] && sel=openmpi:$alg
	goal_counts "$coll" "$coll" "$P" "$d" --select "$sel" --noncommutative >"$tmp/goal"
	if [ ! -s "$tmp/ompi" ] || ! cmp -s "$tmp/ompi" "$tmp/goal"; then
		bad="$coll $alg at P=$P, $d bytes: $(diff "$tmp/ompi" "$tmp/goal" | head -6 | tr '\n' ' ')"
		break
	fi
	n=$((n + 1))
done
if [ -z "$bad" ] && [ "$n" -eq 39 ]; then
	echo "ok - schedgen: --noncommutative sends what Open MPI sends for a non-commutative operation (its choice of allreduce, reduce and the reduce-scatters at P = 3, 6, 17, 7 B to 140 kB; the three fallbacks)"
else
	echo "not ok - schedgen: --noncommutative sends what Open MPI sends for a non-commutative operation"
	echo "    ${bad:-$n of 39 compared}"
fi
