# util: small text helpers shared by the tools (reading a small file whole,
# escaping text for XML).

UTIL_SRCS := util/util.c
UTIL_OBJS := $(UTIL_SRCS:%.c=$(B)/obj/%.o)
LIBUTIL := $(B)/lib/libutil.a
OBJS += $(UTIL_OBJS)

$(LIBUTIL): $(UTIL_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^
