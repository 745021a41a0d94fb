# tests/fuzz/module.mk — the libFuzzer targets (docs/fuzzing.md). `make fuzz` builds each target and the
# project sources it links with clang, libFuzzer, ASan and UBSan into $(BUILD)/fuzz/ (never the normal
# objects), then runs each for FUZZ_SECONDS on a fresh copy of its seed corpus (tests/fuzz/corpus/NAME/,
# only read). It fails when a target crashes, leaks, times out or runs out of memory; the input that did
# it is kept under $(BUILD)/fuzz/NAME/artifacts/ and its path printed.

FUZZ_SECONDS ?= 60
FUZZ_TIMEOUT ?= 10
FUZZ_CC ?= clang
FUZZ_FLAGS ?=
FUZZ_TARGETS := message config policy
FUZZ_DIR = $(BUILD)/fuzz
FUZZ_BINS := $(FUZZ_TARGETS:%=$(FUZZ_DIR)/fuzz_%)
FUZZ_SAN := -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CFLAGS = $(WARNINGS) -D_POSIX_C_SOURCE=200809L -pthread $(FUZZ_SAN) -g -O1 -MMD -MP -Iarena $(FUZZ_INC) $(CFLAGS)
FUZZ_LDFLAGS = $(FUZZ_SAN) -pthread $(LDFLAGS)

# The engine, instrumented like the targets; each target links only the objects it uses.
FUZZ_ENGINE_LIB := $(FUZZ_DIR)/lib/libdarkhex-engine.a

$(FUZZ_DIR)/obj/%.o: %.c | fuzz-check
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c $< -o $@

# The include flags each project source gets in the normal build (arena/module.mk).
$(PROTO_SRC:%.c=$(FUZZ_DIR)/obj/%.o): FUZZ_INC = $(MSGPACK_CFLAGS)
$(COORD_SRC:%.c=$(FUZZ_DIR)/obj/%.o): FUZZ_INC = $(ZMQ_CFLAGS) $(MSGPACK_CFLAGS) $(INIH_CFLAGS)
$(FUZZ_DIR)/obj/agents/solver/policy.o $(FUZZ_DIR)/obj/tests/fuzz/fuzz_policy.o: FUZZ_INC = -Iagents/solver

$(FUZZ_ENGINE_LIB): $(ENGINE_SRC:%.c=$(FUZZ_DIR)/obj/%.o)
	@mkdir -p $(@D)
	rm -f $@ && $(AR) rcs $@ $^

$(FUZZ_DIR)/fuzz_message: $(FUZZ_DIR)/obj/tests/fuzz/fuzz_message.o $(FUZZ_DIR)/obj/arena/protocol.o $(FUZZ_ENGINE_LIB)
	$(FUZZ_CC) $(FUZZ_LDFLAGS) -o $@ $^ $(MSGPACK_LIBS) -lm

# config.c checks the Z85 keys of agents with curve.c (libzmq).
$(FUZZ_DIR)/fuzz_config: $(FUZZ_DIR)/obj/tests/fuzz/fuzz_config.o $(FUZZ_DIR)/obj/arena/config.o \
                         $(FUZZ_DIR)/obj/arena/curve.o $(FUZZ_DIR)/obj/arena/logline.o $(FUZZ_ENGINE_LIB)
	$(FUZZ_CC) $(FUZZ_LDFLAGS) -o $@ $^ $(INIH_LIBS) $(ZMQ_LIBS) -lm

$(FUZZ_DIR)/fuzz_policy: $(FUZZ_DIR)/obj/tests/fuzz/fuzz_policy.o $(FUZZ_DIR)/obj/agents/solver/policy.o $(FUZZ_ENGINE_LIB)
	$(FUZZ_CC) $(FUZZ_LDFLAGS) -o $@ $^ -lm

-include $(shell find $(FUZZ_DIR)/obj -name '*.d' 2>/dev/null)

.PHONY: fuzz fuzz-build fuzz-check $(FUZZ_TARGETS:%=fuzz-run-%)

fuzz: $(FUZZ_TARGETS:%=fuzz-run-%)

fuzz-build: $(FUZZ_BINS)

# Each target runs in its own directory ($(BUILD)/fuzz/NAME/), so `make -j fuzz` runs them side by side.
$(FUZZ_TARGETS:%=fuzz-run-%): fuzz-run-%: $(FUZZ_DIR)/fuzz_%
	@tests/fuzz/run.sh "$<" tests/fuzz/corpus/$* "$(FUZZ_DIR)/$*" "$(FUZZ_SECONDS)" "$(FUZZ_TIMEOUT)" $(FUZZ_FLAGS)

fuzz-check:
	@[ "$(FUZZ_CC)" != clang ] || scripts/deps.sh fuzz
	@command -v $(FUZZ_CC) >/dev/null 2>&1 || { echo "make fuzz: $(FUZZ_CC) not found; the fuzz targets need clang" \
	    "with libFuzzer (Debian: apt-get install clang)" >&2; exit 1; }
