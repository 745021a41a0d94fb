# arena/solver/module.mk — libdarkhex-solver: game trees, the CFR family, exact best responses, the
# information-state walk, policy files and checkpoints, and the sequence-form LP (GLPK). Uses the engine
# and GLPK; serves `arena exploit`, `arena tree` and `arena solve` as well as the bots and trainers.
$(eval $(call library,solver,arena/solver,engine glpk))
