/* arena/store/ladder_db.c — the ladder's own database (ladder_db.h): its schema, and one prepared statement per call,
 * run and finalised there (the ladder's traffic is a few statements per request). */
#include "ladder_db.h"

#include <sqlite3.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <stdarg.h>
#include <unistd.h>
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
    "CREATE INDEX IF NOT EXISTS events_by_account ON events (account, kind, at);"
    "CREATE TABLE IF NOT EXISTS submissions (id INTEGER PRIMARY KEY, account INTEGER NOT NULL REFERENCES accounts(id),"
    " name TEXT NOT NULL, version TEXT NOT NULL, sha256 TEXT NOT NULL, dir TEXT NOT NULL, program TEXT NOT NULL,"
    " args TEXT NOT NULL, variants INTEGER NOT NULL, boards TEXT NOT NULL, bytes INTEGER NOT NULL, state TEXT NOT NULL,"
    " mode TEXT NOT NULL, elo0 REAL, elo1 REAL, created INTEGER NOT NULL, note TEXT NOT NULL DEFAULT '',"
    " UNIQUE (name, version));"
    "CREATE TABLE IF NOT EXISTS jobs (id INTEGER PRIMARY KEY, submission INTEGER, kind TEXT NOT NULL,"
    " state TEXT NOT NULL, runner TEXT NOT NULL DEFAULT '', league INTEGER NOT NULL DEFAULT 0,"
    " created INTEGER NOT NULL, started INTEGER NOT NULL DEFAULT 0, finished INTEGER NOT NULL DEFAULT 0,"
    " note TEXT NOT NULL DEFAULT '', games INTEGER NOT NULL DEFAULT 0);"
    "CREATE TABLE IF NOT EXISTS llr (job INTEGER NOT NULL REFERENCES jobs(id), pairs INTEGER NOT NULL, llr REAL NOT NULL);";

/* 1 -> 2: where an account signed up from (pending sign-ups are bounded per address), deleted accounts (their name
 * stays taken, their bots keep their history), when a secret was made (tokens are listed), names unique whatever
 * their case. */
static const char schema_2[] =
    "ALTER TABLE accounts ADD COLUMN address TEXT NOT NULL DEFAULT '';"
    "ALTER TABLE accounts ADD COLUMN deleted INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE secrets ADD COLUMN created INTEGER NOT NULL DEFAULT 0;"
    "CREATE UNIQUE INDEX accounts_by_name ON accounts (name COLLATE NOCASE);"
    "PRAGMA user_version = 2;";

const char *ldb_error(const ldb *d)
{
    return d->err;
}

static int failed(ldb *d, const char *what)
{
    snprintf(d->err, sizeof d->err, "ladder database: %s: %s", what, sqlite3_errmsg(d->db));
    return -1;
}

/* The version in the file, or -1. */
static int schema_version(ldb *d)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(d->db, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK)
        return failed(d, "reading its version");
    int version = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
    sqlite3_finalize(st);
    return version < 0 ? failed(d, "reading its version") : version;
}

/* The schema made, or checked to be this arena's. Only a database older than this arena is written to: under a write
 * lock taken before the version is read again, so two processes opening a new file make it once. */
static int setup(ldb *d)
{
    char *msg = NULL;
    if (sqlite3_exec(d->db, "PRAGMA foreign_keys=ON", NULL, NULL, &msg) != SQLITE_OK) {
        snprintf(d->err, sizeof d->err, "ladder database: %s", msg ? msg : "cannot set its options");
        sqlite3_free(msg);
        return -1;
    }
    int version = schema_version(d);
    if (version < 0)
        return -1;
    if (version > LDB_SCHEMA_VERSION) {
        snprintf(d->err, sizeof d->err, "ladder database: schema version %d, newer than this arena's (%d)", version,
                 LDB_SCHEMA_VERSION);
        return -1;
    }
    if (version == LDB_SCHEMA_VERSION)
        return 0;
    if (sqlite3_exec(d->db, "PRAGMA journal_mode=WAL", NULL, NULL, &msg) != SQLITE_OK ||
        sqlite3_exec(d->db, "BEGIN IMMEDIATE", NULL, NULL, &msg) != SQLITE_OK) {
        snprintf(d->err, sizeof d->err, "ladder database: %s", msg ? msg : "cannot make its tables");
        sqlite3_free(msg);
        return -1;
    }
    version = schema_version(d);
    if (version < 0 || (version < LDB_SCHEMA_VERSION &&
                        (sqlite3_exec(d->db, schema, NULL, NULL, &msg) != SQLITE_OK ||
                         (version < 2 && sqlite3_exec(d->db, schema_2, NULL, NULL, &msg) != SQLITE_OK))) ||
        sqlite3_exec(d->db, "COMMIT", NULL, NULL, msg ? NULL : &msg) != SQLITE_OK) {
        sqlite3_exec(d->db, "ROLLBACK", NULL, NULL, NULL);
        bool twins = msg && strstr(msg, "UNIQUE");
        if (version >= 0)
            snprintf(d->err, sizeof d->err, "ladder database: %s", twins ? "two accounts' names differ only by case "
                     "(one of them must be deleted first: arena ladder account list)" : msg ? msg
                     : "cannot make its tables");
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
    /* it holds password hashes: made readable by its owner alone (SQLite gives its -wal and -shm files the same mode) */
    int made = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (made >= 0)
        close(made);
    else /* one made by an earlier arena, or by hand: closed to others now */
        for (int i = 0; i < 3; i++) {
            char p[1100];
            snprintf(p, sizeof p, "%s%s", path, i == 0 ? "" : i == 1 ? "-wal" : "-shm");
            struct stat st;
            if (lstat(p, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 077))
                chmod(p, st.st_mode & 0700);
        }
    int rc = sqlite3_open_v2(path, &d->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, NULL);
    if (rc == SQLITE_OK)
        sqlite3_busy_timeout(d->db, 10000); /* before its first read: other processes write to it */
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
    if (sqlite3_close(d->db) != SQLITE_OK) { /* a statement left unfinalized: name it, then close anyway */
        for (sqlite3_stmt *st; (st = sqlite3_next_stmt(d->db, NULL));) {
            fprintf(stderr, "ladder_db: a statement was left open: %s\n", sqlite3_sql(st));
            sqlite3_finalize(st);
        }
        sqlite3_close(d->db);
    }
    free(d);
}

/* Prepares sql and binds its parameters from fmt: 'i' int64, 'd' double, 't' text (NULL: NULL). NULL on failure. */
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
        else if (fmt[i] == 'd')
            sqlite3_bind_double(st, i + 1, va_arg(ap, double));
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

int64_t ldb_account_add(ldb *d, const char *name, const char *pwhash, bool approved, bool admin, const char *address,
                        int64_t now)
{
    sqlite3_stmt *st = prepare(d, "INSERT INTO accounts (name, pwhash, approved, admin, created, address) "
                                  "VALUES (?,?,?,?,?,?)",
                               "ttiiit", name, pwhash, (int64_t)approved, (int64_t)admin, now, address ? address : "");
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

/* Steps st and reads an account's row: 1, 0 at the end, -1 failure. */
static int account_row_next(sqlite3_stmt *st, ldb_account *a)
{
    int rc = sqlite3_step(st);
    if (rc != SQLITE_ROW)
        return rc == SQLITE_DONE ? 0 : -1;
    a->id = sqlite3_column_int64(st, 0);
    snprintf(a->name, sizeof a->name, "%s", (const char *)sqlite3_column_text(st, 1));
    snprintf(a->pwhash, sizeof a->pwhash, "%s", (const char *)sqlite3_column_text(st, 2));
    a->approved = sqlite3_column_int(st, 3) != 0;
    a->admin = sqlite3_column_int(st, 4) != 0;
    a->created = sqlite3_column_int64(st, 5);
    snprintf(a->address, sizeof a->address, "%s", (const char *)sqlite3_column_text(st, 6));
    a->deleted = sqlite3_column_int(st, 7) != 0;
    return 1;
}

static int account_row(ldb *d, sqlite3_stmt *st, ldb_account *a)
{
    if (!st)
        return -1;
    int rc = account_row_next(st, a);
    sqlite3_finalize(st);
    return rc < 0 ? failed(d, "reading an account") : rc;
}

#define ACCOUNT_COLUMNS "SELECT id, name, pwhash, approved, admin, created, address, deleted FROM accounts "

int ldb_account_by_name(ldb *d, const char *name, ldb_account *a)
{
    return account_row(d, prepare(d, ACCOUNT_COLUMNS "WHERE name = ? COLLATE NOCASE", "t", name), a);
}

int ldb_account_by_id(ldb *d, int64_t id, ldb_account *a)
{
    return account_row(d, prepare(d, ACCOUNT_COLUMNS "WHERE id = ?", "i", id), a);
}

int ldb_account_set(ldb *d, const char *name, bool approved, bool admin)
{
    if (run(d, prepare(d, "UPDATE accounts SET approved = ?, admin = ? WHERE name = ? COLLATE NOCASE AND deleted = 0",
                       "iit", (int64_t)approved, (int64_t)admin, name),
            "updating an account") != 0)
        return -1;
    return sqlite3_changes(d->db) > 0;
}

int ldb_account_password(ldb *d, int64_t id, const char *pwhash)
{
    if (run(d, prepare(d, "UPDATE accounts SET pwhash = ? WHERE id = ?", "ti", pwhash, id), "setting a password") != 0)
        return -1;
    return sqlite3_changes(d->db) > 0;
}

int ldb_account_delete(ldb *d, int64_t id)
{
    if (ldb_secrets_drop_account(d, id) != 0)
        return -1;
    /* an account nothing refers to goes (a refused sign-up); one with submissions stays, unusable, for their history */
    sqlite3_stmt *st = prepare(d, "SELECT count(*) FROM submissions WHERE account = ?", "i", id);
    if (!st)
        return -1;
    int64_t uses = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
    sqlite3_finalize(st);
    if (uses < 0)
        return failed(d, "counting an account's submissions");
    if (uses == 0) {
        if (run(d, prepare(d, "DELETE FROM events WHERE account = ?", "i", id), "forgetting an account's events") != 0 ||
            run(d, prepare(d, "DELETE FROM accounts WHERE id = ?", "i", id), "deleting an account") != 0)
            return -1;
    } else if (run(d, prepare(d, "UPDATE accounts SET deleted = 1, approved = 0, admin = 0, pwhash = '!' WHERE id = ?",
                              "i", id),
                   "deleting an account") != 0) {
        return -1;
    }
    return sqlite3_changes(d->db) > 0;
}

int ldb_accounts(ldb *d, ldb_account *out, int max)
{
    sqlite3_stmt *st = prepare(d, ACCOUNT_COLUMNS "ORDER BY id LIMIT ?", "i", (int64_t)max);
    if (!st)
        return -1;
    int n = 0, rc = 0;
    while (n < max && (rc = account_row_next(st, &out[n])) == 1)
        n++;
    sqlite3_finalize(st);
    return rc < 0 ? failed(d, "listing accounts") : n;
}

long ldb_accounts_pending(ldb *d, const char *address, int64_t since)
{
    sqlite3_stmt *st = address ? prepare(d, "SELECT count(*) FROM accounts WHERE approved = 0 AND deleted = 0 AND "
                                            "address = ? AND created >= ?", "ti", address, since)
                               : prepare(d, "SELECT count(*) FROM accounts WHERE approved = 0 AND deleted = 0", "");
    if (!st)
        return -1;
    long n = sqlite3_step(st) == SQLITE_ROW ? (long)sqlite3_column_int64(st, 0) : -1;
    sqlite3_finalize(st);
    return n < 0 ? failed(d, "counting sign-ups") : n;
}

long ldb_signups_from(ldb *d, const char *address, int64_t since)
{
    sqlite3_stmt *st = prepare(d, "SELECT count(*) FROM accounts WHERE address = ? AND created >= ?", "ti", address,
                               since);
    if (!st)
        return -1;
    long n = sqlite3_step(st) == SQLITE_ROW ? (long)sqlite3_column_int64(st, 0) : -1;
    sqlite3_finalize(st);
    return n < 0 ? failed(d, "counting sign-ups") : n;
}

int ldb_accounts_waiting(ldb *d, char (*names)[33], int max)
{
    sqlite3_stmt *st = prepare(d, "SELECT name FROM accounts WHERE approved = 0 AND deleted = 0 ORDER BY id LIMIT ?",
                               "i", (int64_t)max);
    if (!st)
        return -1;
    int n = 0, rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW && n < max)
        snprintf(names[n++], 33, "%s", (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? n : failed(d, "listing accounts");
}

int ldb_secret_add(ldb *d, ldb_secret_kind kind, const char *hash, int64_t account, const char *csrf,
                   int64_t created, int64_t expires)
{
    return run(d, prepare(d, "INSERT INTO secrets (hash, kind, account, csrf, created, expires) VALUES (?,?,?,?,?,?)",
                          "tiitii", hash, (int64_t)kind, account, csrf, created, expires),
               "storing a secret");
}

int ldb_secrets_drop_account(ldb *d, int64_t account)
{
    return run(d, prepare(d, "DELETE FROM secrets WHERE account = ?", "i", account), "forgetting an account's secrets");
}

int ldb_tokens(ldb *d, int64_t account, int64_t now, ldb_token *out, int max)
{
    sqlite3_stmt *st = prepare(d, "SELECT rowid, created, expires FROM secrets WHERE account = ? AND kind = ? AND "
                                  "(expires = 0 OR expires > ?) ORDER BY rowid LIMIT ?",
                               "iiii", account, (int64_t)LDB_TOKEN, now, (int64_t)max);
    if (!st)
        return -1;
    int n = 0, rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW && n < max)
        out[n++] = (ldb_token){ sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2) };
    sqlite3_finalize(st);
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? n : failed(d, "listing tokens");
}

int ldb_token_drop(ldb *d, int64_t account, int64_t id)
{
    if (run(d, prepare(d, "DELETE FROM secrets WHERE rowid = ? AND account = ? AND kind = ?", "iii", id, account,
                       (int64_t)LDB_TOKEN),
            "revoking a token") != 0)
        return -1;
    return sqlite3_changes(d->db) > 0;
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

static void text_column(sqlite3_stmt *st, int col, char *out, size_t n)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    snprintf(out, n, "%s", t ? (const char *)t : "");
}

#define SUBMISSION_COLUMNS                                                                                             \
    "SELECT s.id, s.account, a.name, s.name, s.version, s.sha256, s.dir, s.program, s.args, s.variants, s.boards, "   \
    "s.bytes, s.state, s.mode, s.elo0, s.elo1, s.created, s.note FROM submissions s JOIN accounts a ON a.id = s.account "

static void submission_row(sqlite3_stmt *st, ldb_submission *s)
{
    s->id = sqlite3_column_int64(st, 0);
    s->account = sqlite3_column_int64(st, 1);
    text_column(st, 2, s->owner, sizeof s->owner);
    text_column(st, 3, s->name, sizeof s->name);
    text_column(st, 4, s->version, sizeof s->version);
    text_column(st, 5, s->sha256, sizeof s->sha256);
    text_column(st, 6, s->dir, sizeof s->dir);
    text_column(st, 7, s->program, sizeof s->program);
    text_column(st, 8, s->args, sizeof s->args);
    s->variants = sqlite3_column_int64(st, 9);
    text_column(st, 10, s->boards, sizeof s->boards);
    s->bytes = sqlite3_column_int64(st, 11);
    text_column(st, 12, s->state, sizeof s->state);
    text_column(st, 13, s->mode, sizeof s->mode);
    s->elo0 = sqlite3_column_double(st, 14);
    s->elo1 = sqlite3_column_double(st, 15);
    s->created = sqlite3_column_int64(st, 16);
    text_column(st, 17, s->note, sizeof s->note);
}

int64_t ldb_submission_add(ldb *d, const ldb_submission *s)
{
    sqlite3_stmt *st = prepare(d,
                               "INSERT INTO submissions (account, name, version, sha256, dir, program, args, variants,"
                               " boards, bytes, state, mode, elo0, elo1, created, note)"
                               " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                               "ittttttititt" "ddit", s->account, s->name, s->version, s->sha256, s->dir, s->program,
                               s->args, s->variants, s->boards, s->bytes, s->state, s->mode, s->elo0, s->elo1,
                               s->created, s->note);
    if (!st)
        return -1;
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc == SQLITE_CONSTRAINT) {
        snprintf(d->err, sizeof d->err, "version '%s' of '%s' was submitted before", s->version, s->name);
        return -1;
    }
    return rc == SQLITE_DONE ? sqlite3_last_insert_rowid(d->db) : failed(d, "adding a submission");
}

/* Steps through a query's submission rows into out (up to max). */
static int submission_rows(ldb *d, sqlite3_stmt *st, ldb_submission *out, int max)
{
    if (!st)
        return -1;
    int n = 0, rc;
    while (n < max && (rc = sqlite3_step(st)) == SQLITE_ROW)
        submission_row(st, &out[n++]);
    if (n < max && rc != SQLITE_DONE) {
        sqlite3_finalize(st);
        return failed(d, "reading submissions");
    }
    sqlite3_finalize(st);
    return n;
}

int ldb_submission_get(ldb *d, int64_t id, ldb_submission *s)
{
    return submission_rows(d, prepare(d, SUBMISSION_COLUMNS "WHERE s.id = ?", "i", id), s, 1);
}

int ldb_submissions(ldb *d, const char *state, const char *name, ldb_submission *out, int max)
{
    return submission_rows(d,
                           prepare(d, SUBMISSION_COLUMNS "WHERE (?1 = '' OR s.state = ?1) AND (?2 IS NULL OR s.name = ?2)"
                                      " ORDER BY s.id DESC LIMIT ?3",
                                   "tti", state, name, (int64_t)max),
                           out, max);
}

int ldb_submission_set(ldb *d, int64_t id, const char *state, const char *note)
{
    /* retired is for good: a worker finishing a job on a version retired meanwhile does not bring it back */
    return run(d, prepare(d, "UPDATE submissions SET state = ?, note = ? WHERE id = ? AND state <> 'retired'", "tti",
                          state, note, id),
               "updating a submission");
}

int64_t ldb_account_bytes(ldb *d, int64_t account)
{
    sqlite3_stmt *st = prepare(d, "SELECT coalesce(sum(bytes), 0) FROM submissions WHERE account = ? AND state NOT IN"
                                  " ('retired', 'failed')", "i", account);
    if (!st)
        return -1;
    int64_t n = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
    sqlite3_finalize(st);
    return n < 0 ? failed(d, "adding up bytes") : n;
}

int64_t ldb_job_add(ldb *d, int64_t submission, const char *kind, int64_t games, int64_t now)
{
    if (run(d, prepare(d, "INSERT INTO jobs (submission, kind, state, created, games) VALUES (?,?,'queued',?,?)",
                       "itii", submission, kind, now, games),
            "queueing a job") != 0)
        return -1;
    return sqlite3_last_insert_rowid(d->db);
}

#define JOB_COLUMNS "id, coalesce(submission, 0), kind, state, runner, league, created, started, finished, note, games"

static void job_row(sqlite3_stmt *st, ldb_job *j)
{
    j->id = sqlite3_column_int64(st, 0);
    j->submission = sqlite3_column_int64(st, 1);
    text_column(st, 2, j->kind, sizeof j->kind);
    text_column(st, 3, j->state, sizeof j->state);
    text_column(st, 4, j->runner, sizeof j->runner);
    j->league = sqlite3_column_int64(st, 5);
    j->created = sqlite3_column_int64(st, 6);
    j->started = sqlite3_column_int64(st, 7);
    j->finished = sqlite3_column_int64(st, 8);
    text_column(st, 9, j->note, sizeof j->note);
    j->games = sqlite3_column_int64(st, 10);
}

int ldb_job_claim(ldb *d, const char *runner, int64_t now, ldb_job *j)
{
    sqlite3_stmt *st = prepare(d, "UPDATE jobs SET state = 'running', runner = ?, started = ? WHERE id = (SELECT min(id)"
                                  " FROM jobs WHERE state = 'queued') RETURNING " JOB_COLUMNS,
                               "ti", runner, now);
    if (!st)
        return -1;
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        job_row(st, j);
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : failed(d, "claiming a job");
}

int ldb_job_requeue(ldb *d, int64_t id)
{
    if (run(d, prepare(d, "DELETE FROM llr WHERE job = ?", "i", id), "forgetting a curve") != 0)
        return -1;
    return run(d, prepare(d, "UPDATE jobs SET state = 'queued', started = 0, runner = '' WHERE id = ?", "i", id),
               "requeueing a job");
}

int ldb_jobs_requeue_running(ldb *d)
{
    if (run(d, prepare(d, "DELETE FROM llr WHERE job IN (SELECT id FROM jobs WHERE state = 'running')", ""),
            "forgetting curves") != 0 ||
        run(d, prepare(d, "UPDATE jobs SET state = 'queued', started = 0, runner = '' WHERE state = 'running'", ""),
            "requeueing jobs") != 0)
        return -1;
    return sqlite3_changes(d->db);
}

int ldb_job_runner(ldb *d, int64_t id, const char *runner)
{
    return run(d, prepare(d, "UPDATE jobs SET runner = ? WHERE id = ?", "ti", runner, id), "placing a job");
}

int ldb_job_finish(ldb *d, int64_t id, const char *state, int64_t league, const char *note, int64_t now)
{
    return run(d, prepare(d, "UPDATE jobs SET state = ?, league = ?, note = ?, finished = ? WHERE id = ?", "titii",
                          state, league, note, now, id),
               "ending a job");
}

int ldb_jobs(ldb *d, bool finished, ldb_job *out, int max)
{
    sqlite3_stmt *st = prepare(d, finished ? "SELECT " JOB_COLUMNS " FROM jobs WHERE state IN ('done', 'failed')"
                                             " ORDER BY id DESC LIMIT ?"
                                           : "SELECT " JOB_COLUMNS " FROM jobs WHERE state IN ('queued', 'running')"
                                             " ORDER BY id LIMIT ?",
                               "i", (int64_t)max);
    if (!st)
        return -1;
    int n = 0, rc = SQLITE_DONE;
    while (n < max && (rc = sqlite3_step(st)) == SQLITE_ROW)
        job_row(st, &out[n++]);
    sqlite3_finalize(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? n : failed(d, "listing jobs");
}

int ldb_llr_add(ldb *d, int64_t job, long pairs, double llr)
{
    return run(d, prepare(d, "INSERT INTO llr (job, pairs, llr) VALUES (?,?,?)", "iid", job, (int64_t)pairs, llr),
               "recording an LLR");
}

int ldb_llr(ldb *d, int64_t job, long *pairs, double *llr, int max)
{
    sqlite3_stmt *st = prepare(d, "SELECT pairs, llr FROM llr WHERE job = ? ORDER BY pairs LIMIT ?", "ii", job,
                               (int64_t)max);
    if (!st)
        return -1;
    int n = 0, rc = SQLITE_DONE;
    while (n < max && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        pairs[n] = (long)sqlite3_column_int64(st, 0);
        llr[n++] = sqlite3_column_double(st, 1);
    }
    sqlite3_finalize(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? n : failed(d, "reading an LLR curve");
}

int ldb_name_as_written(ldb *d, const char *name, char *out, size_t n)
{
    sqlite3_stmt *st = prepare(d, "SELECT name FROM submissions WHERE name = ?1 COLLATE NOCASE AND name <> ?1 LIMIT 1",
                               "t", name);
    if (!st)
        return -1;
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        snprintf(out, n, "%s", (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : failed(d, "looking up a name");
}

int64_t ldb_rating_games(ldb *d, int64_t since)
{
    sqlite3_stmt *st = prepare(d, "SELECT coalesce(sum(games), 0) FROM jobs WHERE kind = 'rating' AND created >= ?", "i",
                               since);
    if (!st)
        return -1;
    int64_t n = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
    sqlite3_finalize(st);
    return n < 0 ? failed(d, "adding up rating games") : n;
}

int ldb_mark(ldb *d, char *out, size_t n)
{
    sqlite3_stmt *st = prepare(d, "SELECT (SELECT coalesce(max(id), 0) FROM jobs), (SELECT count(*) FROM jobs WHERE "
                                  "state IN ('done', 'failed')), (SELECT coalesce(max(id), 0) FROM submissions), "
                                  "(SELECT count(*) FROM submissions WHERE state = 'ladder')", "");
    if (!st)
        return -1;
    int rc = sqlite3_step(st) == SQLITE_ROW ? 0 : -1;
    if (rc == 0)
        snprintf(out, n, "%lld/%lld/%lld/%lld", (long long)sqlite3_column_int64(st, 0),
                 (long long)sqlite3_column_int64(st, 1), (long long)sqlite3_column_int64(st, 2),
                 (long long)sqlite3_column_int64(st, 3));
    sqlite3_finalize(st);
    return rc == 0 ? 0 : failed(d, "reading the queue");
}

int64_t ldb_account_games(ldb *d, int64_t account, int64_t since)
{
    sqlite3_stmt *st = prepare(d, "SELECT coalesce(sum(j.games), 0) FROM jobs j JOIN submissions s ON s.id = j.submission"
                                  " WHERE s.account = ? AND j.created >= ? AND j.kind <> 'rating'", "ii", account, since);
    if (!st)
        return -1;
    int64_t n = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
    sqlite3_finalize(st);
    return n < 0 ? failed(d, "adding up games") : n;
}
