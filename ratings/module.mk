# ratings/module.mk — libdarkhex-ratings: the rating models (Bradley-Terry with first-move advantage,
# bootstrap intervals, LOS) and the table writer. Uses base only.
$(eval $(call library,ratings,ratings,base))
