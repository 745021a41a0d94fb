/* arena/sandbox/gate.c — sandboxes' own endpoints and the relay thread behind them (contract in gate.h): one epoll
 * loop accepting each sandbox's connections within its bounds and moving bytes between each and its connection to the
 * caller's ipc socket, with back-pressure (a side is read only while there is room to buffer what it sends). */
#define _GNU_SOURCE /* accept4 */
#include "gate.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

enum { T_WAKE, T_LISTEN, T_CONN };

typedef struct conn conn;

typedef struct {
    int kind;
    gt_gate *gate;
    conn *conn;
    int side;
} tag;

struct conn {
    tag tags[2];
    int fd[2];                     /* 0: the bot's end, 1: the relay's connection to the caller's socket */
    unsigned char buf[2][GT_BUF];  /* buf[i]: read from fd[i], still to be written to fd[1 - i] */
    size_t off[2], len[2];
    uint32_t events[2];            /* what epoll watches on fd[i] now */
    conn *next;                    /* in its gate's list, or in the dead list */
};

struct gt_gate {
    tag tag;
    int fd;                        /* the listening socket, -1 once it stopped listening */
    char path[sizeof ((struct sockaddr_un *)0)->sun_path];
    char upstream[sizeof ((struct sockaddr_un *)0)->sun_path];
    unsigned live, total;
    int notify;                    /* an eventfd written when a verdict comes */
    gt_verdict_kind verdict;
    bool closed;                   /* the caller closed it: the thread frees it */
    conn *conns;
    gt_gate *next_closed;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static bool started;
static int ep = -1, wake = -1;
static tag wake_tag = { T_WAKE, NULL, NULL, 0 };
static int spare = -1;             /* /dev/null, given up for a moment to take a connection off a full queue */
static unsigned budget, used;      /* descriptors the gates may hold, and hold */
static unsigned long refused;
static gt_gate *closed_list;
static conn *dead;                 /* connections closed during the current batch, freed after it */

/* ---- the relay (the thread; the lock held) ---- */

/* Leaves the epoll set, then closes: a forked child may hold the descriptor for a moment (until its exec), and epoll
 * watches the open file, not the number, so a close alone could leave events coming for memory that is gone. */
static void forget(int fd)
{
    epoll_ctl(ep, EPOLL_CTL_DEL, fd, NULL);
    close(fd);
}

static void watch(conn *c, int side)
{
    uint32_t want = 0;
    if (c->fd[side] < 0)
        return;
    if (c->len[side] < GT_BUF)
        want |= EPOLLIN;
    if (c->len[1 - side] > c->off[1 - side])
        want |= EPOLLOUT;
    if (want != c->events[side]) {
        struct epoll_event ev = { .events = want, .data.ptr = &c->tags[side] };
        epoll_ctl(ep, EPOLL_CTL_MOD, c->fd[side], &ev);
        c->events[side] = want;
    }
}

static void drop(conn *c)
{
    gt_gate *g = c->tags[0].gate;
    for (conn **p = &g->conns; *p; p = &(*p)->next)
        if (*p == c) {
            *p = c->next;
            break;
        }
    for (int i = 0; i < 2; i++)
        if (c->fd[i] >= 0) {
            forget(c->fd[i]);
            c->fd[i] = -1;
        }
    g->live--;
    used -= 3;
    c->next = dead;
    dead = c;
}

/* Writes what buf[from] holds to the other side. Returns false when that side failed. */
static bool flush(conn *c, int from)
{
    int to = 1 - from;
    while (c->len[from] > c->off[from]) {
        ssize_t n = write(c->fd[to], c->buf[from] + c->off[from], c->len[from] - c->off[from]);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return errno == EAGAIN;
        c->off[from] += (size_t)n;
    }
    c->off[from] = c->len[from] = 0;
    return true;
}

/* One side of c ended or failed: what it sent is passed on if it can be at once, and c is closed. The caller's end
 * closing first means that ZeroMQ dropped the connection. */
static void judged(gt_gate *g, gt_verdict_kind v)
{
    if (g->verdict != GT_FINE || g->closed)
        return;
    g->verdict = v;
    uint64_t one = 1;
    ssize_t w = write(g->notify, &one, sizeof one);
    (void)w;
}

static void ended(conn *c, int side)
{
    gt_gate *g = c->tags[0].gate;
    if (side == 1)
        judged(g, GT_DROPPED);
    if (c->fd[1 - side] >= 0)
        flush(c, side);
    drop(c);
}

static void on_conn(conn *c, int side, uint32_t events)
{
    if (c->fd[side] < 0)
        return;
    if (events & (EPOLLIN | EPOLLHUP | EPOLLERR)) {
        if (c->len[side] == GT_BUF && (events & (EPOLLHUP | EPOLLERR))) { /* nothing more can be read: it is over */
            ended(c, side);
            return;
        }
        if (c->len[side] < GT_BUF) {
            ssize_t n = read(c->fd[side], c->buf[side] + c->len[side], GT_BUF - c->len[side]);
            if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
                ended(c, side);
                return;
            }
            if (n > 0)
                c->len[side] += (size_t)n;
        }
        if (!flush(c, side)) {
            ended(c, 1 - side);
            return;
        }
    }
    if ((events & EPOLLOUT) && !flush(c, 1 - side)) {
        ended(c, side);
        return;
    }
    watch(c, 0);
    watch(c, 1);
}

/* Stops listening: further connections wait in the socket's queue until the gate is closed, costing nothing. */
static void stop_listening(gt_gate *g)
{
    if (g->fd >= 0) {
        forget(g->fd);
        g->fd = -1;
        used--;
    }
}

/* A connection to the caller's socket for the bot's connection `fd`; 0, or -1 (fd is then closed). */
static int relay(gt_gate *g, int fd)
{
    int up = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    struct sockaddr_un a = { .sun_family = AF_UNIX };
    snprintf(a.sun_path, sizeof a.sun_path, "%s", g->upstream);
    conn *c = up >= 0 && connect(up, (struct sockaddr *)&a, sizeof a) == 0 ? calloc(1, sizeof *c) : NULL;
    if (!c) {
        if (up >= 0)
            close(up);
        close(fd);
        return -1;
    }
    c->fd[0] = fd;
    c->fd[1] = up;
    for (int i = 0; i < 2; i++) {
        c->tags[i] = (tag){ T_CONN, g, c, i };
        c->events[i] = EPOLLIN;
        struct epoll_event ev = { .events = EPOLLIN, .data.ptr = &c->tags[i] };
        epoll_ctl(ep, EPOLL_CTL_ADD, c->fd[i], &ev);
    }
    c->next = g->conns;
    g->conns = c;
    g->live++;
    used += 3; /* the bot's end, the relay's, and libzmq's end of the relay's */
    return 0;
}

static void on_listen(gt_gate *g)
{
    for (int k = 0; k < 16 && g->fd >= 0; k++) {
        int fd = accept4(g->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0 && (errno == EMFILE || errno == ENFILE) && spare >= 0) {
            close(spare); /* take it off the queue and close it: this process has no descriptor to spare */
            fd = accept4(g->fd, NULL, NULL, SOCK_CLOEXEC);
            if (fd >= 0)
                close(fd);
            spare = open("/dev/null", O_RDONLY | O_CLOEXEC);
            refused++;
            continue;
        }
        if (fd < 0)
            return;
        if (++g->total > GT_TOTAL) {
            judged(g, GT_FLOODED);
            close(fd);
            stop_listening(g);
            return;
        }
        if (g->live >= GT_LIVE) {
            close(fd);
        } else if (used + 3 > budget) {
            close(fd);
            refused++;
        } else {
            relay(g, fd);
        }
    }
}

static void free_gate(gt_gate *g)
{
    while (g->conns)
        drop(g->conns);
    stop_listening(g);
    free(g);
}

static void *loop(void *unused)
{
    (void)unused;
    struct epoll_event evs[64];
    for (;;) {
        int n = epoll_wait(ep, evs, 64, -1);
        pthread_mutex_lock(&lock);
        for (int i = 0; i < n; i++) {
            tag *t = evs[i].data.ptr;
            if (t->kind == T_WAKE) {
                uint64_t v;
                ssize_t r = read(wake, &v, sizeof v);
                (void)r;
            } else if (t->gate->closed) {
                continue;
            } else if (t->kind == T_LISTEN) {
                on_listen(t->gate);
            } else {
                on_conn(t->conn, t->side, evs[i].events);
            }
        }
        while (closed_list) {
            gt_gate *g = closed_list;
            closed_list = g->next_closed;
            free_gate(g);
        }
        while (dead) {
            conn *c = dead;
            dead = c->next;
            free(c);
        }
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

/* ---- the caller's side ---- */

/* The relay thread and its budget, once. Returns 0, or -1 with the reason in err. */
static int start(char *err, size_t errlen)
{
    if (started)
        return 0;
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max; /* what relayed connections need, up to the hard limit */
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
        rl.rlim_cur = 1024;
    rlim_t soft = rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > (1u << 24) ? (1u << 24) : rl.rlim_cur;
    budget = (unsigned)(soft > 2 * GT_RESERVE ? soft - GT_RESERVE : soft / 2);
    ep = epoll_create1(EPOLL_CLOEXEC);
    wake = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    spare = open("/dev/null", O_RDONLY | O_CLOEXEC);
    struct epoll_event ev = { .events = EPOLLIN, .data.ptr = &wake_tag };
    pthread_t t;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    if (ep < 0 || wake < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, wake, &ev) != 0 || pthread_create(&t, &attr, loop, NULL) != 0) {
        snprintf(err, errlen, "cannot start the relay of the sandboxes' connections: %s", strerror(errno));
        pthread_attr_destroy(&attr);
        return -1;
    }
    pthread_attr_destroy(&attr);
    started = true;
    return 0;
}

gt_gate *gt_open(const char *dir, const char *upstream, uid_t uid, gid_t gid, int notify, char *err, size_t errlen)
{
    pthread_mutex_lock(&lock);
    gt_gate *g = NULL;
    if (start(err, errlen) != 0)
        goto done;
    if (used + 1 > budget) {
        snprintf(err, errlen, "no descriptor left for another sandbox's endpoint (%u of %u in use: raise the open-file "
                 "limit, ulimit -n)", used, budget);
        goto done;
    }
    g = calloc(1, sizeof *g);
    uint8_t r[8];
    if (!g || getrandom(r, sizeof r, 0) != (ssize_t)sizeof r) {
        snprintf(err, errlen, "cannot make a sandbox's endpoint: %s", g ? strerror(errno) : "out of memory");
        free(g);
        g = NULL;
        goto done;
    }
    int len = snprintf(g->path, sizeof g->path, "%s/g%02x%02x%02x%02x%02x%02x%02x%02x", dir, r[0], r[1], r[2], r[3],
                       r[4], r[5], r[6], r[7]);
    if (len >= (int)sizeof g->path || snprintf(g->upstream, sizeof g->upstream, "%s", upstream) >= (int)sizeof g->upstream) {
        snprintf(err, errlen, "cannot make a sandbox's endpoint in %s: path too long", dir);
        free(g);
        g = NULL;
        goto done;
    }
    g->tag = (tag){ T_LISTEN, g, NULL, 0 };
    g->notify = notify;
    g->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    struct sockaddr_un a = { .sun_family = AF_UNIX };
    memcpy(a.sun_path, g->path, sizeof a.sun_path);
    struct epoll_event ev = { .events = EPOLLIN, .data.ptr = &g->tag };
    if (g->fd < 0 || bind(g->fd, (struct sockaddr *)&a, sizeof a) != 0 || chmod(g->path, 0600) != 0 ||
        (geteuid() == 0 && chown(g->path, uid, gid) != 0) || listen(g->fd, 8) != 0 ||
        epoll_ctl(ep, EPOLL_CTL_ADD, g->fd, &ev) != 0) {
        snprintf(err, errlen, "cannot make a sandbox's endpoint %s: %s", g->path, strerror(errno));
        if (g->fd >= 0) {
            close(g->fd);
            unlink(g->path);
        }
        free(g);
        g = NULL;
        goto done;
    }
    used++;
done:
    pthread_mutex_unlock(&lock);
    return g;
}

const char *gt_path(const gt_gate *g)
{
    return g->path;
}

gt_verdict_kind gt_verdict(gt_gate *g, char *why, size_t n)
{
    pthread_mutex_lock(&lock);
    gt_verdict_kind v = g->verdict;
    pthread_mutex_unlock(&lock);
    if (v == GT_FLOODED)
        snprintf(why, n, "opened more than %d connections to the arena", GT_TOTAL);
    else if (v == GT_DROPPED)
        snprintf(why, n, "its connection was dropped by the transport: a frame over the size limit, bytes that are "
                 "not ZMTP, or a failed handshake");
    return v;
}

void gt_close(gt_gate *g)
{
    if (!g)
        return;
    pthread_mutex_lock(&lock);
    unlink(g->path);
    g->closed = true;
    g->next_closed = closed_list;
    closed_list = g;
    uint64_t one = 1;
    ssize_t w = write(wake, &one, sizeof one);
    (void)w;
    pthread_mutex_unlock(&lock);
}

unsigned gt_descriptors(void)
{
    pthread_mutex_lock(&lock);
    unsigned n = used;
    pthread_mutex_unlock(&lock);
    return n;
}

unsigned long gt_refused(void)
{
    pthread_mutex_lock(&lock);
    unsigned long n = refused;
    pthread_mutex_unlock(&lock);
    return n;
}
