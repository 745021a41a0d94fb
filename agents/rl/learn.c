/* agents/rl/learn.c — tabular Q-learning and SARSA (see learn.h). */
#include "learn.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "grow.h"
#include "rng.h"

int rl_schedule_parse(const char *text, rl_schedule *out, const char **why)
{
    char kind[16] = "";
    double a = 0, b = 0, c = 0;
    int used = 0;
    *why = "expected constant:E, linear:E0:E1:N or exponential:E0:E1:H";
    if (sscanf(text, "%15[a-z]%n", kind, &used) != 1)
        return -1;
    const char *rest = text + used;
    int got = 0, end = 0;
    if (!strcmp(kind, "constant")) {
        got = sscanf(rest, ":%lf%n", &a, &end) == 1;
        b = a;
        c = 1;
        out->kind = RL_CONSTANT;
    } else if (!strcmp(kind, "linear") || !strcmp(kind, "exponential")) {
        got = sscanf(rest, ":%lf:%lf:%lf%n", &a, &b, &c, &end) == 3;
        out->kind = kind[0] == 'l' ? RL_LINEAR : RL_EXPONENTIAL;
    }
    if (!got || rest[end] != '\0')
        return -1;
    if (!(a >= 0 && a <= 1 && b >= 0 && b <= 1)) {
        *why = "epsilon values must lie in 0..1";
        return -1;
    }
    if (!(c > 0)) {
        *why = "the episode count (N or H) must be positive";
        return -1;
    }
    out->e0 = a;
    out->e1 = b;
    out->n = c;
    return 0;
}

double rl_epsilon(const rl_schedule *s, uint64_t episode)
{
    double x = (double)episode;
    switch (s->kind) {
    case RL_LINEAR:
        return x >= s->n ? s->e1 : s->e0 + (s->e1 - s->e0) * x / s->n;
    case RL_EXPONENTIAL:
        return s->e1 + (s->e0 - s->e1) * exp2(-x / s->n);
    default:
        return s->e0;
    }
}

int rl_init(rl_learner *l, const rl_config *c)
{
    memset(l, 0, sizeof *l);
    l->cfg = *c;
    l->table.view_keys = c->view_keys;
    l->bridge = bb_defaults();
    return 0;
}

void rl_free(rl_learner *l)
{
    sv_tree_free(&l->table);
    free(l->q);
    free(l->visits);
    memset(l, 0, sizeof *l);
}

static size_t table_bytes(const rl_learner *l)
{
    const sv_tree *t = &l->table;
    return (size_t)t->cap * (sizeof(uint32_t) + sizeof(sv_infoset)) +
           (size_t)t->action_cap * sizeof(uint16_t) + (size_t)l->cap * (sizeof(float) + sizeof(double));
}

int64_t rl_state(rl_learner *l, int player, uint64_t key, const uint16_t *cells, int n)
{
    int64_t s = l->table.cap ? sv_tree_find(&l->table, player, key) : -1;
    if (s >= 0)
        return s;
    if (table_bytes(l) >= l->cfg.budget)
        return -1;
    s = sv_tree_intern(&l->table, player, key, 0, cells, n);
    if (s < 0)
        return -1;
    uint32_t need = l->table.n_actions;
    if (need > l->cap) {
        uint32_t cap = sv_capacity(l->cap, need, 4096);
        if (!cap || !sv_resize(&l->q, sizeof *l->q, cap) || !sv_resize(&l->visits, sizeof *l->visits, cap))
            return -1;
        memset(l->q + l->cap, 0, sizeof *l->q * (cap - l->cap));
        memset(l->visits + l->cap, 0, sizeof *l->visits * (cap - l->cap));
        l->cap = cap;
    }
    return s;
}

/* The best value at state s. */
static double best_value(const rl_learner *l, int64_t s)
{
    const sv_infoset *is = &l->table.infosets[s];
    double best = -INFINITY;
    for (int a = 0; a < is->n; a++)
        if (l->q[is->offset + a] > best)
            best = l->q[is->offset + a];
    return best;
}

void rl_backup(rl_learner *l, int64_t s, int a, double r, int64_t s2, int a2)
{
    if (s < 0)
        return;
    double next = 0;
    if (s2 >= 0)
        next = l->cfg.algo == RL_SARSA && a2 >= 0 ? l->q[l->table.infosets[s2].offset + a2] : best_value(l, s2);
    uint32_t i = l->table.infosets[s].offset + (uint32_t)a;
    l->q[i] = (float)(l->q[i] + l->cfg.alpha * (r + l->cfg.gamma * next - l->q[i]));
    l->visits[i] += 1;
}

/* A greedy action at state s (ties at random); -1 for a state outside the table. */
static int greedy(const rl_learner *l, int64_t s, hx_rng *rng)
{
    if (s < 0)
        return -1;
    const sv_infoset *is = &l->table.infosets[s];
    float best = -INFINITY;
    int pick = 0, ties = 0;
    for (int a = 0; a < is->n; a++) {
        float q = l->q[is->offset + a];
        if (q > best) {
            best = q;
            pick = a;
            ties = 1;
        } else if (q == best && hx_rng_below(rng, (uint32_t)++ties) == 0) {
            pick = a;
        }
    }
    return pick;
}

static uint64_t key_of(const rl_learner *l, const hx_game *g, int p)
{
    return l->cfg.view_keys ? hx_view_key(g, p) : hx_key_fingerprint(g, p);
}

/* The fixed opponent's attempt. */
static int opponent_move(const rl_learner *l, const hx_game *g, hx_rng *rng, const uint16_t *jitter)
{
    if (l->cfg.opponent == RL_BRIDGE)
        return bb_move(g, hx_to_move(g), &l->bridge, jitter, rng);
    return hx_random_legal(g, rng);
}

static void seed_jitter(hx_rng *rng, int cells, uint16_t *jitter)
{
    for (int i = 0; i < cells; i++)
        jitter[i] = (uint16_t)hx_rng_below(rng, BB_JITTER_MAX + 1);
}

int rl_episode(rl_learner *l)
{
    hx_game g;
    if (hx_new(&g, l->cfg.variant, l->cfg.rows, l->cfg.cols, 0) != 0)
        return -1;
    hx_rng rng, orng;
    hx_rng_seed(&rng, l->cfg.seed ^ (l->episode * 0x9e3779b97f4a7c15ULL));
    hx_rng_seed(&orng, ~l->cfg.seed ^ (l->episode * 0xbf58476d1ce4e5b9ULL));
    uint16_t jitter[HX_MAX_CELLS];
    seed_jitter(&orng, l->cfg.rows * l->cfg.cols, jitter);
    double eps = rl_epsilon(&l->cfg.epsilon, l->episode);
    int learner = l->cfg.opponent == RL_SELF ? -1 : (int)(l->episode % 2);
    int64_t pend_s[2] = { -1, -1 };
    int pend_a[2] = { -1, -1 };
    uint16_t cells[HX_MAX_CELLS + 1];
    while (!hx_over(&g)) {
        int p = hx_to_move(&g);
        if (learner >= 0 && p != learner) {
            hx_attempt(&g, opponent_move(l, &g, &orng, jitter));
            continue;
        }
        int n = hx_legal(&g, cells);
        int64_t s = rl_state(l, p, key_of(l, &g, p), cells, n);
        if (s < 0)
            l->refused++;
        int a = s >= 0 && hx_rng_double(&rng) >= eps ? greedy(l, s, &rng) : (int)hx_rng_below(&rng, (uint32_t)n);
        rl_backup(l, pend_s[p], pend_a[p], 0, s, a);
        pend_s[p] = s;
        pend_a[p] = a;
        hx_attempt(&g, cells[a]);
    }
    int w = hx_winner(&g);
    for (int p = 0; p < 2; p++)
        rl_backup(l, pend_s[p], pend_a[p], w == p ? 1 : -1, -1, -1);
    l->episode++;
    return w;
}

void rl_evaluate(const rl_learner *l, int games, uint64_t seed, rl_eval *out)
{
    double rate[2];
    for (int opp = 0; opp < 2; opp++) {
        int wins = 0;
        for (int k = 0; k < games; k++) {
            hx_game g;
            hx_new(&g, l->cfg.variant, l->cfg.rows, l->cfg.cols, 0);
            hx_rng rng, orng;
            hx_rng_seed(&rng, seed * 1000003 + (uint64_t)k);
            hx_rng_seed(&orng, seed * 1000033 + (uint64_t)k + 77);
            uint16_t jitter[HX_MAX_CELLS], cells[HX_MAX_CELLS + 1];
            seed_jitter(&orng, l->cfg.rows * l->cfg.cols, jitter);
            int me = k % 2;
            while (!hx_over(&g)) {
                int p = hx_to_move(&g), cell;
                if (p != me) {
                    cell = opp ? bb_move(&g, p, &l->bridge, jitter, &orng) : hx_random_legal(&g, &orng);
                } else {
                    int n = hx_legal(&g, cells);
                    int64_t s = l->table.cap ? sv_tree_find(&l->table, p, key_of(l, &g, p)) : -1;
                    int a = s >= 0 && l->table.infosets[s].n == n ? greedy(l, s, &rng)
                                                                  : (int)hx_rng_below(&rng, (uint32_t)n);
                    cell = cells[a];
                }
                hx_attempt(&g, cell);
            }
            wins += hx_winner(&g) == me;
        }
        rate[opp] = games ? (double)wins / games : 0;
    }
    out->vs_random = rate[0];
    out->vs_bridge = rate[1];
}

void rl_policy(const rl_learner *l, double temperature, double *out)
{
    for (uint32_t k = 0; k < l->table.n_infosets; k++) {
        const sv_infoset *is = &l->table.infosets[k];
        const float *q = l->q + is->offset;
        double *p = out + is->offset, best = -INFINITY, sum = 0;
        for (int a = 0; a < is->n; a++)
            if (q[a] > best)
                best = q[a];
        for (int a = 0; a < is->n; a++) {
            p[a] = temperature > 0 ? exp((q[a] - best) / temperature) : q[a] == best;
            sum += p[a];
        }
        for (int a = 0; a < is->n; a++)
            p[a] /= sum;
    }
}
