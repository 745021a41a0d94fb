# arena/module.mk — the rules engine library and the `arena` program.

ENGINE_SRC := arena/board.c arena/variant.c arena/game.c arena/keyset.c arena/tree.c
ENGINE_HEADERS := arena/board.h arena/variant.h arena/game.h arena/rng.h arena/keyset.h arena/tree.h
ENGINE_LIB := $(BUILD)/lib/libdarkhex-engine.a

# The coordinator/agent protocol: MessagePack messages (needs msgpack-c) and the referee that builds them.
PROTO_SRC := arena/protocol.c arena/referee.c
PROTO_LIB := $(BUILD)/lib/libdarkhex-proto.a
MSGPACK_CFLAGS = $(shell pkg-config --cflags msgpack 2>/dev/null)
MSGPACK_LIBS = $(shell pkg-config --libs msgpack 2>/dev/null || echo -lmsgpackc)
ENGINE_HEADERS += arena/protocol.h arena/referee.h
LIBS += $(PROTO_LIB)

$(PROTO_SRC:%.c=$(BUILD)/obj/%.o): ALL_CFLAGS += $(MSGPACK_CFLAGS)

$(PROTO_LIB): $(PROTO_SRC:%.c=$(BUILD)/obj/%.o)
	@mkdir -p $(@D)
	$(AR) rcs $@ $^

# The results database (needs SQLite).
STORE_SRC := arena/store.c
STORE_LIB := $(BUILD)/lib/libdarkhex-store.a
SQLITE_CFLAGS = $(shell pkg-config --cflags sqlite3 2>/dev/null)
SQLITE_LIBS = $(shell pkg-config --libs sqlite3 2>/dev/null || echo -lsqlite3)
ENGINE_HEADERS += arena/store.h
LIBS += $(STORE_LIB)

$(STORE_SRC:%.c=$(BUILD)/obj/%.o): ALL_CFLAGS += $(SQLITE_CFLAGS) $(MSGPACK_CFLAGS)

$(STORE_LIB): $(STORE_SRC:%.c=$(BUILD)/obj/%.o)
	@mkdir -p $(@D)
	$(AR) rcs $@ $^

ARENA_SRC := arena/main.c arena/cli.c arena/cmd_replay.c arena/cmd_tree.c arena/cmd_random.c

LIBS += $(ENGINE_LIB)
PROGRAMS += $(BIN)/arena

$(ENGINE_LIB): $(ENGINE_SRC:%.c=$(BUILD)/obj/%.o)
	@mkdir -p $(@D)
	$(AR) rcs $@ $^

$(BIN)/arena: $(ARENA_SRC:%.c=$(BUILD)/obj/%.o) $(ENGINE_LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ -lm
