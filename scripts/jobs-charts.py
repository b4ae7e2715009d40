#!/usr/bin/env python3
"""Chart and tables of the jobs study (scripts/jobs-study.sh).

    scripts/jobs-charts.py CSV OUT_DIR

Reads the study's results.csv (size, place, taper, status, ar_ns,
ar_alone_ns, ar_slowdown, a2a_ns, a2a_alone_ns, a2a_slowdown, wall_s) and
writes OUT_DIR/jobs-slowdown.svg: the allreduce job's slowdown beside the
all-to-all job against the all-to-all's message size (log2 axis), one
panel per taper, one line per placement, a logarithmic y axis shared by
the panels.  Prints Markdown tables of both jobs' slowdowns to standard
output.  Standard library only; the same CSV gives the same files.
"""
import csv
import math
import os
import sys

PLACES = [("packed", "packed", "#1f77b4"), ("roundrobin", "round-robin", "#2ca02c"),
          ("random", "random", "#d62728")]


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def size_label(s):
    return "%d KiB" % (s // 1024) if s >= 1024 and s % 1024 == 0 else "%d B" % s


def ticks(lo, hi):
    out, e = [], math.floor(math.log10(lo))
    while 10 ** e <= hi * 1.0001:
        for m in (1, 2, 5):
            if lo * 0.9999 <= m * 10 ** e <= hi * 1.0001:
                out.append(m * 10 ** e)
        e += 1
    return out


def chart(rows, out):
    data = {(int(r["size"]), r["place"], int(r["taper"])): float(r["ar_slowdown"])
            for r in rows if r["status"] == "ok"}
    sizes = sorted({k[0] for k in data})
    tapers = sorted({k[2] for k in data})
    logs = [math.log2(s) for s in sizes]
    ytop = 10 ** math.ceil(math.log10(max(max(data.values()), 2) * 1.05))
    pw, ph, left0, gapx, top0 = 300, 240, 70, 50, 80
    W = left0 + len(tapers) * pw + (len(tapers) - 1) * gapx + 30
    H = top0 + ph + 100
    xmin, xmax = min(logs) - 0.5, max(logs) + 0.5
    o = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
         'font-family="sans-serif" font-size="13">' % (W, H, W, H),
         '<rect width="100%" height="100%" fill="white"/>',
         '<text x="20" y="26" font-size="17" font-weight="bold">An allreduce job beside an '
         'all-to-all job: its slowdown</text>',
         '<text x="20" y="46" fill="#444">T_together / T_alone (log scale); two jobs of %s ranks on '
         'fattree:k=4,levels=4 (256 hosts), rank r on host r; allreduce: recursive doubling, '
         '8 KiB</text>' % esc(rows[0].get("P", "128"))]
    for i, taper in enumerate(tapers):
        x0, y0 = left0 + i * (pw + gapx), top0

        def X(lg):
            return x0 + (lg - xmin) / (xmax - xmin) * pw

        def Y(v):
            return y0 + ph - math.log(max(v, 1)) / math.log(ytop) * ph

        o.append('<text x="%.1f" y="%d" font-size="14" font-weight="bold" text-anchor="middle">'
                 'taper %d</text>' % (x0 + pw / 2, y0 - 8, taper))
        for t in ticks(1, ytop):
            o.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="%s"/>'
                     % (x0, Y(t), x0 + pw, Y(t), "#999" if t == 1 else "#e4e4e4"))
            o.append('<text x="%d" y="%.1f" text-anchor="end" font-size="11">%g</text>'
                     % (x0 - 5, Y(t) + 4, t))
        for s, lg in zip(sizes, logs):
            o.append('<text x="%.1f" y="%d" text-anchor="middle" font-size="11">%s</text>'
                     % (X(lg), y0 + ph + 16, size_label(s)))
        o.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#333"/>'
                 % (x0, y0, pw, ph))
        o.append('<text x="%.1f" y="%d" text-anchor="middle" font-size="12">all-to-all message '
                 'size</text>' % (x0 + pw / 2, y0 + ph + 34))
        if i == 0:
            o.append('<text transform="translate(%d,%.1f) rotate(-90)" text-anchor="middle" '
                     'font-size="12">allreduce slowdown</text>' % (x0 - 44, y0 + ph / 2))
        for j, (place, _, color) in enumerate(PLACES):
            dx = (j - 1) * 0.06
            pts = [(X(lg + dx), Y(data[(s, place, taper)])) for s, lg in zip(sizes, logs)
                   if (s, place, taper) in data]
            o.append('<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>'
                     % (color, " ".join("%.1f,%.1f" % p for p in pts)))
            for x, y in pts:
                o.append('<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>' % (x, y, color))
    ly = H - 30
    for j, (_, label, color) in enumerate(PLACES):
        x = 20 + j * 180
        o.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"/>'
                 % (x, ly, x + 30, ly, color))
        o.append('<text x="%d" y="%d" font-size="12">%s</text>' % (x + 36, ly + 4, esc(label)))
    o.append('</svg>')
    with open(out, "w") as f:
        f.write("\n".join(o) + "\n")


def tables(rows):
    for job, name in (("ar", "allreduce"), ("a2a", "all-to-all")):
        tapers = sorted({int(r["taper"]) for r in rows})
        print("%s slowdown (time together / alone):\n" % name)
        print("| all-to-all size | placement | " + " | ".join("taper %d" % t for t in tapers) + " |")
        print("|---|---|" + "---|" * len(tapers))
        for size in sorted({int(r["size"]) for r in rows}):
            for place, label, _ in PLACES:
                cells = []
                for t in tapers:
                    r = [x for x in rows if int(x["size"]) == size and x["place"] == place
                         and int(x["taper"]) == t]
                    cells.append("%.4f" % float(r[0][job + "_slowdown"]) if r and r[0]["status"] == "ok"
                                 else "timeout")
                print("| %s | %s | %s |" % (size_label(size), label, " | ".join(cells)))
        print()


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: jobs-charts.py CSV OUT_DIR")
    with open(sys.argv[1], newline="") as f:
        rows = list(csv.DictReader(f))
    os.makedirs(sys.argv[2], exist_ok=True)
    chart(rows, os.path.join(sys.argv[2], "jobs-slowdown.svg"))
    tables(rows)


if __name__ == "__main__":
    main()
