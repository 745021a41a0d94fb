/* arena/cli/cmd_replay.c — `arena replay`: plays a list of attempts and prints each result, the winner or the
 * player to move, and both players' views. */
#include <getopt.h>
#include <stdio.h>

#include "cli.h"
#include "commands.h"

static const char help[] =
    "usage: arena replay --variant V --board RxC [--swap] [--json | --format text|json] CELL...\n\n"
    "Plays the attempts in order, each by the player to move, and stops at a win. A CELL is a column\n"
    "letter and a row number (a1 is the top-left cell); several may be joined by commas; 'swap' is\n"
    "White's swap in hex with --swap. Prints one line per attempt (player, cell, result), the winner or\n"
    "the player to move, and each player's view as rows of '.', 'B' and 'W'.\n\n"
    "  --variant V   hex, classical, abrupt, classical-noisy, classical-flash, abrupt-noisy, abrupt-flash\n"
    "  --board RxC   rows x columns, each from 2 to 19\n"
    "  --swap        hex only, square boards: White may answer the first move with 'swap'\n"
    "  --json        one JSON object: {\"attempts\":[{\"player\",\"cell\",\"result\"}...],\"winner\",\n"
    "                \"to_move\",\"views\":{\"B\":[rows],\"W\":[rows]}}\n\n"
    "Exit status: 0 done, 2 bad input (unknown variant, bad board, malformed or illegal cell).\n";

/* The i-th attempt, and its cell's name ("swap" for the swap move). */
static const char *attempt_fields(const hx_game *g, int i, char name[HX_CELL_NAME_MAX], hx_move *m)
{
    *m = hx_move_at(g, i);
    if (m->outcome == HX_SWAPPED)
        return "swap";
    hx_cell_name(m->cell, hx_cols(g), name);
    return name;
}

static void print_text(const hx_game *g)
{
    char name[HX_CELL_NAME_MAX], row[HX_MAX_SIDE + 1];
    hx_move m;
    for (int i = 0; i < hx_num_attempts(g); i++) {
        const char *cell = attempt_fields(g, i, name, &m);
        printf("%d. %s %s %s\n", i + 1, cli_player(m.player), cell, hx_outcome_name(m.outcome));
    }
    if (hx_over(g))
        printf("winner: %s\n", cli_player(hx_winner(g)));
    else
        printf("to move: %s\n", cli_player(hx_to_move(g)));
    for (int p = 0; p < 2; p++) {
        printf("view of %s:\n", cli_player(p));
        for (int r = 0; r < hx_rows(g); r++) {
            cli_view_row(g, p, r, row);
            printf("  %s\n", row);
        }
    }
}

static void print_json(const hx_game *g)
{
    char name[HX_CELL_NAME_MAX];
    hx_move m;
    printf("{\"attempts\":[");
    for (int i = 0; i < hx_num_attempts(g); i++) {
        const char *cell = attempt_fields(g, i, name, &m);
        printf("%s{\"player\":\"%s\",\"cell\":\"%s\",\"result\":\"%s\"}", i ? "," : "", cli_player(m.player),
               cell, hx_outcome_name(m.outcome));
    }
    printf("],\"winner\":");
    printf(hx_over(g) ? "\"%s\"" : "null", cli_player(hx_winner(g)));
    printf(",\"to_move\":");
    printf(hx_over(g) ? "null" : "\"%s\"", cli_player(hx_to_move(g)));
    printf(",");
    cli_json_views(g);
    printf("}\n");
}

int cmd_replay(int argc, char **argv)
{
    static const struct option options[] = { CLI_GAME_OPTIONS, { 0, 0, 0, 0 } };
    cli_game_opts o = { 0 };
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", options, NULL)) != -1)
        if (!cli_game_option("replay", c, optarg, argv, help, &o))
            cli_usage_error("replay", "unexpected option (see 'arena replay --help')");
    cli_game_require("replay", &o);

    hx_game g;
    cli_new_game("replay", &g, o.variant, o.rows, o.cols, o.flags);
    int number = 1, ignored = 0;
    for (int i = optind; i < argc; i++)
        cli_play_cells("replay", &g, argv[i], &number, &ignored);
    if (ignored)
        fprintf(stderr, "arena replay: %s won at attempt %d; %d later attempt%s not played\n",
                cli_player(hx_winner(&g)), number - 1, ignored, ignored == 1 ? "" : "s");
    if (o.format == CLI_JSON)
        print_json(&g);
    else
        print_text(&g);
    return CLI_OK;
}
