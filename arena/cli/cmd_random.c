/* arena/cli/cmd_random.c — `arena random`: uniformly random games; Black's win rate and attempts per second. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>

#include "cli.h"
#include "commands.h"
#include "clock.h"

static const char help[] =
    "usage: arena random --variant V --board RxC --games N [--seed S] [--swap]\n"
    "                    [--json | --format text|json]\n\n"
    "Plays N games in which both players attempt a uniformly random legal cell, and prints Black's win\n"
    "rate and the speed of the engine in attempts per second (one core).\n\n"
    "  --variant V   hex, classical, abrupt, classical-noisy, classical-flash, abrupt-noisy, abrupt-flash\n"
    "  --board RxC   rows x columns, each from 2 to 19\n"
    "  --games N     number of games (1 to 10^12)\n"
    "  --seed S      random seed (default 1); the same seed gives the same games\n"
    "  --swap        hex with the swap rule (square boards)\n"
    "  --json        one JSON object with keys games, black_wins, attempts, seconds, attempts_per_second\n"
    "  --format F    text (default) or json; --json is --format json\n\n"
    "Exit status: 0 done, 2 bad input.\n";

int cmd_random(int argc, char **argv)
{
    static const struct option options[] = {
        CLI_GAME_OPTIONS,
        { "games", required_argument, 0, 'g' },
        { "seed", required_argument, 0, 's' },
        { 0, 0, 0, 0 },
    };
    cli_game_opts o = { 0 };
    uint64_t games = 0, seed = 1;
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", options, NULL)) != -1) {
        if (cli_game_option("random", c, optarg, argv, help, &o))
            continue;
        if (c == 'g')
            games = cli_count("random", "--games", optarg, 1, 1000000000000ULL);
        else if (c == 's')
            seed = cli_count("random", "--seed", optarg, 0, UINT64_MAX);
    }
    if (optind < argc)
        cli_usage_error("random", "unexpected argument '%s' (see 'arena random --help')", argv[optind]);
    cli_game_require("random", &o);
    if (games == 0)
        cli_usage_error("random", "missing --games N");

    hx_game g;
    cli_new_game("random", &g, o.variant, o.rows, o.cols, o.flags);
    rng_state rng;
    rng_seed(&rng, seed);
    uint64_t black_wins = 0, attempts = 0;
    double t0 = clk_now();
    for (uint64_t i = 0; i < games; i++) {
        hx_new(&g, o.variant, o.rows, o.cols, o.flags);
        while (!hx_over(&g)) {
            hx_attempt(&g, hx_random_legal(&g, &rng));
            attempts++;
        }
        black_wins += hx_winner(&g) == HX_BLACK;
    }
    double secs = clk_now() - t0;
    double rate = secs > 0 ? (double)attempts / secs : 0.0;

    if (o.format == CLI_JSON) {
        printf("{\"variant\":\"%s\",\"board\":\"%dx%d\",\"seed\":%" PRIu64 ",\"games\":%" PRIu64
               ",\"black_wins\":%" PRIu64 ",\"attempts\":%" PRIu64 ",\"seconds\":%.6f,\"attempts_per_second\":%.0f}\n",
               hx_variant_name(o.variant), o.rows, o.cols, seed, games, black_wins, attempts, secs, rate);
    } else {
        printf("variant %s, board %dx%d, %" PRIu64 " games, seed %" PRIu64 "\n", hx_variant_name(o.variant),
               o.rows, o.cols, games, seed);
        printf("black wins   %" PRIu64 " (%.2f%%)\n", black_wins, 100.0 * (double)black_wins / (double)games);
        printf("attempts     %" PRIu64 " (%.1f per game)\n", attempts, (double)attempts / (double)games);
        printf("speed        %.2f million attempts per second (%.3f s)\n", rate / 1e6, secs);
    }
    return CLI_OK;
}
