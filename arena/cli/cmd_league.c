/* arena/cli/cmd_league.c — `arena league CONFIG`: writes a league's whole schedule to the database, then plays
 * the games still missing, so an interrupted league resumes where it stopped (docs/leagues.md). */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <sha2.h>

#include "agent.h"
#include "cli.h"
#include "commands.h"
#include "config.h"
#include "league.h"
#include "curvezmq.h"
#include "record.h"
#include "runner.h"
#include "sandbox.h"
#include "seeds.h"
#include "store.h"
#include "json.h"

_Static_assert(sizeof ((cfg_agent *)0)->cmdline <= sizeof ((ag_command *)0)->line,
               "an agent's command line from a config fits an ag_command");

static const char help[] =
    "usage: arena league CONFIG [--db PATH] [--resume | --new] [--logs DIR] [--progress N] [--quiet]\n"
    "                    [--json | --format text|json]\n\n"
    "Plays a league described by an INI file (docs/leagues.md): every pairing of its agents (or the\n"
    "challenger against each, in a gauntlet) in every listed variant and board, the configured number of\n"
    "games each, half with each colour. The whole schedule is written to the database first; then the\n"
    "games not yet played are played. Running the same command again after an interruption (Ctrl-C,\n"
    "kill -9, power loss) plays only what is missing.\n\n"
    "  --db PATH      results database (default results/arena.db)\n"
    "  --resume       only continue an unfinished league of this name and config (error when none)\n"
    "  --new          start a new league even when an unfinished one exists\n"
    "                 (default: continue an unfinished one, else start a new one)\n"
    "  --logs DIR     bots' output (default results/logs)\n"
    "  --progress N   when stderr is not a terminal, a progress line every N games (default 50; 0: none)\n"
    "  --quiet        no progress at all\n"
    "  --json         a JSON summary: {\"league\",\"name\",\"resumed\",\"scheduled\",\"played\",\"pending\",\n"
    "                 \"forfeits\":{...},\"unsandboxed\":[the agents with sandbox = off],\"seconds\",\"db\"};\n"
    "                 in text, such agents are named on a line 'sandbox off (trusted bots only): NAME, NAME'\n\n"
    "One league coordinator at a time per database: a second `arena league` on a database in use exits\n"
    "with status 3 without touching it (other commands, `arena match` included, may use it meanwhile).\n\n"
    "Exit status: 0 the league is complete, 1 it could not run (database error), 2 bad input (the config:\n"
    "file, line and key are named), 3 the database is in use by another league, 128+signal when\n"
    "interrupted (games already played are kept).\n";

typedef struct {
    const cfg_league *cfg;
    ag_command cmds[CFG_MAX_AGENTS];
    rec_agent agents[CFG_MAX_AGENTS];
    rec_run rec;
    store_planned *pending;
    int n_pending, next;
} league_run;

static int agent_index(const cfg_league *c, const char *name)
{
    for (int i = 0; i < c->n_agents; i++)
        if (strcmp(c->agents[i].name, name) == 0)
            return i;
    return -1;
}

static bool next_game(void *user, rn_game *g)
{
    league_run *l = user;
    while (l->next < l->n_pending) {
        store_planned *p = &l->pending[l->next++];
        int b = agent_index(l->cfg, p->black), w = agent_index(l->cfg, p->white);
        if (b < 0 || w < 0)
            continue; /* cannot happen: the schedule was written from this config */
        *g = (rn_game){ .id = (uint64_t)p->id, .black = b, .white = w, .variant = p->variant, .rows = p->rows,
                        .cols = p->cols, .seed = p->seed, .tag = p,
                        .flags = l->cfg->swap && p->variant == HX_HEX && p->rows == p->cols ? HX_SWAP_RULE : 0 };
        return true;
    }
    return false;
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = malloc(CFG_MAX_FILE + 1); /* cfg_load refused a larger file */
    size_t n = buf ? fread(buf, 1, CFG_MAX_FILE, f) : 0;
    fclose(f);
    if (buf)
        buf[n] = '\0';
    return buf;
}

/* An agent's bad key: exit 2 with "FILE:LINE: [agent NAME] KEY: why", unprintable bytes as \xNN. */
static void bad_agent(const char *path, int line, const char *name, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 5, 6), noreturn));
static void bad_agent(const char *path, int line, const char *name, const char *key, const char *fmt, ...)
{
    char why[1024], text[2048], shown[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    snprintf(text, sizeof text, "%s:%d: [agent %s] %s: %s", path, line, name, key, why);
    cfg_printable(text, shown, sizeof shown);
    cli_usage_error("league", "%s", shown);
}

/* Refuses (exit 2) a schedule over LG_MAX_GAMES, counted before it is built (plays: what each agent plays). */
static void check_size(const cfg_league *c, const cfg_games *plays)
{
    long long n = lg_count(c, plays);
    if (n <= LG_MAX_GAMES)
        return;
    int variants = 0;
    for (int v = 0; v < HX_VARIANT_COUNT; v++)
        variants += (c->games.variants >> v) & 1;
    char shown[600];
    cfg_printable(c->path, shown, sizeof shown);
    cli_usage_error("league", "%s: [league] games: %d agents, %d variants, %d boards and %d games per pairing make %lld "
                    "games, over the limit of %d in one league", shown, c->n_agents, variants, c->games.n_boards,
                    c->per_pairing, n, LG_MAX_GAMES);
}

int cmd_league(int argc, char **argv)
{
    enum { O_RESUME = CLI_O_OWN, O_NEW, O_LOGS, O_PROGRESS, O_QUIET };
    static const struct option options[] = {
        CLI_DB_OPTIONS,
        { "resume", no_argument, 0, O_RESUME },           { "new", no_argument, 0, O_NEW },
        { "logs", required_argument, 0, O_LOGS },         { "progress", required_argument, 0, O_PROGRESS },
        { "quiet", no_argument, 0, O_QUIET },             { 0, 0, 0, 0 },
    };
    const char *db = STORE_DEFAULT_PATH, *logs = "results/logs";
    bool resume = false, fresh = false, quiet = false;
    long every = 50;
    cli_format fmt = CLI_TEXT;
    int c;
    while ((c = cli_getopt("league", argc, argv, options)) != -1) {
        switch (c) {
        case CLI_O_DB: db = optarg; break;
        case O_RESUME: resume = true; break;
        case O_NEW: fresh = true; break;
        case O_LOGS: logs = optarg; break;
        case O_PROGRESS: every = (long)cli_count("league", "--progress", optarg, 0, 100000000); break;
        case O_QUIET: quiet = true; break;
        case CLI_O_JSON: fmt = CLI_JSON; break;
        case CLI_O_FORMAT: fmt = cli_format_parse("league", optarg); break;
        case CLI_O_HELP: fputs(help, stdout); return CLI_OK;
        }
    }
    if (argc - optind != 1)
        cli_usage_error("league", "expected one config file (see 'arena league --help')");
    if (resume && fresh)
        cli_usage_error("league", "--resume and --new exclude each other");
    const char *path = argv[optind];
    static cfg_league cfg;
    char err[1024];
    if (cfg_load(path, &cfg, err, sizeof err) != 0)
        cli_usage_error("league", "%s", err);

    /* Everything that can be checked is checked before the database is even opened: a bad config writes
     * nothing and creates no file (docs/leagues.md). */
    sb_deny(path); /* no bot sees the config, the database or the logs, whatever its config says */
    sb_deny(db);
    sb_deny(logs);
    static league_run l;
    memset(&l, 0, sizeof l);
    l.cfg = &cfg;
    for (int a = 0; a < cfg.n_agents; a++) {
        const cfg_agent *ca = &cfg.agents[a];
        struct stat st;
        if (ca->dir[0] && (stat(ca->dir, &st) != 0 || !S_ISDIR(st.st_mode)))
            bad_agent(path, ca->dir_line, ca->name, "dir", "'%s': %s", ca->dir,
                      access(ca->dir, F_OK) != 0 ? "no such directory" : "not a directory");
        if (ag_command_parse(ca->cmdline, ca->dir[0] ? ca->dir : NULL, &l.cmds[a], err, sizeof err) != 0)
            bad_agent(path, ca->command_line, ca->name, "command", "%s", err);
    }
    for (int a = 0; a < cfg.n_agents; a++) {
        ag_limits *lim = &l.cmds[a].limits;
        if (cfg.agents[a].memory_mb >= 0)
            lim->memory_mb = (unsigned)cfg.agents[a].memory_mb;
        if (cfg.agents[a].cpu_seconds >= 0)
            lim->cpu_seconds = (unsigned)cfg.agents[a].cpu_seconds;
        if (cfg.agents[a].open_files >= 0)
            lim->open_files = (unsigned)cfg.agents[a].open_files;
        const cfg_agent *ca = &cfg.agents[a];
        sb_policy *sb = &l.cmds[a].sandbox;
        sb->off = !ca->sandbox;
        sb->network = ca->network;
        sb->writable = ca->writable;
        for (int i = 0; i < ca->n_read && i < SB_MAX_PATHS; i++)
            snprintf(sb->read[sb->n_read++], sizeof sb->read[0], "%s", ca->read[i]);
        for (int i = 0; i < ca->n_env && i < SB_MAX_ENV; i++)
            snprintf(sb->env[sb->n_env++], sizeof sb->env[0], "%s", ca->env[i]);
        l.agents[a].command = &l.cmds[a];
        snprintf(l.agents[a].name, sizeof l.agents[a].name, "%s", cfg.agents[a].store_name);
    }
    char sha[SHA256_DIGEST_STRING_LENGTH];
    char *text = read_file(path);
    if (!text || !SHA256File(path, sha))
        cli_usage_error("league", "%s: cannot read", path);
    static cv_keypair server_key;
    if (cfg.listen[0] && cv_read(cfg.server_key, &server_key, err, sizeof err) != 0)
        cli_usage_error("league", "%s: [league] server_key: %s", path, err);
    /* The most the config can schedule, before any agent is asked what it plays: an agent without its own lists
     * counted as playing the league's. */
    static cfg_games most[CFG_MAX_AGENTS];
    for (int a = 0; a < cfg.n_agents; a++) {
        most[a] = cfg.agents[a].plays;
        if (!cfg.agents[a].has_variants)
            most[a].variants = cfg.games.variants;
        if (!cfg.agents[a].has_boards)
            most[a].n_boards = 0;
    }
    check_size(&cfg, most);
    if (lg_count(&cfg, most) == 0)
        cli_usage_error("league", "%s: no games to play (no two agents share a listed variant and board)", path);
    struct stat db_st;
    if (resume && stat(db, &db_st) != 0)
        cli_usage_error("league", "--resume: no database %s", db);

    if (strcmp(db, STORE_DEFAULT_PATH) == 0)
        mkdir("results", 0755);
    bool bad_db;
    rec_run *rec = &l.rec;
    rec->store = store_open(db, &bad_db, err, sizeof err);
    if (!rec->store && bad_db)
        cli_usage_error("league", "%s", err);
    if (!rec->store)
        cli_fail("league", "%s", err);
    rec->agents = l.agents; /* named by the config */
    int claim = store_claim(db, err, sizeof err); /* released when this process ends */
    if (claim < 0) {
        store_close(rec->store);
        free(text);
        fprintf(stderr, "arena league: %s\n", err);
        return 3;
    }

    static volatile sig_atomic_t stop;
    ag_handle_signals(&stop, NULL);
    rn_agent agents[CFG_MAX_AGENTS];
    for (int a = 0; a < cfg.n_agents; a++)
        agents[a] = (rn_agent){ cfg.agents[a].name, &l.cmds[a],
                                cfg.agents[a].server_key[0] ? cfg.agents[a].server_key : NULL,
                                cfg.agents[a].restart_each_game };
    char prefix[96];
    snprintf(prefix, sizeof prefix, "league-%s", cfg.name);
    rn_config rc = { .agents = agents, .n_agents = cfg.n_agents, .concurrency = cfg.concurrency,
                     .max_processes = cfg.max_processes,
                     .move_ms = cfg.move_ms, .margin_ms = 50, .handshake_ms = cfg.handshake_ms,
                     .listen = cfg.listen[0] ? cfg.listen : NULL, .server_key = cfg.listen[0] ? &server_key : NULL, .ping_ms = 1000,
                     .log_dir = logs, .log_prefix = prefix, .stop = &stop, .next_game = next_game, .user = &l };
    rec_attach(rec, &rc); /* from here on, an agent's hello (also when probed) stores it */

    int64_t league = store_league_unfinished(rec->store, cfg.name, sha);
    if (league < 0)
        cli_fail("league", "%s: %s", db, store_error(rec->store));
    if (fresh)
        league = 0;
    if (resume && league == 0)
        cli_usage_error("league", "--resume: no unfinished league '%s' with this config in %s", cfg.name, db);
    bool resumed = league > 0;
    if (!resumed) {
        /* What each agent plays: the config's lists, else what its hello announces. */
        static cfg_games plays[CFG_MAX_AGENTS];
        for (int a = 0; a < cfg.n_agents; a++) {
            cfg_agent *ca = &cfg.agents[a];
            plays[a] = ca->plays;
            if (ca->has_variants && ca->has_boards)
                continue;
            static pm_msg hello;
            rn_status st = rn_probe(&rc, a, &hello, err, sizeof err);
            if (st == RN_STOPPED)
                return 128 + (int)stop;
            if (st != RN_DONE) { /* its games are scheduled; it forfeits those it fails again */
                fprintf(stderr, "arena league: warning: %s (asked what it plays; see its log in %s); scheduling it "
                        "for the league's variants and boards\n", err, logs);
                if (!ca->has_variants)
                    plays[a].variants = cfg.games.variants;
                if (!ca->has_boards)
                    plays[a].n_boards = 0;
                continue;
            }
            if (!ca->has_variants)
                plays[a].variants = hello.variants;
            if (!ca->has_boards) {
                plays[a].n_boards = hello.n_boards < CFG_MAX_BOARDS ? hello.n_boards : 0;
                memcpy(plays[a].boards, hello.boards, sizeof plays[a].boards[0] * (size_t)plays[a].n_boards);
            }
        }
        check_size(&cfg, plays);
        int n = lg_plan(&cfg, plays, NULL);
        if (n == 0)
            cli_usage_error("league", "%s: no games to play (no two agents share a listed variant and board)", path);
        store_planned *plan = calloc((size_t)n, sizeof *plan);
        if (!plan)
            cli_fail("league", "out of memory");
        lg_plan(&cfg, plays, plan);
        league = store_league_create(rec->store, cfg.name, text, sha, cfg.seed, plan, n);
        free(plan);
        if (league < 0)
            cli_fail("league", "%s: cannot write the schedule: %s", db, store_error(rec->store));
    }
    free(text);
    /* The league's secret for the players' seeds: drawn with it, read back when it is resumed (a league from an
     * older arena, which has none, gets one now: none of its games was played with it before). */
    uint8_t seed_key[SEEDS_KEY_BYTES];
    if (seeds_new_key(seed_key) != 0)
        cli_fail("league", "cannot draw a secret for the players' seeds (libsodium cannot be initialised)");
    if (store_league_secret(rec->store, league, seed_key, sizeof seed_key) != 0)
        cli_fail("league", "%s: cannot read or store the league's secret: %s", db, store_error(rec->store));
    int total = 0;
    if (store_league_pending(rec->store, league, &l.pending, &l.n_pending, &total) != 0)
        cli_fail("league", "%s: %s", db, store_error(rec->store));
    char desc[256];
    snprintf(desc, sizeof desc, "league %lld '%s' from %s", (long long)league, cfg.name, path);
    if (rec_begin(rec, "league", desc, seed_key, err, sizeof err) != 0)
        cli_fail("league", "%s: %s", db, err);
    if (fmt == CLI_TEXT && !quiet)
        fprintf(stderr, "league %lld '%s': %d games scheduled, %d to play%s\n", (long long)league, cfg.name, total,
                l.n_pending, resumed ? " (resuming)" : "");

    double seconds;
    rn_status st = rec_play(rec, &rc, l.n_pending, every, quiet, &seconds, err, sizeof err);
    int pending = l.n_pending - (int)rec->played;
    long forfeits = rec_forfeits(rec);
    const char *off[CFG_MAX_AGENTS];
    int n_off = rec_unsandboxed(rec, off, CFG_MAX_AGENTS);
    if (fmt == CLI_JSON) {
        printf("{\"league\":%lld,\"name\":", (long long)league);
        json_string(stdout, cfg.name);
        printf(",\"resumed\":%s,\"scheduled\":%d,\"played\":%ld,\"pending\":%d,\"forfeits\":{", resumed ? "true" : "false",
               total, rec->played, pending);
        for (int r = 1; r < HX_END_COUNT; r++)
            printf("%s\"%s\":%ld", r > 1 ? "," : "", hx_end_name((hx_end_reason)r), rec->forfeits[r]);
        putchar('}');
        cli_unsandboxed_json(off, n_off < CFG_MAX_AGENTS ? n_off : CFG_MAX_AGENTS);
        printf(",\"seconds\":%.3f,\"db\":", seconds);
        json_string(stdout, db);
        printf("}\n");
    } else {
        printf("league %lld '%s': %ld of %d games played now in %.1f s, %d pending, %ld forfeit%s\n", (long long)league,
               cfg.name, rec->played, total, seconds, pending, forfeits, forfeits == 1 ? "" : "s");
        for (int r = 1; r < HX_END_COUNT; r++)
            if (rec->forfeits[r])
                printf("  %s: %ld\n", hx_end_name((hx_end_reason)r), rec->forfeits[r]);
        cli_unsandboxed_text(off, n_off < CFG_MAX_AGENTS ? n_off : CFG_MAX_AGENTS);
    }
    free(l.pending);
    store_close(rec->store);
    if (st == RN_FAILED) {
        fprintf(stderr, "arena league: %s\n", err);
        return CLI_FAILED;
    }
    if (st == RN_STOPPED) {
        fprintf(stderr, "arena league: interrupted with %d games to play; run the same command to play them\n",
                pending);
        return 128 + (int)stop;
    }
    return CLI_OK;
}
