# trace2goal: traces to GOAL schedules, a run in any format read through
# readers/, with schedgen's patterns for the collectives.

T2G_OBJS := $(B)/obj/trace2goal/trace2goal_conv.o $(B)/obj/trace2goal/trace2goal_coll.o \
	$(B)/obj/trace2goal/trace2goal_account.o $(B)/obj/trace2goal/t2g_chakra.o \
	$(SOURCE_OBJS)
OBJS += $(B)/obj/trace2goal/trace2goal_conv.o $(B)/obj/trace2goal/trace2goal_coll.o \
	$(B)/obj/trace2goal/trace2goal_account.o $(B)/obj/trace2goal/t2g_chakra.o \
	$(B)/obj/trace2goal/trace2goal.o
TOOLS += $(B)/bin/trace2goal
$(B)/obj/trace2goal/%.o: ALL_CFLAGS += -I readers -I tracer -I schedgen
$(B)/bin/trace2goal: $(B)/obj/trace2goal/trace2goal.o $(T2G_OBJS) $(SG_OBJS) $(LIBTRACE) $(LIBGOAL) $(LIBPARAMS) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) $^ $(LDLIBS) $(OTF2_LIBS) $(CHAKRA_LIBS) -o $@
OBJS += $(B)/obj/tests/trace2goal/t2g_test.o
TEST_PROGS += $(B)/tests/trace2goal_test
$(B)/obj/tests/trace2goal/t2g_test.o: ALL_CFLAGS += -I readers -I tracer -I schedgen -I trace2goal -I tests
$(B)/tests/trace2goal_test: $(B)/obj/tests/trace2goal/t2g_test.o $(T2G_OBJS) $(SG_OBJS) $(LIBTRACE) $(LIBGOAL) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) $^ $(LDLIBS) $(OTF2_LIBS) $(CHAKRA_LIBS) -o $@

# libFuzzer targets (make fuzz builds them with SAN=fuzz): the conversion
# of text traces, and the DUMPI reader with its conversion.
ifeq ($(SAN),fuzz)
OBJS += $(B)/obj/tests/fuzz/fuzz_t2g.o $(B)/obj/tests/fuzz/fuzz_dumpi.o $(B)/obj/tests/fuzz/fuzz_chakra.o
$(B)/obj/tests/fuzz/fuzz_t2g.o $(B)/obj/tests/fuzz/fuzz_dumpi.o $(B)/obj/tests/fuzz/fuzz_chakra.o: ALL_CFLAGS += -I readers -I tracer -I schedgen -I trace2goal
$(B)/fuzz_t2g: $(B)/obj/tests/fuzz/fuzz_t2g.o $(T2G_OBJS) $(SG_OBJS) $(LIBTRACE) $(LIBGOAL) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) -fsanitize=fuzzer $^ $(LDLIBS) $(OTF2_LIBS) $(CHAKRA_LIBS) -o $@
$(B)/fuzz_dumpi: $(B)/obj/tests/fuzz/fuzz_dumpi.o $(T2G_OBJS) $(SG_OBJS) $(LIBTRACE) $(LIBGOAL) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) -fsanitize=fuzzer $^ $(LDLIBS) $(OTF2_LIBS) $(CHAKRA_LIBS) -o $@
$(B)/fuzz_chakra: $(B)/obj/tests/fuzz/fuzz_chakra.o $(T2G_OBJS) $(SG_OBJS) $(LIBTRACE) $(LIBGOAL) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) -fsanitize=fuzzer $^ $(LDLIBS) $(OTF2_LIBS) $(CHAKRA_LIBS) -o $@
endif
