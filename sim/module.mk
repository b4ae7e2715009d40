# sim: the LogGOPS simulation core (event queue, engine) and the
# loggopsim tool.

SIM_SRCS := sim/evq.c sim/sim.c sim/sim_create.c sim/sim_stuck.c sim/sim_cpath.c sim/noise.c sim/flow.c sim/topo.c
SIM_OBJS := $(SIM_SRCS:%.c=$(B)/obj/%.o)
SIM_LIB := $(B)/lib/libsim.a

# The command-line layer: parameter sets (the parameter file is read by
# libparams) and sweeps (threads).
SIM_CLI_SRCS := sim/params.c sim/sweep_spec.c sim/sweep_run.c sim/sweep_out.c sim/sens.c
SIM_CLI_OBJS := $(SIM_CLI_SRCS:%.c=$(B)/obj/%.o)

OBJS += $(SIM_OBJS) $(SIM_CLI_OBJS) $(B)/obj/sim/loggopsim.o
TOOLS += $(B)/bin/loggopsim

$(SIM_OBJS) $(SIM_CLI_OBJS) $(B)/obj/sim/loggopsim.o: ALL_CFLAGS += -I timeline

$(SIM_LIB): $(SIM_OBJS)

# Dot files (--network-file) are read with Graphviz's cgraph
# (libgraphviz-dev) when pkg-config finds it; without it the build works
# and --network-file says why it cannot.
HAVE_CGRAPH := $(shell pkg-config --exists libcgraph 2>/dev/null && echo 1)
ifeq ($(HAVE_CGRAPH),1)
$(B)/obj/sim/topo.o: ALL_CFLAGS += -DHAVE_CGRAPH $(shell pkg-config --cflags libcgraph)
LDLIBS += $(shell pkg-config --libs libcgraph)
endif

$(B)/bin/loggopsim: $(B)/obj/sim/loggopsim.o $(SIM_CLI_OBJS) $(SIM_LIB) $(LIBTL) $(LIBGOALC) $(LIBGOAL) $(LIBPARAMS) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) -pthread $^ $(LDLIBS) -o $@

# Unit tests: tests/sim/NAME_test.c -> $(B)/tests/sim_NAME_test
SIM_TESTS := evq core flow topo
TEST_PROGS += $(SIM_TESTS:%=$(B)/tests/sim_%_test)
OBJS += $(SIM_TESTS:%=$(B)/obj/tests/sim/%_test.o) $(B)/obj/tests/sim/simgen.o

$(B)/obj/tests/sim/%.o: ALL_CFLAGS += -I sim -I timeline -I tests
$(B)/tests/sim_%_test: $(B)/obj/tests/sim/%_test.o $(B)/obj/tests/sim/simgen.o $(SIM_LIB) $(LIBTL) $(LIBGOAL) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) $^ $(LDLIBS) -o $@

# Large schedules for the benchmark (writer API), until schedgen covers them
# (the incast): built with everything, beside the tests, not installed.
all: $(B)/tests/sim-gen
$(B)/tests/sim-gen: $(B)/obj/tests/sim/simgen_main.o $(B)/obj/tests/sim/simgen.o $(LIBGOAL) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) $^ $(LDLIBS) -o $@
OBJS += $(B)/obj/tests/sim/simgen_main.o
# The bound on events that touch memory in no order (docs/noise.md, Speed).
all: $(B)/tests/mem-probe
$(B)/tests/mem-probe: $(B)/obj/tests/sim/memprobe.o $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) $^ $(LDLIBS) -o $@
OBJS += $(B)/obj/tests/sim/memprobe.o

# The sweep and parameter-set test links the command-line layer as well.
TEST_PROGS += $(B)/tests/sim_sweep_test
OBJS += $(B)/obj/tests/sim/sweep_test.o
$(B)/tests/sim_sweep_test: $(B)/obj/tests/sim/sweep_test.o $(B)/obj/tests/sim/simgen.o $(SIM_CLI_OBJS) $(SIM_LIB) $(LIBTL) $(LIBGOAL) $(LIBPARAMS) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) -pthread $^ $(LDLIBS) -o $@

# libFuzzer targets (make fuzz builds them with SAN=fuzz): sweeps, noise,
# topologies and mappings, dot files.
ifeq ($(SAN),fuzz)
OBJS += $(B)/obj/tests/fuzz/fuzz_noise.o
$(B)/obj/tests/fuzz/fuzz_noise.o: ALL_CFLAGS += -I sim -I timeline
$(B)/fuzz_noise: $(B)/obj/tests/fuzz/fuzz_noise.o $(SIM_LIB) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) -fsanitize=fuzzer $^ $(LDLIBS) -o $@
OBJS += $(B)/obj/tests/fuzz/fuzz_sweep.o
$(B)/obj/tests/fuzz/fuzz_sweep.o: ALL_CFLAGS += -I sim -I timeline
$(B)/fuzz_sweep: $(B)/obj/tests/fuzz/fuzz_sweep.o $(SIM_CLI_OBJS) $(SIM_LIB) $(LIBTL) $(LIBGOAL) $(LIBPARAMS) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) -fsanitize=fuzzer -pthread $^ $(LDLIBS) -o $@
OBJS += $(B)/obj/tests/fuzz/fuzz_topo.o
$(B)/obj/tests/fuzz/fuzz_topo.o: ALL_CFLAGS += -I sim
$(B)/fuzz_topo: $(B)/obj/tests/fuzz/fuzz_topo.o $(SIM_LIB) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) -fsanitize=fuzzer $^ $(LDLIBS) -o $@
OBJS += $(B)/obj/tests/fuzz/fuzz_dot.o
$(B)/obj/tests/fuzz/fuzz_dot.o: ALL_CFLAGS += -I sim
$(B)/fuzz_dot: $(B)/obj/tests/fuzz/fuzz_dot.o $(SIM_LIB) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) -fsanitize=fuzzer $^ $(LDLIBS) -o $@
endif
