/* arena/store.h — the results database (SQLite; schema in docs/schema.md): agents, runs, and games with
 * the transcript of every attempt. Opening applies pending migrations and refuses a database written by a
 * newer arena. Every finished game is stored in one transaction, so an interruption loses at most the
 * games still being played. */
#ifndef ARENA_STORE_H
#define ARENA_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "protocol.h"

#define STORE_SCHEMA_VERSION 1
#define STORE_DEFAULT_PATH "results/arena.db"

typedef struct hx_store hx_store;

/* Opens (creating when absent) the database at `path` in WAL mode and migrates it to
 * STORE_SCHEMA_VERSION. Returns NULL with a one-line reason in err (e.g. a newer schema). */
hx_store *store_open(const char *path, char *err, size_t errlen);
void store_close(hx_store *s);

/* The id of the agent with this name and executable hash, inserted when new. Returns -1 on error. */
int64_t store_agent(hx_store *s, const char *name, const char *command, const char *version, const char *sha256);

/* A run (a match or a league) and its end. Returns the run id, or -1. */
int64_t store_run_begin(hx_store *s, const char *kind, const char *description);
int store_run_end(hx_store *s, int64_t run);

/* One finished game. `game` holds the attempts (its variant and board are stored too). */
typedef struct {
    int64_t run, black, white; /* agent ids */
    uint64_t seed;
    int winner;                /* HX_BLACK or HX_WHITE */
    pm_end_reason reason;
    const char *detail;        /* may be NULL */
    double seconds;
    const char *started, *finished; /* ISO 8601 UTC timestamps */
    const hx_game *game;
} store_game_rec;

/* Stores a game and its attempts in one transaction. Returns the game id, or -1. */
int64_t store_game(hx_store *s, const store_game_rec *g);

/* The last error message of the database, for reports. */
const char *store_error(hx_store *s);

/* The underlying connection, for read-only queries by the reporting commands. */
struct sqlite3 *store_db(hx_store *s);

/* Current UTC time as "YYYY-MM-DDTHH:MM:SS.mmmZ". */
void store_now(char out[32]);

#endif
