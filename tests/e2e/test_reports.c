/* tests/e2e/test_reports.c — what leaves the database for people and other tools: `arena export` (every SGF
 * game replays through the rules engine to its stored winner, attempt by attempt; every PGN game carries
 * the stored players and result, first player as White), `arena plot` (PNG and SVG files written), and
 * `scripts/nightly` (a dated report.md and a self-contained report.html; a bad config gives status 2 and a
 * report that says why; a second night adds a point to the rating history). */
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
    static const char *const md_parts[] = { "# Nightly league night (2026-11-20)", "- games: 12; forfeits: 0",
                                            "## Ratings", "| rank | name | elo |", "## Win matrices",
                                            "![pooled ratings](ratings-pooled.svg)", "(matrix-hex-3x3.svg)" };
    for (size_t i = 0; i < sizeof md_parts / sizeof md_parts[0]; i++)
        if (!strstr(md, md_parts[i]))
            fail_msg("report.md lacks '%s':\n%s", md_parts[i], md);
    free(md);
    snprintf(path, sizeof path, "%s/2026-11-20/report.html", out);
    char *html = read_file(path);
    int svgs = 0;
    for (const char *p = html; (p = strstr(p, "<svg")); p++)
        svgs++;
    assert_true(svgs >= 4); /* pooled ratings, history, two matrices */
    assert_non_null(strstr(html, "<table>"));
    /* self-contained: nothing loaded from elsewhere */
    static const char *const external[] = { "src=", "<link", "href=\"http", "@import", "url(http" };
    for (size_t i = 0; i < sizeof external / sizeof external[0]; i++)
        if (strstr(html, external[i]))
            fail_msg("report.html refers to an external asset ('%s')", external[i]);
    assert_null(strstr(html, "<?xml"));
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sgf_games_replay_to_their_stored_winners),
        cmocka_unit_test(pgn_games_carry_players_and_results),
        cmocka_unit_test(plots_are_written),
        cmocka_unit_test(nightly_writes_a_self_contained_report),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
