# schedgen: generator of collective algorithms and communication patterns.

SG_SRCS := schedgen/sg_out.c schedgen/sg_pattern.c schedgen/sg_rooted.c schedgen/sg_unrooted.c schedgen/sg_nccl.c schedgen/sg_han.c \
	schedgen/sg_select.c schedgen/sg_select_nccl.c
SG_OBJS := $(SG_SRCS:%.c=$(B)/obj/%.o)

OBJS += $(SG_OBJS) $(B)/obj/schedgen/schedgen.o $(B)/obj/tests/schedgen/schedgen_test.o
TOOLS += $(B)/bin/schedgen
TEST_PROGS += $(B)/tests/schedgen_test

$(B)/bin/schedgen: $(B)/obj/schedgen/schedgen.o $(SG_OBJS) $(LIBGOAL) $(LIBPARAMS) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) $^ $(LDLIBS) -o $@

$(B)/obj/tests/schedgen/schedgen_test.o: ALL_CFLAGS += -I schedgen -I tests
$(B)/tests/schedgen_test: $(B)/obj/tests/schedgen/schedgen_test.o $(SG_OBJS) $(LIBGOAL) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) $^ $(LDLIBS) -o $@
