#!/usr/bin/env python3
"""The tables and charts of scripts/log3p-study.sh (docs/log3p.md).

    scripts/log3p-charts.py POINTS_CSV OUT_DIR

POINTS_CSV: transport,pattern,P,stride,size,measured,loggp,log3p (ns).
Writes OUT_DIR/tables.md (Markdown tables: per transport and pattern the
average and largest relative error of each model over the strided points,
and over the contiguous ones, on 2 ranks and on all; the errors by stride
and by P; the ping-pong point by point) and OUT_DIR/log3p-TRANSPORT.svg
(per pattern, the average error of each model over the strided points
against the size: on 2 ranks solid, on more dashed).  An error is
(predicted - measured) / measured.  Standard library only.
"""
import csv
import math
import os
import sys

PATTERNS = ["pingpong", "linear", "tree"]
TITLES = {"pingpong": "ping-pong (2 ranks)", "linear": "linear broadcast",
          "tree": "binomial-tree broadcast"}
MODELS = [("loggp", "LogGP", "#d62728"), ("log3p", "log_3 P", "#1f6fd0")]


def err(p, m):
    return (p - m) / m


def stats(rows, model):
    e = [abs(err(r[model], r["measured"])) for r in rows]
    return (sum(e) / len(e), max(e)) if e else (float("nan"), float("nan"))


def pct(x):
    return "%.1f%%" % (100 * x)


def size_name(s):
    return "%d KiB" % (s // 1024) if s < 1 << 20 else "%d MiB" % (s >> 20)


def tables(rows):
    out = []
    for t in sorted({r["transport"] for r in rows}):
        rt = [r for r in rows if r["transport"] == t]
        ranks = sorted({r["P"] for r in rt})
        out.append("### %s\n" % ("Shared memory" if t == "shm" else "TCP over loopback"))
        for title, rsel in (("on 2 ranks", lambda r: r["P"] == 2),
                            ("over every point (P %d..%d for the broadcasts)"
                             % (ranks[0], ranks[-1]), lambda r: True)):
            if title.startswith("on 2") and len(ranks) == 1:
                continue
            out.append("Average and largest |error| %s:\n" % title)
            out.append("| pattern | messages | points | LogGP average | LogGP largest "
                       "| log_3 P average | log_3 P largest |")
            out.append("|---|---|---|---|---|---|---|")
            for p in PATTERNS:
                for kind, sel in (("strided", lambda r: r["stride"] > 0),
                                  ("contiguous", lambda r: r["stride"] == 0)):
                    rs = [r for r in rt if r["pattern"] == p and sel(r) and rsel(r)]
                    if not rs:
                        continue
                    a, b = stats(rs, "loggp"), stats(rs, "log3p")
                    out.append("| %s | %s | %d | %s | %s | %s | %s |"
                               % (p, kind, len(rs), pct(a[0]), pct(a[1]), pct(b[0]),
                                  pct(b[1])))
            out.append("")
        out.append("Average |error| of the strided points by stride (LogGP / log_3 P):\n")
        strides = sorted({r["stride"] for r in rt if r["stride"] > 0})
        out.append("| pattern | " + " | ".join("stride %d" % d for d in strides) + " |")
        out.append("|---|" + "---|" * len(strides))
        for p in PATTERNS:
            cells = []
            for d in strides:
                rs = [r for r in rt if r["pattern"] == p and r["stride"] == d]
                if not rs:
                    cells.append("-")
                    continue
                cells.append("%s / %s" % (pct(stats(rs, "loggp")[0]), pct(stats(rs, "log3p")[0])))
            out.append("| %s | %s |" % (p, " | ".join(cells)))
        out.append("")
        out.append("Average |error| of the strided broadcasts by number of ranks "
                   "(LogGP / log_3 P):\n")
        out.append("| pattern | " + " | ".join("P = %d" % q for q in ranks) + " |")
        out.append("|---|" + "---|" * len(ranks))
        for p in PATTERNS[1:]:
            cells = []
            for q in ranks:
                rs = [r for r in rt if r["pattern"] == p and r["P"] == q and r["stride"] > 0]
                cells.append("%s / %s" % (pct(stats(rs, "loggp")[0]), pct(stats(rs, "log3p")[0]))
                             if rs else "-")
            out.append("| %s | %s |" % (p, " | ".join(cells)))
        out.append("")
        pp = sorted((r for r in rt if r["pattern"] == "pingpong"),
                    key=lambda r: (r["stride"], r["size"]))
        if pp:
            out.append("Ping-pong round trips (ns):\n")
            out.append("| stride | size | measured | LogGP | error | log_3 P | error |")
            out.append("|---|---|---|---|---|---|---|")
            for r in pp:
                out.append("| %s | %s | %.0f | %.0f | %+.1f%% | %.0f | %+.1f%% |"
                           % (r["stride"] or "contiguous", size_name(r["size"]), r["measured"],
                              r["loggp"], 100 * err(r["loggp"], r["measured"]), r["log3p"],
                              100 * err(r["log3p"], r["measured"])))
            out.append("")
    return "\n".join(out) + "\n"


def chart(rows, t):
    """Three panels: per pattern, the average |error| of each model over the
    strided points of each size, on a log2 size axis."""
    W, H = 900, 330
    PW, PH, ML, MT = 240, 220, 60, 40
    sizes = sorted({r["size"] for r in rows})
    x0, x1 = math.log2(sizes[0]), math.log2(sizes[-1])
    if x1 == x0:
        x1 = x0 + 1
    series = {}
    top = 0.1
    for p in PATTERNS:
        for m, _, _ in MODELS:
            for two in (1, 0):
                ys = []
                for s in sizes:
                    rs = [r for r in rows if r["transport"] == t and r["pattern"] == p
                          and r["size"] == s and r["stride"] > 0 and (r["P"] == 2) == two]
                    ys.append(stats(rs, m)[0] if rs else None)
                series[p, m, two] = ys
                top = max([top] + [y for y in ys if y is not None])
    top = math.ceil(top * 10) / 10
    name = "shared memory" if t == "shm" else "TCP over loopback"
    svg = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'font-family="sans-serif">' % (W, H),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="%d" y="20" font-size="13" font-weight="bold">LogGP and log_3 P '
           'against measured strided messages, %s: average |error| over strides '
           '8..1024</text>' % (ML, name)]
    for k, p in enumerate(PATTERNS):
        ox = ML + k * (PW + 50)

        def X(s):
            return ox + PW * (math.log2(s) - x0) / (x1 - x0)

        def Y(v):
            return MT + PH * (1 - v / top)
        svg.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#888"/>'
                   % (ox, MT, PW, PH))
        svg.append('<text x="%.1f" y="%d" font-size="12" text-anchor="middle">%s</text>'
                   % (ox + PW / 2, MT - 6, TITLES[p]))
        for s in sizes:
            svg.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#eee"/>'
                       % (X(s), MT, X(s), MT + PH))
            svg.append('<text x="%.1f" y="%d" font-size="9" text-anchor="middle">%s</text>'
                       % (X(s), MT + PH + 13, size_name(s)))
        step = 0.1 if top <= 1 else 0.5 if top <= 5 else 1
        v = 0
        while v <= top + 1e-9:
            svg.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#eee"/>'
                       % (ox, Y(v), ox + PW, Y(v)))
            if k == 0:
                svg.append('<text x="%d" y="%.1f" font-size="9" text-anchor="end">%d%%</text>'
                           % (ox - 4, Y(v) + 3, round(100 * v)))
            v += step
        for m, label, colour in MODELS:
            for two in (1, 0):
                pts = [(X(s), Y(y)) for s, y in zip(sizes, series[p, m, two]) if y is not None]
                if not pts:
                    continue
                svg.append('<polyline fill="none" stroke="%s" stroke-width="2"%s points="%s"/>'
                           % (colour, "" if two else ' stroke-dasharray="5,4"',
                              " ".join("%.1f,%.1f" % q for q in pts)))
                for q in pts:
                    svg.append('<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>' % (q + (colour,)))
        svg.append('<text x="%.1f" y="%d" font-size="10" text-anchor="middle">message size</text>'
                   % (ox + PW / 2, MT + PH + 28))
    k = 0
    for m, label, colour in MODELS:
        for two in (1, 0):
            y, x = H - 22, ML + 190 * k
            k += 1
            svg.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"%s/>'
                       % (x, y, x + 24, y, colour, "" if two else ' stroke-dasharray="5,4"'))
            svg.append('<text x="%d" y="%d" font-size="11">%s, %s</text>'
                       % (x + 30, y + 4, label, "2 ranks" if two else "3 to 8 ranks"))
    svg.append('</svg>')
    return "\n".join(svg) + "\n"


def main():
    rows = []
    with open(sys.argv[1], newline="") as fh:
        for r in csv.DictReader(fh):
            rows.append({"transport": r["transport"], "pattern": r["pattern"],
                         "P": int(r["P"]), "stride": int(r["stride"]), "size": int(r["size"]),
                         "measured": float(r["measured"]), "loggp": float(r["loggp"]),
                         "log3p": float(r["log3p"])})
    out = sys.argv[2]
    with open(os.path.join(out, "tables.md"), "w") as fh:
        fh.write(tables(rows))
    for t in sorted({r["transport"] for r in rows}):
        with open(os.path.join(out, "log3p-%s.svg" % t), "w") as fh:
            fh.write(chart(rows, t))


if __name__ == "__main__":
    main()
