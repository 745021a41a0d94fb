/* tests/e2e/test_siege.c — hostile bots, round two (tests/agents/siege.c): each attack of a bot that plays legal moves
 * while it attacks what the machine may give it or what the clock may tell it, in a real `arena league` or `arena
 * match`, costs the attacker its own games at most and leaves every other game played:
 *
 *   connection_flood_costs_only_the_flooder         thousands of raw connections to its endpoint under ulimit -n 1024:
 *                                                   every planned game stored, the flooder's forfeited
 *                                                   (protocol_error, "opened more than 64 connections"), exit 0
 *   link_planted_in_the_hello_query_is_a_forfeit    a link planted by the process the league starts only to ask what
 *                                                   the bot plays: the league completes, and so does a new one with
 *                                                   the link in place; the bot's games are forfeited with the refusal
 *   every_writable_mount_is_bounded                 1 GiB written into /run, /dev, /, its working directory (a match
 *                                                   bot without one) and /dev/shm: the first four are read-only, /dev/shm
 *                                                   and /tmp take tmp_mb (64 MiB) and no more
 *   sockets_other_than_the_transport_are_refused    vsock, netlink, packet, inet, alg, ... without the network (only
 *                                                   unix sockets are its transport); with it, inet and inet6 too, and
 *                                                   vsock still refused
 *
 * THESE TESTS NEED THE SANDBOX (bwrap) AND CGROUPS, as test_limits. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test_sys.h"

E2E_FIXTURE(tmp, "arena-siege-test")

static char agents[1024]; /* absolute directory of the test bots */

static void setup_paths(void)
{
    const char *a = getenv("ARENA_TEST_AGENTS");
    char cwd[512];
    if (!a)
        a = "build/release/tests/agents";
    if (a[0] == '/' || !getcwd(cwd, sizeof cwd))
        snprintf(agents, sizeof agents, "%s", a);
    else
        snprintf(agents, sizeof agents, "%s/%s", cwd, a);
}

static void spit(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* A fresh directory of the test's: its path into out. */
static void fresh_dir(const char *name, char *out, size_t n)
{
    snprintf(out, n, "%s/%s", tmp, name);
    assert_int_equal(sh_run("rm -rf '%s' && mkdir -p '%s' && chmod 0755 '%s'", out, out, out), 0);
}

/* Runs `arena league CFG` in dir (database dir/DB, logs dir/logs) with `prefix` before it in the shell (e.g. a ulimit);
 * returns its exit status, its standard error in err. */
static int run_league(const char *dir, const char *prefix, const char *cfg, const char *db, char *err, size_t n)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s %s/arena league %s --db %s/%s --logs %s/logs --quiet 2>&1 >/dev/null", prefix, bin, cfg,
             dir, db, dir);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t k = fread(err, 1, n - 1, p);
    err[k] = '\0';
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static char *logs_of(const char *dir, const char *pattern)
{
    char cmd[700];
    snprintf(cmd, sizeof cmd, "cat %s/logs/%s 2>/dev/null; true", dir, pattern);
    return sh_output(cmd);
}

/* Games of league DB that agent NAME lost with `reason` and a detail LIKE `like`. */
static long lost_with(const char *db, const char *name, const char *reason, const char *like)
{
    char sql[1024];
    snprintf(sql, sizeof sql,
             "SELECT count(*) FROM games g JOIN agents a ON a.id = CASE g.winner WHEN 'B' THEN g.white ELSE g.black END"
             " WHERE a.name = '%s' AND g.reason = '%s' AND g.detail LIKE '%s'", name, reason, like);
    return db_scalar(db, sql);
}

static long games_of(const char *db, const char *name)
{
    char sql[512];
    snprintf(sql, sizeof sql,
             "SELECT count(*) FROM games g JOIN agents a ON a.id IN (g.black, g.white) WHERE a.name = '%s'", name);
    return db_scalar(db, sql);
}

/* ---- connections ---- */

static void connection_flood_costs_only_the_flooder(void **state)
{
    (void)state;
    char dir[300], cfg[400], db[500], err[8192];
    fresh_dir("flood", dir, sizeof dir);
    static char text[4096];
    snprintf(text, sizeof text,
             "[league]\nname = flood\nvariants = classical\nboards = 4x4\ngames = 12\nconcurrency = 2\n"
             "handshake_ms = 5000\n"
             "[agent flooder]\ncommand = %s/siege\nargs = --mode=connflood\nvariants = classical\nboards = 4x4\n"
             "[agent a]\ncommand = %s/random\nargs = --seed 1\nvariants = classical\nboards = 4x4\n"
             "[agent b]\ncommand = %s/random\nargs = --seed 2\nvariants = classical\nboards = 4x4\n", agents, bin, bin);
    snprintf(cfg, sizeof cfg, "%s/flood.ini", dir);
    spit(cfg, text);
    int status = run_league(dir, "ulimit -n 1024;", cfg, "flood.db", err, sizeof err);
    char *logs = logs_of(dir, "*flooder*.log");
    if (!strstr(logs, "SIEGE connflood:"))
        fail_msg("the flooder never flooded (the test proves nothing):\n%.2000s", logs);
    free(logs);
    if (status != 0)
        fail_msg("arena league exited with %d under a connection flood: %s", status, err);
    snprintf(db, sizeof db, "%s/flood.db", dir);
    long planned = db_scalar(db, "SELECT count(*) FROM schedule");
    assert_true(planned == 36);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games"), planned);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM schedule WHERE game_id IS NULL"), 0);
    long flooder = games_of(db, "flooder");
    assert_int_equal(flooder, 24);
    assert_int_equal(lost_with(db, "flooder", "protocol_error", "opened more than 64 connections%"), flooder);
    /* the games without the flooder were played out */
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games WHERE reason = 'connected'"), planned - flooder);
}

/* ---- links ---- */

static void link_planted_in_the_hello_query_is_a_forfeit(void **state)
{
    (void)state;
    char dir[300], home[400], victim[400], path[600], cfg[400], db[500], err[8192];
    fresh_dir("hellolink", dir, sizeof dir);
    snprintf(home, sizeof home, "%s/home", dir);
    snprintf(victim, sizeof victim, "%s/victim", dir);
    assert_int_equal(sh_run("mkdir -p %s/sub/inner %s && chmod -R 0777 %s && chmod 0755 %s", home, victim, home,
                            victim), 0);
    snprintf(path, sizeof path, "%s/secret.txt", victim);
    spit(path, "HELLOLINK_VICTIM_SECRET\n");
    static char text[4096];
    /* no variants or boards: the league starts the bot once to ask (its hello), and that process plants the link */
    snprintf(text, sizeof text,
             "[league]\nname = hellolink\nvariants = classical\nboards = 3x3\ngames = 6\nhandshake_ms = 5000\n"
             "[agent planter]\ncommand = %s/siege\nargs = --mode=hellolink --swap=sub/inner --target=%s\n"
             "dir = %s\nwritable = true\nread = ./sub/inner\n"
             "[agent random]\ncommand = %s/random\nvariants = classical\nboards = 3x3\n", agents, victim, home, bin);
    snprintf(cfg, sizeof cfg, "%s/league.ini", dir);
    spit(cfg, text);
    for (int run = 0; run < 2; run++) { /* the second league meets the link at the question already */
        char name[32];
        snprintf(name, sizeof name, "run%d.db", run);
        int status = run_league(dir, "", cfg, name, err, sizeof err);
        char *logs = logs_of(dir, "*.log");
        if (run == 0 && !strstr(logs, "SIEGE hellolink: planted sub/inner -> "))
            fail_msg("the bot did not plant its link (the test proves nothing):\n%.3000s", logs);
        if (strstr(logs, "HELLOLINK_VICTIM_SECRET"))
            fail_msg("the bot read the other directory through its link");
        free(logs);
        if (status != 0)
            fail_msg("run %d: arena league exited with %d: %s", run + 1, status, err);
        snprintf(db, sizeof db, "%s/%s", dir, name);
        assert_int_equal(db_scalar(db, "SELECT count(*) FROM games"), 6);
        assert_int_equal(db_scalar(db, "SELECT count(*) FROM schedule WHERE game_id IS NULL"), 0);
        assert_int_equal(lost_with(db, "planter", "crash", "%sub/inner is a symbolic link%"), 6);
    }
}

/* ---- mounts and sockets ---- */

/* Runs one game of `arena match` (classical 3x3) of `siege ARGS` against random with `options`, from the directory
 * `cwd` (NULL: the test's), and returns the siege bot's log (malloc'd). */
static char *one_game(const char *name, const char *args, const char *options, const char *cwd)
{
    char dir[300];
    fresh_dir(name, dir, sizeof dir);
    int st = sh_run("cd %s && %s/arena match --variant classical --board 3x3 --games 1 --quiet --move-time 20000 "
                    "--db %s/m.db --logs %s/logs %s '%s/siege %s' '%s/random' >/dev/null 2>&1",
                    cwd ? cwd : dir, bin, dir, dir, options, agents, args, bin);
    assert_int_equal(st, 0);
    assert_int_equal(db_scalar(strcat(dir, "/m.db"), "SELECT count(*) FROM games WHERE reason = 'connected'"), 1);
    dir[strlen(dir) - 5] = '\0';
    return logs_of(dir, "*siege*.log");
}

/* The one line of `log` that starts with `prefix`, into out; fails when there is none. */
static void line_of(const char *log, const char *prefix, char *out, size_t n)
{
    const char *at = strstr(log, prefix);
    if (!at)
        fail_msg("no line '%s...' in the bot's log:\n%.2000s", prefix, log);
    snprintf(out, n, "%.*s", (int)strcspn(at, "\n"), at);
}

static void every_writable_mount_is_bounded(void **state)
{
    (void)state;
    static const struct {
        const char *path;
        const char *expect; /* the end of its line */
    } mounts[] = {
        { "/run", ": 0 MiB: Read-only file system" },      { "/dev", ": 0 MiB: Read-only file system" },
        { "/", ": 0 MiB: Read-only file system" },         { ".", ": 0 MiB: Read-only file system" },
        { "/dev/shm", ": 64 MiB: No space left on device" }, { "/tmp", ": 64 MiB: No space left on device" },
    };
    for (size_t i = 0; i < sizeof mounts / sizeof mounts[0]; i++) {
        char args[200], prefix[100], line[300];
        snprintf(args, sizeof args, "--mode=fill --path=%s --mb=1024", mounts[i].path);
        /* a match's bot has no dir: "." is the coordinator's working directory, shown empty (run from bin/, not from
         * below /tmp, whose tmpfs it would be in) */
        char *log = one_game("mounts", args, "", strcmp(mounts[i].path, ".") == 0 ? bin : NULL);
        snprintf(prefix, sizeof prefix, "SIEGE fill %s:", mounts[i].path);
        line_of(log, prefix, line, sizeof line);
        free(log);
        if (!strstr(line, mounts[i].expect))
            fail_msg("%s: '%s', expected '...%s'", mounts[i].path, line, mounts[i].expect);
    }
}

static void sockets_other_than_the_transport_are_refused(void **state)
{
    (void)state;
    static const char *const families[] = { "vsock", "netlink", "packet", "inet", "inet6", "alg", "bluetooth", "can",
                                            "tipc", "xdp", "vsock-pair" };
    for (int network = 0; network < 2; network++) {
        char *log = one_game("sockets", "--mode=sockets", network ? "--network" : "", NULL);
        for (size_t i = 0; i < sizeof families / sizeof families[0]; i++) {
            char prefix[100], line[300];
            snprintf(prefix, sizeof prefix, "SIEGE sockets %s:", families[i]);
            line_of(log, prefix, line, sizeof line);
            bool open_to_it = network && (strcmp(families[i], "inet") == 0 || strcmp(families[i], "inet6") == 0 ||
                                          strcmp(families[i], "netlink") == 0);
            if (open_to_it ? !strstr(line, "SUCCEEDED") : !strstr(line, "blocked Address family not supported"))
                fail_msg("%s the network: '%s'", network ? "with" : "without", line);
        }
        free(log);
    }
}

int main(void)
{
    setup_paths();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(connection_flood_costs_only_the_flooder),
        cmocka_unit_test(link_planted_in_the_hello_query_is_a_forfeit),
        cmocka_unit_test(every_writable_mount_is_bounded),
        cmocka_unit_test(sockets_other_than_the_transport_are_refused),
    };
    return cmocka_run_group_tests(tests, e2e_setup, e2e_teardown);
}
