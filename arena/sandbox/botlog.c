/* arena/sandbox/botlog.c — a bot process's log: its output read from a pipe and appended to the file, capped at
 * log_mb, with the coordinator's lines in order (contract in botlog.h). */
#define _GNU_SOURCE /* pipe2 */
#include "botlog.h"
#include "logline.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct bl_log {
    char path[1024];
    int rd, wr;         /* the pipe's ends, -1 once closed */
    unsigned mb;        /* the cap in MiB, 0: none */
    uint64_t written;   /* the process's bytes in the file */
    bool capped;        /* the cap was reached and more came: the rest is dropped */
    bool mid_line;      /* the last byte the process got into the file was not a newline */
};

static char chunk[BL_CHUNK]; /* one thread (botlog.h) */

bl_log *bl_open(const char *path, unsigned log_mb, char *err, size_t errlen)
{
    bl_log *l = calloc(1, sizeof *l);
    if (!l) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    l->rd = l->wr = -1;
    l->mb = log_mb;
    if (snprintf(l->path, sizeof l->path, "%s", path) >= (int)sizeof l->path) {
        snprintf(err, errlen, "log name too long: %.60s...", path);
        free(l);
        return NULL;
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) {
        snprintf(err, errlen, "cannot open its log %s: %s", path, strerror(errno));
        free(l);
        return NULL;
    }
    close(fd);
    int p[2] = { -1, -1 };
    if (pipe2(p, O_CLOEXEC) != 0 || fcntl(p[0], F_SETFL, O_NONBLOCK) != 0) {
        snprintf(err, errlen, "cannot make a pipe for its log: %s", strerror(errno));
        for (int i = 0; i < 2; i++)
            if (p[i] >= 0)
                close(p[i]);
        free(l);
        return NULL;
    }
    l->rd = p[0];
    l->wr = p[1];
    return l;
}

int bl_writer(const bl_log *l)
{
    return l->wr;
}

void bl_close_writer(bl_log *l)
{
    if (l->wr >= 0)
        close(l->wr);
    l->wr = -1;
}

int bl_fd(const bl_log *l)
{
    return l->rd;
}

/* Appends n bytes to the file (skipped when it cannot be opened: logs never stop a run). */
static void append(const bl_log *l, const char *data, size_t n)
{
    int fd = open(l->path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0)
        return;
    while (n > 0) {
        ssize_t w = write(fd, data, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        data += w;
        n -= (size_t)w;
    }
    close(fd);
}

static void put_line(bl_log *l, const char *fmt, va_list ap)
{
    char line[2048];
    size_t at = 0;
    if (l->mid_line)
        line[at++] = '\n';
    at += log_format(line + at, sizeof line - at, fmt, ap);
    append(l, line, at);
    l->mid_line = false;
}

static void say(bl_log *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(bl_log *l, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    put_line(l, fmt, ap);
    va_end(ap);
}

/* The process's n bytes: into the file up to the cap; at the first byte past it, the line saying so. */
static void keep(bl_log *l, const char *data, size_t n)
{
    if (l->capped)
        return;
    uint64_t cap = (uint64_t)l->mb << 20, room = l->mb ? cap - l->written : n;
    size_t k = room < n ? (size_t)room : n;
    if (k > 0) {
        append(l, data, k);
        l->written += k;
        l->mid_line = data[k - 1] != '\n';
    }
    if (k < n) {
        l->capped = true;
        say(l, "log limit %u MiB reached; the rest of this process's output is dropped", l->mb);
    }
}

size_t bl_pump(bl_log *l, size_t budget)
{
    size_t total = 0;
    while (l && l->rd >= 0 && total < budget) {
        size_t want = budget - total < sizeof chunk ? budget - total : sizeof chunk;
        ssize_t n = read(l->rd, chunk, want);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            break;
        if (n <= 0) { /* its end: every writer is gone */
            close(l->rd);
            l->rd = -1;
            break;
        }
        total += (size_t)n;
        keep(l, chunk, (size_t)n);
        if ((size_t)n < want)
            break; /* nothing more for now */
    }
    return total;
}

void bl_line(bl_log *l, const char *fmt, ...)
{
    bl_pump(l, BL_DRAIN);
    va_list ap;
    va_start(ap, fmt);
    put_line(l, fmt, ap);
    va_end(ap);
}

void bl_finish(bl_log *l)
{
    bl_pump(l, BL_DRAIN);
    if (l->rd >= 0)
        close(l->rd);
    l->rd = -1;
    bl_close_writer(l);
}

void bl_free(bl_log *l)
{
    if (!l)
        return;
    bl_finish(l);
    free(l);
}

uint64_t bl_written(const bl_log *l)
{
    return l->written;
}

int bl_capped(const bl_log *l)
{
    return l->capped;
}
