# model: loggops-model, closed-form LogP / LogGP / LogGOPS models of
# collectives checked against the simulator (schedgen's generator, the
# simulation core and its parameter flags, params/params.c, linked in).

MODEL_SRCS := model/model_formula.c model/model_sim.c model/model_plot.c
MODEL_OBJS := $(MODEL_SRCS:%.c=$(B)/obj/%.o)

OBJS += $(MODEL_OBJS) $(B)/obj/model/loggops_model.o
TOOLS += $(B)/bin/loggops-model

$(MODEL_OBJS) $(B)/obj/model/loggops_model.o: ALL_CFLAGS += $(SIM_INC) -I schedgen

$(B)/bin/loggops-model: $(B)/obj/model/loggops_model.o $(MODEL_OBJS) $(SG_OBJS) $(PSETS_OBJS) \
		$(SIM_LIB) $(LIBTL) $(LIBGOAL) $(LIBPARAMS) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) $^ $(LDLIBS) -o $@

# Unit test: every formula against the simulator in its domain.
TEST_PROGS += $(B)/tests/model_formula_test
OBJS += $(B)/obj/tests/model/formula_test.o
$(B)/obj/tests/model/formula_test.o: ALL_CFLAGS += $(SIM_INC) -I schedgen -I model -I tests
$(B)/tests/model_formula_test: $(B)/obj/tests/model/formula_test.o $(MODEL_OBJS) $(SG_OBJS) $(SIM_LIB) $(LIBTL) $(LIBGOAL) $(LIBUTIL)
	$(CC) $(ALL_LDFLAGS) $^ $(LDLIBS) -o $@
