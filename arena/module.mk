# arena/module.mk — the rules engine library and the `arena` program.

ENGINE_SRC := arena/board.c arena/variant.c arena/game.c arena/keyset.c arena/tree.c arena/infocount.c
ENGINE_HEADERS := arena/board.h arena/variant.h arena/game.h arena/rng.h arena/keyset.h arena/tree.h arena/infocount.h
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
	rm -f $@ && $(AR) rcs $@ $^

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
	rm -f $@ && $(AR) rcs $@ $^

# The coordinator: agent processes (posix_spawn; SHA-256 of executables through libmd), the game loop over
# ZeroMQ, and progress lines.
COORD_SRC := arena/agent.c arena/logline.c arena/curve.c arena/runner.c arena/progress.c arena/config.c arena/league.c
COORD_LIB := $(BUILD)/lib/libdarkhex-coord.a
ZMQ_CFLAGS = $(shell pkg-config --cflags libzmq 2>/dev/null)
ZMQ_LIBS = $(shell pkg-config --libs libzmq 2>/dev/null || echo -lzmq)
MD_LIBS = $(shell pkg-config --libs libmd 2>/dev/null || echo -lmd)
INIH_CFLAGS = $(shell pkg-config --cflags inih 2>/dev/null)
INIH_LIBS = $(shell pkg-config --libs inih 2>/dev/null || echo -linih)
ENGINE_HEADERS += arena/agent.h arena/runner.h arena/progress.h arena/config.h arena/league.h
LIBS += $(COORD_LIB)
COORD_LDLIBS = $(ZMQ_LIBS) $(MSGPACK_LIBS) $(SQLITE_LIBS) $(MD_LIBS) $(INIH_LIBS) -lm

$(COORD_SRC:%.c=$(BUILD)/obj/%.o): ALL_CFLAGS += $(ZMQ_CFLAGS) $(MSGPACK_CFLAGS) $(INIH_CFLAGS)

$(COORD_LIB): $(COORD_SRC:%.c=$(BUILD)/obj/%.o)
	@mkdir -p $(@D)
	rm -f $@ && $(AR) rcs $@ $^

ARENA_SRC := arena/main.c arena/cli.c arena/cmd_replay.c arena/cmd_tree.c arena/cmd_random.c arena/cmd_match.c \
             arena/cmd_games.c arena/cmd_league.c arena/cmd_ratings.c arena/cmd_export.c arena/cmd_plot.c arena/cli_db.c \
             arena/cmd_exploit.c arena/cmd_keygen.c

LIBS += $(ENGINE_LIB)
PROGRAMS += $(BIN)/arena

$(ENGINE_LIB): $(ENGINE_SRC:%.c=$(BUILD)/obj/%.o)
	@mkdir -p $(@D)
	rm -f $@ && $(AR) rcs $@ $^

$(ARENA_SRC:%.c=$(BUILD)/obj/%.o): ALL_CFLAGS += $(SQLITE_CFLAGS) $(MSGPACK_CFLAGS) -Iratings -Iagents/solver

$(BIN)/arena: $(ARENA_SRC:%.c=$(BUILD)/obj/%.o) $(SOLVER_LIB) $(COORD_LIB) $(RATINGS_LIB) $(STORE_LIB) $(PROTO_LIB) $(ENGINE_LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(COORD_LDLIBS)
