#!/usr/bin/env python3
"""Charts and tables of the noise study (scripts/noise-study.sh).

    scripts/noise-charts.py CSV OUT_DIR

Reads the study's results.csv (one row per run: schedule, P, noise,
offsets, rule, seed, time_ns, base_ns, slowdown, wall_s), writes one chart
per schedule to OUT_DIR,

  noise-SCHEDULE.svg  slowdown T_noise / T_none against P (log2 axis), one
                      panel per rule (exact, published), one line per noise
                      setting and offsets (own: solid, co-scheduled: dashed),
                      the mean over the seeds with the range (min..max) as
                      a bar; the y axis is logarithmic;

and prints to standard output a Markdown table of the mean and range of
the slowdown for every schedule, P, noise, offsets and rule, with the
ratio of the published rule's mean to the exact rule's.

Standard library only; the same CSV gives the same files.
"""
import csv
import math
import os
import sys
from collections import defaultdict

NOISES = [
    ("periodic-1kHz", "1 kHz x 25 us", "#1f77b4"),
    ("periodic-10Hz", "10 Hz x 2.5 ms", "#d62728"),
    ("poisson-1kHz", "Poisson 1 kHz, exp(25 us)", "#2ca02c"),
]
OFFSETS = [("own", "own offsets"), ("cosched", "co-scheduled")]
RULES = ["exact", "published"]
TITLES = {
    "dissemination": "Allreduce (dissemination, 1 byte): slowdown under 2.5% noise",
    "bcast": "Broadcast (binomial tree, 1 byte): slowdown under 2.5% noise",
}


def load(path):
    base = {}
    runs = defaultdict(list)
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            p = int(r["P"])
            if r["noise"] == "none":
                base[(r["schedule"], p)] = int(r["time_ns"])
                continue
            key = (r["schedule"], p, r["noise"], r["offsets"], r["rule"])
            runs[key].append(float(r["slowdown"]))
    stats = {}
    for key, v in runs.items():
        stats[key] = (sum(v) / len(v), min(v), max(v), len(v))
    return base, stats


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def nice_ticks(lo, hi):
    ticks = []
    e = math.floor(math.log10(lo))
    while 10 ** e <= hi * 1.0001:
        for m in (1, 2, 5):
            t = m * 10 ** e
            if lo * 0.9999 <= t <= hi * 1.0001:
                ticks.append(t)
        e += 1
    return ticks


def fmt_tick(t):
    return ("%g" % t) if t < 1e5 else ("%.0e" % t)


def chart(sched, stats, out):
    ps = sorted({k[1] for k in stats if k[0] == sched})
    logs = [int(round(math.log2(p))) for p in ps]
    vals = [v for k, s in stats.items() if k[0] == sched for v in (s[1], s[2])]
    ymax = max(vals + [2.0])
    ytop = 10.0
    # the top: the next 1, 2 or 5 times a power of ten above the largest value
    e = math.floor(math.log10(ymax))
    for m in (1, 2, 5, 10):
        if m * 10 ** e >= ymax * 1.02:
            ytop = m * 10 ** e
            break
    ybot = 1.0

    W, H = 1180, 600
    top, bottom = 78, 150
    left0, pw, gap = 70, 500, 70
    ph = H - top - bottom
    xmin, xmax = min(logs) - 0.5, max(logs) + 0.5

    o = []
    o.append('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
             'viewBox="0 0 %d %d" font-family="sans-serif" font-size="13">' % (W, H, W, H))
    o.append('<rect width="100%" height="100%" fill="white"/>')
    o.append('<text x="%d" y="26" font-size="17" font-weight="bold">%s</text>'
             % (left0 - 50, esc(TITLES.get(sched, sched))))
    o.append('<text x="%d" y="46" fill="#444">T_noise / T_none (log scale): mean over '
             'the seeds, bar = min..max; default LogGP parameters; every noise takes 2.5%% '
             'of the CPU</text>' % (left0 - 50))

    n_series = len(NOISES) * len(OFFSETS)
    for pi, rule in enumerate(RULES):
        x0 = left0 + pi * (pw + gap)

        def X(lg):
            return x0 + (lg - xmin) / (xmax - xmin) * pw

        def Y(v):
            v = max(v, ybot)
            return top + ph - (math.log(v) - math.log(ybot)) / (math.log(ytop) - math.log(ybot)) * ph

        o.append('<text x="%.1f" y="%d" font-size="15" font-weight="bold" '
                 'text-anchor="middle">%s rule</text>' % (x0 + pw / 2, top - 10, rule))
        for t in nice_ticks(ybot, ytop):
            y = Y(t)
            o.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s"/>'
                     % (x0, y, x0 + pw, y, "#999" if t == 1 else "#e4e4e4"))
            o.append('<text x="%.1f" y="%.1f" text-anchor="end">%s</text>' % (x0 - 6, y + 4, fmt_tick(t)))
        for lg in range(min(logs), max(logs) + 1):
            x = X(lg)
            o.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#f0f0f0"/>' % (x, top, x, top + ph))
            if lg % 2 == 0:
                o.append('<text x="%.1f" y="%d" text-anchor="middle">2<tspan dy="-6" '
                         'font-size="10">%d</tspan></text>' % (x, top + ph + 20, lg))
        o.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#333"/>'
                 % (x0, top, pw, ph))
        o.append('<text x="%.1f" y="%d" text-anchor="middle">P (ranks)</text>'
                 % (x0 + pw / 2, top + ph + 42))
        if pi == 0:
            o.append('<text transform="translate(%d,%.1f) rotate(-90)" text-anchor="middle">'
                     'slowdown T_noise / T_none</text>' % (x0 - 48, top + ph / 2))

        si = 0
        for nkey, _, color in NOISES:
            for okey, _ in OFFSETS:
                dx = (si - (n_series - 1) / 2) * 0.07
                si += 1
                pts = []
                for p, lg in zip(ps, logs):
                    s = stats.get((sched, p, nkey, okey, rule))
                    if s:
                        pts.append((X(lg + dx), s))
                if not pts:
                    continue
                dash = '' if okey == "own" else ' stroke-dasharray="7,4"'
                o.append('<polyline fill="none" stroke="%s" stroke-width="2"%s points="%s"/>'
                         % (color, dash, " ".join("%.1f,%.1f" % (x, Y(s[0])) for x, s in pts)))
                for x, s in pts:
                    if s[2] > s[1]:
                        o.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" '
                                 'stroke-opacity="0.55" stroke-width="1.5"/>'
                                 % (x, Y(s[1]), x, Y(s[2]), color))
                    if okey == "own":
                        o.append('<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>' % (x, Y(s[0]), color))
                    else:
                        o.append('<rect x="%.1f" y="%.1f" width="6" height="6" fill="white" '
                                 'stroke="%s" stroke-width="1.5"/>' % (x - 3, Y(s[0]) - 3, color))

    # legend
    ly = top + ph + 66
    lx = left0
    for i, (nkey, nlabel, color) in enumerate(NOISES):
        for j, (okey, olabel) in enumerate(OFFSETS):
            x = lx + i * 360
            y = ly + j * 22
            dash = '' if okey == "own" else ' stroke-dasharray="7,4"'
            o.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"%s/>'
                     % (x, y, x + 34, y, color, dash))
            if okey == "own":
                o.append('<circle cx="%d" cy="%d" r="3" fill="%s"/>' % (x + 17, y, color))
            else:
                o.append('<rect x="%d" y="%d" width="6" height="6" fill="white" stroke="%s" '
                         'stroke-width="1.5"/>' % (x + 14, y - 3, color))
            o.append('<text x="%d" y="%d">%s, %s</text>' % (x + 42, y + 4, esc(nlabel), olabel))
    o.append('<text x="%d" y="%d" fill="#444">P = 2^%d .. 2^%d; the seeds per point: '
             'docs/noise.md, "Study: noise at scale"</text>' % (lx, ly + 56, min(logs), max(logs)))
    o.append('</svg>')
    with open(out, "w") as f:
        f.write("\n".join(o) + "\n")


def summary(base, stats):
    lines = []
    for sched in sorted({k[0] for k in stats}):
        lines.append("## %s\n" % sched)
        lines.append("| P | T_none ns | noise | offsets | seeds | exact mean | exact range | "
                     "published mean | published range | published/exact |")
        lines.append("|---|---|---|---|---|---|---|---|---|---|")
        for p in sorted({k[1] for k in stats if k[0] == sched}):
            for nkey, nlabel, _ in NOISES:
                for okey, olabel in OFFSETS:
                    e = stats.get((sched, p, nkey, okey, "exact"))
                    q = stats.get((sched, p, nkey, okey, "published"))
                    if not e or not q:
                        continue
                    lines.append("| 2^%d | %d | %s | %s | %d | %.3f | %.3f-%.3f | %.3f | %.3f-%.3f | %.3f |"
                                 % (int(round(math.log2(p))), base[(sched, p)], nlabel, olabel, e[3],
                                    e[0], e[1], e[2], q[0], q[1], q[2], q[0] / e[0]))
        lines.append("")
    sys.stdout.write("\n".join(lines) + "\n")


def main():
    if len(sys.argv) != 3:
        sys.stderr.write("usage: noise-charts.py CSV OUT_DIR\n")
        return 2
    base, stats = load(sys.argv[1])
    os.makedirs(sys.argv[2], exist_ok=True)
    for sched in sorted({k[0] for k in stats}):
        chart(sched, stats, os.path.join(sys.argv[2], "noise-%s.svg" % sched))
    summary(base, stats)
    return 0


if __name__ == "__main__":
    sys.exit(main())
