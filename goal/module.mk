# goal: libgoalc, the GOAL compiler (flex + bison, goal_compile.h) with the
# opening of a schedule that is binary or text (goal_open.h), above libgoal
# (schedule/); goalc and txt2bin.  Only the tools that read GOAL text link
# libgoalc (before libgoal).

GOALC_SRCS := goal/goal_text.c goal/goal_open.c
GOALC_OBJS := $(GOALC_SRCS:%.c=$(B)/obj/%.o) $(B)/obj/gen/goal_parse.o
LIBGOALC := $(B)/lib/libgoalc.a

OBJS += $(GOALC_OBJS) $(B)/obj/goal/goalc.o
TOOLS += $(B)/bin/goalc $(B)/bin/txt2bin

$(B)/gen/goal_parse.c $(B)/gen/goal_parse.h &: goal/goal_parse.y $(MK_FILES)
	@mkdir -p $(@D)
	$(BISON) -Wall -Werror --defines=$(B)/gen/goal_parse.h -o $(B)/gen/goal_parse.c $<

# The transition table gets 256 zero entries more (goal_lex.l: %option
# fast); the build stops if flex wrote it some other way.
$(B)/gen/goal_lex.c $(B)/gen/goal_lex.h &: goal/goal_lex.l $(MK_FILES)
	@mkdir -p $(@D)
	$(FLEX) --header-file=$(B)/gen/goal_lex.h -o $(B)/gen/goal_lex.c $<
	sed -E -i 's/^(static const struct yy_trans_info yy_transition\[[0-9]+)\] =$$/\1 + 256] =/' $(B)/gen/goal_lex.c
	grep -q '^static const struct yy_trans_info yy_transition\[[0-9]* + 256\] =$$' $(B)/gen/goal_lex.c \
		|| { rm -f $(B)/gen/goal_lex.c; exit 1; }

# Generated code: compiled with the same warnings, less the two that flex
# and bison skeletons trip over.  The parser includes the scanner (one
# object: the scanner is inlined into the parser).
GEN_CFLAGS := -Wno-missing-prototypes -Wno-sign-compare -Wno-unused-function \
	-Wno-null-dereference
$(B)/obj/gen/%.o: $(B)/gen/%.c $(B)/gen/goal_parse.h $(B)/gen/goal_lex.h $(BUILD_DEPS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(GEN_CFLAGS) -c $< -o $@

$(B)/obj/gen/goal_parse.o: $(B)/gen/goal_lex.c

# goal_text.c includes both generated headers.
$(B)/obj/goal/goal_text.o: $(B)/gen/goal_parse.h $(B)/gen/goal_lex.h

$(LIBGOALC): $(GOALC_OBJS)

$(B)/bin/goalc: $(B)/obj/goal/goalc.o $(LIBGOALC) $(LIBGOAL) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) $^ $(LDLIBS) -o $@

$(B)/bin/txt2bin: $(B)/bin/goalc
	ln -sf goalc $@

# libFuzzer target (make fuzz builds it with SAN=fuzz): the compiler.
ifeq ($(SAN),fuzz)
$(B)/fuzz_goal_text: $(B)/obj/tests/fuzz/fuzz_goal_text.o $(LIBGOALC) $(LIBGOAL) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) -fsanitize=fuzzer $^ $(LDLIBS) -o $@
endif
