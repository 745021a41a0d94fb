# arena/ladder/module.mk — libdarkhex-ladder: the open ladder of `arena serve --ladder` (docs/ladder.md): submitted
# archives checked header by header before anything is unpacked, then unpacked read-only into a directory named by
# their SHA-256 (libarchive, libmd), their manifests, and LADDER.ini. Above the coordinator and the report library
# (a submission only ever runs as a sandboxed league agent), below the command line.
$(eval $(call library,ladder,arena/ladder,server report archive md sodium))
