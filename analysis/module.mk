# analysis: what a critical path tells (sens.h): T as a sum of parameters,
# its derivatives, and tolerances found by re-simulation.

SENS_SRCS := analysis/sens.c
SENS_OBJS := $(SENS_SRCS:%.c=$(B)/obj/%.o)
OBJS += $(SENS_OBJS)

$(SENS_OBJS): ALL_CFLAGS += $(SIM_INC)
