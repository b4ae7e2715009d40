#!/usr/bin/env python3
"""Charts and tables of the AI studies (docs/ai.md).

    scripts/ai-charts.py OUT_DIR STEP_CSV [GPUS=NCCL_CSV ...]

STEP_CSV is scripts/ai-step-study.sh's output (gpus, disturbance, time_ns,
slowdown), or - for none (then ai-step.svg is not written); each NCCL_CSV is scripts/nccl-study.sh's for GPUS GPUs (bytes,
pattern, protocol, time_ns).  Writes

  ai-step.svg       a data-parallel step's slowdown against the GPUs (log2
                    axis), one line per disturbance;
  ai-allreduce.svg  the allreduce's time against its bytes (log-log), one
                    panel per GPU count: NCCL's ring and tree (the best
                    protocol of each), NCCL's pick, Open MPI's pick and
                    its coll/han;

and prints Markdown tables of both to standard output.  Standard library
only; the same CSVs give the same files.
"""
import csv
import math
import os
import sys

STEP = [("stragglers-1%-x1.1", "1% stragglers, 1.1x", "#9ecae1", ""),
        ("stragglers-1%-x1.5", "1% stragglers, 1.5x", "#4292c6", ""),
        ("stragglers-1%-x2", "1% stragglers, 2x", "#08519c", ""),
        ("noise-1kHz-10us", "noise 1 kHz x 10 us", "#fd8d3c", "6,3"),
        ("noise-10Hz-1ms", "noise 10 Hz x 1 ms", "#d62728", "6,3"),
        ("noise-poisson-1kHz-10us", "Poisson noise, 1 kHz, 10 us", "#74c476", "6,3")]
ALGS = [("ring", "NCCL ring (best protocol)", "#1f77b4", ""),
        ("tree", "NCCL tree (best protocol)", "#2ca02c", ""),
        ("nccl", "NCCL's pick", "#111111", "5,3"),
        ("openmpi", "Open MPI's pick", "#d62728", ""),
        ("han", "Open MPI's coll/han", "#ff7f0e", "2,2")]
UNITS = {"Ki": 1 << 10, "Mi": 1 << 20, "Gi": 1 << 30}


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def size_of(s):
    for u, m in UNITS.items():
        if s.endswith(u):
            return int(s[:-2]) * m
    return int(s)


def size_label(b):
    for u, m in reversed(list(UNITS.items())):
        if b >= m and b % m == 0:
            return "%d %s" % (b // m, u)
    return "%d" % b


def svg_open(w, h, title, sub):
    return ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
            'font-family="sans-serif" font-size="13">' % (w, h, w, h),
            '<rect width="100%" height="100%" fill="white"/>',
            '<text x="20" y="26" font-size="17" font-weight="bold">%s</text>' % esc(title),
            '<text x="20" y="46" fill="#444">%s</text>' % esc(sub)]


def line(o, pts, color, dash):
    if not pts:
        return
    o.append('<polyline fill="none" stroke="%s" stroke-width="2"%s points="%s"/>'
             % (color, ' stroke-dasharray="%s"' % dash if dash else "",
                " ".join("%.1f,%.1f" % p for p in pts)))
    for x, y in pts:
        o.append('<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>' % (x, y, color))


def legend(o, items, y, per_row, width):
    for j, (_, label, color, dash) in enumerate(items):
        x, yy = 20 + (j % per_row) * width, y + (j // per_row) * 20
        o.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"%s/>'
                 % (x, yy, x + 30, yy, color, ' stroke-dasharray="%s"' % dash if dash else ""))
        o.append('<text x="%d" y="%d" font-size="12">%s</text>' % (x + 36, yy + 4, esc(label)))


def step_chart(rows, out):
    gpus = sorted({int(r["gpus"]) for r in rows})
    data = {(int(r["gpus"]), r["disturbance"]): float(r["slowdown"]) for r in rows}
    top = math.ceil(max(data.values()) * 10 + 0.5) / 10
    pw, ph, x0, y0 = 560, 300, 70, 80
    o = svg_open(x0 + pw + 40, y0 + ph + 110, "A data-parallel step: how stragglers and noise slow it",
                 "T_disturbed / T_undisturbed; 12 layers, 16 MiB of gradients each, NCCL's pick, "
                 "nodes of 8 GPUs")
    lo, hi = math.log2(gpus[0]) - 0.5, math.log2(gpus[-1]) + 0.5

    def X(p):
        return x0 + (math.log2(p) - lo) / (hi - lo) * pw

    def Y(v):
        return y0 + ph - (v - 1) / (top - 1) * ph

    t = 1.0
    while t <= top + 1e-9:
        o.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="%s"/>'
                 % (x0, Y(t), x0 + pw, Y(t), "#999" if t == 1 else "#e4e4e4"))
        o.append('<text x="%d" y="%.1f" text-anchor="end" font-size="11">%.1f</text>'
                 % (x0 - 5, Y(t) + 4, t))
        t = round(t + 0.1, 1)
    for p in gpus:
        o.append('<text x="%.1f" y="%d" text-anchor="middle" font-size="11">%d</text>'
                 % (X(p), y0 + ph + 16, p))
    o.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#333"/>' % (x0, y0, pw, ph))
    o.append('<text x="%.1f" y="%d" text-anchor="middle" font-size="12">GPUs</text>'
             % (x0 + pw / 2, y0 + ph + 34))
    o.append('<text transform="translate(%d,%.1f) rotate(-90)" text-anchor="middle" font-size="12">'
             'slowdown</text>' % (x0 - 44, y0 + ph / 2))
    for key, _, color, dash in STEP:
        line(o, [(X(p), Y(data[(p, key)])) for p in gpus if (p, key) in data], color, dash)
    legend(o, STEP, y0 + ph + 56, 3, 220)
    o.append('</svg>')
    with open(out, "w") as f:
        f.write("\n".join(o) + "\n")


def step_table(rows):
    gpus = sorted({int(r["gpus"]) for r in rows})
    data = {(int(r["gpus"]), r["disturbance"]): r for r in rows}
    print("| disturbance | " + " | ".join("%d GPUs" % p for p in gpus) + " |")
    print("|---|" + "---|" * len(gpus))
    print("| none (step time) | " + " | ".join("%.2f ms" % (int(data[(p, "none")]["time_ns"]) / 1e6)
                                            for p in gpus) + " |")
    for key, label, _, _ in STEP:
        print("| %s | %s |" % (label, " | ".join("%.3f" % float(data[(p, key)]["slowdown"])
                                                 if (p, key) in data else "" for p in gpus)))
    print()


def nccl_series(rows):
    """bytes -> {alg: (ns, what)} with the best protocol of ring and tree."""
    out = {}
    for r in rows:
        b, pat, ns = size_of(r["bytes"]), r["pattern"], int(r["time_ns"])
        alg = pat.split(":")[0].replace("nccl-pick", "nccl")
        what = pat.split(":")[1] + "/" + r["protocol"] if ":" in pat else r["protocol"]
        cur = out.setdefault(b, {})
        if alg not in cur or ns < cur[alg][0]:
            cur[alg] = (ns, what)
    return out


def allreduce_chart(studies, out):
    pw, ph, left0, gapx, top0 = 300, 260, 70, 60, 80
    n = len(studies)
    W = left0 + n * pw + (n - 1) * gapx + 30
    o = svg_open(W, top0 + ph + 120, "Allreduce on nodes of 8 GPUs: NCCL's ring and tree, and the picks",
                 "simulated time (log scale) against bytes; NVLink-like within a node, 25 GB/s across")
    for i, (gpus, s) in enumerate(studies):
        x0, y0 = left0 + i * (pw + gapx), top0
        sizes = sorted(s)
        vals = [v[0] for b in sizes for v in s[b].values()]
        ylo, yhi = math.floor(math.log10(min(vals) / 1000)), math.ceil(math.log10(max(vals) / 1000))
        xlo, xhi = math.log2(sizes[0]) - 1, math.log2(sizes[-1]) + 1

        def X(b):
            return x0 + (math.log2(b) - xlo) / (xhi - xlo) * pw

        def Y(ns):
            return y0 + ph - (math.log10(ns / 1000) - ylo) / (yhi - ylo) * ph

        o.append('<text x="%.1f" y="%d" font-size="14" font-weight="bold" text-anchor="middle">'
                 '%d GPUs</text>' % (x0 + pw / 2, y0 - 8, gpus))
        for e in range(ylo, yhi + 1):
            y = Y(10 ** e * 1000)
            o.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#e4e4e4"/>' % (x0, y, x0 + pw, y))
            o.append('<text x="%d" y="%.1f" text-anchor="end" font-size="11">%s</text>'
                     % (x0 - 5, y + 4, "%g us" % 10 ** e if e < 3 else "%g ms" % 10 ** (e - 3)))
        last = None
        for b in sizes:       # a label only where it clears the one before
            if last is None or X(b) - last >= 32:
                o.append('<text x="%.1f" y="%d" text-anchor="middle" font-size="10">%s</text>'
                         % (X(b), y0 + ph + 16, size_label(b)))
                last = X(b)
        o.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#333"/>'
                 % (x0, y0, pw, ph))
        o.append('<text x="%.1f" y="%d" text-anchor="middle" font-size="12">bytes</text>'
                 % (x0 + pw / 2, y0 + ph + 34))
        for key, _, color, dash in ALGS:
            line(o, [(X(b), Y(s[b][key][0])) for b in sizes if key in s[b]], color, dash)
    legend(o, ALGS, top0 + ph + 60, 3, 230)
    o.append('</svg>')
    with open(out, "w") as f:
        f.write("\n".join(o) + "\n")


def allreduce_table(studies):
    for gpus, s in studies:
        print("%d GPUs:\n" % gpus)
        print("| bytes | ring | tree | NCCL's pick | its time | Open MPI's pick | its time | coll/han |")
        print("|---|---|---|---|---|---|---|---|")
        for b in sorted(s):
            r, t, n, m, h = (s[b].get(k, (0, "")) for k in ("ring", "tree", "nccl", "openmpi", "han"))
            best = min(v[0] for v in (r, t) if v[0])
            cell = lambda v: "" if not v[0] else (
                ("**%.1f us (%s)**" if v[0] == best else "%.1f us (%s)") % (v[0] / 1000, v[1]))
            print("| %s | %s | %s | %s | %.1f us | %s | %.1f us | %s |"
                  % (size_label(b), cell(r), cell(t), n[1], n[0] / 1000, m[1].split("/")[0],
                     m[0] / 1000, "%.1f us" % (h[0] / 1000) if h[1] is not None and h[0] else ""))
        print()


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: ai-charts.py OUT_DIR STEP_CSV [GPUS=NCCL_CSV ...]")
    os.makedirs(sys.argv[1], exist_ok=True)
    if sys.argv[2] != "-":
        with open(sys.argv[2], newline="") as f:
            rows = list(csv.DictReader(f))
        step_chart(rows, os.path.join(sys.argv[1], "ai-step.svg"))
        step_table(rows)
    studies = []
    for arg in sys.argv[3:]:
        gpus, path = arg.split("=", 1)
        with open(path, newline="") as f:
            studies.append((int(gpus), nccl_series(list(csv.DictReader(f)))))
    if studies:
        allreduce_chart(studies, os.path.join(sys.argv[1], "ai-allreduce.svg"))
        allreduce_table(studies)


if __name__ == "__main__":
    main()
