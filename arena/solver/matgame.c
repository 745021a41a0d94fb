/* arena/solver/matgame.c — the restricted matrix game and its LP (matgame.h). */
#include "matgame.h"

#include <glpk.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int mg_init(mg_game *g, double umax)
{
    memset(g, 0, sizeof *g);
    glp_prob *lp = glp_create_prob();
    if (!lp)
        return -1;
    glp_set_obj_dir(lp, GLP_MAX);
    glp_add_rows(lp, 1);
    glp_add_cols(lp, 1);
    glp_set_row_bnds(lp, 1, GLP_FX, 1.0, 1.0);
    glp_set_col_bnds(lp, 1, GLP_DB, -1.0, 2 * umax + 1);
    glp_set_obj_coef(lp, 1, 1.0);
    g->lp = lp;
    g->shift = umax;
    return 0;
}

void mg_free(mg_game *g)
{
    free(g->M);
    free(g->x);
    free(g->y);
    free(g->pay);
    if (g->lp)
        glp_delete_prob(g->lp);
    memset(g, 0, sizeof *g);
}

size_t mg_bytes(const mg_game *g)
{
    return sizeof(double) * ((size_t)g->cap * g->cap + 3 * (size_t)g->cap);
}

int mg_add(mg_game *g, int p, mg_payoff payoff, void *ctx)
{
    uint32_t other = g->n[1 - p];
    if (g->n[p] + 1 > g->cap) { /* rows for Black's strategies, columns for White's, both of capacity cap */
        uint32_t cap = g->cap ? 2 * g->cap : 64;
        double *m = calloc((size_t)cap * cap, sizeof *m);
        double *x = malloc(sizeof *x * cap), *y = malloc(sizeof *y * cap), *pay = malloc(sizeof *pay * cap);
        if (!m || !x || !y || !pay) {
            free(m);
            free(x);
            free(y);
            free(pay);
            return -1;
        }
        for (uint32_t i = 0; i < g->n[0]; i++)
            memcpy(m + (size_t)i * cap, g->M + (size_t)i * g->cap, sizeof *m * g->n[1]);
        free(g->M);
        free(g->x);
        free(g->y);
        free(g->pay);
        g->M = m, g->x = x, g->y = y, g->pay = pay;
        g->cap = cap;
    }
    double *pay = g->pay;
    for (uint32_t k = 0; k < other; k++)
        pay[k] = payoff(ctx, k);
    int *ind = malloc(sizeof *ind * (other + 2));
    double *val = malloc(sizeof *val * (other + 2));
    if (!ind || !val) {
        free(ind);
        free(val);
        return -1;
    }
    uint32_t k = g->n[p];
    for (uint32_t o = 0; o < other; o++)
        g->M[p == 0 ? (size_t)k * g->cap + o : (size_t)o * g->cap + k] = pay[o];
    g->n[p]++;
    int len = 0;
    if (p == 0) { /* Black's strategy: a column */
        int col = glp_add_cols(g->lp, 1);
        glp_set_col_bnds(g->lp, col, GLP_DB, 0.0, 1.0);
        ind[++len] = 1, val[len] = 1.0;
        for (uint32_t j = 0; j < other; j++)
            if (pay[j] + g->shift != 0)
                ind[++len] = 2 + (int)j, val[len] = pay[j] + g->shift;
        glp_set_mat_col(g->lp, col, len, ind, val);
    } else { /* White's: a row */
        int row = glp_add_rows(g->lp, 1);
        glp_set_row_bnds(g->lp, row, GLP_LO, 0.0, 0.0);
        ind[++len] = 1, val[len] = -1.0;
        for (uint32_t i = 0; i < other; i++)
            if (pay[i] + g->shift != 0)
                ind[++len] = 2 + (int)i, val[len] = pay[i] + g->shift;
        glp_set_mat_row(g->lp, row, len, ind, val);
    }
    free(ind);
    free(val);
    return 0;
}

static int glp_quiet(void *info, const char *msg)
{
    (void)info;
    (void)msg;
    return 1;
}

void mg_support(const mg_game *g, uint32_t support[2])
{
    support[0] = support[1] = 0;
    for (uint32_t i = 0; i < g->n[0]; i++)
        support[0] += g->x[i] > 0;
    for (uint32_t j = 0; j < g->n[1]; j++)
        support[1] += g->y[j] > 0;
}

int mg_solve(mg_game *g, bool exact, double *v, uint64_t *iterations, char *err, size_t errlen)
{
    uint32_t m = g->n[0], n = g->n[1];
    double *x = g->x, *y = g->y;
    glp_prob *lp = g->lp;
    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    parm.meth = GLP_DUALP;
    int term = glp_term_out(GLP_OFF);
    glp_term_hook(glp_quiet, NULL);
    int before = glp_get_it_cnt(lp);
    int rc = glp_simplex(lp, &parm);
    if (rc == GLP_EBADB || rc == GLP_ESING || rc == GLP_ECOND) { /* the last basis unusable: start afresh */
        glp_std_basis(lp);
        rc = glp_simplex(lp, &parm);
    }
    if (rc == 0 && exact && glp_get_status(lp) == GLP_OPT)
        rc = glp_exact(lp, &parm);
    glp_term_out(term);
    glp_term_hook(NULL, NULL);
    if (rc != 0 || glp_get_status(lp) != GLP_OPT) {
        if (err && errlen)
            snprintf(err, errlen, "GLPK found no optimum of a restricted game (%u x %u; rc %d, status %d)", m, n, rc,
                     glp_get_status(lp));
        return -1;
    }
    *v = glp_get_obj_val(lp) - g->shift;
    int after = glp_get_it_cnt(lp);
    *iterations += (uint64_t)(after > before ? after - before : 0);
    double sx = 0, sy = 0;
    for (uint32_t i = 0; i < m; i++) {
        x[i] = fmax(0.0, glp_get_col_prim(lp, 2 + (int)i));
        sx += x[i];
    }
    for (uint32_t j = 0; j < n; j++) {
        y[j] = fmax(0.0, -glp_get_row_dual(lp, 2 + (int)j));
        sy += y[j];
    }
    if (!(sx > 0) || !(sy > 0)) {
        if (err && errlen)
            snprintf(err, errlen, "a restricted game's LP gave an empty mixture");
        return -1;
    }
    for (uint32_t i = 0; i < m; i++)
        x[i] /= sx;
    for (uint32_t j = 0; j < n; j++)
        y[j] /= sy;
    return 0;
}
