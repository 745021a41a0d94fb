/* tests/unit/test_rcfr.c — regression CFR (agents/rcfr): link functions (values, large regrets, the polynomial
 * link's uniform fallback), features (shape, one-hot blocks, determinism, state-dependent action
 * differences), the regressors (exact table means, an XGBoost fit, FANN refusing sparse rows), the
 * exact-model equivalences (onehot features + table regressor: RCFR = CFR, RCFR+ = CFR+, a full reservoir
 * = CFR; f-RCFR with p = 2 = RCFR under an approximate model), a small XGBoost run whose exploitability
 * falls below a fixed bound, and sampled RCFR (srcfr.h): the exact model with batch 1 is external-sampling
 * MCCFR sample for sample, sampled f-RCFR, outcome-sampled and XGBoost runs fall well below uniform's
 * exploitability, the written policy loads and gives the same exploitability, and a 3x3 run writes a legal
 * policy. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "bestresponse.h"
#include "cfr.h"
#include "darkhex.h"
#include "featureset.h"
#include "linkfn.h"
#include "rcfr.h"
#include "regressor.h"
#include "mccfr.h"
#include "policy.h"
#include "srcfr.h"
#include "test_util.h"

static void assert_policy(const double *got, const double *want, int n, double tol)
{
    double sum = 0;
    for (int a = 0; a < n; a++) {
        if (!(fabs(got[a] - want[a]) <= tol))
            fail_msg("action %d: %.17g, want %.17g", a, got[a], want[a]);
        sum += got[a];
    }
    assert_true(fabs(sum - 1) < 1e-12);
}

static void link_functions(void **state)
{
    (void)state;
    double out[4];
    const float x[3] = { 1, 2, -1 };
    rc_link poly3 = { .kind = RC_LINK_POLY, .p = 3 }, poly2 = { .kind = RC_LINK_POLY, .p = 2 };
    rc_link_policy(&poly3, x, 3, out);
    assert_policy(out, (double[]){ 0.2, 0.8, 0 }, 3, 1e-12);
    rc_link_policy(&poly2, x, 3, out);
    assert_policy(out, (double[]){ 1.0 / 3, 2.0 / 3, 0 }, 3, 1e-12);
    rc_link p15 = { .kind = RC_LINK_POLY, .p = 1.5 };
    rc_link_policy(&p15, (const float[]){ 1, 4 }, 2, out);
    assert_policy(out, (double[]){ 1.0 / 3, 2.0 / 3 }, 2, 1e-12); /* sqrt: 1 and 2 */
    rc_link p1 = { .kind = RC_LINK_POLY, .p = 1 };
    rc_link_policy(&p1, (const float[]){ 0.1f, 5, -2 }, 3, out);
    assert_policy(out, (double[]){ 0.5, 0.5, 0 }, 3, 1e-12); /* every positive regret alike */
    /* regret matching and the polynomial link agree for p = 2 */
    rc_link match = { .kind = RC_LINK_MATCH };
    const float y[4] = { 0.3f, -2, 7.5f, 1e-3f };
    double m[4];
    rc_link_policy(&match, y, 4, m);
    rc_link_policy(&poly2, y, 4, out);
    assert_policy(out, m, 4, 1e-15);
    /* exponential: exp(x / tau) normalised */
    rc_link e1 = { .kind = RC_LINK_EXP, .tau = 1 }, e2 = { .kind = RC_LINK_EXP, .tau = 0.5 };
    rc_link_policy(&e1, (const float[]){ 0, (float)log(3.0) }, 2, out);
    assert_policy(out, (double[]){ 0.25, 0.75 }, 2, 1e-7);
    rc_link_policy(&e2, (const float[]){ 0, (float)log(3.0) }, 2, out);
    assert_policy(out, (double[]){ 0.1, 0.9 }, 2, 1e-7);
    /* no positive regret: the polynomial link falls back to uniform, the exponential one does not */
    const float neg[3] = { -1, -2, -3 };
    rc_link_policy(&poly3, neg, 3, out);
    assert_policy(out, (double[]){ 1.0 / 3, 1.0 / 3, 1.0 / 3 }, 3, 1e-15);
    rc_link_policy(&e1, neg, 3, out);
    double z = 1 + exp(-1) + exp(-2);
    assert_policy(out, (double[]){ 1 / z, exp(-1) / z, exp(-2) / z }, 3, 1e-12);
    /* regrets near the float range: finite, normalised, no overflow */
    const float big[3] = { 3e38f, 1e38f, -3e38f };
    rc_link_policy(&poly3, big, 3, out);
    assert_policy(out, (double[]){ 0.9, 0.1, 0 }, 3, 1e-6);
    rc_link_policy(&e1, big, 3, out);
    assert_policy(out, (double[]){ 1, 0, 0 }, 3, 0);
    rc_link tiny_tau = { .kind = RC_LINK_EXP, .tau = 1e-9 };
    rc_link_policy(&tiny_tau, (const float[]){ 5, 5, 4 }, 3, out);
    assert_policy(out, (double[]){ 0.5, 0.5, 0 }, 3, 1e-12);
    /* a diverged regressor: uniform */
    rc_link_policy(&e1, (const float[]){ NAN, 1 }, 2, out);
    assert_policy(out, (double[]){ 0.5, 0.5 }, 2, 0);
    rc_link_policy(&poly2, (const float[]){ INFINITY, 1 }, 2, out);
    assert_policy(out, (double[]){ 0.5, 0.5 }, 2, 0);
}

static void build(sv_tree *t, sv_darkhex *p, hx_variant v, int rows, int cols)
{
    *p = (sv_darkhex){ .variant = v, .rows = rows, .cols = cols };
    efg_game g;
    sv_darkhex_game(&g, p);
    assert_int_equal(sv_tree_build(t, &g, 1u << 24, false), 0);
}

static void features_shape_and_determinism(void **state)
{
    (void)state;
    sv_tree t;
    sv_darkhex p;
    build(&t, &p, HX_ABRUPT, 3, 2);
    assert_int_equal(rc_set_dim(RC_COARSE, 6), 37);
    assert_int_equal(rc_set_dim(RC_RICH, 6), 4 * 6 + 37);
    for (int s = RC_COARSE; s <= RC_ONEHOT; s++) {
        rc_features f, g;
        assert_int_equal(rc_features_build(&f, &t, &p, (rc_set)s), 0);
        assert_int_equal(rc_features_build(&g, &t, &p, (rc_set)s), 0);
        assert_int_equal(f.rows[0].n + f.rows[1].n, t.n_actions);
        for (int q = 0; q < 2; q++) {
            const rc_rows *r = &f.rows[q];
            assert_int_equal(r->dim, s == RC_ONEHOT ? r->n : rc_set_dim((rc_set)s, 6));
            assert_int_equal(r->nnz, s == RC_ONEHOT ? 1 : r->dim);
            assert_memory_equal(r->val, g.rows[q].val, sizeof *r->val * r->n * r->nnz);
            for (uint32_t i = 0; i < r->n; i++) {
                uint32_t gl = f.global[q][i];
                assert_int_equal(f.row_of[gl], i);
                const float *v = r->val + (size_t)i * r->nnz;
                if (s == RC_ONEHOT) {
                    assert_int_equal(r->col[i], i);
                    assert_true(v[0] == 1);
                    continue;
                }
                for (int k = 0; k < 6; k++) { /* each neighbour in exactly one state */
                    float sum = 0;
                    for (int st = 0; st < 5; st++)
                        sum += v[7 + 5 * k + st];
                    assert_true(sum == 1);
                }
                assert_true(v[0] >= 0 && v[0] <= 1 && v[3] >= 0 && v[3] <= 2);
                if (s == RC_RICH) { /* each cell in exactly one plane, the candidate marked once */
                    float cand = 0;
                    for (int c = 0; c < 6; c++) {
                        assert_true(v[37 + c] + v[37 + 6 + c] + v[37 + 12 + c] == 1);
                        cand += v[37 + 18 + c];
                    }
                    assert_true(cand == 1);
                    assert_true(v[37 + 18 + t.actions[gl]] == 1);
                    assert_true(v[37 + 12 + t.actions[gl]] == 1); /* one can only attempt unknown cells */
                }
            }
        }
        rc_features_free(&f);
        rc_features_free(&g);
    }
    /* column names are distinct */
    char a[64], b[64];
    uint32_t dim = rc_set_dim(RC_RICH, 6);
    for (uint32_t i = 0; i < dim; i++)
        for (uint32_t j = i + 1; j < dim; j++) {
            rc_column_name(RC_RICH, 3, 2, i, a, sizeof a);
            rc_column_name(RC_RICH, 3, 2, j, b, sizeof b);
            assert_string_not_equal(a, b);
        }
    sv_tree_free(&t);
}

/* A linear model on state (+) action one-hot scores two actions with a difference that is the same in
 * every state. The features here do not: for some pair of states with the same two actions, the feature
 * differences between the actions differ, so even a linear model can rank them differently per state. */
static void features_rank_actions_per_state(void **state)
{
    (void)state;
    sv_tree t;
    sv_darkhex p;
    build(&t, &p, HX_CLASSICAL, 3, 2);
    for (int s = RC_COARSE; s <= RC_RICH; s++) {
        rc_features f;
        assert_int_equal(rc_features_build(&f, &t, &p, (rc_set)s), 0);
        uint32_t dim = f.rows[0].dim, found = 0, pairs = 0;
        for (uint32_t i = 0; i < t.n_infosets && !found; i++) {
            const sv_infoset *a = &t.infosets[i];
            for (uint32_t j = i + 1; j < t.n_infosets && !found && a->n >= 2; j++) {
                const sv_infoset *b = &t.infosets[j];
                if (b->player != a->player || b->n != a->n ||
                    memcmp(t.actions + a->offset, t.actions + b->offset, sizeof *t.actions * a->n) != 0)
                    continue;
                pairs++;
                const rc_rows *r = &f.rows[a->player];
                const float *a0 = r->val + (size_t)f.row_of[a->offset] * dim;
                const float *a1 = r->val + (size_t)f.row_of[a->offset + 1] * dim;
                const float *b0 = r->val + (size_t)f.row_of[b->offset] * dim;
                const float *b1 = r->val + (size_t)f.row_of[b->offset + 1] * dim;
                for (uint32_t c = 0; c < dim; c++)
                    found += (a0[c] - a1[c]) != (b0[c] - b1[c]);
            }
        }
        print_message("%s: %u pairs of states compared\n", rc_set_name((rc_set)s), pairs);
        assert_true(found > 0);
        rc_features_free(&f);
    }
    sv_tree_free(&t);
}

static void regressors(void **state)
{
    (void)state;
    char err[256];
    /* table: the mean target of each distinct row */
    float val[] = { 1, 0, 0, 1, 1, 0, 2, 2 };
    rc_rows x = { .n = 4, .dim = 2, .nnz = 2, .val = val };
    rg_params tp = rg_defaults(RG_TABLE);
    rg_model *m = rg_new(&tp, &x, err, sizeof err);
    assert_non_null(m);
    float out[4];
    assert_int_equal(rg_predict(m, out, err, sizeof err), 0);
    assert_true(out[0] == 0 && out[3] == 0); /* nothing fitted yet */
    assert_int_equal(rg_fit(m, NULL, 4, (const float[]){ 1, 5, 3, 7 }, err, sizeof err), 0);
    assert_int_equal(rg_predict(m, out, err, sizeof err), 0);
    assert_true(out[0] == 2 && out[2] == 2 && out[1] == 5 && out[3] == 7);
    assert_int_equal(rg_fit(m, (const uint32_t[]){ 3, 3, 1 }, 3, (const float[]){ 1, 2, 4 }, err, sizeof err), 0);
    assert_int_equal(rg_predict(m, out, err, sizeof err), 0);
    assert_true(out[0] == 0 && out[1] == 4 && out[3] == 1.5f);
    assert_int_equal(rg_fit(m, NULL, 3, (const float[]){ 1, 2, 3 }, err, sizeof err), -1);
    rg_free(m);

    /* xgboost: a function of two features with an interaction, fitted closely */
    enum { N = 400 };
    float *v = malloc(sizeof *v * N * 3), y[N], pred[N];
    for (int i = 0; i < N; i++) {
        v[3 * i] = (float)(i % 20) / 20;
        v[3 * i + 1] = (float)(i / 20) / 20;
        v[3 * i + 2] = (float)(i % 3);
        y[i] = v[3 * i] > 0.5f ? 4 * v[3 * i + 1] : -1 - v[3 * i + 2];
    }
    rc_rows xr = { .n = N, .dim = 3, .nnz = 3, .val = v };
    rg_params xp = rg_defaults(RG_XGBOOST);
    m = rg_new(&xp, &xr, err, sizeof err);
    assert_non_null(m);
    assert_int_equal(rg_fit(m, NULL, N, y, err, sizeof err), 0);
    assert_int_equal(rg_predict(m, pred, err, sizeof err), 0);
    double sse = 0, sst = 0, mean = 0;
    for (int i = 0; i < N; i++)
        mean += y[i] / N;
    for (int i = 0; i < N; i++) {
        sse += (pred[i] - y[i]) * (pred[i] - y[i]);
        sst += (y[i] - mean) * (y[i] - mean);
    }
    print_message("xgboost R^2 %.6f\n", 1 - sse / sst);
    assert_true(1 - sse / sst > 0.99);
    /* the same data, seed and parameters: the same predictions */
    float again[N];
    assert_int_equal(rg_fit(m, NULL, N, y, err, sizeof err), 0);
    assert_int_equal(rg_predict(m, again, err, sizeof err), 0);
    assert_memory_equal(pred, again, sizeof pred);
    rg_free(m);
    /* fann fits it too (less closely), and refuses sparse rows */
    rg_params fp = rg_defaults(RG_FANN);
    fp.epochs = 300;
    m = rg_new(&fp, &xr, err, sizeof err);
    assert_non_null(m);
    assert_int_equal(rg_fit(m, NULL, N, y, err, sizeof err), 0);
    assert_int_equal(rg_predict(m, pred, err, sizeof err), 0);
    sse = 0;
    for (int i = 0; i < N; i++)
        sse += (pred[i] - y[i]) * (pred[i] - y[i]);
    print_message("fann R^2 %.6f\n", 1 - sse / sst);
    assert_true(1 - sse / sst > 0.8);
    rg_free(m);
    uint32_t col[1] = { 0 };
    float one[1] = { 1 };
    rc_rows sparse = { .n = 1, .dim = 1, .nnz = 1, .val = one, .col = col };
    assert_null(rg_new(&fp, &sparse, err, sizeof err));
    assert_non_null(strstr(err, "dense"));
    free(v);
}

/* Runs RCFR and tabular CFR side by side for `iterations`, comparing current and average policies. */
static void same_as_cfr(hx_variant v, int rows, int cols, sv_algo algo, rc_targets targets, int iterations)
{
    sv_tree t;
    sv_darkhex p;
    build(&t, &p, v, rows, cols);
    rc_features f;
    assert_int_equal(rc_features_build(&f, &t, &p, RC_ONEHOT), 0);
    rc_config cfg = rc_config_defaults();
    cfg.regressor = rg_defaults(RG_TABLE);
    cfg.plus = algo == SV_CFR_PLUS;
    cfg.targets = targets;
    cfg.reservoir = (uint32_t)(t.n_actions * (size_t)iterations);
    rc_rcfr r;
    char err[256];
    assert_int_equal(rc_init(&r, &t, &f, &cfg, err, sizeof err), 0);
    sv_cfr c;
    assert_int_equal(sv_cfr_init(&c, &t, algo), 0);
    double *a = malloc(sizeof *a * t.n_actions), *b = malloc(sizeof *b * t.n_actions), worst = 0;
    for (int i = 0; i < iterations; i++) {
        sv_cfr_iterate(&c);
        assert_int_equal(rc_iterate(&r, err, sizeof err), 0);
        for (uint32_t k = 0; k < t.n_actions; k++)
            worst = fmax(worst, fabs(c.current[k] - r.current[k]));
    }
    sv_cfr_average(&c, a);
    rc_average(&r, b);
    for (uint32_t k = 0; k < t.n_actions; k++)
        worst = fmax(worst, fabs(a[k] - b[k]));
    sv_eval ea, eb;
    assert_int_equal(sv_evaluate(&t, a, &ea), 0);
    assert_int_equal(sv_evaluate(&t, b, &eb), 0);
    print_message("%dx%d %s %s%s: largest policy difference %.2e; exploitability %.6e vs %.6e\n", rows, cols,
                  hx_variant_name(v), sv_algo_name(algo), targets == RC_RESERVOIR ? " (reservoir)" : "", worst,
                  ea.exploitability, eb.exploitability);
    assert_true(worst == 0);
    assert_true(ea.exploitability == eb.exploitability);
    free(a);
    free(b);
    sv_cfr_free(&c);
    rc_free(&r);
    rc_features_free(&f);
    sv_tree_free(&t);
}

static void exact_model_is_tabular_cfr(void **state)
{
    (void)state;
    same_as_cfr(HX_CLASSICAL, 2, 2, SV_CFR, RC_BOOTSTRAP, 200);
    same_as_cfr(HX_ABRUPT, 3, 2, SV_CFR, RC_BOOTSTRAP, 100);
    same_as_cfr(HX_CLASSICAL, 2, 3, SV_CFR_PLUS, RC_BOOTSTRAP, 100);
    same_as_cfr(HX_ABRUPT, 3, 2, SV_CFR_PLUS, RC_BOOTSTRAP, 100);
    same_as_cfr(HX_ABRUPT, 2, 2, SV_CFR, RC_RESERVOIR, 100);
}

/* Runs two configurations side by side and returns the largest difference between their current policies. */
static double compare(const sv_tree *t, const rc_features *f, const rc_config *x, const rc_config *y, int iterations)
{
    rc_rcfr a, b;
    char err[256];
    assert_int_equal(rc_init(&a, t, f, x, err, sizeof err), 0);
    assert_int_equal(rc_init(&b, t, f, y, err, sizeof err), 0);
    double worst = 0;
    for (int i = 0; i < iterations; i++) {
        assert_int_equal(rc_iterate(&a, err, sizeof err), 0);
        assert_int_equal(rc_iterate(&b, err, sizeof err), 0);
        for (uint32_t k = 0; k < t->n_actions; k++)
            worst = fmax(worst, fabs(a.current[k] - b.current[k]));
    }
    rc_free(&a);
    rc_free(&b);
    return worst;
}

static void frcfr_p2_is_rcfr(void **state)
{
    (void)state;
    sv_tree t;
    sv_darkhex p;
    build(&t, &p, HX_ABRUPT, 3, 2);
    rc_features f;
    assert_int_equal(rc_features_build(&f, &t, &p, RC_COARSE), 0);
    rc_config rcfr = rc_config_defaults(), p2 = rc_config_defaults(), p3 = rc_config_defaults();
    rcfr.regressor = p2.regressor = p3.regressor = rg_defaults(RG_TABLE);
    p2.link = (rc_link){ .kind = RC_LINK_POLY, .p = 2 };
    p3.link = (rc_link){ .kind = RC_LINK_POLY, .p = 3 };
    /* coarse features merge states: an approximate model, under which p = 2 still follows RCFR */
    double same = compare(&t, &f, &rcfr, &p2, 50), other = compare(&t, &f, &rcfr, &p3, 50);
    print_message("coarse table: rcfr vs frcfr p=2 %.2e, vs p=3 %.2e\n", same, other);
    assert_true(same < 1e-9);
    assert_true(other > 1e-3); /* and the comparison can tell links apart */
    /* with regression trees, over a few iterations */
    rcfr.regressor = p2.regressor = rg_defaults(RG_XGBOOST);
    same = compare(&t, &f, &rcfr, &p2, 5);
    print_message("coarse xgboost: rcfr vs frcfr p=2 %.2e\n", same);
    assert_true(same < 1e-4);
    rc_features_free(&f);
    sv_tree_free(&t);
}

static void small_run_converges(void **state)
{
    (void)state;
    sv_tree t;
    sv_darkhex p;
    build(&t, &p, HX_CLASSICAL, 2, 2);
    rc_features f;
    assert_int_equal(rc_features_build(&f, &t, &p, RC_RICH), 0);
    rc_config cfg = rc_config_defaults();
    rc_rcfr r;
    char err[256];
    assert_int_equal(rc_init(&r, &t, &f, &cfg, err, sizeof err), 0);
    double *avg = malloc(sizeof *avg * t.n_actions);
    sv_uniform(&t, avg);
    sv_eval u, e;
    assert_int_equal(sv_evaluate(&t, avg, &u), 0);
    for (int i = 0; i < 100; i++)
        assert_int_equal(rc_iterate(&r, err, sizeof err), 0);
    rc_average(&r, avg);
    assert_int_equal(sv_evaluate(&t, avg, &e), 0);
    print_message("2x2 classical RCFR (rich, xgboost), 100 iterations: exploitability %.4f (uniform %.4f); "
                  "traversal %.3f s, regression %.3f s\n", e.exploitability, u.exploitability, r.walk_seconds,
                  r.fit_seconds);
    assert_true(e.exploitability < 0.05);
    assert_true(e.exploitability < u.exploitability / 5);
    free(avg);
    rc_free(&r);
    rc_features_free(&f);
    sv_tree_free(&t);
}

/* The sampled table's average policy on the built tree (uniform where the table lacks a state). */
static void project_sampled(const rc_sampled *s, const sv_tree *t, double *out)
{
    double *avg = malloc(sizeof *avg * (s->table.n_actions ? s->table.n_actions : 1));
    assert_non_null(avg);
    rc_sampled_average(s, avg);
    for (uint32_t k = 0; k < t->n_infosets; k++) {
        const sv_infoset *is = &t->infosets[k];
        int64_t j = sv_tree_find(&s->table, is->player, is->key);
        for (int a = 0; a < is->n; a++)
            out[is->offset + a] = j >= 0 ? avg[s->table.infosets[j].offset + a] : 1.0 / is->n;
    }
    free(avg);
}

/* Exploitability of the sampled run's average policy, on the built tree of the same game. */
static double sampled_exploitability(const rc_sampled *s, const sv_tree *t)
{
    double *pol = malloc(sizeof *pol * t->n_actions);
    assert_non_null(pol);
    project_sampled(s, t, pol);
    sv_eval e;
    assert_int_equal(sv_evaluate(t, pol, &e), 0);
    free(pol);
    return e.exploitability;
}

static double uniform_exploitability(const sv_tree *t)
{
    double *pol = malloc(sizeof *pol * t->n_actions);
    assert_non_null(pol);
    sv_uniform(t, pol);
    sv_eval e;
    assert_int_equal(sv_evaluate(t, pol, &e), 0);
    free(pol);
    return e.exploitability;
}

static rc_config exact_config(void)
{
    rc_config cfg = rc_config_defaults();
    cfg.regressor = rg_defaults(RG_TABLE);
    cfg.seed = 7;
    return cfg;
}

/* onehot + table, batch 1: the same samples, states and average policy as sv_mccfr with the same seed. */
static void sampled_exact_is_mccfr(void **state)
{
    (void)state;
    const hx_variant variants[2] = { HX_CLASSICAL, HX_ABRUPT };
    for (int v = 0; v < 2; v++) {
        sv_darkhex p = { .variant = variants[v], .rows = 3, .cols = 2 };
        efg_game g;
        sv_darkhex_game(&g, &p);
        rc_config cfg = exact_config();
        rc_sampled s;
        char err[256];
        assert_int_equal(rc_sampled_init(&s, &g, RC_ONEHOT, &cfg, 1, err, sizeof err), 0);
        sv_mccfr m;
        assert_int_equal(sv_mccfr_init(&m, &g, false, 7), 0);
        for (int i = 0; i < 400; i++) {
            assert_int_equal(rc_sampled_iterate(&s, err, sizeof err), 0);
            assert_int_equal(sv_mccfr_iterate(&m), 0);
        }
        assert_int_equal(s.table.n_infosets, m.table.n_infosets);
        assert_int_equal(s.table.n_actions, m.table.n_actions);
        double *a = malloc(sizeof *a * s.table.n_actions), *b = malloc(sizeof *b * m.table.n_actions);
        rc_sampled_average(&s, a);
        sv_mccfr_average(&m, b);
        for (uint32_t k = 0; k < m.table.n_infosets; k++) {
            assert_int_equal(s.table.infosets[k].key, m.table.infosets[k].key);
            for (uint32_t i = 0; i < m.table.infosets[k].n; i++) {
                uint32_t o = m.table.infosets[k].offset + i;
                if (!(fabs(a[o] - b[o]) < 1e-9))
                    fail_msg("variant %d state %u action %u: %.17g, mccfr %.17g", v, k, i, a[o], b[o]);
            }
        }
        free(a);
        free(b);
        sv_mccfr_free(&m);
        rc_sampled_free(&s);
    }
}

/* Sampled f-RCFR (exact model, exp link), outcome-sampled RCFR (exact model) and sampled RCFR (xgboost,
 * coarse features) on 2x3 abrupt fall well below uniform play's exploitability; the written policy loads, is a distribution over the legal cells of
 * every state, and scores the same on the tree. */
static void sampled_runs_converge(void **state)
{
    (void)state;
    sv_tree t;
    sv_darkhex p;
    build(&t, &p, HX_ABRUPT, 2, 3);
    efg_game g;
    sv_darkhex_game(&g, &p);
    double u = uniform_exploitability(&t);
    char err[256];

    rc_config cfg = exact_config();
    cfg.link = (rc_link){ .kind = RC_LINK_EXP, .tau = RC_DEFAULT_TAU };
    rc_sampled s;
    assert_int_equal(rc_sampled_init(&s, &g, RC_ONEHOT, &cfg, 10, err, sizeof err), 0);
    for (int i = 0; i < 300; i++)
        assert_int_equal(rc_sampled_iterate(&s, err, sizeof err), 0);
    double e = sampled_exploitability(&s, &t);
    print_message("2x3 abrupt sampled f-RCFR exp0.1 (onehot, table), 300 x 10 traversals: exploitability %.4f "
                  "(uniform %.4f), %u states\n", e, u, s.table.n_infosets);
    assert_true(e < u / 4);

    char path[64];
    snprintf(path, sizeof path, "/tmp/test_rcfr_%d.pol", (int)getpid());
    double *avg = malloc(sizeof *avg * s.table.n_actions);
    rc_sampled_average(&s, avg);
    pf_meta meta = { .variant = p.variant, .rows = p.rows, .cols = p.cols, .keys = PF_KEYS_PERFECT,
                     .iterations = (uint64_t)s.iteration, .exploitability = NAN };
    snprintf(meta.algo, sizeof meta.algo, "frcfr-exp0.1");
    assert_int_equal(pf_save_tree(&s.table, avg, &meta, path, err, sizeof err), 0);
    pf_policy pol;
    assert_int_equal(pf_load(&pol, path, err, sizeof err), 0);
    unlink(path);
    assert_int_equal(pol.n_entries, s.table.n_infosets);
    for (uint32_t i = 0; i < pol.n_entries; i++) {
        double sum = 0;
        for (int a = 0; a < pol.entries[i].n; a++) {
            assert_true(pol.probs[pol.entries[i].offset + a] >= 0);
            sum += pol.probs[pol.entries[i].offset + a];
        }
        assert_true(fabs(sum - 1) < 1e-5);
    }
    double *on = malloc(sizeof *on * t.n_actions);
    uint32_t missing[2];
    assert_int_equal(pf_on_tree(&pol, &pol, &t, on, missing, err, sizeof err), 0); /* checks the cells */
    sv_eval ef;
    assert_int_equal(sv_evaluate(&t, on, &ef), 0);
    assert_true(fabs(ef.exploitability - e) < 1e-5);
    pf_close(&pol);
    free(on);
    free(avg);
    rc_sampled_free(&s);

    cfg = exact_config();
    assert_int_equal(rc_sampled_init(&s, &g, RC_ONEHOT, &cfg, 100, err, sizeof err), 0);
    s.outcome = true;
    for (int i = 0; i < 1000; i++)
        assert_int_equal(rc_sampled_iterate(&s, err, sizeof err), 0);
    e = sampled_exploitability(&s, &t);
    print_message("2x3 abrupt outcome-sampled RCFR (onehot, table), 1000 x 100 traversals: exploitability %.4f\n", e);
    assert_true(e < u / 2);
    rc_sampled_free(&s);

    cfg = rc_config_defaults();
    assert_int_equal(rc_sampled_init(&s, &g, RC_COARSE, &cfg, 20, err, sizeof err), 0);
    for (int i = 0; i < 30; i++)
        assert_int_equal(rc_sampled_iterate(&s, err, sizeof err), 0);
    e = sampled_exploitability(&s, &t);
    print_message("2x3 abrupt sampled RCFR (coarse, xgboost), 30 x 20 traversals: exploitability %.4f; traversal "
                  "%.2f s, regression %.2f s\n", e, s.walk_seconds, s.fit_seconds);
    assert_true(e < u / 2);
    rc_sampled_free(&s);
    sv_tree_free(&t);
}

/* A few sampled iterations on 3x3 classical (no tree): a legal policy over every state met. */
static void sampled_3x3_smoke(void **state)
{
    (void)state;
    sv_darkhex p = { .variant = HX_CLASSICAL, .rows = 3, .cols = 3 };
    efg_game g;
    sv_darkhex_game(&g, &p);
    rc_config cfg = rc_config_defaults();
    cfg.link = (rc_link){ .kind = RC_LINK_POLY, .p = 1.5 };
    cfg.regressor.rounds = 5;
    rc_sampled s;
    char err[256];
    assert_int_equal(rc_sampled_init(&s, &g, RC_RICH, &cfg, 1, err, sizeof err), 0);
    for (int i = 0; i < 2; i++)
        assert_int_equal(rc_sampled_iterate(&s, err, sizeof err), 0);
    assert_true(s.table.n_infosets > 1000);
    assert_int_equal(s.rows[0].n + s.rows[1].n, s.table.n_actions);
    double *avg = malloc(sizeof *avg * s.table.n_actions);
    rc_sampled_average(&s, avg);
    for (uint32_t k = 0; k < s.table.n_infosets; k++) {
        const sv_infoset *is = &s.table.infosets[k];
        double sum = 0;
        for (int a = 0; a < is->n; a++) {
            assert_true(avg[is->offset + a] >= 0);
            sum += avg[is->offset + a];
        }
        assert_true(fabs(sum - 1) < 1e-9);
    }
    char path[64];
    snprintf(path, sizeof path, "/tmp/test_rcfr3_%d.pol", (int)getpid());
    pf_meta meta = { .variant = p.variant, .rows = 3, .cols = 3, .keys = PF_KEYS_PERFECT, .iterations = 2,
                     .exploitability = NAN };
    snprintf(meta.algo, sizeof meta.algo, "frcfr-poly1.5");
    assert_int_equal(pf_save_tree(&s.table, avg, &meta, path, err, sizeof err), 0);
    pf_policy pol;
    assert_int_equal(pf_load(&pol, path, err, sizeof err), 0);
    unlink(path);
    assert_int_equal(pol.n_entries, s.table.n_infosets);
    pf_close(&pol);
    print_message("3x3 classical sampled f-RCFR poly1.5, 2 iterations: %u states\n", s.table.n_infosets);
    free(avg);
    rc_sampled_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(link_functions),
        cmocka_unit_test(features_shape_and_determinism),
        cmocka_unit_test(features_rank_actions_per_state),
        cmocka_unit_test(regressors),
        cmocka_unit_test(exact_model_is_tabular_cfr),
        cmocka_unit_test(frcfr_p2_is_rcfr),
        cmocka_unit_test(small_run_converges),
        cmocka_unit_test(sampled_exact_is_mccfr),
        cmocka_unit_test(sampled_runs_converge),
        cmocka_unit_test(sampled_3x3_smoke),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
