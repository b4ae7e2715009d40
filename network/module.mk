# network: topologies, dot files, routes and rank placement (topo.h), and
# messages' bytes as flows over links (flow.h); linked into libsim.

NET_SRCS := network/topo.c network/flow.c
NET_OBJS := $(NET_SRCS:%.c=$(B)/obj/%.o)
OBJS += $(NET_OBJS)

# Dot files (--network-file) are read with Graphviz's cgraph
# (libgraphviz-dev) when pkg-config finds it; without it the build works
# and --network-file says why it cannot.
HAVE_CGRAPH := $(shell pkg-config --exists libcgraph 2>/dev/null && echo 1)
ifeq ($(HAVE_CGRAPH),1)
$(B)/obj/network/topo.o: ALL_CFLAGS += -DHAVE_CGRAPH $(shell pkg-config --cflags libcgraph)
LDLIBS += $(shell pkg-config --libs libcgraph)
endif

# libFuzzer targets (make fuzz builds them with SAN=fuzz): topologies and
# mappings, dot files.
ifeq ($(SAN),fuzz)
OBJS += $(B)/obj/tests/fuzz/fuzz_topo.o $(B)/obj/tests/fuzz/fuzz_dot.o
$(B)/obj/tests/fuzz/fuzz_topo.o $(B)/obj/tests/fuzz/fuzz_dot.o: ALL_CFLAGS += -I network
$(B)/fuzz_topo: $(B)/obj/tests/fuzz/fuzz_topo.o $(NET_OBJS) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) -fsanitize=fuzzer $^ $(LDLIBS) -o $@
$(B)/fuzz_dot: $(B)/obj/tests/fuzz/fuzz_dot.o $(NET_OBJS) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) -fsanitize=fuzzer $^ $(LDLIBS) -o $@
endif
