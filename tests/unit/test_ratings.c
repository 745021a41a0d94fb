/* tests/unit/test_ratings.c — the rating model recovers known ratings and first-move advantage from games drawn
 * from the model itself (true values inside the reported 95% intervals most of the time, over seeded
 * repetitions), keeps perfect scorers finite, says when a LOS is undefined (no bootstrap, no chain of games);
 * tables write NaN and infinity as JSON null, exact values in JSON and CSV, names as strings, RFC 4180 quoting;
 * and `arena ratings` / `arena matrix` print exactly the golden files in every format and scope (newest league
 * by default, --league, --run, --pool; tests/golden/; UPDATE_GOLDEN=1 rewrites them), every JSON output
 * parsing with a strict parser. */
#define _GNU_SOURCE
#include <math.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sqlite3.h>
#include <stdlib.h>

#include "bt.h"
#include "rng.h"
#include "store.h"
#include "tabulate.h"
#include "test_util.h"

static double uniform(rng_state *r)
{
    return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

static void recovers_true_ratings_and_advantage(void **state)
{
    (void)state;
    enum { N = 8, REPS = 10, GAMES = 100 };
    const double truth[N] = { -300, -200, -100, -50, 0, 60, 150, 440 }, adv = 80; /* mean 0: the anchor */
    int covered = 0, adv_covered = 0;
    double worst = 0;
    for (int rep = 0; rep < REPS; rep++) {
        rng_state rng;
        rng_seed(&rng, 100 + (uint64_t)rep);
        rt_data d;
        assert_int_equal(rt_data_init(&d, N, 1), 0);
        for (int b = 0; b < N; b++)
            for (int w = 0; w < N; w++) {
                if (b == w)
                    continue;
                double p = 1 / (1 + pow(10, -(truth[b] - truth[w] + adv) / 400));
                for (int k = 0; k < GAMES; k++) {
                    *rt_cell(&d, d.games, 0, b, w) += 1;
                    *rt_cell(&d, d.wins, 0, b, w) += uniform(&rng) < p;
                }
            }
        rt_options o = { .prior = 1, .anchor = -1, .bootstrap = 200, .seed = (uint64_t)rep };
        rt_fit f;
        assert_int_equal(rt_fit_all(&d, &o, &f), 0);
        for (int i = 0; i < N; i++) {
            covered += f.lo[i] <= truth[i] && truth[i] <= f.hi[i];
            worst = fmax(worst, fabs(f.elo[i] - truth[i]));
            assert_true(f.lo[i] < f.elo[i] && f.elo[i] < f.hi[i]);
        }
        adv_covered += f.adv_lo[0] <= adv && adv <= f.adv_hi[0];
        rt_fit_free(&f);
        rt_data_free(&d);
    }
    /* 95% intervals: expect about 76 of 80; far fewer means the intervals or the fit are wrong */
    if (covered < 68 || adv_covered < 8 || worst > 90)
        fail_msg("covered %d of %d ratings, %d of %d advantages; worst error %.0f Elo", covered, N * REPS,
                 adv_covered, REPS, worst);
}

static void perfect_scorers_stay_finite(void **state)
{
    (void)state;
    rt_data d;
    assert_int_equal(rt_data_init(&d, 3, 1), 0);
    for (int b = 0; b < 3; b++) /* player 0 wins all; 2 loses all; 1 splits */
        for (int w = 0; w < 3; w++)
            if (b != w) {
                *rt_cell(&d, d.games, 0, b, w) = 10;
                *rt_cell(&d, d.wins, 0, b, w) = b < w ? 10 : 0; /* the lower number always wins */
            }
    rt_options o = { .prior = 1, .anchor = 1, .bootstrap = 50, .seed = 3 };
    rt_fit f;
    assert_int_equal(rt_fit_all(&d, &o, &f), 0);
    assert_true(f.elo[1] == 0);
    assert_true(f.elo[0] > 300 && f.elo[0] < 2000);
    assert_true(f.elo[2] < -300 && f.elo[2] > -2000);
    assert_true(rt_los(&f, 3, 0, 1) > 0.95 && rt_los(&f, 3, 2, 1) < 0.05);
    rt_fit_free(&f);
    rt_data_free(&d);
}

/* LOS is undefined without resamples and between players no chain of games joins. */
static void los_undefined_cases(void **state)
{
    (void)state;
    rt_data d;
    assert_int_equal(rt_data_init(&d, 4, 2), 0);
    /* 0 and 1 meet in group 0; 2 and 3 in group 1, as Black only; nobody joins the two pairs */
    *rt_cell(&d, d.games, 0, 0, 1) = 10, *rt_cell(&d, d.wins, 0, 0, 1) = 7;
    *rt_cell(&d, d.games, 1, 3, 2) = 10, *rt_cell(&d, d.wins, 1, 3, 2) = 2;
    assert_true(rt_connected(&d, 0, 1) && rt_connected(&d, 1, 0) && rt_connected(&d, 2, 3));
    assert_false(rt_connected(&d, 0, 2) || rt_connected(&d, 3, 1));
    rt_options o = { .prior = 1, .anchor = 0, .bootstrap = 0, .seed = 1 };
    rt_fit f;
    assert_int_equal(rt_fit_all(&d, &o, &f), 0);
    assert_true(isnan(rt_los(&f, 4, 0, 1)));
    assert_true(isnan(f.lo[1]) && isnan(f.adv_hi[0]));
    rt_fit_free(&f);
    o.bootstrap = 20;
    assert_int_equal(rt_fit_all(&d, &o, &f), 0);
    double los = rt_los(&f, 4, 0, 1);
    assert_true(los >= 0 && los <= 1);
    rt_fit_free(&f);
    /* a game between 1 and 2 joins everyone */
    *rt_cell(&d, d.games, 1, 1, 2) = 1;
    assert_true(rt_connected(&d, 0, 3));
    rt_data_free(&d);
}

/* Runs `cmd` with `text` on its standard input; returns its exit status. */
static int pipe_to(const char *cmd, const char *text)
{
    FILE *p = popen(cmd, "w");
    assert_non_null(p);
    fputs(text, p);
    int rc = pclose(p);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

/* A strict JSON parser: NaN, Infinity and trailing garbage are errors. */
#define STRICT_JSON                                                                                               \
    "python3 -c 'import json,sys; json.loads(sys.stdin.read(), parse_constant=lambda c: sys.exit(\"bad \" + c))'"

static char *table_text(const tb_table *t, tb_format f)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_non_null(out);
    tb_write(out, t, f, true, true);
    assert_int_equal(fclose(out), 0);
    return text;
}

static void tables_write_exact_values_and_nulls(void **state)
{
    (void)state;
    tb_table t;
    tb_init(&t, "t", 4);
    tb_key_set(&t, "variant", "classical");
    tb_key_set(&t, "board", "");
    tb_column(&t, 0, "name", false);
    tb_column(&t, 1, "elo", true);
    tb_column(&t, 2, "+-", true);
    tb_column_csv(&t, 2, "plus_minus", false);
    tb_column(&t, 3, "lower", true);
    tb_column_csv(&t, 3, NULL, true);
    tb_row(&t);
    tb_set(&t, 0, "%s", "1e5");           /* a name that reads as a number stays a string */
    tb_set_real(&t, 1, 231.875, 0);
    tb_set_real(&t, 2, NAN, 0);
    tb_set_real(&t, 3, INFINITY, 0);
    tb_row(&t);
    tb_set(&t, 0, "%s", "a \"b\", c");    /* RFC 4180: quoted, quotes doubled */
    tb_set_real(&t, 1, -0.2, 0);          /* "0", not "-0", for people; exact in JSON */
    tb_set_real(&t, 2, -INFINITY, 1);
    t.json = strdup("\"extra\":{\"k\":1}");

    char *json = table_text(&t, TB_JSON);
    assert_non_null(strstr(json, "\"variant\":\"classical\",\"board\":null"));
    assert_non_null(strstr(json, "{\"name\":\"1e5\",\"elo\":231.875,\"+-\":null,\"lower\":null}"));
    assert_non_null(strstr(json, "\"elo\":-0.20000000000000001"));
    assert_non_null(strstr(json, ",\"extra\":{\"k\":1}}]"));
    assert_null(strstr(json, "nan"));
    assert_null(strstr(json, "inf"));
    assert_int_equal(pipe_to(STRICT_JSON, json), 0);
    assert_int_not_equal(pipe_to(STRICT_JSON " 2>/dev/null", "[NaN]"), 0); /* the parser is strict */
    free(json);

    char *csv = table_text(&t, TB_CSV);
    assert_string_equal(csv, "variant,board,name,elo,plus_minus,lower\n"
                             "classical,,1e5,231.875,,\n"
                             "classical,,\"a \"\"b\"\", c\",-0.20000000000000001,,\n");
    free(csv);

    char *text = table_text(&t, TB_TEXT); /* no machine column, rounded, no "-0" */
    assert_string_equal(text, "t\n"
                              "name      elo  +-\n"
                              "1e5       232    \n"
                              "a \"b\", c    0    \n");
    free(text);
    tb_free(&t);
}

static void store_one(store_db *s, int64_t run, int64_t black, int64_t white, uint64_t seed, double p, rng_state *rng,
                      const hx_game *g, int64_t schedule)
{
    store_game_rec rec = { .run = run, .black = black, .white = white, .seed = seed,
                           .winner = uniform(rng) < p ? HX_BLACK : HX_WHITE, .reason = HX_END_CONNECTED,
                           .seconds = 0.01, .started = "2026-11-01T00:00:00.000Z",
                           .finished = "2026-11-01T00:00:01.000Z", .game = g, .schedule = schedule };
    assert_true(store_game(s, &rec) > 0);
}

/* A small database with fixed games: three agents; classical 3x3 as league 1 and abrupt 3x3 as league 2,
 * both named "golden" (a rating history of two points), and four hex 3x3 games with the swap rule outside
 * any league (one of them swaps). */
static void make_db(const char *path)
{
    char err[256];
    unlink(path);
    store_db *s = store_open(path, NULL, err, sizeof err);
    assert_non_null(s);
    sqlite3 *d; /* the test's own connection, for what the store does not write */
    assert_int_equal(sqlite3_open(path, &d), SQLITE_OK);
    sqlite3_busy_timeout(d, 5000);
    int64_t run = store_run_begin(s, "match", "golden");
    static const char *const names[3] = { "random", "bridge", "cfr" };
    int64_t id[3] = { store_agent(s, "random", "bin/random", "1.0", "aaaa"),
                      store_agent(s, "bridge", "bin/bridge", "1.0", "bbbb"),
                      store_agent(s, "cfr", "bin/policy-bot", "1.0", "cccc") };
    rng_state rng;
    rng_seed(&rng, 42);
    const double strength[3] = { 0, 0.8, 1.5 };
    for (int v = 0; v < 2; v++) {
        store_planned plan[72];
        int n = 0;
        for (int b = 0; b < 3; b++)
            for (int w = 0; w < 3; w++)
                for (int k = 0; b != w && k < 12; k++, n++) {
                    plan[n] = (store_planned){ .n = n, .variant = v ? HX_ABRUPT : HX_CLASSICAL, .rows = 3, .cols = 3,
                                               .seed = (uint64_t)k };
                    snprintf(plan[n].black, sizeof plan[n].black, "%s", names[b]);
                    snprintf(plan[n].white, sizeof plan[n].white, "%s", names[w]);
                }
        int64_t league = store_league_create(s, "golden", "[league]\nname = golden\n", v ? "s2" : "s1", 1, plan, n);
        assert_true(league > 0);
        char sql[160];
        snprintf(sql, sizeof sql, "UPDATE leagues SET created = '2026-11-0%dT02:00:00.000Z' WHERE id = %lld", v + 1,
                 (long long)league);
        assert_int_equal(sqlite3_exec(d, sql, NULL, NULL, NULL), SQLITE_OK);
        store_planned *pending;
        int np, total;
        assert_int_equal(store_league_pending(s, league, &pending, &np, &total), 0);
        assert_int_equal(np, n);
        int i = 0;
        for (int b = 0; b < 3; b++)
            for (int w = 0; w < 3; w++)
                for (int k = 0; b != w && k < 12; k++, i++) {
                    hx_game g;
                    assert_int_equal(hx_new(&g, v ? HX_ABRUPT : HX_CLASSICAL, 3, 3, 0), 0);
                    while (!hx_over(&g))
                        hx_attempt(&g, hx_random_legal(&g, &rng));
                    double p = 1 / (1 + exp(-(strength[b] - strength[w] + 0.3)));
                    store_one(s, run, id[b], id[w], (uint64_t)k, p, &rng, &g, pending[i].id);
                }
        free(pending);
    }
    for (int k = 0; k < 4; k++) {
        hx_game g;
        assert_int_equal(hx_new(&g, HX_HEX, 3, 3, HX_SWAP_RULE), 0);
        if (k == 0) {
            hx_attempt(&g, hx_cell_parse("a2", 3, 3, &(const char *){ 0 }));
            assert_int_equal(hx_attempt(&g, HX_SWAP), HX_SWAPPED);
        }
        while (!hx_over(&g))
            hx_attempt(&g, hx_random_legal(&g, &rng));
        int b = k % 2, w = 1 - b;
        store_one(s, run, id[b], id[w], (uint64_t)k, 1 / (1 + exp(-(strength[b] - strength[w] + 0.3))), &rng, &g, 0);
    }
    sqlite3_close(d);
    store_close(s);
}

static void golden_outputs(void **state)
{
    (void)state;
    const char *bin = getenv("ARENA_BIN_DIR");
    char db[64] = "/tmp/arena-golden-XXXXXX";
    assert_non_null(mkdtemp(db));
    char dir[64];
    snprintf(dir, sizeof dir, "%s", db);
    strcat(db, "/golden.db");
    make_db(db);
    /* every format of ratings and matrix, and the history and export outputs: command, golden file */
    static const char *formats[] = { "text", "md", "csv", "tex", "json", "html" };
    char jobs[40][2][160];
    int n_jobs = 0;
    for (int f = 0; f < 6; f++) {
        snprintf(jobs[n_jobs][0], 160, "ratings --pool --bootstrap 200 --format %s", formats[f]);
        snprintf(jobs[n_jobs++][1], 160, "ratings.%s", formats[f]);
        snprintf(jobs[n_jobs][0], 160, "matrix --pool --format %s", formats[f]);
        snprintf(jobs[n_jobs++][1], 160, "matrix.%s", formats[f]);
    }
    static const char *const more[][2] = {
        { "matrix --pool --score", "matrix-score.text" },
        { "ratings --bootstrap 200", "ratings-newest.text" },
        { "ratings --league 1 --bootstrap 0 --format json", "ratings-league1.json" },
        { "ratings --run 1 --variant hex --bootstrap 200 --format csv", "ratings-run.csv" },
        { "ratings --history --league golden --bootstrap 200", "history.text" },
        { "ratings --history --league 1 --bootstrap 200 --format csv", "history.csv" },
        { "export --format pgn --variant classical --agent cfr", "export.pgn" },
        { "export --format sgf --variant hex", "export-hex.sgf" },
        { "export --format sgf --league 2 --agent cfr", "export-abrupt.sgf" },
    };
    for (size_t i = 0; i < sizeof more / sizeof more[0]; i++) {
        snprintf(jobs[n_jobs][0], 160, "%s", more[i][0]);
        snprintf(jobs[n_jobs++][1], 160, "%s", more[i][1]);
    }
    bool update = getenv("UPDATE_GOLDEN") != NULL;
    static char got[1 << 17], want[1 << 17];
    for (int j = 0; j < n_jobs; j++) {
        char cmd[1024], golden[256];
        snprintf(cmd, sizeof cmd, "%.512s/arena %.159s --db %.64s", bin ? bin : "bin", jobs[j][0], db);
        FILE *p = popen(cmd, "r");
        assert_non_null(p);
        size_t n = fread(got, 1, sizeof got - 1, p);
        got[n] = '\0';
        assert_int_equal(pclose(p), 0);
        assert_true(n > 0 && n < sizeof got - 1);
        snprintf(golden, sizeof golden, "tests/golden/%.159s", jobs[j][1]);
        if (update) {
            FILE *o = fopen(golden, "w");
            assert_non_null(o);
            fputs(got, o);
            fclose(o);
            continue;
        }
        FILE *g = fopen(golden, "r");
        if (!g)
            fail_msg("%s: missing (UPDATE_GOLDEN=1 writes it)", golden);
        size_t m = fread(want, 1, sizeof want - 1, g);
        want[m] = '\0';
        fclose(g);
        if (strcmp(got, want) != 0)
            fail_msg("'%s' differs from %s:\n%s", cmd, golden, got);
        if (strstr(jobs[j][0], "json") && pipe_to(STRICT_JSON, got) != 0)
            fail_msg("'%s': not strict JSON", cmd);
    }
    unlink(db);
    char wal[128];
    snprintf(wal, sizeof wal, "%s-wal", db);
    unlink(wal);
    snprintf(wal, sizeof wal, "%s-shm", db);
    unlink(wal);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(recovers_true_ratings_and_advantage),
        cmocka_unit_test(perfect_scorers_stay_finite),
        cmocka_unit_test(los_undefined_cases),
        cmocka_unit_test(tables_write_exact_values_and_nulls),
        cmocka_unit_test(golden_outputs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
