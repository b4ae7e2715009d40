#!/usr/bin/env python3
"""Charts and tables of the latency tolerance study
(scripts/sensitivity-study.sh).

    scripts/sensitivity-charts.py OUT_DIR

Reads OUT_DIR/collectives.csv, programs.csv and curve-NAME.csv; writes
OUT_DIR/sens-curves.svg: per program, T(L) / T(2500) from the plain sweep
(dots joined), the line of the run's critical path at L = 2500 (dashed), the
1%, 2% and 5% targets (grey) and the tolerances the search found (red ticks);
and prints Markdown tables of both CSVs.  Standard library only.
"""
import csv
import os
import sys

W, H = 300, 220            # one panel
ML, MR, MT, MB = 52, 12, 28, 38


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def panel(x0, y0, name, prog, curve):
    T0 = int(prog["time_ns"])
    L0 = 2500
    pts = [(int(r["L"]), int(r["time_ns"]) / T0) for r in curve if r["status"] == "ok"]
    lmax = max(p[0] for p in pts) or 1
    ymax = max(max(p[1] for p in pts), 1.06)
    ymin = min(min(p[1] for p in pts), 0.99)
    pw, ph = W - ML - MR, H - MT - MB

    def X(v):
        return x0 + ML + pw * v / lmax

    def Y(v):
        return y0 + MT + ph * (1 - (v - ymin) / (ymax - ymin))

    out = ['<text x="%.1f" y="%.1f" font-size="12" font-weight="bold">%s (T = %.3f ms)</text>'
           % (x0 + ML, y0 + 16, esc(name), T0 / 1e6)]
    out.append('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="#888"/>'
               % (x0 + ML, y0 + MT, pw, ph))
    for pct in (1, 2, 5):
        y = 1 + pct / 100
        if y <= ymax:
            out.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#bbb" '
                       'stroke-dasharray="2,2"/>' % (X(0), Y(y), X(lmax), Y(y)))
            out.append('<text x="%.1f" y="%.1f" font-size="9" fill="#777">+%d%%</text>'
                       % (X(lmax) - 24, Y(y) - 2, pct))
    slope = int(prog["dT_dL"]) / T0
    a, b = 0, lmax
    out.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#2ca02c" '
               'stroke-dasharray="5,3"/>' % (X(a), Y(1 + slope * (a - L0)), X(b),
                                              Y(1 + slope * (b - L0))))
    out.append('<polyline fill="none" stroke="#1f6fd0" stroke-width="1.5" points="%s"/>'
               % " ".join("%.1f,%.1f" % (X(l), Y(t)) for l, t in pts))
    for l, t in pts:
        out.append('<circle cx="%.1f" cy="%.1f" r="1.6" fill="#1f6fd0"/>' % (X(l), Y(t)))
    for col in ("L1", "L2", "L5"):
        if prog[col] != "inf" and int(prog[col]) <= lmax:
            x = X(int(prog[col]))
            out.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#d62728" '
                       'stroke-width="2"/>' % (x, Y(ymin), x, Y(ymin) - 10))
    x = X(L0)
    out.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#000" '
               'stroke-width="1"/>' % (x, Y(ymin), x, Y(ymin) + 4))
    for i in range(5):
        v = lmax * i / 4
        out.append('<text x="%.1f" y="%.1f" font-size="9" text-anchor="middle">%s</text>'
                   % (X(v), y0 + MT + ph + 12, "%.4g" % (v / 1000)))
        w = ymin + (ymax - ymin) * i / 4
        out.append('<text x="%.1f" y="%.1f" font-size="9" text-anchor="end">%.3f</text>'
                   % (x0 + ML - 3, Y(w) + 3, w))
    out.append('<text x="%.1f" y="%.1f" font-size="10" text-anchor="middle">L (us)</text>'
               % (x0 + ML + pw / 2, y0 + H - 8))
    return out


def main():
    d = sys.argv[1]
    progs = rows(os.path.join(d, "programs.csv"))
    cols = 3
    nrow = (len(progs) + cols - 1) // cols
    svg = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'font-family="sans-serif">' % (cols * W, nrow * H + 40),
           '<rect width="100%" height="100%" fill="white"/>']
    for i, p in enumerate(progs):
        curve = rows(os.path.join(d, "curve-%s.csv" % p["program"]))
        svg += panel((i % cols) * W, (i // cols) * H, p["program"], p, curve)
    ly = nrow * H + 20
    svg.append('<text x="10" y="%d" font-size="10"><tspan fill="#1f6fd0">&#9679; T(L)/T(2500), '
               'plain sweep</tspan>   <tspan fill="#2ca02c">- - critical path at L = 2500'
               '</tspan>   <tspan fill="#d62728">| tolerance 1%%, 2%%, 5%% (search)</tspan>'
               '   <tspan fill="#777">- - targets</tspan></text>' % ly)
    svg.append("</svg>")
    with open(os.path.join(d, "sens-curves.svg"), "w") as f:
        f.write("\n".join(svg) + "\n")
    for name in ("collectives", "programs"):
        rs = rows(os.path.join(d, name + ".csv"))
        head = list(rs[0].keys())
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for r in rs:
            print("| " + " | ".join(r[h] for h in head) + " |")
        print()


main()
