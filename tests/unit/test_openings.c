/* tests/unit/test_openings.c — openings and game pairs: opening parsing and checks (arena/coordinator/openings.h),
 * seeded balanced random suites and suite files, the league schedule's colour-reversed pairs (league.h), results
 * by pairing (pairing.h: pentanomial counts, distinct games) and the pair statistics with the SPRT
 * (ratings/pentanomial.h), whose numbers are checked against the formulas computed here independently. */
#include <math.h>
#include <unistd.h>

#include "league.h"
#include "mode.h"
#include "openings.h"
#include "pairing.h"
#include "pentanomial.h"
#include "test_util.h"

static void test_parse(void **state)
{
    (void)state;
    op_opening o;
    char why[160];
    assert_int_equal(op_parse("a1 b2", 3, 3, &o, why, sizeof why), 0);
    assert_int_equal(o.n, 2);
    assert_int_equal(o.cells[0], 0);
    assert_int_equal(o.cells[1], 4);
    assert_int_equal(op_parse(" c3,a2 ", 3, 3, &o, why, sizeof why), 0);
    assert_int_equal(o.n, 2);
    assert_int_equal(op_parse("", 3, 3, &o, why, sizeof why), 0);
    assert_int_equal(o.n, 0);
    char text[64];
    assert_int_equal(op_parse("b2 a1 c1", 3, 3, &o, why, sizeof why), 0);
    op_format(&o, 3, text, sizeof text);
    assert_string_equal(text, "b2 a1 c1");
    /* refusals, each with a reason */
    assert_int_equal(op_parse("a1 d1", 3, 3, &o, why, sizeof why), -1);
    assert_non_null(strstr(why, "d1"));
    assert_int_equal(op_parse("a1 b2 a1", 3, 3, &o, why, sizeof why), -1);
    assert_non_null(strstr(why, "twice"));
    /* 2x2: Black a1 and a2 join top to bottom, so that is no opening */
    assert_int_equal(op_parse("a1 b1 a2", 2, 2, &o, why, sizeof why), -1);
    assert_non_null(strstr(why, "Black"));
    assert_int_equal(op_parse("a1 b1 a2 b2", 2, 2, &o, why, sizeof why), -1);
    assert_int_equal(op_parse("x9", 3, 3, &o, why, sizeof why), -1);
}

/* Positions of a suite are distinct as sets of each colour's cells. */
static bool same_position(const op_opening *a, const op_opening *b)
{
    if (a->n != b->n)
        return false;
    int ca[2][400] = { { 0 } }, cb[2][400] = { { 0 } };
    for (int i = 0; i < a->n; i++) {
        ca[i % 2][a->cells[i]]++;
        cb[i % 2][b->cells[i]]++;
    }
    return memcmp(ca, cb, sizeof ca) == 0;
}

static void test_random_suite(void **state)
{
    (void)state;
    static op_opening s1[200], s2[200], s3[200];
    int n1 = op_random_suite(7, HX_CLASSICAL, 3, 3, 2, 30, s1);
    int n2 = op_random_suite(7, HX_CLASSICAL, 3, 3, 2, 30, s2);
    int n3 = op_random_suite(8, HX_CLASSICAL, 3, 3, 2, 30, s3);
    assert_int_equal(n1, 30);
    assert_int_equal(n2, 30);
    assert_int_equal(n3, 30);
    assert_memory_equal(s1, s2, sizeof s1[0] * 30); /* same seed, same suite */
    int differ = 0;
    for (int i = 0; i < 30; i++)
        differ += !same_position(&s1[i], &s3[i]);
    assert_true(differ > 0); /* another seed (another night), other openings */
    for (int i = 0; i < n1; i++) {
        char why[128];
        assert_int_equal(s1[i].n, 2);
        assert_true(op_valid(&s1[i], 3, 3, why, sizeof why));
        for (int j = 0; j < i; j++)
            assert_false(same_position(&s1[i], &s1[j]));
        double share = op_black_share(&s1[i], 3, 3, 64, 99);
        assert_true(share >= 0.15 && share <= 0.85); /* balanced (kept within [0.25, 0.75] on another sample) */
    }
    /* 2x2 with 2 stones has 4 x 3 = 12 positions: a suite cannot be larger */
    assert_int_equal(op_random_suite(1, HX_ABRUPT, 2, 2, 2, 100, s1), 12);
    for (int i = 0; i < 12; i++)
        for (int j = 0; j < i; j++)
            assert_false(same_position(&s1[i], &s1[j]));
    /* variants get suites of their own */
    op_random_suite(7, HX_ABRUPT, 3, 3, 2, 30, s3);
    differ = 0;
    for (int i = 0; i < 30; i++)
        differ += !same_position(&s1[i], &s3[i]);
    assert_true(differ > 0);
    /* 0 stones: the one empty opening; stones that fill the board: none */
    assert_int_equal(op_random_suite(1, HX_HEX, 3, 3, 0, 5, s1), 1);
    assert_int_equal(s1[0].n, 0);
    assert_int_equal(op_random_suite(1, HX_HEX, 2, 2, 4, 5, s1), 0);
    /* an 11x11 suite of 5 stones, quickly */
    assert_int_equal(op_random_suite(3, HX_HEX, 11, 11, 5, 50, s1), 50);
}

/* The random fill: an opening where Black already holds a whole column but one cell wins nearly always. */
static void test_black_share(void **state)
{
    (void)state;
    op_opening o;
    char why[128];
    assert_int_equal(op_parse("a1 c1 a2 c2", 3, 3, &o, why, sizeof why), 0);
    assert_true(op_black_share(&o, 3, 3, 200, 1) > 0.5);
    assert_int_equal(op_parse("", 3, 3, &o, why, sizeof why), 0);
    double empty = op_black_share(&o, 3, 3, 2000, 1);
    assert_true(empty > 0.5 && empty < 0.8); /* Black has 5 of 9 cells */
}

static void test_book(void **state)
{
    (void)state;
    char path[] = "/tmp/openings-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("# openings\n3x3 a1 b2\n\nclassical 3x3 c3 ; for classical only\n3x3 b1,a2\n4x4 d4 a1\n", f);
    fclose(f);
    char err[256];
    op_book *b = op_book_load(path, err, sizeof err);
    assert_non_null(b);
    op_opening out[8];
    assert_int_equal(op_book_suite(b, HX_CLASSICAL, 3, 3, out, 8), 3);
    assert_int_equal(out[1].n, 1);
    assert_int_equal(op_book_suite(b, HX_ABRUPT, 3, 3, out, 8), 2);
    assert_int_equal(op_book_suite(b, HX_ABRUPT, 4, 4, out, 8), 1);
    assert_int_equal(op_book_suite(b, HX_ABRUPT, 5, 5, out, 8), 0);
    op_book_free(b);
    const char *bad[][2] = {
        { "3x3 a1 a1\n", ":1: " }, { "# x\n3x3 a1\nfoo 3x3 a1\n", ":3: 'foo'" }, { "3x3 z1\n", ":1: 'z1'" },
        { "classical 3y3 a1\n", ":1: '3y3'" }, { "", "no openings" }, { "3x3 a1\x01\n", "\\x01" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        f = fopen(path, "w");
        fputs(bad[i][0], f);
        fclose(f);
        assert_null(op_book_load(path, err, sizeof err));
        if (!strstr(err, bad[i][1]))
            fail_msg("%s: expected '%s' in: %s", bad[i][0], bad[i][1], err);
    }
    unlink(path);
    assert_null(op_book_load("/nonexistent/openings", err, sizeof err));
    assert_non_null(strstr(err, "cannot open"));
}

static void league_of(cfg_league *c, int agents, int games, const lm_mode *mode)
{
    memset(c, 0, sizeof *c);
    c->n_agents = agents;
    for (int i = 0; i < agents; i++)
        snprintf(c->agents[i].name, sizeof c->agents[i].name, "a%d", i);
    c->per_pairing = games;
    c->mode = mode;
    snprintf(c->challenger, sizeof c->challenger, "a%d", agents - 1);
    c->games.variants = 1u << HX_CLASSICAL | 1u << HX_ABRUPT;
    c->games.n_boards = 2;
    c->games.boards[0][0] = c->games.boards[0][1] = 3;
    c->games.boards[1][0] = 2;
    c->games.boards[1][1] = 3;
    c->seed = 5;
    snprintf(c->openings, sizeof c->openings, "random");
    c->opening_stones = 2;
}

static void test_plan_pairs(void **state)
{
    (void)state;
    static cfg_league c;
    static cfg_games plays[4];
    static const char *const modes[] = { "round-robin", "gauntlet", "sprt" };
    for (int mode = 0; mode < 3; mode++) {
        league_of(&c, 4, 10, lm_parse(modes[mode]));
        for (int i = 0; i < 4; i++)
            plays[i] = c.games;
        static lg_suites s;
        char note[256];
        assert_int_equal(lg_suites_make(&c, NULL, &s, note, sizeof note), 0);
        int n = lg_plan(&c, plays, &s, NULL);
        int pairings = mode == 0 ? 6 : 3;
        assert_int_equal(n, 2 * 2 * pairings * 10);
        store_planned *p = calloc((size_t)n, sizeof *p);
        assert_int_equal(lg_plan(&c, plays, &s, p), n);
        for (int i = 0; i < n; i += 2) {
            /* a pair: the same opening, colours reversed, one after the other */
            assert_int_equal(p[i].pair, p[i + 1].pair);
            assert_string_equal(p[i].black, p[i + 1].white);
            assert_string_equal(p[i].white, p[i + 1].black);
            assert_int_equal(p[i].opening_len, 2);
            assert_memory_equal(p[i].opening, p[i + 1].opening, sizeof p[i].opening);
            assert_int_equal(p[i].n, i);
            if (mode != 0) /* the challenger is each pair's first agent */
                assert_string_equal(p[i].black, "a3");
            /* each pairing's games in one run: 5 pairs, pair numbers 0..4 */
            assert_int_equal(p[i].pair, (i / 2) % 5);
            if (i % 10 != 0) {
                assert_string_equal(p[i].black, p[i - 2].black);
                assert_string_equal(p[i].white, p[i - 2].white);
            }
        }
        /* the openings of a variant and board are the same for every pairing, and the pairs of a pairing use
         * distinct ones */
        for (int i = 0; i < 10; i += 2)
            for (int j = 0; j < i; j += 2)
                assert_memory_not_equal(p[i].opening, p[j].opening, sizeof p[i].opening);
        assert_memory_equal(p[0].opening, p[10].opening, sizeof p[0].opening);
        free(p);
        lg_suites_free(&s);
    }
    /* none: no openings; a suite smaller than the pairs: a note naming it */
    league_of(&c, 2, 40, lm_parse("round-robin"));
    c.games.boards[1][0] = c.games.boards[1][1] = 2;
    static lg_suites s;
    char note[256];
    assert_int_equal(lg_suites_make(&c, NULL, &s, note, sizeof note), 2); /* 2x2 in both variants: 12 < 20 */
    assert_non_null(strstr(note, "2x2 has 12 openings for 20 game pairs"));
    lg_suites_free(&s);
    snprintf(c.openings, sizeof c.openings, "none");
    assert_int_equal(lg_suites_make(&c, NULL, &s, note, sizeof note), 0);
    plays[0] = plays[1] = c.games;
    store_planned p[160];
    assert_int_equal(lg_plan(&c, plays, &s, p), 160);
    for (int i = 0; i < 160; i++)
        assert_int_equal(p[i].opening_len, 0);
}

/* Pair statistics against the formulas, computed here directly. */
static void test_pentanomial(void **state)
{
    (void)state;
    pn_counts c = { { 0 } };
    pn_summary sm;
    pn_summarise(&c, 1.96, &sm);
    assert_int_equal(sm.pairs, 0);
    assert_true(isnan(sm.los));
    pn_sprt t = { 0.0, 10.0, 0.05, 0.05 };
    assert_true(pn_llr(&c, &t) == 0.0);
    long bins[5] = { 1, 0, 2, 0, 3 };
    double pts[5] = { 0, 0.5, 1, 1.5, 2 };
    for (int i = 0; i < 5; i++)
        for (long k = 0; k < bins[i]; k++)
            pn_add(&c, pts[i]);
    for (int i = 0; i < 5; i++)
        assert_int_equal(c.n[i], bins[i]);
    /* mean per game: (0 + 2 * 0.5 + 3 * 1) / 6; variance with one pseudo-pair split between the extremes */
    double mean = 4.0 / 6.0, w[5] = { 1.5, 0, 2, 0, 3.5 }, m = 0, v = 0;
    for (int i = 0; i < 5; i++)
        m += w[i] * i / 4.0 / 7.0;
    for (int i = 0; i < 5; i++)
        v += w[i] * (i / 4.0 - m) * (i / 4.0 - m) / 7.0;
    pn_summarise(&c, 1.96, &sm);
    assert_int_equal(sm.pairs, 6);
    assert_true(fabs(sm.score - mean) < 1e-12);
    assert_true(fabs(sm.score_se - sqrt(v / 6.0)) < 1e-12);
    assert_true(fabs(sm.elo - (-400.0 * log10(1.0 / mean - 1.0))) < 1e-9);
    assert_true(sm.elo_lower < sm.elo && sm.elo < sm.elo_upper);
    double los = 0.5 * (1.0 + erf((mean - 0.5) / sqrt(v / 6.0) / sqrt(2.0)));
    assert_true(fabs(sm.los - los) < 1e-12);
    double s0 = 0.5, s1 = 1.0 / (1.0 + pow(10.0, -10.0 / 400.0));
    double llr = 6.0 * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * v);
    assert_true(fabs(pn_llr(&c, &t) - llr) < 1e-12);
    double lo, hi;
    pn_bounds(&t, &lo, &hi);
    assert_true(fabs(lo - log(0.05 / 0.95)) < 1e-12 && fabs(hi - log(0.95 / 0.05)) < 1e-12);
    assert_int_equal(pn_decide(&c, &t, NULL), PN_CONTINUE);

    /* a far stronger agent: H1 within a few pairs, but not after one */
    pn_counts strong = { { 0 } };
    pn_sprt t50 = { 0.0, 50.0, 0.05, 0.05 };
    pn_add(&strong, 2);
    assert_int_equal(pn_decide(&strong, &t50, NULL), PN_CONTINUE);
    int pairs = 1;
    while (pn_decide(&strong, &t50, NULL) == PN_CONTINUE && pairs < 1000) {
        pn_add(&strong, 2);
        pairs++;
    }
    assert_int_equal(pn_decide(&strong, &t50, NULL), PN_H1);
    assert_true(pairs >= 3 && pairs <= 20);
    /* two equal deterministic agents (every pair 1-1): H0 in the end */
    pn_counts equal = { { 0 } };
    pairs = 0;
    while (pn_decide(&equal, &t50, NULL) == PN_CONTINUE && pairs < 10000) {
        pn_add(&equal, 1);
        pairs++;
    }
    assert_int_equal(pn_decide(&equal, &t50, NULL), PN_H0);
    pn_summarise(&equal, 1.96, &sm);
    assert_true(fabs(sm.los - 0.5) < 1e-12 && fabs(sm.elo) < 1e-9);
    /* a score of 1: Elo and its upper bound infinite, the lower bound finite */
    pn_summarise(&strong, 1.96, &sm);
    assert_true(isinf(sm.elo) && sm.elo > 0 && isfinite(sm.elo_lower));
    assert_true(fabs(pn_score_to_elo(pn_elo_to_score(123.0)) - 123.0) < 1e-9);
    assert_string_equal(pn_decision_name(PN_H1), "H1");
}

static void test_pairing_table(void **state)
{
    (void)state;
    pg_table *t = pg_new();
    pg_pairing *p = pg_get(t, HX_CLASSICAL, 3, 3, "x", "y");
    assert_ptr_equal(pg_find(t, HX_CLASSICAL, 3, 3, "y", "x"), p);
    assert_null(pg_find(t, HX_ABRUPT, 3, 3, "x", "y"));
    /* pair 0: x wins both; pair 1: one each; pair 2: only its first game; a game outside pairs */
    assert_int_equal(pg_add(p, true, true, 0, 11), 0);
    assert_int_equal(pg_add(p, false, true, 0, 12), 0);
    assert_int_equal(pg_add(p, true, true, 1, 11), 0); /* the same attempts as the first game, x Black again */
    assert_int_equal(pg_add(p, false, false, 1, 11), 0); /* the same attempts with y Black: another game */
    assert_int_equal(pg_add(p, true, false, 2, 13), 0);
    assert_int_equal(pg_add(p, true, true, -1, 0), 0);
    pg_finish(t);
    assert_int_equal(p->games, 6);
    assert_int_equal(p->a_wins, 4);
    assert_int_equal(p->b_wins, 2);
    assert_int_equal(p->penta.n[4], 1);
    assert_int_equal(p->penta.n[2], 1);
    assert_int_equal(p->penta.n[0] + p->penta.n[1] + p->penta.n[3], 0);
    assert_int_equal(p->distinct, 4); /* 11 as x Black, 12, 11 as y Black, 13 (the unknown one not counted) */
    /* many pairings: the table grows */
    char a[16], b[16];
    for (int i = 0; i < 500; i++) {
        snprintf(a, sizeof a, "p%d", i);
        snprintf(b, sizeof b, "q%d", i);
        assert_non_null(pg_get(t, HX_HEX, 5, 5, a, b));
    }
    assert_int_equal(pg_count(t), 501);
    assert_non_null(pg_find(t, HX_HEX, 5, 5, "q321", "p321"));
    assert_string_equal(pg_at(t, 0)->a, "x");
    pg_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),        cmocka_unit_test(test_random_suite), cmocka_unit_test(test_black_share),
        cmocka_unit_test(test_book),         cmocka_unit_test(test_plan_pairs),   cmocka_unit_test(test_pentanomial),
        cmocka_unit_test(test_pairing_table),
    };
    return cmocka_run_group_tests_name("openings", tests, NULL, NULL);
}
