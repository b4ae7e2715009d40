# timeline: the -V timeline format, its one owner: the writer the simulator
# calls and the reader behind goalviz (docs/timeline.md).

TL_SRCS := timeline/tl_write.c timeline/tl_scan.c timeline/tl_read.c
TL_OBJS := $(TL_SRCS:%.c=$(B)/obj/%.o)
LIBTL := $(B)/lib/libtimeline.a
OBJS += $(TL_OBJS)

$(LIBTL): $(TL_OBJS)
