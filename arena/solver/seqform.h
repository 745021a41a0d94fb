/* arena/solver/seqform.h — the exact Nash equilibrium of a two-player zero-sum game with perfect recall by
 * the sequence-form linear program (Koller, Megiddo and von Stengel), on a flat tree (gametree.h), solved
 * with GLPK's simplex. Each player's sequences are the empty sequence and its (information state, action)
 * pairs; a realisation plan x satisfies E x = e, x >= 0 (the empty sequence has weight 1, and an
 * information state's actions share the weight of its parent sequence). Player p's LP is
 *     max q_0  subject to  E_p x = e_p,  F_o' q - (A_p)' x <= 0,  x >= 0,  q free,
 * with o the opponent and A_p player p's payoff over pairs of sequences that end at a leaf (chance
 * probabilities folded in): q_0 is p's equilibrium value and x its equilibrium realisation plan. Both
 * players' LPs are solved; their values agree up to the LP tolerance (a check). docs/solver.md. */
#ifndef ARENA_SOLVER_SEQFORM_H
#define ARENA_SOLVER_SEQFORM_H

#include <stdbool.h>
#include <stdint.h>

#include <gmp.h>

#include "gametree.h"

typedef enum { SF_DUAL = 0, SF_PRIMAL = 1 } sf_method;
typedef enum { SF_GLPK = 0, SF_CLP = 1 } sf_solver;

/* A basis remembered across LPs (sf_options.warm): each column's and row's status under a key naming what
 * it stands for (a sequence by its information state's key and action, an information state by its key),
 * so that it carries over to the LP of a game with more information states and actions. */
typedef struct sf_basis sf_basis;

typedef struct {
    sf_solver solver;     /* GLPK (default) or COIN-OR CLP's dual simplex (lpclp.h; method and exact ignored) */
    sf_method method;     /* GLPK's simplex variant (default: dual simplex, falling back to primal) */
    bool exact;           /* after the floating-point simplex, glp_exact() (rational arithmetic) from its basis */
    bool verbose;         /* GLPK's progress lines on stderr */
    int only;             /* -1: both LPs; 0 or 1: only that player's LP, the other's plan read from its dual
                           * solution (the duals of the constraints over the other's sequences: each
                           * player's LP is the dual of the other's) */
    sf_basis *warm;       /* CLP with `only` 0 or 1: the LP starts from the basis stored here (the columns and
                           * rows an earlier LP had keep their status; new columns start at their lower
                           * bound, new rows with their slack basic) and its optimal basis is stored back.
                           * For a sequence of growing games (doseq.h), where a cold start re-solves from
                           * nothing each time */
    bool cold;            /* doseq.h, which otherwise keeps a basis of its own across its LPs with CLP: start
                           * each from scratch (for comparison) */
    double time_limit;    /* seconds each simplex may take (GLPK's tm_lim, CLP's maximum seconds); 0: no limit */
    const char *write_mps; /* when set: each LP is written to this file (free MPS, maximising; with `only` the
                            * one asked for) instead of solved, sf_solve returning 0 with no value or policy
                            * (for comparing other LP solvers on the same problem) */
} sf_options;

/* One player's LP. */
typedef struct {
    uint32_t sequences;   /* the player's sequences, the empty one included */
    uint32_t rows, cols;  /* constraints and variables */
    uint64_t nonzeros;    /* of the constraint matrix */
    int iterations;       /* simplex iterations */
    uint32_t reached;     /* the player's information states with positive realisation weight */
    double value;         /* the player's own equilibrium value (q_0) */
    double seconds;       /* building and solving */
} sf_lp;

typedef struct {
    sf_lp lp[2];          /* player 0's LP (Black's), player 1's; with `only`, the other one read from the
                           * duals (no iterations, value minus the solved one's) */
    uint64_t payoff_nonzeros; /* nonzero entries of the sequence-form payoff matrix */
    uint64_t leaves;      /* terminal histories */
    double value;         /* player 0's equilibrium value: the mean of lp[0].value and -lp[1].value */
    double gap;           /* |lp[0].value + lp[1].value|: how far the two LPs disagree */
} sf_result;

/* The tolerances the simplex runs with (GLPK's tol_bnd and tol_dj; tol_piv is GLPK's default 1e-10). */
#define SF_TOL_PRIMAL 1e-9
#define SF_TOL_DUAL 1e-9

void sf_options_default(sf_options *o);

/* Solves t (built with perfect-recall keys) and writes both players' behaviour strategies into policy
 * (laid out like t->actions): each information state's realisation weights normalised; the uniform
 * distribution where the player's own plan never reaches it. Returns 0, or -1 with a message in err (out
 * of memory, a tree that is not perfect recall, or GLPK failing to find an optimum). */
int sf_solve(const sv_tree *t, const sf_options *o, double *policy, sf_result *r, char *err, size_t errlen);

/* Solves player p's LP of t exactly (rational arithmetic, lpexact.h: QSopt_ex), starting from the basis start
 * holds (NULL: none; e.g. the warm basis of CLP's last solve of the same LP, so that the exact optimum is the
 * vertex CLP found), and writes both behaviour strategies into policy (t->n_actions rationals initialised by
 * the caller, laid out like t->actions; uniform where the player's own plan never reaches): p's from the
 * plan, the opponent's from the duals of the rows over its sequences; the game value for player 0 into
 * value. Meant for small trees (a restricted game, doseq.h). 0, or -1 with a message in err. */
int sf_solve_exact(const sv_tree *t, int p, const sf_basis *start, mpq_t *policy, mpq_t value, char *err,
                   size_t errlen);

/* An empty basis for sf_options.warm, or NULL when out of memory; freed with sf_basis_free (NULL is a no-op). */
sf_basis *sf_basis_new(void);
void sf_basis_free(sf_basis *b);

/* "GLPK 5.0" (the library linked). */
const char *sf_glpk_version(void);

#endif
