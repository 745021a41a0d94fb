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
#define LD_TOKEN_SECONDS (90 * 86400) /* an API token's life */
#define LD_SIGNUPS_PER_ADDRESS 3   /* accounts signed up from one address in a day */
#define LD_PENDING_MAX 100         /* accounts waiting for an admin's approval at once */
#define LD_PWHASH_MAX 128          /* a password hash (crypto_pwhash_str) with its NUL */
#define LD_REFUSED "wrong name or password (or too many failed logins for the name: try again in a minute)"

typedef struct {
    char cookie[LD_SECRET_HEX];    /* the session's secret: the value of the arena_session cookie */
    char csrf[LD_SECRET_HEX];      /* its form token */
} ld_session;

/* Makes a sign-up's account (name as ld_name_ok, unique whatever its case; a password of LD_PASSWORD_MIN..MAX bytes),
 * from the client's `address`: never an admin, and waiting for an admin's approval when LADDER.ini says so. At most
 * LD_SIGNUPS_PER_ADDRESS a day from one address, and LD_PENDING_MAX waiting in all. Returns its id, or -1 with a
 * one-line reason in err (a bad name or password, a name taken, too many sign-ups, the database). */
int64_t ld_signup(ldb *d, const ld_config *c, const char *name, const char *password, const char *address,
                  int64_t now, char *err, size_t errlen);

/* A password's hash (crypto_pwhash_str, Argon2id, interactive limits) into hash; 0, or -1 with the reason in err (its
 * length out of LD_PASSWORD_MIN..MAX). */
int ld_password_hash(const char *password, char hash[LD_PWHASH_MAX], char *err, size_t errlen);

/* Whether text is a password hash as ld_password_hash makes them (LADDER.ini's [admins]). */
bool ld_password_hash_ok(const char *hash);

/* Makes `name` an admin (admin true) or not, approved: the command line's and LADDER.ini's way, never a sign-up's. A
 * missing account is made with pwhash (NULL: refused); an existing one takes pwhash when given (its sessions and
 * tokens then dropped). Returns 0, or -1 with the reason in err. */
int ld_admin_set(ldb *d, const char *name, const char *pwhash, bool admin, int64_t now, char *err, size_t errlen);

/* LADDER.ini's [admins] made so (ld_admin_set each, with its hash) when the ladder starts. Returns 0, or -1 with the
 * reason (naming the admin) in err. */
int ld_admins_from_config(ldb *d, const ld_config *c, int64_t now, char *err, size_t errlen);

/* Sets an account's password (its sessions and tokens dropped): 1, 0 refused (err: no such account, a bad password),
 * -1 failure. ld_reset_password makes a random one of 24 characters and hands it back in `password`. */
int ld_set_password(ldb *d, const char *name, const char *password, char *err, size_t errlen);
int ld_reset_password(ldb *d, const char *name, char password[LD_SECRET_HEX], char *err, size_t errlen);

/* Deletes an account on behalf of `by` (an admin; NULL: the command line): its sessions and tokens dropped, its bots
 * retired; a sign-up refused is gone, an account with submissions stays, deleted (ldb_account_delete). 1, 0 refused
 * (err says why), -1 failure. */
int ld_delete_account(ldb *d, const ldb_account *by, const char *name, char *err, size_t errlen);

/* Checks a name and password and opens a session. Returns 1 (into *s and *a), 0 refused (err: LD_REFUSED for an
 * unknown name, a wrong password and, after LD_LOGIN_FAILURES wrong passwords for the account within a minute, even
 * the right one; "waiting for an admin's approval" after the right password), -1 failure. Every refusal costs the
 * same hashing. */
int ld_login(ldb *d, const char *name, const char *password, int64_t now, ld_session *s, ldb_account *a, char *err,
             size_t errlen);

/* The account of a session cookie's value, and its form token into csrf (LD_SECRET_HEX bytes): 1, 0 (no such
 * session, or expired), -1 failure. */
int ld_session_account(ldb *d, const char *cookie, int64_t now, ldb_account *a, char *csrf);

/* Ends a session. Returns 0 or -1. */
int ld_logout(ldb *d, const char *cookie, int64_t now);

/* Whether a form's token is the session's (compared in constant time; an empty or missing one never is). */
bool ld_csrf_ok(const char *session_csrf, const char *given);

/* A new API token for an account (shown to its owner once; only its hash is kept), valid LD_TOKEN_SECONDS. Returns 0
 * or -1. */
int ld_token_new(ldb *d, int64_t account, int64_t now, char token[LD_SECRET_HEX]);

/* The account of an API token: 1, 0 (unknown, expired, revoked, its account not approved or deleted), -1 failure. */
int ld_token_account(ldb *d, const char *token, int64_t now, ldb_account *a);

/* Approves an account (and makes it admin when admin is true) on behalf of `by`, who must be an admin. Returns 1,
 * 0 refused (err says why: not an admin, no such account), -1 failure. */
int ld_approve(ldb *d, const ldb_account *by, const char *name, bool admin, char *err, size_t errlen);

/* Counts one action of kind `kind` for an account if fewer than `limit` were counted in the last `window` seconds
 * (limit 0: no limit, always counted). Returns 1 allowed, 0 over the limit, -1 failure. */
int ld_rate(ldb *d, int64_t account, const char *kind, long limit, int64_t window, int64_t now);

#endif
