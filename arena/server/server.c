/* arena/server/server.c — the HTTP side of `arena serve` (contract in server.h): libmicrohttpd with a thread
 * per connection, so a slow client holds only its own thread, under limits on connections (in all and per
 * address), on idle time and on the memory of a request's headers; GET and HEAD only; each request's page
 * built by route.c over its own read-only connection to the database. */
#include "server.h"

#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "route_private.h"
#include "server_private.h"

struct ws_server {
    ws_config cfg;
    struct MHD_Daemon *d;
    ws_cache *cache;
    ws_live *live;
    volatile int stopping;
    int first_call;                /* *state of a request of the server's own pages (an extension's has its body) */
};

void ws_defaults(ws_config *c)
{
    memset(c, 0, sizeof *c);
    c->db = STORE_DEFAULT_PATH;
    snprintf(c->host, sizeof c->host, "127.0.0.1");
    c->port = 8080;
    c->max_connections = 512;
    c->per_ip = 256;
    c->timeout_s = 15;
    c->request_ms = 10000;
    c->bootstrap = 200;
    c->idle_s = 600;
    c->stream_s = 3600;
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

/* ---- an extension's requests: the body read whole (bounded), then the extension's reply ---------------------- */

typedef struct {
    char *body;
    size_t len, cap;
} ext_body;

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

/* Every call of a request for the extension: the first (headers) makes its body buffer, refusing a declared body
 * over the limit; the next take the body; the last answers. */
static enum MHD_Result ext_request(ws_server *sv, struct MHD_Connection *con, const char *url, const char *method,
                                   const char *upload, size_t *upload_size, void **state)
{
    const ws_extension *x = sv->cfg.ext;
    ext_body *b = *state;
    ws_reply r = { 0 };
    if (!b) {
        const char *cl = MHD_lookup_connection_value(con, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
        if (cl && strtoull(cl, NULL, 10) > x->max_body) {
            ws_error(&r, false, 413, "a request body over %zu bytes is refused", x->max_body);
            return send_reply(con, &r);
        }
        if (!(b = calloc(1, sizeof *b)))
            return MHD_NO;
        *state = b;
        return MHD_YES;
    }
    if (*upload_size) {
        if (b->len + *upload_size > x->max_body) {
            *upload_size = 0;
            return MHD_NO; /* past the limit without a Content-Length: the connection is closed */
        }
        if (b->len + *upload_size + 1 > b->cap) {
            size_t cap = (b->len + *upload_size + 1) * 2;
            char *p = realloc(b->body, cap > x->max_body + 1 ? x->max_body + 1 : cap);
            if (!p)
                return MHD_NO;
            b->body = p;
            b->cap = cap > x->max_body + 1 ? x->max_body + 1 : cap;
        }
        memcpy(b->body + b->len, upload, *upload_size);
        b->len += *upload_size;
        *upload_size = 0;
        return MHD_YES;
    }
    ws_ext_request q = { .method = method, .path = url, .header = ext_header, .arg = ext_arg, .con = con,
                         .body = b->body ? b->body : "", .body_len = b->len };
    if (b->body)
        b->body[b->len] = '\0';
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(con, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (ci && ci->client_addr && ci->client_addr->sa_family == AF_INET)
        inet_ntop(AF_INET, &((const struct sockaddr_in *)ci->client_addr)->sin_addr, q.peer, sizeof q.peer);
    ws_ext_reply xr = { .status = 500 };
    ws_report_lock(); /* its pages are the report library's documents too (st_order, static buffers) */
    x->handle(x->user, &q, &xr);
    ws_report_unlock();
    return ext_send(con, &xr);
}

/* Frees an extension request's body once it is answered or abandoned. */
static void completed(void *cls, struct MHD_Connection *con, void **state, enum MHD_RequestTerminationCode code)
{
    (void)con, (void)code;
    ws_server *sv = cls;
    if (*state && *state != &sv->first_call) {
        ext_body *b = *state;
        free(b->body);
        free(b);
    }
    *state = NULL;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *con, const char *url, const char *method,
                                  const char *version, const char *upload, size_t *upload_size, void **state)
{
    (void)version, (void)upload;
    ws_server *sv = cls;
    if ((*state == NULL || *state != &sv->first_call) && ext_path(sv, url) &&
        (strcmp(method, MHD_HTTP_METHOD_GET) == 0 || strcmp(method, MHD_HTTP_METHOD_HEAD) == 0 ||
         strcmp(method, MHD_HTTP_METHOD_POST) == 0 || strcmp(method, MHD_HTTP_METHOD_DELETE) == 0))
        return ext_request(sv, con, url, method, upload, upload_size, state);
    if (*state == NULL) { /* the headers are in: the call with the body (if any) and the answer come next */
        *state = &sv->first_call;
        return MHD_YES;
    }
    ws_reply r = { 0 };
    bool get = strcmp(method, MHD_HTTP_METHOD_GET) == 0 || strcmp(method, MHD_HTTP_METHOD_HEAD) == 0;
    if (*upload_size) { /* a body with a GET: refused, and not read */
        *upload_size = 0;
        ws_error(&r, false, 400, "a request body is not accepted");
        return send_reply(con, &r);
    }
    if (!get) {
        ws_error(&r, false, 405, "method %.20s not allowed: GET or HEAD only", method);
        return send_reply(con, &r);
    }
    ws_query q = { .path = url };
    q.accept = MHD_lookup_connection_value(con, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT);
    MHD_get_connection_values(con, MHD_GET_ARGUMENT_KIND, argument, &q);
    ws_context ctx = { .cfg = &sv->cfg, .cache = sv->cache, .live = sv->live, .stopping = &sv->stopping };
    if (ws_is_events(&q)) {
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
    sv->cache = ws_cache_new(8);
    sv->live = ws_live_new();
    struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons((uint16_t)c->port) };
    inet_pton(AF_INET, c->host, &addr.sin_addr);
    if (sv->cache && sv->live)
        sv->d = MHD_start_daemon(
            MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | MHD_USE_POLL, (uint16_t)c->port, NULL,
            NULL, on_request, sv, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&addr, MHD_OPTION_CONNECTION_LIMIT,
            (unsigned)c->max_connections, MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)c->per_ip,
            MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)c->timeout_s, MHD_OPTION_CONNECTION_MEMORY_LIMIT,
            (size_t)(32 * 1024), MHD_OPTION_UNESCAPE_CALLBACK, unescape, NULL, MHD_OPTION_NOTIFY_COMPLETED, completed, sv, MHD_OPTION_THREAD_STACK_SIZE, (size_t)(4 * 1024 * 1024), MHD_OPTION_END);
    if (!sv->d) {
        snprintf(err, errlen, "cannot listen on %s:%d (in use, or not an address of this machine)", c->host, c->port);
        ws_cache_free(sv->cache);
        ws_live_free(sv->live);
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
    ws_cache_free(sv->cache);
    ws_live_free(sv->live);
    free(sv);
}
