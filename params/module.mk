# params: the LogGP parameter file (docs/loggp.md: size ranges with L, o, g,
# G, O, plus S), read by the simulator and written by the LogGP tools.

PARAMS_SRCS := params/loggp_params.c
PARAMS_OBJS := $(PARAMS_SRCS:%.c=$(B)/obj/%.o)
LIBPARAMS := $(B)/lib/libparams.a
OBJS += $(PARAMS_OBJS)

$(LIBPARAMS): $(PARAMS_OBJS)

# Unit test: tests/params/NAME_test.c -> $(B)/tests/params_NAME_test
TEST_PROGS += $(B)/tests/params_file_test
OBJS += $(B)/obj/tests/params/file_test.o
$(B)/obj/tests/params/%.o: ALL_CFLAGS += -I tests
$(B)/tests/params_%_test: $(B)/obj/tests/params/%_test.o $(LIBPARAMS) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) $^ $(LDLIBS) -o $@
