# agents/rcfr/module.mk — regression CFR: features, regressors (XGBoost, FANN, exact table), link functions
# and the RCFR family as a library (libdarkhex-rcfr; the tests and the benchmark drive it in-process), and
# rcfr-train.
$(eval $(call library,rcfr,agents/rcfr,solver xgboost fann,$(filter-out agents/rcfr/rcfr_train.c,$(wildcard agents/rcfr/*.c))))
$(call program,rcfr-train,agents/rcfr/rcfr_train.c,rcfr trainer)
