/* tests/e2e/test_serve_agent.c — the agent page of `arena serve` (/agent/ID) over two nights of a small league in
 * which one test agent crashes in every game: its headlines (rating, 95% interval, rank, change since the previous
 * night, forfeits) the same as `arena ratings` of that league gives, in the HTML and as facts of the JSON twin;
 * each game shown as won or lost by the page's agent (the crasher's games as its forfeits and losses, its
 * opponents' as wins by the opponent's forfeit) with the forfeits counted apart; and the page brought up to date
 * when a new night is played after it was read (what the server keeps is keyed by the games played). */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "serve_kit.h"
#include "test_sys.h"
#include "test_util.h"

static char tmp[64], bin[512], db[128], logs[128], errlog[128], cfg[128];
static pid_t server;
static int port;

#define BOOTSTRAP "20"

static int play_night(const char *date, bool first)
{
    return sh_run("'%s/arena' league '%s' --db '%s' --quiet --logs '%s' %s --date %s >/dev/null 2>&1", bin, cfg, db,
                  logs, first ? "" : "--new", date);
}

static int setup(void **state)
{
    (void)state;
    if (e2e_dirs(tmp, "arena-serve-agent", bin) != 0)
        return -1;
    snprintf(db, sizeof db, "%s/a.db", tmp);
    snprintf(logs, sizeof logs, "%s/logs", tmp);
    snprintf(errlog, sizeof errlog, "%s/serve.err", tmp);
    snprintf(cfg, sizeof cfg, "%s/a.ini", tmp);
    const char *agents = getenv("ARENA_TEST_AGENTS");
    FILE *f = fopen(cfg, "w");
    if (!f)
        return -1;
    fprintf(f,
            "[league]\nname = nightly\nvariants = classical, abrupt\nboards = 3x3\ngames = 2\nconcurrency = 1\n\n"
            "[agent r1]\ncommand = %s/random\nargs = --seed 1\n\n[agent r2]\ncommand = %s/random\nargs = --seed 2\n\n"
            "[agent bad]\ncommand = %s/misbehave\nargs = --mode exit\nvariants = classical\nboards = 3x3\n",
            bin, bin, agents ? agents : "build/release/tests/agents");
    fclose(f);
    if (play_night("2026-11-20", true) != 0 || play_night("2026-11-21", false) != 0)
        return -1;
    const char *extra[] = { "--logs", logs, "--bootstrap", BOOTSTRAP, NULL };
    server = serve_start(bin, db, extra, errlog, &port);
    return server > 0 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return serve_teardown(server, tmp);
}

static long agent_id(const char *name)
{
    char sql[200];
    snprintf(sql, sizeof sql, "SELECT id FROM agents WHERE name = '%s'", name);
    return db_scalar(db, sql);
}

/* A page's body (status 200 required). */
static char *page(const char *fmt, long id)
{
    char path[64];
    snprintf(path, sizeof path, fmt, id);
    serve_reply r = serve_get(port, path);
    if (r.status != 200)
        fail_msg("%s: status %d", path, r.status);
    char *body = strdup(r.body);
    serve_reply_free(&r);
    return body;
}

/* What the Python expression `expr` over the JSON text `json` (as d) prints, without its newline (malloc'd). */
static char *py(const char *json, const char *expr)
{
    char file[128];
    snprintf(file, sizeof file, "%s/py.json", tmp);
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fputs(json, f);
    fclose(f);
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "python3 -c 'import json; d = json.load(open(\"%s\")); print(%s)'", file, expr);
    char *out = sh_output(cmd);
    assert_non_null(out);
    out[strcspn(out, "\n")] = '\0';
    return out;
}

static double py_number(const char *json, const char *expr)
{
    char *s = py(json, expr);
    char *end;
    double v = strtod(s, &end);
    if (end == s)
        fail_msg("%s: not a number: '%s'", expr, s);
    free(s);
    return v;
}

/* `arena ratings` of league `league` (JSON, the server's bootstrap), --scope as given. */
static char *ratings(long league, const char *scope)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s/arena' ratings --db '%s' --league %ld --bootstrap " BOOTSTRAP
             " --format json --scope %s", bin, db, league, scope);
    char *out = sh_output(cmd);
    assert_non_null(out);
    return out;
}

/* The number `key` of agent `name`'s row in the ratings table titled by variant (and board). */
static double rated(const char *json, const char *variant, const char *board, const char *name, const char *key)
{
    char expr[600];
    snprintf(expr, sizeof expr,
             "[r[\"%s\"] for t in d if t[\"variant\"] == \"%s\" and (t[\"board\"] or \"\") == \"%s\""
             " for r in t[\"rows\"] if r[\"name\"] == \"%s\"][0]",
             key, variant, board, name);
    return py_number(json, expr);
}

static void expect_fact(const char *json, const char *key, double expected)
{
    double got = json_number(json, key);
    if (got != expected)
        fail_msg("fact %s: %g, expected %g", key, got, expected);
}

/* The headlines of r1: league 2 (its newest), the change since league 1, rank, interval, per variant and board
 * and pooled, as `arena ratings` gives them, in the JSON's facts and the HTML. */
static void headlines_are_the_ratings_of_the_newest_league(void **state)
{
    (void)state;
    long r1 = agent_id("r1"), newest = db_scalar(db, "SELECT max(id) FROM leagues");
    char *json = page("/agent/%ld.json", r1), *html = page("/agent/%ld", r1);
    strict_json("agent page", json);
    char *now = ratings(newest, "all"), *before = ratings(newest - 1, "all");
    expect_fact(json, "rating_league", (double)newest);
    expect_fact(json, "previous_league", (double)(newest - 1));
    double elo = rated(now, "pooled", "", "r1", "elo");
    expect_fact(json, "elo", (double)llround(elo));
    expect_fact(json, "elo_lower", (double)llround(rated(now, "pooled", "", "r1", "lower")));
    expect_fact(json, "elo_upper", (double)llround(rated(now, "pooled", "", "r1", "upper")));
    expect_fact(json, "rank", rated(now, "pooled", "", "r1", "rank"));
    expect_fact(json, "rank_of", py_number(now, "len([t for t in d if t[\"variant\"] == \"pooled\"][0][\"rows\"])"));
    expect_fact(json, "elo_change", (double)llround(elo - rated(before, "pooled", "", "r1", "elo")));
    expect_fact(json, "league_games", rated(now, "pooled", "", "r1", "games"));
    expect_fact(json, "league_forfeits", 0);
    static const char *const variants[] = { "classical", "abrupt" };
    for (int v = 0; v < 2; v++) {
        char key[64];
        double e = rated(now, variants[v], "3x3", "r1", "elo");
        snprintf(key, sizeof key, "elo_%s_3x3", variants[v]);
        expect_fact(json, key, (double)llround(e));
        snprintf(key, sizeof key, "elo_lower_%s_3x3", variants[v]);
        expect_fact(json, key, (double)llround(rated(now, variants[v], "3x3", "r1", "lower")));
        snprintf(key, sizeof key, "rank_%s_3x3", variants[v]);
        expect_fact(json, key, rated(now, variants[v], "3x3", "r1", "rank"));
        snprintf(key, sizeof key, "elo_change_%s_3x3", variants[v]);
        expect_fact(json, key, (double)llround(e - rated(before, variants[v], "3x3", "r1", "elo")));
    }
    /* the HTML opens with them: the section, the rank as "R of M", the interval */
    const char *rating = strstr(html, "<section id=\"rating\""), *agent = strstr(html, "<section id=\"agent\"");
    if (!rating || !agent || rating > agent)
        fail_msg("the page does not open with its rating:\n%.3000s", html);
    char text[96];
    snprintf(text, sizeof text, "%.0f of %.0f", json_number(json, "rank"), json_number(json, "rank_of"));
    if (!strstr(rating, text))
        fail_msg("no '%s' in the rating section:\n%.3000s", text, rating);
    snprintf(text, sizeof text, "%.0f to %.0f", json_number(json, "elo_lower"), json_number(json, "elo_upper"));
    if (!strstr(rating, text))
        fail_msg("no interval '%s' in the rating section:\n%.3000s", text, rating);
    free(json);
    free(html);
    free(now);
    free(before);
}

/* The crasher's page lists its games as its forfeits and losses, its opponent's as wins by the opponent's
 * forfeit; the results by opponent count each side's forfeits apart. */
static void forfeits_are_the_losers(void **state)
{
    (void)state;
    long bad = agent_id("bad"), r1 = agent_id("r1");
    char sql[300];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM games WHERE (black = %ld AND winner = 'W' OR white = %ld AND winner = 'B')"
             " AND reason <> 'connected'", bad, bad);
    long its = db_scalar(db, sql);
    snprintf(sql, sizeof sql, "SELECT count(*) FROM games WHERE black = %ld OR white = %ld", bad, bad);
    long all = db_scalar(db, sql);
    assert_true(its > 0);
    char *json = page("/agent/%ld.json", bad);
    expect_fact(json, "forfeits", (double)its);
    expect_fact(json, "games", (double)all);
    /* its newest games: lost by its forfeit, the crash's detail given */
    double lost = py_number(json, "sum(1 for r in d[\"sections\"][\"games\"][0][\"rows\"] if r[\"result\"] == \"lost\""
                                  " and r[\"how\"].startswith(\"forfeited: crash: exited with status\"))");
    double rows = py_number(json, "len(d[\"sections\"][\"games\"][0][\"rows\"])");
    if (lost != rows || rows != (double)(all < 50 ? all : 50))
        fail_msg("bad: %g of %g games shown as lost by its forfeit:\n%s", lost, rows, json);
    /* its forfeits section: every game it forfeited, each linked to the viewer */
    char *html = page("/agent/%ld", bad);
    const char *sec = strstr(html, "<section id=\"forfeits\"");
    assert_non_null(sec);
    snprintf(sql, sizeof sql, "SELECT max(id) FROM games WHERE black = %ld OR white = %ld", bad, bad);
    char href[64];
    snprintf(href, sizeof href, "<a href=\"/game/%ld\">", db_scalar(db, sql));
    if (!strstr(sec, href))
        fail_msg("no link %s in the forfeits:\n%.3000s", href, sec);
    free(json);
    free(html);
    /* r1's page: its games against bad won by bad's forfeit; none of its own */
    json = page("/agent/%ld.json", r1);
    expect_fact(json, "forfeits", 0);
    char expr[600];
    snprintf(expr, sizeof expr,
             "[(r[\"result\"], r[\"how\"].split(\":\")[0]) for r in d[\"sections\"][\"games\"][0][\"rows\"]"
             " if r[\"opponent\"] == \"bad\"]");
    char *against = py(json, expr);
    if (strstr(against, "lost") || strstr(against, "connected") || !strstr(against, "('won', 'opponent forfeited')"))
        fail_msg("r1's games against bad: %s", against);
    free(against);
    snprintf(sql, sizeof sql, "SELECT count(*) FROM games WHERE black = %ld AND white = %ld OR black = %ld AND white = %ld",
             r1, bad, bad, r1);
    long versus = db_scalar(db, sql);
    snprintf(expr, sizeof expr,
             "[(r[\"games\"], r[\"forfeited\"], r[\"opponent forfeited\"]) for r in"
             " d[\"sections\"][\"opponents\"][0][\"rows\"] if r[\"opponent\"] == \"bad\"][0]");
    char *row = py(json, expr), want[96];
    snprintf(want, sizeof want, "(%ld, 0, %ld)", versus, versus);
    if (strcmp(row, want) != 0)
        fail_msg("r1 against bad: %s, expected (games, forfeited, opponent forfeited) = %s", row, want);
    free(row);
    /* and no forfeit listed for it: no forfeits section at all (an empty section is left out) */
    char *h1 = page("/agent/%ld", r1);
    sec = strstr(h1, "<section id=\"forfeits\"");
    if (sec)
        fail_msg("r1 has a forfeits section:\n%.2000s", sec);
    free(h1);
    free(json);
}

/* Read, a new night played, read twice: both show the new games and the new league's numbers. */
static void a_new_night_shows_at_once(void **state)
{
    (void)state;
    long r1 = agent_id("r1");
    char *json = page("/agent/%ld.json", r1);
    double games = json_number(json, "games");
    free(json);
    assert_int_equal(play_night("2026-11-22", false), 0);
    long newest = db_scalar(db, "SELECT max(id) FROM leagues");
    char sql[200];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM games WHERE black = %ld OR white = %ld", r1, r1);
    long now = db_scalar(db, sql);
    assert_true(now > games);
    char *rated_now = ratings(newest, "pooled");
    for (int round = 0; round < 2; round++) {
        json = page("/agent/%ld.json", r1);
        expect_fact(json, "games", (double)now);
        expect_fact(json, "rating_league", (double)newest);
        expect_fact(json, "previous_league", (double)(newest - 1));
        expect_fact(json, "elo", (double)llround(rated(rated_now, "pooled", "", "r1", "elo")));
        expect_fact(json, "league_games", rated(rated_now, "pooled", "", "r1", "games"));
        snprintf(sql, sizeof sql, "SELECT max(id) FROM games WHERE black = %ld OR white = %ld", r1, r1);
        double first = py_number(json, "d[\"sections\"][\"games\"][0][\"rows\"][0][\"game\"]");
        if (first != (double)db_scalar(db, sql))
            fail_msg("round %d: newest game %g shown, %ld played", round, first, db_scalar(db, sql));
        free(json);
    }
    free(rated_now);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(headlines_are_the_ratings_of_the_newest_league),
        cmocka_unit_test(forfeits_are_the_losers),
        cmocka_unit_test(a_new_night_shows_at_once),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
