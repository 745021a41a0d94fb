/* agents/random/random.c — the random bot: a uniformly random legal cell, seeded (--seed S mixed with each
 * game's seed, so a game replays exactly). Built on the C SDK. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot.h"

static uint64_t base_seed = 1;
static rng_state rng;

static void game_start(const bot_state *s, void *user)
{
    (void)user;
    rng_seed(&rng, base_seed ^ s->seed);
}

static int choose(const bot_state *s, void *user)
{
    (void)user;
    uint16_t legal[HX_MAX_CELLS + 1];
    int n = bot_legal(s, legal);
    return legal[rng_below(&rng, (uint32_t)n)];
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0) {
            printf("usage: random [--seed S] [--endpoint ENDPOINT]\n\n"
                   "A bot that attempts a uniformly random legal cell. The coordinator starts it with\n"
                   "ARENA_ENDPOINT and ARENA_TOKEN set (docs/protocol.md). --seed S (default 1) is mixed\n"
                   "with each game's seed.\n");
            return 0;
        }
        if (bot_seed_option("random", argc, argv, &i, &base_seed) < 0)
            return 2;
    }
    bot_spec spec = { .name = "random", .version = "1.0", .choose = choose, .game_start = game_start };
    return bot_run(&spec, argc, argv);
}
