# agents/ismcts/module.mk — the information-set MCTS bot: its belief and search as a library (libdarkhex-ismcts,
# used by the tests) and the bot.
$(eval $(call library,ismcts,agents/ismcts,engine,agents/ismcts/belief.c agents/ismcts/search.c))
$(call program,ismcts,agents/ismcts/ismcts.c,bot ismcts)
