# tracer: the PMPI tracing library libgoaltrace.so (C and Fortran) and the
# example MPI programs, built when mpicc exists; the trace writer
# (trace_write.c) goes into libtrace (readers/) as well.

TRACER_OBJS := $(B)/obj/tracer/trace_write.o
OBJS += $(TRACER_OBJS)

# MPI parts: built without sanitizers (the library is preloaded into MPI
# programs), position independent, with the same warnings.
MPICC ?= mpicc
HAVE_MPICC := $(shell command -v $(MPICC) >/dev/null 2>&1 && echo 1)
ifeq ($(HAVE_MPICC),1)
GOALTRACE_SO := $(B)/lib/libgoaltrace.so
MPI_CFLAGS = -std=c11 -D_GNU_SOURCE $(WARN) -O2 -g -fPIC -MMD -MP -I util
TRACE_EXAMPLES := $(B)/examples/halo $(B)/examples/msgrate $(B)/examples/manyreq \
	$(B)/examples/vector
all: $(GOALTRACE_SO) $(TRACE_EXAMPLES)

$(B)/obj/mpi/%.o: tracer/%.c $(MPI_BUILD_DEPS)
	@mkdir -p $(@D)
	$(MPICC) $(MPI_CFLAGS) -c $< -o $@
GOALTRACE_OBJS := $(B)/obj/mpi/goaltrace.o $(B)/obj/mpi/goaltrace_coll.o \
	$(B)/obj/mpi/goaltrace_f.o $(B)/obj/mpi/trace_write.o
OBJS += $(GOALTRACE_OBJS)

$(GOALTRACE_SO): $(GOALTRACE_OBJS)
	@mkdir -p $(@D)
	$(MPICC) -shared -fPIC $^ -o $@

$(B)/obj/mpi/examples/%.o: tracer/examples/%.c $(MPI_BUILD_DEPS)
	@mkdir -p $(@D)
	$(MPICC) $(MPI_CFLAGS) -c $< -o $@
OBJS += $(B)/obj/mpi/examples/halo.o $(B)/obj/mpi/examples/msgrate.o \
	$(B)/obj/mpi/examples/manyreq.o $(B)/obj/mpi/examples/vector.o

$(B)/examples/%: $(B)/obj/mpi/examples/%.o
	@mkdir -p $(@D)
	$(MPICC) $< -lm -o $@

# A Fortran test program for the tracer's Fortran bindings, when mpif90 (and
# so gfortran) is there.
MPIF90 ?= mpif90
HAVE_MPIF90 := $(shell command -v $(MPIF90) >/dev/null 2>&1 && echo 1)
ifeq ($(HAVE_MPIF90),1)
all: $(B)/examples/fring
$(B)/examples/fring: tracer/examples/fring.f90 $(MPI_BUILD_DEPS)
	@mkdir -p $(@D)
	$(MPIF90) -O2 -Wall -Werror $< -o $@
endif
endif
