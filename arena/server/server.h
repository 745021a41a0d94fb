/* arena/server/server.h — `arena serve`: an HTTP server (libmicrohttpd) over the results database, opened
 * read-only, that shows the morning summary of the newest night, the leagues running now (live, by
 * Server-Sent Events at /events), a page per league, agent, pairing and game (the Dark Hex game viewer), each
 * also as JSON (a ".json" suffix or Accept: application/json). Pages are the report library's documents
 * (doc.h) drawn by its renderers, so `arena report` and the server show the same content (docs/serve.md). */
#ifndef ARENA_SERVER_SERVER_H
#define ARENA_SERVER_SERVER_H

#include <stdbool.h>
#include <stddef.h>

/* A request to an extension (ws_extension): its method, decoded path, headers and arguments (looked up by name,
 * NULL when absent), its body (POST: whole, once it is in; NULL when admit is asked) and the client's address. */
typedef struct {
    const char *method, *path;
    const char *(*header)(void *con, const char *name);
    const char *(*arg)(void *con, const char *name);
    void *con;                     /* for header() and arg() */
    const char *body;              /* NUL-terminated after body_len bytes; "" without one */
    size_t body_len;
    char peer[64];                 /* the client's address: the socket's, or the one a trusted proxy forwarded */
} ws_ext_request;

/* What an extension admits of a request, asked once its headers are in and before a byte of its body is read. */
typedef struct {
    int status;                    /* non-zero: refused with this status and `message`, the body never read */
    char message[300];
    size_t max_body;               /* bytes its body may have (0: none); a Content-Length over it gets 413 at once */
    int spool_fd;                  /* >= 0: the body goes into this file as it arrives (the server closes it), and the
                                    * handler reads it mapped; -1 (the default): in memory, from the server's bound */
    void *ticket;                  /* handed back to release() when the request ends, whatever became of it */
} ws_ext_admit;

/* Its reply: status, content type, body (malloc'd, taken by the server), and optional headers. */
typedef struct {
    int status;
    const char *type;
    char *body;
    size_t len;
    char set_cookie[320];          /* "" for none */
    char location[320];            /* a redirect's target (status 303), "" for none */
} ws_ext_reply;

/* More pages under one path prefix (e.g. the ladder's, "/ladder"): their requests, GET, HEAD, POST or DELETE, go to
 * handle, from the connection's own thread, one at a time with the report library's lock held (its documents,
 * renderers and standings keep work in static buffers). Before a body is read, admit (from the connection's thread,
 * without that lock) says whether and how much of it to take: nothing of a request it refuses is read; a body in
 * memory counts against the server's body_memory, one spooled to a file does not. Without admit, bodies of up to
 * max_body bytes are taken in memory. Their pages may post forms back to this server (form-action 'self'). */
typedef struct {
    const char *prefix;
    size_t max_body;
    void (*admit)(void *user, const ws_ext_request *q, ws_ext_admit *a);
    void (*release)(void *user, void *ticket);
    void (*handle)(void *user, const ws_ext_request *q, ws_ext_reply *r);
    void *user;
} ws_extension;

#define WS_MAX_TRUSTED 8

typedef struct {
    const char *db;                /* the results database (opened read-only by every request) */
    char host[64];                 /* the IPv4 address to listen on: "127.0.0.1" unless told otherwise */
    int port;                      /* 0: any free port (ws_port says which) */
    int max_connections;           /* open connections at once (each has its thread) */
    int per_ip;                    /* open connections from one address (a trusted proxy's are not counted) */
    int timeout_s;                 /* an idle connection is closed after this long (a slow client) */
    int header_s;                  /* a request's headers must be in this long after its connection opened (or its
                                    * previous reply went), and its body start arriving; else the connection closes */
    long body_rate;                /* after that grace, a body must arrive at this many bytes a second on average */
    int reply_s;                   /* a reply (not a live feed) must be taken within this long */
    int reserve;                   /* connection slots that live feeds and clients slow with their headers never
                                    * hold: while fewer are free, headers are awaited a second at most */
    int stream_per_ip;             /* live feeds (/events) open from one client address */
    size_t body_memory;            /* bytes of request bodies held in memory at once, in all */
    int n_trusted;                 /* proxies whose X-Forwarded-For names the client (canonical addresses) */
    char trusted[WS_MAX_TRUSTED][64];
    long request_ms;               /* the database work of one request is interrupted after this long */
    int bootstrap;                 /* resamples for the intervals and LOS of league pages */
    long idle_s;                   /* a league with games to play whose lock nobody holds (league_lock.h) is
                                    * shown as stopped while its newest game is younger than this */
    int stream_s;                  /* a live feed (/events) ends after this long; browsers reconnect */
    const char *logs;              /* the agents' logs directory ('arena league --logs'); NULL: not served */
    const char *version;           /* the arena's, in page footers */
    const ws_extension *ext;       /* NULL: none */
} ws_config;

/* The defaults: loopback port 8080, 512 connections, 64 per address, 15 s idle timeout, headers within 10 s,
 * bodies at 8 KiB/s, replies taken within 60 s, a reserve of 64 slots, 8 live feeds of 5 minutes per address,
 * 32 MiB of bodies in memory, no trusted proxy, 10 s per request, 200 resamples, 600 s idle, logs in results/logs. */
void ws_defaults(ws_config *c);

/* Parses a list of addresses ("127.0.0.1, ::1") into c's trusted proxies; -1 with a reason in err. */
int ws_parse_trusted(ws_config *c, const char *text, char *err, size_t errlen);

/* Whether a request's Accept header prefers JSON to HTML: the quality of application/json (from its most specific
 * range, wildcards included) above zero and above that of text/html; no header, or a tie: HTML. */
bool ws_accept_json(const char *accept);

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
