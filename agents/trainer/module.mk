# agents/trainer/module.mk — libdarkhex-trainer: what the trainer programs share (options, the training
# loop's clock and progress, learning curves, checkpoint paths). Uses the solver.
$(eval $(call library,trainer,agents/trainer,solver))
