/* arena/solver/doracle.c — the double-oracle method on a flat tree (see doracle.h): the players' sets of pure
 * strategies and their payoffs (the restricted game and its LP are matgame.c's), the behaviour strategy a
 * mixture is realisation-equivalent to, and the exact best response that returns its choices. */
#include "doracle.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "matgame.h"

#define DO_IMPROVE 1e-12 /* a best response joins its set when it beats the restricted value by more */

typedef struct {
    const sv_tree *t;
    uint32_t n_is[2];
    uint32_t *list[2];   /* each player's information states (global indices), by ascending depth */
    uint32_t *pidx;      /* [n_infosets]: index in its player's list */
    int32_t *par_is;     /* [n_infosets]: the information state of the player's last action above, or -1 */
    uint8_t *par_a;      /* [n_infosets]: that action's index */
    uint8_t **set[2];    /* pure strategies: n_is[p] bytes each */
    uint32_t n_set[2], cap_set[2];
    double umax;
    mg_game game;        /* the restricted game (matgame.h), kept between iterations */
    /* the oracle's work arrays */
    double *reach, *value, *q, *pol, *real;
    int32_t *best;
    uint32_t *count, *order;
    uint8_t *choice;
    int64_t fixed_is;    /* Black's root information state when its action is fixed (do_options.fix_root), or -1 */
    int fixed_a;         /* the action fixed there */
} dsv;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void fail(char *err, size_t errlen, const char *msg)
{
    if (err && errlen)
        snprintf(err, errlen, "%s", msg);
}

void do_options_default(do_options *o)
{
    *o = (do_options){ .tolerance = 1e-10 };
}

/* Each information state's parent sequence (perfect recall: the same at every history of it). */
static int parents(dsv *s, uint32_t h, const int32_t is[2], const uint8_t a[2])
{
    const sv_node *node = &s->t->nodes[h];
    if (node->player == EFG_TERMINAL)
        return 0;
    if (node->player == EFG_CHANCE) {
        for (uint32_t k = 0; k < node->n; k++)
            if (parents(s, node->first + k, is, a) != 0)
                return -1;
        return 0;
    }
    int p = node->player;
    uint32_t k = node->infoset;
    if (s->par_is[k] == -2) {
        s->par_is[k] = is[p];
        s->par_a[k] = a[p];
    } else if (s->par_is[k] != is[p] || (is[p] >= 0 && s->par_a[k] != a[p])) {
        return -1;
    }
    int32_t cis[2] = { is[0], is[1] };
    uint8_t ca[2] = { a[0], a[1] };
    cis[p] = (int32_t)k;
    for (uint32_t c = 0; c < node->n; c++) {
        ca[p] = (uint8_t)c;
        if (parents(s, node->first + c, cis, ca) != 0)
            return -1;
    }
    return 0;
}

/* Keeps only the choices at information states the player's own choices reach (the others DO_UNREACHED). */
static void canonical(const dsv *s, int p, const uint8_t *choice, uint8_t *out)
{
    for (uint32_t i = 0; i < s->n_is[p]; i++) {
        uint32_t k = s->list[p][i];
        int32_t par = s->par_is[k];
        bool reached = par < 0 || out[s->pidx[par]] == s->par_a[k];
        out[i] = reached ? choice[i] : DO_UNREACHED;
    }
}

/* Player p's part of s->pol: the behaviour strategy of the mixture w over p's set. */
static void behaviour(dsv *s, int p, const double *w)
{
    const sv_tree *t = s->t;
    for (uint32_t i = 0; i < s->n_is[p]; i++) {
        const sv_infoset *is = &t->infosets[s->list[p][i]];
        for (int a = 0; a < is->n; a++)
            s->real[is->offset + a] = 0;
    }
    for (uint32_t j = 0; j < s->n_set[p]; j++) {
        if (!(w[j] > 0))
            continue;
        const uint8_t *st = s->set[p][j];
        for (uint32_t i = 0; i < s->n_is[p]; i++)
            if (st[i] != DO_UNREACHED)
                s->real[t->infosets[s->list[p][i]].offset + st[i]] += w[j];
    }
    for (uint32_t i = 0; i < s->n_is[p]; i++) {
        const sv_infoset *is = &t->infosets[s->list[p][i]];
        double sum = 0;
        for (int a = 0; a < is->n; a++)
            sum += s->real[is->offset + a];
        for (int a = 0; a < is->n; a++)
            s->pol[is->offset + a] = sum > 0 ? s->real[is->offset + a] / sum : 1.0 / is->n;
    }
}

typedef struct {
    dsv *s;
    int player;
} br_ctx;

static double br_eval(br_ctx *c, uint32_t h)
{
    dsv *s = c->s;
    if (!isnan(s->value[h]))
        return s->value[h];
    const sv_tree *t = s->t;
    const sv_node *node = &t->nodes[h];
    double v = 0;
    if (node->player == EFG_TERMINAL) {
        v = c->player == 0 ? node->value : -node->value;
    } else if (node->player == c->player) {
        v = br_eval(c, node->first + (uint32_t)s->best[node->infoset]);
    } else {
        const double *pi = node->player == EFG_CHANCE ? NULL : s->pol + t->infosets[node->infoset].offset;
        for (uint32_t k = 0; k < node->n; k++) {
            double pr = pi ? pi[k] : t->chance_prob[node->first + k];
            if (pr > 0)
                v += pr * br_eval(c, node->first + k);
        }
    }
    return s->value[h] = v;
}

/* Player p's exact best response to the other's part of s->pol: its value (p's utility), and its choices
 * (by p's list index) into s->choice; action 0 where the opponent never lets p arrive. As bestresponse.c. */
static double best_response(dsv *s, int p)
{
    const sv_tree *t = s->t;
    uint32_t N = t->n_nodes;
    memset(s->count, 0, sizeof *s->count * 257);
    memset(s->q, 0, sizeof *s->q * (t->n_actions ? t->n_actions : 1));
    s->reach[0] = 1;
    for (uint32_t h = 0; h < N; h++) {
        const sv_node *node = &t->nodes[h];
        s->value[h] = NAN;
        if (node->player == EFG_TERMINAL)
            continue;
        const double *pi =
            node->player == EFG_CHANCE || node->player == p ? NULL : s->pol + t->infosets[node->infoset].offset;
        for (uint32_t k = 0; k < node->n; k++) {
            double pr = node->player == EFG_CHANCE ? t->chance_prob[node->first + k] : pi ? pi[k] : 1.0;
            s->reach[node->first + k] = s->reach[h] * pr;
        }
        if (node->player == p)
            s->count[node->depth + 1]++;
    }
    for (int d = 1; d <= 256; d++)
        s->count[d] += s->count[d - 1];
    for (uint32_t h = 0; h < N; h++)
        if (t->nodes[h].player == p)
            s->order[s->count[t->nodes[h].depth]++] = h;
    br_ctx c = { .s = s, .player = p };
    for (int d = 255; d >= 0; d--) {
        uint32_t begin = d ? s->count[d - 1] : 0, end = s->count[d];
        for (uint32_t k = begin; k < end; k++) {
            uint32_t h = s->order[k];
            const sv_node *node = &t->nodes[h];
            if (s->reach[h] == 0)
                continue;
            double *qa = s->q + t->infosets[node->infoset].offset;
            for (uint32_t a = 0; a < node->n; a++)
                qa[a] += s->reach[h] * br_eval(&c, node->first + a);
        }
        for (uint32_t k = begin; k < end; k++) {
            uint32_t is_k = t->nodes[s->order[k]].infoset;
            const sv_infoset *is = &t->infosets[is_k];
            const double *qa = s->q + is->offset;
            int arg = 0;
            for (int a = 1; a < is->n; a++)
                if (qa[a] > qa[arg])
                    arg = a;
            s->best[is_k] = (int64_t)is_k == s->fixed_is ? s->fixed_a : arg;
        }
    }
    for (uint32_t i = 0; i < s->n_is[p]; i++)
        s->choice[i] = (uint8_t)s->best[s->list[p][i]];
    /* every state of p has nodes, all ordered above: each got its best[] this call (0 where unreached) */
    return br_eval(&c, 0);
}

/* Black's expected utility when Black plays pure b and White pure w. */
static double payoff(const dsv *s, const uint8_t *b, const uint8_t *w, uint32_t h)
{
    const sv_tree *t = s->t;
    const sv_node *node = &t->nodes[h];
    if (node->player == EFG_TERMINAL)
        return node->value;
    if (node->player == EFG_CHANCE) {
        double v = 0;
        for (uint32_t k = 0; k < node->n; k++)
            if (t->chance_prob[node->first + k] > 0)
                v += t->chance_prob[node->first + k] * payoff(s, b, w, node->first + k);
        return v;
    }
    const uint8_t *st = node->player == 0 ? b : w;
    return payoff(s, b, w, node->first + st[s->pidx[node->infoset]]);
}

/* The payoff of the strategy being added (st, player p's) against the other player's k-th (mg_payoff). */
typedef struct {
    const dsv *s;
    int p;
    const uint8_t *st;
} pay_ctx;

static double pay_of(void *ctx, uint32_t k)
{
    const pay_ctx *c = ctx;
    return c->p == 0 ? payoff(c->s, c->st, c->s->set[1][k], 0) : payoff(c->s, c->s->set[0][k], c->st, 0);
}

/* Adds the canonical strategy st to p's set (copied) with its row or column of the matrix; 1 added, 0 already
 * there, -1 out of memory. */
static int add_strategy(dsv *s, int p, const uint8_t *st)
{
    for (uint32_t j = 0; j < s->n_set[p]; j++)
        if (memcmp(s->set[p][j], st, s->n_is[p]) == 0)
            return 0;
    if (s->n_set[p] == s->cap_set[p]) {
        uint32_t cap = s->cap_set[p] ? 2 * s->cap_set[p] : 64;
        uint8_t **grown = realloc(s->set[p], sizeof *grown * cap);
        if (!grown)
            return -1;
        s->set[p] = grown;
        s->cap_set[p] = cap;
    }
    uint8_t *copy = malloc(s->n_is[p] ? s->n_is[p] : 1);
    if (!copy)
        return -1;
    memcpy(copy, st, s->n_is[p]);
    pay_ctx c = { s, p, copy };
    if (mg_add(&s->game, p, pay_of, &c) != 0) {
        free(copy);
        return -1;
    }
    s->set[p][s->n_set[p]++] = copy;
    return 1;
}

static void dsv_free(dsv *s)
{
    for (int p = 0; p < 2; p++) {
        for (uint32_t j = 0; j < s->n_set[p]; j++)
            free(s->set[p][j]);
        free(s->set[p]);
        free(s->list[p]);
    }
    free(s->pidx);
    free(s->par_is);
    free(s->par_a);
    mg_free(&s->game);
    free(s->reach);
    free(s->value);
    free(s->q);
    free(s->pol);
    free(s->real);
    free(s->best);
    free(s->count);
    free(s->order);
    free(s->choice);
}

static int dsv_init(dsv *s, const sv_tree *t, char *err, size_t errlen)
{
    *s = (dsv){ .t = t, .fixed_is = -1 };
    size_t ni = t->n_infosets ? t->n_infosets : 1, na = t->n_actions ? t->n_actions : 1, N = t->n_nodes;
    s->pidx = malloc(sizeof *s->pidx * ni);
    s->par_is = malloc(sizeof *s->par_is * ni);
    s->par_a = calloc(ni, 1);
    s->reach = malloc(sizeof *s->reach * N);
    s->value = malloc(sizeof *s->value * N);
    s->q = malloc(sizeof *s->q * na);
    s->pol = malloc(sizeof *s->pol * na);
    s->real = malloc(sizeof *s->real * na);
    s->best = calloc(ni, sizeof *s->best);
    s->count = malloc(sizeof *s->count * 257);
    s->order = malloc(sizeof *s->order * N);
    s->choice = malloc(ni);
    for (int p = 0; p < 2; p++)
        s->list[p] = malloc(sizeof *s->list[p] * ni);
    if (!s->pidx || !s->par_is || !s->par_a || !s->reach || !s->value || !s->q || !s->pol || !s->real ||
        !s->best || !s->count || !s->order || !s->choice || !s->list[0] || !s->list[1]) {
        fail(err, errlen, "out of memory");
        return -1;
    }
    double umax = 0;
    for (uint32_t h = 0; h < N; h++)
        if (t->nodes[h].player == EFG_TERMINAL)
            umax = fmax(umax, fabs(t->nodes[h].value));
    s->umax = umax;
    for (uint32_t k = 0; k < t->n_infosets; k++) {
        s->par_is[k] = -2;
        if (t->infosets[k].n > 255 || t->infosets[k].n == 0) {
            fail(err, errlen, "an information state with more than 255 actions (or none)");
            return -1;
        }
    }
    const int32_t is0[2] = { -1, -1 };
    const uint8_t a0[2] = { 0, 0 };
    if (N && parents(s, 0, is0, a0) != 0) {
        fail(err, errlen, "the tree is not of perfect recall (an information state with two parent sequences)");
        return -1;
    }
    /* each player's states by ascending depth (a counting sort) */
    for (int p = 0; p < 2; p++) {
        uint32_t cnt[257] = { 0 };
        for (uint32_t k = 0; k < t->n_infosets; k++)
            if (t->infosets[k].player == p)
                cnt[t->infosets[k].depth + 1]++;
        for (int d = 1; d <= 256; d++)
            cnt[d] += cnt[d - 1];
        for (uint32_t k = 0; k < t->n_infosets; k++)
            if (t->infosets[k].player == p) {
                uint32_t i = cnt[t->infosets[k].depth]++;
                s->list[p][i] = k;
                s->pidx[k] = i;
            }
        s->n_is[p] = cnt[256];
    }
    return 0;
}

int do_solve(const sv_tree *t, const do_options *o, double *policy, do_result *r, char *err, size_t errlen)
{
    double t0 = now();
    *r = (do_result){ .lower = -INFINITY, .upper = INFINITY, .gap = INFINITY };
    if (t->n_nodes == 0 || t->nodes[0].player == EFG_TERMINAL) {
        double v = t->n_nodes ? t->nodes[0].value : 0;
        *r = (do_result){ .value = v, .lower = v, .upper = v, .converged = true };
        return 0;
    }
    dsv s;
    uint8_t *canon = NULL;
    int rc = -1;
    if (dsv_init(&s, t, err, errlen) != 0)
        goto done;
    canon = malloc(s.n_is[0] > s.n_is[1] ? s.n_is[0] + 1 : s.n_is[1] + 1);
    if (!canon || mg_init(&s.game, s.umax) != 0) {
        fail(err, errlen, "out of memory");
        goto done;
    }
    if (o->fix_root) {
        if (t->nodes[0].player != 0 || o->root_action >= t->infosets[t->nodes[0].infoset].n) {
            fail(err, errlen, "fix_root: the root is not Black's, or has no such action");
            goto done;
        }
        s.fixed_is = t->nodes[0].infoset;
        s.fixed_a = o->root_action;
    }
    /* the seeds: each player's best response to the other playing uniformly (Black its fixed root action) */
    for (uint32_t k = 0; k < t->n_infosets; k++)
        for (int a = 0; a < t->infosets[k].n; a++)
            s.pol[t->infosets[k].offset + a] =
                (int64_t)k != s.fixed_is ? 1.0 / t->infosets[k].n : a == s.fixed_a ? 1.0 : 0.0;
    for (int p = 0; p < 2; p++) {
        best_response(&s, p);
        canonical(&s, p, s.choice, canon);
        if (add_strategy(&s, p, canon) < 0) {
            fail(err, errlen, "out of memory");
            goto done;
        }
    }
    for (;;) {
        double t1 = now(), v;
        if (mg_solve(&s.game, o->exact, &v, &r->lp_iterations, err, errlen) != 0)
            goto done;
        double t2 = now();
        r->seconds_lp += t2 - t1;
        r->iterations++;
        r->value = v;
        behaviour(&s, 0, s.game.x);
        behaviour(&s, 1, s.game.y);
        double upper = best_response(&s, 0);
        if (o->root_values && upper < r->upper && t->nodes[0].player == 0) {
            const sv_infoset *root = &t->infosets[t->nodes[0].infoset];
            memcpy(o->root_values, s.q + root->offset, sizeof *o->root_values * root->n); /* the root's reach is 1 */
        }
        canonical(&s, 0, s.choice, canon);
        uint8_t *black = malloc(s.n_is[0] ? s.n_is[0] : 1);
        if (!black) {
            fail(err, errlen, "out of memory");
            goto done;
        }
        memcpy(black, canon, s.n_is[0]);
        double lower = -best_response(&s, 1);
        canonical(&s, 1, s.choice, canon);
        r->seconds_oracle += now() - t2;
        if (lower > r->lower) {
            r->lower = lower;
            if (policy)
                for (uint32_t i = 0; i < s.n_is[0]; i++) {
                    const sv_infoset *is = &t->infosets[s.list[0][i]];
                    memcpy(policy + is->offset, s.pol + is->offset, sizeof *policy * is->n);
                }
        }
        if (upper < r->upper) {
            r->upper = upper;
            if (policy)
                for (uint32_t i = 0; i < s.n_is[1]; i++) {
                    const sv_infoset *is = &t->infosets[s.list[1][i]];
                    memcpy(policy + is->offset, s.pol + is->offset, sizeof *policy * is->n);
                }
        }
        r->gap = r->upper - r->lower;
        mg_support(&s.game, r->support);
        r->strategies[0] = s.n_set[0];
        r->strategies[1] = s.n_set[1];
        if (o->progress) {
            do_progress_info info = { .iteration = r->iterations, .value = v, .lower = r->lower, .upper = r->upper,
                                      .strategies = { s.n_set[0], s.n_set[1] },
                                      .support = { r->support[0], r->support[1] }, .seconds = now() - t0 };
            o->progress(o->ctx, &info);
        }
        if (r->gap <= o->tolerance) {
            free(black);
            r->converged = true;
            break;
        }
        int added = 0, a;
        if (upper > v + DO_IMPROVE) {
            if ((a = add_strategy(&s, 0, black)) < 0) {
                free(black);
                fail(err, errlen, "out of memory");
                goto done;
            }
            added += a;
        }
        free(black);
        if (lower < v - DO_IMPROVE) {
            if ((a = add_strategy(&s, 1, canon)) < 0) {
                fail(err, errlen, "out of memory");
                goto done;
            }
            added += a;
        }
        if (!added) {
            r->stalled = true;
            break;
        }
        if (o->max_iterations > 0 && r->iterations >= o->max_iterations)
            break;
        if (o->time_limit > 0 && now() - t0 >= o->time_limit)
            break;
    }
    r->strategies[0] = s.n_set[0];
    r->strategies[1] = s.n_set[1];
    {
        size_t ni = t->n_infosets, na = t->n_actions, N = t->n_nodes;
        r->bytes = (size_t)s.n_set[0] * s.n_is[0] + (size_t)s.n_set[1] * s.n_is[1] +
                   mg_bytes(&s.game) + N * (2 * sizeof(double) + sizeof(uint32_t)) +
                   na * 3 * sizeof(double) + ni * (2 * sizeof(uint32_t) + 2 * sizeof(int32_t) + 2);
    }
    rc = 0;
done:
    r->seconds = now() - t0;
    free(canon);
    dsv_free(&s);
    return rc;
}
