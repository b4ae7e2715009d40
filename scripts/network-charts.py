#!/usr/bin/env python3
"""Charts and tables of the network study (scripts/network-study.sh).

    scripts/network-charts.py CSV OUT_DIR [TRACE_CSV]

Reads the study's results.csv (one row per run: collective, size, P,
topology, spec, status, time_ns, base_ns, slowdown, wall_s, events, flows,
peak_flows, largest_settle) and writes to OUT_DIR

  network-SIZE.svg   (SIZE: 8b, 32k, ...) slowdown T_topology / T_LogGOPS
                     against P (log2 axis), one panel per collective that
                     was run at more than one P and slowed down somewhere
                     (the others are named in a note), one line per
                     network; the y axis is logarithmic and shared by the
                     panels;
  network-trace.svg  with TRACE_CSV (the study's trace.csv): the traced
                     application's slowdown per network and mapping, bars;

and prints to standard output Markdown tables: per message size, the
slowdown of every collective, P and network (the most flows on one link in
parentheses), and the traced application's runs.

Standard library only; the same CSVs give the same files.
"""
import csv
import math
import os
import sys
from collections import defaultdict

NETS = [
    ("fattree", "fat tree, full", "#1f77b4", ""),
    ("taper2", "fat tree, taper 2", "#ff7f0e", ""),
    ("taper4", "fat tree, taper 4", "#d62728", ""),
    ("torus2", "3D torus, 2 hosts/router", "#2ca02c", "7,4"),
    ("torus16", "3D torus, 16 hosts/router", "#9467bd", "7,4"),
]
NAMES = {
    "allreduce_dissemination": "allreduce, dissemination",
    "allreduce_recdoub": "allreduce, recursive doubling",
    "allreduce_ring": "allreduce, ring",
    "bcast_binomial": "broadcast, binomial",
    "reduce_binomial": "reduce, binomial",
    "scatter_linear": "scatter, linear",
    "gather_linear": "gather, linear",
    "alltoall_linear": "alltoall, linear",
}
ORDER = list(NAMES)


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def size_label(s):
    if s >= 1024 and s % 1024 == 0:
        return "%d KiB" % (s // 1024), "%dk" % (s // 1024)
    return "%d B" % s, "%db" % s


def load(path):
    rows = []
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            rows.append(r)
    return rows


def nice_top(v):
    e = math.floor(math.log10(v))
    for m in (1, 1.5, 2, 5, 10):
        if m * 10 ** e >= v * 1.02:
            return m * 10 ** e
    return 10 ** (e + 1)


def ticks(lo, hi):
    out = []
    e = math.floor(math.log10(lo))
    while 10 ** e <= hi * 1.0001:
        for m in ((1, 1.1, 1.2, 1.5, 2, 5) if hi <= 3 else (1, 2, 5)):
            t = m * 10 ** e
            if lo * 0.9999 <= t <= hi * 1.0001:
                out.append(t)
        e += 1
    return out


def chart(size, rows, out):
    data = defaultdict(dict)  # coll -> (net, P) -> slowdown
    for r in rows:
        if int(r["size"]) != size or r["topology"] == "none" or r["status"] != "ok":
            continue
        data[r["collective"]][(r["topology"], int(r["P"]))] = float(r["slowdown"])
    multi = [c for c in ORDER if c in data] + sorted(c for c in data if c not in ORDER)
    multi = [c for c in multi if len({p for _, p in data[c]}) > 1]
    # collectives that no network slowed down (all 1.000) get no panel, a note
    flat = [c for c in multi if max(data[c].values()) < 1.0005]
    colls = [c for c in multi if c not in flat]
    if not colls:
        return False
    ps = sorted({p for c in colls for _, p in data[c]})
    logs = [int(round(math.log2(p))) for p in ps]
    ymax = max(v for c in colls for v in data[c].values())
    ytop = nice_top(max(ymax, 1.1))
    ybot = 1.0

    ncol = 3
    nrow = (len(colls) + ncol - 1) // ncol
    pw, ph = 330, 230
    left0, gapx, top0, gapy = 70, 60, 80, 70
    W = left0 + ncol * pw + (ncol - 1) * gapx + 30
    H = top0 + nrow * (ph + gapy) + (90 if flat else 70)
    xmin, xmax = min(logs) - 0.4, max(logs) + 0.4
    sl, _ = size_label(size)

    o = []
    o.append('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
             'viewBox="0 0 %d %d" font-family="sans-serif" font-size="13">' % (W, H, W, H))
    o.append('<rect width="100%" height="100%" fill="white"/>')
    o.append('<text x="20" y="26" font-size="17" font-weight="bold">Collectives of %s messages '
             'on networks: slowdown against plain LogGOPS</text>' % esc(sl))
    o.append('<text x="20" y="46" fill="#444">T_network / T_LogGOPS (log scale); one rank per '
             'host, rank r on host r; default LogGP parameters (L=2500 o=1500 g=1000 G=6); '
             'links at 1/G</text>')

    for i, c in enumerate(colls):
        x0 = left0 + (i % ncol) * (pw + gapx)
        y0 = top0 + (i // ncol) * (ph + gapy)

        def X(lg):
            return x0 + (lg - xmin) / (xmax - xmin) * pw

        def Y(v):
            v = max(v, ybot)
            return y0 + ph - (math.log(v) - math.log(ybot)) / (math.log(ytop) - math.log(ybot)) * ph

        o.append('<text x="%.1f" y="%d" font-size="14" font-weight="bold" text-anchor="middle">'
                 '%s</text>' % (x0 + pw / 2, y0 - 8, esc(NAMES.get(c, c))))
        for t in ticks(ybot, ytop):
            y = Y(t)
            o.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s"/>'
                     % (x0, y, x0 + pw, y, "#999" if t == 1 else "#e4e4e4"))
            o.append('<text x="%.1f" y="%.1f" text-anchor="end" font-size="11">%g</text>'
                     % (x0 - 5, y + 4, t))
        for lg in logs:
            x = X(lg)
            o.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#f0f0f0"/>' % (x, y0, x, y0 + ph))
            o.append('<text x="%.1f" y="%d" text-anchor="middle">2<tspan dy="-6" '
                     'font-size="10">%d</tspan></text>' % (x, y0 + ph + 18, lg))
        o.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#333"/>'
                 % (x0, y0, pw, ph))
        o.append('<text x="%.1f" y="%d" text-anchor="middle" font-size="12">P (ranks)</text>'
                 % (x0 + pw / 2, y0 + ph + 36))
        if i % ncol == 0:
            o.append('<text transform="translate(%d,%.1f) rotate(-90)" text-anchor="middle" '
                     'font-size="12">slowdown</text>' % (x0 - 44, y0 + ph / 2))
        for j, (net, _, color, dash) in enumerate(NETS):
            dx = (j - (len(NETS) - 1) / 2) * 0.05
            pts = [(X(lg + dx), Y(data[c][(net, p)])) for p, lg in zip(ps, logs) if (net, p) in data[c]]
            if not pts:
                continue
            d = ' stroke-dasharray="%s"' % dash if dash else ""
            o.append('<polyline fill="none" stroke="%s" stroke-width="2"%s points="%s"/>'
                     % (color, d, " ".join("%.1f,%.1f" % pt for pt in pts)))
            for x, y in pts:
                o.append('<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>' % (x, y, color))

    ly = H - (60 if flat else 40)
    for j, (net, label, color, dash) in enumerate(NETS):
        x = 20 + j * 215
        d = ' stroke-dasharray="%s"' % dash if dash else ""
        o.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"%s/>'
                 % (x, ly, x + 30, ly, color, d))
        o.append('<circle cx="%d" cy="%d" r="3" fill="%s"/>' % (x + 15, ly, color))
        o.append('<text x="%d" y="%d" font-size="12">%s</text>' % (x + 36, ly + 4, esc(label)))
    o.append('<text x="20" y="%d" fill="#444" font-size="12">networks and sizes per P: '
             'docs/network.md, "Study"</text>' % (ly + 26))
    if flat:
        o.append('<text x="20" y="%d" fill="#444" font-size="12">not drawn, slowdown 1.000 on '
                 'every network and P: %s</text>'
                 % (ly + 46, esc("; ".join(NAMES.get(c, c) for c in flat))))
    o.append('</svg>')
    with open(out, "w") as f:
        f.write("\n".join(o) + "\n")
    return True


def trace_chart(trows, out):
    rows = [r for r in trows if r["status"] == "ok" and r["topology"] != "none"]
    if not rows:
        return
    app, P = rows[0]["app"], rows[0]["P"]
    base = int(rows[0]["base_ns"])
    vals = [(float(r["slowdown"]) - 1) * 100 for r in rows]
    vmax = max(vals + [0.5])
    step = 0.5 if vmax <= 3 else 1 if vmax <= 6 else 2 if vmax <= 12 else 5
    vtop = math.ceil(vmax * 1.05 / step) * step
    left, bw, bh, top = 400, 480, 20, 70
    W = left + bw + 190
    H = top + len(rows) * (bh + 8) + 60
    o = []
    o.append('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
             'viewBox="0 0 %d %d" font-family="sans-serif" font-size="13">' % (W, H, W, H))
    o.append('<rect width="100%" height="100%" fill="white"/>')
    o.append('<text x="20" y="26" font-size="17" font-weight="bold">%s on %s ranks: time added '
             'by the network</text>' % (esc(app), P))
    o.append('<text x="20" y="46" fill="#444">(T_network / T_LogGOPS - 1) in %%; T_LogGOPS = '
             '%.3f s; default LogGP parameters</text>' % (base / 1e9))

    def X(v):
        return left + v / vtop * bw

    t = 0.0
    while t <= vtop + 1e-9:
        x = X(t)
        o.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="%s"/>'
                 % (x, top - 6, x, H - 50, "#999" if t == 0 else "#e4e4e4"))
        o.append('<text x="%.1f" y="%d" text-anchor="middle" font-size="11">%g%%</text>'
                 % (x, H - 36, t))
        t += step
    colors = {"fattree-256": "#7f7f7f", "fattree": "#1f77b4", "taper4": "#d62728", "torus": "#2ca02c"}
    for i, (r, v) in enumerate(zip(rows, vals)):
        y = top + i * (bh + 8)
        m = r["mapping"]
        m = {"onehost": "all on host 0", "host=rank": "rank r on host r"}.get(m, m + ", 4 per host")
        o.append('<text x="%d" y="%d" text-anchor="end">%s, %s</text>'
                 % (left - 8, y + bh - 5, esc(r["spec"]), esc(m)))
        o.append('<rect x="%d" y="%d" width="%.1f" height="%d" fill="%s"/>'
                 % (left, y, max(X(v) - left, 0.8), bh, colors.get(r["topology"], "#555")))
        o.append('<text x="%.1f" y="%d" font-size="11">%.2f%% (at most %s on a link)</text>'
                 % (X(v) + 5, y + bh - 5, v, r["peak_flows"]))
    o.append('</svg>')
    with open(out, "w") as f:
        f.write("\n".join(o) + "\n")


def tables(rows, trows):
    lines = []
    nets = [n for n, _, _, _ in NETS]
    for size in sorted({int(r["size"]) for r in rows}):
        sl, _ = size_label(size)
        lines.append("### %s messages\n" % sl)
        lines.append("Slowdown T_network / T_LogGOPS (most flows on one link).\n")
        lines.append("| collective | P | T_LogGOPS ns | " + " | ".join(n for n in nets) + " |")
        lines.append("|---|---|---|" + "---|" * len(nets))
        by = defaultdict(dict)
        for r in rows:
            if int(r["size"]) == size:
                by[(r["collective"], int(r["P"]))][r["topology"]] = r
        keys = sorted(by, key=lambda k: (ORDER.index(k[0]) if k[0] in ORDER else 99, k[0], k[1]))
        for c, p in keys:
            d = by[(c, p)]
            cells = []
            for n in nets:
                r = d.get(n)
                if r is None:
                    cells.append("")
                elif r["status"] != "ok":
                    cells.append(r["status"])
                else:
                    cells.append("%.3f (%s)" % (float(r["slowdown"]), r["peak_flows"]))
            base = d.get("none", {}).get("time_ns", "")
            lines.append("| %s | %d | %s | %s |" % (c, p, base, " | ".join(cells)))
        lines.append("")
    if trows:
        lines.append("### traced application\n")
        lines.append("| app | P | network | mapping | time ns | slowdown | flows | most on a link |")
        lines.append("|---|---|---|---|---|---|---|---|")
        for r in trows:
            sd = "%.4f" % float(r["slowdown"]) if r["slowdown"] else r["status"]
            lines.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
                r["app"], r["P"], r["spec"], r["mapping"], r["time_ns"], sd, r["flows"], r["peak_flows"]))
        lines.append("")
    sys.stdout.write("\n".join(lines) + "\n")


def main():
    if len(sys.argv) not in (3, 4):
        sys.stderr.write("usage: network-charts.py CSV OUT_DIR [TRACE_CSV]\n")
        return 2
    rows = load(sys.argv[1])
    trows = load(sys.argv[3]) if len(sys.argv) == 4 and os.path.exists(sys.argv[3]) else []
    os.makedirs(sys.argv[2], exist_ok=True)
    for size in sorted({int(r["size"]) for r in rows}):
        chart(size, rows, os.path.join(sys.argv[2], "network-%s.svg" % size_label(size)[1]))
    if trows:
        trace_chart(trows, os.path.join(sys.argv[2], "network-trace.svg"))
    tables(rows, trows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
