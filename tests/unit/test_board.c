/* tests/unit/test_board.c — board sizes, cell names and variant names. */
#include "test_util.h"

static void board_sizes(void **state)
{
    (void)state;
    int r, c;
    const char *why;
    assert_true(hx_board_parse("3x4", &r, &c, &why));
    assert_int_equal(r, 3);
    assert_int_equal(c, 4);
    assert_true(hx_board_parse("19X2", &r, &c, &why));
    assert_int_equal(r, 19);
    assert_int_equal(c, 2);
    const char *bad[] = { "", "3", "3x", "x3", "1x3", "3x20", "20x3", "3x3x3", "-3x3", "3 x3", "03x3x", "99999x3" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_false(hx_board_parse(bad[i], &r, &c, &why));
}

static void cell_names_round_trip_on_every_board(void **state)
{
    (void)state;
    char name[HX_CELL_NAME_MAX];
    const char *why;
    for (int rows = HX_MIN_SIDE; rows <= HX_MAX_SIDE; rows++)
        for (int cols = HX_MIN_SIDE; cols <= HX_MAX_SIDE; cols++)
            for (int i = 0; i < rows * cols; i++) {
                hx_cell_name(i, cols, name);
                assert_int_equal(hx_cell_parse(name, rows, cols, &why), i);
            }
    hx_cell_name(1 * 4 + 2, 4, name);
    assert_string_equal(name, "c2"); /* rules.md: c2 is row 1, column 2 */
    hx_cell_name(18 * 19 + 18, 19, name);
    assert_string_equal(name, "s19");
}

static void cell_names_are_case_insensitive_and_checked(void **state)
{
    (void)state;
    const char *why;
    assert_int_equal(hx_cell_parse("C2", 3, 3, &why), 5);
    assert_int_equal(hx_cell_parse("a1", 2, 2, &why), 0);
    const char *bad[] = { "", "a", "1a", "a0", "a01", "d1", "a4", "a-1", "aa1", "a1x", "?" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        why = NULL;
        assert_int_equal(hx_cell_parse(bad[i], 3, 3, &why), -1);
        assert_non_null(why);
    }
}

static void variant_names(void **state)
{
    (void)state;
    for (int v = 0; v < HX_VARIANT_COUNT; v++)
        assert_int_equal(hx_variant_parse(hx_variant_name((hx_variant)v)), v);
    assert_int_equal(hx_variant_parse("Classical-Flash"), HX_CLASSICAL_FLASH);
    assert_int_equal(hx_variant_parse("dark"), -1);
    assert_null(hx_variant_name(HX_VARIANT_COUNT));
    assert_false(hx_variant_dark(HX_HEX));
    assert_true(hx_variant_keeps_turn(HX_CLASSICAL_NOISY));
    assert_false(hx_variant_keeps_turn(HX_ABRUPT_FLASH));
    assert_int_equal(hx_variant_report(HX_ABRUPT_NOISY), HX_REPORT_NOISY);
    assert_int_equal(hx_variant_report(HX_CLASSICAL), HX_REPORT_NONE);
    hx_game g;
    assert_int_equal(hx_new(&g, HX_VARIANT_COUNT, 3, 3, 0), HX_ERR_VARIANT);
    assert_int_equal(hx_new(&g, HX_HEX, 1, 3, 0), HX_ERR_SIZE);
    assert_int_equal(hx_new(&g, HX_HEX, 3, 20, 0), HX_ERR_SIZE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(board_sizes),
        cmocka_unit_test(cell_names_round_trip_on_every_board),
        cmocka_unit_test(cell_names_are_case_insensitive_and_checked),
        cmocka_unit_test(variant_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
