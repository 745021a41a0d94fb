/* tests/e2e/test_match.c — `arena match` end to end with real bot processes: random vs random and random vs
 * the Python bot (summary checked against the database; each run has a secret of its own for the players'
 * seeds, shown in no output), every misbehaving test bot (each loses its games with the right reason and the
 * match completes, no process left behind), what a recording bot was told (exactly its information state,
 * and its seed derived from the game's under the run's secret), SIGTERM, bad input, and `arena games` /
 * `arena show`. */
#define _GNU_SOURCE
#include <dirent.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "agents/misbehaviours.h"
#include "protocol.h"
#include "runner.h"
#include "seeds.h"
#include "test_sys.h"

static char bin[512], agents[512], tmp[64];

static void setup_paths(void)
{
    const char *b = getenv("ARENA_BIN_DIR"), *a = getenv("ARENA_TEST_AGENTS");
    snprintf(bin, sizeof bin, "%s", b ? b : "bin");
    snprintf(agents, sizeof agents, "%s", a ? a : "build/release/tests/agents");
    if (!tmp[0]) {
        snprintf(tmp, sizeof tmp, "/tmp/arena-match-test-XXXXXX");
        assert_non_null(mkdtemp(tmp));
    }
}

/* The integer after "key": in text, searching from the first occurrence of `within` (or the start). */
static long json_int(const char *text, const char *within, const char *key)
{
    const char *p = within ? strstr(text, within) : text;
    if (!p)
        fail_msg("no %s in %s", within, text);
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    p = strstr(p, pat);
    if (!p)
        fail_msg("no key %s in %s", key, text);
    return strtol(p + strlen(pat), NULL, 10);
}



static char out[1 << 16];

/* The text of a one-value query on db (malloc'd). */
static char *db_text(const char *db, const char *sql)
{
    sqlite3 *d;
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_open_v2(db, &d, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(d, sql, -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    char *text = strdup(sqlite3_column_text(st, 0) ? (const char *)sqlite3_column_text(st, 0) : "");
    assert_non_null(text);
    sqlite3_finalize(st);
    sqlite3_close(d);
    return text;
}

/* A match of `games` games; checks the summary against the database. Returns the run id. */
static long match_checked(const char *db, const char *variant, const char *bot_a, const char *bot_b, int games,
                          bool distinct)
{
    int rc = sh_capture(out, sizeof out,
                 "%s/arena match --variant %s --board 5x5 --games %d --seed 7 --db %s --logs %s/logs --json "
                 "--quiet '%s' '%s'",
                 bin, variant, games, db, tmp, bot_a, bot_b);
    if (rc != 0)
        fail_msg("arena match exited with %d: %s", rc, out);
    long run_id = json_int(out, NULL, "run");
    long a_wins = json_int(out, "\"a\":", "wins"), b_wins = json_int(out, "\"b\":", "wins");
    long a_black = json_int(out, "\"a\":", "wins_as_black"), b_black = json_int(out, "\"b\":", "wins_as_black");
    assert_int_equal(json_int(out, NULL, "games"), games);
    assert_int_equal(a_wins + b_wins, games);
    assert_true(a_wins > 0 && b_wins > 0); /* random players: neither side wins everything in 20 games */
    for (const char *r = "timeout\0crash\0illegal\0protocol_error\0disconnected\0"; *r; r += strlen(r) + 1)
        assert_int_equal(json_int(out, "\"forfeits\":", r), 0);

    char sql[512];
    snprintf(sql, sizeof sql, "SELECT length(secret) FROM runs WHERE id = %ld", run_id);
    assert_int_equal(db_scalar(db, sql), 16);
    for (int half = 0; half < 2; half++) { /* no half of the run's secret in the summary, in hex */
        snprintf(sql, sizeof sql, "SELECT hex(substr(secret, %d, 8)) FROM runs WHERE id = %ld", 1 + 8 * half, run_id);
        char *hex = db_text(db, sql);
        assert_int_equal(strlen(hex), 16);
        assert_null(strcasestr(out, hex));
        free(hex);
    }
    snprintf(sql, sizeof sql, "SELECT count(*) FROM games WHERE run_id = %ld AND reason = 'connected'", run_id);
    assert_int_equal(db_scalar(db, sql), games);
    snprintf(sql, sizeof sql, "SELECT count(*) FROM games WHERE run_id = %ld AND winner = 'B'", run_id);
    assert_int_equal(db_scalar(db, sql), a_black + b_black);
    snprintf(sql, sizeof sql,
             "SELECT count(*) FROM games g WHERE run_id = %ld AND attempts = (SELECT count(*) FROM attempts a "
             "WHERE a.game_id = g.id) AND attempts > 0",
             run_id);
    assert_int_equal(db_scalar(db, sql), games);
    if (distinct) { /* bot_b's wins by agent name in the database */
        const char *name = strstr(out, "\"b\":{\"name\":\"");
        assert_non_null(name);
        name += strlen("\"b\":{\"name\":\"");
        snprintf(sql, sizeof sql,
                 "SELECT count(*) FROM games g JOIN agents a ON a.id = CASE g.winner WHEN 'B' THEN g.black "
                 "ELSE g.white END WHERE run_id = %ld AND a.name = '%.*s'",
                 run_id, (int)strcspn(name, "\""), name);
        assert_int_equal(db_scalar(db, sql), b_wins);
    }
    return run_id;
}

static void random_against_random_and_python(void **state)
{
    (void)state;
    setup_paths();
    char db[128], a[600], b[600];
    snprintf(db, sizeof db, "%s/random.db", tmp);
    snprintf(a, sizeof a, "%s/random --seed 1", bin);
    snprintf(b, sizeof b, "%s/random --seed 2", bin);
    long r1 = match_checked(db, "classical", a, b, 20, false);
    long r2 = match_checked(db, "abrupt-flash", a, b, 20, false);
    long r3 = match_checked(db, "classical", a, "agents/examples/random_bot.py", 20, true);
    long r4 = match_checked(db, "abrupt-flash", a, "agents/examples/random_bot.py", 20, true);
    assert_true(r1 < r2 && r2 < r3 && r3 < r4);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games"), 80);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM runs WHERE finished IS NOT NULL"), 4);
    assert_int_equal(db_scalar(db, "SELECT count(DISTINCT name) FROM agents"), 2);
    /* the same --seed, but every run its own secret for the players' seeds */
    assert_int_equal(db_scalar(db, "SELECT count(DISTINCT secret) FROM runs WHERE length(secret) = 16"), 4);

    /* arena games and arena show read what was stored */
    assert_int_equal(sh_capture(out, sizeof out, "%s/arena games --db %s --run %ld --format csv --limit 0", bin, db, r1), 0);
    int lines = 0;
    for (const char *p = out; *p; p++)
        lines += *p == '\n';
    assert_int_equal(lines, 21);
    assert_true(strncmp(out, "game,run,variant,rows,cols,black,white,winner", 45) == 0);
    assert_int_equal(sh_capture(out, sizeof out, "%s/arena games --db %s --agent pyrandom --json --limit 0", bin, db), 0);
    assert_int_equal(json_int(out, NULL, "game") > 0, 1);
    assert_int_equal(sh_capture(out, sizeof out, "%s/arena show --db %s 5", bin, db), 0);
    assert_non_null(strstr(out, "game 5: classical 5x5"));
    assert_non_null(strstr(out, ", connected\n"));
    assert_non_null(strstr(out, "1. B "));
    assert_int_equal(sh_capture(out, sizeof out, "%s/arena show --db %s 999 2>&1", bin, db), 2);
    assert_non_null(strstr(out, "no game 999"));
}

static void misbehaving_bots_forfeit_and_the_match_goes_on(void **state)
{
    (void)state;
    setup_paths();
    char db[128], tag[64];
    snprintf(db, sizeof db, "%s/faults.db", tmp);
    snprintf(tag, sizeof tag, "--tag t%d", (int)getpid());
    for (int i = 0; i < N_MISBEHAVIOURS; i++) {
        const misbehaviour *m = &MISBEHAVIOURS[i];
        /* limits apply to both bots: the opponent is then a well-behaved misbehave bot, which (unlike a
         * sanitizer-built bin/random) runs under an address-space limit */
        char opponent[600];
        if (m->match_options)
            snprintf(opponent, sizeof opponent, "'%s/misbehave --mode play'", agents);
        else
            snprintf(opponent, sizeof opponent, "%s/random", bin);
        int rc = sh_capture(out, sizeof out,
                     "%s/arena match --variant classical --board 4x4 --games 4 --move-time 300 --handshake 1000 "
                     "--db %s --logs %s/logs --json --quiet %s '%s/misbehave --mode %s %s' %s",
                     bin, db, tmp, m->match_options ? m->match_options : "", agents, m->mode, tag, opponent);
        if (rc != 0)
            fail_msg("%s: arena match exited with %d: %s", m->mode, rc, out);
        assert_int_equal(json_int(out, NULL, "games"), 4);
        assert_int_equal(json_int(out, "\"b\":", "wins"), 4);
        long run_id = json_int(out, NULL, "run");
        char sql[640];
        if (m->reason) {
            if (json_int(out, "\"forfeits\":", m->reason) != 4)
                fail_msg("%s: expected 4 forfeits by %s: %s", m->mode, m->reason, out);
            /* by agent: BOT_A (listed first) forfeited its 4 games for that reason, its opponent none */
            if (json_int(out, "\"forfeits_by_agent\":", "forfeits") != 4 ||
                json_int(strstr(out, "\"forfeits_by_agent\":"), "\"reasons\":", m->reason) != 4 ||
                json_int(strstr(strstr(out, "\"forfeits_by_agent\":"), "},{"), NULL, "forfeits") != 0)
                fail_msg("%s: forfeits by agent: %s", m->mode, out);
            snprintf(sql, sizeof sql,
                     "SELECT count(*) FROM games g JOIN agents a ON a.id = CASE g.winner WHEN 'B' THEN g.white "
                     "ELSE g.black END WHERE run_id = %ld AND reason = '%s' AND detail LIKE '%%%s%%' AND "
                     "a.command LIKE '%%--mode %s %%'",
                     run_id, m->reason, m->detail, m->mode);
        } else {
            assert_int_equal(json_int(out, "\"forfeits\":", "protocol_error") + json_int(out, "\"forfeits\":", "illegal"),
                             4);
            snprintf(sql, sizeof sql, "SELECT count(*) FROM games WHERE run_id = %ld AND reason <> 'connected'",
                     run_id);
        }
        long n = db_scalar(db, sql);
        if (n != 4)
            fail_msg("%s: %ld of 4 games recorded as '%s' with detail '%s'", m->mode, n, m->reason, m->detail);
        if (procs_with(tag, false) != 0)
            fail_msg("%s: a bot process outlived arena match", m->mode);
    }
}

/* A bot that forfeits every game is named in the text summary with its reason, and --max-forfeit-rate makes the
 * match exit with status 4 (its games are stored); at a rate it stays under, 0. */
static void forfeits_by_agent_and_the_forfeit_rate(void **state)
{
    (void)state;
    setup_paths();
    char db[128];
    snprintf(db, sizeof db, "%s/rate.db", tmp);
    const char *cmd = "%s/arena match --variant classical --board 4x4 --games 4 --move-time 300 --db %s --logs %s/logs "
                      "--quiet %s 'name=liar %s/misbehave --mode illegal' %s/random 2>&1";
    int rc = sh_capture(out, sizeof out, cmd, bin, db, tmp, "--max-forfeit-rate 0.5", agents, bin);
    if (rc != 4 || !strstr(out, "forfeits by agent: liar 4 of 4 games (illegal 4)\n") ||
        !strstr(out, "arena match: liar forfeited 4 of 4 games (100%), over --max-forfeit-rate 0.5"))
        fail_msg("exit %d: %s", rc, out);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games WHERE reason = 'illegal'"), 4);
    rc = sh_capture(out, sizeof out, cmd, bin, db, tmp, "--max-forfeit-rate 1", agents, bin);
    if (rc != 0 || strstr(out, "over --max-forfeit-rate"))
        fail_msg("exit %d: %s", rc, out);
    rc = sh_capture(out, sizeof out, cmd, bin, db, tmp, "--max-forfeit-rate 1.5", agents, bin);
    if (rc != 2 || !strstr(out, "--max-forfeit-rate 1.5: expected a share"))
        fail_msg("exit %d: %s", rc, out);
}

/* --debug: every message both ways in the bot's log, with the time; without it, none. */
static void debug_traces_both_directions(void **state)
{
    (void)state;
    setup_paths();
    char db[128], logs[160];
    snprintf(db, sizeof db, "%s/debug.db", tmp);
    for (int debug = 0; debug < 2; debug++) {
        snprintf(logs, sizeof logs, "%s/debug-logs-%d", tmp, debug);
        assert_int_equal(sh_capture(out, sizeof out, "%s/arena match --variant abrupt --board 3x3 --games 2 --quiet --db %s "
                             "--logs %s %s 'name=traced %s/random' %s/random 2>&1", bin, db, logs, debug ? "--debug" : "",
                             bin, bin), 0);
        assert_int_equal(sh_capture(out, sizeof out, "cat %s/*-traced-*.log", logs), 0);
        bool sent = strstr(out, "] debug -> {\"type\"=>\"game_start\"") && strstr(out, "] debug -> {\"type\"=>\"turn\"") &&
                    strstr(out, "] debug -> {\"type\"=>\"game_end\"");
        bool received = strstr(out, "] debug <- {\"type\"=>\"hello\"") && strstr(out, "] debug <- {\"type\"=>\"move\"");
        if (debug ? !(sent && received) : (strstr(out, "debug ") != NULL))
            fail_msg("--debug %s: %s", debug ? "on" : "off", out);
    }
}

#define CLOCK_PHASE "with a game clock (sudden death) and the swap rule"

/* arena check: every bundled bot passes (from openings, from the empty board, a fresh process per game, with a
 * sudden-death clock and the swap rule), and each misbehaving test bot fails, its checklist naming the forfeit's
 * reason and detail; a bot that cannot take a clock without a period fails that phase alone. */
static void arena_check_passes_bundled_bots_and_names_faults(void **state)
{
    (void)state;
    setup_paths();
    char db[128];
    snprintf(db, sizeof db, "%s/check.db", tmp);
    static const char *const good[] = { "%s/random", "%s/bridge", "%s/pone", "agents/examples/random_bot.py",
                                        "%s/mc --variant classical --board 3x3 --games 2" };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        char bot[600], extra[128] = "";
        snprintf(bot, sizeof bot, good[i], bin);
        /* mc thinks on every attempt (200 ms), so one variant and board keep it short; every bot gets a budget no
         * attempt comes near to on a busy machine (the time item) */
        char *cut = strstr(bot, " --variant");
        snprintf(extra, sizeof extra, "%s --move-time 5000", cut ? cut : "");
        if (cut)
            *cut = '\0';
        int rc = sh_capture(out, sizeof out, "%s/arena check --db %s --logs %s/logs --json%s '%s' 2>&1", bin, db, tmp, extra,
                     bot);
        if (rc != 0 || json_int(out, NULL, "failed") != 0 || json_int(out, NULL, "games") < 6 ||
            !strstr(out, "\"what\":\"from openings\",\"status\":\"ok\"") ||
            !strstr(out, "\"what\":\"a fresh process every game\",\"status\":\"ok\"") ||
            !strstr(out, "\"what\":\"" CLOCK_PHASE "\",\"status\":\"ok\""))
            fail_msg("arena check %s: exit %d: %s", bot, rc, out);
    }
    /* a bot that divides by moves_to_go passes every phase but the one with a sudden-death clock */
    int sd = sh_capture(out, sizeof out, "%s/arena check --db %s --logs %s/logs --variant classical --board 3x3 "
                 "'%s/misbehave --mode sudden-death' 2>&1", bin, db, tmp, agents);
    if (sd != 1 || !strstr(out, "[FAILED] classical 3x3 " CLOCK_PHASE ": forfeited 2 of 2 games; the first that explains most: crash: "
                           "exited with status 8") || !strstr(out, "[ok] from openings:") ||
        !strstr(out, "[ok] from the empty board:") || !strstr(out, "[ok] a fresh process every game:"))
        fail_msg("arena check on --mode sudden-death: exit %d: %s", sd, out);
    for (int i = 0; i < N_MISBEHAVIOURS; i++) {
        const misbehaviour *m = &MISBEHAVIOURS[i];
        if (!m->in_league || !m->reason)
            continue;
        int rc = sh_capture(out, sizeof out,
                     "%s/arena check --db %s --logs %s/logs --variant classical --board 4x4 --games 2 "
                     "--move-time 300 --handshake 1000 '%s/misbehave --mode %s' 2>&1", bin, db, tmp, agents, m->mode);
        char said[300];
        snprintf(said, sizeof said, "%s: ", m->reason);
        if (rc != 1 || !strstr(out, "[FAILED]") || !strstr(out, said) || !strstr(out, m->detail))
            fail_msg("arena check on --mode %s: exit %d, expected '%s%s': %s", m->mode, rc, said, m->detail, out);
    }
    assert_int_equal(sh_capture(out, sizeof out, "%s/arena check --games 3 %s/random 2>&1", bin, bin), 2);
}

/* The number of times `needle` occurs in the file at path. */
static int occurrences(const char *path, const char *needle)
{
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("cannot open %s", path);
    static char text[1 << 16];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    int k = 0;
    for (const char *p = text; (p = strstr(p, needle)); p += strlen(needle))
        k++;
    return k;
}

/* arena check on classical 3x3 (the board its hint names): a bot that ignores game_start's opening stones fails,
 * named so; a crash shows the bot's log and its last lines (a traceback); a move sent before the turn is named so
 * in the fresh-process phase; the rejections hint only when those options were not given; the header echoes the
 * command quoted; the logs are the last run's alone. */
static void arena_check_names_openings_crash_lines_and_early_moves(void **state)
{
    (void)state;
    setup_paths();
    char db[128], logs[128];
    snprintf(db, sizeof db, "%s/check2.db", tmp);
    snprintf(logs, sizeof logs, "%s/check-logs", tmp);
    int rc = sh_capture(out, sizeof out, "%s/arena check --db %s --logs %s --variant classical --board 3x3 "
                        "'%s/misbehave --mode ignore-openings' 2>&1", bin, db, logs, agents);
    if (rc != 1 || !strstr(out, "[FAILED] opening stones: ") || !strstr(out, "ignores the opening stone ") ||
        !strstr(out, "given in game_start's own"))
        fail_msg("arena check on --mode ignore-openings: exit %d: %s", rc, out);

    char quoted[700];
    snprintf(quoted, sizeof quoted, "--board 3x3 '%s/misbehave --mode traceback'\n", agents);
    rc = sh_capture(out, sizeof out, "%s/arena check --db %s --logs %s --variant classical --board 3x3 "
                    "'%s/misbehave --mode traceback' 2>&1", bin, db, logs, agents);
    char log[300];
    snprintf(log, sizeof log, "its log: %s/league-check-", logs);
    if (rc != 1 || !strstr(out, "crash: exited with status 1") || !strstr(out, log) ||
        !strstr(out, "| ValueError: misbehave traceback") || !strstr(out, "| Traceback (most recent call last):") ||
        !strstr(out, quoted) || !strstr(out, "[--] rejections and collisions: none happened") ||
        strstr(out, "makes them likely"))
        fail_msg("arena check on --mode traceback, classical 3x3: exit %d: %s", rc, out);
    char first[300];
    snprintf(first, sizeof first, "%s/league-check-openings-bot-1.log", logs);
    assert_int_equal(occurrences(first, "connected: misbehave-traceback"), 1);

    /* hex never rejects: the hint names the options that would; a second run: its logs alone */
    rc = sh_capture(out, sizeof out, "%s/arena check --db %s --logs %s --variant hex --board 3x3 "
                    "'%s/misbehave --mode traceback' 2>&1", bin, db, logs, agents);
    if (rc != 1 || !strstr(out, "makes them likely: --variant classical --board 3x3)"))
        fail_msg("arena check on --mode traceback, hex 3x3: exit %d: %s", rc, out);
    assert_int_equal(occurrences(first, "connected: misbehave-traceback"), 1);
    assert_int_equal(occurrences(first, "ValueError: misbehave traceback"), 1);

    rc = sh_capture(out, sizeof out, "%s/arena check --db %s --logs %s --variant classical --board 3x3 "
                    "'%s/misbehave --mode early' 2>&1", bin, db, logs, agents);
    const char *fresh = strstr(out, "[FAILED] classical 3x3 a fresh process every game: ");
    const char *end = fresh ? strchr(fresh, '\n') : NULL;
    const char *named = fresh ? strstr(fresh, "it sent a move before its turn: protocol_error: 'move' out of turn") : NULL;
    if (rc != 1 || !named || named > end)
        fail_msg("arena check on --mode early: exit %d: %s", rc, out);
}

/* Everything a recording bot received, compared with the rules: exactly its own information state, when it speaks
 * protocol 2 (its outcomes as events of its next turn or game_end, an opening in game_start) and when it speaks
 * protocol 1 (outcomes in `result`s; an opening replayed under --openings-compat replay: a result for each of its own
 * opening stones, the opponent's it is told at the head of its first turn). */
static void bots_are_told_exactly_their_information_state(void **state)
{
    (void)state;
    setup_paths();
    static const char *variants[] = { "hex", "classical", "abrupt", "classical-noisy", "classical-flash",
                                      "abrupt-noisy", "abrupt-flash" };
    char db[128], rec[128];
    snprintf(db, sizeof db, "%s/audit.db", tmp);
    static uint8_t data[1 << 20], again[PM_MAX_MESSAGE];
    static pm_msg m;
    static hx_event told[HX_MAX_EVENTS], truth[HX_MAX_EVENTS];
    char why[256];
    int audited = 0;
    static const uint16_t opening[3] = { 5, 10, 12 }; /* b2 c3 a4 on 4x4 */
    for (int run_no = 0; run_no < 4 * HX_VARIANT_COUNT; run_no++) {
        int v = run_no % HX_VARIANT_COUNT, k = run_no / HX_VARIANT_COUNT % 2 ? 3 : 0; /* then from an opening */
        int version = run_no < 2 * HX_VARIANT_COUNT ? 2 : 1, opened = 0, owed = 0;
        snprintf(rec, sizeof rec, "%s/record-%d.bin", tmp, run_no);
        unlink(rec);
        setenv("ARENA_RECORD", rec, 1);
        int rc = sh_capture(out, sizeof out,
                     "%s/arena match --variant %s --board 4x4 --games 10 --db %s --logs %s/logs --json --quiet %s "
                     "--openings-compat replay --sandbox off --env ARENA_RECORD '%s/misbehave --mode play "
                     "--protocol %d' '%s/random'",
                     bin, variants[v], db, tmp, k ? "--opening b2,c3,a4" : "--openings none", agents, version, bin);
        unsetenv("ARENA_RECORD");
        assert_int_equal(rc, 0);
        long run_id = json_int(out, NULL, "run");
        FILE *f = fopen(rec, "rb");
        assert_non_null(f);
        size_t len = fread(data, 1, sizeof data, f);
        fclose(f);

        sqlite3 *d;
        assert_int_equal(sqlite3_open_v2(db, &d, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
        sqlite3_stmt *games, *att, *secret;
        assert_int_equal(sqlite3_prepare_v2(d, "SELECT secret FROM runs WHERE id = ?", -1, &secret, NULL), SQLITE_OK);
        sqlite3_bind_int64(secret, 1, run_id);
        assert_int_equal(sqlite3_step(secret), SQLITE_ROW);
        assert_int_equal(sqlite3_column_bytes(secret, 0), SEEDS_KEY_BYTES);
        uint8_t key[SEEDS_KEY_BYTES];
        memcpy(key, sqlite3_column_blob(secret, 0), sizeof key);
        sqlite3_finalize(secret);
        assert_int_equal(sqlite3_prepare_v2(d, "SELECT id, variant, rows, cols, seed FROM games WHERE run_id = ?"
                                               " ORDER BY id", -1, &games, NULL), SQLITE_OK);
        assert_int_equal(sqlite3_prepare_v2(d, "SELECT cell FROM attempts WHERE game_id = ? ORDER BY n", -1, &att,
                                            NULL), SQLITE_OK);
        sqlite3_bind_int64(games, 1, run_id);
        hx_game g;
        int me = -1, n_told = 0;
        bool in_game = false;
        for (size_t off = 0; off + 4 <= len;) {
            size_t n = data[off] | data[off + 1] << 8 | data[off + 2] << 16 | (size_t)data[off + 3] << 24;
            const uint8_t *msg = data + off + 4;
            off += 4 + n;
            if (pm_decode(msg, n, &m, why, sizeof why) != 0)
                fail_msg("%s: the bot received an undecodable message: %s", variants[v], why);
            size_t n2 = pm_encode(&m, again, sizeof again); /* nothing beyond the documented keys */
            assert_true(n2 == n && memcmp(again, msg, n) == 0);
            if (m.type == PM_GAME_START) {
                assert_false(in_game);
                assert_int_equal(sqlite3_step(games), SQLITE_ROW);
                assert_string_equal((const char *)sqlite3_column_text(games, 1), variants[v]);
                /* its seed: from the game's stored seed and its colour under the run's secret */
                uint64_t game_seed = (uint64_t)sqlite3_column_int64(games, 4);
                assert_true(m.seed == seeds_player(key, game_seed, m.color));
                assert_true(m.seed != game_seed);
                assert_int_equal(hx_new(&g, (hx_variant)v, 4, 4, 0), 0);
                sqlite3_reset(att);
                sqlite3_bind_int64(att, 1, sqlite3_column_int64(games, 0));
                while (sqlite3_step(att) == SQLITE_ROW) {
                    const char *w;
                    int cell = hx_cell_parse((const char *)sqlite3_column_text(att, 0), 4, 4, &w);
                    if (hx_num_attempts(&g) < k) /* the stored game starts with the opening */
                        assert_int_equal(cell, opening[hx_num_attempts(&g)]);
                    assert_true(hx_attempt(&g, cell) >= 0);
                }
                assert_true(hx_num_attempts(&g) > k);
                me = m.color;
                n_told = 0;
                if (version == 1) { /* replayed: results for its own stones, the rest at the head of its 1st turn */
                    assert_int_equal(m.n_own + m.n_seen + m.hidden, 0);
                    opened = (k + 1 - me) / 2;
                    owed = v == HX_HEX ? k - opened : 0;
                    in_game = true;
                    continue;
                }
                /* the opening as game_start tells it: own stones, and in hex the opponent's (else a count) */
                assert_int_equal(m.n_own + m.n_seen + m.hidden, k);
                assert_int_equal(m.hidden, hx_variant_dark((hx_variant)v) ? (k + me) / 2 : 0);
                for (int i = 0, own = 0, seen = 0; i < k; i++)
                    if (i % 2 == me)
                        told[n_told++] = (hx_event){ HX_EV_PLACED, m.own[own++] };
                    else if (seen < m.n_seen)
                        told[n_told++] = (hx_event){ HX_EV_OPP_PLACED, m.seen[seen++] };
                in_game = true;
            } else if (m.type == PM_TURN) {
                assert_true(in_game);
                int from = 0;
                if (opened > 0) { /* protocol 1, its first turn after a replayed opening */
                    static hx_event mine[HX_MAX_CELLS];
                    assert_int_equal(n_told, opened); /* a result for each own stone came first */
                    assert_true(m.n_events >= owed);
                    memcpy(mine, told, (size_t)opened * sizeof told[0]);
                    n_told = 0;
                    for (int i = 0, own = 0; i < k; i++) /* hex: the opponent's stones, in their places */
                        if (i % 2 == me)
                            told[n_told++] = mine[own++];
                        else if (owed > 0)
                            told[n_told++] = m.events[from++];
                    opened = owed = 0;
                }
                for (int i = from; i < m.n_events; i++) {
                    hx_event_kind kind = m.events[i].kind;
                    if (version == 1) /* protocol 1: its own outcomes come in results */
                        assert_true(kind != HX_EV_PLACED && kind != HX_EV_REJECTED && kind != HX_EV_COLLIDED);
                    told[n_told++] = m.events[i];
                }
            } else if (m.type == PM_RESULT) {
                assert_int_equal(version, 1);
                hx_event e = { .cell = m.cell };
                e.kind = m.outcome == HX_PLACED ? HX_EV_PLACED : m.outcome == HX_REJECTED ? HX_EV_REJECTED
                                                                                           : HX_EV_COLLIDED;
                told[n_told++] = e;
            } else if (m.type == PM_GAME_END) {
                /* what it was told is its event log (protocol 1: up to the opponent's last attempts, which
                 * game_end's board covers; protocol 2: all of it, game_end's events included), and the board is
                 * the true one */
                assert_int_equal(m.protocol, version == 2 ? 2 : 0);
                memcpy(told + n_told, m.events, (size_t)m.n_events * sizeof m.events[0]);
                n_told += m.n_events;
                int nt = hx_events(&g, me, truth);
                if (version == 2)
                    assert_int_equal(n_told, nt);
                assert_true(n_told <= nt);
                assert_memory_equal(told, truth, (size_t)n_told * sizeof truth[0]);
                for (int i = n_told; i < nt; i++)
                    assert_true(truth[i].kind != HX_EV_PLACED && truth[i].kind != HX_EV_REJECTED &&
                                truth[i].kind != HX_EV_COLLIDED);
                assert_int_equal(m.n_cells, 16);
                for (int c = 0; c < 16; c++)
                    assert_int_equal(m.board[c], hx_owner(&g, c));
                in_game = false;
                audited++;
            }
        }
        assert_int_equal(sqlite3_step(games), SQLITE_DONE);
        sqlite3_finalize(games);
        sqlite3_finalize(att);
        sqlite3_close(d);
    }
    assert_int_equal(audited, 280);
}

/* Bots play legal moves after an opening in every variant (hex with the swap rule after a one-stone opening too):
 * no forfeit, and every stored game starts with the opening. A bad --opening is bad input. */
static void games_from_an_opening(void **state)
{
    (void)state;
    setup_paths();
    static const char *variants[] = { "hex", "classical", "abrupt", "classical-noisy", "classical-flash",
                                      "abrupt-noisy", "abrupt-flash" };
    static const char *bots[] = { "bridge", "agents/examples/random_bot.py" };
    char db[128], sql[512];
    snprintf(db, sizeof db, "%s/opening.db", tmp);
    for (int i = 0; i <= HX_VARIANT_COUNT; i++) {
        bool swap = i == HX_VARIANT_COUNT; /* then hex with swap, one stone: White's first move may swap */
        const char *opening = swap ? "c3" : "c2,b3,d4";
        char b[600];
        snprintf(b, sizeof b, "%s%s", i % 2 ? "" : bin, i % 2 ? bots[1] : "/bridge");
        int rc = sh_capture(out, sizeof out,
                     "%s/arena match --variant %s%s --board 5x5 --games 6 --opening %s --db %s --logs %s/logs --json "
                     "--quiet '%s/random --seed %d' '%s' 2>&1",
                     bin, swap ? "hex" : variants[i], swap ? " --swap" : "", opening, db, tmp, bin, i, b);
        if (rc != 0)
            fail_msg("%s from %s: arena match exited with %d: %s", swap ? "hex --swap" : variants[i], opening, rc, out);
        long run_id = json_int(out, NULL, "run");
        assert_int_equal(json_int(out, NULL, "games"), 6);
        for (const char *r = "timeout\0crash\0illegal\0protocol_error\0disconnected\0"; *r; r += strlen(r) + 1)
            if (json_int(out, "\"forfeits\":", r) != 0)
                fail_msg("%s from %s: a %s forfeit: %s", swap ? "hex --swap" : variants[i], opening, r, out);
        snprintf(sql, sizeof sql,
                 "SELECT count(*) FROM games g WHERE run_id = %ld AND attempts > %d AND (SELECT group_concat(cell, "
                 "',') FROM (SELECT cell FROM attempts a WHERE a.game_id = g.id ORDER BY n LIMIT %d)) = '%s'",
                 run_id, swap ? 1 : 3, swap ? 1 : 3, opening);
        assert_int_equal(db_scalar(db, sql), 6);
    }
    /* the opening's attempts are marked in arena show, PGN and SGF (the last run: hex with swap from c3) */
    long game = db_scalar(db, "SELECT max(id) FROM games");
    assert_int_equal(sh_capture(out, sizeof out, "%s/arena show --db %s %ld", bin, db, game), 0);
    const char *second = strstr(out, "\n2. W");
    if (!strstr(out, "\n1. B c3 placed (opening)\n") || !second || strstr(second, "(opening)"))
        fail_msg("arena show: %s", out);
    assert_int_equal(sh_capture(out, sizeof out, "%s/arena show --db %s --json %ld", bin, db, game), 0);
    assert_int_equal(json_int(out, NULL, "opening"), 1);
    assert_int_equal(sh_capture(out, sizeof out, "%s/arena export --db %s --format pgn", bin, db), 0);
    assert_non_null(strstr(out, "[HexOpening \"c2 b3 d4\"]\n"));
    assert_non_null(strstr(out, "[HexOpening \"c3\"]\n"));
    assert_int_equal(sh_capture(out, sizeof out, "%s/arena export --db %s --format sgf", bin, db), 0);
    assert_non_null(strstr(out, "ON[c2 b3 d4]"));
    static const struct {
        const char *opening, *says;
    } bad[] = {
        { "a1,a1", "--opening a1,a1: opening stone 2: a1 is already taken" },
        { "a1,f1", "--opening a1,f1: stone 2 'f1': " },
        { "a1,,b2", "stone 2 '': " },
        { "a1,e1,a2,e2,a3,e3,a4,e4,a5", "the opening wins the game for Black" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc = sh_capture(out, sizeof out, "%s/arena match --variant abrupt --board 5x5 --opening %s --db %s bin/random "
                     "bin/random 2>&1", bin, bad[i].opening, db);
        assert_int_equal(rc, 2);
        if (!strstr(out, bad[i].says) || strchr(out, '\n') != out + strlen(out) - 1)
            fail_msg("--opening %s: expected one line with '%s', got '%s'", bad[i].opening, bad[i].says, out);
    }
}

/* arena match plays from the league's default openings (random, 2 stones): a bot written for protocol 1 is refused
 * before the first game, with one line naming it, its version and the fix, exit 2, and no game stored; from the empty
 * board (--openings none) or with --openings-compat replay it plays every game without a forfeit. */
static void a_protocol_1_bot_needs_replay_for_openings(void **state)
{
    (void)state;
    setup_paths();
    char db[128], sql[256];
    snprintf(db, sizeof db, "%s/v1.db", tmp);
    static const char *const options[] = { "", "--openings none", "--openings-compat replay --opening-stones 4" };
    for (int i = 0; i < 3; i++) {
        int rc = sh_capture(out, sizeof out,
                     "%s/arena match --variant classical --board 4x4 --games 20 --db %s --logs %s/logs --json --quiet "
                     "%s 'name=oldbot %s/misbehave --protocol 1' '%s/random' 2>&1",
                     bin, db, tmp, options[i], agents, bin);
        if (i == 0) {
            const char *want = "arena match: agent 'oldbot' speaks protocol 1; this match plays from openings, which "
                               "needs protocol 2: update the bot (docs/protocol.md#changes), or pass --openings-compat "
                               "replay (or --openings none)\n";
            if (rc != 2 || strcmp(out, want) != 0)
                fail_msg("expected exit 2 and one line, got %d: %s", rc, out);
            assert_int_equal(db_scalar(db, "SELECT count(*) FROM games"), 0);
            continue;
        }
        if (rc != 0)
            fail_msg("%s: exit %d: %s", options[i], rc, out);
        long run_id = json_int(out, NULL, "run");
        assert_non_null(strstr(out, i == 1 ? "\"openings\":\"none\"" : "\"openings\":\"random, 4 stones\""));
        snprintf(sql, sizeof sql, "SELECT count(*) FROM games WHERE run_id = %ld AND reason = 'connected'"
                 " AND opening = %d", run_id, i == 1 ? 0 : 4);
        assert_int_equal(db_scalar(db, sql), 20); /* (without the replay, it attempts its own opening stones) */
    }
}

/* The runner checks a game's opening before the game: game 1 is played from its opening, game 2's (a cell twice)
 * fails the run naming the game, and nobody forfeits. */
typedef struct {
    int next, finished, first_cells[2];
} opening_run;

static bool opening_next(void *user, rn_game *g)
{
    static const uint16_t good[2] = { 4, 0 }, bad[2] = { 4, 4 };
    opening_run *o = user;
    if (o->next == 2)
        return false;
    int i = o->next++;
    *g = (rn_game){ .id = (uint64_t)i + 1, .black = 0, .white = 1, .variant = HX_ABRUPT, .rows = 3, .cols = 3,
                    .seed = 5, .opening = i ? bad : good, .opening_len = 2 };
    return true;
}

static bool opening_finished(void *user, const rn_result *r, char *why, size_t whylen)
{
    (void)why, (void)whylen;
    opening_run *o = user;
    o->finished++;
    assert_int_equal(r->reason, HX_END_CONNECTED);
    for (int i = 0; i < 2; i++) /* the record starts with the opening */
        o->first_cells[i] = hx_move_at(r->play, i).cell;
    return true;
}

static void a_bad_opening_fails_the_run(void **state)
{
    (void)state;
    setup_paths();
    char line[600], err[512];
    snprintf(line, sizeof line, "%s/random", bin);
    ag_command cmd;
    assert_int_equal(ag_command_parse(line, NULL, &cmd, err, sizeof err), 0);
    cmd.sandbox.off = true;
    rn_agent bots[2] = { { .name = "a", .command = &cmd }, { .name = "b", .command = &cmd } };
    opening_run o = { 0 };
    char logs[128];
    snprintf(logs, sizeof logs, "%s/logs", tmp);
    rn_config cfg = { .agents = bots, .n_agents = 2, .concurrency = 1, .move_ms = 1000, .margin_ms = 50,
                      .handshake_ms = 5000, .ping_ms = 1000, .log_dir = logs, .log_prefix = "opening",
                      .next_game = opening_next, .finished = opening_finished, .user = &o };
    assert_int_equal(rn_run(&cfg, err, sizeof err), RN_FAILED);
    assert_int_equal(o.finished, 1);
    assert_int_equal(o.first_cells[0], 4);
    assert_int_equal(o.first_cells[1], 0);
    if (!strstr(err, "game 2: bad opening: opening stone 2: b2 is already taken"))
        fail_msg("unexpected error: %s", err);
}

static void sigterm_leaves_no_bot_behind(void **state)
{
    (void)state;
    setup_paths();
    char tag[64], cmd[2048], db[128];
    snprintf(tag, sizeof tag, "--tag s%d", (int)getpid());
    snprintf(db, sizeof db, "%s/term.db", tmp);
    snprintf(cmd, sizeof cmd, "%s/misbehave --mode hang %s", agents, tag);
    char *const argv[] = { "arena", "match", "--variant", "classical", "--board", "5x5", "--games", "4",
                           "--move-time", "60000", "--concurrency", "2", "--db", db, "--quiet", cmd, cmd, NULL };
    pid_t pid = start_arena(argv);
    /* arena (its arguments name the bots), 4 bots; up to 30 s for them to start on a busy machine */
    for (int i = 0; i < 3000 && procs_with(tag, false) < 5; i++)
        usleep(10000);
    assert_int_equal(procs_with(tag, false), 5);
    usleep(100000);
    kill(pid, SIGTERM);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 128 + SIGTERM);
    assert_int_equal(procs_with(tag, false), 0);
}

static void bad_input_is_named(void **state)
{
    (void)state;
    setup_paths();
    assert_int_equal(sh_capture(out, sizeof out, "%s/arena match --variant classical --board 3x3 bin/nope %s/random 2>&1",
                         bin, bin), 2);
    assert_non_null(strstr(out, "arena match: BOT_A: 'bin/nope': no such file"));
    assert_int_equal(sh_capture(out, sizeof out, "%s/arena match --variant classical --board 3x3 %s/random 2>&1", bin, bin),
                     2);
    assert_non_null(strstr(out, "expected two bots"));
    assert_int_equal(sh_capture(out, sizeof out, "%s/arena match --board 3x3 a b 2>&1", bin), 2);
    assert_non_null(strstr(out, "missing --variant"));
    assert_int_equal(sh_capture(out, sizeof out, "%s/arena match --variant classical --board 3x3 --games 0 a b 2>&1", bin),
                     2);
    assert_non_null(strstr(out, "--games '0'"));
    assert_int_equal(sh_capture(out, sizeof out, "%s/arena match --variant classical --board 3x3 %s/random 'x \"y' 2>&1",
                         bin, bin), 2);
    assert_non_null(strstr(out, "BOT_B"));
    assert_int_equal(sh_capture(out, sizeof out, "%s/arena games --db %s/absent.db 2>&1", bin, tmp), 2);
    assert_non_null(strstr(out, "no such database"));
    assert_int_equal(sh_capture(out, sizeof out, "%s/arena games --reason sleepy 2>&1", bin), 2);
    assert_int_equal(sh_capture(out, sizeof out, "%s/arena match --help", bin), 0);
    assert_non_null(strstr(out, "usage: arena match"));
}

/* Writes an executable script (mode 0755) at tmp/name. */
static void script(const char *name, const char *text)
{
    char path[600];
    snprintf(path, sizeof path, "%s/%s", tmp, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    assert_int_equal(chmod(path, 0755), 0);
}

/* `arena match` of tmp/bot (with the options) against bin/random must fail before a game, with stderr naming
 * each of the NULL-terminated words. */
static void refused(const char *options, const char *bot, ...)
{
    char err[4096];
    int status = sh_capture(err, sizeof err, "%s/arena match --variant classical --board 2x2 --games 2 --quiet %s --db %s/u.db "
                     "--logs %s/logs '%s/%s' %s/random 2>&1 >/dev/null", bin, options, tmp, tmp, tmp, bot, bin);
    printf("# %s: status %d: %s", bot, status, err);
    assert_int_not_equal(status, 0);
    va_list ap;
    va_start(ap, bot);
    for (const char *word; (word = va_arg(ap, const char *));)
        if (!strstr(err, word))
            fail_msg("'%s' is not named in: %s", word, err);
    va_end(ap);
}

/* A bot that cannot start is named with the cause: a script's missing interpreter (or the program its
 * `#!/usr/bin/env` line names), an interpreter outside the sandbox (with the `read =` that would show it),
 * and, when the coordinator is root, a program in a directory or with a mode the sandbox's user (one of the range)
 * cannot get through. */
static void unstartable_bots_are_named(void **state)
{
    (void)state;
    setup_paths();
    assert_int_equal(chmod(tmp, 0755), 0); /* the sandbox user may walk into the test's directory */
    script("absent.py", "#!/usr/bin/absent-interpreter\nprint('hello')\n");
    refused("", "absent.py", "interpreter /usr/bin/absent-interpreter of ", "absent.py (its #! line): no such file",
            NULL);
    refused("--sandbox off", "absent.py", "its interpreter /usr/bin/absent-interpreter (#! line): No such file", NULL);
    script("env.py", "#!/usr/bin/env absent-program-xyz\nprint('hello')\n");
    refused("", "env.py", "'absent-program-xyz', which the #! line of ", "runs through /usr/bin/env, is not in the "
            "sandbox's PATH", NULL);
    char interp[600];
    snprintf(interp, sizeof interp, "%s/interp", tmp);
    assert_int_equal(sh_run("mkdir -p %s && cp /bin/sh %s/sh && chmod -R 0755 %s", interp, interp, interp), 0);
    char text[700], need[700];
    snprintf(text, sizeof text, "#!%s/sh\nexit 3\n", interp);
    script("outside.sh", text);
    snprintf(need, sizeof need, "(read = %s would show it)", interp);
    refused("", "outside.sh", "/sh of ", "outside.sh (its #! line): not in the sandbox", need, NULL);
    /* a wrapper whose own program is not in the sandbox starts, and its log says what status 127 means */
    snprintf(text, sizeof text, "#!/bin/sh\nexec %s/sh \"$@\"\n", interp);
    script("wrap.sh", text);
    char err[4096];
    assert_int_equal(sh_capture(err, sizeof err, "%s/arena match --variant classical --board 2x2 --games 1 --quiet --db %s/w.db "
                         "--logs %s/wlogs '%s/wrap.sh' %s/random 2>&1 >/dev/null", bin, tmp, tmp, tmp, bin), 0);
    snprintf(text, sizeof text, "cat %s/wlogs/*wrap.sh*", tmp);
    char *log = sh_output(text);
    printf("# wrap.sh's log:\n%s", log);
    if (!strstr(log, "/sh: not found") || !strstr(log, "wrap.sh exited with status 127: a program it runs was not "
                                                           "found") || !strstr(log, "needs read = its directory"))
        fail_msg("the log of a wrapper whose program is not in the sandbox does not say so:\n%s", log);
    free(log);
    if (geteuid() != 0) {
        printf("# not root: the sandbox user is this user; the checks of its reach are not made\n");
        return;
    }
    assert_int_equal(sh_run("mkdir -p %s/locked && cp %s/random %s/locked/random && chmod 0700 %s/locked", tmp, bin,
                            tmp, tmp), 0);
    snprintf(need, sizeof need, "it may not search the directory %s/locked (mode 0700, owner uid 0", tmp);
    refused("", "locked/random", "the sandbox's user (uid 21000", need, NULL);
    assert_int_equal(sh_run("cp %s/random %s/private && chmod 0700 %s/private", bin, tmp, tmp), 0);
    refused("", "private", "/private': not executable by the sandbox's user (uid 21000", "mode 0700", NULL);
}

static int cleanup(void **state)
{
    (void)state;
    if (tmp[0]) {
        char cmd[128];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
        assert_int_equal(system(cmd), 0);
    }
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_against_random_and_python),
        cmocka_unit_test(a_protocol_1_bot_needs_replay_for_openings),
        cmocka_unit_test(misbehaving_bots_forfeit_and_the_match_goes_on),
        cmocka_unit_test(forfeits_by_agent_and_the_forfeit_rate),
        cmocka_unit_test(arena_check_passes_bundled_bots_and_names_faults),
        cmocka_unit_test(arena_check_names_openings_crash_lines_and_early_moves),
        cmocka_unit_test(debug_traces_both_directions),
        cmocka_unit_test(bots_are_told_exactly_their_information_state),
        cmocka_unit_test(games_from_an_opening),
        cmocka_unit_test(a_bad_opening_fails_the_run),
        cmocka_unit_test(sigterm_leaves_no_bot_behind),
        cmocka_unit_test(bad_input_is_named),
        cmocka_unit_test(unstartable_bots_are_named),
    };
    return cmocka_run_group_tests(tests, NULL, cleanup);
}
