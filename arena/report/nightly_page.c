/* arena/report/nightly_page.c — the nightly page of a league as a document: its title and facts, the
 * sections in order and the warnings they raise (contract in nightly.h, ng_page). The page reads as a morning
 * summary: warnings naming agent and cause, a leaderboard per variant and board with the change since the
 * previous night and whether it is significant, forfeits by agent; then the pooled ratings, head-to-head, the
 * win matrices (heatmaps, tables folded), history, time use and repeats; run settings and agents folded last. */
#include "nightly.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "die.h"
#include "figures.h"
#include "mode.h"
#include "svgfig.h"
#include "variant.h"

/* Share of a pairing's games that repeat an earlier game move for move above which the page warns. */
#define REPEAT_WARN 0.10
/* Half-width of a two-sided 95% normal interval, in standard errors; a change beyond it is significant. */
#define Z95 1.959964
/* Hex digits of a hash the HTML page shows (the whole value on demand). */
#define HASH_SHOWN 12

/* v in whole Elo with its sign, "0" (never "-0" or "+0") when it rounds to zero. */
static const char *ng_num(char out[32], double v)
{
    if (fabs(v) < 0.5)
        snprintf(out, 32, "0");
    else
        snprintf(out, 32, "%+.0f", v);
    return out;
}

/* ---- links: where a name leads (ng_links) ---- */

/* The link of player i of report r (an agent's page), NULL when agents are not linked. */
static const char *agent_href(const ng_night *p, const st_report *r, int i, char *buf, size_t n)
{
    if (!p->links.agent || i < 0)
        return NULL;
    snprintf(buf, n, p->links.agent, (long long)r->players[i].id);
    return buf;
}

static const char *pairing_href(const ng_night *p, int a, int b, char *buf, size_t n)
{
    if (!p->links.pairing || a < 0 || b < 0)
        return NULL;
    snprintf(buf, n, p->links.pairing, (long long)p->r->players[a].id, (long long)p->r->players[b].id);
    return buf;
}

/* The link of game `game`: its viewer (on disk only when the report wrote its page). */
static const char *game_href(const ng_night *p, long long game, char *buf, size_t n)
{
    if (!p->links.game)
        return NULL;
    snprintf(buf, n, p->links.game, game);
    if (p->links.game_files) {
        char path[PATH_MAX + 300];
        snprintf(path, sizeof path, "%s/%s", p->out, buf);
        if (access(path, R_OK) != 0)
            return NULL;
    }
    return buf;
}

/* "league ID" at the end of line l, linked to the league's page when leagues are linked. */
static void league_span(const ng_night *p, doc_line *l, int64_t id)
{
    char text[48], href[96];
    snprintf(text, sizeof text, "league %lld", (long long)id);
    if (p->links.league)
        snprintf(href, sizeof href, p->links.league, (long long)id);
    doc_span_add(l, text, p->links.league ? href : NULL);
}

/* The player of this league named `name` (as the tables show it), -1 for none. */
static int player_named(const ng_night *p, const char *name)
{
    for (int i = 0; i < p->r->n_players; i++)
        if (strcmp(p->r->players[i].name, name) == 0)
            return i;
    return -1;
}

/* Links every cell of column `col` that names a player of the league to its agent's page. */
static void link_column(const ng_night *p, tb_table *t, int col)
{
    char href[96];
    for (int row = 0; p->links.agent && row < t->rows; row++) {
        const char *cell = t->cells[row * t->cols + col];
        int i = cell ? player_named(p, cell) : -1;
        if (i >= 0) {
            int saved = t->rows; /* tb_link links the newest row: make it this one */
            t->rows = row + 1;
            tb_link(t, col, agent_href(p, p->r, i, href, sizeof href));
            t->rows = saved;
        }
    }
}

/* Links the columns of t whose heading names agents ("name", "agent", "opponent"). */
static void link_names(const ng_night *p, tb_table *t)
{
    for (int c = 0; c < t->cols; c++)
        if (t->head[c] && (strcmp(t->head[c], "name") == 0 || strcmp(t->head[c], "agent") == 0 ||
                           strcmp(t->head[c], "opponent") == 0))
            link_column(p, t, c);
}

/* ---- figures: inline SVG (svgfig.h), the same on the server and on disk ---- */

/* The drawing of fit x of group g (pooled when g < 0) of report r. */
static char *ratings_svg(const ng_night *p, const st_report *r, int g, const st_selection *x)
{
    const char *names[ST_MAX_PLAYERS], *href[ST_MAX_PLAYERS];
    double elo[ST_MAX_PLAYERS], lo[ST_MAX_PLAYERS], hi[ST_MAX_PLAYERS];
    static char links[ST_MAX_PLAYERS][96];
    for (int k = 0; k < x->m; k++) {
        int i = x->rank[k];
        names[k] = r->players[i].name;
        href[k] = agent_href(p, r, i, links[k], sizeof links[k]);
        elo[k] = x->f.elo[i];
        lo[k] = x->f.resamples ? x->f.lo[i] : NAN;
        hi[k] = x->f.resamples ? x->f.hi[i] : NAN;
    }
    const char *anchor = x->anchor >= 0 ? r->players[x->anchor].name : "pool mean";
    char title[300], caption[600], a[32], b[32], c[32];
    snprintf(title, sizeof title, "Elo, %s (%ld games)", g < 0 ? "pooled" : r->groups[g].name, x->total);
    if (g < 0)
        snprintf(caption, sizeof caption, "one first-move advantage per variant and board; anchor: %s", anchor);
    else if (x->f.resamples)
        snprintf(caption, sizeof caption, "first-move advantage %s Elo (95%%: %s to %s); anchor: %s",
                 ng_num(a, x->f.adv[0]), ng_num(b, x->f.adv_lo[0]), ng_num(c, x->f.adv_hi[0]), anchor);
    else
        snprintf(caption, sizeof caption, "first-move advantage %s Elo; anchor: %s", ng_num(a, x->f.adv[0]), anchor);
    return sv_ratings(title, caption, x->m, names, elo, lo, hi, href);
}

/* An inline drawing (taken: freed here), described as alt, with `file` (NAME) the same figure drawn by gnuplot
 * when the report wrote it (Markdown shows that); left out when it could not be drawn. */
static bool svg_block(const ng_night *p, doc *d, char *svg, const char *alt, const char *file)
{
    if (!svg)
        return false;
    char path[PATH_MAX + 300];
    snprintf(path, sizeof path, "%s/%s.svg", p->out, file);
    doc_svg_file(d, svg, alt, access(path, R_OK) == 0 ? file : NULL);
    free(svg);
    return true;
}

/* The file name of group g's figure PREFIX-VARIANT-RxC. */
static const char *group_file(const ng_night *p, int g, const char *prefix, char *out, size_t n)
{
    fg_group_file(out, n, prefix, p->r->groups[g].variant, p->r->groups[g].board);
    return out;
}

/* The change of one agent's Elo between two independent fits (this night's e1 in [lo1, hi1], the previous
 * night's e0 in [lo0, hi0], 95% intervals): "+38 ± 47 (not significant)", the interval that of the difference
 * (z = d / sqrt(se1² + se0²), each se from its interval), significant when |z| > 1.96. *z is NaN without
 * intervals (the text is then the change alone). */
static void change_text(double e1, double lo1, double hi1, double e0, double lo0, double hi0, char *out, size_t n,
                        double *z)
{
    double d = e1 - e0, se1 = (hi1 - lo1) / (2 * Z95), se0 = (hi0 - lo0) / (2 * Z95), se = sqrt(se1 * se1 + se0 * se0);
    *z = NAN;
    if (!isfinite(se) || se <= 0) {
        snprintf(out, n, "%+.0f", d);
        return;
    }
    *z = d / se;
    snprintf(out, n, "%+.0f \u00b1 %.0f (%s)", d, Z95 * se, fabs(*z) > Z95 ? "significant" : "not significant");
}

/* The previous league's index among p->pr's leagues (its history holds the whole series), -1 for none. */
static int prev_league(const ng_night *p)
{
    if (!p->have_prev)
        return -1;
    for (int l = p->pr->n_leagues - 1; l >= 0; l--)
        if (p->pr->leagues[l].id == p->prev)
            return l;
    return -1;
}

/* The previous night's fit of the group named like this night's group g (every group when g < 0), with
 * intervals. Returns false, holding nothing, when it has no games there. */
static bool prev_fit(ng_night *p, int g, st_selection *y)
{
    int l = prev_league(p), gp = -1;
    if (l < 0)
        return false;
    for (int k = 0; g >= 0 && k < p->pr->n_groups; k++)
        if (strcmp(p->pr->groups[k].name, p->r->groups[g].name) == 0)
            gp = k;
    if (g >= 0 && gp < 0)
        return false;
    int saved = p->pr->bootstrap;
    p->pr->bootstrap = p->bootstrap;
    bool ok = st_fit(p->pr, gp, l, y);
    p->pr->bootstrap = saved;
    return ok;
}

/* The player of fit y (of report pr) named `name`: its index, and its rank (1-based) in *rank; -1 for none. */
static int find_player(const st_report *pr, const st_selection *y, const char *name, int *rank)
{
    for (int q = 0; q < y->m; q++)
        if (strcmp(pr->players[y->rank[q]].name, name) == 0) {
            *rank = q + 1;
            return y->rank[q];
        }
    return -1;
}

static void settings_section(ng_night *p, doc *d)
{
    doc_section_add(d, "settings", "Run settings", "settings")->folded = true;
    tb_table t;
    tb_init(&t, "settings", 2);
    tb_column(&t, 0, "setting", false);
    tb_column(&t, 1, "value", false);
    tb_column_hash(&t, 1, HASH_SHOWN);
#define ROW(k, ...) (tb_row(&t), tb_set(&t, 0, "%s", k), tb_set(&t, 1, __VA_ARGS__))
    const store_league_facts *f = &p->facts;
    ROW("league", "%lld '%s'", (long long)f->id, f->name);
    ROW("night", "%s", p->night);
    ROW("arena version", "%s", p->version);
    ROW("seed", "%llu", (unsigned long long)f->seed);
    ROW("config SHA-256", "%s", f->config_sha256);
    ROW("games", "%ld played of %ld planned (%ld skipped by SPRT)", f->played, f->planned, f->skipped);
    ROW("sittings", "%ld", f->runs);
    ROW("first game started", "%s", f->first_started);
    ROW("last game finished", "%s", f->last_finished);
    if (p->have_cfg) {
        const cfg_league *c = &p->cfg;
        ROW("mode", "%s", c->mode->name);
        char list[512] = "";
        for (int v = 0; v < HX_VARIANT_COUNT; v++)
            if (c->games.variants & (1u << v))
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", list[0] ? ", " : "",
                         hx_variant_name((hx_variant)v));
        ROW("variants", "%s", list);
        list[0] = '\0';
        for (int b = 0; b < c->games.n_boards; b++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%dx%d", list[0] ? ", " : "",
                     c->games.boards[b][0], c->games.boards[b][1]);
        ROW("boards", "%s", list[0] ? list : "as the agents announce");
        ROW("games per pairing", "%d per variant and board", c->per_pairing);
        ROW("time per move", "%u ms", c->move_ms);
        ROW("concurrency", "%d games at once", c->concurrency);
        ROW("openings", "%s%s", c->openings, strcmp(c->openings, "random") == 0 ? "" : "");
        if (strcmp(c->openings, "random") == 0)
            ROW("opening stones", "%d", c->opening_stones);
        ROW("swap rule", "%s", c->swap ? "on (hex, square boards)" : "off");
        ROW("sandbox", "%s", c->sandbox ? "on" : "off by default (see the agents)");
    } else
        ROW("config", "%s", "the stored config does not parse with this arena; its text is below");
#undef ROW
    doc_table(d, &t);
    doc_fold(d, "config file", p->facts.config);
}

static void agents_section(ng_night *p, doc *d)
{
    doc_section_add(d, "agents", "Agents", "agents")->folded = true;
    tb_table t;
    tb_init(&t, "agents of this league", 9);
    static const char *const head[] = { "name", "version", "command", "sha256", "sandbox", "games", "forfeits",
                                        "first seen", "new agent because" };
    for (int c = 0; c < 9; c++)
        tb_column(&t, c, head[c], c == 5 || c == 6);
    tb_column_hash(&t, 3, HASH_SHOWN);
    for (int k = 0; k < p->pooled.m; k++) {
        int i = p->pooled.rank[k];
        const ng_agent *a = &p->agents[i];
        tb_row(&t);
        tb_set(&t, 0, "%s", p->r->players[i].name);
        tb_set(&t, 1, "%s", a->info.version);
        tb_set(&t, 2, "%s", a->info.command);
        tb_set(&t, 3, "%s", a->info.sha256);
        tb_set(&t, 4, "%s", a->unsandboxed ? "OFF" : "on");
        tb_set(&t, 5, "%ld", p->pooled.games[i]);
        tb_set(&t, 6, "%ld", a->forfeit_total);
        tb_set(&t, 7, "%s", a->info.first_seen);
        tb_set(&t, 8, "%s", a->changed);
    }
    link_names(p, &t);
    doc_table(d, &t);
}

/* Whether some agents missed variants and boards that others played; `out` names them ("pone: 2 of 6 variants
 * and boards; cfr: 4 of 6"). */
static bool subsets(const ng_night *p, char *out, size_t n)
{
    const st_report *r = p->r;
    static bool played[ST_MAX_PLAYERS][ST_MAX_GROUPS];
    memset(played, 0, sizeof played);
    for (long i = 0; i < r->n_results; i++) {
        played[r->results[i].black][r->results[i].group] = true;
        played[r->results[i].white][r->results[i].group] = true;
    }
    out[0] = '\0';
    bool any = false;
    for (int k = 0; k < p->pooled.m; k++) {
        int i = p->pooled.rank[k], c = 0;
        for (int g = 0; g < r->n_groups; g++)
            c += played[i][g];
        if (c == r->n_groups)
            continue;
        size_t len = strlen(out);
        if (len + 80 < n)
            snprintf(out + len, n - len, "%s%s: %d of %d variants and boards", any ? "; " : "", r->players[i].name, c,
                     r->n_groups);
        any = true;
    }
    return any;
}

static void ratings_section(ng_night *p, doc *d)
{
    st_report *r = p->r;
    doc_section_add(d, "ratings", "Pooled ratings", "pooled");
    doc_para(d, NULL, "Bradley-Terry Elo with a first-move advantage per variant and board, pooled over the league's "
                  "games; 95%% intervals and LOS from %d bootstrap resamples (docs/ratings.md).",
         p->bootstrap);
    char missed[600];
    if (subsets(p, missed, sizeof missed))
        doc_para(d, "warning", "The agents did not all play the same variants and boards (%s): the pooled Elo compares "
                             "them only through the opponents they share. Read the leaderboards by variant and board "
                             "first.",
                 missed);
    else
        doc_para(d, "note", "Every agent played every variant and board of the league.");
    tb_table t;
    st_ratings_table(r, -1, &p->pooled, &t);
    t.caveat = &r->caveat;
    link_names(p, &t);
    bool drawn = svg_block(p, d, ratings_svg(p, r, -1, &p->pooled), "pooled ratings with 95% intervals",
                           "ratings-pooled");
    if (drawn)
        doc_table_folded(d, &t, "table: pooled ratings");
    else
        doc_table(d, &t);
    tb_init(&t, "first-move advantage by variant and board", 5);
    static const char *const head[] = { "variant", "board", "elo", "lower", "upper" };
    for (int c = 0; c < 5; c++)
        tb_column(&t, c, head[c], c >= 2);
    for (int g = 0; g < r->n_groups; g++) {
        tb_row(&t);
        tb_set(&t, 0, "%s", r->groups[g].variant);
        tb_set(&t, 1, "%s", r->groups[g].board);
        tb_set_real(&t, 2, p->pooled.f.adv[g], 0);
        if (p->pooled.f.resamples) {
            tb_set_real(&t, 3, p->pooled.f.adv_lo[g], 0);
            tb_set_real(&t, 4, p->pooled.f.adv_hi[g], 0);
        }
    }
    doc_table(d, &t);
}

static void changes_section(ng_night *p, doc *d)
{
    doc_section_add(d, "changes", "Pooled change since the previous night", "change");
    static st_selection y;
    if (!prev_fit(p, -1, &y)) {
        doc_para(d, NULL, "No earlier league named '%s' has games: nothing to compare with.", p->facts.name);
        return;
    }
    doc_line *l = doc_para(d, NULL, "Against ");
    league_span(p, l, p->prev);
    char rest[400];
    snprintf(rest, sizeof rest, " (night %s): pooled Elo of each league on its own games, matched by name; the "
                                "change \u00b1 the 95%% interval of the difference of the two estimates, significant "
                                "when |z| > 1.96.",
             p->pr->leagues[0].night[0] ? p->pr->leagues[0].night : "?");
    doc_span_add(l, rest, NULL);
    tb_table t;
    tb_init(&t, "change since the previous night", 8);
    static const char *const head[] = { "name", "elo", "previous", "change", "rank", "previous rank", "significance",
                                        "z" };
    for (int c = 0; c < 8; c++)
        tb_column(&t, c, head[c], c >= 1 && c != 6);
    tb_column_csv(&t, 7, NULL, true);
    const st_selection *x = &p->pooled;
    for (int k = 0; k < x->m; k++) {
        int i = x->rank[k], prev_rank = 0, j = find_player(p->pr, &y, p->r->players[i].name, &prev_rank);
        tb_row(&t);
        tb_set(&t, 0, "%s", p->r->players[i].name);
        tb_set_real(&t, 1, x->f.elo[i], 0);
        if (j >= 0) {
            char text[80];
            double z;
            change_text(x->f.elo[i], x->f.lo[i], x->f.hi[i], y.f.elo[j], y.f.lo[j], y.f.hi[j], text, sizeof text, &z);
            tb_set_real(&t, 2, y.f.elo[j], 0);
            tb_set(&t, 3, "%+.0f", x->f.elo[i] - y.f.elo[j]);
            tb_set(&t, 5, "%d", prev_rank);
            tb_set(&t, 6, "%s", strchr(text, ' ') ? strchr(text, ' ') + 1 : "");
            tb_set_real(&t, 7, z, 2);
        } else
            tb_set(&t, 3, "%s", "new");
        tb_set(&t, 4, "%d", k + 1);
    }
    for (int q = 0; q < y.m; q++) { /* agents of the previous night that did not play tonight */
        int j = y.rank[q], here = 0;
        if (find_player(p->r, x, p->pr->players[j].name, &here) >= 0)
            continue;
        tb_row(&t);
        tb_set(&t, 0, "%s", p->pr->players[j].name);
        tb_set_real(&t, 2, y.f.elo[j], 0);
        tb_set(&t, 3, "%s", "absent");
        tb_set(&t, 5, "%d", q + 1);
    }
    st_selection_free(&y);
    link_names(p, &t);
    doc_table(d, &t);
}

static void head_to_head_section(ng_night *p, doc *d)
{
    st_report *r = p->r;
    const st_selection *x = &p->pooled;
    int n = r->n_players;
    long *games = calloc((size_t)n * (size_t)n, sizeof *games), *wins = calloc((size_t)n * (size_t)n, sizeof *wins);
    if (!games || !wins)
        die_fail(p->cmd, "out of memory");
    for (long i = 0; i < r->n_results; i++) { /* [a * n + b]: a's games and wins against b, either colour */
        const st_result *y = &r->results[i];
        int a = y->black, b = y->white;
        games[a * n + b]++, games[b * n + a]++;
        wins[(y->winner == HX_BLACK ? a : b) * n + (y->winner == HX_BLACK ? b : a)]++;
    }
    doc_section_add(d, "head-to-head", "Head-to-head", "head-to-head");
    doc_para(d, NULL, "Every pair that met, both colours and every variant and board together, the better rated first. "
                  "Elo difference and LOS (likelihood that the first is the stronger) from the pooled fit.");
    tb_table t;
    tb_init(&t, "head-to-head", 8);
    static const char *const head[] = { "agent", "opponent", "games", "wins", "losses", "score%", "elo diff",
                                        "los%" };
    for (int c = 0; c < 8; c++)
        tb_column(&t, c, head[c], c >= 2);
    for (int k = 0; k < x->m; k++)
        for (int q = k + 1; q < x->m; q++) {
            int a = x->rank[k], b = x->rank[q];
            long g = games[a * n + b];
            if (!g)
                continue;
            tb_row(&t);
            tb_set(&t, 0, "%s", r->players[a].name);
            tb_set(&t, 1, "%s", r->players[b].name);
            tb_set(&t, 2, "%ld", g);
            char href[96];
            if (pairing_href(p, a, b, href, sizeof href))
                tb_link(&t, 2, href);
            tb_set(&t, 3, "%ld", wins[a * n + b]);
            tb_set(&t, 4, "%ld", wins[b * n + a]);
            tb_set_real(&t, 5, 100.0 * (double)wins[a * n + b] / (double)g, 1);
            tb_set_real(&t, 6, x->f.elo[a] - x->f.elo[b], 0);
            if (x->f.resamples)
                tb_set_real(&t, 7, 100.0 * rt_los(&x->f, n, a, b), 1);
        }
    free(games);
    free(wins);
    link_names(p, &t);
    doc_table(d, &t);
}

static void matrices_section(ng_night *p, doc *d)
{
    st_report *r = p->r;
    doc_section_add(d, "matrices", "Win matrices", "matrices");
    doc_para(d, NULL, "Rows move first (Black), columns second (White), both in the order of that variant and board's "
                  "ratings; each cell is the row's wins-losses, so it says how many games it rests on. Each heatmap's "
                  "table is folded under it.");
    for (int g = 0; g < r->n_groups; g++) {
        int order[ST_MAX_PLAYERS], m = st_order(r, g, order);
        if (!m)
            continue;
        long *w = calloc((size_t)m * (size_t)m, sizeof *w), *games = calloc((size_t)m * (size_t)m, sizeof *games);
        if (!w || !games)
            die_fail(p->cmd, "out of memory");
        st_counts(r, g, order, m, w, games);
        tb_table t;
        st_matrix_table(r, g, order, m, w, games, false, &t);
        t.caveat = &r->caveat;
        link_column(p, &t, 0);
        const char *names[ST_MAX_PLAYERS], **name_href = calloc((size_t)m, sizeof *name_href),
                   **cell_href = calloc((size_t)m * (size_t)m, sizeof *cell_href);
        char(*links)[96] = calloc((size_t)m * (size_t)m + (size_t)m, sizeof *links);
        if (!name_href || !cell_href || !links)
            die_fail(p->cmd, "out of memory");
        for (int a = 0; a < m; a++) {
            names[a] = r->players[order[a]].name;
            name_href[a] = agent_href(p, r, order[a], links[m * m + a], sizeof links[0]);
            for (int c = 0; c < m; c++) {
                if (a == c || games[a * m + c] == 0)
                    continue;
                cell_href[a * m + c] = pairing_href(p, order[a], order[c], links[a * m + c], sizeof links[0]);
                if (cell_href[a * m + c]) { /* the table's cell too */
                    int saved = t.rows;
                    t.rows = a + 1;
                    tb_link(&t, c + 1, cell_href[a * m + c]);
                    t.rows = saved;
                }
            }
        }
        long total = 0;
        for (int k = 0; k < m * m; k++)
            total += games[k];
        char title[300], summary[200];
        snprintf(title, sizeof title, "Win matrix, %s (%ld games)", r->groups[g].name, total);
        snprintf(summary, sizeof summary, "table: win matrix, %s", r->groups[g].name);
        char file[128];
        if (svg_block(p, d, sv_matrix(title, m, names, w, games, name_href, cell_href),
                      "colour: the row's score, from red (0%) through white (50%) to blue (100%)",
                      group_file(p, g, "matrix-", file, sizeof file)))
            doc_table_folded(d, &t, summary);
        else
            doc_table(d, &t);
        free(w);
        free(games);
        free(name_href);
        free(cell_href);
        free(links);
    }
}

/* The full ratings table of each group (from the leaderboards' fits, full[g]; rows 0 when it has none), under
 * its figure. */
static void variants_section(ng_night *p, doc *d, tb_table *full, char **svg)
{
    st_report *r = p->r;
    doc_section_add(d, "variants", "Ratings by variant and board", "by variant");
    doc_para(d, NULL, "The leaderboards' fits in full: intervals, scores as Black and as White, LOS over the next "
                  "agent; each figure's table is folded under it.");
    for (int g = 0; g < r->n_groups; g++) {
        if (!full[g].cols)
            continue;
        char summary[200];
        snprintf(summary, sizeof summary, "table: ratings, %s", r->groups[g].name);
        link_names(p, &full[g]);
        char file[128];
        if (svg_block(p, d, svg[g], "points: Elo; bars: 95% intervals", group_file(p, g, "ratings-", file, sizeof file)))
            doc_table_folded(d, &full[g], summary);
        else
            doc_table(d, &full[g]);
        svg[g] = NULL;
    }
}

/* One group's leaderboard: rank, agent, elo, +- (the 95% interval's half-width), games and the change since the previous night's fit y of the same
 * group (have_y), "new" for an agent it did not rate. */
static void leaderboard(ng_night *p, tb_table *out, int g, const st_selection *x, const st_selection *y, bool have_y,
                        char *sig, size_t siglen)
{
    tb_table t;
    tb_init(&t, p->r->groups[g].name, 8);
    static const char *const head[] = { "rank", "agent", "elo", "+-", "games", "change", "change_elo", "z" };
    static const char *const csv[] = { "rank", "name", "elo", "plus_minus", "games", "change", "change_elo", "z" };
    for (int c = 0; c < 8; c++) {
        tb_column(&t, c, head[c], c != 1 && c != 5);
        tb_column_csv(&t, c, csv[c], c >= 6);
    }
    tb_key_set(&t, "variant", p->r->groups[g].variant);
    tb_key_set(&t, "board", p->r->groups[g].board);
    for (int k = 0; k < x->m; k++) {
        int i = x->rank[k], prev_rank = 0;
        tb_row(&t);
        tb_set(&t, 0, "%d", k + 1);
        tb_set(&t, 1, "%s", p->r->players[i].name);
        tb_set_real(&t, 2, x->f.elo[i], 0);
        tb_set_real(&t, 3, (x->f.hi[i] - x->f.lo[i]) / 2, 0);
        tb_set(&t, 4, "%ld", x->games[i]);
        int j = have_y ? find_player(p->pr, y, p->r->players[i].name, &prev_rank) : -1;
        if (i == x->anchor) { /* rated 0 by definition: the others' changes are against it */
            tb_set(&t, 5, "%s", "anchor (0)");
            continue;
        }
        if (j < 0) {
            tb_set(&t, 5, "%s", have_y ? "new" : "");
            continue;
        }
        char text[80];
        double z;
        change_text(x->f.elo[i], x->f.lo[i], x->f.hi[i], y->f.elo[j], y->f.lo[j], y->f.hi[j], text, sizeof text, &z);
        tb_set(&t, 5, "%s", text);
        tb_set_real(&t, 6, x->f.elo[i] - y->f.elo[j], 0);
        tb_set_real(&t, 7, z, 2);
        size_t len = strlen(sig);
        const char *verdict = strstr(text, " (");
        if (fabs(z) > Z95 && verdict && len + 200 < siglen) /* "bridge on abrupt 3x3 (-474 ± 362)" */
            snprintf(sig + len, siglen - len, "%s%s on %s (%.*s)", len ? "; " : "", p->r->players[i].name,
                     p->r->groups[g].name, (int)(verdict - text), text);
    }
    t.caveat = &p->r->caveat;
    *out = t;
}

/* A leaderboard per variant and board, each fitted on its own games, with the change since the previous night;
 * the full ratings table of each fit into full[g] for the variants section. */
static void leaderboards_section(ng_night *p, doc *d, tb_table *full, char **svg)
{
    st_report *r = p->r;
    doc_section_add(d, "leaderboards", "Leaderboards by variant and board", "leaderboards");
    tb_table *boards = die_check(p->cmd, calloc(ST_MAX_GROUPS, sizeof *boards));
    static char sig[2000];
    sig[0] = '\0';
    doc_line *leaders = doc_para(d, NULL, "Leading: "); /* who leads each variant and board, first of all */
    int led = 0;
    for (int g = 0; g < r->n_groups; g++) {
        static st_selection x, y;
        if (!st_fit(r, g, -1, &x))
            continue;
        int top = x.rank[0];
        char text[200], href[96];
        snprintf(text, sizeof text, "%s%s ", led++ ? "; " : "", r->groups[g].name);
        doc_span_add(leaders, text, NULL);
        doc_span_add(leaders, r->players[top].name, agent_href(p, r, top, href, sizeof href));
        if (x.m > 1) {
            int second = x.rank[1];
            double ahead = x.f.elo[top] - x.f.elo[second];
            if (ahead >= 0.5)
                snprintf(text, sizeof text, " (%.0f Elo over ", ahead);
            else
                snprintf(text, sizeof text, " (level with ");
            doc_span_add(leaders, text, NULL);
            doc_span_add(leaders, r->players[second].name, agent_href(p, r, second, href, sizeof href));
            doc_span_add(leaders, ")", NULL);
        }
        bool have_y = prev_fit(p, g, &y);
        leaderboard(p, &boards[g], g, &x, &y, have_y, sig, sizeof sig);
        st_ratings_table(r, g, &x, &full[g]);
        full[g].caveat = &r->caveat;
        svg[g] = ratings_svg(p, r, g, &x);
        if (have_y)
            st_selection_free(&y);
        st_selection_free(&x);
    }
    if (p->have_prev && sig[0])
        doc_para(d, NULL, "Significant changes since the previous night: %s.", sig);
    else if (p->have_prev)
        doc_para(d, NULL, "No change since the previous night is significant.");
    for (int g = 0; g < r->n_groups; g++)
        if (boards[g].cols) {
            link_names(p, &boards[g]);
            doc_table(d, &boards[g]);
        }
    if (p->have_prev) {
        doc_line *l = doc_para(d, "note", "Each variant and board fitted on its own games; +- is the half-width of the "
                                          "95%% interval (%d bootstrap resamples). Change: against the same variant and "
                                          "board of ",
                               p->bootstrap);
        league_span(p, l, p->prev);
        char rest[300];
        snprintf(rest, sizeof rest, " (night %s), \u00b1 the 95%% interval of the difference of the two estimates, "
                                    "significant when |z| > 1.96.",
                 p->pr->leagues[0].night[0] ? p->pr->leagues[0].night : "?");
        doc_span_add(l, rest, NULL);
    } else
        doc_para(d, "note", "Each variant and board fitted on its own games; +- is the half-width of the 95%% interval "
                        "(%d bootstrap resamples). No earlier league named '%s' has games: no change to show.",
                 p->bootstrap, p->facts.name);
    free(boards);
}

/* A warning per agent that forfeited: "pone forfeited 50 of 120 games: timeout 48, illegal 2 (latest: ...)". */
static void forfeit_warnings(ng_night *p, doc *d)
{
    for (int k = 0; k < p->pooled.m; k++) {
        int i = p->pooled.rank[k];
        const ng_agent *a = &p->agents[i];
        if (!a->forfeit_total)
            continue;
        char causes[400] = "";
        for (int q = 1; q < HX_END_COUNT; q++)
            if (a->forfeits[q])
                snprintf(causes + strlen(causes), sizeof causes - strlen(causes), "%s%s %ld", causes[0] ? ", " : "",
                         hx_end_names[q], a->forfeits[q]);
        doc_warn(d, "%s forfeited %ld of %ld game%s: %s%s%.160s%s", p->r->players[i].name, a->forfeit_total,
                 p->pooled.games[i], p->pooled.games[i] == 1 ? "" : "s", causes, a->detail[0] ? " (latest: " : "",
                 a->detail, a->detail[0] ? ")" : "");
    }
}

/* The history's points of the leagues fitted lately, kept for the next page: a league's fit (its games, the
 * resamples) is the same until it plays more, so a page built again (a running league's, each few seconds on a
 * server) fits only what changed. Not thread-safe: a server builds pages under one lock (ws_report_lock). */
#define HISTORY_KEPT 64
typedef struct {
    int64_t league;
    long games;
    int bootstrap, m;
    int64_t agent[ST_MAX_PLAYERS];
    double elo[ST_MAX_PLAYERS], lo[ST_MAX_PLAYERS], hi[ST_MAX_PLAYERS];
} history_point;

static history_point *history_kept[HISTORY_KEPT];
static unsigned history_next;

/* League l of history h (its games counted in `games`): the kept fit, else fitted now and kept. NULL when it has
 * no games. */
static const history_point *history_fit(st_report *h, int l, long games)
{
    for (int k = 0; k < HISTORY_KEPT; k++) {
        history_point *q = history_kept[k];
        if (q && q->league == h->leagues[l].id && q->games == games && q->bootstrap == h->bootstrap)
            return q;
    }
    static st_selection x;
    if (!st_fit(h, -1, l, &x))
        return NULL;
    unsigned slot = history_next++ % HISTORY_KEPT;
    history_point *q = history_kept[slot];
    if (!q)
        q = history_kept[slot] = die_check(h->cmd, malloc(sizeof *q));
    *q = (history_point){ .league = h->leagues[l].id, .games = games, .bootstrap = h->bootstrap, .m = x.m };
    for (int k = 0; k < x.m; k++) {
        int i = x.rank[k];
        q->agent[k] = h->players[i].id;
        q->elo[k] = x.f.elo[i];
        q->lo[k] = x.f.resamples ? x.f.lo[i] : NAN;
        q->hi[k] = x.f.resamples ? x.f.hi[i] : NAN;
    }
    st_selection_free(&x);
    return q;
}

/* The rating history's drawing: a pooled fit of each of the newest NG_HISTORY_LEAGUES leagues of the series up
 * to this one, read from the store (through die_catch: a database error gives up the figure, not the page). */
typedef struct {
    ng_night *p;
    store_db *s;
    char *svg;
    int leagues;
} history_job;

static void history_draw(void *arg)
{
    history_job *j = arg;
    ng_night *p = j->p;
    int64_t from = p->id;
    for (int k = 1; k < NG_HISTORY_LEAGUES; k++) {
        int64_t before = store_league_previous(j->s, from);
        if (before < 0)
            die_fail(p->cmd, "%s: %s", p->db, store_error(j->s));
        if (before == 0)
            break;
        from = before;
    }
    st_report *h = die_check(p->cmd, calloc(1, sizeof *h));
    *h = (st_report){ .cmd = p->cmd, .db = p->db, .bootstrap = p->bootstrap, .prior = 1, .seed = 1, .history = true };
    h->filter = (st_filter){ .f = { .league = p->id, .league_from = from, .league_to = p->id }, .league = p->ids[0] };
    st_load(h, j->s);
    int nx = h->n_leagues, n = h->n_players;
    double *elo = die_check(p->cmd, malloc(sizeof *elo * (size_t)(nx * n))),
           *lo = die_check(p->cmd, malloc(sizeof *lo * (size_t)(nx * n))),
           *hi = die_check(p->cmd, malloc(sizeof *hi * (size_t)(nx * n)));
    char(*labels)[48] = die_check(p->cmd, calloc((size_t)nx, sizeof *labels));
    char(*links)[96] = die_check(p->cmd, calloc((size_t)n, sizeof *links));
    const char **xl = die_check(p->cmd, calloc((size_t)nx, sizeof *xl)), *names[ST_MAX_PLAYERS], *href[ST_MAX_PLAYERS];
    for (int k = 0; k < nx * n; k++)
        elo[k] = lo[k] = hi[k] = NAN;
    long *games = die_check(p->cmd, calloc((size_t)nx, sizeof *games));
    for (long k = 0; k < h->n_results; k++)
        if (h->results[k].league >= 0)
            games[h->results[k].league]++;
    for (int l = 0; l < nx; l++) {
        const st_league *li = &h->leagues[l];
        bool shared = (l > 0 && strcmp(h->leagues[l - 1].night, li->night) == 0) ||
                      (l + 1 < nx && strcmp(h->leagues[l + 1].night, li->night) == 0);
        snprintf(labels[l], sizeof labels[l], shared ? "%s #%lld" : "%s", li->night, (long long)li->id);
        xl[l] = labels[l];
        const history_point *q = history_fit(h, l, games[l]);
        for (int k = 0; q && k < q->m; k++)
            for (int i = 0; i < n; i++)
                if (h->players[i].id == q->agent[k]) {
                    elo[i * nx + l] = q->elo[k];
                    lo[i * nx + l] = q->lo[k];
                    hi[i * nx + l] = q->hi[k];
                }
    }
    free(games);
    for (int i = 0; i < n; i++) {
        names[i] = h->players[i].name;
        href[i] = agent_href(p, h, i, links[i], sizeof links[i]);
    }
    char title[400];
    snprintf(title, sizeof title, "Rating history of '%s' (%d league%s, pooled Elo of each with its 95%% interval)",
             p->facts.name, nx, nx == 1 ? "" : "s");
    j->svg = sv_history(title, nx, xl, n, names, elo, lo, hi, href);
    j->leagues = nx;
    free(elo);
    free(lo);
    free(hi);
    free(labels);
    free(links);
    free(xl);
    st_free(h);
    free(h);
}

static void history_section(ng_night *p, store_db *s, doc *d)
{
    doc_section_add(d, "history", "Rating history", "history");
    history_job j = { .p = p, .s = s };
    char err[600];
    if (!s || die_catch(history_draw, &j, err, sizeof err) != 0) {
        doc_para(d, "note", "The rating history could not be read%s%s.", s ? ": " : "", s ? err : "");
        return;
    }
    doc_para(d, NULL, "The pooled rating of the newest %d leagues named '%s' up to this one (at most %d), one point "
                  "per night, with 95%% intervals; each league is fitted on its own games.",
             j.leagues, p->facts.name, NG_HISTORY_LEAGUES);
    svg_block(p, d, j.svg, "each line an agent; bars: 95% intervals", "history");
}

static void forfeits_section(ng_night *p, doc *d)
{
    st_report *r = p->r;
    doc_section_add(d, "forfeits", "Forfeits", "forfeits");
    if (!p->forfeits)
        doc_para(d, NULL, "No game was forfeited.");
    tb_table t;
    tb_init(&t, "forfeits by agent and reason", 3 + HX_END_COUNT - 1);
    tb_column(&t, 0, "agent", false);
    tb_column(&t, 1, "forfeits", true);
    for (int k = 1; k < HX_END_COUNT; k++)
        tb_column(&t, 1 + k, hx_end_names[k], true);
    tb_column(&t, 1 + HX_END_COUNT, "latest", false);
    for (int k = 0; k < p->pooled.m; k++) {
        int i = p->pooled.rank[k];
        const ng_agent *a = &p->agents[i];
        if (!a->forfeit_total)
            continue;
        tb_row(&t);
        tb_set(&t, 0, "%s", r->players[i].name);
        tb_set(&t, 1, "%ld", a->forfeit_total);
        for (int q = 1; q < HX_END_COUNT; q++)
            tb_set(&t, 1 + q, "%ld", a->forfeits[q]);
        tb_set(&t, 1 + HX_END_COUNT, "%s", a->detail);
        long long game = 0;
        char page[96];
        if (sscanf(a->detail, "game %lld:", &game) == 1 && game_href(p, game, page, sizeof page))
            tb_link(&t, 1 + HX_END_COUNT, page); /* the game viewer, which opens it at the forfeit */
    }
    link_names(p, &t);
    if (t.rows)
        doc_table(d, &t);
    else
        tb_free(&t);
    bool any = false;
    for (int k = 0; k < p->pooled.m; k++) { /* each forfeiter's logs */
        const ng_agent *a = &p->agents[p->pooled.rank[k]];
        if (!a->forfeit_total)
            continue;
        if (!any)
            doc_list(d, "logs");
        any = true;
        doc_line *l = doc_item(d);
        doc_span_add(l, r->players[p->pooled.rank[k]].name, NULL);
        doc_span_add(l, ": ", NULL);
        if (!a->n_logs)
            doc_span_add(l, "no log found", NULL);
        for (int q = 0; q < a->n_logs; q++) {
            if (q)
                doc_span_add(l, ", ", NULL);
            doc_span_add(l, a->log_names[q], a->logs[q]);
        }
    }
}

static int by_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double quantile(const double *v, long n, double q)
{
    long k = (long)ceil(q * (double)n) - 1;
    return v[k < 0 ? 0 : k >= n ? n - 1 : k];
}

/* The game clocks of the time-use section, when any game had one: each agent's time control and its time left at
 * the end of its games. */
static void clock_table(ng_night *p, doc *d)
{
    bool any = false;
    for (int i = 0; i < p->r->n_players; i++)
        any |= p->agents[i].clock_games > 0;
    if (!any)
        return;
    char tc[TC_TEXT_MAX] = "";
    if (p->have_cfg && p->cfg.time_control.base_ms > 0)
        tc_format(&p->cfg.time_control, tc, sizeof tc);
    doc_para(d, NULL, "Game clocks (time control MOVES/SECONDS+INCREMENT%s%s%s): each agent's, and its time left at the "
                      "end of its games, in seconds; out of time: games it lost on its clock.",
             tc[0] ? "; the league's " : "", tc, tc[0] ? ", an agent's own over it" : "");
    tb_table t;
    tb_init(&t, "game clocks", 6);
    static const char *const head[] = { "agent", "time control", "games", "mean left s", "least left s",
                                        "out of time" };
    for (int c = 0; c < 6; c++)
        tb_column(&t, c, head[c], c >= 2);
    for (int k = 0; k < p->pooled.m; k++) {
        const ng_agent *a = &p->agents[p->pooled.rank[k]];
        tb_row(&t);
        tb_set(&t, 0, "%s", p->r->players[p->pooled.rank[k]].name);
        tb_set(&t, 1, "%s", a->clock_games ? a->tc : "none");
        tb_set(&t, 2, "%ld", a->clock_games);
        if (!a->clock_games)
            continue;
        tb_set_real(&t, 3, a->clock_left / (double)a->clock_games, 3);
        tb_set_real(&t, 4, a->clock_min_left, 3);
        tb_set(&t, 5, "%ld", a->out_of_time);
    }
    link_names(p, &t);
    doc_table(d, &t);
}

static void time_section(ng_night *p, doc *d)
{
    st_report *r = p->r;
    doc_section_add(d, "time-use", "Time use", "time use");
    unsigned budget = p->have_cfg ? p->cfg.move_ms : 0;
    if (budget)
        doc_para(d, NULL, "Thinking time per attempt (from the turn sent to the move received, in ms) against a budget "
                      "of %u ms per move.",
             budget);
    else
        doc_para(d, NULL, "Thinking time per attempt (from the turn sent to the move received, in ms).");
    tb_table t;
    tb_init(&t, "thinking time per attempt, ms", 9);
    static const char *const head[] = { "agent", "attempts", "mean", "median", "p95", "max", "max/budget%",
                                        "per game s", "over 80%" };
    for (int c = 0; c < 9; c++)
        tb_column(&t, c, head[c], c >= 1);
    for (int k = 0; k < p->pooled.m; k++) {
        int i = p->pooled.rank[k];
        ng_agent *a = &p->agents[i];
        tb_row(&t);
        tb_set(&t, 0, "%s", r->players[i].name);
        tb_set(&t, 1, "%ld", a->n_ms);
        if (!a->n_ms)
            continue;
        qsort(a->ms, (size_t)a->n_ms, sizeof *a->ms, by_double);
        double sum = 0;
        long over = 0;
        for (long q = 0; q < a->n_ms; q++) {
            sum += a->ms[q];
            over += budget && a->ms[q] > 0.8 * budget;
        }
        tb_set_real(&t, 2, sum / (double)a->n_ms, 2);
        tb_set_real(&t, 3, quantile(a->ms, a->n_ms, 0.5), 2);
        tb_set_real(&t, 4, quantile(a->ms, a->n_ms, 0.95), 2);
        tb_set_real(&t, 5, a->ms[a->n_ms - 1], 2);
        if (budget)
            tb_set_real(&t, 6, 100.0 * a->ms[a->n_ms - 1] / budget, 1);
        if (a->timed_games)
            tb_set_real(&t, 7, a->seconds / (double)a->timed_games, 3);
        if (budget)
            tb_set(&t, 8, "%ld", over);
    }
    link_names(p, &t);
    doc_table(d, &t);
    clock_table(p, d);
}

static void repeats_section(ng_night *p, doc *d)
{
    ng_game_key *k = p->keys;
    int n = p->n_keys;
    p->repeated = 0;
    tb_table t;
    tb_init(&t, "pairings whose games repeat (same players, colours, variant, board and moves)", 7);
    static const char *const head[] = { "variant", "board", "black", "white", "games", "distinct", "repeated%" };
    for (int c = 0; c < 7; c++)
        tb_column(&t, c, head[c], c >= 4);
    long flagged = 0;
    char names[600] = "";
    for (int i = 0; i < n;) {
        int j = i, distinct = 0;
        for (; j < n && k[j].variant == k[i].variant && k[j].rows == k[i].rows && k[j].cols == k[i].cols &&
               strcmp(k[j].black, k[i].black) == 0 && strcmp(k[j].white, k[i].white) == 0;
             j++)
            distinct += j == i || k[j].moves != k[j - 1].moves;
        int games = j - i, rep = games - distinct;
        p->repeated += rep;
        if (rep > 0) {
            tb_row(&t);
            tb_set(&t, 0, "%s", hx_variant_name((hx_variant)k[i].variant));
            tb_set(&t, 1, "%dx%d", k[i].rows, k[i].cols);
            tb_set(&t, 2, "%s", k[i].black);
            tb_set(&t, 3, "%s", k[i].white);
            tb_set(&t, 4, "%d", games);
            tb_set(&t, 5, "%d", distinct);
            tb_set_real(&t, 6, 100.0 * rep / games, 1);
            if ((double)rep / games > REPEAT_WARN && flagged++ < 3) /* the warning names the first three */
                snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s against %s on %s %dx%d",
                         names[0] ? "; " : "", k[i].black, k[i].white, hx_variant_name((hx_variant)k[i].variant),
                         k[i].rows, k[i].cols);
        }
        i = j;
    }
    if (flagged)
        doc_warn(d, "%ld pairing%s repeated more than %.0f%% of their games move for move (%s%s; %ld of %d games "
                "repeat an earlier one): the results count those games more than once; use openings (docs/leagues.md)",
             flagged, flagged == 1 ? "" : "s", 100 * REPEAT_WARN, names, flagged > 3 ? "; ..." : "", p->repeated, n);
    doc_section_add(d, "repeats", "Repeated games", "repeats");
    doc_para(d, NULL, "%ld of %d games repeat an earlier game of the same pairing move for move (agents named by their "
                  "config sections).",
         p->repeated, n);
    if (t.rows > 0)
        doc_table(d, &t);
    else
        tb_free(&t);
}


/* The title, facts and lead line. */
static void page_head(ng_night *p, doc *d)
{
    char title[600], lead[400];
    snprintf(title, sizeof title, "Nightly league %s", p->facts.name);
    doc_init(d, title, p->night);
    d->warnings_section = true;
    doc_fact_int(d, "league", p->facts.id);
    doc_fact_text(d, "name", p->facts.name);
    doc_fact_text(d, "night", p->night);
    doc_fact_int(d, "games", p->total_games);
    doc_fact_int(d, "planned", p->facts.planned);
    doc_fact_int(d, "forfeits", p->forfeits);
    doc_fact_int(d, "bootstrap", p->bootstrap);
    league_span(p, &d->lead, p->facts.id);
    snprintf(lead, sizeof lead, ": %ld games, %ld forfeit%s, %d agents; arena %s; ", p->total_games, p->forfeits,
             p->forfeits == 1 ? "" : "s", p->pooled.m, p->version);
    if (p->links.nights) {
        doc_span_add(&d->lead, lead, NULL);
        doc_span_add(&d->lead, "all nights", p->links.nights);
    } else {
        lead[strlen(lead) - 2] = '\0'; /* no "; " before a link */
        doc_span_add(&d->lead, lead, NULL);
    }
    char footer[200];
    snprintf(footer, sizeof footer, "Written by arena report %s.", p->version);
    doc_span_add(&d->footer, footer, NULL);
    doc_alternate(d, "report.json");
}

void ng_page(ng_night *p, store_db *s, const pl_plotter *plot, const char *out, const char *version, doc *d)
{
    p->out = out;
    p->version = version;
    page_head(p, d);
    forfeit_warnings(p, d);
    tb_table *full = die_check(p->cmd, calloc(ST_MAX_GROUPS, sizeof *full));
    char **svg = die_check(p->cmd, calloc(ST_MAX_GROUPS, sizeof *svg));
    leaderboards_section(p, d, full, svg);
    forfeits_section(p, d);
    ratings_section(p, d);
    changes_section(p, d);
    head_to_head_section(p, d);
    matrices_section(p, d);
    variants_section(p, d, full, svg);
    for (int g = 0; g < ST_MAX_GROUPS; g++)
        free(svg[g]);
    free(svg);
    free(full);
    history_section(p, s, d);
    time_section(p, d);
    repeats_section(p, d);
    settings_section(p, d);
    agents_section(p, d);
    if (p->r->caveat.n > 0) { /* as every report names them */
        char names[300] = "";
        for (int k = 0; k < p->r->caveat.n; k++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", k ? ", " : "",
                     p->r->caveat.names[k]);
        doc_warn(d, "%s: %s", ST_UNSANDBOXED, names);
    }
    if (p->facts.played + p->facts.skipped < p->facts.planned)
        doc_warn(d, "the league is unfinished: %ld of %ld planned games played", p->facts.played, p->facts.planned);
    doc_file(d, "report.html");
    doc_file(d, "report.md");
    doc_file(d, "report.json");
    for (int k = 0; plot && k < plot->n_files; k++)
        doc_file(d, plot->files[k]);
}
