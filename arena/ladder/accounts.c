/* arena/ladder/accounts.c — accounts, sessions, form tokens, API tokens and rate limits (accounts.h), with
 * libsodium for passwords, randomness and constant-time comparison, and SHA-256 (libmd) for the stored secrets. */
#include "accounts.h"

#include <pthread.h>
#include <sha2.h>
#include <sodium.h>
#include <stdio.h>
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

int64_t ld_signup(ldb *d, const ld_config *c, const char *name, const char *password, int64_t now, char *err,
                  size_t errlen)
{
    if (!ld_name_ok(name)) {
        snprintf(err, errlen, "name: expected 1 to %d letters, digits, '_', '-' or '.' (not first)", LD_NAME_MAX);
        return -1;
    }
    size_t n = strlen(password);
    if (n < LD_PASSWORD_MIN || n > LD_PASSWORD_MAX) {
        snprintf(err, errlen, "password: expected %d to %d characters", LD_PASSWORD_MIN, LD_PASSWORD_MAX);
        return -1;
    }
    char hash[crypto_pwhash_STRBYTES];
    if (sodium_init() < 0 || crypto_pwhash_str(hash, password, n, crypto_pwhash_OPSLIMIT_INTERACTIVE,
                                               crypto_pwhash_MEMLIMIT_INTERACTIVE) != 0) {
        snprintf(err, errlen, "cannot hash the password (out of memory)");
        return -1;
    }
    bool admin = ld_config_admin(c, name);
    int64_t id = ldb_account_add(d, name, hash, admin || !c->approval, admin, now);
    if (id < 0)
        snprintf(err, errlen, "%s", ldb_error(d));
    return id;
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
    if (found && ldb_event_count(d, a->id, "login-failure", now - 59) >= LD_LOGIN_FAILURES) {
        snprintf(err, errlen, "too many failed logins for '%s': try again in a minute", a->name);
        return 0;
    }
    pthread_once(&decoy_once, make_decoy);
    bool ok = sodium_init() >= 0 &&
              crypto_pwhash_str_verify(found ? a->pwhash : decoy, password, strlen(password)) == 0 && found;
    if (!ok) {
        if (found)
            ldb_event_add(d, a->id, "login-failure", now);
        snprintf(err, errlen, "wrong name or password");
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
    if (ldb_secret_add(d, LDB_SESSION, hash, a->id, s->csrf, now + LD_SESSION_SECONDS) != 0) {
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

int ld_token_new(ldb *d, int64_t account, char token[LD_SECRET_HEX])
{
    char hash[SHA256_DIGEST_STRING_LENGTH];
    if (random_secret(token) != 0)
        return -1;
    secret_hash(token, hash);
    return ldb_secret_add(d, LDB_TOKEN, hash, account, NULL, 0);
}

int ld_token_account(ldb *d, const char *token, ldb_account *a)
{
    if (!secret_shaped(token))
        return 0;
    char hash[SHA256_DIGEST_STRING_LENGTH];
    secret_hash(token, hash);
    int64_t id;
    int rc = ldb_secret_find(d, LDB_TOKEN, hash, 0, &id, NULL, 0);
    if (rc != 1)
        return rc;
    rc = ldb_account_by_id(d, id, a);
    return rc == 1 && !a->approved ? 0 : rc;
}

int ld_approve(ldb *d, const ldb_account *by, const char *name, bool admin, char *err, size_t errlen)
{
    if (!by->admin) {
        snprintf(err, errlen, "only an admin approves accounts");
        return 0;
    }
    int rc = ldb_account_set(d, name, true, admin);
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
