/* arena/server/page_agent.c — `/agent/ID`: an agent's headlines (its rating, 95% interval and rank per variant
 * and board in the newest league it played, the change since the previous league of that name, its forfeits
 * there), what it is (command, version, program hash), its ratings history (the newest leagues it played),
 * its results by opponent (each linked to the pairing's page; its forfeits apart from the opponent's), its
 * forfeits with the logs of its processes, and its newest games as won or lost. Per request it reads the agent,
 * its newest games and the game counts of its leagues; the rest comes from what the server keeps: the fits of
 * leagues (fits.c), the agent's record of its newest WS_AGENT_GAMES games (agent_record.c) and the leagues' logs
 * (league_logs.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "facts.h"
#include "server_private.h"
#include "url.h"

/* The fits of the leagues a page shows, held until the page is built. */
typedef struct {
    const ws_league_fit *fit[WS_HISTORY_LEAGUES + 1];
    ws_memo_node *hold[WS_HISTORY_LEAGUES + 1];
    int n;
} held_fits;

static const ws_league_fit *hold_fit(ws_req *q, held_fits *h, int64_t league, long played, long skipped)
{
    if (h->n == WS_HISTORY_LEAGUES + 1)
        return NULL;
    int status;
    char err[600];
    const ws_league_fit *f = ws_fits_get(q, league, played, skipped, &h->hold[h->n], &status, err, sizeof err);
    if (f)
        h->fit[h->n++] = f;
    return f;
}

static void release_fits(ws_req *q, held_fits *h)
{
    for (int i = 0; i < h->n; i++)
        ws_memo_release(ws_cache_fits(q->cache), h->hold[i]);
}

static void about(doc *d, const store_agent_row *a)
{
    doc_section_add(d, "agent", "Agent", "agent");
    doc_list(d, NULL);
    doc_line *l = doc_item(d);
    doc_span_add(l, "command: ", NULL);
    doc_span_add(l, a->command, NULL);
    l = doc_item(d);
    doc_span_add(l, "version: ", NULL);
    doc_span_add(l, a->version[0] ? a->version : "(none)", NULL);
    l = doc_item(d);
    doc_span_add(l, "first seen: ", NULL);
    doc_span_add(l, a->first_seen, NULL);
    char shortened[32];
    snprintf(shortened, sizeof shortened, "program hash %.12s…", a->sha256);
    doc_fold(d, shortened, a->sha256);
}

static void set_interval(tb_table *t, int col, const ws_fit_player *p)
{
    if (!isnan(p->lo) && !isnan(p->hi))
        tb_set(t, col, "%.0f to %.0f", p->lo, p->hi);
}

/* The group of fit f for variant and board (pooled: "pooled", ""), or NULL. */
static const ws_fit_group *group_of(const ws_league_fit *f, const char *variant, const char *board)
{
    for (int g = 0; f && g < f->n_groups; g++)
        if (strcmp(f->g[g].variant, variant) == 0 && strcmp(f->g[g].board, board) == 0)
            return &f->g[g];
    return NULL;
}

/* A fact named base (pooled) or base_VARIANT_BOARD. */
static void fact(doc *d, const char *base, const ws_fit_group *g, long long value)
{
    char key[96];
    if (g->board[0])
        snprintf(key, sizeof key, "%s_%s_%s", base, g->variant, g->board);
    else
        snprintf(key, sizeof key, "%s", base);
    doc_fact_int(d, key, value);
}

/* Its rating, interval and rank per variant and board (and pooled, over several) in its newest league, the
 * change since the previous league of that name, and its forfeits there; facts for the JSON twin. */
static void headline(doc *d, int64_t self, const ws_league_fit *f, const ws_league_fit *prev)
{
    const ws_fit_group *pooled = &f->g[0];
    const ws_fit_player *me = ws_fit_find(pooled, self);
    if (!me)
        return;
    doc_section_add(d, "rating", "Rating", "rating");
    char href[64], text[400];
    doc_line *l = doc_para(d, NULL, "In league ");
    snprintf(href, sizeof href, "/league/%lld", (long long)f->league);
    snprintf(text, sizeof text, "%lld '%s'", (long long)f->league, f->name);
    doc_span_add(l, text, href);
    snprintf(text, sizeof text, " (%s), the newest it played", f->night);
    doc_span_add(l, text, NULL);
    if (prev) {
        doc_span_add(l, "; change since ", NULL);
        snprintf(href, sizeof href, "/league/%lld", (long long)prev->league);
        snprintf(text, sizeof text, "league %lld", (long long)prev->league);
        doc_span_add(l, text, href);
        snprintf(text, sizeof text, " (%s)", prev->night);
        doc_span_add(l, text, NULL);
    }
    doc_span_add(l, ":", NULL);
    tb_table t;
    tb_init(&t, "rating in its newest league", 7);
    static const char *const heads[] = { "variant", "board", "Elo", "95% interval", "rank", "games", "change" };
    for (int c = 0; c < 7; c++)
        tb_column(&t, c, heads[c], c >= 2);
    doc_fact_int(d, "rating_league", f->league);
    if (prev)
        doc_fact_int(d, "previous_league", prev->league);
    /* each variant and board it played, then pooled when it played several */
    int played = 0;
    for (int g = 1; g < f->n_groups; g++)
        played += ws_fit_find(&f->g[g], self) != NULL;
    for (int k = 1; k <= f->n_groups; k++) {
        const ws_fit_group *g = &f->g[k % f->n_groups];
        const ws_fit_player *p = ws_fit_find(g, self);
        if (!p || (g == pooled && played < 2))
            continue;
        tb_row(&t);
        tb_set(&t, 0, "%s", g->variant);
        tb_set(&t, 1, "%s", g->board);
        tb_set_real(&t, 2, p->elo, 0);
        set_interval(&t, 3, p);
        tb_set(&t, 4, "%d of %d", p->rank, g->m);
        tb_set(&t, 5, "%ld", p->games);
        const ws_fit_player *before = ws_fit_find(group_of(prev, g->variant, g->board), self);
        if (before)
            tb_set(&t, 6, "%+.0f", p->elo - before->elo);
        if (g != pooled)
            fact(d, "elo", g, llround(p->elo));
    }
    doc_table(d, &t);
    /* the pooled numbers as facts (those of each variant and board after them) */
    doc_fact_int(d, "elo", llround(me->elo));
    if (!isnan(me->lo) && !isnan(me->hi)) {
        doc_fact_int(d, "elo_lower", llround(me->lo));
        doc_fact_int(d, "elo_upper", llround(me->hi));
    }
    doc_fact_int(d, "rank", me->rank);
    doc_fact_int(d, "rank_of", pooled->m);
    const ws_fit_player *before = ws_fit_find(group_of(prev, "pooled", ""), self);
    if (before)
        doc_fact_int(d, "elo_change", llround(me->elo - before->elo));
    for (int g = 1; g < f->n_groups; g++) {
        const ws_fit_player *p = ws_fit_find(&f->g[g], self);
        if (!p)
            continue;
        if (!isnan(p->lo) && !isnan(p->hi)) {
            fact(d, "elo_lower", &f->g[g], llround(p->lo));
            fact(d, "elo_upper", &f->g[g], llround(p->hi));
        }
        fact(d, "rank", &f->g[g], p->rank);
        fact(d, "rank_of", &f->g[g], f->g[g].m);
        const ws_fit_player *b = ws_fit_find(group_of(prev, f->g[g].variant, f->g[g].board), self);
        if (b)
            fact(d, "elo_change", &f->g[g], llround(p->elo - b->elo));
    }
    doc_fact_int(d, "league_games", me->games);
    doc_fact_int(d, "league_forfeits", me->forfeits);
    if (me->forfeits)
        doc_para(d, NULL, "Forfeits: %ld of its %ld games in this league.", me->forfeits, me->games);
    else
        doc_para(d, NULL, "Forfeits: none in its %ld games in this league.", me->games);
}

/* Its Elo, interval and rank in each of the newest leagues it played (pooled). */
static void history(doc *d, int64_t self, const held_fits *h, int n)
{
    tb_table t;
    tb_init(&t, "ratings history (newest league first)", 6);
    static const char *const heads[] = { "league", "night", "games", "Elo", "95% interval", "rank" };
    for (int c = 0; c < 6; c++)
        tb_column(&t, c, heads[c], c >= 2);
    int rows = 0;
    for (int k = 0; k < n; k++) {
        const ws_league_fit *f = h->fit[k];
        const ws_fit_player *p = ws_fit_find(&f->g[0], self);
        if (!p)
            continue;
        char href[64];
        tb_row(&t);
        tb_set(&t, 0, "%lld", (long long)f->league);
        snprintf(href, sizeof href, "/league/%lld", (long long)f->league);
        tb_link(&t, 0, href);
        tb_set(&t, 1, "%s", f->night);
        tb_set(&t, 2, "%ld", p->games);
        tb_set_real(&t, 3, p->elo, 0);
        set_interval(&t, 4, p);
        tb_set(&t, 5, "%d of %d", p->rank, f->g[0].m);
        rows++;
    }
    if (!rows) {
        tb_free(&t);
        return;
    }
    doc_section_add(d, "history", "Ratings history", "history");
    doc_table(d, &t);
}

static void opponents(doc *d, int64_t self, const ws_record *r)
{
    if (!r->n_opponents)
        return;
    doc_section_add(d, "opponents", "Results by opponent", "opponents");
    tb_table t;
    tb_init(&t, "results by opponent", 6);
    static const char *const heads[] = { "opponent", "games", "won", "score %", "forfeited", "opponent forfeited" };
    for (int c = 0; c < 6; c++)
        tb_column(&t, c, heads[c], c > 0);
    char href[80];
    for (int k = 0; k < r->n_opponents; k++) {
        const ws_record_opponent *o = &r->o[k];
        tb_row(&t);
        tb_set(&t, 0, "%s", o->name);
        snprintf(href, sizeof href, "/pairing/%lld/%lld", (long long)self, (long long)o->id);
        tb_link(&t, 0, href);
        tb_set(&t, 1, "%ld", o->games);
        tb_set(&t, 2, "%ld", o->wins);
        tb_set_real(&t, 3, 100.0 * (double)o->wins / (double)o->games, 1);
        tb_set(&t, 4, "%ld", o->forfeits);
        tb_set(&t, 5, "%ld", o->their_forfeits);
    }
    doc_table(d, &t);
    if (r->n == WS_AGENT_GAMES)
        doc_para(d, "note", "Its newest %d games.", WS_AGENT_GAMES);
}

/* Links to the logs of its processes in league `league`, when the logs are served. */
static void log_links(ws_req *q, doc_line *l, int64_t league, const char *agent)
{
    ws_memo_node *hold;
    const ws_league_logs *logs = ws_league_logs_get(q, league, &hold);
    if (!logs)
        return;
    const char *names[4];
    int n = ws_league_logs_of(logs, agent, names, 4);
    for (int i = 0; i < n; i++) {
        char href[800], encoded[780];
        if (url_encode(encoded, sizeof encoded, names[i]) < 0)
            continue;
        snprintf(href, sizeof href, "/logs/%s", encoded);
        doc_span_add(l, i ? ", " : " — log: ", NULL);
        doc_span_add(l, names[i], href);
    }
    ws_memo_release(ws_cache_logs(q->cache), hold);
}

/* The games it forfeited (the newest WS_GAMES_LISTED), each linked to its viewer, the logs once per league. */
static void forfeits(ws_req *q, doc *d, const store_agent_row *a, const ws_record *r)
{
    if (!r->n_forfeits) /* left out: the headline says so */
        return;
    doc_section_add(d, "forfeits", "Forfeits", "forfeits");
    doc_para(d, NULL, "%ld of its newest %d games%s.", r->forfeits, r->n,
             r->forfeits > r->n_forfeits ? "; the newest listed" : "");
    doc_list(d, NULL);
    int64_t linked[8];
    int n_linked = 0;
    for (int i = 0; i < r->n_forfeits; i++) {
        const ws_record_forfeit *f = &r->f[i];
        doc_line *l = doc_item(d);
        char text[300], href[64];
        snprintf(href, sizeof href, "/game/%lld", (long long)f->game);
        snprintf(text, sizeof text, "game %lld", (long long)f->game);
        doc_span_add(l, text, href);
        snprintf(text, sizeof text, ": %s%s%s", f->reason, f->detail[0] ? ": " : "", f->detail);
        doc_span_add(l, text, NULL);
        bool seen = f->league == 0 || n_linked == 8;
        for (int k = 0; k < n_linked; k++)
            seen |= linked[k] == f->league;
        if (!seen) {
            linked[n_linked++] = f->league;
            log_links(q, l, f->league, a->name);
        }
    }
}

/* Its newest games, each as won or lost by it and how. */
static void games(doc *d, int64_t self, const store_game_brief *g, int n)
{
    doc_section_add(d, "games", "Newest games", "games");
    if (n == 0) {
        doc_para(d, NULL, "No games.");
        return;
    }
    tb_table t;
    tb_init(&t, "newest games", 8);
    static const char *const heads[] = { "game", "league", "variant", "board", "colour", "opponent", "result", "how" };
    for (int c = 0; c < 8; c++)
        tb_column(&t, c, heads[c], c <= 1);
    char href[64];
    for (int i = 0; i < n && i < WS_GAMES_LISTED; i++) {
        bool black = g[i].black == self, won = (g[i].winner == HX_BLACK) == black;
        tb_row(&t);
        tb_set(&t, 0, "%lld", (long long)g[i].id);
        snprintf(href, sizeof href, "/game/%lld", (long long)g[i].id);
        tb_link(&t, 0, href);
        if (g[i].league > 0) {
            tb_set(&t, 1, "%lld", (long long)g[i].league);
            snprintf(href, sizeof href, "/league/%lld", (long long)g[i].league);
            tb_link(&t, 1, href);
        }
        tb_set(&t, 2, "%s", g[i].variant);
        tb_set(&t, 3, "%dx%d", g[i].rows, g[i].cols);
        tb_set(&t, 4, "%s", black ? "Black" : "White");
        tb_set(&t, 5, "%s", black ? g[i].white_name : g[i].black_name);
        snprintf(href, sizeof href, "/agent/%lld", (long long)(black ? g[i].white : g[i].black));
        tb_link(&t, 5, href);
        tb_set(&t, 6, "%s", won ? "won" : "lost");
        if (strcmp(g[i].reason, "connected") == 0)
            tb_set(&t, 7, "connected");
        else
            tb_set(&t, 7, "%s: %s%s%s", won ? "opponent forfeited" : "forfeited", g[i].reason,
                   g[i].detail[0] ? ": " : "", g[i].detail);
    }
    doc_table(d, &t);
    if (n > WS_GAMES_LISTED)
        doc_para(d, "note", "The newest %d games shown.", WS_GAMES_LISTED);
}

int ws_page_agent(ws_req *q, int64_t id, int64_t unused, doc *d, char *err, size_t errlen)
{
    (void)unused;
    store_agent_row a;
    int found = store_agent_get(q->s, id, &a);
    if (found < 0)
        return ws_db_error(q, err, errlen);
    if (found == 0) {
        snprintf(err, errlen, "no agent %lld", (long long)id);
        return 404;
    }
    store_game_brief *g;
    int n, status;
    store_brief_filter bf = { .agent = id, .limit = WS_RECORD_NEWEST };
    if (store_games_brief(q->s, &bf, &g, &n) != 0)
        return ws_db_error(q, err, errlen);
    ws_memo_node *record_hold;
    const ws_record *r = ws_record_get(q, id, g, n, &record_hold, &status, err, errlen);
    if (!r) {
        free(g);
        return status;
    }
    /* the fits of the leagues of its history at their counts now, and of the league before the newest */
    held_fits h = { .n = 0 };
    long played[WS_HISTORY_LEAGUES + 1], skipped[WS_HISTORY_LEAGUES + 1];
    int64_t leagues[WS_HISTORY_LEAGUES + 1];
    int m = 0;
    if (store_league_counts(q->s, r->leagues, r->n_leagues, played, skipped) != 0)
        status = ws_db_error(q, err, errlen);
    for (int k = 0; status == 0 && k < r->n_leagues; k++)
        if (hold_fit(q, &h, r->leagues[k], played[k], skipped[k]))
            leagues[m++] = r->leagues[k];
    const ws_league_fit *newest = m && leagues[0] == r->leagues[0] ? h.fit[0] : NULL, *prev = NULL;
    if (newest && newest->previous > 0) {
        for (int k = 0; k < m && !prev; k++)
            if (h.fit[k]->league == newest->previous)
                prev = h.fit[k];
        long pp, ps;
        if (!prev && store_league_counts(q->s, &newest->previous, 1, &pp, &ps) == 0)
            prev = hold_fit(q, &h, newest->previous, pp, ps);
    }
    if (status == 0) {
        char title[160];
        snprintf(title, sizeof title, "Agent %s", a.name);
        doc_init(d, title, NULL);
        doc_fact_int(d, "agent", id);
        doc_fact_text(d, "name", a.name);
        doc_fact_int(d, "games", r->n);
        doc_fact_int(d, "forfeits", r->forfeits);
        if (newest)
            headline(d, id, newest, prev);
        about(d, &a);
        history(d, id, &h, m);
        opponents(d, id, r);
        forfeits(q, d, &a, r);
        games(d, id, g, n);
    }
    release_fits(q, &h);
    ws_memo_release(ws_cache_records(q->cache), record_hold);
    free(g);
    return status;
}
