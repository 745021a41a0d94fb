/* agents/rcfr/rcfr.c — RCFR, RCFR+ and f-RCFR iterations (see rcfr.h). */
#include "rcfr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cfr.h"
#include "mix.h"
#include "clock.h"

/* Targets this close to 0 are 0, as in sv_cfr (no subnormal floats; and exactly CFR's regrets). */
#define TINY 1e-30

rc_config rc_config_defaults(void)
{
    return (rc_config){ .link = { .kind = RC_LINK_MATCH, .p = 2, .tau = RC_DEFAULT_TAU },
                        .targets = RC_BOOTSTRAP, .reservoir = 1000000, .regressor = rg_defaults(RG_XGBOOST),
                        .seed = 1 };
}

void rc_free(rc_rcfr *r)
{
    for (int p = 0; p < 2; p++) {
        rg_free(r->model[p]);
        free(r->res_row[p]);
        free(r->res_val[p]);
    }
    free(r->pred);
    free(r->inst);
    free(r->strategy_sum);
    free(r->current);
    free(r->y);
    free(r->out);
    memset(r, 0, sizeof *r);
}

/* The current policy of `player`'s information states from the predictions. */
static void refresh(rc_rcfr *r, int player)
{
    const sv_tree *t = r->tree;
    for (uint32_t k = 0; k < t->n_infosets; k++) {
        const sv_infoset *is = &t->infosets[k];
        if (is->player == player)
            rc_link_policy(&r->cfg.link, r->pred + is->offset, is->n, r->current + is->offset);
    }
}

int rc_init(rc_rcfr *r, const sv_tree *t, const rc_features *f, const rc_config *cfg, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    r->tree = t;
    r->feat = f;
    r->cfg = *cfg;
    r->rng = cfg->seed;
    size_t n = t->n_actions ? t->n_actions : 1;
    size_t rows = f->rows[0].n > f->rows[1].n ? f->rows[0].n : f->rows[1].n;
    r->pred = calloc(n, sizeof *r->pred);
    r->inst = calloc(n, sizeof *r->inst);
    r->strategy_sum = calloc(n, sizeof *r->strategy_sum);
    r->current = calloc(n, sizeof *r->current);
    r->y = calloc(rows ? rows : 1, sizeof *r->y);
    r->out = calloc(rows ? rows : 1, sizeof *r->out);
    bool ok = r->pred && r->inst && r->strategy_sum && r->current && r->y && r->out;
    for (int p = 0; p < 2 && ok && cfg->targets == RC_RESERVOIR; p++) {
        r->res_row[p] = malloc(sizeof *r->res_row[p] * (cfg->reservoir ? cfg->reservoir : 1));
        r->res_val[p] = malloc(sizeof *r->res_val[p] * (cfg->reservoir ? cfg->reservoir : 1));
        ok = r->res_row[p] && r->res_val[p];
    }
    if (!ok) {
        rc_free(r);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int p = 0; p < 2; p++) {
        rg_params rp = cfg->regressor;
        rp.seed += (uint64_t)p;
        if (!(r->model[p] = rg_new(&rp, &f->rows[p], err, errlen))) {
            rc_free(r);
            return -1;
        }
    }
    refresh(r, 0);
    refresh(r, 1);
    return 0;
}

void rc_resume(rc_rcfr *r, long iteration)
{
    r->iteration = iteration;
    refresh(r, 0);
    refresh(r, 1);
}

/* Refits player p's model to this pass's regrets and predicts its cumulative regrets into pred[]. */
static int regress(rc_rcfr *r, int p, long it, char *err, size_t errlen)
{
    const rc_features *f = r->feat;
    uint32_t n = f->rows[p].n;
    const uint32_t *global = f->global[p];
    if (n == 0)
        return 0;
    if (r->cfg.targets == RC_BOOTSTRAP) {
        /* inst[] holds previous prediction + new regrets, summed like sv_cfr sums its regrets */
        for (uint32_t i = 0; i < n; i++) {
            float y = r->inst[global[i]];
            r->y[i] = (r->cfg.plus && y < 0) || (y < (float)TINY && y > -(float)TINY) ? 0 : y;
        }
        if (rg_fit(r->model[p], NULL, n, r->y, err, errlen) != 0)
            return -1;
    } else {
        /* Vitter's algorithm R: every sample so far is in the reservoir with the same probability */
        uint32_t cap = r->cfg.reservoir;
        for (uint32_t i = 0; i < n; i++) {
            uint64_t seen = r->res_seen[p]++;
            uint64_t slot = seen < cap ? seen : mix_next(&r->rng) % (seen + 1);
            if (slot < cap) {
                r->res_row[p][slot] = i;
                r->res_val[p][slot] = r->inst[global[i]];
            }
        }
        r->res_n[p] = r->res_seen[p] < cap ? (uint32_t)r->res_seen[p] : cap;
        if (rg_fit(r->model[p], r->res_row[p], r->res_n[p], r->res_val[p], err, errlen) != 0)
            return -1;
    }
    if (rg_predict(r->model[p], r->out, err, errlen) != 0)
        return -1;
    float scale = r->cfg.targets == RC_RESERVOIR ? (float)it : 1.0f;
    for (uint32_t i = 0; i < n; i++)
        r->pred[global[i]] = r->out[i] * scale;
    return 0;
}

int rc_iterate(rc_rcfr *r, char *err, size_t errlen)
{
    const sv_tree *t = r->tree;
    long it = r->iteration + 1;
    double weight = r->cfg.plus ? (double)it : 1.0;
    for (int p = 0; p < 2; p++) {
        double t0 = clk_now();
        if (r->cfg.targets == RC_BOOTSTRAP)
            memcpy(r->inst, r->pred, sizeof *r->inst * t->n_actions);
        else
            memset(r->inst, 0, sizeof *r->inst * t->n_actions);
        sv_cfr_pass(t, p, r->current, r->inst, r->strategy_sum, weight);
        double t1 = clk_now();
        if (regress(r, p, it, err, errlen) != 0)
            return -1;
        refresh(r, p);
        r->walk_seconds += t1 - t0;
        r->fit_seconds += clk_now() - t1;
    }
    r->iteration = it;
    return 0;
}

void rc_average(const rc_rcfr *r, double *out) { sv_normalise(r->tree, r->strategy_sum, out); }
