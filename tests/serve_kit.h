/* tests/serve_kit.h — what the tests and the benchmark of `arena serve` share: starting the server on a free
 * port (it prints the port it listens on) and stopping it, one HTTP exchange over a plain socket (any bytes, so
 * malformed requests can be sent as they are), a GET with its status, content type and body split out, the
 * resident memory of a process, and the small league config its tests play. */
#ifndef TESTS_SERVE_KIT_H
#define TESTS_SERVE_KIT_H

#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

/* Starts `ARENA/arena serve --db DB --listen 127.0.0.1:0 EXTRA...` (extra: NULL-terminated, may be NULL) with
 * its stderr to `errlog` (may be NULL: /dev/null); waits (60 s at most) for the line that gives its port.
 * Returns its pid with *port set, or -1. */
static inline pid_t serve_start(const char *bin, const char *db, const char *const *extra, const char *errlog,
                                int *port)
{
    int fd[2];
    if (pipe(fd) != 0)
        return -1;
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        char arena[1024];
        snprintf(arena, sizeof arena, "%.1000s/arena", bin);
        const char *argv[40] = { arena, "serve", "--db", db, "--listen", "127.0.0.1:0" };
        int n = 6;
        for (int i = 0; extra && extra[i] && n < 39; i++)
            argv[n++] = extra[i];
        argv[n] = NULL;
        dup2(fd[1], 1);
        close(fd[0]);
        close(fd[1]);
        if (!freopen(errlog ? errlog : "/dev/null", "a", stderr))
            _exit(126);
        execv(arena, (char *const *)argv);
        _exit(127);
    }
    close(fd[1]);
    char line[512];
    size_t len = 0;
    struct pollfd p = { fd[0], POLLIN, 0 };
    while (len + 1 < sizeof line && !memchr(line, '\n', len) && poll(&p, 1, 60000) == 1) {
        ssize_t k = read(fd[0], line + len, sizeof line - 1 - len);
        if (k <= 0)
            break;
        len += (size_t)k;
    }
    close(fd[0]);
    line[len] = '\0';
    const char *at = strstr(line, "http://127.0.0.1:");
    if (!at) {
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        return -1;
    }
    *port = atoi(at + strlen("http://127.0.0.1:"));
    return pid;
}

/* SIGTERM, then its exit status (-1: it did not exit normally, e.g. it crashed). */
static inline int serve_stop(pid_t pid)
{
    int st;
    kill(pid, SIGTERM);
    if (waitpid(pid, &st, 0) != pid)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* A suite's teardown: the server stopped (its status said when it is not 0) and the test's directory removed.
 * Returns 0, or -1 (cmocka's teardown failure) when either went wrong. */
static inline int serve_teardown(pid_t pid, const char *dir)
{
    int st = serve_stop(pid);
    if (st != 0)
        fprintf(stderr, "arena serve exited with %d\n", st);
    char rm[600];
    snprintf(rm, sizeof rm, "rm -rf '%s'", dir);
    return st == 0 && system(rm) == 0 ? 0 : -1;
}

/* A connected socket to 127.0.0.1:port from the loopback address `from` (127.0.0.0/8: a client of its own, as the
 * server counts them; NULL: the kernel's choice, 127.0.0.1) with receive and send timeouts of `seconds`; -1 on
 * failure. */
static inline int serve_connect_from(int port, int seconds, const char *from)
{
    int s = socket(AF_INET, SOCK_STREAM, 0);
    if (s < 0)
        return -1;
    struct timeval tv = { seconds, 0 };
    setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(s, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    if (from) {
        struct sockaddr_in me = { .sin_family = AF_INET };
        inet_pton(AF_INET, from, &me.sin_addr);
        if (bind(s, (struct sockaddr *)&me, sizeof me) != 0) {
            close(s);
            return -1;
        }
    }
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    if (connect(s, (struct sockaddr *)&a, sizeof a) != 0) {
        close(s);
        return -1;
    }
    return s;
}

/* The same from 127.0.0.1. */
static inline int serve_connect(int port, int seconds)
{
    return serve_connect_from(port, seconds, NULL);
}

/* Sends `len` bytes of request and reads the answer to its end (the server closes: requests say
 * "Connection: close" or are HTTP/1.0), 60 s at most. Returns it (malloc'd, NUL-terminated, *n its length
 * when n is not NULL), "" when the server closed without answering, NULL when it could not be reached. */
static inline char *serve_exchange(int port, const char *req, size_t len, size_t *n)
{
    int s = serve_connect(port, 60);
    if (s < 0)
        return NULL;
    size_t off = 0;
    while (off < len) {
        ssize_t k = send(s, req + off, len - off, MSG_NOSIGNAL);
        if (k <= 0)
            break;
        off += (size_t)k;
    }
    size_t cap = 1 << 16, got = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (got + 4096 > cap)
            buf = realloc(buf, cap *= 2);
        ssize_t k = recv(s, buf + got, cap - got - 1, 0);
        if (k <= 0)
            break;
        got += (size_t)k;
    }
    close(s);
    buf[got] = '\0';
    if (n)
        *n = got;
    return buf;
}

typedef struct {
    int status;
    char type[128];
    char *head, *body;                 /* head: the raw response (malloc'd); body points into it */
    size_t body_len;
} serve_reply;

/* GET path (with `accept` as the Accept header when not NULL), or another method. status 0: no answer. */
static inline serve_reply serve_request(int port, const char *method, const char *path, const char *accept)
{
    char req[4096];
    int len = snprintf(req, sizeof req, "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n%s%s%s\r\n",
                       method, path, accept ? "Accept: " : "", accept ? accept : "", accept ? "\r\n" : "");
    size_t n = 0;
    serve_reply r = { 0 };
    r.head = serve_exchange(port, req, (size_t)len, &n);
    if (!r.head)
        return r;
    sscanf(r.head, "HTTP/1.%*d %d", &r.status);
    const char *t = strcasestr(r.head, "\r\nContent-Type: ");
    if (t)
        sscanf(t + 16, "%127[^\r]", r.type);
    char *b = strstr(r.head, "\r\n\r\n");
    r.body = b ? b + 4 : r.head + n;
    r.body_len = (size_t)(r.head + n - r.body);
    return r;
}

static inline serve_reply serve_get(int port, const char *path)
{
    return serve_request(port, "GET", path, NULL);
}

static inline void serve_reply_free(serve_reply *r)
{
    free(r->head);
    r->head = r->body = NULL;
}

/* VmRSS of process pid in kB, -1 when unknown. */
static inline long serve_rss_kb(pid_t pid)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    long kb = -1;
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "VmRSS:", 6) == 0)
            kb = atol(line + 6);
    if (f)
        fclose(f);
    return kb;
}

/* A league config of two random bots (BIN/random) named `name`, `games` games per pairing on `boards` of
 * classical, into path. Returns 0, or -1. */
static inline int serve_league_config(const char *path, const char *bin, const char *name, int games,
                                      const char *boards)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f,
            "[league]\nname = %s\nvariants = classical, abrupt\nboards = %s\ngames = %d\nconcurrency = 1\n\n"
            "[agent random]\ncommand = %s/random\nargs = --seed 1\n\n[agent random-b]\ncommand = %s/random\n"
            "args = --seed 2\n",
            name, boards, games, bin, bin);
    return fclose(f) == 0 ? 0 : -1;
}

#endif
