/* agents/sdk/bot.c — the SDK's message loop and the player's view. */
#include "bot.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <zmq.h>

#include "protocol.h"
#include "clock.h"

double bot_clock(void) { return clk_now(); }

static bool can_swap(const bot_state *s)
{
    return s->swap_rule && s->color == HX_WHITE && s->own_stones == 0 && s->known_opponent_stones == 1 &&
           s->n_events == 1;
}

int bot_legal(const bot_state *s, uint16_t *out)
{
    int n = 0;
    for (int i = 0; i < s->cells; i++)
        if (s->view[i] == HX_VIEW_UNKNOWN)
            out[n++] = (uint16_t)i;
    if (can_swap(s))
        out[n++] = HX_SWAP;
    return n;
}

/* Updates the view with one event and records it. */
static void apply(bot_state *s, const bot_spec *spec, hx_event e)
{
    switch (e.kind) {
    case HX_EV_PLACED:
        s->view[e.cell] = HX_VIEW_OWN;
        s->own_stones++;
        break;
    case HX_EV_REJECTED:
    case HX_EV_COLLIDED:
    case HX_EV_OPP_PLACED:
        s->view[e.cell] = HX_VIEW_OPPONENT;
        s->known_opponent_stones++;
        break;
    case HX_EV_SWAP: /* the only stone on the board moves to e.cell and becomes White's */
        memset(s->view, HX_VIEW_UNKNOWN, (size_t)s->cells);
        s->view[e.cell] = s->color == HX_WHITE ? HX_VIEW_OWN : HX_VIEW_OPPONENT;
        s->own_stones = s->color == HX_WHITE;
        s->known_opponent_stones = s->color == HX_BLACK;
        break;
    case HX_EV_OPP_HIT:
    case HX_EV_OPP_HIT_AT:
        break;
    }
    if (s->n_events < HX_MAX_EVENTS)
        s->events[s->n_events++] = e;
    if (spec && spec->observe)
        spec->observe(s, &e, spec->user);
}

void bot_start_game(bot_state *s, const pm_msg *m, const bot_spec *spec)
{
    memset(s, 0, sizeof *s);
    s->game = m->game, s->variant = m->variant, s->rows = m->rows, s->cols = m->cols;
    s->cells = m->rows * m->cols, s->color = m->color, s->move_ms = m->move_ms, s->seed = m->seed;
    s->swap_rule = m->swap;
    if (spec && spec->game_start)
        spec->game_start(s, spec->user);
    /* pm_decode() checked the counts: own stones are those of the player's colour, in play order */
    int k = m->n_own + m->n_seen + m->hidden, own = 0, seen = 0;
    for (int i = 0; i < k; i++)
        if (i % 2 == s->color)
            apply(s, spec, (hx_event){ .kind = HX_EV_PLACED, .cell = m->own[own++] });
        else if (seen < m->n_seen)
            apply(s, spec, (hx_event){ .kind = HX_EV_OPP_PLACED, .cell = m->seen[seen++] });
    s->opening = k;
}

typedef struct {
    void *sock;
    uint8_t buf[PM_MAX_MESSAGE];
} link_t;

static int send_msg(link_t *l, const pm_msg *m)
{
    size_t n = pm_encode(m, l->buf, sizeof l->buf);
    return n && zmq_send(l->sock, l->buf, n, 0) == (int)n ? 0 : -1;
}

static void send_error(link_t *l, const char *text)
{
    static pm_msg m;
    m.type = PM_ERROR;
    snprintf(m.message, sizeof m.message, "%s", text);
    send_msg(l, &m);
}

static const char *endpoint_arg(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--endpoint") == 0 && i + 1 < argc)
            return argv[i + 1];
        if (strncmp(argv[i], "--endpoint=", 11) == 0)
            return argv[i] + 11;
    }
    return getenv("ARENA_ENDPOINT");
}

/* A turn's clocks into s, and the attempt's deadline. */
static void read_clocks(bot_state *s, const pm_msg *m)
{
    s->has_clock = m->has_clock, s->clock_ms = m->clock_ms, s->inc_ms = m->inc_ms, s->moves_to_go = m->moves_to_go;
    s->has_opp_clock = m->has_opp_clock, s->opp_clock_ms = m->opp_clock_ms;
    uint32_t budget = s->has_clock && s->clock_ms < s->move_ms ? s->clock_ms : s->move_ms;
    s->deadline = bot_clock() + budget / 1000.0;
}

double bot_time_for_move(const bot_state *s)
{
    double left = s->deadline - bot_clock();
    if (s->has_clock) {
        double share = s->clock_ms / 1000.0 / (s->moves_to_go > 0 ? s->moves_to_go : BOT_CLOCK_MOVES) +
                       s->inc_ms / 1000.0;
        if (share < left)
            left = share;
    }
    return left > 0 ? left : 0;
}

/* Handles one decoded message; returns 1 to stop (shutdown), -1 on a send failure, 0 otherwise. */
static int handle(link_t *l, const bot_spec *spec, bot_state *s, pm_msg *m, pm_msg *out)
{
    switch (m->type) {
    case PM_GAME_START:
        bot_start_game(s, m, spec);
        return 0;
    case PM_TURN: {
        if (m->game != s->game) {
            send_error(l, "turn for a game that was not started");
            return 0;
        }
        read_clocks(s, m);
        for (int i = 0; i < m->n_events; i++)
            if (m->events[i].kind != HX_EV_OPP_HIT && m->events[i].cell >= s->cells)
                return send_error(l, "turn event outside the board"), 0;
            else
                apply(s, spec, m->events[i]);
        out->type = PM_MOVE;
        out->game = s->game;
        out->cell = spec->choose(s, spec->user);
        return send_msg(l, out);
    }
    case PM_RESULT: { /* (protocol 1; protocol 2 tells an outcome as an event of the next turn or game_end) */
        if (m->game != s->game || (m->cell != HX_SWAP && m->cell >= s->cells))
            return send_error(l, "result for another game or cell"), 0;
        hx_event e = { .cell = m->cell };
        switch (m->outcome) {
        case HX_PLACED: e.kind = HX_EV_PLACED; break;
        case HX_REJECTED: e.kind = HX_EV_REJECTED; break;
        case HX_COLLISION: e.kind = HX_EV_COLLIDED; break;
        case HX_SWAPPED:
            e.kind = HX_EV_SWAP;
            for (int i = 0; i < s->cells; i++) /* Black's stone at (r,c) comes back as White's at (c,r) */
                if (s->view[i] == HX_VIEW_OPPONENT)
                    e.cell = (i % s->cols) * s->cols + i / s->cols;
            break;
        }
        apply(s, spec, e);
        return 0;
    }
    case PM_GAME_END:
        for (int i = 0; m->game == s->game && i < m->n_events; i++) /* protocol 2: what it had not been told */
            if (m->events[i].kind == HX_EV_OPP_HIT || m->events[i].cell < s->cells)
                apply(s, spec, m->events[i]);
        if (spec->game_end && m->game == s->game)
            spec->game_end(s, m->winner, m->board, spec->user);
        return 0;
    case PM_PING:
        out->type = PM_PONG;
        out->nonce = m->nonce;
        return send_msg(l, out);
    case PM_SHUTDOWN:
        return 1;
    case PM_ERROR:
        fprintf(stderr, "%s: coordinator says: %s\n", spec->name, m->message);
        return 0;
    default:
        send_error(l, "unexpected message type");
        return 0;
    }
}

int bot_run(const bot_spec *spec, int argc, char **argv)
{
    const char *endpoint = endpoint_arg(argc, argv), *token = getenv("ARENA_TOKEN");
    if (!endpoint) {
        fprintf(stderr, "%s: no endpoint: pass --endpoint ENDPOINT or set ARENA_ENDPOINT\n", spec->name);
        return 2;
    }
    void *ctx = zmq_ctx_new();
    static link_t l;
    l.sock = zmq_socket(ctx, ZMQ_DEALER);
    int64_t max = PM_MAX_MESSAGE;
    int linger = 1000;
    zmq_setsockopt(l.sock, ZMQ_MAXMSGSIZE, &max, sizeof max);
    zmq_setsockopt(l.sock, ZMQ_LINGER, &linger, sizeof linger);
    /* over tcp://, the coordinator is a CurveZMQ server: its key (pinned in the bot's configuration) and
     * this process's key pair come in the environment */
    const char *server = getenv("ARENA_SERVER_KEY"), *pub = getenv("ARENA_PUBLIC_KEY"), *sec = getenv("ARENA_SECRET_KEY");
    if (server && *server &&
        (!pub || !sec || zmq_setsockopt(l.sock, ZMQ_CURVE_SERVERKEY, server, strlen(server)) != 0 ||
         zmq_setsockopt(l.sock, ZMQ_CURVE_PUBLICKEY, pub, strlen(pub)) != 0 ||
         zmq_setsockopt(l.sock, ZMQ_CURVE_SECRETKEY, sec, strlen(sec)) != 0)) {
        fprintf(stderr, "%s: ARENA_SERVER_KEY, ARENA_PUBLIC_KEY, ARENA_SECRET_KEY: not usable CURVE keys: %s\n",
                spec->name, zmq_strerror(zmq_errno()));
        zmq_close(l.sock);
        zmq_ctx_term(ctx);
        return 2;
    }
    if (zmq_connect(l.sock, endpoint) != 0) {
        fprintf(stderr, "%s: cannot connect to %s: %s\n", spec->name, endpoint, zmq_strerror(zmq_errno()));
        zmq_close(l.sock);
        zmq_ctx_term(ctx);
        return 1;
    }
    static pm_msg in, out;
    static bot_state s;
    memset(&out, 0, sizeof out);
    out.type = PM_HELLO;
    out.protocol = PM_VERSION;
    snprintf(out.token, sizeof out.token, "%s", token ? token : "");
    snprintf(out.name, sizeof out.name, "%s", spec->name);
    snprintf(out.version, sizeof out.version, "%s", spec->version ? spec->version : "");
    out.variants = spec->variants;
    for (int i = 0; i < spec->n_boards && i < 16 && i < PM_MAX_BOARDS; i++) {
        out.boards[i][0] = spec->boards[i][0];
        out.boards[i][1] = spec->boards[i][1];
        out.n_boards = i + 1;
    }
    int status = send_msg(&l, &out) == 0 ? 0 : 1;
    char why[256];
    while (status == 0) {
        zmq_msg_t msg;
        zmq_msg_init(&msg);
        if (zmq_msg_recv(&msg, l.sock, 0) < 0) {
            zmq_msg_close(&msg);
            status = 1;
            break;
        }
        int bad = pm_decode(zmq_msg_data(&msg), zmq_msg_size(&msg), &in, why, sizeof why);
        zmq_msg_close(&msg);
        if (bad) {
            send_error(&l, why);
            continue;
        }
        int r = handle(&l, spec, &s, &in, &out);
        if (r == 1)
            break;
        if (r < 0)
            status = 1;
    }
    zmq_close(l.sock);
    zmq_ctx_term(ctx);
    return status;
}

int bot_whole_option(const char *name, const char *opt, const char *v, long lo, long hi, long *out)
{
    char *end = NULL;
    errno = 0;
    long n = v && *v ? strtol(v, &end, 10) : 0;
    if (!end || *end || errno || n < lo || n > hi) {
        fprintf(stderr, "%s: %s needs a whole number from %ld to %ld\n", name, opt, lo, hi);
        return -1;
    }
    *out = n;
    return 0;
}

int bot_number_option(const char *name, const char *opt, const char *v, double lo, double hi, double *out)
{
    char *end = NULL;
    double x = v && *v ? strtod(v, &end) : NAN;
    if (!end || *end || !(x >= lo && x <= hi)) {
        fprintf(stderr, "%s: %s needs a number from %g to %g\n", name, opt, lo, hi);
        return -1;
    }
    *out = x;
    return 0;
}

double bot_think_seconds(const bot_state *s, double share, double want)
{
    double cap = bot_time_for_move(s) * share;
    double secs = want < 0 || want > cap ? cap : want;
    return secs > 1e-4 ? secs : 1e-4;
}

int bot_seed_option(const char *name, int argc, char **argv, int *i, uint64_t *seed)
{
    if (strcmp(argv[*i], "--seed") != 0)
        return 0;
    const char *v = *i + 1 < argc ? argv[*i + 1] : NULL;
    char *end = NULL;
    errno = 0;
    unsigned long long n = v && v[0] >= '0' && v[0] <= '9' ? strtoull(v, &end, 10) : 0;
    if (!end || *end || errno) {
        fprintf(stderr, "%s: --seed needs a whole number\n", name);
        return -1;
    }
    *seed = n;
    ++*i;
    return 1;
}

/* One option's value (bot_options()); *i moves onto the value it read. */
static int read_option(const char *name, const bot_opt *o, int argc, char **argv, int *i)
{
    const char *v = *i + 1 < argc ? argv[*i + 1] : NULL;
    switch (o->kind) {
    case BOT_OPT_FLAG:
        *(bool *)o->out = o->lo != 0;
        return 0;
    case BOT_OPT_WHOLE:
        ++*i;
        return bot_whole_option(name, o->flag, v, (long)o->lo, (long)o->hi, (long *)o->out);
    case BOT_OPT_NUMBER:
        ++*i;
        return bot_number_option(name, o->flag, v, o->lo, o->hi, (double *)o->out);
    case BOT_OPT_CHOICE:
        ++*i;
        for (int k = 0; v && o->choices[k]; k++)
            if (strcmp(v, o->choices[k]) == 0) {
                *(int *)o->out = k;
                return 0;
            }
        fprintf(stderr, "%s: %s needs one of ", name, o->flag);
        for (int k = 0; o->choices[k]; k++)
            fprintf(stderr, "%s%s", k ? ", " : "", o->choices[k]);
        fprintf(stderr, "\n");
        return -1;
    }
    return -1;
}

int bot_options(const char *name, int argc, char **argv, const bot_opt *opts, int n, uint64_t *seed,
                void (*usage)(void))
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0) {
            usage();
            return 1;
        }
    for (int i = 1; i < argc; i++) {
        int seeded = bot_seed_option(name, argc, argv, &i, seed);
        if (seeded < 0)
            return -1;
        if (seeded)
            continue;
        for (int k = 0; k < n; k++)
            if (strcmp(argv[i], opts[k].flag) == 0) {
                if (read_option(name, &opts[k], argc, argv, &i) != 0)
                    return -1;
                break;
            }
    }
    return 0;
}
