/* tests/unit/test_keys.c — information-state keys, event logs, hx_copy, and the engine against a plain
 * breadth-first connection check over many random games on every board shape. */
#include "test_util.h"

static int key_of(const hx_game *g, int p, uint16_t *k)
{
    return hx_key(g, p, k);
}

static int same_key(const hx_game *a, const hx_game *b, int p)
{
    uint16_t ka[HX_MAX_EVENTS], kb[HX_MAX_EVENTS];
    int na = key_of(a, p, ka), nb = key_of(b, p, kb);
    int same = na == nb && memcmp(ka, kb, (size_t)na * sizeof ka[0]) == 0;
    /* The incremental fingerprint agrees with equality in both directions here. */
    assert_int_equal(same, hx_key_fingerprint(a, p) == hx_key_fingerprint(b, p));
    return same;
}

/* White's placement is invisible to Black in the dark, visible in hex. */
static void hidden_placements_do_not_split_keys(void **state)
{
    (void)state;
    hx_game a, b;
    for (int v = 0; v < HX_VARIANT_COUNT; v++) {
        start(&a, (hx_variant)v, 3, 3, 0);
        start(&b, (hx_variant)v, 3, 3, 0);
        play(&a, "a1 b2", NULL);
        play(&b, "a1 c3", NULL);
        assert_int_equal(same_key(&a, &b, HX_BLACK), v != HX_HEX);
        assert_false(same_key(&a, &b, HX_WHITE));
    }
}

/* In abrupt, Black cannot tell White's collision from White's placement; noisy and flash can. */
static void collisions_split_keys_only_when_reported(void **state)
{
    (void)state;
    const hx_variant vs[] = { HX_ABRUPT, HX_ABRUPT_NOISY, HX_ABRUPT_FLASH };
    for (int i = 0; i < 3; i++) {
        hx_game a, b;
        start(&a, vs[i], 3, 3, 0);
        start(&b, vs[i], 3, 3, 0);
        play(&a, "a1 a1", NULL); /* collision */
        play(&b, "a1 b2", NULL); /* placement */
        assert_int_equal(same_key(&a, &b, HX_BLACK), vs[i] == HX_ABRUPT);
    }
    /* Noisy does not say where; flash does. */
    hx_game a, b;
    for (int flash = 0; flash < 2; flash++) {
        hx_variant v = flash ? HX_CLASSICAL_FLASH : HX_CLASSICAL_NOISY;
        start(&a, v, 3, 3, 0);
        start(&b, v, 3, 3, 0);
        play(&a, "a1 c3 b1 a1 c1", NULL); /* White hits a1 */
        play(&b, "a1 c3 b1 b1 c1", NULL); /* White hits b1 */
        assert_int_equal(same_key(&a, &b, HX_BLACK), !flash);
    }
}

/* Perfect recall: the order of what a player did matters. */
static void order_matters(void **state)
{
    (void)state;
    hx_game a, b;
    start(&a, HX_CLASSICAL, 3, 3, 0);
    start(&b, HX_CLASSICAL, 3, 3, 0);
    play(&a, "a1 c3 b1 a1 b1 c1", NULL);
    play(&b, "a1 c3 b1 b1 a1 c1", NULL);
    assert_false(same_key(&a, &b, HX_WHITE));
    assert_true(same_key(&a, &b, HX_BLACK));
}

/* A naive breadth-first search over true stones, independent of the union-find. */
static int bfs_connected(const hx_game *g, int player)
{
    int rows = hx_rows(g), cols = hx_cols(g), seen[HX_MAX_CELLS] = { 0 }, queue[HX_MAX_CELLS], n = 0;
    for (int i = 0; i < (player == HX_BLACK ? cols : rows); i++) {
        int cell = player == HX_BLACK ? i : i * cols;
        if (hx_owner(g, cell) == player + 1) {
            seen[cell] = 1;
            queue[n++] = cell;
        }
    }
    static const int dr[6] = { -1, -1, 0, 0, 1, 1 }, dc[6] = { 0, 1, -1, 1, -1, 0 };
    for (int h = 0; h < n; h++) {
        int r = queue[h] / cols, c = queue[h] % cols;
        if (player == HX_BLACK ? r == rows - 1 : c == cols - 1)
            return 1;
        for (int k = 0; k < 6; k++) {
            int rr = r + dr[k], cc = c + dc[k];
            if (rr < 0 || rr >= rows || cc < 0 || cc >= cols)
                continue;
            int nb = rr * cols + cc;
            if (!seen[nb] && hx_owner(g, nb) == player + 1) {
                seen[nb] = 1;
                queue[n++] = nb;
            }
        }
    }
    return 0;
}

/* Every attempt of many random games: wins agree with the BFS, views agree with the truth and the
 * events, legal counts agree with the views, and fingerprints agree with recomputed keys. */
static void random_games_agree_with_a_plain_model(void **state)
{
    (void)state;
    static const int shapes[][2] = { { 2, 2 }, { 2, 7 }, { 7, 2 }, { 3, 5 }, { 5, 3 }, { 11, 11 }, { 19, 19 }, { 19, 2 } };
    rng_state rng;
    rng_seed(&rng, 7);
    uint16_t key[HX_MAX_EVENTS];
    for (int v = 0; v < HX_VARIANT_COUNT; v++) {
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
            int rows = shapes[s][0], cols = shapes[s][1];
            for (int game = 0; game < 30; game++) {
                hx_game g;
                unsigned flags = (v == HX_HEX && rows == cols && game % 2) ? HX_SWAP_RULE : 0;
                start(&g, (hx_variant)v, rows, cols, flags);
                while (!hx_over(&g)) {
                    int p = hx_to_move(&g);
                    int cell = hx_random_legal(&g, &rng);
                    assert_int_equal(hx_check(&g, cell), 0);
                    int out = hx_attempt(&g, cell);
                    assert_true(out >= 0);
                    if (out == HX_PLACED) {
                        assert_int_equal(hx_owner(&g, cell), p + 1);
                        assert_int_equal(hx_over(&g), bfs_connected(&g, p));
                        assert_false(bfs_connected(&g, p ^ 1));
                    }
                    if (hx_over(&g))
                        assert_int_equal(hx_winner(&g), p);
                    for (int q = 0; q < 2; q++) {
                        int unknown = 0, learned = 0;
                        for (int c = 0; c < rows * cols; c++) {
                            int view = hx_view(&g, q, c), owner = hx_owner(&g, c);
                            if (view == HX_VIEW_OWN)
                                assert_int_equal(owner, q + 1);
                            if (view == HX_VIEW_OPPONENT) {
                                assert_int_equal(owner, 2 - q);
                                learned++;
                            }
                            if (view == HX_VIEW_UNKNOWN) {
                                assert_true(owner != q + 1);
                                if (!hx_variant_dark((hx_variant)v))
                                    assert_int_equal(owner, 0);
                                unknown++;
                            }
                        }
                        if (!hx_over(&g) && q == hx_to_move(&g))
                            assert_int_equal(hx_num_legal(&g), unknown + (hx_can_swap(&g) ? 1 : 0));
                        assert_int_equal(hx_hidden(&g, q), hx_stones(&g, q ^ 1) - learned);
                        int n = hx_key(&g, q, key);
                        assert_int_equal(n, hx_key_length(&g, q));
                        assert_true(hx_key_hash(key, n) == hx_key_fingerprint(&g, q));
                    }
                }
                int longest = hx_variant_dark((hx_variant)v) ? 2 * rows * cols - 1 : rows * cols + 1;
                assert_true(hx_num_attempts(&g) <= longest);
            }
        }
    }
}

/* hx_copy and plain assignment give games that continue exactly like the original. */
static void copies_continue_identically(void **state)
{
    (void)state;
    rng_state r1, r2;
    for (int v = 0; v < HX_VARIANT_COUNT; v++) {
        hx_game g, c, d;
        start(&g, (hx_variant)v, 5, 4, 0);
        rng_seed(&r1, (uint64_t)v);
        for (int i = 0; i < 8 && !hx_over(&g); i++)
            hx_attempt(&g, hx_random_legal(&g, &r1));
        memset(&c, 0xab, sizeof c);
        hx_copy(&c, &g);
        d = g;
        r2 = r1;
        rng_state r3 = r1;
        while (!hx_over(&g)) {
            int a = hx_random_legal(&g, &r1), b = hx_random_legal(&c, &r2), e = hx_random_legal(&d, &r3);
            assert_int_equal(a, b);
            assert_int_equal(a, e);
            assert_int_equal(hx_attempt(&g, a), hx_attempt(&c, b));
            hx_attempt(&d, e);
        }
        assert_int_equal(hx_winner(&g), hx_winner(&c));
        assert_int_equal(hx_winner(&g), hx_winner(&d));
        assert_int_equal(hx_num_attempts(&g), hx_num_attempts(&c));
        for (int p = 0; p < 2; p++)
            assert_true(hx_key_fingerprint(&g, p) == hx_key_fingerprint(&c, p));
    }
}

/* hx_playout plays the same game as the hx_random_legal + hx_attempt loop with the same seed. */
static void playout_matches_the_attempt_loop(void **state)
{
    (void)state;
    for (int v = 0; v < HX_VARIANT_COUNT; v++)
        for (uint64_t seed = 0; seed < 20; seed++) {
            hx_game a, b;
            rng_state ra, rb;
            unsigned flags = v == HX_HEX && seed % 2 ? HX_SWAP_RULE : 0;
            start(&a, (hx_variant)v, 6, 6, flags);
            start(&b, (hx_variant)v, 6, 6, flags);
            rng_seed(&ra, seed);
            rng_seed(&rb, seed);
            int n = 0;
            while (!hx_over(&a)) {
                hx_attempt(&a, hx_random_legal(&a, &ra));
                n++;
            }
            assert_int_equal(hx_playout(&b, &rb), n);
            assert_int_equal(hx_num_attempts(&b), n);
            assert_int_equal(hx_winner(&a), hx_winner(&b));
            for (int i = 0; i < n; i++) {
                assert_int_equal(hx_move_at(&a, i).cell, hx_move_at(&b, i).cell);
                assert_int_equal(hx_move_at(&a, i).outcome, hx_move_at(&b, i).outcome);
            }
            assert_true(hx_key_fingerprint(&a, HX_WHITE) == hx_key_fingerprint(&b, HX_WHITE));
        }
}

static void random_choice_is_uniform(void **state)
{
    (void)state;
    hx_game g;
    rng_state rng;
    rng_seed(&rng, 3);
    start(&g, HX_CLASSICAL, 3, 3, 0);
    play(&g, "b2 b2", NULL); /* White to move with 8 legal cells */
    int hits[HX_MAX_CELLS] = { 0 };
    for (int i = 0; i < 80000; i++)
        hits[hx_random_legal(&g, &rng)]++;
    assert_int_equal(hits[4], 0);
    for (int c = 0; c < 9; c++)
        if (c != 4)
            assert_in_range(hits[c], 9000, 11000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hidden_placements_do_not_split_keys),
        cmocka_unit_test(collisions_split_keys_only_when_reported),
        cmocka_unit_test(order_matters),
        cmocka_unit_test(random_games_agree_with_a_plain_model),
        cmocka_unit_test(copies_continue_identically),
        cmocka_unit_test(playout_matches_the_attempt_loop),
        cmocka_unit_test(random_choice_is_uniform),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
