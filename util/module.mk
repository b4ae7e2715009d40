# util: small helpers shared by the tools (reading a small file whole,
# escaping text for XML, one hash and a string map, writing output files
# safely; ASSERT in invariant.h).

UTIL_SRCS := util/util.c util/out.c util/kmap.c util/svg.c
UTIL_OBJS := $(UTIL_SRCS:%.c=$(B)/obj/%.o)
LIBUTIL := $(B)/lib/libutil.a
OBJS += $(UTIL_OBJS)

$(LIBUTIL): $(UTIL_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^
