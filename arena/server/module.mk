# arena/server/module.mk — libdarkhex-server: `arena serve`, an HTTP server (Debian's libmicrohttpd) over the
# results database opened read-only: the report library's documents (the nightly page, and pages of leagues,
# agents, pairings and games) as HTML or JSON, and the leagues running now as a live feed. Above the report
# library, below the command line.
$(eval $(call library,server,arena/server,report mhd))
