# arena/coordinator/module.mk — libdarkhex-coordinator: agent processes, the game loop over ZeroMQ,
# CurveZMQ, league configs and schedules, progress and log lines, players' seeds, and recording games in
# the store. Uses the protocol, the store, ZeroMQ, libmd (SHA-256), inih and libsodium (players' seeds).
$(eval $(call library,coordinator,arena/coordinator,protocol store zmq md inih sodium))
