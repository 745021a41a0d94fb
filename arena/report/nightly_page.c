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
#include "variant.h"

/* Share of a pairing's games that repeat an earlier game move for move above which the page warns. */
#define REPEAT_WARN 0.10
/* Half-width of a two-sided 95% normal interval, in standard errors; a change beyond it is significant. */
#define Z95 1.959964
/* Hex digits of a hash the HTML page shows (the whole value on demand). */
#define HASH_SHOWN 12

/* A figure: its SVG shown, its PNG linked; left out when it was not drawn. Returns whether it was. */
static bool figure(ng_night *p, doc *d, const char *file, const char *alt)
{
    char path[PATH_MAX + 300];
    snprintf(path, sizeof path, "%s/%s.svg", p->out, file);
    if (access(path, R_OK) != 0)
        return false;
    doc_figure(d, file, alt);
    return true;
}

/* The figure of group g: PREFIX-VARIANT-RxC, described as "WHAT, VARIANT RxC". Returns whether it was drawn. */
static bool group_figure(ng_night *p, doc *d, int g, const char *prefix, const char *what)
{
    char file[128], alt[200];
    fg_group_file(file, sizeof file, prefix, p->r->groups[g].variant, p->r->groups[g].board);
    snprintf(alt, sizeof alt, "%s, %s", what, p->r->groups[g].name);
    return figure(p, d, file, alt);
}

/* A group's figure, then its table: folded under "table: WHAT, GROUP" when the figure shows the same numbers. */
static void figure_and_table(ng_night *p, doc *d, int g, const char *prefix, const char *what, tb_table *t)
{
    char summary[200];
    snprintf(summary, sizeof summary, "table: %s, %s", what, p->r->groups[g].name);
    if (group_figure(p, d, g, prefix, what))
        doc_table_folded(d, t, summary);
    else
        doc_table(d, t);
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
    figure(p, d, "ratings-pooled", "pooled ratings with 95% intervals");
}

static void changes_section(ng_night *p, doc *d)
{
    doc_section_add(d, "changes", "Pooled change since the previous night", "change");
    static st_selection y;
    if (!prev_fit(p, -1, &y)) {
        doc_para(d, NULL, "No earlier league named '%s' has games: nothing to compare with.", p->facts.name);
        return;
    }
    doc_para(d, NULL, "Against league %lld (night %s): pooled Elo of each league on its own games, matched by name; the "
                  "change \u00b1 the 95%% interval of the difference of the two estimates, significant when |z| > 1.96.",
         (long long)p->prev, p->pr->leagues[0].night[0] ? p->pr->leagues[0].night : "?");
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
            tb_set(&t, 3, "%ld", wins[a * n + b]);
            tb_set(&t, 4, "%ld", wins[b * n + a]);
            tb_set_real(&t, 5, 100.0 * (double)wins[a * n + b] / (double)g, 1);
            tb_set_real(&t, 6, x->f.elo[a] - x->f.elo[b], 0);
            if (x->f.resamples)
                tb_set_real(&t, 7, 100.0 * rt_los(&x->f, n, a, b), 1);
        }
    free(games);
    free(wins);
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
        free(w);
        free(games);
        figure_and_table(p, d, g, "matrix-", "win matrix", &t);
    }
}

/* The full ratings table of each group (from the leaderboards' fits, full[g]; rows 0 when it has none), under
 * its figure. */
static void variants_section(ng_night *p, doc *d, tb_table *full)
{
    st_report *r = p->r;
    doc_section_add(d, "variants", "Ratings by variant and board", "by variant");
    doc_para(d, NULL, "The leaderboards' fits in full: intervals, scores as Black and as White, LOS over the next "
                  "agent; each figure's table is folded under it.");
    for (int g = 0; g < r->n_groups; g++)
        if (full[g].cols)
            figure_and_table(p, d, g, "ratings-", "ratings", &full[g]);
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
static void leaderboards_section(ng_night *p, doc *d, tb_table *full)
{
    st_report *r = p->r;
    doc_section_add(d, "leaderboards", "Leaderboards by variant and board", "leaderboards");
    if (p->have_prev)
        doc_para(d, "note", "Each variant and board fitted on its own games; +- is the half-width of the 95%% interval "
                        "(%d bootstrap resamples). Change: against the same variant and board of league %lld (night "
                        "%s), \u00b1 the 95%% interval of the difference of the two estimates, significant when "
                        "|z| > 1.96.",
                 p->bootstrap, (long long)p->prev, p->pr->leagues[0].night[0] ? p->pr->leagues[0].night : "?");
    else
        doc_para(d, "note", "Each variant and board fitted on its own games; +- is the half-width of the 95%% interval "
                        "(%d bootstrap resamples). No earlier league named '%s' has games: no change to show.",
                 p->bootstrap, p->facts.name);
    tb_table *boards = die_check(p->cmd, calloc(ST_MAX_GROUPS, sizeof *boards));
    static char sig[2000];
    sig[0] = '\0';
    for (int g = 0; g < r->n_groups; g++) {
        static st_selection x, y;
        if (!st_fit(r, g, -1, &x))
            continue;
        bool have_y = prev_fit(p, g, &y);
        leaderboard(p, &boards[g], g, &x, &y, have_y, sig, sizeof sig);
        st_ratings_table(r, g, &x, &full[g]);
        full[g].caveat = &r->caveat;
        if (have_y)
            st_selection_free(&y);
        st_selection_free(&x);
    }
    if (p->have_prev && sig[0])
        doc_para(d, NULL, "Significant changes since the previous night: %s.", sig);
    else if (p->have_prev)
        doc_para(d, NULL, "No change since the previous night is significant.");
    for (int g = 0; g < r->n_groups; g++)
        if (boards[g].cols)
            doc_table(d, &boards[g]);
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

static void history_section(ng_night *p, doc *d)
{
    doc_section_add(d, "history", "Rating history", "history");
    doc_para(d, NULL, "The pooled rating of every league named '%s', one point per night, with 95%% intervals; each "
                  "league is fitted on its own games.",
         p->facts.name);
    figure(p, d, "history", "rating history");
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
        char page[64], path[PATH_MAX + 100];
        if (sscanf(a->detail, "game %lld:", &game) == 1) { /* the game viewer's page, when the report wrote it */
            snprintf(page, sizeof page, "games/game-%lld.html", game);
            snprintf(path, sizeof path, "%s/%s", p->out, page);
            if (access(path, R_OK) == 0)
                tb_link(&t, 1 + HX_END_COUNT, page);
        }
    }
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
            doc_span_add(l, a->logs[q] + 5, a->logs[q]);
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
    doc_table(d, &t);
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
    snprintf(lead, sizeof lead, "league %lld: %ld games, %ld forfeit%s, %d agents; arena %s; ", (long long)p->facts.id,
             p->total_games, p->forfeits, p->forfeits == 1 ? "" : "s", p->pooled.m, p->version);
    doc_span_add(&d->lead, lead, NULL);
    doc_span_add(&d->lead, "all nights", "../index.html");
    char footer[200];
    snprintf(footer, sizeof footer, "Written by arena report %s; every number is also in ", p->version);
    doc_span_add(&d->footer, footer, NULL);
    doc_span_add(&d->footer, "report.json", "report.json");
    doc_span_add(&d->footer, ".", NULL);
}

void ng_page(ng_night *p, const pl_plotter *plot, const char *out, const char *version, doc *d)
{
    p->out = out;
    p->version = version;
    page_head(p, d);
    forfeit_warnings(p, d);
    tb_table *full = die_check(p->cmd, calloc(ST_MAX_GROUPS, sizeof *full));
    leaderboards_section(p, d, full);
    forfeits_section(p, d);
    ratings_section(p, d);
    changes_section(p, d);
    head_to_head_section(p, d);
    matrices_section(p, d);
    variants_section(p, d, full);
    free(full);
    history_section(p, d);
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
