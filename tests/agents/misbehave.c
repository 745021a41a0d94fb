/* tests/agents/misbehave.c — a test bot that speaks the protocol directly (no SDK) and misbehaves on
 * purpose, once per game, at its second attempt of the game (for `crash`: at a random one of its first three,
 * which every game on 3x3 and larger boards reaches):
 *
 *   --mode play        plays uniformly random legal cells (the well-behaved baseline)
 *   --mode crash       abort()s (SIGABRT)
 *   --mode exit        exits with status 7
 *   --mode hang        never answers again (also not pings)
 *   --mode late        answers 300 ms after its budget
 *   --mode garbage     sends bytes that are not MessagePack
 *   --mode illegal     attempts its first cell again (its stone, or an opponent stone it learned)
 *   --mode offboard    attempts a cell off the board
 *   --mode wrong-game  answers for another game id
 *   --mode twice       sends its move twice (the second one is out of turn)
 *   --mode early       sends a move as soon as a game starts, before its turn (at every game_start; then answers
 *                      each turn as --mode play does, one move ahead)
 *   --mode ignore-openings  plays like --mode play, but never reads game_start's own, seen and hidden: it attempts
 *                      the cells of its own opening stones (illegal) and, in hex, of the opponent's it was shown
 *   --mode traceback   at its first attempt writes a Python-like traceback to stderr, the last line
 *                      "ValueError: misbehave traceback", and exits with status 1
 *   --mode no-hello    connects and never says hello
 *   --mode bad-token   says hello with a wrong token (a stray the coordinator must ignore)
 *   --mode bad-hello   says hello with its token but without the keys version, variants and boards
 *   --mode slow-start  sleeps 3 s before it connects
 *   --mode oversize    sends a message just over the protocol's size limit
 *   --mode huge-frame  sends a 4 MiB frame (past the transport's limit: the connection is dropped)
 *   --mode bomb        sends a MessagePack header declaring an array of 2^32-1 elements, then a map of as many
 *   --mode flood       sends 5000 pings in a row
 *   --mode eat         allocates and touches memory without bound (run it under a memory limit!)
 *   --mode burn        spins on the CPU (run it under a CPU-time limit)
 *   --mode fork        starts a child that never ends (in its process group), then hangs
 *   --mode daemon      starts a grandchild in a session of its own (setsid) that never ends, then aborts
 *   --mode plain-tcp   connects without CurveZMQ although it was given keys (a tcp:// coordinator refuses it)
 *   --mode stranger    connects with a key pair of its own instead of the one it was given (refused too)
 *   --mode spew        before it connects, writes --spew-mb MiB (default 1024) to stderr as fast as it can, in
 *                      blocks of 1 MiB of numbered lines "spew 000000001" ... "spew 000069905" (then a partial
 *                      one), then plays
 *   --mode sudden-death  plays, but exits with status 8 at a turn whose clock has no period (moves_to_go 0: a bot
 *                      that divides by it); plays on without clocks or with a period (tests/e2e/test_match.c's check)
 *   --mode chatter     plays, writing "chatter N" for its Nth attempt, to stdout for odd N and stderr for even N
 *   --mode truncate    at its first turn tries to erase its log: ftruncate(1 and 2, 0), lseek(1 and 2, 0),
 *                      open("/proc/self/fd/1" and 2, O_TRUNC); writes "TRUNCATE WHAT(FD): blocked (why)" or
 *                      "TRUNCATE WHAT(FD): SUCCEEDED" for each to stderr, then plays
 *
 * Attacks on the sandbox as a whole (tests/e2e/test_limits.c), each at its second attempt, then it hangs:
 *   --mode fork-bomb      starts 3000 processes that never end
 *   --mode eat-children   starts 8 children that each touch up to 200 MiB (what their address-space limit
 *                         allows) and keep it
 *   --mode burn-children  starts 6 children that spin on the CPU
 *   --mode fill-tmp       writes to /tmp until it is refused, and says how much it wrote on stderr
 *                         ("fill-tmp: N MiB: REASON")
 *   --mode spin-threads   plays well, but from its hello on 32 threads spin on the CPU
 *
 * --protocol N (default 2, PM_VERSION) is the protocol version its hello names. With --protocol 1 it is a bot written
 * for protocol 1, which never heard of openings: it does not read game_start's own/seen/hidden, and keeps its board
 * from `result`s (its own attempts, and the opening stones an openings_compat = replay coordinator replays to it)
 * and from turn events. With 2, its own outcomes come as events of its next turn.
 *
 * Thinking time, with any mode (for the game-clock tests, tests/e2e/test_clock.c):
 *   --sleep-ms N       sleeps N ms before each attempt
 *   --clock-share F    sleeps F times the clock_ms its turn tells (its game clock's time left) before each attempt
 *
 * It is built without sanitizers, so it can run under an address-space limit.
 *
 * With ARENA_RECORD=FILE in its environment it appends every message it receives to FILE, each as a
 * 4-byte little-endian length and the raw bytes, for tests that audit what a bot was told. */
#define _GNU_SOURCE /* MAP_ANONYMOUS, madvise */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/mman.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include <msgpack.h>
#include <zmq.h>

#include "protocol.h"
#include "rng.h"

static uint8_t buf[PM_MAX_MESSAGE];
static pm_msg in, out;
static int protocol = PM_VERSION; /* --protocol */

static void send_msg(void *sock, const pm_msg *m)
{
    size_t n = pm_encode(m, buf, sizeof buf);
    if (n)
        zmq_send(sock, buf, n, 0);
}

/* A hello with only type, protocol, token and name: "version", "variants" and "boards" are missing. */
static void send_bad_hello(void *sock, const char *token)
{
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    msgpack_packer pk;
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    const char *const keys[] = { "type", "protocol", "token", "name" };
    msgpack_pack_map(&pk, 4);
    for (int i = 0; i < 4; i++) {
        msgpack_pack_str_with_body(&pk, keys[i], strlen(keys[i]));
        if (i == 1) {
            msgpack_pack_int(&pk, PM_VERSION);
        } else {
            const char *v = i == 0 ? "hello" : i == 2 ? token : "misbehave-bad-hello";
            msgpack_pack_str_with_body(&pk, v, strlen(v));
        }
    }
    zmq_send(sock, sb.data, sb.size, 0);
    msgpack_sbuffer_destroy(&sb);
}

static void pause_ms(long ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

static void never_end(void)
{
    for (;;)
        pause_ms(1000);
}

static void spin(void)
{
    volatile uint64_t x = 1;
    for (;;)
        x = x * 6364136223846793005ull + 1;
}

static void *spin_thread(void *arg)
{
    (void)arg;
    spin();
    return NULL;
}

/* The attacks on the sandbox as a whole: they replace the move, and the bot hangs after them. */
static void hog(const char *mode)
{
    if (strcmp(mode, "fork-bomb") == 0)
        for (int i = 0; i < 3000; i++)
            if (fork() == 0)
                never_end();
    if (strcmp(mode, "eat-children") == 0 || strcmp(mode, "burn-children") == 0) {
        bool eat = mode[0] == 'e';
        for (int i = 0; i < (eat ? 8 : 6); i++) {
            if (fork() != 0)
                continue;
            if (!eat)
                spin();
            for (int mib = 0; mib < 200; mib += 8) { /* as much of 200 MiB as its address-space limit lets it */
                char *p = mmap(NULL, (size_t)8 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
                if (p != MAP_FAILED)
                    memset(p, 1, (size_t)8 << 20);
            }
            never_end();
        }
    }
    if (strcmp(mode, "fill-tmp") == 0) {
        static char chunk[1 << 20];
        memset(chunk, 'x', sizeof chunk);
        int fd = open("/tmp/fill", O_WRONLY | O_CREAT | O_TRUNC, 0600), mib = 0;
        while (fd >= 0 && write(fd, chunk, sizeof chunk) == (ssize_t)sizeof chunk)
            mib++;
        fprintf(stderr, "fill-tmp: %d MiB: %s\n", mib, strerror(errno));
        fflush(stderr);
    }
    never_end();
}

/* All of buf to fd; false when a write fails. */
static bool write_all(int fd, const char *data, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, data, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        data += w;
        n -= (size_t)w;
    }
    return true;
}

/* --mode spew: mb MiB to stderr, 1 MiB of numbered 15-byte lines at a time. */
static void spew(long mb)
{
    static char block[1 << 20];
    size_t at = 0;
    for (int line = 1; at + 15 <= sizeof block; line++, at += 15)
        snprintf(block + at, 16, "spew %09d\n", line);
    memset(block + at, '#', sizeof block - at); /* the partial line that ends a block */
    for (long i = 0; i < mb; i++)
        if (!write_all(2, block, sizeof block))
            return;
}

/* One "TRUNCATE WHAT(FD): ..." line of --mode truncate to stderr. */
static void tell(const char *what, int fd, bool succeeded, const char *why)
{
    char line[160];
    snprintf(line, sizeof line, "TRUNCATE %s(%d): %s%s%s\n", what, fd, succeeded ? "SUCCEEDED" : "blocked (",
             succeeded ? "" : why, succeeded ? "" : ")");
    write_all(2, line, strlen(line));
}

/* --mode truncate: every way to erase what is already in its log, each outcome on stderr. */
static void try_truncate(void)
{
    for (int fd = 1; fd <= 2; fd++) {
        int rc = ftruncate(fd, 0);
        tell("ftruncate", fd, rc == 0, strerror(errno));
        off_t at = lseek(fd, 0, SEEK_SET);
        tell("lseek", fd, at == 0, strerror(errno));
        char path[32];
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
        int again = open(path, O_WRONLY | O_TRUNC);
        struct stat st;
        bool file = again >= 0 && fstat(again, &st) == 0 && S_ISREG(st.st_mode);
        tell("reopen", fd, file, again >= 0 ? "not the file" : strerror(errno));
        if (again >= 0)
            close(again);
    }
}

/* The misbehaviours that replace the move. Returns true when the move is not to be sent. */
static bool misbehave(const char *mode, void *sock)
{
    if (strcmp(mode, "oversize") == 0 || strcmp(mode, "huge-frame") == 0) {
        size_t n = mode[0] == 'o' ? PM_MAX_MESSAGE + 100 : (size_t)4 << 20;
        uint8_t *big = calloc(1, n);
        if (big) {
            big[0] = 0xc4; /* looks like the start of a bin 8; its size is what matters */
            zmq_send(sock, big, n, 0);
            free(big);
        }
        return true;
    }
    if (strcmp(mode, "bomb") == 0) {
        static const uint8_t array[] = { 0xdd, 0xff, 0xff, 0xff, 0xff, 0x01 };
        static const uint8_t map[] = { 0xdf, 0xff, 0xff, 0xff, 0xff, 0xa1, 't' };
        zmq_send(sock, array, sizeof array, 0);
        zmq_send(sock, map, sizeof map, 0);
        return true;
    }
    if (strcmp(mode, "flood") == 0) {
        pm_msg ping;
        memset(&ping, 0, sizeof ping);
        ping.type = PM_PING;
        for (int i = 0; i < 5000; i++) {
            ping.nonce = (uint64_t)i;
            send_msg(sock, &ping);
        }
        return true;
    }
    if (strcmp(mode, "eat") == 0) {
        /* Large pages where the kernel offers them: the limit is reached in a few dozen page faults, so even
         * on a busy machine the bot dies of its memory limit well within its move budget. */
        for (size_t len = (size_t)16 << 20;;) {
            char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (p == MAP_FAILED)
                abort(); /* what most programs do when memory runs out */
            madvise(p, len, MADV_HUGEPAGE);
            memset(p, 1, len);
        }
    }
    if (strcmp(mode, "burn") == 0) {
        volatile uint64_t x = 1;
        for (;;)
            x = x * 6364136223846793005ull + 1;
    }
    if (strcmp(mode, "fork") == 0) {
        if (fork() == 0)
            never_end();
        never_end();
    }
    if (strcmp(mode, "fork-bomb") == 0 || strstr(mode, "-children") || strcmp(mode, "fill-tmp") == 0)
        hog(mode);
    if (strcmp(mode, "daemon") == 0) {
        if (fork() == 0) {
            setsid();
            if (fork() == 0)
                never_end();
            _exit(0);
        }
        pause_ms(100);
        abort();
    }
    return false;
}

/* A DEALER connected to the coordinator: CurveZMQ over tcp:// with the keys it was given (plain when --mode
 * plain-tcp, a key pair of its own when --mode stranger). NULL when it cannot connect. */
static void *connect_to(void *ctx, const char *mode, const char *endpoint)
{
    void *sock = zmq_socket(ctx, ZMQ_DEALER);
    const char *server = getenv("ARENA_SERVER_KEY");
    if (server && *server && strcmp(mode, "plain-tcp") != 0) {
        char pub[41], sec[41];
        snprintf(pub, sizeof pub, "%s", getenv("ARENA_PUBLIC_KEY") ? getenv("ARENA_PUBLIC_KEY") : "");
        snprintf(sec, sizeof sec, "%s", getenv("ARENA_SECRET_KEY") ? getenv("ARENA_SECRET_KEY") : "");
        if (strcmp(mode, "stranger") == 0)
            zmq_curve_keypair(pub, sec);
        zmq_setsockopt(sock, ZMQ_CURVE_SERVERKEY, server, strlen(server));
        zmq_setsockopt(sock, ZMQ_CURVE_PUBLICKEY, pub, 40);
        zmq_setsockopt(sock, ZMQ_CURVE_SECRETKEY, sec, 40);
    }
    return zmq_connect(sock, endpoint) == 0 ? sock : NULL;
}

static void say_hello(void *sock, const char *mode, const char *token)
{
    memset(&out, 0, sizeof out);
    out.type = PM_HELLO;
    out.protocol = protocol;
    snprintf(out.token, sizeof out.token, "%s", strcmp(mode, "bad-token") == 0 ? "not-the-token" : token ? token : "");
    snprintf(out.name, sizeof out.name, "misbehave-%s", mode);
    snprintf(out.version, sizeof out.version, "1");
    out.variants = (1u << HX_VARIANT_COUNT) - 1;
    send_msg(sock, &out);
}

/* What it knows of the game it plays. */
typedef struct {
    const char *mode;
    void *sock;
    rng_state rng;
    uint8_t known[HX_MAX_CELLS];
    int cells, attempts, first, crash_at;
    int said;        /* --mode chatter: lines written */
    bool truncated;  /* --mode truncate: tried */
    uint32_t move_ms;
    long sleep_ms;   /* --sleep-ms */
    double share;    /* --clock-share */
} player;

static void game_start(player *p)
{
    memset(p->known, 0, sizeof p->known);
    p->cells = in.rows * in.cols;
    p->attempts = 0;
    p->crash_at = 1 + (int)rng_below(&p->rng, 3);
    p->first = -1;
    p->move_ms = in.move_ms;
    bool reads = protocol >= 2 && strcmp(p->mode, "ignore-openings") != 0; /* protocol 1: never read */
    for (int i = 0; reads && i < in.n_own; i++) /* an opening's stones it knows */
        p->known[in.own[i]] = 1;
    for (int i = 0; reads && i < in.n_seen; i++)
        p->known[in.seen[i]] = 1;
    if (strcmp(p->mode, "early") == 0) { /* a move now, before its turn: a cell it does not know */
        int unknown[HX_MAX_CELLS], u = 0;
        for (int c = 0; c < p->cells; c++)
            if (!p->known[c])
                unknown[u++] = c;
        memset(&out, 0, sizeof out);
        out.type = PM_MOVE;
        out.game = in.game;
        out.cell = u ? unknown[rng_below(&p->rng, (uint32_t)u)] : 0;
        send_msg(p->sock, &out);
    }
}

/* A cell it learned of: an own outcome (placed, rejected, collided: the first one is `first`), an opponent stone. */
static void learn(player *p, int cell, bool own)
{
    if (cell < 0 || cell >= p->cells)
        return;
    p->known[cell] = 1;
    if (own && p->first < 0)
        p->first = cell;
}

/* Its move, or at the attempt its mode names, its misbehaviour. */
static void turn(player *p)
{
    const char *mode = p->mode;
    for (int i = 0; i < in.n_events; i++) {
        hx_event_kind k = in.events[i].kind;
        if (k == HX_EV_OPP_PLACED || k == HX_EV_SWAP)
            learn(p, in.events[i].cell, false);
        else if (k == HX_EV_PLACED || k == HX_EV_REJECTED || k == HX_EV_COLLIDED) /* protocol 2 */
            learn(p, in.events[i].cell, true);
    }
    int unknown[HX_MAX_CELLS], u = 0;
    for (int c = 0; c < p->cells; c++)
        if (!p->known[c])
            unknown[u++] = c;
    p->attempts++;
    long think = p->sleep_ms + (in.has_clock ? (long)(p->share * in.clock_ms) : 0);
    if (think > 0)
        pause_ms(think);
    if (strcmp(mode, "sudden-death") == 0 && in.has_clock && in.moves_to_go == 0)
        exit(8);
    if (strcmp(mode, "chatter") == 0) {
        char line[64];
        snprintf(line, sizeof line, "chatter %d\n", ++p->said);
        write_all(p->said % 2 ? 1 : 2, line, strlen(line));
    }
    if (strcmp(mode, "truncate") == 0 && !p->truncated) {
        p->truncated = true;
        try_truncate();
    }
    memset(&out, 0, sizeof out);
    out.type = PM_MOVE;
    out.game = in.game;
    /* (mode first: the lowest unknown cell, a deterministic bot) */
    out.cell = u ? unknown[strcmp(mode, "first") == 0 ? 0 : rng_below(&p->rng, (uint32_t)u)] : 0;
    if (strcmp(mode, "traceback") == 0) {
        static const char tb[] = "Traceback (most recent call last):\n"
                                 "  File \"bot.py\", line 42, in <module>\n"
                                 "    main()\n"
                                 "  File \"bot.py\", line 17, in main\n"
                                 "    raise ValueError(\"misbehave traceback\")\n"
                                 "ValueError: misbehave traceback\n";
        write_all(2, tb, sizeof tb - 1);
        exit(1);
    }
    bool now = p->attempts == (strcmp(mode, "crash") == 0 ? p->crash_at : 2);
    if (now && strcmp(mode, "crash") == 0)
        abort();
    if (now && strcmp(mode, "exit") == 0)
        exit(7);
    if (now && strcmp(mode, "hang") == 0)
        never_end();
    if (now && strcmp(mode, "late") == 0)
        pause_ms((long)p->move_ms + 300);
    if (now && strcmp(mode, "garbage") == 0) {
        static const uint8_t junk[] = { 0xc1, 0xc1, 'j', 'u', 'n', 'k' };
        zmq_send(p->sock, junk, sizeof junk, 0);
        return;
    }
    if (now && misbehave(mode, p->sock))
        return;
    if (now && strcmp(mode, "illegal") == 0 && p->first >= 0)
        out.cell = p->first;
    if (now && strcmp(mode, "offboard") == 0)
        out.cell = p->cells + 5;
    if (now && strcmp(mode, "wrong-game") == 0)
        out.game = in.game + 1000;
    send_msg(p->sock, &out);
    if (now && strcmp(mode, "twice") == 0)
        send_msg(p->sock, &out);
}

/* Answers the coordinator until it says shutdown or the connection ends. */
static void play(player *p, FILE *rec)
{
    char why[256];
    for (;;) {
        int n = zmq_recv(p->sock, buf, sizeof buf, 0);
        if (n < 0)
            return;
        if (rec) {
            uint8_t len[4] = { (uint8_t)n, (uint8_t)(n >> 8), (uint8_t)(n >> 16), (uint8_t)(n >> 24) };
            fwrite(len, 1, 4, rec);
            fwrite(buf, 1, (size_t)n, rec);
            fflush(rec);
        }
        if (pm_decode(buf, (size_t)n, &in, why, sizeof why) != 0)
            continue;
        switch (in.type) {
        case PM_GAME_START: game_start(p); break;
        case PM_RESULT: learn(p, in.cell, true); break; /* protocol 1: placed, rejected or collided */
        case PM_PING:
            out.type = PM_PONG;
            out.nonce = in.nonce;
            send_msg(p->sock, &out);
            break;
        case PM_SHUTDOWN: return;
        case PM_TURN: turn(p); break;
        default: break;
        }
    }
}

int main(int argc, char **argv)
{
    const char *mode = "play", *endpoint = getenv("ARENA_ENDPOINT"), *token = getenv("ARENA_TOKEN");
    const char *record = getenv("ARENA_RECORD");
    long spew_mb = 1024, sleep_ms = 0;
    double share = 0.0;
    for (int i = 1; i + 1 < argc; i++) {
        if (strcmp(argv[i], "--mode") == 0)
            mode = argv[++i];
        else if (strcmp(argv[i], "--protocol") == 0)
            protocol = atoi(argv[++i]);
        else if (strcmp(argv[i], "--sleep-ms") == 0)
            sleep_ms = atol(argv[++i]);
        else if (strcmp(argv[i], "--clock-share") == 0)
            share = atof(argv[++i]);
        else if (strcmp(argv[i], "--spew-mb") == 0)
            spew_mb = atol(argv[++i]);
        else if (strcmp(argv[i], "--endpoint") == 0)
            endpoint = argv[++i];
    }
    if (!endpoint) {
        fprintf(stderr, "misbehave: no endpoint\n");
        return 2;
    }
    if (strcmp(mode, "slow-start") == 0)
        pause_ms(3000);
    if (strcmp(mode, "spew") == 0)
        spew(spew_mb);
    void *ctx = zmq_ctx_new(), *sock = connect_to(ctx, mode, endpoint);
    if (!sock)
        return 1;
    if (strcmp(mode, "no-hello") == 0)
        for (;;)
            pause_ms(1000);
    if (strcmp(mode, "bad-hello") == 0) {
        send_bad_hello(sock, token ? token : "");
        for (;;)
            pause_ms(1000);
    }
    say_hello(sock, mode, token);
    for (int i = 0; strcmp(mode, "spin-threads") == 0 && i < 32; i++) {
        pthread_t t;
        pthread_create(&t, NULL, spin_thread, NULL);
    }

    static player p;
    p = (player){ .mode = mode, .sock = sock, .first = -1, .crash_at = 3, .move_ms = 1000, .sleep_ms = sleep_ms,
                  .share = share };
    rng_seed(&p.rng, (uint64_t)getpid());
    FILE *rec = record ? fopen(record, "ab") : NULL;
    play(&p, rec);
    if (rec)
        fclose(rec);
    zmq_close(sock);
    zmq_ctx_term(ctx);
    return 0;
}
