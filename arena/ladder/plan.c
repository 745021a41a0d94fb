/* arena/ladder/plan.c — the league config text of a ladder job (plan.h). */
#include "plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "submission.h"

void ld_store_name(const ldb_submission *s, char *out, size_t n)
{
    snprintf(out, n, "%s-%s", s->name, s->version);
}

/* Appends submission s as agent section "sID", with runner = host on host k % n_hosts. Returns 0 or -1 (err). */
static int add_agent(const ld_config *c, int k, const ldb_submission *s, char *text, size_t cap, size_t *at,
                     char *err, size_t errlen)
{
    char section[32], store_name[80];
    snprintf(section, sizeof section, "s%lld", (long long)s->id);
    ld_store_name(s, store_name, sizeof store_name);
    cfg_games b;
    char why[256];
    int n = cfg_parse_boards(s->boards, &b, why, sizeof why)
                ? ld_agent_section(section, store_name, s->dir, s->program, s->args, (uint32_t)s->variants, &b,
                                   text + *at, cap - *at)
                : -1;
    if (n > 0 && c->runner == LD_RUN_HOST) { /* before the section's blank line */
        int m = snprintf(text + *at + n - 1, cap - *at - (size_t)n + 1, "host_key_file = %s\n\n",
                         c->host_keys[k % c->n_hosts]);
        n = m < 0 || (size_t)m >= cap - *at - (size_t)n + 1 ? -1 : n - 1 + m;
    }
    if (n < 0) {
        snprintf(err, errlen, "submission %lld (%s %s): cannot be written as a league agent", (long long)s->id,
                 s->name, s->version);
        return -1;
    }
    *at += (size_t)n;
    return 0;
}

/* How many variant-and-board groups two submissions share (0: they never meet). */
static int shared(const ldb_submission *a, const ldb_submission *b)
{
    cfg_games x, y;
    char why[256];
    if (!(a->variants & b->variants) || !cfg_parse_boards(a->boards, &x, why, sizeof why) ||
        !cfg_parse_boards(b->boards, &y, why, sizeof why))
        return 0;
    int boards = 0;
    for (int i = 0; i < x.n_boards; i++)
        for (int j = 0; j < y.n_boards; j++)
            boards += x.boards[i][0] == y.boards[j][0] && x.boards[i][1] == y.boards[j][1];
    return boards * __builtin_popcountll((unsigned long long)(a->variants & b->variants));
}

static bool meet(const ldb_submission *a, const ldb_submission *b)
{
    return shared(a, b) > 0;
}

/* The opponents of s for job j into field (up to CFG_MAX_AGENTS - 1): how many, -1 on failure. */
static int opponents(ldb *d, const ldb_job *j, const ldb_submission *s, ldb_submission *field, char *err,
                     size_t errlen)
{
    ldb_submission self = *s;
    s = &self; /* s may be a member of the list read below */
    enum { MAX = 256 };
    ldb_submission *all = calloc(MAX, sizeof *all);
    int n = all ? ldb_submissions(d, "ladder", NULL, all, MAX) : -1, k = 0;
    if (n < 0)
        snprintf(err, errlen, "%s", all ? ldb_error(d) : "out of memory");
    bool sprt = strcmp(j->kind, "sprt") == 0;
    for (int i = 0; i < n && k < CFG_MAX_AGENTS - 1; i++) {
        bool own = strcmp(all[i].name, s->name) == 0;
        if (all[i].id != s->id && (sprt ? own : !own) && meet(s, &all[i]))
            field[k++] = all[i];
        if (sprt && k == 1)
            break; /* the newest version on the ladder */
    }
    free(all);
    return n < 0 ? -1 : k;
}

long ld_plan_games(ldb *d, const ld_config *c, const char *kind, const ldb_submission *s, char *err, size_t errlen)
{
    ldb_job j = { 0 };
    snprintf(j.kind, sizeof j.kind, "%s", kind);
    ldb_submission *field = calloc(CFG_MAX_AGENTS, sizeof *field);
    int n = field ? opponents(d, &j, s, field, err, errlen) : -1;
    long games = 0, pairs = strcmp(kind, "sprt") == 0 ? c->sprt_pairs : c->placement_pairs;
    for (int i = 0; i < n; i++)
        games += 2 * pairs * shared(s, &field[i]);
    free(field);
    return n < 0 ? -1 : games;
}

static int header(const ld_config *c, const ldb_job *j, const ldb_submission *s, char *text, size_t cap)
{
    bool sprt = strcmp(j->kind, "sprt") == 0;
    char v[512], b[512];
    ld_games_text(c->variants, &c->boards, v, sizeof v, b, sizeof b);
    int n = snprintf(text, cap,
                     "[league]\nname = ladder-%s-%lld\nmode = %s\nchallenger = s%lld\nvariants = %s\nboards = %s\n"
                     "games = %d\nmove_time_ms = %u\nconcurrency = %d\nseed = %lld\nsandbox = on\nfair_timing = %s\n",
                     j->kind, (long long)j->id, sprt ? "sprt" : "gauntlet", (long long)s->id, v, b,
                     2 * (sprt ? c->sprt_pairs : c->placement_pairs), c->move_ms, c->concurrency, (long long)j->id,
                     c->fair_timing ? "on" : "off");
    if (sprt && n > 0 && (size_t)n < cap)
        n += snprintf(text + n, cap - (size_t)n, "elo0 = %g\nelo1 = %g\n", s->elo0, s->elo1);
    if (c->runner == LD_RUN_HOST && n > 0 && (size_t)n < cap) /* the bots on the hosts, which connect here */
        n += snprintf(text + n, cap - (size_t)n, "listen = %s\nserver_key = %s\nhost_wait_s = %d\n",
                      c->listen_league, c->server_key, c->host_wait_s);
    if (n > 0 && (size_t)n < cap)
        n += snprintf(text + n, cap - (size_t)n, "\n");
    return n < 0 || (size_t)n >= cap ? -1 : n;
}

char *ld_plan(ldb *d, const ld_config *c, const ldb_job *j, const ldb_submission *s, int *agents, char *err,
              size_t errlen)
{
    ldb_submission *field = calloc(CFG_MAX_AGENTS, sizeof *field);
    size_t cap = (size_t)CFG_MAX_AGENTS * 10000, at = 0;
    char *text = malloc(cap);
    int n = field && text ? opponents(d, j, s, field, err, errlen) : -1;
    if (!field || !text)
        snprintf(err, errlen, "out of memory");
    int h = n >= 0 ? header(c, j, s, text, cap) : -1;
    if (n >= 0 && h < 0)
        snprintf(err, errlen, "the league config does not fit");
    int rc = h < 0 ? -1 : 0;
    at = h < 0 ? 0 : (size_t)h;
    if (rc == 0)
        rc = add_agent(c, 0, s, text, cap, &at, err, errlen);
    for (int i = 0; rc == 0 && i < n; i++)
        rc = add_agent(c, i + 1, &field[i], text, cap, &at, err, errlen);
    free(field);
    if (rc != 0) {
        free(text);
        return NULL;
    }
    *agents = 1 + n;
    return text;
}

int ld_host_agents(ldb *d, FILE *out, char *err, size_t errlen)
{
    enum { MAX = 1024 };
    ldb_submission *all = calloc(MAX, sizeof *all);
    int n = all ? ldb_submissions(d, "", NULL, all, MAX) : -1, k = 0;
    if (n < 0)
        snprintf(err, errlen, "%s", all ? ldb_error(d) : "out of memory");
    for (int i = n - 1; i >= 0; i--) /* oldest first */
        if (strcmp(all[i].state, "ladder") == 0 || strcmp(all[i].state, "queued") == 0 ||
            strcmp(all[i].state, "running") == 0) {
            fprintf(out, "s%lld=%s/%s%s%s\n", (long long)all[i].id, all[i].dir, all[i].program,
                    all[i].args[0] ? " " : "", all[i].args);
            k++;
        }
    free(all);
    return n < 0 ? -1 : k;
}
