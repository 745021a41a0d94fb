/* tests/e2e/test_siege.c — hostile bots, round two (tests/agents/siege.c): each attack of a bot that plays legal moves
 * while it attacks what the machine may give it or what the clock may tell it, in a real `arena league` or `arena
 * match`, costs the attacker its own games at most and leaves every other game played:
 *
 *   connection_flood_costs_only_the_flooder         thousands of raw connections to its endpoint under ulimit -n 1024:
 *                                                   every planned game stored, the flooder wins none (nearly all
 *                                                   forfeited: protocol_error, "opened more than 64 connections";
 *                                                   a game can end by a connection before the flood), exit 0
 *   link_planted_in_the_hello_query_is_a_forfeit    a link planted by the process the league starts only to ask what
 *                                                   the bot plays: the league completes, and so does a new one with
 *                                                   the link in place; the bot's games are forfeited with the refusal
 *   every_writable_mount_is_bounded                 1 GiB written into /run, /dev, /, its working directory (a match
 *                                                   bot without one) and /dev/shm: the first four are read-only, /dev/shm
 *                                                   and /tmp take tmp_mb (64 MiB) and no more
 *   sockets_other_than_the_transport_are_refused    vsock, netlink, packet, inet, alg, ... without the network (only
 *                                                   unix sockets are its transport); with it, inet and inet6 too, and
 *                                                   vsock still refused
 *   writable_directory_is_bounded                   2 GiB written into its writable directory, and 200,000 files:
 *                                                   stopped at disk_mb (512 MiB) and files (10,000) by default, the
 *                                                   bound named in the forfeit; the next start of a bot whose directory
 *                                                   is past its bound is refused (its games forfeited) until cleared;
 *                                                   with writable = run the bot writes in a copy made for the run and
 *                                                   removed after it, and the next run starts from the lab's directory
 *   the_wait_tells_nothing_with_fair_timing        a bot that times every wait for its turn, against a fast bot and
 *                                                   one thinking 20 ms a move, in classical: from the wait alone,
 *                                                   whether the opponent's attempts met one of its hidden stones is
 *                                                   guessed no better than by always guessing the commoner case (within
 *                                                   3 points) with fair timing on; off, the thinking opponent's are
 *                                                   told from the wait far better (the analysis can fail)
 *   per_user_limits_are_its_own                     a bot takes every inotify instance it can and grows 63 pipes to
 *                                                   1 MiB: another bot's sandbox and a process of the host's nobody
 *                                                   still get an inotify instance and a 64 KiB pipe (root only: a uid
 *                                                   of its own per sandbox)
 *
 * THESE TESTS NEED THE SANDBOX (bwrap) AND CGROUPS, as test_limits. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "game.h"
#include "seeds.h"
#include "test_sys.h"

E2E_FIXTURE(tmp, "arena-siege-test")

static char agents[1024]; /* absolute directory of the test bots */

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
    /* it wins none of its games: each is forfeited (nearly all for the connections; on a busy machine a game can end
     * first another way: its handshake or its clock) or, when the opponent connects before the flood reaches the
     * bound (a random game of 4x4 can end within 30 ms), lost; it waits 600 ms after starting the flood before its
     * first stone, so it cannot connect first */
    long bounded = lost_with(db, "flooder", "protocol_error", "opened more than 64 connections%");
    char sql[512];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM games g JOIN agents a ON a.id = CASE g.winner WHEN 'B' THEN g.white "
             "ELSE g.black END WHERE a.name = 'flooder'");
    long lost = db_scalar(db, sql);
    snprintf(sql, sizeof sql, "SELECT count(*) FROM games g JOIN agents a ON a.id = CASE g.winner WHEN 'B' THEN g.white "
             "ELSE g.black END WHERE a.name = 'flooder' AND g.reason <> 'connected'");
    long forfeited = db_scalar(db, sql);
    printf("# the flooder lost %ld of its %ld games, forfeited %ld, %ld of them for opening more than 64 connections\n",
           lost, flooder, forfeited, bounded);
    if (lost != flooder) { /* the games it did not lose, for the failure below */
        char cmd[1024];
        snprintf(cmd, sizeof cmd, "sqlite3 '%s' \"SELECT g.id, g.winner, g.reason, g.detail, b.name, w.name FROM games g "
                 "JOIN agents b ON b.id = g.black JOIN agents w ON w.id = g.white WHERE 'flooder' IN (b.name, w.name) "
                 "AND CASE g.winner WHEN 'B' THEN w.name ELSE b.name END <> 'flooder'\"", db);
        sh_run("%s >&2", cmd);
    }
    assert_int_equal(lost, flooder);
    assert_true(bounded >= flooder - 4);
    /* the games without the flooder were played out */
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games g JOIN agents b ON b.id = g.black JOIN agents w ON w.id = "
                     "g.white WHERE b.name <> 'flooder' AND w.name <> 'flooder' AND g.reason = 'connected'"), planned - flooder);
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
        if (status != 0) {
            free(logs);
            fail_msg("run %d: arena league exited with %d: %s", run + 1, status, err);
        }
        static char shown[3000];
        snprintf(shown, sizeof shown, "%s", logs);
        bool planted = strstr(logs, "SIEGE hellolink: planted sub/inner -> ") != NULL;
        bool read = strstr(logs, "HELLOLINK_VICTIM_SECRET") != NULL;
        free(logs);
        if (run == 0 && !planted)
            fail_msg("the bot did not plant its link (the test proves nothing):\n%s", shown);
        if (read)
            fail_msg("the bot read the other directory through its link");
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
        /* from a tree below /tmp (a clone there) "." is inside the sandbox's /tmp: bounded as /tmp is */
        const char *expect = strcmp(mounts[i].path, ".") == 0 && strncmp(bin, "/tmp/", 5) == 0
                                 ? ": 64 MiB: No space left on device" : mounts[i].expect;
        if (!strstr(line, expect))
            fail_msg("%s: '%s', expected '...%s'", mounts[i].path, line, expect);
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

/* ---- what a bot may keep, and the kernel's per-user limits ---- */

/* A league of one siege bot (ARGS, in its own writable directory, with `extra` lines) against random, classical 3x3,
 * `games` games, a long budget per move; returns its exit status, the database's path in db. */
static int writable_league_as(const char *name, const char *writable, const char *args, const char *extra, int games,
                              char *dir, size_t dirlen, char *db, size_t dblen);

static int writable_league(const char *name, const char *args, const char *extra, int games, char *dir, size_t dirlen,
                           char *db, size_t dblen)
{
    return writable_league_as(name, "true", args, extra, games, dir, dirlen, db, dblen);
}

static int writable_league_as(const char *name, const char *writable, const char *args, const char *extra, int games,
                              char *dir, size_t dirlen, char *db, size_t dblen)
{
    char home[400], cfg[400], err[8192];
    fresh_dir(name, dir, dirlen);
    snprintf(home, sizeof home, "%s/home", dir);
    assert_int_equal(sh_run("mkdir -p %s && chmod 0777 %s", home, home), 0);
    static char text[4096];
    snprintf(text, sizeof text,
             "[league]\nname = %s\nvariants = classical\nboards = 3x3\ngames = %d\nhandshake_ms = 10000\n"
             "move_time_ms = 30000\n"
             "[agent writer]\ncommand = %s/siege\nargs = %s\ndir = %s\nwritable = %s\nvariants = classical\n"
             "boards = 3x3\n%s"
             "[agent random]\ncommand = %s/random\nvariants = classical\nboards = 3x3\n",
             name, games, agents, args, home, writable, extra, bin);
    snprintf(cfg, sizeof cfg, "%s/league.ini", dir);
    spit(cfg, text);
    int status = run_league(dir, "", cfg, "l.db", err, sizeof err);
    if (status != 0)
        printf("# arena league: %s\n", err);
    snprintf(db, dblen, "%s/l.db", dir);
    return status;
}

/* Bytes and entries below dir (du's apparent blocks: what the disk holds). */
static void usage_of(const char *dir, long long *mib, long long *entries)
{
    char out[256], cmd[600];
    snprintf(cmd, sizeof cmd, "du -sk %s | cut -f1; find %s -mindepth 1 | wc -l", dir, dir);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    long long kb = -1;
    assert_int_equal(fscanf(p, "%lld %lld", &kb, entries), 2);
    pclose(p);
    (void)out;
    *mib = kb / 1024;
}

static void writable_directory_is_bounded(void **state)
{
    (void)state;
    char dir[300], db[400], home[400];
    long long mib, entries;
    /* 2 GiB in files of 64 MiB: the watcher stops it (one file would meet RLIMIT_FSIZE at 512 MiB first) */
    assert_int_equal(writable_league("disk", "--mode=diskfill --mb=2048", "", 4, dir, sizeof dir, db, sizeof db), 0);
    char *logs = logs_of(dir, "*writer*.log");
    if (!strstr(logs, "SIEGE diskfill") && !strstr(logs, "disk limit"))
        fail_msg("the writer never wrote (the test proves nothing):\n%.2000s", logs);
    free(logs);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games"), 4);
    assert_true(lost_with(db, "writer", "crash", "disk limit 512 MiB reached (its directory holds %") >= 1);
    /* what it left is past its bound: its next starts are refused, and its games forfeited, until it is cleared */
    assert_int_equal(lost_with(db, "writer", "crash", "disk limit 512 MiB reached%") +
                         lost_with(db, "writer", "crash", "%more than its disk_mb of 512 MiB: clear it%"), 4);
    snprintf(home, sizeof home, "%s/home", dir);
    usage_of(home, &mib, &entries);
    printf("# 2 GiB asked: %lld MiB written before the bound stopped it\n", mib);
    assert_true(mib >= 512 && mib < 1536);

    /* 200,000 files: stopped at 10,000 */
    assert_int_equal(writable_league("files", "--mode=manyfiles --count=200000", "", 2, dir, sizeof dir, db, sizeof db), 0);
    assert_true(lost_with(db, "writer", "crash", "files limit 10000 reached%") >= 1);
    snprintf(home, sizeof home, "%s/home", dir);
    usage_of(home, &mib, &entries);
    printf("# 200,000 files asked: %lld made before the bound stopped it\n", entries);
    assert_true(entries > 10000 && entries < 100000);

    /* within its bound a bot keeps what it writes from one process to the next, whichever uid each process has */
    assert_int_equal(writable_league("keep", "--mode=diskfill --mb=40", "disk_mb = 100\nrestart = game\n", 4, dir,
                                     sizeof dir, db, sizeof db), 0);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games WHERE reason = 'connected'"), 4);
    snprintf(home, sizeof home, "%s/home", dir);
    usage_of(home, &mib, &entries);
    assert_true(mib >= 40);

    /* writable = run: a copy of its directory for the run, gone after it; the lab's directory is as it was, and the
     * bot past its bound in one run starts the next one clean */
    for (int run = 0; run < 2; run++) {
        if (run == 0) {
            assert_int_equal(writable_league_as("clear", "run", "--mode=diskfill --mb=2048", "", 2, dir, sizeof dir, db,
                                                sizeof db), 0);
        } else { /* the same league again, over the same directory */
            char cfg[400], err[4096];
            snprintf(cfg, sizeof cfg, "%s/league.ini", dir);
            assert_int_equal(run_league(dir, "", cfg, "again.db", err, sizeof err), 0);
            snprintf(db, sizeof db, "%s/again.db", dir);
        }
        assert_int_equal(lost_with(db, "writer", "crash", "disk limit 512 MiB reached%"), 1);
        assert_int_equal(lost_with(db, "writer", "crash", "%more than its disk_mb of 512 MiB: clear it%"), 1);
        snprintf(home, sizeof home, "%s/home", dir);
        usage_of(home, &mib, &entries);
        assert_int_equal(entries, 0);
    }
    char leftover[4096];
    sh_capture(leftover, sizeof leftover, "ls -d /tmp/arena-run-* 2>/dev/null; true");
    if (leftover[0])
        fail_msg("copies left after their runs: %s", leftover);
}

static void per_user_limits_are_its_own(void **state)
{
    (void)state;
    if (geteuid() != 0) {
        printf("# not root: every sandbox runs as this user (uids.h); nothing to test\n");
        return;
    }
    char dir[300], cfg[400], db[400], cmd[2048];
    fresh_dir("peruser", dir, sizeof dir);
    static char text[4096];
    snprintf(text, sizeof text,
             "[league]\nname = peruser\nvariants = classical\nboards = 4x4\ngames = 20\nconcurrency = 2\n"
             "handshake_ms = 5000\nmove_time_ms = 3000\n"
             "[agent inotify]\ncommand = %s/siege\nargs = --mode=inotify --sleep-ms=40\nvariants = classical\n"
             "boards = 4x4\n"
             "[agent pipes]\ncommand = %s/siege\nargs = --mode=pipes --sleep-ms=40\nvariants = classical\nboards = 4x4\n"
             "[agent victim]\ncommand = %s/siege\nargs = --mode=victim\nvariants = classical\nboards = 4x4\n",
             agents, agents, agents);
    snprintf(cfg, sizeof cfg, "%s/league.ini", dir);
    spit(cfg, text);
    snprintf(cmd, sizeof cmd, "%s/arena league %s --db %s/l.db --logs %s/logs --quiet >/dev/null 2>&1", bin, cfg, dir,
             dir);
    pid_t league = sh_start(cmd);
    /* once both hogs hold what they took, a process of the host's nobody asks for the same */
    char *logs = NULL;
    for (int i = 0; i < 3000; i++) {
        free(logs);
        logs = logs_of(dir, "*.log");
        if (strstr(logs, "SIEGE inotify: took") && strstr(logs, "SIEGE pipes:"))
            break;
        struct timespec ts = { 0, 10 * 1000 * 1000 };
        nanosleep(&ts, NULL);
    }
    if (!strstr(logs, "SIEGE inotify: took") || !strstr(logs, "SIEGE pipes: 63 grown"))
        fail_msg("the hogs did not take what they meant to (the test proves nothing):\n%.3000s", logs);
    free(logs);
    char probe[512];
    int st = sh_capture(probe, sizeof probe, "setpriv --reuid=65534 --regid=65534 --clear-groups %s/siege --mode=victim "
                        "--probe", agents);
    int status;
    assert_int_equal(waitpid(league, &status, 0), league);
    assert_int_equal(st, 0);
    if (!strstr(probe, "SIEGE victim: inotify ok, pipe 65536 bytes"))
        fail_msg("the host's nobody was starved by a sandbox: %s", probe);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    snprintf(db, sizeof db, "%s/l.db", dir);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games"), 60);
    logs = logs_of(dir, "*victim*.log");
    int seen = 0;
    for (const char *p = logs; (p = strstr(p, "SIEGE victim: ")); p++, seen++)
        if (strncmp(p, "SIEGE victim: inotify ok, pipe 65536 bytes", 42) != 0)
            fail_msg("another sandbox starved the victim: %.*s", (int)strcspn(p, "\n"), p);
    free(logs);
    assert_true(seen >= 40);
}

/* ---- fair timing ---- */

typedef struct {
    double ms;   /* the wait, or (for the clock) how much the opponent's clock fell over its turn */
    bool hidden; /* the opponent's attempts between this wait's two attempts met one of the spy's stones */
} wait_sample;

/* The opponent's clock the spy was told at its turn after its attempt K of the game of SEED ("OPP SEED K MS"); -1 when
 * not told. */
typedef struct {
    unsigned long long seed;
    int k;
    double ms;
} told_clock;

static double told(const told_clock *c, int n, unsigned long long seed, int k)
{
    for (int i = 0; i < n; i++)
        if (c[i].seed == seed && c[i].k == k)
            return c[i].ms;
    return -1;
}

/* The spy's waits in the logs of dir (its "WAIT SEED K MS" lines), each labelled from the stored game: the wait after
 * its K-th attempt of the game whose player seed is SEED, when that attempt passed the turn (an attempt of its own that
 * was rejected it is told of at once), is `hidden` when the opponent made more than one attempt before its next.
 * Returns how many, into out (up to max); into clocks (*n_clocks of them), the same turns' fall of the opponent's
 * clock as the spy was told it (its "OPP" lines at its turns before and after), where it was told both. */
static int spy_samples(const char *db, const char *dir, wait_sample *out, int max, wait_sample *clocks, int *n_clocks)
{
    static told_clock opp[16384];
    int n_opp = 0;
    char cmd0[600];
    snprintf(cmd0, sizeof cmd0, "grep -h '^OPP ' %s/logs/*siege*.log; true", dir);
    FILE *q = popen(cmd0, "r");
    assert_non_null(q);
    while (n_opp < 16384 && fscanf(q, "OPP %llu %d %lf\n", &opp[n_opp].seed, &opp[n_opp].k, &opp[n_opp].ms) == 3)
        n_opp++;
    pclose(q);
    *n_clocks = 0;
    sqlite3 *d;
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_open_v2(db, &d, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    uint8_t key[SEEDS_KEY_BYTES];
    assert_int_equal(sqlite3_prepare_v2(d, "SELECT secret FROM runs ORDER BY id DESC LIMIT 1", -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_int_equal(sqlite3_column_bytes(st, 0), SEEDS_KEY_BYTES);
    memcpy(key, sqlite3_column_blob(st, 0), SEEDS_KEY_BYTES);
    sqlite3_finalize(st);
    /* every game: its two player seeds, and its attempts after the opening as "BR" pairs (player, rejected) */
    enum { MAX_GAMES = 2000 };
    static struct {
        uint64_t seed[2];
        char moves[2 * HX_MAX_ATTEMPTS + 1];
    } games[MAX_GAMES];
    int n_games = 0;
    assert_int_equal(sqlite3_prepare_v2(d,
                                        "SELECT g.seed, (SELECT group_concat(a.player || CASE a.outcome WHEN 'rejected' "
                                        "THEN 'r' ELSE 'p' END, '') FROM (SELECT * FROM attempts WHERE game_id = g.id "
                                        "AND n > g.opening ORDER BY n) a) FROM games g",
                                        -1, &st, NULL),
                     SQLITE_OK);
    while (sqlite3_step(st) == SQLITE_ROW && n_games < MAX_GAMES) {
        uint64_t seed = (uint64_t)sqlite3_column_int64(st, 0);
        const unsigned char *m = sqlite3_column_text(st, 1);
        games[n_games].seed[0] = seeds_player(key, seed, HX_BLACK);
        games[n_games].seed[1] = seeds_player(key, seed, HX_WHITE);
        snprintf(games[n_games].moves, sizeof games[n_games].moves, "%s", m ? (const char *)m : "");
        n_games++;
    }
    sqlite3_finalize(st);
    sqlite3_close(d);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "grep -h '^WAIT ' %s/logs/*siege*.log", dir);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    int n = 0;
    unsigned long long seed;
    int k;
    double ms;
    while (n < max && fscanf(p, "WAIT %llu %d %lf\n", &seed, &k, &ms) == 3) {
        int g = 0, colour = 0;
        while (g < n_games && games[g].seed[0] != seed && games[g].seed[1] != seed)
            g++;
        if (g == n_games)
            continue;
        colour = games[g].seed[0] == seed ? HX_BLACK : HX_WHITE;
        char me = colour == HX_BLACK ? 'B' : 'W';
        const char *m = games[g].moves;
        int len = (int)strlen(m) / 2, seen = 0, i = 0;
        for (; i < len; i++)
            if (m[2 * i] == me && ++seen == k)
                break;
        if (i == len || m[2 * i + 1] == 'r')
            continue; /* its own attempt was rejected: it is told so at once */
        int theirs = 0, j = i + 1;
        for (; j < len && m[2 * j] != me; j++)
            theirs++;
        if (j == len)
            continue;
        double before = told(opp, n_opp, seed, k - 1), after = told(opp, n_opp, seed, k);
        if (before >= 0 && after >= 0 && *n_clocks < max)
            clocks[(*n_clocks)++] = (wait_sample){ before - after, theirs > 1 };
        out[n++] = (wait_sample){ ms, theirs > 1 };
    }
    pclose(p);
    return n;
}

static int by_ms(const void *a, const void *b)
{
    double x = ((const wait_sample *)a)->ms, y = ((const wait_sample *)b)->ms;
    return x < y ? -1 : x > y;
}

/* The best rule "hidden when the wait is above (or below) T" on train, or the constant guess of train's commoner case:
 * its accuracy on test. */
static double rule_accuracy(wait_sample *train, int n_train, const wait_sample *test, int n_test)
{
    qsort(train, (size_t)n_train, sizeof *train, by_ms);
    int hidden = 0;
    for (int i = 0; i < n_train; i++)
        hidden += train[i].hidden;
    /* candidate thresholds: between consecutive distinct waits; correct counts for "hidden iff above T" */
    double best_t = -1e300;
    int best_dir = 0, best_ok = hidden > n_train - hidden ? hidden : n_train - hidden, below_hidden = 0;
    bool constant_hidden = hidden > n_train - hidden;
    for (int i = 0; i < n_train; i++) {
        below_hidden += train[i].hidden;
        if (i + 1 < n_train && train[i + 1].ms == train[i].ms)
            continue;
        int below = i + 1, above_hidden = hidden - below_hidden;
        int ok_up = (below - below_hidden) + above_hidden; /* below: not hidden; above: hidden */
        int ok_down = below_hidden + (n_train - below - above_hidden);
        double t = i + 1 < n_train ? (train[i].ms + train[i + 1].ms) / 2 : train[i].ms;
        if (ok_up > best_ok)
            best_ok = ok_up, best_t = t, best_dir = 1;
        if (ok_down > best_ok)
            best_ok = ok_down, best_t = t, best_dir = -1;
    }
    int ok = 0;
    for (int i = 0; i < n_test; i++) {
        bool guess = best_dir == 0 ? constant_hidden : best_dir > 0 ? test[i].ms > best_t : test[i].ms <= best_t;
        ok += guess == test[i].hidden;
    }
    return (double)ok / n_test;
}

/* How much better than always guessing the commoner case the best rule on the wait guesses, out of sample (fitted on
 * one half, scored on the other, both ways); the commoner case's rate into *base. */
static double wait_gain(wait_sample *w, int n, double *base)
{
    static wait_sample a[8192], b[8192];
    int na = 0, nb = 0, hidden = 0;
    for (int i = 0; i < n; i++) {
        hidden += w[i].hidden;
        if (i % 2)
            a[na++] = w[i];
        else
            b[nb++] = w[i];
    }
    double acc = (rule_accuracy(a, na, b, nb) * nb + rule_accuracy(b, nb, a, na) * na) / n;
    *base = hidden > n - hidden ? (double)hidden / n : (double)(n - hidden) / n;
    return acc - *base;
}

/* A match of `games` games of classical 5x5 between the spy and `opponent` with fair timing `fair` (and `options`):
 * the gain of the best guess from the wait over the commoner case; with a game clock, that from the fall of the
 * opponent's clock as told into *clock_gain. */
static double spy_match(const char *name, const char *opponent, int games, const char *fair, const char *options,
                        double *clock_gain)
{
    char dir[300], db[400];
    fresh_dir(name, dir, sizeof dir);
    assert_int_equal(sh_run("%s/arena match --variant classical --board 5x5 --games %d --concurrency 4 --fair-timing %s "
                            "%s --quiet --db %s/m.db --logs %s/logs '%s/siege --mode=spy' '%s' >/dev/null 2>&1",
                            bin, games, fair, options, dir, dir, agents, opponent), 0);
    snprintf(db, sizeof db, "%s/m.db", dir);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games WHERE reason = 'connected'"), games);
    static wait_sample w[8192], c[8192];
    int n_clocks, n = spy_samples(db, dir, w, 8192, c, &n_clocks);
    double base, gain = wait_gain(w, n, &base);
    int hidden = 0;
    for (int i = 0; i < n; i++)
        hidden += w[i].hidden;
    printf("# fair timing %s against %s: %d waits, %d after a hidden rejection; the commoner case %.1f%%, the best guess "
           "from the wait %+.1f points\n", fair, opponent, n, hidden, 100 * base, 100 * gain);
    assert_true(n >= games * 5 && hidden >= n / 10);
    if (clock_gain) {
        assert_true(n_clocks >= n / 2);
        *clock_gain = wait_gain(c, n_clocks, &base);
        printf("#   and from the fall of the opponent's clock as told (%d turns): %+.1f points\n", n_clocks,
               100 * *clock_gain);
    }
    return gain;
}

static void the_wait_tells_nothing_with_fair_timing(void **state)
{
    (void)state;
    char fast[1200], slow[1200];
    snprintf(fast, sizeof fast, "%s/random --seed 5", bin);
    snprintf(slow, sizeof slow, "%s/siege --mode=play --sleep-ms=20 --seed 5", agents); /* random play, 20 ms a move */
    /* with a game clock (sudden death, no increment), whose opponent's part the spy is told at each turn */
    double off_clock, on_clock;
    double off = spy_match("spy-off", slow, 40, "off", "--time-control 300", &off_clock);
    if (off < 0.10 || off_clock < 0.10)
        fail_msg("without fair timing the wait tells only %+.1f points, the clock %+.1f: the analysis sees nothing",
                 100 * off, 100 * off_clock);
    double on = spy_match("spy-fast", fast, 160, "on", "", NULL);
    double on_slow = spy_match("spy-slow", slow, 120, "on", "--time-control 300", &on_clock);
    if (on > 0.03 || on_slow > 0.03 || on_clock > 0.03)
        fail_msg("with fair timing the wait still tells %+.1f points against a fast bot, %+.1f against a thinking one, "
                 "its clock %+.1f", 100 * on, 100 * on_slow, 100 * on_clock);
}

int main(void)
{
    e2e_agents_dir(agents, sizeof agents);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(connection_flood_costs_only_the_flooder),
        cmocka_unit_test(link_planted_in_the_hello_query_is_a_forfeit),
        cmocka_unit_test(every_writable_mount_is_bounded),
        cmocka_unit_test(sockets_other_than_the_transport_are_refused),
        cmocka_unit_test(writable_directory_is_bounded),
        cmocka_unit_test(the_wait_tells_nothing_with_fair_timing),
        cmocka_unit_test(per_user_limits_are_its_own),
    };
    return cmocka_run_group_tests(tests, e2e_setup, e2e_teardown);
}
