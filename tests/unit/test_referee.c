/* tests/unit/test_referee.c — what players are told: over many random games in every variant, the messages a
 * player receives (results and turn events, through encode/decode) rebuild exactly its own event log, so
 * it learns its information state and nothing more; only game_end shows the board. Games start from random
 * openings of 0..4 stones, which a player learns from its game_start; bad openings are refused. */
#include "referee.h"
#include "test_wire.h"

static bool own_kind(hx_event_kind k)
{
    return k == HX_EV_PLACED || k == HX_EV_REJECTED || k == HX_EV_COLLIDED;
}

/* Starts game `id` on r from a random opening of 0..4 stones (fewer on small boards; none that wins). Returns k. */
static int random_opening(hx_referee *r, rng_state *rng, uint64_t id, hx_variant v, int rows, int cols, unsigned flags)
{
    char why[160];
    for (;;) {
        assert_int_equal(ref_init(r, id, v, rows, cols, flags), 0);
        int k = (int)rng_below(rng, 5), cells = rows * cols;
        uint16_t opening[4];
        for (int i = 0; i < k; i++) {
            bool again = true;
            while (again) {
                opening[i] = (uint16_t)rng_below(rng, (uint32_t)cells);
                again = false;
                for (int j = 0; j < i; j++)
                    again |= opening[j] == opening[i];
            }
        }
        if (ref_opening(r, opening, k, why, sizeof why) == 0)
            return k;
        assert_true(strstr(why, "wins the game") || strstr(why, "has won")); /* distinct cells: only a win */
    }
}

static void players_learn_exactly_their_information_state(void **state)
{
    (void)state;
    static hx_referee r;
    static pm_msg m, got;
    static hx_event told[2][HX_MAX_EVENTS], truth[HX_MAX_EVENTS];
    rng_state rng;
    rng_seed(&rng, 5);
    for (int v = 0; v < HX_VARIANT_COUNT; v++) {
        for (int game = 0; game < 1500; game++) {
            int rows = 2 + (int)rng_below(&rng, 5), cols = 2 + (int)rng_below(&rng, 5);
            unsigned flags = v == HX_HEX && rows == cols && game % 2 ? HX_SWAP_RULE : 0;
            int stones = random_opening(&r, &rng, (uint64_t)game, (hx_variant)v, rows, cols, flags);
            assert_int_equal(r.opening, stones);
            assert_int_equal(hx_num_attempts(&r.game), stones);
            /* the swap window is White's first move of the game: after an opening of one stone, never later */
            assert_int_equal(hx_can_swap(&r.game), (flags & HX_SWAP_RULE) && stones == 1);
            int n_told[2] = { 0, 0 };
            for (int p = 0; p < 2; p++) {
                ref_game_start(&r, p, 100, 9, &m);
                through_wire(&m, &got);
                assert_int_equal(got.color, p);
                assert_int_equal(got.rows, rows);
                /* the opening, as the player rebuilds it: its own stones and the opponent's it is told, in play
                 * order from Black; the rest is a count */
                int opp = stones / 2 + (stones % 2 && p == HX_WHITE), own = 0, seen = 0;
                assert_int_equal(got.n_own, stones - opp);
                assert_int_equal(got.n_seen + got.hidden, opp);
                assert_int_equal(got.hidden, hx_variant_dark((hx_variant)v) ? opp : 0);
                for (int i = 0; i < stones; i++)
                    if (i % 2 == p)
                        told[p][n_told[p]++] = (hx_event){ HX_EV_PLACED, got.own[own++] };
                    else if (seen < got.n_seen)
                        told[p][n_told[p]++] = (hx_event){ HX_EV_OPP_PLACED, got.seen[seen++] };
            }
            while (!hx_over(&r.game)) {
                int p = hx_to_move(&r.game);
                ref_turn(&r, &m);
                through_wire(&m, &got);
                for (int i = 0; i < got.n_events; i++) {
                    hx_event_kind k = got.events[i].kind;
                    assert_false(own_kind(k)); /* own results come in `result` */
                    if (hx_variant_dark((hx_variant)v))
                        assert_true(k == HX_EV_OPP_HIT || k == HX_EV_OPP_HIT_AT);
                    if (hx_variant_report((hx_variant)v) == HX_REPORT_NONE && v != HX_HEX)
                        fail_msg("%s: a turn carried an event", hx_variant_name((hx_variant)v));
                    told[p][n_told[p]++] = got.events[i];
                }
                int cell = hx_random_legal(&r.game, &rng);
                int outcome = ref_move(&r, cell, &m);
                assert_true(outcome >= 0);
                through_wire(&m, &got);
                assert_int_equal(got.outcome, outcome);
                assert_int_equal(got.won, hx_winner(&r.game) == p);
                hx_event own = { .cell = got.cell };
                own.kind = outcome == HX_PLACED ? HX_EV_PLACED
                         : outcome == HX_REJECTED ? HX_EV_REJECTED
                         : outcome == HX_COLLISION ? HX_EV_COLLIDED : HX_EV_SWAP;
                if (outcome == HX_SWAPPED) /* the result names "swap"; the log names White's new stone */
                    own.cell = hx_move_at(&r.game, hx_num_attempts(&r.game) - 1).cell;
                told[p][n_told[p]++] = own;
            }
            /* Told = a prefix of the log; what is left is about the opponent's last attempts, which the
             * game ended before a turn could carry (game_end's board covers them). */
            for (int p = 0; p < 2; p++) {
                int n = hx_events(&r.game, p, truth);
                if (n_told[p] > n || memcmp(told[p], truth, (size_t)n_told[p] * sizeof truth[0]) != 0)
                    fail_msg("%s %dx%d game %d: player %d was told something else than its log",
                             hx_variant_name((hx_variant)v), rows, cols, game, p);
                for (int i = n_told[p]; i < n; i++)
                    assert_false(own_kind(truth[i].kind));
                if (p == hx_winner(&r.game))
                    assert_int_equal(n_told[p], n);
            }
            ref_end(&r, hx_winner(&r.game), HX_END_CONNECTED, NULL, &m);
            through_wire(&m, &got);
            assert_int_equal(got.n_cells, rows * cols);
            for (int i = 0; i < rows * cols; i++)
                assert_int_equal(got.board[i], hx_owner(&r.game, i));
        }
    }
}

static void illegal_moves_change_nothing(void **state)
{
    (void)state;
    static hx_referee r;
    static pm_msg m;
    assert_int_equal(ref_init(&r, 1, HX_CLASSICAL, 3, 3, 0), 0);
    assert_int_equal(ref_move(&r, 0, &m), HX_PLACED);
    assert_int_equal(ref_move(&r, 0, &m), HX_REJECTED);
    m.type = PM_PING;
    assert_int_equal(ref_move(&r, 0, &m), HX_ERR_KNOWN);
    assert_int_equal(m.type, PM_PING);
    assert_int_equal(ref_move(&r, 99, &m), HX_ERR_RANGE);
    assert_int_equal(hx_num_attempts(&r.game), 2);
}

static void bad_openings_are_refused(void **state)
{
    (void)state;
    static hx_referee r;
    static pm_msg m;
    char why[160];
    static const struct {
        int rows, cols, n;
        uint16_t cells[5];
        const char *says;
    } bad[] = {
        { 3, 3, 3, { 0, 4, 0 }, "opening stone 3: a1 is already taken" },
        { 3, 3, 2, { 0, 9 }, "opening stone 2: cell 9 is off the 3x3 board" },
        { 2, 2, 3, { 0, 1, 2 }, "the opening wins the game for Black" },   /* a1, a2: top to bottom */
        { 2, 2, 4, { 0, 1, 2, 3 }, "opening stone 4: b2 comes after Black has won" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(ref_init(&r, 1, HX_CLASSICAL, bad[i].rows, bad[i].cols, 0), 0);
        assert_int_equal(ref_opening(&r, bad[i].cells, bad[i].n, why, sizeof why), -1);
        if (!strstr(why, bad[i].says))
            fail_msg("reason '%s', expected '%s'", why, bad[i].says);
    }
    assert_int_equal(ref_init(&r, 1, HX_HEX, 3, 3, 0), 0);
    assert_int_equal(ref_move(&r, 4, &m), HX_PLACED);
    assert_int_equal(ref_opening(&r, (const uint16_t[]){ 0 }, 1, why, sizeof why), -1);
    assert_non_null(strstr(why, "not yet under way"));

    /* hex with the swap rule: White may swap its first move after a one-stone opening, not after two */
    assert_int_equal(ref_init(&r, 2, HX_HEX, 3, 3, HX_SWAP_RULE), 0);
    assert_int_equal(ref_opening(&r, (const uint16_t[]){ 1 }, 1, why, sizeof why), 0);
    assert_int_equal(ref_move(&r, HX_SWAP, &m), HX_SWAPPED);
    assert_int_equal(hx_owner(&r.game, 3), 2); /* b1 (r0,c1) became White's a2 (r1,c0) */
    assert_int_equal(ref_init(&r, 3, HX_HEX, 3, 3, HX_SWAP_RULE), 0);
    assert_int_equal(ref_opening(&r, (const uint16_t[]){ 1, 4 }, 2, why, sizeof why), 0);
    assert_int_equal(ref_move(&r, HX_SWAP, &m), HX_ERR_SWAP);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(players_learn_exactly_their_information_state),
        cmocka_unit_test(illegal_moves_change_nothing),
        cmocka_unit_test(bad_openings_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
