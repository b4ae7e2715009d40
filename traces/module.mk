# traces: the trace reader/writer library (libtrace.a, plain C, always
# built), and, when mpicc exists, the PMPI tracing library libgoaltrace.so
# and the example MPI programs.

TRACE_SRCS := traces/trace_read.c traces/trace_write.c traces/trace_build.c traces/trace_dumpi.c \
	traces/trace_dumpi_rec.c
TRACE_OBJS := $(TRACE_SRCS:%.c=$(B)/obj/%.o)
LIBTRACE := $(B)/lib/libtrace.a

OBJS += $(TRACE_OBJS) $(B)/obj/tests/traces/trace_read_test.o \
	$(B)/obj/tests/traces/trace_check.o

$(LIBTRACE): $(TRACE_OBJS)

TEST_PROGS += $(B)/tests/trace_read_test
$(B)/tests/trace_read_test: $(B)/obj/tests/traces/trace_read_test.o $(LIBTRACE) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) $^ $(LDLIBS) -o $@

# Checker of a run's traces, used by tests/traces/run.sh.
TEST_PROGS += $(B)/tests/trace_check
$(B)/tests/trace_check: $(B)/obj/tests/traces/trace_check.o $(LIBTRACE) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) $^ $(LDLIBS) -o $@

# OTF2 archives are read through the OTF2 library (Debian package
# libopen-trace-format2-dev) when pkg-config finds it; without it the build
# works and trace2goal says that OTF2 is not supported.
HAVE_OTF2 := $(shell pkg-config --exists otf2 2>/dev/null && echo 1)
ifeq ($(HAVE_OTF2),1)
OTF2_CFLAGS := -DHAVE_OTF2 $(shell pkg-config --cflags otf2)
OTF2_LIBS := $(shell pkg-config --libs otf2)
endif

# trace2goal: traces to GOAL schedules, with schedgen's patterns for the
# collectives.  Plain C, and the OTF2 library when there is one (a run in
# any format, trace_source.c, reads through it too).
OTF2_OBJS := $(B)/obj/traces/trace_otf2.o $(B)/obj/traces/trace_otf2_events.o
T2G_OBJS := $(B)/obj/traces/trace2goal_conv.o $(B)/obj/traces/trace2goal_coll.o \
	$(B)/obj/traces/trace_source.o $(OTF2_OBJS)
$(OTF2_OBJS): ALL_CFLAGS += $(OTF2_CFLAGS)
OBJS += $(T2G_OBJS) $(B)/obj/traces/trace2goal.o
TOOLS += $(B)/bin/trace2goal
$(B)/obj/traces/trace2goal.o $(T2G_OBJS): ALL_CFLAGS += -I schedgen
$(B)/bin/trace2goal: $(B)/obj/traces/trace2goal.o $(T2G_OBJS) $(SG_OBJS) $(LIBTRACE) $(LIBGOAL) $(LIBPARAMS) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) $^ $(LDLIBS) $(OTF2_LIBS) -o $@
OBJS += $(B)/obj/tests/trace2goal/t2g_test.o
TEST_PROGS += $(B)/tests/trace2goal_test
$(B)/obj/tests/trace2goal/t2g_test.o: ALL_CFLAGS += -I schedgen -I traces -I tests
$(B)/tests/trace2goal_test: $(B)/obj/tests/trace2goal/t2g_test.o $(T2G_OBJS) $(SG_OBJS) $(LIBTRACE) $(LIBGOAL) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) $^ $(LDLIBS) $(OTF2_LIBS) -o $@

# MPI parts: built without sanitizers (the library is preloaded into MPI
# programs), position independent, with the same warnings.
MPICC ?= mpicc
HAVE_MPICC := $(shell command -v $(MPICC) >/dev/null 2>&1 && echo 1)
ifeq ($(HAVE_MPICC),1)
GOALTRACE_SO := $(B)/lib/libgoaltrace.so
MPI_CFLAGS = -std=c11 -D_GNU_SOURCE $(WARN) -O2 -g -fPIC -MMD -MP -I util
TRACE_EXAMPLES := $(B)/examples/halo $(B)/examples/msgrate $(B)/examples/manyreq \
	$(B)/examples/vector
all: $(GOALTRACE_SO) $(TRACE_EXAMPLES)

$(B)/obj/mpi/%.o: traces/%.c $(MPI_BUILD_DEPS)
	@mkdir -p $(@D)
	$(MPICC) $(MPI_CFLAGS) -c $< -o $@
GOALTRACE_OBJS := $(B)/obj/mpi/goaltrace.o $(B)/obj/mpi/goaltrace_coll.o \
	$(B)/obj/mpi/goaltrace_f.o $(B)/obj/mpi/trace_write.o
OBJS += $(GOALTRACE_OBJS)

$(GOALTRACE_SO): $(GOALTRACE_OBJS)
	@mkdir -p $(@D)
	$(MPICC) -shared -fPIC $^ -o $@

$(B)/obj/mpi/examples/%.o: traces/examples/%.c $(MPI_BUILD_DEPS)
	@mkdir -p $(@D)
	$(MPICC) $(MPI_CFLAGS) -c $< -o $@
OBJS += $(B)/obj/mpi/examples/halo.o $(B)/obj/mpi/examples/msgrate.o \
	$(B)/obj/mpi/examples/manyreq.o $(B)/obj/mpi/examples/vector.o

$(B)/examples/%: $(B)/obj/mpi/examples/%.o
	@mkdir -p $(@D)
	$(MPICC) $< -lm -o $@

# A Fortran test program for the tracer's Fortran bindings, when mpif90 (and
# so gfortran) is there.
MPIF90 ?= mpif90
HAVE_MPIF90 := $(shell command -v $(MPIF90) >/dev/null 2>&1 && echo 1)
ifeq ($(HAVE_MPIF90),1)
all: $(B)/examples/fring
$(B)/examples/fring: traces/examples/fring.f90 $(MPI_BUILD_DEPS)
	@mkdir -p $(@D)
	$(MPIF90) -O2 -Wall -Werror $< -o $@
endif
endif

# libFuzzer targets (make fuzz builds them with SAN=fuzz): the text reader,
# the conversion on top of it, the DUMPI reader with its conversion, and
# the OTF2 reader from an archive's anchor.
ifeq ($(SAN),fuzz)
OBJS += $(B)/obj/tests/fuzz/fuzz_trace.o $(B)/obj/tests/fuzz/fuzz_t2g.o \
	$(B)/obj/tests/fuzz/fuzz_dumpi.o $(B)/obj/tests/fuzz/fuzz_otf2.o
$(B)/obj/tests/fuzz/fuzz_trace.o: ALL_CFLAGS += -I traces
$(B)/fuzz_trace: $(B)/obj/tests/fuzz/fuzz_trace.o $(LIBTRACE) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) -fsanitize=fuzzer $^ $(LDLIBS) -o $@
$(B)/obj/tests/fuzz/fuzz_t2g.o: ALL_CFLAGS += -I traces -I schedgen
$(B)/fuzz_t2g: $(B)/obj/tests/fuzz/fuzz_t2g.o $(T2G_OBJS) $(SG_OBJS) $(LIBTRACE) $(LIBGOAL) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) -fsanitize=fuzzer $^ $(LDLIBS) $(OTF2_LIBS) -o $@
$(B)/obj/tests/fuzz/fuzz_dumpi.o: ALL_CFLAGS += -I traces -I schedgen
$(B)/fuzz_dumpi: $(B)/obj/tests/fuzz/fuzz_dumpi.o $(T2G_OBJS) $(SG_OBJS) $(LIBTRACE) $(LIBGOAL) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) -fsanitize=fuzzer $^ $(LDLIBS) $(OTF2_LIBS) -o $@
$(B)/obj/tests/fuzz/fuzz_otf2.o: ALL_CFLAGS += -I traces
$(B)/fuzz_otf2: $(B)/obj/tests/fuzz/fuzz_otf2.o $(OTF2_OBJS) $(LIBTRACE) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) -fsanitize=fuzzer $^ $(LDLIBS) $(OTF2_LIBS) -o $@
endif
