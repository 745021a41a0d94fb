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
#define WS_NIGHTS_LISTED 500      /* leagues on /nights */

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

ws_page_fn ws_page_summary, ws_page_league, ws_page_agent, ws_page_pairing, ws_page_nights;

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

/* The values the agent page keeps across requests (the fits of leagues, the records of agents, the logs of
 * leagues), owned by the cache of league pages. */
typedef struct ws_memo ws_memo;
ws_memo *ws_cache_fits(ws_cache *c);
ws_memo *ws_cache_records(ws_cache *c);
ws_memo *ws_cache_logs(ws_cache *c);

/* ---- values computed once and shared (memo.c): each kept under a key, least recently used first out */
typedef struct {
    int64_t id;                    /* a league, an agent */
    int64_t v[4];                  /* what the value was computed from (game counts, versions) */
} ws_memo_key;
typedef struct ws_memo_node ws_memo_node;

/* Computes the value of a key into *value (malloc'd, freed by the memo's free_value), given the newest value of
 * the same id (NULL: none) to start from: 0, or an HTTP status with err. */
typedef int ws_memo_compute_fn(void *arg, const void *older, void **value, char *err, size_t errlen);

/* A memo keeping at most `capacity` values (more only while requests hold them). */
ws_memo *ws_memo_new(int capacity, void (*free_value)(void *));
void ws_memo_free(ws_memo *m);

/* The value of `key`, computed by compute(arg, ...) in this thread when it is not kept; while another request
 * computes a value of the same id, this one waits for it, or with stale_ok takes the newest value of that id
 * kept (if any). Thread-safe. Returns the value to read only, held (*hold) until ws_memo_release; NULL with an
 * HTTP status in *status and err. */
const void *ws_memo_get(ws_memo *m, ws_memo_key key, bool stale_ok, ws_memo_compute_fn *compute, void *arg,
                        ws_memo_node **hold, int *status, char *err, size_t errlen);
void ws_memo_release(ws_memo *m, ws_memo_node *hold);

/* ---- the fits of leagues (fits.c): each league's ratings, per variant and board and pooled, with bootstrap */
typedef struct {
    int64_t agent;
    char name[96];                 /* as the ratings show it (NAME#ID when names repeat) */
    double elo, lo, hi;            /* lo and hi: the 95% interval, NaN without bootstrap */
    long games, forfeits;          /* its games and the games it lost by forfeit (its end not "connected") */
    int rank;                      /* 1: the best */
} ws_fit_player;

typedef struct {
    char variant[24], board[16];   /* "pooled" and "" for the pooled fit */
    int m;
    ws_fit_player *p;              /* best first */
} ws_fit_group;

typedef struct {
    int64_t league, previous;      /* previous: the league before it of the same name, 0 when none */
    char name[256], night[11];
    long played, skipped;
    int bootstrap;
    int n_groups;                  /* g[0] pooled, then each variant and board in name order */
    ws_fit_group *g;
} ws_league_fit;

ws_memo *ws_fits_new(void);

/* The fit of league `id` at these counts (store_league_counts), computed outside the report lock with the
 * server's --bootstrap when not kept (a league playing: while one request fits its newest count, the others take
 * the fit before). Release with ws_memo_release(ws_cache_fits(q->cache), *hold). NULL with an HTTP status and
 * err (404: no games). */
const ws_league_fit *ws_fits_get(ws_req *q, int64_t id, long played, long skipped, ws_memo_node **hold, int *status,
                                 char *err, size_t errlen);

/* Agent `agent`'s row in group g (may be NULL), or NULL when it did not play there. */
const ws_fit_player *ws_fit_find(const ws_fit_group *g, int64_t agent);

/* ---- the records of agents (agent_record.c): an agent's newest WS_AGENT_GAMES games summarised */
#define WS_RECORD_NEWEST 50        /* the newest games read on every request (store_games_brief) */

typedef struct {
    int64_t id;
    char name[96];
    long games, wins, forfeits, their_forfeits; /* forfeits: games it forfeited; their_forfeits: the opponent's */
} ws_record_opponent;

typedef struct {
    int64_t game, league;
    char reason[24], detail[160];
} ws_record_forfeit;

typedef struct {
    int64_t game, league, opponent;
    bool black, won, forfeit;      /* forfeit: the loser forfeited */
} ws_record_game;

typedef struct {
    int64_t agent, newest;         /* newest: its newest game's id, 0 when none */
    int n;                         /* games summarised, newest first (at most WS_AGENT_GAMES) */
    ws_record_game *g;
    int n_opponents;
    ws_record_opponent *o;         /* in order of their newest game against it */
    int n_leagues;
    int64_t leagues[WS_HISTORY_LEAGUES]; /* the newest leagues it played, newest first */
    long forfeits;                 /* games of the n it forfeited */
    int n_forfeits;
    ws_record_forfeit f[WS_GAMES_LISTED]; /* the newest of them */
} ws_record;

ws_memo *ws_records_new(void);

/* The record of agent `agent` given its newest games read now (newest[0..n), at most WS_RECORD_NEWEST): the one
 * kept when its newest game is the same, else brought up to date from the one kept (the new games added, the
 * oldest dropped) or read again (store_games_brief). Release with ws_memo_release(ws_cache_records(q->cache),
 * *hold). NULL with an HTTP status and err. */
const ws_record *ws_record_get(ws_req *q, int64_t agent, const store_game_brief *newest, int n, ws_memo_node **hold,
                               int *status, char *err, size_t errlen);

/* ---- the logs of leagues' agents (league_logs.c), read once per league while --logs does not change */
typedef struct ws_league_logs ws_league_logs;
ws_memo *ws_league_logs_new(void);

/* League `league`'s agents and log files; NULL when the logs are not served (or on error). Release with
 * ws_memo_release(ws_cache_logs(q->cache), *hold). */
const ws_league_logs *ws_league_logs_get(ws_req *q, int64_t league, ws_memo_node **hold);

/* The names of the log files (league-NAME-SECTION-K.log) of the agent stored as `agent`, at most max, into
 * names[] (pointing into l): their count. */
int ws_league_logs_of(const ws_league_logs *l, const char *agent, const char **names, int max);

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
