/* tests/unit/test_store.c — the results database: migrations, agents by name and hash, games with their
 * transcripts, refusal of a newer schema. */
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store.h"
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

static int64_t scalar(hx_store *s, const char *sql)
{
    sqlite3_stmt *st;
    int64_t v = -1;
    assert_int_equal(sqlite3_prepare_v2(store_db(s), sql, -1, &st, NULL), SQLITE_OK);
    if (sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
}

static void games_and_transcripts_are_stored(void **state)
{
    (void)state;
    hx_store *s = store_open(path, NULL, err, sizeof err);
    if (!s)
        fail_msg("%s", err);
    assert_int_equal(scalar(s, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
    int64_t a = store_agent(s, "random", "bin/random", "1.0", "aa11");
    int64_t b = store_agent(s, "bridge", "bin/bridge", "0.3", "bb22");
    assert_true(a > 0 && b > 0 && a != b);
    assert_int_equal(store_agent(s, "random", "bin/random --seed 2", "1.0", "aa11"), a); /* same binary */
    assert_true(store_agent(s, "random", "bin/random", "1.1", "cc33") != a);           /* rebuilt: new id */
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

    assert_int_equal(scalar(s, "SELECT count(*) FROM attempts"), 7);
    assert_int_equal(scalar(s, "SELECT count(*) FROM attempts WHERE outcome = 'rejected'"), 3);
    assert_int_equal(scalar(s, "SELECT count(*) FROM games WHERE winner = 'W' AND attempts = 7 AND seed = 77"), 1);
    assert_int_equal(scalar(s, "SELECT count(*) FROM attempts WHERE n = 7 AND player = 'W' AND cell = 'a2'"), 1);
    assert_int_equal(scalar(s, "SELECT count(*) FROM runs WHERE finished IS NOT NULL"), 1);
    store_close(s);

    /* Reopening keeps everything and does not migrate twice. */
    s = store_open(path, NULL, err, sizeof err);
    assert_non_null(s);
    assert_int_equal(scalar(s, "SELECT count(*) FROM games"), 1);
    assert_int_equal(scalar(s, "SELECT count(*) FROM agents"), 3);
    store_close(s);
}

static void newer_schema_is_refused(void **state)
{
    (void)state;
    hx_store *s = store_open(path, NULL, err, sizeof err);
    assert_non_null(s);
    assert_int_equal(sqlite3_exec(store_db(s), "PRAGMA user_version = 99", NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_exec(store_db(s), "PRAGMA journal_mode = DELETE", NULL, NULL, NULL), SQLITE_OK);
    store_close(s);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(games_and_transcripts_are_stored, setup, teardown),
        cmocka_unit_test_setup_teardown(newer_schema_is_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(garbage_file_is_refused, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
