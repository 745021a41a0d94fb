/* arena/coordinator/mode_roundrobin.c — `mode = round-robin` (the default): every pair of agents that share a
 * variant and board plays `games` games on it, the whole schedule known at the start. */
#include "mode.h"

const lm_mode lm_round_robin = {
    .name = "round-robin",
    .shardable = true,
    .plan = lm_plan_once,
    .count = lg_count,
};
