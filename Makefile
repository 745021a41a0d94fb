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

# Quiet by default: one line per library and program built (compiler messages still show); V=1 prints every command.
ifeq ($(V),1)
  Q :=
  say :=
else
  Q := @
  say = @printf '  %-5s %s\n' $1 $2;
endif

WARNINGS := -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
# No -I here: each library's objects get -I for that library and the libraries below it (see `library`).
ALL_CFLAGS = $(WARNINGS) -D_POSIX_C_SOURCE=200809L -pthread $(MODE_CFLAGS) -MMD -MP $(CFLAGS)
ALL_LDFLAGS = $(MODE_LDFLAGS) -pthread $(LDFLAGS)
OBJ = $(BUILD)/obj
FUZZ_DIR = $(BUILD)/fuzz

# ---- Libraries and programs -------------------------------------------------------------------------
# A library is a folder of sources with a list of what it may use (libraries declared before it, and
# system packages declared with `external`). Its objects are compiled with -I for itself and everything
# it may use, transitively, and nothing else: including a header of a higher layer does not compile.
# docs/architecture.md has the diagram; `make check-layers` proves the fence holds for every pair.
LIBRARIES :=
LIBS :=
PROGRAMS :=
TESTS :=
BENCHES :=
HEADERS :=

reverse = $(if $1,$(call reverse,$(wordlist 2,$(words $1),$1)) $(firstword $1))
uniq_first = $(if $1,$(firstword $1) $(call uniq_first,$(filter-out $(firstword $1),$1)))
uniq_last = $(strip $(call reverse,$(call uniq_first,$(call reverse,$1))))
# Every library a list of libraries needs, each after all the ones that use it (link order).
closure = $(call uniq_last,$(foreach d,$1,$($d_CLOSURE)))
lib_cflags = $(foreach d,$1,$(if $($d_DIR),-I$($d_DIR)) $($d_CFLAGS_EXT))
lib_files = $(foreach d,$1,$($d_LIB))
lib_ldlibs = $(foreach d,$1,$($d_LDLIBS))

# $(call external,NAME,PKG-CONFIG MODULE,FALLBACK LIBS): a system library, usable in a dependency list. Its flags
# are read from pkg-config when make starts: a target that installs packages first (league, nightly, test,
# benchmark) builds in a second make, started after the install (see `after_deps` below).
PKG_CONFIG ?= pkg-config
define external
$1_CLOSURE := $1
$1_PKG := $2
$1_CFLAGS_EXT := $$(if $2,$$(shell $(PKG_CONFIG) --cflags $2 2>/dev/null))
$1_LDLIBS := $$(if $2,$$(shell $(PKG_CONFIG) --libs $2 2>/dev/null || echo $3),$3)
endef

# $(call library,NAME,DIR,USES,SOURCES): libdarkhex-NAME.a from SOURCES (default: every DIR/*.c);
# USES lists the libraries (and externals) its sources may include. Headers named *_private.h are the
# library's own (shared by its sources, not installed, not for other libraries).
define library
LIBRARIES += $1
$1_DIR := $2
$1_SRC := $$(if $4,$4,$$(wildcard $2/*.c))
$1_LIB := $$(BUILD)/lib/libdarkhex-$1.a
$1_CLOSURE := $$(call uniq_last,$1 $$(foreach d,$3,$$($$d_CLOSURE)))
$1_INC := $$(call lib_cflags,$$($1_CLOSURE))
LIBS += $$($1_LIB)
HEADERS += $$(filter-out %_private.h,$$(wildcard $2/*.h))
$$($1_SRC:%.c=$$(OBJ)/%.o): ALL_CFLAGS += $$($1_INC)
$$($1_SRC:%.c=$$(FUZZ_DIR)/obj/%.o): FUZZ_INC = $$($1_INC)
$$($1_LIB): $$($1_SRC:%.c=$$(OBJ)/%.o)
	@mkdir -p $$(@D)
	$$(call say,AR,$$@) rm -f $$@ && $$(AR) rcs $$@ $$^
endef

# $(call link,TARGET,SOURCES,USES): the one link rule. SOURCES are compiled with the include flags of USES.
define link
$1_CLOS := $$(call closure,$3)
$$(patsubst %.c,$$(OBJ)/%.o,$2): ALL_CFLAGS += $$(call lib_cflags,$$($1_CLOS))
$1: $$(patsubst %.c,$$(OBJ)/%.o,$2) $$(call lib_files,$$($1_CLOS))
	@mkdir -p $$(@D)
	$$(call say,LINK,$$@) $$(CC) $$(ALL_LDFLAGS) -o $$@ $$^ $$(call lib_ldlibs,$$($1_CLOS)) -lm
endef
program = $(eval PROGRAMS += $(BIN)/$1)$(eval $(call link,$(BIN)/$1,$2,$3))

# System libraries (Debian packages; scripts/deps.sh installs them).
$(eval $(call external,libm,,-lm))
$(eval $(call external,msgpack,msgpack,-lmsgpackc))
$(eval $(call external,sqlite,sqlite3,-lsqlite3))
$(eval $(call external,zmq,libzmq,-lzmq))
$(eval $(call external,md,libmd,-lmd))
$(eval $(call external,sodium,libsodium,-lsodium))
$(eval $(call external,xgboost,xgboost,-lxgboost))
$(eval $(call external,fann,fann,-lfann))
$(eval $(call external,cmocka,cmocka,-lcmocka))
$(eval $(call external,seccomp,libseccomp,-lseccomp))
$(eval $(call external,png,libpng,-lpng16))
$(eval $(call external,mhd,libmicrohttpd,-lmicrohttpd))
$(eval $(call external,archive,libarchive,-larchive))
# GLPK has no pkg-config module in Debian: its header and -lglpk are in the default paths.
$(eval $(call external,glpk,,-lglpk))
# COIN-OR CLP (coinor-libclp-dev), measured against GLPK in bench_solver.
$(eval $(call external,clp,clp,-lClp -lCoinUtils))
# GMP (libgmp-dev): exact rationals for the value certificates' checker (arena/solver/valcert.c).
$(eval $(call external,gmp,gmp,-lgmp))
# QSopt_ex (libqsopt-ex-dev): exact rational LPs, for the exact value of the sequence oracle's last restricted
# game (arena/solver/lpexact.c). No pkg-config module: its headers are under /usr/include/qsopt_ex.
$(eval $(call external,qsopt,,-lqsopt_ex))

# Bottom-up: a module may only use what is declared before it.
include arena/base/module.mk
include arena/engine/module.mk
include arena/protocol/module.mk
include arena/store/module.mk
include arena/solver/module.mk
include ratings/module.mk
include arena/sandbox/module.mk
include arena/coordinator/module.mk
include arena/report/module.mk
include arena/server/module.mk
include arena/ladder/module.mk
include arena/cli/module.mk
include agents/sdk/module.mk
include agents/trainer/module.mk
include agents/bridge/module.mk
include agents/mc/module.mk
include agents/ismcts/module.mk
include agents/random/module.mk
include agents/pone/module.mk
include agents/policy/module.mk
include agents/cfr/module.mk
include agents/rl/module.mk
include agents/rcfr/module.mk
include tests/module.mk
include tests/fuzz/module.mk

$(OBJ)/%.o: %.c
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -c $< -o $@

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)

.PHONY: all deps test check-layers check-install test-build bench bench-build league policies policies-3x3 curves-3x3 curves-3x3-vr curves-3x3-cfr benchmark benchmark-large benchmark-exploit equilibria certificates solved rl-policies rcfr-policies experiments rcfr-3x3 rl-report plots nightly install clean help
# Keep objects made through pattern chains (tests) so rebuilds stay incremental.
.SECONDARY:

all: $(LIBS) $(PROGRAMS)

# What installs the missing Debian packages (tests/e2e/test_firstrun.c gives a stand-in).
DEPS ?= scripts/deps.sh
# $(call after_deps,DEPS ARGUMENT,GOALS): the recipe lines of a target that works on a bare machine: the packages
# installed, then GOALS built by a new make, whose pkg-config flags are read now that the packages are there (this
# make read them before the install, when some were missing).
after_deps = @$(DEPS) $1$(newline)	@$(MAKE) --no-print-directory $2
define newline


endef

deps:
	@$(DEPS)

test:
	$(call after_deps,test,test-build check-layers check-install)
	@tests/run.sh "$(BUILD)/tests" "$(BIN)"

# The benchmarks are built (not run) with the tests, so they cannot rot unnoticed.
test-build: $(LIBS) $(PROGRAMS) $(TESTS) $(BENCHES)

# Every library against every other: a header of a higher layer must not preprocess (scripts/check_layers.sh).
check-layers:
	@scripts/check_layers.sh "$(CC)" $(foreach l,$(LIBRARIES),'$l|$($l_DIR)|$(strip $($l_INC))')

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

# Tabular Q-learning policies for the leagues (results/rl/, not in git): rl-train's defaults (opponent pool
# self:1,random:4,bridge:1, 180-degree symmetry, count-based step, perfect-recall keys), classical and
# abrupt on 3x2 and 3x3, 15 s of training each (about a minute in all; the 3x3 win rates level off after a
# few seconds, docs/bots.md; on 5x5 a table of millions of states that are mostly met once plays worse).
RL_POLICIES := $(foreach v,classical abrupt,results/rl/qlearning_$(v)_3x2.pol results/rl/qlearning_$(v)_3x3.pol)
rl-policies: $(RL_POLICIES)

results/rl/qlearning_%.pol: $(BIN)/rl-train
	@mkdir -p $(@D)
	@"$(BIN)/rl-train" --variant $(word 1,$(subst _, ,$*)) --board $(word 2,$(subst _, ,$*)) --algo qlearning \
	    --seconds 15 --eval-every 0 --fresh --quiet --out $@

# 3x3 CFR policies (results/policies/, so the leagues' `cfr` agent plays them) by full-width CFR+ over the
# information-state walk (averaging delay 50; each run uses both cores; about 11 GB for abrupt, 3 GB for
# classical), the method that gets lower per hour on 3x3 (docs/solver.md: below 1e-3 on abrupt after 18
# minutes, 2e-8 on classical after 10), POLICY_3X3_SECONDS each (default 28800: one night; both at once
# with `make -j2 policies-3x3`); checkpointed every 10 minutes, so an interrupted night resumes.
# Exploitability is measured apart (`arena exploit`, docs/solver.md), never inside the night.
POLICY_3X3_SECONDS ?= 28800
POLICY_3X3_ARGS_classical := --algo cfr+ --delay 50
POLICY_3X3_ARGS_abrupt := --algo cfr+ --delay 50
POLICIES_3X3 := results/policies/cfr_classical_3x3.pol results/policies/cfr_abrupt_3x3.pol
policies-3x3: $(POLICIES_3X3)

results/policies/cfr_%_3x3.pol: $(BIN)/cfr-train
	@mkdir -p $(@D)
	@"$(BIN)/cfr-train" --variant $* --board 3x3 $(POLICY_3X3_ARGS_$*) --seconds $(POLICY_3X3_SECONDS) --no-eval \
	    --checkpoint-every 600 --quiet --out $@

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

# Sampled RCFR and f-RCFR on 3x3 classical and abrupt (docs/experiments.md): RCFR3X3_SECONDS of training
# per run (default 600; six runs, one at a time, niced; outcome sampling, batches of 1000) plus the exact
# evaluation of each policy (7 to 16+ minutes each on a shared machine): 2 to 3 hours with the default;
# results/rcfr-3x3/table.md.
RCFR3X3_SECONDS ?= 600
rcfr-3x3: $(BIN)/rcfr-train
	@mkdir -p results/rcfr-3x3
	@scripts/rcfr_sampled_3x3.sh "$(BIN)" results/rcfr-3x3 $(RCFR3X3_SECONDS) 1000 "classical abrupt" outcome | tee results/rcfr-3x3/table.md

# Learning curves and final win rates of Q-learning and SARSA (docs/bots.md), with a gnuplot figure:
# RL_SECONDS of training per 3x3 run (default 300; four runs), about 25 minutes in all.
RL_SECONDS ?= 300
rl-report: all policies
	@scripts/rl_report.sh "$(BIN)" results/rl-report $(RL_SECONDS)

# The research bots' benchmark (configs/benchmark.ini, docs/benchmark.md): every research bot, random and
# bridge on classical and abrupt 3x3 and 4x3. It trains what it lacks first: cfr's 3x3 policies
# (policies-3x3: POLICY_3X3_SECONDS each, a night by default), the RL policies below (BENCH_RL_SECONDS each,
# default 60) and the sampled RCFR family's (BENCH_RCFR_SECONDS each, default 600). A policy bot plays
# only the games it has a policy for (cfr and the RCFR family have none on 4x3).
BENCH_RL_SECONDS ?= 60
BENCH_RL_POLICIES := $(foreach a,qlearning sarsa,$(foreach g,classical_3x3 abrupt_3x3 classical_4x3 abrupt_4x3,results/bench-rl/$(a)/$(g).pol))
BENCH_RCFR_SECONDS ?= 600
BENCH_RCFR_POLICIES := $(foreach b,rcfr frcfr-exp frcfr-poly,$(foreach v,classical abrupt,results/bench-rcfr/$(b)/$(v)_3x3.pol))
benchmark:
	$(call after_deps,,all $(POLICIES_3X3) $(BENCH_RL_POLICIES) $(BENCH_RCFR_POLICIES))
	@scripts/league.sh "$(BIN)" configs/benchmark.ini

# The large-board benchmark (configs/benchmark-large.ini, docs/benchmark.md): the ISMCTS bot against random,
# bridge, mc, pone and itself at a quarter of the time on 5x5, 7x7 and 11x11 in the six dark variants, 200 games
# per pairing (about 15,000 games: about an hour and a half on two cores; `arena league --shard` splits it over hosts).
benchmark-large:
	$(call after_deps,,all)
	@scripts/league.sh "$(BIN)" configs/benchmark-large.ini

# The certified equilibria of the small boards as policy files (results/equilibria/, about 40 s; 18 min more
# the first time for classical and abrupt 4x3): boards of at most 6 cells solved exactly on the spot, and the
# strategies of every certificate in docs/certificates (docs/solved.md).
equilibria:
	$(call after_deps,,all)
	@scripts/equilibria.sh "$(BIN)" results/equilibria

# The interval certificates of docs/certificates continued (scripts/tighten-certificates.sh, docs/solved.md):
# each one's board run by the sequence-form double oracle seeded by it for CERT_SECONDS, the new certificate
# checked in full and each end kept from whichever holds it better (one after the other: about CERT_SECONDS each, and up to
# half an hour more for abrupt 4x3's full check; the runs' JSON and logs in results/certificates/).
CERT_SECONDS ?= 3600
certificates:
	$(call after_deps,,all)
	@scripts/tighten-certificates.sh "$(BIN)" $(CERT_SECONDS)

# The table of docs/solved.md again (arena classify, docs/cli.md): every board of at most SOLVED_CELLS cells
# in the six dark variants, SOLVED_BUDGET seconds a row, starting from the certificates of docs/certificates
# and docs/certificates/first (copied, unpacked, into results/solved/ without overwriting what an earlier run left
# there, the first-move ones named RxC-V-first-CELL.value as classify writes them: a row's or a cell's
# certificate is replaced only by a narrower one, so each run starts where the last one stopped). Night-long
# at the defaults; the JSON rows in results/solved/table.json.
SOLVED_CELLS ?= 12
SOLVED_BUDGET ?= 600
solved:
	$(call after_deps,,all)
	@mkdir -p results/solved
	@cp -n docs/certificates/*.value results/solved/
	@for f in docs/certificates/*.value.gz; do t=results/solved/$$(basename "$$f" .gz); [ -e "$$t" ] || gzip -dc "$$f" > "$$t"; done
	@for f in docs/certificates/first/*.value; do b=$$(basename "$$f" .value); \
		t="results/solved/$${b%-*}-first-$${b##*-}.value"; [ -e "$$t" ] || cp "$$f" "$$t"; done
	@nice -n 5 $(BIN)/arena classify --max-cells $(SOLVED_CELLS) --budget-s $(SOLVED_BUDGET) --first-moves \
		--certificates results/solved --progress --json > results/solved/table.json
	@echo "results/solved/table.json"

# The exploitability of every 3x3 policy the benchmark plays (arena exploit, minutes each on 3x3; results
# kept in results/benchmark-exploit/, a file scored again only when its policy changed): docs/benchmark.md.
benchmark-exploit: all
	@mkdir -p results/benchmark-exploit
	@scripts/benchmark_exploit.sh "$(BIN)" configs/benchmark.ini results/benchmark-exploit | tee results/benchmark-exploit/table.md

# Exploitability against training time on 3x3 (docs/solver.md): external-sampling MCCFR on classical and
# abrupt, snapshots after each of CURVE_3X3_POINTS seconds of training (one run, resumed from its
# checkpoint), each scored exactly afterwards; results/curves-3x3/VARIANT.csv and exploitability.png. The
# default (points up to one hour) takes about two hours with `make -j2 curves-3x3` (both variants at once).
CURVE_3X3_POINTS ?= 600 1200 2400 3600
curves-3x3: results/curves-3x3/classical.csv results/curves-3x3/abrupt.csv
	@gnuplot -e "files='results/curves-3x3/classical.csv results/curves-3x3/abrupt.csv'; names='classical abrupt'; out='results/curves-3x3/exploitability.png'" scripts/curves.gp
	@cat results/curves-3x3/classical.csv results/curves-3x3/abrupt.csv

# Full-width CFR+ over the information-state walk on 3x3 (cfr-train --algo cfr+, which trains over the walk
# when the tree does not fit; docs/solver.md): CURVE_3X3_CFR_SECONDS of training per variant (default
# 3600), its average scored exactly every CURVE_3X3_CFR_EVERY iterations (default 100; off the training
# clock), the first CURVE_3X3_CFR_DELAY (50) iterations left out of the average. One variant after the
# other (each uses both cores, about 10 GB): about 2.5 hours. Plotted with the MCCFR curves when present.
# (cfr-train is an order-only prerequisite: rebuilding it does not retrain.)
CURVE_3X3_CFR_SECONDS ?= 3600
CURVE_3X3_CFR_EVERY ?= 100
CURVE_3X3_CFR_DELAY ?= 50
curves-3x3-cfr: results/curves-3x3/classical-cfr+.csv results/curves-3x3/abrupt-cfr+.csv
	@files=""; names=""; for n in classical classical-cfr+ abrupt abrupt-cfr+; do \
	    if [ -f results/curves-3x3/$$n.csv ]; then files="$$files results/curves-3x3/$$n.csv"; names="$$names $$n"; fi; done; \
	    gnuplot -e "files='$$files'; names='$$names'; out='results/curves-3x3/exploitability-cfr.png'; xlab='training hours (MCCFR: external sampling; -cfr+: CFR+ over the walk)'" scripts/curves.gp
	@cat results/curves-3x3/classical-cfr+.csv results/curves-3x3/abrupt-cfr+.csv

results/curves-3x3/%-cfr+.csv: | $(BIN)/cfr-train
	@scripts/curves_3x3_cfr.sh "$(BIN)" results/curves-3x3 $* $(CURVE_3X3_CFR_SECONDS) $(CURVE_3X3_CFR_EVERY) \
	    $(CURVE_3X3_CFR_DELAY)

# The same with variance reduction (cfr-train --baseline history), plotted against the plain curves when
# they are there: which gets lower per hour (docs/solver.md). Snapshots after CURVE_3X3_VR_POINTS seconds
# (default 10 and 20 minutes: about 45 minutes with `make -j2 curves-3x3-vr`).
CURVE_3X3_VR_POINTS ?= 600 1200
curves-3x3-vr: results/curves-3x3/classical-vr.csv results/curves-3x3/abrupt-vr.csv
	@files=""; names=""; for n in classical classical-vr abrupt abrupt-vr; do \
	    if [ -f results/curves-3x3/$$n.csv ]; then files="$$files results/curves-3x3/$$n.csv"; names="$$names $$n"; fi; done; \
	    gnuplot -e "files='$$files'; names='$$names'; out='results/curves-3x3/exploitability-vr.png'" scripts/curves.gp
	@cat results/curves-3x3/classical-vr.csv results/curves-3x3/abrupt-vr.csv

results/curves-3x3/%-vr.csv: $(BIN)/cfr-train $(BIN)/arena
	@scripts/curves_3x3.sh "$(BIN)" results/curves-3x3 $* "$(CURVE_3X3_VR_POINTS)" $*-vr "--baseline history"

results/curves-3x3/%.csv: $(BIN)/cfr-train $(BIN)/arena
	@scripts/curves_3x3.sh "$(BIN)" results/curves-3x3 $* "$(CURVE_3X3_POINTS)"

# The sampled RCFR family on 3x3 (outcome sampling, batches of 1,000, BENCH_RCFR_SECONDS each; no exact
# evaluation here: `make rcfr-3x3` measures it).
results/bench-rcfr/%.pol: $(BIN)/rcfr-train
	@mkdir -p $(@D)
	@g=$(notdir $*); "$(BIN)/rcfr-train" $(RCFR_ARGS_$(patsubst %/,%,$(dir $*))) --variant $${g%_*} --board 3x3 \
	    --sampling outcome --batch 1000 --seconds $(BENCH_RCFR_SECONDS) --no-eval --quiet --out $@ >/dev/null

results/bench-rl/%.pol: $(BIN)/rl-train
	@mkdir -p $(@D)
	@a=$(patsubst %/,%,$(dir $*)); g=$(notdir $*); b=$${g#*_}; k=perfect; [ "$$b" = 3x3 ] || k=view; \
	    "$(BIN)/rl-train" --variant $${g%_*} --board $$b --algo $$a --keys $$k --seconds $(BENCH_RL_SECONDS) \
	    --eval-every 0 --fresh --quiet --checkpoint-every 0 --out $@
	@rm -f $@.ckpt

# What `make league` builds before it plays (every bot and policy of configs/quick.ini).
LEAGUE_NEEDS ?= all policies rl-policies rcfr-policies
league:
	$(call after_deps,,$(LEAGUE_NEEDS))
	@scripts/league.sh "$(BIN)" configs/quick.ini

LEAGUE ?= quick
plots: all
	@"$(BIN)/arena" plot --db results/arena.db --league "$(LEAGUE)"

NIGHTLY_CONFIG ?= configs/nightly.ini
nightly:
	$(call after_deps,,all policies rl-policies rcfr-policies)
	@scripts/nightly --bin "$(BIN)" --config "$(NIGHTLY_CONFIG)"

# Installed libraries in link order (each before the ones it uses) and what darkhex.pc lists. The headers go
# flat into include/darkhex/ (names are unique across libraries; each includes its siblings with quotes, found
# beside it) and darkhex.pc adds include/ to the path, so a program writes #include <darkhex/board.h> and
# generic names (board.h, json.h, grow.h) never meet another library's.
INSTALL_ORDER = $(filter $(LIBRARIES),$(call closure,$(call reverse,$(LIBRARIES))))
PC_REQUIRES = $(strip $(foreach e,$(filter-out $(LIBRARIES),$(call closure,$(LIBRARIES))),$($e_PKG)))
PC_LIBS = $(foreach l,$(INSTALL_ORDER),-ldarkhex-$l) $(strip $(foreach e,$(filter-out $(LIBRARIES),$(call closure,$(LIBRARIES))),$(if $($e_PKG),,$($e_LDLIBS))))

install: all
	install -d "$(DESTDIR)$(PREFIX)/bin" "$(DESTDIR)$(PREFIX)/lib/pkgconfig" "$(DESTDIR)$(PREFIX)/include/darkhex"
	install -m 755 $(PROGRAMS) "$(DESTDIR)$(PREFIX)/bin"
	install -m 644 $(LIBS) "$(DESTDIR)$(PREFIX)/lib"
	install -m 644 $(HEADERS) "$(DESTDIR)$(PREFIX)/include/darkhex"
	printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$${prefix}/lib' 'includedir=$${prefix}/include' '' \
	    'Name: darkhex' 'Description: Dark Hex Arena: rules engine, protocol, store, solver, coordinator, bot SDK' \
	    'Version: $(shell git describe --always --dirty 2>/dev/null || echo 0)' 'Requires: $(PC_REQUIRES)' \
	    'Cflags: -I$${includedir} -pthread' 'Libs: -L$${libdir} $(PC_LIBS) -pthread -lm' \
	    >"$(DESTDIR)$(PREFIX)/lib/pkgconfig/darkhex.pc"
	install -d "$(DESTDIR)$(PREFIX)/share/darkhex-arena/scripts"
	install -m 644 scripts/*.gp "$(DESTDIR)$(PREFIX)/share/darkhex-arena/scripts"

# Installs into a temporary prefix and builds a program against every installed header and library
# with pkg-config, as a user of the libraries would (scripts/check_install.sh).
check-install: all
	@CC="$(CC)" PROBE_FLAGS="$(MODE_LDFLAGS)" scripts/check_install.sh

clean:
	rm -rf build bin

help:
	@echo "make            build the libraries and the programs (into bin/)"
	@echo "make test       install missing packages (and chromium, libpng-dev for the browser tests), build and run every test (SAN=1: ASan+UBSan)"
	@echo "make bench      build with optimisation and print benchmark figures"
	@echo "make fuzz       build the libFuzzer targets with clang (ASan+UBSan), run each FUZZ_SECONDS (default 60)"
	@echo "make league     install missing packages, build, run configs/quick.ini, print ratings and matrices, plot"
	@echo "make policies   train the CFR+ policies the league configs use (results/policies/)"
	@echo "make rl-policies train the Q-learning policies the league configs use (results/rl/, about a minute)"
	@echo "make policies-3x3 train 3x3 policies by CFR+ over the information-state walk (POLICY_3X3_SECONDS each, default one night)"
	@echo "make curves-3x3 exploitability against training hours, MCCFR on classical and abrupt 3x3 (about two hours with -j2)"
	@echo "make curves-3x3-vr the same with history baselines (VR-MCCFR), to 20 minutes (about 45 minutes with -j2)"
	@echo "make curves-3x3-cfr full-width CFR+ over the information-state walk on 3x3, an hour per variant (about 2.5 hours)"
	@echo "make equilibria the certified equilibria of the small boards as policy files (results/equilibria/)"
	@echo "make certificates continue the interval certificates of docs/certificates (CERT_SECONDS each, default 3600)"
	@echo "make solved      the docs/solved.md table again from docs/certificates (night-long; results/solved/)"
	@echo "make benchmark-exploit  the exact exploitability of every 3x3 policy of the benchmark"
	@echo "make benchmark  the research bots' league on classical and abrupt 3x3 and 4x3 (configs/benchmark.ini, docs/benchmark.md)"
	@echo "make benchmark-large  the ISMCTS bot against every bot on 5x5, 7x7 and 11x11 in the dark variants (configs/benchmark-large.ini)"
	@echo "make rcfr-policies train the RCFR and f-RCFR policies the league configs use (results/rcfr/)"
	@echo "make experiments rerun the RCFR / f-RCFR comparison of docs/experiments.md (results/experiments/)"
	@echo "make rcfr-3x3     sampled RCFR / f-RCFR on 3x3, exact exploitability (RCFR3X3_SECONDS per run; results/rcfr-3x3/)"
	@echo "make rl-report  learning curves and win rates of Q-learning and SARSA (results/rl-report/, about 25 minutes)"
	@echo "make plots      plots of a league already in results/arena.db (LEAGUE=name, default quick)"
	@echo "make nightly    run configs/nightly.ini and write results/nightly/DATE/report.{md,html} (docs/nightly.md)"
	@echo "                NIGHTLY_CONFIG=path/to.ini runs that config instead; the games and an estimate are printed first"
	@echo "make deps       install missing Debian packages (apt-get; sudo when not root)"
	@echo "make install    install programs, libraries, headers (include/darkhex/) and darkhex.pc under PREFIX (default /usr/local)"
	@echo "make check-layers  prove that no library can include a header of a layer above it (docs/architecture.md)"
	@echo "make check-install install into a temporary prefix and build a program against it with pkg-config"
	@echo "make clean      remove build/ and bin/"
