/* arena/server/route_private.h — from a request to a reply: the path and its arguments checked (a bad one is a
 * 400 with one line, an unknown page a 404), JSON or HTML chosen (a ".json" suffix, or Accept:
 * application/json), the page built over a read-only connection with a deadline and drawn by the report
 * library's renderers; and the live feed (/events), a Server-Sent Events stream. Internal to arena/server. */
#ifndef ARENA_SERVER_ROUTE_PRIVATE_H
#define ARENA_SERVER_ROUTE_PRIVATE_H

#include <microhttpd.h>
#include <stdbool.h>

#include "server_private.h"

#define WS_MAX_ARGS 8
#define WS_MAX_PATH 200

typedef struct {
    const char *path;              /* as received (MHD has decoded it) */
    const char *accept;            /* the Accept header, NULL when none */
    struct {
        const char *key, *value;   /* value NULL: a key without '=' */
    } args[WS_MAX_ARGS];
    int n_args;                    /* may exceed WS_MAX_ARGS (then refused) */
} ws_query;

typedef struct {
    const ws_config *cfg;
    ws_cache *cache;
    ws_live *live;
    volatile int *stopping;        /* set when the server stops: live feeds end */
} ws_context;

/* Whether the request is for the live feed. */
bool ws_is_events(const ws_query *q);

/* The live feed's response (a stream of "data: JSON" events, one when the running leagues change and a comment
 * every 15 s), or NULL with an error reply in r. */
struct MHD_Response *ws_events_response(const ws_context *c, const ws_query *q, ws_reply *r);

/* Every other page into r. */
void ws_dispatch(const ws_context *c, const ws_query *q, ws_reply *r);

#endif
