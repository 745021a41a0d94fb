/* tests/e2e/test_badinput.c — bad input everywhere, end to end: configs (missing keys, wrong types, unknown
 * variants, odd game counts, repeated sections and keys, missing directories and programs, too little memory,
 * schedules over the limit, control bytes), lines of any length and quoted comment characters, command lines, databases that are not SQLite or come from a newer schema,
 * corrupt policy files and checkpoints. Each gets exit status 2, exactly one line on stderr naming the
 * problem, and nothing written: the working directory is the same, file by file, before and after. */
#define _GNU_SOURCE
#include <dirent.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_sys.h"

E2E_FIXTURE(tmp, "arena-badinput-test")

/* Name, size, mtime and a checksum of the contents of every file in tmp, as one string. */
static void snapshot(char *out, size_t n)
{
    struct dirent **names;
    int k = scandir(tmp, &names, NULL, alphasort);
    assert_true(k >= 0);
    size_t used = 0;
    for (int i = 0; i < k; i++) {
        char path[600];
        snprintf(path, sizeof path, "%s/%s", tmp, names[i]->d_name);
        struct stat st;
        if (names[i]->d_name[0] != '.' && stat(path, &st) == 0) {
            unsigned long sum = 0;
            FILE *f = S_ISREG(st.st_mode) ? fopen(path, "rb") : NULL;
            for (int c; f && (c = fgetc(f)) != EOF;)
                sum = sum * 131 + (unsigned long)c;
            if (f)
                fclose(f);
            int w = snprintf(out + used, n - used, "%s %lld %lld.%09ld %lx\n", names[i]->d_name,
                             (long long)st.st_size, (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec, sum);
            assert_true(w > 0 && (size_t)w < n - used);
            used += (size_t)w;
        }
        free(names[i]);
    }
    free(names);
}

/* Runs `command` (a shell line; BIN is replaced by the programs' directory) in tmp: exit status 2, one
 * stderr line containing `expect`, nothing on stdout, the directory unchanged. */
static void refused(const char *command, const char *expect)
{
    static char before[1 << 14], after[1 << 14];
    snapshot(before, sizeof before);
    char line[2048], cmd[4096];
    size_t used = 0;
    for (const char *p = command; *p;) { /* BIN -> the programs' directory */
        int w = strncmp(p, "BIN", 3) == 0 ? snprintf(line + used, sizeof line - used, "%s", bin)
                                           : snprintf(line + used, sizeof line - used, "%c", *p);
        assert_true(w > 0 && (size_t)w < sizeof line - used);
        used += (size_t)w;
        p += strncmp(p, "BIN", 3) == 0 ? 3 : 1;
    }
    snprintf(cmd, sizeof cmd, "cd %s && %s 2>%s/.err >%s/.out", tmp, line, tmp, tmp);
    int st = system(cmd);
    int rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
    char path[128];
    snprintf(path, sizeof path, "%s/.err", tmp);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static char err[4096];
    size_t n = fread(err, 1, sizeof err - 1, f);
    err[n] = '\0';
    fclose(f);
    snprintf(path, sizeof path, "%s/.out", tmp);
    struct stat out;
    assert_int_equal(stat(path, &out), 0);
    int lines = 0;
    for (size_t i = 0; i < n; i++)
        lines += err[i] == '\n';
    if (rc != 2 || lines != 1 || !strstr(err, expect) || out.st_size != 0)
        fail_msg("%s\n  exit %d (expected 2), stderr \"%s\" (expected one line with \"%s\"), %lld bytes on stdout",
                 line, rc, err, expect, (long long)out.st_size);
    snapshot(after, sizeof after);
    if (strcmp(before, after) != 0)
        fail_msg("%s\n  changed the directory:\n%s-- was --\n%s", line, after, before);
}

static void write_file(const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", tmp, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

#define LEAGUE "[league]\nname = t\nvariants = classical\nboards = 3x3\n"
#define AGENTS "[agent a]\ncommand = BIN/random\n[agent b]\ncommand = BIN/random\n"

static void configs(void **state)
{
    (void)state;
    static const struct {
        const char *text, *expect;
    } cases[] = {
        { "[league]\nvariants = classical\nboards = 3x3\ngames = 2\n" AGENTS, "[league] name: missing" },
        { LEAGUE AGENTS, "[league] games: missing" },
        { LEAGUE "games = 3\n" AGENTS, "c.ini:5: [league] games: '3': expected an even number" },
        { LEAGUE "games = two\n" AGENTS, "c.ini:5: [league] games: 'two'" },
        { "[league]\nname = t\nvariants = dark\nboards = 3x3\ngames = 2\n" AGENTS,
          "c.ini:3: [league] variants: unknown variant 'dark'" },
        { LEAGUE "games = 2\nmove_time_ms = soon\n" AGENTS, "c.ini:6: [league] move_time_ms: 'soon'" },
        { LEAGUE "games = 2\n[agent a]\ncommand = BIN/random\nmemory_mb = -5\n[agent b]\ncommand = BIN/random\n",
          "c.ini:8: [agent a] memory_mb: '-5'" },
        /* time controls: the file, line, key and what is wrong */
        { LEAGUE "games = 2\ntime_control = 40/\n" AGENTS,
          "c.ini:6: [league] time_control: '40/': expected SECONDS (more than 0, at most 86400, at most 3 decimals) "
          "after '/' (or none)" },
        { LEAGUE "games = 2\ntime_control = 0+1\n" AGENTS, "c.ini:6: [league] time_control: '0+1': expected SECONDS" },
        { LEAGUE "games = 2\ntime_control = x/60\n" AGENTS,
          "c.ini:6: [league] time_control: 'x/60': expected MOVES (1 to 1000) before '/'" },
        { LEAGUE "games = 2\ntime_control = 60+0.0001\n" AGENTS,
          "c.ini:6: [league] time_control: '60+0.0001': expected INCREMENT in seconds" },
        { LEAGUE "games = 2\n[agent a]\ncommand = BIN/random\ntime_control = 1m\n[agent b]\ncommand = BIN/random\n",
          "c.ini:8: [agent a] time_control: '1m': expected SECONDS" },
        { LEAGUE "games = 2\n[agent a]\ncommand = BIN/no-such-bot\n[agent b]\ncommand = BIN/random\n",
          "c.ini:7: [agent a] command: '" },
        /* repeated sections and keys */
        { LEAGUE "games = 2\n" AGENTS "[agent a]\ncommand = BIN/random\n",
          "c.ini:10: [agent a]: a second section of this agent (the first is at line 6)" },
        { LEAGUE "games = 2\n[agent a]\ncommand = BIN/random\nargs = -q\ncommand = BIN/random\n[agent b]\n"
          "command = BIN/random\n",
          "c.ini:9: [agent a] command: repeated (the first is at line 7)" },
        { LEAGUE "games = 2\ngames = 4\n" AGENTS, "c.ini:6: [league] games: repeated (the first is at line 5)" },
        { LEAGUE "games = 2\n" AGENTS "[league]\nseed = 3\n",
          "c.ini:10: [league]: a second [league] section (the first is at line 1)" },
        /* what is checked before anything is written */
        { LEAGUE "games = 2\n[agent a]\ncommand = BIN/random\ndir = no-such-dir\n[agent b]\ncommand = BIN/random\n",
          "c.ini:8: [agent a] dir: 'no-such-dir': no such directory" },
        { LEAGUE "games = 2\n[agent a]\ncommand = BIN/random\ndir = c.ini\n[agent b]\ncommand = BIN/random\n",
          "c.ini:8: [agent a] dir: 'c.ini': not a directory" },
        { LEAGUE "games = 2\n[agent a]\ncommand = BIN\n[agent b]\ncommand = BIN/random\n",
          "c.ini:7: [agent a] command: '" },
        { LEAGUE "games = 2\n[agent a]\ncommand = ./c.ini\n[agent b]\ncommand = BIN/random\n",
          "c.ini:7: [agent a] command: './c.ini': not an executable file" },
        { LEAGUE "games = 2\n[agent a]\ncommand = BIN/random\nmemory_mb = 16\n[agent b]\ncommand = BIN/random\n",
          "c.ini:8: [agent a] memory_mb: '16': under 32 MiB" },
        { LEAGUE "games = 2\nmode = gauntlet\nchallenger = c\n" AGENTS,
          "c.ini:7: [league] challenger: 'c': no such agent" },
        { LEAGUE "games = 2\n[agent a]\ncommand = BIN/random\nvariants = abrupt\n[agent b]\ncommand = BIN/random\n",
          "c.ini: no games to play" },
        /* bounds of the schedule: 32 agents x 16 boards x 152 games once crashed lg_plan */
        { "[league]\nname = t\nvariants = all\nboards = 3x3, 4x4\ngames = 100000\n" AGENTS,
          "c.ini: [league] games: 2 agents, 7 variants, 2 boards and 100000 games per pairing make 1400000 games, "
          "over the limit of 1000000" },
        { LEAGUE "games = 1000000\n" AGENTS, "c.ini:5: [league] games: '1000000': expected an even number of games "
          "per pairing, 2 to 100000" },
        /* junk: control bytes are shown escaped */
        { "\x01\x02junk\x1b[31m\n", "c.ini:1: not INI syntax (expected [section] or key = value): '\\x01\\x02junk\\x1b[31m'" },
        { LEAGUE "games = 2\n[agent a\x1b]\ncommand = BIN/random\n",
          "c.ini:6: [agent a\\x1b]: an agent's name has 1 to 63 characters" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[2048], *o = text;
        for (const char *p = cases[i].text; *p;) /* BIN -> the programs' directory */
            if (strncmp(p, "BIN", 3) == 0) {
                o += sprintf(o, "%s", bin);
                p += 3;
            } else {
                *o++ = *p++;
            }
        *o = '\0';
        write_file("c.ini", text);
        refused("BIN/arena league c.ini --db r.db --logs logs --quiet", cases[i].expect);
    }
    refused("BIN/arena league missing.ini --db r.db", "missing.ini: cannot open");
    char text[2048];
    snprintf(text, sizeof text, LEAGUE "games = 2\n[agent a]\ncommand = %s/random\n[agent b]\ncommand = %s/random\n",
             bin, bin);
    write_file("c.ini", text);
    refused("BIN/arena league c.ini --db r.db --resume --quiet", "--resume: no database r.db");
}

/* 32 agents, 16 boards, all variants and 152 games: counted, not built (lg_plan's int would overflow). */
static void huge_leagues_are_counted_first(void **state)
{
    (void)state;
    static char text[8192];
    int n = snprintf(text, sizeof text, "[league]\nname = t\nvariants = all\ngames = 152\nboards = 3x3");
    for (int b = 4; b <= 18; b++)
        n += snprintf(text + n, sizeof text - (size_t)n, ", %dx%d", b, b);
    n += snprintf(text + n, sizeof text - (size_t)n, "\n");
    for (int a = 0; a < 32; a++)
        n += snprintf(text + n, sizeof text - (size_t)n, "[agent a%d]\ncommand = %s/random\n", a, bin);
    write_file("c.ini", text);
    refused("BIN/arena league c.ini --db r.db --quiet",
            "c.ini: [league] games: 32 agents, 7 variants, 16 boards and 152 games per pairing make 8443904 games, "
            "over the limit of 1000000 in one league");
}

/* Lines of any length: a 4096-character args and a command of 300 characters (once cut at 199) are read whole; one more
 * character is an error naming the key and the limit. Quoted ';' and '#' are not comments. */
static void long_lines_and_quotes(void **state)
{
    (void)state;
    char dir[600];
    snprintf(dir, sizeof dir, "%s/d", tmp);
    mkdir(dir, 0700);
    /* a command path of 300 characters: a directory of long names with a link to bin/random at its end */
    char rel[400] = "d";
    for (int i = 0; i < 4; i++) {
        strcat(rel, "/");
        size_t k = strlen(rel);
        memset(rel + k, 'a' + i, 70);
        rel[k + 70] = '\0';
        char full[700];
        snprintf(full, sizeof full, "%s/%s", tmp, rel);
        assert_int_equal(mkdir(full, 0700), 0);
    }
    char link[800], target[1200];
    snprintf(link, sizeof link, "%s/%s/random-bot", tmp, rel);
    snprintf(target, sizeof target, "%s/random", bin);
    if (target[0] != '/') { /* a relative bin: from the test's directory */
        char cwd[400];
        assert_non_null(getcwd(cwd, sizeof cwd));
        snprintf(target, sizeof target, "%s/%s/random", cwd, bin);
    }
    assert_int_equal(symlink(target, link), 0);
    static char text[16384], args[4200];
    memset(args, 0, sizeof args);
    strcpy(args, "--seed 3 --name \"x;y #z\" --tag=");
    size_t k = strlen(args);
    memset(args + k, 'x', 4096 - k); /* one word, to 4096 characters */
    args[4096] = '\0';
    snprintf(text, sizeof text, LEAGUE "games = 2\nsandbox = off\n[agent a]\ncommand = ./%s/random-bot ; a comment\n"
             "args = %s\nvariants = classical\nboards = 3x3\n[agent b]\ncommand = ./%s/random-bot\n"
             "variants = classical\nboards = 3x3\n", rel, args, rel);
    write_file("c.ini", text);
    assert_int_equal(sh_run("cd %s && %s/arena league c.ini --db long.db --logs logs --quiet >.out 2>.err", tmp, bin), 0);
    char db[700], sql[256];
    snprintf(db, sizeof db, "%s/long.db", tmp);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games"), 2);
    snprintf(sql, sizeof sql, "SELECT length(command) FROM agents WHERE name = 'a'");
    assert_int_equal(db_scalar(db, sql), (long)(2 + strlen(rel) + strlen("/random-bot") + 1 + 4096));
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM agents WHERE name = 'a' AND command LIKE "
                                   "'%--name \"x;y #z\" --tag=xxx%'"), 1);
    assert_int_equal(sh_run("rm -rf %s/long.db* %s/logs %s/d", tmp, tmp, tmp), 0);
    /* one character more */
    snprintf(text, sizeof text, LEAGUE "games = 2\n[agent a]\ncommand = BIN/random\nargs = %s4\n[agent b]\n"
             "command = BIN/random\n", args);
    char *o = text, *p = strstr(text, "BIN");
    static char final[16384];
    snprintf(final, sizeof final, "%.*s%s%s", (int)(p - o), o, bin, p + 3);
    write_file("c.ini", final);
    refused("BIN/arena league c.ini --db r.db --quiet", "c.ini:8: [agent a] args: 4097 characters, over the limit of 4096");
}

static void command_lines(void **state)
{
    (void)state;
    refused("BIN/arena match --variant dark --board 3x3 BIN/random BIN/random --db r.db", "dark");
    refused("BIN/arena match --variant classical --board 30x3 BIN/random BIN/random --db r.db", "30x3");
    refused("BIN/arena match --variant classical --board 3x3 --games 0 BIN/random BIN/random --db r.db", "--games");
    refused("BIN/arena match --variant classical --board 3x3 BIN/random --db r.db", "expected two bots");
    refused("BIN/arena match --variant classical --board 3x3 --time-control 40/60+ BIN/random BIN/random --db r.db",
            "arena match: --time-control: '40/60+': expected INCREMENT");
    refused("BIN/arena match --variant classical --board 3x3 --time-control 60,1/-1 BIN/random BIN/random --db r.db",
            "arena match: --time-control (BOT_B's): '1/-1': expected SECONDS");
    refused("BIN/arena match --variant classical --board 3x3 BIN/random ./nobot --db r.db", "./nobot");
    refused("BIN/arena match --variant classical --board 3x3 --open-files 3 BIN/random BIN/random --db r.db",
            "--open-files 3");
    refused("BIN/arena match --colour red", "unknown option");
    refused("BIN/arena match --variant classical --board 3x3 --openings-compat maybe BIN/random BIN/random --db r.db",
            "--openings-compat maybe: expected refuse or replay");
    refused("BIN/arena match --variant classical --board 3x3 --openings nofile BIN/random BIN/random --db r.db",
            "--openings nofile");
    refused("BIN/arena match --variant classical --board 2x2 --opening-stones 4 BIN/random BIN/random --db r.db",
            "--opening-stones 4: they do not leave a move on 2x2");
    refused("BIN/arena ratings --db none.db", "no such database");
    refused("BIN/arena frobnicate", "frobnicate");
    refused("BIN/cfr-train --variant classical --board 2x2 --iterations many --out p.pol", "many");
    refused("BIN/rl-train --variant classical --board 2x2 --algo td --episodes 5 --out q.pol", "td");
    refused("BIN/rcfr-train --variant classical --board 2x2 --algo cfr --iterations 5 --out r.pol", "'cfr'");
    refused("BIN/rcfr-train --variant classical --board 2x2 --algo rcfr --link exp --iterations 5 --out r.pol",
            "--algo frcfr");
    refused("BIN/rcfr-train --variant classical --board 2x2 --algo frcfr --link exp --p 3 --iterations 5 --out r.pol",
            "--p is for --link poly");
    refused("BIN/rcfr-train --variant classical --board 2x2 --algo frcfr --link poly --p 0.5 --iterations 5 --out r.pol",
            "--p");
    refused("BIN/rcfr-train --variant classical --board 2x2 --algo rcfr+ --targets reservoir --iterations 5 --out r.pol",
            "use --targets bootstrap");
    refused("BIN/rcfr-train --variant classical --board 2x2 --algo rcfr --features onehot --regressor fann "
            "--iterations 5 --out r.pol --quiet",
            "dense feature set");
    refused("BIN/rcfr-train --variant classical --board 2x2 --algo rcfr --features planes --iterations 5 --out r.pol",
            "planes");
}

static void databases(void **state)
{
    (void)state;
    char path[256];
    snprintf(path, sizeof path, "%s/newer.db", tmp);
    sqlite3 *d;
    assert_int_equal(sqlite3_open(path, &d), SQLITE_OK);
    assert_int_equal(sqlite3_exec(d, "CREATE TABLE future (x); PRAGMA user_version = 99;", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(d);
    write_file("text.db", "this is a text file, not a database; long enough to be more than a header..........\n");
    write_file("ok.ini", LEAGUE "games = 2\n[agent a]\ncommand = /bin/true\n[agent b]\ncommand = /bin/true\n");
    static const char *const dbs[] = { "newer.db", "text.db" };
    static const char *const why[] = { "newer.db: database schema 99 is newer than this arena's", "text.db: not a" };
    for (int i = 0; i < 2; i++) {
        char cmd[512];
        snprintf(cmd, sizeof cmd, "BIN/arena match --variant classical --board 3x3 --db %s BIN/random BIN/random",
                 dbs[i]);
        refused(cmd, why[i]);
        snprintf(cmd, sizeof cmd, "BIN/arena league ok.ini --db %s --quiet", dbs[i]);
        refused(cmd, why[i]);
        static const char *const readers[] = { "ratings", "games", "matrix", "export --format sgf" };
        for (int r = 0; r < 4; r++) {
            snprintf(cmd, sizeof cmd, "BIN/arena %s --db %s", readers[r], dbs[i]);
            refused(cmd, why[i]);
        }
    }
}

static void policies_and_checkpoints(void **state)
{
    (void)state;
    /* a real policy, then damaged copies of it */
    assert_int_equal(sh_run("cd %s && %s/cfr-train --variant classical --board 2x2 --algo cfr+ --iterations 20 "
                            "--out good.pol --quiet >/dev/null 2>&1 && rm -f good.pol.ckpt good.pol.csv",
                            tmp, bin),
                     0);
    assert_int_equal(sh_run("cd %s && head -c 200 good.pol > short.pol && printf 'NOTAPOLICYFILE' > magic.pol && "
                            "cp good.pol flipped.pol && printf '\\377\\377\\377\\377' | dd of=flipped.pol bs=1 seek=100 "
                            "conv=notrunc 2>/dev/null",
                            tmp),
                     0);
    refused("BIN/arena exploit short.pol", "short.pol: ");
    refused("BIN/arena exploit magic.pol", "magic.pol: not a policy file");
    refused("BIN/arena exploit flipped.pol", "flipped.pol: "); /* a body byte: the checksum */
    refused("BIN/policy-bot --policy magic.pol --endpoint ipc:///nonexistent/x", "magic.pol: not a policy file");
    refused("BIN/policy-bot --policy short.pol --endpoint ipc:///nonexistent/x", "short.pol: ");
    write_file("c.pol.ckpt", "garbage that is not a checkpoint");
    refused("BIN/cfr-train --variant classical --board 2x2 --algo cfr+ --iterations 10 --out c.pol --quiet",
            "c.pol.ckpt: not a checkpoint file");
    write_file("q.pol.ckpt", "garbage that is not a checkpoint");
    refused("BIN/rl-train --variant classical --board 2x2 --algo qlearning --episodes 10 --out q.pol --quiet",
            "q.pol.ckpt: not a checkpoint file");
    write_file("r.pol.ckpt", "garbage that is not a checkpoint");
    refused("BIN/rcfr-train --variant classical --board 2x2 --algo rcfr --iterations 10 --out r.pol --quiet",
            "r.pol.ckpt: not a checkpoint file");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(configs),
        cmocka_unit_test(huge_leagues_are_counted_first),
        cmocka_unit_test(long_lines_and_quotes),
        cmocka_unit_test(command_lines),
        cmocka_unit_test(databases),
        cmocka_unit_test(policies_and_checkpoints),
    };
    return cmocka_run_group_tests(tests, e2e_setup, e2e_teardown);
}
