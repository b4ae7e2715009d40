#!/usr/bin/env python3
"""refsim.py: a deliberately plain reference implementation of the LogGOPS
semantics of docs/semantics.md (sections 2-5), written from the page alone,
for differential tests against loggopsim.  Slow (a heap of Python tuples) and
exact (Fractions for G and O).

Usage: refsim.py [-L N] [-o N] [-g N] [-G X] [-O X] [-S N] SCHEDULE.goal
SCHEDULE is GOAL text as `goalc --dump` prints it.  Prints `rank,finish_ns`
lines (like loggopsim --csv) and a last line `events,N`, or `incomplete` and
exits 1 when the run is incomplete.
"""
import argparse
import heapq
import re
import sys
from fractions import Fraction

ANY = -1
SEND, RECV, CALC = 0, 1, 2
KIND = {"send": SEND, "recv": RECV, "calc": CALC}


class Op:
    __slots__ = ("rank", "idx", "kind", "size", "peer", "tag", "cpu", "nic",
                 "deps", "left", "started", "start", "done_at", "out")

    def __init__(self, rank, idx, kind, size, peer, tag, cpu, nic):
        self.rank, self.idx, self.kind, self.size = rank, idx, kind, size
        self.peer, self.tag, self.cpu, self.nic = peer, tag, cpu, nic
        self.left = 0          # unsatisfied dependencies
        self.started = False
        self.start = None
        self.out = []          # (dependent op, irequires?) in line order


def parse(path):
    ranks = []
    labels = {}
    line_re = re.compile(r"^(?:(\w+): )?(send|recv|calc) (\d+)(?:b (?:to|from) (-?\d+))?(.*)$")
    with open(path) as fh:
        for line in fh:
            line = line.strip()
            if not line or line.startswith("num_ranks") or line == "}":
                continue
            if line.startswith("rank "):
                ranks.append([])
                labels = {}
                continue
            m = line_re.match(line)
            if m:
                label, kind, size, peer, rest = m.groups()
                opts = dict(zip(rest.split()[::2], map(int, rest.split()[1::2])))
                ops = ranks[-1]
                op = Op(len(ranks) - 1, len(ops), KIND[kind], int(size),
                        int(peer) if peer is not None else 0, opts.get("tag", 0),
                        opts.get("cpu", 0), opts.get("nic", 0))
                ops.append(op)
                labels[label if label else "l%d" % len(ops)] = op
                continue
            a, how, b = line.split()
            labels[b].out.append((labels[a], how == "irequires"))
            labels[a].left += 1
    return ranks


def per_byte(size, x):
    v = max(size - 1, 0) * x
    return int(v + Fraction(1, 2)) if v else 0   # floor(v + 0.5), v >= 0


def simulate(ranks, L, o, g, G, O, S):
    P = len(ranks)
    ncpu = 1 + max((op.cpu for ops in ranks for op in ops), default=0)
    nnic = 1 + max((op.nic for ops in ranks for op in ops), default=0)
    cpu = [[0] * ncpu for _ in range(P)]
    nsend = [[0] * nnic for _ in range(P)]
    nrecv = [[0] * nnic for _ in range(P)]
    RQ = [[] for _ in range(P)]     # posted recv ops
    UQ = [[] for _ in range(P)]     # handled messages
    heap = []
    seq = [0]
    events = [0]

    def nextseq():
        seq[0] += 1
        return seq[0]

    def queue_time(op, release):
        if op.kind == SEND:
            return max(release, cpu[op.rank][op.cpu], nsend[op.rank][op.nic])
        return max(release, cpu[op.rank][op.cpu])

    def push_ops(released):
        """released: list of (op, release time) in release order."""
        order = {SEND: 0, RECV: 1, CALC: 2}
        keyed = sorted(enumerate(released), key=lambda e: (e[1][0].rank, order[e[1][0].kind], e[0]))
        for _, (op, rel) in keyed:
            heapq.heappush(heap, (queue_time(op, rel), nextseq(), "op", op))
            events[0] += 1

    def satisfy(op, when, released, irequires):
        for dep, ireq in op.out:
            if ireq == irequires:
                dep.left -= 1
                if dep.left == 0:
                    released.append((dep, when))

    def matches(src, tag, msrc, mtag):
        return (src == ANY or msrc == ANY or src == msrc) and (tag == ANY or mtag == ANY or tag == mtag)

    def complete_rendezvous(send, t, released):
        done = max(t, send.start + o + per_byte(send.size, O))
        send.done_at = done
        q = send.rank
        cpu[q][send.cpu] = max(cpu[q][send.cpu], t)
        nsend[q][send.nic] = max(nsend[q][send.nic], t)
        satisfy(send, done, released, False)

    roots = []
    for r in range(P):
        for kind in (SEND, RECV, CALC):
            roots += [op for op in ranks[r] if op.kind == kind and op.left == 0]
    for op in roots:
        heapq.heappush(heap, (0, nextseq(), "op", op))
        events[0] += 1

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
                cpu[r][op.cpu] = t + op.size
                satisfy(op, t, released, True)
                satisfy(op, t + op.size, released, False)
            elif op.kind == SEND:
                busy = max(cpu[r][op.cpu], nsend[r][op.nic])
                if busy > t:
                    heapq.heappush(heap, (busy, s, what, x))
                    continue
                op.started, op.start = True, t
                sO, sG = per_byte(op.size, O), per_byte(op.size, G)
                cpu[r][op.cpu] = t + o + sO
                nsend[r][op.nic] = t + g + sG
                heapq.heappush(heap, (t + o + L, nextseq(), "msg", op))
                events[0] += 1
                satisfy(op, t, released, True)
                if op.size <= S:
                    satisfy(op, t + o + sO, released, False)
            else:
                op.started, op.start = True, t
                satisfy(op, t, released, True)
                for i, m in enumerate(UQ[r]):
                    if matches(op.peer, op.tag, m.rank, m.tag):
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
            sO, sG = per_byte(m.size, O), per_byte(m.size, G)
            cpu[r][m.cpu] = t + o + max(sO, sG)
            nrecv[r][m.nic] = t + g + sG
            for i, rv in enumerate(RQ[r]):
                if matches(rv.peer, rv.tag, m.rank, m.tag):
                    del RQ[r][i]
                    if m.size > S:
                        complete_rendezvous(m, t, released)
                    satisfy(rv, t + o + max(sO, sG), released, False)
                    break
            else:
                UQ[r].append(m)
        push_ops(released)

    stuck = any(not op.started for ops in ranks for op in ops) or any(RQ) or any(UQ)
    return [max(c) for c in cpu], events[0], stuck


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-L", type=int, default=2500)
    ap.add_argument("-o", type=int, default=1500)
    ap.add_argument("-g", type=int, default=1000)
    ap.add_argument("-G", type=Fraction, default=Fraction(6))
    ap.add_argument("-O", type=Fraction, default=Fraction(0))
    ap.add_argument("-S", type=int, default=65535)
    ap.add_argument("schedule")
    a = ap.parse_args()
    finish, events, stuck = simulate(parse(a.schedule), a.L, a.o, a.g, a.G, a.O, a.S)
    if stuck:
        print("incomplete")
        return 1
    for r, f in enumerate(finish):
        print("%d,%d" % (r, f))
    print("events,%d" % events)
    return 0


if __name__ == "__main__":
    sys.exit(main())
