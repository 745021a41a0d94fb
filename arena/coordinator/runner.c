/* arena/coordinator/runner.c — the coordinator's game loop: agent processes, their connections, games in progress,
 * deadlines, pings and forfeits (contract in runner.h, wire format in docs/protocol.md). */
#include "runner.h"
#include "sandbox.h"
#include "bwrap.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <zmq.h>

#include "botlog.h"
#include "logline.h"
#include "referee.h"
#include "hostlink.h"
#include "seeds.h"
#include "clock.h"
#include "isotime.h"

typedef enum { P_FREE, P_STARTING, P_READY, P_PLAYING } pstate;

typedef struct {
    pstate state;
    int agent, slot;           /* slot: the game it is assigned to, or -1 */
    pid_t pid;
    char token[33];
    uint8_t id[256];           /* ZeroMQ routing id, once its hello arrived */
    size_t id_len;
    double deadline;           /* P_STARTING: when the hello is due */
    uint64_t ended;            /* id of the last game it played (a move for it may cross its game_end) */
    bool has_ended;
    char public_z85[CV_KEY_LEN + 1]; /* its client key, with a guard */
    unsigned unasked;          /* messages from it since the last one to it (other than a pong) */
    uint64_t used;             /* when it was last given a game or finished one (runner.tick): the least
                                * recently used idle process makes room when the pool is full */
    char log[1024];
    char refused[512];         /* its sandbox could not be started again (why): its game is forfeited */
    bl_log *out;               /* started here: its output's pipe into `log` (held in runner.outs until reaped) */
    int host;                  /* the agent host that runs it (runner.hosts), -1: started here */
    bool asked;                /* on a host: the host was asked to start it */
    int protocol;              /* the version its hello named (PM_VERSION_MIN..PM_VERSION) */
    bool other_key;            /* started here, told a server key (pinned) that is not this coordinator's */
} proc;

/* An agent host (`arena host`) of the config: its key, and its control connection once it said hello. */
#define RN_MAX_HOSTS 32
typedef struct {
    char key[CV_KEY_LEN + 1];
    uint8_t id[256];
    size_t id_len;
    bool up;
    double last_seen;
} host;

/* A process asked to exit (`shutdown`): killed with its group when still running at `until`. */
typedef struct {
    pid_t pid;
    double until;
} closing;

/* A process started here and its log, kept until the process is reaped (its proc may be reused before). */
typedef struct {
    pid_t pid;
    bl_log *log;
} output;

/* More messages than this from a bot in a row, with none to it in between (pongs aside), is flooding: a
 * protocol error. */
#define FLOOD_LIMIT 1000

typedef struct {
    bool active, started;
    rn_game game;
    hx_referee ref;
    int proc[2];               /* by colour */
    double deadline, next_ping;
    int unanswered;            /* pings without a pong while waiting for this move */
    double t0;
    char started_at[32];
    double turn_sent;          /* when the mover was asked for its attempt */
    double think[HX_MAX_ATTEMPTS]; /* per attempt: the mover's thinking time in ms; -1: the referee's (opening) */
    bool clocked[2];           /* by colour: the player has a game clock */
    tc_clock clock[2];
    uint32_t budget_ms;        /* what the mover may take for this attempt (before the margin) */
    /* fair timing (rn_config.fair_timing, in a variant whose rules hide attempts from the opponent) */
    bool fair;
    double turn_at;            /* when the mover's turn (its first attempt of it) was sent */
    double first_ms;           /* its thinking time for that first attempt */
    int turn_attempts;         /* its attempts in this turn so far */
    double release_at;         /* when what the next player is waiting for is sent (0: nothing waits) */
    bool release_end;          /* that is the game's end (won by release_winner); else the next turn */
    int release_winner;
    int64_t hidden_ms[2];      /* by colour: what the attempts after a turn's first took off its clock, which the
                                * opponent's view of that clock leaves out */
} slot;

typedef struct {
    const rn_config *cfg;
    void *ctx, *router;
    cv_guard *guard;           /* with cfg->listen */
    char dir[256], endpoint[300], local[300]; /* the private ipc directory and endpoint; the one bound */
    int dir_lock;              /* the ipc directory open and flock'ed while the run lives (-1: none) */
    proc *procs;
    int n_procs;
    closing *closing;          /* asked to exit, not yet reaped */
    int n_closing, cap_closing;
    uint64_t tick;             /* counts process assignments (proc.used) */
    double next_limit_check;   /* when check_limits() next reads the sandboxes' cgroups */
    int culprit;               /* the process fault() is about to kill, or -1 */
    slot *slots;
    int serial;                /* processes started so far */
    pm_msg *greeting;          /* per agent: its first hello */
    bool *greeted;
    bool exhausted, failed, refused; /* refused: an agent refused at its hello (RN_REFUSED) */
    int k;                     /* slots */
    uint8_t seed_key[SEEDS_KEY_BYTES]; /* players' seeds derive from the game's with it (cfg->seed_key, or drawn) */
    char last_fault[PM_MAX_STRING + 32];
    char *err;
    size_t errlen;
    uint8_t buf[PM_MAX_MESSAGE];
    pm_msg in, out;
    host hosts[RN_MAX_HOSTS];
    int n_hosts;
    long wrong_key;            /* the guard's failed CURVE handshakes for want of the server's key, seen so far */
    char user_id[CV_KEY_LEN + 1]; /* the CURVE client key of the message being handled ("" without a guard) */
    hl_msg hl;
    uint8_t hl_buf[512];
    output *outs;              /* logs of processes started here and not yet reaped */
    int n_outs, cap_outs;
    zmq_pollitem_t *items;     /* what step() polls: 4 + cap_outs */
} runner;

static void fail(runner *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(runner *r, const char *fmt, ...)
{
    if (r->failed)
        return;
    r->failed = true;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->err, r->errlen, fmt, ap);
    va_end(ap);
}

static const char *agent_name(const runner *r, const proc *p)
{
    return r->cfg->agents[p->agent].name;
}

/* ---- the processes' output (botlog.h) ---- */

/* The coordinator's line in process p's log: after what the process wrote before it, through its log's pipe
 * when it was started here; straight into the file for a process on an agent host (its output stays there). */
static void note(proc *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(proc *p, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (p->out)
        bl_line(p->out, "%s", msg);
    else
        log_line(p->log, "%s", msg);
}

/* Room for one more output (and its poll item). */
static bool grow_outputs(runner *r)
{
    if (r->n_outs < r->cap_outs)
        return true;
    int cap = r->cap_outs ? 2 * r->cap_outs : 16;
    output *o = realloc(r->outs, (size_t)cap * sizeof *o);
    if (o)
        r->outs = o;
    zmq_pollitem_t *it = o ? realloc(r->items, (size_t)(4 + cap) * sizeof *it) : NULL;
    if (it)
        r->items = it;
    if (!o || !it)
        return false;
    r->cap_outs = cap;
    return true;
}

/* Starts process p of agent a here, its stdout and stderr a pipe into its log. Returns its pid, or -1 (the run
 * has failed). An agent that cannot be started because of its own doing (a link it planted in its writable
 * directory, which its sandbox refuses: sandbox.h's SB_FAULT_BOT), at any start, or that has started before in
 * this run and cannot be started again, is not the run's failure: p->refused says why, the pid is 0, and its game
 * is forfeited. */
static pid_t start_here(runner *r, proc *p, const rn_agent *a, char *const env[])
{
    char why[512];
    bl_log *out = grow_outputs(r) ? bl_open(p->log, a->command->limits.log_mb, why, sizeof why) : NULL;
    if (!out) {
        fail(r, "agent '%s': %s", a->name, r->n_outs < r->cap_outs ? why : "out of memory");
        return -1;
    }
    sb_fault fault;
    pid_t pid = ag_spawn(a->command, r->local, p->token, env, bl_writer(out), &fault, why, sizeof why);
    bl_close_writer(out); /* the process has it */
    if (pid < 0) {
        if (fault == SB_FAULT_BOT)
            bl_line(out, "cannot start it: %s", why);
        bl_free(out);
        if (r->greeted[p->agent] || fault == SB_FAULT_BOT) {
            snprintf(p->refused, sizeof p->refused, "%s", why);
            return 0;
        }
        fail(r, "agent '%s': %s", a->name, why);
        return -1;
    }
    r->outs[r->n_outs++] = (output){ pid, out };
    p->out = out;
    return pid;
}

/* Poll items for the outputs whose pipe is open, in the order of r->outs. Returns their number. */
static int poll_outputs(runner *r, zmq_pollitem_t *items)
{
    int n = 0;
    for (int i = 0; i < r->n_outs; i++)
        if (bl_fd(r->outs[i].log) >= 0)
            items[n++] = (zmq_pollitem_t){ NULL, bl_fd(r->outs[i].log), ZMQ_POLLIN, 0 };
    return n;
}

/* Reads the outputs that zmq_poll found ready (or ended): at most BL_CHUNK each, so a process that floods its
 * output costs one bounded read per turn of the loop. */
static void pump_outputs(runner *r, const zmq_pollitem_t *items)
{
    for (int i = 0, k = 0; i < r->n_outs; i++)
        if (bl_fd(r->outs[i].log) >= 0 && items[k++].revents)
            bl_pump(r->outs[i].log, BL_CHUNK);
}

/* Process `pid` was reaped: what is left of its output is read and its pipe closed (its log stays for the
 * line saying how it ended, until drop_output()). */
static void finish_output(runner *r, pid_t pid)
{
    for (int i = 0; i < r->n_outs; i++)
        if (r->outs[i].pid == pid)
            bl_finish(r->outs[i].log);
}

static void drop_output(runner *r, pid_t pid)
{
    for (int i = 0; i < r->n_outs; i++) {
        if (r->outs[i].pid != pid)
            continue;
        for (int k = 0; k < r->n_procs; k++)
            if (r->procs[k].out == r->outs[i].log)
                r->procs[k].out = NULL;
        bl_free(r->outs[i].log);
        r->outs[i--] = r->outs[--r->n_outs];
    }
}

/* ---- sending ---- */

static void fault(runner *r, int pi, hx_end_reason reason, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Sends r->hl to host h's control connection. */
static void send_host(runner *r, int h)
{
    size_t n = hl_encode(&r->hl, r->hl_buf, sizeof r->hl_buf);
    host *x = &r->hosts[h];
    if (!n || !x->up)
        return;
    zmq_send(r->router, x->id, x->id_len, ZMQ_SNDMORE | ZMQ_DONTWAIT);
    zmq_send(r->router, r->hl_buf, n, ZMQ_DONTWAIT);
}

/* Asks process pi's host to start it. */
static void ask_host(runner *r, int pi)
{
    proc *p = &r->procs[pi];
    memset(&r->hl, 0, sizeof r->hl);
    r->hl.type = HL_SPAWN;
    snprintf(r->hl.agent, sizeof r->hl.agent, "%s", r->cfg->agents[p->agent].name);
    memcpy(r->hl.token, p->token, sizeof r->hl.token);
    send_host(r, p->host);
    p->asked = true;
    p->deadline = clk_now() + r->cfg->handshake_ms / 1000.0;
    note(p, "asked host %.12s... to start it", r->hosts[p->host].key);
}

static int send_raw(runner *r, proc *p, const pm_msg *m)
{
    size_t n = pm_encode(m, r->buf, sizeof r->buf);
    if (n == 0)
        return -1;
    if (r->cfg->debug) {
        char text[900];
        note(p, "debug -> %s", pm_dump(r->buf, n, text, sizeof text));
    }
    if (m->type != PM_PONG)
        p->unasked = 0;
    if (zmq_send(r->router, p->id, p->id_len, ZMQ_SNDMORE | ZMQ_DONTWAIT) < 0 ||
        zmq_send(r->router, r->buf, n, ZMQ_DONTWAIT) != (int)n)
        return -1;
    return 0;
}

/* The forfeit of a process its sandbox has a verdict on (sandbox.h): a limit of the sandbox as a whole is a crash,
 * a misused endpoint (too many connections, a connection the transport dropped) a protocol error. */
static hx_end_reason verdict_reason(sb_verdict v)
{
    return v == SB_TRANSPORT ? HX_END_PROTOCOL_ERROR : HX_END_CRASH;
}

/* Process pi's endpoint saw the transport drop its connection, or more connections than it may open (sandbox.h's
 * SB_TRANSPORT, the reason in why). Before its hello over a CURVE-guarded socket a dropped connection is a failed
 * handshake, said as such: a server key pinned to another coordinator's (`disconnected`, as wrong_keys() says it),
 * or keys not used as given. */
static void transport_fault(runner *r, int pi, const char *why)
{
    proc *p = &r->procs[pi];
    if (r->guard && p->id_len == 0 && p->other_key)
        fault(r, pi, HX_END_DISCONNECTED, "CURVE handshake failed: wrong server key (it was told %.40s; this "
              "coordinator's is %.40s)", r->cfg->agents[p->agent].server_key, r->cfg->server_key->public_z85);
    else if (r->guard && p->id_len == 0 && strstr(why, "dropped"))
        fault(r, pi, HX_END_PROTOCOL_ERROR, "its connection was dropped before its hello: its CURVE handshake failed "
              "(the reason is in %s/%s-connections.log)", r->cfg->log_dir, r->cfg->log_prefix);
    else
        fault(r, pi, HX_END_PROTOCOL_ERROR, "%s", why);
}

/* Why an exited process ended: its sandbox's verdict when there is one, else its exit status (with its own limits).
 * Returns the reason of its forfeit. */
static hx_end_reason exit_detail(const runner *r, const proc *p, int status, long peak_kb, char *why, size_t n)
{
    sb_verdict v = sb_bound(p->pid, why, n);
    if (v == SB_WITHIN)
        ag_describe_exit(status, peak_kb, &r->cfg->agents[p->agent].command->limits, why, n);
    return verdict_reason(v);
}

/* Sends m to process pi; a failure is the agent's fault (it exited, or it does not read its messages). */
static bool send_to(runner *r, int pi, const pm_msg *m)
{
    proc *p = &r->procs[pi];
    if (send_raw(r, p, m) == 0)
        return true;
    int err = zmq_errno(), status;
    long peak_kb = 0;
    char why[160];
    /* Its connection is gone: a bot that died takes a moment to be seen exiting (through its sandbox's
     * process 1 and bwrap), so wait for that up to 250 ms before calling it a disconnection. */
    bool exited = sb_reap_pid(p->pid, &status, &peak_kb);
    struct timespec tick = { 0, 2 * 1000 * 1000 };
    for (int i = 0; !exited && err == EHOSTUNREACH && i < 125 && kill(p->pid, 0) == 0 &&
                    sb_bound(p->pid, why, sizeof why) != SB_TRANSPORT; i++) {
        nanosleep(&tick, NULL);
        exited = sb_reap_pid(p->pid, &status, &peak_kb);
    }
    if (exited) {
        pid_t pid = p->pid;
        finish_output(r, pid);
        hx_end_reason reason = exit_detail(r, p, status, peak_kb, why, sizeof why);
        fault(r, pi, reason, "%s", why);
        drop_output(r, pid);
    } else if (p->pid > 0 && sb_bound(p->pid, why, sizeof why) == SB_TRANSPORT) {
        transport_fault(r, pi, why);
    } else {
        fault(r, pi, HX_END_DISCONNECTED, "cannot send '%s': %s", pm_type_name(m->type),
              err == EAGAIN ? "it does not read its messages" : zmq_strerror(err));
    }
    return false;
}

static void send_error(runner *r, proc *p, const char *text)
{
    memset(&r->out, 0, sizeof r->out);
    r->out.type = PM_ERROR;
    snprintf(r->out.message, sizeof r->out.message, "%s", text);
    send_raw(r, p, &r->out);
}

/* ---- processes ---- */

static void stop_proc(runner *r, int pi, bool gently)
{
    proc *p = &r->procs[pi];
    if (p->state == P_FREE)
        return;
    bool asked = false;
    if (gently && p->id_len) {
        memset(&r->out, 0, sizeof r->out);
        r->out.type = PM_SHUTDOWN;
        asked = send_raw(r, p, &r->out) == 0;
    }
    if (asked && p->pid > 0 && r->n_closing == r->cap_closing) {
        int cap = r->cap_closing ? 2 * r->cap_closing : 16;
        closing *c = realloc(r->closing, (size_t)cap * sizeof *c);
        if (c) {
            r->closing = c;
            r->cap_closing = cap;
        }
    }
    if (asked && p->pid > 0 && r->n_closing < r->cap_closing)
        r->closing[r->n_closing++] = (closing){ p->pid, clk_now() + 1.0 };
    else if (p->pid > 0)
        sb_kill(p->pid); /* reaped later by sb_reap() */
    if (p->host >= 0 && p->asked && !asked) { /* on a host: it kills it */
        memset(&r->hl, 0, sizeof r->hl);
        r->hl.type = HL_KILL;
        memcpy(r->hl.token, p->token, sizeof r->hl.token);
        send_host(r, p->host);
    }
    p->state = P_FREE;
    cv_revoke(r->guard, p->public_z85);
    p->slot = -1;
    p->id_len = 0;
}

static int spawn(runner *r, int agent)
{
    int pi = -1;
    for (int i = 0; i < r->n_procs && pi < 0; i++)
        if (r->procs[i].state == P_FREE)
            pi = i;
    if (pi < 0) { /* retire the least recently used idle process of another agent */
        for (int i = 0; i < r->n_procs; i++)
            if (r->procs[i].slot < 0 && r->procs[i].agent != agent && (pi < 0 || r->procs[i].used < r->procs[pi].used))
                pi = i;
        if (pi >= 0)
            stop_proc(r, pi, true);
    }
    if (pi < 0) {
        fail(r, "internal: no process slot left for agent '%s'", r->cfg->agents[agent].name);
        return -1;
    }
    proc *p = &r->procs[pi];
    memset(p, 0, sizeof *p);
    p->agent = agent;
    p->slot = -1;
    p->used = ++r->tick;
    ag_token(p->token);
    const rn_agent *a = &r->cfg->agents[agent];
    char name[64];
    size_t k = 0;
    for (const char *c = a->name; *c && k < sizeof name - 1; c++)
        name[k++] = (char)((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
                                   *c == '-' || *c == '.' || *c == '_'
                               ? *c
                               : '_');
    name[k] = '\0';
    snprintf(p->log, sizeof p->log, "%s/%s-%s-%d.log", r->cfg->log_dir, r->cfg->log_prefix, name, ++r->serial);
    p->host = -1;
    if (a->host) { /* started by its host, which relays its connection */
        for (int h = 0; h < r->n_hosts; h++)
            if (strcmp(r->hosts[h].key, a->host) == 0)
                p->host = h;
        p->pid = 0;
        p->state = P_STARTING;
        if (r->hosts[p->host].up)
            ask_host(r, pi);
        else
            p->deadline = clk_now() + r->cfg->host_wait_ms / 1000.0;
        return pi;
    }
    char keys[3][64], *env[4] = { NULL };
    if (r->guard) {
        cv_keypair client;
        if (cv_keygen(&client) != 0) {
            fail(r, "agent '%s': cannot make a CURVE key pair", a->name);
            return -1;
        }
        memcpy(p->public_z85, client.public_z85, sizeof p->public_z85);
        snprintf(keys[0], sizeof keys[0], "ARENA_SERVER_KEY=%s",
                 a->server_key ? a->server_key : r->cfg->server_key->public_z85);
        p->other_key = a->server_key && strcmp(a->server_key, r->cfg->server_key->public_z85) != 0;
        snprintf(keys[1], sizeof keys[1], "ARENA_PUBLIC_KEY=%s", client.public_z85);
        snprintf(keys[2], sizeof keys[2], "ARENA_SECRET_KEY=%s", client.secret_z85);
        for (int i = 0; i < 3; i++)
            env[i] = keys[i];
        cv_allow(r->guard, client.public_z85);
    }
    p->pid = start_here(r, p, a, env);
    if (p->pid < 0)
        return -1;
    p->state = P_STARTING;
    p->deadline = clk_now() + (p->refused[0] ? 0.0 : r->cfg->handshake_ms / 1000.0);
    return pi;
}

/* ---- games ---- */

static uint32_t clamp_ms(int64_t ms)
{
    return ms > (int64_t)UINT32_MAX ? UINT32_MAX : (uint32_t)ms;
}

/* The clocks into the mover's turn message (protocol 2, docs/protocol.md "Clocks"; a protocol-1 bot is not told
 * them but runs on its clock all the same), and its budget. r->out is shared by every message the runner sends, so
 * both clock flags are set here for every turn: a player without a clock (time odds), or one of protocol 1, is never
 * told the clocks of the previous turn's message. */
static void tell_clocks(runner *r, slot *s, int colour)
{
    s->budget_ms = r->cfg->move_ms;
    r->out.has_clock = r->out.has_opp_clock = false;
    bool tell = r->procs[s->proc[colour]].protocol >= 2;
    if (s->clocked[colour]) {
        const tc_clock *c = &s->clock[colour];
        r->out.has_clock = tell;
        r->out.clock_ms = clamp_ms(c->left_ms);
        r->out.inc_ms = c->tc.inc_ms;
        r->out.moves_to_go = tc_clock_moves_to_go(c);
        if (r->out.clock_ms < s->budget_ms)
            s->budget_ms = r->out.clock_ms;
    }
    if (s->clocked[!colour] && tell) {
        r->out.has_opp_clock = true;
        /* with fair timing, as if each of the opponent's turns had been its first attempt alone: the time of the
         * attempts the rules hide from this player is not shown (docs/protocol.md "Fair timing") */
        r->out.opp_clock_ms = clamp_ms(s->clock[!colour].left_ms + s->hidden_ms[!colour]);
    }
}

/* ---- fair timing (docs/protocol.md "Fair timing") ----
 *
 * In classical, an attempt on a hidden stone is rejected and the mover moves again, and the stone's owner is not told;
 * but it would wait longer for its turn. With fair timing a turn of the mover, begun at turn_at, is over for the
 * waiting player at turn_at + S * ceil(R / S), R the time the turn took, S = FT_FACTOR times the mover's thinking for
 * the turn's first attempt plus FT_FLOOR_MS: the next turn (or the game's end) is sent then, not when the turn ended.
 * The wait is S, whatever the attempts after the first, unless they took longer than S together (the rare turn of
 * FT_FACTOR or more rejections, or a slow one), and the first attempt's time is taken before its outcome is known. */
#define FT_FACTOR 6.0
#define FT_FLOOR_MS 2.0

static bool fair_variant(hx_variant v)
{
    return hx_variant_keeps_turn(v) && hx_variant_report(v) == HX_REPORT_NONE;
}

/* When the turn that just ended is over for the waiting player. */
static double fair_release(const slot *s, double now)
{
    double step = (FT_FACTOR * s->first_ms + FT_FLOOR_MS) / 1000.0, took = now - s->turn_at;
    return s->turn_at + step * (took <= step ? 1.0 : ceil(took / step));
}

static void next_turn(runner *r, slot *s)
{
    ref_turn(&s->ref, &r->out);
    int colour = hx_to_move(&s->ref.game);
    int mover = s->proc[colour];
    tell_clocks(r, s, colour);
    double t = clk_now();
    s->turn_sent = t;
    if (s->turn_attempts == 0)
        s->turn_at = t;
    s->deadline = t + ((double)s->budget_ms + r->cfg->margin_ms) / 1000.0;
    s->next_ping = t + r->cfg->ping_ms / 1000.0;
    s->unanswered = 0;
    send_to(r, mover, &r->out);
}

static void end_game(runner *r, int si, int winner, hx_end_reason reason, const char *detail)
{
    slot *s = &r->slots[si];
    s->active = false; /* first: a failed send below must not end this game twice */
    char finished[32];
    iso_now(finished);
    if (!s->started)
        memcpy(s->started_at, finished, sizeof finished);
    if (s->started) {
        static pm_msg end;
        ref_end(&s->ref, winner, reason, detail, &end);
        for (int c = 0; c < 2; c++) {
            proc *p = &r->procs[s->proc[c]];
            ref_tail(&s->ref, c, &end); /* protocol 2: with what it was not yet told */
            if (p->state == P_PLAYING && p->slot == si)
                send_raw(r, p, &end);
        }
    } else { /* forfeited before it started: the record holds the opening (when valid) and nothing else */
        char why[160];
        ref_init(&s->ref, s->game.id, s->game.variant, s->game.rows, s->game.cols, s->game.flags);
        if (s->game.opening_len > 0 && ref_opening(&s->ref, s->game.opening, s->game.opening_len, why, sizeof why) != 0)
            ref_init(&s->ref, s->game.id, s->game.variant, s->game.rows, s->game.cols, s->game.flags);
    }
    for (int c = 0; c < 2; c++) {
        proc *p = &r->procs[s->proc[c]];
        if (p->slot == si) {
            p->slot = -1;
            p->ended = s->game.id;
            p->has_ended = s->started;
            p->used = ++r->tick;
            if (p->state == P_PLAYING)
                p->state = P_READY;
            /* `restart = game`: the process that played is asked to exit (the one at fault is killed) */
            if (s->started && p->state == P_READY && s->proc[c] != r->culprit &&
                r->cfg->agents[p->agent].restart_each_game)
                stop_proc(r, s->proc[c], true);
        }
    }
    rn_result res = {
        .game = &s->game, .play = &s->ref.game, .winner = winner, .reason = reason, .detail = detail,
        .seconds = s->started ? clk_now() - s->t0 : 0.0, .started = s->started_at, .finished = finished,
        .think_ms = s->started ? s->think : NULL,
        .clock = { s->clocked[0] ? &s->clock[0] : NULL, s->clocked[1] ? &s->clock[1] : NULL },
    };
    char why[512] = "";
    if (!r->cfg->finished(r->cfg->user, &res, why, sizeof why))
        fail(r, "%s", why[0] ? why : "stopped by the caller");
}

/* Process pi is at fault: its game (if any) is forfeited, and the process is killed. */
static void fault(runner *r, int pi, hx_end_reason reason, const char *fmt, ...)
{
    proc *p = &r->procs[pi];
    char detail[PM_MAX_STRING + 1];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    snprintf(r->last_fault, sizeof r->last_fault, "%s: %s", hx_end_name(reason), detail);
    int si = p->slot;
    if (si >= 0 && r->slots[si].active) {
        slot *s = &r->slots[si];
        int loser = s->proc[HX_BLACK] == pi ? HX_BLACK : HX_WHITE;
        note(p, "game %llu: forfeit (%s): %s", (unsigned long long)s->game.id, hx_end_name(reason), detail);
        if (reason == HX_END_PROTOCOL_ERROR || reason == HX_END_ILLEGAL)
            send_error(r, p, detail);
        int outer = r->culprit;
        r->culprit = pi;
        end_game(r, si, !loser, reason, detail);
        r->culprit = outer;
    } else {
        note(p, "stopped (%s): %s", hx_end_name(reason), detail);
    }
    stop_proc(r, pi, false);
}

static bool plays(const pm_msg *hello, const rn_game *g)
{
    if (!(hello->variants & (1u << g->variant)))
        return false;
    if (hello->n_boards == 0)
        return true;
    for (int i = 0; i < hello->n_boards; i++)
        if (hello->boards[i][0] == g->rows && hello->boards[i][1] == g->cols)
            return true;
    return false;
}

static void try_start(runner *r, int si)
{
    slot *s = &r->slots[si];
    for (int c = 0; c < 2; c++)
        if (r->procs[s->proc[c]].state != P_READY)
            return;
    for (int c = 0; c < 2; c++) {
        int agent = r->procs[s->proc[c]].agent;
        if (!plays(&r->greeting[agent], &s->game)) {
            fail(r, "agent '%s' does not play %s %dx%d (see the variants and boards in its hello)",
                 r->cfg->agents[agent].name, hx_variant_name(s->game.variant), s->game.rows, s->game.cols);
            return;
        }
    }
    if (ref_init(&s->ref, s->game.id, s->game.variant, s->game.rows, s->game.cols, s->game.flags) != 0) {
        fail(r, "game %llu: cannot play %s on %dx%d%s", (unsigned long long)s->game.id,
             hx_variant_name(s->game.variant), s->game.rows, s->game.cols,
             s->game.flags & HX_SWAP_RULE ? " with the swap rule" : "");
        return;
    }
    for (int c = 0; c < 2; c++)
        ref_speaks(&s->ref, c, r->procs[s->proc[c]].protocol);
    char why[160];
    if (s->game.opening_len > 0 && ref_opening(&s->ref, s->game.opening, s->game.opening_len, why, sizeof why) != 0) {
        fail(r, "game %llu: bad opening: %s", (unsigned long long)s->game.id, why);
        return;
    }
    for (int i = 0; i < HX_MAX_ATTEMPTS; i++)
        s->think[i] = -1.0;
    for (int c = 0; c < 2; c++) {
        const tc_control *tc = r->cfg->agents[c == HX_BLACK ? s->game.black : s->game.white].time_control;
        s->clocked[c] = tc && tc->base_ms > 0;
        if (s->clocked[c])
            tc_clock_start(&s->clock[c], tc);
    }
    s->started = true;
    s->t0 = clk_now();
    s->fair = r->cfg->fair_timing && fair_variant(s->game.variant);
    iso_now(s->started_at);
    for (int c = 0; c < 2; c++)
        r->procs[s->proc[c]].state = P_PLAYING;
    for (int c = 0; c < 2; c++) {
        ref_game_start(&s->ref, c, r->cfg->move_ms, seeds_player(r->seed_key, s->game.seed, c), &r->out);
        if (!send_to(r, s->proc[c], &r->out))
            return;
        for (int k = 0; ref_replay(&s->ref, c, k, &r->out); k++) /* protocol 1: its opening stones as results */
            if (!send_to(r, s->proc[c], &r->out))
                return;
    }
    next_turn(r, s);
}

/* A process of `agent` for slot si: an idle one, or a new one. */
static int acquire(runner *r, int agent, int si)
{
    int pi = -1;
    for (int i = 0; i < r->n_procs; i++) { /* an idle one, one that said hello first */
        proc *p = &r->procs[i];
        if (p->agent == agent && p->slot < 0 && (p->state == P_READY || p->state == P_STARTING) &&
            (pi < 0 || (p->state == P_READY && r->procs[pi].state != P_READY)))
            pi = i;
    }
    if (pi >= 0) {
        r->procs[pi].slot = si;
        r->procs[pi].used = ++r->tick;
        return pi;
    }
    pi = spawn(r, agent);
    if (pi >= 0)
        r->procs[pi].slot = si;
    return pi;
}

static void fill_slots(runner *r)
{
    for (int si = 0; si < r->k && !r->exhausted && !r->failed; si++) {
        slot *s = &r->slots[si];
        if (s->active)
            continue;
        memset(s, 0, sizeof *s);
        if (!r->cfg->next_game(r->cfg->user, &s->game)) {
            r->exhausted = true;
            return;
        }
        s->active = true;
        s->proc[0] = s->proc[1] = -1;
        for (int c = 0; c < 2 && !r->failed; c++) {
            int agent = c == HX_BLACK ? s->game.black : s->game.white;
            if (agent < 0 || agent >= r->cfg->n_agents) {
                fail(r, "game %llu: no agent %d", (unsigned long long)s->game.id, agent);
                return;
            }
            s->proc[c] = acquire(r, agent, si);
        }
        if (!r->failed)
            try_start(r, si);
    }
}

/* ---- incoming messages ---- */

static void on_hello(runner *r, const uint8_t *id, size_t id_len)
{
    int pi = -1;
    for (int i = 0; i < r->n_procs && pi < 0; i++)
        if (r->procs[i].state == P_STARTING && r->procs[i].id_len == 0 && strcmp(r->procs[i].token, r->in.token) == 0)
            pi = i;
    if (pi < 0)
        return; /* a stray (unknown or spent token): not ours to talk to */
    proc *p = &r->procs[pi];
    memcpy(p->id, id, id_len);
    p->id_len = id_len;
    if (r->in.protocol < PM_VERSION_MIN || r->in.protocol > PM_VERSION) {
        char why[96];
        snprintf(why, sizeof why, "speaks protocol %d; this arena speaks %d to %d", r->in.protocol, PM_VERSION_MIN,
                 PM_VERSION);
        send_error(r, p, why);
        fault(r, pi, HX_END_PROTOCOL_ERROR, "%s", why);
        return;
    }
    p->protocol = r->in.protocol;
    if (p->protocol < 2 && r->cfg->refuse_v1) { /* before any game of it: nothing of it is played */
        char why[PM_MAX_STRING + 1];
        snprintf(why, sizeof why, "agent '%.63s' speaks protocol %d; %.160s", agent_name(r, p), p->protocol,
                 r->cfg->refuse_v1);
        send_error(r, p, why);
        note(p, "refused: %s", why);
        fail(r, "%s", why);
        r->refused = true;
        return;
    }
    if (!r->greeted[p->agent]) {
        r->greeted[p->agent] = true;
        r->greeting[p->agent] = r->in;
        char why[512] = "";
        if (r->cfg->hello && !r->cfg->hello(r->cfg->user, p->agent, &r->in, why, sizeof why)) {
            fail(r, "agent '%s': %s", agent_name(r, p), why[0] ? why : "refused");
            return;
        }
    }
    note(p, "connected: %s %s (protocol %d)", r->in.name, r->in.version, r->in.protocol);
    p->state = P_READY;
    if (p->slot >= 0)
        try_start(r, p->slot);
}

/* A hello that does not decode (a key missing or mistyped) but carries the token of a process still starting:
 * that process broke the protocol, at once. Without a pending token it is a stranger's, and ignored. */
static void on_bad_hello(runner *r, const uint8_t *id, size_t id_len, const char *why)
{
    int pi = -1;
    for (int i = 0; i < r->n_procs && pi < 0 && r->in.token[0]; i++)
        if (r->procs[i].state == P_STARTING && r->procs[i].id_len == 0 && strcmp(r->procs[i].token, r->in.token) == 0)
            pi = i;
    if (pi < 0)
        return;
    proc *p = &r->procs[pi];
    memcpy(p->id, id, id_len);
    p->id_len = id_len;
    char detail[PM_MAX_STRING + 1];
    snprintf(detail, sizeof detail, "hello: %.240s", why);
    send_error(r, p, detail);
    fault(r, pi, HX_END_PROTOCOL_ERROR, "%s", detail);
}

/* The forfeit of a player whose clock ran out: its clock goes to 0. */
static void out_of_time(runner *r, int pi, tc_clock *c)
{
    int64_t had = c->left_ms; /* at its turn */
    c->left_ms = 0;
    char tc[TC_TEXT_MAX];
    fault(r, pi, HX_END_TIMEOUT, "out of time: clock 0 ms left (%lld ms at its turn, +%u ms margin; tc %s)",
          (long long)had, r->cfg->margin_ms, tc_format(&c->tc, tc, sizeof tc));
}

/* Charges the mover's clock with an attempt in time that took ms; the increment (and a new period) when the turn
 * passed. */
static void charge_clock(slot *s, int colour, double ms)
{
    tc_clock *c = &s->clock[colour];
    int64_t had = c->left_ms;
    tc_clock_charge(c, ms);
    if (s->fair && s->turn_attempts > 0) /* an attempt after the turn's first: what it cost is not shown */
        s->hidden_ms[colour] += had - c->left_ms;
    if (!hx_over(&s->ref.game) && hx_to_move(&s->ref.game) != colour)
        tc_clock_complete(c);
}

static void on_move(runner *r, int pi)
{
    proc *p = &r->procs[pi];
    if (p->has_ended && r->in.game == p->ended)
        return; /* it was answering a turn when its game ended (the opponent won or forfeited) */
    if (p->state != P_PLAYING) {
        fault(r, pi, HX_END_PROTOCOL_ERROR, "'move' while not in a game");
        return;
    }
    int si = p->slot;
    slot *s = &r->slots[si];
    int colour = s->proc[HX_BLACK] == pi ? HX_BLACK : HX_WHITE;
    if (hx_to_move(&s->ref.game) != colour || s->release_at > 0) { /* not asked yet (fair timing: not released) */
        fault(r, pi, HX_END_PROTOCOL_ERROR, "'move' out of turn");
        return;
    }
    if (r->in.game != s->game.id) {
        fault(r, pi, HX_END_PROTOCOL_ERROR, "'move' for game %llu; the game in progress is %llu",
              (unsigned long long)r->in.game, (unsigned long long)s->game.id);
        return;
    }
    double ms = (clk_now() - s->turn_sent) * 1000.0;
    tc_clock *clock = s->clocked[colour] ? &s->clock[colour] : NULL;
    if (clock && ms > (double)clock->left_ms + r->cfg->margin_ms) { /* past its clock and the margin: not played */
        out_of_time(r, pi, clock);
        return;
    }
    int cell = r->in.cell;
    int rc = ref_move(&s->ref, cell, &r->out);
    if (rc < 0) {
        int cells = s->game.rows * s->game.cols;
        char name[HX_CELL_NAME_MAX];
        if (cell == HX_SWAP)
            fault(r, pi, HX_END_ILLEGAL, "swap: %s", hx_strerror(rc));
        else if (cell < 0 || cell >= cells)
            fault(r, pi, HX_END_ILLEGAL, "cell %d: off the %dx%d board", cell, s->game.rows, s->game.cols);
        else
            fault(r, pi, HX_END_ILLEGAL, "%s: %s", (hx_cell_name(cell, s->game.cols, name), name), hx_strerror(rc));
        return;
    }
    int k = hx_num_attempts(&s->ref.game) - 1; /* the attempt just played */
    if (k >= 0 && k < HX_MAX_ATTEMPTS)
        s->think[k] = ms;
    if (clock)
        charge_clock(s, colour, ms);
    if (s->turn_attempts++ == 0)
        s->first_ms = ms;
    if (r->out.type == PM_RESULT && !send_to(r, pi, &r->out)) /* protocol 1; 2: in its next turn or game_end */
        return;
    bool over = hx_over(&s->ref.game), passed = over || hx_to_move(&s->ref.game) != colour;
    if (passed)
        s->turn_attempts = 0;
    if (passed && s->fair) { /* sent when the schedule says, not now */
        s->release_at = fair_release(s, clk_now());
        s->release_end = over;
        s->release_winner = over ? hx_winner(&s->ref.game) : 0;
    } else if (over) {
        end_game(r, si, hx_winner(&s->ref.game), HX_END_CONNECTED, "");
    } else {
        next_turn(r, s);
    }
}

/* A message of host h (in r->hl) on connection `id`: its hello (the agents it runs), a ping, or a process that
 * exited. */
static void on_host(runner *r, int h, const uint8_t *id, size_t id_len)
{
    host *x = &r->hosts[h];
    x->last_seen = clk_now();
    switch (r->hl.type) {
    case HL_HELLO:
        memcpy(x->id, id, id_len);
        x->id_len = id_len;
        x->up = true;
        for (int i = 0; i < r->hl.n_agents; i++)
            for (int a = 0; a < r->cfg->n_agents; a++) {
                const rn_agent *ag = &r->cfg->agents[a];
                if (ag->host && strcmp(ag->host, x->key) == 0 && strcmp(ag->name, r->hl.agents[i].name) == 0 &&
                    r->cfg->host_agent)
                    r->cfg->host_agent(r->cfg->user, a, r->hl.agents[i].command, r->hl.agents[i].sha256);
            }
        break;
    case HL_EXITED:
        for (int i = 0; i < r->n_procs; i++) {
            proc *p = &r->procs[i];
            if (p->state != P_FREE && p->host == h && strcmp(p->token, r->hl.token) == 0)
                fault(r, i, HX_END_CRASH, "%s%s (on host %.12s...)", r->hl.detail,
                      p->state == P_STARTING ? " before its hello" : "", x->key);
        }
        break;
    case HL_PING:
    case HL_SPAWN:
    case HL_KILL:
    case HL_TYPE_COUNT: break;
    }
}

/* --debug: a message from a bot into its log; a hello, before it is matched to its process, by its token. */
static void trace_in(runner *r, int pi, const uint8_t *data, size_t len, bool hello)
{
    for (int i = 0; pi < 0 && hello && i < r->n_procs; i++)
        if (r->procs[i].state == P_STARTING && r->procs[i].id_len == 0 && strcmp(r->procs[i].token, r->in.token) == 0)
            pi = i;
    if (pi < 0)
        return;
    char text[900];
    note(&r->procs[pi], "debug <- %s", pm_dump(data, len, text, sizeof text));
}

static void on_message(runner *r, const uint8_t *id, size_t id_len, const uint8_t *data, size_t len, bool multipart)
{
    int pi = -1;
    for (int i = 0; i < r->n_procs && pi < 0; i++)
        if (r->procs[i].state != P_FREE && r->procs[i].id_len == id_len && memcmp(r->procs[i].id, id, id_len) == 0)
            pi = i;
    if (pi < 0 && r->user_id[0] && !multipart) { /* an agent host's control connection? */
        for (int h = 0; h < r->n_hosts; h++)
            if (strcmp(r->hosts[h].key, r->user_id) == 0 && hl_decode(data, len, &r->hl) == 0) {
                on_host(r, h, id, id_len);
                return;
            }
    }
    char why[256];
    int bad = multipart ? (snprintf(why, sizeof why, "a message of several frames"), -1)
                        : pm_decode(data, len, &r->in, why, sizeof why);
    if (r->cfg->debug)
        trace_in(r, pi, data, len, !bad && r->in.type == PM_HELLO);
    if (pi < 0) {
        if (!bad && r->in.type == PM_HELLO)
            on_hello(r, id, id_len);
        else if (bad && !multipart && r->in.type == PM_HELLO)
            on_bad_hello(r, id, id_len, why);
        return;
    }
    if (bad) {
        fault(r, pi, HX_END_PROTOCOL_ERROR, "%s", why);
        return;
    }
    proc *p = &r->procs[pi];
    if (++p->unasked > FLOOD_LIMIT) {
        fault(r, pi, HX_END_PROTOCOL_ERROR, "more than %d messages in a row without one from the arena (flooding)",
              FLOOD_LIMIT);
        return;
    }
    switch (r->in.type) {
    case PM_MOVE:
        on_move(r, pi);
        break;
    case PM_PONG:
        if (p->slot >= 0)
            r->slots[p->slot].unanswered = 0;
        break;
    case PM_PING:
        memset(&r->out, 0, sizeof r->out);
        r->out.type = PM_PONG;
        r->out.nonce = r->in.nonce;
        send_raw(r, p, &r->out); /* a pong that cannot be queued is dropped: a bot that pings without reading
                                  * its answers is caught by the flood limit, not blamed for a full queue */
        break;
    case PM_ERROR:
        note(p, "the agent says: %s", r->in.message);
        break;
    default:
        fault(r, pi, HX_END_PROTOCOL_ERROR, "unexpected '%s' from an agent", pm_type_name(r->in.type));
        break;
    }
}

static void drain(runner *r)
{
    static uint8_t id[256];
    for (int k = 0; k < 1000; k++) {
        int n = zmq_recv(r->router, id, sizeof id, ZMQ_DONTWAIT);
        if (n < 0)
            return;
        size_t id_len = (size_t)n < sizeof id ? (size_t)n : sizeof id;
        int more = 0;
        size_t sz = sizeof more;
        zmq_getsockopt(r->router, ZMQ_RCVMORE, &more, &sz);
        if (!more)
            continue;
        zmq_msg_t msg;
        zmq_msg_init(&msg);
        n = zmq_msg_recv(&msg, r->router, 0);
        size_t len = n < 0 ? 0 : zmq_msg_size(&msg); /* when over sizeof buf (cut short), pm_decode refuses it */
        memcpy(r->buf, zmq_msg_data(&msg), len < sizeof r->buf ? len : sizeof r->buf);
        const char *uid = r->guard && n >= 0 ? zmq_msg_gets(&msg, "User-Id") : NULL;
        snprintf(r->user_id, sizeof r->user_id, "%s", uid ? uid : "");
        zmq_msg_close(&msg);
        bool multipart = false;
        zmq_getsockopt(r->router, ZMQ_RCVMORE, &more, &sz);
        while (more) { /* drop any further frames */
            uint8_t skip[64];
            multipart = true;
            zmq_recv(r->router, skip, sizeof skip, 0);
            zmq_getsockopt(r->router, ZMQ_RCVMORE, &more, &sz);
        }
        on_message(r, id, id_len, r->buf, len, multipart);
        if (r->failed)
            return;
    }
}

/* ---- time and children ---- */

static void reap(runner *r)
{
    int status;
    long peak_kb = 0;
    pid_t pid;
    while ((pid = sb_reap(&status, &peak_kb)) > 0) {
        finish_output(r, pid);
        bool was_closing = false;
        for (int i = 0; i < r->n_closing && !was_closing; i++)
            if (r->closing[i].pid == pid) {
                r->closing[i] = r->closing[--r->n_closing]; /* it exited as asked */
                was_closing = true;
            }
        for (int i = 0; i < r->n_procs && !was_closing; i++) {
            proc *p = &r->procs[i];
            if (p->state == P_FREE || p->pid != pid)
                continue;
            char why[160];
            hx_end_reason reason = exit_detail(r, p, status, peak_kb, why, sizeof why);
            if (p->state == P_STARTING)
                fault(r, i, reason, "%s before its hello", why);
            else
                fault(r, i, reason, "%s", why);
        }
        drop_output(r, pid);
    }
}

static double check_deadlines(runner *r)
{
    double t = clk_now(), next = t + 0.1;
    for (int i = 0; i < r->n_closing; i++) {
        if (t >= r->closing[i].until) {
            sb_kill(r->closing[i].pid); /* still running a second after its shutdown; reaped by reap() */
            r->closing[i].until = t + 3600;
        } else if (r->closing[i].until < next) {
            next = r->closing[i].until;
        }
    }
    for (int h = 0; h < r->n_hosts; h++) { /* a host silent for 3 s is lost, with the games of its processes */
        host *x = &r->hosts[h];
        if (!x->up || t - x->last_seen < 3.0)
            continue;
        x->up = false;
        for (int i = 0; i < r->n_procs; i++)
            if (r->procs[i].state != P_FREE && r->procs[i].host == h)
                fault(r, i, HX_END_DISCONNECTED, "host %s lost (silent for 3 s)", x->key);
    }
    for (int i = 0; i < r->n_procs; i++) {
        proc *p = &r->procs[i];
        if (p->state != P_STARTING)
            continue;
        if (p->host >= 0 && !p->asked && r->hosts[p->host].up)
            ask_host(r, i); /* its host is back */
        if (t >= p->deadline && p->host >= 0 && !p->asked)
            fault(r, i, HX_END_DISCONNECTED, "host %s not connected (waited %u s)", r->hosts[p->host].key,
                  r->cfg->host_wait_ms / 1000);
        else if (t >= p->deadline && p->refused[0])
            fault(r, i, HX_END_CRASH, "cannot start it again: %s", p->refused);
        else if (t >= p->deadline)
            fault(r, i, HX_END_TIMEOUT, "no hello within %u ms of its start", r->cfg->handshake_ms);
        else if (p->deadline < next)
            next = p->deadline;
    }
    for (int si = 0; si < r->k; si++) {
        slot *s = &r->slots[si];
        if (!s->active || !s->started)
            continue;
        if (s->release_at > 0) { /* fair timing: nobody thinks until the release */
            if (t < s->release_at) {
                if (s->release_at < next)
                    next = s->release_at;
                continue;
            }
            s->release_at = 0;
            if (s->release_end)
                end_game(r, si, s->release_winner, HX_END_CONNECTED, "");
            else
                next_turn(r, s);
            t = clk_now();
            if (!s->active)
                next = t; /* the slot is free for the next game: no waiting for a message first */
            if (!s->active || s->release_at > 0)
                continue;
        }
        int colour = hx_to_move(&s->ref.game), mover = s->proc[colour];
        if (t >= s->deadline && s->clocked[colour] && s->budget_ms < r->cfg->move_ms) {
            out_of_time(r, mover, &s->clock[colour]);
            continue;
        }
        if (t >= s->deadline) {
            fault(r, mover, HX_END_TIMEOUT, "no move within %u ms (+%u ms margin)", r->cfg->move_ms,
                  r->cfg->margin_ms);
            continue;
        }
        if (t >= s->next_ping) {
            /* A process of ours is watched through its exit status; unanswered pings only condemn an agent
             * that connected from elsewhere (a bot thinking in one thread cannot answer them). */
            if (s->unanswered >= 3 && r->procs[mover].pid <= 0) {
                fault(r, mover, HX_END_DISCONNECTED, "no answer to %d pings in %u ms", s->unanswered,
                      3 * r->cfg->ping_ms);
                continue;
            }
            memset(&r->out, 0, sizeof r->out);
            r->out.type = PM_PING;
            r->out.nonce = (uint64_t)(t * 1000);
            s->unanswered++;
            s->next_ping = t + r->cfg->ping_ms / 1000.0;
            if (!send_to(r, mover, &r->out))
                continue;
        }
        if (s->deadline < next)
            next = s->deadline;
        if (s->next_ping < next)
            next = s->next_ping;
    }
    return next;
}

/* A running bot whose sandbox has a verdict on it (sandbox.h: a limit of the sandbox as a whole reached, its endpoint
 * misused) forfeits, and is killed. Every 50 ms (a few small files per sandbox), and at once when the sandbox library
 * says a verdict came. */
static void check_limits(runner *r)
{
    double t = clk_now();
    if (t < r->next_limit_check)
        return;
    r->next_limit_check = t + 0.05;
    for (int i = 0; i < r->n_procs; i++) {
        char why[160];
        sb_verdict v = r->procs[i].state != P_FREE && r->procs[i].pid > 0 ? sb_bound(r->procs[i].pid, why, sizeof why)
                                                                          : SB_WITHIN;
        if (v == SB_TRANSPORT)
            transport_fault(r, i, why);
        else if (v != SB_WITHIN)
            fault(r, i, verdict_reason(v), "%s", why);
    }
}

/* A CURVE handshake failed because a client did not have this server's key: each process still waiting for its hello
 * that was told another server key (a pinned one) cannot get in; it is stopped now with that reason rather than
 * after its handshake time with none. */
static void wrong_keys(runner *r)
{
    long seen = cv_wrong_key(r->guard);
    if (seen == r->wrong_key)
        return;
    r->wrong_key = seen;
    for (int i = 0; i < r->n_procs; i++) {
        proc *p = &r->procs[i];
        if (p->state == P_STARTING && p->pid > 0 && p->id_len == 0 && p->other_key)
            transport_fault(r, i, "");
    }
}

/* ---- set-up and the loop ---- */

/* Removes the private directories of coordinators that died without cleaning up (killed with SIGKILL):
 * arena-XXXXXX in tmp holding a socket and locked by nobody (a coordinator flocks its own until it has
 * removed it), and those named arena-PID-XXXXXX by earlier versions whose PID is gone. */
static void sweep_stale(const char *tmp)
{
    DIR *d = opendir(tmp);
    if (!d)
        return;
    uid_t me = geteuid();
    for (struct dirent *e; (e = readdir(d));) {
        long pid;
        char rest[32], path[1024], sock[1100];
        bool old = sscanf(e->d_name, "arena-%ld-%31s", &pid, rest) == 2 && pid > 0 && strlen(rest) == 6;
        if (!old && (strncmp(e->d_name, "arena-", 6) != 0 || strlen(e->d_name) != 12))
            continue;
        if (old && (kill((pid_t)pid, 0) == 0 || errno != ESRCH))
            continue;
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", tmp, e->d_name);
        snprintf(sock, sizeof sock, "%s/arena.sock", path);
        if (lstat(path, &st) != 0 || !S_ISDIR(st.st_mode) || (st.st_uid != me && !(me == 0 && st.st_uid == SB_UID)))
            continue; /* (a root coordinator hands its directory to the sandbox user) */
        /* a directory nobody holds the lock of is a killed coordinator's, socket or not (one being made is
         * locked at once, and its maker makes another if it was removed first: private_dir) */
        int fd = old ? -1 : open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (old || (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0)) {
            if (lstat(sock, &st) == 0 && S_ISSOCK(st.st_mode))
                unlink(sock);
            DIR *sockets = fd >= 0 ? fdopendir(dup(fd)) : NULL; /* the sandboxes' endpoints (gate.h) it left */
            for (struct dirent *g; sockets && (g = readdir(sockets));)
                if (g->d_name[0] == 'g' && fstatat(dirfd(sockets), g->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
                    S_ISSOCK(st.st_mode))
                    unlinkat(dirfd(sockets), g->d_name, 0);
            if (sockets)
                closedir(sockets);
            rmdir(path);
        }
        if (fd >= 0)
            close(fd);
    }
    closedir(d);
}

/* Whether every directory on the way to `dir` lets other users through (the sandbox user must reach the
 * socket); else the private directory goes to /tmp. */
static bool reachable(const char *dir)
{
    char path[128];
    snprintf(path, sizeof path, "%s", dir);
    for (;;) {
        struct stat st;
        if (stat(path[0] ? path : "/", &st) != 0 || !(st.st_mode & S_IXOTH))
            return false;
        char *slash = strrchr(path, '/');
        if (!slash || !path[0])
            return true;
        *slash = '\0';
    }
}

/* The private directory in tmp, with a random name that tells a bot (which sees it in its mount table) nothing of
 * the coordinator, locked for as long as it is in use. Another coordinator's sweep may remove it between its making
 * and its locking: then it is made again. Returns 0, or -1 (the run has failed). */
static int private_dir(runner *r, const char *tmp)
{
    for (int attempt = 0; attempt < 100; attempt++) {
        snprintf(r->dir, sizeof r->dir, "%s/arena-XXXXXX", tmp);
        if (!mkdtemp(r->dir)) { /* mode 0700 */
            fail(r, "cannot make a private directory %s: %s", r->dir, strerror(errno));
            r->dir[0] = '\0';
            return -1;
        }
        r->dir_lock = open(r->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC); /* held until it is removed: in use */
        if (r->dir_lock >= 0 && flock(r->dir_lock, LOCK_EX) != 0) {
            fail(r, "cannot lock the private directory %s: %s", r->dir, strerror(errno));
            return -1;
        }
        struct stat held, named;
        if (r->dir_lock >= 0 && fstat(r->dir_lock, &held) == 0 && lstat(r->dir, &named) == 0 &&
            held.st_ino == named.st_ino && held.st_dev == named.st_dev)
            return 0;
        if (r->dir_lock >= 0)
            close(r->dir_lock);
        r->dir_lock = -1; /* swept away before it was locked: another */
    }
    fail(r, "cannot keep a private directory in %s (removed again and again)", tmp);
    r->dir[0] = '\0';
    return -1;
}

static bool any_sandboxed(const rn_config *cfg)
{
    for (int a = 0; a < cfg->n_agents; a++)
        if (!cfg->agents[a].command->sandbox.off)
            return true;
    return false;
}

static int open_endpoint(runner *r)
{
    char why[1024];
    if (any_sandboxed(r->cfg) && sb_available(why, sizeof why) != 0) {
        fail(r, "%s", why);
        return -1;
    }
    /* The private ipc endpoint (also with `listen`: the bots started here connect through it, so that a
     * sandbox needs no network). */
    const char *tmp = getenv("TMPDIR");
    tmp = tmp && *tmp && strlen(tmp) < 64 && reachable(tmp) ? tmp : "/tmp";
    sweep_stale(tmp);
    if (private_dir(r, tmp) != 0)
        return -1;
    /* The sandboxes' endpoints are made here (gate.h): their users must walk to them (bwrap binds them through
     * their path), never list the directory (their names are unguessable, each socket is its own sandbox's) nor
     * connect to this coordinator's own socket (mode 0600, and shown in no sandbox). */
    if (chmod(r->dir, 0711) != 0) {
        fail(r, "cannot open %s to the sandboxes' users: %s", r->dir, strerror(errno));
        return -1;
    }
    snprintf(r->local, sizeof r->local, "ipc://%s/arena.sock", r->dir);
    snprintf(r->endpoint, sizeof r->endpoint, "%s", r->cfg->listen ? r->cfg->listen : r->local);
    r->ctx = zmq_ctx_new();
    r->router = zmq_socket(r->ctx, ZMQ_ROUTER);
    if (r->cfg->listen) {
        char log[1100];
        snprintf(log, sizeof log, "%s/%s-connections.log", r->cfg->log_dir, r->cfg->log_prefix);
        r->guard = cv_guard_new(r->ctx, r->router, r->cfg->server_key, log, why, sizeof why);
        if (!r->guard) {
            fail(r, "%s: %s", r->endpoint, why);
            return -1;
        }
    }
    int64_t max = 4 * PM_MAX_MESSAGE; /* a message up to this size is refused by pm_decode with its size named;
                                       * the transport drops the connection of a bot sending a larger one */
    int one = 1, zero = 0;
    zmq_setsockopt(r->router, ZMQ_MAXMSGSIZE, &max, sizeof max);
    zmq_setsockopt(r->router, ZMQ_ROUTER_MANDATORY, &one, sizeof one);
    zmq_setsockopt(r->router, ZMQ_LINGER, &zero, sizeof zero);
    mode_t mask = umask(0177); /* an ipc socket is made 0600 from the start (the chmod below only confirms it) */
    int bound = zmq_bind(r->router, r->endpoint);
    umask(mask);
    if (bound != 0) {
        fail(r, "cannot bind %s: %s", r->endpoint, zmq_strerror(zmq_errno()));
        return -1;
    }
    for (int a = 0; a < r->cfg->n_agents; a++) { /* the agent hosts of the config, the only hosts let in */
        const char *key = r->cfg->agents[a].host;
        if (!key)
            continue;
        if (!r->guard) {
            fail(r, "agent '%s': on a host, it needs a coordinator listening on tcp://", r->cfg->agents[a].name);
            return -1;
        }
        int h = 0;
        while (h < r->n_hosts && strcmp(r->hosts[h].key, key) != 0)
            h++;
        if (h == r->n_hosts && h < RN_MAX_HOSTS) {
            snprintf(r->hosts[h].key, sizeof r->hosts[h].key, "%s", key);
            r->n_hosts++;
            cv_allow(r->guard, key);
        }
    }
    mask = umask(0177);
    bound = r->cfg->listen ? zmq_bind(r->router, r->local) : 0;
    umask(mask);
    if (bound != 0) {
        fail(r, "cannot bind %s: %s", r->local, zmq_strerror(zmq_errno()));
        return -1;
    }
    if (chmod(r->local + 6, 0600) != 0) {
        fail(r, "cannot close %s to others: %s", r->local, strerror(errno));
        return -1;
    }
    return 0;
}

static void close_endpoint(runner *r)
{
    cv_guard_free(r->guard);
    r->guard = NULL;
    if (r->router)
        zmq_close(r->router);
    if (r->ctx)
        zmq_ctx_term(r->ctx);
    if (r->dir[0]) {
        char sock[320];
        snprintf(sock, sizeof sock, "%s/arena.sock", r->dir);
        unlink(sock);
        rmdir(r->dir);
    }
    if (r->dir_lock >= 0)
        close(r->dir_lock); /* after the removal: a sweeping coordinator must not take it for a dead one's */
    r->dir_lock = -1;
}

/* Asks every live agent to exit, gives them a moment, then kills whatever is left. */
static void shut_down(runner *r)
{
    for (int i = 0; i < r->n_procs; i++)
        stop_proc(r, i, true);
    double until = clk_now() + 1.0;
    struct timespec tick = { 0, 5 * 1000 * 1000 };
    int status;
    for (;;) {
        while (sb_reap(&status, NULL) > 0)
            ;
        bool alive = false;
        for (int i = 0; i < r->n_closing; i++)
            alive |= kill(r->closing[i].pid, 0) == 0;
        if (!alive || clk_now() >= until)
            break;
        nanosleep(&tick, NULL);
    }
    sb_kill_all();
}

static int make_dirs(const char *path)
{
    char buf[1024];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf)
        return -1;
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(buf, 0755) != 0 && errno != EEXIST)
                return -1;
            *p = '/';
        }
    return mkdir(buf, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

static runner *runner_new(const rn_config *cfg, char *err, size_t errlen)
{
    runner *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    r->cfg = cfg;
    r->err = err;
    r->errlen = errlen;
    err[0] = '\0';
    r->k = cfg->concurrency < 1 ? 1 : cfg->concurrency;
    /* Room for k idle processes of every agent (each keeps its processes from game to game), capped. */
    int least = 2 * r->k + 2, cap = cfg->max_processes > 0 ? cfg->max_processes : RN_MAX_PROCESSES;
    long want = (long)r->k * (cfg->n_agents > 0 ? cfg->n_agents : 1);
    r->n_procs = (int)(want < least ? least : want > cap ? (cap < least ? least : cap) : want);
    r->culprit = -1;
    r->dir_lock = -1;
    r->procs = calloc((size_t)r->n_procs, sizeof *r->procs);
    r->slots = calloc((size_t)r->k, sizeof *r->slots);
    r->greeted = calloc((size_t)cfg->n_agents, sizeof *r->greeted);
    r->greeting = calloc((size_t)cfg->n_agents, sizeof *r->greeting);
    if (cfg->seed_key)
        memcpy(r->seed_key, cfg->seed_key, sizeof r->seed_key);
    if (!r->procs || !r->slots || !r->greeted || !r->greeting || !grow_outputs(r))
        fail(r, "out of memory");
    else if (!cfg->seed_key && seeds_new_key(r->seed_key) != 0)
        fail(r, "cannot draw a secret for the players' seeds (libsodium cannot be initialised)");
    else if (make_dirs(cfg->log_dir) != 0)
        fail(r, "cannot make the log directory %s: %s", cfg->log_dir, strerror(errno));
    else
        open_endpoint(r);
    sb_adopt_orphans();
    for (int i = 0; i < r->n_procs && r->procs; i++)
        r->procs[i].slot = -1;
    return r;
}

/* Stops every process and frees r. Returns whether the run failed. */
static bool runner_free(runner *r)
{
    if (r->procs)
        shut_down(r);
    while (r->n_outs > 0) /* what the processes wrote last */
        drop_output(r, r->outs[0].pid);
    close_endpoint(r);
    free(r->procs);
    free(r->closing);
    free(r->slots);
    free(r->greeted);
    free(r->greeting);
    free(r->outs);
    free(r->items);
    bool failed = r->failed;
    free(r);
    return failed;
}

/* Waits for messages (or a deadline) and handles them. */
static void step(runner *r, double next)
{
    long wait = (long)((next - clk_now()) * 1000.0) + 1;
    zmq_pollitem_t *items = r->items;
    items[0] = (zmq_pollitem_t){ r->router, 0, ZMQ_POLLIN, 0 };
    if (r->guard)
        cv_poll_items(r->guard, items + 1);
    int base = r->guard ? 3 : 1, n = base + poll_outputs(r, items + base), woken = sb_wake_fd() >= 0 ? n : -1;
    if (woken >= 0) /* a sandbox's new verdict (sandbox.h): its bot forfeits now, not at the next look */
        items[n++] = (zmq_pollitem_t){ NULL, sb_wake_fd(), ZMQ_POLLIN, 0 };
    int rc = zmq_poll(items, n, wait < 1 ? 1 : wait > 100 ? 100 : wait);
    if (rc > 0 && woken >= 0 && items[woken].revents) {
        sb_woken();
        r->next_limit_check = 0;
    }
    if (rc > 0 && r->guard && (items[1].revents | items[2].revents)) {
        cv_serve(r->guard);
        wrong_keys(r);
    }
    if (rc > 0)
        pump_outputs(r, items + base);
    if (rc > 0 && (items[0].revents & ZMQ_POLLIN))
        drain(r);
    reap(r);
    check_limits(r);
}

rn_status rn_run(const rn_config *cfg, char *err, size_t errlen)
{
    runner *r = runner_new(cfg, err, errlen);
    if (!r)
        return RN_FAILED;
    bool stopped = false;
    while (!r->failed) {
        if (cfg->stop && *cfg->stop) {
            stopped = true;
            break;
        }
        fill_slots(r);
        bool busy = false;
        for (int si = 0; si < r->k; si++)
            busy |= r->slots[si].active;
        if (!busy && r->exhausted)
            break;
        double next = check_deadlines(r);
        if (r->failed)
            break;
        step(r, next);
    }
    bool refused = r->refused, failed = runner_free(r);
    return refused ? RN_REFUSED : failed ? RN_FAILED : stopped ? RN_STOPPED : RN_DONE;
}

rn_status rn_probe(const rn_config *cfg, int agent, pm_msg *hello, char *err, size_t errlen)
{
    runner *r = runner_new(cfg, err, errlen);
    if (!r)
        return RN_FAILED;
    bool stopped = false;
    int pi = r->failed ? -1 : spawn(r, agent);
    while (pi >= 0 && !r->failed) {
        if (cfg->stop && *cfg->stop) {
            stopped = true;
            break;
        }
        if (r->procs[pi].state == P_READY) {
            *hello = r->greeting[agent];
            break;
        }
        if (r->procs[pi].state == P_FREE) {
            fail(r, "agent '%s': %s", cfg->agents[agent].name, r->last_fault);
            break;
        }
        step(r, check_deadlines(r));
    }
    bool refused = r->refused, failed = runner_free(r);
    return refused ? RN_REFUSED : failed ? RN_FAILED : stopped ? RN_STOPPED : RN_DONE;
}
