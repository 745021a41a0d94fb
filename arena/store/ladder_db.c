/* arena/store/ladder_db.c — the ladder's own database (ladder_db.h): its schema, and one prepared statement per call,
 * run and finalised there (the ladder's traffic is a few statements per request). */
#include "ladder_db.h"

#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ldb {
    sqlite3 *db;
    char err[600];
};

static const char schema[] =
    "CREATE TABLE IF NOT EXISTS accounts (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, pwhash TEXT NOT NULL,"
    " approved INTEGER NOT NULL, admin INTEGER NOT NULL, created INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS secrets (hash TEXT PRIMARY KEY, kind INTEGER NOT NULL,"
    " account INTEGER NOT NULL REFERENCES accounts(id), csrf TEXT, expires INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS events (account INTEGER NOT NULL REFERENCES accounts(id), kind TEXT NOT NULL,"
    " at INTEGER NOT NULL);"
    "CREATE INDEX IF NOT EXISTS events_by_account ON events (account, kind, at);";

const char *ldb_error(const ldb *d)
{
    return d->err;
}

static int failed(ldb *d, const char *what)
{
    snprintf(d->err, sizeof d->err, "ladder database: %s: %s", what, sqlite3_errmsg(d->db));
    return -1;
}

/* The schema made, or checked to be this arena's. */
static int setup(ldb *d)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(d->db, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK || sqlite3_step(st) != SQLITE_ROW)
        return failed(d, "reading its version");
    int version = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    if (version > LDB_SCHEMA_VERSION) {
        snprintf(d->err, sizeof d->err, "ladder database: schema version %d, newer than this arena's (%d)", version,
                 LDB_SCHEMA_VERSION);
        return -1;
    }
    char *msg = NULL;
    if (sqlite3_exec(d->db, "PRAGMA journal_mode=WAL; PRAGMA foreign_keys=ON; PRAGMA busy_timeout=10000;", NULL, NULL,
                     &msg) != SQLITE_OK ||
        sqlite3_exec(d->db, schema, NULL, NULL, &msg) != SQLITE_OK ||
        sqlite3_exec(d->db, "PRAGMA user_version = 1", NULL, NULL, &msg) != SQLITE_OK) {
        snprintf(d->err, sizeof d->err, "ladder database: %s", msg ? msg : "cannot make its tables");
        sqlite3_free(msg);
        return -1;
    }
    return 0;
}

ldb *ldb_open(const char *path, char *err, size_t errlen)
{
    ldb *d = calloc(1, sizeof *d);
    if (!d) {
        snprintf(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    int rc = sqlite3_open_v2(path, &d->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, NULL);
    if (rc != SQLITE_OK || setup(d) != 0) {
        if (rc != SQLITE_OK)
            snprintf(d->err, sizeof d->err, "%s", d->db ? sqlite3_errmsg(d->db) : "cannot open");
        snprintf(err, errlen, "%s: %s", path, d->err);
        ldb_close(d);
        return NULL;
    }
    return d;
}

void ldb_close(ldb *d)
{
    if (!d)
        return;
    sqlite3_close(d->db);
    free(d);
}

/* Prepares sql and binds its parameters from fmt: 'i' int64, 't' text (NULL: NULL). NULL on failure. */
static sqlite3_stmt *prepare(ldb *d, const char *sql, const char *fmt, ...)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(d->db, sql, -1, &st, NULL) != SQLITE_OK) {
        failed(d, "preparing a statement");
        return NULL;
    }
    va_list ap;
    va_start(ap, fmt);
    for (int i = 0; fmt[i]; i++) {
        if (fmt[i] == 'i')
            sqlite3_bind_int64(st, i + 1, va_arg(ap, int64_t));
        else
            sqlite3_bind_text(st, i + 1, va_arg(ap, const char *), -1, SQLITE_TRANSIENT);
    }
    va_end(ap);
    return st;
}

/* Runs a statement that returns no rows, and finalises it. */
static int run(ldb *d, sqlite3_stmt *st, const char *what)
{
    if (!st)
        return -1;
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : failed(d, what);
}

int64_t ldb_account_add(ldb *d, const char *name, const char *pwhash, bool approved, bool admin, int64_t now)
{
    sqlite3_stmt *st = prepare(d, "INSERT INTO accounts (name, pwhash, approved, admin, created) VALUES (?,?,?,?,?)",
                               "ttiii", name, pwhash, (int64_t)approved, (int64_t)admin, now);
    if (!st)
        return -1;
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc == SQLITE_CONSTRAINT) {
        snprintf(d->err, sizeof d->err, "the account name '%s' is taken", name);
        return -1;
    }
    return rc == SQLITE_DONE ? sqlite3_last_insert_rowid(d->db) : failed(d, "adding an account");
}

static int account_row(ldb *d, sqlite3_stmt *st, ldb_account *a)
{
    if (!st)
        return -1;
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        a->id = sqlite3_column_int64(st, 0);
        snprintf(a->name, sizeof a->name, "%s", (const char *)sqlite3_column_text(st, 1));
        snprintf(a->pwhash, sizeof a->pwhash, "%s", (const char *)sqlite3_column_text(st, 2));
        a->approved = sqlite3_column_int(st, 3) != 0;
        a->admin = sqlite3_column_int(st, 4) != 0;
        a->created = sqlite3_column_int64(st, 5);
    }
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : failed(d, "reading an account");
}

#define ACCOUNT_COLUMNS "SELECT id, name, pwhash, approved, admin, created FROM accounts "

int ldb_account_by_name(ldb *d, const char *name, ldb_account *a)
{
    return account_row(d, prepare(d, ACCOUNT_COLUMNS "WHERE name = ?", "t", name), a);
}

int ldb_account_by_id(ldb *d, int64_t id, ldb_account *a)
{
    return account_row(d, prepare(d, ACCOUNT_COLUMNS "WHERE id = ?", "i", id), a);
}

int ldb_account_set(ldb *d, const char *name, bool approved, bool admin)
{
    if (run(d, prepare(d, "UPDATE accounts SET approved = ?, admin = ? WHERE name = ?", "iit", (int64_t)approved,
                       (int64_t)admin, name),
            "updating an account") != 0)
        return -1;
    return sqlite3_changes(d->db) > 0;
}

int ldb_accounts_waiting(ldb *d, char (*names)[33], int max)
{
    sqlite3_stmt *st = prepare(d, "SELECT name FROM accounts WHERE approved = 0 ORDER BY id LIMIT ?", "i",
                               (int64_t)max);
    if (!st)
        return -1;
    int n = 0, rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW && n < max)
        snprintf(names[n++], 33, "%s", (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? n : failed(d, "listing accounts");
}

int ldb_secret_add(ldb *d, ldb_secret_kind kind, const char *hash, int64_t account, const char *csrf,
                   int64_t expires)
{
    return run(d, prepare(d, "INSERT INTO secrets (hash, kind, account, csrf, expires) VALUES (?,?,?,?,?)", "tiiti",
                          hash, (int64_t)kind, account, csrf, expires),
               "storing a secret");
}

int ldb_secret_find(ldb *d, ldb_secret_kind kind, const char *hash, int64_t now, int64_t *account, char *csrf,
                    size_t csrflen)
{
    sqlite3_stmt *st = prepare(d, "SELECT account, csrf FROM secrets WHERE hash = ? AND kind = ? AND "
                                  "(expires = 0 OR expires > ?)",
                               "tii", hash, (int64_t)kind, now);
    if (!st)
        return -1;
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *account = sqlite3_column_int64(st, 0);
        const unsigned char *c = sqlite3_column_text(st, 1);
        if (csrf)
            snprintf(csrf, csrflen, "%s", c ? (const char *)c : "");
    }
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : failed(d, "reading a secret");
}

int ldb_secret_drop(ldb *d, ldb_secret_kind kind, const char *hash, int64_t now)
{
    return run(d, prepare(d, "DELETE FROM secrets WHERE (hash = ? AND kind = ?) OR (expires > 0 AND expires <= ?)",
                          "tii", hash, (int64_t)kind, now),
               "forgetting a secret");
}

int ldb_event_add(ldb *d, int64_t account, const char *kind, int64_t at)
{
    if (run(d, prepare(d, "DELETE FROM events WHERE account = ? AND kind = ? AND at < ?", "iti", account, kind,
                       at - 86400),
            "dropping old events") != 0)
        return -1;
    return run(d, prepare(d, "INSERT INTO events (account, kind, at) VALUES (?,?,?)", "iti", account, kind, at),
               "recording an event");
}

long ldb_event_count(ldb *d, int64_t account, const char *kind, int64_t since)
{
    sqlite3_stmt *st = prepare(d, "SELECT count(*) FROM events WHERE account = ? AND kind = ? AND at >= ?", "iti",
                               account, kind, since);
    if (!st)
        return -1;
    long n = sqlite3_step(st) == SQLITE_ROW ? (long)sqlite3_column_int64(st, 0) : -1;
    sqlite3_finalize(st);
    return n < 0 ? failed(d, "counting events") : n;
}
