# util: small helpers shared by the tools (reading a small file whole,
# escaping text for XML, one hash and a string map, the rules of the
# open-addressing tables, writing output files safely, the number syntax of
# options and files; ASSERT in invariant.h).

UTIL_SRCS := util/util.c util/oa.c util/out.c util/kmap.c util/svg.c util/die.c util/progress.c util/num.c
UTIL_OBJS := $(UTIL_SRCS:%.c=$(B)/obj/%.o)
LIBUTIL := $(B)/lib/libutil.a
OBJS += $(UTIL_OBJS)

$(LIBUTIL): $(UTIL_OBJS)

# Unit test: tests/util/NAME_test.c -> $(B)/tests/util_NAME_test
UTIL_TESTS := num file oa
TEST_PROGS += $(UTIL_TESTS:%=$(B)/tests/util_%_test)
OBJS += $(UTIL_TESTS:%=$(B)/obj/tests/util/%_test.o)
$(B)/obj/tests/util/%.o: ALL_CFLAGS += -I tests
$(B)/tests/util_%_test: $(B)/obj/tests/util/%_test.o $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) $^ $(LDLIBS) -o $@
