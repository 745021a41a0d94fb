/* arena/ladder/accounts.c — accounts, sessions, form tokens, API tokens and rate limits (accounts.h), with
 * libsodium for passwords, randomness and constant-time comparison, and SHA-256 (libmd) for the stored secrets. */
#include "accounts.h"

#include <pthread.h>
#include <sha2.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "manifest.h"

/* 32 random bytes in hex. */
static int random_secret(char out[LD_SECRET_HEX])
{
    if (sodium_init() < 0)
        return -1;
    unsigned char raw[32];
    randombytes_buf(raw, sizeof raw);
    sodium_bin2hex(out, LD_SECRET_HEX, raw, sizeof raw);
    sodium_memzero(raw, sizeof raw);
    return 0;
}

/* What is stored for a secret: its SHA-256 in hex. */
static void secret_hash(const char *secret, char out[SHA256_DIGEST_STRING_LENGTH])
{
    SHA256Data((const uint8_t *)secret, strlen(secret), out);
}

/* Whether a secret as received looks like one handed out (64 hex digits), before it is hashed and looked up. */
static bool secret_shaped(const char *s)
{
    return s && strlen(s) == LD_SECRET_HEX - 1 && strspn(s, "0123456789abcdef") == LD_SECRET_HEX - 1;
}

int ld_password_hash(const char *password, char hash[LD_PWHASH_MAX], char *err, size_t errlen)
{
    size_t n = strlen(password);
    if (n < LD_PASSWORD_MIN || n > LD_PASSWORD_MAX) {
        snprintf(err, errlen, "password: expected %d to %d characters", LD_PASSWORD_MIN, LD_PASSWORD_MAX);
        return -1;
    }
    if (sodium_init() < 0 || crypto_pwhash_str(hash, password, n, crypto_pwhash_OPSLIMIT_INTERACTIVE,
                                               crypto_pwhash_MEMLIMIT_INTERACTIVE) != 0) {
        snprintf(err, errlen, "cannot hash the password (out of memory)");
        return -1;
    }
    return 0;
}

bool ld_password_hash_ok(const char *hash)
{
    return hash && strncmp(hash, "$argon2id$", 10) == 0 && strlen(hash) < LD_PWHASH_MAX &&
           strspn(hash, "$abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/=,") == strlen(hash);
}

int64_t ld_signup(ldb *d, const ld_config *c, const char *name, const char *password, const char *address,
                  int64_t now, char *err, size_t errlen)
{
    if (!ld_name_ok(name)) {
        snprintf(err, errlen, "name: expected 1 to %d letters, digits, '_', '-' or '.' (not first)", LD_NAME_MAX);
        return -1;
    }
    char hash[LD_PWHASH_MAX];
    if (ld_password_hash(password, hash, err, errlen) != 0)
        return -1;
    /* bounded: sign-ups from one address a day, and accounts waiting for an admin in all */
    long from = address && address[0] ? ldb_signups_from(d, address, now - 86400) : 0;
    long waiting = c->approval ? ldb_accounts_pending(d, NULL, 0) : 0;
    if (from < 0 || waiting < 0) {
        snprintf(err, errlen, "%s", ldb_error(d));
        return -1;
    }
    if (from >= LD_SIGNUPS_PER_ADDRESS) {
        snprintf(err, errlen, "too many sign-ups from your address today (%d at most): try again tomorrow",
                 LD_SIGNUPS_PER_ADDRESS);
        return -1;
    }
    if (waiting >= LD_PENDING_MAX) {
        snprintf(err, errlen, "too many accounts are waiting for an admin's approval (%d): try again later",
                 LD_PENDING_MAX);
        return -1;
    }
    /* never an admin: admins are made from the command line or LADDER.ini's [admins] (ld_admin_set) */
    int64_t id = ldb_account_add(d, name, hash, !c->approval, false, address, now);
    if (id < 0)
        snprintf(err, errlen, "%s", ldb_error(d));
    return id;
}

int ld_admins_from_config(ldb *d, const ld_config *c, int64_t now, char *err, size_t errlen)
{
    for (int i = 0; i < c->n_admins; i++) {
        char why[300];
        if (ld_admin_set(d, c->admins[i].name, c->admins[i].pwhash, true, now, why, sizeof why) != 0) {
            snprintf(err, errlen, "%s: [admins] %s: %s", c->path, c->admins[i].name, why);
            return -1;
        }
    }
    return 0;
}

int ld_admin_set(ldb *d, const char *name, const char *pwhash, bool admin, int64_t now, char *err, size_t errlen)
{
    ldb_account a;
    int found = ld_name_ok(name) ? ldb_account_by_name(d, name, &a) : (snprintf(err, errlen, "'%.40s': not an account "
                                                                               "name", name), -2);
    if (found == -2)
        return -1;
    if (found < 0 || (found && a.deleted)) {
        snprintf(err, errlen, "%s", found < 0 ? ldb_error(d) : "that account was deleted: its name stays taken");
        return -1;
    }
    if (!found) {
        if (!pwhash) {
            snprintf(err, errlen, "no account '%s': give its password to make it", name);
            return -1;
        }
        if (ldb_account_add(d, name, pwhash, true, admin, "", now) < 0) {
            snprintf(err, errlen, "%s", ldb_error(d));
            return -1;
        }
        return 0;
    }
    if ((pwhash && strcmp(pwhash, a.pwhash) != 0 &&
         (ldb_account_password(d, a.id, pwhash) < 0 || ldb_secrets_drop_account(d, a.id) != 0)) ||
        ldb_account_set(d, a.name, true, admin) < 0) {
        snprintf(err, errlen, "%s", ldb_error(d));
        return -1;
    }
    return 0;
}

/* A hash no password matches, verified in place of an unknown account's so that the time a refusal takes does
 * not tell whether the name exists. */
static char decoy[crypto_pwhash_STRBYTES];
static pthread_once_t decoy_once = PTHREAD_ONCE_INIT;

static void make_decoy(void)
{
    char secret[LD_SECRET_HEX];
    if (sodium_init() < 0 || random_secret(secret) != 0 ||
        crypto_pwhash_str(decoy, secret, strlen(secret), crypto_pwhash_OPSLIMIT_INTERACTIVE,
                          crypto_pwhash_MEMLIMIT_INTERACTIVE) != 0)
        decoy[0] = '\0';
}

int ld_login(ldb *d, const char *name, const char *password, int64_t now, ld_session *s, ldb_account *a, char *err,
             size_t errlen)
{
    int found = ld_name_ok(name) ? ldb_account_by_name(d, name, a) : 0;
    if (found < 0) {
        snprintf(err, errlen, "%s", ldb_error(d));
        return -1;
    }
    /* one answer for an unknown name, a wrong password and a locked account, each after the same hashing: a refusal
     * does not tell which accounts exist */
    bool locked = found && ldb_event_count(d, a->id, "login-failure", now - 59) >= LD_LOGIN_FAILURES;
    pthread_once(&decoy_once, make_decoy);
    bool ok = sodium_init() >= 0 &&
              crypto_pwhash_str_verify(found && !a->deleted ? a->pwhash : decoy, password, strlen(password)) == 0 &&
              found && !a->deleted && !locked;
    if (!ok) {
        if (found && !locked)
            ldb_event_add(d, a->id, "login-failure", now);
        snprintf(err, errlen, "%s", LD_REFUSED);
        return 0;
    }
    if (!a->approved) {
        snprintf(err, errlen, "the account '%s' is waiting for an admin's approval", a->name);
        return 0;
    }
    char hash[SHA256_DIGEST_STRING_LENGTH];
    if (random_secret(s->cookie) != 0 || random_secret(s->csrf) != 0) {
        snprintf(err, errlen, "no randomness");
        return -1;
    }
    secret_hash(s->cookie, hash);
    if (ldb_secret_add(d, LDB_SESSION, hash, a->id, s->csrf, now, now + LD_SESSION_SECONDS) != 0) {
        snprintf(err, errlen, "%s", ldb_error(d));
        return -1;
    }
    return 1;
}

int ld_session_account(ldb *d, const char *cookie, int64_t now, ldb_account *a, char *csrf)
{
    if (!secret_shaped(cookie))
        return 0;
    char hash[SHA256_DIGEST_STRING_LENGTH];
    secret_hash(cookie, hash);
    int64_t id;
    int rc = ldb_secret_find(d, LDB_SESSION, hash, now, &id, csrf, LD_SECRET_HEX);
    return rc == 1 ? ldb_account_by_id(d, id, a) : rc;
}

int ld_logout(ldb *d, const char *cookie, int64_t now)
{
    if (!secret_shaped(cookie))
        return 0;
    char hash[SHA256_DIGEST_STRING_LENGTH];
    secret_hash(cookie, hash);
    return ldb_secret_drop(d, LDB_SESSION, hash, now);
}

bool ld_csrf_ok(const char *session_csrf, const char *given)
{
    if (!secret_shaped(session_csrf) || !given || strlen(given) != LD_SECRET_HEX - 1)
        return false;
    return sodium_memcmp(session_csrf, given, LD_SECRET_HEX - 1) == 0;
}

int ld_token_new(ldb *d, int64_t account, int64_t now, char token[LD_SECRET_HEX])
{
    char hash[SHA256_DIGEST_STRING_LENGTH];
    if (random_secret(token) != 0)
        return -1;
    secret_hash(token, hash);
    return ldb_secret_add(d, LDB_TOKEN, hash, account, NULL, now, now + LD_TOKEN_SECONDS);
}

int ld_token_account(ldb *d, const char *token, int64_t now, ldb_account *a)
{
    if (!secret_shaped(token))
        return 0;
    char hash[SHA256_DIGEST_STRING_LENGTH];
    secret_hash(token, hash);
    int64_t id;
    int rc = ldb_secret_find(d, LDB_TOKEN, hash, now, &id, NULL, 0);
    if (rc != 1)
        return rc;
    rc = ldb_account_by_id(d, id, a);
    return rc == 1 && (!a->approved || a->deleted) ? 0 : rc;
}

int ld_set_password(ldb *d, const char *name, const char *password, char *err, size_t errlen)
{
    ldb_account a;
    char hash[LD_PWHASH_MAX];
    int found = ld_name_ok(name) ? ldb_account_by_name(d, name, &a) : 0;
    if (found <= 0 || a.deleted) {
        snprintf(err, errlen, "%s", found < 0 ? ldb_error(d) : "no such account");
        return found < 0 ? -1 : 0;
    }
    if (ld_password_hash(password, hash, err, errlen) != 0)
        return 0;
    if (ldb_account_password(d, a.id, hash) < 0 || ldb_secrets_drop_account(d, a.id) != 0) {
        snprintf(err, errlen, "%s", ldb_error(d));
        return -1;
    }
    return 1;
}

int ld_reset_password(ldb *d, const char *name, char password[LD_SECRET_HEX], char *err, size_t errlen)
{
    if (random_secret(password) != 0) {
        snprintf(err, errlen, "no randomness");
        return -1;
    }
    password[24] = '\0'; /* 96 bits, short enough to type */
    return ld_set_password(d, name, password, err, errlen);
}

int ld_delete_account(ldb *d, const ldb_account *by, const char *name, char *err, size_t errlen)
{
    ldb_account a;
    if (by && !by->admin) {
        snprintf(err, errlen, "only an admin deletes accounts");
        return 0;
    }
    int found = ld_name_ok(name) ? ldb_account_by_name(d, name, &a) : 0;
    if (found <= 0 || a.deleted) {
        snprintf(err, errlen, "%s", found < 0 ? ldb_error(d) : "no such account");
        return found < 0 ? -1 : 0;
    }
    if (by && a.id == by->id) {
        snprintf(err, errlen, "an admin does not delete their own account here: from the command line");
        return 0;
    }
    /* its bots leave the ladder with it */
    ldb_submission *subs = calloc(64, sizeof *subs);
    int n = subs ? ldb_submissions(d, "", NULL, subs, 64) : -1;
    for (int i = 0; i < n; i++)
        if (subs[i].account == a.id && strcmp(subs[i].state, "retired") != 0 && strcmp(subs[i].state, "refused") != 0)
            ldb_submission_set(d, subs[i].id, "retired", "its account was deleted");
    free(subs);
    if (n < 0 || ldb_account_delete(d, a.id) < 0) {
        snprintf(err, errlen, "%s", n < 0 && !subs ? "out of memory" : ldb_error(d));
        return -1;
    }
    return 1;
}

int ld_approve(ldb *d, const ldb_account *by, const char *name, bool admin, char *err, size_t errlen)
{
    if (!by->admin) {
        snprintf(err, errlen, "only an admin approves accounts");
        return 0;
    }
    ldb_account a;
    int found = ld_name_ok(name) ? ldb_account_by_name(d, name, &a) : 0;
    int rc = found == 1 && !a.deleted ? ldb_account_set(d, a.name, true, admin || a.admin) : found < 0 ? -1 : 0;
    if (rc == 0)
        snprintf(err, errlen, "no account '%.40s'", name);
    else if (rc < 0)
        snprintf(err, errlen, "%s", ldb_error(d));
    return rc;
}

int ld_rate(ldb *d, int64_t account, const char *kind, long limit, int64_t window, int64_t now)
{
    if (limit > 0) {
        long n = ldb_event_count(d, account, kind, now - window + 1);
        if (n < 0)
            return -1;
        if (n >= limit)
            return 0;
    }
    return ldb_event_add(d, account, kind, now) == 0 ? 1 : -1;
}
