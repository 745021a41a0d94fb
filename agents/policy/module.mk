# agents/policy/module.mk — policy-bot: plays a policy file written by a trainer.
$(call program,policy-bot,agents/policy/policy_bot.c,bot solver)
