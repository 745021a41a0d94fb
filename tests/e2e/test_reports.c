/* tests/e2e/test_reports.c — what leaves the database for people and other tools: `arena export` (every SGF
 * game replays through the rules engine to its stored winner, attempt by attempt; every PGN game carries
 * the stored players and result, first player as White), `arena plot` (PNG and SVG files written), and
 * `scripts/nightly` (a dated report.md and a self-contained report.html; a bad config gives status 2 and a
 * report that says why; a second night adds a point to the rating history), and the agents that played
 * without a sandbox (`sandbox = off`, `--sandbox off`): named by the match and league summaries and under
 * ratings, matrix and history in every format that can carry a note, and in the nightly report; absent
 * (JSON summaries: an empty list) when every bot of the selected games was sandboxed; and the scope of
 * `arena ratings` and `arena matrix` with two leagues in one database (the newest league by default, both with
 * --pool, one run with --run), said on the first line and in JSON, which parses strictly (null, never NaN, for
 * an undefined LOS). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "game.h"
#include "test_sys.h"
#include "test_util.h"

static char tmp[64], bin[512], db[128];

static char *read_file(const char *path)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "cat '%s'", path);
    return sh_output(cmd);
}

static void write_config(const char *path, const char *name, const char *variants)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f,
            "[league]\nname = %s\nvariants = %s\nboards = 3x3\ngames = 6\nconcurrency = 2\nswap = yes\n\n"
            "[agent random]\ncommand = %s/random\nargs = --seed 1\n\n[agent random-b]\ncommand = %s/random\n"
            "args = --seed 2\n",
            name, variants, bin, bin);
    fclose(f);
}

static int setup(void **state)
{
    (void)state;
    if (e2e_dirs(tmp, "arena-reports-test", bin) != 0)
        return -1;
    snprintf(db, sizeof db, "%s/r.db", tmp);
    char cfg[128];
    snprintf(cfg, sizeof cfg, "%s/r.ini", tmp);
    write_config(cfg, "r", "hex, classical, abrupt-noisy");
    return sh_run("'%s/arena' league '%s' --db '%s' --quiet --logs '%s/logs' >/dev/null", bin, cfg, db, tmp) == 0 ? 0
                                                                                                              : -1;
}

static int teardown(void **state)
{
    (void)state;
    return e2e_cleanup(tmp);
}

/* The value of property `id` in the SGF node text starting at p (up to the next ';' or ')'), unescaped. */
static bool sgf_prop(const char *p, const char *id, char *out, size_t len)
{
    size_t idlen = strlen(id);
    for (; *p && *p != ';' && *p != ')'; p++) {
        if (*p == '[') { /* skip a value */
            for (p++; *p && *p != ']'; p++)
                if (*p == '\\' && p[1])
                    p++;
            continue;
        }
        if (strncmp(p, id, idlen) == 0 && p[idlen] == '[' && !(p[-1] >= 'A' && p[-1] <= 'Z')) {
            size_t n = 0;
            for (p += idlen + 1; *p && *p != ']'; p++) {
                if (*p == '\\' && p[1])
                    p++;
                if (n + 1 < len)
                    out[n++] = *p;
            }
            out[n] = '\0';
            return true;
        }
    }
    return false;
}

/* Plays the attempts of one comment ("B c2: rejected; W a1: collision") on g, checking each outcome. */
static void replay_comment(hx_game *g, const char *text)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", text);
    for (char *save, *part = strtok_r(buf, ";", &save); part; part = strtok_r(NULL, ";", &save)) {
        char player, cell[8], outcome[16];
        assert_int_equal(sscanf(part, " %c %7[a-z0-9]: %15s", &player, cell, outcome), 3);
        assert_int_equal(player, g->to_move == HX_BLACK ? 'B' : 'W');
        int c = hx_cell_parse(cell, hx_rows(g), hx_cols(g), &(const char *){ 0 });
        assert_true(c >= 0);
        assert_string_equal(hx_outcome_name(hx_attempt(g, c)), outcome);
    }
}

static void sgf_games_replay_to_their_stored_winners(void **state)
{
    (void)state;
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s/arena' export --db '%s' --format sgf", bin, db);
    char *sgf = sh_output(cmd);
    int games = 0, swaps = 0, comments = 0;
    for (char *p = strstr(sgf, "(;"); p; p = strstr(p + 1, "(;")) {
        char v[4096], size[16], result[16];
        assert_true(sgf_prop(p + 2, "GM", v, sizeof v));
        assert_string_equal(v, "11");
        assert_true(sgf_prop(p + 2, "SZ", size, sizeof size));
        assert_string_equal(size, "3");
        assert_true(sgf_prop(p + 2, "RU", v, sizeof v));
        char variant[32];
        assert_int_equal(sscanf(v, "%31s", variant), 1);
        int var = hx_variant_parse(variant);
        assert_true(var >= 0);
        hx_game g;
        assert_int_equal(hx_new(&g, (hx_variant)var, 3, 3, strstr(v, "swap") ? HX_SWAP_RULE : 0), 0);
        assert_true(sgf_prop(p + 2, "RE", result, sizeof result));
        /* the move nodes up to this tree's ')' */
        char *end = strchr(p, ')');
        assert_non_null(end);
        for (char *n = strchr(p + 2, ';'); n && n < end; n = strchr(n + 1, ';')) {
            if (sgf_prop(n + 1, "C", v, sizeof v)) {
                replay_comment(&g, v);
                comments++;
            }
            for (int colour = 0; colour < 2; colour++) {
                if (!sgf_prop(n + 1, colour == HX_BLACK ? "B" : "W", v, sizeof v))
                    continue;
                assert_int_equal(g.to_move, colour);
                if (strcmp(v, "swap-pieces") == 0) {
                    assert_int_equal(hx_attempt(&g, HX_SWAP), HX_SWAPPED);
                    swaps++;
                } else {
                    int c = hx_cell_parse(v, 3, 3, &(const char *){ 0 });
                    assert_true(c >= 0);
                    assert_int_equal(hx_attempt(&g, c), HX_PLACED);
                }
            }
        }
        assert_true(hx_over(&g)); /* every game of this league ends by connection */
        assert_int_equal(result[0], hx_winner(&g) == HX_BLACK ? 'B' : 'W');
        assert_string_equal(result + 1, "+");
        games++;
    }
    free(sgf);
    assert_int_equal(games, db_scalar(db, "SELECT COUNT(*) FROM games"));
    assert_true(comments > 0); /* the dark variants had rejections and collisions */
    (void)swaps;               /* random bots rarely swap; the golden SGF file has a swap */
}

static void pgn_games_carry_players_and_results(void **state)
{
    (void)state;
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s/arena' export --db '%s' --format pgn --variant classical", bin, db);
    char *pgn = sh_output(cmd);
    int games = 0, first_won = 0;
    for (char *p = strstr(pgn, "[Event "); p; p = strstr(p + 1, "[Event ")) {
        char white[64], black[64], result[8], sql[512];
        long round;
        const char *r = strstr(p, "[Round \"");
        assert_non_null(r);
        round = atol(r + 8);
        assert_int_equal(sscanf(strstr(p, "[White \""), "[White \"%63[^\"]", white), 1);
        assert_int_equal(sscanf(strstr(p, "[Black \""), "[Black \"%63[^\"]", black), 1);
        assert_int_equal(sscanf(strstr(p, "[Result \""), "[Result \"%7[^\"]", result), 1);
        /* the first player is PGN's White */
        snprintf(sql, sizeof sql,
                 "SELECT COUNT(*) FROM games g JOIN agents b ON b.id = g.black JOIN agents w ON w.id = g.white"
                 " WHERE g.id = %ld AND b.name = '%s' AND w.name = '%s' AND g.winner = '%s'",
                 round, white, black, strcmp(result, "1-0") == 0 ? "B" : "W");
        assert_int_equal(db_scalar(db, sql), 1);
        first_won += strcmp(result, "1-0") == 0;
        /* the movetext ends with the same result */
        const char *next = strstr(p + 1, "[Event ");
        /* the result after the comment, on its line or (a long movetext is wrapped) on the next: the nearer */
        const char *same_line = strstr(p, result[0] == '1' ? "} 1-0" : "} 0-1");
        const char *next_line = strstr(p, result[0] == '1' ? "}\n1-0" : "}\n0-1");
        const char *tail = !same_line ? next_line : !next_line || same_line < next_line ? same_line : next_line;
        assert_non_null(tail);
        assert_true(!next || tail < next);
        games++;
    }
    free(pgn);
    assert_int_equal(games, db_scalar(db, "SELECT COUNT(*) FROM games WHERE variant = 'classical'"));
    assert_int_equal(first_won, db_scalar(db, "SELECT COUNT(*) FROM games WHERE variant = 'classical' AND winner = 'B'"));
    assert_int_equal(sh_run("'%s/arena' export --db '%s' --format xml 2>/dev/null", bin, db), 2);
    assert_int_equal(sh_run("'%s/arena' export --db '%s' 2>/dev/null", bin, db), 2);
}

static bool file_starts_with(const char *path, const char *magic, size_t n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    char buf[16] = { 0 };
    size_t k = fread(buf, 1, n, f);
    fclose(f);
    return k == n && memcmp(buf, magic, n) == 0;
}

static void plots_are_written(void **state)
{
    (void)state;
    assert_int_equal(sh_run("'%s/arena' plot --db '%s' --out '%s/plots' --bootstrap 20 >/dev/null", bin, db, tmp), 0);
    static const char *const names[] = { "ratings-pooled", "ratings-hex-3x3", "ratings-abrupt-noisy-3x3",
                                         "matrix-classical-3x3", "matrix-hex-3x3", "history" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s/plots/%s.png", tmp, names[i]);
        if (!file_starts_with(path, "\x89PNG", 4))
            fail_msg("%s: missing or not a PNG", path);
        snprintf(path, sizeof path, "%s/plots/%s.svg", tmp, names[i]);
        char *svg = read_file(path);
        if (!strstr(svg, "<svg"))
            fail_msg("%s: not an SVG", path);
        free(svg);
    }
    assert_int_equal(sh_run("'%s/arena' plot --db '%s' --league nosuch 2>/dev/null", bin, db), 2);
}

/* Fails unless `text` holds `part`. */
static void expect_text(const char *what, const char *text, const char *part)
{
    if (!strstr(text, part))
        fail_msg("%s lacks '%s':\n%s", what, part, text);
}

static void nightly_writes_a_self_contained_report(void **state)
{
    (void)state;
    char cfg[128], ndb[128], out[128];
    snprintf(cfg, sizeof cfg, "%s/night.ini", tmp);
    snprintf(ndb, sizeof ndb, "%s/night.db", tmp);
    snprintf(out, sizeof out, "%s/nightly", tmp);
    write_config(cfg, "night", "classical, hex");
    assert_int_equal(sh_run("scripts/nightly --config '%s' --db '%s' --out '%s' --bin '%s' --date 2026-11-20 "
                         "--bootstrap 20 >/dev/null 2>&1",
                         cfg, ndb, out, bin),
                     0);
    char path[256];
    snprintf(path, sizeof path, "%s/2026-11-20/report.md", out);
    char *md = read_file(path);
    static const char *const md_parts[] = { "# Nightly league night (2026-11-20)", "league 1: 12 games, 0 forfeits",
                                            "## Warnings\n\nNone.", "## Leaderboards by variant and board",
                                            "| rank | agent | elo | +- | games | change |", "## Pooled ratings",
                                            "| rank | name | elo |", "## Win matrices",
                                            "## Head-to-head", "## Time use", "## Repeated games",
                                            "![pooled ratings with 95% intervals](ratings-pooled.svg)",
                                            "(matrix-hex-3x3.svg)" };
    for (size_t i = 0; i < sizeof md_parts / sizeof md_parts[0]; i++)
        if (!strstr(md, md_parts[i]))
            fail_msg("report.md lacks '%s':\n%s", md_parts[i], md);
    if (strstr(md, "sandbox off"))
        fail_msg("report.md of a sandboxed league names unsandboxed agents:\n%s", md);
    free(md);
    snprintf(path, sizeof path, "%s/2026-11-20/report.html", out);
    char *html = read_file(path);
    assert_non_null(strstr(html, "<table>"));
    assert_non_null(strstr(html, "<meta name=\"viewport\""));
    /* self-contained: nothing loaded from elsewhere, and every file it refers to is next to it */
    static const char *const external[] = { "<link", "<script", "@import", "url(", "http:", "https:", "//" };
    for (size_t i = 0; i < sizeof external / sizeof external[0]; i++)
        if (strstr(html, external[i]))
            fail_msg("report.html refers to an external asset ('%s')", external[i]);
    int images = 0;
    for (const char *p = html; (p = strstr(p, " src=\"")) != NULL; p++) {
        char ref[200];
        const char *q = p + 6, *end = strchr(q, '"');
        assert_non_null(end);
        snprintf(ref, sizeof ref, "%.*s", (int)(end - q), q);
        char file[512];
        snprintf(file, sizeof file, "%s/2026-11-20/%s", out, ref);
        if (access(file, R_OK) != 0 || strchr(ref, '/'))
            fail_msg("report.html shows '%s', which is not a file next to it", ref);
        images++;
    }
    assert_int_equal(images, 0); /* the figures are drawn in the page */
    int drawings = 0;
    for (const char *p = html; (p = strstr(p, "<svg viewBox=\"")) != NULL; p++)
        drawings++;
    assert_true(drawings >= 6); /* pooled ratings, two matrices, two variants, history */
    free(html);
    snprintf(path, sizeof path, "%s/index.html", out);
    html = read_file(path);
    expect_text("index.html", html, "<a href=\"2026-11-20/report.html\">2026-11-20</a>");
    free(html);
    snprintf(path, sizeof path, "%s/2026-11-20/history.png", out);
    assert_true(file_starts_with(path, "\x89PNG", 4));

    /* a bad config: status 2, and a report that names the problem */
    char bad[128];
    snprintf(bad, sizeof bad, "%s/bad.ini", tmp);
    FILE *f = fopen(bad, "w");
    assert_non_null(f);
    fputs("[league]\nname = bad\nvariants = all\nboards = 3x3\ngames = 3\n", f);
    fclose(f);
    assert_int_equal(sh_run("scripts/nightly --config '%s' --db '%s' --out '%s' --bin '%s' --date 2026-11-21 "
                         ">/dev/null 2>&1",
                         bad, ndb, out, bin),
                     2);
    snprintf(path, sizeof path, "%s/2026-11-21/report.md", out);
    md = read_file(path);
    assert_non_null(strstr(md, "FAILED"));
    assert_non_null(strstr(md, "bad.ini:5: [league] games"));
    free(md);
    assert_int_equal(sh_run("scripts/nightly --date 2026-1-1 >/dev/null 2>&1"), 2);
    assert_int_equal(sh_run("scripts/nightly --frobnicate >/dev/null 2>&1"), 2);

    /* a second night: a new league of the same name, and a second point in the rating history */
    assert_int_equal(sh_run("scripts/nightly --config '%s' --db '%s' --out '%s' --bin '%s' --date 2026-11-22 "
                         "--bootstrap 20 >/dev/null 2>&1",
                         cfg, ndb, out, bin),
                     0);
    assert_int_equal(db_scalar(ndb, "SELECT COUNT(*) FROM leagues WHERE name = 'night'"), 2);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s/arena' ratings --db '%s' --league night --history --bootstrap 0 --format csv",
             bin, ndb);
    char *csv = sh_output(cmd);
    int lines = 0;
    for (const char *p = csv; (p = strchr(p, '\n')); p++)
        lines++;
    assert_int_equal(lines, 1 + 2 * 2); /* header, two agents in each of two leagues */
    free(csv);
}

/* A night stopped by SIGTERM while its league plays: exit status 143, its directory marked FAILED (FAILED,
 * report.md and summary.txt with the signal, the index listing it so), the league wound down (its lock file
 * gone); a second run the same day writes a directory of its own, the first one's log left as it was; the plan
 * and estimate are printed before the league, the estimate from the stopped league's games. */
static void a_stopped_night_is_marked_failed_and_not_mixed(void **state)
{
    (void)state;
    char cfg[128], small[128], ndb[128], out[128], lock[256], path[256];
    snprintf(cfg, sizeof cfg, "%s/long.ini", tmp);
    snprintf(small, sizeof small, "%s/short.ini", tmp);
    snprintf(ndb, sizeof ndb, "%s/stop.db", tmp);
    snprintf(out, sizeof out, "%s/stopped", tmp);
    snprintf(lock, sizeof lock, "%s.league-1.lock", ndb);
    FILE *f = fopen(cfg, "w");
    assert_non_null(f);
    fprintf(f, "[league]\nname = long\nvariants = classical\nboards = 7x7\ngames = 20000\nconcurrency = 1\n\n"
               "[agent random]\ncommand = %s/random\n\n[agent random-b]\ncommand = %s/random\nargs = --seed 2\n",
            bin, bin);
    fclose(f);
    write_config(small, "short", "classical");
    pid_t night = fork();
    assert_true(night >= 0);
    if (night == 0) {
        if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
            _exit(126);
        execl("scripts/nightly", "nightly", "--config", cfg, "--db", ndb, "--out", out, "--bin", bin, "--date",
              "2026-12-01", "--bootstrap", "20", (char *)NULL);
        _exit(127);
    }
    /* the league plays once its lock is held and a game is stored */
    for (int tries = 0; tries < 600 && !(access(lock, F_OK) == 0 && db_scalar(ndb, "SELECT COUNT(*) FROM games") > 0);
         tries++)
        usleep(100 * 1000);
    assert_int_equal(access(lock, F_OK), 0);
    kill(night, SIGTERM);
    int st;
    assert_int_equal(waitpid(night, &st, 0), night);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 128 + SIGTERM);
    assert_int_not_equal(access(lock, F_OK), 0); /* the coordinator wound down and let go of the league */
    long played = db_scalar(ndb, "SELECT COUNT(*) FROM games");
    assert_true(played > 0 && played < 20000);

    snprintf(path, sizeof path, "%s/2026-12-01/FAILED", out);
    char *text = read_file(path);
    expect_text("FAILED", text, "stopped by SIGTERM while the league played (league 1");
    expect_text("FAILED", text, "exit status 143");
    free(text);
    snprintf(path, sizeof path, "%s/2026-12-01/report.md", out);
    text = read_file(path);
    expect_text("report.md", text, "# Nightly league: FAILED (2026-12-01)");
    expect_text("report.md", text, "- reason: stopped by SIGTERM");
    expect_text("report.md", text, "- plan: league 'long': at most 20000 games to play (a new league)");
    expect_text("report.md", text, "arena league: interrupted with"); /* the end of the log */
    free(text);
    snprintf(path, sizeof path, "%s/2026-12-01/report.html", out);
    assert_int_not_equal(access(path, F_OK), 0);
    snprintf(path, sizeof path, "%s/index.html", out);
    text = read_file(path);
    expect_text("index.html", text, "<a href=\"2026-12-01/report.md\">2026-12-01</a>");
    expect_text("index.html", text, "long (1): FAILED: stopped by SIGTERM");
    free(text);
    snprintf(path, sizeof path, "%s/2026-12-01/league.log", out);
    char *log = read_file(path);
    expect_text("league.log", log, "nightly: league 'long': at most 20000 games to play (a new league), 1 at a time");
    expect_text("league.log", log, "estimated duration: unknown");

    /* the same night again, another league: a directory of its own; the first one's files untouched */
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "scripts/nightly --config '%s' --db '%s' --out '%s' --bin '%s' --date 2026-12-01 "
                              "--bootstrap 20 2>/dev/null", small, ndb, out, bin);
    char *said = sh_output(cmd);
    expect_text("the second run", said, "nightly: 2026-12-01: ");
    expect_text("the second run", said, "/stopped/2026-12-01-2");
    free(said);
    text = read_file(path);
    assert_string_equal(text, log);
    free(text);
    free(log);
    snprintf(path, sizeof path, "%s/2026-12-01-2/report.html", out);
    assert_int_equal(access(path, R_OK), 0);
    snprintf(path, sizeof path, "%s/2026-12-01/FAILED", out);
    assert_int_equal(access(path, F_OK), 0);
    snprintf(path, sizeof path, "%s/index.html", out);
    text = read_file(path);
    expect_text("index.html", text, "<a href=\"2026-12-01-2/report.html\">2026-12-01-2</a>");
    expect_text("index.html", text, "long (1): FAILED: stopped by SIGTERM");
    free(text);

    /* the long league again: the plan says it resumes, with an estimate from its games so far */
    snprintf(cmd, sizeof cmd, "'%s/arena' league '%s' --db '%s' --plan", bin, cfg, ndb);
    said = sh_output(cmd);
    char want[128];
    snprintf(want, sizeof want, "league 'long': %ld games to play (resuming an unfinished league)", 20000 - played);
    expect_text("--plan", said, want);
    snprintf(want, sizeof want, "the mean time of a game of league 1 of the same name (%ld games)", played);
    expect_text("--plan", said, want);
    free(said);
}

/* The output of `arena ARGS --db DB`. */
static char *arena_output(const char *in_db, const char *args)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "'%s/arena' %s --db '%s' 2>/dev/null", bin, args, in_db);
    return sh_output(cmd);
}

/* Fails unless `text` holds `part` (or, with want false, does not). */
static void expect(const char *what, const char *text, const char *part, bool want)
{
    if ((strstr(text, part) != NULL) != want)
        fail_msg("%s %s '%s':\n%s", what, want ? "lacks" : "has", part, text);
}

#define OFF_RANDOM "sandbox off (trusted bots only): random"

static void unsandboxed_agents_are_named_in_every_report(void **state)
{
    (void)state;
    char cfg[128], udb[160], out[128];
    snprintf(cfg, sizeof cfg, "%s/off.ini", tmp);
    snprintf(udb, sizeof udb, "%s/off.db", tmp);
    snprintf(out, sizeof out, "%s/nightly-off", tmp);
    FILE *f = fopen(cfg, "w");
    assert_non_null(f);
    fprintf(f, "[league]\nname = off\nvariants = classical\nboards = 3x3\ngames = 2\n\n"
               "[agent random]\ncommand = %s/random\nargs = --seed 1\nsandbox = off\n\n"
               "[agent random-b]\ncommand = %s/random\nargs = --seed 2\n", bin, bin);
    fclose(f);

    /* the league's summaries: a line naming the unsandboxed agent, and the JSON key */
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "'%s/arena' league '%s' --db '%s' --quiet --logs '%s/logs'", bin, cfg, udb, tmp);
    char *text = sh_output(cmd);
    expect("league summary", text, "\n" OFF_RANDOM "\n", true);
    expect("league summary", text, "random-b", false);
    free(text);
    snprintf(cmd, sizeof cmd, "'%s/arena' league '%s' --db '%s' --quiet --new --json --logs '%s/logs'", bin, cfg, udb,
             tmp);
    text = sh_output(cmd);
    expect("league JSON summary", text, "\"unsandboxed\":[\"random\"]", true);
    free(text);
    assert_int_equal(db_scalar(udb, "SELECT count(*) FROM unsandboxed u JOIN agents a ON a.id = u.agent_id"
                                    " WHERE a.name = 'random'"), 2); /* one per run */
    assert_int_equal(db_scalar(udb, "SELECT count(*) FROM unsandboxed"), 2);

    /* every report of those games names it, in every format that has room for a note */
    static const char *const reports[][3] = {
        /* arguments, what must be there, what must not */
        { "ratings --bootstrap 0", "\n\n" OFF_RANDOM "\n", "random-b\n" },
        { "ratings --bootstrap 0 --format md", "\n\n" OFF_RANDOM "\n", "" },
        { "ratings --bootstrap 0 --format html", "<p class=\"note\">" OFF_RANDOM "</p>\n", "" },
        { "ratings --bootstrap 0 --format tex", "\n% " OFF_RANDOM "\n", "" },
        { "ratings --bootstrap 0 --format json", "\"unsandboxed\":[\"random\"]}]", "" },
        { "ratings --bootstrap 0 --scope groups --format json", "\"unsandboxed\":[\"random\"]}]", "" },
        { "ratings --bootstrap 0 --format csv", "random-b", "sandbox" },
        { "ratings --bootstrap 0 --history", "\n\n" OFF_RANDOM "\n", "" },
        { "matrix", "\n\n" OFF_RANDOM "\n", "" },
        { "matrix --score --format md", "\n\n" OFF_RANDOM "\n", "" },
        { "matrix --format html", "<p class=\"note\">" OFF_RANDOM "</p>\n", "" },
        { "matrix --format json", "\"unsandboxed\":[\"random\"]}]", "" },
        { "matrix --format csv", "random-b", "sandbox" },
    };
    for (size_t i = 0; i < sizeof reports / sizeof reports[0]; i++) {
        text = arena_output(udb, reports[i][0]);
        expect(reports[i][0], text, reports[i][1], true);
        if (reports[i][2][0])
            expect(reports[i][0], text, reports[i][2], false);
        free(text);
    }

    /* a match with --sandbox off: the summary names its bots (one agent playing itself once) */
    snprintf(cmd, sizeof cmd, "'%s/arena' match --variant classical --board 3x3 --games 2 --sandbox off --quiet "
                              "--db '%s' --logs '%s/logs' '%s/random' '%s/random'", bin, udb, tmp, bin, bin);
    text = sh_output(cmd);
    expect("match summary", text, "\nforfeits: none\n" OFF_RANDOM "\nstored as run", true);
    free(text);
    snprintf(cmd, sizeof cmd, "'%s/arena' match --variant classical --board 3x3 --games 2 --sandbox off --quiet "
                              "--json --db '%s' --logs '%s/logs' '%s/random' '%s/bridge'", bin, udb, tmp, bin, bin);
    text = sh_output(cmd);
    expect("match JSON summary", text, "\"unsandboxed\":[\"random\",\"bridge\"]", true);
    free(text);

    /* sandboxed runs in the same database: their summaries have an empty list, their reports no note */
    snprintf(cmd, sizeof cmd, "'%s/arena' match --variant classical --board 3x3 --games 2 --quiet --json --db '%s' "
                              "--logs '%s/logs' '%s/random' '%s/bridge'", bin, udb, tmp, bin, bin);
    text = sh_output(cmd);
    expect("sandboxed match JSON summary", text, "\"unsandboxed\":[]", true);
    free(text);
    snprintf(cmd, sizeof cmd, "'%s/arena' match --variant classical --board 3x3 --games 2 --quiet --db '%s' "
                              "--logs '%s/logs' '%s/random' '%s/bridge'", bin, udb, tmp, bin, bin);
    text = sh_output(cmd);
    expect("sandboxed match summary", text, "sandbox off", false);
    free(text);
    long run = db_scalar(udb, "SELECT max(id) FROM runs");
    char args[128];
    snprintf(args, sizeof args, "games --run %ld --limit 0", run);
    text = arena_output(udb, args);
    expect("games of the sandboxed match", text, "bridge", true);
    free(text);
    snprintf(args, sizeof args, "ratings --pool --bootstrap 0 --since 2000-01-01 --board 3x3 --format json");
    text = arena_output(udb, args); /* every game (--pool): the unsandboxed ones too; the league's random (--seed 1)
                                     * and the matches' (no arguments) are two agents of one name */
    /* bridge and two agents named random (numbered in the order they were first stored: a hello asked while the
     * machine is busy can store one more of that name, so the numbers are not fixed) */
    const char *list = strstr(text, "\"unsandboxed\":[\"bridge\",\"random#");
    if (!list)
        fail_msg("%s lacks the unsandboxed bridge and randoms:\n%s", args, text);
    int randoms = 0;
    for (const char *p = list; p && p < list + strcspn(list, "]"); p = strstr(p + 1, "\"random#"))
        randoms += strncmp(p, "\"random#", 8) == 0;
    assert_int_equal(randoms, 2);
    expect(args, list, "]}]", true);
    free(text);

    /* a fully sandboxed league (the suite's own): no note in any format, no key in JSON */
    static const char *const formats[] = { "text", "md", "html", "tex", "json", "csv" };
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
        for (int m = 0; m < 3; m++) {
            snprintf(args, sizeof args, "%s --format %s", m == 0 ? "ratings --bootstrap 0" : m == 1 ? "matrix"
                                                          : "ratings --bootstrap 0 --history", formats[i]);
            text = arena_output(db, args);
            expect(args, text, "random-b", true);
            expect(args, text, "sandbox off", false);
            expect(args, text, "unsandboxed", false);
            free(text);
        }
    snprintf(cmd, sizeof cmd, "'%s/arena' league '%s/r.ini' --db '%s/on.db' --quiet --json --logs '%s/logs'", bin, tmp,
             tmp, tmp);
    text = sh_output(cmd);
    expect("sandboxed league JSON summary", text, "\"unsandboxed\":[]", true);
    free(text);

    /* the nightly report: in the list at its top and under its tables, in report.md and report.html */
    assert_int_equal(sh_run("scripts/nightly --config '%s' --db '%s/night-off.db' --out '%s' --bin '%s' "
                            "--date 2026-11-20 --bootstrap 0 >/dev/null 2>&1", cfg, tmp, out, bin), 0);
    char path[256];
    snprintf(path, sizeof path, "%s/2026-11-20/report.md", out);
    text = read_file(path);
    expect("report.md", text, "- **Warning:** " OFF_RANDOM "\n", true);
    char *second = strstr(text, "## Win matrices");
    assert_non_null(second);
    expect("report.md's win matrices", second, "\n\n" OFF_RANDOM "\n", true);
    *second = '\0';
    assert_non_null(strstr(text, "## Pooled ratings"));
    expect("report.md's ratings", strstr(text, "## Pooled ratings"), "\n\n" OFF_RANDOM "\n", true);
    assert_non_null(strstr(text, "## Leaderboards by variant and board"));
    expect("report.md's leaderboards", strstr(text, "## Leaderboards by variant and board"), "\n\n" OFF_RANDOM "\n",
           true);
    free(text);
    snprintf(path, sizeof path, "%s/2026-11-20/report.html", out);
    text = read_file(path);
    expect("report.html", text, "<li class=\"warning\">" OFF_RANDOM "</li>", true);
    second = strstr(text, "<h2>Win matrices</h2>");
    assert_non_null(second);
    expect("report.html's win matrices", second, "<p class=\"note\">" OFF_RANDOM "</p>", true);
    *second = '\0';
    expect("report.html's ratings", text, "<p class=\"note\">" OFF_RANDOM "</p>", true);
    free(text);
}

/* Counts the occurrences of `part` in `text`. */
static int count_of(const char *text, const char *part)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, part)); p += strlen(part))
        n++;
    return n;
}

/* Agent names with commas, quotes, '&' and '<' reach every figure and the page as they are: gnuplot gets
 * them as string literals, never split from a CSV line. */
static void odd_names_survive_the_figures_and_the_page(void **state)
{
    (void)state;
    char cfg[128], odb[128], out[128];
    snprintf(cfg, sizeof cfg, "%s/odd.ini", tmp);
    snprintf(odb, sizeof odb, "%s/odd.db", tmp);
    snprintf(out, sizeof out, "%s/odd", tmp);
    FILE *f = fopen(cfg, "w");
    assert_non_null(f);
    fprintf(f,
            "[league]\nname = odd\"one\",x\nvariants = classical\nboards = 3x3\ngames = 4\nconcurrency = 2\n\n"
            "[agent a]\nname = it's,\"quoted\"\ncommand = %s/random\nargs = --seed 1\n\n"
            "[agent b]\nname = <b>&amp;,x\ncommand = %s/random\nargs = --seed 2\n",
            bin, bin);
    fclose(f);
    assert_int_equal(sh_run("'%s/arena' league '%s' --db '%s' --quiet --logs '%s/logs' >/dev/null", bin, cfg, odb, tmp),
                     0);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s/arena' plot --db '%s' --out '%s' --bootstrap 20 --json", bin, odb, out);
    char *json = sh_output(cmd);
    strict_json("arena plot --json", json);
    expect("arena plot --json", json, "\"matrix-classical-3x3.svg\"", true);
    free(json);
    static const char *const files[] = { "matrix-classical-3x3.svg", "ratings-pooled.svg", "ratings-classical-3x3.svg",
                                         "history.svg" };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s/%s", out, files[i]);
        char *svg = read_file(path);
        /* SVG text: XML-escaped by gnuplot */
        if (!strstr(svg, "it's,&quot;quoted&quot;") && !strstr(svg, "it's,\"quoted\"") &&
            !strstr(svg, "it&apos;s,&quot;quoted&quot;"))
            fail_msg("%s lacks the name it's,\"quoted\":\n%.2000s", files[i], svg);
        if (!strstr(svg, "&lt;b&gt;&amp;amp;,x") && !strstr(svg, "&lt;b>&amp;amp;,x"))
            fail_msg("%s lacks the name <b>&amp;,x:\n%.2000s", files[i], svg);
        free(svg);
    }
    /* the matrix: one cell per pairing and colours, "W-L" with W + L = 2 games (4 per pairing, 2 each way) */
    char path[256];
    snprintf(path, sizeof path, "%s/matrix-classical-3x3.svg", out);
    char *svg = read_file(path);
    int cells = 0;
    for (int w = 0; w <= 2; w++) {
        char wl[16];
        snprintf(wl, sizeof wl, ">%d-%d<", w, 2 - w);
        cells += count_of(svg, wl);
    }
    assert_int_equal(cells, 2);
    free(svg);
    snprintf(cmd, sizeof cmd, "'%s/arena' report --db '%s' --out '%s/page' --logs '%s/logs' --bootstrap 20 --json",
             bin, odb, out, tmp);
    json = sh_output(cmd);
    strict_json("arena report --json", json);
    free(json);
    snprintf(path, sizeof path, "%s/page/report.html", out);
    char *html = read_file(path);
    expect("report.html", html, "<td>it's,&quot;quoted&quot;</td>", true);
    expect("report.html", html, "<td>&lt;b&gt;&amp;amp;,x</td>", true);
    expect("report.html", html, "<b>", false);
    free(html);
    snprintf(path, sizeof path, "%s/page/report.md", out);
    char *md = read_file(path); /* Markdown shows the names, it does not obey them */
    expect("report.md", md, "| \\<b\\>\\&amp;,x |", true);
    free(md);
    snprintf(path, sizeof path, "%s/page/report.json", out);
    json = read_file(path);
    strict_json("report.json", json);
    free(json);
}

/* `arena export --format json`: one strict JSON document with every selected game and all its attempts, as
 * stored (the attempts' count per game and in all). */
static void json_export_holds_every_game_and_attempt(void **state)
{
    (void)state;
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s/arena' export --db '%s' --json", bin, db);
    char *json = sh_output(cmd);
    strict_json("arena export --json", json);
    assert_int_equal(count_of(json, "{\"id\":"), db_scalar(db, "SELECT count(*) FROM games"));
    assert_int_equal(count_of(json, "{\"n\":"), db_scalar(db, "SELECT count(*) FROM attempts"));
    assert_int_equal(count_of(json, "\"ms\":null"), db_scalar(db, "SELECT count(*) FROM attempts WHERE ms IS NULL"));
    free(json);
    snprintf(cmd, sizeof cmd, "'%s/arena' export --db '%s' --format json --variant hex --board 3x3", bin, db);
    json = sh_output(cmd);
    strict_json("arena export --format json --variant hex", json);
    assert_int_equal(count_of(json, "\"variant\":\"hex\""),
                     db_scalar(db, "SELECT count(*) FROM games WHERE variant = 'hex'"));
    free(json);
    snprintf(cmd, sizeof cmd, "'%s/arena' export --db '%s' --format json --variant hex --board 2x2", bin, db);
    json = sh_output(cmd);
    strict_json("an empty export", json);
    expect("an empty export", json, "{\"games\":[]}", true);
    free(json);
}

static void ratings_fit_the_newest_league_unless_told_to_pool(void **state)
{
    (void)state;
    char sdb[160], cfg[128];
    snprintf(sdb, sizeof sdb, "%s/scope.db", tmp);
    /* league 1 'a': random and random-b; league 2 'b': random-c and random-d; no game joins the two pairs */
    static const char *const names[2][3] = { { "a", "random", "random-b" }, { "b", "random-c", "random-d" } };
    for (int k = 0; k < 2; k++) {
        snprintf(cfg, sizeof cfg, "%s/scope-%s.ini", tmp, names[k][0]);
        FILE *f = fopen(cfg, "w");
        assert_non_null(f);
        fprintf(f,
                "[league]\nname = %s\nvariants = classical\nboards = 3x3\ngames = 8\nconcurrency = 2\n\n"
                "[agent %s]\ncommand = %s/random\nargs = --seed 1\n\n[agent %s]\ncommand = %s/random\n"
                "args = --seed 2\n",
                names[k][0], names[k][1], bin, names[k][2], bin);
        fclose(f);
        assert_int_equal(sh_run("'%s/arena' league '%s' --db '%s' --quiet --logs '%s/logs' >/dev/null", bin, cfg, sdb,
                                tmp),
                         0);
    }
    int a = db_scalar(sdb, "SELECT COUNT(*) FROM games g JOIN schedule x ON x.id = g.schedule_id WHERE x.league_id = 1");
    int b = db_scalar(sdb, "SELECT COUNT(*) FROM games g JOIN schedule x ON x.id = g.schedule_id WHERE x.league_id = 2");
    assert_true(a > 0 && b > 0);
    char want[160];

    /* the default: league 2 only */
    char *text = arena_output(sdb, "ratings --bootstrap 20");
    snprintf(want, sizeof want, "league 2 'b' (started ");
    if (strncmp(text, want, strlen(want)) != 0)
        fail_msg("ratings' first line is not '%s...':\n%s", want, text);
    snprintf(want, sizeof want, ", %d games)\n", b);
    expect("ratings", text, want, true);
    expect("ratings", text, "random-c", true);
    expect("ratings", text, "random-b", false);
    free(text);
    char *json = arena_output(sdb, "ratings --bootstrap 20 --format json");
    strict_json("ratings --format json", json);
    snprintf(want, sizeof want, "\"scope\":{\"kind\":\"league\",\"league\":2,\"name\":\"b\"");
    expect("ratings JSON", json, want, true);
    snprintf(want, sizeof want, "\"games\":%d}", b);
    expect("ratings JSON", json, want, true);
    expect("ratings JSON", json, "\"first_move_advantage\":{\"elo\":", true);
    expect("ratings JSON", json, "\"lower\":", true);
    expect("ratings JSON", json, "random-b", false);
    free(json);
    text = arena_output(sdb, "matrix");
    expect("matrix", text, "league 2 'b'", true);
    expect("matrix", text, "random-b", false);
    free(text);

    /* --pool: both leagues; the two pairs never met, so the LOS across them is null */
    text = arena_output(sdb, "ratings --pool --bootstrap 20");
    snprintf(want, sizeof want, "pooled: 2 leagues, 0 match runs, %d games\n", a + b);
    if (strncmp(text, want, strlen(want)) != 0)
        fail_msg("ratings --pool's first line is not '%s':\n%s", want, text);
    expect("ratings --pool", text, "random-b", true);
    expect("ratings --pool", text, "random-c", true);
    free(text);
    json = arena_output(sdb, "ratings --pool --bootstrap 20 --format json");
    strict_json("ratings --pool --format json", json);
    snprintf(want, sizeof want, "\"scope\":{\"kind\":\"pool\",\"leagues\":2,\"match_runs\":0,\"games\":%d}", a + b);
    expect("ratings --pool JSON", json, want, true);
    /* two tables (classical 3x3, pooled) of four players: a null for each last row, and one at least for the
     * neighbours from different leagues */
    if (count_of(json, "\"los%\":null") < 4)
        fail_msg("ratings --pool JSON has an LOS between players who never met:\n%s", json);
    expect("ratings --pool JSON", json, "NaN", false);
    expect("ratings --pool JSON", json, "\"los%\":50,", false);
    free(json);

    /* --run: the first league's run; --league; and what does not go together */
    int run = db_scalar(sdb, "SELECT MIN(run_id) FROM games");
    char args[128];
    snprintf(args, sizeof args, "ratings --run %d --bootstrap 0 --format json", run);
    json = arena_output(sdb, args);
    strict_json("ratings --run --format json", json);
    snprintf(want, sizeof want, "\"scope\":{\"kind\":\"run\",\"run\":%d,\"run_kind\":\"league\"", run);
    expect("ratings --run JSON", json, want, true);
    expect("ratings --run JSON", json, "random-c", false);
    free(json);
    text = arena_output(sdb, "ratings --league a --bootstrap 0");
    expect("ratings --league a", text, "league 1 'a'", true);
    free(text);
    assert_int_equal(sh_run("'%s/arena' ratings --pool --league a --db '%s' 2>/dev/null >/dev/null", bin, sdb), 2);
    assert_int_equal(sh_run("'%s/arena' ratings --history --pool --db '%s' 2>/dev/null >/dev/null", bin, sdb), 2);

    /* CSV: the matrix in long form, numbers only in its numeric columns */
    text = arena_output(sdb, "matrix --pool --format csv");
    static const char matrix_head[] = "variant,board,black,white,games,black_wins,white_wins,black_score_pct\n";
    if (strncmp(text, matrix_head, strlen(matrix_head)) != 0)
        fail_msg("matrix CSV header:\n%s", text);
    expect("matrix CSV", text, "\nclassical,3x3,random,random-b,", true);
    for (const char *p = strchr(text, '\n') + 1; *p; p = strchr(p, '\n') + 1) {
        int commas = 0;
        for (const char *q = p; *q != '\n'; q++) {
            commas += *q == ',';
            if (commas >= 4 && !strchr("0123456789.,", *q))
                fail_msg("matrix CSV: a non-number in a numeric column:\n%s", text);
        }
    }
    free(text);
}

/* Two deterministic bots without openings play the same two games over and over: the page's warning names the
 * pairings (Black against White, variant and board) whose games repeat. */
static void the_repeat_warning_names_the_pairings(void **state)
{
    (void)state;
    const char *agents = getenv("ARENA_TEST_AGENTS");
    char cfg[128], rdb[128], out[128];
    snprintf(cfg, sizeof cfg, "%s/same.ini", tmp);
    snprintf(rdb, sizeof rdb, "%s/same.db", tmp);
    snprintf(out, sizeof out, "%s/same", tmp);
    FILE *f = fopen(cfg, "w");
    assert_non_null(f);
    fprintf(f, "[league]\nname = same\nvariants = classical\nboards = 3x3\ngames = 6\nopenings = none\n"
               "[agent f1]\ncommand = %s/misbehave\nargs = --mode first\n"
               "[agent f2]\ncommand = %s/misbehave\nargs = --mode first --tag f2\n",
            agents ? agents : "build/release/tests/agents", agents ? agents : "build/release/tests/agents");
    fclose(f);
    assert_int_equal(sh_run("'%s/arena' league '%s' --db '%s' --logs '%s/logs' --quiet >/dev/null 2>&1", bin, cfg, rdb,
                            tmp), 0);
    assert_int_equal(sh_run("'%s/arena' report --db '%s' --out '%s' --logs '%s/logs' --bootstrap 0 >/dev/null", bin, rdb,
                            out, tmp), 0);
    char path[256];
    snprintf(path, sizeof path, "%s/report.md", out);
    char *md = read_file(path);
    expect_text("report.md", md, "- **Warning:** 2 pairings repeated more than 10% of their games move for move (f1 "
                                 "against f2 on classical 3x3; f2 against f1 on classical 3x3; 4 of 6 games repeat");
    free(md);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sgf_games_replay_to_their_stored_winners),
        cmocka_unit_test(pgn_games_carry_players_and_results),
        cmocka_unit_test(plots_are_written),
        cmocka_unit_test(nightly_writes_a_self_contained_report),
        cmocka_unit_test(a_stopped_night_is_marked_failed_and_not_mixed),
        cmocka_unit_test(unsandboxed_agents_are_named_in_every_report),
        cmocka_unit_test(ratings_fit_the_newest_league_unless_told_to_pool),
        cmocka_unit_test(odd_names_survive_the_figures_and_the_page),
        cmocka_unit_test(json_export_holds_every_game_and_attempt),
        cmocka_unit_test(the_repeat_warning_names_the_pairings),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
