/* arena/store/ladder_db.h — the open ladder's own database (docs/ladder.md), a file of its own beside the results
 * database, which the ladder's leagues write as every league does: accounts (a name, a password hash made by the
 * caller, approved or not, admin or not), secrets (login sessions and API tokens, stored only as the caller's hash of
 * them, each with its account, an expiry, and for a session its form token), and events (what an account did when:
 * the counts rate limits and daily quotas are taken from). Only hashes of secrets are ever written.
 * Every call returns 0 / a row id on success and -1 on failure with a one-line reason in ldb_error(). */
#ifndef ARENA_STORE_LADDER_DB_H
#define ARENA_STORE_LADDER_DB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LDB_SCHEMA_VERSION 2
#define LDB_HASH_MAX 160           /* characters of a stored hash (crypto_pwhash_str's are under 128) */

typedef struct ldb ldb;

typedef struct {
    int64_t id;
    char name[33];
    char pwhash[LDB_HASH_MAX + 1];
    bool approved, admin;
    int64_t created;               /* Unix seconds */
    char address[64];              /* where it signed up from ("" when made from the command line or the config) */
    bool deleted;                  /* deleted: its name stays taken, nobody logs in as it */
} ldb_account;

/* Opens (creating, with its folder's parent existing) the ladder's database at path, WAL mode, its schema made or
 * checked. NULL with the reason in err. */
ldb *ldb_open(const char *path, char *err, size_t errlen);
void ldb_close(ldb *d);
const char *ldb_error(const ldb *d);

/* Adds an account (signed up from `address`, NULL or "" for none); -1 when the name is taken, whatever its case
 * (ldb_error says so), or on failure. Returns its id. */
int64_t ldb_account_add(ldb *d, const char *name, const char *pwhash, bool approved, bool admin, const char *address,
                        int64_t now);

/* Finds an account by name (whatever its case) or by id: 1 found (into *a), 0 not found, -1 failure. */
int ldb_account_by_name(ldb *d, const char *name, ldb_account *a);
int ldb_account_by_id(ldb *d, int64_t id, ldb_account *a);

/* Sets an account's approval (and admin flag). 1 done, 0 no such account, -1 failure. */
int ldb_account_set(ldb *d, const char *name, bool approved, bool admin);

/* Sets an account's password hash: 1 done, 0 no such account, -1 failure. */
int ldb_account_password(ldb *d, int64_t id, const char *pwhash);

/* Deletes an account: its sessions and tokens are dropped; an account with submissions stays in the table, deleted
 * (unusable, its name taken), one without goes. 1 done, 0 no such account, -1 failure. */
int ldb_account_delete(ldb *d, int64_t id);

/* Every account (deleted ones too), up to max, by id. Returns how many, -1 failure. */
int ldb_accounts(ldb *d, ldb_account *out, int max);

/* Accounts waiting for approval: those signed up from `address` since `since`, or (address NULL) all of them. And
 * every account signed up from `address` since `since`. -1 failure. */
long ldb_accounts_pending(ldb *d, const char *address, int64_t since);
long ldb_signups_from(ldb *d, const char *address, int64_t since);

/* Lists accounts waiting for approval, up to max names (33 bytes each) into names; returns how many, -1 failure. */
int ldb_accounts_waiting(ldb *d, char (*names)[33], int max);

typedef enum { LDB_SESSION = 1, LDB_TOKEN = 2 } ldb_secret_kind;

/* Stores a secret's hash for an account, with a session's form token (NULL for a token), when it was made and its
 * expiry (Unix seconds, 0: none). Returns 0 or -1. */
int ldb_secret_add(ldb *d, ldb_secret_kind kind, const char *hash, int64_t account, const char *csrf,
                   int64_t created, int64_t expires);

/* Forgets every session and token of an account (a password reset, a deletion). Returns 0 or -1. */
int ldb_secrets_drop_account(ldb *d, int64_t account);

/* An account's API token as listed: its id (for revoking it), when it was made and when it expires. */
typedef struct {
    int64_t id, created, expires;
} ldb_token;

/* An account's unexpired tokens, up to max, oldest first. Returns how many, -1 failure. */
int ldb_tokens(ldb *d, int64_t account, int64_t now, ldb_token *out, int max);

/* Revokes token `id` of `account`: 1 done, 0 none such of that account, -1 failure. */
int ldb_token_drop(ldb *d, int64_t account, int64_t id);

/* Finds an unexpired secret by its hash: 1 found (*account, and its form token into csrf, csrflen bytes, when csrf
 * is not NULL), 0 not found or expired, -1 failure. */
int ldb_secret_find(ldb *d, ldb_secret_kind kind, const char *hash, int64_t now, int64_t *account, char *csrf,
                    size_t csrflen);

/* Forgets a secret (logging out, revoking a token); also every expired one. Returns 0 or -1. */
int ldb_secret_drop(ldb *d, ldb_secret_kind kind, const char *hash, int64_t now);

/* Records that an account did `kind` (e.g. "request", "submission") at `at`, and counts its events of a kind since
 * a time (-1 on failure). Events older than a day before `at` are dropped as new ones are added. */
int ldb_event_add(ldb *d, int64_t account, const char *kind, int64_t at);
long ldb_event_count(ldb *d, int64_t account, const char *kind, int64_t since);

/* A submitted bot version (submission.h), as the ladder tracks it. State: "queued" (waiting for its placement or
 * test), "running", "ladder" (placed: on the ladder), "tested" (its SPRT test decided without it joining), "retired"
 * (by its owner or an admin), "failed" (its placement could not run: note says why). */
typedef struct {
    int64_t id, account;
    char owner[33];                /* the account's name */
    char name[33], version[33];
    char sha256[65];
    char dir[4096];                /* where it is unpacked (read-only), or a lab program's directory */
    char program[256];             /* relative to dir */
    char args[4097];
    int64_t variants;              /* bit v: hx_variant v */
    char boards[256];              /* "3x3, 4x4" */
    int64_t bytes;                 /* unpacked */
    char state[16];
    char mode[16];                 /* "placement" or "sprt" (against the version before it) */
    double elo0, elo1;
    int64_t created;
    char note[512];                /* why it failed or was retired; an SPRT's decision */
} ldb_submission;

/* Adds a submission (id, state and created taken from s as given); returns its id or -1. */
int64_t ldb_submission_add(ldb *d, const ldb_submission *s);

/* One submission by id: 1 found, 0 not, -1 failure. */
int ldb_submission_get(ldb *d, int64_t id, ldb_submission *s);

/* Submissions in a state ("" any), of a bot name (NULL any), newest first, up to max: how many into out, -1. */
int ldb_submissions(ldb *d, const char *state, const char *name, ldb_submission *out, int max);

/* Sets a submission's state and note; a retired one stays retired (a job that ends after its version was retired
 * does not bring it back). Returns 0 or -1. */
int ldb_submission_set(ldb *d, int64_t id, const char *state, const char *note);

/* Bytes of unpacked submissions an account keeps (not retired, not failed), -1 on failure. */
int64_t ldb_account_bytes(ldb *d, int64_t account);

/* A unit of work (worker.h): a placement, an SPRT test, or a rating round between bots of the ladder. */
typedef struct {
    int64_t id;
    int64_t submission;            /* 0 for a rating round */
    char kind[16];                 /* "placement", "sprt", "rating" */
    char state[16];                /* "queued", "running", "done", "failed" */
    char runner[16];               /* where it ran: local, host, slurm */
    int64_t league;                /* the league it played in the results database, 0 before */
    int64_t created, started, finished;
    char note[512];
    int64_t games;                 /* the most games it may play (as counted when it was queued) */
} ldb_job;

/* Whether a bot's name is on the ladder written in another case: 1 with the name as written into out, 0 not, -1 on
 * failure. */
int ldb_name_as_written(ldb *d, const char *name, char *out, size_t n);

/* Games the rating rounds queued since `since` may play, in all; -1 on failure. */
int64_t ldb_rating_games(ldb *d, int64_t since);

/* A mark of the ladder's state (jobs queued and finished, submissions made and on the ladder) into out: equal marks,
 * nothing new to rate. 0, or -1 on failure. */
int ldb_mark(ldb *d, char *out, size_t n);

/* Queues a job; games: the most games it may play (what games_per_day counts). Returns its id or -1. */
int64_t ldb_job_add(ldb *d, int64_t submission, const char *kind, int64_t games, int64_t now);

/* The games an account's placements and tests queued since `since` may play (rating rounds not counted), -1. */
int64_t ldb_account_games(ldb *d, int64_t account, int64_t since);

/* Claims the oldest queued job for `runner` (state running, started now): 1 into *j, 0 none queued, -1 failure. */
int ldb_job_claim(ldb *d, const char *runner, int64_t now, ldb_job *j);

/* Puts a running job back in the queue (its SPRT curve forgotten), or every running job (what a worker that
 * stopped or was killed left: one worker plays a ladder's queue). Return 0 / the number requeued, or -1. */
int ldb_job_requeue(ldb *d, int64_t id);
int ldb_jobs_requeue_running(ldb *d);

/* Says where a claimed job runs ("local", "slurm"). Returns 0 or -1. */
int ldb_job_runner(ldb *d, int64_t id, const char *runner);

/* Ends a job: done or failed, its league and a note. Returns 0 or -1. */
int ldb_job_finish(ldb *d, int64_t id, const char *state, int64_t league, const char *note, int64_t now);

/* Jobs not finished (queued and running, oldest first), or the newest finished ones: how many into out, -1. */
int ldb_jobs(ldb *d, bool finished, ldb_job *out, int max);

/* An SPRT test's curve: the LLR after `pairs` game pairs of a job. */
int ldb_llr_add(ldb *d, int64_t job, long pairs, double llr);
/* The points of a job's curve, in order: how many into pairs and llr, -1. */
int ldb_llr(ldb *d, int64_t job, long *pairs, double *llr, int max);

#endif
