/* tests/e2e/test_league.c — leagues: config errors name file, line and key; the schedule has every pair in
 * both colours with the right counts, deterministically; `arena league` killed with SIGKILL at random
 * moments (60 times) and restarted ends with exactly the planned games, none twice, and an intact
 * database; a second coordinator on the same database is refused; misbehaving bots in a league cost
 * only their own games (every mode in tests/agents/misbehaviours.h but two). */
#define _GNU_SOURCE
#include <dirent.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "agents/misbehaviours.h"
#include "config.h"
#include "league.h"
#include "test_sys.h"

E2E_FIXTURE(tmp, "arena-league-test")

static const char *write_config(const char *name, const char *text)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", tmp, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

#define HEAD "[league]\nname = t\nvariants = classical\nboards = 3x3\ngames = 2\n"
#define AGENTS "[agent a]\ncommand = x\n[agent b]\ncommand = y\n"

static void config_errors_name_file_line_and_key(void **state)
{
    (void)state;
    static const struct { const char *text, *expect; } cases[] = {
        { HEAD "colour = red\n" AGENTS, "bad.ini:6: [league] colour: unknown key" },
        { "[league]\nname = t\nvariants = classical\nboards = 3x3\ngames = 3\n" AGENTS,
          "bad.ini:5: [league] games: '3': expected an even number" },
        { "[league]\nname = t\nvariants = classical, dark\nboards = 3x3\ngames = 2\n" AGENTS,
          "bad.ini:3: [league] variants: unknown variant 'dark'" },
        { "[league]\nname = t\nvariants = all\nboards = 3x3, 30x3\ngames = 2\n" AGENTS,
          "bad.ini:4: [league] boards: board '30x3'" },
        { "[league]\nvariants = all\nboards = 3x3\ngames = 2\n" AGENTS, "bad.ini: [league] name: missing" },
        { HEAD "[agent a]\ncommand = x\n[agent b]\nargs = --fast\n", "bad.ini:8: [agent b] command: missing" },
        { HEAD "[agents]\ncommand = x\n", "bad.ini:7: [agents] command: unknown section" },
        { HEAD "mode = gauntlet\n" AGENTS, "[league] challenger: missing for mode = gauntlet" },
        { HEAD "mode = swiss\n" AGENTS, "bad.ini:6: [league] mode: 'swiss': expected round-robin or gauntlet" },
        { HEAD "[agent a]\ncommand = x\n", "needs at least two [agent NAME] sections" },
        { HEAD "concurrency = 0\n" AGENTS, "bad.ini:6: [league] concurrency: '0'" },
        { HEAD "swap = maybe\n" AGENTS, "bad.ini:6: [league] swap: 'maybe': expected yes or no" },
        { HEAD "this is not ini\n" AGENTS, "bad.ini:6: not INI syntax" },
        { HEAD "handshake_ms = 0\n" AGENTS, "bad.ini:6: [league] handshake_ms: '0': expected milliseconds" },
        { HEAD AGENTS "memory_mb = lots\n", "bad.ini:10: [agent b] memory_mb: 'lots': expected a whole number" },
        { HEAD AGENTS "open_files = 3\n", "bad.ini:10: [agent b] open_files: '3': a bot needs at least 16" },
        { HEAD AGENTS "cpu_seconds = -1\n", "bad.ini:10: [agent b] cpu_seconds: '-1'" },
    };
    static cfg_league c;
    char err[1024];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *path = write_config("bad.ini", cases[i].text);
        assert_int_equal(cfg_load(path, &c, err, sizeof err), -1);
        if (!strstr(err, cases[i].expect))
            fail_msg("case %zu: got \"%s\", expected \"%s\"", i, err, cases[i].expect);
    }
    assert_int_equal(cfg_load("/nonexistent/none.ini", &c, err, sizeof err), -1);
    assert_non_null(strstr(err, "cannot open"));
}

static void schedule_has_every_pair_in_both_colours(void **state)
{
    (void)state;
    const char *path = write_config("ok.ini", "[league]\nname = s\nvariants = classical, abrupt-flash\n"
                                              "boards = 3x3, 4x5\ngames = 4\nseed = 9\n"
                                              "[agent a]\ncommand = x\n[agent b]\ncommand = y\nargs = -v\n"
                                              "[agent c]\ncommand = z\n[agent d]\ncommand = w\n");
    static cfg_league c;
    char err[512];
    assert_int_equal(cfg_load(path, &c, err, sizeof err), 0);
    assert_string_equal(c.agents[1].cmdline, "y -v");
    cfg_games plays[4];
    for (int i = 0; i < 4; i++)
        plays[i] = (cfg_games){ .variants = (1u << HX_VARIANT_COUNT) - 1 };
    int n = lg_plan(&c, plays, NULL);
    assert_int_equal(n, 2 * 2 * 4 * 6); /* variants x boards x games x pairs */
    static store_planned p1[200], p2[200];
    assert_int_equal(lg_plan(&c, plays, p1), n);
    assert_int_equal(lg_plan(&c, plays, p2), n);
    assert_memory_equal(p1, p2, sizeof p1[0] * (size_t)n); /* deterministic */
    int count[4][4][2][2] = { { { { 0 } } } };             /* black, white, variant, board */
    for (int i = 0; i < n; i++) {
        int b = p1[i].black[0] - 'a', w = p1[i].white[0] - 'a';
        assert_int_equal(p1[i].n, i);
        assert_true(b != w);
        count[b][w][p1[i].variant == HX_CLASSICAL ? 0 : 1][p1[i].rows == 3 ? 0 : 1]++;
        for (int j = 0; j < i; j++)
            assert_true(p1[i].seed != p1[j].seed);
    }
    for (int b = 0; b < 4; b++)
        for (int w = 0; w < 4; w++)
            for (int v = 0; v < 2; v++)
                for (int k = 0; k < 2; k++)
                    assert_int_equal(count[b][w][v][k], b == w ? 0 : 2); /* half of 4 with each colour */

    c.seed = 10; /* another seed: the same games, other seeds */
    assert_int_equal(lg_plan(&c, plays, p2), n);
    assert_true(p2[0].seed != p1[0].seed && strcmp(p2[5].black, p1[5].black) == 0);

    plays[3].variants = 1u << HX_CLASSICAL; /* d plays classical only, on 3x3 only */
    plays[3].n_boards = 1;
    plays[3].boards[0][0] = plays[3].boards[0][1] = 3;
    assert_int_equal(lg_plan(&c, plays, NULL), 4 * (3 + 3 + 3 + 6));

    c.mode = CFG_GAUNTLET; /* b against each other agent */
    snprintf(c.challenger, sizeof c.challenger, "b");
    plays[3] = plays[0];
    n = lg_plan(&c, plays, p1);
    assert_int_equal(n, 2 * 2 * 4 * 3);
    for (int i = 0; i < n; i++)
        assert_true(strcmp(p1[i].black, "b") == 0 || strcmp(p1[i].white, "b") == 0);
}



/* The value of a one-number query on db, or -1 when it cannot be answered (no such file or table yet, a
 * busy database): for databases a coordinator may be creating, or was killed while creating. */
static long try_scalar(const char *db, const char *sql)
{
    sqlite3 *d;
    sqlite3_stmt *st;
    long n = -1;
    if (access(db, F_OK) != 0 || sqlite3_open_v2(db, &d, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
        return -1;
    sqlite3_busy_timeout(d, 1000);
    if (sqlite3_prepare_v2(d, sql, -1, &st, NULL) == SQLITE_OK) {
        if (sqlite3_step(st) == SQLITE_ROW)
            n = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
    }
    sqlite3_close(d);
    return n;
}

static int league(const char *cfg, const char *db, const char *logs, int kill_after_ms)
{
    char *const argv[] = { "arena", "league", (char *)cfg, "--db", (char *)db, "--logs", (char *)logs, "--quiet", NULL };
    pid_t pid = start_arena(argv);
    if (kill_after_ms > 0) {
        struct timespec t = { kill_after_ms / 1000, (kill_after_ms % 1000) * 1000000L };
        nanosleep(&t, NULL);
        kill(pid, SIGKILL);
    }
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void killed_league_resumes_without_loss_or_duplicates(void **state)
{
    (void)state;
    char text[3072], tag[64], db[300], logs[300], ipc[300], agents[512];
    const char *a = getenv("ARENA_TEST_AGENTS");
    snprintf(agents, sizeof agents, "%s", a ? a : "build/release/tests/agents");
    snprintf(tag, sizeof tag, "--tag k%d", (int)getpid());
    /* the coordinators' private ipc directories go here, so that the test can see none is left behind */
    snprintf(ipc, sizeof ipc, "%s/ipc", tmp);
    assert_int_equal(mkdir(ipc, 0755), 0);
    setenv("TMPDIR", ipc, 1);
    snprintf(text, sizeof text,
             "[league]\nname = soak\nvariants = classical, abrupt\nboards = 3x3, 4x4\ngames = 60\n"
             "concurrency = 2\nseed = 3\n"
             "[agent r1]\ncommand = %s/random\nargs = --seed 1 %s\n"
             "[agent r2]\ncommand = %s/random\nargs = --seed 2 %s\n"
             "[agent r3]\ncommand = %s/random\nargs = --seed 3 %s\n"
             /* leaves a grandchild in a session of its own at every game: none may survive a kill */
             "[agent d]\ncommand = %s/misbehave\nargs = --mode daemon %s\n",
             bin, tag, bin, tag, bin, tag, agents, tag);
    const char *cfg = write_config("soak.ini", text);
    snprintf(db, sizeof db, "%s/soak.db", tmp);
    snprintf(logs, sizeof logs, "%s/logs", tmp);
    unsigned seed = (unsigned)getpid();
    int kills = 0, rc = -1, survivors = 0;
    for (int round = 0; round < 60 && rc != 0; round++) {
        /* early kills land in the start (opening, probing bots, writing the schedule), later ones in play */
        rc = league(cfg, db, logs, 5 + (int)(rand_r(&seed) % (round % 3 == 0 ? 60 : 150)));
        /* the kernel kills every sandbox when its coordinator dies; give it a moment, then count */
        int left = procs_with(tag, false);
        for (int i = 0; i < 200 && left > 0; i++) {
            usleep(10000);
            left = procs_with(tag, false);
        }
        if (left > 0) {
            fprintf(stderr, "round %d: %d bot processes survived their coordinator\n", round, left);
            survivors += left;
            procs_with(tag, true);
        }
        if (rc != 0) { /* else it finished before the kill */
            assert_int_equal(rc, 128 + SIGKILL);
            kills++;
        }
        /* killed after its last game was stored (while stopping its bots): the league is complete, and
         * running the command again would start the next league */
        if (rc != 0 && try_scalar(db, "SELECT count(*) FROM leagues") == 1 &&
            try_scalar(db, "SELECT count(*) FROM schedule WHERE game_id IS NULL") == 0)
            rc = 0;
    }
    if (rc != 0)
        assert_int_equal(league(cfg, db, logs, 0), 0); /* plays whatever is left */
    unsetenv("TMPDIR");
    assert_int_equal(procs_with(tag, false), 0);
    if (survivors)
        fail_msg("%d bot processes survived a killed coordinator", survivors);
    int dirs = 0; /* the last coordinator removed its own ipc directory and those the killed ones left */
    DIR *dd = opendir(ipc);
    assert_non_null(dd);
    for (struct dirent *e; (e = readdir(dd));)
        dirs += strncmp(e->d_name, "arena-", 6) == 0;
    closedir(dd);
    assert_int_equal(dirs, 0);
    const long planned = 2 * 2 * 60 * 6;
    if (kills < 20)
        fail_msg("only %d kills before the league finished", kills);
    printf("# %d kills with SIGKILL before the league completed\n", kills);
    fflush(stdout);
    sqlite3 *d;
    assert_int_equal(sqlite3_open_v2(db, &d, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(d, "PRAGMA integrity_check", -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(st, 0), "ok");
    sqlite3_finalize(st);
    sqlite3_close(d);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM leagues"), 1);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM schedule"), planned);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM schedule WHERE game_id IS NULL"), 0);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games"), planned);
    assert_int_equal(db_scalar(db, "SELECT count(DISTINCT schedule_id) FROM games"), planned);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games g JOIN schedule s ON s.game_id = g.id AND "
                                "s.id = g.schedule_id"), planned);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games WHERE attempts <> (SELECT count(*) FROM attempts a "
                                "WHERE a.game_id = games.id)"), 0);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games WHERE reason <> 'connected'"), 0);
    /* running it again starts a new league (the last one is complete) */
    assert_int_equal(league(cfg, db, logs, 0), 0);
    procs_with(tag, true);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM leagues"), 2);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games"), 2 * planned);
}

/* A second coordinator on a database in use by a league is refused with status 3 and its reason, and
 * changes nothing; the first one finishes its league. */
static void a_second_coordinator_is_refused(void **state)
{
    (void)state;
    char text[2048], db[300], logs[300];
    snprintf(text, sizeof text,
             "[league]\nname = busy\nvariants = classical\nboards = 5x5\ngames = 300\n"
             "[agent one]\ncommand = %s/random\n[agent two]\ncommand = %s/random\n",
             bin, bin);
    const char *cfg = write_config("busy.ini", text);
    snprintf(db, sizeof db, "%s/busy.db", tmp);
    snprintf(logs, sizeof logs, "%s/logs", tmp);
    char *const argv[] = { "arena", "league", (char *)cfg, "--db", db, "--logs", logs, "--quiet", NULL };
    pid_t first = start_arena(argv);
    struct timespec tick = { 0, 20 * 1000 * 1000 };
    for (int i = 0; i < 500 && try_scalar(db, "SELECT count(*) FROM schedule") < 300; i++)
        nanosleep(&tick, NULL);
    char cmd[2400], out[1024];
    snprintf(cmd, sizeof cmd, "%s/arena league %s --db %s --logs %s --quiet 2>&1", bin, cfg, db, logs);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 3);
    char expect[400];
    snprintf(expect, sizeof expect, "%s: in use by another arena league (pid %d)", db, (int)first);
    if (!strstr(out, expect))
        fail_msg("got \"%s\", expected \"%s\"", out, expect);
    assert_int_equal(waitpid(first, &st, 0), first);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM leagues"), 1);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM runs"), 1);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games"), 300);
}

/* A gauntlet of a well-behaved bot against one misbehaving bot per fault: each fault costs its own games
 * only, with the right reason, every planned game is recorded, and no bot process outlives the league. */
static void misbehaving_bots_cost_only_their_games(void **state)
{
    (void)state;
    const misbehaviour *cases[N_MISBEHAVIOURS];
    int n = 0;
    for (int i = 0; i < N_MISBEHAVIOURS; i++)
        if (MISBEHAVIOURS[i].in_league)
            cases[n++] = &MISBEHAVIOURS[i];
    const char *a = getenv("ARENA_TEST_AGENTS");
    char agents[512], tag[64], db[300], logs[300];
    snprintf(agents, sizeof agents, "%s", a ? a : "build/release/tests/agents");
    snprintf(tag, sizeof tag, "--tag m%d", (int)getpid());
    static char text[16384];
    int used = snprintf(text, sizeof text,
                        "[league]\nname = faults\nmode = gauntlet\nchallenger = good\nvariants = classical\n"
                        "boards = 4x4\ngames = 2\nmove_time_ms = 300\nhandshake_ms = 1000\nconcurrency = 2\n"
                        "[agent good]\ncommand = %s/random\nargs = %s\n",
                        bin, tag);
    for (int i = 0; i < n; i++)
        used += snprintf(text + used, sizeof text - (size_t)used, "[agent %s]\ncommand = %s/misbehave\n"
                         "args = --mode %s %s\n%s",
                         cases[i]->mode, agents, cases[i]->mode, tag, cases[i]->agent_lines);
    assert_true(used < (int)sizeof text);
    const char *cfg = write_config("faults.ini", text);
    snprintf(db, sizeof db, "%s/faults.db", tmp);
    snprintf(logs, sizeof logs, "%s/logs", tmp);
    char *const argv[] = { "arena", "league", (char *)cfg, "--db", db, "--logs", logs, "--quiet", NULL };
    int st;
    pid_t pid = start_arena(argv);
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);
    assert_int_equal(procs_with(tag, true), 0); /* nothing a bot started outlived the league */
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM schedule"), 2 * n);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM schedule WHERE game_id IS NULL"), 0);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games"), 2 * n);
    for (int i = 0; i < n; i++) {
        char sql[768];
        snprintf(sql, sizeof sql,
                 "SELECT count(*) FROM games g JOIN agents w ON w.id = CASE g.winner WHEN 'B' THEN g.black "
                 "ELSE g.white END JOIN agents l ON l.id = CASE g.winner WHEN 'B' THEN g.white ELSE g.black END "
                 "WHERE w.command LIKE '%%/random %%' AND l.command LIKE '%%--mode %s %%' AND g.reason = '%s' "
                 "AND g.detail LIKE '%%%s%%'",
                 cases[i]->mode, cases[i]->reason, cases[i]->detail);
        long got = db_scalar(db, sql);
        if (got != 2)
            fail_msg("%s: %ld of 2 games lost by it as '%s' with '%s'", cases[i]->mode, got, cases[i]->reason,
                     cases[i]->detail);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(config_errors_name_file_line_and_key),
        cmocka_unit_test(schedule_has_every_pair_in_both_colours),
        cmocka_unit_test(killed_league_resumes_without_loss_or_duplicates),
        cmocka_unit_test(misbehaving_bots_cost_only_their_games),
        cmocka_unit_test(a_second_coordinator_is_refused),
    };
    return cmocka_run_group_tests(tests, e2e_setup, e2e_teardown);
}
