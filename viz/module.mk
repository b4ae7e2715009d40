# viz: goalviz, timelines and schedule graphs as SVG and Graphviz dot.
# libviz holds the renderers and goalviz's rank lists; the timeline reader
# is libtimeline's (timeline/).

VIZ_SRCS := viz/viz_render.c viz/viz_sched.c
VIZ_OBJS := $(VIZ_SRCS:%.c=$(B)/obj/%.o)
LIBVIZ := $(B)/lib/libviz.a

OBJS += $(VIZ_OBJS) $(B)/obj/viz/goalviz.o
TOOLS += $(B)/bin/goalviz

$(VIZ_OBJS) $(B)/obj/viz/goalviz.o: ALL_CFLAGS += -I viz -I timeline

$(LIBVIZ): $(VIZ_OBJS)

$(B)/bin/goalviz: $(B)/obj/viz/goalviz.o $(LIBVIZ) $(LIBTL) $(LIBGOALC) $(LIBGOAL) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) $^ $(LDLIBS) -o $@

TEST_PROGS += $(B)/tests/viz_timeline_test
OBJS += $(B)/obj/tests/viz/viz_timeline_test.o
$(B)/obj/tests/viz/viz_timeline_test.o: ALL_CFLAGS += -I viz -I timeline -I tests
$(B)/tests/viz_timeline_test: $(B)/obj/tests/viz/viz_timeline_test.o $(LIBVIZ) $(LIBTL) $(LIBGOAL) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) $^ $(LDLIBS) -o $@

# libFuzzer target (make fuzz builds it with SAN=fuzz).
ifeq ($(SAN),fuzz)
OBJS += $(B)/obj/tests/fuzz/fuzz_timeline.o
$(B)/obj/tests/fuzz/fuzz_timeline.o: ALL_CFLAGS += -I viz -I timeline
$(B)/fuzz_timeline: $(B)/obj/tests/fuzz/fuzz_timeline.o $(LIBVIZ) $(LIBTL) $(LIBGOAL) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) -fsanitize=fuzzer $^ $(LDLIBS) -o $@
endif
