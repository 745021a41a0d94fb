/* tests/e2e/test_ladder.c — the open ladder end to end: `arena serve --ladder LADDER.ini` started as a lab would,
 * with its worker; three accounts made over HTTP (curl), two approved by the admin named in LADDER.ini; bots packed
 * here from the built programs into tar.gz archives and submitted over HTTP (the API with a token, the form with its
 * token by curl, and the form in headless Chromium: logged in, the file picked, the form posted); their placements finish and the ladder page shows all three with intervals; a second version (the
 * bridge builder in place of the random bot) submitted as an SPRT test decides, its page showing the decision and the
 * LLR after each game pair. One account cannot retire another's bot or read its logs; a form posted without the
 * session's token, or with another session's, is refused; so are hostile archives, before anything runs; a bot that
 * crashes is placed all the same and its page lists its forfeits with their reason. */
#include "serve_kit.h" /* first: _GNU_SOURCE */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cdp_kit.h"
#include "test_sys.h"
#include "test_util.h"
#include "tgz_kit.h"

static char tmp[64], bin[512], db[128], ini[128], base[64];
static pid_t server;

/* The body of a curl call with its status code appended as " HTTP=NNN" (malloc'd). */
static char *curl(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *curl(const char *fmt, ...)
{
    char args[3000], cmd[3300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "curl -s -w ' HTTP=%%{http_code}' %s", args);
    return sh_output(cmd);
}

static void expect(char *reply, const char *what)
{
    if (!strstr(reply, what))
        fail_msg("expected '%s' in: %.2000s", what, reply);
    free(reply);
}

/* A tar.gz of the program at path as ./bot with arguments, and a manifest, at tmp/FILE. */
static void pack_program(const char *path, const char *name, const char *version, const char *args, const char *file)
{
    char manifest[300], out[200];
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *exe = read_all(f);
    fseek(f, 0, SEEK_END);
    size_t n = (size_t)ftell(f);
    fclose(f);
    snprintf(manifest, sizeof manifest, "name = %s\nversion = %s\ncommand = ./bot %s\nvariants = classical\n"
             "boards = 4x4\n", name, version, args);
    tgz_entry e[] = { { "ladder.ini", 'f', 0644, manifest, 0, 0 }, { "bot", 'f', 0755, exe, 0, n } };
    snprintf(out, sizeof out, "%s/%s", tmp, file);
    assert_int_equal(tgz_write(out, true, e, 2, NULL, NULL), 0);
    free(exe);
}

/* The same for a program of the build (bin/PROGRAM), without arguments. */
static void pack(const char *program, const char *name, const char *version, const char *file)
{
    char path[700];
    snprintf(path, sizeof path, "%s/%s", bin, program);
    pack_program(path, name, version, "", file);
}

static int setup(void **state)
{
    (void)state;
    if (e2e_dirs(tmp, "arena-ladder-e2e", bin) != 0)
        return -1;
    snprintf(db, sizeof db, "%s/arena.db", tmp);
    snprintf(ini, sizeof ini, "%s/LADDER.ini", tmp);
    /* the admin, as a lab names one: its password's hash from `arena ladder hash-password` under [admins] */
    char cmd[700];
    snprintf(cmd, sizeof cmd, "echo root-password | '%s/arena' ladder hash-password", bin);
    char *hash = sh_output(cmd);
    if (!hash || strncmp(hash, "$argon2id$", 10) != 0)
        return -1;
    hash[strcspn(hash, "\n")] = 0;
    FILE *f = fopen(ini, "w");
    fprintf(f, "[ladder]\ndb = %s\nstate = %s/state.db\nstore = %s/bots\nlogs = %s/logs\napproval = on\n"
               "variants = classical\nboards = 4x4\nplacement_pairs = 2\nsprt_pairs = 150\n"
               "move_ms = 5000\nrating_rounds = off\n[quota]\nrequests_per_minute = 1000\n[admins]\nroot = %s\n",
            db, tmp, tmp, tmp, hash);
    fclose(f);
    free(hash);
    const char *extra[] = { "--ladder", ini, NULL };
    char errlog[128];
    snprintf(errlog, sizeof errlog, "%s/serve.err", tmp);
    int port;
    server = serve_start(bin, db, extra, errlog, &port);
    if (server < 0)
        return -1;
    snprintf(base, sizeof base, "http://127.0.0.1:%d/ladder", port);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    int rc = serve_stop(server);
    return rc == 0 && e2e_cleanup(tmp) == 0 ? 0 : -1;
}

/* Signs up and logs in with a cookie jar at tmp/NAME.jar; returns the session's form token (malloc'd). */
static char *login(const char *name)
{
    expect(curl("-d 'name=%s&password=%s-password' %s/login -c %s/%s.jar", name, name, base, tmp, name), "HTTP=303");
    char *me = curl("-b %s/%s.jar %s/me", tmp, name, base);
    const char *at = strstr(me, "name=\"csrf\" value=\"");
    assert_non_null(at);
    char *csrf = strndup(at + 19, 64);
    free(me);
    return csrf;
}

/* Polls `url` until it holds `what` (10 minutes at most: placements play real games on a loaded machine). */
static char *wait_for(const char *url, const char *what)
{
    for (int i = 0; i < 1200; i++) {
        char *r = curl("-H 'Accept: application/json' '%s'", url);
        if (strstr(r, what))
            return r;
        free(r);
        nanosleep(&(struct timespec){ 0, 500000000 }, NULL);
    }
    fail_msg("%s never showed '%s'", url, what);
    return NULL;
}

/* Logs in as `name` on the login page in headless Chromium, picks the archive in the submit form's file input and
 * posts the form, then checks where the browser ended up. */
static void submit_in_chromium(const char *name, const char *file, const char *landing)
{
    cdp c;
    char url[200], js[400], path[200];
    assert_int_equal(cdp_start(&c), 0);
    snprintf(url, sizeof url, "%s/login", base);
    assert_true(cdp_goto(&c, url));
    snprintf(js, sizeof js, "var f = document.forms[0]; f.elements['name'].value = '%s'; "
                            "f.elements['password'].value = '%s-password'; f.submit(); 1", name, name);
    free(cdp_eval(&c, js, true));
    char *where = cdp_eval(&c, "location.pathname + ' ' + document.body.innerText", false);
    if (!strstr(where, "\"value\":\"/ladder/me "))
        fail_msg("after logging in the browser is at %.1000s", where);
    free(where);
    snprintf(path, sizeof path, "%s/%s", tmp, file);
    assert_true(cdp_set_file(&c, "form[action='/ladder/submit'] input[name=archive]", path));
    free(cdp_eval(&c, "document.querySelector('form[action$=submit]').submit(); 1", true));
    where = cdp_eval(&c, "location.pathname", false);
    snprintf(js, sizeof js, "\"value\":\"%s\"", landing);
    if (!strstr(where, js))
        fail_msg("the browser is at %s", where);
    free(where);
    cdp_stop(&c);
}

static void accounts_submissions_placement_and_an_sprt_test(void **state)
{
    (void)state;
    BROWSER_OR_SKIP();
    const char *names[] = { "root", "alice", "bob" };
    for (int i = 1; i < 3; i++)
        expect(curl("-d 'name=%s&password=%s-password' %s/signup", names[i], names[i], base), "HTTP=303");
    expect(curl("-d 'name=alice&password=alice-password' %s/login", base), "waiting for an admin's approval");
    char *root = login("root");
    for (int i = 1; i < 3; i++)
        expect(curl("-b %s/root.jar -d 'csrf=%s&name=%s' %s/approve", tmp, root, names[i], base), "HTTP=303");
    char *alice = login("alice"), *bob = login("bob");
    char *tok = curl("-b %s/alice.jar -H 'Accept: application/json' -d 'csrf=%s' %s/token", tmp, alice, base);
    const char *t = strstr(tok, "\"token\":\"");
    assert_non_null(t);
    char *token = strndup(t + 9, 64);
    free(tok);
    pack("random", "rnd", "1", "rnd1.tar.gz");
    pack("random", "walker", "1", "walker1.tar.gz");
    pack("random", "third", "1", "third1.tar.gz");
    expect(curl("-H 'Authorization: Bearer %s' -H 'Content-Type: application/gzip' --data-binary @%s/rnd1.tar.gz "
                "%s/submit", token, tmp, base), "\"submission\":1");
    expect(curl("-b %s/bob.jar -F csrf=%s -F archive=@%s/walker1.tar.gz %s/submit", tmp, bob, tmp, base),
           "HTTP=303");
    submit_in_chromium("bob", "third1.tar.gz", "/ladder/bot/third");
    char url[200];
    snprintf(url, sizeof url, "%s/queue", base);
    expect(curl("%s", url), "ends in about</th>");
    free(wait_for(url, "\"queued\":0"));
    char *ladder = curl("-H 'Accept: application/json' %s", base);
    for (int i = 0; i < 3; i++) {
        const char *bots[] = { "\"bot\":\"rnd\"", "\"bot\":\"walker\"", "\"bot\":\"third\"" };
        const char *row = strstr(ladder, bots[i]);
        assert_non_null(row);
        assert_non_null(strstr(row, "\"95% interval\":\"["));
    }
    free(ladder);
    pack("bridge", "rnd", "2", "rnd2.tar.gz");
    expect(curl("-H 'Authorization: Bearer %s' -H 'Content-Type: application/gzip' --data-binary @%s/rnd2.tar.gz "
                "'%s/submit?sprt=1&elo0=0&elo1=100'", token, tmp, base), "\"mode\":\"sprt\"");
    snprintf(url, sizeof url, "%s/bot/rnd", base);
    char *page = wait_for(url, "H1 accepted");
    assert_non_null(strstr(page, "SPRT: LLR after each game pair"));
    free(page);
    page = curl("%s/bot/rnd", base);
    assert_non_null(strstr(page, "<a href=\"/game/")); /* its games, in the viewer */
    assert_non_null(strstr(page, "<svg ")); /* the LLR curve, drawn */
    assert_non_null(strstr(page, "<polyline "));
    free(page);
    free(root);
    free(alice);
    free(bob);
    free(token);
}

static void one_account_cannot_act_for_another_nor_forge_a_form(void **state)
{
    (void)state;
    const char *names[] = { "alice", "bob" };
    char *csrf[2];
    for (int i = 0; i < 2; i++) {
        expect(curl("-d 'name=%s&password=%s-password' %s/signup", names[i], names[i], base), "HTTP=303");
    }
    char *root_csrf = login("root");
    /* another site's page posting the login form: refused, whatever the password */
    expect(curl("-H 'Origin: http://elsewhere.example' -d 'name=root&password=root-password' %s/login", base),
           "HTTP=403");
    /* a sign-up taking the admin's name in another case gets nothing: the name is taken */
    expect(curl("-d 'name=ROOT&password=root-password' %s/signup", base), "HTTP=400");
    for (int i = 0; i < 2; i++)
        expect(curl("-b %s/root.jar -d 'csrf=%s&name=%s' %s/approve", tmp, root_csrf, names[i], base), "HTTP=303");
    for (int i = 0; i < 2; i++)
        csrf[i] = login(names[i]);
    pack("random", "rnd", "1", "rnd1.tar.gz");
    expect(curl("-b %s/alice.jar -F csrf=%s -F archive=@%s/rnd1.tar.gz %s/submit", tmp, csrf[0], tmp, base),
           "HTTP=303");
    expect(curl("-b %s/bob.jar -d 'csrf=%s&id=1' %s/retire", tmp, csrf[1], base), "HTTP=403");
    expect(curl("-b %s/bob.jar %s/log/1", tmp, base), "HTTP=403");
    expect(curl("%s/log/1", base), "HTTP=401");
    expect(curl("-b %s/alice.jar %s/log/1", tmp, base), "HTTP=200");
    /* forged: alice's cookie without her form's token, or with bob's */
    expect(curl("-b %s/alice.jar -d 'id=1' %s/retire", tmp, base), "HTTP=403");
    expect(curl("-b %s/alice.jar -d 'csrf=%s&id=1' %s/retire", tmp, csrf[1], base), "HTTP=403");
    expect(curl("-b %s/alice.jar -F archive=@%s/rnd1.tar.gz %s/submit", tmp, tmp, base), "HTTP=403");
    expect(curl("-H 'Accept: application/json' %s/bot/rnd", base), "\"owner\":\"alice\"");
    expect(curl("-b %s/alice.jar -d 'csrf=%s&id=1' %s/retire", tmp, csrf[0], base), "HTTP=303");
    expect(curl("%s/bot/rnd", base), "retired by alice");
    /* hostile archives over HTTP: refused with the entry named, before anything runs */
    char bad[200];
    snprintf(bad, sizeof bad, "%s/evil.tar.gz", tmp);
    tgz_entry e[] = { { "ladder.ini", 'f', 0644, "name = evil\nversion = 1\ncommand = ./bot\nvariants = classical\n"
                                                 "boards = 4x4\n", 0, 0 },
                      { "bot", 'l', 0777, "/bin/sh", 0, 0 } };
    assert_int_equal(tgz_write(bad, true, e, 2, NULL, NULL), 0);
    expect(curl("-b %s/bob.jar -F csrf=%s -F archive=@%s %s/submit", tmp, csrf[1], bad, base),
           "entry 2 'bot': a symbolic link");
    /* a bot that crashes: placed all the same, its page lists its forfeits with their reason */
    char crash[200];
    const char *agents = getenv("ARENA_TEST_AGENTS"); /* tests/run.sh: the misbehaving test bots */
    snprintf(crash, sizeof crash, "%s/misbehave", agents ? agents : "build/release/tests/agents");
    pack_program(crash, "crasher", "1", "--mode crash", "crasher.tar.gz");
    pack("random", "steady", "1", "steady.tar.gz");
    expect(curl("-b %s/bob.jar -F csrf=%s -F archive=@%s/steady.tar.gz %s/submit", tmp, csrf[1], tmp, base),
           "HTTP=303");
    expect(curl("-b %s/bob.jar -F csrf=%s -F archive=@%s/crasher.tar.gz %s/submit", tmp, csrf[1], tmp, base),
           "HTTP=303");
    char url[200];
    snprintf(url, sizeof url, "%s/bot/crasher", base);
    char *page = wait_for(url, "\"forfeits\"");
    assert_non_null(strstr(page, "\"forfeited by\":\"crasher-1\",\"reason\":\"crash\""));
    free(page);
    /* a worker for runner = host without the hosts' keys refuses to start, naming the key */
    char slurm[200];
    snprintf(slurm, sizeof slurm, "%s/slurm.ini", tmp);
    FILE *f = fopen(slurm, "w");
    fprintf(f, "[ladder]\ndb = %s\nstate = %s/s2.db\nstore = %s/b2\nvariants = classical\nboards = 4x4\n"
               "runner = host\nlisten_league = tcp://127.0.0.1:5555\nserver_key = k.key\n", db, tmp, tmp);
    fclose(f);
    char cmd[900];
    snprintf(cmd, sizeof cmd, "'%s/arena' ladder work '%s' --once 2>&1", bin, slurm);
    FILE *p = popen(cmd, "r");
    char *out = read_all(p);
    assert_int_equal(WEXITSTATUS(pclose(p)), 2);
    assert_non_null(strstr(out, "[ladder] host_keys: missing for runner = host"));
    free(out);
    for (int i = 0; i < 2; i++)
        free(csrf[i]);
    free(root_csrf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(accounts_submissions_placement_and_an_sprt_test, setup, teardown),
        cmocka_unit_test_setup_teardown(one_account_cannot_act_for_another_nor_forge_a_form, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
