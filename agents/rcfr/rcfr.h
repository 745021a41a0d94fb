/* agents/rcfr/rcfr.h — regression CFR on a flat perfect-recall tree (gametree.h): RCFR, RCFR+ and f-RCFR.
 * The cumulative regrets live in a regressor (regressor.h) over feature rows (featureset.h), one model per
 * player; the current policy comes from the predictions through a link function (linkfn.h); the average
 * policy is an exact table of strategy sums. Updates alternate like sv_cfr: player 0's pass, then player
 * 1's, each on the other's updated policy. In each pass the instantaneous counterfactual regrets of the
 * traverser come from sv_cfr_pass(), then the traverser's model is refitted and predicts again:
 *   bootstrap (default)  targets = previous prediction + new regret (RCFR+: floored at 0);
 *   reservoir            a reservoir of (row, instantaneous regret) samples, the model fits their mean and
 *                        the cumulative regret is predicted as iteration x mean.
 * With onehot features and the table regressor the bootstrap targets are fitted exactly and RCFR is
 * tabular CFR (RCFR+ is CFR+). */
#ifndef AGENTS_RCFR_RCFR_H
#define AGENTS_RCFR_RCFR_H

#include <stdbool.h>

#include "featureset.h"
#include "gametree.h"
#include "linkfn.h"
#include "regressor.h"

typedef enum { RC_BOOTSTRAP = 0, RC_RESERVOIR = 1 } rc_targets;

typedef struct {
    bool plus;              /* RCFR+: targets floored at 0, linear averaging */
    rc_link link;           /* RC_LINK_MATCH for RCFR / RCFR+ */
    rc_targets targets;
    uint32_t reservoir;     /* reservoir samples per player (default 1,000,000) */
    rg_params regressor;
    uint64_t seed;          /* the reservoir's sampling */
} rc_config;

typedef struct {
    const sv_tree *tree;
    const rc_features *feat;
    rc_config cfg;
    long iteration;         /* completed iterations */
    rg_model *model[2];
    float *pred;            /* [n_actions]: predicted cumulative regrets */
    float *inst;            /* [n_actions]: scratch, a pass's regrets (bootstrap: added to the predictions) */
    double *strategy_sum;   /* [n_actions] */
    double *current;        /* [n_actions]: the current policy */
    float *y, *out;         /* scratch per row of the larger block */
    uint32_t *res_row[2];   /* reservoir: sampled rows and their regrets */
    float *res_val[2];
    uint32_t res_n[2];
    uint64_t res_seen[2], rng;
    double walk_seconds, fit_seconds;  /* time spent in traversals and in fitting + predicting */
} rc_rcfr;

/* A zeroed configuration with the defaults: RCFR, bootstrap targets, the xgboost regressor. */
rc_config rc_config_defaults(void);

/* 0, or -1 with a message in err (out of memory, a regressor that cannot take the features). */
int rc_init(rc_rcfr *r, const sv_tree *t, const rc_features *f, const rc_config *cfg, char *err, size_t errlen);
void rc_free(rc_rcfr *r);

/* One iteration (both players' passes). 0, or -1 with the regressor's message in err. */
int rc_iterate(rc_rcfr *r, char *err, size_t errlen);

/* Continues from pred[] and strategy_sum[] filled in from a checkpoint at this iteration: recomputes the
 * current policy (a reservoir starts empty). */
void rc_resume(rc_rcfr *r, long iteration);

/* The average policy (uniform where never reached): out[n_actions]. */
void rc_average(const rc_rcfr *r, double *out);

#endif
