/* agents/rcfr/srcfr.h — sampled regression CFR: RCFR, RCFR+ and f-RCFR without a built tree, for boards
 * whose tree does not fit (3x3, 4x3). Each iteration runs, per player in turn, a batch of external-sampling
 * traversals (as sv_mccfr: every action of the traverser, one sampled action of the opponent and of
 * chance) on the current policy, then refits that player's regressor and predicts again.
 *
 * Information states are interned on first visit into a table without nodes (sv_tree_intern, perfect-recall
 * keys); each new state appends the feature rows of its actions (rc_features_row on the game the traversal
 * holds, or one onehot column per row) to its player's growing block. The current policy at a state is the
 * link function over the model's predictions for its actions, kept in pred[] as the model predicted them
 * after its last fit (a state first met in the current iteration has no prediction yet and plays the link
 * of zeros, uniform for every link). The instantaneous regrets of a batch are the sampled counterfactual
 * regrets averaged over its traversals (an unbiased estimate of one full-width iteration's regrets, so the
 * link's scale, e.g. tau, means what it means in rcfr.h). Targets:
 *   bootstrap  previous prediction + the batch's regret, RCFR+ floored at 0, on the rows of the states
 *              the batch visited (xgboost, fann: the fit costs what the batch met, and the other states'
 *              predictions come from what the model generalises), or on every row with the table
 *              regressor (a class no target reaches would predict 0; its fit is cheap): with onehot
 *              features that is exactly external-sampling MCCFR (batch 1 draws the same samples as
 *              sv_mccfr with the same seed).
 *   reservoir  the rows of the states the batch visited go into a reservoir with their regrets; the
 *              model fits their mean and the cumulative regret is predicted as iteration x mean.
 * With outcome set (after rc_sampled_init), a traversal is one sampled history instead (outcome-sampling
 * MCCFR, Lanctot et al. 2009): the traverser draws from epsilon-uniform + (1 - epsilon) its policy and the
 * regrets of the states on the path are importance-weighted by that draw's probability. Far noisier per
 * traversal but it meets a handful of states, where one external-sampling traversal of 4x3 meets millions.
 * The average policy is a table of strategy sums over the met states (the opponent's current policy added
 * where it is sampled, weighted by the iteration for RCFR+), as in sv_mccfr. */
#ifndef AGENTS_RCFR_SRCFR_H
#define AGENTS_RCFR_SRCFR_H

#include "efg.h"
#include "featureset.h"
#include "gametree.h"
#include "rcfr.h"

typedef struct {
    const efg_game *g;      /* a Dark Hex game (sv_darkhex_game): its states are hx_games */
    rc_config cfg;
    rc_set set;
    uint32_t batch;         /* traversals per player per iteration */
    bool fit_all;           /* bootstrap: fit every row (the table regressor), else the visited states' */
    bool outcome;           /* outcome sampling instead of external sampling (default false) */
    double epsilon;         /* outcome sampling's exploration (default 0.6) */
    sv_tree table;          /* information states met, perfect-recall keys, no nodes */
    long iteration;
    rc_rows rows[2];        /* per player: the rows of its states' actions, in the order met */
    uint32_t row_cap[2];
    uint32_t *row_of;       /* [table.n_actions]: the row of each table action in its player's block */
    uint32_t *global[2];    /* [rows[p].n]: the table action of each row */
    float *pred;            /* [table.n_actions]: the model's predicted cumulative regrets */
    float *inst;            /* [table.n_actions]: the current batch's regrets */
    double *strategy_sum;   /* [table.n_actions] */
    uint32_t cap;           /* capacity of the per-action arrays */
    uint32_t *visited;      /* the traverser states the batch visited */
    uint32_t n_visited, visited_cap;
    long *last_visit;       /* [table.n_infosets]: the iteration that last listed the state */
    uint32_t *res_row[2];
    float *res_val[2];
    uint32_t res_n[2];
    uint64_t res_seen[2];
    uint64_t rng, res_rng;  /* the traversals' samples; the reservoir's */
    unsigned char *states;  /* one game state per depth */
    double walk_seconds, fit_seconds;
    long traversals;
} rc_sampled;

/* g is a Dark Hex game (its states hx_games); set is the feature set (onehot: one column per row). 0, or
 * -1 with a message in err (out of memory). */
int rc_sampled_init(rc_sampled *s, const efg_game *g, rc_set set, const rc_config *cfg, uint32_t batch, char *err,
                    size_t errlen);
void rc_sampled_free(rc_sampled *s);

/* One iteration: a batch of traversals and a refit for player 0, then for player 1. 0, or -1 with a
 * message in err (out of memory, a regressor error). */
int rc_sampled_iterate(rc_sampled *s, char *err, size_t errlen);

/* The average policy per table action (uniform where never updated): out[table.n_actions]. */
void rc_sampled_average(const rc_sampled *s, double *out);

#endif
