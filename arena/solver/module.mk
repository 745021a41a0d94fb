# arena/solver/module.mk — libdarkhex-solver: game trees, the CFR family, exact best responses, the
# information-state walk, policy files and checkpoints. Uses the engine only; serves `arena exploit` and
# `arena tree` as well as the bots and trainers.
$(eval $(call library,solver,arena/solver,engine))
