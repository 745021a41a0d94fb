/* tests/e2e/test_mcbot.c — bin/mc as a program: --help, bad options (exit 2 naming the option), and short
 * `arena match`es against bin/random in hex, classical and abrupt, in their sandboxes, with no forfeit, also on a game
 * clock shorter than its --time-ms would need. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_sys.h"

E2E_FIXTURE(tmp, "arena-mcbot-test")

static void help_and_bad_options(void **state)
{
    (void)state;
    char *help = NULL;
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s/mc' --help", bin);
    help = sh_output(cmd);
    assert_non_null(strstr(help, "usage: mc"));
    assert_non_null(strstr(help, "--time-ms"));
    assert_non_null(strstr(help, "--samples"));
    free(help);
    static const char *bad[][2] = { { "--samples x", "--samples" }, { "--time-ms -1", "--time-ms" },
                                    { "--fill sideways", "--fill" }, { "--seed", "--seed" } };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(cmd, sizeof cmd, "'%s/mc' %s 2>&1; echo status=$?", bin, bad[i][0]);
        char *out = sh_output(cmd);
        if (!strstr(out, bad[i][1]) || !strstr(out, "status=2"))
            fail_msg("mc %s: %s", bad[i][0], out);
        free(out);
    }
}

static void plays_matches_against_random(void **state)
{
    (void)state;
    static const char *runs[][2] = { { "hex", "3x3" }, { "classical", "5x5" }, { "abrupt", "4x6" } };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        char db[128];
        snprintf(db, sizeof db, "%s/m%zu.db", tmp, i);
        assert_int_equal(sh_run("'%s/arena' match --variant %s --board %s --games 4 --quiet --db '%s' "
                                "'%s/mc --time-ms 20' '%s/random --seed 2' >/dev/null",
                                bin, runs[i][0], runs[i][1], db, bin, bin), 0);
        assert_int_equal(db_scalar(db, "SELECT count(*) FROM games"), 4);
        if (db_scalar(db, "SELECT count(*) FROM games WHERE reason <> 'connected'") != 0)
            fail_msg("%s %s: a game did not end by a connection (a forfeit)", runs[i][0], runs[i][1]);
    }
}

/* With a game clock, mc thinks for its share of the clock (bot_time_for_move), not what --time-ms asks: asked for
 * 500 ms a move on a clock of 2 s for the whole game (classical 5x5: five attempts or more each), it would run out
 * by its 5th attempt; it plays both games to their end instead. */
static void mc_spends_its_clock_in_shares(void **state)
{
    (void)state;
    char db[128];
    snprintf(db, sizeof db, "%s/clock.db", tmp);
    assert_int_equal(sh_run("'%s/arena' match --variant classical --board 5x5 --games 2 --quiet --db '%s' "
                            "--time-control 2 --move-time 5000 '%s/mc --time-ms 500' '%s/random --seed 2' >/dev/null",
                            bin, db, bin, bin), 0);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games WHERE reason = 'connected' AND black_tc = '2'"), 2);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games g JOIN agents a ON a.id = g.black WHERE a.name = 'mc'"
                                   " AND (SELECT count(*) FROM attempts t WHERE t.game_id = g.id AND t.player = 'B')"
                                   " >= 5"), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(help_and_bad_options),
        cmocka_unit_test(plays_matches_against_random),
        cmocka_unit_test(mc_spends_its_clock_in_shares),
    };
    return cmocka_run_group_tests(tests, e2e_setup, e2e_teardown);
}
