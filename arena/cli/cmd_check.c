/* arena/cli/cmd_check.c — `arena check BOT`: the options of a conformance run of one bot (coordinator/check.h) and
 * its checklist, in text (headed by the command line, quoted as a shell needs it) or JSON. */
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "cli.h"
#include "commands.h"
#include "json.h"

static const char help[] =
    "usage: arena check [--variant V]... [--board RxC]... [--games N] [--move-time MS] [--handshake MS]\n"
    "                   [--opponent CMD]\n"
    "                   [--sandbox on|off] [--db PATH] [--logs DIR] [--json | --format text|json] BOT\n\n"
    "A conformance run of one bot (a command line, as for arena match), for its author: it asks the bot what\n"
    "it plays (its hello), then plays a reference opponent (bin/random) through the real coordinator and\n"
    "sandbox in every variant and board it announces (or those given; a bot that takes any board plays 3x3\n"
    "and 4x4), from openings, from the empty board, with a fresh process for every game (each one asked\n"
    "to shut down after its game), and with a game clock of 20 budgets (sudden death: moves_to_go 0) and the\n"
    "swap rule, from openings of one stone. It prints a checklist: the hello, each variant and board of each phase (a\n"
    "forfeit names its reason and detail, the game to replay with arena show, the bot's log and the last lines\n"
    "it wrote), the opening stones it was given and whether it attempted one, the rejections and collisions it\n"
    "answered, its time use against the budget, and what the run could not exercise. The logs in --logs are\n"
    "this run's: a check removes the previous check's (check-hello-*.log, league-check-*.log) when it starts.\n\n"
    "  --variant V       a variant to check (repeatable; default: every one it announces)\n"
    "  --board RxC       a board to check (repeatable; default: those it announces, else 3x3 and 4x4)\n"
    "  --games N         games per variant and board in each phase (even; default 2, and in the phase from\n"
    "                    openings on a small board more: 3x3 8, 4x4 6, 5x5 4, by the smallest board)\n"
    "  --move-time MS    the budget per attempt (default 1000); using over half of it fails the time item\n"
    "  --handshake MS    the time from the bot's start to its hello (default 10000)\n"
    "  --opponent CMD    the reference opponent (default: random next to this arena)\n"
    "  --sandbox on|off  run the bot in its sandbox (default on)\n"
    "  --db PATH         where the games go (default results/check.db; arena show replays them)\n"
    "  --logs DIR        the bots' output (default results/logs)\n"
    "  --json            {\"bot\",\"version\",\"games\",\"failed\",\"logs\",\"items\":[{\"what\",\"status\":\"ok\"|\"failed\"|\n"
    "                    \"skipped\",\"detail\"}]}\n\n"
    "Exit status: 0 every item passed (or could not be exercised), 1 an item failed, 2 bad input.\n";

static const char *const status_names[] = { "ok", "failed", "skipped" };

/* One argument as a shell reads it back: as it is when it holds only safe characters, else in single quotes (a
 * single quote as '\''). */
static void print_arg(const char *a)
{
    bool plain = *a != '\0';
    for (const char *p = a; *p && plain; p++)
        plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=/.,:@%", *p) != NULL;
    if (plain) {
        fputs(a, stdout);
        return;
    }
    putchar('\'');
    for (const char *p = a; *p; p++)
        fputs(*p == '\'' ? "'\\''" : (char[]){ *p, '\0' }, stdout);
    putchar('\'');
}

static void print_text(const ck_report *r, int argc, char **argv, const char *logs)
{
    fputs("arena check", stdout);
    for (int i = 1; i < argc; i++) {
        putchar(' ');
        print_arg(argv[i]);
    }
    printf("\n  (the bots' logs: %s/league-check-*.log, this run's alone)\n", logs);
    for (int i = 0; i < r->n; i++) {
        printf("  [%s] %s: ", r->items[i].status == CK_OK ? "ok" : r->items[i].status == CK_FAILED ? "FAILED" : "--",
               r->items[i].what);
        for (const char *p = r->items[i].detail; *p; p++) /* a log's lines, indented under their item */
            fputs(*p == '\n' ? "\n      " : (char[]){ *p, '\0' }, stdout);
        putchar('\n');
    }
    printf("%d item%s failed, %ld games played\n", r->failed, r->failed == 1 ? "" : "s", r->games);
}

static void print_json(const ck_report *r, const char *bot, const char *logs)
{
    printf("{\"bot\":");
    json_string(stdout, bot);
    printf(",\"version\":");
    json_string(stdout, r->version);
    printf(",\"games\":%ld,\"failed\":%d,\"logs\":", r->games, r->failed);
    json_string(stdout, logs);
    printf(",\"items\":[");
    for (int i = 0; i < r->n; i++) {
        printf("%s{\"what\":", i ? "," : "");
        json_string(stdout, r->items[i].what);
        printf(",\"status\":\"%s\",\"detail\":", status_names[r->items[i].status]);
        json_string(stdout, r->items[i].detail);
        putchar('}');
    }
    printf("]}\n");
}

/* bin/random next to this arena (the reference opponent). */
static void default_opponent(char *out, size_t size)
{
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    self[n > 0 ? n : 0] = '\0';
    snprintf(out, size, "%s/random", n > 0 ? dirname(self) : "bin");
}

int cmd_check(int argc, char **argv)
{
    enum { O_GAMES = CLI_O_OWN, O_MOVE, O_OPPONENT, O_SANDBOX, O_LOGS, O_HANDSHAKE };
    static const struct option options[] = {
        CLI_DB_OPTIONS,
        CLI_FILTER_OPTIONS,
        { "games", required_argument, 0, O_GAMES },       { "move-time", required_argument, 0, O_MOVE },
        { "opponent", required_argument, 0, O_OPPONENT }, { "sandbox", required_argument, 0, O_SANDBOX },
        { "logs", required_argument, 0, O_LOGS },         { "handshake", required_argument, 0, O_HANDSHAKE },
        { 0, 0, 0, 0 },
    };
    static char opponent[PATH_MAX + 16];
    default_opponent(opponent, sizeof opponent);
    ck_opts o = { .opponent = opponent, .games = 0, .move_ms = 1000, .handshake_ms = 10000, .sandbox = true,
                  .db = "results/check.db",
                  .logs = "results/logs" };
    cli_format fmt = CLI_TEXT;
    for (int c; (c = cli_getopt("check", argc, argv, options)) != -1;) {
        int rows, cols;
        switch (c) {
        case CLI_O_DB: o.db = optarg; break;
        case CLI_O_VARIANT: o.variants |= 1u << cli_variant("check", optarg); break;
        case CLI_O_BOARD:
            cli_board("check", optarg, &rows, &cols);
            if (o.boards.n_boards < CFG_MAX_BOARDS) {
                o.boards.boards[o.boards.n_boards][0] = (uint8_t)rows;
                o.boards.boards[o.boards.n_boards++][1] = (uint8_t)cols;
            }
            break;
        case O_GAMES:
            o.games = (int)cli_count("check", "--games", optarg, 2, 1000);
            if (o.games % 2)
                cli_usage_error("check", "--games %s: expected an even number (game pairs)", optarg);
            break;
        case O_MOVE: o.move_ms = (uint32_t)cli_count("check", "--move-time", optarg, 1, 600000); break;
        case O_HANDSHAKE: o.handshake_ms = (uint32_t)cli_count("check", "--handshake", optarg, 1, 600000); break;
        case O_OPPONENT: o.opponent = optarg; break;
        case O_SANDBOX:
            if (strcmp(optarg, "on") != 0 && strcmp(optarg, "off") != 0)
                cli_usage_error("check", "--sandbox %s: expected on or off", optarg);
            o.sandbox = strcmp(optarg, "on") == 0;
            break;
        case O_LOGS: o.logs = optarg; break;
        case CLI_O_JSON: fmt = CLI_JSON; break;
        case CLI_O_FORMAT: fmt = cli_format_parse("check", optarg); break;
        case CLI_O_HELP: fputs(help, stdout); return CLI_OK;
        default: cli_usage_error("check", "option '%s' does not apply to 'arena check' (see --help)", argv[optind - 1]);
        }
    }
    if (argc - optind != 1)
        cli_usage_error("check", "expected one bot (a command line in one argument; see 'arena check --help')");
    o.bot = argv[optind];
    static ck_report r;
    char err[1024];
    if (ck_run(&o, &r, err, sizeof err) != 0)
        cli_usage_error("check", "BOT: %s", err);
    if (fmt == CLI_JSON)
        print_json(&r, o.bot, o.logs);
    else
        print_text(&r, argc, argv, o.logs);
    return r.failed ? CLI_FAILED : CLI_OK;
}
