# agents/pone/module.mk — the pONE bot: certain wins of classical Dark Hex from the solver's pONE search,
# the bridge builder's moves otherwise.
$(call program,pone,agents/pone/pone_bot.c,bot bridge solver)
