# arena/protocol/module.mk — libdarkhex-protocol: the MessagePack messages and the referee that builds
# them from a game. Uses the engine and msgpack-c.
$(eval $(call library,protocol,arena/protocol,engine msgpack))
