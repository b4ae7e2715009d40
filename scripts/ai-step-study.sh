#!/usr/bin/env bash
# How stragglers and noise slow a data-parallel training step (docs/ai.md).
# The step (tests/chakra/dp.py): 12 layers, forward 500 us and backward
# 1000 us each, each layer's 16 MiB of gradients all-reduced as soon as its
# backward is done, then a 2 ms optimizer step; 8 GPUs traced, extrapolated
# to GPUS (trace2goal -x), NCCL's pick for each allreduce (--select nccl),
# nodes of 8 GPUs on two levels (the parameters of scripts/nccl-study.sh).
# Per run: the step's simulated time and its slowdown against no
# disturbance, for
#   - stragglers: 1% of the GPUs (ranks 0, 100, 200, ...) computing F times
#     slower (loggopsim --slow), F = 1.1, 1.5, 2;
#   - noise on every GPU taking 1% of its time: 1 kHz x 10 us or 10 Hz x
#     1 ms detours (periodic, each GPU from its own offset, seed 1), and
#     Poisson detours at 1 kHz of 10 us on average.
# Usage: scripts/ai-step-study.sh BUILD_DIR GPUS...   (CSV on stdout)
set -eu
B=$(cd "${1:?usage: scripts/ai-step-study.sh BUILD_DIR GPUS...}" && pwd)
shift
here=$(cd "$(dirname "$0")/.." && pwd)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
printf 'loggp-params 1\nrange 0 inf L=700 o=300 g=10 G=0.0067 O=0\n' >"$W/nvl.params"
printf 'loggp-params 1\nrange 0 inf L=3000 o=1000 g=100 G=0.04 O=0\n' >"$W/net.params"
python3 "$here/tests/chakra/dp.py" "$W/dp" 8 12 16777216 500 1000 2000
sim() {   # loggopsim args -> simulated ns
	"$B/bin/loggopsim" -q -b -p "$W/net.params" --ranks-per-node 8 --intra-params "$W/nvl.params" \
		--json "$@" "$W/s.bin" | sed 's/.*"time_ns": \([0-9]*\),.*/\1/'
}
echo "gpus,disturbance,time_ns,slowdown"
for P in "$@"; do
	"$B/bin/trace2goal" -q --select nccl --ranks-per-node 8 -x $((P / 8)) "$W/dp" -o "$W/s.bin"
	base=$(sim)
	slow=$(seq -s, 0 100 $((P - 1)))
	row() { printf '%s,%s,%s,%s\n' "$P" "$1" "$2" "$(echo "scale=4; $2 / $base" | bc)"; }
	row none "$base"
	for f in 1.1 1.5 2; do
		row "stragglers-1%-x$f" "$(sim --slow "$slow:$f")"
	done
	row "noise-1kHz-10us" "$(sim --noise periodic:1000,10000)"
	row "noise-10Hz-1ms" "$(sim --noise periodic:10,1000000)"
	row "noise-poisson-1kHz-10us" "$(sim --noise poisson:1000,exp:10000)"
done
