/* agents/ismcts/ismcts.c — the information-set MCTS bot (bin/ismcts): on each attempt it builds its belief
 * over the opponent's hidden stones from its information set (belief.h) and searches one tree over boards drawn
 * from it (search.h, docs/bots.md "ismcts"). Built on the C SDK. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot.h"
#include "search.h"

#define ISM_DEFAULT_TIME_MS 200
/* Never more than this share of the time the SDK gives the move (bot_time_for_move), whatever the options say:
 * the rest covers building the belief, the answer's trip and a busy machine. */
#define ISM_TIME_SHARE 0.5

static uint64_t base_seed = 1;
static rng_state rng;
static long opt_iterations = 0, opt_time_ms = -1, opt_samples = 0;
static double opt_uct = 0.7, opt_rave = 300;
static ism_search *search;
static ism_belief belief;

static void game_start(const bot_state *s, void *user)
{
    (void)user;
    rng_seed(&rng, base_seed ^ s->seed);
}

static int choose(const bot_state *s, void *user)
{
    (void)user;
    ism_belief_init(&belief, s->variant, s->rows, s->cols, s->color, s->view, s->events, s->n_events);
    if (belief.n_unknown == 0) { /* cannot happen in a game that is not over */
        uint16_t legal[HX_MAX_CELLS + 1];
        return bot_legal(s, legal) > 0 ? legal[0] : 0;
    }
    /* --time-ms when given, else the default unless only --iterations was given; always capped by the move's
     * share of the time (with a game clock, its share of the clock). */
    double cap = bot_time_for_move(s) * ISM_TIME_SHARE;
    double secs = opt_time_ms > 0 ? opt_time_ms / 1000.0 : opt_iterations > 0 ? cap : ISM_DEFAULT_TIME_MS / 1000.0;
    if (secs > cap)
        secs = cap;
    ism_options o = { .iterations = opt_iterations, .seconds = secs > 1e-4 ? secs : 1e-4,
                      .samples = (int)opt_samples, .uct = opt_uct,
                      .rave = opt_rave };
    return ism_choose(search, &belief, &o, &rng, NULL);
}

static int whole(const char *opt, const char *v, long lo, long hi, long *out)
{
    char *end;
    *out = v ? strtol(v, &end, 10) : 0;
    if (!v || !*v || *end || *out < lo || *out > hi) {
        fprintf(stderr, "ismcts: %s needs a whole number from %ld to %ld\n", opt, lo, hi);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0) {
            printf("usage: ismcts [--time-ms N] [--iterations N] [--samples N] [--uct C] [--rave K]\n"
                   "              [--seed S] [--endpoint ENDPOINT]\n\n"
                   "An information-set Monte Carlo tree search bot (docs/bots.md): on each attempt it draws\n"
                   "boards of the opponent's hidden stones that agree with everything it has seen (its stones,\n"
                   "the stones it found, the opponent's stone count, collision reports) and searches one tree\n"
                   "over them, with playouts that save bridges. It plays a connecting cell at once. Plays\n"
                   "every variant on any board.\n\n"
                   "  --time-ms N     think at most N ms per attempt (default %d unless --iterations is given)\n"
                   "  --iterations N  at most N iterations per attempt (default: no limit but the time)\n"
                   "                  Both: whichever comes first. Never more than %.0f%% of the time the\n"
                   "                  move has (with a game clock, of the move's share of the clock: the\n"
                   "                  time left over the moves to go, or over 20, plus the increment).\n"
                   "                  A budget of iterations alone, within that cap, replays exactly.\n"
                   "  --samples N     draw N hidden boards per attempt and search them in turn (default 0:\n"
                   "                  a fresh board each iteration; at most %d)\n"
                   "  --uct C         the exploration constant (default 0.7)\n"
                   "  --rave K        dark variants: how long the root trusts its all-moves-as-first means\n"
                   "                  (default 300; 0: not at all)\n"
                   "  --seed S        mixed with each game's seed (default 1)\n",
                   ISM_DEFAULT_TIME_MS, ISM_TIME_SHARE * 100, ISM_MAX_SAMPLES);
            return 0;
        }
        int seeded = bot_seed_option("ismcts", argc, argv, &i, &base_seed);
        if (seeded < 0)
            return 2;
        if (seeded)
            continue;
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(argv[i], "--time-ms") == 0) {
            if (whole("--time-ms", v, 1, 3600000, &opt_time_ms) != 0)
                return 2;
            i++;
        } else if (strcmp(argv[i], "--iterations") == 0) {
            if (whole("--iterations", v, 1, 1000000000, &opt_iterations) != 0)
                return 2;
            i++;
        } else if (strcmp(argv[i], "--samples") == 0) {
            if (whole("--samples", v, 0, ISM_MAX_SAMPLES, &opt_samples) != 0)
                return 2;
            i++;
        } else if (strcmp(argv[i], "--rave") == 0) {
            char *end;
            opt_rave = v ? strtod(v, &end) : -1;
            if (!v || !*v || *end || !(opt_rave >= 0 && opt_rave <= 1e9)) {
                fprintf(stderr, "ismcts: --rave needs a number from 0 to 1000000000\n");
                return 2;
            }
            i++;
        } else if (strcmp(argv[i], "--uct") == 0) {
            char *end;
            opt_uct = v ? strtod(v, &end) : -1;
            if (!v || !*v || *end || !(opt_uct >= 0 && opt_uct <= 100)) {
                fprintf(stderr, "ismcts: --uct needs a number from 0 to 100\n");
                return 2;
            }
            i++;
        }
    }
    search = ism_search_new();
    if (!search) {
        fprintf(stderr, "ismcts: out of memory\n");
        return 1;
    }
    bot_spec spec = { .name = "ismcts", .version = "1.0", .choose = choose, .game_start = game_start };
    int rc = bot_run(&spec, argc, argv);
    ism_search_free(search);
    return rc;
}
