# arena/store/module.mk — libdarkhex-store: the results database, written and read, and the open ladder's own database. The only library that
# includes sqlite3.h. Uses the engine and SQLite.
$(eval $(call library,store,arena/store,engine sqlite))
