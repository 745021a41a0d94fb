/* arena/ladder/web.h — the ladder's pages and actions under /ladder, an extension of `arena serve` (server.h's
 * ws_extension), drawn from the report library's document model like every page of the server (HTML, or JSON with
 * a ".json" suffix or Accept: application/json):
 *   GET  /ladder                 the ladder per variant and board: Elo with its interval, games, owner
 *   GET  /ladder/bot/NAME        a bot: owner, versions (state, placement, SPRT tests with their decision and LLR
 *                                curve), the games of its jobs linked to the game viewer, its forfeits with reason
 *   GET  /ladder/log/ID          the logs of submission ID: its owner's (or an admin's) only
 *   GET  /ladder/queue           what is queued and running, where, and an estimate of when it ends
 *   GET  /ladder/login, /ladder/me   the forms: log in, sign up; submit, retire, test, API token, approve, log out
 *   POST /ladder/signup|login|logout|submit|retire|token|revoke|approve|reject|delete|reset
 * Who asks: the session cookie (accounts.h) or, for the API, "Authorization: Bearer TOKEN". A form posted with a
 * session cookie must carry the session's form token (field csrf), else 403; an API call carries no cookie, so a
 * page elsewhere cannot make one. Every action of an account counts against its requests_per_minute (429). An
 * upload is a multipart form field `archive`, or for the API the request body itself (?sprt=1&elo0=&elo1=).
 * DELETE /ladder/token/ID revokes one of the asker's API tokens. */
#ifndef ARENA_LADDER_WEB_H
#define ARENA_LADDER_WEB_H

#include <stdbool.h>
#include <stddef.h>

#include "ladder_ini.h"
#include "server.h"

#include <pthread.h>
#include <stdint.h>

#define LD_ANON_BODY 8192          /* the body of a request from no account (login, sign-up): bytes at most */
#define LD_FORM_BODY 65536         /* an account's other forms */
#define LD_FORM_ROOM 16384         /* a multipart upload's other fields and boundaries, beside its archive */
#define LD_UPLOADS_AT_ONCE 4       /* uploads received at once, in all (and one per account) */
#define LD_DISK_MARGIN (256ll << 20) /* an upload is refused when the store's disk would keep less free */

typedef struct {
    ld_config cfg;
    bool secure_cookie;            /* served behind TLS: the cookie is Secure */
    pthread_mutex_t lock;          /* the uploads being received (ld_web_extension initialises it) */
    int n_uploading;
    int64_t uploading[LD_UPLOADS_AT_ONCE];
} ld_web;

/* The extension's handler (user: an ld_web). */
void ld_web_handle(void *user, const ws_ext_request *q, ws_ext_reply *r);

/* Before a POST's body is read (the server's admit): its Origin this server (else 403); login and sign-up from
 * anyone, their body at most LD_ANON_BODY bytes; anything else from an account (session or token; else 401) with a
 * body of at most LD_FORM_BODY, but an upload (submit): one per account (else 429), LD_UPLOADS_AT_ONCE in all (else
 * 503), within the account's bytes_stored (else 413) and the store's free disk (else 507), spooled as it arrives
 * into an unnamed file in the store, its archive at most [archive] max_bytes (413). A form's token (csrf) is a field
 * of its body, checked once the body is in, before any action. GET, HEAD and DELETE take no body (400). */
void ld_web_admit(void *user, const ws_ext_request *q, ws_ext_admit *a);

/* The extension for a server: prefix /ladder, admit and release as above, bodies up to the archive limit plus room
 * for the form. Initialises w's lock. */
ws_extension ld_web_extension(ld_web *w);

#endif
