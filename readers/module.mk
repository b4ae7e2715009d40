# readers: libtrace, the trace reader (both text dialects, DUMPI) with the
# tracer's writer, plain C and always built; and one interface to a run in
# any format (trace_source.h), which reads OTF2 archives through the OTF2
# library when there is one.

TRACE_SRCS := readers/trace_read.c readers/trace_build.c readers/trace_dumpi.c \
	readers/trace_dumpi_rec.c
TRACE_OBJS := $(TRACE_SRCS:%.c=$(B)/obj/%.o)
LIBTRACE := $(B)/lib/libtrace.a
OBJS += $(TRACE_OBJS)

$(TRACE_OBJS): ALL_CFLAGS += -I tracer
$(LIBTRACE): $(TRACE_OBJS) $(TRACER_OBJS)

# OTF2 archives are read through the OTF2 library (Debian package
# libopen-trace-format2-dev) when pkg-config finds it; without it the build
# works and trace2goal says that OTF2 is not supported.
HAVE_OTF2 := $(shell pkg-config --exists otf2 2>/dev/null && echo 1)
ifeq ($(HAVE_OTF2),1)
OTF2_CFLAGS := -DHAVE_OTF2 $(shell pkg-config --cflags otf2)
OTF2_LIBS := $(shell pkg-config --libs otf2)
endif
OTF2_OBJS := $(B)/obj/readers/trace_otf2.o $(B)/obj/readers/trace_otf2_events.o
SOURCE_OBJS := $(B)/obj/readers/trace_source.o $(OTF2_OBJS)

# Chakra execution traces are read through protobuf-c (Debian packages
# protobuf-c-compiler and libprotobuf-c-dev), from the part of the schema in
# readers/chakra_et.proto, when both are here; without them the build works
# and trace2goal says that Chakra is not supported.
HAVE_CHAKRA := $(shell command -v protoc-c >/dev/null 2>&1 && pkg-config --exists libprotobuf-c 2>/dev/null && echo 1)
CHAKRA_OBJS := $(B)/obj/readers/trace_chakra.o
ifeq ($(HAVE_CHAKRA),1)
CHAKRA_CFLAGS := -DHAVE_CHAKRA
CHAKRA_LIBS := $(shell pkg-config --libs libprotobuf-c)
CHAKRA_OBJS += $(B)/obj/gen/chakra_et.pb-c.o
$(B)/gen/chakra_et.pb-c.c $(B)/gen/chakra_et.pb-c.h &: readers/chakra_et.proto $(MK_FILES)
	protoc-c --proto_path=readers --c_out=$(B)/gen readers/chakra_et.proto
$(B)/obj/readers/trace_chakra.o: $(B)/gen/chakra_et.pb-c.h
# protobuf-c's generated code casts its names' const away.
$(B)/obj/gen/chakra_et.pb-c.o: ALL_CFLAGS += -Wno-cast-qual
endif
$(B)/obj/readers/trace_chakra.o: ALL_CFLAGS += $(CHAKRA_CFLAGS)
SOURCE_OBJS += $(CHAKRA_OBJS)
OBJS += $(SOURCE_OBJS)
$(SOURCE_OBJS): ALL_CFLAGS += -I tracer
$(OTF2_OBJS): ALL_CFLAGS += $(OTF2_CFLAGS)

OBJS += $(B)/obj/tests/traces/trace_read_test.o $(B)/obj/tests/traces/trace_check.o
$(B)/obj/tests/traces/%.o: ALL_CFLAGS += -I readers -I tracer
TEST_PROGS += $(B)/tests/trace_read_test
$(B)/tests/trace_read_test: $(B)/obj/tests/traces/trace_read_test.o $(LIBTRACE) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) $^ $(LDLIBS) -o $@

# Checker of a run's traces, used by tests/traces/run.sh.
TEST_PROGS += $(B)/tests/trace_check
$(B)/tests/trace_check: $(B)/obj/tests/traces/trace_check.o $(LIBTRACE) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) $^ $(LDLIBS) -o $@

# libFuzzer targets (make fuzz builds them with SAN=fuzz): the text reader,
# and the OTF2 reader from an archive's anchor.
ifeq ($(SAN),fuzz)
OBJS += $(B)/obj/tests/fuzz/fuzz_trace.o $(B)/obj/tests/fuzz/fuzz_otf2.o
$(B)/obj/tests/fuzz/fuzz_trace.o $(B)/obj/tests/fuzz/fuzz_otf2.o: ALL_CFLAGS += -I readers -I tracer
$(B)/fuzz_trace: $(B)/obj/tests/fuzz/fuzz_trace.o $(LIBTRACE) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) -fsanitize=fuzzer $^ $(LDLIBS) -o $@
$(B)/fuzz_otf2: $(B)/obj/tests/fuzz/fuzz_otf2.o $(OTF2_OBJS) $(LIBTRACE) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) -fsanitize=fuzzer $^ $(LDLIBS) $(OTF2_LIBS) -o $@
endif
