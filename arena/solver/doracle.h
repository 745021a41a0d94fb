/* arena/solver/doracle.h — the exact value of a two-player zero-sum game with perfect recall by the double-oracle
 * method (McMahan, Gordon and Blum), on a flat tree (gametree.h): a matrix game over growing sets of pure
 * strategies of each player, whose equilibrium mixtures are answered by the full game's exact best responses.
 *
 * A pure strategy is one action per information state of its player that the player's own actions reach
 * (stored as one byte per information state of the player: the action's index, or DO_UNREACHED). The
 * restricted game's payoff matrix has one entry per pair of pure strategies in the sets: Black's exact
 * expected utility when both follow them (a single path of the tree when there is no chance node). Each
 * iteration solves the restricted game by GLPK's simplex (optionally then its exact rational simplex,
 * glp_exact, from that basis) for Black's mixture x and White's y and the restricted value v, turns each mixture into the
 * behaviour strategy it is realisation-equivalent to, and computes both best responses on the whole tree:
 *     upper = Black's best-response value against y      (no Black strategy gets more against y: V <= upper)
 *     lower = -(White's best-response value against x)   (x guarantees Black at least this:      lower <= V)
 * so lower <= V <= upper for the game value V, whatever the sets. Each best response that beats v (by more
 * than 1e-12) joins its player's set; the method stops when the best bounds met so far are within the
 * tolerance (the certificate: the two strategies kept, each a mixture, are an equilibrium up to that gap),
 * or when neither best response is new (then the bounds are v up to rounding), or at a limit. docs/solver.md. */
#ifndef ARENA_SOLVER_DORACLE_H
#define ARENA_SOLVER_DORACLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gametree.h"

#define DO_UNREACHED 0xFF

typedef struct {
    int iteration;         /* 1, 2, ... */
    double value;          /* the restricted game's value for Black */
    double lower, upper;   /* the best bounds so far */
    uint32_t strategies[2], support[2];
    double seconds;        /* since the start */
} do_progress_info;

typedef void (*do_progress)(void *ctx, const do_progress_info *p);

typedef struct {
    double tolerance;      /* stop when upper - lower <= tolerance (default 1e-10) */
    double time_limit;     /* seconds (0: none); checked between iterations */
    int max_iterations;    /* 0: none */
    bool exact;            /* glp_exact after each restricted simplex (default false: it can take minutes on a
                            * single restricted game of ~700 x 700; the bounds hold either way) */
    do_progress progress;  /* called after every iteration (NULL: none) */
    void *ctx;
    bool fix_root;         /* Black's action at the root is fixed to root_action (default false: free): the
                            * game solved is then the one where Black's first action is that one (e.g. the
                            * value after a first cell); every pure strategy of Black, its best responses
                            * and the policy written play it there. The root must be Black's decision. */
    uint16_t root_action;  /* with fix_root: the index in the root information state's action list (for Dark
                            * Hex, the actions are the cells in ascending order: the index is the cell) */
    double *root_values;   /* when not NULL (and the root is Black's): receives, for each root action, Black's
                            * best-response value after it against White's strategy of the best upper bound
                            * (their maximum is that bound; with fix_root, the others are still filled) */
} do_options;

typedef struct {
    double value;          /* the last restricted game's value for Black */
    double lower, upper;   /* the best bounds on the game value found (see the top) */
    double gap;            /* upper - lower */
    bool converged;        /* gap <= tolerance */
    bool stalled;          /* stopped because no best response was new while the gap was above tolerance */
    int iterations;        /* restricted games solved */
    uint32_t strategies[2];/* pure strategies in each player's set at the end */
    uint32_t support[2];   /* of those, with positive weight in the last restricted equilibrium */
    uint64_t lp_iterations;/* simplex iterations, all restricted games */
    double seconds, seconds_lp, seconds_oracle;
    size_t bytes;          /* the sets, the payoff matrix and the oracle's work arrays */
} do_result;

void do_options_default(do_options *o);

/* Solves t (built with perfect-recall keys; at most 255 actions per information state) and writes into
 * policy (laid out like t->actions, may be NULL) Black's behaviour strategy of the mixture that gave the
 * best lower bound and White's of the one that gave the best upper bound (uniform where the player's own
 * mixture never reaches a state): its NashConv is upper - lower. Returns 0 (converged or not: see r), or
 * -1 with a message in err (out of memory, GLPK failing, fix_root with a root that is not Black's or an
 * action it does not have). */
int do_solve(const sv_tree *t, const do_options *o, double *policy, do_result *r, char *err, size_t errlen);

#endif
