/* tests/unit/test_rules.c — every rule of rules.md, per variant, with games written as attempt lists.
 * Board 2x2: a1 b1 on the top row, a2 b2 below; a1-b1, a1-a2, b1-a2, b1-b2, a2-b2 are neighbours. */
#include "test_util.h"

static const hx_variant dark[] = { HX_CLASSICAL, HX_ABRUPT, HX_CLASSICAL_NOISY, HX_CLASSICAL_FLASH,
                                   HX_ABRUPT_NOISY, HX_ABRUPT_FLASH };
#define NDARK (int)(sizeof dark / sizeof dark[0])

/* rules.md: B a1, W a1 (collision, White loses the turn), B a2 joins top and bottom: Black wins. */
static void abrupt_collision_then_black_wins(void **state)
{
    (void)state;
    hx_game g;
    int out[3];
    start(&g, HX_ABRUPT, 2, 2, 0);
    assert_int_equal(play(&g, "a1 a1 a2", out), 3);
    assert_int_equal(out[0], HX_PLACED);
    assert_int_equal(out[1], HX_COLLISION);
    assert_int_equal(out[2], HX_PLACED);
    assert_int_equal(hx_winner(&g), HX_BLACK);
    assert_int_equal(hx_to_move(&g), HX_NOBODY);
    assert_int_equal(hx_attempt(&g, cell_of(&g, "b1")), HX_ERR_OVER);
}

/* Classical family: the rejected mover learns the stone and moves again. */
static void rejection_keeps_turn(void **state)
{
    (void)state;
    for (int v = HX_CLASSICAL; v < HX_VARIANT_COUNT; v++) {
        if (!hx_variant_keeps_turn((hx_variant)v))
            continue;
        hx_game g;
        int out[3];
        start(&g, (hx_variant)v, 2, 2, 0);
        play(&g, "a1 a1", out);
        assert_int_equal(out[1], HX_REJECTED);
        assert_int_equal(hx_to_move(&g), HX_WHITE);
        assert_string_equal(view_str(&g, HX_WHITE), "B./..");
        assert_int_equal(hx_hidden(&g, HX_WHITE), 0);
        play(&g, "b1", out);
        assert_int_equal(out[0], HX_PLACED);
        assert_int_equal(hx_to_move(&g), HX_BLACK);
        assert_string_equal(view_str(&g, HX_BLACK), "B./..");
        assert_int_equal(hx_hidden(&g, HX_BLACK), 1);
    }
}

/* Abrupt family: the collision reveals the stone and costs the turn. */
static void collision_loses_turn(void **state)
{
    (void)state;
    for (int i = 0; i < NDARK; i++) {
        if (hx_variant_keeps_turn(dark[i]))
            continue;
        hx_game g;
        int out[2];
        start(&g, dark[i], 3, 3, 0);
        play(&g, "b2 b2", out);
        assert_int_equal(out[1], HX_COLLISION);
        assert_int_equal(hx_to_move(&g), HX_BLACK);
        assert_string_equal(view_str(&g, HX_WHITE), ".../.B./...");
    }
}

/* Noisy and flash reports go to the stone's owner only, and only in those variants. */
static void reports_reach_only_the_opponent(void **state)
{
    (void)state;
    for (int i = 0; i < NDARK; i++) {
        hx_game g;
        hx_event ev[HX_MAX_EVENTS];
        start(&g, dark[i], 3, 3, 0);
        play(&g, "b2 b2", NULL);
        int b2 = cell_of(&g, "b2");

        int nw = hx_events(&g, HX_WHITE, ev);
        assert_int_equal(nw, 1);
        assert_int_equal(ev[0].kind, hx_variant_keeps_turn(dark[i]) ? HX_EV_REJECTED : HX_EV_COLLIDED);
        assert_int_equal(ev[0].cell, b2);

        int nb = hx_events(&g, HX_BLACK, ev);
        assert_int_equal(ev[0].kind, HX_EV_PLACED);
        switch (hx_variant_report(dark[i])) {
        case HX_REPORT_NONE:
            assert_int_equal(nb, 1);
            break;
        case HX_REPORT_NOISY:
            assert_int_equal(nb, 2);
            assert_int_equal(ev[1].kind, HX_EV_OPP_HIT);
            assert_int_equal(ev[1].cell, 0);
            break;
        case HX_REPORT_FLASH:
            assert_int_equal(nb, 2);
            assert_int_equal(ev[1].kind, HX_EV_OPP_HIT_AT);
            assert_int_equal(ev[1].cell, b2);
            break;
        }
        /* A successful placement is never reported in a dark variant. */
        if (hx_to_move(&g) == HX_WHITE)
            play(&g, "a1", NULL);
        else
            play(&g, "a1 a3", NULL);
        int before = hx_key_length(&g, HX_BLACK);
        play(&g, "c3", NULL); /* White's placement (or Black's own after the collision) */
        assert_int_equal(hx_events(&g, HX_BLACK, ev), hx_key_length(&g, HX_BLACK));
        if (hx_move_at(&g, hx_num_attempts(&g) - 1).player == HX_WHITE)
            assert_int_equal(hx_key_length(&g, HX_BLACK), before);
    }
}

/* Hex: every stone is visible, each player is told the opponent's moves, occupied cells are illegal. */
static void hex_is_perfect_information(void **state)
{
    (void)state;
    hx_game g;
    hx_event ev[HX_MAX_EVENTS];
    start(&g, HX_HEX, 3, 3, 0);
    play(&g, "a1 b2", NULL);
    assert_string_equal(view_str(&g, HX_BLACK), "B../.W./...");
    assert_string_equal(view_str(&g, HX_WHITE), "B../.W./...");
    assert_int_equal(hx_events(&g, HX_BLACK, ev), 2);
    assert_int_equal(ev[1].kind, HX_EV_OPP_PLACED);
    assert_int_equal(ev[1].cell, cell_of(&g, "b2"));
    assert_int_equal(hx_attempt(&g, cell_of(&g, "b2")), HX_ERR_KNOWN);
    assert_int_equal(hx_attempt(&g, cell_of(&g, "a1")), HX_ERR_OWN);
    assert_int_equal(hx_num_legal(&g), 7);
    assert_int_equal(hx_hidden(&g, HX_BLACK), 0);
}

/* Legal attempts are exactly the cells unknown in the mover's view, ascending. */
static void legal_attempts_follow_the_view(void **state)
{
    (void)state;
    hx_game g;
    uint16_t legal[HX_MAX_CELLS + 1];
    start(&g, HX_CLASSICAL, 3, 3, 0);
    play(&g, "b2", NULL);
    assert_int_equal(hx_legal(&g, legal), 9); /* White cannot see b2 */
    for (int i = 0; i < 9; i++)
        assert_int_equal(legal[i], i);
    play(&g, "b2", NULL); /* rejected: now White knows it */
    int n = hx_legal(&g, legal);
    assert_int_equal(n, 8);
    assert_int_equal(hx_num_legal(&g), 8);
    for (int i = 0; i < n; i++)
        assert_int_not_equal(legal[i], cell_of(&g, "b2"));
    play(&g, "a1", NULL);
    assert_int_equal(hx_legal(&g, legal), 8); /* Black: all but its own b2 */
}

/* Illegal attempts are refused and leave the game as it was. */
static void illegal_attempts_change_nothing(void **state)
{
    (void)state;
    hx_game g;
    start(&g, HX_CLASSICAL, 3, 3, 0);
    play(&g, "a1 a1 b1", NULL); /* White learned a1 and placed b1 */
    assert_int_equal(hx_attempt(&g, cell_of(&g, "a1")), HX_ERR_OWN);
    assert_int_equal(hx_attempt(&g, 9), HX_ERR_RANGE);
    assert_int_equal(hx_attempt(&g, -1), HX_ERR_RANGE);
    assert_int_equal(hx_attempt(&g, HX_SWAP), HX_ERR_SWAP);
    play(&g, "b1 c1", NULL); /* Black rejected at b1, placed c1 */
    assert_int_equal(hx_check(&g, cell_of(&g, "a1")), HX_ERR_KNOWN);
    assert_int_equal(hx_check(&g, cell_of(&g, "b1")), HX_ERR_OWN);
    assert_int_equal(hx_attempt(&g, cell_of(&g, "a1")), HX_ERR_KNOWN);
    assert_int_equal(hx_num_attempts(&g), 5);
    assert_int_equal(hx_to_move(&g), HX_WHITE);
    assert_int_equal(hx_check(&g, cell_of(&g, "c1")), 0); /* unknown to White: legal */
}

static void swap_rule(void **state)
{
    (void)state;
    hx_game g;
    uint16_t legal[HX_MAX_CELLS + 1];
    hx_event ev[HX_MAX_EVENTS];
    int out[2];
    start(&g, HX_HEX, 3, 3, HX_SWAP_RULE);
    assert_false(hx_can_swap(&g));
    play(&g, "b1", NULL);
    assert_true(hx_can_swap(&g));
    int n = hx_legal(&g, legal);
    assert_int_equal(n, 9); /* 8 empty cells and swap */
    assert_int_equal(legal[n - 1], HX_SWAP);
    play(&g, "swap", out);
    assert_int_equal(out[0], HX_SWAPPED);
    /* b1 is row 0 column 1: the White stone goes to row 1 column 0, a2. */
    assert_string_equal(view_str(&g, HX_BLACK), ".../W../...");
    assert_int_equal(hx_to_move(&g), HX_BLACK);
    assert_int_equal(hx_stones(&g, HX_BLACK), 0);
    assert_int_equal(hx_stones(&g, HX_WHITE), 1);
    assert_int_equal(hx_events(&g, HX_BLACK, ev), 2);
    assert_int_equal(ev[1].kind, HX_EV_SWAP);
    assert_int_equal(ev[1].cell, cell_of(&g, "a2"));
    assert_int_equal(hx_attempt(&g, cell_of(&g, "a2")), HX_ERR_KNOWN);
    play(&g, "b1", NULL); /* the old cell is free again */
    assert_int_equal(hx_attempt(&g, HX_SWAP), HX_ERR_SWAP);

    /* The stone on the diagonal swaps onto itself; the swapped stone joins White's groups. */
    start(&g, HX_HEX, 2, 2, HX_SWAP_RULE);
    play(&g, "a1 swap", NULL);
    assert_string_equal(view_str(&g, HX_WHITE), "W./..");
    play(&g, "a2 b1", NULL); /* b1 joins a1 (left) to the right column: White wins */
    assert_int_equal(hx_winner(&g), HX_WHITE);

    /* Not on other variants, not on rectangular boards, not without the flag, not later. */
    assert_int_equal(hx_new(&g, HX_CLASSICAL, 3, 3, HX_SWAP_RULE), HX_ERR_SWAP_RULE);
    assert_int_equal(hx_new(&g, HX_HEX, 3, 4, HX_SWAP_RULE), HX_ERR_SWAP_RULE);
    start(&g, HX_HEX, 3, 3, 0);
    play(&g, "a1", NULL);
    assert_int_equal(hx_attempt(&g, HX_SWAP), HX_ERR_SWAP);
    start(&g, HX_HEX, 3, 3, HX_SWAP_RULE);
    play(&g, "a1 b1 c1", NULL);
    assert_int_equal(hx_attempt(&g, HX_SWAP), HX_ERR_SWAP);
}

static void wins_on_both_edge_pairs(void **state)
{
    (void)state;
    hx_game g;
    start(&g, HX_HEX, 3, 3, 0);
    play(&g, "a1 c1 a2 c2 a3", NULL); /* column a: top to bottom */
    assert_int_equal(hx_winner(&g), HX_BLACK);

    start(&g, HX_HEX, 3, 3, 0);
    play(&g, "b1 c1 a2 c2 a3", NULL); /* b1-a2 are neighbours (r+1, c-1) */
    assert_int_equal(hx_winner(&g), HX_BLACK);

    start(&g, HX_HEX, 3, 3, 0);
    play(&g, "a1 a2 a3 b2 c3 c2", NULL); /* row 2: left to right */
    assert_int_equal(hx_winner(&g), HX_WHITE);

    start(&g, HX_HEX, 3, 3, 0);
    play(&g, "a1 c1 b2 a3 c3", NULL); /* a1, b2, c3 are not neighbours (r+1, c+1 is not adjacent) */
    assert_false(hx_over(&g));

    for (int i = 0; i < NDARK; i++) { /* in the dark, after White hits a1 */
        start(&g, dark[i], 2, 2, 0);
        play(&g, "a1 a1", NULL);
        if (hx_variant_keeps_turn(dark[i])) {
            play(&g, "a2 b1", NULL); /* White moves again: a2; Black b1 joins only the top row */
            assert_false(hx_over(&g));
            play(&g, "b2", NULL); /* a2-b2: left to right */
            assert_int_equal(hx_winner(&g), HX_WHITE);
        } else {
            play(&g, "a2", NULL); /* White lost the turn: a1-a2 top to bottom */
            assert_int_equal(hx_winner(&g), HX_BLACK);
        }
    }
}

/* Rectangular boards in both orientations: the short side is the easy one to cross. */
static void rectangular_boards(void **state)
{
    (void)state;
    hx_game g;
    start(&g, HX_HEX, 2, 5, 0); /* 2 rows, 5 columns: Black needs two stones */
    play(&g, "c1 a1 c2", NULL);
    assert_int_equal(hx_winner(&g), HX_BLACK);

    start(&g, HX_CLASSICAL, 5, 2, 0); /* 5 rows, 2 columns: White needs two stones */
    play(&g, "a1 a3 a2 b3", NULL);
    assert_int_equal(hx_winner(&g), HX_WHITE);
    assert_string_equal(view_str(&g, HX_BLACK), "B./B./../../..");

    start(&g, HX_ABRUPT, 2, 19, 0);
    play(&g, "s1 a1 s2", NULL);
    assert_int_equal(hx_winner(&g), HX_BLACK);
    start(&g, HX_ABRUPT, 19, 2, 0);
    play(&g, "a19 a1 b19 b1", NULL);
    assert_int_equal(hx_winner(&g), HX_WHITE);
}

/* The longest games: 2*R*C - 1 attempts in the dark variants (found exhaustively in test_tree too). */
static void longest_games(void **state)
{
    (void)state;
    hx_game g;
    int out[7];
    start(&g, HX_CLASSICAL, 2, 2, 0);
    /* B a1; W a1 rejected, W b2; B b2 rejected, B b1; W b1 rejected, W a2 joins a2-b2: White wins. */
    assert_int_equal(play(&g, "a1 a1 b2 b2 b1 b1 a2", out), 7);
    int expect[7] = { HX_PLACED, HX_REJECTED, HX_PLACED, HX_REJECTED, HX_PLACED, HX_REJECTED, HX_PLACED };
    assert_memory_equal(out, expect, sizeof expect);
    assert_int_equal(hx_winner(&g), HX_WHITE);

    start(&g, HX_ABRUPT, 2, 2, 0);
    /* B a1; W b1; B b1 collides; W a1 collides; B b2; W b2 collides; B a2 joins a1-a2: Black wins. */
    assert_int_equal(play(&g, "a1 b1 b1 a1 b2 b2 a2", out), 7);
    assert_int_equal(hx_winner(&g), HX_BLACK);

    start(&g, HX_HEX, 2, 2, 0);
    assert_int_equal(play(&g, "a1 b1 b2 a2", NULL), 4); /* hex: R*C */
    assert_int_equal(hx_winner(&g), HX_WHITE);
}

/* With HX_PLAY_TO_FULL a connection does not end the game; the full board decides. */
static void play_to_full(void **state)
{
    (void)state;
    hx_game g;
    start(&g, HX_CLASSICAL, 2, 2, HX_PLAY_TO_FULL);
    play(&g, "a1 b1 a2", NULL);
    assert_false(hx_over(&g));
    play(&g, "a1 a2 b2", NULL);
    assert_int_equal(hx_winner(&g), HX_BLACK);
}

/* rules.md: a Black opening at b1 or a2 wins with certainty in hex and every classical variant: the
 * opening touches one edge and has two neighbours on the other, so Black attempts the first and, if that
 * is refused (occupied in hex, rejected in the dark), the second. Checked against every first turn of
 * White. In abrupt the refusal is a collision that ends Black's turn, and White completes its row. */
static int plan_wins_against_all(const hx_game *g, const char *plan)
{
    if (hx_to_move(g) == HX_WHITE) { /* enumerate every White turn, rejections included */
        uint16_t moves[HX_MAX_CELLS + 1];
        int n = hx_legal(g, moves);
        for (int i = 0; i < n; i++) {
            hx_game c = *g;
            hx_attempt(&c, moves[i]);
            if (!plan_wins_against_all(&c, plan))
                return 0;
        }
        return 1;
    }
    hx_game c = *g;
    char buf[16];
    snprintf(buf, sizeof buf, "%s", plan);
    for (char *s = NULL, *t = strtok_r(buf, " ", &s); t && hx_to_move(&c) == HX_BLACK; t = strtok_r(NULL, " ", &s))
        if (hx_check(&c, cell_of(&c, t)) == 0)
            hx_attempt(&c, cell_of(&c, t));
    return hx_winner(&c) == HX_BLACK;
}

static void two_by_two_openings(void **state)
{
    (void)state;
    for (int v = 0; v < HX_VARIANT_COUNT; v++) {
        int abrupt = hx_variant_dark((hx_variant)v) && !hx_variant_keeps_turn((hx_variant)v);
        hx_game g;
        start(&g, (hx_variant)v, 2, 2, 0);
        play(&g, "b1", NULL);
        assert_int_equal(plan_wins_against_all(&g, "a2 b2"), !abrupt);
        assert_int_equal(plan_wins_against_all(&g, "b2 a2"), !abrupt);
        start(&g, (hx_variant)v, 2, 2, 0);
        play(&g, "a2", NULL);
        assert_int_equal(plan_wins_against_all(&g, "a1 b1"), !abrupt);
    }
}

static void abrupt_opening_is_not_a_sure_win(void **state)
{
    (void)state;
    /* Whichever neighbour Black tries first, White can have taken it and then complete row 2. */
    hx_game g;
    start(&g, HX_ABRUPT, 2, 2, 0);
    play(&g, "b1 a2 a2 b2", NULL); /* B b1; W a2; B a2 collides; W b2 joins a2-b2 */
    assert_int_equal(hx_winner(&g), HX_WHITE);
    start(&g, HX_ABRUPT, 2, 2, 0);
    play(&g, "b1 b2 b2 a2", NULL); /* B b1; W b2; B b2 collides; W a2 joins a2-b2 */
    assert_int_equal(hx_winner(&g), HX_WHITE);
}

/* Policy files and checkpoints store a variant's value, the database and the protocol its name: both are
 * pinned (variant.h: the enum is only appended to), and the list in help texts is every name in order. */
static void variant_values_and_names_are_pinned(void **state)
{
    (void)state;
    static const char *const expect[] = { "hex", "classical", "abrupt", "classical-noisy", "classical-flash",
                                          "abrupt-noisy", "abrupt-flash" };
    assert_int_equal(HX_VARIANT_COUNT, 7);
    assert_int_equal(HX_ABRUPT_FLASH, 6);
    for (int v = 0; v < HX_VARIANT_COUNT; v++) {
        assert_string_equal(hx_variant_name((hx_variant)v), expect[v]);
        assert_int_equal(hx_variant_parse(expect[v]), v);
    }
    assert_null(hx_variant_name(HX_VARIANT_COUNT));
    assert_int_equal(hx_variant_parse("dark"), -1);
    assert_string_equal(hx_variant_list(),
                        "hex, classical, abrupt, classical-noisy, classical-flash, abrupt-noisy, abrupt-flash");
    assert_ptr_equal(hx_variant_list(), hx_variant_list()); /* built once */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(abrupt_collision_then_black_wins),
        cmocka_unit_test(rejection_keeps_turn),
        cmocka_unit_test(collision_loses_turn),
        cmocka_unit_test(reports_reach_only_the_opponent),
        cmocka_unit_test(hex_is_perfect_information),
        cmocka_unit_test(legal_attempts_follow_the_view),
        cmocka_unit_test(illegal_attempts_change_nothing),
        cmocka_unit_test(swap_rule),
        cmocka_unit_test(wins_on_both_edge_pairs),
        cmocka_unit_test(rectangular_boards),
        cmocka_unit_test(longest_games),
        cmocka_unit_test(play_to_full),
        cmocka_unit_test(two_by_two_openings),
        cmocka_unit_test(abrupt_opening_is_not_a_sure_win),
        cmocka_unit_test(variant_values_and_names_are_pinned),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
