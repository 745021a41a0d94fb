# agents/mc/module.mk — the Monte Carlo bot: its sampler and scorer as a library (libdarkhex-mc, used by the
# tests and the benchmark) and the bot.
$(eval $(call library,mc,agents/mc,engine,agents/mc/sampler.c agents/mc/scorer.c))
$(call program,mc,agents/mc/mc.c,bot mc)
