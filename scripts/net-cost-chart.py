#!/usr/bin/env python3
"""The chart of tests/bench-net.sh: the cost of an event against P on
each network, one panel per schedule.

    tests/bench-net.sh build > net.txt
    scripts/net-cost-chart.py net.txt OUT_SVG

Reads bench-net's table (a schedule's line, then its indented lines, one
per topology) and draws ns per event (the simulation alone) against the
ranks, both axes logarithmic, one line per network: no topology, the fat
trees of taper 1, 2 and 4, the torus.  A run over bench-net's time limit
is a hollow mark at the top of its panel.  A schedule run at one P only
(the 8-byte alltoall) is left out.  Standard library only; the same table
gives the same file.
"""
import math
import re
import sys

NETS = [("none", "no topology", "#7f7f7f"), ("taper=1", "fat tree, taper 1", "#1f77b4"),
        ("taper=2", "fat tree, taper 2", "#2ca02c"), ("taper=4", "fat tree, taper 4", "#d62728"),
        ("torus", "torus, 2 hosts a router", "#9467bd")]
PW, PH, ML, MT, GAP, MB = 300, 250, 80, 70, 40, 90


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def parse(lines):
    """{schedule: {net: [(P, ns_per_event or None for over the limit)]}}"""
    runs, order, cur = {}, [], None
    for line in lines:
        if not line.strip() or line.startswith(("==", "schedule,")):
            continue
        # bench-net's columns: the label in 34 characters, then P
        label, cols = line[:34], line[34:].split()
        if not cols or not cols[0].isdigit():
            continue
        p, rest, indent, label = int(cols[0]), cols[1:], label.startswith(" "), label.strip()
        if not indent:
            cur = label
            if cur not in runs:
                runs[cur] = {}
                order.append(cur)
            net = "none"
        elif label.startswith("torus"):
            net = "torus"
        else:
            t = re.search(r"taper=(\d+)", label)
            net = "taper=%s" % (t.group(1) if t else "1")
        if cur is None:
            continue
        if rest and rest[0] == ">":
            cost = None
        elif len(rest) >= 4 and rest[0] != "failed:":
            cost = float(rest[3])
        else:
            continue
        runs[cur].setdefault(net, []).append((p, cost))
    return [(s, runs[s]) for s in order if len({p for v in runs[s].values() for p, _ in v}) > 1]


def chart(series):
    costs = [c for _, nets in series for v in nets.values() for _, c in v if c]
    ps = [p for _, nets in series for v in nets.values() for p, _ in v]
    y0 = math.floor(math.log10(max(min(costs), 1)))
    y1 = math.ceil(math.log10(max(costs) * 1.5))
    x0, x1 = math.log2(min(ps)) - 0.5, math.log2(max(ps)) + 0.5
    W = ML + len(series) * PW + (len(series) - 1) * GAP + 20
    H = MT + PH + MB
    o = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
         'font-family="sans-serif" font-size="12">' % (W, H, W, H),
         '<rect width="100%" height="100%" fill="white"/>',
         '<text x="20" y="24" font-size="16" font-weight="bold">loggopsim on networks: '
         'the cost of an event against P</text>',
         '<text x="20" y="44" fill="#444">ns per event (the simulation alone, log scale); '
         'rank r on host r, default parameters; hollow: over the time limit</text>']
    for i, (name, nets) in enumerate(series):
        left = ML + i * (PW + GAP)

        def X(p):
            return left + PW * (math.log2(p) - x0) / (x1 - x0)

        def Y(c):
            return MT + PH * (1 - (math.log10(c) - y0) / (y1 - y0))

        o.append('<text x="%d" y="%d" font-weight="bold">%s</text>' % (left, MT - 8, esc(name)))
        o.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#999"/>'
                 % (left, MT, PW, PH))
        for e in range(y0, y1 + 1):
            y = Y(10 ** e)
            o.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#e4e4e4"/>'
                     % (left, y, left + PW, y))
            if i == 0:
                o.append('<text x="%d" y="%.1f" text-anchor="end">%s</text>'
                         % (left - 6, y + 4, "{:,}".format(10 ** e)))
        for p in sorted({p for v in nets.values() for p, _ in v}):
            x = X(p)
            o.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#e4e4e4"/>'
                     % (x, MT, x, MT + PH))
            lab = "%dK" % (p // 1024) if p >= 1024 else str(p)
            o.append('<text x="%.1f" y="%d" text-anchor="middle">%s</text>' % (x, MT + PH + 16, lab))
        for key, _, colour in NETS:
            pts = sorted(nets.get(key, []), key=lambda q: q[0])
            done = [(X(p), Y(c)) for p, c in pts if c]
            if len(done) > 1:
                o.append('<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>'
                         % (colour, " ".join("%.1f,%.1f" % q for q in done)))
            for x, y in done:
                o.append('<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>' % (x, y, colour))
            for p, c in pts:
                if c is None:
                    o.append('<circle cx="%.1f" cy="%d" r="4" fill="white" stroke="%s" '
                             'stroke-width="2"/>' % (X(p), MT + 6, colour))
        o.append('<text x="%d" y="%d" text-anchor="middle">ranks P</text>'
                 % (left + PW // 2, MT + PH + 34))
    o.append('<text transform="translate(16,%d) rotate(-90)" text-anchor="middle">ns per event'
             '</text>' % (MT + PH // 2))
    x = ML
    for _, label, colour in NETS:
        o.append('<rect x="%d" y="%d" width="14" height="4" fill="%s"/>' % (x, H - 34, colour))
        o.append('<text x="%d" y="%d">%s</text>' % (x + 20, H - 28, esc(label)))
        x += 40 + 7 * len(label)
    o.append("</svg>")
    return "\n".join(o) + "\n"


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: scripts/net-cost-chart.py BENCH_NET_OUTPUT OUT_SVG")
    with open(sys.argv[1]) as f:
        series = parse(f)
    if not series:
        sys.exit("net-cost-chart.py: %s: no series of several P" % sys.argv[1])
    with open(sys.argv[2], "w") as f:
        f.write(chart(series))


if __name__ == "__main__":
    main()
