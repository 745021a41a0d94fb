/* arena/report/nightly.c — what the nightly page of a league knows, read from the store once: standings,
 * agents, forfeits and thinking times, the stored config, the games' keys for the repeat check; the logs of
 * the agents that forfeited and the night's summary (contract in nightly.h; the page itself is built in
 * nightly_page.c). */
#include "nightly.h"

#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "die.h"
#include "query.h"
#include "url.h"

/* The most of an agent's log copied next to the page: its end. */
#define LOG_TAIL (256 * 1024)
static int player_of(const st_report *r, int64_t agent_id)
{
    for (int i = 0; i < r->n_players; i++)
        if (r->players[i].id == agent_id)
            return i;
    return -1;
}

static void add_ms(const char *cmd, ng_agent *a, double ms)
{
    if (a->n_ms == a->cap_ms) {
        a->cap_ms = a->cap_ms ? 2 * a->cap_ms : 256;
        a->ms = realloc(a->ms, sizeof *a->ms * (size_t)a->cap_ms);
        if (!a->ms)
            die_fail(cmd, "out of memory");
    }
    a->ms[a->n_ms++] = ms;
}

/* One player's clock in a game (time control text, time left in ms; tc "" without one) into its agent's tallies. */
static void add_clock(ng_agent *x, const char *tc, int64_t left_ms, bool lost_on_time)
{
    if (!tc[0])
        return;
    if (!x->tc[0])
        snprintf(x->tc, sizeof x->tc, "%s", tc);
    else if (strcmp(x->tc, tc) != 0)
        snprintf(x->tc, sizeof x->tc, "several");
    double left = (double)left_ms / 1000.0;
    if (!x->clock_games || left < x->clock_min_left)
        x->clock_min_left = left;
    x->clock_games++;
    x->clock_left += left;
    x->out_of_time += lost_on_time;
}

/* Forfeits, sandbox flags and thinking times, from every game of the league and its attempts. */
static void gather_games(ng_night *p, store_db *s)
{
    st_report *r = p->r;
    store_filter f = { .league = p->facts.id };
    store_games *q = store_query(s, &f);
    if (!q)
        die_fail(p->cmd, "%s: %s", p->db, store_error(s));
    store_game_row row;
    int rc;
    while ((rc = store_games_next(q, &row)) == 1) {
        int b = player_of(r, row.black_id), w = player_of(r, row.white_id);
        if (b < 0 || w < 0)
            continue;
        p->total_games++;
        p->agents[b].unsandboxed |= row.black_unsandboxed;
        p->agents[w].unsandboxed |= row.white_unsandboxed;
        bool on_time = strcmp(row.reason, "timeout") == 0 && strncmp(row.detail, "out of time", 11) == 0;
        add_clock(&p->agents[b], row.black_tc, row.black_clock_ms, on_time && row.winner == HX_WHITE);
        add_clock(&p->agents[w], row.white_tc, row.white_clock_ms, on_time && row.winner == HX_BLACK);
        if (strcmp(row.reason, "connected") != 0) {
            ng_agent *loser = &p->agents[row.winner == HX_BLACK ? w : b];
            for (int k = 0; k < HX_END_COUNT; k++)
                if (strcmp(row.reason, hx_end_names[k]) == 0)
                    loser->forfeits[k]++;
            loser->forfeit_total++;
            p->forfeits++;
            snprintf(loser->detail, sizeof loser->detail, "game %lld: %s%s%.150s", (long long)row.id, row.reason,
                     row.detail[0] ? ": " : "", row.detail);
        }
        store_transcript *t = store_transcript_open(s, row.id);
        if (!t) {
            store_games_end(q); /* nothing left open when giving up: the server goes on */
            die_fail(p->cmd, "%s: %s", p->db, store_error(s));
        }
        store_attempt_row a;
        double think[2] = { 0, 0 };
        bool timed[2] = { false, false };
        while ((rc = store_transcript_next(t, &a)) == 1) {
            if (!isfinite(a.ms))
                continue;
            int c = a.player == HX_BLACK ? 0 : 1;
            add_ms(p->cmd, &p->agents[c == 0 ? b : w], a.ms);
            think[c] += a.ms / 1000.0;
            timed[c] = true;
        }
        store_transcript_end(t);
        if (rc != 0) {
            store_games_end(q);
            die_fail(p->cmd, "%s: %s", p->db, store_error(s));
        }
        for (int c = 0; c < 2; c++)
            if (timed[c]) {
                ng_agent *x = &p->agents[c == 0 ? b : w];
                x->seconds += think[c];
                x->timed_games++;
            }
    }
    store_games_end(q);
    if (rc != 0)
        die_fail(p->cmd, "%s: %s", p->db, store_error(s));
}

/* The stored config parsed into cfg: 0, or -1 when it does not parse with this arena. (Through a temporary
 * file, as cfg_load reads one.) */
/* The stored config, parsed again (for the run settings and the agents' log names). */
static void parse_config(ng_night *p)
{
    char err[512];
    p->have_cfg = cfg_parse(p->facts.config, strlen(p->facts.config), "(stored config)", &p->cfg, err, sizeof err) == 0;
    if (!p->have_cfg)
        return;
    const cfg_league *cfg = &p->cfg;
    for (int i = 0; i < p->r->n_players; i++)
        for (int a = 0; a < cfg->n_agents; a++)
            if (strcmp(cfg->agents[a].store_name, p->agents[i].info.name) == 0)
                snprintf(p->agents[i].section, sizeof p->agents[i].section, "%s", cfg->agents[a].name);
}

/* Copies the last LOG_TAIL bytes of `from` to `to`. */
static int copy_tail(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb");
    if (!in)
        return -1;
    FILE *out = fopen(to, "wb");
    if (!out) {
        fclose(in);
        return -1;
    }
    if (fseek(in, 0, SEEK_END) == 0) {
        long size = ftell(in);
        if (size > LOG_TAIL) {
            fseek(in, size - LOG_TAIL, SEEK_SET);
            fprintf(out, "[... the first %ld bytes left out ...]\n", size - LOG_TAIL);
        } else
            fseek(in, 0, SEEK_SET);
    }
    char buf[65536];
    size_t n;
    int rc = 0;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        if (fwrite(buf, 1, n, out) != n)
            rc = -1;
    fclose(in);
    if (fclose(out) != 0)
        rc = -1;
    return rc;
}

/* The logs of the agents that forfeited (league-NAME-SECTION-N.log), copied into OUT/logs. */
void ng_copy_logs(ng_night *p, const char *logs, const char *out)
{
    DIR *d = opendir(logs);
    if (!d)
        return;
    char dir[PATH_MAX + 8];
    snprintf(dir, sizeof dir, "%s/logs", out ? out : ".");
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        for (int i = 0; i < p->r->n_players; i++) {
            ng_agent *a = &p->agents[i];
            if (!a->forfeit_total || !a->section[0] || a->n_logs == (int)(sizeof a->logs / sizeof a->logs[0]))
                continue;
            char prefix[600];
            snprintf(prefix, sizeof prefix, "league-%s-%s-", p->facts.name, a->section);
            size_t pl = strlen(prefix), nl = strlen(e->d_name);
            if (strncmp(e->d_name, prefix, pl) != 0 || nl < pl + 5 || strcmp(e->d_name + nl - 4, ".log") != 0 ||
                strspn(e->d_name + pl, "0123456789") != nl - pl - 4)
                continue;
            char from[PATH_MAX * 2], to[PATH_MAX * 2];
            snprintf(from, sizeof from, "%s/%s", logs, e->d_name);
            snprintf(to, sizeof to, "%s/%s", dir, e->d_name);
            /* linked by its name percent-encoded: a league's name may hold '%', '?', '#', quotes, markup */
            char *link = a->logs[a->n_logs];
            memcpy(link, "logs/", 6);
            if (url_encode(link + 5, sizeof a->logs[0] - 5, e->d_name) >= 0 &&
                strlen(e->d_name) < sizeof a->log_names[0] && (!out || (mkdir(dir, 0755), copy_tail(from, to) == 0))) {
                snprintf(a->log_names[a->n_logs], sizeof a->log_names[0], "%s", e->d_name);
                a->n_logs++;
            }
        }
    }
    closedir(d);
}

static int by_key(const void *a, const void *b)
{
    const ng_game_key *x = a, *y = b;
    int c = x->variant - y->variant;
    if (!c)
        c = x->rows - y->rows;
    if (!c)
        c = x->cols - y->cols;
    if (!c)
        c = strcmp(x->black, y->black);
    if (!c)
        c = strcmp(x->white, y->white);
    if (!c)
        c = x->moves < y->moves ? -1 : x->moves > y->moves;
    return c;
}

static void load_keys(ng_night *p, store_db *s)
{
    store_league_game *g = NULL;
    int n = 0;
    if (store_league_games(s, p->facts.id, &g, &n) != 0)
        die_fail(p->cmd, "%s: %s", p->db, store_error(s));
    ng_game_key *k = calloc((size_t)(n ? n : 1), sizeof *k);
    if (!k)
        die_fail(p->cmd, "out of memory");
    for (int i = 0; i < n; i++) {
        k[i] = (ng_game_key){ (int)g[i].variant, g[i].rows, g[i].cols, "", "", g[i].moves };
        snprintf(k[i].black, sizeof k[i].black, "%s", g[i].black);
        snprintf(k[i].white, sizeof k[i].white, "%s", g[i].white);
    }
    free(g);
    qsort(k, (size_t)n, sizeof *k, by_key);
    p->keys = k;
    p->n_keys = n;
}

/* This league's standings, and the previous league's of the same name (its own games only). */
static void load_standings(ng_night *p, store_db *s)
{
    p->r = die_check(p->cmd, calloc(1, sizeof *p->r));
    char *ids = p->ids[0], *prev_ids = p->ids[1];
    snprintf(ids, sizeof p->ids[0], "%lld", (long long)p->id);
    *p->r = (st_report){ .cmd = p->cmd, .db = p->db, .bootstrap = p->bootstrap, .prior = 1, .seed = 1 };
    p->r->filter = (st_filter){ .f = { .league = p->id }, .league = ids };
    st_load(p->r, s);
    if (!st_fit(p->r, -1, -1, &p->pooled))
        die_fail(p->cmd, "league %lld: no games", (long long)p->id);
    p->prev = store_league_previous(s, p->id);
    if (p->prev < 0)
        die_fail(p->cmd, "%s: %s", p->db, store_error(s));
    if (p->prev == 0)
        return;
    snprintf(prev_ids, sizeof p->ids[1], "%lld", (long long)p->prev);
    p->pr = die_check(p->cmd, calloc(1, sizeof *p->pr));
    /* the previous league's own games only (not its whole series: a database of a thousand nights stays cheap) */
    *p->pr = (st_report){ .cmd = p->cmd, .db = p->db, .bootstrap = 0, .prior = 1, .seed = 1 };
    p->pr->filter = (st_filter){ .f = { .league = p->prev }, .league = prev_ids };
    st_load(p->pr, s);
    store_league_row lr;
    if (store_league_get(s, p->prev, &lr) != 1)
        die_fail(p->cmd, "%s: %s", p->db, store_error(s));
    /* as a history of that one league: its games are league 0's (the page fits the previous night by league) */
    for (long i = 0; i < p->pr->n_results; i++)
        p->pr->results[i].league = 0;
    p->pr->n_leagues = 1;
    p->pr->leagues[0] = (st_league){ .id = p->prev };
    snprintf(p->pr->leagues[0].night, sizeof p->pr->leagues[0].night, "%s", lr.night);
    p->have_prev = st_fit(p->pr, -1, -1, &p->prev_fit);
}

/* What ng_load reads, giving up through die.h. */
static void load(ng_night *p, store_db *s, const char *db, int64_t id, const char *night, int bootstrap)
{
    p->cmd = "report";
    p->db = db;
    p->id = id;
    p->bootstrap = bootstrap;
    int found = store_league_facts_get(s, id, &p->facts);
    if (found < 0)
        die_fail(p->cmd, "%s: %s", db, store_error(s));
    if (found == 0)
        die_usage(p->cmd, "%s: no league %lld", db, (long long)id);
    if (p->facts.played == 0)
        die_usage(p->cmd, "%s: league %lld '%s' has no games yet", db, (long long)id, p->facts.name);
    store_league_row lr;
    if (store_league_get(s, id, &lr) != 1)
        die_fail(p->cmd, "%s: %s", db, store_error(s));
    snprintf(p->night, sizeof p->night, "%s", night ? night : lr.night);
    load_standings(p, s);
    p->agents = die_check(p->cmd, calloc((size_t)p->r->n_players, sizeof *p->agents));
    for (int i = 0; i < p->r->n_players; i++)
        if (store_agent_get(s, p->r->players[i].id, &p->agents[i].info) < 0 ||
            store_agent_changes(s, p->r->players[i].id, p->agents[i].changed, sizeof p->agents[i].changed) != 0)
            die_fail(p->cmd, "%s: %s", db, store_error(s));
    gather_games(p, s);
    parse_config(p);
    load_keys(p, s);
}

/* ng_load's arguments, for die_catch. */
typedef struct {
    ng_night *p;
    store_db *s;
    const char *db, *night;
    int64_t id;
    int bootstrap;
} load_args;

static void load_caught(void *arg)
{
    load_args *a = arg;
    load(a->p, a->s, a->db, a->id, a->night, a->bootstrap);
}

int ng_load(ng_night *p, store_db *s, const char *db, int64_t id, const char *night, int bootstrap, char *err,
            size_t errlen)
{
    memset(p, 0, sizeof *p);
    load_args a = { p, s, db, night, id, bootstrap };
    int rc = die_catch(load_caught, &a, err, errlen);
    if (rc != 0)
        ng_free(p);
    return rc;
}

void ng_free(ng_night *p)
{
    for (int i = 0; p->agents && i < p->r->n_players; i++)
        free(p->agents[i].ms);
    free(p->agents);
    free(p->keys);
    if (p->r) {
        st_selection_free(&p->pooled);
        st_free(p->r);
        free(p->r);
    }
    if (p->pr) {
        if (p->have_prev)
            st_selection_free(&p->prev_fit);
        st_free(p->pr);
        free(p->pr);
    }
    store_league_facts_free(&p->facts);
    memset(p, 0, sizeof *p);
}

void ng_summary(const ng_night *p, const doc *d, FILE *f)
{
    char leader[128];
    snprintf(leader, sizeof leader, "%s", p->pooled.m ? p->r->players[p->pooled.rank[0]].name : "");
    for (char *c = leader; *c; c++) /* one value per line: a name from a bot's hello may hold anything */
        if ((unsigned char)*c < 0x20)
            *c = ' ';
    fprintf(f, "night\t%s\nleague\t%lld\nname\t%s\ngames\t%ld\nplanned\t%ld\nforfeits\t%ld\nagents\t%d\n"
               "leader\t%s\nleader_elo\t%.0f\nwarnings\t%d\n",
            p->night, (long long)p->facts.id, p->facts.name, p->total_games, p->facts.planned, p->forfeits,
            p->pooled.m, leader, p->pooled.m ? p->pooled.f.elo[p->pooled.rank[0]] : 0.0, d->n_warnings);
}
