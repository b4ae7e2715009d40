#!/usr/bin/env python3
"""Writes small SST-DUMPI traces for the tests of trace2goal's DUMPI reader
(docs/trace2goal.md): a .meta file and one big-endian .bin file per rank,
laid out as libdumpi writes them (magic, record stream, header, footer with
the call counts, datatype sizes, index).

Usage: mkdumpi.py SCENARIO DIR
  comm   4 ranks: MPI_Comm_create of ranks 2 and 3 with an MPI_Bcast on
         it, MPI_Comm_split by rank parity (keys reverse the order) with an
         MPI_Allreduce on each half, a Send to an MPI_ANY_SOURCE Recv whose
         status names the sender, Isend/Irecv completed by Waitall and by a
         Test loop, a Sendrecv, a profiled (not MPI) function, an MPI_Win_fence
  big N R  R ranks in a ring, N rounds of Irecv + Isend + Waitall each
         (3 records a round), for the conversion speed
  resplit  2 ranks: MPI_Comm_split of the world, then of that
         communicator onto its own handle (keys reverse the order), an
         MPI_Bcast from its rank 0 (world rank 1) on it
  negative 2 ranks: rank 0 sends rank 1 a count of -5 ints (a damaged
         trace), then 4 ints
"""
import struct
import sys

MAGIC = 0xffaadd44554d5049
FOOT_MAGIC = 0xf007fee7
NFUNCS = 290              # MPI functions, and the sentinel after them
FN_ENTER, FN_EXIT, END = 291, 292, 293

# name: (label, layout) of the calls used here (layout letters as in
# readers/trace_dumpi_rec.c)
FUNCS = {
    'Send': (0, 'ihiih'), 'Recv': (1, 'ihiihs'), 'Isend': (8, 'ihiihr'),
    'Irecv': (12, 'ihiihr'), 'Test': (14, 'ris'), 'Waitall': (18, 'iaS'),
    'Sendrecv': (33, 'ihiiihiihs'), 'Barrier': (52, 'h'), 'Bcast': (53, 'ihih'),
    'Allreduce': (65, 'ihbh'), 'Comm_group': (72, 'hh'), 'Group_incl': (76, 'hiah'),
    'Comm_rank': (82, 'hi'), 'Comm_create': (85, 'hhh'), 'Comm_split': (86, 'hiih'),
    'Init': (124, ''), 'Finalize': (125, ''), 'Win_fence': (146, 'bh'),
}
# datatype sizes by id (MPI_BYTE is 5, MPI_INT 9, MPI_DOUBLE 14)
SIZES = [0, 0, 1, 1, 1, 1, 4, 2, 2, 4, 4, 4, 4, 4, 8, 16, 0, 8, 8, 1, 0, 0, 8, 12, 8, 6, 8, 20]
BYTE, INT, DOUBLE = 5, 9, 14
WORLD, SELF, NULL = 2, 3, 1


class Rank:
    """The records of one rank; times advance 1 us per call and 1 us (or
    gap us) between calls."""

    def __init__(self):
        self.out = bytearray()
        self.t = 1000.0
        self.counts = [0] * (NFUNCS + 1)
        self.n = 0

    def _head(self, label, start, end):
        self.out += struct.pack('>HBH', label, 0x49, 0)  # statuses, wall time, thread
        for us in (start, end):
            s = int(us // 1e6)
            self.out += struct.pack('>HI', s, int(round((us - s * 1e6) * 1000)))

    def call(self, name, *args, gap=1.0, dur=1.0):
        label, layout = FUNCS[name]
        start = self.t + gap
        self.t = start + dur
        self._head(label, start, self.t)
        if name == 'Init':
            self.out += struct.pack('>ii', 1, 4) + b'prog'
        vals = iter(args)
        for ch in layout:
            v = next(vals)
            if ch in 'ir':
                self.out += struct.pack('>i', v)
            elif ch == 'h':
                self.out += struct.pack('>H', v)
            elif ch == 'b':
                self.out += struct.pack('>B', v)
            elif ch == 'a':
                self.out += struct.pack('>i%di' % len(v), len(v), *v)
            elif ch in 'sS':
                # statuses: (bytes, source, tag) each
                self.out += struct.pack('>i', len(v))
                for b, src, tag in v:
                    self.out += struct.pack('>iiBBi', b, src, 0, 0, tag)
        self.counts[label] += 1
        self.n += 1

    def profiled(self, addr):
        """The entry and exit of a profiled function that is not MPI."""
        for label in (FN_ENTER, FN_EXIT):
            self.t += 1.0
            self._head(label, self.t, self.t)
            self.out += struct.pack('>Q', addr)

    def file(self):
        b = bytearray(struct.pack('>Q', MAGIC))
        body = len(b)
        b += struct.pack('>II', 0, 0) + self.out + struct.pack('>H', END)
        header = len(b)
        host, user = b'node', b'<none>'
        b += bytes([1, 1, 0]) + struct.pack('>Q', 1385157238)
        b += struct.pack('>H', len(host)) + host + struct.pack('>H', len(user)) + user
        b += struct.pack('>i', 0)                       # no mesh
        footer = len(b)
        b += struct.pack('>Q', FOOT_MAGIC) + struct.pack('>%dI' % (NFUNCS + 1), *self.counts)
        b += struct.pack('>%dI' % (NFUNCS + 1), *([0] * (NFUNCS + 1)))
        sizes = len(b)
        b += struct.pack('>i%di' % len(SIZES), len(SIZES), *SIZES)
        b += struct.pack('>8Q', MAGIC, sizes, 0, 0, header, body, footer, 0)
        return bytes(b)


def write(d, prefix, ranks):
    with open('%s/%s.meta' % (d, prefix), 'w') as f:
        f.write('hostname=node\nnumprocs=%d\nusername=<none>\nstartime=1385157238\n'
                'fileprefix=%s\nversion=1\nsubversion=1\nsubsubversion=0\n' % (len(ranks), prefix))
    for r, rk in enumerate(ranks):
        with open('%s/%s-%04d.bin' % (d, prefix, r), 'wb') as f:
            f.write(rk.file())


def comm(d):
    rs = [Rank() for _ in range(4)]
    for r, k in enumerate(rs):
        k.call('Init')
        k.call('Comm_rank', WORLD, r)
        # group 4 = world ranks 2 and 3; communicator 4 on them
        k.call('Comm_group', WORLD, 3)
        k.call('Group_incl', 3, 2, [2, 3], 4)
        k.call('Comm_create', WORLD, 4, 4 if r >= 2 else NULL)
        if r >= 2:
            # 100 bytes from communicator rank 0 (world rank 2)
            k.call('Bcast', 100, BYTE, 0, 4)
        # halves by parity, keys -rank: [2, 0] and [3, 1]
        k.call('Comm_split', WORLD, r % 2, -r, 5)
        k.call('Allreduce', 2, INT, 3, 5)
        k.profiled(0x400000 + r)
    # rank 0 sends 10 bytes with tag 7 to rank 1's wildcard receive
    rs[0].call('Send', 10, BYTE, 1, 7, WORLD)
    rs[1].call('Recv', 10, BYTE, -1, 7, WORLD, [(10, 0, 7)])
    # ranks 2 and 3 exchange 3 doubles (Isend, Irecv, Waitall); rank 3
    # completes its receive by a Test loop (two failed tests, then one)
    rs[2].call('Irecv', 3, DOUBLE, 3, 1, WORLD, 20)
    rs[2].call('Isend', 3, DOUBLE, 3, 1, WORLD, 21)
    rs[2].call('Waitall', 2, [20, 21], [(24, 3, 1), (0, 0, 0)])
    rs[3].call('Isend', 3, DOUBLE, 2, 1, WORLD, 30)
    rs[3].call('Irecv', 3, DOUBLE, 2, 1, WORLD, 31)
    rs[3].call('Test', 31, 0, [])
    rs[3].call('Test', 31, 0, [])
    rs[3].call('Test', 31, 1, [(24, 2, 1)])
    rs[3].call('Waitall', 1, [30], [])
    # ranks 0 and 1: a Sendrecv of 4 ints each way
    rs[0].call('Sendrecv', 4, INT, 1, 9, 4, INT, 1, 9, WORLD, [(16, 1, 9)])
    rs[1].call('Sendrecv', 4, INT, 0, 9, 4, INT, 0, 9, WORLD, [(16, 0, 9)])
    rs[0].call('Win_fence', 0, 1)
    for k in rs:
        k.call('Barrier', WORLD)
        k.call('Finalize')
    write(d, 'comm', rs)


def resplit(d):
    rs = [Rank() for _ in range(2)]
    for r, k in enumerate(rs):
        k.call('Init')
        k.call('Comm_rank', WORLD, r)
        k.call('Comm_split', WORLD, 0, r, 5)
        k.call('Comm_split', 5, 0, -r, 5)
        k.call('Bcast', 100, BYTE, 0, 5)
        k.call('Finalize')
    write(d, 'resplit', rs)


def negative(d):
    rs = [Rank() for _ in range(2)]
    for r, k in enumerate(rs):
        k.call('Init')
        for count in (-5, 4):
            if r == 0:
                k.call('Send', count, INT, 1, 7, WORLD)
            else:
                k.call('Recv', count, INT, 0, 7, WORLD, [(4 * max(count, 0), 0, 7)])
        k.call('Finalize')
    write(d, 'negative', rs)


def big(d, n, nranks):
    rs = []
    for r in range(nranks):
        k = Rank()
        k.call('Init')
        right, left = (r + 1) % nranks, (r - 1) % nranks
        for i in range(n):
            k.call('Irecv', 128, BYTE, left, 0, WORLD, 2)
            k.call('Isend', 128, BYTE, right, 0, WORLD, 3)
            k.call('Waitall', 2, [2, 3], [])
        k.call('Finalize')
        rs.append(k)
    write(d, 'big', rs)


if __name__ == '__main__':
    if len(sys.argv) >= 3 and sys.argv[1] == 'comm':
        comm(sys.argv[2])
    elif len(sys.argv) >= 3 and sys.argv[1] == 'resplit':
        resplit(sys.argv[2])
    elif len(sys.argv) >= 3 and sys.argv[1] == 'negative':
        negative(sys.argv[2])
    elif len(sys.argv) == 5 and sys.argv[1] == 'big':
        big(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    else:
        sys.exit(__doc__)
