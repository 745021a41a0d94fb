/* arena/cli/cmd_tree.c — `arena tree`: walks the complete game tree of a small board and prints its counts. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>

#include "cli.h"
#include "commands.h"
#include "infocount.h"
#include "infowalk.h"
#include "tree.h"
#include "clock.h"

static const char help[] =
    "usage: arena tree --variant V --board RxC [--until-full] [--swap] [--prefix CELLS]\n"
    "                  [--json | --format text|json]\n"
    "       arena tree --variant V --board RxC --infosets-only [--json | --format text|json]\n\n"
    "Walks every history of the game and prints: histories (every node, root and terminals included),\n"
    "terminal histories, Black wins among them, and the number of distinct decision information states\n"
    "of each player (perfect recall: what the player did and was told, in order).\n\n"
    "  --variant V      hex, classical, abrupt, classical-noisy, classical-flash, abrupt-noisy, abrupt-flash\n"
    "  --board RxC      rows x columns; trees grow very fast: 3x2, 2x3 and 3x3 hex take seconds\n"
    "  --until-full     ignore wins until the board is full (counts complete games)\n"
    "  --swap           hex with the swap rule (square boards)\n"
    "  --prefix CELLS   walk only below these attempts (comma-separated, as in 'arena replay')\n"
    "  --infosets-only  count only the information states, walking each player's own information states\n"
    "                   instead of histories: classical up to 10 cells by a consistency count (3x3 in\n"
    "                   under a second); the other dark variants up to 16 cells by the information-state\n"
    "                   walk of 'arena exploit' (3x3 in minutes, on every processor)\n"
    "  --json           one JSON object with keys histories, terminals, black_wins, infosets_black,\n"
    "                   infosets_white, seconds (and variant, board, until_full, longest)\n"
    "  --format F       text (default) or json; --json is --format json\n\n"
    "Exit status: 0 done, 1 out of memory, 2 bad input.\n";

int cmd_tree(int argc, char **argv)
{
    static const struct option options[] = {
        CLI_GAME_OPTIONS,
        { "until-full", no_argument, 0, 'u' },
        { "prefix", required_argument, 0, 'p' },
        { "infosets-only", no_argument, 0, 'i' },
        { 0, 0, 0, 0 },
    };
    cli_game_opts o = { 0 };
    const char *prefix = NULL;
    bool infosets_only = false;
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", options, NULL)) != -1) {
        if (cli_game_option("tree", c, optarg, argv, help, &o))
            continue;
        if (c == 'u')
            o.flags |= HX_PLAY_TO_FULL;
        else if (c == 'p')
            prefix = optarg;
        else if (c == 'i')
            infosets_only = true;
    }
    if (optind < argc)
        cli_usage_error("tree", "unexpected argument '%s' (see 'arena tree --help')", argv[optind]);
    cli_game_require("tree", &o);

    if (infosets_only) {
        const char *why;
        bool counter = o.variant == HX_CLASSICAL && o.rows * o.cols <= HX_INFOCOUNT_MAX_CELLS;
        if (prefix || o.flags || (!counter && !iw_supported(o.variant, o.rows, o.cols, false, &why)))
            cli_usage_error("tree", "--infosets-only counts the dark variants (boards up to %d cells), without "
                            "--prefix, --until-full or --swap", IW_MAX_CELLS);
        uint64_t n[2];
        double t0 = clk_now();
        if (counter) {
            if (hx_count_infosets(o.variant, o.rows, o.cols, n) != 0)
                cli_fail("tree", "out of memory");
        } else {
            /* The uniform policy reaches every information state. */
            iw_result r;
            char err[300];
            if (iw_evaluate(o.variant, o.rows, o.cols, NULL, NULL, iw_default_threads(), NULL, NULL, &r, err,
                            sizeof err) != 0)
                cli_fail("tree", "%s", err);
            n[0] = r.infosets[0];
            n[1] = r.infosets[1];
        }
        double secs = clk_now() - t0;
        if (o.format == CLI_JSON)
            printf("{\"variant\":\"%s\",\"board\":\"%dx%d\",\"infosets_black\":%" PRIu64
                   ",\"infosets_white\":%" PRIu64 ",\"seconds\":%.6f}\n",
                   hx_variant_name(o.variant), o.rows, o.cols, n[0], n[1], secs);
        else
            printf("variant %s, board %dx%d, information states only\ninfosets black  %14" PRIu64
                   "\ninfosets white  %14" PRIu64 "\nseconds         %14.3f\n",
                   hx_variant_name(o.variant), o.rows, o.cols, n[0], n[1], secs);
        return CLI_OK;
    }

    hx_game g;
    cli_new_game("tree", &g, o.variant, o.rows, o.cols, o.flags);
    int number = 1, ignored = 0;
    if (prefix)
        cli_play_cells("tree", &g, prefix, &number, &ignored);
    if (ignored)
        cli_usage_error("tree", "--prefix '%s': the game is won before its last attempt", prefix);

    hx_tree_counts n;
    double t0 = clk_now();
    if (hx_tree_count(&g, &n) < 0)
        cli_fail("tree", "out of memory");
    double secs = clk_now() - t0;

    if (o.format == CLI_JSON) {
        printf("{\"variant\":\"%s\",\"board\":\"%dx%d\",\"until_full\":%s,\"histories\":%" PRIu64
               ",\"terminals\":%" PRIu64 ",\"black_wins\":%" PRIu64 ",\"infosets_black\":%" PRIu64
               ",\"infosets_white\":%" PRIu64 ",\"longest\":%d,\"seconds\":%.6f}\n",
               hx_variant_name(o.variant), o.rows, o.cols, (o.flags & HX_PLAY_TO_FULL) ? "true" : "false",
               n.histories, n.terminals, n.black_wins, n.infosets[0], n.infosets[1], n.longest, secs);
    } else {
        printf("variant %s, board %dx%d%s\n", hx_variant_name(o.variant), o.rows, o.cols,
               (o.flags & HX_PLAY_TO_FULL) ? ", play until full" : "");
        printf("histories       %14" PRIu64 "\n", n.histories);
        printf("terminals       %14" PRIu64 "\n", n.terminals);
        printf("black wins      %14" PRIu64 "\n", n.black_wins);
        printf("infosets black  %14" PRIu64 "\n", n.infosets[0]);
        printf("infosets white  %14" PRIu64 "\n", n.infosets[1]);
        printf("longest game    %14d\n", n.longest);
        printf("seconds         %14.3f\n", secs);
    }
    return CLI_OK;
}
