# agents/rl/module.mk — tabular RL (Q-learning, SARSA): the learner as a library (libdarkhex-rl, driven
# in-process by the tests) and rl-train. Opponents include the bridge builder's planner.
$(eval $(call library,rl,agents/rl,solver bridge,agents/rl/learn.c))
$(call program,rl-train,agents/rl/rl_train.c,rl trainer)
