/* arena/ladder/web.c — the ladder's requests routed (web.h): the path checked, who asks (session cookie or API
 * token), a form's token and the account's rate checked before any action, pages drawn as HTML or JSON. */
#define _GNU_SOURCE /* open_memstream */
#include "web_private.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "cookie.h"
#include "manifest.h"
#include "render.h"

void ld_web_draw(ld_req *rq, const doc *d, ws_ext_reply *r)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) {
        ld_web_error(rq, r, 500, "out of memory");
        return;
    }
    (rq->json ? render_json : render_html)(d, f);
    fclose(f);
    r->status = 200;
    r->type = rq->json ? "application/json" : "text/html; charset=utf-8";
    r->body = buf;
    r->len = len;
}

void ld_web_error(ld_req *rq, ws_ext_reply *r, int status, const char *fmt, ...)
{
    char line[600], *body = malloc(1300);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    for (char *p = line; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f || (rq->json && (*p == '"' || *p == '\\')))
            *p = ' ';
    free(r->body);
    r->status = status;
    r->body = body;
    r->len = body ? (size_t)snprintf(body, 1300, rq->json ? "{\"error\":\"%s\"}\n" : "%s\n", line) : 0;
    r->type = rq->json ? "application/json" : "text/plain; charset=utf-8";
}

void ld_web_redirect(ws_ext_reply *r, const char *to)
{
    r->status = 303;
    snprintf(r->location, sizeof r->location, "%s", to);
    r->body = malloc(1);
    r->len = 0;
    r->type = "text/plain; charset=utf-8";
}

/* Who asks: an API token (Authorization: Bearer), else the session cookie. */
static void identify(ld_req *rq)
{
    const ws_ext_request *q = rq->q;
    const char *auth = q->header(q->con, "Authorization");
    if (auth && strncasecmp(auth, "Bearer ", 7) == 0) {
        rq->known = ld_token_account(rq->d, auth + 7, rq->now, &rq->who) == 1;
        rq->via_token = rq->known;
        return;
    }
    const char *cookies = q->header(q->con, "Cookie");
    if (cookies && ld_cookie_get(cookies, LD_COOKIE, rq->cookie, sizeof rq->cookie))
        rq->known = ld_session_account(rq->d, rq->cookie, rq->now, &rq->who, rq->csrf) == 1;
}

static void get(ld_req *rq, const char *path, ws_ext_reply *r)
{
    doc d;
    doc_init(&d, "Ladder", NULL);
    char err[600] = "";
    int status = 404;
    if (strcmp(path, "") == 0)
        status = ld_page_ladder(rq, &d, err, sizeof err);
    else if (strncmp(path, "/bot/", 5) == 0 && ld_name_ok(path + 5))
        status = ld_page_bot(rq, path + 5, &d, err, sizeof err);
    else if (strcmp(path, "/queue") == 0)
        status = ld_page_queue(rq, &d, err, sizeof err);
    else if (strcmp(path, "/login") == 0)
        status = ld_page_login(rq, &d, err, sizeof err);
    else if (strcmp(path, "/me") == 0)
        status = ld_page_me(rq, &d, err, sizeof err);
    else if (strncmp(path, "/log/", 5) == 0) {
        char *end;
        long long id = strtoll(path + 5, &end, 10);
        doc_free(&d);
        if (*end || id <= 0)
            ld_web_error(rq, r, 400, "log id '%.40s': expected a number", path + 5);
        else
            ld_page_log(rq, id, r);
        return;
    } else
        snprintf(err, sizeof err, "no such page: /ladder%.100s", path);
    if (status == 0)
        ld_web_draw(rq, &d, r);
    else
        ld_web_error(rq, r, status, "%s", err);
    doc_free(&d);
}

/* Whether a request's Origin, when it says one (browsers do on every POST), is this server (its Host header). */
static bool same_origin(const ws_ext_request *q)
{
    const char *origin = q->header(q->con, "Origin"), *host = q->header(q->con, "Host");
    if (!origin)
        return true;
    const char *at = strstr(origin, "://");
    return at && host && strcmp(at + 3, host) == 0;
}

/* A POST: its form read (except an API upload, whose body is the archive), its form token and the account's rate
 * checked, then the action. */
static void post(ld_req *rq, const char *path, ws_ext_reply *r)
{
    const ws_ext_request *q = rq->q;
    const char *action = path[0] == '/' ? path + 1 : path;
    const char *ct = q->header(q->con, "Content-Type");
    bool raw = rq->via_token && strcmp(action, "submit") == 0 && ct &&
               (strncasecmp(ct, "application/gzip", 16) == 0 || strncasecmp(ct, "application/octet-stream", 24) == 0);
    char err[300];
    if (!raw && ld_form_parse(ct, q->body, q->body_len, &rq->form, err, sizeof err) != 0) {
        ld_web_error(rq, r, 400, "%s", err);
        return;
    }
    bool open = strcmp(action, "signup") == 0 || strcmp(action, "login") == 0;
    if (open && !same_origin(q)) { /* a page of another site posting the form: no login or sign-up from there */
        ld_web_error(rq, r, 403, "a sign-up or login from another site's page (Origin) is refused");
        return;
    }
    if (!rq->known && !open) {
        ld_web_error(rq, r, 401, "log in first (or send Authorization: Bearer TOKEN)");
        return;
    }
    char given[LD_SECRET_HEX + 1] = "";
    if (rq->known && !rq->via_token && !open &&
        !(ld_form_text(&rq->form, "csrf", given, sizeof given) && ld_csrf_ok(rq->csrf, given))) {
        ld_web_error(rq, r, 403, "the form's token (csrf) is missing or not this session's: reload the page");
        return;
    }
    if (rq->known) {
        int ok = ld_rate(rq->d, rq->who.id, "request", rq->w->cfg.requests_per_minute, 60, rq->now);
        if (ok < 0) {
            ld_web_error(rq, r, 500, "%s", ldb_error(rq->d));
            return;
        }
        if (ok == 0) {
            ld_web_error(rq, r, 429, "too many requests: %ld a minute at most", rq->w->cfg.requests_per_minute);
            return;
        }
    }
    ld_action(rq, action, r);
}

/* DELETE /ladder/token/ID: revokes one of the asker's tokens (with the token itself, or the session: a page of another
 * site cannot send a DELETE without this server's consent, which it never gives). */
static void delete(ld_req *rq, const char *path, ws_ext_reply *r)
{
    char *end;
    long long id = strncmp(path, "/token/", 7) == 0 ? strtoll(path + 7, &end, 10) : 0;
    if (id <= 0 || *end) {
        ld_web_error(rq, r, 404, "DELETE: only /ladder/token/ID (one of your API tokens)");
        return;
    }
    if (!rq->known) {
        ld_web_error(rq, r, 401, "log in first (or send Authorization: Bearer TOKEN)");
        return;
    }
    ld_revoke_token(rq, id, r);
}

void ld_web_handle(void *user, const ws_ext_request *q, ws_ext_reply *r)
{
    ld_req rq = { .w = user, .q = q, .now = (int64_t)time(NULL) };
    const char *accept = q->header(q->con, "Accept");
    char path[256];
    size_t n = strlen(q->path);
    rq.json = accept && strstr(accept, "application/json");
    if (n - 7 >= sizeof path || strspn(q->path, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-") != n ||
        strstr(q->path, "..")) {
        ld_web_error(&rq, r, 400, "bad path: only letters, digits and / . _ - (no '..')");
        return;
    }
    snprintf(path, sizeof path, "%s", q->path + 7); /* after "/ladder" */
    n = strlen(path);
    if (n >= 5 && strcmp(path + n - 5, ".json") == 0) {
        rq.json = true;
        path[n - 5] = '\0';
    }
    char err[600];
    if (!(rq.d = ldb_open(rq.w->cfg.state, err, sizeof err))) {
        ld_web_error(&rq, r, 503, "%s", err);
        return;
    }
    identify(&rq);
    if (strcmp(q->method, "POST") == 0)
        post(&rq, path, r);
    else if (strcmp(q->method, "DELETE") == 0)
        delete(&rq, path, r);
    else
        get(&rq, path, r);
    ld_form_free(&rq.form);
    ldb_close(rq.d);
}

ws_extension ld_web_extension(ld_web *w)
{
    return (ws_extension){ .prefix = "/ladder", .max_body = (size_t)w->cfg.archive.archive_bytes + 65536,
                           .handle = ld_web_handle, .user = w };
}
