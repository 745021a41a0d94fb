/* arena/server/route.c — a request's path and arguments checked and answered (contract in route_private.h). */
#define _GNU_SOURCE /* open_memstream */
#include "route_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"

bool ws_is_events(const ws_query *q)
{
    return strcmp(q->path, "/events") == 0;
}

/* A page id: a decimal number 1 .. 10^15 without sign or leading zero; -1 for anything else. */
static int64_t parse_id(const char *s, size_t n)
{
    if (n == 0 || n > 15 || s[0] == '0')
        return -1;
    int64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

/* d drawn into r as HTML or JSON; with the live script before </body> when the page asked for it. */
static void draw(const doc *d, bool json, bool live, ws_reply *r)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) {
        ws_error(r, json, 500, "out of memory");
        return;
    }
    (json ? render_json : render_html)(d, f);
    fclose(f);
    if (!buf) {
        ws_error(r, json, 500, "out of memory");
        return;
    }
    r->status = 200;
    r->type = json ? "application/json" : "text/html; charset=utf-8";
    const char *end = json || !live ? NULL : strstr(buf, "</body>");
    if (end) {
        size_t at = (size_t)(end - buf), extra = strlen(ws_live_script);
        char *with = malloc(len + extra + 1);
        if (with) {
            memcpy(with, buf, at);
            memcpy(with + at, ws_live_script, extra);
            memcpy(with + at + extra, buf + at, len - at + 1);
            free(buf);
            buf = with;
            len += extra;
        }
    }
    r->body = buf;
    r->len = len;
}

/* What a message may quote of a request: its first 40 bytes, each one that is not a letter, digit, '.', '_' or
 * '-' shown as '?'. */
static const char *quoted(const char *in, char out[48])
{
    size_t k = 0;
    for (; in && in[k] && k < 40; k++)
        out[k] = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", in[k]) ? in[k] : '?';
    out[k] = '\0';
    return out;
}

/* Checks the arguments: only ?ply=N (0 .. 100000) on a game page. Returns false with a 400 in r. */
static bool arguments(const ws_query *q, bool game, bool json, ws_req *req, ws_reply *r)
{
    if (q->n_args > WS_MAX_ARGS) {
        ws_error(r, json, 400, "too many query parameters (%d)", q->n_args);
        return false;
    }
    for (int i = 0; i < q->n_args; i++) {
        const char *k = q->args[i].key, *v = q->args[i].value;
        char shown[48];
        if (!game || strcmp(k, "ply") != 0) {
            ws_error(r, json, 400, "unknown query parameter '%s'%s", quoted(k, shown), game ? " (only ply)" : "");
            return false;
        }
        int64_t n = v && strcmp(v, "0") == 0 ? 0 : v ? parse_id(v, strlen(v)) : -1;
        if (n < 0 || n > 100000) {
            ws_error(r, json, 400, "ply '%s': expected a number 0..100000", quoted(v, shown));
            return false;
        }
        req->ply = (int)n;
    }
    return true;
}

/* The page's segments: "league", "7" ...; at most 3. Returns their count, -1 when the path is not one of ours. */
static int segments(const char *path, const char *seg[3], size_t len[3])
{
    int n = 0;
    const char *p = path + 1;
    while (*p) {
        const char *slash = strchr(p, '/');
        size_t l = slash ? (size_t)(slash - p) : strlen(p);
        if (n == 3 || l == 0)
            return -1;
        seg[n] = p;
        len[n++] = l;
        p += l + (slash ? 1 : 0);
        if (slash && !*p)
            return -1; /* a trailing slash */
    }
    return n;
}

static bool is(const char *seg, size_t len, const char *name)
{
    return strlen(name) == len && memcmp(seg, name, len) == 0;
}

/* The page of a path: its builder and ids; false when there is none (404 in r) or an id is bad (400). */
static bool route(const char *path, bool json, ws_page_fn **fn, int64_t id[2], bool *game, bool *log, ws_reply *r)
{
    const char *seg[3];
    size_t len[3];
    int n = segments(path, seg, len);
    *fn = NULL;
    *game = *log = false;
    id[0] = id[1] = 0;
    if (n == 0) {
        *fn = ws_page_summary;
        return true;
    }
    if (n == 1 && is(seg[0], len[0], "nights")) {
        *fn = ws_page_nights;
        return true;
    }
    static const struct {
        const char *name;
        int ids;
        ws_page_fn *fn;
    } pages[] = { { "league", 1, ws_page_league }, { "agent", 1, ws_page_agent },
                  { "pairing", 2, ws_page_pairing }, { "game", 1, NULL } };
    /* logs/NAME, also relative to a league page (the nightly page links its agents' logs so) */
    if ((n == 2 && is(seg[0], len[0], "logs")) || (n == 3 && is(seg[0], len[0], "league") && is(seg[1], len[1], "logs"))) {
        *log = true;
        return true;
    }
    for (size_t k = 0; n > 0 && k < sizeof pages / sizeof pages[0]; k++) {
        if (!is(seg[0], len[0], pages[k].name))
            continue;
        if (n != pages[k].ids + 1)
            break;
        for (int i = 0; i < pages[k].ids; i++)
            if ((id[i] = parse_id(seg[i + 1], len[i + 1])) < 0) {
                ws_error(r, json, 400, "%s id '%.*s': expected a number 1..999999999999999", pages[k].name,
                         (int)(len[i + 1] > 40 ? 40 : len[i + 1]), seg[i + 1]);
                return false;
            }
        *fn = pages[k].fn;
        *game = pages[k].fn == NULL;
        return true;
    }
    ws_error(r, json, 404, "no such page: %.100s", path);
    return false;
}

/* The page's own sections around the shared document's (q->shared), as one document to draw: shallow copies,
 * only `sections` is the caller's to free. */
static doc compose(const ws_req *q, const doc *own)
{
    doc v = *q->shared;
    int n = own->n_sections + q->shared->n_sections, at = q->shared_at < own->n_sections ? q->shared_at : own->n_sections;
    v.sections = malloc(sizeof *v.sections * (size_t)(n ? n : 1));
    if (!v.sections) {
        v.n_sections = 0;
        return v;
    }
    memcpy(v.sections, own->sections, sizeof *v.sections * (size_t)at);
    memcpy(v.sections + at, q->shared->sections, sizeof *v.sections * (size_t)q->shared->n_sections);
    memcpy(v.sections + at + q->shared->n_sections, own->sections + at,
           sizeof *v.sections * (size_t)(own->n_sections - at));
    v.n_sections = n;
    return v;
}

/* The NAME of a log's path (/logs/NAME, or /league/logs/NAME: relative to a league page, where the nightly page
 * links it), or NULL when the path is not a log's. */
static const char *log_path(const char *path)
{
    if (strncmp(path, "/logs/", 6) == 0)
        return path + 6;
    if (strncmp(path, "/league/logs/", 13) == 0)
        return path + 13;
    return NULL;
}

/* A log's name as it arrives (percent-decoded: the pages link a league's name of any bytes so): any bytes but '/'
 * and control bytes (a %00 arrives as 0x01), not empty, no "..". */
static bool log_name_ok(const char *name)
{
    if (!*name || strstr(name, ".."))
        return false;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        if (*p == '/' || *p < 0x20 || *p == 0x7f)
            return false;
    return true;
}

void ws_dispatch(const ws_context *c, const ws_query *q, ws_reply *r)
{
    char path[WS_MAX_PATH + 1];
    size_t n = strlen(q->path);
    bool json = ws_accept_json(q->accept);
    if (n > WS_MAX_PATH || q->path[0] != '/') {
        ws_error(r, json, 400, "path too long or not absolute (%zu bytes)", n);
        return;
    }
    const char *log_name = log_path(q->path);
    if (log_name && !log_name_ok(log_name)) {
        ws_error(r, json, 400, "bad log name: any bytes but '/' and control bytes (no '..')");
        return;
    }
    if (!log_name && (strspn(q->path, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-") != n ||
                      strstr(q->path, "..") || strstr(q->path, "//"))) {
        ws_error(r, json, 400, "bad path: only letters, digits and / . _ - (no '..' or '//')");
        return;
    }
    memcpy(path, q->path, n + 1);
    if (strcmp(path, "/index.html") == 0) /* the nightly page's "all nights" link: here, the summary */
        path[1] = '\0';
    else if (strcmp(path, "/index.json") == 0) {
        json = true;
        path[1] = '\0';
    } else if (n > 5 && strcmp(path + n - 5, ".json") == 0 && !strstr(path, "/logs/")) {
        json = true;
        path[n - 5] = '\0';
    }
    ws_page_fn *fn;
    int64_t id[2];
    bool game, log;
    if (!route(path, json, &fn, id, &game, &log, r))
        return;
    ws_req req = { .cfg = c->cfg, .cache = c->cache, .live = c->live, .ply = -1 };
    if (!arguments(q, game, json, &req, r))
        return;
    char err[700];
    req.s = store_open_readonly(c->cfg->db, err, sizeof err);
    if (!req.s) {
        ws_error(r, json, 503, "%s", err);
        return;
    }
    store_deadline(req.s, c->cfg->request_ms);
    int status;
    if (game)
        status = ws_page_game(&req, id[0], json, r, err, sizeof err);
    else if (log)
        status = ws_page_log(&req, strrchr(path, '/') + 1, r, err, sizeof err);
    else {
        doc d;
        memset(&d, 0, sizeof d);
        status = fn(&req, id[0], id[1], &d, err, sizeof err);
        char twin[WS_MAX_PATH + 16]; /* the page's JSON twin, linked from its end */
        snprintf(twin, sizeof twin, "%s.json", path[1] ? path : "/index");
        if (status == 0 && req.shared) {
            doc v = compose(&req, &d);
            v.alternate = twin;
            draw(&v, json, req.script, r);
            free(v.sections);
        } else if (status == 0) {
            doc_alternate(&d, twin);
            draw(&d, json, req.script, r);
        }
        if (req.shared)
            ws_cache_release(c->cache, req.shared);
        doc_free(&d);
    }
    store_close(req.s);
    if (status != 0)
        ws_error(r, json, status, "%s", err);
}
