/* arena/solver/mccfr.c — external-sampling MCCFR (see mccfr.h). The traverser's regrets get sampled
 * counterfactual regrets; the opponent's strategy sums get its current strategy at the histories where it
 * is sampled (the standard "simple" averaging of external sampling). With linear weighting the table is
 * scaled at the schedule's points; with baselines the opponent's sampled values are corrected by the
 * history cache (both in mccfr.h). */
#include "mccfr.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cfr.h"
#include "grow.h"
#include "mix.h"

#define MAX_DEPTH 1024

/* One history's baseline: Black's latest value estimate after each of its actions; tag = key | 1 (0 empty). */
struct sv_baseline_line {
    uint64_t tag;
    float v[SV_BASELINE_ACTIONS];
};

_Static_assert(sizeof(struct sv_baseline_line) == 64, "one cache line per history");

int sv_mccfr_baseline_bits(long mib)
{
    int bits = 0;
    while (bits < 40 && ((uint64_t)sizeof(struct sv_baseline_line) << (bits + 1) >> 20) <= (uint64_t)mib)
        bits++;
    return bits;
}

static uint64_t child_key(uint64_t h, int action) { return mix64(h + (uint64_t)action + 1); }

static double uniform01(uint64_t *s) { return (double)(mix_next(s) >> 11) * 0x1.0p-53; }

int sv_mccfr_sample(uint64_t *rng, const double *p, int n)
{
    double u = uniform01(rng), acc = 0;
    for (int a = 0; a < n - 1; a++) {
        acc += p[a];
        if (u < acc)
            return a;
    }
    return n - 1;
}

int sv_mccfr_init(sv_mccfr *m, const efg_game *g, bool view_keys, uint64_t seed)
{
    memset(m, 0, sizeof *m);
    m->g = g;
    m->rng = seed;
    m->table.view_keys = view_keys && g->view_key;
    m->states = malloc(g->state_size * MAX_DEPTH);
    return m->states ? 0 : -1;
}

void sv_mccfr_free(sv_mccfr *m)
{
    sv_tree_free(&m->table);
    free(m->regret);
    free(m->strategy_sum);
    free(m->states);
    free(m->baseline);
    memset(m, 0, sizeof *m);
}

int sv_mccfr_reserve(sv_mccfr *m)
{
    uint32_t need = m->table.n_actions;
    if (need <= m->cap)
        return 0;
    uint32_t cap = grow_capacity(m->cap, need, 4096);
    if (!grow_resize(&m->regret, sizeof *m->regret, cap) ||
        !grow_resize(&m->strategy_sum, sizeof *m->strategy_sum, cap))
        return -1;
    memset(m->regret + m->cap, 0, sizeof *m->regret * (cap - m->cap));
    memset(m->strategy_sum + m->cap, 0, sizeof *m->strategy_sum * (cap - m->cap));
    m->cap = cap;
    return 0;
}

static double walk(sv_mccfr *m, int level, int traverser, int d0, int d1, uint64_t hk, bool *oom);

/* The opponent's sampled action `pick` at history hk, its value corrected by the baseline cache. */
static double baseline_step(sv_mccfr *m, int level, int traverser, int e0, int e1, uint64_t hk,
                            const uint16_t *actions, const double *sigma, int n, int pick, bool *oom)
{
    struct sv_baseline_line *line = &m->baseline[hk & (((uint64_t)1 << m->baseline_bits) - 1)];
    uint64_t tag = hk | 1;
    double sign = traverser == 0 ? 1.0 : -1.0, vb = 0, bpick = 0;
    if (line->tag == tag) {
        for (int a = 0; a < n; a++)
            vb += sigma[a] * line->v[a];
        vb *= sign;
        bpick = sign * line->v[pick];
    }
    double v = walk(m, level + 1, traverser, e0, e1, child_key(hk, actions[pick]), oom);
    if (line->tag != tag) { /* empty, or another history's: this one takes the line */
        memset(line, 0, sizeof *line);
        line->tag = tag;
    }
    line->v[pick] = (float)(sign * v);
    return vb + v - bpick;
}

/* Sampled counterfactual value for the traverser of the state at `level` (hk: its history's key). */
static double walk(sv_mccfr *m, int level, int traverser, int d0, int d1, uint64_t hk, bool *oom)
{
    const efg_game *g = m->g;
    const void *s = m->states + (size_t)level * g->state_size;
    void *child = m->states + (size_t)(level + 1) * g->state_size;
    int player = g->player(g, s);
    if (player == EFG_TERMINAL) {
        double u = g->utility(g, s);
        return traverser == 0 ? u : -u;
    }
    if (level + 1 >= MAX_DEPTH) {
        *oom = true;
        return 0;
    }
    uint16_t actions[EFG_MAX_ACTIONS];
    double probs[EFG_MAX_ACTIONS];
    int n = g->actions(g, s, actions, probs);
    if (player == EFG_CHANCE) {
        int c = sv_mccfr_sample(&m->rng, probs, n);
        g->apply(g, child, s, actions[c]);
        return walk(m, level + 1, traverser, d0, d1, child_key(hk, actions[c]), oom);
    }
    uint64_t key = m->table.view_keys ? g->view_key(g, s) : g->infoset(g, s);
    int64_t k = sv_tree_intern(&m->table, player, key, player == 0 ? d0 : d1, actions, n);
    if (k < 0 || sv_mccfr_reserve(m) != 0) {
        *oom = true;
        return 0;
    }
    uint32_t off = m->table.infosets[k].offset;
    double sigma[EFG_MAX_ACTIONS];
    sv_regret_match(m->regret + off, n, sigma);
    int e0 = d0 + (player == 0), e1 = d1 + (player == 1);
    if (player != traverser) {
        for (int a = 0; a < n; a++)
            m->strategy_sum[off + a] += sigma[a];
        int pick = sv_mccfr_sample(&m->rng, sigma, n);
        g->apply(g, child, s, actions[pick]);
        if (m->baseline && n <= SV_BASELINE_ACTIONS)
            return baseline_step(m, level, traverser, e0, e1, hk, actions, sigma, n, pick, oom);
        return walk(m, level + 1, traverser, e0, e1, child_key(hk, actions[pick]), oom);
    }
    double va[EFG_MAX_ACTIONS], v = 0;
    for (int a = 0; a < n && !*oom; a++) {
        g->apply(g, child, s, actions[a]);
        va[a] = walk(m, level + 1, traverser, e0, e1, child_key(hk, actions[a]), oom);
        v += sigma[a] * va[a];
    }
    float *r = m->regret + m->table.infosets[k].offset; /* the arrays may have moved */
    for (int a = 0; a < n; a++)
        r[a] += (float)(va[a] - v);
    return v;
}

/* The linear weighting's schedule: t is a point when floor(log(t) / log(1.02)) steps up at t (every t up
 * to about 50). */
static bool schedule_point(long t)
{
    static const double step = 0.019802627296179713; /* log(1.02) */
    return t <= 1 || floor(log((double)t) / step) > floor(log((double)(t - 1)) / step);
}

/* At point t, everything accumulated so far is scaled by p / t, p the previous point. */
static void discount(sv_mccfr *m, long t)
{
    long p = t - 1;
    while (p > 1 && !schedule_point(p))
        p--;
    double f = (double)p / (double)t;
    float ff = (float)f;
    for (uint32_t i = 0; i < m->table.n_actions; i++) {
        m->regret[i] *= ff;
        m->strategy_sum[i] *= f;
    }
}

int sv_mccfr_iterate(sv_mccfr *m)
{
    const efg_game *g = m->g;
    bool oom = false;
    if (m->baseline_bits > 0 && !m->baseline) {
        m->baseline = calloc((size_t)1 << m->baseline_bits, sizeof *m->baseline);
        if (!m->baseline)
            return -1;
    }
    for (int p = 0; p < 2 && !oom; p++) {
        g->root(g, m->states);
        walk(m, 0, p, 0, 0, 0x6a09e667f3bcc908ull, &oom);
    }
    if (oom)
        return -1;
    m->iteration++;
    if (m->linear && schedule_point(m->iteration + 1))
        discount(m, m->iteration + 1);
    return 0;
}

void sv_mccfr_average(const sv_mccfr *m, double *out) { sv_normalise(&m->table, m->strategy_sum, out); }
