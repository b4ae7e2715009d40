# loggp: the LogGP estimator (plain C: fits, protocol detection, PRTT
# files; the parameter file is libparams'), the loggp-fit tool, and, when
# mpicc exists, the MPI measurement program loggp-measure.

LOGGP_SRCS := loggp/loggp_fit.c loggp/loggp_raw.c loggp/loggp_report.c
LOGGP_OBJS := $(LOGGP_SRCS:%.c=$(B)/obj/%.o)
LIBLOGGP := $(B)/lib/libloggp.a

OBJS += $(LOGGP_OBJS) $(B)/obj/loggp/loggp_fit_main.o
TOOLS += $(B)/bin/loggp-fit

$(LIBLOGGP): $(LOGGP_OBJS)

$(B)/bin/loggp-fit: $(B)/obj/loggp/loggp_fit_main.o $(LIBLOGGP) $(LIBPARAMS) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) $^ $(LDLIBS) -o $@

# Unit tests: tests/loggp/NAME_test.c -> $(B)/tests/loggp_NAME_test
LOGGP_TESTS := fit raw
TEST_PROGS += $(LOGGP_TESTS:%=$(B)/tests/loggp_%_test)
OBJS += $(LOGGP_TESTS:%=$(B)/obj/tests/loggp/%_test.o)
$(B)/obj/tests/loggp/%.o: ALL_CFLAGS += -I loggp -I tests
$(B)/tests/loggp_%_test: $(B)/obj/tests/loggp/%_test.o $(LIBLOGGP) $(LIBPARAMS) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) $^ $(LDLIBS) -o $@

# libFuzzer target (make fuzz builds it with SAN=fuzz).
ifeq ($(SAN),fuzz)
$(B)/obj/tests/fuzz/fuzz_loggp.o: ALL_CFLAGS += -I loggp
$(B)/fuzz_loggp: $(B)/obj/tests/fuzz/fuzz_loggp.o $(LIBLOGGP) $(LIBPARAMS) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) -fsanitize=fuzzer $^ $(LDLIBS) -o $@
endif

# The MPI program: built with mpicc (no sanitizers: it runs under mpirun),
# same warnings; the estimator (with params and util) is compiled into it
# again with mpicc.
LOGGP_MPICC ?= mpicc
LOGGP_HAVE_MPICC := $(shell command -v $(LOGGP_MPICC) >/dev/null 2>&1 && echo 1)
ifeq ($(LOGGP_HAVE_MPICC),1)
LOGGP_MPI_CFLAGS = -std=c11 -D_GNU_SOURCE $(WARN) -O2 -g -MMD -MP -I util -I params -I $(B)/gen
LOGGP_MPI_OBJS := $(patsubst %.c,$(B)/obj/mpi-loggp/%.o,$(LOGGP_SRCS) loggp/loggp_measure.c \
	$(PARAMS_SRCS) $(UTIL_SRCS))
TOOLS += $(B)/bin/loggp-measure
OBJS += $(LOGGP_MPI_OBJS)

$(B)/obj/mpi-loggp/%.o: %.c $(MPI_BUILD_DEPS)
	@mkdir -p $(@D)
	$(LOGGP_MPICC) $(LOGGP_MPI_CFLAGS) -c $< -o $@

$(B)/bin/loggp-measure: $(LOGGP_MPI_OBJS)
	$(LOGGP_MPICC) $^ -lm -o $@

# The measured side of the log_3 P study (docs/log3p.md), not installed.
all: $(B)/examples/log3p-bench
OBJS += $(B)/obj/mpi-loggp/loggp/log3p_bench.o
$(B)/examples/log3p-bench: $(B)/obj/mpi-loggp/loggp/log3p_bench.o
	@mkdir -p $(@D)
	$(LOGGP_MPICC) $^ -lm -o $@
endif
