/* tests/unit/test_classify_value.c — the values `arena classify` gives the boards nobody wins surely (the
 * double oracle, classify.h) and its first-move table, against computations that share none of their code:
 * - the board's value: Black's sequence-form LP (seqform.h, GLPK) on every board and variant where it is
 *   quick and nobody wins surely (2x2 abrupt, -noisy, -flash; the 2x3 and 3x2 abrupt LPs take minutes, and
 *   test_doracle confirms the double oracle there by bestresponse.c), and the fraction cl_fraction reads from
 *   it equal to the one read from the LP's value;
 * - each first cell's value (the game where Black's first attempt is fixed to it, and known to White): the
 *   LP on a tree built from a game whose root offers Black that one cell (a wrapper written here, not
 *   do_options.fix_root), on 2x2 abrupt (all three forms) and on three cells of 2x3 abrupt (cells that
 *   classify copies from their image under the half-turn included), and on every cell of 2x3 abrupt the
 *   fallback alone (cl_options.first_sequence_only: the sequence oracle with the first attempt fixed) giving the
 *   tree's double oracle's fractions; on a board
 *   Black wins surely (2x2 and 2x3 classical), a cell keeps the sure win exactly when that LP's value is 1;
 *   on a White sure win (3x2 classical), that LP gives -1 for a cell;
 * - what holds on every board whatever the values: no first cell is worth more than the board (max <= value;
 *   in the dark variants it can be less, White not seeing where Black opened), each cell's best response to
 *   White's equilibrium is at least its fixed value, and the best of those best responses is the value;
 * - cl_fraction on every fraction with a denominator up to 60 and on large ones, and none near sqrt(2);
 * - with a directory to write to, each solved row's value certificate (valcert.h) beside its policy file:
 *   cl_check_certificate verifies it, exactly at the row's value, on 2x2 abrupt and 3x2 abrupt;
 * - where the tree does not fit (a node limit), the tree-free oracles' exact value on abrupt 3x2 and 2x3
 *   (-1/8 and 9/11) and their value certificate verified at it; the first-move table there from the sequence
 *   oracle with Black's first attempt fixed, each cell's certificate verified at its fraction, two cells
 *   against the LP of the fixed game;
 * - a row's own certificate in the output directory: verified and used (exact: the row done; an interval:
 *   the seed, replaced by the exact value found), a refuted one named and not used;
 * - a -noisy row whose plain row's certificate is in the output directory: the report-blind certificate
 *   written and verified, the row's interval within it and holding the value; a wrong board's refused;
 * - `arena classify --first-moves --json`: strict JSON, a "how" and "fraction" on every row, a first-move
 *   entry per cell; without --first-moves no "first_moves" key. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classify.h"
#include "darkhex.h"
#include "doracle.h"
#include "game.h"
#include "seqform.h"
#include "test_sys.h"
#include "test_util.h"
#include "valcert.h"

E2E_FIXTURE(dir, "test-classify-value")

/* ---- a game whose root offers Black one cell ---------------------------------------------------------- */

/* The state: the inner game's, then one byte saying it is the root (the size kept a multiple of 16, so that
 * the tree builder's array of states keeps the inner states aligned). */
typedef struct {
    const efg_game *inner;
    int cell;
} fixed_game;

static const efg_game *inner_of(const efg_game *g)
{
    return ((const fixed_game *)g->ctx)->inner;
}

static bool at_root(const efg_game *g, const void *state)
{
    return ((const unsigned char *)state)[inner_of(g)->state_size] != 0;
}

static void fx_root(const efg_game *g, void *state)
{
    inner_of(g)->root(inner_of(g), state);
    ((unsigned char *)state)[inner_of(g)->state_size] = 1;
}

static int fx_player(const efg_game *g, const void *state)
{
    return inner_of(g)->player(inner_of(g), state);
}

static double fx_utility(const efg_game *g, const void *state)
{
    return inner_of(g)->utility(inner_of(g), state);
}

static int fx_actions(const efg_game *g, const void *state, uint16_t *out, double *probs)
{
    int n = inner_of(g)->actions(inner_of(g), state, out, probs);
    if (!at_root(g, state))
        return n;
    int cell = ((const fixed_game *)g->ctx)->cell;
    for (int i = 0; i < n; i++)
        if (out[i] == cell) {
            out[0] = (uint16_t)cell;
            return 1;
        }
    fail_msg("cell %d is not a first move", cell);
    return 0;
}

static void fx_apply(const efg_game *g, void *dst, const void *src, int action)
{
    inner_of(g)->apply(inner_of(g), dst, src, action);
    ((unsigned char *)dst)[inner_of(g)->state_size] = 0;
}

static uint64_t fx_infoset(const efg_game *g, const void *state)
{
    return inner_of(g)->infoset(inner_of(g), state);
}

/* Black's LP value of the R x C board of v, Black's first attempt fixed to cell (-1: free). */
static double lp_value(int rows, int cols, hx_variant v, int cell)
{
    sv_darkhex params = { .variant = v, .rows = rows, .cols = cols };
    efg_game inner, g;
    sv_darkhex_game(&inner, &params);
    fixed_game fx = { .inner = &inner, .cell = cell };
    g = (efg_game){ .state_size = (inner.state_size + 1 + 15) / 16 * 16, .root = fx_root, .player = fx_player, .utility = fx_utility,
                    .actions = fx_actions, .apply = fx_apply, .infoset = fx_infoset, .ctx = &fx };
    sv_tree t;
    assert_int_equal(sv_tree_build(&t, cell < 0 ? &inner : &g, 10000000, false), 0);
    double *policy = malloc(sizeof *policy * t.n_actions);
    assert_non_null(policy);
    sf_options o;
    sf_options_default(&o);
    o.only = 0;
    sf_result r;
    char err[300] = "";
    if (sf_solve(&t, &o, policy, &r, err, sizeof err) != 0)
        fail_msg("sf_solve: %s", err);
    free(policy);
    sv_tree_free(&t);
    return r.value;
}

static void classify(int rows, int cols, hx_variant v, cl_row *row)
{
    cl_options o;
    cl_options_default(&o);
    o.budget_s = 600; /* never reached on these boards: a stage stopped by a loaded machine is not a failure */
    o.first_moves = true;
    assert_int_equal(cl_classify(rows, cols, v, &o, row), 0);
}

/* What holds on every exact row with a first-move table (see the top). */
static void check_first_moves(const cl_row *r)
{
    assert_int_equal(r->n_first, r->rows * r->cols);
    double best = -2, best_br = -2;
    for (int i = 0; i < r->n_first; i++) {
        const cl_first_move *m = &r->first[i];
        assert_int_equal(m->cell, i);
        assert_true(m->lower <= m->upper + 1e-12);
        assert_true(m->lower >= -1 - 1e-12 && m->upper <= 1 + 1e-12);
        if (m->exact)
            best = fmax(best, m->value);
        if (m->has_br) {
            assert_true(m->br >= m->upper - 1e-9); /* White's equilibrium is one White strategy: min <= it */
            best_br = fmax(best_br, m->br);
        }
    }
    assert_true(best <= r->value + 1e-9);
    if (r->has_root_br)
        assert_true(fabs(best_br - r->value) < 1e-9);
}

/* ---- the tests ---------------------------------------------------------------------------------------- */

static void value_equals_lp(void **state)
{
    (void)state;
    static const hx_variant abrupt[] = { HX_ABRUPT, HX_ABRUPT_NOISY, HX_ABRUPT_FLASH };
    for (size_t i = 0; i < 3; i++) {
        cl_row r;
        classify(2, 2, abrupt[i], &r);
        double lp = lp_value(2, 2, abrupt[i], -1);
        print_message("2x2 %-13s %s %.12f = %ld/%ld, LP %.12f\n", hx_variant_name(abrupt[i]), r.how, r.value, r.num,
                      r.den, lp);
        assert_int_equal(r.outcome, CL_NEITHER);
        assert_string_equal(r.how, "double oracle");
        assert_true(r.exact);
        assert_true(fabs(r.value - lp) < 1e-9);
        assert_true(r.lower <= lp + 1e-9 && lp <= r.upper + 1e-9);
        long num, den;
        assert_true(cl_fraction(lp, lp, &num, &den));
        assert_int_equal(r.num, num);
        assert_int_equal(r.den, den);
        check_first_moves(&r);
        for (int c = 0; c < 4; c++) { /* every first cell against the LP of the restricted game */
            double v = lp_value(2, 2, abrupt[i], c);
            assert_true(r.first[c].exact);
            assert_string_equal(r.first[c].how, "double oracle");
            assert_true(fabs(r.first[c].value - v) < 1e-9);
        }
    }
}

static void first_moves_2x3_abrupt(void **state)
{
    (void)state;
    cl_row r;
    classify(2, 3, HX_ABRUPT, &r);
    assert_string_equal(r.how, "double oracle");
    check_first_moves(&r);
    /* a1, b1, b2 (each restricted LP takes seconds); b2 is b1's image under the half-turn, whose entry
     * classify copies from b1's: the LP checks that copy too */
    static const int cells[] = { 0, 1, 4 };
    for (size_t k = 0; k < sizeof cells / sizeof cells[0]; k++) {
        double v = lp_value(2, 3, HX_ABRUPT, cells[k]);
        const cl_first_move *m = &r.first[cells[k]];
        print_message("2x3 abrupt first cell %d: %.12f (%ld/%ld), LP %.12f\n", cells[k], m->value, m->num, m->den, v);
        assert_true(m->exact);
        assert_true(fabs(m->value - v) < 1e-9);
    }
    /* the fallback alone (first_sequence_only): every cell from the sequence oracle with Black's first attempt
     * fixed, the same fractions as the tree's double oracle */
    cl_options o;
    cl_options_default(&o);
    o.budget_s = 600;
    o.first_moves = true;
    o.first_sequence_only = true;
    cl_row q;
    assert_int_equal(cl_classify(2, 3, HX_ABRUPT, &o, &q), 0);
    assert_int_equal(q.n_first, r.n_first);
    for (int c = 0; c < q.n_first; c++) {
        print_message("2x3 abrupt first cell %d: %s %ld/%ld, %s %ld/%ld\n", c, r.first[c].how, r.first[c].num,
                      r.first[c].den, q.first[c].how, q.first[c].num, q.first[c].den);
        assert_string_equal(r.first[c].how, "double oracle");
        assert_string_equal(q.first[c].how, "sequence oracle");
        assert_true(q.first[c].exact);
        assert_int_equal(q.first[c].num, r.first[c].num);
        assert_int_equal(q.first[c].den, r.first[c].den);
        assert_true(q.first[c].den > 0);
    }
}

static void first_moves_sure_wins(void **state)
{
    (void)state;
    static const int boards[][2] = { { 2, 2 }, { 2, 3 } };
    for (size_t b = 0; b < 2; b++) {
        int rows = boards[b][0], cols = boards[b][1];
        cl_row r;
        classify(rows, cols, HX_CLASSICAL, &r);
        assert_int_equal(r.outcome, CL_BLACK);
        check_first_moves(&r);
        int keep = 0;
        for (int c = 0; c < rows * cols; c++) {
            const cl_first_move *m = &r.first[c];
            double v = lp_value(rows, cols, HX_CLASSICAL, c);
            print_message("%dx%d classical first cell %d: %s, LP %.9f\n", rows, cols, c,
                          m->exact ? "keeps the sure win" : "no sure win", v);
            assert_true(m->exact != m->no_sure_win);
            assert_true(m->exact == (v > 1 - 1e-9)); /* a value of 1 is a sure win */
            keep += m->exact;
        }
        assert_true(keep >= 1);
    }
    cl_row r;
    classify(3, 2, HX_CLASSICAL, &r);
    assert_int_equal(r.outcome, CL_WHITE);
    check_first_moves(&r);
    assert_true(r.first[2].exact && r.first[2].value == -1);
    assert_true(lp_value(3, 2, HX_CLASSICAL, 2) < -1 + 1e-9);
}

static long gcd(long a, long b)
{
    a = labs(a);
    while (b) {
        long t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static void fractions(void **state)
{
    (void)state;
    long num, den;
    for (long q = 1; q <= 60; q++)
        for (long p = -q; p <= q; p++) {
            double x = (double)p / (double)q;
            assert_true(cl_fraction(x, x, &num, &den));
            long g = gcd(p, q);
            assert_int_equal(num, p / g);
            assert_int_equal(den, q / g);
        }
    static const long big[][2] = { { -1347, 15572 }, { 25, 31 }, { 9973, 19997 }, { -1, 19999 } };
    for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
        double x = (double)big[i][0] / (double)big[i][1];
        assert_true(cl_fraction(x - 3e-11, x + 3e-11, &num, &den)); /* bounds a little around it */
        assert_int_equal(num, big[i][0]);
        assert_int_equal(den, big[i][1]);
    }
    assert_false(cl_fraction(sqrt(2) - 1, sqrt(2) - 1, &num, &den));
    assert_false(cl_fraction(0.5, 0.4, &num, &den)); /* no interval */
}

static void fixed_root_refused(void **state)
{
    (void)state;
    sv_darkhex params = { .variant = HX_ABRUPT, .rows = 2, .cols = 2 };
    efg_game g;
    sv_darkhex_game(&g, &params);
    sv_tree t;
    assert_int_equal(sv_tree_build(&t, &g, 100000, false), 0);
    do_options o;
    do_options_default(&o);
    o.fix_root = true;
    o.root_action = 4; /* the root has 4 actions */
    do_result r;
    char err[200] = "";
    assert_int_equal(do_solve(&t, &o, NULL, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "fix_root"));
    sv_tree_free(&t);
}

/* classify writes a value certificate for each solved row, and the independent checker verifies it at the row's
 * value. */
static void value_certificates_written(void **state)
{
    (void)state;
    char out[400];
    snprintf(out, sizeof out, "%s/value-certificates", dir);
    assert_int_equal(sh_run("rm -rf '%s' && mkdir -p '%s'", out, out), 0);
    static const struct { int rows, cols; } boards[] = { { 2, 2 }, { 3, 2 } };
    for (size_t i = 0; i < 2; i++) {
        cl_options o;
        cl_options_default(&o);
        o.budget_s = 600;
        o.out_dir = out;
        cl_row r;
        assert_int_equal(cl_classify(boards[i].rows, boards[i].cols, HX_ABRUPT, &o, &r), 0);
        assert_true(r.exact);
        char path[600], msg[900], want[80];
        snprintf(path, sizeof path, "%s/%dx%d-abrupt.value", out, boards[i].rows, boards[i].cols);
        if (!strstr(r.note, "; value certificate "))
            fail_msg("the row's note does not name its value certificate: %s", r.note);
        cl_check c = cl_check_certificate(path, 0, 0, msg, sizeof msg);
        print_message("%s\n", msg);
        assert_int_equal(c, CL_CHECK_VERIFIED);
        snprintf(want, sizeof want, "verified: value %ld/%ld", r.num, r.den);
        if (!strstr(msg, want))
            fail_msg("expected \"%s\" in: %s", want, msg);
        /* the full check's cap: undecided past it (naming it), verified without one (0), from the command too */
        assert_int_equal(cl_check_certificate_cap(path, 0, 0, 20, msg, sizeof msg), CL_CHECK_UNDECIDED);
        if (!strstr(msg, "undecided: more than 20 histories"))
            fail_msg("expected \"undecided: more than 20 histories\" in: %s", msg);
        assert_int_equal(cl_check_certificate_cap(path, 0, 0, 0, msg, sizeof msg), CL_CHECK_VERIFIED);
        assert_int_equal(sh_run("'%s/arena' classify --check --max-histories 20 '%s' >/dev/null", bin, path), 1);
        assert_int_equal(sh_run("'%s/arena' classify --check --max-histories 0 '%s' >/dev/null", bin, path), 0);
    }
}

/* A fresh directory DIR/name holding abrupt 2x4's certificate (docs/certificates), and options that write there
 * with a node limit of 1,000 (no tree) and a budget of 5 s. */
static void dir_with_2x4(const char *name, char *out, size_t n, cl_options *o)
{
    snprintf(out, n, "%s/%s", dir, name);
    assert_int_equal(sh_run("rm -rf '%s' && mkdir -p '%s' && cp docs/certificates/2x4-abrupt.value '%s/'", out, out,
                            out), 0);
    cl_options_default(o);
    o->budget_s = 5;
    o->max_nodes = 1000;
    o->out_dir = out;
}

/* A row's own certificate left in the output directory (without the tree): checked in full and taken as the
 * row's bounds; exact (abrupt 2x4's, docs/certificates) the row is done at its fraction and the file stays as it
 * was; an interval (abrupt 3x2 stopped after 20 restricted games) seeds the oracle, and the exact -1/8 it then
 * finds replaces it; a certificate whose stated bound is wrong is named REFUTED and not used (the row's own takes
 * its place); a check stopped by the memory guard leaves the kept file as it was. */
static void kept_certificates(void **state)
{
    (void)state;
    char out[400], path[600], msg[900];
    cl_options o;
    dir_with_2x4("kept", out, sizeof out, &o);
    cl_row r;
    assert_int_equal(cl_classify(2, 4, HX_ABRUPT, &o, &r), 0);
    print_message("2x4 abrupt: %s; %s\n", r.how, r.note);
    assert_true(r.exact);
    assert_string_equal(r.how, "certificate");
    assert_int_equal(r.num, 14895781);
    assert_int_equal(r.den, 15954601);
    assert_true(strstr(r.note, "2x4-abrupt.value verified") != NULL);
    assert_int_equal(sh_run("cmp -s docs/certificates/2x4-abrupt.value '%s/2x4-abrupt.value'", out), 0);

    /* the same check under a memory limit it cannot keep: stopped and named; the file stays as it was and the
     * row's own certificate, if it writes one, goes beside it */
    assert_int_equal(sh_run("cp docs/certificates/3x3-abrupt.value '%s/'", out), 0);
    o.max_memory_mb = 1;
    o.budget_s = 2;
    assert_int_equal(cl_classify(3, 3, HX_ABRUPT, &o, &r), 0);
    print_message("3x3 abrupt, 1 MB: %s; %s\n", r.how, r.note);
    if (!strstr(r.note, "3x3-abrupt.value not used, kept unchecked: its check stopped after ") ||
        !strstr(r.note, "over the memory limit of 1 MB"))
        fail_msg("the stopped check is not named: %s", r.note);
    assert_true(strcmp(r.how, "certificate") != 0);
    assert_int_equal(sh_run("cmp -s docs/certificates/3x3-abrupt.value '%s/3x3-abrupt.value'", out), 0);
    bool beside = sh_run("test -s '%s/3x3-abrupt.value.new'", out) == 0; /* when its bounds beat uniform */
    assert_int_equal(beside, strstr(r.note, "beside the unchecked one") != NULL);
    o.max_memory_mb = 0;

    /* an interval: the seed, then replaced by the exact value */
    snprintf(path, sizeof path, "%s/3x2-abrupt.value", out);
    assert_int_equal(sh_run("'%s/arena' solve --variant abrupt --board 3x2 --method sequence-oracle --solver clp "
                            "--max-iterations 20 --certificate '%s' >/dev/null; test -s '%s'", bin, path, path), 0);
    assert_int_equal(cl_check_certificate(path, 0, 0, msg, sizeof msg), CL_CHECK_VERIFIED);
    assert_non_null(strstr(msg, "value in ["));
    o.budget_s = 600;
    assert_int_equal(cl_classify(3, 2, HX_ABRUPT, &o, &r), 0);
    print_message("3x2 abrupt: %s; %s\n", r.how, r.note);
    assert_true(strstr(r.note, "3x2-abrupt.value verified: [") != NULL);
    assert_true(strstr(r.note, "sequence oracle seeded by it") != NULL);
    assert_true(r.exact);
    assert_int_equal(r.num, -1);
    assert_int_equal(r.den, 8);
    assert_true(strstr(r.note, "it replaces the kept certificate") != NULL);
    assert_int_equal(cl_check_certificate(path, 0, 0, msg, sizeof msg), CL_CHECK_VERIFIED);
    assert_non_null(strstr(msg, "verified: value -1/8"));
    char fresh[700];
    snprintf(fresh, sizeof fresh, "%s.new", path);
    assert_int_equal(sh_run("test -e '%s'", fresh), 1);

    /* a bound its strategies do not give: refused by name, the row's own certificate in its place */
    assert_int_equal(sh_run("sed -i 's#^lower .*#lower 0#' '%s'", path), 0);
    assert_int_equal(cl_check_certificate(path, 0, 0, msg, sizeof msg), CL_CHECK_REFUTED);
    assert_int_equal(cl_classify(3, 2, HX_ABRUPT, &o, &r), 0);
    print_message("3x2 abrupt, refuted: %s; %s\n", r.how, r.note);
    assert_true(strstr(r.note, "3x2-abrupt.value not used: REFUTED") != NULL);
    assert_string_equal(r.how, "sequence oracle");
    assert_int_equal(cl_check_certificate(path, 0, 0, msg, sizeof msg), CL_CHECK_VERIFIED);
    assert_non_null(strstr(msg, "verified: value -1/8"));
}

/* A -noisy row whose plain row's value certificate is in the output directory (here abrupt 2x4's exact
 * equilibrium, docs/certificates) starts from that certificate played deaf to the reports: its certificate
 * RxC-V-blind.value written and verified, the row's interval no wider than it and holding the board's value
 * (docs/solved.md: 14396749/15637354), and a certificate of another board in the plain row's place is named
 * and not used; under a memory limit it cannot keep, the step is stopped, named, and leaves no file. */
static void report_blind_rows(void **state)
{
    (void)state;
    char out[400], path[600], msg[900];
    cl_options o;
    dir_with_2x4("report-blind", out, sizeof out, &o);
    cl_row r;
    assert_int_equal(cl_classify(2, 4, HX_ABRUPT_NOISY, &o, &r), 0);
    print_message("2x4 abrupt-noisy: %s, [%+.12f, %+.12f]; %s\n", r.how, r.lower, r.upper, r.note);
    snprintf(path, sizeof path, "%s/2x4-abrupt-noisy-blind.value", out);
    if (!strstr(r.note, "; report-blind certificate ") || !strstr(r.note, path))
        fail_msg("the row's note does not name its report-blind certificate %s: %s", path, r.note);
    assert_int_equal(cl_check_certificate(path, 0, 0, msg, sizeof msg), CL_CHECK_VERIFIED);
    print_message("%s\n", msg);
    vc_cert *c = vc_load(path, msg, sizeof msg);
    if (!c)
        fail_msg("%s", msg);
    hx_variant cv;
    int cr, cc;
    uint64_t states[2];
    vc_describe(c, &cv, &cr, &cc, states);
    assert_int_equal(cv, HX_ABRUPT_NOISY);
    assert_int_equal(cr, 2);
    assert_int_equal(cc, 4);
    assert_true(states[0] > 0 && states[1] > 0);
    vc_free(c);
    const double value = 14396749.0 / 15637354.0;
    assert_true(r.lower <= value + 1e-12 && value <= r.upper + 1e-12);
    assert_true(r.upper - r.lower < 2);
    assert_true(!strcmp(r.how, "report-blind") || !strncmp(r.how, "sequence oracle", 15) ||
                !strcmp(r.how, "sequence-oracle bounds"));
    /* the blind certificate's own bounds, read back: they hold the value, and the row's interval is no wider */
    const char *b = strstr(r.note, "; report-blind certificate ");
    assert_non_null(b);
    double l, h;
    assert_int_equal(sscanf(strstr(b, ": [") + 3, "%lf, %lf", &l, &h), 2);
    print_message("blind [%+.9f, %+.9f]\n", l, h);
    assert_true(l <= value + 1e-9 && value <= h + 1e-9);
    assert_true(r.upper - r.lower <= h - l + 2e-9);

    /* another board's certificate where the plain row's should be: named, not used */
    assert_int_equal(sh_run("rm -rf '%s' && mkdir -p '%s' && cp docs/certificates/4x2-abrupt.value '%s/2x4-abrupt.value'",
                            out, out, out), 0);
    o.budget_s = 2;
    assert_int_equal(cl_classify(2, 4, HX_ABRUPT_FLASH, &o, &r), 0);
    print_message("2x4 abrupt-flash: %s; %s\n", r.how, r.note);
    if (!strstr(r.note, "is a certificate of 4x2 abrupt, not of the whole 2x4 abrupt game"))
        fail_msg("the wrong certificate is not named: %s", r.note);
    assert_true(strcmp(r.how, "report-blind") != 0);
    snprintf(path, sizeof path, "%s/2x4-abrupt-flash-blind.value", out);
    assert_int_equal(sh_run("test -e '%s'", path), 1);

    /* a memory limit the step cannot keep: it is stopped, named, leaves no file, and the row goes on */
    dir_with_2x4("report-blind-memory", out, sizeof out, &o);
    o.budget_s = 2;
    o.max_memory_mb = 1;
    assert_int_equal(cl_classify(2, 4, HX_ABRUPT_NOISY, &o, &r), 0);
    print_message("2x4 abrupt-noisy, 1 MB: %s, [%+.6f, %+.6f]; %s\n", r.how, r.lower, r.upper, r.note);
    if (!strstr(r.note, "; report-blind: stopped after ") || !strstr(r.note, "over the memory limit of 1 MB"))
        fail_msg("the stopped step is not named: %s", r.note);
    assert_true(strcmp(r.how, "report-blind") != 0);
    assert_true(r.lower <= value + 1e-9 && value <= r.upper + 1e-9);
    snprintf(path, sizeof path, "%s/2x4-abrupt-noisy-blind.value", out);
    assert_int_equal(sh_run("test -e '%s'", path), 1);
}

/* Options where the tree does not fit (a node limit of 1,000 on every board here), with 600 s a row, the
 * first-move table, and the certificates in out. */
static void tree_free_options(cl_options *o, const char *out)
{
    cl_options_default(o);
    o->budget_s = 600;
    o->max_nodes = 1000;
    o->out_dir = out;
    o->first_moves = true;
}

/* Where the tree does not fit (here: a node limit of 1,000 on abrupt 3x2 and 2x3), the tree-free oracles
 * give the value: exact at the tree's value (test_doracle's -1/8 and 9/11), `how` "sequence oracle", the
 * fraction from the last restricted game solved in rational arithmetic, and the value certificate of its
 * exact strategies verified at it. */
static void value_without_the_tree(void **state)
{
    (void)state;
    char out[400];
    snprintf(out, sizeof out, "%s/tree-free", dir);
    assert_int_equal(sh_run("rm -rf '%s' && mkdir -p '%s'", out, out), 0);
    static const struct { int rows, cols; long num, den; } boards[] = { { 3, 2, -1, 8 }, { 2, 3, 9, 11 } };
    for (size_t i = 0; i < 2; i++) {
        cl_options o;
        tree_free_options(&o, out);
        cl_row r;
        assert_int_equal(cl_classify(boards[i].rows, boards[i].cols, HX_ABRUPT, &o, &r), 0);
        print_message("%dx%d abrupt: %s, [%+.12f, %+.12f]; %s\n", boards[i].rows, boards[i].cols, r.how, r.lower,
                      r.upper, r.note);
        assert_true(r.exact);
        assert_string_equal(r.how, "sequence oracle");
        assert_true(strstr(r.note, "more than 1000 nodes") != NULL);
        assert_int_equal(r.num, boards[i].num);
        assert_int_equal(r.den, boards[i].den);
        char path[600], msg[900], want[80];
        snprintf(want, sizeof want, "exact %ld/%ld (QSopt_ex)", boards[i].num, boards[i].den);
        if (!strstr(r.note, want))
            fail_msg("expected \"%s\" in: %s", want, r.note);
        snprintf(path, sizeof path, "%s/%dx%d-abrupt.value", out, boards[i].rows, boards[i].cols);
        assert_int_equal(cl_check_certificate(path, 0, 0, msg, sizeof msg), CL_CHECK_VERIFIED);
        snprintf(want, sizeof want, "verified: value %ld/%ld", boards[i].num, boards[i].den);
        if (!strstr(msg, want))
            fail_msg("expected \"%s\" in: %s", want, msg);
        /* the first-move table by the sequence oracle with Black's first attempt fixed: each cell's fraction
         * verified in its own certificate (the cells before their half-turn image), two cells of 3x2 against
         * the LP of the fixed game */
        check_first_moves(&r);
        int cells = boards[i].rows * boards[i].cols;
        for (int c = 0; c < cells; c++) {
            const cl_first_move *m = &r.first[c];
            assert_true(m->exact);
            assert_string_equal(m->how, "sequence oracle");
            assert_true(m->den > 0);
            assert_true(fabs(m->value - (double)m->num / (double)m->den) < 1e-9);
            if (c > cells - 1 - c) {
                assert_int_equal(m->num, r.first[cells - 1 - c].num);
                assert_int_equal(m->den, r.first[cells - 1 - c].den);
                continue;
            }
            char name[8];
            hx_cell_name(c, boards[i].cols, name);
            snprintf(path, sizeof path, "%s/%dx%d-abrupt-first-%s.value", out, boards[i].rows, boards[i].cols, name);
            assert_int_equal(cl_check_certificate(path, 0, 0, msg, sizeof msg), CL_CHECK_VERIFIED);
            snprintf(want, sizeof want, "after Black's first attempt at %s: verified: value %ld%s", name, m->num,
                     m->den == 1 ? " " : "/");
            if (!strstr(msg, want))
                fail_msg("expected \"%s\" in: %s", want, msg);
            if (i == 0 && c < 2) {
                double lp = lp_value(boards[i].rows, boards[i].cols, HX_ABRUPT, c);
                print_message("%dx%d abrupt first cell %s: %ld/%ld, LP %.12f\n", boards[i].rows, boards[i].cols, name,
                              m->num, m->den, lp);
                assert_true(fabs(m->value - lp) < 1e-9);
            }
        }
    }
}

/* The first-move certificates left in the output directory (RxC-V-first-CELL.value, as classify writes them and
 * `make solved` copies docs/certificates/first/ there), on abrupt 3x2 without the tree: an exact one (b1, -1/2)
 * is the cell's value ("certificate") and stays as it was; an interval one (a1 stopped after 12 restricted games)
 * is checked, seeds the oracle, and the exact -5/7 it then finds replaces it; one whose stated bound is wrong
 * (a2) is named REFUTED and the cell's own certificate takes its place; a certificate of another opening under a
 * cell's name is named and not used. */
static void kept_first_move_certificates(void **state)
{
    (void)state;
    char out[400], path[600], msg[900];
    snprintf(out, sizeof out, "%s/kept-first", dir);
    assert_int_equal(sh_run("rm -rf '%s' && mkdir -p '%s'", out, out), 0);
    static const char *solve = "--variant abrupt --board 3x2 --method sequence-oracle --solver clp";
    assert_int_equal(sh_run("cd '%s' && '%s/arena' solve %s --first b1 --exact --certificate 3x2-abrupt-first-b1.value "
                            ">/dev/null && cp 3x2-abrupt-first-b1.value b1.value", out, bin, solve), 0);
    sh_run("cd '%s' && '%s/arena' solve %s --first a1 --max-iterations 12 --certificate 3x2-abrupt-first-a1.value "
           ">/dev/null 2>&1", out, bin, solve); /* exit 1: stopped at an interval */
    assert_int_equal(sh_run("cd '%s' && '%s/arena' solve %s --first a2 --exact --certificate 3x2-abrupt-first-a2.value "
                            ">/dev/null && sed -i 's#^lower .*#lower 0#' 3x2-abrupt-first-a2.value", out, bin, solve), 0);
    snprintf(path, sizeof path, "%s/3x2-abrupt-first-a1.value", out);
    assert_int_equal(cl_check_certificate(path, 0, 0, msg, sizeof msg), CL_CHECK_VERIFIED);
    if (!strstr(msg, "value in ["))
        fail_msg("a1's certificate is not an interval: %s", msg);
    cl_options o;
    tree_free_options(&o, out);
    cl_row r;
    assert_int_equal(cl_classify(3, 2, HX_ABRUPT, &o, &r), 0);
    print_message("3x2 abrupt: %s; %s\n", r.how, r.note);
    assert_true(r.exact && r.n_first == 6);
    static const struct { const char *cell, *how; long num, den; } want[] = {
        { "a1", "sequence oracle", -5, 7 }, { "b1", "certificate", -1, 2 }, { "a2", "sequence oracle", -2, 3 } };
    for (int c = 0; c < 3; c++) {
        const cl_first_move *m = &r.first[c];
        print_message("first %s: %s %ld/%ld\n", want[c].cell, m->how, m->num, m->den);
        assert_true(m->exact);
        assert_string_equal(m->how, want[c].how);
        assert_int_equal(m->num, want[c].num);
        assert_int_equal(m->den, want[c].den);
        snprintf(path, sizeof path, "%s/3x2-abrupt-first-%s.value", out, want[c].cell);
        assert_int_equal(cl_check_certificate(path, 0, 0, msg, sizeof msg), CL_CHECK_VERIFIED);
        char says[120];
        snprintf(says, sizeof says, "after Black's first attempt at %s: verified: value %ld/%ld", want[c].cell,
                 want[c].num, want[c].den);
        if (!strstr(msg, says))
            fail_msg("expected \"%s\" in: %s", says, msg);
    }
    if (!strstr(r.note, "3x2-abrupt-first-a1.value verified: [") || !strstr(r.note, "it replaces the kept certificate") ||
        !strstr(r.note, "3x2-abrupt-first-b1.value verified: [-0.5") ||
        !strstr(r.note, "3x2-abrupt-first-a2.value not used: REFUTED"))
        fail_msg("the kept certificates are not named: %s", r.note);
    assert_int_equal(sh_run("cmp -s '%s/b1.value' '%s/3x2-abrupt-first-b1.value'", out, out), 0);
    assert_int_equal(sh_run("test -e '%s/3x2-abrupt-first-a1.value.new'", out), 1);

    /* another opening's certificate under a1's name: named, not used, and the cell's own takes its place */
    assert_int_equal(sh_run("cp '%s/b1.value' '%s/3x2-abrupt-first-a1.value'", out, out), 0);
    assert_int_equal(cl_classify(3, 2, HX_ABRUPT, &o, &r), 0);
    if (!strstr(r.note, "3x2-abrupt-first-a1.value is a certificate of 3x2 abrupt after Black's first attempt at b1, "
                        "not of the 3x2 abrupt game after Black's first attempt at a1"))
        fail_msg("the other opening is not named: %s", r.note);
    assert_string_equal(r.first[0].how, "sequence oracle");
    assert_int_equal(r.first[0].num, -5);
    snprintf(path, sizeof path, "%s/3x2-abrupt-first-a1.value", out);
    assert_int_equal(cl_check_certificate(path, 0, 0, msg, sizeof msg), CL_CHECK_VERIFIED);
    assert_non_null(strstr(msg, "after Black's first attempt at a1: verified: value -5/7"));
}

static void cli_first_moves(void **state)
{
    (void)state;
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "'%s/arena' classify --max-cells 4 --variants abrupt,classical --first-moves --json", bin);
    char *json = sh_output(cmd);
    strict_json("arena classify --first-moves --json", json);
    assert_non_null(strstr(json, "\"variant\": \"abrupt\", \"outcome\": \"neither\", \"value\": 0.5"));
    assert_non_null(strstr(json, "\"how\": \"double oracle\", \"fraction\": \"1/2\", \"first_moves_seconds\": "));
    assert_non_null(strstr(json, "\"how\": \"sure-win search\", \"fraction\": \"1/1\", \"first_moves_seconds\": "));
    int cells = 0;
    for (const char *p = json; (p = strstr(p, "{\"cell\": \"")); p++)
        cells++;
    assert_int_equal(cells, 8); /* 4 cells on each of the two rows */
    assert_non_null(strstr(json, "\"sure_win\": true"));
    free(json);
    snprintf(cmd, sizeof cmd, "'%s/arena' classify --max-cells 4 --variants abrupt --json", bin);
    json = sh_output(cmd);
    strict_json("arena classify --json", json);
    assert_null(strstr(json, "first_moves"));
    assert_non_null(strstr(json, "\"how\": \"double oracle\""));
    free(json);
    snprintf(cmd, sizeof cmd, "'%s/arena' classify --max-cells 4 --variants abrupt --first-moves", bin);
    char *text = sh_output(cmd);
    assert_non_null(strstr(text, "first moves ("));
    assert_non_null(strstr(text, "double oracle"));
    free(text);
    /* --progress: one line a row on stderr, counting the rows, with the time left until the last */
    snprintf(cmd, sizeof cmd, "'%s/arena' classify --max-cells 4 --variants abrupt,classical --progress --json 2>&1 "
             ">/dev/null", bin);
    text = sh_output(cmd);
    print_message("%s", text);
    assert_non_null(strstr(text, "arena classify: 1/2 2x2 abrupt: neither +0.500000 (double oracle, "));
    assert_non_null(strstr(text, " left\narena classify: 2/2 2x2 classical: black (sure-win search, "));
    assert_null(strstr(strstr(text, "2/2"), " left"));
    free(text);
    /* --max-memory guards the certificate steps: without --certificates it is refused by name */
    snprintf(cmd, sizeof cmd, "'%s/arena' classify --max-cells 4 --max-memory 100 2>&1; echo \"exit $?\"", bin);
    text = sh_output(cmd);
    assert_non_null(strstr(text, "--max-memory goes with --certificates DIR"));
    assert_non_null(strstr(text, "exit 2"));
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(value_equals_lp),
        cmocka_unit_test(first_moves_2x3_abrupt),
        cmocka_unit_test(first_moves_sure_wins),
        cmocka_unit_test(fractions),
        cmocka_unit_test(fixed_root_refused),
        cmocka_unit_test(value_certificates_written),
        cmocka_unit_test(value_without_the_tree),
        cmocka_unit_test(report_blind_rows),
        cmocka_unit_test(kept_certificates),
        cmocka_unit_test(kept_first_move_certificates),
        cmocka_unit_test(cli_first_moves),
    };
    return cmocka_run_group_tests(tests, e2e_setup, e2e_teardown);
}
