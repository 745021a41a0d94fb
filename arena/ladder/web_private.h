/* arena/ladder/web_private.h — what the ladder's web files share: a request with who made it (web.c), the pages
 * (web_pages.c) and the actions (web_actions.c). Internal to arena/ladder. */
#ifndef ARENA_LADDER_WEB_PRIVATE_H
#define ARENA_LADDER_WEB_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>

#include "accounts.h"
#include "doc.h"
#include "form.h"
#include "web.h"

typedef struct {
    const ld_web *w;
    const ws_ext_request *q;
    ldb *d;
    bool json;
    int64_t now;
    bool known;                    /* a session or a token says who asks */
    bool via_token;
    ldb_account who;
    char csrf[LD_SECRET_HEX];      /* the session's form token */
    char cookie[LD_SECRET_HEX];
    ld_form form;                  /* a POST's fields */
} ld_req;

/* A page drawn into the reply (HTML or JSON). */
void ld_web_draw(ld_req *rq, const doc *d, ws_ext_reply *r);

/* An error reply: one line (JSON {"error": ...} when json). */
void ld_web_error(ld_req *rq, ws_ext_reply *r, int status, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* A redirect (303) to a page of the ladder. */
void ld_web_redirect(ws_ext_reply *r, const char *to);

/* GET pages: 0 with the document built, else an HTTP status with a line in err. */
int ld_page_ladder(ld_req *rq, doc *d, char *err, size_t errlen);
int ld_page_bot(ld_req *rq, const char *name, doc *d, char *err, size_t errlen);
int ld_page_queue(ld_req *rq, doc *d, char *err, size_t errlen);
int ld_page_login(ld_req *rq, doc *d, char *err, size_t errlen);
int ld_page_me(ld_req *rq, doc *d, char *err, size_t errlen);

/* /ladder/log/ID: text into the reply. */
void ld_page_log(ld_req *rq, int64_t submission, ws_ext_reply *r);

/* Revokes token `id` of the account that asks (the revoke form, DELETE /ladder/token/ID). */
void ld_revoke_token(ld_req *rq, int64_t id, ws_ext_reply *r);

/* POST actions: each answers into r (a redirect for a form, JSON for the API). `action` is the path's last part. */
void ld_action(ld_req *rq, const char *action, ws_ext_reply *r);

#endif
