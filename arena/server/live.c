/* arena/server/live.c — the leagues running now (contract in server_private.h): read from the store at most
 * once a second for every page and feed that asks: those with games still to play whose coordinator holds the
 * league's lock (league_lock.h: running, however long ago their last game), and those whose lock nobody holds but
 * whose last game, or start, is within the idle window (stopped: the coordinator is gone), each with its progress,
 * ETA (running only), forfeits, current leaders (a fit without bootstrap,
 * done again only when its game count changed) and, for an SPRT league, each pairing's LLR against its bounds;
 * as JSON for the feed and as a table for the pages; and the newest leagues, for the summary. One request reads
 * it again while the others use the state of a second ago. */
#define _GNU_SOURCE /* timegm */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "browse.h"
#include "config.h"
#include "facts.h"
#include "league_lock.h"
#include "mode.h"
#include "pairing.h"
#include "query.h"
#include "server_private.h"

#define LEADERS 5
#define SPRTS 8
#define IDLE_SHOWN_S 60 /* a league without a game for longer shows that instead of an ETA */

typedef struct {
    char a[64], b[64], board[48];
    double llr, lower, upper;
    const char *decision;
} live_test;

typedef struct {
    store_league_brief b;
    bool running;                  /* its lock is held: a coordinator plays it now; else stopped */
    double eta_s;                  /* NAN: unknown */
    double idle_s;                 /* since its newest game; NAN: none yet */
    int n_leaders;
    char leader[LEADERS][96];
    double elo[LEADERS];
    long games[LEADERS];
    bool sprt;
    int n_sprt;
    live_test tests[SPRTS];
} live_row;

struct ws_live {
    pthread_mutex_t lock;
    pthread_cond_t done;           /* a refresh ended */
    bool refreshing;
    double at;                     /* when computed (monotonic), 0: never */
    live_row *rows;
    int n;
    store_league_brief *recent;    /* the newest leagues */
    int n_recent;
    store_league_brief newest;     /* the newest league with games, when has_newest */
    bool has_newest;
    char *json;
    long serial;
};

static double monotonic(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

ws_live *ws_live_new(void)
{
    ws_live *l = calloc(1, sizeof *l);
    if (l) {
        pthread_mutex_init(&l->lock, NULL);
        pthread_cond_init(&l->done, NULL);
    }
    return l;
}

void ws_live_free(ws_live *l)
{
    if (!l)
        return;
    pthread_mutex_destroy(&l->lock);
    pthread_cond_destroy(&l->done);
    free(l->recent);
    free(l->rows);
    free(l->json);
    free(l);
}

static double iso_seconds(const char *iso)
{
    struct tm tm = { 0 };
    double frac = 0;
    if (sscanf(iso, "%d-%d-%dT%d:%d:%lf", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &frac) != 6)
        return NAN;
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    return (double)timegm(&tm) + frac;
}

/* The leaders of the league's games so far. */
static void leaders(store_db *s, const char *db, live_row *x)
{
    st_report *r = calloc(1, sizeof *r);
    st_selection sel;
    char err[600];
    if (!r)
        return;
    if (ws_fit_league(s, db, x->b.id, r, &sel, err, sizeof err) == 0) {
        for (int k = 0; k < sel.m && k < LEADERS; k++) {
            int p = sel.rank[k];
            snprintf(x->leader[k], sizeof x->leader[k], "%s", r->players[p].name);
            x->elo[k] = sel.f.elo[p];
            x->games[k] = sel.games[p];
            x->n_leaders = k + 1;
        }
        st_selection_free(&sel);
        st_free(r);
    }
    free(r);
}

/* An SPRT league's pairings: LLR, bounds and decision of each (the first SPRTS). */
static void sprt_tests(store_db *s, const char *config, live_row *x)
{
    cfg_league *c = malloc(sizeof *c);
    char err[600];
    ws_report_lock();
    bool parsed = c && cfg_parse(config, strlen(config), "(stored config)", c, err, sizeof err) == 0;
    ws_report_unlock();
    if (!parsed || !c->mode || strcmp(c->mode->name, "sprt") != 0) {
        free(c);
        return;
    }
    x->sprt = true;
    store_league_game *g = NULL;
    int n = 0;
    pg_table *t = pg_new();
    if (t && store_league_games(s, x->b.id, &g, &n) == 0)
        for (int i = 0; i < n; i++) {
            bool a_black = strcmp(g[i].black, c->challenger) == 0;
            pg_pairing *p = pg_get(t, g[i].variant, g[i].rows, g[i].cols, a_black ? g[i].black : g[i].white,
                                   a_black ? g[i].white : g[i].black);
            if (p)
                pg_add(p, a_black, (g[i].winner == HX_BLACK) == a_black, g[i].pair, g[i].moves);
        }
    pn_sprt test = { c->elo0, c->elo1, c->alpha, c->beta };
    for (int i = 0; t && i < pg_count(t) && x->n_sprt < SPRTS; i++) {
        pg_pairing *p = pg_at(t, i);
        double llr;
        pn_decision dec = pn_decide(&p->penta, &test, &llr);
        live_test *e = &x->tests[x->n_sprt++];
        snprintf(e->a, sizeof e->a, "%s", p->a);
        snprintf(e->b, sizeof e->b, "%s", p->b);
        snprintf(e->board, sizeof e->board, "%s %dx%d", hx_variant_name(p->variant), p->rows, p->cols);
        e->llr = llr;
        pn_bounds(&test, &e->lower, &e->upper);
        e->decision = pn_decision_name(dec);
    }
    free(g);
    pg_free(t);
    free(c);
}

/* The row of one running league; what does not change with the time is kept from `old` when its games did not. */
static void fill(store_db *s, const char *db, const store_league_brief *b, bool running, const live_row *old,
                 live_row *x)
{
    memset(x, 0, sizeof *x);
    x->b = *b;
    x->running = running;
    long left = b->planned - b->played - b->skipped;
    double t0 = iso_seconds(b->first_started), now = (double)time(NULL);
    x->eta_s = running && b->played > 0 && isfinite(t0) && now > t0 ? (now - t0) / (double)b->played * (double)left
                                                                      : NAN;
    x->idle_s = b->played > 0 ? now - iso_seconds(b->last_finished) : NAN;
    if (old && old->b.played == b->played && old->b.skipped == b->skipped) {
        memcpy(x->leader, old->leader, sizeof x->leader);
        memcpy(x->elo, old->elo, sizeof x->elo);
        memcpy(x->games, old->games, sizeof x->games);
        memcpy(x->tests, old->tests, sizeof x->tests);
        x->n_leaders = old->n_leaders;
        x->sprt = old->sprt;
        x->n_sprt = old->n_sprt;
        return;
    }
    if (b->played > 0)
        leaders(s, db, x);
    store_league_facts f;
    if (store_league_facts_get(s, b->id, &f) == 1)
        sprt_tests(s, f.config, x);
    store_league_facts_free(&f);
}

static void json_text(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20 || c == 0x7f)
            fprintf(f, "\\u%04x", c);
        else if (c == '<') /* never "</script>" in a page that embeds it */
            fputs("\\u003c", f);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static void json_real(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.6g", v);
    else
        fputs("null", f);
}

static char *to_json(const live_row *rows, int n)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    fputs("{\"leagues\":[", f);
    for (int i = 0; i < n; i++) {
        const live_row *x = &rows[i];
        fprintf(f, "%s{\"id\":%lld,\"name\":", i ? "," : "", (long long)x->b.id);
        json_text(f, x->b.name);
        fputs(",\"night\":", f);
        json_text(f, x->b.night);
        fprintf(f, ",\"running\":%s", x->running ? "true" : "false");
        fprintf(f, ",\"played\":%ld,\"planned\":%ld,\"skipped\":%ld,\"forfeits\":%ld,\"eta_s\":", x->b.played,
                x->b.planned, x->b.skipped, x->b.forfeits);
        json_real(f, x->eta_s);
        fputs(",\"idle_s\":", f);
        json_real(f, x->idle_s);
        fputs(",\"leaders\":[", f);
        for (int k = 0; k < x->n_leaders; k++) {
            fputs(k ? ",{\"name\":" : "{\"name\":", f);
            json_text(f, x->leader[k]);
            fputs(",\"elo\":", f);
            json_real(f, x->elo[k]);
            fprintf(f, ",\"games\":%ld}", x->games[k]);
        }
        fputs("],\"sprt\":", f);
        if (!x->sprt)
            fputs("null", f);
        else {
            fputc('[', f);
            for (int k = 0; k < x->n_sprt; k++) {
                fputs(k ? ",{\"a\":" : "{\"a\":", f);
                json_text(f, x->tests[k].a);
                fputs(",\"b\":", f);
                json_text(f, x->tests[k].b);
                fputs(",\"board\":", f);
                json_text(f, x->tests[k].board);
                fputs(",\"llr\":", f);
                json_real(f, x->tests[k].llr);
                fputs(",\"lower\":", f);
                json_real(f, x->tests[k].lower);
                fputs(",\"upper\":", f);
                json_real(f, x->tests[k].upper);
                fprintf(f, ",\"decision\":\"%s\"}", x->tests[k].decision);
            }
            fputc(']', f);
        }
        fputc('}', f);
    }
    fputs("]}", f);
    fclose(f);
    return buf;
}

/* Of the leagues with games to play (n, at most WS_RUNNING_MAX), keeps those whose lock is held (running, held[i]
 * true) and those whose last game or start is within the idle window (stopped), in their order. */
static void keep_live(const ws_config *cfg, store_league_brief *b, int *n, bool *held)
{
    double now = (double)time(NULL);
    int kept = 0;
    for (int i = 0; i < *n && i < WS_RUNNING_MAX; i++) {
        bool on = store_league_held(cfg->db, b[i].id) == 1;
        double last = iso_seconds(b[i].created), fin = iso_seconds(b[i].last_finished);
        if (isfinite(fin) && (!isfinite(last) || fin > last))
            last = fin;
        if (on || (isfinite(last) && now - last < (double)cfg->idle_s)) {
            b[kept] = b[i];
            held[kept++] = on;
        }
    }
    *n = kept;
}

/* What refresh reads, outside the lock. */
typedef struct {
    live_row *rows;
    int n;
    char *json;
    store_league_brief *recent, newest;
    int n_recent;
    bool has_newest;
} live_state;

static int read_state(const ws_live *l, const ws_config *cfg, live_state *x, char *err, size_t errlen)
{
    memset(x, 0, sizeof *x);
    store_db *s = store_open_readonly(cfg->db, err, errlen);
    if (!s)
        return -1;
    store_deadline(s, cfg->request_ms);
    store_league_brief *b = NULL;
    int n = 0, rc = -1;
    int64_t league = 0, run = 0;
    bool held[WS_RUNNING_MAX] = { false };
    int got = store_leagues_running(s, -1, WS_RUNNING_MAX, &b, &n);
    if (got == 0)
        keep_live(cfg, b, &n, held);
    if (got == 0 &&
        store_leagues_recent(s, WS_RECENT_LEAGUES, &x->recent, &x->n_recent) == 0 &&
        store_newest_with_games(s, &league, &run) == 0 &&
        (league <= 0 || store_league_brief_get(s, league, &x->newest) == 1)) {
        x->has_newest = league > 0;
        /* the morning summary is of the newest league that is not running, when there is one among the newest */
        for (int i = 0; x->has_newest && i < x->n_recent; i++) {
            bool running = false;
            for (int k = 0; k < n; k++)
                running |= b[k].id == x->recent[i].id && held[k];
            if (!running && x->recent[i].played > 0) {
                x->newest = x->recent[i];
                break;
            }
        }
        x->rows = calloc((size_t)(n ? n : 1), sizeof *x->rows);
        for (int i = 0; x->rows && i < n; i++) {
            const live_row *old = NULL; /* only the refreshing thread changes l->rows */
            for (int k = 0; k < l->n; k++)
                if (l->rows[k].b.id == b[i].id)
                    old = &l->rows[k];
            fill(s, cfg->db, &b[i], held[i], old, &x->rows[i]);
        }
        x->n = n;
        x->json = x->rows ? to_json(x->rows, n) : NULL;
        rc = x->json ? 0 : -1;
        if (rc)
            snprintf(err, errlen, "out of memory");
    } else
        snprintf(err, errlen, "%s: %s", cfg->db, store_error(s));
    store_close(s);
    free(b);
    if (rc) {
        free(x->rows);
        free(x->recent);
        free(x->json);
    }
    return rc;
}

/* Makes the state at most a second old (l->lock held): one thread reads it again while the others go on with the
 * one they have (or, before there is any, wait for it). 0, or -1 with err when there is none. */
static int refresh(ws_live *l, const ws_config *cfg, char *err, size_t errlen)
{
    while (l->at == 0 && l->refreshing)
        pthread_cond_wait(&l->done, &l->lock);
    if (l->at > 0 && (l->refreshing || monotonic() - l->at < 1.0))
        return 0;
    l->refreshing = true;
    pthread_mutex_unlock(&l->lock);
    live_state x;
    int rc = read_state(l, cfg, &x, err, errlen);
    pthread_mutex_lock(&l->lock);
    l->refreshing = false;
    pthread_cond_broadcast(&l->done);
    if (rc != 0)
        return l->at > 0 ? 0 : -1; /* the state of a second ago, when there is one */
    unsigned long h = 5381;
    for (const char *p = x.json; *p; p++)
        h = h * 33 + (unsigned char)*p;
    free(l->rows);
    free(l->json);
    free(l->recent);
    l->rows = x.rows;
    l->n = x.n;
    l->json = x.json;
    l->recent = x.recent;
    l->n_recent = x.n_recent;
    l->newest = x.newest;
    l->has_newest = x.has_newest;
    l->serial = (long)(h & 0x7fffffffL);
    l->at = monotonic();
    return 0;
}

char *ws_live_json(ws_live *l, const ws_config *cfg, long *serial, char *err, size_t errlen)
{
    pthread_mutex_lock(&l->lock);
    char *json = refresh(l, cfg, err, errlen) == 0 ? strdup(l->json) : NULL;
    *serial = l->serial;
    pthread_mutex_unlock(&l->lock);
    return json;
}

static void eta_text(double s, char *out, size_t n)
{
    if (!isfinite(s))
        snprintf(out, n, "?");
    else if (s < 90)
        snprintf(out, n, "%.0f s", s);
    else if (s < 5400)
        snprintf(out, n, "%.0f min", s / 60);
    else
        snprintf(out, n, "%.1f h", s / 3600);
}

/* One row of the table (the script draws the same cells from the feed). */
static void table_row(tb_table *t, const live_row *x)
{
    char href[64], text[400];
    tb_row(t);
    snprintf(href, sizeof href, "/league/%lld", (long long)x->b.id);
    tb_set(t, 0, "%s", x->b.name);
    tb_link(t, 0, href);
    tb_set(t, 1, "%ld / %ld", x->b.played, x->b.planned - x->b.skipped);
    if (!x->running)
        snprintf(text, sizeof text, "stopped");
    else if (isfinite(x->idle_s) && x->idle_s > IDLE_SHOWN_S)
        snprintf(text, sizeof text, "no game for %.0f min", x->idle_s / 60);
    else
        eta_text(x->eta_s, text, sizeof text);
    tb_set(t, 2, "%s", text);
    tb_set(t, 3, "%ld", x->b.forfeits);
    size_t k = 0;
    text[0] = '\0';
    for (int i = 0; i < x->n_leaders && k < sizeof text; i++)
        k += (size_t)snprintf(text + k, sizeof text - k, "%s%s %.0f", i ? ", " : "", x->leader[i], x->elo[i]);
    tb_set(t, 4, "%s", text);
    k = 0;
    text[0] = '\0';
    for (int i = 0; i < x->n_sprt && k < sizeof text; i++)
        k += (size_t)snprintf(text + k, sizeof text - k, "%s%s-%s %.2f [%.2f, %.2f]", i ? "; " : "", x->tests[i].a,
                              x->tests[i].b, x->tests[i].llr, x->tests[i].lower, x->tests[i].upper);
    tb_set(t, 5, "%s", x->sprt ? text : "");
}

/* The state, at most a second old, with its lock held (the caller unlocks); NULL when there is none. */
static ws_live *fresh(ws_req *q, char *err, size_t errlen)
{
    ws_live *l = q->live;
    pthread_mutex_lock(&l->lock);
    if (refresh(l, q->cfg, err, errlen) != 0) {
        pthread_mutex_unlock(&l->lock);
        return NULL;
    }
    return l;
}

/* A table of n columns named heads, those of bit c in `right` right-aligned. */
static void columns(tb_table *t, const char *title, const char *const *heads, int n, unsigned right)
{
    tb_init(t, title, n);
    for (int c = 0; c < n; c++)
        tb_column(t, c, heads[c], right >> c & 1u);
}

int ws_live_section(ws_req *q, doc *d, int64_t only, char *err, size_t errlen)
{
    ws_live *l = fresh(q, err, errlen);
    if (!l)
        return 503;
    tb_table t;
    static const char *const heads[] = { "league", "games", "ETA", "forfeits", "leaders (Elo)", "SPRT LLR [bounds]" };
    columns(&t, "running leagues", heads, 6, 1u << 1 | 1u << 3);
    int shown = 0, stopped = 0;
    for (int i = 0; i < l->n; i++)
        if (only <= 0 || l->rows[i].b.id == only) {
            table_row(&t, &l->rows[i]);
            shown++;
            stopped += !l->rows[i].running;
        }
    pthread_mutex_unlock(&l->lock);
    q->script = true;
    if (!shown) { /* an empty place, no heading nor table: the script draws them when a league starts */
        tb_free(&t);
        doc_section_add(d, "live", "", NULL);
        return 0;
    }
    doc_section_add(d, "live", "Running now", "live");
    doc_para(d, "note", "Updated live while this page is open.%s",
             stopped ? " Stopped: games left to play but no coordinator playing them (it was killed or interrupted); "
                       "run the same arena league command to finish them." : "");
    doc_table(d, &t);
    return 0;
}

int ws_recent_section(ws_req *q, doc *d, store_league_brief *newest, bool *has_newest, char *err, size_t errlen)
{
    ws_live *l = fresh(q, err, errlen);
    if (!l)
        return 503;
    tb_table t;
    static const char *const heads[] = { "league", "name", "night", "games", "forfeits", "last game" };
    columns(&t, "newest leagues", heads, 6, 1u << 0 | 1u << 4);
    char href[64];
    for (int i = 0; i < l->n_recent; i++) {
        const store_league_brief *b = &l->recent[i];
        tb_row(&t);
        snprintf(href, sizeof href, "/league/%lld", (long long)b->id);
        tb_set(&t, 0, "%lld", (long long)b->id);
        tb_link(&t, 0, href);
        tb_set(&t, 1, "%s", b->name);
        tb_link(&t, 1, href);
        tb_set(&t, 2, "%s", b->night);
        tb_set(&t, 3, "%ld / %ld", b->played, b->planned - b->skipped);
        tb_set(&t, 4, "%ld", b->forfeits);
        tb_set(&t, 5, "%s", b->last_finished);
    }
    *newest = l->newest;
    *has_newest = l->has_newest;
    pthread_mutex_unlock(&l->lock);
    doc_section_add(d, "leagues", "Leagues", "leagues");
    doc_table(d, &t);
    return 0;
}

/* Draws the feed's leagues into the "live" section's table (only this league's on a league page), every text
 * as text (never markup); each row carries data-league, data-played and data-first-played (its count in the first
 * event this page got). A page served with no league running has the section empty: its heading, note and table
 * (the columns of ws_live_section's) are made when the first league appears. */
const char ws_live_script[] =
    "<script>\n"
    "(function () {\n"
    "  var sec = document.getElementById('live');\n"
    "  if (!sec || !window.EventSource) return;\n"
    "  var m = location.pathname.match(/^\\/league\\/(\\d+)/), only = m ? Number(m[1]) : 0, updates = 0, first = {};\n"
    "  function eta(s) {\n"
    "    if (s === null) return '?';\n"
    "    if (s < 90) return Math.round(s) + ' s';\n"
    "    return s < 5400 ? Math.round(s / 60) + ' min' : (s / 3600).toFixed(1) + ' h';\n"
    "  }\n"
    "  function cell(tr, text, href, num) {\n"
    "    var td = document.createElement('td');\n"
    "    if (num) td.className = 'num';\n"
    "    if (href) { var a = document.createElement('a'); a.href = href; a.textContent = text; td.appendChild(a); }\n"
    "    else td.textContent = text;\n"
    "    tr.appendChild(td);\n"
    "  }\n"
    "  function make(tag, text, parent) {\n"
    "    var e = document.createElement(tag);\n"
    "    if (text !== null) e.textContent = text;\n"
    "    parent.appendChild(e);\n"
    "    return e;\n"
    "  }\n"
    "  function shell() {\n"
    "    make('h2', 'Running now', sec);\n"
    "    make('p', '', sec).className = 'note';\n"
    "    var div = make('div', null, sec);\n"
    "    div.className = 'scroll';\n"
    "    var table = make('table', null, div), tr;\n"
    "    make('caption', 'running leagues', table);\n"
    "    tr = make('tr', null, table);\n"
    "    ['league', 'games', 'ETA', 'forfeits', 'leaders (Elo)', 'SPRT LLR [bounds]'].forEach(function (h, i) {\n"
    "      var th = make('th', h, tr);\n"
    "      if (i === 1 || i === 3) th.className = 'num';\n"
    "    });\n"
    "    return table;\n"
    "  }\n"
    "  function draw(d) {\n"
    "    sec.setAttribute('data-updates', ++updates);\n"
    "    var table = sec.querySelector('table'), note;\n"
    "    if (!table && !d.leagues.some(function (l) { return !only || l.id === only; })) return;\n"
    "    if (!table) table = shell();\n"
    "    note = sec.querySelector('p.note');\n"
    "    var rows = table.querySelectorAll('tr'), parent = rows.length ? rows[0].parentNode : table;\n"
    "    for (var i = 1; i < rows.length; i++) rows[i].parentNode.removeChild(rows[i]);\n"
    "    var n = 0;\n"
    "    d.leagues.forEach(function (l) {\n"
    "      if (only && l.id !== only) return;\n"
    "      var tr = document.createElement('tr');\n"
    "      tr.setAttribute('data-league', l.id);\n"
    "      tr.setAttribute('data-running', l.running ? 'yes' : 'no');\n"
    "      if (!(l.id in first)) first[l.id] = l.played;\n"
    "      tr.setAttribute('data-played', l.played);\n"
    "      tr.setAttribute('data-first-played', first[l.id]);\n"
    "      cell(tr, l.name, '/league/' + l.id);\n"
    "      cell(tr, l.played + ' / ' + (l.planned - l.skipped), null, true);\n"
    "      cell(tr, !l.running ? 'stopped' : l.idle_s !== null && l.idle_s > 60 ?\n"
    "        'no game for ' + Math.round(l.idle_s / 60) + ' min' : eta(l.eta_s));\n"
    "      cell(tr, String(l.forfeits), null, true);\n"
    "      cell(tr, l.leaders.map(function (x) { return x.name + ' ' + Math.round(x.elo); }).join(', '));\n"
    "      cell(tr, l.sprt ? l.sprt.map(function (t) { return t.a + '-' + t.b + ' ' + t.llr.toFixed(2) +\n"
    "        ' [' + t.lower.toFixed(2) + ', ' + t.upper.toFixed(2) + ']'; }).join('; ') : '');\n"
    "      parent.appendChild(tr);\n"
    "      n++;\n"
    "    });\n"
    "    if (note) note.textContent = n ? 'Updated live while this page is open.' : 'No league is running now.';\n"
    "  }\n"
    "  var es = new EventSource('/events');\n"
    "  es.onmessage = function (ev) { try { draw(JSON.parse(ev.data)); } catch (e) { } };\n"
    "})();\n"
    "</script>\n";
