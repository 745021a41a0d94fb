/* tests/bench/bench_league.c — league throughput: (a) the coordinator's cost per move against the raw transport:
 * bin/random against itself on 3x3 classical through the real coordinator loop (rn_run, concurrency 1),
 * total time over attempts (the median of 7 runs of 500 games), next to the raw ZeroMQ DEALER/ROUTER round trip over ipc between two
 * processes with a turn-sized message out and a move-sized one back, measured in the same run; (b) many
 * agents: `arena league` with 10 agents (bin/random with ten seeds) against 2 agents, the same number of
 * games on 3x3, concurrency 2, with the bots in their sandboxes and as plain processes: games/s of each,
 * their ratio, and how many bot processes each league started (its log files: one per process). The
 * league configs, databases and logs go to a temporary directory removed at the end. Figures only;
 * nothing is asserted.
 *
 * usage: bench_league [ARENA [BOT [a|b]]]   (default build/bench/bin/arena, build/bench/bin/random; a or b: that
 * part only) */
#define _GNU_SOURCE
#include <dirent.h>
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
#include "clock.h"

/* The encoded sizes of a turn (one event: the opponent's attempt) and of a move, on 3x3. */
static void message_sizes(size_t *turn, size_t *move)
{
    static pm_msg m;
    static uint8_t buf[PM_MAX_MESSAGE];
    memset(&m, 0, sizeof m);
    m.type = PM_TURN;
    m.game = 1234;
    m.n_events = 1;
    m.events[0].kind = HX_EV_OPP_PLACED;
    m.events[0].cell = 4;
    *turn = pm_encode(&m, buf, sizeof buf);
    memset(&m, 0, sizeof m);
    m.type = PM_MOVE;
    m.game = 1234;
    m.cell = 4;
    *move = pm_encode(&m, buf, sizeof buf);
}

/* Microseconds per attempt of `games` 3x3 games of two instant bots at concurrency 1; 0 on failure. */
static double one_run(const rn_agent *agents, long games, const char *logs)
{
    bench_run b = { .games = games, .size = 3 };
    rn_config cfg = { .agents = agents, .n_agents = 2, .concurrency = 1, .move_ms = 10000, .margin_ms = 50,
                      .handshake_ms = 10000, .ping_ms = 10000, .log_dir = logs, .log_prefix = "bench",
                      .next_game = bench_next_game, .finished = bench_finished, .user = &b };
    char err[512];
    double t0 = clk_now();
    if (rn_run(&cfg, err, sizeof err) != RN_DONE) {
        fprintf(stderr, "bench_league: %s\n", err);
        return 0;
    }
    return (clk_now() - t0) / (double)b.attempts * 1e6;
}

/* The median of 7 runs of one_run (a machine shared with other work makes single runs noisy). */
static double per_move(const rn_agent *agents, long games, const char *logs)
{
    double us[7];
    for (int i = 0; i < 7; i++)
        if ((us[i] = one_run(agents, games, logs)) <= 0)
            return 0;
    qsort(us, 7, sizeof us[0], by_value);
    return us[3];
}

static int count_logs(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    int n = 0;
    if (!d)
        return 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strncmp(e->d_name, prefix, strlen(prefix)) == 0 && strstr(e->d_name, ".log") &&
             !strstr(e->d_name, "-connections.log");
    closedir(d);
    return n;
}

typedef struct {
    double games_per_s;
    long played;
    int processes;
} league_figures;

/* Writes a round robin of n_agents copies of `bot` (seeds 1..n) on 3x3 classical, `per_pairing` games a
 * pairing, and times `arena league` on it from start to exit. */
static int run_league(const char *arena, const char *bot, const char *tmp, int n_agents, int per_pairing,
                      bool sandbox, league_figures *f)
{
    char name[64], cfg[600], db[600], logs[600], cmd[3000];
    snprintf(name, sizeof name, "bench%d%s", n_agents, sandbox ? "box" : "plain");
    snprintf(cfg, sizeof cfg, "%s/%s.ini", tmp, name);
    snprintf(db, sizeof db, "%s/%s.db", tmp, name);
    snprintf(logs, sizeof logs, "%s/logs", tmp);
    FILE *out = fopen(cfg, "w");
    if (!out)
        return -1;
    fprintf(out, "[league]\nname = %s\nvariants = classical\nboards = 3x3\ngames = %d\nmove_time_ms = 2000\n"
                 "concurrency = 2\nseed = 1\nsandbox = %s\n",
            name, per_pairing, sandbox ? "on" : "off");
    for (int a = 0; a < n_agents; a++)
        fprintf(out, "\n[agent r%d]\ncommand = %s\nargs = --seed %d\nvariants = classical\nboards = 3x3\n", a + 1, bot,
                a + 1);
    fclose(out);
    snprintf(cmd, sizeof cmd, "'%s' league '%s' --db '%s' --logs '%s' --quiet --json", arena, cfg, db, logs);
    double t0 = clk_now();
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    char text[4096] = "";
    size_t got = fread(text, 1, sizeof text - 1, p);
    text[got] = '\0';
    int rc = pclose(p);
    double s = clk_now() - t0;
    const char *played = strstr(text, "\"played\":");
    if (rc != 0 || !played) {
        fprintf(stderr, "bench_league: %s: status %d: %s\n", cmd, rc, text);
        return -1;
    }
    f->played = strtol(played + 9, NULL, 10);
    f->games_per_s = f->played / s;
    char prefix[80];
    snprintf(prefix, sizeof prefix, "league-%s-", name); /* league-NAME-AGENT-N.log: see cmd_league.c */
    f->processes = count_logs(logs, prefix);
    return 0;
}

int main(int argc, char **argv)
{
    const char *arena = argc > 1 ? argv[1] : "build/bench/bin/arena";
    const char *bot = argc > 2 ? argv[2] : "build/bench/bin/random";
    const char *part = argc > 3 ? argv[3] : "ab";
    char init[600], abs_bot[4096], abs_arena[4096];
    if (!realpath(bot, abs_bot) || !realpath(arena, abs_arena)) {
        fprintf(stderr, "bench_league: %s or %s: not found (run `make bench`)\n", arena, bot);
        return 1;
    }
    snprintf(init, sizeof init, "%.*s/arena-init", (int)(strrchr(abs_bot, '/') - abs_bot), abs_bot);
    setenv("ARENA_INIT", init, 0); /* the sandbox's process 1, next to the bots (this program is elsewhere) */
    signal(SIGPIPE, SIG_IGN);
    char tmp[] = "/tmp/arena-bench-league-XXXXXX", logs[600];
    if (!mkdtemp(tmp)) {
        perror("bench_league: mkdtemp");
        return 1;
    }
    snprintf(logs, sizeof logs, "%s/logs", tmp);

    ag_command cmd, plain;
    char err[512];
    if (ag_command_parse(abs_bot, NULL, &cmd, err, sizeof err) != 0) {
        fprintf(stderr, "bench_league: %s\n", err);
        return 1;
    }
    plain = cmd;
    plain.sandbox.off = true;
    size_t turn, move;
    message_sizes(&turn, &move);
    double raw = raw_round_trip(1000, turn, move);
    printf("league throughput: bin/random, classical 3x3\n");
    if (!strchr(part, 'a'))
        goto leagues;
    printf("raw ZeroMQ DEALER/ROUTER round trip over ipc (two processes, %zu-byte turn out, %zu-byte move back, "
           "median of 7 x 1000): %.1f us\n", turn, move, raw);
    rn_agent boxed[2] = { { .name = "random", .command = &cmd }, { .name = "random", .command = &cmd } };
    rn_agent plains[2] = { { .name = "random", .command = &plain }, { .name = "random", .command = &plain } };
    printf("%-8s %7s %14s %10s\n", "sandbox", "games", "us/attempt", "x raw RTT");
    for (int j = 0; j < 2; j++) {
        double us = per_move(j == 0 ? plains : boxed, 500, logs);
        if (us <= 0)
            return 1;
        printf("%-8s %7d %14.1f %9.2fx\n", j == 0 ? "off" : "on", 7 * 500, us, us / raw);
    }
    printf("(us/attempt: wall time of 500 games at concurrency 1 over their attempts, game starts and ends "
           "included; the median of 7 runs)\n\n");
    if (!strchr(part, 'b'))
        goto done;
leagues:
    printf("arena league, round robin, concurrency 2, the same number of games with 2 and 10 agents:\n");
    printf("%-8s %7s %7s %10s %10s %12s\n", "sandbox", "agents", "games", "games/s", "processes", "x 2 agents");
    for (int j = 0; j < 2; j++) {
        bool sandbox = j == 1;
        league_figures two, ten;
        if (run_league(abs_arena, abs_bot, tmp, 2, 450, sandbox, &two) != 0 ||
            run_league(abs_arena, abs_bot, tmp, 10, 10, sandbox, &ten) != 0)
            return 1;
        printf("%-8s %7d %7ld %10.1f %10d %11.2fx\n", sandbox ? "on" : "off", 2, two.played, two.games_per_s,
               two.processes, 1.0);
        printf("%-8s %7d %7ld %10.1f %10d %11.2fx\n", sandbox ? "on" : "off", 10, ten.played, ten.games_per_s,
               ten.processes, two.games_per_s / ten.games_per_s);
    }
    printf("(games/s: wall time of the whole `arena league` run, start-up and shutdown included; "
           "x 2 agents: how many times slower than 2 agents)\n");
done:;
    char rm[700];
    snprintf(rm, sizeof rm, "rm -rf '%s'", tmp);
    if (system(rm) != 0)
        fprintf(stderr, "bench_league: cannot remove %s\n", tmp);
    return 0;
}
