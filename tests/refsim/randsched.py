#!/usr/bin/env python3
"""randsched.py SEED: a random small GOAL schedule and a loggopsim command
line for it, exercising every rule of the semantics: eager and rendezvous
messages, 0-byte messages, self-sends, any-source and any-tag receives (any
tag also spelled 18446744073709551615), comms (a receive rarely in another
comm than its send, where no wildcard may take the message),
requires and irequires (several per op, across CPUs), calcs (rarely ones that
take the time past 2^64 - 1 ns), up to three CPUs and NICs per rank (indices up to 65535), size
ranges, parameter sets where many times are equal, (in a quarter of
them) periodic noise and slow ranks, and (in a fifth) strided sends and
receives, mostly under a parameter file with middleware costs per stride.
The text uses every form the compiler accepts: custom, canonical and missing
labels, fields in any order, comments (a block comment may span lines inside
a statement), dependencies before the ops they name, repeated dependency
lines, `}` on the last statement's line, CRLF line ends.

Each send has one receive that can match it; dependencies point backwards in
a rank's list, which is in message order, so a run completes unless wildcards
take a message meant for another receive (then both simulators must say so).

Prints the schedule; with --args, prints the loggopsim options instead (a
`-p FILE` option names FILE as given by --params-file, whose text --params
prints; --strides prints that of the file with strides).
"""
import random
import sys

SIZES = [0, 1, 2, 8, 100, 101, 1000, 65535, 65536, 70000]
CALCS = [0, 1, 10, 100, 500, 1000, 3000]
# Parameter sets: the defaults, fractional rates, small S, all zero, and sets
# where o, g, L and the calcs coincide so that many events tie.
PARAMS = [
    [],
    ["-L", "100", "-o", "2000", "-g", "50", "-G", "0.4", "-O", "0.25"],
    ["-L", "9000", "-o", "10", "-g", "3000", "-G", "2.5", "-O", "1.5", "-S", "100"],
    ["-S", "0", "-G", "0", "-O", "3"],
    ["-L", "0", "-o", "0", "-g", "0", "-G", "0", "-O", "0"],
    ["-L", "100", "-o", "100", "-g", "100", "-G", "0", "-O", "0", "-S", "100"],
    ["-L", "1000", "-o", "500", "-g", "1000", "-G", "1", "-O", "1", "-S", "1000"],
    ["-L", "10", "-o", "1", "-g", "1000", "-G", "10", "-O", "0"],
]
RANGES = """loggp-params 1
# three ranges; S inside the second
S 1000
range 0 8 L=100 o=10 g=20 G=1 O=0
range 9 65535 L=1000 o=50 g=5 G=0.5 O=2
range 65536 inf L=10 o=500 g=100 G=0.25 O=0.125
"""
# Strided schedules: strides below, at, between and above those of the
# file (a stride below 8 needs a block of its own).
STRIDED = """loggp-params 1
# two ranges and three strides
S 1000
range 0 100 L=100 o=10 g=20 G=1 O=0
range 101 inf L=1000 o=50 g=5 G=0.5 O=2
stride 8 o_mw=5 O_mw=0 l_mw=0 L_mw=0
stride 64 o_mw=40 O_mw=0.25 l_mw=300 L_mw=0.125
stride 1024 o_mw=0 O_mw=1.5 l_mw=2000 L_mw=0
"""
# Within nodes (--intra-params, docs/semantics.md section 12): cheaper.
INTRA = """loggp-params 1
# two ranges within a node
range 0 16 L=5 o=3 g=2 G=0.125 O=0
range 17 inf L=50 o=20 g=10 G=0.0625 O=0.5
"""
STRIDES = [1, 4, 8, 16, 64, 100, 1024, 4096]

NAMES = ["a", "b", "x_1", "send_2", "to", "tag", "cpu", "nic", "comm", "from", "_q", "l0", "L9", "op"]


class Rank:
    def __init__(self):
        self.ops = []      # op texts (without label)
        self.pair = {}     # the text of a self-send's recv -> its send's text

    def add(self, text, pos=None):
        if pos is None:
            self.ops.append(text)
        else:
            self.ops.insert(pos, text)


def fields(rng, pairs):
    """The optional fields in a random order, defaults sometimes left out."""
    out = [" %s %d" % (k, v) for k, v in pairs if v != 0 or rng.random() < 0.5]
    rng.shuffle(out)
    return out


def send_text(rng, size, peer, tag, cpu, nic, comm):
    b = "b" if rng.random() < 0.8 else ""
    f = fields(rng, [("tag", tag), ("cpu", cpu), ("nic", nic), ("comm", comm)])
    k = rng.randint(0, len(f))
    return "send %d%s%s to %d%s" % (size, b, "".join(f[:k]), peer, "".join(f[k:]))


def recv_text(rng, size, peer, tag, cpu, nic, comm):
    b = "b" if rng.random() < 0.8 else ""
    if tag == -1 and rng.random() < 0.3:
        tag = 2**64 - 1                             # the published tool's any tag
    f = fields(rng, [("tag", tag), ("cpu", cpu), ("nic", nic), ("comm", comm)])
    k = rng.randint(0, len(f))
    return "recv %d%s%s from %d%s" % (size, b, "".join(f[:k]), peer, "".join(f[k:]))


def add_strides(rng, ranks):
    """Give some sends and receives a stride (and sometimes a block); a
    self-send's pair follows its texts."""
    for rk in ranks:
        new = {}
        for i, text in enumerate(rk.ops):
            if text.startswith("calc") or rng.random() < 0.5:
                continue
            d = rng.choice(STRIDES)
            f = " stride %d" % d
            if d < 8 or rng.random() < 0.3:
                f += " block %d" % rng.randint(1, d)
            new[text] = rk.ops[i] = text + f
        rk.pair = {new.get(r, r): new.get(x, x) for r, x in rk.pair.items()}


def generate(seed, nodes=True):
    """(schedule text, loggopsim options) of a seed.  Options may contain
    "@PARAMS", to be replaced by the path of a file holding RANGES,
    "@STRIDES", of one holding STRIDED, and (nodes: one seed in five puts
    the ranks on nodes) "@INTRA", of one holding INTRA."""
    rng = random.Random(seed)
    P = rng.randint(1, 6)
    ranks = [Rank() for _ in range(P)]
    # CPU and NIC indices: 0..2, or sometimes large ones (the simulator
    # keeps indices from 4 on outside its per-rank records).
    cpus = rng.choice([[0], [0], [0, 1], [0, 1, 2], [0, 5, 65535], [3, 4]])
    nics = rng.choice([[0], [0], [0, 1], [0, 1, 2], [0, 4, 65535], [7]])
    # Comms: most schedules have only comm 0 (the simulator's fast path).
    comms = rng.choice([[0], [0], [0], [0, 1], [0, 1, 2], [5, 4294967294]])
    nmsg = rng.randint(0, 4 * P + 2)
    for _ in range(nmsg):
        a = rng.randrange(P)
        b = a if rng.random() < 0.15 else rng.randrange(P)
        size = rng.choice(SIZES)
        tag = len(ranks[b].ops)                     # unique per receiver
        comm = rng.choice(comms)
        send = send_text(rng, size, b, tag, rng.choice(cpus), rng.choice(nics), comm)
        ranks[a].add(send)
        src = -1 if rng.random() < 0.08 else a
        rtag = -1 if rng.random() < 0.06 else tag
        rcomm = rng.choice(comms) if rng.random() < 0.05 else comm
        recv = recv_text(rng, size, src, rtag, rng.choice(cpus), rng.choice(nics), rcomm)
        ranks[b].add(recv)
        if a == b:
            ranks[a].pair[recv] = send
    for rk in ranks:
        for _ in range(rng.randint(0, 4)):
            c = rng.choice(cpus)
            f = " cpu %d" % c if c or rng.random() < 0.3 else ""
            d = rng.choice(CALCS) if rng.random() < 0.995 else 2**64 - rng.choice([1, 5000, 2**40])
            rk.add("calc %d%s" % (d, f), rng.randint(0, len(rk.ops)))
    if rng.random() < 0.15:
        args = ["-p", "@PARAMS"] + rng.choice([[], ["-L", "0"], ["-S", "10"], ["-G", "0"]])
    else:
        args = list(PARAMS[rng.randrange(len(PARAMS))])
    srng = random.Random(seed * 104729 + 7)        # the other draws stay as they were
    if srng.random() < 0.2:
        add_strides(srng, ranks)
        if srng.random() < 0.8:
            args = ["-p", "@STRIDES"] + srng.choice([[], [], ["-L", "0"], ["-o", "0"], ["-S", "10"]])
    text = render(rng, ranks)
    nrng = random.Random(seed * 15485863 + 3)      # nodes, drawn apart too
    if nodes and nrng.random() < 0.2:
        args += ["--ranks-per-node", str(nrng.choice([2, 3, 4])), "--intra-params", "@INTRA"]
    return text, args + perturb(random.Random(seed * 7919 + 1), P)


# Periods of synthetic noise (ns; 10^9 / FREQ exactly).
PERIODS = [64, 500, 1000, 4000, 20000]


def perturb(rng, P):
    """Noise and slow-rank options for a quarter of the schedules
    (docs/noise.md): periodic detours of any length below the period, read
    from each rank's own offset, one for all, or a given one, under either
    rule; and stretched ranks."""
    args = []
    if rng.random() < 0.25:
        T = rng.choice(PERIODS)
        d = rng.choice([1, 10, T // 4, T // 2, T - 1])
        args += ["--noise", "periodic:%d,%d" % (10**9 // T, d)]
        how = rng.randrange(3)
        if how == 0:
            args += ["--seed", str(rng.randrange(1000))]
        elif how == 1:
            args += ["--noise-cosched", "--seed", str(rng.randrange(1000))]
        else:
            args += ["--noise-offset", str(rng.randrange(3 * T))]
        if rng.random() < 0.3:
            args += ["--noise-rule", "published"]
    if rng.random() < 0.2:
        ranks = sorted(rng.sample(range(P), rng.randint(1, P)))
        args += ["--slow", "%s:%s" % (",".join(map(str, ranks)), rng.choice(["0.5", "1.25", "2", "3.333"]))]
    return args


def render(rng, ranks):
    crlf = rng.random() < 0.1
    out = ["// random schedule", "num_ranks %d" % len(ranks)]
    for r, rk in enumerate(ranks):
        n = len(rk.ops)
        # A self-send's recv never depends on its send, even through other
        # ops (a rendezvous send completes only when the recv is posted).
        deps = []
        anc = [set() for _ in range(n)]
        for i in range(1, n):
            send = rk.pair.get(rk.ops[i])
            for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
                j = rng.randrange(i)
                if send is not None and (rk.ops[j] == send or any(rk.ops[x] == send for x in anc[j])):
                    continue
                anc[i] |= anc[j] | {j}
                deps.append((i, "irequires" if rng.random() < 0.25 else "requires", j))
        if deps and rng.random() < 0.2:
            deps.append(rng.choice(deps))           # a repeated line
        # Labels: canonical, custom (unique) or none (for ops in no dependency).
        style = rng.choice(["canonical", "canonical", "custom", "mixed"])
        used = {i for i, _, _ in deps} | {j for _, _, j in deps}
        labels = []
        pool = rng.sample(NAMES, len(NAMES))
        for i in range(n):
            if style == "canonical":
                lab = "l%d" % (i + 1)
            elif style == "custom":
                lab = pool[i] if i < len(pool) else "n%d" % i
            else:
                lab = rng.choice(["l%d" % (i + 1), "m%d" % i, None])
            if lab is None and (i in used or rng.random() < 0.5):
                lab = "z%d" % i
            labels.append(lab)
        lines = []
        for i, op in enumerate(rk.ops):
            if rng.random() < 0.1:
                op = op.replace(" ", " /* a\ncomment */ ", 1)
            lines.append(("%s: %s" % (labels[i], op)) if labels[i] else op)
        deplines = ["%s %s %s" % (labels[a], how, labels[b]) for a, how, b in deps]
        for d in deplines:                          # some dependencies go first
            lines.insert(rng.randint(0, len(lines)) if rng.random() < 0.3 else len(lines), d)
        out.append("rank %d {" % r)
        for ln in lines:
            if rng.random() < 0.05:
                out.append("")
            out.append(("\t" if rng.random() < 0.2 else "") + ln + ("  // c" if rng.random() < 0.05 else ""))
        if lines and "//" not in out[-1] and rng.random() < 0.2:
            out[-1] += " }"
        else:
            out.append("}")
    return ("\r\n" if crlf else "\n").join(out) + ("\r\n" if crlf else "\n")


def main():
    seed = int(sys.argv[1])
    text, args = generate(seed)
    if "--args" in sys.argv:
        print(" ".join(args))
    elif "--params" in sys.argv:
        sys.stdout.write(RANGES)
    elif "--strides" in sys.argv:
        sys.stdout.write(STRIDED)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
