# goal-parser: the GOAL compiler (flex + bison) and libgoal, the binary
# schedule format library every tool links.

GOAL_SRCS := goal-parser/goal_format.c goal-parser/goal_text.c goal-parser/goal_dump.c
GOAL_GEN := $(B)/gen/goal_parse.c $(B)/gen/goal_lex.c
GOAL_OBJS := $(GOAL_SRCS:%.c=$(B)/obj/%.o) $(B)/obj/gen/goal_parse.o $(B)/obj/gen/goal_lex.o
LIBGOAL := $(B)/lib/libgoal.a

OBJS += $(GOAL_OBJS) $(B)/obj/goal-parser/goalc.o
TOOLS += $(B)/bin/goalc $(B)/bin/txt2bin

$(B)/gen/goal_parse.c $(B)/gen/goal_parse.h &: goal-parser/goal_parse.y $(MK_FILES)
	@mkdir -p $(@D)
	$(BISON) -Wall -Werror --defines=$(B)/gen/goal_parse.h -o $(B)/gen/goal_parse.c $<

$(B)/gen/goal_lex.c $(B)/gen/goal_lex.h &: goal-parser/goal_lex.l $(MK_FILES)
	@mkdir -p $(@D)
	$(FLEX) --header-file=$(B)/gen/goal_lex.h -o $(B)/gen/goal_lex.c $<

# Generated code: compiled with the same warnings, less the two that flex
# and bison skeletons trip over.
GEN_CFLAGS := -Wno-missing-prototypes -Wno-sign-compare -Wno-unused-function \
	-Wno-null-dereference -I goal-parser
$(B)/obj/gen/%.o: $(B)/gen/%.c $(B)/gen/goal_parse.h $(B)/gen/goal_lex.h $(BUILD_DEPS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(GEN_CFLAGS) -c $< -o $@

# goal_text.c includes both generated headers.
$(B)/obj/goal-parser/goal_text.o: $(B)/gen/goal_parse.h $(B)/gen/goal_lex.h

$(LIBGOAL): $(GOAL_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

$(B)/bin/goalc: $(B)/obj/goal-parser/goalc.o $(LIBGOAL) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) $^ $(LDLIBS) -o $@

$(B)/bin/txt2bin: $(B)/bin/goalc
	ln -sf goalc $@

TEST_PROGS += $(B)/tests/goal_format_test
OBJS += $(B)/obj/tests/goal/goal_format_test.o
$(B)/tests/goal_format_test: $(B)/obj/tests/goal/goal_format_test.o $(LIBGOAL) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) $^ $(LDLIBS) -o $@

# libFuzzer targets (make fuzz builds them with SAN=fuzz).
ifeq ($(SAN),fuzz)
$(B)/fuzz_%: $(B)/obj/tests/fuzz/fuzz_%.o $(LIBGOAL) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) -fsanitize=fuzzer $^ $(LDLIBS) -o $@
endif
