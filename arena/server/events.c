/* arena/server/events.c — /events, the live feed (contract in route_private.h): a Server-Sent Events stream of
 * the running leagues (live.c's JSON), one event at once and then one whenever it changes (looked at twice a
 * second; the state itself is read at most once a second for all readers), a comment every 15 s (a third of
 * the idle timeout when that is shorter) so that neither the server's timeout nor a proxy closes it, and its
 * end after --stream-s seconds (an hour; browsers reconnect) or when the server stops. Each stream holds only
 * its connection's thread. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "route_private.h"

#define TICK_MS 500
#define KEEPALIVE_S 15

typedef struct {
    ws_context c;
    char *pending;                 /* what is still to be sent */
    size_t len, off;
    long serial;
    bool sent;
    time_t started, last;
} feed;

static void nap(int ms)
{
    struct timespec t = { ms / 1000, (long)(ms % 1000) * 1000000L };
    nanosleep(&t, NULL);
}

/* Seconds between comments on a feed that has nothing new: within the idle timeout, which would close it. */
static time_t keepalive(const ws_config *c)
{
    int s = c->timeout_s / 3;
    return s < 1 ? 1 : s > KEEPALIVE_S ? KEEPALIVE_S : s;
}

/* The next thing to send, into f->pending: an event, a keep-alive comment, or nothing yet (false). */
static bool next(feed *f)
{
    char err[600];
    long serial = 0;
    char *json = ws_live_json(f->c.live, f->c.cfg, &serial, err, sizeof err);
    time_t now = time(NULL);
    free(f->pending);
    f->pending = NULL;
    f->off = f->len = 0;
    if (json && (!f->sent || serial != f->serial)) {
        size_t n = strlen(json) + 32;
        f->pending = malloc(n);
        if (f->pending)
            f->len = (size_t)snprintf(f->pending, n, "retry: 3000\ndata: %s\n\n", json);
        f->serial = serial;
        f->sent = true;
    } else if (now - f->last >= keepalive(f->c.cfg)) {
        f->pending = strdup(json ? ": unchanged\n\n" : ": the database cannot be read now\n\n");
        f->len = f->pending ? strlen(f->pending) : 0;
    }
    free(json);
    if (f->len)
        f->last = now;
    return f->len > 0;
}

static ssize_t read_feed(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    feed *f = cls;
    while (f->off == f->len) {
        if (*f->c.stopping || time(NULL) - f->started >= f->c.cfg->stream_s)
            return MHD_CONTENT_READER_END_OF_STREAM;
        if (next(f))
            break;
        for (int k = 0; k < TICK_MS / 50 && !*f->c.stopping; k++)
            nap(50);
    }
    size_t n = f->len - f->off < max ? f->len - f->off : max;
    memcpy(buf, f->pending + f->off, n);
    f->off += n;
    return (ssize_t)n;
}

static void end_feed(void *cls)
{
    feed *f = cls;
    free(f->pending);
    free(f);
}

struct MHD_Response *ws_events_response(const ws_context *c, const ws_query *q, ws_reply *r)
{
    if (q->n_args) {
        ws_error(r, false, 400, "/events takes no query parameters");
        return NULL;
    }
    feed *f = calloc(1, sizeof *f);
    if (!f) {
        ws_error(r, false, 500, "out of memory");
        return NULL;
    }
    f->c = *c;
    f->started = f->last = time(NULL);
    struct MHD_Response *resp = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 4096, read_feed, f, end_feed);
    if (!resp) {
        free(f);
        ws_error(r, false, 500, "out of memory");
    }
    return resp;
}
