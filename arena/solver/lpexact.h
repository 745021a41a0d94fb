/* arena/solver/lpexact.h — an LP built as a GLPK problem object (glp_prob) solved exactly, in rational
 * arithmetic, by QSopt_ex (Applegate, Cook, Dash and Espinoza): the matrix, bounds and objective are copied
 * as rationals into a QSopt_ex problem, which solves it in floating point, then proves (or repairs) the
 * optimal basis in GMP rationals. Used for the exact value and strategies of the sequence oracle's last
 * restricted game (seqform.h's sf_solve_exact, doseq.h). */
#ifndef ARENA_SOLVER_LPEXACT_H
#define ARENA_SOLVER_LPEXACT_H

#include <stddef.h>

#include <glpk.h>
#include <gmp.h>

/* Solves lpx (not changed): primal (glp_get_num_cols entries, initialised by the caller) gets the columns'
 * exact values at an optimum, dual (NULL, or glp_get_num_rows initialised entries) the rows' duals in
 * QSopt_ex's sign convention, value the objective. With start (NULL, or the columns' then the rows' statuses
 * as lpclp.h's LC_*, e.g. CLP's optimal basis), the floating-point phase starts from that basis, so that the
 * exact optimum is the vertex the floating-point solver found when that one is optimal (ignored unless exactly
 * as many are basic as there are rows). Each coefficient, bound and objective entry is read as the
 * fraction of denominator at most 1e6 whose nearest double it is (so 1/3 stored as a double is 1/3), else as
 * the double's exact binary value. Rows must be fixed, upper- or lower-bounded, columns boxed. Returns 0 at a
 * proven optimum, else -1 with a message in err (an unsupported bound, out of memory, no optimum). Not
 * thread-safe: it switches GMP's memory functions to QSopt_ex's while it runs. */
int lx_solve(glp_prob *lpx, const unsigned char *start, mpq_t *primal, mpq_t *dual, mpq_t value, char *err,
             size_t errlen);

/* n initialised rationals (NULL when out of memory), and their release (NULL is a no-op). */
mpq_t *lx_array(size_t n);
void lx_array_free(mpq_t *a, size_t n);

#endif
