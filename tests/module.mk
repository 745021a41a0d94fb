# tests/module.mk — unit and command-line tests (cmocka) and the benchmarks.

TEST_NAMES := test_board test_rules test_keys test_tree test_cli test_protocol test_referee test_store test_sdk test_match test_league test_ratings test_reports test_bridge test_solver test_policy test_trainer test_infowalk test_rl test_audit test_badinput test_soak test_access test_rcfr
TESTS += $(TEST_NAMES:%=$(BUILD)/tests/%)
BENCHES += $(BUILD)/tests/bench_engine

CMOCKA_CFLAGS = $(shell pkg-config --cflags cmocka 2>/dev/null)
CMOCKA_LIBS = $(shell pkg-config --libs cmocka 2>/dev/null || echo -lcmocka)

$(BUILD)/obj/tests/%.o: ALL_CFLAGS += $(CMOCKA_CFLAGS) -Itests

$(BUILD)/tests/test_%: $(BUILD)/obj/tests/test_%.o $(ENGINE_LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(CMOCKA_LIBS) -lm

$(BUILD)/tests/bench_engine: $(BUILD)/obj/tests/bench/bench_engine.o $(ENGINE_LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ -lm

$(BUILD)/tests/test_protocol $(BUILD)/tests/test_referee $(BUILD)/tests/test_audit: $(BUILD)/tests/%: $(BUILD)/obj/tests/%.o $(PROTO_LIB) $(ENGINE_LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(CMOCKA_LIBS) $(MSGPACK_LIBS) -lm

$(BUILD)/tests/test_match: $(BUILD)/obj/tests/test_match.o $(PROTO_LIB) $(ENGINE_LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(CMOCKA_LIBS) $(SQLITE_LIBS) $(MSGPACK_LIBS) -lm

$(BUILD)/tests/test_league: $(BUILD)/obj/tests/test_league.o $(COORD_LIB) $(STORE_LIB) $(PROTO_LIB) $(ENGINE_LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(CMOCKA_LIBS) $(COORD_LDLIBS)

$(BUILD)/obj/tests/test_ratings.o: ALL_CFLAGS += -Iratings
$(BUILD)/tests/test_ratings: $(BUILD)/obj/tests/test_ratings.o $(RATINGS_LIB) $(STORE_LIB) $(PROTO_LIB) $(ENGINE_LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(CMOCKA_LIBS) $(SQLITE_LIBS) $(MSGPACK_LIBS) -lm

$(BUILD)/tests/test_store: $(BUILD)/obj/tests/test_store.o $(STORE_LIB) $(PROTO_LIB) $(ENGINE_LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(CMOCKA_LIBS) $(SQLITE_LIBS) $(MSGPACK_LIBS) -lm

$(BUILD)/obj/tests/test_sdk.o: ALL_CFLAGS += $(ZMQ_CFLAGS)
$(BUILD)/tests/test_sdk: $(BUILD)/obj/tests/test_sdk.o $(PROTO_LIB) $(ENGINE_LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(CMOCKA_LIBS) $(ZMQ_LIBS) $(MSGPACK_LIBS) -lm

# Test bots (tests/agents/): misbehaving on purpose; the match tests find them through ARENA_TEST_AGENTS.
# Built from source without the mode's sanitizers (also with SAN=1): a bot that eats memory runs under an
# address-space limit, which the shadow memory of AddressSanitizer cannot live with.
TEST_AGENTS := $(BUILD)/tests/agents/misbehave
TESTS += $(TEST_AGENTS)
MISBEHAVE_SRC := tests/agents/misbehave.c $(PROTO_SRC) $(ENGINE_SRC)
$(BUILD)/tests/agents/misbehave: $(MISBEHAVE_SRC)
	@mkdir -p $(@D)
	$(CC) $(WARNINGS) -D_POSIX_C_SOURCE=200809L -O1 -g -MMD -MP -MF $@.d -Iarena $(ZMQ_CFLAGS) $(MSGPACK_CFLAGS) \
	    $(CFLAGS) -o $@ $(MISBEHAVE_SRC) $(LDFLAGS) $(ZMQ_LIBS) $(MSGPACK_LIBS) -lm
-include $(BUILD)/tests/agents/misbehave.d

BENCHES += $(BUILD)/tests/bench_match
$(BUILD)/obj/tests/bench/bench_match.o: ALL_CFLAGS += $(ZMQ_CFLAGS)
$(BUILD)/tests/bench_match: $(BUILD)/obj/tests/bench/bench_match.o $(COORD_LIB) $(STORE_LIB) $(PROTO_LIB) $(ENGINE_LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(COORD_LDLIBS)

BENCHES += $(BUILD)/tests/bench_ratings
$(BUILD)/obj/tests/bench/bench_ratings.o: ALL_CFLAGS += -Iratings
$(BUILD)/tests/bench_ratings: $(BUILD)/obj/tests/bench/bench_ratings.o $(RATINGS_LIB) $(ENGINE_LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ -lm

$(BUILD)/tests/test_reports $(BUILD)/tests/test_trainer $(BUILD)/tests/test_badinput $(BUILD)/tests/test_soak $(BUILD)/tests/test_access: $(BUILD)/tests/%: $(BUILD)/obj/tests/%.o $(ENGINE_LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(CMOCKA_LIBS) $(SQLITE_LIBS) -lm

$(BUILD)/obj/tests/test_bridge.o $(BUILD)/obj/tests/bench/bench_bridge.o: ALL_CFLAGS += -Iagents/bridge
$(BUILD)/tests/test_bridge: $(BUILD)/obj/tests/test_bridge.o $(BRIDGE_LIB) $(ENGINE_LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(CMOCKA_LIBS) -lm

BENCHES += $(BUILD)/tests/bench_bridge
$(BUILD)/tests/bench_bridge: $(BUILD)/obj/tests/bench/bench_bridge.o $(BRIDGE_LIB) $(ENGINE_LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ -lm

$(BUILD)/obj/tests/test_solver.o $(BUILD)/obj/tests/test_policy.o $(BUILD)/obj/tests/test_infowalk.o: ALL_CFLAGS += -Iagents/solver
$(BUILD)/tests/test_policy $(BUILD)/tests/test_infowalk: $(BUILD)/tests/%: $(BUILD)/obj/tests/%.o $(SOLVER_LIB) $(ENGINE_LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(CMOCKA_LIBS) -lm

$(BUILD)/tests/test_solver: $(BUILD)/obj/tests/test_solver.o $(SOLVER_LIB) $(ENGINE_LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(CMOCKA_LIBS) -lm

BENCHES += $(BUILD)/tests/bench_solver
$(BUILD)/obj/tests/bench/bench_solver.o: ALL_CFLAGS += -Iagents/solver
$(BUILD)/tests/bench_solver: $(BUILD)/obj/tests/bench/bench_solver.o $(SOLVER_LIB) $(ENGINE_LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ -lm

$(BUILD)/obj/tests/test_rl.o: ALL_CFLAGS += -Iagents/solver -Iagents/bridge -Iagents/rl
$(BUILD)/tests/test_rl: $(BUILD)/obj/tests/test_rl.o $(RL_LIB) $(BRIDGE_LIB) $(SOLVER_LIB) $(ENGINE_LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(CMOCKA_LIBS) $(SQLITE_LIBS) -lm

BENCHES += $(BUILD)/tests/bench_rl
$(BUILD)/obj/tests/bench/bench_rl.o: ALL_CFLAGS += -Iagents/solver -Iagents/bridge -Iagents/rl
$(BUILD)/tests/bench_rl: $(BUILD)/obj/tests/bench/bench_rl.o $(RL_LIB) $(BRIDGE_LIB) $(SOLVER_LIB) $(ENGINE_LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ -lm

# Regression CFR: features, regressors, link functions, the exact-model equivalences.
$(BUILD)/obj/tests/test_rcfr.o $(BUILD)/obj/tests/bench/bench_rcfr.o: ALL_CFLAGS += -Iagents/solver -Iagents/rcfr
$(BUILD)/tests/test_rcfr: $(BUILD)/obj/tests/test_rcfr.o $(RCFR_LIB) $(SOLVER_LIB) $(ENGINE_LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(CMOCKA_LIBS) $(RCFR_LDLIBS)

BENCHES += $(BUILD)/tests/bench_rcfr
$(BUILD)/tests/bench_rcfr: $(BUILD)/obj/tests/bench/bench_rcfr.o $(RCFR_LIB) $(SOLVER_LIB) $(ENGINE_LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(RCFR_LDLIBS)
