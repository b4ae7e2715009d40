#!/usr/bin/env python3
"""difftest.py: loggopsim against refsim.py, schedule by schedule.  Per-rank
finishing times, the event count and complete/incomplete must agree exactly;
and goalc --dump of each compiled schedule must compile back to the same
binary.

  difftest.py BUILD seeds FIRST COUNT [-j N] [--out DIR] [--progress]
      random schedules of randsched.py, seeds FIRST..FIRST+COUNT-1
  difftest.py BUILD cases DIR
      every DIR/NAME.goal that compiles, with the options in DIR/NAME.args
      (run in DIR)

Prints "ok - ..." / "not ok - ..." lines (details indented) and exits 0 when
everything agrees, 1 otherwise.  A mismatching random schedule is written to
DIR (--out, default build/soak) as seed-N.goal with the command lines that
reproduce it in its first lines (and seed-N.params when it uses one).
--progress prints schedules per second on stderr every few seconds.
"""
import argparse
import concurrent.futures
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import randsched  # noqa: E402
import refsim     # noqa: E402


# Options of loggopsim that change what it prints, not the times (left out
# of a case's options here), and those of them that take a value.
OUTPUT_ONLY = ("--qstat", "--account", "--lookahead", "--csv")
OUTPUT_VALUE = ("--csv",)
# Options of networks (docs/semantics.md section 11), which refsim.py lacks.
NETWORK = ("--topology", "--network-file", "--mapping")


def loggopsim_lines(build, args, goal, cwd, tmp):
    """loggopsim's result in refsim's form, or (None, why) on a failure."""
    csv = os.path.join(tmp, "got.csv")
    p = subprocess.run([os.path.join(build, "bin", "loggopsim"), "-q"] + args + ["--csv", csv, goal],
                       cwd=cwd, capture_output=True, text=True)
    if p.returncode == 1 and "incomplete" in p.stderr:
        return "incomplete\n", p
    if p.returncode == 1 and "simulated time passes" in p.stderr:
        return "overflow\n", p
    if p.returncode != 0 or not os.path.exists(csv):
        return None, p
    events = [ln.split()[1] for ln in p.stdout.splitlines() if ln.startswith("Events:")]
    with open(csv) as fh:
        rows = [ln for ln in fh.read().splitlines() if not ln.startswith("rank")]
    return "".join(r + "\n" for r in rows) + "events,%s\n" % (events[0] if events else "?"), p


def round_trip(build, goal, tmp):
    """None when goalc --dump of the compiled schedule compiles back to the
    same binary, else what went wrong."""
    goalc = os.path.join(build, "bin", "goalc")
    a, b, d = (os.path.join(tmp, n) for n in ("a.bin", "b.bin", "d.goal"))
    for cmd in ([goalc, goal, "-o", a], [goalc, "--dump", a, "-o", d], [goalc, d, "-o", b]):
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode:
            return "%s: exit %d\n%s" % (" ".join(cmd), p.returncode, p.stderr)
    with open(a, "rb") as fa, open(b, "rb") as fb:
        if fa.read() != fb.read():
            return "goalc --dump output compiles to a different binary"
    return None


def check(build, text, args, goal, cwd, tmp, dump=False):
    """None when loggopsim and refsim agree on the schedule text (in file
    goal, options args, run in cwd), else a description."""
    rargs = [os.path.join(cwd, x) if i and args[i - 1] in ("-p", "--noise-trace", "--intra-params") else x
             for i, x in enumerate(args)]
    par, _ = refsim.params_from_args(rargs + [goal])
    want = refsim.run(text, par)
    got, p = loggopsim_lines(build, args, goal, cwd, tmp)
    if got != want:
        why = "loggopsim exit %d\n" % p.returncode
        why += "".join("-%s\n" % ln for ln in want.splitlines())
        why += "".join("+%s\n" % ln for ln in (got or "").splitlines())
        return why + p.stderr[:600]
    return round_trip(build, goal, tmp) if dump else None


def one_seed(build, seed, out):
    try:
        return seed_check(build, seed, out)
    except Exception as e:          # a crash of the harness is a finding too
        return "difftest: %s: %s" % (type(e).__name__, e)


def seed_check(build, seed, out):
    text, args = randsched.generate(seed)
    with tempfile.TemporaryDirectory() as tmp:
        goal = os.path.join(tmp, "s.goal")
        with open(goal, "w", newline="") as fh:
            fh.write(text)
        for mark, ptext, fname in (("@PARAMS", randsched.RANGES, "s.params"),
                                   ("@STRIDES", randsched.STRIDED, "s.params"),
                                   ("@INTRA", randsched.INTRA, "i.params")):
            if mark in args:
                pf = os.path.join(tmp, fname)
                with open(pf, "w") as fh:
                    fh.write(ptext)
                args = [pf if a == mark else a for a in args]
        why = check(build, text, args, goal, tmp, tmp, dump=seed % 4 == 0)
    if why:
        save(out, seed, text, args)
    return why


def save(out, seed, text, args):
    """A mismatching schedule as a ready-to-run file."""
    os.makedirs(out, exist_ok=True)
    base = os.path.join(out, "seed-%d" % seed)
    if any(a.endswith("s.params") for a in args):
        with open(base + ".params", "w") as fh:
            fh.write(randsched.STRIDED if "stride " in text else randsched.RANGES)
        args = [base + ".params" if a.endswith("s.params") else a for a in args]
    if any(a.endswith("i.params") for a in args):
        with open(base + ".intra.params", "w") as fh:
            fh.write(randsched.INTRA)
        args = [base + ".intra.params" if a.endswith("i.params") else a for a in args]
    a = " ".join(args)
    here = os.path.dirname(os.path.abspath(__file__))
    with open(base + ".goal", "w", newline="") as fh:
        fh.write("// loggopsim %s %s.goal\n// python3 %s/refsim.py %s %s.goal\n"
                 % (a, base, here, a, base))
        fh.write(text)


def seeds_mode(a):
    seeds = range(a.first, a.first + a.count)
    bad = 0
    t0 = last = time.monotonic()
    # The tools under test are copied first: a rebuild during a long soak
    # does not disturb it.
    build = tempfile.mkdtemp(prefix="difftest-")
    os.mkdir(os.path.join(build, "bin"))
    for tool in ("loggopsim", "goalc"):
        shutil.copy2(os.path.join(a.build, "bin", tool), os.path.join(build, "bin", tool))
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        for n, (seed, why) in enumerate(zip(seeds, ex.map(lambda s: one_seed(build, s, a.out), seeds)), 1):
            if why:
                bad += 1
                if bad <= 10:
                    print("not ok - refsim seed %d: %s/seed-%d.goal" % (seed, a.out, seed))
                    print("".join("    " + ln + "\n" for ln in why.splitlines()[:20]), end="")
            now = time.monotonic()
            if a.progress and (now - last >= 5 or n == len(seeds)):
                last = now
                print("soak: %d/%d schedules, %d mismatches, %.0f schedules/s"
                      % (n, len(seeds), bad, n / (now - t0)), file=sys.stderr)
    shutil.rmtree(build)
    if bad:
        print("not ok - loggopsim disagrees with the reference on %d of %d random schedules (seeds %d..%d)"
              % (bad, a.count, a.first, a.first + a.count - 1))
    else:
        print("ok - loggopsim agrees with the reference semantics on %d random schedules (seeds %d..%d)"
              % (a.count, a.first, a.first + a.count - 1))
    return 1 if bad else 0


def cases_mode(a):
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name in sorted(os.listdir(a.dir)):
            if not name.endswith(".goal"):
                continue
            n = name[:-5]
            if subprocess.run([os.path.join(a.build, "bin", "goalc"), "--check", name], cwd=a.dir,
                              capture_output=True).returncode:
                continue                # a compiler error case
            argf = os.path.join(a.dir, n + ".args")
            args = open(argf).read().split() if os.path.exists(argf) else []
            args = [x for i, x in enumerate(args) if x not in OUTPUT_ONLY
                    and not (i and args[i - 1] in OUTPUT_VALUE)]
            if any(x in args for x in NETWORK):
                print("ok - refsim agrees on case %s # SKIP refsim has no networks "
                      "(docs/semantics.md section 11)" % n)
                continue
            with open(os.path.join(a.dir, name), newline="") as fh:
                text = fh.read()
            if any(ln.split()[:1] == ["job"] for ln in text.splitlines()):
                print("ok - refsim agrees on case %s # SKIP refsim has no jobs "
                      "(goalc --merge; docs/jobs.md)" % n)
                continue
            try:
                why = check(a.build, text, args, name, a.dir, tmp)
            except Exception as e:   # refsim itself failed: a defect to see
                why = "refsim failed: %s: %s" % (type(e).__name__, e)
            if why:
                bad = 1
                print("not ok - refsim agrees on case %s" % n)
                print("".join("    " + ln + "\n" for ln in why.splitlines()[:20]), end="")
            else:
                print("ok - refsim agrees on case %s" % n)
    return bad


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    sub = ap.add_subparsers(dest="mode", required=True)
    s = sub.add_parser("seeds")
    s.add_argument("first", type=int)
    s.add_argument("count", type=int)
    s.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    s.add_argument("--out", default="build/soak")
    s.add_argument("--progress", action="store_true")
    c = sub.add_parser("cases")
    c.add_argument("dir")
    a = ap.parse_args()
    a.build = os.path.abspath(a.build)
    if a.mode == "seeds":
        a.out = os.path.abspath(a.out)
        return seeds_mode(a)
    a.dir = os.path.abspath(a.dir)
    return cases_mode(a)


if __name__ == "__main__":
    sys.exit(main())
