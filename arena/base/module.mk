# arena/base/module.mk — libdarkhex-base: the monotonic clock, the seed mixer and generator, growable arrays, JSON
# strings, ISO timestamps, the bounded tail of a log file (regular files only), names safe to show (UTF-8 without
# controls or bidi formatting), the percent-encoding of a name in a link and a step run in a child under a memory
# limit. Uses nothing of the project.
$(eval $(call library,base,arena/base,libm))
