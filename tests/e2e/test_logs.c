/* tests/e2e/test_logs.c — a bot's stdout and stderr reach its log through a pipe the coordinator reads
 * (arena/sandbox/botlog.h), in `arena match` with real bot processes: a bot flooding its stderr leaves a log
 * of exactly log_mb MiB of its output and one line saying the rest was dropped, while its games are played and
 * the coordinator's memory stays flat; a bot that truncates, rewinds or reopens its log through /proc erases
 * none of the coordinator's lines; a chatty bot's stdout and stderr lines reach its log in order, around the
 * coordinator's lines. In the sandbox and with --sandbox off. The bots are tests/agents/misbehave.c --mode spew,
 * truncate and chatter. */
#define _GNU_SOURCE
#include <sys/resource.h>

#include "test_sys.h"

E2E_FIXTURE(tmp, "arena-botlog-test")

static char agents[512];

static void set_agents(void)
{
    const char *a = getenv("ARENA_TEST_AGENTS");
    char cwd[256];
    if (a && a[0] == '/')
        snprintf(agents, sizeof agents, "%s", a);
    else if (getcwd(cwd, sizeof cwd))
        snprintf(agents, sizeof agents, "%s/%s", cwd, a ? a : "build/release/tests/agents");
}

/* Runs `arena match ARGS` in tmp with its output in tmp/match.out and fresh logs in tmp/logs; returns its exit
 * status and, in *ru, its resource use (with its children's). */
static int arena_match(struct rusage *ru, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int arena_match(struct rusage *ru, const char *fmt, ...)
{
    char args[2048], cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    assert_int_equal(sh_run("rm -rf '%s/logs' '%s/m.db' '%s/m.db-wal' '%s/m.db-shm'", tmp, tmp, tmp, tmp), 0);
    snprintf(cmd, sizeof cmd, "cd '%s' && exec '%s/arena' match --variant classical --board 4x4 --db m.db --logs logs "
             "--json --quiet %s >match.out 2>&1", tmp, bin, args);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    int st;
    assert_int_equal(wait4(pid, &st, 0, ru), pid);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* The contents of the one log in tmp/logs whose name holds `name` (malloc'd), its size in *len. */
static char *log_of(const char *name, size_t *len)
{
    char cmd[700];
    snprintf(cmd, sizeof cmd, "ls '%s'/logs | grep -c -- '%s'", tmp, name);
    char *count = sh_output(cmd);
    if (atoi(count) != 1)
        fail_msg("%s log files hold '%s' in their name", count, name);
    free(count);
    snprintf(cmd, sizeof cmd, "cat '%s'/logs/*%s*", tmp, name);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t cap = 1 << 20, n = 0, k;
    char *text = malloc(cap + 1);
    assert_non_null(text);
    while ((k = fread(text + n, 1, cap - n, p)) > 0)
        if ((n += k) == cap) {
            cap *= 2;
            text = realloc(text, cap + 1);
            assert_non_null(text);
        }
    assert_int_equal(pclose(p), 0);
    text[n] = '\0';
    *len = n;
    return text;
}

/* Every line of text from `from` on is the coordinator's ("[arena TIME] ..."). */
static void only_arena_lines(const char *from, const char *what)
{
    for (const char *line = from; *line; line = strchr(line, '\n') + 1) {
        if (strncmp(line, "[arena ", 7) != 0)
            fail_msg("%s: a line that is not the arena's: %.60s", what, line);
        if (!strchr(line, '\n'))
            fail_msg("%s: the last line is not finished", what);
    }
}

/* A bot writing 1 GiB (then 64 MiB) to stderr before its hello, under --log-mb 1 (then the default 16): its log
 * is the first log_mb MiB of what it wrote, one line saying the rest is dropped, then the arena's lines; the games
 * are played; the coordinator (with its bots) never held the flood in memory. */
static void a_flooding_bot_is_cut_at_its_log_limit(void **state)
{
    (void)state;
    set_agents();
    static char block[1 << 20]; /* what misbehave --mode spew writes, 1 MiB at a time */
    size_t at = 0;
    for (int line = 1; at + 15 <= sizeof block; line++, at += 15)
        snprintf(block + at, 16, "spew %09d\n", line);
    memset(block + at, '#', sizeof block - at);
    const struct {
        const char *options;
        int spew_mb, log_mb;
    } runs[] = { { "--log-mb 1", 1024, 1 }, { "", 64, 16 } };
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
        struct rusage ru;
        int rc = arena_match(&ru, "--games 4 --handshake 60000 %s '%s/misbehave --mode spew --spew-mb %d' '%s/random'",
                             runs[r].options, agents, runs[r].spew_mb, bin);
        char path[128];
        snprintf(path, sizeof path, "cat '%s/match.out'", tmp);
        char *out = sh_output(path);
        if (rc != 0 || !strstr(out, "\"games\":4"))
            fail_msg("arena match %s exited with %d: %s", runs[r].options, rc, out);
        free(out);
        snprintf(path, sizeof path, "%s/m.db", tmp);
        assert_int_equal(db_scalar(path, "SELECT count(*) FROM games WHERE reason = 'connected'"), 4);
        if (ru.ru_maxrss > 200 * 1024) /* the flood is 64 MiB or 1 GiB; the coordinator reads it 64 KiB at a time */
            fail_msg("peak memory %ld KiB while a bot wrote %d MiB", ru.ru_maxrss, runs[r].spew_mb);

        size_t len, cap = (size_t)runs[r].log_mb << 20;
        char *log = log_of("misbehave", &len);
        assert_true(len > cap);
        for (size_t i = 0; i < cap; i += sizeof block)
            if (memcmp(log + i, block, sizeof block) != 0)
                fail_msg("MiB %zu of the log is not the bot's output in order", i >> 20);
        char limit[160];
        snprintf(limit, sizeof limit, "log limit %d MiB reached; the rest of this process's output is dropped\n",
                 runs[r].log_mb);
        const char *after = log + cap;
        assert_int_equal(after[0], '\n'); /* the bot's last line was not finished: the arena's starts a new one */
        assert_int_equal(strncmp(after + 1, "[arena ", 7), 0);
        const char *end = strchr(after + 1, '\n');
        assert_non_null(end);
        if ((size_t)(end + 1 - (after + 1 + 33)) != strlen(limit) || strncmp(after + 1 + 33, limit, strlen(limit)))
            fail_msg("after %d MiB: %.200s", runs[r].log_mb, after + 1);
        only_arena_lines(after + 1, "after the limit");
        assert_non_null(strstr(after, "] connected: misbehave-spew"));
        int limits = 0;
        for (const char *p = log; (p = memmem(p, len - (size_t)(p - log), "log limit", 9)); p++)
            limits++;
        assert_int_equal(limits, 1);
        free(log);
    }
}

/* A bot that, once the arena has written its "connected" line, truncates, rewinds and reopens its stdout and
 * stderr: every attempt fails (a pipe), and the arena's line is still the first of the log. */
static void a_bot_cannot_erase_its_log(void **state)
{
    (void)state;
    set_agents();
    const char *sandbox[] = { "", "--sandbox off" };
    for (int s = 0; s < 2; s++) {
        struct rusage ru;
        int rc = arena_match(&ru, "--games 2 %s '%s/misbehave --mode truncate' '%s/random'", sandbox[s], agents, bin);
        assert_int_equal(rc, 0);
        size_t len;
        char *log = log_of("misbehave", &len);
        if (strncmp(log, "[arena ", 7) != 0 || !strstr(log, "] connected: misbehave-truncate"))
            fail_msg("%s: the arena's first line is gone:\n%.2000s", sandbox[s], log);
        const char *connected = strstr(log, "] connected: misbehave-truncate");
        int blocked = 0;
        for (const char *p = log; (p = strstr(p, "TRUNCATE ")); p++) {
            if (p < connected)
                fail_msg("%s: an attempt before the arena's line:\n%.2000s", sandbox[s], log);
            blocked += strncmp(strstr(p, ": "), ": blocked", 9) == 0;
        }
        if (blocked != 6 || strstr(log, "SUCCEEDED"))
            fail_msg("%s: %d of 6 attempts blocked:\n%.2000s", sandbox[s], blocked, log);
        free(log);
    }
}

/* A bot writing "chatter N" at its Nth attempt, to stdout and stderr in turn: every line in its log, in order,
 * after the arena's "connected" line, and nothing else but the arena's lines. */
static void bot_output_reaches_its_log_in_order(void **state)
{
    (void)state;
    set_agents();
    const char *sandbox[] = { "", "--sandbox off" };
    for (int s = 0; s < 2; s++) {
        struct rusage ru;
        assert_int_equal(arena_match(&ru, "--games 4 %s '%s/misbehave --mode chatter' '%s/random'", sandbox[s],
                                     agents, bin), 0);
        size_t len;
        char *log = log_of("misbehave", &len);
        if (strncmp(log, "[arena ", 7) != 0 || !strstr(log, "] connected: misbehave-chatter"))
            fail_msg("%s: no arena line first:\n%.2000s", sandbox[s], log);
        int next = 1;
        for (char *line = log; *line; line = strchr(line, '\n') + 1) {
            char *nl = strchr(line, '\n');
            if (!nl)
                fail_msg("%s: an unfinished last line: %s", sandbox[s], line);
            *nl = '\0';
            char want[32];
            snprintf(want, sizeof want, "chatter %d", next);
            if (strcmp(line, want) == 0)
                next++;
            else if (strncmp(line, "[arena ", 7) != 0)
                fail_msg("%s: '%s' where '%s' or an arena line was due", sandbox[s], line, want);
            *nl = '\n';
        }
        if (next < 5) /* at least one attempt per game */
            fail_msg("%s: %d chatter lines:\n%.2000s", sandbox[s], next - 1, log);
        free(log);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_flooding_bot_is_cut_at_its_log_limit),
        cmocka_unit_test(a_bot_cannot_erase_its_log),
        cmocka_unit_test(bot_output_reaches_its_log_in_order),
    };
    return cmocka_run_group_tests(tests, e2e_setup, e2e_teardown);
}
