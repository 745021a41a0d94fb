/* tests/e2e/test_distributed.c — a league beyond one coordinator: `arena league --shard K/N --secret FILE` plays
 * its part of the schedule into its own database, and `arena merge` puts the shards together into a database
 * whose games equal, row for row and attempt for attempt, those of one coordinator playing the whole league
 * with the same secret; merging a shard again changes nothing; a rerun shard plays nothing twice; shards of
 * another config or secret are refused with nothing written; the Slurm scripts on a real Slurm; and agent hosts
 * (`arena host`): serving a league over the loopback, a stranger refused, a host lost mid-league, a late host
 * waited for, its bots' logs through its pipes. */
#define _GNU_SOURCE
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_sys.h"
#include "test_util.h"

static char tmp[64], bin[512];

static int setup(void **state)
{
    (void)state;
    return e2e_dirs(tmp, "arena-distributed-test", bin);
}

static int teardown(void **state)
{
    (void)state;
    return e2e_cleanup(tmp);
}

static const char *path_of(const char *name)
{
    static char paths[8][256];
    static int k;
    char *p = paths[k++ % 8];
    snprintf(p, 256, "%s/%s", tmp, name);
    return p;
}

static void write_config(const char *name, int games)
{
    FILE *f = fopen(path_of(name), "w");
    assert_non_null(f);
    fprintf(f,
            "[league]\nname = sharded\nvariants = classical, abrupt\nboards = 3x3\ngames = %d\nconcurrency = 2\n"
            "[agent random]\ncommand = %s/random\nargs = --seed 1\n[agent r2]\ncommand = %s/random\nargs = --seed 2\n"
            "[agent bridge]\ncommand = %s/bridge\ntime_control = 30+0.5\n",
            games, bin, bin, bin);
    fclose(f);
}

static void write_secret(const char *name, const char *hex)
{
    FILE *f = fopen(path_of(name), "w");
    assert_non_null(f);
    fprintf(f, "%s\n", hex);
    fclose(f);
}

/* Every played game of the database's league by schedule position: variant, board, players, winner, reason,
 * seed, opening, time controls and its attempts, one line each (malloc'd). Ids and times are left out: they differ by nature. */
static char *games_of(const char *db)
{
    sqlite3 *d;
    assert_int_equal(sqlite3_open_v2(db, &d, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    sqlite3_stmt *st;
    assert_int_equal(
        sqlite3_prepare_v2(d,
                           "SELECT x.n || ' ' || g.variant || ' ' || g.rows || 'x' || g.cols || ' ' || b.name || ' ' ||"
                           " b.command || ' ' || w.name || ' ' || g.winner || ' ' || g.reason || ' ' || g.seed || ' ' ||"
                           " g.opening || ' ' || COALESCE(g.black_tc, '-') || ' ' || COALESCE(g.white_tc, '-') || ':' ||"
                           " (SELECT group_concat(t, ' ') FROM (SELECT a.player || a.cell ||"
                           " substr(a.outcome, 1, 1) AS t FROM attempts a WHERE a.game_id = g.id ORDER BY a.n))"
                           " FROM schedule x JOIN games g ON g.id = x.game_id JOIN agents b ON b.id = g.black"
                           " JOIN agents w ON w.id = g.white ORDER BY x.n",
                           -1, &st, NULL),
        SQLITE_OK);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    while (sqlite3_step(st) == SQLITE_ROW)
        fprintf(f, "%s\n", (const char *)sqlite3_column_text(st, 0));
    fclose(f);
    sqlite3_finalize(st);
    sqlite3_close(d);
    return text;
}

static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

static int arena(const char *args)
{
    return sh_run("cd '%s' && '%s/arena' %s >/dev/null 2>'%s/err.txt'", tmp, bin, args, tmp);
}

static char *last_error(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "cat '%s/err.txt'", tmp);
    return sh_output(cmd);
}

static void shards_merged_equal_one_run(void **state)
{
    (void)state;
    write_config("s.ini", 6);
    write_secret("secret", "00112233445566778899aabbccddeeff");
    assert_int_equal(arena("league s.ini --db one.db --secret secret --logs logs --quiet"), 0);
    for (int k = 1; k <= 3; k++) {
        char args[256];
        snprintf(args, sizeof args, "league s.ini --db shard%d.db --secret secret --shard %d/3 --logs logs --quiet", k, k);
        assert_int_equal(arena(args), 0);
    }
    /* each shard played its third: rows k-1, k-1+3, ... */
    assert_int_equal(db_scalar(path_of("shard2.db"), "SELECT count(*) FROM games"), 12);
    assert_int_equal(db_scalar(path_of("shard2.db"), "SELECT count(*) FROM schedule WHERE game_id IS NOT NULL AND"
                                                     " n % 3 <> 1"),
                     0);
    /* a shard run again plays nothing: its part is complete */
    assert_int_equal(arena("league s.ini --db shard2.db --secret secret --shard 2/3 --logs logs --quiet"), 0);
    assert_int_equal(db_scalar(path_of("shard2.db"), "SELECT count(*) FROM games"), 12);
    assert_int_equal(arena("merge merged.db shard1.db shard2.db shard3.db"), 0);
    char *one = games_of(path_of("one.db")), *merged = games_of(path_of("merged.db"));
    assert_int_equal(count_lines(one), 36);
    if (strcmp(one, merged) != 0)
        fail_msg("the merged shards differ from one coordinator's league:\n--- one\n%s--- merged\n%s", one, merged);
    free(merged);
    /* ratings read the merged database as if one coordinator had played it */
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s/arena' ratings --db one.db --bootstrap 100 --format csv", tmp, bin);
    char *r1 = sh_output(cmd);
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s/arena' ratings --db merged.db --bootstrap 100 --format csv", tmp, bin);
    char *r2 = sh_output(cmd);
    assert_string_equal(r1, r2);
    free(r1);
    free(r2);

    /* merging a shard twice changes nothing */
    long runs = db_scalar(path_of("merged.db"), "SELECT count(*) FROM runs");
    long agents = db_scalar(path_of("merged.db"), "SELECT count(*) FROM agents");
    assert_int_equal(arena("merge merged.db shard2.db shard1.db"), 0);
    merged = games_of(path_of("merged.db"));
    assert_string_equal(one, merged);
    free(merged);
    assert_int_equal(db_scalar(path_of("merged.db"), "SELECT count(*) FROM runs"), runs);
    assert_int_equal(db_scalar(path_of("merged.db"), "SELECT count(*) FROM agents"), agents);
    assert_int_equal(db_scalar(path_of("merged.db"), "SELECT count(*) FROM leagues"), 1);
    /* the clocks came with the games: bridge's time control and time left, nobody else's */
    assert_true(db_scalar(path_of("merged.db"), "SELECT count(*) FROM games WHERE '30+0.5' IN (black_tc, white_tc)")
                > 0);
    assert_int_equal(db_scalar(path_of("merged.db"), "SELECT count(*) FROM games WHERE (black_tc IS NULL) <>"
                                                     " (black_clock_ms IS NULL) OR (white_tc IS NULL) <>"
                                                     " (white_clock_ms IS NULL)"), 0);
    assert_int_equal(db_scalar(path_of("merged.db"), "SELECT count(*) FROM attempts"),
                     db_scalar(path_of("one.db"), "SELECT count(*) FROM attempts"));
    free(one);
}

static void foreign_shards_are_refused(void **state)
{
    (void)state;
    write_config("s.ini", 6);
    write_secret("secret", "00112233445566778899aabbccddeeff");
    write_secret("other", "ffeeddccbbaa99887766554433221100");
    assert_int_equal(arena("league s.ini --db a.db --secret secret --shard 1/2 --logs logs --quiet"), 0);
    assert_int_equal(arena("league s.ini --db b.db --secret other --shard 2/2 --logs logs --quiet"), 0);
    assert_int_equal(arena("merge m.db a.db"), 0);
    long games = db_scalar(path_of("m.db"), "SELECT count(*) FROM games");
    assert_int_equal(arena("merge m.db b.db"), 2);
    char *e = last_error();
    if (!strstr(e, "b.db") || !strstr(e, "another secret"))
        fail_msg("a shard of another secret: %s", e);
    free(e);
    assert_int_equal(db_scalar(path_of("m.db"), "SELECT count(*) FROM games"), games);
    /* another config of the same league name and seed */
    write_config("s4.ini", 4);
    assert_int_equal(arena("league s4.ini --db c.db --secret secret --shard 2/2 --logs logs --quiet"), 0);
    assert_int_equal(arena("merge m.db c.db"), 2);
    e = last_error();
    if (!strstr(e, "another config"))
        fail_msg("a shard of another config: %s", e);
    free(e);
    assert_int_equal(db_scalar(path_of("m.db"), "SELECT count(*) FROM games"), games);
    /* bad input */
    assert_int_equal(arena("merge m.db nosuch.db"), 2);
    assert_int_equal(arena("merge m.db m.db"), 2);
    assert_int_equal(arena("league s.ini --db x.db --shard 0/3 --logs logs --quiet"), 2);
    assert_int_equal(arena("league s.ini --db x.db --shard 4/3 --logs logs --quiet"), 2);
    assert_int_equal(arena("league s.ini --db x.db --shard 1/3 --logs logs --quiet"), 2); /* no --secret */
    e = last_error();
    if (!strstr(e, "--shard 1/3 needs --secret FILE"))
        fail_msg("a shard without the league's secret: %s", e);
    free(e);
    assert_int_equal(access(path_of("x.db"), F_OK), -1); /* refused before anything was written */
    write_secret("short", "0011");
    assert_int_equal(arena("league s.ini --db x.db --secret short --logs logs --quiet"), 2);
    e = last_error();
    if (!strstr(e, "--secret") || !strstr(e, "32 hexadecimal digits"))
        fail_msg("a bad secret file: %s", e);
    free(e);
    /* a league resumed with another secret than it was played with */
    assert_int_equal(arena("league s.ini --db a.db --secret other --shard 1/2 --logs logs --quiet"), 2);
}

/* The Slurm scripts against a real Slurm: a private single-node cluster (tests/e2e/slurm_cluster.sh: munged,
 * slurmctld and slurmd with their own key, ports and files), a 4-task job array of scripts/slurm/league.sbatch,
 * and the merge job it submits; the merged database must hold the games one coordinator plays with the same
 * config and secret, and the report must be written. Where no cluster can be started (not root, no Slurm), the
 * test says why and is skipped. */
static void slurm_job_array_equals_one_run(void **state)
{
    (void)state;
    char cluster[128], cmd[2048];
    snprintf(cluster, sizeof cluster, "%s/slurm", tmp);
    snprintf(cmd, sizeof cmd, "tests/e2e/slurm_cluster.sh start '%s' >'%s.conf' 2>'%s.err'", cluster, cluster, cluster);
    int rc = sh_run("%s", cmd);
    if (rc == 77) {
        snprintf(cmd, sizeof cmd, "cat '%s.err'", cluster);
        char *why = sh_output(cmd);
        printf("SKIPPED: no Slurm cluster can be started here: %s", why);
        free(why);
        skip();
    }
    if (rc != 0) {
        snprintf(cmd, sizeof cmd, "cat '%s.err'; tail -n 20 '%s'/*.log", cluster, cluster);
        char *why = sh_output(cmd);
        sh_run("tests/e2e/slurm_cluster.sh stop '%s'", cluster);
        fail_msg("the Slurm cluster did not start:\n%s", why);
    }
    write_config("slurm.ini", 6);
    char conf[200];
    snprintf(conf, sizeof conf, "%s/slurm.conf", cluster);
    /* the array, from the project root as the scripts expect, with the programs under test */
    int sub = sh_run("SLURM_CONF='%s' ARENA_BIN='%s' sbatch --array=1-4 --output='%s/task-%%a.out' "
                     "scripts/slurm/league.sbatch '%s' 4 '%s/out' >'%s/sbatch.out' 2>&1",
                     conf, bin, tmp, path_of("slurm.ini"), tmp, tmp);
    /* wait for the array and the merge job it submits: the report is written last */
    int waited = 0;
    char report[256];
    snprintf(report, sizeof report, "%s/out/report/report.html", tmp);
    while (sub == 0 && waited < 300 && access(report, R_OK) != 0) {
        sleep(1);
        waited++;
    }
    sleep(1);
    snprintf(cmd, sizeof cmd, "cat '%s/sbatch.out' '%s'/task-*.out '%s'/out/merge-*.out 2>/dev/null; "
                              "SLURM_CONF='%s' squeue 2>&1; tail -n 5 '%s/slurmctld.log'",
             tmp, tmp, tmp, conf, cluster);
    char *log = sh_output(cmd);
    sh_run("tests/e2e/slurm_cluster.sh stop '%s'", cluster);
    if (sub != 0 || access(report, R_OK) != 0)
        fail_msg("the Slurm league did not finish within %d s:\n%s", waited, log);
    free(log);
    /* one coordinator, the same config and secret */
    snprintf(cmd, sizeof cmd, "league slurm.ini --db one-slurm.db --secret out/secret --logs logs --quiet");
    assert_int_equal(arena(cmd), 0);
    char merged[256];
    snprintf(merged, sizeof merged, "%s/out/league.db", tmp);
    char *one = games_of(path_of("one-slurm.db")), *got = games_of(merged);
    assert_int_equal(count_lines(one), 36);
    if (strcmp(one, got) != 0)
        fail_msg("the Slurm-sharded league differs from one coordinator's:\n--- one\n%s--- slurm\n%s", one, got);
    free(one);
    free(got);
    assert_int_equal(db_scalar(merged, "SELECT count(*) FROM leagues"), 1);
}

/* ---- agent hosts ---- */

/* The public key in FILE.pub (arena keygen FILE). */
static void public_key(const char *file, char out[41])
{
    char cmd[400];
    snprintf(cmd, sizeof cmd, "head -n 1 '%s/%s.pub'", tmp, file); /* the key alone on its line */
    char *k = sh_output(cmd);
    snprintf(out, 41, "%.40s", k);
    free(k);
    assert_int_equal((int)strlen(out), 40);
}

/* Starts `arena host` in the background with KEYFILE for the agents given, pinning the coordinator's key
 * `server` (or, given as file:PATH, the key in that .pub file); its pid. */
static pid_t start_host(const char *keyfile, const char *server, int port, const char *agents)
{
    char cmd[2048];
    bool file = strncmp(server, "file:", 5) == 0;
    snprintf(cmd, sizeof cmd,
             "cd '%s' && exec '%s/arena' host --connect tcp://127.0.0.1:%d %s '%s' --key %s --logs hostlogs "
             "%s >%s.out 2>&1",
             tmp, bin, port, file ? "--server-key-file" : "--server-key", file ? server + 5 : server, keyfile, agents,
             keyfile);
    return sh_start(cmd);
}

static void stop_host(pid_t pid, int sig)
{
    kill(pid, sig);
    int st;
    waitpid(pid, &st, 0);
}

/* Starts `arena league INI --db DB` in the background (in the test's directory); its pid. */
static pid_t start_league(const char *ini, const char *db)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "cd '%s' && exec '%s/arena' league %s --db %s --logs logs --quiet 2>err.txt", tmp, bin,
             ini, db);
    return sh_start(cmd);
}

static void write_hosted_config(const char *name, int port, const char *host_key, int games, const char *extra)
{
    FILE *f = fopen(path_of(name), "w");
    assert_non_null(f);
    fprintf(f,
            "[league]\nname = hosted\nvariants = classical\nboards = 3x3\ngames = %d\nconcurrency = 2\n"
            "listen = tcp://127.0.0.1:%d\nserver_key = coord.key\n%s"
            "[agent here]\ncommand = %s/random\nargs = --seed 1\n"
            "[agent far1]\nhost = %s\nvariants = classical\nboards = 3x3\n"
            "[agent far2]\nhost_key_file = host.key.pub\nvariants = classical\nboards = 3x3\n",
            games, port, extra, bin, host_key);
    fclose(f);
}

/* A host on the loopback serves two agents of a league: every game is played, none forfeited, and its agents
 * are stored with the host's command lines and program hashes. A second host, whose key the config does not
 * name, is refused and logged, and changes nothing. */
static void a_host_serves_two_agents_and_a_stranger_is_refused(void **state)
{
    (void)state;
    assert_int_equal(arena("keygen coord.key"), 0);
    assert_int_equal(arena("keygen host.key"), 0);
    assert_int_equal(arena("keygen stranger.key"), 0);
    char coord[41], hostk[41];
    public_key("coord.key", coord);
    public_key("host.key", hostk);
    int port = e2e_free_port();
    write_hosted_config("hosted.ini", port, hostk, 6, "host_wait_s = 30\n");
    char agents[1200];
    snprintf(agents, sizeof agents, "far1='%s/random --seed 5' far2='%s/bridge'", bin, bin);
    pid_t stranger = start_host("stranger.key", coord, port, agents);
    pid_t h = start_host("host.key", "file:coord.key.pub", port, agents);
    int rc = arena("league hosted.ini --db hosted.db --logs logs --quiet");
    stop_host(h, SIGTERM);
    stop_host(stranger, SIGTERM);
    if (rc != 0) {
        char *e = last_error();
        fail_msg("the league with a host exited with %d: %s", rc, e);
    }
    const char *db = path_of("hosted.db");
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games"), 18);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games WHERE reason <> 'connected'"), 0);
    char sql[1200];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM agents WHERE name = 'far2' AND command = '%s/bridge'", bin);
    assert_int_equal(db_scalar(db, sql), 1);
    snprintf(sql, sizeof sql, "SELECT count(*) FROM agents WHERE name = 'far1' AND command = '%s/random --seed 5' "
                              "AND length(sha256) = 64", bin);
    assert_int_equal(db_scalar(db, sql), 1);
    /* the stranger: refused by its key, in the connections log */
    char stranger_key[41], cmd[600];
    public_key("stranger.key", stranger_key);
    snprintf(cmd, sizeof cmd, "cat '%s'/logs/league-hosted-connections.log", tmp);
    char *log = sh_output(cmd);
    if (!strstr(log, "unknown client key") || !strstr(log, stranger_key))
        fail_msg("the stranger host is not in the connections log as refused:\n%s", log);
    if (strstr(log, hostk))
        fail_msg("the config's host was refused:\n%s", log);
    free(log);
    /* what the host said while it served: the coordinator answering, each bot started and each bot's exit */
    snprintf(cmd, sizeof cmd, "cat '%s'/host.key.out", tmp);
    char *said = sh_output(cmd);
    if (!strstr(said, "] connected to tcp://127.0.0.1:") || !strstr(said, "] started far1: pid ") ||
        !strstr(said, "] started far2: pid ") || !strstr(said, ") exited: "))
        fail_msg("the host did not say what it did:\n%s", said);
    free(said);
}

/* A host killed in the middle of a league costs the games in flight (forfeited: its agents' `disconnected`,
 * "host ... lost") and, with host_wait_s = 0, the games of its agents after it (forfeited at once: "host ...
 * not connected"); the league completes, its other games played. */
static void a_lost_host_costs_only_its_games(void **state)
{
    (void)state;
    char coord[41], hostk[41];
    public_key("coord.key", coord);
    public_key("host.key", hostk);
    int port = e2e_free_port();
    /* long moves, so that a game in flight outlives the 3 s after which a silent host is lost */
    write_hosted_config("lost.ini", port, hostk, 40, "move_time_ms = 20000\n");
    char agents[1200];
    snprintf(agents, sizeof agents, "far1='%s/random --seed 5' far2='%s/misbehave --mode hang'", bin,
             getenv("ARENA_TEST_AGENTS") ? getenv("ARENA_TEST_AGENTS") : "build/release/tests/agents");
    if (agents[0] && strstr(agents, "far2='build/")) { /* the test agents from the project root */
        char cwd[300];
        assert_non_null(getcwd(cwd, sizeof cwd));
        snprintf(agents, sizeof agents, "far1='%s/random --seed 5' far2='%s/build/release/tests/agents/misbehave "
                                        "--mode hang'", bin, cwd);
    }
    pid_t h = start_host("host.key", coord, port, agents);
    pid_t league = start_league("lost.ini", "lost.db");
    /* far2 hangs in its first game with far1 or here; the host dies meanwhile */
    sleep(4);
    stop_host(h, SIGKILL);
    int st;
    assert_int_equal(waitpid(league, &st, 0), league);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        char *e = last_error();
        fail_msg("the league did not complete after its host was lost (status %d): %s", st, e);
    }
    const char *db = path_of("lost.db");
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games"), 120); /* every game has its result */
    assert_true(db_scalar(db, "SELECT count(*) FROM games WHERE reason = 'disconnected' AND detail LIKE 'host % lost%'") >=
                1);
    assert_true(db_scalar(db, "SELECT count(*) FROM games WHERE reason = 'disconnected' AND detail LIKE "
                              "'host % not connected%'") >= 1);
    /* the games between the agents here and... there: only games with an agent of the host are forfeited */
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games g JOIN agents b ON b.id = g.black JOIN agents w"
                                   " ON w.id = g.white WHERE g.reason = 'disconnected' AND b.name <> 'far1' AND"
                                   " b.name <> 'far2' AND w.name <> 'far1' AND w.name <> 'far2'"),
                     0);
}

/* With host_wait_s, games of the host's agents wait for it: a league started before its host connects plays
 * every game once the host is there, none forfeited. */
static void games_wait_for_a_late_host(void **state)
{
    (void)state;
    char coord[41], hostk[41];
    public_key("coord.key", coord);
    public_key("host.key", hostk);
    int port = e2e_free_port();
    write_hosted_config("late.ini", port, hostk, 4, "host_wait_s = 60\n");
    pid_t league = start_league("late.ini", "late.db");
    sleep(2); /* the league is waiting for its host */
    char agents[1200];
    snprintf(agents, sizeof agents, "far1='%s/random --seed 5' far2='%s/bridge'", bin, bin);
    pid_t h = start_host("host.key", coord, port, agents);
    int st;
    assert_int_equal(waitpid(league, &st, 0), league);
    stop_host(h, SIGTERM);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    const char *db = path_of("late.db");
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games"), 12);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games WHERE reason <> 'connected'"), 0);
}

/* The bots a host starts write their logs through its pipes, as the coordinator's do (botlog.h): a bot's stdout
 * and stderr lines reach hostlogs/NAME-N.log in order, and a bot that truncates, rewinds or reopens its log
 * gets nowhere. */
static void a_hosts_bots_log_through_it(void **state)
{
    (void)state;
    char coord[41], hostk[41];
    public_key("coord.key", coord);
    public_key("host.key", hostk);
    int port = e2e_free_port();
    write_hosted_config("logged.ini", port, hostk, 2, "host_wait_s = 30\n");
    const char *a = getenv("ARENA_TEST_AGENTS");
    char cwd[300], dir[700], agents[1600], cmd[800];
    assert_non_null(getcwd(cwd, sizeof cwd));
    a = a ? a : "build/release/tests/agents";
    snprintf(dir, sizeof dir, "%s%s%s", a[0] == '/' ? "" : cwd, a[0] == '/' ? "" : "/", a);
    snprintf(agents, sizeof agents, "far1='%s/misbehave --mode chatter' far2='%s/misbehave --mode truncate'", dir,
             dir);
    assert_int_equal(sh_run("rm -rf '%s/hostlogs'", tmp), 0);
    pid_t h = start_host("host.key", coord, port, agents);
    int rc = arena("league logged.ini --db logged.db --logs logs --quiet");
    stop_host(h, SIGTERM);
    if (rc != 0) {
        char *e = last_error();
        fail_msg("the league with a host exited with %d: %s", rc, e);
    }
    assert_int_equal(db_scalar(path_of("logged.db"), "SELECT count(*) FROM games WHERE reason <> 'connected'"), 0);
    snprintf(cmd, sizeof cmd, "cat '%s'/hostlogs/far1-*.log", tmp);
    char *log = sh_output(cmd);
    int next = 1, lines = 0; /* (one log per process of far1, each counting from 1) */
    for (char *line = log; *line; line = strchr(line, '\n') + 1) {
        char *nl = strchr(line, '\n'), want[32];
        if (!nl)
            fail_msg("an unfinished last line in far1's log: %s", line);
        snprintf(want, sizeof want, "chatter %d", next);
        if (strncmp(line, "chatter 1\n", 10) == 0)
            next = 2, lines++;
        else if (strncmp(line, want, strlen(want)) == 0 && line[strlen(want)] == '\n')
            next++, lines++;
        else if (strncmp(line, "[arena ", 7) != 0)
            fail_msg("'%.*s' where '%s' or an arena line was due", (int)(nl - line), line, want);
    }
    if (lines < 4) /* far1 played 4 games, at least one attempt in each */
        fail_msg("%d chatter lines in far1's logs:\n%s", lines, log);
    free(log);
    snprintf(cmd, sizeof cmd, "cat '%s'/hostlogs/far2-*.log", tmp);
    log = sh_output(cmd);
    if (!strstr(log, "TRUNCATE ftruncate(1): blocked") || strstr(log, "SUCCEEDED"))
        fail_msg("far2 erased its log through the host:\n%s", log);
    free(log);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(shards_merged_equal_one_run),
        cmocka_unit_test(foreign_shards_are_refused),
        cmocka_unit_test(slurm_job_array_equals_one_run),
        cmocka_unit_test(a_host_serves_two_agents_and_a_stranger_is_refused),
        cmocka_unit_test(a_lost_host_costs_only_its_games),
        cmocka_unit_test(games_wait_for_a_late_host),
        cmocka_unit_test(a_hosts_bots_log_through_it),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
