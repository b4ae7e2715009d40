# loggopsim: the simulator's command line, with sweeps (sweep.h: language,
# threaded runner, outputs) above the core, parameter sets (params/params.h)
# and sensitivities (analysis/).

SWEEP_SRCS := loggopsim/sweep_spec.c loggopsim/sweep_run.c loggopsim/sweep_out.c
SWEEP_OBJS := $(SWEEP_SRCS:%.c=$(B)/obj/%.o)
# What loggopsim links besides its main: what the sweep test and fuzzer link.
SIM_CLI_OBJS := $(SWEEP_OBJS) $(SENS_OBJS) $(PSETS_OBJS)

LOGGOPSIM_OBJS := $(B)/obj/loggopsim/loggopsim.o $(B)/obj/loggopsim/report.o
OBJS += $(SWEEP_OBJS) $(LOGGOPSIM_OBJS)
TOOLS += $(B)/bin/loggopsim

$(SWEEP_OBJS) $(LOGGOPSIM_OBJS): ALL_CFLAGS += $(SIM_INC) -I analysis

$(B)/bin/loggopsim: $(LOGGOPSIM_OBJS) $(SIM_CLI_OBJS) $(SIM_LIB) $(LIBTL) $(LIBGOALC) $(LIBGOAL) $(LIBPARAMS) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) -pthread $^ $(LDLIBS) -o $@

# The sweep and parameter-set test.
TEST_PROGS += $(B)/tests/sim_sweep_test
OBJS += $(B)/obj/tests/sim/sweep_test.o
$(B)/obj/tests/sim/sweep_test.o: ALL_CFLAGS += -I loggopsim -I analysis
$(B)/tests/sim_sweep_test: $(B)/obj/tests/sim/sweep_test.o $(B)/obj/tests/sim/simgen.o $(SIM_CLI_OBJS) $(SIM_LIB) $(LIBTL) $(LIBGOALC) $(LIBGOAL) $(LIBPARAMS) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) -pthread $^ $(LDLIBS) -o $@

# libFuzzer target (make fuzz builds it with SAN=fuzz): sweep files.
ifeq ($(SAN),fuzz)
OBJS += $(B)/obj/tests/fuzz/fuzz_sweep.o
$(B)/obj/tests/fuzz/fuzz_sweep.o: ALL_CFLAGS += $(SIM_INC) -I loggopsim -I analysis
$(B)/fuzz_sweep: $(B)/obj/tests/fuzz/fuzz_sweep.o $(SIM_CLI_OBJS) $(SIM_LIB) $(LIBTL) $(LIBGOALC) $(LIBGOAL) $(LIBPARAMS) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) -fsanitize=fuzzer -pthread $^ $(LDLIBS) -o $@
endif
