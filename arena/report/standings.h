/* arena/report/standings.h — the games of one scope (a league, a run, every game, or a league's history) loaded
 * from the results database and fitted: the Bradley–Terry ratings with intervals of each variant and board,
 * pooled, or of each league, with each player's counts and the players ranked best first. `arena ratings`,
 * `arena matrix`, `arena plot` and `arena report` read their numbers from here, so every report of one scope
 * shows the same ratings and intervals. */
#ifndef ARENA_REPORT_STANDINGS_H
#define ARENA_REPORT_STANDINGS_H

#include <stdbool.h>
#include <stdint.h>

#include "bt.h"
#include "query.h"
#include "store.h"
#include "tabulate.h"

/* Resamples of the bootstrap behind every interval and LOS the reports show (ratings, plots, the nightly
 * page), unless --bootstrap says otherwise. */
#define ST_BOOTSTRAP 1000

/* The label of the agents that played without a sandbox (trusted bots, `sandbox = off`), named under every
 * table of a report so their results are not taken for those of sandboxed bots (the CLI's CLI_UNSANDBOXED). */
#define ST_UNSANDBOXED "sandbox off (trusted bots only)"

#define ST_MAX_PLAYERS 256
#define ST_MAX_GROUPS 64

typedef struct {
    int group, league, black, white, winner; /* winner: HX_BLACK or HX_WHITE; league: index, -1 for none */
} st_result;

typedef struct {
    char name[96];
    int64_t id;
} st_player;

typedef struct {
    char name[48];    /* "classical 5x5" */
    char variant[24], board[16];
} st_group;

typedef struct {
    int64_t id;
    char created[32];
    char night[16];   /* its nightly date (YYYY-MM-DD) */
} st_league;

#define ST_MAX_LEAGUES 4096

/* Which games a report covers (docs/ratings.md#scope). */
typedef enum { ST_LEAGUE, ST_RUN, ST_POOL, ST_HISTORY } st_scope_kind;

typedef struct {
    st_scope_kind kind;
    int64_t league, run;          /* ST_LEAGUE, ST_RUN */
    char name[256], started[32];  /* the league's name and start, or the run's kind and first game's start */
    long leagues, match_runs;     /* ST_POOL, ST_HISTORY: distinct leagues, runs of games outside leagues */
    char line[800];               /* the first line of text and md ("league 7 'nightly' (...)") */
    char *json;                   /* its JSON object */
} st_scope;

/* What games: the store's filter (league and run as ids), and the league as the user named it (NULL when not
 * named: a history then covers every league, not those of one name). */
typedef struct {
    store_filter f;
    const char *league;
} st_filter;

typedef struct {
    const char *cmd, *db, *anchor; /* cmd and db name the command and database in messages */
    st_filter filter;     /* --league, --run, --variant, --board, --since */
    tb_format fmt;
    int bootstrap, scope; /* scope: 0 all, 1 groups, 2 pooled (tables, not games) */
    bool history;         /* one pooled fit per league */
    bool pool;            /* every game of the database, not the newest league */
    st_scope sc;
    double prior;
    uint64_t seed;
    /* loaded */
    st_player players[ST_MAX_PLAYERS];
    st_group groups[ST_MAX_GROUPS];
    st_league leagues[ST_MAX_LEAGUES];
    int n_players, n_groups, n_leagues;
    st_result *results;
    long n_results;
    bool unsandboxed[ST_MAX_PLAYERS];          /* played a selected game without a sandbox */
    const char *unsandboxed_names[ST_MAX_PLAYERS]; /* their names, in name order */
    tb_caveat caveat;                       /* naming them under every table */
} st_report;

/* Loads from the open store s the games r selects: r->cmd, r->db, r->filter (its league resolved to an id),
 * r->history and r->pool set by the caller. With neither a league nor a run nor r->pool, the newest league
 * that has games (else the newest run). Groups come in name order. Exits through die_fail() (die.h) on a
 * database error or when no game matches. */
void st_load(st_report *r, store_db *s);

/* One fit: the players' counts, and the players who played, best first (rank[0..m-1]). */
typedef struct {
    rt_data d;
    rt_fit f;
    long games[ST_MAX_PLAYERS], as[ST_MAX_PLAYERS][2], won_as[ST_MAX_PLAYERS][2], total;
    int anchor, rank[ST_MAX_PLAYERS], m;
} st_selection;

/* Fits the games of group g (every group when g < 0; one first-move advantage per group) in league l (every
 * league when l < 0) with r->prior, r->bootstrap, r->seed and the anchor (r->anchor, else 'random' when it
 * played, else the pool mean). Returns false, holding nothing, when the selection has no games. An anchor
 * that did not play exits through die_usage(), a fit that does not converge through die_fail(). */
bool st_fit(st_report *r, int g, int l, st_selection *x);
void st_selection_free(st_selection *x);

/* Frees what st_load() allocated (not r itself). */
void st_free(st_report *r);

/* The ratings table of a fit (st_fit of group g, pooled when g < 0): rank, name, elo, +-, lower and upper
 * (machine columns), games, score %, score % as Black and as White, LOS over the next player; keys variant
 * and board; the first-move advantage and the anchor in the note. The caller sets caveat, preamble and json,
 * writes it (tb_write) and frees it (tb_free). */
void st_ratings_table(const st_report *r, int g, const st_selection *x, tb_table *t);

/* The players of group g in the order of its ratings (a fit without bootstrap), best first, in order[]: their
 * count. */
int st_order(st_report *r, int g, int *order);

/* The games of group g between the m players of order[]: games[a * m + c] of order[a] as Black against
 * order[c] as White, and Black's wins. */
void st_counts(const st_report *r, int g, const int *order, int m, long *wins, long *games);

/* The win matrix of group g as a table (rows Black, columns White, in the order given): cells the row's
 * wins-losses, or with `score` its score %; empty without games. The caller sets caveat, preamble and json. */
void st_matrix_table(const st_report *r, int g, const int *order, int m, const long *wins, const long *games,
                     bool score, tb_table *t);

#endif
