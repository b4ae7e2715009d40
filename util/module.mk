# util: small helpers shared by the tools (reading a small file whole,
# the version line, escaping text for XML, the JSON writer, one hash and a
# string map, the rules of the open-addressing tables, writing output files
# safely, the number syntax of options and files; ASSERT in invariant.h).

UTIL_SRCS := util/util.c util/oa.c util/out.c util/json.c util/kmap.c util/svg.c util/die.c util/progress.c util/num.c util/version.c util/kind.c
UTIL_OBJS := $(UTIL_SRCS:%.c=$(B)/obj/%.o)
LIBUTIL := $(B)/lib/libutil.a
OBJS += $(UTIL_OBJS)

$(LIBUTIL): $(UTIL_OBJS)

# The commit that --version names, in $(B)/gen/commit.h: rewritten only when
# it changes, so that a new commit rebuilds version.o and relinks the tools.
UTIL_COMMIT_NOW := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)$(if \
	$(shell git status --porcelain --untracked-files=no 2>/dev/null | head -n 1),-modified)
UTIL_COMMIT_H := \#define UTIL_COMMIT "$(UTIL_COMMIT_NOW)"
ifneq ($(file <$(B)/gen/commit.h),$(UTIL_COMMIT_H))
$(shell mkdir -p $(B)/gen)$(file >$(B)/gen/commit.h,$(UTIL_COMMIT_H))
endif
$(B)/gen/commit.h:
	$(shell mkdir -p $(@D))$(file >$@,$(UTIL_COMMIT_H))
$(B)/obj/util/version.o $(B)/obj/mpi-loggp/util/version.o: $(B)/gen/commit.h

# Unit test: tests/util/NAME_test.c -> $(B)/tests/util_NAME_test
UTIL_TESTS := num file oa json
TEST_PROGS += $(UTIL_TESTS:%=$(B)/tests/util_%_test)
OBJS += $(UTIL_TESTS:%=$(B)/obj/tests/util/%_test.o)
$(B)/obj/tests/util/%.o: ALL_CFLAGS += -I tests
$(B)/tests/util_%_test: $(B)/obj/tests/util/%_test.o $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) $^ $(LDLIBS) -o $@
