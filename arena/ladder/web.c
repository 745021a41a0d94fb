/* arena/ladder/web.c — the ladder's requests routed (web.h): what of a request's body is taken (admit, before a byte
 * of it is read: the Origin, who asks, an upload's bounds), the path checked, who asks (session cookie or API token),
 * a form's token and the account's rate checked before any action, pages drawn as HTML or JSON. */
#define _GNU_SOURCE /* open_memstream */
#include "web_private.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

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
    if (!same_origin(q)) { /* a page of another site posting a form (ld_web_admit refused it already) */
        ld_web_error(rq, r, 403, "a form posted from another site's page (Origin) is refused");
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
    rq.json = ws_accept_json(accept);
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

/* ---- before a body is read ------------------------------------------------------------------------------------ */

static void refuse(ws_ext_admit *a, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void refuse(ws_ext_admit *a, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->message, sizeof a->message, fmt, ap);
    va_end(ap);
    a->status = status;
}

/* An unnamed file in the store for an upload's body (nothing is left behind however the server ends), or -1. */
static int spool(const char *store)
{
    int fd = open(store, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd < 0 && errno == ENOENT && mkdir(store, 0755) == 0) /* before the first submission */
        fd = open(store, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL))
        return fd;
    char path[600];
    snprintf(path, sizeof path, "%s/.upload-XXXXXX", store); /* a file system without O_TMPFILE */
    fd = mkostemp(path, O_CLOEXEC);
    if (fd >= 0)
        unlink(path);
    return fd;
}

/* The upload of account `who`: one per account, LD_UPLOADS_AT_ONCE in all. 0, or the status refusing it. */
static int upload_begin(ld_web *w, int64_t who)
{
    pthread_mutex_lock(&w->lock);
    int status = 0;
    for (int i = 0; i < w->n_uploading; i++)
        if (w->uploading[i] == who)
            status = 429;
    if (!status && w->n_uploading == LD_UPLOADS_AT_ONCE)
        status = 503;
    if (!status)
        w->uploading[w->n_uploading++] = who;
    pthread_mutex_unlock(&w->lock);
    return status;
}

static void release(void *user, void *ticket)
{
    ld_web *w = user;
    int64_t who = (int64_t)(intptr_t)ticket;
    if (!who)
        return;
    pthread_mutex_lock(&w->lock);
    for (int i = 0; i < w->n_uploading; i++)
        if (w->uploading[i] == who) {
            w->uploading[i] = w->uploading[--w->n_uploading];
            break;
        }
    pthread_mutex_unlock(&w->lock);
}

/* An upload's admission: the account's, within its quota and the store's disk, into a spool file. */
static void admit_upload(ld_web *w, ld_req *rq, ws_ext_admit *a)
{
    const ld_config *c = &w->cfg;
    const ws_ext_request *q = rq->q;
    const char *ct = q->header(q->con, "Content-Type"), *cl = q->header(q->con, "Content-Length");
    bool raw = rq->via_token && ct &&
               (strncasecmp(ct, "application/gzip", 16) == 0 || strncasecmp(ct, "application/octet-stream", 24) == 0);
    uint64_t limit = c->archive.archive_bytes + (raw ? 0 : LD_FORM_ROOM);
    uint64_t coming = cl ? strtoull(cl, NULL, 10) : limit;
    coming = coming < limit ? coming : limit;
    int64_t kept = c->bytes_stored ? ldb_account_bytes(rq->d, rq->who.id) : 0;
    if (c->bytes_stored && (kept < 0 || (uint64_t)kept + coming > c->bytes_stored)) {
        refuse(a, kept < 0 ? 500 : 413, "an upload of up to %llu bytes would pass your bytes_stored quota (%lld kept of "
               "%llu): retire a version first", (unsigned long long)coming, (long long)kept,
               (unsigned long long)c->bytes_stored);
        return;
    }
    struct statvfs fs;
    if (statvfs(c->store, &fs) == 0 && (long long)(fs.f_bavail * fs.f_frsize) < (long long)coming + LD_DISK_MARGIN) {
        refuse(a, 507, "the ladder's store is nearly full: uploads are refused until an admin frees space");
        return;
    }
    int status = upload_begin(w, rq->who.id);
    if (status) {
        refuse(a, status, status == 429 ? "one upload at a time per account: wait for the one being received"
                                        : "busy: %d uploads are being received; retry in a minute", LD_UPLOADS_AT_ONCE);
        return;
    }
    a->ticket = (void *)(intptr_t)rq->who.id;
    if ((a->spool_fd = spool(c->store)) < 0) {
        refuse(a, 500, "cannot store the upload: %s", strerror(errno));
        return;
    }
    a->max_body = (size_t)limit;
}

void ld_web_admit(void *user, const ws_ext_request *q, ws_ext_admit *a)
{
    ld_web *w = user;
    a->max_body = 0; /* GET, HEAD, DELETE */
    if (strcmp(q->method, "POST") != 0)
        return;
    const char *action = q->path + 7; /* after "/ladder" */
    action += *action == '/';
    size_t n = strcspn(action, ".");
    if (!same_origin(q)) { /* a page of another site posting one of this ladder's forms */
        refuse(a, 403, "a form posted from another site's page (Origin) is refused");
        return;
    }
    if ((n == 6 && strncmp(action, "signup", 6) == 0) || (n == 5 && strncmp(action, "login", 5) == 0)) {
        a->max_body = LD_ANON_BODY;
        return;
    }
    ld_req rq = { .w = w, .q = q, .now = (int64_t)time(NULL) };
    char err[600];
    if (!(rq.d = ldb_open(w->cfg.state, err, sizeof err))) {
        refuse(a, 503, "%s", err);
        return;
    }
    identify(&rq);
    if (!rq.known)
        refuse(a, 401, "log in first (or send Authorization: Bearer TOKEN)");
    else if (n == 6 && strncmp(action, "submit", 6) == 0)
        admit_upload(w, &rq, a);
    else
        a->max_body = LD_FORM_BODY;
    ldb_close(rq.d);
}

ws_extension ld_web_extension(ld_web *w)
{
    pthread_mutex_init(&w->lock, NULL);
    return (ws_extension){ .prefix = "/ladder", .max_body = (size_t)w->cfg.archive.archive_bytes + LD_FORM_ROOM,
                           .admit = ld_web_admit, .release = release, .handle = ld_web_handle, .user = w };
}
