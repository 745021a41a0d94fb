# agents/cfr/module.mk — cfr-train: CFR, CFR+ and MCCFR over Dark Hex, writing policy files.
$(call program,cfr-train,agents/cfr/cfr_train.c,trainer)
