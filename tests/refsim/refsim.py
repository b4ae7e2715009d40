#!/usr/bin/env python3
"""refsim.py: a deliberately plain reference implementation of the LogGOPS
semantics of docs/semantics.md (sections 2-5, 8, 9 and 10), written from the
page alone, for differential tests against loggopsim.  Slow (a heap of
Python tuples) and exact (Fractions for G and O).

Usage: refsim.py [-p PARAMS] [-L N] [-o N] [-g N] [-G X] [-O X] [-S N]
                 [--noise-trace FILE | --noise periodic:F,D] [--noise-cosched |
                 --noise-offset X] [--noise-rule exact|published] [--seed N]
                 [--slow RANKS:FACTOR]... SCHEDULE.goal
SCHEDULE is GOAL text in any form goalc accepts (docs/goal.md); it is assumed
to be valid (compile it with goalc first).  PARAMS is a parameter file
(docs/loggp.md); single flags override its values in every range.  Prints
`rank,finish_ns` lines (like loggopsim --csv) and a last line `events,N`, or
`incomplete` and exits 1 when the run is incomplete, or `overflow` when a
time passes 2^64 - 1 ns.
"""
import argparse
import heapq
import re
import sys
from fractions import Fraction

ANY = -1
SEND, RECV, CALC = 0, 1, 2
KIND = {"send": SEND, "recv": RECV, "calc": CALC}
INF = float("inf")


class Op:
    __slots__ = ("rank", "kind", "size", "peer", "tag", "cpu", "nic", "comm",
                 "stride", "left", "rel", "started", "start", "out")

    def __init__(self, rank, kind, size, peer, tag, cpu, nic, comm, stride):
        self.rank, self.kind, self.size = rank, kind, size
        self.peer, self.tag, self.cpu, self.nic = peer, tag, cpu, nic
        self.comm = comm
        self.stride = stride   # 0: contiguous
        self.left = 0          # unsatisfied dependencies
        self.rel = 0           # latest satisfaction time so far
        self.started = False
        self.start = None
        self.out = []          # (dependent op, irequires?) in line order


# ---- GOAL text -------------------------------------------------------------

COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
TOKEN = re.compile(r"[{}:]|[^\s{}:]+")


def statements(text):
    """The statements of a GOAL text as token lists, with '{' and '}' as
    statements of their own.  A block comment is one blank, so a newline
    inside it does not end a statement (as in the compiler's scanner)."""
    text = COMMENT.sub(lambda m: " " if m.group().startswith("/*") else "", text)
    for line in text.split("\n"):
        stmt = []
        for tok in TOKEN.findall(line):
            if tok in "{}":
                if stmt:
                    yield stmt
                yield [tok]
                stmt = []
            else:
                stmt.append(tok)
        if stmt:
            yield stmt


def parse_text(text):
    """Per-rank op lists of a valid GOAL text."""
    ranks = []
    labels = deps = None
    for st in statements(text):
        if st[0] in ("num_ranks", "{"):
            continue
        if st[0] == "rank":
            ranks.append([])
            labels, deps = {}, []
            continue
        if st[0] == "}":
            seen = set()
            for a, how, b in deps:
                if (a, how, b) in seen:
                    continue                # a repeated line adds nothing
                seen.add((a, how, b))
                labels[b].out.append((labels[a], how == "irequires"))
                labels[a].left += 1
            continue
        if len(st) == 3 and st[1] in ("requires", "irequires"):
            deps.append(tuple(st))
            continue
        label = None
        if len(st) > 1 and st[1] == ":":
            label, st = st[0], st[2:]
        fields = dict(zip(st[2::2], map(int, st[3::2])))
        peer = fields.get("to", fields.get("from", 0))
        tag = fields.get("tag", 0)
        if tag == 2**64 - 1:
            tag = ANY               # the published tool's spelling of any tag
        op = Op(len(ranks) - 1, KIND[st[0]], int(st[1].rstrip("b")), peer,
                tag, fields.get("cpu", 0), fields.get("nic", 0), fields.get("comm", 0),
                fields.get("stride", 0))
        ranks[-1].append(op)
        if label is not None:
            labels[label] = op
    return ranks


# ---- Parameters --------------------------------------------------------------

class Params:
    """S and the size ranges: a list of (last, L, o, g, G, O), last INF for
    the last one (docs/semantics.md section 8); the strides: a list of
    (stride, o_mw, O_mw, l_mw, L_mw) (section 10)."""

    def __init__(self, L=2500, o=1500, g=1000, G=Fraction(6), O=Fraction(0), S=65535):
        self.S = S
        self.ranges = [(INF, L, o, g, G, O)]
        self.strides = []
        self.noise = None        # a Noise (section 9), or none
        self.slow = Slow()
        self.ppn, self.intra = 0, None   # nodes (section 12): ranks per node, their ranges

    def read_file(self, path):
        self.ranges = []
        with open(path) as fh:
            for line in fh:
                w = line.split("#")[0].split()
                if not w or w[0] == "loggp-params":
                    continue
                if w[0] == "S":
                    self.S = int(w[1])
                    continue
                if w[0] == "stride":
                    kv = dict(x.split("=") for x in w[2:])
                    self.strides.append((int(w[1]), int(kv["o_mw"]), Fraction(kv["O_mw"]),
                                         int(kv["l_mw"]), Fraction(kv["L_mw"])))
                    continue
                kv = dict(x.split("=") for x in w[3:])
                last = INF if w[2] == "inf" else int(w[2])
                self.ranges.append((last, int(kv["L"]), int(kv["o"]), int(kv["g"]),
                                    Fraction(kv["G"]), Fraction(kv["O"])))

    def override(self, **flags):
        """Flags given on the command line set a value in every range."""
        names = ("L", "o", "g", "G", "O")
        self.ranges = [(r[0],) + tuple(flags[n] if flags.get(n) is not None else r[1 + i]
                                       for i, n in enumerate(names)) for r in self.ranges]

    def of(self, size, ranges=None):
        """(L, o, g, G, O) of a message of size bytes (in ranges, else the run's)."""
        for r in ranges or self.ranges:
            if size <= r[0]:
                return r[1:]
        raise ValueError("no range for size %d" % size)

    def msg(self, send):
        """(L, o, g, G, O) of the message of a send: its range's, with the
        middleware costs of the largest stride at or below its own added to
        o and L (section 10)."""
        within = self.ppn and send.rank // self.ppn == send.peer // self.ppn
        L, o, g, G, O = self.of(send.size, self.intra if within else None)
        below = [x for x in self.strides if x[0] <= send.stride] if send.stride else []
        if below:
            _, om, Om, lm, Lm = max(below)
            o += om + per_byte(send.size, Om)
            L += lm + per_byte(send.size, Lm)
        return L, o, g, G, O


# ---- Noise and slow ranks (section 9; formats in docs/noise.md) -------------

M64 = (1 << 64) - 1


def splitmix(x):
    x = (x + 0x9e3779b97f4a7c15) & M64
    x = ((x ^ (x >> 30)) * 0xbf58476d1ce4e5b9) & M64
    x = ((x ^ (x >> 27)) * 0x94d049bb133111eb) & M64
    return x ^ (x >> 31)


def round_ns(text):
    """A time of a noise trace: a decimal rounded half up to whole ns."""
    return int(Fraction(text) + Fraction(1, 2))


class Noise:
    """Detours [s, e) of one period T, merged, and how each rank reads them."""

    def __init__(self, detours, period):
        det = sorted((s, e) for s, e in detours if e > s)
        merged = []
        for s, e in det:
            if merged and s <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], e)
            else:
                merged.append([s, e])
        self.det = [tuple(x) for x in merged]
        self.T = period if period else max((e for _, e in self.det), default=0)
        self.rule, self.offsets, self.seed, self.offset = "exact", "own", 1, 0

    @staticmethod
    def from_trace(path):
        detours, period = [], 0
        with open(path) as fh:
            for line in fh:
                w = line.strip()
                if w.startswith("# period:"):
                    period = round_ns(w[9:].strip())
                    continue
                w = w.split("#")[0].split()
                if w:
                    s = round_ns(w[0])
                    detours.append((s, s + round_ns(w[1])))
        return Noise(detours, period)

    @staticmethod
    def periodic(spec):
        freq, dur = spec[len("periodic:"):].split(",")
        T = int(Fraction(10**9) / Fraction(freq) + Fraction(1, 2))
        return Noise([(0, int(dur))], T)

    def off(self, r):
        if self.offsets == "fixed":
            return self.offset % self.T
        h = splitmix(splitmix(self.seed) ^ (M64 if self.offsets == "cosched" else r))
        return (h * self.T) >> 64

    def end(self, r, t, d):
        """The end of an activity of d ns starting at t on rank r."""
        if d == 0 or not self.det:
            return t + d
        off, T = self.off(r), self.T
        if self.rule == "published":
            u = (t + off) % T
            det = list(self.det)
            if len(det) > 1 and det[0][0] == 0 and det[-1][1] == T:
                # the last and the first detour touch across the wrap: one
                # detour, which starts where the last one starts
                det = det[1:-1] + [(det[-1][0], T + det[0][1])]
                rest = sum(e - u for s, e in det + [(det[-1][0] - T, det[-1][1] - T)] if s <= u < e)
            else:
                rest = sum(e - u for s, e in det if s <= u < e)
            later = 0
            for s, e in det:        # the k >= 0 with u < s + kT < u + d
                lo = 0 if s > u else (u - s) // T + 1
                hi = (u + d - 1 - s) // T if u + d - 1 >= s else -1
                later += (e - s) * max(0, hi - lo + 1)
            return t + d + rest + later
        free = T - sum(e - s for s, e in self.det)
        pos, need = t + off, d      # walk the table: CPU time left to do
        while True:
            k, u = divmod(pos, T)
            if u == 0 and need > free:  # whole periods at once
                q = (need - 1) // free
                pos, need = pos + q * T, need - q * free
                continue
            for s, e in self.det:
                if s <= u < e:          # inside a detour: wait for its end
                    pos = k * T + e
                    break
                if s > u:               # work until the next detour
                    if need <= s - u:
                        return pos + need - off
                    need -= s - u
                    pos = k * T + e
                    break
            else:                       # no detour left in this period
                if need <= T - u:
                    return pos + need - off
                need -= T - u
                pos = (k + 1) * T


class Slow:
    """Per-rank factors of --slow lists."""

    def __init__(self):
        self.factor = {}

    def add(self, text):
        ranks, f = text.rsplit(":", 1)
        for part in ranks.split(","):
            lo, _, hi = part.partition("-")
            for r in range(int(lo), int(hi or lo) + 1):
                self.factor[r] = Fraction(f)

    def of(self, r, x):
        f = self.factor.get(r)
        return x if f is None else int(x * f + Fraction(1, 2))


def per_byte(size, x):
    v = max(size - 1, 0) * x
    return int(v + Fraction(1, 2)) if v else 0   # floor(v + 0.5), v >= 0


# ---- Simulation --------------------------------------------------------------

def simulate(ranks, par):
    """(per-rank finishing times, events, incomplete?) of the schedule;
    incomplete is "overflow" when a time passes 2^64 - 1 ns."""
    P = len(ranks)
    S = par.S
    noise, slow = par.noise, par.slow

    def work(r, t, d):
        return noise.end(r, t, d) if noise else t + d
    ncpu = 1 + max((op.cpu for ops in ranks for op in ops), default=0)
    nnic = 1 + max((op.nic for ops in ranks for op in ops), default=0)
    cpu = [[0] * ncpu for _ in range(P)]
    nsend = [[0] * nnic for _ in range(P)]
    nrecv = [[0] * nnic for _ in range(P)]
    RQ = [[] for _ in range(P)]     # posted recv ops
    UQ = [[] for _ in range(P)]     # handled messages (their send ops)
    heap = []
    seq = [0]
    events = [0]

    def push(time, what, x):
        seq[0] += 1
        heapq.heappush(heap, (time, seq[0], what, x))
        events[0] += 1

    def queue_time(op, release):
        if op.kind == SEND:
            return max(release, cpu[op.rank][op.cpu], nsend[op.rank][op.nic])
        return max(release, cpu[op.rank][op.cpu])

    def push_ops(released, now):
        """released: list of (op, release time) in release order."""
        order = {SEND: 0, RECV: 1, CALC: 2}
        keyed = sorted(enumerate(released), key=lambda e: (e[1][0].rank, order[e[1][0].kind], e[0]))
        for _, (op, rel) in keyed:
            push(queue_time(op, max(rel, now)), "op", op)

    def satisfy(op, when, released, irequires):
        """The dependents of op over edges of one kind, satisfied at when; an
        op is released at the latest of its satisfaction times."""
        for dep, ireq in op.out:
            if ireq == irequires:
                dep.rel = max(dep.rel, when)
                dep.left -= 1
                if dep.left == 0:
                    released.append((dep, dep.rel))

    def matches(rv, m):
        """Section 4: equal comms; within them, source and tag (either may be any)."""
        return (rv.comm == m.comm
                and (rv.peer == ANY or rv.peer == m.rank)
                and (rv.tag == ANY or m.tag == ANY or rv.tag == m.tag))

    def complete_rendezvous(send, t, released):
        _, o, _, _, O = par.msg(send)
        q = send.rank
        done = max(t, work(q, send.start, slow.of(q, o) + slow.of(q, per_byte(send.size, O))))
        cpu[q][send.cpu] = max(cpu[q][send.cpu], t)
        nsend[q][send.nic] = max(nsend[q][send.nic], t)
        satisfy(send, done, released, False)

    for r in range(P):
        for kind in (SEND, RECV, CALC):
            for op in ranks[r]:
                if op.kind == kind and op.left == 0:
                    push(0, "op", op)

    while heap:
        t, s, what, x = heapq.heappop(heap)
        released = []
        if what == "op":
            op = x
            r = op.rank
            if op.kind == CALC:
                if cpu[r][op.cpu] > t:
                    heapq.heappush(heap, (cpu[r][op.cpu], s, what, x))
                    continue
                op.started, op.start = True, t
                cpu[r][op.cpu] = end = work(r, t, slow.of(r, op.size))
                satisfy(op, t, released, True)
                satisfy(op, end, released, False)
            elif op.kind == SEND:
                busy = max(cpu[r][op.cpu], nsend[r][op.nic])
                if busy > t:
                    heapq.heappush(heap, (busy, s, what, x))
                    continue
                op.started, op.start = True, t
                L, o, g, G, O = par.msg(op)
                sO, sG = slow.of(r, per_byte(op.size, O)), per_byte(op.size, G)
                o = slow.of(r, o)
                cpu[r][op.cpu] = work(r, t, o + sO)
                nsend[r][op.nic] = t + g + sG
                push(work(r, t, o) + L, "msg", op)
                satisfy(op, t, released, True)
                if op.size <= S:
                    satisfy(op, cpu[r][op.cpu], released, False)
            else:
                op.started, op.start = True, t
                satisfy(op, t, released, True)
                for i, m in enumerate(UQ[r]):
                    if matches(op, m):
                        del UQ[r][i]
                        if m.size > S:
                            complete_rendezvous(m, t, released)
                        satisfy(op, t, released, False)
                        break
                else:
                    RQ[r].append(op)
        else:
            m = x
            r = m.peer
            busy = max(cpu[r][m.cpu], nrecv[r][m.nic])
            if busy > t:
                heapq.heappush(heap, (busy, s, what, x))
                continue
            _, o, g, G, O = par.msg(m)
            sO, sG = slow.of(r, per_byte(m.size, O)), per_byte(m.size, G)
            cpu[r][m.cpu] = done = work(r, t, slow.of(r, o) + max(sO, sG))
            nrecv[r][m.nic] = t + g + sG
            for i, rv in enumerate(RQ[r]):
                if matches(rv, m):
                    del RQ[r][i]
                    if m.size > S:
                        complete_rendezvous(m, t, released)
                    satisfy(rv, done, released, False)
                    break
            else:
                UQ[r].append(m)
        push_ops(released, t)

    stuck = any(not op.started for ops in ranks for op in ops) or any(RQ) or any(UQ)
    # Free times only grow, and every other time is at most one of them.
    if max(max(v) for v in cpu + nsend + nrecv) > 2**64 - 1:
        stuck = "overflow"
    return [max(c) for c in cpu], events[0], stuck


def run(text, par):
    """The lines refsim prints for a schedule text, as one string."""
    finish, events, stuck = simulate(parse_text(text), par)
    if stuck == "overflow":
        return "overflow\n"
    if stuck:
        return "incomplete\n"
    return "".join("%d,%d\n" % (r, f) for r, f in enumerate(finish)) + "events,%d\n" % events


def params_from_args(argv):
    """Params and the schedule path from a loggopsim-style command line."""
    ap = argparse.ArgumentParser()
    ap.add_argument("-p")
    for f in ("L", "o", "g", "S"):
        ap.add_argument("-" + f, type=int)
    ap.add_argument("-G", type=Fraction)
    ap.add_argument("-O", type=Fraction)
    ap.add_argument("--noise-trace")
    ap.add_argument("--noise")
    ap.add_argument("--noise-cosched", action="store_true")
    ap.add_argument("--noise-offset", type=int)
    ap.add_argument("--noise-rule", default="exact")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--slow", action="append", default=[])
    ap.add_argument("--ranks-per-node", type=int, default=0)
    ap.add_argument("--intra-params")
    ap.add_argument("schedule")
    a = ap.parse_args(argv)
    par = Params()
    if a.noise_trace:
        par.noise = Noise.from_trace(a.noise_trace)
    elif a.noise:
        par.noise = Noise.periodic(a.noise)
    if par.noise:
        par.noise.rule, par.noise.seed = a.noise_rule, a.seed
        if a.noise_offset is not None:
            par.noise.offsets, par.noise.offset = "fixed", a.noise_offset
        elif a.noise_cosched:
            par.noise.offsets = "cosched"
    for s in a.slow:
        par.slow.add(s)
    if a.p:
        par.read_file(a.p)
    par.override(L=a.L, o=a.o, g=a.g, G=a.G, O=a.O)
    if a.S is not None:
        par.S = a.S
    if a.intra_params and a.ranks_per_node >= 2:
        intra = Params()
        intra.read_file(a.intra_params)
        par.ppn, par.intra = a.ranks_per_node, intra.ranges
    return par, a.schedule


def main():
    par, path = params_from_args(sys.argv[1:])
    with open(path) as fh:
        out = run(fh.read(), par)
    sys.stdout.write(out)
    return 1 if out in ("incomplete\n", "overflow\n") else 0


if __name__ == "__main__":
    sys.exit(main())
