/* arena/coordinator/mode_gauntlet.c — `mode = gauntlet`: the challenger plays `games` games against each other
 * agent, the whole schedule known at the start; other agents do not meet. */
#include "mode.h"

const lm_mode lm_gauntlet = {
    .name = "gauntlet",
    .challenger = true,
    .shardable = true,
    .lists_pairings = true,
    .plan = lm_plan_once,
    .count = lg_count,
};
