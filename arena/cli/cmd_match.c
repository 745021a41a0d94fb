/* arena/cli/cmd_match.c — `arena match`: two bots (command lines) play N games of one variant and board,
 * alternating colours, K games at a time; every game goes to the database; prints a summary. */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "agent.h"
#include "cli.h"
#include "commands.h"
#include "curvezmq.h"
#include "record.h"
#include "referee.h"
#include "runner.h"
#include "sandbox.h"
#include "seeds.h"
#include "store.h"
#include "mix.h"
#include "json.h"

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
    "  --opening CELLS      play every game from this opening, e.g. a1,b2: stones placed alternately by Black\n"
    "                       and White, Black first, as the game's first attempts (docs/protocol.md \"Openings\")\n"
    "  --games N            number of games (default 2)\n"
    "  --move-time MS       wall-clock budget per attempt, milliseconds (default 1000)\n"
    "  --margin MS          grace added to the budget before a move is late (default 50)\n"
    "  --handshake MS       time a bot has from its start to its hello (default 5000)\n"
    "  --seed S             seed of the game seeds (default 1); game i's seed derives from S and i\n"
    "  --concurrency K      games at a time (default 1); each needs one process of each bot\n"
    "  --memory-mb N        each bot process's address-space limit, MiB (default 4096; 0: none)\n"
    "  --cpu-seconds N      each bot process's CPU-time limit over its life, seconds (default 0: none)\n"
    "  --open-files N       each bot process's open-file limit (default 256; 0: none)\n"
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
    "  --db PATH            results database (default results/arena.db)\n"
    "  --logs DIR           bots' stdout and stderr, one file per process (default results/logs)\n"
    "  --quiet              no progress line\n"
    "  --json               one JSON object: {\"games\",\"a\":{\"name\",\"id\",\"command\",\"wins\",\n"
    "                       \"wins_as_black\",\"wins_as_white\"},\"b\":{...},\"forfeits\":{\"timeout\",\"crash\",\n"
    "                       \"illegal\",\"protocol_error\",\"disconnected\"},\"unsandboxed\":[names: bots played with\n"
    "                       --sandbox off],\"seconds\",\"games_per_second\",\"run\",\"db\"}; in text, such bots\n"
    "                       are named on a line 'sandbox off (trusted bots only): NAME, NAME'\n"
    "  --format text|json   the same as --json for json\n\n"
    "Exit status: 0 all games played, 1 failure (a bot refused the variant, database error), 2 bad input\n"
    "(options, a bot's executable not found), 128+signal when interrupted (games already played are kept).\n";

typedef struct {
    ag_command cmds[2];     /* BOT_A, BOT_B */
    rec_agent agents[2];
    rec_run rec;
    long games, next;
    hx_variant variant;
    int rows, cols;
    unsigned flags;
    uint64_t seed;
    uint16_t opening[HX_MAX_CELLS];
    int opening_len;
} match;

static uint64_t game_seed(uint64_t seed, long i)
{
    return mix_stream(seed, (uint64_t)i) >> 1; /* 63 bits: stored as an SQLite integer */
}

static bool next_game(void *user, rn_game *g)
{
    match *m = user;
    if (m->next >= m->games)
        return false;
    long i = m->next++;
    *g = (rn_game){ .id = (uint64_t)i + 1, .black = (int)(i % 2), .white = (int)(1 - i % 2), .variant = m->variant,
                    .rows = m->rows, .cols = m->cols, .flags = m->flags, .seed = game_seed(m->seed, i),
                    .opening = m->opening_len ? m->opening : NULL, .opening_len = m->opening_len };
    return true;
}

static void print_text(const match *m, double seconds, const char *db)
{
    const rec_run *rec = &m->rec;
    printf("%s %dx%d%s, %ld game%s in %.2f s (%.1f games/s)\n", hx_variant_name(m->variant), m->rows, m->cols,
           m->flags & HX_SWAP_RULE ? " with swap" : "", rec->played, rec->played == 1 ? "" : "s", seconds,
           seconds > 0 ? rec->played / seconds : 0.0);
    for (int a = 0; a < 2; a++) {
        const rec_agent *s = &m->agents[a];
        printf("  %c  %-16s wins %4ld (%5.1f%%)  as Black %ld, as White %ld   %s\n", 'A' + a, s->name, s->wins,
               rec->played ? 100.0 * s->wins / rec->played : 0.0, s->wins_as[HX_BLACK], s->wins_as[HX_WHITE],
               m->cmds[a].line);
    }
    printf("forfeits: ");
    if (!rec_forfeits(rec))
        printf("none");
    for (int r = 1, first = 1; r < HX_END_COUNT; r++)
        if (rec->forfeits[r]) {
            printf("%s%s %ld", first ? "" : ", ", hx_end_name((hx_end_reason)r), rec->forfeits[r]);
            first = 0;
        }
    putchar('\n');
    const char *off[2];
    cli_unsandboxed_text(off, rec_unsandboxed(rec, off, 2));
    printf("stored as run %lld in %s\n", (long long)rec->run, db);
}

static void print_json(const match *m, double seconds, const char *db)
{
    const rec_run *rec = &m->rec;
    printf("{\"games\":%ld", rec->played);
    for (int a = 0; a < 2; a++) {
        const rec_agent *s = &m->agents[a];
        printf(",\"%c\":{\"name\":", 'a' + a);
        json_string(stdout, s->name);
        printf(",\"id\":%lld,\"command\":", (long long)s->id);
        json_string(stdout, m->cmds[a].line);
        printf(",\"wins\":%ld,\"wins_as_black\":%ld,\"wins_as_white\":%ld}", s->wins, s->wins_as[HX_BLACK],
               s->wins_as[HX_WHITE]);
    }
    printf(",\"forfeits\":{");
    for (int r = 1; r < HX_END_COUNT; r++)
        printf("%s\"%s\":%ld", r > 1 ? "," : "", hx_end_name((hx_end_reason)r), rec->forfeits[r]);
    putchar('}');
    const char *off[2];
    cli_unsandboxed_json(off, rec_unsandboxed(rec, off, 2));
    printf(",\"seconds\":%.3f,\"games_per_second\":%.2f,\"run\":%lld,\"db\":", seconds,
           seconds > 0 ? rec->played / seconds : 0.0, (long long)rec->run);
    json_string(stdout, db);
    printf("}\n");
}

/* Parses --opening's comma-separated cell names into m and checks the opening on the match's game (distinct
 * cells of the board, no winner after it); bad input exits 2 naming the problem. */
static void parse_opening(match *m, const char *text, hx_variant v, int rows, int cols, unsigned flags)
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
        m->opening[m->opening_len++] = (uint16_t)cell;
    }
    static hx_referee r;
    char why[160];
    ref_init(&r, 0, v, rows, cols, flags);
    if (ref_opening(&r, m->opening, m->opening_len, why, sizeof why) != 0)
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

static void parent_dirs(const char *path)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(buf, 0755);
            *p = '/';
        }
}

int cmd_match(int argc, char **argv)
{
    enum { O_GAMES = 256, O_MOVE, O_MARGIN, O_HANDSHAKE, O_SEED, O_CONC, O_DB, O_LOGS, O_QUIET, O_MEM, O_CPU, O_FILES, O_LISTEN, O_SERVER_KEY, O_PIN, O_SANDBOX, O_NETWORK, O_ENV, O_RESTART, O_OPENING };
    static const struct option options[] = {
        CLI_GAME_OPTIONS,
        { "games", required_argument, 0, O_GAMES },
        { "move-time", required_argument, 0, O_MOVE },
        { "margin", required_argument, 0, O_MARGIN },
        { "handshake", required_argument, 0, O_HANDSHAKE },
        { "seed", required_argument, 0, O_SEED },
        { "concurrency", required_argument, 0, O_CONC },
        { "db", required_argument, 0, O_DB },
        { "logs", required_argument, 0, O_LOGS },
        { "quiet", no_argument, 0, O_QUIET },
        { "memory-mb", required_argument, 0, O_MEM },
        { "cpu-seconds", required_argument, 0, O_CPU },
        { "open-files", required_argument, 0, O_FILES },
        { "listen", required_argument, 0, O_LISTEN },
        { "server-key", required_argument, 0, O_SERVER_KEY },
        { "pin-key", required_argument, 0, O_PIN },
        { "sandbox", required_argument, 0, O_SANDBOX },
        { "network", no_argument, 0, O_NETWORK },
        { "env", required_argument, 0, O_ENV },
        { "restart", required_argument, 0, O_RESTART },
        { "opening", required_argument, 0, O_OPENING },
        { 0, 0, 0, 0 },
    };
    static match m;
    memset(&m, 0, sizeof m);
    cli_game_opts o = { 0 };
    long games = 2;
    uint32_t move_ms = 1000, margin_ms = 50, handshake_ms = 5000;
    uint64_t seed = 1;
    int concurrency = 1;
    const char *db = STORE_DEFAULT_PATH, *logs = "results/logs";
    bool quiet = false;
    long limit[3] = { -1, -1, -1 }; /* memory, cpu, files; -1: the default */
    const char *listen = NULL, *key_file = NULL, *pin = NULL, *opening = NULL;
    bool sandbox = true, network = false, restart_each_game = false;
    const char *env[SB_MAX_ENV];
    int n_env = 0;
    static cv_keypair server_key;
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", options, NULL)) != -1) {
        if (cli_game_option("match", c, optarg, argv, help, &o))
            continue;
        switch (c) {
        case O_GAMES: games = (long)cli_count("match", "--games", optarg, 1, 100000000); break;
        case O_MOVE: move_ms = (uint32_t)cli_count("match", "--move-time", optarg, 1, 86400000); break;
        case O_MARGIN: margin_ms = (uint32_t)cli_count("match", "--margin", optarg, 0, 600000); break;
        case O_HANDSHAKE: handshake_ms = (uint32_t)cli_count("match", "--handshake", optarg, 1, 600000); break;
        case O_SEED: seed = cli_count("match", "--seed", optarg, 0, UINT64_MAX); break;
        case O_CONC: concurrency = (int)cli_count("match", "--concurrency", optarg, 1, 64); break;
        case O_DB: db = optarg; break;
        case O_LOGS: logs = optarg; break;
        case O_QUIET: quiet = true; break;
        case O_MEM: limit[0] = (long)cli_count("match", "--memory-mb", optarg, 0, 1 << 24); break;
        case O_CPU: limit[1] = (long)cli_count("match", "--cpu-seconds", optarg, 0, 1 << 24); break;
        case O_FILES:
            limit[2] = (long)cli_count("match", "--open-files", optarg, 0, 1 << 24);
            if (limit[2] > 0 && limit[2] < 16)
                cli_usage_error("match", "--open-files %s: a bot needs at least 16 (0: no limit)", optarg);
            break;
        case O_LISTEN:
            if (strncmp(optarg, "tcp://", 6) != 0)
                cli_usage_error("match", "--listen %s: expected tcp://HOST:PORT", optarg);
            listen = optarg;
            break;
        case O_SERVER_KEY: key_file = optarg; break;
        case O_SANDBOX:
            if (strcmp(optarg, "on") != 0 && strcmp(optarg, "off") != 0)
                cli_usage_error("match", "--sandbox %s: expected on or off", optarg);
            sandbox = strcmp(optarg, "on") == 0;
            break;
        case O_NETWORK: network = true; break;
        case O_OPENING: opening = optarg; break;
        case O_RESTART:
            if (strcmp(optarg, "forfeit") != 0 && strcmp(optarg, "game") != 0)
                cli_usage_error("match", "--restart %s: expected forfeit or game", optarg);
            restart_each_game = strcmp(optarg, "game") == 0;
            break;
        case O_ENV:
            if (n_env == SB_MAX_ENV || !optarg[0] || optarg[0] == '=' || strlen(optarg) >= sizeof m.cmds[0].sandbox.env[0])
                cli_usage_error("match", "--env %s: expected NAME or NAME=VALUE (at most %d, each under %zu bytes)", optarg,
                                SB_MAX_ENV, sizeof m.cmds[0].sandbox.env[0]);
            env[n_env++] = optarg;
            break;
        case O_PIN:
            if (!cv_valid_key(optarg))
                cli_usage_error("match", "--pin-key %s: not a Z85 key of %d characters", optarg, CV_KEY_LEN);
            pin = optarg;
            break;
        default: cli_usage_error("match", "unexpected option (see 'arena match --help')");
        }
    }
    cli_game_require("match", &o);
    if (argc - optind != 2)
        cli_usage_error("match", "expected two bots (command lines), got %d (see 'arena match --help')",
                        argc - optind);
    hx_game probe;
    cli_new_game("match", &probe, o.variant, o.rows, o.cols, o.flags);
    if (opening)
        parse_opening(&m, opening, o.variant, o.rows, o.cols, o.flags);
    if (listen && !key_file)
        cli_usage_error("match", "--listen %s needs --server-key FILE (make one with 'arena keygen FILE')", listen);
    if (key_file && !listen)
        cli_usage_error("match", "--server-key is for --listen tcp://...");
    if (pin && !listen)
        cli_usage_error("match", "--pin-key is for --listen tcp://...");
    if (key_file) {
        char kerr[1200];
        if (cv_read(key_file, &server_key, kerr, sizeof kerr) != 0)
            cli_usage_error("match", "--server-key %s", kerr);
    }

    for (int a = 0; a < 2; a++) {
        ag_command *cmd = &m.cmds[a];
        char err[512];
        const char *line = argv[optind + a];
        size_t named = bot_name(line, m.agents[a].name, sizeof m.agents[a].name, err, sizeof err);
        if (named == (size_t)-1)
            cli_usage_error("match", "%s: %s", a == 0 ? "BOT_A" : "BOT_B", err);
        m.agents[a].named = named > 0;
        if (ag_command_parse(line + named, NULL, cmd, err, sizeof err) != 0)
            cli_usage_error("match", "%s: %s", a == 0 ? "BOT_A" : "BOT_B", err);
        if (limit[0] >= 0)
            cmd->limits.memory_mb = (unsigned)limit[0];
        if (limit[1] >= 0)
            cmd->limits.cpu_seconds = (unsigned)limit[1];
        if (limit[2] >= 0)
            cmd->limits.open_files = (unsigned)limit[2];
        cmd->sandbox.off = !sandbox;
        cmd->sandbox.network = network;
        for (int i = 0; i < n_env; i++)
            snprintf(cmd->sandbox.env[i], sizeof cmd->sandbox.env[i], "%s", env[i]);
        cmd->sandbox.n_env = n_env;
        char base[256];
        snprintf(base, sizeof base, "%s", cmd->exe);
        m.agents[a].command = cmd;
        if (!m.agents[a].named) /* until its hello names it */
            snprintf(m.agents[a].name, sizeof m.agents[a].name, "%s", basename(base));
    }

    char err[1024];
    if (strcmp(db, STORE_DEFAULT_PATH) == 0)
        parent_dirs(db);
    bool bad_db;
    rec_run *rec = &m.rec;
    rec->store = store_open(db, &bad_db, err, sizeof err);
    if (!rec->store && bad_db)
        cli_usage_error("match", "%s", err);
    if (!rec->store)
        cli_fail("match", "%s", err);
    rec->agents = m.agents, rec->hello_names = true; /* a bot is named by its hello */
    char desc[2 * AG_LINE_MAX + 64]; /* both command lines, whole */
    snprintf(desc, sizeof desc, "%s %dx%d: %s vs %s", hx_variant_name(o.variant), o.rows, o.cols, m.cmds[0].line,
             m.cmds[1].line);
    uint8_t seed_key[SEEDS_KEY_BYTES]; /* this run's: the players' seeds cannot be told from --seed */
    if (seeds_new_key(seed_key) != 0)
        cli_fail("match", "cannot draw a secret for the players' seeds (libsodium cannot be initialised)");
    if (rec_begin(rec, "match", desc, seed_key, err, sizeof err) != 0)
        cli_fail("match", "%s: %s", db, err);
    m.games = games;
    m.variant = o.variant, m.rows = o.rows, m.cols = o.cols, m.flags = o.flags, m.seed = seed;

    static volatile sig_atomic_t stop;
    ag_handle_signals(&stop, NULL);
    char prefix[64];
    snprintf(prefix, sizeof prefix, "match-%lld", (long long)rec->run);
    rn_agent agents[2] = { { m.agents[0].name, &m.cmds[0], pin, restart_each_game, NULL },
                           { m.agents[1].name, &m.cmds[1], pin, restart_each_game, NULL } };
    rn_config cfg = { .agents = agents, .n_agents = 2, .concurrency = concurrency, .move_ms = move_ms,
                      .listen = listen, .server_key = listen ? &server_key : NULL,
                      .margin_ms = margin_ms, .handshake_ms = handshake_ms, .ping_ms = 1000, .log_dir = logs,
                      .log_prefix = prefix, .stop = &stop, .next_game = next_game, .user = &m };
    rec_attach(rec, &cfg);
    sb_deny(db); /* no bot sees the database or the logs */
    sb_deny(logs);
    double seconds;
    rn_status st = rec_play(rec, &cfg, games, 0, quiet, &seconds, err, sizeof err);
    rec_label(rec); /* two agents of one name: NAME#ID, as the reports show them */
    if (o.format == CLI_JSON)
        print_json(&m, seconds, db);
    else
        print_text(&m, seconds, db);
    store_close(rec->store);
    if (st == RN_FAILED) {
        fprintf(stderr, "arena match: %s\n", err);
        return CLI_FAILED;
    }
    if (st == RN_STOPPED) {
        fprintf(stderr, "arena match: interrupted after %ld of %ld games (those are stored)\n", rec->played, games);
        return 128 + (int)stop;
    }
    return CLI_OK;
}
