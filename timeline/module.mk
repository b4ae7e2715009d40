# timeline: the -V timeline format, its one owner: the writer the simulator
# calls, the reader behind goalviz (docs/timeline.md), the trace JSON
# converter (docs/perfetto.md) and the critical path file.

TL_SRCS := timeline/tl_write.c timeline/tl_scan.c timeline/tl_read.c \
	timeline/tl_path.c timeline/tl_trace_json.c timeline/tl_json_pipe.c
TL_OBJS := $(TL_SRCS:%.c=$(B)/obj/%.o)
LIBTL := $(B)/lib/libtimeline.a
OBJS += $(TL_OBJS)

$(LIBTL): $(TL_OBJS)

# Unit tests of the critical path file and the trace JSON converter.
TEST_PROGS += $(B)/tests/timeline_path_test
OBJS += $(B)/obj/tests/timeline/path_test.o
$(B)/obj/tests/timeline/path_test.o: ALL_CFLAGS += -I timeline -I tests
$(B)/tests/timeline_path_test: $(B)/obj/tests/timeline/path_test.o $(LIBTL) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) $^ $(LDLIBS) -o $@
