/* arena/ladder/standing.c — the ladder's ratings and its rating rounds (standing.h). */
#include "standing.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "die.h"
#include "plan.h"
#include "standings.h"
#include "variant.h"

typedef struct {
    st_report *r;
    store_db *s;
    int group;
    st_selection *x;
    bool fitted;
} fit_job;

static void load_work(void *arg)
{
    fit_job *j = arg;
    st_load(j->r, j->s);
}

static void fit_work(void *arg)
{
    fit_job *j = arg;
    j->fitted = st_fit(j->r, j->group, -1, j->x);
}

/* The empty tables, one per variant and board of the ladder, with every version on the ladder unrated. */
static int empty_tables(ldb *d, const ld_config *c, ld_table *t, ldb_submission *on, int n_on)
{
    int n = 0;
    for (int v = 0; v < HX_VARIANT_COUNT; v++)
        for (int b = 0; (c->variants & (1u << v)) && b < c->boards.n_boards && n < LD_MAX_TABLES; b++, n++) {
            ld_table *tb = &t[n];
            memset(tb, 0, sizeof *tb);
            snprintf(tb->group, sizeof tb->group, "%s %dx%d", hx_variant_name((hx_variant)v), c->boards.boards[b][0],
                     c->boards.boards[b][1]);
            char text[16];
            snprintf(text, sizeof text, "%dx%d", c->boards.boards[b][0], c->boards.boards[b][1]);
            for (int i = 0; i < n_on && tb->n < LD_MAX_ROWS; i++)
                if ((on[i].variants & (1 << v)) && strstr(on[i].boards, text)) {
                    ld_row *row = &tb->rows[tb->n++];
                    *row = (ld_row){ .submission = on[i].id, .elo = NAN, .lo = NAN, .hi = NAN };
                    snprintf(row->owner, sizeof row->owner, "%s", on[i].owner);
                    snprintf(row->name, sizeof row->name, "%s", on[i].name);
                    snprintf(row->version, sizeof row->version, "%s", on[i].version);
                }
        }
    (void)d;
    return n;
}

/* Fills the rows of table tb from fit x of the report's players, then orders them best first, unrated last. */
static void fill(ld_table *tb, const st_report *r, const st_selection *x, ldb_submission *on, int n_on)
{
    for (int k = 0; k < x->m; k++) {
        int p = x->rank[k];
        for (int i = 0; i < tb->n; i++) {
            ldb_submission *s = NULL;
            for (int j = 0; j < n_on && !s; j++)
                s = on[j].id == tb->rows[i].submission ? &on[j] : NULL;
            char store_name[80];
            if (s)
                ld_store_name(s, store_name, sizeof store_name);
            if (s && strcmp(store_name, r->players[p].name) == 0) {
                tb->rows[i].elo = x->f.elo[p];
                tb->rows[i].lo = x->f.lo[p];
                tb->rows[i].hi = x->f.hi[p];
                tb->rows[i].games = x->games[p];
            }
        }
    }
    for (int i = 1; i < tb->n; i++) /* insertion sort: rated by elo, descending, then unrated */
        for (int j = i; j > 0; j--) {
            ld_row *a = &tb->rows[j - 1], *b = &tb->rows[j];
            bool swap = isnan(a->elo) ? !isnan(b->elo) : !isnan(b->elo) && b->elo > a->elo;
            if (!swap)
                break;
            ld_row t = *a;
            *a = *b;
            *b = t;
        }
}

/* Fits every group of the results database and fills the matching tables. */
static int fit_groups(const ld_config *c, int bootstrap, ld_table *t, int n_t, ldb_submission *on, int n_on,
                      char *err, size_t errlen)
{
    store_db *s = store_open_readonly(c->db, err, errlen);
    if (!s)
        return strstr(err, "no such") || strstr(err, "unable to open") ? 0 : -1; /* no league has run yet */
    st_report *r = calloc(1, sizeof *r);
    st_selection *x = calloc(1, sizeof *x);
    fit_job j = { .r = r, .s = s, .x = x };
    char why[512];
    int rc = r && x ? 0 : -1;
    if (rc == 0) {
        *r = (st_report){ .cmd = "ladder", .db = c->db, .pool = true, .bootstrap = bootstrap, .prior = 1, .seed = 1 };
        if (die_catch(load_work, &j, why, sizeof why) != 0)
            n_t = 0; /* no game yet */
    }
    for (int g = 0; rc == 0 && g < r->n_groups; g++) {
        j.group = g;
        j.fitted = false;
        if (die_catch(fit_work, &j, why, sizeof why) != 0) {
            snprintf(err, errlen, "%s", why);
            rc = -1;
        }
        for (int k = 0; rc == 0 && j.fitted && k < n_t; k++)
            if (strcmp(t[k].group, r->groups[g].name) == 0)
                fill(&t[k], r, x, on, n_on);
        if (j.fitted)
            st_selection_free(x);
    }
    if (r)
        st_free(r);
    free(r);
    free(x);
    store_close(s);
    return rc;
}

int ld_standings(ldb *d, const ld_config *c, int bootstrap, ld_table *tables, char *err, size_t errlen)
{
    enum { MAX = 256 };
    ldb_submission *on = calloc(MAX, sizeof *on);
    int n_on = on ? ldb_submissions(d, "ladder", NULL, on, MAX) : -1;
    if (n_on < 0) {
        snprintf(err, errlen, "%s", on ? ldb_error(d) : "out of memory");
        free(on);
        return -1;
    }
    int n = empty_tables(d, c, tables, on, n_on);
    int rc = fit_groups(c, bootstrap, tables, n, on, n_on, err, errlen);
    free(on);
    return rc < 0 ? -1 : n;
}

int ld_schedule_rating(ldb *d, const ld_config *c, int64_t now, ld_rating_memo *memo, int64_t *submission, char *err,
                       size_t errlen)
{
    *submission = 0;
    ldb_job busy;
    int n = ldb_jobs(d, false, &busy, 1);
    char mark[64];
    if (n != 0 || ldb_mark(d, mark, sizeof mark) != 0) {
        if (n < 0 || n == 0)
            snprintf(err, errlen, "%s", ldb_error(d));
        return n > 0 ? 0 : -1;
    }
    if (strcmp(mark, memo->mark) == 0 && now < memo->recheck) /* nothing new since the last look found nothing */
        return 0;
    snprintf(memo->mark, sizeof memo->mark, "%s", mark);
    memo->recheck = INT64_MAX;
    ld_table *t = calloc(LD_MAX_TABLES, sizeof *t);
    int n_t = t ? ld_standings(d, c, 200, t, err, errlen) : -1;
    double widest = -1;
    bool pairs = false; /* a table where two versions meet */
    for (int k = 0; k < n_t; k++)
        for (int i = 0; t[k].n >= 2 && i < t[k].n; i++) {
            pairs = true;
            const ld_row *row = &t[k].rows[i];
            double w = isnan(row->lo) || isnan(row->hi) || isinf(row->hi - row->lo) ? INFINITY : row->hi - row->lo;
            if (w > widest && (c->rating_target == 0 || w > c->rating_target)) {
                widest = w;
                *submission = row->submission;
            }
        }
    free(t);
    if (n_t < 0)
        return -1;
    if (!*submission) {
        if (pairs)
            snprintf(memo->note, sizeof memo->note, "every interval on the ladder is within %d Elo (rating_target): "
                     "no rating round until something changes", c->rating_target);
        else
            snprintf(memo->note, sizeof memo->note, "%s", "no two versions on the ladder play the same variant and "
                     "board: no rating round");
        return 0;
    }
    ldb_submission *s = calloc(1, sizeof *s);
    long games = s && ldb_submission_get(d, *submission, s) == 1 ? ld_plan_games(d, c, "rating", s, err, errlen) : -1;
    free(s);
    int64_t spent = games < 0 ? -1 : ldb_rating_games(d, now - 86400 + 1);
    if (games < 0 || spent < 0) {
        if (!err[0] || spent < 0)
            snprintf(err, errlen, "%s", ldb_error(d));
        *submission = 0;
        return -1;
    }
    if (spent + games > c->rating_games_per_day) {
        snprintf(memo->note, sizeof memo->note, "rating rounds played %lld games in the last day; another of %ld would "
                 "pass rating_games_per_day (%ld): waiting", (long long)spent, games, c->rating_games_per_day);
        memo->recheck = now + 60; /* the day's window moves on */
        *submission = 0;
        return 0;
    }
    memo->note[0] = '\0';
    if (ldb_job_add(d, *submission, "rating", games, now) < 0) {
        snprintf(err, errlen, "%s", ldb_error(d));
        return -1;
    }
    return 1;
}
