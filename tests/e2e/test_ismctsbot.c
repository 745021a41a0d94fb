/* tests/e2e/test_ismctsbot.c — bin/ismcts as a program: --help, bad options (exit 2 naming the option), short
 * `arena match`es against bin/random in every variant on small boards from openings, in their sandboxes, with no
 * forfeit (so never an illegal cell, never one it already knows, never late) and its sure-win key never lost
 * (its logs), and on a game clock shorter than its --time-ms would need; as Black on classical 3x3 from the
 * empty board it wins every game (its sure win); with --policy (a certified equilibrium of abrupt 3x2 written by
 * `arena classify --check --policy`) every attempt of a game from the empty board comes from the file and the first
 * is one the equilibrium plays, none of a game from an opening does, and a bad file is refused naming it. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_sys.h"

E2E_FIXTURE(tmp, "arena-ismcts-test")

static void help_and_bad_options(void **state)
{
    (void)state;
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s/ismcts' --help", bin);
    char *help = sh_output(cmd);
    assert_non_null(strstr(help, "usage: ismcts"));
    assert_non_null(strstr(help, "--time-ms"));
    assert_non_null(strstr(help, "--iterations"));
    assert_non_null(strstr(help, "--samples"));
    assert_non_null(strstr(help, "--no-surewin"));
    assert_non_null(strstr(help, "--surewin-unknown"));
    assert_non_null(strstr(help, "--dead-exact"));
    assert_non_null(strstr(help, "default auto"));
    assert_non_null(strstr(help, "--mix T"));
    assert_non_null(strstr(help, "--opponent-grow P"));
    assert_non_null(strstr(help, "--opponent-goal P"));
    assert_non_null(strstr(help, "--policy FILE"));
    assert_non_null(strstr(help, "--policy-dir DIR"));
    free(help);
    static const char *bad[][2] = { { "--iterations x", "--iterations" }, { "--time-ms 0", "--time-ms" },
                                    { "--samples 99999", "--samples" }, { "--uct -1", "--uct" },
                                    { "--seed", "--seed" }, { "--surewin-unknown 17", "--surewin-unknown" },
                                    { "--surewin-mb 0", "--surewin-mb" }, { "--dead-exact x", "--dead-exact" },
                                    { "--belief middle", "uniform, centre, auto" }, { "--mix -1", "--mix" },
                                    { "--opponent-grow 1.5", "--opponent-grow" }, { "--opponent-goal x", "--opponent-goal" },
                                    { "--policy", "--policy needs a value" } };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(cmd, sizeof cmd, "'%s/ismcts' %s 2>&1; echo status=$?", bin, bad[i][0]);
        char *out = sh_output(cmd);
        if (!strstr(out, bad[i][1]) || !strstr(out, "status=2"))
            fail_msg("ismcts %s: %s", bad[i][0], out);
        free(out);
    }
}

/* Every variant, 3x3 and 4x4 or 4x5, 6 games each from random two-stone openings, both colours; in the logs, no
 * game where the bot lost its sure-win key. */
static void plays_every_variant_against_random(void **state)
{
    (void)state;
    static const char *variants[] = { "hex", "classical", "abrupt", "classical-noisy", "classical-flash",
                                      "abrupt-noisy", "abrupt-flash" };
    static const char *boards[] = { "3x3", "4x4", "4x5" }; /* 3x3 and, alternately by variant, 4x4 or 4x5 */
    int run = 0;
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++)
        for (size_t b = 0; b < 3; b++) {
            if (b > 0 && b != 1 + v % 2)
                continue;
            char db[128], logs[128];
            snprintf(db, sizeof db, "%s/m%d.db", tmp, run);
            snprintf(logs, sizeof logs, "%s/logs%d", tmp, run++);
            assert_int_equal(sh_run("'%s/arena' match --variant %s --board %s --games 6 --quiet --db '%s' --logs '%s' "
                                    "'%s/ismcts --iterations 40 --seed %d' '%s/random --seed 2' >/dev/null",
                                    bin, variants[v], boards[b], db, logs, bin, run, bin), 0);
            /* The sure-win key was followed through every game, openings included (the bot notes a lost one). */
            assert_int_equal(sh_run("ls '%s'/*ismcts* >/dev/null && ! grep -q 'no sure-win key' '%s'/*", logs, logs), 0);
            assert_int_equal(db_scalar(db, "SELECT count(*) FROM games"), 6);
            if (db_scalar(db, "SELECT count(*) FROM games WHERE reason <> 'connected'") != 0)
                fail_msg("%s %s: a game did not end by a connection (a forfeit)", variants[v], boards[b]);
        }
}

/* Classical 3x3 from the empty board is a sure win for Black: as Black it wins every game through the SDK
 * (its sure-win key followed from the events the arena sends), against random and mc. */
static void wins_surely_as_black_on_classical_3x3(void **state)
{
    (void)state;
    static const char *opponents[] = { "random --seed 4", "mc --samples 50" };
    for (int k = 0; k < 2; k++) {
        char db[128];
        snprintf(db, sizeof db, "%s/sure%d.db", tmp, k);
        assert_int_equal(sh_run("'%s/arena' match --variant classical --board 3x3 --games 12 --openings none "
                                "--quiet --db '%s' '%s/ismcts --iterations 20' '%s/%s' >/dev/null",
                                bin, db, bin, bin, opponents[k]), 0);
        assert_int_equal(db_scalar(db, "SELECT count(*) FROM games g JOIN agents a ON a.id = g.black WHERE "
                                       "a.name = 'ismcts' AND g.winner = 'B' AND g.reason = 'connected'"), 6);
    }
}

/* Asked for 500 ms an attempt on a clock of 2 s for the whole game (classical 5x5: five attempts or more each),
 * it would run out by its 5th attempt; it thinks for its share of the clock instead and plays both games out. */
static void spends_its_clock_in_shares(void **state)
{
    (void)state;
    char db[128];
    snprintf(db, sizeof db, "%s/clock.db", tmp);
    assert_int_equal(sh_run("'%s/arena' match --variant classical --board 5x5 --games 2 --quiet --db '%s' "
                            "--time-control 2 --move-time 5000 '%s/ismcts --time-ms 500' '%s/random --seed 2' "
                            ">/dev/null", bin, db, bin, bin), 0);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games WHERE reason = 'connected' AND black_tc = '2'"), 2);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games g JOIN agents a ON a.id = g.black WHERE a.name = "
                                   "'ismcts' AND (SELECT count(*) FROM attempts t WHERE t.game_id = g.id AND "
                                   "t.player = 'B') >= 5"), 1);
}

/* The equilibrium of abrupt 3x2, certified and written as a policy file: from the empty board the bot plays it at
 * every attempt (its log's count equals its attempts in the database), Black's first attempt always one of the
 * cells the certificate's root state plays; from openings it searches every attempt (the file's states are those
 * of play from the empty board). A missing file, a certificate given as a policy and a directory without .pol
 * files are refused (exit 2) naming the file. */
static void plays_a_certified_equilibrium(void **state)
{
    (void)state;
    assert_int_equal(sh_run("'%s/arena' solve --variant abrupt --board 3x2 --method sequence-oracle --solver clp --exact "
                            "--certificate '%s/eq.value' >/dev/null && '%s/arena' classify --check --policy '%s/eq.pol' "
                            "'%s/eq.value' >/dev/null", bin, tmp, bin, tmp, tmp), 0);
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "sed -n 's/^black - //p' '%s/eq.value'", tmp);
    char *root = sh_output(cmd); /* "a1=P/Q b2=P/Q ..." */
    assert_non_null(strchr(root, '='));
    for (int opening = 0; opening < 2; opening++) {
        char db[128], logs[128];
        snprintf(db, sizeof db, "%s/eq%d.db", tmp, opening);
        snprintf(logs, sizeof logs, "%s/eqlogs%d", tmp, opening);
        assert_int_equal(sh_run("'%s/arena' match --variant abrupt --board 3x2 --games 40 --openings %s --quiet --db '%s' "
                                "--logs '%s' '%s/ismcts --iterations 50 --policy %s/eq.pol' '%s/random --seed 3' >/dev/null",
                                bin, opening ? "random" : "none", db, logs, bin, tmp, bin), 0);
        snprintf(cmd, sizeof cmd, "cat '%s'/*ismcts* | sed -n 's/.*: \\([0-9]*\\) moves from the policy files/\\1/p' | "
                 "awk '{ s += $1; n++ } END { print n, s }'", logs);
        char *sum = sh_output(cmd);
        long games = 0, moves = -1;
        assert_int_equal(sscanf(sum, "%ld %ld", &games, &moves), 2);
        free(sum);
        assert_int_equal(games, 40);
        long attempts = db_scalar(db, "SELECT count(*) FROM attempts t JOIN games g ON g.id = t.game_id JOIN agents a "
                                      "ON a.id = (CASE t.player WHEN 'B' THEN g.black ELSE g.white END) WHERE "
                                      "a.name = 'ismcts' AND t.n > g.opening");
        assert_true(attempts > 40);
        assert_int_equal(moves, opening ? 0 : attempts);
        if (opening)
            continue;
        snprintf(cmd, sizeof cmd, "sqlite3 '%s' \"SELECT t.cell FROM attempts t JOIN games g ON g.id = t.game_id JOIN "
                 "agents a ON a.id = g.black WHERE a.name = 'ismcts' AND t.n = 1\"", db);
        char *firsts = sh_output(cmd);
        int n = 0;
        for (char *save = NULL, *c = strtok_r(firsts, "\n", &save); c; c = strtok_r(NULL, "\n", &save), n++) {
            char pat[16];
            snprintf(pat, sizeof pat, "%s=", c);
            if (!strstr(root, pat))
                fail_msg("ismcts opened at %s, which the equilibrium (%s) never plays", c, root);
        }
        assert_int_equal(n, 20);
        free(firsts);
    }
    free(root);
    static const char *bad[] = { "--policy /nonexistent/eq.pol", "--policy %s/eq.value", "--policy-dir %s/eqlogs0" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char arg[300];
        snprintf(arg, sizeof arg, bad[i], tmp);
        snprintf(cmd, sizeof cmd, "'%s/ismcts' %s 2>&1; echo status=$?", bin, arg);
        char *out = sh_output(cmd);
        if (!strstr(out, strchr(arg, ' ') + 1) || !strstr(out, "status=2"))
            fail_msg("ismcts %s: %s", arg, out);
        free(out);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(help_and_bad_options),
        cmocka_unit_test(plays_every_variant_against_random),
        cmocka_unit_test(wins_surely_as_black_on_classical_3x3),
        cmocka_unit_test(spends_its_clock_in_shares),
        cmocka_unit_test(plays_a_certified_equilibrium),
    };
    return cmocka_run_group_tests(tests, e2e_setup, e2e_teardown);
}
