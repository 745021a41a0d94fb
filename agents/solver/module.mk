# agents/solver/module.mk — the solver library; included before arena/module.mk because `arena exploit`
# links it.

# The solver core (agents/solver/): the game interface, flat game trees, the CFR family, exact best
# responses, and Dark Hex as a game. A library shared by the trainers, the policy bot and the tests.
SOLVER_SRC := agents/solver/gametree.c agents/solver/cfr.c agents/solver/br.c agents/solver/darkhex.c \
              agents/solver/infowalk.c \
              agents/solver/mccfr.c agents/solver/policy.c agents/solver/checkpoint.c agents/solver/curve.c agents/solver/trainer_cli.c
SOLVER_LIB := $(BUILD)/lib/libdarkhex-solver.a
LIBS += $(SOLVER_LIB)

$(SOLVER_LIB): $(SOLVER_SRC:%.c=$(BUILD)/obj/%.o)
	@mkdir -p $(@D)
	rm -f $@ && $(AR) rcs $@ $^
