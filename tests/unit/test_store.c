/* tests/unit/test_store.c — the results database: migrations (a schema-2 database with a league, a run and a
 * game is migrated and keeps them; a schema-3 one gets the table of unsandboxed agents, empty; a schema-4 one
 * keeps its agents' ids and its games while agents become unique on name, command and hash), agents by name,
 * command line and hash, games with their transcripts, refusal of a newer schema and of another program's
 * database, a full disk named as such, the secrets of leagues and runs, the agents of a run that played without
 * a sandbox, and the read side (each filter, the labels of agents that share a name, the transcripts, the
 * leagues by id or name), a schedule row of an unknown variant refused, and each player's game clock (time control,
 * time left) stored, also after a schema-9 database is migrated; and the server's read side: a read-only
 * connection that writes nothing (and refuses an older schema), the leagues running now and the newest with their
 * progress, and the newest games of a league, an agent and a pairing; a schema-10 database gets the indexes of
 * games by player, through which an agent's and a pairing's games are read (the plan checked) with the same rows
 * as the scan of games before. */
#define _GNU_SOURCE /* unshare */
#include <math.h>
#include <sched.h>
#include <sqlite3.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "browse.h"
#include "query.h"
#include "store.h"
#include "schema_v4.h"
#include "test_util.h"
#include "isotime.h"

static char path[256], err[512];

static int setup(void **state)
{
    (void)state;
    snprintf(path, sizeof path, "/tmp/arena-test-store-%d.db", (int)getpid());
    unlink(path);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char p[300];
    unlink(path);
    snprintf(p, sizeof p, "%s-wal", path);
    unlink(p);
    snprintf(p, sizeof p, "%s-shm", path);
    unlink(p);
    return 0;
}

/* One number from the database at `path`, read over a connection of the test's own (an independent check of
 * what the store wrote). */
static int64_t scalar(const char *sql)
{
    sqlite3 *d;
    sqlite3_stmt *st;
    int64_t v = -1;
    assert_int_equal(sqlite3_open_v2(path, &d, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(d, sql, -1, &st, NULL), SQLITE_OK);
    if (sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(d);
    return v;
}

static void games_and_transcripts_are_stored(void **state)
{
    (void)state;
    store_db *s = store_open(path, NULL, err, sizeof err);
    if (!s)
        fail_msg("%s", err);
    assert_int_equal(scalar("PRAGMA user_version"), STORE_SCHEMA_VERSION);
    int64_t a = store_agent(s, "random", "bin/random", "1.0", "aa11");
    int64_t b = store_agent(s, "bridge", "bin/bridge", "0.3", "bb22");
    assert_true(a > 0 && b > 0 && a != b);
    assert_int_equal(store_agent(s, "random", "bin/random", "1.0", "aa11"), a);        /* the same setup */
    int64_t a2 = store_agent(s, "random", "bin/random --seed 2", "1.0", "aa11");       /* other arguments */
    int64_t a3 = store_agent(s, "random", "bin/random", "1.1", "cc33");                /* rebuilt */
    assert_true(a2 > 0 && a3 > 0 && a2 != a && a3 != a && a2 != a3);
    assert_int_equal(store_agent(s, "random", "bin/random --seed 2", "1.2", "aa11"), a2); /* again: its version */
    assert_int_equal(scalar("SELECT count(*) FROM agents WHERE name = 'random'"), 3);
    assert_int_equal(scalar("SELECT count(*) FROM agents WHERE version = '1.2'"), 1);
    int64_t run = store_run_begin(s, "match", "random vs bridge");
    assert_true(run > 0);

    hx_game g;
    start(&g, HX_CLASSICAL, 2, 2, 0);
    play(&g, "a1 a1 b2 b2 b1 b1 a2", NULL);
    char t0[32], t1[32];
    iso_now(t0);
    iso_now(t1);
    store_game_rec rec = { .run = run, .black = a, .white = b, .seed = 77, .winner = hx_winner(&g),
                           .reason = HX_END_CONNECTED, .seconds = 0.25, .started = t0, .finished = t1, .game = &g };
    int64_t id = store_game(s, &rec);
    assert_true(id > 0);
    assert_int_equal(store_run_end(s, run), 0);

    assert_int_equal(scalar("SELECT count(*) FROM attempts"), 7);
    assert_int_equal(scalar("SELECT count(*) FROM attempts WHERE outcome = 'rejected'"), 3);
    assert_int_equal(scalar("SELECT count(*) FROM games WHERE winner = 'W' AND attempts = 7 AND seed = 77"), 1);
    assert_int_equal(scalar("SELECT count(*) FROM attempts WHERE n = 7 AND player = 'W' AND cell = 'a2'"), 1);
    assert_int_equal(scalar("SELECT count(*) FROM runs WHERE finished IS NOT NULL"), 1);
    store_close(s);

    /* Reopening keeps everything and does not migrate twice. */
    s = store_open(path, NULL, err, sizeof err);
    assert_non_null(s);
    assert_int_equal(scalar("SELECT count(*) FROM games"), 1);
    assert_int_equal(scalar("SELECT count(*) FROM agents"), 4);
    store_close(s);
}

/* A database written by an arena of schema 2 (made here with SQLite, frozen in tests/schema_v2.h): a league
 * with one of its two games played. Opening it migrates it to the current schema; what it held stays
 * readable; its league is still unfinished, gets a secret when first asked and keeps it; a run takes one. */
static void schema_2_database_is_migrated(void **state)
{
    (void)state;
    sqlite3 *d;
    assert_int_equal(sqlite3_open(path, &d), SQLITE_OK);
    char *msg = NULL;
    if (sqlite3_exec(d, SCHEMA_V2, NULL, NULL, &msg) != SQLITE_OK ||
        sqlite3_exec(d,
                     "INSERT INTO agents (id, name, command, sha256) VALUES (1, 'a', 'bin/a', 'aa'), (2, 'b', 'bin/b', 'bb');"
                     "INSERT INTO runs (id, kind, description) VALUES (1, 'league', 'old');"
                     "INSERT INTO leagues (id, name, config, config_sha256, seed) VALUES (1, 'old', '[league]', 'h', 5);"
                     "INSERT INTO schedule (id, league_id, n, variant, rows, cols, black, white, seed)"
                     " VALUES (1, 1, 0, 'classical', 2, 2, 'a', 'b', 11), (2, 1, 1, 'classical', 2, 2, 'b', 'a', 12);"
                     "INSERT INTO games (id, run_id, variant, rows, cols, black, white, seed, winner, reason, attempts,"
                     " seconds, started, finished, schedule_id) VALUES (1, 1, 'classical', 2, 2, 1, 2, 11, 'B',"
                     " 'connected', 2, 0.5, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:01.000Z', 1);"
                     "INSERT INTO attempts (game_id, n, player, cell, outcome) VALUES (1, 1, 'B', 'a1', 'placed'),"
                     " (1, 2, 'W', 'a1', 'collision');"
                     "UPDATE schedule SET game_id = 1 WHERE id = 1;",
                     NULL, NULL, &msg) != SQLITE_OK)
        fail_msg("making a schema-2 database: %s", msg ? msg : "?");
    sqlite3_close(d);
    assert_int_equal(scalar("PRAGMA user_version"), 2);

    store_db *s = store_open(path, NULL, err, sizeof err);
    if (!s)
        fail_msg("%s", err);
    assert_int_equal(scalar("PRAGMA user_version"), STORE_SCHEMA_VERSION);
    assert_int_equal(scalar("SELECT count(*) FROM pragma_table_info('leagues') WHERE name = 'secret'"), 1);
    assert_int_equal(scalar("SELECT count(*) FROM pragma_table_info('runs') WHERE name = 'secret'"), 1);
    assert_int_equal(scalar("SELECT count(*) FROM leagues WHERE secret IS NULL"), 1);
    assert_int_equal(scalar("SELECT count(*) FROM runs WHERE secret IS NULL"), 1);

    /* what it held reads as before */
    store_games *q = store_query(s, &(store_filter){ 0 });
    assert_non_null(q);
    store_game_row r;
    assert_int_equal(store_games_next(q, &r), 1);
    assert_int_equal(r.id, 1);
    assert_int_equal(r.league, 1);
    assert_string_equal(r.league_name, "old");
    assert_true(r.seed == 11);
    assert_int_equal(store_games_next(q, &r), 0);
    store_games_end(q);
    assert_int_equal(store_league_unfinished(s, "old", "h", 5), 1);
    assert_int_equal(store_league_unfinished(s, "old", "h", 6), 0); /* another seed: another league */
    store_planned *p;
    int n, total;
    assert_int_equal(store_league_pending(s, 1, &p, &n, &total), 0);
    assert_int_equal(n, 1);
    assert_int_equal(total, 2);
    assert_int_equal(p[0].n, 1);
    assert_true(p[0].seed == 12);
    free(p);

    /* the league's secret: stored when it has none, read back after that */
    uint8_t first[16], again[16];
    for (int i = 0; i < 16; i++)
        first[i] = (uint8_t)(0xa0 + i), again[i] = (uint8_t)i;
    assert_int_equal(store_league_secret(s, 1, first, sizeof first), 0);
    assert_int_equal(first[0], 0xa0); /* kept: it is the one stored */
    assert_int_equal(scalar("SELECT count(*) FROM leagues WHERE hex(secret) = 'A0A1A2A3A4A5A6A7A8A9AAABACADAEAF'"), 1);
    assert_int_equal(store_league_secret(s, 1, again, sizeof again), 0);
    assert_memory_equal(again, first, sizeof first); /* the stored one, not the one offered */
    assert_int_equal(scalar("SELECT count(*) FROM leagues WHERE hex(secret) = 'A0A1A2A3A4A5A6A7A8A9AAABACADAEAF'"), 1);
    assert_int_equal(store_league_secret(s, 1, again, 8), -1);  /* a stored secret of another length */
    assert_int_equal(store_league_secret(s, 99, again, sizeof again), -1); /* no such league */

    /* a run's secret */
    int64_t run = store_run_begin(s, "match", "new");
    assert_true(run > 1);
    assert_int_equal(store_run_secret(s, run, first, sizeof first), 0);
    assert_int_equal(scalar("SELECT length(secret) FROM runs WHERE id = 2"), 16);
    assert_int_equal(scalar("SELECT count(*) FROM runs WHERE secret IS NULL"), 1); /* the old run has none */
    assert_int_equal(store_run_secret(s, 99, first, sizeof first), -1);
    store_close(s);

    /* opening it again changes nothing */
    s = store_open(path, NULL, err, sizeof err);
    assert_non_null(s);
    assert_int_equal(store_league_secret(s, 1, again, sizeof again), 0);
    assert_memory_equal(again, first, sizeof first);
    store_close(s);
}

/* A database written by an arena of schema 3 (tests/schema_v3.h) with a match run and its game: opening it adds
 * the table of unsandboxed agents, empty (nothing of an older arena is taken for unsandboxed); its game reads
 * as sandboxed; a new run records an unsandboxed agent, once however often it is told. */
static void schema_3_database_is_migrated(void **state)
{
    (void)state;
    sqlite3 *d;
    assert_int_equal(sqlite3_open(path, &d), SQLITE_OK);
    char *msg = NULL;
    if (sqlite3_exec(d, SCHEMA_V2, NULL, NULL, &msg) != SQLITE_OK ||
        sqlite3_exec(d, SCHEMA_V3_AFTER_V2, NULL, NULL, &msg) != SQLITE_OK ||
        sqlite3_exec(d,
                     "INSERT INTO agents (id, name, command, sha256) VALUES (1, 'a', 'bin/a', 'aa'), (2, 'b', 'bin/b', 'bb');"
                     "INSERT INTO runs (id, kind, description, secret) VALUES (1, 'match', 'old', x'00112233');"
                     "INSERT INTO games (id, run_id, variant, rows, cols, black, white, seed, winner, reason, attempts,"
                     " seconds, started, finished) VALUES (1, 1, 'classical', 2, 2, 1, 2, 11, 'B', 'connected', 1,"
                     " 0.5, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:01.000Z');"
                     "INSERT INTO attempts (game_id, n, player, cell, outcome) VALUES (1, 1, 'B', 'a1', 'placed');",
                     NULL, NULL, &msg) != SQLITE_OK)
        fail_msg("making a schema-3 database: %s", msg ? msg : "?");
    sqlite3_close(d);
    assert_int_equal(scalar("PRAGMA user_version"), 3);

    store_db *s = store_open(path, NULL, err, sizeof err);
    if (!s)
        fail_msg("%s", err);
    assert_int_equal(scalar("PRAGMA user_version"), STORE_SCHEMA_VERSION);
    /* schema 6: a game's opening (none for older games), schedule rows' openings, pairs and skips */
    assert_int_equal(scalar("SELECT opening FROM games WHERE id = 1"), 0);
    assert_int_equal(scalar("SELECT count(*) FROM pragma_table_info('schedule') WHERE name IN ('opening', 'pair',"
                            " 'skipped')"), 3);
    assert_int_equal(scalar("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'unsandboxed'"), 1);
    assert_int_equal(scalar("SELECT count(*) FROM unsandboxed"), 0);
    assert_int_equal(scalar("SELECT length(secret) FROM runs WHERE id = 1"), 4);

    store_games *q = store_query(s, &(store_filter){ 0 });
    assert_non_null(q);
    store_game_row r;
    assert_int_equal(store_games_next(q, &r), 1);
    assert_true(r.id == 1 && !r.black_unsandboxed && !r.white_unsandboxed);
    assert_string_equal(r.black, "a");
    assert_int_equal(store_games_next(q, &r), 0);
    store_games_end(q);

    int64_t run = store_run_begin(s, "match", "new");
    assert_true(run > 1);
    assert_int_equal(store_run_unsandboxed(s, run, 2), 0);
    assert_int_equal(store_run_unsandboxed(s, run, 2), 0); /* again: nothing changes */
    assert_int_equal(scalar("SELECT count(*) FROM unsandboxed WHERE run_id = 2 AND agent_id = 2"), 1);
    assert_int_equal(scalar("SELECT count(*) FROM unsandboxed"), 1);
    assert_int_equal(store_run_unsandboxed(s, 99, 2), -1); /* no such run */
    assert_int_equal(store_run_unsandboxed(s, run, 99), -1); /* no such agent */
    store_close(s);

    /* opening it again migrates nothing */
    s = store_open(path, NULL, err, sizeof err);
    assert_non_null(s);
    assert_int_equal(scalar("SELECT count(*) FROM unsandboxed"), 1);
    store_close(s);
}

/* A database written by an arena of schema 4 (tests/schema_v4.h), with agents of ids 3 and 7 (random under one
 * name and hash, its command the latest seen), a league game between them and an unsandboxed row: opening it
 * keeps every id, game and reference, and then one name and hash with another command line is another agent. */
static void schema_4_database_is_migrated(void **state)
{
    (void)state;
    sqlite3 *d;
    assert_int_equal(sqlite3_open(path, &d), SQLITE_OK);
    char *msg = NULL;
    if (sqlite3_exec(d, SCHEMA_V2, NULL, NULL, &msg) != SQLITE_OK ||
        sqlite3_exec(d, SCHEMA_V3_AFTER_V2, NULL, NULL, &msg) != SQLITE_OK ||
        sqlite3_exec(d, SCHEMA_V4_AFTER_V3, NULL, NULL, &msg) != SQLITE_OK ||
        sqlite3_exec(d,
                     "INSERT INTO agents (id, name, command, version, sha256, first_seen) VALUES"
                     " (3, 'random', 'bin/random --seed 2', '1.0', 'aa', '2026-01-01T00:00:00.000Z'),"
                     " (7, 'bridge', 'bin/bridge', '0.3', 'bb', '2026-01-02T00:00:00.000Z');"
                     "INSERT INTO runs (id, kind, description, secret) VALUES (1, 'league', 'old', x'0011');"
                     "INSERT INTO leagues (id, name, config, config_sha256, seed) VALUES (1, 'old', '[league]', 'h', 5);"
                     "INSERT INTO schedule (id, league_id, n, variant, rows, cols, black, white, seed)"
                     " VALUES (1, 1, 0, 'classical', 2, 2, 'random', 'bridge', 11);"
                     "INSERT INTO games (id, run_id, variant, rows, cols, black, white, seed, winner, reason, attempts,"
                     " seconds, started, finished, schedule_id) VALUES (1, 1, 'classical', 2, 2, 3, 7, 11, 'W',"
                     " 'connected', 1, 0.5, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:01.000Z', 1);"
                     "INSERT INTO attempts (game_id, n, player, cell, outcome) VALUES (1, 1, 'B', 'a1', 'placed');"
                     "UPDATE schedule SET game_id = 1 WHERE id = 1;"
                     "INSERT INTO unsandboxed (run_id, agent_id) VALUES (1, 7);",
                     NULL, NULL, &msg) != SQLITE_OK)
        fail_msg("making a schema-4 database: %s", msg ? msg : "?");
    sqlite3_close(d);
    assert_int_equal(scalar("PRAGMA user_version"), 4);

    store_db *s = store_open(path, NULL, err, sizeof err);
    if (!s)
        fail_msg("%s", err);
    assert_int_equal(scalar("PRAGMA user_version"), STORE_SCHEMA_VERSION);
    assert_int_equal(scalar("SELECT count(*) FROM agents"), 2);
    assert_int_equal(scalar("SELECT count(*) FROM agents WHERE id = 3 AND name = 'random' AND command ="
                            " 'bin/random --seed 2' AND version = '1.0' AND sha256 = 'aa' AND first_seen ="
                            " '2026-01-01T00:00:00.000Z'"), 1);
    assert_int_equal(scalar("SELECT count(*) FROM agents WHERE id = 7 AND name = 'bridge'"), 1);
    assert_int_equal(scalar("SELECT count(*) FROM pragma_foreign_key_check"), 0);
    assert_int_equal(scalar("SELECT count(*) FROM sqlite_master WHERE name = 'agents_v5'"), 0);
    /* the new key: one name and program with another command line is another agent; the old setup is the old one */
    assert_int_equal(store_agent(s, "random", "bin/random --seed 2", "1.0", "aa"), 3);
    int64_t other = store_agent(s, "random", "bin/random --seed 1", "1.0", "aa");
    assert_true(other > 7);
    assert_int_equal(store_agent(s, "bridge", "bin/bridge", "0.4", "bb"), 7);

    store_games *q = store_query(s, &(store_filter){ 0 });
    assert_non_null(q);
    store_game_row r;
    assert_int_equal(store_games_next(q, &r), 1);
    assert_true(r.id == 1 && r.black_id == 3 && r.white_id == 7 && r.league == 1 && r.winner == HX_WHITE);
    assert_true(!r.black_unsandboxed && r.white_unsandboxed);
    assert_string_equal(r.black, "random");
    assert_string_equal(r.black_label, "random");
    assert_string_equal(r.white_sha256, "bb");
    assert_int_equal(store_games_next(q, &r), 0);
    store_games_end(q);
    store_transcript *t = store_transcript_open(s, 1);
    store_attempt_row at;
    assert_int_equal(store_transcript_next(t, &at), 1);
    assert_string_equal(at.cell, "a1");
    store_transcript_end(t);
    store_close(s);

    /* foreign keys are on again after the migration: a game of a missing agent is refused */
    s = store_open(path, NULL, err, sizeof err);
    assert_non_null(s);
    hx_game g;
    start(&g, HX_CLASSICAL, 2, 2, 0);
    play(&g, "a1", NULL);
    store_game_rec rec = { .run = 1, .black = 3, .white = 999, .seed = 1, .winner = HX_BLACK,
                           .reason = HX_END_ILLEGAL, .seconds = 0.1, .started = "x", .finished = "y", .game = &g };
    assert_true(store_game(s, &rec) < 0);
    store_close(s);
}

static void newer_schema_is_refused(void **state)
{
    (void)state;
    store_db *s = store_open(path, NULL, err, sizeof err);
    assert_non_null(s);
    store_close(s);
    sqlite3 *d;
    assert_int_equal(sqlite3_open(path, &d), SQLITE_OK);
    assert_int_equal(sqlite3_exec(d, "PRAGMA user_version = 99", NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_exec(d, "PRAGMA journal_mode = DELETE", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(d);
    struct stat before, after;
    assert_int_equal(stat(path, &before), 0);
    bool bad = false;
    assert_null(store_open(path, &bad, err, sizeof err));
    assert_non_null(strstr(err, "schema 99 is newer"));
    assert_true(bad);
    assert_int_equal(stat(path, &after), 0); /* not even switched to WAL */
    assert_true(before.st_size == after.st_size && before.st_mtim.tv_sec == after.st_mtim.tv_sec &&
                before.st_mtim.tv_nsec == after.st_mtim.tv_nsec);
}

static void garbage_file_is_refused(void **state)
{
    (void)state;
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("this is not a database, just some text long enough to fill a header page ..........", f);
    fclose(f);
    bool bad = false;
    assert_null(store_open(path, &bad, err, sizeof err));
    assert_non_null(strstr(err, path));
    assert_true(bad);
}

/* Another program's SQLite database is not changed in any way: no arena tables, no WAL. */
static void foreign_database_is_refused(void **state)
{
    (void)state;
    sqlite3 *d;
    assert_int_equal(sqlite3_open(path, &d), SQLITE_OK);
    assert_int_equal(sqlite3_exec(d, "CREATE TABLE notes (x); CREATE TABLE people (y);", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(d);
    struct stat before, after;
    assert_int_equal(stat(path, &before), 0);
    bool bad = false;
    assert_null(store_open(path, &bad, err, sizeof err));
    assert_true(bad);
    if (!strstr(err, path) || !strstr(err, "not an arena database (it has tables notes, people"))
        fail_msg("%s", err);
    assert_int_equal(stat(path, &after), 0);
    assert_true(before.st_size == after.st_size && before.st_mtim.tv_sec == after.st_mtim.tv_sec &&
                before.st_mtim.tv_nsec == after.st_mtim.tv_nsec);
    assert_int_equal(scalar("SELECT count(*) FROM sqlite_master"), 2);
    assert_int_equal(scalar("PRAGMA user_version"), 0);
    /* a schema version of its own, without the arena's tables, is not ours either */
    assert_int_equal(sqlite3_open(path, &d), SQLITE_OK);
    assert_int_equal(sqlite3_exec(d, "PRAGMA user_version = 3", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(d);
    assert_null(store_open(path, &bad, err, sizeof err));
    assert_true(bad);
    assert_non_null(strstr(err, "not an arena database (schema version 3, but no arena tables)"));
    assert_int_equal(scalar("SELECT count(*) FROM sqlite_master"), 2);
}

/* Writes `text` to the file at `file`; false when it cannot. */
static bool put_text(const char *file, const char *text)
{
    FILE *f = fopen(file, "w");
    if (!f)
        return false;
    bool ok = fputs(text, f) >= 0;
    return fclose(f) == 0 && ok;
}

/* A write that fills the disk is reported as a full disk, with the path, not as the rollback's error ("cannot
 * rollback - no transaction is active"). The disk: a 256 KiB tmpfs (the migrations leave the database, its
 * WAL and its shared memory at 168 KiB), mounted in a user and mount namespace of a
 * child process of its own (no root needed; skipped where unprivileged user namespaces are not allowed). */
static void full_disk_is_named(void **state)
{
    (void)state;
    char dir[64];
    snprintf(dir, sizeof dir, "/tmp/arena-test-full-%d", (int)getpid());
    assert_int_equal(mkdir(dir, 0700), 0);
    uid_t uid = getuid();
    gid_t gid = getgid();
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        char map[64];
        if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0)
            _exit(77);
        snprintf(map, sizeof map, "0 %d 1\n", (int)uid);
        if (!put_text("/proc/self/setgroups", "deny") || !put_text("/proc/self/uid_map", map))
            _exit(77);
        snprintf(map, sizeof map, "0 %d 1\n", (int)gid);
        if (!put_text("/proc/self/gid_map", map) || mount("none", dir, "tmpfs", 0, "size=256k") != 0)
            _exit(77);
        char db[128], why[600];
        snprintf(db, sizeof db, "%s/full.db", dir);
        store_db *s = store_open(db, NULL, why, sizeof why);
        if (!s) {
            fprintf(stderr, "store_open: %s\n", why);
            _exit(1);
        }
        static store_planned plan[5000];
        for (int i = 0; i < 5000; i++)
            plan[i] = (store_planned){ .n = i, .variant = HX_CLASSICAL, .rows = 3, .cols = 3, .black = "a",
                                       .white = "b", .seed = (uint64_t)i };
        int64_t league = store_league_create(s, "full", "[league]", "sha", 1, plan, 5000);
        const char *e = store_error(s);
        if (league >= 0 || !strstr(e, "disk full: ") || !strstr(e, db) || !strstr(e, "database or disk is full")) {
            fprintf(stderr, "league %lld, store_error: \"%s\"\n", (long long)league, e);
            _exit(1);
        }
        store_close(s);
        _exit(0);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    rmdir(dir);
    assert_true(WIFEXITED(status));
    if (WEXITSTATUS(status) == 77)
        skip();
    assert_int_equal(WEXITSTATUS(status), 0);
}

/* Stores one finished game of `moves` on a fresh board; returns its id. */
static int64_t put_game(store_db *s, int64_t run, int64_t black, int64_t white, hx_variant v, int rows, int cols,
                        unsigned flags, const char *moves, hx_end_reason reason, const char *finished,
                        int64_t schedule)
{
    hx_game g;
    start(&g, v, rows, cols, flags);
    play(&g, moves, NULL);
    int winner = reason == HX_END_CONNECTED ? hx_winner(&g) : HX_WHITE;
    store_game_rec rec = { .run = run, .black = black, .white = white, .seed = 5, .winner = winner,
                           .reason = reason, .detail = reason == HX_END_CONNECTED ? NULL : "b2: off, \"quoted\"",
                           .seconds = 0.5, .started = finished, .finished = finished, .game = &g,
                           .schedule = schedule };
    int64_t id = store_game(s, &rec);
    assert_true(id > 0);
    return id;
}

/* The ids of the games f selects, in order, as "3 2 1". */
static const char *ids(store_db *s, store_filter f)
{
    static char out[256];
    out[0] = '\0';
    store_games *q = store_query(s, &f);
    assert_non_null(q);
    store_game_row row;
    int rc;
    while ((rc = store_games_next(q, &row)) == 1)
        snprintf(out + strlen(out), sizeof out - strlen(out), "%s%lld", out[0] ? " " : "", (long long)row.id);
    assert_int_equal(rc, 0);
    store_games_end(q);
    return out;
}

/* Schema 7: each attempt's thinking time (NULL for the referee's opening and where not measured) and the night a
 * league belongs to (set once; without one, the day it was created). */
static void thinking_times_and_nights_are_stored(void **state)
{
    (void)state;
    store_db *s = store_open(path, NULL, err, sizeof err);
    assert_non_null(s);
    int64_t a = store_agent(s, "alpha", "bin/a", "1", "aa"), b = store_agent(s, "beta", "bin/b", "1", "bb");
    int64_t run = store_run_begin(s, "match", "alpha vs beta");
    hx_game g;
    start(&g, HX_CLASSICAL, 2, 2, 0);
    play(&g, "a1 a1 b2 b2 b1 b1 a2", NULL);
    const double think[7] = { -1, 2.5, NAN, 4.0, 0.0, -0.5, 1e3 };
    char t0[32];
    iso_now(t0);
    store_game_rec rec = { .run = run, .black = a, .white = b, .seed = 7, .winner = hx_winner(&g),
                           .reason = HX_END_CONNECTED, .seconds = 0.1, .started = t0, .finished = t0, .game = &g,
                           .think_ms = think };
    int64_t id = store_game(s, &rec);
    assert_true(id > 0);
    rec.think_ms = NULL; /* not measured at all */
    int64_t id2 = store_game(s, &rec);
    assert_true(id2 > 0);
    store_transcript *t = store_transcript_open(s, id);
    assert_non_null(t);
    store_attempt_row row;
    const double want[7] = { NAN, 2.5, NAN, 4.0, 0.0, NAN, 1e3 };
    int n = 0;
    while (store_transcript_next(t, &row) == 1) {
        assert_true(n < 7);
        if (isnan(want[n]))
            assert_true(isnan(row.ms));
        else
            assert_true(row.ms == want[n]);
        n++;
    }
    store_transcript_end(t);
    assert_int_equal(n, 7);
    assert_int_equal(scalar("SELECT count(*) FROM attempts WHERE ms IS NULL"), 3 + 7);

    store_planned plan = { .n = 0, .variant = HX_CLASSICAL, .rows = 2, .cols = 2, .black = "alpha", .white = "beta" };
    int64_t l1 = store_league_create(s, "nightly", "", "h", 1, &plan, 1);
    assert_true(l1 > 0);
    store_league_row lr;
    assert_int_equal(store_league_get(s, l1, &lr), 1);
    char today[11];
    snprintf(today, sizeof today, "%.10s", t0);
    assert_string_equal(lr.night, today); /* none given: the day it was created */
    assert_int_equal(store_league_night(s, l1, "2026-11-20"), 0);
    assert_int_equal(store_league_night(s, l1, "2026-11-21"), 0); /* a resumed league keeps its first night */
    assert_int_equal(store_league_get(s, l1, &lr), 1);
    assert_string_equal(lr.night, "2026-11-20");
    store_close(s);
}

/* The database opened, two agents and a run stored, and *rec a won hex game of theirs (*g) without clocks. */
static store_db *open_with_game(hx_game *g, store_game_rec *rec)
{
    store_db *s = store_open(path, NULL, err, sizeof err);
    assert_non_null(s);
    int64_t a = store_agent(s, "alpha", "bin/a", "1", "aa"), b = store_agent(s, "beta", "bin/b", "1", "bb");
    int64_t run = store_run_begin(s, "match", "alpha vs beta");
    start(g, HX_HEX, 2, 2, 0);
    play(g, "a1 b1 a2", NULL);
    *rec = (store_game_rec){ .run = run, .black = a, .white = b, .seed = 7, .winner = hx_winner(g),
                             .reason = HX_END_CONNECTED, .seconds = 0.1, .started = "t", .finished = "t", .game = g };
    return s;
}

/* A game's clocks: stored per player (time control, time left) and read back; a game without clocks has NULLs
 * ("" and -1 on the read side). */
static void clocks_are_stored(void **state)
{
    (void)state;
    hx_game g;
    store_game_rec rec;
    store_db *s = open_with_game(&g, &rec);
    rec.time_control[0] = "40/60+0.5", rec.time_control[1] = "30+1";
    rec.clock_ms[0] = 58250, rec.clock_ms[1] = 0;
    int64_t id = store_game(s, &rec);
    assert_true(id > 0);
    rec.time_control[0] = rec.time_control[1] = NULL;
    int64_t plain = store_game(s, &rec);
    assert_true(plain > id);
    rec.time_control[1] = "10"; /* time odds: one player with a clock */
    rec.clock_ms[1] = 9000;
    int64_t odds = store_game(s, &rec);
    assert_int_equal(scalar("SELECT count(*) FROM games WHERE black_tc = '40/60+0.5' AND black_clock_ms = 58250"
                            " AND white_tc = '30+1' AND white_clock_ms = 0"), 1);
    assert_int_equal(scalar("SELECT count(*) FROM games WHERE black_tc IS NULL AND black_clock_ms IS NULL"), 2);
    store_games *q = store_query(s, &(store_filter){ 0 });
    assert_non_null(q);
    store_game_row r;
    assert_int_equal(store_games_next(q, &r), 1);
    assert_true(r.id == id && r.black_clock_ms == 58250 && r.white_clock_ms == 0);
    assert_string_equal(r.black_tc, "40/60+0.5");
    assert_string_equal(r.white_tc, "30+1");
    assert_int_equal(store_games_next(q, &r), 1);
    assert_true(r.id == plain && r.black_clock_ms == -1 && r.white_clock_ms == -1);
    assert_string_equal(r.black_tc, "");
    assert_string_equal(r.white_tc, "");
    assert_int_equal(store_games_next(q, &r), 1);
    assert_true(r.id == odds && r.black_clock_ms == -1 && r.white_clock_ms == 9000);
    assert_string_equal(r.white_tc, "10");
    store_games_end(q);
    store_close(s);
}

/* The database at `path` with one game stored (as open_with_game() makes it), closed. */
static void stored_game(hx_game *g, store_game_rec *rec)
{
    store_db *s = open_with_game(g, rec);
    assert_true(store_game(s, rec) > 0);
    store_close(s);
}

/* A database of schema 9 (this schema without the clock columns, which are all 10 added, and the indexes 11
 * added) with a game: opening it adds the columns, keeps the game (no clocks) and stores clocks after. */
static void schema_9_database_is_migrated(void **state)
{
    (void)state;
    hx_game g;
    store_game_rec rec;
    stored_game(&g, &rec);
    sqlite3 *d;
    char *msg = NULL;
    assert_int_equal(sqlite3_open(path, &d), SQLITE_OK);
    if (sqlite3_exec(d, "ALTER TABLE games DROP COLUMN black_tc; ALTER TABLE games DROP COLUMN white_tc;"
                        "ALTER TABLE games DROP COLUMN black_clock_ms; ALTER TABLE games DROP COLUMN white_clock_ms;"
                        "DROP INDEX games_by_black; DROP INDEX games_by_white; DROP INDEX games_by_pairing;"
                        "PRAGMA user_version = 9;", NULL, NULL, &msg) != SQLITE_OK)
        fail_msg("making a schema-9 database: %s", msg ? msg : "?");
    sqlite3_close(d);
    assert_int_equal(scalar("SELECT count(*) FROM pragma_table_info('games') WHERE name LIKE '%_tc'"), 0);

    store_db *s = store_open(path, NULL, err, sizeof err);
    if (!s)
        fail_msg("%s", err);
    assert_int_equal(scalar("PRAGMA user_version"), STORE_SCHEMA_VERSION);
    assert_int_equal(scalar("SELECT count(*) FROM games WHERE black_tc IS NULL AND white_clock_ms IS NULL"), 1);
    rec.time_control[0] = rec.time_control[1] = "1.5+0.1";
    rec.clock_ms[0] = 1200, rec.clock_ms[1] = 1300;
    assert_true(store_game(s, &rec) > 0);
    assert_int_equal(scalar("SELECT count(*) FROM games WHERE black_tc = '1.5+0.1' AND white_clock_ms = 1300"), 1);
    store_close(s);
}

static void read_side_selects_and_types_rows(void **state)
{
    (void)state;
    store_db *s = store_open(path, NULL, err, sizeof err);
    assert_non_null(s);
    int64_t a = store_agent(s, "alpha", "bin/a", "1", "aaaaaaaaaa"), b = store_agent(s, "beta", "bin/b", "1", "bbbb");
    int64_t match = store_run_begin(s, "match", "alpha vs beta"), lrun = store_run_begin(s, "league", "l");
    store_planned plan[2] = { { .n = 0, .variant = HX_CLASSICAL, .rows = 2, .cols = 2, .black = "alpha",
                                .white = "beta" },
                              { .n = 0, .variant = HX_CLASSICAL, .rows = 2, .cols = 2, .black = "beta",
                                .white = "alpha" } };
    int64_t l1 = store_league_create(s, "weekly", "", "h1", 1, &plan[0], 1);
    int64_t l2 = store_league_create(s, "weekly", "", "h2", 1, &plan[1], 1);
    int64_t l3 = store_league_create(s, "12", "", "h3", 1, &plan[0], 1);
    assert_true(l1 > 0 && l2 > l1 && l3 > l2);
    int64_t sched[3];
    for (int k = 0; k < 3; k++) {
        store_planned *p;
        int n, total;
        assert_int_equal(store_league_pending(s, (int64_t[]){ l1, l2, l3 }[k], &p, &n, &total), 0);
        assert_int_equal(n, 1);
        sched[k] = p[0].id;
        free(p);
    }
    int64_t g1 = put_game(s, match, a, b, HX_HEX, 3, 3, HX_SWAP_RULE, "b2 swap", HX_END_TIMEOUT,
                          "2026-01-01T00:00:00.000Z", 0);
    int64_t g2 = put_game(s, lrun, a, b, HX_CLASSICAL, 2, 2, 0, "a1 a1 b2 b2 b1 b1 a2", HX_END_CONNECTED,
                          "2026-02-01T00:00:00.000Z", sched[0]);
    int64_t g3 = put_game(s, lrun, b, a, HX_CLASSICAL, 2, 2, 0, "a1 a1 b2 b2 b1 b1 a2", HX_END_CONNECTED,
                          "2026-03-01T00:00:00.000Z", sched[1]);
    int64_t g4 = put_game(s, lrun, a, b, HX_CLASSICAL, 2, 2, 0, "a2", HX_END_ILLEGAL, "2026-04-01T00:00:00.000Z",
                          sched[2]);
    assert_int_equal(store_run_unsandboxed(s, lrun, b), 0); /* beta played the league's games without a sandbox */
    char want[64];

    /* every game, oldest first, typed */
    store_games *q = store_query(s, &(store_filter){ 0 });
    assert_non_null(q);
    store_game_row r;
    assert_int_equal(store_games_next(q, &r), 1);
    assert_true(r.id == g1 && r.run == match && r.black_id == a && r.white_id == b && r.league == 0);
    assert_string_equal(r.run_kind, "match");
    assert_string_equal(r.variant, "hex");
    assert_true(r.rows == 3 && r.cols == 3 && r.swap && r.seed == 5 && r.attempts == 2 && r.seconds == 0.5);
    assert_string_equal(r.black, "alpha");
    assert_string_equal(r.black_label, "alpha"); /* the only agent of its name */
    assert_string_equal(r.white_sha256, "bbbb");
    assert_int_equal(r.winner, HX_WHITE);
    assert_string_equal(r.reason, "timeout");
    assert_string_equal(r.detail, "b2: off, \"quoted\"");
    assert_string_equal(r.finished, "2026-01-01T00:00:00.000Z");
    assert_string_equal(r.league_name, "");
    assert_true(!r.black_unsandboxed && !r.white_unsandboxed); /* the match: both sandboxed */
    assert_int_equal(store_games_next(q, &r), 1);
    assert_true(r.id == g2 && r.league == l1 && !r.swap && r.winner == HX_WHITE);
    assert_true(!r.black_unsandboxed && r.white_unsandboxed); /* beta is White */
    assert_string_equal(r.league_name, "weekly");
    assert_string_equal(r.detail, "");
    assert_int_equal(store_games_next(q, &r), 1);
    assert_true(r.id == g3 && r.black_unsandboxed && !r.white_unsandboxed); /* beta is Black */
    assert_int_equal(store_games_next(q, &r), 1);
    assert_int_equal(store_games_next(q, &r), 0);
    store_games_end(q);

    /* each filter */
    snprintf(want, sizeof want, "%lld %lld %lld %lld", (long long)g4, (long long)g3, (long long)g2, (long long)g1);
    assert_string_equal(ids(s, (store_filter){ .newest_first = true }), want);
    snprintf(want, sizeof want, "%lld %lld", (long long)g4, (long long)g3);
    assert_string_equal(ids(s, (store_filter){ .newest_first = true, .limit = 2 }), want);
    snprintf(want, sizeof want, "%lld", (long long)g3);
    assert_string_equal(ids(s, (store_filter){ .game = g3 }), want);
    assert_string_equal(ids(s, (store_filter){ .league = l2 }), want);
    snprintf(want, sizeof want, "%lld", (long long)g1);
    assert_string_equal(ids(s, (store_filter){ .run = match }), want);
    assert_string_equal(ids(s, (store_filter){ .by_variant = true, .variant = HX_HEX }), want);
    assert_string_equal(ids(s, (store_filter){ .rows = 3, .cols = 3 }), want);
    assert_string_equal(ids(s, (store_filter){ .reason = "timeout" }), want);
    assert_string_equal(ids(s, (store_filter){ .by_variant = true, .variant = HX_ABRUPT }), "");
    assert_string_equal(ids(s, (store_filter){ .agent = "gamma" }), "");
    snprintf(want, sizeof want, "%lld %lld", (long long)g1, (long long)g4);
    assert_string_equal(ids(s, (store_filter){ .reason = "forfeit" }), want);
    snprintf(want, sizeof want, "%lld %lld", (long long)g3, (long long)g4);
    assert_string_equal(ids(s, (store_filter){ .since = "2026-03" }), want);
    snprintf(want, sizeof want, "%lld %lld", (long long)g2, (long long)g3);
    assert_string_equal(ids(s, (store_filter){ .league = l1, .league_series = true }), want);
    assert_string_equal(ids(s, (store_filter){ .agent = "beta", .league = l2, .league_series = true,
                                               .by_variant = true, .variant = HX_CLASSICAL, .rows = 2, .cols = 2 }),
                        want);
    snprintf(want, sizeof want, "%lld %lld %lld", (long long)g2, (long long)g3, (long long)g4);
    assert_string_equal(ids(s, (store_filter){ .league_series = true }), want);

    /* two agents of one name (another setup of alpha): labelled NAME#ID where both are selected, else NAME */
    int64_t a2 = store_agent(s, "alpha", "bin/a --fast", "1", "aaaaaaaaaa");
    int64_t g5 = put_game(s, match, a2, a, HX_HEX, 3, 3, 0, "a1", HX_END_ILLEGAL, "2026-05-01T00:00:00.000Z", 0);
    char la[32], la2[32];
    snprintf(la, sizeof la, "alpha#%lld", (long long)a);
    snprintf(la2, sizeof la2, "alpha#%lld", (long long)a2);
    q = store_query(s, &(store_filter){ .run = match });
    assert_non_null(q);
    assert_int_equal(store_games_next(q, &r), 1);
    assert_true(r.id == g1);
    assert_string_equal(r.black_label, la);
    assert_string_equal(r.black, "alpha");
    assert_string_equal(r.white_label, "beta");
    assert_int_equal(store_games_next(q, &r), 1);
    assert_true(r.id == g5 && r.black_id == a2);
    assert_string_equal(r.black_label, la2);
    assert_string_equal(r.white_label, la);
    store_games_end(q);
    q = store_query(s, &(store_filter){ .game = g1 }); /* the other alpha is not in this selection */
    assert_int_equal(store_games_next(q, &r), 1);
    assert_string_equal(r.black_label, "alpha");
    store_games_end(q);
    snprintf(want, sizeof want, "%lld", (long long)g5);
    assert_string_equal(ids(s, (store_filter){ .agent = la2 }), want); /* a label selects that agent only */
    snprintf(want, sizeof want, "%lld %lld %lld %lld %lld", (long long)g1, (long long)g2, (long long)g3, (long long)g4,
             (long long)g5);
    assert_string_equal(ids(s, (store_filter){ .agent = "alpha" }), want); /* a name, every agent of it */

    /* a transcript */
    store_transcript *t = store_transcript_open(s, g1);
    assert_non_null(t);
    store_attempt_row at;
    assert_int_equal(store_transcript_next(t, &at), 1);
    assert_true(at.n == 1 && at.player == HX_BLACK);
    assert_string_equal(at.cell, "b2");
    assert_string_equal(at.outcome, "placed");
    assert_int_equal(store_transcript_next(t, &at), 1);
    assert_true(at.n == 2 && at.player == HX_WHITE);
    assert_string_equal(at.cell, "swap");
    assert_string_equal(at.outcome, "swap");
    assert_int_equal(store_transcript_next(t, &at), 0);
    store_transcript_end(t);
    t = store_transcript_open(s, 999);
    assert_non_null(t);
    assert_int_equal(store_transcript_next(t, &at), 0);
    store_transcript_end(t);

    /* leagues by id or name: the newest of those that match */
    assert_int_equal(store_league_find(s, "weekly"), l2);
    char text[32];
    snprintf(text, sizeof text, "%lld", (long long)l1);
    assert_int_equal(store_league_find(s, text), l1);
    assert_int_equal(store_league_find(s, "12"), l3);
    assert_int_equal(store_league_find(s, "nosuch"), 0);
    assert_int_equal(store_league_find(s, "99"), 0);
    store_league_row lr;
    assert_int_equal(store_league_get(s, 0, &lr), 1);
    assert_int_equal(lr.id, l3);
    assert_string_equal(lr.name, "12");
    assert_int_equal(store_league_get(s, l1, &lr), 1);
    assert_string_equal(lr.name, "weekly");
    assert_int_equal(store_league_get(s, 99, &lr), 0);
    store_close(s);
}

/* Runs one statement on the database at `path` over a connection of the test's own. */
static void exec_sql(const char *sql)
{
    sqlite3 *d;
    char *msg = NULL;
    assert_int_equal(sqlite3_open(path, &d), SQLITE_OK);
    if (sqlite3_exec(d, sql, NULL, NULL, &msg) != SQLITE_OK)
        fail_msg("%s: %s", sql, msg);
    sqlite3_close(d);
}

/* A schedule row whose variant this arena does not know (a newer arena's, or a hand-edited database) is refused
 * with the league, the row and the name, as the protocol refuses it; it is never played as another variant. */
static void unknown_variant_in_schedule_is_refused(void **state)
{
    (void)state;
    store_db *s = store_open(path, NULL, err, sizeof err);
    assert_non_null(s);
    int64_t a = store_agent(s, "alpha", "bin/a", "1", "aaaa"), b = store_agent(s, "beta", "bin/b", "1", "bbbb");
    int64_t run = store_run_begin(s, "league", "l");
    store_planned plan[2] = { { .n = 0, .variant = HX_CLASSICAL, .rows = 2, .cols = 2, .black = "alpha",
                                .white = "beta" },
                              { .n = 1, .variant = HX_CLASSICAL, .rows = 2, .cols = 2, .black = "beta",
                                .white = "alpha" } };
    int64_t league = store_league_create(s, "weekly", "", "h", 1, plan, 2);
    assert_true(league > 0);
    store_planned *p;
    int n, total;
    assert_int_equal(store_league_pending(s, league, &p, &n, &total), 0);
    assert_int_equal(n, 2);
    int64_t played = p[0].id, pending = p[1].id;
    free(p);
    put_game(s, run, a, b, HX_CLASSICAL, 2, 2, 0, "a1 a1 b2 b2 b1 b1 a2", HX_END_CONNECTED,
             "2026-02-01T00:00:00.000Z", played);
    store_close(s);

    char sql[200], want[200];
    snprintf(sql, sizeof sql, "UPDATE schedule SET variant = 'bogus' WHERE id = %lld", (long long)pending);
    exec_sql(sql);
    s = store_open(path, NULL, err, sizeof err);
    assert_non_null(s);
    store_planned stale;
    p = &stale; /* set to NULL by the call */
    assert_int_equal(store_league_pending(s, league, &p, &n, &total), -1);
    assert_null(p);
    snprintf(want, sizeof want, "league %lld: schedule row %lld: unknown variant 'bogus'", (long long)league,
             (long long)pending);
    assert_string_equal(store_error(s), want);
    store_league_game *g;
    assert_int_equal(store_league_games(s, league, &g, &n), 0); /* the played row is still classical */
    assert_int_equal(n, 1);
    assert_int_equal(g[0].variant, HX_CLASSICAL);
    free(g);
    store_close(s);

    snprintf(sql, sizeof sql, "UPDATE schedule SET variant = 'dark-chess' WHERE id = %lld", (long long)played);
    exec_sql(sql);
    s = store_open(path, NULL, err, sizeof err);
    assert_non_null(s);
    assert_int_equal(store_league_games(s, league, &g, &n), -1);
    assert_null(g);
    snprintf(want, sizeof want, "league %lld: schedule row %lld: unknown variant 'dark-chess'", (long long)league,
             (long long)played);
    assert_string_equal(store_error(s), want);
    store_close(s);
}

/* Two leagues: one played out two days ago, one with a game now and a row to play (running). */
static void browse_lists_leagues_and_games(void **state)
{
    (void)state;
    store_db *s = store_open(path, NULL, err, sizeof err);
    assert_non_null(s);
    int64_t a = store_agent(s, "alpha", "bin/a", "1", "aaaa"), b = store_agent(s, "beta", "bin/b", "1", "bbbb");
    int64_t c = store_agent(s, "gamma", "bin/c", "1", "cccc");
    int64_t run = store_run_begin(s, "league", "l");
    store_planned plan[2] = { { .n = 0, .variant = HX_CLASSICAL, .rows = 2, .cols = 2, .black = "alpha",
                                .white = "beta" },
                              { .n = 1, .variant = HX_CLASSICAL, .rows = 2, .cols = 2, .black = "beta",
                                .white = "gamma" } };
    int64_t old = store_league_create(s, "old", "", "h", 1, plan, 2), now = store_league_create(s, "now", "", "h", 2, plan, 2);
    store_planned *p;
    int n, total;
    assert_int_equal(store_league_pending(s, old, &p, &n, &total), 0);
    put_game(s, run, a, b, HX_CLASSICAL, 2, 2, 0, "a1 a1 b2 b2 b1 b1 a2", HX_END_CONNECTED, "2020-01-01T00:00:00.000Z",
             p[0].id);
    put_game(s, run, b, c, HX_CLASSICAL, 2, 2, 0, "a1", HX_END_CRASH, "2020-01-01T00:01:00.000Z", p[1].id);
    free(p);
    char stamp[ISO_LEN];
    iso_now(stamp);
    assert_int_equal(store_league_pending(s, now, &p, &n, &total), 0);
    int64_t newest = put_game(s, run, a, b, HX_CLASSICAL, 2, 2, 0, "a1 a1 b2 b2 b1 b1 a2", HX_END_CONNECTED, stamp,
                              p[0].id);
    free(p);
    store_close(s);

    s = store_open_readonly(path, err, sizeof err);
    assert_non_null(s);
    store_league_brief *l;
    assert_int_equal(store_leagues_running(s, 600, 16, &l, &n), 0);
    assert_int_equal(n, 1);
    assert_int_equal(l[0].id, now);
    assert_int_equal(l[0].planned, 2);
    assert_int_equal(l[0].played, 1);
    free(l);
    assert_int_equal(store_leagues_recent(s, 16, &l, &n), 0);
    assert_int_equal(n, 2);
    assert_int_equal(l[0].id, now); /* newest first */
    assert_int_equal(l[1].id, old);
    assert_int_equal(l[1].played, 2);
    assert_int_equal(l[1].forfeits, 1);
    assert_string_equal(l[1].last_finished, "2020-01-01T00:01:00.000Z");
    free(l);
    store_game_brief *g;
    store_brief_filter f = { .league = old, .limit = 50 };
    assert_int_equal(store_games_brief(s, &f, &g, &n), 0);
    assert_int_equal(n, 2);
    assert_string_equal(g[0].reason, "crash"); /* newest schedule position first */
    assert_int_equal(g[0].league, old);
    free(g);
    f = (store_brief_filter){ .agent = b, .opponent = a, .limit = 50 };
    assert_int_equal(store_games_brief(s, &f, &g, &n), 0);
    assert_int_equal(n, 2);
    assert_int_equal(g[0].id, newest);
    free(g);
    f = (store_brief_filter){ .agent = c, .limit = 1 };
    assert_int_equal(store_games_brief(s, &f, &g, &n), 0);
    assert_int_equal(n, 1);
    assert_string_equal(g[0].black_name, "beta");
    free(g);
    /* it writes nothing */
    assert_int_equal(store_run_begin(s, "match", "x"), -1);
    assert_non_null(strstr(store_error(s), "readonly"));
    store_deadline(s, 0);
    store_close(s);
    assert_int_equal(scalar("SELECT count(*) FROM runs"), 1);
    /* an older schema is not migrated by it: refused */
    char older[64];
    snprintf(older, sizeof older, "PRAGMA user_version = %d", STORE_SCHEMA_VERSION - 1);
    exec_sql(older);
    assert_null(store_open_readonly(path, err, sizeof err));
    assert_non_null(strstr(err, "older than this arena's"));
}

/* A database of schema 10 (this schema without the indexes of games by player, which 11 adds) with a game:
 * opening it makes them and keeps the game; the server's read-only connection refuses it before. */
static void schema_10_database_is_migrated(void **state)
{
    (void)state;
    hx_game g;
    store_game_rec rec;
    stored_game(&g, &rec);
    exec_sql("DROP INDEX games_by_black; DROP INDEX games_by_white; DROP INDEX games_by_pairing;"
             "PRAGMA user_version = 10;");
    assert_null(store_open_readonly(path, err, sizeof err));
    store_db *s = store_open(path, NULL, err, sizeof err);
    if (!s)
        fail_msg("%s", err);
    store_close(s);
    assert_int_equal(scalar("PRAGMA user_version"), 11);
    assert_int_equal(scalar("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND tbl_name = 'games' AND name"
                            " IN ('games_by_black', 'games_by_white', 'games_by_pairing')"), 3);
    assert_int_equal(scalar("SELECT count(*) FROM games"), 1);
    s = store_open_readonly(path, err, sizeof err);
    assert_non_null(s);
    store_close(s);
}

/* The games of filter f as the arena read them before schema 11 (a scan of games, newest first), one line per
 * game: id, league, pair and the players' names; over a connection of the test's own. */
static char *brief_reference(const store_brief_filter *f)
{
    sqlite3 *d;
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_open_v2(path, &d, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(d,
                                        "SELECT g.id, COALESCE(c.league_id, 0), COALESCE(c.pair, -1), b.name, w.name"
                                        " FROM games g JOIN agents b ON b.id = g.black JOIN agents w ON w.id = g.white"
                                        " LEFT JOIN schedule c ON c.id = g.schedule_id WHERE (g.black = ?2 OR"
                                        " g.white = ?2) AND (?3 = 0 OR g.black = ?3 OR g.white = ?3)"
                                        " ORDER BY g.id DESC LIMIT ?4",
                                        -1, &st, NULL),
                     SQLITE_OK);
    sqlite3_bind_int64(st, 2, f->agent);
    sqlite3_bind_int64(st, 3, f->opponent);
    sqlite3_bind_int(st, 4, f->limit);
    size_t cap = 1 << 16, used = 0;
    char *out = malloc(cap);
    assert_non_null(out);
    out[0] = '\0';
    while (sqlite3_step(st) == SQLITE_ROW) {
        int k = snprintf(out + used, cap - used, "%lld %lld %d %s %s\n", (long long)sqlite3_column_int64(st, 0),
                         (long long)sqlite3_column_int64(st, 1), sqlite3_column_int(st, 2),
                         (const char *)sqlite3_column_text(st, 3), (const char *)sqlite3_column_text(st, 4));
        assert_true(k > 0 && (size_t)k < cap - used);
        used += (size_t)k;
    }
    sqlite3_finalize(st);
    sqlite3_close(d);
    return out;
}

/* The same lines from store_games_brief(). */
static char *brief_lines(store_db *s, const store_brief_filter *f)
{
    store_game_brief *g;
    int n;
    assert_int_equal(store_games_brief(s, f, &g, &n), 0);
    size_t cap = 1 << 16, used = 0;
    char *out = malloc(cap);
    assert_non_null(out);
    out[0] = '\0';
    for (int i = 0; i < n; i++) {
        int k = snprintf(out + used, cap - used, "%lld %lld %d %s %s\n", (long long)g[i].id, (long long)g[i].league,
                         g[i].pair, g[i].black_name, g[i].white_name);
        assert_true(k > 0 && (size_t)k < cap - used);
        used += (size_t)k;
    }
    free(g);
    return out;
}

/* How many lines of plan contain `what`. */
static int plan_lines(const char *plan, const char *what)
{
    int n = 0;
    for (const char *l = plan; *l;) {
        const char *end = strchr(l, '\n');
        size_t len = end ? (size_t)(end - l) : strlen(l);
        char line[256];
        snprintf(line, sizeof line, "%.*s", (int)len, l);
        n += strstr(line, what) != NULL;
        l += len + (end != NULL);
    }
    return n;
}

/* Asserts that the plan of f reads games only through the index(es) named (SEARCH, never a SCAN of games), merged
 * as a UNION, then each game by its id, and sorts nothing (no temporary b-tree: the merge and the list of ids
 * it gives are read in order). */
static void assert_indexed_plan(store_db *s, const store_brief_filter *f, const char *index1, const char *index2)
{
    char plan[4096], want[96];
    assert_int_equal(store_games_brief_plan(s, f, plan, sizeof plan), 0);
    snprintf(want, sizeof want, "SEARCH games USING COVERING INDEX %s", index1);
    assert_true(plan_lines(plan, want) >= 1);
    snprintf(want, sizeof want, "SEARCH games USING COVERING INDEX %s", index2);
    if (plan_lines(plan, want) < 1)
        fail_msg("no %s in the plan:\n%s", want, plan);
    assert_int_equal(plan_lines(plan, "MERGE (UNION)"), 1);
    assert_int_equal(plan_lines(plan, "SCAN games"), 0);
    assert_int_equal(plan_lines(plan, "SCAN g\n") + plan_lines(plan, "SCAN g "), 0);
    assert_int_equal(plan_lines(plan, "SEARCH g USING INTEGER PRIMARY KEY"), 1);
    if (plan_lines(plan, "TEMP B-TREE") > 0)
        fail_msg("a sort:\n%s", plan);
}

/* The newest games of an agent and of a pairing, read through the indexes of games by player: the same rows, in
 * the same order, as the scan of games that read them before, for every agent (one with two games, one with
 * none, one that played itself), every pairing (an agent against itself: all its games) and several limits. */
static void browse_agent_games_through_indexes(void **state)
{
    (void)state;
    store_db *s = store_open(path, NULL, err, sizeof err);
    assert_non_null(s);
    int64_t ag[5];
    const char *names[5] = { "alpha", "beta", "gamma", "delta", "lonely" };
    for (int i = 0; i < 5; i++) {
        char cmd[32], hash[32];
        snprintf(cmd, sizeof cmd, "bin/%s", names[i]);
        snprintf(hash, sizeof hash, "%02d%s", i, names[i]);
        ag[i] = store_agent(s, names[i], cmd, "1", hash);
        assert_true(ag[i] > 0);
    }
    int64_t run = store_run_begin(s, "league", "l");
    store_planned plan[6];
    for (int k = 0; k < 6; k++)
        plan[k] = (store_planned){ .n = k, .variant = HX_CLASSICAL, .rows = 2, .cols = 2, .black = "alpha",
                                   .white = "beta", .pair = k / 2 };
    int64_t league = store_league_create(s, "weekly", "", "h", 1, plan, 6);
    store_planned *p;
    int n, total;
    assert_int_equal(store_league_pending(s, league, &p, &n, &total), 0);
    assert_int_equal(n, 6);
    /* 80 games among alpha, beta and gamma (self-play included), the first 6 in the league; delta plays two */
    unsigned x = 12345;
    for (int i = 0; i < 80; i++) {
        x = x * 1103515245u + 12345u;
        int bl = (int)((x >> 16) % 3), wh = (int)((x >> 8) % 3);
        if (i == 7)
            bl = 3;
        if (i == 50)
            wh = 3;
        if (i == 20 || i == 21)
            wh = bl = 2; /* gamma against itself */
        put_game(s, run, ag[bl], ag[wh], HX_CLASSICAL, 2, 2, 0, "a1 a1 b2 b2 b1 b1 a2", HX_END_CONNECTED,
                 "2026-02-01T00:00:00.000Z", i < 6 ? p[i].id : 0);
    }
    free(p);
    store_close(s);
    assert_true(scalar("SELECT count(*) FROM games WHERE black = white AND black <> 3") >= 2);

    s = store_open_readonly(path, err, sizeof err);
    assert_non_null(s);
    int compared = 0;
    static const int limits[] = { 1, 7, 5000 };
    for (int a = 0; a < 5; a++)
        for (int o = -1; o < 5; o++)
            for (int l = 0; l < 3; l++) {
                store_brief_filter f = { .agent = ag[a], .opponent = o < 0 ? 0 : ag[o], .limit = limits[l] };
                char *want = brief_reference(&f), *got = brief_lines(s, &f);
                if (strcmp(want, got) != 0)
                    fail_msg("agent %s, opponent %s, limit %d:\nwanted\n%s\ngot\n%s", names[a],
                             o < 0 ? "any" : names[o], limits[l], want, got);
                compared += want[0] != '\0';
                free(want);
                free(got);
            }
    assert_true(compared >= 50); /* of the 90: lonely's 18 and most against delta or lonely are empty */
    /* gamma's games list its games against itself once */
    store_game_brief *g;
    assert_int_equal(store_games_brief(s, &(store_brief_filter){ .agent = ag[2], .limit = 5000 }, &g, &n), 0);
    assert_int_equal(n, scalar("SELECT count(*) FROM games WHERE black = 3 OR white = 3"));
    free(g);
    assert_int_equal(store_games_brief(s, &(store_brief_filter){ .agent = ag[3], .limit = 5000 }, &g, &n), 0);
    assert_int_equal(n, 2); /* delta's, newest first */
    assert_true(g[0].id > g[1].id && g[0].white == ag[3] && g[1].black == ag[3]);
    free(g);
    assert_indexed_plan(s, &(store_brief_filter){ .agent = ag[0], .limit = 5000 }, "games_by_black",
                        "games_by_white");
    assert_indexed_plan(s, &(store_brief_filter){ .agent = ag[3], .opponent = ag[0], .limit = 50 },
                        "games_by_pairing", "games_by_pairing");
    store_close(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(games_and_transcripts_are_stored, setup, teardown),
        cmocka_unit_test_setup_teardown(schema_2_database_is_migrated, setup, teardown),
        cmocka_unit_test_setup_teardown(schema_3_database_is_migrated, setup, teardown),
        cmocka_unit_test_setup_teardown(schema_4_database_is_migrated, setup, teardown),
        cmocka_unit_test_setup_teardown(newer_schema_is_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(garbage_file_is_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(foreign_database_is_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(full_disk_is_named, setup, teardown),
        cmocka_unit_test_setup_teardown(read_side_selects_and_types_rows, setup, teardown),
        cmocka_unit_test_setup_teardown(unknown_variant_in_schedule_is_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(thinking_times_and_nights_are_stored, setup, teardown),
        cmocka_unit_test_setup_teardown(clocks_are_stored, setup, teardown),
        cmocka_unit_test_setup_teardown(schema_9_database_is_migrated, setup, teardown),
        cmocka_unit_test_setup_teardown(browse_lists_leagues_and_games, setup, teardown),
        cmocka_unit_test_setup_teardown(schema_10_database_is_migrated, setup, teardown),
        cmocka_unit_test_setup_teardown(browse_agent_games_through_indexes, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
