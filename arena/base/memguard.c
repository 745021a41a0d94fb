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

/* The child's side: the step's output gathered in memory, then sent as [rc][length][bytes]. */
static void mg_child(mg_stream_step step, void *ctx, int fd)
{
    char *data = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&data, &len);
    if (!m)
        _exit(1);
    int rc = step(ctx, m);
    if (fclose(m) != 0)
        _exit(1);
    uint64_t n = len;
    mg_write_all(fd, &rc, sizeof rc);
    mg_write_all(fd, &n, sizeof n);
    mg_write_all(fd, data, len);
    _exit(0);
}

int mg_run_stream(mg_stream_step step, void *ctx, double limit_mb, double limit_s, char **out, size_t *outlen,
                  mg_result *r)
{
    *r = (mg_result){ .status = MG_FAILED };
    *out = NULL, *outlen = 0;
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
        mg_child(step, ctx, fd[1]);
    }
    close(fd[1]);
    char status_path[64];
    snprintf(status_path, sizeof status_path, "/proc/%d/smaps_rollup", (int)pid);
    size_t got = 0, cap = 4096;
    char *buf = malloc(cap + 1);
    bool over = false, late = false, eof = false;
    double next_read = t0; /* when smaps_rollup is read next */
    while (buf && !eof && !over && !late) {
        double now = clk_now(), wait = fmax(next_read - now, 0);
        if (limit_s > 0)
            wait = fmin(wait, fmax(t0 + limit_s - now, 0));
        struct pollfd pf = { .fd = fd[0], .events = POLLIN };
        int ready = poll(&pf, 1, (int)(wait * 1000) + 1);
        if (ready > 0) {
            if (got == cap) {
                char *more = realloc(buf, 2 * cap + 1);
                if (!more) {
                    free(buf);
                    buf = NULL;
                    break;
                }
                buf = more, cap *= 2;
            }
            ssize_t n = read(fd[0], buf + got, cap - got);
            if (n > 0)
                got += (size_t)n;
            else if (n == 0 || errno != EINTR)
                eof = true;
        }
        now = clk_now();
        if (limit_s > 0 && !eof && now - t0 >= limit_s) {
            late = true;
            break;
        }
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
    if (!buf || over || late)
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
    if (over || late) {
        r->status = over ? MG_OVER : MG_LATE;
        if (over)
            snprintf(r->why, sizeof r->why, "stopped after %.1f s at %.0f MB added: over the memory limit of %.0f MB",
                     r->seconds, r->peak_mb, limit_mb);
        else
            snprintf(r->why, sizeof r->why, "stopped after %.1f s: over the time limit of %g s", r->seconds,
                     limit_s);
        free(buf);
        return -1;
    }
    int rc = 0;
    uint64_t n = 0;
    if (got >= sizeof rc + sizeof n) {
        memcpy(&rc, buf, sizeof rc);
        memcpy(&n, buf + sizeof rc, sizeof n);
    }
    if (got < sizeof rc + sizeof n || n != got - sizeof rc - sizeof n) {
        if (WIFSIGNALED(st))
            snprintf(r->why, sizeof r->why, "the step died of signal %d (%s) after %.1f s", WTERMSIG(st),
                     strsignal(WTERMSIG(st)), r->seconds);
        else
            snprintf(r->why, sizeof r->why, "the step exited with status %d without its result after %.1f s",
                     WIFEXITED(st) ? WEXITSTATUS(st) : -1, r->seconds);
        free(buf);
        return -1;
    }
    memmove(buf, buf + sizeof rc + sizeof n, (size_t)n);
    buf[n] = 0;
    *out = buf, *outlen = (size_t)n;
    r->status = MG_DONE;
    return rc;
}

/* mg_run's step as a streaming one: the block filled, then written whole. */
typedef struct {
    mg_step step;
    void *ctx;
    size_t outlen;
} mg_block_step;

static int mg_block(void *ctx, FILE *out)
{
    mg_block_step *b = ctx;
    void *blk = calloc(1, b->outlen ? b->outlen : 1);
    if (!blk)
        _exit(1);
    int rc = b->step(b->ctx, blk, b->outlen);
    fwrite(blk, 1, b->outlen, out);
    return rc;
}

int mg_run(mg_step step, void *ctx, double limit_mb, void *out, size_t outlen, mg_result *r)
{
    memset(out, 0, outlen);
    mg_block_step b = { .step = step, .ctx = ctx, .outlen = outlen };
    char *data = NULL;
    size_t len = 0;
    int rc = mg_run_stream(mg_block, &b, limit_mb, 0, &data, &len, r);
    if (r->status != MG_DONE)
        return -1;
    if (len != outlen) {
        r->status = MG_FAILED;
        snprintf(r->why, sizeof r->why, "the step returned %zu bytes, not %zu", len, outlen);
        free(data);
        return -1;
    }
    memcpy(out, data, outlen);
    free(data);
    return rc;
}
