/* tests/bench/bench_match.c — the match runner's speed: bin/random against itself through the real
 * coordinator loop (processes, ZeroMQ over ipc, MessagePack, referee) on 5x5 and 11x11 classical at
 * concurrency 1 and 2, next to the raw ZeroMQ DEALER/ROUTER round trip over ipc between two processes
 * measured in the same run. The harness's cost per attempt (one turn -> move round trip plus the result)
 * is printed as a multiple of that raw round trip. Every run is played twice, with the bots in their
 * sandboxes (the default) and as plain processes (sandbox = off), and the start of one bot process (start,
 * hello, stop) is timed both ways: the sandbox's cost per bot start and per move. The sandbox's cgroup (cgroup.h)
 * is timed on its own: making it with its limits, a child joining it, removing it (a fork, join, exit and
 * wait next to a plain fork, exit and wait), and the limit check the runner makes of each live sandbox every
 * 50 ms.
 * Then the protocol versions: the cost per attempt of two protocol-1 bots (turn, move, result: three messages) and of
 * two protocol-2 bots (turn, move: the outcome rides in the next turn), tests/agents/misbehave --mode play
 * --protocol 1 and 2, plain processes, as a multiple of the raw round trip (the goal: 1.5x).
 * Then the bots' output, which
 * the coordinator reads from a pipe into each log (botlog.h): the cost per attempt of a bot writing a line per
 * attempt against one writing nothing (tests/agents/misbehave --mode chatter and play, from ARENA_TEST_AGENTS or
 * next to the bot given),
 * and how fast a bot flooding its stderr gets through (into its log, and read and dropped past log_mb).
 * Then what the second round of isolation costs: a round trip through a sandbox's relay (gate.h) next to the raw one,
 * a uid lease (uids.h) taken and given back, and fair timing (runner.h) on and off: games/s and us per attempt of
 * 5x5 classical at concurrency 1 and 8.
 * Figures only; nothing is asserted. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <zmq.h>

#include "bench_kit.h"
#include "runner.h"
#include "cgroup.h"
#include "clock.h"
#include "gate.h"
#include "uids.h"

#include <sys/eventfd.h>

/* Microseconds per attempt of a match of `games` games of 5x5 classical between two processes of `agent`. */
static double us_per_attempt(const rn_agent *agent, long games)
{
    rn_agent two[2] = { *agent, *agent };
    bench_run b = { .games = games, .size = 5 };
    rn_config cfg = { .agents = two, .n_agents = 2, .concurrency = 1, .move_ms = 10000, .margin_ms = 50,
                      .handshake_ms = 10000, .ping_ms = 10000, .log_dir = "/tmp/arena-bench-logs",
                      .log_prefix = "bench-output", .next_game = bench_next_game, .finished = bench_finished,
                      .user = &b };
    char err[512];
    double t0 = clk_now();
    if (rn_run(&cfg, err, sizeof err) != RN_DONE) {
        fprintf(stderr, "bench_match: %s\n", err);
        return 0;
    }
    return b.attempts ? (clk_now() - t0) / (double)b.attempts * 1e6 : 0;
}

/* The test bots' directory: ARENA_TEST_AGENTS, else BOT's directory/../tests/agents. */
static void test_agents(const char *bot, char *dir, size_t size)
{
    const char *agents = getenv("ARENA_TEST_AGENTS");
    if (agents)
        snprintf(dir, size, "%s", agents);
    else
        snprintf(dir, size, "%.*s/../tests/agents", (int)(strrchr(bot, '/') ? strrchr(bot, '/') - bot : 1),
                 strrchr(bot, '/') ? bot : ".");
}

/* Protocol 1 against protocol 2: per attempt, both bots speaking the version, next to the raw round trip. The three
 * are measured in turn, five times over (a loaded machine shifts them together), and each figure is the median. */
static void protocol_figures(const char *bot)
{
    char dir[600], line[700], err[512];
    test_agents(bot, dir, sizeof dir);
    ag_command cmd[2];
    for (int v = 0; v < 2; v++) {
        snprintf(line, sizeof line, "%s/misbehave --mode play --protocol %d", dir, v + 1);
        if (ag_command_parse(line, NULL, &cmd[v], err, sizeof err) != 0) {
            printf("protocol versions: skipped (%s)\n", err);
            return;
        }
        cmd[v].sandbox.off = true;
    }
    enum { ROUNDS = 5 };
    double raw[ROUNDS], us[2][ROUNDS];
    for (int r = 0; r < ROUNDS; r++) {
        raw[r] = raw_round_trip(500, 24, 24);
        for (int v = 0; v < 2; v++) {
            rn_agent a = { .name = v ? "v2" : "v1", .command = &cmd[v] };
            us[v][r] = us_per_attempt(&a, 300);
        }
    }
    qsort(raw, ROUNDS, sizeof raw[0], by_value);
    printf("protocol versions (5x5 classical, 300 games, plain processes, misbehave --mode play --protocol V on both "
           "sides; each figure the median of %d rounds of raw, V=1, V=2):\n", ROUNDS);
    printf("  %-9s %12s %12s %12s %10s\n", "protocol", "attempts/s", "us/attempt", "raw RTT us", "x raw RTT");
    for (int v = 0; v < 2; v++) {
        qsort(us[v], ROUNDS, sizeof us[v][0], by_value);
        double m = us[v][ROUNDS / 2], rt = raw[ROUNDS / 2];
        printf("  %-9d %12.0f %12.1f %12.1f %9.2fx\n", v + 1, m > 0 ? 1e6 / m : 0, m, rt, rt > 0 ? m / rt : 0);
    }
    printf("  (protocol 1: turn, move, result per attempt; protocol 2: turn, move; the goal is 1.5x the raw round "
           "trip)\n");
}

/* The bots' output: a chatty bot's cost per attempt, and a flood's throughput (seconds from start to hello of
 * a bot writing `mb` MiB first). */
static void output_figures(const char *bot)
{
    char dir[600], line[700];
    test_agents(bot, dir, sizeof dir);
    const char *modes[] = { "play", "chatter" };
    double us[2] = { 0, 0 };
    ag_command cmd[2];
    char err[512];
    for (int i = 0; i < 2; i++) {
        snprintf(line, sizeof line, "%s/misbehave --mode %s", dir, modes[i]);
        if (ag_command_parse(line, NULL, &cmd[i], err, sizeof err) != 0) {
            printf("bots' output: skipped (%s)\n", err);
            return;
        }
        cmd[i].sandbox.off = true;
        rn_agent a = { .name = modes[i], .command = &cmd[i] };
        us[i] = us_per_attempt(&a, 1000);
    }
    printf("bots' output through the coordinator's pipe (5x5 classical, 1000 games, plain processes):\n"
           "  %.1f us/attempt writing nothing (misbehave --mode play), %.1f us/attempt writing a line per attempt "
           "(--mode chatter): %+.1f us\n", us[0], us[1], us[1] - us[0]);
    static const struct { int mb; unsigned log_mb; } floods[] = { { 1024, 16 }, { 128, 0 } };
    for (size_t i = 0; i < sizeof floods / sizeof floods[0]; i++) {
        snprintf(line, sizeof line, "%s/misbehave --mode spew --spew-mb %d", dir, floods[i].mb);
        ag_command spew;
        if (ag_command_parse(line, NULL, &spew, err, sizeof err) != 0)
            return;
        spew.sandbox.off = true;
        spew.limits.log_mb = floods[i].log_mb;
        rn_agent a = { .name = "spew", .command = &spew };
        rn_config cfg = { .agents = &a, .n_agents = 1, .handshake_ms = 600000, .log_dir = "/tmp/arena-bench-logs",
                          .log_prefix = "bench-flood" };
        pm_msg hello;
        double t0 = clk_now();
        if (rn_probe(&cfg, 0, &hello, err, sizeof err) != RN_DONE) {
            fprintf(stderr, "bench_match: %s\n", err);
            return;
        }
        double s = clk_now() - t0;
        unlink("/tmp/arena-bench-logs/bench-flood-spew-1.log");
        printf("  a bot flooding stderr with %d MiB before its hello: %.2f s, %.0f MiB/s (%s)\n", floods[i].mb, s,
               floods[i].mb / s, floods[i].log_mb ? "16 MiB into its log, the rest read and dropped"
                                                  : "all of it into its log, no limit");
    }
}

/* Seconds per bot start (start, hello, stop), the median of n. */
static double start_time(const rn_agent *agents, int n)
{
    rn_config cfg = { .agents = agents, .n_agents = 1, .handshake_ms = 10000, .log_dir = "/tmp/arena-bench-logs",
                      .log_prefix = "bench-start" };
    double t[64];
    pm_msg hello;
    char err[512];
    for (int i = 0; i < n && i < 64; i++) {
        double t0 = clk_now();
        if (rn_probe(&cfg, 0, &hello, err, sizeof err) != RN_DONE) {
            fprintf(stderr, "bench_match: %s\n", err);
            return 0;
        }
        t[i] = clk_now() - t0;
    }
    qsort(t, (size_t)n, sizeof t[0], by_value);
    return t[n / 2];
}

/* Seconds of one fork + (join + ) exit + wait, with a cgroup made and removed around it when `with`; the
 * median of n. */
static double group_cycle(bool with, int n)
{
    double t[128];
    cg_limits l = { AG_DEFAULT_PIDS, 256, 1 };
    char err[512];
    for (int i = 0; i < n && i < 128; i++) {
        cg_group g = { .id = -1 };
        double t0 = clk_now();
        if (with && cg_create(&l, &g, err, sizeof err) != 0) {
            fprintf(stderr, "bench_match: %s\n", err);
            return 0;
        }
        pid_t pid = fork();
        if (pid == 0)
            _exit(with && cg_enter(&g) != 0 ? 1 : 0);
        waitpid(pid, NULL, 0);
        cg_destroy(&g);
        t[i] = clk_now() - t0;
    }
    qsort(t, (size_t)n, sizeof t[0], by_value);
    return t[n / 2];
}

/* The cgroup's share of a sandbox start, and the cost of one limit check (cg_exceeded). */
static void cgroup_cost(double boxed)
{
    char err[512], why[160];
    if (cg_available(err, sizeof err) != 0) {
        printf("cgroup of a sandbox: not measured (%s)\n", err);
        return;
    }
    double with = group_cycle(true, 101), bare = group_cycle(false, 101);
    printf("cgroup of a sandbox (make with its limits, join, remove; median of 101): +%.2f ms per bot start "
           "(%.2f ms with, %.2f ms for a plain fork, exit and wait), %.1f%% of a sandboxed start\n",
           (with - bare) * 1e3, with * 1e3, bare * 1e3, boxed > 0 ? (with - bare) / boxed * 100 : 0);
    cg_limits l = { AG_DEFAULT_PIDS, 256, 1 };
    cg_group g;
    if (cg_create(&l, &g, err, sizeof err) != 0)
        return;
    double t0 = clk_now();
    int hits = 0;
    for (int i = 0; i < 10000; i++)
        hits += cg_exceeded(&g, why, sizeof why);
    double us = (clk_now() - t0) / 10000 * 1e6;
    cg_destroy(&g);
    printf("limit check of one sandbox (pids, memory, CPU counters; mean of 10000): %.1f us, every 50 ms per live "
           "sandbox (%.3f%% of a core per sandbox)%s\n", us, us / 50000 * 100, hits ? " (a limit read as reached)" : "");
}

/* The relay of a sandbox's endpoint in front of the ROUTER at `upstream`: its socket's path. */
static const char *through_gate(const char *upstream, void *user)
{
    gt_gate **g = user;
    char dir[200], err[512];
    snprintf(dir, sizeof dir, "%.*s", (int)(strrchr(upstream, '/') - upstream), upstream);
    *g = gt_open(dir, upstream, getuid(), getgid(), eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK), err, sizeof err);
    if (!*g) {
        fprintf(stderr, "bench_match: %s\n", err);
        return upstream;
    }
    return gt_path(*g);
}

/* Fair timing on and off: 5x5 classical between two of `agents`, at concurrency 1 and 8. */
static void fair_timing_figures(const rn_agent *agents)
{
    printf("fair timing (5x5 classical, bin/random against itself in its sandbox; docs/protocol.md#fair-timing):\n");
    printf("  %-5s %-5s %7s %10s %14s %10s\n", "conc", "fair", "games", "games/s", "us/attempt", "s/game");
    static const struct { int conc; long games; } runs[] = { { 1, 200 }, { 8, 400 } };
    for (size_t j = 0; j < 2 * sizeof runs / sizeof runs[0]; j++) {
        size_t i = j / 2;
        bool fair = j % 2;
        bench_run b = { .games = runs[i].games, .size = 5 };
        rn_config cfg = { .agents = agents, .n_agents = 2, .concurrency = runs[i].conc, .move_ms = 10000,
                          .margin_ms = 50, .handshake_ms = 10000, .ping_ms = 10000, .log_dir = "/tmp/arena-bench-logs",
                          .log_prefix = "bench-fair", .fair_timing = fair, .next_game = bench_next_game,
                          .finished = bench_finished, .user = &b };
        char err[512];
        double t0 = clk_now();
        if (rn_run(&cfg, err, sizeof err) != RN_DONE) {
            fprintf(stderr, "bench_match: %s\n", err);
            return;
        }
        double s = clk_now() - t0;
        printf("  %-5d %-5s %7ld %10.1f %14.1f %10.4f\n", runs[i].conc, fair ? "on" : "off", b.games, b.games / s,
               s / (double)b.attempts * 1e6, s / (double)b.games);
    }
    printf("  (with fair timing each turn of a mover lasts at least 6 times its first attempt's thinking plus 2 ms for "
           "the waiting player: the cost is wall time, not CPU, and concurrency overlaps it)\n");
}

/* The relay's round trip next to the raw one, and a uid lease. */
static void isolation_figures(void)
{
    enum { ROUNDS = 5 };
    double raw[ROUNDS], relayed[ROUNDS];
    for (int r = 0; r < ROUNDS; r++) {
        gt_gate *g = NULL;
        raw[r] = raw_round_trip(500, 24, 24);
        relayed[r] = raw_round_trip_via(500, 24, 24, through_gate, &g);
        gt_close(g);
    }
    qsort(raw, ROUNDS, sizeof raw[0], by_value);
    qsort(relayed, ROUNDS, sizeof relayed[0], by_value);
    printf("a sandbox's endpoint (gate.h): round trip through its relay %.1f us, raw %.1f us (median of %d rounds, "
           "each the median of 7 x 500): +%.1f us, %.2fx\n", relayed[ROUNDS / 2], raw[ROUNDS / 2], ROUNDS,
           relayed[ROUNDS / 2] - raw[ROUNDS / 2], raw[ROUNDS / 2] > 0 ? relayed[ROUNDS / 2] / raw[ROUNDS / 2] : 0);
    if (geteuid() != 0) {
        printf("a uid per sandbox (uids.h): not root, every sandbox runs as this user\n");
        return;
    }
    double t0 = clk_now();
    int n = 0;
    for (; n < 2000; n++) {
        uid_lease l;
        char err[300];
        if (uid_take(&l, err, sizeof err) != 0) {
            printf("a uid per sandbox: %s\n", err);
            return;
        }
        uid_give(&l);
    }
    printf("a uid per sandbox (uids.h): a lease taken and given back in %.1f us (mean of %d); every bot start pays it "
           "once\n", (clk_now() - t0) / n * 1e6, n);
}

int main(int argc, char **argv)
{
    const char *bot = argc > 1 ? argv[1] : "build/bench/bin/random";
    char init[600];
    snprintf(init, sizeof init, "%.*s/arena-init", (int)(strrchr(bot, '/') ? strrchr(bot, '/') - bot : 1),
             strrchr(bot, '/') ? bot : ".");
    setenv("ARENA_INIT", init, 0); /* the sandbox's process 1, next to the bots (this program is elsewhere) */
    ag_command cmd, plain;
    char err[512];
    if (ag_command_parse(bot, NULL, &cmd, err, sizeof err) != 0) {
        fprintf(stderr, "bench_match: %s\n", err);
        return 1;
    }
    plain = cmd;
    plain.sandbox.off = true;
    signal(SIGPIPE, SIG_IGN);
    double raw = raw_round_trip(500, 24, 24);
    printf("match runner: bin/random vs bin/random, classical, through arena's coordinator loop\n");
    printf("raw ZeroMQ DEALER/ROUTER round trip over ipc (two processes, median of 7 x 500): %.1f us\n", raw);
    rn_agent agents[2] = { { .name = "random", .command = &cmd }, { .name = "random", .command = &cmd } };
    rn_agent plains[2] = { { .name = "random", .command = &plain }, { .name = "random", .command = &plain } };
    double boxed = start_time(agents, 21), bare = start_time(plains, 21);
    printf("bot start (start, hello, stop; median of 21): %.1f ms in its sandbox, %.1f ms as a plain process "
           "(baseline): %.2fx, +%.1f ms\n", boxed * 1e3, bare * 1e3, bare > 0 ? boxed / bare : 0, (boxed - bare) * 1e3);
    cgroup_cost(boxed);
    printf("%-6s %5s %-8s %7s %10s %12s %14s %10s\n", "board", "conc", "sandbox", "games", "games/s", "attempts/s",
           "us/attempt", "x raw RTT");
    static const struct { int size, conc; long games; } runs[] = {
        { 5, 1, 400 }, { 5, 2, 400 }, { 11, 1, 80 }, { 11, 2, 80 },
    };
    for (size_t j = 0; j < 2 * sizeof runs / sizeof runs[0]; j++) {
        size_t i = j / 2;
        bool in_sandbox = j % 2 == 0;
        bench_run b = { .games = runs[i].games, .size = runs[i].size };
        rn_config cfg = { .agents = in_sandbox ? agents : plains, .n_agents = 2, .concurrency = runs[i].conc, .move_ms = 10000,
                          .margin_ms = 50, .handshake_ms = 10000, .ping_ms = 10000, .log_dir = "/tmp/arena-bench-logs",
                          .log_prefix = "bench", .next_game = bench_next_game, .finished = bench_finished, .user = &b };
        double t0 = clk_now();
        if (rn_run(&cfg, err, sizeof err) != RN_DONE) {
            fprintf(stderr, "bench_match: %s\n", err);
            return 1;
        }
        double s = clk_now() - t0, us = s / (double)b.attempts * 1e6;
        printf("%2dx%-3d %5d %-8s %7ld %10.1f %12.0f %14.1f %9.2fx\n", runs[i].size, runs[i].size, runs[i].conc,
               in_sandbox ? "on" : "off", b.games, b.games / s, b.attempts / s, us, us / raw);
    }
    printf("(x raw RTT: wall time per attempt over the raw round trip; at concurrency 2 games overlap, so it can "
           "drop below 1)\n");
    protocol_figures(bot);
    output_figures(bot);
    isolation_figures();
    fair_timing_figures(agents);
    return 0;
}
