/* arena/server/server.c — the HTTP side of `arena serve` (contract in server.h): libmicrohttpd with a thread
 * per connection, so a slow client holds only its own thread, under limits on connections (in all and per
 * address), on idle time, on the time of a request's headers, body and reply, and on the memory of its headers
 * (the slots, slots.h); the server's own pages GET and HEAD only, answered as soon as their headers are in, each
 * built by route.c over its own read-only connection to the database; an extension's requests admitted by it
 * before their body is read, the body then taken within its limit into memory (bounded in all) or a file. */
#include "server.h"

#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "route_private.h"
#include "server_private.h"
#include "slots.h"

struct ws_server {
    ws_config cfg;
    struct MHD_Daemon *d;
    ws_cache *cache;
    ws_live *live;
    ws_slots *slots;
    volatile int stopping;
};

void ws_defaults(ws_config *c)
{
    memset(c, 0, sizeof *c);
    c->db = STORE_DEFAULT_PATH;
    snprintf(c->host, sizeof c->host, "127.0.0.1");
    c->port = 8080;
    c->max_connections = 512;
    c->per_ip = 64;
    c->timeout_s = 15;
    c->header_s = 10;
    c->body_rate = 8192;
    c->reply_s = 60;
    c->reserve = 64;
    c->stream_per_ip = 8;
    c->body_memory = (size_t)32 << 20;
    c->request_ms = 10000;
    c->bootstrap = 200;
    c->idle_s = 600;
    c->stream_s = 300;
    c->logs = "results/logs";
    c->version = "";
}

int ws_parse_listen(ws_config *c, const char *text, char *err, size_t errlen)
{
    const char *colon = strrchr(text, ':');
    char host[64];
    struct in_addr a;
    size_t n = colon ? (size_t)(colon - text) : 0;
    char *end = NULL;
    long port = colon ? strtol(colon + 1, &end, 10) : -1;
    if (!colon || n == 0 || n >= sizeof host || !end || *end || end == colon + 1 || port < 0 || port > 65535) {
        snprintf(err, errlen, "--listen '%s': expected HOST:PORT (an IPv4 address and a port 0..65535)", text);
        return -1;
    }
    memcpy(host, text, n);
    host[n] = '\0';
    if (inet_pton(AF_INET, host, &a) != 1) {
        snprintf(err, errlen, "--listen '%s': '%s' is not an IPv4 address", text, host);
        return -1;
    }
    snprintf(c->host, sizeof c->host, "%s", host);
    c->port = (int)port;
    return 0;
}

int ws_parse_trusted(ws_config *c, const char *text, char *err, size_t errlen)
{
    c->n_trusted = 0;
    char list[1024];
    snprintf(list, sizeof list, "%s", text);
    for (char *save = NULL, *item = strtok_r(list, ", \t", &save); item; item = strtok_r(NULL, ", \t", &save)) {
        unsigned char a[16];
        int family = strchr(item, ':') ? AF_INET6 : AF_INET;
        if (inet_pton(family, item, a) != 1) {
            snprintf(err, errlen, "trusted proxy '%.64s': not an IPv4 or IPv6 address", item);
            return -1;
        }
        if (c->n_trusted == WS_MAX_TRUSTED) {
            snprintf(err, errlen, "trusted proxies: at most %d", WS_MAX_TRUSTED);
            return -1;
        }
        inet_ntop(family, a, c->trusted[c->n_trusted++], sizeof c->trusted[0]);
    }
    return 0;
}

void ws_error(ws_reply *r, bool json, int status, const char *fmt, ...)
{
    char line[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    for (char *p = line; *p; p++) /* one line, printable */
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = ' ';
    free(r->body);
    r->status = status;
    size_t cap = 2 * sizeof line + 32;
    r->body = malloc(cap);
    if (!r->body) {
        r->len = 0;
        return;
    }
    if (json) {
        size_t k = (size_t)snprintf(r->body, cap, "{\"error\":\"");
        for (const char *p = line; *p; p++) {
            if (*p == '"' || *p == '\\')
                r->body[k++] = '\\';
            r->body[k++] = *p;
        }
        k += (size_t)snprintf(r->body + k, cap - k, "\"}\n");
        r->len = k;
        r->type = "application/json";
    } else {
        r->len = (size_t)snprintf(r->body, cap, "%s\n", line);
        r->type = "text/plain; charset=utf-8";
    }
}

/* What every response carries: no sniffing, no framing, nothing from elsewhere (inline style and script only,
 * the live feed from this server); forms posted nowhere, or (an extension's pages) to this server only. */
static void headers_for(struct MHD_Response *resp, bool forms)
{
    MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(resp, "X-Frame-Options", "DENY");
    /* same-origin: nothing told to other sites, while a form posted here carries its Origin (no-referrer would make it
     * "null", and a login could not tell this server's page from another's) */
    MHD_add_response_header(resp, "Referrer-Policy", "same-origin");
    MHD_add_response_header(resp, "Content-Security-Policy",
                            forms ? "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
                                    "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'"
                                  : "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
                                    "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'");
    MHD_add_response_header(resp, "Vary", "Accept");
}

static void common_headers(struct MHD_Response *resp)
{
    headers_for(resp, false);
}

static enum MHD_Result send_reply(struct MHD_Connection *con, ws_reply *r)
{
    struct MHD_Response *resp = MHD_create_response_from_buffer(r->len, r->body, MHD_RESPMEM_MUST_FREE);
    if (!resp) {
        free(r->body);
        return MHD_NO;
    }
    r->body = NULL;
    common_headers(resp);
    MHD_add_response_header(resp, "Content-Type", r->type ? r->type : "text/plain; charset=utf-8");
    MHD_add_response_header(resp, "Cache-Control", "no-store");
    if (r->status == 405)
        MHD_add_response_header(resp, "Allow", "GET, HEAD");
    enum MHD_Result ok = MHD_queue_response(con, (unsigned)r->status, resp);
    MHD_destroy_response(resp);
    return ok;
}

/* The GET arguments into the route's query (only those it knows; anything else is an error it reports). */
static enum MHD_Result argument(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
    (void)kind;
    ws_query *q = cls;
    if (q->n_args < WS_MAX_ARGS) {
        q->args[q->n_args].key = key;
        q->args[q->n_args].value = value;
    }
    q->n_args++;
    return MHD_YES;
}

/* ---- every request's state, from its headers to its end -------------------------------------------------------- */

typedef struct {
    bool ext;                      /* for the extension */
    bool admitted;                 /* the extension's admit ran: release() owed */
    void *ticket;
    char *body;                    /* a body in memory (ext only) */
    size_t len, cap, limit;
    size_t mem;                    /* bytes of the server's body memory taken */
    int fd;                        /* a spooled body's file, -1 when none */
    int failed;                    /* errno of a spool write that failed: answered 500 once the body is in */
    char peer[64];                 /* the client's address */
} request;

static ws_slot *slot_of(struct MHD_Connection *con)
{
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(con, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return ci ? ci->socket_context : NULL;
}

static const char *ext_header(void *con, const char *name)
{
    return MHD_lookup_connection_value(con, MHD_HEADER_KIND, name);
}

static const char *ext_arg(void *con, const char *name)
{
    return MHD_lookup_connection_value(con, MHD_GET_ARGUMENT_KIND, name);
}

static bool ext_path(const ws_server *sv, const char *url)
{
    const ws_extension *x = sv->cfg.ext;
    size_t n = x ? strlen(x->prefix) : 0;
    return x && strncmp(url, x->prefix, n) == 0 && (url[n] == '\0' || url[n] == '/' || url[n] == '.');
}

static enum MHD_Result ext_send(struct MHD_Connection *con, ws_ext_reply *x)
{
    struct MHD_Response *resp = MHD_create_response_from_buffer(x->len, x->body, MHD_RESPMEM_MUST_FREE);
    if (!resp) {
        free(x->body);
        return MHD_NO;
    }
    headers_for(resp, true);
    MHD_add_response_header(resp, "Content-Type", x->type ? x->type : "text/plain; charset=utf-8");
    MHD_add_response_header(resp, "Cache-Control", "no-store");
    if (x->set_cookie[0])
        MHD_add_response_header(resp, "Set-Cookie", x->set_cookie);
    if (x->location[0])
        MHD_add_response_header(resp, "Location", x->location);
    enum MHD_Result ok = MHD_queue_response(con, (unsigned)x->status, resp);
    MHD_destroy_response(resp);
    return ok;
}

/* An error answered before the body is read (or after it, when a spool failed): a line, JSON when asked for. */
static enum MHD_Result refuse(struct MHD_Connection *con, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static enum MHD_Result refuse(struct MHD_Connection *con, int status, const char *fmt, ...)
{
    char line[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    ws_reply r = { 0 };
    ws_error(&r, ws_accept_json(MHD_lookup_connection_value(con, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT)), status,
             "%s", line);
    return send_reply(con, &r);
}

/* Whether the request says it has a body: a Content-Length above 0, or a Transfer-Encoding. Its length into *cl
 * (-1 when not said). */
static bool has_body(struct MHD_Connection *con, long long *cl)
{
    const char *v = MHD_lookup_connection_value(con, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
    *cl = v ? strtoll(v, NULL, 10) : -1;
    return (v && *cl != 0) || MHD_lookup_connection_value(con, MHD_HEADER_KIND, MHD_HTTP_HEADER_TRANSFER_ENCODING);
}

static void ext_query(struct MHD_Connection *con, const char *url, const char *method, const request *rq,
                      ws_ext_request *q)
{
    *q = (ws_ext_request){ .method = method, .path = url, .header = ext_header, .arg = ext_arg, .con = con };
    snprintf(q->peer, sizeof q->peer, "%s", rq->peer);
}

/* The headers of a request for the extension are in: admitted, or refused before a byte of its body is read. */
static enum MHD_Result ext_begin(ws_server *sv, struct MHD_Connection *con, const char *url, const char *method,
                                 request *rq)
{
    const ws_extension *x = sv->cfg.ext;
    rq->ext = true;
    ws_ext_admit a = { .max_body = x->max_body, .spool_fd = -1 };
    if (x->admit) {
        ws_ext_request q;
        ext_query(con, url, method, rq, &q);
        x->admit(x->user, &q, &a);
        rq->admitted = true;
        rq->ticket = a.ticket;
    }
    rq->fd = a.spool_fd; /* ours to close from here */
    long long cl;
    bool body = has_body(con, &cl);
    if (a.status)
        return refuse(con, a.status, "%s", a.message);
    if (body && a.max_body == 0)
        return refuse(con, 400, "a request body is not accepted here (%.20s %.100s)", method, url);
    if (cl > 0 && (unsigned long long)cl > a.max_body)
        return refuse(con, 413, "a request body over %zu bytes is refused here (Content-Length: %lld)", a.max_body, cl);
    rq->limit = a.max_body;
    if (body && rq->fd < 0) {
        size_t take = cl > 0 ? (size_t)cl : a.max_body;
        if (!slots_memory_take(sv->slots, take))
            return refuse(con, 503, "busy: the memory for request bodies is in use; retry in a moment");
        rq->mem = take;
    }
    slots_phase(sv->slots, slot_of(con), body ? SL_BODY : SL_REPLY);
    return MHD_YES;
}

/* Part of a body: into the spool file or memory, within its limit (past it, without a Content-Length that would
 * have been refused at once, the connection is closed: a reply cannot be sent in the middle of a body). */
static enum MHD_Result ext_take(ws_server *sv, struct MHD_Connection *con, request *rq, const char *data, size_t n)
{
    if (rq->len + n > rq->limit)
        return MHD_NO;
    slots_body(sv->slots, slot_of(con), n);
    if (rq->fd >= 0) {
        for (size_t done = 0; done < n && !rq->failed;) {
            ssize_t w = write(rq->fd, data + done, n - done);
            if (w < 0 && errno != EINTR)
                rq->failed = errno;
            else if (w > 0)
                done += (size_t)w;
        }
        rq->len += n;
        return MHD_YES;
    }
    if (rq->len + n + 1 > rq->cap) {
        size_t cap = (rq->len + n + 1) * 2;
        cap = cap > rq->limit + 1 ? rq->limit + 1 : cap;
        char *p = realloc(rq->body, cap);
        if (!p)
            return MHD_NO;
        rq->body = p;
        rq->cap = cap;
    }
    memcpy(rq->body + rq->len, data, n);
    rq->len += n;
    return MHD_YES;
}

/* The whole request is in: the extension's reply. */
static enum MHD_Result ext_answer(ws_server *sv, struct MHD_Connection *con, const char *url, const char *method,
                                  request *rq)
{
    const ws_extension *x = sv->cfg.ext;
    slots_phase(sv->slots, slot_of(con), SL_REPLY);
    if (rq->failed)
        return refuse(con, 500, "the request body could not be stored: %s", strerror(rq->failed));
    ws_ext_request q;
    ext_query(con, url, method, rq, &q);
    void *map = NULL;
    if (rq->fd >= 0 && rq->len > 0) { /* a spooled body, read where it lies */
        map = mmap(NULL, rq->len, PROT_READ, MAP_PRIVATE, rq->fd, 0);
        if (map == MAP_FAILED)
            return refuse(con, 500, "the request body could not be read back: %s", strerror(errno));
        q.body = map;
    } else {
        if (rq->body)
            rq->body[rq->len] = '\0';
        q.body = rq->body ? rq->body : "";
    }
    q.body_len = rq->len;
    ws_ext_reply xr = { .status = 500 };
    ws_report_lock(); /* its pages are the report library's documents too (st_order, static buffers) */
    x->handle(x->user, &q, &xr);
    ws_report_unlock();
    if (map)
        munmap(map, rq->len);
    return ext_send(con, &xr);
}

/* A request ended (answered, or its connection gone): what it held given back; its connection waits for the next. */
static void completed(void *cls, struct MHD_Connection *con, void **state, enum MHD_RequestTerminationCode code)
{
    (void)code;
    ws_server *sv = cls;
    request *rq = *state;
    if (rq) {
        if (rq->fd >= 0)
            close(rq->fd);
        free(rq->body);
        slots_memory_give(sv->slots, rq->mem);
        if (rq->admitted && sv->cfg.ext->release)
            sv->cfg.ext->release(sv->cfg.ext->user, rq->ticket);
        free(rq);
    }
    *state = NULL;
    slots_phase(sv->slots, slot_of(con), SL_HEADERS);
}

/* A page of the server's own: answered as soon as its headers are in (GET and HEAD, without a body). */
static enum MHD_Result own_page(ws_server *sv, struct MHD_Connection *con, const char *url, const char *method,
                                request *rq)
{
    long long cl;
    if (has_body(con, &cl))
        return refuse(con, 400, "a request body is not accepted (%.20s %.100s)", method, url);
    if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 && strcmp(method, MHD_HTTP_METHOD_HEAD) != 0) {
        ws_reply r = { 0 };
        ws_error(&r, false, 405, "method %.20s not allowed: GET or HEAD only", method);
        return send_reply(con, &r);
    }
    ws_reply r = { 0 };
    ws_query q = { .path = url };
    q.accept = MHD_lookup_connection_value(con, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT);
    MHD_get_connection_values(con, MHD_GET_ARGUMENT_KIND, argument, &q);
    ws_context ctx = { .cfg = &sv->cfg, .cache = sv->cache, .live = sv->live, .stopping = &sv->stopping };
    slots_phase(sv->slots, slot_of(con), SL_REPLY);
    if (ws_is_events(&q)) {
        char err[300];
        int status = slots_stream(sv->slots, slot_of(con), rq->peer, err, sizeof err);
        if (status)
            return refuse(con, status, "%s", err);
        struct MHD_Response *resp = ws_events_response(&ctx, &q, &r);
        if (!resp)
            return send_reply(con, &r);
        common_headers(resp);
        MHD_add_response_header(resp, "Content-Type", "text/event-stream");
        MHD_add_response_header(resp, "Cache-Control", "no-store");
        enum MHD_Result ok = MHD_queue_response(con, MHD_HTTP_OK, resp);
        MHD_destroy_response(resp);
        return ok;
    }
    ws_dispatch(&ctx, &q, &r);
    return send_reply(con, &r);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *con, const char *url, const char *method,
                                  const char *version, const char *upload, size_t *upload_size, void **state)
{
    (void)version;
    ws_server *sv = cls;
    request *rq = *state;
    if (!rq) { /* the headers are in */
        if (!(rq = calloc(1, sizeof *rq)))
            return MHD_NO;
        rq->fd = -1;
        *state = rq;
        slots_client(&sv->cfg, slots_address(slot_of(con)),
                     MHD_lookup_connection_value(con, MHD_HEADER_KIND, "X-Forwarded-For"), rq->peer);
        if (ext_path(sv, url) &&
            (strcmp(method, MHD_HTTP_METHOD_GET) == 0 || strcmp(method, MHD_HTTP_METHOD_HEAD) == 0 ||
             strcmp(method, MHD_HTTP_METHOD_POST) == 0 || strcmp(method, MHD_HTTP_METHOD_DELETE) == 0))
            return ext_begin(sv, con, url, method, rq);
        return own_page(sv, con, url, method, rq);
    }
    if (!rq->ext) /* answered at its headers */
        return MHD_YES;
    if (*upload_size) {
        size_t n = *upload_size;
        *upload_size = 0;
        return ext_take(sv, con, rq, upload, n);
    }
    return ext_answer(sv, con, url, method, rq);
}

/* Each connection's slot, from its opening to its end (slots.h). */
static void on_connection(void *cls, struct MHD_Connection *con, void **socket_context,
                          enum MHD_ConnectionNotificationCode code)
{
    ws_server *sv = cls;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *fd = MHD_get_connection_info(con, MHD_CONNECTION_INFO_CONNECTION_FD);
        const union MHD_ConnectionInfo *ad = MHD_get_connection_info(con, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
        *socket_context = fd ? slots_open(sv->slots, fd->connect_fd, ad ? ad->client_addr : NULL) : NULL;
        if (fd && !*socket_context) /* its address holds as many as allowed: closed before a byte is read */
            shutdown(fd->connect_fd, SHUT_RDWR);
    } else if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
        slots_close(sv->slots, *socket_context);
        *socket_context = NULL;
    }
}

/* Decodes %XX in the path and the arguments (MHD's unescaping, in place) but never into a NUL, which would cut
 * the text short unseen: a %00 becomes byte 0x01, which no page accepts. Returns the new length. */
static size_t unescape(void *cls, struct MHD_Connection *con, char *s)
{
    (void)cls, (void)con;
    size_t w = 0;
    for (size_t r = 0; s[r]; r++) {
        unsigned v;
        char hex[3] = { 0 };
        if (s[r] == '%' && s[r + 1] && s[r + 2] && strchr("0123456789abcdefABCDEF", s[r + 1]) &&
            strchr("0123456789abcdefABCDEF", s[r + 2])) {
            hex[0] = s[r + 1];
            hex[1] = s[r + 2];
            sscanf(hex, "%x", &v);
            s[w++] = v ? (char)v : '\x01';
            r += 2;
        } else
            s[w++] = s[r];
    }
    s[w] = '\0';
    return w;
}

ws_server *ws_start(const ws_config *c, char *err, size_t errlen)
{
    store_db *probe = store_open_readonly(c->db, err, errlen);
    if (!probe)
        return NULL;
    store_close(probe);
    ws_server *sv = calloc(1, sizeof *sv);
    if (!sv) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    sv->cfg = *c;
    if (sv->cfg.reserve >= sv->cfg.max_connections)
        sv->cfg.reserve = sv->cfg.max_connections / 2;
    sv->cache = ws_cache_new(8);
    sv->live = ws_live_new();
    sv->slots = slots_new(&sv->cfg);
    struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons((uint16_t)c->port) };
    inet_pton(AF_INET, c->host, &addr.sin_addr);
    /* the per-address bound is the slots' (slots_open), which knows a trusted proxy from a client */
    if (sv->cache && sv->live && sv->slots)
        sv->d = MHD_start_daemon(
            MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | MHD_USE_POLL, (uint16_t)c->port, NULL,
            NULL, on_request, sv, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&addr, MHD_OPTION_CONNECTION_LIMIT,
            (unsigned)c->max_connections, MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)c->timeout_s,
            MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(32 * 1024), MHD_OPTION_UNESCAPE_CALLBACK, unescape, NULL,
            MHD_OPTION_NOTIFY_COMPLETED, completed, sv, MHD_OPTION_NOTIFY_CONNECTION, on_connection, sv,
            MHD_OPTION_THREAD_STACK_SIZE, (size_t)(4 * 1024 * 1024), MHD_OPTION_END);
    if (!sv->d) {
        snprintf(err, errlen, "cannot listen on %s:%d (in use, or not an address of this machine)", c->host, c->port);
        ws_cache_free(sv->cache);
        ws_live_free(sv->live);
        slots_free(sv->slots);
        free(sv);
        return NULL;
    }
    return sv;
}

int ws_port(const ws_server *sv)
{
    const union MHD_DaemonInfo *i = MHD_get_daemon_info(sv->d, MHD_DAEMON_INFO_BIND_PORT);
    return i ? (int)i->port : sv->cfg.port;
}

void ws_stop(ws_server *sv)
{
    if (!sv)
        return;
    sv->stopping = 1;
    MHD_stop_daemon(sv->d);
    slots_free(sv->slots);
    ws_cache_free(sv->cache);
    ws_live_free(sv->live);
    free(sv);
}
