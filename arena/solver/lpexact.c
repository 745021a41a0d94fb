/* arena/solver/lpexact.c — a GLPK problem solved exactly by QSopt_ex (lpexact.h): the library's one-time
 * setup, the coefficients read as small fractions, the problem copied column by column. */
#include "lpexact.h"
#include "lpclp.h"

#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstrict-prototypes"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include <qsopt_ex/QSopt_ex.h>
#pragma GCC diagnostic pop

/* The largest denominator a coefficient is read with. */
#define LX_MAX_DEN 1000000

static pthread_once_t lx_once = PTHREAD_ONCE_INIT;

/* GMP's memory functions: the process's own, and QSopt_ex's (its setup installs allocators of its own, whose
 * blocks the standard ones cannot resize or free, and the other way round). Every GMP number QSopt_ex sees
 * is made and freed under its functions, every other one under the process's. */
typedef struct {
    void *(*alloc)(size_t);
    void *(*realloc)(void *, size_t, size_t);
    void (*free)(void *, size_t);
} lx_memory;
static lx_memory lx_own, lx_theirs;

static void lx_use(const lx_memory *m)
{
    mp_set_memory_functions(m->alloc, m->realloc, m->free);
}

/* QSopt_ex's global setup, once per process (it is never undone: QSexactClear would break a later call).
 * It announces its memory pool on stderr; that line is dropped. */
static void lx_start(void)
{
    fflush(stderr);
    int saved = dup(2), null = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (saved >= 0 && null >= 0)
        dup2(null, 2);
    mp_get_memory_functions(&lx_own.alloc, &lx_own.realloc, &lx_own.free);
    QSexactStart();
    QSexact_set_precision(128);
    mp_get_memory_functions(&lx_theirs.alloc, &lx_theirs.realloc, &lx_theirs.free);
    lx_use(&lx_own);
    fflush(stderr);
    if (saved >= 0 && null >= 0)
        dup2(saved, 2);
    if (saved >= 0)
        close(saved);
    if (null >= 0)
        close(null);
}

/* x as the fraction of denominator at most LX_MAX_DEN whose nearest double it is (continued fractions), else
 * its exact binary value. */
static void lx_rational(double x, mpq_t q)
{
    if (x == floor(x) && fabs(x) < 9e15) {
        mpq_set_d(q, x);
        return;
    }
    double r = fabs(x);
    int64_t h0 = 0, h1 = 1, k0 = 1, k1 = 0;
    for (int i = 0; i < 40; i++) {
        double a = floor(r);
        if (a > 9e15)
            break;
        int64_t h = (int64_t)a * h1 + h0, k = (int64_t)a * k1 + k0;
        if (k > LX_MAX_DEN)
            break;
        h0 = h1, h1 = h, k0 = k1, k1 = k;
        if ((double)h1 / (double)k1 == fabs(x)) {
            mpq_set_si(q, x < 0 ? -(long)h1 : (long)h1, (unsigned long)k1);
            mpq_canonicalize(q);
            return;
        }
        double frac = r - a;
        if (frac < 1e-300)
            break;
        r = 1 / frac;
    }
    mpq_set_d(q, x);
}

mpq_t *lx_array(size_t n)
{
    mpq_t *a = malloc(sizeof *a * (n ? n : 1));
    for (size_t i = 0; a && i < n; i++)
        mpq_init(a[i]);
    return a;
}

void lx_array_free(mpq_t *a, size_t n)
{
    for (size_t i = 0; a && i < n; i++)
        mpq_clear(a[i]);
    free(a);
}

int lx_solve(glp_prob *lpx, const unsigned char *start, mpq_t *primal, mpq_t *dual_out, mpq_t value, char *err,
             size_t errlen)
{
    pthread_once(&lx_once, lx_start);
    lx_use(&lx_theirs);
    int n = glp_get_num_cols(lpx), m = glp_get_num_rows(lpx), nz = glp_get_num_nz(lpx);
    int *cnt = malloc(sizeof *cnt * (size_t)(n + 1)), *beg = malloc(sizeof *beg * (size_t)(n + 1));
    int *index = malloc(sizeof *index * (size_t)(nz + 1)), *ind = malloc(sizeof *ind * (size_t)(m + 1));
    double *val = malloc(sizeof *val * (size_t)(m + 1));
    char *sense = malloc((size_t)m + 1);
    mpq_t *coef = lx_array((size_t)nz), *obj = lx_array((size_t)n), *lo = lx_array((size_t)n),
          *up = lx_array((size_t)n), *rhs = lx_array((size_t)m), *dual = lx_array((size_t)m),
          *x = lx_array((size_t)n + (size_t)m); /* QSopt_ex's solution: the columns, then the rows' logicals */
    mpq_QSprob qs = NULL;
    int rc = -1;
    if (!cnt || !beg || !index || !ind || !val || !sense || !coef || !obj || !lo || !up || !rhs || !dual || !x) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    int at = 0;
    for (int j = 1; j <= n; j++) {
        int len = glp_get_mat_col(lpx, j, ind, val);
        beg[j - 1] = at, cnt[j - 1] = len;
        for (int k = 1; k <= len; k++, at++) {
            index[at] = ind[k] - 1;
            lx_rational(val[k], coef[at]);
        }
        if (glp_get_col_type(lpx, j) != GLP_DB && glp_get_col_type(lpx, j) != GLP_FX) {
            snprintf(err, errlen, "column %d is not boxed (the exact solver takes boxed columns only)", j);
            goto out;
        }
        lx_rational(glp_get_col_lb(lpx, j), lo[j - 1]);
        lx_rational(glp_get_col_ub(lpx, j), up[j - 1]);
        lx_rational(glp_get_obj_coef(lpx, j), obj[j - 1]);
    }
    for (int i = 1; i <= m; i++) {
        int type = glp_get_row_type(lpx, i);
        if (type != GLP_FX && type != GLP_UP && type != GLP_LO) {
            snprintf(err, errlen, "row %d is free or double-bounded (the exact solver takes =, <= and >= rows)", i);
            goto out;
        }
        sense[i - 1] = type == GLP_FX ? 'E' : type == GLP_UP ? 'L' : 'G';
        lx_rational(type == GLP_UP ? glp_get_row_ub(lpx, i) : glp_get_row_lb(lpx, i), rhs[i - 1]);
    }
    qs = mpq_QSload_prob("lp", n, m, cnt, beg, index, coef, glp_get_obj_dir(lpx) == GLP_MAX ? QS_MAX : QS_MIN, obj,
                         rhs, sense, lo, up, NULL, NULL);
    if (!qs) {
        snprintf(err, errlen, "QSopt_ex could not load the LP (%d x %d, %d nonzeros)", m, n, nz);
        goto out;
    }
    QSbasis basis = { 0 }; /* the starting basis: QSopt_ex replaces its arrays by the optimal one's (malloc'd) */
    int basic = 0;
    for (int k = 0; start && k < n + m; k++)
        basic += start[k] == LC_BASIC;
    if (basic != m) /* not a basis (QSopt_ex would refuse it, then fail): none */
        start = NULL;
    if (start && (basis.cstat = malloc((size_t)n + 1)) && (basis.rstat = malloc((size_t)m + 1))) {
        basis.nstruct = n, basis.nrows = m;
        for (int j = 0; j < n; j++)
            basis.cstat[j] = start[j] == LC_BASIC ? QS_COL_BSTAT_BASIC : start[j] == LC_AT_UPPER ? QS_COL_BSTAT_UPPER
                                                                                                  : QS_COL_BSTAT_LOWER;
        for (int i = 0; i < m; i++) /* a tight row: its logical at its bound */
            basis.rstat[i] = start[n + i] == LC_BASIC ? QS_ROW_BSTAT_BASIC : QS_ROW_BSTAT_LOWER;
    }
    int status = 0;
    int solved = QSexact_solver(qs, x, dual, basis.nstruct ? &basis : NULL, DUAL_SIMPLEX, &status);
    free(basis.cstat);
    free(basis.rstat);
    if (solved != 0 || status != QS_LP_OPTIMAL) {
        snprintf(err, errlen, "QSopt_ex found no exact optimum (status %d)", status);
        goto out;
    }
    mpq_t objval;
    mpq_init(objval);
    int got = mpq_QSget_objval(qs, &objval);
    lx_use(&lx_own); /* the caller's numbers */
    mpq_set(value, objval);
    for (int j = 0; j < n; j++)
        mpq_set(primal[j], x[j]);
    for (int i = 0; dual_out && i < m; i++)
        mpq_set(dual_out[i], dual[i]);
    lx_use(&lx_theirs);
    mpq_clear(objval);
    if (got != 0) {
        snprintf(err, errlen, "QSopt_ex gave no objective value");
        goto out;
    }
    rc = 0;
out:
    if (qs)
        mpq_QSfree_prob(qs);
    free(cnt), free(beg), free(index), free(ind), free(val), free(sense);
    lx_array_free(coef, (size_t)nz), lx_array_free(obj, (size_t)n), lx_array_free(lo, (size_t)n);
    lx_array_free(up, (size_t)n), lx_array_free(rhs, (size_t)m), lx_array_free(dual, (size_t)m);
    lx_array_free(x, (size_t)n + (size_t)m);
    lx_use(&lx_own);
    return rc;
}
