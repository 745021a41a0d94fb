/* tests/unit/test_lpexact.c — exact LPs by QSopt_ex (lpexact.h): a small LP's optimum and duals as exact
 * fractions, coefficients stored as doubles (1/3) read back as the fractions they stand for, a starting basis
 * that changes nothing but the start, and the refusals (a free row, a column without bounds). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lpexact.h"
#include "test_util.h"

/* max x + y  s.t.  x + 2y <= 4,  3x + y <= 6,  (1/3) x + y >= 1/3 - 1,  0 <= x, y <= 10:
 * x = 8/5, y = 6/5, value 14/5; the duals of the two tight rows are 2/5 and 1/5 (up to sign). */
static glp_prob *small_lp(void)
{
    glp_prob *lp = glp_create_prob();
    glp_set_obj_dir(lp, GLP_MAX);
    glp_add_rows(lp, 3);
    glp_add_cols(lp, 2);
    glp_set_row_bnds(lp, 1, GLP_UP, 0, 4);
    glp_set_row_bnds(lp, 2, GLP_UP, 0, 6);
    glp_set_row_bnds(lp, 3, GLP_LO, 1.0 / 3 - 1, 0);
    for (int j = 1; j <= 2; j++) {
        glp_set_col_bnds(lp, j, GLP_DB, 0, 10);
        glp_set_obj_coef(lp, j, 1);
    }
    int ia[] = { 0, 1, 1, 2, 2, 3, 3 }, ja[] = { 0, 1, 2, 1, 2, 1, 2 };
    double ar[] = { 0, 1, 2, 3, 1, 1.0 / 3, 1 };
    glp_load_matrix(lp, 6, ia, ja, ar);
    return lp;
}

static void check_optimum(const unsigned char *start)
{
    glp_prob *lp = small_lp();
    mpq_t x[2], y[3], v;
    for (int i = 0; i < 2; i++)
        mpq_init(x[i]);
    for (int i = 0; i < 3; i++)
        mpq_init(y[i]);
    mpq_init(v);
    char err[300] = "";
    if (lx_solve(lp, start, x, y, v, err, sizeof err) != 0)
        fail_msg("lx_solve: %s", err);
    char *text = mpq_get_str(NULL, 10, v);
    assert_string_equal(text, "14/5");
    free(text);
    mpq_t q;
    mpq_init(q);
    mpq_set_si(q, 8, 5);
    assert_true(mpq_equal(x[0], q));
    mpq_set_si(q, 6, 5);
    assert_true(mpq_equal(x[1], q));
    mpq_abs(y[0], y[0]), mpq_abs(y[1], y[1]);
    mpq_set_si(q, 2, 5);
    assert_true(mpq_equal(y[0], q));
    mpq_set_si(q, 1, 5);
    assert_true(mpq_equal(y[1], q));
    assert_int_equal(mpq_sgn(y[2]), 0); /* not tight */
    mpq_clear(q);
    for (int i = 0; i < 2; i++)
        mpq_clear(x[i]);
    for (int i = 0; i < 3; i++)
        mpq_clear(y[i]);
    mpq_clear(v);
    glp_delete_prob(lp);
}

static void a_small_lp_exactly(void **state)
{
    (void)state;
    check_optimum(NULL);
    /* started from the optimal basis, from the slack basis, and from one with too few basic variables (not
     * a basis: ignored): the same optimum */
    unsigned char optimal[5] = { 1, 1, 3, 3, 1 }, slack[5] = { 3, 3, 1, 1, 1 }, wrong[5] = { 2, 3, 1, 1, 3 };
    check_optimum(optimal);
    check_optimum(slack);
    check_optimum(wrong);
}

/* A coefficient stored as the double nearest 1/3 is read as 1/3: max y s.t. (1/3) x + y <= 1, x = 1 fixed
 * gives exactly 2/3. */
static void doubles_read_as_fractions(void **state)
{
    (void)state;
    glp_prob *lp = glp_create_prob();
    glp_set_obj_dir(lp, GLP_MAX);
    glp_add_rows(lp, 1);
    glp_add_cols(lp, 2);
    glp_set_row_bnds(lp, 1, GLP_UP, 0, 1);
    glp_set_col_bnds(lp, 1, GLP_FX, 1, 1);
    glp_set_col_bnds(lp, 2, GLP_DB, -5, 5);
    glp_set_obj_coef(lp, 2, 1);
    int ia[] = { 0, 1, 1 }, ja[] = { 0, 1, 2 };
    double ar[] = { 0, 1.0 / 3, 1 };
    glp_load_matrix(lp, 2, ia, ja, ar);
    mpq_t x[2], v;
    mpq_inits(x[0], x[1], v, NULL);
    char err[300] = "";
    if (lx_solve(lp, NULL, x, NULL, v, err, sizeof err) != 0)
        fail_msg("lx_solve: %s", err);
    char *text = mpq_get_str(NULL, 10, v);
    assert_string_equal(text, "2/3");
    free(text);
    mpq_clears(x[0], x[1], v, NULL);
    glp_delete_prob(lp);
}

static void refusals(void **state)
{
    (void)state;
    mpq_t x[2], v;
    mpq_inits(x[0], x[1], v, NULL);
    char err[300] = "";
    glp_prob *lp = small_lp();
    glp_set_col_bnds(lp, 2, GLP_LO, 0, 0);
    assert_int_equal(lx_solve(lp, NULL, x, NULL, v, err, sizeof err), -1);
    assert_non_null(strstr(err, "column 2 is not boxed"));
    glp_delete_prob(lp);
    lp = small_lp();
    glp_set_row_bnds(lp, 3, GLP_FR, 0, 0);
    assert_int_equal(lx_solve(lp, NULL, x, NULL, v, err, sizeof err), -1);
    assert_non_null(strstr(err, "row 3"));
    glp_delete_prob(lp);
    mpq_clears(x[0], x[1], v, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_small_lp_exactly),
        cmocka_unit_test(doubles_read_as_fractions),
        cmocka_unit_test(refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
