/* arena/server/agent_record.c — the records of agents the agent page reads (contract in server_private.h): an agent's
 * newest WS_AGENT_GAMES games summarised (won or lost, who forfeited, against whom, in which league), its results
 * by opponent, the newest leagues it played and its newest forfeits, kept in a memo (memo.c) under the agent's id
 * and its newest game. A record is read in full (store_games_brief) once; after that, the games played since are
 * taken from the newest games every request reads anyway, and the oldest dropped. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server_private.h"

#define KEPT 32 /* records kept */

static void free_record(void *v)
{
    ws_record *r = v;
    free(r->g);
    free(r->o);
    free(r);
}

ws_memo *ws_records_new(void)
{
    return ws_memo_new(KEPT, free_record);
}

/* A name of each opponent met: from the games read now, else from the record before. */
typedef struct {
    int64_t id;
    const char *name;
} name_of;

static const char *lookup(const name_of *names, int n, const ws_record *older, int64_t id)
{
    for (int i = 0; i < n; i++)
        if (names[i].id == id)
            return names[i].name;
    for (int i = 0; older && i < older->n_opponents; i++)
        if (older->o[i].id == id)
            return older->o[i].name;
    return "?";
}

static ws_record_game brief_game(int64_t self, const store_game_brief *b)
{
    bool black = b->black == self, won = (b->winner == HX_BLACK) == black;
    return (ws_record_game){ .game = b->id, .league = b->league, .opponent = black ? b->white : b->black,
                             .black = black, .won = won, .forfeit = strcmp(b->reason, "connected") != 0 };
}

static void add_forfeit(ws_record *r, const store_game_brief *b)
{
    ws_record_forfeit *f = &r->f[r->n_forfeits++];
    f->game = b->id;
    f->league = b->league;
    snprintf(f->reason, sizeof f->reason, "%s", b->reason);
    snprintf(f->detail, sizeof f->detail, "%s", b->detail);
}

/* The record of the games r->g[0..n) (newest first), its forfeits' texts already in r->f: the opponents, leagues
 * and counts. Returns 0, or -1 out of memory. */
static int summarise(ws_record *r, const name_of *names, int n_names, const ws_record *older)
{
    r->o = calloc((size_t)(r->n ? r->n : 1), sizeof *r->o);
    if (!r->o)
        return -1;
    r->newest = r->n ? r->g[0].game : 0;
    for (int i = 0; i < r->n; i++) {
        const ws_record_game *g = &r->g[i];
        int k = 0;
        while (k < r->n_opponents && r->o[k].id != g->opponent)
            k++;
        if (k == r->n_opponents) {
            r->o[k].id = g->opponent;
            snprintf(r->o[k].name, sizeof r->o[k].name, "%s", lookup(names, n_names, older, g->opponent));
            r->n_opponents++;
        }
        ws_record_opponent *o = &r->o[k];
        o->games++;
        o->wins += g->won;
        o->forfeits += g->forfeit && !g->won;
        o->their_forfeits += g->forfeit && g->won;
        r->forfeits += g->forfeit && !g->won;
        bool seen = g->league == 0;
        for (int j = 0; j < r->n_leagues; j++)
            seen |= r->leagues[j] == g->league;
        if (!seen && r->n_leagues < WS_HISTORY_LEAGUES)
            r->leagues[r->n_leagues++] = g->league;
    }
    return 0;
}

/* The record from games read in full (newest first). */
static int from_briefs(ws_record *r, const store_game_brief *b, int n)
{
    r->g = calloc((size_t)(n ? n : 1), sizeof *r->g);
    name_of *names = calloc((size_t)(n ? n : 1), sizeof *names);
    int n_names = 0, rc = -1;
    if (r->g && names) {
        for (int i = 0; i < n; i++) {
            r->g[r->n++] = brief_game(r->agent, &b[i]);
            const ws_record_game *g = &r->g[i];
            if (g->forfeit && !g->won && r->n_forfeits < WS_GAMES_LISTED)
                add_forfeit(r, &b[i]);
            bool known = false;
            for (int k = 0; k < n_names && !known; k++)
                known = names[k].id == g->opponent;
            if (!known)
                names[n_names++] = (name_of){ g->opponent, g->black ? b[i].white_name : b[i].black_name };
        }
        rc = summarise(r, names, n_names, NULL);
    }
    free(names);
    return rc;
}

/* The record before (older) with the games new[0..k) played since (newest first). */
static int brought_up(ws_record *r, const ws_record *older, const store_game_brief *b, int k)
{
    int keep = older->n;
    if (keep > WS_AGENT_GAMES - k)
        keep = WS_AGENT_GAMES - k;
    r->g = calloc((size_t)(k + keep ? k + keep : 1), sizeof *r->g);
    name_of names[WS_RECORD_NEWEST];
    if (!r->g)
        return -1;
    for (int i = 0; i < k; i++) {
        r->g[r->n++] = brief_game(r->agent, &b[i]);
        const ws_record_game *g = &r->g[i];
        if (g->forfeit && !g->won && r->n_forfeits < WS_GAMES_LISTED)
            add_forfeit(r, &b[i]);
        names[i] = (name_of){ g->opponent, g->black ? b[i].white_name : b[i].black_name };
    }
    memcpy(r->g + r->n, older->g, sizeof *r->g * (size_t)keep);
    r->n += keep;
    int64_t oldest = r->n ? r->g[r->n - 1].game : 0;
    for (int i = 0; i < older->n_forfeits && r->n_forfeits < WS_GAMES_LISTED; i++)
        if (older->f[i].game >= oldest) /* still among its newest games */
            r->f[r->n_forfeits++] = older->f[i];
    return summarise(r, names, k, older);
}

typedef struct {
    ws_req *q;
    int64_t agent;
    const store_game_brief *newest;
    int n;
} record_arg;

static int compute(void *arg, const void *from, void **value, char *err, size_t errlen)
{
    record_arg *a = arg;
    const ws_record *older = from;
    ws_record *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, errlen, "out of memory");
        return 500;
    }
    r->agent = a->agent;
    int k = -1; /* the games since the record before: newest[0..k) */
    if (older && older->n > 0)
        for (int i = 0; i < a->n && k < 0; i++)
            if (a->newest[i].id == older->newest)
                k = i;
    int rc;
    if (k >= 0)
        rc = brought_up(r, older, a->newest, k);
    else if (a->n < WS_RECORD_NEWEST) /* every game it played */
        rc = from_briefs(r, a->newest, a->n);
    else {
        store_game_brief *g;
        int n;
        store_brief_filter f = { .agent = a->agent, .limit = WS_AGENT_GAMES };
        if (store_games_brief(a->q->s, &f, &g, &n) != 0) {
            free_record(r);
            return ws_db_error(a->q, err, errlen);
        }
        rc = from_briefs(r, g, n);
        free(g);
    }
    if (rc != 0) {
        free_record(r);
        snprintf(err, errlen, "out of memory");
        return 500;
    }
    *value = r;
    return 0;
}

const ws_record *ws_record_get(ws_req *q, int64_t agent, const store_game_brief *newest, int n, ws_memo_node **hold,
                               int *status, char *err, size_t errlen)
{
    record_arg a = { q, agent, newest, n };
    ws_memo_key k = { agent, { n ? newest[0].id : 0, n, STORE_SCHEMA_VERSION, 0 } };
    return ws_memo_get(ws_cache_records(q->cache), k, true, compute, &a, hold, status, err, errlen);
}
