/* tests/bench_kit.h — what the match and league benchmarks share: the raw ZeroMQ round trip they compare the
 * harness with, a median helper, and the runner callbacks for `games` classical games on a size x size board,
 * colours alternating, every game played out (a forfeit stops the run), attempts counted. */
#ifndef TESTS_BENCH_KIT_H
#define TESTS_BENCH_KIT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <zmq.h>

#include "clock.h"
#include "runner.h"

static inline int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Microseconds per round trip: ROUTER here sends `out` bytes, an echoing DEALER in a child process answers
 * with `back` bytes. The median of 7 batches of n. With `front`, the DEALER connects to the ipc path front(PATH,
 * user) returns instead of the ROUTER's own PATH (something in between, e.g. a sandbox's relay). */
static inline double raw_round_trip_via(int n, size_t out, size_t back, const char *(*front)(const char *, void *),
                                        void *user)
{
    char dir[] = "/tmp/arena-bench-XXXXXX", endpoint[128], child_endpoint[200];
    if (!mkdtemp(dir))
        return 0;
    snprintf(endpoint, sizeof endpoint, "ipc://%s/raw.sock", dir);
    void *ctx = zmq_ctx_new(), *router = zmq_socket(ctx, ZMQ_ROUTER);
    zmq_bind(router, endpoint);
    snprintf(child_endpoint, sizeof child_endpoint, "ipc://%s", front ? front(endpoint + 6, user) : endpoint + 6);
    pid_t pid = fork();
    if (pid == 0) {
        void *c2 = zmq_ctx_new(), *dealer = zmq_socket(c2, ZMQ_DEALER);
        zmq_connect(dealer, child_endpoint);
        uint8_t buf[256] = { 0 }, reply[256] = { 0 };
        zmq_send(dealer, "hello", 5, 0);
        for (;;) {
            int len = zmq_recv(dealer, buf, sizeof buf, 0);
            if (len <= 1)
                break;
            zmq_send(dealer, reply, back, 0);
        }
        zmq_close(dealer);
        zmq_ctx_term(c2);
        _exit(0);
    }
    uint8_t id[256], msg[256] = { 0 };
    int id_len = zmq_recv(router, id, sizeof id, 0);
    zmq_recv(router, msg, sizeof msg, 0);
    double batch[7], us = 0;
    for (int k = 0; k < 8; k++) { /* a warm-up batch, then 7 batches: the median */
        double t0 = clk_now();
        for (int i = 0; i < n; i++) {
            zmq_send(router, id, (size_t)id_len, ZMQ_SNDMORE);
            zmq_send(router, msg, out, 0);
            zmq_recv(router, id, sizeof id, 0);
            zmq_recv(router, msg, sizeof msg, 0);
        }
        if (k > 0)
            batch[k - 1] = (clk_now() - t0) / n * 1e6;
    }
    qsort(batch, 7, sizeof batch[0], by_value);
    us = batch[3];
    zmq_send(router, id, (size_t)id_len, ZMQ_SNDMORE);
    zmq_send(router, "q", 1, 0);
    waitpid(pid, NULL, 0);
    int linger = 0;
    zmq_setsockopt(router, ZMQ_LINGER, &linger, sizeof linger);
    zmq_close(router);
    zmq_ctx_term(ctx);
    char sock[160];
    snprintf(sock, sizeof sock, "%s/raw.sock", dir);
    unlink(sock);
    rmdir(dir);
    return us;
}

static inline double raw_round_trip(int n, size_t out, size_t back)
{
    return raw_round_trip_via(n, out, back, NULL, NULL);
}


typedef struct {
    long games, next, attempts;
    int size;
} bench_run;

static inline bool bench_next_game(void *user, rn_game *g)
{
    bench_run *b = user;
    if (b->next >= b->games)
        return false;
    long i = b->next++;
    *g = (rn_game){ .id = (uint64_t)i + 1, .black = (int)(i % 2), .white = (int)(1 - i % 2),
                    .variant = HX_CLASSICAL, .rows = b->size, .cols = b->size, .seed = (uint64_t)i * 7919 + 1 };
    return true;
}

static inline bool bench_finished(void *user, const rn_result *r, char *why, size_t whylen)
{
    bench_run *b = user;
    if (r->reason != HX_END_CONNECTED) {
        snprintf(why, whylen, "game %llu ended by %s: %s", (unsigned long long)r->game->id, hx_end_name(r->reason),
                 r->detail);
        return false;
    }
    b->attempts += hx_num_attempts(r->play);
    return true;
}

#endif
