#!/usr/bin/env python3
"""Critical paths of random schedules (tests/refsim/randsched.py): links
that follow each other from 0 to T, each costing exactly what the model
charges (with no noise where nothing perturbs the run); and the printed
dT/dL, dT/do, dT/dg (with slow ranks too) against re-simulation at X-1 and
X+1, or refused with noise.  Usage: cp_check.py BUILD FIRST LAST.  Prints
"ok - ..." / "not ok - ..." lines."""
import csv, json, math, os, re, subprocess, sys, tempfile
from fractions import Fraction
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
    bad = checked = deriv = dbad = kinks = slow = refused = 0
    for seed in range(a, b + 1):
        text, args = randsched.generate(seed, nodes=False)   # the path refuses nodes
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
            # The printed derivatives against re-simulation at X-1 and X+1
            # (one set of parameters): where both sides agree, T is linear
            # there, and the printed value must be that slope.
            if "ranges" in j:
                continue
            q = subprocess.run([sim, "-q", "--sensitivity"] + args + [goal], capture_output=True, text=True)
            if "noise" in j:
                refused += 1
                if q.returncode != 2 or "--sensitivity cannot be combined with noise" not in q.stderr:
                    dbad += 1
                    print("# seed %d: --sensitivity with noise: exit %d %s" % (seed, q.returncode, q.stderr.strip()[:200]))
                continue
            printed = dict(re.findall(r"^dT/d(\w) = ([0-9.]+)$", q.stdout, re.M))
            # A slowdown factor f rounds each stretched activity, so T moves
            # unevenly from one ns to the next; over D ns with f*D whole for
            # every factor it moves exactly.
            D = 1
            for sl in j.get("slow", []):
                den = Fraction(sl.split(":")[-1]).denominator
                D = D * den // math.gcd(D, den)
            for x in ("L", "o", "g"):
                v = j[x]
                if v < D:
                    continue
                q, _ = run(sim, args, goal, ["-" + x, str(v + D)], tmp)
                if q.returncode:
                    continue
                right = json.loads(q.stdout)["time_ns"] - T
                q, _ = run(sim, args, goal, ["-" + x, str(v - D)], tmp)
                if q.returncode:
                    continue
                left = T - json.loads(q.stdout)["time_ns"]
                if left != right:
                    kinks += 1
                    continue
                deriv += 1
                slow += "slow" in j
                if Fraction(printed.get(x, "-1")) * D != left:
                    dbad += 1
                    print("# seed %d: dT/d%s printed %s, T(X+%d)-T(X) = T(X)-T(X-%d) = %d%s"
                          % (seed, x, printed.get(x), D, D, left, " (slow ranks)" if "slow" in j else ""))
    print("%s - sensitivity: critical paths of %d random schedules (seeds %d..%d) add up to T, "
          "link by link%s" % ("not ok" if bad or checked < (b - a + 1) // 2 else "ok", checked, a, b,
                              "" if not bad else " (%d wrong)" % bad))
    # Where events tie at X itself (two activities end at one ns), the run
    # at X may take an order that neither X-1 nor X+1 takes, and its path
    # with it, though T(X-1), T(X), T(X+1) lie on one line: at most 1% of
    # the points, each printed above.
    print("%s - sensitivity: printed derivatives of random schedules equal T(X+D) - T(X) "
          "wherever it equals T(X) - T(X-D): %d of %d (%d with slow ranks; %d break points left "
          "out; --sensitivity refused with noise %d times; at most 1%% may differ, at ties)"
          % ("not ok" if dbad * 100 > deriv or deriv < 100 else "ok", deriv - dbad, deriv, slow,
             kinks, refused))

main()
