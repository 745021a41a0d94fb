/* arena/coordinator/config.c — league configs: inih does the INI syntax; this file checks sections, keys and values
 * and remembers the line of each, so an error names the file, the line and the key. */
#include "config.h"

#include <errno.h>
#include <ini.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "curvezmq.h"
#include "variant.h"

typedef struct {
    cfg_league *c;
    FILE *f;
    int line;
    char err[512];
    bool have[8];                  /* which required [league] keys were seen */
    int league_line;
    int section_line;              /* line of the latest [section] header */
} parse_state;

enum { K_NAME, K_VARIANTS, K_BOARDS, K_GAMES, K_COUNT };

static char *reader(char *str, int num, void *stream)
{
    parse_state *p = stream;
    char *s = fgets(str, num, p->f);
    if (s) {
        p->line++;
        if (s[strspn(s, " \t")] == '[')
            p->section_line = p->line;
    }
    return s;
}

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
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", text);
    char *save = NULL;
    int n = 0;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        trim(tok);
        if (!*tok)
            continue;
        if (!fn(tok, user, why, whylen))
            return false;
        n++;
    }
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

static bool add_read(const char *item, void *user, char *why, size_t whylen)
{
    cfg_agent *a = user;
    if (a->n_read == CFG_MAX_READ) {
        snprintf(why, whylen, "more than %d paths", CFG_MAX_READ);
        return false;
    }
    if (strlen(item) >= sizeof a->read[0]) {
        snprintf(why, whylen, "a path longer than %zu characters", sizeof a->read[0] - 1);
        return false;
    }
    snprintf(a->read[a->n_read++], sizeof a->read[0], "%s", item);
    return true;
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

static int fail(parse_state *p, const char *section, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail(parse_state *p, const char *section, const char *key, const char *fmt, ...)
{
    int n = snprintf(p->err, sizeof p->err, "%s:%d: [%s] %s: ", p->c->path, p->line, section, key);
    if (n < 0 || (size_t)n >= sizeof p->err) /* a long path, section or key filled it: keep the truncated prefix */
        return 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->err + n, sizeof p->err - (size_t)n, fmt, ap);
    va_end(ap);
    return 0;
}

static int league_key(parse_state *p, const char *key, const char *value)
{
    cfg_league *c = p->c;
    char why[256];
    long long v;
    if (strcmp(key, "name") == 0) {
        if (!*value || strlen(value) >= sizeof c->name || strpbrk(value, "/ \t"))
            return fail(p, "league", key, "expected a name of 1 to %zu characters without '/' or spaces",
                        sizeof c->name - 1);
        snprintf(c->name, sizeof c->name, "%s", value);
        p->have[K_NAME] = true;
    } else if (strcmp(key, "mode") == 0) {
        if (strcmp(value, "round-robin") == 0)
            c->mode = CFG_ROUND_ROBIN;
        else if (strcmp(value, "gauntlet") == 0)
            c->mode = CFG_GAUNTLET;
        else if (strcmp(value, "sprt") == 0)
            c->mode = CFG_SPRT;
        else
            return fail(p, "league", key, "'%s': expected round-robin, gauntlet or sprt", value);
    } else if (strcmp(key, "challenger") == 0) {
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
        if (!number(value, 2, 1000000, &v) || v % 2)
            return fail(p, "league", key, "'%s': expected an even number of games per pairing, 2 or more", value);
        c->per_pairing = (int)v;
        p->have[K_GAMES] = true;
    } else if (strcmp(key, "move_time_ms") == 0) {
        if (!number(value, 1, 86400000, &v))
            return fail(p, "league", key, "'%s': expected milliseconds, 1 to 86400000", value);
        c->move_ms = (uint32_t)v;
    } else if (strcmp(key, "handshake_ms") == 0) {
        if (!number(value, 1, 600000, &v))
            return fail(p, "league", key, "'%s': expected milliseconds, 1 to 600000", value);
        c->handshake_ms = (uint32_t)v;
    } else if (strcmp(key, "concurrency") == 0) {
        if (!number(value, 1, 64, &v))
            return fail(p, "league", key, "'%s': expected 1 to 64 games at a time", value);
        c->concurrency = (int)v;
    } else if (strcmp(key, "swap") == 0) {
        if (strcmp(value, "yes") != 0 && strcmp(value, "no") != 0)
            return fail(p, "league", key, "'%s': expected yes or no", value);
        c->swap = strcmp(value, "yes") == 0;
    } else if (strcmp(key, "listen") == 0) {
        if (strncmp(value, "tcp://", 6) != 0 || strlen(value) >= sizeof c->listen)
            return fail(p, "league", key, "'%s': expected tcp://HOST:PORT", value);
        snprintf(c->listen, sizeof c->listen, "%s", value);
    } else if (strcmp(key, "server_key") == 0) {
        if (!*value || strlen(value) >= sizeof c->server_key)
            return fail(p, "league", key, "expected the path of a key file from 'arena keygen'");
        snprintf(c->server_key, sizeof c->server_key, "%s", value);
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
    } else if (strcmp(key, "sandbox") == 0) {
        if (!word_bool(value, "on", "off", &c->sandbox))
            return fail(p, "league", key, "'%s': expected on or off", value);
    } else {
        return fail(p, "league", key, "unknown key (expected name, mode, challenger, variants, boards, games, "
                                      "move_time_ms, handshake_ms, concurrency, seed, openings, opening_stones, "
                                      "elo0, elo1, alpha, beta, swap, listen, server_key, sandbox)");
    }
    return 1;
}

static int agent_key(parse_state *p, cfg_agent *a, const char *key, const char *value)
{
    char section[96], why[256];
    snprintf(section, sizeof section, "agent %s", a->name);
    if (strcmp(key, "command") == 0) {
        if (!*value || strlen(value) >= sizeof a->command)
            return fail(p, section, key, "expected a command line of 1 to %zu characters", sizeof a->command - 1);
        snprintf(a->command, sizeof a->command, "%s", value);
    } else if (strcmp(key, "args") == 0) {
        if (strlen(value) >= sizeof a->args)
            return fail(p, section, key, "longer than %zu characters", sizeof a->args - 1);
        snprintf(a->args, sizeof a->args, "%s", value);
    } else if (strcmp(key, "dir") == 0) {
        snprintf(a->dir, sizeof a->dir, "%s", value);
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
    } else if (strcmp(key, "memory_mb") == 0 || strcmp(key, "cpu_seconds") == 0 || strcmp(key, "open_files") == 0) {
        long long v;
        if (!number(value, 0, 1 << 24, &v))
            return fail(p, section, key, "'%s': expected a whole number, 0 (no limit) to %d", value, 1 << 24);
        if (key[0] == 'o' && v > 0 && v < 16)
            return fail(p, section, key, "'%s': a bot needs at least 16 open files (0: no limit)", value);
        *(key[0] == 'm' ? &a->memory_mb : key[0] == 'c' ? &a->cpu_seconds : &a->open_files) = (long)v;
    } else if (strcmp(key, "sandbox") == 0) {
        if (!word_bool(value, "on", "off", &a->sandbox))
            return fail(p, section, key, "'%s': expected on or off", value);
        a->has_sandbox = true;
    } else if (strcmp(key, "network") == 0 || strcmp(key, "writable") == 0) {
        if (!word_bool(value, "true", "false", key[0] == 'n' ? &a->network : &a->writable))
            return fail(p, section, key, "'%s': expected true or false", value);
    } else if (strcmp(key, "read") == 0) {
        a->n_read = 0;
        if (!each(value, add_read, a, why, sizeof why))
            return fail(p, section, key, "%s (expected a list of paths: read = /data/x, /data/y)", why);
    } else if (strcmp(key, "env") == 0) {
        a->n_env = 0;
        if (!each(value, add_env, a, why, sizeof why))
            return fail(p, section, key, "%s", why);
    } else {
        return fail(p, section, key,
                    "unknown key (expected command, args, dir, variants, boards, memory_mb, cpu_seconds, open_files, "
                    "server_key, sandbox, network, writable, read, env)");
    }
    return 1;
}

static int handler(void *user, const char *section, const char *key, const char *value)
{
    parse_state *p = user;
    cfg_league *c = p->c;
    if (strcmp(section, "league") == 0) {
        if (!p->league_line)
            p->league_line = p->section_line;
        return league_key(p, key, value);
    }
    if (strncmp(section, "agent ", 6) == 0) {
        char name[CFG_NAME_MAX + 8];
        snprintf(name, sizeof name, "%s", section + 6);
        trim(name);
        if (!*name || strlen(name) >= CFG_NAME_MAX || strpbrk(name, "/ \t"))
            return fail(p, section, key, "an agent's name has 1 to %d characters without '/' or spaces",
                        CFG_NAME_MAX - 1);
        cfg_agent *a = NULL;
        for (int i = 0; i < c->n_agents; i++)
            if (strcmp(c->agents[i].name, name) == 0)
                a = &c->agents[i];
        if (!a) {
            if (c->n_agents == CFG_MAX_AGENTS)
                return fail(p, section, key, "more than %d agents", CFG_MAX_AGENTS);
            a = &c->agents[c->n_agents++];
            memset(a, 0, sizeof *a);
            a->memory_mb = a->cpu_seconds = a->open_files = -1;
            memcpy(a->name, name, strlen(name) + 1); /* checked above: shorter than CFG_NAME_MAX */
            a->line = p->section_line;
        }
        return agent_key(p, a, key, value);
    }
    return fail(p, section, key, "unknown section (expected [league] or [agent NAME])");
}

int cfg_load(const char *path, cfg_league *c, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    snprintf(c->path, sizeof c->path, "%s", path);
    c->mode = CFG_ROUND_ROBIN;
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
    static parse_state p;
    memset(&p, 0, sizeof p);
    p.c = c;
    p.f = fopen(path, "r");
    if (!p.f) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    int rc = ini_parse_stream(reader, &p, handler, &p);
    fclose(p.f);
    if (rc != 0) {
        if (p.err[0])
            snprintf(err, errlen, "%s", p.err);
        else
            snprintf(err, errlen, "%s:%d: not INI syntax (expected [section] or key = value)", path, rc);
        return -1;
    }
    static const char *const names[K_COUNT] = { "name", "variants", "boards", "games" };
    for (int k = 0; k < K_COUNT; k++)
        if (!p.have[k]) {
            snprintf(err, errlen, "%s: [league] %s: missing (required: name, variants, boards, games)", path, names[k]);
            return -1;
        }
    if (c->n_agents < 2) {
        snprintf(err, errlen, "%s: a league needs at least two [agent NAME] sections, found %d", path, c->n_agents);
        return -1;
    }
    if (!c->listen[0] != !c->server_key[0]) {
        snprintf(err, errlen, "%s:%d: [league] %s", path, p.league_line,
                 c->listen[0] ? "server_key: missing for listen = tcp://... (make a key file with 'arena keygen FILE')"
                              : "listen: missing for server_key (the key is for listening on tcp://)");
        return -1;
    }
    for (int i = 0; i < c->n_agents; i++) {
        cfg_agent *a = &c->agents[i];
        if (!a->command[0]) {
            snprintf(err, errlen, "%s:%d: [agent %s] command: missing", path, a->line, a->name);
            return -1;
        }
        if (!a->has_sandbox)
            a->sandbox = c->sandbox;
        if (a->server_key[0] && !c->listen[0]) {
            snprintf(err, errlen, "%s:%d: [agent %s] server_key: only with listen = tcp://... in [league]", path,
                     a->line, a->name);
            return -1;
        }
        size_t n = strlen(a->command), m = strlen(a->args); /* both shorter than 512: cmdline holds them */
        memcpy(a->cmdline, a->command, n);
        a->cmdline[n] = ' ';
        memcpy(a->cmdline + n + (m > 0), a->args, m + 1);
    }
    if (c->mode == CFG_SPRT && !(c->elo1 > c->elo0)) {
        snprintf(err, errlen, "%s:%d: [league] elo1: %g is not above elo0 = %g (H1 must claim more than H0)", path,
                 p.league_line, c->elo1, c->elo0);
        return -1;
    }
    for (int b = 0; b < c->games.n_boards; b++) {
        int cells = c->games.boards[b][0] * c->games.boards[b][1];
        if (strcmp(c->openings, "random") == 0 && c->opening_stones >= cells) {
            snprintf(err, errlen, "%s:%d: [league] opening_stones: %d stones do not leave a move on %dx%d", path,
                     p.league_line, c->opening_stones, c->games.boards[b][0], c->games.boards[b][1]);
            return -1;
        }
    }
    if (c->mode == CFG_GAUNTLET || c->mode == CFG_SPRT) {
        bool found = false;
        for (int i = 0; i < c->n_agents; i++)
            found |= strcmp(c->agents[i].name, c->challenger) == 0;
        if (!found) {
            snprintf(err, errlen, "%s:%d: [league] challenger: %s (expected the name of an [agent NAME] section)",
                     path, p.league_line, c->challenger[0] ? "no such agent"
                     : c->mode == CFG_SPRT ? "missing for mode = sprt" : "missing for mode = gauntlet");
            return -1;
        }
    }
    return 0;
}
