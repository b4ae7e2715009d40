#!/usr/bin/env python3
"""The table and chart of scripts/allreduce-study.sh (docs/patterns.md).

    scripts/allreduce-charts.py POINTS_CSV OUT_DIR [openmpi|mpich]

POINTS_CSV: P,bytes,forced,alg,pattern,time_ns; forced 1: the library's
allreduce algorithm alg, forced (MPICH's: 1 recursive doubling, 2
Rabenseifner); forced 0: the algorithm its rules pick.  Prints a Markdown table (per P and size: the fastest algorithm, the
lowest-numbered of equals, its time, and the pick when another, with how
much slower it is) and writes OUT_DIR/allreduce-pick.svg:
a cell per P and size, coloured by the fastest algorithm, with the pick and
its loss (allreduce-pick-mpich.svg for MPICH).  Standard library only.
"""
import csv
import os
import sys

NAMES = {1: "linear", 2: "nonoverlapping", 3: "recursive doubling", 4: "ring",
         5: "segmented ring", 6: "Rabenseifner"}
COLOURS = {1: "#bbbbbb", 2: "#9ecae1", 3: "#fdae6b", 4: "#a1d99b", 5: "#74c476",
           6: "#bcbddc"}
# MPICH's, in the colours of Open MPI's same algorithms
MPICH = ({1: "recursive doubling", 2: "Rabenseifner"}, {1: "#fdae6b", 2: "#bcbddc"})


def size_name(s):
    for unit, b in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if s >= b and s % b == 0:
            return "%d %s" % (s // b, unit)
    return "%d B" % s


def rank_name(p):
    k = p.bit_length() - 1
    return "2^%d" % k if p == 1 << k else str(p)


def us(ns):
    if ns < 1e6:
        return "%.1f us" % (ns / 1e3)
    return "%.2f ms" % (ns / 1e6) if ns < 1e9 else "%.2f s" % (ns / 1e9)


def loss(pt, t):
    """How much slower the pick is: +x% below 10 times, else N times."""
    r = pt / t
    return "+%.0f%%" % (100 * (r - 1)) if r < 10 else "%.0fx" % r


def main():
    global NAMES, COLOURS
    if len(sys.argv) not in (3, 4):
        sys.exit("usage: allreduce-charts.py POINTS_CSV OUT_DIR [openmpi|mpich]")
    lib = sys.argv[3] if len(sys.argv) == 4 else "openmpi"
    title, svg = "Open MPI", "allreduce-pick.svg"
    if lib == "mpich":
        (NAMES, COLOURS), title, svg = MPICH, "MPICH", "allreduce-pick-mpich.svg"
    forced, pick = {}, {}
    with open(sys.argv[1]) as f:
        for r in csv.DictReader(f):
            key = (int(r["P"]), int(r["bytes"]))
            t, alg = int(r["time_ns"]), int(r["alg"])
            if r["forced"] == "1":
                forced.setdefault(key, {})[alg] = t
            else:
                pick[key] = (alg, t)
    ranks = sorted({k[0] for k in pick})
    sizes = sorted({k[1] for k in pick})
    best = {}
    for p in ranks:
        for s in sizes:
            times = forced.get((p, s), {})
            a = min(times, key=lambda x: (times[x], x))
            best[(p, s)] = (a, times[a]) + pick[(p, s)]
    print("| P | " + " | ".join(size_name(s) for s in sizes) + " |")
    print("|---|" + "---|" * len(sizes))
    for p in ranks:
        cells = []
        for s in sizes:
            a, t, pa, pt = best[(p, s)]
            cell = "%d %s, %s" % (a, NAMES[a], us(t))
            cells.append(cell + ("; the pick" if pt <= t else "; pick %d: %s" % (pa, loss(pt, t))))
        print("| %s | %s |" % (rank_name(p), " | ".join(cells)))
    cw, ch, left, top = 150, 44, 70, 60
    w, h = left + cw * len(sizes) + 20, top + ch * len(ranks) + 40 + 18 * ((len(NAMES) + 2) // 3)
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
           'font-family="Helvetica, Arial, sans-serif" font-size="12">' % (w, h, w, h),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="%d" y="20" font-size="14">Allreduce: the fastest of %s\'s algorithms '
           '(colour) and its pick (text)</text>' % (left, title),
           '<text x="%d" y="38" fill="#555">default LogGOPS parameters (L=2500 o=1500 g=1000 G=6 '
           'S=65535); after the pick, how much slower it is than the fastest</text>' % left]
    for j, s in enumerate(sizes):
        out.append('<text x="%d" y="%d" text-anchor="middle">%s</text>'
                   % (left + cw * j + cw // 2, top - 6, size_name(s)))
    for i, p in enumerate(ranks):
        y = top + ch * i
        out.append('<text x="%d" y="%d" text-anchor="end">P = %s</text>'
                   % (left - 8, y + ch // 2 + 4, rank_name(p)))
        for j, s in enumerate(sizes):
            a, t, pa, pt = best[(p, s)]
            x = left + cw * j
            lost = "" if pt <= t else " " + loss(pt, t)
            out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="%s" stroke="white"/>'
                       % (x, y, cw, ch, COLOURS[a]))
            out.append('<text x="%d" y="%d" text-anchor="middle">pick %d%s</text>'
                       % (x + cw // 2, y + ch // 2 + 4, pa, lost))
    y = top + ch * len(ranks) + 24
    for k, (n, name) in enumerate(sorted(NAMES.items())):
        x = left + 200 * (k % 3)
        yy = y + 18 * (k // 3)
        out.append('<rect x="%d" y="%d" width="12" height="12" fill="%s"/>' % (x, yy - 10, COLOURS[n]))
        out.append('<text x="%d" y="%d">%d %s</text>' % (x + 16, yy, n, name))
    out.append("</svg>")
    with open(os.path.join(sys.argv[2], svg), "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
