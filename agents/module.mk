# agents/module.mk — the bot SDK library and the bots built on it.

SDK_SRC := agents/sdk/bot.c
SDK_LIB := $(BUILD)/lib/libdarkhex-bot.a
ENGINE_HEADERS += agents/sdk/bot.h
LIBS += $(SDK_LIB)
PROGRAMS += $(BIN)/random

$(BUILD)/obj/agents/%.o: ALL_CFLAGS += -Iagents/sdk $(ZMQ_CFLAGS) $(MSGPACK_CFLAGS)

$(SDK_LIB): $(SDK_SRC:%.c=$(BUILD)/obj/%.o)
	@mkdir -p $(@D)
	rm -f $@ && $(AR) rcs $@ $^

# Every bot links the SDK, the protocol and the engine.
BOT_LIBS = $(SDK_LIB) $(PROTO_LIB) $(ENGINE_LIB)
BOT_LDLIBS = $(ZMQ_LIBS) $(MSGPACK_LIBS) -lm

$(BIN)/random: $(BUILD)/obj/agents/random/random.o $(BOT_LIBS)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(BOT_LDLIBS)

# The bridge builder: its planner is a library so the tests and the benchmark can drive it in-process.
BRIDGE_LIB := $(BUILD)/lib/libdarkhex-bridge.a
LIBS += $(BRIDGE_LIB)
PROGRAMS += $(BIN)/bridge

$(BRIDGE_LIB): $(BUILD)/obj/agents/bridge/planner.o
	@mkdir -p $(@D)
	rm -f $@ && $(AR) rcs $@ $^

$(BIN)/bridge: $(BUILD)/obj/agents/bridge/bridge.o $(BRIDGE_LIB) $(BOT_LIBS)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(BOT_LDLIBS)

# The CFR trainer and the policy bot, on the solver library.
PROGRAMS += $(BIN)/cfr-train $(BIN)/policy-bot
$(BUILD)/obj/agents/cfr/%.o $(BUILD)/obj/agents/policy/%.o: ALL_CFLAGS += -Iagents/solver

$(BIN)/cfr-train: $(BUILD)/obj/agents/cfr/train.o $(SOLVER_LIB) $(ENGINE_LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ -lm

$(BIN)/policy-bot: $(BUILD)/obj/agents/policy/policy_bot.o $(SOLVER_LIB) $(BOT_LIBS)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(BOT_LDLIBS)

# The tabular RL trainer (Q-learning, SARSA): the learner is a library so the tests drive it in-process;
# opponents include the bridge builder's planner.
RL_LIB := $(BUILD)/lib/libdarkhex-rl.a
LIBS += $(RL_LIB)
PROGRAMS += $(BIN)/rl-train
$(BUILD)/obj/agents/rl/%.o: ALL_CFLAGS += -Iagents/solver -Iagents/bridge

$(RL_LIB): $(BUILD)/obj/agents/rl/learn.o
	@mkdir -p $(@D)
	rm -f $@ && $(AR) rcs $@ $^

$(BIN)/rl-train: $(BUILD)/obj/agents/rl/train.o $(RL_LIB) $(BRIDGE_LIB) $(SOLVER_LIB) $(ENGINE_LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ -lm
