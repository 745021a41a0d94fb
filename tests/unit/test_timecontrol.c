/* tests/unit/test_timecontrol.c — time controls: every form of MOVES/SECONDS+INC parsed and written back the same,
 * bad ones refused with what is wrong, and a game clock charged, incremented per completed move and given a new
 * period after each MOVES-th. */
#include "test_util.h"
#include "timecontrol.h"

static void forms_parse_and_format(void **state)
{
    (void)state;
    static const struct {
        const char *text, *canonical;
        int moves;
        uint32_t base, inc;
    } cases[] = {
        { "40/60+0.5", "40/60+0.5", 40, 60000, 500 }, { "300", "300", 0, 300000, 0 },
        { "60+1", "60+1", 0, 60000, 1000 },         { "40/60", "40/60", 40, 60000, 0 },
        { "0.25+0.125", "0.25+0.125", 0, 250, 125 }, { "1.500+0", "1.5", 0, 1500, 0 },
        { "1000/86400+86400", "1000/86400+86400", 1000, 86400000, 86400000 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tc_control tc;
        char why[160], text[TC_TEXT_MAX];
        if (!tc_parse(cases[i].text, &tc, why, sizeof why))
            fail_msg("%s: %s", cases[i].text, why);
        assert_int_equal(tc.moves, cases[i].moves);
        assert_int_equal(tc.base_ms, cases[i].base);
        assert_int_equal(tc.inc_ms, cases[i].inc);
        assert_string_equal(tc_format(&tc, text, sizeof text), cases[i].canonical);
        tc_control again;
        assert_true(tc_parse(text, &again, why, sizeof why));
        assert_memory_equal(&again, &tc, sizeof tc);
    }
}

static void bad_forms_are_refused(void **state)
{
    (void)state;
    static const struct {
        const char *text, *says;
    } cases[] = {
        { "", "expected SECONDS" },          { "0", "expected SECONDS (more than 0" },
        { "40/", "after '/'" },              { "/60", "expected MOVES" },
        { "0/60", "expected MOVES" },        { "1001/60", "expected MOVES (1 to 1000)" },
        { "60+", "expected INCREMENT" },     { "60+-1", "expected INCREMENT" },
        { "60.", "expected SECONDS" },       { ".5", "expected SECONDS" },
        { "1.0001", "at most 3 decimals" },  { "86401", "at most 86400" },
        { "99999999999999999999", "at most 86400" }, { "60+1+1", "expected INCREMENT" },
        { "40/60/2", "expected SECONDS" },   { "+1/60", "expected MOVES" },
        { "1e3", "expected SECONDS" },       { " 60", "expected SECONDS" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tc_control tc;
        char why[160] = "";
        if (tc_parse(cases[i].text, &tc, why, sizeof why))
            fail_msg("'%s' accepted", cases[i].text);
        if (!strstr(why, cases[i].says) || !strstr(why, cases[i].text))
            fail_msg("'%s': '%s' (expected '%s' and the text)", cases[i].text, why, cases[i].says);
    }
}

static void clock_runs_and_periods_repeat(void **state)
{
    (void)state;
    tc_control tc;
    char why[160];
    assert_true(tc_parse("2/10+1", &tc, why, sizeof why));
    tc_clock c;
    tc_clock_start(&c, &tc);
    assert_int_equal(c.left_ms, 10000);
    assert_int_equal(tc_clock_moves_to_go(&c), 2);
    assert_true(tc_clock_charge(&c, 2999.6)); /* rounded to the ms */
    assert_int_equal(c.left_ms, 7000);
    assert_true(tc_clock_charge(&c, 1000)); /* a rejected attempt: the same move, no increment */
    assert_int_equal(c.left_ms, 6000);
    tc_clock_complete(&c);
    assert_int_equal(c.left_ms, 7000);
    assert_int_equal(tc_clock_moves_to_go(&c), 1);
    assert_true(tc_clock_charge(&c, 7000)); /* all of it: still in time */
    assert_int_equal(c.left_ms, 0);
    tc_clock_complete(&c); /* the 2nd move: the increment and a new period */
    assert_int_equal(c.left_ms, 11000);
    assert_int_equal(tc_clock_moves_to_go(&c), 2);
    assert_false(tc_clock_charge(&c, 11000.5)); /* over: the clock stops at 0 */
    assert_int_equal(c.left_ms, 0);

    assert_true(tc_parse("5", &tc, why, sizeof why)); /* sudden death: no new time, no moves to go */
    tc_clock_start(&c, &tc);
    for (int i = 0; i < 50; i++)
        tc_clock_complete(&c);
    assert_int_equal(c.left_ms, 5000);
    assert_int_equal(tc_clock_moves_to_go(&c), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(forms_parse_and_format),
        cmocka_unit_test(bad_forms_are_refused),
        cmocka_unit_test(clock_runs_and_periods_repeat),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
