/* tests/e2e/test_ladder_siege.c — the open ladder against an outsider, over loopback, with `arena serve --ladder`
 * running as a lab runs it (its admin given in LADDER.ini's [admins], a trusted proxy so that sign-ups can come from
 * many addresses): signing up under the admin's name, in any case, gives nothing, and no other account can approve;
 * 60 half-sent 16 MiB login bodies, then 60 half-sent 16 MiB uploads from five accounts, keep the server under
 * 300 MB (one upload per account is taken, to disk); an upload trickled a byte at a time is closed within a minute;
 * a token cannot make another, and once revoked (DELETE), expired or its account's password reset it is refused;
 * an idle two-bot ladder with rating rounds stops playing once every interval is within its target; SIGKILL of the
 * server ends its worker within seconds, a restart runs one worker, and a second worker started by hand waits;
 * 413 exactly above [archive] max_bytes (and above 8 KiB for a login), 400 for an archive giving a path twice. */
#include "serve_kit.h" /* first: _GNU_SOURCE */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "test_sys.h"
#include "test_util.h"
#include "tgz_kit.h"

static char tmp[64], bin[512], db[128], ini[128], base[80], errlog[128];
static pid_t server;
static int port;

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

/* LADDER.ini with `extra` lines in [ladder], and the server started on it (with its worker unless no_worker). */
static void start_ladder(const char *extra, bool no_worker)
{
    char cmd[700];
    snprintf(cmd, sizeof cmd, "echo root-password | '%s/arena' ladder hash-password", bin);
    char *hash = sh_output(cmd);
    assert_true(strncmp(hash, "$argon2id$", 10) == 0);
    hash[strcspn(hash, "\n")] = 0;
    FILE *f = fopen(ini, "w");
    fprintf(f, "[ladder]\ndb = %s\nstate = %s/state.db\nstore = %s/bots\nlogs = %s/logs\napproval = off\n"
               "variants = classical\nboards = 3x3\nplacement_pairs = 2\nmove_ms = 5000\nfair_timing = off\n"
               "trusted_proxies = 127.0.0.1   # curl's requests come through 'the proxy' from many addresses\n%s"
               "[quota]\nrequests_per_minute = 10000\n[admins]\nroot = %s\n",
            db, tmp, tmp, tmp, extra, hash);
    fclose(f);
    free(hash);
    const char *args[] = { "--ladder", ini, no_worker ? "--no-worker" : NULL, NULL };
    server = serve_start(bin, db, args, errlog, &port);
    if (server < 0)
        fail_msg("arena serve --ladder did not start (see %s)", errlog);
    snprintf(base, sizeof base, "http://127.0.0.1:%d/ladder", port);
}

static int setup(void **state)
{
    (void)state;
    if (e2e_dirs(tmp, "arena-ladder-siege", bin) != 0)
        return -1;
    snprintf(db, sizeof db, "%s/arena.db", tmp);
    snprintf(ini, sizeof ini, "%s/LADDER.ini", tmp);
    snprintf(errlog, sizeof errlog, "%s/serve.err", tmp);
    server = 0;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    int rc = server > 0 ? serve_stop(server) : 0;
    return rc == 0 && e2e_cleanup(tmp) == 0 ? 0 : -1;
}

/* Signs `name` up from the forwarded address `from`, logs in (cookie jar tmp/NAME.jar) and returns the session's
 * form token (malloc'd). */
static char *account(const char *name, const char *from)
{
    expect(curl("-H 'X-Forwarded-For: %s' -d 'name=%s&password=%s-password' %s/signup", from, name, name, base),
           "HTTP=303");
    expect(curl("-d 'name=%s&password=%s-password' %s/login -c %s/%s.jar", name, name, base, tmp, name), "HTTP=303");
    char *me = curl("-b %s/%s.jar %s/me", tmp, name, base);
    const char *at = strstr(me, "name=\"csrf\" value=\"");
    assert_non_null(at);
    char *csrf = strndup(at + 19, 64);
    free(me);
    return csrf;
}

/* A new API token of a logged-in account (its id into *id), malloc'd. */
static char *token_of(const char *name, const char *csrf, long *id)
{
    char *r = curl("-b %s/%s.jar -H 'Accept: application/json' -d 'csrf=%s' %s/token", tmp, name, csrf, base);
    const char *t = strstr(r, "\"token\":\""), *i = strstr(r, "\"id\":");
    if (!t || !i)
        fail_msg("no token in: %s", r);
    char *token = strndup(t + 9, 64);
    *id = atol(i + 5);
    free(r);
    return token;
}

static long proc_kb(pid_t pid, const char *field)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    long kb = -1;
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, field, strlen(field)) == 0)
            kb = atol(line + strlen(field) + 1);
    if (f)
        fclose(f);
    return kb;
}

static void signing_up_as_an_admin_gives_nothing(void **state)
{
    (void)state;
    start_ladder("", true);
    expect(curl("-d 'name=root&password=attacker-password' %s/signup", base), "HTTP=400");
    expect(curl("-d 'name=Root&password=attacker-password' %s/signup", base), "HTTP=400");
    expect(curl("-d 'name=root&password=attacker-password' %s/login", base), "HTTP=403");
    char *eve = account("eve", "10.0.0.1");
    free(account("mallory", "10.0.0.2"));
    expect(curl("-b %s/eve.jar -d 'csrf=%s&name=mallory' %s/approve", tmp, eve, base), "HTTP=403");
    expect(curl("-b %s/eve.jar -d 'csrf=%s&name=mallory' %s/delete", tmp, eve, base), "HTTP=403");
    /* a page of another site posting with eve's cookie and even her form's token: refused before its body is read */
    expect(curl("-b %s/eve.jar -H 'Origin: http://elsewhere.example' -d 'csrf=%s' %s/token", tmp, eve, base),
           "a form posted from another site's page (Origin) is refused");
    /* one message for an unknown name and a wrong password */
    char *unknown = curl("-d 'name=nobody&password=whatever-1' %s/login", base);
    char *wrong = curl("-d 'name=eve&password=whatever-1' %s/login", base);
    assert_string_equal(unknown, wrong);
    free(unknown);
    free(wrong);
    /* sign-ups from one address are bounded */
    for (int i = 0; i < 3; i++) {
        char *r = curl("-H 'X-Forwarded-For: 10.0.0.9' -d 'name=many%d&password=many-password' %s/signup", i, base);
        free(r);
    }
    expect(curl("-H 'X-Forwarded-For: 10.0.0.9' -d 'name=many9&password=many-password' %s/signup", base),
           "too many sign-ups from your address");
    /* the root that LADDER.ini names logs in and is the admin */
    expect(curl("-d 'name=root&password=root-password' %s/login -c %s/root.jar", base, tmp), "HTTP=303");
    expect(curl("-b %s/root.jar -H 'Accept: application/json' %s/me", tmp, base), "\"accounts\"");
    /* the old `admins = NAME` is refused, naming the way to do it */
    char out[1200];
    sh_capture(out, sizeof out, "sed 's/^approval = off/admins = eve/' '%s' > '%s/old.ini' && '%s/arena' ladder work "
               "'%s/old.ini' --once 2>&1", ini, tmp, bin, tmp);
    assert_non_null(strstr(out, "[ladder] admins: no longer makes admins"));
    free(eve);
}

/* Opens n connections that each send the headers of `head` (with Content-Length 16 MiB) then up to 8 MiB of body,
 * as far as the server takes it; statuses answered at once into status[] (0: none yet). Returns the sockets. */
static void half_send(int n, const char *const *heads, int *s, int *status)
{
    static char chunk[1 << 16];
    memset(chunk, 'x', sizeof chunk);
    for (int i = 0; i < n; i++) {
        char from[32];
        snprintf(from, sizeof from, "127.0.2.%d", 1 + i);
        s[i] = serve_connect_from(port, 2, from);
        assert_true(s[i] >= 0);
        send(s[i], heads[i], strlen(heads[i]), MSG_NOSIGNAL);
        status[i] = 0;
    }
    for (size_t sent = 0; sent < (8u << 20); sent += sizeof chunk) /* round-robin, 64 KiB at a time */
        for (int i = 0; i < n; i++)
            if (s[i] >= 0 && send(s[i], chunk, sizeof chunk, MSG_NOSIGNAL | MSG_DONTWAIT) < 0 && errno != EAGAIN &&
                errno != EWOULDBLOCK) {
                char buf[64] = "";
                recv(s[i], buf, sizeof buf - 1, MSG_DONTWAIT);
                sscanf(buf, "HTTP/1.1 %d", &status[i]);
                close(s[i]);
                s[i] = -1;
            }
    for (int i = 0; i < n; i++) { /* an answer sent before the body was read, or the end of the connection */
        struct pollfd p = { s[i], POLLIN, 0 };
        char buf[64] = "";
        if (s[i] < 0 || poll(&p, 1, 1000) != 1)
            continue; /* still open, waiting for the rest of its body */
        if (recv(s[i], buf, sizeof buf - 1, MSG_DONTWAIT) > 0)
            sscanf(buf, "HTTP/1.1 %d", &status[i]);
        else
            status[i] = -1; /* closed (a reply lost to the reset of an unread body) */
    }
}

static void half_sent_bodies_keep_the_server_small(void **state)
{
    (void)state;
    start_ladder("", true);
    enum { N = 60 };
    static char head[N][600];
    const char *heads[N];
    int s[N], status[N];
    for (int i = 0; i < N; i++) {
        snprintf(head[i], sizeof head[i], "POST /ladder/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                 "application/x-www-form-urlencoded\r\nContent-Length: 16777216\r\n\r\nname=a&password=");
        heads[i] = head[i];
    }
    long before = proc_kb(server, "VmRSS");
    half_send(N, heads, s, status);
    long during = proc_kb(server, "VmRSS");
    int refused = 0;
    for (int i = 0; i < N; i++) {
        refused += status[i] == 413;
        if (s[i] >= 0)
            close(s[i]);
    }
    printf("60 half-sent 16 MiB login bodies: %d answered 413 at their headers; the server's VmRSS %ld kB before, "
           "%ld kB during\n", refused, before, during);
    assert_true(during < 300 * 1024);
    /* from accounts: five, a token each, twelve uploads each */
    char *tokens[5];
    const char *names[5] = { "alice", "bob", "carol", "dave", "erin" };
    for (int a = 0; a < 5; a++) {
        char from[32];
        long id;
        snprintf(from, sizeof from, "10.0.1.%d", a);
        char *csrf = account(names[a], from);
        tokens[a] = token_of(names[a], csrf, &id);
        free(csrf);
    }
    for (int i = 0; i < N; i++) {
        snprintf(head[i], sizeof head[i], "POST /ladder/submit HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                 "%s\r\nContent-Type: application/gzip\r\nContent-Length: 16777216\r\n\r\n", tokens[i % 5]);
        heads[i] = head[i];
    }
    half_send(N, heads, s, status);
    int taken = 0, one_each = 0, busy = 0;
    for (int i = 0; i < N; i++) {
        taken += s[i] >= 0 && status[i] == 0; /* open, no answer: its body being received */
        one_each += status[i] == 429;
        busy += status[i] == 503;
    }
    long peak = proc_kb(server, "VmHWM"), now = proc_kb(server, "VmRSS");
    printf("60 half-sent 16 MiB uploads from 5 accounts: %d being received (to disk), %d refused as a second of "
           "their account (429), %d as over the uploads at once (503); VmRSS %ld kB, peak %ld kB\n", taken, one_each,
           busy, now, peak);
    assert_true(taken >= 1 && taken <= 4);
    assert_true(peak < 300 * 1024);
    for (int i = 0; i < N; i++)
        if (s[i] >= 0)
            close(s[i]);
    /* nothing of them is left in the store (their files had no name) */
    char out[200];
    sh_capture(out, sizeof out, "ls -A '%s/bots' | wc -l", tmp);
    assert_int_equal(atoi(out), 0);
    /* an upload trickled a byte a second: closed within a minute */
    int t = serve_connect_from(port, 2, "127.0.3.1");
    char h[600];
    snprintf(h, sizeof h, "POST /ladder/submit HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %s\r\n"
             "Content-Type: application/gzip\r\nContent-Length: 100000\r\n\r\n", tokens[0]);
    sleep(1); /* alice's half-sent upload above has ended */
    send(t, h, strlen(h), MSG_NOSIGNAL);
    double t0 = clk_now();
    bool gone = false;
    while (!gone && clk_now() - t0 < 90) {
        struct pollfd p = { t, POLLIN, 0 };
        if (poll(&p, 1, 1000) == 1) {
            char c[256];
            ssize_t k = recv(t, c, sizeof c, MSG_DONTWAIT);
            gone = k == 0 || (k < 0 && errno != EAGAIN);
            if (k > 0 && strncmp(c, "HTTP/1.1 4", 10) == 0)
                fail_msg("the trickled upload was refused at its headers: %.200s", c);
        } else if (send(t, "x", 1, MSG_NOSIGNAL) != 1)
            gone = true;
    }
    double took = clk_now() - t0;
    close(t);
    printf("an upload trickled a byte a second: closed after %.1f s\n", took);
    assert_true(took < 60);
    for (int a = 0; a < 5; a++)
        free(tokens[a]);
}

static void tokens_end_when_revoked_expired_or_reset(void **state)
{
    (void)state;
    start_ladder("", true);
    char *csrf = account("alice", "10.0.0.1");
    long id1, id2, id3;
    char *t1 = token_of("alice", csrf, &id1), *t2 = token_of("alice", csrf, &id2);
    /* a token that works: its account's own (missing) submission is a 404, not a 401 */
    expect(curl("-H 'Authorization: Bearer %s' %s/log/999", t1, base), "HTTP=404");
    /* listed on the account's page */
    char want[64];
    snprintf(want, sizeof want, "Token %ld, made", id2);
    expect(curl("-b %s/alice.jar %s/me", tmp, base), want);
    /* a token cannot mint another */
    expect(curl("-H 'Authorization: Bearer %s' -H 'Accept: application/json' -X POST %s/token", t1, base),
           "HTTP=403");
    /* revoked with DELETE: refused from then on; the other still works */
    expect(curl("-H 'Authorization: Bearer %s' -X DELETE %s/token/%ld", t1, base, id1), "HTTP=200");
    expect(curl("-H 'Authorization: Bearer %s' -X POST -d x=1 %s/logout", t1, base), "HTTP=401");
    expect(curl("-H 'Authorization: Bearer %s' %s/log/999", t2, base), "HTTP=404");
    /* another account cannot revoke it */
    char *bob = account("bob", "10.0.0.2");
    expect(curl("-b %s/bob.jar -d 'csrf=%s&id=%ld' %s/revoke", tmp, bob, id2, base), "HTTP=404");
    /* expired: refused */
    char sql[200], state_db[128];
    snprintf(sql, sizeof sql, "UPDATE secrets SET expires = 1 WHERE rowid = %ld", id2);
    snprintf(state_db, sizeof state_db, "%s/state.db", tmp);
    db_exec(state_db, sql);
    expect(curl("-H 'Authorization: Bearer %s' -X POST -d x=1 %s/logout", t2, base), "HTTP=401");
    /* a password reset ends them all */
    char *t3 = token_of("alice", csrf, &id3);
    expect(curl("-H 'Authorization: Bearer %s' %s/log/999", t3, base), "HTTP=404");
    assert_int_equal(sh_run("echo 'a new password' > '%s/pw' && '%s/arena' ladder account reset-password alice '%s' "
                            "--password-file '%s/pw' >/dev/null", tmp, bin, ini, tmp), 0);
    expect(curl("-H 'Authorization: Bearer %s' -X POST -d x=1 %s/logout", t3, base), "HTTP=401");
    free(t1);
    free(t2);
    free(t3);
    free(csrf);
    free(bob);
}

/* A tar.gz of bin/PROGRAM as ./bot with a manifest, at tmp/FILE. */
static void pack(const char *program, const char *name, const char *file)
{
    char path[700], manifest[300], out[200];
    snprintf(path, sizeof path, "%s/%s", bin, program);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *exe = read_all(f);
    fseek(f, 0, SEEK_END);
    size_t n = (size_t)ftell(f);
    fclose(f);
    snprintf(manifest, sizeof manifest, "name = %s\nversion = 1\ncommand = ./bot\nvariants = classical\n"
             "boards = 3x3\n", name);
    tgz_entry e[] = { { "ladder.ini", 'f', 0644, manifest, 0, 0 }, { "bot", 'f', 0755, exe, 0, n } };
    snprintf(out, sizeof out, "%s/%s", tmp, file);
    assert_int_equal(tgz_write(out, true, e, 2, NULL, NULL), 0);
    free(exe);
}

static void an_idle_ladder_stops_playing(void **state)
{
    (void)state;
    start_ladder("rating_rounds = on\nrating_target = 200\n", false);
    const char *names[2] = { "alice", "bob" };
    for (int a = 0; a < 2; a++) {
        char from[32], file[64];
        long id;
        snprintf(from, sizeof from, "10.0.2.%d", a);
        char *csrf = account(names[a], from);
        char *token = token_of(names[a], csrf, &id);
        snprintf(file, sizeof file, "%s.tar.gz", names[a]);
        pack("random", names[a][0] == 'a' ? "rnd" : "walker", file);
        expect(curl("-H 'Authorization: Bearer %s' -H 'Content-Type: application/gzip' --data-binary @%s/%s "
                    "%s/submit", token, tmp, file, base), "\"submission\"");
        free(token);
        free(csrf);
    }
    /* placed, then rating rounds until both intervals are within 200 Elo: the worker says so once */
    double t0 = clk_now();
    char out[4000] = "";
    while (clk_now() - t0 < 600 && !strstr(out, "is within 200 Elo (rating_target): no rating round until something "
                                                "changes")) {
        nanosleep(&(struct timespec){ 0, 500000000 }, NULL);
        sh_capture(out, sizeof out, "cat '%s'", errlog);
    }
    if (!strstr(out, "is within 200 Elo"))
        fail_msg("the ladder never went idle:\n%s", out);
    long games = db_scalar(db, "SELECT count(*) FROM games"), leagues = db_scalar(db, "SELECT count(*) FROM leagues");
    sleep(6);
    long games2 = db_scalar(db, "SELECT count(*) FROM games"), leagues2 = db_scalar(db, "SELECT count(*) FROM leagues");
    printf("an idle two-bot ladder (rating_target 200): %ld games in %ld leagues when it stopped after %.0f s; "
           "%ld games and %ld leagues 6 s later\n", games, leagues, clk_now() - t0 - 6, games2, leagues2);
    assert_int_equal(games2, games);
    assert_int_equal(leagues2, leagues);
    /* the second bot's placement (the first had nobody to play), then rating rounds only while an interval is wider
     * than the target: none when the placement's games already bring both within it (they are random bots) */
    assert_true(leagues >= 1);
    assert_true(games >= 1);
}

/* The pids of `arena ladder work` processes for this test's LADDER.ini, into out; how many. */
static int workers(pid_t *out, int max)
{
    DIR *d = opendir("/proc");
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        char path[300], cmd[2048];
        if (!atoi(e->d_name))
            continue;
        snprintf(path, sizeof path, "/proc/%s/cmdline", e->d_name);
        int fd = open(path, O_RDONLY);
        ssize_t k = fd >= 0 ? read(fd, cmd, sizeof cmd - 1) : -1;
        if (fd >= 0)
            close(fd);
        if (k <= 0)
            continue;
        for (ssize_t i = 0; i < k; i++)
            cmd[i] = cmd[i] ? cmd[i] : ' ';
        cmd[k] = '\0';
        if (strstr(cmd, "ladder work") && strstr(cmd, ini) && n < max)
            out[n++] = atoi(e->d_name);
    }
    if (d)
        closedir(d);
    return n;
}

static int wait_workers(int want, double seconds, pid_t *pids)
{
    double t0 = clk_now();
    int n;
    while ((n = workers(pids, 8)) != want && clk_now() - t0 < seconds)
        nanosleep(&(struct timespec){ 0, 100000000 }, NULL);
    return n;
}

static void the_worker_ends_with_its_server(void **state)
{
    (void)state;
    start_ladder("", false);
    pid_t w[8];
    assert_int_equal(wait_workers(1, 30, w), 1);
    kill(server, SIGKILL);
    waitpid(server, NULL, 0);
    double t0 = clk_now();
    int left = wait_workers(0, 30, w);
    printf("SIGKILL of arena serve --ladder: its worker gone after %.1f s\n", clk_now() - t0);
    assert_int_equal(left, 0);
    /* a restart runs one worker; another started by hand waits for it, never beside it */
    const char *args[] = { "--ladder", ini, NULL };
    server = serve_start(bin, db, args, errlog, &port);
    assert_true(server > 0);
    assert_int_equal(wait_workers(1, 30, w), 1);
    char cmd[900], second_err[200];
    snprintf(second_err, sizeof second_err, "%s/second.err", tmp);
    snprintf(cmd, sizeof cmd, "'%s/arena' ladder work '%s' 2>'%s' >/dev/null & echo $!", bin, ini, second_err);
    char *pid_text = sh_output(cmd);
    pid_t second = atoi(pid_text);
    free(pid_text);
    char out[600] = "";
    for (int i = 0; i < 100 && !strstr(out, "waiting"); i++) {
        nanosleep(&(struct timespec){ 0, 100000000 }, NULL);
        sh_capture(out, sizeof out, "cat '%s'", second_err);
    }
    char want[80];
    snprintf(want, sizeof want, "waiting for the ladder's other worker (pid %d)", (int)w[0]);
    if (!strstr(out, want))
        fail_msg("the second worker said: %s", out);
    char state_db[128];
    snprintf(state_db, sizeof state_db, "%s/state.db", tmp);
    assert_true(db_scalar(state_db, "SELECT count(*) FROM jobs WHERE state = 'running'") <= 1);
    kill(second, SIGTERM);
    assert_int_equal(serve_stop(server), 0);
    server = 0;
    assert_int_equal(wait_workers(0, 30, w), 0);
}

static void limits_are_answered_as_documented(void **state)
{
    (void)state;
    start_ladder("[archive]\nmax_bytes = 4096\n", true);
    char *csrf = account("alice", "10.0.0.1");
    long id;
    char *token = token_of("alice", csrf, &id);
    assert_int_equal(sh_run("head -c 4097 /dev/zero > '%s/4097' && head -c 4096 /dev/zero > '%s/4096' && "
                            "head -c 5000 /dev/zero > '%s/5000' && head -c 9000 /dev/zero > '%s/9000'", tmp, tmp, tmp,
                            tmp), 0);
    /* the API's body is the archive: 413 one byte above max_bytes, at its headers; at max_bytes it is read (400) */
    expect(curl("-H 'Authorization: Bearer %s' -H 'Content-Type: application/gzip' --data-binary @%s/4097 %s/submit",
                token, tmp, base), "HTTP=413");
    expect(curl("-H 'Authorization: Bearer %s' -H 'Content-Type: application/gzip' --data-binary @%s/4096 %s/submit",
                token, tmp, base), "HTTP=400");
    /* the form's archive field over max_bytes: 413 naming the setting */
    expect(curl("-b %s/alice.jar -F csrf=%s -F archive=@%s/5000 %s/submit", tmp, csrf, tmp, base),
           "over the ladder's [archive] max_bytes (4096)\n HTTP=413");
    /* a login body over 8 KiB: 413 at its headers */
    expect(curl("--data-binary @%s/9000 %s/login", tmp, base), "HTTP=413");
    /* an archive giving a path twice: 400 naming the entry (before anything is unpacked) */
    char bad[200];
    snprintf(bad, sizeof bad, "%s/twice.tar.gz", tmp);
    tgz_entry e[] = { { "ladder.ini", 'f', 0644, "name = t\nversion = 1\ncommand = ./bot\nvariants = classical\n"
                                                 "boards = 3x3\n", 0, 0 },
                      { "bot", 'f', 0755, "#!/bin/sh\n", 0, 0 }, { "bot", 'f', 0755, "#!/bin/sh\nx\n", 0, 0 } };
    assert_int_equal(tgz_write(bad, true, e, 3, NULL, NULL), 0);
    expect(curl("-H 'Authorization: Bearer %s' -H 'Content-Type: application/gzip' --data-binary @%s %s/submit", token,
                bad, base), "entry 3 'bot': a path the archive gives twice");
    /* a GET with a body, and a DELETE of what is not a token: a status line each */
    expect(curl("-X GET --data-binary @%s/4096 %s", tmp, base), "HTTP=400");
    expect(curl("-H 'Authorization: Bearer %s' -X DELETE %s/bot/t", token, base), "HTTP=404");
    free(token);
    free(csrf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(signing_up_as_an_admin_gives_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(half_sent_bodies_keep_the_server_small, setup, teardown),
        cmocka_unit_test_setup_teardown(tokens_end_when_revoked_expired_or_reset, setup, teardown),
        cmocka_unit_test_setup_teardown(an_idle_ladder_stops_playing, setup, teardown),
        cmocka_unit_test_setup_teardown(the_worker_ends_with_its_server, setup, teardown),
        cmocka_unit_test_setup_teardown(limits_are_answered_as_documented, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
