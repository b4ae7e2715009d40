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

# libFuzzer target (make fuzz builds it with SAN=fuzz): the path file.
ifeq ($(SAN),fuzz)
OBJS += $(B)/obj/tests/fuzz/fuzz_path.o
$(B)/obj/tests/fuzz/fuzz_path.o: ALL_CFLAGS += -I timeline
$(B)/fuzz_path: $(B)/obj/tests/fuzz/fuzz_path.o $(LIBTL) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) -fsanitize=fuzzer $^ $(LDLIBS) -o $@
endif
