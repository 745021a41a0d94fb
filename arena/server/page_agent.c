/* arena/server/page_agent.c — `/agent/ID`: an agent (command, version, program hash), its ratings history (its
 * Elo and rank in each of the newest leagues it played), its results by opponent (each linked to the pairing's
 * page), its forfeits with the logs of its processes, and its newest games; from its newest WS_AGENT_GAMES
 * games. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "facts.h"
#include "query.h"
#include "server_private.h"

typedef struct {
    int64_t id;
    char name[96];
    long games, wins, forfeits;
} opponent;

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

static void opponents(doc *d, int64_t self, const store_game_brief *g, int n)
{
    opponent *o = calloc((size_t)(n ? n : 1), sizeof *o);
    int m = 0;
    for (int i = 0; o && i < n; i++) {
        bool black = g[i].black == self;
        int64_t other = black ? g[i].white : g[i].black;
        int k = 0;
        while (k < m && o[k].id != other)
            k++;
        if (k == m) {
            o[m].id = other;
            snprintf(o[m++].name, sizeof o[0].name, "%s", black ? g[i].white_name : g[i].black_name);
        }
        bool won = (g[i].winner == HX_BLACK) == black;
        o[k].games++;
        o[k].wins += won;
        o[k].forfeits += !won && strcmp(g[i].reason, "connected") != 0;
    }
    doc_section_add(d, "opponents", "Results by opponent", "opponents");
    tb_table t;
    tb_init(&t, "results by opponent", 5);
    static const char *const heads[] = { "opponent", "games", "won", "score %", "its forfeits" };
    for (int c = 0; c < 5; c++)
        tb_column(&t, c, heads[c], c > 0);
    char href[80];
    for (int k = 0; k < m; k++) {
        tb_row(&t);
        tb_set(&t, 0, "%s", o[k].name);
        snprintf(href, sizeof href, "/pairing/%lld/%lld", (long long)self, (long long)o[k].id);
        tb_link(&t, 0, href);
        tb_set(&t, 1, "%ld", o[k].games);
        tb_set(&t, 2, "%ld", o[k].wins);
        tb_set_real(&t, 3, 100.0 * (double)o[k].wins / (double)o[k].games, 1);
        tb_set(&t, 4, "%ld", o[k].forfeits);
    }
    doc_table(d, &t);
    free(o);
}

/* Its Elo and rank in each of the newest leagues it played (a fit of each league without bootstrap). */
static void history(ws_req *q, doc *d, int64_t self, const store_game_brief *g, int n)
{
    int64_t leagues[WS_HISTORY_LEAGUES];
    int m = 0;
    for (int i = 0; i < n && m < WS_HISTORY_LEAGUES; i++) {
        bool seen = g[i].league == 0;
        for (int k = 0; k < m; k++)
            seen |= leagues[k] == g[i].league;
        if (!seen)
            leagues[m++] = g[i].league;
    }
    doc_section_add(d, "history", "Ratings history", "history");
    tb_table t;
    tb_init(&t, "ratings history (newest league first)", 5);
    static const char *const heads[] = { "league", "night", "games", "Elo", "rank" };
    for (int c = 0; c < 5; c++)
        tb_column(&t, c, heads[c], c >= 2);
    st_report *r = malloc(sizeof *r);
    for (int k = 0; r && k < m; k++) {
        st_selection x;
        char err[600], href[64];
        if (ws_fit_league(q->s, q->cfg->db, leagues[k], r, &x, err, sizeof err) != 0)
            continue;
        for (int j = 0; j < x.m; j++) {
            int p = x.rank[j];
            if (r->players[p].id != self)
                continue;
            tb_row(&t);
            tb_set(&t, 0, "%lld", (long long)leagues[k]);
            snprintf(href, sizeof href, "/league/%lld", (long long)leagues[k]);
            tb_link(&t, 0, href);
            store_league_row lr;
            tb_set(&t, 1, "%s", store_league_get(q->s, leagues[k], &lr) == 1 ? lr.night : "");
            tb_set(&t, 2, "%ld", x.games[p]);
            tb_set_real(&t, 3, x.f.elo[p], 0);
            tb_set(&t, 4, "%d of %d", j + 1, x.m);
        }
        st_selection_free(&x);
        st_free(r);
    }
    free(r);
    doc_table(d, &t);
}

/* Links to the logs of its processes in league `league` (league-NAME-SECTION-K.log), when the logs are served. */
static void log_links(ws_req *q, doc_line *l, int64_t league, const char *agent)
{
    store_league_facts f;
    cfg_league *c = malloc(sizeof *c);
    char err[600], prefix[600];
    DIR *dir = q->cfg->logs ? opendir(q->cfg->logs) : NULL;
    if (c && dir && store_league_facts_get(q->s, league, &f) == 1) {
        ws_report_lock();
        bool parsed = cfg_parse(f.config, strlen(f.config), "(stored config)", c, err, sizeof err) == 0;
        ws_report_unlock();
        if (parsed)
            for (int a = 0; a < c->n_agents; a++)
                if (strcmp(c->agents[a].store_name, agent) == 0) {
                    snprintf(prefix, sizeof prefix, "league-%s-%s-", f.name, c->agents[a].name);
                    struct dirent *e;
                    int shown = 0, read = 0;
                    while (shown < 4 && read++ < 20000 && (e = readdir(dir)) != NULL)
                        if (strncmp(e->d_name, prefix, strlen(prefix)) == 0) {
                            char href[400];
                            snprintf(href, sizeof href, "/logs/%.380s", e->d_name);
                            doc_span_add(l, shown++ ? ", " : " — log: ", NULL);
                            doc_span_add(l, e->d_name, href);
                        }
                }
        store_league_facts_free(&f);
    }
    if (dir)
        closedir(dir);
    free(c);
}

static void forfeits(ws_req *q, doc *d, const store_agent_row *a, const store_game_brief *g, int n)
{
    doc_section_add(d, "forfeits", "Forfeits", "forfeits");
    doc_list(d, NULL);
    int shown = 0;
    int64_t linked[8];
    int n_linked = 0;
    for (int i = 0; i < n && shown < WS_GAMES_LISTED; i++) {
        bool black = g[i].black == a->id, won = (g[i].winner == HX_BLACK) == black;
        if (won || strcmp(g[i].reason, "connected") == 0)
            continue;
        doc_line *l = doc_item(d);
        char text[300], href[64];
        snprintf(href, sizeof href, "/game/%lld", (long long)g[i].id);
        snprintf(text, sizeof text, "game %lld", (long long)g[i].id);
        doc_span_add(l, text, href);
        snprintf(text, sizeof text, ": %s%s%s", g[i].reason, g[i].detail[0] ? ": " : "", g[i].detail);
        doc_span_add(l, text, NULL);
        bool seen = g[i].league == 0 || n_linked == 8;
        for (int k = 0; k < n_linked; k++)
            seen |= linked[k] == g[i].league;
        if (!seen) { /* the logs once per league */
            linked[n_linked++] = g[i].league;
            log_links(q, l, g[i].league, a->name);
        }
        shown++;
    }
    if (!shown)
        doc_para(d, NULL, "None in its newest %d games.", WS_AGENT_GAMES);
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
    int n;
    store_brief_filter f = { .agent = id, .limit = WS_AGENT_GAMES };
    if (store_games_brief(q->s, &f, &g, &n) != 0)
        return ws_db_error(q, err, errlen);
    char title[160];
    snprintf(title, sizeof title, "Agent %s", a.name);
    doc_init(d, title, NULL);
    doc_fact_int(d, "agent", id);
    doc_fact_text(d, "name", a.name);
    doc_fact_int(d, "games", n);
    about(d, &a);
    history(q, d, id, g, n);
    opponents(d, id, g, n);
    forfeits(q, d, &a, g, n);
    ws_games_section(d, "games", "Newest games", g, n, WS_GAMES_LISTED);
    free(g);
    return 0;
}
