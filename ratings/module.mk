# ratings/module.mk — the rating models and result tables (libdarkhex-ratings.a).

RATINGS_SRC := ratings/bt.c ratings/table.c
RATINGS_LIB := $(BUILD)/lib/libdarkhex-ratings.a
ENGINE_HEADERS += ratings/bt.h ratings/table.h
LIBS += $(RATINGS_LIB)

$(RATINGS_LIB): $(RATINGS_SRC:%.c=$(BUILD)/obj/%.o)
	@mkdir -p $(@D)
	rm -f $@ && $(AR) rcs $@ $^
