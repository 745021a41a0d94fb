/* tests/agents/siege.c — a hostile test bot for the second round of attacks on the sandbox (tests/e2e/test_siege.c):
 * attacks on what a bot may take of the machine and learn from the clock, made while it plays legal moves. It plays
 * like bin/random (a uniformly random legal cell from --seed S ^ the game's seed) and with `--mode=NAME` it also:
 *
 *   play       nothing more (the well-behaved opponent)
 *   connflood  at its first turn starts 8 children, each opening raw connections to its endpoint (the ZMTP
 *              signature sent, nothing more) up to its open-file limit and opening them again as they are closed,
 *              waits 600 ms, and plays on; "SIEGE connflood: N connections open at once" once a second
 *   hellolink  at its start, before it says hello, puts a symbolic link to `--target=DIR` at `--swap=PATH` (a
 *              path its agent reads) unless one is there: "SIEGE hellolink: planted PATH -> DIR"; then plays
 *   spy        times every wait from the return of its attempt to its next turn and writes "WAIT SEED K MS" (its
 *              seed of the game, K its attempt's number in the game, from 1, the opening's stones not counted) and,
 *              with a game clock, "OPP SEED K MS" (the opponent's clock its next turn told)
 *   diskfill   at its first turn writes `--mb=N` MiB (default 2048) into files of 64 MiB in its working directory, in
 *              blocks of 1 MiB, then `SIEGE diskfill: N MiB: REASON` (what stopped it), and plays on
 *   manyfiles  at its first turn makes `--count=N` (default 200000) empty files in a directory of its working
 *              directory: `SIEGE manyfiles: N files: REASON`, and plays on
 *   fill       at its first turn writes into `--path=DIR` (e.g. /run, /dev/shm, /dev, /, .) until refused, up to
 *              `--mb=N` MiB (default 1024): `SIEGE fill DIR: N MiB: REASON`, and plays on
 *   inotify    at its first turn makes inotify instances until refused (at most 1000) and keeps them:
 *              `SIEGE inotify: took N: REASON`
 *   pipes      at its first turn makes 63 pipes and grows each to 1 MiB, and keeps them: `SIEGE pipes: N grown`
 *   victim     at every game's start makes an inotify instance and a pipe and says what it got:
 *              `SIEGE victim: inotify ok|REASON, pipe N bytes` (and closes them); with --probe it does that once,
 *              as a plain program (no bot), and exits
 *   sockets    at its first turn opens a socket of each address family it should not need (vsock, netlink,
 *              packet, inet, inet6, alg, bluetooth, can, tipc, xdp) and a socketpair of vsock: one line each,
 *              `SIEGE sockets FAMILY: blocked REASON` or `SIEGE sockets FAMILY: SUCCEEDED`
 *
 * With --sleep-ms=N it sleeps N ms before each attempt (a bot that thinks). Options use the --x=value form.
 * Built without sanitizers, like the other test bots. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bot.h"
#include "rng.h"

static struct {
    const char *mode, *target, *swap, *path;
    uint64_t seed;
    long mb, count, sleep_ms;
} opt = { .mode = "play", .mb = -1, .count = 200000 };

static rng_state rng;
static bool attacked;
static int attempt;          /* this game's attempts so far */
static double returned = -1; /* when its last attempt was returned (bot_clock) */

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
}

static void pause_ms(long ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

/* ---- connflood ---- */

static void flooder(int id)
{
    static int fds[4096];
    struct rlimit rl;
    getrlimit(RLIMIT_NOFILE, &rl);
    int max = rl.rlim_cur > 4000 ? 4000 : (int)rl.rlim_cur - 8, n = 0;
    struct sockaddr_un a = { .sun_family = AF_UNIX };
    snprintf(a.sun_path, sizeof a.sun_path, "/run/arena.sock");
    static const unsigned char signature[10] = { 0xff, 0, 0, 0, 0, 0, 0, 0, 1, 0x7f };
    double last = 0;
    for (;;) {
        while (n < max) {
            int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
            if (fd < 0)
                break;
            if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
                close(fd);
                break;
            }
            ssize_t w = write(fd, signature, sizeof signature);
            (void)w;
            fds[n++] = fd;
        }
        for (int i = 0; i < n; i++) { /* closed by the other end: open it again */
            char b[64];
            ssize_t r = read(fds[i], b, sizeof b);
            if (r == 0 || (r < 0 && errno != EAGAIN)) {
                close(fds[i]);
                fds[i--] = fds[--n];
            }
        }
        if (id == 0 && bot_clock() - last > 1.0) {
            say("SIEGE connflood: %d connections open at once", n);
            last = bot_clock();
        }
        pause_ms(5);
    }
}

static void attack_connflood(void)
{
    for (int i = 0; i < 8; i++)
        if (fork() == 0) {
            flooder(i);
            _exit(0);
        }
}

/* ---- hellolink ---- */

static void attack_hellolink(void)
{
    struct stat st;
    if (!opt.swap || !opt.target || (lstat(opt.swap, &st) == 0 && S_ISLNK(st.st_mode)))
        return;
    char aside[4096];
    snprintf(aside, sizeof aside, "%s.aside", opt.swap);
    rename(opt.swap, aside);
    if (symlink(opt.target, opt.swap) == 0)
        say("SIEGE hellolink: planted %s -> %s", opt.swap, opt.target);
    else
        say("SIEGE hellolink: blocked %s", strerror(errno));
}

/* ---- writing ---- */

static void attack_diskfill(void)
{
    long mb = opt.mb < 0 ? 2048 : opt.mb, done = 0;
    static char block[1 << 20];
    memset(block, 'x', sizeof block);
    int fd = -1;
    const char *why = "all written";
    for (; done < mb; done++) {
        if (done % 64 == 0) {
            char name[32];
            snprintf(name, sizeof name, "fill%03ld.bin", done / 64);
            if (fd >= 0)
                close(fd);
            fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (fd < 0) {
                why = strerror(errno);
                break;
            }
        }
        ssize_t w = write(fd, block, sizeof block);
        if (w != (ssize_t)sizeof block) {
            why = w < 0 ? strerror(errno) : "short write";
            break;
        }
    }
    if (fd >= 0)
        close(fd);
    say("SIEGE diskfill: %ld MiB: %s", done, why);
}

static void attack_manyfiles(void)
{
    long done = 0;
    const char *why = "all made";
    if (mkdir("many", 0755) != 0 && errno != EEXIST)
        why = strerror(errno);
    for (char name[64]; done < opt.count; done++) {
        snprintf(name, sizeof name, "many/f%ld", done);
        int fd = open(name, O_WRONLY | O_CREAT, 0644);
        if (fd < 0) {
            why = strerror(errno);
            break;
        }
        close(fd);
    }
    say("SIEGE manyfiles: %ld files: %s", done, why);
}

static void attack_fill(void)
{
    const char *dir = opt.path ? opt.path : "/run";
    long mb = opt.mb < 0 ? 1024 : opt.mb, done = 0;
    static char block[1 << 20];
    memset(block, 'y', sizeof block);
    char path[4096];
    snprintf(path, sizeof path, "%s/siege-fill.%d", dir, (int)getpid());
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const char *why = "all written";
    if (fd < 0)
        why = strerror(errno);
    for (; fd >= 0 && done < mb; done++) {
        ssize_t w = write(fd, block, sizeof block);
        if (w != (ssize_t)sizeof block) {
            why = w < 0 ? strerror(errno) : "short write";
            break;
        }
    }
    if (fd >= 0) {
        close(fd);
        unlink(path); /* what was written is measured, not kept */
    }
    say("SIEGE fill %s: %ld MiB: %s", dir, done, why);
}

/* ---- the kernel's per-user limits ---- */

static void attack_inotify(void)
{
    int n = 0;
    const char *why = "1000 taken";
    for (; n < 1000; n++)
        if (inotify_init1(IN_CLOEXEC) < 0) {
            why = strerror(errno);
            break;
        }
    say("SIEGE inotify: took %d: %s", n, why);
}

static void attack_pipes(void)
{
    int grown = 0;
    for (int i = 0; i < 63; i++) {
        int p[2];
        if (pipe(p) != 0)
            break;
        grown += fcntl(p[1], F_SETPIPE_SZ, 1 << 20) >= (1 << 20);
    }
    say("SIEGE pipes: %d grown", grown);
}

static void victim(void)
{
    int fd = inotify_init1(IN_CLOEXEC);
    char ino[128];
    snprintf(ino, sizeof ino, "%s", fd >= 0 ? "ok" : strerror(errno));
    if (fd >= 0)
        close(fd);
    int p[2];
    int size = pipe(p) == 0 ? fcntl(p[1], F_GETPIPE_SZ) : -1;
    if (size >= 0) {
        close(p[0]);
        close(p[1]);
    }
    say("SIEGE victim: inotify %s, pipe %d bytes", ino, size);
}

/* ---- sockets ---- */

static void attack_sockets(void)
{
    static const struct {
        const char *name;
        int family, type;
    } fam[] = {
        { "vsock", 40, SOCK_STREAM },   { "netlink", AF_NETLINK, SOCK_RAW }, { "packet", AF_PACKET, SOCK_DGRAM },
        { "inet", AF_INET, SOCK_STREAM }, { "inet6", AF_INET6, SOCK_STREAM }, { "alg", 38, SOCK_SEQPACKET },
        { "bluetooth", 31, SOCK_STREAM }, { "can", 29, SOCK_RAW },          { "tipc", 30, SOCK_RDM },
        { "xdp", 44, SOCK_RAW },
    };
    for (size_t i = 0; i < sizeof fam / sizeof fam[0]; i++) {
        int fd = socket(fam[i].family, fam[i].type, 0);
        if (fd >= 0) {
            close(fd);
            say("SIEGE sockets %s: SUCCEEDED", fam[i].name);
        } else {
            say("SIEGE sockets %s: blocked %s", fam[i].name, strerror(errno));
        }
    }
    int sv[2];
    if (socketpair(40, SOCK_STREAM, 0, sv) == 0)
        say("SIEGE sockets vsock-pair: SUCCEEDED");
    else
        say("SIEGE sockets vsock-pair: blocked %s", strerror(errno));
}

/* ---- the bot ---- */

static void attack(void)
{
    if (attacked)
        return;
    attacked = true;
    if (strcmp(opt.mode, "connflood") == 0)
        attack_connflood();
    else if (strcmp(opt.mode, "diskfill") == 0)
        attack_diskfill();
    else if (strcmp(opt.mode, "manyfiles") == 0)
        attack_manyfiles();
    else if (strcmp(opt.mode, "fill") == 0)
        attack_fill();
    else if (strcmp(opt.mode, "inotify") == 0)
        attack_inotify();
    else if (strcmp(opt.mode, "pipes") == 0)
        attack_pipes();
    else if (strcmp(opt.mode, "sockets") == 0)
        attack_sockets();
}

static void game_start(const bot_state *s, void *user)
{
    (void)user;
    rng_seed(&rng, opt.seed ^ s->seed);
    attempt = 0;
    returned = -1;
    if (strcmp(opt.mode, "victim") == 0)
        victim();
}

static int choose(const bot_state *s, void *user)
{
    (void)user;
    double now = bot_clock();
    if (strcmp(opt.mode, "spy") == 0 && returned >= 0) {
        say("WAIT %llu %d %.3f", (unsigned long long)s->seed, attempt, (now - returned) * 1000.0);
        if (s->has_opp_clock)
            say("OPP %llu %d %u", (unsigned long long)s->seed, attempt, s->opp_clock_ms);
    }
    bool first = !attacked;
    attack();
    if (first && strcmp(opt.mode, "connflood") == 0)
        pause_ms(600); /* the flood under way before its first stone (within a move time of 1 s): it cannot win a game
                        * by connecting before the flood reaches the bound */
    if (opt.sleep_ms > 0)
        pause_ms(opt.sleep_ms);
    uint16_t legal[HX_MAX_CELLS + 1];
    int n = bot_legal(s, legal);
    attempt++;
    returned = bot_clock();
    return legal[rng_below(&rng, (uint32_t)n)];
}

static const char *value(const char *arg, const char *name)
{
    size_t k = strlen(name);
    return strncmp(arg, name, k) == 0 && arg[k] == '=' ? arg + k + 1 : NULL;
}

int main(int argc, char **argv)
{
    const char *v;
    for (int i = 1; i < argc; i++) {
        if (bot_seed_option("siege", argc, argv, &i, &opt.seed) != 0)
            continue;
        if ((v = value(argv[i], "--mode")))
            opt.mode = v;
        else if ((v = value(argv[i], "--target")))
            opt.target = v;
        else if ((v = value(argv[i], "--swap")))
            opt.swap = v;
        else if ((v = value(argv[i], "--path")))
            opt.path = v;
        else if ((v = value(argv[i], "--mb")))
            opt.mb = atol(v);
        else if ((v = value(argv[i], "--count")))
            opt.count = atol(v);
        else if ((v = value(argv[i], "--sleep-ms")))
            opt.sleep_ms = atol(v);
    }
    signal(SIGPIPE, SIG_IGN);
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--probe") == 0) {
            victim();
            return 0;
        }
    if (strcmp(opt.mode, "hellolink") == 0)
        attack_hellolink();
    bot_spec spec = { .name = "siege", .version = "1.0", .choose = choose, .game_start = game_start };
    return bot_run(&spec, argc, argv);
}
