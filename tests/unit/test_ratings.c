/* tests/unit/test_ratings.c — the rating model recovers known ratings and first-move advantage from games drawn
 * from the model itself (true values inside the reported 95% intervals most of the time, over seeded
 * repetitions), keeps perfect scorers finite, and `arena ratings` / `arena matrix` print exactly the
 * golden files in every format (tests/golden/; UPDATE_GOLDEN=1 rewrites them). */
#define _GNU_SOURCE
#include <math.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sqlite3.h>
#include <stdlib.h>

#include "bt.h"
#include "rng.h"
#include "store.h"
#include "test_util.h"

static double uniform(hx_rng *r)
{
    return (double)(hx_rng_next(r) >> 11) * 0x1.0p-53;
}

static void recovers_true_ratings_and_advantage(void **state)
{
    (void)state;
    enum { N = 8, REPS = 10, GAMES = 100 };
    const double truth[N] = { -300, -200, -100, -50, 0, 60, 150, 440 }, adv = 80; /* mean 0: the anchor */
    int covered = 0, adv_covered = 0;
    double worst = 0;
    for (int rep = 0; rep < REPS; rep++) {
        hx_rng rng;
        hx_rng_seed(&rng, 100 + (uint64_t)rep);
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

static void store_one(store_db *s, int64_t run, int64_t black, int64_t white, uint64_t seed, double p, hx_rng *rng,
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
    hx_rng rng;
    hx_rng_seed(&rng, 42);
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
        snprintf(jobs[n_jobs][0], 160, "ratings --bootstrap 200 --format %s", formats[f]);
        snprintf(jobs[n_jobs++][1], 160, "ratings.%s", formats[f]);
        snprintf(jobs[n_jobs][0], 160, "matrix --format %s", formats[f]);
        snprintf(jobs[n_jobs++][1], 160, "matrix.%s", formats[f]);
    }
    static const char *const more[][2] = {
        { "matrix --score", "matrix-score.text" },
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
        cmocka_unit_test(golden_outputs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
