/* arena/solver/lpclp.c — a GLPK problem solved by COIN-OR CLP's dual simplex (lpclp.h). */
#include "lpclp.h"

#include <float.h>
#include <stdio.h>
#include <stdlib.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstrict-prototypes" /* Clp_C_Interface.h declares a function with () */
#include "ClpConfig.h"
#include "Clp_C_Interface.h"
#pragma GCC diagnostic pop

const char *lc_version(void) { return "CLP " CLP_VERSION; }

/* GLPK's bounds of a row or column as CLP's [lower, upper]. */
static void lc_bounds(int type, double lb, double ub, double *lo, double *hi)
{
    *lo = type == GLP_FR || type == GLP_UP ? -DBL_MAX : lb;
    *hi = type == GLP_FR || type == GLP_LO ? DBL_MAX : type == GLP_FX ? lb : ub;
}

int lc_solve(glp_prob *lpx, double time_limit, double *primal, double *dual, lc_result *r)
{
    int n = glp_get_num_cols(lpx), m = glp_get_num_rows(lpx), nz = glp_get_num_nz(lpx);
    CoinBigIndex *start = malloc(sizeof *start * (size_t)(n + 1));
    int *index = malloc(sizeof *index * (size_t)(nz + 1)), *ind = malloc(sizeof *ind * (size_t)(m + 1));
    double *value = malloc(sizeof *value * (size_t)(nz + 1)), *val = malloc(sizeof *val * (size_t)(m + 1));
    double *col_lo = malloc(sizeof(double) * (size_t)n), *col_hi = malloc(sizeof(double) * (size_t)n);
    double *obj = malloc(sizeof(double) * (size_t)n);
    double *row_lo = malloc(sizeof(double) * (size_t)m), *row_hi = malloc(sizeof(double) * (size_t)m);
    Clp_Simplex *model = Clp_newModel();
    int rc = -1;
    if (!start || !index || !ind || !value || !val || !col_lo || !col_hi || !obj || !row_lo || !row_hi || !model)
        goto out;
    start[0] = 0;
    for (int j = 1; j <= n; j++) { /* column-major, 0-based rows */
        int len = glp_get_mat_col(lpx, j, ind, val);
        for (int k = 1; k <= len; k++) {
            index[start[j - 1] + k - 1] = ind[k] - 1;
            value[start[j - 1] + k - 1] = val[k];
        }
        start[j] = start[j - 1] + len;
        lc_bounds(glp_get_col_type(lpx, j), glp_get_col_lb(lpx, j), glp_get_col_ub(lpx, j), &col_lo[j - 1], &col_hi[j - 1]);
        obj[j - 1] = glp_get_obj_coef(lpx, j);
    }
    for (int i = 1; i <= m; i++)
        lc_bounds(glp_get_row_type(lpx, i), glp_get_row_lb(lpx, i), glp_get_row_ub(lpx, i), &row_lo[i - 1], &row_hi[i - 1]);
    Clp_loadProblem(model, n, m, start, index, value, col_lo, col_hi, obj, row_lo, row_hi);
    Clp_setLogLevel(model, 0);
    double sense = glp_get_obj_dir(lpx) == GLP_MAX ? -1 : 1;
    Clp_setOptimizationDirection(model, sense);
    if (time_limit > 0)
        Clp_setMaximumSeconds(model, time_limit);
    Clp_initialDualSolve(model);
    if (Clp_status(model) != 0)
        goto out;
    const double *x = Clp_getColSolution(model), *y = Clp_getRowPrice(model);
    for (int j = 0; j < n; j++)
        primal[j] = x[j];
    for (int i = 0; i < m; i++)
        dual[i] = y[i];
    r->value = Clp_getObjValue(model);
    r->iterations = Clp_numberIterations(model);
    rc = 0;
out:
    if (model)
        Clp_deleteModel(model);
    free(start);
    free(index);
    free(ind);
    free(value);
    free(val);
    free(col_lo);
    free(col_hi);
    free(obj);
    free(row_lo);
    free(row_hi);
    return rc;
}
