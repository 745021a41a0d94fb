/* arena/cli/cmd_match.c — `arena match`: the options of a match session (coordinator/session.h) — two bots
 * (command lines) play N games of one variant and board, alternating colours, K games at a time, every game
 * stored — and its summary in text or JSON. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "forfeits.h"
#include "json.h"
#include "referee.h"
#include "session.h"
#include "store.h"

static const char help[] =
    "usage: arena match --variant V --board RxC --games N [OPTIONS] BOT_A BOT_B\n\n"
    "Plays N games between two bots, alternating colours (BOT_A is Black in the 1st, 3rd, ... game), K at a\n"
    "time, stores every game with its attempts in the database and prints a summary. A BOT is a command\n"
    "line in one argument, e.g. \"bin/random --seed 3\"; the arena appends --endpoint and sets\n"
    "ARENA_ENDPOINT and ARENA_TOKEN (docs/protocol.md). Each bot process plays game after game; a bot\n"
    "that crashes, hangs, lies or breaks the protocol forfeits that game and is restarted.\n"
    "A BOT may begin with name=NAME and a space (\"name=r1 bin/random --seed 1\"): the name it is stored\n"
    "and reported under (1 to 63 characters, no '/', '#' or spaces); without it, the name its hello gives.\n"
    "An agent is its name, its command line and its program: \"bin/random --seed 1\" and \"bin/random\n"
    "--seed 2\" are two agents; two agents with one name are shown as NAME#ID (their ids in the database)\n"
    "here and in every report.\n\n"
    "  --variant V          hex, classical, abrupt, classical-noisy, classical-flash, abrupt-noisy, abrupt-flash\n"
    "  --board RxC          rows x columns, each from 2 to 19\n"
    "  --swap               hex only, square boards: White may answer the first move with 'swap'\n"
    "  --openings random|none|FILE  the openings game pairs start from, as in a league (default random:\n"
    "                       balanced random openings of --opening-stones stones from --seed; none: the empty\n"
    "                       board; FILE: a suite file, docs/leagues.md); game pair i (games 2i+1 and 2i+2,\n"
    "                       colours reversed) plays opening i\n"
    "  --opening-stones N   stones of a random opening (default 2, as a league's; 0: the empty board)\n"
    "  --opening CELLS      play every game from this opening instead, e.g. a1,b2: stones placed alternately by\n"
    "                       Black and White, Black first, as the game's first attempts (docs/protocol.md)\n"
    "  --openings-compat refuse|replay  a bot that speaks protocol 1 (which never read openings): refused\n"
    "                       before the first game (default; exit 2), or its openings replayed to it\n"
    "                       (docs/protocol.md#changes)\n"
    "  --games N            number of games (default 2)\n"
    "  --move-time MS       wall-clock budget per attempt, milliseconds (default 1000)\n"
    "  --margin MS          grace added to the budget before a move is late (default 50)\n"
    "  --time-control TC    a game clock per player, MOVES/SECONDS+INCREMENT as cutechess-cli's tc= (40/60+0.5:\n"
    "                       60 s per 40 moves, 0.5 s added per move; 300+2: sudden death; 40/60; 300); TC_A,TC_B\n"
    "                       gives each bot its own (time odds). An attempt may take the smaller of --move-time and\n"
    "                       its clock (plus --margin); one that runs out of clock forfeits on time\n"
    "  --handshake MS       time a bot has from its start to its hello (default 5000)\n"
    "  --seed S             seed of the game seeds (default 1); game i's seed derives from S and i\n"
    "  --concurrency K      games at a time (default 1); each needs one process of each bot\n"
    "  --memory-mb N        each bot's memory, MiB: the address space of each of its processes, and its\n"
    "                       sandbox's processes and /tmp together (default 4096; 0: none)\n"
    "  --cpu-seconds N      each bot's CPU time, seconds: of each process over its life, and of its sandbox's\n"
    "                       processes together (default 0: none)\n"
    "  --open-files N       each bot process's open-file limit (default 256; 0: none)\n"
    "  --pids N             processes and threads of each bot's sandbox at once (default 128; 0: none)\n"
    "  --tmp-mb N           the size of each bot's private /tmp, MiB, counted in its memory (default 64)\n"
    "  --log-mb N           what each bot process may write to its log, MiB; the rest is dropped (default 16)\n"
    "  --fair-timing on|off in classical, release each turn on a schedule that does not tell a bot its opponent's\n"
    "                       attempts on its hidden stones, nor show them in the opponent's clock (default off;\n"
    "                       docs/protocol.md#fair-timing)\n"
    "  --sandbox on|off     run each bot in its sandbox (default on; off: trusted bots only, docs/reliability.md)\n"
    "  --restart forfeit|game  when a bot gets a new process: after a forfeit (default), or for every game\n"
    "                       (bots that must not carry state from one game to the next)\n"
    "  --network            let the bots use the network (default: none, not even loopback)\n"
    "  --env NAME[=VALUE]   also give the bots this variable (NAME alone: its value here); repeatable. A bot's\n"
    "                       environment is otherwise PATH, HOME, LANG and the ARENA_ variables\n"
    "  --listen tcp://H:P   listen there (CurveZMQ) instead of a private ipc socket; needs --server-key\n"
    "  --server-key FILE    the coordinator's key pair, from 'arena keygen FILE'\n"
    "  --pin-key KEY        the server key the bots are told to trust (default: FILE's public key); a\n"
    "                       wrong one makes their handshake fail (refusals: LOGS/match-RUN-connections.log)\n"
    "  --pin-key-file FILE  the same read from a file (a .pub from 'arena keygen')\n"
    "  --db PATH            results database (default results/arena.db)\n"
    "  --logs DIR           bots' stdout and stderr, one file per process (default results/logs)\n"
    "  --quiet              no progress line\n"
    "  --debug              every message to and from a bot also in its log, with the time (\"debug -> ...\"\n"
    "                       sent, \"debug <- ...\" received)\n"
    "  --json               one JSON object: {\"games\",\"a\":{\"name\",\"id\",\"command\",\"wins\",\n"
    "                       \"wins_as_black\",\"wins_as_white\"},\"b\":{...},\"openings\" (\"random, 2 stones\",\n"
    "                       \"none\", the file, or the --opening cells),\"forfeits\":{\"timeout\",\"crash\",\n"
    "                       \"illegal\",\"protocol_error\",\"disconnected\"},\"unsandboxed\":[names: bots played with\n"
    "                       --sandbox off],\"seconds\",\"games_per_second\",\"run\",\"db\"}; in text, such bots\n"
    "                       are named on a line 'sandbox off (trusted bots only): NAME, NAME'\n"
    "  --format text|json   the same as --json for json\n"
    "  --max-forfeit-rate R exit with status 4 when a bot forfeited more than this share (0 to 1) of its games\n\n"
    "Exit status: 0 all games played, 1 failure (a bot refused the variant, database error), 2 bad input\n"
    "(options, a bot's executable not found, a bot that speaks protocol 1 refused for openings), 4 all games played, but a bot forfeited more than\n"
    "--max-forfeit-rate of them, 128+signal when interrupted (games already played are kept).\n";

typedef struct {
    ss_match_opts o;
    cli_game_opts game;
    const char *key_file, *opening, *env[SB_MAX_ENV];
    int n_env;
    long limit[6];                 /* memory, cpu, files, pids, tmp, log; -1: the default */
    bool sandbox, network, restart_each_game, quiet;
    double max_forfeits;           /* --max-forfeit-rate; -1: none */
    uint16_t cells[HX_MAX_CELLS];
    int opening_len;
    cv_keypair server_key;
} match_cli;

/* Parses --opening's comma-separated cell names into m and checks the opening on the match's game (distinct
 * cells of the board, no winner after it); bad input exits 2 naming the problem. */
static void parse_opening(match_cli *m, const char *text, hx_variant v, int rows, int cols, unsigned flags)
{
    char buf[2048];
    if (strlen(text) >= sizeof buf)
        cli_usage_error("match", "--opening: a list of at most %zu characters", sizeof buf - 1);
    snprintf(buf, sizeof buf, "%s", text);
    m->opening_len = 0;
    for (char *tok = buf, *next; tok; tok = next) {
        next = strchr(tok, ',');
        if (next)
            *next++ = '\0';
        const char *why;
        int cell = m->opening_len < HX_MAX_CELLS ? hx_cell_parse(tok, rows, cols, &why) : -1;
        if (m->opening_len >= HX_MAX_CELLS)
            why = "more stones than cells";
        if (cell < 0)
            cli_usage_error("match", "--opening %s: stone %d '%s': %s", text, m->opening_len + 1, tok, why);
        m->cells[m->opening_len++] = (uint16_t)cell;
    }
    static hx_referee r;
    char why[160];
    ref_init(&r, 0, v, rows, cols, flags);
    if (ref_opening(&r, m->cells, m->opening_len, why, sizeof why) != 0)
        cli_usage_error("match", "--opening %s: %s", text, why);
}

/* A BOT's leading "name=NAME " into name: returns the length of that prefix (0 when the BOT has none), or
 * (size_t)-1 with the reason in err when NAME is not a name. */
static size_t bot_name(const char *bot, char *name, size_t size, char *err, size_t errlen)
{
    if (strncmp(bot, "name=", 5) != 0)
        return 0;
    size_t n = strcspn(bot + 5, " \t");
    if (n == 0 || n >= size || n > 63 || memchr(bot + 5, '/', n) || memchr(bot + 5, '#', n) || !bot[5 + n]) {
        snprintf(err, errlen, "'%.80s': expected name=NAME (1 to 63 characters, no '/', '#' or spaces) and then the "
                 "command line", bot);
        return (size_t)-1;
    }
    memcpy(name, bot + 5, n);
    name[n] = '\0';
    return 5 + n + strspn(bot + 5 + n, " \t");
}

static void print_text(const ss_summary *m, const ss_match_opts *o)
{
    printf("%s %dx%d%s, %ld game%s in %.2f s (%.1f games/s)\n", hx_variant_name(o->variant), o->rows, o->cols,
           o->flags & HX_SWAP_RULE ? " with swap" : "", m->played, m->played == 1 ? "" : "s", m->seconds,
           m->seconds > 0 ? m->played / m->seconds : 0.0);
    for (int a = 0; a < 2; a++) {
        const rec_agent *s = &m->agents[a];
        printf("  %c  %-16s wins %4ld (%5.1f%%)  as Black %ld, as White %ld   %s\n", 'A' + a, s->name, s->wins,
               m->played ? 100.0 * s->wins / m->played : 0.0, s->wins_as[HX_BLACK], s->wins_as[HX_WHITE],
               m->commands[a].line);
    }
    printf("openings: %s\n", m->openings);
    printf("forfeits: ");
    if (!m->forfeit_total)
        printf("none");
    for (int r = 1, first = 1; r < HX_END_COUNT; r++)
        if (m->forfeits[r]) {
            printf("%s%s %ld", first ? "" : ", ", hx_end_name((hx_end_reason)r), m->forfeits[r]);
            first = 0;
        }
    putchar('\n');
    cli_forfeits_text(m->agents, 2);
    cli_unsandboxed_text(m->unsandboxed, m->n_unsandboxed);
    printf("stored as run %lld in %s\n", (long long)m->id, m->db);
}

static void print_json(const ss_summary *m)
{
    printf("{\"games\":%ld", m->played);
    for (int a = 0; a < 2; a++) {
        const rec_agent *s = &m->agents[a];
        printf(",\"%c\":{\"name\":", 'a' + a);
        json_string(stdout, s->name);
        printf(",\"id\":%lld,\"command\":", (long long)s->id);
        json_string(stdout, m->commands[a].line);
        printf(",\"wins\":%ld,\"wins_as_black\":%ld,\"wins_as_white\":%ld}", s->wins, s->wins_as[HX_BLACK],
               s->wins_as[HX_WHITE]);
    }
    printf(",\"openings\":");
    json_string(stdout, m->openings);
    printf(",\"forfeits\":{");
    for (int r = 1; r < HX_END_COUNT; r++)
        printf("%s\"%s\":%ld", r > 1 ? "," : "", hx_end_name((hx_end_reason)r), m->forfeits[r]);
    putchar('}');
    cli_forfeits_json(m->agents, 2);
    cli_unsandboxed_json(m->unsandboxed, m->n_unsandboxed);
    printf(",\"seconds\":%.3f,\"games_per_second\":%.2f,\"run\":%lld,\"db\":", m->seconds,
           m->seconds > 0 ? m->played / m->seconds : 0.0, (long long)m->id);
    json_string(stdout, m->db);
    printf("}\n");
}

enum { O_GAMES = 256, O_MOVE, O_MARGIN, O_HANDSHAKE, O_SEED, O_CONC, O_DB, O_LOGS, O_QUIET, O_MEM, O_CPU, O_FILES,
       O_LISTEN, O_SERVER_KEY, O_PIN, O_SANDBOX, O_NETWORK, O_ENV, O_RESTART, O_OPENING, O_PIDS, O_TMP, O_LOG, O_FORFEITS, O_PIN_FILE, O_DEBUG, O_TC,
       O_OPENINGS, O_OPENING_STONES, O_COMPAT, O_FAIR };

/* --time-control TC (both bots) or TC_A,TC_B (time odds). */
static void time_controls(match_cli *m, const char *arg)
{
    char buf[2 * TC_TEXT_MAX + 8], why[160];
    if (strlen(arg) >= sizeof buf)
        cli_usage_error("match", "--time-control %.60s...: too long (expected TC or TC_A,TC_B)", arg);
    snprintf(buf, sizeof buf, "%s", arg);
    char *second = strchr(buf, ',');
    if (second)
        *second++ = '\0';
    for (int a = 0; a < (second ? 2 : 1); a++) {
        tc_control *tc = second ? &m->o.agents[a].time_control : &m->o.time_control;
        if (!tc_parse(a ? second : buf, tc, why, sizeof why))
            cli_usage_error("match", "--time-control%s: %s", second ? (a ? " (BOT_B's)" : " (BOT_A's)") : "", why);
        m->o.agents[a].has_time_control = second != NULL;
    }
}

/* One option of the match's own (not the shared game options) into m. */
static void match_option(match_cli *m, int c, char *arg)
{
    ss_match_opts *o = &m->o;
    switch (c) {
    case O_GAMES: o->games = (long)cli_count("match", "--games", arg, 1, 100000000); break;
    case O_MOVE: o->move_ms = (uint32_t)cli_count("match", "--move-time", arg, 1, 86400000); break;
    case O_MARGIN: o->margin_ms = (uint32_t)cli_count("match", "--margin", arg, 0, 600000); break;
    case O_HANDSHAKE: o->handshake_ms = (uint32_t)cli_count("match", "--handshake", arg, 1, 600000); break;
    case O_SEED: o->seed = cli_count("match", "--seed", arg, 0, UINT64_MAX); break;
    case O_CONC: o->concurrency = (int)cli_count("match", "--concurrency", arg, 1, 64); break;
    case O_DB: o->db = arg; break;
    case O_LOGS: o->logs = arg; break;
    case O_QUIET: m->quiet = true; break;
    case O_MEM: m->limit[0] = (long)cli_count("match", "--memory-mb", arg, 0, 1 << 24); break;
    case O_CPU: m->limit[1] = (long)cli_count("match", "--cpu-seconds", arg, 0, 1 << 24); break;
    case O_FILES:
        m->limit[2] = (long)cli_count("match", "--open-files", arg, 0, 1 << 24);
        if (m->limit[2] > 0 && m->limit[2] < 16)
            cli_usage_error("match", "--open-files %s: a bot needs at least 16 (0: no limit)", arg);
        break;
    case O_PIDS:
        m->limit[3] = (long)cli_count("match", "--pids", arg, 0, 1 << 24);
        if (m->limit[3] > 0 && m->limit[3] < CFG_MIN_PIDS)
            cli_usage_error("match", "--pids %s: a bot needs at least %d (0: no limit)", arg, CFG_MIN_PIDS);
        break;
    case O_TMP: m->limit[4] = (long)cli_count("match", "--tmp-mb", arg, 0, 1 << 24); break;
    case O_LOG: m->limit[5] = (long)cli_count("match", "--log-mb", arg, 0, 1 << 24); break;
    case O_FORFEITS: m->max_forfeits = cli_forfeit_rate("match", arg); break;
    case O_DEBUG: o->debug = true; break;
    case O_TC: time_controls(m, arg); break;
    case O_LISTEN:
        if (strncmp(arg, "tcp://", 6) != 0)
            cli_usage_error("match", "--listen %s: expected tcp://HOST:PORT", arg);
        o->listen = arg;
        break;
    case O_SERVER_KEY: m->key_file = arg; break;
    case O_SANDBOX:
        if (strcmp(arg, "on") != 0 && strcmp(arg, "off") != 0)
            cli_usage_error("match", "--sandbox %s: expected on or off", arg);
        m->sandbox = strcmp(arg, "on") == 0;
        break;
    case O_NETWORK: m->network = true; break;
    case O_OPENING: m->opening = arg; break;
    case O_OPENINGS: o->openings = arg; break;
    case O_OPENING_STONES: o->opening_stones = (int)cli_count("match", "--opening-stones", arg, 0, 32); break;
    case O_FAIR:
        if (strcmp(arg, "on") != 0 && strcmp(arg, "off") != 0)
            cli_usage_error("match", "--fair-timing %s: expected on or off", arg);
        o->fair_timing = strcmp(arg, "on") == 0;
        break;
    case O_COMPAT:
        if (strcmp(arg, "refuse") != 0 && strcmp(arg, "replay") != 0)
            cli_usage_error("match", "--openings-compat %s: expected refuse or replay", arg);
        o->openings_replay = strcmp(arg, "replay") == 0;
        break;
    case O_RESTART:
        if (strcmp(arg, "forfeit") != 0 && strcmp(arg, "game") != 0)
            cli_usage_error("match", "--restart %s: expected forfeit or game", arg);
        m->restart_each_game = strcmp(arg, "game") == 0;
        break;
    case O_ENV:
        if (m->n_env == SB_MAX_ENV || !arg[0] || arg[0] == '=' || strlen(arg) >= sizeof o->agents[0].env[0])
            cli_usage_error("match", "--env %s: expected NAME or NAME=VALUE (at most %d, each under %zu bytes)", arg,
                            SB_MAX_ENV, sizeof o->agents[0].env[0]);
        m->env[m->n_env++] = arg;
        break;
    case O_PIN:
        if (!cv_valid_key(arg))
            cli_usage_error("match", "--pin-key %s: not a Z85 key of %d characters", arg, CV_KEY_LEN);
        snprintf(o->agents[0].server_key, sizeof o->agents[0].server_key, "%s", arg);
        snprintf(o->agents[1].server_key, sizeof o->agents[1].server_key, "%s", arg);
        break;
    case O_PIN_FILE: {
        char why[1024];
        if (cv_read_public(arg, o->agents[0].server_key, why, sizeof why) != 0)
            cli_usage_error("match", "--pin-key-file %s", why);
        memcpy(o->agents[1].server_key, o->agents[0].server_key, sizeof o->agents[1].server_key);
        break;
    }
    default: cli_usage_error("match", "unexpected option (see 'arena match --help')");
    }
}

static void parse_options(int argc, char **argv, match_cli *m)
{
    static const struct option options[] = {
        CLI_GAME_OPTIONS,
        { "games", required_argument, 0, O_GAMES },         { "move-time", required_argument, 0, O_MOVE },
        { "margin", required_argument, 0, O_MARGIN },       { "handshake", required_argument, 0, O_HANDSHAKE },
        { "seed", required_argument, 0, O_SEED },           { "concurrency", required_argument, 0, O_CONC },
        { "db", required_argument, 0, O_DB },               { "logs", required_argument, 0, O_LOGS },
        { "quiet", no_argument, 0, O_QUIET },               { "memory-mb", required_argument, 0, O_MEM },
        { "cpu-seconds", required_argument, 0, O_CPU },     { "open-files", required_argument, 0, O_FILES },
        { "listen", required_argument, 0, O_LISTEN },       { "server-key", required_argument, 0, O_SERVER_KEY },
        { "pin-key", required_argument, 0, O_PIN },         { "sandbox", required_argument, 0, O_SANDBOX },
        { "network", no_argument, 0, O_NETWORK },           { "env", required_argument, 0, O_ENV },
        { "restart", required_argument, 0, O_RESTART },     { "opening", required_argument, 0, O_OPENING },
        { "openings", required_argument, 0, O_OPENINGS },   { "opening-stones", required_argument, 0, O_OPENING_STONES },
        { "openings-compat", required_argument, 0, O_COMPAT }, { "fair-timing", required_argument, 0, O_FAIR },
        { "pids", required_argument, 0, O_PIDS },           { "tmp-mb", required_argument, 0, O_TMP },
        { "log-mb", required_argument, 0, O_LOG },          { "max-forfeit-rate", required_argument, 0, O_FORFEITS },
        { "pin-key-file", required_argument, 0, O_PIN_FILE }, { "debug", no_argument, 0, O_DEBUG },
        { "time-control", required_argument, 0, O_TC },
        { 0, 0, 0, 0 },
    };
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", options, NULL)) != -1)
        if (!cli_game_option("match", c, optarg, argv, help, &m->game))
            match_option(m, c, optarg);
    cli_game_require("match", &m->game);
    if (argc - optind != 2)
        cli_usage_error("match", "expected two bots (command lines), got %d (see 'arena match --help')", argc - optind);
    hx_game probe;
    cli_new_game("match", &probe, m->game.variant, m->game.rows, m->game.cols, m->game.flags);
    if (m->opening)
        parse_opening(m, m->opening, m->game.variant, m->game.rows, m->game.cols, m->game.flags);
    if (m->o.listen && !m->key_file)
        cli_usage_error("match", "--listen %s needs --server-key FILE (make one with 'arena keygen FILE')", m->o.listen);
    if (m->key_file && !m->o.listen)
        cli_usage_error("match", "--server-key is for --listen tcp://...");
    if (m->o.agents[0].server_key[0] && !m->o.listen)
        cli_usage_error("match", "--pin-key is for --listen tcp://...");
    if (m->key_file) {
        char kerr[1200];
        if (cv_read(m->key_file, &m->server_key, kerr, sizeof kerr) != 0)
            cli_usage_error("match", "--server-key %s", kerr);
        m->o.server_key = &m->server_key;
    }
}

/* BOT_A or BOT_B (argument `line`) as a config agent with the options every bot gets. */
static void bot_agent(match_cli *m, int a, const char *line)
{
    cfg_agent *ca = &m->o.agents[a];
    char err[512];
    size_t named = bot_name(line, ca->store_name, sizeof ca->store_name, err, sizeof err);
    if (named == (size_t)-1)
        cli_usage_error("match", "%s: %s", a == 0 ? "BOT_A" : "BOT_B", err);
    m->o.named[a] = named > 0;
    if (strlen(line + named) >= sizeof ca->cmdline)
        cli_usage_error("match", "%s: a command line of more than %zu characters", a == 0 ? "BOT_A" : "BOT_B",
                        sizeof ca->cmdline - 1);
    snprintf(ca->cmdline, sizeof ca->cmdline, "%s", line + named);
    ca->memory_mb = m->limit[0], ca->cpu_seconds = m->limit[1], ca->open_files = m->limit[2];
    ca->pids = m->limit[3], ca->tmp_mb = m->limit[4], ca->log_mb = m->limit[5];
    ca->sandbox = m->sandbox, ca->network = m->network, ca->restart_each_game = m->restart_each_game;
    for (int i = 0; i < m->n_env; i++)
        snprintf(ca->env[i], sizeof ca->env[i], "%s", m->env[i]);
    ca->n_env = m->n_env;
}

int cmd_match(int argc, char **argv)
{
    static match_cli m;
    memset(&m, 0, sizeof m);
    m.o = (ss_match_opts){ .games = 2, .move_ms = 1000, .margin_ms = 50, .handshake_ms = 5000, .seed = 1,
                           .opening_stones = 2, .concurrency = 1, .db = STORE_DEFAULT_PATH, .logs = "results/logs" };
    for (int i = 0; i < 6; i++)
        m.limit[i] = -1;
    m.sandbox = true;
    m.max_forfeits = -1;
    parse_options(argc, argv, &m);
    for (int a = 0; a < 2; a++)
        bot_agent(&m, a, argv[optind + a]);
    ss_match_opts *o = &m.o;
    o->variant = m.game.variant, o->rows = m.game.rows, o->cols = m.game.cols, o->flags = m.game.flags;
    o->opening = m.opening_len ? m.cells : NULL, o->opening_len = m.opening_len;
    char err[1024];
    ss_session *s;
    int rc = ss_open_match(o, &s, err, sizeof err);
    if (rc != SS_OK) {
        ss_close(s);
        if (rc == SS_USAGE)
            cli_usage_error("match", "%s", err);
        cli_fail("match", "%s", err);
    }
    ss_callbacks cb = { .quiet = m.quiet };
    rn_status st = ss_run(s, &cb, err, sizeof err);
    if (st == RN_REFUSED) { /* a bot refused at its hello (protocol 1 for openings): bad input, no game played */
        ss_close(s);
        cli_usage_error("match", "%s", err);
    }
    const ss_summary *sum = ss_summary_of(s);
    if (m.game.format == CLI_JSON)
        print_json(sum);
    else
        print_text(sum, o);
    long played = sum->played;
    int sig = sum->stop_signal;
    bool over = cli_forfeits_over("match", sum->agents, 2, m.max_forfeits);
    ss_close(s);
    if (st == RN_FAILED) {
        fprintf(stderr, "arena match: %s\n", err);
        return CLI_FAILED;
    }
    if (st == RN_STOPPED) {
        fprintf(stderr, "arena match: interrupted after %ld of %ld games (those are stored)\n", played, o->games);
        return 128 + sig;
    }
    return over ? CLI_FORFEITS : CLI_OK;
}
