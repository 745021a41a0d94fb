/* arena/ladder/web_actions.c — the ladder's POST actions (web.h): each answers a form with a redirect to the page
 * that shows its outcome (or an error line), and the API with JSON. */
#include "web_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cookie.h"
#include "enter.h"

/* The reply of an action that worked: JSON for the API (or Accept: application/json), else a redirect. */
static void done(ld_req *rq, ws_ext_reply *r, const char *to, const char *json)
{
    if (!rq->json && !rq->via_token) {
        ld_web_redirect(r, to);
        return;
    }
    r->status = 200;
    r->type = "application/json";
    r->body = strdup(json);
    r->len = r->body ? strlen(r->body) : 0;
}

static void signup(ld_req *rq, ws_ext_reply *r)
{
    char name[64], password[LD_PASSWORD_MAX + 2], err[300], json[128];
    if (!ld_form_text(&rq->form, "name", name, sizeof name) ||
        !ld_form_text(&rq->form, "password", password, sizeof password)) {
        ld_web_error(rq, r, 400, "name and password: expected as form fields");
        return;
    }
    int64_t id = ld_signup(rq->d, &rq->w->cfg, name, password, rq->q->peer, rq->now, err, sizeof err);
    if (id < 0) {
        ld_web_error(rq, r, 400, "%s", err);
        return;
    }
    snprintf(json, sizeof json, "{\"account\":%lld}\n", (long long)id);
    done(rq, r, "/ladder/login", json);
}

static void login(ld_req *rq, ws_ext_reply *r)
{
    char name[64], password[LD_PASSWORD_MAX + 2], err[300];
    ld_session s;
    ldb_account a;
    int rc = ld_form_text(&rq->form, "name", name, sizeof name) &&
                     ld_form_text(&rq->form, "password", password, sizeof password)
                 ? ld_login(rq->d, name, password, rq->now, &s, &a, err, sizeof err)
                 : (snprintf(err, sizeof err, "wrong name or password"), 0);
    if (rc <= 0) {
        ld_web_error(rq, r, rc < 0 ? 500 : 403, "%s", err);
        return;
    }
    ld_cookie_header(s.cookie, rq->w->secure_cookie, r->set_cookie, sizeof r->set_cookie);
    done(rq, r, "/ladder/me", "{\"logged_in\":true}\n");
}

static void logout(ld_req *rq, ws_ext_reply *r)
{
    ld_logout(rq->d, rq->cookie, rq->now);
    ld_cookie_header("", rq->w->secure_cookie, r->set_cookie, sizeof r->set_cookie);
    done(rq, r, "/ladder", "{\"logged_out\":true}\n");
}

/* What an upload asks for: a placement, or a test with elo0 and elo1 (form fields, or the API's arguments). */
static void entry_opts(ld_req *rq, ld_entry_opts *o)
{
    char v[32] = "";
    const ws_ext_request *q = rq->q;
    const char *a;
    o->sprt = (ld_form_text(&rq->form, "sprt", v, sizeof v) && strcmp(v, "1") == 0) ||
              ((a = q->arg(q->con, "sprt")) && strcmp(a, "1") == 0);
    o->elo0 = ld_form_text(&rq->form, "elo0", v, sizeof v) ? strtod(v, NULL)
              : (a = q->arg(q->con, "elo0")) ? strtod(a, NULL) : 0;
    o->elo1 = ld_form_text(&rq->form, "elo1", v, sizeof v) ? strtod(v, NULL)
              : (a = q->arg(q->con, "elo1")) ? strtod(a, NULL) : 10;
}

static void submit(ld_req *rq, ws_ext_reply *r)
{
    const ld_field *f = ld_form_get(&rq->form, "archive");
    const char *data = f ? f->value : rq->q->body;
    size_t len = f ? f->len : rq->q->body_len;
    if ((!f && rq->form.n > 0) || len == 0) {
        ld_web_error(rq, r, 400, "archive: expected a .tar.gz in the form field 'archive' (or as the body)");
        return;
    }
    if (len > rq->w->cfg.archive.archive_bytes) {
        ld_web_error(rq, r, 413, "archive: %zu bytes, over the ladder's [archive] max_bytes (%llu)", len,
                     (unsigned long long)rq->w->cfg.archive.archive_bytes);
        return;
    }
    ld_entry_opts o;
    entry_opts(rq, &o);
    char err[700], name[300];
    snprintf(name, sizeof name, "%s", f && f->filename[0] ? f->filename : "upload.tar.gz");
    int64_t id = ld_enter_archive(rq->d, &rq->w->cfg, &rq->who, data, len, name, &o, rq->now, err, sizeof err);
    if (id <= 0) {
        ld_web_error(rq, r, id < 0 ? 500 : 400, "%s", err);
        return;
    }
    ldb_submission *s = calloc(1, sizeof *s);
    char to[128], json[256];
    if (!s || ldb_submission_get(rq->d, id, s) != 1) {
        free(s);
        ld_web_error(rq, r, 500, "%s", ldb_error(rq->d));
        return;
    }
    snprintf(to, sizeof to, "/ladder/bot/%s", s->name);
    snprintf(json, sizeof json, "{\"submission\":%lld,\"name\":\"%s\",\"version\":\"%s\",\"mode\":\"%s\"}\n",
             (long long)id, s->name, s->version, s->mode);
    free(s);
    done(rq, r, to, json);
}

static void retire(ld_req *rq, ws_ext_reply *r)
{
    char id[32], err[300], *end;
    long long v = ld_form_text(&rq->form, "id", id, sizeof id) ? strtoll(id, &end, 10) : 0;
    if (v <= 0) {
        ld_web_error(rq, r, 400, "id: expected a submission's number");
        return;
    }
    int rc = ld_retire(rq->d, &rq->who, v, err, sizeof err);
    if (rc <= 0) {
        ld_web_error(rq, r, rc < 0 ? 500 : 403, "%s", err);
        return;
    }
    done(rq, r, "/ladder/me", "{\"retired\":true}\n");
}

static void token(ld_req *rq, ws_ext_reply *r)
{
    char t[LD_SECRET_HEX], json[200];
    if (rq->via_token) { /* a leaked token must not outlive its revocation by minting others */
        ld_web_error(rq, r, 403, "a token cannot make another: log in and make it from your account's page");
        return;
    }
    if (ld_token_new(rq->d, rq->who.id, rq->now, t) != 0) {
        ld_web_error(rq, r, 500, "%s", ldb_error(rq->d));
        return;
    }
    ldb_token mine[64]; /* its id, for DELETE /ladder/token/ID: the newest of the account's */
    int n = ldb_tokens(rq->d, rq->who.id, rq->now, mine, 64);
    long long id = 0;
    for (int i = 0; i < n; i++)
        id = mine[i].id > id ? mine[i].id : id;
    if (rq->json) {
        snprintf(json, sizeof json, "{\"token\":\"%s\",\"id\":%lld,\"expires\":%lld}\n", t, id,
                 (long long)(rq->now + LD_TOKEN_SECONDS));
        done(rq, r, "", json);
        return;
    }
    doc d;
    doc_init(&d, "API token", NULL);
    doc_section_add(&d, "token", "Your new API token", NULL);
    doc_para(&d, NULL, "%s", t);
    doc_para(&d, NULL, "Token %lld", id);
    doc_para(&d, "note", "Shown once: only its hash is kept. Send it as: Authorization: Bearer TOKEN. It expires in %d "
             "days; revoke it on your account's page, or with DELETE /ladder/token/ID.", LD_TOKEN_SECONDS / 86400);
    ld_web_draw(rq, &d, r);
    doc_free(&d);
}

/* Revokes one of the account's tokens (form field id, or the path's /token/ID with DELETE). */
void ld_revoke_token(ld_req *rq, int64_t id, ws_ext_reply *r)
{
    int rc = id > 0 ? ldb_token_drop(rq->d, rq->who.id, id) : 0;
    if (rc <= 0) {
        ld_web_error(rq, r, rc < 0 ? 500 : 404, "%s", rc < 0 ? ldb_error(rq->d) : "no such token of yours");
        return;
    }
    done(rq, r, "/ladder/me", "{\"revoked\":true}\n");
}

static void revoke(ld_req *rq, ws_ext_reply *r)
{
    char id[32];
    ld_revoke_token(rq, ld_form_text(&rq->form, "id", id, sizeof id) ? strtoll(id, NULL, 10) : 0, r);
}

/* An admin's actions on an account named in the form: reject a sign-up, delete, reset the password. */
static void account_action(ld_req *rq, ws_ext_reply *r, const char *what)
{
    char name[64], err[300], json[200];
    if (!rq->who.admin) {
        ld_web_error(rq, r, 403, "only an admin may %s an account", what);
        return;
    }
    if (!ld_form_text(&rq->form, "name", name, sizeof name)) {
        ld_web_error(rq, r, 400, "name: expected an account's name");
        return;
    }
    if (strcmp(what, "reset") == 0) {
        char password[LD_SECRET_HEX];
        int rc = ld_reset_password(rq->d, name, password, err, sizeof err);
        if (rc <= 0) {
            ld_web_error(rq, r, rc < 0 ? 500 : 404, "%s", err);
            return;
        }
        if (rq->json) {
            snprintf(json, sizeof json, "{\"password\":\"%s\"}\n", password);
            done(rq, r, "", json);
            return;
        }
        doc d;
        doc_init(&d, "Password reset", NULL);
        doc_section_add(&d, "password", "The new password", NULL);
        doc_para(&d, NULL, "%s: %s", name, password);
        doc_para(&d, "note", "Shown once. Its sessions and API tokens were ended.");
        ld_web_draw(rq, &d, r);
        doc_free(&d);
        return;
    }
    int rc = ld_delete_account(rq->d, &rq->who, name, err, sizeof err);
    if (rc <= 0) {
        ld_web_error(rq, r, rc < 0 ? 500 : 404, "%s", err);
        return;
    }
    done(rq, r, "/ladder/me", "{\"deleted\":true}\n");
}

static void reject(ld_req *rq, ws_ext_reply *r)
{
    account_action(rq, r, "reject");
}

static void delete_account(ld_req *rq, ws_ext_reply *r)
{
    account_action(rq, r, "delete");
}

static void reset(ld_req *rq, ws_ext_reply *r)
{
    account_action(rq, r, "reset");
}

static void approve(ld_req *rq, ws_ext_reply *r)
{
    char name[64], err[300];
    if (!ld_form_text(&rq->form, "name", name, sizeof name)) {
        ld_web_error(rq, r, 400, "name: expected an account's name");
        return;
    }
    int rc = ld_approve(rq->d, &rq->who, name, false, err, sizeof err);
    if (rc <= 0) {
        ld_web_error(rq, r, rc < 0 ? 500 : 403, "%s", err);
        return;
    }
    done(rq, r, "/ladder/me", "{\"approved\":true}\n");
}

void ld_action(ld_req *rq, const char *action, ws_ext_reply *r)
{
    static const struct {
        const char *name;
        void (*fn)(ld_req *rq, ws_ext_reply *r);
    } actions[] = { { "signup", signup }, { "login", login },   { "logout", logout }, { "submit", submit },
                    { "retire", retire }, { "token", token },   { "revoke", revoke }, { "approve", approve },
                    { "reject", reject }, { "delete", delete_account }, { "reset", reset } };
    for (size_t i = 0; i < sizeof actions / sizeof actions[0]; i++)
        if (strcmp(action, actions[i].name) == 0) {
            actions[i].fn(rq, r);
            return;
        }
    ld_web_error(rq, r, 404, "no such action: %.60s", action);
}
