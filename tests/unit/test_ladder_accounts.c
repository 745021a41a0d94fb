/* tests/unit/test_ladder_accounts.c — the ladder's accounts (arena/ladder/accounts.h, cookie.h, and the ladder's
 * database, arena/store/ladder_db.h): passwords kept only as Argon2id hashes, approval by an admin, admins made only
 * by LADDER.ini's [admins] or the command line (never by a sign-up), sign-ups bounded per address and in all, names
 * unique whatever their case, one answer for an unknown name, a wrong password and a locked account, sessions and API
 * tokens stored only as hashes and found again from their secret, sessions that expire and end, tokens that expire,
 * are listed and revoked and end with a password reset, deleted accounts, form tokens that match only their own
 * session, rate limits per account, the session cookie's attributes, and the database's file closed to others
 * (0600). The database's files are searched byte by byte for any secret written in clear. */
#define _GNU_SOURCE /* memmem */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "accounts.h"
#include "cookie.h"
#include "ladder_db.h"
#include "test_util.h"

static char dir[64], path[128];
static ldb *d;
static ld_config cfg;

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/arena-ladder-acct-XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    snprintf(path, sizeof path, "%s/state.db", dir);
    char err[512], hash[LD_PWHASH_MAX], ini[800];
    if (ld_password_hash("the root password", hash, err, sizeof err) != 0)
        return -1;
    snprintf(ini, sizeof ini, "[ladder]\ndb = a.db\nstate = s.db\nstore = b\nvariants = classical\nboards = 3x3\n"
             "[admins]\nroot = %s   # made admin when the ladder starts\n", hash);
    if (ld_config_parse(ini, strlen(ini), "L.ini", &cfg, err, sizeof err) != 0)
        return -1;
    d = ldb_open(path, err, sizeof err);
    return d && ld_admins_from_config(d, &cfg, 900, err, sizeof err) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    ldb_close(d);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd);
}

/* Whether the database file (and its WAL) holds the bytes of s anywhere. */
static bool file_holds(const char *s)
{
    const char *suffix[] = { "", "-wal" };
    for (int i = 0; i < 2; i++) {
        char p[200];
        snprintf(p, sizeof p, "%s%s", path, suffix[i]);
        FILE *f = fopen(p, "rb");
        if (!f)
            continue;
        fseek(f, 0, SEEK_END);
        long n = ftell(f);
        fseek(f, 0, SEEK_SET);
        char *buf = malloc((size_t)n + 1);
        assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
        fclose(f);
        bool found = memmem(buf, (size_t)n, s, strlen(s)) != NULL;
        free(buf);
        if (found)
            return true;
    }
    return false;
}

static int64_t approved_account(const char *name, const char *password)
{
    char err[512];
    int64_t id = ld_signup(d, &cfg, name, password, NULL, 1000, err, sizeof err);
    if (id < 0)
        fail_msg("%s", err);
    ldb_account root;
    assert_int_equal(ldb_account_by_name(d, "root", &root), 1);
    assert_int_equal(ld_approve(d, &root, name, false, err, sizeof err), 1);
    return id;
}

static void passwords_are_kept_only_as_argon2id_hashes(void **state)
{
    (void)state;
    char err[512];
    approved_account("alice", "correct horse battery");
    ldb_account a;
    assert_int_equal(ldb_account_by_name(d, "alice", &a), 1);
    assert_true(strncmp(a.pwhash, "$argon2id$", 10) == 0);
    assert_false(file_holds("correct horse battery"));
    ld_session s;
    assert_int_equal(ld_login(d, "alice", "correct horse battery", 2000, &s, &a, err, sizeof err), 1);
    assert_int_equal(ld_login(d, "alice", "correct horse batterz", 2000, &s, &a, err, sizeof err), 0);
    assert_string_equal(err, LD_REFUSED);
    assert_int_equal(ld_login(d, "mallory", "correct horse battery", 2000, &s, &a, err, sizeof err), 0);
    assert_string_equal(err, LD_REFUSED); /* an unknown name: the same answer */
    assert_int_equal(ld_signup(d, &cfg, "alice", "another password", NULL, 1000, err, sizeof err), -1);
    assert_string_equal(err, "the account name 'alice' is taken");
    assert_int_equal(ld_signup(d, &cfg, "ALICE", "another password", NULL, 1000, err, sizeof err), -1);
    assert_string_equal(err, "the account name 'ALICE' is taken"); /* whatever its case */
    assert_int_equal(ld_login(d, "Alice", "correct horse battery", 2000, &s, &a, err, sizeof err), 1);
    assert_string_equal(a.name, "alice");
    assert_int_equal(ld_signup(d, &cfg, "bob", "short", NULL, 1000, err, sizeof err), -1);
    assert_non_null(strstr(err, "password: expected 8 to 256 characters"));
    assert_int_equal(ld_signup(d, &cfg, "<script>", "long enough", NULL, 1000, err, sizeof err), -1);
    assert_non_null(strstr(err, "name: expected"));
    assert_int_equal(ld_signup(d, &cfg, "eve\xe2\x80\xae" "bot", "long enough", NULL, 1000, err, sizeof err), -1);
    assert_non_null(strstr(err, "name: expected")); /* no bidi control, nor anything but a safe set */
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600); /* password hashes: its owner's alone */
}

/* Wrong passwords for one account: after LD_LOGIN_FAILURES within a minute, even the right one waits a minute. */
static void failed_logins_are_limited_per_account(void **state)
{
    (void)state;
    char err[512];
    approved_account("alice", "alice's password");
    approved_account("bob", "bob's password!");
    ld_session s;
    ldb_account a;
    for (int i = 0; i < LD_LOGIN_FAILURES; i++)
        assert_int_equal(ld_login(d, "alice", "guess", 5000 + i, &s, &a, err, sizeof err), 0);
    assert_int_equal(ld_login(d, "alice", "alice's password", 5020, &s, &a, err, sizeof err), 0);
    assert_string_equal(err, LD_REFUSED); /* a locked account looks like any refusal */
    assert_int_equal(ld_login(d, "bob", "bob's password!", 5020, &s, &a, err, sizeof err), 1); /* bob's own count */
    assert_int_equal(ld_login(d, "alice", "alice's password", 5070, &s, &a, err, sizeof err), 1); /* a minute on */
}

static void an_account_waits_for_an_admin(void **state)
{
    (void)state;
    char err[512];
    ld_session s;
    ldb_account a, b;
    assert_true(ld_signup(d, &cfg, "carol", "carol's password", "10.1.1.1", 1000, err, sizeof err) > 0);
    assert_int_equal(ld_login(d, "carol", "carol's password", 1000, &s, &a, err, sizeof err), 0);
    assert_non_null(strstr(err, "waiting for an admin's approval"));
    assert_true(ld_signup(d, &cfg, "dave", "dave's password", "10.1.1.2", 1000, err, sizeof err) > 0);
    assert_int_equal(ldb_account_by_name(d, "dave", &b), 1);
    b.approved = true; /* even approved, a plain account approves nobody */
    assert_int_equal(ld_approve(d, &b, "carol", false, err, sizeof err), 0);
    assert_string_equal(err, "only an admin approves accounts");
    char waiting[4][33];
    assert_int_equal(ldb_accounts_waiting(d, waiting, 4), 2);
    assert_string_equal(waiting[0], "carol");
    /* the admin of LADDER.ini's [admins] exists with its password; signing up under its name claims nothing */
    assert_int_equal(ld_signup(d, &cfg, "root", "the attacker's password", NULL, 1000, err, sizeof err), -1);
    assert_int_equal(ld_signup(d, &cfg, "Root", "the attacker's password", NULL, 1000, err, sizeof err), -1);
    ldb_account root;
    assert_int_equal(ldb_account_by_name(d, "root", &root), 1);
    assert_true(root.approved && root.admin);
    assert_int_equal(ld_login(d, "root", "the root password", 1000, &s, &a, err, sizeof err), 1);
    assert_int_equal(ld_approve(d, &root, "nobody", false, err, sizeof err), 0);
    assert_int_equal(ld_approve(d, &root, "carol", false, err, sizeof err), 1);
    assert_int_equal(ld_login(d, "carol", "carol's password", 1000, &s, &a, err, sizeof err), 1);
    ld_config open = cfg;
    open.approval = false;
    assert_true(ld_signup(d, &open, "erin", "erin's password", NULL, 1000, err, sizeof err) > 0);
    assert_int_equal(ld_login(d, "erin", "erin's password", 1000, &s, &a, err, sizeof err), 1);
    assert_false(a.admin); /* a sign-up is never an admin */
    /* the command line's way: an existing account made admin, then not */
    assert_int_equal(ld_admin_set(d, "erin", NULL, true, 1000, err, sizeof err), 0);
    assert_int_equal(ldb_account_by_name(d, "erin", &a), 1);
    assert_true(a.admin);
    assert_int_equal(ld_admin_set(d, "erin", NULL, false, 1000, err, sizeof err), 0);
    assert_int_equal(ldb_account_by_name(d, "erin", &a), 1);
    assert_false(a.admin);
    assert_int_equal(ld_admin_set(d, "frank", NULL, true, 1000, err, sizeof err), -1); /* no account, no password */
    /* rejecting a sign-up removes it; deleting an account ends its sessions and tokens */
    assert_true(ld_signup(d, &cfg, "gina", "gina's password", "10.1.1.3", 1000, err, sizeof err) > 0);
    assert_int_equal(ld_delete_account(d, &b, "gina", err, sizeof err), 0); /* not an admin */
    assert_int_equal(ld_delete_account(d, &root, "gina", err, sizeof err), 1);
    assert_int_equal(ldb_account_by_name(d, "gina", &a), 0);
    assert_int_equal(ld_login(d, "erin", "erin's password", 1000, &s, &a, err, sizeof err), 1);
    assert_int_equal(ld_delete_account(d, &root, "erin", err, sizeof err), 1);
    assert_int_equal(ld_session_account(d, s.cookie, 1001, &a, s.csrf), 0);
    assert_int_equal(ld_login(d, "erin", "erin's password", 1002, &s, &a, err, sizeof err), 0);
}

/* Sign-ups: at most LD_SIGNUPS_PER_ADDRESS a day from one address, and LD_PENDING_MAX waiting for an admin in all. */
static void sign_ups_are_bounded(void **state)
{
    (void)state;
    char err[512], name[32];
    for (int i = 0; i < LD_SIGNUPS_PER_ADDRESS; i++) {
        snprintf(name, sizeof name, "spam%d", i);
        assert_true(ld_signup(d, &cfg, name, "a long password", "192.0.2.7", 1000 + i, err, sizeof err) > 0);
    }
    assert_int_equal(ld_signup(d, &cfg, "spam9", "a long password", "192.0.2.7", 1010, err, sizeof err), -1);
    assert_non_null(strstr(err, "too many sign-ups from your address"));
    assert_true(ld_signup(d, &cfg, "spam9", "a long password", "192.0.2.7", 1000 + 86400 + 10, err, sizeof err) > 0);
    int made = LD_SIGNUPS_PER_ADDRESS + 1, refused = 0;
    for (int i = 0; i < LD_PENDING_MAX + 5; i++) {
        char addr[32];
        snprintf(name, sizeof name, "wait%d", i);
        snprintf(addr, sizeof addr, "198.51.100.%d", i % 250);
        if (ld_signup(d, &cfg, name, "a long password", addr, 200000 + i, err, sizeof err) > 0)
            made++;
        else
            refused += strstr(err, "too many accounts are waiting") != NULL;
    }
    assert_int_equal(made, LD_PENDING_MAX);
    assert_int_equal(refused, LD_SIGNUPS_PER_ADDRESS + 6);
}

static void sessions_are_found_by_their_secret_and_end(void **state)
{
    (void)state;
    char err[512], csrf[LD_SECRET_HEX], csrf2[LD_SECRET_HEX];
    approved_account("alice", "alice's password");
    approved_account("bob", "bob's password!");
    ld_session s, t;
    ldb_account a;
    assert_int_equal(ld_login(d, "alice", "alice's password", 5000, &s, &a, err, sizeof err), 1);
    assert_int_equal(ld_login(d, "bob", "bob's password!", 5000, &t, &a, err, sizeof err), 1);
    assert_string_not_equal(s.cookie, t.cookie);
    assert_false(file_holds(s.cookie)); /* only its hash is stored */
    assert_int_equal(ld_session_account(d, s.cookie, 5001, &a, csrf), 1);
    assert_string_equal(a.name, "alice");
    assert_string_equal(csrf, s.csrf);
    assert_true(ld_csrf_ok(csrf, s.csrf));
    assert_false(ld_csrf_ok(csrf, t.csrf)); /* another session's form token */
    assert_false(ld_csrf_ok(csrf, ""));
    assert_false(ld_csrf_ok(csrf, NULL));
    char cut[LD_SECRET_HEX];
    snprintf(cut, sizeof cut, "%.63s", s.csrf);
    assert_false(ld_csrf_ok(csrf, cut));
    assert_int_equal(ld_session_account(d, "0123", 5001, &a, csrf2), 0);
    assert_int_equal(ld_session_account(d, s.csrf, 5001, &a, csrf2), 0); /* a form token is not a session */
    assert_int_equal(ld_session_account(d, s.cookie, 5000 + LD_SESSION_SECONDS, &a, csrf2), 0); /* expired */
    assert_int_equal(ld_session_account(d, t.cookie, 5001, &a, csrf2), 1);
    assert_int_equal(ld_logout(d, t.cookie, 5002), 0);
    assert_int_equal(ld_session_account(d, t.cookie, 5003, &a, csrf2), 0);
}

static void api_tokens_are_stored_as_hashes(void **state)
{
    (void)state;
    int64_t id = approved_account("alice", "alice's password");
    char token[LD_SECRET_HEX], other[LD_SECRET_HEX], err[300];
    assert_int_equal(ld_token_new(d, id, 5000, token), 0);
    assert_int_equal(ld_token_new(d, id, 5000, other), 0);
    assert_string_not_equal(token, other);
    assert_false(file_holds(token));
    ldb_account a;
    assert_int_equal(ld_token_account(d, token, 5001, &a), 1);
    assert_string_equal(a.name, "alice");
    assert_int_equal(ld_token_account(d, token, 5000 + LD_TOKEN_SECONDS, &a), 0); /* expired */
    ldb_token t[4];
    assert_int_equal(ldb_tokens(d, id, 5001, t, 4), 2); /* listed */
    assert_int_equal(t[0].created, 5000);
    assert_int_equal(t[0].expires, 5000 + LD_TOKEN_SECONDS);
    int64_t bob = approved_account("bob", "bob's password!");
    assert_int_equal(ldb_token_drop(d, bob, t[1].id), 0); /* not bob's to revoke */
    assert_int_equal(ldb_token_drop(d, id, t[1].id), 1);
    assert_int_equal(ld_token_account(d, other, 5001, &a), 0); /* revoked */
    assert_int_equal(ld_token_account(d, token, 5001, &a), 1);
    assert_int_equal(ld_set_password(d, "alice", "a new password", err, sizeof err), 1);
    assert_int_equal(ld_token_account(d, token, 5001, &a), 0); /* a password reset ends every token */
    assert_int_equal(ldb_tokens(d, id, 5001, t, 4), 0);
    token[0] = token[0] == 'a' ? 'b' : 'a';
    assert_int_equal(ld_token_account(d, token, 5001, &a), 0);
    assert_int_equal(ld_token_account(d, "'; DROP TABLE accounts; --", 5001, &a), 0);
}

static void rate_limits_count_per_account_and_window(void **state)
{
    (void)state;
    int64_t a = approved_account("alice", "alice's password");
    int64_t b = approved_account("bob", "bob's password!");
    for (int i = 0; i < 3; i++)
        assert_int_equal(ld_rate(d, a, "request", 3, 60, 10000 + i), 1);
    assert_int_equal(ld_rate(d, a, "request", 3, 60, 10010), 0);
    assert_int_equal(ld_rate(d, b, "request", 3, 60, 10010), 1); /* another account's count */
    assert_int_equal(ld_rate(d, a, "submission", 3, 60, 10010), 1); /* another kind's */
    assert_int_equal(ld_rate(d, a, "request", 3, 60, 10060), 1); /* the first has left the window */
    assert_int_equal(ld_rate(d, a, "request", 0, 60, 10061), 1); /* no limit */
}

static void the_session_cookie_is_http_only_and_strict(void **state)
{
    (void)state;
    char h[300], v[80];
    assert_int_equal(ld_cookie_header("abc", false, h, sizeof h), 0);
    assert_non_null(strstr(h, "arena_session=abc;"));
    assert_non_null(strstr(h, "; HttpOnly"));
    assert_non_null(strstr(h, "; SameSite=Strict"));
    assert_null(strstr(h, "Secure"));
    assert_int_equal(ld_cookie_header("", true, h, sizeof h), 0);
    assert_non_null(strstr(h, "Max-Age=0; Secure"));
    assert_true(ld_cookie_get("theme=dark; arena_session=f00d; x=1", "arena_session", v, sizeof v));
    assert_string_equal(v, "f00d");
    assert_false(ld_cookie_get("xarena_session=1; arena_sessionx=2", "arena_session", v, sizeof v));
    assert_false(ld_cookie_get("", "arena_session", v, sizeof v));
    assert_false(ld_cookie_get("arena_session=0123456789", "arena_session", v, 4));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(passwords_are_kept_only_as_argon2id_hashes, setup, teardown),
        cmocka_unit_test_setup_teardown(an_account_waits_for_an_admin, setup, teardown),
        cmocka_unit_test_setup_teardown(sign_ups_are_bounded, setup, teardown),
        cmocka_unit_test_setup_teardown(failed_logins_are_limited_per_account, setup, teardown),
        cmocka_unit_test_setup_teardown(sessions_are_found_by_their_secret_and_end, setup, teardown),
        cmocka_unit_test_setup_teardown(api_tokens_are_stored_as_hashes, setup, teardown),
        cmocka_unit_test_setup_teardown(rate_limits_count_per_account_and_window, setup, teardown),
        cmocka_unit_test_setup_teardown(the_session_cookie_is_http_only_and_strict, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
