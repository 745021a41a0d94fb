/* tests/e2e/test_clock.c — game clocks end to end (arena match and arena league with time controls): a bot that
 * thinks longer than its clock holds forfeits on time at that move and not before; one that takes a share of what
 * its turn says is left, or whose period gives it the time again, never does; per-agent time controls (time odds)
 * are stored per game and colour, and shown by `arena show`, the exports and the nightly report's time use.
 *
 * The thinking bots sleep (tests/agents/misbehave.c --sleep-ms, --clock-share) with clocks of seconds: every check
 * keeps 300 ms or more between a bot's time and its deadline, either way, so a loaded machine does not decide them.
 * Recording bots (ARENA_RECORD) show which clock keys each turn carried: those of the player's own clock only when it
 * has one and speaks protocol 2, the opponent's only when the opponent has one. */
#include <string.h>

#include "protocol.h"
#include "test_sys.h"

static char bin[512], agents[512], tmp[64], db[128], out[1 << 16];

static int setup(void **state)
{
    (void)state;
    const char *a = getenv("ARENA_TEST_AGENTS");
    snprintf(agents, sizeof agents, "%s", a ? a : "build/release/tests/agents");
    return e2e_dirs(tmp, "arena-clock-test", bin) != 0 ? -1 : (snprintf(db, sizeof db, "%s/r.db", tmp), 0);
}

static int teardown(void **state)
{
    (void)state;
    return e2e_cleanup(tmp);
}

/* Runs a shell command; returns its exit status, its stdout in `out`. */
static int run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int run(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = sh_vcapture(out, sizeof out, fmt, ap);
    va_end(ap);
    return rc;
}

/* The text of file `name` under tmp (malloc'd). */
static char *file_text(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", tmp, name);
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("no %s", path);
    char *text = read_all(f);
    fclose(f);
    return text;
}

static long q(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static long q(const char *fmt, ...)
{
    char sql[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(sql, sizeof sql, fmt, ap);
    va_end(ap);
    return db_scalar(db, sql);
}

/* arena match on hex RxC, from the empty board (the counts of attempts below are a whole game's), with these
 * options between the misbehave bot with `a_args` (stored as "a") and a plain one ("b"): its run id. */
static long match(const char *board, int games, const char *options, const char *a_args)
{
    int rc = run("%s/arena match --variant hex --board %s --games %d --db %s --logs %s/logs --quiet --json "
                 "--openings none %s 'name=a %s/misbehave %s' 'name=b %s/misbehave'",
                 bin, board, games, db, tmp, options, agents, a_args, agents);
    if (rc != 0)
        fail_msg("arena match exited with %d: %s", rc, out);
    const char *p = strstr(out, "\"run\":");
    assert_non_null(p);
    return strtol(p + 6, NULL, 10);
}

/* A bot that thinks 1 s a move on a clock of 2.5 s (margin 0.2 s, move budget 10 s): its 1st and 2nd moves are in
 * time (1.5 s and 0.5 s left), its 3rd overruns the clock: a forfeit on time naming the clock, after exactly two
 * stored attempts of it, as Black and as White (hex 4x4: nobody wins before the 7th attempt). */
static void a_clock_forfeits_on_time_and_not_before(void **state)
{
    (void)state;
    long run_id = match("4x4", 2, "--time-control 2.5 --move-time 10000 --margin 200", "--sleep-ms 1000");
    assert_int_equal(q("SELECT count(*) FROM games WHERE run_id = %ld", run_id), 2);
    assert_int_equal(q("SELECT count(*) FROM games g JOIN agents w ON w.id = CASE g.winner WHEN 'B' THEN g.black ELSE"
                       " g.white END WHERE run_id = %ld AND w.name = 'b' AND reason = 'timeout' AND detail LIKE"
                       " 'out of time: clock 0 ms left (%% ms at its turn, +200 ms margin; tc 2.5)'", run_id), 2);
    for (int colour = 0; colour < 2; colour++) {
        const char *me = colour ? "white" : "black", *opp = colour ? "black" : "white", *c = colour ? "W" : "B";
        long g = q("SELECT g.id FROM games g JOIN agents a ON a.id = g.%s WHERE run_id = %ld AND a.name = 'a'", me,
                   run_id);
        assert_true(g > 0);
        /* its two moves in time, stored, with their thinking times; none after */
        assert_int_equal(q("SELECT count(*) FROM attempts WHERE game_id = %ld AND player = '%s'", g, c), 2);
        assert_int_equal(q("SELECT count(*) FROM attempts WHERE game_id = %ld AND player = '%s' AND ms >= 1000", g, c),
                         2);
        assert_int_equal(q("SELECT %s_clock_ms FROM games WHERE id = %ld", me, g), 0);
        assert_int_equal(q("SELECT count(*) FROM games WHERE id = %ld AND %s_tc = '2.5' AND %s_tc = '2.5'", g, me, opp),
                         1);
        long left = q("SELECT %s_clock_ms FROM games WHERE id = %ld", opp, g);
        assert_true(left > 0 && left <= 2500);
    }
}

/* A bot that takes half of what each turn says is left, on 4+0.5: it never overruns (the increment keeps its
 * clock at 1 s or more, half of it to spare), so it was told its clock (its first move takes 2 s), and in its two
 * or more moves of a game it used 3.25 s or more of the 4 s it started with, without a forfeit. */
static void a_bot_that_spends_its_clock_in_shares_does_not_forfeit(void **state)
{
    (void)state;
    long run_id = match("3x3", 2, "--time-control 4+0.5 --move-time 10000 --margin 200", "--clock-share 0.5");
    assert_int_equal(q("SELECT count(*) FROM games WHERE run_id = %ld AND reason = 'connected'", run_id), 2);
    assert_int_equal(q("SELECT count(*) FROM games g JOIN agents a ON a.id = g.black JOIN attempts t ON"
                       " t.game_id = g.id AND t.n = 1 WHERE run_id = %ld AND a.name = 'a' AND t.ms >= 1900", run_id), 1);
    assert_int_equal(q("SELECT count(*) FROM games g JOIN agents a ON a.name = 'a' AND a.id IN (g.black, g.white)"
                       " WHERE run_id = %ld AND (SELECT sum(ms) FROM attempts t WHERE t.game_id = g.id AND"
                       " t.player = CASE WHEN a.id = g.black THEN 'B' ELSE 'W' END) >= 3200", run_id), 2);
    assert_int_equal(q("SELECT count(*) FROM games WHERE run_id = %ld AND black_tc = '4+0.5' AND white_tc = '4+0.5'"
                       " AND black_clock_ms > 0 AND white_clock_ms > 0", run_id), 2);
    /* the quick bot's clock: 4 s, less a few ms a move, plus 0.5 s for each of its moves */
    assert_int_equal(q("SELECT count(*) FROM games g JOIN agents b ON b.name = 'b' AND b.id IN (g.black, g.white)"
                       " WHERE run_id = %ld AND CASE WHEN b.id = g.black THEN black_clock_ms ELSE white_clock_ms END"
                       " > 4250", run_id), 2);
}

/* 0.6 s a move on 2/1.5 (the 1.5 s again after every 2 moves): 0.3 s left after its 2nd move, then 1.8 s; without
 * the period it would forfeit at its 3rd move (hex 4x4: three moves or more each). */
static void a_period_gives_the_time_again(void **state)
{
    (void)state;
    long run_id = match("4x4", 2, "--time-control 2/1.5 --move-time 10000 --margin 200", "--sleep-ms 600");
    assert_int_equal(q("SELECT count(*) FROM games WHERE run_id = %ld AND reason = 'connected'", run_id), 2);
    assert_int_equal(q("SELECT count(*) FROM games g JOIN agents a ON a.name = 'a' AND a.id IN (g.black, g.white)"
                       " WHERE run_id = %ld AND (SELECT count(*) FROM attempts t WHERE t.game_id = g.id AND t.player ="
                       " CASE WHEN a.id = g.black THEN 'B' ELSE 'W' END AND t.ms >= 600) >= 3", run_id), 2);
}

/* --time-control A,B: each bot its own clock, stored by colour as the colours alternate; shown by arena show (text
 * and JSON) and carried by the PGN, SGF and JSON exports. A game without clocks shows and exports none of it. */
static void time_odds_are_stored_shown_and_exported(void **state)
{
    (void)state;
    long run_id = match("3x3", 2, "--time-control 60+1,30", "");
    long g1 = q("SELECT min(id) FROM games WHERE run_id = %ld", run_id), g2 = g1 + 1;
    assert_int_equal(q("SELECT count(*) FROM games WHERE id = %ld AND black_tc = '60+1' AND white_tc = '30'", g1), 1);
    assert_int_equal(q("SELECT count(*) FROM games WHERE id = %ld AND black_tc = '30' AND white_tc = '60+1'", g2), 1);
    long left = q("SELECT black_clock_ms FROM games WHERE id = %ld", g1);
    assert_true(left > 0 && left <= 60000 + 1000 * 5);

    assert_int_equal(run("%s/arena show --db %s %ld", bin, db, g1), 0);
    char want[128];
    snprintf(want, sizeof want, "clocks: Black 60+1, %ld.%03ld s left; White 30, ", left / 1000, left % 1000);
    if (!strstr(out, want))
        fail_msg("no '%s' in:\n%s", want, out);
    assert_int_equal(run("%s/arena show --json --db %s %ld", bin, db, g1), 0);
    snprintf(want, sizeof want, "\"time_control\":{\"B\":\"60+1\",\"W\":\"30\"},\"clock_ms\":{\"B\":%ld,", left);
    assert_non_null(strstr(out, want));
    assert_int_equal(run("%s/arena export --format pgn --db %s --run %ld", bin, db, run_id), 0);
    assert_non_null(strstr(out, "[WhiteTimeControl \"60+1\"]\n[BlackTimeControl \"30\"]\n[HexClockLeft \"B:"));
    assert_non_null(strstr(out, "[WhiteTimeControl \"30\"]\n[BlackTimeControl \"60+1\"]\n"));
    assert_null(strstr(out, "[TimeControl"));
    assert_int_equal(run("%s/arena export --format sgf --db %s --run %ld", bin, db, run_id), 0);
    assert_non_null(strstr(out, "; Black clock 60+1, "));
    assert_non_null(strstr(out, "; White clock 30, "));
    assert_null(strstr(out, "TM["));
    assert_int_equal(run("%s/arena export --format json --db %s --run %ld", bin, db, run_id), 0);
    assert_non_null(strstr(out, "\"time_control\":{\"B\":\"30\",\"W\":\"60+1\"}"));

    long plain = match("3x3", 2, "", "");
    long g = q("SELECT min(id) FROM games WHERE run_id = %ld", plain);
    assert_int_equal(q("SELECT count(*) FROM games WHERE run_id = %ld AND black_tc IS NULL AND white_tc IS NULL"
                       " AND black_clock_ms IS NULL", plain), 2);
    assert_int_equal(run("%s/arena show --db %s %ld", bin, db, g), 0);
    assert_null(strstr(out, "clocks:"));
    assert_int_equal(run("%s/arena export --format pgn --db %s --run %ld", bin, db, plain), 0);
    assert_null(strstr(out, "TimeControl"));
    assert_null(strstr(out, "HexClockLeft"));
    assert_int_equal(run("%s/arena export --format json --db %s --run %ld", bin, db, plain), 0);
    assert_null(strstr(out, "time_control"));
}

/* A league's time_control is every agent's unless the agent has its own (or none); both are stored per game. The
 * same time control for both players is one PGN [TimeControl] and SGF TM and OT. */
static void league_time_controls_per_agent(void **state)
{
    (void)state;
    char path[160];
    snprintf(path, sizeof path, "%s/c.ini", tmp);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "[league]\nname = clocks\nvariants = hex\nboards = 3x3\ngames = 2\ntime_control = 40/60+0.5\n"
               "[agent a]\ncommand = %s/misbehave\n[agent b]\ncommand = %s/misbehave\ntime_control = 10+0.25\n"
               "[agent c]\ncommand = %s/misbehave\ntime_control = none\n",
            agents, agents, agents);
    fclose(f);
    int rc = run("%s/arena league %s --db %s --logs %s/logs --quiet >/dev/null", bin, path, db, tmp);
    assert_int_equal(rc, 0);
    const char *by_agent = "SELECT count(*) FROM games g JOIN agents a ON a.id = g.black JOIN agents b ON b.id ="
                           " g.white WHERE (a.name = '%s' AND g.black_tc %s) OR (b.name = '%s' AND g.white_tc %s)";
    assert_int_equal(q(by_agent, "a", "= '40/60+0.5'", "a", "= '40/60+0.5'"), 4);
    assert_int_equal(q(by_agent, "b", "= '10+0.25'", "b", "= '10+0.25'"), 4);
    assert_int_equal(q(by_agent, "c", "IS NULL", "c", "IS NULL"), 4);
    assert_int_equal(q("SELECT count(*) FROM games WHERE black_clock_ms IS NULL <> (black_tc IS NULL)"), 0);
    /* the nightly report's time use: each agent's time control and clock use */
    assert_int_equal(run("%s/arena report --db %s --league clocks --out %s/page --bootstrap 20 >/dev/null", bin, db,
                         tmp), 0);
    char *md = file_text("page/report.md");
    assert_non_null(strstr(md, "Game clocks (time control MOVES/SECONDS+INCREMENT; the league's 40/60+0.5"));
    assert_non_null(strstr(md, "| time control | games | mean left s | least left s | out of time |"));
    assert_non_null(strstr(md, "| 10+0.25 | 4 |"));
    assert_non_null(strstr(md, "| 40/60+0.5 | 4 |"));
    assert_non_null(strstr(md, "| none | 0 |"));
    free(md);

    snprintf(path, sizeof path, "%s/x.ini", tmp);
    f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "[league]\nname = same\nvariants = hex\nboards = 3x3\ngames = 2\ntime_control = 40/60+0.5\n"
               "[agent a]\ncommand = %s/misbehave\n[agent b]\ncommand = %s/misbehave --mode first\n",
            agents, agents);
    fclose(f);
    assert_int_equal(run("%s/arena league %s --db %s --logs %s/logs --quiet >/dev/null", bin, path, db, tmp), 0);
    assert_int_equal(run("%s/arena export --format pgn --db %s --league same", bin, db), 0);
    assert_non_null(strstr(out, "[TimeControl \"40/60+0.5\"]\n[HexClockLeft \"B:"));
    assert_int_equal(run("%s/arena export --format sgf --db %s --league same", bin, db), 0);
    assert_non_null(strstr(out, "TM[60]OT[60 s again after every 40 moves; 0.5 s added per move]"));

    /* a league without clocks: no clock table in its report */
    snprintf(path, sizeof path, "%s/n.ini", tmp);
    f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "[league]\nname = plain\nvariants = hex\nboards = 3x3\ngames = 2\n[agent a]\ncommand = %s/misbehave\n"
               "[agent b]\ncommand = %s/misbehave --mode first\n", agents, agents);
    fclose(f);
    assert_int_equal(run("%s/arena league %s --db %s --logs %s/logs --quiet >/dev/null", bin, path, db, tmp), 0);
    assert_int_equal(run("%s/arena report --db %s --league plain --out %s/plain --bootstrap 20 >/dev/null", bin, db,
                         tmp), 0);
    md = file_text("plain/report.md");
    assert_non_null(strstr(md, "thinking time per attempt"));
    assert_null(strstr(md, "game clocks"));
    free(md);
}

/* The turns in record file `name` under tmp (what a misbehave bot with ARENA_RECORD received): how many, and how many
 * carried clock_ms (with inc_ms and moves_to_go) and opp_clock_ms. */
static void turns_told(const char *name, int *turns, int *clock, int *opp_clock)
{
    char path[256], why[256];
    snprintf(path, sizeof path, "%s/%s", tmp, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("no %s", path);
    static uint8_t data[1 << 20];
    static pm_msg m;
    size_t len = fread(data, 1, sizeof data, f);
    fclose(f);
    *turns = *clock = *opp_clock = 0;
    for (size_t off = 0; off + 4 <= len;) {
        size_t n = data[off] | data[off + 1] << 8 | data[off + 2] << 16 | (size_t)data[off + 3] << 24;
        if (pm_decode(data + off + 4, n, &m, why, sizeof why) != 0)
            fail_msg("%s: an undecodable message: %s", name, why);
        off += 4 + n;
        if (m.type != PM_TURN)
            continue;
        ++*turns;
        *clock += m.has_clock;
        *opp_clock += m.has_opp_clock;
    }
}

/* Each turn carries the clocks of the players who have one, as of this turn: with time odds against a player
 * without a clock (an agent's time_control = none), the clocked player is told its own clock and never an
 * opponent's, and the other is told the opponent's clock and never one of its own; a protocol-1 player in a game
 * with clocks is told none, while its protocol-2 opponent is told both. (The runner's turn message once kept the
 * clock keys of the previous turn, which told each of them the other's clock as its own or its opponent's.) */
static void turns_carry_only_the_clocks_that_exist(void **state)
{
    (void)state;
    static const char *leagues[2][2] = { { "timed", "free" }, { "new", "old" } };
    static const char *extra[2][2] = { { "", "time_control = none\n" }, { "", "args = --protocol 1\n" } };
    for (int l = 0; l < 2; l++) {
        char path[160];
        snprintf(path, sizeof path, "%s/l%d.ini", tmp, l);
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fprintf(f, "[league]\nname = clocks-%d\nvariants = hex, classical\nboards = 4x4\ngames = 4\nopenings = none\n"
                   "time_control = 60+1\nsandbox = off\n", l);
        for (int a = 0; a < 2; a++)
            fprintf(f, "[agent %s]\ncommand = %s/misbehave\n%senv = ARENA_RECORD=%s/%s.bin\n", leagues[l][a], agents,
                    extra[l][a], tmp, leagues[l][a]);
        fclose(f);
        assert_int_equal(run("%s/arena league %s --db %s --logs %s/logs --quiet >/dev/null", bin, path, db, tmp), 0);
    }
    /* what each player was told, turn by turn: {clock_ms, opp_clock_ms} in every turn (1) or none (0) */
    static const char *who[4] = { "timed", "free", "new", "old" };
    static const int want[4][2] = { { 1, 0 }, { 0, 1 }, { 1, 1 }, { 0, 0 } };
    for (int i = 0; i < 4; i++) {
        char name[32];
        snprintf(name, sizeof name, "%s.bin", who[i]);
        int turns, clock, opp;
        turns_told(name, &turns, &clock, &opp);
        if (turns < 8 || clock != want[i][0] * turns || opp != want[i][1] * turns)
            fail_msg("%s: %d turns, %d with clock_ms and %d with opp_clock_ms; expected %s and %s", who[i], turns,
                     clock, opp, want[i][0] ? "all" : "none", want[i][1] ? "all" : "none");
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(a_clock_forfeits_on_time_and_not_before, setup, teardown),
        cmocka_unit_test_setup_teardown(a_bot_that_spends_its_clock_in_shares_does_not_forfeit, setup, teardown),
        cmocka_unit_test_setup_teardown(a_period_gives_the_time_again, setup, teardown),
        cmocka_unit_test_setup_teardown(time_odds_are_stored_shown_and_exported, setup, teardown),
        cmocka_unit_test_setup_teardown(league_time_controls_per_agent, setup, teardown),
        cmocka_unit_test_setup_teardown(turns_carry_only_the_clocks_that_exist, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
