/* arena/solver/cfr.c — CFR, CFR+ and DCFR passes over the flat tree (see cfr.h). */
#include "cfr.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int sv_algo_parse(const char *name)
{
    return strcmp(name, "cfr") == 0 ? SV_CFR : strcmp(name, "cfr+") == 0 ? SV_CFR_PLUS
         : strcmp(name, "dcfr") == 0 ? SV_DCFR : -1;
}

const char *sv_algo_name(sv_algo a)
{
    return a == SV_CFR ? "cfr" : a == SV_CFR_PLUS ? "cfr+" : "dcfr";
}

int sv_cfr_init(sv_cfr *c, const sv_tree *t, sv_algo algo)
{
    memset(c, 0, sizeof *c);
    c->tree = t;
    c->algo = algo;
    size_t n = t->n_actions ? t->n_actions : 1;
    c->regret = calloc(n, sizeof *c->regret);
    c->strategy_sum = calloc(n, sizeof *c->strategy_sum);
    c->current = calloc(n, sizeof *c->current);
    if (!c->regret || !c->strategy_sum || !c->current) {
        sv_cfr_free(c);
        return -1;
    }
    return 0;
}

void sv_cfr_free(sv_cfr *c)
{
    free(c->regret);
    free(c->strategy_sum);
    free(c->current);
    memset(c, 0, sizeof *c);
}

void sv_regret_match(const float *regret, int n, double *out)
{
    double sum = 0;
    for (int a = 0; a < n; a++)
        sum += regret[a] > 0 ? regret[a] : 0;
    for (int a = 0; a < n; a++)
        out[a] = sum > 0 ? (regret[a] > 0 ? regret[a] : 0) / sum : 1.0 / n;
}

/* Counterfactual values for `traverser` below node h; pi_t is the traverser's reach, pi_o everyone
 * else's (opponent and chance). A subtree is skipped only when both reaches are 0: the traverser's
 * strategy sums are added at every history of an information state it reaches (pi_t > 0), whatever the
 * opponent's reach, so that every information state is weighted by the same number of histories in every
 * iteration (its own reach is the same at all of them). */
/* Reaches below this are treated as 0: they change no sum that matters, and subnormal arithmetic would
 * cost far more than the whole walk. */
#define TINY 1e-30

typedef struct {
    const sv_tree *t;
    const double *current;
    float *regret;
    double *strategy_sum;
    double weight;
} pass;

static double walk(const pass *c, uint32_t h, int traverser, double pi_t, double pi_o)
{
    if (pi_t < TINY)
        pi_t = 0;
    if (pi_o < TINY)
        pi_o = 0;
    const sv_tree *t = c->t;
    const sv_node *node = &t->nodes[h];
    if (node->player == EFG_TERMINAL)
        return traverser == 0 ? node->value : -node->value;
    if (node->player == EFG_CHANCE) {
        double v = 0;
        for (uint32_t k = 0; k < node->n; k++) {
            double p = t->chance_prob[node->first + k];
            if (pi_t > 0 || pi_o * p > 0)
                v += p * walk(c, node->first + k, traverser, pi_t, pi_o * p);
        }
        return v;
    }
    const sv_infoset *is = &t->infosets[node->infoset];
    int n = is->n;
    const double *sigma = c->current + is->offset;
    float *regret = c->regret + is->offset;
    if (node->player != traverser) {
        double v = 0;
        for (int a = 0; a < n; a++)
            if (pi_t > 0 || pi_o * sigma[a] > 0)
                v += sigma[a] * walk(c, node->first + (uint32_t)a, traverser, pi_t, pi_o * sigma[a]);
        return v;
    }
    double va[EFG_MAX_ACTIONS], v = 0;
    for (int a = 0; a < n; a++) {
        va[a] = pi_o > 0 || pi_t * sigma[a] > 0
                    ? walk(c, node->first + (uint32_t)a, traverser, pi_t * sigma[a], pi_o)
                    : 0;
        v += sigma[a] * va[a];
    }
    double *sum = c->strategy_sum + is->offset;
    for (int a = 0; a < n; a++) {
        if (pi_o > 0)
            regret[a] += (float)(pi_o * (va[a] - v));
        sum[a] += c->weight * pi_t * sigma[a];
    }
    return v;
}

double sv_cfr_pass(const sv_tree *t, int traverser, const double *current, float *regret, double *strategy_sum,
                   double weight)
{
    pass c = { .t = t, .current = current, .regret = regret, .strategy_sum = strategy_sum, .weight = weight };
    return walk(&c, 0, traverser, 1.0, 1.0);
}

/* The current strategy of every information state of `player` from its regrets. */
static void refresh(sv_cfr *c, int player)
{
    const sv_tree *t = c->tree;
    for (uint32_t k = 0; k < t->n_infosets; k++) {
        const sv_infoset *is = &t->infosets[k];
        if (is->player == player)
            sv_regret_match(c->regret + is->offset, is->n, c->current + is->offset);
    }
}

void sv_cfr_resume(sv_cfr *c, long iteration)
{
    c->iteration = iteration;
    refresh(c, 0);
    refresh(c, 1);
}

void sv_cfr_iterate(sv_cfr *c)
{
    const sv_tree *t = c->tree;
    long it = c->iteration + 1;
    double weight = c->algo == SV_CFR_PLUS ? (double)it : 1.0;
    if (c->iteration == 0) {
        refresh(c, 0);
        refresh(c, 1);
    }
    for (int p = 0; p < 2; p++) {
        sv_cfr_pass(t, p, c->current, c->regret, c->strategy_sum, weight);
        /* discounts and floors on the traverser's information states, then its new current strategy */
        double pos = 1, neg = 1, avg = 1;
        if (c->algo == SV_DCFR) {
            double ta = pow((double)it, 1.5);
            pos = ta / (ta + 1);
            neg = 0.5;
            avg = pow((double)it / (double)(it + 1), 2);
        }
        for (uint32_t k = 0; k < t->n_infosets; k++) {
            const sv_infoset *is = &t->infosets[k];
            if (is->player != p)
                continue;
            float *r = c->regret + is->offset;
            double *s = c->strategy_sum + is->offset;
            for (int a = 0; a < is->n; a++) {
                if ((c->algo == SV_CFR_PLUS && r[a] < 0) || (r[a] < (float)TINY && r[a] > -(float)TINY))
                    r[a] = 0; /* CFR+'s floor; and no subnormal floats */
                else if (c->algo == SV_DCFR)
                    r[a] = (float)(r[a] * (r[a] > 0 ? pos : neg));
                if (c->algo == SV_DCFR)
                    s[a] *= avg;
            }
            sv_regret_match(r, is->n, c->current + is->offset);
        }
    }
    c->iteration = it;
}

void sv_normalise(const sv_tree *t, const double *sums, double *out)
{
    for (uint32_t k = 0; k < t->n_infosets; k++) {
        const sv_infoset *is = &t->infosets[k];
        const double *s = sums + is->offset;
        double sum = 0;
        for (int a = 0; a < is->n; a++)
            sum += s[a];
        for (int a = 0; a < is->n; a++)
            out[is->offset + a] = sum > 0 ? s[a] / sum : 1.0 / is->n;
    }
}

void sv_cfr_average(const sv_cfr *c, double *out) { sv_normalise(c->tree, c->strategy_sum, out); }
