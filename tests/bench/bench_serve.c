/* tests/bench/bench_serve.c — what `arena serve` answers on a big database while a league writes to it: requests
 * per second and median and 99th-percentile latency of the summary (/), a league page (an old league, of 1,000
 * games) and game pages (random games: each one read and replayed), from 4 clients at once (a new connection per
 * request), the page of an agent that played every game (its newest 5,000 read), of an agent that played 20 games
 * spread over the database, and of the pairing of the two, next to the baseline measured in the same run: a page
 * that does no database work (a 404); then the lists of games behind those pages, read in this process
 * (store_games_brief()), next to a league's list. The database holds N games (default 1,000,000) in leagues of
 * 1,000 (one league played by `arena league`, copied in SQL as the leagues of later nights; then the rare agent
 * takes one seat in every N/20th game), cached as build/bench-serve-N-vSCHEMA.db so that reruns start at once; a
 * league of random bots on 5x5 plays into it all along. Figures only; nothing is asserted.
 *
 * usage: bench_serve [ARENA [N [SECONDS]]]   (default build/bench/bin/arena, 1000000, 5 seconds per page) */
#define _GNU_SOURCE
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "browse.h"
#include "clock.h"
#include "serve_kit.h"
#include "store.h"

#define CLIENTS 4
#define PER_LEAGUE 1000

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int exec(sqlite3 *d, const char *sql)
{
    char *msg = NULL;
    if (sqlite3_exec(d, sql, NULL, NULL, &msg) != SQLITE_OK) {
        fprintf(stderr, "bench_serve: %s: %s\n", sql, msg ? msg : "?");
        sqlite3_free(msg);
        return -1;
    }
    return 0;
}

/* Copies league 1 (games 1..T, schedule rows 1..T) as league k + 1 of the night k days later. */
static int copy_league(sqlite3 *d, int k)
{
    char sql[2048];
    long off = (long)k * PER_LEAGUE;
    snprintf(sql, sizeof sql,
             "INSERT INTO leagues (id, name, config, config_sha256, seed, created, secret, night, plays)"
             " SELECT %d, name, config, config_sha256, seed, created, secret, date(night, '+%d days'), plays"
             " FROM leagues WHERE id = 1;"
             "INSERT INTO schedule (id, league_id, n, variant, rows, cols, black, white, seed, game_id, pair, opening,"
             " skipped) SELECT id + %ld, %d, n, variant, rows, cols, black, white, seed, game_id + %ld, pair, opening,"
             " skipped FROM schedule WHERE league_id = 1;"
             "INSERT INTO games (id, run_id, variant, rows, cols, swap, black, white, seed, winner, reason, detail,"
             " attempts, seconds, started, finished, schedule_id, opening) SELECT id + %ld, run_id, variant, rows,"
             " cols, swap, black, white, seed, winner, reason, detail, attempts, seconds, started, finished,"
             " schedule_id + %ld, opening FROM games WHERE id <= %d;"
             "INSERT INTO attempts (game_id, n, player, cell, outcome, ms) SELECT game_id + %ld, n, player, cell,"
             " outcome, ms FROM attempts WHERE game_id <= %d;",
             k + 1, k, off, k + 1, off, off, off, PER_LEAGUE, off, PER_LEAGUE);
    return exec(d, sql);
}

#define RARE_GAMES 20

/* The id of the agent named `rare` in d, or -1. */
static long rare_id(sqlite3 *d)
{
    sqlite3_stmt *st;
    long id = -1;
    if (sqlite3_prepare_v2(d, "SELECT id FROM agents WHERE name = 'rare'", -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        id = (long)sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return id;
}

/* The id of the agent `rare`, who takes one seat in RARE_GAMES of the n games (black and white in turn, spread
 * evenly from the oldest): added to the database at path when it is not there yet. Returns -1 on error. */
static long rare_agent(const char *path, long n)
{
    sqlite3 *d;
    if (sqlite3_open(path, &d) != SQLITE_OK)
        return -1;
    long id = rare_id(d), step = n / RARE_GAMES;
    if (id < 0) {
        char sql[600];
        snprintf(sql, sizeof sql,
                 "BEGIN; INSERT INTO agents (name, command, version, sha256) VALUES ('rare', 'rare', '', 'rare');"
                 " UPDATE games SET black = last_insert_rowid() WHERE id %% %ld = 1 AND (id / %ld) %% 2 = 0;"
                 " UPDATE games SET white = (SELECT id FROM agents WHERE name = 'rare') WHERE id %% %ld = 1"
                 " AND (id / %ld) %% 2 = 1; COMMIT;",
                 step, step, step, step);
        if (exec(d, sql) == 0)
            id = rare_id(d);
    }
    sqlite3_close(d);
    return id;
}

/* The database of n games at path, made when it is not there yet. */
static int make_db(const char *arena, const char *path, long n)
{
    struct stat st;
    if (stat(path, &st) == 0) {
        printf("database %s: %ld games (cached, %.0f MB)\n", path, n, (double)st.st_size / 1e6);
        return 0;
    }
    char tmp[600], cfg[600], cmd[2400], bindir[600];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    snprintf(cfg, sizeof cfg, "%s.ini", path);
    snprintf(bindir, sizeof bindir, "%s", arena);
    char *slash = strrchr(bindir, '/');
    if (slash)
        *slash = '\0';
    double t0 = clk_now();
    unlink(tmp);
    if (serve_league_config(cfg, bindir, "nightly", PER_LEAGUE / 2, "3x3") != 0)
        return -1;
    snprintf(cmd, sizeof cmd, "'%s' league '%s' --db '%s' --logs build/bench-serve-logs --quiet --date 2026-01-01 "
                              ">/dev/null", arena, cfg, tmp);
    if (system(cmd) != 0) {
        fprintf(stderr, "bench_serve: '%s' failed\n", cmd);
        return -1;
    }
    sqlite3 *d;
    if (sqlite3_open(tmp, &d) != SQLITE_OK || exec(d, "PRAGMA synchronous = OFF") != 0)
        return -1;
    long leagues = n / PER_LEAGUE;
    for (long k = 1; k < leagues; k++) {
        if (k % 50 == 1 && exec(d, "BEGIN") != 0)
            return -1;
        if (copy_league(d, (int)k) != 0)
            return -1;
        if ((k % 50 == 0 || k == leagues - 1) && exec(d, "COMMIT") != 0)
            return -1;
    }
    if (exec(d, "PRAGMA wal_checkpoint(TRUNCATE)") != 0)
        return -1;
    sqlite3_close(d);
    if (rename(tmp, path) != 0)
        return -1;
    stat(path, &st);
    printf("database %s: %ld games in %ld leagues made in %.1f s (%.0f MB)\n", path, leagues * PER_LEAGUE, leagues,
           clk_now() - t0, (double)st.st_size / 1e6);
    return 0;
}

/* The lists behind those pages read in this process (store_games_brief(), at most 5,000 games as the agent and
 * pairing pages read), each for about `seconds`: calls per second, median and 99th percentile. */
static void measure_list(const char *db, const char *label, store_brief_filter f, double seconds)
{
    char err[600];
    store_db *s = store_open_readonly(db, err, sizeof err);
    if (!s) {
        printf("  %-28s %s\n", label, err);
        return;
    }
    long n = 0, cap = 1024, rows = 0;
    double *lat = malloc(sizeof *lat * (size_t)cap), t0 = clk_now();
    while (lat && clk_now() < t0 + seconds) {
        store_game_brief *g;
        int k;
        double t = clk_now();
        if (store_games_brief(s, &f, &g, &k) != 0) {
            printf("  %-28s %s\n", label, store_error(s));
            break;
        }
        double dt = clk_now() - t;
        free(g);
        rows = k;
        if (n == cap)
            lat = realloc(lat, sizeof *lat * (size_t)(cap *= 2));
        if (lat)
            lat[n++] = dt;
    }
    double wall = clk_now() - t0;
    if (lat && n) {
        qsort(lat, (size_t)n, sizeof *lat, by_value);
        printf("  %-28s %8.1f calls/s p50 %7.2f ms   p99 %8.2f ms   (%ld calls, %ld games each)\n", label,
               (double)n / wall, 1000 * lat[n / 2], 1000 * lat[(long)((double)n * 0.99)], n, rows);
    }
    free(lat);
    store_close(s);
}

typedef struct {
    int port;
    const char *path;              /* NULL: a random game page */
    long games;
    double until;
    double *lat;
    long n, cap, failed;
    unsigned seed;
} client;

static void *run_client(void *arg)
{
    client *c = arg;
    char path[64];
    while (clk_now() < c->until) {
        if (!c->path)
            snprintf(path, sizeof path, "/game/%ld", 1 + (long)(rand_r(&c->seed) % (unsigned)c->games));
        double t0 = clk_now();
        serve_reply r = serve_get(c->port, c->path ? c->path : path);
        double dt = clk_now() - t0;
        if (r.status != 200 && !(c->path && strcmp(c->path, "/nope") == 0 && r.status == 404))
            c->failed++;
        serve_reply_free(&r);
        if (c->n == c->cap)
            c->lat = realloc(c->lat, sizeof *c->lat * (size_t)(c->cap = c->cap ? 2 * c->cap : 4096));
        c->lat[c->n++] = dt;
    }
    return NULL;
}

static void measure(const char *label, int port, const char *path, long games, double seconds)
{
    client c[CLIENTS];
    pthread_t t[CLIENTS];
    double t0 = clk_now();
    for (int i = 0; i < CLIENTS; i++) {
        c[i] = (client){ .port = port, .path = path, .games = games, .until = t0 + seconds, .seed = 7u + (unsigned)i };
        pthread_create(&t[i], NULL, run_client, &c[i]);
    }
    long n = 0, failed = 0;
    for (int i = 0; i < CLIENTS; i++) {
        pthread_join(t[i], NULL);
        n += c[i].n;
        failed += c[i].failed;
    }
    double wall = clk_now() - t0, *all = malloc(sizeof *all * (size_t)(n ? n : 1));
    long k = 0;
    for (int i = 0; i < CLIENTS; i++) {
        memcpy(all + k, c[i].lat, sizeof *all * (size_t)c[i].n);
        k += c[i].n;
        free(c[i].lat);
    }
    qsort(all, (size_t)n, sizeof *all, by_value);
    printf("  %-28s %8.1f req/s   p50 %7.2f ms   p99 %8.2f ms   (%ld requests, %ld failed)\n", label,
           (double)n / wall, n ? 1000 * all[n / 2] : 0, n ? 1000 * all[(long)((double)n * 0.99)] : 0, n, failed);
    free(all);
}

int main(int argc, char **argv)
{
    const char *arena = argc > 1 ? argv[1] : "build/bench/bin/arena";
    long n = argc > 2 ? atol(argv[2]) : 1000000;
    double seconds = argc > 3 ? atof(argv[3]) : 5;
    if (n < PER_LEAGUE)
        n = PER_LEAGUE;
    n -= n % PER_LEAGUE;
    char db[256], bindir[600], cfg[300];
    snprintf(db, sizeof db, "build/bench-serve-%ld-v%d.db", n, STORE_SCHEMA_VERSION); /* remade for a new schema */
    long rare = make_db(arena, db, n) == 0 ? rare_agent(db, n) : -1;
    if (rare < 0)
        return 1;
    snprintf(bindir, sizeof bindir, "%s", arena);
    char *slash = strrchr(bindir, '/');
    if (slash)
        *slash = '\0';
    /* the league writing into it all along (its rows are removed afterwards: the cached database stays as made) */
    snprintf(cfg, sizeof cfg, "%s.writer.ini", db);
    serve_league_config(cfg, bindir, "writer", 5000, "5x5");
    char cmd[2000];
    snprintf(cmd, sizeof cmd, "'%s' league '%s' --db '%s' --logs build/bench-serve-logs --quiet --new "
             ">/dev/null 2>&1 & echo $!", arena, cfg, db);
    FILE *p = popen(cmd, "r");
    int writer = 0;
    if (!p || fscanf(p, "%d", &writer) != 1)
        return 1;
    pclose(p);
    int port;
    const char *extra[] = { "--request-ms", "30000", NULL };
    pid_t server = serve_start(bindir, db, extra, NULL, &port);
    if (server < 0)
        return 1;
    char league[64];
    snprintf(league, sizeof league, "/league/%ld", n / PER_LEAGUE / 2);
    printf("arena serve on %ld games, %d clients, %.0f s per page, a league writing meanwhile:\n", n, CLIENTS, seconds);
    double first = clk_now();
    serve_reply r = serve_get(port, league);
    printf("  first %s (not cached): %.0f ms, status %d\n", league, 1000 * (clk_now() - first), r.status);
    serve_reply_free(&r);
    measure("baseline: 404, no database", port, "/nope", n, seconds);
    measure("/ (summary)", port, "/", n, seconds);
    char label[80];
    snprintf(label, sizeof label, "%s (1,000 games)", league);
    measure(label, port, league, n, seconds);
    measure("/game/RANDOM (viewer)", port, NULL, n, seconds);
    char agent[64];
    measure("/agent/1 (prolific)", port, "/agent/1", n, seconds);
    snprintf(agent, sizeof agent, "/agent/%ld", rare);
    snprintf(label, sizeof label, "%s (%d games)", agent, RARE_GAMES);
    measure(label, port, agent, n, seconds);
    snprintf(agent, sizeof agent, "/pairing/1/%ld", rare);
    snprintf(label, sizeof label, "%s (rare)", agent);
    measure(label, port, agent, n, seconds);
    printf("  server VmRSS at the end: %ld kB\n", serve_rss_kb(server));
    printf("the lists of games behind the pages, read in this process (store_games_brief):\n");
    measure_list(db, "league 500 (1,000 games)", (store_brief_filter){ .league = n / PER_LEAGUE / 2, .limit = 5000 },
                 seconds);
    measure_list(db, "agent 1 (prolific)", (store_brief_filter){ .agent = 1, .limit = 5000 }, seconds);
    snprintf(label, sizeof label, "agent %ld (%d games)", rare, RARE_GAMES);
    measure_list(db, label, (store_brief_filter){ .agent = rare, .limit = 5000 }, seconds);
    snprintf(label, sizeof label, "pairing 1-%ld (rare)", rare);
    measure_list(db, label, (store_brief_filter){ .agent = 1, .opponent = rare, .limit = 5000 }, seconds);
    serve_stop(server);
    kill(writer, SIGTERM);
    waitpid(writer, NULL, 0);
    sqlite3 *d;
    if (sqlite3_open(db, &d) == SQLITE_OK) {
        sqlite3_stmt *st;
        if (sqlite3_prepare_v2(d, "SELECT count(*) FROM games WHERE id > ?", -1, &st, NULL) == SQLITE_OK) {
            sqlite3_bind_int64(st, 1, n);
            if (sqlite3_step(st) == SQLITE_ROW)
                printf("  the writing league stored %lld games meanwhile\n", (long long)sqlite3_column_int64(st, 0));
            sqlite3_finalize(st);
        }
        /* back to the database as made, for the next run */
        char sql[600];
        snprintf(sql, sizeof sql,
                 "PRAGMA foreign_keys = OFF; BEGIN; DELETE FROM attempts WHERE game_id > %ld; DELETE FROM games WHERE"
                 " id > %ld; DELETE FROM schedule WHERE league_id > %ld; DELETE FROM leagues WHERE id > %ld; COMMIT;",
                 n, n, n / PER_LEAGUE, n / PER_LEAGUE);
        exec(d, sql);
        sqlite3_close(d);
    }
    return 0;
}
