# perturb: noise and slow ranks (noise.h): the noise specs, their random
# streams and the detours they add; linked into libsim.

NOISE_SRCS := perturb/noise.c
NOISE_OBJS := $(NOISE_SRCS:%.c=$(B)/obj/%.o)
OBJS += $(NOISE_OBJS)

# libFuzzer target (make fuzz builds it with SAN=fuzz): noise specs.
ifeq ($(SAN),fuzz)
OBJS += $(B)/obj/tests/fuzz/fuzz_noise.o
$(B)/obj/tests/fuzz/fuzz_noise.o: ALL_CFLAGS += -I perturb
$(B)/fuzz_noise: $(B)/obj/tests/fuzz/fuzz_noise.o $(NOISE_OBJS) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) -fsanitize=fuzzer $^ $(LDLIBS) -o $@
endif
