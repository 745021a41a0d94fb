# arena/engine/module.mk — libdarkhex-engine: boards, variants, the rules of every variant, information
# states, end reasons, exhaustive counts. Uses base only.
$(eval $(call library,engine,arena/engine,base))
