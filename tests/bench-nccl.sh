#!/usr/bin/env bash
# NCCL's collectives at scale (make bench runs it): the 1 GiB allreduce
# NCCL's tuning model picks (schedgen --select nccl, the default system: 8
# channels) on nodes of 8 GPUs, generated and simulated on two levels
# (--ranks-per-node 8, NVLink-like parameters within a node, a 25 GB/s
# network across), for 4096 and 16384 GPUs; and the 8-channel ring of the
# same at 1024 and 4096 GPUs.  Wall time, peak memory and events/s.
# Usage: tests/bench-nccl.sh BUILD_DIR.  Scratch in $BENCH_DIR.
set -eu
B=$(cd "${1:-build}" && pwd)
cd "$(dirname "$0")/.."
W=${BENCH_DIR:-/tmp/loggops-bench}/nccl
mkdir -p "$W"
trap 'rm -rf "$W"' EXIT
printf 'loggp-params 1\nrange 0 inf L=700 o=300 g=10 G=0.0067 O=0\n' >"$W/nvl.params"
printf 'loggp-params 1\nrange 0 inf L=3000 o=1000 g=100 G=0.04 O=0\n' >"$W/net.params"

# run LABEL SCHEDGEN-ARGS...: generate, then simulate on two levels.
run() {
	local label=$1; shift
	/usr/bin/time -f '%e %M' -o "$W/time" "$B/bin/schedgen" "$@" -o "$W/s.bin"
	read -r gwall gkb <"$W/time"
	/usr/bin/time -f '%e %M' -o "$W/time" "$B/bin/loggopsim" -q -b -p "$W/net.params" \
		--ranks-per-node 8 --intra-params "$W/nvl.params" --json "$W/s.bin" >"$W/out.json"
	read -r swall skb <"$W/time"
	local ev
	ev=$(sed -n 's/.*"events": \([0-9]*\),.*/\1/p' "$W/out.json")
	[ "$gkb" -gt "$skb" ] && skb=$gkb
	printf '%-40s gen %6.2f s  sim %7.2f s  %7.1f MiB peak  %6.2f M events/s\n' "$label" "$gwall" \
		"$swall" "$(echo "$skb / 1024" | bc -l)" \
		"$(echo "$ev / ($swall + 0.005) / 1000000" | bc -l)"
	rm -f "$W/s.bin"
}

echo "== NCCL: 1 GiB allreduce on nodes of 8 GPUs, two levels"
for P in 4096 16384; do
	run "NCCL's choice, $P GPUs" allreduce --select nccl -s "$P" --ranks-per-node 8 -d 1Gi
done
for P in 1024 4096; do
	run "ring, 8 channels, Simple, $P GPUs" allreduce_ring_nccl -s "$P" -d 1Gi --channels 8
done
