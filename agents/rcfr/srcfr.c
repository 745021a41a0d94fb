/* agents/rcfr/srcfr.c — sampled RCFR, RCFR+ and f-RCFR iterations (see srcfr.h). */
#include "srcfr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfr.h"
#include "clock.h"
#include "game.h"
#include "grow.h"
#include "mccfr.h"
#include "mix.h"

#define MAX_DEPTH 1024
/* Targets this close to 0 are 0 (as in rcfr.c: no subnormal floats). */
#define TINY 1e-30f

int rc_sampled_init(rc_sampled *s, const efg_game *g, rc_set set, const rc_config *cfg, uint32_t batch, char *err,
                    size_t errlen)
{
    memset(s, 0, sizeof *s);
    s->g = g;
    s->cfg = *cfg;
    s->set = set;
    s->batch = batch ? batch : 1;
    s->fit_all = cfg->regressor.kind == RG_TABLE;
    s->epsilon = 0.6;
    s->rng = cfg->seed;
    s->res_rng = cfg->seed ^ 0x5eedbeefcafef00dULL;
    s->states = malloc(g->state_size * MAX_DEPTH);
    bool ok = s->states != NULL;
    for (int p = 0; p < 2 && ok && cfg->targets == RC_RESERVOIR; p++) {
        size_t n = cfg->reservoir ? cfg->reservoir : 1;
        s->res_row[p] = malloc(sizeof *s->res_row[p] * n);
        s->res_val[p] = malloc(sizeof *s->res_val[p] * n);
        ok = s->res_row[p] && s->res_val[p];
    }
    if (!ok) {
        rc_sampled_free(s);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    g->root(g, s->states);
    uint32_t dim = rc_set_dim(set, hx_cells((const hx_game *)s->states));
    for (int p = 0; p < 2; p++) {
        s->rows[p].dim = dim;
        s->rows[p].nnz = set == RC_ONEHOT ? 1 : dim;
    }
    return 0;
}

void rc_sampled_free(rc_sampled *s)
{
    sv_tree_free(&s->table);
    for (int p = 0; p < 2; p++) {
        free(s->rows[p].val);
        free(s->rows[p].col);
        free(s->global[p]);
        free(s->res_row[p]);
        free(s->res_val[p]);
    }
    free(s->row_of);
    free(s->pred);
    free(s->inst);
    free(s->strategy_sum);
    free(s->visited);
    free(s->last_visit);
    free(s->states);
    memset(s, 0, sizeof *s);
}

/* Room for the table's actions (and, indexed by state, last_visit: states never outnumber actions). */
static bool reserve(rc_sampled *s)
{
    uint32_t need = s->table.n_actions;
    if (need <= s->cap)
        return true;
    uint32_t cap = grow_capacity(s->cap, need, 4096);
    if (!cap || !grow_resize(&s->row_of, sizeof *s->row_of, cap) || !grow_resize(&s->pred, sizeof *s->pred, cap) ||
        !grow_resize(&s->inst, sizeof *s->inst, cap) || !grow_resize(&s->strategy_sum, sizeof *s->strategy_sum, cap) ||
        !grow_resize(&s->last_visit, sizeof *s->last_visit, cap))
        return false;
    memset(s->pred + s->cap, 0, sizeof *s->pred * (cap - s->cap));
    memset(s->inst + s->cap, 0, sizeof *s->inst * (cap - s->cap));
    memset(s->strategy_sum + s->cap, 0, sizeof *s->strategy_sum * (cap - s->cap));
    memset(s->last_visit + s->cap, 0, sizeof *s->last_visit * (cap - s->cap));
    s->cap = cap;
    return true;
}

/* Appends the rows of the new state k, met at game state g, to its player's block. */
static bool add_rows(rc_sampled *s, int64_t k, const hx_game *g)
{
    const sv_infoset *is = &s->table.infosets[k];
    int p = is->player;
    rc_rows *r = &s->rows[p];
    if (r->n + is->n > s->row_cap[p]) {
        uint32_t cap = grow_capacity(s->row_cap[p], (uint64_t)r->n + is->n, 4096);
        if (!cap || (uint64_t)cap * r->nnz > UINT32_MAX || !grow_resize(&r->val, sizeof *r->val * r->nnz, cap) ||
            !grow_resize(&s->global[p], sizeof *s->global[p], cap) ||
            (s->set == RC_ONEHOT && !grow_resize(&r->col, sizeof *r->col, cap)))
            return false;
        s->row_cap[p] = cap;
    }
    for (int a = 0; a < is->n; a++) {
        uint32_t row = r->n++, act = is->offset + (uint32_t)a;
        s->row_of[act] = row;
        s->global[p][row] = act;
        if (s->set == RC_ONEHOT) {
            r->col[row] = row;
            r->val[row] = 1;
            r->dim = r->n;
        } else {
            rc_features_row(s->set, g, s->table.actions[act], r->val + (size_t)row * r->nnz);
        }
    }
    return true;
}

/* Lists state k as visited by this iteration's batch. */
static bool mark_visited(rc_sampled *s, int64_t k, long it)
{
    if (s->last_visit[k] == it)
        return true;
    if (s->n_visited == s->visited_cap) {
        uint32_t cap = grow_capacity(s->visited_cap, (uint64_t)s->n_visited + 1, 1024);
        if (!cap || !grow_resize(&s->visited, sizeof *s->visited, cap))
            return false;
        s->visited_cap = cap;
    }
    s->last_visit[k] = it;
    s->visited[s->n_visited++] = (uint32_t)k;
    return true;
}

/* The information state of the player to move at st, interned (with its feature rows when it is new), and
 * its current policy in sigma. Returns its index, or -1 when out of memory. */
static int64_t meet(rc_sampled *s, const void *st, int player, int depth, const uint16_t *actions, int n,
                    double *sigma)
{
    uint32_t known = s->table.n_infosets;
    int64_t k = sv_tree_intern(&s->table, player, s->g->infoset(s->g, st), depth, actions, n);
    if (k < 0 || !reserve(s) || (s->table.n_infosets > known && !add_rows(s, k, (const hx_game *)st)))
        return -1;
    rc_link_policy(&s->cfg.link, s->pred + s->table.infosets[k].offset, n, sigma);
    return k;
}

/* At a node of the traverser's opponent, in either sampling: its current policy joins the average policy
 * (weighted as the sampling asks), and one action is drawn from it into child. */
static void opponent_step(rc_sampled *s, uint32_t off, int n, double weight, const double *sigma,
                          const uint16_t *actions, const void *st, void *child)
{
    for (int a = 0; a < n; a++)
        s->strategy_sum[off + a] += weight * sigma[a];
    s->g->apply(s->g, child, st, actions[sv_mccfr_sample(&s->rng, sigma, n)]);
}

/* The next decision of a traversal from the state at *level: chance nodes are sampled through (advancing
 * *level). Returns the player to act there, with its actions in actions[*n], its table index in *k and its
 * current policy in sigma; EFG_TERMINAL with the traverser's utility in *u; or -1 when out of memory or
 * too deep. */
static int next_decision(rc_sampled *s, int *level, int traverser, int d0, int d1, uint16_t *actions, int *n,
                         double *sigma, int64_t *k, double *u)
{
    const efg_game *g = s->g;
    for (;;) {
        const void *st = s->states + (size_t)*level * g->state_size;
        int player = g->player(g, st);
        if (player == EFG_TERMINAL) {
            double v = g->utility(g, st);
            *u = traverser == 0 ? v : -v;
            return EFG_TERMINAL;
        }
        if (*level + 1 >= MAX_DEPTH)
            return -1;
        double probs[EFG_MAX_ACTIONS];
        *n = g->actions(g, st, actions, probs);
        if (player != EFG_CHANCE) {
            *k = meet(s, st, player, player == 0 ? d0 : d1, actions, *n, sigma);
            return *k < 0 ? -1 : player;
        }
        void *child = s->states + (size_t)(*level + 1) * g->state_size;
        g->apply(g, child, st, actions[sv_mccfr_sample(&s->rng, probs, *n)]);
        ++*level;
    }
}

/* Sampled counterfactual value for the traverser of the state at `level` (as mccfr.c's walk). */
static double walk(rc_sampled *s, int level, int traverser, int d0, int d1, double weight, bool *oom)
{
    const efg_game *g = s->g;
    uint16_t actions[EFG_MAX_ACTIONS];
    double sigma[EFG_MAX_ACTIONS], u = 0;
    int n = 0;
    int64_t k = -1;
    int player = next_decision(s, &level, traverser, d0, d1, actions, &n, sigma, &k, &u);
    if (player == EFG_TERMINAL)
        return u;
    if (player < 0) {
        *oom = true;
        return 0;
    }
    const void *st = s->states + (size_t)level * g->state_size;
    void *child = s->states + (size_t)(level + 1) * g->state_size;
    uint32_t off = s->table.infosets[k].offset;
    int e0 = d0 + (player == 0), e1 = d1 + (player == 1);
    if (player != traverser) {
        opponent_step(s, off, n, weight, sigma, actions, st, child);
        return walk(s, level + 1, traverser, e0, e1, weight, oom);
    }
    double va[EFG_MAX_ACTIONS], v = 0;
    for (int a = 0; a < n && !*oom; a++) {
        g->apply(g, child, st, actions[a]);
        va[a] = walk(s, level + 1, traverser, e0, e1, weight, oom);
        v += sigma[a] * va[a];
    }
    for (int a = 0; a < n; a++) /* the arrays may have moved */
        s->inst[off + a] += (float)((va[a] - v) / s->batch);
    if (!mark_visited(s, k, s->iteration + 1))
        *oom = true;
    return v;
}

/* Outcome sampling: one sampled history; the traverser draws from epsilon-uniform + (1 - epsilon) its
 * policy, q is the product of those draws above. Returns u(z) / q(z) in *w and the traverser's reach from
 * here to z under the policy; adds the sampled regrets r(a) = w tail ([a == a*] - sigma(a*)), where tail is
 * the traverser's reach from the sampled action to z. */
static double walk_outcome(rc_sampled *s, int level, int traverser, int d0, int d1, double q, double weight,
                           double *w, bool *oom)
{
    const efg_game *g = s->g;
    uint16_t actions[EFG_MAX_ACTIONS];
    double sigma[EFG_MAX_ACTIONS], u = 0;
    int n = 0;
    int64_t k = -1;
    int player = next_decision(s, &level, traverser, d0, d1, actions, &n, sigma, &k, &u);
    if (player == EFG_TERMINAL) {
        *w = u / q;
        return 1;
    }
    if (player < 0) {
        *oom = true;
        return 0;
    }
    const void *st = s->states + (size_t)level * g->state_size;
    void *child = s->states + (size_t)(level + 1) * g->state_size;
    uint32_t off = s->table.infosets[k].offset;
    int e0 = d0 + (player == 0), e1 = d1 + (player == 1);
    if (player != traverser) {
        opponent_step(s, off, n, weight, sigma, actions, st, child);
        return walk_outcome(s, level + 1, traverser, e0, e1, q, weight, w, oom);
    }
    double mix[EFG_MAX_ACTIONS];
    for (int a = 0; a < n; a++)
        mix[a] = s->epsilon / n + (1 - s->epsilon) * sigma[a];
    int pick = sv_mccfr_sample(&s->rng, mix, n);
    g->apply(g, child, st, actions[pick]);
    double tail = walk_outcome(s, level + 1, traverser, e0, e1, q * mix[pick], weight, w, oom);
    if (*oom)
        return 0;
    for (int a = 0; a < n; a++)
        s->inst[off + a] += (float)(*w * tail * ((a == pick) - sigma[pick]) / s->batch);
    if (!mark_visited(s, k, s->iteration + 1))
        *oom = true;
    return tail * sigma[pick];
}

/* The batch's regrets of the visited states into player p's reservoir (Vitter's algorithm R). */
static void sample_reservoir(rc_sampled *s, int p)
{
    uint32_t cap = s->cfg.reservoir;
    for (uint32_t i = 0; i < s->n_visited; i++) {
        const sv_infoset *is = &s->table.infosets[s->visited[i]];
        for (int a = 0; a < is->n; a++) {
            uint64_t seen = s->res_seen[p]++;
            uint64_t slot = seen < cap ? seen : mix_next(&s->res_rng) % (seen + 1);
            if (slot < cap) {
                s->res_row[p][slot] = s->row_of[is->offset + a];
                s->res_val[p][slot] = s->inst[is->offset + a];
            }
        }
    }
    s->res_n[p] = s->res_seen[p] < cap ? (uint32_t)s->res_seen[p] : cap;
}

/* Bootstrap targets, previous prediction + the batch's regret, of every row (fit_all) or of the visited
 * states' rows (listed in idx); returns how many. */
static uint32_t bootstrap_targets(const rc_sampled *s, int p, uint32_t *idx, float *y)
{
    uint32_t m = 0;
    if (s->fit_all) {
        for (uint32_t i = 0; i < s->rows[p].n; i++)
            y[m++] = s->pred[s->global[p][i]] + s->inst[s->global[p][i]];
    } else {
        for (uint32_t v = 0; v < s->n_visited; v++) {
            const sv_infoset *is = &s->table.infosets[s->visited[v]];
            for (int a = 0; a < is->n; a++) {
                idx[m] = s->row_of[is->offset + a];
                y[m++] = s->pred[is->offset + a] + s->inst[is->offset + a];
            }
        }
    }
    for (uint32_t i = 0; i < m; i++)
        if ((s->cfg.plus && y[i] < 0) || (y[i] < TINY && y[i] > -TINY))
            y[i] = 0;
    return m;
}

/* A model over player p's rows fitted to the batch's targets; its predictions into pred[]. */
static int regress(rc_sampled *s, int p, long it, char *err, size_t errlen)
{
    uint32_t n = s->rows[p].n;
    if (n == 0)
        return 0;
    const uint32_t *global = s->global[p];
    float *y = malloc(sizeof *y * n), *out = malloc(sizeof *out * n);
    uint32_t *idx = malloc(sizeof *idx * n);
    rg_params rp = s->cfg.regressor;
    rp.seed += (uint64_t)p;
    rg_model *m = y && out && idx ? rg_new(&rp, &s->rows[p], err, errlen) : NULL;
    int rc = -1;
    if (!y || !out || !idx)
        snprintf(err, errlen, "out of memory");
    if (!m)
        goto done;
    if (s->cfg.targets == RC_BOOTSTRAP) {
        uint32_t k = bootstrap_targets(s, p, idx, y);
        rc = rg_fit(m, s->fit_all ? NULL : idx, k, y, err, errlen);
    } else {
        sample_reservoir(s, p);
        rc = rg_fit(m, s->res_row[p], s->res_n[p], s->res_val[p], err, errlen);
    }
    if (rc == 0)
        rc = rg_predict(m, out, err, errlen);
    float scale = s->cfg.targets == RC_RESERVOIR ? (float)it : 1.0f;
    for (uint32_t i = 0; i < n && rc == 0; i++)
        s->pred[global[i]] = out[i] * scale;
done:
    rg_free(m);
    free(idx);
    free(y);
    free(out);
    return rc;
}

int rc_sampled_iterate(rc_sampled *s, char *err, size_t errlen)
{
    const efg_game *g = s->g;
    long it = s->iteration + 1;
    double weight = s->cfg.plus ? (double)it : 1.0;
    for (int p = 0; p < 2; p++) {
        double t0 = clk_now();
        if (s->table.n_actions)
            memset(s->inst, 0, sizeof *s->inst * s->table.n_actions);
        s->n_visited = 0;
        bool oom = false;
        for (uint32_t b = 0; b < s->batch && !oom; b++) {
            g->root(g, s->states);
            double w;
            if (s->outcome)
                walk_outcome(s, 0, p, 0, 0, 1, weight, &w, &oom);
            else
                walk(s, 0, p, 0, 0, weight, &oom);
            s->traversals++;
        }
        if (oom) {
            snprintf(err, errlen, "out of memory (or a game deeper than %d moves)", MAX_DEPTH);
            return -1;
        }
        double t1 = clk_now();
        if (regress(s, p, it, err, errlen) != 0)
            return -1;
        s->walk_seconds += t1 - t0;
        s->fit_seconds += clk_now() - t1;
    }
    s->iteration = it;
    return 0;
}

void rc_sampled_average(const rc_sampled *s, double *out) { sv_normalise(&s->table, s->strategy_sum, out); }
