/* tests/unit/test_payoff.c — pure-strategy payoff matrices (arena/solver/payoff.h): every entry of small
 * matrices against the tests' own play-out driver, the order and number of strategies, the facts of rules.md,
 * the size bounds, and the comparison with the thesis's abrupt 2x2 matrix that docs/payoff.md reports. */
#include "test_util.h"
#include "payoff.h"
#include "payoff_replay.h"

/* Builds the matrix, failing the test on error. */
static void build_rule(po_matrix *m, hx_variant v, int rows, int cols, int moves, po_order order, po_rule rule)
{
    int err = po_build(m, v, rows, cols, moves, order, rule);
    if (err < 0)
        fail_msg("po_build %s %dx%d moves %d: %s", hx_variant_name(v), rows, cols, moves, po_strerror(err));
}

static void build(po_matrix *m, hx_variant v, int rows, int cols, int moves, po_order order)
{
    build_rule(m, v, rows, cols, moves, order, PO_STOP);
}

/* Every entry of the matrix, under both rules, against payoff_replay(); returns how many entries the rules
 * give differently. */
static int check_every_entry(hx_variant v, int rows, int cols, int moves)
{
    po_matrix m[2];
    build_rule(&m[0], v, rows, cols, moves, PO_ORDER_INDEX, PO_STOP);
    build_rule(&m[1], v, rows, cols, moves, PO_ORDER_INDEX, PO_PASS);
    assert_int_equal(m[0].n, po_strategies(rows * cols, moves));
    int differ = 0;
    for (int r = 0; r < 2; r++)
        for (uint32_t b = 0; b < m[r].n; b++)
            for (uint32_t w = 0; w < m[r].n; w++) {
                int want = payoff_replay(v, rows, cols, po_strategy(&m[r], b), po_strategy(&m[r], w), moves, r, NULL);
                if (want < 0 || want != po_outcome(&m[r], b, w))
                    fail_msg("%s %dx%d moves %d, %s, entry %u,%u: matrix %c, replay %d", hx_variant_name(v), rows,
                             cols, moves, r ? "pass" : "stop", b, w, po_outcome_char(po_outcome(&m[r], b, w)), want);
                differ += r && po_outcome(&m[0], b, w) != po_outcome(&m[1], b, w);
            }
    po_free(&m[0]);
    po_free(&m[1]);
    return differ;
}

/* Every entry of the 2x2 matrices (1 to 4 moves, every variant) and of some 3x2 and 2x3 ones; the two rules
 * for a player with no cell left agree in the abrupt family and with one move, not in hex and classical. */
static void every_entry_replays(void **state)
{
    (void)state;
    assert_int_equal(check_every_entry(HX_ABRUPT, 2, 2, 2), 0);
    assert_int_equal(po_strategies(4, 2), 12); /* the thesis's 12 x 12 */
    for (int v = 0; v < HX_VARIANT_COUNT; v++) {
        bool abrupt = !hx_variant_keeps_turn((hx_variant)v) && v != HX_HEX;
        for (int moves = 1; moves <= 4; moves++) {
            int differ = check_every_entry((hx_variant)v, 2, 2, moves);
            if (abrupt || moves == 1)
                assert_int_equal(differ, 0);
            else if (moves == 2)
                assert_true(differ > 0);
            if (moves == 2 && (v == HX_HEX || v == HX_CLASSICAL))
                print_message("2x2 %s, 2 moves: %d entries differ between stop and pass\n",
                              hx_variant_name((hx_variant)v), differ);
        }
    }
    assert_true(check_every_entry(HX_CLASSICAL, 3, 2, 2) > 0);
    assert_int_equal(check_every_entry(HX_ABRUPT, 3, 2, 2), 0);
    assert_true(check_every_entry(HX_HEX, 3, 2, 2) > 0);
    assert_int_equal(check_every_entry(HX_ABRUPT_FLASH, 2, 3, 2), 0);
    check_every_entry(HX_CLASSICAL_NOISY, 2, 3, 3);
}

/* Each rule by hand: classical 2x2, Black a1 b1 against White b1 b2: Black a1 placed, White b1 placed, Black
 * b1 rejected, and Black has no cell left. stop: no winner. pass: White plays b2 alone, but b1 b2 is only the
 * right column: no winner either. Against White b1 a2, White's a2 alone joins its sides: White wins. */
static void pass_rule_by_hand(void **state)
{
    (void)state;
    uint16_t black[2] = { 0, 1 }, w1[2] = { 1, 3 }, w2[2] = { 1, 2 };
    int trace[4];
    for (int r = 0; r < 2; r++) {
        hx_game g;
        po_tail tail;
        start(&g, HX_CLASSICAL, 2, 2, 0);
        assert_int_equal(po_playout(&g, black, w1, 2, (po_rule)r, &tail), HX_NOBODY);
        assert_int_equal(hx_num_attempts(&g), 3);
        assert_int_equal(hx_move_at(&g, 2).outcome, HX_REJECTED);
        assert_int_equal(tail.n, r);
        start(&g, HX_CLASSICAL, 2, 2, 0);
        assert_int_equal(po_playout(&g, black, w2, 2, (po_rule)r, &tail), r ? HX_WHITE : HX_NOBODY);
        assert_int_equal(tail.n, r);
        if (r) {
            assert_int_equal(tail.player, HX_WHITE);
            assert_int_equal(tail.cell[0], 2);
            assert_int_equal(tail.outcome[0], HX_PLACED);
        }
        assert_int_equal(payoff_replay(HX_CLASSICAL, 2, 2, black, w2, 2, r, trace), r ? HX_WHITE : HX_NOBODY);
    }
    /* a play-out that reaches the pass on a board of more than 64 cells is refused */
    hx_game g;
    start(&g, HX_CLASSICAL, 9, 9, 0);
    assert_int_equal(po_playout(&g, black, w1, 2, PO_PASS, NULL), PO_ERR_PASS);
}

/* A sample of a larger matrix (3x3, 3 moves: 504 x 504), one row in 17 and one column in 13. */
static void larger_board_sample(void **state)
{
    (void)state;
    const hx_variant vs[] = { HX_HEX, HX_CLASSICAL, HX_ABRUPT_FLASH };
    for (int k = 0; k < 3; k++) {
        po_matrix m;
        build(&m, vs[k], 3, 3, 3, PO_ORDER_INDEX);
        assert_int_equal(m.n, 504);
        int counts[3] = { 0, 0, 0 };
        for (uint32_t b = 0; b < m.n; b += 17)
            for (uint32_t w = 0; w < m.n; w += 13) {
                int want = payoff_replay(vs[k], 3, 3, po_strategy(&m, b), po_strategy(&m, w), 3, false, NULL);
                assert_int_equal(po_outcome(&m, b, w), want);
                counts[want]++;
            }
        assert_true(counts[HX_BLACK] > 0); /* three stones can join the top and bottom of a 3x3 board */
        po_free(&m);
    }
}

/* Rows and columns: every sequence of distinct cells once, in lexicographic order of the order's numbers. */
static void strategies_in_order(void **state)
{
    (void)state;
    const int boards[][3] = { { 2, 2, 2 }, { 2, 3, 3 }, { 3, 2, 2 }, { 3, 3, 2 }, { 2, 2, 4 }, { 4, 3, 1 } };
    for (size_t i = 0; i < sizeof boards / sizeof boards[0]; i++)
        for (int o = 0; o < 2; o++) {
            int rows = boards[i][0], cols = boards[i][1], moves = boards[i][2];
            po_matrix m;
            build(&m, HX_ABRUPT, rows, cols, moves, (po_order)o);
            uint64_t expect = 1;
            for (int k = 0; k < moves; k++)
                expect *= (uint64_t)(rows * cols - k);
            assert_int_equal(m.n, expect);
            int prev[HX_MAX_CELLS] = { 0 };
            for (uint32_t s = 0; s < m.n; s++) {
                const uint16_t *c = po_strategy(&m, s);
                int num[HX_MAX_CELLS], cmp = 0;
                for (int k = 0; k < moves; k++) {
                    assert_true(c[k] < rows * cols);
                    for (int j = 0; j < k; j++)
                        assert_int_not_equal(c[j], c[k]);
                    num[k] = o == PO_ORDER_COLUMN ? (c[k] % cols) * rows + c[k] / cols : c[k];
                    if (cmp == 0)
                        cmp = num[k] - prev[k];
                }
                if (s > 0)
                    assert_true(cmp > 0); /* strictly increasing: no repeats, none missing (the count) */
                memcpy(prev, num, sizeof num);
            }
            po_free(&m);
        }
}

/* The index of the strategy with these cells ("a1b2", rows 1 to 9), or fails. */
static uint32_t find(const po_matrix *m, const char *label)
{
    uint16_t want[8];
    for (int k = 0; k < m->moves; k++)
        want[k] = (uint16_t)((label[2 * k + 1] - '1') * m->cols + (label[2 * k] - 'a'));
    uint32_t s = 0;
    while (s < m->n && memcmp(po_strategy(m, s), want, (size_t)m->moves * sizeof want[0]) != 0)
        s++;
    if (s == m->n)
        fail_msg("no strategy %s", label);
    return s;
}

/* rules.md "Known facts": Black a1, White a1 (collision), Black a2 wins in abrupt; a Black opening at b1 or a2
 * wins surely in hex and classical (given the cells to fall back on), not in abrupt. */
static void known_facts(void **state)
{
    (void)state;
    po_matrix m;
    build(&m, HX_ABRUPT, 2, 2, 2, PO_ORDER_INDEX);
    const char *white[] = { "a1b1", "a1a2", "a1b2" };
    for (int i = 0; i < 3; i++)
        assert_int_equal(po_outcome(&m, find(&m, "a1a2"), find(&m, white[i])), HX_BLACK);
    int trace[4];
    uint16_t b[2] = { 0, 2 }, w[2] = { 0, 1 }; /* a1 a2 against a1 b1 */
    assert_int_equal(payoff_replay(HX_ABRUPT, 2, 2, b, w, 2, false, trace), HX_BLACK);
    assert_int_equal(trace[1], 0 | HX_WHITE << 9 | HX_COLLISION << 10);
    po_free(&m);

    /* With 3 moves, a row that starts at b1 (or a2) and then tries both cells that join it to the other side
     * wins against every White sequence in hex and classical; in abrupt no row wins against all of them. */
    const hx_variant vs[] = { HX_HEX, HX_CLASSICAL, HX_CLASSICAL_FLASH, HX_ABRUPT, HX_ABRUPT_NOISY };
    for (int k = 0; k < 5; k++) {
        build(&m, vs[k], 2, 2, 3, PO_ORDER_INDEX);
        bool sure = hx_variant_keeps_turn(vs[k]) || vs[k] == HX_HEX;
        const char *rows[] = { "b1a2b2", "b1b2a2", "a2a1b1", "a2b1a1" };
        for (int r = 0; r < 4; r++) {
            uint32_t s = find(&m, rows[r]);
            int won = 0;
            for (uint32_t w3 = 0; w3 < m.n; w3++)
                won += po_outcome(&m, s, w3) == HX_BLACK;
            if (sure)
                assert_int_equal(won, m.n);
            else
                assert_true(won < (int)m.n);
        }
        if (!sure)
            for (uint32_t s = 0; s < m.n; s++) {
                uint32_t w3 = 0;
                while (w3 < m.n && po_outcome(&m, s, w3) == HX_BLACK)
                    w3++;
                assert_true(w3 < m.n);
            }
        po_free(&m);
    }
    /* Black's acute-corner opening a1 never wins surely: White takes the cell it needs. */
    build(&m, HX_CLASSICAL, 2, 2, 3, PO_ORDER_INDEX);
    uint32_t s = find(&m, "a1a2b1");
    assert_int_not_equal(po_outcome(&m, s, find(&m, "a2b2b1")), HX_BLACK);
    po_free(&m);
}

static void sizes_and_errors(void **state)
{
    (void)state;
    po_matrix m;
    assert_int_equal(po_strategies(4, 0), 0);
    assert_int_equal(po_strategies(4, 5), 0);
    assert_int_equal(po_strategies(9, 3), 504);
    assert_int_equal(po_strategies(361, 361), UINT64_MAX);
    assert_int_equal(po_build(&m, HX_ABRUPT, 2, 2, 0, PO_ORDER_INDEX, PO_STOP), PO_ERR_MOVES);
    po_free(&m);
    assert_int_equal(po_build(&m, HX_ABRUPT, 2, 2, 5, PO_ORDER_INDEX, PO_PASS), PO_ERR_MOVES);
    assert_int_equal(po_build(&m, HX_ABRUPT, 4, 4, 3, PO_ORDER_INDEX, PO_STOP), PO_ERR_LARGE); /* 3360^2 */
    assert_null(m.outcome);
    assert_int_equal(po_build(&m, HX_ABRUPT, 20, 2, 1, PO_ORDER_INDEX, PO_STOP), PO_ERR_GAME);
    assert_int_equal(po_build(&m, HX_VARIANT_COUNT, 2, 2, 1, PO_ORDER_INDEX, PO_STOP), PO_ERR_GAME);
    /* the largest one-move matrix: 19x19, 361 x 361 (the pass rule never needs its 64-cell limit there) */
    build_rule(&m, HX_HEX, 19, 19, 1, PO_ORDER_INDEX, PO_PASS);
    assert_int_equal(m.n, 361);
    for (uint32_t b = 0; b < m.n; b += 37)
        for (uint32_t w = 0; w < m.n; w += 41)
            assert_int_equal(po_outcome(&m, b, w), HX_NOBODY); /* one stone each connects nothing */
    po_free(&m);
}

/* The thesis's matrix (section 4), rows and columns in its order: strategies "01", "02", ... of its cell
 * numbers, "1, 0" written B, "0, 1" W and "0, 0" '-'. */
static const char *const thesis_labels[12] = { "01", "02", "03", "10", "12", "13",
                                               "20", "21", "23", "30", "31", "32" };
static const char *const thesis_rows[12] = {
    "BBB--WBBBBBB", "-----W---W--", "----W--W----", "---BBBBBBBBB", "BBBBBB---BBB", "-W----W-----",
    "-----W----W-", "BBBW--BBBBBB", "BBBBBBBBB-W-", "----W--W----", "-W----W-----", "BBBBBB-W-BBB",
};

/* Entries that differ from the thesis when its digit d stands for cell num[d] on our board, in `v`, and its
 * rows are Black's strategies (or White's: then B and W swap). With `black_collision_ends`, a play-out in
 * which Black collides counts as undecided (a hypothesis about the thesis's rule). Lists them in `list`
 * ("01/12 ", the thesis's labels) when not NULL. */
static int thesis_differences(const int num[4], hx_variant v, bool rows_white, bool black_collision_ends,
                              bool pass, char *list)
{
    int n = 0;
    if (list)
        list[0] = '\0';
    for (int r = 0; r < 12; r++)
        for (int c = 0; c < 12; c++) {
            uint16_t row[2] = { (uint16_t)num[thesis_labels[r][0] - '0'], (uint16_t)num[thesis_labels[r][1] - '0'] };
            uint16_t col[2] = { (uint16_t)num[thesis_labels[c][0] - '0'], (uint16_t)num[thesis_labels[c][1] - '0'] };
            int trace[4] = { 0, 0, 0, 0 };
            int o = rows_white ? payoff_replay(v, 2, 2, col, row, 2, pass, trace)
                               : payoff_replay(v, 2, 2, row, col, 2, pass, trace);
            assert_true(o >= 0);
            for (int i = 0; i < 4 && black_collision_ends; i++)
                if ((trace[i] >> 9 & 1) == HX_BLACK && trace[i] >> 10 == HX_COLLISION)
                    o = HX_NOBODY;
            if (rows_white && o != HX_NOBODY)
                o ^= 1;
            if (po_outcome_char(o) != thesis_rows[r][c]) {
                n++;
                if (list)
                    sprintf(list + strlen(list), "%s/%s ", thesis_labels[r], thesis_labels[c]);
            }
        }
    return n;
}

/* docs/payoff.md: with the thesis's column-by-column numbering (0 a1, 1 a2, 2 b1, 3 b2) and its rows as
 * Black's strategies, our abrupt matrix differs in exactly these 12 entries; no other numbering of the cells
 * (24), variant or reading of the rows as White's does better; the hypothesis that a collision by Black ends
 * the play-out leaves 6. --order column lists the strategies in the thesis's order. */
static void thesis_comparison(void **state)
{
    (void)state;
    static const int column[4] = { 0, 2, 1, 3 }; /* a1 a2 b1 b2 as cell indices */
    char list[12 * 12 * 6 + 1];
    assert_int_equal(thesis_differences(column, HX_ABRUPT, false, false, false, list), 12);
    assert_string_equal(list, "01/12 02/21 02/30 02/31 03/31 10/02 12/20 21/10 21/13 30/02 31/12 32/20 ");
    assert_int_equal(thesis_differences(column, HX_ABRUPT, false, true, false, list), 6);
    assert_string_equal(list, "01/13 02/30 02/31 21/10 23/31 32/21 ");

    int best = 1000, at_best = 0;
    const hx_variant vs[] = { HX_ABRUPT, HX_CLASSICAL, HX_HEX };
    for (int p = 0; p < 256; p++) {
        int perm[4] = { p & 3, p >> 2 & 3, p >> 4 & 3, p >> 6 };
        if (perm[0] == perm[1] || perm[0] == perm[2] || perm[0] == perm[3] || perm[1] == perm[2] ||
            perm[1] == perm[3] || perm[2] == perm[3])
            continue;
        bool thesis = memcmp(perm, column, sizeof perm) == 0;
        bool half_turn = perm[0] == 3 && perm[1] == 1 && perm[2] == 2 && perm[3] == 0;
        for (int k = 0; k < 3; k++)
            for (int rw = 0; rw < 4; rw++) {
                int d = thesis_differences(perm, vs[k], rw & 1, false, rw >> 1, NULL);
                if (d < best)
                    best = d, at_best = 0;
                at_best += d == best && !rw && vs[k] == HX_ABRUPT;
                if (d <= 12 && ((rw & 1) || !(thesis || half_turn)))
                    fail_msg("numbering %d%d%d%d, rows %s, %s: %d entries differ", perm[0], perm[1], perm[2],
                             perm[3], rw & 1 ? "White" : "Black", hx_variant_name(vs[k]), d);
                if (thesis)
                    print_message("thesis numbering, rows %s, %s, %s: %d entries differ\n", rw & 1 ? "White" : "Black",
                                  hx_variant_name(vs[k]), rw >> 1 ? "pass" : "stop", d);
            }
    }
    assert_int_equal(best, 12);
    assert_int_equal(at_best, 2); /* the column numbering and its half-turn (a1 <-> b2, a2 <-> b1) */

    /* --order column gives the thesis's rows and columns in its order: same labels, same entries but 12 */
    po_matrix m;
    build(&m, HX_ABRUPT, 2, 2, 2, PO_ORDER_COLUMN);
    int differ = 0;
    for (int r = 0; r < 12; r++)
        for (int c = 0; c < 12; c++) {
            for (int k = 0; k < 2; k++) {
                assert_int_equal(po_strategy(&m, (uint32_t)r)[k], column[thesis_labels[r][k] - '0']);
                assert_int_equal(po_strategy(&m, (uint32_t)c)[k], column[thesis_labels[c][k] - '0']);
            }
            differ += po_outcome_char(po_outcome(&m, (uint32_t)r, (uint32_t)c)) != thesis_rows[r][c];
        }
    assert_int_equal(differ, 12);
    po_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_entry_replays),
        cmocka_unit_test(pass_rule_by_hand),
        cmocka_unit_test(larger_board_sample),
        cmocka_unit_test(strategies_in_order),
        cmocka_unit_test(known_facts),
        cmocka_unit_test(sizes_and_errors),
        cmocka_unit_test(thesis_comparison),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
