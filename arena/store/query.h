/* arena/store/query.h — the read side of the results database, for the reporting commands (games, show, export,
 * ratings, matrix, plot): one filter that selects games, an iterator over the games it selects, an iterator
 * over one game's attempts, and the leagues by id or name. Rows are typed C values; the SQL stays in the
 * store. Texts in a row point into the store's memory and stay valid until the next call on the same
 * iterator (copy what must outlive it). */
#ifndef ARENA_STORE_QUERY_H
#define ARENA_STORE_QUERY_H

#include <stdbool.h>
#include <stdint.h>

#include "store.h"

/* Which games a query selects, and in what order. A zeroed filter selects every game, oldest first; each
 * field that is set narrows the selection (all of them together). */
typedef struct {
    int64_t game;           /* > 0: this game only */
    int64_t run;            /* > 0: the games of this run */
    int64_t league;         /* > 0: the games of this league (with league_series: of its series) */
    bool league_series;     /* league games only, of every league with the name of `league` (of every
                             * league when `league` is 0): a rating history */
    int64_t league_from, league_to; /* > 0: league games only, of leagues with ids from .. to */
    bool by_variant;        /* the games of `variant` only */
    hx_variant variant;
    int rows, cols;         /* rows > 0: the games on this board only */
    const char *agent;      /* not NULL: the games where an agent of this name, or the agent of this label
                             * (NAME#ID), played either colour */
    const char *reason;     /* not NULL: the games that ended so (an hx_end_name()), or "forfeit" for every
                             * reason but connected */
    const char *since;      /* not NULL: the games finished at or after this ISO 8601 time (compared as text,
                             * so "2026-11-01" works) */
    bool newest_first;      /* by game id, descending; else ascending */
    int64_t limit;          /* > 0: at most this many games */
} store_filter;

/* One stored game, with its players and, for a league game, its league. */
typedef struct {
    int64_t id;
    int64_t run;
    const char *run_kind;               /* "match" or "league" ("" if the run row is missing) */
    const char *variant;                /* the variant's name as stored */
    int rows, cols;
    bool swap;                          /* played with the swap rule */
    int64_t black_id, white_id;         /* agent ids */
    const char *black, *white;          /* agent names */
    const char *black_sha256, *white_sha256; /* their executables' hashes */
    uint64_t seed;
    int winner;                         /* HX_BLACK or HX_WHITE */
    const char *reason;                 /* an hx_end_name() */
    const char *detail;                 /* "" for none */
    int attempts;
    double seconds;
    const char *started, *finished;     /* ISO 8601 UTC */
    int64_t league;                     /* the league it was scheduled in, 0 for none */
    const char *league_name, *league_created; /* "" for none */
    const char *league_night;           /* the league's night (arena league --date), else the UTC day it was
                                         * created (YYYY-MM-DD); "" for a game outside leagues */
    bool black_unsandboxed, white_unsandboxed; /* the player ran without a sandbox in this game's run (a trusted
                                                * bot, `sandbox = off`): reports must say so */
    const char *black_label, *white_label; /* what reports show for the players: the agent's name, or NAME#ID
                                            * (its id) when another agent of the same name plays in a game the
                                            * query selects (two setups or builds of one bot) */
    int opening;                        /* how many of its first attempts were its opening, played by the referee
                                         * (games.opening); 0: none */
    const char *black_tc, *white_tc;    /* each player's time control ("40/60+0.5"), "" for none (no game clock) */
    int64_t black_clock_ms, white_clock_ms; /* with a time control, its clock's time left at the end; else -1 */
} store_game_row;

/* One attempt of a game's transcript. */
typedef struct {
    int n;                              /* 1-based */
    int player;                         /* HX_BLACK or HX_WHITE */
    const char *cell;                   /* a cell name ("a1"), or "swap" */
    const char *outcome;                /* an hx_outcome_name(): placed, rejected, collision or swap */
    double ms;                          /* the mover's thinking time in ms; NAN when not recorded (an opening's
                                         * attempt, a game of an older arena) */
} store_attempt_row;

typedef struct store_games store_games;
typedef struct store_transcript store_transcript;

/* The games `f` selects. Returns an iterator (end it with store_games_end), or NULL on error (store_error()
 * says why). */
store_games *store_query(store_db *s, const store_filter *f);

/* The next game: 1 with *row filled, 0 after the last, -1 on error (store_error()). */
int store_games_next(store_games *q, store_game_row *row);

/* Ends the query (NULL is fine). */
void store_games_end(store_games *q);

/* The attempts of game `game` in order (none for an unknown game). NULL on error. */
store_transcript *store_transcript_open(store_db *s, int64_t game);

/* The next attempt: 1 with *row filled, 0 after the last, -1 on error (store_error()). */
int store_transcript_next(store_transcript *t, store_attempt_row *row);

/* Ends the transcript (NULL is fine). */
void store_transcript_end(store_transcript *t);

/* The league `text` names: of the leagues whose id is `text` (when it is a decimal number) or whose name is
 * `text`, the newest. Returns its id, 0 when there is none, -1 on error. */
int64_t store_league_find(store_db *s, const char *text);

/* A league's id and name (a longer name is cut to fit). */
typedef struct {
    int64_t id;
    char name[256];
    char night[11];                     /* its night (arena league --date), else the UTC day it was created */
} store_league_row;

/* League `id`, or the newest league when `id` is 0: 1 with *out filled, 0 when there is none, -1 on error. */
int store_league_get(store_db *s, int64_t id, store_league_row *out);

/* What a report selects by default: *league the newest league that has a stored game, *run the newest run
 * that has one (each 0 when there is none). Returns 0, or -1 on error. */
int store_newest_with_games(store_db *s, int64_t *league, int64_t *run);

#endif
