/* tests/e2e/test_serve_siege.c — `arena serve` against clients that try to hold it, over loopback (each client
 * address its own 127.0.0.x): a client trickling its headers a byte at a time is closed within a minute (the
 * header deadline, not the idle timeout); 256 trickling connections from each of two addresses hold 64 each and
 * another address is served at once; 256 live feeds asked from each of two addresses get 8 each, the others
 * refused, and a third address is served pages and a feed; when slow clients from 40 addresses hold every slot they
 * are closed after a second (their deadline is 30 s) and a quick client is served; behind a trusted proxy the address
 * X-Forwarded-For names is what is counted, and from anyone else that header changes nothing; /logs refuses a
 * symbolic link (to /etc/passwd), a FIFO with no writer and a directory at once; a GET with a body and a POST get a
 * status line (400, 405) without the body being read; Accept is weighed by its qualities; --listen 0.0.0.0 prints a
 * warning naming what it opens. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "serve_kit.h"
#include "test_sys.h"
#include "test_util.h"

static char tmp[64], bin[512], db[128], logs[128], errlog[128];

static int setup(void **state)
{
    (void)state;
    if (e2e_dirs(tmp, "arena-serve-siege", bin) != 0)
        return -1;
    snprintf(db, sizeof db, "%s/s.db", tmp);
    snprintf(logs, sizeof logs, "%s/logs", tmp);
    snprintf(errlog, sizeof errlog, "%s/serve.err", tmp);
    char cfg[128];
    snprintf(cfg, sizeof cfg, "%s/s.ini", tmp);
    return serve_league_config(cfg, bin, "siege", 2, "3x3") == 0 &&
                   sh_run("'%s/arena' league '%s' --db '%s' --quiet --logs '%s' >/dev/null", bin, cfg, db, logs) == 0
               ? 0
               : -1;
}

static int teardown(void **state)
{
    (void)state;
    return e2e_cleanup(tmp);
}

static pid_t start_server(const char *const *extra, int *port)
{
    pid_t pid = serve_start(bin, db, extra, errlog, port);
    if (pid <= 0)
        fail_msg("arena serve did not start (see %s)", errlog);
    return pid;
}

/* The server stopped; its exit status. A status other than 0 prints what it wrote to stderr (a sanitizer's report,
 * an error) so a failure names its cause. */
static int stop_server(pid_t pid)
{
    int status = serve_stop(pid);
    if (status != 0) {
        char tail[4000] = "";
        FILE *f = fopen(errlog, "r");
        if (f) {
            fseek(f, 0, SEEK_END);
            long size = ftell(f);
            fseek(f, size > (long)sizeof tail - 1 ? size - (long)sizeof tail + 1 : 0, SEEK_SET);
            tail[fread(tail, 1, sizeof tail - 1, f)] = 0;
            fclose(f);
        }
        printf("arena serve exited with status %d; the end of its stderr (%s):\n%s\n", status, errlog, tail);
    }
    return status;
}

/* A connection from `from` that has sent `text` (NULL: nothing); -1 when it could not connect. */
static int client(int port, const char *from, const char *text)
{
    int s = serve_connect_from(port, 5, from);
    if (s >= 0 && text)
        send(s, text, strlen(text), MSG_NOSIGNAL);
    return s;
}

/* The status of the answer that starts on s (0: closed without one), read within 10 s. */
static int status_of(int s)
{
    char buf[256] = "";
    size_t got = 0;
    double until = clk_now() + 10;
    while (got < 12 && clk_now() < until) {
        struct pollfd p = { s, POLLIN, 0 };
        if (poll(&p, 1, 200) != 1)
            continue;
        ssize_t k = recv(s, buf + got, sizeof buf - 1 - got, 0);
        if (k <= 0)
            break;
        got += (size_t)k;
    }
    int status = 0;
    return sscanf(buf, "HTTP/1.%*d %d", &status) == 1 ? status : 0;
}

/* Whether the server has closed s (a read sees its end or a reset), looking for `ms`. */
static bool closed(int s, int ms)
{
    struct pollfd p = { s, POLLIN, 0 };
    if (poll(&p, 1, ms) != 1)
        return false;
    char c[4096];
    ssize_t k = recv(s, c, sizeof c, MSG_DONTWAIT);
    return k == 0 || (k < 0 && errno != EAGAIN && errno != EWOULDBLOCK);
}

static void a_trickling_client_is_closed_within_a_minute(void **state)
{
    (void)state;
    int port;
    pid_t server = start_server(NULL, &port);
    static const char req[] = "GET /league/1 HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n";
    int s = client(port, "127.0.0.2", NULL);
    assert_true(s >= 0);
    double t0 = clk_now();
    size_t sent = 0;
    while (!closed(s, 2000) && clk_now() - t0 < 90) /* a byte every 2 s: never idle for the 15 s timeout */
        if (sent < sizeof req - 1 && send(s, req + sent, 1, MSG_NOSIGNAL) == 1)
            sent++;
    double took = clk_now() - t0;
    close(s);
    printf("a client trickling its headers a byte every 2 s: closed after %.1f s (%zu bytes sent)\n", took, sent);
    assert_true(took < 60);
    serve_reply r = serve_get(port, "/league/1");
    assert_int_equal(r.status, 200);
    serve_reply_free(&r);
    assert_int_equal(stop_server(server), 0);
}

static void tricklers_from_two_addresses_leave_others_served(void **state)
{
    (void)state;
    int port;
    pid_t server = start_server(NULL, &port);
    enum { EACH = 256 };
    static int s[2 * EACH];
    for (int i = 0; i < 2 * EACH; i++)
        s[i] = client(port, i < EACH ? "127.0.0.2" : "127.0.0.3", "GET /league/1 HTTP/1.1\r\nHost: x\r\nX-Slow: ");
    /* those over an address's 64 are closed as the server accepts them: on a busy machine that can take a moment,
     * well within the 10 s the held ones get for their headers */
    int held = 2 * EACH;
    bool open[2 * EACH];
    for (int i = 0; i < 2 * EACH; i++)
        open[i] = s[i] >= 0;
    for (double until = clk_now() + 5; held > 128 && clk_now() < until;) {
        held = 0;
        for (int i = 0; i < 2 * EACH; i++) {
            if (open[i] && closed(s[i], 1))
                open[i] = false;
            held += open[i];
        }
    }
    double t0 = clk_now();
    serve_reply r = serve_get(port, "/league/1");
    double took = clk_now() - t0;
    printf("256 trickling connections from each of two addresses: %d held (64 an address), the rest closed as they "
           "opened; another address served in %.3f s\n", held, took);
    assert_int_equal(r.status, 200);
    serve_reply_free(&r);
    assert_true(held <= 128);
    for (int i = 0; i < 2 * EACH; i++)
        if (s[i] >= 0)
            close(s[i]);
    assert_int_equal(stop_server(server), 0);
}

static void streams_from_two_addresses_leave_a_third_served(void **state)
{
    (void)state;
    int port;
    pid_t server = start_server(NULL, &port);
    enum { EACH = 256 };
    static int s[2 * EACH];
    int streams = 0, refused = 0, unanswered = 0;
    for (int i = 0; i < 2 * EACH; i++) {
        s[i] = client(port, i < EACH ? "127.0.0.2" : "127.0.0.3", "GET /events HTTP/1.1\r\nHost: x\r\n\r\n");
        if (s[i] < 0) {
            unanswered++;
            continue;
        }
        int st = status_of(s[i]);
        streams += st == 200;
        refused += st == 503;
        unanswered += st == 0;
    }
    printf("512 live feeds asked from two addresses: %d streaming, %d refused (503), %d closed at once\n", streams,
           refused, unanswered);
    assert_true(streams <= 16); /* 8 from each address */
    assert_true(streams >= 2);
    serve_reply r = serve_get(port, "/league/1"); /* a third address (127.0.0.1): served */
    assert_int_equal(r.status, 200);
    serve_reply_free(&r);
    int third = client(port, "127.0.0.4", "GET /events HTTP/1.1\r\nHost: x\r\n\r\n");
    assert_int_equal(status_of(third), 200);
    close(third);
    for (int i = 0; i < 2 * EACH; i++)
        if (s[i] >= 0)
            close(s[i]);
    assert_int_equal(stop_server(server), 0);
}

static void slow_clients_never_hold_the_reserve(void **state)
{
    (void)state;
    int port;
    const char *extra[] = { "--max-connections", "40", "--reserve", "10", "--header-s", "30", NULL };
    pid_t server = start_server(extra, &port);
    enum { SLOW = 40 }; /* every slot */
    int s[SLOW];
    for (int i = 0; i < SLOW; i++) {
        char from[32];
        snprintf(from, sizeof from, "127.0.1.%d", 1 + i);
        s[i] = client(port, from, "GET /league/1 HTTP/1.1\r\nHost: x\r\nX-Slow: ");
        assert_true(s[i] >= 0);
    }
    double t0 = clk_now();
    serve_reply r = serve_get(port, "/league/1");
    while (r.status != 200 && clk_now() - t0 < 10) { /* refused while every slot is held: try again */
        serve_reply_free(&r);
        nanosleep(&(struct timespec){ 0, 100000000 }, NULL);
        r = serve_get(port, "/league/1");
    }
    double took = clk_now() - t0;
    int gone = 0;
    bool open[SLOW];
    for (int i = 0; i < SLOW; i++)
        open[i] = true;
    for (double until = clk_now() + 5; gone < SLOW && clk_now() < until;) /* the watchdog's sweep, on a busy machine */
        for (int i = 0; i < SLOW; i++)
            if (open[i] && closed(s[i], 5))
                open[i] = false, gone++;
    for (int i = 0; i < SLOW; i++)
        close(s[i]);
    printf("40 slow clients in 40 slots (a reserve of 10): a quick client served after %.2f s; %d slow ones closed "
           "within 5 s (their deadline for headers is 30 s)\n", took, gone);
    assert_int_equal(r.status, 200);
    assert_true(took < 10); /* not the 30 s of their deadline */
    serve_reply_free(&r);
    assert_true(gone >= SLOW - 30); /* at least back out of the reserve */
    assert_int_equal(stop_server(server), 0);
}

static void a_trusted_proxy_names_the_client(void **state)
{
    (void)state;
    int port;
    const char *extra[] = { "--trusted-proxy", "127.0.0.1, ::1", "--streams-per-ip", "2", NULL };
    pid_t server = start_server(extra, &port);
    int s[8], n = 0;
    /* through the proxy (127.0.0.1): counted by the forwarded address */
    for (int i = 0; i < 2; i++) {
        s[n] = client(port, "127.0.0.1", "GET /events HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 10.0.0.1\r\n\r\n");
        assert_int_equal(status_of(s[n++]), 200);
    }
    s[n] = client(port, "127.0.0.1", "GET /events HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 10.9.9.9, 10.0.0.1\r\n\r\n");
    assert_int_equal(status_of(s[n++]), 503); /* the last address before the proxy is the client's */
    s[n] = client(port, "127.0.0.1", "GET /events HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 10.0.0.2\r\n\r\n");
    assert_int_equal(status_of(s[n++]), 200);
    /* from anyone else the header changes nothing: its socket's address is counted */
    for (int i = 0; i < 2; i++) {
        char req[200];
        snprintf(req, sizeof req, "GET /events HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 10.1.0.%d\r\n\r\n", i);
        s[n] = client(port, "127.0.0.5", req);
        assert_int_equal(status_of(s[n++]), 200);
    }
    s[n] = client(port, "127.0.0.5", "GET /events HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 10.1.0.9\r\n\r\n");
    assert_int_equal(status_of(s[n++]), 503);
    for (int i = 0; i < n; i++)
        close(s[i]);
    assert_int_equal(stop_server(server), 0);
    char out[600];
    sh_capture(out, sizeof out, "'%s/arena' serve --db '%s' --trusted-proxy nginx.local 2>&1", bin, db);
    assert_non_null(strstr(out, "--trusted-proxy: trusted proxy 'nginx.local': not an IPv4 or IPv6 address"));
}

static void logs_are_regular_files_only(void **state)
{
    (void)state;
    char path[256];
    snprintf(path, sizeof path, "%s/league-link.log", logs);
    assert_int_equal(symlink("/etc/passwd", path), 0);
    snprintf(path, sizeof path, "%s/league-fifo.log", logs);
    assert_int_equal(mkfifo(path, 0644), 0);
    snprintf(path, sizeof path, "%s/league-dir.log", logs);
    assert_int_equal(mkdir(path, 0755), 0);
    snprintf(path, sizeof path, "%s/league-plain.log", logs);
    FILE *f = fopen(path, "w");
    fputs("a line of a bot\n", f);
    fclose(f);
    int port;
    const char *extra[] = { "--logs", logs, NULL };
    pid_t server = start_server(extra, &port);
    const struct {
        const char *name, *why;
    } refused[] = { { "league-link.log", "a symbolic link" }, { "league-fifo.log", "not a regular file" },
                    { "league-dir.log", "not a regular file" } };
    for (size_t i = 0; i < 3; i++) {
        char url[128];
        snprintf(url, sizeof url, "/logs/%s", refused[i].name);
        double t0 = clk_now();
        serve_reply r = serve_get(port, url);
        double took = clk_now() - t0;
        if (r.status != 404 || !strstr(r.body, refused[i].why) || strstr(r.body, "root:"))
            fail_msg("%s: %d %s", url, r.status, r.body);
        assert_true(took < 5); /* at once: a FIFO is never waited on */
        serve_reply_free(&r);
    }
    serve_reply r = serve_get(port, "/logs/league-plain.log");
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.body, "a line of a bot"));
    serve_reply_free(&r);
    assert_int_equal(stop_server(server), 0);
}

static void bodies_and_methods_get_a_status_line(void **state)
{
    (void)state;
    int port;
    pid_t server = start_server(NULL, &port);
    const struct {
        const char *req;
        int status;
    } cases[] = {
        { "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello", 400 },
        { "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\nConnection: close\r\n\r\npartial", 400 },
        { "GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n5\r\nhello\r\n", 400 },
        { "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nConnection: close\r\n\r\na=b", 400 },
        { "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", 405 },
        { "DELETE /league/1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 405 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *out = serve_exchange(port, cases[i].req, strlen(cases[i].req), NULL);
        int status = 0;
        assert_non_null(out);
        sscanf(out, "HTTP/1.1 %d", &status);
        if (status != cases[i].status)
            fail_msg("case %zu: expected %d, got: %.300s", i, cases[i].status, out[0] ? out : "(closed, no answer)");
        free(out);
    }
    assert_int_equal(stop_server(server), 0);
}

static void accept_is_weighed_by_quality(void **state)
{
    (void)state;
    int port;
    pid_t server = start_server(NULL, &port);
    const struct {
        const char *accept;
        bool json;
    } cases[] = {
        { "application/json", true },
        { "application/json;q=0, text/html", false },
        { "application/json; q=0", false },
        { "text/html;q=0.5, application/json", true },
        { "text/html, application/json", false },
        { "*/*", false },
        { "application/*", true },
        { "text/html;q=0.9, application/json;q=0.8", false },
        { "text/*;q=0.1, application/json;q=0.2", true },
        { "application/json;q=2", false }, /* a quality out of range: that range is ignored */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        serve_reply r = serve_request(port, "GET", "/league/1", cases[i].accept);
        assert_int_equal(r.status, 200);
        bool json = strncmp(r.type, "application/json", 16) == 0;
        if (json != cases[i].json)
            fail_msg("Accept: %s gave %s", cases[i].accept, r.type);
        serve_reply_free(&r);
    }
    assert_int_equal(stop_server(server), 0);
}

static void every_address_is_said_aloud(void **state)
{
    (void)state;
    char out[2000];
    sh_capture(out, sizeof out, "timeout -s TERM 3 '%s/arena' serve --db '%s' --listen 0.0.0.0:0 2>&1", bin, db);
    if (!strstr(out, "arena serve: warning: listening on 0.0.0.0, not on loopback: every page is open to whoever "
                     "reaches this machine's port"))
        fail_msg("%s", out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_trickling_client_is_closed_within_a_minute),
        cmocka_unit_test(tricklers_from_two_addresses_leave_others_served),
        cmocka_unit_test(streams_from_two_addresses_leave_a_third_served),
        cmocka_unit_test(slow_clients_never_hold_the_reserve),
        cmocka_unit_test(a_trusted_proxy_names_the_client),
        cmocka_unit_test(logs_are_regular_files_only),
        cmocka_unit_test(bodies_and_methods_get_a_status_line),
        cmocka_unit_test(accept_is_weighed_by_quality),
        cmocka_unit_test(every_address_is_said_aloud),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
