# arena/coordinator/module.mk — libdarkhex-coordinator: agents as commands, the game loop over ZeroMQ, CurveZMQ,
# league configs and schedules, progress, players' seeds, and recording games in the store. Uses the protocol, the
# store, the ratings, the sandbox library (every bot process is started through it), ZeroMQ, libmd (SHA-256) and
# libsodium (players' seeds).
$(eval $(call library,coordinator,arena/coordinator,protocol store ratings sandbox zmq md sodium))
