# arena/sandbox/module.mk — libdarkhex-sandbox: bot processes and what bounds them (sandbox.h): starting a program
# with its limits in a bubblewrap sandbox (bwrap.h, with a seccomp filter from libseccomp), its cgroup (cgroup.h),
# its log (botlog.h, logline.h), reaping it and the sandbox's verdict. Uses base and libseccomp (and bwrap at run
# time). Also bin/arena-init, process 1 of every sandbox: built from its one source without the mode's sanitizers
# (it runs under the bot's address-space limit, which AddressSanitizer's shadow cannot).
$(eval $(call library,sandbox,arena/sandbox,base seccomp,$(filter-out %/arena_init.c,$(wildcard arena/sandbox/*.c))))

PROGRAMS += $(BIN)/arena-init
$(BIN)/arena-init: arena/sandbox/arena_init.c
	@mkdir -p $(@D)
	$(call say,LINK,$@) $(CC) $(WARNINGS) -D_POSIX_C_SOURCE=200809L -O2 -g $(CFLAGS) -o $@ $< $(LDFLAGS)
