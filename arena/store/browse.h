/* arena/store/browse.h — what a browser of the results database lists (`arena serve`), each list bounded by a
 * limit and read through an index: the leagues newest first and those running now with their progress
 * (schedule rows planned, played, skipped, forfeits, first and last game), and the newest games of a league,
 * of an agent or of two agents against each other, with their league and game pair. Read side, like query.h. */
#ifndef ARENA_STORE_BROWSE_H
#define ARENA_STORE_BROWSE_H

#include <stdint.h>

#include "store.h"

/* A league and how far it has played. */
typedef struct {
    int64_t id;
    char name[256];
    char night[11];                  /* its night, else the UTC day it was created */
    char created[32];                /* ISO 8601 UTC */
    long planned, played, skipped, forfeits;
    char first_started[32], last_finished[32]; /* of its games; "" when none */
} store_league_brief;

/* The `limit` newest leagues, newest first (*out malloc'd, free it). Returns 0, or -1 (store_error()). */
int store_leagues_recent(store_db *s, int limit, store_league_brief **out, int *n);

/* The leagues that may be running now: those with schedule rows still to play (not skipped) whose newest game
 * finished, or which were created, less than `idle_seconds` ago (idle_seconds < 0: however long ago); newest first,
 * at most `limit` (of the `limit` newest with rows to play). Whether one is being played is its lock's to tell
 * (league_lock.h). Returns 0, or -1. */
int store_leagues_running(store_db *s, long idle_seconds, int limit, store_league_brief **out, int *n);

/* How long the games of the newest league named `name` that has games took: its id into *league, its games into
 * *games and their mean duration in seconds (games.seconds: one game, from its start to its end, whatever else
 * was played meanwhile) into *mean_s. Returns 1, 0 when no league of that name has a game, or -1 on error. */
int store_league_pace(store_db *s, const char *name, int64_t *league, long *games, double *mean_s);

/* What the agents played in the newest league with this name and config hash (any seed) that records it
 * (store_league_plays' text), read only: copied to `plays` (size bytes with the NUL). Returns that league's id, 0
 * when there is none (or its text does not fit), -1 on error. */
int64_t store_league_plays_like(store_db *s, const char *name, const char *config_sha256, char *plays, size_t size);

/* League `id`: 1 with *out filled, 0 when there is none, -1 on error. */
int store_league_brief_get(store_db *s, int64_t id, store_league_brief *out);

/* How far each of the n leagues ids[] has played: schedule rows with a game into played[k], rows skipped into
 * skipped[k] (0 and 0 for a league that is not there), read from the schedule's indexes without reading games.
 * Returns 0, or -1 (store_error()). */
int store_league_counts(store_db *s, const int64_t *ids, int n, long *played, long *skipped);

/* A stored game, briefly. */
typedef struct {
    int64_t id, league;              /* league 0: outside leagues */
    int pair;                        /* its game pair in the league's schedule, -1: none */
    char variant[24];
    int rows, cols;
    int64_t black, white;            /* agent ids */
    char black_name[96], white_name[96];
    int winner;                      /* HX_BLACK or HX_WHITE */
    char reason[24], detail[160];    /* an hx_end_name(), "" for no detail */
    char finished[32];
    int attempts;
} store_game_brief;

/* Which games: of league `league` (> 0; newest schedule position first), else of agent `agent` (> 0), against
 * `opponent` only when > 0 and not `agent` itself (newest game first); at most `limit`. Read through indexes
 * (schema 11): the work is bounded by `limit`, however few or many games the agents played. */
typedef struct {
    int64_t league, agent, opponent;
    int limit;
} store_brief_filter;

/* The games f selects (*out malloc'd, free it). Returns 0, or -1 (store_error()). */
int store_games_brief(store_db *s, const store_brief_filter *f, store_game_brief **out, int *n);

/* How SQLite reads the games f selects: the detail strings of EXPLAIN QUERY PLAN for store_games_brief()'s
 * statement, one a line, into out (len bytes). Returns 0, or -1 (an error, or out too short). */
int store_games_brief_plan(store_db *s, const store_brief_filter *f, char *out, size_t len);

#endif
