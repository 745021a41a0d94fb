/* arena/server/cache.c — the nightly documents of leagues, kept (contract in server_private.h): building one
 * reads and fits all of a league's games, so each is built once per game count and shared by the requests that
 * read it, least recently used first out; one in use is freed only when its last reader releases it. One
 * request builds a league's page at a time: while it does, the others get the page it had (a league that is
 * playing: its page of a few seconds ago) or, for the first, wait for it. Also the
 * fit of a league with the report library's exits caught, and the memos of the agent page (fits.c, agent_record.c, league_logs.c). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "die.h"
#include "nightly.h"
#include "server_private.h"

typedef struct {
    int64_t id;
    long played, skipped;
    doc *d;
    ng_night *n;                   /* what d was built from: its tables point into it (caveats, preambles) */
    int readers;
    unsigned long used;
    double built;                  /* when (CLOCK_MONOTONIC seconds) */
} entry;

/* A league that is playing changes its count with every game: its page is built again at most this often. */
#define FRESH_S 2.0

static double monotonic(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

#define ASIDE 64
#define BUILDING 4                 /* league pages built at once; more: 503 */

struct ws_cache {
    pthread_mutex_t lock;
    entry *e;
    int n, cap;
    entry aside[ASIDE];            /* built while every entry was being read: not kept, dropped when released */
    int n_aside;
    int64_t building[BUILDING];    /* leagues whose page is being built (by one request each) */
    int n_building;
    pthread_cond_t built;
    unsigned long clock;
    ws_memo *fits, *records, *logs; /* the agent page's */
};

ws_cache *ws_cache_new(int capacity)
{
    ws_cache *c = calloc(1, sizeof *c);
    if (!c || !(c->e = calloc((size_t)capacity, sizeof *c->e)) || !(c->fits = ws_fits_new()) ||
        !(c->records = ws_records_new()) || !(c->logs = ws_league_logs_new())) {
        if (c) {
            ws_memo_free(c->fits);
            ws_memo_free(c->records);
            free(c->e);
        }
        free(c);
        return NULL;
    }
    c->cap = capacity;
    pthread_mutex_init(&c->lock, NULL);
    pthread_cond_init(&c->built, NULL);
    return c;
}

static void drop(doc *d, ng_night *n)
{
    doc_free(d);
    free(d);
    if (n)
        ng_free(n);
    free(n);
}

void ws_cache_free(ws_cache *c)
{
    if (!c)
        return;
    for (int i = 0; i < c->n; i++)
        drop(c->e[i].d, c->e[i].n);
    ws_memo_free(c->fits);
    ws_memo_free(c->records);
    ws_memo_free(c->logs);
    pthread_mutex_destroy(&c->lock);
    pthread_cond_destroy(&c->built);
    free(c->e);
    free(c);
}

ws_memo *ws_cache_fits(ws_cache *c)
{
    return c->fits;
}

ws_memo *ws_cache_records(ws_cache *c)
{
    return c->records;
}

ws_memo *ws_cache_logs(ws_cache *c)
{
    return c->logs;
}

static pthread_mutex_t report_lock = PTHREAD_MUTEX_INITIALIZER;

void ws_report_lock(void)
{
    pthread_mutex_lock(&report_lock);
}

void ws_report_unlock(void)
{
    pthread_mutex_unlock(&report_lock);
}

/* The league's nightly document and what it was built from: 0, or an HTTP status with err. */
static int build(ws_req *q, int64_t id, doc **out, ng_night **night, char *err, size_t errlen)
{
    ng_night *n = malloc(sizeof *n);
    doc *d = calloc(1, sizeof *d);
    if (!n || !d) {
        free(n);
        free(d);
        snprintf(err, errlen, "out of memory");
        return 500;
    }
    ws_report_lock();
    int rc = ng_load(n, q->s, q->cfg->db, id, NULL, q->cfg->bootstrap, err, errlen);
    if (rc != 0) {
        ws_report_unlock();
        free(n);
        free(d);
        return rc == DIE_USAGE ? 404 : strstr(err, "interrupt") ? 503 : 500;
    }
    if (q->cfg->logs) /* the forfeiting agents' logs, linked as logs/NAME (route.c serves them there) */
        ng_copy_logs(n, q->cfg->logs, NULL);
    /* the figures inline, as on disk; every name linked to the server's pages; no files, no plotter */
    n->links = (ng_links){ .agent = "/agent/%lld", .pairing = "/pairing/%lld/%lld", .game = "/game/%lld",
                           .league = "/league/%lld", .nights = "/nights" };
    ng_page(n, q->s, NULL, "/dev/null/none", q->cfg->version, d);
    ws_report_unlock();
    *out = d;
    *night = n;
    return 0;
}

/* The newest entry of league id (NULL: none); exact: the one of these counts if there is one. */
static entry *find(ws_cache *c, int64_t id, long played, long skipped, bool *exact)
{
    entry *best = NULL;
    *exact = false;
    for (int i = 0; i < c->n; i++) {
        entry *e = &c->e[i];
        if (e->id != id)
            continue;
        if (e->played == played && e->skipped == skipped) {
            *exact = true;
            return e;
        }
        if (!best || e->built > best->built)
            best = e;
    }
    return best;
}

static bool is_building(const ws_cache *c, int64_t id)
{
    for (int i = 0; i < c->n_building; i++)
        if (c->building[i] == id)
            return true;
    return false;
}

static void building_done(ws_cache *c, int64_t id)
{
    for (int i = 0; i < c->n_building; i++)
        if (c->building[i] == id) {
            c->building[i] = c->building[--c->n_building];
            break;
        }
    pthread_cond_broadcast(&c->built);
}

const doc *ws_cache_league(ws_req *q, int64_t id, long played, long skipped, int *status, char *err, size_t errlen)
{
    ws_cache *c = q->cache;
    pthread_mutex_lock(&c->lock);
    for (;;) {
        bool exact;
        entry *e = find(c, id, played, skipped, &exact);
        bool building = is_building(c, id);
        /* the page of these counts; else, while the league plays, one built lately or being built again */
        if (e && (exact || building || monotonic() - e->built < FRESH_S)) {
            e->readers++;
            e->used = ++c->clock;
            pthread_mutex_unlock(&c->lock);
            *status = 0;
            return e->d;
        }
        if (!building)
            break;
        pthread_cond_wait(&c->built, &c->lock); /* its first page is being built: wait for it */
    }
    if (c->n_building == BUILDING) {
        pthread_mutex_unlock(&c->lock);
        snprintf(err, errlen, "busy: %d league pages are being built", BUILDING);
        *status = 503;
        return NULL;
    }
    c->building[c->n_building++] = id;
    pthread_mutex_unlock(&c->lock);
    doc *d;
    ng_night *n;
    if ((*status = build(q, id, &d, &n, err, errlen)) != 0) {
        pthread_mutex_lock(&c->lock);
        building_done(c, id);
        pthread_mutex_unlock(&c->lock);
        return NULL;
    }
    pthread_mutex_lock(&c->lock);
    building_done(c, id);
    int slot = -1; /* an unread entry of this league (an older count), a free one, or the least recently used */
    for (int i = 0; i < c->n; i++)
        if (c->e[i].readers == 0 && c->e[i].id == id)
            slot = i;
    if (slot < 0 && c->n < c->cap)
        slot = c->n++;
    else {
        for (int i = 0; !(slot >= 0 && c->e[slot].id == id) && i < c->n; i++)
            if (c->e[i].readers == 0 && (slot < 0 || c->e[i].used < c->e[slot].used))
                slot = i;
        if (slot < 0) { /* every entry is being read: this one is kept aside, dropped when released */
            if (c->n_aside == ASIDE) {
                pthread_mutex_unlock(&c->lock);
                drop(d, n);
                snprintf(err, errlen, "busy: too many league pages being built at once");
                *status = 503;
                return NULL;
            }
            c->aside[c->n_aside++] = (entry){ id, played, skipped, d, n, 1, 0, 0 };
            pthread_mutex_unlock(&c->lock);
            *status = 0;
            return d;
        }
        drop(c->e[slot].d, c->e[slot].n);
    }
    c->e[slot] = (entry){ id, played, skipped, d, n, 1, ++c->clock, monotonic() };
    pthread_mutex_unlock(&c->lock);
    *status = 0;
    return d;
}

void ws_cache_release(ws_cache *c, const doc *d)
{
    pthread_mutex_lock(&c->lock);
    for (int i = 0; i < c->n; i++)
        if (c->e[i].d == d) {
            c->e[i].readers--;
            pthread_mutex_unlock(&c->lock);
            return;
        }
    for (int i = 0; i < c->n_aside; i++)
        if (c->aside[i].d == d) {
            entry e = c->aside[i];
            c->aside[i] = c->aside[--c->n_aside];
            pthread_mutex_unlock(&c->lock);
            drop(e.d, e.n);
            return;
        }
    pthread_mutex_unlock(&c->lock);
}

/* ws_fit_league's work, for die_catch. */
typedef struct {
    st_report *r;
    store_db *s;
    st_selection *x;
    bool fitted;
} fit_args;

static void fit_caught(void *arg)
{
    fit_args *a = arg;
    st_load(a->r, a->s);
    a->fitted = st_fit(a->r, -1, -1, a->x);
}

int ws_fit_league(store_db *s, const char *db, int64_t id, st_report *r, st_selection *x, char *err, size_t errlen)
{
    static _Thread_local char ids[32];
    snprintf(ids, sizeof ids, "%lld", (long long)id);
    *r = (st_report){ .cmd = "serve", .db = db, .bootstrap = 0, .prior = 1, .seed = 1 };
    r->filter = (st_filter){ .f = { .league = id }, .league = ids };
    memset(x, 0, sizeof *x);
    fit_args a = { r, s, x, false };
    ws_report_lock();
    int rc = die_catch(fit_caught, &a, err, errlen);
    ws_report_unlock();
    if (rc != 0 || !a.fitted) {
        if (rc == 0)
            snprintf(err, errlen, "league %lld: no games", (long long)id);
        st_free(r);
        return -1;
    }
    return 0;
}
