/* tests/e2e/test_limits.c — a sandbox's limits hold for the sandbox as a whole (arena/sandbox/cgroup.h): each
 * attack of tests/agents/misbehave.c on them, in `arena match` against a well-behaved bot, with the default
 * settings unless the attack is about a setting, costs the attacker its games with the limit named in the
 * detail, and leaves nothing behind: no process carrying the test's tag, no cgroup of a coordinator that is
 * gone, the host's shared memory (tmpfs pages) back where it was.
 *
 *   fork_bomb_is_bounded_by_pids                3000 processes asked for: "pids limit 128 reached"
 *   memory_of_children_is_bounded               8 children of up to 200 MiB under --memory-mb 256: "memory limit 256 MiB"
 *   tmp_is_bounded_and_counted_in_memory        /tmp takes 64 MiB (tmp_mb) and no more; with --tmp-mb 1024 its
 *                                               pages reach --memory-mb 256: "memory limit 256 MiB"
 *   cpu_of_children_is_bounded                  6 spinning children under --cpu-seconds 1: "CPU time limit 1 s reached
 *                                               (the sandbox's processes together)"
 *   spinning_threads_leave_the_opponent_its_time  32 spinning threads against a bot with a 20 ms budget: the
 *                                               opponent loses no more games on time than next to a quiet
 *                                               bot, give or take one (counts, not timings)
 *   killed_at_start_up_leaves_nothing           arena match killed with SIGKILL at 120 random early instants:
 *                                               no bwrap, arena-init or bot process and no cgroup left
 *
 * THESE TESTS NEED CGROUPS (v1 as root, or a delegated v2 subtree) and the sandbox. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test_sys.h"

E2E_FIXTURE(tmp, "arena-limits-test")

static char agents[1024]; /* absolute directory of the test bots */
static char tag[64];      /* on every bot's command line */

static void setup_paths(void)
{
    e2e_agents_dir(agents, sizeof agents);
    snprintf(tag, sizeof tag, "--tag lim%d", (int)getpid());
}

static void pause_ms(long ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

/* Processes whose command line holds `text` (bwrap and arena-init included: theirs hold the bot's). */
static int processes_with(const char *text)
{
    DIR *d = opendir("/proc");
    assert_non_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        char buf[8192];
        if (e->d_name[0] < '0' || e->d_name[0] > '9' || !proc_cmdline(e->d_name, buf, sizeof buf))
            continue;
        n += strstr(buf, text) != NULL && atoi(e->d_name) != (int)getpid();
    }
    closedir(d);
    return n;
}

/* cgroups named arena-PID-* (a coordinator's) below dir, down to `depth` levels, whose PID is `pid` (0: any
 * PID that is gone). */
static int groups_below(const char *dir, int depth, long pid)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        char sub[1024];
        long owner;
        if (e->d_type != DT_DIR || e->d_name[0] == '.')
            continue;
        snprintf(sub, sizeof sub, "%.700s/%.250s", dir, e->d_name);
        if (sscanf(e->d_name, "arena-%ld-", &owner) == 1)
            n += pid ? owner == pid : kill((pid_t)owner, 0) != 0 && errno == ESRCH;
        else if (depth > 1)
            n += groups_below(sub, depth - 1, pid);
    }
    closedir(d);
    return n;
}

/* No process with the tag and no cgroup of a coordinator that is gone (or of `pid`), within `seconds`
 * (a killed coordinator's watcher needs a moment). Returns what is left: 0 when nothing. */
static int left_behind(long pid, double seconds)
{
    int left = 0;
    for (int i = 0; i <= (int)(seconds * 100); i++) {
        char watcher[64]; /* a coordinator's watcher names its groups */
        snprintf(watcher, sizeof watcher, "/arena-%ld-", pid);
        left = processes_with(tag + 6) + groups_below("/sys/fs/cgroup", 5, pid) + (pid ? processes_with(watcher) : 0);
        if (left == 0 || i == (int)(seconds * 100))
            break;
        pause_ms(10);
    }
    return left;
}

/* Runs `arena match` (classical 4x4, --games games) of `misbehave --mode MODE` against `misbehave --mode play`
 * with `options`, into a fresh database; fails unless it exits with 0. */
static void match(const char *mode, const char *options, int games, const char *db)
{
    char cmd[4096];
    sh_run("rm -rf %s %s-wal %s-shm %s/logs", db, db, db, tmp);
    snprintf(cmd, sizeof cmd,
             "%s/arena match --variant classical --board 4x4 --games %d --handshake 5000 --db %s --logs %s/logs "
             "--quiet %s '%s/misbehave --mode %s %s' '%s/misbehave --mode play %s' >/dev/null 2>&1",
             bin, games, db, tmp, options, agents, mode, tag, agents, tag);
    int st = system(cmd);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        fail_msg("%s: arena match failed: %s", mode, cmd);
}

/* Games lost by the bot of `mode` with `reason` and a detail holding `detail`. */
static long lost(const char *db, const char *mode, const char *reason, const char *detail)
{
    char sql[1024];
    snprintf(sql, sizeof sql,
             "SELECT count(*) FROM games g JOIN agents a ON a.id = CASE g.winner WHEN 'B' THEN g.white ELSE g.black "
             "END WHERE reason = '%s' AND detail LIKE '%%%s%%' AND a.command LIKE '%%--mode %s %%'",
             reason, detail, mode);
    return db_scalar(db, sql);
}

/* Each game lost by the attacker with the limit named, and nothing left. */
static void attack(const char *mode, const char *options, const char *detail)
{
    char db[128];
    snprintf(db, sizeof db, "%s/%s.db", tmp, mode);
    match(mode, options, 2, db);
    long n = lost(db, mode, "crash", detail);
    if (n != 2)
        fail_msg("%s: %ld of 2 games lost with '%s'", mode, n, detail);
    assert_int_equal(left_behind(0, 10), 0);
}

static void fork_bomb_is_bounded_by_pids(void **state)
{
    (void)state;
    setup_paths();
    attack("fork-bomb", "--move-time 3000", "pids limit 128 reached");
}

static void memory_of_children_is_bounded(void **state)
{
    (void)state;
    setup_paths();
    attack("eat-children", "--move-time 3000 --memory-mb 256", "memory limit 256 MiB reached (peak ");
}

static void cpu_of_children_is_bounded(void **state)
{
    (void)state;
    setup_paths();
    attack("burn-children", "--move-time 8000 --cpu-seconds 1",
           "CPU time limit 1 s reached (the sandbox''s processes together)");
}

/* Shmem of /proc/meminfo, KiB: tmpfs pages on the whole host. */
static long host_shmem_kb(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    assert_non_null(f);
    char line[256];
    long kb = -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "Shmem: %ld kB", &kb) == 1)
            break;
    fclose(f);
    assert_true(kb >= 0);
    return kb;
}

static void tmp_is_bounded_and_counted_in_memory(void **state)
{
    (void)state;
    setup_paths();
    char db[128];
    snprintf(db, sizeof db, "%s/fill.db", tmp);
    long before = host_shmem_kb();
    match("fill-tmp", "--move-time 3000", 2, db); /* defaults: /tmp of 64 MiB; then it hangs (timeout) */
    assert_int_equal(lost(db, "fill-tmp", "timeout", "no move"), 2);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "cat %s/logs/*.log", tmp);
    char *log = sh_output(cmd);
    int fills = 0;
    for (const char *p = log; (p = strstr(p, "fill-tmp: ")); p++) {
        int mib = -1;
        assert_int_equal(sscanf(p, "fill-tmp: %d MiB", &mib), 1);
        if (mib > 64 || mib < 32) /* its tmpfs of 64 MiB, less what the file system keeps for itself */
            fail_msg("the bot wrote %d MiB to its /tmp of 64 MiB", mib);
        fills++;
    }
    free(log);
    assert_int_equal(fills, 2);
    /* its pages are gone with its sandbox (another program may have added a little meanwhile) */
    long after = host_shmem_kb();
    if (after > before + 16 * 1024)
        fail_msg("the host's shared memory grew from %ld to %ld KiB", before, after);
    attack("fill-tmp", "--move-time 3000 --memory-mb 256 --tmp-mb 1024", "memory limit 256 MiB reached (peak ");
}

/* Games the bot of `mode` lost on time in the run of db. */
static long timeouts_of(const char *db, const char *mode)
{
    return lost(db, mode, "timeout", "no move");
}

static void spinning_threads_leave_the_opponent_its_time(void **state)
{
    (void)state;
    setup_paths();
    char quiet[128], spin[128];
    snprintf(quiet, sizeof quiet, "%s/quiet.db", tmp);
    snprintf(spin, sizeof spin, "%s/spin.db", tmp);
    match("first", "--move-time 20", 20, quiet); /* a quiet bot that plays its lowest unknown cell */
    match("spin-threads", "--move-time 20", 20, spin);
    long calm = timeouts_of(quiet, "play"), busy = timeouts_of(spin, "play");
    print_message("the opponent's timeouts in 20 games: %ld next to a quiet bot, %ld next to 32 spinning threads\n",
                  calm, busy);
    /* 32 threads spinning unbounded beside a 20 ms opponent on two cores would time it out in most games; bounded,
     * they cost it nothing beyond what the machine's other load costs it next to a quiet bot (a test machine
     * busy with other work can make one 20 ms move late either way) */
    if (busy > calm + 1)
        fail_msg("the spinning bot's opponent lost %ld of 20 games on time (%ld next to a quiet bot)", busy, calm);
    assert_int_equal(left_behind(0, 10), 0);
}

static void killed_at_start_up_leaves_nothing(void **state)
{
    (void)state;
    setup_paths();
    char db[128], a[1200], b[1200];
    snprintf(db, sizeof db, "%s/killed.db", tmp);
    snprintf(a, sizeof a, "%s/misbehave --mode first %s", agents, tag);
    snprintf(b, sizeof b, "%s/misbehave --mode play %s", agents, tag);
    uint64_t x = (uint64_t)getpid() * 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 120; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        long ms = (long)(x >> 33) % (i % 2 ? 40 : 250); /* half in the first 40 ms: the sandboxes' set-up */
        char *argv[] = { "arena", "match", "--variant", "classical", "--board", "5x5", "--games", "1000",
                         "--concurrency", "2", "--db", db, "--logs", tmp, "--quiet", a, b, NULL };
        pid_t pid = start_arena(argv);
        pause_ms(ms);
        kill(pid, SIGKILL);
        int st;
        assert_int_equal(waitpid(pid, &st, 0), pid);
        int left = left_behind(pid, 10);
        if (left)
            fail_msg("kill %d after %ld ms: %d processes or cgroups left", i + 1, ms, left);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fork_bomb_is_bounded_by_pids),
        cmocka_unit_test(memory_of_children_is_bounded),
        cmocka_unit_test(tmp_is_bounded_and_counted_in_memory),
        cmocka_unit_test(cpu_of_children_is_bounded),
        cmocka_unit_test(spinning_threads_leave_the_opponent_its_time),
        cmocka_unit_test(killed_at_start_up_leaves_nothing),
    };
    return cmocka_run_group_tests(tests, e2e_setup, e2e_teardown);
}
