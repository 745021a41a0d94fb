/* arena/server/server.h — `arena serve`: an HTTP server (libmicrohttpd) over the results database, opened
 * read-only, that shows the morning summary of the newest night, the leagues running now (live, by
 * Server-Sent Events at /events), a page per league, agent, pairing and game (the Dark Hex game viewer), each
 * also as JSON (a ".json" suffix or Accept: application/json). Pages are the report library's documents
 * (doc.h) drawn by its renderers, so `arena report` and the server show the same content (docs/serve.md). */
#ifndef ARENA_SERVER_SERVER_H
#define ARENA_SERVER_SERVER_H

#include <stddef.h>

/* A request to an extension (ws_extension): its method, decoded path, headers and arguments (looked up by name,
 * NULL when absent), its body (POST, read whole first) and the client's address. */
typedef struct {
    const char *method, *path;
    const char *(*header)(void *con, const char *name);
    const char *(*arg)(void *con, const char *name);
    void *con;                     /* for header() and arg() */
    const char *body;              /* NUL-terminated after body_len bytes; "" without one */
    size_t body_len;
    char peer[64];                 /* the client's IPv4 address */
} ws_ext_request;

/* Its reply: status, content type, body (malloc'd, taken by the server), and optional headers. */
typedef struct {
    int status;
    const char *type;
    char *body;
    size_t len;
    char set_cookie[320];          /* "" for none */
    char location[320];            /* a redirect's target (status 303), "" for none */
} ws_ext_reply;

/* More pages under one path prefix (e.g. the ladder's, "/ladder"): their requests, GET, HEAD or POST, go to
 * handle, from the connection's own thread, one at a time with the report library's lock held (its documents,
 * renderers and standings keep work in static buffers); a POST body over max_body bytes is refused with 413 before
 * it is read whole. Their pages may post forms back to this server (form-action 'self'). */
typedef struct {
    const char *prefix;
    size_t max_body;
    void (*handle)(void *user, const ws_ext_request *q, ws_ext_reply *r);
    void *user;
} ws_extension;

typedef struct {
    const char *db;                /* the results database (opened read-only by every request) */
    char host[64];                 /* the IPv4 address to listen on: "127.0.0.1" unless told otherwise */
    int port;                      /* 0: any free port (ws_port says which) */
    int max_connections;           /* open connections at once (each has its thread) */
    int per_ip;                    /* open connections from one address */
    int timeout_s;                 /* an idle connection is closed after this long (a slow client) */
    long request_ms;               /* the database work of one request is interrupted after this long */
    int bootstrap;                 /* resamples for the intervals and LOS of league pages */
    long idle_s;                   /* a league with games to play counts as running while its newest game is
                                    * younger than this */
    int stream_s;                  /* a live feed (/events) ends after this long; browsers reconnect */
    const char *logs;              /* the agents' logs directory ('arena league --logs'); NULL: not served */
    const char *version;           /* the arena's, in page footers */
    const ws_extension *ext;       /* NULL: none */
} ws_config;

/* The defaults: loopback port 8080, 512 connections, 256 per address, 15 s idle timeout, 10 s per request,
 * 200 resamples, 600 s idle, live feeds of an hour, logs in results/logs. */
void ws_defaults(ws_config *c);

/* Parses "HOST:PORT" (an IPv4 address, and a port 0..65535) into c; false with a reason in err. */
int ws_parse_listen(ws_config *c, const char *text, char *err, size_t errlen);

typedef struct ws_server ws_server;

/* Checks that the database opens read-only, then listens. NULL with a one-line reason in err. */
ws_server *ws_start(const ws_config *c, char *err, size_t errlen);

/* The port it listens on. */
int ws_port(const ws_server *sv);

/* Ends the live feeds, closes every connection and frees the server. */
void ws_stop(ws_server *sv);

#endif
