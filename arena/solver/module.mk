# arena/solver/module.mk — libdarkhex-solver: game trees, the CFR family, exact best responses, the
# information-state walk, policy files and checkpoints, the sequence-form LP (GLPK or COIN-OR CLP), the
# sure-win searches and certificates, the value certificates. Uses the engine, GLPK, CLP, GMP and QSopt_ex; serves `arena exploit`, `arena tree` and `arena solve` as well as the bots and trainers.
$(eval $(call library,solver,arena/solver,engine glpk clp gmp qsopt))
