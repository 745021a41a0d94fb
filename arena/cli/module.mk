# arena/cli/module.mk — the `arena` program: the command line over every library below it.
$(call program,arena,$(wildcard arena/cli/*.c),coordinator solver ratings report server ladder)
