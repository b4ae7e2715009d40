#!/usr/bin/env python3
"""schedgen --select mpich against the rules in MPICH's own library.

MPICH 4 builds its collective selection (coll_selection.json) into
libmpich as a JSON string.  This reads that string from the installed
library, walks it for an intracommunicator without node hierarchy, not
in place, a built-in commutative operation and one thread (what
--select mpich models), and checks that schedgen picks the same
algorithm for every class it knows, over a grid of P and sizes that
straddles every threshold.  Usage: mpich_rules.py SCHEDGEN LIBMPICH.
Prints one line per class; exit 1 on any difference."""
import json
import subprocess
import sys

schedgen, lib = sys.argv[1], sys.argv[2]
data = open(lib, "rb").read()

# The MPIR-level rules: the JSON that names MPIR_Allgather_intra_brucks.
rules = None
at = 0
while True:
    at = data.find(b'{"collective=', at)
    if at < 0:
        break
    end = data.find(b"\0", at)
    text = data[at:end].decode()
    at = end
    if "MPIR_Allgather_intra_brucks" in text:
        rules = json.loads(text)
        break
if rules is None:
    sys.exit("no MPIR selection rules in " + lib)

# Keys that MPIR_Csel_prune resolves when a communicator is made (with a
# strict "<"); below any other key MPIR_Csel_search tests comm_size<N as
# local_size <= N (csel.c).
PRUNED = ("comm_type", "comm_size", "comm_hierarchy", "is_node_consecutive")


def holds(key, P, s, total, pruning):
    if key.endswith("=any"):
        return True
    if "<=" in key:
        name, bound = key.split("<=")
        le = True
    elif "<" in key:
        name, bound = key.split("<")
        le = False
    else:
        name, val = key.split("=")
        return {
            "comm_type": val == "intra",
            "comm_hierarchy": val == "flat",
            "is_multi_threaded": val == "no",
            "is_commutative": val == "yes",
            "is_op_built_in": val == "yes",
            "is_sendbuf_inplace": val == "no",
            "is_block_regular": val == "yes",
            "comm_size": val == "pow2" and P & (P - 1) == 0,
        }[name]
    x = {"comm_size": P, "avg_msg_size": s, "total_msg_size": total, "count": s}[name]
    if bound == "pow2":
        b = 1
        while b * 2 <= P:
            b *= 2
        return x < b
    b = int(bound)
    if name == "comm_size" and not pruning:
        le = True
    return x <= b if le else x < b


def walk(node, P, s, total, pruning=True):
    for key, sub in node.items():
        if key.startswith("algorithm="):
            return key.split("=", 1)[1]
        if holds(key, P, s, total, pruning):
            return walk(sub, P, s, total, pruning and key.split("=")[0].split("<")[0] in PRUNED)
    return None


PS = [2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 17, 31, 32, 33, 64, 100, 128, 1000, 1024]
SIZES = [1, 2, 3, 7, 8, 9, 16, 17, 100, 256, 257, 1000, 1024, 4096, 5120, 5121, 12288, 12289,
         32768, 32769, 65536, 81920, 524288, 524289, 1048576]
bad = 0
for cls in ["allreduce", "bcast", "allgather", "alltoall", "barrier", "reduce_scatter_block",
            "reduce_scatter"]:
    tree = rules["collective=" + cls]
    n = diff = 0
    for P in PS:
        for s in SIZES if cls != "barrier" else [1]:
            want = walk(tree, P, s, P * s).split("_intra_", 1)[1]
            out = subprocess.run([schedgen, cls, "--select", "mpich", "--explain", "-s", str(P),
                                  "-d", str(s), "-o", "/dev/null"], capture_output=True,
                                 text=True, check=True).stdout
            got = out.split(": ", 1)[1].split(".\n")[0].split("mpich ", 1)[1]
            n += 1
            if got != want:
                diff += 1
                if diff <= 5:
                    print(f"  {cls} P={P} s={s}: schedgen {got}, libmpich {want}")
    print(f"{cls}: {n - diff} of {n} picks as libmpich's rules")
    bad += diff
sys.exit(1 if bad else 0)
