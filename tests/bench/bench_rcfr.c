/* tests/bench/bench_rcfr.c — regression CFR on Dark Hex 3x2 abrupt: seconds per RCFR iteration split into
 * traversal and regression, for the rich and coarse features with XGBoost (the default) and FANN (rich), against
 * one tabular CFR iteration on the same tree measured in the same run (the baseline). Then the regressor
 * comparison of docs/bots.md: each backend fitted to tabular CFR's cumulative regrets after 100
 * iterations (the targets RCFR must learn), with its fit time, R^2, and how often the predicted regrets
 * pick the same best action and give the same regret-matching policy (L1 distance) as the exact ones. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cfr.h"
#include "darkhex.h"
#include "featureset.h"
#include "linkfn.h"
#include "rcfr.h"
#include "regressor.h"
#include "clock.h"

static int die(const char *what, const char *err)
{
    fprintf(stderr, "bench_rcfr: %s: %s\n", what, err);
    return 1;
}

/* Fits both players' models to the exact regrets and reports accuracy. */
static int compare(const sv_tree *t, const rc_features *f, rg_kind kind, const float *regret)
{
    char err[512];
    float *pred = malloc(sizeof *pred * t->n_actions);
    double fit = 0, sse = 0, sst = 0, mean = 0;
    for (uint32_t k = 0; k < t->n_actions; k++)
        mean += regret[k] / t->n_actions;
    for (int p = 0; p < 2; p++) {
        rg_params rp = rg_defaults(kind);
        if (kind == RG_FANN)
            rp.epochs = 100; /* one fit from scratch: a few RCFR iterations' worth of warm starts */
        rg_model *m = rg_new(&rp, &f->rows[p], err, sizeof err);
        if (!m)
            return die("model", err);
        uint32_t n = f->rows[p].n;
        float *y = malloc(sizeof *y * n), *out = malloc(sizeof *out * n);
        for (uint32_t i = 0; i < n; i++)
            y[i] = regret[f->global[p][i]];
        double t0 = clk_now();
        if (rg_fit(m, NULL, n, y, err, sizeof err) != 0 || rg_predict(m, out, err, sizeof err) != 0)
            return die("fit", err);
        fit += clk_now() - t0;
        for (uint32_t i = 0; i < n; i++)
            pred[f->global[p][i]] = out[i];
        free(y);
        free(out);
        rg_free(m);
    }
    uint32_t same = 0, states = 0;
    double l1 = 0, exact[EFG_MAX_ACTIONS], approx[EFG_MAX_ACTIONS];
    rc_link match = { .kind = RC_LINK_MATCH };
    for (uint32_t k = 0; k < t->n_actions; k++) {
        sse += (pred[k] - regret[k]) * (pred[k] - regret[k]);
        sst += (regret[k] - mean) * (regret[k] - mean);
    }
    for (uint32_t s = 0; s < t->n_infosets; s++) {
        const sv_infoset *is = &t->infosets[s];
        if (is->n < 2)
            continue;
        int a_exact = 0, a_pred = 0;
        for (int a = 1; a < is->n; a++) {
            a_exact = regret[is->offset + a] > regret[is->offset + a_exact] ? a : a_exact;
            a_pred = pred[is->offset + a] > pred[is->offset + a_pred] ? a : a_pred;
        }
        same += a_exact == a_pred;
        states++;
        rc_link_policy(&match, regret + is->offset, is->n, exact);
        rc_link_policy(&match, pred + is->offset, is->n, approx);
        for (int a = 0; a < is->n; a++)
            l1 += fabs(exact[a] - approx[a]);
    }
    printf("  %-8s %-6s fit+predict %7.3f s  R^2 %.4f  same best action %5.1f%%  mean L1 of regret matching %.3f\n",
           rg_kind_name(kind), rc_set_name(f->set), fit, 1 - sse / sst, 100.0 * same / states, l1 / states);
    free(pred);
    return 0;
}

int main(void)
{
    sv_darkhex p = { .variant = HX_ABRUPT, .rows = 3, .cols = 2 };
    efg_game g;
    sv_darkhex_game(&g, &p);
    sv_tree t;
    if (sv_tree_build(&t, &g, 1u << 26, false) != 0)
        return die("tree", "does not fit");
    char err[512];
    printf("rcfr: 3x2 abrupt, %u information states, %u actions\n", t.n_infosets, t.n_actions);

    /* the baseline: tabular CFR iterations on the same tree */
    sv_cfr c;
    if (sv_cfr_init(&c, &t, SV_CFR) != 0)
        return die("cfr", "out of memory");
    double t0 = clk_now();
    for (int i = 0; i < 100; i++)
        sv_cfr_iterate(&c);
    double cfr_it = (clk_now() - t0) / 100;
    printf("  tabular CFR: %.2f ms per iteration (baseline)\n", 1e3 * cfr_it);

    static const struct { rg_kind kind; rc_set set; int iterations; } runs[] = {
        { RG_XGBOOST, RC_RICH, 10 }, { RG_XGBOOST, RC_COARSE, 10 }, { RG_FANN, RC_RICH, 2 } };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        rc_features f;
        double tf = clk_now();
        if (rc_features_build(&f, &t, &p, runs[i].set) != 0)
            return die("features", "out of memory");
        tf = clk_now() - tf;
        rc_config cfg = rc_config_defaults();
        cfg.regressor = rg_defaults(runs[i].kind);
        rc_rcfr r;
        if (rc_init(&r, &t, &f, &cfg, err, sizeof err) != 0)
            return die("rcfr", err);
        for (int k = 0; k < runs[i].iterations; k++)
            if (rc_iterate(&r, err, sizeof err) != 0)
                return die("iteration", err);
        double walk = r.walk_seconds / runs[i].iterations, fit = r.fit_seconds / runs[i].iterations;
        printf("  RCFR %-7s %-6s %8.3f s per iteration: traversal %.4f s, regression %.3f s (%.0fx the tabular "
               "iteration; features built in %.2f s)\n",
               rg_kind_name(runs[i].kind), rc_set_name(runs[i].set), walk + fit, walk, fit, (walk + fit) / cfr_it, tf);
        rc_free(&r);
        rc_features_free(&f);
    }

    printf("rcfr: regressors fitted to CFR's cumulative regrets after 100 iterations (3x2 abrupt)\n");
    for (int s = RC_RICH; s >= RC_COARSE; s--) {
        rc_features f;
        if (rc_features_build(&f, &t, &p, (rc_set)s) != 0)
            return die("features", "out of memory");
        if (compare(&t, &f, RG_XGBOOST, c.regret) != 0 || (s == RC_RICH && compare(&t, &f, RG_FANN, c.regret) != 0) ||
            compare(&t, &f, RG_TABLE, c.regret) != 0)
            return 1;
        rc_features_free(&f);
    }
    sv_cfr_free(&c);
    sv_tree_free(&t);
    return 0;
}
