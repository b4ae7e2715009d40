# core: the LogGOPS simulation core (event queue, matching, CPUs and NICs;
# sim.h), in libsim with the networks (network/) and noise (perturb/) it
# drives.

SIM_SRCS := core/evq.c core/sim.c core/sim_create.c core/sim_stuck.c core/sim_cpath.c \
            core/sim_merge.c
SIM_OBJS := $(SIM_SRCS:%.c=$(B)/obj/%.o)
SIM_LIB := $(B)/lib/libsim.a
OBJS += $(SIM_OBJS)

$(SIM_OBJS): ALL_CFLAGS += $(SIM_INC)

$(SIM_LIB): $(SIM_OBJS) $(NET_OBJS) $(NOISE_OBJS)

# Unit tests: tests/sim/NAME_test.c -> $(B)/tests/sim_NAME_test
SIM_TESTS := evq core flow topo
TEST_PROGS += $(SIM_TESTS:%=$(B)/tests/sim_%_test)
OBJS += $(SIM_TESTS:%=$(B)/obj/tests/sim/%_test.o) $(B)/obj/tests/sim/simgen.o

$(B)/obj/tests/sim/%.o: ALL_CFLAGS += $(SIM_INC) -I tests
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
