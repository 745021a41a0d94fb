/* arena/server/fits.c — the fits of leagues the agent page reads (contract in server_private.h): each league's
 * ratings pooled and per variant and board, with the server's bootstrap, each player's Elo, interval, rank, games
 * and forfeits, kept in a memo (memo.c) under the league's id, its counts of games played and skipped, the
 * schema's version and the bootstrap. Loading and fitting use no static state of the report library
 * (st_load, st_fit): they run outside the report lock, so fitting one league holds up no other page. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "die.h"
#include "facts.h"
#include "query.h"
#include "server_private.h"

#define KEPT 64 /* fits kept: the newest leagues of a few agents */

static void free_fit(void *v)
{
    ws_league_fit *f = v;
    for (int g = 0; g < f->n_groups; g++)
        free(f->g[g].p);
    free(f->g);
    free(f);
}

ws_memo *ws_fits_new(void)
{
    return ws_memo_new(KEPT, free_fit);
}

typedef struct {
    ws_req *q;
    int64_t id;
    long played, skipped;
} fit_arg;

/* The report's load and fits, for die_catch. */
typedef struct {
    st_report *r;
    store_db *s;
    st_selection *x;
    ws_league_fit *f;
} caught;

/* The players of fit x into group out. */
static void copy_group(const st_report *r, const st_selection *x, ws_fit_group *out)
{
    out->p = die_check("serve", calloc((size_t)(x->m ? x->m : 1), sizeof *out->p));
    out->m = x->m;
    for (int k = 0; k < x->m; k++) {
        int i = x->rank[k];
        ws_fit_player *p = &out->p[k];
        p->agent = r->players[i].id;
        snprintf(p->name, sizeof p->name, "%s", r->players[i].name);
        p->elo = x->f.elo[i];
        p->lo = x->f.resamples ? x->f.lo[i] : NAN;
        p->hi = x->f.resamples ? x->f.hi[i] : NAN;
        p->games = x->games[i];
        p->rank = k + 1;
    }
}

static void load_and_fit(void *arg)
{
    caught *c = arg;
    st_load(c->r, c->s);
    ws_league_fit *f = c->f;
    f->g = die_check("serve", calloc((size_t)c->r->n_groups + 1, sizeof *f->g));
    for (int g = -1; g < c->r->n_groups; g++) {
        ws_fit_group *out = &f->g[f->n_groups];
        snprintf(out->variant, sizeof out->variant, "%s", g < 0 ? "pooled" : c->r->groups[g].variant);
        snprintf(out->board, sizeof out->board, "%s", g < 0 ? "" : c->r->groups[g].board);
        if (!st_fit(c->r, g, -1, c->x))
            continue;
        copy_group(c->r, c->x, out);
        st_selection_free(c->x);
        f->n_groups++;
    }
}

/* The games each player lost by forfeit, pooled and in its group. Returns 0, or -1 (store_error()). */
static int count_forfeits(store_db *s, ws_league_fit *f)
{
    store_games *it = store_query(s, &(store_filter){ .league = f->league, .reason = "forfeit" });
    if (!it)
        return -1;
    store_game_row row;
    int rc;
    char board[16];
    while ((rc = store_games_next(it, &row)) == 1) {
        int64_t loser = row.winner == HX_BLACK ? row.white_id : row.black_id;
        snprintf(board, sizeof board, "%dx%d", row.rows, row.cols);
        for (int g = 0; g < f->n_groups; g++) {
            ws_fit_group *x = &f->g[g];
            if (g > 0 && (strcmp(x->variant, row.variant) != 0 || strcmp(x->board, board) != 0))
                continue;
            for (int k = 0; k < x->m; k++)
                if (x->p[k].agent == loser)
                    x->p[k].forfeits++;
        }
    }
    store_games_end(it);
    return rc;
}

static int compute(void *arg, const void *older, void **value, char *err, size_t errlen)
{
    (void)older;
    fit_arg *a = arg;
    ws_req *q = a->q;
    ws_league_fit *f = calloc(1, sizeof *f);
    st_report *r = calloc(1, sizeof *r);
    st_selection *x = calloc(1, sizeof *x);
    if (!f || !r || !x) {
        free(f);
        free(r);
        free(x);
        snprintf(err, errlen, "out of memory");
        return 500;
    }
    *f = (ws_league_fit){ .league = a->id, .played = a->played, .skipped = a->skipped, .bootstrap = q->cfg->bootstrap };
    char ids[32];
    snprintf(ids, sizeof ids, "%lld", (long long)a->id);
    *r = (st_report){ .cmd = "serve", .db = q->cfg->db, .bootstrap = q->cfg->bootstrap, .prior = 1, .seed = 1 };
    r->filter = (st_filter){ .f = { .league = a->id }, .league = ids };
    caught c = { r, q->s, x, f };
    int rc = die_catch(load_and_fit, &c, err, errlen);
    st_free(r);
    free(r);
    free(x);
    int status = 0;
    store_league_row lr;
    int found;
    if (rc != 0)
        status = strstr(err, "interrupt") ? 503 : strstr(err, "no games") ? 404 : 500;
    else if (f->n_groups == 0) {
        snprintf(err, errlen, "league %lld: no games", (long long)a->id);
        status = 404;
    } else if ((found = store_league_get(q->s, a->id, &lr)) < 0 || (f->previous = store_league_previous(q->s, a->id)) < 0 ||
               count_forfeits(q->s, f) != 0)
        status = ws_db_error(q, err, errlen);
    else if (found == 1) {
        snprintf(f->name, sizeof f->name, "%s", lr.name);
        snprintf(f->night, sizeof f->night, "%s", lr.night);
    }
    if (status) {
        free_fit(f);
        return status;
    }
    *value = f;
    return 0;
}

const ws_league_fit *ws_fits_get(ws_req *q, int64_t id, long played, long skipped, ws_memo_node **hold, int *status,
                                 char *err, size_t errlen)
{
    *hold = NULL;
    if (played == 0) {
        snprintf(err, errlen, "league %lld: no games", (long long)id);
        *status = 404;
        return NULL;
    }
    fit_arg a = { q, id, played, skipped };
    ws_memo_key k = { id, { played, skipped, STORE_SCHEMA_VERSION, q->cfg->bootstrap } };
    return ws_memo_get(ws_cache_fits(q->cache), k, true, compute, &a, hold, status, err, errlen);
}

const ws_fit_player *ws_fit_find(const ws_fit_group *g, int64_t agent)
{
    for (int k = 0; g && k < g->m; k++)
        if (g->p[k].agent == agent)
            return &g->p[k];
    return NULL;
}
