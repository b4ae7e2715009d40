#!/usr/bin/env python3
"""Writes small OTF2 archives for the tests of trace2goal's OTF2 reader
(docs/trace2goal.md) with the OTF2 library's Python bindings (Debian
python3-otf2), as Score-P records MPI: one location per rank, the MPI
communicator locations group, Enter and Leave of MPI_* regions with the MPI
events inside them.  Timer resolution 1 GHz (ticks are nanoseconds).

Usage: mkotf2.py SCENARIO DIR     (the anchor is DIR/traces.otf2)
  cover  4 ranks: a Send to a Recv whose event names the sender (a wildcard
         receive), Isend and Irecv completed by Waitall (MpiIsendComplete,
         MpiIrecv), an Allreduce on a communicator of ranks 1 and 3, a Bcast
         from rank 0, an Ibarrier (NonBlockingCollectiveRequest and Complete)
         around a region that is not MPI, an OpenMP fork and join and a
         measurement switch (not MPI), a region entered and never left (rank
         0) and a Leave without its Enter (rank 1)
  big N R  R ranks in a ring, N rounds of Isend, Irecv and Waitall each,
         for the conversion speed
"""
import sys

import otf2
from otf2.enums import CollectiveOp, GroupType, MeasurementMode, Paradigm, RegionRole

UNDEF = 0xffffffff


class Run:
    def __init__(self, d, nranks):
        self.w = otf2.writer.open(d, timer_resolution=1000000000)
        self.trace = self.w.__enter__()
        defs = self.trace.definitions
        node = defs.system_tree_node("node")
        self.locs = []
        for r in range(nranks):
            g = defs.location_group("MPI Rank %d" % r, system_tree_parent=node)
            self.locs.append(defs.location("Master thread", group=g))
        defs.group("", group_type=GroupType.COMM_LOCATIONS, paradigm=Paradigm.MPI,
                   members=self.locs)
        self.world = self.comm("MPI_COMM_WORLD", list(range(nranks)))
        self.regions = {}
        self.ev = [self.trace.event_writer_from_location(l) for l in self.locs]
        self.t = [1000] * nranks

    def comm(self, name, ranks):
        defs = self.trace.definitions
        g = defs.group(name + " group", group_type=GroupType.COMM_GROUP, paradigm=Paradigm.MPI,
                       members=ranks)
        return defs.comm(name, group=g)

    def region(self, name):
        if name not in self.regions:
            mpi = name.startswith("MPI_")
            self.regions[name] = self.trace.definitions.region(
                name, paradigm=Paradigm.MPI if mpi else Paradigm.USER,
                region_role=RegionRole.FUNCTION)
        return self.regions[name]

    def tick(self, r, dt=1000):
        self.t[r] += dt
        return self.t[r]

    def call(self, r, name, *events, gap=1000, dur=1000):
        """Region name on rank r, gap ns after the last event, with the
        events (method name, arguments) inside it, dur ns long."""
        w = self.ev[r]
        w.enter(self.tick(r, gap), self.region(name))
        for e in events:
            getattr(w, e[0])(self.tick(r, dur // (len(events) + 1)), *e[1:])
        w.leave(self.tick(r, dur // (len(events) + 1)), self.region(name))

    def close(self):
        self.w.__exit__(None, None, None)


def cover(d):
    run = Run(d, 4)
    w, half = run.world, run.comm("half", [1, 3])
    for r in range(4):
        run.call(r, "MPI_Init")
    # rank 0 sends 100 bytes with tag 5; rank 1's receive (from any source)
    # records the sender it matched
    run.call(0, "MPI_Send", ("mpi_send", 1, w, 5, 100))
    run.call(1, "MPI_Recv", ("mpi_recv", 0, w, 5, 100))
    # ranks 2 and 3 exchange 8 bytes: Isend, Irecv, Waitall
    for r, p in ((2, 3), (3, 2)):
        run.call(r, "MPI_Isend", ("mpi_isend", p, w, 7, 8, 1))
        run.call(r, "MPI_Irecv", ("mpi_irecv_request", 2))
        run.call(r, "MPI_Waitall", ("mpi_isend_complete", 1), ("mpi_irecv", p, w, 7, 8, 2))
    # an Allreduce of 8 bytes on ranks 1 and 3: Score-P counts 2 x 8 sent
    for r in (1, 3):
        run.call(r, "MPI_Allreduce", ("mpi_collective_begin",),
                 ("mpi_collective_end", CollectiveOp.ALLREDUCE, half, UNDEF, 16, 16))
    # a Bcast of 50 bytes from rank 0: it counts 4 x 50 sent
    for r in range(4):
        sent, recvd = (200, 50) if r == 0 else (0, 50)
        run.call(r, "MPI_Bcast", ("mpi_collective_begin",),
                 ("mpi_collective_end", CollectiveOp.BCAST, w, 0, sent, recvd))
    # an Ibarrier overlapping a region that is not MPI, completed by Wait
    for r in range(4):
        run.call(r, "MPI_Ibarrier", ("non_blocking_collective_request", 9))
        run.call(r, "compute", gap=500, dur=3000)
        run.call(r, "MPI_Wait", ("non_blocking_collective_complete", CollectiveOp.BARRIER, w,
                                 UNDEF, 0, 0, 9))
    # records that are not MPI: an OpenMP fork and join, a measurement switch
    run.ev[2].omp_fork(run.tick(2), 4)
    run.ev[2].omp_join(run.tick(2))
    run.ev[2].measurement_on_off(run.tick(2), MeasurementMode.OFF)
    run.ev[2].measurement_on_off(run.tick(2), MeasurementMode.ON)
    # rank 0 enters a region it never leaves; rank 1 leaves one it never
    # entered
    run.ev[0].enter(run.tick(0), run.region("solver"))
    run.ev[1].leave(run.tick(1), run.region("solver"))
    for r in range(4):
        run.call(r, "MPI_Finalize")
    run.close()


def big(d, n, nranks):
    run = Run(d, nranks)
    w = run.world
    for r in range(nranks):
        run.call(r, "MPI_Init")
        right, left = (r + 1) % nranks, (r - 1) % nranks
        for i in range(n):
            run.call(r, "MPI_Irecv", ("mpi_irecv_request", 2 * i + 2))
            run.call(r, "MPI_Isend", ("mpi_isend", right, w, 0, 128, 2 * i + 1))
            run.call(r, "MPI_Waitall", ("mpi_isend_complete", 2 * i + 1),
                     ("mpi_irecv", left, w, 0, 128, 2 * i + 2))
        run.call(r, "MPI_Finalize")
    run.close()


if __name__ == '__main__':
    if len(sys.argv) == 3 and sys.argv[1] == 'cover':
        cover(sys.argv[2])
    elif len(sys.argv) == 5 and sys.argv[1] == 'big':
        big(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    else:
        sys.exit(__doc__)
