# agents/ismcts/module.mk — the information-set MCTS bot: its belief, search, exact play (the solver's sure
# wins, dead cells) and moves as a library (libdarkhex-ismcts, used by the tests and the benchmark) and the bot.
$(eval $(call library,ismcts,agents/ismcts,engine solver,agents/ismcts/belief.c agents/ismcts/search.c agents/ismcts/resist.c agents/ismcts/surekey.c agents/ismcts/deadcell.c agents/ismcts/ismplay.c agents/ismcts/ismpolicy.c))
$(call program,ismcts,agents/ismcts/ismcts.c,bot ismcts)
