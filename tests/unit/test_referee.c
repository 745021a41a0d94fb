/* tests/unit/test_referee.c — what players are told: over many random games in every variant, the messages a
 * player receives (results and turn events, through encode/decode) rebuild exactly its own event log, so
 * it learns its information state and nothing more; only game_end shows the board. A third of the games start
 * from a random opening, told in game_start. */
#include "referee.h"
#include "test_wire.h"

static bool own_kind(hx_event_kind k)
{
    return k == HX_EV_PLACED || k == HX_EV_REJECTED || k == HX_EV_COLLIDED;
}

static void players_learn_exactly_their_information_state(void **state)
{
    (void)state;
    static hx_referee r;
    static pm_msg m, got;
    static hx_event told[2][HX_MAX_EVENTS], truth[HX_MAX_EVENTS];
    hx_rng rng;
    hx_rng_seed(&rng, 5);
    for (int v = 0; v < HX_VARIANT_COUNT; v++) {
        for (int game = 0; game < 1500; game++) {
            int rows = 2 + (int)hx_rng_below(&rng, 5), cols = 2 + (int)hx_rng_below(&rng, 5);
            unsigned flags = v == HX_HEX && rows == cols && game % 2 ? HX_SWAP_RULE : 0;
            assert_int_equal(ref_init(&r, (uint64_t)game, (hx_variant)v, rows, cols, flags), 0);
            /* every third game from a random opening of 1 to 4 stones (one that wins is refused: none then) */
            uint16_t opening[4];
            int stones = game % 3 ? 0 : 1 + (int)hx_rng_below(&rng, 4);
            bool taken[HX_MAX_CELLS] = { false };
            for (int i = 0; i < stones; i++) {
                int c;
                do
                    c = (int)hx_rng_below(&rng, (uint32_t)(rows * cols));
                while (taken[c]);
                taken[c] = true;
                opening[i] = (uint16_t)c;
            }
            char why[160];
            if (stones > 0 && ref_opening(&r, opening, stones, why, sizeof why) != 0) {
                if (!strstr(why, "wins") && !strstr(why, "won"))
                    fail_msg("opening refused: %s", why);
                assert_int_equal(ref_init(&r, (uint64_t)game, (hx_variant)v, rows, cols, flags), 0);
                stones = 0;
            }
            assert_int_equal(hx_num_attempts(&r.game), stones);
            int n_told[2] = { 0, 0 };
            for (int p = 0; p < 2; p++) {
                ref_game_start(&r, p, 100, 9, &m);
                through_wire(&m, &got);
                assert_int_equal(got.color, p);
                assert_int_equal(got.rows, rows);
                /* the opening as the player is told it, in play order: own stones placed and, in hex, the
                 * opponent's seen; the count of the others */
                int mine = (stones + (p == HX_BLACK)) / 2, theirs = stones - mine;
                assert_int_equal(got.n_own, mine);
                assert_int_equal(got.n_seen, v == HX_HEX ? theirs : 0);
                assert_int_equal(got.hidden, v == HX_HEX ? 0 : theirs);
                for (int i = 0; i < stones; i++) {
                    if (i % 2 == p)
                        told[p][n_told[p]++] = (hx_event){ .kind = HX_EV_PLACED, .cell = got.own[i / 2] };
                    else if (v == HX_HEX)
                        told[p][n_told[p]++] = (hx_event){ .kind = HX_EV_OPP_PLACED, .cell = got.seen[i / 2] };
                }
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(players_learn_exactly_their_information_state),
        cmocka_unit_test(illegal_moves_change_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
