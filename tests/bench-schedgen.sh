#!/usr/bin/env bash
# schedgen speed and memory (make bench runs it): the 8,388,608-rank binomial
# broadcast and the 1,048,576-rank dissemination allreduce written as binary
# (targets: 5 s and 30 s), GOAL text for comparison, and Open MPI's and MPICH's
# algorithms at 1,048,576 ranks (2048 for those of P - 1 steps).  Best of 3 runs.
# Usage: tests/bench-schedgen.sh BUILD_DIR.  Scratch in $BENCH_DIR.
set -eu
B=$(cd "${1:-build}" && pwd)
W=${BENCH_DIR:-/tmp/loggops-bench}/schedgen
mkdir -p "$W"
trap 'rm -rf "$W"' EXIT

run() { # LABEL OUTPUT PATTERN ARGS...
	local label=$1 out=$2 best= rss=
	shift 2
	for i in 1 2 3; do
		rm -f "$W/$out"
		/usr/bin/time -f '%e %M' -o "$W/time" "$B/bin/schedgen" "$@" -o "$W/$out"
		read -r wall kb <"$W/time"
		if [ -z "$best" ] || [ "$(echo "$wall < $best" | bc)" = 1 ]; then best=$wall; rss=$kb; fi
	done
	printf '%-58s %7.2f s  %7.1f MiB peak RSS  %6d MB\n' "$label" "$best" \
		"$(echo "$rss / 1024" | bc -l)" "$(( $(stat -c %s "$W/$out") / 1000000 ))"
	rm -f "$W/$out"
}

echo "== schedgen: schedule generation (best of 3)"
run "bcast_binomial P=8388608, binary (target 5 s)" b.bin bcast_binomial -s 8388608 -d 8
run "allreduce_dissemination P=1048576, binary (target 30 s)" d.bin allreduce_dissemination -s 1048576 -d 8
run "bcast_binomial P=1048576, GOAL text" b.goal bcast_binomial -s 1048576 -d 8
run "allreduce_ring P=2048, 1 MiB, binary" r.bin allreduce_ring -s 2048 -d 1048576
run "allgather_ring P=2048, 8 B, binary (Open MPI's ring)" g.bin allgather_ring -s 2048 -d 8
run "alltoall_pairwise P=2048, 8 B, binary (Open MPI's pairwise)" p.bin alltoall_pairwise -s 2048 -d 8
# Open MPI's algorithms at 1,048,576 ranks, to set beside the binomial
# broadcast and the dissemination allreduce above (messages: P - 1 for the
# trees, about P log2 P for the others)
run "bcast_binomial P=1048576, binary (P - 1 messages)" t.bin bcast_binomial -s 1048576 -d 8
run "bcast_knomial P=1048576, binary (P - 1 messages)" t.bin bcast_knomial -s 1048576 -d 8
run "bcast_binary_ompi P=1048576, binary (P - 1 messages)" t.bin bcast_binary_ompi -s 1048576 -d 8
run "reduce_binomial_ompi P=1048576, binary (P - 1 messages)" t.bin reduce_binomial_ompi -s 1048576 -d 8
run "gather_binomial P=1048576, binary (P - 1 messages)" t.bin gather_binomial -s 1048576 -d 8
run "barrier_tree_ompi P=1048576, binary (2 (P - 1) messages)" t.bin barrier_tree_ompi -s 1048576 -d 0
run "allreduce_recdoub_ompi P=1048576, binary (P log2 P)" t.bin allreduce_recdoub_ompi -s 1048576 -d 8
run "allreduce_rabenseifner P=1048576, 1 MiB, binary (2 P log2 P)" t.bin allreduce_rabenseifner -s 1048576 -d 1048576
run "reduce_rabenseifner P=1048576, 1 MiB, binary" t.bin reduce_rabenseifner -s 1048576 -d 1048576
run "bcast_scatter_allgather P=1048576, 1 MiB, binary" t.bin bcast_scatter_allgather -s 1048576 -d 1048576
run "alltoall_bruck P=1048576, 8 B, binary (P log2 P)" t.bin alltoall_bruck -s 1048576 -d 8
run "reduce_scatter_block_recdoub P=1048576, 8 B, binary (P log2 P)" t.bin reduce_scatter_block_recdoub -s 1048576 -d 8
run "reduce_scatter_block_rechalving P=1048576, 8 B, binary" t.bin reduce_scatter_block_rechalving -s 1048576 -d 8
run "reduce_scatter_butterfly P=1048576, 8 B, binary" t.bin reduce_scatter_butterfly -s 1048576 -d 8
run "scan_recdoub P=1048576, 8 B, binary (P log2 P)" t.bin scan_recdoub -s 1048576 -d 8
run "scan_linear P=1048576, 8 B, binary (P - 1 messages)" t.bin scan_linear -s 1048576 -d 8
run "allgatherv_default P=1048576, 8 B, binary (2 (P - 1) messages)" t.bin allgatherv_default -s 1048576 -d 8
run "allreduce --select openmpi P=1048576, 8 B (nonoverlapping)" t.bin allreduce --select openmpi -s 1048576 -d 8
# MPICH's algorithms, beside Open MPI's of the same shape above
run "bcast_binomial_mpich P=1048576, binary (P - 1 messages)" t.bin bcast_binomial_mpich -s 1048576 -d 8
run "bcast_scatter_recdoub_mpich P=1048576, 1 MiB, binary" t.bin bcast_scatter_recdoub_mpich -s 1048576 -d 1048576
run "allreduce_rabenseifner_mpich P=1048576, 1 MiB, binary (2 P log2 P)" t.bin allreduce_rabenseifner_mpich -s 1048576 -d 1048576
run "alltoall_scattered P=2048, 8 B, binary (MPICH's)" p.bin alltoall_scattered -s 2048 -d 8
run "alltoall_pairwise_mpich P=2048, 8 B, binary (MPICH's)" p.bin alltoall_pairwise_mpich -s 2048 -d 8
run "reduce_scatter_pairwise P=2048, 8 B, binary (MPICH's)" p.bin reduce_scatter_pairwise -s 2048 -d 8
