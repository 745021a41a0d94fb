/* arena/report/nightly_page.c — the nightly page of a league as a document: its title and facts, the
 * sections in order and the warnings they raise (contract in nightly.h, ng_page). */
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
/* A figure: its SVG shown, its PNG linked; left out when it was not drawn. */
static void figure(ng_night *p, doc *d, const char *file, const char *alt)
{
    char path[PATH_MAX + 300];
    snprintf(path, sizeof path, "%s/%s.svg", p->out, file);
    if (access(path, R_OK) == 0)
        doc_figure(d, file, alt);
}

/* The figure of group g: PREFIX-VARIANT-RxC, described as "WHAT, VARIANT RxC". */
static void group_figure(ng_night *p, doc *d, int g, const char *prefix, const char *what)
{
    char file[128], alt[200];
    fg_group_file(file, sizeof file, prefix, p->r->groups[g].variant, p->r->groups[g].board);
    snprintf(alt, sizeof alt, "%s, %s", what, p->r->groups[g].name);
    figure(p, d, file, alt);
}

static void settings_section(ng_night *p, doc *d)
{
    doc_section_add(d, "settings", "Run settings", "settings");
    tb_table t;
    tb_init(&t, "settings", 2);
    tb_column(&t, 0, "setting", false);
    tb_column(&t, 1, "value", false);
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
    doc_section_add(d, "agents", "Agents", "agents");
    tb_table t;
    tb_init(&t, "agents of this league", 9);
    static const char *const head[] = { "name", "version", "command", "sha256", "sandbox", "games", "forfeits",
                                        "first seen", "new agent because" };
    for (int c = 0; c < 9; c++)
        tb_column(&t, c, head[c], c == 5 || c == 6);
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

static void ratings_section(ng_night *p, doc *d)
{
    st_report *r = p->r;
    doc_section_add(d, "ratings", "Ratings", "ratings");
    doc_para(d, NULL, "Bradley-Terry Elo with a first-move advantage per variant and board, pooled over the league's "
                  "games; 95%% intervals and LOS from %d bootstrap resamples (docs/ratings.md).",
         p->bootstrap);
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
    doc_section_add(d, "changes", "Change since the previous night", "change");
    if (!p->have_prev) {
        doc_para(d, NULL, "No earlier league named '%s' has games: nothing to compare with.", p->facts.name);
        return;
    }
    doc_para(d, NULL, "Against league %lld (night %s): pooled Elo of each league on its own games, matched by name.",
         (long long)p->prev, p->pr->leagues[0].night[0] ? p->pr->leagues[0].night : "?");
    tb_table t;
    tb_init(&t, "change since the previous night", 6);
    static const char *const head[] = { "name", "elo", "previous", "change", "rank", "previous rank" };
    for (int c = 0; c < 6; c++)
        tb_column(&t, c, head[c], c >= 1);
    const st_selection *x = &p->pooled, *y = &p->prev_fit;
    for (int k = 0; k < x->m; k++) {
        int i = x->rank[k], j = -1, prev_rank = 0;
        for (int q = 0; q < y->m && j < 0; q++)
            if (strcmp(p->pr->players[y->rank[q]].name, p->r->players[i].name) == 0)
                j = y->rank[q], prev_rank = q + 1;
        tb_row(&t);
        tb_set(&t, 0, "%s", p->r->players[i].name);
        tb_set_real(&t, 1, x->f.elo[i], 0);
        if (j >= 0) {
            tb_set_real(&t, 2, y->f.elo[j], 0);
            tb_set(&t, 3, "%+.0f", x->f.elo[i] - y->f.elo[j]);
            tb_set(&t, 5, "%d", prev_rank);
        } else
            tb_set(&t, 3, "%s", "new");
        tb_set(&t, 4, "%d", k + 1);
    }
    for (int q = 0; q < y->m; q++) { /* agents of the previous night that did not play tonight */
        int j = y->rank[q];
        bool here = false;
        for (int k = 0; k < x->m && !here; k++)
            here = strcmp(p->pr->players[j].name, p->r->players[x->rank[k]].name) == 0;
        if (here)
            continue;
        tb_row(&t);
        tb_set(&t, 0, "%s", p->pr->players[j].name);
        tb_set_real(&t, 2, y->f.elo[j], 0);
        tb_set(&t, 3, "%s", "absent");
        tb_set(&t, 5, "%d", q + 1);
    }
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
                  "ratings; each cell is the row's wins-losses, so it says how many games it rests on.");
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
        doc_table(d, &t);
        group_figure(p, d, g, "matrix-", "win matrix");
    }
}

static void variants_section(ng_night *p, doc *d)
{
    st_report *r = p->r;
    doc_section_add(d, "variants", "Ratings by variant and board", "by variant");
    for (int g = 0; g < r->n_groups; g++) {
        static st_selection x;
        if (!st_fit(r, g, -1, &x))
            continue;
        tb_table t;
        st_ratings_table(r, g, &x, &t);
        t.caveat = &r->caveat;
        st_selection_free(&x);
        doc_table(d, &t);
        group_figure(p, d, g, "ratings-", "ratings");
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
            flagged += (double)rep / games > REPEAT_WARN;
        }
        i = j;
    }
    if (flagged)
        doc_warn(d, "%ld pairing%s repeated more than %.0f%% of their games move for move (%ld of %d games repeat an "
                "earlier one): the results count those games more than once; use openings (docs/leagues.md)",
             flagged, flagged == 1 ? "" : "s", 100 * REPEAT_WARN, p->repeated, n);
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
    settings_section(p, d);
    agents_section(p, d);
    ratings_section(p, d);
    changes_section(p, d);
    head_to_head_section(p, d);
    matrices_section(p, d);
    variants_section(p, d);
    history_section(p, d);
    forfeits_section(p, d);
    time_section(p, d);
    repeats_section(p, d);
    if (p->forfeits)
        doc_warn(d, "%ld game%s forfeited (see Forfeits)", p->forfeits, p->forfeits == 1 ? " was" : "s were");
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
