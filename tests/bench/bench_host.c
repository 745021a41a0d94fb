/* tests/bench/bench_host.c — what a bot on an agent host costs per move: the same league (bin/random against
 * itself, 400 games of classical 3x3, concurrency 1, sandboxes on) played with both agents started by the
 * coordinator (ipc) and with both on an `arena host` connected over tcp on the loopback (CurveZMQ, the host
 * relaying each bot's connection), wall time over attempts for each, and their ratio, measured in the same run.
 * Figures only; nothing is asserted.
 *
 * usage: bench_host [ARENA [BOT]]   (default build/bench/bin/arena, build/bench/bin/random) */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sqlite3.h>

#include "clock.h"

static char tmp[] = "/tmp/arena-bench-host-XXXXXX";

static long attempts_in(const char *db)
{
    sqlite3 *d;
    long n = 0;
    if (sqlite3_open_v2(db, &d, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK) {
        sqlite3_stmt *st;
        if (sqlite3_prepare_v2(d, "SELECT count(*) FROM attempts", -1, &st, NULL) == SQLITE_OK &&
            sqlite3_step(st) == SQLITE_ROW)
            n = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
    }
    sqlite3_close(d);
    return n;
}

static char *output(const char *cmd)
{
    FILE *p = popen(cmd, "r");
    static char buf[256];
    buf[0] = '\0';
    if (p) {
        if (!fgets(buf, sizeof buf, p))
            buf[0] = '\0';
        pclose(p);
    }
    buf[strcspn(buf, "\n")] = '\0';
    return buf;
}

int main(int argc, char **argv)
{
    const char *arena = argc > 1 ? argv[1] : "build/bench/bin/arena";
    const char *bot = argc > 2 ? argv[2] : "build/bench/bin/random";
    char abs_arena[1024], abs_bot[1024], cwd[512];
    if (!getcwd(cwd, sizeof cwd) || !mkdtemp(tmp))
        return 1;
    snprintf(abs_arena, sizeof abs_arena, "%s%s%s", arena[0] == '/' ? "" : cwd, arena[0] == '/' ? "" : "/", arena);
    snprintf(abs_bot, sizeof abs_bot, "%s%s%s", bot[0] == '/' ? "" : cwd, bot[0] == '/' ? "" : "/", bot);
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "cd %s && '%s' keygen coord.key >/dev/null && '%s' keygen host.key >/dev/null", tmp,
             abs_arena, abs_arena);
    if (system(cmd) != 0)
        return 1;
    char coord[64], hostk[64];
    snprintf(cmd, sizeof cmd, "sed -n 's/^public = //p' %s/coord.key.pub", tmp);
    snprintf(coord, sizeof coord, "%s", output(cmd));
    snprintf(cmd, sizeof cmd, "sed -n 's/^public = //p' %s/host.key.pub", tmp);
    snprintf(hostk, sizeof hostk, "%s", output(cmd));
    int port = atoi(output("python3 -c 'import socket; s=socket.socket(); s.bind((\"127.0.0.1\", 0)); "
                           "print(s.getsockname()[1])'"));
    for (int remote = 0; remote < 2; remote++) {
        char ini[256];
        snprintf(ini, sizeof ini, "%s/%s.ini", tmp, remote ? "far" : "near");
        FILE *f = fopen(ini, "w");
        if (!f)
            return 1;
        fprintf(f, "[league]\nname = %s\nvariants = classical\nboards = 3x3\ngames = 400\nconcurrency = 1\n"
                   "openings = none\nlisten = tcp://127.0.0.1:%d\nserver_key = coord.key\n",
                remote ? "far" : "near", port);
        for (int a = 1; a <= 2; a++)
            if (remote)
                fprintf(f, "[agent r%d]\nhost = %s\nvariants = classical\nboards = 3x3\n", a, hostk);
            else
                fprintf(f, "[agent r%d]\ncommand = %s\nargs = --seed %d\n", a, abs_bot, a);
        fclose(f);
        pid_t host = -1;
        if (remote) {
            snprintf(cmd, sizeof cmd,
                     "cd %s && exec '%s' host --connect tcp://127.0.0.1:%d --server-key '%s' --key host.key "
                     "--logs hostlogs r1='%s --seed 1' r2='%s --seed 2' >host.out 2>&1",
                     tmp, abs_arena, port, coord, abs_bot, abs_bot);
            host = fork();
            if (host == 0) {
                execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
                _exit(127);
            }
            usleep(300 * 1000);
        }
        snprintf(cmd, sizeof cmd, "cd %s && '%s' league %s.ini --db %s.db --logs logs --quiet >/dev/null 2>&1", tmp,
                 abs_arena, remote ? "far" : "near", remote ? "far" : "near");
        double t0 = clk_now();
        int rc = system(cmd);
        double took = clk_now() - t0;
        if (host > 0) {
            kill(host, SIGTERM);
            waitpid(host, NULL, 0);
        }
        char db[256];
        snprintf(db, sizeof db, "%s/%s.db", tmp, remote ? "far" : "near");
        long n = attempts_in(db);
        static double per[2];
        per[remote] = n ? took / (double)n * 1e6 : 0;
        printf("%-36s %s: 400 games, %ld attempts in %.2f s: %.1f us per attempt%s\n",
               remote ? "agents on a host (tcp, loopback)" : "agents started by the coordinator",
               rc == 0 ? "ok" : "FAILED", n, took, per[remote], remote && per[0] > 0 ? "" : "");
        if (remote && per[0] > 0)
            printf("a move through a host costs %.2fx a move of a bot started by the coordinator (%.1f us more)\n",
                   per[1] / per[0], per[1] - per[0]);
    }
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
    return system(cmd) == 0 ? 0 : 1;
}
