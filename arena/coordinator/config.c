/* arena/coordinator/config.c — league configs, read without inih: lines of any length are read whole (getline),
 * so no value is ever cut short, and the syntax is small enough to parse here (sections, key = value,
 * comments outside quotes; docs/leagues.md). This file checks sections, keys and values and remembers the
 * line of each, so an error names the file, the line and the key, and any repeated section or key. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "board.h"
#include "curvezmq.h"
#include "mode.h"
#include "variant.h"
#include "utf8.h"

typedef struct {
    cfg_league *c;
    int line;
    char err[1024];
    bool have[8];                  /* which required [league] keys were seen */
    int league_line;               /* line of the [league] header; 0 before it */
    int section_line;              /* line of the latest [section] header */
    bool in_league;                /* the section being read: [league], or agent (NULL: none yet) */
    cfg_agent *agent;
    struct {
        char key[32];
        int line;
    } seen[32];                    /* keys of the section being read, for duplicates */
    int n_seen;
    int challenger_line;
} parse_state;

enum { K_NAME, K_VARIANTS, K_BOARDS, K_GAMES, K_COUNT };

static void trim(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = '\0';
    size_t k = strspn(s, " \t");
    memmove(s, s + k, n - k + 1);
}

/* Calls fn on each comma-separated, trimmed entry. */
static bool each(const char *text, bool (*fn)(const char *item, void *user, char *why, size_t whylen), void *user,
                 char *why, size_t whylen)
{
    char *buf = strdup(text);
    if (!buf) {
        snprintf(why, whylen, "out of memory");
        return false;
    }
    char *save = NULL;
    int n = 0;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        trim(tok);
        if (!*tok)
            continue;
        if (!fn(tok, user, why, whylen)) {
            free(buf);
            return false;
        }
        n++;
    }
    free(buf);
    if (n == 0) {
        snprintf(why, whylen, "empty list");
        return false;
    }
    return true;
}

static bool add_variant(const char *item, void *user, char *why, size_t whylen)
{
    uint32_t *v = user;
    if (strcmp(item, "all") == 0) {
        *v = (1u << HX_VARIANT_COUNT) - 1;
        return true;
    }
    int k = hx_variant_parse(item);
    if (k < 0) {
        snprintf(why, whylen, "unknown variant '%s' (expected 'all' or some of: %s)", item, hx_variant_list());
        return false;
    }
    *v |= 1u << k;
    return true;
}

bool cfg_parse_variants(const char *text, uint32_t *variants, char *why, size_t whylen)
{
    *variants = 0;
    return each(text, add_variant, variants, why, whylen);
}

static bool add_board(const char *item, void *user, char *why, size_t whylen)
{
    cfg_games *g = user;
    int rows, cols;
    const char *w;
    if (!hx_board_parse(item, &rows, &cols, &w)) {
        snprintf(why, whylen, "board '%s': %s", item, w);
        return false;
    }
    for (int i = 0; i < g->n_boards; i++)
        if (g->boards[i][0] == rows && g->boards[i][1] == cols)
            return true;
    if (g->n_boards == CFG_MAX_BOARDS) {
        snprintf(why, whylen, "more than %d boards", CFG_MAX_BOARDS);
        return false;
    }
    g->boards[g->n_boards][0] = (uint8_t)rows;
    g->boards[g->n_boards][1] = (uint8_t)cols;
    g->n_boards++;
    return true;
}

bool cfg_parse_boards(const char *text, cfg_games *g, char *why, size_t whylen)
{
    g->n_boards = 0;
    return each(text, add_board, g, why, whylen);
}

/* `on`/`off` and `true`/`false` values: sets *out, or returns false. */
static bool word_bool(const char *value, const char *yes, const char *no, bool *out)
{
    if (strcmp(value, yes) != 0 && strcmp(value, no) != 0)
        return false;
    *out = strcmp(value, yes) == 0;
    return true;
}

/* Appends a path to one of an agent's lists of CFG_MAX_READ paths (`read =`, `needs =`). */
static bool add_path(char (*list)[512], int *n, const char *item, char *why, size_t whylen)
{
    if (*n == CFG_MAX_READ) {
        snprintf(why, whylen, "more than %d paths", CFG_MAX_READ);
        return false;
    }
    if (strlen(item) >= sizeof list[0]) {
        snprintf(why, whylen, "a path longer than %zu characters", sizeof list[0] - 1);
        return false;
    }
    snprintf(list[(*n)++], sizeof list[0], "%s", item);
    return true;
}

static bool add_read(const char *item, void *user, char *why, size_t whylen)
{
    cfg_agent *a = user;
    return add_path(a->read, &a->n_read, item, why, whylen);
}

static bool add_need(const char *item, void *user, char *why, size_t whylen)
{
    cfg_agent *a = user;
    return add_path(a->needs, &a->n_needs, item, why, whylen);
}

static bool add_env(const char *item, void *user, char *why, size_t whylen)
{
    cfg_agent *a = user;
    size_t name = strcspn(item, "=");
    bool ok = name > 0 && !(item[0] >= '0' && item[0] <= '9');
    for (size_t i = 0; i < name; i++)
        ok &= (item[i] >= 'A' && item[i] <= 'Z') || (item[i] >= 'a' && item[i] <= 'z') ||
              (item[i] >= '0' && item[i] <= '9') || item[i] == '_';
    if (!ok) {
        snprintf(why, whylen, "'%s': expected NAME or NAME=value (a name of letters, digits and '_', not starting with "
                 "a digit)", item);
        return false;
    }
    if (a->n_env == CFG_MAX_ENV) {
        snprintf(why, whylen, "more than %d variables", CFG_MAX_ENV);
        return false;
    }
    if (strlen(item) >= sizeof a->env[0]) {
        snprintf(why, whylen, "'%.*s': longer than %zu characters", (int)name, item, sizeof a->env[0] - 1);
        return false;
    }
    snprintf(a->env[a->n_env++], sizeof a->env[0], "%s", item);
    return true;
}

static bool number(const char *value, long long min, long long max, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(value, &end, 10);
    if (!*value || *end || errno || v < min || v > max)
        return false;
    *out = v;
    return true;
}

/* `time_control`: MOVES/SECONDS+INC (timecontrol.h), or none (base_ms 0). */
static bool time_control(const char *value, tc_control *tc, char *why, size_t whylen)
{
    if (strcmp(value, "none") == 0) {
        memset(tc, 0, sizeof *tc);
        return true;
    }
    if (tc_parse(value, tc, why, whylen))
        return true;
    size_t n = strlen(why);
    snprintf(why + n, whylen - n, " (or none)");
    return false;
}

bool cfg_parse_number(const char *value, long long min, long long max, long long *out)
{
    return number(value, min, max, out);
}

/* "FILE:LINE: ", `what` and the message into p->err; returns 0 (what a key handler returns on an error). */
static int vfail(parse_state *p, const char *what, const char *fmt, va_list ap)
{
    int n = snprintf(p->err, sizeof p->err, "%s:%d: %s", p->c->path, p->line, what);
    if (n < 0 || (size_t)n >= sizeof p->err) /* a long path, section or key filled it: keep the truncated prefix */
        return 0;
    vsnprintf(p->err + n, sizeof p->err - (size_t)n, fmt, ap);
    return 0;
}

static int fail_line(parse_state *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail_line(parse_state *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(p, "", fmt, ap);
    va_end(ap);
    return 0;
}

/* "FILE:LINE: [SECTION] KEY: " and the message. */
static int fail(parse_state *p, const char *section, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail(parse_state *p, const char *section, const char *key, const char *fmt, ...)
{
    char what[512];
    snprintf(what, sizeof what, "[%s] %s: ", section, key);
    va_list ap;
    va_start(ap, fmt);
    vfail(p, what, fmt, ap);
    va_end(ap);
    return 0;
}

/* A value longer than its field holds (size: the field's bytes, with its NUL) is an error naming the limit. */
static bool too_long(parse_state *p, const char *section, const char *key, const char *value, size_t size)
{
    size_t n = strlen(value);
    if (n < size)
        return false;
    fail(p, section, key, "%zu characters, over the limit of %zu", n, size - 1);
    return true;
}

/* The keys of what a league plays: returns 1 (read), 0 (an error, in p->err) or -1 (not one of them). */
static int schedule_key(parse_state *p, const char *key, const char *value)
{
    cfg_league *c = p->c;
    char why[256];
    long long v;
    if (strcmp(key, "name") == 0) {
        bool ok = *value && strlen(value) < sizeof c->name;
        for (const char *q = value; ok && *q; q++)
            ok = *q != '/' && (unsigned char)*q > ' ' && *q != 0x7f;
        if (!ok)
            return fail(p, "league", key, "expected a name of 1 to %zu characters without '/', spaces or control "
                        "characters",
                        sizeof c->name - 1);
        if (utf8_unsafe(value)) /* shown on every page and table of the league */
            return fail(p, "league", key, "the name holds %s", utf8_unsafe(value));
        snprintf(c->name, sizeof c->name, "%s", value);
        p->have[K_NAME] = true;
    } else if (strcmp(key, "mode") == 0) {
        if (!(c->mode = lm_parse(value)))
            return fail(p, "league", key, "'%s': expected %s", value, lm_list());
    } else if (strcmp(key, "challenger") == 0) {
        if (too_long(p, "league", key, value, sizeof c->challenger))
            return 0;
        p->challenger_line = p->line;
        snprintf(c->challenger, sizeof c->challenger, "%s", value);
    } else if (strcmp(key, "variants") == 0) {
        if (!cfg_parse_variants(value, &c->games.variants, why, sizeof why))
            return fail(p, "league", key, "%s", why);
        p->have[K_VARIANTS] = true;
    } else if (strcmp(key, "boards") == 0) {
        if (!cfg_parse_boards(value, &c->games, why, sizeof why))
            return fail(p, "league", key, "%s (expected a list such as 3x3, 5x5)", why);
        p->have[K_BOARDS] = true;
    } else if (strcmp(key, "games") == 0) {
        if (!number(value, 2, CFG_MAX_GAMES, &v) || v % 2)
            return fail(p, "league", key, "'%s': expected an even number of games per pairing, 2 to %d", value,
                        CFG_MAX_GAMES);
        c->per_pairing = (int)v;
        p->have[K_GAMES] = true;
    } else if (strcmp(key, "seed") == 0) {
        c->seed_date = strcmp(value, "date") == 0;
        if (!c->seed_date && !number(value, 0, INT64_MAX, &v))
            return fail(p, "league", key, "'%s': expected a whole number, or date (the day's, YYYYMMDD)", value);
        c->seed = c->seed_date ? 0 : (uint64_t)v;
    } else if (strcmp(key, "openings") == 0) {
        if (!*value || strlen(value) >= sizeof c->openings)
            return fail(p, "league", key, "expected random, none or the path of an openings file (under %zu characters)",
                        sizeof c->openings);
        snprintf(c->openings, sizeof c->openings, "%s", value);
    } else if (strcmp(key, "opening_stones") == 0) {
        if (!number(value, 0, CFG_OPENINGS_MAX_STONES, &v))
            return fail(p, "league", key, "'%s': expected 0 to %d stones", value, CFG_OPENINGS_MAX_STONES);
        c->opening_stones = (int)v;
    } else if (strcmp(key, "openings_compat") == 0) {
        if (strcmp(value, "refuse") != 0 && strcmp(value, "replay") != 0)
            return fail(p, "league", key, "'%s': expected refuse (a protocol-1 agent is refused before the first game) "
                        "or replay (its opening is replayed to it)", value);
        c->openings_replay = strcmp(value, "replay") == 0;
    } else if (strcmp(key, "elo0") == 0 || strcmp(key, "elo1") == 0 || strcmp(key, "alpha") == 0 ||
               strcmp(key, "beta") == 0) {
        char *end;
        errno = 0;
        double d = strtod(value, &end);
        bool rate = key[0] == 'a' || key[0] == 'b';
        if (!*value || *end || errno || !(rate ? d > 0.0 && d < 0.5 : d > -2000.0 && d < 2000.0))
            return fail(p, "league", key, rate ? "'%s': expected a probability between 0 and 0.5, e.g. 0.05"
                                               : "'%s': expected an Elo difference, e.g. 0 or 10", value);
        *(key[0] == 'a' ? &c->alpha : key[0] == 'b' ? &c->beta : key[3] == '0' ? &c->elo0 : &c->elo1) = d;
    } else if (strcmp(key, "swap") == 0) {
        if (strcmp(value, "yes") != 0 && strcmp(value, "no") != 0)
            return fail(p, "league", key, "'%s': expected yes or no", value);
        c->swap = strcmp(value, "yes") == 0;
    } else if (strcmp(key, "fair_timing") == 0) {
        if (strcmp(value, "on") != 0 && strcmp(value, "off") != 0)
            return fail(p, "league", key, "'%s': expected on or off", value);
        c->fair_timing = strcmp(value, "on") == 0;
    } else {
        return -1;
    }
    return 1;
}

/* The keys of how a league runs: returns 1, 0 (an error) or -1 (not one of them). */
static int run_key(parse_state *p, const char *key, const char *value)
{
    cfg_league *c = p->c;
    long long v;
    if (strcmp(key, "move_time_ms") == 0) {
        if (!number(value, 1, 86400000, &v))
            return fail(p, "league", key, "'%s': expected milliseconds, 1 to 86400000", value);
        c->move_ms = (uint32_t)v;
    } else if (strcmp(key, "time_control") == 0) {
        char why[160];
        if (!time_control(value, &c->time_control, why, sizeof why))
            return fail(p, "league", key, "%s", why);
    } else if (strcmp(key, "host_wait_s") == 0) {
        if (!number(value, 0, 86400, &v))
            return fail(p, "league", key, "'%s': expected seconds, 0 to 86400", value);
        c->host_wait_ms = (uint32_t)v * 1000u;
    } else if (strcmp(key, "handshake_ms") == 0) {
        if (!number(value, 1, 600000, &v))
            return fail(p, "league", key, "'%s': expected milliseconds, 1 to 600000", value);
        c->handshake_ms = (uint32_t)v;
    } else if (strcmp(key, "concurrency") == 0) {
        if (!number(value, 1, 64, &v))
            return fail(p, "league", key, "'%s': expected 1 to 64 games at a time", value);
        c->concurrency = (int)v;
    } else if (strcmp(key, "max_processes") == 0) {
        if (!number(value, 4, 512, &v))
            return fail(p, "league", key, "'%s': expected 4 to 512 bot processes alive at once", value);
        c->max_processes = (int)v;
    } else if (strcmp(key, "listen") == 0) {
        if (strncmp(value, "tcp://", 6) != 0 || strlen(value) >= sizeof c->listen)
            return fail(p, "league", key, "'%s': expected tcp://HOST:PORT", value);
        snprintf(c->listen, sizeof c->listen, "%s", value);
    } else if (strcmp(key, "server_key") == 0) {
        if (too_long(p, "league", key, value, sizeof c->server_key))
            return 0;
        if (!*value)
            return fail(p, "league", key, "expected the path of a key file from 'arena keygen'");
        snprintf(c->server_key, sizeof c->server_key, "%s", value);
    } else if (strcmp(key, "sandbox") == 0) {
        if (!word_bool(value, "on", "off", &c->sandbox))
            return fail(p, "league", key, "'%s': expected on or off", value);
    } else {
        return -1;
    }
    return 1;
}

static int league_key(parse_state *p, const char *key, const char *value)
{
    int rc = schedule_key(p, key, value);
    if (rc < 0)
        rc = run_key(p, key, value);
    if (rc >= 0)
        return rc;
    return fail(p, "league", key, "unknown key (expected name, mode, challenger, variants, boards, games, "
                                  "move_time_ms, time_control, handshake_ms, concurrency, max_processes, seed, openings, "
                                  "opening_stones, openings_compat, elo0, elo1, alpha, beta, swap, fair_timing, listen, server_key, host_wait_s, "
                                  "sandbox)");
}

/* The field of an agent's numeric limit `key` (memory_mb, cpu_seconds, open_files, pids, tmp_mb, log_mb, disk_mb,
 * files), NULL for any other key. */
static long *limit_of(cfg_agent *a, const char *key)
{
    static const char *const keys[] = { "memory_mb", "cpu_seconds", "open_files", "pids",
                                        "tmp_mb",    "log_mb",      "disk_mb",    "files" };
    long *fields[] = { &a->memory_mb, &a->cpu_seconds, &a->open_files, &a->pids,
                       &a->tmp_mb,    &a->log_mb,      &a->disk_mb,    &a->files };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (strcmp(key, keys[i]) == 0)
            return fields[i];
    return NULL;
}

static int agent_key(parse_state *p, cfg_agent *a, const char *key, const char *value)
{
    char section[96], why[512];
    snprintf(section, sizeof section, "agent %s", a->name);
    if (strcmp(key, "name") == 0) {
        if (!*value || strlen(value) >= sizeof a->store_name || strpbrk(value, "/# \t"))
            return fail(p, section, key, "expected a name of 1 to %zu characters without '/', '#' or spaces",
                        sizeof a->store_name - 1);
        if (utf8_unsafe(value))
            return fail(p, section, key, "the name holds %s", utf8_unsafe(value));
        snprintf(a->store_name, sizeof a->store_name, "%s", value);
        a->name_line = p->line;
    } else if (strcmp(key, "command") == 0) {
        if (too_long(p, section, key, value, sizeof a->command))
            return 0;
        if (!*value)
            return fail(p, section, key, "expected a command line of 1 to %zu characters", sizeof a->command - 1);
        snprintf(a->command, sizeof a->command, "%s", value);
        a->command_line = p->line;
    } else if (strcmp(key, "args") == 0) {
        if (too_long(p, section, key, value, sizeof a->args))
            return 0;
        snprintf(a->args, sizeof a->args, "%s", value);
    } else if (strcmp(key, "dir") == 0) {
        if (too_long(p, section, key, value, sizeof a->dir))
            return 0;
        snprintf(a->dir, sizeof a->dir, "%s", value);
        a->dir_line = p->line;
    } else if (strcmp(key, "variants") == 0) {
        if (!cfg_parse_variants(value, &a->plays.variants, why, sizeof why))
            return fail(p, section, key, "%s", why);
        a->has_variants = true;
    } else if (strcmp(key, "boards") == 0) {
        if (!cfg_parse_boards(value, &a->plays, why, sizeof why))
            return fail(p, section, key, "%s (expected a list such as 3x3, 5x5)", why);
        a->has_boards = true;
    } else if (strcmp(key, "server_key") == 0) {
        if (!cv_valid_key(value))
            return fail(p, section, key, "'%s': expected a server public key (40 characters of Z85, from the "
                        "key file's .pub)", value);
        snprintf(a->server_key, sizeof a->server_key, "%s", value);
    } else if (strcmp(key, "host") == 0) {
        if (!cv_valid_key(value))
            return fail(p, section, key, "'%s': expected the agent host's public key (40 characters of Z85, from "
                        "the .pub of the host's 'arena keygen' file)", value);
        snprintf(a->host, sizeof a->host, "%s", value);
    } else if (strcmp(key, "server_key_file") == 0 || strcmp(key, "host_key_file") == 0) {
        char *field = key[0] == 's' ? a->server_key_file : a->host_key_file;
        if (too_long(p, section, key, value, sizeof a->server_key_file))
            return 0;
        if (!*value)
            return fail(p, section, key, "expected the path of a .pub file from 'arena keygen'");
        snprintf(field, sizeof a->server_key_file, "%s", value);
        *(key[0] == 's' ? &a->server_key_file_line : &a->host_key_file_line) = p->line;
    } else if (limit_of(a, key)) {
        long long v;
        if (!number(value, 0, 1 << 24, &v))
            return fail(p, section, key, "'%s': expected a whole number, 0 (no limit) to %d", value, 1 << 24);
        if (strcmp(key, "open_files") == 0 && v > 0 && v < 16)
            return fail(p, section, key, "'%s': a bot needs at least 16 open files (0: no limit)", value);
        if (strcmp(key, "pids") == 0 && v > 0 && v < CFG_MIN_PIDS)
            return fail(p, section, key, "'%s': a bot needs at least %d processes and threads (0: no limit)", value,
                        CFG_MIN_PIDS);
        if (strcmp(key, "memory_mb") == 0 && v > 0 && v < CFG_MIN_MEMORY_MB)
            return fail(p, section, key, "'%s': under %d MiB of address space no bot starts (the smallest, "
                        "bin/random, needs 28 MiB for libc and ZeroMQ's threads; 0: no limit)", value, CFG_MIN_MEMORY_MB);
        *limit_of(a, key) = (long)v;
    } else if (strcmp(key, "time_control") == 0) {
        if (!time_control(value, &a->time_control, why, sizeof why))
            return fail(p, section, key, "%s", why);
        a->has_time_control = true;
    } else if (strcmp(key, "sandbox") == 0) {
        if (!word_bool(value, "on", "off", &a->sandbox))
            return fail(p, section, key, "'%s': expected on or off", value);
        a->has_sandbox = true;
    } else if (strcmp(key, "restart") == 0) {
        if (!word_bool(value, "game", "forfeit", &a->restart_each_game))
            return fail(p, section, key, "'%s': expected forfeit (a process plays game after game) or game", value);
    } else if (strcmp(key, "writable") == 0 && strcmp(value, "run") == 0) {
        a->writable = a->writable_run = true;
    } else if (strcmp(key, "network") == 0 || strcmp(key, "writable") == 0) {
        if (!word_bool(value, "true", "false", key[0] == 'n' ? &a->network : &a->writable))
            return fail(p, section, key, "'%s': expected true or false%s", value, key[0] == 'w' ? " (or run)" : "");
        a->writable_run = false;
    } else if (strcmp(key, "read") == 0) {
        a->n_read = 0;
        if (!each(value, add_read, a, why, sizeof why))
            return fail(p, section, key, "%s (expected a list of paths: read = /data/x, /data/y)", why);
    } else if (strcmp(key, "needs") == 0) {
        a->n_needs = 0;
        if (!each(value, add_need, a, why, sizeof why))
            return fail(p, section, key, "%s (expected a list of paths: needs = results/policies)", why);
        a->needs_line = p->line;
    } else if (strcmp(key, "made_by") == 0) {
        if (too_long(p, section, key, value, sizeof a->made_by))
            return 0;
        snprintf(a->made_by, sizeof a->made_by, "%s", value);
    } else if (strcmp(key, "env") == 0) {
        a->n_env = 0;
        if (!each(value, add_env, a, why, sizeof why))
            return fail(p, section, key, "%s", why);
    } else {
        return fail(p, section, key,
                    "unknown key (expected name, command, args, dir, variants, boards, memory_mb, cpu_seconds, "
                    "open_files, pids, tmp_mb, log_mb, disk_mb, files, time_control, server_key, server_key_file, host, host_key_file, sandbox, "
                    "restart, network, writable, read, env)");
    }
    return 1;
}

/* A section header's name (trimmed): [league] once, [agent NAME] once per name. */
static int section(parse_state *p, char *name)
{
    cfg_league *c = p->c;
    p->section_line = p->line;
    p->n_seen = 0;
    p->in_league = false;
    p->agent = NULL;
    if (strcmp(name, "league") == 0) {
        if (p->league_line)
            return fail_line(p, "[league]: a second [league] section (the first is at line %d)", p->league_line);
        p->league_line = p->line;
        p->in_league = true;
        return 1;
    }
    if (strncmp(name, "agent", 5) != 0 || (name[5] != ' ' && name[5] != '\t'))
        return fail_line(p, "[%s]: unknown section (expected [league] or [agent NAME])", name);
    name += 6;
    trim(name);
    bool ok = *name && strlen(name) < CFG_NAME_MAX;
    for (const char *q = name; ok && *q; q++)
        ok = *q != '/' && (unsigned char)*q > ' ' && *q != 0x7f;
    if (!ok)
        return fail_line(p, "[agent %s]: an agent's name has 1 to %d characters without '/', spaces or control "
                         "characters", name, CFG_NAME_MAX - 1);
    if (utf8_unsafe(name)) /* shown on every page and table of the league */
        return fail_line(p, "[agent ...]: an agent's name holds %s", utf8_unsafe(name));
    for (int i = 0; i < c->n_agents; i++)
        if (strcmp(c->agents[i].name, name) == 0)
            return fail_line(p, "[agent %s]: a second section of this agent (the first is at line %d)", name,
                             c->agents[i].line);
    if (c->n_agents == CFG_MAX_AGENTS)
        return fail_line(p, "[agent %s]: more than %d agents", name, CFG_MAX_AGENTS);
    cfg_agent *a = &c->agents[c->n_agents++];
    memset(a, 0, sizeof *a);
    a->memory_mb = a->cpu_seconds = a->open_files = a->pids = a->tmp_mb = a->log_mb = a->disk_mb = a->files = -1;
    memcpy(a->name, name, strlen(name) + 1); /* checked above: shorter than CFG_NAME_MAX */
    a->line = p->line;
    p->agent = a;
    return 1;
}

static int key_value(parse_state *p, const char *key, const char *value)
{
    if (!p->in_league && !p->agent)
        return fail_line(p, "%s: a key before any section (expected [league] or [agent NAME] first)", key);
    char section[96];
    snprintf(section, sizeof section, p->in_league ? "league" : "agent %s", p->agent ? p->agent->name : "");
    for (int i = 0; i < p->n_seen; i++)
        if (strcmp(p->seen[i].key, key) == 0)
            return fail(p, section, key, "repeated (the first is at line %d)", p->seen[i].line);
    if (strlen(key) < sizeof p->seen[0].key && p->n_seen < (int)(sizeof p->seen / sizeof p->seen[0])) {
        /* longer keys, or more than there are, are unknown keys: refused below */
        snprintf(p->seen[p->n_seen].key, sizeof p->seen[0].key, "%s", key);
        p->seen[p->n_seen++].line = p->line;
    }
    return p->in_league ? league_key(p, key, value) : agent_key(p, p->agent, key, value);
}

void cfg_cut_comment(char *v)
{
    char quote = 0;
    for (char *q = v; *q; q++) {
        if (quote) {
            if (*q == quote)
                quote = 0;
            else if (*q == '\\' && quote == '"' && q[1])
                q++;
        } else if (*q == '\\' && q[1]) {
            q++;
        } else if (*q == '\'' || *q == '"') {
            quote = *q;
        } else if ((*q == ';' || *q == '#') && (q == v || q[-1] == ' ' || q[-1] == '\t')) {
            *q = '\0';
            return;
        }
    }
}

/* One line (n bytes, with its newline). Returns 1, or 0 with p->err set. */
static int parse_line(parse_state *p, char *s, size_t n)
{
    if (memchr(s, '\0', n))
        return fail_line(p, "a NUL byte (expected a text file)");
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
        s[--n] = '\0';
    if (p->line == 1 && strncmp(s, "\xEF\xBB\xBF", 3) == 0) /* a UTF-8 byte order mark */
        s += 3;
    s += strspn(s, " \t");
    if (!*s || *s == ';' || *s == '#')
        return 1;
    if (*s == '[') {
        char *end = strchr(s, ']');
        char *rest = end ? end + 1 + strspn(end + 1, " \t") : NULL;
        if (!end || (*rest && *rest != ';' && *rest != '#'))
            return fail_line(p, "not a section header (expected [league] or [agent NAME]): '%s'", s);
        *end = '\0';
        trim(++s);
        return section(p, s);
    }
    char *eq = strchr(s, '=');
    if (!eq)
        return fail_line(p, "not INI syntax (expected [section] or key = value): '%s'", s);
    *eq = '\0';
    char *value = eq + 1;
    trim(s);
    value += strspn(value, " \t");
    cfg_cut_comment(value);
    trim(value);
    if (!*s)
        return fail_line(p, "'= %s': a value without a key", value);
    return key_value(p, s, value);
}

void cfg_printable(const char *in, char *out, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    size_t k = 0;
    for (; *in && n > 0 && k < n - 1; in++) {
        unsigned char ch = (unsigned char)*in;
        if (ch >= ' ' && ch < 0x7f) {
            out[k++] = (char)ch;
        } else if (k + 4 < n) {
            out[k++] = '\\';
            out[k++] = 'x';
            out[k++] = hex[ch >> 4];
            out[k++] = hex[ch & 15];
        } else {
            break;
        }
    }
    if (n > 0)
        out[k] = '\0';
}

/* The first problem as one printable line in err. */
static int refuse(const char *text, char *err, size_t errlen)
{
    cfg_printable(text, err, errlen);
    return -1;
}

static void defaults(cfg_league *c, const char *path)
{
    memset(c, 0, sizeof *c);
    snprintf(c->path, sizeof c->path, "%s", path);
    c->mode = lm_default();
    c->move_ms = 1000;
    c->handshake_ms = 10000;
    c->concurrency = 1;
    c->seed = 1;
    c->sandbox = true;
    snprintf(c->openings, sizeof c->openings, "random");
    c->opening_stones = 2;
    c->elo0 = 0.0;
    c->elo1 = 10.0;
    c->alpha = c->beta = 0.05;
}

/* What one agent's section must hold once the whole file is read; fills its defaults and command line. */
static int check_agent(const parse_state *p, int i, char *err, size_t errlen)
{
    const cfg_league *c = p->c;
    cfg_agent *a = &p->c->agents[i];
    const char *path = c->path;
    char msg[1024];
    if ((a->host[0] && a->host_key_file[0]) || (a->server_key[0] && a->server_key_file[0])) {
        snprintf(msg, sizeof msg, "%s:%d: [agent %s] %s: give the key or its file, not both", path,
                 a->host_key_file[0] && a->host[0] ? a->host_key_file_line : a->server_key_file_line, a->name,
                 a->host_key_file[0] && a->host[0] ? "host_key_file" : "server_key_file");
        return refuse(msg, err, errlen);
    }
    bool on_host = a->host[0] || a->host_key_file[0];
    if (!a->command[0] && !on_host) {
        snprintf(msg, sizeof msg, "%s:%d: [agent %s] command: missing", path, a->line, a->name);
        return refuse(msg, err, errlen);
    }
    if (on_host && !c->listen[0]) {
        snprintf(msg, sizeof msg, "%s:%d: [agent %s] host: an agent on another host needs listen = tcp://... in "
                 "[league] (the host connects to it)", path, a->line, a->name);
        return refuse(msg, err, errlen);
    }
    if (on_host && !(a->has_variants && a->has_boards)) {
        snprintf(msg, sizeof msg, "%s:%d: [agent %s] host: an agent on another host needs its variants and "
                 "boards in the config (it is not asked before the league starts)", path, a->line, a->name);
        return refuse(msg, err, errlen);
    }
    if (!a->has_sandbox)
        a->sandbox = c->sandbox;
    if (!a->name_line)
        memcpy(a->store_name, a->name, sizeof a->store_name);
    for (int j = 0; j < i; j++) /* one name, one agent: two setups under one name would merge in reports */
        if (strcmp(c->agents[j].store_name, a->store_name) == 0) {
            const cfg_agent *b = &c->agents[j];
            snprintf(err, errlen, "%s:%d: [agent %s] name: '%s' is already the name of [agent %s] (line %d)", path,
                     a->name_line ? a->name_line : a->line, a->name, a->store_name, b->name,
                     b->name_line ? b->name_line : b->line);
            return -1;
        }
    if ((a->server_key[0] || a->server_key_file[0]) && !c->listen[0]) {
        snprintf(msg, sizeof msg, "%s:%d: [agent %s] server_key: only with listen = tcp://... in [league]", path,
                 a->line, a->name);
        return refuse(msg, err, errlen);
    }
    size_t k = strlen(a->command), m = strlen(a->args); /* each shorter than its field: cmdline holds both */
    memcpy(a->cmdline, a->command, k);
    a->cmdline[k] = ' ';
    memcpy(a->cmdline + k + (m > 0), a->args, m + 1);
    return 0;
}

/* What the [league] section must hold once the whole file is read. */
static int check_league(const parse_state *p, char *err, size_t errlen)
{
    const cfg_league *c = p->c;
    const char *path = c->path;
    char msg[1024];
    static const char *const names[K_COUNT] = { "name", "variants", "boards", "games" };
    for (int k = 0; k < K_COUNT; k++)
        if (!p->have[k]) {
            snprintf(msg, sizeof msg, "%s: [league] %s: missing (required: name, variants, boards, games)", path, names[k]);
            return refuse(msg, err, errlen);
        }
    if (c->n_agents < 2) {
        snprintf(msg, sizeof msg, "%s: a league needs at least two [agent NAME] sections, found %d", path, c->n_agents);
        return refuse(msg, err, errlen);
    }
    if (!c->listen[0] != !c->server_key[0]) {
        snprintf(msg, sizeof msg, "%s:%d: [league] %s", path, p->league_line,
                 c->listen[0] ? "server_key: missing for listen = tcp://... (make a key file with 'arena keygen FILE')"
                              : "listen: missing for server_key (the key is for listening on tcp://)");
        return refuse(msg, err, errlen);
    }
    return 0;
}

/* What the mode needs, and openings that leave a move on every board. */
static int check_mode(const parse_state *p, char *err, size_t errlen)
{
    const cfg_league *c = p->c;
    char msg[1024];
    if (c->mode->check && c->mode->check(c, p->league_line, err, errlen) != 0)
        return -1;
    for (int b = 0; b < c->games.n_boards; b++) {
        int cells = c->games.boards[b][0] * c->games.boards[b][1];
        if (strcmp(c->openings, "random") == 0 && c->opening_stones >= cells) {
            snprintf(err, errlen, "%s:%d: [league] opening_stones: %d stones do not leave a move on %dx%d", c->path,
                     p->league_line, c->opening_stones, c->games.boards[b][0], c->games.boards[b][1]);
            return -1;
        }
    }
    if (!c->mode->challenger)
        return 0;
    for (int i = 0; i < c->n_agents; i++)
        if (strcmp(c->agents[i].name, c->challenger) == 0)
            return 0;
    char what[160];
    if (c->challenger[0])
        snprintf(what, sizeof what, "'%s': no such agent", c->challenger);
    else
        snprintf(what, sizeof what, "missing for mode = %s", c->mode->name);
    snprintf(msg, sizeof msg, "%s:%d: [league] challenger: %s (expected the name of an [agent NAME] section)", c->path,
             p->challenger_line ? p->challenger_line : p->league_line, what);
    return refuse(msg, err, errlen);
}

int cfg_parse(const char *text, size_t len, const char *path, cfg_league *c, char *err, size_t errlen)
{
    defaults(c, path);
    static parse_state p;
    memset(&p, 0, sizeof p);
    p.c = c;
    if (len > CFG_MAX_FILE) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s: %zu bytes, over the limit of %d for a config file", path, len, CFG_MAX_FILE);
        return refuse(msg, err, errlen);
    }
    char *line = malloc(len + 1);
    if (!line) {
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    bool ok = true;
    for (size_t at = 0; ok && at < len;) {
        const char *nl = memchr(text + at, '\n', len - at);
        size_t n = nl ? (size_t)(nl - (text + at)) + 1 : len - at;
        memcpy(line, text + at, n);
        line[n] = '\0';
        p.line++;
        ok = parse_line(&p, line, n);
        at += n;
    }
    free(line);
    if (!ok)
        return refuse(p.err, err, errlen);
    if (check_league(&p, err, errlen) != 0)
        return -1;
    for (int i = 0; i < c->n_agents; i++)
        if (check_agent(&p, i, err, errlen) != 0)
            return -1;
    return check_mode(&p, err, errlen);
}

char *cfg_read(const char *path, size_t *len, char *err, size_t errlen)
{
    char msg[1024];
    FILE *f = fopen(path, "r");
    struct stat st;
    if (!f || fstat(fileno(f), &st) != 0) {
        snprintf(msg, sizeof msg, "%s: cannot open: %s", path, strerror(errno));
        if (f)
            fclose(f);
        refuse(msg, err, errlen);
        return NULL;
    }
    if (S_ISDIR(st.st_mode) || st.st_size > CFG_MAX_FILE) {
        snprintf(msg, sizeof msg, S_ISDIR(st.st_mode) ? "%s: a directory, not a config file"
                                                      : "%s: %lld bytes, over the limit of %d for a config file",
                 path, (long long)st.st_size, CFG_MAX_FILE);
        fclose(f);
        refuse(msg, err, errlen);
        return NULL;
    }
    char *text = malloc(CFG_MAX_FILE + 2);
    size_t n = text ? fread(text, 1, CFG_MAX_FILE + 1, f) : 0; /* more than CFG_MAX_FILE: it grew while read */
    bool read_error = ferror(f);
    fclose(f);
    if (!text || read_error) {
        snprintf(msg, sizeof msg, "%s: cannot read: %s", path, text ? strerror(errno) : "out of memory");
        free(text);
        refuse(msg, err, errlen);
        return NULL;
    }
    text[n] = '\0';
    *len = n;
    return text;
}

int cfg_load(const char *path, cfg_league *c, char *err, size_t errlen)
{
    size_t n;
    char *text = cfg_read(path, &n, err, errlen);
    if (!text)
        return -1;
    int rc = cfg_parse(text, n, path, c, err, errlen);
    free(text);
    return rc;
}
