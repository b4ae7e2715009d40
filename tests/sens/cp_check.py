#!/usr/bin/env python3
"""Critical paths of random schedules (tests/refsim/randsched.py): links
that follow each other from 0 to T, each costing exactly what the model
charges (with no noise where nothing perturbs the run); and dT/dL, dT/do,
dT/dg against re-simulation at X-1 and X+1.  Usage: cp_check.py BUILD
FIRST LAST.  Prints "ok - ..." / "not ok - ..." lines."""
import csv, json, os, subprocess, sys, tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "refsim"))
import randsched

def rate(size1, v):
    # round(size1 * v) half up, v a decimal string
    from fractions import Fraction
    x = Fraction(v) * size1
    return int(x + Fraction(1, 2)) if size1 else 0

def run(sim, args, goal, extra, tmp):
    cp = os.path.join(tmp, "cp.csv")
    p = subprocess.run([sim, "-q", "--json", "--critical-path", cp] + args + extra + [goal],
                       capture_output=True, text=True)
    return p, cp

def main():
    build, a, b = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    sim = os.path.join(build, "bin", "loggopsim")
    bad = checked = deriv = dbad = kinks = 0
    for seed in range(a, b + 1):
        text, args = randsched.generate(seed)
        with tempfile.TemporaryDirectory() as tmp:
            goal = os.path.join(tmp, "s.goal")
            open(goal, "w").write(text)
            if "@PARAMS" in args:
                pf = os.path.join(tmp, "s.params")
                open(pf, "w").write(randsched.RANGES)
                args = [pf if x == "@PARAMS" else x for x in args]
            p, cpf = run(sim, args, goal, [], tmp)
            if p.returncode != 0:
                if "internal error" in p.stderr or p.returncode > 1:
                    print("# seed %d: %s" % (seed, p.stderr.strip()[:300])); bad += 1
                continue
            j = json.loads(p.stdout)
            T = j["time_ns"]
            rows = list(csv.DictReader(open(cpf)))
            ranges = j.get("ranges") or [dict((k, j[k]) for k in "LogGO")]
            perturbed = "noise" in j or "slow" in j
            t = 0
            why = None
            for i, r in enumerate(rows):
                s, e = int(r["start_ns"]), int(r["end_ns"])
                if s != t: why = "link %d starts at %d, not %d" % (i + 1, s, t); break
                pr = ranges[int(r["range"])]
                nominal = (int(r["L"]) * int(pr["L"]) + int(r["o"]) * int(pr["o"]) + int(r["g"]) * int(pr["g"])
                           + rate(int(r["G_bytes"]), str(pr["G"])) + rate(int(r["O_bytes"]), str(pr["O"])) + int(r["calc_ns"]))
                if e - s != nominal + int(r["noise_ns"]): why = "link %d cost %d != %d + %s" % (i + 1, e - s, nominal, r["noise_ns"]); break
                if not perturbed and int(r["noise_ns"]): why = "link %d noise without noise" % (i + 1); break
                t = e
            if not why and rows and t != T: why = "path ends at %d not %d" % (t, T)
            if not why and not rows and T: why = "no path but T=%d" % T
            if why:
                print("# seed %d: %s" % (seed, why)); bad += 1
                continue
            checked += 1
            # derivatives against re-simulation at X-1 and X+1 (one set of
            # parameters; integer G and O)
            if perturbed or "ranges" in j:
                continue
            for x in ("L", "o", "g"):
                col, v = x, j[x]
                d = sum(int(r[col]) for r in rows)
                q, _ = run(sim, args, goal, ["-" + x, str(v + 1)], tmp)
                if q.returncode:
                    continue
                right = json.loads(q.stdout)["time_ns"] - T
                left = None
                if v > 0:
                    q, _ = run(sim, args, goal, ["-" + x, str(v - 1)], tmp)
                    if q.returncode:
                        continue
                    left = T - json.loads(q.stdout)["time_ns"]
                deriv += 1
                kinks += left is not None and left != right
                # At a break point the path gives one of the two sides; at 0
                # (no left side) at most the right one.
                if not (d in (left, right) if left is not None else d <= right):
                    dbad += 1
                    print("# seed %d: dT/d%s %d, left %s, right %d" % (seed, x, d, left, right))
    print("%s - sensitivity: critical paths of %d random schedules (seeds %d..%d) add up to T, "
          "link by link%s" % ("not ok" if bad or checked < (b - a + 1) // 2 else "ok", checked, a, b,
                              "" if not bad else " (%d wrong)" % bad))
    # The run's own event order decides the path; at a break point (T(X-1),
    # T, T(X+1) not on one line) the order at X can differ from both sides,
    # where ties at X break otherwise.  Few of the random runs are there.
    print("%s - sensitivity: derivatives of random schedules equal T(X+1) - T(X) or "
          "T(X) - T(X-1) in %d of %d (%d at break points; at most 1%% may differ)"
          % ("not ok" if dbad * 100 > deriv or deriv < 100 else "ok", deriv - dbad, deriv, kinks))

main()
