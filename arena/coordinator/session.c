/* arena/coordinator/session.c — leagues and matches as sessions (session.h): agent setup, opening (config, store,
 * schedule, secret), running through the recorder, and the summary. */
#include "session.h"

#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <signal.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sha2.h>

#include "disk.h"
#include "json.h"
#include "league.h"
#include "mix.h"
#include "mode.h"
#include "openings.h"
#include "pairing.h"
#include "sandbox.h"
#include "browse.h"
#include "league_lock.h"
#include "store.h"

_Static_assert(sizeof ((cfg_agent *)0)->cmdline <= sizeof ((ag_command *)0)->line,
               "an agent's command line from a config fits an ag_command");

struct ss_session {
    ss_summary sum;
    cfg_league cfg;
    cfg_games plays[CFG_MAX_AGENTS];
    ag_command cmds[CFG_MAX_AGENTS];
    rec_agent agents[CFG_MAX_AGENTS];
    id_files files[CFG_MAX_AGENTS];
    rn_agent rn_agents[CFG_MAX_AGENTS];
    rec_run rec;
    rn_config rc;
    cv_keypair server_key;
    char db[1024], logs[1024], prefix[128];
    char scratch[64];              /* the copies of `writable = run` directories (/tmp/arena-run-PID-XXXXXX), or "" */
    int claim;                     /* the database's claim (store_claim), -1 for none */
    int hold;                      /* the league's lock (league_lock.h) while it is played, -1 for none */
    volatile sig_atomic_t stop;
    const ss_callbacks *cb;        /* ss_run's: told of each game once it is stored */
    /* a league */
    char *text;                    /* the config as read */
    char sha[SHA256_DIGEST_STRING_LENGTH];
    op_book *book;
    lg_suites suites;
    pg_table *live;                /* results so far by pairing (decisions) */
    store_planned *pending;
    int n_pending, next;
    int shard;                     /* --shard K of sum.shards */
    void (*warn)(void *user, const char *line);
    void *warn_user;
    pm_msg hello[CFG_MAX_AGENTS];  /* an agent's hello when it was asked at the league's opening (probed) */
    bool probed[CFG_MAX_AGENTS];
    /* a match */
    ss_match_opts match;
    long next_match;
    op_opening *match_suite;       /* its openings without --opening (game pair i: match_suite[i % n_match_suite]) */
    int n_match_suite;
};

/* ---- agents ------------------------------------------------------------------------------------------------- */

int ss_agent_setup(const cfg_agent *ca, ag_command *cmd, id_files *files, const char **key, char *err,
                   size_t errlen)
{
    struct stat st;
    if (ca->dir[0] && (stat(ca->dir, &st) != 0 || !S_ISDIR(st.st_mode))) {
        *key = "dir";
        snprintf(err, errlen, "'%s': %s", ca->dir, access(ca->dir, F_OK) != 0 ? "no such directory" : "not a directory");
        return -1;
    }
    if (ca->host[0]) { /* its host runs it: the command line and hash are the host's (its host_hello) */
        memset(cmd, 0, sizeof *cmd);
        snprintf(cmd->line, sizeof cmd->line, "%s", ca->command[0] ? ca->cmdline : "(on its host)");
        return 0;
    }
    if (ag_command_parse(ca->cmdline, ca->dir[0] ? ca->dir : NULL, cmd, err, errlen) != 0) {
        *key = "command";
        return -1;
    }
    if (ca->memory_mb >= 0)
        cmd->limits.memory_mb = (unsigned)ca->memory_mb;
    if (ca->cpu_seconds >= 0)
        cmd->limits.cpu_seconds = (unsigned)ca->cpu_seconds;
    if (ca->open_files >= 0)
        cmd->limits.open_files = (unsigned)ca->open_files;
    if (ca->pids >= 0)
        cmd->limits.pids = (unsigned)ca->pids;
    if (ca->tmp_mb >= 0)
        cmd->limits.tmp_mb = (unsigned)ca->tmp_mb;
    if (ca->log_mb >= 0)
        cmd->limits.log_mb = (unsigned)ca->log_mb;
    if (ca->disk_mb >= 0)
        cmd->limits.disk_mb = (unsigned)ca->disk_mb;
    if (ca->files >= 0)
        cmd->limits.files = (unsigned)ca->files;
    sb_policy *sb = &cmd->sandbox;
    sb->off = !ca->sandbox;
    sb->network = ca->network;
    sb->writable = ca->writable;
    for (int i = 0; i < ca->n_read && i < SB_MAX_PATHS; i++)
        snprintf(sb->read[sb->n_read++], sizeof sb->read[0], "%s", ca->read[i]);
    for (int i = 0; i < ca->n_env && i < SB_MAX_ENV; i++)
        snprintf(sb->env[sb->n_env++], sizeof sb->env[0], "%s", ca->env[i]);
    if (files && id_hash(cmd, files, err, errlen) != 0) {
        *key = "command";
        return -1;
    }
    return 0;
}

/* Fills the runner's view of agent a of the session (after its command). */
static void runner_agent(ss_session *s, int a)
{
    const cfg_agent *ca = &s->cfg.agents[a];
    const tc_control *tc = ca->has_time_control ? &ca->time_control : &s->cfg.time_control; /* its own, else the league's */
    s->rn_agents[a] = (rn_agent){ ca->name, &s->cmds[a], ca->server_key[0] ? ca->server_key : NULL,
                                  ca->restart_each_game, ca->host[0] ? ca->host : NULL,
                                  tc->base_ms > 0 ? tc : NULL };
    s->agents[a].command = &s->cmds[a];
    s->agents[a].files = &s->files[a];
}

static int fail(char *err, size_t errlen, int status, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int fail(char *err, size_t errlen, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return status;
}

static void warn(const ss_session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn(const ss_session *s, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (s->warn)
        s->warn(s->warn_user, line);
    else
        fprintf(stderr, "arena league: warning: %s\n", line);
}

/* Opens the store at s->db (its folder made when it is the default). */
static int open_store(ss_session *s, char *err, size_t errlen)
{
    if (strcmp(s->db, STORE_DEFAULT_PATH) == 0) {
        char dir[sizeof s->db];
        snprintf(dir, sizeof dir, "%s", s->db);
        mkdir(dirname(dir), 0755);
    }
    bool bad_db;
    char why[1024];
    s->rec.store = store_open(s->db, &bad_db, why, sizeof why);
    if (!s->rec.store)
        return fail(err, errlen, bad_db ? SS_USAGE : SS_FAILED, "%s", why);
    return SS_OK;
}

int ss_read_secret(const char *path, uint8_t key[SEEDS_KEY_BYTES], char *err, size_t errlen)
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

/* ---- matches ------------------------------------------------------------------------------------------------ */

static bool next_match_game(void *user, rn_game *g)
{
    ss_session *s = user;
    const ss_match_opts *m = &s->match;
    if (s->next_match >= m->games)
        return false;
    long i = s->next_match++;
    *g = (rn_game){ .id = (uint64_t)i + 1, .black = (int)(i % 2), .white = (int)(1 - i % 2), .variant = m->variant,
                    .rows = m->rows, .cols = m->cols, .flags = m->flags,
                    .seed = mix_stream(m->seed, (uint64_t)i) >> 1, /* 63 bits: an SQLite integer */
                    .opening = m->opening_len ? m->opening : NULL, .opening_len = m->opening_len };
    if (!m->opening_len && s->n_match_suite > 0) { /* game pair i / 2, colours reversed */
        const op_opening *o = &s->match_suite[(i / 2) % s->n_match_suite];
        g->opening = o->n ? o->cells : NULL, g->opening_len = o->n;
    }
    return true;
}

/* A match's openings without --opening: the suite a league of its variant, board and seed would play (random), a
 * file's, or none; described in the summary. */
static int match_openings(ss_session *s, char *err, size_t errlen)
{
    const ss_match_opts *m = &s->match;
    const char *kind = m->openings ? m->openings : "random";
    int stones = m->opening_stones, pairs = (int)((m->games + 1) / 2), want = pairs < LG_SUITE_MAX ? pairs : LG_SUITE_MAX;
    char why[1024];
    if (m->opening_len) {
        size_t k = 0;
        for (int i = 0; i < m->opening_len && k + HX_CELL_NAME_MAX + 1 < sizeof s->sum.openings; i++) {
            char name[HX_CELL_NAME_MAX];
            hx_cell_name(m->opening[i], m->cols, name);
            k += (size_t)snprintf(s->sum.openings + k, sizeof s->sum.openings - k, "%s%s", i ? " " : "", name);
        }
    } else if (strcmp(kind, "none") == 0 || (strcmp(kind, "random") == 0 && stones == 0)) {
        snprintf(s->sum.openings, sizeof s->sum.openings, "none");
    } else if (strcmp(kind, "random") == 0) {
        if (stones >= m->rows * m->cols)
            return fail(err, errlen, SS_USAGE, "--opening-stones %d: they do not leave a move on %dx%d", stones, m->rows,
                        m->cols);
        if (!(s->match_suite = calloc((size_t)want, sizeof *s->match_suite)))
            return fail(err, errlen, SS_FAILED, "out of memory");
        s->n_match_suite = op_random_suite(m->seed, m->variant, m->rows, m->cols, stones, want, s->match_suite);
        snprintf(s->sum.openings, sizeof s->sum.openings, "random, %d stone%s", stones, stones == 1 ? "" : "s");
    } else {
        op_book *book = op_book_load(kind, why, sizeof why);
        int n = book ? op_book_suite(book, m->variant, m->rows, m->cols, NULL, 0) : 0;
        if (book && n > 0 && (s->match_suite = calloc((size_t)n, sizeof *s->match_suite)))
            s->n_match_suite = op_book_suite(book, m->variant, m->rows, m->cols, s->match_suite, n);
        op_book_free(book);
        if (!book)
            return fail(err, errlen, SS_USAGE, "--openings %s", why);
        if (n == 0)
            return fail(err, errlen, SS_USAGE, "--openings %s: no opening for %s %dx%d", kind,
                        hx_variant_name(m->variant), m->rows, m->cols);
        if (!s->match_suite)
            return fail(err, errlen, SS_FAILED, "out of memory");
        snprintf(s->sum.openings, sizeof s->sum.openings, "%s", kind);
    }
    return SS_OK;
}

/* Whether a match plays from openings: then a bot that speaks protocol 1 is refused at its hello, unless
 * --openings-compat replay. */
static void match_refusal(ss_session *s)
{
    bool from_openings = s->match.opening_len > 0;
    for (int i = 0; i < s->n_match_suite; i++)
        from_openings |= s->match_suite[i].n > 0;
    if (from_openings && !s->match.openings_replay)
        s->rc.refuse_v1 = "this match plays from openings, which needs protocol 2: update the bot "
                          "(docs/protocol.md#changes), or pass --openings-compat replay (or --openings none)";
}

int ss_open_match(const ss_match_opts *o, ss_session **out, char *err, size_t errlen)
{
    ss_session *s = calloc(1, sizeof *s);
    if (!(*out = s))
        return fail(err, errlen, SS_FAILED, "out of memory");
    s->claim = s->hold = -1;
    s->match = *o;
    s->cfg.n_agents = 2;
    s->cfg.time_control = o->time_control;
    snprintf(s->db, sizeof s->db, "%s", o->db);
    snprintf(s->logs, sizeof s->logs, "%s", o->logs);
    for (int a = 0; a < 2; a++) {
        cfg_agent *ca = &s->cfg.agents[a];
        *ca = o->agents[a];
        const char *key;
        char why[512];
        if (ss_agent_setup(ca, &s->cmds[a], &s->files[a], &key, why, sizeof why) != 0)
            return fail(err, errlen, SS_USAGE, "%s: %s", a == 0 ? "BOT_A" : "BOT_B", why);
        char base[sizeof s->cmds[a].exe];
        snprintf(base, sizeof base, "%s", s->cmds[a].exe);
        s->agents[a].named = o->named[a];
        snprintf(s->agents[a].name, sizeof s->agents[a].name, "%s", o->named[a] ? ca->store_name : basename(base));
        runner_agent(s, a);
        s->rn_agents[a].name = s->agents[a].name; /* the logs follow a rename at hello */
    }
    int rc = match_openings(s, err, errlen);
    if (rc != SS_OK || (rc = open_store(s, err, errlen)) != SS_OK)
        return rc;
    s->rec.agents = s->agents, s->rec.hello_names = true; /* a bot is named by its hello */
    char desc[2 * AG_LINE_MAX + 64];                       /* both command lines, whole */
    snprintf(desc, sizeof desc, "%s %dx%d: %s vs %s", hx_variant_name(o->variant), o->rows, o->cols, s->cmds[0].line,
             s->cmds[1].line);
    uint8_t seed_key[SEEDS_KEY_BYTES]; /* this run's: the players' seeds cannot be told from the seed */
    char why[1024];
    if (seeds_new_key(seed_key) != 0)
        return fail(err, errlen, SS_FAILED, "cannot draw a secret for the players' seeds (libsodium cannot be initialised)");
    if (rec_begin(&s->rec, "match", desc, seed_key, why, sizeof why) != 0)
        return fail(err, errlen, SS_FAILED, "%s: %s", s->db, why);
    s->sum.id = s->rec.run;
    ag_handle_signals(&s->stop, NULL);
    snprintf(s->prefix, sizeof s->prefix, "match-%lld", (long long)s->rec.run);
    s->rc = (rn_config){ .agents = s->rn_agents, .n_agents = 2, .concurrency = o->concurrency, .move_ms = o->move_ms,
                         .listen = o->listen, .server_key = o->listen ? o->server_key : NULL, .margin_ms = o->margin_ms,
                         .handshake_ms = o->handshake_ms, .ping_ms = 1000, .log_dir = s->logs,
                         .log_prefix = s->prefix, .stop = &s->stop, .debug = o->debug, .fair_timing = o->fair_timing,
                         .next_game = next_match_game, .user = s };
    rec_attach(&s->rec, &s->rc);
    sb_deny(s->db); /* no bot sees the database or the logs */
    sb_deny(s->logs);
    s->sum.to_play = (int)o->games;
    match_refusal(s);
    return SS_OK;
}

/* ---- leagues: the schedule ---------------------------------------------------------------------------------- */

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

static pn_sprt sprt_of(const cfg_league *c)
{
    return (pn_sprt){ c->elo0, c->elo1, c->alpha, c->beta };
}

/* Tallies a game into s->live; when the mode decides its pairing, the pairing's remaining games are marked skipped
 * in the store. Returns false when the store fails. */
static bool tally(ss_session *s, hx_variant v, int rows, int cols, const char *black, const char *white, int pair,
                  int winner, char *why, size_t whylen)
{
    bool first_black;
    pg_pairing *q = pairing_of(&s->cfg, s->live, v, rows, cols, black, white, &first_black);
    if (!q || pg_add(q, first_black, (winner == HX_BLACK) == first_black, pair, 0) != 0) {
        snprintf(why, whylen, "out of memory");
        return false;
    }
    pn_sprt t = sprt_of(&s->cfg);
    if (!s->cfg.mode->decide || !s->cfg.mode->decide(&t, q))
        return true;
    store_planned row = { .variant = v, .rows = rows, .cols = cols };
    snprintf(row.black, sizeof row.black, "%s", black);
    snprintf(row.white, sizeof row.white, "%s", white);
    if (store_league_skip(s->rec.store, s->sum.id, &row) < 0) {
        snprintf(why, whylen, "cannot mark the decided pairing's games skipped: %s", store_error(s->rec.store));
        return false;
    }
    return true;
}

static bool on_stored(void *user, const rn_result *res, char *why, size_t whylen)
{
    ss_session *s = user;
    const store_planned *p = res->game->tag; /* NULL for a match's game */
    bool ok = !p || tally(s, p->variant, p->rows, p->cols, p->black, p->white, p->pair, res->winner, why, whylen);
    if (ok && s->cb && s->cb->game)
        s->cb->game(s->cb->user, res);
    return ok;
}

static bool next_league_game(void *user, rn_game *g)
{
    ss_session *s = user;
    while (s->next < s->n_pending) {
        store_planned *p = &s->pending[s->next++];
        int b = agent_index(&s->cfg, p->black), w = agent_index(&s->cfg, p->white);
        if (b < 0 || w < 0)
            continue; /* cannot happen: the schedule was written from this config */
        pg_pairing *q = pg_find(s->live, p->variant, p->rows, p->cols, p->black, p->white);
        if (q && q->decision != PN_CONTINUE)
            continue; /* decided while this run played: its rows are skipped in the store too */
        *g = (rn_game){ .id = (uint64_t)p->id, .black = b, .white = w, .variant = p->variant, .rows = p->rows,
                        .cols = p->cols, .seed = p->seed, .tag = p, .opening = p->opening,
                        .opening_len = p->opening_len,
                        .flags = lg_game_flags(&s->cfg, p->variant, p->rows, p->cols) };
        return true;
    }
    return false;
}

/* Keeps, in order, the rows of shard k of n (1-based): those whose position n in the schedule is k - 1 modulo n.
 * Returns how many. Every shard of a league sees the same schedule, so the shards split it exactly. */
static int shard_rows(store_planned *rows, int count, int k, int n)
{
    if (n <= 0)
        return count;
    int kept = 0;
    for (int i = 0; i < count; i++)
        if (rows[i].n % n == k - 1)
            rows[kept++] = rows[i];
    return kept;
}

/* What each agent plays as one line per agent, "NAME VARIANTS BOARDS" (variants as a hexadecimal bit set, boards
 * "3x3,5x5" or "*" for any), and back. */
static void plays_text(const ss_session *s, char *out, size_t size)
{
    size_t k = 0;
    out[0] = '\0';
    for (int a = 0; a < s->cfg.n_agents && k < size; a++) {
        const cfg_games *g = &s->plays[a];
        k += (size_t)snprintf(out + k, size - k, "%s %x ", s->cfg.agents[a].name, g->variants);
        for (int b = 0; b < g->n_boards && k < size; b++)
            k += (size_t)snprintf(out + k, size - k, "%s%dx%d", b ? "," : "", g->boards[b][0], g->boards[b][1]);
        if (k < size)
            k += (size_t)snprintf(out + k, size - k, "%s\n", g->n_boards ? "" : "*");
    }
}

static void plays_parse(ss_session *s, const char *text)
{
    memset(s->plays, 0, sizeof s->plays);
    for (const char *line = text; line && *line;) {
        char name[CFG_NAME_MAX], boards[1024] = "";
        unsigned variants;
        if (sscanf(line, "%63s %x %1023s", name, &variants, boards) == 3) {
            int a = agent_index(&s->cfg, name);
            if (a >= 0) {
                char why[256];
                s->plays[a].variants = variants;
                if (strcmp(boards, "*") != 0 && !cfg_parse_boards(boards, &s->plays[a], why, sizeof why))
                    s->plays[a].n_boards = 0, s->plays[a].variants = 0;
            }
        }
        line = strchr(line, '\n');
        line = line ? line + 1 : NULL;
    }
}

/* ---- leagues: opening --------------------------------------------------------------------------------------- */

/* An agent's bad key: "FILE:LINE: [agent NAME] KEY: why", unprintable bytes as \xNN. */
static int bad_agent(const cfg_league *c, int line, const char *name, const char *key, const char *why, char *err,
                     size_t errlen)
{
    char text[2048];
    snprintf(text, sizeof text, "%s:%d: [agent %s] %s: %s", c->path, line, name, key, why);
    cfg_printable(text, err, errlen);
    return SS_USAGE;
}

/* Refuses a schedule over LG_MAX_GAMES, counted before it is built (plays: what each agent plays). */
static int check_size(const cfg_league *c, const cfg_games *plays, char *err, size_t errlen)
{
    long long n = c->mode->count(c, plays);
    if (n <= LG_MAX_GAMES)
        return SS_OK;
    int variants = 0;
    for (int v = 0; v < HX_VARIANT_COUNT; v++)
        variants += (c->games.variants >> v) & 1;
    char shown[600];
    cfg_printable(c->path, shown, sizeof shown);
    return fail(err, errlen, SS_USAGE,
                "%s: [league] games: %d agents, %d variants, %d boards and %d games per pairing make %lld games, over "
                "the limit of %d in one league", shown, c->n_agents, variants, c->games.n_boards, c->per_pairing, n,
                LG_MAX_GAMES);
}

/* The keys an agent's config names by file (server_key_file, host_key_file) read into the agent. */
static int read_key_files(cfg_agent *ca, const cfg_league *c, char *err, size_t errlen)
{
    const char *files[2] = { ca->server_key_file, ca->host_key_file };
    char *keys[2] = { ca->server_key, ca->host };
    int lines[2] = { ca->server_key_file_line, ca->host_key_file_line };
    for (int i = 0; i < 2; i++) {
        char why[1024];
        if (files[i][0] && cv_read_public(files[i], keys[i], why, sizeof why) != 0)
            return bad_agent(c, lines[i], ca->name, i == 0 ? "server_key_file" : "host_key_file", why, err, errlen);
    }
    return SS_OK;
}

/* Every path an agent's config says it needs (`needs =`), there: a missing one or an empty directory refuses the
 * league before any agent starts, naming the path and what makes it (`made_by =`). */
static int check_needs(const cfg_agent *ca, const cfg_league *c, char *err, size_t errlen)
{
    for (int i = 0; i < ca->n_needs; i++) {
        const char *path = ca->needs[i];
        struct stat st;
        char why[1024];
        const char *wrong = NULL;
        if (stat(path, &st) != 0)
            wrong = strerror(errno);
        else if (S_ISDIR(st.st_mode)) {
            DIR *d = opendir(path);
            bool empty = true;
            for (struct dirent *e; d && empty && (e = readdir(d));)
                empty = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0;
            if (!d)
                wrong = strerror(errno);
            else if (empty)
                wrong = "an empty directory";
            if (d)
                closedir(d);
        }
        if (!wrong)
            continue;
        if (ca->made_by[0])
            snprintf(why, sizeof why, "%s: %s; it is made by `%s` (run that first)", path, wrong, ca->made_by);
        else
            snprintf(why, sizeof why, "%s: %s", path, wrong);
        return bad_agent(c, ca->needs_line, ca->name, "needs", why, err, errlen);
    }
    return SS_OK;
}

/* The config read (or taken as given), checked and its agents set up: nothing is written yet. */
/* The most the config can schedule, before any agent is asked what it plays: an agent without its own lists
 * counted as playing the league's. Returns whether every agent has its own lists (the count is then exact). */
static bool most_plays(const cfg_league *c, cfg_games most[CFG_MAX_AGENTS])
{
    bool exact = true;
    for (int a = 0; a < c->n_agents; a++) {
        most[a] = c->agents[a].plays;
        if (!c->agents[a].has_variants)
            most[a].variants = c->games.variants;
        if (!c->agents[a].has_boards)
            most[a].n_boards = 0;
        exact &= c->agents[a].has_variants && c->agents[a].has_boards;
    }
    return exact;
}

static int league_config(ss_session *s, const ss_league_opts *o, char *err, size_t errlen)
{
    const char *path = o->config ? o->config : "(config)";
    size_t len;
    s->text = o->text ? strdup(o->text) : cfg_read(path, &len, err, errlen);
    if (!s->text)
        return o->text ? fail(err, errlen, SS_FAILED, "out of memory") : SS_USAGE;
    len = strlen(s->text);
    SHA256Data((const uint8_t *)s->text, len, s->sha);
    cfg_league *c = &s->cfg;
    if (cfg_parse(s->text, len, path, c, err, errlen) != 0)
        return SS_USAGE;
    if (o->shards > 0 && !c->mode->shardable)
        return fail(err, errlen, SS_USAGE, "--shard: %s: mode = %s decides what to play from results no shard sees "
                    "all of; shard a round-robin or gauntlet league", path, c->mode->name);
    if (o->seed) {
        c->seed_date = strcmp(o->seed, "date") == 0;
        char *end;
        errno = 0;
        unsigned long long v = c->seed_date ? 0 : strtoull(o->seed, &end, 10);
        if (!c->seed_date && (!*o->seed || *end || errno || v > INT64_MAX))
            return fail(err, errlen, SS_USAGE, "--seed '%s': expected a whole number or date", o->seed);
        c->seed = v;
    }
    int y, m, d;
    if (c->seed_date && o->night && sscanf(o->night, "%4d-%2d-%2d", &y, &m, &d) == 3) /* the night's: a rerun or a
                                                                                        * back-filled night replays it */
        c->seed = (uint64_t)(y * 10000 + m * 100 + d);
    else if (c->seed_date) { /* the day's date in UTC, YYYYMMDD */
        time_t now = time(NULL);
        struct tm tm;
        gmtime_r(&now, &tm);
        c->seed = (uint64_t)((tm.tm_year + 1900) * 10000 + (tm.tm_mon + 1) * 100 + tm.tm_mday);
    }
    char why[1024];
    if (strcmp(c->openings, "random") != 0 && strcmp(c->openings, "none") != 0 &&
        !(s->book = op_book_load(c->openings, why, sizeof why)))
        return fail(err, errlen, SS_USAGE, "%s: [league] openings: %s", path, why);
    for (int a = 0; a < c->n_agents; a++) {
        const cfg_agent *ca = &c->agents[a];
        const char *key;
        if (read_key_files(&c->agents[a], c, err, errlen) != SS_OK || check_needs(ca, c, err, errlen) != SS_OK)
            return SS_USAGE;
        if (ss_agent_setup(ca, &s->cmds[a], &s->files[a], &key, why, sizeof why) != 0)
            return bad_agent(c, key[0] == 'd' ? ca->dir_line : ca->command_line, ca->name, key, why, err, errlen);
        snprintf(s->agents[a].name, sizeof s->agents[a].name, "%s", ca->store_name);
        runner_agent(s, a);
    }
    if (c->listen[0] && cv_read(c->server_key, &s->server_key, why, sizeof why) != 0)
        return fail(err, errlen, SS_USAGE, "%s: [league] server_key: %s", path, why);
    cfg_games most[CFG_MAX_AGENTS];
    most_plays(c, most);
    int rc = check_size(c, most, err, errlen);
    if (rc == SS_OK && c->mode->count(c, most) == 0)
        rc = fail(err, errlen, SS_USAGE, "%s: no games to play (no two agents share a listed variant and board)", path);
    return rc;
}

/* What agent a plays by the config alone: its lists, the league's where it has none. */
static void config_plays(ss_session *s, int a)
{
    const cfg_agent *ca = &s->cfg.agents[a];
    s->plays[a] = ca->plays;
    if (!ca->has_variants)
        s->plays[a].variants = s->cfg.games.variants;
    if (!ca->has_boards)
        s->plays[a].n_boards = 0;
}

/* What agent a plays: the config's lists, else what its hello announces (asked now), else (it could not be asked)
 * the league's. Returns SS_OK, or the status of a stopped run. */
static int ask_plays(ss_session *s, int a, char *err, size_t errlen)
{
    cfg_agent *ca = &s->cfg.agents[a];
    s->plays[a] = ca->plays;
    if (ca->has_variants && ca->has_boards)
        return SS_OK;
    static pm_msg asked;
    const pm_msg *hello = s->probed[a] ? &s->hello[a] : &asked;
    char why[1024];
    rn_status st = s->probed[a] ? RN_DONE : rn_probe(&s->rc, a, &asked, why, sizeof why);
    if (st == RN_STOPPED)
        return fail(err, errlen, 128 + (int)s->stop, "interrupted");
    if (st == RN_REFUSED)
        return fail(err, errlen, SS_USAGE, "%s", why);
    if (st != RN_DONE) { /* its games are scheduled; it forfeits those it fails again */
        warn(s, "%s (asked what it plays; see its log in %s); scheduling it for the league's variants and boards", why,
             s->logs);
        config_plays(s, a);
        return SS_OK;
    }
    if (!ca->has_variants)
        s->plays[a].variants = hello->variants;
    if (!ca->has_boards) {
        s->plays[a].n_boards = hello->n_boards < CFG_MAX_BOARDS ? hello->n_boards : 0;
        memcpy(s->plays[a].boards, hello->boards, sizeof s->plays[a].boards[0] * (size_t)s->plays[a].n_boards);
    }
    return SS_OK;
}

/* `writable = run`: each such agent plays this run in a copy of its directory, made now (bounded by its disk_mb and
 * files) in a directory of this process's below $TMPDIR or /tmp and removed by ss_close(); copies of processes that
 * are gone are removed first. The agent's command is taken from the copy; its identity stays its program's and
 * files'. */
static int run_copies(ss_session *s, char *err, size_t errlen)
{
    const cfg_league *c = &s->cfg;
    for (int a = 0; a < c->n_agents; a++) {
        const cfg_agent *ca = &c->agents[a];
        if (!ca->writable_run || !ca->dir[0] || ca->host[0] || s->cmds[a].sandbox.off)
            continue;
        const char *tmp = getenv("TMPDIR");
        tmp = tmp && *tmp && strlen(tmp) < 32 ? tmp : "/tmp";
        if (!s->scratch[0]) {
            DIR *d = opendir(tmp);
            for (struct dirent *e; d && (e = readdir(d));) {
                long pid;
                char rest[16], path[300];
                if (sscanf(e->d_name, "arena-run-%ld-%15s", &pid, rest) == 2 && kill((pid_t)pid, 0) != 0 &&
                    errno == ESRCH) {
                    snprintf(path, sizeof path, "%s/%.200s", tmp, e->d_name);
                    dk_remove(path);
                }
            }
            if (d)
                closedir(d);
            snprintf(s->scratch, sizeof s->scratch, "%s/arena-run-%ld-XXXXXX", tmp, (long)getpid());
            if (!mkdtemp(s->scratch) || chmod(s->scratch, 0711) != 0) { /* its sandboxes' users walk through it */
                s->scratch[0] = '\0';
                return fail(err, errlen, SS_FAILED, "cannot make a directory for the agents' copies in %s: %s", tmp,
                            strerror(errno));
            }
        }
        char copy[200], why[512];
        snprintf(copy, sizeof copy, "%s/%d", s->scratch, a);
        ag_command *cmd = &s->cmds[a];
        if (dk_copy(ca->dir, copy, cmd->limits.disk_mb, cmd->limits.files, why, sizeof why) != 0)
            return fail(err, errlen, SS_USAGE, "agent '%s': writable = run: cannot copy its directory %s: %s", ca->name,
                        ca->dir, why);
        sb_limits limits = cmd->limits;
        sb_policy policy = cmd->sandbox;
        char identity[sizeof cmd->sha256];
        memcpy(identity, cmd->sha256, sizeof identity);
        if (ag_command_parse(ca->cmdline, copy, cmd, why, sizeof why) != 0)
            return fail(err, errlen, SS_USAGE, "agent '%s': writable = run: in its copy %s: %s", ca->name, copy, why);
        cmd->limits = limits;
        cmd->sandbox = policy;
        memcpy(cmd->sha256, identity, sizeof identity);
    }
    return SS_OK;
}

/* A league that plays from openings with openings_compat = refuse asks every agent its protocol version before
 * anything is played or written (an agent on a host when its first process says hello): one that speaks
 * protocol 1 is refused (SS_USAGE, the runner's line naming it). An agent that cannot be asked is left to its
 * first game (ask_plays warns about it). */
static int check_protocols(ss_session *s, char *err, size_t errlen)
{
    char prefix[160];
    snprintf(prefix, sizeof prefix, "%s-hello", s->rc.log_prefix);
    for (int a = 0; s->rc.refuse_v1 && a < s->cfg.n_agents; a++) {
        if (s->cfg.agents[a].host[0])
            continue;
        /* the agent alone, over the private ipc socket (nothing listens on tcp:// yet, no host is let in), its
         * process's log LOGS/PREFIX-hello-NAME-1.log */
        rn_config asking = { .agents = &s->rn_agents[a], .n_agents = 1, .handshake_ms = s->rc.handshake_ms,
                             .log_dir = s->rc.log_dir, .log_prefix = prefix, .stop = s->rc.stop,
                             .refuse_v1 = s->rc.refuse_v1 };
        char why[1024];
        rn_status st = rn_probe(&asking, 0, &s->hello[a], why, sizeof why);
        if (st == RN_STOPPED)
            return fail(err, errlen, 128 + (int)s->stop, "interrupted");
        if (st == RN_REFUSED)
            return fail(err, errlen, SS_USAGE, "%s", why);
        s->probed[a] = st == RN_DONE;
    }
    return SS_OK;
}

/* Whether a league's games start from openings (an openings file may hold empty ones; it counts). */
static bool plays_openings(const cfg_league *c)
{
    return strcmp(c->openings, "none") != 0 && !(strcmp(c->openings, "random") == 0 && c->opening_stones == 0);
}

/* The mode's view of the league as the store has it (games played, rows pending); free with state_free. */
static int state_read(ss_session *s, lm_state *st)
{
    memset(st, 0, sizeof *st);
    st->cfg = &s->cfg;
    st->plays = s->plays;
    st->suites = &s->suites;
    st->sprt = sprt_of(&s->cfg);
    if (s->sum.id <= 0)
        return 0;
    store_league_game *games;
    store_planned *pending;
    if (store_league_games(s->rec.store, s->sum.id, &games, &st->n_games) != 0)
        return -1;
    st->games = games;
    if (store_league_pending(s->rec.store, s->sum.id, &pending, &st->n_pending, &st->total) != 0)
        return -1;
    st->pending = pending;
    return 0;
}

/* Takes the league's lock (league_lock.h) once its id is known: from here on readers see it played. */
static int hold_league(ss_session *s, char *err, size_t errlen)
{
    if (s->hold >= 0 || s->sum.id <= 0)
        return 0;
    char why[1024];
    if ((s->hold = store_league_hold(s->db, s->sum.id, why, sizeof why)) < 0) {
        snprintf(err, errlen, "%s", why);
        return -1;
    }
    return 0;
}

static void state_free(lm_state *st)
{
    free((void *)st->games);
    free((void *)st->pending);
}

/* Plans what the mode adds to the league now (a new league: its schedule, which creates it). Returns how many rows
 * were added, or -1 with the reason in err. */
static int plan_more(ss_session *s, char *err, size_t errlen)
{
    lm_state st;
    store_planned *rows = NULL;
    int n = state_read(s, &st) != 0 ? -2 : s->cfg.mode->plan(&st, &rows);
    if (n == -1)
        snprintf(err, errlen, "out of memory");
    else if (n == -2)
        snprintf(err, errlen, "%s: cannot read the league's games: %s", s->db, store_error(s->rec.store));
    else if (n > 0 && s->sum.id <= 0) {
        s->sum.id = store_league_create(s->rec.store, s->cfg.name, s->text, s->sha, s->cfg.seed, rows, n);
        if (s->sum.id < 0)
            n = -1, snprintf(err, errlen, "%s: cannot write the schedule: %s", s->db, store_error(s->rec.store));
        else if (hold_league(s, err, errlen) != 0)
            n = -1;
    } else if (n > 0 && store_league_extend(s->rec.store, s->sum.id, rows, n) != 0) {
        n = -1, snprintf(err, errlen, "%s: cannot add to the schedule: %s", s->db, store_error(s->rec.store));
    }
    free(rows);
    state_free(&st);
    return n < 0 ? -1 : n;
}

/* A new league: what each agent plays, the schedule's size checked, the first rows planned and written. */
static int league_create(ss_session *s, char *err, size_t errlen)
{
    for (int a = 0; a < s->cfg.n_agents; a++) {
        int rc = ask_plays(s, a, err, errlen);
        if (rc != SS_OK)
            return rc;
    }
    int rc = check_size(&s->cfg, s->plays, err, errlen);
    if (rc != SS_OK)
        return rc;
    if (s->cfg.mode->count(&s->cfg, s->plays) == 0)
        return fail(err, errlen, SS_USAGE, "%s: no games to play (no two agents share a listed variant and board)",
                    s->cfg.path);
    int n = plan_more(s, err, errlen);
    if (n < 0)
        return SS_FAILED;
    if (n == 0)
        return fail(err, errlen, SS_USAGE, "%s: no games to play (no two agents share a listed variant and board)",
                    s->cfg.path);
    return SS_OK;
}

/* Whether an agent that plays `now` plays every game of the league's that it played as `was`. */
static bool still_plays(const cfg_league *c, const cfg_games *was, const cfg_games *now)
{
    if (was->variants & c->games.variants & ~now->variants)
        return false;
    if (now->n_boards == 0)
        return true;
    for (int b = 0; b < c->games.n_boards; b++) {
        const uint8_t *board = c->games.boards[b];
        bool scheduled = was->n_boards == 0, offered = false;
        for (int i = 0; i < was->n_boards && !scheduled; i++)
            scheduled = was->boards[i][0] == board[0] && was->boards[i][1] == board[1];
        for (int i = 0; i < now->n_boards && !offered; i++)
            offered = now->boards[i][0] == board[0] && now->boards[i][1] == board[1];
        if (scheduled && !offered)
            return false;
    }
    return true;
}

/* An unfinished league's agents (the coordinator's own; an agent host's says hello with its first game) asked
 * again what they play: SS_OK when each still plays all it was scheduled for, else SS_USAGE with the first that
 * does not named in why. s->plays (the league's) is left as it was. */
static int agents_unchanged(ss_session *s, int64_t id, char *why, size_t whylen, char *err, size_t errlen)
{
    cfg_games was[CFG_MAX_AGENTS];
    memcpy(was, s->plays, sizeof was);
    int rc = SS_OK;
    for (int a = 0; a < s->cfg.n_agents && rc == SS_OK; a++) {
        if (s->cfg.agents[a].host[0])
            continue;
        if ((rc = ask_plays(s, a, err, errlen)) != SS_OK)
            break;
        if (!still_plays(&s->cfg, &was[a], &s->plays[a])) {
            snprintf(why, whylen, "league %lld's agent '%s' no longer plays all it was scheduled for (its hello "
                     "changed since: a policy made or removed, a new version)", (long long)id, s->cfg.agents[a].name);
            rc = SS_USAGE;
        }
    }
    memcpy(s->plays, was, sizeof was);
    return rc;
}

/* The league of this name, config and seed to continue (0: none), or a new one; its plays read back. */
static int league_find(ss_session *s, const ss_league_opts *o, char *err, size_t errlen)
{
    store_db *db = s->rec.store;
    int64_t id = o->fresh ? 0 : store_league_unfinished(db, s->cfg.name, s->sha, s->cfg.seed);
    if (id < 0)
        return fail(err, errlen, SS_FAILED, "%s: %s", s->db, store_error(db));
    if (id == 0 && !o->fresh && !s->cfg.mode->shardable) { /* one that stopped between rounds has no row to play */
        int64_t latest = store_league_latest(db, s->cfg.name, s->sha, s->cfg.seed);
        char plays[CFG_MAX_AGENTS * 320] = "";
        if (latest < 0)
            return fail(err, errlen, SS_FAILED, "%s: %s", s->db, store_error(db));
        if (latest > 0 && store_league_plays(db, latest, plays, sizeof plays) == 0) {
            plays_parse(s, plays);
            s->sum.id = latest;
            int more = plan_more(s, err, errlen);
            if (more < 0)
                return SS_FAILED;
            id = more > 0 ? latest : 0;
        }
        s->sum.id = 0;
    }
    if (o->resume && id == 0)
        return fail(err, errlen, SS_USAGE, "--resume: no unfinished league '%s' with this config in %s (--new starts "
                    "one)", s->cfg.name, s->db);
    s->sum.resumed = id > 0;
    s->sum.id = id;
    if (hold_league(s, err, errlen) != 0)
        return SS_FAILED;
    int rc = id > 0 ? SS_OK : league_create(s, err, errlen);
    if (rc != SS_OK)
        return rc;
    for (int a = 0; id > 0 && a < s->cfg.n_agents; a++) /* for a league of an older arena, which has none */
        config_plays(s, a);
    char plays[CFG_MAX_AGENTS * 320];
    plays_text(s, plays, sizeof plays); /* stored with a new league; a resumed one gives back its own */
    if (store_league_plays(db, s->sum.id, plays, sizeof plays) != 0)
        return fail(err, errlen, SS_FAILED, "%s: cannot record what the agents play: %s", s->db, store_error(db));
    plays_parse(s, plays);
    if (id == 0 || o->shards > 0) /* a shard's agents are the league's, asked by whoever started it */
        return SS_OK;
    char why[512];
    rc = agents_unchanged(s, id, why, sizeof why, err, errlen);
    if (rc == SS_USAGE && (!o->renew || o->resume))
        return fail(err, errlen, SS_USAGE, "%s: its games cannot be played; start a new league with --new (or "
                    "--new-if-changed, which does that only in this case)", why);
    if (rc != SS_USAGE)
        return rc;
    warn(s, "%s: a new league is started instead (--new-if-changed)", why);
    s->sum.resumed = false;
    s->sum.id = 0;
    if ((rc = league_create(s, err, errlen)) != SS_OK)
        return rc;
    plays_text(s, plays, sizeof plays);
    if (store_league_plays(db, s->sum.id, plays, sizeof plays) != 0)
        return fail(err, errlen, SS_FAILED, "%s: cannot record what the agents play: %s", s->db, store_error(db));
    plays_parse(s, plays);
    return SS_OK;
}

/* The games already played count towards their pairings and tests; the league's secret drawn or read back. */
static int league_resume(ss_session *s, const ss_league_opts *o, char *err, size_t errlen)
{
    store_db *db = s->rec.store;
    store_league_game *done;
    int n_done;
    char why[512];
    if (store_league_games(db, s->sum.id, &done, &n_done) != 0)
        return fail(err, errlen, SS_FAILED, "%s: cannot read the league's games: %s", s->db, store_error(db));
    for (int i = 0; i < n_done; i++)
        if (!tally(s, done[i].variant, done[i].rows, done[i].cols, done[i].black, done[i].white, done[i].pair,
                   done[i].winner, why, sizeof why)) {
            free(done);
            return fail(err, errlen, SS_FAILED, "%s: %s", s->db, why);
        }
    free(done);
    /* The league's secret for the players' seeds: drawn with it, read back when it is resumed (a league from an
     * older arena, which has none, gets one now: none of its games was played with it before). */
    uint8_t key[SEEDS_KEY_BYTES];
    if (o->secret) /* the one every shard of the league plays with */
        memcpy(key, o->secret, sizeof key);
    else if (seeds_new_key(key) != 0)
        return fail(err, errlen, SS_FAILED, "cannot draw a secret for the players' seeds (libsodium cannot be initialised)");
    if (store_league_secret(db, s->sum.id, key, sizeof key) != 0)
        return fail(err, errlen, SS_FAILED, "%s: cannot read or store the league's secret: %s", s->db, store_error(db));
    if (o->secret && memcmp(key, o->secret, sizeof key) != 0)
        return fail(err, errlen, SS_USAGE, "--secret %s: league %lld in %s was played with another secret",
                    o->secret_name ? o->secret_name : "", (long long)s->sum.id, s->db);
    char desc[256];
    snprintf(desc, sizeof desc, "league %lld '%s' from %s", (long long)s->sum.id, s->cfg.name, s->cfg.path);
    if (rec_begin(&s->rec, "league", desc, key, why, sizeof why) != 0)
        return fail(err, errlen, SS_FAILED, "%s: %s", s->db, why);
    return SS_OK;
}

/* Reads the rows still to play (this shard's) into s->pending. */
static int read_pending(ss_session *s, int *total, char *err, size_t errlen)
{
    free(s->pending);
    s->pending = NULL;
    s->next = 0;
    if (store_league_pending(s->rec.store, s->sum.id, &s->pending, &s->n_pending, total) != 0)
        return fail(err, errlen, SS_FAILED, "%s: %s", s->db, store_error(s->rec.store));
    s->n_pending = shard_rows(s->pending, s->n_pending, s->shard, s->sum.shards);
    return SS_OK;
}

static void describe_openings(ss_session *s)
{
    const cfg_league *c = &s->cfg;
    if (strcmp(c->openings, "random") == 0)
        snprintf(s->sum.openings, sizeof s->sum.openings, "random, %d stone%s", c->opening_stones,
                 c->opening_stones == 1 ? "" : "s");
    else
        snprintf(s->sum.openings, sizeof s->sum.openings, "%s", c->openings);
}

/* The run's wiring: every agent's hello stores it from here on (also when it is asked what it plays). */
static void league_runner(ss_session *s)
{
    const cfg_league *c = &s->cfg;
    snprintf(s->prefix, sizeof s->prefix, "league-%s", c->name);
    s->rc = (rn_config){ .agents = s->rn_agents, .n_agents = c->n_agents, .concurrency = c->concurrency,
                         .max_processes = c->max_processes, .move_ms = c->move_ms, .margin_ms = 50,
                         .handshake_ms = c->handshake_ms, .listen = c->listen[0] ? c->listen : NULL,
                         .server_key = c->listen[0] ? &s->server_key : NULL, .ping_ms = 1000,
                         .host_wait_ms = c->host_wait_ms, .log_dir = s->logs, .log_prefix = s->prefix, .stop = &s->stop,
                         .fair_timing = c->fair_timing, .next_game = next_league_game, .user = s };
    if (plays_openings(c) && !c->openings_replay)
        s->rc.refuse_v1 = "this league plays from openings, which needs protocol 2: update the bot "
                          "(docs/protocol.md#changes) or set openings_compat = replay";
    s->rec.agents = s->agents; /* named by the config */
    rec_attach(&s->rec, &s->rc);
    s->rec.stored = on_stored;
}

int ss_open_league(const ss_league_opts *o, ss_session **out, char *err, size_t errlen)
{
    ss_session *s = calloc(1, sizeof *s);
    if (s)
        s->claim = s->hold = -1;
    if (!(*out = s) || !(s->live = pg_new()))
        return fail(err, errlen, SS_FAILED, "out of memory");
    s->sum.league = true;
    s->sum.shards = o->shards;
    s->shard = o->shard;
    s->warn = o->warn, s->warn_user = o->user;
    snprintf(s->db, sizeof s->db, "%s", o->db);
    snprintf(s->logs, sizeof s->logs, "%s", o->logs);
    int rc = league_config(s, o, err, errlen);
    if (rc != SS_OK)
        return rc;
    /* Everything that can be checked is checked before the database is even opened: a bad config writes nothing
     * and creates no file (docs/leagues.md). No bot sees the config, the database or the logs. */
    if (o->config)
        sb_deny(o->config);
    sb_deny(s->db);
    sb_deny(s->logs);
    if (o->secret_name)
        sb_deny(o->secret_name);
    struct stat st;
    if (o->resume && stat(s->db, &st) != 0)
        return fail(err, errlen, SS_USAGE, "--resume: no database %s", s->db);
    if ((rc = open_store(s, err, errlen)) != SS_OK)
        return rc;
    if ((s->claim = store_claim(s->db, err, errlen)) < 0) /* released by ss_close, or when this process ends */
        return SS_BUSY;
    if ((rc = run_copies(s, err, errlen)) != SS_OK)
        return rc;
    ag_handle_signals(&s->stop, NULL);
    league_runner(s);
    s->rc.debug = o->debug;
    char note[256];
    int short_suites = lg_suites_make(&s->cfg, s->book, &s->suites, note, sizeof note);
    if (short_suites < 0)
        return fail(err, errlen, SS_FAILED, "out of memory");
    if ((rc = check_protocols(s, err, errlen)) != SS_OK || (rc = league_find(s, o, err, errlen)) != SS_OK)
        return rc;
    if (short_suites > 0 && !s->sum.resumed)
        warn(s, "pairings replay openings: %s%s", note, short_suites > 1 ? " (and other variants or boards)" : "");
    if (o->night && store_league_night(s->rec.store, s->sum.id, o->night) != 0)
        return fail(err, errlen, SS_FAILED, "%s: cannot record the night: %s", s->db, store_error(s->rec.store));
    if ((rc = league_resume(s, o, err, errlen)) != SS_OK || (rc = read_pending(s, &s->sum.scheduled, err, errlen)))
        return rc;
    s->sum.to_play = s->n_pending;
    s->sum.name = s->cfg.name;
    s->sum.mode = s->cfg.mode->name;
    s->sum.seed = s->cfg.seed;
    describe_openings(s);
    return SS_OK;
}

/* ---- a plan, without playing -------------------------------------------------------------------------------- */

/* The plan from the config and, when the database exists, what it holds (read only). */
static int plan_read(ss_session *s, const ss_league_opts *o, ss_plan *p, char *err, size_t errlen)
{
    const cfg_league *c = &s->cfg;
    snprintf(p->name, sizeof p->name, "%s", c->name);
    p->seed = c->seed;
    p->concurrency = c->concurrency > 0 ? c->concurrency : 1;
    cfg_games most[CFG_MAX_AGENTS];
    p->at_most = !most_plays(c, most) || !c->mode->shardable; /* asked at the start; an SPRT or knockout stops early */
    long long count = c->mode->count(c, most);
    if (o->shards > 0) /* the rows n with n % shards == shard - 1 */
        count = count >= o->shard ? (count - o->shard) / o->shards + 1 : 0;
    p->games = (long)count;
    struct stat st;
    if (stat(s->db, &st) != 0)
        return SS_OK; /* a new database: a new league, no history */
    store_db *db = store_open_readonly(s->db, err, errlen);
    if (!db)
        return SS_FAILED;
    int rc = SS_OK;
    int64_t id = o->fresh ? 0 : store_league_unfinished(db, c->name, s->sha, c->seed);
    store_planned *rows = NULL;
    int n = 0, total = 0;
    if (id < 0 || (id > 0 && store_league_pending(db, id, &rows, &n, &total) != 0))
        rc = fail(err, errlen, SS_FAILED, "%s: %s", s->db, store_error(db));
    else if (id > 0) { /* it would be resumed: what it has left */
        p->league = id;
        p->games = shard_rows(rows, n, o->shard, o->shards);
        p->scheduled = total;
        p->at_most = !c->mode->shardable;
    }
    free(rows);
    char plays[CFG_MAX_AGENTS * 320];
    int64_t like = rc == SS_OK && id == 0 ? store_league_plays_like(db, c->name, s->sha, plays, sizeof plays) : 0;
    if (like < 0)
        rc = fail(err, errlen, SS_FAILED, "%s: %s", s->db, store_error(db));
    else if (like > 0) { /* what the agents announced to the newest league of this config: counted as exact */
        plays_parse(s, plays);
        long long exact = c->mode->count(c, s->plays);
        if (o->shards > 0)
            exact = exact >= o->shard ? (exact - o->shard) / o->shards + 1 : 0;
        p->games = (long)exact;
        p->plays_league = like;
        p->at_most = !c->mode->shardable;
    }
    if (rc == SS_OK && store_league_pace(db, c->name, &p->pace_league, &p->pace_games, &p->pace_s) < 0)
        rc = fail(err, errlen, SS_FAILED, "%s: %s", s->db, store_error(db));
    store_close(db);
    return rc;
}

int ss_plan_league(const ss_league_opts *o, ss_plan *p, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    p->pace_s = p->estimate_s = NAN;
    ss_session *s = calloc(1, sizeof *s);
    if (!s)
        return fail(err, errlen, SS_FAILED, "out of memory");
    s->claim = s->hold = -1;
    snprintf(s->db, sizeof s->db, "%s", o->db);
    snprintf(s->logs, sizeof s->logs, "%s", o->logs);
    int rc = league_config(s, o, err, errlen);
    if (rc == SS_OK)
        rc = plan_read(s, o, p, err, errlen);
    if (rc == SS_OK && p->pace_games > 0)
        p->estimate_s = (double)p->games * p->pace_s / (double)p->concurrency;
    ss_close(s);
    return rc;
}

/* ---- running and summaries ---------------------------------------------------------------------------------- */

/* What is left after a league's run (this shard's), what it skipped, and its forfeits. */
static int league_after(ss_session *s, char *err, size_t errlen)
{
    store_planned *left = NULL;
    int left_all = 0, total = 0;
    if (store_league_pending(s->rec.store, s->sum.id, &left, &left_all, &total) != 0)
        return fail(err, errlen, SS_FAILED, "%s: %s", s->db, store_error(s->rec.store));
    s->sum.pending = left && s->sum.shards > 0 ? shard_rows(left, left_all, s->shard, s->sum.shards) : left_all;
    free(left);
    store_league_game *games;
    int n_games;
    if (store_league_games(s->rec.store, s->sum.id, &games, &n_games) != 0)
        return fail(err, errlen, SS_FAILED, "%s: cannot read the league's games: %s", s->db, store_error(s->rec.store));
    free(games);
    s->sum.scheduled = total;
    s->sum.skipped = total - n_games - left_all;
    return SS_OK;
}

/* Plays a league's rows; between rounds of a mode that plans as results come in, plans and plays the next. */
static rn_status league_run(ss_session *s, const ss_callbacks *cb, double *seconds, char *err, size_t errlen)
{
    rn_status st = RN_DONE;
    *seconds = 0;
    for (int round = 0;; round++) {
        int total;
        if (round > 0 && read_pending(s, &total, err, errlen) != SS_OK)
            return RN_FAILED;
        if (s->n_pending == 0) {
            int more = s->cfg.mode->shardable ? 0 : plan_more(s, err, errlen);
            if (more < 0)
                return RN_FAILED;
            if (more == 0)
                return st;
            continue;
        }
        double t;
        st = rec_play(&s->rec, &s->rc, s->n_pending, cb->every, cb->quiet, &t, err, errlen);
        *seconds += t;
        if (st != RN_DONE)
            return st;
    }
}

rn_status ss_run(ss_session *s, const ss_callbacks *cb, char *err, size_t errlen)
{
    static const ss_callbacks none = { 0 };
    if (!cb)
        cb = &none;
    s->cb = cb;
    if (!s->sum.league && cb->game)
        s->rec.stored = on_stored;
    rn_status st;
    if (s->sum.league)
        st = league_run(s, cb, &s->sum.seconds, err, errlen);
    else
        st = rec_play(&s->rec, &s->rc, s->match.games, cb->every, cb->quiet, &s->sum.seconds, err, errlen);
    if (!s->sum.league)
        rec_label(&s->rec); /* two agents of one name: NAME#ID, as the reports show them */
    s->sum.played = s->rec.played;
    memcpy(s->sum.forfeits, s->rec.forfeits, sizeof s->sum.forfeits);
    s->sum.forfeit_total = rec_forfeits(&s->rec);
    s->sum.n_unsandboxed = rec_unsandboxed(&s->rec, s->sum.unsandboxed, CFG_MAX_AGENTS);
    if (s->sum.n_unsandboxed > CFG_MAX_AGENTS)
        s->sum.n_unsandboxed = CFG_MAX_AGENTS;
    s->sum.stop_signal = st == RN_STOPPED ? (int)s->stop : 0;
    char why[1024];
    if (s->sum.league && league_after(s, why, sizeof why) != SS_OK && st != RN_FAILED) {
        snprintf(err, errlen, "%s", why);
        st = RN_FAILED;
    }
    return st;
}

const ss_summary *ss_summary_of(ss_session *s)
{
    s->sum.db = s->db;
    s->sum.n_agents = s->sum.league ? s->cfg.n_agents : 2;
    s->sum.agents = s->agents;
    s->sum.commands = s->cmds;
    return &s->sum;
}

/* The league's results by pairing, read back from the store: distinct games, pairs, decisions. NULL on failure. */
static pg_table *pairings(ss_session *s, char *err, size_t errlen)
{
    store_league_game *games;
    int n;
    pg_table *t = pg_new();
    if (!t || store_league_games(s->rec.store, s->sum.id, &games, &n) != 0) {
        snprintf(err, errlen, "%s: cannot read the league's games: %s", s->db, store_error(s->rec.store));
        pg_free(t);
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        const store_league_game *g = &games[i];
        bool first_black;
        pg_pairing *q = pairing_of(&s->cfg, t, g->variant, g->rows, g->cols, g->black, g->white, &first_black);
        if (!q || pg_add(q, first_black, (g->winner == HX_BLACK) == first_black, g->pair, g->moves ? g->moves : 1) != 0) {
            snprintf(err, errlen, "out of memory");
            free(games);
            pg_free(t);
            return NULL;
        }
    }
    free(games);
    pg_finish(t);
    pn_sprt sprt = sprt_of(&s->cfg);
    for (int i = 0; s->cfg.mode->decide && i < pg_count(t); i++) { /* tests as they stand, decided ones as decided */
        pg_pairing *q = pg_at(t, i), *live = pg_find(s->live, q->variant, q->rows, q->cols, q->a, q->b);
        q->decision = live ? live->decision : PN_CONTINUE;
        q->llr = live && live->decision != PN_CONTINUE ? live->llr : pn_llr(&q->penta, &sprt);
    }
    return t;
}

static void pairing_json(const lm_state *st, const pg_pairing *q, FILE *out)
{
    pn_summary sm;
    pn_summarise(&q->penta, 1.96, &sm);
    fprintf(out, "{\"variant\":\"%s\",\"board\":\"%dx%d\",\"a\":", hx_variant_name(q->variant), q->rows, q->cols);
    json_string(out, q->a);
    fputs(",\"b\":", out);
    json_string(out, q->b);
    fprintf(out, ",\"games\":%ld,\"a_wins\":%ld,\"b_wins\":%ld,\"a_wins_black\":%ld,\"b_wins_black\":%ld,"
            "\"distinct\":%d,\"pairs\":%ld,\"pentanomial\":[%ld,%ld,%ld,%ld,%ld],\"score\":",
            q->games, q->a_wins, q->b_wins, q->a_wins_black, q->b_wins_black, q->distinct, sm.pairs, q->penta.n[0],
            q->penta.n[1], q->penta.n[2], q->penta.n[3], q->penta.n[4]);
    json_number(out, sm.pairs ? sm.score : NAN);
    fputs(",\"elo\":", out);
    json_number(out, sm.pairs ? sm.elo : NAN);
    fputs(",\"elo_lower\":", out);
    json_number(out, sm.elo_lower);
    fputs(",\"elo_upper\":", out);
    json_number(out, sm.elo_upper);
    fputs(",\"los\":", out);
    json_number(out, sm.los);
    fputs(",\"sprt\":", out);
    if (st->cfg->mode->pairing)
        st->cfg->mode->pairing(st, q, out, true);
    else
        fputs("null", out);
    fputc('}', out);
}

static void pairing_text(const lm_state *st, const pg_pairing *q, FILE *out)
{
    pn_summary sm;
    pn_summarise(&q->penta, 1.96, &sm);
    fprintf(out, "  %s %dx%d %s vs %s: %ld-%ld, pairs [%ld %ld %ld %ld %ld]", hx_variant_name(q->variant), q->rows,
            q->cols, q->a, q->b, q->a_wins, q->b_wins, q->penta.n[0], q->penta.n[1], q->penta.n[2], q->penta.n[3],
            q->penta.n[4]);
    if (sm.pairs)
        fprintf(out, ", Elo %+.1f [%+.1f, %+.1f], LOS %.1f%%", sm.elo, sm.elo_lower, sm.elo_upper, 100.0 * sm.los);
    if (st->cfg->mode->pairing)
        st->cfg->mode->pairing(st, q, out, false);
    fputc('\n', out);
}

/* Pairings that repeat games: a warning each (the first five). */
static void warn_repeats(ss_session *s, pg_table *t)
{
    int shown = 0;
    for (int i = 0; i < pg_count(t); i++) {
        const pg_pairing *q = pg_at(t, i);
        if (q->distinct >= q->games)
            continue;
        if (shown++ < 5)
            warn(s, "%s %dx%d %s vs %s repeats games: %d distinct of %ld", hx_variant_name(q->variant), q->rows,
                 q->cols, q->a, q->b, q->distinct, q->games);
    }
    if (shown > 5)
        warn(s, "%d more pairings repeat games (--json lists every pairing)", shown - 5);
}

int ss_write_pairings(ss_session *s, FILE *out, bool json, char *err, size_t errlen)
{
    pg_table *t = pairings(s, err, errlen);
    lm_state st;
    if (!t || state_read(s, &st) != 0) {
        if (t)
            snprintf(err, errlen, "%s: cannot read the league's games: %s", s->db, store_error(s->rec.store));
        pg_free(t);
        return -1;
    }
    long games = 0, distinct = 0;
    int repeating = 0;
    for (int i = 0; i < pg_count(t); i++) {
        const pg_pairing *q = pg_at(t, i);
        games += q->games;
        distinct += q->distinct;
        repeating += q->distinct < q->games;
    }
    if (json) {
        fprintf(out, ",\"distinct\":%ld,\"repeating_pairings\":%d,\"pairings\":[", distinct, repeating);
        for (int i = 0; i < pg_count(t); i++) {
            fputs(i ? "," : "", out);
            pairing_json(&st, pg_at(t, i), out);
        }
        fputc(']', out);
    } else {
        fprintf(out, "distinct games: %ld of %ld in %d pairing%s\n", distinct, games, pg_count(t),
                pg_count(t) == 1 ? "" : "s");
        for (int i = 0; s->cfg.mode->lists_pairings && i < pg_count(t); i++)
            pairing_text(&st, pg_at(t, i), out);
    }
    if (s->cfg.mode->summarise)
        s->cfg.mode->summarise(&st, out, json);
    if (!json)
        warn_repeats(s, t);
    state_free(&st);
    pg_free(t);
    return 0;
}

void ss_close(ss_session *s)
{
    if (!s)
        return;
    if (s->scratch[0])
        dk_remove(s->scratch);
    if (s->rec.store)
        store_close(s->rec.store);
    store_league_release(s->db, s->sum.id, s->hold); /* before the claim: another coordinator may take both then */
    if (s->claim >= 0)
        close(s->claim);
    free(s->text);
    free(s->pending);
    free(s->match_suite);
    op_book_free(s->book);
    lg_suites_free(&s->suites);
    pg_free(s->live);
    free(s);
}
