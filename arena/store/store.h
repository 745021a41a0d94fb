/* arena/store/store.h — the results database (SQLite; schema in docs/schema.md): agents, runs, and games with
 * the transcript of every attempt. Opening applies pending migrations and refuses a database written by a
 * newer arena. Every finished game is stored in one transaction, so an interruption loses at most the
 * games still being played. This is the writing side; the reporting commands read through query.h. */
#ifndef ARENA_STORE_STORE_H
#define ARENA_STORE_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "result.h"

#define STORE_SCHEMA_VERSION 11
#define STORE_DEFAULT_PATH "results/arena.db"

typedef struct store_db store_db;

/* Opens (creating when absent) the database at `path` in WAL mode and migrates it to
 * STORE_SCHEMA_VERSION. Returns NULL with a one-line reason in err; *bad_input (when not NULL) tells whether
 * the file itself is the problem (nothing was written to it, its journal mode untouched: not an SQLite
 * database; another program's SQLite database, "PATH: not an arena database (it has tables a, b)", i.e.
 * schema version 0 with tables, or a version without the arena's tables; a newer schema) or the system
 * (cannot create, I/O, a failed migration). */
store_db *store_open(const char *path, bool *bad_input, char *err, size_t errlen);

/* Opens the database at `path` for reading only (SQLITE_OPEN_READONLY and PRAGMA query_only: no statement of
 * this connection can write to it, nor migrate it), for a reader that must not change what it shows (`arena
 * serve`). It sees what a league running in another process commits (WAL). Its schema must be this arena's
 * (STORE_SCHEMA_VERSION): an older one is refused with "run an arena command that writes to it first".
 * Returns NULL with a one-line reason in err. */
store_db *store_open_readonly(const char *path, char *err, size_t errlen);

/* Bounds the work of every statement on s from now on: one that runs past `ms` milliseconds from this call is
 * interrupted (the call fails, store_error() says "interrupted"); 0 lifts the bound. */
void store_deadline(store_db *s, long ms);
void store_close(store_db *s);

/* Claims the database file at `path` for one league coordinator: an exclusive flock(2) on the file (SQLite's
 * own locks are fcntl locks, which flock does not touch on a local file system), held until the returned
 * descriptor is closed or the process ends, also by SIGKILL. Returns the descriptor, or -1 with the reason
 * in err: "results/arena.db: in use by another arena league (pid 1234)", or the system error. */
int store_claim(const char *path, char *err, size_t errlen);

/* The id of the agent with this name, command line (as given, without what the arena appends) and identity
 * hash (its executable's, with the files it names: identity.h), inserted when new (a known one gets this version). Two setups of one program (other arguments) are two
 * agents; one setup seen again is the same agent. Returns -1 on error. */
int64_t store_agent(store_db *s, const char *name, const char *command, const char *version, const char *sha256);

/* Records that agent `agent` names the file or directory `path` with this hash (identity.h), once. Returns 0, or
 * -1. */
int store_agent_file(store_db *s, int64_t agent, const char *path, const char *sha256);

/* A run (a match or a league) and its end. Returns the run id, or -1. */
int64_t store_run_begin(store_db *s, const char *kind, const char *description);
int store_run_end(store_db *s, int64_t run);

/* Records with the run the secret (len bytes) its players' seeds derive from. Returns 0, or -1. The read side
 * (query.h) never returns it. */
int store_run_secret(store_db *s, int64_t run, const uint8_t *secret, size_t len);

/* Records that `agent` played in `run` without a sandbox (a trusted bot, `sandbox = off`); recording it again
 * changes nothing. Returns 0, or -1 (a database error, no such run or agent). The reports name such agents
 * (query.h: store_game_row's black_unsandboxed, white_unsandboxed). */
int store_run_unsandboxed(store_db *s, int64_t run, int64_t agent);

/* One finished game. `game` holds the attempts (its variant and board are stored too). */
typedef struct {
    int64_t run, black, white; /* agent ids */
    uint64_t seed;
    int winner;                /* HX_BLACK or HX_WHITE */
    hx_end_reason reason;
    const char *detail;        /* may be NULL */
    double seconds;
    const char *started, *finished; /* ISO 8601 UTC timestamps */
    const hx_game *game;
    int64_t schedule;          /* the league schedule row this game plays, or 0 */
    int opening;               /* how many of the first attempts were the opening (games.opening), 0: none */
    const double *think_ms;    /* NULL, or per attempt (index i: attempt i + 1) the mover's thinking time in ms
                                * (attempts.ms); a negative value or NaN is stored as NULL (not measured) */
    const char *time_control[2]; /* by colour: the player's game clock (its time control as text, "40/60+0.5";
                                * games.black_tc, white_tc), NULL or "": none (stored as NULL) */
    int64_t clock_ms[2];       /* by colour: with a time control, its clock's time left at the end
                                * (games.black_clock_ms, white_clock_ms) */
} store_game_rec;

/* Stores a game and its attempts in one transaction; with a schedule row, marks it played in the same
 * transaction (a row already played makes the whole store fail: no game is played twice). Returns the
 * game id, or -1. */
int64_t store_game(store_db *s, const store_game_rec *g);

#define STORE_OPENING_MAX 32

/* One planned league game (a row of the schedule table). */
typedef struct {
    int64_t id;                /* schedule.id (filled by store_league_pending) */
    int n;                     /* position in the league, from 0 */
    hx_variant variant;
    int rows, cols;
    char black[64], white[64]; /* agent names from the config */
    uint64_t seed;
    int pair;                  /* the game pair within its pairing (the two games of one opening), -1: none */
    int opening_len;           /* the opening: cells placed alternately from Black, stored as names "a1 b2" */
    uint16_t opening[STORE_OPENING_MAX];
} store_planned;

/* The newest league with this name, config hash and seed that still has games to play (unplayed and not
 * skipped): its id, 0 when there is none, -1 on error. */
int64_t store_league_unfinished(store_db *s, const char *name, const char *config_sha256, uint64_t seed);

/* Records the night (YYYY-MM-DD) league `league` belongs to, when it has none: a resumed league keeps its
 * first night. Returns 0, or -1. */
int store_league_night(store_db *s, int64_t league, const char *night);

/* A new league and its whole schedule, in one transaction. Returns the league id, or -1. */
int64_t store_league_create(store_db *s, const char *name, const char *config, const char *config_sha256,
                            uint64_t seed, const store_planned *plan, int n);

/* Appends rows to the schedule of league `league` in one transaction (a mode that plans as results come in: the
 * next round of a knockout). Their positions (n) continue the schedule's. Returns 0, or -1. */
int store_league_extend(store_db *s, int64_t league, const store_planned *plan, int n);

/* The newest league with this name, config hash and seed, finished or not: its id, 0 when there is none, -1 on
 * error (a knockout whose round ended just before it was stopped has no row to play, and more to plan). */
int64_t store_league_latest(store_db *s, const char *name, const char *config_sha256, uint64_t seed);

/* What each agent of the league plays, as text its schedule was planned from, in one transaction like
 * store_league_secret: when the league has it, it is copied to `plays` (size bytes with the NUL; -1 when it
 * does not fit); when it has none, the text in `plays` is stored. Returns 0, or -1. */
int store_league_plays(store_db *s, int64_t league, char *plays, size_t size);

/* The league's secret (len bytes) its players' seeds derive from, in one transaction: when the league has one it
 * is copied to `secret`; when it has none (just created, or created by an older arena) the bytes in `secret`,
 * drawn by the caller, become its secret. So every run of a league plays with the same one. Returns 0, or -1
 * (a database error, no such league, a stored secret of another length). */
int store_league_secret(store_db *s, int64_t league, uint8_t *secret, size_t len);

/* The unplayed games of a league in schedule order, skipped ones left out (*out: malloc'd, free it), and the
 * schedule's size. Returns 0, or -1: a database error, or a row whose variant this arena does not know
 * (store_error(): "league L: schedule row R: unknown variant 'NAME'"; never played as another). */
int store_league_pending(store_db *s, int64_t league, store_planned **out, int *n, int *total);

/* Marks the league's unplayed games of one pairing (the two agents of `row`, either colour, on its variant and
 * board) skipped: a decided SPRT does not play them. Returns how many, or -1. */
int store_league_skip(store_db *s, int64_t league, const store_planned *row);

/* A played game of a league, for pair statistics. */
typedef struct {
    hx_variant variant;
    int rows, cols;
    char black[64], white[64]; /* config names, from the schedule */
    int pair;                  /* schedule.pair, -1 when the league has none */
    int winner;                /* HX_BLACK or HX_WHITE */
    uint64_t moves;            /* a hash of the attempts (player, cell, outcome), to tell games apart */
} store_league_game;

/* The league's played games in schedule order (*out: malloc'd, free it). Returns 0, or -1: a database error,
 * or a row whose variant this arena does not know (store_error() names the league, the row and the variant). */
int store_league_games(store_db *s, int64_t league, store_league_game **out, int *n);

/* The last error message of the database, for reports. After a failed write transaction (store_game,
 * store_league_create, store_league_secret), its first error, not the rollback's; a full disk reads
 * "disk full: PATH: database or disk is full". */
const char *store_error(store_db *s);

#endif
