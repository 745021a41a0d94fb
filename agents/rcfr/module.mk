# agents/rcfr/module.mk — regression CFR: features, regressors (XGBoost, FANN, exact table), link functions
# and the RCFR family as a library (the tests and the benchmark drive it in-process), and bin/rcfr-train.

RCFR_SRC := agents/rcfr/featureset.c agents/rcfr/regressor.c agents/rcfr/table.c agents/rcfr/xgboost.c \
            agents/rcfr/fann.c agents/rcfr/linkfn.c agents/rcfr/rcfr.c
RCFR_LIB := $(BUILD)/lib/libdarkhex-rcfr.a
RCFR_LDLIBS := $(shell pkg-config --libs xgboost fann 2>/dev/null || echo -lxgboost -lfann) -lm
LIBS += $(RCFR_LIB)
PROGRAMS += $(BIN)/rcfr-train
$(BUILD)/obj/agents/rcfr/%.o: ALL_CFLAGS += -Iagents/solver $(shell pkg-config --cflags xgboost fann 2>/dev/null)

$(RCFR_LIB): $(RCFR_SRC:%.c=$(BUILD)/obj/%.o)
	@mkdir -p $(@D)
	rm -f $@ && $(AR) rcs $@ $^

$(BIN)/rcfr-train: $(BUILD)/obj/agents/rcfr/train.o $(RCFR_LIB) $(SOLVER_LIB) $(ENGINE_LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(RCFR_LDLIBS)
