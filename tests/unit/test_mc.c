/* tests/unit/test_mc.c — the Monte Carlo bot's library (agents/mc/): over 100,000 samples from random game
 * positions in every dark variant, the sampler never contradicts the player's view (the exact count of hidden
 * opponent stones where the player can know it, checked against the engine's truth; bounds holding the truth
 * in plain abrupt; no stone on a cell the player knows; the opponent never already connected, by the
 * engine's hx_set_joins); hex samples no hidden stone; the chosen move is always legal, in every variant, and
 * over whole games against a random player, which it beats; an immediate winning cell is found. */
#include "scorer.h"
#include "test_util.h"

static const int sizes[][2] = { { 2, 2 }, { 3, 3 }, { 3, 4 }, { 4, 3 }, { 5, 5 }, { 6, 6 }, { 7, 7 }, { 8, 8 }, { 5, 11 }, { 11, 5 } };
#define N_SIZES ((int)(sizeof sizes / sizeof sizes[0]))

/* A random position of a random game in variant v on a random board from `sizes`, not over, with the player
 * to move; returns false when the game ended before the chosen point (the caller draws again). */
static bool random_position(hx_game *g, hx_variant v, rng_state *rng)
{
    int k = (int)rng_below(rng, N_SIZES);
    hx_new(g, v, sizes[k][0], sizes[k][1], 0);
    int stop = (int)rng_below(rng, (uint32_t)(2 * hx_cells(g)));
    for (int i = 0; i < stop && !hx_over(g); i++)
        hx_attempt(g, hx_random_legal(g, rng));
    return !hx_over(g);
}

static uint64_t bits_of(const uint16_t *cells, int n)
{
    uint64_t set = 0;
    for (int i = 0; i < n; i++)
        set |= 1ull << cells[i];
    return set;
}

static void sampler_never_contradicts_the_view(void **state)
{
    (void)state;
    static mc_sampler s;
    hx_game g;
    rng_state rng, draw;
    rng_seed(&rng, 11);
    rng_seed(&draw, 12);
    long samples = 0, positions = 0, failed = 0, spread = 0;
    for (int v = HX_CLASSICAL; v < HX_VARIANT_COUNT; v++) {
        long per_variant = 0;
        while (per_variant < 17000) {
            if (!random_position(&g, (hx_variant)v, &rng))
                continue;
            int p = hx_to_move(&g), opp = p ^ 1, cells = hx_cells(&g);
            mc_sampler_of_game(&s, &g, p);
            int truth = hx_hidden(&g, p);
            uint64_t learned = 0;
            for (int i = 0; i < cells; i++)
                learned |= (uint64_t)(hx_view(&g, p, i) == HX_VIEW_OPPONENT) << i;
            if (v == HX_ABRUPT) {
                assert_true(s.hidden_lo <= truth && truth <= s.hidden_hi);
            } else {
                assert_int_equal(s.hidden_lo, truth);
                assert_int_equal(s.hidden_hi, truth);
            }
            positions++;
            int lo = cells, hi = -1;
            for (int k = 0; k < 20; k++) {
                int h = mc_sample(&s, &draw);
                if (h < 0) {
                    failed++;
                    continue;
                }
                assert_true(h >= s.hidden_lo && h <= s.hidden_hi);
                lo = h < lo ? h : lo, hi = h > hi ? h : hi;
                uint64_t sampled = bits_of(s.unknown, h);
                for (int i = 0; i < h; i++) {
                    int c = s.unknown[i];
                    assert_int_equal(hx_view(&g, p, c), HX_VIEW_UNKNOWN);
                    assert_false(hx_owner(&g, c) == p + 1); /* never on our own stone */
                }
                assert_int_equal(__builtin_popcountll(sampled), h); /* distinct cells */
                assert_false(hx_set_joins(hx_rows(&g), hx_cols(&g), opp, sampled | learned));
                /* The unknown list is a permutation of the unknown cells. */
                uint64_t all = bits_of(s.unknown, s.n_unknown);
                assert_int_equal(__builtin_popcountll(all), s.n_unknown);
                assert_int_equal(s.n_unknown, cells - hx_stones(&g, p) - __builtin_popcountll(learned));
                mc_sampler_reset(&s, h);
                samples++, per_variant++;
            }
            spread += hi > lo;
        }
    }
    assert_true(samples >= 100000);
    /* Nearly every draw succeeds on random positions, and plain abrupt's count does vary between samples. */
    assert_true(failed < samples / 100);
    assert_true(spread > 0);
    print_message("%ld samples from %ld positions, %ld draws found no consistent sample\n", samples, positions, failed);
}

static void hex_has_no_hidden_stones(void **state)
{
    (void)state;
    static mc_sampler s;
    hx_game g;
    rng_state rng;
    rng_seed(&rng, 3);
    for (int n = 0; n < 2000; n++) {
        if (!random_position(&g, HX_HEX, &rng))
            continue;
        mc_sampler_of_game(&s, &g, hx_to_move(&g));
        assert_int_equal(s.hidden_hi, 0);
        assert_int_equal(mc_sample(&s, &rng), 0);
        assert_int_equal(s.n_unknown, hx_num_legal(&g));
    }
}

static void chosen_moves_are_legal(void **state)
{
    (void)state;
    static mc_sampler s;
    hx_game g;
    rng_state rng;
    rng_seed(&rng, 5);
    int tested = 0;
    for (int v = 0; v < HX_VARIANT_COUNT; v++)
        for (int n = 0; n < 600;) {
            if (!random_position(&g, (hx_variant)v, &rng))
                continue;
            tested++, n++;
            mc_sampler_of_game(&s, &g, hx_to_move(&g));
            mc_options o = { .samples = 1 + n % 40, .fill = n % 2 ? MC_FILL_RANDOM_TURN : MC_FILL_ALTERNATE };
            int c = mc_choose(&s, &o, &rng, NULL);
            assert_int_equal(hx_check(&g, c), 0);
        }
    assert_int_equal(tested, 600 * HX_VARIANT_COUNT);
    print_message("%d positions, every move legal\n", tested);
}

/* Whole games against the random player: every move legal, and mc wins most of them. */
static void beats_random_with_legal_moves(void **state)
{
    (void)state;
    static mc_sampler s;
    static const hx_variant vs[] = { HX_HEX, HX_CLASSICAL, HX_ABRUPT, HX_ABRUPT_NOISY };
    hx_game g;
    rng_state rng;
    rng_seed(&rng, 9);
    for (size_t k = 0; k < sizeof vs / sizeof vs[0]; k++) {
        int wins = 0, games = 20;
        for (int i = 0; i < games; i++) {
            int me = i % 2;
            hx_new(&g, vs[k], 5, 5, 0);
            while (!hx_over(&g)) {
                int c;
                if (hx_to_move(&g) == me) {
                    mc_sampler_of_game(&s, &g, me);
                    mc_options o = { .samples = 300 };
                    c = mc_choose(&s, &o, &rng, NULL);
                } else {
                    c = hx_random_legal(&g, &rng);
                }
                assert_true(hx_attempt(&g, c) >= 0);
            }
            wins += hx_winner(&g) == me;
        }
        print_message("%s 5x5: mc won %d of %d against random\n", hx_variant_name(vs[k]), wins, games);
        if (wins < games * 3 / 4)
            fail_msg("%s: mc won only %d of %d against random", hx_variant_name(vs[k]), wins, games);
    }
}

/* hex 3x3, Black b1 b3, White a1 c3, Black to move: b2 joins Black's column at once. */
static void finds_the_winning_cell(void **state)
{
    (void)state;
    static mc_sampler s;
    hx_game g;
    rng_state rng;
    rng_seed(&rng, 1);
    hx_new(&g, HX_HEX, 3, 3, 0);
    play(&g, "b1 a1 b3 c3", NULL);
    mc_sampler_of_game(&s, &g, HX_BLACK);
    mc_options o = { .samples = 2000 };
    mc_result r;
    assert_int_equal(mc_choose(&s, &o, &rng, &r), cell_of(&g, "b2"));
    assert_int_equal(r.samples, 2000);
    assert_int_equal(r.score[cell_of(&g, "b1")], 0); /* stones are never scored */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sampler_never_contradicts_the_view),
        cmocka_unit_test(hex_has_no_hidden_stones),
        cmocka_unit_test(chosen_moves_are_legal),
        cmocka_unit_test(beats_random_with_legal_moves),
        cmocka_unit_test(finds_the_winning_cell),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
