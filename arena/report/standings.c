/* arena/report/standings.c — loading a scope's games from the results database and fitting their ratings
 * (contract in standings.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "standings.h"

#include "die.h"
#include "json.h"

static int find_or_add_group(st_report *r, const char *variant, int rows, int cols)
{
    char name[48];
    snprintf(name, sizeof name, "%s %dx%d", variant, rows, cols);
    for (int g = 0; g < r->n_groups; g++)
        if (strcmp(r->groups[g].name, name) == 0)
            return g;
    if (r->n_groups == ST_MAX_GROUPS)
        die_fail(r->cmd, "more than %d variant and board combinations; filter with --variant or --board", ST_MAX_GROUPS);
    st_group *x = &r->groups[r->n_groups];
    snprintf(x->name, sizeof x->name, "%s", name);
    snprintf(x->variant, sizeof x->variant, "%s", variant);
    snprintf(x->board, sizeof x->board, "%dx%d", rows, cols);
    return r->n_groups++;
}

static int find_or_add_player(st_report *r, int64_t id, const char *name)
{
    for (int i = 0; i < r->n_players; i++)
        if (r->players[i].id == id)
            return i;
    if (r->n_players == ST_MAX_PLAYERS)
        die_fail(r->cmd, "more than %d agents in the selection", ST_MAX_PLAYERS);
    st_player *p = &r->players[r->n_players];
    p->id = id;
    snprintf(p->name, sizeof p->name, "%s", name);
    return r->n_players++;
}

static int by_group_name(const void *a, const void *b)
{
    return strcmp(((const st_group *)a)->name, ((const st_group *)b)->name);
}

/* Remembers `id` in the set ids[*n] (grown as needed); the games come in id order, so the last one added is
 * checked first. */
static void count_distinct(const char *cmd, int64_t **ids, long *n, long *cap, int64_t id)
{
    for (long k = *n - 1; k >= 0; k--)
        if ((*ids)[k] == id)
            return;
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 64;
        *ids = realloc(*ids, sizeof **ids * (size_t)*cap);
        if (!*ids)
            die_fail(cmd, "out of memory");
    }
    (*ids)[(*n)++] = id;
}

/* JSON text of a scope: its kind, what it is, its game count and the filters that narrowed it. */
static char *scope_json(const st_report *r, long games)
{
    const st_scope *sc = &r->sc;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        die_fail(r->cmd, "out of memory");
    static const char *const kinds[] = { "league", "run", "pool", "history" };
    fprintf(f, "\"scope\":{\"kind\":\"%s\"", kinds[sc->kind]);
    switch (sc->kind) {
    case ST_LEAGUE:
        fprintf(f, ",\"league\":%lld,\"name\":", (long long)sc->league);
        json_string(f, sc->name);
        fputs(",\"started\":", f);
        json_string(f, sc->started);
        break;
    case ST_RUN:
        fprintf(f, ",\"run\":%lld,\"run_kind\":", (long long)sc->run);
        json_string(f, sc->name);
        fputs(",\"started\":", f);
        json_string(f, sc->started);
        break;
    case ST_HISTORY:
        fputs(",\"name\":", f);
        if (sc->name[0])
            json_string(f, sc->name);
        else
            fputs("null", f);
        /* fall through */
    case ST_POOL: fprintf(f, ",\"leagues\":%ld,\"match_runs\":%ld", sc->leagues, sc->match_runs); break;
    }
    fprintf(f, ",\"games\":%ld", games);
    const store_filter *x = &r->filter.f;
    if (x->by_variant) {
        fputs(",\"variant\":", f);
        json_string(f, hx_variant_name(x->variant));
    }
    if (x->rows > 0)
        fprintf(f, ",\"board\":\"%dx%d\"", x->rows, x->cols);
    if (x->since) {
        fputs(",\"since\":", f);
        json_string(f, x->since);
    }
    fputc('}', f);
    if (fclose(f) != 0)
        die_fail(r->cmd, "out of memory");
    return text;
}

/* The scope's first line ("league 7 'nightly' (started 2026-11-23T01:00:00Z, 1740 games)") and JSON. */
static void describe_scope(st_report *r)
{
    st_scope *sc = &r->sc;
    char filters[300] = "";
    const store_filter *x = &r->filter.f;
    if (x->by_variant)
        snprintf(filters + strlen(filters), sizeof filters - strlen(filters), " variant %s", hx_variant_name(x->variant));
    if (x->rows > 0)
        snprintf(filters + strlen(filters), sizeof filters - strlen(filters), " board %dx%d", x->rows, x->cols);
    if (x->since)
        snprintf(filters + strlen(filters), sizeof filters - strlen(filters), " since %.64s", x->since);
    char games[340];
    snprintf(games, sizeof games, "%ld game%s%s%s", r->n_results, r->n_results == 1 ? "" : "s",
             filters[0] ? ";" : "", filters);
    switch (sc->kind) {
    case ST_LEAGUE:
        snprintf(sc->line, sizeof sc->line, "league %lld '%.200s' (started %s, %s)", (long long)sc->league, sc->name,
                 sc->started, games);
        break;
    case ST_RUN:
        snprintf(sc->line, sizeof sc->line, "%s run %lld (started %s, %s)", sc->name, (long long)sc->run,
                 sc->started, games);
        break;
    case ST_POOL:
        snprintf(sc->line, sizeof sc->line, "pooled: %ld league%s, %ld match run%s, %s", sc->leagues,
                 sc->leagues == 1 ? "" : "s", sc->match_runs, sc->match_runs == 1 ? "" : "s", games);
        break;
    case ST_HISTORY:
        if (sc->name[0])
            snprintf(sc->line, sizeof sc->line, "history: %ld league%s named '%.200s', %s", sc->leagues,
                     sc->leagues == 1 ? "" : "s", sc->name, games);
        else
            snprintf(sc->line, sizeof sc->line, "history: %ld league%s, %s", sc->leagues, sc->leagues == 1 ? "" : "s",
                     games);
        break;
    }
    sc->json = scope_json(r, r->n_results);
}

/* "2026-11-23T01:00:00.000Z" as "2026-11-23T01:00:00Z". */

static void iso_seconds(char *out, size_t len, const char *iso)
{
    snprintf(out, len, "%.19s%s", iso, strlen(iso) >= 19 ? "Z" : "");
}

/* The scope's kind; by default the newest league with games, else the newest run. */
static void pick_scope(st_report *r, store_db *s)
{
    st_scope *sc = &r->sc;
    if (r->history)
        sc->kind = ST_HISTORY;
    else if (r->pool)
        sc->kind = ST_POOL;
    else if (r->filter.f.league > 0)
        sc->kind = ST_LEAGUE;
    else if (r->filter.f.run > 0)
        sc->kind = ST_RUN;
    else {
        int64_t league = 0, run = 0;
        if (store_newest_with_games(s, &league, &run) != 0)
            die_fail(r->cmd, "%s: %s", r->db, store_error(s));
        if (run == 0)
            die_fail(r->cmd, "%s: no games match", r->db);
        sc->kind = league > 0 ? ST_LEAGUE : ST_RUN;
        if (league > 0)
            r->filter.f.league = league;
        else
            r->filter.f.run = run;
    }
    sc->league = r->filter.f.league;
    sc->run = r->filter.f.run;
}

/* What the scope is (its name and start), from its first game. */
static void name_scope(st_report *r, const store_game_row *row)
{
    st_scope *sc = &r->sc;
    if (sc->kind == ST_LEAGUE || sc->kind == ST_HISTORY) {
        snprintf(sc->name, sizeof sc->name, "%s", sc->kind == ST_HISTORY && !r->filter.league ? "" : row->league_name);
        iso_seconds(sc->started, sizeof sc->started, row->league_created);
    } else if (sc->kind == ST_RUN) {
        snprintf(sc->name, sizeof sc->name, "%s", row->run_kind[0] ? row->run_kind : "unknown");
        iso_seconds(sc->started, sizeof sc->started, row->started);
    }
}

/* In a history, the index of the game's league (added in the order first met). */
static int league_of(st_report *r, const store_game_row *row)
{
    for (int k = r->n_leagues - 1; k >= 0; k--)
        if (r->leagues[k].id == row->league)
            return k;
    if (r->n_leagues == ST_MAX_LEAGUES)
        die_fail(r->cmd, "more than %d leagues in the history; select fewer with --since", ST_MAX_LEAGUES);
    st_league *li = &r->leagues[r->n_leagues];
    li->id = row->league;
    snprintf(li->created, sizeof li->created, "%s", row->league_created);
    snprintf(li->night, sizeof li->night, "%s", row->league_night);
    return r->n_leagues++;
}

/* Every selected game into r->results, with its players, group and (in a history) league. */
static void read_games(st_report *r, store_db *s)
{
    st_scope *sc = &r->sc;
    int64_t *league_ids = NULL, *run_ids = NULL;
    long league_cap = 0, run_cap = 0;
    store_games *q = store_query(s, &r->filter.f);
    if (!q)
        die_fail(r->cmd, "%s: %s", r->db, store_error(s));
    long cap = 0;
    int rc;
    store_game_row row;
    while ((rc = store_games_next(q, &row)) == 1) {
        if (r->n_results == cap) {
            cap = cap ? 2 * cap : 4096;
            r->results = die_check(r->cmd, realloc(r->results, sizeof *r->results * (size_t)cap));
        }
        st_result *x = &r->results[r->n_results++];
        x->group = find_or_add_group(r, row.variant, row.rows, row.cols);
        x->black = find_or_add_player(r, row.black_id, row.black_label); /* by id: NAME#ID when names repeat */
        x->white = find_or_add_player(r, row.white_id, row.white_label);
        r->unsandboxed[x->black] |= row.black_unsandboxed;
        r->unsandboxed[x->white] |= row.white_unsandboxed;
        x->winner = row.winner;
        x->league = -1;
        if (row.league > 0)
            count_distinct(r->cmd, &league_ids, &sc->leagues, &league_cap, row.league);
        else
            count_distinct(r->cmd, &run_ids, &sc->match_runs, &run_cap, row.run);
        if (r->n_results == 1)
            name_scope(r, &row);
        if (r->history)
            x->league = league_of(r, &row);
    }
    store_games_end(q);
    free(league_ids);
    free(run_ids);
    if (rc != 0) /* (after freeing: a caller that catches giving up, the server, goes on) */
        die_fail(r->cmd, "%s: %s", r->db, store_error(s));
    if (r->n_results == 0)
        die_fail(r->cmd, "%s: no games match", r->db);
}

/* Players in name order (then id), so that fits, bootstrap resamples included, do not depend on the order the
 * games were played or stored in (one coordinator, or shards merged). */
static void sort_players(st_report *r)
{
    int perm[ST_MAX_PLAYERS], where[ST_MAX_PLAYERS];
    for (int i = 0; i < r->n_players; i++)
        perm[i] = i;
    for (int i = 1; i < r->n_players; i++)
        for (int j = i; j > 0; j--) {
            const st_player *a = &r->players[perm[j - 1]], *b = &r->players[perm[j]];
            int c = strcmp(a->name, b->name);
            if (c < 0 || (c == 0 && a->id < b->id))
                break;
            int t = perm[j];
            perm[j] = perm[j - 1];
            perm[j - 1] = t;
        }
    st_player sorted_players[ST_MAX_PLAYERS];
    bool sorted_unsandboxed[ST_MAX_PLAYERS];
    for (int k = 0; k < r->n_players; k++) {
        sorted_players[k] = r->players[perm[k]];
        sorted_unsandboxed[k] = r->unsandboxed[perm[k]];
        where[perm[k]] = k;
    }
    memcpy(r->players, sorted_players, sizeof sorted_players[0] * (size_t)r->n_players);
    memcpy(r->unsandboxed, sorted_unsandboxed, sizeof sorted_unsandboxed[0] * (size_t)r->n_players);
    for (long i = 0; i < r->n_results; i++) {
        r->results[i].black = where[r->results[i].black];
        r->results[i].white = where[r->results[i].white];
    }
}

/* Groups in name order, so output does not depend on the order games were played. */
static void sort_groups(st_report *r)
{
    int order[ST_MAX_GROUPS];
    st_group sorted[ST_MAX_GROUPS];
    memcpy(sorted, r->groups, sizeof sorted);
    qsort(sorted, (size_t)r->n_groups, sizeof sorted[0], by_group_name);
    for (int g = 0; g < r->n_groups; g++)
        for (int k = 0; k < r->n_groups; k++)
            if (strcmp(r->groups[g].name, sorted[k].name) == 0)
                order[g] = k;
    for (long i = 0; i < r->n_results; i++)
        r->results[i].group = order[r->results[i].group];
    memcpy(r->groups, sorted, sizeof sorted);
}

void st_load(st_report *r, store_db *s)
{
    /* a history covers every league with the selected league's name (or every league) */
    r->filter.f.league_series = r->history;
    pick_scope(r, s);
    read_games(r, s);
    describe_scope(r);
    sort_players(r);
    /* the agents that played without a sandbox, in name order, named under every table */
    r->caveat = (tb_caveat){ .key = "unsandboxed", .label = ST_UNSANDBOXED, .names = r->unsandboxed_names };
    for (int i = 0; i < r->n_players; i++) {
        if (!r->unsandboxed[i])
            continue;
        int j = r->caveat.n++;
        for (; j > 0 && strcmp(r->players[i].name, r->unsandboxed_names[j - 1]) < 0; j--)
            r->unsandboxed_names[j] = r->unsandboxed_names[j - 1];
        r->unsandboxed_names[j] = r->players[i].name;
    }
    sort_groups(r);
}

void st_free(st_report *r)
{
    free(r->results);
    free(r->sc.json);
    r->results = NULL;
    r->sc.json = NULL;
}

/* Fits the selection; returns false (and holds nothing) when it has no games. */
bool st_fit(st_report *r, int g, int l, st_selection *x)
{
    int n = r->n_players, G = g < 0 ? r->n_groups : 1;
    memset(x, 0, sizeof *x);
    if (rt_data_init(&x->d, n, G) != 0)
        die_fail(r->cmd, "out of memory");
    for (long i = 0; i < r->n_results; i++) {
        const st_result *y = &r->results[i];
        if ((g >= 0 && y->group != g) || (l >= 0 && y->league != l))
            continue;
        int gg = g < 0 ? y->group : 0;
        *rt_cell(&x->d, x->d.games, gg, y->black, y->white) += 1;
        *rt_cell(&x->d, x->d.wins, gg, y->black, y->white) += y->winner == HX_BLACK;
        x->games[y->black]++, x->games[y->white]++;
        x->as[y->black][0]++, x->as[y->white][1]++;
        x->won_as[y->black][0] += y->winner == HX_BLACK;
        x->won_as[y->white][1] += y->winner == HX_WHITE;
        x->total++;
    }
    if (x->total == 0) {
        rt_data_free(&x->d);
        return false;
    }
    x->anchor = -1;
    for (int i = 0; i < n; i++)
        if (x->games[i] &&
            (r->anchor ? strcmp(r->players[i].name, r->anchor) == 0 : strcmp(r->players[i].name, "random") == 0))
            x->anchor = i;
    if (r->anchor && x->anchor < 0 && l < 0)
        die_usage(r->cmd, "--anchor %s: no such agent in the selected games", r->anchor);
    rt_options o = { .prior = r->prior, .anchor = x->anchor, .bootstrap = r->bootstrap, .seed = r->seed };
    if (rt_fit_all(&x->d, &o, &x->f) != 0)
        die_fail(r->cmd, "%s: the rating fit did not converge", g < 0 ? "pooled" : r->groups[g].name);
    /* players of this selection, best first; those who did not play it are left out of the pool mean */
    x->m = 0;
    for (int i = 0; i < n; i++)
        if (x->games[i])
            x->rank[x->m++] = i;
    const double *elo = x->f.elo;
    for (int i = 1; i < x->m; i++)
        for (int j = i; j > 0 && (elo[x->rank[j]] > elo[x->rank[j - 1]] ||
                                  (elo[x->rank[j]] == elo[x->rank[j - 1]] &&
                                   strcmp(r->players[x->rank[j]].name, r->players[x->rank[j - 1]].name) < 0));
             j--) {
            int tmp = x->rank[j];
            x->rank[j] = x->rank[j - 1];
            x->rank[j - 1] = tmp;
        }
    return true;
}

void st_selection_free(st_selection *x)
{
    rt_fit_free(&x->f);
    rt_data_free(&x->d);
}


void st_ratings_table(const st_report *r, int g, const st_selection *x, tb_table *t)
{
    const rt_fit *f = &x->f;
    int n = r->n_players;
    char title[300];
    snprintf(title, sizeof title, "%s: %ld games", g < 0 ? "pooled" : r->groups[g].name, x->total);
    enum { RANK, NAME, ELO, PM, LOWER, UPPER, GAMES, SCORE, BLACK, WHITE, LOS, COLS };
    tb_init(t, title, COLS);
    tb_key_set(t, "variant", g < 0 ? "pooled" : r->groups[g].variant);
    tb_key_set(t, "board", g < 0 ? "" : r->groups[g].board);
    static const char *const head[] = { "rank", "name", "elo", "+-", "lower", "upper", "games", "score%",
                                        "black%", "white%", "los%" };
    static const char *const csv[] = { "rank", "name", "elo", "plus_minus", "lower", "upper", "games",
                                       "score_pct", "black_score_pct", "white_score_pct", "los_pct" };
    for (int c = 0; c < COLS; c++) {
        tb_column(t, c, head[c], c != NAME);
        tb_column_csv(t, c, csv[c], c == LOWER || c == UPPER);
    }
    for (int k = 0; k < x->m; k++) {
        int i = x->rank[k];
        tb_row(t);
        tb_set(t, RANK, "%d", k + 1);
        tb_set(t, NAME, "%s", r->players[i].name);
        tb_set_real(t, ELO, f->elo[i], 0);
        if (f->resamples) {
            tb_set_real(t, PM, (f->hi[i] - f->lo[i]) / 2, 0);
            tb_set_real(t, LOWER, f->lo[i], 0);
            tb_set_real(t, UPPER, f->hi[i], 0);
        }
        tb_set(t, GAMES, "%ld", x->games[i]);
        tb_set_real(t, SCORE, 100.0 * (double)(x->won_as[i][0] + x->won_as[i][1]) / (double)x->games[i], 1);
        if (x->as[i][0])
            tb_set_real(t, BLACK, 100.0 * (double)x->won_as[i][0] / (double)x->as[i][0], 1);
        if (x->as[i][1])
            tb_set_real(t, WHITE, 100.0 * (double)x->won_as[i][1] / (double)x->as[i][1], 1);
        /* undefined (empty, JSON null): the last player, no bootstrap, or no chain of games to the next */
        if (k + 1 < x->m && f->resamples && rt_connected(&x->d, i, x->rank[k + 1]))
            tb_set_real(t, LOS, 100.0 * rt_los(f, n, i, x->rank[k + 1]), 0);
    }
    const char *anchor = x->anchor >= 0 ? r->players[x->anchor].name : NULL;
    if (g >= 0 && f->resamples)
        snprintf(t->note, sizeof t->note, "first-move advantage: %+.0f Elo (95%%: %+.0f to %+.0f); anchor: %s",
                 f->adv[0], f->adv_lo[0], f->adv_hi[0], anchor ? anchor : "pool mean");
    else if (g >= 0)
        snprintf(t->note, sizeof t->note, "first-move advantage: %+.0f Elo; anchor: %s", f->adv[0],
                 anchor ? anchor : "pool mean");
    else
        snprintf(t->note, sizeof t->note, "one first-move advantage per variant and board; anchor: %s",
                 anchor ? anchor : "pool mean");
    if (!f->resamples)
        strncat(t->note, "; no bootstrap", sizeof t->note - strlen(t->note) - 1);
}

int st_order(st_report *r, int g, int *order)
{
    static st_selection x;
    int boot = r->bootstrap;
    r->bootstrap = 0; /* the order only */
    bool any = st_fit(r, g, -1, &x);
    r->bootstrap = boot;
    if (!any)
        return 0;
    memcpy(order, x.rank, sizeof *order * (size_t)x.m);
    int m = x.m;
    st_selection_free(&x);
    return m;
}

void st_counts(const st_report *r, int g, const int *order, int m, long *wins, long *games)
{
    int where[ST_MAX_PLAYERS];
    for (int i = 0; i < r->n_players; i++)
        where[i] = -1;
    for (int k = 0; k < m; k++)
        where[order[k]] = k;
    memset(wins, 0, sizeof *wins * (size_t)m * (size_t)m);
    memset(games, 0, sizeof *games * (size_t)m * (size_t)m);
    for (long i = 0; i < r->n_results; i++) {
        const st_result *y = &r->results[i];
        if (y->group != g || where[y->black] < 0 || where[y->white] < 0)
            continue;
        size_t cell = (size_t)where[y->black] * (size_t)m + (size_t)where[y->white];
        games[cell]++;
        wins[cell] += y->winner == HX_BLACK;
    }
}

void st_matrix_table(const st_report *r, int g, const int *order, int m, const long *wins, const long *games,
                     bool score, tb_table *t)
{
    long total = 0;
    for (int k = 0; k < m * m; k++)
        total += games[k];
    char title[300];
    snprintf(title, sizeof title, "%s: %ld games; rows move first (Black), in rating order; %s", r->groups[g].name,
             total, score ? "cells: the row's score %" : "cells: the row's wins-losses");
    tb_init(t, title, m + 1);
    tb_key_set(t, "variant", r->groups[g].variant);
    tb_key_set(t, "board", r->groups[g].board);
    tb_column(t, 0, "black \\ white", false);
    for (int c = 0; c < m; c++)
        tb_column(t, c + 1, r->players[order[c]].name, true);
    for (int a = 0; a < m; a++) {
        tb_row(t);
        tb_set(t, 0, "%s", r->players[order[a]].name);
        for (int c = 0; c < m; c++) {
            long ww = wins[a * m + c], gg = games[a * m + c];
            if (a == c || gg == 0)
                tb_set(t, c + 1, "%s", "");
            else if (score)
                tb_set(t, c + 1, "%.1f", 100.0 * (double)ww / (double)gg);
            else
                tb_set(t, c + 1, "%ld-%ld", ww, gg - ww);
        }
    }
}
