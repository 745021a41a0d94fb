# arena/base/module.mk — libdarkhex-base: the monotonic clock, the seed mixer and generator, growable
# arrays, JSON strings, ISO timestamps and
# the bounded tail of a log file (regular files only). Uses nothing of the project.
$(eval $(call library,base,arena/base,libm))
