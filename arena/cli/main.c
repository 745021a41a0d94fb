/* arena/cli/main.c — the `arena` command: dispatches to its subcommands. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} commands[] = {
    { "replay", cmd_replay, "play a list of attempts and show the result and both views" },
    { "tree", cmd_tree, "walk the complete game tree and count histories and information states" },
    { "pone", cmd_pone, "count the probability-one (pONE) keys of classical Dark Hex and their winning cells" },
    { "exploit", cmd_exploit, "exact exploitability of a policy file (or of the uniform policy)" },
    { "classify", cmd_classify, "who wins each small board of each dark variant surely, or the value (docs/solved.md)" },
    { "solve", cmd_solve, "exact Nash equilibrium of a small board by the sequence-form LP (GLPK)" },
    { "random", cmd_random, "play uniformly random games: Black's win rate and attempts per second" },
    { "match", cmd_match, "play games between two bot programs and store them" },
    { "league", cmd_league, "play a league from a config file (resumes an interrupted one)" },
    { "check", cmd_check, "a conformance run of one bot: what it plays, every variant and board, openings, time" },
    { "ratings", cmd_ratings, "Elo ratings with intervals, per variant and board and pooled" },
    { "matrix", cmd_matrix, "win matrices: rows move first, cells W-L" },
    { "games", cmd_games, "list stored games" },
    { "show", cmd_show, "replay a stored game with both players' views after each attempt" },
    { "export", cmd_export, "write stored games as PGN (for Ordo) or SGF (for HexGui)" },
    { "plot", cmd_plot, "gnuplot figures of a league: ratings, win-matrix heatmaps, rating history" },
    { "host", cmd_host, "run bots on this machine for a coordinator on another (an agent host)" },
    { "merge", cmd_merge, "merge the databases of a sharded league (arena league --shard K/N) into one" },
    { "report", cmd_report, "the nightly page of a league (HTML, Markdown, JSON) and the index of nights" },
    { "serve", cmd_serve, "an HTTP server over the database: the morning summary, live leagues, games (read-only)" },
    { "ladder", cmd_ladder, "the open ladder's worker: placements, SPRT tests and rating rounds (arena serve --ladder)" },
    { "keygen", cmd_keygen, "a CurveZMQ key pair for coordinators listening on tcp://" },
    { "payoff", cmd_payoff, "pure-strategy payoff matrix of short attempt sequences (rows Black)" },
};

static void usage(FILE *out)
{
    fprintf(out, "usage: arena COMMAND [OPTIONS]\n\n"
                 "Dark Hex Arena: rules engine and league tools for Hex and Dark Hex bots.\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\n'arena COMMAND --help' describes one command. Exit status: 0 success, 1 failure, "
                 "2 bad input.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 || strcmp(name, "help") == 0) {
        usage(stdout);
        return CLI_OK;
    }
    if (strcmp(name, "--version") == 0) {
        printf("arena %s\n", ARENA_VERSION);
        return CLI_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(name, commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "arena: unknown command '%s' (try 'arena --help')\n", name);
    return CLI_USAGE;
}
