#!/usr/bin/env bash
# NCCL's ring against its tree for an allreduce, simulated on two levels,
# beside what NCCL's tuning model picks (docs/ai.md).  For each size, the
# simulated time of the ring and of the tree (8 channels, each protocol),
# schedgen --select nccl's pick, Open MPI's choice (--select openmpi) and
# its coll/han (allreduce_han, up to 256 MiB) on the same nodes.  The ring
# and coll/han run up to 1024 GPUs only: the ring's 2(P-1) steps make P^2
# events (8 bytes on 4096 GPUs: a 19 GB schedule, 805 M events, 19 GB of
# memory and 5 minutes), and coll/han sends each 64 KiB segment along a
# chain of the nodes.
# Usage: scripts/nccl-study.sh BUILD_DIR GPUS [SIZES...]
#   nodes of 8 GPUs; parameters: NVLink-like within a node, a 25 GB/s
#   network across (the same as tests/bench-nccl.sh).
set -eu
B=$(cd "${1:?usage: scripts/nccl-study.sh BUILD_DIR GPUS [SIZES...]}" && pwd)
P=${2:?usage: scripts/nccl-study.sh BUILD_DIR GPUS [SIZES...]}
shift 2
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(8 1Ki 64Ki 1Mi 16Mi 256Mi 1Gi)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
printf 'loggp-params 1\nrange 0 inf L=700 o=300 g=10 G=0.0067 O=0\n' >"$W/nvl.params"
printf 'loggp-params 1\nrange 0 inf L=3000 o=1000 g=100 G=0.04 O=0\n' >"$W/net.params"
sim() {   # schedgen args -> simulated ns
	"$B/bin/schedgen" "$@" -o "$W/s.bin"
	"$B/bin/loggopsim" -q -b -p "$W/net.params" --ranks-per-node 8 --intra-params "$W/nvl.params" \
		--json "$W/s.bin" | sed 's/.*"time_ns": \([0-9]*\),.*/\1/'
}
echo "bytes,pattern,protocol,time_ns"
for d in "${sizes[@]}"; do
	algs=(tree)
	[ "$P" -gt 1024 ] || algs=(ring tree)
	for alg in "${algs[@]}"; do
		for proto in simple ll ll128; do
			printf '%s,%s,%s,%s\n' "$d" "$alg" "$proto" \
				"$(sim "allreduce_${alg}_nccl" -s "$P" -d "$d" --channels 8 --protocol "$proto" --ranks-per-node 8)"
		done
	done
	pick=$("$B/bin/schedgen" allreduce --select nccl -s "$P" --ranks-per-node 8 -d "$d" -o - | head -1 |
		sed 's/^.*schedgen allreduce_\([a-z]*\)_nccl:.*, \([0-9]*\) channels*, \([a-z0-9]*\).*/\1 \3 \2/')
	set -- $pick
	printf '%s,nccl-pick:%s,%s,%s\n' "$d" "$1" "$2" "$(sim allreduce --select nccl -s "$P" --ranks-per-node 8 -d "$d")"
	ompi=$("$B/bin/schedgen" allreduce --select openmpi -s "$P" -d "$d" -o - | head -1 | sed 's/^.*schedgen \([a-z_0-9]*\):.*/\1/')
	printf '%s,openmpi:%s,,%s\n' "$d" "$ompi" "$(sim allreduce --select openmpi -s "$P" -d "$d")"
	# coll/han: 64 KiB segments, so only up to 256 MiB (4096 segments)
	if [ "$P" -le 1024 ] && [ "$(numfmt --from=iec "${d%i}")" -le 268435456 ]; then
		printf '%s,han,,%s\n' "$d" "$(sim allreduce_han -s "$P" --ranks-per-node 8 -d "$d")"
	fi
done
