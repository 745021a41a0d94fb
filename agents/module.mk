# agents/module.mk — the bot SDK library and the bots built on it.

SDK_SRC := agents/sdk/bot.c
SDK_LIB := $(BUILD)/lib/libdarkhex-bot.a
ENGINE_HEADERS += agents/sdk/bot.h
LIBS += $(SDK_LIB)
PROGRAMS += $(BIN)/random

$(BUILD)/obj/agents/%.o: ALL_CFLAGS += -Iagents/sdk $(ZMQ_CFLAGS) $(MSGPACK_CFLAGS)

$(SDK_LIB): $(SDK_SRC:%.c=$(BUILD)/obj/%.o)
	@mkdir -p $(@D)
	$(AR) rcs $@ $^

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
	$(AR) rcs $@ $^

$(BIN)/bridge: $(BUILD)/obj/agents/bridge/bridge.o $(BRIDGE_LIB) $(BOT_LIBS)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(BOT_LDLIBS)

# The solver core (agents/solver/): the game interface, flat game trees, the CFR family, exact best
# responses, and Dark Hex as a game. A library shared by the trainers, the policy bot and the tests.
SOLVER_SRC := agents/solver/gametree.c agents/solver/cfr.c agents/solver/br.c agents/solver/darkhex.c
SOLVER_LIB := $(BUILD)/lib/libdarkhex-solver.a
LIBS += $(SOLVER_LIB)

$(SOLVER_LIB): $(SOLVER_SRC:%.c=$(BUILD)/obj/%.o)
	@mkdir -p $(@D)
	$(AR) rcs $@ $^
