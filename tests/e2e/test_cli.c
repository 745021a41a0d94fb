/* tests/e2e/test_cli.c — the `arena` command line: outputs, JSON shapes, --help, and bad input (exit 2). */
#define _GNU_SOURCE
#include <sys/wait.h>

#include "test_util.h"

static char out[1 << 16];

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

/* README: every subcommand has --help and --json (or --format text|json). The commands are those `arena
 * --help` lists; each one's --help names --json, and --json (or --format json) is an option it knows. */
static void every_command_speaks_json(void **state)
{
    (void)state;
    assert_int_equal(run("--help", 0), 0);
    static char list[sizeof out];
    memcpy(list, out, sizeof list);
    const char *p = strstr(list, "commands:\n");
    assert_non_null(p);
    int n = 0;
    for (p += strlen("commands:\n"); *p == ' ';) {
        char cmd[32], args[96];
        assert_int_equal(sscanf(p, " %31s", cmd), 1);
        snprintf(args, sizeof args, "%s --help", cmd);
        assert_int_equal(run(args, 0), 0);
        if (!strstr(out, "--json"))
            fail_msg("'arena %s --help' does not mention --json:\n%s", cmd, out);
        /* --json is known: whatever else the command lacks, it does not call --json an unknown option */
        snprintf(args, sizeof args, "%s --json --db /nonexistent/arena.db", cmd);
        run(args, 1);
        if (strstr(out, "'--json'") || strstr(out, "unrecognized option"))
            fail_msg("'arena %s --json' refuses --json:\n%s", cmd, out);
        n++;
        p = strchr(p, '\n');
        if (!p)
            break;
        p++;
    }
    assert_true(n >= 14); /* replay ... keygen: every command there is */
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
        cmocka_unit_test(bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
