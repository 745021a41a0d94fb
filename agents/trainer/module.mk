# agents/trainer/module.mk — libdarkhex-trainer: what the trainer programs share (options, the training
# loop with its clock, progress lines and checkpoints, learning curves). Uses the solver.
$(eval $(call library,trainer,agents/trainer,solver))
