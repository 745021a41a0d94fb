/* agents/rcfr/xgboost.c — the gradient-boosted regression tree backend (see regressor.h), on XGBoost's C
 * API: the rows become one DMatrix at construction; each fit trains a new booster from the mean target
 * (squared error, histogram trees) and keeps it for prediction. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xgboost/c_api.h>

#include "backend.h"

typedef struct {
    DMatrixHandle all;
    BoosterHandle booster;
} xgb;

static int fail(const char *what, char *err, size_t errlen)
{
    snprintf(err, errlen, "xgboost %s: %s", what, XGBGetLastError());
    return -1;
}

static int xgb_fit(rg_model *m, const uint32_t *idx, uint32_t n, const float *y, char *err, size_t errlen)
{
    xgb *x = m->impl;
    DMatrixHandle d = x->all;
    if (idx) {
        int *ix = calloc(n ? n : 1, sizeof *ix);
        if (!ix) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        for (uint32_t i = 0; i < n; i++)
            ix[i] = (int)idx[i];
        int rc = XGDMatrixSliceDMatrix(x->all, ix, n, &d);
        free(ix);
        if (rc != 0)
            return fail("slice", err, errlen);
    }
    double mean = 0;
    for (uint32_t i = 0; i < n; i++)
        mean += y[i];
    mean = n ? mean / n : 0;
    int rc = -1;
    BoosterHandle b = NULL;
    if (XGDMatrixSetFloatInfo(d, "label", y, n) != 0) {
        fail("labels", err, errlen);
        goto out;
    }
    if (XGBoosterCreate(&d, 1, &b) != 0) {
        fail("booster", err, errlen);
        goto out;
    }
    char depth[32], eta[32], threads[32], seed[32], base[64];
    snprintf(depth, sizeof depth, "%d", m->params.depth);
    snprintf(eta, sizeof eta, "%.17g", m->params.eta);
    snprintf(threads, sizeof threads, "%d", m->params.threads);
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)(m->params.seed & 0x7fffffff));
    snprintf(base, sizeof base, "%.9g", mean);
    const char *params[][2] = { { "objective", "reg:squarederror" }, { "tree_method", "hist" },
                                { "max_depth", depth }, { "eta", eta }, { "nthread", threads },
                                { "seed", seed }, { "base_score", base }, { "verbosity", "0" } };
    for (size_t k = 0; k < sizeof params / sizeof params[0]; k++)
        if (XGBoosterSetParam(b, params[k][0], params[k][1]) != 0) {
            fail(params[k][0], err, errlen);
            goto out;
        }
    for (int it = 0; it < m->params.rounds; it++)
        if (XGBoosterUpdateOneIter(b, it, d) != 0) {
            fail("training", err, errlen);
            goto out;
        }
    if (x->booster)
        XGBoosterFree(x->booster);
    x->booster = b;
    b = NULL;
    rc = 0;
out:
    if (b)
        XGBoosterFree(b);
    if (d != x->all)
        XGDMatrixFree(d);
    return rc;
}

static int xgb_predict(rg_model *m, float *out, char *err, size_t errlen)
{
    xgb *x = m->impl;
    bst_ulong len = 0;
    const float *res = NULL;
    if (XGBoosterPredict(x->booster, x->all, 0, 0, 0, &len, &res) != 0)
        return fail("prediction", err, errlen);
    if (len != m->x->n) {
        snprintf(err, errlen, "xgboost prediction: %llu values for %u rows", (unsigned long long)len, m->x->n);
        return -1;
    }
    memcpy(out, res, sizeof *out * len);
    return 0;
}

static void xgb_free(rg_model *m)
{
    xgb *x = m->impl;
    if (!x)
        return;
    if (x->booster)
        XGBoosterFree(x->booster);
    if (x->all)
        XGDMatrixFree(x->all);
    free(x);
}

static const rg_backend ops = { xgb_fit, xgb_predict, xgb_free };

int rg_xgboost_init(rg_model *m, char *err, size_t errlen)
{
    const rc_rows *r = m->x;
    xgb *x = calloc(1, sizeof *x);
    m->ops = &ops;
    m->impl = x;
    if (!x) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    XGBSetGlobalConfig("{\"verbosity\":0}");
    int rc;
    if (!r->col) {
        rc = XGDMatrixCreateFromMat(r->val, r->n, r->dim, NAN, &x->all);
    } else {
        size_t *indptr = malloc(sizeof *indptr * ((size_t)r->n + 1));
        if (!indptr) {
            snprintf(err, errlen, "out of memory");
            xgb_free(m);
            m->impl = NULL;
            return -1;
        }
        for (size_t i = 0; i <= r->n; i++)
            indptr[i] = i * r->nnz;
        rc = XGDMatrixCreateFromCSREx(indptr, r->col, r->val, (size_t)r->n + 1, (size_t)r->n * r->nnz, r->dim,
                                      &x->all);
        free(indptr);
    }
    if (rc != 0) {
        fail("data", err, errlen);
        xgb_free(m);
        m->impl = NULL;
        return -1;
    }
    return 0;
}
