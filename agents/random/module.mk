# agents/random/module.mk — the random bot.
$(call program,random,agents/random/random.c,bot)
