/* arena/solver/cfr.h — the CFR family on a flat tree (gametree.h): vanilla CFR, CFR+ and DCFR(1.5, 0, 2), all
 * with alternating updates (player 0's pass, then player 1's, each seeing the other's updated strategy).
 * Regrets are floats and strategy sums doubles, one of each per (information state, action). */
#ifndef ARENA_SOLVER_CFR_H
#define ARENA_SOLVER_CFR_H

#include "gametree.h"

typedef enum { SV_CFR, SV_CFR_PLUS, SV_DCFR } sv_algo;

typedef struct {
    const sv_tree *tree;
    sv_algo algo;
    long iteration;        /* completed iterations */
    float *regret;         /* [tree->n_actions] */
    double *strategy_sum;  /* [tree->n_actions] */
    double *current;       /* [tree->n_actions]: scratch, the current strategy */
} sv_cfr;

/* Parses "cfr", "cfr+" or "dcfr"; -1 otherwise. */
int sv_algo_parse(const char *name);
const char *sv_algo_name(sv_algo a);

int sv_cfr_init(sv_cfr *c, const sv_tree *t, sv_algo algo);
void sv_cfr_free(sv_cfr *c);

/* Continues from regrets and sums filled in from a checkpoint: sets the iteration count and recomputes the
 * current strategy. */
void sv_cfr_resume(sv_cfr *c, long iteration);

/* One player's pass of an iteration over t (the core of sv_cfr_iterate, shared with RCFR): walks the tree
 * with both players on `current`, adds the traverser's counterfactual regrets (opponent-and-chance reach
 * times the action's value minus the state's) to regret[] and weight times its reach times its strategy
 * to strategy_sum[], on the traverser's information states. Returns the traverser's expected value. */
double sv_cfr_pass(const sv_tree *t, int traverser, const double *current, float *regret, double *strategy_sum,
                   double weight);

/* Runs one iteration (both players' passes). */
void sv_cfr_iterate(sv_cfr *c);

/* The average strategy (uniform where an information state was never reached): out[n_actions]. CFR+ uses
 * linear averaging (iteration t weighs t), DCFR its (t / (t + 1))^2 discount, vanilla CFR uniform weights. */
void sv_cfr_average(const sv_cfr *c, double *out);

/* Per information state of t, sums (one per action) normalised into out; uniform where they are all 0. */
void sv_normalise(const sv_tree *t, const double *sums, double *out);

/* Regret matching on `regret` (n actions) into `out`: positive parts normalised, else uniform. */
void sv_regret_match(const float *regret, int n, double *out);

#endif
