/* arena/server/server_private.h — what the server's files share: a request as the pages see it (the read-only
 * store, the configuration, JSON or HTML, the query), the reply, the cache of league pages, the live state,
 * and each page's builder. Internal to arena/server. */
#ifndef ARENA_SERVER_SERVER_PRIVATE_H
#define ARENA_SERVER_SERVER_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "browse.h"
#include "doc.h"
#include "server.h"
#include "standings.h"
#include "store.h"

/* Bounds of the work of one page. */
#define WS_GAMES_LISTED 50        /* games in a page's table of newest games */
#define WS_AGENT_GAMES 5000       /* an agent's or a pairing's newest games summarised */
#define WS_HISTORY_LEAGUES 12     /* leagues in an agent's ratings history */
#define WS_RECENT_LEAGUES 20      /* leagues listed on the summary */
#define WS_RUNNING_MAX 16         /* running leagues shown */

typedef struct ws_cache ws_cache;
typedef struct ws_live ws_live;

typedef struct {
    const ws_config *cfg;
    ws_cache *cache;
    ws_live *live;
    store_db *s;                   /* read-only, with the request's deadline */
    int ply;                       /* /game: ?ply=N, -1 when not given */
    bool script;                   /* set by a page with a "live" section: its HTML gets ws_live_script */
    const doc *shared;             /* a cached league document the page is drawn around (ws_cache_league): its
                                    * title, facts, warnings and sections, with the page's own sections before it
                                    * (the first `shared_at`) and after it; released by the router */
    int shared_at;
} ws_req;

/* A reply: status, content type and body (malloc'd). */
typedef struct {
    int status;
    const char *type;
    char *body;
    size_t len;
} ws_reply;

/* Sets an error reply: a one-line text body (JSON {"error": ...} when json). */
void ws_error(ws_reply *r, bool json, int status, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* The outcome of a page builder: 0 with the document built, else an HTTP status with a line in err. */
typedef int ws_page_fn(ws_req *q, int64_t a, int64_t b, doc *d, char *err, size_t errlen);

ws_page_fn ws_page_summary, ws_page_league, ws_page_agent, ws_page_pairing;

/* /game/ID: the viewer page or its JSON straight into the reply (0), or an HTTP status with err. */
int ws_page_game(ws_req *q, int64_t id, bool json, ws_reply *r, char *err, size_t errlen);

/* /logs/NAME: the tail of an agent's log, text. */
int ws_page_log(ws_req *q, const char *name, ws_reply *r, char *err, size_t errlen);

/* The report library and the config parser keep some of their work in static buffers (st_order, cfg_parse,
 * the nightly page's builder): the server calls them under this lock, one thread at a time (building a page,
 * fitting a league, parsing a stored config). */
void ws_report_lock(void);
void ws_report_unlock(void);

/* Loads and fits league `id` (no bootstrap) into *r and *x, caught when the report library gives up: 0, or -1
 * with err (r freed). r is calloc'd by the caller; x holds nothing after a failure. */
int ws_fit_league(store_db *s, const char *db, int64_t id, st_report *r, st_selection *x, char *err, size_t errlen);

/* The section `id` "heading": a table of the first `limit` games of g (newest first), each linked to its viewer,
 * players to their agent pages, its end said as "Black connected" or "White (NAME) forfeited: REASON: DETAIL". */
void ws_games_section(doc *d, const char *id, const char *heading, const store_game_brief *g, int n, int limit);

/* An HTTP status for a failed database call: 503 when it ran past the request's deadline, else 500; err says
 * "DB: store_error()". */
int ws_db_error(ws_req *q, char *err, size_t errlen);

/* ---- the cache of league pages (cache.c): the nightly document of a league, keyed by how far it has played */
ws_cache *ws_cache_new(int capacity);
void ws_cache_free(ws_cache *c);

/* The nightly page of league `id` (played and skipped: its schedule's counts now), built when not cached (one
 * built less than 2 s ago for other counts is used as it is: a league playing is not rebuilt for every game).
 * Returns a document to read only, until ws_cache_release; NULL with an HTTP status in *status and err. */
const doc *ws_cache_league(ws_req *q, int64_t id, long played, long skipped, int *status, char *err, size_t errlen);
void ws_cache_release(ws_cache *c, const doc *d);

/* ---- the live state (live.c): the leagues running now and the newest, read at most once a second for all */
ws_live *ws_live_new(void);
void ws_live_free(ws_live *l);

/* The running leagues as JSON ({"leagues":[...]}, malloc'd; computed again when a second old, over a
 * read-only connection of its own) and a serial number that changes when it does. NULL with err when the
 * database failed. */
char *ws_live_json(ws_live *l, const ws_config *cfg, long *serial, char *err, size_t errlen);

/* The section "live" (heading "Running now"): a table of the running leagues (their lock held) and of those
 * stopped within the idle window (lock free: "stopped" in place of the ETA), with `only` > 0 that league only; when
 * there is none, the section is empty (no heading, no table: the place where the script draws a league that starts
 * later). Always one section; sets q->script. Returns 0, or an HTTP status with err. */
int ws_live_section(ws_req *q, doc *d, int64_t only, char *err, size_t errlen);

/* The section "leagues": the newest leagues (from the same state, at most a second old), and the newest league
 * with games into *newest (*has_newest false when there is none). Returns 0, or an HTTP status with err. */
int ws_recent_section(ws_req *q, doc *d, store_league_brief *newest, bool *has_newest, char *err, size_t errlen);

/* The script of the summary page: keeps the "live" section up to date from /events (EventSource). */
extern const char ws_live_script[];

#endif
