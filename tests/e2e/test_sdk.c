/* tests/e2e/test_sdk.c — bots end to end: this test is the coordinator (a ZeroMQ ROUTER on a private ipc
 * endpoint), starts a bot as a process, checks its hello, and plays games in every variant through the
 * referee; every move the bot sends must be legal. Also: pings, garbage input (C SDK), and shutdown with
 * exit status 0. Bots: bin/random (C SDK) and agents/examples/random_bot.py (written from the docs), in games
 * from openings too (hex with the swap rule after a one-stone opening among them). In process: a move's share of a
 * game clock (bot_time_for_move), the thinking time and option parsers bots share, and the SDK's state
 * after an opening is that of the same stones played as moves (view, events, key, legal moves). */
#define _GNU_SOURCE
#include <math.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zmq.h>

#include "bot.h"
#include "protocol.h"
#include "referee.h"
#include "test_wire.h"

typedef struct {
    void *ctx, *router;
    char dir[64], endpoint[128];
    uint8_t id[256];
    size_t id_len;
    pid_t pid;
} coord;

static uint8_t wire[PM_MAX_MESSAGE];
static char why[256];

static void send_to(coord *c, const pm_msg *m)
{
    size_t n = pm_encode(m, wire, sizeof wire);
    assert_true(n > 0);
    assert_true(zmq_send(c->router, c->id, c->id_len, ZMQ_SNDMORE) >= 0);
    assert_int_equal(zmq_send(c->router, wire, n, 0), (int)n);
}

static void send_raw(coord *c, const void *bytes, size_t n)
{
    assert_true(zmq_send(c->router, c->id, c->id_len, ZMQ_SNDMORE) >= 0);
    assert_int_equal(zmq_send(c->router, bytes, n, 0), (int)n);
}

static void recv_from(coord *c, pm_msg *m)
{
    int n = zmq_recv(c->router, c->id, sizeof c->id, 0);
    if (n < 0)
        fail_msg("no message from the bot: %s", zmq_strerror(zmq_errno()));
    c->id_len = (size_t)n;
    int more;
    size_t sz = sizeof more;
    zmq_getsockopt(c->router, ZMQ_RCVMORE, &more, &sz);
    assert_true(more);
    n = zmq_recv(c->router, wire, sizeof wire, 0);
    assert_true(n >= 0);
    if (pm_decode(wire, (size_t)n, m, why, sizeof why) != 0)
        fail_msg("bad message from the bot: %s", why);
}

static void start_bot(coord *c, const char *token, char *const argv[])
{
    snprintf(c->dir, sizeof c->dir, "/tmp/arena-sdk-XXXXXX");
    assert_non_null(mkdtemp(c->dir));
    snprintf(c->endpoint, sizeof c->endpoint, "ipc://%s/arena.sock", c->dir);
    c->ctx = zmq_ctx_new();
    c->router = zmq_socket(c->ctx, ZMQ_ROUTER);
    int timeout = 10000, linger = 0;
    zmq_setsockopt(c->router, ZMQ_RCVTIMEO, &timeout, sizeof timeout);
    zmq_setsockopt(c->router, ZMQ_LINGER, &linger, sizeof linger);
    assert_int_equal(zmq_bind(c->router, c->endpoint), 0);
    c->pid = fork();
    assert_true(c->pid >= 0);
    if (c->pid == 0) {
        setenv("ARENA_ENDPOINT", c->endpoint, 1);
        setenv("ARENA_TOKEN", token, 1);
        execv(argv[0], argv);
        _exit(127);
    }
}

static int stop(coord *c)
{
    static pm_msg m;
    m.type = PM_SHUTDOWN;
    send_to(c, &m);
    int status = 0;
    for (int i = 0; i < 500 && waitpid(c->pid, &status, WNOHANG) == 0; i++)
        usleep(10000);
    if (waitpid(c->pid, &status, WNOHANG) == 0) {
        kill(c->pid, SIGKILL);
        waitpid(c->pid, &status, 0);
    }
    zmq_close(c->router);
    zmq_ctx_term(c->ctx);
    char sock[160];
    snprintf(sock, sizeof sock, "%s/arena.sock", c->dir);
    unlink(sock);
    rmdir(c->dir);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void play_every_variant(char *const argv[], const char *name, bool garbage)
{
    static coord c;
    static pm_msg m, got;
    static hx_referee r;
    start_bot(&c, "tok-123", argv);
    recv_from(&c, &got);
    assert_int_equal(got.type, PM_HELLO);
    assert_int_equal(got.protocol, PM_VERSION);
    assert_string_equal(got.token, "tok-123");
    assert_string_equal(got.name, name);

    m.type = PM_PING, m.nonce = 4242;
    send_to(&c, &m);
    recv_from(&c, &got);
    assert_int_equal(got.type, PM_PONG);
    assert_true(got.nonce == 4242);

    if (garbage) {
        const uint8_t bytes[] = { 0xc1, 0xff, 0x00 };
        send_raw(&c, bytes, sizeof bytes);
        recv_from(&c, &got);
        assert_int_equal(got.type, PM_ERROR);
        assert_non_null(strstr(got.message, "invalid MessagePack"));
    }

    rng_state rng;
    rng_seed(&rng, 8);
    uint64_t id = 100;
    int bot_wins = 0, games = 0;
    for (int v = 0; v < HX_VARIANT_COUNT; v++) {
        for (int k = 0; k < 6; k++, id++) {
            int bot = k % 2, n = 3 + k / 2;
            unsigned flags = v == HX_HEX && k >= 4 ? HX_SWAP_RULE : 0;
            assert_int_equal(ref_init(&r, id, (hx_variant)v, n, n, flags), 0);
            /* games 2 and 3 from an opening: three stones, or in hex with swap one (White may swap) */
            static const uint16_t opening[3] = { 4, 0, 8 }; /* a2, a1, a3 on 4x4; e1 on 5x5 */
            int stones = k == 2 || k == 3 ? 3 : v == HX_HEX && k == 5 ? 1 : 0;
            assert_int_equal(ref_opening(&r, opening, stones, why, sizeof why), 0);
            ref_game_start(&r, bot, 1000, id * 7, &m);
            send_to(&c, &m);
            while (!hx_over(&r.game)) {
                if (hx_to_move(&r.game) != bot) {
                    ref_move(&r, hx_random_legal(&r.game, &rng), &m);
                    continue;
                }
                ref_turn(&r, &m);
                send_to(&c, &m);
                recv_from(&c, &got);
                assert_int_equal(got.type, PM_MOVE);
                assert_true(got.game == id);
                int outcome = ref_move(&r, got.cell, &m);
                if (outcome < 0)
                    fail_msg("%s, %s: the bot attempted an illegal cell %d: %s", name,
                             hx_variant_name((hx_variant)v), got.cell, hx_strerror(outcome));
                assert_int_equal(m.type, PM_TYPE_COUNT); /* protocol 2: the outcome comes in its next turn */
            }
            ref_end(&r, hx_winner(&r.game), HX_END_CONNECTED, NULL, &m);
            ref_tail(&r, bot, &m);
            send_to(&c, &m);
            bot_wins += hx_winner(&r.game) == bot;
            games++;
        }
    }
    assert_int_equal(games, 42);
    assert_true(bot_wins > 0 && bot_wins < games);
    assert_int_equal(stop(&c), 0);
}

/* The SDK's state after an opening told in game_start equals its state after the same stones played as moves. */
static void an_opening_is_the_state_of_its_moves(void **state)
{
    (void)state;
    static hx_referee r, moves;
    static pm_msg m, got;
    static bot_state s;
    static hx_event truth[HX_MAX_EVENTS];
    uint16_t legal[HX_MAX_CELLS + 1], legal2[HX_MAX_CELLS + 1];
    rng_state rng;
    rng_seed(&rng, 11);
    int checked = 0;
    for (int v = 0; v < HX_VARIANT_COUNT; v++)
        for (int game = 0; game < 300; game++) {
            int rows = 2 + (int)rng_below(&rng, 4), cols = 2 + (int)rng_below(&rng, 4);
            unsigned flags = v == HX_HEX && rows == cols && game % 2 ? HX_SWAP_RULE : 0;
            int k = (int)rng_below(&rng, 6);
            uint16_t cells[6];
            /* the same stones as moves: a player's event log is what its turns and results told it
             * (tests/unit/test_referee.c) */
            assert_int_equal(ref_init(&moves, 1, (hx_variant)v, rows, cols, flags), 0);
            int played = 0;
            for (; played < k && !hx_over(&moves.game); played++) {
                do
                    cells[played] = (uint16_t)rng_below(&rng, (uint32_t)(rows * cols));
                while (hx_owner(&moves.game, cells[played]) != 0);
                assert_int_equal(ref_move(&moves, cells[played], &m), HX_PLACED);
            }
            if (hx_over(&moves.game) || played == 0)
                continue;
            assert_int_equal(ref_init(&r, 2, (hx_variant)v, rows, cols, flags), 0);
            assert_int_equal(ref_opening(&r, cells, played, why, sizeof why), 0);
            for (int p = 0; p < 2; p++) {
                ref_game_start(&r, p, 100, 5, &m);
                through_wire(&m, &got);
                bot_start_game(&s, &got, NULL);
                assert_int_equal(s.opening, played);
                int n = hx_events(&moves.game, p, truth);
                assert_int_equal(s.n_events, n);
                assert_memory_equal(s.events, truth, (size_t)n * sizeof truth[0]);
                assert_true(hx_events_hash(s.events, s.n_events) == hx_key_fingerprint(&moves.game, p));
                for (int c = 0; c < rows * cols; c++)
                    assert_int_equal(s.view[c], hx_view(&moves.game, p, c));
                assert_int_equal(s.own_stones, hx_stones(&moves.game, p));
                if (hx_to_move(&r.game) == p) { /* its legal moves are the engine's (swap included) */
                    int nl = bot_legal(&s, legal), ne = hx_legal(&r.game, legal2);
                    assert_int_equal(nl, ne);
                    assert_memory_equal(legal, legal2, (size_t)nl * sizeof legal[0]);
                    checked++;
                }
            }
        }
    assert_true(checked > 1000);
}

/* bot_time_for_move(): the time to the deadline without a clock; with one, the clock over the moves to go (or over
 * BOT_CLOCK_MOVES) plus the increment, never past the deadline, never negative. */
static void a_move_gets_its_share_of_the_clock(void **state)
{
    (void)state;
    static bot_state s;
    memset(&s, 0, sizeof s);
    s.deadline = bot_clock() + 10.0;
    double t = bot_time_for_move(&s);
    assert_true(t > 9.0 && t <= 10.0);
    s.has_clock = true, s.clock_ms = 40000, s.moves_to_go = 40, s.inc_ms = 500;
    assert_true(fabs(bot_time_for_move(&s) - 1.5) < 1e-9);
    s.moves_to_go = 0; /* sudden death */
    assert_true(fabs(bot_time_for_move(&s) - (40.0 / BOT_CLOCK_MOVES + 0.5)) < 1e-9);
    s.deadline = bot_clock() + 1.0; /* the move budget is the smaller */
    t = bot_time_for_move(&s);
    assert_true(t > 0.0 && t <= 1.0);
    s.deadline = bot_clock() - 1.0;
    assert_true(bot_time_for_move(&s) == 0.0);
}

/* bot_think_seconds(): what the bot wants, within its share of bot_time_for_move() and at least 0.1 ms; the option
 * parsers: in range accepted, anything else refused with the option named (out unchanged). */
static void think_time_and_options(void **state)
{
    (void)state;
    static bot_state s;
    memset(&s, 0, sizeof s);
    s.has_clock = true, s.clock_ms = 40000, s.moves_to_go = 40, s.inc_ms = 500, s.deadline = bot_clock() + 10.0;
    double move = bot_time_for_move(&s); /* 1.5 s */
    assert_true(fabs(bot_think_seconds(&s, 0.5, 0.2) - 0.2) < 1e-9);
    assert_true(fabs(bot_think_seconds(&s, 0.5, 5.0) - 0.5 * move) < 1e-9);
    assert_true(fabs(bot_think_seconds(&s, 0.4, -1) - 0.4 * move) < 1e-9);
    assert_true(bot_think_seconds(&s, 0.5, 0.0) == 1e-4);
    s.deadline = bot_clock() - 1.0;
    assert_true(bot_think_seconds(&s, 0.5, -1) == 1e-4);
    long n = 7;
    assert_int_equal(bot_whole_option("t", "--n", "12", 0, 20, &n), 0);
    assert_int_equal(n, 12);
    static const char *bad_whole[] = { NULL, "", "x", "3x", "21", "-1", "99999999999999999999999" };
    for (size_t i = 0; i < sizeof bad_whole / sizeof bad_whole[0]; i++) {
        assert_int_equal(bot_whole_option("t", "--n", bad_whole[i], 0, 20, &n), -1);
        assert_int_equal(n, 12);
    }
    double x = 0.5;
    assert_int_equal(bot_number_option("t", "--x", "2.5", 0, 10, &x), 0);
    assert_true(x == 2.5);
    static const char *bad_number[] = { NULL, "", "nan", "inf", "1e3", "-0.1", "2.5y" };
    for (size_t i = 0; i < sizeof bad_number / sizeof bad_number[0]; i++) {
        assert_int_equal(bot_number_option("t", "--x", bad_number[i], 0, 10, &x), -1);
        assert_true(x == 2.5);
    }
}

static int usages;
static void count_usage(void)
{
    usages++;
}

/* bot_options(): --help calls the usage and reads nothing; every kind read from one command line, arguments it does not know left alone, the last of a
 * repeated option kept; each bad value refused with -1. */
static void options_by_table(void **state)
{
    (void)state;
    long whole = 1;
    double number = 0.5;
    bool on = false, off = true;
    int choice = 0;
    uint64_t seed = 1;
    static const char *const names[] = { "red", "green", "blue", NULL };
    const bot_opt opts[] = {
        { "--n", BOT_OPT_WHOLE, &whole, 0, 20, NULL },
        { "--x", BOT_OPT_NUMBER, &number, 0, 10, NULL },
        { "--on", BOT_OPT_FLAG, &on, 1, 0, NULL },
        { "--no-off", BOT_OPT_FLAG, &off, 0, 0, NULL },
        { "--colour", BOT_OPT_CHOICE, &choice, 0, 0, names },
    };
    int n = (int)(sizeof opts / sizeof opts[0]);
    char *good[] = { "bot", "--endpoint", "tcp://127.0.0.1:5", "--n", "3", "--x", "2.5", "--on", "--seed", "42",
                     "--no-off", "--colour", "blue", "--n", "7", "--unknown", NULL };
    assert_int_equal(bot_options("t", 16, good, opts, n, &seed, count_usage), 0);
    assert_int_equal(usages, 0);
    assert_int_equal(whole, 7);
    assert_true(number == 2.5);
    assert_true(on && !off);
    assert_int_equal(choice, 2);
    assert_int_equal(seed, 42);
    char *helped[] = { "bot", "--n", "3", "--help", "--x", "99", NULL };
    assert_int_equal(bot_options("t", 6, helped, opts, n, &seed, count_usage), 1);
    assert_int_equal(usages, 1);
    assert_int_equal(whole, 7);
    static const char *bad[][2] = { { "--n", "21" }, { "--n", "x" }, { "--x", "11" }, { "--colour", "Blue" },
                                    { "--colour", NULL }, { "--seed", "-3" }, { "--n", NULL } };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *argv[] = { "bot", "--x", "1", (char *)bad[i][0], (char *)bad[i][1], NULL };
        if (bot_options("t", bad[i][1] ? 5 : 4, argv, opts, n, &seed, count_usage) != -1)
            fail_msg("%s %s: accepted", bad[i][0], bad[i][1] ? bad[i][1] : "(nothing)");
    }
    assert_int_equal(whole, 7);
    assert_int_equal(choice, 2);
}

static void c_random_bot(void **state)
{
    (void)state;
    const char *dir = getenv("ARENA_BIN_DIR");
    char exe[256];
    snprintf(exe, sizeof exe, "%s/random", dir ? dir : "bin");
    char *const argv[] = { exe, "--seed", "3", NULL };
    play_every_variant(argv, "random", true);
}

static void python_random_bot(void **state)
{
    (void)state;
    char *const argv[] = { "agents/examples/random_bot.py", NULL };
    play_every_variant(argv, "pyrandom", false);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(an_opening_is_the_state_of_its_moves),
        cmocka_unit_test(a_move_gets_its_share_of_the_clock),
        cmocka_unit_test(think_time_and_options),
        cmocka_unit_test(options_by_table),
        cmocka_unit_test(c_random_bot),
        cmocka_unit_test(python_random_bot),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
