/* arena/cli/cmd_ratings.c — `arena ratings` (Bradley–Terry Elo with first-move advantage and bootstrap
 * intervals, per variant and board and pooled) and `arena matrix` (win matrices: rows move first), both
 * read from the results database for one scope (the newest league by default, a league, a run, or every
 * game pooled) and written as text, Markdown, CSV, LaTeX, JSON or HTML (docs/ratings.md, docs/formats.md). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bt.h"
#include "json.h"
#include "cli.h"
#include "cli_db.h"
#include "commands.h"
#include "query.h"
#include "store.h"
#include "tabulate.h"

#define MAX_PLAYERS 256
#define MAX_GROUPS 64

typedef struct {
    int group, league, black, white, winner; /* winner: HX_BLACK or HX_WHITE; league: index, -1 for none */
} result;

typedef struct {
    char name[96];
    int64_t id;
} player;

typedef struct {
    char name[48];    /* "classical 5x5" */
    char variant[24], board[16];
} group;

typedef struct {
    int64_t id;
    char created[32];
} league_info;

#define MAX_LEAGUES 4096

/* Which games a report covers (docs/ratings.md#scope). */
typedef enum { SC_LEAGUE, SC_RUN, SC_POOL, SC_HISTORY } scope_kind;

typedef struct {
    scope_kind kind;
    int64_t league, run;          /* SC_LEAGUE, SC_RUN */
    char name[256], started[32];  /* the league's name and start, or the run's kind and first game's start */
    long leagues, match_runs;     /* SC_POOL, SC_HISTORY: distinct leagues, runs of games outside leagues */
    char line[800];               /* the first line of text and md ("league 7 'nightly' (...)") */
    char *json;                   /* its JSON object */
} scope_info;

typedef struct {
    const char *cmd, *db, *anchor;
    cli_filter filter;    /* --league, --run, --variant, --board, --since */
    tb_format fmt;
    int bootstrap, scope; /* scope: 0 all, 1 groups, 2 pooled (tables, not games) */
    bool history;         /* one pooled fit per league */
    bool pool;            /* every game of the database, not the newest league */
    scope_info sc;
    double prior;
    uint64_t seed;
    /* loaded */
    player players[MAX_PLAYERS];
    group groups[MAX_GROUPS];
    league_info leagues[MAX_LEAGUES];
    int n_players, n_groups, n_leagues;
    result *results;
    long n_results;
    bool unsandboxed[MAX_PLAYERS];          /* played a selected game without a sandbox */
    const char *unsandboxed_names[MAX_PLAYERS]; /* their names, in name order */
    tb_caveat caveat;                       /* naming them under every report */
} report;

static const char ratings_help[] =
    "usage: arena ratings [--db PATH] [--league L | --run N | --pool] [FILTERS] [--anchor NAME]\n"
    "                     [--bootstrap N] [--seed S] [--prior G] [--scope all|groups|pooled] [--history]\n"
    "                     [--format text|md|csv|tex|json|html]\n\n"
    "Elo ratings from the stored games: a Bradley-Terry model with a fitted first-move advantage, by\n"
    "maximum likelihood, for each variant and board and pooled over all of them (one advantage per\n"
    "variant and board), with 95% intervals from a parametric bootstrap (docs/ratings.md).\n"
    "The games are those of one league: the newest league that has games (the newest run when the\n"
    "database has no league), unless --league, --run or --pool says otherwise; the first line (JSON:\n"
    "\"scope\") says which.\n"
    "Columns: rank, name, Elo, +- (half the 95% interval), games, score %, score % as Black, score % as\n"
    "White, LOS % (likelihood of superiority over the next player); JSON and CSV add lower and upper.\n\n"
    "  --db PATH          results database (default results/arena.db)\n"
    "  --league L         the games of league L (an id, or a name: its newest league)\n"
    "  --run N            the games of run N (an 'arena match', or one sitting of a league)\n"
    "  --pool             every game of the database, all leagues and runs in one fit\n"
    "  --variant V        one variant      --board RxC    one board size\n"
    "  --since T          games finished at or after T (ISO 8601, e.g. 2026-11-01)\n"
    "  --anchor NAME      the player rated 0 (default: 'random' when present, else the pool mean)\n"
    "  --bootstrap N      resamples for the intervals (default 1000; 0: none)\n"
    "  --seed S           of the bootstrap (default 1)\n"
    "  --prior G          virtual games per player, half won, against the pool's zero (default 1)\n"
    "  --scope S          tables: all (default), groups (each variant and board), pooled (over them)\n"
    "  --history          one pooled fit per league instead: league, date, name, elo, +-, games, score %;\n"
    "                     with --league, every league of that name (rating history for plots)\n"
    "  --format F         text (default), md, csv, tex, json, html; --json is --format json\n\n"
    "Exit status: 0 done, 1 database error or no games, 2 bad input.\n";

static const char matrix_help[] =
    "usage: arena matrix [--db PATH] [--league L | --run N | --pool] [FILTERS] [--score]\n"
    "                    [--format text|md|csv|tex|json|html]\n\n"
    "Win matrices, one per variant and board: rows are the agent moving first (Black), columns the agent\n"
    "moving second (White), each cell 'W-L' from the row's view. --score gives the row's score in %\n"
    "instead. CSV is one row per pairing: variant, board, black, white, games, black_wins, white_wins,\n"
    "black_score_pct. Scope (the newest league by default) and filters as for 'arena ratings'.\n\n"
    "Exit status: 0 done, 1 database error or no games, 2 bad input.\n";

static int find_or_add_group(report *r, const char *variant, int rows, int cols)
{
    char name[48];
    snprintf(name, sizeof name, "%s %dx%d", variant, rows, cols);
    for (int g = 0; g < r->n_groups; g++)
        if (strcmp(r->groups[g].name, name) == 0)
            return g;
    if (r->n_groups == MAX_GROUPS)
        cli_fail(r->cmd, "more than %d variant and board combinations; filter with --variant or --board", MAX_GROUPS);
    group *x = &r->groups[r->n_groups];
    snprintf(x->name, sizeof x->name, "%s", name);
    snprintf(x->variant, sizeof x->variant, "%s", variant);
    snprintf(x->board, sizeof x->board, "%dx%d", rows, cols);
    return r->n_groups++;
}

static int find_or_add_player(report *r, int64_t id, const char *name)
{
    for (int i = 0; i < r->n_players; i++)
        if (r->players[i].id == id)
            return i;
    if (r->n_players == MAX_PLAYERS)
        cli_fail(r->cmd, "more than %d agents in the selection", MAX_PLAYERS);
    player *p = &r->players[r->n_players];
    p->id = id;
    snprintf(p->name, sizeof p->name, "%s", name);
    return r->n_players++;
}

static int by_group_name(const void *a, const void *b)
{
    return strcmp(((const group *)a)->name, ((const group *)b)->name);
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
            cli_fail(cmd, "out of memory");
    }
    (*ids)[(*n)++] = id;
}

/* JSON text of a scope: its kind, what it is, its game count and the filters that narrowed it. */
static char *scope_json(const report *r, long games)
{
    const scope_info *sc = &r->sc;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        cli_fail(r->cmd, "out of memory");
    static const char *const kinds[] = { "league", "run", "pool", "history" };
    fprintf(f, "\"scope\":{\"kind\":\"%s\"", kinds[sc->kind]);
    switch (sc->kind) {
    case SC_LEAGUE:
        fprintf(f, ",\"league\":%lld,\"name\":", (long long)sc->league);
        json_string(f, sc->name);
        fputs(",\"started\":", f);
        json_string(f, sc->started);
        break;
    case SC_RUN:
        fprintf(f, ",\"run\":%lld,\"run_kind\":", (long long)sc->run);
        json_string(f, sc->name);
        fputs(",\"started\":", f);
        json_string(f, sc->started);
        break;
    case SC_HISTORY:
        fputs(",\"name\":", f);
        if (sc->name[0])
            json_string(f, sc->name);
        else
            fputs("null", f);
        /* fall through */
    case SC_POOL: fprintf(f, ",\"leagues\":%ld,\"match_runs\":%ld", sc->leagues, sc->match_runs); break;
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
        cli_fail(r->cmd, "out of memory");
    return text;
}

/* The scope's first line ("league 7 'nightly' (started 2026-11-23T01:00:00Z, 1740 games)") and JSON. */
static void describe_scope(report *r)
{
    scope_info *sc = &r->sc;
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
    case SC_LEAGUE:
        snprintf(sc->line, sizeof sc->line, "league %lld '%.200s' (started %s, %s)", (long long)sc->league, sc->name,
                 sc->started, games);
        break;
    case SC_RUN:
        snprintf(sc->line, sizeof sc->line, "%s run %lld (started %s, %s)", sc->name, (long long)sc->run,
                 sc->started, games);
        break;
    case SC_POOL:
        snprintf(sc->line, sizeof sc->line, "pooled: %ld league%s, %ld match run%s, %s", sc->leagues,
                 sc->leagues == 1 ? "" : "s", sc->match_runs, sc->match_runs == 1 ? "" : "s", games);
        break;
    case SC_HISTORY:
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

static void load(report *r)
{
    /* a history covers every league with the selected league's name (or every league) */
    r->filter.f.league_series = r->history;
    store_db *s = cli_filter_open(r->cmd, r->db, &r->filter);
    scope_info *sc = &r->sc;
    if (r->history)
        sc->kind = SC_HISTORY;
    else if (r->pool)
        sc->kind = SC_POOL;
    else if (r->filter.f.league > 0)
        sc->kind = SC_LEAGUE;
    else if (r->filter.f.run > 0)
        sc->kind = SC_RUN;
    else { /* the default: the newest league with games, else the newest run */
        int64_t league = 0, run = 0;
        if (store_newest_with_games(s, &league, &run) != 0)
            cli_fail(r->cmd, "%s: %s", r->db, store_error(s));
        if (run == 0)
            cli_fail(r->cmd, "%s: no games match", r->db);
        sc->kind = league > 0 ? SC_LEAGUE : SC_RUN;
        if (league > 0)
            r->filter.f.league = league;
        else
            r->filter.f.run = run;
    }
    sc->league = r->filter.f.league;
    sc->run = r->filter.f.run;
    int64_t *league_ids = NULL, *run_ids = NULL;
    long league_cap = 0, run_cap = 0;
    store_games *q = store_query(s, &r->filter.f);
    if (!q)
        cli_fail(r->cmd, "%s: %s", r->db, store_error(s));
    long cap = 0;
    int rc;
    store_game_row row;
    while ((rc = store_games_next(q, &row)) == 1) {
        if (r->n_results == cap) {
            cap = cap ? 2 * cap : 4096;
            r->results = realloc(r->results, sizeof *r->results * (size_t)cap);
            if (!r->results)
                cli_fail(r->cmd, "out of memory");
        }
        result *x = &r->results[r->n_results++];
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
        if (r->n_results == 1) { /* what the scope is, from its first game */
            if (sc->kind == SC_LEAGUE || sc->kind == SC_HISTORY) {
                snprintf(sc->name, sizeof sc->name, "%s", sc->kind == SC_HISTORY && !r->filter.league ? "" : row.league_name);
                iso_seconds(sc->started, sizeof sc->started, row.league_created);
            } else if (sc->kind == SC_RUN) {
                snprintf(sc->name, sizeof sc->name, "%s", row.run_kind[0] ? row.run_kind : "unknown");
                iso_seconds(sc->started, sizeof sc->started, row.started);
            }
        }
        if (r->history) {
            for (int k = r->n_leagues - 1; k >= 0 && x->league < 0; k--)
                if (r->leagues[k].id == row.league)
                    x->league = k;
            if (x->league < 0) {
                if (r->n_leagues == MAX_LEAGUES)
                    cli_fail(r->cmd, "more than %d leagues in the history; select fewer with --since", MAX_LEAGUES);
                league_info *li = &r->leagues[r->n_leagues];
                li->id = row.league;
                snprintf(li->created, sizeof li->created, "%s", row.league_created);
                x->league = r->n_leagues++;
            }
        }
    }
    store_games_end(q);
    if (rc != 0)
        cli_fail(r->cmd, "%s: %s", r->db, store_error(s));
    store_close(s);
    free(league_ids);
    free(run_ids);
    if (r->n_results == 0)
        cli_fail(r->cmd, "%s: no games match", r->db);
    describe_scope(r);
    /* the agents that played without a sandbox, in name order, named under every table */
    r->caveat = (tb_caveat){ .key = "unsandboxed", .label = CLI_UNSANDBOXED, .names = r->unsandboxed_names };
    for (int i = 0; i < r->n_players; i++) {
        if (!r->unsandboxed[i])
            continue;
        int j = r->caveat.n++;
        for (; j > 0 && strcmp(r->players[i].name, r->unsandboxed_names[j - 1]) < 0; j--)
            r->unsandboxed_names[j] = r->unsandboxed_names[j - 1];
        r->unsandboxed_names[j] = r->players[i].name;
    }
    /* groups in name order, so output does not depend on the order games were played */
    int order[MAX_GROUPS];
    group sorted[MAX_GROUPS];
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

/* One fit: the games of group g (every group when g < 0) in league l (every league when l < 0), the
 * players' counts, and the players who played, best first. */
typedef struct {
    rt_data d;
    rt_fit f;
    long games[MAX_PLAYERS], as[MAX_PLAYERS][2], won_as[MAX_PLAYERS][2], total;
    int anchor, rank[MAX_PLAYERS], m;
} selection;

/* Fits the selection; returns false (and holds nothing) when it has no games. */
static bool fit_selection(report *r, int g, int l, selection *x)
{
    int n = r->n_players, G = g < 0 ? r->n_groups : 1;
    memset(x, 0, sizeof *x);
    if (rt_data_init(&x->d, n, G) != 0)
        cli_fail(r->cmd, "out of memory");
    for (long i = 0; i < r->n_results; i++) {
        const result *y = &r->results[i];
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
        cli_usage_error(r->cmd, "--anchor %s: no such agent in the selected games", r->anchor);
    rt_options o = { .prior = r->prior, .anchor = x->anchor, .bootstrap = r->bootstrap, .seed = r->seed };
    if (rt_fit_all(&x->d, &o, &x->f) != 0)
        cli_fail(r->cmd, "%s: the rating fit did not converge", g < 0 ? "pooled" : r->groups[g].name);
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

static void selection_free(selection *x)
{
    rt_fit_free(&x->f);
    rt_data_free(&x->d);
}

/* A number in JSON: full precision, null when it is not finite. */
static void json_number(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.17g", v + 0.0);
    else
        fputs("null", f);
}

/* The JSON members of a ratings table beyond its rows: scope, anchor, and the first-move advantage (of its
 * variant and board; of each, for the pooled table). */
static char *ratings_json(const report *r, int g, const selection *x, const char *anchor)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        cli_fail(r->cmd, "out of memory");
    fprintf(f, "%s,\"anchor\":", r->sc.json);
    if (anchor)
        json_string(f, anchor);
    else
        fputs("null", f);
    const rt_fit *fit = &x->f;
    if (g >= 0) {
        fputs(",\"first_move_advantage\":{\"elo\":", f);
        json_number(f, fit->adv[0]);
        fputs(",\"lower\":", f);
        json_number(f, fit->adv_lo[0]);
        fputs(",\"upper\":", f);
        json_number(f, fit->adv_hi[0]);
        fputc('}', f);
    } else {
        fputs(",\"first_move_advantages\":[", f);
        for (int k = 0; k < r->n_groups; k++) {
            fputs(k ? ",{\"variant\":" : "{\"variant\":", f);
            json_string(f, r->groups[k].variant);
            fputs(",\"board\":", f);
            json_string(f, r->groups[k].board);
            fputs(",\"elo\":", f);
            json_number(f, fit->adv[k]);
            fputs(",\"lower\":", f);
            json_number(f, fit->adv_lo[k]);
            fputs(",\"upper\":", f);
            json_number(f, fit->adv_hi[k]);
            fputc('}', f);
        }
        fputc(']', f);
    }
    if (fclose(f) != 0)
        cli_fail(r->cmd, "out of memory");
    return text;
}

/* Ratings of the results in group g (or all groups when g < 0) as a table. */
static void ratings_table(report *r, int g, bool first, bool last)
{
    static selection x;
    if (!fit_selection(r, g, -1, &x))
        return;
    const rt_fit *f = &x.f;
    int n = r->n_players;
    char title[300];
    snprintf(title, sizeof title, "%s: %ld games", g < 0 ? "pooled" : r->groups[g].name, x.total);
    enum { RANK, NAME, ELO, PM, LOWER, UPPER, GAMES, SCORE, BLACK, WHITE, LOS, COLS };
    tb_table t;
    tb_init(&t, title, COLS);
    t.caveat = &r->caveat;
    t.preamble = r->sc.line;
    tb_key_set(&t, "variant", g < 0 ? "pooled" : r->groups[g].variant);
    tb_key_set(&t, "board", g < 0 ? "" : r->groups[g].board);
    static const char *const head[] = { "rank", "name", "elo", "+-", "lower", "upper", "games", "score%",
                                        "black%", "white%", "los%" };
    static const char *const csv[] = { "rank", "name", "elo", "plus_minus", "lower", "upper", "games",
                                       "score_pct", "black_score_pct", "white_score_pct", "los_pct" };
    for (int c = 0; c < COLS; c++) {
        tb_column(&t, c, head[c], c != NAME);
        tb_column_csv(&t, c, csv[c], c == LOWER || c == UPPER);
    }
    for (int k = 0; k < x.m; k++) {
        int i = x.rank[k];
        tb_row(&t);
        tb_set(&t, RANK, "%d", k + 1);
        tb_set(&t, NAME, "%s", r->players[i].name);
        tb_set_real(&t, ELO, f->elo[i], 0);
        if (f->resamples) {
            tb_set_real(&t, PM, (f->hi[i] - f->lo[i]) / 2, 0);
            tb_set_real(&t, LOWER, f->lo[i], 0);
            tb_set_real(&t, UPPER, f->hi[i], 0);
        }
        tb_set(&t, GAMES, "%ld", x.games[i]);
        tb_set_real(&t, SCORE, 100.0 * (double)(x.won_as[i][0] + x.won_as[i][1]) / (double)x.games[i], 1);
        if (x.as[i][0])
            tb_set_real(&t, BLACK, 100.0 * (double)x.won_as[i][0] / (double)x.as[i][0], 1);
        if (x.as[i][1])
            tb_set_real(&t, WHITE, 100.0 * (double)x.won_as[i][1] / (double)x.as[i][1], 1);
        /* undefined (empty, JSON null): the last player, no bootstrap, or no chain of games to the next */
        if (k + 1 < x.m && f->resamples && rt_connected(&x.d, i, x.rank[k + 1]))
            tb_set_real(&t, LOS, 100.0 * rt_los(f, n, i, x.rank[k + 1]), 0);
    }
    const char *anchor = x.anchor >= 0 ? r->players[x.anchor].name : NULL;
    if (g >= 0 && f->resamples)
        snprintf(t.note, sizeof t.note, "first-move advantage: %+.0f Elo (95%%: %+.0f to %+.0f); anchor: %s",
                 f->adv[0], f->adv_lo[0], f->adv_hi[0], anchor ? anchor : "pool mean");
    else if (g >= 0)
        snprintf(t.note, sizeof t.note, "first-move advantage: %+.0f Elo; anchor: %s", f->adv[0],
                 anchor ? anchor : "pool mean");
    else
        snprintf(t.note, sizeof t.note, "one first-move advantage per variant and board; anchor: %s",
                 anchor ? anchor : "pool mean");
    if (!f->resamples)
        strncat(t.note, "; no bootstrap", sizeof t.note - strlen(t.note) - 1);
    t.json = ratings_json(r, g, &x, anchor);
    tb_write(stdout, &t, r->fmt, first, last);
    tb_free(&t);
    selection_free(&x);
}

/* The rating history: one pooled fit per league, in league order. */
static void history_table(report *r)
{
    static selection x;
    enum { LEAGUE, DATE, NAME, ELO, PM, LOWER, UPPER, GAMES, SCORE, COLS };
    tb_table t;
    tb_init(&t, "rating history: pooled ratings of each league", COLS);
    t.caveat = &r->caveat;
    t.preamble = r->sc.line;
    static const char *const head[] = { "league", "date", "name", "elo", "+-", "lower", "upper", "games", "score%" };
    static const char *const csv[] = { "league", "date", "name", "elo", "plus_minus", "lower", "upper", "games",
                                       "score_pct" };
    for (int c = 0; c < COLS; c++) {
        tb_column(&t, c, head[c], c != DATE && c != NAME);
        tb_column_csv(&t, c, csv[c], c == LOWER || c == UPPER);
    }
    for (int l = 0; l < r->n_leagues; l++) {
        if (!fit_selection(r, -1, l, &x))
            continue;
        for (int k = 0; k < x.m; k++) {
            int i = x.rank[k];
            tb_row(&t);
            tb_set(&t, LEAGUE, "%lld", (long long)r->leagues[l].id);
            tb_set(&t, DATE, "%.19s", r->leagues[l].created);
            tb_set(&t, NAME, "%s", r->players[i].name);
            tb_set_real(&t, ELO, x.f.elo[i], 0);
            if (x.f.resamples) {
                tb_set_real(&t, PM, (x.f.hi[i] - x.f.lo[i]) / 2, 0);
                tb_set_real(&t, LOWER, x.f.lo[i], 0);
                tb_set_real(&t, UPPER, x.f.hi[i], 0);
            }
            tb_set(&t, GAMES, "%ld", x.games[i]);
            tb_set_real(&t, SCORE, 100.0 * (double)(x.won_as[i][0] + x.won_as[i][1]) / (double)x.games[i], 1);
        }
        selection_free(&x);
    }
    snprintf(t.note, sizeof t.note, "%d league%s; each fitted on its own games; anchor: %s", r->n_leagues,
             r->n_leagues == 1 ? "" : "s",
             r->anchor ? r->anchor : "'random' where it played, else the pool mean");
    t.json = strdup(r->sc.json);
    tb_write(stdout, &t, r->fmt, true, true);
    tb_free(&t);
}

typedef enum { O_ANCHOR = CLI_O_OWN, O_BOOT, O_SEED, O_PRIOR, O_SCOPE, O_SCORE, O_HISTORY, O_POOL } opt;

static void parse(report *r, int argc, char **argv, const char *help, bool *score)
{
    static const struct option options[] = {
        CLI_DB_OPTIONS, CLI_FILTER_OPTIONS,
        { "league", required_argument, 0, CLI_O_LEAGUE }, { "since", required_argument, 0, CLI_O_SINCE },
        { "run", required_argument, 0, CLI_O_RUN },       { "pool", no_argument, 0, O_POOL },
        { "anchor", required_argument, 0, O_ANCHOR }, { "bootstrap", required_argument, 0, O_BOOT },
        { "seed", required_argument, 0, O_SEED },     { "prior", required_argument, 0, O_PRIOR },
        { "scope", required_argument, 0, O_SCOPE },   { "score", no_argument, 0, O_SCORE },
        { "history", no_argument, 0, O_HISTORY },
        { 0, 0, 0, 0 },
    };
    r->db = STORE_DEFAULT_PATH;
    r->bootstrap = 1000;
    r->prior = 1;
    r->seed = 1;
    int c;
    bool matrix = score != NULL;
    while ((c = cli_getopt(r->cmd, argc, argv, options)) != -1) {
        if (matrix && (c == O_ANCHOR || c == O_BOOT || c == O_SEED || c == O_PRIOR || c == O_SCOPE || c == O_HISTORY))
            c = '?';
        if (!matrix && c == O_SCORE)
            c = '?';
        if (cli_filter_option(r->cmd, c, optarg, &r->filter))
            continue;
        switch (c) {
        case CLI_O_DB: r->db = optarg; break;
        case CLI_O_FORMAT: {
            int f = tb_format_parse(optarg);
            if (f < 0)
                cli_usage_error(r->cmd, "--format '%s': expected text, md, csv, tex, json or html", optarg);
            r->fmt = (tb_format)f;
            break;
        }
        case CLI_O_JSON: r->fmt = TB_JSON; break;
        case CLI_O_HELP: fputs(help, stdout); exit(CLI_OK);
        case O_ANCHOR: r->anchor = optarg; break;
        case O_BOOT: r->bootstrap = (int)cli_count(r->cmd, "--bootstrap", optarg, 0, 100000); break;
        case O_SEED: r->seed = cli_count(r->cmd, "--seed", optarg, 0, UINT64_MAX); break;
        case O_PRIOR: {
            char *end;
            r->prior = strtod(optarg, &end);
            if (*end || !(r->prior >= 0 && r->prior <= 1000))
                cli_usage_error(r->cmd, "--prior '%s': expected a number of virtual games from 0 to 1000", optarg);
            break;
        }
        case O_SCOPE:
            r->scope = strcmp(optarg, "all") == 0 ? 0 : strcmp(optarg, "groups") == 0 ? 1
                     : strcmp(optarg, "pooled") == 0 ? 2 : -1;
            if (r->scope < 0)
                cli_usage_error(r->cmd, "--scope '%s': expected all, groups or pooled", optarg);
            break;
        case O_SCORE: *score = true; break;
        case O_HISTORY: r->history = true; break;
        case O_POOL: r->pool = true; break;
        default: cli_usage_error(r->cmd, "option '%s' does not apply to 'arena %s' (see --help)", argv[optind - 1],
                                 r->cmd);
        }
    }
    if (optind < argc)
        cli_usage_error(r->cmd, "unexpected argument '%s'", argv[optind]);
    if (r->pool && (r->filter.league || r->filter.f.run))
        cli_usage_error(r->cmd, "--pool takes every game; it does not go with --%s", r->filter.league ? "league" : "run");
    if (r->filter.league && r->filter.f.run)
        cli_usage_error(r->cmd, "--league and --run: choose one");
    if (r->history && (r->pool || r->filter.f.run))
        cli_usage_error(r->cmd, "--history fits each league on its own; it does not go with --%s",
                        r->pool ? "pool" : "run");
}

int cmd_ratings(int argc, char **argv)
{
    static report r;
    memset(&r, 0, sizeof r);
    r.cmd = "ratings";
    parse(&r, argc, argv, ratings_help, NULL);
    load(&r);
    int tables = (r.scope != 2 ? r.n_groups : 0) + (r.scope != 1 ? 1 : 0), k = 0;
    if (r.history)
        history_table(&r);
    else {
        if (r.scope != 2)
            for (int g = 0; g < r.n_groups; g++, k++)
                ratings_table(&r, g, k == 0, k == tables - 1);
        if (r.scope != 1)
            ratings_table(&r, -1, k == 0, true);
    }
    free(r.results);
    free(r.sc.json);
    return CLI_OK;
}

int cmd_matrix(int argc, char **argv)
{
    static report r;
    memset(&r, 0, sizeof r);
    r.cmd = "matrix";
    bool score = false;
    parse(&r, argc, argv, matrix_help, &score);
    load(&r);
    int n = r.n_players;
    /* players in name order */
    int order[MAX_PLAYERS];
    for (int i = 0; i < n; i++)
        order[i] = i;
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && strcmp(r.players[order[j]].name, r.players[order[j - 1]].name) < 0; j--) {
            int tmp = order[j];
            order[j] = order[j - 1];
            order[j - 1] = tmp;
        }
    long *w = calloc((size_t)n * (size_t)n, sizeof *w), *l = calloc((size_t)n * (size_t)n, sizeof *l);
    if (!w || !l)
        cli_fail("matrix", "out of memory");
    for (int g = 0; g < r.n_groups; g++) {
        memset(w, 0, sizeof *w * (size_t)n * (size_t)n);
        memset(l, 0, sizeof *l * (size_t)n * (size_t)n);
        bool in[MAX_PLAYERS] = { false };
        long total = 0;
        for (long i = 0; i < r.n_results; i++) {
            const result *x = &r.results[i];
            if (x->group != g)
                continue;
            (x->winner == HX_BLACK ? w : l)[x->black * n + x->white]++;
            in[x->black] = in[x->white] = true;
            total++;
        }
        int cols[MAX_PLAYERS], m = 0;
        for (int i = 0; i < n; i++)
            if (in[order[i]])
                cols[m++] = order[i];
        if (r.fmt == TB_CSV) { /* long form: one row per pairing, numbers only in the numeric columns */
            tb_table t;
            tb_init(&t, r.groups[g].name, 6);
            tb_key_set(&t, "variant", r.groups[g].variant);
            tb_key_set(&t, "board", r.groups[g].board);
            static const char *const head[] = { "black", "white", "games", "black_wins", "white_wins",
                                                "black_score_pct" };
            for (int c = 0; c < 6; c++)
                tb_column(&t, c, head[c], c >= 2);
            for (int a = 0; a < m; a++)
                for (int c = 0; c < m; c++) {
                    long ww = w[cols[a] * n + cols[c]], ll = l[cols[a] * n + cols[c]];
                    if (ww + ll == 0)
                        continue;
                    tb_row(&t);
                    tb_set(&t, 0, "%s", r.players[cols[a]].name);
                    tb_set(&t, 1, "%s", r.players[cols[c]].name);
                    tb_set(&t, 2, "%ld", ww + ll);
                    tb_set(&t, 3, "%ld", ww);
                    tb_set(&t, 4, "%ld", ll);
                    tb_set_real(&t, 5, 100.0 * (double)ww / (double)(ww + ll), 1);
                }
            tb_write(stdout, &t, r.fmt, g == 0, g == r.n_groups - 1);
            tb_free(&t);
            continue;
        }
        char title[300];
        snprintf(title, sizeof title, "%s: %ld games; rows move first (Black); %s", r.groups[g].name, total,
                 score ? "cells: the row's score %" : "cells: the row's wins-losses");
        tb_table t;
        tb_init(&t, title, m + 1);
        t.caveat = &r.caveat;
        t.preamble = r.sc.line;
        tb_key_set(&t, "variant", r.groups[g].variant);
        tb_key_set(&t, "board", r.groups[g].board);
        t.json = strdup(r.sc.json);
        tb_column(&t, 0, "black \\ white", false);
        for (int c = 0; c < m; c++)
            tb_column(&t, c + 1, r.players[cols[c]].name, true);
        for (int a = 0; a < m; a++) {
            tb_row(&t);
            tb_set(&t, 0, "%s", r.players[cols[a]].name);
            for (int c = 0; c < m; c++) {
                long ww = w[cols[a] * n + cols[c]], ll = l[cols[a] * n + cols[c]];
                if (a == c || ww + ll == 0)
                    tb_set(&t, c + 1, "%s", "");
                else if (score)
                    tb_set(&t, c + 1, "%.1f", 100.0 * (double)ww / (double)(ww + ll));
                else
                    tb_set(&t, c + 1, "%ld-%ld", ww, ll);
            }
        }
        tb_write(stdout, &t, r.fmt, g == 0, g == r.n_groups - 1);
        tb_free(&t);
    }
    free(w);
    free(l);
    free(r.results);
    free(r.sc.json);
    return CLI_OK;
}
