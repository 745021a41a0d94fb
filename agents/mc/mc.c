/* agents/mc/mc.c — the Monte Carlo bot (bin/mc): on each move it samples the opponent's hidden stones
 * consistent with its view, fills the rest of the board at random, and plays the cell most often on both of
 * the winner's Gale paths (sampler.h, scorer.h, docs/bots.md "mc"). Built on the C SDK. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot.h"
#include "scorer.h"

#define MC_DEFAULT_TIME_MS 200
/* Never more than this share of the time left for the move, whatever the options say. */
#define MC_TIME_SHARE 0.4

static uint64_t base_seed = 1;
static rng_state rng;
static long opt_samples = 0, opt_time_ms = -1;
static int opt_fill = MC_FILL_ALTERNATE; /* an mc_fill */
static mc_sampler sampler;

static void game_start(const bot_state *s, void *user)
{
    (void)user;
    rng_seed(&rng, base_seed ^ s->seed);
}

static int choose(const bot_state *s, void *user)
{
    (void)user;
    mc_sampler_init(&sampler, s->variant, s->rows, s->cols, s->color, s->view, s->events, s->n_events);
    /* --time-ms when given, else the default unless only --samples was given; capped by the move's time (with a
     * game clock, the move's share of it: bot_time_for_move). */
    double want = opt_time_ms > 0 ? opt_time_ms / 1000.0 : opt_time_ms == 0 || opt_samples > 0 ? -1
                                                                                  : MC_DEFAULT_TIME_MS / 1000.0;
    mc_options o = { .samples = opt_samples, .seconds = bot_think_seconds(s, MC_TIME_SHARE, want), .fill = (mc_fill)opt_fill };
    return mc_choose(&sampler, &o, &rng, NULL);
}

/* --help */
static void usage(void)
{
    printf("usage: mc [--time-ms N] [--samples N] [--fill alternate|random-turn] [--seed S]\n"
           "          [--endpoint ENDPOINT]\n\n"
           "A Monte Carlo bot (docs/bots.md): on each move it samples the opponent's hidden stones\n"
           "consistent with its view, fills the rest of the board at random, finds the winner with\n"
           "Gale's algorithm from two opposite corners, and plays the unknown cell most often on both\n"
           "of the winner's paths. Plays every variant on any board.\n\n"
           "  --time-ms N   think at most N ms per move (default %d; 0: no time limit but the cap)\n"
           "  --samples N   at most N samples per move (default: no limit but the time)\n"
           "                Both: whichever comes first. Never more than %.0f%% of the time left\n"
           "                for the move (with a game clock, of the move's share of the clock:\n"
           "                the time left over the moves to go, or over 20, plus the increment).\n"
           "  --fill F      alternate (default: the rest of the board split at random, the player to\n"
           "                move getting the extra cell) or random-turn (each cell a fair coin)\n"
           "  --seed S      mixed with each game's seed (default 1)\n",
           MC_DEFAULT_TIME_MS, MC_TIME_SHARE * 100);
}

int main(int argc, char **argv)
{
    static const char *const fills[] = { "alternate", "random-turn", NULL }; /* mc_fill's order */
    const bot_opt opts[] = {
        { "--time-ms", BOT_OPT_WHOLE, &opt_time_ms, 0, 3600000, NULL },
        { "--samples", BOT_OPT_WHOLE, &opt_samples, 1, 1000000000, NULL },
        { "--fill", BOT_OPT_CHOICE, &opt_fill, 0, 0, fills },
    };
    int got = bot_options("mc", argc, argv, opts, (int)(sizeof opts / sizeof opts[0]), &base_seed, usage);
    if (got != 0)
        return got > 0 ? 0 : 2; /* --help printed, or a bad option */
    bot_spec spec = { .name = "mc", .version = "1.0", .choose = choose, .game_start = game_start };
    return bot_run(&spec, argc, argv);
}
