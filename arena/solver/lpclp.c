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

/* CLP's primal and dual feasibility tolerances (its defaults are 1e-7): the values of these LPs are compared
 * with GLPK's to 1e-9. */
#define LC_TOLERANCE 1e-9

int lc_solve(glp_prob *lpx, double time_limit, const unsigned char *start, double *primal, double *dual,
             unsigned char *basis, lc_result *r)
{
    int n = glp_get_num_cols(lpx), m = glp_get_num_rows(lpx), nz = glp_get_num_nz(lpx);
    CoinBigIndex *colstart = malloc(sizeof *colstart * (size_t)(n + 1));
    int *index = malloc(sizeof *index * (size_t)(nz + 1)), *ind = malloc(sizeof *ind * (size_t)(m + 1));
    double *value = malloc(sizeof *value * (size_t)(nz + 1)), *val = malloc(sizeof *val * (size_t)(m + 1));
    double *col_lo = malloc(sizeof(double) * (size_t)n), *col_hi = malloc(sizeof(double) * (size_t)n);
    double *obj = malloc(sizeof(double) * (size_t)n);
    double *row_lo = malloc(sizeof(double) * (size_t)m), *row_hi = malloc(sizeof(double) * (size_t)m);
    Clp_Simplex *model = NULL;
    int rc = -1;
    if (!colstart || !index || !ind || !value || !val || !col_lo || !col_hi || !obj || !row_lo || !row_hi)
        goto out;
    colstart[0] = 0;
    for (int j = 1; j <= n; j++) { /* column-major, 0-based rows */
        int len = glp_get_mat_col(lpx, j, ind, val);
        for (int k = 1; k <= len; k++) {
            index[colstart[j - 1] + k - 1] = ind[k] - 1;
            value[colstart[j - 1] + k - 1] = val[k];
        }
        colstart[j] = colstart[j - 1] + len;
        lc_bounds(glp_get_col_type(lpx, j), glp_get_col_lb(lpx, j), glp_get_col_ub(lpx, j), &col_lo[j - 1], &col_hi[j - 1]);
        obj[j - 1] = glp_get_obj_coef(lpx, j);
    }
    for (int i = 1; i <= m; i++)
        lc_bounds(glp_get_row_type(lpx, i), glp_get_row_lb(lpx, i), glp_get_row_ub(lpx, i), &row_lo[i - 1], &row_hi[i - 1]);
    double sense = glp_get_obj_dir(lpx) == GLP_MAX ? -1 : 1;
    int warm = 0; /* iterations from the given basis when that attempt failed */
    for (int cold = start == NULL; cold < 2; cold++) {
        if (model)
            Clp_deleteModel(model);
        if (!(model = Clp_newModel()))
            goto out;
        Clp_loadProblem(model, n, m, colstart, index, value, col_lo, col_hi, obj, row_lo, row_hi);
        Clp_setLogLevel(model, 0);
        Clp_setOptimizationDirection(model, sense);
        Clp_setPrimalTolerance(model, LC_TOLERANCE);
        Clp_setDualTolerance(model, LC_TOLERANCE);
        if (time_limit > 0)
            Clp_setMaximumSeconds(model, time_limit);
        if (cold) {
            Clp_initialDualSolve(model);
            break;
        }
        Clp_copyinStatus(model, start);
        Clp_dual(model, 0);
        if (Clp_status(model) == 0 || Clp_status(model) == 3) /* optimal, or out of time */
            break;
        warm = Clp_numberIterations(model); /* numerical trouble from that basis: from scratch */
    }
    if (Clp_status(model) != 0)
        goto out;
    const unsigned char *st = Clp_statusArray(model);
    for (int k = 0; basis && k < n + m; k++)
        basis[k] = st ? st[k] & 7 : (k < n ? LC_AT_LOWER : LC_BASIC);
    const double *x = Clp_getColSolution(model), *y = Clp_getRowPrice(model);
    for (int j = 0; j < n; j++)
        primal[j] = x[j];
    for (int i = 0; i < m; i++)
        dual[i] = y[i];
    r->value = Clp_getObjValue(model);
    r->iterations = warm + Clp_numberIterations(model);
    rc = 0;
out:
    if (model)
        Clp_deleteModel(model);
    free(colstart);
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
