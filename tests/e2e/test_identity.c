/* tests/e2e/test_identity.c — what an agent is: its name, its command line and its program. Two setups of one
 * program (bin/random --seed 1 and --seed 2) are two agents, stored apart and shown apart (NAME#ID) by the
 * match summary, ratings, matrix, games, show and export; one setup run twice is one agent; `name=NAME` before a
 * BOT of `arena match` names it (and is not part of its command line); `name =` in a league config is the name
 * an agent is stored under, and two agents of one config with one name are refused, naming both lines. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_sys.h"

E2E_FIXTURE(tmp, "arena-identity-test")

static char db[128];

/* A fresh database for the test, named after it. */
static void fresh_db(const char *name)
{
    snprintf(db, sizeof db, "%s/%s.db", tmp, name);
    assert_int_equal(sh_run("rm -f '%s' '%s-wal' '%s-shm'", db, db, db), 0);
}

/* The output (stdout and stderr) of an arena command on db, and its exit status in *status. */
static char *arena(int *status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static char *arena(int *status, const char *fmt, ...)
{
    char args[2048], cmd[3072];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "'%s/arena' %s 2>&1", bin, args);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    char *text = read_all(p);
    int st = pclose(p);
    *status = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
    return text;
}

static void contains(const char *text, const char *want)
{
    if (!strstr(text, want))
        fail_msg("no '%s' in:\n%s", want, text);
}

static void two_seeds_are_two_agents_everywhere(void **state)
{
    (void)state;
    fresh_db("seeds");
    int st;
    char *out = arena(&st, "match --variant classical --board 3x3 --games 4 --quiet --db '%s' --logs '%s/logs' "
                           "'%s/random --seed 1' '%s/random --seed 2'", db, tmp, bin, bin);
    assert_int_equal(st, 0);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM agents"), 2);
    assert_int_equal(db_scalar(db, "SELECT count(DISTINCT command) FROM agents WHERE name = 'random'"), 2);
    assert_int_equal(db_scalar(db, "SELECT count(DISTINCT sha256) FROM agents"), 1);
    char cmd1[700], label1[32], label2[32];
    snprintf(cmd1, sizeof cmd1, "SELECT id FROM agents WHERE command = '%s/random --seed 1'", bin);
    long id1 = db_scalar(db, cmd1), id2 = db_scalar(db, "SELECT max(id) + min(id) FROM agents") - id1;
    snprintf(label1, sizeof label1, "random#%ld", id1);
    snprintf(label2, sizeof label2, "random#%ld", id2);
    /* each agent played each colour: the games are between the two, not one against itself */
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games WHERE black <> white"), 4);
    contains(out, label1);
    contains(out, label2);
    free(out);

    static const char *const reports[] = { "ratings --run 1", "ratings --run 1 --format json", "matrix --run 1",
                                           "games", "games --format csv", "show 1", "export --format pgn",
                                           "export --format sgf" };
    for (size_t i = 0; i < sizeof reports / sizeof reports[0]; i++) {
        out = arena(&st, "%s --db '%s'", reports[i], db);
        assert_int_equal(st, 0);
        contains(out, label1);
        contains(out, label2);
        free(out);
    }
    /* a label selects that agent's games; the name selects both agents' */
    out = arena(&st, "games --db '%s' --agent %s --json", db, label1);
    assert_int_equal(st, 0);
    contains(out, label2); /* its opponent, in every one of its games */
    free(out);
    out = arena(&st, "ratings --db '%s' --run 1 --anchor %s", db, label2);
    assert_int_equal(st, 0);
    contains(out, "anchor: random#");
    free(out);
}

static void one_setup_twice_is_one_agent(void **state)
{
    (void)state;
    fresh_db("same");
    int st;
    for (int k = 0; k < 2; k++) {
        char *out = arena(&st, "match --variant classical --board 3x3 --games 2 --quiet --json --db '%s' --logs "
                               "'%s/logs' '%s/random --seed 3' '%s/random --seed 3'", db, tmp, bin, bin);
        assert_int_equal(st, 0);
        contains(out, "\"name\":\"random\",\"id\":1,");
        assert_null(strstr(out, "random#"));
        free(out);
    }
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM agents"), 1);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games WHERE black = 1 AND white = 1"), 4);
    char *out = arena(&st, "games --db '%s' --format csv", db);
    assert_int_equal(st, 0);
    assert_null(strstr(out, "random#"));
    free(out);
}

static void name_prefix_names_a_match_bot(void **state)
{
    (void)state;
    fresh_db("named");
    int st;
    char *out = arena(&st, "match --variant classical --board 3x3 --games 2 --quiet --json --db '%s' --logs "
                           "'%s/logs' 'name=r1 %s/random --seed 1' 'name=r2   %s/random --seed 1'",
                      db, tmp, bin, bin);
    assert_int_equal(st, 0);
    contains(out, "\"a\":{\"name\":\"r1\"");
    contains(out, "\"b\":{\"name\":\"r2\"");
    free(out);
    char sql[800];
    snprintf(sql, sizeof sql,
             "SELECT count(*) FROM agents WHERE name IN ('r1', 'r2') AND command = '%s/random --seed 1'", bin);
    assert_int_equal(db_scalar(db, sql), 2); /* the prefix is not part of the command line */
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM agents"), 2);
    out = arena(&st, "ratings --db '%s' --run 1 --anchor r1", db);
    assert_int_equal(st, 0);
    contains(out, "r2");
    assert_null(strstr(out, "#"));
    free(out);

    /* a name that is not one is bad input, naming the bot */
    static const char *const bad[] = { "name=a/b %s/random", "name= %s/random", "name=x#1 %s/random", "name=only" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char bot[700];
        snprintf(bot, sizeof bot, bad[i], bin);
        out = arena(&st, "match --variant classical --board 3x3 --games 2 --quiet --db '%s' --logs '%s/logs' "
                         "'%s/random' '%s'", db, tmp, bin, bot);
        assert_int_equal(st, 2);
        contains(out, "BOT_B: ");
        contains(out, "name=NAME");
        free(out);
    }
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM runs"), 1);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* An agent is also the files its command line names: the same command line with a changed file (a retrained
 * policy) is a new agent, whose files and hashes are stored, and the league's report says which file made it
 * new; a directory named counts by its files' contents. */
static void a_changed_file_is_a_new_agent(void **state)
{
    (void)state;
    fresh_db("files");
    const char *agents = getenv("ARENA_TEST_AGENTS");
    char cfg[128], text[2048], weights[160], dir[160], out_dir[200];
    snprintf(cfg, sizeof cfg, "%s/f.ini", tmp);
    snprintf(weights, sizeof weights, "%s/weights.txt", tmp);
    snprintf(dir, sizeof dir, "%s/wdir", tmp);
    assert_int_equal(sh_run("mkdir -p '%s/sub' && echo a > '%s/sub/one' && echo b > '%s/two'", dir, dir, dir), 0);
    write_file(weights, "version 1\n");
    snprintf(text, sizeof text,
             "[league]\nname = f\nvariants = classical\nboards = 3x3\ngames = 2\n\n"
             "[agent trained]\ncommand = %s/misbehave\nargs = --mode play --tag %s --tag %s\n\n"
             "[agent r]\ncommand = %s/random\n", agents ? agents : "build/release/tests/agents", weights, dir, bin);
    write_file(cfg, text);
    int st;
    for (int night = 0; night < 4; night++) {
        if (night == 1)
            write_file(weights, "version 2\n"); /* retrained */
        if (night == 3)
            assert_int_equal(sh_run("echo c > '%s/sub/one'", dir), 0); /* a file inside the named directory */
        char *out = arena(&st, "league '%s' --db '%s' --quiet --new --logs '%s/logs'", cfg, db, tmp);
        assert_int_equal(st, 0);
        free(out);
    }
    /* nights 1 and 2 (the same files) are one agent; every change of a file, another */
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM agents WHERE name = 'trained'"), 3);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM agents WHERE name = 'r'"), 1);
    assert_int_equal(db_scalar(db, "SELECT count(DISTINCT sha256) FROM agent_files WHERE path LIKE '%weights.txt'"), 2);
    assert_int_equal(db_scalar(db, "SELECT count(DISTINCT sha256) FROM agent_files WHERE path LIKE '%wdir'"), 2);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM agent_files WHERE agent_id = (SELECT id FROM agents WHERE "
                                   "name = 'r')"), 0);
    /* the report of the second night says which file made the agent new */
    snprintf(out_dir, sizeof out_dir, "%s/report-f", tmp);
    char *out = arena(&st, "report --db '%s' --league 2 --out '%s'", db, out_dir);
    assert_int_equal(st, 0);
    free(out);
    char md[260];
    snprintf(md, sizeof md, "%s/report.md", out_dir);
    FILE *f = fopen(md, "r");
    assert_non_null(f);
    char *page = read_all(f);
    fclose(f);
    contains(page, "weights.txt changed since #");
    free(page);
    out = arena(&st, "report --db '%s' --league 4 --out '%s'", db, out_dir);
    assert_int_equal(st, 0);
    free(out);
    f = fopen(md, "r");
    assert_non_null(f);
    page = read_all(f);
    fclose(f);
    contains(page, "wdir changed since #");
    free(page);
}

static void config_name_key_and_duplicates(void **state)
{
    (void)state;
    fresh_db("config");
    char cfg[128], text[2048];
    snprintf(cfg, sizeof cfg, "%s/n.ini", tmp);
    /* stored under its name =; the other under its section's name */
    snprintf(text, sizeof text,
             "[league]\nname = n\nvariants = classical\nboards = 3x3\ngames = 2\n\n"
             "[agent a]\nname = first\ncommand = %s/random\nargs = --seed 1\n\n"
             "[agent b]\ncommand = %s/random\nargs = --seed 2\n", bin, bin);
    write_file(cfg, text);
    int st;
    char *out = arena(&st, "league '%s' --db '%s' --quiet --logs '%s/logs'", cfg, db, tmp);
    assert_int_equal(st, 0);
    free(out);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM agents WHERE name = 'first' AND command LIKE '%--seed 1'"), 1);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM agents WHERE name = 'b' AND command LIKE '%--seed 2'"), 1);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM agents"), 2);
    out = arena(&st, "ratings --db '%s'", db);
    assert_int_equal(st, 0);
    contains(out, "first");
    free(out);

    /* two agents with one effective name: refused with both lines, nothing written */
    static const char *const dup[][2] = {
        { "[agent a]\nname = same\ncommand = %s/random\n\n[agent b]\ncommand = %s/random\nname = same\n",
          ":13: [agent b] name: 'same' is already the name of [agent a] (line 8)" },
        { "[agent a]\nname = b\ncommand = %s/random\n\n[agent b]\ncommand = %s/random\n",
          ":11: [agent b] name: 'b' is already the name of [agent a] (line 8)" },
    };
    for (size_t i = 0; i < sizeof dup / sizeof dup[0]; i++) {
        char agents[1200];
        snprintf(agents, sizeof agents, dup[i][0], bin, bin);
        snprintf(text, sizeof text, "[league]\nname = d\nvariants = classical\nboards = 3x3\ngames = 2\n\n%s", agents);
        write_file(cfg, text);
        out = arena(&st, "league '%s' --db '%s' --quiet --logs '%s/logs'", cfg, db, tmp);
        assert_int_equal(st, 2);
        contains(out, dup[i][1]);
        free(out);
    }
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM leagues"), 1);
    /* a bad name = */
    snprintf(text, sizeof text, "[league]\nname = d\nvariants = classical\nboards = 3x3\ngames = 2\n\n"
             "[agent a]\nname = a#1\ncommand = %s/random\n\n[agent b]\ncommand = %s/random\n", bin, bin);
    write_file(cfg, text);
    out = arena(&st, "league '%s' --db '%s' --quiet --logs '%s/logs'", cfg, db, tmp);
    assert_int_equal(st, 2);
    contains(out, ":8: [agent a] name: expected a name");
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(two_seeds_are_two_agents_everywhere),
        cmocka_unit_test(one_setup_twice_is_one_agent),
        cmocka_unit_test(name_prefix_names_a_match_bot),
        cmocka_unit_test(config_name_key_and_duplicates),
        cmocka_unit_test(a_changed_file_is_a_new_agent),
    };
    return cmocka_run_group_tests(tests, e2e_setup, e2e_teardown);
}
