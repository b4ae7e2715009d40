# params: the LogGP parameter file (docs/loggp.md: size ranges with L, o, g,
# G, O, plus S), read by the simulator and written by the LogGP tools; and
# the simulator's parameter sets.

PARAMS_SRCS := params/loggp_params.c
PARAMS_OBJS := $(PARAMS_SRCS:%.c=$(B)/obj/%.o)
LIBPARAMS := $(B)/lib/libparams.a
OBJS += $(PARAMS_OBJS)

$(LIBPARAMS): $(PARAMS_OBJS)

# Parameter sets (params.h): the file's size ranges and changes to single
# values, for the tools that run the core (loggopsim, loggops-model); not
# in libparams, which the tools without the core link.
PSETS_OBJS := $(B)/obj/params/params.o
OBJS += $(PSETS_OBJS)
$(PSETS_OBJS): ALL_CFLAGS += $(SIM_INC)

# Unit test: tests/params/NAME_test.c -> $(B)/tests/params_NAME_test
TEST_PROGS += $(B)/tests/params_file_test
OBJS += $(B)/obj/tests/params/file_test.o
$(B)/obj/tests/params/%.o: ALL_CFLAGS += -I tests
$(B)/tests/params_%_test: $(B)/obj/tests/params/%_test.o $(LIBPARAMS) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) $^ $(LDLIBS) -o $@
