#!/usr/bin/env python3
"""The chart of scripts/sim-cost.sh: ns per event against events, both
axes logarithmic, one line per pattern.

    scripts/sim-cost-chart.py COST_CSV OUT_SVG

Standard library only.
"""
import csv
import math
import sys

W, H = 640, 380
ML, MR, MT, MB = 60, 170, 30, 46
COLOURS = {"bcast_binomial": "#1f6fd0", "allreduce_dissemination": "#d62728",
           "alltoall_linear": "#2ca02c"}


def main():
    rows = list(csv.DictReader(open(sys.argv[1], newline="")))
    pts = {}
    for r in rows:
        pts.setdefault(r["pattern"], []).append((int(r["events"]), float(r["ns_per_event"])))
    xs = [e for p in pts.values() for e, _ in p]
    ys = [c for p in pts.values() for _, c in p]
    x0, x1 = math.floor(math.log10(min(xs))), math.ceil(math.log10(max(xs)))
    y0, y1 = math.floor(math.log10(min(ys))), math.ceil(math.log10(max(ys)))
    pw, ph = W - ML - MR, H - MT - MB

    def X(v):
        return ML + pw * (math.log10(v) - x0) / (x1 - x0)

    def Y(v):
        return MT + ph * (1 - (math.log10(v) - y0) / (y1 - y0))

    svg = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'font-family="sans-serif">' % (W, H),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="%d" y="18" font-size="13" font-weight="bold">loggopsim: '
           'cost per event against events</text>' % ML,
           '<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#888"/>'
           % (ML, MT, pw, ph)]
    for e in range(x0, x1 + 1):
        svg.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/>'
                   % (X(10 ** e), MT, X(10 ** e), MT + ph))
        svg.append('<text x="%.1f" y="%d" font-size="10" text-anchor="middle">10^%d</text>'
                   % (X(10 ** e), MT + ph + 14, e))
    for e in range(y0, y1 + 1):
        for m in (1, 2, 5):
            v = m * 10 ** e
            if v > 10 ** y1:
                break
            svg.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#eee"/>'
                       % (ML, Y(v), ML + pw, Y(v)))
            svg.append('<text x="%d" y="%.1f" font-size="10" text-anchor="end">%g</text>'
                       % (ML - 4, Y(v) + 3, v))
    svg.append('<text x="%.1f" y="%d" font-size="11" text-anchor="middle">events</text>'
               % (ML + pw / 2, H - 12))
    svg.append('<text x="14" y="%.1f" font-size="11" text-anchor="middle" '
               'transform="rotate(-90 14 %.1f)">ns per event</text>' % (MT + ph / 2, MT + ph / 2))
    for i, (name, p) in enumerate(sorted(pts.items())):
        col = COLOURS.get(name, "#555")
        p.sort()
        svg.append('<polyline fill="none" stroke="%s" stroke-width="1.6" points="%s"/>'
                   % (col, " ".join("%.1f,%.1f" % (X(e), Y(c)) for e, c in p)))
        for e, c in p:
            svg.append('<circle cx="%.1f" cy="%.1f" r="2.5" fill="%s"/>' % (X(e), Y(c), col))
        svg.append('<text x="%d" y="%d" font-size="11" fill="%s">%s</text>'
                   % (ML + pw + 10, MT + 14 + 16 * i, col, name))
    svg.append("</svg>")
    with open(sys.argv[2], "w") as f:
        f.write("\n".join(svg) + "\n")


main()
