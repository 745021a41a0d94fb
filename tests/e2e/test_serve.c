/* tests/e2e/test_serve.c — `arena serve` over a small league's database (tests/serve_kit.h): every page in HTML
 * and in JSON (by suffix and by Accept header; strict JSON), HEAD, the errors (404 for what does not exist, 400
 * with one line for a bad id or parameter, 405 for another method), agents' logs by name, names with markup
 * shown as text; the database left as it was (its file's
 * bytes, and a write through the server's kind of connection refused); bad input (malformed request lines and
 * paths, a huge header, too many parameters) and 200 slow clients at once: no crash, other clients still
 * served, the resident memory the same after three rounds of them as after one, and the limit of connections
 * from one address (--per-ip); the live feed showing a league
 * started after the client subscribed, its game count rising; a league whose coordinator was killed (SIGKILL)
 * shown stopped, not running; and in headless Chromium (tests/browser.h): the
 * summary page on a desktop and a phone (a screenshot that is not blank, every section in the DOM, no
 * horizontal scrolling on the phone) and the count of a league started after the page was opened rising
 * without a reload (the page drew no live table: nothing ran). The pairing page's headline (who leads, by how
 * much, how sure) against the database's counts; logs named with markup, quotes, spaces, '?', '#' and '%'
 * served by their percent-encoded names, the links the pages give to a crashing agent's logs answered, and the
 * games of a league naming the agent that forfeited. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "browser.h"
#include "serve_kit.h"
#include "store.h"
#include "test_sys.h"
#include "test_util.h"

static char tmp[64], bin[512], agents[512], db[128], logs[128], errlog[128];
static pid_t server;
static int port;

static int setup(void **state)
{
    (void)state;
    if (e2e_dirs(tmp, "arena-serve-test", bin) != 0)
        return -1;
    const char *a = getenv("ARENA_TEST_AGENTS"); /* the test bots (a crashing one) */
    char cwd[256];
    if (!getcwd(cwd, sizeof cwd))
        return -1;
    if (a && a[0] == '/')
        snprintf(agents, sizeof agents, "%s", a);
    else
        snprintf(agents, sizeof agents, "%.250s/%.250s", cwd, a ? a : "build/release/tests/agents");
    snprintf(db, sizeof db, "%s/s.db", tmp);
    snprintf(logs, sizeof logs, "%s/logs", tmp);
    snprintf(errlog, sizeof errlog, "%s/serve.err", tmp);
    char cfg[128];
    snprintf(cfg, sizeof cfg, "%s/s.ini", tmp);
    if (serve_league_config(cfg, bin, "small", 4, "3x3") != 0 ||
        sh_run("'%s/arena' league '%s' --db '%s' --quiet --logs '%s' --date 2026-11-20 >/dev/null", bin, cfg, db,
               logs) != 0 ||
        sh_run("'%s/arena' league '%s' --db '%s' --quiet --logs '%s' --new --date 2026-11-21 >/dev/null", bin, cfg,
               db, logs) != 0)
        return -1;
    const char *extra[] = { "--logs", logs, "--stream-s", "3", "--bootstrap", "20", NULL };
    /* under AddressSanitizer (make SAN=1), freed memory waits in a quarantine of up to 256 MB before it is
     * reused, which would read as growth: the server's memory is measured without it (no effect otherwise) */
    setenv("ASAN_OPTIONS", "quarantine_size_mb=0:thread_local_quarantine_size_kb=0", 0);
    server = serve_start(bin, db, extra, errlog, &port);
    return server > 0 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return serve_teardown(server, tmp);
}

/* The reply must have this status; its body is shown when not. */
static void expect_status(const serve_reply *r, int status, const char *what)
{
    if (r->status != status)
        fail_msg("%s: status %d, expected %d:\n%.600s", what, r->status, status, r->head ? r->head : "(no answer)");
}

static void expect_in(const char *what, const char *text, const char *part)
{
    if (!strstr(text, part))
        fail_msg("%s lacks '%s':\n%.2000s", what, part, text);
}

/* ---- pages ---- */

static const struct {
    const char *path, *html, *json; /* what the HTML and the JSON must hold */
} pages[] = {
    { "/", "<section id=\"live\">", "\"leagues\"" },
    { "/league/1", "<section id=\"games\">", "\"league\":1" },
    { "/league/2", "<a href=\"/game/", "\"league\":2" },
    { "/agent/1", "<section id=\"opponents\">", "\"opponents\"" },
    { "/agent/2", "<a href=\"/pairing/2/1\">", "\"history\"" },
    { "/pairing/1/2", "<section id=\"pentanomial\">", "\"pentanomial\"" },
    { "/game/1", "data-board=\"truth\"", "\"frames\"" },
    { "/game/3?ply=2", "data-board=\"white\"", "\"frames\"" },
};

static void every_page_in_html_and_json(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof pages / sizeof pages[0]; i++) {
        serve_reply r = serve_get(port, pages[i].path);
        expect_status(&r, 200, pages[i].path);
        expect_in(pages[i].path, r.type, "text/html");
        expect_in(pages[i].path, r.body, "<!DOCTYPE html>");
        expect_in(pages[i].path, r.body, pages[i].html);
        serve_reply_free(&r);
        /* JSON: by the Accept header, and by the .json suffix (before the query) */
        char path[256];
        const char *q = strchr(pages[i].path, '?');
        int n = q ? (int)(q - pages[i].path) : (int)strlen(pages[i].path);
        snprintf(path, sizeof path, "%.*s%s%s", n, pages[i].path, n == 1 ? "index.json" : ".json", q ? q : "");
        for (int how = 0; how < 2; how++) {
            r = how ? serve_request(port, "GET", path, NULL)
                    : serve_request(port, "GET", pages[i].path, "application/json, text/plain;q=0.5");
            expect_status(&r, 200, how ? path : pages[i].path);
            expect_in(path, r.type, "application/json");
            expect_in(path, r.body, pages[i].json);
            strict_json(path, r.body);
            serve_reply_free(&r);
        }
    }
    /* the summary is the newest night's page, with the live feed's script; arena report's page has no script */
    serve_reply r = serve_get(port, "/");
    expect_in("/", r.body, "2026-11-21");
    expect_in("/", r.body, "new EventSource('/events')");
    expect_in("/", r.body, "<section id=\"warnings\">");
    expect_in("/", r.body, "<section id=\"leagues\">");
    /* no league running: the live section is an empty place (the script draws a league that starts later) */
    const char *live = strstr(r.body, "<section id=\"live\">");
    assert_non_null(live);
    live += strlen("<section id=\"live\">");
    if (strncmp(live + strspn(live, " \n"), "</section>", 10) != 0)
        fail_msg("the live section is not empty with no league running:\n%.600s", live);
    const char *script = strstr(r.body, "<script");
    assert_non_null(script);
    char *page = strndup(r.body, (size_t)(script - r.body)); /* the page without its script */
    assert_null(strstr(page, "Running now"));
    assert_null(strstr(page, "running leagues"));
    free(page);
    serve_reply_free(&r);
    assert_int_equal(sh_run("'%s/arena' report --db '%s' --out '%s/report' --bootstrap 20 >/dev/null", bin, db, tmp), 0);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "grep -c '<script' '%s/report/report.html' || true", tmp);
    char *count = sh_output(cmd);
    assert_int_equal(atoi(count), 0);
    free(count);
    /* HEAD: the headers only */
    r = serve_request(port, "HEAD", "/league/1", NULL);
    expect_status(&r, 200, "HEAD /league/1");
    assert_int_equal(r.body_len, 0);
    serve_reply_free(&r);
}

/* The pairing page opens with who leads, by how much and how sure: its facts (leader, elo_diff, elo_lo, elo_hi,
 * los) agree with its headline, with the wins counted in the database and with the Elo of that score (every game
 * of the setup's leagues is in a complete pair); the same from the other side; every name and game linked; no
 * empty section. */
static void the_pairing_page_says_who_leads(void **state)
{
    (void)state;
    long games = db_scalar(db, "SELECT count(*) FROM games WHERE (black = 1 AND white = 2) OR (black = 2 AND white = 1)");
    long wins1 = db_scalar(db, "SELECT count(*) FROM games WHERE (black = 1 AND white = 2 AND winner = 'B') OR "
                               "(black = 2 AND white = 1 AND winner = 'W')");
    assert_true(games > 0);
    serve_reply j = serve_get(port, "/pairing/1/2.json"), h = serve_get(port, "/pairing/1/2");
    expect_status(&j, 200, "/pairing/1/2.json");
    expect_status(&h, 200, "/pairing/1/2");
    strict_json("/pairing/1/2.json", j.body);
    const char *leader = strstr(j.body, "\"leader\":");
    assert_non_null(leader);
    long lead = strncmp(leader + 9, "null", 4) == 0 ? 0 : atol(leader + 9);
    double diff = json_number(j.body, "elo_diff"), lo = json_number(j.body, "elo_lo"),
           hi = json_number(j.body, "elo_hi"), los = json_number(j.body, "los"), pairs = json_number(j.body, "pairs");
    assert_true(lead == 0 || lead == 1 || lead == 2);
    assert_true(los >= 0 && los <= 1);
    /* the Elo of the leader's score, every game being in a complete pair (unbounded when it won them all) */
    assert_int_equal((long)pairs * 2, games);
    long wins = lead == 2 ? games - wins1 : wins1;
    bool unbounded = strstr(j.body, "\"elo_diff\":null") != NULL;
    double x = (double)wins / (double)games, elo = -400 * log10(1 / x - 1);
    if (unbounded ? wins != games : fabs(diff - elo) > 0.051)
        fail_msg("elo_diff %.1f (%s), but %ld wins in %ld games make %.2f Elo", diff, unbounded ? "null" : "a number",
                 wins, games, elo);
    assert_true(lo <= diff || unbounded);
    assert_true(diff <= hi || strstr(j.body, "\"elo_hi\":null"));
    if (lead ? !(los > 0.5 && (unbounded || diff >= 0.45)) : fabs(diff) >= 0.55)
        fail_msg("leader %ld with %.1f Elo and LOS %.4f", lead, diff, los);
    /* the headline */
    char text[200];
    const char *p = strstr(h.body, "</h1>\n<p>");
    assert_non_null(p);
    snprintf(text, sizeof text, "<p><a href=\"/agent/%ld\">", lead ? lead : 1);
    expect_in("the headline", p, text);
    expect_in("the headline", p, lead ? "</a> leads <a href=\"/agent/" : "</a> and <a href=\"/agent/");
    snprintf(text, sizeof text, "over %ld games (%ld-%ld).</p>", games, wins, games - wins);
    expect_in("the headline", p, text);
    const char *by = strstr(p, unbounded ? ": every game pair won" : lead ? " by " : " are level: ");
    assert_non_null(by);
    if (!unbounded && fabs(strtod(by + (lead ? 4 : 12), NULL) - diff) > 0.51)
        fail_msg("the headline's Elo is not %.1f: %.300s", diff, p);
    expect_in("the headline", p, "(95% interval ");
    expect_in("the headline", p, "LOS ");
    /* every game and name linked, no empty section */
    p = strstr(h.body, "<section id=\"games\">");
    assert_non_null(p);
    int rows = 0;
    for (const char *q = p; (q = strstr(q, "<tr><td class=\"num\"><a href=\"/game/")) != NULL; q++)
        rows++;
    assert_int_equal(rows, games < 50 ? games : 50);
    assert_null(strstr(h.body, "No games."));
    assert_null(strstr(h.body, "No complete game pair"));
    /* from the other side: the same leader and difference */
    serve_reply k = serve_get(port, "/pairing/2/1.json");
    const char *other = strstr(k.body, "\"leader\":");
    assert_non_null(other);
    assert_int_equal(strncmp(other + 9, "null", 4) == 0 ? 0 : atol(other + 9), lead);
    if (lead && !unbounded)
        assert_true(fabs(json_number(k.body, "elo_diff") - diff) < 0.051);
    printf("pairing 1-2: %s, %.1f Elo [%.1f, %.1f], LOS %.4f, %ld games\n", lead ? "a leader" : "level", diff, lo, hi,
           los, games);
    serve_reply_free(&j);
    serve_reply_free(&h);
    serve_reply_free(&k);
}

static void errors_are_one_line_with_their_status(void **state)
{
    (void)state;
    static const struct {
        const char *path;
        int status;
        const char *says;
    } bad[] = {
        { "/league/999", 404, "no league 999" },
        { "/agent/999", 404, "no agent 999" },
        { "/game/999", 404, "no game 999" },
        { "/pairing/1/999", 404, "no agent 999" },
        { "/nope", 404, "no such page" },
        { "/league/1/2", 404, "no such page" },
        { "/logs/league-none.log", 404, "no such log" },
        { "/logs/league-%3Cscript%3E.log", 404, "no such log: league-?script?.log" },
        { "/logs/..%2fs.db", 400, "bad log name" },
        { "/league/logs/league-x%2F..%2Fs.db", 400, "bad log name" },
        { "/logs/league-a%01b.log", 400, "bad log name" },
        { "/logs/league-a%00b.log", 400, "bad log name" },
        { "/logs/", 400, "bad log name" },
        { "/league/abc", 400, "league id 'abc'" },
        { "/league/0", 400, "league id '0'" },
        { "/league/-1", 400, "league id '-1'" },
        { "/league/12345678901234567890", 400, "league id" },
        { "/pairing/1/1", 400, "two agents" },
        { "/game/1?ply=x", 400, "ply 'x'" },
        { "/game/1?ply=-1", 400, "ply '-1'" },
        { "/game/1?ply=100001", 400, "ply '100001'" },
        { "/game/1?size=2", 400, "unknown query parameter 'size'" },
        { "/?a=1", 400, "unknown query parameter 'a'" },
        { "/league/1?<script>=1", 400, "unknown query parameter" },
        { "/../../etc/passwd", 400, "bad path" },
        { "/league/%2e%2e", 400, "bad path" },
        { "/league/1%00", 400, "bad path" },
        { "/league//1", 400, "bad path" },
        { "/agent/1/", 404, "no such page" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        serve_reply r = serve_get(port, bad[i].path);
        expect_status(&r, bad[i].status, bad[i].path);
        expect_in(bad[i].path, r.body, bad[i].says);
        assert_non_null(strchr(r.body, '\n'));
        assert_int_equal(strchr(r.body, '\n') - r.body + 1, (long)r.body_len); /* one line */
        assert_null(strstr(r.body, "<script>"));                                  /* nothing echoed as markup */
        serve_reply_free(&r);
        /* as JSON: {"error": "..."} */
        r = serve_request(port, "GET", bad[i].path, "application/json");
        expect_status(&r, bad[i].status, bad[i].path);
        expect_in(bad[i].path, r.body, "{\"error\":");
        strict_json(bad[i].path, r.body);
        serve_reply_free(&r);
    }
    serve_reply r = serve_request(port, "POST", "/", NULL);
    expect_status(&r, 405, "POST /");
    expect_in("POST /", r.head, "Allow: GET, HEAD");
    serve_reply_free(&r);
    r = serve_request(port, "DELETE", "/league/1", NULL);
    expect_status(&r, 405, "DELETE /league/1");
    serve_reply_free(&r);
}

/* An agent's log, by its name in --logs (as the nightly page and the agent page link it), its end only. */
static void logs_are_served_by_name(void **state)
{
    (void)state;
    char path[256];
    snprintf(path, sizeof path, "%s/league-small-random-99.log", logs);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    for (int i = 0; i < 40000; i++) /* 400 kB: the last 256 KiB are sent */
        fprintf(f, "line %05d\n", i);
    fclose(f);
    static const char *const at[] = { "/logs/league-small-random-99.log", "/league/logs/league-small-random-99.log" };
    for (int i = 0; i < 2; i++) {
        serve_reply r = serve_get(port, at[i]);
        expect_status(&r, 200, at[i]);
        expect_in(at[i], r.type, "text/plain");
        expect_in(at[i], r.body, "line 39999\n");
        expect_in(at[i], r.body, "bytes left out");
        assert_null(strstr(r.body, "line 00000"));
        serve_reply_free(&r);
    }
    serve_reply r = serve_get(port, "/logs/s.db");
    expect_status(&r, 404, "/logs/s.db");
    serve_reply_free(&r);
    /* a name of any bytes but '/' and control bytes, percent-encoded in the request */
    snprintf(path, sizeof path, "%s/league-h<b>l&\"x y?#%%41-random-1.log", logs);
    f = fopen(path, "w");
    assert_non_null(f);
    fputs("a log of an odd name\n", f);
    fclose(f);
    static const char *const odd[] = { "/logs/league-h%3Cb%3El%26%22x%20y%3F%23%2541-random-1.log",
                                       "/league/logs/league-h%3cb%3el%26%22x%20y%3f%23%2541-random-1.log" };
    for (int i = 0; i < 2; i++) {
        r = serve_get(port, odd[i]);
        expect_status(&r, 200, odd[i]);
        expect_in(odd[i], r.body, "a log of an odd name\n");
        serve_reply_free(&r);
    }
    /* a symbolic link of a log's name is not followed */
    snprintf(path, sizeof path, "%s/league-link-random-1.log", logs);
    assert_int_equal(symlink(db, path), 0);
    r = serve_get(port, "/logs/league-link-random-1.log");
    expect_status(&r, 404, "a symbolic link");
    expect_in("a symbolic link", r.body, "no such log");
    serve_reply_free(&r);
}

/* The first link to a log (href="logs/...") in a page, as a path relative to `base` ("/" or "/league/"): malloc'd. */
static char *log_link(const char *page, const char *base)
{
    const char *p = strstr(page, "href=\"logs/");
    if (!p)
        fail_msg("no link to a log in:\n%.3000s", page);
    p += 6;
    size_t n = strcspn(p, "\"");
    char *path = malloc(strlen(base) + n + 1);
    assert_non_null(path);
    sprintf(path, "%s%.*s", base, (int)n, p);
    return path;
}

/* A league and an agent named with markup, quotes, ampersands and what URLs mean ('?', '#', '%'; a league's name
 * has no spaces): every page shows them as text (escaped in HTML, exact in strict JSON), never as markup; the
 * agent, which crashes in every game, is named as the one that forfeited in the league's games, and the links to
 * its logs answer with the logs. */
static void hostile_names_are_text(void **state)
{
    (void)state;
    char cfg[128], hdb[128];
    snprintf(cfg, sizeof cfg, "%s/hostile.ini", tmp);
    snprintf(hdb, sizeof hdb, "%s/hostile.db", tmp);
    FILE *f = fopen(cfg, "w");
    assert_non_null(f);
    fprintf(f, "[league]\nname = h<b>l&\"x?y#%%20\nvariants = classical\nboards = 3x3\ngames = 2\n\n[agent evil]\n"
               "name = <img_src=x_onerror=alert(1)>&\"'\ncommand = %s/misbehave\nargs = --mode exit\n\n"
               "[agent good]\ncommand = %s/random\nargs = --seed 4\n",
            agents, bin);
    fclose(f);
    assert_int_equal(sh_run("'%s/arena' league '%s' --db '%s' --quiet --logs '%s' >/dev/null", bin, cfg, hdb, logs), 0);
    int p2;
    const char *extra[] = { "--logs", logs, NULL };
    pid_t other = serve_start(bin, hdb, extra, errlog, &p2);
    assert_true(other > 0);
    static const char *const at[] = { "/", "/league/1", "/agent/1", "/agent/2", "/pairing/1/2", "/game/1" };
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
        serve_reply r = serve_request(p2, "GET", at[i], NULL);
        expect_status(&r, 200, at[i]);
        if (strstr(r.body, "<img_src") || strstr(r.body, "<b>l"))
            fail_msg("%s shows a name as markup:\n%.3000s", at[i], r.body);
        serve_reply_free(&r);
        r = serve_request(p2, "GET", at[i], "application/json");
        expect_status(&r, 200, at[i]);
        strict_json(at[i], r.body);
        serve_reply_free(&r);
    }
    serve_reply r = serve_request(p2, "GET", "/agent/1.json", NULL); /* which of agents 1 and 2 is the evil one */
    int evil = strstr(r.body, "\"name\":\"good\"") ? 2 : 1;
    serve_reply_free(&r);
    char page[32];
    snprintf(page, sizeof page, "/agent/%d", evil);
    r = serve_request(p2, "GET", page, NULL);
    expect_in(page, r.body, "&lt;img_src=x_onerror=alert(1)&gt;&amp;&quot;'");
    serve_reply_free(&r);
    snprintf(page, sizeof page, "/agent/%d.json", evil);
    r = serve_request(p2, "GET", page, NULL);
    expect_in(page, r.body, "\"name\":\"<img_src=x_onerror=alert(1)>&\\\"'\"");
    serve_reply_free(&r);
    /* the league's games name the agent that forfeited; the links to its logs (on the league page and the summary,
     * relative to each) answer with them */
    r = serve_request(p2, "GET", "/league/1", NULL);
    expect_in("/league/1", r.body, " (&lt;img_src=x_onerror=alert(1)&gt;&amp;&quot;') forfeited: crash: exited with "
                                   "status 7</td>");
    char *links[2] = { log_link(r.body, "/league/"), NULL };
    serve_reply_free(&r);
    r = serve_request(p2, "GET", "/", NULL);
    links[1] = log_link(r.body, "/");
    serve_reply_free(&r);
    for (int i = 0; i < 2; i++) {
        r = serve_request(p2, "GET", links[i], NULL);
        expect_status(&r, 200, links[i]);
        expect_in(links[i], r.type, "text/plain");
        expect_in(links[i], r.body, ": forfeit (crash): exited with status 7");
        serve_reply_free(&r);
        free(links[i]);
    }
    assert_int_equal(serve_stop(other), 0);
}

/* ---- read-only ---- */

static char *file_hash(const char *path)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "sha256sum < '%s'", path);
    return sh_output(cmd);
}

static void the_database_is_left_as_it_was(void **state)
{
    (void)state;
    char *before = file_hash(db);
    struct stat a, b;
    assert_int_equal(stat(db, &a), 0);
    for (int round = 0; round < 3; round++)
        for (size_t i = 0; i < sizeof pages / sizeof pages[0]; i++) {
            serve_reply r = serve_get(port, pages[i].path);
            expect_status(&r, 200, pages[i].path);
            serve_reply_free(&r);
        }
    char *after = file_hash(db);
    assert_string_equal(before, after);
    assert_int_equal(stat(db, &b), 0);
    assert_int_equal(a.st_mtime, b.st_mtime);
    free(before);
    free(after);
    /* the server's connection (store_open_readonly) cannot write, whatever it runs */
    char err[600];
    store_db *s = store_open_readonly(db, err, sizeof err);
    assert_non_null(s);
    assert_int_equal(store_run_begin(s, "match", "a write"), -1);
    expect_in("store_error", store_error(s), "readonly");
    store_close(s);
    long runs = db_scalar(db, "SELECT count(*) FROM runs WHERE description = 'a write'");
    assert_int_equal(runs, 0);
    /* and it refuses what it cannot read as this arena's database, instead of changing it */
    char other[128];
    snprintf(other, sizeof other, "%s/other.db", tmp);
    assert_int_equal(sh_run("sqlite3 '%s' 'CREATE TABLE notes (x); PRAGMA user_version = 3;' 2>/dev/null || "
                            "python3 -c \"import sqlite3; c = sqlite3.connect('%s'); "
                            "c.execute('CREATE TABLE notes (x)'); c.execute('PRAGMA user_version = 3'); c.commit()\"",
                            other, other),
                     0);
    char *h = file_hash(other);
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "'%s/arena' serve --db '%s' --listen 127.0.0.1:0 2>&1; echo status $?", bin, other);
    char *out = sh_output(cmd);
    expect_in("arena serve on another database", out, "not an arena database");
    expect_in("arena serve on another database", out, "status 2");
    char *h2 = file_hash(other);
    assert_string_equal(h, h2);
    free(h);
    free(h2);
    free(out);
    /* nor does it create a database that is not there */
    snprintf(cmd, sizeof cmd, "'%s/arena' serve --db '%s/none.db' --listen 127.0.0.1:0 2>&1; echo status $?", bin, tmp);
    out = sh_output(cmd);
    expect_in("arena serve on no database", out, "none.db: cannot open for reading");
    expect_in("arena serve on no database", out, "status 2");
    free(out);
    snprintf(other, sizeof other, "%s/none.db", tmp);
    assert_int_equal(access(other, F_OK), -1);
}

/* ---- bad input and slow clients ---- */

static void alive_and_serving(const char *after)
{
    if (kill(server, 0) != 0)
        fail_msg("the server died after %s", after);
    serve_reply r = serve_get(port, "/league/1");
    if (r.status != 200)
        fail_msg("after %s, /league/1 answers %d", after, r.status);
    serve_reply_free(&r);
}

static void malformed_requests_do_not_harm_it(void **state)
{
    (void)state;
    static const char *const raw[] = {
        "GARBAGE\r\n\r\n",
        "GET\r\n\r\n",
        "GET / HTTP/9.9\r\n\r\n",
        "GET league HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET /game/1?ply=1&ply=2&ply=3&ply=4&ply=5&ply=6&ply=7&ply=8&ply=9 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        "GET /game/1?ply HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        "GET /game/%zz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        "GET /agent/\xc3\xa9\xff HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello",
        "GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\n",
        "\r\n\r\n\r\n",
    };
    for (size_t i = 0; i < sizeof raw / sizeof raw[0]; i++) {
        char *out = serve_exchange(port, raw[i], strlen(raw[i]), NULL);
        assert_non_null(out);
        if (out[0] && strncmp(out, "HTTP/1.", 7) == 0) {
            int status = 0;
            sscanf(out, "HTTP/1.%*d %d", &status);
            if (status == 200)
                fail_msg("request %zu answered 200:\n%.400s", i, out);
        }
        free(out);
        alive_and_serving(raw[i]);
    }
    /* a path of 10 kB and a header of 1 MB: refused, nothing else */
    size_t big = 1 << 20;
    char *req = malloc(big + 256);
    int n = snprintf(req, 256, "GET /");
    memset(req + n, 'a', 10000);
    n += 10000;
    n += snprintf(req + n, 256, " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    char *out = serve_exchange(port, req, (size_t)n, NULL);
    assert_non_null(out);
    assert_true(out[0] == '\0' || strncmp(out, "HTTP/1.1 4", 10) == 0);
    free(out);
    alive_and_serving("a 10 kB path");
    n = snprintf(req, 256, "GET / HTTP/1.1\r\nHost: x\r\nX-Big: ");
    memset(req + n, 'b', big);
    n += (int)big;
    n += snprintf(req + n, 256, "\r\nConnection: close\r\n\r\n");
    out = serve_exchange(port, req, (size_t)n, NULL);
    assert_non_null(out);
    assert_true(out[0] == '\0' || strncmp(out, "HTTP/1.1 4", 10) == 0);
    free(out);
    free(req);
    alive_and_serving("a 1 MB header");
}

/* 200 clients, 50 from each of four addresses (within the server's 64 per address), that send half a request and
 * wait: each holds a connection until the server's deadline for headers or until they close; meanwhile another
 * client is served. */
static void one_round_of_slow_clients(void)
{
    enum { SLOW = 200 };
    int s[SLOW], open_ = 0;
    for (int i = 0; i < SLOW; i++) {
        char from[32];
        snprintf(from, sizeof from, "127.0.0.%d", 2 + i % 4);
        s[i] = serve_connect_from(port, 30, from);
        if (s[i] >= 0) {
            open_++;
            send(s[i], "GET /league/1 HTTP/1.1\r\nHost: slow\r\nX-Slow: ", 44, MSG_NOSIGNAL);
        }
    }
    assert_int_equal(open_, SLOW);
    serve_reply r = serve_get(port, "/league/1");
    expect_status(&r, 200, "/league/1 with 200 slow clients");
    serve_reply_free(&r);
    r = serve_get(port, "/game/1.json");
    expect_status(&r, 200, "/game/1.json with 200 slow clients");
    serve_reply_free(&r);
    for (int i = 0; i < SLOW; i++)
        if (s[i] >= 0)
            close(s[i]);
}

static void slow_clients_do_not_stall_others(void **state)
{
    (void)state;
    one_round_of_slow_clients();
    /* the threads of the closed connections end: wait until a request goes through, then measure */
    alive_and_serving("a round of slow clients");
    long first = serve_rss_kb(server);
    for (int round = 0; round < 3; round++) {
        one_round_of_slow_clients();
        alive_and_serving("a round of slow clients");
    }
    long last = serve_rss_kb(server);
    assert_true(first > 0 && last > 0);
    printf("arena serve: VmRSS %ld kB after one round of 200 slow clients, %ld kB after three more\n", first, last);
    if (last > first + 16 * 1024)
        fail_msg("the server's memory grew with the slow clients: %ld kB, then %ld kB", first, last);
}

/* A server with --per-ip 3: a fourth connection from this address is closed unanswered while three are open;
 * once they close, requests are served again. */
static void connections_per_address_are_limited(void **state)
{
    (void)state;
    int p2;
    const char *extra[] = { "--per-ip", "3", NULL };
    pid_t other = serve_start(bin, db, extra, errlog, &p2);
    assert_true(other > 0);
    int s[3];
    for (int i = 0; i < 3; i++) {
        s[i] = serve_connect(p2, 30);
        assert_true(s[i] >= 0);
        send(s[i], "GET / HTTP/1.1\r\n", 16, MSG_NOSIGNAL);
    }
    serve_reply r = serve_get(p2, "/league/1");
    assert_int_equal(r.status, 0); /* closed without an answer */
    serve_reply_free(&r);
    for (int i = 0; i < 3; i++)
        close(s[i]);
    struct timespec tick = { 0, 100 * 1000 * 1000 };
    for (int i = 0; i < 300 && r.status != 200; i++) {
        nanosleep(&tick, NULL);
        r = serve_get(p2, "/league/1");
        if (r.status != 200)
            serve_reply_free(&r);
    }
    expect_status(&r, 200, "/league/1 once the three closed");
    serve_reply_free(&r);
    assert_int_equal(serve_stop(other), 0);
}

/* ---- live ---- */

/* The played count of league `id` in the newest event of the feed text, -1 when none names it. */
static long played_of(const char *feed, long id)
{
    char key[64];
    snprintf(key, sizeof key, "{\"id\":%ld,", id);
    long played = -1;
    for (const char *p = feed; (p = strstr(p, key)) != NULL; p++) {
        const char *q = strstr(p, "\"played\":");
        if (q)
            played = atol(q + 9);
    }
    return played;
}

static void the_live_feed_shows_a_league_started_later(void **state)
{
    (void)state;
    int s = serve_connect(port, 60);
    assert_true(s >= 0);
    const char *req = "GET /events HTTP/1.0\r\nHost: x\r\n\r\n";
    assert_int_equal(send(s, req, strlen(req), MSG_NOSIGNAL), (ssize_t)strlen(req));
    size_t cap = 1 << 20, got = 0;
    char *feed = calloc(1, cap);
    /* the first event, before the league exists */
    while (!strstr(feed, "data: ") && got < cap - 1) {
        ssize_t k = recv(s, feed + got, cap - 1 - got, 0);
        assert_true(k > 0);
        got += (size_t)k;
    }
    expect_in("/events", feed, "text/event-stream");
    expect_in("/events", feed, "data: {\"leagues\":[");
    char cfg[128];
    snprintf(cfg, sizeof cfg, "%s/live.ini", tmp);
    assert_int_equal(serve_league_config(cfg, bin, "live", 4000, "7x7"), 0);
    char *const argv[] = { "arena", "league", cfg, "--db", db, "--logs", logs, "--quiet", NULL };
    pid_t league = start_arena(argv);
    long id = db_scalar(db, "SELECT max(id) FROM leagues") + 1, first = -1, later = -1;
    /* events until the new league shows a count, then a higher one (the feed ends every 3 s: resubscribe) */
    for (int tries = 0; later <= first && tries < 200;) {
        ssize_t k = recv(s, feed + got, cap - 1 - got, 0);
        if (k <= 0) { /* the stream's end: subscribe again */
            close(s);
            s = serve_connect(port, 60);
            assert_true(s >= 0);
            assert_int_equal(send(s, req, strlen(req), MSG_NOSIGNAL), (ssize_t)strlen(req));
            got = 0;
            feed[0] = '\0';
            tries++;
            continue;
        }
        got += (size_t)k;
        feed[got] = '\0';
        long p = played_of(feed, id);
        if (p > 0 && first < 0)
            first = p;
        else if (p > first && first > 0)
            later = p;
        if (got > cap / 2) { /* keep the tail */
            memmove(feed, feed + got / 2, got - got / 2 + 1);
            got -= got / 2;
        }
    }
    close(s);
    free(feed);
    kill(league, SIGTERM);
    int st;
    assert_int_equal(waitpid(league, &st, 0), league);
    if (!(first > 0 && later > first))
        fail_msg("the feed did not show league %ld's count rising (first %ld, later %ld)", id, first, later);
    printf("live feed: league %ld at %ld games, then %ld\n", id, first, later);
}

/* The first event of the live feed: its "data: " line, malloc'd. A feed refused while the server has not yet seen
 * this client's earlier feeds end (503: --streams-per-ip) is asked for again. */
static char *first_event(void)
{
    const char *req = "GET /events HTTP/1.0\r\nHost: x\r\n\r\n";
    size_t cap = 1 << 20;
    char *feed = calloc(1, cap);
    const char *data = NULL;
    for (int tries = 0; !data && tries < 100; tries++) {
        int s = serve_connect(port, 60);
        assert_true(s >= 0);
        assert_int_equal(send(s, req, strlen(req), MSG_NOSIGNAL), (ssize_t)strlen(req));
        size_t got = 0;
        feed[0] = '\0';
        while (!((data = strstr(feed, "data: ")) && strstr(data, "\n\n")) && got < cap - 1) {
            ssize_t k = recv(s, feed + got, cap - 1 - got, 0);
            if (k <= 0)
                break;
            got += (size_t)k;
            feed[got] = '\0';
        }
        close(s);
        if (data && !strstr(data, "\n\n"))
            data = NULL;
        if (!data && strncmp(feed, "HTTP/1.1 503", 12) != 0)
            fail_msg("/events ended before its first event:\n%.2000s", feed);
        if (!data)
            usleep(200 * 1000);
    }
    if (!data)
        fail_msg("/events refused 100 times:\n%.2000s", feed);
    char *line = strndup(data, strcspn(data, "\n"));
    free(feed);
    return line;
}

/* The feed's object of league `id` in an event ("{\"id\":ID,...\"sprt\":...}" up to the next league), malloc'd, or
 * NULL when it is not there. */
static char *league_in(const char *event, long id)
{
    char key[64];
    snprintf(key, sizeof key, "{\"id\":%ld,", id);
    const char *p = strstr(event, key);
    if (!p)
        return NULL;
    const char *end = strstr(p + 1, "{\"id\":");
    return end ? strndup(p, (size_t)(end - p)) : strdup(p);
}

/* A league whose coordinator is killed (SIGKILL: nothing of it runs to say so) is shown as stopped, not running:
 * its lock is free while its lock file and its recent games stay. */
static void a_killed_league_shows_as_stopped(void **state)
{
    (void)state;
    char cfg[128], lock[256];
    snprintf(cfg, sizeof cfg, "%s/killed.ini", tmp);
    assert_int_equal(serve_league_config(cfg, bin, "killed", 4000, "7x7"), 0);
    long id = db_scalar(db, "SELECT max(id) FROM leagues") + 1;
    snprintf(lock, sizeof lock, "%s.league-%ld.lock", db, id);
    char *const argv[] = { "arena", "league", cfg, "--db", db, "--logs", logs, "--quiet", NULL };
    pid_t league = start_arena(argv);
    /* running: in the feed with "running":true once it has played a game */
    char *row = NULL;
    for (int tries = 0; tries < 600; tries++) {
        char *ev = first_event();
        free(row);
        row = league_in(ev, id);
        free(ev);
        if (row && strstr(row, "\"running\":true") && !strstr(row, "\"played\":0,"))
            break;
        usleep(100 * 1000);
    }
    if (!row || !strstr(row, "\"running\":true"))
        fail_msg("league %ld is not shown running while it plays: %s", id, row ? row : "(not in the feed)");
    free(row);
    assert_int_equal(access(lock, F_OK), 0);
    kill(league, SIGKILL);
    int st;
    assert_int_equal(waitpid(league, &st, 0), league);
    assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
    assert_int_equal(access(lock, F_OK), 0); /* left behind, and free */
    /* stopped: still listed (its last game is recent), "running":false and no ETA */
    row = NULL;
    for (int tries = 0; tries < 100; tries++) {
        char *ev = first_event();
        free(row);
        row = league_in(ev, id);
        free(ev);
        if (row && strstr(row, "\"running\":false"))
            break;
        usleep(100 * 1000);
    }
    if (!row || !strstr(row, "\"running\":false") || !strstr(row, "\"eta_s\":null"))
        fail_msg("league %ld, its coordinator killed, is not shown stopped: %s", id, row ? row : "(not in the feed)");
    free(row);
    /* the page's table says so in place of an ETA */
    char path[64];
    snprintf(path, sizeof path, "/league/%ld", id);
    serve_reply r = serve_get(port, path);
    expect_status(&r, 200, path);
    expect_in(path, r.body, "<td>stopped</td>");
    expect_in(path, r.body, "no coordinator playing them");
    serve_reply_free(&r);
    printf("killed league %ld: shown stopped\n", id);
}

/* ---- in Chromium ---- */

/* Every <section id="..."> of the served page is in the DOM the browser built. */
static void sections_in_dom(const char *served, const char *dom)
{
    int n = 0;
    for (const char *p = served; (p = strstr(p, "<section id=\"")) != NULL; p++, n++) {
        char tag[128];
        snprintf(tag, sizeof tag, "%.*s", (int)(strchr(p + 13, '"') - p + 1), p);
        expect_in("the DOM", dom, tag);
    }
    assert_true(n >= 4);
}

/* A copy of the served page with a script that writes whether it scrolls sideways into <body data-scroll>: the
 * document's width and the window's. */
static void phone_copy(const char *html, const char *path)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    const char *end = strstr(html, "</body>");
    assert_non_null(end);
    fprintf(f, "%.*s", (int)(end - html), html);
    fputs("<script>window.addEventListener('load', function () { document.body.setAttribute('data-scroll', "
          "document.scrollingElement.scrollWidth + ' ' + window.innerWidth); });</script>\n",
          f);
    fputs(end, f);
    fclose(f);
}

static void summary_page_on_a_desktop_and_a_phone(void **state)
{
    (void)state;
    BROWSER_OR_SKIP();
    char url[64], png[160], copy[160];
    snprintf(url, sizeof url, "http://127.0.0.1:%d/", port);
    serve_reply r = serve_get(port, "/");
    expect_status(&r, 200, "/");
    static const struct {
        int w, h;
        const char *name;
    } screens[] = { { 1280, 900, "desktop" }, { 390, 844, "phone" } };
    /* the screenshots of the page as served, saved (no network: its live feed does not connect from a file) */
    char saved[160];
    snprintf(saved, sizeof saved, "%s/summary.html", tmp);
    FILE *f = fopen(saved, "w");
    assert_non_null(f);
    fwrite(r.body, 1, r.body_len, f);
    fclose(f);
    for (int i = 0; i < 2; i++) {
        char *dom = browser_dump_dom(url, screens[i].w, screens[i].h);
        assert_non_null(dom);
        sections_in_dom(r.body, dom);
        free(dom);
        snprintf(png, sizeof png, "%s/%s.png", tmp, screens[i].name);
        assert_int_equal(browser_screenshot(saved, png, screens[i].w, screens[i].h), 0);
        browser_image im = { 0 };
        assert_int_equal(browser_image_read(png, &im), 0);
        double ink = browser_ink(&im);
        if (ink < 0.02)
            fail_msg("the %s screenshot is blank: %.2f%% of it differs from the background", screens[i].name,
                     100 * ink);
        browser_image_free(&im);
    }
    /* the phone's first screen does not scroll sideways */
    snprintf(copy, sizeof copy, "%s/phone.html", tmp);
    phone_copy(r.body, copy);
    char *dom = browser_dump_dom(copy, 390, 844);
    assert_non_null(dom);
    const char *p = strstr(dom, "data-scroll=\"");
    assert_non_null(p);
    int scroll = 0, inner = 0;
    assert_int_equal(sscanf(p + 13, "%d %d", &scroll, &inner), 2);
    if (inner <= 0 || scroll > inner)
        fail_msg("on a phone the summary scrolls sideways: %d px wide in a %d px window", scroll, inner);
    free(dom);
    serve_reply_free(&r);
}

/* The page opened first, then a league started: the browser's DOM shows its row with a count that rose (the
 * script keeps the count of the first event in data-first-played). */
static void a_league_started_after_the_page_counts_up_in_chromium(void **state)
{
    (void)state;
    BROWSER_OR_SKIP();
    char cfg[128], url[64], out[160], cmd[1200];
    snprintf(cfg, sizeof cfg, "%s/browser.ini", tmp);
    assert_int_equal(serve_league_config(cfg, bin, "watched", 4000, "7x7"), 0);
    long id = db_scalar(db, "SELECT max(id) FROM leagues") + 1;
    snprintf(url, sizeof url, "http://127.0.0.1:%d/", port);
    snprintf(out, sizeof out, "%s/live-dom.html", tmp);
    /* the browser in the background (its virtual time runs while no request is open: each feed lasts 3 s) */
    snprintf(cmd, sizeof cmd,
             "timeout -k 10 120 '%s' --headless --no-sandbox --disable-gpu --no-first-run --disable-extensions "
             "--user-data-dir='%s/profile' --window-size=1280,900 --virtual-time-budget=12000 --dump-dom '%s' "
             ">'%s' 2>/dev/null",
             browser_path(), tmp, url, out);
    pid_t browser = fork();
    assert_true(browser >= 0);
    if (browser == 0) {
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    /* once the page is open (its feed connected), the league starts */
    struct timespec tick = { 0, 100 * 1000 * 1000 };
    for (int i = 0; i < 600; i++) {
        char ss[200];
        snprintf(ss, sizeof ss, "ss -tn state established '( sport = :%d )' 2>/dev/null | grep -c . ; true", port);
        char *n = sh_output(ss);
        int c = atoi(n) - 1; /* ss's heading */
        free(n);
        if (c > 0)
            break;
        nanosleep(&tick, NULL);
    }
    char *const argv[] = { "arena", "league", cfg, "--db", db, "--logs", logs, "--quiet", NULL };
    pid_t league = start_arena(argv);
    int st;
    assert_int_equal(waitpid(browser, &st, 0), browser);
    kill(league, SIGTERM);
    assert_int_equal(waitpid(league, &st, 0), league);
    snprintf(cmd, sizeof cmd, "cat '%s'", out);
    char *dom = sh_output(cmd);
    char row[64];
    snprintf(row, sizeof row, "data-league=\"%ld\"", id);
    const char *p = strstr(dom, row);
    if (!p)
        fail_msg("the page never showed league %ld:\n%.3000s", id, dom);
    const char *a = strstr(p, "data-played=\""), *b = strstr(p, "data-first-played=\"");
    assert_non_null(a);
    assert_non_null(b);
    long played = atol(a + 13), first = atol(b + 19);
    printf("in Chromium: league %ld from %ld games to %ld without a reload\n", id, first, played);
    if (played <= first)
        fail_msg("league %ld's count did not rise on the page: %ld, then %ld", id, first, played);
    free(dom);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_page_in_html_and_json),
        cmocka_unit_test(the_pairing_page_says_who_leads),
        cmocka_unit_test(errors_are_one_line_with_their_status),
        cmocka_unit_test(logs_are_served_by_name),
        cmocka_unit_test(hostile_names_are_text),
        cmocka_unit_test(the_database_is_left_as_it_was),
        cmocka_unit_test(malformed_requests_do_not_harm_it),
        cmocka_unit_test(slow_clients_do_not_stall_others),
        cmocka_unit_test(connections_per_address_are_limited),
        cmocka_unit_test(summary_page_on_a_desktop_and_a_phone),
        cmocka_unit_test(the_live_feed_shows_a_league_started_later),
        cmocka_unit_test(a_killed_league_shows_as_stopped),
        cmocka_unit_test(a_league_started_after_the_page_counts_up_in_chromium),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
