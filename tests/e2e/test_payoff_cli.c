/* tests/e2e/test_payoff_cli.c — `arena payoff`: its JSON parsed and every entry replayed on the engine by the
 * tests' own driver, the text, Markdown and CSV tables against the JSON, single play-outs, and bad input
 * (exit 2, one line naming the option). */
#define _GNU_SOURCE
#include <ctype.h>
#include <sys/wait.h>

#include "test_sys.h"
#include "test_util.h"
#include "payoff_replay.h"

#define MAX_N 64 /* strategies in the matrices these tests ask for */

/* Runs "bin/arena payoff ARGS" (stderr too when `merge`); returns the exit status, the output in *text
 * (malloc'd). */
static int payoff(const char *args, int merge, char **text)
{
    const char *dir = getenv("ARENA_BIN_DIR");
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s/arena payoff %s %s", dir ? dir : "bin", args, merge ? "2>&1" : "2>/dev/null");
    FILE *f = popen(cmd, "r");
    assert_non_null(f);
    *text = read_all(f);
    int status = pclose(f);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

/* A parsed matrix: strategies as cell lists (and their labels "a1b2"), and the entries as 'B', 'W', '-'. */
typedef struct {
    int n, moves;
    uint16_t rows[MAX_N][8], cols[MAX_N][8];
    char label[MAX_N][24];
    char cell[MAX_N][MAX_N];
} matrix;

/* Reads `[["a1","b1"],...]` after "key": into seq (cell indices); returns the number of lists. */
static int parse_lists(const char *json, const char *key, int rows, int cols, uint16_t seq[][8], int *moves)
{
    char pat[32];
    snprintf(pat, sizeof pat, "\"%s\":[", key);
    const char *p = strstr(json, pat);
    if (!p)
        fail_msg("no %s in %.200s", key, json);
    p += strlen(pat);
    int n = 0;
    while (*p == '[') {
        assert_true(n < MAX_N);
        int k = 0;
        for (p++; *p == '"'; k++) {
            char name[8];
            int len = 0;
            for (p++; *p != '"' && len < 7; p++)
                name[len++] = *p;
            name[len] = '\0';
            assert_int_equal(*p++, '"');
            const char *why;
            int c = hx_cell_parse(name, rows, cols, &why);
            if (c < 0 || k >= 8)
                fail_msg("%s: bad cell '%s'", key, name);
            seq[n][k] = (uint16_t)c;
            if (*p == ',')
                p++;
        }
        assert_int_equal(*p++, ']');
        if (n == 0)
            *moves = k;
        assert_int_equal(k, *moves);
        n++;
        if (*p == ',')
            p++;
    }
    assert_int_equal(*p, ']');
    return n;
}

/* Runs `arena payoff ARGS --json` and parses the document (strict JSON; rows and cols the same list). */
static void matrix_json(const char *args, int rows, int cols, matrix *m)
{
    char full[512], *json;
    snprintf(full, sizeof full, "%s --json", args);
    assert_int_equal(payoff(full, 0, &json), 0);
    strict_json(full, json);
    int moves_cols = 0;
    m->n = parse_lists(json, "rows", rows, cols, m->rows, &m->moves);
    assert_int_equal(parse_lists(json, "cols", rows, cols, m->cols, &moves_cols), m->n);
    assert_memory_equal(m->rows, m->cols, sizeof m->rows);
    const char *p = strstr(json, "\"cells\":[");
    assert_non_null(p);
    p += strlen("\"cells\":[");
    for (int b = 0; b < m->n; b++) {
        assert_int_equal(*p++, '[');
        for (int w = 0; w < m->n; w++) {
            if (p[0] != '"' || !strchr("BW-", p[1]) || p[2] != '"')
                fail_msg("%s: entry %d,%d: %.10s", args, b, w, p);
            m->cell[b][w] = p[1];
            p += 3;
            assert_int_equal(*p++, w + 1 < m->n ? ',' : ']');
        }
        assert_int_equal(*p++, b + 1 < m->n ? ',' : ']');
    }
    assert_true(strncmp(p, ",\"counts\":{", 11) == 0);
    for (int s = 0; s < m->n; s++) {
        m->label[s][0] = '\0';
        for (int k = 0; k < m->moves; k++)
            hx_cell_name(m->rows[s][k], cols, m->label[s] + strlen(m->label[s]));
    }
    free(json);
}

/* Every entry of `arena payoff ARGS --json` against payoff_replay(); returns the matrix's size. */
static int check_json(const char *args, hx_variant v, int rows, int cols, bool pass, matrix *m)
{
    matrix_json(args, rows, cols, m);
    for (int b = 0; b < m->n; b++)
        for (int w = 0; w < m->n; w++) {
            int o = payoff_replay(v, rows, cols, m->rows[b], m->cols[w], m->moves, pass, NULL);
            assert_true(o >= 0);
            if ("BW-"[o] != m->cell[b][w])
                fail_msg("arena payoff %s: %s against %s is %c, the replay says %c", args, m->label[b], m->label[w],
                         m->cell[b][w], "BW-"[o]);
        }
    return m->n;
}

static void json_entries_replay(void **state)
{
    (void)state;
    static matrix m;
    assert_int_equal(check_json("--variant abrupt --board 2x2 --moves 2", HX_ABRUPT, 2, 2, false, &m), 12);
    assert_int_equal(m.moves, 2);
    assert_string_equal(m.label[0], "a1b1"); /* lexicographic in cell indices: a1 0, b1 1, a2 2, b2 3 */
    assert_string_equal(m.label[11], "b2a2");
    /* rules.md: Black a1, White a1 (collision), Black a2 wins */
    assert_int_equal(m.cell[1][0], 'B');
    assert_int_equal(check_json("--variant classical --board 2x2", HX_CLASSICAL, 2, 2, false, &m), 12);
    assert_int_equal(check_json("--variant classical --board 2x2 --exhausted pass", HX_CLASSICAL, 2, 2, true, &m),
                     12);
    assert_int_equal(check_json("--variant hex --board 2x2 --moves 3", HX_HEX, 2, 2, false, &m), 24);
    assert_int_equal(check_json("--variant abrupt-flash --board 3x2 --moves 1", HX_ABRUPT_FLASH, 3, 2, false, &m), 6);
    assert_int_equal(check_json("--variant classical --board 3x2 --moves 2", HX_CLASSICAL, 3, 2, false, &m), 30);
    /* --order column: the thesis's order, a1 a2 b1 b2 */
    assert_int_equal(check_json("--variant abrupt --board 2x2 --order column", HX_ABRUPT, 2, 2, false, &m), 12);
    assert_string_equal(m.label[0], "a1a2");
    assert_string_equal(m.label[1], "a1b1");
    assert_string_equal(m.label[11], "b2b1");
}

/* Splits a line into fields at `sep` (trimming blanks and Markdown's outer bars); returns the count. */
static int fields(char *line, const char *sep, char **out, int max)
{
    int n = 0;
    if (strcmp(sep, "|") == 0) {
        assert_int_equal(line[0], '|');
        line++;
        size_t len = strlen(line);
        assert_true(len > 0 && line[len - 1] == '|');
        line[len - 1] = '\0';
    }
    for (char *save = NULL, *t = strtok_r(line, sep, &save); t; t = strtok_r(NULL, sep, &save)) {
        while (isspace((unsigned char)*t))
            t++;
        char *e = t + strlen(t);
        while (e > t && isspace((unsigned char)e[-1]))
            *--e = '\0';
        assert_true(n < max);
        out[n++] = t;
    }
    return n;
}

/* The text, Markdown and CSV tables carry the JSON's labels and entries, one row per Black strategy. */
static void tables_match_json(void **state)
{
    (void)state;
    static matrix m;
    const char *args = "--variant classical --board 2x3 --moves 2";
    matrix_json(args, 2, 3, &m);
    assert_int_equal(m.n, 30);
    const char *formats[] = { "text", "md", "csv" }, *seps[] = { " ", "|", "," };
    for (int f = 0; f < 3; f++) {
        char full[256], *text;
        snprintf(full, sizeof full, "%s --format %s", args, formats[f]);
        assert_int_equal(payoff(full, 0, &text), 0);
        char *save = NULL, *line = strtok_r(text, "\n", &save);
        if (f == 0) { /* a title line */
            assert_non_null(strstr(line, "classical 2x3, 2 moves: rows Black, columns White"));
            line = strtok_r(NULL, "\n", &save);
        }
        char *field[MAX_N + 2];
        assert_int_equal(fields(line, seps[f], field, MAX_N + 2), m.n + 1);
        assert_string_equal(field[0], f == 2 ? "black" : "B\\W");
        for (int w = 0; w < m.n; w++)
            assert_string_equal(field[w + 1], m.label[w]);
        if (f == 1) { /* the Markdown rule under the header */
            line = strtok_r(NULL, "\n", &save);
            assert_int_equal(fields(line, "|", field, MAX_N + 2), m.n + 1);
        }
        for (int b = 0; b < m.n; b++) {
            line = strtok_r(NULL, "\n", &save);
            assert_non_null(line);
            if (f == 0)
                assert_int_not_equal(line[strlen(line) - 1], ' '); /* no trailing blanks */
            assert_int_equal(fields(line, seps[f], field, MAX_N + 2), m.n + 1);
            assert_string_equal(field[0], m.label[b]);
            for (int w = 0; w < m.n; w++)
                if (strlen(field[w + 1]) != 1 || field[w + 1][0] != m.cell[b][w])
                    fail_msg("--format %s, %s against %s: '%s', JSON '%c'", formats[f], m.label[b], m.label[w],
                             field[w + 1], m.cell[b][w]);
        }
        assert_null(strtok_r(NULL, "\n", &save));
        free(text);
    }
}

/* --black/--white: the play-out attempt by attempt, as the driver plays it. */
static void single_playout(void **state)
{
    (void)state;
    char *out;
    assert_int_equal(payoff("--variant abrupt --board 2x2 --black a1,a2 --white a1,b1", 0, &out), 0);
    assert_string_equal(out, "1. B a1 placed\n2. W a1 collision\n3. B a2 placed\noutcome: B\n");
    free(out);
    assert_int_equal(payoff("--variant abrupt --board 2x2 --black a1,a2 --white a2,b1 --json", 0, &out), 0);
    strict_json("payoff --black --white --json", out);
    assert_non_null(strstr(out, "{\"player\":\"B\",\"cell\":\"a2\",\"result\":\"collision\",\"alone\":false},"
                                "{\"player\":\"W\",\"cell\":\"b1\",\"result\":\"placed\",\"alone\":false}],"
                                "\"outcome\":\"W\"}"));
    free(out);
    /* classical: Black a1 b1 against White b1 a2; Black's b1 is rejected and it has no cell left */
    assert_int_equal(payoff("--variant classical --board 2x2 --black a1,b1 --white b1,a2", 0, &out), 0);
    assert_string_equal(out, "1. B a1 placed\n2. W b1 placed\n3. B b1 rejected\noutcome: -\n");
    free(out);
    assert_int_equal(payoff("--variant classical --board 2x2 --black a1,b1 --white b1,a2 --exhausted pass", 0, &out),
                     0);
    assert_non_null(strstr(out, "3. B b1 rejected\n4. W a2 placed (alone"));
    assert_non_null(strstr(out, "outcome: W\n"));
    free(out);
    /* hex: a visible stone is skipped (White's a1), White plays its next cell */
    assert_int_equal(payoff("--variant hex --board 3x3 --moves 3 --black a1,b2,c3 --white a1,a2,a3", 0, &out), 0);
    assert_string_equal(out, "1. B a1 placed\n2. W a2 placed\n3. B b2 placed\n4. W a3 placed\n5. B c3 placed\n"
                             "outcome: -\n");
    free(out);
}

static void bad_input(void **state)
{
    (void)state;
    static const struct {
        const char *args, *says;
    } cases[] = {
        { "--variant dark --board 2x2", "--variant 'dark'" },
        { "--variant abrupt --board 2x2 --moves 0", "--moves '0'" },
        { "--variant abrupt --board 2x2 --moves x", "--moves 'x'" },
        { "--variant abrupt --board 2x2 --moves 5", "--moves 5: a 2x2 board has only 4 cells" },
        { "--variant abrupt --board 4x4 --moves 3", "--moves 3 on --board 4x4: 3360 strategies per player" },
        { "--variant abrupt --board 19x19 --moves 2", "--moves 2 on --board 19x19" },
        { "--variant abrupt --board 2x1", "--board '2x1'" },
        { "--variant abrupt --board 2x2 --order rows", "--order 'rows'" },
        { "--variant abrupt --board 2x2 --exhausted never", "--exhausted 'never'" },
        { "--variant abrupt --board 2x2 --format xml", "--format 'xml'" },
        { "--board 2x2", "missing --variant" },
        { "--variant abrupt", "missing --board" },
        { "--variant abrupt --board 2x2 extra", "unexpected argument 'extra'" },
        { "--variant abrupt --board 2x2 --black a1,a2", "--black needs --white" },
        { "--variant abrupt --board 2x2 --black a1,a1 --white a2,b1", "--black 'a1,a1': cell a1 twice" },
        { "--variant abrupt --board 2x2 --black a1,c1 --white a2,b1", "--black 'c1'" },
        { "--variant abrupt --board 2x2 --black a1,a2 --white a2", "--white must each name --moves 2 cells" },
        { "--variant abrupt --board 2x2 --black a1 --white a2 --format md", "--format" },
        { "--variant classical --board 9x9 --black a1,b1 --white b1,a2 --exhausted pass",
          "--exhausted pass: --board 9x9 has more than 64 cells" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *out;
        int status = payoff(cases[i].args, 1, &out);
        int lines = 0;
        for (const char *p = out; *p; p++)
            lines += *p == '\n';
        if (status != 2 || lines != 1 || !strstr(out, cases[i].says))
            fail_msg("arena payoff %s: exit %d, output: %s", cases[i].args, status, out);
        free(out);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(json_entries_replay),
        cmocka_unit_test(tables_match_json),
        cmocka_unit_test(single_playout),
        cmocka_unit_test(bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
