/* arena/report/figures.c — the figures of one league from its standings (contract in figures.h). */
#include "figures.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "die.h"
#include "standings.h"

void fg_group_file(char *out, size_t len, const char *prefix, const char *variant, const char *board)
{
    char text[64];
    snprintf(text, sizeof text, "%s-%s", variant, board);
    pl_file_name(out, len, prefix, text);
}

static st_report *load(store_db *s, const char *db, int64_t league, int bootstrap, bool history, char *id,
                       size_t idlen)
{
    st_report *r = calloc(1, sizeof *r);
    if (!r)
        die_fail("plot", "out of memory");
    snprintf(id, idlen, "%lld", (long long)league);
    r->cmd = "plot";
    r->db = db;
    r->filter.league = id; /* named: a history of the leagues of its name */
    r->filter.f.league = league;
    r->bootstrap = bootstrap;
    r->prior = 1;
    r->seed = 1;
    r->history = history;
    st_load(r, s);
    return r;
}

static void unload(st_report *r)
{
    st_free(r);
    free(r);
}

/* Ratings of group g (pooled when g < 0). */
static int ratings_figure(pl_plotter *p, st_report *r, int g, const char *label)
{
    static st_selection x;
    if (!st_fit(r, g, -1, &x))
        return 0;
    const char *names[ST_MAX_PLAYERS];
    double elo[ST_MAX_PLAYERS], lo[ST_MAX_PLAYERS], hi[ST_MAX_PLAYERS];
    for (int k = 0; k < x.m; k++) {
        int i = x.rank[k];
        names[k] = r->players[i].name;
        elo[k] = x.f.elo[i];
        lo[k] = x.f.resamples ? x.f.lo[i] : NAN;
        hi[k] = x.f.resamples ? x.f.hi[i] : NAN;
    }
    const char *anchor = x.anchor >= 0 ? r->players[x.anchor].name : "pool mean";
    char title[512], caption[512], file[128], adv[32], lo_text[32], hi_text[32];
    snprintf(title, sizeof title, "%s: Elo, %s (%ld games)", label, g < 0 ? "pooled" : r->groups[g].name, x.total);
    if (g < 0 && r->n_groups <= 4) { /* each variant and board's first-move advantage, in this fit */
        int len = snprintf(caption, sizeof caption, "first-move advantage:");
        for (int k = 0; k < r->n_groups && len < (int)sizeof caption; k++)
            len += snprintf(caption + len, sizeof caption - (size_t)len, "%s %s %s", k ? "," : "",
                            r->groups[k].name, pl_whole(adv, sizeof adv, x.f.adv[k], true));
        if (len < (int)sizeof caption)
            snprintf(caption + len, sizeof caption - (size_t)len, " Elo; anchor: %s", anchor);
    } else if (g < 0)
        snprintf(caption, sizeof caption, "one first-move advantage per variant and board (see their plots); anchor: %s",
                 anchor);
    else if (x.f.resamples)
        snprintf(caption, sizeof caption, "first-move advantage %s Elo (95%%: %s to %s); anchor: %s",
                 pl_whole(adv, sizeof adv, x.f.adv[0], true), pl_whole(lo_text, sizeof lo_text, x.f.adv_lo[0], true),
                 pl_whole(hi_text, sizeof hi_text, x.f.adv_hi[0], true), anchor);
    else
        snprintf(caption, sizeof caption, "first-move advantage %s Elo; anchor: %s",
                 pl_whole(adv, sizeof adv, x.f.adv[0], true), anchor);
    if (g < 0)
        snprintf(file, sizeof file, "ratings-pooled");
    else
        fg_group_file(file, sizeof file, "ratings-", r->groups[g].variant, r->groups[g].board);
    int rc = pl_ratings(p, file, title, caption, x.m, names, elo, lo, hi);
    st_selection_free(&x);
    return rc;
}

/* The win matrix of group g, rows and columns in the order of the group's ratings. */
static int matrix_figure(pl_plotter *p, st_report *r, int g, const char *label)
{
    int order[ST_MAX_PLAYERS], m = st_order(r, g, order);
    if (m == 0)
        return 0;
    const char *names[ST_MAX_PLAYERS];
    for (int k = 0; k < m; k++)
        names[k] = r->players[order[k]].name;
    long *wins = calloc((size_t)m * (size_t)m, sizeof *wins), *games = calloc((size_t)m * (size_t)m, sizeof *games);
    if (!wins || !games)
        die_fail("plot", "out of memory");
    st_counts(r, g, order, m, wins, games);
    long total = 0;
    for (int k = 0; k < m * m; k++)
        total += games[k];
    char title[512], file[128];
    snprintf(title, sizeof title, "%s: %s, %ld games\nrows move first; cells: the row's wins-losses and score",
             label, r->groups[g].name, total);
    fg_group_file(file, sizeof file, "matrix-", r->groups[g].variant, r->groups[g].board);
    int rc = pl_matrix(p, file, title, m, names, wins, games);
    free(wins);
    free(games);
    return rc;
}

/* One pooled fit per league of the series, one point per league labelled with its nightly date. */
static int history_figure(pl_plotter *p, store_db *s, const char *db, int64_t league, int bootstrap,
                          const char *label)
{
    char id[32];
    st_report *h = load(s, db, league, bootstrap, true, id, sizeof id);
    int nx = h->n_leagues, n = h->n_players;
    double *elo = malloc(sizeof *elo * (size_t)(nx * n)), *lo = malloc(sizeof *lo * (size_t)(nx * n)),
           *hi = malloc(sizeof *hi * (size_t)(nx * n));
    char(*labels)[48] = calloc((size_t)nx, sizeof *labels);
    const char **xl = calloc((size_t)nx, sizeof *xl), *names[ST_MAX_PLAYERS];
    if (!elo || !lo || !hi || !labels || !xl)
        die_fail("plot", "out of memory");
    for (int k = 0; k < nx * n; k++)
        elo[k] = lo[k] = hi[k] = NAN;
    static st_selection x;
    for (int l = 0; l < nx; l++) {
        const st_league *li = &h->leagues[l];
        bool shared = (l > 0 && strcmp(h->leagues[l - 1].night, li->night) == 0) ||
                      (l + 1 < nx && strcmp(h->leagues[l + 1].night, li->night) == 0);
        if (shared) /* two leagues on one night: each keeps its point, told apart by id */
            snprintf(labels[l], sizeof labels[l], "%s #%lld", li->night, (long long)li->id);
        else
            snprintf(labels[l], sizeof labels[l], "%s", li->night);
        xl[l] = labels[l];
        if (!st_fit(h, -1, l, &x))
            continue;
        for (int k = 0; k < x.m; k++) {
            int i = x.rank[k];
            elo[i * nx + l] = x.f.elo[i];
            lo[i * nx + l] = x.f.resamples ? x.f.lo[i] : NAN;
            hi[i * nx + l] = x.f.resamples ? x.f.hi[i] : NAN;
        }
        st_selection_free(&x);
    }
    for (int i = 0; i < n; i++)
        names[i] = h->players[i].name;
    char title[512];
    snprintf(title, sizeof title, "%s: rating history (%d league%s, pooled Elo of each with 95%% interval)", label, nx,
             nx == 1 ? "" : "s");
    int rc = pl_history(p, "history", title, nx, xl, n, names, elo, lo, hi);
    free(elo);
    free(lo);
    free(hi);
    free(labels);
    free(xl);
    unload(h);
    return rc;
}

int fg_draw(pl_plotter *p, store_db *s, const char *db, int64_t league, int bootstrap, const char *label)
{
    char id[32];
    st_report *r = load(s, db, league, bootstrap, false, id, sizeof id);
    int rc = ratings_figure(p, r, -1, label);
    for (int g = 0; g < r->n_groups && rc == 0; g++)
        rc = ratings_figure(p, r, g, label);
    for (int g = 0; g < r->n_groups && rc == 0; g++)
        rc = matrix_figure(p, r, g, label);
    unload(r);
    if (rc == 0)
        rc = history_figure(p, s, db, league, bootstrap, label);
    return rc;
}
