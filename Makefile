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
#   make WERROR=1        any compiler warning (mpicc's too) is an error; make
#                        test and make fuzz build so (WERROR=0 to run anyway)
#
# Each part adds its rules in DIR/module.mk; objects go to $(B)/obj, tools to
# $(B)/bin, test programs to $(B)/tests.  Objects depend on the makefiles and
# on $(B)/flags.txt ($(B)/mpi-flags.txt for the mpicc parts), which holds the
# compiler and flags of the last build in $(B) and is rewritten when they
# change: make CFLAGS=... rebuilds, and a second make does nothing.

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
# make test and make fuzz compile with -Werror unless WERROR is given.
CI_WERROR := $(if $(WERROR),$(WERROR),1)
WERROR ?= 0
ifeq ($(WERROR),1)
WARN += -Werror
endif
CFLAGS ?= $(OPT) -g
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 $(WARN) $(CFLAGS) \
	$(SANFLAGS) -MMD -MP -I schedule -I goal -I util -I params -I $(B)/gen
# What a file that includes the core's sim.h needs besides: the folders of
# the headers sim.h includes.
SIM_INC := -I core -I network -I perturb -I timeline
LDFLAGS ?=
ALL_LDFLAGS = $(SANFLAGS) -pthread $(LDFLAGS)
LDLIBS ?= -lm

MK_FILES := Makefile $(wildcard */module.mk)
# What every object depends on besides its sources (the flags files are
# written below, once every module has set its flags).
FLAGS_FILE := $(B)/flags.txt
MPI_FLAGS_FILE := $(B)/mpi-flags.txt
BUILD_DEPS := $(MK_FILES) $(FLAGS_FILE)
MPI_BUILD_DEPS := $(MK_FILES) $(MPI_FLAGS_FILE)

# Filled in by the module.mk files.
TOOLS :=        # installed programs, as $(B)/bin/NAME
TEST_PROGS :=   # unit test programs, as $(B)/tests/NAME
OBJS :=

.PHONY: all deps test test-run test-large bench example fuzz soak install clean
all:

# Every library: each module.mk names its objects ($(LIBX): OBJECTS).
$(B)/lib/%.a:
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

# In this order: a module.mk names the libraries and objects of the ones
# before it.
include util/module.mk
include params/module.mk
include schedule/module.mk
include goal/module.mk
include timeline/module.mk
include schedgen/module.mk
include network/module.mk
include perturb/module.mk
include core/module.mk
include analysis/module.mk
include loggopsim/module.mk
include viz/module.mk
include tracer/module.mk
include readers/module.mk
include trace2goal/module.mk
include loggp/module.mk
include model/module.mk

all: $(TOOLS) $(TEST_PROGS) $(B)/tests/programs.txt

# The unit test programs of this tree, one name a line: tests/run.sh runs
# these, not a program an older tree left in $(B)/tests.
$(B)/tests/programs.txt: $(MK_FILES)
	$(shell mkdir -p $(@D))$(file >$@,$(subst $(B)/tests/,,$(TEST_PROGS)))

# The picture of the modules (docs/architecture.md), when Graphviz is here.
DOT ?= dot
ifneq ($(shell command -v $(DOT) 2>/dev/null),)
all: $(B)/docs/architecture.svg
$(B)/docs/architecture.svg: docs/architecture.dot
	@mkdir -p $(@D)
	$(DOT) -Tsvg $< -o $@
endif

$(B)/obj/%.o: %.c $(BUILD_DEPS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

# Output folders exist before any rule runs.
$(shell mkdir -p $(B)/bin $(B)/tests $(B)/lib $(B)/gen)

# Objects built on the way to a program (tests, MPI examples) are kept, so a
# second make finds everything up to date.
.SECONDARY:

# The flags files: rewritten only when the compiler or a flag differs from
# the last build in $(B) (make CFLAGS=-O0 rebuilds, plain make rebuilds
# again).  Not by the goals that only run a make of their own.
CC_FLAGS_NOW = $(CC) $(ALL_CFLAGS) | $(GEN_CFLAGS) | $(ALL_LDFLAGS) $(LDLIBS) | $(OTF2_CFLAGS) $(OTF2_LIBS) | $(CHAKRA_CFLAGS) $(CHAKRA_LIBS)
MPI_FLAGS_NOW = OMPI_CC=$(OMPI_CC) MPICH_CC=$(MPICH_CC) $(MPICC) $(MPI_CFLAGS) | $(LOGGP_MPICC) $(LOGGP_MPI_CFLAGS)
ifneq ($(filter-out clean deps test fuzz example,$(or $(MAKECMDGOALS),all)),)
ifneq ($(file <$(FLAGS_FILE)),$(CC_FLAGS_NOW))
$(file >$(FLAGS_FILE),$(CC_FLAGS_NOW))
endif
ifneq ($(file <$(MPI_FLAGS_FILE)),$(MPI_FLAGS_NOW))
$(file >$(MPI_FLAGS_FILE),$(MPI_FLAGS_NOW))
endif
endif
$(FLAGS_FILE):
	$(shell mkdir -p $(@D))$(file >$@,$(CC_FLAGS_NOW))
$(MPI_FLAGS_FILE):
	$(shell mkdir -p $(@D))$(file >$@,$(MPI_FLAGS_NOW))

# The test suite runs under AddressSanitizer and UBSan.
# Installs missing Debian packages (flex, bison, graphviz, ...).
deps:
	scripts/install-deps.sh

test: deps
	$(MAKE) --no-print-directory SAN=1 WERROR=$(CI_WERROR) all
	tests/run.sh build/san

# Run the suite against an already built tree: make test-run B=build
test-run: all
	tests/run.sh $(B)

# Fuzz the GOAL compiler and the binary reader for FUZZ_SECONDS each (CI
# runs this briefly; by hand: make fuzz FUZZ_SECONDS=36000).  Corpora grow in
# build/fuzz/corpus-*; crashes are written to build/fuzz/.
FUZZ_SECONDS ?= 20
fuzz: deps
	$(MAKE) --no-print-directory SAN=fuzz WERROR=$(CI_WERROR) build/fuzz/fuzz_goal_text build/fuzz/fuzz_goal_bin \
		build/fuzz/fuzz_loggp build/fuzz/fuzz_trace build/fuzz/fuzz_t2g build/fuzz/fuzz_dumpi \
		build/fuzz/fuzz_timeline build/fuzz/fuzz_path build/fuzz/fuzz_sweep build/fuzz/fuzz_noise \
		build/fuzz/fuzz_topo build/fuzz/fuzz_dot build/fuzz/fuzz_otf2 build/fuzz/fuzz_chakra \
		build/fuzz/bin/goalc
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

# make install: the tools, the tracer library (when mpicc built it), a man
# page per tool (made from its --help, scripts/mkman.sh) and the docs.
MAN_PAGES = $(TOOLS:$(B)/bin/%=$(B)/man/%.1)
$(B)/man/%.1: $(B)/bin/% scripts/mkman.sh
	@mkdir -p $(@D)
	scripts/mkman.sh $< $@
DOC_DIR = $(DESTDIR)$(PREFIX)/share/doc/loggopsim
install: all $(MAN_PAGES)
	@mkdir -p $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DOC_DIR)/docs/img
	for t in $(TOOLS); do install -m 755 $$t $(DESTDIR)$(PREFIX)/bin/; done
	ln -sf goalc $(DESTDIR)$(PREFIX)/bin/txt2bin
	$(if $(GOALTRACE_SO),install -m 755 $(GOALTRACE_SO) $(DESTDIR)$(PREFIX)/lib/)
	install -m 644 $(MAN_PAGES) $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 644 README.md $(DOC_DIR)/
	install -m 644 docs/*.md $(DOC_DIR)/docs/
	install -m 644 $(wildcard docs/img/*) $(DOC_DIR)/docs/img/

# make clean all (clean with other goals): one job at a time, so that clean
# is done first, and the output folders are made again.
ifneq ($(filter clean,$(MAKECMDGOALS)),)
ifneq ($(filter-out clean,$(MAKECMDGOALS)),)
.NOTPARALLEL:
endif
endif
clean:
	rm -rf build
	$(if $(filter-out clean,$(MAKECMDGOALS)),mkdir -p $(B)/bin $(B)/tests $(B)/lib $(B)/gen)

-include $(OBJS:.o=.d)
