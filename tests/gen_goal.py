#!/usr/bin/env python3
"""Writes a large GOAL text file for the compiler benchmark: a dissemination
pattern on P ranks with R rounds, one send and one receive per round, each
round's send requiring the previous round's receive.  Usage: gen_goal.py P R"""
import sys


def main():
    p, rounds = int(sys.argv[1]), int(sys.argv[2])
    out = sys.stdout
    out.write("num_ranks %d\n\n" % p)
    for r in range(p):
        lines = ["rank %d {\n" % r]
        for k in range(rounds):
            d = 1 << k
            lines.append("l%d: send 8b to %d tag %d\n" % (2 * k + 1, (r + d) % p, k))
            lines.append("l%d: recv 8b from %d tag %d\n" % (2 * k + 2, (r - d) % p, k))
        for k in range(1, rounds):
            lines.append("l%d requires l%d\n" % (2 * k + 1, 2 * k))
        lines.append("}\n\n")
        out.write("".join(lines))


if __name__ == "__main__":
    main()
