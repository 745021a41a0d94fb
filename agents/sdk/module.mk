# agents/sdk/module.mk — libdarkhex-bot: the C SDK a bot is written with (docs/writing-a-bot.md).
$(eval $(call library,bot,agents/sdk,protocol zmq))
