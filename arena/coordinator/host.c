/* arena/coordinator/host.c — the agent host's loop (host.h): its sockets (a DEALER to the coordinator for the
 * control messages, one more per bot relaying that bot's connection, a ROUTER on a private ipc endpoint for
 * the bots), the bots it started, and the messages of hostlink.h. */
#define _GNU_SOURCE /* mkdtemp */
#include "host.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zmq.h>

#include "clock.h"
#include "botlog.h"
#include "protocol.h"
#include "sandbox.h"
#include "bwrap.h"

typedef struct {
    bool used;
    int agent;
    char token[33];
    pid_t pid;
    uint8_t id[256]; /* its routing id on the local socket, once it connected */
    size_t id_len;
    void *dealer;    /* its relay to the coordinator */
    char log[1024];
    bl_log *out;     /* its stdout and stderr, through a pipe into `log` (botlog.h) */
} bot;

typedef struct {
    const hs_config *cfg;
    bot bots[HS_MAX_BOTS];
    void *ctx, *control, *local;
    char dir[32], local_ep[128]; /* the bots' private directory ("" until made) and endpoint */
    int serial;                  /* bots started, for their log names */
    hs_totals totals;
    bool connected;              /* the coordinator has answered */
    bool silent;                 /* it has not for 3 s (said once) */
    double heard, next_summary;  /* when it last did; when the next minute's summary is due */
    bool failed;                 /* a relay could not connect: err says why */
    char *err;
    size_t errlen;
    hl_msg in, out;
    pm_msg first;                /* a bot's first message, read for its token */
    uint8_t wire[HL_MAX_MESSAGE];
    uint8_t buf[HL_MAX_MESSAGE > PM_MAX_MESSAGE ? HL_MAX_MESSAGE : PM_MAX_MESSAGE], id[256];
} host;

/* One line of what happens, for cfg->event. */
static void say(host *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(host *h, const char *fmt, ...)
{
    if (!h->cfg->event)
        return;
    char line[1400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    h->cfg->event(h->cfg->user, line);
}

/* A DEALER to the coordinator, a CURVE client with this host's key pair; NULL with the reason in h->err. */
static void *coordinator_socket(host *h)
{
    void *s = zmq_socket(h->ctx, ZMQ_DEALER);
    int zero = 0;
    zmq_setsockopt(s, ZMQ_LINGER, &zero, sizeof zero);
    zmq_setsockopt(s, ZMQ_CURVE_SERVERKEY, h->cfg->server_key, CV_KEY_LEN);
    zmq_setsockopt(s, ZMQ_CURVE_PUBLICKEY, h->cfg->self->public_z85, CV_KEY_LEN);
    zmq_setsockopt(s, ZMQ_CURVE_SECRETKEY, h->cfg->self->secret_z85, CV_KEY_LEN);
    if (zmq_connect(s, h->cfg->endpoint) != 0) {
        snprintf(h->err, h->errlen, "cannot connect to %s: %s", h->cfg->endpoint, zmq_strerror(zmq_errno()));
        zmq_close(s);
        return NULL;
    }
    return s;
}

static void send_control(host *h, const hl_msg *m)
{
    size_t n = hl_encode(m, h->wire, sizeof h->wire);
    if (n)
        zmq_send(h->control, h->wire, n, ZMQ_DONTWAIT);
}

static void hello(host *h)
{
    hl_msg *m = &h->out;
    memset(m, 0, sizeof *m);
    m->type = HL_HELLO;
    m->n_agents = h->cfg->n_agents;
    for (int a = 0; a < h->cfg->n_agents; a++) {
        const hs_agent *ag = &h->cfg->agents[a];
        snprintf(m->agents[a].name, sizeof m->agents[a].name, "%.*s", HL_NAME_MAX - 1, ag->name);
        snprintf(m->agents[a].command, sizeof m->agents[a].command, "%.*s", HL_COMMAND_MAX - 1, ag->command.line);
        snprintf(m->agents[a].sha256, sizeof m->agents[a].sha256, "%.64s", ag->command.sha256);
    }
    send_control(h, m);
}

static void report_exit(host *h, bot *b, const char *detail)
{
    hl_msg *m = &h->out;
    memset(m, 0, sizeof *m);
    m->type = HL_EXITED;
    snprintf(m->token, sizeof m->token, "%s", b->token);
    snprintf(m->detail, sizeof m->detail, "%s", detail);
    send_control(h, m);
    if (b->dealer)
        zmq_close(b->dealer);
    bl_free(b->out);
    if (b->used)
        say(h, "%s (pid %ld) exited: %s", h->cfg->agents[b->agent].name, (long)b->pid, detail);
    else
        say(h, "could not start a bot the coordinator asked for: %s", detail);
    memset(b, 0, sizeof *b);
    h->totals.exited++;
}

static void spawn(host *h, const hl_msg *m)
{
    int a = -1;
    for (int i = 0; i < h->cfg->n_agents && a < 0; i++)
        if (strcmp(h->cfg->agents[i].name, m->agent) == 0)
            a = i;
    bot *b = NULL;
    for (int i = 0; i < HS_MAX_BOTS && !b; i++)
        if (!h->bots[i].used)
            b = &h->bots[i];
    bot tmp = { 0 };
    if (!b)
        b = &tmp;
    memset(b, 0, sizeof *b);
    snprintf(b->token, sizeof b->token, "%s", m->token);
    if (a < 0 || b == &tmp) {
        report_exit(h, b, a < 0 ? "this host does not run that agent" : "this host runs too many bots");
        return;
    }
    b->used = true;
    b->agent = a;
    snprintf(b->log, sizeof b->log, "%s/%s-%d.log", h->cfg->logs, h->cfg->agents[a].name, ++h->serial);
    char why[512];
    b->out = bl_open(b->log, h->cfg->agents[a].command.limits.log_mb, why, sizeof why);
    b->pid = b->out ? ag_spawn(&h->cfg->agents[a].command, h->local_ep, b->token, NULL, bl_writer(b->out), NULL, why,
                               sizeof why)
                    : -1;
    if (b->out)
        bl_close_writer(b->out); /* the bot has it */
    if (b->pid < 0) {
        b->used = false; /* (said as not started) */
        report_exit(h, b, why);
        return;
    }
    h->totals.started++;
    say(h, "started %s: pid %ld, log %s", h->cfg->agents[a].name, (long)b->pid, b->log);
}

/* A message from a bot on the local socket: relayed; its first (its hello, carrying its token) opens its relay. */
static void from_bot(host *h, const uint8_t *id, size_t id_len, const uint8_t *data, size_t len)
{
    bot *b = NULL;
    for (int i = 0; i < HS_MAX_BOTS && !b; i++)
        if (h->bots[i].used && h->bots[i].id_len == id_len && memcmp(h->bots[i].id, id, id_len) == 0)
            b = &h->bots[i];
    if (!b) {
        char why[128];
        pm_decode(data, len, &h->first, why, sizeof why); /* a hello's token is read even when the rest is wrong */
        for (int i = 0; i < HS_MAX_BOTS && !b; i++)
            if (h->bots[i].used && !h->bots[i].id_len && h->first.token[0] &&
                strcmp(h->bots[i].token, h->first.token) == 0)
                b = &h->bots[i];
        if (!b)
            return; /* not one of ours */
        memcpy(b->id, id, id_len);
        b->id_len = id_len;
        b->dealer = coordinator_socket(h);
        if (!b->dealer) {
            h->failed = true;
            return;
        }
    }
    zmq_send(b->dealer, data, len, ZMQ_DONTWAIT);
}

/* The coordinator's requests. */
static void on_control(host *h)
{
    int len = zmq_recv(h->control, h->buf, sizeof h->buf, ZMQ_DONTWAIT);
    if (len < 0 || hl_decode(h->buf, (size_t)len, &h->in) != 0)
        return;
    if (!h->connected || h->silent)
        say(h, "connected to %s", h->cfg->endpoint);
    h->connected = true;
    h->silent = false;
    h->heard = clk_now();
    if (h->in.type == HL_SPAWN)
        spawn(h, &h->in);
    else if (h->in.type == HL_KILL)
        for (int i = 0; i < HS_MAX_BOTS; i++)
            if (h->bots[i].used && strcmp(h->bots[i].token, h->in.token) == 0 && h->bots[i].pid > 0)
                sb_kill(h->bots[i].pid);
}

/* A bot's message on the local socket. */
static void on_local(host *h)
{
    int il = zmq_recv(h->local, h->id, sizeof h->id, ZMQ_DONTWAIT), more = 0;
    size_t sz = sizeof more;
    if (il < 0)
        return;
    zmq_getsockopt(h->local, ZMQ_RCVMORE, &more, &sz);
    if (!more)
        return;
    int len = zmq_recv(h->local, h->buf, sizeof h->buf, 0);
    if (len >= 0)
        from_bot(h, h->id, (size_t)il < sizeof h->id ? (size_t)il : sizeof h->id, h->buf,
                 (size_t)len < sizeof h->buf ? (size_t)len : sizeof h->buf);
}

/* The coordinator, to a bot. */
static void on_relay(host *h, const bot *b)
{
    int len = zmq_recv(b->dealer, h->buf, sizeof h->buf, ZMQ_DONTWAIT);
    if (len < 0)
        return;
    zmq_send(h->local, b->id, b->id_len, ZMQ_SNDMORE | ZMQ_DONTWAIT);
    zmq_send(h->local, h->buf, (size_t)len < sizeof h->buf ? (size_t)len : sizeof h->buf, ZMQ_DONTWAIT);
}

/* Bots that exited: logged and reported. */
static void reap(host *h)
{
    int status;
    long peak;
    pid_t pid;
    while ((pid = sb_reap(&status, &peak)) > 0)
        for (int i = 0; i < HS_MAX_BOTS; i++)
            if (h->bots[i].used && h->bots[i].pid == pid) {
                char why[200];
                if (sb_bound(pid, why, sizeof why) == SB_WITHIN) /* its sandbox's verdict, when it has one */
                    ag_describe_exit(status, peak, &h->cfg->agents[h->bots[i].agent].command.limits, why, sizeof why);
                bl_finish(h->bots[i].out); /* what it wrote last, before the line */
                bl_line(h->bots[i].out, "%s", why);
                report_exit(h, &h->bots[i], why);
            }
}

/* A bot whose sandbox reached a limit it has as a whole (cgroup.h) is killed; reap() reports the limit. */
static void check_limits(host *h)
{
    char why[200];
    for (int i = 0; i < HS_MAX_BOTS; i++)
        if (h->bots[i].used && h->bots[i].pid > 0 && sb_bound(h->bots[i].pid, why, sizeof why) != SB_WITHIN)
            sb_kill(h->bots[i].pid);
}

/* A coordinator silent for 3 s is said once; every minute, a summary. */
static void progress(host *h, double t)
{
    if (h->connected && !h->silent && t - h->heard > 3.0) {
        h->silent = true;
        say(h, "the coordinator has been silent for 3 s; waiting for it (it reconnects by itself)");
    }
    if (t < h->next_summary)
        return;
    if (h->next_summary > 0) {
        int running = 0;
        for (int i = 0; i < HS_MAX_BOTS; i++)
            running += h->bots[i].used;
        say(h, "running %d bot%s; started %ld, exited %ld so far", running, running == 1 ? "" : "s", h->totals.started,
            h->totals.exited);
    }
    h->next_summary = t + 60.0;
}

/* One round: waits up to 100 ms for a message or a bot's output, pings when due, handles what came (at most
 * BL_CHUNK bytes of each bot's output), reaps. */
static void serve_once(host *h, double *next_ping)
{
    zmq_pollitem_t items[2 + 2 * HS_MAX_BOTS];
    int map[2 + 2 * HS_MAX_BOTS], n = 0;
    items[n] = (zmq_pollitem_t){ h->control, 0, ZMQ_POLLIN, 0 }, map[n++] = -1;
    items[n] = (zmq_pollitem_t){ h->local, 0, ZMQ_POLLIN, 0 }, map[n++] = -2;
    for (int i = 0; i < HS_MAX_BOTS; i++)
        if (h->bots[i].used && h->bots[i].dealer)
            items[n] = (zmq_pollitem_t){ h->bots[i].dealer, 0, ZMQ_POLLIN, 0 }, map[n++] = i;
    for (int i = 0; i < HS_MAX_BOTS; i++)
        if (h->bots[i].used && h->bots[i].out && bl_fd(h->bots[i].out) >= 0)
            items[n] = (zmq_pollitem_t){ NULL, bl_fd(h->bots[i].out), ZMQ_POLLIN, 0 }, map[n++] = HS_MAX_BOTS + i;
    zmq_poll(items, n, 100);
    double t = clk_now();
    if (t >= *next_ping) { /* alive; the first pings also stand for a hello the coordinator may have missed */
        hl_msg ping = { .type = HL_PING };
        send_control(h, &ping);
        if (!h->connected)
            hello(h);
        *next_ping = t + 0.5;
    }
    for (int k = 0; k < n && !h->failed; k++) {
        if (map[k] >= HS_MAX_BOTS && items[k].revents) /* its output (also at its end) */
            bl_pump(h->bots[map[k] - HS_MAX_BOTS].out, BL_CHUNK);
        if (!(items[k].revents & ZMQ_POLLIN) || map[k] >= HS_MAX_BOTS)
            continue;
        if (map[k] == -1)
            on_control(h);
        else if (map[k] == -2)
            on_local(h);
        else
            on_relay(h, &h->bots[map[k]]);
    }
    if (!h->failed) {
        reap(h);
        check_limits(h);
        progress(h, t);
    }
}

static bool any_sandboxed(const hs_config *cfg)
{
    for (int a = 0; a < cfg->n_agents; a++)
        if (!cfg->agents[a].command.sandbox.off)
            return true;
    return false;
}

/* The sandbox check, the logs directory, the private directory and endpoint, the control connection. */
static int open_host(host *h)
{
    const hs_config *cfg = h->cfg;
    if (any_sandboxed(cfg) && sb_available(h->err, h->errlen) != 0)
        return -1;
    if (mkdir(cfg->logs, 0755) != 0 && errno != EEXIST) {
        snprintf(h->err, h->errlen, "--logs %s: %s", cfg->logs, strerror(errno));
        return -1;
    }
    sb_deny(cfg->key_file); /* no bot reads the host's secret key */
    sb_deny(cfg->logs);

    /* the bots' private endpoint, as the coordinator makes its own */
    char dir[] = "/tmp/arena-host-XXXXXX";
    if (!mkdtemp(dir)) {
        snprintf(h->err, h->errlen, "cannot make a private directory: %s", strerror(errno));
        return -1;
    }
    snprintf(h->dir, sizeof h->dir, "%s", dir);
    if (chmod(dir, 0711) != 0) { /* the sandboxes' endpoints are made here (gate.h); their users walk to them */
        snprintf(h->err, h->errlen, "cannot open %s to the sandboxes' users: %s", dir, strerror(errno));
        return -1;
    }
    snprintf(h->local_ep, sizeof h->local_ep, "ipc://%s/host.sock", dir);
    h->ctx = zmq_ctx_new();
    h->local = zmq_socket(h->ctx, ZMQ_ROUTER);
    int zero = 0;
    zmq_setsockopt(h->local, ZMQ_LINGER, &zero, sizeof zero);
    mode_t mask = umask(0177); /* the socket is 0600 from the start */
    int bound = zmq_bind(h->local, h->local_ep);
    umask(mask);
    if (bound != 0 || chmod(h->local_ep + 6, 0600) != 0) {
        snprintf(h->err, h->errlen, "cannot bind %s: %s", h->local_ep, zmq_strerror(zmq_errno()));
        return -1;
    }
    h->control = coordinator_socket(h);
    return h->control ? 0 : -1;
}

/* Kills the bots, closes every socket, removes the private directory: whatever open_host() got to. */
static void close_host(host *h)
{
    sb_kill_all();
    for (int i = 0; i < HS_MAX_BOTS; i++) {
        if (h->bots[i].dealer)
            zmq_close(h->bots[i].dealer);
        bl_free(h->bots[i].out); /* what the bot wrote last */
    }
    if (h->control)
        zmq_close(h->control);
    if (h->local)
        zmq_close(h->local);
    if (h->ctx)
        zmq_ctx_term(h->ctx);
    if (h->dir[0]) {
        char sock[200];
        snprintf(sock, sizeof sock, "%s/host.sock", h->dir);
        unlink(sock);
        rmdir(h->dir);
    }
}

hs_status hs_serve(const hs_config *cfg, hs_totals *totals, char *err, size_t errlen)
{
    host *h = calloc(1, sizeof *h);
    if (!h) {
        snprintf(err, errlen, "out of memory");
        return HS_FAILED;
    }
    h->cfg = cfg;
    h->err = err;
    h->errlen = errlen;
    bool ok = open_host(h) == 0;
    if (ok) {
        sb_adopt_orphans();
        hello(h);
        if (cfg->ready)
            cfg->ready(cfg->user);
        double next_ping = 0;
        while (!*cfg->stop && !h->failed)
            serve_once(h, &next_ping);
        ok = !h->failed;
    }
    close_host(h);
    if (totals)
        *totals = h->totals;
    free(h);
    return ok ? HS_STOPPED : HS_FAILED;
}
