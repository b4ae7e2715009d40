#!/usr/bin/env bash
# trace2goal conversion speed (make bench runs it) for the binary trace
# formats, converted into a binary schedule; MPI records per second (target:
# 1 million), best of 3 runs: a DUMPI trace written by
# tests/trace2goal/mkdumpi.py (16 ranks in a ring, 25,000 rounds of Irecv,
# Isend and Waitall: 1.2 million MPI call records) and an OTF2 archive
# written by tests/trace2goal/mkotf2.py (16 ranks, 10,000 rounds: 480,048
# MPI calls in 3.2 million event records: Enter, Leave and the MPI events;
# skipped without the OTF2 library or python3-otf2).
# Usage: tests/bench-t2g.sh BUILD_DIR.  Scratch in $BENCH_DIR.
set -eu
B=$(cd "${1:-build}" && pwd)
cd "$(dirname "$0")/.."
W=${BENCH_DIR:-/tmp/loggops-bench}/t2g
mkdir -p "$W"
trap 'rm -rf "$W"' EXIT

# run LABEL RECORDS CALLS INPUT: converts INPUT 3 times, prints the best
run() {
	local label=$1 records=$2 calls=$3 best= rss=
	for i in 1 2 3; do
		/usr/bin/time -f '%e %M' -o "$W/time" "$B/bin/trace2goal" -q "$4" -o "$W/out.bin"
		read -r wall kb <"$W/time"
		if [ -z "$best" ] || [ "$(echo "$wall < $best" | bc)" = 1 ]; then best=$wall; rss=$kb; fi
	done
	printf '%-44s %8.2f s  %8.1f MiB peak RSS  %6.2f M records/s  %6.2f M calls/s\n' "$label" \
		"$best" "$(echo "$rss / 1024" | bc -l)" "$(echo "$records / ($best + 0.005) / 1000000" | bc -l)" \
		"$(echo "$calls / ($best + 0.005) / 1000000" | bc -l)"
	rm -f "$W/out.bin"
}

echo "== trace2goal: binary trace formats (best of 3; target 1 M records/s)"
mkdir -p "$W/dumpi"
python3 tests/trace2goal/mkdumpi.py big "$W/dumpi" 25000 16
# per rank: Init, 3 records a round, Finalize
run "DUMPI, 16 ranks, 1,200,032 records" 1200032 1200032 "$W/dumpi/big.meta"
rm -rf "$W/dumpi"
PY=
for p in python3 /usr/bin/python3; do
	if command -v "$p" >/dev/null && "$p" -c 'import otf2' 2>/dev/null; then
		PY=$p
		break
	fi
done
if "$B/bin/trace2goal" --help | grep -q 'reads no OTF2' || [ -z "$PY" ]; then
	echo "OTF2: skipped (no OTF2 library or no python3-otf2)"
else
	"$PY" tests/trace2goal/mkotf2.py big "$W/otf2" 10000 16
	# per rank: Init and Finalize (4 events), 10,000 x (Irecv: Enter,
	# MpiIrecvRequest, Leave; Isend: Enter, MpiIsend, Leave; Waitall: Enter,
	# MpiIsendComplete, MpiIrecv, Leave)
	run "OTF2, 16 ranks, 3,200,064 events" 3200064 480048 "$W/otf2/traces.otf2"
	rm -rf "$W/otf2"
fi
