/* arena/solver/infowalk.h — exact evaluation of a policy on Dark Hex boards whose history tree is far too
 * large to build (3x3 classical: about 1.9e10 histories, 6 million information states).
 *
 * Each player's best response is computed by walking that player's own information states once, in
 * depth-first order, carrying with each one the vector of the opponent's information states consistent
 * with it (a history is exactly such a pair) and their reach under the opponent's policy. At each of the
 * walker's actions the vector splits into the opponent states that hold the cell (a collision) and the
 * others; the opponent's turn maps every state to its successors with their probabilities; states of zero
 * reach are dropped. Values are sums over the vector, so a best response is a max per information state
 * (over whole information states, never a clairvoyant bound) and the policy's expected value comes out of
 * the same walk. When the opponent's policy ignores the opponent's history (uniform, or a file with view
 * keys), opponent states that see the same are merged into one element (reaches added): same values, far
 * fewer pairs; with a closed file (policy.h) so are those that have left the file, and, in the variants
 * without reports, those that reach a state whose file policy is uniform there and at every later state
 * of the opponent's (the subtree's states listed, or in a closed file missing). The walker's first
 * actions are independent tasks shared by the threads; the result does not depend on the thread count.
 * A state's probabilities are normalised as read (divided by their sum), as pf_on_tree() and policy-bot
 * read them.
 *
 * Policies are looked up by the perfect-recall key (hx_key_hash() of the events) or, for files with view
 * keys, by hx_view_key_of(); a state missing from its file is played uniformly and counted once (in a
 * closed file, the player's later states are played uniformly too, without being looked up).
 *
 * Supported: the six dark variants, boards of at most IW_MAX_CELLS cells, no swap rule. */
#ifndef ARENA_SOLVER_INFOWALK_H
#define ARENA_SOLVER_INFOWALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "policy.h"
#include "variant.h"

#define IW_MAX_CELLS 16

typedef struct {
    double ev_black;        /* Black's expected utility (+1 win, -1 loss) when both follow the policy */
    double br[2];           /* br[i]: player i's best-response value (its own utility) */
    double nashconv;        /* br[0] + br[1] */
    double exploitability;  /* nashconv / 2 */
    double ev_white;        /* White's expected utility from White's walk (-ev_black up to rounding) */
    uint64_t infosets[2];   /* information states of player i met with positive opponent reach */
    uint64_t missing[2];    /* distinct information states of player i looked up and not in its file */
    uint64_t pairs;         /* (walker state, opponent element) pairs visited, both walks (merged ones once) */
} iw_result;

/* Called after every finished task (from the thread that finished it, one call at a time). */
typedef void (*iw_progress)(void *ctx, int done, int total);

/* The default thread count: the processors online (at least 1). */
int iw_default_threads(void);

/* Whether the walk handles this game; otherwise *why says why. */
bool iw_supported(hx_variant v, int rows, int cols, bool swap, const char **why);

/* Evaluates Black playing `black` and White playing `white` (either NULL: uniform) on an R x C board of
 * variant v, with `threads` threads (at least 1). Both files must be for this game (the caller checks
 * their headers). Returns 0, or -1 with a message in err (out of memory, or a file entry whose actions
 * are not the legal cells of its state: a file for another game). */
int iw_evaluate(hx_variant v, int rows, int cols, const pf_policy *black, const pf_policy *white, int threads,
                iw_progress progress, void *ctx, iw_result *out, char *err, size_t errlen);

/* ---- full-width CFR+ over the walk (boards whose tree does not fit) ----
 *
 * The training table holds every information state of both players with its legal cells in ascending
 * order; regret[] (floats) and sum[] (the average strategy's sums) are laid out like its actions. An
 * iteration is CFR+ with alternating updates and linear averaging, as cfr.h on a built tree: for each
 * player in turn, its average strategy gains iteration times its own reach times its current strategy
 * (one walk against the uniform opponent, merged, following only the player's actions of positive
 * probability), then its regrets gain the counterfactual values against the opponent's current
 * strategy (one walk, pruned where the opponent's strategy is zero, and merging the opponent's states
 * that have no regret at or below them: they play uniformly from there on), floored at 0, and its
 * current strategy becomes regret matching on them. Both walks use the threads. */
typedef struct iw_cfr iw_cfr;

/* Every information state of the game into t (an empty table on return of -1). Single-threaded. */
int iw_enumerate(hx_variant v, int rows, int cols, sv_tree *t, char *err, size_t errlen);

/* A trainer over `table` (from iw_enumerate or a checkpoint) and its arrays, which it updates in place
 * and which must outlive it; the current strategies start as regret matching on regret[]. NULL with a
 * message when out of memory or the table is not this game's. */
iw_cfr *iw_cfr_new(hx_variant v, int rows, int cols, const sv_tree *table, float *regret, double *sum, int threads,
                   char *err, size_t errlen);
/* One iteration, weighing `weight` in the average (CFR+: the iteration's number, 1 for the first; 0 leaves
 * the average alone and skips its walks). Returns 0, or -1 with a message. */
int iw_cfr_iterate(iw_cfr *c, double weight, char *err, size_t errlen);
/* (information state, opponent state) pairs walked so far, all passes. */
uint64_t iw_cfr_pairs(const iw_cfr *c);
void iw_cfr_free(iw_cfr *c);

#endif
