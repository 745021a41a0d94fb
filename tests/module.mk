# tests/module.mk — the tests (cmocka; unit/ drives libraries in-process, e2e/ runs the programs), the
# misbehaving test bots and the benchmarks. Tests sit above every library; they also read the results
# database with SQLite directly, as an independent check of what the store wrote.

# The shared test headers (tests/*.h), cmocka and SQLite.
testkit_DIR := tests
testkit_CLOSURE := testkit cmocka sqlite
benchkit_DIR := tests
benchkit_CLOSURE := benchkit

# $(call test,SOURCE,USES) and $(call bench,SOURCE,USES): build/…/tests/NAME from one source.
test = $(eval TESTS += $(BUILD)/tests/$(notdir $(basename $1)))$(eval $(call link,$(BUILD)/tests/$(notdir $(basename $1)),$1,testkit $2))
bench = $(eval BENCHES += $(BUILD)/tests/$(notdir $(basename $1)))$(eval $(call link,$(BUILD)/tests/$(notdir $(basename $1)),$1,benchkit $2))

$(foreach t,board rules keys tree gale,$(call test,tests/unit/test_$t.c,engine))
$(foreach t,protocol referee audit,$(call test,tests/unit/test_$t.c,protocol))
$(call test,tests/unit/test_store.c,store)
$(call test,tests/unit/test_ratings.c,ratings store)
$(call test,tests/unit/test_report.c,report)
$(call test,tests/unit/test_svgfig.c,report)
$(call test,tests/unit/test_viewer.c,report)
$(call test,tests/unit/test_accept.c,server)
$(call test,tests/unit/test_bridge.c,bridge)
$(foreach t,solver policy infowalk payoff pone seqform lpexact doracle dowalk doseq classify classify_value valcert,$(call test,tests/unit/test_$t.c,solver))
$(call test,tests/unit/test_mc.c,mc)
$(call test,tests/unit/test_ismcts.c,ismcts)
$(call test,tests/unit/test_ismcts_resist.c,ismcts)
$(call test,tests/unit/test_ismcts_exact.c,ismcts mc)
$(call test,tests/unit/test_rl.c,rl)
$(call test,tests/unit/test_rcfr.c,rcfr)
$(foreach t,seeds openings timecontrol,$(call test,tests/unit/test_$t.c,coordinator))
$(call test,tests/unit/test_botlog.c,sandbox engine)
$(call test,tests/unit/test_tail.c,engine)
$(call test,tests/unit/test_memguard.c,engine)
$(call test,tests/unit/test_url.c,engine)
$(call test,tests/unit/test_utf8.c,coordinator)
$(call test,tests/unit/test_ladder_archive.c,ladder archive md)
$(call test,tests/unit/test_ladder_ini.c,ladder)
$(call test,tests/unit/test_ladder_accounts.c,ladder)

$(foreach t,cli reports badinput soak access firstrun docs,$(call test,tests/e2e/test_$t.c,engine))
$(call test,tests/e2e/test_trainer.c,solver)
$(call test,tests/e2e/test_match.c,coordinator)
$(call test,tests/e2e/test_logs.c,coordinator)
$(call test,tests/e2e/test_league.c,coordinator)
$(call test,tests/e2e/test_sdk.c,bot protocol zmq)
$(call test,tests/e2e/test_hostile.c,coordinator)
$(call test,tests/e2e/test_siege.c,coordinator)
$(call test,tests/e2e/test_limits.c,engine)
$(call test,tests/e2e/test_identity.c,engine)
$(call test,tests/e2e/test_mcbot.c,engine)
$(call test,tests/e2e/test_ismctsbot.c,engine)
$(call test,tests/e2e/test_browser.c,engine png)
$(call test,tests/e2e/test_serve.c,store png)
$(call test,tests/e2e/test_pages.c,store)
$(call test,tests/e2e/test_serve_agent.c,engine)
$(call test,tests/e2e/test_serve_siege.c,engine)
$(call test,tests/e2e/test_distributed.c,engine)
$(call test,tests/e2e/test_payoff_cli.c,engine)
$(call test,tests/e2e/test_clock.c,protocol)
$(call test,tests/e2e/test_ladder_work.c,ladder archive)
$(call test,tests/e2e/test_ladder.c,engine archive)
$(call test,tests/e2e/test_ladder_siege.c,engine archive)
$(call test,tests/e2e/test_ladder_slurm.c,ladder archive)
$(call test,tests/e2e/test_ladder_host.c,ladder archive)

$(call bench,tests/bench/bench_engine.c,engine)
$(call bench,tests/bench/bench_gale.c,engine)
$(call bench,tests/bench/bench_match.c,coordinator)
bench-build: $(BUILD)/tests/agents/misbehave # bench_match's chatty and flooding bots
$(call bench,tests/bench/bench_league.c,coordinator)
$(call bench,tests/bench/bench_ratings.c,ratings)
$(call bench,tests/bench/bench_reports.c,store)
$(call bench,tests/bench/bench_serve.c,store)
$(call bench,tests/bench/bench_host.c,engine sqlite)
$(call bench,tests/bench/bench_bridge.c,bridge)
$(call bench,tests/bench/bench_mc.c,mc)
$(call bench,tests/bench/bench_ismcts.c,ismcts mc)
$(call bench,tests/bench/bench_solver.c,solver clp)
$(call bench,tests/bench/bench_payoff.c,solver)
$(call bench,tests/bench/bench_pone.c,solver)
$(call bench,tests/bench/bench_rl.c,rl)
$(call bench,tests/bench/bench_rcfr.c,rcfr)

# Test bots (tests/agents/): misbehaving on purpose; the match tests find them through ARENA_TEST_AGENTS.
# Built from source without the mode's sanitizers (also with SAN=1): a bot that eats memory runs under an
# address-space limit, which the shadow memory of AddressSanitizer cannot live with.
TEST_AGENTS := $(BUILD)/tests/agents/misbehave $(BUILD)/tests/agents/hostile $(BUILD)/tests/agents/siege
TESTS += $(TEST_AGENTS)
MISBEHAVE_SRC := tests/agents/misbehave.c $(protocol_SRC) $(engine_SRC) $(base_SRC)
$(BUILD)/tests/agents/misbehave: $(MISBEHAVE_SRC)
	@mkdir -p $(@D)
	$(CC) $(WARNINGS) -D_POSIX_C_SOURCE=200809L -O1 -g -MMD -MP -MF $@.d -Itests $(call lib_cflags,$(call closure,protocol zmq)) \
	    $(CFLAGS) -o $@ $(MISBEHAVE_SRC) $(LDFLAGS) $(call lib_ldlibs,$(call closure,protocol zmq))
-include $(BUILD)/tests/agents/misbehave.d

# The hostile bot (tests/agents/hostile.c, for tests/e2e/test_hostile.c): the SDK's random play and attacks on
# what a bot must not reach; SQLite for writing into a results database it must not see.
HOSTILE_SRC := tests/agents/hostile.c $(bot_SRC) $(protocol_SRC) $(engine_SRC) $(base_SRC)
$(BUILD)/tests/agents/hostile: $(HOSTILE_SRC)
	@mkdir -p $(@D)
	$(CC) $(WARNINGS) -D_POSIX_C_SOURCE=200809L -O1 -g -MMD -MP -MF $@.d -Itests $(call lib_cflags,$(call closure,bot sqlite)) \
	    $(CFLAGS) -o $@ $(HOSTILE_SRC) $(LDFLAGS) $(call lib_ldlibs,$(call closure,bot sqlite)) -lm
-include $(BUILD)/tests/agents/hostile.d

# The siege bot (tests/agents/siege.c, for tests/e2e/test_siege.c): the SDK's random play and attacks on what a bot
# may take of the machine and learn from the clock.
SIEGE_SRC := tests/agents/siege.c $(bot_SRC) $(protocol_SRC) $(engine_SRC) $(base_SRC)
$(BUILD)/tests/agents/siege: $(SIEGE_SRC)
	@mkdir -p $(@D)
	$(CC) $(WARNINGS) -D_POSIX_C_SOURCE=200809L -O1 -g -MMD -MP -MF $@.d -Itests $(call lib_cflags,$(call closure,bot)) \
	    $(CFLAGS) -o $@ $(SIEGE_SRC) $(LDFLAGS) $(call lib_ldlibs,$(call closure,bot)) -lm
-include $(BUILD)/tests/agents/siege.d
