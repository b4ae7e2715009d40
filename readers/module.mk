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
