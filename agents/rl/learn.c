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

static const char *const pool_names[RL_OPPONENTS] = { "self", "random", "bridge" };

static int pool_index(const char *name, size_t len)
{
    for (int k = 0; k < RL_OPPONENTS; k++)
        if (strlen(pool_names[k]) == len && !strncmp(name, pool_names[k], len))
            return k;
    return -1;
}

int rl_pool_parse(const char *text, double pool[RL_OPPONENTS], const char **why)
{
    double w[RL_OPPONENTS] = { 0 }, sum = 0;
    *why = "expected self, random, bridge or a list NAME:WEIGHT,... of them";
    int single = pool_index(text, strlen(text));
    if (single >= 0) {
        w[single] = 1;
        sum = 1;
    }
    for (const char *p = text; single < 0 && *p;) {
        const char *colon = strchr(p, ':');
        int k = colon ? pool_index(p, (size_t)(colon - p)) : -1;
        char *end;
        double x = k >= 0 ? strtod(colon + 1, &end) : -1;
        if (k < 0 || end == colon + 1 || (*end && *end != ','))
            return -1;
        if (!(x >= 0 && x <= 1e9)) {
            *why = "weights must be numbers >= 0";
            return -1;
        }
        w[k] = x;
        p = *end ? end + 1 : end;
        if (*end && !*p)
            return -1;
    }
    for (int k = 0; k < RL_OPPONENTS; k++)
        sum += single < 0 ? w[k] : 0;
    if (!(sum > 0)) {
        *why = "at least one weight must be positive";
        return -1;
    }
    memcpy(pool, w, sizeof w);
    return 0;
}

void rl_pool_format(const double pool[RL_OPPONENTS], char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int k = 0; k < RL_OPPONENTS; k++)
        if (pool[k] > 0 && used < len)
            used += (size_t)snprintf(buf + used, len - used, "%s%s:%g", used ? "," : "", pool_names[k], pool[k]);
}

void rl_keys(bool view_keys, const hx_game *g, int player, uint64_t *key, uint64_t *mirror)
{
    int cells = hx_cells(g);
    if (view_keys) {
        uint8_t view[HX_MAX_CELLS], turned[HX_MAX_CELLS];
        for (int c = 0; c < cells; c++)
            view[c] = (uint8_t)hx_view(g, player, c);
        for (int c = 0; c < cells; c++)
            turned[rl_mirror_cell(cells, c)] = view[c];
        hx_event ev[HX_MAX_EVENTS];
        int n = hx_events(g, player, ev), reports = 0;
        for (int i = 0; i < n; i++)
            reports += ev[i].kind == HX_EV_OPP_HIT || ev[i].kind == HX_EV_OPP_HIT_AT;
        *key = hx_view_key_of(view, cells, player, reports);
        *mirror = hx_view_key_of(turned, cells, player, reports);
        return;
    }
    uint16_t code[HX_MAX_EVENTS];
    int n = hx_key(g, player, code);
    *key = hx_key_hash(code, n);
    /* A code is kind << 9 | cell; every kind but "the opponent hit one of my stones somewhere" names a cell. */
    for (int i = 0; i < n; i++)
        if (code[i] >> 9 != HX_EV_OPP_HIT)
            code[i] = (uint16_t)((code[i] >> 9) << 9 | rl_mirror_cell(cells, code[i] & 511));
    *mirror = hx_key_hash(code, n);
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
        uint32_t cap = grow_capacity(l->cap, need, 4096);
        if (!cap || !grow_resize(&l->q, sizeof *l->q, cap) || !grow_resize(&l->visits, sizeof *l->visits, cap))
            return -1;
        memset(l->q + l->cap, 0, sizeof *l->q * (cap - l->cap));
        memset(l->visits + l->cap, 0, sizeof *l->visits * (cap - l->cap));
        l->cap = cap;
    }
    for (int a = 0; a < n; a++)
        l->q[l->table.infosets[s].offset + (uint32_t)a] = (float)l->cfg.init;
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
    l->visits[i] += 1;
    double step = l->cfg.alpha;
    if (l->cfg.step == RL_STEP_COUNT && 1 / l->visits[i] > step)
        step = 1 / l->visits[i];
    l->q[i] = (float)(l->q[i] + step * (r + l->cfg.gamma * next - l->q[i]));
}

/* A greedy action at state s (ties at random); -1 for a state outside the table. */
static int greedy(const rl_learner *l, int64_t s, rng_state *rng)
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
        } else if (q == best && rng_below(rng, (uint32_t)++ties) == 0) {
            pick = a;
        }
    }
    return pick;
}

static uint64_t key_of(const rl_learner *l, const hx_game *g, int p)
{
    return l->cfg.view_keys ? hx_view_key(g, p) : hx_key_fingerprint(g, p);
}

/* The move of a fixed opponent (random or the bridge builder) for the player to move. */
static int opponent_move(const rl_learner *l, rl_opponent who, const hx_game *g, rng_state *rng, const uint16_t *jitter)
{
    if (who == RL_BRIDGE)
        return bb_move(g, hx_to_move(g), &l->bridge, jitter, rng);
    return hx_random_legal(g, rng);
}

static void seed_jitter(rng_state *rng, int cells, uint16_t *jitter)
{
    for (int i = 0; i < cells; i++)
        jitter[i] = (uint16_t)rng_below(rng, BB_JITTER_MAX + 1);
}

/* The opponent of this episode, drawn from the pool by weight (self-play when every weight is 0). */
static rl_opponent draw_opponent(const rl_config *c, rng_state *rng)
{
    double sum = 0;
    for (int k = 0; k < RL_OPPONENTS; k++)
        sum += c->pool[k];
    if (!(sum > 0))
        return RL_SELF;
    double x = rng_double(rng) * sum;
    int last = 0;
    for (int k = 0; k < RL_OPPONENTS; k++) {
        if (!(c->pool[k] > 0))
            continue;
        if (x < c->pool[k])
            return (rl_opponent)k;
        x -= c->pool[k];
        last = k;
    }
    return (rl_opponent)last; /* x left over by rounding: the last opponent that has a weight */
}

/* One player's decision waiting for its update: the state and action, and (with symmetry) the rotated
 * state and action (-1: none). */
typedef struct {
    int64_t s, ms;
    int a, ma;
} pending;

/* The updates of the pending decision d, now that the player reached (s2, a2) / its rotation (ms2, ma2)
 * (-1: the game ended) with reward r. A state its own rotation updates its rotated action too, once. */
static void backup_pending(rl_learner *l, const pending *d, double r, const pending *next)
{
    rl_backup(l, d->s, d->a, r, next->s, next->a);
    if (d->ms >= 0 && !(d->ms == d->s && d->ma == d->a))
        rl_backup(l, d->ms, d->ma, r, next->ms, next->ma);
}

int rl_episode(rl_learner *l)
{
    hx_game g;
    if (hx_new(&g, l->cfg.variant, l->cfg.rows, l->cfg.cols, 0) != 0)
        return -1;
    rng_state rng, orng;
    rng_seed(&rng, l->cfg.seed ^ (l->episode * 0x9e3779b97f4a7c15ULL));
    rng_seed(&orng, ~l->cfg.seed ^ (l->episode * 0xbf58476d1ce4e5b9ULL));
    int cells_n = l->cfg.rows * l->cfg.cols;
    uint16_t jitter[HX_MAX_CELLS];
    seed_jitter(&orng, cells_n, jitter);
    rl_opponent who = draw_opponent(&l->cfg, &orng);
    double eps = rl_epsilon(&l->cfg.epsilon, l->episode);
    int learner = who == RL_SELF ? -1 : (int)(l->episode % 2);
    pending pend[2] = { { -1, -1, -1, -1 }, { -1, -1, -1, -1 } };
    const pending end = { -1, -1, -1, -1 };
    uint16_t cells[HX_MAX_CELLS + 1], turned[HX_MAX_CELLS + 1];
    while (!hx_over(&g)) {
        int p = hx_to_move(&g);
        if (learner >= 0 && p != learner) {
            hx_attempt(&g, opponent_move(l, who, &g, &orng, jitter));
            continue;
        }
        int n = hx_legal(&g, cells);
        pending now = { -1, -1, -1, -1 };
        uint64_t key, mirror;
        if (l->cfg.symmetry) {
            rl_keys(l->cfg.view_keys, &g, p, &key, &mirror);
            for (int k = 0; k < n; k++)
                turned[k] = (uint16_t)rl_mirror_cell(cells_n, cells[n - 1 - k]);
        } else {
            key = key_of(l, &g, p);
        }
        now.s = rl_state(l, p, key, cells, n);
        if (now.s < 0)
            l->refused++;
        int a = now.s >= 0 && rng_double(&rng) >= eps ? greedy(l, now.s, &rng) : (int)rng_below(&rng, (uint32_t)n);
        now.a = a;
        if (l->cfg.symmetry) {
            now.ms = mirror == key ? now.s : rl_state(l, p, mirror, turned, n);
            now.ma = now.ms >= 0 ? n - 1 - a : -1;
        }
        backup_pending(l, &pend[p], 0, &now);
        pend[p] = now;
        hx_attempt(&g, cells[a]);
    }
    int w = hx_winner(&g);
    for (int p = 0; p < 2; p++)
        backup_pending(l, &pend[p], w == p ? 1 : -1, &end);
    l->episode++;
    return w;
}

/* The greedy policy's win rate in `games` games against a fixed opponent, per colour into as[]. */
static double evaluate_against(const rl_learner *l, rl_opponent who, int games, uint64_t seed, double as[2])
{
    int wins[2] = { 0, 0 }, played[2] = { 0, 0 };
    for (int k = 0; k < games; k++) {
        hx_game g;
        hx_new(&g, l->cfg.variant, l->cfg.rows, l->cfg.cols, 0);
        rng_state rng, orng;
        rng_seed(&rng, seed * 1000003 + (uint64_t)k);
        rng_seed(&orng, seed * 1000033 + (uint64_t)k + 77);
        uint16_t jitter[HX_MAX_CELLS], cells[HX_MAX_CELLS + 1];
        seed_jitter(&orng, l->cfg.rows * l->cfg.cols, jitter);
        int me = k % 2;
        while (!hx_over(&g)) {
            int p = hx_to_move(&g), cell;
            if (p != me) {
                cell = opponent_move(l, who, &g, &orng, jitter);
            } else {
                int n = hx_legal(&g, cells);
                int64_t s = l->table.cap ? sv_tree_find(&l->table, p, key_of(l, &g, p)) : -1;
                int a = s >= 0 && l->table.infosets[s].n == n ? greedy(l, s, &rng)
                                                              : (int)rng_below(&rng, (uint32_t)n);
                cell = cells[a];
            }
            hx_attempt(&g, cell);
        }
        wins[me] += hx_winner(&g) == me;
        played[me]++;
    }
    for (int c = 0; c < 2; c++)
        as[c] = played[c] ? (double)wins[c] / played[c] : 0;
    return games ? (double)(wins[0] + wins[1]) / games : 0;
}

void rl_evaluate(const rl_learner *l, int games, uint64_t seed, rl_eval *out)
{
    out->vs_random = evaluate_against(l, RL_RANDOM, games, seed, out->random_as);
    out->vs_bridge = evaluate_against(l, RL_BRIDGE, games, seed, out->bridge_as);
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
