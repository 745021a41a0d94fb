/* arena/ladder/web.h — the ladder's pages and actions under /ladder, an extension of `arena serve` (server.h's
 * ws_extension), drawn from the report library's document model like every page of the server (HTML, or JSON with
 * a ".json" suffix or Accept: application/json):
 *   GET  /ladder                 the ladder per variant and board: Elo with its interval, games, owner
 *   GET  /ladder/bot/NAME        a bot: owner, versions (state, placement, SPRT tests with their decision and LLR
 *                                curve), the games of its jobs linked to the game viewer, its forfeits with reason
 *   GET  /ladder/log/ID          the logs of submission ID: its owner's (or an admin's) only
 *   GET  /ladder/queue           what is queued and running, where, and an estimate of when it ends
 *   GET  /ladder/login, /ladder/me   the forms: log in, sign up; submit, retire, test, API token, approve, log out
 *   POST /ladder/signup|login|logout|submit|retire|token|approve
 * Who asks: the session cookie (accounts.h) or, for the API, "Authorization: Bearer TOKEN". A form posted with a
 * session cookie must carry the session's form token (field csrf), else 403; an API call carries no cookie, so a
 * page elsewhere cannot make one. Every action of an account counts against its requests_per_minute (429). An
 * upload is a multipart form field `archive`, or for the API the request body itself (?sprt=1&elo0=&elo1=). */
#ifndef ARENA_LADDER_WEB_H
#define ARENA_LADDER_WEB_H

#include <stdbool.h>
#include <stddef.h>

#include "ladder_ini.h"
#include "server.h"

typedef struct {
    ld_config cfg;
    bool secure_cookie;            /* served behind TLS: the cookie is Secure */
} ld_web;

/* The extension's handler (user: an ld_web). */
void ld_web_handle(void *user, const ws_ext_request *q, ws_ext_reply *r);

/* The extension for a server: prefix /ladder, bodies up to the archive limit plus room for the form. */
ws_extension ld_web_extension(ld_web *w);

#endif
