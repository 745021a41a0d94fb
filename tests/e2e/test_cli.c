/* tests/e2e/test_cli.c — the `arena` command line: outputs, JSON shapes, --help, --json and --format on every
 * subcommand, `arena export --format json` against `arena show`, and bad input (exit 2). */
#define _GNU_SOURCE
#include <sys/wait.h>

#include "test_sys.h"
#include "test_util.h"

static char out[1 << 16];
E2E_FIXTURE(tmp, "arena-cli-test") /* for the test that stores games */

/* Runs "bin/arena ARGS" with stdout (and stderr when `merge`) captured in out; returns the exit status. */
static int run(const char *args, int merge)
{
    const char *dir = getenv("ARENA_BIN_DIR");
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s/arena %s %s", dir ? dir : "bin", args, merge ? "2>&1" : "2>/dev/null");
    FILE *f = popen(cmd, "r");
    assert_non_null(f);
    size_t n = fread(out, 1, sizeof out - 1, f);
    out[n] = '\0';
    int status = pclose(f);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

static int lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

static void replay_json_known_game(void **state)
{
    (void)state;
    assert_int_equal(run("replay --variant abrupt --board 2x2 --json a1 a1 a2", 0), 0);
    assert_string_equal(out,
        "{\"attempts\":[{\"player\":\"B\",\"cell\":\"a1\",\"result\":\"placed\"},"
        "{\"player\":\"W\",\"cell\":\"a1\",\"result\":\"collision\"},"
        "{\"player\":\"B\",\"cell\":\"a2\",\"result\":\"placed\"}],"
        "\"winner\":\"B\",\"to_move\":null,\"views\":{\"B\":[\"B.\",\"B.\"],\"W\":[\"B.\",\"..\"]}}\n");
    assert_int_equal(run("replay --variant classical --board 2x3 --format json B1 b1", 0), 0);
    assert_non_null(strstr(out, "\"result\":\"rejected\""));
    assert_non_null(strstr(out, "\"winner\":null,\"to_move\":\"W\""));
    assert_non_null(strstr(out, "\"W\":[\".B.\",\"...\"]"));
}

static void replay_text(void **state)
{
    (void)state;
    assert_int_equal(run("replay --variant hex --board 3x3 --swap b1 swap a1", 0), 0);
    assert_string_equal(out, "1. B b1 placed\n2. W swap swap\n3. B a1 placed\nto move: W\n"
                             "view of B:\n  B..\n  W..\n  ...\nview of W:\n  B..\n  W..\n  ...\n");
    /* Attempts after the win are not played; a note goes to stderr, the result to stdout. */
    assert_int_equal(run("replay --variant abrupt --board 2x2 a1 a1 a2 b2", 0), 0);
    assert_non_null(strstr(out, "winner: B"));
    assert_null(strstr(out, "b2"));
    assert_int_equal(run("replay --variant abrupt --board 2x2 a1,a1,a2,b2", 1), 0);
    assert_non_null(strstr(out, "1 later attempt not played"));
}

static void tree_counts(void **state)
{
    (void)state;
    assert_int_equal(run("tree --variant classical --board 2x2 --json", 0), 0);
    assert_non_null(strstr(out, "\"histories\":441,\"terminals\":216,\"black_wins\":48,"));
    assert_non_null(strstr(out, "\"infosets_black\":17,"));
    assert_non_null(strstr(out, "\"seconds\":"));
    assert_int_equal(run("tree --variant classical --board 2x2 --until-full --json", 0), 0);
    assert_non_null(strstr(out, "\"terminals\":336,"));
    assert_int_equal(run("tree --variant classical --board 2x2", 0), 0);
    assert_non_null(strstr(out, "histories                  441"));
}

static void random_games(void **state)
{
    (void)state;
    assert_int_equal(run("random --variant abrupt --board 4x3 --games 500 --seed 9 --json", 0), 0);
    const char *keys[] = { "\"games\":500,", "\"black_wins\":", "\"attempts\":", "\"seconds\":", "\"attempts_per_second\":" };
    for (size_t i = 0; i < 5; i++)
        assert_non_null(strstr(out, keys[i]));
    char first[512];
    snprintf(first, sizeof first, "%s", strstr(out, "\"black_wins\""));
    *strstr(first, ",\"seconds\"") = '\0';
    assert_int_equal(run("random --variant abrupt --board 4x3 --games 500 --seed 9 --json", 0), 0);
    assert_non_null(strstr(out, first)); /* same seed, same games */
}

static void help_everywhere(void **state)
{
    (void)state;
    const char *cmds[] = { "--help", "replay --help", "tree --help", "random --help" };
    for (size_t i = 0; i < 4; i++) {
        assert_int_equal(run(cmds[i], 0), 0);
        assert_non_null(strstr(out, "usage: arena"));
    }
}

/* Runs "arena CMD OPTION --no-such-option": when CMD knows OPTION (and its value), it goes on to refuse the
 * option after it, with exit 2 and one line naming that one. */
static bool takes_option(const char *cmd, const char *option)
{
    char args[128];
    snprintf(args, sizeof args, "%s %s --no-such-option", cmd, option);
    return run(args, 1) == 2 && lines(out) == 1 && strstr(out, "unknown option '--no-such-option'");
}

/* README: every subcommand has --help and --json (or --format text|json); export's --format is pgn|sgf|json.
 * The commands are those `arena --help` lists: each one's --help names --json and --format, it takes --json,
 * --format json and (all but export) --format text, and names a format it does not know. */
static void every_command_speaks_json(void **state)
{
    (void)state;
    assert_int_equal(run("--help", 0), 0);
    static char list[sizeof out];
    memcpy(list, out, sizeof list);
    const char *p = strstr(list, "commands:\n");
    assert_non_null(p);
    int n = 0;
    bool saw_export = false;
    for (p += strlen("commands:\n"); *p == ' ';) {
        char cmd[32], args[96];
        assert_int_equal(sscanf(p, " %31s", cmd), 1);
        bool is_export = strcmp(cmd, "export") == 0; /* its --format is pgn|sgf|json, no text */
        saw_export |= is_export;
        snprintf(args, sizeof args, "%s --help", cmd);
        assert_int_equal(run(args, 0), 0);
        if (!strstr(out, "--json") || !strstr(out, "--format"))
            fail_msg("'arena %s --help' does not mention both --json and --format:\n%s", cmd, out);
        const char *formats[] = { "--json", "--format json", "--format text" };
        for (int i = 0; i < (is_export ? 2 : 3); i++)
            if (!takes_option(cmd, formats[i]))
                fail_msg("'arena %s %s' is refused:\n%s", cmd, formats[i], out);
        snprintf(args, sizeof args, "%s --format xml", cmd);
        if (run(args, 1) != 2 || lines(out) != 1 || !strstr(out, "--format 'xml'"))
            fail_msg("'arena %s --format xml' does not name the format it refuses:\n%s", cmd, out);
        n++;
        p = strchr(p, '\n');
        if (!p)
            break;
        p++;
    }
    assert_true(n >= 16); /* replay ... keygen: every command there is */
    assert_true(saw_export);
    /* export has no text form: --format text is bad input naming its formats */
    assert_int_equal(run("export --format text", 1), 2);
    assert_non_null(strstr(out, "--format 'text': expected pgn, sgf or json"));
}

/* The occurrences of `part` in the text [p, end). */
static int count_in(const char *p, const char *end, const char *part)
{
    int n = 0;
    for (; (p = strstr(p, part)) && p < end; p += strlen(part))
        n++;
    return n;
}

/* The raw JSON string value of "key" in the text [p, end) (escapes kept), into buf. */
static void json_raw_string(const char *p, const char *end, const char *key, char *buf, size_t len)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":\"", key);
    const char *v = strstr(p, pat);
    if (!v || v >= end)
        fail_msg("no string \"%s\" in %.*s", key, (int)(end - p), p);
    v += strlen(pat);
    size_t n = 0;
    for (; *v && *v != '"' && n + 2 < len; v++) {
        if (*v == '\\')
            buf[n++] = *v++;
        buf[n++] = *v;
    }
    buf[n] = '\0';
}

/* The attempts in the text [p, end) as "B a1 placed,W a1 collision,...": each {"n":N,"player":P,"cell":C,
 * "outcome":O ...} in order, N counting from 1. */
static void attempts_of(const char *p, const char *end, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int expect = 1; (p = strstr(p, "{\"n\":")) && p < end; p++, expect++) {
        int n;
        char player[4], cell[8], outcome[16];
        if (sscanf(p, "{\"n\":%d,\"player\":\"%3[^\"]\",\"cell\":\"%7[^\"]\",\"outcome\":\"%15[^\"]\"", &n, player,
                   cell, outcome) != 4 || n != expect)
            fail_msg("attempt %d: %.80s", expect, p);
        used += (size_t)snprintf(buf + used, len - used, "%s%s %s %s", used ? "," : "", player, cell, outcome);
        assert_true(used < len);
    }
}

/* `arena export --format json` (and --json): one strict JSON document {"games":[...]} holding one object per
 * stored game, each with the players, winner and attempts `arena show` gives for that game; with --dir, one
 * game per file. Player names with a quote and a backslash go through the JSON string writer. */
static void export_json_matches_show(void **state)
{
    (void)state;
    char db[128], cmd[2048];
    snprintf(db, sizeof db, "%s/e.db", tmp);
    assert_int_equal(sh_run("'%s/arena' match --variant classical --board 3x3 --games 4 --db '%s' --logs '%s/logs' "
                            "--quiet 'name=q\"\\x %s/random --seed 1' 'name=r2 %s/random --seed 2' >/dev/null",
                            bin, db, tmp, bin, bin), 0);
    assert_int_equal(sh_run("'%s/arena' match --variant hex --board 3x3 --swap --games 3 --db '%s' --logs '%s/logs' "
                            "--quiet '%s/random --seed 3' '%s/random --seed 4' >/dev/null", bin, db, tmp, bin, bin), 0);
    long games = db_scalar(db, "SELECT count(*) FROM games");
    assert_int_equal(games, 7);

    snprintf(cmd, sizeof cmd, "'%s/arena' export --db '%s' --format json", bin, db);
    char *json = sh_output(cmd);
    strict_json("arena export --format json", json);
    assert_int_equal(strncmp(json, "{\"games\":[", 10), 0);
    snprintf(cmd, sizeof cmd, "'%s/arena' export --db '%s' --json", bin, db);
    char *same = sh_output(cmd);
    assert_string_equal(same, json); /* --json is --format json */
    free(same);

    long found = 0, attempts = 0;
    static char mine[1 << 15], shown[1 << 15];
    for (const char *g = strstr(json, "{\"id\":"); g; found++) {
        const char *end = strstr(g + 1, "{\"id\":");
        if (!end)
            end = g + strlen(g);
        long id = strtol(g + 6, NULL, 10);
        snprintf(cmd, sizeof cmd, "show --db '%s' --json %ld", db, id);
        assert_int_equal(run(cmd, 0), 0);
        const char *show_end = out + strlen(out);
        static const char *keys[] = { "variant", "black", "white", "winner", "reason", "detail" };
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
            json_raw_string(g, end, keys[k], mine, sizeof mine);
            json_raw_string(out, show_end, keys[k], shown, sizeof shown);
            if (strcmp(mine, shown) != 0)
                fail_msg("game %ld: \"%s\" is %s in export, %s in show", id, keys[k], mine, shown);
        }
        attempts_of(g, end, mine, sizeof mine);
        attempts_of(out, show_end, shown, sizeof shown);
        if (strcmp(mine, shown) != 0 || !mine[0])
            fail_msg("game %ld: export's attempts %s, show's %s", id, mine, shown);
        attempts += count_in(g, end, "{\"n\":");
        g = *end ? end : NULL;
    }
    assert_int_equal(found, games);
    assert_int_equal(attempts, db_scalar(db, "SELECT count(*) FROM attempts"));
    assert_int_equal(count_in(json, json + strlen(json), "\"black\":\"q\\\"\\\\x\""), 2);
    assert_int_equal(count_in(json, json + strlen(json), "\"swap\":true"), 3);
    free(json);

    /* --dir: one file per game, each one game object */
    snprintf(cmd, sizeof cmd, "'%s/arena' export --db '%s' --json --dir '%s/games' && ls '%s/games' | wc -l", bin,
             db, tmp, tmp);
    json = sh_output(cmd);
    assert_int_equal(atol(json), games);
    free(json);
    snprintf(cmd, sizeof cmd, "cat '%s/games/game-1.json'", tmp);
    json = sh_output(cmd);
    strict_json("game-1.json", json);
    assert_int_equal(strncmp(json, "{\"id\":1,", 8), 0);
    free(json);
}

/* Each bad input: exit 2, one line on stderr naming the argument, nothing on stdout. */
static void bad_input(void **state)
{
    (void)state;
    static const struct {
        const char *args, *says;
    } cases[] = {
        { "replay --variant dark --board 2x2 a1", "--variant 'dark'" },
        { "replay --variant hex --board 2x1 a1", "--board '2x1'" },
        { "replay --variant hex --board 2x20 a1", "--board '2x20'" },
        { "replay --variant hex --board 2x2 a3", "attempt 1 'a3': row is outside the board" },
        { "replay --variant hex --board 2x2 c1", "attempt 1 'c1': column is outside the board" },
        { "replay --variant hex --board 2x2 a1 1a", "attempt 2 '1a'" },
        { "replay --variant hex --board 2x2 a1 a1", "attempt 2 'a1' by W is illegal" },
        { "replay --variant classical --board 2x2 a1 b1 b1 b1", "attempt 4 'b1' by B is illegal" },
        { "replay --variant classical --board 2x2 a1 swap", "attempt 2 'swap' by W is illegal" },
        { "replay --variant classical --board 2x2 --swap a1", "--swap" },
        { "replay --board 2x2 a1", "missing --variant" },
        { "replay --variant hex a1", "missing --board" },
        { "replay --variant hex --board 2x2 --bogus", "unknown option '--bogus'" },
        { "replay --variant", "option '--variant' needs a value" },
        { "tree --variant hex --board 2x2 extra", "unexpected argument 'extra'" },
        { "tree --variant hex --board 2x2 --prefix a1,b1,a2,b2", "--prefix" },
        { "random --variant hex --board 2x2", "missing --games" },
        { "random --variant hex --board 2x2 --games x", "--games 'x'" },
        { "random --variant hex --board 2x2 --games 0", "--games '0'" },
        { "random --variant hex --board 2x2 --games 5 --seed -1", "--seed '-1'" },
        { "random --variant hex --board 2x2 --games 5 --format xml", "--format 'xml'" },
        { "show --format xml 1", "--format 'xml': expected text, json or html" },
        { "show --format html --ply x 1", "--ply 'x'" },
        { "show --format html --ply 99999 1", "--ply '99999'" },
        { "frobnicate", "unknown command 'frobnicate'" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int status = run(cases[i].args, 1);
        if (status != 2 || lines(out) != 1 || !strstr(out, cases[i].says))
            fail_msg("arena %s: exit %d, output: %s", cases[i].args, status, out);
        assert_int_equal(run(cases[i].args, 0), 2);
        assert_string_equal(out, ""); /* nothing on stdout */
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(replay_json_known_game),
        cmocka_unit_test(replay_text),
        cmocka_unit_test(tree_counts),
        cmocka_unit_test(random_games),
        cmocka_unit_test(help_everywhere),
        cmocka_unit_test(every_command_speaks_json),
        cmocka_unit_test_setup_teardown(export_json_matches_show, e2e_setup, e2e_teardown),
        cmocka_unit_test(bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
