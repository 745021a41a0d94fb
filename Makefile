# Makefile — builds the engine library, the programs in bin/, the tests and the benchmarks.
# `make help` lists the targets. Modes: default (-O2), SAN=1 (ASan+UBSan, in build/san), and the
# benchmark build (-O3 -march=native, in build/bench). Each mode has its own object directory, so they
# never mix, and every object records its header dependencies (-MMD).

.DEFAULT_GOAL := all
SHELL := /bin/bash

PREFIX ?= /usr/local
DESTDIR ?=

ifeq ($(SAN),1)
  BUILD := build/san
  BIN := build/san/bin
  MODE_CFLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
  MODE_LDFLAGS := -fsanitize=address,undefined
else ifeq ($(BENCH),1)
  BUILD := build/bench
  BIN := build/bench/bin
  MODE_CFLAGS := -O3 -march=native -g
  MODE_LDFLAGS :=
else
  BUILD := build/release
  BIN := bin
  MODE_CFLAGS := -O2 -g
  MODE_LDFLAGS :=
endif

WARNINGS := -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
ALL_CFLAGS = $(WARNINGS) -D_POSIX_C_SOURCE=200809L -pthread $(MODE_CFLAGS) -MMD -MP -Iarena $(CFLAGS)
ALL_LDFLAGS = $(MODE_LDFLAGS) -pthread $(LDFLAGS)

# Per-module lists (each module.mk adds to these).
LIBS :=
PROGRAMS :=
TESTS :=
BENCHES :=

include ratings/module.mk
include agents/solver/module.mk
include arena/module.mk
include agents/module.mk
include agents/rcfr/module.mk
include tests/module.mk
include tests/fuzz/module.mk

OBJ = $(BUILD)/obj

$(OBJ)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)

.PHONY: all deps test test-build bench bench-build league policies rl-policies rcfr-policies experiments rl-report plots nightly install clean help
# Keep objects made through pattern chains (tests) so rebuilds stay incremental.
.SECONDARY:

all: $(LIBS) $(PROGRAMS)

deps:
	@scripts/deps.sh

test: deps
	@$(MAKE) --no-print-directory test-build
	@tests/run.sh "$(BUILD)/tests" "$(BIN)"

test-build: $(LIBS) $(PROGRAMS) $(TESTS)

bench:
	@$(MAKE) --no-print-directory BENCH=1 bench-build
	@for b in $(patsubst $(BUILD)/%,build/bench/%,$(BENCHES)); do "$$b" || exit 1; done

bench-build: $(LIBS) $(PROGRAMS) $(BENCHES)

# CFR+ policies for the leagues (generated under results/policies/, not in git): every variant on the
# boards whose game tree is small enough to solve in about a second each.
POLICY_VARIANTS := hex classical abrupt classical-noisy classical-flash abrupt-noisy abrupt-flash
POLICY_BOARDS := 3x2 2x3
POLICIES := $(foreach v,$(POLICY_VARIANTS),$(foreach b,$(POLICY_BOARDS),results/policies/cfr_$(v)_$(b).pol))
policies: $(POLICIES)

results/policies/cfr_%.pol: $(BIN)/cfr-train
	@mkdir -p $(@D)
	@"$(BIN)/cfr-train" --variant $(word 1,$(subst _, ,$*)) --board $(word 2,$(subst _, ,$*)) --algo cfr+ \
	    --iterations 1000 --eval-every 0 --fresh --quiet --out $@

# Tabular Q-learning policies for the leagues (results/rl/, not in git): self-play, perfect-recall keys,
# classical and abrupt on 3x2 and 3x3 (a few seconds in all; on 5x5 a table of millions of states that
# are mostly met once plays worse, see docs/bots.md).
RL_POLICIES := $(foreach v,classical abrupt,results/rl/qlearning_$(v)_3x2.pol results/rl/qlearning_$(v)_3x3.pol)
rl-policies: $(RL_POLICIES)

results/rl/qlearning_%.pol: $(BIN)/rl-train
	@mkdir -p $(@D)
	@"$(BIN)/rl-train" --variant $(word 1,$(subst _, ,$*)) --board $(word 2,$(subst _, ,$*)) --algo qlearning \
	    --episodes 300000 --eval-every 0 --fresh --quiet --out $@

# Regression CFR policies for the leagues (results/rcfr/BOT/, not in git): RCFR, f-RCFR with the
# exponential link (tau 0.1) and with the polynomial link (p 1.5), rich features and XGBoost trees, 50
# iterations on classical and abrupt 3x2 and 2x3 (about a minute in all; docs/bots.md).
RCFR_BOTS := rcfr frcfr-exp frcfr-poly
RCFR_GAMES := classical_3x2 abrupt_3x2 classical_2x3 abrupt_2x3
RCFR_POLICIES := $(foreach b,$(RCFR_BOTS),$(foreach g,$(RCFR_GAMES),results/rcfr/$(b)/$(g).pol))
RCFR_ARGS_rcfr := --algo rcfr
RCFR_ARGS_frcfr-exp := --algo frcfr --link exp --tau 0.1
RCFR_ARGS_frcfr-poly := --algo frcfr --link poly --p 1.5
rcfr-policies: $(RCFR_POLICIES)

results/rcfr/%.pol: $(BIN)/rcfr-train
	@mkdir -p $(@D)
	@g=$(notdir $*); "$(BIN)/rcfr-train" $(RCFR_ARGS_$(patsubst %/,%,$(dir $*))) --variant $${g%_*} \
	    --board $${g#*_} --iterations 50 --no-eval --fresh --quiet --checkpoint-every 0 --out $@ >/dev/null
	@rm -f $@.ckpt

# The regression CFR comparison (docs/experiments.md): exploitability curves, figures and the table of
# final exploitabilities in results/experiments/ (about 15 minutes on two cores).
EXPERIMENT_ITERATIONS ?= 200
experiments: all
	@scripts/rcfr_experiments.sh "$(BIN)" results/experiments $(EXPERIMENT_ITERATIONS) 2

# Learning curves and final win rates of Q-learning and SARSA (docs/bots.md), with a gnuplot figure.
rl-report: all policies
	@scripts/rl_report.sh "$(BIN)" results/rl-report

league: deps all policies rl-policies rcfr-policies
	@scripts/league.sh "$(BIN)" configs/quick.ini

LEAGUE ?= quick
plots: all
	@"$(BIN)/arena" plot --db results/arena.db --league "$(LEAGUE)"

nightly: deps all policies rl-policies rcfr-policies
	@scripts/nightly --bin "$(BIN)"

install: all
	install -d "$(DESTDIR)$(PREFIX)/bin" "$(DESTDIR)$(PREFIX)/lib" "$(DESTDIR)$(PREFIX)/include/darkhex"
	install -m 755 $(PROGRAMS) "$(DESTDIR)$(PREFIX)/bin"
	install -m 644 $(LIBS) "$(DESTDIR)$(PREFIX)/lib"
	install -m 644 $(ENGINE_HEADERS) "$(DESTDIR)$(PREFIX)/include/darkhex"
	install -d "$(DESTDIR)$(PREFIX)/share/darkhex-arena/scripts"
	install -m 755 scripts/plots.sh "$(DESTDIR)$(PREFIX)/share/darkhex-arena/scripts"
	install -m 644 scripts/*.gp "$(DESTDIR)$(PREFIX)/share/darkhex-arena/scripts"

clean:
	rm -rf build bin

help:
	@echo "make            build the libraries and the programs (into bin/)"
	@echo "make test       install missing packages, build and run every test (SAN=1: ASan+UBSan)"
	@echo "make bench      build with optimisation and print benchmark figures"
	@echo "make fuzz       build the libFuzzer targets with clang (ASan+UBSan), run each FUZZ_SECONDS (default 60)"
	@echo "make league     install missing packages, build, run configs/quick.ini, print ratings and matrices, plot"
	@echo "make policies   train the CFR+ policies the league configs use (results/policies/)"
	@echo "make rl-policies train the Q-learning policies the league configs use (results/rl/)"
	@echo "make rcfr-policies train the RCFR and f-RCFR policies the league configs use (results/rcfr/)"
	@echo "make experiments rerun the RCFR / f-RCFR comparison of docs/experiments.md (results/experiments/)"
	@echo "make rl-report  learning curves and win rates of Q-learning and SARSA (results/rl-report/)"
	@echo "make plots      plots of a league already in results/arena.db (LEAGUE=name, default quick)"
	@echo "make nightly    run configs/nightly.ini and write results/nightly/DATE/report.{md,html} (docs/nightly.md)"
	@echo "make deps       install missing Debian packages (apt-get; sudo when not root)"
	@echo "make install    install programs, libraries and headers under PREFIX (default /usr/local)"
	@echo "make clean      remove build/ and bin/"
