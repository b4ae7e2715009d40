# schedule: libgoal, the binary schedule format every tool links (goal.h):
# the writer, the mapping reader with its checks, the dump, and copies
# of ranks and jobs, merges and placements.

GOAL_SRCS := schedule/goal_format.c schedule/goal_writer.c schedule/goal_dump.c schedule/goal_copy.c \
             schedule/goal_place.c
GOAL_OBJS := $(GOAL_SRCS:%.c=$(B)/obj/%.o)
LIBGOAL := $(B)/lib/libgoal.a
OBJS += $(GOAL_OBJS)

$(LIBGOAL): $(GOAL_OBJS)

TEST_PROGS += $(B)/tests/goal_format_test
OBJS += $(B)/obj/tests/goal/goal_format_test.o
$(B)/tests/goal_format_test: $(B)/obj/tests/goal/goal_format_test.o $(LIBGOAL) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) $^ $(LDLIBS) -o $@

# libFuzzer target (make fuzz builds it with SAN=fuzz): the binary reader.
ifeq ($(SAN),fuzz)
$(B)/fuzz_goal_bin: $(B)/obj/tests/fuzz/fuzz_goal_bin.o $(LIBGOAL) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) -fsanitize=fuzzer $^ $(LDLIBS) -o $@
endif
