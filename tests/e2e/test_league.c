/* tests/e2e/test_league.c — leagues: config errors name file, line and key; the schedule has every pair in
 * both colours with the right counts, deterministically; `arena league` killed with SIGKILL at random
 * moments (60 times) and restarted ends with exactly the planned games, none twice, and an intact
 * database; a second coordinator on the same database is refused; misbehaving bots in a league cost
 * only their own games (every mode in tests/agents/misbehaviours.h but two); bot processes live across
 * games (at most `concurrency` per agent without forfeits, a new one only for the agent at fault, one per
 * game with `restart = game`, idle ones retired when the pool is full); players' seeds: every seed a
 * killed and resumed league sends derives from the one secret stored with it, such a league replays the
 * games of one played straight through, separately created leagues get their own secrets (shown in no
 * output), and a league in a schema-2 database is resumed and given a secret. Openings: deterministic bots play
 * as many distinct games as the opening suite allows (and the league warns when games repeat), a league seeded by
 * its date plays other games each night; an SPRT league stops each pairing once its test is decided. */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <glob.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "agents/misbehaviours.h"
#include "config.h"
#include "league.h"
#include "mode.h"
#include "protocol.h"
#include "schema_v2.h"
#include "seeds.h"
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
        { HEAD "[agents]\ncommand = x\n", "bad.ini:6: [agents]: unknown section" },
        { HEAD "mode = gauntlet\n" AGENTS, "[league] challenger: missing for mode = gauntlet" },
        { HEAD "mode = swiss\n" AGENTS, "bad.ini:6: [league] mode: 'swiss': expected round-robin, gauntlet, sprt or knockout" },
        { HEAD "[agent a]\ncommand = x\n", "needs at least two [agent NAME] sections" },
        { HEAD "concurrency = 0\n" AGENTS, "bad.ini:6: [league] concurrency: '0'" },
        { HEAD "swap = maybe\n" AGENTS, "bad.ini:6: [league] swap: 'maybe': expected yes or no" },
        { HEAD "openings_compat = maybe\n" AGENTS,
          "bad.ini:6: [league] openings_compat: 'maybe': expected refuse (a protocol-1 agent is refused" },
        { HEAD "this is not ini\n" AGENTS, "bad.ini:6: not INI syntax" },
        { HEAD "handshake_ms = 0\n" AGENTS, "bad.ini:6: [league] handshake_ms: '0': expected milliseconds" },
        { HEAD AGENTS "memory_mb = lots\n", "bad.ini:10: [agent b] memory_mb: 'lots': expected a whole number" },
        { HEAD AGENTS "open_files = 3\n", "bad.ini:10: [agent b] open_files: '3': a bot needs at least 16" },
        { HEAD AGENTS "cpu_seconds = -1\n", "bad.ini:10: [agent b] cpu_seconds: '-1'" },
        { HEAD AGENTS "pids = 3\n", "bad.ini:10: [agent b] pids: '3': a bot needs at least 8" },
        { HEAD AGENTS "tmp_mb = big\n", "bad.ini:10: [agent b] tmp_mb: 'big': expected a whole number" },
        { HEAD AGENTS "log_mb = -2\n", "bad.ini:10: [agent b] log_mb: '-2'" },
        { HEAD "mode = knockout\nelo1 = 5\nelo0 = 9\n" AGENTS "pids = 0\nlog_mb = 0\ncolour = red\n",
          "bad.ini:15: [agent b] colour: unknown key" },
        { HEAD "mode = sprt\nchallenger = a\nelo1 = 5\nelo0 = 9\n" AGENTS, "[league] elo1: 5 is not above elo0 = 9" },
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

/* Every config the project ships loads (the tests run from the project's root), and its text parses to the same
 * league as its file (what `arena report` does with a stored config). */
static void shipped_configs_load(void **state)
{
    (void)state;
    glob_t g;
    assert_int_equal(glob("configs/*.ini", 0, NULL, &g), 0);
    assert_true(g.gl_pathc >= 4); /* benchmark, mc, nightly, quick */
    static cfg_league c;
    char err[1024];
    for (size_t i = 0; i < g.gl_pathc; i++) {
        if (cfg_load(g.gl_pathv[i], &c, err, sizeof err) != 0)
            fail_msg("%s", err);
        assert_true(c.n_agents >= 2);
        size_t len;
        char *text = cfg_read(g.gl_pathv[i], &len, err, sizeof err);
        assert_non_null(text);
        static cfg_league t;
        assert_int_equal(cfg_parse(text, len, g.gl_pathv[i], &t, err, sizeof err), 0);
        assert_memory_equal(&c, &t, sizeof c);
        text[len / 2] = '\0'; /* a NUL in the text is refused, not read as its end */
        assert_int_equal(cfg_parse(text, len, g.gl_pathv[i], &t, err, sizeof err), -1);
        assert_non_null(strstr(err, "a NUL byte"));
        free(text);
    }
    globfree(&g);
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
    int n = lg_plan(&c, plays, NULL, NULL);
    assert_int_equal(n, 2 * 2 * 4 * 6); /* variants x boards x games x pairs */
    static store_planned p1[200], p2[200];
    assert_int_equal(lg_plan(&c, plays, NULL, p1), n);
    assert_int_equal(lg_plan(&c, plays, NULL, p2), n);
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
    assert_int_equal(lg_plan(&c, plays, NULL, p2), n);
    assert_true(p2[0].seed != p1[0].seed && strcmp(p2[5].black, p1[5].black) == 0);

    plays[3].variants = 1u << HX_CLASSICAL; /* d plays classical only, on 3x3 only */
    plays[3].n_boards = 1;
    plays[3].boards[0][0] = plays[3].boards[0][1] = 3;
    assert_int_equal(lg_plan(&c, plays, NULL, NULL), 4 * (3 + 3 + 3 + 6));

    c.mode = lm_parse("gauntlet"); /* b against each other agent */
    snprintf(c.challenger, sizeof c.challenger, "b");
    plays[3] = plays[0];
    n = lg_plan(&c, plays, NULL, p1);
    assert_int_equal(n, 2 * 2 * 4 * 3);
    for (int i = 0; i < n; i++)
        assert_true(strcmp(p1[i].black, "b") == 0 || strcmp(p1[i].white, "b") == 0);
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
             "[league]\nname = soak\nvariants = classical, abrupt\nboards = 3x3, 4x4\ngames = 24\n"
             "concurrency = 2\nseed = 3\nopenings = none\n" /* (d's crash comes at its own moves) */
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
            fprintf(stderr, "round %d: %d bot processes survived their coordinator:\n", round, left);
            sh_run("ps -o pid,ppid,pgid,user,stat,args -e | grep -e '%s' | grep -v grep >&2", tag + 6);
            survivors += left;
            procs_with(tag, true);
        }
        if (rc != 0) { /* else it finished before the kill */
            assert_int_equal(rc, 128 + SIGKILL);
            kills++;
        }
        /* killed after its last game was stored (while stopping its bots): the league is complete, and
         * running the command again would start the next league */
        if (rc != 0 && db_try_scalar(db, "SELECT count(*) FROM leagues") == 1 &&
            db_try_scalar(db, "SELECT count(*) FROM schedule WHERE game_id IS NULL") == 0)
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
    const long planned = 2 * 2 * 24 * 6;
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
    /* every game of the daemon-leaving bot is its crash, every other game is played out */
    long not_crash = db_scalar(db, "SELECT count(*) FROM games g JOIN agents a ON a.id IN (g.black, g.white) "
                                   "WHERE a.name = 'd' AND g.reason <> 'crash'");
    if (not_crash) {
        char cmd[600];
        snprintf(cmd, sizeof cmd, "sqlite3 '%s' \"SELECT g.reason, g.detail FROM games g JOIN agents a ON a.id IN"
                 " (g.black, g.white) WHERE a.name = 'd' AND g.reason <> 'crash'\" >&2", db);
        system(cmd);
    }
    assert_int_equal(not_crash, 0);
    if (db_scalar(db, "SELECT count(*) FROM games WHERE reason <> 'connected'") != planned / 2) {
        char cmd[700]; /* which games of the other bots did not end by a connection, and why */
        snprintf(cmd, sizeof cmd, "sqlite3 '%s' \"SELECT g.id, g.reason, g.detail FROM games g WHERE g.reason <> "
                 "'connected' AND g.id NOT IN (SELECT g2.id FROM games g2 JOIN agents a ON a.id IN (g2.black, "
                 "g2.white) WHERE a.name = 'd')\" >&2", db);
        system(cmd);
    }
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games WHERE reason <> 'connected'"), planned / 2);
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
    for (int i = 0; i < 500 && db_try_scalar(db, "SELECT count(*) FROM schedule") < 300; i++)
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

    /* the bot that eats memory, under a config's memory_mb, with a budget that filling its memory fits in */
    used = snprintf(text, sizeof text,
                    "[league]\nname = eats\nmode = gauntlet\nchallenger = good\nvariants = classical\nboards = 4x4\n"
                    "games = 2\nmove_time_ms = 3000\n[agent good]\ncommand = %s/random\nargs = %s\n"
                    "[agent eat]\ncommand = %s/misbehave\nargs = --mode eat %s\nmemory_mb = 256\n",
                    bin, tag, agents, tag);
    assert_true(used < (int)sizeof text);
    cfg = write_config("eats.ini", text);
    char *const argv2[] = { "arena", "league", (char *)cfg, "--db", db, "--logs", logs, "--quiet", NULL };
    pid = start_arena(argv2);
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games g JOIN schedule x ON x.game_id = g.id JOIN leagues l"
                                   " ON l.id = x.league_id WHERE l.name = 'eats' AND g.reason = 'crash'"
                                   " AND g.detail LIKE '%(limit 256 MiB)%'"),
                     2);
}

/* ---- bot processes across games ---- */

/* How many processes of agent `name` a league `league` started: its log files in `logs` (one per process,
 * league-LEAGUE-NAME-N.log). */
static int processes_of(const char *logs, const char *league, const char *name)
{
    char prefix[128];
    snprintf(prefix, sizeof prefix, "league-%s-%s-", league, name);
    DIR *d = opendir(logs);
    assert_non_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (strncmp(e->d_name, prefix, strlen(prefix)) == 0 && len > 4 && strcmp(e->d_name + len - 4, ".log") == 0 &&
            isdigit((unsigned char)e->d_name[strlen(prefix)]))
            n++;
    }
    closedir(d);
    return n;
}

/* Runs `text` as league NAME (config NAME.ini, database NAME.db, logs NAME-logs/) to completion. */
static void run_league_named(const char *name, const char *text, char *db, char *logs)
{
    char file[64];
    snprintf(file, sizeof file, "%s.ini", name);
    const char *cfg = write_config(file, text);
    snprintf(db, 300, "%s/%s.db", tmp, name);
    snprintf(logs, 300, "%s/%s-logs", tmp, name);
    assert_int_equal(league(cfg, db, logs, 0), 0);
}

/* Five agents at concurrency 2, every pairing in turn: with no forfeit each agent runs at most 2 processes
 * (one per game it can be in at once), whatever the order of the games; an agent with `restart = game`
 * gets one process per game. */
static void processes_live_across_games(void **state)
{
    (void)state;
    char text[4096], tag[64], db[300], logs[300];
    snprintf(tag, sizeof tag, "--tag p%d", (int)getpid());
    int used = snprintf(text, sizeof text, "[league]\nname = pool\nvariants = classical\nboards = 3x3\ngames = 4\n"
                                           "concurrency = 2\n");
    for (int a = 1; a <= 5; a++)
        used += snprintf(text + used, sizeof text - (size_t)used,
                         "[agent r%d]\ncommand = %s/random\nargs = --seed %d %s\nvariants = classical\nboards = 3x3\n%s",
                         a, bin, a, tag, a == 5 ? "restart = game\n" : "");
    assert_true(used < (int)sizeof text);
    run_league_named("pool", text, db, logs);
    assert_int_equal(procs_with(tag, true), 0);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games"), 40);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games WHERE reason <> 'connected'"), 0);
    for (int a = 1; a <= 4; a++) {
        char name[16];
        snprintf(name, sizeof name, "r%d", a);
        int n = processes_of(logs, "pool", name);
        if (n < 1 || n > 2)
            fail_msg("agent %s: %d processes for its 16 games at concurrency 2 (expected 1 or 2)", name, n);
    }
    assert_int_equal(processes_of(logs, "pool", "r5"), 16); /* restart = game: one per game */
}

/* Six agents at concurrency 1 under max_processes = 4: idle processes of other agents are retired to make
 * room (more than one process per agent in all), and every game is still played without a forfeit. */
static void a_full_pool_retires_idle_processes(void **state)
{
    (void)state;
    char text[4096], tag[64], db[300], logs[300];
    snprintf(tag, sizeof tag, "--tag c%d", (int)getpid());
    int used = snprintf(text, sizeof text, "[league]\nname = capped\nvariants = classical\nboards = 3x3\ngames = 2\n"
                                           "max_processes = 4\n");
    for (int a = 1; a <= 6; a++)
        used += snprintf(text + used, sizeof text - (size_t)used,
                         "[agent r%d]\ncommand = %s/random\nargs = --seed %d %s\nvariants = classical\nboards = 3x3\n",
                         a, bin, a, tag);
    assert_true(used < (int)sizeof text);
    run_league_named("capped", text, db, logs);
    assert_int_equal(procs_with(tag, true), 0);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games"), 30);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games WHERE reason <> 'connected'"), 0);
    int total = 0;
    for (int a = 1; a <= 6; a++) {
        char name[16];
        snprintf(name, sizeof name, "r%d", a);
        total += processes_of(logs, "capped", name);
    }
    if (total <= 6)
        fail_msg("%d processes for 6 agents in a pool of 4: none was retired", total);
}

/* A bot that exits in every game forfeits each and gets a new process for each; its opponents keep theirs. */
static void a_forfeit_restarts_only_the_faulty_process(void **state)
{
    (void)state;
    const char *a = getenv("ARENA_TEST_AGENTS");
    char text[4096], tag[64], db[300], logs[300];
    snprintf(tag, sizeof tag, "--tag f%d", (int)getpid());
    snprintf(text, sizeof text,
             "[league]\nname = restarts\nvariants = classical\nboards = 3x3\ngames = 4\nconcurrency = 2\n"
             "[agent r1]\ncommand = %s/random\nargs = --seed 1 %s\nvariants = classical\nboards = 3x3\n"
             "[agent r2]\ncommand = %s/random\nargs = --seed 2 %s\nvariants = classical\nboards = 3x3\n"
             "[agent bad]\ncommand = %s/misbehave\nargs = --mode exit %s\nvariants = classical\nboards = 3x3\n",
             bin, tag, bin, tag, a ? a : "build/release/tests/agents", tag);
    run_league_named("restarts", text, db, logs);
    assert_int_equal(procs_with(tag, true), 0);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games"), 12);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games WHERE reason = 'crash' AND detail LIKE "
                                   "'%exited with status 7%'"), 8);
    assert_int_equal(processes_of(logs, "restarts", "bad"), 8);
    for (int i = 1; i <= 2; i++) {
        char name[16];
        snprintf(name, sizeof name, "r%d", i);
        int n = processes_of(logs, "restarts", name);
        if (n < 1 || n > 2)
            fail_msg("agent %s: %d processes at concurrency 2 although it never forfeited (expected 1 or 2)", name, n);
    }
}

/* ---- players' seeds ---- */

/* Starts `arena league cfg`, waits until `games` games are stored, kills it with SIGKILL and returns how many
 * games were stored by then (the test fails if the league ended first). */
static long league_killed_after(const char *cfg, const char *db, const char *logs, long games)
{
    char *const argv[] = { "arena", "league", (char *)cfg, "--db", (char *)db, "--logs", (char *)logs, "--quiet", NULL };
    pid_t pid = start_arena(argv);
    struct timespec tick = { 0, 2 * 1000 * 1000 };
    int st;
    while (db_try_scalar(db, "SELECT count(*) FROM games") < games) {
        if (waitpid(pid, &st, WNOHANG) == pid)
            fail_msg("the league ended before %ld games were stored", games);
        nanosleep(&tick, NULL);
    }
    kill(pid, SIGKILL);
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
    return db_scalar(db, "SELECT count(*) FROM games");
}

/* The hex of a blob (or any text) the query on db gives, into a static buffer; "" for NULL. */
static const char *db_text(const char *db, const char *sql)
{
    static char text[1024];
    sqlite3 *d;
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_open_v2(db, &d, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    if (sqlite3_prepare_v2(d, sql, -1, &st, NULL) != SQLITE_OK)
        fail_msg("%s: %s", sql, sqlite3_errmsg(d));
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    const unsigned char *t = sqlite3_column_text(st, 0);
    snprintf(text, sizeof text, "%s", t ? (const char *)t : "");
    sqlite3_finalize(st);
    sqlite3_close(d);
    return text;
}

/* The league's secret, read with SQLite directly. */
static void league_secret(const char *db, int64_t league, uint8_t key[SEEDS_KEY_BYTES])
{
    sqlite3 *d;
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_open_v2(db, &d, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(d, "SELECT secret FROM leagues WHERE id = ?", -1, &st, NULL), SQLITE_OK);
    sqlite3_bind_int64(st, 1, league);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_int_equal(sqlite3_column_bytes(st, 0), SEEDS_KEY_BYTES);
    memcpy(key, sqlite3_column_blob(st, 0), SEEDS_KEY_BYTES);
    sqlite3_finalize(st);
    sqlite3_close(d);
}

/* Every game of a league, one line each in schedule order: n, Black, White and the transcript (malloc'd). */
static char *league_transcripts(const char *db, int64_t league)
{
    sqlite3 *d;
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_open_v2(db, &d, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(d,
                                        "SELECT s.n, s.black, s.white, (SELECT group_concat(x, ' ') FROM (SELECT "
                                        "a.player || a.cell || ':' || a.outcome AS x FROM attempts a WHERE "
                                        "a.game_id = g.id ORDER BY a.n)) FROM schedule s JOIN games g ON g.id = "
                                        "s.game_id WHERE s.league_id = ? ORDER BY s.n",
                                        -1, &st, NULL),
                     SQLITE_OK);
    sqlite3_bind_int64(st, 1, league);
    size_t cap = 1 << 16, len = 0;
    char *text = malloc(cap);
    assert_non_null(text);
    text[0] = '\0';
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *moves = (const char *)sqlite3_column_text(st, 3);
        size_t need = strlen(moves ? moves : "") + 200;
        if (len + need >= cap) {
            cap = 2 * (len + need);
            text = realloc(text, cap);
            assert_non_null(text);
        }
        len += (size_t)snprintf(text + len, cap - len, "%d %s-%s: %s\n", sqlite3_column_int(st, 0),
                                (const char *)sqlite3_column_text(st, 1), (const char *)sqlite3_column_text(st, 2),
                                moves ? moves : "");
    }
    sqlite3_finalize(st);
    sqlite3_close(d);
    return text;
}

/* A league killed with SIGKILL midway and resumed: every game_start its recording bot received (in both runs)
 * carries the seed derived from the game's stored seed and colour under the one secret stored with the
 * league, and both runs are stored with that secret. */
static void killed_league_sends_seeds_from_its_stored_secret(void **state)
{
    (void)state;
    const char *a = getenv("ARENA_TEST_AGENTS");
    char text[2048], tag[64], db[300], logs[300], record[340], dir[300];
    snprintf(tag, sizeof tag, "--tag s%d", (int)getpid());
    /* the recording bot writes in its own directory, the one place its sandbox lets it write (its command is
     * then taken from there: make it absolute) */
    char agents_dir[800], cwd[256];
    a = a ? a : "build/release/tests/agents";
    assert_non_null(getcwd(cwd, sizeof cwd));
    snprintf(agents_dir, sizeof agents_dir, "%s%s%.500s", a[0] == '/' ? "" : cwd, a[0] == '/' ? "" : "/", a);
    snprintf(dir, sizeof dir, "%s/rec", tmp);
    assert_int_equal(mkdir(dir, 0777), 0);
    assert_int_equal(chmod(dir, 0777), 0);
    snprintf(text, sizeof text,
             "[league]\nname = seeds\nvariants = classical\nboards = 4x4\ngames = 160\nseed = 5\n"
             "[agent rec]\ncommand = %s/misbehave\nargs = --mode play %s\ndir = %s\nwritable = true\n"
             "env = ARENA_RECORD\n"
             "[agent r]\ncommand = %s/random\nargs = --seed 1 %s\n",
             agents_dir, tag, dir, bin, tag);
    const char *cfg = write_config("seeds.ini", text);
    snprintf(db, sizeof db, "%s/seeds.db", tmp);
    snprintf(logs, sizeof logs, "%s/logs", tmp);
    snprintf(record, sizeof record, "%s/seeds.rec", dir);
    setenv("ARENA_RECORD", record, 1); /* the recording bot appends every message it receives */
    long before = league_killed_after(cfg, db, logs, 40);
    procs_with(tag, true);
    assert_int_equal(league(cfg, db, logs, 0), 0);
    unsetenv("ARENA_RECORD");
    procs_with(tag, true);
    assert_true(before >= 40 && before < 160);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM leagues"), 1);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games"), 160);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM runs"), 2);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM runs r, leagues l WHERE r.secret = l.secret"), 2);
    uint8_t key[SEEDS_KEY_BYTES];
    league_secret(db, 1, key);

    /* the schedule: game id on the wire -> stored game seed */
    static int64_t ids[160];
    static uint64_t game_seeds[160];
    sqlite3 *d;
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_open_v2(db, &d, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(d, "SELECT id, seed FROM schedule ORDER BY n", -1, &st, NULL), SQLITE_OK);
    int n = 0;
    while (sqlite3_step(st) == SQLITE_ROW && n < 160) {
        ids[n] = sqlite3_column_int64(st, 0);
        game_seeds[n++] = (uint64_t)sqlite3_column_int64(st, 1);
    }
    sqlite3_finalize(st);
    sqlite3_close(d);
    assert_int_equal(n, 160);

    FILE *f = fopen(record, "rb");
    assert_non_null(f);
    static uint8_t data[1 << 22];
    size_t len = fread(data, 1, sizeof data, f);
    fclose(f);
    static bool seen[160];
    static pm_msg m;
    char why[256];
    int starts = 0;
    for (size_t off = 0; off + 4 <= len;) {
        size_t k = data[off] | data[off + 1] << 8 | data[off + 2] << 16 | (size_t)data[off + 3] << 24;
        if (off + 4 + k > len)
            break; /* the last record, cut by the kill */
        int rc = pm_decode(data + off + 4, k, &m, why, sizeof why);
        off += 4 + k;
        if (rc != 0 || m.type != PM_GAME_START)
            continue;
        int i = 0;
        while (i < n && ids[i] != (int64_t)m.game)
            i++;
        if (i == n)
            fail_msg("game_start for game %llu, not in the schedule", (unsigned long long)m.game);
        uint64_t want = seeds_player(key, game_seeds[i], m.color);
        if (m.seed != want)
            fail_msg("game %llu (%s): sent seed %llu, expected %llu from the league's secret",
                     (unsigned long long)m.game, m.color == HX_BLACK ? "B" : "W", (unsigned long long)m.seed,
                     (unsigned long long)want);
        seen[i] = true;
        starts++;
    }
    assert_true(starts >= 160);
    for (int i = 0; i < n; i++)
        if (!seen[i])
            fail_msg("no game_start recorded for game %d of the schedule", i);
}

/* A league killed midway and resumed plays exactly the games of the same league played straight through: the
 * resumed run sends the same seeds (deterministic bots, bin/random with --seed, replay every game). The
 * same league is a copy of the finished one's database with its games taken out. */
static void resumed_league_replays_the_same_games(void **state)
{
    (void)state;
    char text[2048], tag[64], db[300], copy[300], logs[300];
    snprintf(tag, sizeof tag, "--tag p%d", (int)getpid());
    snprintf(text, sizeof text,
             "[league]\nname = replay\nvariants = classical\nboards = 5x5\ngames = 200\nconcurrency = 2\n"
             "[agent r1]\ncommand = %s/random\nargs = --seed 1 %s\n"
             "[agent r2]\ncommand = %s/random\nargs = --seed 2 %s\n",
             bin, tag, bin, tag);
    const char *cfg = write_config("replay.ini", text);
    snprintf(db, sizeof db, "%s/straight.db", tmp);
    snprintf(copy, sizeof copy, "%s/resumed.db", tmp);
    snprintf(logs, sizeof logs, "%s/logs", tmp);
    assert_int_equal(league(cfg, db, logs, 0), 0);
    procs_with(tag, true);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games WHERE reason = 'connected'"), 200);
    char *straight = league_transcripts(db, 1);

    /* the same league before its first game: the copy, its games taken out */
    sqlite3 *d;
    char sql[600];
    assert_int_equal(sqlite3_open(db, &d), SQLITE_OK);
    snprintf(sql, sizeof sql, "VACUUM INTO '%s'", copy);
    assert_int_equal(sqlite3_exec(d, sql, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(d);
    assert_int_equal(sqlite3_open(copy, &d), SQLITE_OK);
    assert_int_equal(sqlite3_exec(d, "UPDATE schedule SET game_id = NULL; DELETE FROM attempts; DELETE FROM games;"
                                     " DELETE FROM runs;", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(d);
    assert_int_equal(db_scalar(copy, "PRAGMA user_version"), db_scalar(db, "PRAGMA user_version"));

    long before = league_killed_after(cfg, copy, logs, 60);
    procs_with(tag, true);
    assert_true(before >= 60 && before < 200);
    assert_int_equal(league(cfg, copy, logs, 0), 0);
    procs_with(tag, true);
    assert_int_equal(db_scalar(copy, "SELECT count(*) FROM leagues"), 1);
    assert_int_equal(db_scalar(copy, "SELECT count(*) FROM games WHERE reason = 'connected'"), 200);
    char *resumed = league_transcripts(copy, 1);
    if (strcmp(straight, resumed) != 0) {
        const char *p = straight, *q = resumed;
        while (*p && *p == *q)
            p++, q++;
        while (p > straight && p[-1] != '\n')
            p--, q--;
        fail_msg("the resumed league played other games than the one played straight through:\nstraight: %.200s\n"
                 "resumed:  %.200s", p, q);
    }
    free(straight);
    free(resumed);
}

/* Two leagues of one config, each created with --new, have secrets of their own (16 random bytes each): the
 * same game seeds, other players' seeds, so deterministic bots play other games. No output of arena shows a
 * secret. */
/* NAME.ini: a classical league NAME of bin/random --seed 1 against --seed 2, with `settings` (boards, games,
 * seed lines) and both bots tagged "--tag TAGPREFIX<pid>" (into tag, 64 bytes). Returns the path. */
static const char *two_randoms(const char *name, const char *tag_prefix, const char *settings, char *tag)
{
    char text[2048], file[64];
    snprintf(tag, 64, "--tag %s%d", tag_prefix, (int)getpid());
    snprintf(text, sizeof text,
             "[league]\nname = %s\nvariants = classical\n%s"
             "[agent r1]\ncommand = %s/random\nargs = --seed 1 %s\n"
             "[agent r2]\ncommand = %s/random\nargs = --seed 2 %s\n",
             name, settings, bin, tag, bin, tag);
    snprintf(file, sizeof file, "%s.ini", name);
    return write_config(file, text);
}

static void separate_leagues_get_separate_secrets(void **state)
{
    (void)state;
    char tag[64], db[300], logs[300];
    const char *cfg = two_randoms("twice", "n", "boards = 4x4\ngames = 20\n", tag);
    snprintf(db, sizeof db, "%s/twice.db", tmp);
    snprintf(logs, sizeof logs, "%s/logs", tmp);
    char cmd[2400];
    static char outputs[1 << 20];
    size_t used = 0;
    for (int i = 0; i < 2; i++) {
        snprintf(cmd, sizeof cmd, "'%s/arena' league '%s' --new --db '%s' --logs '%s' --json 2>&1", bin, cfg, db,
                 logs);
        char *out = sh_output(cmd);
        used += (size_t)snprintf(outputs + used, sizeof outputs - used, "%s", out);
        free(out);
    }
    procs_with(tag, true);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM leagues"), 2);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM leagues WHERE length(secret) = 16"), 2);
    assert_int_equal(db_scalar(db, "SELECT count(DISTINCT secret) FROM leagues"), 2);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM runs r JOIN leagues l ON r.description LIKE 'league ' ||"
                                " l.id || ' %' WHERE r.secret = l.secret"), 2);
    /* the same schedule with the same game seeds, and yet other games */
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM schedule a JOIN schedule b ON a.league_id = 1 AND"
                                " b.league_id = 2 AND a.n = b.n AND a.seed = b.seed AND a.black = b.black"), 20);
    char *first = league_transcripts(db, 1), *second = league_transcripts(db, 2);
    assert_true(strlen(first) > 0);
    assert_string_not_equal(first, second);
    free(first);
    free(second);

    /* what arena shows of these leagues holds neither secret, in hex or raw */
    const char *reports[] = { "games --json --limit 0", "games --format csv --limit 0", "show 1",
                              "export --format sgf", "export --format pgn", "ratings --bootstrap 0 --format json" };
    for (size_t r = 0; r < sizeof reports / sizeof reports[0]; r++) {
        snprintf(cmd, sizeof cmd, "'%s/arena' %s --db '%s' 2>&1", bin, reports[r], db);
        char *out = sh_output(cmd);
        used += (size_t)snprintf(outputs + used, sizeof outputs - used, "%s", out);
        free(out);
    }
    assert_true(used < sizeof outputs - 1);
    for (int l = 1; l <= 2; l++) {
        char sql[128], hex[2 * SEEDS_KEY_BYTES + 1], lower[sizeof hex];
        snprintf(sql, sizeof sql, "SELECT hex(secret) FROM leagues WHERE id = %d", l);
        const char *h = db_text(db, sql);
        assert_int_equal(strlen(h), 2 * SEEDS_KEY_BYTES);
        memcpy(hex, h, sizeof hex);
        for (size_t i = 0; i < sizeof hex; i++)
            lower[i] = (char)tolower((unsigned char)hex[i]);
        uint8_t key[SEEDS_KEY_BYTES];
        league_secret(db, l, key);
        assert_null(strstr(outputs, hex));
        assert_null(strstr(outputs, lower));
        assert_null(memmem(outputs, used, key, sizeof key));
    }
}

/* A database from an arena of schema 2 holding an unfinished league (its schedule written, no secret): `arena
 * league --resume` migrates it, gives the league a secret, stores it with the run and plays the league. */
static void schema_2_league_is_resumed(void **state)
{
    (void)state;
    char tag[64], db[300], logs[300];
    const char *cfg = two_randoms("old", "o", "boards = 3x3\ngames = 4\nseed = 2\n", tag);
    FILE *cf = fopen(cfg, "r");
    assert_non_null(cf);
    char *text = read_all(cf); /* the config as stored with the league */
    fclose(cf);
    snprintf(db, sizeof db, "%s/old.db", tmp);
    snprintf(logs, sizeof logs, "%s/logs", tmp);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "sha256sum '%s' | cut -c1-64", cfg);
    char *sha = sh_output(cmd);
    sha[strcspn(sha, "\n")] = '\0';
    assert_int_equal(strlen(sha), 64);

    /* what an arena of schema 2 wrote when it created this league */
    static cfg_league c;
    char err[512];
    assert_int_equal(cfg_load(cfg, &c, err, sizeof err), 0);
    cfg_games plays[2] = { { .variants = (1u << HX_VARIANT_COUNT) - 1 }, { .variants = (1u << HX_VARIANT_COUNT) - 1 } };
    store_planned plan[4];
    assert_int_equal(lg_plan(&c, plays, NULL, plan), 4);
    sqlite3 *d;
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_open(db, &d), SQLITE_OK);
    assert_int_equal(sqlite3_exec(d, SCHEMA_V2, NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(d, "INSERT INTO leagues (id, name, config, config_sha256, seed)"
                                           " VALUES (1, 'old', ?, ?, 2)", -1, &st, NULL), SQLITE_OK);
    sqlite3_bind_text(st, 1, text, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, sha, -1, SQLITE_STATIC);
    assert_int_equal(sqlite3_step(st), SQLITE_DONE);
    sqlite3_finalize(st);
    assert_int_equal(sqlite3_prepare_v2(d, "INSERT INTO schedule (league_id, n, variant, rows, cols, black, white,"
                                           " seed) VALUES (1, ?, 'classical', 3, 3, ?, ?, ?)", -1, &st, NULL),
                     SQLITE_OK);
    for (int i = 0; i < 4; i++) {
        sqlite3_reset(st);
        sqlite3_bind_int(st, 1, plan[i].n);
        sqlite3_bind_text(st, 2, plan[i].black, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 3, plan[i].white, -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 4, (int64_t)plan[i].seed);
        assert_int_equal(sqlite3_step(st), SQLITE_DONE);
    }
    sqlite3_finalize(st);
    sqlite3_close(d);
    free(sha);
    assert_int_equal(db_scalar(db, "PRAGMA user_version"), 2);

    char *const argv[] = { "arena", "league", (char *)cfg, "--resume", "--db", db, "--logs", logs, "--quiet", NULL };
    pid_t pid = start_arena(argv);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    procs_with(tag, true);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    assert_int_equal(db_scalar(db, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM leagues"), 1); /* resumed, not a new one */
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM leagues WHERE length(secret) = 16"), 1);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM schedule WHERE game_id IS NULL"), 0);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games"), 4);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM runs r, leagues l WHERE r.secret = l.secret"), 1);
    free(text);
}

/* Runs `arena league CFG --db DB --logs LOGS --json EXTRA` through the shell; its stdout (malloc'd), stderr into
 * err (malloc'd, when not NULL) and its exit status into *rc. */
static char *league_json(const char *cfg, const char *db, const char *extra, char **err, int *rc)
{
    char cmd[2048], errfile[300];
    snprintf(errfile, sizeof errfile, "%s/league.err", tmp);
    snprintf(cmd, sizeof cmd, "%s/arena league '%s' --db '%s' --logs '%s/logs' --json --quiet %s 2>'%s'", bin, cfg,
             db, tmp, extra, errfile);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    char *out = read_all(p);
    int st = pclose(p);
    *rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
    if (err) {
        FILE *f = fopen(errfile, "r");
        assert_non_null(f);
        *err = read_all(f);
        fclose(f);
    }
    return out;
}

/* Two deterministic bots (each plays the lowest cell it does not know) on classical BOARD. */
static const char *two_deterministic(const char *name, const char *board, int games, const char *settings)
{
    const char *a = getenv("ARENA_TEST_AGENTS");
    char text[2048], file[64];
    snprintf(text, sizeof text,
             "[league]\nname = %s\nvariants = classical\nboards = %s\ngames = %d\nconcurrency = 2\n%s"
             "[agent f1]\ncommand = %s/misbehave\nargs = --mode first\n"
             "[agent f2]\ncommand = %s/misbehave\nargs = --mode first --tag f2\n",
             name, board, games, settings, a ? a : "build/release/tests/agents", a ? a : "build/release/tests/agents");
    snprintf(file, sizeof file, "%s.ini", name);
    return write_config(file, text);
}

/* Without openings two deterministic bots play one game per colour over and over, and the league says so; with
 * the built-in suite every pair starts from its own opening: as many distinct games as the suite allows. */
/* Each attempt a player made is stored with its thinking time (finite, >= 0, under the move budget with its
 * margin); the opening's attempts, which the referee played, with none. `--date` names the league's night: a
 * real calendar date, kept when the league is resumed. */
static void attempts_carry_thinking_times_and_leagues_their_night(void **state)
{
    (void)state;
    char text[2048], db[300];
    snprintf(text, sizeof text,
             "[league]\nname = timed\nvariants = classical, abrupt\nboards = 3x3\ngames = 4\nopenings = random\n"
             "opening_stones = 2\n[agent a]\ncommand = %s/random\nargs = --seed 1\n[agent b]\ncommand = %s/bridge\n",
             bin, bin);
    const char *cfg = write_config("timed.ini", text);
    snprintf(db, sizeof db, "%s/timed.db", tmp);
    assert_int_equal(sh_run("'%s/arena' league '%s' --db '%s' --logs '%s/logs' --quiet --date 2026-02-30 2>/dev/null",
                            bin, cfg, db, tmp),
                     2);
    assert_int_equal(sh_run("'%s/arena' league '%s' --db '%s' --logs '%s/logs' --quiet --date 2026-11-24 >/dev/null",
                            bin, cfg, db, tmp),
                     0);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games"), 8);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games WHERE opening = 2"), 8);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM attempts a JOIN games g ON g.id = a.game_id"
                                   " WHERE a.n <= g.opening AND a.ms IS NOT NULL"),
                     0);
    assert_true(db_scalar(db, "SELECT count(*) FROM attempts a JOIN games g ON g.id = a.game_id WHERE a.n > g.opening") >
                8);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM attempts a JOIN games g ON g.id = a.game_id"
                                   " WHERE a.n > g.opening AND (a.ms IS NULL OR a.ms < 0 OR a.ms > 1500)"),
                     0);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM leagues WHERE night = '2026-11-24'"), 1);
    /* the transcript shows them */
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "'%s/arena' show 1 --db '%s' --json", bin, db);
    char *out = sh_output(cmd);
    if (!strstr(out, "\"n\":1,\"player\":\"B\"") || !strstr(out, "\"ms\":null") || !strstr(out, "\"n\":3,"))
        fail_msg("arena show --json lacks the opening's null ms or the attempts:\n%s", out);
    free(out);
}

static void openings_make_deterministic_bots_play_distinct_games(void **state)
{
    (void)state;
    char db[300], *err;
    int rc;
    snprintf(db, sizeof db, "%s/distinct.db", tmp);
    const char *none = two_deterministic("same", "3x3", 12, "openings = none\n");
    char *out = league_json(none, db, "", &err, &rc);
    assert_int_equal(rc, 0);
    assert_int_equal((long)json_number(out, "played"), 12);
    assert_int_equal((long)json_number(out, "distinct"), 2);
    assert_int_equal((long)json_number(out, "repeating_pairings"), 1);
    free(out);
    free(err);
    /* the text summary warns */
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s/arena league '%s' --db '%s' --logs '%s/logs' --quiet --new 2>&1", bin, none, db, tmp);
    out = sh_output(cmd);
    if (!strstr(out, "warning: classical 3x3 f1 vs f2 repeats games: 2 distinct of 12"))
        fail_msg("no warning about repeated games in:\n%s", out);
    free(out);

    const char *suite = two_deterministic("suite", "3x3", 12, "");
    out = league_json(suite, db, "", &err, &rc);
    assert_int_equal(rc, 0);
    assert_int_equal((long)json_number(out, "distinct"), 12); /* 6 openings x 2 colours */
    assert_int_equal((long)json_number(out, "repeating_pairings"), 0);
    assert_non_null(strstr(out, "\"openings\":\"random, 2 stones\""));
    free(out);
    free(err);
    /* every game starts with its pair's opening: the first two attempts of both games of a pair are the schedule's,
     * both placed */
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM schedule x JOIN games g ON g.id = x.game_id"
                                   " JOIN leagues l ON l.id = x.league_id WHERE l.name = 'suite' AND g.opening = 2"
                                   " AND (SELECT group_concat(cell, ' ') FROM (SELECT cell FROM attempts a"
                                   " WHERE a.game_id = g.id AND a.n <= 2 AND a.outcome = 'placed' ORDER BY a.n))"
                                   " = x.opening"),
                     12);
    /* 2x2 has 12 openings of 2 stones: 20 pairs replay some, said before the league starts */
    const char *small = two_deterministic("small", "2x2", 40, "");
    out = league_json(small, db, "", &err, &rc);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(err, "warning: pairings replay openings: classical 2x2 has 12 openings for 20 game pairs"));
    long distinct = (long)json_number(out, "distinct");
    assert_true(distinct > 2 && distinct <= 24);
    free(out);
    free(err);
}

/* A bot written for protocol 1 (misbehave --protocol 1: it never reads game_start's own/seen) in a league that plays
 * from openings: refused before anything is played, with one line naming it, its version and the fix, exit 2, no
 * league and no game stored; with openings_compat = replay it plays every game without a forfeit, from the same
 * positions (each stored game starts with its scheduled opening). Without the replay it would attempt its own
 * opening stones (illegal) in many of its 24 games. */
static void a_protocol_1_bot_is_refused_or_has_its_openings_replayed(void **state)
{
    (void)state;
    const char *a = getenv("ARENA_TEST_AGENTS");
    char text[2048], db[300], cmd[1500];
    snprintf(db, sizeof db, "%s/v1.db", tmp);
    for (int replay = 0; replay < 2; replay++) {
        snprintf(text, sizeof text,
                 "[league]\nname = v1\nvariants = hex, classical, abrupt-noisy\nboards = 4x4\ngames = 8\n%s"
                 "[agent new]\ncommand = %s/random\n[agent oldbot]\ncommand = %s/misbehave\nargs = --protocol 1\n",
                 replay ? "openings_compat = replay\n" : "", bin, a ? a : "build/release/tests/agents");
        const char *cfg = write_config("v1.ini", text);
        snprintf(cmd, sizeof cmd, "'%s/arena' league '%s' --db '%s' --logs '%s/logs' --quiet 2>&1; echo \"exit $?\"",
                 bin, cfg, db, tmp);
        char *out = sh_output(cmd);
        if (!replay) {
            const char *want = "arena league: agent 'oldbot' speaks protocol 1; this league plays from openings, which "
                               "needs protocol 2: update the bot (docs/protocol.md#changes) or set openings_compat = "
                               "replay\nexit 2\n";
            if (strcmp(out, want) != 0)
                fail_msg("expected the one line and exit 2, got:\n%s", out);
            assert_int_equal(db_scalar(db, "SELECT count(*) FROM games"), 0);
            assert_int_equal(db_scalar(db, "SELECT count(*) FROM leagues"), 0);
        } else {
            if (!strstr(out, "exit 0\n"))
                fail_msg("with openings_compat = replay:\n%s", out);
            assert_int_equal(db_scalar(db, "SELECT count(*) FROM games"), 24);
            assert_int_equal(db_scalar(db, "SELECT count(*) FROM games WHERE reason <> 'connected'"), 0);
            assert_int_equal(db_scalar(db, "SELECT count(*) FROM schedule x JOIN games g ON g.id = x.game_id"
                                           " WHERE g.opening = 2 AND (SELECT group_concat(cell, ' ') FROM (SELECT cell"
                                           " FROM attempts a WHERE a.game_id = g.id AND a.n <= 2 AND a.outcome ="
                                           " 'placed' ORDER BY a.n)) = x.opening"),
                             24);
        }
        free(out);
    }
}

/* A nightly league seeded by its date: two dates, two sets of openings, other games; --seed date takes today's,
 * or the night's given with --date. */
static void nightly_seed_by_date_gives_new_games(void **state)
{
    (void)state;
    char db[300];
    int rc;
    snprintf(db, sizeof db, "%s/nightly.db", tmp);
    const char *cfg = two_deterministic("nightly", "3x3", 8, "seed = date\n");
    char *a = league_json(cfg, db, "--seed 20261122", NULL, &rc);
    assert_int_equal(rc, 0);
    assert_int_equal((long)json_number(a, "seed"), 20261122);
    char *b = league_json(cfg, db, "--seed 20261123", NULL, &rc);
    assert_int_equal(rc, 0);
    long l1 = (long)json_number(a, "league"), l2 = (long)json_number(b, "league");
    assert_true(l1 != l2);
    char sql[1024]; /* distinct transcripts of each league, and of both together */
    const char *fmt = "SELECT count(DISTINCT t) FROM (SELECT x.black || ':' || (SELECT group_concat(cell, ' ') FROM"
                      " (SELECT cell FROM attempts WHERE game_id = x.game_id ORDER BY n)) AS t FROM schedule x WHERE league_id IN (%ld, %ld))";
    snprintf(sql, sizeof sql, fmt, l1, l1);
    assert_int_equal(db_scalar(db, sql), 8); /* 4 openings x 2 colours */
    snprintf(sql, sizeof sql, fmt, l2, l2);
    assert_int_equal(db_scalar(db, sql), 8);
    snprintf(sql, sizeof sql, fmt, l1, l2);
    assert_true(db_scalar(db, sql) >= 14); /* (two suites of 4 of the 72 openings could share one) */
    free(a);
    free(b);
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    long today = (tm.tm_year + 1900) * 10000L + (tm.tm_mon + 1) * 100L + tm.tm_mday;
    char *c = league_json(cfg, db, "", NULL, &rc); /* the config's seed = date */
    assert_int_equal(rc, 0);
    long seed = (long)json_number(c, "seed");
    assert_true(seed == today || seed == today + 1 || seed / 100 == today / 100 + 1); /* (across a midnight) */
    free(c);
    /* a night given with --date (scripts/nightly --date D): seed = date is that night's, whatever today is */
    const char *dates[] = { "--date 2025-03-01", "--date 2025-03-02 --seed date" };
    for (int i = 0; i < 2; i++) {
        c = league_json(cfg, db, dates[i], NULL, &rc);
        assert_int_equal(rc, 0);
        assert_int_equal((long)json_number(c, "seed"), 20250301 + i);
        free(c);
    }
}

/* mode = sprt: the bridge builder against two random bots on classical 4x4, each pairing stops once its test is
 * decided (H1: the bridge builder is stronger), the rest of its games stay unplayed and marked skipped, and the
 * league counts as complete. */
static void sprt_stops_each_pairing_when_decided(void **state)
{
    (void)state;
    char text[2048], db[300];
    snprintf(text, sizeof text,
             "[league]\nname = sprt\nmode = sprt\nchallenger = bridge\nelo0 = 0\nelo1 = 100\nalpha = 0.05\n"
             "beta = 0.05\nvariants = classical\nboards = 4x4\ngames = 400\nconcurrency = 2\n"
             "[agent bridge]\ncommand = %s/bridge\n[agent r1]\ncommand = %s/random\nargs = --seed 1\n"
             "[agent r2]\ncommand = %s/random\nargs = --seed 2\n",
             bin, bin, bin);
    const char *cfg = write_config("sprt.ini", text);
    snprintf(db, sizeof db, "%s/sprt.db", tmp);
    int rc;
    char *out = league_json(cfg, db, "", NULL, &rc);
    assert_int_equal(rc, 0);
    long played = (long)json_number(out, "played"), skipped = (long)json_number(out, "skipped");
    assert_true(played >= 8 && played < 300);
    assert_int_equal(played + skipped, 800);
    assert_int_equal((long)json_number(out, "pending"), 0);
    const char *p = out;
    for (int i = 0; i < 2; i++) {
        p = strstr(p, "\"decision\":");
        assert_non_null(p);
        assert_true(strncmp(p, "\"decision\":\"H1\"", 15) == 0);
        p++;
    }
    assert_non_null(strstr(out, "\"pentanomial\":["));
    /* SDK bots from openings: no attempt at a cell they were told of (bridge: C SDK; random: C SDK) */
    assert_non_null(strstr(out, "\"illegal\":0,"));
    assert_non_null(strstr(out, "\"protocol_error\":0,"));
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM schedule WHERE skipped = 1 AND game_id IS NULL"), skipped);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM schedule WHERE skipped = 1 AND game_id IS NOT NULL"), 0);
    free(out);
    /* decided: nothing left to resume */
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s/arena league '%s' --db '%s' --logs '%s/logs' --quiet --resume 2>&1", bin, cfg, db,
             tmp);
    assert_int_equal(system(cmd) >> 8, 2);
    /* an SPRT without a challenger, or with elo1 not above elo0, is refused before anything is written */
    const char *bad = write_config("bad-sprt.ini", "[league]\nname = b\nmode = sprt\nelo0 = 5\nelo1 = 5\n"
                                                   "challenger = a\nvariants = classical\nboards = 3x3\ngames = 2\n"
                                                   "[agent a]\ncommand = x\n[agent b]\ncommand = y\n");
    static cfg_league c;
    char err[512];
    assert_int_equal(cfg_load(bad, &c, err, sizeof err), -1);
    assert_non_null(strstr(err, "elo1"));
    bad = write_config("bad-sprt2.ini", "[league]\nname = b\nmode = sprt\nvariants = classical\nboards = 3x3\n"
                                        "games = 2\n[agent a]\ncommand = x\n[agent b]\ncommand = y\n");
    assert_int_equal(cfg_load(bad, &c, err, sizeof err), -1);
    assert_non_null(strstr(err, "missing for mode = sprt"));
    bad = write_config("bad-sprt3.ini", "[league]\nname = b\nalpha = 0.7\nvariants = classical\nboards = 3x3\n"
                                        "games = 2\n[agent a]\ncommand = x\n[agent b]\ncommand = y\n");
    assert_int_equal(cfg_load(bad, &c, err, sizeof err), -1);
    assert_non_null(strstr(err, ":3: [league] alpha"));
}

/* mode = knockout, five agents on classical 3x3 (a bracket of eight: three byes): seeds 4 and 5 (two deterministic
 * bots that split every game pair) meet in round 1 and are still tied after the two tie-break pairs, so the higher
 * seed goes through; every later match pairs the winners of the one before in bracket order, and the league ends
 * with one champion after n - 1 matches, each game of them in the schedule once. */
static void knockout_plays_a_bracket_with_byes_and_ties(void **state)
{
    (void)state;
    const char *a = getenv("ARENA_TEST_AGENTS");
    char text[2048], db[300];
    snprintf(text, sizeof text,
             "[league]\nname = cup\nmode = knockout\nvariants = classical\nboards = 3x3\ngames = 2\nconcurrency = 2\n"
             "[agent r1]\ncommand = %s/random\nargs = --seed 1\n[agent r2]\ncommand = %s/random\nargs = --seed 2\n"
             "[agent r3]\ncommand = %s/random\nargs = --seed 3\n"
             "[agent f1]\ncommand = %s/misbehave\nargs = --mode first\n"
             "[agent f2]\ncommand = %s/misbehave\nargs = --mode first --tag f2\n",
             bin, bin, bin, a ? a : "build/release/tests/agents", a ? a : "build/release/tests/agents");
    const char *cfg = write_config("cup.ini", text);
    snprintf(db, sizeof db, "%s/cup.db", tmp);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s/arena league '%s' --db '%s' --logs '%s/logs' --quiet", bin, cfg, db, tmp);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    char *out = read_all(p);
    assert_int_equal(pclose(p), 0);
    const char *r1 = strstr(out, "knockout classical 3x3: champion ");
    assert_non_null(r1);
    assert_non_null(strstr(out, "\n  round 1: r1 (bye); f1 3-3 f2 (2 tie-break pairs, tied: the higher seed goes "
                                "through); r2 (bye); r3 (bye)\n"));
    const char *r2 = strstr(out, "\n  round 2: r1 ");
    assert_non_null(r2);
    char w1[16], w2[16], final[64];
    long x, y;
    assert_int_equal(sscanf(r2, "\n  round 2: r1 %ld-%ld f1", &x, &y), 2);
    snprintf(w1, sizeof w1, "%s", x >= y ? "r1" : "f1"); /* a tie after the tie-breaks: r1, the higher seed */
    const char *m2 = strstr(r2, "; r2 ");
    assert_non_null(m2);
    assert_int_equal(sscanf(m2, "; r2 %ld-%ld r3", &x, &y), 2);
    snprintf(w2, sizeof w2, "%s", x >= y ? "r2" : "r3"); /* a tie after the tie-breaks: r2, the higher seed */
    /* the final: the higher seed (listed earlier in the config) first */
    if (strcmp(w1, "r1") == 0)
        snprintf(final, sizeof final, "\n  round 3: r1 ");
    else
        snprintf(final, sizeof final, "\n  round 3: %s ", w2); /* r2 or r3 is listed before f1 */
    assert_non_null(strstr(out, final));
    assert_non_null(strstr(strstr(out, final), strcmp(w1, "r1") == 0 ? w2 : w1));
    assert_null(strstr(out, "under way"));
    /* n - 1 matches; every game in the schedule once; the champion won the final */
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM schedule WHERE game_id IS NULL"), 0);
    assert_int_equal(db_scalar(db, "SELECT count(DISTINCT min(black, white) || max(black, white)) FROM schedule"), 4);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM schedule WHERE (black = 'f1' AND white = 'f2') OR "
                                   "(black = 'f2' AND white = 'f1')"), 6);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games"), db_scalar(db, "SELECT count(*) FROM schedule"));
    assert_int_equal(db_scalar(db, "SELECT count(DISTINCT n) FROM schedule"), db_scalar(db, "SELECT count(*) FROM schedule"));
    free(out);
}

/* A knockout league killed in the middle of round 1 and again in the final, then resumed, and one stopped between
 * rounds (its next round not yet scheduled), play the same games as the league played straight through. */
static void killed_knockout_resumes_mid_round_and_between_rounds(void **state)
{
    (void)state;
    char text[4096], tag[64], db[300], copy[300], between[300], logs[300];
    snprintf(tag, sizeof tag, "--tag ko%d", (int)getpid());
    snprintf(text, sizeof text,
             "[league]\nname = ko\nmode = knockout\nvariants = classical\nboards = 5x5\ngames = 60\nconcurrency = 2\n"
             "[agent r1]\ncommand = %s/random\nargs = --seed 1 %s\n[agent r2]\ncommand = %s/random\nargs = --seed 2 %s\n"
             "[agent r3]\ncommand = %s/random\nargs = --seed 3 %s\n[agent r4]\ncommand = %s/random\nargs = --seed 4 %s\n",
             bin, tag, bin, tag, bin, tag, bin, tag);
    const char *cfg = write_config("ko.ini", text);
    snprintf(db, sizeof db, "%s/ko-straight.db", tmp);
    snprintf(copy, sizeof copy, "%s/ko-killed.db", tmp);
    snprintf(between, sizeof between, "%s/ko-between.db", tmp);
    snprintf(logs, sizeof logs, "%s/logs", tmp);
    assert_int_equal(league(cfg, db, logs, 0), 0);
    procs_with(tag, true);
    long games = db_scalar(db, "SELECT count(*) FROM games");
    assert_true(games >= 180); /* two semi-finals and the final, 60 games each, and any tie-breaks */
    char *straight = league_transcripts(db, 1);

    sqlite3 *d;
    char sql[800];
    assert_int_equal(sqlite3_open(db, &d), SQLITE_OK);
    snprintf(sql, sizeof sql, "VACUUM INTO '%s'; VACUUM INTO '%s'", copy, between);
    assert_int_equal(sqlite3_exec(d, sql, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(d);
    /* the league before its first game: its first round scheduled, nothing played */
    assert_int_equal(sqlite3_open(copy, &d), SQLITE_OK);
    assert_int_equal(sqlite3_exec(d, "UPDATE schedule SET game_id = NULL; DELETE FROM attempts; DELETE FROM games;"
                                     " DELETE FROM runs; DELETE FROM schedule WHERE n >= 120;", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(d);
    /* the league after the regular games of round 1, before anything after them was scheduled */
    assert_int_equal(sqlite3_open(between, &d), SQLITE_OK);
    assert_int_equal(sqlite3_exec(d, "CREATE TEMP TABLE late AS SELECT game_id FROM schedule WHERE n >= 120;"
                                     "UPDATE schedule SET game_id = NULL WHERE n >= 120;"
                                     "DELETE FROM attempts WHERE game_id IN (SELECT game_id FROM late);"
                                     "DELETE FROM games WHERE id IN (SELECT game_id FROM late);"
                                     "DELETE FROM schedule WHERE n >= 120;", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(d);
    assert_int_equal(db_scalar(between, "SELECT count(*) FROM schedule WHERE game_id IS NULL"), 0);

    long first = league_killed_after(cfg, copy, logs, 30); /* round 1 has 120 games */
    procs_with(tag, true);
    assert_true(first >= 30 && first < 120);
    long second = league_killed_after(cfg, copy, logs, 140); /* the final starts at game 121 (or later) */
    procs_with(tag, true);
    assert_true(second >= 140 && second < games);
    assert_int_equal(league(cfg, copy, logs, 0), 0);
    assert_int_equal(league(cfg, between, logs, 0), 0);
    procs_with(tag, true);
    const char *dbs[] = { copy, between };
    for (int i = 0; i < 2; i++) {
        assert_int_equal(db_scalar(dbs[i], "SELECT count(*) FROM leagues"), 1);
        assert_int_equal(db_scalar(dbs[i], "SELECT count(*) FROM games"), games);
        char *resumed = league_transcripts(dbs[i], 1);
        if (strcmp(straight, resumed) != 0)
            fail_msg("%s: the resumed knockout played other games than the one played straight through", dbs[i]);
        free(resumed);
    }
    free(straight);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(config_errors_name_file_line_and_key),
        cmocka_unit_test(shipped_configs_load),
        cmocka_unit_test(schedule_has_every_pair_in_both_colours),
        cmocka_unit_test(killed_league_resumes_without_loss_or_duplicates),
        cmocka_unit_test(misbehaving_bots_cost_only_their_games),
        cmocka_unit_test(a_second_coordinator_is_refused),
        cmocka_unit_test(processes_live_across_games),
        cmocka_unit_test(a_forfeit_restarts_only_the_faulty_process),
        cmocka_unit_test(a_full_pool_retires_idle_processes),
        cmocka_unit_test(killed_league_sends_seeds_from_its_stored_secret),
        cmocka_unit_test(resumed_league_replays_the_same_games),
        cmocka_unit_test(separate_leagues_get_separate_secrets),
        cmocka_unit_test(schema_2_league_is_resumed),
        cmocka_unit_test(openings_make_deterministic_bots_play_distinct_games),
        cmocka_unit_test(attempts_carry_thinking_times_and_leagues_their_night),
        cmocka_unit_test(nightly_seed_by_date_gives_new_games),
        cmocka_unit_test(a_protocol_1_bot_is_refused_or_has_its_openings_replayed),
        cmocka_unit_test(sprt_stops_each_pairing_when_decided),
        cmocka_unit_test(knockout_plays_a_bracket_with_byes_and_ties),
        cmocka_unit_test(killed_knockout_resumes_mid_round_and_between_rounds),
    };
    return cmocka_run_group_tests(tests, e2e_setup, e2e_teardown);
}
