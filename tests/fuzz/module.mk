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
FUZZ_BINS := $(FUZZ_TARGETS:%=$(FUZZ_DIR)/fuzz_%)
FUZZ_SAN := -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CFLAGS = $(WARNINGS) -D_POSIX_C_SOURCE=200809L -pthread $(FUZZ_SAN) -g -O1 -MMD -MP $(FUZZ_INC) $(CFLAGS)
FUZZ_LDFLAGS = $(FUZZ_SAN) -pthread $(LDFLAGS)

# Each target links the instrumented objects of the libraries it uses; every project source gets the
# include flags of its library (set by `library` in the Makefile), each target those of what it uses.
fuzz_objs = $(foreach d,$(call closure,$1),$($d_SRC:%.c=$(FUZZ_DIR)/obj/%.o))

$(FUZZ_DIR)/obj/%.o: %.c | fuzz-check
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c $< -o $@

define fuzz_target
$$(FUZZ_DIR)/obj/tests/fuzz/fuzz_$1.o: FUZZ_INC = $$(call lib_cflags,$$(call closure,$2))
$$(FUZZ_DIR)/fuzz_$1: $$(FUZZ_DIR)/obj/tests/fuzz/fuzz_$1.o $$(call fuzz_objs,$2)
	$$(FUZZ_CC) $$(FUZZ_LDFLAGS) -o $$@ $$^ $$(call lib_ldlibs,$$(call closure,$2))
endef
$(eval $(call fuzz_target,message,protocol))
$(eval $(call fuzz_target,config,coordinator))
$(eval $(call fuzz_target,policy,solver))

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
