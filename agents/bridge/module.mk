# agents/bridge/module.mk — the bridge builder: its planner as a library (libdarkhex-bridge, used by the
# tests, the benchmark and the RL trainer's opponents) and the bot.
$(eval $(call library,bridge,agents/bridge,engine,agents/bridge/planner.c))
$(call program,bridge,agents/bridge/bridge.c,bot bridge)
