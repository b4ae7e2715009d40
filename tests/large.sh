#!/usr/bin/env bash
# make test-large: a schedule of more than 2^32 ops in a file of 137 GB
# (sparse: its op records are holes, which read as 0-byte sends from every
# rank to rank 0).  Checks that it validates and that the counts are exact.
# Needs a file system with sparse files; takes about a minute.
set -eu
B=$(cd "${1:-build}" && pwd)
W=${LARGE_DIR:-/tmp}
f=$W/large-$$.bin
trap 'rm -f "$f"' EXIT
n=1431655766            # ops per rank; 3 ranks: 4294967298 ops > 2^32
python3 - "$f" "$n" <<'PY'
import struct, sys
path, n = sys.argv[1], int(sys.argv[2])
P = 3
table = 64 + (P + 1) * 24
size = table + P * n * 32
hdr = b"GOALBIN\n" + struct.pack("<IIQQQQIIII", 1, 0, P, P * n, 0, size, 1, 1, 32, n)
ents = b"".join(struct.pack("<QQII", r * n, table + r * n * 32, 0, 0) for r in range(P + 1))
with open(path, "wb") as fh:
    fh.write(hdr + ents)
    fh.truncate(size)
PY
ls -ls "$f"
start=$(date +%s)
out=$("$B/bin/goalc" --stats "$f")
echo "$out"
echo "validated in $(( $(date +%s) - start )) s"
echo "$out" | grep -qx 'ops            4294967298' && echo "$out" | grep -qx '  send         4294967298' \
	&& echo "$out" | grep -qx 'binary size    137438953696 bytes' && echo "ok - more than 2^32 ops, 137 GB file" \
	|| { echo "not ok - more than 2^32 ops"; exit 1; }
