/* agents/bridge/bridge.c — the bridge-builder bot (bin/bridge): the planner of planner.h on the SDK's view,
 * with the game's seeded tie-breaks and an estimate of the opponent stones it has not seen. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot.h"
#include "planner.h"

static uint64_t base_seed = 1;
static rng_state rng;
static uint16_t jitter[HX_MAX_CELLS];
static bb_options options;

static void game_start(const bot_state *s, void *user)
{
    (void)user;
    rng_seed(&rng, base_seed ^ s->seed);
    for (int i = 0; i < s->cells; i++)
        jitter[i] = (uint16_t)rng_below(&rng, BB_JITTER_MAX + 1);
}

static int choose(const bot_state *s, void *user)
{
    (void)user;
    bb_position p = { .rows = s->rows, .cols = s->cols, .color = s->color, .view = s->view,
                      .hidden = bb_hidden_estimate(s->variant, s->color, s->events, s->n_events,
                                                    s->known_opponent_stones), .own_stones = s->own_stones,
                      .dark = hx_variant_dark(s->variant), .jitter = jitter };
    uint16_t legal[HX_MAX_CELLS + 1];
    int n = bot_legal(s, legal);
    p.can_swap = n > 0 && legal[n - 1] == HX_SWAP;
    return bb_choose(&p, &options, &rng, NULL);
}

/* --help */
static void usage(void)
{
    printf("usage: bridge [--seed S] [--hidden-weight W] [--fill-every K] [--endpoint ENDPOINT]\n\n"
           "The bridge builder (docs/bots.md): keeps two-bridges and edge templates, answers an intrusion\n"
           "into one by taking the other carrier, and otherwise adds the next stone of its shortest\n"
           "bridge path from edge to edge; plays every variant on its own view.\n\n"
           "  --seed S           mixed with each game's seed for the tie-breaks (default 1)\n"
           "  --hidden-weight W  dark variants: an unknown cell costs 1 + W * (unseen opponent stones /\n"
           "                     unknown cells) stones on the path (default %g)\n"
           "  --fill-every K     dark variants: every K-th stone fills a bridge of the path first,\n"
           "                     since unseen intrusions break bridges silently (default %d; 0: never)\n",
           options.hidden_weight, options.fill_every);
}

int main(int argc, char **argv)
{
    options = bb_defaults();
    long fill_every = options.fill_every;
    const bot_opt opts[] = {
        { "--hidden-weight", BOT_OPT_NUMBER, &options.hidden_weight, 0, 100, NULL },
        { "--fill-every", BOT_OPT_WHOLE, &fill_every, 0, 1000, NULL },
    };
    int got = bot_options("bridge", argc, argv, opts, (int)(sizeof opts / sizeof opts[0]), &base_seed, usage);
    if (got != 0)
        return got > 0 ? 0 : 2; /* --help printed, or a bad option */
    options.fill_every = (int)fill_every;
    bot_spec spec = { .name = "bridge", .version = "1.0", .choose = choose, .game_start = game_start };
    return bot_run(&spec, argc, argv);
}
