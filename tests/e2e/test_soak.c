/* tests/e2e/test_soak.c — a 10,000-game league at concurrency 2: the coordinator's resident memory and open
 * file descriptors stay flat between the first thousand games and the last (measured from /proc, printed),
 * it has no more bot processes at the end than at the start, and every game is stored. */
#define _GNU_SOURCE
#include <dirent.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test_sys.h"

E2E_FIXTURE(tmp, "arena-soak-test")

#define GAMES 10000

typedef struct {
    long rss_kb, fds, children;
} usage;

static usage measure(pid_t pid)
{
    usage u = { -1, 0, 0 };
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "VmRSS:", 6) == 0)
            u.rss_kb = strtol(line + 6, NULL, 10);
    fclose(f);
    snprintf(path, sizeof path, "/proc/%d/fd", (int)pid);
    DIR *d = opendir(path);
    assert_non_null(d);
    for (struct dirent *e; (e = readdir(d));)
        u.fds += e->d_name[0] != '.';
    closedir(d);
    snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)pid, (int)pid);
    f = fopen(path, "r");
    assert_non_null(f);
    for (long c; fscanf(f, "%ld", &c) == 1;)
        u.children++;
    fclose(f);
    return u;
}

/* Waits until the database holds at least n games (or the league ended); returns the count. */
static long wait_games(const char *db, pid_t pid, long n)
{
    struct timespec tick = { 0, 50 * 1000 * 1000 };
    for (;;) {
        long have = db_try_scalar(db, "SELECT count(*) FROM games");
        if (have >= n || waitpid(pid, NULL, WNOHANG) != 0)
            return have;
        nanosleep(&tick, NULL);
    }
}

static void ten_thousand_games_leave_memory_and_descriptors_flat(void **state)
{
    (void)state;
    char text[2048], cfg[300], db[300], logs[300];
    snprintf(text, sizeof text,
             "[league]\nname = soak\nvariants = classical, abrupt\nboards = 3x3, 3x4\ngames = %d\n"
             "concurrency = 2\nseed = 5\n[agent a]\ncommand = %s/random\nargs = --seed 1\n"
             "[agent b]\ncommand = %s/random\nargs = --seed 2\n",
             GAMES / 4, bin, bin);
    snprintf(cfg, sizeof cfg, "%s/soak.ini", tmp);
    FILE *f = fopen(cfg, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    snprintf(db, sizeof db, "%s/soak.db", tmp);
    snprintf(logs, sizeof logs, "%s/logs", tmp);
    char *const argv[] = { "arena", "league", cfg, "--db", db, "--logs", logs, "--quiet", NULL };
#if defined(__SANITIZE_ADDRESS__)
    /* AddressSanitizer keeps freed memory in a quarantine (256 MiB by default) that fills over the first few
     * thousand games, which would read as growth: a small one lets real growth show. */
    char asan[1024];
    const char *given = getenv("ASAN_OPTIONS");
    snprintf(asan, sizeof asan, "%s%squarantine_size_mb=16", given ? given : "", given && *given ? ":" : "");
    setenv("ASAN_OPTIONS", asan, 1);
#endif
    pid_t pid = start_arena(argv);
    assert_true(wait_games(db, pid, 1000) >= 1000);
    usage start = measure(pid);
    assert_true(wait_games(db, pid, GAMES - 500) >= GAMES - 500);
    usage end = measure(pid);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);
    printf("# coordinator after 1000 games: %ld KiB resident, %ld open descriptors, %ld bot processes\n"
           "# coordinator after %d games: %ld KiB resident, %ld open descriptors, %ld bot processes\n",
           start.rss_kb, start.fds, start.children, GAMES - 500, end.rss_kb, end.fds, end.children);
    fflush(stdout);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games"), GAMES);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games WHERE reason <> 'connected'"), 0);
    assert_true(end.fds <= start.fds + 2);
    assert_true(end.children <= start.children);
#if defined(__SANITIZE_ADDRESS__)
    const long slack_kb = 64 * 1024; /* AddressSanitizer's quarantine keeps freed memory for a while */
#else
    const long slack_kb = 4 * 1024;
#endif
    if (end.rss_kb > start.rss_kb + slack_kb)
        fail_msg("resident memory grew from %ld to %ld KiB over %d games", start.rss_kb, end.rss_kb, GAMES - 1500);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ten_thousand_games_leave_memory_and_descriptors_flat),
    };
    return cmocka_run_group_tests(tests, e2e_setup, e2e_teardown);
}
