# arena/base/module.mk — libdarkhex-base: the monotonic clock, the seed mixer and generator, growable
# arrays, JSON strings and ISO timestamps. Uses nothing of the project.
$(eval $(call library,base,arena/base,libm))
