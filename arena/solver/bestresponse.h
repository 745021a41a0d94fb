/* arena/solver/bestresponse.h — exact evaluation of a policy on a flat tree (gametree.h): its expected value, each
 * player's best-response value against the other's part, NashConv and exploitability (NashConv / 2). A
 * policy is one probability per (information state, action), laid out like tree->actions. The best
 * response is computed over whole information states (never a clairvoyant per-history bound). */
#ifndef ARENA_SOLVER_BESTRESPONSE_H
#define ARENA_SOLVER_BESTRESPONSE_H

#include "gametree.h"

typedef struct {
    double ev0;            /* player 0's expected utility when both follow the policy */
    double br[2];          /* br[i]: player i's best-response value against the other's part */
    double nashconv;       /* br[0] + br[1] (the game is zero-sum) */
    double exploitability; /* nashconv / 2 */
} sv_eval;

/* Returns 0, or -1 when out of memory. */
int sv_evaluate(const sv_tree *t, const double *policy, sv_eval *out);

/* The uniform policy over every information state's actions: out[n_actions]. */
void sv_uniform(const sv_tree *t, double *out);

#endif
