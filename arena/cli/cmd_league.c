/* arena/cli/cmd_league.c — `arena league CONFIG`: writes a league's whole schedule to the database, then plays
 * the games still missing, so an interrupted league resumes where it stopped (docs/leagues.md). */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include <sha2.h>

#include "agent.h"
#include "cli.h"
#include "commands.h"
#include "config.h"
#include "league.h"
#include "curvezmq.h"
#include "openings.h"
#include "pairing.h"
#include "record.h"
#include "runner.h"
#include "sandbox.h"
#include "seeds.h"
#include "store.h"
#include "json.h"

_Static_assert(sizeof ((cfg_agent *)0)->cmdline <= sizeof ((ag_command *)0)->line,
               "an agent's command line from a config fits an ag_command");

static const char help[] =
    "usage: arena league CONFIG [--db PATH] [--seed N|date] [--date YYYY-MM-DD] [--shard K/N] [--secret FILE]\n"
    "                    [--resume | --new] [--logs DIR] [--progress N] [--quiet] [--json | --format text|json]\n\n"
    "Plays a league described by an INI file (docs/leagues.md): every pairing of its agents (or the\n"
    "challenger against each, in a gauntlet) in every listed variant and board, the configured number of\n"
    "games each, half with each colour. The whole schedule is written to the database first; then the\n"
    "games not yet played are played. Running the same command again after an interruption (Ctrl-C,\n"
    "kill -9, power loss) plays only what is missing. Each pairing plays game pairs: two games from one\n"
    "opening with colours reversed (openings = random|none|FILE). In mode = sprt each pairing stops as soon\n"
    "as its sequential test is decided.\n\n"
    "  --db PATH      results database (default results/arena.db)\n"
    "  --seed N|date  the league's seed (game seeds and random openings), instead of the config's `seed`;\n"
    "                 date: today's date in UTC as YYYYMMDD, so a nightly league is new evidence each night\n"
    "  --date D       the night this league belongs to (YYYY-MM-DD): reports and the rating history show\n"
    "                 it under that date (default: the day it was created); a resumed league keeps its first\n"
    "  --shard K/N    play only shard K of N of the schedule (the rows at positions K-1, K-1+N, ...): run\n"
    "                 one coordinator per shard, each into its own database, then 'arena merge' them;\n"
    "                 rerunning a shard plays only what it lacks (docs/distributed.md)\n"
    "  --secret FILE  the league's secret for the players' seeds (32 hex digits) instead of a drawn one: give\n"
    "                 every shard the same, so that together they play the games one coordinator would\n"
    "  --resume       only continue an unfinished league of this name and config (error when none)\n"
    "  --new          start a new league even when an unfinished one exists\n"
    "                 (default: continue an unfinished one, else start a new one)\n"
    "  --logs DIR     bots' output (default results/logs)\n"
    "  --progress N   when stderr is not a terminal, a progress line every N games (default 50; 0: none)\n"
    "  --quiet        no progress at all\n"
    "  --json         a JSON summary: {\"league\",\"name\",\"resumed\",\"seed\",\"openings\",\"scheduled\",\"played\",\n"
    "                 \"pending\",\"skipped\",\"forfeits\":{...},\"unsandboxed\":[the agents with sandbox = off],\n"
    "                 \"distinct\",\"repeating_pairings\",\"pairings\":[{\"variant\",\"board\",\"a\",\"b\",\"games\",\n"
    "                 \"a_wins\",\"b_wins\",\"distinct\",\"pairs\",\"pentanomial\":[5 counts],\"score\",\"elo\",\n"
    "                 \"elo_lower\",\"elo_upper\",\"los\",\"sprt\":{...}|null}],\"seconds\",\"db\"}; in text,\n"
    "                 agents without a sandbox are named on a line 'sandbox off (trusted bots only): NAME, NAME'\n"
    "                 and pairings that repeat games get a warning\n\n"
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
    int64_t league;
    pg_table *live;                /* results so far, by pairing (SPRT decisions) */
    pn_sprt sprt;
    long skipped;                  /* games an SPRT decided not to play (this run) */
} league_run;

static int agent_index(const cfg_league *c, const char *name)
{
    for (int i = 0; i < c->n_agents; i++)
        if (strcmp(c->agents[i].name, name) == 0)
            return i;
    return -1;
}

/* The pairing of a schedule row in `t`, its agents in the league's order (made when new; NULL: out of memory). */
static pg_pairing *pairing_of(const cfg_league *c, pg_table *t, hx_variant v, int rows, int cols, const char *black,
                              const char *white, bool *first_black)
{
    int b = agent_index(c, black), w = agent_index(c, white);
    bool fb = b < 0 || w < 0 ? true : lg_first(c, b, w) == b;
    if (first_black)
        *first_black = fb;
    return pg_get(t, v, rows, cols, fb ? black : white, fb ? white : black);
}

static bool decided(const league_run *l, const store_planned *p)
{
    if (l->cfg->mode != CFG_SPRT)
        return false;
    pg_pairing *q = pg_find(l->live, p->variant, p->rows, p->cols, p->black, p->white);
    return q && q->decision != PN_CONTINUE;
}

static bool next_game(void *user, rn_game *g)
{
    league_run *l = user;
    while (l->next < l->n_pending) {
        store_planned *p = &l->pending[l->next++];
        int b = agent_index(l->cfg, p->black), w = agent_index(l->cfg, p->white);
        if (b < 0 || w < 0)
            continue; /* cannot happen: the schedule was written from this config */
        if (decided(l, p)) {
            l->skipped++;
            continue;
        }
        *g = (rn_game){ .id = (uint64_t)p->id, .black = b, .white = w, .variant = p->variant, .rows = p->rows,
                        .cols = p->cols, .seed = p->seed, .tag = p, .opening = p->opening,
                        .opening_len = p->opening_len,
                        .flags = l->cfg->swap && p->variant == HX_HEX && p->rows == p->cols ? HX_SWAP_RULE : 0 };
        return true;
    }
    return false;
}

/* Tallies a game into l->live and, in an SPRT league, decides its pairing once the test allows: the pairing's
 * remaining games are marked skipped in the store. Returns false when the store fails. */
static bool tally(league_run *l, hx_variant v, int rows, int cols, const char *black, const char *white, int pair,
                  int winner, char *why, size_t whylen)
{
    bool first_black;
    pg_pairing *q = pairing_of(l->cfg, l->live, v, rows, cols, black, white, &first_black);
    if (!q || pg_add(q, first_black, (winner == HX_BLACK) == first_black, pair, 0) != 0) {
        snprintf(why, whylen, "out of memory");
        return false;
    }
    if (l->cfg->mode != CFG_SPRT || q->decision != PN_CONTINUE)
        return true;
    q->decision = pn_decide(&q->penta, &l->sprt, &q->llr);
    if (q->decision == PN_CONTINUE)
        return true;
    store_planned row = { .variant = v, .rows = rows, .cols = cols };
    snprintf(row.black, sizeof row.black, "%s", black);
    snprintf(row.white, sizeof row.white, "%s", white);
    if (store_league_skip(l->rec.store, l->league, &row) < 0) {
        snprintf(why, whylen, "cannot mark the decided pairing's games skipped: %s", store_error(l->rec.store));
        return false;
    }
    return true;
}

static bool on_stored(void *user, const rn_result *res, char *why, size_t whylen)
{
    league_run *l = user;
    const store_planned *p = res->game->tag;
    return !p || tally(l, p->variant, p->rows, p->cols, p->black, p->white, p->pair, res->winner, why, whylen);
}

static void json_number(double x)
{
    if (isfinite(x))
        printf("%.17g", x);
    else
        printf("null");
}

/* The league's results by pairing, read back from the store: distinct games, pairs, SPRT. NULL on failure. */
static pg_table *pairings(const league_run *l, char *err, size_t errlen)
{
    store_league_game *games;
    int n;
    pg_table *t = pg_new();
    if (!t || store_league_games(l->rec.store, l->league, &games, &n) != 0) {
        snprintf(err, errlen, "cannot read the league's games: %s", store_error(l->rec.store));
        pg_free(t);
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        const store_league_game *g = &games[i];
        bool first_black;
        pg_pairing *q = pairing_of(l->cfg, t, g->variant, g->rows, g->cols, g->black, g->white, &first_black);
        if (!q || pg_add(q, first_black, (g->winner == HX_BLACK) == first_black, g->pair, g->moves ? g->moves : 1) != 0) {
            snprintf(err, errlen, "out of memory");
            free(games);
            pg_free(t);
            return NULL;
        }
    }
    free(games);
    pg_finish(t);
    for (int i = 0; i < pg_count(t); i++) { /* the SPRT as it stands (decided ones as they were decided) */
        pg_pairing *q = pg_at(t, i), *live = pg_find(l->live, q->variant, q->rows, q->cols, q->a, q->b);
        if (l->cfg->mode == CFG_SPRT) {
            q->decision = live ? live->decision : PN_CONTINUE;
            q->llr = live && live->decision != PN_CONTINUE ? live->llr : pn_llr(&q->penta, &l->sprt);
        }
    }
    return t;
}

static void print_pairings(const league_run *l, pg_table *t, cli_format fmt)
{
    long games = 0, distinct = 0;
    int repeating = 0;
    for (int i = 0; i < pg_count(t); i++) {
        const pg_pairing *q = pg_at(t, i);
        games += q->games;
        distinct += q->distinct;
        repeating += q->distinct < q->games;
    }
    double lo, hi;
    pn_bounds(&l->sprt, &lo, &hi);
    if (fmt == CLI_JSON) {
        printf(",\"distinct\":%ld,\"repeating_pairings\":%d,\"pairings\":[", distinct, repeating);
        for (int i = 0; i < pg_count(t); i++) {
            const pg_pairing *q = pg_at(t, i);
            pn_summary sm;
            pn_summarise(&q->penta, 1.96, &sm);
            printf("%s{\"variant\":\"%s\",\"board\":\"%dx%d\",\"a\":", i ? "," : "", hx_variant_name(q->variant),
                   q->rows, q->cols);
            json_string(stdout, q->a);
            printf(",\"b\":");
            json_string(stdout, q->b);
            printf(",\"games\":%ld,\"a_wins\":%ld,\"b_wins\":%ld,\"a_wins_black\":%ld,\"b_wins_black\":%ld,"
                   "\"distinct\":%d,\"pairs\":%ld,\"pentanomial\":[%ld,%ld,%ld,%ld,%ld],\"score\":",
                   q->games, q->a_wins, q->b_wins, q->a_wins_black, q->b_wins_black, q->distinct, sm.pairs,
                   q->penta.n[0], q->penta.n[1], q->penta.n[2], q->penta.n[3], q->penta.n[4]);
            json_number(sm.pairs ? sm.score : NAN);
            printf(",\"elo\":");
            json_number(sm.pairs ? sm.elo : NAN);
            printf(",\"elo_lower\":");
            json_number(sm.elo_lower);
            printf(",\"elo_upper\":");
            json_number(sm.elo_upper);
            printf(",\"los\":");
            json_number(sm.los);
            printf(",\"sprt\":");
            if (l->cfg->mode == CFG_SPRT) {
                printf("{\"elo0\":%g,\"elo1\":%g,\"alpha\":%g,\"beta\":%g,\"llr\":", l->sprt.elo0, l->sprt.elo1,
                       l->sprt.alpha, l->sprt.beta);
                json_number(q->llr);
                printf(",\"lower\":%.17g,\"upper\":%.17g,\"decision\":\"%s\"}", lo, hi, pn_decision_name(q->decision));
            } else {
                printf("null");
            }
            putchar('}');
        }
        putchar(']');
        return;
    }
    printf("distinct games: %ld of %ld in %d pairing%s\n", distinct, games, pg_count(t), pg_count(t) == 1 ? "" : "s");
    if (l->cfg->mode != CFG_ROUND_ROBIN)
        for (int i = 0; i < pg_count(t); i++) {
            const pg_pairing *q = pg_at(t, i);
            pn_summary sm;
            pn_summarise(&q->penta, 1.96, &sm);
            printf("  %s %dx%d %s vs %s: %ld-%ld, pairs [%ld %ld %ld %ld %ld]", hx_variant_name(q->variant), q->rows,
                   q->cols, q->a, q->b, q->a_wins, q->b_wins, q->penta.n[0], q->penta.n[1], q->penta.n[2],
                   q->penta.n[3], q->penta.n[4]);
            if (sm.pairs)
                printf(", Elo %+.1f [%+.1f, %+.1f], LOS %.1f%%", sm.elo, sm.elo_lower, sm.elo_upper, 100.0 * sm.los);
            if (l->cfg->mode == CFG_SPRT)
                printf(", SPRT LLR %.2f [%.2f, %.2f] %s", q->llr, lo, hi,
                       q->decision == PN_H1   ? "H1 accepted"
                       : q->decision == PN_H0 ? "H0 accepted"
                                              : "undecided");
            putchar('\n');
        }
    int shown = 0;
    for (int i = 0; i < pg_count(t); i++) {
        const pg_pairing *q = pg_at(t, i);
        if (q->distinct >= q->games)
            continue;
        if (shown++ < 5)
            fprintf(stderr, "arena league: warning: %s %dx%d %s vs %s repeats games: %d distinct of %ld\n",
                    hx_variant_name(q->variant), q->rows, q->cols, q->a, q->b, q->distinct, q->games);
    }
    if (shown > 5)
        fprintf(stderr, "arena league: warning: %d more pairings repeat games (--json lists every pairing)\n", shown - 5);
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

/* Keeps, in order, the rows of shard k of n (1-based): those whose position n in the schedule is k - 1 modulo n.
 * Returns how many. Every shard of a league sees the same schedule, so the shards split it exactly. */
static int shard_rows(store_planned *rows, int count, int k, int n)
{
    int kept = 0;
    for (int i = 0; i < count; i++)
        if (rows[i].n % n == k - 1)
            rows[kept++] = rows[i];
    return kept;
}

/* The league secret in `path`: 32 hexadecimal digits (16 bytes), white space around them allowed. */
static int read_secret(const char *path, uint8_t key[SEEDS_KEY_BYTES], char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s", strerror(errno));
        return -1;
    }
    char text[128] = "";
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    char *p = text + strspn(text, " \t\r\n");
    size_t len = strspn(p, "0123456789abcdefABCDEF");
    if (len != 2 * SEEDS_KEY_BYTES || p[len + strspn(p + len, " \t\r\n")] != '\0') {
        snprintf(err, errlen, "expected %d hexadecimal digits (make one: od -An -N%d -tx1 /dev/urandom | tr -d ' \\n')",
                 2 * SEEDS_KEY_BYTES, SEEDS_KEY_BYTES);
        return -1;
    }
    for (int i = 0; i < SEEDS_KEY_BYTES; i++) {
        unsigned v;
        sscanf(p + 2 * i, "%2x", &v);
        key[i] = (uint8_t)v;
    }
    return 0;
}

int cmd_league(int argc, char **argv)
{
    enum { O_RESUME = CLI_O_OWN, O_NEW, O_LOGS, O_PROGRESS, O_QUIET, O_SEED, O_DATE, O_SHARD, O_SECRET };
    static const struct option options[] = {
        CLI_DB_OPTIONS,
        { "resume", no_argument, 0, O_RESUME },           { "new", no_argument, 0, O_NEW },
        { "logs", required_argument, 0, O_LOGS },         { "progress", required_argument, 0, O_PROGRESS },
        { "quiet", no_argument, 0, O_QUIET },             { "seed", required_argument, 0, O_SEED },
        { "date", required_argument, 0, O_DATE },         { "shard", required_argument, 0, O_SHARD },
        { "secret", required_argument, 0, O_SECRET },     { 0, 0, 0, 0 },
    };
    const char *db = STORE_DEFAULT_PATH, *logs = "results/logs", *seed_arg = NULL, *night = NULL, *secret = NULL;
    int shard = 0, shards = 0; /* --shard K/N: this coordinator plays the rows n with n % N == K - 1 */
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
        case O_SEED: seed_arg = optarg; break;
        case O_DATE: night = cli_date("league", "--date", optarg); break;
        case O_SHARD: {
            char tail;
            if (sscanf(optarg, "%d/%d%c", &shard, &shards, &tail) != 2 || shards < 1 || shards > 100000 || shard < 1 ||
                shard > shards)
                cli_usage_error("league", "--shard '%s': expected K/N with 1 <= K <= N (e.g. 3/8)", optarg);
            break;
        }
        case O_SECRET: secret = optarg; break;
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
    if (shards > 0 && cfg.mode == CFG_SPRT)
        cli_usage_error("league", "--shard: %s: mode = sprt stops a pairing on all of its games, which no shard sees; "
                        "shard a round-robin or gauntlet league", path);
    uint8_t given_key[SEEDS_KEY_BYTES];
    if (secret && read_secret(secret, given_key, err, sizeof err) != 0)
        cli_usage_error("league", "--secret %s: %s", secret, err);
    if (seed_arg) {
        cfg.seed_date = strcmp(seed_arg, "date") == 0;
        if (!cfg.seed_date)
            cfg.seed = (uint64_t)cli_count("league", "--seed", seed_arg, 0, INT64_MAX);
    }
    if (cfg.seed_date) { /* the day's date in UTC, YYYYMMDD */
        time_t now = time(NULL);
        struct tm tm;
        gmtime_r(&now, &tm);
        cfg.seed = (uint64_t)((tm.tm_year + 1900) * 10000 + (tm.tm_mon + 1) * 100 + tm.tm_mday);
    }
    op_book *book = NULL;
    if (strcmp(cfg.openings, "random") != 0 && strcmp(cfg.openings, "none") != 0 &&
        !(book = op_book_load(cfg.openings, err, sizeof err)))
        cli_usage_error("league", "%s: [league] openings: %s", path, err);

    /* Everything that can be checked is checked before the database is even opened: a bad config writes
     * nothing and creates no file (docs/leagues.md). */
    sb_deny(path); /* no bot sees the config, the database or the logs, whatever its config says */
    sb_deny(db);
    sb_deny(logs);
    if (secret)
        sb_deny(secret);
    static league_run l;
    memset(&l, 0, sizeof l);
    l.cfg = &cfg;
    for (int a = 0; a < cfg.n_agents; a++) {
        const cfg_agent *ca = &cfg.agents[a];
        struct stat st;
        if (ca->dir[0] && (stat(ca->dir, &st) != 0 || !S_ISDIR(st.st_mode)))
            bad_agent(path, ca->dir_line, ca->name, "dir", "'%s': %s", ca->dir,
                      access(ca->dir, F_OK) != 0 ? "no such directory" : "not a directory");
        if (ca->host[0]) { /* its host runs it: the command line and hash are the host's (its host_hello) */
            snprintf(l.cmds[a].line, sizeof l.cmds[a].line, "%s", ca->command[0] ? ca->cmdline : "(on its host)");
            l.cmds[a].sandbox.off = false;
            continue;
        }
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
                                cfg.agents[a].restart_each_game, cfg.agents[a].host[0] ? cfg.agents[a].host : NULL };
    char prefix[96];
    snprintf(prefix, sizeof prefix, "league-%s", cfg.name);
    rn_config rc = { .agents = agents, .n_agents = cfg.n_agents, .concurrency = cfg.concurrency,
                     .max_processes = cfg.max_processes,
                     .move_ms = cfg.move_ms, .margin_ms = 50, .handshake_ms = cfg.handshake_ms,
                     .listen = cfg.listen[0] ? cfg.listen : NULL, .server_key = cfg.listen[0] ? &server_key : NULL, .ping_ms = 1000,
                     .host_wait_ms = cfg.host_wait_ms,
                     .log_dir = logs, .log_prefix = prefix, .stop = &stop, .next_game = next_game, .user = &l };
    rec_attach(rec, &rc); /* from here on, an agent's hello (also when probed) stores it */

    int64_t league = store_league_unfinished(rec->store, cfg.name, sha, cfg.seed);
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
        int n = lg_plan(&cfg, plays, NULL, NULL);
        if (n == 0)
            cli_usage_error("league", "%s: no games to play (no two agents share a listed variant and board)", path);
        static lg_suites suites;
        char note[256];
        int short_suites = lg_suites_make(&cfg, book, &suites, note, sizeof note);
        if (short_suites < 0)
            cli_fail("league", "out of memory");
        if (short_suites > 0)
            fprintf(stderr, "arena league: warning: pairings replay openings: %s%s\n", note,
                    short_suites > 1 ? " (and other variants or boards)" : "");
        store_planned *plan = calloc((size_t)n, sizeof *plan);
        if (!plan)
            cli_fail("league", "out of memory");
        lg_plan(&cfg, plays, &suites, plan);
        lg_suites_free(&suites);
        league = store_league_create(rec->store, cfg.name, text, sha, cfg.seed, plan, n);
        free(plan);
        if (league < 0)
            cli_fail("league", "%s: cannot write the schedule: %s", db, store_error(rec->store));
    }
    free(text);
    op_book_free(book);
    l.league = league;
    if (night && store_league_night(rec->store, league, night) != 0)
        cli_fail("league", "%s: cannot record the night: %s", db, store_error(rec->store));
    l.sprt = (pn_sprt){ cfg.elo0, cfg.elo1, cfg.alpha, cfg.beta };
    l.live = pg_new();
    if (!l.live)
        cli_fail("league", "out of memory");
    { /* the games already played (a resumed league) count towards its pairings and their tests */
        store_league_game *done;
        int n_done;
        if (store_league_games(rec->store, league, &done, &n_done) != 0)
            cli_fail("league", "%s: cannot read the league's games: %s", db, store_error(rec->store));
        for (int i = 0; i < n_done; i++)
            if (!tally(&l, done[i].variant, done[i].rows, done[i].cols, done[i].black, done[i].white, done[i].pair,
                       done[i].winner, err, sizeof err))
                cli_fail("league", "%s: %s", db, err);
        free(done);
    }
    rec->stored = on_stored;
    /* The league's secret for the players' seeds: drawn with it, read back when it is resumed (a league from an
     * older arena, which has none, gets one now: none of its games was played with it before). */
    uint8_t seed_key[SEEDS_KEY_BYTES];
    if (secret) /* --secret: the one every shard of the league plays with */
        memcpy(seed_key, given_key, sizeof seed_key);
    else if (seeds_new_key(seed_key) != 0)
        cli_fail("league", "cannot draw a secret for the players' seeds (libsodium cannot be initialised)");
    if (store_league_secret(rec->store, league, seed_key, sizeof seed_key) != 0)
        cli_fail("league", "%s: cannot read or store the league's secret: %s", db, store_error(rec->store));
    if (secret && memcmp(seed_key, given_key, sizeof seed_key) != 0)
        cli_usage_error("league", "--secret %s: league %lld in %s was played with another secret", secret,
                        (long long)league, db);
    int total = 0;
    if (store_league_pending(rec->store, league, &l.pending, &l.n_pending, &total) != 0)
        cli_fail("league", "%s: %s", db, store_error(rec->store));
    if (shards > 0)
        l.n_pending = shard_rows(l.pending, l.n_pending, shard, shards);
    char desc[256];
    snprintf(desc, sizeof desc, "league %lld '%s' from %s", (long long)league, cfg.name, path);
    if (rec_begin(rec, "league", desc, seed_key, err, sizeof err) != 0)
        cli_fail("league", "%s: %s", db, err);
    if (fmt == CLI_TEXT && !quiet)
        fprintf(stderr, "league %lld '%s': %d games scheduled, %d to play%s%s\n", (long long)league, cfg.name, total,
                l.n_pending, shards ? " in this shard" : "", resumed ? " (resuming)" : "");

    double seconds;
    rn_status st = rec_play(rec, &rc, l.n_pending, every, quiet, &seconds, err, sizeof err);
    long forfeits = rec_forfeits(rec);
    const char *off[CFG_MAX_AGENTS];
    int n_off = rec_unsandboxed(rec, off, CFG_MAX_AGENTS);
    /* What is left, and the league's results by pairing, as the store has them. */
    store_planned *left = NULL;
    int pending = 0, dummy = 0;
    pg_table *table = NULL;
    char err2[512];
    int left_all = 0;
    if (store_league_pending(rec->store, league, &left, &left_all, &dummy) != 0 ||
        !(table = pairings(&l, err2, sizeof err2))) {
        if (st != RN_FAILED) {
            snprintf(err, sizeof err, "%s: %s", db, table ? err2 : store_error(rec->store));
            st = RN_FAILED;
        }
    }
    /* what is left: of the whole league, or with --shard of this shard (the other shards' rows are theirs) */
    pending = left && shards > 0 ? shard_rows(left, left_all, shard, shards) : left_all;
    free(left);
    long played_total = 0;
    for (int i = 0; table && i < pg_count(table); i++)
        played_total += pg_at(table, i)->games;
    long skipped = table ? total - played_total - left_all : 0;
    char openings[600];
    if (strcmp(cfg.openings, "random") == 0)
        snprintf(openings, sizeof openings, "random, %d stone%s", cfg.opening_stones, cfg.opening_stones == 1 ? "" : "s");
    else
        snprintf(openings, sizeof openings, "%s", cfg.openings);
    if (fmt == CLI_JSON) {
        printf("{\"league\":%lld,\"name\":", (long long)league);
        json_string(stdout, cfg.name);
        printf(",\"resumed\":%s,\"seed\":%llu,\"openings\":", resumed ? "true" : "false",
               (unsigned long long)cfg.seed);
        json_string(stdout, openings);
        printf(",\"scheduled\":%d,\"played\":%ld,\"pending\":%d,\"skipped\":%ld,\"forfeits\":{", total, rec->played,
               pending, skipped);
        for (int r = 1; r < HX_END_COUNT; r++)
            printf("%s\"%s\":%ld", r > 1 ? "," : "", hx_end_name((hx_end_reason)r), rec->forfeits[r]);
        putchar('}');
        cli_unsandboxed_json(off, n_off < CFG_MAX_AGENTS ? n_off : CFG_MAX_AGENTS);
        if (table)
            print_pairings(&l, table, fmt);
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
        printf("seed %llu, openings %s\n", (unsigned long long)cfg.seed, openings);
        if (skipped > 0)
            printf("%ld games not played: their pairing's SPRT was decided\n", skipped);
        if (table)
            print_pairings(&l, table, fmt);
    }
    pg_free(table);
    pg_free(l.live);
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
