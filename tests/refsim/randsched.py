#!/usr/bin/env python3
"""randsched.py SEED: a random small GOAL schedule exercising every rule of
the semantics: eager and rendezvous messages, 0-byte messages, any-source and
any-tag receives, requires and irequires, calcs, two CPUs and two NICs.  Each
send has one receive that can match it; dependencies only point backwards in
a rank and to ops of earlier messages, so a run completes unless wildcards
take a message meant for another receive (then both sides must say so)."""
import random
import sys


def main():
    rng = random.Random(int(sys.argv[1]))
    P = rng.randint(2, 6)
    ranks = [[] for _ in range(P)]
    nmsg = rng.randint(1, 4 * P)
    sizes = [0, 1, 2, 8, 100, 1000, 65535, 65536, 70000]
    multi = rng.random() < 0.3     # several CPUs and NICs
    for _ in range(nmsg):
        a, b = rng.randrange(P), rng.randrange(P)
        size, tag = rng.choice(sizes), len(ranks[b])  # unique per receiver
        cpu = rng.randint(0, 1) if multi else 0
        nic = rng.randint(0, 1) if multi else 0
        ranks[a].append("send %db to %d tag %d cpu %d nic %d" % (size, b, tag, cpu, nic))
        src = -1 if rng.random() < 0.2 else a
        rtag = -1 if rng.random() < 0.1 else tag
        rcpu = rng.randint(0, 1) if multi else 0
        ranks[b].append("recv %db from %d tag %d cpu %d" % (size, src, rtag, rcpu))
    for ops in ranks:
        for _ in range(rng.randint(0, 3)):
            ops.insert(rng.randint(0, len(ops)), "calc %d cpu %d" % (rng.choice([0, 1, 500, 3000]), rng.randint(0, 1) if multi else 0))
    out = ["num_ranks %d" % P]
    for r, ops in enumerate(ranks):
        out.append("rank %d {" % r)
        for i, op in enumerate(ops):
            out.append("l%d: %s" % (i + 1, op))
        for i in range(1, len(ops)):
            for _ in range(rng.randint(0, 2)):
                j = rng.randrange(i)
                how = "irequires" if rng.random() < 0.25 else "requires"
                out.append("l%d %s l%d" % (i + 1, how, j + 1))
        out.append("}")
    print("\n".join(out))


if __name__ == "__main__":
    main()
