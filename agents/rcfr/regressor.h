/* agents/rcfr/regressor.h — the regret regressor behind RCFR: a model bound to one block of feature rows
 * (featureset.h) that is fitted to one target per row, or to targets for a list of rows (repeats allowed),
 * and predicts every row of the block. Three backends:
 *   xgboost  gradient-boosted regression trees (XGBoost's C API, libxgboost-dev): the default;
 *   fann     a one-hidden-layer perceptron (FANN, libfann-dev), warm-started from its last fit;
 *   table    the exact least-squares fit over all functions of the features: the mean target of each
 *            distinct row (with onehot features this is tabular CFR).
 * Every fit starts from the parameters below; the same rows, targets and seed give the same predictions. */
#ifndef AGENTS_RCFR_REGRESSOR_H
#define AGENTS_RCFR_REGRESSOR_H

#include <stddef.h>
#include <stdint.h>

#include "featureset.h"

typedef enum { RG_XGBOOST = 0, RG_FANN = 1, RG_TABLE = 2 } rg_kind;

typedef struct {
    rg_kind kind;
    int rounds;        /* xgboost: boosting rounds per fit (default 30) */
    int depth;         /* xgboost: maximum tree depth (default 8) */
    double eta;        /* xgboost: learning rate (default 0.3) */
    int hidden;        /* fann: hidden units (default 64) */
    int epochs;        /* fann: RPROP epochs per fit (default 30) */
    int threads;       /* xgboost: threads (default 1: bit-for-bit reproducible) */
    uint64_t seed;
} rg_params;

/* The defaults above for a backend. */
rg_params rg_defaults(rg_kind kind);

/* Parses "xgboost", "fann" or "table"; -1 otherwise. */
int rg_kind_parse(const char *name);
const char *rg_kind_name(rg_kind k);

typedef struct rg_model rg_model;

/* A model over the rows of x (x must outlive it). NULL with a message in err (out of memory, or a
 * backend that cannot take these rows: fann needs a dense feature set). */
rg_model *rg_new(const rg_params *p, const rc_rows *x, char *err, size_t errlen);
void rg_free(rg_model *m);

/* Fits y[i] at row idx[i] for i < n (idx NULL: row i, and n == x->n). 0, or -1 with a message in err. */
int rg_fit(rg_model *m, const uint32_t *idx, uint32_t n, const float *y, char *err, size_t errlen);

/* Predicts every row of x into out[x->n] (0 everywhere before the first fit). 0, or -1 with a message. */
int rg_predict(rg_model *m, float *out, char *err, size_t errlen);

#endif
