/* tests/test_sys.h — helpers of the end-to-end tests: shell commands (status, output, both), a free port, one
 * number from an SQLite query, the processes whose command line holds a tag (counted, or killed with their process
 * groups), and checks of JSON output (strict parsing, one number). */
#ifndef TESTS_TEST_SYS_H
#define TESTS_TEST_SYS_H

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <unistd.h>

#include "test_util.h"

/* The same query on a database that a running coordinator may not have finished creating: -1 when the
 * file, its schema or the answer is not there yet (or the lock is held for more than a second). */
static inline long db_try_scalar(const char *db, const char *sql)
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

/* Runs sql on the database db (read-write), failing the test on an error. */
static inline void db_exec(const char *db, const char *sql)
{
    sqlite3 *d;
    char *err = NULL;
    assert_int_equal(sqlite3_open_v2(db, &d, SQLITE_OPEN_READWRITE, NULL), SQLITE_OK);
    sqlite3_busy_timeout(d, 30000);
    if (sqlite3_exec(d, sql, NULL, NULL, &err) != SQLITE_OK)
        fail_msg("%s: %s", sql, err ? err : sqlite3_errmsg(d));
    sqlite3_close(d);
}

static inline long db_scalar(const char *db, const char *sql)
{
    sqlite3 *d;
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_open_v2(db, &d, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    /* A coordinator may be writing (a test that watches a running league): wait for its lock rather than
     * fail on the first SQLITE_BUSY, as any reader of a live database must. */
    sqlite3_busy_timeout(d, 30000);
    if (sqlite3_prepare_v2(d, sql, -1, &st, NULL) != SQLITE_OK)
        fail_msg("%s: %s", sql, sqlite3_errmsg(d));
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    long v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(d);
    return v;
}

/* The command line of process `pid` (a /proc entry's name) into buf, its arguments separated by spaces; false when
 * it cannot be read (the process is gone). */
static inline bool proc_cmdline(const char *pid, char *buf, size_t size)
{
    char path[300];
    snprintf(path, sizeof path, "/proc/%s/cmdline", pid);
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    size_t len = fread(buf, 1, size - 1, f);
    fclose(f);
    for (size_t i = 0; i < len; i++)
        buf[i] = buf[i] ? buf[i] : ' ';
    buf[len] = '\0';
    return true;
}

/* Processes whose command line contains `tag` (a bot's sandbox, bwrap and arena-init, not counted: their
 * command lines hold the bot's); with kill_them, each is sent SIGKILL with its group. */
static inline int procs_with(const char *tag, bool kill_them)
{
    DIR *d = opendir("/proc");
    assert_non_null(d);
    struct dirent *e;
    int n = 0;
    while ((e = readdir(d))) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        char buf[4096];
        if (!proc_cmdline(e->d_name, buf, sizeof buf) || !strstr(buf, tag))
            continue;
        size_t first = strcspn(buf, " ");
        bool wrapper = (first >= 6 && strncmp(buf + first - 6, "/bwrap", 6) == 0) ||
                       (first >= 11 && strncmp(buf + first - 11, "/arena-init", 11) == 0);
        n += !wrapper;
        if (kill_them) {
            kill(-atoi(e->d_name), SIGKILL);
            kill(atoi(e->d_name), SIGKILL);
        }
    }
    closedir(d);
    return n;
}

/* Runs a shell command; returns its exit status. */
static inline int sh_run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline int sh_run(const char *fmt, ...)
{
    char cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/* Runs the shell command that fmt and ap make; its stdout (up to cap - 1 bytes) into out. Returns its exit status,
 * or 128 + the signal that ended it. */
static inline int sh_vcapture(char *out, size_t cap, const char *fmt, va_list ap)
{
    char cmd[4096];
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, cap - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Runs a shell command; returns its exit status (as sh_vcapture()) and its stdout in out. */
static inline int sh_capture(char *out, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static inline int sh_capture(char *out, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = sh_vcapture(out, cap, fmt, ap);
    va_end(ap);
    return rc;
}

/* The absolute directory of the test bots (ARENA_TEST_AGENTS, default build/release/tests/agents) into out. */
static inline void e2e_agents_dir(char *out, size_t n)
{
    const char *a = getenv("ARENA_TEST_AGENTS");
    char cwd[512];
    if (!a)
        a = "build/release/tests/agents";
    if (a[0] == '/' || !getcwd(cwd, sizeof cwd))
        snprintf(out, n, "%s", a);
    else
        snprintf(out, n, "%s/%s", cwd, a);
}

/* Everything left to read of a stream (malloc'd, NUL-terminated). */
static inline char *read_all(FILE *p)
{
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    assert_non_null(buf);
    size_t k;
    while ((k = fread(buf + n, 1, cap - n - 1, p)) > 0) {
        n += k;
        if (cap - n < 4096) {
            cap *= 2;
            buf = realloc(buf, cap);
            assert_non_null(buf);
        }
    }
    buf[n] = '\0';
    return buf;
}

/* The whole output of a shell command (malloc'd). */
static inline char *sh_output(const char *cmd)
{
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    char *buf = read_all(p);
    assert_int_equal(pclose(p), 0);
    return buf;
}

/* A TCP port free on the loopback now (the kernel's pick), for a coordinator to listen on. */
static inline int e2e_free_port(void)
{
    char *p = sh_output("python3 -c 'import socket; s=socket.socket(); s.bind((\"127.0.0.1\", 0)); "
                        "print(s.getsockname()[1])'");
    int port = atoi(p);
    free(p);
    assert_true(port > 0);
    return port;
}

/* Setup of the end-to-end suites: a fresh directory "/tmp/PREFIX-XXXXXX" into tmp (64 bytes) and the
 * absolute directory of the programs under test (ARENA_BIN_DIR, default bin) into bin (512 bytes).
 * Returns 0, or -1 (cmocka's setup failure). e2e_cleanup() removes the directory. */
static inline int e2e_dirs(char *tmp, const char *prefix, char *bin)
{
    snprintf(tmp, 64, "/tmp/%s-XXXXXX", prefix);
    /* 0755: a bot's sandbox user (a uid of its own when the tests run as root) must reach the files a test shows it */
    if (!mkdtemp(tmp) || chmod(tmp, 0755) != 0)
        return -1;
    const char *b = getenv("ARENA_BIN_DIR");
    b = b ? b : "bin";
    char cwd[256];
    if (b[0] == '/')
        snprintf(bin, 512, "%s", b);
    else if (getcwd(cwd, sizeof cwd))
        snprintf(bin, 512, "%s/%s", cwd, b);
    else
        return -1;
    return 0;
}

static inline int e2e_cleanup(const char *tmp) { return sh_run("rm -rf '%s'", tmp) == 0 ? 0 : -1; }

/* 40 games of 2x2 classical from the empty board (a sure win for Black) between bin/policy-bot with `policy_args` (e.g.
 * "--policy FILE", "--policy-dir DIR") and bin/random (seed 4), both in their sandboxes, stored in DIR/m.db
 * with logs in DIR/logs. Fails on a forfeit or if policy-bot did not play 20 games as Black; returns how
 * many of those it won. */
static inline long policy_bot_args_black_wins_2x2(const char *bin, const char *dir, const char *policy_args)
{
    assert_int_equal(sh_run("rm -f %s/m.db %s/m.db-wal %s/m.db-shm", dir, dir, dir), 0);
    assert_int_equal(sh_run("%s/arena match --variant classical --board 2x2 --games 40 --openings none --quiet --db %s/m.db "
                            "--logs %s/logs '%s/policy-bot %s' '%s/random --seed 4' >/dev/null",
                            bin, dir, dir, bin, policy_args, bin), 0);
    char db[600];
    snprintf(db, sizeof db, "%s/m.db", dir);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games WHERE reason <> 'connected'"), 0);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games g JOIN agents a ON a.id = g.black "
                                   "WHERE a.name = 'policy-bot'"), 20);
    return db_scalar(db, "SELECT count(*) FROM games g JOIN agents a ON a.id = g.black "
                         "WHERE a.name = 'policy-bot' AND winner = 'B'");
}

static inline long policy_bot_black_wins_2x2(const char *bin, const char *dir, const char *policy)
{
    char args[700];
    snprintf(args, sizeof args, "--policy %s", policy);
    return policy_bot_args_black_wins_2x2(bin, dir, args);
}

/* The usual end-to-end group fixture: `static char DIR[64], bin[512];` and cmocka group setup and teardown
 * functions e2e_setup / e2e_teardown that create DIR (named after PREFIX) and remove it afterwards. */
#define E2E_FIXTURE(DIR, PREFIX)                                                                          \
    static char DIR[64], bin[512];                                                                        \
    static int e2e_setup(void **state)                                                                    \
    {                                                                                                     \
        (void)state;                                                                                      \
        return e2e_dirs(DIR, PREFIX, bin);                                                                \
    }                                                                                                     \
    static int e2e_teardown(void **state)                                                                 \
    {                                                                                                     \
        (void)state;                                                                                      \
        return e2e_cleanup(DIR);                                                                          \
    }

/* Starts `/bin/sh -c cmd` in the background. Returns its pid. */
static inline pid_t sh_start(const char *cmd)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    return pid;
}

/* Starts `arena` (argv[0] is ignored; the program is ARENA_BIN_DIR/arena) with stdout and stderr to
 * /dev/null. Returns its pid. */
static inline pid_t start_arena(char *const argv[])
{
    const char *dir = getenv("ARENA_BIN_DIR");
    char arena[600];
    snprintf(arena, sizeof arena, "%s/arena", dir ? dir : "bin");
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
            _exit(126);
        execv(arena, argv);
        _exit(127);
    }
    return pid;
}

/* Fails unless `json` is one JSON document for a strict parser (Python's json module, with NaN and Infinity
 * refused); `what` names it in the failure. */
static inline void strict_json(const char *what, const char *json)
{
    FILE *p = popen("python3 -c 'import json,sys; json.load(sys.stdin, parse_constant=lambda c: sys.exit(c))'", "w");
    assert_non_null(p);
    fputs(json, p);
    int st = pclose(p);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        fail_msg("%s: not strict JSON:\n%s", what, json);
}

/* The number after "key": in a JSON text (the test fails when the key is missing). */
static inline double json_number(const char *json, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = strstr(json, pat);
    if (!p)
        fail_msg("no key %s in %s", key, json);
    return strtod(p + strlen(pat), NULL);
}

#endif
