/* arena/ladder/accounts.h — who may act on the ladder (docs/ladder.md): accounts with a password stored only as
 * libsodium's crypto_pwhash_str (Argon2id, interactive limits), approved by an admin unless LADDER.ini turns
 * approval off (admins named there are approved at sign-up); login sessions and API tokens as 256-bit random
 * secrets handed out once and stored only as their SHA-256; a form token per session (the synchronizer token every
 * form of the session must carry back); and rate limits per account, counted in the ladder's database. */
#ifndef ARENA_LADDER_ACCOUNTS_H
#define ARENA_LADDER_ACCOUNTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ladder_db.h"
#include "ladder_ini.h"

#define LD_SECRET_HEX 65           /* a secret (session, form or API token) in hex with its NUL */
#define LD_SESSION_SECONDS (7 * 86400)
#define LD_PASSWORD_MIN 8
#define LD_PASSWORD_MAX 256
#define LD_LOGIN_FAILURES 10       /* failed logins of one account in a minute before it refuses even the right one */

typedef struct {
    char cookie[LD_SECRET_HEX];    /* the session's secret: the value of the arena_session cookie */
    char csrf[LD_SECRET_HEX];      /* its form token */
} ld_session;

/* Makes an account (name as ld_name_ok, a password of LD_PASSWORD_MIN..MAX bytes). Returns its id, or -1 with a
 * one-line reason in err (a bad name or password, a name taken, the database). */
int64_t ld_signup(ldb *d, const ld_config *c, const char *name, const char *password, int64_t now, char *err,
                  size_t errlen);

/* Checks a name and password and opens a session. Returns 1 (into *s and *a), 0 refused (err: "wrong name or
 * password", "waiting for an admin's approval", or after LD_LOGIN_FAILURES wrong passwords for the account within a
 * minute, "too many failed logins"), -1 failure. An unknown name costs the same hashing as a wrong password. */
int ld_login(ldb *d, const char *name, const char *password, int64_t now, ld_session *s, ldb_account *a, char *err,
             size_t errlen);

/* The account of a session cookie's value, and its form token into csrf (LD_SECRET_HEX bytes): 1, 0 (no such
 * session, or expired), -1 failure. */
int ld_session_account(ldb *d, const char *cookie, int64_t now, ldb_account *a, char *csrf);

/* Ends a session. Returns 0 or -1. */
int ld_logout(ldb *d, const char *cookie, int64_t now);

/* Whether a form's token is the session's (compared in constant time; an empty or missing one never is). */
bool ld_csrf_ok(const char *session_csrf, const char *given);

/* A new API token for an account (shown to its owner once; only its hash is kept). Returns 0 or -1. */
int ld_token_new(ldb *d, int64_t account, char token[LD_SECRET_HEX]);

/* The account of an API token: 1, 0 (unknown), -1 failure. */
int ld_token_account(ldb *d, const char *token, ldb_account *a);

/* Approves an account (and makes it admin when admin is true) on behalf of `by`, who must be an admin. Returns 1,
 * 0 refused (err says why: not an admin, no such account), -1 failure. */
int ld_approve(ldb *d, const ldb_account *by, const char *name, bool admin, char *err, size_t errlen);

/* Counts one action of kind `kind` for an account if fewer than `limit` were counted in the last `window` seconds
 * (limit 0: no limit, always counted). Returns 1 allowed, 0 over the limit, -1 failure. */
int ld_rate(ldb *d, int64_t account, const char *kind, long limit, int64_t window, int64_t now);

#endif
