/* arena/store/store.c — SQLite results database: migrations, agents, runs, games and their attempts, and the
 * claim of a database by one league coordinator (the reporting commands' read side is query.c). */
#define _GNU_SOURCE /* flock */
#include "store.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "connection_private.h"

/* migrations[i] takes the schema from version i to version i + 1. */
static const char *const migrations[] = {
    "CREATE TABLE agents ("
    "  id INTEGER PRIMARY KEY,"
    "  name TEXT NOT NULL,"
    "  command TEXT NOT NULL,"
    "  version TEXT NOT NULL DEFAULT '',"
    "  sha256 TEXT NOT NULL,"
    "  first_seen TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),"
    "  UNIQUE (name, sha256));"
    "CREATE TABLE runs ("
    "  id INTEGER PRIMARY KEY,"
    "  kind TEXT NOT NULL,"
    "  description TEXT NOT NULL DEFAULT '',"
    "  started TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),"
    "  finished TEXT);"
    "CREATE TABLE games ("
    "  id INTEGER PRIMARY KEY,"
    "  run_id INTEGER NOT NULL REFERENCES runs(id),"
    "  variant TEXT NOT NULL,"
    "  rows INTEGER NOT NULL,"
    "  cols INTEGER NOT NULL,"
    "  swap INTEGER NOT NULL DEFAULT 0,"
    "  black INTEGER NOT NULL REFERENCES agents(id),"
    "  white INTEGER NOT NULL REFERENCES agents(id),"
    "  seed INTEGER NOT NULL,"
    "  winner TEXT NOT NULL CHECK (winner IN ('B','W')),"
    "  reason TEXT NOT NULL,"
    "  detail TEXT NOT NULL DEFAULT '',"
    "  attempts INTEGER NOT NULL,"
    "  seconds REAL NOT NULL,"
    "  started TEXT NOT NULL,"
    "  finished TEXT NOT NULL);"
    "CREATE INDEX games_by_run ON games(run_id);"
    "CREATE TABLE attempts ("
    "  game_id INTEGER NOT NULL REFERENCES games(id),"
    "  n INTEGER NOT NULL,"
    "  player TEXT NOT NULL CHECK (player IN ('B','W')),"
    "  cell TEXT NOT NULL,"
    "  outcome TEXT NOT NULL,"
    "  PRIMARY KEY (game_id, n)) WITHOUT ROWID;",
    /* 1 -> 2: leagues and their schedules; a game may fill one schedule row, at most once */
    "CREATE TABLE leagues ("
    "  id INTEGER PRIMARY KEY,"
    "  name TEXT NOT NULL,"
    "  config TEXT NOT NULL,"
    "  config_sha256 TEXT NOT NULL,"
    "  seed INTEGER NOT NULL,"
    "  created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')));"
    "CREATE TABLE schedule ("
    "  id INTEGER PRIMARY KEY,"
    "  league_id INTEGER NOT NULL REFERENCES leagues(id),"
    "  n INTEGER NOT NULL,"
    "  variant TEXT NOT NULL,"
    "  rows INTEGER NOT NULL,"
    "  cols INTEGER NOT NULL,"
    "  black TEXT NOT NULL,"
    "  white TEXT NOT NULL,"
    "  seed INTEGER NOT NULL,"
    "  game_id INTEGER REFERENCES games(id),"
    "  UNIQUE (league_id, n));"
    "CREATE INDEX schedule_pending ON schedule(league_id, n) WHERE game_id IS NULL;"
    "ALTER TABLE games ADD COLUMN schedule_id INTEGER REFERENCES schedule(id);"
    "CREATE UNIQUE INDEX games_by_schedule ON games(schedule_id);",
    /* 2 -> 3: the secret players' seeds derive from, per league and per run (NULL: none recorded) */
    "ALTER TABLE leagues ADD COLUMN secret BLOB; ALTER TABLE runs ADD COLUMN secret BLOB;",
    /* 3 -> 4: the agents of a run that played without a sandbox (trusted bots, `sandbox = off`) */
    "CREATE TABLE unsandboxed ("
    "  run_id INTEGER NOT NULL REFERENCES runs(id),"
    "  agent_id INTEGER NOT NULL REFERENCES agents(id),"
    "  PRIMARY KEY (run_id, agent_id)) WITHOUT ROWID;",
    /* 4 -> 5: an agent is its name, its command line and its executable: UNIQUE (name, command, sha256). SQLite
     * changes a UNIQUE constraint only by rebuilding the table; every row keeps its id, so games and unsandboxed
     * still point at the same agents (migrate() runs this with foreign keys off and checks them before COMMIT). */
    "CREATE TABLE agents_v5 ("
    "  id INTEGER PRIMARY KEY,"
    "  name TEXT NOT NULL,"
    "  command TEXT NOT NULL,"
    "  version TEXT NOT NULL DEFAULT '',"
    "  sha256 TEXT NOT NULL,"
    "  first_seen TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),"
    "  UNIQUE (name, command, sha256));"
    "INSERT INTO agents_v5 (id, name, command, version, sha256, first_seen)"
    "  SELECT id, name, command, version, sha256, first_seen FROM agents ORDER BY id;"
    "DROP TABLE agents;"
    "ALTER TABLE agents_v5 RENAME TO agents;",
    /* 5 -> 6: openings and game pairs; schedule rows an SPRT decided not to play; the opening of a game */
    "ALTER TABLE schedule ADD COLUMN opening TEXT NOT NULL DEFAULT '';"
    "ALTER TABLE schedule ADD COLUMN pair INTEGER;"
    "ALTER TABLE schedule ADD COLUMN skipped INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE games ADD COLUMN opening INTEGER NOT NULL DEFAULT 0;",
    /* 6 -> 7: each attempt's thinking time; the night a league belongs to */
    "ALTER TABLE attempts ADD COLUMN ms REAL; ALTER TABLE leagues ADD COLUMN night TEXT;",
    /* 7 -> 8: what each agent of a league plays, as its schedule was made (a knockout plans rounds from it) */
    "ALTER TABLE leagues ADD COLUMN plays TEXT;",
    /* 8 -> 9: the files an agent's command line and read = name, with their hashes (its identity takes them in) */
    "CREATE TABLE agent_files ("
    "  agent_id INTEGER NOT NULL REFERENCES agents(id),"
    "  path TEXT NOT NULL,"
    "  sha256 TEXT NOT NULL,"
    "  PRIMARY KEY (agent_id, path)) WITHOUT ROWID;",
    /* 9 -> 10: each player's game clock: its time control and its time left at the end (NULL: none) */
    "ALTER TABLE games ADD COLUMN black_tc TEXT;"
    "ALTER TABLE games ADD COLUMN white_tc TEXT;"
    "ALTER TABLE games ADD COLUMN black_clock_ms INTEGER;"
    "ALTER TABLE games ADD COLUMN white_clock_ms INTEGER;",
    /* 10 -> 11: an agent's games newest first, and a pairing's, read through an index (`arena serve`). SQLite
     * ends every index entry with the rowid (games.id), so these are games(black, id), games(white, id) and
     * games(black, white, id) in order, without storing the id twice. */
    "CREATE INDEX games_by_black ON games(black);"
    "CREATE INDEX games_by_white ON games(white);"
    "CREATE INDEX games_by_pairing ON games(black, white);",
};
#define N_MIGRATIONS (int)(sizeof migrations / sizeof migrations[0])
_Static_assert(N_MIGRATIONS == STORE_SCHEMA_VERSION, "one migration per schema version");

static int user_version(sqlite3 *db)
{
    sqlite3_stmt *st;
    int v = -1;
    if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    return v;
}

/* sqlite3_exec callback: notes that a row came back. */
static int found_row(void *user, int ncol, char **values, char **names)
{
    (void)ncol, (void)values, (void)names;
    *(bool *)user = true;
    return 0;
}

/* The names of the database's first tables and views ("a, b, c, ..."), "" when it has none; false when the schema
 * cannot be read. */
static bool table_names(sqlite3 *db, char *out, size_t n)
{
    sqlite3_stmt *st;
    out[0] = '\0';
    if (sqlite3_prepare_v2(db, "SELECT name FROM sqlite_master WHERE type IN ('table','view') ORDER BY name LIMIT 5",
                           -1, &st, NULL) != SQLITE_OK)
        return false;
    int k = 0, rc;
    size_t used = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW && used < n) {
        int w = snprintf(out + used, n - used, "%s%s", k ? ", " : "", k == 4 ? "..." : (const char *)sqlite3_column_text(st, 0));
        used += w > 0 ? (size_t)w : 0;
        k++;
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE || rc == SQLITE_ROW;
}

static bool has_table(sqlite3 *db, const char *name)
{
    sqlite3_stmt *st;
    bool found = false;
    if (sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", -1, &st, NULL) ==
        SQLITE_OK) {
        sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
        found = sqlite3_step(st) == SQLITE_ROW;
    }
    sqlite3_finalize(st);
    return found;
}

static bool migrate(sqlite3 *db, const char *path, char *err, size_t errlen)
{
    int v = user_version(db);
    if (v < 0) {
        snprintf(err, errlen, "%s: not a readable SQLite database (%s)", path, sqlite3_errmsg(db));
        return false;
    }
    if (v > STORE_SCHEMA_VERSION) {
        snprintf(err, errlen, "%s: database schema %d is newer than this arena's (%d); upgrade arena", path, v,
                 STORE_SCHEMA_VERSION);
        return false;
    }
    /* Foreign keys off while migrating (a pragma that does nothing inside a transaction), so a migration may
     * rebuild a table that others refer to; each one's result is checked before it is committed. */
    bool ok = true;
    if (v < STORE_SCHEMA_VERSION)
        sqlite3_exec(db, "PRAGMA foreign_keys=OFF", NULL, NULL, NULL);
    for (; ok && v < STORE_SCHEMA_VERSION; v++) {
        char *msg = NULL, bump[64];
        snprintf(bump, sizeof bump, "PRAGMA user_version = %d;", v + 1);
        bool dangling = false;
        ok = sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, &msg) == SQLITE_OK &&
             sqlite3_exec(db, migrations[v], NULL, NULL, &msg) == SQLITE_OK &&
             sqlite3_exec(db, "PRAGMA foreign_key_check", found_row, &dangling, &msg) == SQLITE_OK && !dangling &&
             sqlite3_exec(db, bump, NULL, NULL, &msg) == SQLITE_OK &&
             sqlite3_exec(db, "COMMIT", NULL, NULL, &msg) == SQLITE_OK;
        if (!ok) {
            snprintf(err, errlen, "%s: migration to schema %d failed: %s", path, v + 1,
                     dangling ? "a reference to a missing row" : msg ? msg : "?");
            sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        }
        sqlite3_free(msg);
    }
    sqlite3_exec(db, "PRAGMA foreign_keys=ON", NULL, NULL, NULL);
    return ok;
}

store_db *store_open(const char *path, bool *bad_input, char *err, size_t errlen)
{
    if (bad_input)
        *bad_input = false;
    store_db *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    if (sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
        snprintf(err, errlen, "%s: cannot open: %s", path, s->db ? sqlite3_errmsg(s->db) : "out of memory");
        store_close(s);
        return NULL;
    }
    sqlite3_busy_timeout(s->db, 5000);
    s->path = strdup(path);
    /* the file's schema first, before anything is written to it: an SQLite file of another program (schema
     * version 0 with tables, or a version without our tables) is not ours to change */
    int v = user_version(s->db);
    char tables[256] = "";
    bool readable = v >= 0 && table_names(s->db, tables, sizeof tables);
    if (!s->path || !readable || v > STORE_SCHEMA_VERSION || (v == 0 && tables[0]) ||
        (v > 0 && !has_table(s->db, "agents"))) {
        if (!s->path)
            snprintf(err, errlen, "%s: out of memory", path);
        else if (!readable)
            snprintf(err, errlen, "%s: not a readable SQLite database (%s)", path, sqlite3_errmsg(s->db));
        else if (v > STORE_SCHEMA_VERSION)
            snprintf(err, errlen, "%s: database schema %d is newer than this arena's (%d); upgrade arena", path, v,
                     STORE_SCHEMA_VERSION);
        else if (v == 0)
            snprintf(err, errlen, "%s: not an arena database (it has tables %s and no arena schema)", path, tables);
        else
            snprintf(err, errlen, "%s: not an arena database (schema version %d, but no arena tables)", path, v);
        if (bad_input)
            *bad_input = true;
        store_close(s);
        return NULL;
    }
    char *msg = NULL;
    if (sqlite3_exec(s->db, "PRAGMA journal_mode=WAL; PRAGMA foreign_keys=ON; PRAGMA synchronous=NORMAL;", NULL,
                     NULL, &msg) != SQLITE_OK) {
        snprintf(err, errlen, "%s: not a usable SQLite database: %s", path, msg ? msg : "?");
        sqlite3_free(msg);
        store_close(s);
        return NULL;
    }
    if (!migrate(s->db, path, err, errlen)) {
        store_close(s);
        return NULL;
    }
    if (sqlite3_prepare_v2(s->db,
                           "INSERT INTO games (run_id, variant, rows, cols, swap, black, white, seed, winner, reason,"
                           " detail, attempts, seconds, started, finished, schedule_id, opening, black_tc, white_tc, black_clock_ms,"
                           " white_clock_ms) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                           -1, &s->insert_game, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(s->db, "INSERT INTO attempts (game_id, n, player, cell, outcome, ms) VALUES (?,?,?,?,?,?)", -1,
                           &s->insert_attempt, NULL) != SQLITE_OK) {
        snprintf(err, errlen, "%s: %s", path, sqlite3_errmsg(s->db));
        store_close(s);
        return NULL;
    }
    return s;
}

static double monotonic(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* SQLite's progress handler: nonzero interrupts the running statement once the deadline has passed. */
static int past_deadline(void *user)
{
    const store_db *s = user;
    return s->deadline > 0 && monotonic() > s->deadline;
}

void store_deadline(store_db *s, long ms)
{
    s->deadline = ms > 0 ? monotonic() + (double)ms / 1000.0 : 0;
    sqlite3_progress_handler(s->db, ms > 0 ? 1000 : 0, ms > 0 ? past_deadline : NULL, s);
}

store_db *store_open_readonly(const char *path, char *err, size_t errlen)
{
    store_db *s = calloc(1, sizeof *s);
    if (!s || !(s->path = strdup(path))) {
        snprintf(err, errlen, "%s: out of memory", path);
        free(s);
        return NULL;
    }
    if (sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        snprintf(err, errlen, "%s: cannot open for reading: %s", path, s->db ? sqlite3_errmsg(s->db) : "out of memory");
        store_close(s);
        return NULL;
    }
    sqlite3_busy_timeout(s->db, 5000);
    char *msg = NULL;
    int v = user_version(s->db);
    if (sqlite3_exec(s->db, "PRAGMA query_only=ON; PRAGMA foreign_keys=ON;", NULL, NULL, &msg) != SQLITE_OK || v < 0 ||
        !has_table(s->db, "agents") || v != STORE_SCHEMA_VERSION) {
        if (msg || v < 0)
            snprintf(err, errlen, "%s: not a readable SQLite database (%s)", path, msg ? msg : sqlite3_errmsg(s->db));
        else if (!has_table(s->db, "agents"))
            snprintf(err, errlen, "%s: not an arena database", path);
        else if (v > STORE_SCHEMA_VERSION)
            snprintf(err, errlen, "%s: database schema %d is newer than this arena's (%d); upgrade arena", path, v,
                     STORE_SCHEMA_VERSION);
        else
            snprintf(err, errlen, "%s: database schema %d is older than this arena's (%d); run an arena command that "
                     "writes to it first (arena games --db %s)", path, v, STORE_SCHEMA_VERSION, path);
        sqlite3_free(msg);
        store_close(s);
        return NULL;
    }
    return s;
}

void store_close(store_db *s)
{
    if (!s)
        return;
    sqlite3_finalize(s->insert_game);
    sqlite3_finalize(s->insert_attempt);
    sqlite3_close(s->db);
    free(s->path);
    free(s);
}

const char *store_error(store_db *s)
{
    return s->kept ? s->err : sqlite3_errmsg(s->db);
}

/* Begins a write transaction (and forgets the error of an earlier failed one). */
static bool begin(store_db *s)
{
    s->kept = false;
    return sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_OK;
}

/* A write failed: keeps its error (a full disk named as such, with the path) and rolls back what is left of the
 * transaction, so store_error() reports the failure, not the rollback ("no transaction is active": SQLite
 * has already rolled back after some errors, SQLITE_FULL among them). */
static void abandon(store_db *s)
{
    int code = sqlite3_errcode(s->db);
    if (code == SQLITE_FULL)
        snprintf(s->err, sizeof s->err, "disk full: %s: %s", s->path, sqlite3_errstr(code));
    else
        snprintf(s->err, sizeof s->err, "%s", code == SQLITE_OK ? "the write was not done" : sqlite3_errmsg(s->db));
    s->kept = true;
    if (!sqlite3_get_autocommit(s->db))
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
}

/* A prepared statement with its first n parameters bound to the given texts (NULL binds ""), or NULL. */
static sqlite3_stmt *prepare_texts(store_db *s, const char *sql, int n, ...)
{
    sqlite3_stmt *st;
    s->kept = false;
    if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
        return NULL;
    va_list ap;
    va_start(ap, n);
    for (int i = 1; i <= n; i++) {
        const char *t = va_arg(ap, const char *);
        sqlite3_bind_text(st, i, t ? t : "", -1, SQLITE_TRANSIENT);
    }
    va_end(ap);
    return st;
}

int64_t store_agent(store_db *s, const char *name, const char *command, const char *version, const char *sha256)
{
    int64_t id = -1;
    sqlite3_stmt *st = prepare_texts(s,
                                     "INSERT INTO agents (name, command, version, sha256) VALUES (?,?,?,?)"
                                     " ON CONFLICT (name, command, sha256) DO UPDATE SET"
                                     " version = excluded.version RETURNING id",
                                     4, name, command, version, sha256);
    if (!st)
        return -1;
    if (sqlite3_step(st) == SQLITE_ROW)
        id = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return id;
}

int store_agent_file(store_db *s, int64_t agent, const char *path, const char *sha256)
{
    sqlite3_stmt *st = prepare_texts(s, "INSERT OR IGNORE INTO agent_files (path, sha256, agent_id) VALUES (?,?,?)", 2,
                                     path, sha256);
    if (!st)
        return -1;
    sqlite3_bind_int64(st, 3, agent);
    int rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
    sqlite3_finalize(st);
    return rc;
}

int64_t store_run_begin(store_db *s, const char *kind, const char *description)
{
    int64_t id = -1;
    sqlite3_stmt *st = prepare_texts(s, "INSERT INTO runs (kind, description) VALUES (?,?)", 2, kind, description);
    if (!st)
        return -1;
    if (sqlite3_step(st) == SQLITE_DONE)
        id = sqlite3_last_insert_rowid(s->db);
    sqlite3_finalize(st);
    return id;
}

int store_run_end(store_db *s, int64_t run)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db, "UPDATE runs SET finished = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE id = ?",
                           -1, &st, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_int64(st, 1, run);
    int rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
    sqlite3_finalize(st);
    return rc;
}

int store_run_secret(store_db *s, int64_t run, const uint8_t *secret, size_t len)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db, "UPDATE runs SET secret = ? WHERE id = ?", -1, &st, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_blob(st, 1, secret, (int)len, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 2, run);
    int rc = sqlite3_step(st) == SQLITE_DONE && sqlite3_changes(s->db) == 1 ? 0 : -1;
    sqlite3_finalize(st);
    return rc;
}

int store_run_unsandboxed(store_db *s, int64_t run, int64_t agent)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db, "INSERT OR IGNORE INTO unsandboxed (run_id, agent_id) VALUES (?,?)", -1, &st,
                           NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_int64(st, 1, run);
    sqlite3_bind_int64(st, 2, agent);
    int rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
    sqlite3_finalize(st);
    return rc;
}

int64_t store_game(store_db *s, const store_game_rec *g)
{
    const hx_game *game = g->game;
    sqlite3_stmt *st = s->insert_game;
    if (!begin(s))
        return -1;
    sqlite3_reset(st);
    sqlite3_bind_int64(st, 1, g->run);
    sqlite3_bind_text(st, 2, hx_variant_name(hx_variant_of(game)), -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 3, hx_rows(game));
    sqlite3_bind_int(st, 4, hx_cols(game));
    sqlite3_bind_int(st, 5, (game->flags & HX_SWAP_RULE) != 0);
    sqlite3_bind_int64(st, 6, g->black);
    sqlite3_bind_int64(st, 7, g->white);
    sqlite3_bind_int64(st, 8, (int64_t)g->seed);
    sqlite3_bind_text(st, 9, g->winner == HX_BLACK ? "B" : "W", -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 10, hx_end_name(g->reason), -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 11, g->detail ? g->detail : "", -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 12, hx_num_attempts(game));
    sqlite3_bind_double(st, 13, g->seconds);
    sqlite3_bind_text(st, 14, g->started, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 15, g->finished, -1, SQLITE_TRANSIENT);
    if (g->schedule > 0)
        sqlite3_bind_int64(st, 16, g->schedule);
    else
        sqlite3_bind_null(st, 16);
    sqlite3_bind_int(st, 17, g->opening);
    for (int c = 0; c < 2; c++) {
        bool clocked = g->time_control[c] && g->time_control[c][0];
        if (clocked) {
            sqlite3_bind_text(st, 18 + c, g->time_control[c], -1, SQLITE_TRANSIENT);
            sqlite3_bind_int64(st, 20 + c, g->clock_ms[c]);
        } else {
            sqlite3_bind_null(st, 18 + c);
            sqlite3_bind_null(st, 20 + c);
        }
    }
    int64_t id = -1;
    if (sqlite3_step(st) == SQLITE_DONE)
        id = sqlite3_last_insert_rowid(s->db);
    if (id >= 0 && g->schedule > 0) {
        sqlite3_stmt *u;
        if (sqlite3_prepare_v2(s->db, "UPDATE schedule SET game_id = ?, skipped = 0 WHERE id = ? AND game_id IS NULL",
                               -1, &u, NULL) != SQLITE_OK)
            id = -1;
        else {
            sqlite3_bind_int64(u, 1, id);
            sqlite3_bind_int64(u, 2, g->schedule);
            if (sqlite3_step(u) != SQLITE_DONE || sqlite3_changes(s->db) != 1)
                id = -1;
            sqlite3_finalize(u);
        }
    }
    for (int i = 0; id >= 0 && i < hx_num_attempts(game); i++) {
        hx_move m = hx_move_at(game, i);
        char name[HX_CELL_NAME_MAX];
        hx_cell_name(m.cell, hx_cols(game), name);
        sqlite3_stmt *a = s->insert_attempt;
        sqlite3_reset(a);
        sqlite3_bind_int64(a, 1, id);
        sqlite3_bind_int(a, 2, i + 1);
        sqlite3_bind_text(a, 3, m.player == HX_BLACK ? "B" : "W", -1, SQLITE_STATIC);
        sqlite3_bind_text(a, 4, m.outcome == HX_SWAPPED ? "swap" : name, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(a, 5, hx_outcome_name(m.outcome), -1, SQLITE_STATIC);
        double ms = g->think_ms ? g->think_ms[i] : -1.0;
        if (ms >= 0) /* NaN and negative (not measured, the referee's opening) stay NULL */
            sqlite3_bind_double(a, 6, ms);
        else
            sqlite3_bind_null(a, 6);
        if (sqlite3_step(a) != SQLITE_DONE)
            id = -1;
    }
    if (id < 0 || sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        abandon(s);
        return -1;
    }
    return id;
}

int store_league_night(store_db *s, int64_t league, const char *night)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db, "UPDATE leagues SET night = ?1 WHERE id = ?2 AND night IS NULL", -1, &st, NULL) !=
        SQLITE_OK)
        return -1;
    sqlite3_bind_text(st, 1, night, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 2, league);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

/* The id the query gives for a league's name, config hash and seed (its ?1, ?2, ?3): 0 for none, -1 on error. */
static int64_t league_id(store_db *s, const char *sql, const char *name, const char *config_sha256, uint64_t seed)
{
    sqlite3_stmt *st = prepare_texts(s, sql, 2, name, config_sha256);
    if (!st)
        return -1;
    sqlite3_bind_int64(st, 3, (int64_t)seed);
    int rc = sqlite3_step(st);
    int64_t id = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : rc == SQLITE_DONE ? 0 : -1;
    sqlite3_finalize(st);
    return id;
}

int64_t store_league_unfinished(store_db *s, const char *name, const char *config_sha256, uint64_t seed)
{
    return league_id(s,
                     "SELECT l.id FROM leagues l WHERE l.name = ? AND l.config_sha256 = ? AND l.seed = ?"
                     " AND EXISTS (SELECT 1 FROM schedule x WHERE x.league_id = l.id AND x.game_id IS NULL"
                     " AND x.skipped = 0) ORDER BY l.id DESC LIMIT 1",
                     name, config_sha256, seed);
}

int64_t store_league_latest(store_db *s, const char *name, const char *config_sha256, uint64_t seed)
{
    return league_id(s,
                     "SELECT id FROM leagues WHERE name = ? AND config_sha256 = ? AND seed = ? ORDER BY id DESC LIMIT 1",
                     name, config_sha256, seed);
}

/* The opening as cell names, "a1 b2". */
static void opening_text(const store_planned *p, char *out, size_t outlen)
{
    size_t k = 0;
    out[0] = '\0';
    for (int i = 0; i < p->opening_len && i < STORE_OPENING_MAX; i++) {
        char name[HX_CELL_NAME_MAX];
        hx_cell_name(p->opening[i], p->cols, name);
        int w = snprintf(out + k, outlen - k, "%s%s", i ? " " : "", name);
        if (w < 0 || (size_t)w >= outlen - k)
            break;
        k += (size_t)w;
    }
}

/* Reads opening_text's form back; cells that do not parse (a hand-edited database) end it. */
static void opening_parse(store_planned *p, const char *text)
{
    p->opening_len = 0;
    while (text && *text && p->opening_len < STORE_OPENING_MAX) {
        text += strspn(text, " ");
        size_t len = strcspn(text, " ");
        char name[16];
        if (len == 0 || len >= sizeof name)
            break;
        memcpy(name, text, len);
        name[len] = '\0';
        const char *why;
        int c = hx_cell_parse(name, p->rows, p->cols, &why);
        if (c < 0)
            break;
        p->opening[p->opening_len++] = (uint16_t)c;
        text += len;
    }
}

/* Inserts rows plan[0..n) into the schedule of league `id`, inside the caller's transaction. Returns 0, or -1. */
static int insert_rows(store_db *s, int64_t id, const store_planned *plan, int n)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(s->db,
                           "INSERT INTO schedule (league_id, n, variant, rows, cols, black, white, seed, pair,"
                           " opening) VALUES (?,?,?,?,?,?,?,?,?,?)",
                           -1, &st, NULL) != SQLITE_OK)
        return -1;
    int rc = 0;
    for (int i = 0; rc == 0 && i < n; i++) {
        const store_planned *p = &plan[i];
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, id);
        sqlite3_bind_int(st, 2, p->n);
        sqlite3_bind_text(st, 3, hx_variant_name(p->variant), -1, SQLITE_STATIC);
        sqlite3_bind_int(st, 4, p->rows);
        sqlite3_bind_int(st, 5, p->cols);
        sqlite3_bind_text(st, 6, p->black, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, 7, p->white, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(st, 8, (int64_t)p->seed);
        if (p->pair >= 0)
            sqlite3_bind_int(st, 9, p->pair);
        else
            sqlite3_bind_null(st, 9);
        char opening[STORE_OPENING_MAX * (HX_CELL_NAME_MAX + 1) + 1];
        opening_text(p, opening, sizeof opening);
        sqlite3_bind_text(st, 10, opening, -1, SQLITE_TRANSIENT);
        if (sqlite3_step(st) != SQLITE_DONE)
            rc = -1;
    }
    sqlite3_finalize(st);
    return rc;
}

int64_t store_league_create(store_db *s, const char *name, const char *config, const char *config_sha256,
                            uint64_t seed, const store_planned *plan, int n)
{
    if (!begin(s))
        return -1;
    int64_t id = -1;
    sqlite3_stmt *st = prepare_texts(s, "INSERT INTO leagues (name, config, config_sha256, seed) VALUES (?,?,?,?)", 3,
                                     name, config, config_sha256);
    if (st) {
        sqlite3_bind_int64(st, 4, (int64_t)seed);
        if (sqlite3_step(st) == SQLITE_DONE)
            id = sqlite3_last_insert_rowid(s->db);
    }
    sqlite3_finalize(st);
    if (id < 0 || insert_rows(s, id, plan, n) != 0 || sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        abandon(s);
        return -1;
    }
    return id;
}

int store_league_extend(store_db *s, int64_t league, const store_planned *plan, int n)
{
    if (!begin(s))
        return -1;
    if (insert_rows(s, league, plan, n) != 0 || sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        abandon(s);
        return -1;
    }
    return 0;
}

/* In one transaction: the league's column `col` (secret, a blob of `len` bytes; plays, text of fewer than `len`
 * bytes) set to buf when it has none, then read back into buf. Returns 0, or -1. */
static int league_once(store_db *s, int64_t league, const char *col, bool text, void *buf, size_t len)
{
    if (!begin(s))
        return -1;
    bool ok = false;
    char set_sql[128], get_sql[96];
    snprintf(set_sql, sizeof set_sql, "UPDATE leagues SET %s = ? WHERE id = ? AND %s IS NULL", col, col);
    snprintf(get_sql, sizeof get_sql, "SELECT %s FROM leagues WHERE id = ?", col);
    sqlite3_stmt *set = NULL, *get = NULL;
    if (sqlite3_prepare_v2(s->db, set_sql, -1, &set, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(s->db, get_sql, -1, &get, NULL) == SQLITE_OK) {
        if (text)
            sqlite3_bind_text(set, 1, buf, -1, SQLITE_TRANSIENT);
        else
            sqlite3_bind_blob(set, 1, buf, (int)len, SQLITE_TRANSIENT);
        sqlite3_bind_int64(set, 2, league);
        sqlite3_bind_int64(get, 1, league);
        ok = sqlite3_step(set) == SQLITE_DONE && sqlite3_step(get) == SQLITE_ROW &&
             sqlite3_column_type(get, 0) == (text ? SQLITE_TEXT : SQLITE_BLOB);
        size_t n = ok ? (size_t)sqlite3_column_bytes(get, 0) : 0;
        ok = ok && (text ? n < len : n == len);
        if (ok)
            memcpy(buf, text ? (const void *)sqlite3_column_text(get, 0) : sqlite3_column_blob(get, 0), n + text);
    }
    sqlite3_finalize(set);
    sqlite3_finalize(get);
    if (!ok || sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        abandon(s);
        return -1;
    }
    return 0;
}

int store_league_plays(store_db *s, int64_t league, char *plays, size_t size)
{
    return league_once(s, league, "plays", true, plays, size);
}

int store_league_secret(store_db *s, int64_t league, uint8_t *secret, size_t len)
{
    return league_once(s, league, "secret", false, secret, len);
}

/* A schedule row names a variant this arena does not know (a newer arena's database, or a hand-edited one):
 * refused, as the protocol refuses it, never played as another. Keeps the message for store_error(). */
static int unknown_variant(store_db *s, int64_t league, int64_t row, const char *name)
{
    snprintf(s->err, sizeof s->err, "league %lld: schedule row %lld: unknown variant '%.100s'", (long long)league,
             (long long)row, name ? name : "");
    s->kept = true;
    return -1;
}

int store_league_pending(store_db *s, int64_t league, store_planned **out, int *n, int *total)
{
    sqlite3_stmt *st;
    *out = NULL;
    *n = *total = 0;
    s->kept = false;
    if (sqlite3_prepare_v2(s->db, "SELECT count(*) FROM schedule WHERE league_id = ?", -1, &st, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_int64(st, 1, league);
    if (sqlite3_step(st) == SQLITE_ROW)
        *total = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    if (sqlite3_prepare_v2(s->db,
                           "SELECT id, n, variant, rows, cols, black, white, seed, pair, opening FROM schedule"
                           " WHERE league_id = ? AND game_id IS NULL AND skipped = 0 ORDER BY n",
                           -1, &st, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_int64(st, 1, league);
    store_planned *rows = calloc((size_t)(*total > 0 ? *total : 1), sizeof *rows);
    int k = 0, rc, bad = 0;
    while (rows && (rc = sqlite3_step(st)) == SQLITE_ROW && k < *total) {
        store_planned *p = &rows[k++];
        p->id = sqlite3_column_int64(st, 0);
        p->n = sqlite3_column_int(st, 1);
        const char *name = (const char *)sqlite3_column_text(st, 2);
        int v = name ? hx_variant_parse(name) : -1;
        if (v < 0) {
            bad = unknown_variant(s, league, p->id, name);
            break;
        }
        p->variant = (hx_variant)v;
        p->rows = sqlite3_column_int(st, 3);
        p->cols = sqlite3_column_int(st, 4);
        snprintf(p->black, sizeof p->black, "%s", (const char *)sqlite3_column_text(st, 5));
        snprintf(p->white, sizeof p->white, "%s", (const char *)sqlite3_column_text(st, 6));
        p->seed = (uint64_t)sqlite3_column_int64(st, 7);
        p->pair = sqlite3_column_type(st, 8) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 8);
        opening_parse(p, (const char *)sqlite3_column_text(st, 9));
    }
    sqlite3_finalize(st);
    if (!rows || bad) {
        free(rows);
        return -1;
    }
    *out = rows;
    *n = k;
    return 0;
}

int store_league_skip(store_db *s, int64_t league, const store_planned *row)
{
    sqlite3_stmt *st = prepare_texts(s,
                                     "UPDATE schedule SET skipped = 1 WHERE league_id = ?3 AND game_id IS NULL"
                                     " AND variant = ?4 AND rows = ?5 AND cols = ?6"
                                     " AND ((black = ?1 AND white = ?2) OR (black = ?2 AND white = ?1))",
                                     2, row->black, row->white);
    if (!st)
        return -1;
    sqlite3_bind_int64(st, 3, league);
    sqlite3_bind_text(st, 4, hx_variant_name(row->variant), -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 5, row->rows);
    sqlite3_bind_int(st, 6, row->cols);
    int rc = sqlite3_step(st) == SQLITE_DONE ? sqlite3_changes(s->db) : -1;
    sqlite3_finalize(st);
    return rc;
}

int store_league_games(store_db *s, int64_t league, store_league_game **out, int *n)
{
    *out = NULL;
    *n = 0;
    s->kept = false;
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db,
                           "SELECT x.variant, x.rows, x.cols, x.black, x.white, x.pair, g.winner,"
                           " (SELECT group_concat(a.player || a.cell || ':' || a.outcome, ' ') FROM"
                           "  (SELECT player, cell, outcome FROM attempts WHERE game_id = g.id ORDER BY n) a), x.id"
                           " FROM schedule x JOIN games g ON g.id = x.game_id WHERE x.league_id = ? ORDER BY x.n",
                           -1, &st, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_int64(st, 1, league);
    size_t cap = 0;
    store_league_game *rows = NULL;
    int k = 0, rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if ((size_t)k == cap) {
            size_t nc = cap ? 2 * cap : 256;
            store_league_game *nr = realloc(rows, nc * sizeof *nr);
            if (!nr) {
                rc = SQLITE_NOMEM;
                break;
            }
            rows = nr;
            cap = nc;
        }
        store_league_game *g = &rows[k++];
        const char *name = (const char *)sqlite3_column_text(st, 0);
        int v = name ? hx_variant_parse(name) : -1;
        if (v < 0) {
            unknown_variant(s, league, sqlite3_column_int64(st, 8), name);
            break;
        }
        g->variant = (hx_variant)v;
        g->rows = sqlite3_column_int(st, 1);
        g->cols = sqlite3_column_int(st, 2);
        snprintf(g->black, sizeof g->black, "%s", (const char *)sqlite3_column_text(st, 3));
        snprintf(g->white, sizeof g->white, "%s", (const char *)sqlite3_column_text(st, 4));
        g->pair = sqlite3_column_type(st, 5) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 5);
        const char *w = (const char *)sqlite3_column_text(st, 6);
        g->winner = w && w[0] == 'W' ? HX_WHITE : HX_BLACK;
        const unsigned char *moves = sqlite3_column_text(st, 7);
        uint64_t h = 0xcbf29ce484222325u; /* FNV-1a */
        for (const unsigned char *c = moves; c && *c; c++)
            h = (h ^ *c) * 0x100000001b3u;
        g->moves = h;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        free(rows);
        return -1;
    }
    *out = rows;
    *n = k;
    return 0;
}

/* The pid holding a flock on the file with this device and inode, from /proc/locks, or 0. */
static long flock_holder(dev_t dev, ino_t ino)
{
    FILE *f = fopen("/proc/locks", "re");
    if (!f)
        return 0;
    char line[256];
    long found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        /* "1: FLOCK  ADVISORY  WRITE 1234 08:01:56789 0 EOF" (maj:min in hex) */
        char kind[16];
        long pid;
        unsigned maj, min;
        unsigned long long inode;
        if (sscanf(line, "%*d: %15s %*s %*s %ld %x:%x:%llu", kind, &pid, &maj, &min, &inode) == 5 &&
            strcmp(kind, "FLOCK") == 0 && inode == (unsigned long long)ino && maj == major(dev) && min == minor(dev))
            found = pid;
    }
    fclose(f);
    return found;
}

int store_claim(const char *path, char *err, size_t errlen)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) == 0)
        return fd;
    int e = errno;
    struct stat st;
    long pid = e == EWOULDBLOCK && fstat(fd, &st) == 0 ? flock_holder(st.st_dev, st.st_ino) : 0;
    close(fd);
    if (e != EWOULDBLOCK)
        snprintf(err, errlen, "%s: cannot lock: %s", path, strerror(e));
    else if (pid > 0)
        snprintf(err, errlen, "%s: in use by another arena league (pid %ld)", path, pid);
    else
        snprintf(err, errlen, "%s: in use by another arena league", path);
    return -1;
}
