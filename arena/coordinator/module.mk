# arena/coordinator/module.mk — libdarkhex-coordinator: agent processes and their sandbox, the game loop
# over ZeroMQ, CurveZMQ, league configs and schedules, progress and log lines, players' seeds, and
# recording games in the store. Uses the protocol, the store, ZeroMQ, libmd (SHA-256), libseccomp
# (the sandbox, with bwrap) and libsodium (players' seeds). Also bin/arena-init, process 1 of every
# sandbox: built from its one source without the mode's sanitizers (it runs under the bot's address-space
# limit, which AddressSanitizer's shadow cannot).
$(eval $(call library,coordinator,arena/coordinator,protocol store ratings zmq md seccomp sodium,$(filter-out %/arena_init.c,$(wildcard arena/coordinator/*.c))))

PROGRAMS += $(BIN)/arena-init
$(BIN)/arena-init: arena/coordinator/arena_init.c
	@mkdir -p $(@D)
	$(call say,LINK,$@) $(CC) $(WARNINGS) -D_POSIX_C_SOURCE=200809L -O2 -g $(CFLAGS) -o $@ $< $(LDFLAGS)
