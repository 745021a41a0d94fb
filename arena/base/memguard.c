/* arena/base/memguard.c — a step in a forked child watched for the resident memory it adds (memguard.h): its
 * private pages (Private_Clean + Private_Dirty of /proc/PID/smaps_rollup), that is every page it allocated or
 * wrote since the fork, not the pages it still shares with the parent. */
#define _GNU_SOURCE
#include "memguard.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"

/* Reading smaps_rollup walks the child's page tables, a cost that grows with its size: every MG_POLL_MS the
 * first second, then every MG_POLL_SLOW_MS, and at least MG_COST_RATIO times the last read's cost apart. */
enum { MG_POLL_MS = 10, MG_POLL_SLOW_MS = 100, MG_COST_RATIO = 20 };

/* The value in kB of a "Field:   N kB" line of a /proc file, or -1. */
static double mg_field_kb(const char *path, const char *field)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[256];
    double kb = -1;
    size_t n = strlen(field);
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, field, n) && line[n] == ':') {
            kb = atof(line + n + 1);
            break;
        }
    fclose(f);
    return kb;
}

double mg_available_mb(void)
{
    double kb = mg_field_kb("/proc/meminfo", "MemAvailable");
    return kb < 0 ? -1 : kb / 1024;
}

static void mg_write_all(int fd, const void *buf, size_t len)
{
    const char *p = buf;
    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            _exit(1);
        p += w, len -= (size_t)w;
    }
}

int mg_run(mg_step step, void *ctx, double limit_mb, void *out, size_t outlen, mg_result *r)
{
    *r = (mg_result){ .status = MG_FAILED };
    memset(out, 0, outlen);
    int fd[2];
    if (pipe2(fd, O_CLOEXEC) != 0) {
        snprintf(r->why, sizeof r->why, "pipe: %s", strerror(errno));
        return -1;
    }
    fflush(stdout), fflush(stderr);
    double t0 = clk_now();
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(r->why, sizeof r->why, "fork: %s", strerror(errno));
        close(fd[0]), close(fd[1]);
        return -1;
    }
    if (pid == 0) {
        close(fd[0]);
        int rc = step(ctx, out, outlen);
        mg_write_all(fd[1], &rc, sizeof rc);
        mg_write_all(fd[1], out, outlen);
        _exit(0);
    }
    close(fd[1]);
    char status_path[64];
    snprintf(status_path, sizeof status_path, "/proc/%d/smaps_rollup", (int)pid);
    int rc = 0;
    size_t got = 0, want = sizeof rc + outlen;
    char *buf = malloc(want);
    bool over = false, eof = false;
    double next_read = t0; /* when smaps_rollup is read next */
    while (buf && !eof && !over) {
        double now = clk_now(), wait = fmax(next_read - now, 0);
        struct pollfd pf = { .fd = fd[0], .events = POLLIN };
        int ready = poll(&pf, 1, (int)(wait * 1000) + 1);
        if (ready > 0) {
            ssize_t n = read(fd[0], buf + got, want - got);
            if (n > 0)
                got += (size_t)n;
            else if (n == 0 || errno != EINTR)
                eof = true;
            if (got == want)
                break;
        }
        now = clk_now();
        if (now < next_read)
            continue;
        double dirty = mg_field_kb(status_path, "Private_Dirty"), clean = mg_field_kb(status_path, "Private_Clean");
        double cost = clk_now() - now, added = (fmax(dirty, 0) + fmax(clean, 0)) / 1024;
        /* the next read: MG_POLL_MS apart the first second, then MG_POLL_SLOW_MS, and never sooner than
         * MG_COST_RATIO times this read's cost (about 13 ms a read of a child of 2 GB in small allocations,
         * so a 20 GB child is read every 2.5 s: the guard's own cost stays at a twentieth of a core) */
        next_read = now + fmax((now - t0 < 1 ? MG_POLL_MS : MG_POLL_SLOW_MS) / 1000.0, cost * MG_COST_RATIO);
        if (added > r->peak_mb)
            r->peak_mb = added;
        if (limit_mb > 0 && added > limit_mb)
            over = true;
    }
    if (!buf || over)
        kill(pid, SIGKILL);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    close(fd[0]);
    r->seconds = clk_now() - t0;
    if (!buf) {
        snprintf(r->why, sizeof r->why, "out of memory");
        return -1;
    }
    if (over) {
        r->status = MG_OVER;
        snprintf(r->why, sizeof r->why, "stopped after %.1f s at %.0f MB added: over the memory limit of %.0f MB",
                 r->seconds, r->peak_mb, limit_mb);
        free(buf);
        return -1;
    }
    if (got != want) {
        if (WIFSIGNALED(st))
            snprintf(r->why, sizeof r->why, "the step died of signal %d (%s) after %.1f s", WTERMSIG(st),
                     strsignal(WTERMSIG(st)), r->seconds);
        else
            snprintf(r->why, sizeof r->why, "the step exited with status %d without its result after %.1f s",
                     WIFEXITED(st) ? WEXITSTATUS(st) : -1, r->seconds);
        free(buf);
        return -1;
    }
    memcpy(&rc, buf, sizeof rc);
    memcpy(out, buf + sizeof rc, outlen);
    free(buf);
    r->status = MG_DONE;
    return rc;
}
