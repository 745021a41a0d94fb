/* arena/solver/lpclp.h — solving an LP built as a GLPK problem object (glp_prob) with COIN-OR CLP's dual
 * simplex (Clp_C_Interface.h) instead of GLPK's: the matrix, bounds and objective are copied into a CLP
 * model, solved, and the primal columns and row duals handed back in GLPK's sign convention. Used by the
 * sequence-form LP (seqform.h, --solver clp) where CLP is the faster (docs/solver.md). */
#ifndef ARENA_SOLVER_LPCLP_H
#define ARENA_SOLVER_LPCLP_H

#include <glpk.h>

typedef struct {
    double value;    /* the objective at the optimum (same sense as the GLPK problem) */
    int iterations;  /* simplex iterations */
} lc_result;

/* CLP's status of a column or row in a basis (the low bits of its status array). */
enum { LC_BASIC = 1, LC_AT_UPPER = 2, LC_AT_LOWER = 3 };

/* Solves lpx (not changed) with CLP's dual simplex within time_limit seconds (0: none). primal gets the
 * columns' values (glp_get_num_cols entries), dual the rows' duals as glp_get_row_dual would give them
 * (glp_get_num_rows entries). With start (not NULL: the columns' statuses, then the rows', LC_*), the dual
 * simplex starts from that basis (CLP repairs one with the wrong number of basic variables); should it
 * fail from there, the LP is solved again from scratch. With basis (not NULL, same layout), the optimal
 * basis is stored there. Returns 0 at an optimum, else -1 (not solved in time, infeasible, or out of
 * memory). */
int lc_solve(glp_prob *lpx, double time_limit, const unsigned char *start, double *primal, double *dual,
             unsigned char *basis, lc_result *r);

/* "CLP 1.17.6" (the library linked). */
const char *lc_version(void);

#endif
