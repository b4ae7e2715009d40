# LogGOPS simulator: top-level build (GNU Make).
#
#   make                 build every tool into build/bin
#   make test            build with ASan + UBSan (build/san) and run all tests
#   make bench           build optimised and print speed / memory figures
#   make example         build and simulate a real example end to end
#   make fuzz            run the libFuzzer targets for a short time (FUZZ_SECONDS)
#   make soak            loggopsim against the reference on SOAK_N random schedules
#   make install PREFIX=DIR
#   make clean
#
# Each part adds its rules in DIR/module.mk; objects go to $(B)/obj, tools to
# $(B)/bin, test programs to $(B)/tests.  Objects depend on the makefiles, so a
# flag change rebuilds.

SAN ?= 0
ifeq ($(SAN),1)
B ?= build/san
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
OPT ?= -O1
else ifeq ($(SAN),fuzz)
# libFuzzer build (clang): make fuzz
B ?= build/fuzz
CC := clang
SANFLAGS := -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
OPT ?= -O1
else
B ?= build
SANFLAGS :=
OPT ?= -O2
endif

CC ?= cc
FLEX ?= flex
BISON ?= bison
PREFIX ?= /usr/local

WARN := -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes \
	-Wmissing-prototypes -Wpointer-arith -Wcast-qual -Wwrite-strings \
	-Wformat=2 -Wundef -Wvla -Wold-style-definition -Wnull-dereference \
	-Wimplicit-fallthrough -Wdouble-promotion -Werror=implicit-function-declaration
CFLAGS ?= $(OPT) -g
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 $(WARN) $(CFLAGS) \
	$(SANFLAGS) -MMD -MP -I goal-parser -I util -I $(B)/gen
LDFLAGS ?=
ALL_LDFLAGS = $(SANFLAGS) $(LDFLAGS)
LDLIBS ?= -lm

MK_FILES := Makefile $(wildcard */module.mk)

# Filled in by the module.mk files.
TOOLS :=        # installed programs, as $(B)/bin/NAME
TEST_PROGS :=   # unit test programs, as $(B)/tests/NAME
OBJS :=

.PHONY: all deps test test-run test-large bench example fuzz soak install clean
all:

include goal-parser/module.mk
include util/module.mk
-include schedgen/module.mk
-include sim/module.mk
-include viz/module.mk
-include traces/module.mk
-include loggp/module.mk
-include model/module.mk

all: $(TOOLS) $(TEST_PROGS)

$(B)/obj/%.o: %.c $(MK_FILES)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

# Output folders exist before any rule runs.
$(shell mkdir -p $(B)/bin $(B)/tests $(B)/lib $(B)/gen)

# The test suite runs under AddressSanitizer and UBSan.
# Installs missing Debian packages (flex, bison, graphviz, ...).
deps:
	scripts/install-deps.sh

test: deps
	$(MAKE) --no-print-directory SAN=1 all
	tests/run.sh build/san

# Run the suite against an already built tree: make test-run B=build
test-run: all
	tests/run.sh $(B)

# Fuzz the GOAL compiler and the binary reader for FUZZ_SECONDS each (CI
# runs this briefly; by hand: make fuzz FUZZ_SECONDS=36000).  Corpora grow in
# build/fuzz/corpus-*; crashes are written to build/fuzz/.
FUZZ_SECONDS ?= 20
fuzz: deps
	$(MAKE) --no-print-directory SAN=fuzz build/fuzz/fuzz_goal_text build/fuzz/fuzz_goal_bin \
		build/fuzz/fuzz_loggp build/fuzz/fuzz_trace build/fuzz/fuzz_t2g \
		build/fuzz/fuzz_timeline build/fuzz/fuzz_sweep build/fuzz/bin/goalc
	tests/fuzz/fuzz.sh $(FUZZ_SECONDS)

# The differential test against tests/refsim/refsim.py at length: random
# schedules SOAK_FIRST.. (SOAK_N of them), schedules per second on stderr,
# every mismatch written to build/soak as a ready-to-run file.
SOAK_N ?= 100000
SOAK_FIRST ?= 1
soak: all
	python3 tests/refsim/difftest.py $(B) seeds $(SOAK_FIRST) $(SOAK_N) --progress --out $(B)/soak

# A schedule of more than 2^32 ops in a 137 GB (sparse) file.
test-large: all
	tests/large.sh $(B)

bench: all
	tests/bench.sh $(B)

example: deps
	$(MAKE) --no-print-directory all
	tests/example.sh build

install: all
	@mkdir -p $(DESTDIR)$(PREFIX)/bin
	for t in $(TOOLS); do install -m 755 $$t $(DESTDIR)$(PREFIX)/bin/; done
	ln -sf goalc $(DESTDIR)$(PREFIX)/bin/txt2bin

clean:
	rm -rf build

-include $(OBJS:.o=.d)
