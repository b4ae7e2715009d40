# goal-parser: libgoal, the binary schedule format library every tool links
# (goal.h), and above it libgoalc, the GOAL compiler (flex + bison) with the
# opening of a schedule that is binary or text (goal_compile.h).  Only the
# tools that read GOAL text link libgoalc (before libgoal).

GOAL_SRCS := goal-parser/goal_format.c goal-parser/goal_writer.c goal-parser/goal_dump.c
GOAL_OBJS := $(GOAL_SRCS:%.c=$(B)/obj/%.o)
LIBGOAL := $(B)/lib/libgoal.a
GOALC_SRCS := goal-parser/goal_text.c goal-parser/goal_open.c
GOALC_OBJS := $(GOALC_SRCS:%.c=$(B)/obj/%.o) $(B)/obj/gen/goal_parse.o
LIBGOALC := $(B)/lib/libgoalc.a

OBJS += $(GOAL_OBJS) $(GOALC_OBJS) $(B)/obj/goal-parser/goalc.o
TOOLS += $(B)/bin/goalc $(B)/bin/txt2bin

$(B)/gen/goal_parse.c $(B)/gen/goal_parse.h &: goal-parser/goal_parse.y $(MK_FILES)
	@mkdir -p $(@D)
	$(BISON) -Wall -Werror --defines=$(B)/gen/goal_parse.h -o $(B)/gen/goal_parse.c $<

# The transition table gets 256 zero entries more (goal_lex.l: %option
# fast); the build stops if flex wrote it some other way.
$(B)/gen/goal_lex.c $(B)/gen/goal_lex.h &: goal-parser/goal_lex.l $(MK_FILES)
	@mkdir -p $(@D)
	$(FLEX) --header-file=$(B)/gen/goal_lex.h -o $(B)/gen/goal_lex.c $<
	sed -E -i 's/^(static const struct yy_trans_info yy_transition\[[0-9]+)\] =$$/\1 + 256] =/' $(B)/gen/goal_lex.c
	grep -q '^static const struct yy_trans_info yy_transition\[[0-9]* + 256\] =$$' $(B)/gen/goal_lex.c \
		|| { rm -f $(B)/gen/goal_lex.c; exit 1; }

# Generated code: compiled with the same warnings, less the two that flex
# and bison skeletons trip over.  The parser includes the scanner (one
# object: the scanner is inlined into the parser).
GEN_CFLAGS := -Wno-missing-prototypes -Wno-sign-compare -Wno-unused-function \
	-Wno-null-dereference -I goal-parser
$(B)/obj/gen/%.o: $(B)/gen/%.c $(B)/gen/goal_parse.h $(B)/gen/goal_lex.h $(BUILD_DEPS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(GEN_CFLAGS) -c $< -o $@

$(B)/obj/gen/goal_parse.o: $(B)/gen/goal_lex.c

# goal_text.c includes both generated headers.
$(B)/obj/goal-parser/goal_text.o: $(B)/gen/goal_parse.h $(B)/gen/goal_lex.h

$(LIBGOAL): $(GOAL_OBJS)
$(LIBGOALC): $(GOALC_OBJS)

$(B)/bin/goalc: $(B)/obj/goal-parser/goalc.o $(LIBGOALC) $(LIBGOAL) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) $^ $(LDLIBS) -o $@

$(B)/bin/txt2bin: $(B)/bin/goalc
	ln -sf goalc $@

TEST_PROGS += $(B)/tests/goal_format_test
OBJS += $(B)/obj/tests/goal/goal_format_test.o
$(B)/tests/goal_format_test: $(B)/obj/tests/goal/goal_format_test.o $(LIBGOAL) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) $^ $(LDLIBS) -o $@

# libFuzzer targets (make fuzz builds them with SAN=fuzz): the binary
# reader, and the compiler.
ifeq ($(SAN),fuzz)
$(B)/fuzz_goal_bin: $(B)/obj/tests/fuzz/fuzz_goal_bin.o $(LIBGOAL) $(LIBUTIL)
$(B)/fuzz_goal_text: $(B)/obj/tests/fuzz/fuzz_goal_text.o $(LIBGOALC) $(LIBGOAL) $(LIBUTIL)
$(B)/fuzz_goal_bin $(B)/fuzz_goal_text:
	$(CC) $(ALL_LDFLAGS) -fsanitize=fuzzer $^ $(LDLIBS) -o $@
endif
